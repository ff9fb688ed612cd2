"""A straightforward reference enumerator, independent of the fast engine.

It walks every ordered sequence of card values a coup can deal (Player's two
cards, Banker's two, then the third cards the tableau calls for) with the
integer weight of each sequence (the product of the counts left as each card
is dealt), in plain Python.  It is what a typical project writes; baccara
keeps it as a test oracle and as the baseline of ``benchmarks/``.
"""

from __future__ import annotations

from collections import defaultdict
from math import perm

from .rules import PUNTO_BANCO, Tableau


def reference_counts(
    value_counts: tuple[int, ...] | list[int],
    tableau: Tableau = PUNTO_BANCO,
    replacement: bool = False,
) -> tuple[dict[tuple[int, int, int, int], int], int]:
    """Ordered-deal counts by (Player total, Player cards, Banker total, Banker cards).

    Returns the counts and their common denominator ((N)_6, or N^6 with
    replacement); a coup that ends early is weighted by every way of dealing
    the remaining of the six cards.
    """
    counts = list(value_counts)
    n = sum(counts)
    out: dict[tuple[int, int, int, int], int] = defaultdict(int)

    def take(v: int) -> int:
        w = counts[v]
        if not replacement:
            counts[v] -= 1
        return w

    def give(v: int) -> None:
        if not replacement:
            counts[v] += 1

    def rest(used: int) -> int:
        """Ways to deal the unused cards of the six."""
        left = n if replacement else n - used
        return left ** (6 - used) if replacement else perm(left, 6 - used)

    for p1 in range(10):
        w1 = take(p1)
        for p2 in range(10):
            w2 = take(p2)
            for b1 in range(10):
                w3 = take(b1)
                for b2 in range(10):
                    w4 = take(b2)
                    w = w1 * w2 * w3 * w4
                    if w:
                        _continue(out, counts, tableau, take, give, rest, w, (p1 + p2) % 10, (b1 + b2) % 10)
                    give(b2)
                give(b1)
            give(p2)
        give(p1)
    return dict(out), (n**6 if replacement else perm(n, 6))


def _continue(out, counts, tableau, take, give, rest, w, pt, bt) -> None:
    if pt >= 8 or bt >= 8:
        out[(pt, 2, bt, 2)] += w * rest(4)
        return
    if not tableau.player_draws[pt]:
        if tableau.banker_draws_on(bt, None):
            for f in range(10):
                wf = take(f)
                if wf:
                    out[(pt, 2, (bt + f) % 10, 3)] += w * wf * rest(5)
                give(f)
        else:
            out[(pt, 2, bt, 2)] += w * rest(4)
        return
    for e in range(10):
        we = take(e)
        if we:
            if tableau.banker_draws_on(bt, e):
                for f in range(10):
                    wf = take(f)
                    if wf:
                        out[((pt + e) % 10, 3, (bt + f) % 10, 3)] += w * we * wf
                    give(f)
            else:
                out[((pt + e) % 10, 3, bt, 2)] += w * we * rest(5)
        give(e)
