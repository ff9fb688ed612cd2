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
float solver settled on within its tolerances is corrected exactly (a basis
that is only dual feasible, such as the last one of a column generation with
a row added, is first repaired by the dual simplex method).  The
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
    """Exact value, player I's maximin p, player II's minimax behavioural q, and the certificate.

    Attributes
    ----------
    value : Fraction
        The game's value to player I.
    p, q : tuple of Fraction
        Player I's mixture over his pure strategies; player II's probability of move 1 at
        each information set.
    guaranteed_by_I, held_by_II : Fraction
        V(p), and the most player I earns against q, both recomputed exactly from p and q.
    certified : bool
        p and q are distributions and guaranteed_by_I == value == held_by_II: a proof that
        value is the value and p, q are optimal.
    basis : tuple or None
        The optimal basis as (rows u whose slack is nonbasic, sets i where q_i is basic,
        sets at q_i = 1): pass it as ``warm`` to solve a game with more rows.
    """

    value: Fraction
    p: tuple[Fraction, ...]
    q: tuple[Fraction, ...]
    guaranteed_by_I: Fraction
    held_by_II: Fraction
    certified: bool
    basis: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] | None = None


def guaranteed(a: Sequence[Fraction], h: Sequence[Sequence[Fraction]], p: Sequence[Fraction | int]) -> Fraction:
    """V(p): player I's payoff against player II's best reply."""
    base = sum((pu * au for pu, au in zip(p, a)), Fraction(0))
    return base + sum((min(Fraction(0), sum((pu * x for pu, x in zip(p, hi)), Fraction(0))) for hi in h), Fraction(0))


def best_reply_I(a: Sequence[Fraction], h: Sequence[Sequence[Fraction]], q: Sequence[Fraction]) -> list[Fraction]:
    """Player I's payoff from each pure strategy against player II's behavioural q."""
    return [a[u] + sum((qi * hi[u] for qi, hi in zip(q, h) if qi), Fraction(0)) for u in range(len(a))]


def solve_additive_zero_sum(a: Sequence[Fraction], h: Sequence[Sequence[Fraction]], tol: float = 1e-9,
                            warm: tuple | None = None) -> ZeroSumAdditive:
    """Solve the zero-sum game exactly: a float LP for a starting basis, an exact simplex to the optimum.

    Parameters
    ----------
    a : sequence of Fraction
        A_u, player I's payoff from pure strategy u when player II plays move 0 everywhere.
    h : sequence of sequences of Fraction
        h_i^u, the change in that payoff when player II plays move 1 at information set i.
    tol : float
        Float threshold below which HiGHS's p_u is read as 0 when guessing the starting basis.
    warm : tuple, optional
        A starting basis tried before the float LP's: the ``basis`` of the solution of a game
        with the same information sets and the first rows of this one (column generation).

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
    move changes the payoff by about theta |h| (Ethier and Lee, "On the three-person game
    baccara banque", Games 6 (2015) 57-78).  The float solution is therefore used only to guess player II's mixed sets
    and player I's support; :func:`_exact_simplex` starts from that basis (or, if the
    guess is singular or neither primal nor dual feasible, from a trivial one) and pivots
    in exact rationals until every reduced cost has the right sign, which is the
    certificate.
    """
    def starts():
        if warm is not None:
            yield warm
        yield _float_hint(a, h, tol)

    p, q, v, basis = _exact_simplex(a, h, starts())
    g = guaranteed(a, h, p)
    held = max(best_reply_I(a, h, q))
    ok = all(x >= 0 for x in p) and sum(p) == 1 and all(0 <= x <= 1 for x in q) and g == v == held
    return ZeroSumAdditive(v, tuple(p), tuple(q), g, held, ok, basis)


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


