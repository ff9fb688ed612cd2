"""Baccara banque as a three-person game: build it on any shoe, solve it at a stake split theta.

The game follows S. N. Ethier and J. Lee, "Baccara banque: a game-theoretic
analysis", *Games* 6(2), 57-78 (2015): Banker against two Players, whose stakes
are in the proportion theta : 1 - theta.  Each Player chooses at 5 (draw or
stand); Banker chooses at each of 1144 information sets (what each Player
shows, his own total).  Three solution concepts:

- the **correlated cooperative equilibrium** (the Players form a coalition and
  may correlate their choices): :func:`correlated`;
- the **independent cooperative equilibrium** (the coalition's members choose
  independently: maximin p1, p2 and the lower and upper values, the lower value
  proved exactly): :func:`independent` (the proof alone: :func:`prove_lower_value`; as a
  checkable artefact: :func:`prove_independent`);
- every **Nash equilibrium** (each Player for himself): :func:`nash`;

each over every theta in (0, 1/2] (:func:`sweep`), and the full models the paper set aside, where Player 2 sees Player 1's third
card ("traditional") or intention ("recent"): :func:`full`.  The paper deals
with replacement (the infinite shoe, the default); any finite shoe works too.

The modules: the game (:mod:`.model`, its kernel :mod:`.kernel`), one sub-package per solution
concept (:mod:`.correlated_eq`, :mod:`.independent_eq`, :mod:`.nash_eq`: each with its ``solution``
and ``sweep``, the last two with their proofs and artefacts), the full models (:mod:`.full_models`),
the banker's advantage (:mod:`.comparison`), the sweeps' results (:mod:`.sweeps`) and the reports
(:mod:`.report`).

Examples
--------
>>> from fractions import Fraction
>>> from baccara import banque
>>> banque.correlated("1/2").value
Fraction(-16655514960, 1919414386513)
>>> banque.correlated("1/2", decks=8)                     # doctest: +ELLIPSIS
<CorrelatedSolution: Baccara banque, simplified model, 8 decks, theta = 1/2: ...>
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from .. import params
from ..algebraic import QuadraticNumber
from ..errors import BaccaraError, ParameterError
from ..shoe import Shoe
from .comparison import AdvantageComparison, banker_advantage_comparison
from .correlated_eq.solution import CorrelatedSolution, correlated_equilibrium
from .full_models import FullCorrelated, full_correlated_equilibrium
from .independent_eq.artefact import IndependentValueArtefact
from .independent_eq.proof import ExactMaximinProof
from .independent_eq.proof import prove_lower_value as _prove_lower_value
from .independent_eq.solution import IndependentResult, solve_independent
from .model import BanqueGame, banque_game
from .nash_eq.artefact import BanqueProofArtefact
from .nash_eq.solution import BanqueNashSet, nash_equilibria
from .sweeps import CorrelatedSweep, IndependentSweep, NashSweep, Progress
from .sweeps import sweep as _sweep

if TYPE_CHECKING:
    from ..processes import Workers

__all__ = ["correlated", "independent", "nash", "full", "advantage", "prove", "prove_independent",
           "prove_lower_value", "game", "CorrelatedSolution", "IndependentResult", "BanqueNashSet", "FullCorrelated",
           "AdvantageComparison", "BanqueProofArtefact", "IndependentValueArtefact", "ExactMaximinProof",
           "BanqueGame"]


def game(decks: int | str | None = None, *, shoe: Shoe | None = None) -> BanqueGame:
    """The simplified banque game on a shoe.

    Parameters
    ----------
    decks : int or str, optional
        Fresh decks (1 to 19) or ``"inf"``; default the paper's infinite shoe.  Not with ``shoe``.
    shoe : Shoe, optional
        Any shoe (a depleted one, a composition).

    Returns
    -------
    BanqueGame
        The exact coefficients, with their views (at theta, in theta, floats, polynomials).
    """
    return banque_game(params.decks_or_shoe(decks, shoe))  # default: the paper's infinite shoe


def _game(decks: Any, shoe: Shoe | None, g: BanqueGame | None) -> BanqueGame:
    if g is not None:
        if decks is not None or shoe is not None:
            raise BaccaraError("give game, or decks or shoe, not both")
        return g
    return game(decks, shoe=shoe)


def correlated(theta: Fraction | str | float = Fraction(1, 2), decks: int | str | None = None, *,
               shoe: Shoe | None = None, game: BanqueGame | None = None) -> CorrelatedSolution:
    """The correlated cooperative equilibrium at theta, certified exactly.

    Parameters
    ----------
    theta : Fraction, str or float
        Player 1's share of the total stake, in (0, 1) (default 1/2).
    decks, shoe, game : optional
        The shoe (see :func:`game`) or a game already built; default the infinite shoe.

    Returns
    -------
    CorrelatedSolution
        The Players' mixture, Banker's strategy, the value and the certificate.
    """
    return correlated_equilibrium(_game(decks, shoe, game), params.theta(theta))


def independent(theta: Fraction | str | float = Fraction(1, 2), decks: int | str | None = None, *,
                shoe: Shoe | None = None, game: BanqueGame | None = None) -> IndependentResult:
    """The independent cooperative equilibrium at theta, its lower value proved exactly (no margin).

    Parameters
    ----------
    theta : Fraction, str or float
        Player 1's share of the total stake, in (0, 1) (default 1/2).
    decks, shoe, game : optional
        The shoe (see :func:`game`) or a game already built; default the infinite shoe.

    Returns
    -------
    IndependentResult
        The maximin p1, p2 (exact algebraic numbers), the lower and upper values, and
        ``proof`` (:class:`ExactMaximinProof`); ``lower_value_proved`` says "exact".
    """
    return solve_independent(_game(decks, shoe, game), params.theta(theta))


def nash(theta: Fraction | str | float = Fraction(1, 2), decks: int | str | None = None, *,
         shoe: Shoe | None = None, game: BanqueGame | None = None) -> BanqueNashSet:
    """Every Nash equilibrium at theta (the extreme ones in behavioural strategies), each certified.

    Parameters
    ----------
    theta : Fraction, str or float
        Player 1's share of the total stake, in (0, 1) (default 1/2).
    decks, shoe, game : optional
        The shoe (see :func:`game`) or a game already built; default the infinite shoe.

    Returns
    -------
    BanqueNashSet
        The equilibria, the points of the Players' square they sit at, any continua.
    """
    return nash_equilibria(_game(decks, shoe, game), params.theta(theta))


def prove_lower_value(theta: Fraction | str | float, value: Fraction | QuadraticNumber,
                      point: tuple[Fraction | QuadraticNumber, Fraction | QuadraticNumber],
                      others: tuple[tuple[Fraction | QuadraticNumber, Fraction | QuadraticNumber], ...] = (),
                      max_depth: int = 48, max_boxes: int = 200_000,
                      game: BanqueGame | None = None) -> ExactMaximinProof:
    """Prove that the independent cooperative lower value at theta is exactly ``value``, attained at ``point``.

    The proof has no margin (:func:`~baccara.banque.independent_eq.proof.prove_lower_value`):
    a local certificate around each maximiser and an exact branch and bound over the rest of
    the Players' square.

    Parameters
    ----------
    theta : Fraction, str or float
        Player 1's share of the total stake, in (0, 1).
    value : Fraction or QuadraticNumber
        The claimed lower value.
    point : tuple of Fraction or QuadraticNumber
        The claimed maximiser (p1, p2) in the closed unit square.
    others : tuple of points, optional
        Further maximisers, each closed by its own local certificate.
    max_depth, max_boxes : int
        Limits of the branch and bound; when reached, the status is "inconclusive".
    game : BanqueGame, optional
        The game (default: the paper's infinite shoe).

    Returns
    -------
    ExactMaximinProof
        "proved", "refuted" (with a witness) or "inconclusive" (with the reason).
    """
    return _prove_lower_value(params.theta(theta), value, point, others, max_depth, max_boxes, game)


def full(theta: Fraction | str | float = Fraction(1, 2), model: str = "traditional", decks: int | str | None = None, *,
         shoe: Shoe | None = None, game: BanqueGame | None = None) -> FullCorrelated:
    """The correlated cooperative equilibrium of a full model (Player 2 sees more), certified.

    Parameters
    ----------
    theta : Fraction, str or float
        Player 1's share of the total stake, in (0, 1) (default 1/2).
    model : str
        ``"traditional"`` (Player 2 sees Player 1's third card, stand or natural), ``"recent"``
        (his intention) or ``"simplified"``.
    decks, shoe, game : optional
        The shoe (see :func:`game`) or a game already built; default the infinite shoe.

    Returns
    -------
    FullCorrelated
        The team's mixture, Banker's minimax strategy, the value and the certificate.
    """
    return full_correlated_equilibrium(_game(decks, shoe, game), params.theta(theta), model)


def sweep(concept: str = "correlated", progress: Progress | None = None, prove_samples: bool = False,
          prove_intervals: float | None = None) -> CorrelatedSweep | IndependentSweep | NashSweep:
    """One solution concept over every theta in (0, 1/2] (Ethier and Lee 2015, sections 3-5; the infinite shoe).

    Parameters
    ----------
    concept : str
        ``"correlated"`` (exact interval ends, the solution as rational functions of theta),
        ``"independent"`` (ends bracketed, then identified exactly) or ``"nash"`` (every branch of
        equilibria, exact ends).  Each takes one to four minutes.
    progress : callable, optional
        Called as ``progress(stage, done, total)``.
    prove_samples : bool
        ``"independent"`` only: also prove the lower value exactly (no margin) at a rational
        theta inside every interval (a few minutes more); between samples it is not proved.
    prove_intervals : float, optional
        ``"independent"`` only: also prove the lower value for *every* theta of each interval,
        giving each at most this many seconds; the intervals proved are marked "proved", the
        others say why not.

    Returns
    -------
    CorrelatedSweep, IndependentSweep or NashSweep
        The theta-intervals and the solution on each (``to_json()``, ``show()``).
    """
    return _sweep(concept, progress, prove_samples, prove_intervals)


def advantage(theta: Fraction | str | float = Fraction(1, 2), decks: int | str | None = None, *,
              shoe: Shoe | None = None, game: BanqueGame | None = None) -> AdvantageComparison:
    """Banker's advantage under each assumption beside the historical estimates (Ethier and Lee 2015, section 1).

    Parameters
    ----------
    theta : Fraction, str or float
        Player 1's share of the total stake (default 1/2).
    decks : int or str, optional
        Fresh decks, or ``"inf"`` (the default, the paper's shoe); not with ``shoe`` or ``game``.
    shoe : Shoe, optional
        Any shoe instead.
    game : BanqueGame, optional
        A game already built.

    Returns
    -------
    AdvantageComparison
        One row per assumption (``to_json()``, ``show()``); the historical estimates
        appear only for the game they were made for (theta = 1/2, the infinite shoe).
    """
    g = _game(decks, shoe, game)
    th = params.theta(theta)
    return AdvantageComparison(th, g.label(), banker_advantage_comparison(th, g))


def _workers(workers: int, backend: str, scheduler: str | None) -> Workers:
    """The workers a proof asks for, checked."""
    from ..processes import Workers  # sockets and processes: only when a proof runs

    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ParameterError(f"--workers must be a whole number, at least 1, got {workers!r}")
    backend, scheduler = params.backend(backend, scheduler)
    return Workers(workers, backend, scheduler)


def prove(lo: Fraction | str | int = 0, hi: Fraction | str | int = Fraction(1, 2),
          progress: Any = None, stored: bool = False, *, workers: int = 1, backend: str = "processes",
          scheduler: str | None = None) -> BanqueProofArtefact:
    """The Nash equilibria over every theta in (lo, hi] as a proof artefact (the infinite shoe).

    Every event where the set of Nash equilibria can change is computed exactly
    (:mod:`baccara.banque.nash_eq.proof`), and every equilibrium is enumerated at a sample
    of each interval between events; :func:`baccara.check.check` re-checks the document
    without the solvers.  The whole of (0, 1/2] takes many minutes.

    Parameters
    ----------
    lo, hi : Fraction, str or int
        The range, 0 <= lo < hi <= 1/2 (default (0, 1/2]).
    progress : callable, optional
        Called with a line of text as each stage starts.
    stored : bool
        Take the events of (0, 5772/33847) and (5772/33847, 1/2) from the package's files
        (re-derived by slow tests) instead of recomputing them.
    workers : int
        Processes (1: this one), or the workers of a local Dask cluster: the candidates of the
        event analysis and the enumerations at the samples are shared among them.
    backend : str
        ``processes`` (default: ``workers`` processes here) or ``dask`` (a local Dask cluster of
        ``workers``, or the cluster at ``scheduler``).  The artefact is the same whichever runs
        it (but for its timings, ``proof_runs[].seconds``).
    scheduler : str, optional
        A Dask scheduler's address, ``tcp://HOST:PORT`` (implies ``dask``).

    Returns
    -------
    BanqueProofArtefact
        ``to_json()`` is the artefact (kind ``banque-nash``).
    """
    from .nash_eq.artefact import prove as _prove

    a, b = params.theta_range(lo, hi)
    return _prove(a, b, progress=progress, stored=stored, workers=_workers(workers, backend, scheduler))


def prove_independent(theta: Sequence[Fraction | str | float] | Fraction | str | float | None = None, *,
                      sweep_samples: bool = False, progress: Any = None, workers: int = 1,
                      backend: str = "processes", scheduler: str | None = None) -> IndependentValueArtefact:
    """The independent cooperative lower value at each theta, proved exactly, as a proof artefact
    (the infinite shoe).

    At each theta the lower value is proved with no margin
    (:func:`~baccara.banque.independent_eq.proof.prove_lower_value`): the maximiser's value,
    a Banker strategy for each quarter of a small rectangle around it and for each dyadic box of
    a cover of the rest of the square; :func:`baccara.check.check` re-checks the document
    without the solvers.  About two seconds a theta.

    Parameters
    ----------
    theta : Fraction, str or float, or a sequence of them
        Player 1's shares of the stakes, each in (0, 1).
    sweep_samples : bool
        Instead of ``theta``: one rational theta inside each of the 131 intervals of the
        theta-sweep (about 7 minutes in all).
    progress : callable, optional
        Called with a line of text as each theta starts (with several workers, as each is done).
    workers : int
        Processes (1: this one), or the workers of a local Dask cluster: each proves whole theta.
    backend : str
        ``processes`` (default) or ``dask`` (a local Dask cluster of ``workers``, or the cluster
        at ``scheduler``).  The artefact is the same whichever runs it (but for its timings,
        ``proofs[].seconds``).
    scheduler : str, optional
        A Dask scheduler's address, ``tcp://HOST:PORT`` (implies ``dask``).

    Returns
    -------
    IndependentValueArtefact
        ``to_json()`` is the artefact (kind ``banque-independent``).
    """
    from .independent_eq.artefact import prove as _prove
    from .independent_eq.artefact import prove_sweep_samples

    if (theta is None) != sweep_samples:
        raise BaccaraError("prove_independent takes either theta or sweep_samples=True, not both")
    where = _workers(workers, backend, scheduler)
    if sweep_samples:
        return prove_sweep_samples(progress=progress, workers=where)
    many = theta if isinstance(theta, (list, tuple)) else [theta]
    if not many:
        raise BaccaraError("theta: give at least one theta in (0, 1)")
    return _prove([params.theta(t) for t in many], progress=progress, workers=where)
