"""math.fsum compiled (:mod:`baccara.sim._fsum_kernel`): the same float as :func:`math.fsum`, bit for bit, on
random and adversarial summands, the same special values and errors; and the perfect counter's per-shoe fold
(:func:`baccara.sim.count_analysis.fold_perfect`) built on it gives the Python loop's arrays on real shoes."""

import math
import struct
import sys
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baccara.punto.bets import builtin_bets
from baccara.sim import _fsum_kernel as FK
from baccara.sim import count_analysis as CA
from baccara.sim.count_analysis import CountJob
from baccara.sim.results import exact_partials

from .budget import examples

B = builtin_bets()
TINY = 5e-324  # the least subnormal
HUGE = sys.float_info.max


def bits(x: float) -> int:
    """The float's 64 bits: a signed zero or a NaN compared exactly."""
    return struct.unpack("<q", struct.pack("<d", x))[0]


def fsum_or_error(values: list[float], f) -> object:
    """``f(values)``, or the type and message of the error it raises."""
    try:
        return bits(f(values))
    except (OverflowError, ValueError) as e:
        return type(e), str(e)


def same_as_fsum(values: list[float]) -> None:
    """The compiled sum (Sum2 where it settles, else Shewchuk's partials) and the partials alone: fsum's."""
    want = fsum_or_error(values, math.fsum)
    for f in (FK.exact_sum, FK.partials_sum):
        got = fsum_or_error(values, lambda v, f=f: f(np.array(v, dtype=np.float64)))
        assert got == want, (f, values, got, want)


def settled(values: list[float]) -> bool:
    """Whether Sum2 settles the sum alone (no partials)."""
    a = np.array(values, dtype=np.float64)
    return FK.settle(*FK.sum2(a), a.size)[0]


finite = st.floats(allow_nan=False, allow_infinity=False)
#: Magnitudes spread so that exact cancellation, ties and subnormals all happen.
scaled = st.builds(lambda m, e, s: s * math.ldexp(m, e), st.integers(1, 2**53 - 1), st.integers(-1100, 960),
                   st.sampled_from([1.0, -1.0]))


@settings(max_examples=examples(400), deadline=None)
@given(st.lists(st.one_of(finite, scaled, st.sampled_from([0.0, -0.0, TINY, -TINY, 1.0, -1.0])), max_size=40))
def test_exact_sum_is_fsum_bit_for_bit(values):
    """Any finite summands (overflowing partial sums included: both raise OverflowError) give math.fsum's float."""
    same_as_fsum(values)


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(scaled, min_size=1, max_size=12), st.randoms(use_true_random=False))
def test_exact_sum_of_values_and_their_negatives_and_a_nudge(values, rng):
    """Huge cancellation: values, their negatives and a small term shuffled (the sum is the small term exactly,
    however far below the others it lies); and half-way cases (a tie resolved by a term far below)."""
    small = values[0] * 2.0**-60
    mixed = values + [-x for x in values] + [small]
    rng.shuffle(mixed)
    same_as_fsum(mixed)
    assert FK.exact_sum(np.array(mixed)) == small
    x = abs(values[-1])
    half = math.ulp(x) / 2  # x + half is a tie; a term far below tips it either way
    for tail in (0.0, half * 2.0**-70, -half * 2.0**-70):
        same_as_fsum([x, half, tail])
        same_as_fsum([tail, -half, -x])


@pytest.mark.parametrize("values", [
    [], [0.0], [-0.0], [-0.0, -0.0], [0.0, -0.0], [1.0, -1.0], [-1.0, 1.0],  # an exact zero is +0.0, as fsum's
    [1e16, 1.0, -1e16], [1e-16, 1.0, 1e16], [1.0, 1e100, 1.0, -1e100], [0.1] * 10, [TINY] * 1000,
    [TINY, -TINY, TINY], [2.0**-1022, -TINY], [HUGE, -HUGE, 1.0], [HUGE, HUGE / 2**53, -HUGE],
    [2.0**1023, 2.0**-1074, -(2.0**1023)], [1.0, 2.0**-53, 2.0**-106], [1.0, -(2.0**-54), -(2.0**-107)],
    [HUGE, HUGE], [-HUGE, -HUGE, HUGE],  # overflow: OverflowError, as fsum
    [math.nan], [1.0, math.nan, 2.0], [math.inf, 1.0], [-math.inf, -math.inf, 5.0], [math.inf, math.nan],
    [math.inf, -math.inf], [HUGE, HUGE, math.inf],  # -inf + inf: ValueError; an infinity before the overflow
])
def test_exact_sum_special_cases_are_fsums(values):
    """Signed zeros, cancellation, half-way ties across partials, subnormals, overflow, NaN and infinities:
    math.fsum's float (its bits) or its error, type and message."""
    same_as_fsum(values)


