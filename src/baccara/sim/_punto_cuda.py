"""CUDA kernels (numba-cuda): punto banco shoes, one GPU thread per shoe, the CPU kernels' rows exactly.

These are the CPU kernels of :mod:`baccara.sim._punto_kernel` written again for
the GPU, step for step, so that shoe ``i`` of a job seeded ``s`` is the same
shoe on both: the same counter-based stream (:func:`~baccara.sim.shoe_deal.shoe_key`
fed to splitmix64, the same Fisher-Yates draws two positions per 64-bit output:
:mod:`baccara.sim.shoe_deal`'s own functions compiled as device functions), the
same burn, cut card and one more coup, and the same tallies: per-shoe rows of
integers, and a count's running and true counts as the same float64 sums in the
same order.

* :func:`general_kernel` is :func:`~baccara.sim._punto_kernel.punto_chunk`: cards
  as codes (pairs visible), every deal mode (cut card, continuous shuffler,
  infinite shoe), bets folded into classes of cells or tallied coup by coup,
  count-driven bets (running or true count in a range), and bets on the cards
  themselves, whose coups are read by the card engine's own functions
  (:func:`baccara.punto.cardengine.coup_functions`, compiled as device functions).
* :func:`values_kernel` is :func:`~baccara.sim._punto_kernel.punto_values_chunk`:
  flat bets blind to pairs on real shoes, the shoe dealt as card values and
  each coup one look-up in the coup table (held in shared memory).
* :func:`histogram_kernel` is the histogram of the count before each coup of
  :func:`baccara.sim.count_design.count_histogram` (``count design``), for a bet
  on the cells or on the cards.
* :func:`perfect_kernel` is :func:`~baccara.sim._perfect_kernel.perfect_chunk`,
  the perfect counter on bets on card values: not written again but the CPU's
  :func:`~baccara.sim._perfect_kernel.perfect_shoe` (the deal and the exact
  engine's value-level counts) compiled as device functions, a shoe a thread;
  :func:`perfect_ev_kernel` is :func:`~baccara.sim._perfect_kernel.perfect_ev_chunk`,
  the count analysis's perfect counter, whose rows and every coup's expectation
  come back for the CPU to sum as it sums its own.

A kernel either writes each shoe's row (``--out``, or sums that could overflow
int64) or adds, per thread, the columns and the products of pairs of columns
that :func:`baccara.sim.results.column_sums` computes, and adds them to the
launch's totals with integer atomics: exact, in any order.

Array sizes (cards in the shoe, classes, columns) are compile-time constants
of a kernel, which is built and cached once per shape.  Only the GPU backend
(:mod:`baccara.sim.gpu`) imports this module; it needs ``numba-cuda``.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import numpy as np
from numba import cuda as _cuda
from numba import types

from .._numba import retarget
from ..punto.cardengine import code_attributes, coup_functions
from . import shoe_deal
from .shoe_deal import CSM, CUT

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MASK32 = np.uint64(0xFFFFFFFF)
_TWO32 = np.uint64(0x100000000)
_S32 = np.uint64(32)
#: numba-cuda's intrinsics (grid, local arrays, atomics) are typing templates that mypy cannot read.
cuda: Any = _cuda
#: The card engine's functions that read a dealt coup, as CUDA device functions: the CPU's code, not a copy.
_RULES = coup_functions(cuda.jit(device=True))
_coup_codes = _RULES.coup_codes
_bet_level = _RULES.bet_level
#: Each card code's value, rank, suit and colour, as the card engine reads them (constant arrays on the GPU).
_CV, _CR, _CS, _CC = (np.array(a) for a in code_attributes())
#: Entries of the coup table (:func:`baccara.sim._punto_kernel.coup_table`).
COUP_TABLE_SIZE = 10_000


# ---------------------------------------------------------------- the stream: baccara.sim.shoe_deal's own source
def _bounded(state, r, n):
    """(state, uniform integer in [0, n)) from 32 random bits ``r``: Lemire's method, rejections redrawn (the
    GPU's :func:`baccara.sim.shoe_deal.bounded`).

    ``r`` and ``n`` are below 2^32: as 32-bit values widened, their product is one 32 x 32 -> 64-bit
    multiply on the GPU (``mul.wide.u32``) instead of a 64-bit one; the values are the CPU's."""
    un = np.uint64(np.uint32(n))
    m = np.uint64(np.uint32(r)) * un
    low = m & _MASK32
    if low < un:
        t = (_TWO32 - un) % un
        while low < t:
            state = state + _GOLDEN
            r = mix64(state) >> _S32
            m = np.uint64(np.uint32(r)) * un
            low = m & _MASK32
    return state, np.int64(m >> _S32)


