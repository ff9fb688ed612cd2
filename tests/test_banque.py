"""Baccara banque, simplified model (Ethier and Lee 2015): the correlated cooperative equilibrium."""

import json
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from baccara.banque.correlated_eq.solution import correlated_equilibrium
from baccara.banque.model import banque_game
from baccara.cli import app
from baccara.solve.zero_sum import best_reply_I, guaranteed

from .budget import examples

# Ethier and Lee (2015), Table 1: Banker's maximum drawing total in the correlated cooperative
# equilibrium at theta = 1/2 (rows Player 1's third card 0-9, 10 stand, 11 natural).
TABLE1 = """
3 3 3 4 4 4 4 3 3 3 5 3
3 3 4 4 4 4 4 4 3 3 5 3
3 4 4 4 4 4 5 4 3 3 5 4
4 4 4 4 4 5 5 4 4 3 5 4
4 4 4 4 5 5 5 5 4 4 5 5
4 4 4 5 5 5 5 5 5 4 5 5
4 4 5 5 5 5 6 6 5 4 5+ 6
3 4 4 4 5 5 6 6 3 3 6 6
3 3 3 4 4 5 5 3 2 3 5 2
3 3 3 3 4 4 4 3 3 3 5 3
5 5 5 5 5 5 5+ 6 5 5 5 5
3 3 4 4 5 5 6 6 2 3 5
"""
# Ethier and Lee (2015), Equation (19): the 4 x 4 matrix game at (6,10,6) and (10,6,6), times -(13)^9 / 8.
MATRIX19 = [
    [11815316, 11681780, 11681780, 11548244],
    [11621229, 11427789, 11680301, 11486861],
    [11621229, 11680301, 11427789, 11486861],
    [11421510, 11467270, 11467270, 11513030],
]


@pytest.fixture(scope="module")
def half():
    return correlated_equilibrium(banque_game(), Fraction(1, 2))


def test_theta_half_published_values(half):
    # Ethier and Lee (2015), section 3: p = (0, 110/543, 110/543, 323/543), value -16655514960/(181 13^9),
    # Banker draws with probability 5121/5792 at (6,10,6) and (10,6,6); m = 68.
    assert half.p == (0, Fraction(110, 543), Fraction(110, 543), Fraction(323, 543))
    assert half.value == Fraction(-16655514960, 181 * 13**9)
    assert half.mixed == {(6, 10, 6): Fraction(5121, 5792), (10, 6, 6): Fraction(5121, 5792)}
    assert half.m == 68
    assert half.solution.certified


def test_theta_half_table1_and_matrix19(half):
    printed = [row.split() for row in TABLE1.strip().splitlines()]
    printed[11].append("")  # (11, 11): both Players natural, no decision
    assert half.table1() == printed
    labels, matrix = half.matrix()
    assert labels == ["SS", "SD", "DS", "DD"]
    assert matrix == [[Fraction(-8 * x, 13**9) for x in row] for row in MATRIX19]


def test_small_theta_is_chemin_de_fer_against_player_2():
    # Ethier and Lee (2015), section 3: m = 52 for theta positive and small enough.
    assert correlated_equilibrium(banque_game(), Fraction(1, 1000)).m == 52


@settings(max_examples=10, deadline=None)
@given(st.fractions(min_value=Fraction(1, 100), max_value=Fraction(99, 100), max_denominator=100))
def test_certificate_symmetry_and_m(theta):
    s = correlated_equilibrium(banque_game(), theta)
    assert s.solution.certified
    # Independently of the solver: p guarantees the value, q holds the Players to it.
    assert guaranteed(s.a, s.h, s.p) == s.value == max(best_reply_I(s.a, s.h, s.solution.q))
    assert sum(s.p) == 1 and 52 <= s.m <= 69  # Ethier and Lee (2015): 52 <= m <= 69
    # Swapping the Players (theta <-> 1 - theta, SD <-> DS) leaves the game unchanged.
    t = correlated_equilibrium(banque_game(), 1 - theta)
    assert t.value == s.value
    assert guaranteed(t.a, t.h, (s.p[0], s.p[2], s.p[1], s.p[3])) == s.value


