"""Numba kernels of the exact engine (see :mod:`baccara.punto.exact` for the mathematics).

The kernels deal *labels*: a partition of the card types into classes of one
value each.  Without known cards the labels are the values 0-9; to condition a
coup on what is known of its cards (:mod:`baccara.punto.known`) the values are split
so that every position's set of allowed cards is a union of labels (the 10s
apart from J, Q, K, say).  ``lv[label]`` is a label's value.

Every function here is written so that its pure-Python form (``.py_func``)
runs unchanged on NumPy *object* arrays of Python integers: that is the exact
fallback for shoes whose counts would overflow 64-bit integers (the wrappers
that allocate int64 work arrays, ``value_cells`` and ``value_levels_kernel``,
are the int64 path only).

Pair classes of a hand's first two cards: 0 = not a pair, 1 = same rank but
different card type, 2 = same card type (for a shoe known by suit: a suited
pair).
"""

from __future__ import annotations

import functools
import types
from typing import Any

import numpy as np

from .._numba import defer_blas_probe

#: The kernels Numba compiles, by name, with their options (:func:`compiled`).
_JIT: dict[str, dict[str, Any]] = {}


def _jit(**options: Any) -> Any:
    """Mark a kernel for Numba; the function itself stays pure Python (:func:`compiled` compiles it)."""
    def mark(f: Any) -> Any:
        _JIT[f.__name__] = options
        return f
    return mark


@_jit(cache=True)
def pair_split(cnt, tv, tr, w, replacement, rank_buf, out):
    """Ordered pairs of value-``w`` cards, split by pair class.

    With n_t cards of type t, m_r of rank r and N_w of value w, the ordered
    pairs number N_w(N_w - 1) (N_w^2 with replacement); Q = sum_t n_t(n_t - 1)
    of them are the same type and R = sum_r m_r(m_r - 1) the same rank.
    Writes ``out = (N_w(N_w-1) - R, R - Q, Q)``.
    """
    for r in range(rank_buf.size):
        rank_buf[r] = 0
    n = cnt[0] * 0
    q = cnt[0] * 0
    for t in range(cnt.size):
        if tv[t] == w:
            c = cnt[t]
            n += c
            q += c * c if replacement else c * (c - 1)
            if tr[t] >= 0:
                rank_buf[tr[t]] += c
    big_r = cnt[0] * 0
    for r in range(rank_buf.size):
        m = rank_buf[r]
        big_r += m * m if replacement else m * (m - 1)
    total = n * n if replacement else n * (n - 1)
    out[0] = total - big_r
    out[1] = big_r - q
    out[2] = q


@_jit(cache=True)
def pair_tables(cnt, tv, tr, replacement, rank_buf, tmp, ps, b1, b2):
    """Class weights of first-two-card pairs that depletion couples.

    ``tv[t]`` is the label of card type t (its value, without known cards);
    ``w`` below runs over the labels.
    ``ps[w, k]``: ordered pairs of label w of class k, fresh shoe.
    ``b1[w, k]``: sum over a first card t1 of value w of n_t1 times the class-k
    pairs of value w left after t1 is gone (Player holds one w, Banker two).
    ``b2[w, k, l]``: ordered Player pairs of value w of class k times the
    class-l Banker pairs of value w left after them.
    """
    for w in range(ps.shape[0]):
        pair_split(cnt, tv, tr, w, replacement, rank_buf, tmp)
        for k in range(3):
            ps[w, k] = tmp[k]
        if replacement:
            nw = cnt[0] * 0
            for t in range(cnt.size):
                if tv[t] == w:
                    nw += cnt[t]
            for k in range(3):
                b1[w, k] = nw * ps[w, k]
                for m in range(3):
                    b2[w, k, m] = ps[w, k] * ps[w, m]
            continue
        for t1 in range(cnt.size):
            c1 = cnt[t1]
            if tv[t1] != w or c1 == 0:
                continue
            cnt[t1] -= 1
            pair_split(cnt, tv, tr, w, replacement, rank_buf, tmp)
            for m in range(3):
                b1[w, m] += c1 * tmp[m]
            for t2 in range(cnt.size):
                c2 = cnt[t2]
                if tv[t2] != w or c2 == 0:
                    continue
                if t2 == t1:
                    k = 2
                elif tr[t1] >= 0 and tr[t1] == tr[t2]:
                    k = 1
                else:
                    k = 0
                cnt[t2] -= 1
                pair_split(cnt, tv, tr, w, replacement, rank_buf, tmp)
                for m in range(3):
                    b2[w, k, m] += c1 * c2 * tmp[m]
                cnt[t2] += 1
            cnt[t1] += 1


