"""Macao and Victoria: the exact engine against a brute-force oracle, best responses, the certified solution, the CLI."""

import json
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from baccara.cli import app
from baccara.macao.brute import brute_distribution
from baccara.macao.engine import (
    banker_best_response,
    distribution,
    expected_payoff,
    punter_best_response,
    table,
    threshold,
)
from baccara.macao.model import macao_game
from baccara.macao.solution import solve_macao
from baccara.macao.variants import VARIANTS
from baccara.sim.macao import simulate_macao

runner = CliRunner()
TINY = (2, 1, 1, 1, 1, 1, 1, 0, 1, 1)


def random_strategy(seed: int, den: int = 4):
    rnd = random.Random(seed)
    memo: dict = {}
    return lambda key: memo.setdefault(key, Fraction(rnd.randint(0, den), den))


@settings(max_examples=8, deadline=None)
@given(variant=st.sampled_from(sorted(VARIANTS)), seed=st.integers(0, 10**6),
       counts=st.lists(st.integers(0, 2), min_size=10, max_size=10).filter(lambda c: 6 <= sum(c) <= 9))
def test_engine_equals_brute_force(variant, seed, counts):
    counts = tuple(counts)
    g = macao_game(variant, counts)
    if g.N < g.T:
        return
    p, b = random_strategy(seed), random_strategy(seed + 1, 3)
    assert distribution(g, p, b) == brute_distribution(g.rules, counts, p, b)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_best_responses_are_best_and_attained(variant):
    g = macao_game(variant, TINY)
    p, b = random_strategy(7), random_strategy(8)
    vb, reply_b = banker_best_response(g, p)
    vp, reply_p = punter_best_response(g, b)
    # the replies attain their values (checked by the brute-force oracle, independent of the engine)
    assert brute_distribution(g.rules, TINY, p, table(reply_b))["ev"] == vb
    assert brute_distribution(g.rules, TINY, table(reply_p), b)["ev"] == vp
    # and nothing else does better
    for s in range(3):
        assert expected_payoff(g, p, random_strategy(100 + s)) >= vb
        assert expected_payoff(g, random_strategy(200 + s), b) <= vp
    assert expected_payoff(g, threshold(5), b) <= vp


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_solution_brackets_the_value_on_a_small_shoe(variant):
    sol = solve_macao(variant, (3, 1, 1, 1, 1, 1, 1, 1, 1, 1))
    # the certificate, recomputed here from the strategies alone
    lo, _ = banker_best_response(sol.game, table(sol.punter))
    hi, _ = punter_best_response(sol.game, table(sol.banker))
    assert (lo, hi) == (sol.guaranteed, sol.conceded)
    assert lo <= sol.payoff <= hi and abs(float(hi - lo)) < 1e-12
    assert json.loads(sol.json())["certificate"]["holds"] is sol.certified


def test_victoria_two_decks_certified():
    sol = solve_macao("victoria", 2)
    assert sol.certified
    assert sol.value == Fraction(11939677877, 71385906150)
    assert sol.banker_edge < 0          # the punter, paid 3:1 and 2:1 on naturals, has the edge


@pytest.mark.slow
def test_macao_two_decks_certified():
    sol = solve_macao("macao", 2)
    assert sol.certified
    assert sol.value == Fraction(53827720815000026801, 441417957580176194475)


def test_simulation_agrees_with_the_exact_value():
    sol = solve_macao("victoria-early", 2)
    r = simulate_macao(sol, 4000, seed=3)
    assert abs(r.z) < 4


def test_rules_are_data_and_payouts_options():
    g = macao_game("macao", TINY, natural9_pays=2)
    assert g.rules.natural9_pays == 2 and g.pays["win_natural9"] == 2


@pytest.mark.parametrize("args", [
    ["macao", "edge", "--variant", "baccarat"],
    ["macao", "edge", "--decks", "0"],
    ["macao", "solve", "--composition", "1,1,1,1,1,0,0,0,0,0"],
    ["macao", "edge", "--natural9-pays", "-1"],
    ["macao", "simulate", "--coups", "0"],
])
def test_bad_input_exits_2(args):
    r = runner.invoke(app, args)
    assert r.exit_code == 2, r.output


