"""The compiled perfect counter (:mod:`baccara.sim._perfect_kernel`): its numerators are the exact engine's,
its rows the Python path's shoe for shoe, an expectation of exactly 0 is not bet, and a seed gives the same
rows on one thread, two threads and two processes; the count analysis's perfect counter
(:func:`baccara.sim.count_analysis.perfect_sums`) gives the Python path's sums and expectations to the last bit."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction
from math import gcd, perm
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baccara.punto.bets import builtin_bets, load_bets_toml
from baccara.punto.exact import edges_for_shoes, evaluate, value_cell_counts
from baccara.rules import PUNTO_BANCO, load_tableau_toml
from baccara.shoe import Shoe
from baccara.sim import _perfect_kernel as PK
from baccara.sim import count_analysis as CA
from baccara.sim.count_analysis import CountJob
from baccara.sim.distributed import run
from baccara.sim.punto import PuntoJob, bet_table, perfect_rows, perfect_rows_python, simulate_punto
from baccara.sim.results import combine

B = builtin_bets()
PD, BD = PUNTO_BANCO.player_array, PUNTO_BANCO.banker_array
VALUE_BETS = sorted(n for n, b in B.items() if b.resolution == "value")
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
USER = load_bets_toml(EXAMPLES / "side_bets.toml")
TABLEAUX = EXAMPLES / "tableaux"


def vpay_of(names):
    return bet_table(tuple(B[n] for n in names))[0][:PK.VALUE_CELLS]


def cell_counts(values) -> np.ndarray:
    return value_cell_counts(Shoe(tuple(int(x) for x in values), "value")).reshape(-1)


# ---------------------------------------------------------------- the numerators
@settings(max_examples=25, deadline=None)
@given(values=st.lists(st.integers(0, 32), min_size=9, max_size=9), tens=st.integers(0, 128),
       names=st.lists(st.sampled_from(VALUE_BETS), min_size=1, max_size=3, unique=True))
def test_numerators_are_the_exact_engines(values, tens, names):
    counts = np.array([tens, *values])
    if counts.sum() < 6:
        counts[0] += 6
    bets = tuple(B[n] for n in names)
    num = PK.numerators(counts, vpay_of(names), PD, BD)[0]
    assert num.tolist() == edges_for_shoes(counts, bets).numerators[0].tolist()
    exact = evaluate(Shoe(tuple(int(x) for x in counts), "value"), bets)
    deals = perm(int(counts.sum()), 6)
    dens = bet_table(bets)[1]
    assert [Fraction(int(x), d * deals) for x, d in zip(num, dens)] == [exact[n].ev for n in names]
    assert [bool(x > 0) for x in num] == [exact[n].ev > 0 for n in names]


@pytest.mark.parametrize("names, dense", [(("dragon7",), False), (("tie",), False), (("tie", "panda8"), False),
                                          (("banker",), True), (("player", "dragon7"), True)])
def test_sparse_and_dense_paths_count_every_value_cell(names, dense):
    """Bets that pay alike in most cells count only the others (a natural's cell, the tie's 8-8 and 9-9, from
    its own first-four weights); the rest run the value kernel's dense loops: all give sum(payout x deals) over
    the 400 value cells, here at depleted shoes of 1 to 8 decks."""
    vpay = vpay_of(names)
    plan = PK.numerator_plan(vpay, PD, BD, 416)
    assert plan[4] == dense  # (base, dev, other, both, dense, rising)
    rng = np.random.default_rng(11)
    for decks in (1, 3, 8):
        values = np.array([[rng.integers(0, 16 * decks + 1)] + list(rng.integers(0, 4 * decks + 1, 9))
                           for _ in range(4)]) + 1
        num = PK.numerators(values, vpay, PD, BD, plan)
        for row, got in zip(values, num):
            expect = [sum(int(p) * int(c) for p, c in zip(vpay[:, b], cell_counts(row))) for b in range(len(names))]
            assert got.tolist() == expect


def test_payouts_that_leave_int64_with_a_base_are_summed_from_zero():
    """A bet paying -1000 in most cells and +1500 in a few: -1000 (N)_6 plus 2500 per winning deal could leave
    int64 at 8 decks, so the plan sums the payouts themselves (base 0); the numerator is still exact."""
    vpay = np.full((PK.VALUE_CELLS, 1), -1000, dtype=np.int64)
    vpay[::37] = 1500
    base, *_ = PK.numerator_plan(vpay, PD, BD, 416)
    assert base.tolist() == [0]
    assert PK.numerator_plan(vpay, PD, BD, 52)[0].tolist() == [-1000]
    row = np.array([120, 31, 30, 29, 28, 31, 30, 32, 29, 30])
    expect = sum(int(p) * int(c) for p, c in zip(vpay[:, 0], cell_counts(row)))
    assert PK.numerators(row, vpay, PD, BD)[0, 0] == expect


def test_an_expectation_of_exactly_zero_is_not_bet():
    """The rule is num > 0 on exact integers: a bet priced at exactly 0 is not placed, as
    ShoeEdges.positive and the exact engine's Fractions say; one unit more on a win and it is."""
    row = np.array([9, 3, 2, 4, 3, 2, 3, 1, 2, 2])  # 31 cards
    counts = cell_counts(row)
    deals = perm(int(row.sum()), 6)
    win = np.zeros(PK.VALUE_CELLS, dtype=bool)
    win[np.arange(PK.VALUE_CELLS) % 40 == 15] = True  # Player stands, Banker draws to 7: whoever wins
    c = int(counts[win].sum())
    g = gcd(c, deals - c)
    vpay = np.where(win, (deals - c) // g, -c // g).astype(np.int64)[:, None]
    assert Fraction(int(sum(int(p) * int(k) for p, k in zip(vpay[:, 0], counts))), deals) == 0
    assert PK.numerators(row, vpay, PD, BD)[0, 0] == 0
    vpay[win] += 1
    assert PK.numerators(row, vpay, PD, BD)[0, 0] > 0


# ---------------------------------------------------------------- the rows
@pytest.mark.parametrize("names, decks, cut, every, shoes, tableau", [
    (("dragon7",), 8, 14, 1, 12, None),
    (("tie", "panda8"), 6, 16, 2, 10, None),
    (("banker", "dragon7"), 1, 11, 1, 30, None),
    (("big", "lucky6"), 2, 20, 3, 20, None),
    (("tie", "dragon7"), 2, 14, 1, 20, "chemin_d0.toml"),  # Player stands on 5: other cells, other draws
])
def test_rows_are_the_python_paths(names, decks, cut, every, shoes, tableau):
    """The same shoes, decisions and tallies as the exact engine called from Python a shoe at a time."""
    bets = tuple(B[n] if n in B else USER[n] for n in names)
    rules = {"tableau": load_tableau_toml(TABLEAUX / tableau)} if tableau else {}
    job = PuntoJob(seed=31, shoes=shoes, decks=decks, cut=cut, bets=bets, perfect=True, perfect_every=every, **rules)
    assert not job.holds_gil
    got, extra = perfect_rows(job, 3, shoes)
    ref, ref_extra = perfect_rows_python(job, 3, shoes)
    assert np.array_equal(got, ref)
    assert extra["evaluations"] == ref_extra["evaluations"]
    assert 0 < extra["priced"] <= extra["evaluations"]


def test_a_decision_known_from_the_last_pricing_is_not_priced_again():
    """Dragon 7 pays 40 on some deals and loses 1 on the rest: its winning deals only fall as cards leave, so
    while 41 x (those of the last pricing) stays below the deals left, EV < 0 without pricing (and the rows are
    the Python path's: test_rows_are_the_python_paths).  A bet that pays below its usual payout somewhere
    (here 0 in most cells, -1 or +1 in some) has no such bound."""
    job = PuntoJob(seed=4, shoes=10, bets=(B["dragon7"],), perfect=True)
    _, extra = perfect_rows(job, 0, 10)
    assert extra["priced"] < extra["evaluations"]
    assert PK.numerator_plan(vpay_of(("dragon7",)), PD, BD, 416)[5]  # (base, dev, other, both, dense, rising)
    vpay = np.zeros((PK.VALUE_CELLS, 1), dtype=np.int64)
    vpay[::7], vpay[3::7] = -1, 1
    assert not PK.numerator_plan(vpay, PD, BD, 416)[5]


def test_pair_bets_and_huge_shoes_keep_the_python_path():
    pair = PuntoJob(seed=1, shoes=1, decks=1, bets=(B["dragon7"], USER["either_pair"]), perfect=True,
                    perfect_every=4)
    assert pair.holds_gil
    table, extra = perfect_rows(pair, 0, 1)
    assert np.array_equal(table, perfect_rows_python(pair, 0, 1)[0]) and "priced" not in extra
    for decks in (8, 15, 16, 22, 23):  # Dragon 7's 40 (N)_6 passes 2^63 between 15 and 16 decks, 4 N^6 after 22
        n = 52 * decks
        big = 40 * perm(n, 6) >= 2**63 or 4 * n**6 >= 2**63
        assert PuntoJob(seed=1, shoes=1, decks=decks, bets=(B["dragon7"],), perfect=True).holds_gil == big
        assert big == (decks >= 16)


def _figures(res) -> tuple:
    return (res.outcomes, {n: (s.placed, s.net, s.wins) for n, s in res.bets.items()},
            res.extra["perfect"]["evaluations"], {k: v.tolist() for k, v in res.rows.items()})


def test_the_same_rows_on_one_and_two_threads():
    job = PuntoJob(seed=8, shoes=40, decks=2, bets=(B["dragon7"], B["tie"]), perfect=True, chunk_size=8,
                   keep_rows=True)
    one = simulate_punto(job, workers=1)
    two = simulate_punto(job, workers=2)
    assert two.run["backend"] == "threads" and _figures(one) == _figures(two)
    single = simulate_punto(PuntoJob(seed=8, shoes=40, decks=2, bets=job.bets, perfect=True, chunk_size=40,
                                     keep_rows=True), workers=2)  # one chunk shared by the threads
    assert _figures(single) == _figures(one)


def test_the_same_rows_on_two_processes():
    job = PuntoJob(seed=8, shoes=16, decks=2, bets=(B["dragon7"], B["tie"]), perfect=True, chunk_size=8,
                   keep_rows=True)
    procs = simulate_punto(job, backend="processes", workers=2)
    assert procs.run["backend"] == "processes"
    assert _figures(procs) == _figures(simulate_punto(job, workers=1))


# ---------------------------------------------------------------- the count analysis's perfect counter
@pytest.mark.parametrize("name, decks, cut, seed", [
    ("dragon7", 8, 14, 1), ("dragon7", 1, 26, 2), ("panda8", 8, 52, 3), ("panda8", 1, 14, 4),
    ("tie", 8, 14, 2), ("tie", 1, 14, 9)])
def test_count_analysis_sums_are_the_python_paths(name, decks, cut, seed):
    """Compiled, the count analysis's perfect counter gives the Python path's per-shoe sums (integers) and
    expectations (the same floats, summed by math.fsum) to the last bit, and so the same figures."""
    job = CountJob(seed, 6, decks, B[name], None, cut, chunk_size=3)
    assert not job.holds_gil
    for every_coup in (False, True):
        got = CA.perfect_sums(job, 2, 4, None, every_coup)
        ref = CA.perfect_sums(job, 2, 4, None, every_coup, compiled=False)
        assert got.compiled and not ref.compiled
        assert np.array_equal(got.table, ref.table) and got.table[:, 1].sum() > 0
        assert got.ev_placed.tolist() == ref.ev_placed.tolist()
        assert (got.ev_all is None) == (not every_coup)
        if every_coup:
            assert got.ev_all.tolist() == ref.ev_all.tolist()  # type: ignore[union-attr]
    den = bet_table((B[name],))[1][0]
    compiled = [job.run_chunk(i) for i in range(2)]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(CA, "_compiled_args", lambda _job: None)
        python = [job.run_chunk(i) for i in range(2)]
    assert [(c.sums, c.floats) for c in compiled] == [(c.sums, c.floats) for c in python]
    total, _ = run(job, "threads", 1)
    ref = combine(python)
    assert (total.sums, total.floats) == (ref.sums, ref.floats)
    assert CA.figures("perfect", total, den).to_json() == CA.figures("perfect", ref, den).to_json()


@pytest.mark.parametrize("chunk_size", [1, 5, 24])
def test_count_analysis_floats_do_not_depend_on_the_chunks(chunk_size):
    """Each chunk hands its shoes' expectations on as exact partial sums, so the total is their correctly
    rounded sum however the shoes are cut (a short job is cut finer for more workers): the same to the last bit
    on 1, 2 and 3 threads and on any chunk size."""
    job = CountJob(7, 24, 2, B["dragon7"], None, 14, chunk_size=chunk_size)
    ref, _ = run(CountJob(7, 24, 2, B["dragon7"], None, 14, chunk_size=24), "threads", 1)
    assert ref.floats["ev"] > 0
    for workers in (1, 2, 3):
        got, _ = run(job, "threads", workers)
        assert (got.sums, got.floats) == (ref.sums, ref.floats), workers


def test_count_analysis_same_figures_on_one_and_two_threads():
    """The same chunks (8, enough that two workers' run keeps them) give the same sums, floats included."""
    job = CountJob(7, 24, 2, B["dragon7"], None, 14, chunk_size=3)
    one, _ = run(job, "threads", 1)
    two, info = run(job, "threads", 2)
    assert one.floats["ev"] > 0
    assert info.backend == "threads"
    assert (one.sums, one.floats) == (two.sums, two.floats)
    with ThreadPoolExecutor(2) as pool:  # one chunk shared by the threads
        shared = CA.perfect_sums(job, 0, 24, pool, True)
    alone = CA.perfect_sums(job, 0, 24, None, True)
    assert np.array_equal(shared.table, alone.table) and shared.ev_placed.tolist() == alone.ev_placed.tolist()
    assert shared.ev_all.tolist() == alone.ev_all.tolist()  # type: ignore[union-attr]


def test_the_perfect_counters_blocks_change_nothing(monkeypatch):
    """Blocks of 5 shoes (the shoes' expectations kept a block at a time, on threads or one after another) give
    the sums of one block of them all, to the last bit."""
    job = CountJob(7, 24, 2, B["dragon7"], None, 14, chunk_size=3)
    whole = CA.perfect_sums(job, 1, 23, None, True)
    monkeypatch.setattr(CA, "_EV_BLOCK", 5)
    with ThreadPoolExecutor(2) as pool:
        for got in (CA.perfect_sums(job, 1, 23, pool, True), CA.perfect_sums(job, 1, 23, None, True)):
            assert np.array_equal(got.table, whole.table) and got.ev_placed.tolist() == whole.ev_placed.tolist()
            assert got.ev_all.tolist() == whole.ev_all.tolist()  # type: ignore[union-attr]


def test_count_analysis_pair_bets_keep_the_python_path():
    job = CountJob(1, 1, 1, USER["either_pair"], None, 14)
    assert job.holds_gil and not CA.perfect_sums(job, 0, 1).compiled


def test_the_compiled_plan_is_made_once_a_job():
    """Each chunk and every check of the GIL asks for the compiled counter's plan: it is made once (a millisecond
    holding the GIL each time would keep threads waiting on one another); the GPU's reasons take any sequence."""
    from baccara.sim import punto as P

    P._perfect_args.cache_clear()
    job = PuntoJob(seed=1, shoes=64, bets=(B["dragon7"],), perfect=True, chunk_size=8)
    perfect_rows(job, 0, 8)
    perfect_rows(job, 8, 8)
    assert not job.holds_gil
    info = P._perfect_args.cache_info()
    assert info.misses == 1 and info.hits >= 2
    assert P.perfect_gpu_refusal([B["dragon7"]], 8) == P.perfect_gpu_refusal((B["dragon7"],), 8) is None
    assert "pair" in (P.perfect_gpu_refusal([B["player_pair"]], 8) or "")
