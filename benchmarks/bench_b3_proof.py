"""Time the Model B3 proof over alpha in [0, 1/10] (prove + check) for a few d.

The reference is what a user without the proof would run: every equilibrium at one commission
(``chemin.solve("B3", d, 1/20)``, the exact enumeration), which settles one alpha only; the ratio
says how many single-alpha enumerations one whole-range proof costs.

Run: ``python benchmarks/bench_b3_proof.py 1 8 39 100`` (CPU seconds, one process).  For d = 1..100
at once on two processes: ``baccara chemin prove --decks 1-100 --workers 2 --out DIR --json``
(its ``wall_s`` and each row's ``cpu_s``).
"""

from __future__ import annotations

import json
import sys
import time

from baccara import chemin
from baccara.check import check
from baccara.chemin.proof import prove_chemin3


def main(decks: list[int]) -> None:
    for d in decks:
        t = time.process_time()
        doc = json.loads(json.dumps(prove_chemin3(d).to_json()))
        prove_s = time.process_time() - t
        t = time.process_time()
        holds = check(doc).holds
        check_s = time.process_time() - t
        t = time.process_time()
        chemin.solve("B3", d, "1/20")
        one_s = time.process_time() - t
        stats = doc["stats"]
        print(f"d={d}: prove {prove_s:.1f} CPU s ({stats['nodes']} nodes, {stats.get('cases', 0)} excluded by "
              f"cases), check {check_s:.1f} CPU s, holds {holds}; one alpha enumerated {one_s:.1f} CPU s: "
              f"the proof of every alpha costs {prove_s / one_s:.1f} of them")


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [1, 8, 39])
