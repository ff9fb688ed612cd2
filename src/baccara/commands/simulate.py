"""``baccara simulate punto | chemin | banque``: punto banco, chemin de fer and banque on real shoes (declarations and bodies).

Every option is checked before any work starts (the output file included), every size is bounded
(:mod:`baccara.sim.limits`), and a run is estimated before it starts: beyond the limits it is refused
unless ``--allow-long``; ``--dry-run`` prints the estimate and stops.  The parsers here are shared by
``baccara count`` (:mod:`baccara.commands.count`).  A result is a summary for people, a document for
machines (the field names are a contract), and with ``--out FILE.parquet`` one row per shoe.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, overload

from rich.console import RenderableType
from rich.progress import (
    BarColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from .. import params
from ..algebraic import fraction_str
from ..errors import BaccaraError, ParameterError
from ..punto.bets import DEFAULT_SUPER6_PAYS, DEFAULT_TIE_PAYS, builtin_bets, load_bets_toml
from ..result import Result
from ..sim.limits import (
    DEFAULT_CUT,
    MAX_COUPS,
    MAX_DECKS,
    MAX_DENOMINATOR,
    MAX_SHOES,
    WorkEstimate,
    check_work,
    estimate_work,
    min_cut,
)
from ..sim.results import ParquetSink, check_out_path
from . import PROGRESS, Command, Param
from .console import err, make_console
from .options import ALLOW_LONG, COMMISSION, SCHEDULER, TABLEAU

#: Payouts (tie, Super 6) up to this many to one.
MAX_PAYS = 1000
#: The most cards behind the cut card (the rest is checked against the shoe).
MAX_CUT = 52 * MAX_DECKS
MAX_PERFECT_EVERY = 1_000_000
MAX_SEED = 2**63 - 1


# ---------------------------------------------------------------- parsing
@overload
def parse_count(text: str | None, option: str, default: int, minimum: int = 0, maximum: int | None = None) -> int: ...
@overload
def parse_count(text: str, option: str, default: None = None, minimum: int = 0, maximum: int | None = None) -> int: ...
@overload
def parse_count(text: str | None, option: str, default: int | None = None, minimum: int = 0,
                maximum: int | None = None) -> int | None: ...
def parse_count(text: str | None, option: str, default: int | None = None, minimum: int = 0,
                maximum: int | None = None) -> int | None:
    """A whole number: ``1000000``, ``1_000_000`` or ``1e6``.

    Parameters
    ----------
    text : str or None
        What the user typed; None takes ``default``.
    option : str
        The option named in errors.
    default : int, optional
        The value when ``text`` is None.
    minimum, maximum : int
        The allowed range (``maximum`` None: unbounded).

    Returns
    -------
    int or None
        The number (``default`` when ``text`` is None).

    Raises
    ------
    BaccaraError
        Not a whole number, or outside [minimum, maximum]; names ``option`` and the range.
    """
    if text is None:
        return default
    return params.integer(text, option, lo=minimum, hi=maximum)


def _show(text) -> str:
    """The user's input, quoted, shortened if very long."""
    s = repr(str(text))
    return s if len(s) <= 60 else s[:40] + "..." + s[-10:]


def parse_rational(text: str, option: str, low: Fraction, high: Fraction, *, low_open: bool = False,
                   high_open: bool = False, example: str = "", what: str = "a number") -> Fraction:
    """An exact rational in a range: ``1/20``, ``0.05`` (read as the decimal it prints), ``5e-2``.

    Parameters
    ----------
    text : str
        What the user typed.
    option : str
        The option named in errors.
    low, high : Fraction
        The allowed range.
    low_open, high_open : bool
        Whether the range excludes ``low`` / ``high``.
    example : str
        Examples shown in errors.
    what : str
        What the value is, for errors ("a probability", "a rational").

    Returns
    -------
    Fraction
        The value, with a denominator up to 10^9.

    Raises
    ------
    BaccaraError
        Not a number, out of range, or too fine a denominator; names ``option`` and the range.
    """
    value = params.rational(text, option, lo=low, hi=high, lo_open=low_open, hi_open=high_open, what=what,
                            **({"example": example} if example else {}))
    if value.denominator > MAX_DENOMINATOR:
        raise BaccaraError(f"{option} must be {what} with at most nine decimals (a denominator up to 10^9), "
                           f"got {_show(text)}")
    return value


def parse_decks(text: str, option: str = "--decks") -> int | None:
    """Decks in the shoe: an integer from 1 to :data:`~baccara.sim.limits.MAX_DECKS`, or ``inf``.

    Parameters
    ----------
    text : str
        What the user typed.
    option : str
        The option named in errors.

    Returns
    -------
    int or None
        The decks; None for an infinite shoe.
    """
    try:
        return params.decks(text, option, hi=MAX_DECKS)
    except BaccaraError as e:
        raise BaccaraError(f"{e} (the most a simulated shoe holds; the exact engine takes more)") from None


def parse_seed(text: str | None) -> int:
    """The seed: an integer from 0 to 2^63 - 1, or a random one when not given.

    Parameters
    ----------
    text : str or None
        What the user typed (None: draw a random seed).

    Returns
    -------
    int
        The seed.
    """
    if text is None:
        import secrets

        return secrets.randbits(63)
    try:
        return parse_count(text, "--seed", minimum=0, maximum=MAX_SEED)
    except BaccaraError:
        raise BaccaraError(f"--seed must be an integer from 0 to 2^63 - 1, got {_show(text)}") from None


