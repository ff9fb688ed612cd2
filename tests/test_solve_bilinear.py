"""Unit tests of :mod:`baccara.solve.bilinear`: games bilinear in behavioural strategies
(each player moves at most once per play; Ethier and Lee 2023), the vertex enumeration of
every Nash equilibrium, certificates and the zero-sum LP.

No card game is involved.  Hand-made games are solved by hand in the comments; random
small games are checked against an independent oracle that enumerates the *normal form*
(all 2^k x 2^n pure profiles, payoffs from the definition) and, for nondegenerate games,
every equilibrium by its supports, solving the indifference systems with FLINT.
"""

from fractions import Fraction as F
from itertools import product

import flint
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog

from baccara.solve.additive import AdditiveGame
from baccara.solve.additive import nash_equilibria as foster
from baccara.solve.bilinear import (
    BilinearGame,
    certify,
    dominance_reduction,
    guaranteed_I,
    held_I,
    merge_equivalent_II,
    nash_equilibria,
    solve_zero_sum,
    supporting_strategies,
)

from .budget import examples


def bil(a0, a, b0, b, h0, h, g0, g):
    v = lambda xs: tuple(F(x) for x in xs)
    return BilinearGame(F(a0), v(a), F(b0), v(b), v(h0), tuple(v(r) for r in h), v(g0), tuple(v(r) for r in g))


def zero_sum(a0, a, h0, h):
    return bil(a0, a, -a0, [-x for x in a], h0, h, [-x for x in h0], [[-x for x in r] for r in h])


# ---------------------------------------------------------------- the normal-form oracle
def pure(game, Y, X):
    """(A, B) at a pure profile, from equations (39)-(44) with 0/1 moves."""
    k, n = game.k, game.n
    A = game.a0 + sum(Y[j] * game.a[j] for j in range(k)) + sum(
        X[i] * (game.h0[i] + sum(Y[j] * game.h[i][j] for j in range(k))) for i in range(n))
    B = game.b0 + sum(Y[j] * game.b[j] for j in range(k)) + sum(
        X[i] * (game.g0[i] + sum(Y[j] * game.g[i][j] for j in range(k))) for i in range(n))
    return A, B


def weight(z, Z):
    out = F(1)
    for zi, b in zip(z, Z):
        out *= zi if b else 1 - zi
    return out


def expected(game, y, x):
    """(E A, E B) over the 2^k x 2^n pure profiles, weighted by the behavioural strategies."""
    ea = eb = F(0)
    for Y in product((0, 1), repeat=game.k):
        wy = weight(y, Y)
        if not wy:
            continue
        for X in product((0, 1), repeat=game.n):
            w = wy * weight(x, X)
            if w:
                A, B = pure(game, Y, X)
                ea, eb = ea + w * A, eb + w * B
    return ea, eb


def is_equilibrium(game, y, x):
    if not all(0 <= v <= 1 for v in (*y, *x)):
        return False
    ea, eb = expected(game, y, x)
    return ea == max(expected(game, Y, x)[0] for Y in product((0, 1), repeat=game.k)) and \
        eb == max(expected(game, y, X)[1] for X in product((0, 1), repeat=game.n))


def pure_equilibria(game):
    out = set()
    for Y in product((0, 1), repeat=game.k):
        for X in product((0, 1), repeat=game.n):
            A, B = pure(game, Y, X)
            if all(pure(game, Y2, X)[0] <= A for Y2 in product((0, 1), repeat=game.k)) and \
                    all(pure(game, Y, X2)[1] <= B for X2 in product((0, 1), repeat=game.n)):
                out.add((tuple(map(F, Y)), tuple(map(F, X))))
    return out


