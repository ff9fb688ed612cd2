"""The outcome space of a coup, and the events over it that bets pay on.

The exact engine counts ordered deals over *cells*: one cell for each
combination of

- Player's pair class and Banker's pair class (first two cards: no pair,
  a pair of different card types, a pair of the same type), and
- each hand's final total (0-9) and number of cards (2 or 3).

Everything a bet can depend on is a function of the cell: who won and by
how much, naturals, three-card totals, pairs and suited pairs.  This module
names those functions (the *fields*) and evaluates conditions on them.
"""

from __future__ import annotations

import math
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

from ..errors import BetError

if TYPE_CHECKING:
    import numpy as np

#: Shape of the cell array: (player pair class, banker pair class,
#: player total, player cards - 2, banker total, banker cards - 2).
CELL_SHAPE = (3, 3, 10, 2, 10, 2)
NCELLS = math.prod(CELL_SHAPE)

WINNERS = ("banker", "player", "tie")

#: Field name -> (kind, description, resolution it needs).  Resolutions:
#: "value" (any shoe), "rank" (pairs), "suit" (suited pairs).
FIELDS: dict[str, tuple[str, str, str]] = {
    "winner": ("winner", "who won: banker, player or tie", "value"),
    "margin": ("int", "winning total minus losing total, 0-9 (0 for a tie)", "value"),
    "player_total": ("int", "Player's final total, 0-9", "value"),
    "banker_total": ("int", "Banker's final total, 0-9", "value"),
    "player_cards": ("int", "cards in Player's hand, 2 or 3", "value"),
    "banker_cards": ("int", "cards in Banker's hand, 2 or 3", "value"),
    "total_cards": ("int", "cards dealt in the coup, 4-6", "value"),
    "player_natural": ("bool", "Player has a natural (two-card 8 or 9)", "value"),
    "banker_natural": ("bool", "Banker has a natural (two-card 8 or 9)", "value"),
    "natural": ("bool", "either hand has a natural", "value"),
    "player_pair": ("bool", "Player's first two cards have equal rank", "rank"),
    "banker_pair": ("bool", "Banker's first two cards have equal rank", "rank"),
    "any_pair": ("bool", "either hand's first two cards have equal rank", "rank"),
    "player_suited_pair": ("bool", "Player's first two cards have equal rank and suit", "suit"),
    "banker_suited_pair": ("bool", "Banker's first two cards have equal rank and suit", "suit"),
}

_RESOLUTION_ORDER = {"value": 0, "rank": 1, "suit": 2}


def resolution_at_least(have: str, need: str) -> bool:
    """Does a shoe known at resolution ``have`` determine fields needing ``need``?"""
    return _RESOLUTION_ORDER[have] >= _RESOLUTION_ORDER[need]


@lru_cache(maxsize=1)
def field_arrays() -> dict[str, np.ndarray]:
    """Each field's value in each cell, as flat arrays of length NCELLS."""
    import numpy as np
    kp, kb, pt, pn, bt, bn = np.indices(CELL_SHAPE).reshape(6, -1)
    pcards, bcards = pn + 2, bn + 2
    pnat = (pcards == 2) & (pt >= 8)
    bnat = (bcards == 2) & (bt >= 8)
    winner = np.where(bt > pt, 0, np.where(pt > bt, 1, 2))
    return {
        "winner": winner,
        "margin": np.abs(pt - bt),
        "player_total": pt,
        "banker_total": bt,
        "player_cards": pcards,
        "banker_cards": bcards,
        "total_cards": pcards + bcards,
        "player_natural": pnat,
        "banker_natural": bnat,
        "natural": pnat | bnat,
        "player_pair": kp >= 1,
        "banker_pair": kb >= 1,
        "any_pair": (kp >= 1) | (kb >= 1),
        "player_suited_pair": kp == 2,
        "banker_suited_pair": kb == 2,
    }


@cache
def field_values(field: str) -> tuple[int, ...]:
    """The values ``field`` takes in some coup (its domain, as the integers conditions use)."""
    import numpy as np
    return tuple(int(v) for v in np.unique(field_arrays()[field].astype(np.int64)))


def describe_condition(when: tuple[tuple[str, tuple], ...]) -> str:
    """A condition as people write it: ``winner = banker, banker_total = 7``."""
    def show(field: str, v: int) -> str:
        kind = FIELDS[field][0]
        return WINNERS[v] if kind == "winner" else ("true" if v else "false") if kind == "bool" else str(v)

    parts = []
    for field, allowed in when:
        vals = [show(field, v) for v in allowed]
        parts.append(f"{field} = {vals[0] if len(vals) == 1 else '[' + ', '.join(vals) + ']'}")
    return ", ".join(parts) or "always"


def normalize_condition(field: str, value: Any) -> tuple:
    """The allowed values of ``field`` as a sorted tuple, checked against the field's kind."""
    import numpy as np
    if field not in FIELDS:
        raise BetError(f"unknown event field {field!r}: fields are {', '.join(FIELDS)}")
    kind = FIELDS[field][0]
    values = list(value) if isinstance(value, (list, tuple, set, frozenset)) else [value]
    if not values:
        raise BetError(f"condition on {field!r} allows no value")
    out: list[int] = []  # bools, indices and integers alike
    for v in values:
        if kind == "bool":
            if not isinstance(v, (bool, np.bool_)):
                raise BetError(f"{field} is true or false, got {v!r}")
            out.append(bool(v))
        elif kind == "winner":
            if not isinstance(v, str) or v.lower() not in WINNERS:
                raise BetError(f"winner is one of {', '.join(WINNERS)}, got {v!r}")
            out.append(WINNERS.index(v.lower()))
        else:
            domain = field_values(field)
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or int(v) not in domain:
                raise BetError(f"{field} takes the integers {domain[0]}-{domain[-1]}, got {v!r}")
            out.append(int(v))
    return tuple(sorted(set(out)))


@lru_cache(maxsize=4096)
def condition_mask(when: tuple[tuple[str, tuple], ...]) -> np.ndarray:
    """Cells where every (field, allowed values) condition holds (read-only: computed once per
    condition, for the bet's rule check and again for its payout cells)."""
    arrays = field_arrays()
    import numpy as np
    mask = np.ones(NCELLS, dtype=bool)
    for field, allowed in when:
        mask &= np.isin(arrays[field].astype(np.int64), np.array(allowed, dtype=np.int64))
    mask.flags.writeable = False
    return mask


def needed_resolution(fields: list[str] | tuple[str, ...]) -> str:
    """The finest resolution any of ``fields`` needs."""
    need = "value"
    for f in fields:
        r = FIELDS[f][2]
        if _RESOLUTION_ORDER[r] > _RESOLUTION_ORDER[need]:
            need = r
    return need
