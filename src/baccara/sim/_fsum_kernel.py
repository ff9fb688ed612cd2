"""Numba kernel: :func:`math.fsum` compiled, and the perfect counter's per-shoe fold built on it.

The count analysis's perfect counter sums each shoe's float expectations exactly
(:func:`baccara.sim.count_analysis.fold_perfect`), so its figures do not depend on the
backend, the blocks or the order.  Done by :func:`math.fsum` in a Python loop over the
shoes that took 2-5 microseconds a shoe on one core, after every block of the threads and
between the GPU's launches; here it is compiled and releases the GIL, so each thread folds
its own block and the GPU's launches are folded while the next one runs.

:func:`exact_sum` is CPython's ``math_fsum`` (``Modules/mathmodule.c``) step for step:
Shewchuk's non-overlapping partials (J. R. Shewchuk, "Adaptive precision floating-point
arithmetic and fast robust geometric predicates", *Discrete Comput. Geom.* 18, 1997), then
the partials summed from the top until the sum turns inexact, with the half-even correction
across partials.  The exactly rounded sum of finite doubles is unique, so the result is
``math.fsum``'s bit for bit; the special cases are fsum's too:

* a NaN summand gives NaN, infinities of one sign that infinity (the partials are
  dropped, as fsum drops them);
* ``-inf`` and ``+inf`` together raise ValueError, and finite summands whose partial sum
  overflows raise OverflowError (fsum's errors and messages);
* a sum that is exactly zero is ``+0.0`` (fsum keeps no zero partial, so ``-0.0`` summands
  give ``+0.0``), the empty sum too.

The partials live in a fixed array: being non-overlapping, non-zero and finite, no two
share their lowest set bit, one of the 2,098 bit positions of a double (2^-1074 .. 2^1023),
so :data:`PARTIALS` always suffices and nothing is reallocated.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._numba import defer_blas_probe

defer_blas_probe()

#: Room for the partials: non-overlapping non-zero finite doubles have distinct lowest set bits, 2,098 at most.
PARTIALS = 2100


@njit(cache=True, nogil=True)
def fsum_add(p, n, x, special):
    """Add ``x`` to the ``n`` partials ``p[:n]`` (fsum's inner loop); return how many there are now.

    ``special`` (two floats, zeros to begin) gathers the non-finite summands as fsum does: ``special[0]``
    their sum, ``special[1]`` that of the infinities alone.

    Raises
    ------
    OverflowError
        Finite summands whose partial sum overflows (fsum's "intermediate overflow in fsum").
    """
    xsave = x
    i = 0
    for j in range(n):  # for y in partials
        y = p[j]
        if abs(x) < abs(y):
            x, y = y, x
        hi = x + y
        yr = hi - x
        lo = y - yr
        if lo != 0.0:
            p[i] = lo
            i += 1
        x = hi
    n = i  # partials[i:] = [x]
    if x != 0.0:
        if not np.isfinite(x):  # an overflow, or a NaN or an infinity among the summands
            if np.isfinite(xsave):
                raise OverflowError("intermediate overflow in fsum")
            if np.isinf(xsave):
                special[1] += xsave
            special[0] += xsave
            n = 0  # the partials are dropped
        else:
            p[n] = x
            n += 1
    return n


@njit(cache=True, nogil=True)
def fsum_round(p, n, special):
    """The partials ``p[:n]`` (with fsum's ``special`` sums, :func:`fsum_add`) rounded once, half to even.

    Raises
    ------
    ValueError
        ``-inf`` and ``+inf`` among the summands (fsum's "-inf + inf in fsum").
    """
    if special[0] != 0.0:  # NaN != 0 too
        if np.isnan(special[1]):
            raise ValueError("-inf + inf in fsum")
        return special[0]
    hi = 0.0
    lo = 0.0
    if n > 0:
        n -= 1
        hi = p[n]
        while n > 0:  # sum from the top, stopping where the sum turns inexact
            x = hi
            n -= 1
            y = p[n]
            hi = x + y
            yr = hi - x
            lo = y - yr
            if lo != 0.0:
                break
        # half-even rounding across partials: the rest below may tip a half-way case
        if n > 0 and ((lo < 0.0 and p[n - 1] < 0.0) or (lo > 0.0 and p[n - 1] > 0.0)):
            y = lo * 2.0
            x = hi + y
            yr = x - hi
            if y == yr:
                hi = x
    return hi


@njit(cache=True, nogil=True)
def exact_sum(values):
    """:func:`math.fsum` of a one-dimensional float64 array, bit for bit (the module's docstring: special
    values and errors as fsum's).  Releases the GIL.

    Parameters
    ----------
    values : numpy.ndarray
        The summands (float64).

    Returns
    -------
    float
        Their exactly rounded sum.
    """
    p = np.empty(PARTIALS)
    special = np.zeros(2)
    n = 0
    for k in range(values.shape[0]):
        n = fsum_add(p, n, values[k], special)
    return fsum_round(p, n, special)


@njit(cache=True, nogil=True)
def partials(values):
    """The non-overlapping partials whose exact sum is the values' (those of
    :func:`baccara.sim.results.exact_partials`, the same algorithm, in the same order).

    Parameters
    ----------
    values : numpy.ndarray
        Finite summands (float64).

    Returns
    -------
    numpy.ndarray
        The partials, smallest magnitude first.
    """
    p = np.empty(PARTIALS)
    special = np.zeros(2)
    n = 0
    for k in range(values.shape[0]):
        n = fsum_add(p, n, values[k], special)
    if special[0] != 0.0 or np.isnan(special[1]):
        raise ValueError("exact partials of a NaN or an infinity")
    return p[:n].copy()


@njit(cache=True, nogil=True)
def fold_shoes(table, evs, ev_placed, ev_all, every_coup):
    """Each shoe's exactly rounded sums of its coups' expectations (the perfect counter's fold).

    ``ev_placed[s]`` is the :func:`math.fsum` of ``evs[s, j] > 0`` (the bets placed; NaN, a decision not
    priced, is not above 0), and with ``every_coup`` ``ev_all[s]`` that of ``evs[s, :table[s, 0]]`` (the
    shoe's hands).  Releases the GIL.

    Parameters
    ----------
    table : numpy.ndarray
        The shoes' rows (hands first), (m, k) int64.
    evs : numpy.ndarray
        ``evs[s, j]``: shoe s's coup j's expectation (NaN past its coups), (m, coups) float64.
    ev_placed, ev_all : numpy.ndarray
        (m,) float64, written (``ev_all`` only with ``every_coup``; any float64 array otherwise).
    every_coup : bool
        Also sum every coup's expectation.
    """
    p = np.empty(PARTIALS)
    special = np.zeros(2)
    cap = evs.shape[1]
    for s in range(table.shape[0]):
        n = 0
        special[0] = 0.0
        special[1] = 0.0
        for j in range(cap):
            x = evs[s, j]
            if x > 0:
                n = fsum_add(p, n, x, special)
        ev_placed[s] = fsum_round(p, n, special)
        if every_coup:
            n = 0
            special[0] = 0.0
            special[1] = 0.0
            for j in range(min(max(table[s, 0], 0), cap)):
                n = fsum_add(p, n, evs[s, j], special)
            ev_all[s] = fsum_round(p, n, special)
