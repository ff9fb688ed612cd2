"""Unit tests of :mod:`baccara.solve.sweep`: the Nash equilibria of an additive 2 x 2^n game
whose player II gains are linear in a parameter alpha, over an alpha-interval (the structure
of Ethier and Lee 2023: best-response-discontinuity curves, their crossings, cases).

No card game is involved.  The oracle is the pointwise solver (Foster's algorithm, Foster
1964, in :mod:`baccara.solve.additive`, itself checked against brute force in
``test_solve_additive``): at a rational alpha inside every cell between consecutive
breakpoints (zeros of the gains, crossings of any two curves, interval ends), the equilibria
the sweep's intervals and pieces give there must be exactly Foster's, with the same verdict
on uniqueness; and at every breakpoint itself (irrational ones too: Foster's algorithm runs
in the quadratic field), exactly the sweep's special alpha there or its pieces' limits.
Random games include the degenerate sets of small shoes (gains vanishing identically or at
one alpha, coinciding curves).
"""

import itertools
from fractions import Fraction as F

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from baccara.algebraic import QuadraticNumber as Q
from baccara.algebraic import quadratic_roots
from baccara.errors import NotProven
from baccara.solve.additive import AdditiveGame, nash_equilibria
from baccara.solve.sweep import (
    LinearAdditiveGame,
    group_blocks,
    rational_between,
    strategy_string,
    sweep,
)

from .budget import examples


def lin(c, e, delta, delta_base):
    return LinearAdditiveGame(tuple(map(tuple, c)), tuple(map(tuple, e)), tuple(delta), delta_base,
                              tuple(f"s{i}" for i in range(len(c))))


def at(game, alpha):
    """The additive game at a rational alpha: a = (0, delta_base), h_i = (0, delta_i), g_i(alpha)."""
    n = len(game.c)
    return AdditiveGame((F(0), F(game.delta_base)), (F(0), F(0)),
                        tuple((F(0), F(game.delta[i])) for i in range(n)),
                        tuple((F(game.g(i, 0, alpha)), F(game.g(i, 1, alpha))) for i in range(n)))


def foster_at(game, alpha):
    ns = nash_equilibria(at(game, alpha), merge=False)
    return {(e.p, e.q) for e in ns.equilibria}, ns.continua


def interval_point(iv, alpha):
    """The equilibrium an interval of the sweep describes at alpha."""
    if iv.pure is not None:
        p = F(iv.pure)
    else:
        n0, n1, d0, d1 = iv.p_formula
        p = (n0 + n1 * alpha) / (d0 + d1 * alpha)
    q = tuple(iv.q if k == iv.i else F(1 if m > 0 else 0) for k, m in enumerate(iv.moves))
    return p, q


def strictly_between(x, y):
    """A rational strictly inside (x, y), x < y (own helper: midpoint of separating bounds)."""
    x, y = Q.of(x), Q.of(y)
    bits = 8
    while True:
        _, xh = x.bounds(bits)
        yl, _ = y.bounds(bits)
        if xh < yl:
            m = (xh + yl) / 2
            assert x < m < y
            return m
        bits *= 2


def breakpoints(game, sw):
    """Every alpha in (lo, hi) where the pointwise equilibrium structure may change."""
    lo, hi = Q.of(sw.lo), Q.of(sw.hi)
    pts = {lo, hi}
    n = len(game.c)
    for i in range(n):
        for u in (0, 1):
            c, e = game.c[i][u], game.e[i][u]
            if e:
                pts.add(Q.of(F(-c, e)))
        for j in range(i + 1, n):  # p_i = p_j: g_i^0 g_j^1 - g_j^0 g_i^1 = 0, a quadratic in alpha
            (c0i, c1i), (e0i, e1i) = game.c[i], game.e[i]
            (c0j, c1j), (e0j, e1j) = game.c[j], game.e[j]
            k2 = e0i * e1j - e0j * e1i
            k1 = c0i * e1j + e0i * c1j - c0j * e1i - e0j * c1i
            k0 = c0i * c1j - c0j * c1i
            if k0 or k1 or k2:
                pts.update(quadratic_roots(k2, k1, k0))
    for iv in sw.intervals:
        pts.update((iv.lo, iv.hi))
    pts.update(x.alpha for x in sw.intersections)
    return sorted(p for p in pts if lo <= p <= hi)


