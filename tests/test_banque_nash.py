"""Baccara banque's Nash equilibrium, simplified model (Ethier and Lee 2015, section 5)."""

import json
from fractions import Fraction as F

import pytest
from typer.testing import CliRunner

from baccara.banque.model import banque_game, infoset_label
from baccara.banque.nash_eq.solution import BanqueNashEquilibrium, certify, extreme_mixtures, nash_equilibria
from baccara.cli import app

runner = CliRunner()
NINE_ELEVENTHS = F(9, 11)


@pytest.fixture(scope="module")
def half():
    return nash_equilibria(banque_game(), F(1, 2))


def _mixed(e):
    g = banque_game()
    return {infoset_label(g.infosets[i]): e.draw[i] for i in e.mixed}


def test_half_players_and_banker_gain(half):
    # Ethier and Lee (2015), section 5: p1 = p2 = 9/11; Banker indifferent at (10,10,6), (10,11,6),
    # (11,10,6); Banker's gain 11138203216 / (11^2 13^9) per unit stake.
    assert {(e.p1, e.p2) for e in half.equilibria} == {(NINE_ELEVENTHS, NINE_ELEVENTHS)}
    assert all(e.banker == F(11138203216, 11**2 * 13**9) for e in half.equilibria)
    assert [sorted(infoset_label(banque_game().infosets[i]) for i in Z) for *_, Z in half.points] == [
        ["(10,10,6)", "(10,11,6)", "(11,10,6)"]]


def test_half_two_behavioural_extreme_points(half):
    # "... there are only two extreme points, namely (0, 6715965/10469888, 6715965/10469888)
    # and (2238655/3807232, 0, 0)" on (10,10,6), (10,11,6), (11,10,6).
    r = F(6715965, 10469888)
    found = {tuple(_mixed(e)[k] for k in ("(10,10,6)", "(10,11,6)", "(11,10,6)")) for e in half.equilibria}
    assert found == {(0, r, r), (F(2238655, 3807232), 0, 0)}
    assert all(certify(F(1, 2), e).holds for e in half.equilibria)


def test_half_summary_says_what_it_counts(half):
    # The two counts are of different things: vertices in behavioural strategies (the two above) and
    # Banker's mixed strategies over his pure choices (the paper's eleven, below).
    line = half.summary()
    assert "1 pair of Players' strategies" in line
    assert "2 extreme equilibria in behavioural strategies, 11 in Banker's mixed strategies" in line


def test_half_eleven_extreme_equilibria():
    # Ethier and Lee's (2015) list of the 11 extreme Nash equilibria: Banker's mixtures over SSS, SSD,
    # SDS, SDD, DSS, DSD, DDS, DDD on (10,10,6), (10,11,6), (11,10,6).
    paper = {
        (0, F(15175619, 33313280), F(15175619, 33313280), 0, 0, 0, 0, F(1481021, 16656640)),
        (0, F(1, 2), F(4229827, 11421696), 0, 0, 0, F(1481021, 11421696), 0),
        (0, F(4229827, 11421696), F(1, 2), 0, 0, F(1481021, 11421696), 0, 0),
        (0, F(4705731, 12373504), F(4705731, 12373504), 0, F(1481021, 6186752), 0, 0, 0),
        (0, F(3753923, 10469888), F(3753923, 10469888), F(1481021, 5234944), 0, 0, 0, 0),
        (F(15175619, 21891584), 0, 0, 0, 0, 0, 0, F(6715965, 21891584)),
        (F(1988135, 3331328), 0, 0, 0, 0, F(1343193, 6662656), F(1343193, 6662656), 0),
        (F(1568577, 3807232), 0, 0, 0, F(2238655, 3807232), 0, 0, 0),
        (F(3753923, 10469888), 0, 0, F(6715965, 10469888), 0, 0, 0, 0),
        (F(4229827, 10945792), 0, F(6715965, 21891584), 0, 0, F(6715965, 21891584), 0, 0),
        (F(4229827, 10945792), F(6715965, 21891584), 0, 0, 0, 0, F(6715965, 21891584), 0),
    }
    g = banque_game()
    Z = tuple(g.infosets.index(k) for k in ((10, 10, 6), (10, 11, 6), (11, 10, 6)))
    mixtures = extreme_mixtures(F(1, 2), NINE_ELEVENTHS, NINE_ELEVENTHS, Z)
    assert mixtures[0][0] == ("SSS", "SSD", "SDS", "SDD", "DSS", "DSD", "DDS", "DDD")
    assert {tuple(v) for _, v in mixtures} == paper


@pytest.mark.slow
def test_same_equilibria_right_of_theta_star(half):
    # "the same Nash equilibria apply on the interval (theta_*, 1/2] for theta_* = 799/1604"
    near = nash_equilibria(banque_game(), F(799, 1604) + F(1, 10**5))
    assert {(e.p1, e.p2, e.draw) for e in near.equilibria} == {(e.p1, e.p2, e.draw) for e in half.equilibria}


@pytest.mark.slow
def test_players_nine_elevenths_exactly_above_5772_over_33847():
    # p1 = p2 = 9/11 for theta > 5772/33847 ~ 0.170532, not below it.
    above = nash_equilibria(banque_game(), F(5772, 33847) + F(1, 10**4))
    assert {(e.p1, e.p2) for e in above.equilibria} == {(NINE_ELEVENTHS, NINE_ELEVENTHS)}
    below = nash_equilibria(banque_game(), F(1, 10))
    assert below.equilibria and all((e.p1, e.p2) != (NINE_ELEVENTHS, NINE_ELEVENTHS) for e in below.equilibria)
    assert all(certify(F(1, 10), e).holds for e in below.equilibria)


