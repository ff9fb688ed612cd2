"""Zero-sum additive games by linear programming, certified exactly.

At alpha = 0 chemin de fer is zero-sum: player II's (Banker's) optimal
behavioural strategy solves the linear program

    maximise v  subject to  b_u + sum_i q_i g_i^u >= v  (u = 0, 1),  0 <= q_i <= 1,

which HiGHS solves in floating point.  The optimal basis is then recovered
and solved again in exact rationals (the strategies at bounds stay there; the
fractional ones and v follow from the tight constraints), and the result is
*certified* without trusting the float solver: player II's strategy
guarantees v against both pure strategies of player I, and player I's
strategy p (from player II's indifference at a fractional set) holds player
II to v, since her best reply earns the sum of her positive gains.  This is
independent of Foster's algorithm.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import cast

import numpy as np
from scipy.optimize import linprog

from .additive import AdditiveGame
from .linalg import solve_exact


@dataclass(frozen=True)
class ZeroSumSolution:
    """Exact value and optimal strategies of a zero-sum additive game, with the certificate."""

    value: Fraction  # to player II
    p: Fraction
    q: tuple[Fraction, ...]
    guaranteed_by_II: Fraction  # min over u of player II's payoff with q
    held_by_I: Fraction  # player II's best reply payoff against p
    certified: bool


def solve_square_exact(rows: list[list[Fraction]], rhs: list[Fraction]) -> list[Fraction]:
    """The solution of a nonsingular square system, exactly."""
    sol = solve_exact(rows, rhs)
    if sol is None:
        raise ZeroDivisionError("singular system")
    return sol


def solve_zero_sum(game: AdditiveGame, tol: float = 1e-9) -> ZeroSumSolution:
    """Value and optimal strategies of a zero-sum additive game (a_u = -b_u, h = -g)."""
    n = game.n
    c = np.zeros(n + 1)
    c[-1] = -1.0  # maximise v
    a_ub = np.array([[-float(game.g[i][u]) for i in range(n)] + [1.0] for u in (0, 1)])
    b_ub = np.array([float(game.b[u]) for u in (0, 1)])
    res = linprog(c, A_ub=a_ub, b_ub=b_ub, bounds=[(0, 1)] * n + [(None, None)], method="highs")
    if res.status != 0:
        raise ArithmeticError(f"the LP solver failed: {res.message}")
    x = res.x
    q = [Fraction(0) if x[i] < tol else Fraction(1) if x[i] > 1 - tol else None for i in range(n)]
    free = [i for i in range(n) if q[i] is None]
    tight = [u for u in (0, 1) if abs(res.ineqlin.residual[u]) < 1e-12 * max(1.0, abs(b_ub[u])) or res.ineqlin.marginals[u] != 0]
    rows, rhs = [], []
    for u in tight:
        fixed = sum((qi * game.g[i][u] for i, qi in enumerate(q) if qi), Fraction(0))
        rows.append([game.g[i][u] for i in free] + [Fraction(-1)])
        rhs.append(-game.b[u] - fixed)
    if len(rows) != len(free) + 1:
        raise ArithmeticError("degenerate optimal basis: cannot recover it exactly")
    sol = solve_square_exact(rows, rhs)
    for i, val in zip(free, sol):
        q[i] = val
    q_full = cast("list[Fraction]", q)  # every free entry is now solved
    value = sol[-1]
    guaranteed = min(game.b[u] + sum((q_full[i] * game.g[i][u] for i in range(n)), Fraction(0)) for u in (0, 1))
    p = _indifference_p(game, free)
    w = (1 - p, p)
    held = sum(w[u] * game.b[u] for u in (0, 1)) + sum(
        (max(Fraction(0), game.gain_II(i, p)) for i in range(n)), Fraction(0)
    )
    ok = all(0 <= qi <= 1 for qi in q_full) and 0 <= p <= 1 and guaranteed == value == held
    return ZeroSumSolution(value, p, tuple(q_full), guaranteed, held, ok)


def _indifference_p(game: AdditiveGame, free: list[int]) -> Fraction:
    """Player I's p making player II indifferent at a fractional information set."""
    if not free:
        raise ArithmeticError("player II plays a pure strategy: p is not determined by indifference")
    g0, g1 = game.g[free[0]]
    return g0 / (g0 - g1)
