"""The lower value proved along a float sweep of theta: at a sample inside each interval, or on each whole interval.

These drivers sit above both provers (the exact proof at one theta, :mod:`.proof`; the proof over an
interval, :mod:`.interval`, and its blow-up near theta = 0, :mod:`.near_zero`) and the solver
(:mod:`.solution`), which is what keeps those from importing one another.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction

from ...algebraic import QuadraticNumber
from ...errors import ParameterError
from ...solve.roots import Endpoint
from ...solve.sweep import rational_between
from ..model import banque_game
from .interval import IntervalProof, prove_interval
from .near_zero import prove_first_interval
from .proof import Number, exact_signature
from .solution import solve_independent


# ---------------------------------------------------------------- along the theta-sweep
@dataclass(frozen=True)
class SampleProof:
    """The lower value proved exactly at one rational ``theta`` inside a sweep interval (lo, hi):
    the maximiser, the value, ``proved`` ("exact", "within 1e-10" or "no") and ``same_form``:
    the exact maximiser's form (the curves through it, its edges, Banker's best response)
    is the interval's, as the float sweep found it."""

    lo: float
    hi: float
    theta: Fraction
    p1: Number
    p2: Number
    value: Number
    proved: str
    same_form: bool
    seconds: float

    def to_json(self) -> dict:
        """theta, p1, p2 and the value exactly, with how the value is proved."""
        return {"theta": f"{self.theta.numerator}/{self.theta.denominator}",
                "p1": str(QuadraticNumber.of(self.p1)), "p2": str(QuadraticNumber.of(self.p2)),
                "value": {"exact": str(QuadraticNumber.of(self.value)), "float": float(self.value)},
                "proved": self.proved, "same_form": self.same_form}


#: What the sample proofs of a sweep prove, and what they do not.
SAMPLES_PROVE = ("the lower value is proved exactly (no margin) at one rational theta inside each interval, where "
                 "the exact maximiser has the interval's form; between samples the form is followed in floating "
                 "point and the value is not proved")


def sample_theta(lo: float, hi: float) -> Fraction:
    """The rational of smallest denominator in the middle third of (lo, hi)."""
    a, b = Fraction(lo), Fraction(hi)
    return Fraction(rational_between(a + (b - a) / 3, b - (b - a) / 3))


def prove_samples(sw, progress=None) -> list[SampleProof]:
    """:func:`prove_lower_value` at one rational theta inside every interval of a float sweep.

    Parameters
    ----------
    sw : independent_sweep.IndependentSweep
        The float sweep (:func:`~baccara.banque.independent_eq.sweep.independent_sweep`).
    progress : callable, optional
        Called as ``progress(done, total)``.

    Returns
    -------
    list of SampleProof
        One per interval, left to right.
    """
    out = []
    for k, iv in enumerate(sw.intervals):
        start = time.perf_counter()
        th = sample_theta(max(iv.lo, 1e-12), iv.hi)
        res = solve_independent(banque_game(), th)
        ind = res.solution
        same = exact_signature(th, ind.p1, ind.p2) == iv.signature
        out.append(SampleProof(iv.lo, iv.hi, th, ind.p1, ind.p2, ind.lower_value, res.lower_value_proved, same,
                               time.perf_counter() - start))
        if progress:
            progress(k + 1, len(sw.intervals))
    return out


#: What the interval proofs of a sweep prove, and what they do not.
INTERVALS_PROVE = ("'proved' intervals: the lower value is proved for every theta in them (V at the moving point of "
                   "the interval's form); the others are not proved between their samples (a time limit, an end not "
                   "identified exactly, or candidates not enumerated)")


def prove_intervals(sw, ends: list, seconds: float = 60.0, progress=None) -> list[IntervalProof | None]:
    """:func:`prove_interval` on every interval of a float sweep, each within a time limit.

    Parameters
    ----------
    sw : independent_sweep.IndependentSweep
        The float sweep over (0, 1/2] or a part of it
        (:func:`~baccara.banque.independent_eq.sweep.independent_sweep`).
    ends : list of ExactEnd
        Its interval ends, exactly (:func:`~baccara.banque.independent_eq.sweep.exact_ends`).
    seconds : float
        The time limit of one interval (positive).
    progress : callable, optional
        Called as ``progress(done, total)``.

    Returns
    -------
    list of IntervalProof or None
        One per interval, left to right; None where an end of the interval is not identified
        exactly (nothing to prove between).
    """
    if not seconds > 0:
        raise ParameterError(f"seconds must be positive, got {seconds}")
    if len(ends) != len(sw.intervals) - 1:
        raise ParameterError(f"ends: expected {len(sw.intervals) - 1} (one between each two intervals), got {len(ends)}")
    out: list[IntervalProof | None] = []
    for k, iv in enumerate(sw.intervals):
        lo = Endpoint.of_rational(Fraction(iv.lo)) if k == 0 else ends[k - 1].endpoint
        hi = Endpoint.of_rational(Fraction(iv.hi)) if k == len(sw.intervals) - 1 else ends[k].endpoint
        if lo is None or hi is None:
            out.append(None)
        elif k == 0 and iv.lo == 0:
            # (0, hi): blown up near theta = 0
            out.append(prove_first_interval(hi, iv.signature, seconds=seconds))
        else:
            out.append(prove_interval(lo, hi, iv.signature, seconds=seconds))
        if progress:
            progress(k + 1, len(sw.intervals))
    return out
