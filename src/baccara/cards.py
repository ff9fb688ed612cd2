"""Ranks, suits and baccarat values (the conventions of Ethier and Lee 2023, section 2).

Ranks are indexed 0..12 in the order A, 2, ..., 9, 10, J, Q, K; their baccarat
values are 1, 2, ..., 9, 0, 0, 0, 0.  A hand's total is the sum of its values
mod 10; a *natural* is a two-card total of 8 or 9.
"""

from __future__ import annotations

from .errors import ShoeError

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
#: Baccarat value of each rank index.
RANK_VALUE: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0)

_RANK_ALIASES = {name: i for i, name in enumerate(RANKS)}
_RANK_ALIASES.update({"T": 9, "1": 0, "ACE": 0, "JACK": 10, "QUEEN": 11, "KING": 12})


def rank_index(name: str | int) -> int:
    """Rank index 0..12 of a rank name (``A``, ``2``..``9``, ``10``/``T``, ``J``, ``Q``, ``K``)."""
    key = str(name).strip().upper()
    if key not in _RANK_ALIASES:
        raise ShoeError(
            f"unknown rank {name!r}: ranks are A, 2-9, 10 (or T), J, Q, K"
        )
    return _RANK_ALIASES[key]


def parse_ranks(text: str, zero_is_ten: bool = False) -> list[str]:
    """Ranks as people type them, separated by commas and/or spaces (``5 5 9 K``, ``6,6,7``), by their names.

    The one reader of a list of cards: ``--remove`` and ``--add``, the live shoe's coups.

    Parameters
    ----------
    text : str
        The ranks.
    zero_is_ten : bool
        Also read ``0`` as a ten (the rank 10), as the live shoe does where cards are typed by value;
        elsewhere ``0`` is refused (``--known`` reads it as any ten-value card).

    Returns
    -------
    list of str
        Each rank's canonical name (:data:`RANKS`), in order.

    Raises
    ------
    ShoeError
        An unknown rank, named.
    """
    return [RANKS[rank_index("10" if zero_is_ten and t == "0" else t)] for t in text.replace(",", " ").split()]


def suit_index(name: str) -> int:
    """Suit index 0..3 of a suit letter (S, H, D, C)."""
    key = str(name).strip().upper()[:1]
    if key not in SUITS:
        raise ShoeError(f"unknown suit {name!r}: suits are S, H, D, C")
    return SUITS.index(key)