# ---------------------------------------------------------------- hand-made sweeps
def test_one_curve():
    # g = (2, -1 + 10 alpha): opposite signs for alpha < 1/10, so the curve
    # p(alpha) = 2 / (3 - 10 alpha) runs over all of (0, 1/10).  Player I's gain from u = 1 is
    # -1 + 3 q: q = 1/3 on the curve.  At p = 0 player II plays 1 (g^0 = 2 > 0) and Delta = 2 > 0;
    # at p = 1 she plays 0 and Delta = -1 < 0: no pure equilibrium.  One interval.
    game = lin([(2, -1)], [(0, 10)], [3], -1)
    sw = sweep(game, F(0), F(1, 10))
    assert sw.counts() == (1, 0, 0, 1, 0)
    (iv,) = sw.intervals
    assert (iv.lo, iv.hi, iv.i, iv.q, iv.p_formula, iv.pure) == (0, F(1, 10), 0, F(1, 3), (2, 0, 3, -10), None)
    assert foster_at(game, F(1, 20))[0] == {(F(4, 5), (F(1, 3),))}  # p = 2 / (3 - 1/2)


def crossing_game():
    # Set i: g_i = (1, -1 - 10 alpha), p_i = 1 / (2 + 10 alpha) falls from 1/2 to 1/3.
    # Set j: g_j = (1 + 10 alpha, -2), p_j = (1 + 10 alpha) / (3 + 10 alpha) rises from 1/3 to 1/2.
    # They cross where g_i^0 g_j^1 - g_j^0 g_i^1 = -2 + (1 + 10 alpha)^2 = 0: alpha* = (sqrt2 - 1)/10.
    return lin([(1, -1), (1, -2)], [(0, -10), (10, 0)], [4, -2], -1)


def test_two_curves_crossing_at_an_irrational_alpha():
    # Player I's gain: Delta = -1 + 4 q_i - 2 q_j.  Player II's gain at a set falls with p and
    # vanishes on its curve, so on curve i she plays 0 at j while p_i > p_j (alpha < alpha*):
    # q_i = 1/4; and 1 at j after: -3 + 4 q_i = 0, q_i = 3/4.  On curve j she plays 1 at i
    # before (q_j = 3/2) and 0 after (q_j = -1/2): no equilibrium.  p = 0: both sets play 1,
    # Delta = 1 > 0; p = 1: both 0, Delta = -1 < 0: no pure equilibrium.  So the intervals
    # (0, alpha*) and (alpha*, 1/10) partition [0, 1/10], both on curve i.
    game = crossing_game()
    sw = sweep(game, F(0), F(1, 10))
    star = Q(F(-1, 10), F(1, 10), 2)
    assert [x.alpha for x in sw.intersections] == [star]
    assert sw.counts() == (2, 1, 0, 4, 1)
    got = [(iv.lo, iv.hi, iv.i, iv.q, iv.moves[1]) for iv in sw.intervals]
    assert got == [(0, star, 0, F(1, 4), -1), (star, F(1, 10), 0, F(3, 4), 1)]
    assert all(iv.p_formula == (1, 0, 2, 10) for iv in sw.intervals)  # p = 1 / (2 + 10 alpha)
    # At alpha* both sets may mix: {-1 + 4 q_i - 2 q_j = 0} in the square, from (1/4, 0) to (3/4, 1).
    (pc,) = sw.points
    pairs = {(x[0], x[1]) for x in pc.extremes}
    assert {(F(1, 4), F(0)), (F(3, 4), F(1))} <= pairs
    assert all(-1 + 4 * a - 2 * b == 0 for a, b in pairs) and pc.exceptional
    for alpha, q in ((F(1, 50), (F(1, 4), F(0))), (F(2, 25), (F(3, 4), F(1)))):
        assert foster_at(game, alpha)[0] == {(1 / (2 + 10 * alpha), q)}


