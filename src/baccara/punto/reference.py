"""A straightforward reference enumerator, independent of the fast engine.

It walks every ordered sequence of cards, by rank, that a coup can deal (Player's two
cards, Banker's two, then the third cards the tableau calls for) with the
integer weight of each sequence (the product of the counts left as each card
is dealt), in plain Python.  It is what a typical project writes; baccara
keeps it as a test oracle and as the baseline of ``benchmarks/``.  As an oracle
it stands apart from the code it checks: the ranks' values, the counting of a
shoe's cards by rank and the reading of the tableau's table are its own; of a
:class:`~baccara.shoe.Shoe` it reads only the data (counts by type, their
resolution, replacement).
"""

from __future__ import annotations

from collections import defaultdict
from math import perm

from ..rules import PUNTO_BANCO, Tableau
from ..shoe import Shoe
from .known import Known

#: The value of each rank, A 2 ... 9 10 J Q K (rank 0 is the ace).
_VALUE = (1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0)


def _by_rank(shoe: Shoe) -> list[int]:
    """The shoe's counts by rank: a shoe by suit holds the four suits of each rank in turn."""
    if shoe.resolution == "suit":
        return [sum(shoe.counts[4 * r:4 * r + 4]) for r in range(13)]
    return list(shoe.counts)


def reference_counts(
    shoe: Shoe,
    tableau: Tableau = PUNTO_BANCO,
    known: Known | None = None,
) -> tuple[dict[tuple[bool, bool, int, int, int, int], int], int]:
    """Ordered-deal counts by (Player pair, Banker pair, Player total, Player cards,
    Banker total, Banker cards), enumerating cards by rank (by value for a shoe
    known only by value, where the pair flags are then meaningless).

    Returns the counts and their common denominator ((N)_6, or N^6 with
    replacement); a coup that ends early is weighted by every way of dealing
    the remaining of the six cards.  With ``known`` (positions 1-4 only: the
    first four cards, dealt Player, Banker, Player, Banker), only the card
    sequences that agree are enumerated; the denominator stays the same.
    """
    if shoe.resolution == "value":
        kinds = [(v, v) for v in range(10)]
        counts = list(shoe.counts)
    else:
        kinds = [(_VALUE[r], r) for r in range(13)]
        counts = _by_rank(shoe)
    replacement = shoe.replacement
    n = sum(counts)
    k = len(kinds)
    allowed = [list(range(k))] * 4
    if known is not None:
        if known.ranks[4] is not None or known.ranks[5] is not None:
            raise ValueError("the reference enumerator conditions on positions 1-4 only")
        for pos in known.positions:
            s = known.ranks[pos - 1] or frozenset()
            if shoe.resolution == "value":
                allowed[pos - 1] = [v for v in range(10) if any(_VALUE[r] == v for r in s)]
            else:
                allowed[pos - 1] = sorted(s)
    at1, at2, at3, at4 = allowed
    out: dict[tuple[bool, bool, int, int, int, int], int] = defaultdict(int)

    def take(i: int) -> int:
        w = counts[i]
        if not replacement:
            counts[i] -= 1
        return w

    def give(i: int) -> None:
        if not replacement:
            counts[i] += 1

    def rest(used: int) -> int:
        """Ways to deal the unused cards of the six."""
        return n ** (6 - used) if replacement else perm(n - used, 6 - used)

    for p1 in at1:
        w1 = take(p1)
        for p2 in at3:
            w2 = take(p2)
            for b1 in at2:
                w3 = take(b1)
                for b2 in at4:
                    w4 = take(b2)
                    w = w1 * w2 * w3 * w4
                    if w:
                        pt = (kinds[p1][0] + kinds[p2][0]) % 10
                        bt = (kinds[b1][0] + kinds[b2][0]) % 10
                        key = (p1 == p2, b1 == b2)
                        _continue(out, key, kinds, tableau, take, give, rest, w, pt, bt)
                    give(b2)
                give(b1)
            give(p2)
        give(p1)
    return dict(out), (n**6 if replacement else perm(n, 6))


def _continue(out, key, kinds, tableau, take, give, rest, w, pt, bt) -> None:
    k = len(kinds)
    if pt >= 8 or bt >= 8:
        out[key + (pt, 2, bt, 2)] += w * rest(4)
        return
    if not tableau.player_draws[pt]:
        if tableau.banker_draws[bt][10]:
            for f in range(k):
                wf = take(f)
                if wf:
                    out[key + (pt, 2, (bt + kinds[f][0]) % 10, 3)] += w * wf * rest(5)
                give(f)
        else:
            out[key + (pt, 2, bt, 2)] += w * rest(4)
        return
    for e in range(k):
        we = take(e)
        if we:
            ve = kinds[e][0]
            if tableau.banker_draws[bt][ve]:
                for f in range(k):
                    wf = take(f)
                    if wf:
                        out[key + ((pt + ve) % 10, 3, (bt + kinds[f][0]) % 10, 3)] += w * we * wf
                    give(f)
            else:
                out[key + ((pt + ve) % 10, 3, bt, 2)] += w * we * rest(5)
        give(e)
