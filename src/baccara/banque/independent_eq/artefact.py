"""The independent cooperative lower value as a checkable artefact (``baccara banque prove --concept independent``).

:func:`prove` runs :func:`~baccara.banque.independent_eq.solution.solve_independent` at each rational
theta asked for and writes its exact proof
(:func:`~baccara.banque.independent_eq.proof.prove_lower_value`) with every step's data, so
that :mod:`baccara.check.banque_independent` can re-check it without the solvers.  The artefact
(kind ``banque-independent``) records:

- ``game``: the shoe and its coefficients (as in the ``banque-nash`` artefact: each Player's
  summed result per joint pure strategy with Banker standing, and the change when Banker draws at
  each information set, integers over ``denominator``);
- ``proofs``: one per theta, each with
  - ``value`` and ``maximiser`` (p1, p2), exactly, and ``others``: further maximisers;
  - ``local``: around each maximiser p* a rectangle, cut at p* into quarters; for each quarter
    its far corner and Banker's strategy there: he draws at the sets in ``draws`` (where
    B_i(p*) < 0) and mixes as ``banker_mix`` says at the sets whose curves pass through p*;
  - ``boxes``: the dyadic squares (x0, y0, side) that, with the rectangles, cover the unit
    square, each with Banker's strategy on it (``draws``, and ``banker_mix`` where he mixes).

For any Banker strategy q in [0, 1]^n, V(p) = A(p) + sum_i min(0, B_i(p)) is at most
W_q(p) = A(p) + sum_i q_i B_i(p), bilinear, so at most W_q's largest value at a rectangle's
four corners.  Each box's and each quarter's q puts W_q <= value at its corners; with the
cover and V(maximiser) = value, the maximum of V over the square (the Players' lower value)
is ``value``, exactly.

``draws`` is a hexadecimal integer whose bit k says that Banker draws at the k-th label of
the game's information sets in sorted (string) order, for example ``"(0,0,0)"`` first.  A
number a + b sqrt(d) is written ``[a, b, d]``; a box's corner and a mixture from the float LP
are dyadic rationals, written as fraction strings.

The theta can be proved on worker processes or a Dask cluster, each by one worker (``workers``,
:class:`~baccara.processes.Workers`); the document is the same, but for each proof's
``seconds``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from ...algebraic import fraction_str as fstr
from ...check.banque_independent import STATEMENT as statement  # the checker's sentence, one copy
from ...errors import CertificateError
from ..model import BanqueGame, banque_game, infoset_label, local_game
from ..nash_eq.artefact import ArtefactDocument, coefficients_json, number_json
from .proof import _exact_coefficients, _signs
from .solution import solve_independent
from .sweep import independent_sweep
from .sweep_proof import sample_theta

if TYPE_CHECKING:  # the worker processes load only when asked for
    from ...processes import Workers

KIND = "banque-independent"
VERSION = 1


def draws_hex(labels: Sequence[str], draws: set[str]) -> str:
    """The sets where Banker draws as the artefact writes them: bit k for ``labels[k]``.

    Parameters
    ----------
    labels : sequence of str
        Every information set's label, in sorted order.
    draws : set of str
        The labels where he draws.

    Returns
    -------
    str
        A hexadecimal integer (``"0x..."``).
    """
    return hex(sum(1 << k for k, lab in enumerate(labels) if lab in draws))


@dataclass(repr=False)
class IndependentValueArtefact(ArtefactDocument):
    """The artefact :func:`prove` writes (kind ``banque-independent``)."""

    def summary(self) -> str:
        """One line: how many theta, and the boxes of their covers."""
        ps = self.doc["proofs"]
        boxes, rects = sum(len(p["boxes"]) for p in ps), sum(len(p["local"]) for p in ps)
        return (f"banque independent cooperative lower value proved exactly at {len(ps)} theta "
                f"({boxes} box{'es' * (boxes != 1)}, {rects} local rectangle{'s' * (rects != 1)})")

    def renderables(self) -> list:
        """The summary, the statement and each theta's value and maximiser."""
        out: list = [self.summary(), self.doc["statement"]]
        for p in self.doc["proofs"]:
            m = p["maximiser"]
            where = (f" (sweep interval {p['sweep_interval'][0]:.7f} to {p['sweep_interval'][1]:.7f})"
                     if "sweep_interval" in p else "")
            out.append(f"  theta = {p['theta']}{where}: lower value {p['value_float']:.12f} at (p1, p2) = "
                       f"({m['float'][0]:.9f}, {m['float'][1]:.9f}); {len(p['boxes'])} boxes")
        return out


def _proof_task(args: tuple) -> dict:
    """:func:`_proof_json` in a worker: the game as this process keeps it, plain data back."""
    theta, game, labels = args
    return _proof_json(theta, local_game(game), labels)


