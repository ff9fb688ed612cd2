"""Numba helpers: a process's start made cheaper (the kernels' modules call :func:`defer_blas_probe` before they
first compile or load a kernel), and one source compiled for two targets (:func:`retarget`: the CPU and a GPU)."""

from __future__ import annotations

import importlib.util
import sys
import types
from collections.abc import Callable, Mapping
from typing import Any


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


def retarget(jit: Callable[[Any], Any], functions: Mapping[str, Any]) -> dict[str, Any]:
    """The same functions compiled again by ``jit`` (another Numba target), calling one another there.

    Each function (a plain Python function, or a Numba dispatcher, whose ``py_func`` is taken) is
    re-bound to a copy of its module's globals in which every name of ``functions`` is the new
    compiled function: so a chain of calls written once for the CPU's ``njit`` runs, from the same
    source, as CUDA device functions (``numba.cuda.jit(device=True)``), say.  The keys are the
    names the functions call each other by (an alias such as ``_value_kernel`` included).

    Parameters
    ----------
    jit : callable
        A decorator compiling a Python function.
    functions : mapping of str to function
        The functions, by the global names their callers use.

    Returns
    -------
    dict of str to object
        The compiled functions, by the same names.
    """
    spaces: dict[int, dict[str, Any]] = {}
    out: dict[str, Any] = {}
    plain = {name: getattr(f, "py_func", f) for name, f in functions.items()}
    for name, f in plain.items():
        space = spaces.setdefault(id(f.__globals__), dict(f.__globals__))
        out[name] = jit(types.FunctionType(f.__code__, space, f.__name__, f.__defaults__, f.__closure__))
    for space in spaces.values():
        space.update(out)
    return out