def test_partial_curve_and_overlapping_intervals():
    # g = (1 - 20 alpha, -1): a curve p = (1 - 20 alpha)/(2 - 20 alpha) only for alpha < 1/20
    # (then g^0 < 0 too and move 0 is dominant).  Delta = 1 - 2 q: q = 1/2 on the curve.
    # p = 0: player II plays 1 while g^0 > 0, Delta = -1 <= 0: an equilibrium for alpha < 1/20.
    # p = 1: she plays 0, Delta = 1 >= 0: an equilibrium throughout.  Three equilibria below
    # 1/20, one above.
    game = lin([(1, -1)], [(-20, 0)], [-2], 1)
    sw = sweep(game, F(0), F(1, 10))
    assert sw.counts() == (1, 0, 1, 1, 0)
    assert sw.curves[0].pieces == ((0, F(1, 20)),)
    got = {(str(iv.lo), str(iv.hi), iv.pure, iv.q) for iv in sw.intervals}
    assert got == {("0/1", "1/20", None, F(1, 2)), ("0/1", "1/20", 0, None), ("0/1", "1/10", 1, None)}
    assert len(sw.intervals) == 3
    assert len(foster_at(game, F(1, 40))[0]) == 3 and len(foster_at(game, F(3, 40))[0]) == 1


def test_continuum_is_flagged():
    # p = 1/2 for every alpha; Delta = 2 q: q = 0 on the curve, and for p in (1/2, 1) player II
    # plays 0 and player I is indifferent: a continuum, flagged, as Foster's algorithm flags it.
    game = lin([(1, -1)], [(0, 0)], [2], 0)
    sw = sweep(game, F(0), F(1, 10))
    assert sw.continua
    assert foster_at(game, F(1, 20))[1] == [(F(1, 2), F(1), frozenset())]


def test_proportional_sets_are_merged():
    # (c, e, delta) of set 1 is twice set 0's: one decision, one curve.
    game = lin([(1, -1), (2, -2)], [(0, 10), (0, 20)], [4, 8], -3)
    sw = sweep(game, F(0), F(1, 10))
    assert sw.groups == [(0, 1)] and len(sw.curves) == 1
    # merged: g = (3, -3 + 30 alpha), Delta = -3 + 12 q: q = 1/4
    assert [iv.q for iv in sw.intervals] == [F(1, 4)]


def test_rational_between_is_strict():
    for x, y in ((F(0), F(1, 10)), (F(1), F(3, 2)), (F(1, 20), F(1, 10))):
        s = rational_between(x, y)
        assert x < s < y


def test_rational_between_equal_or_reversed_ends_is_an_error_not_a_search_for_ever():
    # the sweep once asked for a rational between a triple crossing and itself (three curves through
    # one point gave the same cut twice), and the search doubled its precision for ever
    from baccara.algebraic import QuadraticNumber

    root = QuadraticNumber(F(1, 20), F(1, 100), 2)
    for x, y in ((F(1, 20), F(1, 20)), (F(1, 10), F(1, 20)), (root, root)):
        with pytest.raises(ValueError, match="needs x < y"):
            rational_between(x, y)


def test_segment_moves_are_sampled_inside():
    # Set i: g = (1, -1), p_i = 1/2 for all alpha.  Set j: g = (1 + alpha, -1 + alpha), whose gain
    # at p = 1/2 is alpha > 0: on curve i player II plays 1 at j for all alpha in (0, 1/10), and
    # Delta = -1 + 4 q_i - 1 = 0 gives q_i = 1/2 (Foster agrees at alpha = 1/20).  The sweep
    # samples the segment at rational_between(0, 1/10) = 0, where the gain at j is 0, takes
    # move 0 there and reports q_i = -(-1)/4 = 1/4.
    game = lin([(1, -1), (1, -1)], [(0, 0), (1, 1)], [4, -1], -1)
    assert foster_at(game, F(1, 20))[0] == {(F(1, 2), (F(1, 2), F(1)))}
    sw = sweep(game, F(0), F(1, 10))
    assert [(iv.i, iv.q) for iv in sw.intervals] == [(0, F(1, 2))]


