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
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import IO, Any, cast

from rich.console import Console, RenderableType
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
            console.print(Text(r) if isinstance(r, str) else r, highlight=False)

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
