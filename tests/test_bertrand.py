"""Ethier (2021) (Ethier, "A note on Bertrand's analysis of baccarat"): published values, reproduced exactly.

Expected values typed in below are the paper's published numbers (cited by
equation or section); everything compared with them is computed.
"""

import json
from decimal import Decimal
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from baccara.chemin.bertrand1888 import (
    BADOUREAU_D1_ERRORS,
    STOOD,
    audit_banker_table,
    badoureau_d1,
    badoureau_problems,
    banker_expectations,
    banker_table,
    bertrand_problems,
    bertrand_report,
    bertrand_text,
    column_weight,
    conditional_table,
    differences,
    flip,
    half_problems,
    player_five,
    punto_banco_table,
    third_card,
    two_card,
)
from baccara.chemin.model import chemin_game
from baccara.rules import PUNTO_BANCO
from baccara.solve.additive import nash_equilibria

N = STOOD  # column "none": Player stood
A, B = 137 * 13, 137 * 13**2  # the paper's denominators (137)(13) and (137)(13)^2

# Section 2: D0 as printed (the printed D1 is garbled in the extracted text, 9 rows).
D0_PRINTED = (
    (1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1),
    (1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1),
    (1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1),
    (1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 1),
    (0, 0, 1, 1, 1, 1, 1, 1, 0, 0, 1),
    (0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 1),
    (0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0),
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
)
# Section 2: "D0 and D1 differ at four entries: (3,9), (4,1), (5,4), (6, none); D0 has a 0, D1 a 1".
D0_D1_DIFF = ((3, 9), (4, 1), (5, 4), (6, N))

# (5a)-(5d): {(u, v): (W, T, E)}.
EQ5 = {
    (0, 0): (Fraction(792, A), Fraction(153, A), Fraction(-44, A)),
    (0, 1): (Fraction(10352, B), Fraction(2928, B), Fraction(479, B)),
    (1, 0): (Fraction(872, A), Fraction(169, A), Fraction(132, A)),
    (1, 1): (Fraction(10176, B), Fraction(2976, B), Fraction(175, B)),
}
# (6a)-(6d): the same to six decimals.
EQ6 = {
    (0, 0): ("0.444694", "0.085907", "-0.024705"),
    (0, 1): ("0.447113", "0.126463", "0.020688"),
    (1, 0): ("0.489613", "0.094891", "0.074116"),
    (1, 1): ("0.439511", "0.128536", "0.007558"),
}
# (7a)-(7d): Badoureau (1881); (7a)-(7c) equal (5a)-(5c).
EQ7 = {**EQ5, (1, 1): (Fraction(10288, B), Fraction(2800, B), Fraction(223, B))}
# (8a)-(8d): Bertrand (1888), six decimals.
EQ8 = {
    (0, 0): ("0.444694", "0.085907", "-0.024705"),
    (0, 1): ("0.447113", "0.126463", "0.020689"),
    (1, 0): ("0.489612", "0.094890", "0.074114"),
    (1, 1): ("0.444348", "0.120935", "0.009631"),
}


def wte(o):
    return (o.W, o.T, o.E)


def truncate6(x: Fraction) -> Decimal:
    """x truncated (toward zero) to six decimals."""
    return Decimal(int(x * 10**6)) / 10**6


def round6(x: Fraction) -> Decimal:
    return Decimal(round(x * 10**6)) / 10**6


# ---------------------------------------------------------------- section 2: p, q, D0, D1


def test_card_distributions_sum_to_one():
    # Section 2: p(i) = (1 + 3 delta_{i,0})/13, q(j) = (16 + 9 delta_{j,0})/13^2.
    assert sum(third_card(i) for i in range(10)) == 1
    assert sum(two_card(j) for j in range(10)) == 1
    # Section 3: the 89 : 105 and (137 - 89) : (137 - 105) weights; 137 = 169 q(0..7).
    assert [column_weight(u, 0) * 169 for u in (0, 1)] == [89, 105]
    assert [column_weight(u, N) * 169 for u in (0, 1)] == [137 - 89, 137 - 105]
    assert sum(two_card(j) for j in range(8)) * 169 == 137


