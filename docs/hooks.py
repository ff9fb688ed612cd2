"""MkDocs hooks for the baccara site.

Code blocks marked ``exec="on"`` are run at build time by markdown-exec, which captures what
they ``print``.  baccara's results also print their reports with ``result.show()`` (Rich, on
standard output): at start-up this hook gives :meth:`baccara.result.Result.show` a console that
writes into the block being executed, so a page can show the same report a user sees, at a
width that fits the page and without terminal colours.
"""

from __future__ import annotations

import functools
import io
import sys

WIDTH = 120


class _ToBlock(io.TextIOBase):
    """Write into the output of the markdown-exec block that is running (found up the stack)."""

    def write(self, text: str) -> int:
        frame = sys._getframe(1)
        while frame is not None:
            out = frame.f_globals.get("print")
            if isinstance(out, functools.partial):  # markdown-exec's print into the block's buffer
                out(text, end="")
                return len(text)
            frame = frame.f_back
        sys.stdout.write(text)
        return len(text)

    def flush(self) -> None:
        pass


def on_startup(command: str, dirty: bool) -> None:
    from rich.console import Console

    import baccara.result

    def console(*args, **kwargs):
        kwargs.setdefault("file", _ToBlock())
        kwargs.setdefault("width", WIDTH)
        kwargs.setdefault("color_system", None)
        kwargs.setdefault("force_terminal", False)
        return Console(*args, **kwargs)

    baccara.result.Console = console  # type: ignore[misc,assignment]
