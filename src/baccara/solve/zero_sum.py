"""Zero-sum games between a player with m pure strategies and an additive opponent.

Player I mixes p over m pure strategies u; player II chooses, at each of n
information sets, move 0 or move 1, and player I's payoff is additive:
A_u + sum_{i in T} h_i^u.  Against p, player II plays move 1 exactly where
sum_u p_u h_i^u < 0, so player I's guaranteed payoff is

    V(p) = sum_u p_u A_u + sum_i min(0, sum_u p_u h_i^u),

a concave piecewise-linear function whose maximum is the game's value.
Player II's side is the linear program

    minimise v  subject to  A_u + sum_i q_i h_i^u <= v  (u < m),  0 <= q_i <= 1,

whose row prices are player I's p.  HiGHS solves player I's LP in floats, but
only to guess the optimal basis (player I's support, player II's mixed sets
K and move-1 sets T); the LP is then solved in exact rationals by the
bounded-variable simplex method from that basis (:func:`_exact_simplex`),
which pivots as long as a reduced cost has the wrong sign, so a basis the
float solver settled on within its tolerances is corrected exactly.  The
answer is then certified from p and q alone: V(p) = v (player I guarantees
v) and max_u of player I's payoff against player II's behavioural strategy q
is v (player II holds him to v).  The same certificate makes p maximin and q
minimax.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import flint
import numpy as np
from scipy.optimize import linprog


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
    """Solve the zero-sum game exactly: a float LP for a starting basis, an exact simplex to the optimum.

    Parameters
    ----------
    a : sequence of Fraction
        A_u, player I's payoff from pure strategy u when player II plays move 0 everywhere.
    h : sequence of sequences of Fraction
        h_i^u, the change in that payoff when player II plays move 1 at information set i.
    tol : float
        Float threshold below which HiGHS's p_u is read as 0 when guessing the starting basis.

    Returns
    -------
    ZeroSumAdditive
        The value, p, q and the exact certificate (``certified``); the certificate is
        recomputed from p and q alone and does not trust either solver.

    Notes
    -----
    HiGHS stops when its primal and dual infeasibilities are below its tolerances (1e-7,
    absolute), so its basis need not be optimal when payoff differences that matter are
    that small -- in baccara banque as theta -> 0 or 1, where Player 1's (or Player 2's)
    move changes the payoff by about theta |h| (Ethier and Lee, "Baccara banque", Games
    2015).  The float solution is therefore used only to guess player II's mixed sets
    and player I's support; :func:`_exact_simplex` starts from that basis (or, if the
    guess is singular or infeasible, from a trivial one) and pivots in exact rationals
    until every reduced cost has the right sign, which is the certificate.
    """
    p, q, v = _exact_simplex(a, h, *_float_hint(a, h, tol))
    g = guaranteed(a, h, p)
    held = max(best_reply_I(a, h, q))
    ok = all(x >= 0 for x in p) and sum(p) == 1 and all(0 <= x <= 1 for x in q) and g == v == held
    return ZeroSumAdditive(v, tuple(p), tuple(q), g, held, ok)


def _float_hint(a, h, tol) -> tuple[list[int], list[int], list[int]]:
    """HiGHS's guess of (player I's support, player II's mixed sets, her move-1 sets).

    Player II's behavioural strategy is the LP's dual (q_i = -marginal of y_i <= p.h_i).
    Empty lists when the float LP fails: the exact simplex then starts from scratch.
    """
    m, n = len(a), len(h)
    hf = np.array([[float(x) for x in row] for row in h]).reshape(n, m)
    c = np.concatenate([-np.array([float(x) for x in a]), -np.ones(n)])
    a_ub = np.hstack([-hf, np.eye(n)])  # y_i - sum_u p_u h_i^u <= 0
    a_eq = np.concatenate([np.ones(m), np.zeros(n)])[None, :]
    res = linprog(c, A_ub=a_ub, b_ub=np.zeros(n), A_eq=a_eq, b_eq=[1.0],
                  bounds=[(0, None)] * m + [(None, 0)] * n, method="highs")
    if res.status != 0:
        return [], [], [i for i in range(n) if all(x <= 0 for x in h[i]) and any(x < 0 for x in h[i])]
    support = [u for u in range(m) if res.x[u] > tol]
    qf = -np.asarray(res.ineqlin.marginals)
    mixed = [i for i in range(n) if tol < qf[i] < 1 - tol]
    draw = [i for i in range(n) if qf[i] >= 1 - tol]
    return support, mixed, draw


def _exact_simplex(a, h, support, mixed, draw) -> tuple[list[Fraction], list[Fraction], Fraction]:
    """Player II's LP solved exactly by the bounded-variable primal simplex method.

    minimise v  subject to  sum_i h_i^u q_i - v + s_u = -A_u  (u < m),  0 <= q_i <= 1,
    s_u >= 0, v free.  A basis has m columns, v always among them; the prices y of the
    rows give player I's mixture p = -y (sum p_u = 1 from v's column), and the reduced
    costs are p.h_i for q_i and p_u for s_u.  The basis is optimal when p >= 0, p.h_i >= 0
    where q_i = 0 and p.h_i <= 0 where q_i = 1: p and q are then optimal strategies.
    Dantzig's rule, then Bland's (no cycling) after repeated degenerate pivots.

    Starts from the basis (q_K, s_u for u outside the support, v) with q = 1 on ``draw``
    when it is square, nonsingular and feasible; otherwise from q_i in {0, 1} (``draw``)
    with the basis v and every slack but one, which is always feasible.
    Returns (p, q, v) exactly.
    """
    m, n = len(a), len(h)
    vcol = n + m  # columns: q_0..q_{n-1}, s_0..s_{m-1}, v
    H = flint.fmpq_mat(n, m, [_q(x) for row in h for x in row])
    HT = H.transpose()
    minus_a = flint.fmpq_mat(m, 1, [-_q(x) for x in a])
    columns = [[H[i, u] for u in range(m)] for i in range(n)]
    columns += [[flint.fmpq(int(u == k)) for u in range(m)] for k in range(m)]
    columns.append([flint.fmpq(-1)] * m)

    def upper(j):
        return 1 if j < n else None

    def rhs(at_one):
        """-A - sum_{i: q_i = 1 nonbasic} h_i: the right-hand side for the basic columns."""
        ones = flint.fmpq_mat(n, 1, [int(i in at_one) for i in range(n)])
        z = minus_a - HT * ones
        return [z[u, 0] for u in range(m)]

    def feasible(at_one, basis):
        """Is ``basis`` (with q = 1 on ``at_one``) square, nonsingular and feasible?"""
        if len(basis) != m:
            return False
        try:
            xb = _inverse([columns[j] for j in basis]) * flint.fmpq_mat(m, 1, rhs(at_one))
        except ZeroDivisionError:
            return False
        return all(j == vcol or (0 <= xb[k, 0] and (j >= n or xb[k, 0] <= 1)) for k, j in enumerate(basis))

    at_one = set(draw) - set(mixed)
    basis = sorted(set(mixed)) + [n + u for u in range(m) if u not in support] + [vcol]
    if not feasible(at_one, basis):
        at_one = set(draw)
        r = rhs(at_one)
        top = min(range(m), key=lambda u: r[u])  # the largest A_u + sum_{i in draw} h_i^u
        basis = [n + u for u in range(m) if u != top] + [vcol]
    degenerate, bland = 0, False
    for _ in range(100 * (n + m)):
        binv = _inverse([columns[j] for j in basis])
        r = rhs(at_one)
        xb = [sum((binv[k, u] * r[u] for u in range(m)), flint.fmpq(0)) for k in range(m)]
        p = [-binv[basis.index(vcol), u] for u in range(m)]  # y = B^-T e_v
        d = H * flint.fmpq_mat(m, 1, p)
        in_basis = set(basis)
        eligible = []  # (improvement rate, column, direction)
        for i in range(n):
            if i in in_basis:
                continue
            di = d[i, 0]
            if i in at_one and di > 0:
                eligible.append((di, i, -1))
            elif i not in at_one and di < 0:
                eligible.append((-di, i, 1))
        eligible += [(-p[u], n + u, 1) for u in range(m) if n + u not in in_basis and p[u] < 0]
        if not eligible:
            q = [Fraction(1) if i in at_one else Fraction(0) for i in range(n)]
            v = Fraction(0)
            for j, x in zip(basis, xb):
                if j < n:
                    q[j] = _fraction(x)
                elif j == vcol:
                    v = _fraction(x)
            return [_fraction(x) for x in p], q, v
        # Entering columns in the rule's order.  The basis, hence p and the reduced costs, stay
        # the same through bound flips, so the next choice needs no new prices: only a change of
        # basis ends the pass.
        eligible.sort(key=lambda e: e[1] if bland else (-e[0], e[1]))
        for _, enter, sign in eligible:
            col = columns[enter]
            w = [sum((binv[k, u] * col[u] for u in range(m)), flint.fmpq(0)) for k in range(m)]
            # x_enter moves by sign * t, basic x_k by -sign * t * w_k; the first bound reached stops it
            steps = [(flint.fmpq(1), enter)] if upper(enter) is not None else []
            for j, x, wk in zip(basis, xb, w):
                rate = -sign * wk
                if j == vcol or rate == 0:
                    continue
                if rate < 0:
                    steps.append((x / -rate, j))
                elif upper(j) is not None:
                    steps.append(((upper(j) - x) / rate, j))
            if not steps:
                raise ArithmeticError("the exact simplex found player II's LP unbounded")
            t, leave = min(steps, key=lambda s: (s[0], s[1]))
            if leave == enter:  # a bound flip: q_enter goes from one bound to the other
                at_one ^= {enter}
                xb = [x - sign * wk for x, wk in zip(xb, w)]
                continue
            degenerate = degenerate + 1 if t == 0 else 0
            bland = bland or degenerate > 2 * m
            k = basis.index(leave)
            if upper(leave) is not None and xb[k] - sign * t * w[k] == upper(leave):
                at_one.add(leave)
            else:
                at_one.discard(leave)
            at_one.discard(enter)
            basis[k] = enter
            break
    raise ArithmeticError("the exact simplex did not terminate")


def _q(x) -> flint.fmpq:
    x = Fraction(x)
    return flint.fmpq(x.numerator, x.denominator)


def _fraction(x: flint.fmpq) -> Fraction:
    return Fraction(int(x.p), int(x.q))


def _inverse(cols) -> flint.fmpq_mat:
    """The inverse of the matrix with columns ``cols``, exactly; ZeroDivisionError if singular."""
    m = len(cols)
    return flint.fmpq_mat(m, m, [cols[c][r] for r in range(m) for c in range(m)]).inv()
