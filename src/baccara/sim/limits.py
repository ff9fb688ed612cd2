"""How much a simulation may ask for, and how long it will take.

Every size a user can type is bounded, so that bad input gets a clear error
instead of a 48 GiB allocation or a run that never ends:

* :data:`MAX_DECKS` decks in a simulated shoe (one shoe of 10,000 decks is
  520,000 cards: half a megabyte per worker; the exact engine takes larger
  shoes, the simulation has no use for them);
* :data:`MAX_COUPS` coups per shoe without a cut card (about the coups of a
  10,000-deck shoe);
* :data:`MAX_SHOES` shoes in one run, whatever else is said;
* a run estimated at more than :data:`MAX_CORE_SECONDS` (an hour) of one
  core's work at the nominal rates below (about 5 x 10^10 punto banco hands, or
  3.6 million perfect-counter evaluations of a shoe of up to 22 decks with pair
  bets, 180 million with bets on card values only), or one
  writing more than :data:`MAX_OUT_ROWS` Parquet rows, is refused unless the
  user says ``--allow-long`` (a run on the GPU, ``--backend gpu``: an hour of
  the GPU's work at its nominal rates, :data:`NOMINAL_GPU_RATES`); ``--out`` never takes more than
  :data:`MAX_OUT_ROWS_HARD` rows.  Memory does not grow with the number of shoes
  either way: chunks of shoes are combined and written as they finish.

:func:`estimate_work` predicts the hands (from the cards a shoe deals and the
mean cards a coup takes) and the seconds at nominal per-worker rates, before
anything runs; :func:`check_work` applies the limits.  :func:`size_on_gpu` sizes a default run on the
GPU (``count``, ``count design``, ``report`` with ``--backend gpu``: their counts, and their perfect counter
on bets on card values) from the GPU's nominal rate.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

from ..errors import BaccaraError, ParameterError
from ..shoe import CARDS_PER_COUP as COUP_CARDS  # the most a coup takes: 6
from ..workload import LIMIT_SECONDS, Sizing, about, format_duration, size_to_budget

#: The most decks in a simulated shoe.
MAX_DECKS = 10_000
#: Cards behind the cut card by default (8 decks: casinos cut 14 to 16 cards from the end,
#: and the published count analyses use 14 or 16).
DEFAULT_CUT = 14


def min_cut(max_cards: int) -> int:
    """The fewest cards behind the cut card that let the coup after it be finished.

    Parameters
    ----------
    max_cards : int
        The most cards one coup takes (6 in punto banco and chemin de fer, 9 in banque).

    Returns
    -------
    int
        ``2 * max_cards - 1``: one more coup follows the one in which the cut
        card appears; that one may start one card before the cut card and take
        ``max_cards`` cards, then the last coup may take ``max_cards`` more
        (:mod:`baccara.sim.shoe_deal`).
    """
    return 2 * max_cards - 1


#: The most coups per shoe when there is no cut card (``--deal csm``, ``--decks inf``).
MAX_COUPS = 100_000
#: The most shoes (sessions) in one run, even with ``--allow-long``.
MAX_SHOES = 10**15
#: Runs estimated above this many seconds of one core's work need ``--allow-long``.
MAX_CORE_SECONDS = LIMIT_SECONDS
#: ``--out`` above this many rows (shoes) needs ``--allow-long`` (tens of bytes a row on disk).
MAX_OUT_ROWS = 10**8
#: ``--out`` never takes more rows than this: the Parquet writer keeps a little metadata per row
#: group until the file closes (~200 MB at 10^9 rows), and the file would be ~40 GB.
MAX_OUT_ROWS_HARD = 10**9
#: The largest denominator of a rational option (commission, payouts, theta): nine decimals.
MAX_DENOMINATOR = 10**9

#: Nominal speed of one worker (one core), hands a second, by kind of run; measured and rounded
#: down: the estimate is an order of magnitude, not a promise.  Punto banco measured (8 decks): the
#: main bets about 84 M a CPU-second, other flat bets about 35 M, nine bets with a count about 19 M.
NOMINAL_RATES = {"punto": 15e6, "count": 10e6, "chemin": 8e6, "banque": 5e6, "cards": 6e6}
#: ("cards": punto banco with a bet on the cards themselves, each coup's cards read by the card engine's
#: rules: measured 12-16 M hands per CPU-second on a loaded 2-core machine, one to four bets.)
#: Exact evaluations a second of one worker running the perfect counter: the exact engine
#: counts in int64 while 4 * cards^6 fits (up to 22 decks), in Python integers beyond.
NOMINAL_EVALUATIONS_RATE = 1000.0
NOMINAL_EVALUATIONS_RATE_BIG = 20.0
#: The same when every bet depends on card values only: the shoes are dealt and priced in compiled
#: code (:mod:`baccara.sim._perfect_kernel`), some 400,000 decisions a CPU-second on Dragon 7 and
#: 120,000 with Banker or Player (benchmarks/bench_perfect.py, a shared machine); the nominal rate
#: keeps a margin below the slower, and covers the Python path that shoes too large for 64-bit counts
#: take (about 82,000 a CPU-second).
NOMINAL_EVALUATIONS_RATE_VALUE = 80_000.0
#: Nominal speed of one GPU (``--backend gpu``), hands a second, by kind of run: not yet measured for these
#: kernels on a GPU (``benchmarks/device_check_gpu.py`` measures them), so set far below the 13.9 G hands a
#: second a prototype of the flat-bet kernel dealt on one H200, with the same margins as the CPU's rates.  Runs
#: are checked against an hour of the GPU's work, as CPU runs are against an hour of one core's.
NOMINAL_GPU_RATES = {"punto": 1e9, "count": 5e8, "cards": 2e8}
#: The perfect counter on one GPU, exact evaluations a second (bets on card values): nominally 100 cores'.
NOMINAL_GPU_EVALUATIONS_RATE = 100 * NOMINAL_EVALUATIONS_RATE_VALUE
#: One CPU core's fold of a shoe of the count analysis's perfect counter on the GPU (each shoe's expectations
#: summed exactly, :func:`baccara.sim.count_analysis.fold_perfect`): measured 0.09 us a shoe for ``count`` and
#: 0.15 us for ``report`` (every coup priced) on 8-deck shoes to the cut card, a loaded 2-core machine
#: (benchmarks/bench_perfect.py --fold-only; the Python fsum loop it replaced took 1.8 and 4.8 us), some 1.5% of
#: a shoe at the nominal rate (10 us).  The CPU folds a launch while the GPU deals the next, so a run takes the
#: longer of the two a shoe: the sizing counts this, with a margin, should the GPU's rate be raised past it.
NOMINAL_GPU_FOLD_SECONDS = 1e-6
#: Why the GPU does not run the perfect counter on pair bets (:func:`gpu_perfect_refusal`).
GPU_PERFECT_PAIRS = ("--backend gpu runs the perfect counter on bets on card values only: pair bets are priced at rank "
                     "level by the exact engine in Python, on the CPU; run them with --backend threads or processes")
#: Mean cards a coup takes (measured over 10,000-deck shoes).
CARDS_PER_COUP = {"punto": 4.94, "chemin": 4.94, "banque": 7.51}
#: Mean cards the burn takes: the face-up card and its value, aces 1, tens and faces 10.
MEAN_BURN = 1 + (sum(range(1, 10)) + 4 * 10) / 13
#: Bytes a Parquet row takes on disk, roughly (compressed integers and a few floats).
ROW_BYTES = 40


@dataclass(frozen=True)
class WorkEstimate:
    """What a run will deal and about how long it will take.

    Attributes
    ----------
    game : str
        ``punto``, ``chemin`` or ``banque``.
    shoes : int
        Shoes (sessions) to deal.
    decks : int or None
        Decks in the shoe (None: infinite).
    hands_per_shoe : float
        Expected coups of one shoe.
    hands : float
        Expected coups of the run.
    evaluations : float
        Expected exact evaluations (perfect counter; 0 otherwise).
    rate : float
        Nominal hands (perfect counter: evaluations) a second of one worker.
    workers : int
        Workers the estimate assumes.
    seconds : float
        Expected wall-clock seconds of the simulation proper.
    rows : int
        Parquet rows to write (0 without ``--out``).
    gpu : bool
        Whether the run is on one GPU (``--backend gpu``: ``rate`` is the GPU's, ``workers`` 1).
    """

    game: str
    shoes: int
    decks: int | None
    hands_per_shoe: float
    hands: float
    evaluations: float
    rate: float
    workers: int
    seconds: float
    rows: int = 0
    gpu: bool = False

    @property
    def on(self) -> str:
        """Where the run goes, for people: ``2 workers`` or ``1 GPU`` (at a nominal rate)."""
        if self.gpu:
            return "1 GPU, at a nominal rate"
        return f"{self.workers} worker{'s' if self.workers != 1 else ''}"

    def describe(self) -> str:
        """One line for people, e.g. ``about 3 min for 1,000,000 8-deck shoes (~82 M hands at ~7 M hands/s)``.

        Returns
        -------
        str
            The estimate in words.
        """
        what = "infinite-shoe" if self.decks is None else f"{self.decks}-deck"
        noun = "shoe" if self.shoes == 1 else "shoes"
        if self.evaluations:
            speed = f"~{_count(self.evaluations)} exact evaluations at ~{_count(self.rate * self.workers)} a second"
        else:
            speed = f"~{_count(self.hands)} hands at ~{_count(self.rate * self.workers)} hands/s"
        speed += f" on {self.on}"
        text = f"{about(self.seconds)} for {self.shoes:,} {what} {noun} ({speed})"
        if self.rows:
            text += f"; --out: {self.rows:,} rows, ~{_bytes(self.rows * ROW_BYTES)}"
        return text


def hands_per_shoe(game: str, decks: int | None, deal: str, cut: int, coups: int) -> float:
    """Expected coups of one shoe.

    Parameters
    ----------
    game : str
        ``punto``, ``chemin`` or ``banque`` (banque coups take more cards).
    decks : int or None
        Decks in the shoe; None for an infinite shoe.
    deal : str
        ``cut`` (to the cut card), ``csm`` or ``infinite``.
    cut : int
        Cards behind the cut card (``deal="cut"``).
    coups : int
        Coups per shoe without a cut card.

    Returns
    -------
    float
        The expected coups: ``coups`` without a cut card, else the cards dealt
        before the cut card over the mean cards a coup takes, plus 1.5: about
        half a coup for the one in which the cut card appears, and the one
        after it (within 0.1 coup of simulated shoes).
    """
    if deal != "cut" or decks is None:
        return float(coups)
    cards = max(52 * decks - cut - MEAN_BURN, 0.0)
    return cards / CARDS_PER_COUP[game] + 1.5


def fits_int64(decks: int | None) -> bool:
    """Whether the exact engine counts a shoe of ``decks`` decks in 64-bit integers (``4 * cards^6 < 2^63``).

    Parameters
    ----------
    decks : int or None
        Decks in the shoe (None: an infinite shoe, counted in probabilities).

    Returns
    -------
    bool
        True up to 22 decks.
    """
    return decks is None or 4 * (52 * decks) ** 6 < 2**63


def perfect_fits_int64(decks: int | None, top_pay: int = 1) -> bool:
    """Whether the compiled perfect counter prices a shoe of ``decks`` decks in 64-bit integers: its ordered deals'
    counts (``4 N^6``) and the largest payout times the ``(N)_6`` deals of its ``N`` cards below 2^63.

    Parameters
    ----------
    decks : int or None
        Decks in the shoe (None: an infinite shoe, counted in probabilities).
    top_pay : int
        The largest payout of the bets, in the integer units of their payout table.

    Returns
    -------
    bool
        True up to 22 decks for payouts up to 4.
    """
    if decks is None:
        return True
    n = 52 * decks
    return 4 * n**COUP_CARDS < 2**63 and top_pay * math.perm(n, COUP_CARDS) < 2**63


def max_perfect_decks(top_pay: int = 1) -> int:
    """The most decks the compiled perfect counter prices in 64-bit integers (:func:`perfect_fits_int64`).

    Parameters
    ----------
    top_pay : int
        The largest payout of the bets, in the integer units of their payout table.

    Returns
    -------
    int
        The decks (22 for payouts up to 4; 0 where not even one deck fits).
    """
    decks = 0
    while perfect_fits_int64(decks + 1, top_pay):
        decks += 1
    return decks


def gpu_perfect_refusal(decks: int | None, by_value: bool, top_pay: int = 1) -> str | None:
    """Why ``--backend gpu`` cannot run the perfect counter on these bets and this shoe, or None when it can.

    Each reason leads with itself: pair bets (:data:`GPU_PERFECT_PAIRS`: the rank-level engine is Python's), or a
    shoe whose exact counts could overflow 64-bit integers (the largest shoe the GPU takes, and the CPU's backends).

    Parameters
    ----------
    decks : int or None
        Decks in the shoe.
    by_value : bool
        Whether every bet depends on card values only (no pairs).
    top_pay : int
        The largest payout of the bets, in the integer units of their payout table (1: not known yet, the shoe's
        own counts only).

    Returns
    -------
    str or None
        The reason, naming ``--backend gpu``, the way out and, for a large shoe, the most ``--decks`` it takes.
    """
    if not by_value:
        return GPU_PERFECT_PAIRS
    if perfect_fits_int64(decks, top_pay):
        return None
    most = max_perfect_decks(top_pay)
    if most == 0:
        return ("--backend gpu cannot run the perfect counter on these bets: their largest payout makes the exact "
                "counts of even one deck overflow 64-bit integers, so the exact engine counts them in Python "
                "integers, on the CPU; run it with --backend threads or processes")
    pays = " for these bets (their largest payout scales the counts)" if most < max_perfect_decks() else ""
    return (f"--backend gpu runs the perfect counter on shoes of at most {most} decks{pays}: the exact counts of a "
            f"{decks}-deck shoe could overflow 64-bit integers, so the exact engine counts them in Python integers, "
            f"on the CPU; give --decks {most} or fewer, or run it with --backend threads or processes")


def perfect_rate(decks: int | None, by_value: bool = False) -> float:
    """Nominal exact evaluations a second of one worker running the perfect counter.

    Parameters
    ----------
    decks : int or None
        Decks in the shoe.
    by_value : bool
        Whether every bet depends on card values only (no pairs).

    Returns
    -------
    float
        While the exact engine counts in int64 (``4 * cards^6 < 2^63``, up to 22 decks),
        :data:`NOMINAL_EVALUATIONS_RATE_VALUE` for bets on values, :data:`NOMINAL_EVALUATIONS_RATE`
        with pairs; :data:`NOMINAL_EVALUATIONS_RATE_BIG` beyond.
    """
    if not fits_int64(decks):
        return NOMINAL_EVALUATIONS_RATE_BIG
    return NOMINAL_EVALUATIONS_RATE_VALUE if by_value else NOMINAL_EVALUATIONS_RATE


def estimate_work(game: str, shoes: int, decks: int | None, deal: str, cut: int, coups: int, workers: int,
                  kind: str | None = None, perfect_every: int | None = None, rows: bool = False,
                  by_value: bool = False, backend: str = "threads") -> WorkEstimate:
    """Predict a run's hands and duration before it starts.

    Parameters
    ----------
    game : str
        ``punto``, ``chemin`` or ``banque``.
    shoes : int
        Shoes (sessions) to deal.
    decks, deal, cut, coups
        The shoe, as for :func:`hands_per_shoe`.
    workers : int
        Workers (cores) that will share the work.
    kind : str, optional
        The rate to use, a key of :data:`NOMINAL_RATES` (default: ``game``; ``count`` for a count system).
    perfect_every : int, optional
        For the perfect counter: it evaluates every k-th coup.
    rows : bool
        Whether one Parquet row per shoe will be written.
    by_value : bool
        For the perfect counter: whether every bet depends on card values only.
    backend : str
        ``gpu``: one GPU deals the run (punto banco), at :data:`NOMINAL_GPU_RATES` (the perfect counter on card
        values at :data:`NOMINAL_GPU_EVALUATIONS_RATE`), ``workers`` ignored; any other: the CPU's cores.

    Returns
    -------
    WorkEstimate
        Hands, evaluations and seconds at the nominal rates.

    Raises
    ------
    ParameterError
        The perfect counter on the GPU but not on bets on card values in 64-bit integers
        (:func:`gpu_perfect_refusal`).
    """
    per_shoe = hands_per_shoe(game, decks, deal, cut, coups)
    hands = per_shoe * shoes
    gpu = backend == "gpu"
    workers = 1 if gpu else max(int(workers), 1)
    if perfect_every:
        evaluations: float = shoes * math.ceil(per_shoe / perfect_every)
        rate = perfect_rate(decks, by_value)
        if gpu:  # the GPU prices bets on values in 64-bit integers, nothing else
            why = gpu_perfect_refusal(decks, by_value)
            if why is not None:
                raise ParameterError(why)
            rate = NOMINAL_GPU_EVALUATIONS_RATE
        seconds = evaluations / (rate * workers)
    else:
        evaluations = 0.0
        rate = NOMINAL_GPU_RATES.get(kind or game, NOMINAL_RATES[kind or game]) if gpu else NOMINAL_RATES[kind or game]
        seconds = hands / (rate * workers)
    return WorkEstimate(game, shoes, decks, per_shoe, hands, float(evaluations), rate, workers, seconds,
                        shoes if rows else 0, gpu)


def size_on_gpu(what: str, decks: int, cut: int, budget: float, least: int, most: int,
                kind: str = "count") -> Sizing:
    """The shoes one GPU deals in ``budget`` seconds at its nominal rate (not measured: a short run there would
    time the kernel's compilation, and no GPU is timed before it is used); under numba-cuda's CUDA simulator,
    :func:`baccara.sim.gpu.size_gpu_job` times the job there instead.

    Parameters
    ----------
    what : str
        The run, for people.
    decks, cut : int
        The shoe, dealt to the cut card (:func:`hands_per_shoe`).
    budget : float
        Seconds the run may take.
    least, most : int
        Bounds on the shoes (:func:`baccara.workload.size_to_budget`).
    kind : str
        The rate, a key of :data:`NOMINAL_GPU_RATES` (``count``: a count's bets or the histogram of
        ``count design``), or ``perfect``: the count analysis's perfect counter on a bet on card values, every
        hand priced, at :data:`NOMINAL_GPU_EVALUATIONS_RATE` (or the CPU's fold of its shoes,
        :data:`NOMINAL_GPU_FOLD_SECONDS` a shoe, where that is slower).

    Returns
    -------
    Sizing
        The shoes chosen, on one GPU, with its nominal rate (``Sizing.gpu``): its line says the rate is nominal.
    """
    rate = NOMINAL_GPU_EVALUATIONS_RATE if kind == "perfect" else NOMINAL_GPU_RATES[kind]
    per_shoe = hands_per_shoe("punto", decks, "cut", cut, 0) / rate
    if kind == "perfect":  # the CPU's fold of each launch overlaps the next launch: the slower of the two
        per_shoe = max(per_shoe, NOMINAL_GPU_FOLD_SECONDS)
    return dataclasses.replace(size_to_budget(what, per_shoe, budget, 1, least, most), gpu=rate,
                               gpu_unit="exact evaluations" if kind == "perfect" else "hands")


def check_work(estimate: WorkEstimate, allow_long: bool) -> WorkEstimate:
    """Refuse a run beyond the limits unless ``allow_long``.

    Parameters
    ----------
    estimate : WorkEstimate
        From :func:`estimate_work`.
    allow_long : bool
        The user's ``--allow-long``: run whatever the size.

    Returns
    -------
    WorkEstimate
        ``estimate``, unchanged.

    Raises
    ------
    BaccaraError
        Naming ``--shoes``, the estimate, the limit and ``--allow-long``.
    """
    if estimate.rows > MAX_OUT_ROWS_HARD:
        raise BaccaraError(f"--out holds at most {_power(MAX_OUT_ROWS_HARD)} rows "
                           f"(~{_bytes(MAX_OUT_ROWS_HARD * ROW_BYTES)}), one per shoe, even with --allow-long; "
                           f"--shoes is {estimate.shoes:,}: run several jobs with different --seed, or leave out "
                           f"--out")
    if allow_long:
        return estimate
    over = None
    core_seconds = estimate.seconds * estimate.workers
    if core_seconds > MAX_CORE_SECONDS:
        work = (f"~{_count(estimate.evaluations)} exact evaluations" if estimate.evaluations
                else f"~{_count(estimate.hands)} hands")
        whose = "the GPU's work at its nominal rate" if estimate.gpu else "one core's work"
        over = (f"{work}, {about(core_seconds)} of {whose} (the limit is "
                f"{format_duration(MAX_CORE_SECONDS)})")
    elif estimate.rows > MAX_OUT_ROWS:
        over = (f"{estimate.rows:,} Parquet rows, ~{_bytes(estimate.rows * ROW_BYTES)} (the --out limit is "
                f"{_power(MAX_OUT_ROWS)} rows)")
    if over is None:
        return estimate
    raise BaccaraError(f"--shoes {estimate.shoes:,} asks for {over}: {estimate.describe()}. "
                       f"Give fewer --shoes, or pass --allow-long to run it anyway")


def _power(n: int) -> str:
    """``10^10`` for a power of ten."""
    return f"10^{len(str(n)) - 1}"


def _count(x: float) -> str:
    """``820,000``, ``82 M``, ``8.2e+13``."""
    if x < 1e6:
        return f"{x:,.0f}"
    if x < 1e12:
        for unit, size in (("G", 1e9), ("M", 1e6)):
            if x >= size:
                v = x / size
                return f"{v:.0f} {unit}" if v >= 10 else f"{v:.1f} {unit}"
    return f"{x:.1e}"


def _bytes(n: float) -> str:
    for unit, size in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n:.0f} B"
