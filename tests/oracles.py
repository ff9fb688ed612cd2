"""The punto banco oracle shared by the engine's tests: every ordered six-card deal, played card by card.

It stands apart from the package: the cards' ranks and values, the counting of what is left and the
punto banco drawing rules are written out here, from the rules of the game (Player draws on 0-5;
Banker with no Player third card on 0-5, else on 0-2, 3 unless the third card is 8, 4 on 2-7, 5 on
4-7, 6 on 6-7).  From a :class:`~baccara.shoe.Shoe` it reads only its data (the counts by type, their
resolution and whether cards are replaced); another tableau is read from its printed table.
"""

from collections import defaultdict
from itertools import product

import numpy as np

from baccara import PUNTO_BANCO, Shoe
from baccara.punto.exact import coup_counts
from baccara.punto.known import Known

#: The value of each rank, A 2 ... 9 10 J Q K (rank 0 is the ace): pips, court cards and tens count 0.
VALUE_OF_RANK = (1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0)


def card_types(shoe: Shoe) -> list[tuple[int, int, int]]:
    """(value, rank or -1, count) of each card type of the shoe, from its counts alone: 52 cards (four suits
    of each rank, in rank order), 13 ranks, or 10 values (ranks unknown)."""
    n = len(shoe.counts)
    if shoe.resolution == "suit":
        assert n == 52
        return [(VALUE_OF_RANK[i // 4], i // 4, c) for i, c in enumerate(shoe.counts)]
    if shoe.resolution == "rank":
        assert n == 13
        return [(VALUE_OF_RANK[i], i, c) for i, c in enumerate(shoe.counts)]
    assert shoe.resolution == "value" and n == 10
    return [(i, -1, c) for i, c in enumerate(shoe.counts)]


def player_draws_pb(total: int) -> bool:
    """Punto banco: Player draws on a two-card total of 0-5."""
    return total <= 5


def banker_draws_pb(total: int, third: int | None) -> bool:
    """Punto banco: Banker's rule on his two-card total (0-7), given Player's third card (None: Player stood)."""
    if third is None:
        return total <= 5
    return {0: True, 1: True, 2: True, 3: third != 8, 4: 2 <= third <= 7, 5: 4 <= third <= 7,
            6: third in (6, 7), 7: False}[total]


def rules_of(tableau):
    """The drawing rules: punto banco's written out above, or another tableau's printed table."""
    if tableau is PUNTO_BANCO:
        return player_draws_pb, banker_draws_pb
    return (lambda t: bool(tableau.player_draws[t]),
            lambda t, third: bool(tableau.banker_draws[t][10 if third is None else third]))


def brute_force_cells(shoe: Shoe, known: Known | None = None, tableau=PUNTO_BANCO) -> dict[tuple, int]:
    """Every ordered six-card sequence of card types in deal order (Player, Banker, Player, Banker,
    fifth, sixth), kept when each known position holds an allowed rank, played by the tableau.

    Independent of the engine: a coup is played card by card, each sequence
    weighted by the counts left as it is dealt.
    """
    cards = card_types(shoe)
    types = [t for t, (_, _, c) in enumerate(cards) if c > 0]
    player_draws, banker_draws = rules_of(tableau)

    def allowed(pos: int, t: int) -> bool:
        s = known.ranks[pos] if known is not None else None
        if s is None:
            return True
        value, rank, _ = cards[t]
        if rank < 0:  # a value shoe: the set holds whole values
            return any(VALUE_OF_RANK[r] == value for r in s)
        return rank in s

    out: dict[tuple, int] = defaultdict(int)
    for seq in product(types, repeat=6):
        if not all(allowed(i, t) for i, t in enumerate(seq)):
            continue
        left = [c for _, _, c in cards]
        w = 1
        for t in seq:
            w *= left[t]
            if not shoe.replacement:
                left[t] -= 1
        if w == 0:
            continue
        p, b = [seq[0], seq[2]], [seq[1], seq[3]]
        nxt = 4
        pt = (cards[p[0]][0] + cards[p[1]][0]) % 10
        bt = (cards[b[0]][0] + cards[b[1]][0]) % 10
        if pt < 8 and bt < 8:
            third = None
            if player_draws(pt):
                p.append(seq[nxt])
                third = cards[seq[nxt]][0]
                nxt += 1
            if banker_draws(bt, third):
                b.append(seq[nxt])

        def cls(h):
            if h[0] == h[1]:
                return 2      # the same type: a suited pair in a shoe by suit, a pair by rank in one by rank
            return 1 if cards[h[0]][1] >= 0 and cards[h[0]][1] == cards[h[1]][1] else 0

        cell = (cls(p), cls(b), sum(cards[x][0] for x in p) % 10, len(p) - 2, sum(cards[x][0] for x in b) % 10,
                len(b) - 2)
        out[cell] += w
    return dict(out)


def engine_cells(shoe: Shoe, known: Known | None = None, tableau=PUNTO_BANCO) -> dict[tuple, int]:
    c = coup_counts(shoe, tableau, known)
    return {tuple(int(i) for i in idx): int(c[idx]) for idx in zip(*np.nonzero(c))}
