"""Worker processes that any caller can start: spawned, never forked, and refused where they would re-run a script.

Every parallel routine in baccara (the simulator's process backend, ``chemin prove`` over a
range of decks, the banque events checker) starts its processes here.  They are *spawned*:
a forked child inherits the parent's locks as they were at the fork, and a parent with
threads (Numba's pool, a thread pool, a logging handler) can leave one held, so the child
waits for ever.  A spawned child imports the caller's main module again instead, which is
harmless except for a plain script that calls the library at its top level: there
:func:`process_pool` refuses with a clear error instead of a ``BrokenProcessPool``.
"""

from __future__ import annotations

import ast
import multiprocessing
import os
import sys
from concurrent.futures import ProcessPoolExecutor

from .errors import ParameterError


def _is_main_guard(node: ast.stmt) -> bool:
    """Is ``node`` an ``if __name__ == "__main__":`` block (either side of the ``==``)?"""
    if not isinstance(node, ast.If) or not isinstance(node.test, ast.Compare):
        return False
    test = node.test
    if len(test.ops) != 1 or not isinstance(test.ops[0], ast.Eq):
        return False
    sides = [test.left, test.comparators[0]]
    names = [s for s in sides if isinstance(s, ast.Name) and s.id == "__name__"]
    words = [s for s in sides if isinstance(s, ast.Constant) and s.value == "__main__"]
    return len(names) == 1 and len(words) == 1


def spawn_is_safe() -> bool:
    """Can this process start worker processes (``spawn``) without them re-running the caller's code?

    A spawned worker imports the main module again (as ``__mp_main__``) before it takes any
    task.  That is harmless for an interactive session, a notebook, ``python -c``,
    ``python -m package`` and the ``baccara`` command, and for a script whose call sits
    under ``if __name__ == "__main__":``.  A plain script that calls the library at its top
    level would have every worker run that call again and start workers of its own, which
    multiprocessing refuses (``BrokenProcessPool``): there the answer is no.

    Returns
    -------
    bool
        True where worker processes can be started.
    """
    main = sys.modules.get("__main__")
    if main is None:
        return True
    spec_name = getattr(getattr(main, "__spec__", None), "name", None)
    if spec_name is not None and (spec_name == "__main__" or spec_name.endswith(".__main__")):
        return True  # multiprocessing does not re-run a package's __main__
    path = getattr(main, "__file__", None)
    if path is None or not os.path.isfile(path):
        return spec_name is None  # interactive, a notebook, python -c
    frame = sys._getframe(1)
    while frame is not None and not (frame.f_globals is main.__dict__ and frame.f_code.co_name == "<module>"):
        frame = frame.f_back  # type: ignore[assignment]
    if frame is None:
        return False  # called from elsewhere (a thread, a callback): the main module's top level is unknown
    try:
        with open(path, "rb") as f:
            tree = ast.parse(f.read())
    except (OSError, SyntaxError, ValueError):
        return False
    line = frame.f_lineno
    for node in tree.body:
        if node.lineno <= line <= (node.end_lineno or node.lineno):
            return _is_main_guard(node)
    return False


def process_pool(workers: int, what: str = "this call") -> ProcessPoolExecutor:
    """A pool of ``workers`` spawned processes (use it as a context manager).

    Parameters
    ----------
    workers : int
        Processes in the pool (at least 1).
    what : str
        What starts them, for the error message.

    Returns
    -------
    concurrent.futures.ProcessPoolExecutor
        The pool.

    Raises
    ------
    ParameterError
        Where the workers would re-run the caller's script (:func:`spawn_is_safe`).
    """
    if not spawn_is_safe():
        raise ParameterError(f"{what} starts worker processes, which re-run the main script: call it under "
                             f"'if __name__ == \"__main__\":' (or use one worker)")
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))


__all__ = ["process_pool", "spawn_is_safe"]