def unique_solution(rows, rhs, nvar):
    """Solve rows . z = rhs with FLINT's exact rref: 'none', 'many' or the solution."""
    m = len(rows)
    if m == 0:
        return "many" if nvar else ()
    aug = flint.fmpq_mat(m, nvar + 1, [flint.fmpq(F(c).numerator, F(c).denominator)
                                            for r, b in zip(rows, rhs) for c in (*r, b)])
    red, rank = aug.rref()
    piv = []
    for t in range(rank):
        piv.append(next(c for c in range(nvar + 1) if red[t, c] != 0))
    if nvar in piv:
        return "none"
    if rank < nvar:
        return "many"
    return tuple(F(int(red[t, nvar].p), int(red[t, nvar].q)) for t in range(nvar))


def all_equilibria(game):
    """Every equilibrium, by supports, or None if the game is degenerate.

    For M = player I's mixed sets and Z = player II's, an equilibrium solves
    beta_i(y) = 0 (i in Z) for y_M and pi_j(x) = 0 (j in M) for x_Z, with 0 < y_M, x_Z < 1,
    and best replies elsewhere.  If no pair of consistent systems has more than one
    solution and no inequality is tight, this list is every equilibrium (all isolated).
    """
    k, n = game.k, game.n
    out = set()
    for M in product((0, 1), repeat=k):
        Mi = [j for j in range(k) if M[j]]
        for yfix in product((0, 1), repeat=k - len(Mi)):
            base_y = dict(zip([j for j in range(k) if not M[j]], yfix))
            for Zb in product((0, 1), repeat=n):
                Zi = [i for i in range(n) if Zb[i]]
                sol_y = unique_solution(
                    [[game.g[i][j] for j in Mi] for i in Zi],
                    [-(game.g0[i] + sum(game.g[i][j] * v for j, v in base_y.items())) for i in Zi], len(Mi))
                if sol_y == "none":
                    continue
                for xfix in product((0, 1), repeat=n - len(Zi)):
                    base_x = dict(zip([i for i in range(n) if i not in Zi], xfix))
                    sol_x = unique_solution(
                        [[game.h[i][j] for i in Zi] for j in Mi],
                        [-(game.a[j] + sum(game.h[i][j] * v for i, v in base_x.items())) for j in Mi], len(Zi))
                    if sol_x == "none":
                        continue
                    if "many" in (sol_y, sol_x):
                        return None
                    if any(v in (0, 1) for v in (*sol_y, *sol_x)):
                        return None
                    if not all(0 < v < 1 for v in (*sol_y, *sol_x)):
                        continue
                    y, x = [F(0)] * k, [F(0)] * n
                    for j, v in base_y.items():
                        y[j] = F(v)
                    for j, v in zip(Mi, sol_y):
                        y[j] = v
                    for i, v in base_x.items():
                        x[i] = F(v)
                    for i, v in zip(Zi, sol_x):
                        x[i] = v
                    beta = {i: game.gain_II(i, y) for i in base_x}
                    pi = {j: game.gain_I(j, x) for j in base_y}
                    if 0 in beta.values() or 0 in pi.values():
                        return None
                    if all((beta[i] > 0) == bool(v) for i, v in base_x.items()) and \
                            all((pi[j] > 0) == bool(v) for j, v in base_y.items()):
                        out.add((tuple(y), tuple(x)))
    return out


small = st.integers(-9, 9)


@st.composite
def bilinear_games(draw, max_k=2, max_n=3, zero_sum_only=False):
    k, n = draw(st.integers(1, max_k)), draw(st.integers(1, max_n))
    a0, a = draw(small), [draw(small) for _ in range(k)]
    h0, h = [draw(small) for _ in range(n)], [[draw(small) for _ in range(k)] for _ in range(n)]
    if zero_sum_only:
        return zero_sum(a0, a, h0, h)
    b0, b = draw(small), [draw(small) for _ in range(k)]
    g0, g = [draw(small) for _ in range(n)], [[draw(small) for _ in range(k)] for _ in range(n)]
    return bil(a0, a, b0, b, h0, h, g0, g)


