"""The banque Nash proof as a checkable artefact (``baccara banque prove``).

:func:`prove` runs :func:`~baccara.banque.nash_eq.proof.nash_proof` over a range of theta
(split at 5772/33847, the two halves run apart), then enumerates every Nash equilibrium
(:func:`~baccara.banque.nash_eq.solution.nash_equilibria`) at one rational sample of each interval
between consecutive events, and at the range's upper end.  The artefact (kind ``banque-nash``)
records:

- ``game``: the shoe and its coefficients (each Player's summed result per joint pure strategy
  with Banker standing, and the change when Banker draws at each information set, integers over
  ``denominator``);
- ``events``: each an irreducible integer polynomial and a rational interval isolating its root,
  with the equilibrium forms that appear and disappear there;
- ``intervals``: between consecutive events (and the range's ends), a sample theta and the
  extreme equilibria found there, exactly: (p1, p2), the sets where Banker is indifferent, his
  draw probability at each;
- ``points``: the range's rational upper end, if included, with its equilibria;
- ``statement``: what is proved.

A number a + b sqrt(d) is written ``[a, b, d]`` (a, b as fraction strings, d an integer, 1 for
a rational).  :mod:`baccara.check.banque` re-checks it without the solvers.

The long steps can run on worker processes or a Dask cluster (``workers``,
:class:`~baccara.processes.Workers`): the candidates of each part's event analysis, in chunks
merged in order, and the enumerations at the samples.  The document is the same, but for the
timings in ``proof_runs``.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Iterable
from concurrent.futures import Executor
from contextlib import nullcontext
from dataclasses import dataclass, field
from fractions import Fraction
from math import isqrt
from typing import TYPE_CHECKING, Any

import flint

from ...algebraic import QuadraticNumber
from ...algebraic import fraction_str as fstr
from ...check.banque import statement as sentence  # one sentence for the prover and the checker
from ...errors import BaccaraError
from ...result import Result
from ...solve.roots import Endpoint, arb_of, exact_bounds, precision, rational_between_balls
from ...solve.sweep import rational_between
from ..model import BanqueGame, banque_game, infoset_label, local_game
from .events import EVENTS_FILE, THETA_9_11, UPPER_EVENTS_FILE, stored_events
from .proof import CHUNKS_PER_WORKER, nash_proof
from .solution import _Setup, nash_equilibria

if TYPE_CHECKING:  # the worker processes load only when asked for
    from ...processes import Workers

KIND = "banque-nash"
VERSION = 1


def number_json(x: Any) -> list:
    """``[a, b, d]`` for a + b sqrt(d), with d's square factors moved into b (the solvers carry d as a
    discriminant: 245569 (13^16 2^16 607)^2 reads 245569 here).

    Parameters
    ----------
    x : Fraction, int or QuadraticNumber
        The number.

    Returns
    -------
    list
        Two fraction strings and an integer (1 for a rational).
    """
    q = QuadraticNumber.of(x)
    b, d = q.s, int(q.d)
    if b:
        k = 1
        for p, e in flint.fmpz(d).factor_smooth(32):
            r = isqrt(int(p))
            k *= r**e if r * r == int(p) else int(p) ** (e // 2)    # the last factor may be unsplit
        d //= k * k
        b *= k
        if d == 1:
            return [fstr(q.r + b), "0/1", 1]
    return [fstr(q.r), fstr(b), d]


def coefficients_json(game: BanqueGame) -> dict:
    """The game's coefficients as the artefact stores them.

    Parameters
    ----------
    game : BanqueGame
        The game.

    Returns
    -------
    dict
        ``{"denominator", "base": [[P1, P2] per joint u], "gain": {"(k1,k2,j)": [[P1 per u], [P2 per u]]}}``,
        the sets with every change zero left out.
    """
    gain = {}
    for k in game.infosets:
        rows = [[int(game.gain[u][p][k]) for u in range(4)] for p in (0, 1)]
        if any(any(r) for r in rows):
            gain[infoset_label(k)] = rows
    return {"denominator": int(game.denominator), "base": [[int(a), int(b)] for a, b in game.base], "gain": gain}


def _equilibria_task(args: tuple) -> tuple[list[dict], list[str]]:
    """:func:`_equilibria_json` in a worker: the game as this process keeps it, plain data back."""
    theta, game = args
    return _equilibria_json(theta, local_game(game))


def _equilibria_json(theta: Fraction, game: BanqueGame) -> tuple[list[dict], list[str]]:
    sol = nash_equilibria(game, theta)
    rows = []
    for e in sol.equilibria:
        rows.append({"p1": number_json(e.p1), "p2": number_json(e.p2),
                     "banker_indifferent": {infoset_label(game.infosets[i]): number_json(e.draw[i]) for i in e.mixed},
                     "form": _sig(e, game), "float": [float(e.p1), float(e.p2)]})
    return rows, list(sol.continua)


def _sig(e, game: BanqueGame) -> str:
    """The equilibrium's form: which Players play pure, where Banker is indifferent, and (a digest
    of) where he draws (:func:`draw_digest`)."""
    pure = [f"p{w}={int(p)}" for w, p in ((1, e.p1), (2, e.p2)) if p in (0, 1)]
    draws = [infoset_label(game.infosets[i]) for i, x in enumerate(e.draw) if x == 1]
    return (("; ".join(pure) or "both mix") + " | Z=" + ",".join(sorted(infoset_label(game.infosets[i]) for i in e.mixed))
            + " | D=" + draw_digest(draws))


def draw_digest(labels: list[str]) -> str:
    """A short digest of a set of information sets (the sets where Banker draws): the first 12 hex
    digits of the SHA-256 of their labels, sorted and joined by spaces.

    Parameters
    ----------
    labels : list of str
        Labels such as ``"(6,10,6)"``.

    Returns
    -------
    str
        12 hexadecimal digits.
    """
    return hashlib.sha256(" ".join(sorted(labels)).encode()).hexdigest()[:12]


@dataclass(repr=False)
class ArtefactDocument(Result):
    """A proof artefact as a :class:`~baccara.result.Result`: ``doc`` is the JSON document."""

    doc: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        """The artefact itself (its ``kind`` says which checker reads it)."""
        return self.doc


@dataclass(repr=False)
class BanqueProofArtefact(ArtefactDocument):
    """The artefact :func:`prove` writes (kind ``banque-nash``)."""

    def summary(self) -> str:
        """One line: the range, the events, the intervals and how many carry several equilibria."""
        d = self.doc
        multi = [iv for iv in d["intervals"] if iv["player_strategies"] > 1]
        lo, hi = Fraction(d["range"]["lo"]), Fraction(d["range"]["hi"])
        return (f"banque Nash proof over ({lo}, {hi}{']' if d['range']['hi_included'] else ')'}: "
                f"{len(d['events'])} events, {len(d['intervals'])} intervals, {len(multi)} with several equilibria")

    def renderables(self) -> list:
        """The summary, the statement and the intervals with several equilibria."""
        d = self.doc
        out = [self.summary(), d["statement"]]
        for iv in d["intervals"]:
            if iv["player_strategies"] > 1:
                out.append(f"  ({iv['lo_float']:.7f}, {iv['hi_float']:.7f}): {iv['player_strategies']} equilibria "
                           f"(Players' strategies) at theta = {iv['sample']}")
        return out


def _event_json(e: Endpoint) -> dict:
    if e.poly is None:
        assert e.rational is not None
        r = e.rational
        return {"polynomial": [-r.numerator, r.denominator], "interval": [fstr(r), fstr(r)], "float": float(r)}
    f = e.minimal_polynomial
    if f.degree() == 1:           # a rational event: exactly
        r = Fraction(-int(f[0]), int(f[1]))
        return {"polynomial": [int(c) for c in f.coeffs()], "interval": [fstr(r), fstr(r)], "float": float(r)}
    a, b = exact_bounds(e.ball)
    return {"polynomial": [int(c) for c in f.coeffs()], "interval": [fstr(a), fstr(b)], "float": float(e)}


def _coincide_unequally(theta: Fraction, game: BanqueGame | None) -> bool:
    """Do two of Banker's indifference curves crossing the square coincide at theta while the
    Players' gains there are not in the same ratio?  (The independent checker lists the
    equilibria there too, with a draw variable per set, but at more cost; a sample off these
    theta keeps each interval's check the plain one.)"""
    setup = _Setup(theta, game)
    for grp in set(setup.siblings.values()):
        k = grp[0]
        nz = next(i for i, v in enumerate(setup.curves[k]) if v)
        for j in grp[1:]:
            lam = Fraction(setup.curves[j][nz]) / setup.curves[k][nz]
            if any(a != lam * b for a, b in zip(setup.e1[j] + setup.e2[j], setup.e1[k] + setup.e2[k])):
                return True
    return False


