"""Unit tests of :mod:`baccara.solve.additive`: additive 2 x 2^n bimatrix games and
Foster's algorithm (Foster 1964; the additive structure as in Ethier and Lee 2023).

No card game is involved.  Hand-made games are solved by hand in the comments; random
small games are checked against an independent oracle: the *normal form* of the game
(player II's pure strategies are the 2^n subsets T, payoffs A(u, T), B(u, T) from the
definition) and a vertex enumeration over it that never uses information sets,
discontinuities or additivity.
"""

from fractions import Fraction as F
from itertools import combinations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from baccara.solve.additive import (
    AdditiveGame,
    certify,
    dominance_reduction,
    merge_equivalent,
    nash_equilibria,
    proportional_groups,
)

from .budget import examples


def game(a, b, h, g):
    fr = lambda pair: (F(pair[0]), F(pair[1]))
    return AdditiveGame(fr(a), fr(b), tuple(fr(x) for x in h), tuple(fr(x) for x in g))


# ---------------------------------------------------------------- the normal-form oracle
def subsets(n):
    return [frozenset(i for i in range(n) if bits >> i & 1) for bits in range(2 ** n)]


def A(gm, u, T):
    """Player I's payoff at the pure pair (u, T), from the definition."""
    return gm.a[u] + sum((gm.h[i][u] for i in T), F(0))


def B(gm, u, T):
    return gm.b[u] + sum((gm.g[i][u] for i in T), F(0))


def prob(q, T, n):
    """P(player II's behavioural q plays exactly the pure strategy T): a product."""
    out = F(1)
    for i in range(n):
        out *= q[i] if i in T else 1 - q[i]
    return out


def expected(gm, p, q):
    """(E A, E B) by summing over all 2 x 2^n pure pairs: independent of additivity."""
    n = gm.n
    ea = eb = F(0)
    for u, wu in ((0, 1 - p), (1, p)):
        for T in subsets(n):
            w = wu * prob(q, T, n)
            ea += w * A(gm, u, T)
            eb += w * B(gm, u, T)
    return ea, eb


def is_equilibrium(gm, p, q):
    """Brute-force Nash check: no pure deviation of either player pays."""
    if not (0 <= p <= 1 and all(0 <= x <= 1 for x in q)):
        return False
    ea, eb = expected(gm, p, q)
    best_a = max(expected(gm, F(u), q)[0] for u in (0, 1))
    best_b = max(expected(gm, p, [F(int(i in T)) for i in range(gm.n)])[1] for T in subsets(gm.n))
    return ea == best_a and eb == best_b


def pure_equilibria(gm):
    """Every pure pair (u, T) where neither player gains by a pure deviation."""
    out = set()
    for u in (0, 1):
        for T in subsets(gm.n):
            if A(gm, u, T) >= A(gm, 1 - u, T) and all(B(gm, u, T) >= B(gm, u, S) for S in subsets(gm.n)):
                out.add((F(u), tuple(F(int(i in T)) for i in range(gm.n))))
    return out


def B_at(gm, p, T):
    return (1 - p) * B(gm, 0, T) + p * B(gm, 1, T)


def best_replies(gm, p):
    """Player II's pure best replies to p in the normal form."""
    S = subsets(gm.n)
    best = max(B_at(gm, p, V) for V in S)
    return [T for T in S if B_at(gm, p, T) == best]


def equilibrium_at(gm, p):
    """Is there an equilibrium in which player I plays p?  Player II must mix over her best
    replies BR(p) so that player I's gain E[A(1,T) - A(0,T)] is 0 (p interior), <= 0 (p = 0),
    >= 0 (p = 1): possible iff the gains over BR(p) reach that side of 0."""
    deltas = [A(gm, 1, T) - A(gm, 0, T) for T in best_replies(gm, p)]
    if p == 0:
        return min(deltas) <= 0
    if p == 1:
        return max(deltas) >= 0
    return min(deltas) <= 0 <= max(deltas)


