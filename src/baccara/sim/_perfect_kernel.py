"""Numba kernel: the perfect counter on bets on card values, dealt and priced in one compiled loop.

Each shoe is dealt as :func:`~baccara.sim.shoe_deal.deal_shoe` deals it (the same cards
as every other punto banco kernel, shoe for shoe).  Before a decision coup the unseen
cards by value (the full shoe less the face-up burn card and the cards dealt; the
face-down burns stay unseen) are priced with the exact engine's value-level counts
(:func:`baccara.punto.kernel.value_kernel`: the ordered deals of every value cell, 64-bit
integers); bet ``b``'s expectation has the sign of

    num_b = sum over value cells c of vpay[c, b] * count[c],

its payouts over their common denominator times the deals, an exact integer
(:func:`numerator_plan` and the caller keep every partial sum below 2^63).  The bet is
placed while ``num_b > 0``: an expectation of exactly 0 is not positive and is not bet,
as in the exact engine (:attr:`baccara.punto.exact.ShoeEdges.positive`).  No float is
involved, so there is no rounding near 0 to resolve.

Speed: a side bet pays its usual payout (-1, say) in most cells, so only the others are
counted (:func:`perfect_numerators`, some 2.5 times faster than all 400 cells); and a
bet that only wins above that payout has fewer winning deals as cards leave, so a
decision its last pricing already settles is not priced again (:func:`perfect_shoe`).

Everything is plain arrays and integers, one shoe at a time (:func:`perfect_shoe`), so
threads run blocks of shoes at once (no GIL) and a GPU port can give each thread a shoe
with the same loop (its work arrays then per thread: ``w`` is 55 x 55 integers).
"""

from __future__ import annotations

from collections.abc import Callable
from math import perm
from typing import Any

import numpy as np
from numba import njit

from .._numba import defer_blas_probe, retarget
from ..punto.exact import VALUE_CELL_SHAPE
from ..punto.kernel import NVPAIRS, PURE_PYTHON, VC, VD, VJ, VK, VSEG, VT, compiled
from . import shoe_deal
from ._punto_kernel import BASE_COLUMNS, HANDS
from .shoe_deal import CUT, VALUE, WINNER, deal_shoe, max_coups_cut, shoe_key

defer_blas_probe()
_value_kernel = compiled().value_kernel
#: Value cells of :data:`baccara.punto.exact.VALUE_CELL_SHAPE`: pair classes (0, 0) of the cells.
VALUE_CELLS = int(np.prod(VALUE_CELL_SHAPE))
#: Columns of :func:`numerator_plan`'s ``both``: the fifth and sixth cards' values, the two-card totals
#: ``10 * pt + bt``, the cell, whether e = f, and the flat indices and multipliers of the terms read off
#: ``w`` and ``u0`` (the value kernel's ``om`` is ``u0`` transposed).
E, F, G, CELL, SAME, I1, C1, I2, C2, IU, CU, IO, CO = range(13)
COLUMNS = 13
#: Above this many entries in ``both`` the value kernel's dense loops count the cells sooner.
DENSE = 1200


@njit(cache=True, nogil=True, boundscheck=False)
def natural_deals(vc, qc, qd, pt, bt):
    """Ordered deals of the first four cards giving Player the two-card total ``pt`` and Banker ``bt``: the
    value kernel's ``s0[pt, bt]``, summed over the value pairs of those totals (``qc``, ``qd``: Banker's
    counts, :func:`perfect_numerators`)."""
    out = 0
    for i in range(VSEG[pt], VSEG[pt + 1]):
        a = VC[i]
        b = VD[i]
        p = vc[a] * (vc[b] - (1 if a == b else 0)) * (1 if a == b else 2)
        u = 0
        for j in range(VSEG[bt], VSEG[bt + 1]):
            c = VC[j]
            d = VD[j]
            u += ((qc[j] - ((1 if c == a else 0) + (1 if c == b else 0)))
                  * (qd[j] - ((1 if d == a else 0) + (1 if d == b else 0))) * (1 if c == d else 2))
        out += p * u
    return out


