"""Edge sorting: the patterns partition the coups, the advantage obeys its identities, and published figures come out."""

from fractions import Fraction

import pytest

from baccara import BaccaraError, Shoe, builtin_bets, evaluate
from baccara.cards import RANKS
from baccara.punto.edgesort import EdgeSortAnalysis, best_sorting, edge_sort, sortings
from baccara.punto.known import Known, parse_ranks
from baccara.punto.reference import reference_counts

MAIN = {n: builtin_bets()[n] for n in ("banker", "player", "tie")}


@pytest.mark.parametrize("cards", [1, 2, 3, 4])
def test_patterns_partition_the_coups(cards):
    shoe = Shoe.decks(6).remove("9", n=7).remove("2", n=3)
    a = edge_sort(shoe, "6,7,8,9", cards)
    assert len(a.patterns) == 2**cards
    assert sum(g.probability for g in a.patterns) == 1
    whole = evaluate(shoe)
    for name, r in whole.items():  # the law of total expectation, exactly
        assert sum(g.probability * g.results[name].ev for g in a.patterns) == r.ev


def test_advantage_identities():
    shoe = Shoe.decks(8)
    a = edge_sort(shoe, "7,8,9", 2, MAIN)
    assert a.per_bet * a.bet_frequency == a.advantage
    plain = evaluate(shoe, MAIN)
    assert a.advantage >= max(Fraction(0), *(r.ev for r in plain.values()))  # knowing more never hurts
    assert a.player_or_banker >= max(plain["banker"].ev, plain["player"].ev)
    assert 0 < a.bet_frequency < 1


def test_a_sorting_and_its_complement_are_the_same_two_classes():
    shoe = Shoe.decks(8)
    a, b = edge_sort(shoe, "6,7,8,9", 2), edge_sort(shoe, "A,2,3,4,5,0", 2)
    assert a.advantage == b.advantage and a.player_or_banker == b.player_or_banker
    swap = str.maketrans("SO", "OS")
    by_pattern = {g.pattern.translate(swap): g for g in b.patterns}
    for g in a.patterns:
        assert g.probability == by_pattern[g.pattern].probability


def test_patterns_agree_with_the_reference_enumerator():
    shoe = Shoe.decks(1).remove("6").remove("K", n=2)
    a = edge_sort(shoe, "6,7,8,9", 4, MAIN)
    for g in a.patterns:
        known = Known(tuple(parse_ranks("6,7,8,9") if c == "S" else frozenset(range(13)) - parse_ranks("6,7,8,9")
                            for c in g.pattern) + (None, None))
        counts, _ = reference_counts(shoe, known=known)
        assert sum(counts.values()) == g.deals


# ---------------------------------------------------------------- published figures
def test_jacobson_one_card_player_or_banker():
    # E. Jacobson, "Edge Sorting in Baccarat" (2012): 8 decks, High = 6-9, Low = the rest, the top card read,
    # Player bet on High and Banker on Low: an edge of 6.765% over the house.
    a = edge_sort(Shoe.decks(8), "6,7,8,9", 1, MAIN)
    assert round(float(a.player_or_banker) * 100, 3) == 6.765
    assert [g.player_or_banker()[0] for g in a.patterns] == ["player", "banker"]


def test_jacobson_four_cards():
    # Jacobson (2012): the same sort, the first four cards read: 20.928%, betting the best of
    # Banker, Player and Tie when it is positive.
    a = edge_sort(Shoe.decks(8), "6,7,8,9", 4, MAIN)
    assert round(float(a.advantage) * 100, 3) == 20.928


@pytest.mark.slow
def test_the_best_four_card_sort():
    # Jacobson, "Edge Sorting in Baccarat, Update #1": F. Roach's search over every sort, four cards read: 30.291%.
    search = best_sorting(Shoe.decks(8), 4, "value", MAIN)
    assert round(float(search.ranking[0][1]) * 100, 3) == 30.291
    assert search.best.advantage == search.ranking[0][1]


