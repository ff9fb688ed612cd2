"""Benchmark: a built-in bet's math report at the default simulation sizes, against the 2-minute goal.

``baccara report --decks 8 --bet BET --out FILE.html`` is run as a user runs it (a fresh process,
start-up included) with the defaults that ``baccara report --help`` states (20,000 shoes to design
the count, 100,000 to analyse it, 4,000 for the perfect counter, 300 for a pair bet, 10^8 hands for
the simulation check); the goal is under 2 minutes on 2 cores.  The straightforward reference in the
same run is the exact part alone (``--count-shoes 0 --check-hands 0``: the pay table, moments, the
bet on 1 to 8 decks, the house's exact result, effects of removal, edge sorting, the first card
known), so the ratio shows what the simulations cost.

    .venv/bin/python benchmarks/bench_report.py [--bets dragon7,player_pair] [--repeat 1]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GOAL_SECONDS = 120.0


def run(bet: str, extra: list[str]) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "baccara", "report", "--decks", "8", "--bet", bet, "--workers",
                               "2", "--out", str(Path(tmp) / "r.html"), *extra], capture_output=True, text=True)
        seconds = time.perf_counter() - t0
    if done.returncode != 0:
        raise SystemExit(f"baccara report --bet {bet} failed: {done.stderr[-400:]}")
    return seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bets", default="dragon7,player_pair")
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    print(f"{'bet':<14}{'report (s)':>12}{'exact only (s)':>16}{'ratio':>8}{'goal':>8}")
    for bet in args.bets.split(","):
        full = statistics.median(run(bet, []) for _ in range(args.repeat))
        exact = statistics.median(run(bet, ["--count-shoes", "0", "--check-hands", "0"]) for _ in range(args.repeat))
        print(f"{bet:<14}{full:>12.1f}{exact:>16.1f}{full / exact:>8.1f}{'ok' if full < GOAL_SECONDS else 'MISSED':>8}")


if __name__ == "__main__":
    main()
