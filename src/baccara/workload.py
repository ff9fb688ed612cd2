"""How long a job will take, said before it starts, and a limit on what runs without being asked.

A sweep over a range of decks, a plot over many points or a simulation of
many shoes can be asked for in a few keystrokes and then run for days.  Every
such command estimates its duration from measured per-unit costs before it
starts, says so when it is long, and refuses work beyond :data:`LIMIT_SECONDS`
unless the user passes ``--allow-long``.
"""

from __future__ import annotations

from typing import Callable

from .errors import BaccaraError

#: Longest estimated run that starts without ``--allow-long`` (seconds).
LIMIT_SECONDS = 15 * 60

#: Estimates above this many seconds are announced before the work starts.
ANNOUNCE_SECONDS = 10.0


def duration_text(seconds: float) -> str:
    """``'45 s'``, ``'12 min'``, ``'3.5 h'``, ``'2.1 days'``, ``'4e+03 years'``.

    Parameters
    ----------
    seconds : float
        A duration.

    Returns
    -------
    str
        The duration for people, to two significant figures.
    """
    for unit, size in (("years", 365.25 * 86400), ("days", 86400), ("h", 3600), ("min", 60)):
        if seconds >= 2 * size if unit != "min" else seconds >= 90:
            return f"{seconds / size:.2g} {unit}"
    return f"{max(seconds, 1):.0f} s"


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
        raise BaccaraError(f"{what} would take about {duration_text(seconds)}, more than the "
                           f"{duration_text(limit)} allowed without --allow-long: {ask_less}, "
                           "or pass --allow-long to run it anyway")
    if say is not None and seconds > ANNOUNCE_SECONDS:
        say(f"{what}: about {duration_text(seconds)} (estimated)")
