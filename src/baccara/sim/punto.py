"""Punto banco simulated on real shoes: every bet of the exact engine, counting, the perfect counter.

Each bet (built-in or user-defined, :mod:`baccara.punto.bets`) is a payout table
over the cells of a coup (:data:`baccara.punto.events.CELL_SHAPE`):
``Bet.cell_levels()`` gives its payouts, and multiplying them by their least
common denominator turns every payout into an integer, so a simulation's
totals are exact integers and add up the same in any order.  A bet on the
cards themselves (``player_card3_value``, ``colour``: ``baccara fields``) is no
function of the cell: its rules go to the kernel as a rule program of the
card-level engine (:func:`card_table`), which reads every coup's actual cards.

Bettors:

* **flat**: every listed bet on every coup;
* **counter**: a :class:`~baccara.sim.counting.CountSystem` decides, coup by
  coup, which side bets to place;
* **perfect counter**: before a coup (or every k-th coup) the exact engine
  prices each bet on the cards not yet seen (the shoe less the face-up burn
  card and the cards dealt; the face-down burns are unknown to him) and he
  bets exactly when the expectation is positive (exactly 0: no bet).  Bets on
  card values are dealt and priced in one compiled loop that releases the GIL
  (:mod:`baccara.sim._perfect_kernel`: the value-level engine's counts as
  exact 64-bit integers, a few microseconds a coup, on every thread); pair
  bets (ranks) are priced from Python one depleted shoe at a time (~0.3 ms
  each), one process per core.

Every simulated frequency can be held against the exact engine's value for a
coup dealt from the full shoe (``exact`` in the result).  With ``deal="csm"``
(a continuous shuffler: each coup from the full shoe) or an infinite shoe the
two agree exactly in expectation; dealing real shoes to the cut card, the
coups after the first are dealt from depleted shoes and the average differs
by the small "cut-card effect", far below the standard errors of practical
runs.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from math import lcm

import numpy as np

from ..algebraic import fraction_str
from ..errors import BaccaraError, ParameterError
from ..punto.bets import Bet
from ..punto.cardengine import bet_labelling, rule_program
from ..punto.events import NCELLS, resolution_at_least
from ..punto.exact import VALUE_CELL_SHAPE, coup_distribution, edges_for_shoes, evaluate_bets
from ..rules import PUNTO_BANCO, Tableau
from ..shoe import Shoe
from . import _punto_kernel as K
from .counting import CountSystem
from .distributed import fold_chunks, run
from .gpu import GpuLayout, pairs_of
from .limits import DEFAULT_CUT, MAX_COUPS, MAX_DECKS, MAX_SHOES, gpu_perfect_refusal, min_cut, perfect_fits_int64
from .report import SimResult, punto_report
from .results import ChunkResult, Estimate, column_sums, fnum, in_blocks, mean, ratio, sums_from_fold
from .shoe_deal import CUT, DEAL_MODES, VALUE, deck_template, max_coups_cut, record_shoe

#: The value cells (pair classes (0, 0)) at the head of the cells of :data:`baccara.punto.events.CELL_SHAPE`.
VALUE_CELLS = int(np.prod(VALUE_CELL_SHAPE))

DEFAULT_COUPS = 80
MAX_SEED = 2**63 - 1
#: The most bets one punto banco run tracks (three integer columns each per shoe).
MAX_BETS = 64
#: Payouts times their denominator must stay below this, so that a shoe's totals fit in int64.
MAX_SCALED_PAYOUT = 2**40


def check_seed(seed: int) -> int:
    """Validate a seed: an integer from 0 to 2^63 - 1.

    Parameters
    ----------
    seed : int
        The seed.

    Returns
    -------
    int
        ``seed``; :class:`BaccaraError` naming ``--seed`` otherwise.
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise ParameterError(f"--seed must be an integer from 0 to 2^63 - 1, got {seed!r}")
    return seed


def check_shoes(shoes: int, what: str = "--shoes") -> int:
    """Validate a number of shoes: an integer from 1 to :data:`~baccara.sim.limits.MAX_SHOES`.

    Parameters
    ----------
    shoes : int
        The number of shoes (sessions).
    what : str
        The option named in errors.

    Returns
    -------
    int
        ``shoes``; :class:`BaccaraError` otherwise.
    """
    if isinstance(shoes, bool) or not isinstance(shoes, int) or not 1 <= shoes <= MAX_SHOES:
        raise ParameterError(f"{what} must be an integer from 1 to 10^15, got {shoes!r}")
    return shoes


