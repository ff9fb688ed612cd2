"""One protocol for every result: JSON for machines, a table for people, a repr, HTML for notebooks.

Every solver and simulator in baccara returns an object that implements
:class:`Result`:

``to_json()``
    A JSON-ready dict (a list of rows for a paper's table) whose keys are a documented contract (the user guide); exact
    numbers are strings ``"num/den"`` (or closed forms such as
    ``"(a-sqrt(b))/c"``) with floats beside them for people.
``summary()``
    One line: what was solved and the headline answer.
``renderables()``
    What a person reads: lines of text and tables (Rich renderables), in order.
``show(console)``
    Prints them (the command line does exactly this).
``repr(result)`` and ``result._repr_html_()``
    The summary, and the whole report as HTML in a Jupyter notebook.

Tables are printed through :class:`Fitted`, so that a narrow terminal never gets a
number cut short or split across lines: a table too wide for it is turned on its side,
or printed as one block of ``name: value`` lines per row.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from collections.abc import Iterable, Iterator
from typing import IO, Any, cast

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text


class Result:
    """Base of every result object: subclasses implement :meth:`to_json`, :meth:`summary` and :meth:`renderables`."""

    def to_json(self) -> dict | list:
        """The result as a JSON-ready document (the documented contract): a dict, or a list of rows for a table.

        Returns
        -------
        dict or list
            Strings, numbers, booleans, lists and dicts only.
        """
        raise NotImplementedError

    def summary(self) -> str:
        """One line for people: the question and its headline answer.

        Returns
        -------
        str
            The line.
        """
        raise NotImplementedError

    def renderables(self) -> Iterable[RenderableType]:
        """The report for people, as Rich renderables (text lines and tables), in order.

        Returns
        -------
        iterable
            Strings (printed as plain text) and Rich tables.
        """
        return [self.summary()]

    def show(self, console: Console | None = None) -> None:
        """Print the report for people.

        Parameters
        ----------
        console : rich.console.Console, optional
            Where to print (default: a new console on standard output).
        """
        console = console or Console()
        for r in self.renderables():
            console.print(Text(r) if isinstance(r, str) else fit(r), highlight=False)

    def json(self, indent: int | None = 2) -> str:
        """:meth:`to_json` as a JSON string.

        Parameters
        ----------
        indent : int or None
            Indentation (None: one line).

        Returns
        -------
        str
            The JSON text.
        """
        return json.dumps(self.to_json(), indent=indent)

    def __repr__(self) -> str:
        return f"<{type(self).__name__}: {self.summary()}>"

    def _repr_html_(self) -> str:
        console = Console(record=True, width=120, file=cast(IO[str], _Null()))  # it only writes
        self.show(console)
        return console.export_html(inline_styles=True, code_format="<pre style=\"font-size:12px\">{code}</pre>")


class _Null:
    """A file that swallows what is written (the recording console keeps it)."""

    def write(self, text: Any) -> int:
        return len(text)

    def flush(self) -> None:
        pass


# ---------------------------------------------------------------- tables on narrow terminals
def fit(renderable: RenderableType) -> RenderableType:
    """A table as :class:`Fitted` (anything else as it is).

    Parameters
    ----------
    renderable : RenderableType
        What is printed.

    Returns
    -------
    RenderableType
        The same, tables made to fit the console's width without cutting a value.
    """
    return Fitted(renderable) if isinstance(renderable, Table) else renderable


def _plain(cell: Any) -> str:
    if isinstance(cell, Text):
        return cell.plain
    if isinstance(cell, str):
        return Text.from_markup(cell).plain
    return str(cell)


class Fitted:
    """A table that never elides or splits a value to fit the console's width.

    As it is when every value fits unwrapped (headers and the first column, the row names, may
    wrap between words); else transposed (one column per row) when that fits; else one block per
    row, ``header: value`` on a line each, long lines wrapped only between words.

    Parameters
    ----------
    table : rich.table.Table
        The table.
    """

    def __init__(self, table: Table) -> None:
        self.table = table

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        for table in (self.table, _transposed(self.table)):
            laid = _laid_out(console, options, table, width) if table is not None else None
            if laid is not None:
                yield laid
                return
        yield from _key_values(self.table)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.table)


def _cells(table: Table) -> list[list[Any]]:
    return [list(c._cells) for c in table.columns]


def _laid_out(console: Console, options: ConsoleOptions, table: Table, width: int) -> Table | None:
    """``table`` with column widths fixed so that no value wraps (headers and the first column, the row
    names, may wrap between words), or None when it cannot fit ``width``."""
    wide = options.update(width=10**6)
    most, least = [], []
    for i, (col, cells) in enumerate(zip(table.columns, _cells(table))):
        head = Measurement.get(console, wide, col.header) if col.header else Measurement(0, 0)
        hi, lo = head.maximum, head.maximum if col.no_wrap else head.minimum
        for cell in cells:
            m = Measurement.get(console, wide, cell)
            hi, lo = max(hi, m.maximum), max(lo, m.minimum if i == 0 and not col.no_wrap else m.maximum)
        floor = col.min_width or 0
        most.append(max(hi, floor, 1))
        least.append(max(lo, floor, 1))
    _, right, _, left = table.padding
    n = len(table.columns)
    frame = n * (left + right) - (0 if table.pad_edge else left + right)
    if table.box is not None:
        frame += (n - 1) + (2 if table.show_edge else 0)
    if sum(least) + frame > width:
        return None
    widths, excess = list(most), sum(most) + frame - width
    for j in sorted(range(n), key=lambda k: most[k] - least[k], reverse=True):  # wrap words where most room is won
        if excess <= 0:
            break
        cut = min(excess, widths[j] - least[j])
        widths[j] -= cut
        excess -= cut
    laid = copy.copy(table)
    laid.columns = [dataclasses.replace(c, width=w) for c, w in zip(table.columns, widths)]
    return laid


def _transposed(table: Table) -> Table | None:
    """The table on its side: one column per row, headed by the row's first cell."""
    cols = _cells(table)
    if len(cols) < 2 or not cols[0]:
        return None
    turned = Table(title=table.title, caption=table.caption, box=table.box, show_edge=table.show_edge)
    turned.add_column(table.columns[0].header, justify="left")
    for name in cols[0]:
        turned.add_column(name, justify="right")
    for col, cells in zip(table.columns[1:], cols[1:]):
        turned.add_row(col.header, *cells)
    return turned


