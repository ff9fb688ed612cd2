"""``baccara chemin ...``: chemin de fer as a game (Ethier and Gamez 2013; Ethier and Lee 2023), declared once."""

from __future__ import annotations

from typing import Any

from .. import params
from ..errors import BaccaraError, CertificateError, ParameterError, ShoeError
from ..result import Result
from ..shoe import Shoe, a_decks
from ..workload import check_workload
from . import Command, Param
from .console import progress_bar, say
from .options import ADD, ALLOW_LONG, COMPOSITION, PROOF_BACKEND, REMOVE, SCHEDULER, build_shoe

#: Measured seconds of one core per value of d (this machine class), for the estimates said before a table starts.
SECONDS_PER_D = {"table4": 0.15, "table5": 0.15, "table7": 8.0, "table7-no-confirm": 0.15, "prove": 8.0}
#: Most values of d one --decks list may name.
MAX_DECK_VALUES = 10_000

MODEL = Param("model", "--model", "Information model: A1, A2, A3, B1, B2, B3 (A: with replacement; 3: Player sees "
                                  "his composition).", "B2", short="-m")
DECKS = Param("decks", "--decks", "Decks in the shoe, a positive integer, or 'inf' (default 6; inf, the only shoe, "
                                  "for Models A).", short="-d")
ALPHA = Param("commission", "--commission", "Commission alpha on Banker wins, a rational in [0, 1).", "1/20",
              short="-a")
#: The game's shoe: the model and the shoe's options.
GAME = (MODEL, DECKS, COMPOSITION, REMOVE, ADD)


def _range(default: str, help: str) -> Param:
    return Param("decks", "--decks", help, default, short="-d", metavar="D-RANGE")


CHEMIN_SOLVE = Command(
    ("chemin", "solve"), "Every Nash equilibrium at one commission, with its certificate.",
    (*GAME, ALPHA, Param("all_equilibria", "--all-equilibria", "Model 3: enumerate every extreme equilibrium "
                                                              "(settles uniqueness). Models 1-2 always enumerate "
                                                              "them (Foster's algorithm).", False, "bool")),
    ".chemin:solve")
CHEMIN_SWEEP = Command(
    ("chemin", "sweep"), "The exact structure over the commission: curves, intersections, cases, equilibria by "
                         "interval.\n\nSays whether the equilibrium is unique and, where it is not, lists every "
                         "extreme equilibrium.\nExit status 1 when a case cannot be decided yet (nothing is claimed "
                         "then); 2 on bad input.",
    (*GAME, Param("lo", "--from", "Lowest commission.", "0"), Param("hi", "--to", "Highest commission.", "1/10")),
    ".chemin:sweep")
CHEMIN_PROVE = Command(
    ("chemin", "prove"), "A proof over every commission in [0, 1/10] of where Model B3's Nash equilibria lie "
                         "(re-check: baccara check FILE).\n\nExit status 1 when the proof does not close (nothing "
                         "is claimed then; with several d, when any does not); 2 on bad input.",
    (Param("model", "--model", "Information model: B3 only.", "B3", short="-m"),
     _range("6", "Decks: a whole number 1 to 1000, 'inf', or a list such as 1-100,inf."),
     Param("out_file", "--out", "Write the proof artefact (JSON) here; with several d, a folder (made if missing) "
                                "for one file per d, b3-dD.json.", web=False),
     Param("workers", "--workers", "Processes, with several d (1 to twice the cores).", 1, "int", short="-j",
           web=False),
     PROOF_BACKEND, SCHEDULER, ALLOW_LONG),
    ".chemin:prove")
CHEMIN_TABLE4 = Command(
    ("chemin", "table4"), "Ethier and Lee (2023), Table 4 for each d (Model B2): curves, intersections, partial "
                          "curves, cases, exceptional alphas.",
    (_range("1-100,inf", "Decks: e.g. 1-100, 6, inf (at most 10000 values)."), ALLOW_LONG), ".chemin:table4")
