"""The parameter layer: one reading of every number, one error for every bad one."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import baccara.banque
import baccara.chemin
from baccara import params
from baccara.errors import BaccaraError, BetError
from baccara.punto.bets import Bet, Rule, bet_from_mapping, builtin_bets
from baccara.workload import check_workload, format_duration

from .budget import examples


@given(st.decimals(min_value=-10**6, max_value=10**6, allow_nan=False, allow_infinity=False, places=6))
def test_a_float_is_the_decimal_it_prints(d):
    x = float(d)
    assert params.rational(x, "x") == Fraction(repr(x))
    assert params.rational(repr(x), "x") == params.rational(x, "x")


def test_commission_floats_agree_across_the_library():
    # the issue: 0.05 became 3602879701896397/72057594037927936 in one function and 1/20 in another
    assert params.commission(0.05) == Fraction(1, 20)
    assert builtin_bets(commission=0.05)["banker"] == builtin_bets(commission="1/20")["banker"]
    assert params.theta(0.1) == Fraction(1, 10)
    assert baccara.banque.correlated(0.1).theta == baccara.banque.correlated("1/10").theta == Fraction(1, 10)
    assert params.commission("5%") == Fraction(1, 20)
    assert baccara.chemin.solve("B2", 6, 0.05).to_json() == baccara.chemin.solve("B2", 6, Fraction(1, 20)).to_json()


@pytest.mark.parametrize("value", [float("nan"), float("inf"), "inf", "nan", "-inf", "1e400", "1/0", "", "x", True,
                                   None, "1e99999999", "9" * 200, [1]])
def test_non_numbers_are_refused_naming_the_parameter(value):
    with pytest.raises(BaccaraError, match="--thing must be a number"):
        params.rational(value, "--thing")


@given(st.fractions())
def test_range_errors_name_the_range(x):
    inside = 0 <= x < 1
    try:
        assert params.commission(x, "--commission") == x
        assert inside
    except BaccaraError as e:
        assert not inside
        assert "--commission must be in [0, 1)" in str(e)


@pytest.mark.parametrize("text,n", [("12", 12), ("1_000_000", 10**6), ("1e6", 10**6), (" 7 ", 7), (8, 8)])
def test_integer_forms(text, n):
    assert params.integer(text, "n") == n


@pytest.mark.parametrize("text", ["2.5", "1e-3", "x", "", "inf", "nan", True, "1e99999999"])
def test_integer_refuses(text):
    with pytest.raises(BaccaraError, match="--n must be"):
        params.integer(text, "--n", lo=1)


def test_integer_range_words():
    with pytest.raises(BaccaraError, match="positive whole number"):
        params.integer(0, "--n", lo=1)
    with pytest.raises(BaccaraError, match="non-negative whole number"):
        params.integer(-1, "--n", lo=0)
    with pytest.raises(BaccaraError, match="from 2 to 5"):
        params.integer(6, "--n", lo=2, hi=5)


def test_decks():
    assert params.decks("inf") is None and params.decks("8") == 8
    with pytest.raises(BaccaraError, match="finite"):
        params.decks("inf", infinite=False)
    with pytest.raises(BaccaraError, match="from 1 to 100"):
        params.decks("101", hi=100)


@pytest.mark.parametrize("pays", [float("inf"), float("nan"), 1e400, "1e400", 10**10, -2])
def test_payouts_out_of_range_are_refused(pays):
    with pytest.raises(BetError, match="pays"):
        Rule.make(pays, winner="tie")


@pytest.mark.parametrize("when,needle", [
    ({"banker_total": 12}, "banker_total takes the integers 0-9"),
    ({"total_cards": [1, 2]}, "total_cards takes the integers 4-6"),
    ({"player_cards": 2, "total_cards": 6}, "can never hold"),
    ({"player_natural": True, "player_cards": 3}, "can never hold"),
])
def test_impossible_conditions_are_refused(when, needle):
    with pytest.raises(BetError, match=needle):
        bet_from_mapping("x", {"rules": [{"when": when, "pays": 5}]})


def test_a_rule_shadowed_by_earlier_rules_is_refused():
    with pytest.raises(BetError, match="rule 2: never applies"):
        Bet("x", (Rule.make(1, winner="tie"), Rule.make(8, winner="tie", margin=0)))


def test_every_builtin_bet_passes_the_rule_check():
    for bet in builtin_bets().values():
        bet.check_rules()


def test_output_file(tmp_path):
    assert params.output_file(tmp_path / "a.png", "--out", params.IMAGE_SUFFIXES) == tmp_path / "a.png"
    for bad, needle in [("", "needs a file name"), (tmp_path / "a.txt", "ending in"),
                        (tmp_path / "no" / "a.png", "does not exist")]:
        with pytest.raises(BaccaraError, match=needle):
            params.output_file(bad, "--out", params.IMAGE_SUFFIXES)
    (tmp_path / "d.png").mkdir()
    with pytest.raises(BaccaraError, match="is a folder"):
        params.output_file(tmp_path / "d.png", "--out", params.IMAGE_SUFFIXES)


def test_workload_limit():
    said: list[str] = []
    check_workload("job", 60, False, "ask for less", said.append)
    assert said == ["job: about 60 s (estimated)"]
    with pytest.raises(BaccaraError, match="about 2.8 h, more than the 60 min allowed without --allow-long"):
        check_workload("job", 10_000, False, "ask for less")
    check_workload("job", 10_000, True, "ask for less")
    assert format_duration(3 * 86400) == "3.0 days" and format_duration(30) == "30 s"


@settings(max_examples=examples(50), deadline=None)
@given(st.floats(min_value=0, max_value=1e12))
def test_format_duration_never_fails(s):
    assert format_duration(s)


def test_decks_or_shoe_serves_every_game_facade():
    from baccara import Shoe, banque, chemin, macao
    from baccara.params import decks_or_shoe

    one = Shoe.decks(1)
    assert decks_or_shoe(None, one) is one and decks_or_shoe("8", None) == 8
    assert decks_or_shoe(None, None) is None and decks_or_shoe(None, None, default=6) == 6
    for build in (banque.game, chemin.game, macao.game):
        with pytest.raises(BaccaraError, match="give decks or shoe, not both"):
            build(decks=1, shoe=one)
        with pytest.raises(BaccaraError, match="shoe must be a baccara.Shoe, got str"):
            build(shoe="1")