@_jit(cache=True)
def _first_four(a, b, c, d, vc, replacement, ps, b1, b2, cw):
    """Class weights cw[k, l] of the first four cards having values (a, b, c, d).

    Player holds (a, b) with pair class k, Banker (c, d) with pair class l;
    a <= b and c <= d; the weights count the ordered deals of one order of
    each hand.  Returns True when only cw[0, 0] is set (no pair possible);
    the other entries are then stale.
    """
    if not replacement and a != b and c != d:
        nc = vc[c] - (1 if c == a else 0) - (1 if c == b else 0)
        nd = vc[d] - (1 if d == a else 0) - (1 if d == b else 0)
        cw[0, 0] = vc[a] * vc[b] * nc * nd
        return True
    for k in range(3):
        for m in range(3):
            cw[k, m] = 0
    if replacement:
        for k in range(3):
            pk = (ps[a, k] if a == b else (vc[a] * vc[b] if k == 0 else 0))
            for m in range(3):
                bm = (ps[c, m] if c == d else (vc[c] * vc[d] if m == 0 else 0))
                cw[k, m] = pk * bm
        return False
    if a != b:
        if a == c:
            for m in range(3):
                cw[0, m] = vc[b] * b1[c, m]
        elif b == c:
            for m in range(3):
                cw[0, m] = vc[a] * b1[c, m]
        else:
            for m in range(3):
                cw[0, m] = vc[a] * vc[b] * ps[c, m]
        return False
    if c != d:
        nc = vc[c] - (2 if c == a else 0)
        nd = vc[d] - (2 if d == a else 0)
        for k in range(3):
            cw[k, 0] = ps[a, k] * nc * nd
        return False
    if a == c:
        for k in range(3):
            for m in range(3):
                cw[k, m] = b2[a, k, m]
    else:
        for k in range(3):
            for m in range(3):
                cw[k, m] = ps[a, k] * ps[c, m]
    return False


def pairs_by_total(lv: tuple[int, ...] = tuple(range(10))) -> tuple[np.ndarray, np.ndarray]:
    """Unordered label pairs (a <= b) of each two-card total t = (lv[a] + lv[b]) mod 10.

    Parameters
    ----------
    lv : tuple of int
        The value of each label (default: the labels are the values 0-9).

    Returns
    -------
    pairs : numpy.ndarray
        ``pairs[t, i]`` = (a, b), the i-th pair of total t.
    npairs : numpy.ndarray
        How many pairs each total has.
    """
    n = len(lv)
    by_total: list[list[tuple[int, int]]] = [[] for _ in range(10)]
    for a in range(n):
        for b in range(a, n):
            by_total[(lv[a] + lv[b]) % 10].append((a, b))
    pairs = np.zeros((10, max(len(p) for p in by_total), 2), dtype=np.int64)
    npairs = np.zeros(10, dtype=np.int64)
    for t, ps in enumerate(by_total):
        npairs[t] = len(ps)
        for i, ab in enumerate(ps):
            pairs[t, i] = ab
    return pairs, npairs


PAIRS, NPAIRS = pairs_by_total()


