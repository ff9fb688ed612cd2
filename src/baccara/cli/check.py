"""``baccara check FILE``: re-check a proof artefact with the independent checker (:mod:`baccara.check`),
print the theorem it derives, and hold it to what the reader demands (``--kind``, ``--decks``, ``--range``)."""

from __future__ import annotations

from fractions import Fraction

import typer

from .. import params
from ..check import CHECKERS, check_file, expect
from ..errors import ParameterError
from ..processes import Workers
from .common import JSON, PROOF_BACKEND, SCHEDULER, app, render
from .errors import err, fail, handles_errors


def _range(text: str) -> tuple[Fraction, Fraction]:
    """``--range LO,HI`` (or one value): two rationals in [0, 1), LO <= HI."""
    parts = text.split(",")
    if len(parts) not in (1, 2):
        raise ParameterError(f"--range must be LO,HI or one value (rationals in [0, 1)), got {text!r}")
    lo, hi = (params.rational(p.strip(), "--range", lo=0, hi=1, hi_open=True, example="1/20,1/10 or 1/2")
              for p in (parts * 2)[:2])
    if hi < lo:
        raise ParameterError(f"--range must be LO,HI with LO <= HI, got {text!r}")
    return lo, hi


@app.command("check")
@handles_errors
def check_cmd(
    file: str = typer.Argument(..., metavar="FILE", help="A proof artefact written by a prove command (JSON)."),
    json_out: bool = JSON,
    quick: bool = typer.Option(False, "--quick", help="Skip the longest step, the banque checker's recomputation of "
                               "the events (about an hour for all of (0, 1/2]); the report marks it skipped."),
    workers: int = typer.Option(1, "--workers", min=1, max=256, help="Processes for the recomputation of the events "
                                "(1 to 256; one per core)."),
    backend: str = PROOF_BACKEND,
    scheduler: str | None = SCHEDULER,
    kind: str | None = typer.Option(None, "--kind", help=f"Demand an artefact of this kind ({', '.join(CHECKERS)})."),
    decks: str | None = typer.Option(None, "--decks", "-d", help="Demand a proof for this shoe: a number of decks, "
                                     "or 'inf' (the banque artefacts are of the infinite shoe)."),
    range_: str | None = typer.Option(None, "--range", metavar="LO,HI", help="Demand a proof for every value of "
                                      "the parameter (alpha for chemin, theta for banque) in [LO, HI]; one value "
                                      "for a single theta."),
) -> None:
    """Re-check a proof artefact independently of the solvers and print the theorem it proves: exit 0 if every
    step holds and every demand (--kind, --decks, --range) is met, 1 if not, 2 on bad input."""
    if kind is not None and kind not in CHECKERS:
        raise ParameterError(f"--kind must be one of {', '.join(CHECKERS)}, got {kind!r}")
    if decks is not None:
        d = params.decks(decks, "--decks")
        decks = "inf" if d is None else str(d)
    lo, hi = _range(range_) if range_ is not None else (None, None)
    backend, scheduler = params.backend(backend, scheduler)
    where = Workers(workers, backend, scheduler)
    report = check_file(file, quick=quick, workers=where)
    if where.parallel and (report.kind != "banque-nash" or quick):
        err.print("note: --workers, --backend and --scheduler share out the banque events' recomputation only; "
                  "this check has none, so it ran here", highlight=False)
    render(report, json_out)
    if not report.holds:
        fail(f"the artefact {file} does not re-check: {sum(not s.ok for s in report.steps)} step(s) fail", status=1)
    unmet = expect(report, kind=kind, decks=decks, lo=lo, hi=hi)
    if unmet:
        fail(f"the artefact {file} re-checks but proves less than demanded: {'; '.join(unmet)}", status=1)
