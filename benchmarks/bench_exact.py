"""Benchmark: every built-in bet, exactly, for fresh and depleted 8-deck shoes.

Times baccara's engine (``baccara.evaluate``: the joint distribution of the
coup and every built-in bet's exact EV) on a fresh 8-deck shoe and on 1,000
random depleted 8-deck shoes (0-300 cards removed), and in the same run a
straightforward pure-Python enumerator of ordered card sequences with integer
weights (``baccara.punto.reference``) that prices the same bets.  Checks that both
give the same exact edges and prints the median time per shoe and the ratio.

    .venv/bin/python benchmarks/bench_exact.py [--shoes 1000] [--reference-shoes 3] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from fractions import Fraction

from baccara import Shoe, builtin_bets, evaluate
from baccara.punto.reference import reference_counts


def depleted_shoe(rng: random.Random, decks: int = 8, max_removed: int = 300) -> Shoe:
    """A d-deck shoe with a uniformly random number (0..max_removed) of random cards dealt."""
    cards = [t for t in range(52) for _ in range(decks)]
    rng.shuffle(cards)
    counts = [decks] * 52
    for t in cards[: rng.randint(0, max_removed)]:
        counts[t] -= 1
    return Shoe(tuple(counts), "suit")


def reference_edges(shoe: Shoe, bets) -> dict[str, Fraction]:
    """Every bet's edge from the reference enumerator, one outcome at a time."""
    counts, deals = reference_counts(shoe)
    edges = {}
    for name, bet in bets.items():
        total = Fraction(0)
        for (ppair, bpair, pt, pn, bt, bn), w in counts.items():
            total += w * _payout(bet, ppair, bpair, pt, pn, bt, bn)
        edges[name] = -total / deals
    return edges


def _payout(bet, ppair, bpair, pt, pn, bt, bn) -> Fraction:
    pnat, bnat = pn == 2 and pt >= 8, bn == 2 and bt >= 8
    event = {
        "winner": 0 if bt > pt else 1 if pt > bt else 2,
        "margin": abs(pt - bt),
        "player_total": pt, "banker_total": bt,
        "player_cards": pn, "banker_cards": bn, "total_cards": pn + bn,
        "player_natural": pnat, "banker_natural": bnat, "natural": pnat or bnat,
        "player_pair": ppair, "banker_pair": bpair, "any_pair": ppair or bpair,
    }
    for rule in bet.rules:
        if all(event[f] in allowed for f, allowed in rule.when):
            return rule.pays
    return bet.otherwise


def time_per_shoe(shoes, bets) -> list[float]:
    out = []
    for shoe in shoes:
        t0 = time.perf_counter()
        evaluate(shoe, bets)
        out.append(time.perf_counter() - t0)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shoes", type=int, default=1000, help="random depleted shoes to time (default 1000)")
    ap.add_argument("--reference-shoes", type=int, default=3, help="shoes to time the reference on (default 3)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    rng = random.Random(args.seed)
    bets = builtin_bets()
    fresh = Shoe.decks(8)
    evaluate(fresh, bets)  # compile (or load the cached compilation) and build the bet tables

    fresh_times = time_per_shoe([fresh] * 200, bets)
    shoes = [depleted_shoe(rng) for _ in range(args.shoes)]
    depleted_times = time_per_shoe(shoes, bets)

    ref_shoes = [fresh] + shoes[: max(0, args.reference_shoes - 1)]
    ref_times = []
    for shoe in ref_shoes:
        t0 = time.perf_counter()
        ref = reference_edges(shoe, bets)
        ref_times.append(time.perf_counter() - t0)
        ours = {n: r.edge for n, r in evaluate(shoe, bets).items()}
        assert ours == ref, "the engine and the reference disagree"

    med_fresh = statistics.median(fresh_times)
    med_depleted = statistics.median(depleted_times)
    med_ref = statistics.median(ref_times)
    print(f"bets: {len(bets)} built-in ({', '.join(bets)}), exact edges")
    print(f"baccara, fresh 8-deck shoe:              median {med_fresh * 1e3:8.3f} ms per shoe")
    print(f"baccara, {args.shoes} depleted 8-deck shoes:   median {med_depleted * 1e3:8.3f} ms per shoe "
          f"(p90 {statistics.quantiles(depleted_times, n=10)[-1] * 1e3:.3f} ms)")
    print(f"reference enumerator ({len(ref_shoes)} shoes):        median {med_ref * 1e3:8.1f} ms per shoe")
    print(f"agreement: exact edges identical on all {len(ref_shoes)} reference shoes")
    print(f"ratio reference / baccara (depleted): {med_ref / med_depleted:,.0f}x")
    print(f"goal under 1 ms per shoe: {'met' if med_depleted < 1e-3 else 'NOT met'}")


if __name__ == "__main__":
    main()