CHEMIN_TABLE7 = Command(
    ("chemin", "table7"), "Ethier and Lee (2023), Table 7 / Theorem 2 (Model B3): Banker's strategies by "
                          "alpha-interval, grouped by d.",
    (_range("1-20", "Decks: e.g. 1-100 (finite, at most 10000 values)."),
     Param("confirm", "--confirm", "Confirm each interval in the full Model B3 game.", True, "bool",
           flag_off="--no-confirm"), ALLOW_LONG),
    ".chemin:table7")
CHEMIN_TABLE1 = Command(
    ("chemin", "table1"), "Ethier and Lee (2023), Table 1: Banker's moves that depend neither on Player's strategy "
                          "nor on alpha in [0, 1/10].", GAME, ".chemin:table1")
CHEMIN_TABLE5 = Command(
    ("chemin", "table5"), "Ethier and Lee (2023), Table 5: Banker's equilibrium moves common to every d and "
                          "commission (blanks vary).",
    (_range("1-100", "Decks: e.g. 1-100 (finite, at most 10000 values)."), ALLOW_LONG), ".chemin:table5")
CHEMIN_TABLE = Command(
    ("chemin", "table"), "Banker's best response to Player's mixture p at one commission (Ethier and Lee (2023), "
                         "Table 1 layout).",
    (*GAME, ALPHA, Param("p", "--p", "Player's probability of drawing at 5, in [0, 1].", "0")), ".chemin:table")


def model_and_decks(model: str, decks: str | None, composition: str | None = None, remove: str | None = None,
                    add: str | None = None, model3: bool = True) -> tuple[str, int | None | tuple[int, ...]]:
    """The model and the game's shoe from the options.

    Parameters
    ----------
    model : str
        ``--model``.
    decks, composition, remove, add : str or None
        The shoe's options (default: 6 decks; the infinite shoe for Models A).
    model3 : bool
        Whether the command covers Model 3.

    Returns
    -------
    tuple
        The model's name and its shoe: d decks, None for the infinite shoe, or the counts by value.
    """
    from ..chemin.model import MODELS, check_model  # lazy: the game's kernels, when a command runs, not at --help

    model = params.choice(model, "--model", MODELS)
    infinite = model.startswith("A")  # Model A deals with replacement: the infinite shoe, and only that
    if infinite and decks is not None:
        finite = params.decks(decks, "--decks")
        if finite is not None:
            raise BaccaraError(f"--model {model} deals with replacement (the infinite shoe) but --decks is {finite}: "
                               f"give --decks inf, or --model B{model[1]} for {a_decks(finite)} shoe")
    if infinite and composition is not None:
        raise BaccaraError(f"--composition is a finite shoe but --model {model} deals with replacement "
                           f"(the infinite shoe): use --model B{model[1]}")
    if composition is None and remove is None and add is None:
        shoe: int | None | Shoe = params.decks(("inf" if infinite else "6") if decks is None else decks, "--decks")
    else:  # --remove / --add on Model A's infinite shoe are refused, naming the option
        shoe = build_shoe(decks, infinite and decks is None, composition, remove, add, default_decks=6)
    try:
        m, d = check_model(model, shoe)
    except ShoeError as e:  # the shoe itself (a composition too large for the exact kernel)
        raise BaccaraError(f"--composition: {e}") from None
    except BaccaraError as e:  # the model does not fit the shoe
        raise BaccaraError(f"--model: {e}") from None
    if m.endswith("3") and not model3:
        raise BaccaraError(f"--model {m}: this command covers Models A1, A2, B1, B2; "
                           "use 'chemin solve' or 'chemin sweep' for Model 3")
    return m, d


