"""Count analysis: what a count system wins on a side bet, beside the perfect counter's ceiling.

A designer asks of a new side bet "can it be counted, and what would a counter
win per shoe?"; an advantage player asks which count to use and what it earns.
:func:`analyse_count` answers both with the figures the published analyses of
Dragon 7, Panda 8, the tie and the pairs report, for one bet and one count
system on real shoes (the burn, the cut card, one more coup after it):

* **hands** dealt and **bets** placed; **bet frequency**, bets per hand;
* **player's edge when betting**, the player's mean result per unit bet (minus the house edge), with its
  standard error (shoes as clusters, :mod:`baccara.sim.results`);
* **win per 100 hands** and **per shoe**, in units (one unit per bet), with
  standard errors;
* **SD per bet** (of one bet's result, over the bets placed), **SD per
  shoe** (of a shoe's net) and **SD per hand** = SD per shoe / sqrt(hands per
  shoe), the per-hand spread that includes the correlation of the bets of one
  shoe;
* the **SCORE-style figures** of Schlesinger, *Blackjack Attack* (3rd ed.),
  from the win per hand mu and the SD per hand sigma:

  - DI = 1000 mu / sigma, the desirability index;
  - N0 = (sigma / mu)^2, the hands to play before the expected win equals
    one standard deviation (the "long run index");
  - SCORE = 10^6 (mu / sigma)^2 = DI^2, the expected win per 100 hands of a
    player with a 10,000-unit bankroll who bets the Kelly amount (bankroll x
    mu / sigma^2 a hand; Schlesinger's SCORE is the same with his $10,000
    bankroll and Kelly betting, computed here in closed form);

* **risk of ruin** for a bankroll B and a bet of U (B / U units), by the
  diffusion approximation (Brownian motion with drift mu_s and variance
  sigma_s^2 a shoe, never stopping):

      RoR = exp(-2 mu_s (B / U) / sigma_s^2)   if mu_s > 0, else 1,

  with the per-shoe mean and variance (so the correlation within a shoe is
  counted).  For a walk of +-1 steps it is the first-order form of the gambler's
  ruin (q / p)^B (Feller, *An Introduction to Probability Theory*, vol. 1, XIV.2).

The same figures are given for the **perfect counter** (who bets exactly when
the exact engine gives the unseen cards a positive expectation: the ceiling
any count can reach) on the first of the same shoes, with, beside its
simulated results, the exact expectations of the bets it placed (their mean is
its exact "edge when betting" on those shoes, and their sum a low-variance
estimate of its win).  The count's **efficiency** is its win per 100 hands
over the perfect counter's (the expected one).

Every shoe is the one :mod:`baccara.sim.shoe_deal` deals for the seed, so a
report is the same on threads, processes or a Dask cluster.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

import numpy as np
from rich.console import RenderableType

from ..algebraic import fraction_str
from ..errors import BaccaraError, ParameterError
from ..punto.bets import Bet
from ..punto.exact import coerce_bet, coup_distribution, edges_for_shoes, evaluate_bets
from ..rules import PUNTO_BANCO, Tableau
from ..shoe import Shoe
from . import _fsum_kernel as FK
from . import _punto_kernel as K
from .counting import CountSystem
from .distributed import fold_chunks, run
from .gpu import GpuLayout
from .punto import PuntoJob, _composition, _perfect_args, bet_table, card_table, max_coups
from .report import SimResult, _table
from .results import (
    ChunkResult,
    Estimate,
    column_sums,
    fnum,
    in_blocks,
    mean,
    ratio,
    sums_from_fold,
)
from .shoe_deal import CUT, DEAL_MODES, record_shoe

#: Cards behind the cut card when neither the user nor the count file says (the published count analyses use 14 or 16).
DEFAULT_COUNT_CUT = 14
#: The bankroll, in units, of Schlesinger's SCORE.
SCORE_BANKROLL = 10_000
#: Per-shoe sums of squared payouts must stay below this.
_SQ_LIMIT = 2**62

#: Per-shoe columns of a count analysis.
COLUMNS = ("hands", "placed", "net", "sq", "wins")
#: Where :data:`COLUMNS` are in the rows of :meth:`CountJob.kernel_args` (the bet, then its squares).
KERNEL_COLUMNS = (K.HANDS, K.BASE_COLUMNS, K.BASE_COLUMNS + 1, K.BASE_COLUMNS + 4, K.BASE_COLUMNS + 2)
#: Shoes whose every coup's expectation a thread of :func:`perfect_sums` keeps at once (some tenths of a second of a
#: core: the threads' last blocks end together within that).
_EV_BLOCK = 1024
#: An empty float array: the compiled fold's ``ev_all`` where every coup's sum is not asked for.
_NO_FLOATS = np.zeros(0)
_PAIRS = [("hands", "hands"), ("placed", "placed"), ("net", "net"), ("net", "placed"), ("net", "hands"),
          ("placed", "hands"), ("wins", "wins"), ("wins", "placed")]


def check_bet_counts(count: CountSystem, bet: str) -> None:
    """Check that ``count`` has a betting rule for ``bet``.

    Parameters
    ----------
    count : CountSystem
        The count system.
    bet : str
        The bet analysed.

    Raises
    ------
    BaccaraError
        The count has no rule for the bet.
    """
    if count.rule_for(bet) is None:
        have = ", ".join(r.bet for r in count.rules) or "none"
        raise ParameterError(f"--count: count {count.name!r} has no betting rule for --bet {bet} (it bets on {have}); "
                           f"add a [[bets]] table with name = \"{bet}\"")


@dataclass(frozen=True)
class CountJob:
    """One bet on real shoes, placed by a count system, or by the perfect counter (``count`` None).

    ``every_coup``: the perfect counter prices every coup, not only those whose decision is not
    already settled (:func:`perfect_sums`; the same figures, the time of the math report's run).

    A job of :func:`baccara.sim.distributed.run`: small, picklable, cut into chunks
    of shoes whose per-shoe records (hands, bets placed, net, sum of squared
    results, wins) add up exactly.
    """

    seed: int
    shoes: int
    decks: int
    bet: Bet
    count: CountSystem | None = None
    cut: int = DEFAULT_COUNT_CUT
    tableau: Tableau = PUNTO_BANCO
    chunk_size: int = 4096
    every_coup: bool = False

    def __post_init__(self) -> None:
        if self.count is not None:
            check_bet_counts(self.count, self.bet.name)
        p = self.punto  # checks the seed, shoes, shoe, cut, bet
        pay = bet_table(p.bets)[0]
        top = max(int(np.abs(pay).max()), int(np.abs(card_table(p.bets)[1]).max()))
        if top * top * max_coups(self.decks, "cut", self.cut, 0) >= _SQ_LIMIT:
            raise ParameterError(f"--bet {self.bet.name}: its payouts are too large for the count analysis's "
                               f"per-shoe sums of squares")

    @property
    def punto(self) -> PuntoJob:
        """The punto banco job this analysis runs (its checks, kernel arguments and perfect counter)."""
        return PuntoJob(seed=self.seed, shoes=self.shoes, decks=self.decks, bets=(self.bet,), deal="cut",
                        cut=self.cut, tableau=self.tableau, count=self.count, perfect=self.count is None,
                        chunk_size=self.chunk_size)

    @property
    def perfect(self) -> bool:
        """Is this the perfect counter?"""
        return self.count is None

    @property
    def holds_gil(self) -> bool:
        """The perfect counter on pair bets (or on shoes too large for 64-bit counts) runs the exact engine
        from Python: parallel only across processes.  On bets on card values it is compiled (threads)."""
        return self.perfect and _compiled_args(self) is None

    def run_chunk(self, index: int, pool=None) -> ChunkResult:
        """Chunk ``index``: its shoes' exact per-shoe sums (and the perfect counter's expectations).

        Parameters
        ----------
        index : int
            The chunk.
        pool : ThreadPoolExecutor, optional
            Threads to share the chunk (the count's kernel releases the GIL).

        Returns
        -------
        ChunkResult
            Sums of the columns :data:`COLUMNS` and their products; for the perfect counter
            also ``floats["ev"]`` (and its products), the exact expectations of the bets placed.
        """
        t0 = time.perf_counter()
        first = index * self.chunk_size
        n = min(self.shoes, first + self.chunk_size) - first
        if self.perfect:
            return _perfect_result(index, perfect_sums(self, first, n, pool), t0)
        args = self.kernel_args()
        raw = np.zeros((n, K.BASE_COLUMNS + 6), dtype=np.int64)
        in_blocks(pool, n, lambda lo, hi: K.punto_chunk(self.seed, first + lo, raw[lo:hi], *args))
        c = K.BASE_COLUMNS
        table = np.stack([raw[:, K.HANDS], raw[:, c], raw[:, c + 1], raw[:, c + 4], raw[:, c + 2]], axis=1)
        cols = {k: table[:, i] for i, k in enumerate(COLUMNS)}
        return ChunkResult(index=index, shoes=n, hands=int(cols["hands"].sum()), sums=column_sums(cols, _PAIRS),
                           seconds=time.perf_counter() - t0)

    def gpu_perfect_refusal(self) -> str | None:
        """Why the GPU cannot run this perfect counter (pair bets, or counts past 64-bit integers), or None.

        Returns
        -------
        str or None
            The reason, in words.
        """
        return self.punto.gpu_perfect_refusal()

    def gpu_layout(self) -> GpuLayout:
        """How the GPU backend (:mod:`baccara.sim.gpu`) deals the count: :meth:`kernel_args`, and the
        columns :data:`COLUMNS` of its rows (:data:`KERNEL_COLUMNS`) summed as :meth:`run_chunk` sums them.
        The perfect counter on bets on card values: the compiled perfect counter's arguments, each shoe's row
        and each coup's expectation coming back to be summed as :func:`perfect_sums` sums them (so its chunk
        results are :meth:`run_chunk`'s of the same shoes)."""
        def finish(index: int, first: int, raw: np.ndarray, seconds: float) -> ChunkResult:
            cols = {k: raw[:, c] for k, c in zip(COLUMNS, KERNEL_COLUMNS)}
            return ChunkResult(index=index, shoes=raw.shape[0], hands=int(cols["hands"].sum()),
                               sums=column_sums(cols, _PAIRS), seconds=seconds)

        def finish_ev(index: int, first: int, table: np.ndarray, evs: np.ndarray, seconds: float) -> ChunkResult:
            t0 = time.perf_counter() - seconds
            return _perfect_result(index, fold_perfect(table, evs, self.every_coup, True), t0)

        perfect = _compiled_args(self) if self.perfect else None
        return GpuLayout(self.kernel_args(), None, max_coups(self.decks, "cut", self.cut, 0), KERNEL_COLUMNS,
                         COLUMNS, tuple(_PAIRS), finish, False, perfect,
                         finish_ev if self.perfect else None, self.every_coup)

    def run_span(self, index: int, chunks: int) -> ChunkResult:
        """Chunks ``index .. index + chunks - 1`` in this thread; the count's tallies folded by the kernel.

        Parameters
        ----------
        index : int
            The first chunk.
        chunks : int
            How many chunks.

        Returns
        -------
        ChunkResult
            The span's exact sums, as :meth:`run_chunk` of each chunk added together.
        """
        if self.perfect:
            return fold_chunks(self, index, chunks)
        t0 = time.perf_counter()
        first = index * self.chunk_size
        n = min(self.shoes, (index + chunks) * self.chunk_size) - first
        c = K.BASE_COLUMNS
        raw = {"hands": K.HANDS, "placed": c, "net": c + 1, "sq": c + 4, "wins": c + 2}
        cols = np.array([raw[k] for k in COLUMNS], dtype=np.int64)
        pa = np.array([raw[a] for a, _ in _PAIRS], dtype=np.int64)
        pb = np.array([raw[b] for _, b in _PAIRS], dtype=np.int64)
        cap = max_coups(self.decks, "cut", self.cut, 0)
        top = max(int(np.abs(bet_table((self.bet,))[0]).max()), int(np.abs(card_table((self.bet,))[1]).max()), 1)
        step = max(1, min(_SQ_LIMIT // (cap * cap * top * top), 1 << 40))  # (net * net) <= (cap * top)^2
        sums: dict[str, int] = {}
        args = self.kernel_args()
        for lo in range(0, n, step):
            m = min(step, n - lo)
            acc = np.zeros(len(COLUMNS) + len(_PAIRS), dtype=np.int64)
            K.punto_fold(self.seed, first + lo, m, acc, cols, pa, pb, *args)
            sums_from_fold(acc, list(COLUMNS), _PAIRS, sums)
        return ChunkResult(index=index, shoes=n, hands=sums["hands"], sums=sums, seconds=time.perf_counter() - t0,
                           chunks=chunks)

    def kernel_args(self) -> tuple:
        """The punto kernel's arguments with the bet twice: its payouts, then their squares.

        Both columns follow the count's rule for the bet, so one pass deals each shoe and
        records the bet's placements, net and sum of squared results.

        Returns
        -------
        tuple
            Arguments of :func:`baccara.sim._punto_kernel.punto_chunk` after ``seed, first, out``.
        """
        p = self.punto
        pay = bet_table(p.bets)[0]
        when, lo, hi, tags, initial = p.betting_arrays()
        pay2 = np.ascontiguousarray(np.column_stack([pay[:, 0], pay[:, 0] * pay[:, 0]]))
        when2 = np.repeat(when, 2)
        card, cpay, prog = card_table(p.bets)  # a bet on the cards themselves: its payouts, then their squares
        card2 = np.repeat(card, 2)
        cpay2 = np.ascontiguousarray(np.vstack([cpay[0], cpay[0] * cpay[0]]))
        cards = (card2, cpay2, prog) if card[0] >= 0 else (None, None, None)
        return (p.template(), self.cut, DEAL_MODES["cut"], True, 0, self.tableau.player_array,
                self.tableau.banker_array, pay2, when2, np.repeat(lo, 2), np.repeat(hi, 2), tags,
                float(initial), *K.fold_classes(pay2, when2, card2 >= 0), *cards)


# ---------------------------------------------------------------- the perfect counter, shoe by shoe
@dataclass
class PerfectShoe:
    """The perfect counter on one shoe: each coup's unseen cards, exact expectation, decision and result.

    ``unseen[j]`` are the cards (by code, 52 counts) the counter has not seen before coup j
    (the face-down burns included); ``ev[j]`` the bet's exact expectation on them (a float;
    ``placed[j]`` is its sign, decided exactly); ``results[j]`` the bet's result in units of
    1 / denominator (:func:`baccara.sim.punto.bet_table`).
    """

    hands: int
    unseen: np.ndarray
    ev: np.ndarray
    placed: np.ndarray
    results: np.ndarray


def exact_expectations(unseen: np.ndarray, bet: Bet, tableau: Tableau = PUNTO_BANCO) -> tuple[np.ndarray, np.ndarray]:
    """The bet's exact expectation on each row of unseen cards, and whether it is positive.

    Parameters
    ----------
    unseen : numpy.ndarray
        (k, 52) counts by card code.
    bet : Bet
        The bet.
    tableau : Tableau
        The drawing rules.

    Returns
    -------
    tuple of numpy.ndarray
        Floats (k,) and booleans (k,) (EV > 0, decided on the exact values).
    """
    if bet.resolution == "value":
        e = edges_for_shoes(unseen, (bet,), tableau)
        return e.ev[:, 0], e.positive[:, 0]
    evs = [evaluate_bets(coup_distribution(_composition(row, bet.resolution), tableau), (bet,))[bet.name].ev
           for row in unseen]
    return np.array([float(x) for x in evs]), np.array([x > 0 for x in evs], dtype=np.bool_)


def perfect_shoe(job: CountJob, index: int) -> PerfectShoe:
    """Deal shoe ``index`` of ``job`` and play it as the perfect counter.

    Parameters
    ----------
    job : CountJob
        The job (its seed, shoe, cut card and bet).
    index : int
        The shoe.

    Returns
    -------
    PerfectShoe
        Every coup's unseen cards, exact expectation, decision and result.
    """
    template = job.punto.template()
    full = np.bincount(template, minlength=52).astype(np.int64)
    cap = max_coups(job.decks, "cut", job.cut, 0)
    starts, cells, winners = (np.zeros(cap, dtype=np.int64) for _ in range(3))
    coups, burned, _end, deck = record_shoe(job.seed, index, template, job.cut, CUT, True, 0,
                                            job.tableau.player_array, job.tableau.banker_array, starts, cells, winners)
    dealt = np.zeros((deck.size - burned + 1, 52), dtype=np.int64)
    dealt[np.arange(1, deck.size - burned + 1), deck[burned:].astype(np.int64)] = 1
    seen = np.cumsum(dealt, axis=0)
    seen[:, deck[0]] += 1  # the face-up burn card
    unseen = full - seen[starts[:coups] - burned]
    ev, placed = exact_expectations(unseen, job.bet, job.tableau)
    results = bet_table((job.bet,))[0][cells[:coups], 0]
    return PerfectShoe(coups, unseen, ev, placed, results)


@dataclass
class PerfectSums:
    """The perfect counter's per-shoe sums, one row a shoe (:func:`perfect_sums`).

    ``table``: the columns :data:`COLUMNS` (hands, bets placed, net, sum of squared results, wins;
    results in units of 1 / denominator); ``ev_placed``: the sum (:func:`math.fsum`) of the float
    expectations of the bets placed; ``ev_all``: of every coup's (None unless asked for);
    ``compiled``: whether the compiled loop dealt them.
    """

    table: np.ndarray
    ev_placed: np.ndarray
    ev_all: np.ndarray | None
    compiled: bool


@lru_cache(maxsize=32)
def _compiled_args(job: CountJob) -> tuple | None:
    """Arguments of :func:`baccara.sim._perfect_kernel.perfect_ev_chunk` after ``seed, first, out, evs`` and
    before ``price_all`` (the compiled loop loaded, untimed), or None where the Python path prices the job."""
    args = _perfect_args(job.punto)
    if args is None:
        return None
    from . import _perfect_kernel as PK  # lazy: compiles or loads the compiled perfect counter only for it

    args = (*args, np.array(bet_table((job.bet,))[1], dtype=np.float64))
    PK.perfect_ev_chunk(job.seed, 0, np.zeros((0, len(COLUMNS)), dtype=np.int64),
                        np.zeros((0, max_coups(job.decks, "cut", job.cut, 0))), *(*args, False))
    return args


def fold_perfect(table: np.ndarray, evs: np.ndarray, every_coup: bool, compiled: bool = True,
                 into: PerfectSums | None = None, at: int = 0, *, reference: bool = False) -> PerfectSums:
    """Each shoe's sums of the float expectations of its coups, as :func:`perfect_sums` takes them.

    ``ev_placed[s]`` is the :func:`math.fsum` of shoe s's expectations above 0 (its bets: placed exactly
    where the expectation is above 0, and NaN, a decision not priced, is not), ``ev_all[s]`` of its first
    ``table[s, 0]`` (its hands'): the CPU's threads and the GPU (:func:`baccara.sim.gpu.perfect_ev_gpu`) both
    hand their expectations on here, so the figures are the same to the last bit.  The sums are taken by
    :func:`baccara.sim._fsum_kernel.fold_shoes`, math.fsum compiled (the same floats to the last bit, some
    tens of times faster than a Python loop over the shoes, and without the GIL).

    Parameters
    ----------
    table : numpy.ndarray
        The shoes' rows (:data:`COLUMNS`), (m, 5) int64.
    evs : numpy.ndarray
        ``evs[s, j]``: shoe s's coup j's expectation (NaN past its coups), (m, coups).
    every_coup : bool
        Also sum every coup's expectation (``ev_all``).
    compiled : bool
        Whether the compiled loop dealt them (:attr:`PerfectSums.compiled`).
    into : PerfectSums, optional
        Sums to write rows ``at .. at + m - 1`` of (default: new sums of these shoes alone).
    at : int
        The first row of ``into``.
    reference : bool
        Sum by :func:`math.fsum` in a Python loop over the shoes (the reference the compiled fold is tested
        and timed against).

    Returns
    -------
    PerfectSums
        ``into``, or the new sums.
    """
    m = table.shape[0]
    if into is None:
        into = PerfectSums(np.zeros((m, len(COLUMNS)), dtype=np.int64), np.zeros(m),
                           np.zeros(m) if every_coup else None, compiled)
        at = 0
    into.table[at:at + m] = table
    if not reference:
        all_ = _NO_FLOATS if into.ev_all is None else into.ev_all[at:at + m]
        FK.fold_shoes(np.ascontiguousarray(table, dtype=np.int64), np.ascontiguousarray(evs, dtype=np.float64),
                      into.ev_placed[at:at + m], all_, into.ev_all is not None)
        return into
    for s in range(m):
        e = evs[s]
        into.ev_placed[at + s] = math.fsum(e[e > 0])  # placed exactly where the expectation is above 0 (NaN is not)
        if into.ev_all is not None:
            into.ev_all[at + s] = math.fsum(e[:max(int(table[s, 0]), 0)])  # as the compiled fold reads it
    return into


def _perfect_result(index: int, sums: PerfectSums, t0: float) -> ChunkResult:
    """The chunk result of the perfect counter's shoes ``sums`` (begun at ``time.perf_counter()`` ``t0``): each
    shoe's floats handed on exactly, so the total does not depend on the chunks (nor on the backend)."""
    table, evs = sums.table, sums.ev_placed
    hands, placed = table[:, 0].astype(float), table[:, 1].astype(float)
    partials = {"ev": FK.partials(evs).tolist(), "ev*ev": FK.partials(evs * evs).tolist(),  # exact_partials's sums
                "ev*hands": FK.partials(evs * hands).tolist(), "ev*placed": FK.partials(evs * placed).tolist()}
    cols = {k: table[:, i] for i, k in enumerate(COLUMNS)}
    return ChunkResult(index=index, shoes=table.shape[0], hands=int(cols["hands"].sum()),
                       sums=column_sums(cols, _PAIRS), partials=partials, seconds=time.perf_counter() - t0,
                       extra={"evaluations": int(cols["hands"].sum())})


def perfect_sums(job: CountJob, first: int, n: int, pool=None, every_coup: bool | None = None,
                 compiled: bool = True, gpu: bool = False) -> PerfectSums:
    """The perfect counter on shoes ``first .. first + n - 1`` of ``job``, summed shoe by shoe.

    Bets on card values run compiled (:func:`baccara.sim._perfect_kernel.perfect_ev_chunk`: the
    deal, the exact pricing and the sums without Python per coup) on the threads of ``pool``;
    bets on pairs, and shoes too large for 64-bit counts, run :func:`perfect_shoe` shoe by shoe.
    Both give the same sums to the last bit: the expectations are the same floats
    (:attr:`baccara.punto.exact.ShoeEdges.ev`), each shoe's summed by :func:`math.fsum` (compiled, by each
    thread for its own shoes, :func:`fold_perfect`'s sums; the GPU's launches folded while the next runs).

    Parameters
    ----------
    job : CountJob
        A perfect-counter job.
    first, n : int
        The first shoe and the number of shoes.
    pool : ThreadPoolExecutor, optional
        Threads to share the shoes among (the compiled path releases the GIL).
    every_coup : bool, optional
        Also sum every coup's expectation (``ev_all``; the compiled path then prices every coup);
        default: the job's :attr:`CountJob.every_coup`.
    compiled : bool
        False: the Python path whatever the bet (the reference the compiled loop is tested and timed against).
    gpu : bool
        Deal and price the shoes on the GPU (:func:`baccara.sim.gpu.perfect_ev_gpu`, bets on card values only),
        summed here as the threads' (the same sums to the last bit).

    Returns
    -------
    PerfectSums
        One row a shoe.

    Raises
    ------
    ParameterError
        ``gpu`` where there is no GPU (nor the CUDA simulator), or on a bet the GPU does not price.
    """
    every_coup = job.every_coup if every_coup is None else every_coup
    table, ev_placed = np.zeros((n, len(COLUMNS)), dtype=np.int64), np.zeros(n)
    ev_all = np.zeros(n) if every_coup else None
    if gpu:
        from .gpu import perfect_ev_gpu  # lazy: numba-cuda only when the GPU is asked for

        out = PerfectSums(table, ev_placed, ev_all, True)
        for lo, part, evs in perfect_ev_gpu(job, first, n, every_coup):
            fold_perfect(part, evs, every_coup, into=out, at=lo)
        return out
    args = _compiled_args(job) if compiled else None
    if args is None:
        for s in range(n):
            d = perfect_shoe(job, first + s)
            r = d.results[d.placed]
            table[s] = (d.hands, int(d.placed.sum()), int(r.sum()), int((r ** 2).sum()), int((r > 0).sum()))
            ev_placed[s] = math.fsum(d.ev[d.placed])
            if ev_all is not None:
                ev_all[s] = math.fsum(d.ev)
        return PerfectSums(table, ev_placed, ev_all, False)
    from . import _perfect_kernel as PK  # lazy: loaded by _compiled_args already

    cap, rest = max_coups(job.decks, "cut", job.cut, 0), (*args, every_coup)
    every = _NO_FLOATS if ev_all is None else ev_all

    def block(a: int, b: int) -> None:  # each coup's expectation kept for these shoes only, then folded by this thread
        evs = np.empty((b - a, cap))
        PK.perfect_ev_chunk(job.seed, first + a, table[a:b], evs, *rest)
        FK.fold_shoes(table[a:b], evs, ev_placed[a:b], every[a:b] if every.size else every, every_coup)

    in_blocks(pool, n, block, most=_EV_BLOCK)  # no barrier but the last: the threads take blocks as they finish
    return PerfectSums(table, ev_placed, ev_all, True)


# ---------------------------------------------------------------- figures
def _nan_none(x: float) -> float | None:
    return None if x is None or not math.isfinite(x) else float(x)


def risk_of_ruin(mean_: float, variance: float, bankroll_units: float) -> float:
    """The diffusion approximation of the risk of ruin: exp(-2 mean B / variance), 1 when mean <= 0.

    Parameters
    ----------
    mean_ : float
        Expected win per period (a shoe, a hand), in units.
    variance : float
        Variance of the win per period, in units squared.
    bankroll_units : float
        The bankroll B, in units (bankroll / bet size); positive.

    Returns
    -------
    float
        The probability of ever losing the bankroll, playing on forever.

    Raises
    ------
    BaccaraError
        A bankroll that is not positive and finite.
    """
    if not (isinstance(bankroll_units, (int, float)) and math.isfinite(bankroll_units) and bankroll_units > 0):
        raise ParameterError(f"--bankroll must be a positive number of units, got {bankroll_units!r}")
    if not mean_ > 0:
        return 1.0
    if variance <= 0:
        return 0.0
    return math.exp(-2.0 * mean_ * bankroll_units / variance)


@dataclass
class Figures:
    """One bettor's figures (a count or the perfect counter); see the module docstring for the definitions."""

    who: str
    shoes: int
    hands: int
    placed: int
    bet_frequency: Estimate
    edge_when_betting: Estimate
    win_per_100: Estimate
    win_per_shoe: Estimate
    sd_per_bet: float
    sd_per_shoe: float
    sd_per_hand: float
    expected: dict | None = None

    @property
    def mean_per_hand(self) -> float:
        """The expected win per hand (the perfect counter's from its exact expectations)."""
        if self.expected is not None:
            return self.expected["win_per_100_hands"] / 100
        return self.win_per_100.value / 100

    def score(self) -> dict:
        """DI, N0 and SCORE from the win and SD per hand (None unless the win is positive).

        Returns
        -------
        dict
            ``di``, ``n0`` (hands) and ``score`` (units per 100 hands, 10,000-unit bankroll, Kelly bets).
        """
        mu, sd = self.mean_per_hand, self.sd_per_hand
        if not (mu > 0 and sd > 0):
            return {"di": None, "n0": None, "score": None}
        return {"di": 1000 * mu / sd, "n0": (sd / mu) ** 2, "score": SCORE_BANKROLL * 100 * (mu / sd) ** 2}

    def ruin(self, bankroll_units: float) -> float:
        """Risk of ruin with ``bankroll_units`` units (per-shoe diffusion; module docstring)."""
        mu = self.mean_per_hand * self.hands / self.shoes
        return risk_of_ruin(mu, self.sd_per_shoe ** 2, bankroll_units)

    def to_json(self) -> dict:
        def est(e: Estimate) -> dict:
            return {"value": _nan_none(e.value), "stderr": _nan_none(e.stderr)}

        out = {"shoes": self.shoes, "hands": self.hands, "bets": self.placed,
               "hands_per_shoe": self.hands / self.shoes, "bets_per_shoe": self.placed / self.shoes,
               "bet_frequency": est(self.bet_frequency), "edge_when_betting": est(self.edge_when_betting),
               "win_per_100_hands": est(self.win_per_100), "win_per_shoe": est(self.win_per_shoe),
               "sd_per_bet": _nan_none(self.sd_per_bet), "sd_per_shoe": _nan_none(self.sd_per_shoe),
               "sd_per_hand": _nan_none(self.sd_per_hand)}
        out.update({k: _nan_none(v) if v is not None else None for k, v in self.score().items()})
        if self.expected is not None:
            out["expected"] = {k: _nan_none(v) for k, v in self.expected.items()}
        return out


def figures(who: str, total: ChunkResult, den: int) -> Figures:
    """A bettor's figures from the combined per-shoe sums.

    Parameters
    ----------
    who : str
        ``"count"`` or ``"perfect"``.
    total : ChunkResult
        The combined chunks of a :class:`CountJob`.
    den : int
        The bet's payout denominator (results are kept in units of 1 / den).

    Returns
    -------
    Figures
        Every figure of the report, with standard errors (shoes as clusters).
    """
    S, s = total.shoes, total.sums
    placed, net, sq = s["placed"], s["net"], s["sq"]
    sd_bet = math.nan
    if placed:
        m = Fraction(net, placed)
        sd_bet = math.sqrt(max(float(Fraction(sq, placed) - m * m), 0.0)) / den
    sd_shoe = math.nan
    if S > 1:
        sd_shoe = math.sqrt(max(float((s["net*net"] - Fraction(net * net, S)) / (S - 1)), 0.0)) / den
    per_shoe = total.hands / S
    win100 = ratio(s, "net", "hands", S, den)
    fig = Figures(who, S, total.hands, placed, ratio(s, "placed", "hands", S), ratio(s, "net", "placed", S, den),
                  Estimate(100 * win100.value, 100 * win100.stderr, win100.num, win100.den),
                  mean(s, "net", S, den), sd_bet, sd_shoe, sd_shoe / math.sqrt(per_shoe))
    if "ev" in total.floats:
        f = total.floats
        ev = f["ev"]
        H = total.hands

        def cluster_se(y: float, yy: float, xy: float, xx: float, X: float) -> float:
            if S < 2 or X == 0:
                return math.nan
            r = y / X
            return math.sqrt(max((yy - 2 * r * xy + r * r * xx) / (X * X) * S / (S - 1), 0.0))

        fig.expected = {
            "edge_when_betting": ev / placed if placed else math.nan,
            "edge_when_betting_stderr": cluster_se(ev, f["ev*ev"], f["ev*placed"], s["placed*placed"], placed),
            "win_per_100_hands": 100 * ev / H,
            "win_per_100_hands_stderr": 100 * cluster_se(ev, f["ev*ev"], f["ev*hands"], s["hands*hands"], H),
            "win_per_shoe": ev / S,
        }
    return fig


@dataclass(repr=False)
class CountReport(SimResult):
    """What a count system wins on one bet, beside the exact values and the perfect counter.

    ``to_json()`` is the document of ``baccara count --json``; ``show()`` prints its table.
    """

    count_job: CountJob
    count: Figures
    perfect: Figures | None
    exact: dict
    bankroll: float
    unit: float
    run: dict = field(default_factory=dict)

    @property
    def bankroll_units(self) -> float:
        """The bankroll in betting units."""
        return self.bankroll / self.unit

    def efficiency(self) -> dict | None:
        """The count's win per 100 hands over the perfect counter's expected win (with an approximate se).

        Returns
        -------
        dict or None
            ``value`` and ``stderr`` (delta method, the two estimates taken as independent);
            None without a perfect counter or when its win is not positive.
        """
        if self.perfect is None or self.perfect.expected is None:
            return None
        p = self.perfect.expected["win_per_100_hands"]
        ps = self.perfect.expected["win_per_100_hands_stderr"]
        c, cs = self.count.win_per_100.value, self.count.win_per_100.stderr
        if not p > 0:
            return None
        eff = c / p
        se = abs(eff) * math.sqrt((cs / c) ** 2 + (ps / p) ** 2) if c and math.isfinite(cs) and math.isfinite(ps) \
            else math.nan
        return {"value": eff, "stderr": _nan_none(se)}

    def document(self) -> dict:
        j = self.count_job
        assert j.count is not None
        counted = self.count.to_json()
        z = self.count.edge_when_betting.z(self.exact["ev"])
        counted["z_edge_vs_exact_full_shoe"] = _nan_none(z) if z is not None else None
        doc: dict = {
            "game": "punto",
            "report": "count",
            "bet": j.bet.name,
            "seed": j.seed,
            "shoe": {"decks": j.decks, "cut": j.cut,
                     "procedure": "first card shown and that many burned face down (unseen); the coup in which "
                                  "the cut card appears is finished and one more is dealt"},
            "count": j.count.to_json(),
            "rule": j.count.rule_for(j.bet.name).describe(),  # type: ignore[union-attr]
            "exact": self.exact,
            "count_figures": counted,
            "perfect": self.perfect.to_json() if self.perfect is not None else None,
            "efficiency": self.efficiency(),
            "risk_of_ruin": {"bankroll": self.bankroll, "unit": self.unit, "bankroll_units": self.bankroll_units,
                             "count": self.count.ruin(self.bankroll_units),
                             "perfect": self.perfect.ruin(self.bankroll_units) if self.perfect else None},
            "definitions": DEFINITIONS,
            "run": self.run,
        }
        return doc

    def report(self, doc: dict) -> list[RenderableType]:
        return count_report(doc)


DEFINITIONS = {
    "bet_frequency": "bets placed per hand dealt",
    "edge_when_betting": "mean result per unit bet, over the bets placed (player's advantage)",
    "win_per_100_hands": "units won per 100 hands dealt (one unit a bet)",
    "sd_per_bet": "standard deviation of one bet's result, over the bets placed",
    "sd_per_hand": "SD per shoe / sqrt(hands per shoe) (counts the correlation within a shoe)",
    "di": "1000 x win per hand / SD per hand (Schlesinger, Blackjack Attack)",
    "n0": "(SD per hand / win per hand)^2 hands: the expected win equals one SD (Schlesinger)",
    "score": "10^6 x (win per hand / SD per hand)^2 = DI^2: units won per 100 hands with a 10,000-unit "
             "bankroll and Kelly bets (Schlesinger's SCORE)",
    "risk_of_ruin": "exp(-2 mu B / sigma^2), mu and sigma^2 the mean and variance of a shoe's win, B the "
                    "bankroll in units; 1 when mu <= 0 (the diffusion approximation)",
    "efficiency": "count's win per 100 hands / perfect counter's expected win per 100 hands",
    "perfect_expected": "the perfect counter's figures from the exact expectations of the bets it placed",
}


def _pct(e: dict | None, scale: float = 100, digits: int = 3, sign: str = "+") -> str:
    if e is None or e.get("value") is None:
        return "-"
    se = e.get("stderr")
    return f"{e['value'] * scale:{sign}.{digits}f}" + (f" ± {se * scale:.{digits}f}" if se is not None else "")


def _num(x: float | None, fmt: str) -> str:
    return "-" if x is None else format(x, fmt)


def count_report(doc: dict) -> list[RenderableType]:
    """The count report for people: one column for the count, one for the perfect counter.

    Parameters
    ----------
    doc : dict
        A :class:`CountReport`'s document.

    Returns
    -------
    list
        Text lines and a table.
    """
    c, p = doc["count_figures"], doc["perfect"]
    sh = doc["shoe"]
    lines: list[RenderableType] = [
        f"Count {doc['count']['name']!r} on {doc['bet']}: {sh['decks']} decks, cut card {sh['cut']} from the end, "
        f"{c['shoes']:,} shoes, seed {doc['seed']}",
        f"rule: {doc['rule']}; exact player's edge from the full shoe {doc['exact']['ev'] * 100:+.4f}% "
        f"({doc['exact']['ev_exact']}; a house edge of {-doc['exact']['ev'] * 100:.4f}%)"]
    cols = ["figure", "count"] + (["perfect counter"] if p else [])
    t = _table(f"{doc['bet']}: one unit a bet", cols)

    def row(label: str, key: str, fmt) -> None:
        t.add_row(label, fmt(c.get(key)), *([fmt(p.get(key))] if p else []))

    row("shoes", "shoes", lambda x: f"{x:,}")
    row("hands", "hands", lambda x: f"{x:,}")
    row("bets", "bets", lambda x: f"{x:,}")
    row("bet frequency, %", "bet_frequency", lambda e: _pct(e, 100, 3, ""))
    row("player's edge when betting, %", "edge_when_betting", lambda e: _pct(e, 100, 3))
    row("win per 100 hands", "win_per_100_hands", lambda e: _pct(e, 1, 4))
    row("win per shoe", "win_per_shoe", lambda e: _pct(e, 1, 4))
    row("SD per bet", "sd_per_bet", lambda x: _num(x, ".3f"))
    row("SD per shoe", "sd_per_shoe", lambda x: _num(x, ".3f"))
    row("SD per hand", "sd_per_hand", lambda x: _num(x, ".4f"))
    row("DI", "di", lambda x: _num(x, ".2f"))
    row("N0 (hands)", "n0", lambda x: _num(x, ",.0f"))
    row("SCORE", "score", lambda x: _num(x, ".3f"))
    r = doc["risk_of_ruin"]
    t.add_row(f"risk of ruin, {r['bankroll_units']:g} units", f"{r['count']:.4g}",
              *([f"{r['perfect']:.4g}"] if p else []))
    lines.append(t)
    if p and p.get("expected"):
        e = p["expected"]

        def signed(x, scale: float = 1.0, unit: str = "") -> str:  # None: no bet, or one shoe (no spread)
            return "n/a" if x is None else f"{x * scale:+.4f}{unit}"

        se = e.get("win_per_100_hands_stderr")
        lines.append(f"perfect counter, exact expectations of its bets: player's edge when betting "
                     f"{signed(e['edge_when_betting'], 100, '%')}, win per 100 hands {signed(e['win_per_100_hands'])}"
                     f"{'' if se is None else f' ± {se:.4f}'}, per shoe {signed(e['win_per_shoe'])}")
    if doc["efficiency"]:
        ef = doc["efficiency"]
        se = f" ± {ef['stderr'] * 100:.1f}" if ef.get("stderr") is not None else ""
        lines.append(f"efficiency (count's win / perfect counter's): {ef['value'] * 100:.1f}%{se}")
    z = c.get("z_edge_vs_exact_full_shoe")
    if z is not None and c["bet_frequency"]["value"] == 1:
        lines.append(f"the count bets every hand: player's edge when betting vs the exact one from the full shoe, "
                     f"z = {z:+.2f}")
    lines.append("SD, DI, N0, SCORE and risk of ruin as defined in --json's 'definitions' (Schlesinger, "
                 "Blackjack Attack; diffusion approximation)")
    return lines


# ---------------------------------------------------------------- the analysis
def exact_full_shoe(decks: int, bet: Bet, tableau: Tableau = PUNTO_BANCO) -> dict:
    """The bet's exact expectation on a coup from the full shoe.

    Parameters
    ----------
    decks : int
        Decks in the shoe.
    bet : Bet
        The bet.
    tableau : Tableau
        The drawing rules.

    Returns
    -------
    dict
        ``ev`` (float), ``ev_exact`` ("num/den") and ``sd`` of one bet.
    """
    r = evaluate_bets(coup_distribution(Shoe.decks(decks), tableau), (bet,))[bet.name]
    return {"ev": float(r.ev), "ev_exact": fraction_str(r.ev), "sd": r.sd}


#: Why a count analysis with ``backend="gpu"`` runs its perfect counter on the CPU.
PERFECT_ON_CPU = ("the perfect counter on this bet ran on the CPU (the threads backend; processes where the exact "
                  "engine runs in Python): the GPU prices bets on card values only (pair bets are priced at rank "
                  "level by the exact engine in Python, as are shoes whose exact counts could pass 64-bit integers)")


def perfect_on_gpu(job: CountJob) -> bool:
    """Whether the GPU backend runs this perfect-counter job (a bet on card values, priced in 64-bit integers).

    Parameters
    ----------
    job : CountJob
        A perfect-counter job.

    Returns
    -------
    bool
        True where :func:`baccara.sim.gpu.perfect_ev_gpu` prices it; False for pair bets (and shoes whose
        exact counts could pass 64-bit integers), which the CPU prices (:data:`PERFECT_ON_CPU`).
    """
    return job.perfect and _compiled_args(job) is not None


def analyse_count(count: CountSystem, bet: Bet | str, *, decks: int = 8, shoes: int = 100_000, seed: int = 0,
                  cut: int | None = None, perfect_shoes: int | None = None, bankroll: float = 1000.0,
                  unit: float = 1.0, tableau: Tableau = PUNTO_BANCO, backend: str = "threads",
                  workers: int | None = None, scheduler: str | None = None,
                  progress: Callable[[int, int, int], None] | None = None) -> CountReport:
    """Simulate a count system on one bet, and the perfect counter on the first of the same shoes.

    Parameters
    ----------
    count : CountSystem
        The count; it must have a betting rule for ``bet``.
    bet : Bet or str
        The bet, or the name of a built-in bet.
    decks : int
        Decks in the shoe.
    shoes : int
        Shoes for the count.
    seed : int
        The seed: shoe i is the same for the count and the perfect counter.
    cut : int, optional
        Cards behind the cut card (default: the count file's, else 14).
    perfect_shoes : int, optional
        Shoes for the perfect counter, the first of the count's (default: min(shoes, 2,000)
        on card-value bets, min(shoes, 200) on pair bets, 0 on bets on the cards themselves,
        which the perfect counter cannot price fast enough; 0: no perfect counter).
    bankroll, unit : float
        The bankroll and the bet size (risk of ruin with bankroll / unit units); positive.
    tableau : Tableau
        The drawing rules.
    backend, workers, scheduler
        As :func:`baccara.sim.distributed.run`; with ``gpu`` the count and, on bets on card values, the
        perfect counter run on the GPU (the same figures as on the CPU's threads, to the last bit); the perfect
        counter on pair bets runs on the CPU, as with ``threads`` (its run info says so, with a note).

    progress : callable, optional
        ``progress(shoes done, shoes in all, hands done)`` after each chunk, counting the count's shoes,
        then the perfect counter's; it may raise to stop the run.
    Returns
    -------
    CountReport
        The figures of the count and of the perfect counter, the efficiency, risk of ruin.

    Raises
    ------
    BaccaraError
        Bad input (no rule for the bet, a bankroll or unit that is not positive), or a
        trigger that never fired in the shoes dealt.
    """
    bet = coerce_bet(bet)
    for name, v in (("--bankroll", bankroll), ("--unit", unit)):
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v <= 0:
            raise BaccaraError(f"{name} must be a positive number, got {v!r}")
    check_bet_counts(count, bet.name)
    cut = cut if cut is not None else (count.cut or DEFAULT_COUNT_CUT)
    job = CountJob(seed, shoes, decks, bet, count, cut, tableau)
    if perfect_shoes is None:  # none for a bet on the cards themselves: the perfect counter refuses it (too slow)
        perfect_shoes = 0 if bet.card_level else min(shoes, 2000 if bet.resolution == "value" else 200)
    if isinstance(perfect_shoes, bool) or not isinstance(perfect_shoes, int) or not 0 <= perfect_shoes <= shoes:
        raise ParameterError(f"--perfect-shoes must be an integer from 0 to --shoes ({shoes}), got {perfect_shoes!r}")
    den = bet_table((bet,))[1][0]
    everything = shoes + perfect_shoes
    total, info = run(job, backend, workers, scheduler,
                      None if progress is None else lambda d, _, h: progress(d, everything, h))
    if total.sums["placed"] == 0:
        rule = count.rule_for(bet.name)
        raise ParameterError(f"--count: the trigger never fired: count {count.name!r} never bet on {bet.name} in "
                           f"{shoes:,} shoes ({rule.describe() if rule else ''}); lower its at_least (or raise its "
                           f"at_most), or deal more --shoes")
    run_info = {"count": info.to_json()}
    perfect = None
    if perfect_shoes:
        pjob = CountJob(seed, perfect_shoes, decks, bet, None, cut, tableau, chunk_size=8)
        on_cpu = backend == "gpu" and not perfect_on_gpu(pjob)  # pair bets: priced by the exact engine in Python
        ptotal, pinfo = run(pjob, "threads" if on_cpu else backend, workers, scheduler,
                            None if progress is None else lambda d, _, h: progress(shoes + d, everything, h))
        perfect = figures("perfect", ptotal, den)
        run_info["perfect"] = pinfo.to_json()
        if on_cpu:
            run_info["perfect"]["note"] = PERFECT_ON_CPU
    return CountReport(job, figures("count", total, den), perfect, exact_full_shoe(decks, bet, tableau),
                       float(bankroll), float(unit), run_info)


__all__ = ["PERFECT_ON_CPU", "CountJob", "CountReport", "Figures", "PerfectShoe", "PerfectSums", "analyse_count",
           "exact_expectations", "exact_full_shoe", "figures", "fold_perfect", "perfect_on_gpu", "perfect_shoe",
           "perfect_sums", "risk_of_ruin", "fnum"]
