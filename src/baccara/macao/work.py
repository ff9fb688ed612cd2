"""How much work solving a Macao game takes, estimated before any of it is done.

The game grows fast with the draw bound: the banker has one tree per face-down hand
and punter up-state, and the LP's coefficients number about ``D**2``, where ``D`` is
the number of the punter's decision nodes summed over his face-down hands.  Both
counts come from the hands' small graphs alone (no chance weights), so the estimate
costs a fraction of a second even where the solve would not finish.  Time (CPU
seconds) and peak memory are fitted to measured solves (``macao``, ``macao-early``,
``macao-meyer``, ``victoria`` and ``victoria-early`` on two decks, 1 to 3 draws), on the
side of too much: an indication, not a promise.  :func:`check_macao_work` refuses a solve beyond an hour
or :data:`MEMORY_LIMIT` bytes unless the user allows long work.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations_with_replacement

from ..errors import BaccaraError
from ..workload import ANNOUNCE_SECONDS, LIMIT_SECONDS, about, format_duration
from .model import DECIDE, Graph, build_graph
from .variants import MacaoRules

#: Seconds per LP coefficient and per banker node, fitted to measured solves.
SECONDS_PER_TERM, SECONDS_PER_NODE = 1.5e-5, 4e-4
#: Bytes: a fixed base, then per LP coefficient and per banker node.
BYTES_BASE, BYTES_PER_TERM, BYTES_PER_NODE = 150e6, 500.0, 2000.0
#: Deciding uniqueness roughly doubles the work.
UNIQUENESS_FACTOR = 2.0
#: Seconds per simulated coup, and per punter in it.
SECONDS_PER_COUP, SECONDS_PER_PUNTER_COUP = 2.5e-5, 1.5e-5
#: The most memory a solve may be estimated to need without ``--allow-long`` (bytes).
MEMORY_LIMIT = 4 * 2**30


@dataclass(frozen=True)
class MacaoWork:
    """The estimated size and cost of solving one Macao game.

    Attributes
    ----------
    terms : int
        LP coefficients (about the square of the punter's decision nodes over his hands).
    banker_nodes : int
        Nodes of all the banker's trees.
    seconds : float
        Estimated seconds of one core (solve, and uniqueness or simulation where asked).
    bytes : float
        Estimated peak memory.
    """

    terms: int
    banker_nodes: int
    seconds: float
    bytes: float

    def to_json(self) -> dict:
        """The estimate as a JSON-ready dict.

        Returns
        -------
        dict
            ``terms``, ``banker_nodes``, ``seconds``, ``bytes``.
        """
        return {"terms": self.terms, "banker_nodes": self.banker_nodes, "seconds": round(self.seconds, 1),
                "bytes": int(self.bytes)}


def estimate_macao_work(rules: MacaoRules, *, uniqueness: bool = False, coups: int = 0,
                        punters: int = 1) -> MacaoWork:
    """Estimate the work of solving a variant (the shoe does not change the size, only the weights).

    Parameters
    ----------
    rules : MacaoRules
        The variant.
    uniqueness : bool
        Whether uniqueness will be decided too.
    coups, punters : int
        Coups to simulate afterwards, and punters at the table.

    Returns
    -------
    MacaoWork
        The counts and the estimated seconds and bytes.
    """
    graphs: dict[int, Graph] = {}
    decide = 0
    banker_nodes_per_unit = 0
    units: set = set()
    for hand in combinations_with_replacement(range(10), rules.initial):
        t0 = sum(hand) % 10 if rules.totals == "bust" else 0
        g = graphs.get(t0)
        if g is None:
            g = graphs[t0] = build_graph(rules, t0)
        dn = [(n.A, n.r) for n in g.nodes if n.kind == DECIDE]
        decide += len(dn)
        units.update(dn)
        banker_nodes_per_unit += len(g.nodes)
    terms = decide * decide
    nodes = banker_nodes_per_unit * len(units)
    seconds = SECONDS_PER_TERM * terms + SECONDS_PER_NODE * nodes
    if uniqueness:
        seconds *= UNIQUENESS_FACTOR
    seconds += coups * (SECONDS_PER_COUP + SECONDS_PER_PUNTER_COUP * punters)
    return MacaoWork(terms, nodes, seconds, BYTES_BASE + BYTES_PER_TERM * terms + BYTES_PER_NODE * nodes)


def _gb(b: float) -> str:
    return f"{b / 2**30:.1f} GB" if b >= 2**30 else f"{b / 2**20:.0f} MB"


def check_macao_work(what: str, work: MacaoWork, allow_long: bool, ask_less: str, say=None) -> MacaoWork:
    """Refuse work estimated beyond an hour of one core or :data:`MEMORY_LIMIT`, unless ``allow_long``.

    Parameters
    ----------
    what : str
        The job, for people (``"macao with at most 3 draws"``).
    work : MacaoWork
        Its estimate (:func:`estimate_macao_work`).
    allow_long : bool
        Whether the user passed ``--allow-long``.
    ask_less : str
        How to ask for less (``"give fewer --draws"``).
    say : callable, optional
        Where to announce a long estimate (stderr in the command line).

    Returns
    -------
    MacaoWork
        The estimate, when the work may go ahead.

    Raises
    ------
    BaccaraError
        Naming the estimate, the limits and ``--allow-long``.
    """
    over = []
    if work.seconds > LIMIT_SECONDS:
        over.append(f"{format_duration(work.seconds)} of one core (the limit is {format_duration(LIMIT_SECONDS)})")
    if work.bytes > MEMORY_LIMIT:
        over.append(f"{_gb(work.bytes)} of memory (the limit is {_gb(MEMORY_LIMIT)})")
    if over and not allow_long:
        raise BaccaraError(f"{what} would take about {' and '.join(over)}, estimated from its size "
                           f"({work.terms:,} LP coefficients, {work.banker_nodes:,} banker nodes): {ask_less}, "
                           "or pass --allow-long to run it anyway")
    if say is not None and (work.seconds > ANNOUNCE_SECONDS or over):
        say(f"{what}: {about(work.seconds)} and {_gb(work.bytes)} of memory (estimated)")
    return work


__all__ = ["MEMORY_LIMIT", "MacaoWork", "check_macao_work", "estimate_macao_work"]
