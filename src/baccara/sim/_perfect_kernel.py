"""Numba kernel: the perfect counter on bets on card values, dealt and priced in one compiled loop.

Each shoe is dealt as :func:`~baccara.sim.shoe_deal.deal_shoe` deals it (the same cards
as every other punto banco kernel, shoe for shoe).  Before a decision coup the unseen
cards by value (the full shoe less the face-up burn card and the cards dealt; the
face-down burns stay unseen) go to the exact engine's value-level kernel
(:func:`baccara.punto.kernel.value_kernel`), which counts the ordered deals of every
value cell as 64-bit integers; bet ``b``'s expectation has the sign of

    num_b = sum over value cells c of vpay[c, b] * count[c],

its payouts over their common denominator times the deals, an exact integer (the caller
checks that ``max |vpay| * (N)_6`` stays below 2^63, so no partial sum overflows).  The
bet is placed while ``num_b > 0``: an expectation of exactly 0 is not positive and is
not bet, as in the exact engine (:attr:`baccara.punto.exact.ShoeEdges.positive`).  No
float is involved, so there is no rounding near 0 to resolve.

Everything is plain arrays and integers, one shoe at a time (:func:`perfect_shoe`), so
threads run blocks of shoes at once (no GIL) and a GPU port can give each thread a shoe
with the same loop.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._numba import defer_blas_probe
from ..punto.kernel import VALUE_BUFFERS, compiled
from ._punto_kernel import BASE_COLUMNS, HANDS
from .shoe_deal import CUT, VALUE, WINNER, deal_shoe, max_coups_cut, shoe_key

defer_blas_probe()
_value_kernel = compiled().value_kernel
#: Value cells of :data:`baccara.punto.exact.VALUE_CELL_SHAPE`: pair classes (0, 0) of the cells.
VALUE_CELLS = 400


@njit(cache=True, nogil=True)
def perfect_shoe(key, deck, template, cut, every, pdraw, bdraw, pay, vpay, full, vc, counts, num, on,
                 qc, qd, w, u0, om, s0, s1, wb, wp, nat, sb, ds, dd, starts, cells, row):
    """Deal one shoe and fill ``row`` (hands, Banker, Player, tie, then placed / net / wins per bet).

    ``full[v]``: the full shoe's cards of value v; ``vc`` (10), ``counts`` (the value cells,
    shape (10, 2, 10, 2)), ``num`` and ``on`` (one per bet), the value kernel's work arrays
    (``qc`` .. ``dd``, :data:`baccara.punto.kernel.VALUE_BUFFERS`), ``starts`` and ``cells``
    (one per coup) are work space.  ``pay[cell, b]``: bet b's net payout times its
    denominator in each cell of :data:`baccara.punto.events.CELL_SHAPE`; ``vpay`` the same
    for the value cells.  A decision is taken at coups 0, every, 2 * every, ... and holds
    until the next.  Returns the number of decisions.
    """
    nb = pay.shape[1]
    flat = counts.reshape(VALUE_CELLS)
    _, nc, burned, end, first = deal_shoe(deck, template, CUT, True, cut, 0, key, pdraw, bdraw, starts, cells)
    for c in range(row.size):
        row[c] = 0
    for v in range(10):
        vc[v] = full[v]
    vc[VALUE[first]] -= 1  # the face-up burn card
    left = template.size - 1
    pos = burned
    decisions = 0
    for j in range(nc):
        start = starts[j]
        while pos < start:  # the cards dealt since the last coup began
            vc[VALUE[deck[pos]]] -= 1
            left -= 1
            pos += 1
        if j % every == 0:
            decisions += 1
            _value_kernel(vc, left, False, pdraw, bdraw, qc, qd, w, u0, om, s0, s1, wb, wp, nat, sb, ds, dd, counts)
            for b in range(nb):
                num[b] = 0
            for c in range(VALUE_CELLS):
                x = flat[c]
                if x != 0:
                    for b in range(nb):
                        num[b] += vpay[c, b] * x
            for b in range(nb):
                on[b] = num[b] > 0
        cell = cells[j]
        row[HANDS] += 1
        row[1 + WINNER[cell]] += 1
        for b in range(nb):
            if on[b]:
                v = pay[cell, b]
                c = BASE_COLUMNS + 3 * b
                row[c] += 1
                row[c + 1] += v
                if v > 0:
                    row[c + 2] += 1
    return decisions


@njit(cache=True, nogil=True)
def perfect_chunk(seed, first, out, template, cut, every, pdraw, bdraw, pay, vpay, full):
    """Shoes ``first .. first + len(out) - 1`` of the job seeded ``seed``, one row each
    (:func:`perfect_shoe`); returns the decisions taken.

    Releases the GIL: threads run disjoint blocks of rows at once.  Each shoe depends
    only on (seed, its index); the work space is allocated once per block.
    """
    nb = pay.shape[1]
    deck = np.empty(max(template.size, 6), dtype=np.uint8)
    cap = max_coups_cut(template.size, cut)
    starts = np.empty(cap, dtype=np.int64)
    cells = np.empty(cap, dtype=np.int64)
    vc = np.empty(10, dtype=np.int64)
    counts = np.empty((10, 2, 10, 2), dtype=np.int64)
    num = np.empty(nb, dtype=np.int64)
    on = np.zeros(nb, dtype=np.bool_)
    qc, qd, w, u0, om, s0, s1, wb, wp, nat, sb, ds, dd = _work()
    decisions = 0
    for i in range(out.shape[0]):
        decisions += perfect_shoe(shoe_key(seed, first + i), deck, template, cut, every, pdraw, bdraw, pay, vpay,
                                  full, vc, counts, num, on, qc, qd, w, u0, om, s0, s1, wb, wp, nat, sb, ds, dd,
                                  starts, cells, out[i])
    return decisions


@njit(cache=True, nogil=True)
def _work():
    """The value kernel's work arrays (:data:`baccara.punto.kernel.VALUE_BUFFERS`), int64 and zeroed."""
    return (np.zeros(VALUE_BUFFERS[0], np.int64), np.zeros(VALUE_BUFFERS[1], np.int64),
            np.zeros(VALUE_BUFFERS[2], np.int64), np.zeros(VALUE_BUFFERS[3], np.int64),
            np.zeros(VALUE_BUFFERS[4], np.int64), np.zeros(VALUE_BUFFERS[5], np.int64),
            np.zeros(VALUE_BUFFERS[6], np.int64), np.zeros(VALUE_BUFFERS[7], np.int64),
            np.zeros(VALUE_BUFFERS[8], np.int64), np.zeros(VALUE_BUFFERS[9], np.int64),
            np.zeros(VALUE_BUFFERS[10], np.int64), np.zeros(VALUE_BUFFERS[11], np.int64),
            np.zeros(VALUE_BUFFERS[12], np.int64))