def parse_deck_range(text: str, hi: int | None = None) -> list[int | None]:
    """The values of d a ``--decks`` range names: '1-100', '6', '1,2,8-10', 'inf'.

    Parameters
    ----------
    text : str
        The range.
    hi : int, optional
        The largest d allowed.

    Returns
    -------
    list of int or None
        Distinct values, in the order given (None: the infinite shoe).
    """
    out: list[int | None] = []
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        if "-" in part:
            a, b = part.split("-", 1)
            try:
                lo_, hi_ = params.decks(a, "--decks", infinite=False, hi=hi), params.decks(b, "--decks", infinite=False, hi=hi)
            except BaccaraError:
                upper = f" to {params.number_text(hi)}" if hi is not None else ""
                raise BaccaraError(f"--decks must be whole numbers of decks from 1{upper}, 'inf', or ranges such as "
                                   f"1-100, got {part!r}") from None
            if hi_ < lo_:
                raise BaccaraError(f"--decks range must be like 1-100 with 1 <= low <= high, got {part!r}")
            if hi_ - lo_ + 1 > MAX_DECK_VALUES:
                raise BaccaraError(f"--decks names at most {MAX_DECK_VALUES} values of d, got {part!r} "
                                   f"({hi_ - lo_ + 1} values)")
            out.extend(range(lo_, hi_ + 1))
        else:
            out.append(params.decks(part, "--decks", hi=hi))
        if len(out) > MAX_DECK_VALUES:
            raise BaccaraError(f"--decks names at most {MAX_DECK_VALUES} values of d, got {text!r}")
    if not out:
        raise BaccaraError("--decks is empty: give e.g. 1-100 or 6 or inf")
    return list(dict.fromkeys(out))


def _finite(ds: list[int | None]) -> list[int]:
    """The finite d of a --decks range (Tables 5 and 7 are about finite shoes)."""
    finite = [d for d in ds if d is not None]
    if not finite:
        raise BaccaraError("--decks needs at least one finite d")
    return finite


def _shoe_args(d: int | None | tuple[int, ...]) -> dict:
    """The facade's shoe arguments for the game's shoe (d decks, None infinite, or value counts)."""
    if isinstance(d, tuple):
        return {"shoe": Shoe.from_values(d)}
    return {"decks": "inf" if d is None else d}


def solve(*, model: str, decks: str | None, composition: str | None, remove: str | None, add: str | None,
          commission: str, all_equilibria: bool) -> Result:
    """Every Nash equilibrium at one commission, with its certificate (:data:`CHEMIN_SOLVE`).

    Parameters
    ----------
    model : str
        The information model.
    decks, composition, remove, add : str or None
        The shoe.
    commission : str
        The commission alpha.
    all_equilibria : bool
        Model 3: enumerate every extreme equilibrium.

    Returns
    -------
    Result
        :func:`baccara.chemin.solution.solve_chemin`'s, or Model 3's.
    """
    from ..chemin.model import CheminGame3, chemin_game  # lazy: the game's kernels
    from ..chemin.solution import solve_chemin  # lazy: loaded when the command runs

    m, d = model_and_decks(model, decks, composition, remove, add)
    alpha = params.commission(commission, "--commission")
    game = chemin_game(m, d)
    if isinstance(game, CheminGame3):
        from ..chemin.model3 import solve_chemin3  # lazy: Model 3 only

        return solve_chemin3(game, alpha, all_equilibria=all_equilibria)
    return solve_chemin(game, alpha)


def sweep(*, model: str, decks: str | None, composition: str | None, remove: str | None, add: str | None, lo: str,
          hi: str) -> Result:
    """The exact structure over the commission (:data:`CHEMIN_SWEEP`).

    Parameters
    ----------
    model : str
        The information model.
    decks, composition, remove, add : str or None
        The shoe.
    lo, hi : str
        The commissions swept (``--from``, ``--to``).

    Returns
    -------
    Result
        :func:`baccara.chemin.solution.sweep_chemin`'s, or Model B3's.
    """
    from ..chemin.model import chemin_game  # lazy: the game's kernels
    from ..chemin.solution import sweep_chemin  # lazy: loaded when the command runs

    m, d = model_and_decks(model, decks, composition, remove, add)
    a, b = params.commission(lo, "--from"), params.commission(hi, "--to")
    if a >= b:
        raise BaccaraError(f"--from must be below --to, got {a} and {b}")
    game = chemin_game(m, d)
    if m == "B3":
        from ..chemin.model3 import sweep_chemin3  # lazy: Model 3 only

        return sweep_chemin3(game, a, b)
    return sweep_chemin(game, a, b)


