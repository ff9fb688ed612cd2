"""Punto banco's results as JSON-ready data and as tables for people.

Exact numbers are written as strings ``"num/den"`` (always with a
denominator) and, for people, as floats beside them.  :class:`EdgeReport`
(every bet's odds and house edge, ``baccara edge``) and :class:`RemovalReport`
(effects of removal, ``baccara eor``) are the result objects; the functions
below build their documents and tables.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from rich.table import Table

from ..algebraic import fraction_str
from ..errors import BaccaraError
from ..result import Result
from ..rules import PUNTO_BANCO, Tableau
from ..shoe import Shoe
from .bets import Bet, builtin_bets
from .exact import (
    BetResult,
    CoupDistribution,
    RemovalEffect,
    applicable_bets,
    coup_distribution,
    effects_of_removal,
    evaluate_bets,
)
from .known import Known


def percent(x: Fraction | None, digits: int = 4) -> str:
    return "-" if x is None else f"{float(x) * 100:.{digits}f}%"


def bet_json(r: BetResult) -> dict:
    """One bet's result, exact fractions as strings, with float companions."""
    return {
        "description": r.bet.description,
        "ev": fraction_str(r.ev),
        "edge": fraction_str(r.edge),
        "edge_percent": float(r.edge) * 100,
        "p_win": fraction_str(r.p_win),
        "p_push": fraction_str(r.p_push),
        "p_loss": fraction_str(r.p_loss),
        "variance": fraction_str(r.variance),
        "sd": r.sd,
        "payouts": {fraction_str(p): fraction_str(q) for p, q in sorted(r.probabilities.items())},
    }


def edge_json(shoe: Shoe, dist: CoupDistribution, results: Mapping[str, BetResult], parameters: dict) -> dict:
    """The ``baccara edge --json`` document."""
    return {
        "shoe": shoe.describe(),
        "tableau": dist.tableau.name,
        "known": dist.known.to_json() if dist.known is not None else {},
        "parameters": {k: fraction_str(v) for k, v in parameters.items()},
        "deals": str(dist.deals),
        "outcomes": {k: fraction_str(v) for k, v in dist.outcomes().items()},
        "bets": {name: bet_json(r) for name, r in results.items()},
    }


def edge_table(shoe: Shoe, dist: CoupDistribution, results: Mapping[str, BetResult]) -> Table:
    """The table printed by ``baccara edge``."""
    o = dist.outcomes()
    given = f", given {dist.known.describe()}" if dist.known is not None else ""
    rules = f", {dist.tableau.name} tableau" if dist.tableau.player_draws != PUNTO_BANCO.player_draws \
        or dist.tableau.banker_draws != PUNTO_BANCO.banker_draws else ""
    title = (
        f"{shoe.label()}{rules}{given}: Banker {percent(o['banker'])}, Player {percent(o['player'])}, "
        f"Tie {percent(o['tie'])}"
    )
    t = Table(title=title)
    for col in ("bet", "win", "push", "loss", "house edge", "sd"):
        t.add_column(col, justify="left" if col == "bet" else "right", no_wrap=True)
    for name, r in results.items():
        t.add_row(name, percent(r.p_win), percent(r.p_push), percent(r.p_loss), percent(r.edge), f"{r.sd:.4f}")
    return t


def exact_edges_lines(results: Mapping[str, BetResult]) -> list[str]:
    """One line per bet with its house edge as an exact fraction."""
    return [f"{name}: edge = {fraction_str(r.edge)}" for name, r in results.items()]


def eor_json(shoe: Shoe, bet_name: str, base: Fraction, effects: list[RemovalEffect]) -> dict:
    """The ``baccara eor --json`` document."""
    return {
        "shoe": shoe.describe(),
        "bet": bet_name,
        "edge": fraction_str(base),
        "effects": {
            e.rank: {
                "cards_left": e.cards_left,
                "effect": None if e.effect is None else fraction_str(e.effect),
                "effect_percent": None if e.effect is None else float(e.effect) * 100,
                "edge_after": None if e.edge_after is None else fraction_str(e.edge_after),
            }
            for e in effects
        },
    }


def eor_table(shoe: Shoe, bet_name: str, base: Fraction, effects: list[RemovalEffect]) -> Table:
    """The table printed by ``baccara eor``: change in house edge per card removed."""
    t = Table(title=f"Effects of removal, {bet_name}, {shoe.label()} (house edge {percent(base)})")
    for col in ("rank", "cards left", "house edge after", "effect on the house edge"):
        t.add_column(col, justify="right")
    for e in effects:
        eff = "-" if e.effect is None else f"{float(e.effect) * 100:+.6f}%"
        t.add_row(e.rank, str(e.cards_left), percent(e.edge_after, 6), eff)
    return t


