"""Benchmark: chemin de fer's alpha sweep (Ethier and Lee 2023) per d, and Table 4 for d = 1..100.

baccara: exact integer coefficients (numba kernel for d <= 7, a degree-6
polynomial in d beyond), then the exact sweep (curves, intersections, cases,
equilibria, exceptional alphas).  Reference, in the same run: a direct
implementation with Python fractions (every deal's probability a Fraction,
Banker's gains summed per information set, curves and their crossings from
those), for a few d; it must find the same curves, intersections and partial
curves.  Prints the times and the ratio.

    .venv/bin/python benchmarks/bench_chemin.py
"""

from __future__ import annotations

import statistics
import time
from fractions import Fraction
from math import isqrt

from baccara.chemin import model as chemin
from baccara.chemin.model import chemin_game
from baccara.chemin.solution import sweep_chemin, table4


def reference_coefficients(d: int) -> dict[tuple, list[Fraction]]:
    """Banker's gains g_i^u = (G, H) per information set, by direct enumeration with Fractions."""
    counts = [16 * d] + [4 * d] * 9
    n = sum(counts)
    out: dict[tuple, list[Fraction]] = {}

    def sgn(x):
        return (x > 0) - (x < 0)

    for u in (0, 1):
        for a in range(10):
            for b in range(10):
                for c in range(10):
                    for dd in range(10):
                        left = counts[:]
                        prob = Fraction(1)
                        for v in (a, b, c, dd):
                            prob *= Fraction(left[v], n - (sum(counts) - sum(left)))
                            left[v] -= 1
                        if prob == 0:
                            continue
                        pt, bt = (a + b) % 10, (c + dd) % 10
                        if pt >= 8 or bt >= 8:
                            continue
                        key_hand = (min(c, dd), max(c, dd))
                        draws = pt <= 4 or (pt == 5 and u == 1)
                        thirds = range(10) if draws else [None]
                        for e in thirds:
                            pe, left2 = prob, left[:]
                            if e is not None:
                                pe = prob * Fraction(left2[e], n - 4)
                                left2[e] -= 1
                                if pe == 0:
                                    continue
                            pf = (pt + e) % 10 if e is not None else pt
                            zs = bt - pf
                            used = 4 if e is None else 5
                            for f in range(10):
                                w = pe * Fraction(left2[f], n - used)
                                if w == 0:
                                    continue
                                zf = (bt + f) % 10 - pf
                                key = (key_hand, 10 if e is None else e)
                                acc = out.setdefault(key, [Fraction(0)] * 4)
                                acc[u] += w * (sgn(zf) - sgn(zs))
                                acc[2 + u] += w * ((zf > 0) - (zs > 0))
    return out


def reference_counts(d: int) -> tuple[int, int, int]:
    """(a) curves, (b) intersections, (c) partial curves in (0, 1/10), directly."""
    coef = reference_coefficients(d)
    lo, hi = Fraction(0), Fraction(1, 10)
    curves = {}
    for key, (g0, g1, h0, h1) in coef.items():
        def gains(x, g0=g0, g1=g1, h0=h0, h1=h1):
            return g0 - x * h0, g1 - x * h1
        cuts = sorted({lo, hi} | {g / h for g, h in ((g0, h0), (g1, h1)) if h != 0 and lo < g / h < hi})
        mids = [(x + y) / 2 for x, y in zip(cuts, cuts[1:])]
        inside = [x for x in mids if gains(x)[0] * gains(x)[1] < 0]
        if inside:
            curves[key] = (gains, len(inside) < len(mids))
    keys = list(curves)
    crossings = 0
    for i in range(len(keys)):
        for j in range(i + 1, len(keys)):
            (c0i, c1i, e0i, e1i) = coef[keys[i]]
            (c0j, c1j, e0j, e1j) = coef[keys[j]]
            k0 = c0i * c1j - c0j * c1i
            k1 = -(c0i * e1j + e0i * c1j) + (c0j * e1i + e0j * c1i)
            k2 = e0i * e1j - e0j * e1i
            roots = []
            if k2 != 0:
                disc = k1 * k1 - 4 * k2 * k0
                if disc >= 0:
                    s = Fraction(isqrt(disc.numerator * disc.denominator * 10**40), disc.denominator * 10**20)
                    roots = [(-k1 - s) / (2 * k2), (-k1 + s) / (2 * k2)]
            elif k1 != 0:
                roots = [-k0 / k1]
            for r in roots:
                if lo < r < hi and all(curves[k][0](r)[0] * curves[k][0](r)[1] < 0 for k in (keys[i], keys[j])):
                    crossings += 1
    return len(curves), crossings, sum(1 for _, partial in curves.values() if partial)


def clear_caches() -> None:
    chemin._chemin_game.cache_clear()
    chemin._raw_coefficients.cache_clear()
    chemin._forward_differences.cache_clear()


def main() -> None:
    sweep_chemin(chemin_game("B2", 6))  # compile the kernel (or load it from the cache)
    ds = [1, 6, 8, 50, 100]
    ours = {}
    for d in ds:
        clear_caches()
        times = []
        for _ in range(3):
            chemin._chemin_game.cache_clear()
            t0 = time.perf_counter()
            sw = sweep_chemin(chemin_game("B2", d))
            times.append(time.perf_counter() - t0)
        ours[d] = (statistics.median(times), sw.result.counts())
        print(f"baccara sweep, d = {d:3d}: {ours[d][0] * 1e3:7.1f} ms  (a, b, c, d, e) = {ours[d][1]}")
    clear_caches()
    t0 = time.perf_counter()
    rows = table4(range(1, 101))
    t4 = time.perf_counter() - t0
    print(f"baccara Table 4, d = 1..100 (cold caches): {t4:.1f} s for {len(rows)} rows")
    ref_times = []
    for d in (1, 6):
        t0 = time.perf_counter()
        counts = reference_counts(d)
        ref_times.append(time.perf_counter() - t0)
        assert counts == ours[d][1][:3], (d, counts, ours[d][1])
        print(f"reference (Python fractions), d = {d}: {ref_times[-1]:.2f} s, (a, b, c) = {counts} (agrees)")
    ratio = statistics.median(ref_times) / statistics.median([ours[d][0] for d in (1, 6)])
    print(f"ratio reference / baccara per d: {ratio:,.0f}x")
    print(f"goals: sweep < 0.2 s per d: {'met' if max(t for t, _ in ours.values()) < 0.2 else 'NOT met'}; "
          f"Table 4 < 30 s: {'met' if t4 < 30 else 'NOT met'}")


if __name__ == "__main__":
    main()
