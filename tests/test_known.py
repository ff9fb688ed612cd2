"""Known cards in the coup: the conditioned engine against a brute-force deal, and the identities it must satisfy."""

from collections import defaultdict
from fractions import Fraction
from itertools import product

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from baccara import BaccaraError, Shoe, builtin_bets, coup_distribution, evaluate
from baccara.cards import RANK_VALUE, RANKS
from baccara.punto import exact as exact_module
from baccara.punto.exact import coup_counts
from baccara.punto.known import Known, parse_ranks
from baccara.punto.reference import reference_counts

from .budget import examples
from .oracles import brute_force_cells, engine_cells

# Card types whose values, ranks and suits collide: 10, J, K (value 0), A, 5, 9, in two suits.
POOL = [4 * r + s for r in (0, 4, 8, 9, 10, 12) for s in (0, 1)]
RANK_POOL = [0, 4, 8, 9, 10, 12, 5]  # A, 5, 9, 10, J, K, and 6 (never in the shoe)


@st.composite
def tiny_shoes(draw):
    counts = [0] * 52
    chosen = draw(st.lists(st.sampled_from(POOL), min_size=3, max_size=5, unique=True))
    for t in chosen:
        counts[t] = draw(st.integers(1, 3))
    if sum(counts) < 6:
        counts[chosen[0]] += 6 - sum(counts)
    shoe = Shoe(tuple(counts), "suit", draw(st.booleans()))
    kind = draw(st.sampled_from(["suit", "rank", "value"]))
    if kind == "rank":
        shoe = Shoe(shoe.rank_counts(), "rank", shoe.replacement)
    elif kind == "value":
        shoe = Shoe(shoe.value_counts(), "value", shoe.replacement)
    return shoe


@st.composite
def conditions(draw, resolution: str):
    ranks: list = [None] * 6
    for pos in draw(st.lists(st.integers(0, 5), min_size=1, max_size=3, unique=True)):
        s = set(draw(st.lists(st.sampled_from(RANK_POOL), min_size=1, max_size=4, unique=True)))
        if resolution == "value":  # whole values only
            s = {r for r in range(13) if RANK_VALUE[r] in {RANK_VALUE[x] for x in s}}
        ranks[pos] = frozenset(s)
    return Known(tuple(ranks))


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_conditioned_engine_equals_brute_force(data):
    shoe = data.draw(tiny_shoes())
    known = data.draw(conditions(shoe.resolution))
    ours, brute = engine_cells(shoe, known), brute_force_cells(shoe, known)
    if shoe.resolution == "value":  # pair classes mean nothing without ranks: compare the coups by totals
        ours, brute = by_totals(ours), by_totals(brute)
    assert ours == brute


def by_totals(cells: dict[tuple, int]) -> dict[tuple, int]:
    out: dict[tuple, int] = defaultdict(int)
    for cell, w in cells.items():
        out[cell[2:]] += w
    return {k: w for k, w in out.items() if w}


def test_brute_force_without_condition_is_the_engine():
    shoe = Shoe(tuple(2 if t in POOL[:5] else 0 for t in range(52)), "suit")
    assert engine_cells(shoe) == brute_force_cells(shoe)


def test_the_pure_python_fallback_conditions_alike(monkeypatch):
    shoe = Shoe.decks(1).remove("9").remove("K")
    known = Known.parse("1 in 6,7,8,9; 2=K; 5 in 0,1; 6=4")
    fast = coup_counts(shoe, known=known)
    monkeypatch.setattr(exact_module, "_fits_int64", lambda s: False)
    slow = coup_counts(shoe, known=known)
    assert slow.dtype == object
    assert np.array_equal(slow.astype(np.int64), fast)


@st.composite
def depleted_decks(draw, decks=8, max_removed=300):
    counts = [decks] * 52
    k = draw(st.integers(0, max_removed))
    for t in draw(st.lists(st.integers(0, 51), min_size=k, max_size=k)):
        if counts[t] > 0:
            counts[t] -= 1
    return Shoe(tuple(counts), "suit")


@st.composite
def first_four(draw):
    ranks: list = [None] * 6
    for pos in draw(st.lists(st.integers(0, 3), min_size=1, max_size=4, unique=True)):
        ranks[pos] = frozenset(draw(st.lists(st.integers(0, 12), min_size=1, max_size=12, unique=True)))
    return Known(tuple(ranks))


@settings(max_examples=4, deadline=None)
@given(depleted_decks(decks=2, max_removed=60), first_four())
def test_conditioned_engine_equals_the_reference_enumerator(shoe, known):
    ref, _ = reference_counts(shoe, known=known)
    ours: dict = defaultdict(int)
    for (kp, kb, pt, pn, bt, bn), w in engine_cells(shoe, known).items():
        ours[(kp >= 1, kb >= 1, pt, pn + 2, bt, bn + 2)] += w
    assert dict(ours) == {k: w for k, w in ref.items() if w}


# ---------------------------------------------------------------- summing over what may be known


@settings(max_examples=12, deadline=None)
@given(st.one_of(depleted_decks(), st.just(Shoe.infinite()), st.just(Shoe.from_values([30, 7, 9, 8, 8, 8, 8, 8, 8, 9]))),
       st.integers(1, 6))