@st.composite
def crossing_games(draw, max_k=2, max_n=3, zero_sum_only=False):
    """Games built so that player II's hyperplanes beta_i = 0 pass near an interior point y*
    of player I's cube and player I's pi_j = 0 near an interior x*: mixed equilibria abound."""
    k, n = draw(st.integers(1, max_k)), draw(st.integers(1, max_n))
    inner = st.sampled_from([F(1, 4), F(1, 3), F(1, 2), F(2, 3), F(3, 4)])
    ys, xs = [draw(inner) for _ in range(k)], [draw(inner) for _ in range(n)]
    noise = st.sampled_from([F(0), F(0), F(1, 2), F(-1, 2), F(1), F(-1)])
    g = [[draw(small) for _ in range(k)] for _ in range(n)]
    h = [[draw(small) for _ in range(k)] for _ in range(n)]
    g0 = [-sum(g[i][j] * ys[j] for j in range(k)) + draw(noise) for i in range(n)]
    a = [-sum(h[i][j] * xs[i] for i in range(n)) + draw(noise) for j in range(k)]
    if zero_sum_only:  # player II's gain is -(h0 + h y): put its zero near y* instead
        h0 = [-sum(h[i][j] * ys[j] for j in range(k)) + draw(noise) for i in range(n)]
        return zero_sum(draw(small), a, h0, h)
    return bil(draw(small), a, draw(small), [draw(small) for _ in range(k)],
               [draw(small) for _ in range(n)], h, g0, g)


def eq_set(ns):
    return {(e.y, e.x) for e in ns.equilibria}


# ---------------------------------------------------------------- hand-made games
def matching_pennies():
    # I wins 1 if the moves match: A = yx + (1-y)(1-x) - y(1-x) - (1-y)x = 1 - 2y - 2x + 4xy.
    return zero_sum(1, [-2], [-2], [[4]])


def test_matching_pennies():
    # pi(x) = -2 + 4x = 0 at x = 1/2; beta(y) = 2 - 4y = 0 at y = 1/2; at any pure y player II
    # replies strictly and player I then switches: the unique equilibrium is (1/2, 1/2), value 0.
    gm = matching_pennies()
    ns = nash_equilibria(gm)
    assert ns.unique
    assert eq_set(ns) == {((F(1, 2),), (F(1, 2),))}
    assert (ns.equilibria[0].payoff_I, ns.equilibria[0].payoff_II) == (F(0), F(0))
    zs = solve_zero_sum(gm)
    assert (zs.value, zs.y, zs.x, zs.certified) == (F(0), (F(1, 2),), (F(1, 2),), True)


@pytest.mark.parametrize("y, x", [((F(3, 5),), (F(1, 2),)), ((F(1, 2),), (F(2, 5),)), ((F(1),), (F(1),))])
def test_perturbed_matching_pennies_fails_the_certificate(y, x):
    gm = matching_pennies()
    c = certify(gm, y, x)
    assert not c.holds and not is_equilibrium(gm, y, x)
    assert c.best_response_I == max(expected(gm, (F(v),), x)[0] for v in (0, 1))
    assert c.best_response_II == max(expected(gm, y, (F(v),))[1] for v in (0, 1))
    # y = 3/5 guarantees less than the value 0, x = 2/5 holds player I to more than 0
    assert guaranteed_I(gm, y) <= 0 <= held_I(gm, x)
    assert guaranteed_I(gm, y) < held_I(gm, x)


def test_battle_of_the_sexes():
    # Move 1 = opera.  A = 2yx + (1-y)(1-x) = 1 - y - x + 3xy, B = yx + 2(1-y)(1-x) = 2 - 2y - 2x + 3xy.
    # Pure equilibria (1, 1) and (0, 0); mixed: beta = -2 + 3y = 0 at y = 2/3, pi = -1 + 3x = 0
    # at x = 1/3, with payoffs A = 1 - 2/3 - 1/3 + 2/3 = 2/3 and B = 2 - 4/3 - 2/3 + 2/3 = 2/3.
    gm = bil(1, [-1], 2, [-2], [-1], [[3]], [-2], [[3]])
    ns = nash_equilibria(gm)
    assert eq_set(ns) == {((F(1),), (F(1),)), ((F(0),), (F(0),)), ((F(2, 3),), (F(1, 3),))}
    pay = {e.y: (e.payoff_I, e.payoff_II) for e in ns.equilibria}
    assert pay[(F(2, 3),)] == (F(2, 3), F(2, 3)) and pay[(F(1),)] == (F(2), F(1)) and pay[(F(0),)] == (F(1), F(2))
    assert not ns.unique
    assert sorted(cnt for _, cnt in ns.y_points) == [1, 1, 1]