def prove(*, model: str, decks: str, out_file: str | None, workers: int, backend: str, scheduler: str | None,
          allow_long: bool) -> Result:
    """Model B3's proof over the commission, for one d or several (:data:`CHEMIN_PROVE`).

    Parameters
    ----------
    model : str
        The model (B3).
    decks : str
        One d or a range of them.
    out_file : str or None
        Where to write the artefact (with several d, a folder).
    workers : int
        Processes, with several d.
    backend, scheduler : str, str or None
        Where the workers run.
    allow_long : bool
        Run past the workload limit.

    Returns
    -------
    Result
        The proof (one d), or the table of proofs (several d: see :func:`unproved`).

    Raises
    ------
    CertificateError
        One d whose proof does not close.
    """
    import json  # lazy: the proof's modules load when it runs
    from pathlib import Path

    from .. import chemin  # lazy: loaded when the command runs
    from ..chemin.proof import ProofIncomplete  # lazy: loaded when the command runs
    from ..processes import check_workers  # lazy: processes and sockets, when a proof runs

    ds = parse_deck_range(decks, hi=1000)
    if out_file is not None and not out_file.strip():
        raise ParameterError("--out is empty: give a file name (with several d, a folder)")
    check_workers(workers)
    backend, scheduler = params.backend(backend, scheduler)
    if len(ds) == 1 and (backend != "processes" or workers > 1):
        raise ParameterError("--backend, --scheduler and --workers share out several d (--decks 1-100): one d "
                             "is one process's work")
    if len(ds) > 1:
        if str(model).upper() != "B3":
            raise ParameterError(f"--model must be B3 for a proof over the commission, got {model!r}")
        folder = Path(out_file) if out_file else None
        if folder is not None:
            if folder.exists() and not folder.is_dir():
                raise ParameterError(f"--out must be a folder with several d, got the file {out_file!r}")
            if not folder.exists() and not folder.parent.is_dir():
                raise ParameterError(f"--out: cannot make the folder {out_file!r} (its parent folder does not exist)")
        check_workload(f"the Model B3 proof for {len(ds)} values of d", SECONDS_PER_D["prove"] * len(ds) / workers,
                       allow_long, "give a shorter --decks range, or more --workers", say)
        if folder is not None:  # made only once the work is accepted
            try:
                folder.mkdir(parents=False, exist_ok=True)
            except OSError as e:
                raise ParameterError(f"--out: cannot make the folder {out_file!r} ({e.strerror})") from None
        with progress_bar() as bar:
            task = bar.add_task("Model B3 proofs", total=len(ds))
            return chemin.prove_range(model, ds, workers=workers, out_dir=folder,
                                      progress=lambda d: bar.advance(task), backend=backend, scheduler=scheduler)
    target = Path(out_file) if out_file else None
    if target is not None and not (target.parent.is_dir() and (not target.exists() or target.is_file())):
        raise ParameterError(f"--out must be a file in an existing folder, got {out_file!r}")
    try:
        proof = chemin.prove(model, ds[0] if ds[0] is not None else "inf")
    except ProofIncomplete as e:
        raise CertificateError(f"the proof does not close, so nothing is proved: {e}") from None
    if target is not None:
        try:
            target.write_text(json.dumps(proof.to_json()))
        except OSError as e:
            raise ParameterError(f"--out: cannot write {out_file} ({e.strerror})") from None
    return proof


def unproved(result: Any, **_: Any) -> None:
    """Refuse a table of proofs (``chemin prove`` over several d) where any does not close, once it is shown.

    Parameters
    ----------
    result : Result
        What :func:`prove` returned.
    **_
        What else the command line hands over (``json_out``).

    Raises
    ------
    CertificateError
        Some d's proof does not close.
    """
    rows = getattr(result, "rows", None)
    if rows is not None and not all(r["proved"] for r in rows):
        raise CertificateError("the proof does not close for some d (rows marked NO): nothing is claimed there")