def test_summing_a_position_over_its_cards_gives_the_unconditioned_distribution(shoe, pos):
    whole = coup_distribution(shoe)
    ranks = range(13) if shoe.resolution != "value" else [9] + list(range(9))  # value shoes: 0 (10-K), A-9
    total = np.zeros_like(whole.counts)
    prob = Fraction(0)
    ev = defaultdict(Fraction)
    bets = [b for b in builtin_bets().values() if b.resolution == "value" or shoe.resolution != "value"]
    for r in ranks:
        known = Known.of({pos: "0" if shoe.resolution == "value" and RANK_VALUE[r] == 0 else RANKS[r]})
        counts = coup_counts(shoe, known=known)
        total += counts
        if counts.sum() == 0:
            continue
        dist = coup_distribution(shoe, known=known)
        p = Fraction(dist.deals, whole.deals)  # P(position holds this rank)
        prob += p
        for name, res in exact_module.evaluate_bets(dist, bets).items():
            ev[name] += p * res.ev
    assert np.array_equal(total, whole.counts)
    assert prob == 1
    assert dict(ev) == {name: r.ev for name, r in exact_module.evaluate_bets(whole, bets).items()}


@pytest.mark.parametrize("positions", [(1,), (1, 2), (1, 2, 3, 4), (3, 6), (5, 6)])
def test_two_classes_on_several_positions_partition_the_deals(positions):
    shoe = Shoe.decks(8).remove("7", n=5).remove("K", n=9)
    good = parse_ranks("6,7,8,9")
    bad = frozenset(range(13)) - good
    total = np.zeros_like(coup_counts(shoe))
    for pattern in product((good, bad), repeat=len(positions)):
        ranks = [None] * 6
        for p, s in zip(positions, pattern):
            ranks[p - 1] = s
        total += coup_counts(shoe, known=Known(tuple(ranks)))
    assert np.array_equal(total, coup_counts(shoe))


# ---------------------------------------------------------------- closed forms
def test_closed_forms_given_the_first_card():
    shoe = Shoe.decks(8)
    dist = coup_distribution(shoe, known={1: "9"})
    assert Fraction(dist.deals, shoe.deals()) == Fraction(32, 416)
    r = evaluate(shoe, known="1=9")
    assert r["player_pair"].p_win == Fraction(31, 415)  # Player's second card is one of the 31 other 9s
    # Banker's pair: Banker's cards are two of the 415 left, 31 of them 9s.
    rest = [32] * 13
    rest[8] = 31
    assert r["banker_pair"].p_win == Fraction(sum(m * (m - 1) for m in rest), 415 * 414)
    assert r["player"].ev > 0 > r["banker"].ev  # a 9 to Player is worth betting on


def test_known_on_the_infinite_shoe_is_independent_of_the_rest():
    dist = coup_distribution(Shoe.infinite(), known="1 in 0")
    assert Fraction(dist.deals, Shoe.infinite().deals()) == Fraction(4, 13)
    assert dist.probability(player_pair=True) == Fraction(1, 13)


def test_ranks_of_one_value_differ_only_for_pairs():
    shoe = Shoe.decks(6)
    tens, kings = coup_distribution(shoe, known="1=10"), coup_distribution(shoe, known="1=K")
    assert tens.outcomes() == kings.outcomes() == coup_distribution(shoe, known="1=0").outcomes()
    assert tens.probability(player_pair=True) == kings.probability(player_pair=True) == Fraction(23, 311)
    zero = coup_distribution(shoe, known="1=0")  # any of 10, J, Q, K: the second card pairs its rank
    assert zero.probability(player_pair=True) == Fraction(23, 311)


# ---------------------------------------------------------------- reading conditions
@pytest.mark.parametrize("text,want", [
    ("1=9", {1: "9"}),
    ("1 in 6,7,8,9", {1: "6,7,8,9"}),
    ("1 IN {6, 7, 8, 9}; 3=k", {1: "6,7,8,9", 3: "K"}),
    ("2 = T;4 in 0", {2: "10", 4: "10,J,Q,K"}),
    (["1=A", "6 in 1,2"], {1: "A", 6: "A,2"}),
])
def test_parse(text, want):
    assert Known.parse(text) == Known.of(want)


def test_describe_and_json():
    k = Known.parse("3 in 9,8,7,6; 1=K")
    assert k.describe() == "1 = K; 3 in 6, 7, 8, 9"
    assert k.to_json() == {"1": ["K"], "3": ["6", "7", "8", "9"]}
    assert k.positions == (1, 3)
    assert Known.coerce("1 in A,2,3,4,5,6,7,8,9,10,J,Q,K") is None  # every rank: nothing known


@pytest.mark.parametrize("text,needle", [
    ("1=Z", "unknown rank 'Z'"),
    ("7=9", "from 1 to 6"),
    ("0=9", "from 1 to 6"),
    ("x=9", "from 1 to 6"),
    ("1=", "names no rank"),
    ("1=9;1=8", "given twice"),
    ("1 9", "cannot read"),
    ("", "empty"),
])
def test_bad_conditions_name_the_parameter(text, needle):
    with pytest.raises(BaccaraError, match="known") as e:
        Known.parse(text)
    assert needle in str(e.value)


@pytest.mark.parametrize("shoe,known,needle", [
    (Shoe.decks(1).remove("9", n=4), "1=9", "holds no such card"),
    (Shoe.decks(1).remove("9", n=3), "1=9;2=9", "cannot deal these cards together"),
    (Shoe.from_values([16] + [4] * 9), "1=K", "known only by value"),
])
def test_conditions_the_shoe_cannot_meet_are_errors(shoe, known, needle):
    with pytest.raises(BaccaraError, match="known") as e:
        coup_distribution(shoe, known=known)
    assert needle in str(e.value)
