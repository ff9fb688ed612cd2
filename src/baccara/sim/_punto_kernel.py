"""Numba kernel: punto banco shoes, every bet as a payout table over the cells.

Per shoe it writes one row of integers: hands, Banker / Player / tie wins, and
for each bet the coups it was placed on, its net result in units of
1/denominator of that bet, and the coups it won (net > 0).

A bet on the cards themselves (Player's third card is an 8; every card red:
:mod:`baccara.punto.cardengine`) is no function of the cell: it comes as a
*rule program* (:class:`~baccara.punto.cardengine.RuleProgram`), and each coup it
is placed on, the card engine's own compiled functions read the coup's cards
(:func:`card_codes`) and give the bet's payout level (:func:`card_level`).
Such bets are always tallied coup by coup.

A flat bet's totals depend only on how many coups of the shoe fell in each
cell, and most cells pay alike: the cells are grouped into *classes* of equal
winner and equal payouts of the flat bets (:func:`fold_classes`; three for
Banker, Player and tie), a shoe counts its coups per class, and the flat bets'
totals are added once per shoe.  Bets a count decides are tallied coup by coup.

When every bet is flat and blind to pairs (the main bets, say), the shoe is
dealt as card values by :func:`punto_values_chunk`: the same rows, a coup a
single look-up in :func:`coup_table`, two shoes side by side.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._numba import defer_blas_probe
from ..punto.cardengine import code_attributes
from ..punto.cardengine import compiled as card_engine
from ..punto.events import CELL_SHAPE
from .shoe_deal import CUT, deal_shoe, max_coups_cut, reach, shoe_key, shuffle_prefix

defer_blas_probe()

#: The card engine's compiled rule evaluation (one interpreter of the bet language, shared).
_CARD_ENGINE = card_engine()
coup_codes = _CARD_ENGINE.coup_codes
bet_level = _CARD_ENGINE.bet_level
#: Each card code's value, rank, suit and colour, as the card engine reads them.
CODE_VALUE, CODE_RANK, CODE_SUIT, CODE_COLOUR = code_attributes()

#: Columns before the per-bet triples.
HANDS, BANKER, PLAYER, TIE = 0, 1, 2, 3
BASE_COLUMNS = 4
#: When a bet is placed.
ALWAYS, RUNNING, TRUE = 0, 1, 2
#: Above this many classes a shoe's class counts cost more than tallying coup by coup.
MAX_CLASSES = 64


def fold_classes(pay: np.ndarray, when: np.ndarray,
                 loose: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Group the cells by winner and by the payouts of the flat bets.

    Parameters
    ----------
    pay : numpy.ndarray
        ``pay[cell, b]``: bet b's net payout numerator (int64).
    when : numpy.ndarray
        When each bet is placed (:data:`ALWAYS`, :data:`RUNNING`, :data:`TRUE`).
    loose : numpy.ndarray, optional
        Bets never folded (the bets on the cards themselves, which no cell determines).

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
        if when[b] == ALWAYS and (loose is None or not loose[b]):
            fold[b] = True
            if len(np.unique(np.concatenate([win[:, None], pay[:, fold]], axis=1), axis=0)) > MAX_CLASSES:
                fold[b] = False
    uniq, cls = np.unique(np.concatenate([win[:, None], pay[:, fold]], axis=1), axis=0, return_inverse=True)
    kpay = np.zeros((len(uniq), pay.shape[1]), dtype=np.int64)
    kpay[:, fold] = uniq[:, 1:]
    return cls.reshape(-1).astype(np.int64), uniq[:, 0].astype(np.int64), kpay, fold


@njit(cache=True, nogil=True, inline="always")
def card_codes(src, pos, cell, prog, fv):
    """Write into ``fv`` the field codes of rule program ``prog`` for the coup whose cards are ``src[pos:]``
    (P1, B1, P2, B2, then the third cards its cell says were drawn: Player's, then Banker's)."""
    p1 = np.int64(src[pos])
    b1 = np.int64(src[pos + 1])
    p2 = np.int64(src[pos + 2])
    b2 = np.int64(src[pos + 3])
    pn = (cell // 20) % 2
    bn = cell % 2
    p3 = np.int64(src[pos + 4]) if pn else np.int64(-1)
    b3 = np.int64(src[pos + 4 + pn]) if bn else np.int64(-1)
    pt = (CODE_VALUE[p1] + CODE_VALUE[p2]) % 10
    bt = (CODE_VALUE[b1] + CODE_VALUE[b2]) % 10
    coup_codes(p1, p2, p3, b1, b2, b3, pt, bt, CODE_VALUE, CODE_RANK, CODE_SUIT, CODE_COLOUR, prog[0], prog[1],
               prog[2], prog[3], prog[4], fv)


@njit(cache=True, nogil=True, inline="always")
def card_level(k, fv, prog):
    """The payout level of bet ``k`` of rule program ``prog`` for the field codes ``fv`` (:func:`card_codes`)."""
    return bet_level(k, fv, prog[5], prog[6], prog[7], prog[8], prog[9], prog[10])


@njit(cache=True, nogil=True)
def deal_coups(deck, template, mode, shuffle, coups, state, pdraw, bdraw, starts, cells, work, src):
    """Deal ``coups`` coups without a cut card (CSM or INFINITE) one at a time, keeping every coup's cards:
    coup j's six cards (drawn or not) go to ``src[6 j : 6 j + 6]`` and ``starts[j] = 6 j``.  The same cards as
    :func:`~baccara.sim.shoe_deal.deal_shoe` deals with the same state (``work``: the shoe between coups)."""
    for k in range(template.size):
        work[k] = template[k]
    for j in range(coups):
        state, _, _, _, _ = deal_shoe(deck, work, mode, shuffle, 0, 1, state, pdraw, bdraw, starts[j:], cells[j:])
        for k in range(6):
            src[6 * j + k] = deck[k]
        starts[j] = 6 * j
        for k in range(template.size):
            work[k] = deck[k]
    return state


@njit(cache=True, nogil=True)
def play_punto_shoe(key, deck, template, cut, mode, shuffle, coups, pdraw, bdraw, pay, when, lo, hi,
                    tags, initial, cls, kwin, kpay, fold, card, cpay, prog, hist, starts, cells, work, src, fv, row):
    """Deal one shoe and fill ``row`` (zeroed by the caller).

    ``deck`` (at least ``max(template.size, 6)`` cards), ``hist`` (one
    counter per class), ``starts`` and ``cells`` (room for every coup) are work
    space.  ``pay[cell, b]``: bet b's net payout numerator in that cell.
    ``when[b]``: ALWAYS, or RUNNING / TRUE: placed when the running / true
    count (running count over the decks not yet seen) lies in [lo[b], hi[b]].
    The count starts at ``initial`` and adds ``tags[rank]`` for every card
    seen: the face-up burn card and every card dealt (not the face-down
    burns).  ``cls``, ``kwin``, ``kpay``, ``fold``: :func:`fold_classes`.

    Bets on the cards themselves: ``card[b]`` is bet b's index in the rule
    program ``prog`` (-1: a bet on the cells), ``cpay[b, level]`` its net
    payout numerator at each payout level; ``card``, ``cpay`` and ``prog``
    are None when no bet reads the cards (the kernel is then compiled
    without them).  Without a cut card their coups are dealt by
    :func:`deal_coups` (``work``: a shoe, ``src``: six cards a coup); ``fv``:
    one code per field of ``prog``.
    """
    n = template.size
    nb = pay.shape[1]
    ncard = 0
    dealt = False
    if card is not None:  # (None: no bet on the cards; Numba then compiles the cells' kernel alone)
        for b in range(nb):
            if card[b] >= 0:
                ncard += 1
        if ncard > 0 and mode != CUT:
            deal_coups(deck, template, mode, shuffle, coups, key, pdraw, bdraw, starts, cells, work, src)
            nc, burned, end, first = coups, 0, 0, -1
            dealt = True
    if not dealt:
        _, nc, burned, end, first = deal_shoe(deck, template, mode, shuffle, cut, coups, key, pdraw, bdraw, starts,
                                              cells)
        src = deck
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
            if card is not None:
                if ncard > 0:
                    card_codes(src, pos, cell, prog, fv)
            for b in range(nb):
                if fold[b]:
                    continue
                wb = when[b]
                if wb != ALWAYS:
                    x = rc if wb == RUNNING else tc
                    if x < lo[b] or x > hi[b]:
                        continue
                v = pay[cell, b]
                if card is not None:
                    k = card[b]
                    if k >= 0:
                        v = cpay[b, card_level(k, fv, prog)]
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
                tags, initial, cls, kwin, kpay, fold, card, cpay, prog):
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
    ncard = 0
    nf = 0
    if card is not None:
        for b in range(card.size):
            if card[b] >= 0:
                ncard += 1
        nf = prog[0].size
    cards = mode != CUT and ncard > 0  # coups dealt one at a time, their cards kept
    work = np.empty(template.size if cards else 0, dtype=np.uint8)
    src = np.empty(6 * cap if cards else 0, dtype=np.uint8)
    fv = np.zeros(nf, dtype=np.int64)
    for i in range(out.shape[0]):
        for c in range(out.shape[1]):
            out[i, c] = 0
        play_punto_shoe(shoe_key(seed, first + i), deck, template, cut, mode, shuffle, coups, pdraw, bdraw,
                        pay, when, lo, hi, tags, initial, cls, kwin, kpay, fold, card, cpay, prog, hist, starts, cells,
                        work, src, fv, out[i])


# ---------------------------------------------------------------- the flat-bet fast path
#: Entries of :func:`coup_table`: (Player's two-card total, Banker's, the fifth and the sixth card's values).
COUP_TABLE_SIZE = 10_000


def coup_table(pdraw: np.ndarray, bdraw: np.ndarray) -> np.ndarray:
    """Every coup of the tableau ``pdraw``, ``bdraw`` as one integer: ``8 * cell + cards``.

    Entry ``((pt * 10 + bt) * 10 + v5) * 10 + v6`` is the coup whose first four
    cards make Player ``pt`` and Banker ``bt`` and whose fifth and sixth cards
    (whether drawn or not) have the values ``v5`` and ``v6``: ``cell`` is its
    cell of :data:`baccara.punto.events.CELL_SHAPE` without pairs (``kp = kb = 0``:
    below 400) and ``cards`` the cards it takes (4, 5 or 6), the same as
    :func:`~baccara.sim.shoe_deal.deal_shoe` deals it.
    """
    out = np.empty(COUP_TABLE_SIZE, dtype=np.int32)
    for pt0 in range(10):
        for bt0 in range(10):
            for v5 in range(10):
                for v6 in range(10):
                    pt, bt, pn, bn, cards = pt0, bt0, 0, 0, 4
                    if pt < 8 and bt < 8:
                        third, nxt = 10, v5
                        if pdraw[pt]:
                            third, nxt = v5, v6
                            pt, pn, cards = (pt + v5) % 10, 1, 5
                        if bdraw[bt, third]:
                            bt, bn, cards = (bt + nxt) % 10, 1, cards + 1
                    cell = ((pt * 2 + pn) * 10 + bt) * 2 + bn
                    out[((pt0 * 10 + bt0) * 10 + v5) * 10 + v6] = 8 * cell + cards
    return out


def values_fast_path(mode: int, shuffle: bool, cls: np.ndarray, fold: np.ndarray, when: np.ndarray) -> bool:
    """Whether :func:`punto_values_chunk` can deal this job: real shoes (the cut card), every bet flat and
    tallied by class, and classes blind to pairs (a card's value is then all that matters)."""
    return (mode == CUT and shuffle and bool(np.all(fold)) and bool(np.all(when == ALWAYS))
            and bool(np.all(cls.reshape(9, -1) == cls[:cls.size // 9])))


@njit(cache=True, nogil=True, inline="always")
def _value_coup(deck, pos, ctab, hist):
    """Deal the coup at ``pos`` of a shoe of values, count it in ``hist`` (by class): the next position."""
    pt = np.int64(deck[pos]) + np.int64(deck[pos + 2])
    bt = np.int64(deck[pos + 1]) + np.int64(deck[pos + 3])
    pt = pt - 10 if pt >= 10 else pt
    bt = bt - 10 if bt >= 10 else bt
    e = ctab[((pt * 10 + bt) * 10 + np.int64(deck[pos + 4])) * 10 + np.int64(deck[pos + 5])]
    hist[e >> 3] += 1
    return pos + (e & 7)


@njit(cache=True, nogil=True, inline="always")
def _value_shoe(deck, vtemplate, stop, key):
    """Reset ``deck`` to ``vtemplate``, shuffle it as far as it can be dealt and burn: the first coup's position."""
    for k in range(vtemplate.size):
        deck[k] = vtemplate[k]
    shuffle_prefix(deck, 0, stop, key)
    v = np.int64(deck[0])
    return 1 + (v if v > 0 else 10)  # the face-up card, then that many (tens and faces: 10) face down


@njit(cache=True, nogil=True, inline="always")
def _value_row(row, hist, kwin, kpay):
    """A shoe's row from its coups per class (``hist``), as :func:`play_punto_shoe` tallies flat bets."""
    for c in range(row.size):
        row[c] = 0
    for k in range(hist.size):
        x = hist[k]
        if x == 0:
            continue
        row[HANDS] += x
        row[1 + kwin[k]] += x
        for b in range(kpay.shape[1]):
            w = kpay[k, b]
            c = BASE_COLUMNS + 3 * b
            row[c] += x
            row[c + 1] += x * w
            if w > 0:
                row[c + 2] += x


@njit(cache=True, nogil=True)
def punto_values_chunk(seed, first, out, vtemplate, cut, ctab, kwin, kpay):
    """:func:`punto_chunk` for the jobs :func:`values_fast_path` accepts: the same rows, faster.

    The shoe holds card values (``vtemplate``: the template's codes mapped to
    values, in the same order), so the same shuffle deals the same values as
    :func:`punto_chunk` deals codes.  ``ctab[i]``: ``8 * class + cards`` of
    the coup :func:`coup_table` entry ``i`` (the class by :func:`fold_classes`).
    A coup is six loads, two additions and one look-up, without branches, and
    two shoes are dealt side by side, a coup of each in turn: each coup's
    position waits on the previous coup's look-up, and the other shoe's coup
    fills that wait.
    """
    n = vtemplate.size
    da = np.empty(n, dtype=np.uint8)
    db = np.empty(n, dtype=np.uint8)
    ha = np.zeros(kwin.size, dtype=np.int64)
    hb = np.zeros(kwin.size, dtype=np.int64)
    stop = reach(n, cut)
    lim = n - cut  # the last coup is the first to start at or past the cut card
    m = out.shape[0]
    for i in range(0, m, 2):
        two = i + 1 < m
        for k in range(ha.size):
            ha[k] = 0
            hb[k] = 0
        pa = _value_shoe(da, vtemplate, stop, shoe_key(seed, first + i))
        pb = _value_shoe(db, vtemplate, stop, shoe_key(seed, first + i + 1)) if two else 0
        sa = -1  # where the previous coup started: every shoe deals a first coup
        sb = -1 if two else lim
        while sa < lim and sb < lim:
            sa = pa
            sb = pb
            pa = _value_coup(da, pa, ctab, ha)
            pb = _value_coup(db, pb, ctab, hb)
        while sa < lim:
            sa = pa
            pa = _value_coup(da, pa, ctab, ha)
        while sb < lim:
            sb = pb
            pb = _value_coup(db, pb, ctab, hb)
        _value_row(out[i], ha, kwin, kpay)
        if two:
            _value_row(out[i + 1], hb, kwin, kpay)


# ---------------------------------------------------------------- folding shoes into tallies, in the worker
#: Shoes dealt into a small table at a time and folded (a block of rows stays in the cache).
FOLD_BLOCK = 256


@njit(cache=True, nogil=True)
def fold_rows(rows, acc, cols, pa, pb):
    """Add the rows' columns ``cols`` and the products of the column pairs ``(pa[p], pb[p])`` to ``acc``.

    ``acc[i]`` (i < cols.size) takes the sum of column ``cols[i]``, ``acc[cols.size + p]`` the sum of
    ``rows[:, pa[p]] * rows[:, pb[p]]``; the caller has checked that these int64 sums cannot overflow.
    """
    nc = cols.size
    for r in range(rows.shape[0]):
        row = rows[r]
        for i in range(nc):
            acc[i] += row[cols[i]]
        for p in range(pa.size):
            acc[nc + p] += row[pa[p]] * row[pb[p]]


@njit(cache=True, nogil=True)
def punto_values_fold(seed, first, n, acc, cols, pa, pb, vtemplate, cut, ctab, kwin, kpay):
    """:func:`punto_values_chunk` for shoes ``first .. first + n - 1``, their rows folded into ``acc``
    (:func:`fold_rows`) a block at a time instead of kept: a worker deals a whole run of shoes in one call."""
    buf = np.empty((min(n, FOLD_BLOCK), BASE_COLUMNS + 3 * kpay.shape[1]), dtype=np.int64)
    for s in range(0, n, FOLD_BLOCK):
        m = min(FOLD_BLOCK, n - s)
        punto_values_chunk(seed, first + s, buf[:m], vtemplate, cut, ctab, kwin, kpay)
        fold_rows(buf[:m], acc, cols, pa, pb)


@njit(cache=True, nogil=True)
def punto_fold(seed, first, n, acc, cols, pa, pb, template, cut, mode, shuffle, coups, pdraw, bdraw, pay, when,
               lo, hi, tags, initial, cls, kwin, kpay, fold, card, cpay, prog):
    """:func:`punto_chunk` for shoes ``first .. first + n - 1``, their rows folded into ``acc``
    (:func:`fold_rows`) a block at a time instead of kept."""
    buf = np.empty((min(n, FOLD_BLOCK), BASE_COLUMNS + 3 * pay.shape[1]), dtype=np.int64)
    for s in range(0, n, FOLD_BLOCK):
        m = min(FOLD_BLOCK, n - s)
        punto_chunk(seed, first + s, buf[:m], template, cut, mode, shuffle, coups, pdraw, bdraw, pay, when, lo, hi,
                    tags, initial, cls, kwin, kpay, fold, card, cpay, prog)
        fold_rows(buf[:m], acc, cols, pa, pb)
