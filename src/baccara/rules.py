"""Drawing rules as data (the punto banco tableau of the casinos; Wikipedia 2019).

A :class:`Tableau` is a pair of drawing rules: one for Player, indexed by his
two-card total, and one for Banker, indexed by Banker's two-card total and
Player's third-card value (or ``STOOD`` when Player stood).  Naturals (a
two-card 8 or 9 on either side) end the coup before any rule applies.

The punto banco tableau is one instance; chemin de fer and banque deal with
the same machinery, with a strategy in place of the tableau: there Player
must draw on 0-4 and stand on 6-7, and chooses at 5 (:func:`player_draws`;
Ethier and Lee 2023, section 1; Ethier and Lee 2015, section 1).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import BaccaraError
from .tomlfile import read_toml

if TYPE_CHECKING:
    import numpy as np

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
        import numpy as np
        out = np.zeros(10, dtype=np.bool_)
        out[:8] = self.player_draws
        return out

    @cached_property
    def banker_array(self) -> np.ndarray:
        """Banker's rule as a boolean array ``[total 0..9][third card 0..9, STOOD]``."""
        import numpy as np
        out = np.zeros((10, 11), dtype=np.bool_)
        out[:8, :] = np.array(self.banker_draws, dtype=np.bool_)
        return out

    def banker_draws_on(self, total: int, third: int | None) -> bool:
        """Does Banker draw on ``total`` when Player's third card is ``third`` (None: Player stood)?"""
        return self.banker_draws[total][STOOD if third is None else third]

    def to_json(self) -> dict:
        """The tableau in the form of its TOML file (:func:`load_tableau_toml`).

        Returns
        -------
        dict
            ``name``, ``player_draws`` (totals), ``banker_draws_when_player_stands``
            (totals) and ``banker_draws_when_player_draws`` (Banker total, as a
            string, -> Player third-card values on which Banker draws).
        """
        return {
            "name": self.name,
            "player_draws": [t for t in range(8) if self.player_draws[t]],
            "banker_draws_when_player_stands": [t for t in range(8) if self.banker_draws[t][STOOD]],
            "banker_draws_when_player_draws": {
                str(t): [k for k in range(10) if self.banker_draws[t][k]] for t in range(8)
            },
        }

    def to_toml(self) -> str:
        """The tableau as a TOML file that :func:`load_tableau_toml` reads back.

        Returns
        -------
        str
            The file's text.
        """
        doc = self.to_json()
        lines = [f"name = {json.dumps(self.name)}",
                 "# Player's two-card totals (0-7) on which he draws; 8 and 9 are naturals",
                 f"player_draws = {doc['player_draws']}",
                 "# Banker's two-card totals (0-7) on which he draws when Player stood",
                 f"banker_draws_when_player_stands = {doc['banker_draws_when_player_stands']}",
                 "",
                 "[banker_draws_when_player_draws]   # Banker's two-card total -> Player third-card values "
                 "on which he draws"]
        lines += [f"{t} = {v}" for t, v in doc["banker_draws_when_player_draws"].items()]
        return "\n".join(lines) + "\n"


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


# ---------------------------------------------------------------- tableaux from files
_KEYS = ("name", "description", "player_draws", "banker_draws_when_player_stands", "banker_draws_when_player_draws")


def _numbers(value: Any, where: str, lo: int, hi: int, what: str) -> set[int]:
    """A list of distinct whole numbers in [lo, hi], or an error naming ``where`` and the range."""
    if not isinstance(value, list):
        raise BaccaraError(f"{where} must be a list of {what} {lo}-{hi} (e.g. [0, 1, 2]; [] for none), got {value!r}")
    out: set[int] = set()
    for x in value:
        if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
            raise BaccaraError(f"{where}: {what} are whole numbers {lo}-{hi}, got {x!r}")
        if x in out:
            raise BaccaraError(f"{where}: {x} is given twice")
        out.add(x)
    return out


