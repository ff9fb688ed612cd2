"""``baccara report``: the math report of one bet, as an HTML page, a PDF or JSON.

The command is declared in :mod:`baccara.commands.report` (its body makes the report); here the command
line prints it, or writes it with ``--out`` (:mod:`baccara.punto.report_html`), or both with ``--json``.
Its ``--json`` is its own: with ``--out`` it prints the figures besides writing the page, and the report
quotes it in its command.
"""

from __future__ import annotations

from typing import Any

from ..commands import Param
from ..commands.report import OUT, REPORT, command_line
from .common import app, render, say, typed
from .errors import handles_errors

#: ``--json``, listed after ``--out``: the figures as JSON (with ``--out``, besides the page).
JSON = Param("json_out", "--json", "Print the report's figures as JSON (exact numbers as 'num/den' strings, floats "
                                   "beside them).", False, "bool", web=False)


def report(**kw: Any) -> None:
    """Make the report (:data:`~baccara.commands.report.REPORT`'s body), then write it, print it, or both."""
    json_out = kw.pop("json_out")
    result = REPORT.function()(**kw)
    if json_out:  # the report quotes its command as given
        result.command = command_line(kw, json_out=True)
    if kw["out_path"] is not None:
        from ..punto.report_html import write_report  # lazy: matplotlib and the page, only for --out

        written = write_report(result, kw["out_path"])
        say(f"report written to {written}")
    if json_out or kw["out_path"] is None:
        render(result, json_out)


typed(report, [p for q in REPORT.params for p in ((q, JSON) if q is OUT else (q,))], REPORT, __name__)
app.command("report")(handles_errors(report))
