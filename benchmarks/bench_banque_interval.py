"""Time the independent lower value proved on a whole sweep interval against one sample's proof.

:func:`baccara.banque.independent_eq.interval.prove_interval` proves the lower value for
*every* theta of an interval of the theta-sweep.  The reference is the exact proof at one
rational theta inside it (:func:`baccara.banque.independent_eq.solution.solve_independent`: the
branch and bound closed exactly at the algebraic maximiser), which says nothing between samples.
The ratio is what proving the whole interval costs over proving one point of it.

The first interval, (0, 0.0172597...), is proved by the blow-up of
:mod:`baccara.banque.independent_eq.near_zero` (the plain prover never closes a theta-box
touching 0); it is timed the same way, against one sample in it.

Run: ``python benchmarks/bench_banque_interval.py`` (CPU seconds, one process; a short sweep
around each interval finds its exact ends first, not timed).
"""

from __future__ import annotations

import time

from baccara.banque.independent_eq.interval import prove_interval
from baccara.banque.independent_eq.solution import solve_independent
from baccara.banque.independent_eq.sweep import exact_ends, independent_sweep
from baccara.banque.independent_eq.sweep_proof import sample_theta
from baccara.banque.model import banque_game

#: (sweep range, grid, interval index): a low-theta interval on (9,10,6) and p1 = 0, the one
#: whose curves coincide at theta = 1/22, one beside 55716/128711, one at the lower value's peak
CASES = [((0.0240, 0.0247), 8, 1), ((0.0448, 0.0461), 8, 1), ((0.4325, 0.4335), 8, 1), ((0.4955, 0.4963), 8, 2)]


def first_interval() -> None:
    """(0, 0.0172597...): the blow-up on (0, 1/70), the plain prover on (1/70, 0.0172597...)."""
    from baccara.banque.independent_eq.near_zero import prove_first_interval

    sw = independent_sweep(0.005, 0.02, grid=30)
    hi, iv = exact_ends(sw)[0].endpoint, sw.intervals[0]
    t = time.process_time()
    proof = prove_first_interval(hi, iv.signature)
    whole = time.process_time() - t
    t = time.process_time()
    one = solve_independent(banque_game(), sample_theta(0.0, float(hi)))
    point = time.process_time() - t
    print(f"(0, {float(hi):.6f}) {proof.form}: interval {proof.status} in {whole:.1f} CPU s "
          f"({proof.candidates} candidate boxes, {proof.exact} exact); one sample ({one.lower_value_proved}) "
          f"{point:.1f} CPU s: ratio {whole / point:.1f}x")


def main() -> None:
    solve_independent(banque_game(), sample_theta(0.25, 0.26))         # warm the caches outside the timing
    first_interval()
    for (a, b), grid, k in CASES:
        sw = independent_sweep(a, b, grid=grid)
        ends = exact_ends(sw)
        lo, hi, iv = ends[k - 1].endpoint, ends[k].endpoint, sw.intervals[k]
        t = time.process_time()
        proof = prove_interval(lo, hi, iv.signature)
        whole = time.process_time() - t
        t = time.process_time()
        one = solve_independent(banque_game(), sample_theta(iv.lo, iv.hi))
        point = time.process_time() - t
        print(f"({float(lo):.6f}, {float(hi):.6f}) {proof.form}: interval {proof.status} in {whole:.1f} CPU s "
              f"({proof.candidates} candidate boxes, {proof.exact} exact); one sample ({one.lower_value_proved}) "
              f"{point:.1f} CPU s: ratio {whole / point:.1f}x")


if __name__ == "__main__":
    main()