def _key_values(table: Table) -> list[RenderableType]:
    """One block per row: its first cell, then ``header: value`` lines (never split inside a word)."""
    cols = _cells(table)
    heads = [" ".join(_plain(c.header).split()) for c in table.columns]
    out: list[RenderableType] = []
    if table.title:
        out.append(Text(_plain(table.title), style="bold"))
    rows = max((len(c) for c in cols), default=0)
    for r in range(rows):
        values = [_plain(c[r]) if r < len(c) else "" for c in cols]
        label = values[0] if len(cols) > 1 else ""
        if label:
            out.append(Text(f"{heads[0]}: {label}" if heads[0] else label, style="bold"))
        for head, value in zip(heads[1:] if len(cols) > 1 else heads, values[1:] if len(cols) > 1 else values):
            value = " ".join(value.split())
            out.append(Text(f"  {head}: {value}" if head else f"  {value}"))
    if table.caption:
        out.append(Text(_plain(table.caption)))
    return out


_NOT_CERTIFICATES = ("seed_route",)


def failed_certificates(doc: Any, path: str = "") -> Iterator[str]:
    """Where a result document reports a certificate that does not hold.

    A certificate fails where a ``"certificate"`` table has ``"holds": false``,
    or a result says ``"certified": false``, ``"confirmed": false`` or
    ``"all_confirmed": false``, or a check's ``"status"`` is ``"refuted"`` or
    ``"inconclusive"`` (not proved either way).
    The candidates of the paper's own route to Model 3 (``"seed_route"``) are
    not certificates: that route may fail by design (Ethier & Lee 2023, d = 1).

    Parameters
    ----------
    doc : object
        A result's JSON document (dicts, lists, scalars).
    path : str
        The path of ``doc`` inside the whole document.

    Yields
    ------
    str
        The path of each failed certificate, e.g. ``equilibria[2].certificate``.
    """
    if isinstance(doc, dict):
        for key, value in doc.items():
            here = f"{path}.{key}" if path else key
            if key in _NOT_CERTIFICATES:
                continue
            if key == "certificate" and isinstance(value, dict) and value.get("holds") is False:
                yield here
            elif key in ("certified", "confirmed", "all_confirmed") and value is False:
                yield here
            elif key == "status" and value in ("refuted", "inconclusive"):
                yield here
            else:
                yield from failed_certificates(value, here)
    elif isinstance(doc, list):
        for k, value in enumerate(doc):
            yield from failed_certificates(value, f"{path}[{k}]")
