"""Numba kernel: :func:`math.fsum` compiled, and the perfect counter's per-shoe fold built on it.

The count analysis's perfect counter sums each shoe's float expectations exactly
(:func:`baccara.sim.count_analysis.fold_perfect`), so its figures do not depend on the
backend, the blocks or the order.  Done by :func:`math.fsum` in a Python loop over the
shoes that took 2-5 microseconds a shoe on one core, after every block of the threads and
between the GPU's launches; here it is compiled and releases the GIL, so each thread folds
its own block and the GPU's launches are folded while the next one runs.

:func:`partials_sum` is CPython's ``math_fsum`` (``Modules/mathmodule.c``) step for step:
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

Shewchuk's partials are a chain of dependent additions with branches, some 20-25 ns a summand.
So the fold first takes the cheap way, Sum2 of T. Ogita, S. M. Rump and S. Oishi ("Accurate sum
and dot product", *SIAM J. Sci. Comput.* 26(6), 2005, section 4): the float sum ``s`` with
each addition's exact error (Knuth's TwoSum) summed in floats, ``c``; the exact sum S then lies
within ``gamma(n-1)^2 * sum |x|`` of the exact ``s + c`` (the step of their error bound for Sum2
before the last rounding; additions are exact where they underflow, so it holds there too), so
where that bound (taken four times over, :func:`settle`) cannot reach the nearest point half-way
between ``fl(s + c)`` and a neighbouring double, S rounds to ``fl(s + c)``: the unique exactly
rounded sum, fsum's.  Otherwise (a sum within that bound of a tie, sums of subnormals, a NaN, an
infinity, an overflow: no real shoe's sums but by chance, some 10^-12 of them) the same values are summed
by Shewchuk's partials.  :func:`exact_sum` and :func:`fold_shoes` take both steps.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .._numba import defer_blas_probe

defer_blas_probe()

#: Room for the partials: non-overlapping non-zero finite doubles have distinct lowest set bits, 2,098 at most.
PARTIALS = 2100
#: 2^-104 (the square of the unit roundoff 2^-53, for Sum2's error bound) and the least subnormal, 2^-1074.
_EPS2, _TINY = 2.0**-104, 5e-324


@njit(cache=True, nogil=True)
def fsum_add(p, n, x, special):
    """Add ``x`` to the ``n`` partials ``p[:n]`` (fsum's inner loop); return how many there are now.

    ``special`` (two floats, zeros to begin) gathers the non-finite summands as fsum does: ``special[0]``
    their sum, ``special[1]`` that of the infinities alone.

    Parameters
    ----------
    p : numpy.ndarray
        The partials (float64, :data:`PARTIALS` long), updated in place.
    n : int
        How many of them there are.
    x : float
        The summand.
    special : numpy.ndarray
        The non-finite summands' sums (two float64), updated in place.

    Returns
    -------
    int
        How many partials there are now.

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

    Parameters
    ----------
    p : numpy.ndarray
        The partials (float64, from :func:`fsum_add`).
    n : int
        How many of them there are.
    special : numpy.ndarray
        The non-finite summands' sums from :func:`fsum_add`.

    Returns
    -------
    float
        The exactly rounded sum (``math.fsum``'s).

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
def settle(s, c, a, n):
    """Sum2's answer where it is certainly the exactly rounded sum: ``(True, fl(s + c))``, else ``(False, 0.0)``.

    ``s`` is the float sum of ``n`` summands by Knuth's TwoSum, ``c`` the float sum of its errors, ``a`` the
    float sum of the summands' magnitudes.  The exact sum S is within ``gamma(n-1)^2 * sum |x|`` of the exact
    ``s + c`` (Ogita, Rump and Oishi 2005), with ``gamma(k) = k u / (1 - k u)``, ``u = 2^-53``; ``b`` below is
    over four times that (and one subnormal more, for the rounding of its own product).  ``fl(s + c) = r`` and
    ``s + c = r + d`` exactly (TwoSum); S rounds to r when it stays strictly inside r's rounding interval: the
    bound below the distance from ``s + c`` to the half-way point on d's side (a quarter ulp toward zero from a
    power of two, half an ulp elsewhere; ``half - |d|`` is exact when it matters, by Sterbenz's lemma, and
    otherwise over ``half / 2``) and below the nearer half-way point.  Every summand a zero: +0.0, as fsum.

    Parameters
    ----------
    s, c, a : float
        :func:`sum2`'s sums.
    n : int
        The summands.

    Returns
    -------
    tuple of (bool, float)
        Whether Sum2's answer is certainly the exactly rounded sum, and that answer (0.0 where not).
    """
    if not (np.isfinite(s) and np.isfinite(c) and np.isfinite(a)):
        return False, 0.0
    if a == 0.0:
        return True, 0.0
    r = s + c
    bp = r - s
    d = (s - (r - bp)) + (c - bp)
    if r == 0.0 or not np.isfinite(r) or not np.isfinite(d):
        return False, 0.0
    b = (a * float(n * n)) * _EPS2 + _TINY
    m, e = math.frexp(r)
    ulp = math.ldexp(1.0, max(e - 53, -1074))
    least = ulp / 4.0 if abs(m) == 0.5 else ulp / 2.0  # the nearer half-way point's distance from r
    half = least if d == 0.0 or (d < 0.0) != (r < 0.0) else ulp / 2.0
    if half - abs(d) > 2.0 * b and 2.0 * b < least:
        return True, r
    return False, 0.0


@njit(cache=True, nogil=True)
def exact_sum(values):
    """:func:`math.fsum` of a one-dimensional float64 array, bit for bit (the module's docstring: special
    values and errors as fsum's): Sum2 where :func:`settle` accepts it, Shewchuk's partials otherwise.
    Releases the GIL.

    Parameters
    ----------
    values : numpy.ndarray
        The summands (float64).

    Returns
    -------
    float
        Their exactly rounded sum.
    """
    s, c, a = sum2(values)
    ok, r = settle(s, c, a, values.shape[0])
    if ok:
        return r
    return partials_sum(values)


@njit(cache=True, nogil=True)
def sum2(values):
    """Sum2's sums of a one-dimensional float64 array, for :func:`settle`: the float sum by Knuth's TwoSum, the
    float sum of its errors, and the float sum of the summands' magnitudes.

    Parameters
    ----------
    values : numpy.ndarray
        The summands (float64).

    Returns
    -------
    tuple of float
        ``(s, c, a)``.
    """
    s = 0.0
    c = 0.0
    a = 0.0
    for k in range(values.shape[0]):
        x = values[k]
        t = s + x
        bp = t - s
        c += (s - (t - bp)) + (x - bp)
        s = t
        a += abs(x)
    return s, c, a


@njit(cache=True, nogil=True)
def partials_sum(values):
    """:func:`math.fsum` of a one-dimensional float64 array by Shewchuk's partials alone (:func:`exact_sum`'s
    way where Sum2 cannot decide).  Releases the GIL.

    Parameters
    ----------
    values : numpy.ndarray
        The summands (float64).

    Returns
    -------
    float
        Their exactly rounded sum.
    """
    p, n, special = all_partials(values)
    return fsum_round(p, n, special)


@njit(cache=True, nogil=True)
def all_partials(values):
    """Every summand added by :func:`fsum_add`: the partials array, how many there are, and fsum's special sums.

    Parameters
    ----------
    values : numpy.ndarray
        The summands (float64).

    Returns
    -------
    tuple of (numpy.ndarray, int, numpy.ndarray)
        ``(p, n, special)``: the partials are ``p[:n]``.
    """
    p = np.empty(PARTIALS)
    special = np.zeros(2)
    n = 0
    for k in range(values.shape[0]):
        n = fsum_add(p, n, values[k], special)
    return p, n, special


@njit(cache=True, nogil=True)
def partials(values):
    """The non-overlapping partials whose exact sum is the values' (those of
    :func:`baccara.sim.results.exact_partials`, the same algorithm in the same order, less its zeros).

    Parameters
    ----------
    values : numpy.ndarray
        Finite summands (float64).

    Returns
    -------
    numpy.ndarray
        The partials, smallest magnitude first.
    """
    p, n, special = all_partials(values)
    if special[0] != 0.0 or np.isnan(special[1]):
        raise ValueError("exact partials of a NaN or an infinity")
    return p[:n].copy()


@njit(cache=True, nogil=True)
def fold_shoes(table, evs, ev_placed, ev_all, every_coup):
    """Each shoe's exactly rounded sums of its coups' expectations (the perfect counter's fold).

    ``ev_placed[s]`` is the :func:`math.fsum` of ``evs[s, j] > 0`` (the bets placed; NaN, a decision not
    priced, is not above 0), and with ``every_coup`` ``ev_all[s]`` that of ``evs[s, :table[s, 0]]`` (the
    shoe's hands): both by Sum2 in one pass over the row, a sum it cannot settle again by Shewchuk's partials
    (:func:`exact_sum`).  Releases the GIL.

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
    cap = evs.shape[1]
    work = np.empty(cap)
    for s in range(table.shape[0]):
        hands = min(max(table[s, 0], 0), cap) if every_coup else 0
        ps = pc = pa = 0.0  # Sum2 of the bets placed
        ts = tc = ta = 0.0  # and of every hand's coup
        placed = 0
        for j in range(cap):
            x = evs[s, j]
            if x > 0:
                t = ps + x
                bp = t - ps
                pc += (ps - (t - bp)) + (x - bp)
                ps = t
                pa += x
                placed += 1
            if j < hands:
                t = ts + x
                bp = t - ts
                tc += (ts - (t - bp)) + (x - bp)
                ts = t
                ta += abs(x)
        ok, r = settle(ps, pc, pa, placed)
        if not ok:
            k = 0
            for j in range(cap):
                if evs[s, j] > 0:
                    work[k] = evs[s, j]
                    k += 1
            r = partials_sum(work[:k])
        ev_placed[s] = r
        if every_coup:
            ok, r = settle(ts, tc, ta, hands)
            ev_all[s] = r if ok else partials_sum(evs[s, :hands])
