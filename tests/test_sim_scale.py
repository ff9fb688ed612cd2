"""The simulator at scale: the same seed gives the same tallies on every backend and worker count.

The runner hands out spans of chunks sized as the run goes, and each worker folds its own
tallies (:mod:`baccara.sim.distributed`); nothing in a result may depend on that: on one
thread, on two, on processes, on a local Dask cluster, on a Dask cluster of separate worker
processes, or chunk by chunk in this thread, the tallies (exact integers, float totals
rounded once) and the ``--out`` rows must be the same, bit for bit.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from fractions import Fraction

import numpy as np
import pytest

from baccara import builtin_bets
from baccara.sim import CheminJob, PuntoJob, load_count_toml, simulate_punto, tableau_strategy
from baccara.sim.count_analysis import CountJob
from baccara.sim.distributed import _Planner, _rechunked, n_chunks, run, run_span
from baccara.sim.punto import finalize
from baccara.sim.results import Accumulator, ChunkResult, combine

from .test_sim import EXAMPLES, stable

BETS = builtin_bets()


def bets(*names, table=BETS):
    return tuple(table[n] for n in names)


def serial(job) -> ChunkResult:
    """Every chunk in this thread, one by one, combined: the reference."""
    return combine([job.run_chunk(i) for i in range(n_chunks(job))])


def same(a: ChunkResult, b: ChunkResult) -> None:
    assert (a.shoes, a.hands) == (b.shoes, b.hands)
    assert a.sums == b.sums
    assert a.floats == b.floats  # bit for bit
    assert a.extra.keys() == b.extra.keys()


# ---------------------------------------------------------------- spans
@pytest.mark.parametrize("names", [("banker", "player", "tie"),  # the values kernel
                                   ("banker", "tie", "dragon7", "player_pair")])  # the general one
def test_a_span_folded_in_the_kernel_is_its_chunks_combined(names):
    job = PuntoJob(seed=7, shoes=2300, bets=bets(*names), chunk_size=300)
    ref = serial(job)
    whole = job.run_span(0, n_chunks(job))
    same(whole, ref)
    assert whole.chunks == 8 and whole.index == 0
    acc = Accumulator()
    for i, k in ((5, 3), (0, 2), (2, 3)):  # out of order, unequal spans
        acc.add(job.run_span(i, k))
    same(acc.result(), ref)


def test_tallies_that_could_overflow_int64_are_folded_in_shorter_runs_or_by_chunk():
    """A commission of a millionth makes Banker's net 10^6 units a coup: a shoe's (net)^2 reaches 2^52,
    so the kernel folds a few hundred shoes at a time; of a billionth, not one shoe fits, and the
    span goes through Python's integers."""
    for commission, short in ((Fraction(1, 10**6), True), (Fraction(1, 10**9), False)):
        table = builtin_bets(commission=commission)
        job = PuntoJob(seed=3, shoes=1500, bets=bets("banker", "tie", table=table), chunk_size=500)
        step = job._fold_step()
        assert (0 < step < 1500) if short else step == 0
        same(job.run_span(0, 3), serial(job))


def test_the_count_analysis_folds_its_spans_exactly():
    count = load_count_toml(EXAMPLES / "counts" / "dragon7.toml")
    job = CountJob(seed=5, shoes=1200, decks=8, bet=BETS["dragon7"], count=count, chunk_size=200)
    same(job.run_span(0, 6), serial(job))
    same(run(job, workers=2)[0], serial(job))


def test_the_planner_covers_every_chunk_once_and_shrinks_at_the_end():
    job = PuntoJob(seed=1, shoes=10**6, bets=bets("banker"), chunk_size=100)
    plan = _Planner(job, workers=4, target=0.2)
    spans = []
    while (span := plan.take()) is not None:
        spans.append(span)
        plan.observe(ChunkResult(index=span[0], shoes=0, hands=0, seconds=span[1] * 1e-4, chunks=span[1]))
    covered = [i for first, k in spans for i in range(first, first + k)]
    assert covered == list(range(n_chunks(job)))
    sizes = [k for _, k in spans]
    assert sizes[0] == 1 and max(sizes) <= 2000  # 0.2 s at 0.1 ms a chunk
    assert sizes[-1] == 1 and sizes[-10:] == sorted(sizes[-10:], reverse=True)  # guided: the tail shrinks
    rows = _Planner(PuntoJob(seed=1, shoes=10**6, bets=bets("banker"), chunk_size=100, keep_rows=True), 4, 1.0)
    assert rows.cap == (1 << 16) // 100  # a span that keeps rows stays a few MB


