"""``baccara check FILE``: re-check a proof artefact with the independent checker (:mod:`baccara.check`),
print the theorem it derives, and hold it to what the reader demands (``--kind``, ``--decks``, ``--range``).

The command is declared in :mod:`baccara.commands.check`; here its answer becomes the exit status.
"""

from __future__ import annotations

from typing import Any

from ..commands.check import CHECK, Checked
from .common import app, register
from .errors import fail


def refused(result: Checked, **_: Any) -> None:
    """Exit 1, once the report is shown, when the artefact does not re-check or proves less than demanded.

    Parameters
    ----------
    result : Checked
        What :func:`baccara.commands.check.check` returned.
    **_
        What else the command line hands over (``json_out``).
    """
    if not result.report.holds:
        fail(f"the artefact {result.file} does not re-check: {sum(not s.ok for s in result.report.steps)} step(s) "
             "fail", status=1)
    if result.unmet:
        fail(f"the artefact {result.file} re-checks but proves less than demanded: {'; '.join(result.unmet)}",
             status=1)


register(app, CHECK, __name__, refused, json_after="file")
