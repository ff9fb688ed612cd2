"""Benchmark: the perfect counter, compiled against the exact engine called from Python, in the same run.

For each set of bets on card values, on 8-deck shoes to the cut card:

1. the compiled loop (:func:`baccara.sim.punto.perfect_rows`: deal, price, bet, no Python per coup) on
   ``--shoes`` shoes, one core;
2. the Python path (:func:`baccara.sim.punto.perfect_rows_python`: each shoe dealt, then its decisions
   priced by :func:`baccara.punto.exact.edges_for_shoes`) on the first ``--reference-shoes`` of them,
   whose rows must be the same;

microseconds a coup (CPU time of the thread, so another process's load does not count; wall time beside
it) and their ratio.  Then the threads: the same job through :func:`baccara.sim.punto.simulate_punto` on
1 and on ``--workers`` threads, wall-clock, and the parallel efficiency T1 / (workers x Tw), with the
load average (on a shared machine the efficiency falls with the other processes' load) and the CPU time a
coup on each (equal when the threads add no work of their own); beside it the speed-up a plain GIL-free
compiled loop gets from the same threads at the same time (what the machine gives), and the Python steps the
main thread takes while a thread runs the counter (none if it held the GIL).

Then the count analysis's perfect counter (``baccara count``'s, and ``baccara report``'s, which prices every
coup for the cut card's effect): :func:`baccara.sim.count_analysis.perfect_sums` compiled against its Python
path (each shoe by :func:`baccara.sim.count_analysis.perfect_shoe`), Dragon 7, in shoes a CPU-second of the
thread, the same per-shoe sums and expectations required.

Last, that analysis's fold (each shoe's expectations summed exactly, :func:`baccara.sim.count_analysis.fold_perfect`):
microseconds a shoe by the Python :func:`math.fsum` loop and compiled, on real output (``--fold-shoes`` shoes of
Dragon 7, 8 decks, cut 14, tiled ``--fold-copies`` times), the same bits required; and the compiled fold's share of
a shoe at the GPU's nominal rate (:data:`baccara.sim.limits.NOMINAL_GPU_EVALUATIONS_RATE`: the GPU's sizing
leaves the fold out while it stays below about 1%).  ``--fold-only`` runs this part alone (a few seconds).

    .venv/bin/python benchmarks/bench_perfect.py [--shoes 300] [--reference-shoes 40] [--workers 2]
        [--thread-shoes 1000] [--fold-shoes 256] [--fold-copies 16] [--fold-only] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import threading
import time
from functools import partial

import numpy as np

from baccara import builtin_bets
from baccara.sim import _perfect_kernel as PK
from baccara.sim import count_analysis as CA
from baccara.sim.count_analysis import CountJob, fold_perfect, perfect_sums
from baccara.sim.limits import NOMINAL_GPU_EVALUATIONS_RATE, hands_per_shoe
from baccara.sim.punto import PuntoJob, max_coups, perfect_rows, perfect_rows_python, simulate_punto

SETS = (("dragon7",), ("tie", "panda8"), ("banker", "player", "tie", "dragon7", "panda8"))


def timed(call):
    """(result, CPU seconds of this thread, wall seconds)."""
    c0, w0 = time.thread_time(), time.perf_counter()
    out = call()
    return out, time.thread_time() - c0, time.perf_counter() - w0


def compare(names: tuple[str, ...], shoes: int, reference: int) -> dict:
    bets = builtin_bets()
    job = PuntoJob(seed=2026, shoes=shoes, bets=tuple(bets[n] for n in names), perfect=True)
    perfect_rows(job, 0, 2)  # compile or load the kernels outside the timing
    perfect_rows_python(job, 0, 2)
    (new, extra), cpu, wall = timed(lambda: perfect_rows(job, 0, shoes))
    (old, _), cpu_old, wall_old = timed(lambda: perfect_rows_python(job, 0, reference))
    assert np.array_equal(new[:reference], old), "the compiled rows differ from the Python path's"
    coups, coups_old = int(new[:, 0].sum()), int(old[:, 0].sum())
    out = {"bets": ",".join(names), "shoes": shoes, "coups": coups,
           "compiled_us_per_coup_cpu": 1e6 * cpu / coups, "compiled_us_per_coup_wall": 1e6 * wall / coups,
           "priced_share": extra["priced"] / extra["evaluations"],
           "reference_shoes": reference,
           "python_us_per_coup_cpu": 1e6 * cpu_old / coups_old, "python_us_per_coup_wall": 1e6 * wall_old / coups_old}
    out["ratio_cpu"] = out["python_us_per_coup_cpu"] / out["compiled_us_per_coup_cpu"]
    return out


def count_analysis(shoes: int, reference: int) -> list[dict]:
    """Shoes a CPU-second of the count analysis's perfect counter on Dragon 7 (8 decks, cut card at 14),
    compiled and in Python, as ``baccara count`` runs it and as ``baccara report`` does (every coup priced)."""
    job = CountJob(2026, shoes, 8, builtin_bets()["dragon7"], None, 14)
    out = []
    for every_coup in (False, True):
        perfect_sums(job, 0, 2, None, every_coup)  # compile or load the kernels outside the timing
        perfect_sums(job, 0, 2, None, every_coup, compiled=False)
        new, cpu, wall = timed(partial(perfect_sums, job, 0, shoes, None, every_coup))
        old, cpu_old, wall_old = timed(partial(perfect_sums, job, 0, reference, None, every_coup,
                                                compiled=False))
        assert new.compiled and not old.compiled
        same = np.array_equal(new.table[:reference], old.table) and \
            new.ev_placed[:reference].tolist() == old.ev_placed.tolist() and \
            (not every_coup or new.ev_all[:reference].tolist() == old.ev_all.tolist())  # type: ignore[index]
        assert same, "the compiled sums differ from the Python path's"
        r = {"run": "report (every coup priced)" if every_coup else "count", "shoes": shoes,
             "reference_shoes": reference, "compiled_shoes_per_cpu_second": shoes / cpu,
             "python_shoes_per_cpu_second": reference / cpu_old, "compiled_wall_s": wall, "python_wall_s": wall_old}
        r["ratio_cpu"] = r["compiled_shoes_per_cpu_second"] / r["python_shoes_per_cpu_second"]
        out.append(r)
    return out


def fold(shoes: int, copies: int) -> list[dict]:
    """Microseconds a shoe (CPU time of the thread) of the count analysis's fold, the Python math.fsum loop and
    compiled, on ``shoes`` real shoes' expectations (Dragon 7, 8 decks, cut 14) tiled ``copies`` times: as
    ``baccara count`` folds (the decisions priced, NaN elsewhere) and as ``baccara report`` does (every coup)."""
    job = CountJob(2026, shoes, 8, builtin_bets()["dragon7"], None, 14)
    args, cap = CA._compiled_args(job), max_coups(8, "cut", 14, 0)
    assert args is not None
    repeat = 20  # the compiled fold timed this many times over
    gpu_shoe_us = 1e6 * hands_per_shoe("punto", 8, "cut", 14, 0) / NOMINAL_GPU_EVALUATIONS_RATE
    out = []
    for every_coup in (False, True):
        table, evs = np.zeros((shoes, len(CA.COLUMNS)), dtype=np.int64), np.empty((shoes, cap))
        PK.perfect_ev_chunk(job.seed, 0, table, evs, *args, every_coup)
        table, evs = np.tile(table, (copies, 1)), np.tile(evs, (copies, 1))
        n = table.shape[0]
        fold_perfect(table[:2], evs[:2], every_coup)  # compile or load the fold outside the timing
        ref, cpu_py, _ = timed(partial(fold_perfect, table, evs, every_coup, reference=True))
        call = partial(fold_perfect, table, evs, every_coup)
        got, cpu_c, _ = timed(lambda call=call: [call() for _ in range(repeat)][-1])
        same = got.ev_placed.view(np.int64).tolist() == ref.ev_placed.view(np.int64).tolist() and (
            not every_coup or got.ev_all.view(np.int64).tolist() == ref.ev_all.view(np.int64).tolist())  # type: ignore[union-attr]
        assert same, "the compiled fold differs from the Python fsum loop"
        r = {"run": "report (every coup)" if every_coup else "count", "shoes": n,
             "coups_per_shoe": float(table[:, 0].mean()), "python_us_per_shoe": 1e6 * cpu_py / n,
             "compiled_us_per_shoe": 1e6 * cpu_c / (repeat * n), "nominal_gpu_us_per_shoe": gpu_shoe_us}
        r["ratio"] = r["python_us_per_shoe"] / r["compiled_us_per_shoe"]
        r["compiled_share_of_gpu_shoe"] = r["compiled_us_per_shoe"] / gpu_shoe_us
        r["python_share_of_gpu_shoe"] = r["python_us_per_shoe"] / gpu_shoe_us
        out.append(r)
    return out


def print_fold(rows: list[dict]) -> None:
    print("\nthe count analysis's fold (each shoe's expectations summed exactly), dragon7, 8 decks, cut 14, "
          "us a shoe (CPU time):")
    for r in rows:
        print(f"  {r['run']:<20} Python fsum loop {r['python_us_per_shoe']:6.2f}  compiled "
              f"{r['compiled_us_per_shoe']:6.3f}  ratio {r['ratio']:5.1f}x  ({r['shoes']:,} shoes, "
              f"{r['coups_per_shoe']:.1f} coups); of a GPU shoe at the nominal rate "
              f"({r['nominal_gpu_us_per_shoe']:.1f} us): compiled {r['compiled_share_of_gpu_shoe']:.1%}, "
              f"Python {r['python_share_of_gpu_shoe']:.0%}")


def threads(shoes: int, workers: int) -> dict:
    bets = builtin_bets()
    job = PuntoJob(seed=7, shoes=shoes, bets=(bets["dragon7"],), perfect=True, chunk_size=64)
    simulate_punto(PuntoJob(seed=7, shoes=8, bets=job.bets, perfect=True), workers=workers)  # warm the pool path
    c0 = time.process_time()
    one, _, t1 = timed(lambda: simulate_punto(job, workers=1))
    c1 = time.process_time()
    many, _, tw = timed(lambda: simulate_punto(job, workers=workers))
    c2 = time.process_time()
    assert one.bets["dragon7"].net == many.bets["dragon7"].net, "threads changed the result"
    return {"shoes": shoes, "workers": workers, "backend": many.run["backend"], "seconds_1": t1,
            f"seconds_{workers}": tw, "efficiency": t1 / (workers * tw),
            "us_per_coup_1": 1e6 * t1 / one.hands, f"us_per_coup_{workers}": 1e6 * tw / many.hands,
            "cpu_us_per_coup_1": 1e6 * (c1 - c0) / one.hands,
            f"cpu_us_per_coup_{workers}": 1e6 * (c2 - c1) / many.hands, "load_average": os.getloadavg()[0]}


def gil_released(shoes: int = 300) -> int:
    """Python steps the main thread takes while another thread deals and prices ``shoes`` shoes (0 if the
    compiled loop held the GIL)."""
    bets = builtin_bets()
    job = PuntoJob(seed=5, shoes=shoes, bets=(bets["dragon7"],), perfect=True)
    perfect_rows(job, 0, 1)
    worker = threading.Thread(target=perfect_rows, args=(job, 0, shoes))
    steps = 0
    worker.start()
    while worker.is_alive():
        steps += 1
    worker.join()
    return steps


def control_speedup(workers: int) -> float:
    """What this machine gives ``workers`` threads now: the speed-up of a plain compiled loop that releases the
    GIL, run on one thread then on ``workers`` (near ``workers`` on free cores)."""
    from numba import njit

    @njit(nogil=True)
    def spin(n):
        s = 0
        for i in range(n):
            s = (s * 6364136223846793005 + i) % 1000000007
        return s

    spin(10)
    n = 20_000_000
    t = time.perf_counter()
    for _ in range(workers):
        spin(n)
    serial = time.perf_counter() - t
    threads = [threading.Thread(target=spin, args=(n,)) for _ in range(workers)]
    t = time.perf_counter()
    for x in threads:
        x.start()
    for x in threads:
        x.join()
    return serial / (time.perf_counter() - t)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shoes", type=int, default=300)
    ap.add_argument("--reference-shoes", type=int, default=40)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--thread-shoes", type=int, default=1000)
    ap.add_argument("--fold-shoes", type=int, default=256)
    ap.add_argument("--fold-copies", type=int, default=16)
    ap.add_argument("--fold-only", action="store_true")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    folded = fold(a.fold_shoes, a.fold_copies)
    if a.fold_only:
        if a.json:
            print(json.dumps({"fold": folded}, indent=2))
        else:
            print_fold(folded)
        return
    rows = [compare(names, a.shoes, min(a.reference_shoes, a.shoes)) for names in SETS]
    th = threads(a.thread_shoes, a.workers)
    th["control_speedup"] = control_speedup(a.workers)
    th["efficiency_over_control"] = th["efficiency"] * a.workers / th["control_speedup"]
    th["gil_free_steps"] = gil_released()
    counted = count_analysis(a.shoes, min(a.reference_shoes, a.shoes))
    if a.json:
        print(json.dumps({"compare": rows, "threads": th, "count_analysis": counted, "fold": folded}, indent=2))
        return
    print(f"{'bets':<36} {'compiled us/coup':>17} {'Python us/coup':>15} {'ratio':>6} {'priced':>7}   (CPU time)")
    for r in rows:
        print(f"{r['bets']:<36} {r['compiled_us_per_coup_cpu']:>17.2f} {r['python_us_per_coup_cpu']:>15.2f} "
              f"{r['ratio_cpu']:>6.2f} {r['priced_share']:>7.0%}")
    w = th["workers"]
    print(f"\nthreads, dragon7, {th['shoes']:,} shoes: 1 worker {th['seconds_1']:.2f} s "
          f"({th['us_per_coup_1']:.2f} us/coup), {w} workers {th[f'seconds_{w}']:.2f} s "
          f"({th[f'us_per_coup_{w}']:.2f} us/coup, backend {th['backend']}): efficiency {th['efficiency']:.0%} "
          f"(load average {th['load_average']:.1f} on {os.cpu_count()} CPUs); CPU a coup {th['cpu_us_per_coup_1']:.2f} us "
          f"on 1 thread, {th[f'cpu_us_per_coup_{w}']:.2f} us on {w}")
    print(f"a plain GIL-free compiled loop gains {th['control_speedup']:.2f}x on {w} threads on this machine now: "
          f"the perfect counter's efficiency over that {th['efficiency_over_control']:.0%}; the main thread ran "
          f"{th['gil_free_steps']:,} Python steps while a thread dealt and priced (the GIL is released)")

    print("\ncount analysis's perfect counter, dragon7, 8 decks, cut 14, shoes a CPU-second of the thread:")
    for r in counted:
        print(f"  {r['run']:<28} compiled {r['compiled_shoes_per_cpu_second']:>9,.1f} ({r['shoes']} shoes)  "
              f"Python {r['python_shoes_per_cpu_second']:>7,.1f} ({r['reference_shoes']} shoes)  "
              f"ratio {r['ratio_cpu']:.1f}x")
    print_fold(folded)


if __name__ == "__main__":
    main()