class _Tableau:
    """Player II's LP in exact rationals, for :func:`_exact_simplex`.

    minimise v  subject to  sum_i h_i^u q_i - v + s_u = -A_u  (u < m),  0 <= q_i <= 1,
    s_u >= 0, v free.  Columns: q_0..q_{n-1}, s_0..s_{m-1}, v.  A basis has m columns,
    v always among them (a free variable never leaves); ``at_one`` holds the nonbasic
    q_i at their upper bound.  The prices y of the rows give player I's mixture p = -y
    (sum p_u = 1 from v's column), and the reduced costs are p.h_i for q_i and p_u for s_u.
    """

    def __init__(self, a, h) -> None:
        self.m, self.n = m, n = len(a), len(h)
        self.v = n + m
        self.H = flint.fmpq_mat(n, m, [_q(x) for row in h for x in row])
        self.HT = self.H.transpose()
        self.minus_a = flint.fmpq_mat(m, 1, [-_q(x) for x in a])
        self.columns = [[self.H[i, u] for u in range(m)] for i in range(n)]
        self.columns += [[flint.fmpq(int(u == k)) for u in range(m)] for k in range(m)]
        self.columns.append([flint.fmpq(-1)] * m)

    def upper(self, j):
        return 1 if j < self.n else None

    def rhs(self, at_one) -> flint.fmpq_mat:
        """-A - sum_{i in at_one} h_i: the right-hand side left for the basic columns."""
        ones = flint.fmpq_mat(self.n, 1, [int(i in at_one) for i in range(self.n)])
        return self.minus_a - self.HT * ones

    def state(self, basis, at_one):
        """(B^-1, basic values, p, reduced costs of the q_i as an n x 1 matrix); ZeroDivisionError
        if the basis is singular."""
        m = self.m
        binv = _inverse([self.columns[j] for j in basis])
        xb_col = binv * self.rhs(at_one)
        xb = [xb_col[k, 0] for k in range(m)]
        p = [-binv[basis.index(self.v), u] for u in range(m)]  # y = B^-T e_v
        return binv, xb, p, self.H * flint.fmpq_mat(m, 1, p)

    def wrong_sign(self, basis, at_one, p, d) -> list:
        """The nonbasic columns whose reduced cost has the wrong sign (the primal simplex's
        candidates): (rate of improvement, column, direction)."""
        in_basis = set(basis)
        out = []
        for i in range(self.n):
            if i in in_basis:
                continue
            di = d[i, 0]
            if i in at_one and di > 0:
                out.append((di, i, -1))
            elif i not in at_one and di < 0:
                out.append((-di, i, 1))
        return out + [(-p[u], self.n + u, 1) for u in range(self.m) if self.n + u not in in_basis and p[u] < 0]

    def out_of_bounds(self, basis, xb) -> list[int]:
        """Positions in the basis of the basic variables outside their bounds."""
        return [k for k, (j, x) in enumerate(zip(basis, xb))
                if j != self.v and (x < 0 or (j < self.n and x > 1))]


def _exact_simplex(a, h, starts) -> tuple[list[Fraction], list[Fraction], Fraction, tuple]:
    """Player II's LP (see :class:`_Tableau`) solved exactly by the bounded-variable simplex method.

    The basis is optimal when p >= 0, p.h_i >= 0 where q_i = 0 and p.h_i <= 0 where
    q_i = 1, and every basic variable is within its bounds: p and q are then optimal
    strategies.  Each start (support, mixed, draw) gives the basis (q_K, s_u for u outside
    the support, v) with q = 1 on ``draw``; the first one that is square, nonsingular and
    primal feasible is used, or dual feasible (a warm start from a game with fewer rows),
    then made primal feasible by the dual simplex method.  Failing all, the start is q in
    {0, 1} (the last start's ``draw``) with the basis v and every slack but one, which is
    always feasible.  The primal simplex then uses Dantzig's rule, then Bland's (no
    cycling) after repeated degenerate pivots.  Returns (p, q, v, the optimal basis as
    (rows whose slack is nonbasic, sets where q is basic, sets at q = 1)).
    """
    t = _Tableau(a, h)
    m, n, vcol = t.m, t.n, t.v
    basis = None
    draw: list[int] = []
    for support, mixed, draw in starts:
        start = sorted(set(mixed)) + [n + u for u in range(m) if u not in set(support)] + [vcol]
        at_one = set(draw) - set(mixed)
        if len(start) != m:
            continue
        try:
            _, xb, p, d = t.state(start, at_one)
        except ZeroDivisionError:
            continue
        if not t.out_of_bounds(start, xb):
            basis = start
            break
        if not t.wrong_sign(start, at_one, p, d):
            found = _dual_simplex(t, start, at_one)
            if found is not None:
                basis, at_one = found
                break
    if basis is None:
        at_one = set(draw)
        r = t.rhs(at_one)
        top = min(range(m), key=lambda u: r[u, 0])   # the largest A_u + sum_{i in draw} h_i^u
        basis = [n + u for u in range(m) if u != top] + [vcol]
    degenerate, bland = 0, False
    for _ in range(100 * (n + m)):
        binv, xb, p, d = t.state(basis, at_one)
        eligible = t.wrong_sign(basis, at_one, p, d)
        if not eligible:
            q = [Fraction(1) if i in at_one else Fraction(0) for i in range(n)]
            v = Fraction(0)
            for j, x in zip(basis, xb):
                if j < n:
                    q[j] = _fraction(x)
                elif j == vcol:
                    v = _fraction(x)
            supports = (tuple(u for u in range(m) if n + u not in basis), tuple(sorted(j for j in basis if j < n)),
                        tuple(sorted(at_one)))
            return [_fraction(x) for x in p], q, v, supports
        # Entering columns in the rule's order.  The basis, hence p and the reduced costs, stay
        # the same through bound flips, so the next choice needs no new prices: only a change of
        # basis ends the pass.
        eligible.sort(key=lambda e: e[1] if bland else (-e[0], e[1]))
        for _, enter, sign in eligible:
            col = t.columns[enter]
            w = [sum((binv[k, u] * col[u] for u in range(m)), flint.fmpq(0)) for k in range(m)]
            # x_enter moves by sign * step, basic x_k by -sign * step * w_k; the first bound reached stops it
            steps = [(flint.fmpq(1), enter)] if t.upper(enter) is not None else []
            for j, x, wk in zip(basis, xb, w):
                rate = -sign * wk
                if j == vcol or rate == 0:
                    continue
                if rate < 0:
                    steps.append((x / -rate, j))
                elif t.upper(j) is not None:
                    steps.append(((t.upper(j) - x) / rate, j))
            if not steps:
                raise ArithmeticError("the exact simplex found player II's LP unbounded")
            step, leave = min(steps, key=lambda s: (s[0], s[1]))
            if leave == enter:  # a bound flip: q_enter goes from one bound to the other
                at_one ^= {enter}
                xb = [x - sign * wk for x, wk in zip(xb, w)]
                continue
            degenerate = degenerate + 1 if step == 0 else 0
            bland = bland or degenerate > 2 * m
            k = basis.index(leave)
            if t.upper(leave) is not None and xb[k] - sign * step * w[k] == t.upper(leave):
                at_one.add(leave)
            else:
                at_one.discard(leave)
            at_one.discard(enter)
            basis[k] = enter
            break
    raise ArithmeticError("the exact simplex did not terminate")


