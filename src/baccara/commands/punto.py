"""``baccara edge``, ``eor``, ``totals``, ``bets`` and ``fields``: punto banco exactly, for any shoe (declarations and
bodies)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from rich.console import Console
from rich.markup import escape

from ..errors import BaccaraError, BetError
from ..punto.bets import Bet, builtin_bets, field_help
from ..punto.events import CARD_FIELD_EXAMPLES, CARD_FIELDS
from ..punto.events import FIELDS as OUTCOME_FIELDS
from ..punto.exact import applicable_bets
from ..punto.report import edge_report, removal_report
from ..punto.totals import TotalsReport, totals_distribution
from ..result import Result
from . import Command, Param
from .console import out
from .options import (
    ADD,
    BETS,
    COMPOSITION,
    DECKS,
    HOUSE,
    KNOWN,
    REMOVE,
    SHOE,
    TABLEAU,
    build_bets,
    build_known,
    build_shoe,
    build_tableau,
)

#: ``baccara edge --exact``: the command line's own presentation (the web app shows exact values anyway).
EXACT = Param("exact", "--exact", "Also print each edge as an exact fraction.", False, "bool", shows=True)

EDGE = Command(("edge",), "Every bet's win / push / loss probabilities and house edge, exactly (given what is known "
                          "of the coup's cards).",
               (*SHOE, *HOUSE, BETS, KNOWN, TABLEAU, EXACT), ".punto:edge", quick=True)
TOTALS = Command(("totals",), "Outcomes by totals: the exact probability of each final (Player total, Banker total), "
                              "each hand's final total, and the coups by cards drawn.",
                 (*SHOE, TABLEAU, EXACT.but(help="Also print every probability as an exact fraction.")),
                 ".punto:totals", quick=True)
EOR = Command(("eor",), "Effects of removal: the exact change in a bet's house edge when one card of each rank is "
                        "removed.",
              (Param("bet", "--bet", "Bet name (see 'baccara bets').", ..., short="-b"), DECKS, COMPOSITION, REMOVE,
               ADD, *HOUSE, BETS), ".punto:eor", quick=True)
BETS_LIST = Command(("bets",), "List the bets: built-in, and those of a --bets file.", (*HOUSE, BETS),
                    ".punto:list_bets")
FIELDS = Command(("fields",), "The event fields a user-defined bet's 'when' can test.", (), ".punto:fields")


def edge(*, decks: str | None, infinite: bool, composition: str | None, remove: str | None, add: str | None,
         commission: str, tie_pays: str, super6_pays: str, bets: str | None, known: list[str] | None,
         tableau: str | None) -> Result:
    """Every bet's exact probabilities and house edge (:data:`EDGE`).

    Parameters
    ----------
    decks, infinite, composition, remove, add : str, bool, str, str, str or None
        The shoe (:func:`~baccara.commands.options.build_shoe`).
    commission, tie_pays, super6_pays : str
        The house's terms of the built-in bets.
    bets : str or None
        A TOML file of user-defined bets.
    known : list of str or None
        What is known of the coup's cards.
    tableau : str or None
        A TOML file of drawing rules.

    Returns
    -------
    Result
        :func:`baccara.punto.report.edge_report`'s.
    """
    shoe = build_shoe(decks, infinite, composition, remove, add)
    rules = build_tableau(tableau)
    given = build_known(known)
    all_bets, house = build_bets(commission, tie_pays, super6_pays, bets)
    builtin = builtin_bets()
    unpriced_user = [n for n, b in all_bets.items() if n not in builtin and n not in applicable_bets(shoe, {n: b})]
    if unpriced_user:
        needs = ", ".join(f"{n} needs a shoe known by {all_bets[n].resolution}" for n in unpriced_user)
        raise BaccaraError(f"--bets: {needs}; this shoe is known only by {shoe.resolution}")
    return edge_report(shoe, all_bets, rules, given, house)


def eor(*, bet: str, decks: str | None, composition: str | None, remove: str | None, add: str | None,
        commission: str, tie_pays: str, super6_pays: str, bets: str | None) -> Result:
    """One bet's exact effects of removal (:data:`EOR`).

    Parameters
    ----------
    bet : str
        The bet's name.
    decks, composition, remove, add : str or None
        The shoe (finite).
    commission, tie_pays, super6_pays : str
        The house's terms of the built-in bets.
    bets : str or None
        A TOML file of user-defined bets.

    Returns
    -------
    Result
        :func:`baccara.punto.report.removal_report`'s.
    """
    if decks is not None and decks.strip().lower() in ("inf", "infinite"):
        raise BaccaraError("--decks: effects of removal need a finite shoe, not 'inf'")
    shoe = build_shoe(decks, False, composition, remove, add)
    all_bets, _ = build_bets(commission, tie_pays, super6_pays, bets)
    if bet not in all_bets:
        raise BaccaraError(f"--bet: unknown bet {bet!r}; bets are {', '.join(all_bets)}")
    try:
        return removal_report(shoe, all_bets[bet])
    except BetError as e:
        raise BaccaraError(f"--bet {bet}: {e}") from None


def totals(*, decks: str | None, infinite: bool, composition: str | None, remove: str | None, add: str | None,
           tableau: str | None) -> TotalsReport:
    """The exact outcomes by totals (:data:`TOTALS`).

    Parameters
    ----------
    decks, infinite, composition, remove, add : str, bool, str, str, str or None
        The shoe (:func:`~baccara.commands.options.build_shoe`).
    tableau : str or None
        A TOML file of drawing rules.

    Returns
    -------
    TotalsReport
        :func:`baccara.punto.totals.totals_distribution`'s.
    """
    return totals_distribution(build_shoe(decks, infinite, composition, remove, add), build_tableau(tableau))


@dataclass
class BetList(Result):
    """The bets by name (``baccara bets``): one line each for people, ``[{name, description}]`` as JSON.

    Parameters
    ----------
    bets : dict
        Name -> :class:`~baccara.punto.bets.Bet`, built-in first.
    """

    bets: dict[str, Bet]

    def to_json(self) -> list:
        """Every bet's name and description, in order.

        Returns
        -------
        list of dict
            ``[{"name", "description"}]``.
        """
        return [{"name": name, "description": b.description} for name, b in self.bets.items()]

    def summary(self) -> str:
        """How many bets.

        Returns
        -------
        str
            The line.
        """
        return f"{len(self.bets)} bets"

    def show(self, console: Console | None = None) -> None:
        """Print ``name: description``, one bet a line, the name in bold.

        Parameters
        ----------
        console : rich.console.Console, optional
            Where to print (default: the commands' console on standard output).
        """
        for name, b in self.bets.items():
            (console or out).print(f"[bold]{name}[/]: {escape(b.description)}", highlight=False)


@dataclass
class FieldList(Result):
    """The event fields a bet's ``when`` can test (``baccara fields``), with what each needs of the shoe.

    For people, :func:`baccara.punto.bets.field_help`'s text; as JSON, one entry per field.
    """

    def to_json(self) -> list:
        """Every field: its name, description, the shoe's resolution it needs, and an example value (cards only).

        Returns
        -------
        list of dict
            ``[{"name", "on", "description", "needs", "example"}]``: ``on`` is ``outcome`` (the coup's outcome,
            priced by the cell engine) or ``cards`` (the cards themselves); ``example`` is null for outcomes.
        """
        doc: list[dict[str, Any]] = [{"name": name, "on": "outcome", "description": desc, "needs": res,
                                      "example": None} for name, (_, desc, res) in OUTCOME_FIELDS.items()]
        doc += [{"name": name, "on": "cards", "description": desc,
                 "needs": {"value": "value", "rank": "rank"}.get(attr, "suit"), "example": CARD_FIELD_EXAMPLES[kind]}
                for name, (kind, desc, attr, _) in CARD_FIELDS.items()]
        return doc

    def summary(self) -> str:
        """How many fields.

        Returns
        -------
        str
            The line.
        """
        return f"{len(OUTCOME_FIELDS)} fields on the outcome, {len(CARD_FIELDS)} on the cards"

    def renderables(self) -> Iterable[Any]:
        """The help text, one line a field.

        Returns
        -------
        iterable
            Lines of text.
        """
        return field_help().split("\n")

    def show(self, console: Console | None = None) -> None:
        """Print :func:`baccara.punto.bets.field_help`.

        Parameters
        ----------
        console : rich.console.Console, optional
            Where to print (default: the commands' console on standard output).
        """
        (console or out).print(field_help(), highlight=False)


def list_bets(*, commission: str, tie_pays: str, super6_pays: str, bets: str | None) -> BetList:
    """The bets: built-in, and those of a ``--bets`` file (:data:`BETS_LIST`).

    Parameters
    ----------
    commission, tie_pays, super6_pays : str
        The house's terms of the built-in bets.
    bets : str or None
        A TOML file of user-defined bets.

    Returns
    -------
    BetList
        Every bet by name.
    """
    all_bets, _ = build_bets(commission, tie_pays, super6_pays, bets)
    return BetList(all_bets)


def fields() -> FieldList:
    """The event fields a user-defined bet's ``when`` can test (:data:`FIELDS`).

    Returns
    -------
    FieldList
        Every field.
    """
    return FieldList()
