"""Simulated coups of Macao and Victoria with the solved strategies, against the exact value.

Each coup is dealt from a freshly shuffled shoe (the solved game is one coup from a full
shoe).  One punter: both sides play their exact optimal behaviour, and the mean payoff
must agree with the exact value within its standard error.

A table of k punters (``punters=k``): each punter plays his one-punter optimal strategy,
seeing only his own cards; the banker shares one draw decision among all of them, and
here he takes it as his one-punter optimal strategy prescribes against the *first* punter
(whose face-up cards he reads), and his final hand is scored against every punter.  This
is a stated rule, not a solution of the k-punter game (which couples the punters through
the banker's decision and the shared shoe); the simulation measures what it yields, per
unit staked, over all punters.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import sqrt

import numpy as np
from rich.table import Table

from ..algebraic import fraction_str as fstr
from ..errors import ParameterError
from ..result import Result


def _hand_value(rules, down, up) -> tuple[int, int]:
    if rules.totals == "modulo":
        return (sum(down) + sum(up)) % 10, len(down) + len(up)
    t = sum(down) % 10 + sum(up)
    return (-1 if t > 9 else t), len(down) + len(up)


def _pay(rules, p, b) -> Fraction:
    (pt, pc), (bt, bc) = p, b
    if pt < 0:
        return Fraction(-1)
    if bt < 0 or pt > bt or (pt == bt and pc < bc):
        return rules.multiple(pt) if pc == rules.initial else Fraction(1)
    if pt == bt and pc == bc:
        return Fraction(0) if rules.ties == "push" else Fraction(-1)
    if rules.banker_bonus and bc == rules.initial:
        return -rules.multiple(bt)     # the banker's natural collects its multiple
    return Fraction(-1)


@dataclass(repr=False)
class MacaoSimulation(Result):
    """Simulated coups against the exact value: mean payoff to the punters per unit staked, its standard error."""

    variant: str
    coups: int
    punters: int
    seed: int
    mean: float
    se: float
    exact: Fraction

    @property
    def z(self) -> float:
        """(mean - exact) / standard error."""
        return (self.mean - float(self.exact)) / self.se if self.se else 0.0

    def summary(self) -> str:
        """One line: the simulated banker's edge against the exact one."""
        return (f"{self.variant}, {self.coups} coups, {self.punters} punter(s): simulated banker's edge "
                f"{-self.mean:+.5f} +- {self.se:.5f}; exact (one punter) {float(-self.exact):+.5f}; z = {self.z:+.2f}")

    def renderables(self) -> list:
        """The summary and a small table."""
        t = Table(title="Simulation against the exact value")
        for c in ("coups", "punters", "mean payoff to punter", "SE", "exact value (one punter)", "z"):
            t.add_column(c, justify="right")
        t.add_row(str(self.coups), str(self.punters), f"{self.mean:.6f}", f"{self.se:.6f}",
                  f"{float(self.exact):.6f}", f"{self.z:+.2f}")
        return [self.summary(), t]

    def to_json(self) -> dict:
        """JSON: variant, coups, punters, seed, mean, se, exact value, z."""
        return {"game": "macao", "variant": self.variant, "coups": self.coups, "punters": self.punters,
                "seed": self.seed, "mean_payoff_to_punter": self.mean, "standard_error": self.se,
                "banker_edge_simulated": -self.mean, "exact_value_to_punter": fstr(self.exact),
                "exact_value_float": float(self.exact), "z": self.z}


def simulate_macao(solution, coups: int, seed: int = 1, punters: int = 1) -> MacaoSimulation:
    """Play ``coups`` coups with the solution's strategies (see the module docstring).

    Parameters
    ----------
    solution : MacaoSolution
        The solved game (rules, shoe, both strategies).
    coups : int
        Coups to play, each from a freshly shuffled shoe.
    seed : int
        Seed of NumPy's generator.
    punters : int
        Punters at the table.

    Returns
    -------
    MacaoSimulation
        The mean payoff to the punters per unit staked and its standard error, with the exact value.
    """
    game = solution.game
    rules = game.rules
    need = (punters + 1) * (rules.initial + rules.draws)
    if game.N < need:
        raise ParameterError(f"--punters: {punters} punter(s) and the banker can take {need} cards, the shoe has {game.N}")
    rng = np.random.default_rng(seed)
    cards = np.repeat(np.arange(10), game.counts)
    P, B = solution.punter, solution.banker
    u = rng.random
    total = 0.0
    total2 = 0.0
    for _ in range(coups):
        deck = rng.permutation(cards).tolist()
        pos = 0

        def take(deck=deck) -> int:
            nonlocal pos
            pos += 1
            return deck[pos - 1]

        downs = [[take() for _ in range(rules.initial)] for _ in range(punters)]
        bdown = [take() for _ in range(rules.initial)]

        def play(down, choose):
            up: list[int] = []
            rej = 0
            while len(up) + rej < rules.draws and _hand_value(rules, down, up)[0] >= 0:
                if u() >= float(choose("d", tuple(sorted(up)), rej)):
                    break
                c = take()
                if c == 0 and rules.reject_tens and u() < float(choose("p", tuple(sorted(up)), rej)):
                    rej += 1
                else:
                    up.append(c)
            return up, rej

        hands = []
        for down in downs:
            H = tuple(sorted(down))
            up, rej = play(down, lambda kind, A, r, H=H: P.get((H, kind, A, r), 0))
            hands.append((down, up, rej))
        first = hands[0]
        Ap, rp = tuple(sorted(first[1])), first[2]
        Bs = tuple(sorted(bdown))
        if _hand_value(rules, first[0], first[1])[0] < 0 and punters == 1:
            bup: list[int] = []
        else:
            bup, _ = play(bdown, lambda kind, A, r, Bs=Bs, Ap=Ap, rp=rp: B.get((Bs, Ap, rp, kind, A, r), 0))
        bv = _hand_value(rules, bdown, bup)
        pay = sum(float(_pay(rules, _hand_value(rules, d, up), bv)) for d, up, _ in hands) / punters
        total += pay
        total2 += pay * pay
    mean = total / coups
    var = max(total2 / coups - mean * mean, 0.0)
    return MacaoSimulation(rules.name, coups, punters, seed, mean, sqrt(var / coups), solution.value)