def test_player1_expectation_in_interval_1():
    # Ethier and Lee (2015): on interval 1 (0 < theta < 0.0172597) Player 1's expectation per unit he
    # bets is 928 (53214419 - 33787088 theta) / (116649493103 (89 - 68 theta)), p1 = 0.
    theta = F(1, 100)
    sol = nash_equilibria(banque_game(), theta)
    assert sol.equilibria
    for e in sol.equilibria:
        assert e.p1 == 0
        assert e.result1 == F(928 * (53214419 - 33787088 * theta), 116649493103 * (89 - 68 * theta))


@pytest.mark.slow
def test_symmetry_theta_one_minus_theta():
    a, b = nash_equilibria(banque_game(), F(3, 10)), nash_equilibria(banque_game(), F(7, 10))
    assert sorted((e.p1, e.p2) for e in a.equilibria) == sorted((e.p2, e.p1) for e in b.equilibria)
    assert {e.banker for e in a.equilibria} == {e.banker for e in b.equilibria}


def test_certificate_fails_for_a_perturbed_strategy(half):
    e = half.equilibria[0]
    bad = BanqueNashEquilibrium(e.p1, F(1, 2), e.draw, e.mixed, e.result1, e.result2, e.banker)
    assert not certify(F(1, 2), bad).holds


def test_cli_nash_json():
    r = runner.invoke(app, ["banque", "solve", "--theta", "1/2", "--concept", "nash", "--json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert doc["concept"] == "nash" and doc["players"] == [{"p1": {"exact": "9/11", "float": 9 / 11},
                                                            "p2": {"exact": "9/11", "float": 9 / 11}}]
    assert len(doc["points"][0]["banker_extreme_mixtures"]) == 11
    assert all(e["certificate"]["holds"] for e in doc["equilibria"])
    r = runner.invoke(app, ["banque", "solve", "--theta", "1/2", "--concept", "nash", "--model", "recent"])
    assert r.exit_code == 2 and "error:" in r.output


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=3, deadline=None)
@given(st.fractions(F(1, 1000), F(999, 1000), max_denominator=1000))
def test_an_equilibrium_always_found_and_certified(theta):
    # A finite game has a Nash equilibrium (Nash 1950): the enumeration must find one, and
    # each one found passes the certificate on the full 1144-set game.
    sol = nash_equilibria(banque_game(), theta)
    assert sol.equilibria
    assert all(certify(theta, e).holds for e in sol.equilibria)


@pytest.mark.slow
def test_nine_elevenths_above_5772_over_33847_exactly():
    # Ethier and Lee (2015), section 5: the equilibria at theta = 1/2 hold on (799/1604, 1/2]; "We can
    # repeat this process 40 times.  In each new interval the Players' strategy is the same
    # (p1 = p2 = 9/11) ... This determines the Nash equilibria for all theta > 5772/33847.
    # At the next interval there is no mixture q satisfying the required properties."
    from baccara.banque.nash_eq.solution import (
        nash_upper_sweep,
        nine_elevenths_breaks,
        nine_elevenths_equilibrium_exists,
    )

    doc = nash_upper_sweep()
    assert doc["range"][0] == "5772/33847" and doc["count"] == 41
    assert doc["intervals"][-1]["from"]["exact"] == "799/1604"
    below = max(t for t in nine_elevenths_breaks() if t < F(5772, 33847))
    assert not nine_elevenths_equilibrium_exists((below + F(5772, 33847)) / 2)


@pytest.mark.parametrize("theta", [F(1, 10**6), F(999999, 10**6)], ids=str)
def test_equilibrium_certified_near_theta_0_and_1(theta):
    # Outside the property's range: the Player with almost all the stake plays chemin de fer against
    # Banker, drawing at 5 with probability near Model A1's 9/11 (Kemeny and Snell 1957).
    sol = nash_equilibria(banque_game(), theta)
    assert sol.equilibria and all(certify(theta, e).holds for e in sol.equilibria)
    main = {e.p1 if theta > F(1, 2) else e.p2 for e in sol.equilibria}
    assert len(main) == 1 and abs(main.pop() - F(9, 11)) < F(1, 10**5)


def test_cells_thinner_than_any_float_are_seen():
    from fractions import Fraction

    # two horizontal curves 1e-15 apart bound a cell no float decomposition resolves; the exact
    # one lists all three cells, and the thin cell's candidate point (1/4, 1/4), where Banker
    # draws only at the upper curve's set: Delta1 = 1 + (-2 + 4 p2), Delta2 = 1 + (-2 + 4 p1)
    from types import SimpleNamespace

    from baccara.banque.nash_eq.solution import BanqueNashSet, _cell_points
    from baccara.solve.arrangement import arrangement

    eps = Fraction(1, 10**15)
    curves = [(Fraction(-1, 2), 0, 1, 0), (-(Fraction(1, 2) + eps), 0, 1, 0)]
    setup = SimpleNamespace(curves=curves, d1=(1, 0), d2=(1, 0), e1=[(5, 0), (-2, 4)], e2=[(5, 0), (-2, 4)])
    out = BanqueNashSet(Fraction(1, 2))
    found = _cell_points(setup, arrangement(curves), out)
    assert out.cells == 3
    assert found == [(Fraction(1, 4), Fraction(1, 4))]
