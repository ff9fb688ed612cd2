"""Benchmark: baccara banque's correlated cooperative equilibrium (Ethier and Lee 2015, section 3).

baccara: one theta solved exactly (LP basis from HiGHS, exact rationals,
certificate), and the exact sweep of (0, 1/2] (110 intervals).  Reference, in
the same run: the paper's own algorithm at theta = 1/2 (evaluate E(p) at every
intersection of three of the m + 4 planes inside the simplex, in floats with
NumPy) — it must find the same p.  Prints the times and the ratio.

Nash equilibria over theta (``--nash``): baccara follows every equilibrium
branch on (0.15, 5772/33847), exactly.  Reference, in the same run: the
complete pointwise enumeration on a uniform grid fine enough to see the
narrowest interval there (timed on a few grid points, the total extrapolated;
it still gives no exact ends).

    .venv/bin/python benchmarks/bench_banque.py [--no-sweep] [--nash]
"""

from __future__ import annotations

import argparse
import statistics
import time
from fractions import Fraction
from itertools import combinations

import numpy as np

from baccara.banque.correlated_eq.solution import correlated_equilibrium
from baccara.banque.model import banque_game


def reference_half() -> tuple[np.ndarray, float]:
    """Ethier and Lee's (2015) vertex enumeration at theta = 1/2, in floats."""
    g = banque_game()
    a = np.array([float(x) for x in g.a(Fraction(1, 2))])
    h = np.array([[float(x) for x in row] for row in g.h(Fraction(1, 2))])
    relevant = [i for i in range(len(h)) if h[i].min() < 0 < h[i].max() or (h[i].min() <= 0 <= h[i].max() and h[i].any())]
    # E(p) = p.a + sum_i min(0, p.h_i), p = (p00, p01, p10, 1 - ...): planes p.h_i = 0 and the simplex faces
    planes = [h[i] for i in relevant] + [np.eye(4)[k] for k in range(4)]

    def value(p: np.ndarray) -> float:
        return float(p @ a + np.minimum(0, h @ p).sum())

    best, best_p = -np.inf, None
    for trio in combinations(range(len(planes)), 3):
        m = np.array([planes[k] for k in trio] + [np.ones(4)])
        try:
            p = np.linalg.solve(m, np.array([0, 0, 0, 1.0]))
        except np.linalg.LinAlgError:
            continue
        if (p >= -1e-12).all():
            v = value(p)
            if v > best:
                best, best_p = v, p
    return best_p, best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--no-sweep", action="store_true", help="skip the full theta sweep (about 2 minutes)")
    ap.add_argument("--nash", action="store_true", help="also time the Nash branch sweep on (0.15, 5772/33847) (about 1 minute)")
    args = ap.parse_args()
    if args.nash:
        nash_fold()
    correlated_equilibrium(banque_game(), Fraction(1, 2))  # compile the kernel, build the coefficients
    thetas = [Fraction(k, 97) for k in range(1, 49, 4)] + [Fraction(1, 2)]
    times = []
    for th in thetas:
        t0 = time.perf_counter()
        s = correlated_equilibrium(banque_game(), th)
        times.append(time.perf_counter() - t0)
        assert s.solution.certified
    one = statistics.median(times)
    print(f"baccara, one theta (exact, certified), median over {len(thetas)} thetas: {one * 1e3:.0f} ms")
    t0 = time.perf_counter()
    p_ref, v_ref = reference_half()
    ref = time.perf_counter() - t0
    exact = correlated_equilibrium(banque_game(), Fraction(1, 2))
    assert np.allclose(p_ref, [float(x) for x in exact.p], atol=1e-9) and abs(v_ref - float(exact.value)) < 1e-12
    print(f"reference (Ethier and Lee's (2015) vertex enumeration, NumPy floats), theta = 1/2: {ref:.1f} s; same p and value")
    print(f"ratio reference / baccara: {ref / one:,.0f}x")
    if not args.no_sweep:
        from baccara.banque.correlated_eq.sweep import correlated_sweep

        t0 = time.perf_counter()
        pieces = correlated_sweep()
        sweep = time.perf_counter() - t0
        print(f"baccara, exact sweep of (0, 1/2]: {len(pieces)} intervals in {sweep:.0f} s")
        print(f"goals: one theta < 0.5 s: {'met' if one < 0.5 else 'NOT met'}; sweep < 2 min: {'met' if sweep < 120 else 'NOT met'}")


def nash_fold() -> None:
    from baccara.banque.nash_eq.events import THETA_9_11
    from baccara.banque.nash_eq.solution import nash_equilibria
    from baccara.banque.nash_eq.sweep import nash_branches

    lo, hi = Fraction(15, 100), THETA_9_11
    t0 = time.perf_counter()
    branches, pieces = nash_branches(lo, hi)
    ours = time.perf_counter() - t0
    narrowest = min(float(p.hi) - float(p.lo) for p in pieces)
    grid = int(float(hi - lo) / narrowest) + 1
    sample = [lo + (hi - lo) * k / 5 for k in range(1, 5)]
    t0 = time.perf_counter()
    for t in sample:
        nash_equilibria(banque_game(), t)
    per_point = (time.perf_counter() - t0) / len(sample)
    print(f"baccara, every Nash branch on (0.15, 5772/33847): {len(branches)} branches, {len(pieces)} intervals "
          f"(narrowest {narrowest:.2e}), exact ends, in {ours:.1f} s")
    print(f"reference (complete enumeration on a grid of {grid} points to see the narrowest interval): "
          f"{per_point:.2f} s a point, about {grid * per_point:.0f} s, and no exact ends")
    print(f"ratio reference / baccara: {grid * per_point / ours:,.0f}x")


if __name__ == "__main__":
    main()