EXTREME_THETAS = [Fraction(1, 10**6), Fraction(1, 10000), Fraction(1, 5000), Fraction(1, 1000),
                  Fraction(999999, 10**6), Fraction(1, 2), Fraction(49, 100)]


def _certified(theta):
    """The correlated solution at theta, its certificate recomputed here from p and q alone."""
    s = correlated_equilibrium(banque_game(), theta)
    assert s.solution.certified
    assert all(x >= 0 for x in s.p) and sum(s.p) == 1 and all(0 <= x <= 1 for x in s.solution.q)
    assert guaranteed(s.a, s.h, s.p) == s.value == max(best_reply_I(s.a, s.h, s.solution.q))
    return s


@pytest.mark.parametrize("theta", EXTREME_THETAS, ids=str)
def test_certificate_holds_at_extreme_theta(theta):
    # HiGHS stops within its 1e-7 tolerances; near theta = 0 or 1 the Players' payoff differences
    # that decide the basis are about that small, and its basis was not optimal (at 1/10000 the
    # certificate failed: the Players guaranteed -0.0127973778 against a claimed -0.0127972772).
    s = _certified(theta)
    assert 52 <= s.m <= 69  # Ethier and Lee, "On the three-person game baccara banque", section 3
    # theta and 1 - theta are the same game with the Players (SD and DS) swapped
    mirror = _certified(1 - theta)
    assert mirror.value == s.value
    assert guaranteed(mirror.a, mirror.h, (s.p[0], s.p[2], s.p[1], s.p[3])) == s.value


def test_certificate_at_small_theta_values():
    # The exact optimum, certified (the float solver's basis gave -0.012797277186 at 1/10000, not optimal).
    # As theta -> 0 Player 1's stake vanishes and the game is chemin de fer against Player 2 (Ethier and
    # Lee 2015, section 3: m = 52): its value is Model A1's, where Player draws at 5 with probability 9/11
    # (Kemeny and Snell 1957) -- here solved as chemin de fer, apart from the banque game.
    from baccara.chemin.model import chemin_game
    from baccara.chemin.solution import solve_chemin

    (a1,) = solve_chemin(chemin_game("A1", None), Fraction(0)).nash.equilibria
    assert a1.p == Fraction(9, 11)
    s = _certified(Fraction(1, 10000))
    assert s.m == 52 and s.p[3] == 0
    assert abs(s.value - a1.payoff_I) < Fraction(1, 10**5) and s.value != Fraction(-12797277186, 10**12)
    assert abs(s.p[1] + s.p[3] - Fraction(9, 11)) < Fraction(1, 10**4)   # Player 2 draws at 5 (SD, DD)


@settings(max_examples=12, deadline=None)
@given(st.one_of(
    st.fractions(min_value=0, max_value=1, max_denominator=10**7),
    st.integers(2, 10**9).map(lambda k: Fraction(1, k)),          # near theta = 0 ...
    st.integers(2, 10**9).map(lambda k: 1 - Fraction(1, k)),      # ... and theta = 1
).filter(lambda t: 0 < t < 1))
def test_certificate_holds_for_any_theta(theta):
    _certified(theta)


def test_failed_certificate_is_an_error_not_a_result(monkeypatch):
    # A result whose certificate fails is never returned: the library raises CertificateError
    # (a BaccaraError naming theta and its range), so the CLI reports it and exits 1 (not bad input).
    import dataclasses

    from baccara.banque.correlated_eq import solution as banque_solution
    from baccara.errors import BaccaraError, CertificateError

    real = banque_solution.solve_additive_zero_sum

    def broken(a, h):
        return dataclasses.replace(real(a, h), certified=False)

    monkeypatch.setattr(banque_solution, "solve_additive_zero_sum", broken)
    with pytest.raises(CertificateError, match=r"theta = 1/3 \(in \(0, 1\)\)") as e:
        correlated_equilibrium(banque_game(), Fraction(1, 3))
    assert isinstance(e.value, BaccaraError)
    r = CliRunner().invoke(app, ["banque", "solve", "--theta", "1/3"])
    assert r.exit_code == 1 and "certificate" in r.output and "Traceback" not in r.output


