"""How long a job will take, said before it starts, and a limit on what runs without being asked.

A sweep over a range of decks, a plot over many points or a simulation of
many shoes can be asked for in a few keystrokes and then run for days.  Every
such command estimates its duration from measured per-unit costs before it
starts, says so when it is long, and refuses work beyond :data:`LIMIT_SECONDS`
unless the user passes ``--allow-long``: one hour of one core's work, for
sweeps and simulations alike (:mod:`baccara.sim.limits` estimates simulations).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from .errors import BaccaraError

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
        raise BaccaraError(f"{what} would take about {format_duration(seconds)}, more than the "
                           f"{format_duration(limit)} allowed without --allow-long: {ask_less}, "
                           "or pass --allow-long to run it anyway")
    if say is not None and seconds > ANNOUNCE_SECONDS:
        say(f"{what}: about {format_duration(seconds)} (estimated)")
