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
    "same_cards": ("bool", "both hands hold the same number of cards (two each or three each)", "value"),
    "both_pairs": ("bool", "both hands' first two cards pair (each of equal rank)", "rank"),
}

_RESOLUTION_ORDER = {"value": 0, "rank": 1, "suit": 2}

# ---------------------------------------------------------------- fields on the cards themselves
#: Card attributes a card field reads, and the shoe resolution each needs.
ATTRIBUTE_RESOLUTION = {"value": "value", "rank": "rank", "colour": "suit", "suit": "suit"}
RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
COLOUR_NAMES = ("red", "black")
HAND_COLOUR_NAMES = ("red", "black", "mixed")
#: The code of "none" (no third card) in each card attribute's codes.
NONE_CODE = {"rank": 13, "value": 10, "suit": 4, "colour": 2}


def _card_fields() -> dict[str, tuple[str, str, str, bool]]:
    out: dict[str, tuple[str, str, str, bool]] = {}
    what = {"rank": "rank (A, 2-10, J, Q, K)", "value": "value (0-9)", "suit": "suit (spades, hearts, diamonds, clubs)",
            "colour": "colour (red: hearts, diamonds; black: spades, clubs)"}
    for side in ("player", "banker"):
        hand = side.capitalize()
        for k, nth in ((1, "first"), (2, "second"), (3, "third")):
            for attr in ("rank", "value", "suit", "colour"):
                extra = ', or "none" when the hand has two cards' if k == 3 else ""
                out[f"{side}_card{k}_{attr}"] = (attr, f"{hand}'s {nth} card's {what[attr]}{extra}", attr, k == 3)
        out[f"{side}_two_card_total"] = ("total", f"{hand}'s total on the first two cards, before drawing, 0-9",
                                         "value", False)
        out[f"{side}_suited"] = ("bool", f"{hand}'s first two cards have the same suit", "suit", False)
        out[f"{side}_colour"] = ("hand_colour", f"colour of all of {hand}'s cards: red, black or mixed", "colour", True)
    out["colour"] = ("hand_colour", "colour of all the cards of the coup (four to six): red, black or mixed",
                     "colour", True)
    out["same_pair"] = ("bool", "both hands' first two cards pair, with the same rank (a pair of 5s in each)",
                        "rank", False)
    out["identical_pairs"] = ("bool", "both hands' first two cards are four identical cards (same rank and suit)",
                              "suit", False)
    return out


#: Fields on the cards themselves, which no cell of :data:`CELL_SHAPE` determines: name -> (kind,
#: description, attribute read (value, rank, colour or suit), whether it reads the third cards).  A bet
#: using one is priced by the card-level engine (:mod:`baccara.punto.cardengine`).
CARD_FIELDS: dict[str, tuple[str, str, str, bool]] = _card_fields()

#: An example condition for each kind of card field, for help texts.
CARD_FIELD_EXAMPLES = {
    "rank": '"K", "10" or ["J", "Q", "K"]', "value": '8 or [8, 9]', "suit": '"hearts" or ["hearts", "diamonds"]',
    "colour": '"red"', "hand_colour": '"red", "black" or "mixed"', "total": "3 or [0, 1, 2]", "bool": "true",
}


def is_card_field(field: str) -> bool:
    """Does ``field`` read the cards themselves (priced by the card-level engine) rather than a cell?"""
    return field in CARD_FIELDS


def field_resolution(field: str) -> str:
    """The shoe resolution a field needs: value, rank or suit."""
    if field in CARD_FIELDS:
        return ATTRIBUTE_RESOLUTION[CARD_FIELDS[field][2]]
    return FIELDS[field][2]


def _code(field: str, kind: str, v: Any, third: bool) -> int:
    """One allowed value of a card field as its integer code, or a BetError naming the field."""
    import numpy as np
    none_ok = third and kind in NONE_CODE
    if none_ok and isinstance(v, str) and v.strip().lower() == "none":
        return NONE_CODE[kind]
    tail = ', or "none"' if none_ok else ""
    if kind == "rank":
        key = str(v).strip().upper() if isinstance(v, (str, int, np.integer)) and not isinstance(v, bool) else None
        key = {"T": "10", "ACE": "A", "1": "A", "JACK": "J", "QUEEN": "Q", "KING": "K"}.get(key or "", key)
        if key not in RANK_NAMES:
            raise BetError(f"{field} is a rank: A, 2-10, J, Q or K{tail}; got {v!r}")
        return RANK_NAMES.index(key)
    if kind in ("value", "total"):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not 0 <= int(v) <= 9:
            raise BetError(f"{field} takes the integers 0-9{tail}; got {v!r}")
        return int(v)
    if kind == "suit":
        key = str(v).strip().lower() if isinstance(v, str) else ""
        key = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}.get(key, key)
        if key not in SUIT_NAMES:
            raise BetError(f"{field} is a suit: spades, hearts, diamonds or clubs{tail}; got {v!r}")
        return SUIT_NAMES.index(key)
    if kind == "colour":
        key = str(v).strip().lower() if isinstance(v, str) else ""
        if key not in COLOUR_NAMES:
            raise BetError(f"{field} is a colour: red or black{tail}; got {v!r}")
        return COLOUR_NAMES.index(key)
    if kind == "hand_colour":
        key = str(v).strip().lower() if isinstance(v, str) else ""
        if key not in HAND_COLOUR_NAMES:
            raise BetError(f"{field} is red, black or mixed; got {v!r}")
        return HAND_COLOUR_NAMES.index(key)
    if not isinstance(v, (bool, np.bool_)):  # bool
        raise BetError(f"{field} is true or false, got {v!r}")
    return int(bool(v))


def _show_card_value(field: str, code: int) -> str:
    kind, _, _, third = CARD_FIELDS[field]
    if third and kind in NONE_CODE and code == NONE_CODE[kind]:
        return "none"
    if kind == "rank":
        return RANK_NAMES[code]
    if kind == "suit":
        return SUIT_NAMES[code]
    if kind == "colour":
        return COLOUR_NAMES[code]
    if kind == "hand_colour":
        return HAND_COLOUR_NAMES[code]
    if kind == "bool":
        return "true" if code else "false"
    return str(code)


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
        "same_cards": pn == bn,
        "both_pairs": (kp >= 1) & (kb >= 1),
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
        vals = [_show_card_value(field, v) if field in CARD_FIELDS else show(field, v) for v in allowed]
        parts.append(f"{field} = {vals[0] if len(vals) == 1 else '[' + ', '.join(vals) + ']'}")
    return ", ".join(parts) or "always"


def normalize_condition(field: str, value: Any) -> tuple:
    """The allowed values of ``field`` as a sorted tuple, checked against the field's kind."""
    import numpy as np
    if field not in FIELDS and field not in CARD_FIELDS:
        raise BetError(f"unknown event field {field!r}: fields are {', '.join(FIELDS)}; and on the cards "
                       f"themselves {', '.join(CARD_FIELDS)} (baccara fields)")
    values = list(value) if isinstance(value, (list, tuple, set, frozenset)) else [value]
    if not values:
        raise BetError(f"condition on {field!r} allows no value")
    if field in CARD_FIELDS:
        kind, _, _, third = CARD_FIELDS[field]
        return tuple(sorted({_code(field, kind, v, third) for v in values}))
    kind = FIELDS[field][0]
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
        r = field_resolution(f)
        if _RESOLUTION_ORDER[r] > _RESOLUTION_ORDER[need]:
            need = r
    return need
