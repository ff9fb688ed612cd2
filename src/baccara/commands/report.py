"""``baccara report``: the math report of one bet (declaration and body).

A thin command: it parses the shoe and the bet as ``baccara edge`` does and calls
:func:`baccara.punto.mathreport.math_report`; the command line prints the report, or writes it as a
page with :mod:`baccara.punto.report_html`.  The heavy modules (NumPy, numba, matplotlib) are
imported inside the body, so ``baccara --help`` loads none of them.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Mapping
from typing import Any

from .. import params
from ..errors import BaccaraError
from ..punto.report_out import check_out
from ..result import Result
from . import PROGRESS, Command, Param
from .console import say
from .options import (
    BETS,
    COMMISSION,
    COMPOSITION,
    SUPER6_PAYS,
    TABLEAU,
    TIE_PAYS,
    build_bets,
    build_shoe,
    build_tableau,
)

#: The default simulation sizes (those of :mod:`baccara.punto.mathreport`, repeated here so that
#: ``--help`` needs no NumPy; tests/test_report.py checks that they agree).
DESIGN_SHOES, COUNT_SHOES, PERFECT_SHOES, PERFECT_SHOES_RANK, CUTS = 20_000, 100_000, 4_000, 300, "14,52"
CHECK_HANDS = 100_000_000
#: Seconds of the report's simulations when their sizes are not given: the design, the count at each
#: cut and the perfect counter at each cut, on every core (the perfect counter on pair bets: one core,
#: it runs the exact engine from Python in this process).
DESIGN_BUDGET, COUNT_BUDGET, PERFECT_BUDGET = 6, 12, 15

#: ``--out``: the page the command line writes (never offered by the web app, which serves the page itself).
OUT = Param("out_path", "--out", "Write the report to FILE.html (self-contained) or FILE.pdf (printed by Chromium).",
            short="-o", web=False)

#: The command's help: its summary (the first paragraph), then what the report holds.
HELP = ("The math report of one bet as HTML, PDF or JSON: its pay table, exact figures, the house's result, and "
        "whether it can be beaten.\n\n"
        "The rules and assumptions; the pay table in words (each line's combinations, probability, odds and return); "
        "house edge, return to player, hit frequency, SD, volatility index and element of risk; the same on 1, 2, "
        "4, 6 and 8 decks and a continuous shuffler; the house's result after 10^3 to 10^6 hands from the exact "
        "distribution; effects of removal; the best linear count (tags, start and trigger) and the perfect counter "
        "at two penetrations, with a verdict; edge sorting (1 and 4 cards read); the first card known; the cut "
        "card's effect; a simulation check of the exact figures.  Exact figures are fractions; simulated ones come "
        "as value ± 1 SE with their seeds.  The simulations' sizes not given are measured up to budgets on the "
        "cores here (the design 6 s, the count 12 s and the perfect counter 15 s at each cut; the perfect counter "
        "on pair bets on one core), and the report says which it chose.  With --backend gpu the count design's "
        "histogram, the count at each cut and, on bets on card values, the perfect counter and the cut card's "
        "effect run on a CUDA GPU (sized from its nominal rate, not measured), the same figures as on the threads; "
        "the perfect counter on pair bets and the simulation check stay on the CPU's threads.  Without --out or "
        "--json the figures are printed as tables.")

REPORT = Command(
    ("report",), HELP,
    (Param("bet", "--bet", "The bet (see 'baccara bets'), e.g. dragon7, panda8.", short="-b"),
     Param("decks", "--decks", "Number of decks, a positive integer (default 8).", short="-d", web_max=20),
     COMPOSITION, BETS, COMMISSION, TIE_PAYS, SUPER6_PAYS, TABLEAU, OUT,
     Param("seed", "--seed", "Seed of the simulations, 0 to 2^63 - 4 (default 0): the count is designed on shoes of "
                             "SEED, measured on shoes of SEED + 1; the simulation check deals shoes of SEED + 2.", "0"),
     Param("design_shoes", "--design-shoes", f"Shoes on which the count's trigger is chosen (default: sized to "
                                             f"{DESIGN_BUDGET} s on the cores here, or on the GPU at its "
                                             f"nominal rate with --backend gpu; at least {DESIGN_SHOES:,}).",
           web_max=10**6),
     Param("count_shoes", "--count-shoes", f"Shoes on which the count is measured at each cut (default: sized to "
                                           f"{COUNT_BUDGET} s on the cores here, or on the GPU at its nominal "
                                           f"rate with --backend gpu; at least {COUNT_SHOES:,}; 0: no simulation).",
           web_max=10**6),
     Param("perfect_shoes", "--perfect-shoes", f"Shoes for the perfect counter and the cut card's effect at each cut "
                                               f"(default: sized to {PERFECT_BUDGET} s on the cores here, or on the "
                                               f"GPU at its nominal rate with --backend gpu, at least "
                                               f"{PERFECT_SHOES:,}; on one core and at least {PERFECT_SHOES_RANK} for "
                                               "bets on ranks, the pairs).", web_max=10**5),
     Param("cuts", "--cuts", f"Cards behind the cut card, one simulation each, comma-separated (default {CUTS}: 96.6% "
                             "and 87.5% of 8 decks dealt; those a smaller shoe allows)."),
     Param("level", "--level", "Tags of the designed count from -LEVEL to LEVEL: 1, 2 or 3 (default 2).", "2"),
     Param("sort_cards", "--sort-cards", "Cards read in the edge-sorting sections, 1 to 4 each, comma-separated "
                                         "(default 1,4).", "1,4"),
     Param("check_hands", "--check-hands", f"Hands dealt to check the exact figures by simulation, every coup from "
                                           f"the full shoe (default {CHECK_HANDS:,}; 0: no check).", str(CHECK_HANDS),
           web_max=10**9),
     Param("workers", "--workers", "Threads for the simulations on the CPU, 1 to twice the cores (default: all "
                                   "cores).",
           short="-j", web=False),
     Param("backend", "--backend", "threads (default), or gpu: the count design's histogram, the count and, on bets "
                                   "on card values, the perfect counter and the cut card's effect on a CUDA GPU (pip "
                                   "install 'baccara[gpu]'), the same figures; the perfect counter on pair bets and "
                                   "the simulation check stay on the CPU's threads.", "threads",
           web=False)),
    ".report:report")


def command_line(values: Mapping[str, Any], json_out: bool = False) -> str:
    """The command that makes a report, from its parameters' values: ``baccara report --bet dragon7 ...``.

    Parameters
    ----------
    values : mapping
        Each parameter of :data:`REPORT` by keyword; those left at their default (or None) are not written.
    json_out : bool
        Also write ``--json`` (after ``--out``), as the command line was given it.

    Returns
    -------
    str
        The command, its values quoted for a POSIX shell.
    """
    parts = list(REPORT.cli.split())
    for p in REPORT.params:
        value = values.get(p.name)
        if not (value is None or value == p.default or value is False):
            parts += [p.flag] if value is True else [p.flag, str(value)]
        if p is OUT and json_out:
            parts.append("--json")
    return shlex.join(parts)


def _sized(bet: Any, decks: int, cuts: tuple[int, ...], seed: int, workers: int | None, design: int | None,
           count: int | None, perfect: int | None,
           backend: str = "threads") -> tuple[int | None, int | None, int | None, list]:
    """The sizes not given, from short measured runs here and the budgets (the design, the count and, on bets on
    card values, the perfect counter on the GPU: from its nominal rate); the library's defaults are the least."""
    from ..processes import default_workers  # lazy: sockets, processes: not at --help
    from ..sim.count_analysis import CountJob, perfect_on_gpu  # lazy: loaded when the command runs
    from ..sim.counting import BetRule, CountSystem  # lazy: loaded when the command runs
    from ..sim.distributed import calibrate  # lazy: loaded when the command runs
    from ..sim.gpu import size_gpu_job  # lazy: loaded when the command runs
    from ..workload import size_to_budget  # lazy: loaded when the command runs

    cores, cut, sizes = workers or default_workers(), cuts[0], []
    probe = CountSystem("probe", (1.0,) * 13, (BetRule(bet.name, "true"),), cut=cut)
    if backend == "gpu":  # the design's histogram and the count run on the GPU, at its nominal rate (simulator: timed)
        if design is None:
            sizes.append(size_gpu_job(CountJob(seed, 10**9, decks, bet, probe, cut), "the count design", decks, cut,
                                      DESIGN_BUDGET, DESIGN_SHOES, 10**9))
            design = sizes[-1].shoes
        if count is None:
            sizes.append(size_gpu_job(CountJob(seed, 10**9, decks, bet, probe, cut), "the count, at each cut,", decks,
                                      cut, COUNT_BUDGET, COUNT_SHOES, 10**9))
            count = sizes[-1].shoes
    elif design is None or count is None:
        per_shoe = calibrate(CountJob(seed, 10**9, decks, bet, probe, cut), 0.2).seconds_per_shoe
        if design is None:
            sizes.append(size_to_budget("the count design", per_shoe, DESIGN_BUDGET, cores, DESIGN_SHOES, 10**9))
            design = sizes[-1].shoes
        if count is None:
            sizes.append(size_to_budget("the count, at each cut,", per_shoe, COUNT_BUDGET, cores, COUNT_SHOES, 10**9))
            count = sizes[-1].shoes
    if perfect is None and count:
        least = PERFECT_SHOES if bet.resolution == "value" else PERFECT_SHOES_RANK
        if backend == "gpu" and all(perfect_on_gpu(CountJob(seed, 1, decks, bet, None, c)) for c in cuts):
            sizes.append(size_gpu_job(CountJob(seed, 10**7, decks, bet, None, cut, chunk_size=8, every_coup=True),
                                      "the perfect counter, at each cut,", decks, cut, PERFECT_BUDGET, least, 10**7,
                                      kind="perfect"))  # bets on values: at the GPU's nominal rate
        else:
            job = CountJob(seed, 10**6, decks, bet, None, cut, chunk_size=8, every_coup=True)
            per_shoe = calibrate(job, 0.2).seconds_per_shoe
            on = 1 if job.holds_gil else cores  # compiled on threads for bets on card values; pairs in this process
            what = "the perfect counter, at each cut," + (" on the CPU," if backend == "gpu" else "")
            sizes.append(size_to_budget(what, per_shoe, PERFECT_BUDGET, on, least, 10**7))
        perfect = sizes[-1].shoes
    return design, count, perfect, sizes


