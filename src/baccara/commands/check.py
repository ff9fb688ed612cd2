"""``baccara check FILE``: re-check a proof artefact with the independent checker (:mod:`baccara.check`), and hold
it to what the reader demands (``--kind``, ``--decks``, ``--range``), declared once.

The body returns the checker's report with the demands it does not meet; the command line prints it and
answers by its exit status (:mod:`baccara.cli.check`: 1 when the artefact does not re-check or proves less
than demanded).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .. import params
from ..check import CHECKERS, CheckReport, check_file, expect
from ..errors import ParameterError
from ..processes import Workers, check_workers
from ..result import Result
from . import Command, Param
from .console import err
from .options import PROOF_BACKEND, SCHEDULER

CHECK = Command(
    ("check",),
    "Re-check a proof artefact independently of the solvers and print the theorem it proves: exit 0 if every\n"
    "step holds and every demand (--kind, --decks, --range) is met, 1 if not, 2 on bad input.",
    (Param("file", "--file", "A proof artefact written by a prove command (JSON).", ..., file=True, argument=True,
           metavar="FILE", web_as="artefact"),
     Param("quick", "--quick", "Skip the longest step, the banque checker's recomputation of the events (about an hour "
                               "for all of (0, 1/2]); the report marks it skipped.", False, "bool"),
     Param("workers", "--workers", "Processes for the recomputation of the events (1 to twice the cores; one per "
                                   "core).", 1, "int", web=False),
     PROOF_BACKEND, SCHEDULER,
     Param("kind", "--kind", f"Demand an artefact of this kind ({', '.join(CHECKERS)})."),
     Param("decks", "--decks", "Demand a proof for this shoe: a number of decks, or 'inf' (the banque artefacts are "
                               "of the infinite shoe).", short="-d"),
     Param("range_", "--range", "Demand a proof for every value of the parameter (alpha for chemin, theta for banque) "
                                "in [LO, HI]; one value for a single theta.", metavar="LO,HI")),
    ".check:check")


@dataclass
class Checked(Result):
    """The checker's report on one artefact (its document and its lines), and the demands it does not meet.

    Parameters
    ----------
    report : CheckReport
        What :func:`baccara.check.check_file` found.
    file : str
        The artefact, as named.
    unmet : list of str
        One line per demand (``--kind``, ``--decks``, ``--range``) the artefact does not meet.
    """

    report: CheckReport
    file: str
    unmet: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        """The report's document (:meth:`baccara.check.CheckReport.to_json`).

        Returns
        -------
        dict
            As the report's.
        """
        return self.report.to_json()

    def summary(self) -> str:
        """The report's line: the artefact and whether it re-checks.

        Returns
        -------
        str
            The line.
        """
        return self.report.summary()

    def renderables(self) -> Iterable[Any]:
        """The report's lines.

        Returns
        -------
        iterable
            Lines of text.
        """
        return self.report.renderables()


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


def check(*, file: str, quick: bool, workers: int, backend: str, scheduler: str | None, kind: str | None,
          decks: str | None, range_: str | None) -> Checked:
    """Re-check the artefact and compare its theorem with the demands (:data:`CHECK`).

    Parameters
    ----------
    file : str
        The artefact (JSON).
    quick : bool
        Skip the banque checker's recomputation of the events.
    workers : int
        Processes for that recomputation.
    backend, scheduler : str or None
        Where they run (processes here, or Dask).
    kind, decks, range_ : str or None
        The kind, the shoe and the parameter range demanded.

    Returns
    -------
    Checked
        The report and the demands not met.
    """
    if kind is not None and kind not in CHECKERS:
        raise ParameterError(f"--kind must be one of {', '.join(CHECKERS)}, got {kind!r}")
    if decks is not None:
        d = params.decks(decks, "--decks")
        decks = "inf" if d is None else str(d)
    lo, hi = _range(range_) if range_ is not None else (None, None)
    backend, scheduler = params.backend(backend, scheduler)
    where = Workers(check_workers(workers), backend, scheduler)
    report = check_file(file, quick=quick, workers=where)
    if where.parallel and (report.kind != "banque-nash" or quick):
        err.print("note: --workers, --backend and --scheduler share out the banque events' recomputation only; "
                  "this check has none, so it ran here", highlight=False)
    unmet = expect(report, kind=kind, decks=decks, lo=lo, hi=hi) if report.holds else []
    return Checked(report, file, unmet)
