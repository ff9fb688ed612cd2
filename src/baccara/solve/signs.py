"""The sign of a number: one definition, for exact values and inside compiled kernels.

Every game scores a coup by the sign of a difference of totals, and the
solvers test signs of exact numbers (Fractions, python-flint values, Python
integers); both use :func:`sign`, and the Numba kernels its compiled twin
:func:`sgn`, built from the same code.
"""

from __future__ import annotations

from numba import njit


def sign(x) -> int:
    """The sign of ``x``.

    Parameters
    ----------
    x : number
        Anything ordered against 0 (int, Fraction, python-flint fmpq, float).

    Returns
    -------
    int
        1 if ``x > 0``, -1 if ``x < 0``, else 0.
    """
    return (x > 0) - (x < 0)


#: :func:`sign` compiled by Numba, for the kernels.
sgn = njit(cache=True, nogil=True)(sign)