def test_d0_is_the_printed_matrix():
    # Section 2, D0 as printed.
    assert banker_table(0) == D0_PRINTED


def test_d0_d1_differ_exactly_at_four_cells():
    # Section 2: the four cells, with D0 = 0 and D1 = 1 there.
    d0, d1 = banker_table(0), banker_table(1)
    assert differences(d0, d1) == D0_D1_DIFF
    assert all(d0[j][k] == 0 and d1[j][k] == 1 for j, k in D0_D1_DIFF)
    assert d1 == flip(D0_PRINTED, D0_D1_DIFF)


def test_badoureau_rules_state_d0():
    # Section 3: Badoureau's four rules for D0 (third card "given": 0-9; none: Player stood).
    def rule(j, k):
        if j <= 2:
            return 1  # 1. always draw at 0, 1, 2
        if j == 7:
            return 0  # 2. always stand at 7
        if k == N:
            return int(j <= 5)  # 3. before a player who stands, draw at 3, 4, 5, stand at 6
        return int(  # 4. before a player who has taken a card
            (j == 3 and k not in (8, 9))
            or (j == 4 and k not in (8, 9, 0, 1))
            or (j == 5 and k in (5, 6, 7))
            or (j == 6 and k in (6, 7))
        )

    assert banker_table(0) == tuple(tuple(rule(j, k) for k in range(11)) for j in range(8))


def test_half_table_is_punto_banco():
    # Section 3: D_{1/2} = D0 except for 1s at (3,9) and (5,4); it is punto banco's mandatory tableau.
    d_half = banker_table(Fraction(1, 2))
    assert differences(banker_table(0), d_half) == ((3, 9), (5, 4))
    assert d_half == tuple(tuple(int(x) for x in row) for row in PUNTO_BANCO.banker_draws)
    assert d_half == punto_banco_table()


@pytest.mark.parametrize("p", [Fraction(0), Fraction(1, 3), Fraction(1, 2), Fraction(9, 11), Fraction(1)])
def test_conditional_expectations_agree_with_the_game(p):
    # Equations (1)-(2), weighted as in section 3, give the game's best response.
    assert conditional_table(p) == banker_table(p)


def test_joint_gains_are_reach_probability_times_conditional_difference():
    # g^u_{j,k} = P(reach (j,k) | u) (b_{u,1} - b_{u,0}) with b from (1)-(2).
    cg = chemin_game("A1", None)
    game = cg.at(0)
    assert len(cg.keys) == 88
    for i, (j, k) in enumerate(cg.keys):
        for u in (0, 1):
            stand, draw = banker_expectations(u, j, k)
            reach = two_card(j) * (1 if k == N else third_card(k)) * column_weight(u, k)
            assert game.g[i][u] == reach * (draw - stand)


# ---------------------------------------------------------------- (5), (6): the four problems


@pytest.mark.parametrize("uv", list(EQ5))
def test_equation_5(uv):
    # (5a)-(5d).
    assert wte(bertrand_problems()[uv]) == EQ5[uv]


@pytest.mark.parametrize("uv", list(EQ6))
def test_equation_6_is_5_rounded(uv):
    # (6a)-(6d): the fractions of (5) to six decimals.
    got = tuple(round6(x) for x in wte(bertrand_problems()[uv]))
    assert got == tuple(Decimal(s) for s in EQ6[uv])


