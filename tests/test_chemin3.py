"""Chemin de fer under Models A3 and B3 (Ethier and Lee 2023, section 4; Table 7; Theorem 2), and the
general solver for bilinear games behind it."""

import json
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from baccara.chemin.model import chemin_game, raw_coefficients
from baccara.chemin.model3 import seed_route, solve_chemin3, sweep_chemin3
from baccara.chemin.solution import solve_chemin
from baccara.cli import app
from baccara.solve.additive import AdditiveGame
from baccara.solve.additive import nash_equilibria as foster
from baccara.solve.bilinear import BilinearGame, certify, guaranteed_I, held_I, nash_equilibria, solve_zero_sum

from .budget import examples
from .data.ethier_lee_2023_tables import TABLE7

runner = CliRunner()


def test_model3_sums_are_affine_in_players_moves():
    # Deals split by Player's composition, so the all-draw pattern is the base plus the
    # five single-composition deltas, coefficient by coefficient.
    for d in (2, None):
        base = raw_coefficients(d, (0,) * 5)
        units = [raw_coefficients(d, tuple(int(t == j) for t in range(5))) for j in range(5)]
        full = raw_coefficients(d, (1,) * 5)
        assert (full.g == base.g + sum(u.g - base.g for u in units)).all()
        assert (full.h == base.h + sum(u.h - base.h for u in units)).all()


def test_b3_with_one_move_at_all_fives_is_b2():
    # Player choosing alike at the five compositions of 5 is Model B2's Player.
    g3, g2 = chemin_game("B3", 4), chemin_game("B2", 4)
    r = g3.restricted((0, 0, 0, 0, 0), free=0)
    pos = {k: i for i, k in enumerate(g2.keys)}
    for i, key in enumerate(g3.keys):
        G = g3.G[i]
        both = (G[0], G[0] + sum(G[1:]))
        assert both == (g2.G[pos[key]] if key in pos else (0, 0))
    assert r.deals == g2.deals


@pytest.fixture(scope="module")
def sweeps():
    return {d: sweep_chemin3(chemin_game("B3", d)) for d in range(1, 14)}


@pytest.mark.slow
def test_table7_banker_strategies(sweeps):
    # Ethier and Lee (2023), Table 7: Banker's equilibrium strategies by alpha-interval, grouped by d.
    per_d = {d: tuple(sw.table7()) for d, sw in sweeps.items()}
    groups = []
    for d in range(1, 14):
        if not groups or groups[-1][1] != per_d[d]:
            groups.append((d, per_d[d]))
    flat = [s for _, seq in groups for s in seq]
    assert flat == [s for s, _ in TABLE7]
    # the d-groups of Table 7 (d = 13 onwards: one strategy, no dependence on alpha)
    assert [d for d, _ in groups] == [1, 2, 3, 4, 8, 9, 10, 12, 13]


@pytest.mark.slow
def test_theorem2_player_dmsdd_and_every_interval_confirmed(sweeps):
    # Theorem 2: Player draws at (0,5), (6,9), (7,8), stands at (2,3), mixes at (1,4); each
    # interval's equilibrium holds in the full 2^5 x 2^484 game and is the only one at a
    # rational alpha inside it (full enumeration).
    for d, sw in sweeps.items():
        doc = sw.to_json()
        assert doc["all_confirmed"], d
        for iv in doc["intervals"]:
            draw = iv["player"]["draw"]
            assert (draw["(0,5)"], draw["(2,3)"], draw["(6,9)"], draw["(7,8)"]) == ("1", "0", "1", "1")
            assert "alpha" in draw["(1,4)"]
            assert list(iv["banker"]["mixed"]) in (["(0,6)|none"], ["(8,8)|none"])


@pytest.mark.slow
def test_theorem2_multiple_equilibrium_alphas(sweeps):
    # Theorem 2: at most three alpha-values with several equilibria (attained at one d),
    # Banker's mixing probability constant in alpha for d = 3 and for large d.
    counts = {d: sw.restricted.result.counts()[4] for d, sw in sweeps.items()}
    assert max(counts.values()) == 3 and list(counts.values()).count(3) == 1
    assert counts[3] == 0 and counts[13] == 0
    assert len(sweeps[3].confirmations) == 1 and len(sweeps[13].confirmations) == 1
    # each exceptional alpha has four extreme Banker strategies, as in Ethier and Lee (2023) (d = 6)
    for d, sw in sweeps.items():
        for p in sw.restricted.result.exceptional:
            assert len(p.extremes) == 4, d


