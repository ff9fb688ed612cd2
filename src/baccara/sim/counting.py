"""Card counting systems for punto banco side bets, as data.

A count system is

* a **tag per rank** (A, 2-9, 10, J, Q, K; ranks not listed count 0) added
  to the running count for every card the counter sees: the face-up burn card
  and every card dealt (Wikipedia (2019): the other burned cards are face down);
* an **initial count** (``initial`` plus ``initial_per_deck`` times the
  decks), so unbalanced systems can start away from zero;
* a **betting rule** per bet: place one unit on the bet when the *running*
  count, or the *true* count (running count per deck not yet seen), lies in
  ``[at_least, at_most]``;
* optionally the **cut-card depth** it is meant for (cards behind the cut
  card; 7 per Wikipedia (2019), 14 is also common).

A system is *balanced* when the tags of one deck sum to zero.  Ask Dr. Math (1996) says
the tie bet improves when the cards left are rich in sixes and sevens; a tie
count tags 6 and 7 negatively (their removal hurts the tie) and the cards
whose removal helps it positively, see ``examples/counts/``.

TOML form::

    name = "Dragon 7"
    description = "4-7 count -1, 8-9 count +2"
    cut = 14                      # optional
    initial = 0                   # optional
    [tags]
    "4" = -1
    "5" = -1
    "8" = 2
    [[bets]]
    name = "dragon7"
    count = "true"                # or "running"
    at_least = 4
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..cards import RANKS, rank_index
from ..errors import BaccaraError
from ..tomlfile import read_toml
from .limits import MAX_DECKS, min_cut

COUNT_KINDS = ("running", "true")


class CountError(BaccaraError):
    """An invalid count system."""


@dataclass(frozen=True)
class BetRule:
    """Bet one unit on ``bet`` when the ``count`` ("running" or "true") lies in [at_least, at_most]."""

    bet: str
    count: str = "true"
    at_least: float = -math.inf
    at_most: float = math.inf

    def describe(self) -> str:
        parts = []
        if self.at_least > -math.inf:
            parts.append(f">= {self.at_least:g}")
        if self.at_most < math.inf:
            parts.append(f"<= {self.at_most:g}")
        return f"{self.bet} when {self.count} count {' and '.join(parts)}"


@dataclass(frozen=True)
class CountSystem:
    """Tags by rank (A..K), initial count, betting rules and an optional cut-card depth."""

    name: str
    tags: tuple[float, ...]
    rules: tuple[BetRule, ...]
    initial: float = 0.0
    initial_per_deck: float = 0.0
    cut: int | None = None
    description: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if len(self.tags) != 13:
            raise CountError(f"count {self.name!r}: tags need 13 ranks (A, 2-9, 10, J, Q, K), got {len(self.tags)}")
        seen = set()
        for r in self.rules:
            if r.bet in seen:
                raise CountError(f"count {self.name!r}: bet {r.bet!r} has two betting rules; give one")
            seen.add(r.bet)

    @property
    def balanced(self) -> bool:
        """Do the tags of one deck (four of each rank) sum to zero?"""
        return math.isclose(4 * sum(self.tags), 0.0, abs_tol=1e-12)

    def start(self, decks: int) -> float:
        """The count at the top of a fresh ``decks``-deck shoe."""
        return self.initial + self.initial_per_deck * decks

    def tag_array(self) -> np.ndarray:
        return np.array(self.tags, dtype=np.float64)

    def rule_for(self, bet: str) -> BetRule | None:
        return next((r for r in self.rules if r.bet == bet), None)

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "tags": {RANKS[i]: t for i, t in enumerate(self.tags)},
            "initial": self.initial,
            "initial_per_deck": self.initial_per_deck,
            "balanced": self.balanced,
            "cut": self.cut,
            "rules": [{"bet": r.bet, "count": r.count,
                       "at_least": None if r.at_least == -math.inf else r.at_least,
                       "at_most": None if r.at_most == math.inf else r.at_most} for r in self.rules],
        }


#: The largest tag or initial count: counts are float64 sums over up to half a million cards.
MAX_TAG = 1e6


def _number(value: Any, where: str, bound: float = MAX_TAG) -> float:
    if (isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value)
            or abs(value) > bound):  # type: ignore[operator]  # typeshed: abs(numbers.Real) is not comparable
        raise CountError(f"{where} must be a number from {-bound:g} to {bound:g}, got {value!r}")
    return float(value)


def _rule(i: int, spec: Any, where: str) -> BetRule:
    w = f"{where}, bets[{i + 1}]"
    if not isinstance(spec, Mapping):
        raise CountError(f"{w} must be a table with name, count and at_least / at_most")
    unknown = set(spec) - {"name", "count", "at_least", "at_most"}
    if unknown:
        raise CountError(f"{w}: unknown key(s) {', '.join(sorted(unknown))}; allowed: name, count, at_least, at_most")
    name = spec.get("name")
    if not isinstance(name, str) or not name:
        raise CountError(f"{w}: needs name = \"BET\" (a bet name, e.g. \"tie\")")
    kind = spec.get("count", "true")
    if kind not in COUNT_KINDS:
        raise CountError(f"{w}: count must be \"running\" or \"true\", got {kind!r}")
    if "at_least" not in spec and "at_most" not in spec:
        raise CountError(f"{w}: give a threshold, at_least and/or at_most")
    lo = _number(spec["at_least"], f"{w} at_least", 1e300) if "at_least" in spec else -math.inf
    hi = _number(spec["at_most"], f"{w} at_most", 1e300) if "at_most" in spec else math.inf
    if lo > hi:
        raise CountError(f"{w}: at_least ({lo:g}) is above at_most ({hi:g})")
    return BetRule(name, kind, lo, hi)


def count_from_mapping(data: Mapping[str, Any], where: str = "count") -> CountSystem:
    """A count system from its data form (the TOML document as a mapping)."""
    allowed = {"name", "description", "tags", "initial", "initial_per_deck", "bets", "cut", "balanced"}
    unknown = set(data) - allowed
    if unknown:
        raise CountError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}; allowed: {', '.join(sorted(allowed))}")
    tags_spec = data.get("tags")
    if not isinstance(tags_spec, Mapping) or not tags_spec:
        raise CountError(f"{where}: needs a [tags] table, rank = tag (e.g. \"6\" = -2)")
    tags = [0.0] * 13
    for name, t in tags_spec.items():
        try:
            r = rank_index(name)
        except BaccaraError as e:
            raise CountError(f"{where}, tags: {e}") from None
        tags[r] = _number(t, f"{where}, tag of {name}")
    rules_spec = data.get("bets")
    if not isinstance(rules_spec, list) or not rules_spec:
        raise CountError(f"{where}: needs at least one [[bets]] table (name, count, at_least / at_most)")
    rules = tuple(_rule(i, s, where) for i, s in enumerate(rules_spec))
    cut = data.get("cut")
    least = min_cut(6)
    if cut is not None and (isinstance(cut, bool) or not isinstance(cut, int) or not least <= cut <= 52 * MAX_DECKS):
        raise CountError(f"{where}: cut (cards behind the cut card) must be an integer from {least} (one more "
                         f"coup follows the cut card) to "
                         f"{52 * MAX_DECKS:,}, got {cut!r}")
    system = CountSystem(
        name=str(data.get("name", "count")),
        tags=tuple(tags),
        rules=rules,
        initial=_number(data.get("initial", 0), f"{where}, initial"),
        initial_per_deck=_number(data.get("initial_per_deck", 0), f"{where}, initial_per_deck"),
        cut=cut,
        description=str(data.get("description", "")),
    )
    if "balanced" in data:
        if not isinstance(data["balanced"], bool):
            raise CountError(f"{where}: balanced is true or false, got {data['balanced']!r}")
        if data["balanced"] != system.balanced:
            total = 4 * sum(system.tags)
            raise CountError(f"{where}: declared balanced = {str(data['balanced']).lower()}, "
                             f"but one deck's tags sum to {total:g}")
    return system


def load_count_toml(path: str | Path) -> CountSystem:
    """A count system from a TOML file (see the module docstring for the form)."""
    p = Path(path)
    data = read_toml(p, "count", CountError)
    return count_from_mapping(data, f"count file {p.name}")