def report(*, bet: str | None, decks: str | None, composition: str | None, bets: str | None, commission: str,
           tie_pays: str, super6_pays: str, tableau: str | None, out_path: str | None, seed: str,
           design_shoes: str | None, count_shoes: str | None, perfect_shoes: str | None, cuts: str | None, level: str,
           sort_cards: str, check_hands: str, workers: str | None, backend: str = "threads") -> Result:
    """The math report of one bet (:data:`REPORT`).

    Parameters
    ----------
    bet : str or None
        The bet's name (required: None is refused, naming ``--bet``).
    decks, composition : str or None
        The shoe (finite).
    bets, tableau : str or None
        TOML files of user-defined bets and of drawing rules.
    commission, tie_pays, super6_pays : str
        The house's terms of the built-in bets.
    out_path : str or None
        Where the command line writes the page: checked here before any work, and quoted in the report's
        command; the command line writes it (:func:`baccara.punto.report_html.write_report`).
    seed, design_shoes, count_shoes, perfect_shoes, cuts, level, sort_cards, check_hands : str or None
        The simulations (sizes not given are measured up to budgets on the cores here).
    workers : str or None
        Threads for the simulations on the CPU.
    backend : str
        ``threads``, or ``gpu``: the count design's histogram, the count and, on bets on card values, the
        perfect counter and the cut card's effect on a CUDA GPU (checked here, before any work); the perfect
        counter on pair bets and the simulation check on the threads.

    Returns
    -------
    Result
        :func:`baccara.punto.mathreport.math_report`'s, its command :func:`command_line`'s.
    """
    from ..processes import check_workers  # lazy: sockets, processes: not at --help

    if not bet:
        raise BaccaraError("--bet: give the bet to report on, e.g. --bet dragon7 (see 'baccara bets')")
    if decks is not None and composition is not None:
        raise BaccaraError("choose one shoe: --decks and --composition were both given")
    if decks is not None and decks.strip().lower() in ("inf", "infinite"):
        raise BaccaraError("--decks: a math report needs a finite shoe (effects of removal, counting), not 'inf'")
    if out_path is not None:  # before any work: a bad --out fails at once, not after the simulations
        check_out(out_path)
    n_workers = None if workers is None else check_workers(workers)  # before any work too: the runners' range
    on = str(backend).strip().lower()
    if on not in ("threads", "gpu"):
        raise BaccaraError(f"--backend of report must be threads or gpu, got {backend!r}")
    if on == "gpu":  # before any work: no GPU (nor the CUDA simulator) fails at once, saying what it needs
        from ..sim.gpu import check_gpu  # lazy: numba-cuda only when the GPU is asked for

        check_gpu()
    shoe = build_shoe(decks, False, composition, None, None)
    rules = build_tableau(tableau)
    all_bets, house = build_bets(commission, tie_pays, super6_pays, bets)
    if bet not in all_bets:
        raise BaccaraError(f"--bet: unknown bet {bet!r}; bets are {', '.join(all_bets)}")
    cut_list = None
    if cuts is not None:
        cut_list = tuple(params.integer(c, "--cuts", lo=6) for c in cuts.replace(" ", "").split(",") if c)
        if not cut_list:
            raise BaccaraError("--cuts: give at least one number of cards behind the cut card, e.g. 14,52")
    sorts = tuple(params.integer(c, "--sort-cards", lo=1, hi=4) for c in sort_cards.replace(" ", "").split(",") if c)
    n_seed = params.integer(seed, "--seed", lo=0, hi=2**63 - 4)
    sizes = (None if design_shoes is None else params.integer(design_shoes, "--design-shoes", lo=1, hi=10**9),
             None if count_shoes is None else params.integer(count_shoes, "--count-shoes", lo=0, hi=10**12),
             None if perfect_shoes is None else params.integer(perfect_shoes, "--perfect-shoes", lo=0, hi=10**7))
    n_decks = None if composition is not None else (8 if decks is None else params.integer(decks, "--decks", lo=1))
    if n_decks is not None and None in sizes and sizes[1] != 0:
        try:
            *chosen, how = _sized(all_bets[bet], n_decks, cut_list or tuple(int(c) for c in CUTS.split(",")),
                                  n_seed, n_workers, *sizes, backend=on)
        except BaccaraError:  # a shoe or cut the report refuses in its own words below
            chosen, how = list(sizes), []
        sizes = tuple(chosen)  # type: ignore[assignment]
        for z in how:
            say(f"report: {z.describe()}; give its shoes to choose")
    from ..punto.mathreport import math_report  # lazy: NumPy and the simulators, when a report is made

    values = {"bet": bet, "decks": decks, "composition": composition, "bets": bets, "commission": commission,
              "tie_pays": tie_pays, "super6_pays": super6_pays, "tableau": tableau, "out_path": out_path,
              "seed": seed, "design_shoes": design_shoes, "count_shoes": count_shoes, "perfect_shoes": perfect_shoes,
              "cuts": cuts, "level": level, "sort_cards": sort_cards, "check_hands": check_hands, "workers": workers,
              "backend": on}
    return math_report(
        shoe, all_bets[bet], tableau=rules, parameters=house, seed=n_seed,
        design_shoes=DESIGN_SHOES if sizes[0] is None else sizes[0],
        count_shoes=COUNT_SHOES if sizes[1] is None else sizes[1],
        perfect_shoes=sizes[2],
        cuts=cut_list, sort_cards=sorts, level=params.integer(level, "--level", lo=1, hi=3), workers=n_workers,
        backend=on,
        check_hands=params.integer(check_hands, "--check-hands", lo=0, hi=10**12),
        command=command_line(values),
        progress=_stages(len(sorts) + 2 * len(cut_list or CUTS.split(",")) + 7),
    )


def _stages(expected: int) -> Callable[[str], None]:
    """Where the report says which stage it is at: the web app's job (its progress, and its cancel, between
    stages), else a line on standard error."""
    hook = PROGRESS.get()
    if hook is None:
        return lambda line: say(f"report: {line}")
    done = [0]

    def stage(line: str) -> None:
        hook(done[0], max(expected, done[0] + 1), line)  # may raise: the job was cancelled
        done[0] += 1

    return stage