def _generic_sample(x, y, game: BanqueGame | None) -> Fraction:
    """A short rational between the balls x < y, away from the theta where two of Banker's
    curves coincide with unequal gains (any theta of the interval serves as its sample; these
    few simple ones, 1/4 among them, need the checker's slower case of shared curves)."""
    t = rational_between_balls(x, y)
    a, b = exact_bounds(x)[1], exact_bounds(y)[0]
    k = 1
    while _coincide_unequally(t, game) and k < 64:
        k += 1
        t = rational_between(a + (b - a) * k / 66, a + (b - a) * (k + 1) / 66)
    return t


def prove(lo: Fraction = Fraction(0), hi: Fraction = Fraction(1, 2), game: BanqueGame | None = None,
          progress: Callable[[str], None] | None = None, stored: bool = False,
          workers: Workers | None = None) -> BanqueProofArtefact:
    """The banque Nash proof over (lo, hi] as an artefact (module docstring).

    Parameters
    ----------
    lo, hi : Fraction
        The range, 0 <= lo < hi <= 1/2; hi is included (its equilibria enumerated), lo is not.
    game : BanqueGame, optional
        The game (default: the paper's infinite shoe).
    progress : callable, optional
        Called with a line of text as each stage starts.
    stored : bool
        Take the events of a part that is exactly (0, 5772/33847) or (5772/33847, 1/2) from the
        files shipped with the package (:func:`~baccara.banque.nash_eq.events.stored_events`,
        each re-derived by a slow test) instead of re-running the event analysis (most of the
        time); the artefact says which parts were stored.  Only for the paper's game.
    workers : Workers, optional
        Where the long steps run (:class:`~baccara.processes.Workers`: processes here or a Dask
        cluster): the candidates of each part's event analysis, and the enumerations at the
        samples.  Default: this process.  The artefact is the same (but for its timings).

    Returns
    -------
    BanqueProofArtefact
        The artefact; ``to_json()`` is the document.
    """
    lo, hi = Fraction(lo), Fraction(hi)
    if not (0 <= lo < hi <= Fraction(1, 2)):
        raise BaccaraError(f"the range must satisfy 0 <= lo < hi <= 1/2, got ({lo}, {hi})")
    game = game or banque_game()
    with workers.executor("banque prove") if workers and workers.parallel else nullcontext() as pool:
        return _prove(lo, hi, game, progress or (lambda s: None), stored, pool,
                      CHUNKS_PER_WORKER * max(workers.count if workers else 1, 2))


