"""Bets on the cards themselves given known cards (``--known``): the card-level engine counts only the deals
that agree, checked against every ordered deal of a small shoe and against the cell engine."""

from fractions import Fraction
from itertools import permutations

import pytest

from baccara import Shoe, evaluate
from baccara.cards import RANK_VALUE
from baccara.errors import BaccaraError
from baccara.punto.bets import Bet, Rule, builtin_bets
from baccara.punto.exact import card_results, coup_distribution
from baccara.punto.known import Known
from baccara.rules import PUNTO_BANCO

# (rank index, suit index S H D C): three 8 of diamonds, the 8 of hearts, two 3 of spades, K, A, 6.
CARDS = [(7, 2), (7, 2), (7, 2), (7, 1), (2, 0), (2, 0), (12, 1), (0, 3), (5, 2)]


def _coup(cards):
    """Deal one coup from the ordered cards by the punto banco tableau: Player's and Banker's hands."""
    v = [RANK_VALUE[r] for r, _ in cards]
    p, b = [cards[0], cards[2]], [cards[1], cards[3]]
    pt, bt = (v[0] + v[2]) % 10, (v[1] + v[3]) % 10
    nxt = 4
    if pt < 8 and bt < 8:
        third = None
        if PUNTO_BANCO.player_array[pt]:
            p.append(cards[nxt])
            third = v[nxt]
            nxt += 1
        if PUNTO_BANCO.banker_array[bt, 10 if third is None else third]:
            b.append(cards[nxt])
    return p, b


def _total(h):
    return sum(RANK_VALUE[r] for r, _ in h) % 10


BETS = {
    Bet("g", (Rule.make(200, banker_two_card_total=3, player_card3_value=8),
              Rule.make(5, player_card3_rank="none", banker_card3_suit="diamonds"))):
        lambda p, b: 200 if _total(b[:2]) == 3 and len(p) == 3 and RANK_VALUE[p[2][0]] == 8 else
        5 if len(p) == 2 and len(b) == 3 and b[2][1] == 2 else -1,
    Bet("red", (Rule.make(9, colour="red"), Rule.make(2, player_colour="black"))):
        lambda p, b: 9 if all(s in (1, 2) for _, s in p + b) else 2 if all(s not in (1, 2) for _, s in p) else -1,
}


@pytest.mark.parametrize("known", ["1=8", "2 in 3,K; 5=8", "6=A", "3 in 8,6; 4=3; 6 in 8,K"])
def test_known_cards_against_every_deal(known):
    # Every ordered six-card deal of a 9-card shoe (60,480) that agrees with what is known, dealt by hand.
    counts = [0] * 52
    for r, s in CARDS:
        counts[4 * r + s] += 1
    shoe = Shoe(tuple(counts), "suit")
    cond = Known.parse(known)
    got = card_results(shoe, list(BETS), PUNTO_BANCO, cond)
    totals = dict.fromkeys(BETS, Fraction(0))
    n = 0
    for deal in permutations(range(len(CARDS)), 6):
        cards = [CARDS[i] for i in deal]
        if any(s is not None and cards[p][0] not in s for p, s in enumerate(cond.ranks)):
            continue
        n += 1
        p, b = _coup(cards)
        for bet, pays in BETS.items():
            totals[bet] += pays(p, b)
    assert n > 0
    for bet in BETS:
        assert got[bet.name].deals == n, known
        assert got[bet.name].ev == totals[bet] / n, (known, bet.name)


def test_known_cards_card_engine_equals_cell_engine():
    # The same bet on the cells and written with a card condition that always holds: equal given known cards,
    # and the card engine counts the cell engine's deals.
    shoe = Shoe.from_ranks([3, 0, 5, 2, 4, 1, 6, 2, 3, 7, 2, 0, 4])
    b = builtin_bets()
    cells = [b["banker"], b["dragon7"], b["player_pair"]]
    cards = [Bet(f"{x.name}_c", tuple(Rule(r.when + (("player_card1_value", tuple(range(10))),), r.pays)
                                      for r in x.rules), x.otherwise) for x in cells]
    for known in ("1=9", "1 in 6,7,8,9; 3=K", "5 in 2,3; 6=0"):
        ref = evaluate(shoe, cells, known=known)
        got = evaluate(shoe, cards, known=known)
        deals = coup_distribution(shoe, PUNTO_BANCO, known).deals
        for x, y in zip(cells, cards):
            assert got[y.name].ev == ref[x.name].ev and got[y.name].deals == deals, (known, x.name)


def test_known_cards_the_shoe_cannot_deal_is_a_clear_error():
    shoe = Shoe.from_ranks([0, 0, 0, 0, 0, 0, 0, 8, 0, 0, 0, 0, 0])  # eight 8s and nothing else
    g = next(iter(BETS))
    with pytest.raises(BaccaraError, match="position 1"):
        evaluate(shoe, [g], known="1=K")


# ---------------------------------------------------------------- edge sorting and the math report
G = Bet("g", (Rule.make(200, banker_two_card_total=3, player_card3_value=8),))


def test_edge_sorting_prices_a_card_bet_given_each_pattern():
    from baccara.punto.edgesort import edge_sort

    shoe = Shoe.decks(8).by_value()
    a = edge_sort(shoe, "6,7,8,9", 1, {"g": G}, among=["g"])
    full = evaluate(shoe, [G])["g"].ev
    # each pattern's EV is the exact EV given the class read; weighted by the patterns' probabilities, the full shoe's
    got = {p.pattern: p.results["g"].ev for p in a.patterns}
    assert got["S"] == evaluate(shoe, [G], known="1 in 6,7,8,9")["g"].ev
    assert sum(p.probability * p.results["g"].ev for p in a.patterns) == full
    assert a.advantage == sum(p.probability * max(0, p.results["g"].ev) for p in a.patterns) > 0


def test_edge_sorting_search_refuses_card_bets_clearly():
    from baccara.punto.edgesort import best_sorting

    with pytest.raises(BaccaraError, match="g reads the cards themselves.*--sorted"):
        best_sorting(Shoe.decks(8).by_value(), 1, "value", {"g": G}, among=["g"])


def test_math_report_of_a_card_bet():
    from baccara.punto.mathreport import math_report

    shoe = Shoe.decks(8).by_value()
    r = math_report(shoe, G, count_shoes=0)
    full = evaluate(shoe, [G])["g"].ev
    assert r.moments.result.ev == full
    assert sum(k.probability * k.ev for k in r.known) == full  # the first card known, averaged back
    assert sum(line.contribution for line in r.lines) == full
    notes = " ".join(r.notes)
    assert "perfect counter" in notes and not r.sorting
    assert "cards themselves" in r.sort_note and "--sorted" in r.sort_note  # the report's edge-sorting section says why
