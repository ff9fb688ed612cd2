"""Macao and Victoria solved: the value (the banker's edge), both sides' optimal strategies, the certificate.

:func:`solve_macao` builds the game (:mod:`.game`), solves the sequence-form LP over
flows in floats and recovers the strategies exactly (:mod:`.lp`), and certifies them
by the two exact best responses of :mod:`.engine`: the least the punter's strategy
guarantees him (the banker's best reply) must equal the most the banker's strategy
concedes (the punter's best reply), and the payoff of the pair itself.  A result whose
certificate fails still carries the exact bracket ``[guaranteed, conceded]`` that holds
the value.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rich.table import Table

from ..algebraic import fraction_str as fstr
from ..result import Result
from .engine import distribution, table
from .lp import solve_exact, solve_float
from .model import DECIDE, MacaoGame
from .uniqueness import uniqueness


def _shoe_json(counts: tuple[int, ...]) -> dict:
    d = counts[1] // 4
    if d >= 1 and counts == (16 * d,) + (4 * d,) * 9:
        return {"kind": "decks", "decks": d, "cards": 52 * d}
    return {"kind": "composition", "cards": sum(counts), "values": {str(v): c for v, c in enumerate(counts)}}


def _shoe_text(counts: tuple[int, ...]) -> str:
    s = _shoe_json(counts)
    return f"{s['decks']} deck{'s' if s['decks'] != 1 else ''}" if s["kind"] == "decks" else f"{s['cards']}-card shoe"


def strategy_table(game: MacaoGame, behaviour: dict, side: str, exact: bool = False) -> dict[str, dict[str, Any]]:
    """A strategy for people: by (total, cards held), how often the side draws (or rejects a ten) when there.

    Each cell is the probability of the move given that the side is at a node of that total
    and number of cards, weighted by how often it gets there under the strategy (the
    punter's) or under the strategy against a punter who stands at each up-state as often as
    chance deals it (the banker's, where the weights are only indicative).

    Parameters
    ----------
    game : MacaoGame
        The game.
    behaviour : dict
        The side's behaviour (key -> probability of action 1).
    side : str
        ``"punter"`` or ``"banker"``.
    exact : bool
        Fractions instead of floats (the same weighting in exact arithmetic; a tenth of a second on
        Victoria's two decks).

    Returns
    -------
    dict
        ``{"draw": {"total/cards": p}, "reject_ten": {...}}`` with floats (Fractions if ``exact``).
    """
    num: Callable[[Any], Any] = Fraction if exact else float
    zero, one = num(0), num(1)
    acc: dict[str, dict[str, list[Any]]] = {"draw": {}, "reject_ten": {}}
    U = len(game.units)
    graphs = range(len(game.hands)) if side == "punter" else range(len(game.hands) * U)
    for g in graphs:
        prefix: tuple
        if side == "punter":
            hand, prefix, base = game.hands[g], (game.hands[g],), game.codes[g]
        else:
            hand = game.hands[g // U]
            Ap, rp = game.units[g % U]
            prefix, base = (hand, Ap, rp), game.codes[g // U] + sum(16**v for v in Ap) + rp
        nodes = game.graph(hand).nodes
        inflow = [zero] * len(nodes)
        inflow[0] = one
        for j, n in enumerate(nodes):
            p = num(behaviour.get(prefix + (n.kind, n.A, n.r), 0)) if len(n.actions) > 1 else zero
            reach = inflow[j] * game.weight(base + n.code) / game.denominator
            if len(n.actions) > 1 and reach > 0:
                total = (sum(hand) % 10 + sum(n.A)) % 10
                cards = len(hand) + len(n.A)
                cell = acc["draw" if n.kind == DECIDE else "reject_ten"].setdefault(f"{total}/{cards}", [zero, zero])
                cell[0] += reach * p
                cell[1] += reach
            if n.kind == DECIDE and len(n.actions) > 1:
                for k in n.children:
                    if k >= 0:
                        inflow[k] += inflow[j] * p
            elif n.kind != DECIDE:
                inflow[n.accept] += inflow[j] * (1 - p)
                inflow[n.reject] += inflow[j] * p
    return {k: {c: (a / b if b else zero) for c, (a, b) in sorted(v.items(), key=lambda kv: tuple(map(int, kv[0].split("/"))))}
            for k, v in acc.items()}


@dataclass(repr=False)
class MacaoSolution(Result):
    """The solved game: value, optimal strategies (exact behaviour), certificate and timings.

    Attributes
    ----------
    game : MacaoGame
        The game solved.
    value : Fraction
        The game's value to the punter per unit staked (the banker's edge is minus it),
        when certified; else the midpoint is not given and ``guaranteed``/``conceded`` bracket it.
    guaranteed, conceded : Fraction
        What the punter's strategy guarantees him (the banker's exact best reply) and what
        the banker's strategy concedes (the punter's exact best reply).
    payoff : Fraction
        The punter's expected payoff when both play the strategies (exact engine).
    punter, banker : dict
        Exact behaviour: key -> probability of drawing (``"d"`` nodes) or rejecting a ten (``"p"``).
    """

    game: MacaoGame
    guaranteed: Fraction
    conceded: Fraction
    payoff: Fraction
    outcomes: dict
    punter: dict
    banker: dict
    float_value: float
    mixed: tuple[int, int]
    refinements: int
    seconds: dict = field(default_factory=dict)
    method: str = "indifference equations"
    uniqueness: dict | None = None

    @property
    def certified(self) -> bool:
        """The value is proved: guaranteed == payoff == conceded."""
        return self.guaranteed == self.payoff == self.conceded

    @property
    def value(self) -> Fraction:
        """The value to the punter (certified), else what the punter's strategy guarantees."""
        return self.guaranteed

    @property
    def banker_edge(self) -> Fraction:
        """The banker's edge per unit staked: minus the value to the punter."""
        return -self.value

    def summary(self) -> str:
        """One line: variant, shoe, the banker's edge and the certificate."""
        r = self.game.rules
        edge = f"banker's edge {fstr(self.banker_edge)} = {float(self.banker_edge):+.6%}"
        cert = "certified" if self.certified else (f"NOT certified: value in [{float(self.guaranteed):.15f}, "
                                                   f"{float(self.conceded):.15f}] (to the punter)")
        return f"{r.name}, {_shoe_text(self.game.counts)}: {edge} ({cert})"

    def renderables(self) -> list:
        """The value, the outcome distribution, both strategies by total and cards, the certificate."""
        out: list = [self.summary(), f"rules: {self.game.rules.describe()}"]
        t = Table(title="Outcome of a coup under the optimal strategies (punter's side)")
        t.add_column("outcome")
        t.add_column("probability", justify="right")
        t.add_column("pays", justify="right")
        for o in self.game.outcomes:
            t.add_row(o, f"{float(self.outcomes[o]):.6f}", str(self.game.pays[o]))
        out.append(t)
        for side in ("punter", "banker"):
            tabs = strategy_table(self.game, self.punter if side == "punter" else self.banker, side)
            tt = Table(title=f"{side.capitalize()}'s optimal strategy: probability of drawing (D = always, S = never), "
                             "by total / cards held")
            tt.add_column("total")
            cards = sorted({int(k.split("/")[1]) for k in tabs["draw"]})
            for c in cards:
                tt.add_column(f"{c} card{'s' if c > 1 else ''}", justify="center")
            for total in range(10):
                row = []
                for c in cards:
                    p = tabs["draw"].get(f"{total}/{c}")
                    row.append("-" if p is None else "D" if p > 1 - 1e-12 else "S" if p < 1e-12 else f"{p:.3f}")
                tt.add_row(str(total), *row)
            out.append(tt)
            if tabs["reject_ten"]:
                rej = ", ".join(f"{k}: {'always' if p > 1 - 1e-12 else 'never' if p < 1e-12 else f'{p:.3f}'}"
                                for k, p in tabs["reject_ten"].items())
                out.append(f"{side} rejects a drawn ten (by total/cards before it): {rej}")
        if self.uniqueness is not None:
            out.append(f"uniqueness: {self.uniqueness['note']}")
        out.append(f"mixed nodes: punter {self.mixed[0]}, banker {self.mixed[1]}; certificate: punter guaranteed "
                   f"{fstr(self.guaranteed)}, banker concedes {fstr(self.conceded)}, pair pays {fstr(self.payoff)}: "
                   f"{'holds' if self.certified else 'FAILS'}")
        return out

    def to_json(self) -> dict:
        """The documented JSON: variant, rules, shoe, value, strategies by total/cards (floats, and exact
        in ``*_strategy_exact``), certificate, timings."""
        tabs = {s: strategy_table(self.game, self.punter if s == "punter" else self.banker, s) for s in ("punter", "banker")}
        exact = {s: strategy_table(self.game, self.punter if s == "punter" else self.banker, s, exact=True)
                 for s in ("punter", "banker")}
        return {
            "game": "macao",
            "variant": self.game.rules.name,
            "rules": self.game.rules.to_json(),
            "shoe": _shoe_json(self.game.counts),
            "value_to_punter": fstr(self.value),
            "value_to_punter_float": float(self.value),
            "banker_edge": fstr(self.banker_edge),
            "banker_edge_float": float(self.banker_edge),
            "float_lp_value": self.float_value,
            "outcomes": {o: fstr(self.outcomes[o]) for o in self.game.outcomes},
            "outcomes_float": {o: float(self.outcomes[o]) for o in self.game.outcomes},
            "punter_strategy": tabs["punter"],
            "banker_strategy": tabs["banker"],
            "punter_strategy_exact": {k: {c: fstr(p) for c, p in v.items()} for k, v in exact["punter"].items()},
            "banker_strategy_exact": {k: {c: fstr(p) for c, p in v.items()} for k, v in exact["banker"].items()},
            "mixed_nodes": {"punter": self.mixed[0], "banker": self.mixed[1]},
            "unique": None if self.uniqueness is None else self.uniqueness["unique"],
            "uniqueness_note": (self.uniqueness["note"] if self.uniqueness is not None
                                else "not decided: the pair is not certified" if not self.certified
                                else "not decided (not asked: --uniqueness, or decide_uniqueness=True)"),
            "uniqueness": self.uniqueness,
            "certificate": {
                "holds": self.certified,
                "punter_guaranteed": fstr(self.guaranteed),
                "banker_concedes": fstr(self.conceded),
                "pair_payoff": fstr(self.payoff),
                "refinements": self.refinements,
                "method": self.method,
            },
            "seconds": {k: round(v, 3) for k, v in self.seconds.items()},
        }