def parse_prob(text: str, option: str) -> Fraction:
    """A probability: ``draw`` (1), ``stand`` (0), or a number in [0, 1] such as ``1/2`` or ``0.25``.

    Parameters
    ----------
    text : str
        What the user typed.
    option : str
        The option named in errors.

    Returns
    -------
    Fraction
        The probability, exact.
    """
    t = str(text).strip().lower()
    if t in ("d", "draw"):
        return Fraction(1)
    if t in ("s", "stand"):
        return Fraction(0)
    return parse_rational(text, option, Fraction(0), Fraction(1), example="1/2, 0.25, draw or stand",
                          what="a probability")


def check_out(path: str | None) -> None:
    """``--out``: a Parquet file that can be written, checked before any work.

    Parameters
    ----------
    path : str or None
        The user's ``--out`` (None: no file).

    Returns
    -------
    None
        Raises :class:`BaccaraError` naming ``--out`` when the file cannot be written.
    """
    check_out_path(path)


def _file_option(path: str | None, option: str) -> str | None:
    if path is not None and not str(path).strip():
        raise BaccaraError(f"{option} needs the path of a TOML file, got an empty string")
    return path


def _with_option(option: str, load: Callable, *args):
    """``load(*args)``, its errors prefixed with the option they come from (a ValueError from a
    malformed value deep in a file, such as a payout of nan, included)."""
    try:
        return load(*args)
    except (ValueError, OverflowError, ZeroDivisionError) as e:
        raise BaccaraError(f"{option}: {e}") from None


# ---------------------------------------------------------------- the common options
@dataclass(frozen=True)
class Common:
    """The options every simulate command shares, checked."""

    shoes: int
    seed: int
    workers: int | None
    backend: str
    scheduler: str | None
    out: str | None
    allow_long: bool
    dry_run: bool


def parse_common(shoes: str, seed: str | None, workers: str | None, backend: str, scheduler: str | None,
                 out_path: str | None, allow_long: bool, dry_run: bool) -> Common:
    """Check the options every command shares, before any work.

    Parameters
    ----------
    shoes, seed, workers, backend, scheduler, out_path : str
        The options as typed.
    allow_long, dry_run : bool
        The flags.

    Returns
    -------
    Common
        The parsed options.
    """
    from ..processes import check_workers  # lazy: sockets, processes: not at --help
    from ..sim.distributed import check_backend  # lazy: the backends' module, only when a command runs

    check_out(out_path)
    n = parse_count(shoes, "--shoes", minimum=1, maximum=MAX_SHOES)
    w = None if workers is None else check_workers(workers)
    if scheduler is not None and not str(scheduler).strip():
        raise BaccaraError("--scheduler needs an address, tcp://HOST:PORT, got an empty string")
    b, _ = check_backend(backend, w, scheduler)
    return Common(n, parse_seed(seed), w, b, scheduler, out_path, allow_long, dry_run)


@dataclass(frozen=True)
class ShoeSpec:
    """The shoe and how it is dealt, checked against each other."""

    decks: int | None
    deal: str
    cut: int
    coups: int


def parse_shoe(decks: str | None, deal: str | None, cut: str | None, coups: str | None, *, default_decks: int | None,
               default_cut: int, cut_from: str = "--cut") -> ShoeSpec:
    """The shoe options, refusing combinations that would silently ignore one of them.

    Parameters
    ----------
    decks, deal, cut, coups : str or None
        The options as typed (None: not given).
    default_decks : int or None
        Decks when ``--decks`` is not given (None: infinite).
    default_cut : int
        Cards behind the cut card when ``--cut`` is not given.
    cut_from : str
        Where a non-default ``default_cut`` comes from, for errors.

    Returns
    -------
    ShoeSpec
        Decks (None: infinite), deal mode, cut and coups per shoe.

    Raises
    ------
    BaccaraError
        A bad value, or ``--cut`` without a cut card (``--decks inf``, ``--deal csm``),
        ``--coups`` with one, ``--deal infinite`` with finite ``--decks``, ``--deal cut``
        with an infinite shoe.
    """
    d = parse_decks(decks) if decks is not None else default_decks
    mode = None if deal is None else str(deal).strip().lower()
    if mode is not None and mode not in ("cut", "csm", "infinite"):
        raise BaccaraError(f"--deal must be one of cut, csm, infinite, got {_show(deal)}")
    if mode == "infinite" and d is not None:
        if decks is not None:
            raise BaccaraError(f"--deal infinite deals with replacement (an infinite shoe); it contradicts "
                               f"--decks {d}: give --decks inf, or --deal cut / csm")
        d = None
    if d is None:
        if mode == "cut":
            raise BaccaraError("--deal cut needs a finite shoe: an infinite shoe (--decks inf) has no cut card")
        mode = "infinite"
    elif mode is None:
        mode = "cut"
    if cut is not None and mode != "cut":
        why = ("--decks inf: an infinite shoe deals with replacement" if d is None
               else "--deal csm: the shoe is reshuffled before every coup")
        raise BaccaraError(f"--cut has no meaning with {why}, so there is no cut card (--coups sets the coups "
                           f"per shoe)")
    if coups is not None and mode == "cut":
        raise BaccaraError("--coups sets the coups per shoe only without a cut card (--deal csm or --decks inf); "
                           "a real shoe is dealt to the cut card (set its depth with --cut)")
    try:
        cut_n = parse_count(cut, "--cut", default=default_cut, minimum=0, maximum=MAX_CUT)
    except BaccaraError:
        raise BaccaraError(f"--cut (cards behind the cut card) must be a whole number, at least twice the cards "
                           f"of one coup less one (one more coup follows the cut card) and at most the shoe's "
                           f"cards less 11, got {_show(cut)}") from None
    coups_n = parse_count(coups, "--coups", default=80, minimum=1, maximum=MAX_COUPS)
    if cut is None and cut_from != "--cut" and mode == "cut" and d is not None and cut_n > 52 * d - 11:
        raise BaccaraError(f"{cut_from} ({cut_n} cards behind the cut card) does not fit a {d}-deck shoe; "
                           f"give --cut or more --decks")
    return ShoeSpec(d, mode, cut_n, coups_n)


