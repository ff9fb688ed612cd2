"""Benchmark: the value-level exact engine against the engine by card type, on depleted 8-deck shoes.

Every built-in bet that depends only on card values (main bets, tie, EZ Baccarat,
Dragon 7, Panda 8, Super 6, Dragon Bonus) is priced exactly on random depleted
8-deck shoes (0-300 cards removed, as ``bench_exact.py`` draws them), four ways in
the same run:

1. today's engine by card type: the joint distribution of the coup over every cell
   (pairs included), then the bets (``evaluate_bets(coup_distribution(shoe), bets)``);
2. ``value_cell_counts``: the value-level kernel's exact counts, one shoe a call;
3. ``evaluate``: the same bets through the public call, which now takes the value
   kernel, Fractions and result objects included;
4. ``edges_for_shoes``: every shoe in one call, exact EV numerators (a perfect
   counter's question), in shoes a second.

Checks that every way gives the same exact expected values, then prints the median
microseconds per shoe (the batch: its total over the shoes), the ratios, and
whether the engine meets 20 microseconds a shoe.  ``--study-shoes`` also runs the
perfect counter (simulate punto --perfect) on value bets and projects a
million-shoe study on two cores.

    .venv/bin/python benchmarks/bench_value_engine.py [--shoes 2000] [--old-shoes 300] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import numpy as np
from bench_exact import depleted_shoe

from baccara import builtin_bets, evaluate
from baccara.punto.exact import coup_distribution, edges_for_shoes, evaluate_bets, value_cell_counts


def per_shoe(shoes, call) -> list[float]:
    """Seconds of ``call(shoe)`` for each shoe."""
    out = []
    for shoe in shoes:
        t0 = time.perf_counter()
        call(shoe)
        out.append(time.perf_counter() - t0)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shoes", type=int, default=2000, help="random depleted shoes for the value engine (default 2000)")
    ap.add_argument("--old-shoes", type=int, default=300, help="of them, for today's engine (default 300)")
    ap.add_argument("--study-shoes", type=int, default=0, help="shoes for the perfect counter (default 0: skip)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    rng = random.Random(args.seed)
    bets = {n: b for n, b in builtin_bets().items() if b.resolution == "value"}
    shoes = [depleted_shoe(rng) for _ in range(args.shoes)]
    rows = np.array([s.value_counts() for s in shoes], dtype=np.int64)
    old_shoes = shoes[: args.old_shoes]

    def old(shoe):
        return evaluate_bets(coup_distribution(shoe), bets.values())

    for warm in (old, lambda s: value_cell_counts(s), lambda s: evaluate(s, bets)):  # compile or load the kernels
        warm(shoes[0])
    edges_for_shoes(rows[:2], bets)

    old_times = per_shoe(old_shoes, old)
    kernel_times = per_shoe(shoes, value_cell_counts)
    evaluate_times = per_shoe(shoes, lambda s: evaluate(s, bets))
    batch = []
    for _ in range(3):
        t0 = time.perf_counter()
        edges = edges_for_shoes(rows, bets)
        batch.append((time.perf_counter() - t0) / len(shoes))
    batch_time = min(batch)

    for i, shoe in enumerate(shoes):
        ours = evaluate(shoe, bets)
        assert all(edges.fraction(i, n) == r.ev for n, r in ours.items()), "the batch and evaluate disagree"
        if i < len(old_shoes):
            ref = old(shoe)
            assert all(ours[n].counts == r.counts and ours[n].ev == r.ev for n, r in ref.items()), \
                "the value engine and the engine by card type disagree"

    us = 1e6
    med_old, med_kernel, med_eval = (statistics.median(t) for t in (old_times, kernel_times, evaluate_times))
    print(f"bets: {len(bets)} on card values ({', '.join(bets)}), exact")
    print(f"shoes: {args.shoes} random depleted 8-deck shoes (0-300 cards removed); today's engine on {len(old_shoes)}")
    print(f"today's engine by card type (every cell, then the bets): median {med_old * us:8.1f} us per shoe")
    print(f"value kernel, exact counts (value_cell_counts):          median {med_kernel * us:8.1f} us per shoe")
    print(f"evaluate(), Fractions and result objects included:        median {med_eval * us:8.1f} us per shoe")
    print(f"edges_for_shoes, {args.shoes} shoes in one call:              {batch_time * us:8.1f} us per shoe "
          f"({1 / batch_time:,.0f} shoes a second, one core)")
    print(f"agreement: exact values identical on all {len(old_shoes)} shoes (engines) and {args.shoes} (batch)")
    print(f"ratio today / value kernel: {med_old / med_kernel:.0f}x; today / evaluate(): {med_old / med_eval:.0f}x; "
          f"today / batch: {med_old / batch_time:.0f}x")
    engine = max(med_kernel, batch_time)
    print(f"goal at most 20 us per depleted 8-deck shoe (exact counts, and the batch's edges): "
          f"{'met' if engine <= 20e-6 else 'NOT met'} ({engine * us:.1f} us)")
    if args.study_shoes:
        from baccara.sim import PuntoJob, simulate_punto

        job = PuntoJob(seed=args.seed, shoes=args.study_shoes, bets=tuple(bets[n] for n in ("tie", "dragon7", "panda8")),
                       perfect=True, chunk_size=8)
        res = simulate_punto(job, workers=1)
        p = res.extra["perfect"]
        rate = p["evaluations_per_cpu_second"]
        minutes = 1e6 * p["evaluations"] / args.study_shoes / rate / 2 / 60
        print(f"perfect counter (tie, dragon7, panda8; every coup), one core: {p['evaluations']:,} evaluations, "
              f"{rate:,.0f} a second; a million 8-deck shoes on two cores: about {minutes:.0f} minutes")


if __name__ == "__main__":
    main()