@settings(max_examples=examples(40), deadline=None)
@given(st.integers(1, 4), st.integers(1, 7), st.data())
def test_exact_simplex_without_the_float_solver(m, n, data):
    # The exact simplex reaches a certified optimum from any start, so a wrong float basis
    # cannot survive: small integer games (ties and zero gains included), with the HiGHS
    # basis replaced by nothing (the slack basis), by HiGHS's own, or by a random one.
    from baccara.solve import zero_sum
    from baccara.solve.exact_lp import STATUSES, Basis, solve_exact_lp

    ints = st.integers(-3, 3).map(Fraction)
    a = data.draw(st.lists(ints, min_size=m, max_size=m))
    h = data.draw(st.lists(st.lists(ints, min_size=m, max_size=m).map(tuple), min_size=n, max_size=n))
    lp = zero_sum.player_II_lp(a, h)
    rand = Basis(tuple(data.draw(st.sampled_from(STATUSES)) for _ in range(n + 1)),
                 tuple(data.draw(st.sampled_from(("basic", "upper"))) for _ in range(m)))
    for kw in {"float_basis": False}, {}, {"warm": rand, "float_basis": False}:
        vx = solve_exact_lp(lp, **kw)
        p, q, v = [-y for y in vx.prices], vx.z[:n], vx.z[n]
        assert min(p) >= 0 and sum(p) == 1 and all(0 <= x <= 1 for x in q)
        assert guaranteed(a, h, p) == v == max(best_reply_I(a, h, q))
    sol = zero_sum.solve_additive_zero_sum(a, h)
    assert sol.certified
    # a warm start from the optimal basis of the game's first rows (column generation):
    # dual feasible, made primal feasible by the dual simplex
    if m > 1:
        first = zero_sum.solve_additive_zero_sum(a[:-1], [row[:-1] for row in h])
        warm = zero_sum.solve_additive_zero_sum(a, h, warm=first.basis)
        assert warm.certified and warm.value == sol.value


def test_game_symmetry_of_coefficients():
    g = banque_game()
    theta = Fraction(2, 7)
    h, h_swapped = g.h(theta), g.h(1 - theta)
    index = {k: i for i, k in enumerate(g.infosets)}
    for i, (k1, k2, j) in enumerate(g.infosets):
        mirror = h_swapped[index[(k2, k1, j)]]
        assert h[i] == (mirror[0], mirror[2], mirror[1], mirror[3])


