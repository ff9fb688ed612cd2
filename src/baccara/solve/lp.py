"""Zero-sum additive games by linear programming, certified exactly.

At alpha = 0 chemin de fer is zero-sum: player II's (Banker's) optimal
behavioural strategy solves the linear program

    maximise v  subject to  b_u + sum_i q_i g_i^u >= v  (u = 0, 1),  0 <= q_i <= 1,

whose row prices are player I's optimal mixture (1 - p, p).  It is the case
m = 2 of :func:`~baccara.solve.zero_sum.solve_additive_zero_sum`, solved by
:func:`~baccara.solve.exact_lp.solve_exact_lp`, which takes HiGHS's float
basis only as a start and pivots in exact rationals to an optimal vertex,
degenerate ones included (player II's optimal strategy pure, both rows tight,
p not fixed by her indifference anywhere).  The result
is then *certified* here from p and q alone, without trusting either solver:
player II's strategy guarantees v against both pure strategies of player I,
and player I's p holds player II to v, since her best reply earns the sum of
her positive gains.  This is independent of Foster's algorithm.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .additive import AdditiveGame
from .linalg import solve_exact
from .zero_sum import solve_additive_zero_sum


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
    """Value and optimal strategies of a zero-sum additive game (a_u = -b_u, h = -g).

    Parameters
    ----------
    game : AdditiveGame
        A zero-sum game: player I's payoffs the negatives of player II's.
    tol : float
        Unused, kept so that existing calls work (see
        :func:`~baccara.solve.zero_sum.solve_additive_zero_sum`).

    Returns
    -------
    ZeroSumSolution
        The value to player II, player I's p, player II's q, and the certificate,
        recomputed from p and q alone.

    Raises
    ------
    ValueError
        If the game is not zero-sum.
    """
    n = game.n
    if any(x != -y for x, y in zip(game.a, game.b)) or any(x != -y for hi, gi in zip(game.h, game.g)
                                                           for x, y in zip(hi, gi)):
        raise ValueError("game: solve_zero_sum needs a zero-sum game (a_u = -b_u and h_i = -g_i)")
    sol = solve_additive_zero_sum([-x for x in game.b], [[-x for x in gi] for gi in game.g], tol)
    p, q, value = sol.p[1], sol.q, -sol.value
    guaranteed = min(game.b[u] + sum((q[i] * game.g[i][u] for i in range(n)), Fraction(0)) for u in (0, 1))
    w = (1 - p, p)
    held = sum(w[u] * game.b[u] for u in (0, 1)) + sum(
        (max(Fraction(0), game.gain_II(i, p)) for i in range(n)), Fraction(0)
    )
    ok = all(0 <= qi <= 1 for qi in q) and 0 <= p <= 1 and sum(sol.p) == 1 and guaranteed == value == held
    return ZeroSumSolution(value, p, tuple(q), guaranteed, held, ok)
