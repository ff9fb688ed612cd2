"""The exact engine against independent oracles, and the identities it must satisfy."""

from collections import defaultdict
from fractions import Fraction
from math import perm

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from baccara import Shoe, builtin_bets, coup_distribution, evaluate
from baccara.punto.exact import coup_counts, effects_of_removal
from baccara.punto.reference import reference_counts

from .budget import examples
from .oracles import brute_force_cells, engine_cells  # every ordered six-card deal; the engine by cell

# A small pool of card types in which values, ranks and suits collide:
# 10, J (both value 0), A and 5, in spades and hearts.
POOL = [4 * r + s for r in (0, 4, 9, 10) for s in (0, 1)]


@st.composite
def tiny_suited_shoes(draw):
    counts = [0] * 52
    chosen = draw(st.lists(st.sampled_from(POOL), min_size=3, max_size=5, unique=True))
    for t in chosen:
        counts[t] = draw(st.integers(1, 3))
    if sum(counts) < 6:
        counts[chosen[0]] += 6 - sum(counts)
    return Shoe(tuple(counts), "suit", draw(st.booleans()))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tiny_suited_shoes())
def test_engine_equals_brute_force_by_card_type(shoe):
    assert engine_cells(shoe) == brute_force_cells(shoe)


@st.composite
def depleted_decks(draw, decks=8, max_removed=300):
    counts = [decks] * 52
    k = draw(st.integers(0, max_removed))
    removed = draw(st.lists(st.integers(0, 51), min_size=k, max_size=k))
    for t in removed:
        if counts[t] > 0:
            counts[t] -= 1
    return Shoe(tuple(counts), "suit")


@settings(max_examples=examples(8, least=2), deadline=None)
@given(depleted_decks(decks=2, max_removed=80))
def test_engine_equals_reference_enumerator(shoe):
    ref, deals = reference_counts(shoe)
    ours = defaultdict(int)
    for (kp, kb, pt, pn, bt, bn), w in engine_cells(shoe).items():
        ours[(kp >= 1, kb >= 1, pt, pn + 2, bt, bn + 2)] += w
    assert dict(ours) == ref
    assert deals == shoe.deals()


@settings(max_examples=examples(30), deadline=None)
@given(depleted_decks())
def test_probabilities_sum_to_one_and_pairs_match_closed_form(shoe):
    dist = coup_distribution(shoe)
    assert int(dist.counts.sum()) == dist.deals
    assert sum(dist.outcomes().values()) == 1
    n = shoe.cards
    ranks = shoe.rank_counts()
    pair = Fraction(sum(m * (m - 1) for m in ranks), n * (n - 1))
    suited = Fraction(sum(c * (c - 1) for c in shoe.counts), n * (n - 1))
    # Player's first two cards, and by exchangeability Banker's, pair with
    # probability sum_r m_r(m_r - 1) / N(N - 1).
    assert dist.probability(player_pair=True) == pair
    assert dist.probability(banker_pair=True) == pair
    assert dist.probability(player_suited_pair=True) == suited
    assert dist.probability(banker_suited_pair=True) == suited
    for r in evaluate(shoe).values():
        assert r.p_win + r.p_push + r.p_loss == 1
        assert sum(r.probabilities.values()) == 1


@settings(max_examples=20, deadline=None)
@given(depleted_decks(decks=6, max_removed=200), st.integers(0, 12), st.integers(0, 3))
def test_remove_then_add_gives_the_same_shoe(shoe, rank, suit):
    from baccara.cards import RANKS, SUITS

    if shoe.counts[4 * rank + suit] == 0:
        shoe = shoe.add(RANKS[rank], SUITS[suit])
    again = shoe.remove(RANKS[rank], SUITS[suit]).add(RANKS[rank], SUITS[suit])
    assert again.counts == shoe.counts
    assert coup_distribution(again).outcomes() == coup_distribution(shoe).outcomes()


def test_fresh_deck_remove_then_add_without_suit():
    shoe = Shoe.decks(6)
    for r in ("A", "7", "K"):
        assert shoe.remove(r).add(r).counts == shoe.counts


def _poly_leading_coefficient(xs, ys, degree):
    """Exact leading coefficient of the polynomial of ``degree`` through the points (divided differences)."""
    table = [Fraction(y) for y in ys]
    for level in range(1, degree + 1):
        table = [(table[i + 1] - table[i]) / (xs[i + level] - xs[i]) for i in range(len(table) - 1)]
    return table


def test_infinite_shoe_is_the_limit_of_d_decks():
    # For d decks every cell count is a polynomial in d of degree <= 6 (a sum of
    # products of six counts 4d - k or 16d - k), and the deals (52d)_6 have
    # leading coefficient 52^6: so P_d -> lead / 52^6 as d -> oo.  Seven points
    # fix the polynomial; an eighth checks it; the limit must be the infinite shoe.
    ds = list(range(1, 9))
    per_d = [coup_counts(Shoe.decks(d)).astype(object) for d in ds]
    inf = coup_counts(Shoe.infinite())
    for cell in zip(*np.nonzero(inf)):
        ys = [c[cell] for c in per_d]
        lead = _poly_leading_coefficient(ds, ys, 6)
        assert lead[0] == lead[1]  # the eighth point lies on the same degree-6 polynomial
        assert Fraction(lead[0]) == Fraction(int(inf[cell]))  # both over 52^6