def check_deal(decks: int | None, deal: str, cut: int, coups: int, max_cards: int = 6) -> str:
    """Validate the shoe: decks (None: infinite), deal mode, cut-card depth, coups per shoe.

    ``max_cards``: the most cards one coup can take (6; 9 in banque).  The cut
    card is followed by one more coup, so ``cut`` must be at least
    :func:`~baccara.sim.shoe_deal.min_cut` ``(max_cards)`` = ``2 * max_cards - 1``
    (11; 17 in banque) for the shoe never to run out, and at most the shoe's
    cards less 11 (the burn can take 11 cards)."""
    if deal not in DEAL_MODES:
        raise ParameterError(f"--deal must be one of {', '.join(DEAL_MODES)}, got {deal!r}")
    if decks is None:
        deal = "infinite"
    elif isinstance(decks, bool) or not isinstance(decks, int) or not 1 <= decks <= MAX_DECKS:
        raise ParameterError(f"--decks must be an integer from 1 to {MAX_DECKS:,} (the most a simulated shoe "
                           f"holds) or 'inf', got {decks!r}")
    elif deal == "infinite":
        raise ParameterError("--deal infinite needs --decks inf")
    if deal == "cut":
        assert decks is not None  # None made deal "infinite" above
        n = 52 * decks
        least = min_cut(max_cards)
        if isinstance(cut, bool) or not isinstance(cut, int) or cut < least or cut > n - 11:
            raise ParameterError(
                f"--cut (cards behind the cut card) must be an integer from {least} (one more coup follows the "
                f"one in which the cut card appears, and a coup takes up to {max_cards} cards) "
                f"to {n - 11} (the burn can take 11 cards) for {decks} deck{'s' if decks > 1 else ''}, got {cut!r}")
    elif isinstance(coups, bool) or not isinstance(coups, int) or not 1 <= coups <= MAX_COUPS:
        raise ParameterError(f"--coups (coups per shoe without a cut card) must be an integer from 1 to "
                           f"{MAX_COUPS:,}, got {coups!r}")
    return deal


def max_coups(decks: int | None, deal: str, cut: int, coups: int) -> int:
    """An upper bound on the coups of one shoe (for record buffers).

    To the cut card, every coup but the last starts before position
    ``52 * decks - cut`` and takes at least 4 cards after a burn of at least
    2, and one more coup follows: at most ``(52 * decks - cut + 1) // 4 + 1``."""
    if deal == "cut":
        assert decks is not None  # check_deal: the cut card needs a finite shoe
        return int(max_coups_cut(52 * decks, cut))
    return coups


def _payouts(b: Bet) -> tuple[Fraction, ...]:
    """The bet's distinct payouts."""
    if b.card_level:
        return tuple(dict.fromkeys([r.pays for r in b.rules] + [b.otherwise]))
    return b.cell_levels()[0]


@lru_cache(maxsize=64)
def bet_table(bets: tuple[Bet, ...]) -> tuple[np.ndarray, tuple[int, ...]]:
    """pay[cell, b] = bet b's net payout times its denominator; and the denominators.

    A bet on the cards themselves has a column of zeros here (no cell determines it; its payouts are
    :func:`card_table`'s).  Raises :class:`BaccaraError` for a bet whose payouts, over their common
    denominator, do not fit the simulation's integers (below 2^40)."""
    cols, dens = [], []
    for b in bets:
        levels = _payouts(b)
        den = lcm(*(p.denominator for p in levels))
        scaled = [p * den for p in levels]
        if den > MAX_SCALED_PAYOUT or any(abs(x) > MAX_SCALED_PAYOUT for x in scaled):
            shown = ", ".join(sorted({str(p) if len(str(p)) <= 24 else f"{float(p):.3g}" for p in levels}))
            raise ParameterError(f"--bets: bet {b.name!r} pays {shown}: "
                               f"to simulate it, its payouts times their common denominator ({den}) must stay below "
                               f"2^40 (about 1.1e12)")
        if b.card_level:
            cols.append(np.zeros(NCELLS, dtype=np.int64))
        else:
            cols.append(np.array([int(x) for x in scaled], dtype=np.int64)[b.cell_levels()[1]])
        dens.append(den)
    pay = np.ascontiguousarray(np.array(cols, dtype=np.int64).reshape(len(bets), NCELLS).T)
    pay.flags.writeable = False
    return pay, tuple(dens)


@lru_cache(maxsize=64)
def card_table(bets: tuple[Bet, ...]) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, ...]]:
    """The bets on the cards themselves as the kernel reads them: ``card[b]`` (bet b's index in the rule
    program, -1 for a bet on the cells), ``cpay[b, level]`` (its payout at each level of the program, times
    its denominator) and the program's arrays (:func:`baccara.punto.cardengine.rule_program`).

    Parameters
    ----------
    bets : tuple of Bet
        The bets of a run.

    Returns
    -------
    tuple
        ``(card, cpay, program arrays)``; with no bet on the cards, ``card`` is all -1 and the program empty.
    """
    on_cards = tuple(b for b in bets if b.card_level)
    prog = rule_program(on_cards)
    _, dens = bet_table(bets)
    card = np.full(len(bets), -1, dtype=np.int64)
    cpay = np.zeros((len(bets), max(1, sum(len(lv) for lv in prog.levels))), dtype=np.int64)
    k = 0
    for b, (bet, den) in enumerate(zip(bets, dens)):
        if bet.card_level:
            card[b] = k
            base = sum(len(lv) for lv in prog.levels[:k])
            for j, p in enumerate(prog.levels[k]):
                cpay[b, base + j] = int(p * den)
            k += 1
    for a in (card, cpay, *prog.arrays):
        a.flags.writeable = False
    return card, cpay, prog.arrays


