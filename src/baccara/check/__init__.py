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

Use :func:`check` on a loaded document or :func:`check_file` on a path; the
command line is ``baccara check FILE``.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import BaccaraError
from ..result import Result

#: The artefact kinds this package checks, and the module that checks each.
#: A checker module defines ``check(doc: dict, quick: bool, workers: int) -> list[Step]``.
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
    """

    name: str
    ok: bool
    detail: str = ""


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
    """

    kind: str
    source: str
    steps: list[Step] = field(default_factory=list)

    @property
    def holds(self) -> bool:
        """True when there is at least one step and every step holds."""
        return bool(self.steps) and all(s.ok for s in self.steps)

    def to_json(self) -> dict:
        """The report as a JSON-ready dict: ``kind``, ``source``, ``holds`` and every step.

        Returns
        -------
        dict
            ``{"kind", "source", "holds", "steps": [{"name", "ok", "detail"}]}``.
        """
        return {"kind": self.kind, "source": self.source, "holds": self.holds,
                "steps": [{"name": s.name, "ok": s.ok, "detail": s.detail} for s in self.steps]}

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
        shown = self.steps if len(self.steps) <= 40 else [s for s in self.steps if not s.ok]
        for s in shown:
            yield f"  {'ok  ' if s.ok else 'FAIL'} {s.name}{': ' + s.detail if s.detail else ''}"


def check(doc: Any, source: str = "<document>", quick: bool = False, workers: int = 1) -> CheckReport:
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
    workers : int
        Processes for that step.

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
    if kind not in CHECKERS:
        raise ArtefactError(f"FILE: {source} has kind {kind!r}; this version checks {', '.join(sorted(CHECKERS))}")
    module = importlib.import_module(CHECKERS[kind])
    try:
        steps = module.check(doc, quick=quick, workers=workers)
    except (KeyError, TypeError, ValueError, IndexError, ZeroDivisionError) as e:
        if isinstance(e, BaccaraError):
            raise
        # a malformed artefact is a failed check, never a traceback
        steps = [Step("artefact well formed", False, f"{type(e).__name__}: {e}")]
    return CheckReport(kind, source, list(steps))


def check_file(path: str | Path, quick: bool = False, workers: int = 1) -> CheckReport:
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
        doc = json.loads(Path(path).read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ArtefactError(f"FILE: cannot read {path} as JSON ({e})") from None
    return check(doc, str(path), quick=quick, workers=workers)


__all__ = ["CHECKERS", "ArtefactError", "CheckReport", "Step", "check", "check_file"]