def normal_form_equilibria(gm):
    """Every equilibrium of the 2 x 2^n normal form: (the extreme ones at each p where player
    II's best replies change, as (p, marginal q); the open p-intervals between those points
    where every p is an equilibrium; those points, ascending).

    For a fixed p, player II's equilibrium mixtures are the mixtures sigma over her pure best
    responses BR(p) with E_sigma[A(1,T) - A(0,T)] = 0 (p interior), <= 0 (p = 0), >= 0 (p = 1);
    the vertices of that polytope are pure strategies or two-strategy mixtures.  BR(p) changes
    only at the interior p where two pure strategies T != T', both best, cross (B(p, T) =
    B(p, T') with different slopes); between two such points it is constant, so an
    equilibrium at one p there is one at every p (a continuum).
    """
    n, S = gm.n, subsets(gm.n)
    ps = {F(0), F(1)}
    for T, U in combinations(S, 2):
        d0, d1 = B(gm, 0, T) - B(gm, 0, U), B(gm, 1, T) - B(gm, 1, U)
        if d0 != d1:
            p = d0 / (d0 - d1)  # (1-p) d0 + p d1 = 0
            if 0 < p < 1:
                best = max(B_at(gm, p, V) for V in S)
                if B_at(gm, p, T) == best == B_at(gm, p, U):
                    ps.add(p)
    out = set()
    for p in ps:
        br = best_replies(gm, p)
        delta = {T: A(gm, 1, T) - A(gm, 0, T) for T in br}
        ok = (lambda v: v <= 0) if p == 0 else (lambda v: v >= 0) if p == 1 else (lambda v: v == 0)
        mixtures = [{T: F(1)} for T in br if ok(delta[T])]
        for T, U in combinations(br, 2):
            if delta[T] * delta[U] < 0:
                w = delta[U] / (delta[U] - delta[T])  # w dT + (1-w) dU = 0
                mixtures.append({T: w, U: 1 - w})
        for mix in mixtures:
            q = tuple(sum((w for T, w in mix.items() if i in T), F(0)) for i in range(n))
            out.add((p, q))
    edges = sorted(ps)
    continua = [(lo, hi) for lo, hi in zip(edges, edges[1:]) if equilibrium_at(gm, (lo + hi) / 2)]
    return out, continua, edges


ints = st.integers(-7, 7)
pairs = st.tuples(ints, ints)
# player II's gains: often both 0 at a set (indifferent there whatever p), or equal (no discontinuity)
gains = st.one_of(pairs, pairs, st.just((0, 0)), ints.map(lambda x: (x, x)))


@st.composite
def additive_games(draw, max_n=3):
    n = draw(st.integers(1, max_n))
    return game(draw(pairs), draw(pairs), [draw(pairs) for _ in range(n)], [draw(gains) for _ in range(n)])


def as_set(ns):
    return {(e.p, e.q) for e in ns.equilibria}


# ---------------------------------------------------------------- hand-made games
def matching_pennies():
    # Player I (u) wins 1 when u equals player II's move, loses 1 otherwise:
    # A(0, {}) = 1, A(0, {0}) = -1, A(1, {}) = -1, A(1, {0}) = 1, so a = (1, -1),
    # h_0 = (A(0,{0}) - A(0,{}), A(1,{0}) - A(1,{})) = (-2, 2); B = -A.
    return game((1, -1), (-1, 1), [(-2, 2)], [(2, -2)])


def test_matching_pennies():
    # Player II's gain from move 1 is (1-p) 2 + p (-2) = 2 - 4p: zero at p = 1/2, the only
    # discontinuity.  Player I's gain from u = 1 is -2 + 4q: zero at q = 1/2.  At p = 0 (1)
    # player II plays 1 (0) and player I then prefers u = 1 (0): no pure equilibrium.
    gm = matching_pennies()
    assert gm.discontinuity(0) == F(1, 2)
    ns = nash_equilibria(gm)
    assert ns.unique and not ns.continua
    (eq,) = ns.equilibria
    assert (eq.p, eq.q, eq.payoff_I, eq.payoff_II) == (F(1, 2), (F(1, 2),), F(0), F(0))
    assert eq.mixed == (0,)
    assert dict(eq.support) == {frozenset(): F(1, 2), frozenset({0}): F(1, 2)}
    assert certify(gm, eq.p, eq.q).holds


