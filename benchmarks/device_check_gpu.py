"""Device check: every figure of the simulator's scaling goals on one machine (a GPU and its cores), in one run.

Prepared for a machine with a CUDA GPU and 16 cores (an H200), to run there in about four minutes and well under
eight (the CPU and GPU kernels compile on first use: about a minute of it).  Each measured figure is printed beside
the goal it answers (issue 44: "simulation at every scale") with a pass or fail word, and all of them are written as
JSON (``--json PATH``, and ``$OUT/device_check.json`` where the variable ``OUT`` names a folder):

1. **identity**: small seeded runs dealt on the CPU kernels and on the GPU, compared shoe for shoe (every
   column of every row) and as run totals: flat main bets (the GPU's values kernel), side and pair bets with
   a count deciding two of them (the general kernel), a TOML-like pair bet, an infinite shoe;
2. **GPU rate**, hands per second inside the run (``RunInfo.seconds``), after a warm-up that compiles the
   kernel: flat main bets on 8-deck shoes (goal 10G), and side bets with the Dragon 7 count (goal 5G);
3. **launch shapes**: the flat GPU run with other threads per block and blocks per multiprocessor;
4. **CPU threads' scaling**: flat main bets on 10M 8-deck shoes with 1, 2, 4, 8, 12, 16 worker threads (as many
   as the machine has): hands per second, parallel efficiency (rate / (workers x the rate of one); goals 90% at 2,
   80% at 16), CPU seconds, and what the machine gave a perfectly parallel kernel on as many threads
   (``bench_sim.machine_speedup``);
5. **processes and a local Dask cluster** at the most workers, on the same job: rate, efficiency against one
   thread, CPU seconds against the threads' (goal: Dask within 80% of the threads' rate); and at 2 workers on 1M
   shoes, CPU seconds against the threads', inside the run and for the whole command in a fresh process as a user
   runs it (``bench_sim.whole_process``; goals 1.3x for processes, 1.5x for Dask).  Dask is used where it can
   be imported; otherwise one line says the section was skipped and which wheels to carry;
6. **the perfect counter** on bets on card values (Dragon 7 and Panda 8; Banker and Player): rows of a few shoes
   compared, CPU and GPU; microseconds a coup on one core (goal 8); its threads' efficiency (goal 80% at 16);
   exact evaluations a second on the GPU against one CPU thread (goal 100x).

Only :mod:`baccara.sim` and the punto banco bets are imported: neither loads python-flint or Dask, which the
device's image lacks.  ``--smoke`` runs tiny sizes (seconds, on 2 cores): with ``NUMBA_ENABLE_CUDASIM=1`` the GPU
parts run on numba-cuda's CUDA simulator, without a GPU or the simulator they are skipped with a line saying so;
every figure is then meaningless (the verdicts too) but the code paths are the same.  The exit status is 1 when
the CPU and the GPU differ anywhere, else 0 (a goal missed is a figure, not an error).

    PYTHONPATH=src python3 benchmarks/device_check_gpu.py [--gpu-shoes 2e8] [--side-shoes 2e7] [--sweep-shoes 5e7]
        [--cpu-shoes 1e7] [--pair-shoes 1e6] [--whole-shoes 1e6] [--workers 1,2,4,8,12,16] [--perfect-shoes 2e5]
        [--perfect-cpu-shoes 2000] [--json OUT.json] [--smoke]
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from baccara.processes import start_method
from baccara.punto.bets import builtin_bets
from baccara.sim import _perfect_kernel as PK
from baccara.sim import _punto_kernel as K
from baccara.sim import gpu, punto
from baccara.sim.counting import count_from_mapping, load_count_toml
from baccara.sim.distributed import run
from baccara.sim.punto import PuntoJob

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_sim import cpu_now, machine_speedup, whole_process  # noqa: E402  (the scaling benchmark's yardsticks)

COUNT = Path(__file__).resolve().parent.parent / "examples" / "counts" / "dragon7.toml"
MAIN = ("banker", "player", "tie")
SIDE = ("banker", "player", "tie", "dragon7", "panda8", "player_pair", "banker_pair", "dragon_bonus_player")
CARD_VALUE_BETS = (("dragon7", "panda8"), ("banker", "player"))
#: The issue's goals on one H200 (hands per second).
GOALS = {"gpu flat": 10e9, "gpu side+count": 5e9}
#: The issue's goal for the perfect counter on one H200: this many times one core.
PERFECT_GOAL = 100
#: The issue's other goals: parallel efficiency of the threads (at 2 and at 16 workers), a local Dask cluster's
#: rate against the threads' at 16 workers, the CPU seconds of processes and of Dask against the threads' at 2
#: workers on 1M shoes, the perfect counter's microseconds a coup on one core and its threads' efficiency at 16.
THREADS_EFFICIENCY = {2: 0.90, 16: 0.80}
DASK_VS_THREADS = 0.80
CPU_VS_THREADS = {"processes": 1.3, "dask": 1.5}
PERFECT_US_PER_COUP = 8.0
PERFECT_EFFICIENCY = 0.80
#: What a local Dask cluster needs that the device's image lacks (it has click, cloudpickle, fsspec, jinja2,
#: markupsafe, msgpack, packaging, psutil, pyyaml, sortedcontainers, toolz, urllib3).  Of these only tornado is
#: built for a platform (an abi3 manylinux wheel); the others are pure Python.  The binary ones among their
#: dependencies, msgpack, psutil, pyyaml and markupsafe, are on the image already.
DASK_WHEELS = ("dask", "distributed", "tornado", "partd", "locket", "tblib", "zict")


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


def timed(j: PuntoJob, backend: str, workers: int) -> dict:
    """One run: its hands, the seconds inside it (``RunInfo.seconds``: a local cluster's start included), the CPU
    seconds of this process and of its finished children (the processes' workers) over it, and its rate."""
    c0 = cpu_now()
    total, info = run(j, backend, workers)
    cpu = cpu_now() - c0
    out = {"backend": info.backend, "workers": workers, "shoes": j.shoes, "hands": total.hands,
           "seconds": info.seconds, "cpu_seconds": cpu, "hands_per_second": total.hands / info.seconds}
    if "evaluations" in total.extra:  # the perfect counter's exact evaluations
        out["evaluations"] = total.extra["evaluations"]
        out["evaluations_per_second"] = total.extra["evaluations"] / info.seconds
    return out


def cpu_scaling(shoes: int, workers: list[int], machine: Callable[[int], float]) -> list[dict]:
    """Flat main bets on ``shoes`` shoes per thread count: rate, CPU seconds, speed-up and efficiency against one
    thread, and ``machine(w)``, the speed-up a perfectly parallel kernel got on ``w`` threads just after."""
    run(job(MAIN, 4096), "threads", 1)  # compiles (or loads) the CPU kernel
    out = []
    for w in workers:
        r = timed(job(MAIN, shoes), "threads", w)
        r["machine"] = machine(w)
        out.append(r)
    one = out[0]["hands_per_second"] / out[0]["workers"]
    for r in out:
        r["speed_up"] = r["hands_per_second"] / one
        r["efficiency"] = r["speed_up"] / r["workers"]
        r["vs_machine"] = r["speed_up"] / r["machine"]
    return out


def missing_dask() -> list[str]:
    """Why a local Dask cluster cannot start here: the import errors of Dask and its distributed scheduler (a
    wheel carried without one of its dependencies fails here, not in the middle of the run), or nothing."""
    missing = []
    for name in ("dask", "distributed"):
        try:
            importlib.import_module(name)
        except ImportError as e:
            missing.append(f"{name}: {e}")
    return missing


def dask_skipped(missing: list[str]) -> str:
    """The line that says the Dask runs were skipped, and how to carry what they need to a machine without it."""
    return (f"dask: skipped ({'; '.join(missing)}). To measure it on a machine without "
            f"Dask, carry wheels of {', '.join(DASK_WHEELS)} (tornado's is built for the platform: an abi3 "
            f"manylinux x86_64 wheel; the others are pure Python; their binary dependencies msgpack, psutil, pyyaml "
            f"and markupsafe must be there already) and install them with pip install --no-index --no-deps")


def backends(shoes: int, top: int, threads_top: dict, pair_shoes: int, dask: bool) -> dict:
    """Processes and a local Dask cluster: at ``top`` workers on ``shoes`` shoes against the threads' run of the
    same job (``threads_top``) and one thread's rate; and at 2 workers on ``pair_shoes`` shoes, CPU seconds
    against the threads' just before.  Every run of processes comes before the first Dask cluster, which leaves
    threads behind in this process: processes would then be spawned where a command forks them."""
    one = threads_top["one_thread_rate"]
    out: dict = {"top": [], "two": []}
    base = timed(job(MAIN, pair_shoes), "threads", 2) if top >= 2 else None
    order = [("two", "processes"), ("top", "processes")] + ([("two", "dask"), ("top", "dask")] if dask else [])
    for which, backend in order:
        if which == "two" and base is None:
            continue
        how = start_method() if backend == "processes" else None  # forked, or spawned (slower to start)
        r = timed(job(MAIN, pair_shoes if which == "two" else shoes), backend, 2 if which == "two" else top)
        if how:
            r["start_method"] = how
        if which == "top":
            r["efficiency"] = r["hands_per_second"] / (top * one)
            r["rate_vs_threads"] = r["hands_per_second"] / threads_top["hands_per_second"]
            r["cpu_vs_threads"] = r["cpu_seconds"] / threads_top["cpu_seconds"]
        else:
            assert base is not None
            r["cpu_vs_threads"] = r["cpu_seconds"] / base["cpu_seconds"]
        out[which].append(r)
    if base is not None:
        out["two"].insert(0, base)
    return out


def whole_commands(shoes: int, dask: bool) -> list[dict]:
    """``baccara simulate punto --workers 2`` on ``shoes`` shoes in a fresh process per backend, as a user runs it
    (``bench_sim.whole_process``: start-up, imports and kernels loaded included): CPU seconds against the
    threads'."""
    out: list[dict] = []
    for backend in ("threads", "processes") + (("dask",) if dask else ()):
        r = whole_process(shoes, 2, 7, backend)
        out.append({"backend": backend, "shoes": shoes, "hands": r["hands"], "seconds": r["wall"],
                    "cpu_seconds": r["cpu"], "cpu_vs_threads": r["cpu"] / (out[0]["cpu_seconds"] if out else r["cpu"])})
    return out


def perfect_job(names, shoes: int, decks: int) -> PuntoJob:
    return job(names, shoes, decks=decks, perfect=True, chunk_size=64)


def perfect_cpu(shoes: int, decks: int, workers: list[int]) -> dict:
    """The perfect counter on bets on card values on the CPU: microseconds a coup on one thread per set of bets
    (after a warm-up that compiles or loads the kernel), and its threads' scaling on the first set, ``shoes``
    shoes a worker (so that each run is about as long as one thread's)."""
    per_coup = []
    for names in CARD_VALUE_BETS:
        run(perfect_job(names, 1, decks), "threads", 1)  # compiles (or loads) the kernels
        r = timed(perfect_job(names, shoes, decks), "threads", 1)
        r.update(bets="+".join(names), decks=decks, us_per_coup=1e6 * r["seconds"] / r["hands"])
        per_coup.append(r)
    scaling = []
    for w in workers:
        r = timed(perfect_job(CARD_VALUE_BETS[0], shoes * w, decks), "threads", w)
        scaling.append(r)
    one = scaling[0]["hands_per_second"] / scaling[0]["workers"]
    for r in scaling:
        r["efficiency"] = r["hands_per_second"] / (r["workers"] * one)
    return {"bets": "+".join(CARD_VALUE_BETS[0]), "decks": decks, "one_thread": per_coup, "threads": scaling}


def perfect_gpu(gpu_shoes: int, one_thread: list[dict], identity_shoes: int, decks: int) -> list[dict]:
    """The perfect counter on bets on card values, per set of bets: the CPU's and the GPU's rows of a few shoes,
    equal or not, and exact evaluations a second on the GPU (after a warm-up) against one CPU thread's
    (``one_thread``, :func:`perfect_cpu`'s runs)."""
    out = []
    for names, cpu in zip(CARD_VALUE_BETS, one_thread, strict=True):
        small = perfect_job(names, identity_shoes, decks)
        cpu_rows = np.zeros((small.shoes, len(small.columns())), dtype=np.int64)
        args = punto._perfect_args(small)
        assert args is not None, "bets on card values are dealt by the compiled perfect counter"
        PK.perfect_chunk(small.seed, 1000, cpu_rows, *args)
        same = bool(np.array_equal(cpu_rows, gpu.punto_rows_gpu(small, 1000, small.shoes)))
        run(perfect_job(names, 1, decks), "gpu")  # compiles (or loads) the kernels
        total, info = run(perfect_job(names, gpu_shoes, decks), "gpu")
        on_gpu = {"shoes": gpu_shoes, "evaluations": total.extra["evaluations"], "seconds": info.seconds,
                  "evaluations_per_second": total.extra["evaluations"] / info.seconds}
        out.append({"bets": "+".join(names), "decks": decks, "rows_equal": same, "gpu": on_gpu, "cpu_thread": cpu,
                    "ratio": on_gpu["evaluations_per_second"] / cpu["evaluations_per_second"]})
    return out


def device() -> str:
    if gpu.simulator():
        return "CUDA simulator (NUMBA_ENABLE_CUDASIM=1): rates are meaningless"
    from numba import cuda

    d = cuda.get_current_device()
    name = d.name.decode() if isinstance(d.name, bytes) else str(d.name)
    return f"{name}, {d.MULTIPROCESSOR_COUNT} SMs, compute capability {d.compute_capability}"


def goal(what: str, value: float | None, target: float, at_least: bool, unit: str = "") -> dict:
    """One of the issue's goals and the figure measured for it: passed, failed, or not measured (None)."""
    ok = None if value is None else (value >= target if at_least else value <= target)
    return {"goal": what, "measured": value, "target": target, "at_least": at_least, "unit": unit, "passed": ok}


def goals(doc: dict, top: int) -> list[dict]:
    """Every goal the run measured a figure for (those it could not, with ``measured`` None)."""
    out = []
    threads = {r["workers"]: r for r in doc["cpu_threads"]}
    for w, target in THREADS_EFFICIENCY.items():
        r = threads.get(w)
        out.append(goal(f"threads' efficiency at {w} workers, {doc['sizes']['cpu_shoes']:,} shoes",
                        r and r["efficiency"], target, True, "%"))
    top_runs = {r["backend"]: r for r in doc["backends"]["top"]}
    dask = top_runs.get("dask")
    out.append(goal(f"local Dask cluster's rate / the threads' at {top} workers", dask and dask["rate_vs_threads"],
                    DASK_VS_THREADS, True, "%"))
    whole = bool(doc["whole_command"])
    two = {r["backend"]: r for r in doc["whole_command"] or doc["backends"]["two"]}
    shoes = doc["sizes"]["whole_shoes" if whole else "pair_shoes"]
    where = "the whole command" if whole else "inside the run"
    for backend, target in CPU_VS_THREADS.items():
        r = two.get(backend)
        out.append(goal(f"CPU seconds of {backend} / the threads', 2 workers, {shoes:,} shoes, {where}",
                        r and r["cpu_vs_threads"], target, False, "x"))
    g = doc.get("gpu") or {}
    for key, label in (("flat", "GPU, flat main bets"), ("side+count", "GPU, side bets + Dragon 7 count")):
        r = g.get(key)
        out.append(goal(f"{label}, hands a second", r and r["hands_per_second"], GOALS[f"gpu {key}"], True, "G"))
    for r in doc["perfect_cpu"]["one_thread"]:
        out.append(goal(f"perfect counter ({r['bets']}), one core, {r['decks']} decks", r["us_per_coup"],
                        PERFECT_US_PER_COUP, False, "us"))
    scaling = {r["workers"]: r for r in doc["perfect_cpu"]["threads"]}
    r = scaling.get(16)
    out.append(goal(f"perfect counter's threads' efficiency at 16 workers ({doc['perfect_cpu']['bets']})",
                    r and r["efficiency"], PERFECT_EFFICIENCY, True, "%"))
    for r in doc.get("perfect") or [{"bets": "+".join(b), "ratio": None} for b in CARD_VALUE_BETS]:
        out.append(goal(f"perfect counter ({r['bets']}) on the GPU / one core", r["ratio"], PERFECT_GOAL, True, "x"))
    return out


def shown(value: float | None, unit: str) -> str:
    if value is None:
        return "-"
    return {"%": f"{value:.0%}", "x": f"{value:,.2f}x", "G": f"{value / 1e9:.2f} G", "us": f"{value:.2f} us"}[unit]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gpu-shoes", type=float, default=2e8, help="shoes of the flat GPU run (default 2e8)")
    ap.add_argument("--side-shoes", type=float, default=2e7, help="shoes of the side-bet + count GPU run (2e7)")
    ap.add_argument("--cpu-shoes", type=float, default=1e7, help="shoes of each CPU scaling run and of processes' "
                    "and Dask's at the most workers (1e7, the issue's job)")
    ap.add_argument("--pair-shoes", type=float, default=1e6, help="shoes of the 2-worker CPU-seconds runs (1e6)")
    ap.add_argument("--whole-shoes", type=float, default=1e6, help="shoes of the whole command per backend at 2 "
                    "workers, in a fresh process each (1e6; 0: none, as with --smoke)")
    ap.add_argument("--identity-shoes", type=int, default=2000, help="shoes of each identity case (2000)")
    ap.add_argument("--sweep-shoes", type=float, default=5e7, help="shoes of each launch-shape run (5e7; 0: none)")
    ap.add_argument("--workers", default="1,2,4,8,12,16", help="thread counts (those above the cores are skipped)")
    ap.add_argument("--perfect-shoes", type=float, default=2e5, help="shoes of each perfect-counter GPU run (2e5)")
    ap.add_argument("--perfect-cpu-shoes", type=int, default=2000, help="shoes of the perfect counter's one-thread "
                    "runs, and per worker of its threads' scaling (2000)")
    ap.add_argument("--json", default=None, help="write the figures here as JSON (also $OUT/device_check.json)")
    ap.add_argument("--smoke", action="store_true", help="tiny sizes, for the CUDA simulator or no GPU")
    a = ap.parse_args()
    if a.smoke:
        a.gpu_shoes, a.side_shoes, a.cpu_shoes, a.identity_shoes, a.workers = 40, 20, 400, 10, "1,2"
        a.sweep_shoes, a.perfect_shoes, a.perfect_cpu_shoes, a.pair_shoes, a.whole_shoes = 20, 2, 2, 400, 0
    cores = os.cpu_count() or 1
    workers = [w for w in (int(x) for x in a.workers.split(",")) if 1 <= w <= cores] or [1]
    if workers[0] != 1:
        workers.insert(0, 1)
    top = max(workers)
    no_gpu = gpu.gpu_status()
    t0 = time.perf_counter()
    doc: dict = {"device": no_gpu and f"no GPU ({no_gpu})" or device(), "cores": cores,
                 "python": platform.python_version(), "smoke": a.smoke,
                 "sizes": {"cpu_shoes": int(a.cpu_shoes), "pair_shoes": int(a.pair_shoes),
                           "whole_shoes": int(a.whole_shoes)}}
    print(f"device: {doc['device']}; {cores} CPU cores", flush=True)

    def save() -> None:
        """Write the figures so far (after each section: a run stopped at its time limit keeps what it measured)."""
        text = json.dumps(doc, indent=2)
        if a.json:
            Path(a.json).write_text(text)
        if os.environ.get("OUT"):
            Path(os.environ["OUT"], "device_check.json").write_text(text)

    if no_gpu:
        print(f"GPU: skipped (identity, rates, launch shapes, the perfect counter on the GPU): {no_gpu}", flush=True)

    if not no_gpu:
        doc["identity"] = identity(a.identity_shoes)
        save()
        print("\nidentity, CPU kernels vs GPU (seeded, shoe for shoe):")
        for r in doc["identity"]:
            ok = "same" if r["rows_equal"] and r["sums_equal"] else "DIFFERENT"
            print(f"  {r['case']:<28} {r['shoes']:>7,} shoes {r['hands']:>10,} hands   rows and totals: {ok}")

        warm = max(1, int(min(a.side_shoes, 1e5)))
        flat = gpu_rate(job(MAIN, int(a.gpu_shoes)), job(MAIN, warm))
        side = gpu_rate(job(SIDE, int(a.side_shoes), count=load_count_toml(COUNT)),
                        job(SIDE, warm, count=load_count_toml(COUNT)))
        doc["gpu"] = {"flat": flat, "side+count": side}
        save()
        print("\nGPU, hands per second inside the run:")
        for label, r, target in (("flat main bets", flat, GOALS["gpu flat"]),
                                 ("side bets + Dragon 7 count", side, GOALS["gpu side+count"])):
            print(f"  {label:<28} {r['shoes']:>13,} shoes  {r['hands_per_second'] / 1e9:8.3f} G hands/s "
                  f"({r['seconds']:.2f} s; goal {target / 1e9:g} G)", flush=True)

        if a.sweep_shoes:
            configs = [(128, 2), (128, 4), (128, 8), (128, 16), (256, 8), (64, 16)] if not a.smoke else [(8, 1)]
            doc["gpu_launch_shapes"] = launch_sweep(int(a.sweep_shoes), configs)
            save()
            print(f"\nGPU flat main bets by launch shape, {int(a.sweep_shoes):,} shoes each (default "
                  f"{gpu.THREADS} threads x {gpu.BLOCKS_PER_SM} blocks per SM):")
            for r in doc["gpu_launch_shapes"]:
                print(f"  {r['threads']:>4} threads x {r['blocks_per_sm']:>2} blocks/SM  "
                      f"{r['hands_per_second'] / 1e9:8.3f} G hands/s")

    def machine(w: int) -> float:
        return machine_speedup(w, 0.02, 1) if a.smoke else machine_speedup(w)

    doc["cpu_threads"] = cpu_scaling(int(a.cpu_shoes), workers, machine)
    save()
    print(f"\nCPU threads, flat main bets, {int(a.cpu_shoes):,} shoes each ('machine': a perfectly parallel kernel's "
          f"speed-up on as many threads, just after):")
    rows = doc["cpu_threads"]
    print("  workers   " + "".join(f"{r['workers']:>9}" for r in rows))
    print("  M hands/s " + "".join(f"{r['hands_per_second'] / 1e6:>9.1f}" for r in rows))
    print("  CPU s     " + "".join(f"{r['cpu_seconds']:>9.2f}" for r in rows))
    print("  speed-up  " + "".join(f"{r['speed_up']:>9.2f}" for r in rows))
    print("  efficiency" + "".join(f"{r['efficiency']:>9.0%}" for r in rows))
    print("  machine   " + "".join(f"{r['machine']:>9.2f}" for r in rows))
    print("  vs machine" + "".join(f"{r['vs_machine']:>9.0%}" for r in rows), flush=True)
    one = rows[0]["hands_per_second"]
    if doc.get("gpu"):
        print(f"\nGPU flat / one CPU thread: {doc['gpu']['flat']['hands_per_second'] / one:,.0f}x")

    missing = missing_dask()
    threads_top = {**rows[-1], "one_thread_rate": one}
    doc["backends"] = backends(int(a.cpu_shoes), top, threads_top, int(a.pair_shoes), not missing)
    save()
    print(f"\nprocesses and a local Dask cluster, flat main bets, {int(a.cpu_shoes):,} shoes, {top} workers, the "
          f"pool's or cluster's start included (the threads: {threads_top['hands_per_second'] / 1e6:.1f} M hands/s, "
          f"{threads_top['cpu_seconds']:.2f} CPU-s):")
    for r in doc["backends"]["top"]:
        how = f", {r['start_method']}" if "start_method" in r else ""
        print(f"  {r['backend']:<10} {r['hands_per_second'] / 1e6:9.1f} M hands/s ({r['seconds']:.2f} s{how})  "
              f"efficiency {r['efficiency']:.0%}  rate {r['rate_vs_threads']:.0%} of the threads'  "
              f"{r['cpu_seconds']:.2f} CPU-s = {r['cpu_vs_threads']:.2f}x the threads'")
    if doc["backends"]["two"]:
        print(f"  at 2 workers, {int(a.pair_shoes):,} shoes: " + "; ".join(
            f"{r['backend']} {r['cpu_seconds']:.2f} CPU-s" + (f" = {r['cpu_vs_threads']:.2f}x" if "cpu_vs_threads"
                                                            in r else "") for r in doc["backends"]["two"]))
    doc["whole_command"] = whole_commands(int(a.whole_shoes), not missing) if a.whole_shoes else []
    save()
    if doc["whole_command"]:
        print(f"  the whole command, baccara simulate punto --workers 2, {int(a.whole_shoes):,} shoes, a fresh process "
              f"each: " + "; ".join(f"{r['backend']} {r['cpu_seconds']:.2f} CPU-s = {r['cpu_vs_threads']:.2f}x"
                                    for r in doc["whole_command"]))
    else:
        print("  the whole command per backend: skipped (--whole-shoes 0)")
    doc["dask_skipped"] = dask_skipped(missing) if missing else None
    if missing:
        print(f"  {doc['dask_skipped']}")
    sys.stdout.flush()

    decks = 1 if a.smoke else 8
    doc["perfect_cpu"] = perfect_cpu(a.perfect_cpu_shoes, decks, workers)
    save()
    print(f"\nthe perfect counter on card values on the CPU, {decks} decks:")
    for r in doc["perfect_cpu"]["one_thread"]:
        print(f"  {r['bets']:<16} one thread: {r['us_per_coup']:8.2f} us a coup ({r['shoes']:,} shoes, "
              f"{r['hands']:,} coups, {r['seconds']:.2f} s; goal {PERFECT_US_PER_COUP:g} us)")
    prow = doc["perfect_cpu"]["threads"]
    print(f"  {doc['perfect_cpu']['bets']} threads, {a.perfect_cpu_shoes:,} shoes a worker:")
    print("    workers   " + "".join(f"{r['workers']:>9}" for r in prow))
    print("    k hands/s " + "".join(f"{r['hands_per_second'] / 1e3:>9.1f}" for r in prow))
    print("    efficiency" + "".join(f"{r['efficiency']:>9.0%}" for r in prow), flush=True)

    if a.perfect_shoes and not no_gpu:
        n = int(a.perfect_shoes)
        doc["perfect"] = perfect_gpu(n, doc["perfect_cpu"]["one_thread"], 2 if a.smoke else 20, decks)
        print(f"\nthe perfect counter on card values, exact evaluations a second (goal {PERFECT_GOAL}x one core):")
        for r in doc["perfect"]:
            ok = "same" if r["rows_equal"] else "DIFFERENT"
            print(f"  {r['bets']:<16} {r['decks']} decks  GPU {r['gpu']['evaluations_per_second']:>12,.0f} "
                  f"({r['gpu']['shoes']:,} shoes)  one thread {r['cpu_thread']['evaluations_per_second']:>10,.0f}  "
                  f"{r['ratio']:,.1f}x   rows: {ok}")

    doc["goals"] = goals(doc, top)
    caveat = " (smoke sizes: the figures and verdicts mean nothing)" if a.smoke else ""
    print(f"\ngoals (issue 44), measured on this machine{caveat}:")
    for g in doc["goals"]:
        word = {True: "PASS", False: "FAIL", None: "not measured"}[g["passed"]]
        print(f"  {g['goal']:<80} {shown(g['measured'], g['unit']):>12}  goal {'>=' if g['at_least'] else '<='} "
              f"{shown(g['target'], g['unit']):<9} {word}")
    doc["seconds"] = time.perf_counter() - t0
    print(f"check took {doc['seconds']:.0f} s")
    save()
    same = all(r["rows_equal"] and r["sums_equal"] for r in doc.get("identity", []))
    same = same and all(r["rows_equal"] for r in doc.get("perfect", []))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
