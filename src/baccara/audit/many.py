"""Many tables at once: a month of logs audited on all cores here or on a Dask cluster, like the simulator.

Each table's pair of logs is one task (:func:`audit_tables`); a worker reads and audits it
and hands back the JSON document (the command line's ``--json``), so nothing but text
crosses between processes.  The tables are independent: each has its own shoes, and its
verdicts hold at the stated rate on their own.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from ..processes import default_workers, executor


def audit_file_pair(hands: str, bets: str, options: dict[str, Any]) -> dict:
    """Audit one table's logs and return the document (a worker's task).

    Parameters
    ----------
    hands, bets : str
        The two files.
    options : dict
        Keyword arguments of :func:`baccara.audit.audit` (plain values: numbers, strings, lists).

    Returns
    -------
    dict
        :meth:`~baccara.audit.analysis.AuditResult.to_json`.
    """
    from .analysis import audit  # lazy: imported in the worker process, not when the pool starts

    return audit(hands, bets, **options).to_json()


def audit_tables(pairs: Iterable[tuple[str | Path, str | Path]], *, workers: int | None = None,
                 backend: str = "processes", scheduler: str | None = None, **options: Any) -> list[dict]:
    """Audit many tables' logs, in parallel.

    Parameters
    ----------
    pairs : iterable of (hands, bets)
        One pair of files per table (or per night).
    workers : int, optional
        Processes here, or local Dask workers (default: all cores); 1 runs them here, one by one.
    backend : str
        ``processes`` or ``dask``.
    scheduler : str, optional
        A Dask scheduler's address, ``tcp://HOST:PORT``.
    **options
        Keyword arguments of :func:`baccara.audit.audit` (``decks``, ``sorted_sets``,
        ``candidates``, ``permutations``, ``alpha``, ``seed``).

    Returns
    -------
    list of dict
        Each table's document, in the order given.
    """
    todo: Sequence[tuple[str, str]] = [(str(h), str(b)) for h, b in pairs]
    n = workers or default_workers()
    if n == 1 and scheduler is None and backend == "processes":
        return [audit_file_pair(h, b, options) for h, b in todo]
    with executor(n, backend, scheduler, "audit_tables") as pool:
        futures = [pool.submit(audit_file_pair, h, b, options) for h, b in todo]
        return [f.result() for f in futures]
