"""Benchmark: the independent cooperative equilibrium's lower value, proved (Ethier and Lee 2015, section 4).

baccara: :func:`~baccara.banque.independent_eq.proof.prove_lower_value`
proves max V = the lower value exactly (a local certificate around the
maximiser, the branch and bound elsewhere with no margin, every box rechecked
exactly).  Reference, in the same run: the branch and bound it replaces,
:func:`~baccara.banque.independent_eq.bounds.maximin_upper_bound`, which proves
only value + 1e-10 (also rechecked exactly).  Both take the candidate search's
(p1, p2) and value, computed once outside the timings.  Prints the median of
``--repeat`` runs of each and the ratio.

    .venv/bin/python benchmarks/bench_independent.py [--theta 1/2] [--repeat 5]
"""

from __future__ import annotations

import argparse
import statistics
import time
from fractions import Fraction

from baccara.banque.independent_eq.bounds import maximin_upper_bound
from baccara.banque.independent_eq.proof import prove_lower_value
from baccara.banque.independent_eq.solution import independent_equilibrium
from baccara.banque.model import banque_game


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--theta", default="1/2")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    theta = Fraction(args.theta)
    g = banque_game()
    ind = independent_equilibrium(g, theta)
    exact, margin = [], []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        proof = prove_lower_value(theta, ind.lower_value, (ind.p1, ind.p2), ind.ties, game=g)
        exact.append(time.perf_counter() - t0)
        assert proof.holds
        t0 = time.perf_counter()
        bound = maximin_upper_bound(theta, ind.lower_value, game=g)
        margin.append(time.perf_counter() - t0)
        assert bound.holds and bound.exact
    e, m = statistics.median(exact), statistics.median(margin)
    print(f"theta = {theta}: lower value {ind.lower_value} = {float(ind.lower_value):.12f}")
    print(f"baccara, exact proof (no margin): {e * 1e3:.0f} ms median of {args.repeat} "
          f"({proof.boxes} boxes outside a rectangle of side 3/2^{proof.local[0].level})")
    print(f"reference, branch and bound to within 1e-10: {m * 1e3:.0f} ms median of {args.repeat} ({bound.boxes} boxes)")
    print(f"ratio exact / reference: {e / m:.2f}x")


if __name__ == "__main__":
    main()
