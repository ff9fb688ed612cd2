"""Benchmark: Macao solved exactly on 2 decks, and the exact engine against the brute-force enumerator.

Run: ``PYTHONPATH=src python benchmarks/bench_macao.py [variant]``.  Prints the wall time
of the whole exact solve (build, float LP, exact recovery, certificate, outcome
distribution) of one variant on 2 decks, and on a 10-card shoe the time of the exact
engine and of the brute-force enumerator (its test oracle) for the same strategies, and
their ratio.
"""

from __future__ import annotations

import sys
import time
from fractions import Fraction

from baccara.macao.brute import brute_distribution
from baccara.macao.engine import distribution
from baccara.macao.model import macao_game
from baccara.macao.solution import solve_macao


def main(variant: str = "victoria") -> None:
    t = time.perf_counter()
    sol = solve_macao(macao_game(variant, 2))
    dt = time.perf_counter() - t
    print(f"{sol.summary()}\n  exact solve on 2 decks: {dt:.2f} s  ({', '.join(f'{k} {v:.2f}' for k, v in sol.seconds.items())})")
    counts = (1,) * 10
    g = macao_game(variant, counts)
    half = lambda key: Fraction(1, 2)  # noqa: E731
    t = time.perf_counter()
    d1 = distribution(g, half, half)
    te = time.perf_counter() - t
    t = time.perf_counter()
    d2 = brute_distribution(g.rules, counts, half, half)
    tb = time.perf_counter() - t
    assert d1 == d2
    print(f"  10-card shoe, both sides draw w.p. 1/2: engine {te:.3f} s, brute force {tb:.3f} s, ratio {tb / te:.1f}x")


if __name__ == "__main__":
    main(*sys.argv[1:])