@_jit(cache=True)
def coup_kernel(vc, lv, n, replacement, pdraw, bdraw, ps, b1, b2, cw, s0, s1, s2, used, pairs, npairs,
                pmult, bmult, allow5, allow6, free56, out):
    """Ordered-deal counts of every coup outcome, by pair class.

    ``out[k, l, pt, pn, bt, bn]`` (zeroed by the caller) receives the number
    of ordered six-card deals in which Player's first two cards have pair
    class k and Banker's l, Player ends on total pt with 2 + pn cards and
    Banker on bt with 2 + bn cards.  Deals that use fewer than six cards are
    counted with every continuation, so the counts sum to (N)_6 (N^6 with
    replacement) when nothing is known of the cards.

    Known cards: the deal order is Player, Banker, Player, Banker, then the
    fifth and sixth cards out of the shoe.  ``pmult[a, b]`` is the number of
    orders of an unordered Player hand of labels {a, b} that put allowed
    labels at positions 1 and 3 (2 for a != b, 1 for a == b when nothing is
    known), ``bmult`` the same for Banker at positions 2 and 4; ``allow5``,
    ``allow6`` the labels allowed at positions 5 and 6 (``free56``: all are).

    The first four cards are grouped by the two-card totals (pt, bt) that
    decide the play.  Within a group, write W for a first-four weight and r_v
    for how many of its four cards have label v; a fifth card e then a
    sixth f continue it in (n_e - r_e)(n_f - r_f - [e = f]) ways, so the
    group needs only the moments S0 = sum W, S1_v = sum W r_v and
    S2_ef = sum W r_e r_f (buffers ``s0``, ``s1``, ``s2``, per pair class):

        sum W (n_e - r_e)(n_f - [e=f] - r_f)
            = n_e (n_f - [e=f]) S0 - n_e S1_f - (n_f - [e=f]) S1_e + S2_ef.
    """
    n4 = n if replacement else n - 4
    n5 = n if replacement else n - 5
    for pt in range(10):
        for bt in range(10):
            for i in range(npairs[pt]):
                a = pairs[pt, i, 0]
                b = pairs[pt, i, 1]
                for j in range(npairs[bt]):
                    c = pairs[bt, j, 0]
                    d = pairs[bt, j, 1]
                    mult = pmult[a, b] * bmult[c, d]
                    if mult == 0:
                        continue
                    simple = _first_four(a, b, c, d, vc, replacement, ps, b1, b2, cw)
                    for km in range(1 if simple else 9):
                        k = km // 3
                        m = km % 3
                        x = cw[k, m] * mult
                        if x == 0:
                            continue
                        used[k, m] = True
                        s0[k, m] += x
                        if not replacement:
                            s1[k, m, a] += x
                            s1[k, m, b] += x
                            s1[k, m, c] += x
                            s1[k, m, d] += x
                            s2[k, m, a, a] += x
                            s2[k, m, a, b] += x
                            s2[k, m, a, c] += x
                            s2[k, m, a, d] += x
                            s2[k, m, b, a] += x
                            s2[k, m, b, b] += x
                            s2[k, m, b, c] += x
                            s2[k, m, b, d] += x
                            s2[k, m, c, a] += x
                            s2[k, m, c, b] += x
                            s2[k, m, c, c] += x
                            s2[k, m, c, d] += x
                            s2[k, m, d, a] += x
                            s2[k, m, d, b] += x
                            s2[k, m, d, c] += x
                            s2[k, m, d, d] += x
            for k in range(3):
                for m in range(3):
                    if used[k, m]:
                        if free56:
                            _emit(k, m, pt, bt, vc, lv, n4, n5, replacement, pdraw, bdraw, s0, s1, s2, out)
                        else:
                            _emit_known(k, m, pt, bt, vc, lv, replacement, pdraw, bdraw, s0, s1, s2,
                                        allow5, allow6, out)
                        used[k, m] = False
                        s0[k, m] = 0
                        s1[k, m, :] = 0
                        s2[k, m, :, :] = 0