#: The counter-based stream of :mod:`baccara.sim.shoe_deal` as CUDA device functions, compiled from the CPU's
#: own source (:func:`baccara._numba.retarget`): the splitmix64 finaliser, each shoe's key, the Fisher-Yates
#: prefix (two positions per 64-bit output) and the infinite shoe's draws, calling :func:`_bounded` for
#: Lemire's step (the one function written for the GPU: the same values from a cheaper multiply).
_STREAM = retarget(cuda.jit(device=True), {"mix64": shoe_deal.mix64, "shoe_key": shoe_deal.shoe_key,
                                           "shuffle_prefix": shoe_deal.shuffle_prefix,
                                           "fill_infinite": shoe_deal.fill_infinite, "bounded": _bounded})
mix64 = _STREAM["mix64"]
shoe_key = _STREAM["shoe_key"]
#: ``shuffle_prefix(deck, start, stop, state)``: Fisher-Yates steps for positions ``start .. stop - 1`` of
#: ``deck`` (all of it the shoe: every kernel's deck holds exactly the shoe's cards, at least 52).
shuffle_prefix = _STREAM["shuffle_prefix"]
fill_infinite = _STREAM["fill_infinite"]


@cuda.jit(device=True)
def value(code):
    """A card code's baccarat value: aces 1, 2-9 their pips, tens and faces 0."""
    r = np.int64(code) >> 2
    return r + 1 if r < 9 else np.int64(0)


@cuda.jit(device=True)
def burn(top):
    """Cards a burn removes after the face-up card ``top``: it, then its value face down (tens and faces 10)."""
    r = np.int64(top) >> 2
    return r + np.int64(2) if r < 9 else np.int64(11)


@cuda.jit(device=True)
def pair_class(c1, c2):
    """0: no pair; 1: equal rank, other suit; 2: identical code."""
    if c1 == c2:
        return np.int64(2)
    return np.int64(1) if (c1 >> 2) == (c2 >> 2) else np.int64(0)


@cuda.jit(device=True)
def deal_coup(deck, pos, pdraw, bdraw):
    """The coup dealt from ``deck[pos:]`` by the tableau: its cell (pair classes, totals, third cards drawn,
    as :data:`baccara.punto.events.CELL_SHAPE` orders them) and the position after its cards."""
    p1 = deck[pos]
    b1 = deck[pos + 1]
    p2 = deck[pos + 2]
    b2 = deck[pos + 3]
    pos += 4
    pt = (value(p1) + value(p2)) % 10
    bt = (value(b1) + value(b2)) % 10
    pn = 0
    bn = 0
    if pt < 8 and bt < 8:
        third = np.int64(10)
        if pdraw[pt]:
            third = value(deck[pos])
            pos += 1
            pt = (pt + third) % 10
            pn = 1
        if bdraw[bt, third]:
            bt = (bt + value(deck[pos])) % 10
            pos += 1
            bn = 1
    cell = ((((pair_class(p1, p2) * 3 + pair_class(b1, b2)) * 10 + pt) * 2 + pn) * 10 + bt) * 2 + bn
    return cell, pos


