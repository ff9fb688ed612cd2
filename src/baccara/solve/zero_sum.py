"""Zero-sum games between a player with m pure strategies and an additive opponent.

Player I mixes p over m pure strategies u; player II chooses, at each of n
information sets, move 0 or move 1, and player I's payoff is additive:
A_u + sum_{i in T} h_i^u.  Against p, player II plays move 1 exactly where
sum_u p_u h_i^u < 0, so player I's guaranteed payoff is

    V(p) = sum_u p_u A_u + sum_i min(0, sum_u p_u h_i^u),

a concave piecewise-linear function whose maximum is the game's value: the
linear program  max sum_u p_u A_u + sum_i y_i  s.t.  y_i <= 0,
y_i <= sum_u p_u h_i^u,  sum_u p_u = 1,  p >= 0.  HiGHS solves it in floats;
the optimal basis (player I's support S, player II's indifferent sets K) is
then solved again in exact rationals from

    A_u + sum_{i in T} h_i^u + sum_{k in K} q_k h_k^u = v   (u in S)
    sum_{u in S} p_u h_k^u = 0                             (k in K)
    sum_{u in S} p_u = 1,

and certified: V(p) = v (player I guarantees v) and max_u of player I's
payoff against player II's behavioural strategy q is v (player II holds him
to v).  The same certificate makes p maximin and q minimax.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from typing import Sequence

import numpy as np
from scipy.optimize import linprog

from .lp import solve_square_exact


@dataclass(frozen=True)
class ZeroSumAdditive:
    """Exact value, player I's maximin p, player II's minimax behavioural q, and the certificate."""

    value: Fraction
    p: tuple[Fraction, ...]
    q: tuple[Fraction, ...]
    guaranteed_by_I: Fraction
    held_by_II: Fraction
    certified: bool


def guaranteed(a: Sequence[Fraction], h: Sequence[Sequence[Fraction]], p: Sequence[Fraction]) -> Fraction:
    """V(p): player I's payoff against player II's best reply."""
    base = sum((pu * au for pu, au in zip(p, a)), Fraction(0))
    return base + sum((min(Fraction(0), sum((pu * x for pu, x in zip(p, hi)), Fraction(0))) for hi in h), Fraction(0))


def best_reply_I(a: Sequence[Fraction], h: Sequence[Sequence[Fraction]], q: Sequence[Fraction]) -> list[Fraction]:
    """Player I's payoff from each pure strategy against player II's behavioural q."""
    return [a[u] + sum((qi * hi[u] for qi, hi in zip(q, h) if qi), Fraction(0)) for u in range(len(a))]


def solve_additive_zero_sum(a: Sequence[Fraction], h: Sequence[Sequence[Fraction]], tol: float = 1e-9) -> ZeroSumAdditive:
    """Solve the zero-sum game exactly (float LP for the basis, rationals for the answer)."""
    m, n = len(a), len(h)
    hf = np.array([[float(x) for x in row] for row in h])
    c = np.concatenate([-np.array([float(x) for x in a]), -np.ones(n)])
    a_ub = np.hstack([-hf, np.eye(n)])  # y_i - sum_u p_u h_i^u <= 0
    a_eq = np.concatenate([np.ones(m), np.zeros(n)])[None, :]
    res = linprog(c, A_ub=a_ub, b_ub=np.zeros(n), A_eq=a_eq, b_eq=[1.0],
                  bounds=[(0, None)] * m + [(None, 0)] * n, method="highs")
    if res.status != 0:
        raise ArithmeticError(f"the LP solver failed: {res.message}")
    pf = res.x[:m]
    support = [u for u in range(m) if pf[u] > tol]
    scale = float(np.abs(hf).max()) or 1.0
    gains = hf @ pf
    near = sorted(range(n), key=lambda i: abs(gains[i]))[: 2 * m + 2]
    best = None
    # The basis: player II's indifferent sets K among those with the smallest gains;
    # the float solution suggests K, and near-degenerate cases are settled exactly.
    # Player II's behavioural strategy is the LP's dual (q_i = -marginal of y_i <= p.h_i):
    # its fractional entries are her mixed sets at a vertex of her optimal set.
    qf = -np.asarray(res.ineqlin.marginals)
    dual_mixed = [i for i in range(n) if 1e-9 < qf[i] < 1 - 1e-9]
    candidates = [dual_mixed] + [[i for i in near if abs(gains[i]) <= t * scale] for t in (tol, tol * 1e-3, tol * 1e3)]
    extra = [list(c) for k in range(len(near)) for c in combinations(near[:m + 1], k) if len(c) <= m]
    for c, mixed in enumerate(candidates + extra):
        draw = [i for i in range(n) if i not in mixed and (qf[i] > 0.5 if c == 0 else gains[i] < 0)]
        try:
            cand = _exact_basis(a, h, support, sorted(mixed), draw)
        except (ArithmeticError, StopIteration, ZeroDivisionError):
            continue
        if cand.certified:
            return cand
        best = best or cand
    if best is None:
        raise ArithmeticError("degenerate optimal basis: cannot recover it exactly")
    return best


def _exact_basis(a, h, support, mixed, draw) -> ZeroSumAdditive:
    """Solve one candidate basis exactly and certify it."""
    m, n = len(a), len(h)
    unknowns = len(support) + len(mixed) + 1
    rows, rhs = [], []
    for u in support:  # player I indifferent on his support
        rows.append([Fraction(0)] * len(support) + [h[k][u] for k in mixed] + [Fraction(-1)])
        rhs.append(-a[u] - sum((h[i][u] for i in draw), Fraction(0)))
    for k in mixed:  # player II indifferent where she mixes
        rows.append([h[k][u] for u in support] + [Fraction(0)] * (len(mixed) + 1))
        rhs.append(Fraction(0))
    rows.append([Fraction(1)] * len(support) + [Fraction(0)] * (len(mixed) + 1))
    rhs.append(Fraction(1))
    if len(rows) != unknowns:
        raise ArithmeticError("degenerate optimal basis")
    sol = solve_square_exact(rows, rhs)
    p = [Fraction(0)] * m
    for u, x in zip(support, sol):
        p[u] = x
    q = [Fraction(0)] * n
    for i in draw:
        q[i] = Fraction(1)
    for k, x in zip(mixed, sol[len(support):]):
        q[k] = x
    v = sol[-1]
    g = guaranteed(a, h, p)
    held = max(best_reply_I(a, h, q))
    ok = all(x >= 0 for x in p) and all(0 <= x <= 1 for x in q) and g == v == held
    return ZeroSumAdditive(v, tuple(p), tuple(q), g, held, ok)
