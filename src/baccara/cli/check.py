"""``baccara check FILE``: re-check a proof artefact with the independent checker (:mod:`baccara.check`)."""

from __future__ import annotations

import typer

from ..check import check_file
from .common import JSON, app, render
from .errors import fail, handles_errors


@app.command("check")
@handles_errors
def check_cmd(
    file: str = typer.Argument(..., metavar="FILE", help="A proof artefact written by a prove command (JSON)."),
    json_out: bool = JSON,
    quick: bool = typer.Option(False, "--quick", help="Skip the longest step, the banque checker's recomputation of "
                               "the events (about an hour for all of (0, 1/2]); the report says it was skipped."),
    workers: int = typer.Option(1, "--workers", min=1, max=256, help="Processes for the recomputation of the events "
                                "(1 to 256; one per core)."),
) -> None:
    """Re-check a proof artefact independently of the solvers: exit 0 if every step holds, 1 if one fails."""
    report = check_file(file, quick=quick, workers=workers)
    render(report, json_out)
    if not report.holds:
        fail(f"the artefact {file} does not re-check: {sum(not s.ok for s in report.steps)} step(s) fail", status=1)