@_jit(cache=True)
def _emit(k, m, pt, bt, vc, lv, n4, n5, replacement, pdraw, bdraw, s0, s1, s2, out):
    """Deal the rest of the coup for one group of first four cards (see coup_kernel)."""
    nl = vc.size
    w0 = s0[k, m]
    if pt >= 8 or bt >= 8:
        out[k, m, pt, 0, bt, 0] += w0 * n4 * n5
    elif not pdraw[pt]:
        if bdraw[bt, 10]:
            for f in range(nl):
                out[k, m, pt, 0, (bt + lv[f]) % 10, 1] += (vc[f] * w0 - s1[k, m, f]) * n5
        else:
            out[k, m, pt, 0, bt, 0] += w0 * n4 * n5
    else:
        for e in range(nl):
            pf = (pt + lv[e]) % 10
            if bdraw[bt, lv[e]]:
                for f in range(nl):
                    nf = vc[f] - (1 if (e == f and not replacement) else 0)
                    w = vc[e] * nf * w0 - vc[e] * s1[k, m, f] - nf * s1[k, m, e] + s2[k, m, e, f]
                    out[k, m, pf, 1, (bt + lv[f]) % 10, 1] += w
            else:
                out[k, m, pf, 1, bt, 0] += (vc[e] * w0 - s1[k, m, e]) * n5


@_jit(cache=True)
def _continuations(k, m, e, f, vc, replacement, s0, s1, s2):
    """Deals of the group (k, m) whose fifth card has label e and sixth label f (see coup_kernel)."""
    if replacement:
        return vc[e] * vc[f] * s0[k, m]
    nf = vc[f] - (1 if e == f else 0)
    return vc[e] * nf * s0[k, m] - vc[e] * s1[k, m, f] - nf * s1[k, m, e] + s2[k, m, e, f]


@_jit(cache=True)
def _emit_known(k, m, pt, bt, vc, lv, replacement, pdraw, bdraw, s0, s1, s2, allow5, allow6, out):
    """:func:`_emit` when the fifth or sixth card is known to lie in a set of labels.

    The fifth card out of the shoe is Player's third card when he draws,
    otherwise Banker's when he draws; the sixth is Banker's third card when
    both draw.  Cards a coup does not use are still the next ones in the
    shoe: the condition restricts them all the same.
    """
    nl = vc.size
    player_draws = pt < 8 and bt < 8 and pdraw[pt]
    for e in range(nl):
        if not allow5[e]:
            continue
        for f in range(nl):
            if not allow6[f]:
                continue
            w = _continuations(k, m, e, f, vc, replacement, s0, s1, s2)
            if pt >= 8 or bt >= 8:
                out[k, m, pt, 0, bt, 0] += w
            elif not player_draws:
                if bdraw[bt, 10]:
                    out[k, m, pt, 0, (bt + lv[e]) % 10, 1] += w
                else:
                    out[k, m, pt, 0, bt, 0] += w
            elif bdraw[bt, lv[e]]:
                out[k, m, (pt + lv[e]) % 10, 1, (bt + lv[f]) % 10, 1] += w
            else:
                out[k, m, (pt + lv[e]) % 10, 1, bt, 0] += w


# ---------------------------------------------------------------- the value-level kernel
def _value_tables() -> tuple[np.ndarray, ...]:
    """The 55 unordered value pairs (c <= d), sorted by total, and lookups into them.

    ``VC, VD, VT``: the pair's values and total; ``VSEG[t]:VSEG[t + 1]``: the pairs of total t;
    ``VJ[t, y]``: the one pair {y, t - y} of total t that holds a card y, and ``VK[t, y]`` how
    many y it holds (2 for a pair of y's, else 1).
    """
    pairs = sorted(((c, d) for c in range(10) for d in range(c, 10)), key=lambda p: ((p[0] + p[1]) % 10, p))
    vc = np.array([p[0] for p in pairs], dtype=np.int64)
    vd = np.array([p[1] for p in pairs], dtype=np.int64)
    vt = (vc + vd) % 10
    seg = np.searchsorted(vt, np.arange(11)).astype(np.int64)
    vj = np.array([[pairs.index((min(y, (t - y) % 10), max(y, (t - y) % 10))) for y in range(10)] for t in range(10)],
                  dtype=np.int64)
    vk = np.array([[2 if (2 * y) % 10 == t else 1 for y in range(10)] for t in range(10)], dtype=np.int64)
    return vc, vd, vt, seg, vj, vk