def test_prisoners_dilemma_is_dominance_solvable():
    # Move 1 = defect; A(C,C)=3, A(D,C)=5, A(C,D)=0, A(D,D)=1: A = 3 + 2y - 3x - xy, B symmetric.
    # beta(y) = 2 - y >= 1 > 0: x = 1 (Lemma 1); then pi = 2 - 1 = 1 > 0: y = 1 (iterated).
    gm = bil(3, [2], 3, [-3], [-3], [[-1]], [2], [[-1]])
    red = dominance_reduction(gm)
    assert red.fixed_II == {0: 1} and red.fixed_I == {0: 1} and red.open_I == red.open_II == ()
    ns = nash_equilibria(gm)
    assert ns.unique and eq_set(ns) == {((F(1),), (F(1),))}
    assert (ns.equilibria[0].payoff_I, ns.equilibria[0].payoff_II) == (F(1), F(1))


def test_two_independent_matching_pennies():
    # A = MP(y1, x1) + MP(y2, x2): each pennies game separately has the unique solution 1/2,
    # and the sum's gains pi_j = -2 + 4 x_j, beta_i = 2 - 4 y_i decouple: unique (1/2, 1/2)^2.
    gm = zero_sum(2, [-2, -2], [-2, -2], [[4, 0], [0, 4]])
    half = (F(1, 2), F(1, 2))
    ns = nash_equilibria(gm)
    assert ns.unique and eq_set(ns) == {(half, half)}
    zs = solve_zero_sum(gm)
    assert zs.certified and zs.value == 0 and zs.y == half and zs.x == half


def test_supporting_strategies():
    gm = matching_pennies()
    assert supporting_strategies(gm, (F(1, 2),)) == [(F(1, 2),)]
    # y = 3/10: beta = 2 - 6/5 > 0 so x = 1, then pi = 2 != 0 while y is mixed: no support.
    assert supporting_strategies(gm, (F(3, 10),)) == []
    # y = 0: x = 1, pi = 2 > 0 but y = 0 needs pi <= 0: none.
    assert supporting_strategies(gm, (F(0),)) == []


def test_proportional_sets_are_merged_and_mixing_is_flagged():
    # Player II's sets 0 and 1 have rows (g0, g, h0, h) = (2, -4, -2, 4) and twice that:
    # one matching-pennies decision split in two (A = 1 - 2y + x0 (-2 + 4y) + x1 (-4 + 8y)...).
    # Merged: A = 1 - 2y + X(-6 + 12y) with X the common draw probability: pi = -2 + 12 X,
    # beta = 6 - 12 y: y = 1/2, X = 1/6.  Any split with x0 + 2 x1 = 3 x 1/6 = 1/2 is also an
    # equilibrium, so the merged answer is flagged as not unique.
    gm = zero_sum(1, [-2], [-2, -4], [[4], [8]])
    merged, groups = merge_equivalent_II(gm)
    assert groups == [(0, 1)] and merged.g0 == (F(6),) and merged.g == ((F(-12),),)
    ns = nash_equilibria(gm)
    assert eq_set(ns) == {((F(1, 2),), (F(1, 6), F(1, 6)))}
    assert ns.merged_mixed == [(0, 1)] and not ns.unique
    assert is_equilibrium(gm, (F(1, 2),), (F(1, 2), F(0)))
    full = nash_equilibria(gm, merge=False)
    assert {((F(1, 2),), (F(1, 2), F(0))), ((F(1, 2),), (F(0), F(1, 4)))} <= eq_set(full)
    assert all(x0 + 2 * x1 == F(1, 2) for _, (x0, x1) in eq_set(full))


