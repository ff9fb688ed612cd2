"""What is known of the cards of the next coup: a rank, or a set of ranks, at given positions.

Positions follow the deal: 1 is Player's first card, 2 Banker's first, 3
Player's second, 4 Banker's second; 5 is the fifth card out of the shoe
(Player's third card when he draws, otherwise Banker's third card when he
draws) and 6 the sixth (Banker's third card when both draw).  A card the coup
does not use is still the next one in the shoe, so a condition on position 5
or 6 is meaningful in every coup.

A :class:`Known` maps positions to the ranks their card may have: one rank
(``1=9``: Player's first card is a 9) or a set (``1 in 6,7,8,9``: what edge
sorting reveals).  The exact engine counts only the ordered deals that agree
(:func:`baccara.punto.exact.coup_counts`); every bet is then priced under that
condition.

Ranks are named A, 2-9, 10 (or T), J, Q, K; ``0`` stands for the four ranks
of value 0 (10, J, Q, K) and ``1`` for the ace, so a single digit names the
cards of that value.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from .. import params
from ..cards import RANK_VALUE, RANKS, rank_index
from ..errors import BaccaraError
from ..shoe import type_tables

if TYPE_CHECKING:
    import numpy as np

#: The positions a condition can name, in deal order.
POSITIONS = (1, 2, 3, 4, 5, 6)

#: What each position is.
POSITION_NAMES = {
    1: "Player's first card",
    2: "Banker's first card",
    3: "Player's second card",
    4: "Banker's second card",
    5: "the fifth card out of the shoe (Player's third card if he draws, else Banker's if he draws)",
    6: "the sixth card out of the shoe (Banker's third card when both draw)",
}

_POSITION_RANGE = "1 to 6 (1, 3: Player's first two cards; 2, 4: Banker's; 5, 6: the fifth and sixth cards out of the shoe)"
_RANK_HELP = "ranks are A, 2-9, 10 (or T), J, Q, K, or 0 for any of 10, J, Q, K"
_VALUE_ZERO = frozenset(r for r, v in enumerate(RANK_VALUE) if v == 0)


def parse_ranks(text: str | int | Iterable[str | int], name: str = "ranks") -> frozenset[int]:
    """A set of ranks from ``"6,7,8,9"``, ``"K"``, ``"0"`` (10, J, Q, K) or an iterable of such names.

    Parameters
    ----------
    text : str, int or iterable
        Rank names separated by commas, or an iterable of rank names; a
        number 0-9 names the ranks of that value.
    name : str
        The parameter's name, used in the error message.

    Returns
    -------
    frozenset of int
        Rank indices 0..12 (A, 2, ..., 9, 10, J, Q, K).

    Raises
    ------
    BaccaraError
        For an unknown rank or an empty set.
    """
    if isinstance(text, (str, int)) and not isinstance(text, bool):
        tokens = [t for t in str(text).replace(" ", "").strip("{}[]").split(",") if t]
    elif isinstance(text, Iterable):
        tokens = [str(t).strip() for t in text]
    else:
        raise BaccaraError(f"{name} must be rank names such as 9 or 6,7,8,9 ({_RANK_HELP}), got {text!r}")
    if not tokens:
        raise BaccaraError(f"{name} names no rank: give one or more of A, 2-9, 10, J, Q, K (0: any of 10, J, Q, K)")
    out: set[int] = set()
    for t in tokens:
        if t == "0":
            out |= _VALUE_ZERO
            continue
        try:
            out.add(rank_index(t))
        except BaccaraError:
            raise BaccaraError(f"{name}: unknown rank {t!r}: {_RANK_HELP}") from None
    return frozenset(out)


def rank_names(ranks: Iterable[int]) -> list[str]:
    """Rank names in the order A, 2, ..., K.

    Parameters
    ----------
    ranks : iterable of int
        Rank indices 0..12.

    Returns
    -------
    list of str
        Their names.
    """
    return [RANKS[r] for r in sorted(ranks)]


def _position(value: Any, name: str) -> int:
    try:
        return params.integer(value, f"{name} position", lo=1, hi=6)
    except BaccaraError:
        raise BaccaraError(f"{name}: a position must be a whole number from {_POSITION_RANGE}, got {value!r}") from None


@dataclass(frozen=True)
class Known:
    """The ranks the card at each position of the next coup may have (None: nothing known).

    Build it with :meth:`of` (``Known.of({1: "9", 3: "6,7,8,9"})``) or
    :meth:`parse` (``Known.parse("1=9; 3 in 6,7,8,9")``).

    Attributes
    ----------
    ranks : tuple
        Six entries, one per position 1-6: a frozenset of rank indices
        (0..12, A..K), or None where nothing is known.
    name : str
        How the condition is named in error messages (``--known`` on the
        command line).
    """

    ranks: tuple[frozenset[int] | None, ...] = (None,) * 6
    name: str = field(default="known", compare=False)

    def __post_init__(self) -> None:
        if len(self.ranks) != 6:
            raise BaccaraError(f"{self.name} needs six entries, one per position 1-6")
        for pos, s in zip(POSITIONS, self.ranks):
            if s is not None:
                if not isinstance(s, frozenset) or not s or not all(isinstance(r, int) and 0 <= r < 13 for r in s):
                    raise BaccaraError(f"{self.name}: position {pos} needs a non-empty set of rank indices 0-12")
                if len(s) == 13:  # every rank: nothing is known
                    object.__setattr__(self, "ranks", self.ranks[: pos - 1] + (None,) + self.ranks[pos:])

    @classmethod
    def of(cls, spec: Mapping[Any, Any], name: str = "known") -> Known:
        """A condition from a mapping position -> rank or ranks.

        Parameters
        ----------
        spec : mapping
            Position 1-6 -> a rank name, ``"6,7,8,9"``, or an iterable of rank names.
        name : str
            How the condition is named in error messages.

        Returns
        -------
        Known
            The condition.
        """
        if not isinstance(spec, Mapping):
            raise BaccaraError(f"{name} must map positions 1-6 to ranks, e.g. {{1: '9'}}, got {spec!r}")
        ranks: list[frozenset[int] | None] = [None] * 6
        for key, value in spec.items():
            pos = _position(key, name)
            if ranks[pos - 1] is not None:
                raise BaccaraError(f"{name}: position {pos} is given twice; give each position once")
            ranks[pos - 1] = parse_ranks(value, f"{name} position {pos}")
        return cls(tuple(ranks), name)

    @classmethod
    def parse(cls, text: str | Iterable[str], name: str = "known") -> Known:
        """A condition from text: ``"1=9"``, ``"1 in 6,7,8,9"``, several joined by ``;``.

        Parameters
        ----------
        text : str or iterable of str
            The conditions (an iterable: one or more per item, as a repeated
            command-line option gives them).
        name : str
            How the condition is named in error messages.

        Returns
        -------
        Known
            The condition.
        """
        items = [text] if isinstance(text, str) else list(text)
        parts = [p.strip() for item in items for p in str(item).split(";") if p.strip()]
        if not parts:
            raise BaccaraError(f"{name} is empty: give POSITION=RANK or POSITION in RANK,RANK,... (e.g. 1=9, "
                               "'1 in 6,7,8,9')")
        spec: dict[int, str] = {}
        for p in parts:
            low = p.lower()
            if "=" in p:
                pos_text, ranks_text = p.split("=", 1)
            elif " in " in f" {low} ":
                at = low.index("in")
                pos_text, ranks_text = p[:at], p[at + 2:]
            else:
                raise BaccaraError(f"{name}: cannot read {p!r}: write POSITION=RANK or POSITION in RANK,RANK,... "
                                   "(e.g. 1=9, '1 in 6,7,8,9')")
            pos = _position(pos_text.strip(), name)
            if pos in spec:
                raise BaccaraError(f"{name}: position {pos} is given twice; give each position once")
            spec[pos] = ranks_text
        return cls.of(spec, name)

    @classmethod
    def coerce(cls, value: Known | Mapping[Any, Any] | str | None, name: str = "known") -> Known | None:
        """A :class:`Known` from itself, a mapping (:meth:`of`), text (:meth:`parse`) or None.

        Parameters
        ----------
        value : Known, mapping, str or None
            The condition.
        name : str
            How the condition is named in error messages.

        Returns
        -------
        Known or None
            None when nothing is known.
        """
        if value is None:
            return None
        k = value if isinstance(value, Known) else cls.of(value, name) if isinstance(value, Mapping) \
            else cls.parse(value, name)
        return None if k.empty else k

    @property
    def empty(self) -> bool:
        """Whether nothing is known."""
        return all(s is None for s in self.ranks)

    @property
    def positions(self) -> tuple[int, ...]:
        """The positions with a condition."""
        return tuple(p for p, s in zip(POSITIONS, self.ranks) if s is not None)

    def describe(self) -> str:
        """The condition as people write it: ``1 = 9; 3 in 6, 7, 8, 9``.

        Returns
        -------
        str
            The text (``nothing`` when nothing is known).
        """
        parts = []
        for p in self.positions:
            names = rank_names(self.ranks[p - 1] or ())
            parts.append(f"{p} = {names[0]}" if len(names) == 1 else f"{p} in {', '.join(names)}")
        return "; ".join(parts) or "nothing"

    def to_json(self) -> dict[str, list[str]]:
        """Position -> the rank names allowed there.

        Returns
        -------
        dict
            ``{"1": ["9"], "3": ["6", "7", "8", "9"]}``.
        """
        return {str(p): rank_names(self.ranks[p - 1] or ()) for p in self.positions}

    def check(self, shoe: Any) -> None:
        """Raise unless the shoe can deal an allowed card at each position on its own,
        and knows its cards finely enough to tell the allowed ranks apart.

        Parameters
        ----------
        shoe : Shoe
            The shoe.
        """
        labelling(shoe.resolution, self)
        if shoe.resolution == "value":
            have = {r for r in range(13) if shoe.counts[RANK_VALUE[r]] > 0}
        else:
            rc = shoe.rank_counts()
            have = {r for r in range(13) if rc[r] > 0}
        for p in self.positions:
            s = self.ranks[p - 1] or frozenset()
            if not s & have:
                raise BaccaraError(f"{self.name}: position {p} ({POSITION_NAMES[p]}) must be "
                                   f"{' or '.join(rank_names(s))}, and the shoe holds no such card")


@dataclass(frozen=True, eq=False)
class Labelling:
    """How the exact kernel deals a shoe under a condition (see :mod:`baccara.punto.kernel`).

    Attributes
    ----------
    type_label : numpy.ndarray
        The label of each card type of the shoe's resolution.
    label_values : numpy.ndarray
        The value of each label.
    allow : numpy.ndarray
        ``allow[p - 1, label]``: whether position p may hold a card of that label.
    pmult, bmult : numpy.ndarray
        Orders of Player's (positions 1, 3) and Banker's (2, 4) unordered
        two-label hands that the condition allows.
    free56 : bool
        Whether positions 5 and 6 allow every label.
    """

    type_label: np.ndarray
    label_values: np.ndarray
    allow: np.ndarray
    pmult: np.ndarray
    bmult: np.ndarray
    free56: bool


def _orders(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """m[a, b]: orders of the unordered hand {a, b} with an allowed label first and second."""
    import numpy as np
    out = np.outer(first, second).astype(np.int64)
    out = out + out.T
    np.fill_diagonal(out, np.diag(out) // 2)
    return out


@lru_cache(maxsize=256)
def labelling(resolution: str, known: Known | None) -> Labelling:
    """The labels of a shoe of ``resolution`` under ``known`` (values 0-9 when nothing is known).

    Cards are labelled by their value and, for each known position, whether
    their rank is allowed there; labels are numbered by value first, so that
    without a condition label v is value v.

    Parameters
    ----------
    resolution : str
        ``"suit"``, ``"rank"`` or ``"value"``.
    known : Known or None
        The condition.

    Returns
    -------
    Labelling
        Read-only arrays for the kernel.
    """
    values, ranks = type_tables(resolution)
    sets = [(p, known.ranks[p - 1] or frozenset()) for p in known.positions] if known is not None else []
    if resolution == "value":
        for p, s in sets:
            for v in range(10):
                of_v = {r for r in range(13) if RANK_VALUE[r] == v}
                if s & of_v and not of_v <= s:
                    assert known is not None
                    raise BaccaraError(
                        f"{known.name}: position {p}: this shoe is known only by value, so it cannot tell "
                        f"{', '.join(rank_names(s & of_v))} from {', '.join(rank_names(of_v - s))}; name whole "
                        "values (0 for 10, J, Q, K together) or give the shoe by rank")

    def member(t: int, s: frozenset[int]) -> bool:
        if resolution == "value":
            return any(RANK_VALUE[r] == values[t] for r in s)
        return int(ranks[t]) in s

    import numpy as np
    sigs = [(int(values[t]), tuple(member(t, s) for _, s in sets)) for t in range(len(values))]
    order = sorted(set(sigs))
    index = {sig: i for i, sig in enumerate(order)}
    allow = np.ones((6, len(order)), dtype=np.bool_)
    for j, (p, _) in enumerate(sets):
        allow[p - 1] = [sig[1][j] for sig in order]
    lab = Labelling(
        type_label=np.array([index[sig] for sig in sigs], dtype=np.int64),
        label_values=np.array([sig[0] for sig in order], dtype=np.int64),
        allow=allow,
        pmult=_orders(allow[0], allow[2]),
        bmult=_orders(allow[1], allow[3]),
        free56=bool(allow[4].all() and allow[5].all()),
    )
    for a in (lab.type_label, lab.label_values, lab.allow, lab.pmult, lab.bmult):
        a.flags.writeable = False
    return lab
