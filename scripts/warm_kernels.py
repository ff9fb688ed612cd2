"""Compile baccara's Numba kernels once, into their on-disk cache, before the test workers start.

Each pytest-xdist worker is a fresh process: on a fresh clone both workers would compile the same
kernels (about a minute of CPU each).  scripts/test.sh runs this first, in one process, so the
workers load the compiled kernels from the cache instead.  Each command below is small; together
they reach the punto banco engine, the simulators, the count tools and the chemin and banque
kernels (scripts/test.sh skips it when the cache is already there).
"""

from __future__ import annotations

import sys
from pathlib import Path

from typer.testing import CliRunner

from baccara.cli import app

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = [
    "edge --decks 8",
    "eor --decks 8 --bet dragon7",
    "simulate punto --decks 8 --shoes 20 --seed 1 --workers 1",
    "simulate chemin --shoes 20 --seed 1 --workers 1",
    "simulate banque --shoes 20 --seed 1 --workers 1",
    "chemin solve --model B2 --decks 8",
    "chemin sweep --model B2 --decks 1",
    "banque solve --theta 1/2 --decks 1",
    "count design --decks 8 --bet dragon7 --shoes 200 --seed 1",
    f"count --decks 8 --bet dragon7 --count {ROOT / 'examples/counts/dragon7.toml'} --shoes 200 "
    "--perfect-shoes 20 --seed 2 --workers 1",
]


def main() -> int:
    runner = CliRunner()
    for command in COMMANDS:
        r = runner.invoke(app, command.split())
        if r.exit_code != 0:  # a warm-up that fails is reported; the tests will say what is wrong
            print(f"scripts/warm_kernels.py: 'baccara {command}' exited {r.exit_code}: {r.output[-500:]}",
                  file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