@pytest.mark.parametrize("p, q", [(F(1, 2) + F(1, 100), F(1, 2)), (F(1, 2), F(1, 2) - F(1, 100)),
                                  (F(0), F(1, 2)), (F(1, 2), F(1))])
def test_matching_pennies_perturbed_is_not_certified(p, q):
    # Off (1/2, 1/2) one player has a strict gain: certify must say so, and so must brute force.
    gm = matching_pennies()
    cert = certify(gm, p, (q,))
    assert not cert.holds
    assert not is_equilibrium(gm, p, (q,))
    assert cert.payoff_I_by_u == tuple(expected(gm, F(u), (q,))[0] for u in (0, 1))
    assert cert.best_response_II == max(expected(gm, p, (x,))[1] for x in (F(0), F(1)))


def test_dominance_solvable():
    # g_0 = (1, 2) > 0: move 1 strictly dominant at set 0; g_1 = (-1, -3) < 0: move 0 at set 1
    # (Lemma 1).  Against T = {0}, A(u, T) = a_u + h_0^u = (1, 3): player I plays u = 1.
    gm = game((0, 0), (0, 0), [(1, 3), (5, -5)], [(1, 2), (-1, -3)])
    fixed, open_ = dominance_reduction(gm)
    assert fixed == {0: 1, 1: 0} and open_ == []
    ns = nash_equilibria(gm)
    assert ns.unique
    eq = ns.equilibria[0]
    assert (eq.p, eq.q) == (F(1), (F(1), F(0)))
    assert (eq.payoff_I, eq.payoff_II) == (F(3), F(2))


def test_three_equilibria_at_both_discontinuities_and_a_pure_end():
    # g_0 = (1, -1): p_0 = 1/2; g_1 = (3, -1): p_1 = 3/4.  Player I's gain from u = 1 is
    # Delta(q) = 1 + 2 q_0 - 2 q_1 (a = (0, 1), h_0 = (0, 2), h_1 = (0, -2)).
    # p = 0: player II plays {0, 1}, Delta = 1 > 0, so u = 0 is not a best reply.
    # p = 1/2: gain at 1 is (3 - 1)/2 > 0 so q_1 = 1; 1 + 2 q_0 - 2 = 0 gives q_0 = 1/2.
    # p = 3/4: gain at 0 is 1/4 - 3/4 < 0 so q_0 = 0; 1 - 2 q_1 = 0 gives q_1 = 1/2.
    # p = 1: player II plays {} and Delta = 1 >= 0: an equilibrium.
    # Between discontinuities player II's reply is pure: {0, 1}, {1}, {} on (0, 1/2), (1/2, 3/4),
    # (3/4, 1), where Delta = 1, -1, 1 != 0: no continuum.
    gm = game((0, 1), (0, 0), [(0, 2), (0, -2)], [(1, -1), (3, -1)])
    ns = nash_equilibria(gm)
    assert as_set(ns) == {(F(1, 2), (F(1, 2), F(1))), (F(3, 4), (F(0), F(1, 2))), (F(1), (F(0), F(0)))}
    assert len(ns.equilibria) == 3 and not ns.continua and not ns.unique
    assert all(certify(gm, e.p, e.q).holds for e in ns.equilibria)


