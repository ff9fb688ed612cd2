"""The value-level engine (bets on card values only): the same exact counts as brute force and as the
engine by card type, for any shoe and any drawing rules; many shoes at once; the exact fallback."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from baccara import PUNTO_BANCO, Bet, Rule, Shoe, Tableau, builtin_bets, coup_distribution, evaluate, load_bets_toml
from baccara.errors import BetError, ShoeError
from baccara.punto.exact import ShoeEdges, coup_counts, edges_for_shoes, evaluate_bets, value_cell_counts

from .budget import examples
from .oracles import brute_force_cells
from .test_exact import depleted_decks

EXAMPLES = Path(__file__).parents[1] / "examples"
#: Every bet on card values: the built-in ones and the user-defined Big and Small.
VALUE_BETS = {n: b for n, b in {**builtin_bets(), **load_bets_toml(EXAMPLES / "side_bets.toml")}.items()
              if b.resolution == "value"}


@st.composite
def tableaux(draw):
    """Any drawing rules: Player draws or stands on each total 0-7, Banker on each total and third card."""
    player = tuple(draw(st.lists(st.booleans(), min_size=8, max_size=8)))
    banker = tuple(tuple(draw(st.lists(st.booleans(), min_size=11, max_size=11))) for _ in range(8))
    return Tableau(player, banker)


@st.composite
def small_value_shoes(draw):
    """Shoes of a few values with a few cards each (brute force visits k^6 sequences), with or without replacement."""
    counts = [0] * 10
    for v in draw(st.lists(st.integers(0, 9), min_size=2, max_size=4, unique=True)):
        counts[v] = draw(st.integers(1, 3))
    if sum(counts) < 6:
        counts[counts.index(max(counts))] += 6 - sum(counts)
    return Shoe(tuple(counts), "value", draw(st.booleans()))


def by_value(cells: dict[tuple, int]) -> np.ndarray:
    """Cell counts (pair classes, totals, cards) summed over the pair classes."""
    out = np.zeros((10, 2, 10, 2), dtype=object)
    for (_kp, _kb, pt, pn, bt, bn), w in cells.items():
        out[pt, pn, bt, bn] += w
    return out


def rank_shoe(shoe: Shoe) -> Shoe:
    """The same values as a shoe known by rank (tens in the 10s), priced by the engine by card type."""
    v = shoe.value_counts()
    return Shoe(tuple(v[1:]) + (v[0], 0, 0, 0), "rank", shoe.replacement)


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_value_shoes(), st.one_of(st.just(PUNTO_BANCO), tableaux()))
def test_value_counts_equal_brute_force(shoe, tableau):
    expected = by_value(brute_force_cells(shoe, tableau=tableau))
    assert np.array_equal(value_cell_counts(shoe, tableau).astype(object), expected)


@settings(max_examples=examples(30), deadline=None)
@given(depleted_decks(), tableaux())
def test_value_counts_equal_the_engine_by_card_type(shoe, tableau):
    expected = coup_counts(shoe, tableau).sum(axis=(0, 1))
    assert np.array_equal(value_cell_counts(shoe, tableau), expected)
    assert np.array_equal(value_cell_counts(rank_shoe(shoe.by_value()), tableau), expected)


@settings(max_examples=examples(30), deadline=None)
@given(depleted_decks(decks=6, max_removed=250))
def test_evaluate_prices_value_bets_as_the_full_distribution_does(shoe):
    fast = evaluate(shoe, VALUE_BETS)
    full = evaluate_bets(coup_distribution(shoe), VALUE_BETS.values())  # every cell, by card type
    assert list(fast) == list(full)
    for name, r in full.items():
        f = fast[name]
        assert (f.payouts, f.counts, f.deals, f.ev) == (r.payouts, r.counts, r.deals, r.ev)


def test_a_shoe_known_by_value_keeps_its_counts_in_pair_class_0_0():
    shoe = Shoe.decks(8).by_value()
    c = coup_counts(shoe)
    assert c.sum() == shoe.deals() and c[0, 0].sum() == shoe.deals()
    assert np.array_equal(c[0, 0], coup_counts(Shoe.decks(8)).sum(axis=(0, 1)))


def test_infinite_shoe_by_value():
    inf = Shoe.infinite()
    assert inf.by_value().replacement and inf.by_value().deals() == inf.deals()
    fast = evaluate(inf, VALUE_BETS)
    full = evaluate_bets(coup_distribution(inf), VALUE_BETS.values())
    assert {n: r.counts for n, r in fast.items()} == {n: r.counts for n, r in full.items()}


def test_a_shoe_too_large_for_int64_is_counted_exactly_in_python():
    big = Shoe.from_values([16 * 30] + [4 * 30] * 9)  # 30 decks: 4 N^6 overflows int64
    counts = value_cell_counts(big)
    assert counts.dtype == object and sum(counts.flat) == big.deals()
    d = 30
    # every cell count is a polynomial of degree <= 6 in d: fit d = 1..7, check the value at d = 30
    per_d = [value_cell_counts(Shoe.decks(k)).astype(object) for k in range(1, 8)]
    for cell in ((0, 0, 0, 0), (5, 1, 6, 1), (9, 0, 3, 1)):
        value = Fraction(0)
        for i in range(7):
            term = Fraction(per_d[i][cell])
            for j in range(7):
                if j != i:
                    term *= Fraction(d - (j + 1), i - j)
            value += term
        assert value == counts[cell]
    ev = evaluate(big, [VALUE_BETS["tie"]])["tie"].ev
    assert ev == edges_for_shoes([big.counts], [VALUE_BETS["tie"]]).fraction(0, "tie")


@st.composite
def card_rows(draw, shoes=5):
    """A few depleted 8-deck shoes as 52 counts by card."""
    rows = []
    for _ in range(shoes):
        rows.append(draw(depleted_decks()).counts)
    return np.array(rows, dtype=np.int64)


@settings(max_examples=10, deadline=None)
@given(card_rows())
def test_edges_for_shoes_are_evaluate_s_exact_values(rows):
    edges = edges_for_shoes(rows, VALUE_BETS)
    ranks = rows.reshape(len(rows), 13, 4).sum(axis=2)
    values = np.c_[ranks[:, 9:].sum(axis=1), ranks[:, :9]]
    for other in (edges_for_shoes(ranks, VALUE_BETS), edges_for_shoes(values, VALUE_BETS.values())):
        assert np.array_equal(other.numerators, edges.numerators) and np.array_equal(other.deals, edges.deals)
    for i, row in enumerate(rows):
        exact = evaluate(Shoe(tuple(int(x) for x in row), "suit"), VALUE_BETS)
        for b, name in enumerate(VALUE_BETS):
            assert edges.fraction(i, name) == exact[name].ev
            assert edges.positive[i, b] == (exact[name].ev > 0)
            assert edges.ev[i, b] == pytest.approx(float(exact[name].ev), rel=1e-12, abs=1e-15)
            assert edges.edge[i, b] == -edges.ev[i, b]


def test_edges_for_shoes_stay_exact_beyond_int64():
    huge = Bet("huge", (Rule.make(Fraction(10**9 - 1, 7), winner="tie"),))  # payouts x deals overflow int64
    rows = [[128, 32, 32, 32, 32, 31, 30, 32, 32, 32], [16 * 30] + [4 * 30] * 9]
    edges = edges_for_shoes(rows, [huge, VALUE_BETS["banker"]])
    assert edges.numerators.dtype == object
    for i, row in enumerate(rows):
        exact = evaluate(Shoe.from_values(row), [huge, VALUE_BETS["banker"]])
        assert edges.fraction(i, "huge") == exact["huge"].ev and edges.fraction(i, "banker") == exact["banker"].ev
    assert edges.ev.shape == (2, 2) and edges.positive[0, 0]


def test_edges_for_shoes_with_replacement_and_other_rules():
    tableau = Tableau((True,) * 6 + (False, False), tuple((t <= 4,) * 11 for t in range(8)))
    edges = edges_for_shoes([[16] + [4] * 9], VALUE_BETS, tableau, replacement=True)
    exact = evaluate(Shoe.infinite(), VALUE_BETS, tableau)
    assert isinstance(edges, ShoeEdges)
    assert all(edges.fraction(0, n) == r.ev for n, r in exact.items())


@pytest.mark.parametrize(("counts", "bets", "error", "match"), [
    ([[128] + [32] * 9], ["player_pair"], BetError, "needs a shoe known by rank"),
    ([[1, 2, 3]], ["tie"], ShoeError, "shape"),
    ([[-1] + [32] * 9], ["tie"], ShoeError, "non-negative"),
    ([[0.5] + [32] * 9], ["tie"], ShoeError, "integers"),
    ([[128] + [32] * 9, [1, 1, 1, 0, 0, 0, 0, 0, 0, 0]], ["tie"], ShoeError, "row 1 has 3"),
])
def test_edges_for_shoes_refuses_what_it_cannot_price(counts, bets, error, match):
    every = builtin_bets()
    with pytest.raises(error, match=match):
        edges_for_shoes(counts, [every[b] for b in bets])


def test_many_shoes_in_one_call_equal_one_at_a_time():
    rng = np.random.default_rng(7)
    rows = np.array([[128] + [32] * 9] * 40) - rng.integers(0, 12, size=(40, 10))
    together = edges_for_shoes(rows, VALUE_BETS)
    apart = defaultdict(list)
    for row in rows:
        one = edges_for_shoes(row, VALUE_BETS)  # a single shoe may be given flat
        apart["num"].append(one.numerators[0])
        apart["deals"].append(one.deals[0])
    assert np.array_equal(together.numerators, np.array(apart["num"]))
    assert np.array_equal(together.deals, np.array(apart["deals"]))
