"""``baccara report``: the math report of one bet, as an HTML page, a PDF or JSON.

A thin command: it parses the shoe and the bet as ``baccara edge`` does, calls
:func:`baccara.punto.mathreport.math_report` and writes the page with
:mod:`baccara.punto.report_html`.  The heavy modules (NumPy, numba, matplotlib)
are imported inside the command, so ``baccara --help`` loads none of them.
"""

from __future__ import annotations

import shlex

import typer

from .. import params
from ..errors import BaccaraError
from ..punto.report_out import check_out
from .common import (
    BETS,
    COMMISSION,
    COMPOSITION,
    SUPER6_PAYS,
    TABLEAU,
    TIE_PAYS,
    app,
    build_bets,
    build_shoe,
    build_tableau,
    render,
    say,
)
from .errors import handles_errors

#: The default simulation sizes (those of :mod:`baccara.punto.mathreport`, repeated here so that
#: ``--help`` needs no NumPy; tests/test_report.py checks that they agree).
DESIGN_SHOES, COUNT_SHOES, PERFECT_SHOES, PERFECT_SHOES_RANK, CUTS = 20_000, 100_000, 4_000, 300, "14,52"
CHECK_HANDS = 100_000_000
#: Seconds of the report's simulations when their sizes are not given: the design, the count at each
#: cut and the perfect counter at each cut, on every core (the perfect counter on pair bets: one core,
#: it runs the exact engine from Python in this process).
DESIGN_BUDGET, COUNT_BUDGET, PERFECT_BUDGET = 6, 12, 15


def _sized(bet, decks: int, cuts: tuple[int, ...], seed: int, workers: int | None, design: int | None,
           count: int | None, perfect: int | None) -> tuple[int | None, int | None, int | None, list]:
    """The sizes not given, from short measured runs here and the budgets; the library's defaults are the least."""
    from ..processes import default_workers  # sockets, processes: not at --help
    from ..sim.count_analysis import CountJob
    from ..sim.counting import BetRule, CountSystem
    from ..sim.distributed import calibrate
    from ..workload import size_to_budget

    cores, cut, sizes = workers or default_workers(), cuts[0], []
    if design is None or count is None:
        probe = CountSystem("probe", (1.0,) * 13, (BetRule(bet.name, "true"),), cut=cut)
        per_shoe = calibrate(CountJob(seed, 10**9, decks, bet, probe, cut), 0.2).seconds_per_shoe
        if design is None:
            sizes.append(size_to_budget("the count design", per_shoe, DESIGN_BUDGET, cores, DESIGN_SHOES, 10**9))
            design = sizes[-1].shoes
        if count is None:
            sizes.append(size_to_budget("the count, at each cut,", per_shoe, COUNT_BUDGET, cores, COUNT_SHOES, 10**9))
            count = sizes[-1].shoes
    if perfect is None and count:
        job = CountJob(seed, 10**6, decks, bet, None, cut, chunk_size=8, every_coup=True)
        per_shoe = calibrate(job, 0.2).seconds_per_shoe
        least = PERFECT_SHOES if bet.resolution == "value" else PERFECT_SHOES_RANK
        on = 1 if job.holds_gil else cores  # compiled on threads for bets on card values; pairs in this process
        sizes.append(size_to_budget("the perfect counter, at each cut,", per_shoe, PERFECT_BUDGET, on, least, 10**7))
        perfect = sizes[-1].shoes
    return design, count, perfect, sizes