VC, VD, VT, VSEG, VJ, VK = _value_tables()
NVPAIRS = 55
#: Shapes of :func:`value_kernel`'s work arrays, in its argument order.
VALUE_BUFFERS = ((NVPAIRS,), (NVPAIRS,), (NVPAIRS, NVPAIRS), (NVPAIRS, 10), (10, NVPAIRS), (10, 10), (10, 10, 10),
                 (NVPAIRS, 8, 10), (8, NVPAIRS, 10), (10, 10), (10, 20), (20, 10), (20, 20))


def value_buffers(dtype: Any = np.int64) -> tuple[np.ndarray, ...]:
    """Work arrays of :func:`value_kernel` (``object``: Python integers, for the exact fallback)."""
    out = []
    for shape in VALUE_BUFFERS:
        a = np.empty(shape, dtype=dtype)
        a.fill(0)
        out.append(a)
    return tuple(out)


@_jit(cache=True, nogil=True, boundscheck=False)
def value_kernel(vc, n, replacement, pdraw, bdraw, qc, qd, w, u0, om, s0, s1, wb, wp, nat, sb, ds, dd, out):
    """Ordered-deal counts of every coup outcome by value: ``out[pt, pn, bt, bn]`` (every entry written).

    Only values matter, so the first four cards are two unordered value pairs,
    i = {a, b} for Player and j = {c, d} for Banker, of weight
    ``w[i, j]`` = (falling product of their four counts) x (orders of each pair).
    As in :func:`coup_kernel` the rest of the coup needs, for each pair of
    two-card totals (pt, bt), only the moments S0 = sum w, S1_v = sum w r_v and
    S2_ef = sum w r_e r_f, where r_v counts the value-v cards among the four:

        sum w (n_e - r_e)(n_f - [e=f] - r_f)
            = n_e (n_f - [e=f]) S0 - n_e S1_f - (n_f - [e=f]) S1_e + S2_ef.

    Each value y lies in exactly one pair of a given total t, ``VJ[t, y]``, holding
    ``VK[t, y]`` of it; so with r = p + q (Player's cards p, Banker's q) every moment
    is read off ``w`` and its sums ``u0[i, bt]`` (over Banker's pairs of total bt)
    and ``om[pt, j]`` (over Player's pairs of total pt), without visiting the
    3,025 (i, j) again:

        S1_v  = VK[pt, v] u0[VJ[pt, v], bt] + VK[bt, v] om[pt, VJ[bt, v]],
        PQ_ef = VK[pt, e] VK[bt, f] w[VJ[pt, e], VJ[bt, f]]          (QP_ef = PQ_fe),
        PP_ef = u0[VJ[pt, e], bt] x (VK[pt, e]^2 if f = e; 1 if f = pt - e != e),
        QQ_ef = om[pt, VJ[bt, e]] x (VK[bt, e]^2 if f = e; 1 if f = bt - e != e),

    (``wb`` and ``wp`` hold PQ's and QP's rows laid out for the last loop).  Write-backs
    go to offset buffers (``sb``, ``ds``, ``dd``: totals not yet taken mod 10), folded
    into ``out`` at the end.  Like every kernel here it runs in pure Python on object
    arrays (Python integers) for shoes too large for int64.
    """
    dec = 0 if replacement else 1
    n4 = n - 4 * dec
    n5 = n - 5 * dec
    for j in range(NVPAIRS):
        qc[j] = vc[VC[j]]
        qd[j] = vc[VD[j]] - (dec if VC[j] == VD[j] else 0)
    for i in range(NVPAIRS):
        a = VC[i]
        b = VD[i]
        p = vc[a] * (vc[b] - (dec if a == b else 0)) * (1 if a == b else 2)
        for j in range(NVPAIRS):  # Banker's pairs once Player's cards are gone
            c = VC[j]
            d = VD[j]
            x = qc[j] - dec * ((1 if c == a else 0) + (1 if c == b else 0))
            y = qd[j] - dec * ((1 if d == a else 0) + (1 if d == b else 0))
            w[i, j] = p * x * y * (1 if c == d else 2)
        for bt in range(10):
            u = w[i, 0] * 0
            for j in range(VSEG[bt], VSEG[bt + 1]):
                u += w[i, j]
            u0[i, bt] = u
    om[:] = 0
    s0[:] = 0
    for i in range(NVPAIRS):
        pt = VT[i]
        for j in range(NVPAIRS):
            om[pt, j] += w[i, j]
        for bt in range(10):
            s0[pt, bt] += u0[i, bt]
    if replacement:
        s1[:] = 0
    else:
        for pt in range(10):
            for bt in range(10):
                for v in range(10):
                    s1[pt, bt, v] = int(VK[pt, v]) * u0[VJ[pt, v], bt] + int(VK[bt, v]) * om[pt, VJ[bt, v]]
        for i in range(NVPAIRS):
            for bt in range(8):
                for f in range(10):
                    wb[i, bt, f] = int(VK[bt, f]) * w[i, VJ[bt, f]]
        for pt in range(8):
            if pdraw[pt]:
                for j in range(NVPAIRS):
                    for f in range(10):
                        wp[pt, j, f] = int(VK[pt, f]) * w[VJ[pt, f], j]
    nat[:] = 0
    sb[:] = 0
    ds[:] = 0
    dd[:] = 0
    for pt in range(10):
        for bt in range(10):
            w0 = s0[pt, bt]
            if pt >= 8 or bt >= 8:
                nat[pt, bt] += w0
            elif not pdraw[pt]:
                if bdraw[bt, 10]:
                    for f in range(10):
                        sb[pt, bt + f] += vc[f] * w0 - s1[pt, bt, f]
                else:
                    nat[pt, bt] += w0
            else:
                for e in range(10):
                    ae = vc[e] * w0 - s1[pt, bt, e]
                    if not bdraw[bt, e]:
                        ds[pt + e, bt] += ae
                    elif replacement:
                        for f in range(10):
                            dd[pt + e, bt + f] += vc[f] * ae
                    else:
                        ne = vc[e]
                        ie = VJ[pt, e]
                        je = VJ[bt, e]
                        kp = int(VK[pt, e])
                        kb = int(VK[bt, e])
                        for f in range(10):
                            dd[pt + e, bt + f] += vc[f] * ae - ne * s1[pt, bt, f] + kp * wb[ie, bt, f] + kb * wp[pt, je, f]
                        up = u0[ie, bt]
                        uq = om[pt, je]
                        dd[pt + e, bt + e] += kp * kp * up + kb * kb * uq - ae
                        g = (pt + 10 - e) % 10
                        if g != e:
                            dd[pt + e, bt + g] += up
                        g = (bt + 10 - e) % 10
                        if g != e:
                            dd[pt + e, bt + g] += uq
    for x in range(10):
        for y in range(10):
            out[x, 0, y, 0] = nat[x, y] * n4 * n5
            out[x, 0, y, 1] = (sb[x, y] + sb[x, y + 10]) * n5
            out[x, 1, y, 0] = (ds[x, y] + ds[x + 10, y]) * n5
            out[x, 1, y, 1] = dd[x, y] + dd[x + 10, y] + dd[x, y + 10] + dd[x + 10, y + 10]