def test_a_vanishing_set_cuts_the_segments():
    # Set i: g = (1, -1), p_i = 1/2.  Set j: g = (20 alpha - 1)(1, 2): never a curve, but its gain
    # at any p changes sign at alpha = 1/20.  Delta = -1 + 4 q_i - q_j.  On curve i player II
    # plays 0 at j below 1/20 (q_i = 1/4) and 1 above (q_i = 1/2) -- Foster agrees at 1/30
    # and 1/15 -- but the sweep reports one segment over (1/40, 2/25) with q_i = 1/2.
    game = lin([(1, -1), (-1, -2)], [(0, 0), (20, 40)], [4, -1], -1)
    assert foster_at(game, F(1, 30))[0] == {(F(1, 2), (F(1, 4), F(0)))}
    assert foster_at(game, F(1, 15))[0] == {(F(1, 2), (F(1, 2), F(1)))}
    sw = sweep(game, F(1, 40), F(2, 25))
    for alpha in (F(1, 30), F(1, 15)):
        got = {interval_point(iv, alpha) for iv in sw.intervals if iv.lo < alpha < iv.hi}
        assert got == foster_at(game, alpha)[0]


def test_identically_zero_gain_keeps_the_pure_equilibria():
    # g = (alpha, 0): against p = 1 player II is indifferent at the set for every alpha.
    # Delta = -1 + 2 q.  p = 0 or interior p: she plays 1 (gain (1 - p) alpha > 0), Delta = 1 != 0
    # and player I wants u = 1, so only p = 1 can be an equilibrium: with Delta >= 0, q in [1/2, 1]
    # (Foster: the extreme points q = 1 and q = 1/2).  Every finite game has an equilibrium
    # (Nash 1951), yet the sweep reports no interval: its pure piece at p = 1 plays move 0.
    game = lin([(0, 0)], [(1, 0)], [2], -1)
    assert foster_at(game, F(1, 20))[0] == {(F(1), (F(1),)), (F(1), (F(1, 2),))}
    sw = sweep(game, F(0), F(1, 10))
    assert sw.intervals


def test_rational_between_with_irrational_ends():
    # sqrt2 = 1.41421..., sqrt3 = 1.73205...: the simplest rational in between is 3/2.
    assert rational_between(Q(0, 1, 2), Q(0, 1, 3)) == F(3, 2)
    # (sqrt2 - 1)/10 = 0.0414... and 1/10: strictly inside (the irrational end is never hit)
    s = rational_between(Q(F(-1, 10), F(1, 10), 2), Q(F(1, 20), F(1, 20), 2))
    assert Q(F(-1, 10), F(1, 10), 2) < s < Q(F(1, 20), F(1, 20), 2)


@settings(max_examples=examples(200), deadline=None)
@given(st.tuples(st.fractions(-3, 3, max_denominator=9), st.fractions(-3, 3, max_denominator=9),
                 st.sampled_from([2, 3, 5, 7])), st.fractions(0, 1, max_denominator=9).filter(bool))
def test_rational_between_irrational_and_anything(r, gap):
    # with an irrational lower end the answer is strictly inside
    x = Q(r[0], r[1] or 1, r[2])
    for y in (Q.of(x.bounds(8)[1] + gap), Q(x.r + gap, x.s, x.d)):
        s = rational_between(x, y)
        assert x < s < y


def test_strategy_string_and_blocks():
    # D = move 1, S = move 0, M = mixed; blocks joined by '-'.
    assert strategy_string((1, -1, 0, 1), {2}, [[0, 1], [2, 3]]) == "DS-MD"
    key = {0: (1, "b"), 1: (0, "z"), 2: (1, "a"), 3: (0, "a")}.__getitem__
    assert group_blocks([0, 1, 2, 3], key) == [[3, 1], [2, 0]]


# ---------------------------------------------------------------- random: the sweep vs Foster
coef = st.integers(-6, 6)
SPANS = st.sampled_from([(F(0), F(1, 10)), (F(1, 7), F(3, 7)), (F(-1, 3), F(1, 5))])


@st.composite
def linear_games(draw):
    n = draw(st.integers(1, 3))
    c = [(draw(coef), draw(coef)) for _ in range(n)]
    e = [(draw(st.integers(-40, 40)), draw(st.integers(-40, 40))) for _ in range(n)]
    delta = [draw(coef) for _ in range(n)]
    return lin(c, e, delta, draw(coef))


