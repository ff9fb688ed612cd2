"""Shoes: what is left to deal, and how it is dealt.

A :class:`Shoe` is a multiset of card *types* dealt without replacement
(Model B of Ethier and Gamez 2013: a d-deck shoe or any depleted composition) or with
replacement (Model A: the "infinite" shoe, value 0 with probability 4/13 and
each of 1-9 with 1/13).

A shoe knows its cards at one of three resolutions:

``"suit"``
    52 types (rank x suit): every bet can be priced, suited pairs included.
``"rank"``
    13 types: pair bets can be priced, suited pairs cannot.
``"value"``
    10 types (values 0-9): only bets on totals and winners can be priced.

Exact probabilities are integers over the number of ordered deals of six
cards, the falling factorial (N)_6, or N^6 with replacement.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from math import perm
from typing import TYPE_CHECKING

from .cards import RANK_VALUE, RANKS, SUITS, rank_index, suit_index
from .errors import ShoeError

if TYPE_CHECKING:
    import numpy as np

RESOLUTIONS = ("suit", "rank", "value")
_NTYPES = {"suit": 52, "rank": 13, "value": 10}
#: Cards one coup can use: two per hand and a third card to each.
CARDS_PER_COUP = 6


@cache
def type_tables(resolution: str) -> tuple[np.ndarray, np.ndarray]:
    """Each card type's point value and rank at a resolution (read-only, cached).

    Parameters
    ----------
    resolution : str
        ``"suit"`` (52 types), ``"rank"`` (13) or ``"value"`` (10).

    Returns
    -------
    tuple of numpy.ndarray
        The values (0-9) and the ranks (0-12, or -1 where the resolution has no ranks).
    """
    import numpy as np
    if resolution == "suit":
        values = np.array([RANK_VALUE[i // 4] for i in range(52)], dtype=np.int64)
        ranks = np.arange(52, dtype=np.int64) // 4
    elif resolution == "rank":
        values, ranks = np.array(RANK_VALUE, dtype=np.int64), np.arange(13, dtype=np.int64)
    else:
        values, ranks = np.arange(10, dtype=np.int64), np.full(10, -1, dtype=np.int64)
    values.flags.writeable = False
    ranks.flags.writeable = False
    return values, ranks


def _check_count(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ShoeError(f"{name} must be a non-negative integer, got {value!r}")
    if value < 0:
        raise ShoeError(f"{name} must be a non-negative integer, got {value}")
    return int(value)


@dataclass(frozen=True)
class Shoe:
    """Counts of the cards left, by type, and whether they are dealt with replacement.

    Build shoes with :meth:`decks`, :meth:`infinite`, :meth:`from_ranks`,
    :meth:`from_values` or :meth:`from_cards`; derive depleted shoes with
    :meth:`remove` and :meth:`add`.
    """

    counts: tuple[int, ...]
    resolution: str = "suit"
    replacement: bool = False
    decks_label: int | None = None

    def __post_init__(self) -> None:
        if self.resolution not in RESOLUTIONS:
            raise ShoeError(f"resolution must be one of {', '.join(RESOLUTIONS)}, got {self.resolution!r}")
        if len(self.counts) != _NTYPES[self.resolution]:
            raise ShoeError(
                f"a {self.resolution}-resolution shoe needs {_NTYPES[self.resolution]} counts, got {len(self.counts)}"
            )
        counts = tuple(self.counts)
        if not all(type(c) is int and c >= 0 for c in counts):
            counts = tuple(_check_count(f"count of {self.type_name(i)}", c) for i, c in enumerate(counts))
        object.__setattr__(self, "counts", counts)
        n = sum(counts)
        if self.replacement and n == 0:
            raise ShoeError("an infinite shoe needs at least one card type with a positive count")
        if not self.replacement and n < CARDS_PER_COUP:
            raise ShoeError(
                f"a shoe needs at least {CARDS_PER_COUP} cards to deal a coup, this one has {n}"
            )

    # ------------------------------------------------------------------ builders
    @classmethod
    def decks(cls, d: int) -> Shoe:
        """A fresh shoe of ``d`` standard 52-card decks, known card by card (rank and suit).

        Parameters
        ----------
        d : int
            The number of decks, a positive integer.

        Returns
        -------
        Shoe
            ``d`` cards of each of the 52 (rank, suit) types, dealt without replacement.

        Raises
        ------
        ShoeError
            When ``d`` is not a positive integer.

        Examples
        --------
        >>> Shoe.decks(8).cards
        416
        """
        if isinstance(d, bool) or not isinstance(d, numbers.Integral) or d <= 0:
            raise ShoeError(f"decks must be a positive integer, got {d!r}")
        return cls(counts=(int(d),) * 52, resolution="suit", decks_label=int(d))

    @classmethod
    def infinite(cls) -> Shoe:
        """The infinite shoe: one deck dealt with replacement (Model A)."""
        return cls(counts=(1,) * 52, resolution="suit", replacement=True)

    @classmethod
    def from_ranks(cls, counts: Mapping[str | int, int] | Iterable[int]) -> Shoe:
        """A shoe from counts by rank: a mapping rank name -> count, or 13 counts A..K."""
        if isinstance(counts, Mapping):
            by_rank = [0] * 13
            named: dict[int, object] = {}
            for name, c in counts.items():
                r = rank_index(name)
                if r in named:
                    raise ShoeError(f"rank {RANKS[r]} is given twice (as {named[r]!r} and {name!r}): give each rank once")
                named[r] = name
                by_rank[r] = _check_count(f"count of rank {name}", c)
        else:
            by_rank = list(counts)
            if len(by_rank) != 13:
                raise ShoeError(f"counts by rank need 13 numbers (A, 2-9, 10, J, Q, K), got {len(by_rank)}")
        return cls(counts=tuple(by_rank), resolution="rank")

    @classmethod
    def from_values(cls, counts: Mapping[int, int] | Iterable[int]) -> Shoe:
        """A shoe from counts by value 0..9 (only bets on totals can then be priced)."""
        if isinstance(counts, Mapping):
            by_value = [0] * 10
            for v, c in counts.items():
                if isinstance(v, bool) or not isinstance(v, numbers.Integral) or not 0 <= v <= 9:  # type: ignore[operator]  # typeshed: numbers.Integral has no <=
                    raise ShoeError(f"card values are 0-9, got {v!r}")
                by_value[int(v)] += _check_count(f"count of value {v}", c)
        else:
            by_value = list(counts)
            if len(by_value) != 10:
                raise ShoeError(f"counts by value need 10 numbers (values 0-9), got {len(by_value)}")
        return cls(counts=tuple(by_value), resolution="value")

    @classmethod
    def from_cards(cls, counts: Mapping[tuple[str, str], int]) -> Shoe:
        """A shoe from counts by (rank, suit), e.g. ``{("A", "S"): 7, ...}``."""
        by_card = [0] * 52
        for (r, s), c in counts.items():
            by_card[rank_index(r) * 4 + suit_index(s)] += _check_count(f"count of {r}{s}", c)
        return cls(counts=tuple(by_card), resolution="suit")

    # ------------------------------------------------------------------ views
    def type_name(self, i: int) -> str:
        """Human name of card type ``i`` at this shoe's resolution."""
        if self.resolution == "suit":
            return RANKS[i // 4] + SUITS[i % 4]
        if self.resolution == "rank":
            return RANKS[i]
        return f"value {i}"

    @property
    def cards(self) -> int:
        """Number of cards in the shoe (for an infinite shoe: of the deck it repeats)."""
        return sum(self.counts)

    def type_values(self) -> np.ndarray:
        """Baccarat value of each card type (read-only)."""
        return type_tables(self.resolution)[0]

    def type_ranks(self) -> np.ndarray:
        """Rank index of each card type, -1 where unknown (a value shoe); read-only."""
        return type_tables(self.resolution)[1]

    def value_counts(self) -> tuple[int, ...]:
        """Counts by value 0..9."""
        if self.resolution == "value":
            return self.counts
        c = self.counts if self.resolution == "rank" else self.rank_counts()
        assert c is not None  # known by rank (or card)
        return (c[9] + c[10] + c[11] + c[12],) + c[:9]

    def by_value(self) -> Shoe:
        """The same cards known only by value: all that a bet on totals, winners or naturals needs.

        Returns
        -------
        Shoe
            A shoe of resolution ``"value"`` (this one if it is already), dealt the same way.
        """
        if self.resolution == "value":
            return self
        return Shoe(self.value_counts(), "value", self.replacement)

    def rank_counts(self) -> tuple[int, ...] | None:
        """Counts by rank A..K, or None for a shoe known only by value."""
        if self.resolution == "value":
            return None
        if self.resolution == "rank":
            return self.counts
        return tuple(sum(self.counts[4 * r : 4 * r + 4]) for r in range(13))

    def fresh_decks(self) -> int | None:
        """d if the shoe holds exactly the values of d fresh 52-card decks (dealt without replacement), else None.

        Games that depend only on card values (chemin de fer, banque) treat such a
        shoe as the d-deck shoe, whatever its resolution.

        Returns
        -------
        int or None
            The number of decks, or None.
        """
        if self.replacement:
            return None
        vc = self.value_counts()
        d = vc[1] // 4
        return d if d >= 1 and vc == (16 * d,) + (4 * d,) * 9 else None

    def deals(self) -> int:
        """Number of equally likely ordered deals of six cards: (N)_6, or N^6 with replacement."""
        n = self.cards
        return n**CARDS_PER_COUP if self.replacement else perm(n, CARDS_PER_COUP)

    # ------------------------------------------------------------------ changes
    def _type_of(self, rank: str | int, suit: str | None) -> list[int]:
        """Types matching a rank (and suit), in this shoe's resolution."""
        r = rank_index(rank)
        if self.resolution == "value":
            if suit is not None:
                raise ShoeError("this shoe is known only by value: cards cannot be named by suit")
            return [RANK_VALUE[r]]
        if self.resolution == "rank":
            if suit is not None:
                raise ShoeError("this shoe is known only by rank: cards cannot be named by suit")
            return [r]
        if suit is not None:
            return [4 * r + suit_index(suit)]
        return [4 * r + s for s in range(4)]

    def remove(self, rank: str | int, suit: str | None = None, n: int = 1) -> Shoe:
        """The shoe with ``n`` cards of ``rank`` (and ``suit``) taken out.

        Without a suit, in a shoe that knows suits, the card comes from the suit
        with the most cards of that rank (the first such suit on a tie).
        """
        n = _check_count("number of cards to remove", n)
        if self.replacement:
            raise ShoeError("cards cannot be removed from an infinite shoe (it is dealt with replacement)")
        counts = list(self.counts)
        for _ in range(n):
            types = self._type_of(rank, suit)
            t = max(types, key=lambda i: counts[i])
            if counts[t] == 0:
                raise ShoeError(f"cannot remove {self.type_name(t) if suit else RANKS[rank_index(rank)]}: none left in the shoe")
            counts[t] -= 1
        return Shoe(tuple(counts), self.resolution, False, None)

    def add(self, rank: str | int, suit: str | None = None, n: int = 1) -> Shoe:
        """The shoe with ``n`` cards of ``rank`` (and ``suit``) put in.

        Without a suit, in a shoe that knows suits, the card goes to the suit
        with the fewest cards of that rank (the first such suit on a tie).
        """
        n = _check_count("number of cards to add", n)
        if self.replacement:
            raise ShoeError("cards cannot be added to an infinite shoe (it is dealt with replacement)")
        counts = list(self.counts)
        for _ in range(n):
            types = self._type_of(rank, suit)
            t = min(types, key=lambda i: counts[i])
            counts[t] += 1
        return Shoe(tuple(counts), self.resolution, False, None)

    def remove_type(self, t: int) -> Shoe:
        """The shoe with one card of type ``t`` taken out."""
        if self.replacement:
            raise ShoeError("cards cannot be removed from an infinite shoe (it is dealt with replacement)")
        if self.counts[t] == 0:
            raise ShoeError(f"cannot remove {self.type_name(t)}: none left in the shoe")
        counts = list(self.counts)
        counts[t] -= 1
        return Shoe(tuple(counts), self.resolution, False, None)

    # ------------------------------------------------------------------ output
    def __repr__(self) -> str:
        """``Shoe.decks(8)``, ``Shoe.infinite()``; other shoes by their label and counts by rank (or value)."""
        if not self.replacement and self.resolution == "suit" and self.decks_label is not None \
                and all(c == self.decks_label for c in self.counts):
            return f"Shoe.decks({self.decks_label})"
        if self.replacement and self.resolution == "suit" and all(c == 1 for c in self.counts):
            return "Shoe.infinite()"
        ranks = self.rank_counts()
        if ranks is not None:
            by = "ranks " + " ".join(f"{RANKS[r]}={c}" for r, c in enumerate(ranks))
        else:
            by = "values " + " ".join(f"{v}={c}" for v, c in enumerate(self.counts))
        known = {"suit": "by card", "rank": "by rank", "value": "by value"}[self.resolution]
        return f"<Shoe: {self.label()}, known {known}; {by}>"

    def describe(self) -> dict:
        """A JSON-ready description of the shoe."""
        if self.replacement:
            kind = "infinite"
        elif self.decks_label is not None:
            kind = "decks"
        else:
            kind = "composition"
        out: dict = {"kind": kind, "resolution": self.resolution, "cards": self.cards}
        if kind == "decks":
            out["decks"] = self.decks_label
        ranks = self.rank_counts()
        if ranks is not None:
            out["ranks"] = {RANKS[r]: c for r, c in enumerate(ranks)}
        out["values"] = {str(v): c for v, c in enumerate(self.value_counts())}
        return out

    def label(self) -> str:
        """A short human label: '8 decks', 'infinite', '410 cards'."""
        if self.replacement:
            return "infinite shoe"
        if self.decks_label is not None:
            return f"{self.decks_label} deck{'s' if self.decks_label != 1 else ''}"
        return f"{self.cards}-card shoe"


# ---------------------------------------------------------------------- a game's shoe
#: Most cards in a shoe given by its composition (not as fresh decks): the games' exact
#: kernels keep 64-bit sums (chemin de fer: 4 N^6 < 2^63; banque: a hand's weight 8 N^6).
#: Fresh d-deck shoes of any size are given by d.
MAX_COMPOSITION_CARDS = 1000

#: How a game keys its shoe: d (fresh decks), None (infinite) or the 10 counts by value.
ShoeKey = int | None | tuple[int, ...]


def shoe_key(shoe: Shoe) -> ShoeKey:
    """A shoe as the games that see only card values key it.

    Parameters
    ----------
    shoe : Shoe
        Any shoe.

    Returns
    -------
    int, None or tuple
        None for the infinite shoe, d for a shoe holding exactly d fresh decks, else its
        10 counts by value.
    """
    if shoe.replacement:
        return None
    key = shoe.fresh_decks() or shoe.value_counts()
    if isinstance(key, tuple) and shoe.cards > MAX_COMPOSITION_CARDS:
        raise ShoeError(f"a composition of at most {MAX_COMPOSITION_CARDS} cards, got {shoe.cards} "
                        "(fresh shoes of any size: give the number of decks)")
    return key


def a_decks(decks: object) -> str:
    """``"a 6-deck"``, ``"an 8-deck"``: the article English reads before the number.

    Parameters
    ----------
    decks : int
        The number of decks.

    Returns
    -------
    str
        The article, the number and ``-deck``.
    """
    text = str(decks)
    spoken_vowel = text.startswith("8") or (len(text) % 3 == 2 and text[:2] in ("11", "18"))
    return f"{'an' if spoken_vowel else 'a'} {text}-deck"


def shoe_label(decks: int | None | tuple[int, ...]) -> str:
    """``'6 decks'``, ``'infinite shoe'``, ``'300-card shoe'`` for a game's shoe key."""
    return shoe_text(shoe_json(decks))


def shoe_text(shoe: dict) -> str:
    """The label of a shoe given as :func:`shoe_json` writes it (the reports read it from the JSON)."""
    if shoe["kind"] == "infinite":
        return "infinite shoe"
    if shoe["kind"] == "decks":
        return f"{shoe['decks']} deck{'s' if shoe['decks'] != 1 else ''}"
    return f"{shoe['cards']}-card shoe"


def decks_json(decks: int | None | tuple[int, ...]) -> int | str | None:
    """The JSON ``"decks"`` of a game's shoe.

    Parameters
    ----------
    decks : int, None or tuple of int
        d fresh decks, None for the infinite shoe, or a composition (counts by value).

    Returns
    -------
    int, str or None
        d, ``"inf"``, or null for a composition (the document's ``"shoe"`` says which cards).
    """
    return "inf" if decks is None else None if isinstance(decks, tuple) else decks


def shoe_json(decks: int | None | tuple[int, ...]) -> dict:
    """The game's shoe for JSON: ``{"kind": "decks" | "infinite" | "composition", ...}``."""
    if decks is None:
        return {"kind": "infinite"}
    if isinstance(decks, tuple):
        return {"kind": "composition", "cards": sum(decks), "values": {str(v): c for v, c in enumerate(decks)}}
    return {"kind": "decks", "decks": decks, "cards": 52 * decks}