def _dual_simplex(t: _Tableau, basis: list[int], at_one: set[int]) -> tuple[list[int], set[int]] | None:
    """From a dual feasible basis, the dual simplex method (Bland's rule: the first basic
    variable out of bounds leaves, ties in the ratio test to the first column) until every
    basic variable is within its bounds: then the basis is optimal.  None if it does not end
    within its iteration limit (the caller then starts afresh)."""
    basis, at_one = list(basis), set(at_one)
    m, n = t.m, t.n
    for _ in range(10 * (n + m)):
        binv, xb, p, d = t.state(basis, at_one)
        bad = t.out_of_bounds(basis, xb)
        if not bad:
            return basis, at_one
        k = min(bad, key=lambda k: basis[k])
        below = xb[k] < 0                     # then x_k must rise to 0, else fall to 1
        row = flint.fmpq_mat(m, 1, [binv[k, u] for u in range(m)])
        alpha = t.H * row                     # (B^-1 h_i)_k for every set i
        in_basis = set(basis)
        # x_k changes by -alpha_j per unit of x_j; j at its lower bound may rise, at its upper
        # bound fall; the ratio |d_j / alpha_j| keeps every reduced cost's sign
        ratios = []
        for i in range(n):
            if i in in_basis or alpha[i, 0] == 0:
                continue
            rises = i not in at_one
            if (alpha[i, 0] < 0) == (rises == below):
                ratios.append((abs(d[i, 0] / alpha[i, 0]), i))
        for u in range(m):
            if n + u not in in_basis and binv[k, u] != 0 and (binv[k, u] < 0) == below:
                ratios.append((abs(p[u] / binv[k, u]), n + u))
        if not ratios:
            return None                       # primal infeasible: cannot happen for this LP
        _, enter = min(ratios)
        leave = basis[k]
        if below:
            at_one.discard(leave)
        else:
            at_one.add(leave)
        at_one.discard(enter)
        basis[k] = enter
    return None


def _q(x) -> flint.fmpq:
    x = Fraction(x)
    return flint.fmpq(x.numerator, x.denominator)


def _fraction(x: flint.fmpq) -> Fraction:
    return Fraction(int(x.p), int(x.q))


def _inverse(cols) -> flint.fmpq_mat:
    """The inverse of the matrix with columns ``cols``, exactly; ZeroDivisionError if singular."""
    m = len(cols)
    return flint.fmpq_mat(m, m, [cols[c][r] for r in range(m) for c in range(m)]).inv()
