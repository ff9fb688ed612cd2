"""Results as JSON-ready data and as tables for people.

Exact numbers are written as strings ``"num/den"`` (always with a
denominator) and, for people, as floats beside them.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from rich.table import Table

from .algebraic import fraction_str
from .exact import BetResult, CoupDistribution, RemovalEffect
from .rules import PUNTO_BANCO
from .shoe import Shoe


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
    for col in ("rank", "cards left", "edge after", "effect"):
        t.add_column(col, justify="right")
    for e in effects:
        eff = "-" if e.effect is None else f"{float(e.effect) * 100:+.6f}%"
        t.add_row(e.rank, str(e.cards_left), percent(e.edge_after, 6), eff)
    return t
