"""Numba's start in a process, made cheaper: the kernels' modules call :func:`defer_blas_probe` before they first
compile or load a kernel."""

from __future__ import annotations

import importlib.util
import sys


def defer_blas_probe() -> None:
    """Let Numba load compiled kernels without importing ``scipy.linalg`` (about a tenth of a second).

    Before its first compilation or cache load Numba imports its NumPy
    support, whose ``numba.np.arraymath`` asks at import whether BLAS works by
    importing ``scipy.linalg.cython_blas``, and hence most of SciPy, though
    no kernel of baccara uses BLAS.  Here that module is imported with the probe
    answering "yes" exactly when SciPy is installed (Numba requires SciPy 1.0
    or later, which has ``cython_blas``); the probe is then put back, so a
    kernel that does use BLAS still imports and checks SciPy when compiled.
    Nothing changes if Numba's layout differs or the module is already loaded.
    """
    if "numba.np.arraymath" in sys.modules:
        return
    try:
        from numba.np import linalg
    except ImportError:  # pragma: no cover  (another Numba layout: leave it alone)
        return
    probe = getattr(linalg, "ensure_blas", None)
    if probe is None:  # pragma: no cover
        return

    def scipy_present() -> None:
        if importlib.util.find_spec("scipy") is None:
            raise ImportError("scipy 0.16+ is required for linear algebra")

    linalg.ensure_blas = scipy_present
    try:
        from numba.np import arraymath
    finally:
        linalg.ensure_blas = probe
    if getattr(arraymath, "ensure_blas", None) is scipy_present:
        arraymath.ensure_blas = probe