@_jit(cache=True, nogil=True)
def _value_work():
    """:func:`value_kernel`'s work arrays in int64 (:data:`VALUE_BUFFERS`)."""
    return (np.zeros(NVPAIRS, np.int64), np.zeros(NVPAIRS, np.int64), np.zeros((NVPAIRS, NVPAIRS), np.int64),
            np.zeros((NVPAIRS, 10), np.int64), np.zeros((10, NVPAIRS), np.int64), np.zeros((10, 10), np.int64),
            np.zeros((10, 10, 10), np.int64), np.zeros((NVPAIRS, 8, 10), np.int64),
            np.zeros((8, NVPAIRS, 10), np.int64), np.zeros((10, 10), np.int64), np.zeros((10, 20), np.int64),
            np.zeros((20, 10), np.int64), np.zeros((20, 20), np.int64))


@_jit(cache=True, nogil=True)
def value_cells(vc, n, replacement, pdraw, bdraw, out):
    """:func:`value_kernel` in int64, its work arrays allocated here."""
    qc, qd, w, u0, om, s0, s1, wb, wp, nat, sb, ds, dd = _value_work()
    value_kernel(vc, n, replacement, pdraw, bdraw, qc, qd, w, u0, om, s0, s1, wb, wp, nat, sb, ds, dd, out)


