"""Device check: the GPU backend's rate and identity on one GPU, and the CPU threads' scaling, in one short run.

Prepared for a machine with a CUDA GPU (an H200 with 16 cores), to run in under about five minutes there
(the CPU and GPU kernels compile on first use: about a minute of it):

1. **identity**: small seeded runs dealt on the CPU kernels and on the GPU, compared shoe for shoe (every
   column of every row) and as run totals: flat main bets (the GPU's values kernel), side and pair bets with
   a count deciding two of them (the general kernel), a TOML-like pair bet, an infinite shoe;
2. **GPU rate**, hands per second inside the run (``RunInfo.seconds``), after a warm-up that compiles the
   kernel: flat main bets on 8-deck shoes, and side bets with the Dragon 7 count;
3. **launch shapes**: the flat GPU run with other threads per block and blocks per multiprocessor;
4. **CPU threads' scaling**: flat main bets on 8-deck shoes with 1, 2, 4, 8, 12, 16 worker threads (as many as
   the machine has), hands per second and parallel efficiency (rate / (workers x the rate of one));
5. **the perfect counter** on bets on card values (Dragon 7 and Panda 8; Banker and Player): rows of a few
   shoes compared, CPU and GPU, and exact evaluations a second on the GPU against one CPU thread.

It prints a compact table, and a JSON document with ``--json PATH``.  ``--smoke`` runs tiny sizes, for the
CUDA simulator (``NUMBA_ENABLE_CUDASIM=1``: every figure is then meaningless but the code paths are the same).

    PYTHONPATH=src python3 benchmarks/device_check_gpu.py [--gpu-shoes 200000000] [--side-shoes 20000000]
        [--sweep-shoes 50000000] [--cpu-shoes 4000000] [--workers 1,2,4,8,12,16] [--perfect-shoes 200000]
        [--json OUT.json] [--smoke]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

from baccara.punto.bets import builtin_bets
from baccara.sim import _perfect_kernel as PK
from baccara.sim import _punto_kernel as K
from baccara.sim import gpu, punto
from baccara.sim.counting import count_from_mapping, load_count_toml
from baccara.sim.distributed import run
from baccara.sim.punto import PuntoJob

COUNT = Path(__file__).resolve().parent.parent / "examples" / "counts" / "dragon7.toml"
MAIN = ("banker", "player", "tie")
SIDE = ("banker", "player", "tie", "dragon7", "panda8", "player_pair", "banker_pair", "dragon_bonus_player")
#: The issue's goals on one H200 (hands per second).
GOALS = {"gpu flat": 10e9, "gpu side+count": 5e9}
#: The issue's goal for the perfect counter on one H200: this many times one core.
PERFECT_GOAL = 100


def job(names, shoes: int, seed: int = 7, **kw) -> PuntoJob:
    bets = builtin_bets()
    return PuntoJob(seed=seed, shoes=shoes, bets=tuple(bets[n] for n in names), **kw)


def identity(shoes: int) -> list[dict]:
    """CPU and GPU rows and run totals of small seeded runs: equal or not, per case."""
    small = count_from_mapping({"name": "check", "tags": {"4": -1, "5": -1, "6": -1, "7": -1, "8": 2, "9": 2},
                                "bets": [{"name": "dragon7", "count": "true", "at_least": 0.5},
                                         {"name": "panda8", "count": "running", "at_least": -2, "at_most": 4}]})
    cases = {
        "flat main, 8 decks": job(MAIN, shoes),
        "side+pairs+count, 8 decks": job(SIDE, shoes, count=load_count_toml(COUNT)),
        "side+count, 2 decks": job(SIDE, shoes, decks=2, count=small),
        "infinite shoe": job(("banker", "tie", "player_pair"), shoes, decks=None, deal="infinite", coups=60),
    }
    out = []
    for name, j in cases.items():
        cpu = np.zeros((j.shoes, len(j.columns())), dtype=np.int64)
        K.punto_chunk(j.seed, 1000, cpu, *j.kernel_args())
        rows = gpu.punto_rows_gpu(j, 1000, j.shoes)
        a, _ = run(j, "threads", 1)
        b, _ = run(j, "gpu")
        out.append({"case": name, "shoes": j.shoes, "hands": a.hands, "rows_equal": bool(np.array_equal(cpu, rows)),
                    "sums_equal": a.sums == b.sums and a.hands == b.hands})
    return out


def gpu_rate(j: PuntoJob, warm: PuntoJob) -> dict:
    run(warm, "gpu")  # compiles this kernel shape
    total, info = run(j, "gpu")
    return {"shoes": j.shoes, "hands": total.hands, "seconds": info.seconds, "hands_per_second": total.hands / info.seconds}


def launch_sweep(shoes: int, configs: list[tuple[int, int]]) -> list[dict]:
    """The flat GPU run's rate per launch shape (threads per block, blocks per multiprocessor): local memory
    (each thread's shoe) against occupancy, to tune :data:`baccara.sim.gpu.THREADS` and ``BLOCKS_PER_SM``."""
    keep = gpu.THREADS, gpu.BLOCKS_PER_SM
    out = []
    try:
        for threads, per_sm in configs:
            gpu.THREADS, gpu.BLOCKS_PER_SM = threads, per_sm
            total, info = run(job(MAIN, shoes), "gpu")
            out.append({"threads": threads, "blocks_per_sm": per_sm, "hands_per_second": total.hands / info.seconds})
    finally:
        gpu.THREADS, gpu.BLOCKS_PER_SM = keep
    return out


def cpu_scaling(shoes: int, workers: list[int]) -> list[dict]:
    run(job(MAIN, 4096), "threads", 1)  # compiles (or loads) the CPU kernel
    out = []
    for w in workers:
        total, info = run(job(MAIN, shoes), "threads", w)
        out.append({"workers": w, "hands_per_second": total.hands / info.seconds, "seconds": info.seconds})
    one = out[0]["hands_per_second"] / out[0]["workers"]
    for r in out:
        r["speed_up"] = r["hands_per_second"] / one
        r["efficiency"] = r["speed_up"] / r["workers"]
    return out


def perfect_check(gpu_shoes: int, cpu_shoes: int, identity_shoes: int, decks: int) -> list[dict]:
    """The perfect counter on bets on card values, per set of bets: the CPU's and the GPU's rows of a few shoes,
    equal or not, and exact evaluations a second on the GPU and on one CPU thread (after a warm-up each)."""
    out = []
    for names in (("dragon7", "panda8"), ("banker", "player")):
        def pj(shoes: int, names=names) -> PuntoJob:
            return job(names, shoes, decks=decks, perfect=True, chunk_size=64)

        small = pj(identity_shoes)
        cpu_rows = np.zeros((small.shoes, len(small.columns())), dtype=np.int64)
        PK.perfect_chunk(small.seed, 1000, cpu_rows, *punto._perfect_args(small))
        same = bool(np.array_equal(cpu_rows, gpu.punto_rows_gpu(small, 1000, small.shoes)))
        rates = {}
        for backend, shoes in (("gpu", gpu_shoes), ("threads", cpu_shoes)):
            run(pj(1), backend, None if backend == "gpu" else 1)  # compiles (or loads) the kernels
            total, info = run(pj(shoes), backend, None if backend == "gpu" else 1)
            rates[backend] = {"shoes": shoes, "evaluations": total.extra["evaluations"], "seconds": info.seconds,
                              "evaluations_per_second": total.extra["evaluations"] / info.seconds}
        out.append({"bets": "+".join(names), "decks": decks, "rows_equal": same, "gpu": rates["gpu"],
                    "cpu_thread": rates["threads"],
                    "ratio": rates["gpu"]["evaluations_per_second"] / rates["threads"]["evaluations_per_second"]})
    return out


def device() -> str:
    if gpu.simulator():
        return "CUDA simulator (NUMBA_ENABLE_CUDASIM=1): rates are meaningless"
    from numba import cuda

    d = cuda.get_current_device()
    name = d.name.decode() if isinstance(d.name, bytes) else str(d.name)
    return f"{name}, {d.MULTIPROCESSOR_COUNT} SMs, compute capability {d.compute_capability}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gpu-shoes", type=float, default=2e8, help="shoes of the flat GPU run (default 2e8)")
    ap.add_argument("--side-shoes", type=float, default=2e7, help="shoes of the side-bet + count GPU run (2e7)")
    ap.add_argument("--cpu-shoes", type=float, default=4e6, help="shoes of each CPU scaling run (4e6)")
    ap.add_argument("--identity-shoes", type=int, default=2000, help="shoes of each identity case (2000)")
    ap.add_argument("--sweep-shoes", type=float, default=5e7, help="shoes of each launch-shape run (5e7; 0: none)")
    ap.add_argument("--workers", default="1,2,4,8,12,16", help="thread counts (those above the cores are skipped)")
    ap.add_argument("--perfect-shoes", type=float, default=2e5, help="shoes of each perfect-counter GPU run (2e5; "
                    "one CPU thread deals a hundredth)")
    ap.add_argument("--json", default=None, help="write the figures here as JSON")
    ap.add_argument("--smoke", action="store_true", help="tiny sizes, for the CUDA simulator")
    a = ap.parse_args()
    if a.smoke:
        a.gpu_shoes, a.side_shoes, a.cpu_shoes, a.identity_shoes, a.workers = 40, 20, 400, 10, "1,2"
        a.sweep_shoes, a.perfect_shoes = 20, 2
    gpu.check_gpu()
    cores = os.cpu_count() or 1
    workers = [w for w in (int(x) for x in a.workers.split(",")) if 1 <= w <= cores] or [1]
    t0 = time.perf_counter()
    doc: dict = {"device": device(), "cores": cores, "python": platform.python_version()}
    print(f"device: {doc['device']}; {cores} CPU cores", flush=True)

    doc["identity"] = identity(a.identity_shoes)
    print("\nidentity, CPU kernels vs GPU (seeded, shoe for shoe):")
    for r in doc["identity"]:
        ok = "same" if r["rows_equal"] and r["sums_equal"] else "DIFFERENT"
        print(f"  {r['case']:<28} {r['shoes']:>7,} shoes {r['hands']:>10,} hands   rows and totals: {ok}")

    warm = max(1, int(min(a.side_shoes, 1e5)))
    flat = gpu_rate(job(MAIN, int(a.gpu_shoes)), job(MAIN, warm))
    side = gpu_rate(job(SIDE, int(a.side_shoes), count=load_count_toml(COUNT)),
                    job(SIDE, warm, count=load_count_toml(COUNT)))
    doc["gpu"] = {"flat": flat, "side+count": side}
    print("\nGPU, hands per second inside the run:")
    for label, r, goal in (("flat main bets", flat, GOALS["gpu flat"]),
                           ("side bets + Dragon 7 count", side, GOALS["gpu side+count"])):
        print(f"  {label:<28} {r['shoes']:>13,} shoes  {r['hands_per_second'] / 1e9:8.3f} G hands/s "
              f"({r['seconds']:.2f} s; goal {goal / 1e9:g} G)")

    if a.sweep_shoes:
        configs = [(128, 2), (128, 4), (128, 8), (128, 16), (256, 8), (64, 16)] if not a.smoke else [(8, 1)]
        doc["gpu_launch_shapes"] = launch_sweep(int(a.sweep_shoes), configs)
        print(f"\nGPU flat main bets by launch shape, {int(a.sweep_shoes):,} shoes each (default "
              f"{gpu.THREADS} threads x {gpu.BLOCKS_PER_SM} blocks per SM):")
        for r in doc["gpu_launch_shapes"]:
            print(f"  {r['threads']:>4} threads x {r['blocks_per_sm']:>2} blocks/SM  "
                  f"{r['hands_per_second'] / 1e9:8.3f} G hands/s")

    doc["cpu_threads"] = cpu_scaling(int(a.cpu_shoes), workers)
    print(f"\nCPU threads, flat main bets, {int(a.cpu_shoes):,} shoes each:")
    print("  workers  " + "".join(f"{r['workers']:>9}" for r in doc["cpu_threads"]))
    print("  M hands/s" + "".join(f"{r['hands_per_second'] / 1e6:>9.1f}" for r in doc["cpu_threads"]))
    print("  speed-up " + "".join(f"{r['speed_up']:>9.2f}" for r in doc["cpu_threads"]))
    print("  efficiency" + "".join(f"{r['efficiency']:>8.0%} " for r in doc["cpu_threads"]))
    one = doc["cpu_threads"][0]["hands_per_second"]
    print(f"\nGPU flat / one CPU thread: {flat['hands_per_second'] / one:,.0f}x")

    if a.perfect_shoes:
        n = int(a.perfect_shoes)
        doc["perfect"] = perfect_check(n, max(1, n // 100), 2 if a.smoke else 20, 1 if a.smoke else 8)
        print(f"\nthe perfect counter on card values, exact evaluations a second (goal {PERFECT_GOAL}x one core):")
        for r in doc["perfect"]:
            ok = "same" if r["rows_equal"] else "DIFFERENT"
            print(f"  {r['bets']:<16} {r['decks']} decks  GPU {r['gpu']['evaluations_per_second']:>12,.0f} "
                  f"({r['gpu']['shoes']:,} shoes)  one thread {r['cpu_thread']['evaluations_per_second']:>10,.0f}  "
                  f"{r['ratio']:,.1f}x   rows: {ok}")
    doc["seconds"] = time.perf_counter() - t0
    print(f"check took {doc['seconds']:.0f} s")
    if a.json:
        Path(a.json).write_text(json.dumps(doc, indent=2))
    same = all(r["rows_equal"] and r["sums_equal"] for r in doc["identity"])
    same = same and all(r["rows_equal"] for r in doc.get("perfect", []))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