@app.command("report")
@handles_errors
def report(
    bet: str | None = typer.Option(None, "--bet", "-b", help="The bet (see 'baccara bets'), e.g. dragon7, panda8."),
    decks: str | None = typer.Option(None, "--decks", "-d", help="Number of decks, a positive integer (default 8)."),
    composition: str | None = COMPOSITION,
    bets: str | None = BETS,
    commission: str = COMMISSION,
    tie_pays: str = TIE_PAYS,
    super6_pays: str = SUPER6_PAYS,
    tableau: str | None = TABLEAU,
    out_path: str | None = typer.Option(None, "--out", "-o", help="Write the report to FILE.html (self-contained) "
                                                                  "or FILE.pdf (printed by Chromium)."),
    json_out: bool = typer.Option(False, "--json", help="Print the report's figures as JSON (exact numbers as "
                                                        "'num/den' strings, floats beside them)."),
    seed: str = typer.Option("0", "--seed", help="Seed of the simulations, 0 to 2^63 - 4 (default 0): the count is "
                                                 "designed on shoes of SEED, measured on shoes of SEED + 1; the "
                                                 "simulation check deals shoes of SEED + 2."),
    design_shoes: str | None = typer.Option(None, "--design-shoes",
                                            help=f"Shoes on which the count's trigger is chosen (default: sized to "
                                                 f"{DESIGN_BUDGET} s on the cores here, at least {DESIGN_SHOES:,})."),
    count_shoes: str | None = typer.Option(None, "--count-shoes",
                                           help=f"Shoes on which the count is measured at each cut (default: sized to "
                                                f"{COUNT_BUDGET} s on the cores here, at least {COUNT_SHOES:,}; "
                                                "0: no simulation)."),
    perfect_shoes: str | None = typer.Option(None, "--perfect-shoes",
                                             help=f"Shoes for the perfect counter and the cut card's effect at each "
                                                  f"cut (default: sized to {PERFECT_BUDGET} s on the cores here, at "
                                                  f"least {PERFECT_SHOES:,}; on one core and at least "
                                                  f"{PERFECT_SHOES_RANK} for bets on ranks, the pairs)."),
    cuts: str | None = typer.Option(None, "--cuts", help=f"Cards behind the cut card, one simulation each, "
                                                         f"comma-separated (default {CUTS}: 96.6% and 87.5% of 8 "
                                                         "decks dealt; those a smaller shoe allows)."),
    level: str = typer.Option("2", "--level", help="Tags of the designed count from -LEVEL to LEVEL: 1, 2 or 3 "
                                                   "(default 2)."),
    sort_cards: str = typer.Option("1,4", "--sort-cards", help="Cards read in the edge-sorting sections, 1 to 4 "
                                                               "each, comma-separated (default 1,4)."),
    check_hands: str = typer.Option(str(CHECK_HANDS), "--check-hands",
                                    help=f"Hands dealt to check the exact figures by simulation, every coup from the "
                                         f"full shoe (default {CHECK_HANDS:,}; 0: no check)."),
    workers: str | None = typer.Option(None, "--workers", "-j", help="Threads for the simulations, 1 to 256 "
                                                                    "(default: all cores)."),
) -> None:
    """The math report of one bet as HTML, PDF or JSON: its pay table, exact figures, the house's result, and whether it can be beaten.

    The rules and assumptions; the pay table in words (each line's combinations,
    probability, odds and return); house edge, return to player, hit frequency,
    SD, volatility index and element of risk; the same on 1, 2, 4, 6 and 8 decks
    and a continuous shuffler; the house's result after 10^3 to 10^6 hands from
    the exact distribution; effects of removal; the best linear count (tags, start
    and trigger) and the perfect counter at two penetrations, with a verdict;
    edge sorting (1 and 4 cards read); the first card known; the cut card's
    effect; a simulation check of the exact figures.  Exact figures are
    fractions; simulated ones come as value ± 1 SE with their seeds.  The
    simulations' sizes not given are measured up to budgets on the cores here
    (the design 6 s, the count 12 s and the perfect counter 15 s at each cut; the
    perfect counter on pair bets on one core), and the report says which it
    chose.  Without --out or --json the figures are printed as tables.
    """
    if not bet:
        raise BaccaraError("--bet: give the bet to report on, e.g. --bet dragon7 (see 'baccara bets')")
    if decks is not None and composition is not None:
        raise BaccaraError("choose one shoe: --decks and --composition were both given")
    if decks is not None and decks.strip().lower() in ("inf", "infinite"):
        raise BaccaraError("--decks: a math report needs a finite shoe (effects of removal, counting), not 'inf'")
    if out_path is not None:  # before any work: a bad --out fails at once, not after the simulations
        check_out(out_path)
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
    n_workers = None if workers is None else params.integer(workers, "--workers", lo=1, hi=256)
    n_seed = params.integer(seed, "--seed", lo=0, hi=2**63 - 4)
    sizes = (None if design_shoes is None else params.integer(design_shoes, "--design-shoes", lo=1, hi=10**9),
             None if count_shoes is None else params.integer(count_shoes, "--count-shoes", lo=0, hi=10**12),
             None if perfect_shoes is None else params.integer(perfect_shoes, "--perfect-shoes", lo=0, hi=10**7))
    n_decks = None if composition is not None else (8 if decks is None else params.integer(decks, "--decks", lo=1))
    if n_decks is not None and None in sizes and sizes[1] != 0:
        try:
            *chosen, how = _sized(all_bets[bet], n_decks, cut_list or tuple(int(c) for c in CUTS.split(",")),
                                  n_seed, n_workers, *sizes)
        except BaccaraError:  # a shoe or cut the report refuses in its own words below
            chosen, how = list(sizes), []
        sizes = tuple(chosen)  # type: ignore[assignment]
        for z in how:
            say(f"report: {z.describe()}; give its shoes to choose")
    from ..punto.mathreport import math_report

    result = math_report(
        shoe, all_bets[bet], tableau=rules, parameters=house, seed=n_seed,
        design_shoes=DESIGN_SHOES if sizes[0] is None else sizes[0],
        count_shoes=COUNT_SHOES if sizes[1] is None else sizes[1],
        perfect_shoes=sizes[2],
        cuts=cut_list, sort_cards=sorts, level=params.integer(level, "--level", lo=1, hi=3), workers=n_workers,
        check_hands=params.integer(check_hands, "--check-hands", lo=0, hi=10**12),
        command=_command([
            ("--bet", bet, None), ("--decks", decks, None), ("--composition", composition, None),
            ("--bets", bets, None), ("--commission", commission, COMMISSION.default),
            ("--tie-pays", tie_pays, TIE_PAYS.default), ("--super6-pays", super6_pays, SUPER6_PAYS.default),
            ("--tableau", tableau, None), ("--out", out_path, None), ("--json", json_out, False), ("--seed", seed, "0"),
            ("--design-shoes", design_shoes, None), ("--count-shoes", count_shoes, None),
            ("--perfect-shoes", perfect_shoes, None), ("--cuts", cuts, None), ("--level", level, "2"),
            ("--sort-cards", sort_cards, "1,4"), ("--check-hands", check_hands, str(CHECK_HANDS)),
            ("--workers", workers, None)]),
        progress=lambda line: say(f"report: {line}"),
    )
    if out_path is not None:
        from ..punto.report_html import write_report  # lazy: matplotlib and the page, only for --out

        written = write_report(result, out_path)
        say(f"report written to {written}")
    if json_out or out_path is None:  # render: the web app's job takes the report from here
        render(result, json_out)



def _command(options: list[tuple[str, object, object]]) -> str:
    """The command that made the report, from the options given: ``baccara report --bet dragon7 ...``.

    Parameters
    ----------
    options : list of (flag, value, default)
        Every option; those left at their default (or None) are not written.

    Returns
    -------
    str
        The command, its values quoted for a POSIX shell.
    """
    parts = ["baccara", "report"]
    for flag, value, default in options:
        if value is None or value == default or value is False:
            continue
        parts += [flag] if value is True else [flag, str(value)]
    return shlex.join(parts)