def test_a_short_job_is_cut_for_every_worker_the_same_result():
    job = PuntoJob(seed=2, shoes=3000, bets=bets("banker", "dragon7"))  # one chunk of 4,096
    small = _rechunked(job, 2)
    assert n_chunks(job) == 1 and n_chunks(small) == 8
    same(serial(small), serial(job))
    assert _rechunked(small, 2) is small


class SleepyJob:
    """Chunks that wait without the GIL (as the kernels deal): how much the runner lets them overlap."""

    def __init__(self, shoes: int, wait: float) -> None:
        self.shoes, self.chunk_size, self.wait = shoes, 1, wait

    def run_chunk(self, index: int, pool=None) -> ChunkResult:
        time.sleep(self.wait)
        return ChunkResult(index=index, shoes=1, hands=1, sums={"x": index}, seconds=self.wait)


@pytest.mark.parametrize("workers", [2, 16])
def test_threads_overlap_their_spans_with_no_barrier_between_them(workers, monkeypatch):
    """Sleeping takes no CPU, so this holds on a loaded machine (and 16 threads on 2 cores): 16
    threads do 16 waits at once."""
    import baccara.processes

    monkeypatch.setattr(baccara.processes, "max_workers", lambda: 64)  # where every --workers is checked
    job = SleepyJob(shoes=8 * workers, wait=0.025)
    t0 = time.perf_counter()
    total, info = run(job, workers=workers)
    wall = time.perf_counter() - t0
    assert total.sums["x"] == sum(range(job.shoes)) and info.workers == workers
    serial = job.shoes * job.wait  # 0.4 s on 2 threads, 3.2 s on 16
    assert wall < serial / workers * 2, wall  # near the ideal in practice; half of it at the very least


@pytest.mark.parametrize(("backend", "workers"), [("threads", 1), ("threads", 2), ("processes", 2)])
def test_a_runs_seconds_leave_out_loading_its_kernels(backend, workers, monkeypatch):
    """The kernels are loaded once, before the clock (and before any fork): ``run.seconds`` and the rate
    measure the dealing alone, whatever the workers.  On one thread they were loaded on the clock (the
    perfect counter reported a lower rate at -j 1 than at -j 2), on processes after the clock started."""
    import baccara.sim.distributed as D

    real, loads = D._load_kernels, []

    def slow_load(job) -> None:  # the real load, then a wait as long as the longest
        real(job)
        loads.append(job.shoes)
        time.sleep(1.0)

    monkeypatch.setattr(D, "_load_kernels", slow_load)
    job = PuntoJob(seed=4, shoes=200, bets=bets("banker", "tie"))
    t0 = time.perf_counter()
    total, info = run(job, backend, workers)
    wall = time.perf_counter() - t0
    assert len(loads) == 1 and total.shoes == 200
    assert info.seconds <= wall - 1.0, (info, wall)  # the load and its wait came before the run's clock


# ---------------------------------------------------------------- every backend, every worker count
def test_every_backend_and_worker_count_gives_the_same_result():
    count = load_count_toml(EXAMPLES / "counts" / "dragon7.toml")
    jobs = [PuntoJob(seed=11, shoes=30_000, bets=bets("banker", "player", "tie"), chunk_size=1000),
            PuntoJob(seed=11, shoes=6000, bets=bets("banker", "tie", "dragon7", "panda8"), count=count,
                     cut=count.cut, chunk_size=500)]
    for job in jobs:
        ref = serial(job)
        expected = stable(finalize(job, ref).to_json())
        for backend, workers in (("threads", 1), ("threads", 2), ("processes", 2), ("dask", 2)):
            total, info = run(job, backend, workers)
            same(total, ref)
            assert (info.backend, info.workers) == (backend, workers)
            assert stable(finalize(job, total, info.to_json()).to_json()) == expected


