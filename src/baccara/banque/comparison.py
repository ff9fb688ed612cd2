"""Banker's advantage in baccara banque under each assumption, beside the historical estimates
quoted in Ethier and Lee's (2015) introduction."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from rich.table import Table

from ..algebraic import fraction_str as fstr
from ..result import Result
from ..solve.zero_sum import guaranteed
from .correlated_eq.solution import correlated_equilibrium
from .full_models import full_correlated_equilibrium
from .independent_eq.solution import independent_equilibrium
from .model import BanqueGame, banque_game
from .nash_eq.solution import nash_equilibria


def banker_advantage_comparison(theta: Fraction = Fraction(1, 2), game: BanqueGame | None = None) -> list[dict]:
    """Banker's advantage at theta under each assumption, beside the historical estimates
    quoted in Ethier and Lee's (2015) introduction (percent of the total stake).

    Parameters
    ----------
    theta : Fraction
        Player 1's share of the stakes (default 1/2).
    game : BanqueGame, optional
        The game (default: the paper's infinite shoe).

    Returns
    -------
    list of dict
        One row per assumption: ``assumption``, ``exact``, ``percent``, ``historical`` (the
        estimates, which are for theta = 1/2 and cards dealt with replacement: empty elsewhere).
    """
    g = game or banque_game()
    a, h = g.a(Fraction(theta)), g.h(Fraction(theta))
    half = Fraction(1, 4)
    always = -guaranteed(a, h, (0, 0, 0, 1))
    coin = -guaranteed(a, h, (half, half, half, half))
    corr = -correlated_equilibrium(g, theta).value
    rows = [
        {"assumption": "Players always draw on 5, Banker best response", "exact": fstr(always),
         "percent": float(always) * 100, "historical": {"Judah and Ziemba": 0.81685}},
        {"assumption": "Players draw on 5 with probability 1/2 independently, Banker best response",
         "exact": fstr(coin), "percent": float(coin) * 100,
         "historical": {"Le Myre": 1.11, "Boll": 0.87, "Barnhart": 0.84}},
        {"assumption": "correlated cooperative equilibrium (value of the coalition game)", "exact": fstr(corr),
         "percent": float(corr) * 100,
         "historical": {"Foster": 0.87, "Downton and Lockwood": 0.85, "Kendall and Murchland (simulation)": 0.819}},
        _independent_row(theta, g),
        _nash_row(theta, g),
        *_full_rows(theta, g),
    ]
    if not historical_applies(theta, g):
        for r in rows:
            r["historical"] = {}
    return rows


def historical_applies(theta: Fraction, game: BanqueGame) -> bool:
    """Whether the historical estimates describe this game: theta = 1/2, cards dealt with replacement.

    Parameters
    ----------
    theta : Fraction
        Player 1's share of the stakes.
    game : BanqueGame
        The game.

    Returns
    -------
    bool
        True for the game the estimates were made for.
    """
    return Fraction(theta) == Fraction(1, 2) and game.shoe is None


@dataclass(repr=False)
class AdvantageComparison(Result):
    """Banker's advantage in baccara banque under each assumption, beside the historical estimates.

    Attributes
    ----------
    theta : Fraction
        Player 1's share of the stakes.
    shoe : str
        The shoe, for people.
    rows : list of dict
        See :func:`banker_advantage_comparison`.
    """

    theta: Fraction
    shoe: str
    rows: list[dict]

    def to_json(self) -> list:
        """One dict per assumption: ``assumption``, ``exact``, ``percent``, ``historical`` (and ``note``).

        Returns
        -------
        list of dict
            The rows.
        """
        return [dict(r) for r in self.rows]

    def summary(self) -> str:
        """The correlated cooperative advantage, the paper's headline figure.

        Returns
        -------
        str
            The line.
        """
        corr = self.rows[2]
        return (f"Baccara banque, {self.shoe}, theta = {self.theta}: Banker's advantage {corr['percent']:.7f}% "
                f"(correlated cooperative equilibrium), beside {len(self.rows) - 1} other assumptions")

    def renderables(self) -> list:
        """The table: assumption, the exact advantage in percent, the historical estimates.

        Returns
        -------
        list
            One Rich table.
        """
        t = Table(title=f"Baccara banque, {self.shoe}, theta = {self.theta}: Banker's advantage (% of the total stake)")
        for col in ("assumption", "baccara (exact)", "historical estimates"):
            t.add_column(col)
        for r in self.rows:
            t.add_row(r["assumption"], "-" if r["percent"] is None else f"{r['percent']:.7f}%",
                      ", ".join(f"{k} {v}%" for k, v in r["historical"].items()) or r.get("note", ""))
        return [t]


def _nash_row(theta: Fraction, game: BanqueGame) -> dict:
    gains = sorted({e.banker for e in nash_equilibria(game, Fraction(theta)).equilibria})
    note = {} if len(gains) == 1 else {"note": f"{len(gains)} different values among the equilibria; the largest"}
    return {"assumption": "Nash equilibrium (Banker's expectation)", "exact": str(gains[-1]),
            "percent": float(gains[-1]) * 100, "historical": {}, **note}


def _full_rows(theta: Fraction, game: BanqueGame) -> list[dict]:
    rows = []
    for model, what in (("recent", "Player 2 knows Player 1's intention"),
                        ("traditional", "Player 2 sees Player 1's third card, stand or natural")):
        v = -full_correlated_equilibrium(game, Fraction(theta), model).value
        rows.append({"assumption": f"correlated cooperative equilibrium, {model} model ({what})",
                     "exact": fstr(v), "percent": float(v) * 100, "historical": {}})
    return rows


def _independent_row(theta: Fraction, game: BanqueGame) -> dict:
    ind = independent_equilibrium(game, Fraction(theta))
    adv = -ind.lower_value
    return {"assumption": "independent cooperative equilibrium (lower value: the Players' maximin)",
            "exact": str(adv), "percent": float(adv) * 100, "historical": {}}