def test_coincident_discontinuities_give_a_segment_of_equilibria():
    # g_0 = (1, -1), g_1 = (2, -2): both discontinuities at p = 1/2 (not merged: h_0 = (0, 2),
    # h_1 = (0, 3) are not in the ratio 1 : 2).  Delta(q) = -2 + 2 q_0 + 3 q_1, so at p = 1/2
    # the equilibria are the segment 2 q_0 + 3 q_1 = 2 in [0,1]^2, from (1, 0) to (0, 2/3).
    # At p = 0 player II plays {0, 1} and Delta = 3 > 0; at p = 1 she plays {} and Delta = -2:
    # neither end is an equilibrium.
    gm = game((0, -2), (0, 0), [(0, 2), (0, 3)], [(1, -1), (2, -2)])
    ns = nash_equilibria(gm)
    assert ns.groups is None  # nothing merged
    eqs = as_set(ns)
    assert {(F(1, 2), (F(1), F(0))), (F(1, 2), (F(0), F(2, 3)))} <= eqs
    assert all(p == F(1, 2) and 2 * q0 + 3 * q1 == 2 for p, (q0, q1) in eqs)
    assert not ns.unique


def test_proportional_sets_are_merged():
    # Sets 0 and 1 have (g^0, g^1, h^0, h^1) = (1, -1, 0, 2) and (2, -2, 0, 4): one decision
    # up to scale.  Merged: g = (3, -3), h = (0, 6), Delta = -3 + 6 q: q = 1/2 at p = 1/2,
    # played at both members.  Unmerged, the equilibria at p = 1/2 are the segment
    # 2 q_0 + 4 q_1 = 3 (from (1, 1/4) to (1/2, 1/2) to (0, 3/4)), which contains it.
    gm = game((0, -3), (0, 0), [(0, 2), (0, 4)], [(1, -1), (2, -2)])
    merged, groups = merge_equivalent(gm)
    assert groups == [(0, 1)]
    assert merged.g == ((3, -3),) and merged.h == ((0, 6),)
    ns = nash_equilibria(gm)
    assert ns.groups == [(0, 1)]
    assert as_set(ns) == {(F(1, 2), (F(1, 2), F(1, 2)))}
    full = nash_equilibria(gm, merge=False)
    assert {(F(1, 2), (F(1), F(1, 4))), (F(1, 2), (F(0), F(3, 4)))} <= as_set(full)
    assert all(p == F(1, 2) and 2 * q0 + 4 * q1 == 3 for p, (q0, q1) in as_set(full))


def test_continuum_is_reported():
    # g = (1, -1): p_0 = 1/2.  a = (0, 0), h = (0, 2): Delta = 2 q.  For p in (1/2, 1) player II
    # plays move 0, Delta = 0: player I is indifferent, so every such p is an equilibrium with
    # q = 0 (a continuum).  For p < 1/2 she plays 1 and Delta = 2 > 0 rules it out.
    gm = game((0, 0), (0, 0), [(0, 2)], [(1, -1)])
    ns = nash_equilibria(gm)
    assert ns.continua == [(F(1, 2), F(1), frozenset())]
    assert not ns.unique
    assert is_equilibrium(gm, F(2, 3), (F(0),))  # a point of the continuum, by brute force
    assert {(F(1, 2), (F(0),)), (F(1), (F(0),))} <= as_set(ns)


def test_identically_indifferent_set_keeps_its_interior_equilibria():
    # g_0 = (0, 0): player II is indifferent at set 0 whatever p.  a = (0, -1), h_0 = (0, 2):
    # Delta = -1 + 2 q, zero at q = 1/2.  So (p, 1/2) is an equilibrium for EVERY p in [0, 1]
    # (checked by brute force below for p = 1/2): the continuum (0, 1), with move 1 nowhere
    # strictly preferred; its ends p = 0 (Delta <= 0: q in [0, 1/2]) and p = 1 (Delta >= 0:
    # q in [1/2, 1]) are extreme equilibria.
    gm = game((0, -1), (0, 0), [(0, 2)], [(0, 0)])
    assert is_equilibrium(gm, F(1, 2), (F(1, 2),))
    assert certify(gm, F(1, 2), (F(1, 2),)).holds
    ns = nash_equilibria(gm)
    assert ns.continua == [(F(0), F(1), frozenset())] and not ns.unique
    assert as_set(ns) == {(F(0), (F(0),)), (F(0), (F(1, 2),)), (F(1), (F(1, 2),)), (F(1), (F(1),))}