def test_non_zero_sum_is_rejected_by_the_lp():
    gm = bil(1, [-1], 2, [-2], [-1], [[3]], [-2], [[3]])
    with pytest.raises(ValueError):
        solve_zero_sum(gm)


# ---------------------------------------------------------------- random games
@settings(max_examples=examples(300), deadline=None)
@given(st.one_of(bilinear_games(), crossing_games()))
def test_nondegenerate_games_match_the_support_enumeration(gm):
    oracle = all_equilibria(gm)
    ns = nash_equilibria(gm, merge=False)
    if oracle is not None:
        assert eq_set(ns) == oracle
        assert ns.unique == (len(oracle) == 1)
        # Each equilibrium solves two square nonsingular systems with strict best replies off
        # the supports: it is regular in the agent normal form (one agent per set), and a game
        # whose equilibria are all regular has an odd number of them (Wilson 1971, Harsanyi 1973).
        assert len(oracle) % 2 == 1


@settings(max_examples=120, deadline=None)
@given(st.one_of(bilinear_games(), crossing_games()))
def test_reported_equilibria_are_certified_and_pure_ones_all_found(gm):
    ns = nash_equilibria(gm)
    assert ns.equilibria  # every finite game has one (Nash 1951)
    for e in ns.equilibria:
        assert is_equilibrium(gm, e.y, e.x)
        assert certify(gm, e.y, e.x).holds
        assert (e.payoff_I, e.payoff_II) == expected(gm, e.y, e.x)
    assert len({y for y, _ in ns.y_points}) == len(ns.y_points)
    assert sum(c for _, c in ns.y_points) == len(ns.equilibria)
    # A pure equilibrium is a vertex of X(Y) at a cube corner Y: never missing.
    assert pure_equilibria(gm) <= eq_set(nash_equilibria(gm, merge=False))


@settings(max_examples=examples(150), deadline=None)
@given(bilinear_games(), st.lists(st.fractions(0, 1, max_denominator=5), min_size=5, max_size=5))
def test_certify_and_payoffs_agree_with_brute_force(gm, z):
    y, x = tuple(z[:gm.k]), tuple(z[2:2 + gm.n])
    assert gm.payoffs(y, x) == expected(gm, y, x)
    c = certify(gm, y, x)
    assert c.holds == is_equilibrium(gm, y, x)
    assert c.best_response_I == max(expected(gm, Y, x)[0] for Y in product((0, 1), repeat=gm.k))
    assert c.best_response_II == max(expected(gm, y, X)[1] for X in product((0, 1), repeat=gm.n))


@settings(max_examples=examples(100), deadline=None)
@given(bilinear_games(), st.lists(st.integers(0, 1), min_size=5, max_size=5),
       st.lists(st.fractions(0, 1, max_denominator=4), min_size=5, max_size=5))
def test_restrict_is_the_game_with_moves_fixed(gm, which, vals):
    fixed_I = {j: vals[j] for j in range(gm.k) if which[j]}
    fixed_II = {i: vals[2 + i] for i in range(gm.n) if which[2 + i]}
    r = gm.restrict(fixed_I, fixed_II)
    free_I = [j for j in range(gm.k) if j not in fixed_I]
    free_II = [i for i in range(gm.n) if i not in fixed_II]
    yr, xr = [F(1, 3)] * r.k, [F(3, 4)] * r.n
    y = [fixed_I.get(j, F(1, 3)) for j in range(gm.k)]
    x = [fixed_II.get(i, F(3, 4)) for i in range(gm.n)]
    assert (r.k, r.n) == (len(free_I), len(free_II))
    assert r.payoffs(yr, xr) == expected(gm, y, x)