# ---------------------------------------------------------------- the search
def test_sortings_are_counted_once():
    assert len(sortings("value")) == 511 and len(set(sortings("value"))) == 511
    assert len(sortings("rank")) == 4095
    assert all(12 not in s for s in sortings("rank"))  # listed by the class without the king


def test_best_one_card_sorting_is_the_maximum():
    shoe = Shoe.decks(2).remove("8", n=3)
    search = best_sorting(shoe, 1, "value", MAIN, top=5)
    assert len(search.ranking) == 511
    advantages = [a for _, a, _ in search.ranking]
    assert advantages == sorted(advantages, reverse=True)
    for s, a, f in search.ranking[:3] + search.ranking[-2:]:
        one = edge_sort(shoe, [RANKS[r] for r in s], 1, MAIN)
        assert (one.advantage, one.player_or_banker) == (a, f)
    doc = search.to_json()
    assert doc["search"]["sortings"] == 511 and len(doc["search"]["top"]) == 5
    assert doc["best"]["advantage"]["per_coup"] == doc["search"]["top"][0]["advantage_per_coup"]


def test_rank_search_on_a_value_shoe_is_an_error():
    with pytest.raises(BaccaraError, match="by rank needs a shoe known by rank"):
        best_sorting(Shoe.from_values([16] + [4] * 9), 1, "rank")


# ---------------------------------------------------------------- the result
def test_result_protocol():
    a = edge_sort(Shoe.decks(8), "6,7,8,9", 2, MAIN, among=["banker", "player"])
    doc = a.to_json()
    assert set(doc) == {"shoe", "tableau", "assumptions", "sorted", "other", "cards", "positions", "bets_considered",
                        "patterns", "advantage"}
    assert [p["pattern"] for p in doc["patterns"]] == ["SS", "SO", "OS", "OO"]
    assert doc["bets_considered"] == ["banker", "player"]
    assert Fraction(doc["advantage"]["per_coup"]) == a.advantage
    assert abs(doc["advantage"]["per_coup_float"] - float(a.advantage)) < 1e-15
    assert sum(Fraction(p["probability"]) for p in doc["patterns"]) == 1
    assert "first coup of a fresh shoe" in doc["assumptions"][0]
    assert "Edge sorting 6, 7, 8, 9" in repr(a) and isinstance(a, EdgeSortAnalysis)
    assert len(list(a.renderables())) >= 3
    depleted = edge_sort(Shoe.decks(8).remove("9", n=20), "6,7,8,9", 1)
    assert "depleted" in depleted.to_json()["assumptions"][0]


def test_a_pattern_no_deal_shows_is_reported_with_probability_zero():
    shoe = Shoe.from_ranks({"9": 1, "K": 5, "A": 4})
    a = edge_sort(shoe, "9", 2, MAIN)
    ss = next(g for g in a.patterns if g.pattern == "SS")
    assert ss.probability == 0 and ss.results is None
    assert a.to_json()["patterns"][0]["bets"] is None


@pytest.mark.parametrize("kwargs,needle", [
    ({"sorted_ranks": "6,Z"}, "unknown rank 'Z'"),
    ({"sorted_ranks": "0,A,2,3,4,5,6,7,8,9"}, "not all 13"),
    ({"sorted_ranks": "6", "cards": 5}, "from 1 to 4"),
    ({"sorted_ranks": "6", "cards": 0}, "from 1 to 4"),
    ({"sorted_ranks": "6", "among": ["nope"]}, "unknown bet 'nope'"),
    ({"sorted_ranks": "6", "among": []}, "names no bet"),
])
def test_bad_input_names_the_parameter(kwargs, needle):
    with pytest.raises(BaccaraError) as e:
        edge_sort(Shoe.decks(1), **kwargs)
    assert needle in str(e.value)


def test_a_class_the_shoe_lacks_is_an_error():
    with pytest.raises(BaccaraError, match="no card of the sorted class"):
        edge_sort(Shoe.from_ranks({"A": 10}), "6")
    with pytest.raises(BaccaraError, match="known only by value"):
        edge_sort(Shoe.from_values([16] + [4] * 9), "10,6")