def test_cli_banque_solve_json():
    import json

    r = CliRunner().invoke(app, ["banque", "solve", "--theta", "1/2", "--concept", "correlated", "--json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["theta"] == "1/2" and doc["concept"] == "correlated"
    assert doc["players"] == {"SS": "0/1", "SD": "110/543", "DS": "110/543", "DD": "323/543"}
    assert doc["banker"]["mixed"] == {"(6,10,6)": "5121/5792", "(10,6,6)": "5121/5792"}


@pytest.mark.parametrize("args,needle", [
    (["banque", "solve", "--theta", "0"], "theta"),
    (["banque", "solve", "--theta", "1"], "theta"),
    (["banque", "solve", "--theta", "x"], "theta"),
    (["banque", "solve", "--concept", "magic"], "concept"),
    (["banque", "solve", "--model", "other"], "model"),
])
def test_cli_banque_errors(args, needle):
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 2 and needle in r.output and "Traceback" not in r.output


@pytest.mark.slow
def test_correlated_sweep_has_110_intervals():
    # Ethier and Lee (2015), section 3: the correlated cooperative equilibrium is piecewise
    # continuous with 109 discontinuities in (0, 1/2): 110 intervals.  The first
    # change from theta = 1/2 is at the root near 0.496088 of the cubic
    # 6896169 - 1190915420 t + 3549548480 t^2 - 2372477184 t^3; the cooperative
    # equilibria coincide on (9588/37663, 55716/128711), where p1 = p2 = 9/11.
    import flint

    from baccara import banque

    res = banque.sweep("correlated")
    pieces = res.pieces
    assert len(pieces) == 110
    cubic = flint.fmpz_poly([6896169, -1190915420, 3549548480, -2372477184])
    assert pieces[0].lo.minimal_polynomial == cubic or pieces[0].lo.minimal_polynomial == -cubic
    ends = [p.lo.exact() for p in pieces]
    assert "9588/37663" in ends and "55716/128711" in ends
    doc = res.to_json()
    assert doc["count"] == 110 and doc["intervals"][0]["from"]["exact"] == "0/1"
    assert doc["intervals"][-1]["to"]["exact"] == "1/2"
    inside = correlated_equilibrium(banque_game(), Fraction(1, 3))
    nine = Fraction(9, 11)
    product = ((1 - nine) ** 2, (1 - nine) * nine, nine * (1 - nine), nine * nine)
    assert inside.p == product
    # Ethier and Lee (2015), section 3, numbering the intervals 1..110 from the left: p11 = 0 on 1-41;
    # p00 = 0 on 42-46, 102-103, 107-110; p10 = 0 on 61-66; all active elsewhere; on 75-97
    # the Players play independently, p = (4, 18, 18, 81)/121.
    from baccara.banque.correlated_eq.sweep import piece_solution

    left_to_right = list(reversed(pieces))
    missing = {k + 1: {0, 1, 2, 3} - set(p.support) for k, p in enumerate(left_to_right)}
    assert [k for k, m in missing.items() if m == {3}] == list(range(1, 42))
    assert [k for k, m in missing.items() if m == {0}] == [42, 43, 44, 45, 46, 102, 103, 107, 108, 109, 110]
    assert [k for k, m in missing.items() if m == {2}] == list(range(61, 67))
    assert all(not m for k, m in missing.items() if k not in range(1, 47) and k not in range(61, 67)
               and k not in (102, 103, 107, 108, 109, 110))
    for k in range(75, 98):
        piece = left_to_right[k - 1]
        mid = Fraction((float(piece.lo) + float(piece.hi)) / 2).limit_denominator(10**9)
        assert tuple(piece_solution(piece, mid)[0]) == product
        assert piece_solution(piece, mid)[1] == correlated_equilibrium(banque_game(), mid).value


@pytest.mark.slow
def test_banker_advantage_against_historical_estimates():
    # Ethier and Lee (2015), section 1: with the Players always drawing on 5 and Banker's best
    # response "the correct figure is about 0.922104%"; under the simplified model
    # Banker's advantage (correlated cooperative value) is about 0.8677394%.
    from baccara import banque

    result = banque.advantage()
    rows = result.rows
    assert round(rows[0]["percent"], 6) == 0.922104
    assert round(rows[2]["percent"], 7) == 0.8677394
    # Nash (Ethier and Lee 2015, section 5): 11138203216 / (11^2 13^9) ~ 0.00868040
    assert rows[4]["exact"] == "11138203216/1283144424133"
    # Player 2 seeing more of Player 1's hand lowers Banker's advantage
    assert rows[2]["percent"] > rows[5]["percent"] > rows[6]["percent"]
    r = CliRunner().invoke(app, ["banque", "advantage"])
    assert r.exit_code == 0 and "Le Myre" in r.stdout
    r = CliRunner().invoke(app, ["banque", "advantage", "--json"])
    assert r.exit_code == 0 and json.loads(r.stdout) == result.to_json()
    # the correlated row is the correlated cooperative equilibrium's value, solved on its own
    assert Fraction(rows[2]["exact"]) == -banque.correlated("1/2").value


@pytest.mark.slow
def test_banker_advantage_elsewhere_has_no_historical_estimates():
    # The estimates were made for theta = 1/2 and cards dealt with replacement; at theta = 1/3
    # with 8 decks the advantages are computed, the estimates are not shown beside them.
    from baccara import banque

    result = banque.advantage("1/3", decks=8)
    assert all(r["historical"] == {} for r in result.rows) and "8 decks, theta = 1/3" in repr(result)
    assert Fraction(result.rows[2]["exact"]) == -banque.correlated("1/3", decks=8).value
    r = CliRunner().invoke(app, ["banque", "advantage", "--theta", "1/2", "--decks", "0"])
    assert r.exit_code == 2 and "--decks" in r.output


def test_independent_cooperative_at_one_half():
    # Ethier and Lee (2015), section 4: at theta = 1/2, p1 = p2 = (-319 + sqrt(245569))/224 and the
    # lower value is 5(-1933207795 + 260493 sqrt(245569))/[98 (13)^9] ~ -0.00867999;
    # the upper value is the correlated value, so the two differ (Proposition 1).
    from baccara.algebraic import QuadraticNumber
    from baccara.banque.independent_eq.solution import independent_equilibrium

    s = independent_equilibrium(banque_game(), Fraction(1, 2))
    root = QuadraticNumber(Fraction(-319, 224), Fraction(1, 224), 245569)
    assert s.p1 == root and s.p2 == root and str(s.p1) == "(-319+sqrt(245569))/224"
    den = 98 * 13**9
    assert s.lower_value == QuadraticNumber(Fraction(5 * -1933207795, den), Fraction(5 * 260493, den), 245569)
    assert s.upper_value == Fraction(-16655514960, 181 * 13**9)
    assert s.values_differ and s.lower_value < s.upper_value


def test_cooperative_equilibria_coincide_inside_the_interval():
    # Ethier and Lee (2015): the two cooperative equilibria coincide on (9588/37663, 55716/128711),
    # with p1 = p2 = 9/11.
    from baccara.banque.independent_eq.solution import independent_equilibrium

    s = independent_equilibrium(banque_game(), Fraction(3, 10))
    assert s.p1 == s.p2 == Fraction(9, 11) and not s.values_differ


@pytest.mark.slow
@pytest.mark.parametrize("theta", [Fraction(1, 2), Fraction(1, 10), Fraction(3, 10), Fraction(1, 100)])
def test_independent_maximin_certificate(theta):
    # The maximin from the candidate search is checked by a branch and bound over the
    # square that knows nothing of the candidates, every box rechecked exactly: nothing
    # guarantees more than the lower value + 1e-10 ...
    import numpy as np

    from baccara.banque.independent_eq.bounds import _exact_recheck, maximin_upper_bound
    from baccara.banque.independent_eq.solution import independent_equilibrium

    v = independent_equilibrium(banque_game(), theta).lower_value
    check = maximin_upper_bound(theta, v)
    assert check.status == "holds" and check.exact
    # ... and the check can fail: a claim 1e-7 too low is refuted by a point that
    # guarantees more; the exact recheck refuses a cover that is too coarse
    low = maximin_upper_bound(theta, float(v) - 1e-7)
    assert low.status == "refuted" and low.witness is not None
    whole = (np.array([[0.0, 0.0, 1.0]]), np.zeros((1, len(banque_game().infosets)), dtype=bool))
    assert not _exact_recheck(theta, [whole], v, Fraction(1, 10**10))


@pytest.mark.parametrize("theta", [Fraction(1, 10**6), pytest.param(Fraction(1, 10000), marks=pytest.mark.slow),
                                   pytest.param(Fraction(1, 5000), marks=pytest.mark.slow), Fraction(999999, 10**6),
                                   pytest.param(Fraction(49, 100), marks=pytest.mark.slow)], ids=str)
def test_independent_maximin_certificate_near_theta_0_and_1(theta):
    # Near theta = 0 (or 1) V is nearly flat in p1 (p2) along the kinks at p2 (p1) ~ 9/11:
    # with pure bounds alone the branch and bound ran out of boxes at 1/10**6 and took
    # 137581 boxes at 1/10000; Banker's mixed bound on the small boxes closes a few hundred.
    from baccara.banque.independent_eq.bounds import maximin_upper_bound
    from baccara.banque.independent_eq.solution import independent_equilibrium

    ind = independent_equilibrium(banque_game(), theta)
    check = maximin_upper_bound(theta, ind.lower_value)
    assert check.status == "holds" and check.exact and check.boxes < 2000
    assert ind.lower_value < ind.upper_value == correlated_equilibrium(banque_game(), theta).value
    if theta == Fraction(1, 10000):
        assert maximin_upper_bound(theta, float(ind.lower_value) - 1e-7).status == "refuted"


def test_a_partial_sweep_as_a_result():
    # The result renders what the sweep's JSON function writes, one table row per interval.
    from rich.console import Console

    from baccara import banque
    from baccara.banque.correlated_eq.sweep import correlated_sweep
    from baccara.banque.sweeps import CorrelatedSweep
    from baccara.errors import BaccaraError

    pieces = correlated_sweep(Fraction(49, 100), Fraction(1, 2))
    res = CorrelatedSweep(pieces)
    doc = json.loads(json.dumps(res.to_json()))   # what a reader of --json gets back
    ivs = doc["intervals"]
    assert doc["count"] == len(ivs) == len(pieces) > 1
    assert ivs[0]["from"]["exact"] == "49/100" and ivs[-1]["to"]["exact"] == "1/2"
    assert all(a["to"] == b["from"] and a["from"]["float"] < a["to"]["float"] for a, b in zip(ivs, ivs[1:]))

    def at(coeffs, x):
        return sum(Fraction(c) * x**k for k, c in enumerate(coeffs))

    # Each interval's formula, evaluated inside it, is the equilibrium the point solver certifies there.
    for iv in ivs:
        theta = (Fraction(iv["from"]["float"]) + Fraction(iv["to"]["float"])) / 2
        s = correlated_equilibrium(banque_game(), theta)
        f = iv["formula"]
        named = {u: at(n, theta) / at(f["denominator"], theta) for u, n in zip(f["unknowns"], f["numerators"])}
        assert named["value"] == s.value
        assert [named.get(f"p_{u}", 0) for u in ("SS", "SD", "DS", "DD")] == list(s.p)
        assert iv["players_support"] == [u for u, x in zip(("SS", "SD", "DS", "DD"), s.p) if x]
        assert {k: v for k, v in named.items() if k.startswith("q_")} == {
            f"q_({a},{b},{c})": x for (a, b, c), x in s.mixed.items()}
    con = Console(record=True, width=200)
    res.show(con)
    rows = [line for line in con.export_text().splitlines() if line.startswith("│")]
    assert len(rows) == len(pieces)  # one row per interval
    assert repr(res) == f"<CorrelatedSweep: Correlated cooperative equilibrium: {len(pieces)} theta-intervals in (0, 1/2]>"
    assert "49/100" in res._repr_html_()
    with pytest.raises(BaccaraError, match="concept must be one of correlated, independent, nash"):
        banque.sweep("Nash")


@pytest.mark.slow
def test_plot_of_a_partial_sweep(tmp_path):
    from baccara.banque.correlated_eq.sweep import correlated_sweep
    from baccara.plots import plot_banque_correlated

    pieces = correlated_sweep(Fraction(47, 100), Fraction(1, 2))
    out = plot_banque_correlated(pieces, tmp_path / "fig.png")
    assert out.read_bytes()[:4] == b"\x89PNG"
