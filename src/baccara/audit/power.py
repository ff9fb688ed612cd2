"""How often the audit flags players of known behaviour: its false-alarm rate and its power, measured.

Players sit at simulated tables (:mod:`.simlog`), ``per_table`` of each kind at each table
(players at one table share its shoes, as at a casino; tables are independent), and each
table's log is audited as the command does it.  Seats whose bets follow a rule without chance
(flat, count, perfect, edge) bet alike at one table, so they are independent players only one
to a table (``per_table=1``); blind seats draw their own bets and may share one.  The measured
rates say what the verdicts are worth: blind and flat bettors should be flagged at most at the stated rate, the
edge sorter nearly always, a counter with a power that grows with the shoes watched.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from .analysis import audit
from .simlog import parse_seat, simulate_logs
from .stats import DEFAULT_ALPHA


@dataclass(frozen=True)
class FlagRate:
    """How often players of one kind got each verdict.

    Attributes
    ----------
    seat : str
        The seat (``blind``, ``edge:6,7,8,9``, ...).
    players : int
        Players audited.
    verdicts : dict
        Verdict -> players.
    counting_p : tuple of float
        Each player's raw (unadjusted) p-value of the counting test (1 for a player who never bet).
    """

    seat: str
    players: int
    verdicts: dict[str, int]
    counting_p: tuple[float, ...] = ()

    @property
    def flagged(self) -> int:
        """Players with a verdict other than ``none``."""
        return self.players - self.verdicts.get("none", 0)

    @property
    def rate(self) -> float:
        """The share flagged."""
        return self.flagged / self.players if self.players else math.nan


def flag_rates(seats: Sequence[str], players: int, shoes: int, *, per_table: int = 50, decks: int = 8,
               seed: int = 1, permutations: int = 999, alpha: float = DEFAULT_ALPHA,
               candidates: int | None = None) -> list[FlagRate]:
    """Audit ``players`` players of each seat over ``shoes`` shoes each, and count their verdicts.

    Parameters
    ----------
    seats : sequence of str
        The kinds of player (:func:`~baccara.audit.simlog.parse_seat`).
    players : int
        Players of each kind.
    shoes : int
        Shoes each table deals.
    per_table : int
        Players of each kind at a table.
    decks : int
        Decks per shoe.
    seed : int
        Table t deals the simulator's shoes of seed ``seed + t``; its permutations use the same seed.
    permutations : int
        Permutations per test.
    alpha : float
        The false-alarm rate.
    candidates : int, optional
        Candidate sortings (the audit's default when None).

    Returns
    -------
    list of FlagRate
        One per seat, in order.
    """
    tables = max(1, math.ceil(players / per_table))
    counts = [dict.fromkeys(("none", "counting", "edge sorting"), 0) for _ in seats]
    done = [0] * len(seats)
    raw: list[list[float]] = [[] for _ in seats]
    for t in range(tables):
        table_seats = []
        owner = {}
        for k, spec in enumerate(seats):
            n = min(per_table, players - t * per_table)
            for i in range(n):
                name = f"{k}.{i}"
                table_seats.append(parse_seat(spec, name))
                owner[name] = k
        hands, bets = simulate_logs(table_seats, shoes, decks=decks, seed=seed + t, table=f"t{t}.")
        result = audit(hands, bets, permutations=permutations, alpha=alpha, seed=seed + t, candidates=candidates,
                       integrity_draws=19)
        for name, a in result.players.items():
            counts[owner[name]][a.verdict] += 1
            done[owner[name]] += 1
            raw[owner[name]].append(next(x.p for x in a.tests if x.kind == "counting"))
        for name, k in owner.items():  # a seat that never bet (a counter whose count never called a bet)
            if name not in result.players:
                counts[k]["none"] += 1
                done[k] += 1
                raw[k].append(1.0)
    return [FlagRate(spec, done[k], counts[k], tuple(raw[k])) for k, spec in enumerate(seats)]