def _plan(game: str, common: Common, shoe: ShoeSpec, *, kind: str | None = None,
          perfect_every: int | None = None, by_value: bool = False) -> WorkEstimate:
    """Estimate the run, refuse it beyond the limits (unless --allow-long), and tell people."""
    from ..processes import cores_busy  # lazy: sockets, processes: not at --help

    # workers beyond the cores take turns on them: the cores that run at once bound the speed
    workers = 1 if common.scheduler else cores_busy(common.workers)
    est = estimate_work(game, common.shoes, shoe.decks, shoe.deal, shoe.cut, shoe.coups, workers, kind,
                        perfect_every, rows=common.out is not None, by_value=by_value, backend=common.backend)
    check_work(est, common.allow_long)
    return est


def _announce(est: WorkEstimate, common: Common, show: bool) -> None:
    """The estimate on stderr: always with --dry-run, on a terminal, or when it is long."""
    if common.dry_run or show or est.seconds >= 10:
        where = "; a Dask cluster divides it by its workers" if common.scheduler else ""
        err.print(f"estimate: {est.describe()}{where}", highlight=False)


# ---------------------------------------------------------------- running
def _progress_wanted(flag: bool | None) -> bool:
    """``--progress``: as given; by default on a terminal, never in the web app's jobs (they report their own).

    The command line gives False with ``--json`` (:mod:`baccara.cli.simulate`).
    """
    if flag is not None:
        return flag
    return PROGRESS.get() is None and sys.stderr.isatty()


def progress_columns() -> tuple:
    """The progress bar: ``shoes ━━━━━  42.0% 3.10 M hands/s elapsed 0:00:12 ETA 0:00:17``.

    Returns
    -------
    tuple
        rich progress columns; each time is preceded by its label.
    """
    return (TextColumn("[bold]{task.description}"), BarColumn(), TextColumn("{task.percentage:>5.1f}%"),
            TextColumn("{task.fields[rate]}"), TextColumn("elapsed"), TimeElapsedColumn(),
            TextColumn("ETA"), TimeRemainingColumn())


def _run(simulate, job, common: Common, show: bool, sink):
    hook = PROGRESS.get()
    if hook is not None:  # the web app's job: its own progress (and its cancel), no bar
        return simulate(job, common.backend, common.workers, common.scheduler, hook, sink=sink)
    if not show:
        return simulate(job, common.backend, common.workers, common.scheduler, sink=sink)
    # redrawn at each report of the run (a few a second), not by a thread of its own: with no other thread
    # here, --backend processes forks its workers instead of spawning them (baccara.processes.start_method)
    with Progress(*progress_columns(), console=err, transient=True, auto_refresh=False) as bar:
        task = bar.add_task("shoes", total=job.shoes, rate="")
        bar.refresh()

        def update(done: int, total: int, hands: int) -> None:
            t = bar.tasks[0].elapsed or 0
            rate = f"{hands / t / 1e6:.2f} M hands/s" if t > 0 else ""
            bar.update(task, completed=done, rate=rate, refresh=True)

        return simulate(job, common.backend, common.workers, common.scheduler, update, sink=sink)


def _simulate(simulate, job, common: Common, show: bool, meta: dict) -> Result:
    """Run the job, streaming its rows to --out (with ``meta`` as the file's metadata), and return its result."""
    sink = ParquetSink(common.out, {"baccara": json.dumps(meta)}) if common.out is not None else None
    with sink if sink is not None else nullcontext():
        res = _run(simulate, job, common, show, sink)
    if sink is not None:
        res.out = common.out
    return res


def _shoe_meta(job) -> dict:
    return {"decks": "inf" if job.decks is None else job.decks, "deal": job.deal,
            "cut": job.cut if job.deal == "cut" else None,
            "coups_per_shoe": None if job.deal == "cut" else job.coups}


#: A dry run times the job's own kernels here for this long, unless the nominal estimate is shorter.
CALIBRATION_SECONDS = 0.25


