"""Chemin de fer under Models A1, A2, B1, B2: Ethier and Lee's (2023) tables, certificates, limits, LP check."""

import json
from fractions import Fraction
from math import factorial

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from baccara import Shoe, chemin, coup_distribution
from baccara.cards import RANKS
from baccara.chemin.model import _forward_differences, _total, chemin_game, raw_coefficients
from baccara.chemin.solution import solve_chemin, sweep_chemin
from baccara.cli import app
from baccara.errors import BaccaraError
from baccara.rules import PUNTO_BANCO
from baccara.solve.additive import certify, nash_equilibria
from baccara.solve.sweep import strategy_string
from baccara.solve.zero_sum import solve_zero_sum

from .data.ethier_lee_2023_tables import TABLE2, TABLE3, TABLE4, TABLE4_LAST_ROW, TABLE6

runner = CliRunner()


@pytest.fixture(scope="module")
def sweep6():
    return sweep_chemin(chemin_game("B2", 6))


def test_table2_all_66_cases(sweep6):
    # Ethier and Lee (2023), Table 2 (d = 6): 66 cases, strategy strings in the paper's notation.
    rows = sweep6.table2()
    assert [r["strategy"] for r in rows] == [TABLE2[k] for k in range(1, 67)]
    # Rows 44 and 45 are the equilibria (Ethier and Lee 2023, Equations (19), (20)).
    assert [r["case"] for r in rows if r["equilibrium"]] == [44, 45]


def test_table3_all_23_intersections(sweep6):
    # Ethier and Lee (2023), Table 3 (d = 6): 23 intersections, alpha to 7 digits, strategy strings.
    rows = sweep6.table3()
    assert [(f"{r['alpha']['float']:.7f}", r["strategy"]) for r in rows] == TABLE3
    # Only row 18 has several equilibria: four Banker strategies of support size 2.
    several = [r for r in rows if r["several_equilibria"]]
    assert [r["case"] for r in several] == [18]
    assert len(several[0]["banker_extreme_strategies"]) == 4


def test_d6_unique_equilibrium_on_each_interval(sweep6):
    # Ethier and Lee (2023): for d = 6, unique NE for alpha != alpha* ~ 0.0620017, mixing at (0,6)|none.
    iv = sweep6.intervals()
    assert len(iv) == 2 and all(list(r["banker"]["mixed"]) == ["(0,6)|none"] for r in iv)
    assert f"{iv[0]['alpha_to']['float']:.7f}" == "0.0620017"


@pytest.mark.slow
def test_table4_every_d_from_1_to_100():
    # Ethier and Lee (2023), Table 4: (a) curves, (b) intersections, (c) partial curves,
    # (d) = (a) + 2(b) cases, (e) exceptional alphas; last row for every d >= 77.
    rows = chemin.table4(range(1, 101)).rows
    for d, *counts in rows:
        assert tuple(counts) == TABLE4.get(d, TABLE4_LAST_ROW), d


def test_table6_banker_mixing_strategies():
    # Ethier and Lee (2023), Table 6: Banker's equilibrium strategies in blocks (3,8) (4,1) (5,4)
    # (6,none) (6,6), by alpha-interval, for d = 1, 2, 3, 4-7 and beyond.
    blocks_at = [(3, 8), (4, 1), (5, 4), (6, 10), (6, 6)]
    flat, per_d = [], {}
    for d in range(1, 13):
        sw = sweep_chemin(chemin_game("B2", d))
        g = sw.game
        blocks = [sorted((i for i, (h, k) in enumerate(g.keys) if (sum(h) % 10, k) == b), key=g.block_key) for b in blocks_at]
        per_d[d] = tuple(strategy_string(iv.moves, {iv.i}, blocks) for iv in sw.result.intervals)
    groups = []
    for d in range(1, 13):
        if not groups or groups[-1][1] != per_d[d]:
            groups.append((d, per_d[d]))
    for _, seq in groups:
        flat.extend(seq)
    assert [d for d, _ in groups] == [1, 2, 3, 4, 8, 10, 12]
    assert flat == [s for s, _ in TABLE6]


@pytest.mark.parametrize("alpha", [Fraction(0), Fraction(1, 25), Fraction(1, 20), Fraction(1, 10)])
def test_a2_coincides_with_a1(alpha):
    a1, a2 = solve_chemin(chemin_game("A1", None), alpha), solve_chemin(chemin_game("A2", None), alpha)
    assert a1.unique and a2.unique
    e1, e2 = a1.nash.equilibria[0], a2.nash.equilibria[0]
    assert e1.p == e2.p and e1.payoff_I == e2.payoff_I and e1.payoff_II == e2.payoff_II
    g1, g2 = a1.game, a2.game
    for i, (total, third) in enumerate(g1.keys):
        for j, (hand, k) in enumerate(g2.keys):
            if sum(hand) % 10 == total and k == third:
                assert e2.q[j] == e1.q[i]