def test_large_shoe_uses_exact_fallback_and_agrees_with_the_polynomial():
    # 23 decks (1196 cards) overflow int64 in the fast kernel; the exact
    # fallback must agree with the degree-6 polynomial fitted on d = 1..7.
    big = coup_counts(Shoe.decks(23))
    assert big.dtype == object
    ds = list(range(1, 8))
    per_d = [coup_counts(Shoe.decks(d)).astype(object) for d in ds]
    cell = (0, 0, 5, 1, 6, 1)
    ys = [c[cell] for c in per_d]
    value = Fraction(0)
    for i, xi in enumerate(ds):  # Lagrange interpolation at d = 23
        term = Fraction(ys[i])
        for j, xj in enumerate(ds):
            if j != i:
                term *= Fraction(23 - xj, xi - xj)
        value += term
    assert value == big[cell]
    assert int(big.sum()) == perm(52 * 23, 6)


def test_value_and_rank_shoes_agree_with_suit_shoe():
    suit = coup_distribution(Shoe.decks(4))
    rank = coup_distribution(Shoe.from_ranks([16] * 13))
    value = coup_distribution(Shoe.from_values([64] + [16] * 9))
    assert suit.outcomes() == rank.outcomes() == value.outcomes()
    assert suit.probability(player_pair=True) == rank.probability(player_pair=True)
    by_value = suit.counts.sum(axis=(0, 1))
    assert np.array_equal(by_value, value.counts.sum(axis=(0, 1)))


# ---------------------------------------------------------------- bet identities
def test_bet_identities_8_decks():
    shoe = Shoe.decks(8)
    r = evaluate(shoe, builtin_bets(commission=0))
    o = coup_distribution(shoe).outcomes()
    # Commission 0: Banker and Player bets are a zero-sum pair.
    assert r["banker"].ev == -r["player"].ev
    # EZ Banker pushes exactly when Dragon 7 wins.
    assert r["ez_banker"].p_push - o["tie"] == r["dragon7"].p_win
    assert r["ez_banker"].ev == r["banker"].ev - r["dragon7"].p_win
    # Tie at 9:1 gains P(tie) per unit over tie at 8:1.
    t9 = evaluate(shoe, builtin_bets(tie_pays=9))["tie"]
    assert t9.ev - r["tie"].ev == o["tie"]
    # Super 6 Banker: half of a Banker win with 6 is withheld.
    dist = coup_distribution(shoe)
    b6 = dist.probability(winner="banker", banker_total=6)
    assert r["super6_banker"].ev == r["banker"].ev - b6 / 2
    assert r["super6"].p_win == b6
    # Player pair in a fresh d-deck shoe: (4d - 1) / (52d - 1) per rank.
    assert r["player_pair"].p_win == Fraction(13 * 32 * 31, 416 * 415)


def test_dragon_bonus_paytable():
    shoe = Shoe.decks(8)
    dist = coup_distribution(shoe)
    r = evaluate(shoe, builtin_bets())["dragon_bonus_player"]
    p = r.probabilities
    assert p[Fraction(30)] == dist.probability(winner="player", margin=9, player_natural=False)
    assert p[Fraction(0)] == dist.probability(winner="tie", player_natural=True, banker_natural=True)
    natural_win = dist.probability(winner="player", player_natural=True)
    by4 = dist.probability(winner="player", margin=4, player_natural=False)
    assert p[Fraction(1)] == natural_win + by4


@pytest.mark.parametrize("bet", ["banker", "tie", "dragon7", "player_pair", "dragon_bonus_banker"])
def test_effects_of_removal_average_to_zero(bet):
    # Removing a random unseen card does not change the odds of the next coup
    # (it is a burn card): the count-weighted average of the effects is 0, exactly.
    shoe = Shoe.decks(1).remove("5").remove("K").remove("K")
    base, effects = effects_of_removal(shoe, builtin_bets()[bet])
    assert sum(Fraction(e.cards_left) * e.effect for e in effects if e.effect is not None) == 0


def test_effects_of_removal_suited_bet_averages_suits():
    from baccara.punto.bets import Bet, Rule

    perfect = Bet("perfect_pair", (Rule.make(25, player_suited_pair=True),))
    shoe = Shoe.from_cards({(r, s): 2 for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K") for s in "SHDC"})
    shoe = shoe.remove("A", "S")
    base, effects = effects_of_removal(shoe, perfect)
    assert sum(Fraction(e.cards_left) * e.effect for e in effects) == 0