def _proof_json(theta: Fraction, game: BanqueGame, labels: list[str]) -> dict:
    res = solve_independent(game, theta)
    ind, proof = res.solution, res.proof
    if not proof.holds:
        raise CertificateError(f"the exact proof of the lower value at theta = {theta} is {proof.status} "
                           f"({proof.reason}); no artefact is written for it")
    names = [infoset_label(k) for k in game.infosets]
    _, C = _exact_coefficients(theta, game)
    local = []
    for c in proof.local:
        signs = _signs(C, *c.point)
        local.append({
            "point": {"p1": number_json(c.point[0]), "p2": number_json(c.point[1])},
            "rectangle": {"p1": [fstr(c.box[0][0]), fstr(c.box[0][1])], "p2": [fstr(c.box[1][0]), fstr(c.box[1][1])]},
            "draws": draws_hex(labels, {names[i] for i, s in enumerate(signs) if s < 0}),
            "quarters": [{"corner": {"p1": fstr(qu.x), "p2": fstr(qu.y)},
                          "banker_mix": {names[i]: number_json(v) for i, v in qu.q.items()}} for qu in c.quarters],
        })
    boxes = []
    for arr, q in proof.cover:
        for (x0, y0, side), row in zip(arr, q):
            row = np.asarray(row, dtype=float)
            mix = {names[i]: fstr(Fraction(float(row[i]))) for i in np.nonzero((row > 0) & (row < 1))[0]}
            boxes.append({"box": [fstr(Fraction(float(x0))), fstr(Fraction(float(y0))), fstr(Fraction(float(side)))],
                          "draws": draws_hex(labels, {names[i] for i in np.nonzero(row == 1)[0]}),
                          **({"banker_mix": mix} if mix else {})})
    return {"theta": fstr(theta), "value": number_json(ind.lower_value), "value_float": float(ind.lower_value),
            "maximiser": {"p1": number_json(ind.p1), "p2": number_json(ind.p2),
                          "float": [float(ind.p1), float(ind.p2)]},
            "others": [{"p1": number_json(a), "p2": number_json(b)} for a, b in ind.ties],
            "local": local, "boxes": boxes, "seconds": round(proof.seconds, 3)}


def prove(thetas: Sequence[Fraction],
          progress: Callable[[str], None] | None = None,
          intervals: Sequence[tuple[float, float]] | None = None,
          workers: Workers | None = None) -> IndependentValueArtefact:
    """The independent cooperative lower value at each theta, proved exactly, as an artefact.

    Parameters
    ----------
    thetas : sequence of Fraction
        Player 1's shares of the stakes, each rational in (0, 1).
    intervals : sequence of (float, float), optional
        For each theta, the theta-sweep's interval it samples (written beside its proof).
    progress : callable, optional
        Called with a line of text as each theta starts (with several workers, as each is done).
    workers : Workers, optional
        Where the theta are proved (:class:`~baccara.processes.Workers`: processes here or a Dask
        cluster), each by one worker; default this process.  The artefact is the same (but for
        its timings).

    Returns
    -------
    IndependentValueArtefact
        The artefact, on the paper's infinite shoe (the one the document names and the checker counts); ``to_json()`` is the document (module docstring).

    Raises
    ------
    CertificateError
        When the exact proof is not conclusive at some theta (the command exits 1).
    """
    game = banque_game()
    say = progress or (lambda s: None)
    coefficients = coefficients_json(game)
    labels = sorted(coefficients["gain"])
    proofs: list[dict[str, Any]] = []
    with workers.executor("banque prove --concept independent") if workers and workers.parallel else nullcontext() as pool:
        if pool is None:
            for k, th in enumerate(thetas):
                say(f"proving the lower value at theta = {th} ({k + 1} of {len(thetas)})")
                proofs.append(_proof_json(th, game, labels))
        else:
            say(f"proving the lower value at {len(thetas)} theta, shared out")
            for k, (th, proof) in enumerate(zip(thetas, pool.map(_proof_task, [(th, game, labels) for th in thetas]))):
                say(f"proved the lower value at theta = {th} ({k + 1} of {len(thetas)})")
                proofs.append(proof)
    if intervals is not None:
        for proof, iv in zip(proofs, intervals):
            proof["sweep_interval"] = list(iv)
    doc = {"kind": KIND, "version": VERSION, "statement": statement,
           "game": {"model": "simplified", "shoe": {"kind": "infinite"}, "coefficients": coefficients},
           "draws_order": "bit k of a draws integer is the k-th label of game.coefficients.gain in sorted order",
           "proofs": proofs}
    return IndependentValueArtefact(doc)


def prove_sweep_samples(progress: Callable[[str], None] | None = None,
                        workers: Workers | None = None) -> IndependentValueArtefact:
    """The lower value proved exactly at one rational theta inside every interval of the theta-sweep.

    The sweep (:func:`~baccara.banque.independent_eq.sweep.independent_sweep`, in floats, about
    two minutes) splits (0, 1/2] where the maximiser changes form; each interval's sample is the
    rational of smallest denominator in its middle third
    (:func:`~baccara.banque.independent_eq.sweep_proof.sample_theta`).  Between samples the value is
    proved by :mod:`~baccara.banque.independent_eq.interval`, which writes no artefact.

    Parameters
    ----------
    progress : callable, optional
        Called with a line of text as each stage starts.
    workers : Workers, optional
        Where the samples are proved (:func:`prove`); the sweep runs here.

    Returns
    -------
    IndependentValueArtefact
        One proof per interval, each with its ``sweep_interval`` (the float ends).
    """
    say = progress or (lambda s: None)
    say("the theta-sweep of the independent cooperative equilibrium (about two minutes)")
    sw = independent_sweep()
    ivs = [(iv.lo, iv.hi) for iv in sw.intervals]
    return prove([sample_theta(max(lo, 1e-12), hi) for lo, hi in ivs], progress=progress, intervals=ivs,
                 workers=workers)
