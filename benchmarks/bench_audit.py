"""Benchmark: the audit's speed on a night's log, and what its verdicts are worth on 1,000 players of each kind.

1. **Speed.**  A night of one table (10 shoes of 8 decks, 7 players: two blind, one flat, a
   Dragon 7 count, a perfect Dragon 7 counter, an edge sorter and one who bets only on sorted
   cards), audited as ``baccara audit`` does it: without ``first_class`` (8 candidate
   sortings, every coup priced given each first card) and with it.  Goal: seconds.  In the
   same run the reference: every bet priced on its own, ``evaluate`` on the composition for
   each bet and each player (no sharing across players), to show what pricing each coup once
   saves.
2. **Must hold.**  ``--players`` (default 1,000) of each kind, 10 shoes each: blind and flat
   bettors at tables whose first cards' classes are logged and at tables where they are not
   (8 candidate sortings), flagged at most 1% of the time; an edge sorter of 6, 7, 8, 9
   betting Player when the first card is sorted, flagged "edge sorting" at least 99% of the
   time.
3. **Power.**  A Dragon 7 counter (the shipped count ``examples/counts/dragon7.toml``) and the
   perfect Dragon 7 counter, ``--power-players`` (default 200) each, flagged against the number
   of shoes watched.

With ``--write-docs`` the measurements are written to ``docs/data/audit_power.json``, which
the guide's audit page shows, labelled as measured.

    .venv/bin/python benchmarks/bench_audit.py [--players 1000] [--power-players 200] [--write-docs]
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from datetime import UTC, datetime
from pathlib import Path

from baccara import Shoe, builtin_bets, evaluate
from baccara.audit import audit, evs, parse_seat, simulate_logs
from baccara.audit.power import flag_rates
from baccara.punto.known import Known, parse_ranks

NIGHT = ["blind", "blind", "flat", "count:examples/counts/dragon7.toml", "perfect:dragon7", "edge:6,7,8,9",
         "edge_only:6,7,8,9"]
DOCS = Path(__file__).resolve().parent.parent / "docs" / "data" / "audit_power.json"


def night(classes: bool) -> tuple[float, float, int]:
    """(seconds for the audit, seconds for the reference, bets) of one night's log."""
    seats = [parse_seat(s, f"seat{i}") for i, s in enumerate(NIGHT)]
    hands, bets = simulate_logs(seats, 10, seed=2026)
    if not classes:
        hands = type(hands)(hands.source, hands.decks, tuple(
            type(s)(s.shoe, s.burn, tuple(type(c)(c.number, c.cards, None, c.line) for c in s.coups))
            for s in hands.shoes), False)
    evs._first_card_prices.cache_clear()  # every run pays for its own pricing
    evs._class_prices.cache_clear()
    t = time.perf_counter()
    result = audit(hands, bets)
    ours = time.perf_counter() - t
    # the reference: each bet priced on its own, given the cards left and given its first card's class under
    # each sorting tested, nothing shared between bets, players or sortings
    sets = [parse_ranks(h.key.split(":", 1)[1]) for h in result.hypotheses
            if h.key.startswith("edge_sorting:") and h.key != "edge_sorting:logged"]
    if result.logged_sorting is not None:
        sets.append(result.logged_sorting)
    t = time.perf_counter()
    defs = builtin_bets()
    for b in bets.bets:
        shoe = next(s for s in hands.shoes if s.shoe == b.shoe)
        left = [hands.decks * 4] * 13
        if shoe.burn:
            left[shoe.burn[0] // 4] -= 1
        for c in shoe.coups[: b.coup - 1]:
            for x in c.cards:
                left[x // 4] -= 1
        composition = Shoe.from_ranks(left)
        evaluate(composition, [defs[b.bet]])
        first = shoe.coups[b.coup - 1].cards[0] // 4
        for s in sets:
            cls = s if first in s else frozenset(range(13)) - s
            evaluate(composition, [defs[b.bet]], known=Known((cls,) + (None,) * 5))
    ref = time.perf_counter() - t
    return ours, ref, len(bets.bets)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, default=1000)
    ap.add_argument("--power-players", type=int, default=200)
    ap.add_argument("--power-shoes", default="1,2,3,5,10")
    ap.add_argument("--sorter-shoes", type=int, default=2, help="shoes per edge sorter (flagged within 2 shoes is "
                                                                   "flagged within 10)")
    ap.add_argument("--parts", default="night,must,power", help="which parts to run, comma-separated")
    ap.add_argument("--write-docs", action="store_true")
    args = ap.parse_args()
    parts = set(args.parts.split(","))
    out: dict = {"measured": datetime.now(UTC).strftime("%Y-%m-%d"), "machine": platform.machine(),
                 "note": "measured by benchmarks/bench_audit.py on a loaded shared machine"}
    if DOCS.exists():  # a part not run keeps its last measurement
        out = {**json.loads(DOCS.read_text()), **out}
    for classes in (False, True) if "night" in parts else ():
        ours, ref, n = night(classes)
        key = "night_with_first_class" if classes else "night_without_first_class"
        out[key] = {"seconds": ours, "reference_seconds": ref, "bets": n, "ratio": ref / ours}
        print(f"night of 10 shoes, 7 players, {n} bets, first_class {'logged' if classes else 'not logged'}: "
              f"audit {ours:.1f} s; reference pricing each bet on its own {ref:.1f} s ({ref / ours:.1f}x)")
    t = time.perf_counter()
    rows = []

    def keep(label: str, shoes: int, r) -> None:
        rows.append({"tables": label, "shoes": shoes, "seat": r.seat, "players": r.players, "verdicts": r.verdicts,
                     "flagged_rate": r.rate})
        print(f"{label:44} {r.seat:20} {r.players} players, {shoes} shoes: {r.verdicts} (flagged {r.rate:.2%})")

    if "must" in parts:
        # blind bettors draw their own bets: 100 share a table; 10 shoes each
        for label, cands in (("first_class logged", None), ("first_class not logged", 8)):
            specs = ["blind", "edge_only:6,7,8,9"] if cands is None else ["blind"]
            blind = flag_rates(specs, args.players, 10, per_table=100, seed=100, candidates=cands)[0]
            keep(f"{label}, 100 blind bettors a table", 10, blind)
        # flat bettors and edge sorters follow a rule: one of each to a table, so that each is a player of his own
        for r in flag_rates(["flat", "edge_only:6,7,8,9"], args.players, args.sorter_shoes, per_table=1, seed=10_000):
            keep("first_class logged, one of each a table", args.sorter_shoes, r)
        out["must_hold"] = {"alpha": 0.01, "rows": rows, "seconds": time.perf_counter() - t}
    t = time.perf_counter()
    power = []
    for n_shoes in (int(x) for x in args.power_shoes.split(",") if "power" in parts):
        for r in flag_rates(["count:examples/counts/dragon7.toml", "perfect:dragon7"], args.power_players, n_shoes,
                            per_table=1, seed=500_000, candidates=0):
            bonferroni = sum(p * 9 <= 0.01 for p in r.counting_p) / r.players
            power.append({"shoes": n_shoes, "seat": r.seat, "players": r.players, "verdicts": r.verdicts,
                          "flagged_rate": r.rate, "flagged_rate_9_hypotheses": bonferroni})
            print(f"power: {r.seat:38} {n_shoes:3} shoes: flagged {r.rate:.1%} of {r.players} by the counting test "
                  f"alone; {bonferroni:.1%} with 9 hypotheses (Bonferroni)")
    if power:
        out["power"] = power
        out["power_seconds"] = time.perf_counter() - t
    if args.write_docs:
        DOCS.parent.mkdir(parents=True, exist_ok=True)
        DOCS.write_text(json.dumps(out, indent=2) + "\n")
        print(f"written {DOCS}")


if __name__ == "__main__":
    main()
