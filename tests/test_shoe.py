"""Shoes and bets as data: construction, clear errors on bad input."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from baccara import BetError, Shoe, ShoeError, builtin_bets, evaluate
from baccara.punto.bets import Bet, Rule, as_payout, bet_from_mapping, load_bets_toml


@pytest.mark.parametrize("d", [0, -1, 2.5, "8", True, None])
def test_decks_must_be_a_positive_integer(d):
    with pytest.raises(ShoeError, match="decks must be a positive integer"):
        Shoe.decks(d)


def test_counts_must_be_non_negative_integers():
    with pytest.raises(ShoeError, match="non-negative"):
        Shoe.from_ranks({"A": -1, "K": 20})
    with pytest.raises(ShoeError, match="non-negative"):
        Shoe.from_values([1.5] + [4] * 9)
    with pytest.raises(ShoeError, match="13 numbers"):
        Shoe.from_ranks([4] * 12)
    with pytest.raises(ShoeError, match="10 numbers"):
        Shoe.from_values([4] * 11)
    with pytest.raises(ShoeError, match="values are 0-9"):
        Shoe.from_values({10: 4, 1: 4})


def test_unknown_ranks_and_suits():
    with pytest.raises(ShoeError, match="unknown rank 'Z'"):
        Shoe.from_ranks({"Z": 4, "A": 4})
    with pytest.raises(ShoeError, match="unknown suit"):
        Shoe.from_cards({("A", "X"): 8})
    with pytest.raises(ShoeError, match="known only by rank"):
        Shoe.from_ranks([4] * 13).remove("A", "S")


def test_too_few_cards_for_a_coup():
    with pytest.raises(ShoeError, match="at least 6 cards"):
        Shoe.from_ranks({"A": 3, "K": 2})
    with pytest.raises(ShoeError, match="at least 6 cards"):
        Shoe.from_ranks({"A": 6}).remove("A")
    with pytest.raises(ShoeError, match="none left"):
        Shoe.from_ranks({"A": 6, "K": 2}).remove("2")


def test_infinite_shoe_cannot_be_depleted():
    with pytest.raises(ShoeError, match="infinite"):
        Shoe.infinite().remove("A")
    with pytest.raises(ShoeError, match="infinite"):
        Shoe.infinite().add("A")


def test_descriptions():
    assert Shoe.decks(8).describe()["cards"] == 416
    assert Shoe.infinite().describe()["kind"] == "infinite"
    s = Shoe.decks(1).remove("K")
    assert s.describe()["kind"] == "composition" and s.describe()["ranks"]["K"] == 3
    assert Shoe.from_values([16] + [4] * 9).describe().get("ranks") is None
    assert Shoe.from_values([16] + [4] * 9).value_counts() == Shoe.decks(1).value_counts()


@given(st.lists(st.integers(0, 40), min_size=13, max_size=13).filter(lambda c: sum(c) >= 6))
def test_rank_shoe_value_counts(counts):
    s = Shoe.from_ranks(counts)
    v = s.value_counts()
    assert v[0] == sum(counts[9:]) and v[1:] == tuple(counts[:9])
    assert s.cards == sum(counts)


@pytest.mark.parametrize("text,value", [(11, 11), ("19/20", Fraction(19, 20)), ("0.95", Fraction(19, 20)),
                                        (0.54, Fraction(27, 50)), ("push", 0), ("lose", -1)])
def test_payouts_are_exact(text, value):
    assert as_payout(text, "pays") == value


@pytest.mark.parametrize("bad", ["lots", True, None, "1/0"])
def test_bad_payouts(bad):
    with pytest.raises(BetError, match="must be a number"):
        as_payout(bad, "pays")


def test_bet_needing_suits_on_a_rank_shoe_is_refused():
    perfect = Bet("perfect", (Rule.make(25, player_suited_pair=True),))
    assert perfect.resolution == "suit"
    with pytest.raises(BetError, match="known by suit"):
        evaluate(Shoe.from_ranks([4] * 13), [perfect])


def test_bad_commission_and_tie():
    with pytest.raises(BetError, match=r"commission must be in \[0, 1\)"):
        builtin_bets(commission=1)
    with pytest.raises(BetError, match="tie pays must be positive"):
        builtin_bets(tie_pays=0)


def test_toml_bet_equals_builtin(tmp_path):
    f = tmp_path / "b.toml"
    f.write_text(
        '[bets.my_dragon7]\nrules = [ { when = { winner = "banker", banker_cards = 3, banker_total = 7 }, pays = 40 } ]\n'
    )
    mine = load_bets_toml(f)["my_dragon7"]
    shoe = Shoe.decks(8).remove("7")
    assert evaluate(shoe, [mine])["my_dragon7"].edge == evaluate(shoe, builtin_bets())["dragon7"].edge


def test_rules_are_first_match():
    b = bet_from_mapping("x", {"rules": [{"when": {"winner": "tie"}, "pays": 0}, {"when": {"natural": True}, "pays": 1}]})
    r = evaluate(Shoe.decks(2), [b])["x"]
    # A natural tie pushes (first rule), not pays.
    from baccara import coup_distribution

    d = coup_distribution(Shoe.decks(2))
    assert r.p_win == d.probability(natural=True) - d.probability(natural=True, winner="tie")
