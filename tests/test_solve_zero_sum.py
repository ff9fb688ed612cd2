"""Unit tests of :mod:`baccara.solve.zero_sum`: zero-sum games between a player with m pure
strategies and an additive opponent (player II chooses a move at each of n information
sets; Ethier and Lee 2023), solved by LP and recovered exactly.

No card game is involved.  The oracles: the minimax formula of a 2 x 2 matrix game, and
the value of the m x 2^n normal form (payoffs from the definition) by an independent LP.
"""

from fractions import Fraction as F
from itertools import product

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog

from baccara.solve.zero_sum import best_reply_I, guaranteed, solve_additive_zero_sum

from .budget import examples


def subsets(n):
    return list(product((0, 1), repeat=n))


def payoff(a, h, u, T):
    """A(u, T) = A_u + sum_{i in T} h_i^u: player I's payoff at a pure pair."""
    return a[u] + sum((h[i][u] for i in range(len(h)) if T[i]), F(0))


def normal_form_value(a, h):
    """The value of the m x 2^n matrix game: max v s.t. sum_u p_u A(u, T) >= v for all T."""
    m, Ts = len(a), subsets(len(h))
    M = np.array([[float(payoff(a, h, u, T)) for T in Ts] for u in range(m)])
    res = linprog(np.r_[np.zeros(m), -1.0], A_ub=np.c_[-M.T, np.ones(len(Ts))], b_ub=np.zeros(len(Ts)),
                  A_eq=np.r_[np.ones(m), 0.0][None, :], b_eq=[1.0], bounds=[(0, None)] * m + [(None, None)],
                  method="highs")
    assert res.status == 0
    return -res.fun


def brute_guaranteed(a, h, p):
    """min over player II's pure strategies of player I's expected payoff with p."""
    return min(sum(pu * payoff(a, h, u, T) for u, pu in enumerate(p)) for T in subsets(len(h)))


def brute_reply(a, h, q):
    """Player I's payoff from each pure u against behavioural q, over all pure T."""
    out = []
    for u in range(len(a)):
        tot = F(0)
        for T in subsets(len(h)):
            w = F(1)
            for qi, t in zip(q, T):
                w *= qi if t else 1 - qi
            tot += w * payoff(a, h, u, T)
        out.append(tot)
    return out


def fr(xs):
    return [F(x) for x in xs]


small = st.integers(-9, 9)


@st.composite
def games(draw, m=None, n=None):
    m = m or draw(st.integers(2, 3))
    n = n or draw(st.integers(1, 3))
    return fr([draw(small) for _ in range(m)]), [fr([draw(small) for _ in range(m)]) for _ in range(n)]


def check_solution(a, h, z):
    """What any answer must satisfy, certified or not, and the certificate when it is."""
    assert all(x >= 0 for x in z.p) and sum(z.p) == 1
    assert all(0 <= x <= 1 for x in z.q)
    assert z.guaranteed_by_I == guaranteed(a, h, z.p) == brute_guaranteed(a, h, z.p)
    assert z.held_by_II == max(best_reply_I(a, h, z.q)) == max(brute_reply(a, h, z.q))
    assert z.guaranteed_by_I <= z.held_by_II  # weak duality: p guarantees, q holds
    if z.certified:
        assert z.value == z.guaranteed_by_I == z.held_by_II


# ---------------------------------------------------------------- hand-made games
def test_matching_pennies():
    # u = 0 matches move 0, u = 1 matches move 1: A(0,{}) = 1, A(0,{0}) = -1, A(1,{}) = -1,
    # A(1,{0}) = 1: a = (1, -1), h_0 = (-2, 2).  Value 0 at p = (1/2, 1/2), q = 1/2.
    a, h = fr([1, -1]), [fr([-2, 2])]
    z = solve_additive_zero_sum(a, h)
    assert z.certified
    assert (z.value, z.p, z.q) == (F(0), (F(1, 2), F(1, 2)), (F(1, 2),))


def test_three_strategies_against_two_sets():
    # m = 3, n = 2.  a = (0, 0, 0), h_0 = (2, -1, 0), h_1 = (-1, 2, 0): u = 2 always earns 0.
    # Player II draws at 0 iff 2 p0 - p1 < 0 and at 1 iff -p0 + 2 p1 < 0, so
    # V(p) = min(0, 2p0 - p1) + min(0, 2p1 - p0) <= 0, and V = 0 at p = (0, 0, 1) (also at
    # any p0 = p1): the value is 0.  Player II holds I to 0 by any q with
    # u=0: 2 q0 - q1 <= 0 and u=1: -q0 + 2 q1 <= 0, e.g. q = (0, 0).
    a, h = fr([0, 0, 0]), [fr([2, -1, 0]), fr([-1, 2, 0])]
    z = solve_additive_zero_sum(a, h)
    check_solution(a, h, z)
    assert z.value == 0 and z.guaranteed_by_I == 0


