"""Benchmark: the command line's start-up, and the simulator's whole process, against the plain imports.

Each command runs as a whole fresh process, as a user runs it; the commands
take turns (one round runs each once, in order), and each figure is the
median over the rounds of the wall-clock seconds and of the CPU seconds
(user + system, the children's accounting), so a machine that slows down
part-way slows every command alike.  Printed as ratios to ``python -c "import
numpy"`` and ``python -c "import numba"`` in the same rounds, with the goals:

1. ``baccara --version``: at most 1.5 x ``import numpy``;
2. ``baccara --help`` and every command group's ``--help``: at most 2.5 x ``import numpy``;
3. ``baccara edge --decks 8``: at most 1.6 x ``import numba``; ``python -c "import baccara"`` beside it;
4. ``baccara simulate punto --bets banker,player,tie`` on ``--sim-shoes`` (a million) 8-deck shoes, ``--workers``
   threads (2): hands per wall-clock second of the whole process (goal 50 M), the rate inside the run
   (the document's ``run.hands_per_second``), and the CPU utilisation (CPU seconds / wall seconds; 2.0 is two
   cores busy throughout).

With ``--baseline BACCARA`` (another installation's ``baccara`` executable, whose ``python`` is beside it) every
command runs on both, in turn, and the table gives each figure after / before.  On a shared machine the wall
clock rises with the other processes' load and the CPU seconds much less: read the CPU ratios there.

    .venv/bin/python benchmarks/bench_startup.py [--rounds 5] [--sim-shoes 1000000] [--workers 2]
        [--baseline /path/to/other/.venv/bin/baccara]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

GROUPS = ("chemin", "simulate", "banque", "count", "macao", "check")


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_once(cmd: list[str], keep: bool = False) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds, standard output if ``keep``) of one fresh process."""
    c0, t0 = _cpu(), time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.PIPE if keep else subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       text=True)
    wall, cpu = time.perf_counter() - t0, _cpu() - c0
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} exited with status {p.returncode}")
    return wall, cpu, p.stdout if keep else ""


def commands(baccara: str, python: str, sim_shoes: int, workers: int) -> dict[str, list[str]]:
    """The measured commands of one installation, by label."""
    out = {
        "import numpy": [python, "-c", "import numpy"],
        "import numba": [python, "-c", "import numba"],
        "import baccara": [python, "-c", "import baccara"],
        "baccara --version": [baccara, "--version"],
        "baccara --help": [baccara, "--help"],
    }
    for g in GROUPS:
        out[f"baccara {g} --help"] = [baccara, g, "--help"]
    out["baccara edge --decks 8"] = [baccara, "edge", "--decks", "8"]
    if sim_shoes:
        out["simulate punto"] = [baccara, "simulate", "punto", "--shoes", str(sim_shoes), "--bets",
                                 "banker,player,tie", "--seed", "1", "--workers", str(workers), "--json",
                                 "--allow-long"]
    return out


def measure(installs: dict[str, dict[str, list[str]]], rounds: int) -> dict[str, dict[str, dict]]:
    """Every command of every installation once a round, in turn: the wall and CPU seconds of each run,
    and the simulation's documents."""
    got: dict[str, dict[str, dict]] = {
        who: {k: {"wall": [], "cpu": [], "docs": []} for k in cmds} for who, cmds in installs.items()}
    for cmds in installs.values():  # a warm-up: bytecode and the kernels' caches written
        for cmd in cmds.values():
            run_once(cmd)
    for _ in range(rounds):
        for label in next(iter(installs.values())):
            for who, cmds in installs.items():
                wall, cpu, text = run_once(cmds[label], keep=label == "simulate punto")
                cell = got[who][label]
                cell["wall"].append(wall)
                cell["cpu"].append(cpu)
                if text:
                    cell["docs"].append(json.loads(text))
    return got


def report(got: dict[str, dict], who: str) -> None:
    med = {k: (statistics.median(v["wall"]), statistics.median(v["cpu"])) for k, v in got[who].items()}
    npy, nba = med["import numpy"], med["import numba"]
    goals = {"baccara --version": ("numpy", 1.5), "baccara --help": ("numpy", 2.5),
             "baccara edge --decks 8": ("numba", 1.6)}
    goals.update({f"baccara {g} --help": ("numpy", 2.5) for g in GROUPS})
    print(f"{who}: medians; ratios to the plain imports measured in the same rounds")
    print(f"  {'command':28s} {'wall s':>7s} {'cpu s':>7s}   {'/numpy wall':>11s} {'/numpy cpu':>10s}   "
          f"{'/numba wall':>11s} {'/numba cpu':>10s}   goal")
    for label, (wall, cpu) in med.items():
        if label == "simulate punto":
            continue
        goal = goals.get(label)
        print(f"  {label:28s} {wall:7.3f} {cpu:7.3f}   {wall / npy[0]:11.2f} {cpu / npy[1]:10.2f}   "
              f"{wall / nba[0]:11.2f} {cpu / nba[1]:10.2f}   "
              + (f"<= {goal[1]} x import {goal[0]}" if goal else ""))
    if "simulate punto" in got[who]:
        cell = got[who]["simulate punto"]
        hands = cell["docs"][0]["hands"]
        rates = [hands / w for w in cell["wall"]]
        inside = [d["run"]["hands_per_second"] for d in cell["docs"]]
        util = [c / w for c, w in zip(cell["cpu"], cell["wall"])]
        print(f"  simulate punto ({hands:,} hands, {cell['docs'][0]['run']['workers']} workers): whole process "
              f"{statistics.median(rates) / 1e6:.1f} M hands/s (goal 50), in the run "
              f"{statistics.median(inside) / 1e6:.1f} M hands/s, CPU utilisation {statistics.median(util):.2f}, "
              f"{hands / statistics.median(cell['cpu']) / 1e6:.1f} M hands per CPU-second")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--sim-shoes", type=int, default=1_000_000, help="shoes of the simulation (0: skip it)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--baseline", help="another installation's baccara executable, to compare against")
    a = ap.parse_args()
    here = Path(sys.executable).parent / "baccara"
    installs = {"this": commands(str(here), sys.executable, a.sim_shoes, a.workers)}
    if a.baseline:
        base = Path(a.baseline)
        installs["baseline"] = commands(str(base), str(base.parent / "python"), a.sim_shoes, a.workers)
    load = os.getloadavg()
    got = measure(installs, a.rounds)
    print(f"machine: {os.cpu_count()} cores, load average {load[0]:.1f} -> {os.getloadavg()[0]:.1f}; "
          f"{a.rounds} rounds, commands in turn")
    for who in installs:
        report(got, who)
    if a.baseline:
        print("this / baseline (medians of the pairwise ratios of the same round):")
        for label in installs["this"]:
            w = statistics.median(x / y for x, y in zip(got["this"][label]["wall"], got["baseline"][label]["wall"]))
            c = statistics.median(x / y for x, y in zip(got["this"][label]["cpu"], got["baseline"][label]["cpu"]))
            print(f"  {label:28s} wall {w:6.2f}   cpu {c:6.2f}")


if __name__ == "__main__":
    main()