def test_d1_seed_route_fails_enumeration_does_not():
    # Ethier and Lee (2023): "The method fails for d = 1, which must be treated separately."
    alpha = Fraction(1, 20)
    route = seed_route(chemin_game("B3", 1), alpha)
    assert route.candidates and not any(route.confirmed)
    sol = solve_chemin3(chemin_game("B3", 1), alpha)
    assert sol.unique and all(c.holds for c in sol.certificates)
    assert [k for k, v in zip(sol.game.labels, sol.equilibria[0].x) if 0 < v < 1] == ["(8,8)|none"]


@pytest.mark.parametrize("d,alpha", [(2, Fraction(1, 50)), (6, Fraction(1, 20)), (6, Fraction(0)), (8, Fraction(1, 25))])
def test_seed_route_agrees_with_enumeration(d, alpha):
    sol = solve_chemin3(chemin_game("B3", d), alpha)
    assert sol.unique
    eq = sol.equilibria[0]
    assert [(c.y, c.x) for c, ok in zip(sol.route.candidates, sol.route.confirmed) if ok] == [(eq.y, eq.x)]
    assert eq.y[0] == 1 and eq.y[2] == 0 and eq.y[3] == 1 and eq.y[4] == 1 and 0 < eq.y[1] < 1


@pytest.mark.parametrize("d", [1, 6, None])
def test_zero_sum_lp_matches_enumeration(d):
    # alpha = 0: the sequence-form LP's value, certified (lower == upper), equals every
    # equilibrium's payoff from the enumeration, and its strategies are among them.
    g = chemin_game("B3" if d else "A3", d).at(Fraction(0))
    z = solve_zero_sum(g)
    assert z.certified and guaranteed_I(g, z.y) == held_I(g, z.x) == z.value
    ns = nash_equilibria(g)
    assert all(e.payoff_I == z.value and e.payoff_II == -z.value for e in ns.equilibria)
    assert z.y in {e.y for e in ns.equilibria}


@pytest.mark.parametrize("alpha", [Fraction(0), Fraction(1, 20), Fraction(1, 10)])
def test_a3_coincides_with_a1(alpha):
    # With replacement the compositions of 5 are one decision: every extreme equilibrium of
    # A3 draws at 5 with A1's total probability (weights 4:1:1:1:1), Banker as in A1.
    a1 = solve_chemin(chemin_game("A1", None), alpha).nash.equilibria[0]
    sol = solve_chemin3(chemin_game("A3", None), alpha)
    assert sol.equilibria and all(c.holds for c in sol.certificates)
    w = (4, 1, 1, 1, 1)
    for eq in sol.equilibria:
        assert sum(wi * y for wi, y in zip(w, eq.y)) / 8 == a1.p
        assert eq.payoff_I == a1.payoff_I and eq.payoff_II == a1.payoff_II
    if alpha == 0:  # the vertices of {y in [0,1]^5 : 4y1 + y2 + ... + y5 = 72/11}
        assert len(sol.equilibria) == 17


@pytest.mark.slow
def test_b3_tends_to_a1_as_d_grows():
    # Ethier and Lee (2023), (67)-(68): as d -> oo Player's total draw probability at 5 tends to A1's p.
    alpha = Fraction(1, 20)
    p_a1 = solve_chemin(chemin_game("A1", None), alpha).nash.equilibria[0].p
    gaps = []
    for d in (10, 100, 1000):
        y = solve_chemin3(chemin_game("B3", d), alpha, all_equilibria=False).equilibria[0].y
        gaps.append(abs((4 * y[0] + y[1] + y[2] + y[3] + y[4]) / 8 - p_a1))
    assert gaps[0] > gaps[1] > gaps[2] and gaps[2] < Fraction(1, 10**3)


