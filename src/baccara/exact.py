"""The exact engine: the joint distribution of a coup, and every bet's odds.

Mathematics
-----------
A coup uses at most six cards: Player's two, Banker's two, then a third card
to Player and/or Banker (the punto banco tableau).  Dealt without replacement from N cards,
every ordered six-card deal has probability 1/(N)_6; with replacement,
1/N^6.  The engine counts, for every *cell* of :mod:`baccara.events`, the
ordered deals that end there, as exact integers.

The count factorises.  Write n_v for the number of cards of value v.  For
first four cards of values (a, b, c, d) the number of ordered deals of the
remaining two cards that continue a coup is a product of the counts left,
(n_e - [removed]) (n_f - [removed]), which depends only on values; only the
pair classes of the two-card hands need card types (rank, suit), and these are
coupled to the values only when Player's and Banker's first cards share a
value (tables ``ps``, ``b1``, ``b2`` of :mod:`baccara._kernel`).  Summing over
unordered two-card hands with multiplicity 2 for distinct values, the kernel
visits 55 x 55 first-four-card classes and at most 100 continuations each.

Known cards (:mod:`baccara.known`): to count only the deals whose card at
each position lies in a given set of ranks, the kernel deals *labels* instead
of values — each value split by which positions allow it — and weighs each
unordered first-four class by the orders of its hands that the condition
allows; the fifth and sixth cards are restricted in the continuations.
Without a condition the labels are the values and nothing changes.

Counts fit 64-bit integers while 4 N^6 < 2^63 (N <= 1146 cards, 22 decks);
larger shoes run the same kernel in pure Python on Python integers, exactly.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache
from math import lcm, sqrt
from typing import Any

import numpy as np

from . import _kernel
from .bets import Bet, builtin_bets
from .cards import RANKS
from .errors import BetError, ShoeError
from .events import CELL_SHAPE, FIELDS, NCELLS, condition_mask, normalize_condition, resolution_at_least
from .known import POSITION_NAMES, Known, labelling
from .rules import PUNTO_BANCO, Tableau
from .shoe import CARDS_PER_COUP, Shoe

_INT64_LIMIT = 2**63 - 1


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
        What is known of the coup's cards (:class:`baccara.known.Known`, or
        what :meth:`Known.coerce` reads: ``{1: "9"}``, ``"1 in 6,7,8,9"``):
        only the deals that agree are counted.

    Returns
    -------
    numpy.ndarray
        int64 when the shoe is small enough, otherwise an object array of
        Python ints.  Without a condition the counts sum to ``shoe.deals()``;
        with one, to the deals that agree with it (possibly 0).
    """
    cond = Known.coerce(known)
    lab = labelling(shoe.resolution, cond)
    fast = _fits_int64(shoe)
    dtype = np.int64 if fast else object
    ns: Any = _kernel if fast else _Namespace(_kernel.PURE_PYTHON)
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
    return out


@lru_cache(maxsize=64)
def _label_pairs(label_values: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    pairs, npairs = _kernel.pairs_by_total(label_values)
    pairs.flags.writeable = False
    npairs.flags.writeable = False
    return pairs, npairs


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
    (:data:`baccara.events.CELL_SHAPE`).  Probabilities are exact Fractions.
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
        see :mod:`baccara.known`): the distribution is conditional on it.

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
    denominator, so expected values are computed in integers.
    """

    bets: tuple[Bet, ...]
    order: np.ndarray
    starts: np.ndarray
    matrix: np.ndarray
    levels: tuple[tuple[Fraction, ...], ...]
    numerators: tuple[tuple[int, ...], ...]
    denominators: tuple[int, ...]


@lru_cache(maxsize=64)
def _bet_book(bets: tuple[Bet, ...]) -> _BetBook:
    idx = np.array([b.cell_levels()[1] for b in bets], dtype=np.int64).reshape(len(bets), NCELLS)
    _, group = np.unique(idx.T, axis=0, return_inverse=True)
    group = group.reshape(NCELLS)
    order = np.argsort(group, kind="stable")
    starts = np.flatnonzero(np.r_[True, np.diff(group[order]) != 0])
    first_cell = order[starts]
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


def evaluate_bets(dist: CoupDistribution, bets: Iterable[Bet]) -> dict[str, BetResult]:
    """Every bet's exact result for one coup distribution."""
    bets = tuple(bets)
    for b in bets:
        if not resolution_at_least(dist.shoe.resolution, b.resolution):
            raise BetError(
                f"bet {b.name!r} needs a shoe known by {b.resolution}; this shoe is known only by {dist.shoe.resolution}"
            )
    book = _bet_book(bets)
    flat = dist.flat
    grouped = np.add.reduceat(flat[book.order], book.starts)
    matrix = book.matrix if flat.dtype != object else book.matrix.astype(object)
    counts = [int(x) for x in matrix @ grouped]
    out, i = {}, 0
    for bet, lv, nums, den in zip(bets, book.levels, book.numerators, book.denominators):
        c = tuple(counts[i : i + len(lv)])
        ev = Fraction(sum(n * k for n, k in zip(nums, c)), den * dist.deals)
        out[bet.name] = BetResult(bet, lv, c, dist.deals, ev)
        i += len(lv)
    return out


def applicable_bets(shoe: Shoe, bets: Mapping[str, Bet]) -> dict[str, Bet]:
    """The bets that ``shoe``'s resolution can price."""
    return {n: b for n, b in bets.items() if resolution_at_least(shoe.resolution, b.resolution)}


def evaluate(
    shoe: Shoe,
    bets: Mapping[str, Bet] | Iterable[Bet] | None = None,
    tableau: Tableau = PUNTO_BANCO,
    known: Known | Mapping | str | None = None,
) -> dict[str, BetResult]:
    """Exact results of ``bets`` for ``shoe``, given what is known of the coup's cards.

    Parameters
    ----------
    shoe : Shoe
        What is dealt.
    bets : mapping or iterable of Bet, optional
        The bets (default: every built-in bet the shoe can price).
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
    if isinstance(bets, Mapping):
        bets = bets.values()
    return evaluate_bets(coup_distribution(shoe, tableau, known), bets)


def edge(shoe: Shoe, bet: Bet, tableau: Tableau = PUNTO_BANCO) -> Fraction:
    """House edge of one bet for one shoe."""
    return evaluate(shoe, [bet], tableau)[bet.name].edge


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