def _dry_run(est: WorkEstimate, job: Any, common: Common) -> DryRun:
    """The estimate, and one per backend from a short run of the job's kernels here."""
    from ..processes import cores_busy, default_workers  # lazy: sockets, processes: not at --help
    from ..sim.distributed import calibrate, describe_backends, estimate_backends  # lazy: only when a command runs
    from ..workload import about  # lazy: with the rest of the dry run

    doc: dict[str, object] = {"dry_run": True, "shoes": est.shoes, "hands_per_shoe": est.hands_per_shoe,
                              "hands": est.hands, "evaluations": est.evaluations, "seconds": est.seconds,
                              "workers": est.workers}
    workers = common.workers or default_workers()
    cal = calibrate(job, min(CALIBRATION_SECONDS, max(est.seconds * est.workers, 0.01)))
    backends = estimate_backends(job, workers, cal, gpu=common.backend == "gpu")
    doc["calibration"] = cal.to_json()
    doc["backends"] = backends
    rate = cal.hands / cal.seconds if cal.seconds else 0.0
    speed = f"{rate / 1e6:.3g} M" if rate >= 1e6 else f"{rate:,.0f}"
    on = cores_busy(workers)
    share = f", which the {workers} workers share" if workers > on else ""
    err.print(f"calibrated here: {cal.shoes:,} shoes ({cal.hands:,} hands) in {cal.seconds:.2f} s on one "
              f"thread, {speed} hands/s; on {on} free core{'s' if on != 1 else ''}{share}:",
              highlight=False)
    for line in describe_backends(backends):
        err.print(f"  {line}", highlight=False)
    if common.scheduler:
        err.print(f"  --scheduler: {about(backends['dask']['core_seconds'])} of one core's "
                  f"work, divided by the cluster's worker threads", highlight=False)
    return DryRun(doc)


class DryRun(Result):
    """A dry run's estimate (``--dry-run``): its document for ``--json``; for people, the lines on standard error.

    Parameters
    ----------
    doc : dict
        The estimate: shoes, hands, evaluations, seconds, workers, and each backend's from a short run here.
    """

    def __init__(self, doc: dict) -> None:
        self.doc = doc

    def to_json(self) -> dict:
        """The estimate's document.

        Returns
        -------
        dict
            ``dry_run``, ``shoes``, ``hands_per_shoe``, ``hands``, ``evaluations``, ``seconds``, ``workers``,
            and with a calibration ``calibration`` and ``backends``.
        """
        return self.doc

    def summary(self) -> str:
        """The estimate in one line.

        Returns
        -------
        str
            The line.
        """
        return f"dry run: {self.doc['shoes']:,} shoes, {self.doc['hands']:,} hands, about {self.doc['seconds']:.3g} s"

    def renderables(self) -> list[RenderableType]:
        """Nothing more for people: the estimate was printed on standard error as it was made.

        Returns
        -------
        list
            Empty.
        """
        return []


# ---------------------------------------------------------------- shared options
SEED = Param("seed", "--seed", "Random seed, an integer from 0 to 2^63 - 1 (default: a random one, printed in the "
                               "result).")
SHOES = Param("shoes", "--shoes", "Shoes to deal (one session = one shoe), 1 to 10^15; 1e6 and 1_000_000 work.  Runs "
                                  "estimated over an hour of one core's work need --allow-long.", "10000",
              aliases=("--sessions",))
CUT = Param("cut", "--cut", f"Cards behind the cut card (default {DEFAULT_CUT}, as casinos cut 8 decks; at least "
                            f"{min_cut(6)}: one more coup is dealt after the one in which the cut card appears); only "
                            "with a cut card (not with --decks inf or --deal csm).")
DEAL = Param("deal", "--deal", "cut (default): real shoes to the cut card; csm: every coup from the full shoe "
                               "(continuous shuffler); infinite: with replacement (the same as --decks inf).")
COUPS = Param("coups", "--coups", f"Coups per shoe when there is no cut card (--deal csm, --decks inf): 1 to "
                                  f"{MAX_COUPS:,} (default 80).")
OUT = Param("out_path", "--out", "Write one row per shoe (session) to this Parquet file, streamed as the run goes "
                                 "(checked before the run starts); at most 10^9 rows, 10^8 without --allow-long.",
            web=False)
WORKERS = Param("workers", "--workers", "Threads / processes / local Dask workers, 1 to twice the cores (default: "
                                        "all cores); not with --scheduler or --backend gpu.", short="-j", web=False)
BACKEND = Param("backend", "--backend", "threads (default), processes, dask (a local cluster unless --scheduler is "
                                        "given), or gpu (punto banco on a CUDA GPU: pip install 'baccara[gpu]').",
                "threads", web=False)
PROGRESS_BAR = Param("progress", "--progress", "Progress bar: elapsed time, then the ETA (default: on a terminal, "
                                               "not with --json).", None, "bool", flag_off="--no-progress", web=False)
RUN_LONG = ALLOW_LONG.but(help="Run even when the estimate exceeds the limits (an hour of one core's work at nominal "
                               "rates, or 10^8 --out rows); memory stays bounded either way.")
DRY_RUN = Param("dry_run", "--dry-run", "Check the options, print the estimated work and duration (and each "
                                        "backend's, from a short run of the kernels here), and stop.", False, "bool",
                web=False)
