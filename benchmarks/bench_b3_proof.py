"""Time the Model B3 proof (prove + check) for a few d; extrapolate to d = 1..100.

Run: ``python benchmarks/bench_b3_proof.py 1 6 8``.
"""

from __future__ import annotations

import json
import sys
import time

from baccara.check import check
from baccara.games.chemin.proof import prove_chemin3


def main(decks: list[int]) -> None:
    for d in decks:
        t = time.process_time()
        doc = json.loads(json.dumps(prove_chemin3(d).to_json()))
        prove_s = time.process_time() - t
        t = time.process_time()
        holds = check(doc).holds
        check_s = time.process_time() - t
        print(f"d={d}: prove {prove_s:.1f} CPU s, check {check_s:.1f} CPU s, nodes {doc['stats']['nodes']}, holds {holds}")


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [1, 6, 8])
