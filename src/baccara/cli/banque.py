"""``baccara banque ...``: baccara banque's three solution concepts (Ethier and Lee 2015)."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

import typer

from .. import params
from ..errors import BaccaraError, ParameterError, ShoeError
from ..shoe import MAX_COMPOSITION_CARDS
from ..workload import check_workload
from .errors import handles_errors

if TYPE_CHECKING:  # the games load when a command runs: the command line starts fast
    from ..banque.model import BanqueGame
    from ..result import Result
from .common import (
    ADD,
    ALLOW_LONG,
    COMPOSITION,
    JSON,
    PROOF_BACKEND,
    REMOVE,
    SCHEDULER,
    build_shoe,
    out,
    progress_bar,
    render,
    say,
)

# ---------------------------------------------------------------- baccara banque
banque_app = typer.Typer(help="Baccara banque (Ethier and Lee 2015): the three-person game's solutions.", no_args_is_help=True,
                         rich_markup_mode=None)
CONCEPTS = ("correlated", "independent", "nash")
BANQUE_MODELS = ("simplified", "traditional", "recent")


BANQUE_DECKS = typer.Option(None, "--decks", "-d",
                            help="Decks in the shoe, 1 to 19, or 'inf' (default: the infinite shoe of Ethier and Lee 2015).")


def banque_shoe(decks: str | None, composition: str | None, remove: str | None, add: str | None) -> BanqueGame:
    """The game on the shoe the options choose (default: the paper's infinite shoe)."""
    from ..banque.model import banque_game

    if decks is None and composition is None and remove is None and add is None:
        return banque_game()
    if decks is not None:
        params.decks(decks, "--decks", hi=MAX_COMPOSITION_CARDS // 52)
    shoe = build_shoe("inf" if decks is None and composition is None else decks, False, composition, remove, add)
    try:
        return banque_game(shoe)
    except ShoeError as e:
        raise BaccaraError(f"{'--composition' if composition is not None else '--decks'}: {e}") from None


@banque_app.command("solve")
@handles_errors
def banque_solve(
    theta: str = typer.Option("1/2", "--theta", "-t", help="Share of the total stake bet on Player 1, in (0, 1)."),
    concept: str = typer.Option("correlated", "--concept", "-c", help="correlated | independent | nash."),
    model: str = typer.Option("simplified", "--model", "-m", help="simplified | traditional | recent."),
    decks: str | None = BANQUE_DECKS, composition: str | None = COMPOSITION,
    remove: str | None = REMOVE, add: str | None = ADD,
    json_out: bool = JSON,
) -> dict | None:
    """Solve baccara banque at one theta (exact, with a certificate), on any shoe."""
    th = params.theta(theta, "--theta")
    concept = params.choice(concept, "--concept", CONCEPTS, case="exact")
    model = params.choice(model, "--model", BANQUE_MODELS, case="exact")
    if model != "simplified" and concept != "correlated":
        raise BaccaraError(f"--concept {concept} --model {model} is not available yet: the full models have "
                           "the correlated cooperative equilibrium (and Banker's minimax strategy)")
    from ..banque.correlated_eq.solution import correlated_equilibrium
    from ..banque.full_models import full_correlated_equilibrium
    from ..banque.independent_eq.solution import solve_independent
    from ..banque.nash_eq.solution import nash_equilibria

    game = banque_shoe(decks, composition, remove, add)
    result: Result
    if model != "simplified":
        result = full_correlated_equilibrium(game, th, model)
    elif concept == "nash":
        result = nash_equilibria(game, th)
    elif concept == "independent":
        result = solve_independent(game, th)
    else:
        result = correlated_equilibrium(game, th)
    return render(result, json_out)


@banque_app.command("advantage")
@handles_errors
def banque_advantage(
    theta: str = typer.Option("1/2", "--theta", "-t", help="Share of the total stake bet on Player 1, in (0, 1)."),
    decks: str | None = BANQUE_DECKS, composition: str | None = COMPOSITION,
    remove: str | None = REMOVE, add: str | None = ADD, json_out: bool = JSON,
) -> list | None:
    """Banker's advantage under each assumption beside the historical estimates (Ethier and Lee 2015, section 1)."""
    from ..banque.comparison import AdvantageComparison, banker_advantage_comparison

    th = params.theta(theta, "--theta")
    game = banque_shoe(decks, composition, remove, add)
    return render(AdvantageComparison(th, game.label(), banker_advantage_comparison(th, game)), json_out)


#: Most theta values a banque plot samples.
MAX_POINTS = 100_000
#: Measured seconds of one core for each figure: fixed, then per point.
PLOT_SECONDS = {1: (80.0, 0.0), 2: (0.0, 0.08), 3: (0.0, 0.22), 4: (240.0, 0.001)}


@banque_app.command("plot")
@handles_errors
def banque_plot(output: str = typer.Option("banque.png", "--out", "-o", metavar="FILE",
                                          help="Image file to write (.png, .pdf, .svg)."),
                figure: int = typer.Option(1, "--figure", "-f", metavar="1-4",
                                           help="Ethier and Lee's (2015) figure: 1 correlated value and mixture; "
                                                "2 independent p1, p2; 3 upper - lower value; 4 Nash p1, p2."),
                points: int = typer.Option(200, "--points", metavar="N",
                                           help=f"Theta values sampled (figures 2-4), 2 to {MAX_POINTS}."),
                allow_long: bool = ALLOW_LONG) -> None:
    """Plot Ethier and Lee's (2015) Figures 1-4 (banque over theta)."""
    if figure not in (1, 2, 3, 4):
        raise BaccaraError(f"--figure must be 1, 2, 3 or 4, got {figure}")
    if not 2 <= points <= MAX_POINTS:
        raise BaccaraError(f"--points must be a whole number from 2 to {MAX_POINTS}, got {points}")
    params.output_file(output, "--out", params.IMAGE_SUFFIXES)
    fixed, per_point = PLOT_SECONDS[figure]
    check_workload(f"Figure {figure} with {points} points", fixed + per_point * points, allow_long,
                   "ask for fewer --points", say)
    from ..plots import plot_banque_correlated, plot_banque_series

    try:
        if figure == 4:
            path = _banque_nash_plot(points, output)
        elif figure == 1:
            from ..banque.correlated_eq.sweep import correlated_sweep

            with progress_bar() as bar:
                task = bar.add_task("sweeping theta from 1/2 down to 0 (per mille)", total=1000)
                pieces = correlated_sweep(progress=lambda left: bar.update(task, completed=int(1000 * (0.5 - left) / 0.5)))
            path = plot_banque_correlated(pieces, output)
        else:
            path = _banque_series_plot(figure, points, output, plot_banque_series)
    except BaccaraError:
        raise
    except (OSError, ValueError) as e:
        raise BaccaraError(f"--out: cannot write {output!r}: {e}") from None
    out.print(f"wrote {path}", highlight=False)


def _banque_nash_plot(points: int, output: str):
    """Figure 4 from every exact Nash branch on (0, 1/4] (p1 = p2 = 9/11 above 5772/33847)."""
    from ..banque.nash_eq.events import THETA_9_11
    from ..banque.nash_eq.sweep import nash_branches
    from ..plots import plot_banque_branches

    with progress_bar() as bar:
        task = bar.add_task("Nash branches: intervals sampled", total=1)
        branches, _ = nash_branches(progress=lambda done, total: bar.update(task, completed=done, total=total))
    segs = []
    for br in branches:
        a, b = float(br.lo), float(br.hi)
        n = max(2, int(points * (b - a) / 0.25))
        xs = [a + (b - a) * (k + 0.5) / n for k in range(n)]
        pts = [br.locus.at(Fraction(x).limit_denominator(10**9)) for x in xs]
        segs.append((xs, {"p1": [float(p[0]) for p in pts], "p2": [float(p[1]) for p in pts]}))
    segs.append(([float(THETA_9_11), 0.25], {"p1": [9 / 11] * 2, "p2": [9 / 11] * 2}))
    return plot_banque_branches(segs, output, "Nash equilibria: the Players' strategies (every branch)",
                                "probability of drawing at 5")


def _banque_series_plot(figure: int, points: int, output: str, plot):
    from ..banque.independent_eq.sweep import float_independent, upper_value

    hi = 0.25 if figure == 2 else 0.5
    xs = [hi * (k + 0.5) / points for k in range(points)]
    series: dict[str, list[float]] = {}
    with progress_bar() as bar:
        task = bar.add_task(f"figure {figure}", total=points)
        for x in xs:
            if figure == 2:
                s = float_independent(x)
                series.setdefault("p1", []).append(s.p1)
                series.setdefault("p2", []).append(s.p2)
            else:
                series.setdefault("(upper - lower) x 10^5", []).append(
                    1e5 * (upper_value(x) - float_independent(x).lower))
            bar.advance(task)
    titles = {2: ("Independent cooperative equilibrium: the Players' maximin strategies", "probability of drawing at 5"),
              3: ("Upper minus lower value of the independent cooperative game", "difference x 10^5")}
    return plot(xs, series, output, *titles[figure], jumps=figure != 3)


#: Measured seconds of one core for each banque sweep (all under the limit: announced, never refused).
SWEEP_SECONDS = {"correlated": 110.0, "independent": 120.0, "nash": 240.0}
#: ... and for --prove-samples: one exact lower-value proof on each of the 131 intervals, about 2 s each.
PROVE_SAMPLES_SECONDS = 131 * 2.0
#: ... and for --prove-intervals S: the 131 intervals at about 14 s each (measured: 1,758 CPU-s in all
#: at 60 s an interval), none longer than S.
INDEPENDENT_INTERVALS = 131
PROVE_INTERVAL_SECONDS = 14.0
#: ``banque prove --concept independent``: one theta's exact proof as an artefact (measured 0.8 to 3.1 s).
PROVE_VALUE_SECONDS = 3.0
#: ``banque prove`` (nash): measured seconds of one core for the event analysis of each part of (0, 1/2]
#: cut at 5772/33847 (about 10 and 33 minutes), and for the complete enumeration at every sample of the
#: whole range (about 2 minutes); a part of a part is taken in proportion to its length.
NASH_EVENT_SECONDS = (600.0, 1980.0)
NASH_ENUMERATION_SECONDS = 120.0


def nash_prove_seconds(lo: Fraction, hi: Fraction, stored: bool) -> float:
    """The estimated duration of ``banque prove`` (nash) over (lo, hi], in seconds of one core.

    Parameters
    ----------
    lo, hi : Fraction
        The range, 0 <= lo < hi <= 1/2.
    stored : bool
        Whether the events of a whole stored part are read from the package's files (no analysis).

    Returns
    -------
    float
        Seconds: the event analysis of each part not stored, and the enumeration.
    """
    from ..banque.nash_eq.events import THETA_9_11

    half = Fraction(1, 2)
    seconds = NASH_ENUMERATION_SECONDS * float((hi - lo) / half)
    for (a, b), cost in zip(((Fraction(0), THETA_9_11), (THETA_9_11, half)), NASH_EVENT_SECONDS):
        x, y = max(lo, a), min(hi, b)
        if x >= y or (stored and (x, y) == (a, b)):
            continue
        seconds += cost * float((y - x) / (b - a))
    return seconds


@banque_app.command("sweep")
@handles_errors
def banque_sweep_cmd(
    concept: str = typer.Option("correlated", "--concept", "-c",
                                help="correlated or nash (exact endpoints), or independent (endpoints by bisection)."),
    prove_samples: bool = typer.Option(False, "--prove-samples",
                                       help="independent only: prove the lower value exactly at a rational "
                                            "theta inside every interval (about 2 s an interval)."),
    prove_intervals: str | None = typer.Option(None, "--prove-intervals", metavar="SECONDS",
                                               help="independent only: prove the lower value for every theta of "
                                                    "each interval, at most SECONDS (> 0) an interval "
                                                    "(about 30 minutes in all; 120 proves all but the first of the 131)."),
    json_out: bool = JSON,
) -> dict | None:
    """The partition of (0, 1/2] into theta-intervals with one solution formula each (progress bar)."""
    from ..banque.sweeps import sweep
    from ..errors import ParameterError

    concept = params.choice(concept, "--concept", CONCEPTS, case="exact")
    if prove_samples and concept != "independent":
        raise ParameterError(f"--prove-samples goes with --concept independent only, got --concept {concept}")
    limit = None
    if prove_intervals is not None:
        if concept != "independent":
            raise ParameterError(f"--prove-intervals goes with --concept independent only, got --concept {concept}")
        limit = _seconds(prove_intervals)
    seconds = SWEEP_SECONDS[concept] + (PROVE_SAMPLES_SECONDS if prove_samples else 0.0)
    seconds += 0.0 if limit is None else INDEPENDENT_INTERVALS * min(limit, PROVE_INTERVAL_SECONDS)
    what = [w for w, on in (("its samples proved", prove_samples), ("its intervals proved", limit is not None)) if on]
    check_workload(f"the {concept} sweep over (0, 1/2]{' with ' + ' and '.join(what) if what else ''}",
                   seconds, False, "", say)
    from ..commands import PROGRESS  # lazy: read only when a sweep starts

    hook = PROGRESS.get()
    if hook is not None:  # the web app's job: its own progress (and its cancel), no bar
        result = sweep(concept, lambda stage, done, total: hook(done, total, stage), prove_samples=prove_samples,
                       prove_intervals=limit)
        return render(result, json_out)
    with progress_bar() as bar:
        tasks: dict[str, Any] = {}

        def progress(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = bar.add_task(stage, total=total)
            bar.update(tasks[stage], completed=done, total=total)

        result = sweep(concept, progress, prove_samples=prove_samples, prove_intervals=limit)
    return render(result, json_out)


def _seconds(text: str) -> float:
    """--prove-intervals' time limit: a positive number of seconds, at most a day."""
    from ..errors import ParameterError

    try:
        x = float(text)
    except ValueError:
        raise ParameterError(f"--prove-intervals: a number of seconds in (0, 86400], got {text!r}") from None
    if not 0 < x <= 86400:
        raise ParameterError(f"--prove-intervals: a number of seconds in (0, 86400], got {text}")
    return x




#: ``baccara banque prove --theta``: repeatable (a module-level default: the annotation is a list).
PROVE_THETAS = typer.Option(None, "--theta", "-t", help="independent: a theta in (0, 1) to prove the lower value at; "
                            "repeat it, or give several separated by commas.")


@banque_app.command("prove")
@handles_errors
def banque_prove(
    concept: str = typer.Option("nash", "--concept", "-c",
                                help="nash (every equilibrium over a range of theta) or independent (the "
                                     "independent cooperative lower value, exactly, at each --theta)."),
    lo: str | None = typer.Option(None, "--lo", help="nash: the range's lower end (excluded), in [0, 1/2) "
                                  "(default 0)."),
    hi: str | None = typer.Option(None, "--hi", help="nash: the range's upper end (included), in (0, 1/2] "
                                  "(default 1/2)."),
    theta: list[str] | None = PROVE_THETAS,
    output: str | None = typer.Option(None, "--out", "-o", metavar="FILE", help="Write the proof artefact here (.json)."),
    sweep_samples: bool = typer.Option(False, "--sweep-samples", help="independent: prove the value at one rational "
                                       "theta inside every interval of the theta-sweep instead (131, about 7 minutes)."),
    allow_long: bool = ALLOW_LONG,
    stored: bool = typer.Option(False, "--stored", help="nash: take the events of (0, 5772/33847) and "
                                "(5772/33847, 1/2) from the package's files (re-derived by the test suite) instead of "
                                "recomputing them."),
    workers: int = typer.Option(1, "--workers", "-j", help="Processes (1 to the number of cores): nash shares out "
                                "the candidates of the event analysis and the enumerations at the samples, "
                                "independent the theta.  The artefact is the same."),
    backend: str = PROOF_BACKEND, scheduler: str | None = SCHEDULER,
    json_out: bool = JSON,
) -> dict | None:
    """Prove a banque result and write a checkable artefact: the Nash equilibria over (lo, hi] (many minutes) or
    the independent cooperative lower value at each --theta (seconds each); `baccara check FILE` re-checks it.

    --workers, --backend and --scheduler share the work out among processes here or on a Dask cluster;
    the artefact is the same whichever runs it (but for its timings)."""
    import json
    import os

    from ..processes import Workers

    concept = params.choice(concept, "--concept", ("nash", "independent"), case="exact")
    path = params.output_file(output, "--out", (".json",)) if output is not None else None
    cores = os.cpu_count() or 1
    if not 1 <= workers <= cores:
        raise ParameterError(f"--workers must be 1 to {cores} (the cores here), got {workers}")
    backend, scheduler = params.backend(backend, scheduler)
    where = Workers(workers, backend, scheduler)
    share = workers if where.parallel and scheduler is None else 1      # a cluster's size is not known here
    result: Result
    if concept == "nash":
        for flag, given in (("--theta", bool(theta)), ("--sweep-samples", sweep_samples)):
            if given:
                raise ParameterError(f"{flag} goes with --concept independent; --concept nash takes a range, "
                                     "--lo and --hi")
        from ..banque.nash_eq.artefact import prove as run_prove

        a, b = params.theta_range("0" if lo is None else lo, "1/2" if hi is None else hi)
        check_workload(f"the Nash proof over ({a}, {b}]", nash_prove_seconds(a, b, stored) / share, allow_long,
                       "give a shorter range (--lo, --hi), or --stored, or more --workers", say)
        result = run_prove(a, b, progress=say, stored=stored, workers=where)
    else:
        for flag, given in (("--lo", lo is not None), ("--hi", hi is not None), ("--stored", stored)):
            if given:
                raise ParameterError(f"{flag} goes with --concept nash; --concept independent takes --theta")
        thetas = [params.theta(t.strip(), "--theta") for text in theta or [] for t in text.split(",")]
        if bool(thetas) == sweep_samples:
            raise ParameterError("--concept independent needs either --theta (rationals in (0, 1)) or "
                                 "--sweep-samples, not both")
        from ..banque.independent_eq.artefact import prove as prove_thetas
        from ..banque.independent_eq.artefact import prove_sweep_samples

        count = INDEPENDENT_INTERVALS if sweep_samples else len(thetas)
        if where.parallel and count == 1:
            say("note: --workers, --backend and --scheduler share out the theta of --concept independent; one "
                "theta is one process's work, so it runs here")
            where = Workers()
        check_workload(f"the exact lower value at {count} theta", count * PROVE_VALUE_SECONDS / share
                       + (SWEEP_SECONDS["independent"] if sweep_samples else 0.0), allow_long,
                       "give fewer --theta, or more --workers", say)
        result = (prove_sweep_samples(progress=say, workers=where) if sweep_samples
                  else prove_thetas(thetas, progress=say, workers=where))
    if path is not None:
        path.write_text(json.dumps(result.to_json(), indent=1) + "\n")
        say(f"wrote {path}")
    return render(result, json_out)