@pytest.mark.slow
@settings(max_examples=8, deadline=None)
@given(st.integers(1, 30), st.fractions(0, Fraction(1, 10), max_denominator=200))
def test_b3_equilibria_certified_and_perturbation_fails(d, alpha):
    sol = solve_chemin3(chemin_game("B3", d), alpha)
    assert sol.equilibria and all(c.holds for c in sol.certificates)
    eq = sol.equilibria[0]
    y = list(eq.y)
    y[2] = Fraction(1, 2)  # half-draw at (2,3): Banker's strategy no longer a best response to it, or Player loses
    assert not certify(sol.bilinear, y, eq.x).holds


def _as_bilinear(g: AdditiveGame) -> BilinearGame:
    return BilinearGame(
        g.a[0], (g.a[1] - g.a[0],), g.b[0], (g.b[1] - g.b[0],),
        tuple(h0 for h0, _ in g.h), tuple((h1 - h0,) for h0, h1 in g.h),
        tuple(g0 for g0, _ in g.g), tuple((g1 - g0,) for g0, g1 in g.g),
    )


small = st.integers(-9, 9).map(Fraction)


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(1, 4).flatmap(lambda n: st.tuples(
    st.tuples(small, small), st.tuples(small, small),
    st.lists(st.tuples(small, small), min_size=n, max_size=n),
    st.lists(st.tuples(small, small), min_size=n, max_size=n))))
def test_bilinear_solver_equals_foster_on_generic_2_by_2n_games(parts):
    # With one set for player I the bilinear game is the additive 2 x 2^n game, where
    # Foster's algorithm (independently tested on Ethier and Lee's (2023) tables) lists every equilibrium.
    a, b, h, g = parts
    game = AdditiveGame(a, b, tuple(h), tuple(g))
    ref = foster(game, merge=False)
    if ref.continua or any(len(e.mixed) > 1 for e in ref.equilibria) or any(
            x == 0 for gi in g for x in gi) or any(gi[0] == gi[1] for gi in g):
        return  # degenerate: extreme mixtures and extreme behaviour strategies differ
    bil = _as_bilinear(game)
    ours = nash_equilibria(bil, merge=False)
    assert sorted((e.y[0], e.x) for e in ours.equilibria) == sorted((e.p, e.q) for e in ref.equilibria)
    assert all(certify(bil, e.y, e.x).holds for e in ours.equilibria)


def test_cli_b3_solve_and_sweep():
    r = runner.invoke(app, ["chemin", "solve", "--model", "B3", "--decks", "6", "--commission", "1/20",
                            "--all-equilibria", "--json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert doc["unique"] is True and doc["model"] == "B3"
    eq = doc["equilibria"][0]
    assert set(eq["player"]["draw"]) == {"(0,5)", "(1,4)", "(2,3)", "(6,9)", "(7,8)"}
    assert eq["certificate"]["holds"] and eq["player"]["strategy"] == "DMSDD"
    assert "enumeration" in doc and doc["seed_route"]["candidates"][0]["confirmed"]
    r = runner.invoke(app, ["chemin", "sweep", "--model", "B3", "--decks", "3", "--json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert doc["table7"] == ["SSSSS-SSSSSS-DSSDD-MSSSSD-DDDSDD"] and doc["all_confirmed"]
    r = runner.invoke(app, ["chemin", "table1", "--model", "B3"])
    assert r.exit_code == 2 and "error: --model B3" in r.output
    r = runner.invoke(app, ["chemin", "solve", "--model", "B4"])
    assert r.exit_code == 2 and "error:" in r.output


def test_model_a3_sweeps_as_model_a1_and_says_so():
    # With replacement Player's five compositions of 5 are one decision: the library
    # (not the command line) sweeps Model A3 as A1 and labels the result.
    from baccara import chemin

    a3, a1 = chemin.sweep("A3", "inf").to_json(), chemin.sweep("A1", "inf").to_json()
    assert a3["model"] == "A3" and "Model A1's" in a3["note"] and "note" not in a1
    assert {k: v for k, v in a3.items() if k not in ("model", "note")} == {k: v for k, v in a1.items() if k != "model"}
    r = CliRunner().invoke(app, ["chemin", "sweep", "--model", "A3", "--decks", "inf", "--json"])
    assert r.exit_code == 0 and json.loads(r.output) == a3