def test_the_perfect_counter_gives_the_same_decisions_on_two_workers():
    """On bets on card values the perfect counter is compiled and runs on threads: two threads place the same
    bets as one shoe after another (tallies and exact evaluations), and a span of chunks folded in its kernel
    gives the chunks' tallies folded one by one, in any order."""
    job = PuntoJob(seed=5, shoes=4, bets=bets("tie", "dragon7"), perfect=True, chunk_size=1)
    assert not job.holds_gil
    ref = serial(job)
    assert ref.extra["evaluations"] > 0
    total, info = run(job, workers=2)
    assert info.workers == 2 and info.backend == "threads"
    assert (total.shoes, total.hands, total.sums) == (ref.shoes, ref.hands, ref.sums)
    assert total.extra["evaluations"] == ref.extra["evaluations"]
    acc = Accumulator(first=1)
    for i in (3, 1, 2):
        acc.add(job.run_chunk(i))
    assert job.run_span(1, 3).sums == acc.result().sums != {}


def test_chemin_money_adds_up_the_same_bit_for_bit_on_every_worker_count():
    """Chemin de fer's money is float: each worker keeps its totals as exact partial sums."""
    job = CheminJob(seed=4, shoes=900, strategy=tableau_strategy(), decks=6, chunk_size=50)
    ref = serial(job)
    assert ref.floats  # there is money to add
    for workers in (1, 2):
        same(run(job, workers=workers)[0], ref)
    acc = Accumulator()  # spans folded elsewhere and folded again: still rounded once
    for i in (6, 0, 12):
        acc.add(run_span(job, i, 6))
    same(acc.result(), ref)


def test_out_rows_are_the_same_on_every_backend():
    job = PuntoJob(seed=6, shoes=5000, bets=bets("banker", "dragon7"), chunk_size=400, keep_rows=True)
    got = {}
    for backend, workers in (("threads", 1), ("threads", 2), ("processes", 2)):
        parts: list[dict] = []
        run(job, backend, workers, sink=parts.append)
        got[(backend, workers)] = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    ref = got[("threads", 1)]
    assert ref["shoe"].tolist() == list(range(job.shoes))
    for rows in got.values():
        assert rows.keys() == ref.keys()
        for k in ref:
            assert np.array_equal(rows[k], ref[k]), k


def test_a_stop_from_progress_ends_every_thread_promptly():
    job = PuntoJob(seed=1, shoes=10**9, bets=bets("banker"))

    class Stop(Exception):
        pass

    def progress(done, total, hands):
        if done >= 200_000:
            raise Stop

    t0 = time.monotonic()
    with pytest.raises(Stop):
        run(job, workers=2, progress=progress)
    assert time.monotonic() - t0 < 20
    time.sleep(0.3)
    import threading
    assert not [t for t in threading.enumerate() if t.name.startswith("baccara-sim-")]


# ---------------------------------------------------------------- a real Dask cluster
@contextlib.contextmanager
def dask_cluster(tmp_path, workers: int = 2):
    """A scheduler and ``workers`` worker processes on 127.0.0.1, started here, stopped on exit (and by
    themselves: a worker leaves 20 s after losing its scheduler)."""
    env = dict(os.environ, NUMBA_NUM_THREADS="1", OMP_NUM_THREADS="1", PYTHONWARNINGS="ignore",
               PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    file = tmp_path / "scheduler.json"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "env": env}
    procs = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                               "--port", "0", "--no-dashboard", "--scheduler-file", str(file)], **quiet)]
    try:
        procs += [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", "--scheduler-file",
                                    str(file), "--host", "127.0.0.1", "--nthreads", "1", "--no-nanny",
                                    "--no-dashboard", "--death-timeout", "20", "--name", f"w{i}"], **quiet)
                  for i in range(workers)]
        deadline = time.monotonic() + 60
        while not file.exists():
            assert time.monotonic() < deadline, "the scheduler did not start"
            time.sleep(0.1)
        import json

        from distributed import Client

        address = json.loads(file.read_text())["address"]
        with Client(address, timeout="20s") as c:
            c.wait_for_workers(workers, timeout=60)
        yield address
    finally:
        for p in procs[::-1]:
            if p.poll() is None:
                p.terminate()
        for p in procs[::-1]:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(timeout=10)


