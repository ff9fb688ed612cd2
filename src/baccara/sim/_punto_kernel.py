"""Numba kernel: punto banco shoes, every bet as a payout table over the cells.

Per shoe it writes one row of integers: hands, Banker / Player / tie wins, and
for each bet the coups it was placed on, its net result in units of
1/denominator of that bet, and the coups it won (net > 0).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .shoe_deal import CUT, burn, coup_start, play_coup, shoe_key

#: Columns before the per-bet triples.
HANDS, BANKER, PLAYER, TIE = 0, 1, 2, 3
BASE_COLUMNS = 4
#: When a bet is placed.
ALWAYS, RUNNING, TRUE = 0, 1, 2


@njit(cache=True, nogil=True)
def play_punto_shoe(key, template, cut, mode, shuffle, coups, pdraw, bdraw, pay, when, lo, hi,
                    tags, initial, row):
    """Deal one shoe and fill ``row`` (zeroed by the caller).

    ``pay[cell, b]``: bet b's net payout numerator in that cell.  ``when[b]``:
    ALWAYS, or RUNNING / TRUE: placed when the running / true count (running
    count over the decks not yet seen) lies in [lo[b], hi[b]].  The count
    starts at ``initial`` and adds ``tags[rank]`` for every card seen: the
    face-up burn card and every card dealt (not the face-down burns).
    """
    deck = template.copy()
    n = deck.size
    nb = pay.shape[1]
    state = key
    cards = np.empty(6, dtype=np.int64)
    rc = initial
    pos = 0
    hidden = 0
    if mode == CUT:
        state, pos, first = burn(deck, mode, shuffle, state)
        rc += tags[first >> 2]
        hidden = pos - 1
    counting = False
    for b in range(nb):
        if when[b] != 0:
            counting = True
    j = 0
    prev = -1
    while True:
        more, pos = coup_start(mode, pos, prev, n, cut, j, coups)
        if not more:
            break
        prev = pos
        tc = rc * 52.0 / (n - pos + hidden) if counting else 0.0
        state, new_pos, cell, w = play_coup(deck, pos, mode, shuffle, state, pdraw, bdraw, cards)
        row[0] += 1
        row[1 + w] += 1
        for b in range(nb):
            wb = when[b]
            if wb != 0:
                x = rc if wb == 1 else tc
                if x < lo[b] or x > hi[b]:
                    continue
            v = pay[cell, b]
            c = BASE_COLUMNS + 3 * b
            row[c] += 1
            row[c + 1] += v
            if v > 0:
                row[c + 2] += 1
        if counting:
            for i in range(new_pos - pos):
                rc += tags[cards[i] >> 2]
        pos = new_pos
        j += 1


@njit(cache=True, nogil=True)
def punto_chunk(seed, first, out, template, cut, mode, shuffle, coups, pdraw, bdraw, pay, when, lo, hi,
                tags, initial):
    """Shoes ``first .. first + len(out) - 1`` of the job seeded ``seed``, one row each.

    Releases the GIL: threads run disjoint blocks of rows at once.
    """
    for i in range(out.shape[0]):
        for c in range(out.shape[1]):
            out[i, c] = 0
        play_punto_shoe(shoe_key(seed, first + i), template, cut, mode, shuffle, coups, pdraw, bdraw,
                        pay, when, lo, hi, tags, initial, out[i])
