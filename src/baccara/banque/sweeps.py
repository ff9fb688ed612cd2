"""Baccara banque over every theta in (0, 1/2]: the three sweeps as result objects.

Each sweep partitions (0, 1/2] into theta-intervals on which one solution
formula holds (Ethier and Lee 2015, sections 3-5):

* :class:`CorrelatedSweep` — the correlated cooperative equilibrium, exact
  interval ends and the solution as rational functions of theta
  (:func:`~baccara.banque.correlated_eq.sweep.correlated_sweep`);
* :class:`IndependentSweep` — the independent cooperative equilibrium, ends
  bracketed by bisection and then identified as exact algebraic numbers
  (:mod:`~baccara.banque.independent_eq.sweep`);
* :class:`NashSweep` — every Nash equilibrium, branch by branch
  (:func:`~baccara.banque.nash_eq.sweep.nash_sweep`).

All three follow the result protocol (:mod:`baccara.result`): ``to_json()``
is the ``baccara banque sweep --json`` document, ``show()`` its table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

from .. import params
from ..errors import ParameterError
from ..result import Result
from . import report

#: A progress callback: (stage, done, total).
Progress = Callable[[str, int, int], None]

#: Stages of each sweep, as its progress callback names them.
STAGES = {
    "correlated": ("sweeping theta from 1/2 down to 0 (per mille)",),
    "independent": ("theta grid (then bisection)", "exact interval ends", "lower value proved at each sample",
                    "lower value proved on each interval"),
    "nash": ("Nash equilibria below 5772/33847: intervals sampled",),
}


@dataclass(repr=False)
class CorrelatedSweep(Result):
    """The correlated cooperative equilibrium's theta-intervals, left to right.

    Attributes
    ----------
    pieces : list of CorrelatedPiece
        As :func:`~baccara.banque.correlated_eq.sweep.correlated_sweep` returns them (right to left).
    """

    pieces: list

    @cached_property
    def _doc(self) -> dict:
        from .correlated_eq.sweep import sweep_json  # lazy: one concept

        return sweep_json(self.pieces)

    def to_json(self) -> dict:
        """The ``baccara banque sweep --concept correlated --json`` document (see the user guide)."""
        return self._doc

    def summary(self) -> str:
        return report.correlated_sweep_summary(self._doc)

    def renderables(self) -> list:
        return report.correlated_sweep_renderables(self._doc)


@dataclass(repr=False)
class IndependentSweep(Result):
    """The independent cooperative equilibrium's theta-intervals, with exact ends where identified.

    Attributes
    ----------
    sweep : independent_sweep.IndependentSweep
        The float sweep (intervals and their brackets).
    ends : list of ExactEnd
        Each interval end identified as an exact algebraic number (or left bracketed).
    peak : tuple of float
        (theta, value) where the lower value peaks.
    samples : list of SampleProof, optional
        The lower value proved exactly at a rational theta inside each interval
        (:func:`~baccara.banque.independent_eq.sweep_proof.prove_samples`).
    proofs : list of IntervalProof or None, optional
        The lower value proved for every theta of each interval, where it could be within the
        time limit (:func:`~baccara.banque.independent_eq.sweep_proof.prove_intervals`).
    """

    sweep: object
    ends: list
    peak: tuple[float, float]
    samples: list | None = None
    proofs: list | None = None

    @cached_property
    def _doc(self) -> dict:
        from .independent_eq.sweep import sweep_json  # lazy: one concept
        from .independent_eq.sweep_proof import SAMPLES_PROVE  # lazy: one concept

        doc = sweep_json(self.sweep, self.ends)  # type: ignore[arg-type]
        doc["lower_value_peak"] = {"theta": self.peak[0], "value": self.peak[1]}
        if self.samples is not None:
            for iv, sp in zip(doc["intervals"], self.samples):
                iv["lower_value_at_sample"] = sp.to_json()
            doc["lower_value_proved"] = SAMPLES_PROVE
        if self.proofs is not None:
            from .independent_eq.sweep_proof import INTERVALS_PROVE  # lazy: one concept

            for iv, pr in zip(doc["intervals"], self.proofs):
                iv["lower_value_on_interval"] = (pr.to_json() if pr is not None else
                                                 {"status": "inconclusive", "reason": "an end is not identified exactly"})
            doc["lower_value_proved_on_intervals"] = INTERVALS_PROVE
            doc["intervals_proved"] = sum(pr is not None and pr.holds for pr in self.proofs)
        return doc

    def to_json(self) -> dict:
        """The ``baccara banque sweep --concept independent --json`` document (see the user guide)."""
        return self._doc

    def summary(self) -> str:
        return report.independent_sweep_summary(self._doc)

    def renderables(self) -> list:
        return report.independent_sweep_renderables(self._doc)


@dataclass(repr=False)
class NashSweep(Result):
    """Every Nash equilibrium over (0, 1/2]: the branches and the elementary intervals they cover.

    Attributes
    ----------
    sweep : nash_sweep.NashSweep
        The branches and pieces.
    """

    sweep: object

    @cached_property
    def _doc(self) -> dict:
        from .nash_eq.sweep import nash_sweep_json  # lazy: one concept

        return nash_sweep_json(self.sweep)  # type: ignore[arg-type]

    def to_json(self) -> dict:
        """The ``baccara banque sweep --concept nash --json`` document (see the user guide)."""
        return self._doc

    def summary(self) -> str:
        return report.nash_sweep_summary(self._doc)

    def renderables(self) -> list:
        return report.nash_sweep_renderables(self._doc)


def sweep(concept: str = "correlated", progress: Progress | None = None, prove_samples: bool = False,
          prove_intervals: float | None = None) -> CorrelatedSweep | IndependentSweep | NashSweep:
    """Sweep one solution concept over theta in (0, 1/2] on the paper's infinite shoe.

    Parameters
    ----------
    concept : str
        ``"correlated"``, ``"independent"`` or ``"nash"``.
    progress : callable, optional
        Called as ``progress(stage, done, total)``; the stages are :data:`STAGES`.
    prove_samples : bool
        Independent sweep only: prove the lower value exactly at a rational theta inside
        every interval (about two seconds an interval).
    prove_intervals : float, optional
        Independent sweep only: prove the lower value for every theta of each interval
        (:func:`~baccara.banque.independent_eq.interval.prove_interval`), giving each
        interval at most this many seconds.

    Returns
    -------
    CorrelatedSweep, IndependentSweep or NashSweep
        The theta-intervals and the solution on each.
    """
    concept = params.choice(concept, "concept", tuple(STAGES), case="exact")
    if prove_samples and concept != "independent":
        raise ParameterError(f"prove_samples goes with the independent sweep only, got concept {concept!r}")
    if prove_intervals is not None:
        if concept != "independent":
            raise ParameterError(f"prove_intervals goes with the independent sweep only, got concept {concept!r}")
        if not prove_intervals > 0:
            raise ParameterError(f"prove_intervals: a time limit in seconds, positive, got {prove_intervals}")
    stages = STAGES[concept]

    def tell(stage: int) -> Callable[[int, int], None] | None:
        if progress is None:
            return None
        return lambda done, total: progress(stages[stage], done, total)

    if concept == "correlated":
        from .correlated_eq.sweep import correlated_sweep  # lazy: one concept

        step = tell(0)
        pieces = correlated_sweep(progress=None if step is None else
                                  lambda left: step(int(1000 * (0.5 - float(left)) / 0.5), 1000))
        return CorrelatedSweep(pieces)
    if concept == "independent":
        from .independent_eq.sweep import exact_ends, independent_sweep, lower_value_peak  # lazy: one concept

        sw = independent_sweep(progress=tell(0))
        ends = exact_ends(sw, progress=tell(1))
        samples = None
        if prove_samples:
            from .independent_eq.sweep_proof import prove_samples as prove  # lazy: one concept

            samples = prove(sw, progress=tell(2))
        proofs = None
        if prove_intervals is not None:
            from .independent_eq.sweep_proof import prove_intervals as prove_all  # lazy: one concept

            proofs = prove_all(sw, ends, prove_intervals, progress=tell(3))
        return IndependentSweep(sw, ends, lower_value_peak(), samples, proofs)
    from .nash_eq.sweep import nash_sweep  # lazy: one concept

    return NashSweep(nash_sweep(progress=tell(0)))