#: The options that run a simulation, after each command's own.
RUNNING = (OUT, WORKERS, BACKEND, SCHEDULER, PROGRESS_BAR, RUN_LONG, DRY_RUN)


def _decks_help(default: str) -> str:
    return f"Decks in the shoe, 1 to {MAX_DECKS:,} ({default}), or 'inf'."


def _decks(default: str) -> Param:
    return Param("decks", "--decks", _decks_help(default), short="-d")


SIMULATE_PUNTO = Command(
    ("simulate", "punto"), "Punto banco: every built-in or user bet, flat, by a count system, or by the perfect counter.",
    (_decks("default 8"), SHOES,
     Param("bets", "--bets", "Bets to play, comma-separated (see 'baccara bets'); at most 64.", "banker,player,tie"),
     Param("bets_file", "--bets-file", "TOML file of user-defined bets (tables bets.NAME, as for 'baccara edge "
                                       "--bets').", file=True, web_as="bets-toml"),
     Param("count", "--count", "TOML file of a count system (examples/counts/).", file=True),
     TABLEAU,
     Param("perfect", "--perfect", "The perfect counter: bet exactly when the exact engine says the unseen cards "
                                   "favour the bet.  Bets on card values run compiled, on every thread (a few us a "
                                   "coup) or with --backend gpu one shoe per GPU thread (the same results); with a "
                                   "pair bet (ranks) it runs in Python (~0.5 ms a coup), one process per core, on "
                                   "the CPU only.", False, "bool"),
     Param("perfect_every", "--perfect-every", "The perfect counter re-evaluates every k-th coup (default 1; only with "
                                               "--perfect)."),
     SEED, CUT, DEAL, COUPS, COMMISSION,
     Param("tie_pays", "--tie-pays", f"Tie pays T:1, T in (0, {MAX_PAYS}].", str(DEFAULT_TIE_PAYS.numerator)),
     Param("super6_pays", "--super6-pays", f"Super 6 pays P:1, P in (0, {MAX_PAYS}].",
           str(DEFAULT_SUPER6_PAYS.numerator)),
     *RUNNING,
     Param("log", "--log", "Write a casino's hand log and bet log of the shoes to this folder (hands.csv, bets.csv; "
                           "see 'baccara audit') for the --seat players, instead of the simulation's figures: dealt one shoe "
                           "after another here, so not with a run's options (--out, -j, --backend, --scheduler, "
                           "--dry-run, --bets, --count, --perfect).",
           web=False),
     Param("seat", "--seat", "With --log: a player, [NAME=]KIND[:ARG]: blind[:BETS], flat[:BET], count:FILE.toml, "
                             "perfect:BET, edge:RANKS (Player on a sorted first card, else Banker), edge_only:RANKS; "
                             "repeatable.", kind="list", web=False),
     Param("log_format", "--log-format", "With --log: csv (default) or parquet.", "csv", web=False)),
    ".simulate:punto")

SIMULATE_CHEMIN = Command(
    ("simulate", "chemin"), "Chemin de fer sessions: the rotating bank, the commission, bank runs, house take.",
    (_decks("default 6, Wikipedia (2019); inf with --model A1 / A2"), SHOES,
     Param("banker", "--banker", "Banker's strategy: equilibrium (the solver's Nash equilibrium), tableau (punto "
                                 "banco), or a TOML strategy file.", "equilibrium",
           web_choices=("equilibrium", "tableau")),
     Param("draw_at_5", "--draw-at-5", "Player's probability of drawing at 5 (draw, stand or p); default: the "
                                       "equilibrium's, 1 with the tableau."),
     Param("model", "--model", "Information model of the equilibrium (--banker equilibrium only): B2 (default; a "
                               "finite shoe, Banker sees his two cards), B1 (his total), or A2 / A1 (cards dealt with "
                               "replacement: implies --decks inf).", short="-m"),
     COMMISSION,
     Param("seats", "--seats", "Players at the table, 2 to 32 (the bank rotates among them).", "6"),
     Param("stake", "--stake", "The opening bank, in units (up to 10^9).", "1"),
     Param("withdraw_after", "--withdraw-after", "Banker withdraws after this many wins in a row (0: never; the bank "
                                                 "passes only on a loss).", "0"),
     SEED, CUT, DEAL, COUPS, *RUNNING),
    ".simulate:chemin")

SIMULATE_BANQUE = Command(
    ("simulate", "banque"), "Baccara banque sessions: two tableaux against one Banker, stakes theta : 1 - theta.",
    (_decks("default 3, Wikipedia (2019)"), SHOES,
     Param("theta", "--theta", "Stake on Player 1's hand, theta in (0, 1); Player 2: 1 - theta.", "1/2"),
     Param("players", "--players", "equilibrium (the correlated mixture of Ethier and Lee (2015)) or independent (then "
                                   "--p1 and --p2 are required).", "equilibrium"),
     Param("p1", "--p1", "Player 1 draws at 5 with this probability (draw, stand or p; --players independent)."),
     Param("p2", "--p2", "Player 2 draws at 5 with this probability (draw, stand or p; --players independent)."),
     Param("banker", "--banker", "equilibrium (correlated cooperative, Ethier and Lee (2015)) or draw-to-5 (draw on "
                                 "0-5, stand on 6-7).", "equilibrium"),
     SEED,
     CUT.but(help="Cards behind the cut card (default and least 17: a banque coup takes up to nine cards and one "
                  "more coup follows the cut card); only with a cut card."),
     DEAL, COUPS, *RUNNING),
    ".simulate:banque")


