"""Outcomes by totals: the exact probability of every final (Player total, Banker total) of a coup.

A coup ends with each hand holding two or three cards and a total 0-9; the winner follows from the two
totals.  The exact engine's value-level kernel (:func:`baccara.punto.exact.value_cell_counts`) already
counts the ordered deals that end in each (Player total, Player's cards, Banker total, Banker's cards),
so nothing is dealt again here: this module sums those counts into the 10 x 10 table of final totals,
each hand's distribution of its final total (the table's margins), and the coup's outcomes by the
number of cards each hand held (naturals, both standing, Player or Banker drawing, both drawing),
with who won in each.  Everything is an exact :class:`~fractions.Fraction`; :class:`TotalsReport` is the
result (``baccara totals``), its document writes each probability as ``"num/den"`` with its float beside.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

import numpy as np
from rich import box
from rich.table import Table

from ..algebraic import fraction_str
from ..errors import BaccaraError
from ..result import Result
from ..rules import PUNTO_BANCO, Tableau
from ..shoe import Shoe
from .exact import value_cell_counts

#: The classes of a coup by the cards each hand held, in the order shown: name, short label, what it is
#: (:func:`card_class` sorts the cells).  A two-card 8 or 9 is always a natural (no tableau draws on it), and
#: a natural ends the coup, so the five classes split every coup.
CARD_CLASSES: tuple[tuple[str, str, str], ...] = (
    ("naturals", "natural", "a natural (either hand's two cards total 8 or 9): nobody draws"),
    ("both_stand", "both stand", "no natural, both hands stand on two cards"),
    ("player_draws_banker_stands", "Player draws, Banker stands", "Player draws a third card, Banker stands on two"),
    ("player_stands_banker_draws", "Player stands, Banker draws", "Player stands on two cards, Banker draws a third"),
    ("both_draw", "both draw", "both hands draw a third card"),
)

WINNERS = ("banker", "player", "tie")


def winner_of(player_total: int, banker_total: int) -> str:
    """Who wins a coup whose hands end on these totals.

    Parameters
    ----------
    player_total, banker_total : int
        The final totals, 0-9.

    Returns
    -------
    str
        ``"banker"``, ``"player"`` or ``"tie"``.
    """
    return "player" if player_total > banker_total else "banker" if banker_total > player_total else "tie"


def card_class(player_total: int, player_cards: int, banker_total: int, banker_cards: int) -> str:
    """The class of :data:`CARD_CLASSES` of a coup that ends so.

    Parameters
    ----------
    player_total, banker_total : int
        The final totals, 0-9.
    player_cards, banker_cards : int
        The cards each hand held, 2 or 3.

    Returns
    -------
    str
        The class's name.
    """
    if player_cards == 2 and banker_cards == 2:
        return "naturals" if max(player_total, banker_total) >= 8 else "both_stand"
    if player_cards == 3:
        return "both_draw" if banker_cards == 3 else "player_draws_banker_stands"
    return "player_stands_banker_draws"


def _exact(x: Fraction) -> dict:
    """A probability as the document writes it: exact text and its float."""
    return {"exact": fraction_str(x), "float": float(x)}


def _pct(x: Fraction, digits: int = 4) -> str:
    """A probability as a percentage, as a calculator shows it."""
    return f"{100 * float(x):.{digits}f}%"


@dataclass(frozen=True, eq=False, repr=False)
class TotalsReport(Result):
    """The exact distribution of a coup's final totals for one shoe and drawing table.

    Attributes
    ----------
    shoe : Shoe
        What is dealt.
    tableau : Tableau
        The drawing rules.
    counts : numpy.ndarray
        Ordered six-card deals ending in each cell, shape ``(10, 2, 10, 2)``: (Player total, Player's cards
        - 2, Banker total, Banker's cards - 2) (:func:`baccara.punto.exact.value_cell_counts`).
    deals : int
        Every ordered deal: the counts' sum (``shoe.deals()``).
    """

    shoe: Shoe
    tableau: Tableau
    counts: np.ndarray
    deals: int

    def _p(self, count: int) -> Fraction:
        return Fraction(int(count), self.deals)

    @cached_property
    def table(self) -> tuple[tuple[Fraction, ...], ...]:
        """``table[p][b]``: the probability that Player ends on total ``p`` and Banker on ``b``.

        Returns
        -------
        tuple of tuple of Fraction
            10 rows (Player's total) of 10 (Banker's); they sum to 1.
        """
        summed = self.counts.sum(axis=(1, 3))
        return tuple(tuple(self._p(summed[p, b]) for b in range(10)) for p in range(10))

    @cached_property
    def player_totals(self) -> tuple[Fraction, ...]:
        """The distribution of Player's final total, 0-9 (the table's row sums).

        Returns
        -------
        tuple of Fraction
            Ten probabilities.
        """
        return tuple(self._p(self.counts[p].sum()) for p in range(10))

    @cached_property
    def banker_totals(self) -> tuple[Fraction, ...]:
        """The distribution of Banker's final total, 0-9 (the table's column sums).

        Returns
        -------
        tuple of Fraction
            Ten probabilities.
        """
        return tuple(self._p(self.counts[:, :, b].sum()) for b in range(10))

    @cached_property
    def by_cards(self) -> dict[str, dict[str, Fraction]]:
        """Each class of :data:`CARD_CLASSES`: its probability and the probability of each winner in it.

        Returns
        -------
        dict
            Class name -> ``{"probability", "banker", "player", "tie"}`` (joint probabilities: a class's
            winners sum to its probability, the classes to 1).
        """
        tally: dict[str, dict[str, int]] = {name: dict.fromkeys(WINNERS, 0) for name, _, _ in CARD_CLASSES}
        for (p, pc, b, bc), n in np.ndenumerate(self.counts):
            if n:
                tally[card_class(p, pc + 2, b, bc + 2)][winner_of(p, b)] += int(n)
        return {name: {"probability": self._p(sum(t.values())), **{w: self._p(t[w]) for w in WINNERS}}
                for name, t in tally.items()}

    @cached_property
    def outcomes(self) -> dict[str, Fraction]:
        """P(Banker wins), P(Player wins), P(tie), from the table.

        Returns
        -------
        dict
            Winner -> probability.
        """
        out = dict.fromkeys(WINNERS, Fraction(0))
        for p in range(10):
            for b in range(10):
                out[winner_of(p, b)] += self.table[p][b]
        return out

    @cached_property
    def naturals(self) -> dict[str, Fraction]:
        """The probabilities of naturals: each hand's natural 8 and 9, each hand's natural, either.

        Returns
        -------
        dict
            ``player_8``, ``player_9``, ``player``, ``banker_8``, ``banker_9``, ``banker`` and ``either``.
        """
        c = self.counts
        out = {f"player_{t}": self._p(c[t, 0].sum()) for t in (8, 9)}
        out["player"] = out["player_8"] + out["player_9"]
        out |= {f"banker_{t}": self._p(c[:, :, t, 0].sum()) for t in (8, 9)}
        out["banker"] = out["banker_8"] + out["banker_9"]
        out["either"] = self.by_cards["naturals"]["probability"]
        return out

    # ------------------------------------------------------------ the result protocol
    def to_json(self) -> dict:
        """The ``baccara totals --json`` document.

        Returns
        -------
        dict
            ``shoe``, ``tableau``, ``deals``; ``totals`` (100 rows, the first table a CSV download takes:
            ``player_total``, ``banker_total``, ``winner``, ``probability``); ``matrix`` (the same as a table:
            Player's total -> Banker's total -> exact probability); ``player_totals`` and ``banker_totals``
            (total -> probability); ``outcomes`` (banker, player, tie); ``by_cards`` (class -> ``label``,
            ``description``, ``player_cards``, ``banker_cards``, ``probability``, ``banker``, ``player``, ``tie``);
            ``naturals``.  Every probability but the
            matrix's is ``{"exact": "num/den", "float": x}``.
        """
        cards = {"naturals": (2, 2), "both_stand": (2, 2), "player_draws_banker_stands": (3, 2),
                 "player_stands_banker_draws": (2, 3), "both_draw": (3, 3)}
        return {
            "shoe": self.shoe.describe(),
            "tableau": self.tableau.name,
            "deals": str(self.deals),
            "totals": [{"player_total": p, "banker_total": b, "winner": winner_of(p, b),
                        "probability": _exact(self.table[p][b])} for p in range(10) for b in range(10)],
            "matrix": {str(p): {str(b): fraction_str(self.table[p][b]) for b in range(10)} for p in range(10)},
            "player_totals": {str(t): _exact(x) for t, x in enumerate(self.player_totals)},
            "banker_totals": {str(t): _exact(x) for t, x in enumerate(self.banker_totals)},
            "outcomes": {w: _exact(x) for w, x in self.outcomes.items()},
            "by_cards": {name: {"label": label, "description": what, "player_cards": cards[name][0],
                                "banker_cards": cards[name][1], **{k: _exact(x) for k, x in self.by_cards[name].items()}}
                         for name, label, what in CARD_CLASSES},
            "naturals": {k: _exact(x) for k, x in self.naturals.items()},
        }

    def _title(self) -> str:
        custom = self.tableau.player_draws != PUNTO_BANCO.player_draws or \
            self.tableau.banker_draws != PUNTO_BANCO.banker_draws
        return f"{self.shoe.label()}{f', {self.tableau.name} tableau' if custom else ''}"

    def summary(self) -> str:
        """The shoe, the three outcomes and the likeliest pair of totals.

        Returns
        -------
        str
            The line.
        """
        o = self.outcomes
        p, b = max(((p, b) for p in range(10) for b in range(10)), key=lambda pb: self.table[pb[0]][pb[1]])
        return (f"Outcomes by totals, {self._title()}: Banker {_pct(o['banker'])}, Player {_pct(o['player'])}, "
                f"Tie {_pct(o['tie'])}; likeliest Player {p} against Banker {b} ({_pct(self.table[p][b])})")

    def renderables(self) -> list:
        """The summary, the table of totals with its margins, the coups by cards, the naturals.

        Returns
        -------
        list
            A line and three Rich tables.
        """
        grid = Table(title="Final totals, percent of coups: Player's (rows) against Banker's (columns)",
                     caption="'all': each hand's own distribution of its final total", box=box.SIMPLE_HEAD,
                     padding=0, show_edge=False)
        grid.add_column("P\\B", justify="right", no_wrap=True)
        for b in range(10):
            grid.add_column(str(b), justify="right", no_wrap=True)
        grid.add_column("all", justify="right", no_wrap=True, style="bold")
        for p in range(10):
            grid.add_row(str(p), *(f"{100 * float(x):.3f}" for x in self.table[p]),
                         f"{100 * float(self.player_totals[p]):.3f}")
        grid.add_row("all", *(f"{100 * float(x):.3f}" for x in self.banker_totals), "100", style="bold")
        cards = Table(title="Coups by the cards each hand held (percent of coups)")
        for col in ("coup", "probability", "Banker wins", "Player wins", "tie"):
            cards.add_column(col, justify="left" if col == "coup" else "right", no_wrap=col != "coup")
        for name, label, _ in CARD_CLASSES:
            row = self.by_cards[name]
            cards.add_row(label, *(_pct(row[k]) for k in ("probability", *WINNERS)))
        nat = self.naturals
        naturals = Table(title="Naturals")
        for col in ("hand", "natural 8", "natural 9", "natural"):
            naturals.add_column(col, justify="left" if col == "hand" else "right", no_wrap=True)
        for side in ("player", "banker"):
            naturals.add_row(side.capitalize(), _pct(nat[f"{side}_8"]), _pct(nat[f"{side}_9"]), _pct(nat[side]))
        naturals.add_row("either hand", "", "", _pct(nat["either"]))
        return [self.summary(), grid, cards, naturals]

    def exact_lines(self) -> list[str]:
        """Every probability of the report as an exact fraction, one a line.

        Returns
        -------
        list of str
            ``"P(Player 0, Banker 0) = num/den"`` for the 100 pairs, then the margins, the classes by
            cards and the naturals.
        """
        lines = [f"P(Player {p}, Banker {b}) = {fraction_str(self.table[p][b])}" for p in range(10) for b in range(10)]
        lines += [f"P(Player ends on {t}) = {fraction_str(x)}" for t, x in enumerate(self.player_totals)]
        lines += [f"P(Banker ends on {t}) = {fraction_str(x)}" for t, x in enumerate(self.banker_totals)]
        for name, _, _ in CARD_CLASSES:
            lines += [f"P({name}{'' if k == 'probability' else f', {k} wins' if k != 'tie' else ', tie'}) = "
                      f"{fraction_str(x)}" for k, x in self.by_cards[name].items()]
        lines += [f"P(natural: {k.replace('_', ' ')}) = {fraction_str(x)}" for k, x in self.naturals.items()]
        return lines


def totals_distribution(shoe: Shoe, tableau: Tableau = PUNTO_BANCO) -> TotalsReport:
    """The exact probability of every final (Player total, Banker total), and of the coups by cards drawn.

    Parameters
    ----------
    shoe : Shoe
        What is dealt: fresh decks, an infinite shoe, any depleted composition (only its counts by value
        matter).
    tableau : Tableau
        The drawing rules (default punto banco's).

    Returns
    -------
    TotalsReport
        ``table[p][b]``, ``player_totals``, ``banker_totals``, ``by_cards``, ``outcomes``, ``naturals`` as
        exact Fractions; ``to_json()``, ``show()``.

    Raises
    ------
    BaccaraError
        ``shoe`` is not a :class:`~baccara.shoe.Shoe`, or ``tableau`` not a :class:`~baccara.rules.Tableau`.
    """
    if not isinstance(shoe, Shoe):
        raise BaccaraError(f"shoe must be a baccara.Shoe, got {type(shoe).__name__}")
    if not isinstance(tableau, Tableau):
        raise BaccaraError(f"tableau must be a baccara.rules.Tableau, got {type(tableau).__name__}")
    counts = value_cell_counts(shoe, tableau)
    return TotalsReport(shoe, tableau, counts, shoe.deals())
