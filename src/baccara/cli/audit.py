"""``baccara audit``: from a casino's hand log and bet log, the evidence that a player counted or edge-sorted.

The command is declared in :mod:`baccara.commands.audit` (its body audits one table, or a folder of tables);
here the command line prints the result, or writes the report with ``--out`` (:mod:`baccara.audit.html`), or
both with ``--json``.  Its ``--json`` is its own, listed after ``--out``.
"""

from __future__ import annotations

from typing import Any

from ..commands import Param
from ..commands.audit import AUDIT, OUT
from .common import app, render, say, typed
from .errors import handles_errors

#: ``--json``, listed after ``--out``: the document (with ``--out``, besides the report).
JSON = Param("json_out", "--json", "Print JSON: players -> verdict, p-values, EV figures (with --tables: tables -> "
                                   "each table's document).", False, "bool", web=False)


def audit(**kw: Any) -> Any:
    """Audit (:data:`~baccara.commands.audit.AUDIT`'s body), then write the report, print the result, or both."""
    json_out = kw.pop("json_out")
    result = AUDIT.function()(**kw)
    if kw["out_path"] is not None:
        from ..audit.html import write_audit_report  # lazy: matplotlib

        written = write_audit_report(result, kw["out_path"])
        say(f"report written to {written}")
        if not json_out:
            return None
    return render(result, json_out)


typed(audit, [p for q in AUDIT.params for p in ((q, JSON) if q is OUT else (q,))], AUDIT, __name__)
app.command("audit")(handles_errors(audit))
