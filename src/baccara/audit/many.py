"""Many tables at once: a month of logs audited on all cores here or on a Dask cluster, like the simulator.

Each table's pair of logs is one task (:func:`audit_tables`); a worker reads and audits it
and hands back the JSON document (the command line's ``--json``), so nothing but text
crosses between processes.  The tables are independent: each has its own shoes, and its
verdicts hold at the stated rate on their own.

A folder of tables (:func:`table_pairs`, ``baccara audit --tables DIR``) holds, for each
table ``NAME``, either the two files ``NAME.hands.csv`` and ``NAME.bets.csv`` (``.parquet``
for either), or a subfolder ``NAME/`` with ``hands.csv`` and ``bets.csv`` (what
``baccara simulate punto --log DIR/NAME`` writes).  A log without its partner is refused.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import RenderableType
from rich.table import Table

from ..errors import BaccaraError
from ..processes import default_workers, executor
from ..result import Result

#: The log formats a folder of tables may hold.
FORMATS = ("csv", "parquet")
#: The two logs of a table.
KINDS = ("hands", "bets")


def table_pairs(directory: str | Path, option: str = "--tables") -> list[tuple[str, Path, Path]]:
    """The tables of a folder: each table's name, hand log and bet log, by name.

    A table ``NAME`` is the files ``NAME.hands.EXT`` and ``NAME.bets.EXT`` in the folder, or a
    subfolder ``NAME`` holding ``hands.EXT`` and ``bets.EXT`` (EXT: ``csv`` or ``parquet``, either
    for either log).  Other files are ignored, except a ``.csv`` or ``.parquet`` file that is not
    named so; subfolders with neither log are ignored.

    Parameters
    ----------
    directory : str or Path
        The folder.
    option : str
        The parameter named in errors.

    Returns
    -------
    list of (str, Path, Path)
        (name, hands, bets), sorted by name.

    Raises
    ------
    BaccaraError
        No such folder, no table in it, a log without its partner, a log given twice (CSV and
        Parquet) or a ``.csv``/``.parquet`` file named neither way.
    """
    root = Path(directory)
    if not root.is_dir():
        raise BaccaraError(f"{option}: {root} is not a folder (it holds NAME.hands.csv with NAME.bets.csv, "
                           "or NAME/hands.csv with NAME/bets.csv; .parquet too)")
    found: dict[str, dict[str, Path]] = {}

    def add(name: str, kind: str, path: Path) -> None:
        logs = found.setdefault(name, {})
        if kind in logs:
            raise BaccaraError(f"{option}: table {name!r} has two {kind} logs, {logs[kind]} and {path}: keep one")
        logs[kind] = path

    for path in sorted(root.iterdir()):
        if path.name.startswith("."):
            continue
        if path.is_dir():
            for inner in sorted(path.iterdir()):
                stem, _, ext = inner.name.partition(".")
                if inner.is_file() and stem in KINDS and ext in FORMATS:
                    add(path.name, stem, inner)
            continue
        parts = path.name.rsplit(".", 2)
        if parts[-1] not in FORMATS:
            continue
        if len(parts) != 3 or parts[1] not in KINDS or not parts[0]:
            raise BaccaraError(f"{option}: {path} is not named NAME.hands.{parts[-1]} or NAME.bets.{parts[-1]}: "
                               "rename it, or move it out of the folder")
        add(parts[0], parts[1], path)
    if not found:
        raise BaccaraError(f"{option}: no table in {root}: give each table NAME.hands.csv and NAME.bets.csv "
                           "(or a subfolder NAME with hands.csv and bets.csv; .parquet too)")
    out = []
    for name in sorted(found):
        logs = found[name]
        for kind in KINDS:
            if kind not in logs:
                other = next(iter(logs.values()))
                raise BaccaraError(f"{option}: {other} has no {kind} log beside it (table {name!r} needs both "
                                   f"{' and '.join(KINDS)})")
        out.append((name, logs["hands"], logs["bets"]))
    return out


def audit_file_pair(hands: str, bets: str, options: dict[str, Any]) -> dict:
    """Audit one table's logs and return the document (a worker's task).

    Parameters
    ----------
    hands, bets : str
        The two files.
    options : dict
        Keyword arguments of :func:`baccara.audit.audit` (numbers, strings, lists, the bets and
        the tableau: all of them pickle).

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
        Processes here, or local Dask workers (default: all cores, at most one per table); 1 runs
        them here, one by one.
    backend : str
        ``processes`` or ``dask``.
    scheduler : str, optional
        A Dask scheduler's address, ``tcp://HOST:PORT``.
    **options
        Keyword arguments of :func:`baccara.audit.audit` (``decks``, ``bet_defs``, ``tableau``,
        ``sorted_sets``, ``candidates``, ``permutations``, ``alpha``, ``seed``).

    Returns
    -------
    list of dict
        Each table's document, in the order given.  The first table whose audit fails raises
        its error (a bad log names its file, line and reason).
    """
    todo: Sequence[tuple[str, str]] = [(str(h), str(b)) for h, b in pairs]
    n = max(1, min(workers or default_workers(), len(todo)))
    if n == 1 and scheduler is None and backend == "processes":
        return [audit_file_pair(h, b, options) for h, b in todo]
    with executor(n, backend, scheduler, "audit_tables") as pool:
        futures = [pool.submit(audit_file_pair, h, b, options) for h, b in todo]
        return [f.result() for f in futures]


def _p(x: float | None) -> str:
    return "-" if x is None else f"{x:.4g}"


@dataclass(frozen=True, eq=False, repr=False)
class TablesResult(Result):
    """The audits of many tables: one verdict table across them.

    Attributes
    ----------
    names : list of str
        The tables, in order.
    docs : list of dict
        Each table's document (:meth:`~baccara.audit.analysis.AuditResult.to_json`).
    workers : int
        Workers that ran them (1 with a scheduler: the cluster's).
    backend : str
        ``processes`` or ``dask``.
    """

    names: list[str]
    docs: list[dict]
    workers: int = 1
    backend: str = "processes"

    def to_json(self) -> dict:
        """The document of ``baccara audit --tables DIR --json``.

        Returns
        -------
        dict
            ``tables`` (name -> the table's audit document, as ``baccara audit --json`` prints it) and
            ``verdicts`` (a row per table and player: ``table``, ``player``, ``verdict``,
            ``p_counting``, ``p_edge_sorting``).
        """
        return {"tables": dict(zip(self.names, self.docs, strict=True)), "verdicts": self.rows()}

    def rows(self) -> list[dict]:
        """One row per table and player, in the tables' order.

        Returns
        -------
        list of dict
            ``table``, ``player``, ``verdict``, ``p_counting``, ``p_edge_sorting``.
        """
        return [{"table": name, "player": player, "verdict": p["verdict"],
                 "p_counting": p["p_values"]["counting"], "p_edge_sorting": p["p_values"]["edge_sorting"]}
                for name, doc in zip(self.names, self.docs, strict=True) for player, p in doc["players"].items()]

    def summary(self) -> str:
        """One line: how many tables and players, and how many of each verdict.

        Returns
        -------
        str
            The line.
        """
        rows = self.rows()
        counts = {v: sum(1 for r in rows if r["verdict"] == v) for v in ("none", "counting", "edge sorting")}
        alphas = sorted({d["alpha"] for d in self.docs})
        return (f"Audit of {len(self.names)} table{'s' if len(self.names) != 1 else ''}, {len(rows)} "
                f"player-table{'s' if len(rows) != 1 else ''}, false-alarm rate {', '.join(f'{a:g}' for a in alphas)} "
                "per player and table: " + ", ".join(f"{v}: {n}" for v, n in counts.items()))

    def renderables(self) -> list[RenderableType]:
        """The summary and the verdict table across tables.

        Returns
        -------
        list
            Text and a Rich table.
        """
        t = Table(title="Verdicts across tables (Holm-adjusted p-values; each table's details with --json)")
        for col in ("table", "player", "verdict", "p counting", "p edge sorting", "expected", "actual"):
            t.add_column(col, justify="left" if col in ("table", "player", "verdict") else "right", no_wrap=True)
        for name, doc in zip(self.names, self.docs, strict=True):
            for player, p in doc["players"].items():
                ev = p["ev"]
                t.add_row(name, player, p["verdict"], _p(p["p_values"]["counting"]),
                          _p(p["p_values"]["edge_sorting"]), f"{ev['expected_given_cards_left']['float']:+,.2f}",
                          f"{ev['actual']['float']:+,.2f}")
        return [self.summary(), t]