@njit(cache=True, nogil=True, boundscheck=False)
def perfect_numerators(vc, n, pdraw, bdraw, base, dev, other, both, qc, qd, w, u0, wf, u0f, s0, s1, nat, sb, ds,
                       num):
    """Every bet's exact expectation times its denominator and the ``(N)_6`` deals: ``num[b]``.

    The value-level kernel (:func:`baccara.punto.kernel.value_kernel`, without replacement)
    counts the ordered deals of all 400 value cells; a bet needs only the cells where it
    does not pay its most common payout ``base[b]``, since the counts sum to ``(N)_6``:

        num_b = base_b (N)_6 + sum over cells c of dev[c, b] count[c],  dev = vpay - base.

    The moments (``w``, ``u0``, ``s0``, ``s1``) are the value kernel's (``wf`` and ``u0f``: ``w`` and ``u0``
    read as flat arrays, the same memory: views the caller makes, as the GPU's ``w`` is strided, one slice of
    an array interleaved across threads; ``s0`` and ``s1`` contiguous); its ``om[pt, j]`` is
    ``u0[j, pt]``, as the first-four weights ``w`` are symmetric (a falling product of the
    four cards).  The cells where Player and Banker both draw, most of its work, are counted
    only where some bet's ``dev`` is not 0: ``both[k]`` (:func:`numerator_plan`) is the value
    kernel's ``dd`` entry for one (pt, bt, e, f) (the two-card totals, the fifth and sixth
    cards' values), a count of deals, the entries grouped by cell.  ``other``: the cells
    where one hand or none draws, with a ``dev`` not 0.  ``vc``: the cards by value, ``n``
    their sum.  The moments leave out the two-card totals 8 and 9: a natural's cell (neither
    hand draws) is counted directly, from the few first-four weights of its two totals
    (:func:`natural_deals`).  Exact 64-bit integers: every partial sum is at most
    ``(|base| + max |dev|) (N)_6`` (:func:`numerator_plan`).
    """
    n4 = n - 4
    n5 = n - 5
    lim = 8  # two-card totals below 8: the hands that may draw
    top = VSEG[lim]  # the value pairs of those totals (sorted by total)
    for j in range(NVPAIRS):
        qc[j] = vc[VC[j]]
        qd[j] = vc[VD[j]] - (1 if VC[j] == VD[j] else 0)
    for i in range(top):
        a = VC[i]
        b = VD[i]
        p = vc[a] * (vc[b] - (1 if a == b else 0)) * (1 if a == b else 2)
        for j in range(top):  # Banker's pairs once Player's cards are gone
            c = VC[j]
            d = VD[j]
            x = qc[j] - ((1 if c == a else 0) + (1 if c == b else 0))
            y = qd[j] - ((1 if d == a else 0) + (1 if d == b else 0))
            w[i, j] = p * x * y * (1 if c == d else 2)
        for bt in range(lim):
            u = 0
            for j in range(VSEG[bt], VSEG[bt + 1]):
                u += w[i, j]
            u0[i, bt] = u
    s0[:] = 0
    for i in range(top):
        pt = VT[i]
        for bt in range(lim):
            s0[pt, bt] += u0[i, bt]
    for pt in range(8):
        for bt in range(8):
            for v in range(10):
                s1[pt, bt, v] = VK[pt, v] * u0[VJ[pt, v], bt] + VK[bt, v] * u0[VJ[bt, v], pt]  # om = u0.T
    need_sb = False  # whether ``other`` asks for cells where only Banker draws, only Player
    need_ds = False
    for k in range(other.size):
        c = other[k]
        if (c // 20) % 2 == 1:
            need_ds = True
        elif c % 2 == 1:
            need_sb = True
    nat[:] = 0
    sb[:] = 0
    ds[:] = 0
    for pt in range(lim):
        for bt in range(lim):
            w0 = s0[pt, bt]
            if pt >= 8 or bt >= 8:
                nat[pt, bt] += w0
            elif not pdraw[pt]:
                if not bdraw[bt, 10]:
                    nat[pt, bt] += w0
                elif need_sb:
                    for f in range(10):
                        sb[pt, bt + f] += vc[f] * w0 - s1[pt, bt, f]
            elif need_ds:
                for e in range(10):
                    if not bdraw[bt, e]:
                        ds[pt + e, bt] += vc[e] * w0 - s1[pt, bt, e]
    nb = num.size
    total = n * (n - 1) * n4 * n5 * (n - 2) * (n - 3)
    for b in range(nb):
        num[b] = base[b] * total
    for k in range(other.size):
        c = other[k]
        x = c // 40
        pn = (c // 20) % 2
        y = (c // 2) % 10
        bn = c % 2
        if pn == 0 and bn == 0:
            cnt = (natural_deals(vc, qc, qd, x, y) if x >= lim or y >= lim else nat[x, y]) * n4 * n5
        elif pn == 0:
            cnt = (sb[x, y] + sb[x, y + 10]) * n5
        else:
            cnt = (ds[x, y] + ds[x + 10, y]) * n5
        if cnt != 0:
            for b in range(nb):
                num[b] += dev[c, b] * cnt
    s0f = s0.reshape(100)
    s1f = s1.reshape(1000)
    m = both.shape[0]
    k = 0
    while k < m:  # the entries come grouped by cell: each cell's sum in a register
        c = both[k, CELL]
        x = 0
        while k < m and both[k, CELL] == c:
            e = both[k, E]
            g = both[k, G]
            ae = vc[e] * s0f[g] - s1f[g * 10 + e]
            x += ((vc[both[k, F]] - both[k, SAME]) * ae - vc[e] * s1f[g * 10 + both[k, F]]
                  + both[k, C1] * wf[both[k, I1]] + both[k, C2] * wf[both[k, I2]] + both[k, CU] * u0f[both[k, IU]]
                  + both[k, CO] * u0f[both[k, IO]])
            k += 1
        if x != 0:
            for b in range(nb):
                num[b] += dev[c, b] * x


def numerator_plan(vpay: np.ndarray, pdraw: np.ndarray, bdraw: np.ndarray, cards: int) -> tuple:
    """What :func:`perfect_numerators` and :func:`decide` need to know of the bets, computed once a job.

    Parameters
    ----------
    vpay : numpy.ndarray
        ``vpay[c, b]``: bet b's payout times its denominator in value cell c, shape (400, bets), int64.
    pdraw, bdraw : numpy.ndarray
        The tableau (:attr:`baccara.rules.Tableau.player_array`, ``banker_array``).
    cards : int
        The most cards a priced shoe holds.

    Returns
    -------
    tuple
        ``(base, dev, other, both, dense, rising)``: ``base[b]`` is bet b's most common payout in the value
        cells, unless a partial sum could then leave 64-bit integers (``(|base| + max |dev|) (N)_6`` at 2^63 or
        more), when it is 0; ``dev = vpay - base``; ``other`` the cells with a ``dev`` not 0 where one hand or
        none draws; ``both`` one row per (pt, bt, e, f) where both draw into a cell with a ``dev`` not 0
        (columns :data:`E` .. :data:`CO`), grouped by cell; ``dense``: whether ``both`` has more than
        :data:`DENSE` rows (:func:`decide` then counts every cell with the value kernel); ``rising``: whether
        every ``dev`` is at least 0 (:func:`perfect_shoe`).
    """
    nb = vpay.shape[1]
    deals = perm(cards, 6)
    base = np.zeros(nb, dtype=np.int64)
    for b in range(nb):
        vals, freq = np.unique(vpay[:, b], return_counts=True)
        m = int(vals[np.argmax(freq)])
        if (abs(m) + int(np.abs(vpay[:, b] - m).max())) * deals < 2**63:
            base[b] = m
    dev = np.ascontiguousarray(vpay - base[None, :])
    live = np.any(dev != 0, axis=1)
    other = np.array([c for c in range(VALUE_CELLS) if live[c] and not (c // 20 % 2 == 1 and c % 2 == 1)],
                     dtype=np.int64)
    both = []
    for pt in range(8):
        if not pdraw[pt]:
            continue
        for bt in range(8):
            for e in range(10):
                if not bdraw[bt, e]:
                    continue
                ie, je, kp, kb = VJ[pt, e], VJ[bt, e], VK[pt, e], VK[bt, e]
                for f in range(10):
                    c = ((((pt + e) % 10) * 2 + 1) * 10 + (bt + f) % 10) * 2 + 1
                    if not live[c]:
                        continue
                    t = [0] * COLUMNS
                    t[E], t[F], t[G], t[CELL], t[SAME] = e, f, pt * 10 + bt, c, int(f == e)
                    t[I1], t[C1] = ie * NVPAIRS + VJ[bt, f], kp * VK[bt, f]
                    t[I2], t[C2] = VJ[pt, f] * NVPAIRS + je, kb * VK[pt, f]
                    t[IU], t[CU] = ie * 10 + bt, kp * kp if f == e else int(f == (pt - e) % 10)
                    t[IO], t[CO] = je * 10 + pt, kb * kb if f == e else int(f == (bt - e) % 10)
                    both.append(t)
    both.sort(key=lambda t: t[CELL])  # stable: grouped by cell, in deal order within a cell
    rising = bool(np.all(dev >= 0))
    return base, dev, other, np.array(both, dtype=np.int64).reshape(-1, COLUMNS), len(both) > DENSE, rising


@njit(cache=True, nogil=True)
def decide(vc, n, pdraw, bdraw, base, dev, other, both, dense, qc, qd, w, u0, wf, u0f, om, s0, s1, wb, wp, nat, sb,
           ds, dd, counts, num):
    """``num[b]``: bet b's exact expectation times its denominator and the ``(N)_6`` deals, for the cards
    ``vc`` by value (``n`` in all): :func:`perfect_numerators`, or where most cells matter (``dense``) the
    value kernel's 400 cells (:func:`baccara.punto.kernel.value_kernel`) summed with ``dev``."""
    if not dense:
        perfect_numerators(vc, n, pdraw, bdraw, base, dev, other, both, qc, qd, w, u0, wf, u0f, s0, s1, nat, sb, ds,
                           num)
        return
    _value_kernel(vc, n, False, pdraw, bdraw, qc, qd, w, u0, om, s0, s1, wb, wp, nat, sb, ds, dd, counts)
    flat = counts.reshape(VALUE_CELLS)
    total = n * (n - 1) * (n - 2) * (n - 3) * (n - 4) * (n - 5)
    for b in range(num.size):
        num[b] = base[b] * total
    for c in range(VALUE_CELLS):
        x = flat[c]
        if x != 0:
            for b in range(num.size):
                num[b] += dev[c, b] * x


@njit(cache=True, nogil=True)
def perfect_shoe(key, deck, template, cut, every, pdraw, bdraw, pay, base, dev, other, both, dense, rising, full, vc,
                 num, on, above, qc, qd, w, u0, wf, u0f, om, s0, s1, wb, wp, nat, sb, ds, dd, counts, starts, cells,
                 row, evs, dens, price_all):
    """Deal one shoe and fill ``row`` (hands, Banker, Player, tie, then placed / net / wins per bet).

    Where ``evs`` has rows (one per coup, one column per bet) it also gets each coup's
    expectations as floats, ``num[b] / ((N)_6 * dens[b])`` of the latest decision, computed as
    :attr:`baccara.punto.exact.ShoeEdges.ev` computes them (so to the last bit); NaN where that
    decision was not priced (taken without pricing, above: no bet).  An expectation is above
    0 exactly where its bet is placed.  ``price_all`` prices every decision (every coup's
    expectation, for the cut card's effect).

    ``full[v]``: the full shoe's cards of value v; ``vc`` (10), ``num``, ``on`` and ``above``
    (one per bet), :func:`decide`'s work arrays (``qc`` .. ``counts``; ``wf`` and ``u0f``: ``w`` and ``u0``
    read as flat arrays, the same memory, and ``s0``, ``s1`` contiguous), ``starts`` and ``cells``
    (one per coup) are work space.  ``pay[cell, b]``: bet b's net payout times its
    denominator in each cell of :data:`baccara.punto.events.CELL_SHAPE`; ``base`` .. ``rising``:
    :func:`numerator_plan`.  A decision is taken at coups 0, every, 2 * every, ... and holds
    until the next.

    Where every ``dev`` is at least 0 (``rising``: a bet that pays its base payout or more,
    Dragon 7's -1 or 40, say), ``above[b]`` = ``num[b] - base[b] (N)_6`` counts deals that only
    fall as cards leave (each a product of falling factorials of the counts), so until
    ``base[b] (N')_6 + above[b]`` reaches 0 for some bet, with ``N'`` the cards left, every
    bet's expectation is still below 0 and the decision (no bet) is taken without pricing.

    Returns
    -------
    tuple of int
        The decisions taken and those priced.
    """
    nb = pay.shape[1]
    _, nc, burned, end, first = deal_shoe(deck, template, CUT, True, cut, 0, key, pdraw, bdraw, starts, cells)
    for c in range(row.size):
        row[c] = 0
    for v in range(10):
        vc[v] = full[v]
    vc[VALUE[first]] -= 1  # the face-up burn card
    left = template.size - 1
    pos = burned
    decisions = 0
    priced = 0
    for j in range(nc):
        start = starts[j]
        while pos < start:  # the cards dealt since the last coup began
            vc[VALUE[deck[pos]]] -= 1
            left -= 1
            pos += 1
        if j % every == 0:
            decisions += 1
            total = left * (left - 1) * (left - 2) * (left - 3) * (left - 4) * (left - 5)
            known = rising and priced and not price_all  # every bet's deals above its base only fell since
            if known:
                for b in range(nb):
                    if base[b] * total + above[b] >= 0:
                        known = False
            if known:
                for b in range(nb):
                    on[b] = False
                    if evs.shape[0] > 0:
                        evs[j, b] = np.nan
            else:
                priced += 1
                decide(vc, left, pdraw, bdraw, base, dev, other, both, dense, qc, qd, w, u0, wf, u0f, om, s0, s1, wb,
                       wp, nat, sb, ds, dd, counts, num)
                for b in range(nb):
                    on[b] = num[b] > 0
                    above[b] = num[b] - base[b] * total
                    if evs.shape[0] > 0:
                        evs[j, b] = np.float64(num[b]) / (np.float64(total) * dens[b])
        elif evs.shape[0] > 0:  # the latest decision holds
            for b in range(nb):
                evs[j, b] = evs[j - 1, b]
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
    return decisions, priced


@njit(cache=True, nogil=True)
def shoe_work(n, cap, nb):
    """:func:`perfect_shoe`'s work arrays for a shoe of ``n`` cards, ``cap`` coups at most and ``nb`` bets:
    ``(deck, starts, cells, vc, num, on, above)``, then :func:`decide`'s (``qc`` .. ``counts``)."""
    return (np.empty(max(n, 6), dtype=np.uint8), np.empty(cap, dtype=np.int64), np.empty(cap, dtype=np.int64),
            np.empty(10, dtype=np.int64), np.empty(nb, dtype=np.int64), np.zeros(nb, dtype=np.bool_),
            np.zeros(nb, dtype=np.int64), np.empty(NVPAIRS, dtype=np.int64), np.empty(NVPAIRS, dtype=np.int64),
            np.empty((NVPAIRS, NVPAIRS), dtype=np.int64), np.empty((NVPAIRS, 10), dtype=np.int64),
            np.empty((10, NVPAIRS), dtype=np.int64), np.empty((10, 10), dtype=np.int64),
            np.zeros((10, 10, 10), dtype=np.int64), np.zeros((NVPAIRS, 8, 10), dtype=np.int64),
            np.zeros((8, NVPAIRS, 10), dtype=np.int64), np.empty((10, 10), dtype=np.int64),
            np.empty((10, 20), dtype=np.int64), np.empty((20, 10), dtype=np.int64), np.empty((20, 20), dtype=np.int64),
            np.empty((10, 2, 10, 2), dtype=np.int64))


@njit(cache=True, nogil=True)
def perfect_chunk(seed, first, out, template, cut, every, pdraw, bdraw, pay, base, dev, other, both, dense, rising,
                  full):
    """Shoes ``first .. first + len(out) - 1`` of the job seeded ``seed``, one row each
    (:func:`perfect_shoe`); returns the decisions taken.

    Releases the GIL: threads run disjoint blocks of rows at once.  Each shoe depends
    only on (seed, its index); the work space is allocated once per block.
    """
    nb = pay.shape[1]
    cap = max_coups_cut(template.size, cut)
    (deck, starts, cells, vc, num, on, above, qc, qd, w, u0, om, s0, s1, wb, wp, nat, sb, ds, dd,
     counts) = shoe_work(template.size, cap, nb)
    wf, u0f = w.reshape(NVPAIRS * NVPAIRS), u0.reshape(NVPAIRS * 10)  # the same memory, read as flat arrays
    no_evs = np.empty((0, nb), dtype=np.float64)  # no coup's expectation wanted
    no_dens = np.ones(nb, dtype=np.float64)
    decisions = 0
    priced = 0
    for i in range(out.shape[0]):
        d, p = perfect_shoe(shoe_key(seed, first + i), deck, template, cut, every, pdraw, bdraw, pay, base, dev, other,
                            both, dense, rising, full, vc, num, on, above, qc, qd, w, u0, wf, u0f, om, s0, s1, wb, wp,
                            nat, sb, ds, dd, counts, starts, cells, out[i], no_evs, no_dens, False)
        decisions += d
        priced += p
    return decisions, priced


@njit(cache=True, nogil=True)
def perfect_ev_shoe(key, deck, template, cut, every, pdraw, bdraw, pay, base, dev, other, both, dense, rising, full, vc,
                    num, on, above, qc, qd, w, u0, wf, u0f, om, s0, s1, wb, wp, nat, sb, ds, dd, counts, starts, cells,
                    row, ev, dens, price_all, out):
    """:func:`perfect_shoe` on one bet (``pay`` one column), summed as the count analysis sums it.

    ``out`` gets hands, bets placed, net, sum of squared results and wins
    (:data:`baccara.sim.count_analysis.COLUMNS`), ``ev[j, 0]`` coup j's expectation as a float (NaN past the
    shoe's coups, and where not priced unless ``price_all``); ``row`` is work space.  The CPU's
    :func:`perfect_ev_chunk` and the GPU's kernel (:func:`device_functions`) both deal a shoe by this.

    Returns
    -------
    tuple of int
        The decisions taken and those priced.
    """
    for j in range(ev.shape[0]):
        for b in range(ev.shape[1]):
            ev[j, b] = np.nan
    d, p = perfect_shoe(key, deck, template, cut, every, pdraw, bdraw, pay, base, dev, other, both, dense, rising,
                        full, vc, num, on, above, qc, qd, w, u0, wf, u0f, om, s0, s1, wb, wp, nat, sb, ds, dd, counts,
                        starts, cells, row, ev, dens, price_all)
    sq = 0
    for j in range(row[HANDS]):
        if ev[j, 0] > 0:  # placed
            v = pay[cells[j], 0]
            sq += v * v
    out[0] = row[HANDS]
    out[1] = row[BASE_COLUMNS]
    out[2] = row[BASE_COLUMNS + 1]
    out[3] = sq
    out[4] = row[BASE_COLUMNS + 2]
    return d, p


@njit(cache=True, nogil=True)
def perfect_ev_chunk(seed, first, out, evs, template, cut, every, pdraw, bdraw, pay, base, dev, other, both, dense,
                     rising, full, dens, price_all):
    """The perfect counter on one bet, with each coup's exact expectation (the count analysis's figures).

    Shoes ``first .. first + len(out) - 1`` of the job seeded ``seed`` (:func:`perfect_ev_shoe`,
    ``pay`` one column): ``out[i]`` gets hands, bets placed, net, sum of squared results and
    wins (:data:`baccara.sim.count_analysis.COLUMNS`), ``evs[i, j]`` coup j's expectation as a
    float (NaN past the shoe's coups, and where not priced unless ``price_all``: see
    :func:`perfect_shoe`); ``dens``: the bet's payout denominator.  Releases the GIL.

    Returns
    -------
    tuple of int
        The decisions taken and those priced.
    """
    nb = pay.shape[1]
    cap = max_coups_cut(template.size, cut)
    (deck, starts, cells, vc, num, on, above, qc, qd, w, u0, om, s0, s1, wb, wp, nat, sb, ds, dd,
     counts) = shoe_work(template.size, cap, nb)
    wf, u0f = w.reshape(NVPAIRS * NVPAIRS), u0.reshape(NVPAIRS * 10)  # the same memory, read as flat arrays
    row = np.empty(BASE_COLUMNS + 3 * nb, dtype=np.int64)
    ev = np.empty((cap, nb), dtype=np.float64)
    decisions = 0
    priced = 0
    for i in range(out.shape[0]):
        d, p = perfect_ev_shoe(shoe_key(seed, first + i), deck, template, cut, every, pdraw, bdraw, pay, base, dev,
                               other, both, dense, rising, full, vc, num, on, above, qc, qd, w, u0, wf, u0f, om, s0, s1,
                               wb, wp, nat, sb, ds, dd, counts, starts, cells, row, ev, dens, price_all, out[i])
        decisions += d
        priced += p
        for j in range(cap):
            evs[i, j] = ev[j, 0]
    return decisions, priced


#: What :func:`perfect_shoe` and :func:`perfect_ev_shoe` call, by the names they call them: the functions
#: :func:`device_functions` compiles.
_CHAIN = ("perfect_ev_shoe", "perfect_shoe", "decide", "perfect_numerators", "natural_deals")
_DEAL_CHAIN = ("deal_shoe", "start_shoe", "coup_start", "next_coup", "shuffle_prefix", "fill_infinite", "bounded",
               "next32", "mix64", "reach", "pair_class", "cell_index", "shoe_key")


def device_functions(jit: Callable[[Any], Any]) -> dict[str, Any]:
    """:func:`perfect_shoe`, :func:`perfect_ev_shoe` and all they call, from the same source, compiled by ``jit``.

    The GPU backend passes ``numba.cuda.jit(device=True)``: one GPU thread then deals and
    prices a shoe by the code the CPU runs (the deal of :func:`~baccara.sim.shoe_deal.deal_shoe`,
    :func:`decide`, and the exact engine's :func:`baccara.punto.kernel.value_kernel`), not by a
    copy of it, so its rows are the CPU's.

    Parameters
    ----------
    jit : callable
        A decorator compiling a Python function (each of them integer code on arrays).

    Returns
    -------
    dict of str to object
        The compiled functions by name (``perfect_shoe``, ``shoe_key``, ...).
    """
    here = globals()
    functions: dict[str, Any] = {name: here[name] for name in _CHAIN}
    functions.update({name: getattr(shoe_deal, name) for name in _DEAL_CHAIN})
    functions["_value_kernel"] = PURE_PYTHON["value_kernel"]
    return retarget(jit, functions)


def numerators(values: np.ndarray, vpay: np.ndarray, pdraw: np.ndarray, bdraw: np.ndarray,
               plan: tuple | None = None) -> np.ndarray:
    """:func:`decide` from Python, for tests and checks.

    Parameters
    ----------
    values : numpy.ndarray
        Shoes by value, one a row (10 counts, at least 6 cards each).
    vpay : numpy.ndarray
        The value cells' payouts, as for :func:`numerator_plan`.
    pdraw, bdraw : numpy.ndarray
        The tableau.
    plan : tuple, optional
        :func:`numerator_plan`'s arrays (default: planned for the largest shoe given).

    Returns
    -------
    numpy.ndarray
        ``num[i, b]``: bet b's exact expectation on shoe i times its denominator and the ``(N)_6`` deals.
    """
    values = np.atleast_2d(np.asarray(values, dtype=np.int64))
    vpay = np.ascontiguousarray(vpay, dtype=np.int64)
    if plan is None:
        plan = numerator_plan(vpay, pdraw, bdraw, int(values.sum(axis=1).max()))
    base, dev, other, both, dense, _ = plan
    out = np.zeros((values.shape[0], vpay.shape[1]), dtype=np.int64)
    qc, qd, w, u0, om, s0, s1, wb, wp, nat, sb, ds, dd, counts = (np.zeros(shape, dtype=np.int64) for shape in (
        (NVPAIRS,), (NVPAIRS,), (NVPAIRS, NVPAIRS), (NVPAIRS, 10), (10, NVPAIRS), (10, 10), (10, 10, 10),
        (NVPAIRS, 8, 10), (8, NVPAIRS, 10), (10, 10), (10, 20), (20, 10), (20, 20), (10, 2, 10, 2)))
    for i, row in enumerate(values):
        vc = np.ascontiguousarray(row)
        decide(vc, int(vc.sum()), pdraw, bdraw, base, dev, other, both, dense, qc, qd, w, u0,
               w.reshape(NVPAIRS * NVPAIRS), u0.reshape(NVPAIRS * 10), om, s0, s1, wb, wp,
               nat, sb, ds, dd, counts, out[i])
    return out