def _prove(lo: Fraction, hi: Fraction, game: BanqueGame, say: Callable[[str], None], stored: bool,
           pool: Executor | None, chunks: int) -> BanqueProofArtefact:
    cuts = [lo] + ([THETA_9_11] if lo < THETA_9_11 < hi else []) + [hi]
    events: list[Endpoint] = []
    runs: list[dict[str, Any]] = []
    for a, b in zip(cuts, cuts[1:]):
        name = {(Fraction(0), THETA_9_11): EVENTS_FILE, (THETA_9_11, Fraction(1, 2)): UPPER_EVENTS_FILE}.get((a, b))
        if stored and name is not None and game.shoe is None:
            found = stored_events(name)
            if found:
                say(f"events of ({a}, {b}): stored")
                runs.append({"range": [fstr(a), fstr(b)], "stored": name})
                if events:
                    events.append(Endpoint.of_rational(a))
                events += found
                continue
        say(f"events of ({a}, {b})")
        proof = nash_proof(a, b, game, pool=pool, chunks=chunks)
        if proof.continua:
            raise BaccaraError(f"continua of equilibria met on ({a}, {b}): {proof.continua[:3]}")
        runs.append({"range": [fstr(a), fstr(b)], "relevant_sets": len(proof.relevant), "counts": proof.counts,
                     "seconds": round(proof.seconds, 1), "coincident_curves": len(proof.coincident),
                     "degenerate_points": len(proof.degenerate)})
        if events:
            events.append(Endpoint.of_rational(a))
        events += proof.events
    with precision():
        ev_json = [_event_json(e) for e in events]
        balls = [e.ball for e in events]

        edges = [arb_of(lo)] + balls + [arb_of(hi)]
        samples = [_generic_sample(x, y, game) for x, y in zip(edges, edges[1:])]
    intervals: list[dict[str, Any]] = []
    thetas = [*samples, hi]
    if pool is None:
        listed: Iterable[tuple[list[dict], list[str]]] = (_equilibria_json(t, game) for t in thetas)
    else:
        say(f"equilibria at {len(thetas)} theta, shared out")
        listed = pool.map(_equilibria_task, [(t, game) for t in thetas])
    enumerated = iter(listed)
    for n, t in enumerate(samples):
        say(f"equilibria at theta = {t} ({n + 1} of {len(samples)})")
        eqs, continua = next(enumerated)
        if continua:
            raise BaccaraError(f"continua of equilibria at theta = {t}: {continua[:3]}")
        intervals.append({"sample": fstr(t), "equilibria": eqs,
                          "player_strategies": len({(tuple(e["p1"]), tuple(e["p2"])) for e in eqs}),
                          "lo_float": float(lo) if n == 0 else ev_json[n - 1]["float"],
                          "hi_float": float(hi) if n == len(samples) - 1 else ev_json[n]["float"]})
    for n, ev in enumerate(ev_json):
        left = Counter(e["form"] for e in intervals[n]["equilibria"])
        right = Counter(e["form"] for e in intervals[n + 1]["equilibria"])
        ev["disappear"] = sorted((left - right).elements())
        ev["appear"] = sorted((right - left).elements())
    say(f"equilibria at theta = {hi}")
    top, _ = next(enumerated)
    points = [{"theta": fstr(hi), "equilibria": top, "player_strategies": len({(tuple(e["p1"]), tuple(e["p2"])) for e in top})}]
    doc = {
        "kind": KIND, "version": VERSION,
        "game": {"model": "simplified", "shoe": game.shoe_json(), "coefficients": coefficients_json(game)},
        "range": {"lo": fstr(lo), "hi": fstr(hi), "lo_included": False, "hi_included": True},
        "events": ev_json, "intervals": intervals, "points": points,
        "statement": _statement(lo, hi, intervals, ev_json, points),
        "proof_runs": runs,
    }
    return BanqueProofArtefact(doc)


def _statement(lo, hi, intervals, events, points) -> str:
    return sentence(lo, hi, [(iv["lo_float"], iv["hi_float"], iv["player_strategies"]) for iv in intervals],
                    len(events), points[0]["player_strategies"])
