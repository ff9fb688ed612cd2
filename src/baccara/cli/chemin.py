"""``baccara chemin ...``: chemin de fer as a game (Ethier and Gamez 2013; Ethier and Lee 2023)."""

from __future__ import annotations

import typer

from .. import params
from ..errors import BaccaraError, ShoeError
from ..shoe import Shoe, a_decks
from ..workload import check_workload
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
from .errors import handles_errors

# ---------------------------------------------------------------- chemin de fer
chemin_app = typer.Typer(help="Chemin de fer as a game (Ethier and Lee 2023): Nash equilibria, the commission sweep, Table 4.",
                         no_args_is_help=True, rich_markup_mode=None)

#: Measured seconds of one core per value of d (this machine class), for the estimates said before a table starts.
SECONDS_PER_D = {"table4": 0.15, "table5": 0.15, "table7": 8.0, "table7-no-confirm": 0.15, "prove": 8.0}


MODEL = typer.Option("B2", "--model", "-m", help="Information model: A1, A2, A3, B1, B2, B3 (A: with replacement; "
                                                  "3: Player sees his composition).")
CHEMIN_DECKS = typer.Option(None, "--decks", "-d", help="Decks in the shoe, a positive integer, or 'inf' (default 6; "
                                                       "inf, the only shoe, for Models A).")
ALPHA = typer.Option("1/20", "--commission", "-a", help="Commission alpha on Banker wins, a rational in [0, 1).")


def _model_and_decks(model: str, decks: str | None, composition: str | None = None, remove: str | None = None,
                     add: str | None = None, model3: bool = True) -> tuple[str, int | None | tuple[int, ...]]:
    """The model and the game's shoe (d, None for infinite, or a composition by value) from the options."""
    from ..chemin.model import MODELS, check_model  # the game's kernels: when a command runs, not at --help


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


@chemin_app.command("solve")
@handles_errors
def chemin_solve(model: str = MODEL, decks: str | None = CHEMIN_DECKS, composition: str | None = COMPOSITION,
                 remove: str | None = REMOVE, add: str | None = ADD, commission: str = ALPHA, json_out: bool = JSON,
                 all_equilibria: bool = typer.Option(
                     False, "--all-equilibria",
                     help="Model 3: enumerate every extreme equilibrium (settles uniqueness). "
                          "Models 1-2 always enumerate them (Foster's algorithm).")) -> dict | None:
    """Every Nash equilibrium at one commission, with its certificate."""
    from ..chemin.model import CheminGame3, chemin_game
    from ..chemin.solution import solve_chemin

    m, d = _model_and_decks(model, decks, composition, remove, add)
    alpha = params.commission(commission, "--commission")
    game = chemin_game(m, d)
    if isinstance(game, CheminGame3):
        from ..chemin.model3 import solve_chemin3

        return render(solve_chemin3(game, alpha, all_equilibria=all_equilibria), json_out)
    return render(solve_chemin(game, alpha), json_out)


@chemin_app.command("sweep")
@handles_errors
def chemin_sweep(model: str = MODEL, decks: str | None = CHEMIN_DECKS, composition: str | None = COMPOSITION,
                 remove: str | None = REMOVE, add: str | None = ADD, json_out: bool = JSON,
                 lo: str = typer.Option("0", "--from", help="Lowest commission."),
                 hi: str = typer.Option("1/10", "--to", help="Highest commission.")) -> dict | None:
    """The exact structure over the commission: curves, intersections, cases, equilibria by interval.

    Says whether the equilibrium is unique and, where it is not, lists every extreme equilibrium.
    Exit status 1 when a case cannot be decided yet (nothing is claimed then); 2 on bad input.
    """
    from ..chemin.model import chemin_game
    from ..chemin.solution import sweep_chemin

    m, d = _model_and_decks(model, decks, composition, remove, add)
    a, b = params.commission(lo, "--from"), params.commission(hi, "--to")
    if a >= b:
        raise BaccaraError(f"--from must be below --to, got {a} and {b}")
    game = chemin_game(m, d)
    if m == "B3":
        from ..chemin.model3 import sweep_chemin3

        return render(sweep_chemin3(game, a, b), json_out)
    return render(sweep_chemin(game, a, b), json_out)


