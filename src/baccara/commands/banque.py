"""``baccara banque ...``: baccara banque's three solution concepts (Ethier and Lee 2015), declared once."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from .. import params
from ..errors import BaccaraError, ParameterError, ShoeError
from ..shoe import MAX_COMPOSITION_CARDS
from ..workload import check_workload
from . import PROGRESS, Command, Param
from .console import progress_bar, say
from .options import ADD, ALLOW_LONG, COMPOSITION, PROOF_BACKEND, REMOVE, SCHEDULER, build_shoe

if TYPE_CHECKING:  # the games load when a command runs: the command line starts fast
    from ..banque.model import BanqueGame
    from ..result import Result

CONCEPTS = ("correlated", "independent", "nash")
BANQUE_MODELS = ("simplified", "traditional", "recent")

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

THETA = Param("theta", "--theta", "Share of the total stake bet on Player 1, in (0, 1).", "1/2", short="-t")
DECKS = Param("decks", "--decks", "Decks in the shoe, 1 to 19, or 'inf' (default: the infinite shoe of Ethier and "
                                  "Lee 2015).", short="-d")
#: The game's shoe.
SHOE = (DECKS, COMPOSITION, REMOVE, ADD)

BANQUE_SOLVE = Command(
    ("banque", "solve"), "Solve baccara banque at one theta (exact, with a certificate), on any shoe.",
    (THETA, Param("concept", "--concept", "correlated | independent | nash.", "correlated", short="-c"),
     Param("model", "--model", "simplified | traditional | recent.", "simplified", short="-m"), *SHOE),
    ".banque:solve")
BANQUE_ADVANTAGE = Command(
    ("banque", "advantage"), "Banker's advantage under each assumption beside the historical estimates (Ethier and "
                             "Lee 2015, section 1).", (THETA, *SHOE), ".banque:advantage")
BANQUE_SWEEP = Command(
    ("banque", "sweep"), "The partition of (0, 1/2] into theta-intervals with one solution formula each (progress "
                         "bar).",
    (Param("concept", "--concept", "correlated or nash (exact endpoints), or independent (endpoints by bisection).",
           "correlated", short="-c"),
     Param("prove_samples", "--prove-samples", "independent only: prove the lower value exactly at a rational theta "
                                               "inside every interval (about 2 s an interval).", False, "bool"),
     Param("prove_intervals", "--prove-intervals", "independent only: prove the lower value for every theta of each "
                                                   "interval, at most SECONDS (> 0) an interval (about 30 minutes in "
                                                   "all; 120 proves all but the first of the 131).",
           metavar="SECONDS")),
    ".banque:sweep")
BANQUE_PROVE = Command(
    ("banque", "prove"), "Prove a banque result and write a checkable artefact: the Nash equilibria over (lo, hi] "
                         "(many minutes) or the independent cooperative lower value at each --theta (seconds each); "
                         "`baccara check FILE` re-checks it.\n\n--workers, --backend and --scheduler share the work "
                         "out among processes here or on a Dask cluster; the artefact is the same whichever runs it "
                         "(but for its timings).",
    (Param("concept", "--concept", "nash (every equilibrium over a range of theta) or independent (the independent "
                                   "cooperative lower value, exactly, at each --theta).", "nash", short="-c"),
     Param("lo", "--lo", "nash: the range's lower end (excluded), in [0, 1/2) (default 0)."),
     Param("hi", "--hi", "nash: the range's upper end (included), in (0, 1/2] (default 1/2)."),
     Param("theta", "--theta", "independent: a theta in (0, 1) to prove the lower value at; repeat it, or give "
                               "several separated by commas.", kind="list", short="-t"),
     Param("output", "--out", "Write the proof artefact here (.json).", short="-o", metavar="FILE", web=False),
     Param("sweep_samples", "--sweep-samples", "independent: prove the value at one rational theta inside every "
                                               "interval of the theta-sweep instead (131, about 7 minutes).",
           False, "bool"),
     ALLOW_LONG,
     Param("stored", "--stored", "nash: take the events of (0, 5772/33847) and (5772/33847, 1/2) from the package's "
                                 "files (re-derived by the test suite) instead of recomputing them.", False, "bool"),
     Param("workers", "--workers", "Processes (1 to twice the cores): nash shares out the candidates of the "
                                   "event analysis and the enumerations at the samples, independent the theta.  The "
                                   "artefact is the same.", 1, "int", short="-j", web=False),
     PROOF_BACKEND, SCHEDULER),
    ".banque:prove")


def banque_shoe(decks: str | None, composition: str | None, remove: str | None, add: str | None) -> BanqueGame:
    """The game on the shoe the options choose (default: the paper's infinite shoe).

    Parameters
    ----------
    decks, composition, remove, add : str or None
        The shoe's options.

    Returns
    -------
    BanqueGame
        The game.
    """
    from ..banque.model import banque_game  # lazy: the game loads when a command runs

    if decks is None and composition is None and remove is None and add is None:
        return banque_game()
    if decks is not None:
        params.decks(decks, "--decks", hi=MAX_COMPOSITION_CARDS // 52)
    shoe = build_shoe("inf" if decks is None and composition is None else decks, False, composition, remove, add)
    try:
        return banque_game(shoe)
    except ShoeError as e:
        raise BaccaraError(f"{'--composition' if composition is not None else '--decks'}: {e}") from None


def solve(*, theta: str, concept: str, model: str, decks: str | None, composition: str | None, remove: str | None,
          add: str | None) -> Result:
    """One theta's solution under one concept (:data:`BANQUE_SOLVE`).

    Parameters
    ----------
    theta : str
        The share of the stake on Player 1.
    concept, model : str
        The solution concept and the model.
    decks, composition, remove, add : str or None
        The shoe.

    Returns
    -------
    Result
        The equilibrium (or equilibria), certified.
    """
    th = params.theta(theta, "--theta")
    concept = params.choice(concept, "--concept", CONCEPTS, case="exact")
    model = params.choice(model, "--model", BANQUE_MODELS, case="exact")
    if model != "simplified" and concept != "correlated":
        raise BaccaraError(f"--concept {concept} --model {model} is not available yet: the full models have "
                           "the correlated cooperative equilibrium (and Banker's minimax strategy)")
    from ..banque.correlated_eq.solution import correlated_equilibrium  # lazy: the solvers, when it runs
    from ..banque.full_models import full_correlated_equilibrium  # lazy: the solvers, when it runs
    from ..banque.independent_eq.solution import solve_independent  # lazy: the solvers, when it runs
    from ..banque.nash_eq.solution import nash_equilibria  # lazy: the solvers, when it runs

    game = banque_shoe(decks, composition, remove, add)
    if model != "simplified":
        return full_correlated_equilibrium(game, th, model)
    if concept == "nash":
        return nash_equilibria(game, th)
    if concept == "independent":
        return solve_independent(game, th)
    return correlated_equilibrium(game, th)


def advantage(*, theta: str, decks: str | None, composition: str | None, remove: str | None,
              add: str | None) -> Result:
    """Banker's advantage under each assumption (:data:`BANQUE_ADVANTAGE`).

    Parameters
    ----------
    theta : str
        The share of the stake on Player 1.
    decks, composition, remove, add : str or None
        The shoe.

    Returns
    -------
    Result
        The comparison with the historical estimates.
    """
    from ..banque.comparison import AdvantageComparison, banker_advantage_comparison  # lazy: the game

    th = params.theta(theta, "--theta")
    game = banque_shoe(decks, composition, remove, add)
    return AdvantageComparison(th, game.label(), banker_advantage_comparison(th, game))


def sweep(*, concept: str, prove_samples: bool, prove_intervals: str | None) -> Result:
    """The partition of (0, 1/2] into theta-intervals (:data:`BANQUE_SWEEP`).

    Progress goes to :data:`baccara.commands.PROGRESS` while it is set (the web app's job, which may
    stop the sweep there), else to a progress bar on standard error.

    Parameters
    ----------
    concept : str
        The solution concept.
    prove_samples : bool
        independent: prove the lower value at a rational theta inside every interval.
    prove_intervals : str or None
        independent: prove the lower value over each interval, at most so many seconds an interval.

    Returns
    -------
    Result
        :func:`baccara.banque.sweeps.sweep`'s.
    """
    from ..banque.sweeps import sweep as run_sweep  # lazy: the solvers, when it runs

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
    hook = PROGRESS.get()
    if hook is not None:  # the web app's job: its own progress (and its cancel), no bar
        return run_sweep(concept, lambda stage, done, total: hook(done, total, stage), prove_samples=prove_samples,
                         prove_intervals=limit)
    with progress_bar() as bar:
        tasks: dict[str, Any] = {}

        def progress(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = bar.add_task(stage, total=total)
            bar.update(tasks[stage], completed=done, total=total)

        return run_sweep(concept, progress, prove_samples=prove_samples, prove_intervals=limit)


def _seconds(text: str) -> float:
    """--prove-intervals' time limit: a positive number of seconds, at most a day."""
    try:
        x = float(text)
    except ValueError:
        raise ParameterError(f"--prove-intervals: a number of seconds in (0, 86400], got {text!r}") from None
    if not 0 < x <= 86400:
        raise ParameterError(f"--prove-intervals: a number of seconds in (0, 86400], got {text}")
    return x


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
    from ..banque.nash_eq.events import THETA_9_11  # lazy: the game loads when a command runs

    half = Fraction(1, 2)
    seconds = NASH_ENUMERATION_SECONDS * float((hi - lo) / half)
    for (a, b), cost in zip(((Fraction(0), THETA_9_11), (THETA_9_11, half)), NASH_EVENT_SECONDS):
        x, y = max(lo, a), min(hi, b)
        if x >= y or (stored and (x, y) == (a, b)):
            continue
        seconds += cost * float((y - x) / (b - a))
    return seconds


def prove(*, concept: str, lo: str | None, hi: str | None, theta: list[str] | None, output: str | None,
          sweep_samples: bool, allow_long: bool, stored: bool, workers: int, backend: str,
          scheduler: str | None) -> Result:
    """A banque proof as a checkable artefact (:data:`BANQUE_PROVE`).

    Parameters
    ----------
    concept : str
        nash (over a range of theta) or independent (at each theta).
    lo, hi : str or None
        nash: the range (lo, hi].
    theta : list of str or None
        independent: the theta to prove the lower value at.
    output : str or None
        Where to write the artefact.
    sweep_samples : bool
        independent: prove at one theta inside every interval of the sweep instead.
    allow_long : bool
        Run past the workload limit.
    stored : bool
        nash: take the stored events of the whole parts.
    workers : int
        Processes.
    backend, scheduler : str, str or None
        Where the workers run.

    Returns
    -------
    Result
        The proof artefact.
    """
    import json  # lazy: the proofs' modules load when one runs

    from ..processes import Workers, check_workers  # lazy: processes and sockets, when a proof runs

    concept = params.choice(concept, "--concept", ("nash", "independent"), case="exact")
    path = params.output_file(output, "--out", (".json",)) if output is not None else None
    check_workers(workers)
    backend, scheduler = params.backend(backend, scheduler)
    where = Workers(workers, backend, scheduler)
    share = workers if where.parallel and scheduler is None else 1      # a cluster's size is not known here
    result: Result
    if concept == "nash":
        for flag, given in (("--theta", bool(theta)), ("--sweep-samples", sweep_samples)):
            if given:
                raise ParameterError(f"{flag} goes with --concept independent; --concept nash takes a range, "
                                     "--lo and --hi")
        from ..banque.nash_eq.artefact import prove as run_prove  # lazy: the proof, when it runs

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
        from ..banque.independent_eq.artefact import prove as prove_thetas  # lazy: the proof, when it runs
        from ..banque.independent_eq.artefact import prove_sweep_samples  # lazy: the proof, when it runs

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
    return result
