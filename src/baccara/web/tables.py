"""The tables of a document as CSV: every API document (and every page, through its JSON link) downloads its tables.

A *table* of a document is a list of objects (``patterns``, ``equilibria``), an object whose values are
objects with the same keys (``bets``: one row per bet, ``effects``: one per rank), or an object whose values
are flat objects (a strategy's ``draw`` and ``reject_ten``: one column each), found anywhere in it and named
by its path (``bets``, ``search.top``).  A row's nested objects become columns named by their path (``bets.banker.ev``),
lists of plain values one column (space-separated).  Nothing is computed here: the cells are the document's
own values, exact fractions as the document writes them.
"""

from __future__ import annotations

import csv
import inspect
import io
from typing import Any

from fastapi import Query
from fastapi.responses import JSONResponse, Response

from .commands import WebError


def _flat(value: Any, prefix: str, row: dict[str, Any]) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            _flat(v, f"{prefix}.{k}" if prefix else str(k), row)
    elif isinstance(value, list):
        if all(not isinstance(v, (dict, list)) for v in value):
            row[prefix] = " ".join("" if v is None else str(v) for v in value)
        else:
            for i, v in enumerate(value, 1):
                _flat(v, f"{prefix}.{i}", row)
    else:
        row[prefix] = value


def _row(value: Any, key: str | None = None) -> dict[str, Any]:
    row: dict[str, Any] = {} if key is None else {"name": key}
    _flat(value, "", row)
    return row


def tables(doc: Any, path: str = "") -> dict[str, list[dict[str, Any]]]:
    """Every table of a document, by its path, each as rows of flat columns.

    Parameters
    ----------
    doc : dict or list
        A command's ``--json`` document.
    path : str
        Where ``doc`` is in the whole document (for the names).

    Returns
    -------
    dict of str to list of dict
        Path -> rows (column -> value), in the document's order; the outermost tables first.
    """
    found: dict[str, list[dict[str, Any]]] = {}
    if isinstance(doc, list):
        if doc and all(isinstance(x, dict) for x in doc):
            found[path or "rows"] = [_row(x) for x in doc]
        for i, x in enumerate(doc, 1):
            if isinstance(x, (dict, list)):
                found.update(tables(x, f"{path}.{i}" if path else str(i)))
    elif isinstance(doc, dict):
        inner = list(doc.values())
        if len(doc) >= 2 and all(isinstance(v, dict) and v for v in inner):
            if all(v.keys() == inner[0].keys() for v in inner):  # one row per key: bets, effects
                found[path or "rows"] = [_row(v, str(k)) for k, v in doc.items()]
            elif all(not isinstance(x, (dict, list)) for v in inner for x in v.values()):  # one column per key
                keys = list(dict.fromkeys(k for v in inner for k in v))
                found[path or "rows"] = [{"name": k, **{str(c): v.get(k) for c, v in doc.items()}} for k in keys]
        for k, v in doc.items():
            if isinstance(v, (dict, list)):
                found.update(tables(v, f"{path}.{k}" if path else str(k)))
    return found


def all_tables(doc: Any) -> dict[str, list[dict[str, Any]]]:
    """The document's tables (:func:`tables`), then ``document``: every value of it, one row each (field, value).

    Parameters
    ----------
    doc : dict or list
        A command's ``--json`` document.

    Returns
    -------
    dict of str to list of dict
        Path -> rows; the first is the download's default.
    """
    flat: dict[str, Any] = {}
    _flat(doc, "", flat)
    return {**tables(doc), "document": [{"field": k, "value": v} for k, v in flat.items()]}


def to_csv(rows: list[dict[str, Any]]) -> str:
    """Rows as CSV text: a header of every column (in the order first met), then one line per row.

    Parameters
    ----------
    rows : list of dict
        The rows.

    Returns
    -------
    str
        The CSV text (RFC 4180 quoting, ``\\r\\n`` line ends); booleans as true/false, None as empty.
    """
    columns: dict[str, None] = {}
    for r in rows:
        columns.update(dict.fromkeys(r))
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(list(columns))
    for r in rows:
        writer.writerow(["" if r.get(c) is None else str(r[c]).lower() if isinstance(r[c], bool) else r[c]
                         for c in columns])
    return out.getvalue()


#: The query parameters of every document's route besides the command's options: its format and table.
DOWNLOAD_PARAMETERS = [
    inspect.Parameter("format_", inspect.Parameter.KEYWORD_ONLY, annotation=str | None, default=Query(
        None, alias="format", description="json (the default) or csv: one of the document's tables (see table).")),
    inspect.Parameter("table_", inspect.Parameter.KEYWORD_ONLY, annotation=str | None, default=Query(
        None, alias="table", description="With format=csv: the table, by its path in the document (bets, effects, "
                                         "patterns, search.top, ...; document: every value, one row each). Default: "
                                         "the document's first table.")),
]


def download_options(items: Any) -> tuple[list[tuple[str, str]], str, str | None]:
    """A request's parameters without ``format`` and ``table``, and those two.

    Parameters
    ----------
    items : iterable of (str, str)
        The query parameters.

    Returns
    -------
    (list of (str, str), str, str or None)
        The command's parameters, the format (``json`` when not given) and the table (None when not given).

    Raises
    ------
    WebError
        ``format`` or ``table`` given twice.
    """
    query: list[tuple[str, str]] = []
    fmt: list[str] = []
    table: list[str] = []
    for k, v in items:
        if k == "format":
            fmt.append(v)
        elif k == "table":
            table.append(v)
        else:
            query.append((k, v))
    for name, given in (("format", fmt), ("table", table)):
        if len([v for v in given if v.strip()]) > 1:
            raise WebError(f"--{name} is given {len(given)} times: give it once", name)
    return query, next((v.strip().lower() for v in fmt if v.strip()), "json"), next((v.strip() for v in table if v.strip()), None)


def answer(doc: Any, fmt: str, table: str | None, name: str) -> Response:
    """A document as JSON, or one of its tables as a CSV download.

    Parameters
    ----------
    doc : dict or list
        The document.
    fmt : str
        ``json`` or ``csv``.
    table : str or None
        With csv: the table's path (default: the first, see :func:`baccara.web.tables.all_tables`).
    name : str
        The download's file name, without ``.csv``.

    Returns
    -------
    Response
        The JSON, or the CSV text (``text/csv``, as an attachment).

    Raises
    ------
    WebError
        Another format, or a table the document does not have (naming those it has).
    """
    if fmt == "json":
        if table is not None:
            raise WebError("--table goes with format=csv", "table")
        return JSONResponse(doc)
    if fmt != "csv":
        raise WebError(f"--format is json or csv, got {fmt!r}", "format")
    found = all_tables(doc)
    chosen = table or next(iter(found))
    if chosen not in found:
        raise WebError(f"--table: this document has no table {chosen!r}; its tables: {', '.join(found)}", "table")
    filename = f"{name}-{chosen}.csv".replace(" ", "_")
    return Response(to_csv(found[chosen]), media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})
