"""The live shoe: each coup's cards typed as they are dealt, the exact EV of every bet for the next coup.

The shoe's state is the page's URL (``/shoe?decks=8&coups=9 K 4 7 2;...``): no session on the server,
undo is the link without the last coup, and a shoe can be bookmarked.  The roads (bead plate, big road)
are drawn from the results, beside the exact statement that they carry no information beyond the cards
the coups removed: the next coup's probabilities are those of the cards left.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from ..cards import RANK_VALUE, parse_ranks, rank_index
from ..errors import BaccaraError
from ..rules import PUNTO_BANCO, Tableau
from .commands import COMMANDS, WebError

#: The house's terms a shoe is played on (options of ``baccara edge``).
HOUSE = ("commission", "tie-pays", "super6-pays")
#: Rows of the bead plate and of the big road.
ROAD_ROWS = 6


@dataclass(frozen=True)
class Coup:
    """One coup as dealt: its cards in the order out of the shoe, each hand, the winner."""

    ranks: tuple[str, ...]
    player: tuple[str, ...]
    banker: tuple[str, ...]
    player_total: int
    banker_total: int

    @property
    def winner(self) -> str:
        """``P``, ``B`` or ``T``."""
        if self.player_total == self.banker_total:
            return "T"
        return "P" if self.player_total > self.banker_total else "B"

    def text(self) -> str:
        """The cards as typed, canonical (``9 K 4 7 2``)."""
        return " ".join(self.ranks)


def parse_coup(text: str, tableau: Tableau = PUNTO_BANCO) -> Coup:
    """A coup from its cards in the order dealt: Player, Banker, Player, Banker, then any third cards.

    Parameters
    ----------
    text : str
        Ranks separated by spaces or commas (``9 K 4 7 2``); 0 or T for a ten.
    tableau : Tableau
        The drawing rules that say how many cards the coup takes.

    Returns
    -------
    Coup
        The coup.

    Raises
    ------
    BaccaraError
        An unknown rank, or not the number of cards the drawing rules deal.
    """
    try:
        ranks = parse_ranks(text, zero_is_ten=True)
    except BaccaraError as e:
        raise BaccaraError(f"coup: {e}") from None
    if len(ranks) < 4:
        raise BaccaraError(f"coup: a coup deals at least 4 cards (Player, Banker, Player, Banker), got {len(ranks)}: "
                           f"{text!r}")
    v = [RANK_VALUE[rank_index(r)] for r in ranks]
    player, banker = [ranks[0], ranks[2]], [ranks[1], ranks[3]]
    p, b = (v[0] + v[2]) % 10, (v[1] + v[3]) % 10
    used = 4
    if p < 8 and b < 8:
        third = None
        if tableau.player_draws[p]:
            if len(ranks) <= used:
                raise BaccaraError(f"coup: Player draws on {p}: give his third card after the first four ({text!r})")
            third = v[used]
            player.append(ranks[used])
            p = (p + third) % 10
            used += 1
        if tableau.banker_draws_on(b, third):
            if len(ranks) <= used:
                raise BaccaraError(f"coup: Banker draws on {b} here: give his third card ({text!r})")
            banker.append(ranks[used])
            b = (b + v[used]) % 10
            used += 1
    if len(ranks) != used:
        raise BaccaraError(f"coup: this coup deals {used} cards by the drawing rules, got {len(ranks)}: {text!r}")
    return Coup(tuple(ranks), tuple(player), tuple(banker), p, b)


def parse_coups(text: str) -> list[Coup]:
    """The coups of a shoe's URL: coups separated by ``;``.

    Parameters
    ----------
    text : str
        The coups.

    Returns
    -------
    list of Coup
        In the order dealt.
    """
    return [parse_coup(c) for c in text.split(";") if c.strip()]


def bead_plate(coups: list[Coup]) -> list[list[str]]:
    """The bead plate: results down columns of :data:`ROAD_ROWS`, left to right.

    Parameters
    ----------
    coups : list of Coup
        The coups dealt.

    Returns
    -------
    list of list of str
        Columns of ``P``, ``B``, ``T``.
    """
    winners = [c.winner for c in coups]
    return [winners[i:i + ROAD_ROWS] for i in range(0, len(winners), ROAD_ROWS)]


def big_road(coups: list[Coup]) -> list[list[dict]]:
    """The big road: a new column each time the winner changes, ties marked on the last cell.

    Parameters
    ----------
    coups : list of Coup
        The coups dealt.

    Returns
    -------
    list of list of dict
        Columns of ``{"w": "P" or "B", "ties": n}`` (a column longer than the road's rows goes on down:
        the dragon's tail is not drawn turning).
    """
    columns: list[list[dict]] = []
    leading_ties = 0
    for c in coups:
        if c.winner == "T":
            if columns:
                columns[-1][-1]["ties"] += 1
            else:
                leading_ties += 1
            continue
        if columns and columns[-1][0]["w"] == c.winner:
            columns[-1].append({"w": c.winner, "ties": 0})
        else:
            columns.append([{"w": c.winner, "ties": leading_ties}])
            leading_ties = 0
    return columns


def add_routes(app: FastAPI, page: Any) -> None:
    """Add ``/shoe`` to the app.

    Parameters
    ----------
    app : FastAPI
        The app.
    page : callable
        Renders a template: ``page(request, name, context, error)``.
    """

    @app.get("/shoe", response_class=HTMLResponse, include_in_schema=False)
    async def shoe(request: Request) -> Response:
        q = request.query_params
        decks = q.get("decks", "8").strip() or "8"
        house = {k: q[k].strip() for k in HOUSE if q.get(k, "").strip()}  # the table's terms, kept with the shoe
        coups_text = q.get("coups", "")
        error = None
        try:
            coups = parse_coups(coups_text)
        except BaccaraError as e:
            coups, error = [], {"error": str(e), "parameter": "coups"}
        new = q.get("coup", "").strip()
        if new and error is None:
            try:
                coup = parse_coup(new)
                candidate = [*coups, coup]
                await _edge(request, decks, house, candidate)  # refused if the shoe has no such cards left
                target = urlencode({"decks": decks, **house, "coups": ";".join(c.text() for c in candidate)})
                return RedirectResponse(f"/shoe?{target}", status_code=303)
            except BaccaraError as e:
                error = {"error": str(e), "parameter": "coup"}
            except WebError as e:
                if e.parameter == "remove":  # the cards dealt are not in what is left of the shoe
                    error = {"error": e.message.replace("--remove", "coup"), "parameter": "coup"}
                else:
                    error = e.body()
        doc = None
        if error is None or error["parameter"] == "coup":
            try:
                doc = await _edge(request, decks, house, coups)
            except WebError as e:
                error = e.body()
        undo = urlencode({"decks": decks, **house, "coups": ";".join(c.text() for c in coups[:-1])})
        positive = [n for n, b in (doc or {}).get("bets", {}).items() if b["ev"][0] != "-" and b["ev"] != "0/1"]
        return page(request, "shoe.html", {"doc": doc, "coups": coups, "decks": decks, "house": house,
                                           "new": "/shoe?" + urlencode({"decks": decks, **house}), "undo": f"/shoe?{undo}",
                                           "coups_text": ";".join(c.text() for c in coups), "positive": positive,
                                           "bead": bead_plate(coups), "road": big_road(coups),
                                           "rows": ROAD_ROWS, "api_query": edge_query(decks, house, coups)}, error)


def edge_query(decks: str, house: dict[str, str], coups: list[Coup]) -> list[tuple[str, str]]:
    """The parameters of ``baccara edge`` for the next coup: the decks, the table's terms, every card dealt removed.

    Parameters
    ----------
    decks : str
        The shoe's decks.
    house : dict
        The table's terms (commission, tie and Super 6 pays) given.
    coups : list of Coup
        The coups dealt.

    Returns
    -------
    list of (str, str)
        The query.
    """
    query = [("decks", decks), *house.items()]
    removed = [r for c in coups for r in c.ranks]
    if removed:
        query.append(("remove", ",".join(removed)))
    return query


async def _edge(request: Request, decks: str, house: dict[str, str], coups: list[Coup]) -> Any:
    """``baccara edge --decks D --remove (every card dealt) --json``: the next coup's exact bets."""
    return await request.app.state.engine.document(COMMANDS["edge"], edge_query(decks, house, coups))