def test_identically_indifferent_set_beside_a_discontinuity():
    # Set 0: g = (1, -1), p_0 = 1/2, h = (0, 2); set 1: g = (0, 0), h = (0, -3); a = (0, -1).
    # Delta = -1 + 2 q_0 - 3 q_1.  On (0, 1/2) player II plays move 1 at set 0: Delta =
    # 1 - 3 q_1, zero at q_1 = 1/3, so every p there is an equilibrium.  On (1/2, 1) she
    # plays 0 there: Delta = -1 - 3 q_1 < 0, none.  At p = 1/2, q_0 free: the segment
    # 2 q_0 - 3 q_1 = 1 from (1/2, 0) to (1, 1/3).
    gm = game((0, -1), (0, 0), [(0, 2), (0, -3)], [(1, -1), (0, 0)])
    ns = nash_equilibria(gm)
    assert ns.continua == [(F(0), F(1, 2), frozenset({0}))]
    assert is_equilibrium(gm, F(1, 4), (F(1), F(1, 3)))
    assert not any(is_equilibrium(gm, F(3, 4), (q0, q1)) for q0 in (F(0), F(1)) for q1 in (F(0), F(1, 3), F(1)))
    assert {(F(1, 2), (F(1, 2), F(0))), (F(1, 2), (F(1), F(1, 3)))} <= as_set(ns)
    assert all(certify(gm, e.p, e.q).holds for e in ns.equilibria)


def test_proportional_groups():
    rows = [(1, 2), (2, 4), (-1, -2), (0, 0), (0, 0), (3, 6)]
    # (1,2), (2,4), (3,6) positive multiples; (-1,-2) a negative multiple; zero rows apart.
    assert proportional_groups(rows) == [(0, 1, 5), (2,), (3,), (4,)]


# ---------------------------------------------------------------- random games, brute force
@settings(max_examples=examples(300), deadline=None)
@given(additive_games())
def test_matches_normal_form_enumeration(gm):
    # Foster's algorithm (merge=False: every set on its own) finds exactly the extreme
    # equilibria of the normal form at the points where player II's best replies change,
    # and exactly its continua between them -- degenerate games included (sets where player
    # II is indifferent whatever p, player I indifferent against a pure strategy).
    extremes, continua, edges = normal_form_equilibria(gm)
    ns = nash_equilibria(gm, merge=False)
    assert as_set(ns) == extremes
    assert [(lo, hi) for lo, hi, _ in ns.continua] == continua
    for lo, hi, t in ns.continua:   # t: where move 1 is strictly best inside the interval
        mid = (lo + hi) / 2
        assert all((i in t) == (gm.gain_II(i, mid) > 0) for i in range(gm.n))
    # every p at which an equilibrium exists is reported, and no other (best replies are
    # constant between the edges, so a midpoint stands for its interval)
    reported = {e.p for e in ns.equilibria}
    for p in edges + [(lo + hi) / 2 for lo, hi in zip(edges, edges[1:])]:
        covered = p in reported or any(lo < p < hi for lo, hi, _ in ns.continua)
        assert covered == equilibrium_at(gm, p)
    # merged (positively proportional sets played alike), the same continua
    assert [c[:2] for c in nash_equilibria(gm).continua] == continua


@settings(max_examples=examples(150), deadline=None)
@given(additive_games())
def test_reported_equilibria_are_certified_and_complete_on_pure_pairs(gm):
    ns = nash_equilibria(gm)
    for e in ns.equilibria:
        assert is_equilibrium(gm, e.p, e.q)                    # independent best responses
        assert certify(gm, e.p, e.q).holds
        assert (e.payoff_I, e.payoff_II) == expected(gm, e.p, e.q)
        if e.support:                                          # the equalizing mixture
            assert sum(w for _, w in e.support) == 1
            marg = tuple(sum((w for s, w in e.support if i in s), F(0)) if i in e.mixed else e.q[i]
                         for i in range(gm.n))
            assert marg == e.q
    # Every pure equilibrium is an extreme one, so none may be missing (merge=False keeps
    # every set apart, as brute force does).
    assert pure_equilibria(gm) <= as_set(nash_equilibria(gm, merge=False))
    if ns.unique:
        assert len(pure_equilibria(gm)) <= 1


