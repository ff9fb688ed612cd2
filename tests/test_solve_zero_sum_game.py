"""Unit tests of :func:`baccara.solve.zero_sum.solve_zero_sum`: zero-sum additive 2 x 2^n games
by linear programming (HiGHS in floats), recovered and certified in exact rationals.

No card game is involved.  The oracle is the exact value of the 2 x 2^n normal form: player
I's best guarantee min_p max_T B(p, T) is convex and piecewise linear in p, so its minimum
is at p = 0, 1 or a point where two pure strategies T, T' of player II tie; all of those are
enumerated from the payoffs.  Foster's algorithm (Foster 1964) gives a second, independent
route to the equilibrium.
"""

from fractions import Fraction as F
from itertools import combinations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baccara.solve.additive import AdditiveGame, certify, nash_equilibria
from baccara.solve.linalg import solve_exact
from baccara.solve.zero_sum import solve_zero_sum

from .budget import examples


def zs_game(b, g):
    """Zero-sum: a = -b, h = -g."""
    b = tuple(F(x) for x in b)
    g = tuple(tuple(F(x) for x in r) for r in g)
    return AdditiveGame(tuple(-x for x in b), b, tuple(tuple(-x for x in r) for r in g), g)


def B(gm, u, T):
    return gm.b[u] + sum((gm.g[i][u] for i in range(gm.n) if T[i]), F(0))


def B_mixed(gm, p, T):
    return (1 - p) * B(gm, 0, T) + p * B(gm, 1, T)


def exact_value(gm):
    """Value to player II of the normal form, exactly: min over p of max_T B(p, T)."""
    Ts = list(product((0, 1), repeat=gm.n))
    ps = {F(0), F(1)}
    for T, U in combinations(Ts, 2):
        d0, d1 = B(gm, 0, T) - B(gm, 0, U), B(gm, 1, T) - B(gm, 1, U)
        if d0 != d1 and 0 < d0 / (d0 - d1) < 1:
            ps.add(d0 / (d0 - d1))
    return min(max(B_mixed(gm, p, T) for T in Ts) for p in ps)


def pure_maximin(gm):
    """The best player II can guarantee with a pure strategy."""
    return max(min(B(gm, 0, T), B(gm, 1, T)) for T in product((0, 1), repeat=gm.n))


def expected_B(gm, u, q):
    tot = F(0)
    for T in product((0, 1), repeat=gm.n):
        w = F(1)
        for qi, t in zip(q, T):
            w *= qi if t else 1 - qi
        tot += w * B(gm, u, T)
    return tot


small = st.integers(-9, 9)
pos = st.integers(1, 9)


@st.composite
def zero_sum_games(draw):
    n = draw(st.integers(1, 3))
    b = (draw(small), draw(small))
    rows = []
    for _ in range(n):
        if draw(st.booleans()):  # a best-response discontinuity inside (0, 1): mixing is likely
            x, y = draw(pos), draw(pos)
            rows.append((x, -y) if draw(st.booleans()) else (-x, y))
        else:
            rows.append((draw(small), draw(small)))
    return zs_game(b, rows)


# ---------------------------------------------------------------- hand-made games
def test_matching_pennies():
    # B = -A of matching pennies: b = (-1, 1), g_0 = (2, -2).  Value 0, p = q = 1/2.
    z = solve_zero_sum(zs_game((-1, 1), [(2, -2)]))
    assert z.certified and (z.value, z.p, z.q) == (F(0), F(1, 2), (F(1, 2),))


def test_two_by_two_mixed():
    # Player II's payoffs: B(0, {}) = 2, B(0, {0}) = -1, B(1, {}) = -1, B(1, {0}) = 3, i.e.
    # b = (2, -1), g_0 = (-3, 4).  q equalizes 2 - 3q = -1 + 4q: q = 3/7, value 2 - 9/7 = 5/7.
    # p makes her indifferent: -3 (1 - p) + 4 p = 0, p = 3/7.
    # A second set with g_1 = (-1, -2) < 0 is never drawn at and changes nothing.
    for g in ([(-3, 4)], [(-3, 4), (-1, -2)]):
        gm = zs_game((2, -1), g)
        z = solve_zero_sum(gm)
        assert z.certified
        assert (z.value, z.p) == (F(5, 7), F(3, 7))
        assert z.q == (F(3, 7),) + (F(0),) * (len(g) - 1)
        assert z.value == exact_value(gm)


