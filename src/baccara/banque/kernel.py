"""Numba kernels: baccara banque's ordered-deal sums, Banker standing by default.

See :mod:`baccara.banque.model` for the mathematics.  Both kernels write,
for the Players' pure strategies (u1, u2) at total 5:

- ``base[p, c]``: Player p's (0: Player 1, 1: Player 2) result summed over the
  deals in which Player 1 shows c (his third card 0-9, 10 stood, 11 natural;
  12: play ended by Banker's natural or two Player naturals), Banker standing
  everywhere (split by c because in the full models Player 2 decides on what
  Player 1 shows);
- ``gain[p, k1, k2, j]``: the change in Player p's result when Banker draws
  rather than stands at (k1, k2, j).

Every deal is counted as nine cards (three two-card hands, then up to three
third cards; cards a deal does not use are dealt and ignored), so all sums are
integers over N^9 (with replacement) or (N)_9 (without), N the cards in the shoe.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..rules import player_draws_jit as _draws
from ..solve.signs import sgn

STOOD, NATURAL, ENDED = 10, 11, 12


@njit(cache=True)
def _player(i, u, k):
    """(what Banker sees, final total, weight over 13) for a Player with total i and strategy u
    whose third card, if he draws, has value k (the infinite shoe: a value-0 card is 4 of 13)."""
    if i >= 8:
        return NATURAL, i, 13
    if _draws(i, u):
        return k, (i + k) % 10, 1 + 3 * (k == 0)
    return STOOD, i, 13


@njit(cache=True)
def infinite_kernel(u1, u2, base, gain):
    """The sums for the infinite shoe (Ethier and Lee 2015: cards dealt with replacement),
    over 13^9, by two-card totals: q(i) = (16 + 9 [i = 0]) / 13^2."""
    for i1 in range(10):
        w1 = 16 + 9 * (i1 == 0)
        for i2 in range(10):
            w2 = 16 + 9 * (i2 == 0)
            for j in range(10):
                wj = 16 + 9 * (j == 0)
                w = w1 * w2 * wj
                if j >= 8 or (i1 >= 8 and i2 >= 8):
                    base[0, ENDED] += w * 13 * 13 * 13 * sgn(i1 - j)
                    base[1, ENDED] += w * 13 * 13 * 13 * sgn(i2 - j)
                    continue
                for k1 in range(10 if _draws(i1, u1) else 1):
                    c1, f1, wk1 = _player(i1, u1, k1)
                    for k2 in range(10 if _draws(i2, u2) else 1):
                        c2, f2, wk2 = _player(i2, u2, k2)
                        ws = w * wk1 * wk2
                        r1s = 1 if c1 == NATURAL else sgn(f1 - j)
                        r2s = 1 if c2 == NATURAL else sgn(f2 - j)
                        base[0, c1] += ws * 13 * r1s
                        base[1, c1] += ws * 13 * r2s
                        for l in range(10):
                            wl = 1 + 3 * (l == 0)
                            b = (j + l) % 10
                            r1d = 1 if c1 == NATURAL else sgn(f1 - b)
                            r2d = 1 if c2 == NATURAL else sgn(f2 - b)
                            gain[0, c1, c2, j] += ws * wl * (r1d - r1s)
                            gain[1, c1, c2, j] += ws * wl * (r2d - r2s)


@njit(cache=True)
def _take(rem, v, replacement):
    """The weight of dealing a card of value v (then removed unless with replacement)."""
    w = rem[v]
    if not replacement:
        rem[v] -= 1
    return w


@njit(cache=True)
def _give(rem, v, replacement):
    if not replacement:
        rem[v] += 1


@njit(cache=True)
def _acc(res, p, xm, y):
    """res[k] += x * y (mod primes[k]) for every prime, given xm[k] = x mod primes[k]; |y| < 2^63."""
    for k in range(p.shape[0]):
        ym = y % p[k]
        if ym < 0:
            ym += p[k]
        res[k] = (res[k] + xm[k] * ym) % p[k]


@njit(cache=True)
def shoe_kernel(vc, replacement, u1, u2, pad, primes, base, gain):
    """The sums for a shoe of value counts ``vc`` (with or without replacement), as residues
    modulo each of ``primes`` (``base[k]``, ``gain[k]``: the arrays above modulo primes[k]).

    ``pad[m]`` is the number of ways to deal the 9 - m cards a deal of m cards leaves
    unused.  The three two-card hands run over unordered pairs (with multiplicity);
    the third cards' sums stay exact in 64 bits and meet the hands' weights modulo
    the primes (the caller rebuilds the integers by the Chinese remainder theorem).
    """
    rem = vc.copy()
    wm = np.zeros(primes.shape[0], dtype=np.int64)    # the hands' weight modulo each prime
    for a in range(10):
        for b in range(a, 10):
            wa = _take(rem, a, replacement)
            wb = _take(rem, b, replacement)
            w1 = wa * wb * (1 if a == b else 2)
            i1 = (a + b) % 10
            for c in range(10):
                for d in range(c, 10):
                    wc = _take(rem, c, replacement)
                    wd = _take(rem, d, replacement)
                    w2 = w1 * wc * wd * (1 if c == d else 2)
                    i2 = (c + d) % 10
                    for e in range(10):
                        for f in range(e, 10):
                            we = _take(rem, e, replacement)
                            wf = _take(rem, f, replacement)
                            w6 = w2 * we * wf * (1 if e == f else 2)
                            j = (e + f) % 10
                            if w6 > 0:
                                for k in range(primes.shape[0]):
                                    wm[k] = w6 % primes[k]
                                if j >= 8 or (i1 >= 8 and i2 >= 8):
                                    _acc(base[:, 0, ENDED], primes, wm, pad[6] * sgn(i1 - j))
                                    _acc(base[:, 1, ENDED], primes, wm, pad[6] * sgn(i2 - j))
                                else:
                                    _third_cards(rem, replacement, u1, u2, i1, i2, j, wm, pad, primes, base, gain)
                            _give(rem, f, replacement)
                            _give(rem, e, replacement)
                    _give(rem, d, replacement)
                    _give(rem, c, replacement)
            _give(rem, b, replacement)
            _give(rem, a, replacement)


@njit(cache=True)
def _third_cards(rem, replacement, u1, u2, i1, i2, j, wm, pad, primes, base, gain):
    """The Players' third cards and Banker's, after the hands are dealt (their weight modulo
    each prime: ``wm``)."""
    d1 = _draws(i1, u1)
    d2 = _draws(i2, u2)
    b1 = np.zeros(2, dtype=np.int64)
    for k1 in range(10 if d1 else 1):
        wk1 = _take(rem, k1, replacement) if d1 else 1
        if wk1 > 0:
            c1 = k1 if d1 else (NATURAL if i1 >= 8 else STOOD)
            f1 = (i1 + k1) % 10 if d1 else i1
            b1[0] = 0
            b1[1] = 0
            for k2 in range(10 if d2 else 1):
                wk2 = _take(rem, k2, replacement) if d2 else 1
                if wk2 > 0:
                    c2 = k2 if d2 else (NATURAL if i2 >= 8 else STOOD)
                    f2 = (i2 + k2) % 10 if d2 else i2
                    m = 6 + d1 + d2
                    ws = wk1 * wk2
                    r1s = 1 if c1 == NATURAL else sgn(f1 - j)
                    r2s = 1 if c2 == NATURAL else sgn(f2 - j)
                    b1[0] += ws * pad[m] * r1s
                    b1[1] += ws * pad[m] * r2s
                    g1 = 0
                    g2 = 0
                    for l in range(10):
                        wl = rem[l]
                        if wl > 0:
                            t = (j + l) % 10
                            r1d = 1 if c1 == NATURAL else sgn(f1 - t)
                            r2d = 1 if c2 == NATURAL else sgn(f2 - t)
                            g1 += wl * (r1d - r1s)
                            g2 += wl * (r2d - r2s)
                    _acc(gain[:, 0, c1, c2, j], primes, wm, ws * g1 * pad[m + 1])
                    _acc(gain[:, 1, c1, c2, j], primes, wm, ws * g2 * pad[m + 1])
                if d2:
                    _give(rem, k2, replacement)
            _acc(base[:, 0, c1], primes, wm, b1[0])
            _acc(base[:, 1, c1], primes, wm, b1[1])
        if d1:
            _give(rem, k1, replacement)
