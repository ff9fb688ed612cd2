"""Benchmark: chemin de fer under Model B3 (Ethier and Lee 2023, section 4).

1. One (d, alpha) with every Nash equilibrium enumerated (goal: < 5 s), cold
   (coefficients computed) and warm.  Reference in the same run: the same
   arrangement-vertex enumeration done the straightforward way — every
   (face of Player's cube, subset of Banker's hyperplanes) system solved in
   exact rationals, no floating-point screen; it must find the same equilibria.
2. The B3 alpha sweep for one d, each interval confirmed in the full game
   with a full enumeration inside it (goal: < 30 s per d).

    .venv/bin/python benchmarks/bench_chemin3.py
"""

from __future__ import annotations

import statistics
import time
from fractions import Fraction
from itertools import combinations, product

from baccara.chemin import model as chemin
from baccara.chemin.model import chemin_game
from baccara.chemin.model3 import solve_chemin3, sweep_chemin3
from baccara.solve.bilinear import (
    BilinearNashSet,
    _exact_vertex,
    dominance_reduction,
    merge_equivalent_II,
    nash_equilibria,
)
from baccara.solve.linalg import solve_exact


def reference_enumeration(game) -> list[tuple]:
    """Every arrangement vertex tried in exact rationals (no float screen)."""
    red = dominance_reduction(game)
    small, _ = merge_equivalent_II(game.restrict(red.fixed_I, red.fixed_II))
    out, seen = BilinearNashSet(), set()
    k, n = small.k, small.n
    for m in range(k + 1):
        for M in combinations(range(k), m):
            others = [j for j in range(k) if j not in M]
            for bits in product((0, 1), repeat=len(others)):
                fixed = dict(zip(others, bits))
                for Z in combinations(range(n), m):
                    if m:
                        sol = solve_exact([[small.g[i][j] for j in M] for i in Z],
                                          [-(small.g0[i] + sum(small.g[i][j] * b for j, b in fixed.items())) for i in Z])
                        if sol is None or not all(0 < v < 1 for v in sol):
                            continue
                    y = [Fraction(fixed.get(j, 0)) for j in range(k)]
                    for j, v in zip(M, sol if m else ()):
                        y[j] = v
                    _exact_vertex(small, tuple(y), M, seen, out)
    return sorted((e.y, e.x) for e in out.equilibria)


def main() -> None:
    d, alpha = 6, Fraction(1, 20)
    solve_chemin3(chemin_game("B3", 2), alpha)  # compile / load the kernel
    chemin._chemin_game3.cache_clear()
    chemin._raw_coefficients.cache_clear()
    chemin._chemin_game.cache_clear()
    t0 = time.perf_counter()
    sol = solve_chemin3(chemin_game("B3", d), alpha, all_equilibria=True)
    cold = time.perf_counter() - t0
    warm = []
    for _ in range(5):
        t0 = time.perf_counter()
        solve_chemin3(chemin_game("B3", d), alpha, all_equilibria=True)
        warm.append(time.perf_counter() - t0)
    print(f"baccara B3 all equilibria, d = {d}, alpha = {alpha}: cold {cold:.2f} s, warm median "
          f"{statistics.median(warm):.3f} s; unique = {sol.unique}, "
          f"{sol.enumeration.candidates} systems screened, {sol.enumeration.vertices_tried} checked exactly")
    game = chemin_game("B3", d).at(alpha)
    t0 = time.perf_counter()
    ours = nash_equilibria(game)
    t_ours = time.perf_counter() - t0
    red = dominance_reduction(game)
    t0 = time.perf_counter()
    ref = reference_enumeration(game)
    t_ref = time.perf_counter() - t0
    small_ours = sorted((tuple(e.y[j] for j in red.open_I), tuple(e.x[i] for i in red.open_II))
                        for e in ours.equilibria)
    assert small_ours == ref, "reference disagrees"
    print(f"enumeration alone: baccara {t_ours:.3f} s, reference (exact, unscreened) {t_ref:.2f} s "
          f"(same equilibria): ratio {t_ref / t_ours:,.0f}x")
    worst = 0.0
    for dd in (1, 6, 9, 50, 100):
        t0 = time.perf_counter()
        sw = sweep_chemin3(chemin_game("B3", dd))
        t = time.perf_counter() - t0
        worst = max(worst, t)
        print(f"B3 sweep d = {dd:3d}: {t:5.2f} s, {len(sw.confirmations)} intervals, "
              f"{sw.restricted.result.counts()[4]} exceptional alphas, all confirmed: {sw.to_json()['all_confirmed']}")
    print(f"goals: all equilibria at one (d, alpha) < 5 s: {'met' if cold < 5 else 'NOT met'}; "
          f"B3 sweep < 30 s per d: {'met' if worst < 30 else 'NOT met'}")


if __name__ == "__main__":
    main()