@settings(max_examples=examples(200), deadline=None)
@given(additive_games(), st.fractions(0, 1, max_denominator=6), st.lists(st.fractions(0, 1, max_denominator=6),
                                                                         min_size=3, max_size=3))
def test_certify_agrees_with_brute_force(gm, p, q):
    q = tuple(q[:gm.n])
    cert = certify(gm, p, q)
    assert cert.holds == is_equilibrium(gm, p, q)
    assert (cert.payoff_I, cert.payoff_II) == expected(gm, p, q)
    assert cert.payoff_I_by_u == tuple(expected(gm, F(u), q)[0] for u in (0, 1))
    assert cert.best_response_II == max(expected(gm, p, [F(int(i in T)) for i in range(gm.n)])[1]
                                        for T in subsets(gm.n))


@settings(max_examples=examples(100), deadline=None)
@given(additive_games(), st.fractions(0, 1, max_denominator=9), st.lists(st.fractions(0, 1, max_denominator=9),
                                                                         min_size=3, max_size=3))
def test_payoffs_gains_and_delta_are_the_expectations(gm, p, q):
    q = tuple(q[:gm.n])
    assert gm.payoffs(p, q) == expected(gm, p, q)
    for i in range(gm.n):  # gain from move 1 at i: compare two behavioural strategies
        q1, q0 = list(q), list(q)
        q1[i], q0[i] = F(1), F(0)
        assert gm.gain_II(i, p) == expected(gm, p, q1)[1] - expected(gm, p, q0)[1]
        d = gm.discontinuity(i)
        if d is not None:
            assert 0 < d < 1 and gm.gain_II(i, d) == 0
    assert gm.delta_I(q) == expected(gm, F(1), q)[0] - expected(gm, F(0), q)[0]
    T = {i for i in range(gm.n) if q[i] > F(1, 2)}
    assert gm.delta_I(T) == A(gm, 1, T) - A(gm, 0, T)


@settings(max_examples=examples(100), deadline=None)
@given(additive_games())
def test_dominance_reduction_fixes_strictly_dominant_moves(gm):
    fixed, open_ = dominance_reduction(gm)
    assert sorted(list(fixed) + open_) == list(range(gm.n))
    for i, move in fixed.items():
        for u in (0, 1):  # strictly better against both pure strategies of player I
            assert (gm.g[i][u] > 0) if move else (gm.g[i][u] < 0)
    for e in nash_equilibria(gm, merge=False).equilibria:
        assert all(e.q[i] == move for i, move in fixed.items())


@settings(max_examples=examples(100), deadline=None)
@given(additive_games(max_n=2), st.integers(1, 3), st.integers(0, 1))
def test_merged_equilibria_are_equilibria_of_the_full_game(gm, scale, which):
    # Add a positive multiple of an existing set: merged, the equilibria found are still
    # certified in the full (unmerged) game by brute force.
    i = which % gm.n
    assume(any(gm.g[i]) or any(gm.h[i]))  # zero rows are never merged
    big = AdditiveGame(gm.a, gm.b, gm.h + (tuple(scale * x for x in gm.h[i]),),
                       gm.g + (tuple(scale * x for x in gm.g[i]),))
    ns = nash_equilibria(big)
    assert ns.groups is not None and any(i in m and big.n - 1 in m for m in ns.groups)
    for e in ns.equilibria:
        assert e.q[i] == e.q[big.n - 1]
        assert is_equilibrium(big, e.p, e.q)
    assert ns.equilibria or ns.continua
