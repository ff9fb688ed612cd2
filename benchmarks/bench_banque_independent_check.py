"""Time the checker of the independent lower value against the prover that writes the artefact.

The prover (:func:`baccara.banque.independent_eq.artefact.prove`: the candidate search, the
local certificates, the branch and bound in floats with every box rechecked exactly) writes one
artefact per theta; the checker (:mod:`baccara.check.banque_independent`: plain Python, exact
corners, the quadtree walk) re-verifies it from its own count of the deals (counted once, timed
apart).  The ratio checker / prover is printed per theta.

Run: ``python benchmarks/bench_banque_independent_check.py 1/2 37/400 1/1000 5772/33847``
(CPU seconds, one process).
"""

from __future__ import annotations

import json
import sys
import time
from fractions import Fraction

from baccara.banque.independent_eq.artefact import prove
from baccara.check import check
from baccara.check.banque_deals import coefficient_table


def main(thetas: list[Fraction]) -> None:
    t = time.process_time()
    coefficient_table()
    print(f"the checker's count of the deals: {time.process_time() - t:.1f} CPU s (once)")
    for th in thetas:
        t = time.process_time()
        doc = json.loads(json.dumps(prove([th]).to_json()))
        prover = time.process_time() - t
        t = time.process_time()
        rep = check(doc)
        checker = time.process_time() - t
        boxes = len(doc["proofs"][0]["boxes"])
        print(f"theta = {th}: prover {prover:.2f} CPU s, checker {checker:.2f} CPU s "
              f"({boxes} boxes, {'holds' if rep.holds else 'FAILS'}): ratio {checker / prover:.2f}x")


if __name__ == "__main__":
    main([Fraction(a) for a in (sys.argv[1:] or ["1/2", "37/400", "1/1000", "5772/33847"])])