@chemin_app.command("prove")
@handles_errors
def chemin_prove(model: str = typer.Option("B3", "--model", "-m", help="Information model: B3 only."),
                 decks: str = typer.Option("6", "--decks", "-d", metavar="D-RANGE",
                                            help="Decks: a whole number 1 to 1000, 'inf', or a list such as "
                                                 "1-100,inf."),
                 out_file: str | None = typer.Option(None, "--out", help="Write the proof artefact (JSON) here; "
                                                     "with several d, a folder (made if missing) for one file "
                                                     "per d, b3-dD.json."),
                 workers: int = typer.Option(1, "--workers", "-j", help="Processes, with several d (1 to the "
                                                                         "number of cores)."),
                 backend: str = PROOF_BACKEND, scheduler: str | None = SCHEDULER,
                 json_out: bool = JSON, allow_long: bool = ALLOW_LONG) -> dict | None:
    """A proof over every commission in [0, 1/10] of where Model B3's Nash equilibria lie (re-check: baccara check FILE).

    Exit status 1 when the proof does not close (nothing is claimed then; with several d, when any does
    not); 2 on bad input.
    """
    import json
    import os
    from pathlib import Path

    from .. import chemin
    from ..chemin.proof import ProofIncomplete
    from ..errors import CertificateError, ParameterError

    ds = parse_deck_range(decks, hi=1000)
    if out_file is not None and not out_file.strip():
        raise ParameterError("--out is empty: give a file name (with several d, a folder)")
    cores = os.cpu_count() or 1
    if not 1 <= workers <= cores:
        raise ParameterError(f"--workers must be 1 to {cores} (the cores here), got {workers}")
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
            result = chemin.prove_range(model, ds, workers=workers, out_dir=folder,
                                        progress=lambda d: bar.advance(task), backend=backend, scheduler=scheduler)
        render(result, json_out)
        if not all(r["proved"] for r in result.rows):
            raise CertificateError("the proof does not close for some d (rows marked NO): nothing is claimed there")
        return None
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
    return render(proof, json_out)


#: Most values of d one --decks list may name.
MAX_DECK_VALUES = 10_000


def parse_deck_range(text: str, hi: int | None = None) -> list[int | None]:
    """'1-100', '6', '1,2,8-10', 'inf': distinct values, in the order given (each at most ``hi``)."""
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


@chemin_app.command("table4")
@handles_errors
def chemin_table4(decks: str = typer.Option("1-100,inf", "--decks", "-d", metavar="D-RANGE",
                                           help="Decks: e.g. 1-100, 6, inf (at most 10000 values)."),
                  json_out: bool = JSON, allow_long: bool = ALLOW_LONG) -> list | None:
    """Ethier and Lee (2023), Table 4 for each d (Model B2): curves, intersections, partial curves, cases, exceptional alphas."""
    from .. import chemin

    ds = parse_deck_range(decks)
    check_workload(f"Table 4 for {len(ds)} values of d", SECONDS_PER_D["table4"] * len(ds), allow_long,
                   "give a shorter --decks range", say)

    with progress_bar() as bar:
        task = bar.add_task("Model B2 sweeps", total=len(ds))
        result = chemin.table4(ds, progress=lambda d: bar.advance(task))
    return render(result, json_out)


@chemin_app.command("table7")
@handles_errors
def chemin_table7(decks: str = typer.Option("1-20", "--decks", "-d", metavar="D-RANGE",
                                           help="Decks: e.g. 1-100 (finite, at most 10000 values)."),
                  confirm: bool = typer.Option(True, "--confirm/--no-confirm",
                                               help="Confirm each interval in the full Model B3 game."),
                  json_out: bool = JSON, allow_long: bool = ALLOW_LONG) -> list | None:
    """Ethier and Lee (2023), Table 7 / Theorem 2 (Model B3): Banker's strategies by alpha-interval, grouped by d."""
    from .. import chemin

    ds = _finite(parse_deck_range(decks))
    per_d = SECONDS_PER_D["table7" if confirm else "table7-no-confirm"]
    check_workload(f"Table 7 for {len(ds)} values of d{'' if confirm else ' (no confirmation)'}", per_d * len(ds),
                   allow_long, "give a shorter --decks range" + (", or --no-confirm" if confirm else ""), say)

    with progress_bar() as bar:
        task = bar.add_task("Model B3 sweeps", total=len(ds))
        result = chemin.table7(ds, confirm, progress=lambda d: bar.advance(task))
    return render(result, json_out)