def tableau_from_mapping(data: Mapping[str, Any], source: str = "tableau") -> Tableau:
    """A tableau from its data form (a parsed TOML file), checked.

    Parameters
    ----------
    data : mapping
        ``player_draws`` (Player's two-card totals 0-7 on which he draws),
        ``banker_draws_when_player_stands`` (Banker's totals 0-7 on which he
        draws when Player stood), ``banker_draws_when_player_draws`` (a table:
        each Banker total 0-7 -> the values 0-9 of Player's third card on which
        he draws), optional ``name`` and ``description``.
    source : str
        How the tableau is named in error messages.

    Returns
    -------
    Tableau
        The drawing rules.

    Raises
    ------
    BaccaraError
        For an unknown key, a missing key or Banker total, a total outside
        0-7 or a card value outside 0-9; the message names the key.
    """
    if not isinstance(data, Mapping):
        raise BaccaraError(f"{source} must be a table of {', '.join(_KEYS)}")
    unknown = [k for k in data if k not in _KEYS]
    if unknown:
        raise BaccaraError(f"{source}: unknown key(s) {', '.join(map(repr, unknown))}; allowed: {', '.join(_KEYS)}")
    for key in _KEYS[2:]:
        if key not in data:
            raise BaccaraError(f"{source}: {key} is missing (keys: {', '.join(_KEYS[2:])}; name and description "
                               "are optional)")
    name = data.get("name", "custom")
    if not isinstance(name, str) or not name.strip():
        raise BaccaraError(f"{source}: name must be a non-empty string, got {name!r}")
    if not isinstance(data.get("description", ""), str):
        raise BaccaraError(f"{source}: description must be a string")
    player = _numbers(data["player_draws"], f"{source}: player_draws", 0, 7,
                      "Player's two-card totals (8 and 9 are naturals: the coup ends)")
    stood = _numbers(data["banker_draws_when_player_stands"], f"{source}: banker_draws_when_player_stands", 0, 7,
                     "Banker's two-card totals (8 and 9 are naturals: the coup ends)")
    table = data["banker_draws_when_player_draws"]
    where = f"{source}: banker_draws_when_player_draws"
    if not isinstance(table, Mapping):
        raise BaccaraError(f"{where} must be a table: Banker's total 0-7 -> Player third-card values 0-9 on which "
                           "he draws (e.g. 4 = [2, 3, 4, 5, 6, 7])")
    rows: dict[int, set[int]] = {}
    for key, value in table.items():
        text = str(key).strip()
        if not text.isdigit() or not 0 <= int(text) <= 7:
            raise BaccaraError(f"{where}: {key!r} is not a Banker total: the keys are Banker's two-card totals 0-7")
        if int(text) in rows:
            raise BaccaraError(f"{where}: Banker total {int(text)} is given twice")
        rows[int(text)] = _numbers(value, f"{where}.{text}", 0, 9, "Player's third-card values")
    missing = [t for t in range(8) if t not in rows]
    if missing:
        raise BaccaraError(f"{where}: Banker total{'s' if len(missing) > 1 else ''} {', '.join(map(str, missing))} "
                           f"{'are' if len(missing) > 1 else 'is'} missing: give every total 0-7 (an empty list [] "
                           "where Banker never draws)")
    return Tableau(
        player_draws=tuple(t in player for t in range(8)),
        banker_draws=tuple(tuple(k in rows[t] for k in range(10)) + (t in stood,) for t in range(8)),
        name=name.strip(),
    )


def load_tableau_toml(path: str | Path) -> Tableau:
    """A punto banco tableau from a TOML file, checked.

    Example (the punto banco tableau; ``examples/tableaux/`` has it and variants)::

        name = "punto banco"
        player_draws = [0, 1, 2, 3, 4, 5]
        banker_draws_when_player_stands = [0, 1, 2, 3, 4, 5]
        [banker_draws_when_player_draws]   # Banker's two-card total -> Player third-card values
        0 = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
        ...
        6 = [6, 7]
        7 = []

    Parameters
    ----------
    path : str or Path
        The file.

    Returns
    -------
    Tableau
        The drawing rules (named by ``name``, or by the file's name).
    """
    data = read_toml(path, "tableau")
    if "name" not in data:
        data = dict(data, name=Path(str(path)).stem)
    return tableau_from_mapping(data, f"tableau file {str(path)!r}")


def player_draws(total: int, at_5: int) -> bool:
    """Player's rule in chemin de fer and baccara banque: draw on 0-4, stand on 6-7, choose at 5.

    Parameters
    ----------
    total : int
        Player's two-card total (8 and 9 are naturals: he never draws).
    at_5 : int
        His choice at 5: 1 (or True) to draw, 0 to stand.

    Returns
    -------
    bool
        Whether he draws.
    """
    return total < 8 and (total <= 4 or (total == 5 and at_5 == 1))


@cache
def _player_draws_jit() -> Any:
    from numba import njit

    return njit(cache=True, nogil=True)(player_draws)


def __getattr__(name: str) -> Any:
    # ``player_draws_jit``: :func:`player_draws` compiled by Numba, for the kernels and simulations; made when
    # first imported, so that the tableau (and the command line's options) load no numba.
    if name == "player_draws_jit":
        return _player_draws_jit()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
