"""Time the banque checker's recomputation of the events against the prover's, over a few ranges.

The checker (:func:`baccara.check.banque_events.recompute_events`: flint's multivariate
resultants, roots isolated in exact rationals by Descartes' rule and bisection, plain Python
samples) finds every theta where a candidate equilibrium starts or stops, by itself.  The
reference is the prover (:func:`baccara.banque.nash_eq.proof.nash_proof`: hand-written
resultants, arb root isolation) over the same range.  Both find events; the checker's must all be
the prover's.  The ratio is printed.

Run: ``python benchmarks/bench_banque_events.py 23/250:47/500 9/100:19/200 49/100:1/2``
(CPU seconds, one process).
"""

from __future__ import annotations

import sys
import time
from fractions import Fraction

from baccara.banque.nash_eq.proof import nash_proof
from baccara.check.banque import _Game
from baccara.check.banque_deals import coefficient_table
from baccara.check.banque_events import recompute_events, same_root
from baccara.solve.roots import exact_bounds, precision


def main(ranges: list[tuple[Fraction, Fraction]]) -> None:
    game = _Game(coefficient_table())
    for lo, hi in ranges:
        t = time.process_time()
        mine = recompute_events(game, lo, hi)
        mine_s = time.process_time() - t
        t = time.process_time()
        proof = nash_proof(lo, hi)
        theirs_s = time.process_time() - t
        with precision():
            theirs = [(e.minimal_polynomial, *exact_bounds(e.ball)) for e in proof.events]
        met = all(any(same_root(r, f, Fraction(a), Fraction(b)) for f, a, b in theirs) for r, _ in mine.events)
        print(f"({lo}, {hi}): checker {mine_s:.1f} CPU s ({len(mine.events)} changes, "
              f"{'all at the prover' + chr(39) + 's events' if met and not mine.trouble else 'NOT all at its events'}), "
              f"prover {theirs_s:.1f} CPU s ({len(proof.events)} events): ratio {mine_s / theirs_s:.1f}x")


if __name__ == "__main__":
    args = sys.argv[1:] or ["23/250:47/500", "9/100:19/200", "49/100:1/2"]
    main([(Fraction(a.split(":")[0]), Fraction(a.split(":")[1])) for a in args])
