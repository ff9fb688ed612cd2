"""Published punto banco figures, reproduced exactly and compared at their printed precision."""

from fractions import Fraction

import pytest

from baccara import Shoe, builtin_bets, coup_distribution, evaluate
from baccara.punto.bets import banker, player, super6_banker, tie

# Ask Dr. Math (1996) (Dr. Math / Yui-Bin Chen), "The following chart shows the probabilities
# of events" and "... the house edges on different bets", in percent.
# The 6-deck Player figure 44.6276 is a typo for 44.6279 (its row
# does not sum to 100).
DR_MATH_OUTCOMES = {
    None: (45.8428, 44.6147, 9.5426),
    8: (45.8597, 44.6247, 9.5156),
    6: (45.8653, 44.6279, 9.5069),
    4: (45.8761, 44.6340, 9.4898),
    2: (45.9073, 44.6508, 9.4419),
    1: (45.9624, 44.6760, 9.3615),
}
# Banker 5%, Banker 4%, Player, Tie 9:1, Tie 8:1.
DR_MATH_EDGES = {
    None: (1.0640, 0.6056, 1.2281, 4.5744, 14.1170),
    8: (1.0579, 0.5993, 1.2351, 4.8440, 14.3596),
    6: (1.0558, 0.5972, 1.2374, 4.9313, 14.4382),
    4: (1.0517, 0.5929, 1.2421, 5.1018, 14.5916),
    2: (1.0389, 0.5798, 1.2565, 5.5809, 15.0228),
    1: (1.0117, 0.5521, 1.2864, 6.3846, 15.7461),
}


def shoe_of(d):
    return Shoe.infinite() if d is None else Shoe.decks(d)


def at_printed_precision(exact: Fraction, printed: float, digits: int = 4) -> bool:
    """Does ``exact`` (a proportion) round to ``printed`` (a percentage with ``digits`` decimals)?"""
    return abs(float(exact) * 100 - printed) <= 0.5 * 10**-digits + 1e-12


@pytest.mark.parametrize("d", list(DR_MATH_OUTCOMES))
def test_ask_dr_math_outcome_probabilities(d):
    o = coup_distribution(shoe_of(d)).outcomes()
    for got, printed in zip((o["banker"], o["player"], o["tie"]), DR_MATH_OUTCOMES[d]):
        assert at_printed_precision(got, printed), (d, float(got) * 100, printed)


def test_ask_dr_math_typo_is_a_typo():
    # The printed 6-deck row sums to 99.9998%; the exact values sum to 1.
    assert abs(sum(DR_MATH_OUTCOMES[6]) - 100) < 1e-3
    o = coup_distribution(Shoe.decks(6)).outcomes()
    assert sum(o.values()) == 1
    assert not at_printed_precision(o["player"], 44.6276)


@pytest.mark.parametrize("d", list(DR_MATH_EDGES))
def test_ask_dr_math_house_edges(d):
    bets = [banker(Fraction(1, 20)), banker(Fraction(1, 25)), player(), tie(9), tie(8)]
    shoe = shoe_of(d)
    got = [evaluate(shoe, [b])[b.name].edge for b in bets]
    for g, printed in zip(got, DR_MATH_EDGES[d]):
        assert at_printed_precision(g, printed), (d, float(g) * 100, printed)


def test_wikipedia_punto_banco_figures():
    # Wikipedia (2019) ("Punto banco odds and strategy"): Player 1.24%, Banker 1.06%,
    # Tie at 8:1 14.4%, Tie at 9:1 "approximately 4.85%" (8 decks: 4.84%).
    r = evaluate(Shoe.decks(8), builtin_bets())
    assert at_printed_precision(r["player"].edge, 1.24, 2)
    assert at_printed_precision(r["banker"].edge, 1.06, 2)
    assert at_printed_precision(r["tie"].edge, 14.4, 1)
    t9 = evaluate(Shoe.decks(8), [tie(9)])["tie"].edge
    assert abs(float(t9) * 100 - 4.85) < 0.01


def test_wikipedia_super6():
    # Wikipedia (2019) ("Super 6/Punto 2000"): Super 6 Banker house edge 1.46% against
    # 1.058% with commission, "equivalent to increasing the commission by
    # 17.45% to 5.87%" (8 decks).
    shoe = Shoe.decks(8)
    r = evaluate(shoe, [super6_banker(), banker()])
    assert at_printed_precision(r["super6_banker"].edge, 1.46, 2)
    assert at_printed_precision(r["banker"].edge, 1.058, 3)
    # Banker's edge is linear in the commission c: edge(c) = P(P) - P(B) + c P(B).
    o = coup_distribution(shoe).outcomes()
    c = (r["super6_banker"].edge - o["player"] + o["banker"]) / o["banker"]
    assert evaluate(shoe, [banker(c)])["banker"].edge == r["super6_banker"].edge
    assert at_printed_precision(c, 5.87, 2)
    assert abs(float((c - Fraction(1, 20)) / Fraction(1, 20)) * 100 - 17.45) < 0.01