@dataclass(frozen=True)
class PuntoJob:
    """A punto banco simulation: what to deal, which bets, how to bet; small and picklable."""

    seed: int
    shoes: int
    decks: int | None = 8
    bets: tuple[Bet, ...] = ()
    deal: str = "cut"
    cut: int = DEFAULT_CUT
    coups: int = DEFAULT_COUPS
    tableau: Tableau = PUNTO_BANCO
    count: CountSystem | None = None
    perfect: bool = False
    perfect_every: int = 1
    chunk_size: int = 4096
    keep_rows: bool = False

    def __post_init__(self) -> None:
        check_seed(self.seed)
        check_shoes(self.shoes)
        object.__setattr__(self, "deal", check_deal(self.decks, self.deal, self.cut, self.coups))
        if not self.bets:
            raise ParameterError("--bets: give at least one bet")
        if len(self.bets) > MAX_BETS:
            raise ParameterError(f"--bets: at most {MAX_BETS} bets in one run, got {len(self.bets)}")
        names = [b.name for b in self.bets]
        dup = {n for n in names if names.count(n) > 1}
        if dup:
            raise ParameterError(f"--bets: {', '.join(sorted(dup))} listed twice")
        if self.count is not None:
            if self.perfect:
                raise ParameterError("choose a count system (--count) or the perfect counter (--perfect), not both")
            if self.deal != "cut":
                raise ParameterError("--count needs a real shoe dealt to the cut card (a count means nothing "
                                   "when every coup comes from a full or infinite shoe)")
            for r in self.count.rules:
                if r.bet not in names:
                    raise ParameterError(f"--count: the count bets on {r.bet!r}, which is not among the bets "
                                       f"({', '.join(names)})")
        if self.perfect:
            if self.deal != "cut":
                raise ParameterError("--perfect needs a real shoe dealt to the cut card")
            on_cards = [b.name for b in self.bets if b.card_level]
            if on_cards:
                raise ParameterError(
                    f"--perfect: {', '.join(on_cards)} read the cards themselves, and the perfect counter prices "
                    f"every bet exactly before every coup: the card-level engine takes a few tenths of a second "
                    f"(values, ranks) to tens of seconds (colours, suits) a shoe, so tens of seconds to hours a "
                    f"shoe dealt; count such bets with a count system (--count; 'baccara count design' derives one)")
            if isinstance(self.perfect_every, bool) or not isinstance(self.perfect_every, int) or self.perfect_every < 1:
                raise ParameterError(f"--perfect-every must be a positive integer, got {self.perfect_every!r}")
        if isinstance(self.chunk_size, bool) or not isinstance(self.chunk_size, int) or self.chunk_size < 1:
            raise BaccaraError(f"chunk size must be a positive integer, got {self.chunk_size!r}")
        bet_table(self.bets)  # payouts the kernel's integers can hold

    @property
    def holds_gil(self) -> bool:
        """The perfect counter on pair bets (or on shoes too large for int64) runs the exact engine from
        Python: parallel only across processes.  On bets on card values it is compiled (threads)."""
        return self.perfect and _perfect_args(self) is None

    # ------------------------------------------------------------- kernel arguments
    @property
    def names(self) -> tuple[str, ...]:
        return tuple(b.name for b in self.bets)

    @property
    def denominators(self) -> tuple[int, ...]:
        return bet_table(self.bets)[1]

    def columns(self) -> list[str]:
        cols = ["hands", "banker", "player", "tie"]
        for n in self.names:
            cols += [f"{n}:placed", f"{n}:net", f"{n}:wins"]
        return cols

    def betting_arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, float]:
        """(when, lo, hi, tags, initial count) for the kernel."""
        nb = len(self.bets)
        when = np.zeros(nb, dtype=np.int8)
        lo, hi = np.zeros(nb), np.zeros(nb)
        tags, initial = np.zeros(13), 0.0
        if self.count is not None:
            tags = self.count.tag_array()
            assert self.decks is not None  # __post_init__: a count needs a real shoe
            initial = self.count.start(self.decks)
            for b, name in enumerate(self.names):
                r = self.count.rule_for(name)
                if r is not None:
                    when[b] = K.TRUE if r.count == "true" else K.RUNNING
                    lo[b], hi[b] = r.at_least, r.at_most
        return when, lo, hi, tags, initial

    def template(self) -> np.ndarray:
        return deck_template(self.decks if self.decks is not None else 1)

    def kernel_args(self) -> tuple:
        return _kernel_args(self)

    # ------------------------------------------------------------- chunks
    def chunk_range(self, index: int) -> tuple[int, int]:
        first = index * self.chunk_size
        return first, min(self.shoes, first + self.chunk_size) - first

    def run_chunk(self, index: int, pool=None) -> ChunkResult:
        """Chunk ``index``: its shoes' totals (exact integers), and rows if kept; ``pool``: threads to use."""
        t0 = time.perf_counter()
        first, n = self.chunk_range(index)
        extra: dict = {}
        if self.perfect:  # each block's CPU time, measured in the thread that runs it
            table, extra = perfect_rows(self, first, n, pool)
        else:
            table = np.zeros((n, len(self.columns())), dtype=np.int64)
            self._deal(first, table, pool)
        return self.chunk_result(index, first, table, time.perf_counter() - t0, extra)

    def sum_pairs(self) -> list[tuple[str, str]]:
        """The column pairs whose products are summed (for the standard errors)."""
        pairs = [(k, k) for k in ("hands", "banker", "player", "tie")] + [(k, "hands") for k in ("banker", "player", "tie")]
        for n in self.names:
            p, v, w = f"{n}:placed", f"{n}:net", f"{n}:wins"
            pairs += [(v, v), (v, p), (p, p), (w, w), (w, p)]
        return pairs

    def chunk_result(self, index: int, first: int, table: np.ndarray, seconds: float, extra: dict,
                     chunks: int = 1) -> ChunkResult:
        cols = {c: table[:, i] for i, c in enumerate(self.columns())}
        rows = None
        if self.keep_rows:
            rows = {"shoe": np.arange(first, first + table.shape[0], dtype=np.int64)}
            for k in ("hands", "banker", "player", "tie"):
                rows[k] = cols[k].astype(np.int32)
            for n, den in zip(self.names, self.denominators):
                rows[f"{n}_placed"] = cols[f"{n}:placed"].astype(np.int32)
                rows[f"{n}_net"] = cols[f"{n}:net"] / den
                rows[f"{n}_wins"] = cols[f"{n}:wins"].astype(np.int32)
        return ChunkResult(index=index, shoes=table.shape[0], hands=int(cols["hands"].sum()),
                           sums=column_sums(cols, self.sum_pairs()), rows=rows, seconds=seconds, extra=extra,
                           chunks=chunks)

    def run_span(self, index: int, chunks: int) -> ChunkResult:
        """Chunks ``index .. index + chunks - 1`` in this thread, their tallies folded by the kernel.

        The kernel deals the whole run of shoes and adds each shoe's row and the products of its
        columns to int64 tallies, without Python per shoe or per chunk; the tallies equal
        :func:`~baccara.sim.results.column_sums` of the rows.  Where int64 could overflow (payouts
        with very large denominators) the shoes are folded in shorter runs; where even one shoe
        could, and for rows (``keep_rows``), the span's rows are dealt into one table and summed
        in Python's integers where needed; the perfect counter goes chunk by chunk.

        Parameters
        ----------
        index : int
            The first chunk.
        chunks : int
            How many chunks.

        Returns
        -------
        ChunkResult
            The span's exact tallies (``chunks`` chunks from ``index``).
        """
        first = index * self.chunk_size
        n = min(self.shoes, (index + chunks) * self.chunk_size) - first
        step = self._fold_step()
        if self.perfect:  # the exact engine from Python, chunk by chunk
            return fold_chunks(self, index, chunks)
        if self.keep_rows or step == 0:
            t0 = time.perf_counter()
            table = np.zeros((n, len(self.columns())), dtype=np.int64)
            self._deal(first, table)
            return self.chunk_result(index, first, table, time.perf_counter() - t0, {}, chunks)
        t0 = time.perf_counter()
        names, pairs = self.columns(), self.sum_pairs()
        where = {c: i for i, c in enumerate(names)}
        cols = np.arange(len(names), dtype=np.int64)
        pa = np.array([where[a] for a, _ in pairs], dtype=np.int64)
        pb = np.array([where[b] for _, b in pairs], dtype=np.int64)
        sums: dict[str, int] = {}
        fast = _values_args(self)
        for lo in range(0, n, step):
            m = min(step, n - lo)
            acc = np.zeros(len(names) + len(pairs), dtype=np.int64)
            if fast is not None:
                K.punto_values_fold(self.seed, first + lo, m, acc, cols, pa, pb, *fast)
            else:
                K.punto_fold(self.seed, first + lo, m, acc, cols, pa, pb, *self.kernel_args())
            sums_from_fold(acc, names, pairs, sums)
        return ChunkResult(index=index, shoes=n, hands=sums["hands"], sums=sums,
                           seconds=time.perf_counter() - t0, chunks=chunks)

    def _fold_step(self) -> int:
        """The most shoes whose tallies surely fit int64 (0: not even one)."""
        return _fold_step(self)

    def _deal(self, first: int, table: np.ndarray, pool=None) -> None:
        """Rows of shoes ``first ..`` into ``table``, in the kernel that deals this job."""
        n = table.shape[0]
        fast = _values_args(self)
        if fast is not None:  # flat bets blind to pairs: the same rows, dealt from a shoe of values
            in_blocks(pool, n, lambda lo, hi: K.punto_values_chunk(self.seed, first + lo, table[lo:hi], *fast))
        else:
            args = self.kernel_args()
            in_blocks(pool, n, lambda lo, hi: K.punto_chunk(self.seed, first + lo, table[lo:hi], *args))

    def gpu_perfect_refusal(self) -> str | None:
        """Why the GPU cannot run this job's perfect counter (:func:`perfect_gpu_refusal`), or None when it can.

        Returns
        -------
        str or None
            The reason, in words.
        """
        return perfect_gpu_refusal(self.bets, self.decks)

    def gpu_layout(self) -> GpuLayout:
        """How the GPU backend (:mod:`baccara.sim.gpu`) deals this job: the CPU kernels' arguments (the compiled
        perfect counter's, where it deals the job), and the columns, products and chunk results of
        :meth:`chunk_result` (read off a chunk of no shoes)."""
        names = tuple(self.columns())
        probe = self.chunk_result(0, 0, np.zeros((0, len(names)), dtype=np.int64), 0.0, {})
        return GpuLayout(self.kernel_args(), _values_args(self), max_coups(self.decks, self.deal, self.cut, self.coups),
                         tuple(range(len(names))), names, pairs_of(probe.sums, names),
                         lambda i, first, raw, secs: self.chunk_result(i, first, raw, secs, {}), self.keep_rows,
                         _perfect_args(self) if self.perfect else None)