@settings(max_examples=examples(100), deadline=None)
@given(bilinear_games())
def test_dominance_reduction_is_respected_by_every_equilibrium(gm):
    red = dominance_reduction(gm)
    # first round, by brute force: a move fixed for player II without any fixed_I is strictly
    # better against all pure strategies of player I
    for i, v in red.fixed_II.items():
        if not red.fixed_I:
            for Y in product((0, 1), repeat=gm.k):
                assert (gm.gain_II(i, Y) > 0) == (v == 1) and gm.gain_II(i, Y) != 0
    for e in nash_equilibria(gm, merge=False).equilibria:
        assert all(e.y[j] == v for j, v in red.fixed_I.items())
        assert all(e.x[i] == v for i, v in red.fixed_II.items())
    for y, x in pure_equilibria(gm):
        assert all(y[j] == v for j, v in red.fixed_I.items())
        assert all(x[i] == v for i, v in red.fixed_II.items())


@settings(max_examples=examples(100), deadline=None)
@given(st.integers(1, 3), st.data())
def test_one_player_one_set_is_fosters_algorithm(n, data):
    # k = 1: the additive 2 x 2^n game with p = y, A(u, T) = a_u + sum h_i^u (Foster 1964).
    ints = st.integers(-6, 6)
    a, b = data.draw(st.tuples(ints, ints)), data.draw(st.tuples(ints, ints))
    h = [data.draw(st.tuples(ints, ints)) for _ in range(n)]
    g = [data.draw(st.tuples(ints, ints)) for _ in range(n)]
    add = AdditiveGame(tuple(map(F, a)), tuple(map(F, b)), tuple(tuple(map(F, r)) for r in h),
                       tuple(tuple(map(F, r)) for r in g))
    gm = bil(a[0], [a[1] - a[0]], b[0], [b[1] - b[0]], [r[0] for r in h], [[r[1] - r[0]] for r in h],
             [r[0] for r in g], [[r[1] - r[0]] for r in g])
    fos = foster(add, merge=False)
    if fos.continua:
        return
    # Foster lists extreme mixtures of pure strategies; bilinear lists vertices of X(y).
    # Each vertex of X(y) is among Foster's points, and every Foster point is a certified one.
    fset = {((e.p,), e.q) for e in fos.equilibria}
    bset = eq_set(nash_equilibria(gm, merge=False))
    assert bset <= fset
    assert {y for y, _ in bset} == {y for y, _ in fset}
    for y, x in fset:
        assert certify(gm, y, x).holds


@settings(max_examples=80, deadline=None)
@given(st.one_of(bilinear_games(zero_sum_only=True), crossing_games(zero_sum_only=True)))
def test_zero_sum_lp_value_matches_the_normal_form(gm):
    zs = solve_zero_sum(gm)
    assert zs.certified and zs.lower == zs.upper == zs.value
    # guaranteed_I and held_I by brute force over pure replies
    assert guaranteed_I(gm, zs.y) == min(expected(gm, zs.y, X)[0] for X in product((0, 1), repeat=gm.n))
    assert held_I(gm, zs.x) == max(expected(gm, Y, zs.x)[0] for Y in product((0, 1), repeat=gm.k))
    assert certify(gm, zs.y, zs.x).holds
    # the value of the 2^k x 2^n matrix game, by an LP on the normal form (max v s.t. mixed
    # row strategy earns >= v against every column)
    Ys, Xs = list(product((0, 1), repeat=gm.k)), list(product((0, 1), repeat=gm.n))
    M = np.array([[float(pure(gm, Y, X)[0]) for X in Xs] for Y in Ys])
    r = len(Ys)
    res = linprog(np.r_[np.zeros(r), -1.0], A_ub=np.c_[-M.T, np.ones(len(Xs))], b_ub=np.zeros(len(Xs)),
                  A_eq=np.r_[np.ones(r), 0.0][None, :], b_eq=[1.0], bounds=[(0, None)] * r + [(None, None)],
                  method="highs")
    assert res.status == 0
    assert abs(-res.fun - float(zs.value)) < 1e-7
    # every Nash equilibrium of a zero-sum game pays the value
    assert all(e.payoff_I == zs.value for e in nash_equilibria(gm).equilibria)