# ---------------------------------------------------------------- bets on the cards themselves
@cuda.jit(device=True)
def card_codes(deck, pos, cell, ftype, fside, fslot, fattr, early, fv):
    """Write into ``fv`` the field codes of a rule program for the coup whose cards are ``deck[pos:]``, as
    :func:`baccara.sim._punto_kernel.card_codes` does (P1, B1, P2, B2, then the drawn third cards)."""
    p1 = np.int64(deck[pos])
    b1 = np.int64(deck[pos + 1])
    p2 = np.int64(deck[pos + 2])
    b2 = np.int64(deck[pos + 3])
    pn = (cell // 20) % 2
    bn = cell % 2
    p3 = np.int64(deck[pos + 4]) if pn else np.int64(-1)
    b3 = np.int64(deck[pos + 4 + pn]) if bn else np.int64(-1)
    pt = (_CV[p1] + _CV[p2]) % 10
    bt = (_CV[b1] + _CV[b2]) % 10
    _coup_codes(p1, p2, p3, b1, b2, b3, pt, bt, _CV, _CR, _CS, _CC, ftype, fside, fslot, fattr, early, fv)


# ---------------------------------------------------------------- one shoe, one row
@cuda.jit(device=True)
def play_shoe(key, deck, n, template, cut, mode, coups, pdraw, bdraw, pay, when, lo, hi, tags, initial,
              cls, kwin, kpay, fold, loose, counting, ncard, card, cpay, ftype, fside, fslot, fattr, early, cfield,
              allowed, rstart, rlevel, bstart, botherwise, fv, hist, row):
    """Deal one shoe into ``row`` as :func:`~baccara.sim._punto_kernel.play_punto_shoe` does.

    Bets on the cards themselves (``ncard`` of them): ``card[b]`` is bet b's index in the rule program
    (``ftype`` .. ``botherwise``; -1: a bet on the cells), ``cpay[b, level]`` its payout; each coup's cards are
    read where they lie in ``deck`` (the shoe, or the six cards a coup of a shuffler or an infinite shoe takes)
    into the field codes ``fv`` by the card engine's own functions.

    The coups are tallied as they are dealt (the CPU kernel deals the shoe first and
    tallies after; the order of integer additions does not matter, and the count
    adds the same cards' tags in the same order)."""
    nb = pay.shape[1]
    state = key
    for k in range(n):
        deck[k] = template[k]
    for k in range(hist.shape[0]):
        hist[k] = 0
    for k in range(row.shape[0]):
        row[k] = 0
    pos = np.int64(0)
    rc = initial
    hidden = np.int64(0)
    if mode == CUT:
        stop = min(n, n - cut + 11)  # shoe_deal.reach
        state = shuffle_prefix(deck, np.int64(0), stop, state)
        top = np.int64(deck[0])
        burned = burn(top)
        pos = burned
        rc += tags[top >> 2]
        hidden = burned - 1
    j = 0
    prev = np.int64(-1)
    while True:
        if mode == CUT:
            if prev >= n - cut:
                break
        else:
            if j >= coups:
                break
            if mode == CSM:
                state = shuffle_prefix(deck, np.int64(0), np.int64(6), state)
            else:
                state = fill_infinite(deck, 6, state)
            pos = np.int64(0)
        prev = pos
        start = pos
        cell, pos = deal_coup(deck, pos, pdraw, bdraw)
        hist[cls[cell]] += 1
        if loose:
            tc = rc * 52.0 / (n - start + hidden) if counting else 0.0
            if ncard > 0:
                card_codes(deck, start, cell, ftype, fside, fslot, fattr, early, fv)
            for b in range(nb):
                if fold[b]:
                    continue
                wb = when[b]
                if wb != 0:
                    x = rc if wb == 1 else tc
                    if x < lo[b] or x > hi[b]:
                        continue
                v = pay[cell, b]
                kb = card[b]
                if kb >= 0:
                    v = cpay[b, _bet_level(kb, fv, cfield, allowed, rstart, rlevel, bstart, botherwise)]
                c = 4 + 3 * b
                row[c] += 1
                row[c + 1] += v
                if v > 0:
                    row[c + 2] += 1
            if counting:
                for i in range(start, pos):
                    rc += tags[deck[i] >> 2]
        j += 1
    fold_row(hist, kwin, kpay, fold, row)


@cuda.jit(device=True)
def fold_row(hist, kwin, kpay, fold, row):
    """Add the coups per class (``hist``) to ``row``: hands, winners, and the folded bets."""
    for k in range(hist.shape[0]):
        x = hist[k]
        if x == 0:
            continue
        row[0] += x
        row[1 + kwin[k]] += x
        for b in range(kpay.shape[1]):
            if fold[b]:
                v = kpay[k, b]
                c = 4 + 3 * b
                row[c] += x
                row[c + 1] += x * v
                if v > 0:
                    row[c + 2] += x


@cuda.jit(device=True)
def emit(i, row, sel, pa, pb, out, acc, rows):
    """Row ``i`` out (``rows``), or its columns ``sel`` and products ``pa * pb`` added to ``acc``."""
    if rows:
        for c in range(row.shape[0]):
            out[i, c] = row[c]
        return
    ns = sel.shape[0]
    for c in range(ns):
        acc[c] += row[sel[c]]
    for k in range(pa.shape[0]):
        acc[ns + k] += row[pa[k]] * row[pb[k]]


@cuda.jit(device=True)
def flush(acc, sums, rows):
    """Add a thread's sums to the launch's totals (integer atomics: exact in any order)."""
    if rows:
        return
    for k in range(acc.shape[0]):
        if acc[k] != 0:
            cuda.atomic.add(sums, k, acc[k])


# ---------------------------------------------------------------- kernels, one per shape
@lru_cache(maxsize=32)
def general_kernel(n: int, classes: int, columns: int, nsums: int, rows: bool, fields: int = 0):
    """The general kernel for a shoe of ``n`` cards, ``classes`` classes, ``columns`` row columns, and a rule
    program of ``fields`` fields (bets on the cards themselves; 0: none).

    ``kernel[blocks, threads](seed, first, count, template, cut, mode, coups, pdraw, bdraw, pay, when, lo, hi,
    tags, initial, cls, kwin, kpay, fold, loose, counting, ncard, card, cpay, ftype, fside, fslot, fattr, early,
    cfield, allowed, rstart, rlevel, bstart, botherwise, sel, pa, pb, out, sums)``: shoes ``first .. first +
    count - 1``, a grid-stride loop, one thread per shoe at a time."""
    deck_size = max(n, 6)
    acc_size = max(nsums, 1)
    fv_size = max(fields, 1)

    @cuda.jit
    def kernel(seed, first, count, template, cut, mode, coups, pdraw, bdraw, pay, when, lo, hi, tags, initial,
               cls, kwin, kpay, fold, loose, counting, ncard, card, cpay, ftype, fside, fslot, fattr, early, cfield,
               allowed, rstart, rlevel, bstart, botherwise, sel, pa, pb, out, sums):
        deck = cuda.local.array(deck_size, types.uint8)
        hist = cuda.local.array(classes, types.int64)
        row = cuda.local.array(columns, types.int64)
        acc = cuda.local.array(acc_size, types.int64)
        fv = cuda.local.array(fv_size, types.int64)
        for k in range(fv_size):
            fv[k] = 0
        for k in range(acc_size):
            acc[k] = 0
        i = cuda.grid(1)
        stride = cuda.gridsize(1)
        while i < count:
            play_shoe(shoe_key(seed, first + i), deck, n, template, cut, mode, coups, pdraw, bdraw, pay, when,
                      lo, hi, tags, initial, cls, kwin, kpay, fold, loose, counting, ncard, card, cpay, ftype, fside,
                      fslot, fattr, early, cfield, allowed, rstart, rlevel, bstart, botherwise, fv, hist, row)
            emit(i, row, sel, pa, pb, out, acc, rows)
            i += stride
        flush(acc, sums, rows)

    return kernel


@cuda.jit(device=True)
def value_coup(deck, pos, ctab, hist):
    """The coup at ``pos`` of a shoe of values counted in ``hist`` by class: the next position."""
    pt = np.int64(deck[pos]) + np.int64(deck[pos + 2])
    bt = np.int64(deck[pos + 1]) + np.int64(deck[pos + 3])
    pt = pt - 10 if pt >= 10 else pt
    bt = bt - 10 if bt >= 10 else bt
    e = np.int64(ctab[((pt * 10 + bt) * 10 + np.int64(deck[pos + 4])) * 10 + np.int64(deck[pos + 5])])
    hist[e >> 3] += 1
    return pos + (e & 7)


@lru_cache(maxsize=32)
def values_kernel(n: int, classes: int, columns: int, nsums: int, rows: bool):
    """The flat-bet kernel (:func:`~baccara.sim._punto_kernel.punto_values_chunk`) for a shoe of ``n`` cards.

    ``kernel[blocks, threads](seed, first, count, vtemplate, cut, ctab, kwin, kpay, fold, sel, pa, pb, out,
    sums)``; ``ctab`` (int16: ``8 * class + cards``) is copied to shared memory by each block."""
    acc_size = max(nsums, 1)

    @cuda.jit
    def kernel(seed, first, count, vtemplate, cut, ctab, kwin, kpay, fold, sel, pa, pb, out, sums):
        table = cuda.shared.array(COUP_TABLE_SIZE, types.int16)
        k = cuda.threadIdx.x
        while k < COUP_TABLE_SIZE:
            table[k] = ctab[k]
            k += cuda.blockDim.x
        cuda.syncthreads()
        deck = cuda.local.array(n, types.uint8)
        hist = cuda.local.array(classes, types.int64)
        row = cuda.local.array(columns, types.int64)
        acc = cuda.local.array(acc_size, types.int64)
        for k in range(acc_size):
            acc[k] = 0
        stop = min(n, n - cut + 11)
        lim = n - cut  # the last coup is the first to start at or past the cut card
        i = cuda.grid(1)
        stride = cuda.gridsize(1)
        while i < count:
            for k in range(n):
                deck[k] = vtemplate[k]
            shuffle_prefix(deck, np.int64(0), stop, shoe_key(seed, first + i))
            for k in range(classes):
                hist[k] = 0
            for k in range(columns):
                row[k] = 0
            v = np.int64(deck[0])
            pos = 1 + (v if v > 0 else np.int64(10))  # the face-up card, then that many face down
            s = np.int64(-1)
            while s < lim:
                s = pos
                pos = value_coup(deck, pos, table, hist)
            fold_row(hist, kwin, kpay, fold, row)
            emit(i, row, sel, pa, pb, out, acc, rows)
            i += stride
        flush(acc, sums, rows)

    return kernel


@lru_cache(maxsize=8)
def histogram_kernel(n: int, bins: int, fields: int = 0):
    """The count's histogram (``count design``) for a shoe of ``n`` cards and ``bins`` bins, for a bet on the
    cells, or (``fields`` > 0) on the cards themselves through a rule program of ``fields`` fields.

    ``kernel[blocks, threads](seed, first, count, template, cut, pdraw, bdraw, pay, tags, initial, running, low,
    step, card, cpay, ftype, fside, fslot, fattr, early, cfield, allowed, rstart, rlevel, bstart, botherwise, hn,
    hv)``: per bin of the count before each coup, the coups and the bet's net, as
    :func:`baccara.sim.count_design.count_histogram` tallies them (per thread, then integer atomics).  ``card``:
    the bet's index in the rule program (-1: a bet on the cells, paid ``pay[cell]``), ``cpay[level]`` its
    payouts."""
    fv_size = max(fields, 1)

    @cuda.jit
    def kernel(seed, first, count, template, cut, pdraw, bdraw, pay, tags, initial, running, low, step, card, cpay,
               ftype, fside, fslot, fattr, early, cfield, allowed, rstart, rlevel, bstart, botherwise, hn, hv):
        fv = cuda.local.array(fv_size, types.int64)
        for k in range(fv_size):
            fv[k] = 0
        deck = cuda.local.array(n, types.uint8)
        mine = cuda.local.array(bins, types.int64)
        net = cuda.local.array(bins, types.int64)
        for k in range(bins):
            mine[k] = 0
            net[k] = 0
        i = cuda.grid(1)
        stride = cuda.gridsize(1)
        while i < count:
            for k in range(n):
                deck[k] = template[k]
            shuffle_prefix(deck, np.int64(0), min(n, n - cut + 11), shoe_key(seed, first + i))
            top = np.int64(deck[0])
            burned = burn(top)
            rc = initial + tags[top >> 2]
            hidden = burned - 1
            pos = burned
            prev = np.int64(-1)
            while prev < n - cut:
                prev = pos
                start = pos
                cell, pos = deal_coup(deck, pos, pdraw, bdraw)
                x = rc if running else rc * 52.0 / (n - start + hidden)
                b = int(math.floor((x - low) / step))
                b = min(max(b, 0), bins - 1)
                mine[b] += 1
                if card >= 0:
                    card_codes(deck, start, cell, ftype, fside, fslot, fattr, early, fv)
                    net[b] += cpay[_bet_level(card, fv, cfield, allowed, rstart, rlevel, bstart, botherwise)]
                else:
                    net[b] += pay[cell]
                for c in range(start, pos):
                    rc += tags[deck[c] >> 2]
            i += stride
        for k in range(bins):
            if mine[k] != 0:
                cuda.atomic.add(hn, k, mine[k])
                cuda.atomic.add(hv, k, net[k])

    return kernel


# ---------------------------------------------------------------- the perfect counter
#: Work arrays of one shoe of the perfect counter that each GPU thread holds in global memory: the deck, the
#: coups' starts and cells, then :func:`baccara.punto.kernel.value_kernel`'s ``w`` and ``u0``, and (only for a
#: dense plan) ``om``, ``wb``, ``wp``.  Some 30 KB a thread (100 KB dense): more than local memory should
#: reserve for every thread the GPU can hold, so a launch allocates them for its own threads, each array with
#: the thread last (thread t's ``w`` is ``w[:, :, t]``): the threads of a warp, which run the same loops over
#: the same indices, read and write adjacent words, as local memory lays them out.
PERFECT_WORK = ("deck", "starts", "cells", "w", "u0", "om", "wb", "wp")
#: Those only a dense plan reads (:func:`baccara.sim._perfect_kernel.decide`).
PERFECT_DENSE_WORK = ("om", "wb", "wp")


def perfect_work_shapes(n: int, cap: int) -> dict[str, tuple[int, ...]]:
    """The shapes of :data:`PERFECT_WORK` for one thread, a shoe of ``n`` cards and ``cap`` coups at most."""
    p = 55  # baccara.punto.kernel.NVPAIRS
    return {"deck": (max(n, 6),), "starts": (cap,), "cells": (cap,), "w": (p, p), "u0": (p, 10), "om": (10, p),
            "wb": (p, 8, 10), "wp": (8, p, 10)}


@lru_cache(maxsize=1)
def _perfect_functions() -> dict[str, Any]:
    """The CPU's perfect counter (:func:`baccara.sim._perfect_kernel.perfect_shoe` and all it calls) as CUDA
    device functions: the same source."""
    from . import _perfect_kernel as PK  # lazy: the perfect counter's modules, only when it runs on the GPU

    return PK.device_functions(cuda.jit(device=True))


@lru_cache(maxsize=16)
def perfect_kernel(columns: int, nsums: int, rows: bool, bets: int):
    """The perfect counter on bets on card values, one GPU thread per shoe, the CPU's rows.

    ``kernel[blocks, threads](seed, first, count, template, cut, every, pdraw, bdraw, pay, base, dev, other, both,
    dense, rising, full, deck, starts, cells, w, u0, wf, u0f, om, wb, wp, evs, dens, sel, pa, pb, out, sums,
    taken)``: shoes ``first .. first + count - 1`` (a grid-stride loop), each dealt and priced by
    :func:`baccara.sim._perfect_kernel.perfect_shoe` compiled for the GPU, its row written out or added to the
    launch's sums (:func:`emit`); ``taken`` gets the decisions taken and those priced.  The work arrays ``deck`` ..
    ``wp`` (:data:`PERFECT_WORK`) have one slice per thread of the grid, the thread's index last (``om``, ``wb``,
    ``wp`` one slice for all when the plan is not dense: never read then); ``wf`` and ``u0f`` are ``w`` and ``u0``
    with each thread's slice flat (the same memory).  The small arrays are the thread's local arrays.  ``evs``
    (no rows) and ``dens``: no coup's expectation is kept."""
    fn = _perfect_functions()
    perfect_shoe = fn["perfect_shoe"]
    key = fn["shoe_key"]
    acc_size = max(nsums, 1)
    p = 55

    @cuda.jit
    def kernel(seed, first, count, template, cut, every, pdraw, bdraw, pay, base, dev, other, both, dense, rising,
               full, deck, starts, cells, w, u0, wf, u0f, om, wb, wp, evs, dens, sel, pa, pb, out, sums, taken):
        vc = cuda.local.array(10, types.int64)
        num = cuda.local.array(bets, types.int64)
        on = cuda.local.array(bets, types.boolean)
        above = cuda.local.array(bets, types.int64)
        qc = cuda.local.array(p, types.int64)
        qd = cuda.local.array(p, types.int64)
        s0 = cuda.local.array((10, 10), types.int64)
        s1 = cuda.local.array((10, 10, 10), types.int64)
        nat = cuda.local.array((10, 10), types.int64)
        sb = cuda.local.array((10, 20), types.int64)
        ds = cuda.local.array((20, 10), types.int64)
        dd = cuda.local.array((20, 20), types.int64)
        counts = cuda.local.array((10, 2, 10, 2), types.int64)
        row = cuda.local.array(columns, types.int64)
        acc = cuda.local.array(acc_size, types.int64)
        for k in range(acc_size):
            acc[k] = 0
        for b in range(bets):
            on[b] = False
            above[b] = 0
        t = cuda.grid(1)
        stride = cuda.gridsize(1)
        d = t if om.shape[2] > 1 else 0  # the dense plan's arrays: one slice per thread, else one for all
        decisions = np.int64(0)
        priced = np.int64(0)
        i = t
        while i < count:
            x, y = perfect_shoe(key(seed, first + i), deck[:, t], template, cut, every, pdraw, bdraw, pay, base, dev,
                                other, both, dense, rising, full, vc, num, on, above, qc, qd, w[:, :, t], u0[:, :, t],
                                wf[:, t], u0f[:, t], om[:, :, d], s0, s1, wb[:, :, :, d], wp[:, :, :, d], nat, sb, ds,
                                dd, counts, starts[:, t], cells[:, t], row, evs, dens, False)
            decisions += x
            priced += y
            emit(i, row, sel, pa, pb, out, acc, rows)
            i += stride
        flush(acc, sums, rows)
        if decisions != 0:
            cuda.atomic.add(taken, 0, decisions)
            cuda.atomic.add(taken, 1, priced)

    return kernel


@lru_cache(maxsize=4)
def perfect_ev_kernel(columns: int):
    """The count analysis's perfect counter on a bet on card values, one GPU thread per shoe, the CPU's rows.

    ``kernel[blocks, threads](seed, first, count, template, cut, every, pdraw, bdraw, pay, base, dev, other, both,
    dense, rising, full, deck, starts, cells, w, u0, wf, u0f, om, wb, wp, dens, price_all, out, evs, taken)``: shoes
    ``first .. first + count - 1`` (a grid-stride loop), each dealt and priced by
    :func:`baccara.sim._perfect_kernel.perfect_ev_shoe` compiled for the GPU (the CPU's
    :func:`~baccara.sim._perfect_kernel.perfect_ev_chunk` deals each shoe by the same function): ``out[i]`` gets
    shoe i's row (:data:`baccara.sim.count_analysis.COLUMNS`), ``evs[i, j, 0]`` its coup j's expectation (the
    same float as the CPU's), for the CPU to sum as it sums its own.  ``columns``: the width of
    :func:`~baccara.sim._perfect_kernel.perfect_shoe`'s row (one bet); the work arrays as for
    :func:`perfect_kernel`; ``taken`` gets the decisions taken and those priced."""
    fn = _perfect_functions()
    shoe = fn["perfect_ev_shoe"]
    key = fn["shoe_key"]
    p = 55

    @cuda.jit
    def kernel(seed, first, count, template, cut, every, pdraw, bdraw, pay, base, dev, other, both, dense, rising,
               full, deck, starts, cells, w, u0, wf, u0f, om, wb, wp, dens, price_all, out, evs, taken):
        vc = cuda.local.array(10, types.int64)
        num = cuda.local.array(1, types.int64)
        on = cuda.local.array(1, types.boolean)
        above = cuda.local.array(1, types.int64)
        qc = cuda.local.array(p, types.int64)
        qd = cuda.local.array(p, types.int64)
        s0 = cuda.local.array((10, 10), types.int64)
        s1 = cuda.local.array((10, 10, 10), types.int64)
        nat = cuda.local.array((10, 10), types.int64)
        sb = cuda.local.array((10, 20), types.int64)
        ds = cuda.local.array((20, 10), types.int64)
        dd = cuda.local.array((20, 20), types.int64)
        counts = cuda.local.array((10, 2, 10, 2), types.int64)
        row = cuda.local.array(columns, types.int64)
        on[0] = False
        above[0] = 0
        t = cuda.grid(1)
        stride = cuda.gridsize(1)
        d = t if om.shape[2] > 1 else 0  # the dense plan's arrays: one slice per thread, else one for all
        decisions = np.int64(0)
        priced = np.int64(0)
        i = t
        while i < count:
            x, y = shoe(key(seed, first + i), deck[:, t], template, cut, every, pdraw, bdraw, pay, base, dev, other,
                        both, dense, rising, full, vc, num, on, above, qc, qd, w[:, :, t], u0[:, :, t], wf[:, t],
                        u0f[:, t], om[:, :, d], s0, s1, wb[:, :, :, d], wp[:, :, :, d], nat, sb, ds, dd, counts,
                        starts[:, t], cells[:, t], row, evs[i], dens, price_all, out[i])
            decisions += x
            priced += y
            i += stride
        if decisions != 0:
            cuda.atomic.add(taken, 0, decisions)
            cuda.atomic.add(taken, 1, priced)

    return kernel
