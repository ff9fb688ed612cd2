"""Execute notebooks start to finish (the examples CI runs); fail on the first error.

Usage: python scripts/run_notebooks.py examples/*.ipynb

Each notebook runs in a fresh kernel from its own folder, with a time limit per cell.  The
notebooks on disk are not changed (they are kept without outputs).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

CELL_TIMEOUT_S = 120


def main(paths: list[str]) -> int:
    if not paths:
        print("run_notebooks: no notebook given", file=sys.stderr)
        return 2
    failed = []
    for p in map(Path, paths):
        nb = nbformat.read(p, as_version=4)
        start = time.perf_counter()
        client = NotebookClient(nb, timeout=CELL_TIMEOUT_S, kernel_name="python3",
                                resources={"metadata": {"path": str(p.parent.resolve())}})
        try:
            client.execute()
        except CellExecutionError as e:
            failed.append(p)
            print(f"FAILED {p}:\n{e}", file=sys.stderr)
            continue
        print(f"ok     {p} ({len(nb.cells)} cells, {time.perf_counter() - start:.1f} s)")
    if failed:
        print(f"run_notebooks: {len(failed)} notebook(s) failed: {', '.join(map(str, failed))}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