@pytest.mark.parametrize("table", ["D0", "D1", "badoureau", "punto_banco"])
def test_outcome_identities_and_game_consistency(table):
    # Section 2: E = W - L = 2W + T - 1 (f = sgn), and Badoureau's C = W + T/2 with E = 2C - 1.
    tables = {"D0": banker_table(0), "D1": banker_table(1), "badoureau": badoureau_d1(), "punto_banco": punto_banco_table()}
    t = tables[table]
    outs = [player_five(t, v) for v in (0, 1)]
    for o in outs:
        assert 0 <= o.W <= 1 and 0 <= o.T <= 1 and o.W + o.T + o.L == 1
        assert o.E == o.W - o.L == 2 * o.W + o.T - 1 == 2 * o.C - 1
    # The whole-coup game: Player's gain from drawing at 5 against the fixed table is
    # P(Player 5, Banker 0-7) (E_{.,1} - E_{.,0}), with P = q(5) * 137/169.
    game, keys = chemin_game("A1", None).at(0), chemin_game("A1", None).keys
    q = [Fraction(t[j][k]) for j, k in keys]
    diff = game.payoffs(Fraction(1), q)[0] - game.payoffs(Fraction(0), q)[0]
    assert diff == two_card(5) * Fraction(137, 169) * (outs[1].E - outs[0].E)


# ---------------------------------------------------------------- section 3: Badoureau, Bertrand, Dormoy


def test_badoureau_errors_reproduce_7():
    # Section 3: D1 changed at (4,1), (4,9), (6,6) gives (7a)-(7d) exactly.
    assert differences(banker_table(1), badoureau_d1()) == BADOUREAU_D1_ERRORS
    probs = badoureau_problems()
    for uv, expected in EQ7.items():
        assert wte(probs[uv]) == expected
    assert wte(probs[1, 1]) != EQ5[1, 1]  # (7d) differs from (5d)


def test_bertrand_8_is_badoureau_7_at_six_decimals():
    # Section 3: (8a)-(8d) match (7a)-(7d) "ignoring rounding errors in the sixth decimal place".
    probs = badoureau_problems()
    for uv, printed in EQ8.items():
        w, t, e = (Decimal(s) for s in printed)
        exact_w, exact_t, exact_e = wte(probs[uv])
        assert abs(Fraction(w) - exact_w) < Fraction(1, 10**6)
        assert abs(Fraction(t) - exact_t) < Fraction(1, 10**6)
        # Bertrand's E (from his L) is 2W + T - 1 of his printed W and T.
        assert e == 2 * w + t - 1
        assert abs(Fraction(e) - exact_e) < Fraction(3, 10**6)
    # (8d) matches (7d), not (5d).
    w, t, e = (Fraction(Decimal(s)) for s in EQ8[1, 1])
    true = wte(bertrand_problems()[1, 1])
    assert abs(w - true[0]) > Fraction(1, 1000) and abs(t - true[1]) > Fraction(1, 1000)


def test_bertrand_0_009631_truncates_223_over_23153():
    # (7d), (8d); Ethier's note: Bertrand's 0.009631 is a truncation of 223/23153.
    e = badoureau_problems()[1, 1].E
    assert e == Fraction(223, 23153) and 137 * 13**2 == 23153
    assert truncate6(e) == Decimal("0.009631")
    assert round6(e) == Decimal("0.009632")


def test_dormoy_5_4():
    # Section 3: at (5,4), Banker assuming Player stands: standing -299/1157, drawing -300/1157.
    stand, draw = banker_expectations(0, 5, 4)
    assert (stand, draw) == (Fraction(-299, 1157), Fraction(-300, 1157))
    assert banker_table(0)[5][4] == 0  # drawing is (barely) worse: D0 stands


def test_dormoy_two_decimals():
    # Section 3: Dormoy's E00 ~ -0.02 is right; his E11 ~ 0.02 "should have been 0.01".
    probs = bertrand_problems()
    assert round(probs[0, 0].E, 2) == Fraction(-2, 100)
    assert round(probs[1, 1].E, 2) == Fraction(1, 100) != Fraction(2, 100)


def test_dormoy_unweighted_average_and_the_weighted_one():
    # Section 3: Dormoy compares (b_{0,v} + b_{1,v})/2; the correct weights are 89 : 105 and
    # (137 - 89) : (137 - 105).  With replacement both give D_{1/2} here.
    assert conditional_table(Fraction(1, 2), weighted=True) == banker_table(Fraction(1, 2))
    assert conditional_table(Fraction(1, 2), weighted=False) == banker_table(Fraction(1, 2))