def _finite(ds: list[int | None]) -> list[int]:
    """The finite d of a --decks range (Tables 5 and 7 are about finite shoes)."""
    finite = [d for d in ds if d is not None]
    if not finite:
        raise BaccaraError("--decks needs at least one finite d")
    return finite


@chemin_app.command("plot")
@handles_errors
def chemin_plot(model: str = MODEL, decks: str | None = CHEMIN_DECKS, composition: str | None = COMPOSITION,
                remove: str | None = REMOVE, add: str | None = ADD,
                output: str = typer.Option("curves.png", "--out", "-o", metavar="FILE",
                                           help="Image file to write (.png, .pdf, .svg).")) -> None:
    """Plot the best-response-discontinuity curves in the (alpha, p) plane (Ethier and Lee (2023), Figure 1)."""
    from ..chemin.model import chemin_game
    from ..chemin.solution import sweep_chemin

    m, d = _model_and_decks(model, decks, composition, remove, add, model3=False)
    params.output_file(output, "--out", params.IMAGE_SUFFIXES)
    from ..plots import plot_curves

    try:
        path = plot_curves(sweep_chemin(chemin_game(m, d)), output)
    except BaccaraError:
        raise
    except (OSError, ValueError) as e:
        raise BaccaraError(f"--out: cannot write {output!r}: {e}") from None
    out.print(f"wrote {path}", highlight=False)


@chemin_app.command("table1")
@handles_errors
def chemin_table1(model: str = MODEL, decks: str | None = CHEMIN_DECKS, composition: str | None = COMPOSITION,
                  remove: str | None = REMOVE, add: str | None = ADD, json_out: bool = JSON) -> dict | None:
    """Ethier and Lee (2023), Table 1: Banker's moves that depend neither on Player's strategy nor on alpha in [0, 1/10]."""
    from .. import chemin

    m, d = _model_and_decks(model, decks, composition, remove, add, model3=False)

    return render(chemin.table1(m, **_shoe_args(d)), json_out)


@chemin_app.command("table5")
@handles_errors
def chemin_table5(decks: str = typer.Option("1-100", "--decks", "-d", metavar="D-RANGE",
                                           help="Decks: e.g. 1-100 (finite, at most 10000 values)."),
                  json_out: bool = JSON, allow_long: bool = ALLOW_LONG) -> dict | None:
    """Ethier and Lee (2023), Table 5: Banker's equilibrium moves common to every d and commission (blanks vary)."""
    from .. import chemin

    ds = _finite(parse_deck_range(decks))
    check_workload(f"Table 5 for {len(ds)} values of d", SECONDS_PER_D["table5"] * len(ds), allow_long,
                   "give a shorter --decks range", say)

    with progress_bar() as bar:
        task = bar.add_task("Model B2 sweeps", total=len(ds))
        result = chemin.table5(ds, progress=lambda d: bar.advance(task))
    return render(result, json_out)


@chemin_app.command("table")
@handles_errors
def chemin_table(model: str = MODEL, decks: str | None = CHEMIN_DECKS, composition: str | None = COMPOSITION,
                 remove: str | None = REMOVE, add: str | None = ADD, commission: str = ALPHA,
                 p: str = typer.Option("0", "--p", help="Player's probability of drawing at 5, in [0, 1]."),
                 json_out: bool = JSON) -> dict | None:
    """Banker's best response to Player's mixture p at one commission (Ethier and Lee (2023), Table 1 layout)."""
    from .. import chemin

    m, d = _model_and_decks(model, decks, composition, remove, add, model3=False)

    return render(chemin.best_response(m, **_shoe_args(d), commission=params.commission(commission, "--commission"),
                                       p=params.probability(p, "--p")), json_out)


def _shoe_args(d: int | None | tuple[int, ...]) -> dict:
    """The facade's shoe arguments for the game's shoe (d decks, None infinite, or value counts)."""
    if isinstance(d, tuple):
        return {"shoe": Shoe.from_values(d)}
    return {"decks": "inf" if d is None else d}