@settings(max_examples=examples(300), deadline=None)
@given(st.floats(1.0, 2.0, exclude_max=True), st.integers(-60, 60), st.integers(1, 2000), st.integers(-3, 3))
def test_sum2_settles_only_away_from_ties(x, e, k, nudge):
    """Sum2 alone decides a sum away from a half-way point and declines one at or next to it: x plus half its
    ulp (a tie) with a tail ``nudge`` ulps of a tiny scale either way, and k equal terms adding up to about that
    half ulp (their float sum inexact); what it settles and what it leaves to the partials are fsum's."""
    x = math.ldexp(x, e)
    half = math.ulp(x) / 2
    tail = nudge * half * 2.0**-80
    for values in ([x, half, tail], [x, tail, half], [-x, -half, -tail], [x] + [half / k] * k):
        same_as_fsum(values)
    assert not settled([x, half, tail]) and not settled([-x, -half, -tail])
    assert settled([x, half / 4, tail]) and settled([x, 3 * half / 4])


def test_sum2_settles_the_perfect_counters_sums():
    """Real sums of expectations are far from ties: Sum2 settles them all (the partials are the exception)."""
    _table, _evs, evs_all = perfect_block("dragon7", 1, 14, 3, 6)
    rows = [r[~np.isnan(r)] for r in evs_all]
    assert all(settled(r.tolist()) for r in rows) and sum(len(r) for r in rows) > 30


def test_exact_sum_many_tiny_values_and_many_partials():
    """Ten thousand subnormal terms beside large ones that cancel; and summands 53 binades apart from the least
    subnormal to the top, each its own partial (some forty at once)."""
    rng = np.random.default_rng(7)
    tiny = rng.integers(1, 1000, 10_000) * TINY * rng.choice([-1.0, 1.0], 10_000)
    values = np.concatenate([tiny, [1e300, 1.0, -1e300]])
    rng.shuffle(values)
    same_as_fsum(values.tolist())
    every_binade = [math.ldexp(1.0, e) for e in range(-1074, 1024, 53)]
    same_as_fsum(every_binade + [-x for x in every_binade[::3]])
    assert len(FK.partials(np.array(every_binade))) == len(every_binade)


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.one_of(scaled, st.sampled_from([0.0, -0.0, TINY])), max_size=30))
def test_partials_have_the_python_partials_exact_sum(values):
    """The compiled partials (each shoe's floats handed on by the count analysis's chunks) are non-overlapping,
    increasing, and sum exactly to what :func:`baccara.sim.results.exact_partials`'s do (no zero kept)."""
    try:
        got = FK.partials(np.array(values, dtype=np.float64)).tolist()
    except OverflowError:
        with pytest.raises(OverflowError):
            math.fsum(values)
        return
    ref = exact_partials(values)
    assert sum(map(Fraction, got)) == sum(map(Fraction, ref)) == sum(map(Fraction, values))
    assert [x for x in ref if x] == got
    assert all(abs(a) < abs(b) for a, b in zip(got, got[1:]))


def perfect_block(name: str, decks: int, cut: int, seed: int, shoes: int) -> tuple[np.ndarray, np.ndarray, bool]:
    """Real perfect-counter output: each shoe's row and every coup's expectation (NaN past its coups, and at the
    decisions not priced unless every coup is)."""
    job = CountJob(seed, shoes, decks, B[name], None, cut)
    got = {}
    for every in (False, True):
        captured: list = []
        original = CA.FK.fold_shoes

        def keep(table, evs, *rest, _keep=captured, _fold=original):
            _keep.append((table.copy(), evs.copy()))
            _fold(table, evs, *rest)

        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(CA.FK, "fold_shoes", keep)
            CA.perfect_sums(job, 0, shoes, None, every)
        (table, evs), = captured
        got[every] = table, evs
    return got[False][0], got[False][1], got[True][1]