@pytest.mark.slow
def test_a_dask_cluster_of_worker_processes_gives_the_threads_result(tmp_path):
    job = PuntoJob(seed=21, shoes=40_000, bets=bets("banker", "player", "tie", "dragon7"), chunk_size=2000)
    local = simulate_punto(job, workers=2).to_json()
    with dask_cluster(tmp_path) as address:
        remote = simulate_punto(job, scheduler=address).to_json()
    assert remote["run"]["backend"] == "dask" and remote["run"]["workers"] == 2
    assert stable(remote) == stable(local)


# ---------------------------------------------------------------- what users see: estimates and sizes
def test_a_budget_sizes_a_run_from_the_cores_and_a_measured_speed(monkeypatch):
    import baccara.processes
    from baccara.workload import size_to_budget

    monkeypatch.setattr(baccara.processes, "default_workers", lambda: 16)  # a machine of 16 cores
    s = size_to_budget("the count", 1e-5, 10, 2, 100_000, 10**9)
    assert s.shoes == 2_000_000 and s.seconds == pytest.approx(10)
    assert "2,000,000 shoes" in s.describe() and "2 cores" in s.describe() and "10 s" in s.describe()
    assert size_to_budget("x", 3.7e-6, 10, 3, 1, 10**9).shoes == 8_100_000  # 8.1e6: two significant figures
    assert size_to_budget("x", 1e-2, 10, 2, 5000, 10**9).shoes == 5000  # never below the least
    assert "its least" in size_to_budget("x", 1e-2, 10, 2, 5000, 10**9).describe()
    assert size_to_budget("x", 1e-9, 10, 16, 1, 10**7).shoes == 10**7  # nor above the most


def test_a_budget_sizes_a_run_on_the_cores_that_run_at_once(monkeypatch):
    """More workers than cores take turns on them: the run is sized on the cores, and the line says both
    (``count --budget 2 -j 4`` on 2 cores was sized for 4 and took twice its budget)."""
    import baccara.processes
    from baccara.workload import size_to_budget

    monkeypatch.setattr(baccara.processes, "default_workers", lambda: 2)  # a machine of 2 cores
    s = size_to_budget("the count", 1e-5, 1.0, 4, 1, 10**9)
    assert s.shoes == size_to_budget("the count", 1e-5, 1.0, 2, 1, 10**9).shoes == 200_000
    assert s.workers == 2 and s.seconds == pytest.approx(1.0)
    assert "on the 2 cores here, which the 4 workers share" in s.describe()
    assert s.to_json()["workers"] == 2 and s.to_json()["workers_asked"] == 4
    fewer = size_to_budget("the count", 1e-5, 1.0, 1, 1, 10**9)  # fewer workers than cores: on those
    assert fewer.shoes == 100_000 and "one core here (" in fewer.describe() and "workers_asked" not in fewer.to_json()


def test_size_job_measures_the_jobs_own_kernels():
    from baccara.sim.distributed import calibrate, size_job

    job = PuntoJob(seed=1, shoes=10**9, bets=bets("banker", "player", "tie"))
    cal = calibrate(job, 0.05)
    assert cal.seconds >= 0.05 or cal.shoes == job.shoes
    assert 30 * cal.shoes < cal.hands < 90 * cal.shoes  # 8-deck shoes to the cut card: ~81 hands
    s = size_job(job, "the flat bets", 2.0, 2, 10, 10**9)
    assert s.shoes >= 10 and 0.5 < s.seconds / 2.0 <= 1.0  # rounded down to two significant figures