def test_cli_edge_json():
    r = runner.invoke(app, ["macao", "edge", "--variant", "victoria-early", "--json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert doc["certificate"]["holds"] and doc["banker_edge"] == "-18950864/87541245"


def test_exact_lp_vertex_is_exact_and_checked():
    from baccara.macao.exact_lp import ExactLP, solve_vertex

    # min -x - y  s.t.  3x + y <= 1,  x + 3y <= 1,  x, y >= 0: the vertex (1/4, 1/4), not a float near it
    lp = ExactLP(2, cost={0: Fraction(-1), 1: Fraction(-1)})
    lp.col_lo, lp.col_hi = [Fraction(0)] * 2, [None, None]
    lp.add_row({0: Fraction(3), 1: Fraction(1)}, None, Fraction(1))
    lp.add_row({0: Fraction(1), 1: Fraction(3)}, None, Fraction(1))
    v = solve_vertex(lp)
    assert v.z == [Fraction(1, 4), Fraction(1, 4)] and v.objective == Fraction(-1, 2) and v.feasible
    assert lp.violations([Fraction(1, 3), Fraction(1, 4)])      # the exact check sees a breach of 1/12


@given(a=st.integers(1, 9), b=st.integers(1, 9), c=st.integers(1, 9), d=st.integers(1, 9))
@settings(max_examples=20, deadline=None)
def test_exact_lp_vertex_solves_two_by_two_games(a, b, c, d):
    from baccara.macao.exact_lp import ExactLP, solve_vertex

    # the row player's maximin LP of [[a, b], [c, d]]: max v s.t. v <= p a + (1-p) c, v <= p b + (1-p) d
    lp = ExactLP(2, cost={1: Fraction(-1)})
    lp.col_lo, lp.col_hi = [Fraction(0), None], [Fraction(1), None]
    lp.add_row({1: Fraction(1), 0: Fraction(c - a)}, None, Fraction(c))
    lp.add_row({1: Fraction(1), 0: Fraction(d - b)}, None, Fraction(d))
    v = solve_vertex(lp)
    p = v.z[0]
    value = min(p * a + (1 - p) * c, p * b + (1 - p) * d)
    grid = max(min(q * a + (1 - q) * c, q * b + (1 - q) * d) for q in (Fraction(k, 720) for k in range(721)))
    assert v.feasible and -v.objective == value >= grid       # exact and at least as good as any grid point


def test_macao_early_two_decks_certified():
    sol = solve_macao("macao-early", 2)
    assert sol.certified, sol.summary()
    assert sol.value == Fraction(59971449718423, 401181653972385)
    lo, _ = banker_best_response(sol.game, table(sol.punter))     # recomputed independently of the solver
    hi, _ = punter_best_response(sol.game, table(sol.banker))
    assert lo == hi == sol.value


def test_uniqueness_on_victoria_early():
    from baccara.macao.uniqueness import uniqueness

    assert solve_macao("victoria-early", 2).uniqueness is None  # not asked: not decided
    sol = solve_macao("victoria-early", 2, decide_uniqueness=True)
    u = sol.uniqueness
    assert u is not None and u["punter"]["unique"] is True and u["punter"]["rank"] == u["punter"]["free_nodes"]
    # the banker's alternative is explicit; it is re-certified here by the exact best response
    assert u["banker"]["unique_on_path"] is False and u["unique"] is False
    assert json.loads(sol.json())["unique"] is False
    assert uniqueness(sol.game, sol.punter, sol.banker, sol.value) == u


def test_plot_writes_a_png(tmp_path):
    out = tmp_path / "v.png"
    r = runner.invoke(app, ["macao", "solve", "--variant", "victoria-early", "--plot", str(out)])
    assert r.exit_code == 0, r.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    r = runner.invoke(app, ["macao", "solve", "--variant", "victoria-early", "--plot", str(tmp_path / "v.txt")])
    assert r.exit_code == 2 and "--plot" in r.output


def test_linprog_fallback_agrees_with_highs_basis():
    # On a SciPy without its bundled HiGHS module the basis is read off linprog's marginals:
    # same optimum, same active bounds and rows, the row duals with HiGHS's signs.
    import numpy as np
    from scipy.sparse import csc_matrix

    from baccara.macao.exact_lp import _linprog_basis, highs_basis

    inf = np.inf
    c = np.array([-1.0, -2.0, 0.5])
    a = csc_matrix(np.array([[1.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, -1.0]]))
    row_lo, row_hi = np.array([-inf, 1.0, 0.0]), np.array([4.0, inf, 0.0])   # <=, >=, =
    col_lo, col_hi = np.zeros(3), np.array([3.0, inf, inf])
    h = highs_basis(c, a, row_lo, row_hi, col_lo, col_hi)
    f = _linprog_basis(c, a, row_lo, row_hi, col_lo, col_hi)
    assert np.allclose(h["x"], f["x"]) and abs(h["fun"] - f["fun"]) < 1e-12
    assert np.allclose(h["row_dual"], f["row_dual"])
    assert h["col_status"] == f["col_status"] and h["row_status"] == f["row_status"]