def test_badoureau_averages_and_half_table():
    # Section 3: (E00 + E10)/2 = 44/((137)(13)), (E01 + E11)/2 = 351/((137)(13)^2) (Badoureau's E11),
    # while D_{1/2} gives E_{1/2,0} = -44/((137)(13)), E_{1/2,1} = 287/((137)(13)^2).
    bad = badoureau_problems()
    assert (bad[0, 0].E + bad[1, 0].E) / 2 == Fraction(44, A)
    assert (bad[0, 1].E + bad[1, 1].E) / 2 == Fraction(351, B)
    half = half_problems()
    assert (half[0].E, half[1].E) == (Fraction(-44, A), Fraction(287, B))


# ---------------------------------------------------------------- audit of Banker tables


def test_audit_of_equilibrium_and_pure_tables():
    game = chemin_game("A1", None).at(0)
    eq = nash_equilibria(game).equilibria
    assert len(eq) == 1
    value = eq[0].payoff_II
    for t in (banker_table(0), banker_table(1), punto_banco_table(), badoureau_d1()):
        a = audit_banker_table(t)
        assert a.optimum == value and a.cost >= 0  # minimax theorem
        assert a.value == min(a.banker)  # zero-sum: Player's best reply is Banker's worst
        assert a.player == (-a.banker[0], -a.banker[1])
    # (5a)-(5d): E01 > E00 and E10 > E11, so against D_u Player's best reply is the other u.
    assert audit_banker_table(banker_table(0)).response == 1
    assert audit_banker_table(banker_table(1)).response == 0
    # Badoureau's errors cost Banker more than the true D1 (equally exploited by standing).
    assert audit_banker_table(badoureau_d1()).cost > audit_banker_table(banker_table(1)).cost


def test_audit_accepts_bools_and_rejects_bad_shapes():
    a = audit_banker_table(PUNTO_BANCO.banker_draws, Fraction(1, 20))
    assert a.alpha == Fraction(1, 20) and a.value == a.banker[a.response]
    with pytest.raises(ValueError):
        audit_banker_table([[1] * 11] * 7)
    with pytest.raises(ValueError):
        audit_banker_table([[2] * 11] * 8)


def test_report_is_json_and_text_names_the_results():
    rep = bertrand_report()
    json.dumps(rep)
    # (5d) 175/((137)(13)^2), (7d) 223/((137)(13)^2), section 2 and 3 difference sets.
    assert rep["problems_5"]["1,1"]["E"]["exact"] == "175/23153"
    assert rep["badoureau_7"]["1,1"]["E"]["exact"] == "223/23153"
    assert rep["differences"]["D0_vs_D1"] == ["3|9", "4|1", "5|4", "6|none"]
    assert rep["differences"]["D1_vs_badoureau_D1"] == ["4|1", "4|9", "6|6"]
    assert rep["differences"]["D_half_vs_punto_banco"] == []
    text = bertrand_text()
    assert "223/(137*13^2)" in text and "6|none" in text


def test_bertrand_result_is_the_report_and_the_command_prints_it():
    from baccara import chemin
    from baccara.cli import app

    result = chemin.bertrand()
    doc = result.to_json()
    assert "arXiv:2107.00198" in doc["source"]
    # Ethier (2021), (5d) and (7d): E_{1,1} = 175/((137)(13)^2) and 223/((137)(13)^2), and the W, T of (5d)
    e5, e7 = doc["problems_5"]["1,1"], doc["badoureau_7"]["1,1"]
    assert (e5["W"]["exact"], e5["T"]["exact"], e5["E"]["exact"]) == ("10176/23153", "2976/23153", "175/23153")
    assert e7["E"]["exact"] == "223/23153" and 137 * 13**2 == 23153
    assert "175/23153" in repr(result)
    r = CliRunner().invoke(app, ["bertrand", "--json"])
    assert r.exit_code == 0 and json.loads(r.stdout) == json.loads(json.dumps(doc))
