"""``baccara count``: what a count system wins on a side bet (and the perfect counter); ``count design`` (declarations and bodies).

``baccara count --decks 8 --bet dragon7 --count FILE`` simulates the count and the perfect counter on the
same shoes and returns the count report (:mod:`baccara.sim.count_analysis`); ``baccara count design --bet
dragon7 --level 2 --out FILE.toml`` derives a count from the exact effects of removal and picks its trigger
(:mod:`baccara.sim.count_design`).  A command of its own rather than more options of ``simulate punto``: the
report is about one bet and one count, needs the perfect counter beside it, and gives different figures
(SCORE, risk of ruin, efficiency).
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from pathlib import Path

from rich.console import Console, RenderableType

from ..errors import BaccaraError
from ..punto.bets import DEFAULT_SUPER6_PAYS, DEFAULT_TIE_PAYS, Bet, builtin_bets, load_bets_toml
from ..result import Result
from ..workload import LIMIT_SECONDS
from . import PROGRESS, Command, Param
from .console import err
from .options import COMMISSION, SCHEDULER
from .simulate import (
    BACKEND,
    MAX_PAYS,
    SEED,
    WORKERS,
    _file_option,
    _with_option,
    parse_common,
    parse_count,
    parse_decks,
    parse_rational,
)

MAX_COUNT_DECKS = 100
#: Seconds a default ``count`` run aims at (half the count, half the perfect counter), and ``count design``.
COUNT_BUDGET = 10
DESIGN_BUDGET = 5
#: The fewest shoes of a default run, whatever the machine: the sizes of earlier versions.
COUNT_LEAST, PERFECT_LEAST, PERFECT_LEAST_RANK, DESIGN_LEAST = 100_000, 2000, 200, 100_000

DECKS = Param("decks", "--decks", "Decks in the shoe, 1 to 100 (default 8).", short="-d")
BET = Param("bet", "--bet", "The bet to count (see 'baccara bets'), e.g. dragon7, panda8, tie.")
TIE_PAYS = Param("tie_pays", "--tie-pays", f"Tie pays T:1, T in (0, {MAX_PAYS}].", str(DEFAULT_TIE_PAYS.numerator))
BETS_FILE = Param("bets_file", "--bets-file", "TOML file of user-defined bets (tables bets.NAME).", file=True,
                  web_as="bets-toml")
BUDGET = Param("budget", "--budget", "Seconds the default run may take on the cores here, 1 to 3600; the shoes not "
                                     "given are sized to it from a short measured run (with --backend gpu, the "
                                     "GPU's part from its nominal rate, not measured; on the CUDA simulator, from "
                                     "a short timed launch), and the output says so "
                                     "(default: count 10, count design 5).")

COUNT = Command(
    ("count",), "A count system on one bet: the count report, with the perfect counter's ceiling beside it.",
    (DECKS, BET,
     Param("count_file", "--count", "TOML file of the count system (examples/counts/).", file=True),
     Param("shoes", "--shoes", "Shoes for the count, 1 to 10^15 (default: sized to half the --budget on the cores "
                               "here, at least 100,000).", web_max=10**7),
     Param("perfect_shoes", "--perfect-shoes", "Shoes for the perfect counter, the first of the count's, 0 to "
                                               "--shoes (default: sized to half the --budget, at least 2,000; 200 "
                                               "for pair bets; 0: none).", web_max=10**5),
     BUDGET.but(web_max=300),  # the web's bounds: one job runs at a time on a shared server
     SEED,
     Param("cut", "--cut", "Cards behind the cut card (default: the count file's, else 14)."),
     Param("bankroll", "--bankroll", "Bankroll for the risk of ruin (default 1000).", "1000"),
     Param("unit", "--unit", "Bet size, in the bankroll's money (default 1).", "1"),
     COMMISSION, TIE_PAYS, BETS_FILE, WORKERS,
     BACKEND.but(help="threads (default), processes, dask (a local cluster unless --scheduler is given), or gpu: the "
                      "count and, on bets on card values, the perfect counter on a CUDA GPU (pip install "
                      "'baccara[gpu]'), the same figures as on the threads; the perfect counter on pair bets stays "
                      "on the CPU."),
     SCHEDULER),
    ".count:count")

COUNT_DESIGN = Command(
    ("count", "design"), "Derive a count for a bet from its exact effects of removal, and pick the best trigger on "
                         "real shoes.",
    (DECKS, BET,
     Param("level", "--level", "Tags from -level to level: 1, 2 or 3 (default 2).", "2"),
     Param("kind", "--kind", "Trigger on the true count (default) or the running count.", "true"),
     Param("shoes", "--shoes", "Shoes on which every trigger is evaluated (default: sized to the --budget on the "
                               "cores here, at least 100,000).", web_max=10**7),
     BUDGET.but(web_max=300),  # the web's bounds, as the count's
     SEED,
     Param("cut", "--cut", "Cards behind the cut card (default 14)."),
     COMMISSION, TIE_PAYS, BETS_FILE,
     WORKERS.but(help="Threads, 1 to twice the cores (default: all cores); not with --backend gpu."),
     BACKEND.but(help="threads (default), or gpu (a CUDA GPU: pip install 'baccara[gpu]'); the same bins either "
                      "way."),
     Param("out_path", "--out", "Write the count's TOML file here.", web=False)),
    ".count:design")


def _say_sizing(sizes: list) -> None:
    """Tell people how the default runs were sized (standard error: the output stays the result)."""
    for s in sizes:
        err.print(f"sizing: {s.describe()}; give the shoes to choose, --budget to change the time", highlight=False)


def _cores(common) -> int:
    from ..processes import default_workers  # lazy: sockets, processes: not at --help

    return 1 if common.scheduler else (common.workers or default_workers())


def _bet(name: str | None, commission: str, tie_pays: str, bets_file: str | None) -> tuple[Bet, str]:
    """The bet named by --bet, with the house's terms."""
    if not name:
        raise BaccaraError("--bet: give the bet to count, e.g. --bet dragon7 (see 'baccara bets')")
    house = (parse_rational(commission, "--commission", Fraction(0), Fraction(1), high_open=True,
                            example="1/20 or 0.05", what="a rational"),
             parse_rational(tie_pays, "--tie-pays", Fraction(0), Fraction(MAX_PAYS), low_open=True, example="8 or 9"),
             DEFAULT_SUPER6_PAYS)
    available = _with_option("--commission / --tie-pays", builtin_bets, *house)
    if _file_option(bets_file, "--bets-file"):
        for n, b in _with_option("--bets-file", load_bets_toml, bets_file).items():
            if n in available:
                raise BaccaraError(f"--bets-file: bet {n!r} has the name of a built-in bet; rename it")
            available[n] = b
    if name not in available:
        raise BaccaraError(f"--bet: unknown bet {name!r}; bets are {', '.join(available)}")
    return available[name], tie_pays