def solve_macao(game: MacaoGame, *, decide_uniqueness: bool = False) -> MacaoSolution:
    """Solve a Macao (or Victoria) game exactly: the value, both sides' optimal strategies, the certificate.

    Parameters
    ----------
    game : MacaoGame
        The rules on a shoe (:func:`~baccara.macao.model.macao_game`).
    decide_uniqueness : bool
        Also decide whether the optimal strategies are unique (:mod:`baccara.macao.uniqueness`):
        seconds for Victoria, about a minute for Macao on 2 decks; otherwise ``unique`` is None.

    Returns
    -------
    MacaoSolution
        The solution (``to_json()``, ``show()``).
    """
    t0 = time.perf_counter()
    fs = solve_float(game)
    t1 = time.perf_counter()
    ex, lo, hi, rounds = solve_exact(game, fs)
    t2 = time.perf_counter()
    dist = distribution(game, table(ex.punter), table(ex.banker))
    t3 = time.perf_counter()
    uniq = None
    if decide_uniqueness and lo == hi == dist["ev"]:
        uniq = uniqueness(game, ex.punter, ex.banker, lo)
    t4 = time.perf_counter()
    return MacaoSolution(game, lo, hi, dist["ev"], dist, ex.punter, ex.banker, fs.value,
                         (ex.punter_mixed, ex.banker_mixed), rounds,
                         {"float_lp": t1 - t0, "exact_and_certificate": t2 - t1, "outcomes": t3 - t2,
                          "uniqueness": t4 - t3, "total": t4 - t0}, ex.method, uniq)