@pytest.mark.parametrize("name, decks, cut, seed", [("dragon7", 1, 14, 3), ("panda8", 1, 26, 3), ("tie", 1, 14, 9)])
def test_fold_perfect_is_the_python_fsum_loop(name, decks, cut, seed):
    """On the perfect counter's own output (NaN where a coup was not priced), the compiled fold gives the Python
    loop's ``ev_placed`` and ``ev_all`` bit for bit, written at an offset of a larger sums as the GPU's launches
    are, and not vacuously: bets were placed and every coup priced has a non-zero sum."""
    table, evs, evs_all = perfect_block(name, decks, cut, seed, 6)
    assert np.isnan(evs).any() and (evs > 0).any()
    for e, every in ((evs, False), (evs_all, True), (evs_all, False)):
        ref = CA.fold_perfect(table, e, every, reference=True)
        got = CA.fold_perfect(table, e, every)
        assert got.ev_placed.view(np.int64).tolist() == ref.ev_placed.view(np.int64).tolist()
        assert np.array_equal(got.table, ref.table) and (ref.ev_all is None) == (got.ev_all is None) == (not every)
        if every:
            assert got.ev_all.view(np.int64).tolist() == ref.ev_all.view(np.int64).tolist()  # type: ignore[union-attr]
            assert np.all(got.ev_all != 0)  # type: ignore[operator]
        into = CA.fold_perfect(np.zeros((9, table.shape[1]), dtype=np.int64), np.full((9, e.shape[1]), np.nan), every)
        CA.fold_perfect(table, e, every, into=into, at=2)
        assert into.ev_placed[2:8].tolist() == ref.ev_placed.tolist() and into.ev_placed[[0, 1, 8]].tolist() == [0] * 3
    assert (ref.ev_placed > 0).any()


def test_fold_perfect_of_adversarial_rows_is_the_python_loop():
    """Rows no shoe gives (huge cancellation, subnormals, NaN at the hands, hands past the row, no hands): the
    compiled fold and the Python loop agree bit for bit, NaN propagating into ``ev_all`` as in fsum."""
    rng = np.random.default_rng(3)
    evs = rng.normal(size=(6, 20)) * np.exp2(rng.integers(-1070, 1000, (6, 20)) / 2.0)
    evs[0, :3] = [1e16, 1.0, -1e16]
    evs[1] = TINY * rng.integers(-3, 4, 20)
    evs[2, 5] = np.nan
    evs[3, :] = -0.0
    table = np.zeros((6, 5), dtype=np.int64)
    table[:, 0] = [20, 20, 10, 20, 25, 0]
    ref = CA.fold_perfect(table, evs, True, reference=True)
    got = CA.fold_perfect(table, evs, True)
    assert got.ev_placed.view(np.int64).tolist() == ref.ev_placed.view(np.int64).tolist()
    assert got.ev_all.view(np.int64).tolist() == ref.ev_all.view(np.int64).tolist()  # type: ignore[union-attr]
    assert math.isnan(got.ev_all[2]) and bits(got.ev_all[3]) == bits(0.0)  # type: ignore[index]


def test_the_gpu_sizing_counts_the_fold_where_it_is_slower(monkeypatch):
    """At the nominal GPU rate a shoe of the perfect counter takes longer than the CPU's fold of it (which overlaps
    the next launch), so the sizing is the GPU's; were the rate raised far past it, the fold would set the pace."""
    from baccara.sim import limits

    gpu_shoe = limits.hands_per_shoe("punto", 8, "cut", 14, 0) / limits.NOMINAL_GPU_EVALUATIONS_RATE
    assert gpu_shoe > 5 * limits.NOMINAL_GPU_FOLD_SECONDS
    at_nominal = limits.size_on_gpu("the perfect counter", 8, 14, 10.0, 1, 10**12, kind="perfect")
    assert at_nominal.per_shoe == gpu_shoe and at_nominal.shoes == pytest.approx(10.0 / gpu_shoe, rel=0.01)
    monkeypatch.setattr(limits, "NOMINAL_GPU_EVALUATIONS_RATE", 1e15)
    fast = limits.size_on_gpu("the perfect counter", 8, 14, 10.0, 1, 10**12, kind="perfect")
    assert fast.per_shoe == limits.NOMINAL_GPU_FOLD_SECONDS and fast.gpu == 1e15
    assert limits.size_on_gpu("the count", 8, 14, 10.0, 1, 10**12).per_shoe < limits.NOMINAL_GPU_FOLD_SECONDS