def _probe(common: Common) -> None:
    """Check the --scheduler's cluster answers, before any work."""
    if common.scheduler:
        from ..processes import probe_scheduler  # lazy: sockets, only with --scheduler

        probe_scheduler(common.scheduler)


#: Why each option of ``simulate punto`` has no meaning with ``--log``: the logs are dealt by a dealing of their
#: own (:func:`baccara.audit.simlog.log_run`), one shoe after another in this process, for the ``--seat`` players.
BESIDE_LOG = {
    "--out": "the logs are the output (hands and bets files in --log's folder), not one row per shoe",
    "--workers": "the logs are dealt one shoe after another in this process, on no workers",
    "--backend": "the logs are dealt one shoe after another in this process, on no backend",
    "--scheduler": "the logs are dealt one shoe after another in this process, not on a Dask cluster",
    "--dry-run": "a log is not estimated: it is written at once (at most {most:,} shoes)",
    "--allow-long": "a log holds at most {most:,} shoes whatever is allowed",
    "--progress": "a log draws no progress bar",
    "--bets": "each --seat says what it plays (blind:BETS, flat:BET, ...)",
    "--count": "a counting player is a --seat count:FILE.toml",
    "--perfect": "the perfect counter is a --seat perfect:BET",
    "--perfect-every": "the perfect counter is a --seat perfect:BET, which evaluates every coup",
}


def _refuse_beside_log(given: dict[str, bool]) -> None:
    """Refuse, by name, the options given with ``--log`` that its dealing would silently ignore (:data:`BESIDE_LOG`)."""
    from ..audit.simlog import MAX_LOG_SHOES  # lazy: the audit's log writer, only for --log

    named = [option for option, on in given.items() if on]
    if named:
        reasons = "; ".join(f"{option}: {BESIDE_LOG[option].format(most=MAX_LOG_SHOES)}" for option in named)
        raise BaccaraError(f"--log writes a casino's hand and bet logs by a dealing of its own, so {', '.join(named)} "
                           f"would be ignored ({reasons}); leave {'it' if len(named) == 1 else 'them'} out")


