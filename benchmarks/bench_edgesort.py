"""Benchmark: edge sorting analyses of an 8-deck shoe, exactly, against a straightforward reference.

Times baccara's edge sorting (``baccara.punto.edgesort``: the conditioned exact
engine, one call per class pattern) on

1. a full two-class, four-card analysis (6, 7, 8, 9 against the rest; 16
   patterns; every built-in bet): goal under 1 s;
2. ``best_sorting`` over all 511 two-class sortings of the values, one card
   read: goal under 10 s;

and in the same run a straightforward pure-Python reference: for each
pattern, the enumerator of ordered card sequences by rank
(``baccara.punto.reference.reference_counts``, restricted to the sequences that show
the pattern) prices every bet from its counts.  The reference runs the whole
four-card analysis once and a few sortings of the search (its time for all
511 is extrapolated).  Both must give the same exact probabilities, EVs and
advantages.  Caches of the engine's labellings are cleared before each timed
run, so every run pays for its own set-up.

    .venv/bin/python benchmarks/bench_edgesort.py [--repeat 5] [--reference-sortings 3]
"""

from __future__ import annotations

import argparse
import statistics
import time
from fractions import Fraction

from bench_exact import _payout

from baccara import Shoe, builtin_bets, evaluate
from baccara.punto import exact as exact_module
from baccara.punto.edgesort import _advantage, best_sorting, edge_sort, sortings
from baccara.punto.known import Known, labelling, rank_names
from baccara.punto.reference import reference_counts

ALL = frozenset(range(13))


def reference_edge_sort(shoe: Shoe, sorted_ranks: frozenset[int], cards: int, bets) -> list[tuple[str, Fraction, dict]]:
    """(pattern, probability, bet -> EV) for every pattern, from the reference enumerator."""
    out = []
    total = shoe.deals()
    for i in range(2**cards):
        letters = "".join("O" if (i >> (cards - 1 - j)) & 1 else "S" for j in range(cards))
        known = Known(tuple(sorted_ranks if c == "S" else ALL - sorted_ranks for c in letters) + (None,) * (6 - cards))
        counts, _ = reference_counts(shoe, known=known)
        deals = sum(counts.values())
        evs = {name: sum((w * _payout(bet, *cell) for cell, w in counts.items()), Fraction(0)) / deals
               for name, bet in bets.items()} if deals else {}
        out.append((letters, Fraction(deals, total), evs))
    return out


def reference_advantage(patterns, among) -> Fraction:
    return sum((p * max(Fraction(0), *(evs[n] for n in among)) for _, p, evs in patterns if evs), Fraction(0))


def cold() -> None:
    """Forget the engine's per-condition set-up (labels, pair tables), so a timed run pays for it."""
    labelling.cache_clear()
    exact_module._label_pairs.cache_clear()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5, help="timed runs of each of ours (default 5)")
    ap.add_argument("--reference-sortings", type=int, default=3, help="sortings the reference runs (default 3)")
    args = ap.parse_args()

    shoe, bets = Shoe.decks(8), builtin_bets()
    evaluate(shoe, bets, known="1=9")  # compile (or load the cached compilation) and build the bet tables
    good = frozenset(r for r in range(13) if 5 <= r <= 8)  # ranks 6, 7, 8, 9

    # 1. the full four-card analysis
    times = []
    for _ in range(args.repeat):
        cold()
        t0 = time.perf_counter()
        ours = edge_sort(shoe, "6,7,8,9", 4, bets)
        times.append(time.perf_counter() - t0)
    t0 = time.perf_counter()
    ref = reference_edge_sort(shoe, good, 4, bets)
    t_ref4 = time.perf_counter() - t0
    for g, (letters, p, evs) in zip(ours.patterns, ref):
        assert g.pattern == letters and g.probability == p
        assert {n: r.ev for n, r in (g.results or {}).items()} == evs, f"pattern {letters}: EVs disagree"
    assert reference_advantage(ref, list(bets)) == ours.advantage
    t4 = statistics.median(times)

    # 2. the search over every value sorting, one card
    times = []
    for _ in range(max(1, args.repeat // 2)):
        cold()
        t0 = time.perf_counter()
        search = best_sorting(shoe, 1, "value", bets)
        times.append(time.perf_counter() - t0)
    t_best = statistics.median(times)
    by_sorting = {s: a for s, a, _ in search.ranking}
    ref_times = []
    for s in sortings("value")[: args.reference_sortings]:
        t0 = time.perf_counter()
        pats = reference_edge_sort(shoe, s, 1, bets)
        ref_times.append(time.perf_counter() - t0)
        assert reference_advantage(pats, list(bets)) == by_sorting[s], f"sorting {rank_names(s)} disagrees"
    t_ref_best = statistics.median(ref_times) * len(search.ranking)
    assert _advantage(search.best.patterns, search.best.among)[0] == search.ranking[0][1]

    print(f"shoe: 8 decks; bets: {len(bets)} built-in; exact probabilities, EVs and advantages")
    print(f"four-card analysis of 6,7,8,9 | rest (16 patterns): baccara median {t4 * 1e3:8.1f} ms "
          f"(of {args.repeat}, cold caches); reference {t_ref4:7.2f} s; ratio {t_ref4 / t4:,.0f}x; "
          f"goal under 1 s: {'met' if t4 < 1 else 'NOT met'}")
    print(f"   advantage per coup {float(ours.advantage) * 100:.4f}%, Player or Banker "
          f"{float(ours.player_or_banker) * 100:.4f}%; agreement: all 16 patterns identical")
    print(f"best of {len(search.ranking)} value sortings, one card: baccara median {t_best:6.2f} s; reference "
          f"{statistics.median(ref_times):.2f} s a sorting ({len(ref_times)} run), {t_ref_best / 60:,.1f} min for all "
          f"(extrapolated); ratio {t_ref_best / t_best:,.0f}x; goal under 10 s: {'met' if t_best < 10 else 'NOT met'}")
    print(f"   best: {', '.join(rank_names(search.ranking[0][0]))} | rest, "
          f"{float(search.ranking[0][1]) * 100:.4f}% per coup; agreement on the {len(ref_times)} reference sortings")


if __name__ == "__main__":
    main()
