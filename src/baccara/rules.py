"""Drawing rules as data (the punto banco tableau of the casinos; Wikipedia 2019).

A :class:`Tableau` is a pair of drawing rules: one for Player, indexed by his
two-card total, and one for Banker, indexed by Banker's two-card total and
Player's third-card value (or ``STOOD`` when Player stood).  Naturals (a
two-card 8 or 9 on either side) end the coup before any rule applies.

The punto banco tableau is one instance; chemin de fer and banque deal with
the same machinery, with a strategy in place of the tableau.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .errors import BaccaraError

#: Column of Banker's rule used when Player stood.
STOOD = 10


@dataclass(frozen=True)
class Tableau:
    """Drawing rules of a coup.

    ``player_draws[t]``: Player draws on two-card total ``t`` (0..7).
    ``banker_draws[t][k]``: Banker draws on two-card total ``t`` (0..7) when
    Player's third card has value ``k`` (0..9), or ``k = STOOD`` when Player
    stood.
    """

    player_draws: tuple[bool, ...]
    banker_draws: tuple[tuple[bool, ...], ...]
    name: str = "custom"

    def __post_init__(self) -> None:
        if len(self.player_draws) != 8:
            raise BaccaraError("player_draws needs 8 entries, one per two-card total 0-7")
        if len(self.banker_draws) != 8 or any(len(row) != 11 for row in self.banker_draws):
            raise BaccaraError(
                "banker_draws needs 8 rows (Banker totals 0-7) of 11 entries "
                "(Player's third card 0-9, then 'stood')"
            )

    @cached_property
    def player_array(self) -> np.ndarray:
        """Player's rule as a boolean array over totals 0..9 (8, 9: naturals, never draw)."""
        out = np.zeros(10, dtype=np.bool_)
        out[:8] = self.player_draws
        return out

    @cached_property
    def banker_array(self) -> np.ndarray:
        """Banker's rule as a boolean array [total 0..9][third card 0..9, STOOD]."""
        out = np.zeros((10, 11), dtype=np.bool_)
        out[:8, :] = np.array(self.banker_draws, dtype=np.bool_)
        return out

    def banker_draws_on(self, total: int, third: int | None) -> bool:
        """Does Banker draw on ``total`` when Player's third card is ``third`` (None: Player stood)?"""
        return self.banker_draws[total][STOOD if third is None else third]


def _punto_banco_banker(total: int, third: int | None) -> bool:
    """The punto banco Banker rule (the tableau)."""
    if third is None:
        return total <= 5
    if total <= 2:
        return True
    if total == 3:
        return third != 8
    if total == 4:
        return 2 <= third <= 7
    if total == 5:
        return 4 <= third <= 7
    if total == 6:
        return 6 <= third <= 7
    return False


#: The punto banco tableau: Player draws on 0-5; Banker as in the casinos' tableau.
PUNTO_BANCO = Tableau(
    player_draws=tuple(t <= 5 for t in range(8)),
    banker_draws=tuple(
        tuple(_punto_banco_banker(t, k) for k in range(10)) + (_punto_banco_banker(t, None),)
        for t in range(8)
    ),
    name="punto banco",
)
