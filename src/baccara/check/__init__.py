"""Re-checking proof artefacts, independently of the solvers that wrote them.

A proof artefact is a JSON document written by a ``prove`` command (for
example ``baccara chemin prove --model B3 --decks 8 --out FILE``).  It records
every step of a proof over a whole parameter range: the game's coefficients,
the critical parameter values, the equilibria claimed in each interval and at
each critical value, and why nothing else is an equilibrium.

The modules of this package trust none of it.  Each re-derives the game's
payoff coefficients from the shoe by its own (plain, slow, exact) count of
the deals, and re-checks every claim in exact arithmetic.  They import no
solver: only the standard library, python-flint, and the two small modules
:mod:`baccara.result` and :mod:`baccara.errors` (a test holds them to this).

Besides re-checking, each derives the theorem the artefact proves from what it
verified (never from the artefact's text): :attr:`CheckReport.verified`, the
``verified`` object of ``baccara check --json``.  An artefact whose own
``statement`` differs from the derived one fails.  :func:`expect` holds a
report to a reader's demands (a range of the parameter, a shoe).

Use :func:`check` on a loaded document or :func:`check_file` on a path; the
command line is ``baccara check FILE``.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..errors import BaccaraError
from ..processes import Workers
from ..result import Result

#: The artefact kinds this package checks, and the module that checks each.
#: A checker module defines ``verify(doc: dict, quick: bool, workers: int) -> (list[Step], dict | None)``:
#: the steps, and the theorem derived from them (None when a step fails).
CHECKERS: dict[str, str] = {
    "chemin-b3-uniqueness": "baccara.check.chemin",
    "banque-nash": "baccara.check.banque",
    "banque-independent": "baccara.check.banque_independent",
}


class ArtefactError(BaccaraError):
    """A file that is not a proof artefact this version can check (unreadable, wrong kind, missing fields)."""


@dataclass(frozen=True)
class Step:
    """One re-checked claim of an artefact.

    Parameters
    ----------
    name : str
        What was checked (``"coefficients"``, ``"interval (0, 1/40)"``, ...).
    ok : bool
        Whether the claim holds.
    detail : str
        What was found, in a line.
    skipped : bool
        The claim was not checked (``quick``): ``ok`` is True so as not to fail the report, but the
        report says "skipped" and the derived theorem names the step as taken from the prover.
    """

    name: str
    ok: bool
    detail: str = ""
    skipped: bool = False


@dataclass
class CheckReport(Result):
    """The outcome of re-checking one artefact: every step, and whether all hold.

    Parameters
    ----------
    kind : str
        The artefact's kind (a key of :data:`CHECKERS`).
    source : str
        Where the artefact came from (a path, or ``"<document>"``).
    steps : list of Step
        Every claim re-checked, in order.
    verified : dict or None
        The theorem derived from the steps (kind, game, model, shoe, parameter range, the
        equilibria or values, the exceptions, and the sentence ``statement``); None when a
        step fails.
    """

    kind: str
    source: str
    steps: list[Step] = field(default_factory=list)
    verified: dict | None = None

    @property
    def holds(self) -> bool:
        """True when there is at least one step and every step holds."""
        return bool(self.steps) and all(s.ok for s in self.steps)

    def to_json(self) -> dict:
        """The report as a JSON-ready dict: ``kind``, ``source``, ``holds`` and every step.

        Returns
        -------
        dict
            ``{"kind", "source", "holds", "steps": [{"name", "ok", "detail", "skipped"}], "verified"}``
            (``verified``: the derived theorem, null when the artefact does not re-check).
        """
        return {"kind": self.kind, "source": self.source, "holds": self.holds,
                "steps": [{"name": s.name, "ok": s.ok, "detail": s.detail, "skipped": s.skipped}
                          for s in self.steps],
                "verified": self.verified if self.holds else None}

    def summary(self) -> str:
        """One line: the artefact and whether it re-checks.

        Returns
        -------
        str
            The line.
        """
        bad = sum(not s.ok for s in self.steps)
        verdict = "re-checks: every step holds" if self.holds else f"FAILS: {bad} of {len(self.steps)} steps do not hold"
        return f"{self.kind} artefact {self.source}: {len(self.steps)} steps, {verdict}"

    def renderables(self) -> Iterable[Any]:
        """The summary, then the steps that fail (all of them when fewer than 40).

        Returns
        -------
        iterable
            Lines of text.
        """
        yield self.summary()
        shown = self.steps if len(self.steps) <= 40 else [s for s in self.steps if not s.ok or s.skipped]
        for s in shown:
            mark = "skipped" if s.skipped else ("ok  " if s.ok else "FAIL")
            yield f"  {mark} {s.name}{': ' + s.detail if s.detail else ''}"
        if self.holds and self.verified is not None:
            yield f"verified: {self.verified['statement']}"
            for note in self.verified.get("taken_from_prover", []):
                yield f"  (not re-derived here: {note})"


def check(doc: Any, source: str = "<document>", quick: bool = False, workers: int | Workers = 1) -> CheckReport:
    """Re-check a proof artefact (a loaded JSON document) with the checker for its kind.

    Parameters
    ----------
    doc : dict
        The artefact, as loaded from JSON.
    source : str
        Where it came from, for the report.
    quick : bool
        Skip the one long step, the banque checker's recomputation of the events (the report
        says so); no effect on the other kinds.
    workers : int or Workers
        Processes for that step, or :class:`~baccara.processes.Workers` (a Dask cluster).

    Returns
    -------
    CheckReport
        Every step re-checked; ``holds`` says whether the proof stands.

    Raises
    ------
    ArtefactError
        When ``doc`` is not an artefact of a known kind.
    """
    if not isinstance(doc, dict) or "kind" not in doc:
        raise ArtefactError(f"FILE: {source} is not a proof artefact (a JSON object with a \"kind\" field); "
                            f"artefacts are written by the prove commands")
    kind = doc["kind"]
    if not isinstance(kind, str) or kind not in CHECKERS:
        raise ArtefactError(f"FILE: {source} has kind {str(kind)[:80]!r}; this version checks "
                            f"{', '.join(sorted(CHECKERS))}")
    module = importlib.import_module(CHECKERS[kind])
    if not isinstance(workers, Workers):
        workers = Workers(workers)
    try:
        steps, verified = module.verify(doc, quick=quick, workers=workers)
    except (KeyError, TypeError, ValueError, IndexError, ZeroDivisionError, AttributeError, OverflowError,
            RecursionError) as e:
        if isinstance(e, BaccaraError):
            raise
        # a malformed artefact is a failed check, never a traceback
        steps, verified = [Step("artefact well formed", False, f"{type(e).__name__}: {str(e)[:300]}")], None
    steps = list(steps)
    return CheckReport(kind, source, steps, verified if steps and all(s.ok for s in steps) else None)


#: The most bytes :func:`check_file` reads (the largest artefact written today is a few megabytes).
MAX_BYTES = 256 * 1024 * 1024


def check_file(path: str | Path, quick: bool = False, workers: int | Workers = 1) -> CheckReport:
    """Re-check the proof artefact in a JSON file.

    Parameters
    ----------
    path : str or Path
        The artefact file.
    quick, workers
        As in :func:`check`.

    Returns
    -------
    CheckReport
        As :func:`check`.

    Raises
    ------
    ArtefactError
        When the file cannot be read or is not an artefact of a known kind.
    """
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_BYTES + 1)
    except OSError as e:
        raise ArtefactError(f"FILE: cannot read {path} ({e.strerror or e})") from None
    if len(data) > MAX_BYTES:
        raise ArtefactError(f"FILE: {path} is larger than {MAX_BYTES // 2**20} MiB, more than any artefact; "
                            "not read further")
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as e:
        why = "nested too deeply" if isinstance(e, RecursionError) else str(e)[:200]
        raise ArtefactError(f"FILE: cannot read {path} as JSON ({why})") from None
    return check(doc, str(path), quick=quick, workers=workers)


def expect(report: CheckReport, kind: str | None = None, decks: str | None = None,
           lo: Fraction | None = None, hi: Fraction | None = None) -> list[str]:
    """What a reader demands of a proof that the report's derived theorem does not give.

    Parameters
    ----------
    report : CheckReport
        A report that holds (its ``verified`` theorem is what is compared).
    kind : str, optional
        The artefact kind demanded.
    decks : str, optional
        The shoe demanded: a number of decks, or ``"inf"`` (the infinite shoe).
    lo, hi : Fraction, optional
        The parameter range the proof must cover (alpha for chemin, theta for banque): the proved
        range must contain [lo, hi]; for an artefact proved at listed points, each point demanded
        must be listed.

    Returns
    -------
    list of str
        One line per demand not met (empty: every demand met).
    """
    v = report.verified
    if v is None:
        return ["the artefact does not re-check, so it proves nothing"]
    out = []
    if kind is not None and v["kind"] != kind:
        out.append(f"--kind {kind} demanded, the artefact is of kind {v['kind']}")
    if decks is not None and str(v.get("decks")) != decks:
        out.append(f"--decks {decks} demanded, the artefact is of d = {v.get('decks')}")
    if lo is not None and hi is not None:
        if "range" in v:
            a, b = (Fraction(t) for t in v["range"])
            closed_lo = v.get("lo_included", True)
            ok = (a < lo or (closed_lo and a == lo)) and hi <= b
            if not ok:
                par = v.get("parameter", "the parameter")
                shown = f"{'[' if closed_lo else '('}{v['range'][0]}, {v['range'][1]}]"
                out.append(f"--range {lo},{hi} demanded, the artefact proves {par} in {shown} only")
        else:
            pts = {Fraction(p["theta"]) for p in v.get("values", [])}
            if lo != hi or lo not in pts:
                out.append(f"--range {lo},{hi} demanded, the artefact proves its values at the listed theta "
                           f"only: {', '.join(str(t) for t in sorted(pts))}")
    return out


__all__ = ["CHECKERS", "MAX_BYTES", "ArtefactError", "CheckReport", "Step", "check", "check_file", "expect"]
