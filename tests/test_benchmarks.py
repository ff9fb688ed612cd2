"""The benchmarks still run against the current layout: every name they import from baccara exists,
and every attribute they read off an imported baccara module or object exists too.

Benchmarks are not run by the test suite (they are long and measure time); twice a module move left one
stopping at its first line (``chemin._chemin_game`` after the chemin face became a function), which only a
run on a quiet machine found.  This reads them with :mod:`ast` and checks what they reach for.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

_MISSING = object()

BENCHMARKS = sorted(p for pattern in ("bench_*.py", "device_check_*.py")
                    for p in (Path(__file__).resolve().parent.parent / "benchmarks").glob(pattern))


def unresolved(source: str) -> list[str]:
    """The ``from baccara... import`` names that do not exist, and the attributes read off them that do not."""
    tree = ast.parse(source)
    names: dict[str, object] = {}
    missing = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "baccara":
            for alias in node.names:
                try:
                    module = importlib.import_module(node.module)
                    obj = getattr(module, alias.name, _MISSING)
                    if obj is _MISSING:  # a submodule that its package has not loaded yet
                        obj = importlib.import_module(f"{node.module}.{alias.name}")
                except ImportError:
                    missing.append(f"{node.module}.{alias.name}")
                    continue
                names[alias.asname or alias.name] = obj
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in names:
            if not hasattr(names[node.value.id], node.attr):
                missing.append(f"{node.value.id}.{node.attr}")
    return missing


@pytest.mark.parametrize("path", BENCHMARKS, ids=lambda p: p.stem)
def test_benchmark_names_exist(path):
    assert unresolved(path.read_text()) == []


def test_the_check_finds_a_missing_name():
    source = ("from baccara.chemin import model as chemin\nfrom baccara.shoe import Shoe, NoSuchName\n"
              "chemin._chemin_game.cache_clear()\nchemin._no_such_cache.cache_clear()\nShoe.decks(8)\n")
    assert unresolved(source) == ["baccara.shoe.NoSuchName", "chemin._no_such_cache"]


@pytest.mark.parametrize("backends", ["threads,gpu", "threads,nope", ","])
def test_bench_sim_refuses_a_backend_it_does_not_time(backends):
    """``--backends threads,gpu`` crashed with a traceback in the scaling runs; now argparse refuses it at once,
    naming the option, the backends it times and where the GPU's figures come from."""
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    r = subprocess.run([sys.executable, str(root / "benchmarks" / "bench_sim.py"), "--backends", backends,
                        "--scale-shoes", "1000", "--whole-shoes", "0", "--only-scale"],
                       capture_output=True, text=True, timeout=120, env=dict(os.environ, PYTHONPATH=str(root / "src")))
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert "Traceback" not in r.stderr and r.stdout == ""
    for needle in ("--backends", "threads, processes, dask", "benchmarks/device_check_gpu.py"):
        assert needle in r.stderr, (needle, r.stderr)
