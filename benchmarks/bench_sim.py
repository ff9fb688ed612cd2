"""Benchmark: punto banco simulation on real 8-deck shoes, hands per second.

Three runs of baccara's simulator (all cores by default, threads backend):

1. main bets (banker, player, tie), flat, real shoes to the cut card;
2. side bets (dragon7, panda8, player_pair, banker_pair, dragon bonus) and the
   main bets, with the Dragon 7 count system deciding the Dragon 7 bet;
3. the perfect counter on a few shoes (exact engine per coup), for its rate;

4. the whole process, as a user runs it: ``baccara simulate punto --bets
   banker,player,tie`` on ``--whole-shoes`` (a million) 8-deck shoes in a
   fresh interpreter (imports, loading the compiled kernels, the run, the
   report), timed from outside, with its CPU seconds and the load average;

5. scaling (``--scale-shoes``, a million by default): the main bets on every backend
   (threads, processes, a local Dask cluster) at 1, 2, 4, ... workers up to the cores,
   each against one thread in the same run: speed-up, parallel efficiency, CPU seconds
   against the threads' at the same workers.  On a machine shared with other work the
   wall clock says how much of the machine the run got, not how well it scales, so the
   same run also times a perfectly parallel kernel (Numba, no GIL, no memory traffic) on
   as many threads: efficiency "against the machine" divides our speed-up by its;
6. the whole command per backend: ``baccara simulate punto --backend B --workers 2`` on
   ``--whole-shoes`` shoes in a fresh process, its CPU seconds against the threads';

and in the same run a plain-Python reference simulator (``random.shuffle``
and loops: burn, cut card, one more coup, tableau) for the ratio.  Both report
the Banker / Player / tie frequencies, which must agree with the exact engine.
On a shared machine the wall-clock rate falls with the other processes'
load; the rate per CPU-second does not, and times the workers gives the rate
on that many free cores.

    .venv/bin/python benchmarks/bench_sim.py [--shoes 2000000] [--workers N] [--reference-shoes 2000]
        [--whole-shoes 1000000] [--scale-shoes 1000000] [--backends threads,processes,dask] [--only-scale]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
from numba import njit

from baccara import Shoe, builtin_bets
from baccara.punto.exact import coup_distribution
from baccara.sim import PuntoJob, load_count_toml, simulate_punto
from baccara.sim.distributed import CPU_BACKENDS

VALUES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0]
COUNT = Path(__file__).resolve().parent.parent / "examples" / "counts" / "dragon7.toml"


def reference_shoe(rng: random.Random, decks: int = 8, cut: int = 14) -> tuple[int, int, int, int]:
    """One shoe the plain way: shuffle, burn, deal coups to the cut card and one more. Returns (hands, B, P, T)."""
    cards = [r for r in range(13) for _ in range(4 * decks)]
    rng.shuffle(cards)
    first = cards[0]
    pos = 1 + min(first + 1, 10)
    cut_at = len(cards) - cut
    hands = b = p = t = 0
    start = -1
    while start < cut_at:  # the coup after the one in which the cut card appears is the last
        start = pos
        p1, b1, p2, b2 = cards[pos:pos + 4]
        pos += 4
        pt = (VALUES[p1] + VALUES[p2]) % 10
        bt = (VALUES[b1] + VALUES[b2]) % 10
        if pt < 8 and bt < 8:
            third = None
            if pt <= 5:
                third = VALUES[cards[pos]]
                pos += 1
                pt = (pt + third) % 10
            if _banker_draws(bt, third):
                bt = (bt + VALUES[cards[pos]]) % 10
                pos += 1
        hands += 1
        if bt > pt:
            b += 1
        elif pt > bt:
            p += 1
        else:
            t += 1
    return hands, b, p, t


def _banker_draws(total: int, third: int | None) -> bool:
    if third is None:
        return total <= 5
    if total <= 2:
        return True
    if total == 3:
        return third != 8
    if total == 4:
        return 2 <= third <= 7
    if total == 5:
        return 4 <= third <= 7
    if total == 6:
        return third in (6, 7)
    return False


def reference(shoes: int, seed: int) -> tuple[float, list[float]]:
    rng = random.Random(seed)
    t0 = time.perf_counter()
    tot = [0, 0, 0, 0]
    for _ in range(shoes):
        for i, x in enumerate(reference_shoe(rng)):
            tot[i] += x
    dt = time.perf_counter() - t0
    return tot[0] / dt, [x / tot[0] for x in tot[1:]]


def timed(job: PuntoJob, workers: int | None):
    """Run once to compile / load the kernels, then time: (result, hands per wall second,
    hands per CPU second of this process, i.e. per busy core)."""
    simulate_punto(PuntoJob(seed=0, shoes=8, bets=job.bets, count=job.count, cut=job.cut,
                            perfect=job.perfect), workers=1)
    cpu = time.process_time()
    res = simulate_punto(job, workers=workers)
    cpu = time.process_time() - cpu
    return res, res.hands / res.run["seconds"], res.hands / cpu


def whole_process(shoes: int, workers: int, seed: int, backend: str = "threads") -> dict:
    """``baccara simulate punto`` on the main bets in a fresh process: hands, wall and CPU seconds, load."""
    cmd = [sys.executable, "-m", "baccara", "simulate", "punto", "--shoes", str(shoes), "--bets", "banker,player,tie",
           "--seed", str(seed), "--workers", str(workers), "--backend", backend, "--json", "--allow-long"]
    load0 = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    hands = json.loads(p.stdout)["hands"]
    return {"hands": hands, "wall": wall, "cpu": cpu, "load": (load0, os.getloadavg()[0])}


@njit(nogil=True, cache=True)
def _spin(n: int, out: np.ndarray) -> None:
    """A perfectly parallel load: arithmetic in registers, nothing shared."""
    x = np.uint64(1)
    for _ in range(n):
        x = x * np.uint64(6364136223846793005) + np.uint64(1442695040888963407)
    out[0] = x


def machine_speedup(workers: int, seconds: float = 0.3, repeats: int = 3) -> float:
    """How many times one thread's work ``workers`` threads of a perfectly parallel kernel do in the same
    wall time, now (the best of ``repeats`` tries of each): ``workers`` on an idle machine, less when
    other work takes cores."""
    _spin(10, np.zeros(1, dtype=np.uint64))
    n = 1 << 22
    t0 = time.perf_counter()
    _spin(n, np.zeros(1, dtype=np.uint64))
    n = int(n * seconds / max(time.perf_counter() - t0, 1e-6))

    def timed(w: int) -> float:
        ts = [threading.Thread(target=_spin, args=(n // w, np.zeros(1, dtype=np.uint64))) for _ in range(w)]
        t0 = time.perf_counter()
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        return time.perf_counter() - t0

    if workers == 1:
        return 1.0
    one, many = [], []
    for _ in range(repeats):
        one.append(timed(1))
        many.append(timed(workers))
    return min(one) / min(many)


def cpu_now() -> float:
    """CPU seconds of this process and of its finished children."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def scaling(shoes: int, seed: int, backends: list[str], top: int, repeats: int = 3) -> None:
    """The main bets on each backend and worker count, each against one thread in the same run.

    One thread and the backend are timed alternately ``repeats`` times and the fastest of each kept
    (the runs least disturbed by other work); CPU seconds are the median of the backend's runs."""
    bets = builtin_bets()
    job = PuntoJob(seed=seed, shoes=shoes, bets=tuple(bets[n] for n in ("banker", "player", "tie")))
    simulate_punto(PuntoJob(seed=0, shoes=5000, bets=job.bets), workers=1)  # the kernels loaded
    counts = [w for w in (1, 2, 4, 8, 16, 32) if w <= top]
    print(f"scaling: main bets, {shoes:,} 8-deck shoes; speed-up and efficiency against one thread, the fastest of "
          f"{repeats} alternate runs of each; 'machine' is the same for a perfectly parallel kernel (what the "
          f"machine gave), 'vs machine' our speed-up over its (load average {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores)")
    print(f"{'backend':10s} {'workers':>7s} {'M hands/s':>10s} {'wall s':>7s} {'CPU s':>6s} {'speed-up':>8s} "
          f"{'efficiency':>10s} {'machine':>7s} {'vs machine':>10s} {'CPU / threads':>13s}")
    threads_cpu: dict[int, float] = {}

    def timed(backend: str, w: int) -> tuple[float, float, int]:
        c0, t0 = cpu_now(), time.perf_counter()
        res = simulate_punto(job, backend=backend, workers=w)
        return time.perf_counter() - t0, cpu_now() - c0, res.hands

    for backend in backends:
        for w in counts:
            if backend != "threads" and w == 1:
                continue
            ones, walls, cpus = [], [], []
            for _ in range(repeats if w > 1 else 1):
                if w > 1:
                    ones.append(timed("threads", 1)[0])
                wall, cpu, hands = timed(backend, w)
                walls.append(wall)
                cpus.append(cpu)
            wall, cpu = min(walls), sorted(cpus)[len(cpus) // 2]
            if backend == "threads":
                threads_cpu[w] = cpu
            mach = machine_speedup(w)
            up = min(ones) / wall if ones else 1.0
            ratio = f"{cpu / threads_cpu[w]:.2f}" if w in threads_cpu else "-"
            print(f"{backend:10s} {w:7d} {hands / wall / 1e6:10.1f} {wall:7.2f} {cpu:6.2f} {up:8.2f} "
                  f"{up / w:10.0%} {mach:7.2f} {up / mach:10.0%} {ratio:>13s}", flush=True)


def whole_by_backend(shoes: int, seed: int, backends: list[str], workers: int = 2) -> None:
    """The whole command on each backend: its CPU seconds against the threads'."""
    base = None
    for b in backends:
        r = whole_process(shoes, workers, seed, b)
        base = base or r["cpu"]
        print(f"whole process, --backend {b} --workers {workers}, {shoes:,} shoes: {r['wall']:.2f} s wall, "
              f"{r['cpu']:.2f} CPU-s = {r['cpu'] / base:.2f} x the threads' CPU; load average "
              f"{r['load'][0]:.1f} -> {r['load'][1]:.1f}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shoes", type=int, default=2_000_000)
    ap.add_argument("--side-shoes", type=int, default=1_000_000)
    ap.add_argument("--perfect-shoes", type=int, default=10)
    ap.add_argument("--reference-shoes", type=int, default=2000)
    ap.add_argument("--workers", type=int, default=None, help="default: all cores")
    ap.add_argument("--whole-shoes", type=int, default=1_000_000, help="shoes of the whole-process run (0: skip)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--scale-shoes", type=int, default=1_000_000, help="shoes of the scaling runs (0: skip)")
    ap.add_argument("--backends", default=",".join(CPU_BACKENDS),
                    help=f"backends of the scaling runs, comma-separated: {', '.join(CPU_BACKENDS)} (the GPU's "
                         f"figures come from benchmarks/device_check_gpu.py)")
    ap.add_argument("--only-scale", action="store_true", help="only the scaling runs and the whole command per "
                                                              "backend")
    a = ap.parse_args()
    backends = [b.strip().lower() for b in a.backends.split(",") if b.strip()]
    unknown = [b for b in backends if b not in CPU_BACKENDS]
    if unknown or not backends:
        ap.error(f"--backends takes {', '.join(CPU_BACKENDS)} (comma-separated), got {a.backends!r}: this benchmark "
                 f"times the CPU's backends; the GPU's figures come from benchmarks/device_check_gpu.py")
    top = a.workers or os.cpu_count() or 1
    if a.scale_shoes:
        scaling(a.scale_shoes, a.seed, backends, top)
    if a.whole_shoes and len(backends) > 1:
        whole_by_backend(a.whole_shoes, a.seed, backends)
    if a.only_scale:
        return
    bets = builtin_bets()
    exact = coup_distribution(Shoe.decks(8)).outcomes()
    print(f"machine: {os.cpu_count()} cores; 8 decks, cut card 14 from the end and one more coup, burn as in "
          f"Wikipedia (2019)")
    print(f"exact: banker {float(exact['banker']):.6f}  player {float(exact['player']):.6f}  tie {float(exact['tie']):.6f}")

    ref_rate, ref_freq = reference(a.reference_shoes, a.seed)
    print("(another process busy on a core lowers the wall-clock rates; the CPU-second rates show what each "
          "core does)")
    print(f"plain-Python reference: {ref_rate / 1e6:.3f} M hands/s ({a.reference_shoes} shoes); "
          f"frequencies {' '.join(f'{f:.4f}' for f in ref_freq)}")

    if a.whole_shoes:
        w = a.workers or os.cpu_count() or 1
        start = whole_process(10, w, a.seed)  # the start-up: interpreter, imports, compiled kernels loaded
        r = whole_process(a.whole_shoes, w, a.seed)
        free = r["hands"] / (start["cpu"] + (r["cpu"] - start["cpu"]) / w)
        deal = r["hands"] / max(r["cpu"] - start["cpu"], 1e-9)
        nopyc = (" (PYTHONDONTWRITEBYTECODE is set: baccara's modules are compiled to bytecode at every start, "
                 "a few tenths of a CPU-second)") if os.environ.get("PYTHONDONTWRITEBYTECODE") else ""
        print(f"whole process, baccara simulate punto --bets banker,player,tie --shoes {a.whole_shoes:,} --workers {w}: "
              f"{r['hands'] / r['wall'] / 1e6:.2f} M hands/s wall ({r['hands']:,} hands in {r['wall']:.2f} s) = "
              f"{r['hands'] / r['wall'] / ref_rate:,.0f} x the reference; {r['cpu']:.2f} CPU-s of which start-up "
              f"{start['cpu']:.2f} (a 10-shoe run); on {w} free cores about {free / 1e6:.1f} M hands/s (start-up, "
              f"then the rest shared); dealing {deal / 1e6:.1f} M hands per CPU-second; load average "
              f"{r['load'][0]:.1f} -> {r['load'][1]:.1f} on {os.cpu_count()} cores{nopyc}")

    main_job = PuntoJob(seed=a.seed, shoes=a.shoes, bets=tuple(bets[n] for n in ("banker", "player", "tie")))
    res, rate, per_core = timed(main_job, a.workers)
    z = res.z_scores()["outcomes"]
    print(f"baccara, main bets: {rate / 1e6:.2f} M hands/s ({res.hands:,} hands, {res.run['workers']} workers, "
          f"{res.run['seconds']:.2f} s) = {rate / ref_rate:,.0f} x the reference; "
          f"{per_core / 1e6:.2f} M hands per CPU-second; z vs exact: banker {z['banker']:+.2f} "
          f"player {z['player']:+.2f} tie {z['tie']:+.2f}")

    side = ("banker", "player", "tie", "dragon7", "panda8", "player_pair", "banker_pair",
            "dragon_bonus_player", "dragon_bonus_banker")
    count = load_count_toml(COUNT)
    side_job = PuntoJob(seed=a.seed, shoes=a.side_shoes, bets=tuple(bets[n] for n in side), count=count, cut=count.cut)
    res, rate, per_core = timed(side_job, a.workers)
    d7 = res.bets["dragon7"]
    print(f"baccara, 9 bets incl. side bets + Dragon 7 count: {rate / 1e6:.2f} M hands/s ({res.hands:,} hands) = "
          f"{rate / ref_rate:,.0f} x the reference; {per_core / 1e6:.2f} M hands per CPU-second; Dragon 7 by the "
          f"count: {d7.bets_per_shoe:.2f} bets a shoe, EV {d7.ev_per_bet.value:+.4f} ± {d7.ev_per_bet.stderr:.4f} per bet")

    if a.perfect_shoes:
        pj = PuntoJob(seed=a.seed, shoes=a.perfect_shoes, bets=(bets["dragon7"], bets["tie"]), perfect=True,
                      chunk_size=1)
        res, rate, _ = timed(pj, 1)  # in this (warm) process: the rate of one core
        p = res.extra["perfect"]
        print(f"perfect counter (exact engine before every coup, dragon7 + tie), one core: "
              f"{p['evaluations_per_second']:.0f} exact evaluations = {rate:,.0f} hands a second "
              f"(--workers N runs N processes)")


if __name__ == "__main__":
    main()