def test_dry_run_estimates_every_backend_from_a_calibration(capsys):
    import json

    from typer.testing import CliRunner

    from baccara.cli.simulate import simulate_app
    from baccara.sim.distributed import CPU_BACKENDS

    r = CliRunner().invoke(simulate_app, ["punto", "--shoes", "1e7", "--seed", "1", "--workers", "2", "--dry-run",
                                          "--json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["calibration"]["hands"] > 0 and doc["calibration"]["seconds"] > 0
    assert set(doc["backends"]) == set(CPU_BACKENDS)
    b = doc["backends"]
    per_shoe = doc["calibration"]["seconds"] / doc["calibration"]["shoes"]
    assert b["threads"]["seconds"] == pytest.approx(per_shoe * 10**7 / 2)
    assert b["threads"]["seconds"] < b["processes"]["seconds"] <= b["dask"]["seconds"]  # their start-up
    assert "calibrated here" in r.stderr and "--backend processes -j 2" in r.stderr


def test_an_estimate_counts_workers_beyond_the_cores_as_taking_turns(monkeypatch):
    """4 workers on 2 cores deal no faster than 2: the dry run's estimates and the planned estimate say so."""
    import baccara.processes as P
    from baccara.sim.distributed import Calibration, estimate_backends

    monkeypatch.setattr(P, "default_workers", lambda: 2)
    job = PuntoJob(seed=1, shoes=10**6, bets=(builtin_bets()["banker"],))
    cal = Calibration(1000, 81_000, 0.01)
    two, four = estimate_backends(job, 2, cal), estimate_backends(job, 4, cal)
    assert four["threads"]["seconds"] == pytest.approx(two["threads"]["seconds"])
    assert four["threads"]["seconds"] == pytest.approx(10**6 * 0.01 / 1000 / 2)

    from typer.testing import CliRunner

    from baccara.cli.simulate import simulate_app

    monkeypatch.setattr(P, "max_workers", lambda: 4)
    r = CliRunner().invoke(simulate_app, ["punto", "--shoes", "1e5", "--seed", "1", "--workers", "4", "--dry-run"])
    assert r.exit_code == 0, r.output
    assert "on 2 free cores, which the 4 workers share" in r.stderr
    line = next(x for x in r.stderr.splitlines() if x.startswith("estimate:"))
    assert line.endswith("on 2 workers)")  # the planned estimate: the 2 cores, not the 4 workers


class SlowFirstJob(SleepyJob):
    """The first chunk waits long, the others briefly: a straggler that every other span finishes after."""

    def run_chunk(self, index: int, pool=None) -> ChunkResult:
        wait = 3.0 if index == 0 else self.wait
        time.sleep(wait)
        return ChunkResult(index=index, shoes=1, hands=1, sums={"x": index}, seconds=wait)


def test_no_worker_waits_behind_a_slow_span():
    """Spans come back out of order and are folded in order; a span's tallies wait for the earlier ones at no
    cost, so the other thread deals on (it stopped after a window of spans, idle until the slow one came back)."""
    job = SlowFirstJob(shoes=151, wait=0.02)
    t0 = time.perf_counter()
    total, info = run(job, workers=2)
    wall = time.perf_counter() - t0
    assert total.sums["x"] == sum(range(job.shoes))
    assert wall < 3.6, wall  # the slow chunk's 3 s beside the other 150 chunks' 3 s; blocked, about 4.3 s


@pytest.mark.parametrize("threads", [0, 1, 3])
def test_blocks_cover_every_row_once_and_hold_at_most_their_rows(threads):
    """``in_blocks`` with ``most``: every row in exactly one block of at most ``most`` rows, on threads or not (the
    perfect counter's per-coup expectations are kept a block at a time, and the threads take blocks as they end)."""
    from concurrent.futures import ThreadPoolExecutor

    from baccara.sim.results import in_blocks

    for n, most in ((1, 4), (10, 4), (1000, 7), (64, 64), (65, 64)):
        seen: list[tuple[int, int]] = []
        with ThreadPoolExecutor(threads) if threads else contextlib.nullcontext() as pool:
            in_blocks(pool, n, lambda lo, hi, seen=seen: seen.append((lo, hi)), most=most)
        rows = sorted(i for lo, hi in seen for i in range(lo, hi))
        assert rows == list(range(n)) and all(0 < hi - lo <= most for lo, hi in seen)