def test_saddle_point_is_solved():
    # g_0 = (1, 1) > 0: drawing is strictly dominant for player II, who then earns
    # b + g = (1, 1) whatever player I does: the value (to II) is 1, q = 1, any p (both of
    # her LP's rows tight, no set mixed: the degenerate vertex the exact recovery refused).
    gm = zs_game((0, 0), [(1, 1)])
    assert exact_value(gm) == 1
    z = solve_zero_sum(gm)
    assert z.certified and z.value == 1 and z.q == (F(1),) and 0 <= z.p <= 1
    assert z.guaranteed_by_II == z.held_by_I == 1


def test_pure_optimum_with_a_segment_of_optimal_p():
    # b = (0, 0), g_0 = (2, -1), g_1 = (-1, 2).  With q player II earns 2 q_0 - q_1 (u = 0)
    # and -q_0 + 2 q_1 (u = 1), whose minimum is at most their mean (q_0 + q_1)/2 <= 1: the
    # value is 1, at the pure q = (1, 1).  Against p her best reply earns
    # max(0, 2 - 3p) + max(0, 3p - 1), which is 1 exactly for p in [1/3, 2/3]: player I's
    # optimal p form a segment and she is indifferent at no set for p inside it.
    gm = zs_game((0, 0), [(2, -1), (-1, 2)])
    z = solve_zero_sum(gm)
    assert z.certified and z.value == exact_value(gm) == 1 and z.q == (F(1), F(1))
    assert F(1, 3) <= z.p <= F(2, 3)
    assert z.held_by_I == max(B_mixed(gm, z.p, T) for T in product((0, 1), repeat=2)) == 1


def test_non_zero_sum_is_refused():
    gm = AdditiveGame((F(0), F(0)), (F(1), F(0)), ((F(0), F(0)),), ((F(1), F(1)),))
    with pytest.raises(ValueError, match="zero-sum"):
        solve_zero_sum(gm)


def test_solve_exact():
    # x + y = 3, x - y = 1: x = 2, y = 1; a singular system has no unique solution.
    assert solve_exact([[F(1), F(1)], [F(1), F(-1)]], [F(3), F(1)]) == [F(2), F(1)]
    assert solve_exact([[F(1), F(2)], [F(2), F(4)]], [F(1), F(2)]) is None


# ---------------------------------------------------------------- random games
@settings(max_examples=examples(200), deadline=None)
@given(zero_sum_games())
def test_lp_matches_the_exact_normal_form_value(gm):
    # saddle points (player II's optimal strategy pure) included
    value = exact_value(gm)
    z = solve_zero_sum(gm)
    assert z.certified
    if all(x in (0, 1) for x in z.q):
        assert pure_maximin(gm) == value
    assert z.value == value
    # the certificate, recomputed by brute force over pure strategies
    assert z.guaranteed_by_II == min(expected_B(gm, u, z.q) for u in (0, 1)) == value
    assert z.held_by_I == max(B_mixed(gm, z.p, T) for T in product((0, 1), repeat=gm.n)) == value
    # an optimal pair of a zero-sum game is a Nash equilibrium; Foster's algorithm finds one
    # with the same payoff
    assert certify(gm, z.p, z.q).holds
    assert all(e.payoff_II == value for e in nash_equilibria(gm).equilibria)


@settings(max_examples=examples(100), deadline=None)
@given(zero_sum_games(), st.fractions(1, 2, max_denominator=7))
def test_perturbed_optimal_strategies_lose(gm, eps):
    # q moved off the optimum lets player I hold player II to the value or below, never
    # above; p moved off lets her earn the value or more.  Saddle points included.
    z = solve_zero_sum(gm)
    for i in range(gm.n):
        for qi in (z.q[i] * (1 - eps / 2), z.q[i] + (1 - z.q[i]) * eps / 2):
            q = list(z.q)
            q[i] = qi
            assert min(expected_B(gm, u, q) for u in (0, 1)) <= z.value
    for p in (z.p * (1 - eps / 2), z.p + (1 - z.p) * eps / 2):
        assert max(B_mixed(gm, p, T) for T in product((0, 1), repeat=gm.n)) >= z.value
    # a set mixed at the optimal vertex has both of player I's rows tight and unequal gains
    # there, so moving q off it strictly lowers one side's payoff to player II
    for i in (i for i, x in enumerate(z.q) if 0 < x < 1):
        drops = []
        for qi in (z.q[i] * (1 - eps / 2), z.q[i] + (1 - z.q[i]) * eps / 2):
            q = list(z.q)
            q[i] = qi
            drops.append(min(expected_B(gm, u, q) for u in (0, 1)) < z.value)
        assert any(drops)