@_jit(cache=True, nogil=True)
def value_levels_kernel(counts, cards, replacement, pdraw, bdraw, order, starts, matrix, lev):
    """For each shoe i (value counts ``counts[i]``, ``cards[i]`` cards): ``lev[i]`` = ``matrix`` times the
    sums of the value cells' counts over the groups ``order[starts[g]:starts[g + 1]]`` (int64).

    With cells grouped where every bet pays the same, and ``matrix[l, g]`` = 1 where group g
    pays level l, ``lev[i, l]`` counts the ordered deals in which level l is paid.
    """
    qc, qd, w, u0, om, s0, s1, wb, wp, nat, sb, ds, dd = _value_work()
    out = np.zeros((10, 2, 10, 2), np.int64)
    flat = out.reshape(400)
    ngroups = starts.size - 1
    grouped = np.zeros(ngroups, np.int64)
    for i in range(counts.shape[0]):
        value_kernel(counts[i], cards[i], replacement, pdraw, bdraw, qc, qd, w, u0, om, s0, s1, wb, wp, nat, sb, ds,
                     dd, out)
        for g in range(ngroups):
            acc = 0
            for k in range(starts[g], starts[g + 1]):
                acc += flat[order[k]]
            grouped[g] = acc
        for level in range(matrix.shape[0]):
            acc = 0
            for g in range(ngroups):
                acc += matrix[level, g] * grouped[g]
            lev[i, level] = acc


@functools.cache
def compiled() -> types.SimpleNamespace:
    """The kernels compiled by Numba (``cache=True``: loaded from Numba's cache once compiled), by name.

    Importing Numba and loading compiled code costs a process more than counting
    one coup's distribution in pure Python, so this module imports Numba only here,
    when :mod:`baccara.punto.exact` first asks for the compiled kernels.  Each kernel is its
    pure-Python function's own code, re-bound to a namespace in which the kernels it
    calls are compiled too.
    """
    from numba import njit

    defer_blas_probe()
    namespace = dict(globals())
    for name, options in _JIT.items():
        f = globals()[name]
        namespace[name] = njit(**options)(types.FunctionType(f.__code__, namespace, name, f.__defaults__,
                                                             f.__closure__))
    return types.SimpleNamespace(**{name: namespace[name] for name in _JIT})


#: The kernels in pure Python, calling one another: they run on object arrays of Python integers without
#: overflow (the exact fallback), and count a process's first distributions before Numba is loaded.
PURE_PYTHON = {name: globals()[name] for name in _JIT}
