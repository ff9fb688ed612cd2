"""Numba kernel: punto banco shoes, every bet as a payout table over the cells.

Per shoe it writes one row of integers: hands, Banker / Player / tie wins, and
for each bet the coups it was placed on, its net result in units of
1/denominator of that bet, and the coups it won (net > 0).

A flat bet's totals depend only on how many coups of the shoe fell in each
cell, and most cells pay alike: the cells are grouped into *classes* of equal
winner and equal payouts of the flat bets (:func:`fold_classes`; three for
Banker, Player and tie), a shoe counts its coups per class, and the flat bets'
totals are added once per shoe.  Bets a count decides are tallied coup by coup.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..events import CELL_SHAPE
from .shoe_deal import CUT, deal_shoe, max_coups_cut, shoe_key

#: Columns before the per-bet triples.
HANDS, BANKER, PLAYER, TIE = 0, 1, 2, 3
BASE_COLUMNS = 4
#: When a bet is placed.
ALWAYS, RUNNING, TRUE = 0, 1, 2
#: Above this many classes a shoe's class counts cost more than tallying coup by coup.
MAX_CLASSES = 64


def fold_classes(pay: np.ndarray, when: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Group the cells by winner and by the payouts of the flat bets.

    Parameters
    ----------
    pay : numpy.ndarray
        ``pay[cell, b]``: bet b's net payout numerator (int64).
    when : numpy.ndarray
        When each bet is placed (:data:`ALWAYS`, :data:`RUNNING`, :data:`TRUE`).

    Returns
    -------
    tuple of numpy.ndarray
        ``cls[cell]`` (the cell's class), ``kwin[k]`` (class k's winner, 0/1/2 =
        banker/player/tie), ``kpay[k, b]`` (bet b's payout in class k) and
        ``fold[b]`` (bet b is tallied by class).  The flat bets are folded in
        order, each unless it would make more than :data:`MAX_CLASSES` classes
        (the pair bets, say, with many others); the rest are tallied coup by coup.
    """
    pt = np.indices(CELL_SHAPE)[2].reshape(-1)
    bt = np.indices(CELL_SHAPE)[4].reshape(-1)
    win = np.where(bt > pt, 0, np.where(pt > bt, 1, 2)).astype(np.int64)
    fold = np.zeros(pay.shape[1], dtype=np.bool_)
    for b in range(pay.shape[1]):  # greedily, in order: each flat bet whose payouts keep the classes few
        if when[b] == ALWAYS:
            fold[b] = True
            if len(np.unique(np.concatenate([win[:, None], pay[:, fold]], axis=1), axis=0)) > MAX_CLASSES:
                fold[b] = False
    uniq, cls = np.unique(np.concatenate([win[:, None], pay[:, fold]], axis=1), axis=0, return_inverse=True)
    kpay = np.zeros((len(uniq), pay.shape[1]), dtype=np.int64)
    kpay[:, fold] = uniq[:, 1:]
    return cls.reshape(-1).astype(np.int64), uniq[:, 0].astype(np.int64), kpay, fold


@njit(cache=True, nogil=True)
def play_punto_shoe(key, deck, template, cut, mode, shuffle, coups, pdraw, bdraw, pay, when, lo, hi,
                    tags, initial, cls, kwin, kpay, fold, hist, starts, cells, row):
    """Deal one shoe and fill ``row`` (zeroed by the caller).

    ``deck`` (at least ``max(template.size, 6)`` cards), ``hist`` (one
    counter per class), ``starts`` and ``cells`` (room for every coup) are work
    space.  ``pay[cell, b]``: bet b's net payout numerator in that cell.
    ``when[b]``: ALWAYS, or RUNNING / TRUE: placed when the running / true
    count (running count over the decks not yet seen) lies in [lo[b], hi[b]].
    The count starts at ``initial`` and adds ``tags[rank]`` for every card
    seen: the face-up burn card and every card dealt (not the face-down
    burns).  ``cls``, ``kwin``, ``kpay``, ``fold``: :func:`fold_classes`.
    """
    n = template.size
    nb = pay.shape[1]
    _, nc, burned, end, first = deal_shoe(deck, template, mode, shuffle, cut, coups, key, pdraw, bdraw, starts,
                                          cells)
    for k in range(hist.size):
        hist[k] = 0
    for j in range(nc):
        hist[cls[cells[j]]] += 1
    counting = False
    loose = False  # bets tallied coup by coup
    for b in range(nb):
        if when[b] != ALWAYS:
            counting = True
        if not fold[b]:
            loose = True
    if loose:
        rc = initial
        hidden = 0
        if mode == CUT:
            rc += tags[first >> 2]
            hidden = burned - 1
        for j in range(nc):
            pos = starts[j]
            cell = cells[j]
            tc = rc * 52.0 / (n - pos + hidden) if counting else 0.0
            for b in range(nb):
                if fold[b]:
                    continue
                wb = when[b]
                if wb != ALWAYS:
                    x = rc if wb == RUNNING else tc
                    if x < lo[b] or x > hi[b]:
                        continue
                v = pay[cell, b]
                c = BASE_COLUMNS + 3 * b
                row[c] += 1
                row[c + 1] += v
                if v > 0:
                    row[c + 2] += 1
            if counting:
                for i in range(pos, starts[j + 1] if j + 1 < nc else end):
                    rc += tags[deck[i] >> 2]
    for k in range(hist.size):
        x = hist[k]
        if x == 0:
            continue
        row[HANDS] += x
        row[1 + kwin[k]] += x
        for b in range(nb):
            if fold[b]:
                v = kpay[k, b]
                c = BASE_COLUMNS + 3 * b
                row[c] += x
                row[c + 1] += x * v
                if v > 0:
                    row[c + 2] += x


@njit(cache=True, nogil=True)
def punto_chunk(seed, first, out, template, cut, mode, shuffle, coups, pdraw, bdraw, pay, when, lo, hi,
                tags, initial, cls, kwin, kpay, fold):
    """Shoes ``first .. first + len(out) - 1`` of the job seeded ``seed``, one row each.

    Releases the GIL: threads run disjoint blocks of rows at once.  Each shoe
    depends only on (seed, its index), whatever the blocks; the work space is
    allocated once per block.
    """
    deck = np.empty(max(template.size, 6), dtype=np.uint8)
    hist = np.empty(kwin.size, dtype=np.int64)
    cap = max_coups_cut(template.size, cut) if mode == CUT else coups
    starts = np.empty(cap, dtype=np.int64)
    cells = np.empty(cap, dtype=np.int64)
    for i in range(out.shape[0]):
        for c in range(out.shape[1]):
            out[i, c] = 0
        play_punto_shoe(shoe_key(seed, first + i), deck, template, cut, mode, shuffle, coups, pdraw, bdraw,
                        pay, when, lo, hi, tags, initial, cls, kwin, kpay, fold, hist, starts, cells, out[i])