@st.composite
def vanishing_games(draw):
    """Games with the degenerate sets of small shoes: a gain identically 0, both gains 0 at
    one alpha of the spans (k_u (b alpha - a)), both identically 0, a set whose curve is
    another's (proportional gains, another delta)."""
    n = draw(st.integers(1, 4))
    c = [[draw(coef), draw(coef)] for _ in range(n)]
    e = [[draw(st.integers(-40, 40)), draw(st.integers(-40, 40))] for _ in range(n)]
    for j in range(n):
        kind = draw(st.sampled_from(["plain", "one-zero", "common-root", "zero", "copy"]))
        if kind == "one-zero":
            u = draw(st.integers(0, 1))
            c[j][u] = e[j][u] = 0
        elif kind == "common-root":
            a, b = draw(st.sampled_from([(1, 20), (1, 40), (2, 7), (0, 1), (-1, 10), (1, 5)]))
            k = (draw(st.integers(-3, 3)), draw(st.integers(-3, 3)))
            c[j], e[j] = [-k[0] * a, -k[1] * a], [k[0] * b, k[1] * b]
        elif kind == "zero":
            c[j], e[j] = [0, 0], [0, 0]
        elif kind == "copy" and j:
            m = draw(st.integers(1, 3))
            c[j], e[j] = [m * x for x in c[0]], [m * x for x in e[0]]
    delta = [draw(coef) for _ in range(n)]
    return lin(c, e, delta, draw(coef))


def as_game(game, alpha):
    """The additive game at alpha, a Fraction or a QuadraticNumber (Foster's algorithm is
    exact in either field)."""
    n = len(game.c)
    return AdditiveGame((F(0), F(game.delta_base)), (F(0), F(0)),
                        tuple((F(0), F(game.delta[i])) for i in range(n)),
                        tuple((game.g(i, 0, alpha), game.g(i, 1, alpha)) for i in range(n)))


def oracle(game, alpha):
    """Every extreme equilibrium at alpha, whether there is a continuum, and whether the
    equilibrium is unique, from Foster's enumeration (``nash_equilibria``).

    Foster's list also holds, where player II is indifferent at two sets at once, mixtures of
    two corners that differ at both (points inside the polytope, or repeated): the vertices
    are the listed points that mix at one set at most.  A continuum of p is also checked from
    the definition, at the midpoint between consecutive candidate p's: an equilibrium there
    needs player I indifferent against player II's best responses, which may mix only where
    both her gains are 0 (Foster's algorithm does not look for these)."""
    gm = as_game(game, alpha)
    ns = nash_equilibria(gm, merge=False)
    found = {(Q.of(e.p), e.q) for e in ns.equilibria if sum(0 < x < 1 for x in e.q) <= 1}
    cands = sorted({Q.of(0), Q.of(1)} | {Q.of(d) for i in range(gm.n) if (d := gm.discontinuity(i)) is not None})
    continuum = bool(ns.continua)
    for a, b in itertools.pairwise(cands):
        mid = (a + b) / 2
        lo_ = hi_ = F(game.delta_base)
        for i in range(gm.n):
            v = gm.gain_II(i, mid)
            d = game.delta[i]
            if v > 0:
                lo_, hi_ = lo_ + d, hi_ + d
            elif v == 0:
                lo_, hi_ = lo_ + min(0, d), hi_ + max(0, d)
        continuum |= lo_ <= 0 <= hi_
    return found, continuum, len(found) == 1 and not continuum


