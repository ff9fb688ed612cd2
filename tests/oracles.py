"""The punto banco oracle shared by the engine's tests: every ordered six-card deal, played card by card."""

from collections import defaultdict
from itertools import product

import numpy as np

from baccara import PUNTO_BANCO, Shoe
from baccara.cards import RANK_VALUE
from baccara.punto.exact import coup_counts
from baccara.punto.known import Known


def brute_force_cells(shoe: Shoe, known: Known | None = None, tableau=PUNTO_BANCO) -> dict[tuple, int]:
    """Every ordered six-card sequence of card types in deal order (Player, Banker, Player, Banker,
    fifth, sixth), kept when each known position holds an allowed rank, played by the tableau.

    Independent of the engine: a coup is played card by card, each sequence
    weighted by the counts left as it is dealt.
    """
    types = [t for t, c in enumerate(shoe.counts) if c > 0]
    values, ranks = shoe.type_values(), shoe.type_ranks()

    def allowed(pos: int, t: int) -> bool:
        s = known.ranks[pos] if known is not None else None
        if s is None:
            return True
        if shoe.resolution == "value":  # a value shoe: the set holds whole values
            return any(RANK_VALUE[r] == values[t] for r in s)
        return int(ranks[t]) in s

    out: dict[tuple, int] = defaultdict(int)
    for seq in product(types, repeat=6):
        if not all(allowed(i, t) for i, t in enumerate(seq)):
            continue
        left = list(shoe.counts)
        w = 1
        for t in seq:
            w *= left[t]
            if not shoe.replacement:
                left[t] -= 1
        if w == 0:
            continue
        p, b = [seq[0], seq[2]], [seq[1], seq[3]]
        nxt = 4
        pt = (values[p[0]] + values[p[1]]) % 10
        bt = (values[b[0]] + values[b[1]]) % 10
        if pt < 8 and bt < 8:
            third = None
            if tableau.player_draws[pt]:
                p.append(seq[nxt])
                third = int(values[seq[nxt]])
                nxt += 1
            if tableau.banker_draws_on(bt, third):
                b.append(seq[nxt])

        def cls(h):
            if h[0] == h[1]:
                return 2
            return 1 if ranks[h[0]] >= 0 and ranks[h[0]] == ranks[h[1]] else 0

        cell = (cls(p), cls(b), int(sum(values[x] for x in p) % 10), len(p) - 2, int(sum(values[x] for x in b) % 10),
                len(b) - 2)
        out[cell] += w
    return dict(out)


def engine_cells(shoe: Shoe, known: Known | None = None, tableau=PUNTO_BANCO) -> dict[tuple, int]:
    c = coup_counts(shoe, tableau, known)
    return {tuple(int(i) for i in idx): int(c[idx]) for idx in zip(*np.nonzero(c))}