# ---------------------------------------------------------------- punto banco
def punto(*, decks: str | None, shoes: str, bets: str, bets_file: str | None, count: str | None, tableau: str | None,
          perfect: bool, perfect_every: str | None, seed: str | None, cut: str | None, deal: str | None,
          coups: str | None, commission: str, tie_pays: str, super6_pays: str, out_path: str | None,
          workers: str | None, backend: str, scheduler: str | None, progress: bool | None, allow_long: bool,
          dry_run: bool, log: str | None, seat: list[str] | None, log_format: str) -> Result | None:
    """Punto banco on real shoes: every built-in or user bet, flat, by a count system, or by the perfect counter.

    Parameters
    ----------
    decks, shoes, bets, bets_file, count, tableau, perfect, perfect_every, seed, cut, deal, coups, commission, \
tie_pays, super6_pays, out_path, workers, backend, scheduler, progress, allow_long, dry_run, log, seat, log_format
        The options of :data:`SIMULATE_PUNTO`, as typed (``bets_file``, ``count``, ``tableau``: TOML files).

    Returns
    -------
    Result or None
        The simulation's result, the estimate with ``dry_run``, or None when ``log`` wrote the logs instead.
    """
    from ..rules import load_tableau_toml  # lazy: the simulator's modules, only when a command runs
    from ..sim.counting import load_count_toml  # lazy: as above
    from ..sim.punto import (  # lazy: as above
        PuntoJob,
        bets_from_names,
        count_bet_names,
        perfect_chunk_size,
        perfect_gpu_refusal,
        simulate_punto,
        strategy_json,
    )

    if log is not None:
        _refuse_beside_log({"--out": out_path is not None, "--workers": workers is not None,
                            "--backend": str(backend).strip().lower() != "threads", "--scheduler": scheduler is not None,
                            "--dry-run": dry_run, "--allow-long": allow_long, "--progress": progress is True,
                            "--bets": bets != SIMULATE_PUNTO.defaults()["bets"], "--count": count is not None,
                            "--perfect": perfect, "--perfect-every": perfect_every is not None})
    common = parse_common(shoes, seed, workers, backend, scheduler, out_path, allow_long, dry_run)
    rules = _with_option("--tableau", load_tableau_toml, tableau) if _file_option(tableau, "--tableau") else None
    house = {"commission": parse_rational(commission, "--commission", Fraction(0), Fraction(1), high_open=True,
                                          example="1/20 or 0.05", what="a rational"),
             "tie_pays": parse_rational(tie_pays, "--tie-pays", Fraction(0), Fraction(MAX_PAYS), low_open=True,
                                        example="8 or 9"),
             "super6_pays": parse_rational(super6_pays, "--super6-pays", Fraction(0), Fraction(MAX_PAYS),
                                           low_open=True, example="12 or 15")}
    available = _with_option("--commission / --tie-pays / --super6-pays", builtin_bets, *house.values())
    if _file_option(bets_file, "--bets-file"):
        for name, bet in _with_option("--bets-file", load_bets_toml, bets_file).items():
            if name in available:
                raise BaccaraError(f"--bets-file: bet {name!r} has the name of a built-in bet; rename it")
            available[name] = bet
    system = _with_option("--count", load_count_toml, count) if _file_option(count, "--count") else None
    names = count_bet_names([n for n in bets.replace(" ", "").split(",") if n], available, system)
    if perfect_every is not None and not perfect:
        raise BaccaraError("--perfect-every goes with --perfect (the perfect counter)")
    every = parse_count(perfect_every, "--perfect-every", default=1, minimum=1, maximum=MAX_PERFECT_EVERY)
    from_file = system is not None and system.cut is not None
    default_cut = system.cut if system is not None and system.cut else DEFAULT_CUT
    shoe = parse_shoe(decks, deal, cut, coups, default_decks=8, default_cut=default_cut,
                      cut_from=f"the count file's cut = {default_cut}" if from_file else "--cut")
    if log is not None or seat:
        from ..audit.simlog import log_run  # lazy: the audit's log writer, only for --log

        if log is None or shoe.deal != "cut" or shoe.decks is None:
            raise BaccaraError("--seat goes with --log DIR, and a log deals real shoes (a cut card, finite decks)")
        hands_path, bets_path = log_run(log, seat or [], common.shoes, decks=shoe.decks, seed=common.seed,
                                        cut=shoe.cut, fmt=log_format.strip().lower(), bet_defs=available,
                                        **({"tableau": rules} if rules is not None else {}))
        make_console().print(f"logs written: {hands_path}, {bets_path}", highlight=False)
        return None
    on_cards = any(n in available and available[n].card_level for n in names)
    chosen = bets_from_names(names, available)
    if perfect and common.backend == "gpu":  # before the estimate, which knows the shoe but not the payouts
        why = perfect_gpu_refusal(chosen, shoe.decks)
        if why is not None:
            raise ParameterError(why)
    est = _plan("punto", common, shoe, kind="cards" if on_cards else "count" if system else None,
                perfect_every=every if perfect else None,
                by_value=all(n in available and available[n].resolution == "value" and not available[n].card_level
                             for n in names))
    _probe(common)
    job = PuntoJob(seed=common.seed, shoes=common.shoes, decks=shoe.decks, bets=chosen,
                   deal=shoe.deal, cut=shoe.cut, coups=shoe.coups, count=system, perfect=perfect,
                   perfect_every=every, chunk_size=perfect_chunk_size(chosen) if perfect else 4096, keep_rows=common.out is not None,
                   **({"tableau": rules} if rules is not None else {}))
    show = _progress_wanted(progress)
    _announce(est, common, show)
    if common.dry_run:
        return _dry_run(est, job, common)
    return _simulate(simulate_punto, job, common, show,
                     {"game": "punto", "seed": job.seed, "shoes": job.shoes, "shoe": _shoe_meta(job),
                      "strategy": strategy_json(job), "tableau": job.tableau.to_json()})


# ---------------------------------------------------------------- chemin de fer
def chemin(*, decks: str | None, shoes: str, banker: str, draw_at_5: str | None, model: str | None, commission: str,
           seats: str, stake: str, withdraw_after: str, seed: str | None, cut: str | None, deal: str | None,
           coups: str | None, out_path: str | None, workers: str | None, backend: str, scheduler: str | None,
           progress: bool | None, allow_long: bool, dry_run: bool) -> Result:
    """Chemin de fer sessions on real shoes: the rotating bank, the commission, bank runs, house take.

    Parameters
    ----------
    decks, shoes, banker, draw_at_5, model, commission, seats, stake, withdraw_after, seed, cut, deal, coups, \
out_path, workers, backend, scheduler, progress, allow_long, dry_run
        The options of :data:`SIMULATE_CHEMIN`, as typed (``banker``: a word or a TOML strategy file).

    Returns
    -------
    Result
        The simulation's result, or the estimate with ``dry_run``.
    """
    from ..sim.api import EQUILIBRIUM_WORDS, TABLEAU_WORDS, chemin_strategy  # lazy: the simulator, when run
    from ..sim.chemin import (  # lazy: as above
        MAX_STAKE,
        MAX_WITHDRAW,
        CheminJob,
        check_model_for_decks,
        load_strategy_toml,
        simulate_chemin,
    )

    common = parse_common(shoes, seed, workers, backend, scheduler, out_path, allow_long, dry_run)
    key = banker.strip().lower()
    if not key:
        raise BaccaraError("--banker must be equilibrium, tableau or a .toml strategy file, got an empty string")
    is_eq = key in EQUILIBRIUM_WORDS
    if not is_eq and key not in TABLEAU_WORDS and not (
            Path(banker).suffix.lower() == ".toml" or Path(banker).is_file()):
        raise BaccaraError(f"--banker must be equilibrium, tableau or a .toml strategy file, got {_show(banker)}")
    if model is not None and not is_eq:
        raise BaccaraError(f"--model chooses the equilibrium's information model: it goes with --banker "
                           f"equilibrium, not --banker {banker}")
    model_text = "2" if model is None else model
    m: str | None = str(model_text).strip().upper()
    infinite_model = m in ("A1", "A2")
    shoe = parse_shoe(decks, deal, cut, coups, default_decks=None if infinite_model else 6,
                      default_cut=DEFAULT_CUT)
    m = check_model_for_decks(model_text, shoe.decks) if is_eq else None
    alpha = parse_rational(commission, "--commission", Fraction(0), Fraction(1), high_open=True,
                           example="1/20 or 0.05", what="a rational")
    n_seats = parse_count(seats, "--seats", minimum=2, maximum=32)
    stake_v = float(parse_rational(stake, "--stake", Fraction(0), Fraction(int(MAX_STAKE)), low_open=True,
                                   example="1, 100 or 0.5"))
    withdraw = parse_count(withdraw_after, "--withdraw-after", minimum=0, maximum=MAX_WITHDRAW)
    p5 = parse_prob(draw_at_5, "--draw-at-5") if draw_at_5 is not None else None
    est = _plan("chemin", common, shoe)
    _probe(common)
    chosen = key if is_eq or key in TABLEAU_WORDS else _with_option("--banker", load_strategy_toml, banker)
    strategy = chemin_strategy(chosen, shoe.decks, alpha, m or "2", p5)
    job = CheminJob(seed=common.seed, shoes=common.shoes, strategy=strategy, decks=shoe.decks, alpha=alpha,
                    seats=n_seats, stake=stake_v, withdraw_after=withdraw, deal=shoe.deal, cut=shoe.cut,
                    coups=shoe.coups, keep_rows=common.out is not None)
    show = _progress_wanted(progress)
    _announce(est, common, show)
    if common.dry_run:
        return _dry_run(est, job, common)
    return _simulate(simulate_chemin, job, common, show,
                     {"game": "chemin", "seed": job.seed, "shoes": job.shoes, "shoe": _shoe_meta(job),
                      "table": {"seats": job.seats, "stake": job.stake, "withdraw_after": job.withdraw_after,
                                "commission": fraction_str(job.alpha)},
                      "strategy": job.strategy.name})