def check_against_foster(game, sw):
    """The sweep's pieces, special alphas and intervals against Foster's enumeration at a rational
    alpha inside every cell between the test's own breakpoints, and at every breakpoint (the
    crossings of curves, irrational ones included, and the exceptional alphas among them)."""
    lo, hi = Q.of(sw.lo), Q.of(sw.hi)
    pts = breakpoints(game, sw)
    assert pts[0] == lo and pts[-1] == hi
    # the pieces partition [lo, hi], open intervals between consecutive breakpoints
    assert sw.pieces[0].lo == lo and sw.pieces[-1].hi == hi
    assert all(a.hi == b.lo for a, b in itertools.pairwise(sw.pieces))
    assert all(pc.lo in pts and pc.hi in pts for pc in sw.pieces)
    unique = True
    for x, y in itertools.pairwise(pts):
        s = strictly_between(x, y)
        expect, continuum, one = oracle(game, s)
        (pc,) = [pc for pc in sw.pieces if pc.lo < s < pc.hi]
        assert {(Q.of(br.p(s)), br.q) for br in pc.branches} == expect, f"alpha = {s}"
        assert (pc.unique, bool(pc.continua)) == (one, continuum), f"alpha = {s}"
        got = {(Q.of(p), q) for iv in sw.intervals if iv.lo < s < iv.hi for p, q in [interval_point(iv, s)]}
        assert got == expect, f"alpha = {s}"
        unique &= one
    special = {a.alpha: a for a in sw.special}
    assert set(special) <= set(pts)
    for x in pts:
        expect, continuum, one = oracle(game, x)
        if x in special:
            assert set(special[x].equilibria) == expect and len(special[x].equilibria) == len(expect), f"alpha = {x}"
            assert (special[x].unique, bool(special[x].continua)) == (one, continuum), f"alpha = {x}"
        else:  # the limits of the pieces beside
            for pc in sw.pieces:
                if pc.lo <= x <= pc.hi:
                    assert {(Q.of(br.limit(x)), br.q) for br in pc.branches} == expect, f"alpha = {x}"
                    assert bool(pc.continua) == continuum, f"alpha = {x}"
        unique &= one
    assert sw.unique == unique
    for pc in sw.exceptional:  # Ethier and Lee's exceptional alphas: several equilibria there
        assert pc.point.alpha in pts and not oracle(game, pc.point.alpha)[2]
    return unique


@settings(max_examples=examples(150), deadline=None)
@given(linear_games(), SPANS)
def test_intervals_give_exactly_fosters_equilibria_everywhere(game, span):
    lo, hi = span
    try:
        sw = sweep(game, lo, hi)
    except NotProven:  # more than MAX_INDIFFERENT sets indifferent at once: refused
        assume(False)
    assume(all(len(g) == 1 for g in sw.groups))          # no merged sets (tested above)
    unique_everywhere = check_against_foster(game, sw)
    for iv in sw.intervals:  # every interval is a union of cells, inside [lo, hi]
        assert Q.of(lo) <= iv.lo < iv.hi <= Q.of(hi)
    if unique_everywhere:  # then the intervals partition [lo, hi]
        ivs = sorted(sw.intervals, key=lambda iv: iv.lo)
        assert ivs[0].lo == lo and ivs[-1].hi == hi
        assert all(a.hi == b.lo for a, b in itertools.pairwise(ivs))
    # the counts of Table 4's columns, recomputed
    a, b, c, d, e = sw.counts()
    assert (a, b, c, d) == (len(sw.curves), len(sw.intersections),
                            sum(cv.pieces != ((lo, hi),) for cv in sw.curves), a + 2 * b)
    assert e == len({p.point.alpha for p in sw.points if len(p.extremes) > 1})


@settings(max_examples=examples(150), deadline=None)
@given(vanishing_games(), SPANS)
def test_degenerate_sets_give_exactly_fosters_equilibria_everywhere(game, span):
    # Gains vanishing identically or at one alpha, curves that coincide: the sweep must still
    # list every extreme equilibrium and say where the equilibrium is not unique.
    lo, hi = span
    try:
        sw = sweep(game, lo, hi)
    except NotProven:  # more than MAX_INDIFFERENT sets indifferent at once: refused
        assume(False)
    assume(all(len(g) == 1 for g in sw.groups))  # merged sets are one decision: Foster unmerged differs
    check_against_foster(game, sw)


@pytest.mark.slow
@settings(max_examples=examples(2000), deadline=None)
@given(vanishing_games(), SPANS)
def test_degenerate_sets_many(game, span):
    test_degenerate_sets_give_exactly_fosters_equilibria_everywhere.hypothesis.inner_test(game, span)