# ---------------------------------------------------------------- result objects
@dataclass(repr=False)
class EdgeReport(Result):
    """Every bet's win, push and loss probabilities and house edge for one shoe, exactly.

    Attributes
    ----------
    shoe : Shoe
        What is dealt.
    distribution : CoupDistribution
        The coup's outcomes (given what is known of its cards).
    results : dict
        Bet name -> :class:`~baccara.punto.exact.BetResult`.
    parameters : dict
        The house parameters the bets were built with (commission, tie and Super 6 payouts).
    skipped : dict
        Bets the shoe cannot price, with the reason.
    """

    shoe: Shoe
    distribution: CoupDistribution
    results: dict[str, BetResult]
    parameters: dict = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict:
        """The ``baccara edge --json`` document.

        Returns
        -------
        dict
            ``shoe``, ``tableau``, ``known``, ``parameters``, ``deals``, ``outcomes`` and
            ``bets`` (each: ``ev``, ``edge``, ``edge_percent``, ``p_win``, ``p_push``, ``p_loss``,
            ``variance``, ``sd``, ``payouts``); ``skipped`` when some bets could not be priced.
        """
        doc = edge_json(self.shoe, self.distribution, self.results, self.parameters)
        if self.skipped:
            doc["skipped"] = dict(self.skipped)
        return doc

    def summary(self) -> str:
        """The shoe and the three outcomes' probabilities.

        Returns
        -------
        str
            The line.
        """
        o = self.distribution.outcomes()
        return (f"{self.shoe.label()}: Banker {percent(o['banker'])}, Player {percent(o['player'])}, "
                f"Tie {percent(o['tie'])}; {len(self.results)} bets priced")

    def renderables(self) -> list:
        """The table of bets, then the bets not priced.

        Returns
        -------
        list
            A Rich table and, when some were skipped, a line.
        """
        out: list = [edge_table(self.shoe, self.distribution, self.results)]
        if self.skipped:
            out.append(f"Not priced (this shoe is known only by {self.shoe.resolution}): {', '.join(self.skipped)}")
        return out

    def exact_lines(self) -> list[str]:
        """One line per bet with its house edge as an exact fraction.

        Returns
        -------
        list of str
            ``"name: edge = num/den"``.
        """
        return exact_edges_lines(self.results)


@dataclass(repr=False)
class RemovalReport(Result):
    """A bet's effects of removal: the exact change in its house edge when one card of each rank leaves.

    Attributes
    ----------
    shoe : Shoe
        The shoe before the removal.
    bet : str
        The bet's name.
    edge : Fraction
        Its house edge for ``shoe``.
    effects : list of RemovalEffect
        One per rank (per value for a shoe known by value).
    """

    shoe: Shoe
    bet: str
    edge: Fraction
    effects: list[RemovalEffect]

    def to_json(self) -> dict:
        """The ``baccara eor --json`` document.

        Returns
        -------
        dict
            ``shoe``, ``bet``, ``edge`` and ``effects`` (by rank: ``cards_left``, ``effect``,
            ``effect_percent``, ``edge_after``; None where no card of the rank is left).
        """
        return eor_json(self.shoe, self.bet, self.edge, self.effects)

    def summary(self) -> str:
        """The bet, the shoe, its edge and the rank whose removal helps the player most.

        Returns
        -------
        str
            The line.
        """
        live = [e for e in self.effects if e.effect is not None]
        best = (f"; removing one {min(live, key=lambda e: e.effect or Fraction(0)).rank} lowers it most"
                if live else "")
        return f"Effects of removal, {self.bet}, {self.shoe.label()}: house edge {percent(self.edge)}{best}"

    def renderables(self) -> list:
        """The table of effects.

        Returns
        -------
        list
            One Rich table.
        """
        return [eor_table(self.shoe, self.bet, self.edge, self.effects)]


def edge_report(shoe: Shoe, bets: Mapping[str, Bet] | None = None, tableau: Tableau = PUNTO_BANCO,
                known: Known | Mapping | str | None = None, parameters: Mapping | None = None) -> EdgeReport:
    """Every bet's odds and house edge for one shoe, exactly, as one result (``baccara edge``).

    Parameters
    ----------
    shoe : Shoe
        What is dealt: fresh decks, an infinite shoe, any depleted composition.
    bets : mapping of str to Bet, optional
        The bets (default: every built-in bet); bets the shoe's resolution cannot price
        (pairs on a shoe known only by value) are listed as skipped.
    tableau : Tableau
        The drawing rules (default punto banco's).
    known : Known, mapping or str, optional
        What is known of the coup's cards (``{1: "9"}``, ``"1 in 6,7,8,9"``).
    parameters : mapping, optional
        The house parameters the bets were built with, reported in the JSON.

    Returns
    -------
    EdgeReport
        ``to_json()``, ``show()``; ``results[name].edge`` is the exact house edge.
    """
    if not isinstance(shoe, Shoe):
        raise BaccaraError(f"shoe must be a baccara.Shoe, got {type(shoe).__name__}")
    all_bets = dict(builtin_bets() if bets is None else bets)
    priced = applicable_bets(shoe, all_bets)
    skipped = {n: f"needs a shoe known by {b.resolution}" for n, b in all_bets.items() if n not in priced}
    dist = coup_distribution(shoe, tableau, known)
    return EdgeReport(shoe, dist, evaluate_bets(dist, priced.values()), dict(parameters or {}), skipped)


def removal_report(shoe: Shoe, bet: Bet, tableau: Tableau = PUNTO_BANCO) -> RemovalReport:
    """A bet's effects of removal for a finite shoe, exactly, as one result (``baccara eor``).

    Parameters
    ----------
    shoe : Shoe
        A finite shoe.
    bet : Bet
        The bet (see :func:`~baccara.punto.bets.builtin_bets`).
    tableau : Tableau
        The drawing rules.

    Returns
    -------
    RemovalReport
        The bet's edge and, for each rank, the edge after removing one card of it and the change.
    """
    base, effects = effects_of_removal(shoe, bet, tableau)
    return RemovalReport(shoe, bet.name, base, effects)
