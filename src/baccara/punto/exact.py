"""The exact engine: the joint distribution of a coup, and every bet's odds.

Mathematics
-----------
A coup uses at most six cards: Player's two, Banker's two, then a third card
to Player and/or Banker (the punto banco tableau).  Dealt without replacement from N cards,
every ordered six-card deal has probability 1/(N)_6; with replacement,
1/N^6.  The engine counts, for every *cell* of :mod:`baccara.punto.events`, the
ordered deals that end there, as exact integers.

The count factorises.  Write n_v for the number of cards of value v.  For
first four cards of values (a, b, c, d) the number of ordered deals of the
remaining two cards that continue a coup is a product of the counts left,
(n_e - [removed]) (n_f - [removed]), which depends only on values; only the
pair classes of the two-card hands need card types (rank, suit), and these are
coupled to the values only when Player's and Banker's first cards share a
value (tables ``ps``, ``b1``, ``b2`` of :mod:`baccara.punto.kernel`).  Summing over
unordered two-card hands with multiplicity 2 for distinct values, the kernel
visits 55 x 55 first-four-card classes and at most 100 continuations each.

Known cards (:mod:`baccara.punto.known`): to count only the deals whose card at
each position lies in a given set of ranks, the kernel deals *labels* instead
of values — each value split by which positions allow it — and weighs each
unordered first-four class by the orders of its hands that the condition
allows; the fifth and sixth cards are restricted in the continuations.
Without a condition the labels are the values and nothing changes.

Bets that do not look at pairs need only the ten counts by value and the
cells (final total, cards) of each hand: the value-level kernel
(:func:`value_cell_counts`) counts them from the 55 x 55 value-pair classes
alone, in microseconds; :func:`evaluate` takes it for such bets whatever the
shoe's resolution, and :func:`edges_for_shoes` prices many shoes in one loop.

Counts fit 64-bit integers while 4 N^6 < 2^63 (N <= 1146 cards, 22 decks);
larger shoes run the same kernels in pure Python on Python integers, exactly.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache
from math import lcm, perm, sqrt
from typing import Any

import numpy as np

from ..cards import RANKS
from ..errors import BetError, ShoeError
from ..rules import PUNTO_BANCO, Tableau
from ..shoe import CARDS_PER_COUP, Shoe
from . import cardengine
from . import kernel as _kernel
from .bets import Bet, builtin_bets
from .events import CELL_SHAPE, FIELDS, NCELLS, condition_mask, normalize_condition, resolution_at_least
from .known import POSITION_NAMES, Known, labelling

_INT64_LIMIT = 2**63 - 1

#: Distributions a process counts with the kernels' pure-Python form before it loads the compiled ones (unless
#: Numba is loaded already): one 8-deck distribution takes tens of milliseconds in Python, while importing Numba
#: and loading compiled code take several times that, which only later distributions repay.  Both give the same
#: integers.
PURE_FIRST = 1
_pure_counted = 0


def _numba_loaded() -> bool:
    return "numba" in sys.modules


def _compiled(fits: bool) -> Any:
    """The compiled kernels for an int64 count (``fits``), or None to count it in pure Python instead."""
    global _pure_counted
    if not fits:
        return None
    if _pure_counted < PURE_FIRST and not _numba_loaded():
        _pure_counted += 1
        return None
    return _kernel.compiled()


def _fits_int64(shoe: Shoe) -> bool:
    return 4 * shoe.cards**6 < _INT64_LIMIT


def coup_counts(shoe: Shoe, tableau: Tableau = PUNTO_BANCO, known: Known | Mapping | str | None = None) -> np.ndarray:
    """Ordered-deal counts of every cell (shape CELL_SHAPE).

    Parameters
    ----------
    shoe : Shoe
        What is dealt.
    tableau : Tableau
        The drawing rules.
    known : Known, mapping or str, optional
        What is known of the coup's cards (:class:`baccara.punto.known.Known`, or
        what :meth:`Known.coerce` reads: ``{1: "9"}``, ``"1 in 6,7,8,9"``):
        only the deals that agree are counted.

    Returns
    -------
    numpy.ndarray
        int64 when the shoe is small enough, otherwise an object array of
        Python ints.  Without a condition the counts sum to ``shoe.deals()``;
        with one, to the deals that agree with it (possibly 0).

        A shoe known only by value knows no pairs: without a condition its
        counts are all in pair class (0, 0), computed by the value-level
        kernel (:func:`value_cell_counts`).
    """
    cond = Known.coerce(known)
    lab = labelling(shoe.resolution, cond)
    fits = _fits_int64(shoe)
    if shoe.resolution == "value" and cond is None:
        out = np.zeros(CELL_SHAPE, dtype=np.int64) if fits else _object_zeros(CELL_SHAPE)
        out[0, 0] = value_cell_counts(shoe, tableau)
        return out
    kernels = _compiled(fits)
    fast = kernels is not None
    dtype = np.int64 if fast else object
    ns: Any = kernels if fast else _Namespace(_kernel.PURE_PYTHON)
    cnt = np.array(shoe.counts, dtype=dtype)
    nl = lab.label_values.size
    if cond is None:
        vc = np.array(shoe.value_counts(), dtype=dtype)
        pairs, npairs = _kernel.PAIRS, _kernel.NPAIRS
    else:
        vc = _object_zeros((nl,)) if not fast else np.zeros(nl, dtype=np.int64)
        for t, c in enumerate(shoe.counts):
            vc[lab.type_label[t]] += c
        pairs, npairs = _label_pairs(tuple(int(v) for v in lab.label_values))
    tr = shoe.type_ranks()
    zero = (lambda *shape: np.zeros(shape, dtype=np.int64)) if fast else (lambda *shape: _object_zeros(shape))
    ps, b1, b2 = zero(nl, 3), zero(nl, 3), zero(nl, 3, 3)
    ns.pair_tables(cnt, lab.type_label, tr, shoe.replacement, zero(13), zero(3), ps, b1, b2)
    pmult, bmult = (lab.pmult, lab.bmult) if fast else (lab.pmult.astype(object), lab.bmult.astype(object))
    out = zero(*CELL_SHAPE)
    ns.coup_kernel(
        vc, lab.label_values, shoe.cards if fast else int(shoe.cards), shoe.replacement,
        tableau.player_array, tableau.banker_array, ps, b1, b2,
        zero(3, 3), zero(3, 3), zero(3, 3, nl), zero(3, 3, nl, nl), np.zeros((3, 3), dtype=np.bool_),
        pairs, npairs, pmult, bmult, lab.allow[4], lab.allow[5], lab.free56, out,
    )
    if shoe.resolution == "value":  # no pairs by value: one pair class, as the value-level kernel gives
        folded = zero(*CELL_SHAPE)
        folded[0, 0] = out.sum(axis=(0, 1))
        out = folded
    return out.astype(np.int64) if fits and not fast else out


@lru_cache(maxsize=64)
def _label_pairs(label_values: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    pairs, npairs = _kernel.pairs_by_total(label_values)
    pairs.flags.writeable = False
    npairs.flags.writeable = False
    return pairs, npairs


#: Shape of the value-level cells: (player total, player cards - 2, banker total, banker cards - 2).
VALUE_CELL_SHAPE = CELL_SHAPE[2:]


def value_cell_counts(shoe: Shoe, tableau: Tableau = PUNTO_BANCO) -> np.ndarray:
    """Ordered-deal counts of every outcome by value: each hand's final total and number of cards.

    Everything but pairs depends only on the ten value counts; this is the engine's
    value-level kernel (:func:`baccara.punto.kernel.value_kernel`), a few microseconds a shoe.

    Parameters
    ----------
    shoe : Shoe
        Any shoe (only its counts by value are read).
    tableau : Tableau
        The drawing rules.

    Returns
    -------
    numpy.ndarray
        Shape :data:`VALUE_CELL_SHAPE` ``(10, 2, 10, 2)``, summing to ``shoe.deals()``: int64 when the
        shoe is small enough (up to 22 decks), otherwise an object array of Python ints.
    """
    fits = _fits_int64(shoe)
    kernels = _compiled(fits)
    if kernels is not None:
        out = np.empty(VALUE_CELL_SHAPE, dtype=np.int64)
        kernels.value_cells(np.array(shoe.value_counts(), dtype=np.int64), shoe.cards, shoe.replacement,
                            tableau.player_array, tableau.banker_array, out)
        return out
    out = _value_cells_python(shoe, tableau)
    return out.astype(np.int64) if fits else out


def _value_cells_python(shoe: Shoe, tableau: Tableau) -> np.ndarray:
    """:func:`value_cell_counts` by the value kernel in pure Python, on Python integers (an object array)."""
    out = _object_zeros(VALUE_CELL_SHAPE)
    _kernel.PURE_PYTHON["value_kernel"](np.array(shoe.value_counts(), dtype=object), int(shoe.cards), shoe.replacement,
                                        tableau.player_array, tableau.banker_array, *_kernel.value_buffers(object), out)
    return out


class _Namespace:
    def __init__(self, d: dict) -> None:
        self.__dict__.update(d)


def _object_zeros(shape: tuple[int, ...]) -> np.ndarray:
    a = np.empty(shape, dtype=object)
    a.fill(0)
    return a


@dataclass(frozen=True, eq=False)
class CoupDistribution:
    """The exact joint distribution of a coup's outcome for one shoe and tableau.

    ``counts[cell]`` ordered deals out of ``deals`` end in ``cell``
    (:data:`baccara.punto.events.CELL_SHAPE`).  Probabilities are exact Fractions.
    With ``known`` (what is known of the coup's cards), ``deals`` counts the
    ordered deals that agree with it, and every probability is conditional on it.
    """

    shoe: Shoe
    counts: np.ndarray
    deals: int
    tableau: Tableau = PUNTO_BANCO
    known: Known | None = None

    @cached_property
    def flat(self) -> np.ndarray:
        return self.counts.reshape(NCELLS)

    def check_fields(self, fields: Iterable[str]) -> None:
        """Raise unless this shoe's resolution determines every field."""
        for f in fields:
            need = FIELDS[f][2]
            if not resolution_at_least(self.shoe.resolution, need):
                raise BetError(
                    f"{f} needs a shoe known by {need}; this shoe is known only by {self.shoe.resolution}"
                )

    def count(self, **when: object) -> int:
        """Ordered deals in which every condition holds, e.g. ``count(winner="tie")``."""
        self.check_fields(when)
        cond = tuple(sorted((f, normalize_condition(f, v)) for f, v in when.items()))
        return int(self.flat[condition_mask(cond)].sum())

    def probability(self, **when: object) -> Fraction:
        """Exact probability that every condition holds, e.g. ``probability(winner="banker", banker_total=6)``."""
        return Fraction(self.count(**when), self.deals)

    def outcomes(self) -> dict[str, Fraction]:
        """P(Banker wins), P(Player wins), P(tie)."""
        return {w: self.probability(winner=w) for w in ("banker", "player", "tie")}


def coup_distribution(shoe: Shoe, tableau: Tableau = PUNTO_BANCO,
                      known: Known | Mapping | str | None = None) -> CoupDistribution:
    """The exact joint distribution of a coup dealt from ``shoe`` under ``tableau``.

    Parameters
    ----------
    shoe : Shoe
        What is dealt.
    tableau : Tableau
        The drawing rules.
    known : Known, mapping or str, optional
        What is known of the coup's cards (``{1: "9"}``, ``"1 in 6,7,8,9"``;
        see :mod:`baccara.punto.known`): the distribution is conditional on it.

    Returns
    -------
    CoupDistribution
        The distribution.

    Raises
    ------
    BaccaraError
        When no deal of the shoe agrees with ``known`` (the message names the
        position whose cards the shoe lacks).
    """
    cond = Known.coerce(known)
    if cond is None:
        return CoupDistribution(shoe, coup_counts(shoe, tableau), shoe.deals(), tableau)
    cond.check(shoe)
    counts = coup_counts(shoe, tableau, cond)
    deals = int(counts.sum())
    if deals == 0:
        where = ", ".join(f"{p} ({POSITION_NAMES[p]})" for p in cond.positions)
        raise ShoeError(f"{cond.name}: the shoe cannot deal these cards together ({cond.describe()}: positions "
                        f"{where}); it holds too few of them")
    return CoupDistribution(shoe, counts, deals, tableau, cond)


@dataclass(frozen=True, eq=False)
class BetResult:
    """A bet's exact outcome distribution for one shoe.

    ``payouts[i]`` (net per unit staked) happens in ``counts[i]`` of ``deals``
    ordered deals; ``ev`` is sum payouts[i] counts[i] / deals.
    """

    bet: Bet
    payouts: tuple[Fraction, ...]
    counts: tuple[int, ...]
    deals: int
    ev: Fraction

    @property
    def name(self) -> str:
        return self.bet.name

    @property
    def edge(self) -> Fraction:
        """House edge per unit staked: -EV (positive favours the house)."""
        return -self.ev

    def __repr__(self) -> str:
        return (f"<BetResult {self.name}: house edge {float(self.edge):.4%} (= {self.edge}), "
                f"win {float(self.p_win):.4%}, push {float(self.p_push):.4%}, loss {float(self.p_loss):.4%}>")

    @cached_property
    def probabilities(self) -> dict[Fraction, Fraction]:
        """Probability of each net payout."""
        return {p: Fraction(c, self.deals) for p, c in zip(self.payouts, self.counts) if c}

    def _prob(self, keep) -> Fraction:
        return Fraction(sum(c for p, c in zip(self.payouts, self.counts) if keep(p)), self.deals)

    @property
    def p_win(self) -> Fraction:
        return self._prob(lambda p: p > 0)

    @property
    def p_push(self) -> Fraction:
        return self._prob(lambda p: p == 0)

    @property
    def p_loss(self) -> Fraction:
        return self._prob(lambda p: p < 0)

    @cached_property
    def variance(self) -> Fraction:
        """Variance of the net result per unit staked."""
        second = sum((p * p * c for p, c in zip(self.payouts, self.counts)), Fraction(0)) / self.deals
        return second - self.ev * self.ev

    @property
    def sd(self) -> float:
        """Standard deviation of the net result per unit staked."""
        return sqrt(self.variance)


@dataclass(frozen=True, eq=False)
class _BetBook:
    """Bets compiled against the cells, for evaluating many shoes.

    Cells on which every bet pays the same are summed first (``order``,
    ``starts``: a permutation of the cells and the start of each group),
    then one 0/1 matrix maps group totals to each (bet, payout) level.
    ``numerators[i] / denominators[i]`` are bet i's payouts over a common
    denominator, so expected values are computed in integers.  A book
    ``by_value`` covers the value cells only (:data:`VALUE_CELL_SHAPE`: bets
    that do not look at pairs).
    """

    bets: tuple[Bet, ...]
    order: np.ndarray
    starts: np.ndarray
    matrix: np.ndarray
    levels: tuple[tuple[Fraction, ...], ...]
    numerators: tuple[tuple[int, ...], ...]
    denominators: tuple[int, ...]

    @cached_property
    def payouts(self) -> tuple[np.ndarray, np.ndarray | None, int]:
        """pay[level, bet]: the level's payout times the bet's denominator in the bet's column, 0
        elsewhere (Python ints, and int64 when they fit); and the largest in size."""
        pay = np.zeros((self.matrix.shape[0], len(self.bets)), dtype=object)
        i = 0
        for b, nums in enumerate(self.numerators):
            pay[i : i + len(nums), b] = nums
            i += len(nums)
        biggest = max((abs(int(x)) for x in pay.flat), default=0)
        return pay, pay.astype(np.int64) if biggest < _INT64_LIMIT else None, biggest


@lru_cache(maxsize=64)
def _bet_book(bets: tuple[Bet, ...], by_value: bool = False) -> _BetBook:
    idx = np.array([b.cell_levels()[1] for b in bets], dtype=np.int64).reshape(len(bets), NCELLS)
    if by_value:
        idx = idx.reshape(len(bets), *CELL_SHAPE)[:, 0, 0].reshape(len(bets), -1)
    _, group = np.unique(idx.T, axis=0, return_inverse=True)
    group = group.reshape(idx.shape[1])
    order = np.argsort(group, kind="stable").astype(np.int64)
    starts = np.flatnonzero(np.r_[True, np.diff(group[order]) != 0, True]).astype(np.int64)
    first_cell = order[starts[:-1]]
    rows, levels, nums, dens = [], [], [], []
    for b, lv_idx in zip(bets, idx):
        lv = b.cell_levels()[0]
        levels.append(lv)
        den = lcm(*(p.denominator for p in lv))
        dens.append(den)
        nums.append(tuple(int(p * den) for p in lv))
        for i in range(len(lv)):
            rows.append(lv_idx[first_cell] == i)
    return _BetBook(bets, order, starts, np.array(rows, dtype=np.int64), tuple(levels), tuple(nums), tuple(dens))


def _level_counts(flat: np.ndarray, book: _BetBook) -> list[int]:
    """Ordered deals paying each level of the book's bets, from the cells' counts."""
    grouped = np.add.reduceat(flat[book.order], book.starts[:-1])
    matrix = book.matrix if flat.dtype != object else book.matrix.astype(object)
    return [int(x) for x in matrix @ grouped]


def _bet_results(book: _BetBook, counts: list[int], deals: int) -> dict[str, BetResult]:
    out, i = {}, 0
    for bet, lv, nums, den in zip(book.bets, book.levels, book.numerators, book.denominators):
        c = tuple(counts[i : i + len(lv)])
        ev = Fraction(sum(n * k for n, k in zip(nums, c)), den * deals)
        out[bet.name] = BetResult(bet, lv, c, deals, ev)
        i += len(lv)
    return out


def evaluate_bets(dist: CoupDistribution, bets: Iterable[Bet]) -> dict[str, BetResult]:
    """Every bet's exact result for one coup distribution.

    Bets on the cards themselves (:attr:`Bet.card_level`) are not functions of the distribution's
    cells: they are priced by the card-level engine on the distribution's shoe, tableau and known
    cards (:mod:`baccara.punto.cardengine`).
    """
    bets = tuple(bets)
    for b in bets:
        if not resolution_at_least(dist.shoe.resolution, b.resolution):
            raise BetError(
                f"bet {b.name!r} needs a shoe known by {b.resolution}; this shoe is known only by {dist.shoe.resolution}"
            )
    cards = tuple(b for b in bets if b.card_level)
    if not cards:
        return _bet_results(_bet_book(bets), _level_counts(dist.flat, _bet_book(bets)), dist.deals)
    cells = tuple(b for b in bets if not b.card_level)
    out = _bet_results(_bet_book(cells), _level_counts(dist.flat, _bet_book(cells)), dist.deals) if cells else {}
    priced = card_results(dist.shoe, cards, dist.tableau, dist.known)
    if any(r.deals != dist.deals for r in priced.values()):  # both engines count the deals that agree
        raise AssertionError(f"the card-level engine counts {next(iter(priced.values())).deals} deals agreeing with "
                             f"{dist.known.describe() if dist.known else 'nothing'}, the cell engine {dist.deals}")
    out.update(priced)
    return {b.name: out[b.name] for b in bets}


def card_results(shoe: Shoe, bets: Iterable[Bet], tableau: Tableau = PUNTO_BANCO,
                 known: Known | None = None) -> dict[str, BetResult]:
    """Exact results of bets on the cards themselves, by the card-level engine.

    Bets are dealt together when they need the same labels, so a bet on values never waits for one
    on suits.

    Parameters
    ----------
    shoe : Shoe
        What is dealt.
    bets : iterable of Bet
        The bets (any bets; those on cells alone are priced the same way, more slowly than
        :func:`evaluate` would).
    tableau : Tableau
        The drawing rules.
    known : Known, optional
        What is known of the coup's cards: only the deals that agree are counted (the results'
        ``deals``).

    Returns
    -------
    dict
        Bet name -> :class:`BetResult`.
    """
    groups: dict[cardengine.Labelling, list[Bet]] = {}
    for b in bets:
        groups.setdefault(cardengine.bet_labelling(b), []).append(b)
    cond = None if known is None or known.empty else known
    if cond is not None:
        cond.check(shoe)
    out: dict[str, BetResult] = {}
    for group in groups.values():
        for b, (levels, counts) in zip(group, cardengine.level_counts(shoe, tuple(group), tableau, cond)):
            deals = shoe.deals() if cond is None else sum(counts)
            if deals == 0:
                raise ShoeError(f"{cond.name if cond else 'known'}: the shoe cannot deal these cards together "
                                f"({cond.describe() if cond else ''})")
            ev = Fraction(sum(p * c for p, c in zip(levels, counts)), deals)
            out[b.name] = BetResult(b, levels, tuple(counts), deals, ev)
    return out


def _value_levels(values: np.ndarray, cards: np.ndarray, replacement: bool, tableau: Tableau,
                  book: _BetBook) -> np.ndarray:
    """Ordered deals paying each level of a value book's bets, one row per shoe (counts by value):
    the value-level kernel and the book in compiled code (int64), or exactly in Python for shoes too
    large for it."""
    top = int(cards.max()) if cards.size else 0
    fits = 4 * top**CARDS_PER_COUP < _INT64_LIMIT
    kernels = (_kernel.compiled() if len(values) > 1 else _compiled(True)) if fits else None
    if kernels is not None:
        lev = np.zeros((len(values), book.matrix.shape[0]), dtype=np.int64)
        kernels.value_levels_kernel(np.asarray(values, dtype=np.int64), np.asarray(cards, dtype=np.int64), replacement,
                                    tableau.player_array, tableau.banker_array, book.order, book.starts,
                                    book.matrix, lev)
        return lev
    lev = np.empty((len(values), book.matrix.shape[0]), dtype=object)
    for i, row in enumerate(values):
        flat = _value_cells_python(Shoe(tuple(int(x) for x in row), "value", replacement), tableau).reshape(-1)
        lev[i] = _level_counts(flat, book)
    return lev.astype(np.int64) if fits else lev


def applicable_bets(shoe: Shoe, bets: Mapping[str, Bet]) -> dict[str, Bet]:
    """The bets that ``shoe``'s resolution can price."""
    return {n: b for n, b in bets.items() if resolution_at_least(shoe.resolution, b.resolution)}


def coerce_bets(bets: Mapping[str, Bet] | Iterable[Bet | str] | Bet | str) -> tuple[Bet, ...]:
    """Bets given as :class:`Bet` objects, a mapping of them, or names of built-in bets.

    Parameters
    ----------
    bets : Bet, str, mapping or iterable
        A bet, a name (``"banker"``) or comma-separated names (``"banker,tie"``), a mapping
        name -> Bet, or an iterable of bets and names.

    Returns
    -------
    tuple of Bet
        The bets, names resolved to the built-in bets at the house's default terms.

    Raises
    ------
    BetError
        An unknown name, or something that is neither a bet nor a name.
    """
    if isinstance(bets, Bet):
        return (bets,)
    if isinstance(bets, str):
        bets = [n for n in bets.replace(" ", "").split(",") if n]
    items = list(bets.values() if isinstance(bets, Mapping) else bets)
    if all(isinstance(b, Bet) for b in items):
        return tuple(items)  # the common case: Bet objects, checked when they were made
    named = builtin_bets()
    out = []
    for b in items:
        if isinstance(b, str):
            if b.strip().lower() not in named:
                raise BetError(f"bets: unknown bet {b!r}; the built-in bets are {', '.join(named)} "
                               f"(or pass Bet objects)")
            out.append(named[b.strip().lower()])
        elif isinstance(b, Bet):
            out.append(b)
        else:
            raise BetError(f"bets must be Bet objects or names of built-in bets ({', '.join(named)}), "
                           f"got {type(b).__name__} {b!r}")
    return tuple(out)


def coerce_bet(bet: Bet | str) -> Bet:
    """One bet: a :class:`Bet`, or the name of a built-in bet.

    Parameters
    ----------
    bet : Bet or str
        The bet or its name.

    Returns
    -------
    Bet
        The bet.

    Raises
    ------
    BetError
        An unknown name, several names, or something that is not a bet.
    """
    bets = coerce_bets(bet)
    if len(bets) != 1:
        raise BetError(f"bet: one bet is wanted here, got {len(bets)} ({bet!r})")
    return bets[0]


def evaluate(
    shoe: Shoe,
    bets: Mapping[str, Bet] | Iterable[Bet | str] | Bet | str | None = None,
    tableau: Tableau = PUNTO_BANCO,
    known: Known | Mapping | str | None = None,
) -> dict[str, BetResult]:
    """Exact results of ``bets`` for ``shoe``, given what is known of the coup's cards.

    Bets that depend only on card values (no pairs) are priced, when nothing
    is known of the coup's cards, on the shoe's value counts by the
    value-level kernel, whatever the shoe's resolution: the same exact
    counts, in a few microseconds.

    Parameters
    ----------
    shoe : Shoe
        What is dealt.
    bets : Bet, str, mapping or iterable, optional
        The bets: :class:`Bet` objects or names of built-in bets (``["banker", "tie"]``,
        ``"banker,tie"``); default every built-in bet the shoe can price.
    tableau : Tableau
        The drawing rules.
    known : Known, mapping or str, optional
        What is known of the coup's cards (``{1: "9"}``, ``"1 in 6,7,8,9"``).

    Returns
    -------
    dict
        Bet name -> :class:`BetResult`.
    """
    if bets is None:
        bets = applicable_bets(shoe, builtin_bets())
    bets = coerce_bets(bets)
    cond = Known.coerce(known)
    if any(b.card_level for b in bets):
        if cond is None and all(b.card_level for b in bets):
            return _checked_card_results(shoe, bets, tableau)
        return evaluate_bets(coup_distribution(shoe, tableau, cond), bets)
    if cond is None and bets and all(b.resolution == "value" for b in bets):
        book = _bet_book(bets, True)
        lev = _value_levels(np.array([shoe.value_counts()], dtype=np.int64 if _fits_int64(shoe) else object),
                            np.array([shoe.cards]), shoe.replacement, tableau, book)
        return _bet_results(book, [int(x) for x in lev[0].tolist()], shoe.deals())
    return evaluate_bets(coup_distribution(shoe, tableau, cond), bets)


def _checked_card_results(shoe: Shoe, bets: tuple[Bet, ...], tableau: Tableau) -> dict[str, BetResult]:
    for b in bets:
        if not resolution_at_least(shoe.resolution, b.resolution):
            raise BetError(f"bet {b.name!r} needs a shoe known by {b.resolution}; this shoe is known only by "
                           f"{shoe.resolution}")
    return card_results(shoe, bets, tableau)


def edge(shoe: Shoe, bet: Bet | str, tableau: Tableau = PUNTO_BANCO) -> Fraction:
    """House edge of one bet for one shoe.

    Parameters
    ----------
    shoe : Shoe
        What is dealt.
    bet : Bet or str
        The bet, or the name of a built-in bet.
    tableau : Tableau
        The drawing rules.

    Returns
    -------
    Fraction
        The house edge, minus the expected value per unit staked.
    """
    b = coerce_bet(bet)
    return evaluate(shoe, [b], tableau)[b.name].edge


# ---------------------------------------------------------------- many shoes at once
@dataclass(frozen=True, eq=False)
class ShoeEdges:
    """Exact expected values of value-level bets on many shoes, kept as integers.

    The expected value of bet ``b`` on shoe ``i`` is
    ``numerators[i, b] / (denominators[b] * deals[i])`` exactly: ``numerators`` sums the
    bet's payouts, over their common denominator, times the ordered deals of each outcome.
    """

    names: tuple[str, ...]
    numerators: np.ndarray
    denominators: tuple[int, ...]
    deals: np.ndarray

    @property
    def ev(self) -> np.ndarray:
        """Expected values per unit staked, as floats, shape (shoes, bets)."""
        num = np.asarray(self.numerators)
        den = np.outer(np.asarray(self.deals, dtype=float), np.asarray(self.denominators, dtype=float))
        if num.dtype == object:
            return np.array([[float(self.fraction(i, n)) for n in self.names] for i in range(num.shape[0])])
        return num / den

    @property
    def edge(self) -> np.ndarray:
        """House edges (-EV), as floats, shape (shoes, bets)."""
        return -self.ev

    @property
    def positive(self) -> np.ndarray:
        """Where the bet favours the player (EV > 0), decided exactly; shape (shoes, bets)."""
        return np.asarray(self.numerators > 0, dtype=np.bool_)

    def fraction(self, shoe: int, name: str) -> Fraction:
        """The exact expected value of bet ``name`` on shoe number ``shoe``.

        Parameters
        ----------
        shoe : int
            Row of the counts given to :func:`edges_for_shoes`.
        name : str
            The bet.

        Returns
        -------
        Fraction
            Its expected value per unit staked.
        """
        b = self.names.index(name)
        return Fraction(int(self.numerators[shoe, b]), self.denominators[b] * int(self.deals[shoe]))


def _values_of(counts: Any) -> np.ndarray:
    """Counts by value, (shoes, 10), from counts by value, rank (A..K) or card (52, rank-major)."""
    a = np.asarray(counts)
    if a.ndim == 1:
        a = a[None, :]
    if a.ndim != 2 or a.shape[1] not in (10, 13, 52):
        raise ShoeError(f"counts must be an array of shape (shoes, 10), (shoes, 13) or (shoes, 52): counts by "
                        f"value 0-9, rank A-K or card, got shape {np.shape(counts)}")
    whole = np.issubdtype(a.dtype, np.integer) or (a.dtype == object and all(isinstance(x, int) for x in a.flat))
    if not whole or (a.size and np.any(a < 0)):
        raise ShoeError("counts must be non-negative integers")
    if a.shape[1] == 52:
        a = a.reshape(a.shape[0], 13, 4).sum(axis=2)
    if a.shape[1] == 13:
        a = np.concatenate([a[:, 9:].sum(axis=1, keepdims=True), a[:, :9]], axis=1)
    return a


def edges_for_shoes(counts: Any, bets: Mapping[str, Bet] | Iterable[Bet], tableau: Tableau = PUNTO_BANCO, *,
                    replacement: bool = False) -> ShoeEdges:
    """Exact expected values of value-level bets for many shoes at once (a perfect counter's question).

    Every shoe runs the value-level kernel and each bet's payouts are summed over its
    outcomes, all in compiled code, so a depleted 8-deck shoe takes microseconds;
    the results are exact integers, equal to :func:`evaluate`'s.

    Parameters
    ----------
    counts : array_like
        One shoe per row: 10 counts by value 0-9, 13 by rank A-K, or 52 by card
        (``4 * rank + suit``); a single row may be given flat.
    bets : mapping or iterable of Bet
        Bets that depend only on card values (winner, totals, naturals, cards dealt).
    tableau : Tableau
        The drawing rules.
    replacement : bool
        Deal with replacement (each row an infinite shoe's proportions).

    Returns
    -------
    ShoeEdges
        ``numerators``, ``denominators`` and ``deals`` (exact), with ``ev``, ``edge``
        (floats) and ``positive`` (exact signs).

    Raises
    ------
    BetError
        A bet that needs ranks or suits (price it with :func:`evaluate`).
    ShoeError
        Counts of the wrong shape, negative, or a shoe too small to deal a coup.
    """
    bets = tuple(bets.values() if isinstance(bets, Mapping) else bets)
    for b in bets:
        if b.card_level:
            raise BetError(f"bet {b.name!r} reads the cards themselves ({', '.join(b.card_fields)}): "
                           f"edges_for_shoes prices bets on the cells of a coup; use evaluate() for it")
        if b.resolution != "value":
            raise BetError(f"bet {b.name!r} needs a shoe known by {b.resolution}: edges_for_shoes prices bets on "
                           f"card values only; use evaluate() for it")
    values = _values_of(counts)
    cards = values.sum(axis=1) if values.size else np.zeros(0, dtype=np.int64)
    least = 1 if replacement else CARDS_PER_COUP
    if np.any(cards < least):
        raise ShoeError(f"every shoe needs at least {least} cards to deal a coup; row {int(np.argmax(cards < least))} "
                        f"has {int(cards[np.argmax(cards < least)])}")
    book = _bet_book(bets, True)
    pay, pay64, biggest = book.payouts
    lev = _value_levels(values, cards, replacement, tableau, book)
    top = int(cards.max()) if cards.size else 0
    deals_top = top**CARDS_PER_COUP if replacement else perm(top, CARDS_PER_COUP)
    if lev.dtype == np.int64 and pay64 is not None and biggest * deals_top < _INT64_LIMIT:
        num = lev @ pay64
        n64 = cards.astype(np.int64)
        deals = n64**CARDS_PER_COUP if replacement else np.prod([n64 - k for k in range(CARDS_PER_COUP)], axis=0)
    else:
        num = lev.astype(object) @ pay
        deals = np.array([n**CARDS_PER_COUP if replacement else perm(n, CARDS_PER_COUP) for n in map(int, cards)],
                         dtype=object)
    return ShoeEdges(tuple(b.name for b in bets), num, book.denominators, deals)


# ---------------------------------------------------------------- effects of removal
@dataclass(frozen=True)
class RemovalEffect:
    """The change in a bet's edge when one card of ``rank`` leaves the shoe."""

    rank: str
    cards_left: int
    edge_after: Fraction | None
    effect: Fraction | None


def effects_of_removal(shoe: Shoe, bet: Bet, tableau: Tableau = PUNTO_BANCO) -> tuple[Fraction, list[RemovalEffect]]:
    """The bet's edge and, for each rank (each value for a shoe known by value),
    the exact change in edge when one card of it is removed.

    For a shoe known by suit and a bet that depends on suits, the effect of a
    rank is the average over the suits it can be removed from, weighted by
    the cards of each suit (the effect of removing a random card of that rank).
    """
    if shoe.replacement:
        raise ShoeError("effects of removal need a finite shoe; an infinite shoe is dealt with replacement")
    base = edge(shoe, bet, tableau)
    if shoe.resolution == "suit":
        labels, of_rank = list(RANKS), [list(range(4 * r, 4 * r + 4)) for r in range(13)]
    else:
        labels = list(RANKS) if shoe.resolution == "rank" else [str(v) for v in range(10)]
        of_rank = [[t] for t in range(len(labels))]
    out = []
    for label, types in zip(labels, of_rank):
        left = sum(shoe.counts[t] for t in types)
        live = [t for t in types if shoe.counts[t] > 0]
        if not live or shoe.cards - 1 < CARDS_PER_COUP:
            out.append(RemovalEffect(label, left, None, None))
            continue
        if bet.resolution != "suit":  # every card of the rank has the same effect
            live = [max(live, key=lambda t: shoe.counts[t])]
        total = sum(shoe.counts[t] for t in live)
        after = sum(
            (Fraction(shoe.counts[t], total) * edge(shoe.remove_type(t), bet, tableau) for t in live), Fraction(0)
        )
        out.append(RemovalEffect(label, left, after, after - base))
    return base, out