def test_a1_parlor_game_is_kemeny_snell():
    # Kemeny and Snell (1957), cited in Ethier and Lee (2023): Player draws at 5 with probability 9/11.
    sol = solve_chemin(chemin_game("A1", None), Fraction(0))
    assert sol.nash.equilibria[0].p == Fraction(9, 11)
    # and over the commission p(alpha) = (9 - alpha) / (11 - 6 alpha) on all of [0, 1/10]
    iv = sweep_chemin(chemin_game("A1", None)).intervals()
    assert len(iv) == 1 and iv[0]["player"]["draw_at_5"] == "(9 - 1*alpha) / (11 - 6*alpha)"


def test_coefficients_are_polynomials_in_d_and_their_limit_is_model_a():
    # Each ordered-deal sum is a polynomial of degree <= 6 in d: the interpolation
    # from d = 1..7 must reproduce d = 8 computed directly, and its leading
    # coefficient over 52^6 must equal the with-replacement sum over 13^6.
    for u in ((0,) * 5, (1,) * 5, (1, 0, 0, 1, 1)):
        diffs = _forward_differences(u)
        from baccara.chemin.model import _deck_counts, _direct

        g8, h8, base8 = _direct(_deck_counts(8), False, u)
        direct8 = np.concatenate([g8.ravel(), h8.ravel(), base8]).astype(object)
        interp8 = sum(diffs[k] * (factorial(7) // (factorial(k) * factorial(7 - k))) for k in range(7))
        assert list(interp8) == list(direct8)
        inf = raw_coefficients(None, u)
        lead = diffs[6]
        flat_inf = np.concatenate([inf.g.ravel(), inf.h.ravel(), np.array(inf.base, dtype=object)])
        for x, y in zip(lead, flat_inf):
            assert Fraction(int(x), factorial(6) * 52**6) == Fraction(int(y), 13**6)


def test_b2_equilibrium_tends_to_a1():
    alpha = Fraction(1, 20)
    target = solve_chemin(chemin_game("A1", None), alpha).nash.equilibria[0].p
    gaps = [abs(solve_chemin(chemin_game("B2", d), alpha).nash.equilibria[0].p - target) for d in (10, 100, 1000)]
    assert gaps[0] > gaps[1] > gaps[2] and gaps[2] < Fraction(1, 10**3)


@pytest.mark.parametrize("model,decks", [("B2", 1), ("B2", 6), ("B2", 8), ("B1", 6), ("A1", None)])
def test_zero_sum_lp_agrees_with_foster(model, decks):
    # At alpha = 0 the game is zero-sum: the LP over Banker's behavioural
    # strategies (HiGHS, then certified exactly) must give Foster's equilibrium.
    g = chemin_game(model, decks).at(Fraction(0))
    lp = solve_zero_sum(g)
    ns = nash_equilibria(g)
    assert lp.certified and ns.unique
    eq = ns.equilibria[0]
    assert lp.value == eq.payoff_II == -eq.payoff_I  # zero-sum
    assert lp.p == eq.p


@pytest.mark.slow
@settings(max_examples=12, deadline=None)
@given(st.integers(1, 40), st.fractions(min_value=0, max_value=Fraction(1, 10), max_denominator=1000))
def test_every_equilibrium_is_certified(d, alpha):
    sol = solve_chemin(chemin_game("B2", d), alpha)
    assert sol.nash.equilibria and not sol.nash.continua
    g = sol.game.at(alpha)
    for eq in sol.nash.equilibria:
        c = certify(g, eq.p, eq.q)
        assert c.holds
        # A deviation to either pure strategy does not help Player; Banker's
        # best reply earns no more than the equilibrium.
        assert max(c.payoff_I_by_u) == c.payoff_I and c.best_response_II == c.payoff_II


def test_certificate_rejects_a_non_equilibrium():
    g = chemin_game("B2", 6).at(Fraction(1, 20))
    eq = nash_equilibria(g).equilibria[0]
    assert not certify(g, Fraction(1, 2), eq.q).holds
    q = list(eq.q)
    q[eq.mixed[0]] = Fraction(1)
    assert not certify(g, eq.p, q).holds


def test_game_payoffs_match_the_punto_banco_engine():
    # Banker playing the punto banco tableau and Player drawing at 5 is punto
    # banco: Player's payoff is P(Player wins) - P(Banker wins), and with
    # commission 1/20 Banker's payoff is the Banker bet's EV (exact engine).
    game = chemin_game("B2", 6)
    g = game.at(Fraction(1, 20))
    q = [Fraction(int(PUNTO_BANCO.banker_draws_on(sum(h) % 10, None if k == 10 else k))) for h, k in game.keys]
    pay_player, pay_banker = g.payoffs(Fraction(1), q)
    o = coup_distribution(Shoe.decks(6)).outcomes()
    assert pay_player == o["player"] - o["banker"]
    assert pay_banker == o["banker"] * Fraction(19, 20) - o["player"]


def test_cli_solve_json_contract():
    r = runner.invoke(app, ["chemin", "solve", "--model", "B2", "--decks", "6", "--commission", "1/20", "--json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert (doc["model"], doc["decks"], doc["shoe"]["cards"]) == ("B2", 6, 312)
    assert doc["unique"] is True and doc["commission"] == "1/20" and len(doc["equilibria"]) == 1
    eq = doc["equilibria"][0]
    # Ethier and Lee (2023): for d = 6 and alpha < 0.0620017, Banker mixes at (0,6)|none only
    assert list(eq["banker"]["mixed"]) == ["(0,6)|none"]
    # The printed strategies are an equilibrium of the game's own payoffs: Banker's mixing leaves Player
    # indifferent between standing and drawing at 5, and the payoffs are those of the two strategies.
    game = chemin_game("B2", 6)
    g = game.at(Fraction(1, 20))
    (api,) = solve_chemin(chemin_game("B2", 6), Fraction(1, 20)).nash.equilibria
    labels = [k for k, x in enumerate(api.q) if 0 < x < 1]
    assert len(labels) == 1 and api.q[labels[0]] == Fraction(eq["banker"]["mixed"]["(0,6)|none"])
    p = Fraction(eq["player"]["draw_at_5"])
    stand, draw = g.payoffs(Fraction(0), api.q)[0], g.payoffs(Fraction(1), api.q)[0]
    assert stand == draw == Fraction(eq["payoff"]["player"]) == Fraction(eq["certificate"]["player_payoff_if_draw"])
    assert g.payoffs(p, api.q) == (Fraction(eq["payoff"]["player"]), Fraction(eq["payoff"]["banker"]))


def test_cli_sweep_json_contract():
    r = runner.invoke(app, ["chemin", "sweep", "--decks", "6", "--json"])
    doc = json.loads(r.stdout)
    assert (doc["curves"], doc["intersections"], doc["partial_curves"], doc["cases"], doc["exceptional_alphas"]) == (20, 23, 3, 66, 1)
    assert len(doc["intervals"]) == 2 and len(doc["table2"]) == 66


def test_cli_table4_and_table():
    r = runner.invoke(app, ["chemin", "table4", "--decks", "6,inf", "--json"])
    doc = json.loads(r.stdout)
    assert doc[0] == {"decks": 6, "a": 20, "b": 23, "c": 3, "d": 66, "e": 1} and doc[1]["decks"] == "inf"
    r = runner.invoke(app, ["chemin", "table", "--model", "A1", "--commission", "0", "--p", "1/2"])
    assert r.exit_code == 0 and "total" in r.stdout


@pytest.mark.parametrize("args,needle", [
    (["chemin", "solve", "--decks", "0"], "--decks"),
    (["chemin", "solve", "--decks", "two"], "--decks"),
    (["chemin", "solve", "--commission", "1"], "[0, 1)"),
    (["chemin", "solve", "--commission", "-1/20"], "[0, 1)"),
    (["chemin", "solve", "--commission", "x"], "--commission"),
    (["chemin", "solve", "--model", "C9"], "model must be one of"),
    (["chemin", "sweep", "--from", "1/10", "--to", "1/20"], "--from"),
    (["chemin", "table4", "--decks", "5-2"], "range"),
    (["chemin", "table", "--p", "3/2"], "--p"),
])
def test_cli_chemin_errors(args, needle):
    r = runner.invoke(app, args)
    assert r.exit_code == 2, r.output
    assert needle in r.output and "Traceback" not in r.output


@pytest.mark.slow
def test_table5_banker_moves_common_to_every_d():
    # Ethier and Lee (2023), Table 5: Banker's equilibrium moves common to all d and alpha
    # (rows Banker total 0-7, columns third card 0-9 and none; blanks vary, Table 6).
    printed = ["D" * 11, "D" * 11, "D" * 11, "DDDDDDDD DD", "S DDDDDDSSD", "SSSS DDDSSD", "SSSSSS DSS ", "S" * 11]
    result = chemin.table5(range(1, 101))
    got = ["".join(x or " " for x in row) for row in result.rows]
    assert got == printed
    assert ["".join(x or " " for x in row) for row in result.to_json()["rows"]] == printed


def test_plot_writes_an_image(tmp_path):
    out = tmp_path / "fig1.png"
    r = runner.invoke(app, ["chemin", "plot", "--decks", "6", "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    r = runner.invoke(app, ["chemin", "plot", "--out", str(tmp_path / "no" / "such" / "dir.png")])
    assert r.exit_code == 2 and "cannot write" in r.output


def test_cli_bertrand():
    r = runner.invoke(app, ["bertrand", "--json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    # Ethier (2021), (5d) and (7d): E_{1,1} = 175/((137)(13)^2) and 223/((137)(13)^2)
    assert doc["problems_5"]["1,1"]["E"]["exact"] == "175/23153"
    assert doc["badoureau_7"]["1,1"]["E"]["exact"] == "223/23153"


def test_table1_d6():
    # Ethier and Lee (2023), Table 1 (d = 6): Banker's move when it does not depend on Player's
    # strategy nor on alpha in [0, 1/10]; blanks are the undetermined cells (3,9)
    # (4,1) (5,4) (6,6) (6,none), detailed by composition in the paper.
    printed = ["D" * 11, "D" * 11, "D" * 11, "DDDDDDDDS D", "S DDDDDDSSD", "SSSS DDDSSD", "SSSSSS DSS ", "S" * 11]
    result = chemin.table1("B2", 6)
    assert ["".join(x or " " for x in row) for row in result.rows] == printed
    # the JSON contract: null where the move is not determined; the command prints the same document
    doc = result.to_json()
    assert ["".join(x or " " for x in row) for row in doc["rows"]] == printed
    assert doc["columns"][-1] == "none" and doc["table"] == "table1"
    r = runner.invoke(app, ["chemin", "table1", "--decks", "6", "--json"])
    assert r.exit_code == 0 and json.loads(r.stdout) == doc


def test_best_response_table_is_banker_best_response():
    # Each cell of the best-response table is the sign of Banker's gain from drawing at that
    # information set (every composition agreeing), recomputed here from the game directly.
    game = chemin_game("B2", 6)
    alpha, p = Fraction(1, 20), Fraction(1, 2)
    result = chemin.best_response("B2", 6, "1/20", "1/2")
    g = game.at(alpha)
    for i, (hand, third) in enumerate(game.keys):
        v = g.gain_II(i, p)
        cell = result.rows[_total(hand)][third]  # columns: third card 0-9, then none (10)
        assert cell == "*" or cell == ("D" if v > 0 else "S" if v < 0 else "M"), (hand, third)
    assert any(n.startswith("(5,4):") for n in result.notes)  # (5,4) splits by composition at p = 1/2
    assert "alpha = 1/20, p = 1/2" in repr(result) and "(5,4): (0,5) D" in result._repr_html_()
    r = runner.invoke(app, ["chemin", "table", "--commission", "1/20", "--p", "1/2", "--json"])
    assert r.exit_code == 0 and json.loads(r.stdout) == result.to_json()


def test_paper_tables_refuse_model_3_and_bad_decks():
    with pytest.raises(BaccaraError, match="model must be A1, A2, B1 or B2"):
        chemin.table1("B3", 6)
    with pytest.raises(BaccaraError, match="model must be A1, A2, B1 or B2"):
        chemin.best_response("A3", "inf")
    with pytest.raises(BaccaraError, match="decks"):
        chemin.table4([0])
    with pytest.raises(BaccaraError, match="finite"):
        chemin.table5(["inf"])
    with pytest.raises(BaccaraError, match="at least one"):
        chemin.table7([])


def test_table7_without_confirmation_says_so():
    # --no-confirm checks only the restricted game: the table must not claim confirmation
    t = chemin.table7([1], confirm=False)
    assert t.rows[0]["confirmed"] is None and "not asked" in t.summary()
    r = runner.invoke(app, ["chemin", "table7", "--decks", "1", "--no-confirm", "--json"])
    assert r.exit_code == 0 and json.loads(r.stdout) == t.to_json()


# ---------------------------------------------------------------- chemin de fer on any shoe
@pytest.mark.parametrize("d", [1, pytest.param(6, marks=pytest.mark.slow), pytest.param(8, marks=pytest.mark.slow)])
def test_a_fresh_shoe_given_as_a_composition_is_the_d_deck_game(d):
    for shoe in (Shoe.decks(d), Shoe.from_values([16 * d] + [4 * d] * 9), Shoe.from_ranks([4 * d] * 13)):
        assert chemin_game("B2", shoe) is chemin_game("B2", d)
        assert solve_chemin(chemin_game("B2", shoe), Fraction(1, 20)).to_json() == solve_chemin(chemin_game("B2", d), Fraction(1, 20)).to_json()
    assert chemin_game("B1", Shoe.infinite()) is chemin_game("A1", None)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 12), min_size=0, max_size=40), st.integers(1, 2))
def test_a_depleted_shoe_game_matches_the_punto_banco_engine(removed, d):
    # An oracle independent of the chemin kernel: with Banker on the punto banco tableau and
    # Player drawing at 5, the game's payoffs on any depleted shoe are the exact engine's.
    shoe = Shoe.decks(d)
    for r in removed:
        if shoe.rank_counts()[r] > 0 and shoe.cards > 6:
            shoe = shoe.remove(RANKS[r])
    game = chemin_game("B2", shoe)
    g = game.at(Fraction(1, 20))
    q = [Fraction(int(PUNTO_BANCO.banker_draws_on(sum(h) % 10, None if k == 10 else k))) for h, k in game.keys]
    pay_player, pay_banker = g.payoffs(Fraction(1), q)
    o = coup_distribution(shoe).outcomes()
    assert pay_player == o["player"] - o["banker"]
    assert pay_banker == o["banker"] * Fraction(19, 20) - o["player"]


def test_a_depleted_shoe_equilibrium_is_certified():
    # one deck less six 8s and 9s
    shoe = Shoe.decks(1)
    for r in "898989":
        shoe = shoe.remove(r)
    sol = solve_chemin(chemin_game("B2", shoe), Fraction(1, 20)).to_json()
    assert sol["decks"] is None and sol["shoe"] == {"kind": "composition", "cards": 46,
                                                    "values": {str(v): c for v, c in enumerate(shoe.value_counts())}}
    assert all(eq["certificate"]["holds"] for eq in sol["equilibria"])
    assert raw_coefficients(shoe.value_counts(), 0).deals == 46 * 45 * 44 * 43 * 42 * 41
    from baccara.chemin.model3 import solve_chemin3

    doc = solve_chemin3(chemin_game("B3", shoe), Fraction(1, 20), all_equilibria=True).to_json()
    assert doc["equilibria"] and all(eq["certificate"]["holds"] for eq in doc["equilibria"])


def test_cli_chemin_takes_the_shoe_options():
    from typer.testing import CliRunner

    from baccara.cli import app

    runner = CliRunner()
    fresh = runner.invoke(app, ["chemin", "solve", "--decks", "6", "--json"])
    as_values = runner.invoke(app, ["chemin", "solve", "--composition", "96,24,24,24,24,24,24,24,24,24", "--json"])
    assert fresh.exit_code == as_values.exit_code == 0
    assert json.loads(fresh.output) == json.loads(as_values.output)
    poor = runner.invoke(app, ["chemin", "solve", "--decks", "6", "--remove", "8,8,9,9,8,9", "--json"])
    doc = json.loads(poor.output)
    assert doc["shoe"]["cards"] == 306 and doc["equilibria"][0]["certificate"]["holds"]
    bad = runner.invoke(app, ["chemin", "solve", "--model", "A1", "--composition", "90,24,24,24,24,24,24,24,24,24"])
    assert bad.exit_code == 2 and "--composition" in bad.output and "--model B1" in bad.output


def test_game_at_reads_a_users_commission_and_trusts_the_solvers_fraction():
    # CheminGame.at is public: a float or a string is read as the command line reads it (0.05 is 1/20),
    # never turned into float payoffs, and a commission out of [0, 1) is refused naming alpha
    from fractions import Fraction

    from baccara import chemin
    from baccara.errors import BaccaraError

    g = chemin.game("B2", 1)
    assert g.at(0.05) == g.at("1/20") == g.at(Fraction(1, 20))
    assert all(isinstance(x, Fraction) for x in g.at(0.05).b)
    with pytest.raises(BaccaraError, match="alpha"):
        g.at(1.5)
    g3 = chemin.game("B3", 1)
    assert g3.at("5%") == g3.at(Fraction(1, 20))