def table4(*, decks: str, allow_long: bool) -> Result:
    """Ethier and Lee's Table 4 for each d (:data:`CHEMIN_TABLE4`).

    Parameters
    ----------
    decks : str
        A range of d.
    allow_long : bool
        Run past the workload limit.

    Returns
    -------
    Result
        :func:`baccara.chemin.table4`'s.
    """
    from .. import chemin  # lazy: the game's kernels

    ds = parse_deck_range(decks)
    check_workload(f"Table 4 for {len(ds)} values of d", SECONDS_PER_D["table4"] * len(ds), allow_long,
                   "give a shorter --decks range", say)
    with progress_bar() as bar:
        task = bar.add_task("Model B2 sweeps", total=len(ds))
        return chemin.table4(ds, progress=lambda d: bar.advance(task))


def table7(*, decks: str, confirm: bool, allow_long: bool) -> Result:
    """Ethier and Lee's Table 7 / Theorem 2 (:data:`CHEMIN_TABLE7`).

    Parameters
    ----------
    decks : str
        A range of finite d.
    confirm : bool
        Confirm each interval in the full Model B3 game.
    allow_long : bool
        Run past the workload limit.

    Returns
    -------
    Result
        :func:`baccara.chemin.table7`'s.
    """
    from .. import chemin  # lazy: the game's kernels

    ds = _finite(parse_deck_range(decks))
    per_d = SECONDS_PER_D["table7" if confirm else "table7-no-confirm"]
    check_workload(f"Table 7 for {len(ds)} values of d{'' if confirm else ' (no confirmation)'}", per_d * len(ds),
                   allow_long, "give a shorter --decks range" + (", or --no-confirm" if confirm else ""), say)
    with progress_bar() as bar:
        task = bar.add_task("Model B3 sweeps", total=len(ds))
        return chemin.table7(ds, confirm, progress=lambda d: bar.advance(task))


def table1(*, model: str, decks: str | None, composition: str | None, remove: str | None, add: str | None) -> Result:
    """Ethier and Lee's Table 1 (:data:`CHEMIN_TABLE1`).

    Parameters
    ----------
    model : str
        The information model (1 or 2).
    decks, composition, remove, add : str or None
        The shoe.

    Returns
    -------
    Result
        :func:`baccara.chemin.table1`'s.
    """
    from .. import chemin  # lazy: the game's kernels

    m, d = model_and_decks(model, decks, composition, remove, add, model3=False)
    return chemin.table1(m, **_shoe_args(d))


def table5(*, decks: str, allow_long: bool) -> Result:
    """Ethier and Lee's Table 5 (:data:`CHEMIN_TABLE5`).

    Parameters
    ----------
    decks : str
        A range of finite d.
    allow_long : bool
        Run past the workload limit.

    Returns
    -------
    Result
        :func:`baccara.chemin.table5`'s.
    """
    from .. import chemin  # lazy: the game's kernels

    ds = _finite(parse_deck_range(decks))
    check_workload(f"Table 5 for {len(ds)} values of d", SECONDS_PER_D["table5"] * len(ds), allow_long,
                   "give a shorter --decks range", say)
    with progress_bar() as bar:
        task = bar.add_task("Model B2 sweeps", total=len(ds))
        return chemin.table5(ds, progress=lambda d: bar.advance(task))


def table(*, model: str, decks: str | None, composition: str | None, remove: str | None, add: str | None,
          commission: str, p: str) -> Result:
    """Banker's best response to Player's mixture p (:data:`CHEMIN_TABLE`).

    Parameters
    ----------
    model : str
        The information model (1 or 2).
    decks, composition, remove, add : str or None
        The shoe.
    commission : str
        The commission alpha.
    p : str
        Player's probability of drawing at 5.

    Returns
    -------
    Result
        :func:`baccara.chemin.best_response`'s.
    """
    from .. import chemin  # lazy: the game's kernels

    m, d = model_and_decks(model, decks, composition, remove, add, model3=False)
    return chemin.best_response(m, **_shoe_args(d), commission=params.commission(commission, "--commission"),
                                p=params.probability(p, "--p"))
