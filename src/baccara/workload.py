"""How long a job will take, said before it starts, and a limit on what runs without being asked.

A sweep over a range of decks, a plot over many points or a simulation of
many shoes can be asked for in a few keystrokes and then run for days.  Every
such command estimates its duration from measured per-unit costs before it
starts, says so when it is long, and refuses work beyond :data:`LIMIT_SECONDS`
unless the user passes ``--allow-long``: one hour of one core's work, for
sweeps and simulations alike (:mod:`baccara.sim.limits` estimates simulations).

The other way round, a command whose simulation has no size given (``count``,
``count design``, ``report``) sizes it to a time budget on this machine's cores
from a short measured run (:func:`size_to_budget`), and says so; a run on the
GPU (``--backend gpu``) is sized from the GPU's nominal rate instead, not
measured (a short run there would time its compilation), and says that too;
under numba-cuda's CUDA simulator (on the CPU, far slower than any GPU) from a
short timed launch, saying so.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from .errors import BaccaraError
from .processes import cores_busy

#: Longest estimated run that starts without ``--allow-long`` (seconds).
LIMIT_SECONDS = 3600

#: Estimates above this many seconds are announced before the work starts.
ANNOUNCE_SECONDS = 10.0


def format_duration(seconds: float) -> str:
    """A duration for people: ``0.4 s``, ``12 s``, ``3 min``, ``2.5 h``, ``47 days``, ``3.1e+04 years``.

    Parameters
    ----------
    seconds : float
        The duration.

    Returns
    -------
    str
        Rounded to two significant figures or so, in the largest fitting unit.
    """
    if not math.isfinite(seconds):
        return "forever"
    for unit, size, above in (("years", 365.25 * 86400, 2 * 365.25 * 86400), ("days", 86400, 2 * 86400),
                              ("h", 3600, 2 * 3600), ("min", 60, 90)):
        if seconds >= above:
            v = seconds / size
            if v >= 1e4:
                return f"{v:.1e} {unit}"
            return f"{v:.0f} {unit}" if v >= 10 else f"{v:.1f} {unit}"
    if seconds < 1:
        return "under a second"
    return f"{seconds:.0f} s" if seconds >= 10 else f"{seconds:.1f} s"


def about(seconds: float) -> str:
    """An estimated duration for people, ``about`` before it where that reads: ``about 12 s``, ``under a second``.

    Parameters
    ----------
    seconds : float
        The duration.

    Returns
    -------
    str
        :func:`format_duration`'s words, after ``about`` unless they are ``under a second`` or ``forever``.
    """
    words = format_duration(seconds)
    return words if words in ("under a second", "forever") else f"about {words}"


def check_workload(what: str, seconds: float, allow_long: bool, ask_less: str,
                   say: Callable[[str], None] | None = None, limit: float = LIMIT_SECONDS) -> None:
    """Refuse a job estimated to run longer than ``limit`` unless ``allow_long``; announce a long one.

    Parameters
    ----------
    what : str
        The job, for people: ``"Table 4 for 1000 values of d"``.
    seconds : float
        Its estimated duration on one core of a typical machine.
    allow_long : bool
        Whether the user passed ``--allow-long``.
    ask_less : str
        How to ask for less (``"give a shorter --decks range"``).
    say : callable, optional
        Where to announce the estimate (stderr in the command line); nothing is said when None.
    limit : float
        The longest run allowed without ``allow_long`` (seconds).

    Raises
    ------
    BaccaraError
        When the estimate exceeds ``limit`` and ``allow_long`` is false.
    """
    if seconds > limit and not allow_long:
        raise BaccaraError(f"{what} would take {about(seconds)}, more than the "
                           f"{format_duration(limit)} allowed without --allow-long: {ask_less}, "
                           "or pass --allow-long to run it anyway")
    if say is not None and seconds > ANNOUNCE_SECONDS:
        say(f"{what}: {about(seconds)} (estimated)")


# ---------------------------------------------------------------- default runs sized to the machine
@dataclass(frozen=True)
class Sizing:
    """A default simulation sized from this machine: its cores, a measured speed and a time budget.

    Attributes
    ----------
    what : str
        The run, for people (``"the count"``).
    shoes : int
        The shoes chosen.
    workers : int
        The cores it runs on: the workers, or this machine's cores where more workers were asked.
    budget : float
        The seconds it was sized to.
    per_shoe : float
        Seconds of one core per shoe, measured here.
    least : int
        The fewest shoes it takes whatever the machine (the documented default).
    gpu : float
        0 for a run on the CPU's cores; for a run on one GPU, the GPU's nominal rate, in ``gpu_unit`` a second
        (``per_shoe`` is then the GPU's seconds per shoe at that rate, not measured).
    gpu_unit : str
        What the GPU's rate counts: ``hands``, or ``exact evaluations`` (the perfect counter's).
    asked : int
        The workers asked, where more than the cores (they take turns on them); else 0.
    simulator : bool
        Sized for numba-cuda's CUDA simulator: ``per_shoe`` measured by a short timed launch there (``gpu`` is 0),
        a speed on this machine's CPU that says nothing of a GPU's.
    """

    what: str
    shoes: int
    workers: int
    budget: float
    per_shoe: float
    least: int = 1
    gpu: float = 0.0
    gpu_unit: str = "hands"
    asked: int = 0
    simulator: bool = False

    @property
    def seconds(self) -> float:
        """The expected wall seconds on free cores."""
        return self.shoes * self.per_shoe / self.workers

    def describe(self) -> str:
        """One line for people: what was chosen, and why.

        Returns
        -------
        str
            E.g. ``the count on 1,200,000 shoes: sized to about 10 s on the 2 cores here (...)``, or on a
            GPU ``... sized to about 10 s on the GPU at its nominal rate (... not measured)``.
        """
        rate = 1 / self.per_shoe if self.per_shoe > 0 else math.inf
        speed = f"{rate:,.0f}" if rate >= 10 else f"{rate:.2g}"  # the simulator's perfect counter: ~1 a second
        cores = "one core" if self.workers == 1 else f"the {self.workers} cores"
        floor = " (its least)" if self.shoes == self.least and self.seconds < self.budget / 2 else ""
        if self.shoes == self.least and self.seconds > self.budget:
            floor = f" (its least; {about(self.seconds)} here)"
        head = f"{self.what} on {self.shoes:,} shoe{'' if self.shoes == 1 else 's'}{floor}: sized to {about(self.budget)}"
        if self.simulator:
            return (f"{head} on the CUDA simulator (measured {speed} shoes a second there, on this machine's CPU: "
                    f"not a GPU's speed)")
        if self.gpu:
            return (f"{head} on the GPU at its nominal rate ({self.gpu:,.0f} {self.gpu_unit}, about {speed} shoes a "
                    f"second; not measured)")
        share = f", which the {self.asked} workers share" if self.asked > self.workers else ""
        return f"{head} on {cores} here{share} (measured {speed} shoes a second on one core)"

    def to_json(self) -> dict:
        doc = {"what": self.what, "shoes": self.shoes, "workers": self.workers, "budget_seconds": self.budget,
               "seconds_per_shoe": self.per_shoe, "least": self.least, "estimated_seconds": self.seconds}
        if self.asked > self.workers:  # more workers than cores: the cores bound the speed
            doc["workers_asked"] = self.asked
        if self.simulator:  # measured on the CUDA simulator
            doc.update(on="gpu", simulator=True)
        elif self.gpu:  # the rate is the GPU's nominal one, not measured
            doc.update(on="gpu", nominal_rate_per_second=self.gpu, nominal_rate_counts=self.gpu_unit)
        return doc


def size_to_budget(what: str, per_shoe: float, budget: float, workers: int, least: int, most: int) -> Sizing:
    """The shoes that ``workers`` deal in ``budget`` seconds, rounded down to two significant figures.

    Workers beyond this machine's cores take turns on them: the run is sized on the cores that run at once,
    ``min(workers, cores)``.

    Parameters
    ----------
    what : str
        The run, for people.
    per_shoe : float
        Seconds of one core per shoe (measured).
    budget : float
        Seconds the run may take.
    workers : int
        Workers it runs on.
    least, most : int
        Bounds on the shoes (``least``: the documented default, so a default run is never smaller
        than it was; ``most``: a cap).

    Returns
    -------
    Sizing
        The shoes chosen and why.
    """
    asked = max(workers, 1)
    on = cores_busy(asked)
    n = budget * on / per_shoe if per_shoe > 0 else float(most)
    n = min(n * (1 + 1e-9), float(most))  # 1.9999999 M is 2 M
    if n >= 100:
        scale = 10 ** (int(math.log10(n)) - 1)
        n = n // scale * scale
    return Sizing(what, int(min(max(int(n), least), most)), on, budget, per_shoe, least,
                  asked=asked if asked > on else 0)