@lru_cache(maxsize=32)
def _fold_step(job: PuntoJob) -> int:
    cap = max_coups(job.decks, job.deal, job.cut, job.coups)
    pay, _ = bet_table(job.bets)
    cpay = card_table(job.bets)[1]  # a bet on the cards themselves pays by its program's levels, not its cells
    top = {"hands": cap, "banker": cap, "player": cap, "tie": cap}
    for b, n in enumerate(job.names):
        top[f"{n}:placed"] = top[f"{n}:wins"] = cap
        top[f"{n}:net"] = cap * max(int(np.abs(pay[:, b]).max()), int(np.abs(cpay[b]).max()))
    worst = max(top[a] * top[b] for a, b in job.sum_pairs())
    worst = max(worst, *top.values(), 1)
    return min((2**62) // worst, 1 << 40)


@lru_cache(maxsize=32)
def _kernel_args(job: PuntoJob) -> tuple:
    pay, _ = bet_table(job.bets)
    when, lo, hi, tags, initial = job.betting_arrays()
    card, cpay, prog = card_table(job.bets)
    cards = (card, cpay, prog) if (card >= 0).any() else (None, None, None)  # None: the cells' kernel alone
    return (job.template(), job.cut, DEAL_MODES[job.deal], True, job.coups,
            job.tableau.player_array, job.tableau.banker_array, pay, when, lo, hi, tags, float(initial),
            *K.fold_classes(pay, when, card >= 0), *cards)


@lru_cache(maxsize=32)
def _values_args(job: PuntoJob) -> tuple | None:
    """Arguments of :func:`~baccara.sim._punto_kernel.punto_values_chunk` after ``seed, first, out``, or None
    where it cannot deal the job (:func:`~baccara.sim._punto_kernel.values_fast_path`)."""
    (template, cut, mode, shuffle, _, pdraw, bdraw, _, when, _, _, _, _, cls, kwin, kpay, fold, *_) = _kernel_args(job)
    if not K.values_fast_path(mode, shuffle, cls, fold, when):
        return None
    coups = K.coup_table(pdraw, bdraw)
    ctab = (cls[coups >> 3] * 8 + (coups & 7)).astype(np.int32)  # cells without pairs are cls's first ninth
    return VALUE[template].astype(np.uint8), cut, ctab, kwin, kpay


# ---------------------------------------------------------------- the perfect counter
def _resolution(bets: Sequence[Bet]) -> str:
    need = "value"
    for b in bets:
        if not resolution_at_least(need, b.resolution):
            need = b.resolution
    return need


def _composition(counts52: np.ndarray, resolution: str) -> Shoe:
    """The unseen cards as a shoe known by ``resolution`` (rank or suit)."""
    if resolution == "suit":
        return Shoe(tuple(int(x) for x in counts52), "suit")
    return Shoe(tuple(int(x) for x in counts52.reshape(13, 4).sum(axis=1)), "rank")


def perfect_decisions(counts52: np.ndarray, bets: tuple[Bet, ...], tableau: Tableau) -> np.ndarray:
    """Which bets have a positive exact expectation on the unseen cards ``counts52`` (by card code).

    Parameters
    ----------
    counts52 : numpy.ndarray
        The unseen cards by card code, one shoe (52,) or one per row (k, 52).
    bets : tuple of Bet
        The bets.
    tableau : Tableau
        The drawing rules.

    Returns
    -------
    numpy.ndarray
        Booleans, (bets,) or (k, bets): EV > 0, decided exactly.  Bets on card values are
        priced all rows at once (:func:`baccara.punto.exact.edges_for_shoes`); bets on pairs one
        shoe at a time.
    """
    rows = np.atleast_2d(counts52)
    resolution = _resolution(bets)
    if resolution == "value":
        out = edges_for_shoes(rows, bets, tableau).positive
    else:
        out = np.zeros((len(rows), len(bets)), dtype=np.bool_)
        for i, row in enumerate(rows):
            res = evaluate_bets(coup_distribution(_composition(row, resolution), tableau), bets)
            out[i] = [res[b.name].ev > 0 for b in bets]
    return out if np.ndim(counts52) == 2 else out[0]


def perfect_gpu_refusal(bets: Sequence[Bet], decks: int | None) -> str | None:
    """Why ``--backend gpu`` cannot run the perfect counter on these bets and this shoe, or None when it can.

    Parameters
    ----------
    bets : sequence of Bet
        The bets played.
    decks : int or None
        Decks in the shoe.

    Returns
    -------
    str or None
        :func:`baccara.sim.limits.gpu_perfect_refusal`'s reason: pair bets, or exact counts that could overflow
        64-bit integers for this shoe and these payouts (with the most decks the GPU takes for them).
    """
    return _gpu_refusal(tuple(bets), decks)


@lru_cache(maxsize=32)
def _gpu_refusal(bets: tuple[Bet, ...], decks: int | None) -> str | None:
    pay, _ = bet_table(bets)
    return gpu_perfect_refusal(decks, _resolution(bets) == "value", int(np.abs(pay[:VALUE_CELLS]).max()))


@lru_cache(maxsize=32)  # asked once a chunk and by holds_gil: the plan and a first call of the kernel take a millisecond
def _perfect_args(job: PuntoJob) -> tuple | None:
    """Arguments of the compiled perfect counter after ``seed, first, out``, or None where the Python path
    deals the job: bets on pairs (ranks or suits), or shoes whose exact counts could overflow 64-bit
    integers (``4 N^6`` or the largest payout times the ``(N)_6`` deals of ``N`` cards at 2^63 or more)."""
    if not job.perfect or _resolution(job.bets) != "value":
        return None
    template = job.template()
    pay, _ = bet_table(job.bets)
    vpay = pay[:VALUE_CELLS]  # pair classes (0, 0): bets on values pay alike in all nine
    if not perfect_fits_int64(job.decks, int(np.abs(vpay).max())):
        return None
    n = int(template.size)
    from . import _perfect_kernel as PK  # lazy: compiles or loads the compiled perfect counter only for it

    pdraw, bdraw = job.tableau.player_array, job.tableau.banker_array
    plan = PK.numerator_plan(vpay, pdraw, bdraw, n)
    full = np.bincount(VALUE[template], minlength=10).astype(np.int64)
    args = (template, job.cut, job.perfect_every, pdraw, bdraw, pay, *plan, full)
    PK.perfect_chunk(job.seed, 0, np.zeros((0, len(job.columns())), dtype=np.int64), *args)  # load it, untimed
    return args


#: Shoes a chunk of the perfect counter: compiled on bets on card values (about 15 ms of one core), in Python on
#: pair bets (about a fifth of a second).
PERFECT_CHUNK_VALUES = 64
PERFECT_CHUNK_PAIRS = 8


def perfect_chunk_size(bets: Sequence[Bet]) -> int:
    """Shoes per chunk for the perfect counter on ``bets``: enough that a chunk's Python bookkeeping is small
    beside its work, few enough that progress moves and every worker has chunks.

    Parameters
    ----------
    bets : sequence of Bet
        The bets.

    Returns
    -------
    int
        :data:`PERFECT_CHUNK_VALUES` when every bet is on card values, else :data:`PERFECT_CHUNK_PAIRS`.
    """
    return PERFECT_CHUNK_VALUES if _resolution(bets) == "value" else PERFECT_CHUNK_PAIRS


def perfect_rows(job: PuntoJob, first: int, n: int, pool=None) -> tuple[np.ndarray, dict]:
    """Rows of the perfect counter for shoes first .. first + n - 1.

    Before each decision the unseen cards (the shoe less the face-up burn card and the
    cards dealt) are priced exactly and a bet is placed where its expectation is positive
    (an expectation of exactly 0 is not bet).  Bets on card values run in one compiled
    loop, dealing and pricing every shoe without Python (:mod:`baccara.sim._perfect_kernel`),
    on the threads of ``pool``; bets on pairs, and shoes too large for 64-bit counts, run
    :func:`perfect_rows_python` (one core).

    Parameters
    ----------
    job : PuntoJob
        A perfect-counter job.
    first, n : int
        The first shoe and the number of shoes.
    pool : ThreadPoolExecutor, optional
        Threads to share the shoes among (the compiled path releases the GIL).

    Returns
    -------
    table : numpy.ndarray
        One row per shoe, the columns of :meth:`PuntoJob.columns`.
    extra : dict
        ``evaluations`` (decisions priced) and ``cpu_microseconds`` (CPU time of the threads
        that priced them).
    """
    args = _perfect_args(job)
    if args is None:  # in this thread alone, so its CPU time is the chunk's
        c0 = time.thread_time()
        table, extra = perfect_rows_python(job, first, n)
        return table, {**extra, "cpu_microseconds": round((time.thread_time() - c0) * 1e6)}
    from . import _perfect_kernel as PK  # lazy: loaded by _perfect_args already

    table = np.zeros((n, len(job.columns())), dtype=np.int64)
    spent: list[tuple[int, int, float]] = []

    def block(lo: int, hi: int) -> None:
        c0 = time.thread_time()
        d, p = PK.perfect_chunk(job.seed, first + lo, table[lo:hi], *args)
        spent.append((int(d), int(p), time.thread_time() - c0))  # list.append is atomic: blocks may end together

    in_blocks(pool, n, block)
    return table, {"evaluations": sum(s[0] for s in spent), "priced": sum(s[1] for s in spent),
                   "cpu_microseconds": round(sum(s[2] for s in spent) * 1e6)}


def perfect_rows_python(job: PuntoJob, first: int, n: int) -> tuple[np.ndarray, dict]:
    """:func:`perfect_rows` with the exact engine called from Python, a shoe at a time.

    Each shoe is dealt first; the unseen cards before each decision are then priced
    together (:func:`perfect_decisions`), and the bets placed where the exact expectation
    is positive.  The path of bets on pairs; for bets on card values, the reference
    the compiled loop is tested against (the same rows).

    Parameters
    ----------
    job : PuntoJob
        A perfect-counter job.
    first, n : int
        The first shoe and the number of shoes.

    Returns
    -------
    table : numpy.ndarray
        One row per shoe, the columns of :meth:`PuntoJob.columns`.
    extra : dict
        ``evaluations``: decisions priced.
    """
    pay, _ = bet_table(job.bets)
    nb = len(job.bets)
    table = np.zeros((n, 4 + 3 * nb), dtype=np.int64)
    template = job.template()
    full = np.bincount(template, minlength=52).astype(np.int64)
    cap = max_coups(job.decks, job.deal, job.cut, job.coups)
    starts, cells, winners = (np.zeros(cap, dtype=np.int64) for _ in range(3))
    pdraw, bdraw = job.tableau.player_array, job.tableau.banker_array
    every = job.perfect_every
    evaluations = 0
    for s in range(n):
        coups, burned, _end, deck = record_shoe(job.seed, first + s, template, job.cut, CUT, True, 0,
                                                pdraw, bdraw, starts, cells, winners)
        # seen[k]: cards seen once k cards past the burn are dealt (the face-up burn card included)
        dealt = np.zeros((deck.size - burned + 1, 52), dtype=np.int64)
        dealt[np.arange(1, deck.size - burned + 1), deck[burned:].astype(np.int64)] = 1
        seen = np.cumsum(dealt, axis=0)
        seen[:, deck[0]] += 1
        decide = np.arange(0, coups, every)
        on = perfect_decisions(full - seen[starts[decide] - burned], job.bets, job.tableau)
        evaluations += len(decide)
        placed = on[np.arange(coups) // every]  # (coups, bets): the latest decision holds
        won = pay[cells[:coups]]
        row = table[s]
        row[0] = coups
        row[1:4] = np.bincount(winners[:coups], minlength=3)
        row[4::3] = placed.sum(axis=0)
        row[5::3] = (won * placed).sum(axis=0)
        row[6::3] = ((won > 0) & placed).sum(axis=0)
    return table, {"evaluations": evaluations}


# ---------------------------------------------------------------- results
@dataclass
class BetStats:
    """One bet's simulated results."""

    name: str
    placed: int
    net: Fraction
    wins: int
    ev_per_bet: Estimate
    hit: Estimate
    per_shoe: Estimate
    bets_per_shoe: float

    def to_json(self) -> dict:
        return {
            "placed": self.placed,
            "net": float(self.net),
            "net_exact": fraction_str(self.net),
            "ev_per_bet": fnum(self.ev_per_bet.value),
            "stderr": fnum(self.ev_per_bet.stderr),
            "wins": self.wins,
            "hit_frequency": fnum(self.hit.value),
            "hit_frequency_stderr": fnum(self.hit.stderr),
            "win_per_shoe": fnum(self.per_shoe.value),
            "win_per_shoe_stderr": fnum(self.per_shoe.stderr),
            "bets_per_shoe": fnum(self.bets_per_shoe),
        }


@dataclass(repr=False)
class PuntoResult(SimResult):
    """A punto banco simulation's results, with the exact engine's values beside them.

    ``to_json()`` is the document of ``baccara simulate punto --json`` (the user guide), ``show()`` its tables.
    """

    job: PuntoJob
    shoes: int
    hands: int
    outcomes: dict[str, int]
    frequencies: dict[str, Estimate]
    bets: dict[str, BetStats]
    exact: dict | None
    run: dict = field(default_factory=dict)
    extra: dict = field(default_factory=dict)
    rows: dict[str, np.ndarray] | None = None

    def flat(self, name: str) -> bool:
        """Was bet ``name`` placed on every coup?"""
        return self.bets[name].placed == self.hands

    def z_scores(self) -> dict[str, dict[str, float | None]]:
        """(simulated - exact) / stderr: ``{"outcomes": {...}, "bets": {...}}`` for the outcome
        frequencies and every bet placed on every coup (flat)."""
        if not self.exact:
            return {"outcomes": {}, "bets": {}}
        out = {k: self.frequencies[k].z(self.exact["_outcomes"][k]) for k in self.frequencies}
        bets = {name: st.ev_per_bet.z(self.exact["_bets"][name])
                for name, st in self.bets.items() if self.flat(name) and name in self.exact["_bets"]}
        return {"outcomes": out, "bets": bets}

    def report(self, doc: dict) -> list:
        return punto_report(doc)

    def document(self) -> dict:
        j = self.job
        doc = {
            "game": "punto",
            "seed": j.seed,
            "shoes": self.shoes,
            "hands": self.hands,
            "outcomes": dict(self.outcomes),
            "bets": {n: s.to_json() for n, s in self.bets.items()},
            "exact": None,
            "frequencies": {k: {"value": fnum(e.value), "stderr": fnum(e.stderr)} for k, e in self.frequencies.items()},
            "shoe": {"decks": "inf" if j.decks is None else j.decks, "deal": j.deal,
                     "cut": j.cut if j.deal == "cut" else None,
                     "coups_per_shoe": None if j.deal == "cut" else j.coups,
                     "hands_per_shoe": fnum(self.hands / self.shoes)},
            "strategy": strategy_json(j),
            "run": self.run,
        }
        if self.exact:
            doc["exact"] = {k: v for k, v in self.exact.items() if not k.startswith("_")}
            doc["z"] = {part: {k: fnum(v) if v is not None else None for k, v in zs.items()}
                        for part, zs in self.z_scores().items()}
        if self.extra:
            doc.update(self.extra)
        doc["tableau"] = j.tableau.to_json()
        return doc


def strategy_json(j: PuntoJob) -> dict:
    """How the job bets: flat, a count system, or the perfect counter (for results and metadata).

    Parameters
    ----------
    j : PuntoJob
        The job.

    Returns
    -------
    dict
        ``{"kind": "flat" | "count" | "perfect", ...}``.
    """
    if j.perfect:
        return {"kind": "perfect", "every": j.perfect_every}
    if j.count is not None:
        return {"kind": "count", "count": j.count.to_json()}
    return {"kind": "flat"}


#: Bets on the cards themselves are priced beside a simulation when their labels are at most this many
#: (values or ranks: a fraction of a second); finer ones (colours, suits) take the card-level engine seconds
#: to minutes, which ``baccara edge`` spends on request.
EXACT_CARD_LABELS = 13


def exact_values(job: PuntoJob) -> dict:
    """The exact engine's values for a coup dealt from the job's full shoe.

    Bets on the cards themselves that read colours or suits are not priced here (``not_priced`` says so;
    ``baccara edge`` prices them)."""
    shoe = Shoe.infinite() if job.decks is None else Shoe.decks(job.decks)
    dist = coup_distribution(shoe, job.tableau)
    out = dist.outcomes()
    slow = {b.name: f"reads {bet_labelling(b).describe()}: price it with 'baccara edge' (seconds to minutes)"
            for b in job.bets if b.card_level and bet_labelling(b).labels > EXACT_CARD_LABELS}
    res = evaluate_bets(dist, tuple(b for b in job.bets if b.name not in slow))
    doc = {
        "shoe": shoe.label(),
        "basis": "one coup dealt from the full shoe",
        "outcomes": {k: float(v) for k, v in out.items()},
        "outcomes_exact": {k: fraction_str(v) for k, v in out.items()},
        "bets": {n: {"ev": float(r.ev), "ev_exact": fraction_str(r.ev), "sd": r.sd} for n, r in res.items()},
        "_outcomes": out,
        "_bets": {n: r.ev for n, r in res.items()},
    }
    if slow:
        doc["not_priced"] = slow
    return doc


def finalize(job: PuntoJob, total: ChunkResult, run: dict | None = None, with_exact: bool = True) -> PuntoResult:
    """Turn the combined chunks into estimates."""
    S, s = total.shoes, total.sums
    freqs = {k: ratio(s, k, "hands", S) for k in ("banker", "player", "tie")}
    bets = {}
    for name, den in zip(job.names, job.denominators):
        p, v, w = f"{name}:placed", f"{name}:net", f"{name}:wins"
        bets[name] = BetStats(
            name=name, placed=s[p], net=Fraction(s[v], den), wins=s[w],
            ev_per_bet=ratio(s, v, p, S, den), hit=ratio(s, w, p, S),
            per_shoe=mean(s, v, S, den), bets_per_shoe=s[p] / S,
        )
    extra = {}
    if job.perfect:
        ev = total.extra.get("evaluations", 0)
        secs = (run or {}).get("seconds") or total.seconds
        cpu = total.extra.get("cpu_microseconds", 0) / 1e6  # the workers' CPU time, not their wall time
        extra["perfect"] = {"evaluations": ev, "every": job.perfect_every,
                            "priced": total.extra.get("priced", ev),  # the rest were settled by the last pricing
                            "evaluations_per_second": fnum(ev / secs) if secs else None,
                            "evaluations_per_cpu_second": fnum(ev / cpu) if cpu else None}
    run = dict(run or {})
    if run.get("seconds"):
        run["hands_per_second"] = total.hands / run["seconds"]
    return PuntoResult(job, S, total.hands, {k: s[k] for k in ("banker", "player", "tie")}, freqs, bets,
                       exact_values(job) if with_exact else None, run, extra, total.rows)


def simulate_punto(job: PuntoJob, backend: str = "threads", workers: int | None = None,
                   scheduler: str | None = None, progress=None, sink=None) -> PuntoResult:
    """Run a punto banco job and return its results (see :func:`baccara.sim.distributed.run`)."""
    total, info = run(job, backend, workers, scheduler, progress, sink)
    return finalize(job, total, info.to_json())


def count_bet_names(names: Sequence[str], available: Mapping[str, Bet], count: CountSystem | None) -> list[str]:
    """The bets named, then those the count system bets on that were not named.

    Parameters
    ----------
    names : sequence of str
        The bets to play.
    available : mapping of str to Bet
        Every bet known by name.
    count : CountSystem or None
        The count system, if any.

    Returns
    -------
    list of str
        ``names`` followed by the count's bets.

    Raises
    ------
    BaccaraError
        The count bets on a bet that is not in ``available``.
    """
    out = list(names)
    if count is not None:
        for r in count.rules:
            if r.bet not in available:
                raise ParameterError(f"--count: the count system bets on {r.bet!r}, which is not a bet; bets are "
                                   f"{', '.join(available)}")
        out += [r.bet for r in count.rules if r.bet not in out]
    return out


def bets_from_names(names: Sequence[str], available: Mapping[str, Bet]) -> tuple[Bet, ...]:
    """The bets named (``--bets banker,dragon7``), with a clear error for unknown names."""
    out = []
    for n in names:
        if n not in available:
            raise ParameterError(f"--bets: unknown bet {n!r}; bets are {', '.join(available)}")
        out.append(available[n])
    return tuple(out)
