"""Every coup's exact prices: each bet's EV given the cards seen before it, and given its first card's class.

The cards seen before coup k of a shoe are the burn's face-up card and every card of
coups 1..k-1; the face-down burns are unseen, and being a random part of the unseen
cards they change no expectation.  So a player who knows everything seen prices coup
k on the shoe's d decks less those cards: the exact engine's
:func:`~baccara.punto.exact.evaluate` (the same as ``baccara edge --composition``),
run once per coup for all the log's bets at once (:func:`~baccara.punto.exact.edges_for_shoes`
for bets on values, microseconds a coup).

Given the class of the coup's first card (a sorted back, or the rank seen), the
engine deals the coup with Player's first card restricted
(:class:`~baccara.punto.known.Known`, position 1, as the edge-sort engine
:mod:`baccara.punto.edgesort` does).  It is priced once per coup and per value the
first card can have (per rank when a bet looks at ranks); the EV given any class S is
then the mixture, exactly

    EV(b | first in S) = sum over r in S of n_r EV(b | first = r) / sum over r in S of n_r,

with n_r the cards of rank r left, so every candidate sorting costs no further pricing.
Everything is computed once per coup and shared by every player and permutation.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np

from ..cards import RANK_VALUE
from ..errors import BaccaraError
from ..punto.bets import Bet
from ..punto.edgesort import best_sorting
from ..punto.events import CELL_SHAPE
from ..punto.exact import edges_for_shoes, evaluate
from ..punto.known import Known
from ..rules import PUNTO_BANCO, Tableau
from ..shoe import Shoe
from .logs import HandLog

#: Resolutions from the coarsest.
_ORDER = ("value", "rank", "suit")


def _pair_class(a: int, b: int) -> int:
    if a == b:
        return 2
    return 1 if a // 4 == b // 4 else 0


def coup_cell(cards: tuple[int, ...], tableau: Tableau = PUNTO_BANCO) -> int:
    """The flat cell (:data:`baccara.punto.events.CELL_SHAPE`) a logged coup ended in.

    Parameters
    ----------
    cards : tuple of int
        The coup's card codes in deal order (checked against the drawing table).
    tableau : Tableau
        The drawing rules (they tell whose is a lone third card).

    Returns
    -------
    int
        The flat index of (Player's pair class, Banker's, Player's total, drew, Banker's total, drew).
    """
    v = [RANK_VALUE[c // 4] for c in cards]
    pt, bt = (v[0] + v[2]) % 10, (v[1] + v[3]) % 10
    pn = bn = 0
    rest = v[4:]
    if len(rest) == 2:
        pt, bt, pn, bn = (pt + rest[0]) % 10, (bt + rest[1]) % 10, 1, 1
    elif len(rest) == 1:  # one third card: Player's if his two cards make him draw
        if tableau.player_draws[pt]:
            pt, pn = (pt + rest[0]) % 10, 1
        else:
            bt, bn = (bt + rest[0]) % 10, 1
    idx = (_pair_class(cards[0], cards[2]), _pair_class(cards[1], cards[3]), pt, pn, bt, bn)
    return int(np.ravel_multi_index(idx, CELL_SHAPE))


def _shoe(counts52: np.ndarray, resolution: str) -> Shoe:
    if resolution == "suit":
        return Shoe(tuple(int(x) for x in counts52), "suit")
    ranks = counts52.reshape(13, 4).sum(axis=1)
    if resolution == "rank":
        return Shoe(tuple(int(x) for x in ranks), "rank")
    values = [0] * 10
    for r in range(13):
        values[RANK_VALUE[r]] += int(ranks[r])
    return Shoe(tuple(values), "value")


@dataclass(frozen=True, eq=False)
class CoupTable:
    """The log's coups, one row each, with every bet's prices.

    Attributes
    ----------
    bets : tuple of str
        The bets priced (the columns).
    shoe : numpy.ndarray
        Row -> index of its shoe in the hand log.
    number : numpy.ndarray
        Row -> the coup's number in its shoe.
    index : dict
        (shoe name, coup number) -> row.
    left : numpy.ndarray
        (rows, 52): the cards left before the coup, seen from the table (d decks less the
        burn's face-up card and the earlier coups).
    first_rank : numpy.ndarray
        Row -> rank index of the coup's first card.
    classes : numpy.ndarray
        Row -> ``"S"``, ``"U"`` or ``""`` (first_class as logged).
    ev : numpy.ndarray
        (rows, bets): EV per unit given the cards left (floats).
    ev_exact : list of list of Fraction
        The same, exactly.
    payout : numpy.ndarray
        (rows, bets): the net result per unit the coup paid (floats).
    payout_exact : list of list of Fraction
        The same, exactly.
    fresh : dict
        Bet -> its exact EV on a fresh shoe (no information).
    unit_ev : numpy.ndarray or None
        (rows, units, bets): EV given the first card's value (13 ranks when a bet looks
        at ranks), NaN where none is left; None until :meth:`with_first_cards`.
    """

    bets: tuple[str, ...]
    shoe: np.ndarray
    number: np.ndarray
    index: dict[tuple[str, int], int]
    left: np.ndarray
    first_rank: np.ndarray
    classes: np.ndarray
    ev: np.ndarray
    ev_exact: list[list[Fraction]]
    payout: np.ndarray
    payout_exact: list[list[Fraction]]
    fresh: dict[str, Fraction]
    unit_ev: np.ndarray | None = None
    by_rank: bool = False

    @property
    def rows(self) -> int:
        """The number of coups."""
        return len(self.number)

    def rank_left(self) -> np.ndarray:
        """(rows, 13): cards of each rank left before each coup.

        Returns
        -------
        numpy.ndarray
            Counts.
        """
        return self.left.reshape(-1, 13, 4).sum(axis=2)

    def class_ev(self, ranks: frozenset[int], recorded: bool = False) -> np.ndarray:
        """EV of every bet given the class of each coup's first card under the sorting ``ranks`` | rest.

        Parameters
        ----------
        ranks : frozenset of int
            The sorted class (rank indices); the other class is the rest.
        recorded : bool
            Take each coup's class from ``first_class`` as logged (coups without one are
            priced given the cards left only), instead of from the first card's rank.

        Returns
        -------
        numpy.ndarray
            (rows, bets) floats.
        """
        if self.unit_ev is None:
            raise BaccaraError("the first cards' prices were not computed (CoupTable.with_first_cards)")
        n = self.rank_left().astype(float)
        member = np.array([r in ranks for r in range(13)])
        if recorded:
            in_s = self.classes == "S"
            known = self.classes != ""
        else:
            in_s = member[self.first_rank]
            known = np.ones(self.rows, dtype=bool)
        cls = np.where(in_s[:, None], member[None, :], ~member[None, :])  # (rows, 13): ranks of the coup's class
        w = n * cls
        if self.by_rank:
            per_rank = self.unit_ev
        else:
            per_rank = self.unit_ev[:, [RANK_VALUE[r] for r in range(13)], :]
        per_rank = np.nan_to_num(per_rank)
        tot = w.sum(axis=1)
        safe = np.where(tot > 0, tot, 1.0)
        out = np.einsum("ru,rub->rb", w, per_rank) / safe[:, None]
        keep = known & (tot > 0)
        return np.where(keep[:, None], out, self.ev)

    def class_ev_direct(self, ranks: frozenset[int], bets: Mapping[str, Bet], tableau: Tableau = PUNTO_BANCO,
                        recorded: bool = False) -> np.ndarray:
        """:meth:`class_ev` priced class by class: two conditioned prices a coup (cheaper than every value's
        when few sortings are tested).

        Parameters
        ----------
        ranks : frozenset of int
            The sorted class.
        bets : mapping of str to Bet
            The bets, by name (those of :attr:`bets`).
        tableau : Tableau
            The drawing rules.
        recorded : bool
            Take each coup's class from ``first_class`` as logged.

        Returns
        -------
        numpy.ndarray
            (rows, bets) floats, the same prices as :meth:`class_ev`.
        """
        cols = _cell_columns(bets, self.bets)
        out = self.ev.copy()
        if not cols:
            return out
        chosen = tuple(bets[self.bets[j]] for j in cols)
        res = max((b.resolution for b in chosen), key=_ORDER.index)
        if res == "value" and any(RANK_VALUE[r] == 0 for r in ranks) and not all(
                r in ranks for r in range(9, 13)):
            res = "rank"  # the class splits the cards of value 0: price by rank
        member = np.array([r in ranks for r in range(13)])
        left_ranks = self.rank_left()
        for i in range(self.rows):
            if recorded:
                if not self.classes[i]:
                    continue
                in_s = self.classes[i] == "S"
            else:
                in_s = bool(member[self.first_rank[i]])
            cls = ranks if in_s else frozenset(range(13)) - ranks
            if not any(left_ranks[i, r] for r in cls):
                continue
            out[i, cols] = _class_prices(self.left[i].tobytes(), res, chosen, tableau, frozenset(cls))
        return out

    def with_first_cards(self, bets: Mapping[str, Bet], tableau: Tableau = PUNTO_BANCO) -> CoupTable:
        """This table with :attr:`unit_ev` filled: every coup priced given its first card's value (or rank).

        Parameters
        ----------
        bets : mapping of str to Bet
            The bets, by name (those of :attr:`bets`).
        tableau : Tableau
            The drawing rules.

        Returns
        -------
        CoupTable
            A new table.
        """
        if self.unit_ev is not None:
            return self
        cols = _cell_columns(bets, self.bets)
        chosen = [bets[self.bets[j]] for j in cols]
        res = max((b.resolution for b in chosen), key=_ORDER.index, default="value")
        by_rank = res != "value"
        shoe_res = "value" if not by_rank else res
        units = 13 if by_rank else 10
        # a bet on the cards themselves is priced given the cards left only: its EV at every first card
        out = np.repeat(self.ev[:, None, :], units, axis=1)
        for i in range(self.rows):
            if cols:
                out[i][:, cols] = _first_card_prices(self.left[i].tobytes(), shoe_res, tuple(chosen), tableau)
        return CoupTable(self.bets, self.shoe, self.number, self.index, self.left, self.first_rank, self.classes,
                         self.ev, self.ev_exact, self.payout, self.payout_exact, self.fresh, out, by_rank)


def _cell_columns(bets: Mapping[str, Bet], names: tuple[str, ...]) -> list[int]:
    """The columns of bets on the coup's outcome (the cells), which the first card's class is priced for."""
    return [j for j, n in enumerate(names) if not bets[n].card_level]


def card_payouts(cards: Iterable[tuple[int, ...]], bets: Iterable[Bet], tableau: Tableau = PUNTO_BANCO
                 ) -> list[list[Fraction]]:
    """What bets on the cards themselves paid on logged coups: each bet's first rule that the cards meet.

    The rules are read as the simulator reads a dealt coup's cards (the card-level engine's compiled
    :func:`~baccara.punto.cardengine.rule_program`), so a log is settled as the engine prices it.

    Parameters
    ----------
    cards : iterable of tuple of int
        Each coup's card codes (``4 * rank + suit``) in deal order, checked against the drawing table.
    bets : iterable of Bet
        Bets on the cards themselves (:attr:`~baccara.punto.bets.Bet.card_level`).
    tableau : Tableau
        The drawing rules (they tell whose is a lone third card).

    Returns
    -------
    list of list of Fraction
        Per coup, each bet's net payout per unit.
    """
    from ..punto.cardengine import code_attributes, compiled, rule_program  # lazy: Numba, for card bets only

    chosen = tuple(bets)
    prog = rule_program(chosen)
    flat = [p for lv in prog.levels for p in lv]
    engine = compiled()
    v, r, s, col = code_attributes()
    fv = np.zeros(prog.arrays[0].size, dtype=np.int64)
    out = []
    for c in cards:
        cell = np.unravel_index(coup_cell(c, tableau), CELL_SHAPE)
        pn, bn = int(cell[3]), int(cell[5])
        e = c[4] if pn else -1
        f = c[4 + pn] if bn else -1
        pt, bt = (RANK_VALUE[c[0] // 4] + RANK_VALUE[c[2] // 4]) % 10, (RANK_VALUE[c[1] // 4] + RANK_VALUE[c[3] // 4]) % 10
        engine.coup_codes(c[0], c[2], e, c[1], c[3], f, pt, bt, v, r, s, col, *prog.arrays[:5], fv)
        out.append([flat[engine.bet_level(k, fv, *prog.arrays[5:])] for k in range(len(chosen))])
    return out


@lru_cache(maxsize=65536)
def _first_card_prices(left: bytes, resolution: str, bets: tuple[Bet, ...], tableau: Tableau) -> np.ndarray:
    """(units, bets): each bet's EV given the first card's value (rank unless ``resolution`` is value), NaN where
    no such card is left; cached, so that audits of overlapping logs price a coup once."""
    counts = np.frombuffer(left, dtype=np.int64)
    ranks_left = counts.reshape(13, 4).sum(axis=1)
    groups = [frozenset({r}) for r in range(13)] if resolution != "value" else \
        [frozenset(r for r in range(13) if RANK_VALUE[r] == v) for v in range(10)]
    shoe = _shoe(counts, resolution)
    out = np.full((len(groups), len(bets)), np.nan)
    for u, g in enumerate(groups):
        if not any(ranks_left[r] for r in g):
            continue
        got = evaluate(shoe, bets, tableau, Known((g,) + (None,) * 5, "first card"))
        out[u] = [float(got[b.name].ev) for b in bets]
    return out


@lru_cache(maxsize=65536)
def _class_prices(left: bytes, resolution: str, bets: tuple[Bet, ...], tableau: Tableau,
                  cls: frozenset[int]) -> np.ndarray:
    """(bets,): each bet's EV given that the first card's rank is in ``cls``; cached."""
    shoe = _shoe(np.frombuffer(left, dtype=np.int64), resolution)
    got = evaluate(shoe, bets, tableau, Known((cls,) + (None,) * 5, "first card"))
    return np.array([float(got[b.name].ev) for b in bets])


def coup_table(hands: HandLog, bets: Mapping[str, Bet], names: Iterable[str],
               tableau: Tableau = PUNTO_BANCO, card_shoes: Iterable[str] | None = None) -> CoupTable:
    """Price every coup of the hand log for the bets ``names``, given the cards seen before it.

    Bets on the cards themselves (:attr:`~baccara.punto.bets.Bet.card_level`) are priced by the
    card-level engine, a tenth of a second or more a coup: only at the coups of ``card_shoes``
    (the shoes where such bets were placed, which are all the tests read: bets are reassigned
    within their shoe); elsewhere their price is 0 and never read.

    Parameters
    ----------
    hands : HandLog
        The hands.
    bets : mapping of str to Bet
        The bets the house offers, by name.
    names : iterable of str
        The bets to price (those the bet log holds).
    tableau : Tableau
        The drawing rules.
    card_shoes : iterable of str, optional
        The shoes at whose coups bets on the cards are priced (default: every shoe).

    Returns
    -------
    CoupTable
        One row per coup.
    """
    names = tuple(dict.fromkeys(names))
    chosen = [bets[n] for n in names]
    full = np.full(52, hands.decks, dtype=np.int64)
    shoe_i: list[int] = []
    number: list[int] = []
    left: list[np.ndarray] = []
    first: list[int] = []
    classes: list[str] = []
    cells: list[int] = []
    index: dict[tuple[str, int], int] = {}
    for si, s in enumerate(hands.shoes):
        cur = full.copy()
        if s.shown_burn is not None:
            cur[s.shown_burn] -= 1
        for c in s.coups:
            index[(s.shoe, c.number)] = len(number)
            shoe_i.append(si)
            number.append(c.number)
            left.append(cur.copy())
            first.append(c.cards[0] // 4)
            classes.append(c.first_class or "")
            cells.append(coup_cell(c.cards, tableau))
            for x in c.cards:
                cur[x] -= 1
    left_a = np.array(left, dtype=np.int64).reshape(-1, 52)
    rows = len(number)
    ev = np.zeros((rows, len(chosen)))
    ev_exact: list[list[Fraction]] = [[Fraction(0)] * len(chosen) for _ in range(rows)]
    card_cols = [j for j, b in enumerate(chosen) if b.card_level]
    value_cols = [j for j, b in enumerate(chosen) if b.resolution == "value" and not b.card_level]
    if value_cols and rows:
        edges = edges_for_shoes(left_a, [chosen[j] for j in value_cols], tableau)
        for j in value_cols:
            for i in range(rows):
                ev_exact[i][j] = edges.fraction(i, chosen[j].name)
                ev[i, j] = float(ev_exact[i][j])
    other = [j for j in range(len(chosen)) if j not in value_cols and j not in card_cols]
    if other:
        res = max((chosen[j].resolution for j in other), key=_ORDER.index)
        for i in range(rows):
            got = evaluate(_shoe(left_a[i], res), [chosen[j] for j in other], tableau)
            for j in other:
                ev_exact[i][j] = got[chosen[j].name].ev
                ev[i, j] = float(ev_exact[i][j])
    if card_cols and rows:
        on_cards = [chosen[j] for j in card_cols]
        res = max((b.resolution for b in on_cards), key=_ORDER.index)
        wanted = None if card_shoes is None else set(card_shoes)
        for i in range(rows):
            if wanted is not None and hands.shoes[shoe_i[i]].shoe not in wanted:
                continue
            got = evaluate(_shoe(left_a[i], res), on_cards, tableau)
            for j in card_cols:
                ev_exact[i][j] = got[chosen[j].name].ev
                ev[i, j] = float(ev_exact[i][j])
    payout_exact = [[Fraction(0)] * len(chosen) for _ in range(rows)]
    for j, b in enumerate(chosen):
        if b.card_level:
            continue
        levels, idx = b.cell_levels()
        for i in range(rows):
            payout_exact[i][j] = levels[int(idx[cells[i]])]
    if card_cols and rows:
        dealt = [c.cards for s in hands.shoes for c in s.coups]
        paid = card_payouts(dealt, [chosen[j] for j in card_cols], tableau)
        for i in range(rows):
            for k, j in enumerate(card_cols):
                payout_exact[i][j] = paid[i][k]
    payout = np.array([[float(x) for x in row] for row in payout_exact]).reshape(rows, len(chosen))
    fresh = _fresh(hands.decks, tuple(chosen), tableau) if chosen else {}
    return CoupTable(names, np.array(shoe_i, dtype=np.int64), np.array(number, dtype=np.int64), index, left_a,
                     np.array(first, dtype=np.int64), np.array(classes, dtype=object), ev, ev_exact, payout,
                     payout_exact, fresh)


@lru_cache(maxsize=32)
def _fresh(decks: int, bets: tuple[Bet, ...], tableau: Tableau) -> dict[str, Fraction]:
    got = evaluate(Shoe.decks(decks), list(bets), tableau)
    return {b.name: got[b.name].ev for b in bets}


@lru_cache(maxsize=32)
def candidate_sortings(decks: int, bets: tuple[Bet, ...], tableau: Tableau = PUNTO_BANCO,
                       top: int = 8) -> tuple[tuple[frozenset[int], Fraction], ...]:
    """The sortings worth making, as the edge-sort engine ranks them: the ``top`` with a positive advantage.

    Sortings are by value (511), one card read (the first card of the coup, as the
    hand log's ``first_class`` records it), the player betting the best of ``bets``
    (and Player or Banker) when its EV is positive (:func:`baccara.punto.edgesort.best_sorting`
    on a fresh shoe).

    Parameters
    ----------
    decks : int
        Decks per shoe.
    bets : tuple of Bet
        The bets the player may choose among.
    tableau : Tableau
        The drawing rules.
    top : int
        At most this many sortings.

    Returns
    -------
    tuple
        (sorted ranks, advantage per coup), best first.
    """
    if top <= 0:
        return ()
    value_bets = {b.name: b for b in bets if b.resolution == "value" and not b.card_level}
    search = best_sorting(Shoe.decks(decks).by_value(), 1, "value", value_bets or None, tableau, top=top)
    return tuple((s, a) for s, a, _ in search.ranking[:top] if a > 0)