def _decks(decks: str | None) -> int:
    if decks is None:
        return 8
    d = parse_decks(decks)
    if d is None or d > MAX_COUNT_DECKS:
        raise BaccaraError(f"--decks must be an integer from 1 to {MAX_COUNT_DECKS} (a count needs a real shoe), "
                           f"got {decks!r}")
    return d


def _positive(text: str, option: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise BaccaraError(f"{option} must be a positive number, got {text!r}") from None
    if not (v > 0 and v < 1e15):
        raise BaccaraError(f"{option} must be a positive number below 10^15, got {text!r}")
    return v


def count(*, decks: str | None, bet: str | None, count_file: str | None, shoes: str | None,
          perfect_shoes: str | None, budget: str | None, seed: str | None, cut: str | None, bankroll: str, unit: str,
          commission: str, tie_pays: str, bets_file: str | None, workers: str | None, backend: str,
          scheduler: str | None) -> Result:
    """A count system on one bet: the count report, with the perfect counter's ceiling beside it (:data:`COUNT`).

    Parameters
    ----------
    decks, bet, count_file, shoes, perfect_shoes, budget, seed, cut, bankroll, unit, commission, tie_pays, \
bets_file, workers, backend, scheduler
        The options of :data:`COUNT`, as typed (``count_file``, ``bets_file``: TOML files).

    Returns
    -------
    Result
        The count report (:func:`baccara.sim.count_analysis.analyse_count`), with how its runs were sized.
    """
    from ..sim.count_analysis import (  # lazy: the simulator, when run
        DEFAULT_COUNT_CUT,
        CountJob,
        analyse_count,
        perfect_on_gpu,
    )
    from ..sim.counting import load_count_toml  # lazy: as above
    from ..sim.distributed import size_job  # lazy: as above
    from ..sim.gpu import size_gpu_job  # lazy: as above

    common = parse_common(shoes or "1", seed, workers, backend, scheduler, None, False, False)
    seconds = parse_count(budget, "--budget", default=COUNT_BUDGET, minimum=1, maximum=LIMIT_SECONDS)
    d = _decks(decks)
    the_bet, _ = _bet(bet, commission, tie_pays, bets_file)
    if not _file_option(count_file, "--count"):
        raise BaccaraError("--count: give the count system's TOML file (examples/counts/), or use 'baccara count "
                           "design' to make one")
    system = _with_option("--count", load_count_toml, count_file)
    cut_n = parse_count(cut, "--cut", minimum=6, maximum=52 * d - 11) if cut is not None else None
    n_shoes, sizes = common.shoes, []
    at = cut_n if cut_n is not None else (system.cut or DEFAULT_COUNT_CUT)
    if shoes is None and common.backend == "gpu":  # the GPU's nominal rate (the simulator's, timed): the count
        sizes.append(size_gpu_job(CountJob(common.seed, 10**9, d, the_bet, system, at), "the count", d, at,
                                  seconds / 2, COUNT_LEAST, 10**9))
        n_shoes = sizes[-1].shoes
    elif shoes is None:
        sizes.append(size_job(CountJob(common.seed, 10**9, d, the_bet, system, at), "the count", seconds / 2,
                              _cores(common), COUNT_LEAST, 10**9))
        n_shoes = sizes[-1].shoes
    ps = parse_count(perfect_shoes, "--perfect-shoes", minimum=0, maximum=n_shoes) \
        if perfect_shoes is not None else None
    if ps is None:  # on the GPU at its nominal rate (bets on card values), else on the CPU's cores, measured
        least = min(n_shoes, PERFECT_LEAST if the_bet.resolution == "value" else PERFECT_LEAST_RANK)
        pjob = CountJob(common.seed, n_shoes, d, the_bet, None, at, chunk_size=8)
        if common.backend == "gpu" and perfect_on_gpu(pjob):
            sizes.append(size_gpu_job(pjob, "the perfect counter", d, at, seconds / 2, least, n_shoes,
                                      kind="perfect"))
        else:
            what = "the perfect counter (on the CPU's threads)" if common.backend == "gpu" else "the perfect counter"
            sizes.append(size_job(pjob, what, seconds / 2, _cores(common), least, n_shoes))
        ps = sizes[-1].shoes
    _say_sizing(sizes)
    report = analyse_count(system, the_bet, decks=d, shoes=n_shoes, seed=common.seed, cut=cut_n,
                           perfect_shoes=ps, bankroll=_positive(bankroll, "--bankroll"),
                           unit=_positive(unit, "--unit"), backend=common.backend, workers=common.workers,
                           scheduler=common.scheduler, progress=PROGRESS.get())  # the web app's job, if any
    if sizes:
        report.run["sizing"] = [z.to_json() for z in sizes]
    return report


class SizedDesign(Result):
    """A designed count and how its simulation was sized: the document of ``count design --json``.

    Parameters
    ----------
    design : CountDesign
        The design.
    sizes : list
        The sizing of its simulation (empty: the shoes were given).
    out : str or None
        The TOML file the count was written to (``--out``), if any.
    """

    def __init__(self, design: Result, sizes: list, out: str | None = None) -> None:
        self.design = design
        self.sizes = sizes
        self.out = out

    def to_json(self) -> dict | list:
        """The design's document, with ``sizing`` when the run was sized.

        Returns
        -------
        dict
            The document.
        """
        doc = self.design.to_json()
        if self.sizes and isinstance(doc, dict):
            doc["sizing"] = [z.to_json() for z in self.sizes]
        return doc

    def summary(self) -> str:
        """The design's line.

        Returns
        -------
        str
            The line.
        """
        return self.design.summary()

    def renderables(self) -> Iterable[RenderableType]:
        """The design for people.

        Returns
        -------
        iterable
            Its renderables.
        """
        return self.design.renderables()

    def show(self, console: Console | None = None) -> None:
        """Print the design for people.

        Parameters
        ----------
        console : rich.console.Console, optional
            Where (default: a new console on standard output).
        """
        self.design.show(console)


def design(*, decks: str | None, bet: str | None, level: str, kind: str, shoes: str | None, budget: str | None,
           seed: str | None, cut: str | None, commission: str, tie_pays: str, bets_file: str | None,
           workers: str | None, backend: str, out_path: str | None) -> SizedDesign:
    """Derive a count for a bet from its exact effects of removal, and pick the best trigger (:data:`COUNT_DESIGN`).

    Parameters
    ----------
    decks, bet, level, kind, shoes, budget, seed, cut, commission, tie_pays, bets_file, workers, backend, out_path
        The options of :data:`COUNT_DESIGN`, as typed (``bets_file``: a TOML file; ``out_path``: the count's
        TOML file to write).

    Returns
    -------
    SizedDesign
        The design (:func:`baccara.sim.count_design.design_count`), how its run was sized, and where it was written.
    """
    from ..processes import default_workers  # lazy: sockets, processes: not at --help
    from ..sim.count_analysis import CountJob  # lazy: the simulator, when run
    from ..sim.count_design import design_count, write_design  # lazy: as above
    from ..sim.counting import BetRule, CountSystem  # lazy: as above
    from ..sim.distributed import size_job  # lazy: as above
    from ..sim.gpu import size_gpu_job  # lazy: as above

    if str(backend).strip().lower() not in ("threads", "gpu"):
        raise BaccaraError(f"--backend of count design must be threads or gpu, got {backend!r}")
    common = parse_common(shoes or "1", seed, workers, backend, None, None, False, False)
    seconds = parse_count(budget, "--budget", default=DESIGN_BUDGET, minimum=1, maximum=LIMIT_SECONDS)
    d = _decks(decks)
    the_bet, tp = _bet(bet, commission, tie_pays, bets_file)
    lv = parse_count(level, "--level", minimum=1, maximum=3)
    cut_n = parse_count(cut, "--cut", default=14, minimum=6, maximum=52 * d - 11)
    if out_path is not None and (not str(out_path).strip() or Path(out_path).is_dir()):
        raise BaccaraError(f"--out needs the path of a TOML file to write, got {out_path!r}")
    n_shoes, sizes = common.shoes, []
    # a count's kernel on this bet: the design deals the same shoes, counting every coup
    probe = CountSystem("probe", (1.0,) * 13, (BetRule(the_bet.name, "true"),), cut=cut_n)
    if shoes is None and common.backend == "gpu":  # the histogram on the GPU: its nominal rate (the simulator's)
        sizes.append(size_gpu_job(CountJob(common.seed, 10**9, d, the_bet, probe, cut_n), "the count design", d,
                                  cut_n, seconds, DESIGN_LEAST, 10**9))
        n_shoes = sizes[-1].shoes
    elif shoes is None:
        sizes.append(size_job(CountJob(common.seed, 10**9, d, the_bet, probe, cut_n), "the count design", seconds,
                              _cores(common), DESIGN_LEAST, 10**9))
        n_shoes = sizes[-1].shoes
    _say_sizing(sizes)
    result = design_count(d, the_bet, lv, shoes=n_shoes, seed=common.seed, cut=cut_n, kind=kind.strip().lower(),
                          workers=common.workers or default_workers(), backend=common.backend,
                          tie_pays=tp if the_bet.name == "tie" else None, progress=PROGRESS.get())
    if out_path is not None:
        write_design(result, out_path)
    return SizedDesign(result, sizes, out_path)