def test_guaranteed_is_concave_piecewise_linear_minimum():
    # V(p) = sum p_u A_u + sum_i min(0, sum_u p_u h_i^u), on matching pennies:
    # V(p, 1-p) with p = P(u = 0): 2p - 1 + min(0, -2p + 2(1-p)) = min(2p - 1, 1 - 2p).
    a, h = fr([1, -1]), [fr([-2, 2])]
    for p in (F(0), F(1, 4), F(1, 2), F(2, 3), F(1)):
        assert guaranteed(a, h, (p, 1 - p)) == min(2 * p - 1, 1 - 2 * p)


def test_saddle_point_with_an_indifferent_set_is_certified():
    # a = (5, -4, 8), h_0 = (0, 2, -9).  Matrix A(u, T), columns T = {} and {0}:
    #   u=0: 5, 5;  u=1: -4, -2;  u=2: 8, -1.
    # Row 0 guarantees 5 and column {0} holds player I to max(5, -2, -1) = 5: a saddle point,
    # value 5, p = (1, 0, 0), q = 1 certify it.  (Any q >= 1/3 holds I to 5: u=2 earns 8 - 9q.)
    # Against p = (1, 0, 0) player II's gain at set 0 is h_0^0 = 0: she is indifferent there;
    # a q read off p alone (q = 0) would let u = 2 earn 8.  The exact simplex recovers q >= 1/3.
    a, h = fr([5, -4, 8]), [fr([0, 2, -9])]
    assert max(brute_reply(a, h, (F(1),))) == 5 == brute_guaranteed(a, h, (F(1), F(0), F(0)))
    z = solve_additive_zero_sum(a, h)
    assert z.value == 5 and z.guaranteed_by_I == 5  # p and the value are right
    assert z.certified and z.q[0] >= F(1, 3)


# ---------------------------------------------------------------- random games
@settings(max_examples=examples(150), deadline=None)
@given(games(m=2, n=1))
def test_two_by_two_value_by_the_minimax_formula(g):
    # One set: the matrix [[A0, A0 + h0], [A1, A1 + h1]] =: [[w, x], [y, z]].  With a saddle
    # point (max of row minima == min of column maxima) that is the value; otherwise the
    # mixed value (wz - xy) / (w + z - x - y) (von Neumann's 2 x 2 formula).
    a, h = g
    w, x, y, zz = a[0], a[0] + h[0][0], a[1], a[1] + h[0][1]
    lower, upper = max(min(w, x), min(y, zz)), min(max(w, y), max(x, zz))
    value = lower if lower == upper else (w * zz - x * y) / (w + zz - x - y)
    z = solve_additive_zero_sum(a, h)
    check_solution(a, h, z)
    assert z.value == value == z.guaranteed_by_I
    assert z.certified


@settings(max_examples=examples(150), deadline=None)
@given(games())
def test_value_matches_the_normal_form_lp(g):
    a, h = g
    z = solve_additive_zero_sum(a, h)
    check_solution(a, h, z)
    assert abs(float(z.value) - normal_form_value(a, h)) < 1e-9
    assert z.guaranteed_by_I == z.value  # player I's p is maximin in every case seen
    if not any(sum(pu * hu for pu, hu in zip(z.p, hi)) == 0 for hi in h):
        assert z.certified


@settings(max_examples=examples(150), deadline=None)
@given(games(), st.lists(st.fractions(0, 1, max_denominator=7), min_size=6, max_size=6))
def test_guaranteed_and_best_reply_are_brute_force(g, z):
    a, h = g
    raw = z[:len(a)]
    tot = sum(raw) or F(1)
    p = [x / tot for x in raw] if sum(raw) else [F(1)] + [F(0)] * (len(a) - 1)
    q = z[3:3 + len(h)]
    assert guaranteed(a, h, p) == brute_guaranteed(a, h, p)
    assert best_reply_I(a, h, q) == brute_reply(a, h, q)
    # weak duality of any p against any q: what p guarantees <= what q concedes
    assert guaranteed(a, h, p) <= max(best_reply_I(a, h, q))