# ---------------------------------------------------------------- banque
def banque(*, decks: str | None, shoes: str, theta: str, players: str, p1: str | None, p2: str | None, banker: str,
           seed: str | None, cut: str | None, deal: str | None, coups: str | None, out_path: str | None,
           workers: str | None, backend: str, scheduler: str | None, progress: bool | None, allow_long: bool,
           dry_run: bool) -> Result:
    """Baccara banque sessions on real shoes: two tableaux against one Banker, stakes theta : 1 - theta.

    Parameters
    ----------
    decks, shoes, theta, players, p1, p2, banker, seed, cut, deal, coups, out_path, workers, backend, scheduler, \
progress, allow_long, dry_run
        The options of :data:`SIMULATE_BANQUE`, as typed.

    Returns
    -------
    Result
        The simulation's result, or the estimate with ``dry_run``.
    """
    from ..sim.api import banque_strategy  # lazy: the simulator, when run
    from ..sim.banque import BANQUE_CUT, BanqueJob, simulate_banque  # lazy: as above

    common = parse_common(shoes, seed, workers, backend, scheduler, out_path, allow_long, dry_run)
    t = parse_rational(theta, "--theta", Fraction(0), Fraction(1), low_open=True, high_open=True,
                       example="1/2 or 0.45")
    pk = players.strip().lower()
    probs: tuple[Fraction | None, Fraction | None] = (None, None)  # the correlated equilibrium
    if pk == "equilibrium":
        if p1 is not None or p2 is not None:
            raise BaccaraError("--p1 / --p2 go with --players independent")
    elif pk == "independent":
        missing = [o for o, v in (("--p1", p1), ("--p2", p2)) if v is None]
        if missing:
            raise BaccaraError(f"--players independent needs {' and '.join(missing)}: each Player's probability "
                               f"of drawing at 5 (draw, stand or p in [0, 1], e.g. --p1 1/2 --p2 draw)")
        assert p1 is not None and p2 is not None  # none missing
        probs = (parse_prob(p1, "--p1"), parse_prob(p2, "--p2"))
    else:
        raise BaccaraError(f"--players must be equilibrium or independent, got {_show(players)}")
    bk = banker.strip().lower()
    if bk not in ("equilibrium", "draw-to-5", "draw5"):
        raise BaccaraError(f"--banker must be equilibrium or draw-to-5, got {_show(banker)}")
    shoe = parse_shoe(decks, deal, cut, coups, default_decks=3, default_cut=BANQUE_CUT)
    est = _plan("banque", common, shoe)
    _probe(common)
    strategy = banque_strategy(t, *probs, banker=bk)
    job = BanqueJob(seed=common.seed, shoes=common.shoes, strategy=strategy, theta=t, decks=shoe.decks,
                    deal=shoe.deal, cut=shoe.cut, coups=shoe.coups, keep_rows=common.out is not None)
    show = _progress_wanted(progress)
    _announce(est, common, show)
    if common.dry_run:
        return _dry_run(est, job, common)
    return _simulate(simulate_banque, job, common, show,
                     {"game": "banque", "seed": job.seed, "shoes": job.shoes, "shoe": _shoe_meta(job),
                      "theta": fraction_str(t), "strategy": strategy.name})
