"""The ``baccara`` command line.

Every command prints a table for people, or with ``--json`` a document whose
field names are a contract.  Bad input prints ``error: ...`` naming the
parameter and what is allowed, and exits with status 2.
"""

from __future__ import annotations

import json
import sys
from fractions import Fraction

import typer
from rich.markup import escape
from rich.progress import (
    BarColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from . import __version__, params
from .bets import (
    DEFAULT_COMMISSION,
    DEFAULT_SUPER6_PAYS,
    DEFAULT_TIE_PAYS,
    Bet,
    as_payout,
    builtin_bets,
    field_help,
    load_bets_toml,
)
from .cards import rank_index
from .cli_errors import err, handles_errors, make_console
from .errors import BaccaraError
from .exact import applicable_bets, coup_distribution, effects_of_removal, evaluate_bets
from .games.bertrand import bertrand_report, bertrand_text
from .games.chemin import check_model, chemin_game, shoe_label
from .games.chemin_report import sweep_renderables
from .games.chemin_solution import (
    best_response_table,
    solve_chemin,
    sweep_chemin,
    table1,
    table4,
    table5,
    table_text,
)
from .report import edge_json, edge_table, eor_json, eor_table, exact_edges_lines
from .result import Result
from .shoe import Shoe
from .workload import check_workload

app = typer.Typer(
    name="baccara",
    help="Exact mathematics of baccarat: bets, edges and effects of removal for any shoe.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
out = make_console()


def _say(message: str) -> None:
    err.print(message, highlight=False)


def _render(result: Result, json_out: bool) -> dict:
    """Print a result, as JSON or for people, and hand its document back (for the certificate check)."""
    doc = result.to_json()
    if json_out:
        print(json.dumps(doc, indent=2))
    else:
        result.show(out)
    return doc


def _bar() -> Progress:
    """The progress bar of every long command: on stderr, gone when done; elapsed time, then the time to go."""
    return Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                    TextColumn("elapsed"), TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                    transient=True, console=err)


ALLOW_LONG = typer.Option(False, "--allow-long",
                          help="Run even when the estimated time exceeds 15 minutes (refused otherwise).")

#: Measured seconds of one core per value of d (this machine class), for the estimates said before a table starts.
SECONDS_PER_D = {"table4": 0.15, "table5": 0.15, "table7": 8.0, "table7-no-confirm": 0.15}


def parse_composition(text: str) -> Shoe:
    """A shoe from ``--composition``: ``A=32,10=31,...`` by rank, 13 counts A..K, or 10 counts by value 0..9."""
    parts = [p for p in text.replace(" ", "").split(",") if p]
    if not parts:
        raise BaccaraError("--composition is empty: give RANK=COUNT pairs, 13 counts (A..K) or 10 counts (values 0..9)")
    if all("=" in p for p in parts):
        counts: dict[str, int] = {}
        seen: dict[int, str] = {}
        for p in parts:
            name, value = p.split("=", 1)
            try:
                r = rank_index(name)
            except BaccaraError as e:
                raise BaccaraError(f"--composition: {e}") from None
            if r in seen:
                raise BaccaraError(f"--composition gives rank {name} twice ({seen[r]}=... and {name}=...): "
                                   "give each rank once")
            seen[r] = name
            counts[name] = params.integer(value, f"--composition count of {name}", lo=0)
        return Shoe.from_ranks(counts)
    if any("=" in p for p in parts):
        raise BaccaraError("--composition mixes RANK=COUNT pairs with bare counts; use one form")
    numbers = [params.integer(p, "--composition count", lo=0) for p in parts]
    if len(numbers) == 13:
        return Shoe.from_ranks(numbers)
    if len(numbers) == 10:
        return Shoe.from_values(numbers)
    raise BaccaraError(
        f"--composition takes 13 counts (ranks A..K) or 10 counts (values 0..9), got {len(numbers)}"
    )


def _parse_ranks(text: str | None, option: str) -> list[str]:
    if not text:
        return []
    ranks = [r for r in text.replace(" ", "").split(",") if r]
    for r in ranks:
        try:
            rank_index(r)
        except BaccaraError as e:
            raise BaccaraError(f"{option}: {e}") from None
    return ranks


def build_shoe(decks: str | None, infinite: bool, composition: str | None, remove: str | None, add: str | None,
               default_decks: int = 8) -> Shoe:
    """The shoe chosen by the common options (default: 8 decks)."""
    chosen = [name for name, given in (("--decks", decks is not None), ("--infinite", infinite), ("--composition", composition is not None)) if given]
    if len(chosen) > 1:
        raise BaccaraError(f"choose one shoe: {' and '.join(chosen)} were both given")
    if composition is not None:
        shoe = parse_composition(composition)
    else:
        d = None if infinite else params.decks(default_decks if decks is None else decks, "--decks")
        shoe = Shoe.infinite() if d is None else Shoe.decks(d)
    for r in _parse_ranks(remove, "--remove"):
        shoe = shoe.remove(r)
    for r in _parse_ranks(add, "--add"):
        shoe = shoe.add(r)
    return shoe


def build_bets(commission: str, tie_pays: str, super6_pays: str, bets_file: str | None) -> tuple[dict[str, Bet], dict]:
    """Built-in bets with the house parameters, plus any user-defined bets."""
    house = {
        "commission": params.commission(commission, "--commission"),
        "tie_pays": as_payout(tie_pays, "--tie-pays: tie pays", positive=True),
        "super6_pays": as_payout(super6_pays, "--super6-pays: super6 pays", positive=True),
    }
    bets = builtin_bets(**house)
    if bets_file:
        for name, bet in load_bets_toml(bets_file).items():
            if name in bets:
                raise BaccaraError(f"--bets: bet {name!r} in {bets_file} has the name of a built-in bet; rename it")
            bets[name] = bet
    return bets, house


DECKS = typer.Option(None, "--decks", "-d", help="Number of decks, a positive integer, or 'inf' (default 8).")
INFINITE = typer.Option(False, "--infinite", help="Infinite shoe: cards dealt with replacement.")
COMPOSITION = typer.Option(None, "--composition", help="Cards left: 'A=32,2=31,...' by rank, 13 counts A..K, or 10 counts by value 0..9.")
REMOVE = typer.Option(None, "--remove", help="Ranks to take out of the shoe, e.g. '6,6,7'.")
ADD = typer.Option(None, "--add", help="Ranks to put into the shoe, e.g. '8,9'.")
COMMISSION = typer.Option(str(DEFAULT_COMMISSION), "--commission", help="Commission on Banker wins, a rational in [0, 1) (e.g. 1/20, 1/25, 0).")
TIE_PAYS = typer.Option(str(DEFAULT_TIE_PAYS.numerator), "--tie-pays", help="Tie pays T:1 (8 or 9 usual).")
SUPER6_PAYS = typer.Option(str(DEFAULT_SUPER6_PAYS.numerator), "--super6-pays", help="Super 6 side bet pays P:1 (12 or 15 usual).")
BETS = typer.Option(None, "--bets", help="TOML file of user-defined bets ([bets.NAME] tables); see 'baccara fields'.")
JSON = typer.Option(False, "--json", help="Print JSON (exact numbers as 'num/den' strings).")


@app.command()
@handles_errors
def edge(
    decks: str | None = DECKS,
    infinite: bool = INFINITE,
    composition: str | None = COMPOSITION,
    remove: str | None = REMOVE,
    add: str | None = ADD,
    commission: str = COMMISSION,
    tie_pays: str = TIE_PAYS,
    super6_pays: str = SUPER6_PAYS,
    bets: str | None = BETS,
    json_out: bool = JSON,
    exact: bool = typer.Option(False, "--exact", help="Also print each edge as an exact fraction."),
) -> None:
    """Every bet's win / push / loss probabilities and house edge, exactly."""
    shoe = build_shoe(decks, infinite, composition, remove, add)
    all_bets, params = build_bets(commission, tie_pays, super6_pays, bets)
    priced = applicable_bets(shoe, all_bets)
    skipped = [n for n in all_bets if n not in priced]
    unpriced_user = [n for n in skipped if n not in builtin_bets()]
    if unpriced_user:
        needs = ", ".join(f"{n} needs a shoe known by {all_bets[n].resolution}" for n in unpriced_user)
        raise BaccaraError(f"--bets: {needs}; this shoe is known only by {shoe.resolution}")
    dist = coup_distribution(shoe)
    results = evaluate_bets(dist, priced.values())
    if json_out:
        doc = edge_json(shoe, dist, results, params)
        if skipped:
            doc["skipped"] = {n: f"needs a shoe known by {all_bets[n].resolution}" for n in skipped}
        print(json.dumps(doc, indent=2))
        return
    out.print(edge_table(shoe, dist, results))
    if exact:
        for line in exact_edges_lines(results):
            out.print(line, highlight=False, soft_wrap=True)
    if skipped:
        out.print(f"Not priced (this shoe is known only by {shoe.resolution}): {', '.join(skipped)}")


@app.command()
@handles_errors
def eor(
    bet: str = typer.Option(..., "--bet", "-b", help="Bet name (see 'baccara bets')."),
    decks: str | None = DECKS,
    composition: str | None = COMPOSITION,
    remove: str | None = REMOVE,
    add: str | None = ADD,
    commission: str = COMMISSION,
    tie_pays: str = TIE_PAYS,
    super6_pays: str = SUPER6_PAYS,
    bets: str | None = BETS,
    json_out: bool = JSON,
) -> None:
    """Effects of removal: the exact change in a bet's house edge when one card of each rank is removed."""
    if decks is not None and decks.strip().lower() in ("inf", "infinite"):
        raise BaccaraError("--decks: effects of removal need a finite shoe, not 'inf'")
    shoe = build_shoe(decks, False, composition, remove, add)
    all_bets, _ = build_bets(commission, tie_pays, super6_pays, bets)
    if bet not in all_bets:
        raise BaccaraError(f"--bet: unknown bet {bet!r}; bets are {', '.join(all_bets)}")
    base, effects = effects_of_removal(shoe, all_bets[bet])
    if json_out:
        print(json.dumps(eor_json(shoe, bet, base, effects), indent=2))
        return
    out.print(eor_table(shoe, bet, base, effects))


@app.command("bets")
@handles_errors
def list_bets(
    commission: str = COMMISSION,
    tie_pays: str = TIE_PAYS,
    super6_pays: str = SUPER6_PAYS,
    bets: str | None = BETS,
) -> None:
    """List the bets: built-in, and those of a --bets file."""
    all_bets, _ = build_bets(commission, tie_pays, super6_pays, bets)
    for name, b in all_bets.items():
        out.print(f"[bold]{name}[/]: {escape(b.description)}", highlight=False)


@app.command()
def fields() -> None:
    """The event fields a user-defined bet's 'when' can test."""
    out.print(field_help(), highlight=False)


# ---------------------------------------------------------------- chemin de fer
chemin_app = typer.Typer(help="Chemin de fer as a game (seed 000): Nash equilibria, the commission sweep, Table 4.",
                         no_args_is_help=True, rich_markup_mode=None)
app.add_typer(chemin_app, name="chemin")

MODEL = typer.Option("B2", "--model", "-m", help="Information model: A1, A2, A3, B1, B2, B3 (A: with replacement; "
                                                  "3: Player sees his composition).")
CHEMIN_DECKS = typer.Option(None, "--decks", "-d", help="Decks in the shoe, a positive integer, or 'inf' (default 6).")
ALPHA = typer.Option("1/20", "--commission", "-a", help="Commission alpha on Banker wins, a rational in [0, 1).")


def parse_chemin_decks(text: str) -> int | None:
    """--decks for chemin de fer: a positive integer or 'inf' (None)."""
    return params.decks(text, "--decks")


def parse_alpha(text: str, option: str = "--commission") -> Fraction:
    """A commission option: a rational in [0, 1)."""
    return params.commission(text, option)


def _model_and_decks(model: str, decks: str | None, composition: str | None = None, remove: str | None = None,
                     add: str | None = None, model3: bool = True) -> tuple[str, int | None | tuple[int, ...]]:
    """The model and the game's shoe (d, None for infinite, or a composition by value) from the options."""
    if composition is None and remove is None and add is None:
        m, d = check_model(model, parse_chemin_decks("6" if decks is None else decks))
    else:
        m, d = check_model(model, build_shoe(decks, False, composition, remove, add, default_decks=6))
    if m.startswith("B") and d is None:
        m = "A" + m[1]  # d -> infinity is Model A
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
                          "Models 1-2 always enumerate them (Foster's algorithm).")) -> None:
    """Every Nash equilibrium at one commission, with its certificate."""
    m, d = _model_and_decks(model, decks, composition, remove, add)
    if m.endswith("3"):
        from .games.chemin_model3 import solve_chemin3

        return _render(solve_chemin3(m, d, parse_alpha(commission), all_equilibria=all_equilibria), json_out)
    return _render(solve_chemin(m, d, parse_alpha(commission)), json_out)


@chemin_app.command("sweep")
@handles_errors
def chemin_sweep(model: str = MODEL, decks: str | None = CHEMIN_DECKS, composition: str | None = COMPOSITION,
                 remove: str | None = REMOVE, add: str | None = ADD, json_out: bool = JSON,
                 lo: str = typer.Option("0", "--from", help="Lowest commission."),
                 hi: str = typer.Option("1/10", "--to", help="Highest commission.")) -> None:
    """The exact structure over the commission: curves, intersections, cases, equilibria by interval."""
    m, d = _model_and_decks(model, decks, composition, remove, add)
    a, b = parse_alpha(lo, "--from"), parse_alpha(hi, "--to")
    if a >= b:
        raise BaccaraError(f"--from must be below --to, got {a} and {b}")
    if m == "B3":
        from .games.chemin_model3 import sweep_chemin3

        doc = sweep_chemin3(d, a, b).to_json()
    elif m == "A3":  # with replacement the compositions of 5 are one decision: Model A1
        doc = sweep_chemin("A1", d, a, b).to_json()
        doc["model"] = "A3"
        doc["note"] = ("with replacement Player's five compositions of 5 are equivalent: Model A3's equilibria are "
                       "Model A1's, Player drawing at 5 with the total probability p(alpha) split across them in any way")
    else:
        doc = sweep_chemin(m, d, a, b).to_json()
    if json_out:
        print(json.dumps(doc, indent=2))
    else:
        for r in sweep_renderables(doc):
            out.print(r, highlight=False)
    return doc


#: Most values of d one --decks list may name.
MAX_DECK_VALUES = 10_000


def parse_deck_range(text: str) -> list[int | None]:
    """'1-100', '6', '1,2,8-10', 'inf': distinct values, in the order given."""
    out: list[int | None] = []
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        if "-" in part:
            a, b = part.split("-", 1)
            lo_, hi_ = params.decks(a, "--decks", infinite=False), params.decks(b, "--decks", infinite=False)
            if hi_ < lo_:
                raise BaccaraError(f"--decks range must be like 1-100 with 1 <= low <= high, got {part!r}")
            if hi_ - lo_ + 1 > MAX_DECK_VALUES:
                raise BaccaraError(f"--decks names at most {MAX_DECK_VALUES} values of d, got {part!r} "
                                   f"({hi_ - lo_ + 1} values)")
            out.extend(range(lo_, hi_ + 1))
        else:
            out.append(parse_chemin_decks(part))
        if len(out) > MAX_DECK_VALUES:
            raise BaccaraError(f"--decks names at most {MAX_DECK_VALUES} values of d, got {text!r}")
    if not out:
        raise BaccaraError("--decks is empty: give e.g. 1-100 or 6 or inf")
    return list(dict.fromkeys(out))


@chemin_app.command("table4")
@handles_errors
def chemin_table4(decks: str = typer.Option("1-100,inf", "--decks", "-d", metavar="D-RANGE",
                                           help="Decks: e.g. 1-100, 6, inf (at most 10000 values)."),
                  json_out: bool = JSON, allow_long: bool = ALLOW_LONG) -> None:
    """Seed 000 Table 4 for each d (Model B2): curves, intersections, partial curves, cases, exceptional alphas."""
    ds = parse_deck_range(decks)
    check_workload(f"Table 4 for {len(ds)} values of d", SECONDS_PER_D["table4"] * len(ds), allow_long,
                   "give a shorter --decks range", _say)
    with _bar() as bar:
        task = bar.add_task("Model B2 sweeps", total=len(ds))
        rows = table4(ds, progress=lambda d: bar.advance(task))
    if json_out:
        print(json.dumps([{"decks": "inf" if r[0] is None else r[0], "a": r[1], "b": r[2], "c": r[3], "d": r[4], "e": r[5]}
                          for r in rows], indent=2))
        return
    t = Table(title="Seed 000 Table 4 (Model B2; inf = Model A2)")
    for col in ("d", "(a) curves", "(b) intersections", "(c) partial", "(d) cases", "(e) exceptional"):
        t.add_column(col, justify="right")
    for r in rows:
        t.add_row("inf" if r[0] is None else str(r[0]), *(str(x) for x in r[1:]))
    out.print(t)


@chemin_app.command("table7")
@handles_errors
def chemin_table7(decks: str = typer.Option("1-20", "--decks", "-d", metavar="D-RANGE",
                                           help="Decks: e.g. 1-100 (finite, at most 10000 values)."),
                  confirm: bool = typer.Option(True, "--confirm/--no-confirm",
                                               help="Confirm each interval in the full Model B3 game."),
                  json_out: bool = JSON, allow_long: bool = ALLOW_LONG) -> None:
    """Seed 000 Table 7 / Theorem 2 (Model B3): Banker's strategies by alpha-interval, grouped by d."""
    from .games.chemin_model3 import table7

    ds = [d for d in parse_deck_range(decks) if d is not None]
    if not ds:
        raise BaccaraError("--decks needs at least one finite d")
    per_d = SECONDS_PER_D["table7" if confirm else "table7-no-confirm"]
    check_workload(f"Table 7 for {len(ds)} values of d{'' if confirm else ' (no confirmation)'}", per_d * len(ds),
                   allow_long, "give a shorter --decks range" + (", or --no-confirm" if confirm else ""), _say)
    with _bar() as bar:
        task = bar.add_task("Model B3 sweeps", total=len(ds))
        rows = table7(ds, confirm, progress=lambda d: bar.advance(task))
    if json_out:
        print(json.dumps(rows, indent=2))
        return rows
    t = Table(title="Model B3: Banker's strategies by alpha-interval, blocks (3,8) (4,1) (5,4) (6,none) (6,6)")
    for col in ("d", "strategies (alpha increasing)", "several-NE alphas", "confirmed"):
        t.add_column(col)
    for r in rows:
        ds_ = r["decks"]
        label = str(ds_[0]) if len(ds_) == 1 else f"{ds_[0]}-{ds_[-1]}"
        t.add_row(label, "\n".join(r["strategies"]), str(r["exceptional_alphas"]), "yes" if r["confirmed"] else "NO")
    out.print(t)
    return rows


@chemin_app.command("plot")
@handles_errors
def chemin_plot(model: str = MODEL, decks: str | None = CHEMIN_DECKS, composition: str | None = COMPOSITION,
                remove: str | None = REMOVE, add: str | None = ADD,
                output: str = typer.Option("curves.png", "--out", "-o", metavar="FILE",
                                           help="Image file to write (.png, .pdf, .svg).")) -> None:
    """Plot the best-response-discontinuity curves in the (alpha, p) plane (seed 000 Figure 1)."""
    m, d = _model_and_decks(model, decks, composition, remove, add, model3=False)
    params.output_file(output, "--out", params.IMAGE_SUFFIXES)
    from .plots import plot_curves

    try:
        path = plot_curves(sweep_chemin(m, d), output)
    except BaccaraError:
        raise
    except (OSError, ValueError) as e:
        raise BaccaraError(f"--out: cannot write {output!r}: {e}") from None
    out.print(f"wrote {path}", highlight=False)


@chemin_app.command("table1")
@handles_errors
def chemin_table1(model: str = MODEL, decks: str | None = CHEMIN_DECKS, composition: str | None = COMPOSITION,
                  remove: str | None = REMOVE, add: str | None = ADD) -> None:
    """Seed 000 Table 1: Banker's moves that depend neither on Player's strategy nor on alpha in [0, 1/10]."""
    m, d = _model_and_decks(model, decks, composition, remove, add, model3=False)
    rows = table1(chemin_game(m, d))
    out.print(table_text([[x or "." for x in r] for r in rows], [],
                         f"Banker's moves, Model {m}, {shoe_label(d)}, alpha in [0, 1/10] "
                         "(. depends on Player's strategy or alpha)"), highlight=False)


@chemin_app.command("table5")
@handles_errors
def chemin_table5(decks: str = typer.Option("1-100", "--decks", "-d", metavar="D-RANGE",
                                           help="Decks: e.g. 1-100 (finite, at most 10000 values)."),
                  allow_long: bool = ALLOW_LONG) -> None:
    """Seed 000 Table 5: Banker's equilibrium moves common to every d and commission (blanks vary)."""
    ds = [d for d in parse_deck_range(decks) if d is not None]
    if not ds:
        raise BaccaraError("--decks needs at least one finite d")
    check_workload(f"Table 5 for {len(ds)} values of d", SECONDS_PER_D["table5"] * len(ds), allow_long,
                   "give a shorter --decks range", _say)
    with _bar() as bar:
        task = bar.add_task("Model B2 sweeps", total=len(ds))
        rows = table5(ds, progress=lambda d: bar.advance(task))
    out.print(table_text([[x or "." for x in r] for r in rows], [],
                         f"Banker's equilibrium moves common to d in {decks} and alpha in [0, 1/10] (. varies)"),
              highlight=False)


@chemin_app.command("table")
@handles_errors
def chemin_table(model: str = MODEL, decks: str | None = CHEMIN_DECKS, composition: str | None = COMPOSITION,
                 remove: str | None = REMOVE, add: str | None = ADD, commission: str = ALPHA,
                 p: str = typer.Option("0", "--p", help="Player's probability of drawing at 5, in [0, 1].")) -> None:
    """Banker's best response to Player's mixture p at one commission (seed 000 Table 1 layout)."""
    m, d = _model_and_decks(model, decks, composition, remove, add, model3=False)
    pp = params.probability(p, "--p")
    rows, notes = best_response_table(chemin_game(m, d), pp, parse_alpha(commission))
    out.print(table_text(rows, notes, f"Banker's best response, Model {m}, {shoe_label(d)}, "
                                      f"alpha = {commission}, p = {p} (D draw, S stand, M indifferent)"), highlight=False)


# ---------------------------------------------------------------- simulation
from .sim.cli import simulate_app

app.add_typer(simulate_app, name="simulate")


# ---------------------------------------------------------------- baccara banque
banque_app = typer.Typer(help="Baccara banque (seed 004): the three-person game's solutions.", no_args_is_help=True,
                         rich_markup_mode=None)
app.add_typer(banque_app, name="banque")
CONCEPTS = ("correlated", "independent", "nash")
BANQUE_MODELS = ("simplified", "traditional", "recent")


@banque_app.command("solve")
@handles_errors
def banque_solve(
    theta: str = typer.Option("1/2", "--theta", "-t", help="Share of the total stake bet on Player 1, in (0, 1)."),
    concept: str = typer.Option("correlated", "--concept", "-c", help="correlated | independent | nash."),
    model: str = typer.Option("simplified", "--model", "-m", help="simplified | traditional | recent."),
    json_out: bool = JSON,
) -> None:
    """Solve baccara banque at one theta (exact, with a certificate)."""
    th = params.theta(theta, "--theta")
    if concept not in CONCEPTS:
        raise BaccaraError(f"--concept must be one of {', '.join(CONCEPTS)}, got {concept!r}")
    if model not in BANQUE_MODELS:
        raise BaccaraError(f"--model must be one of {', '.join(BANQUE_MODELS)}, got {model!r}")
    if model != "simplified":
        if concept != "correlated":
            raise BaccaraError(f"--concept {concept} --model {model} is not available yet: the full models have "
                               "the correlated cooperative equilibrium (and Banker's minimax strategy)")
        return _banque_full(th, theta, model, json_out)
    from .games.banque_solution import correlated_equilibrium

    if concept == "nash":
        return _banque_nash(th, theta, json_out)
    if concept == "independent":
        from .games.banque_independent import (
            independent_equilibrium,
            maximin_upper_bound,
        )

        ind = independent_equilibrium(th)
        bound = maximin_upper_bound(th, ind.lower_value)
        corr = correlated_equilibrium(th).to_json()
        doc = {"theta": corr["theta"], "concept": "independent", "model": "simplified",
               "players": {"p1": {"exact": str(ind.p1), "float": float(ind.p1)},
                           "p2": {"exact": str(ind.p2), "float": float(ind.p2)}},
               "lower_value": {"exact": str(ind.lower_value), "float": float(ind.lower_value)},
               "upper_value": {"exact": corr["value"], "float": corr["value_float"]},
               "values_differ": ind.values_differ,
               "banker": {"mixed": corr["banker"]["mixed"], "note": "Banker's minimax strategy is the correlated one"},
               "expectations": {"players": str(ind.lower_value), "banker": str(-ind.lower_value)},
               "candidates_checked": ind.candidates,
               "maximin_check": {"status": bound.status, "margin": bound.eps, "boxes": bound.boxes,
                                 "exact": bound.exact,
                                 "method": "branch and bound over the square, independent of the candidate "
                                           "search, every box's bound rechecked in exact arithmetic: no (p1, p2) "
                                           "guarantees more than the lower value + margin"}}
        if json_out:
            print(json.dumps(doc, indent=2))
            return doc
        out.print(f"Baccara banque, simplified model, theta = {theta}: independent cooperative equilibrium", highlight=False)
        out.print(f"Player 1 draws at 5 with p1 = {doc['players']['p1']['exact']} = {doc['players']['p1']['float']:.9f}; "
                  f"Player 2 with p2 = {doc['players']['p2']['exact']} = {doc['players']['p2']['float']:.9f}", highlight=False)
        out.print(f"lower value {doc['lower_value']['exact']} = {doc['lower_value']['float']:.9f}; upper value "
                  f"{doc['upper_value']['exact']} = {doc['upper_value']['float']:.9f}; "
                  f"{'they differ' if ind.values_differ else 'equal: the game has a value'}", highlight=False)
        out.print(f"check (branch and bound, {bound.boxes} boxes, {'exact' if bound.exact else 'floating point'}): "
                  f"no (p1, p2) guarantees more than the lower value + {bound.eps:g}: {bound.status}", highlight=False)
        return doc
    sol = correlated_equilibrium(th)
    doc = sol.to_json()
    if json_out:
        print(json.dumps(doc, indent=2))
        return doc
    out.print(f"Baccara banque, simplified model, theta = {theta}: correlated cooperative equilibrium "
              f"(certificate {'holds' if doc['certificate']['holds'] else 'FAILS'})", highlight=False)
    out.print("Players' mixture: " + ", ".join(f"{k} {v}" for k, v in doc["players"].items()), highlight=False)
    out.print(f"value to the Players: {doc['value']} = {doc['value_float']:.9f}; "
              f"Banker's advantage {doc['expectations']['banker_advantage_percent']:.7f}%", highlight=False)
    out.print("Banker mixes at " + (", ".join(f"{k} draw {v}" for k, v in doc["banker"]["mixed"].items()) or "no set")
              + f"; m = {doc['m']}", highlight=False)
    out.print("Banker's maximum drawing total (seed 004 Table 1): rows Player 1's third card, columns Player 2's "
              "(10 stood, 11 natural); 5+ = draw on 0-5, mix on 6", highlight=False)
    out.print("      " + " ".join(f"{k:>3}" for k in range(12)), highlight=False)
    for k1, row in enumerate(doc["banker"]["table1"]):
        out.print(f"{k1:>3} | " + " ".join(f"{x:>3}" for x in row), highlight=False)
    return doc


def _independent_sweep(json_out: bool) -> None:
    from .games.banque_independent_sweep import (
        exact_ends,
        independent_sweep,
        lower_value_peak,
        sweep_json,
    )

    with _bar() as bar:
        task = bar.add_task("theta grid (then bisection)", total=501)
        sw = independent_sweep(progress=lambda k, n: bar.update(task, completed=k))
        task = bar.add_task("exact interval ends", total=len(sw.breaks))
        ends = exact_ends(sw, progress=lambda k, n: bar.update(task, completed=k))
    doc = sweep_json(sw, ends)
    t_peak, v_peak = lower_value_peak()
    doc["lower_value_peak"] = {"theta": t_peak, "value": v_peak}
    if json_out:
        print(json.dumps(doc, indent=2))
        return doc
    t = Table(title=f"Independent cooperative equilibrium: {doc['count']} theta-intervals in (0, 1/2]")
    for col in ("theta from", "theta to", "p1", "p2", "lower value", "maximum on"):
        t.add_column(col)
    def num(x) -> str:
        return f"{x['float'] if isinstance(x, dict) else x:.6f}"

    for iv in doc["intervals"]:
        t.add_row(num(iv["from"]), num(iv["to"]), f"{iv['p1']:.6f}", f"{iv['p2']:.6f}",
                  f"{iv['lower_value']:.9f}", " ".join(iv["maximum_on_curves"] + iv["on_edges"]))
    out.print(t)
    out.print(doc["definition"] + "; " + doc["endpoints"], highlight=False)
    out.print(f"the lower value peaks at theta = {t_peak:.6f}: {v_peak:.9f}", highlight=False)
    return doc


def _banque_full(th: Fraction, theta: str, model: str, json_out: bool) -> None:
    from .games.banque_full import full_correlated_equilibrium

    doc = full_correlated_equilibrium(th, model).to_json()
    if json_out:
        print(json.dumps(doc, indent=2))
        return doc
    c = doc["certificate"]
    out.print(f"Baccara banque, {model} model (Player 2 sees: {', '.join(doc['player2_information'])}), "
              f"theta = {theta}: correlated cooperative equilibrium (certificate {'holds' if c['holds'] else 'FAILS'}; "
              f"{c['columns_generated']} of {c['team_strategies']} team strategies generated)", highlight=False)
    out.print(doc["players_note"], highlight=False)
    for lab, w in doc["players"].items():
        out.print(f"  {lab}: {w} = {float(Fraction(w)):.7f}", highlight=False)
    out.print(f"value to the Players: {doc['value']} = {doc['value_float']:.9f}; "
              f"Banker's advantage {doc['expectations']['banker_advantage_percent']:.7f}%", highlight=False)
    out.print("Banker's minimax strategy mixes at "
              + (", ".join(f"{k} draw {v}" for k, v in doc["banker"]["mixed"].items()) or "no set"), highlight=False)
    return doc


def _banque_nash(th: Fraction, theta: str, json_out: bool) -> None:
    from .games.banque_nash import nash_equilibria, nash_json

    doc = nash_json(nash_equilibria(th))
    if json_out:
        print(json.dumps(doc, indent=2))
        return doc
    n = len(doc["equilibria"])
    out.print(f"Baccara banque, simplified model, theta = {theta}: Nash equilibrium "
              f"({n} extreme equilibria in behavioural strategies, {doc['search']['candidate_points']} candidate "
              f"points and {doc['search']['cells']} cells searched)", highlight=False)
    for pt in doc["points"]:
        out.print(f"Player 1 draws at 5 with p1 = {pt['p1']['exact']} = {pt['p1']['float']:.9f}, "
                  f"Player 2 with p2 = {pt['p2']['exact']} = {pt['p2']['float']:.9f}; Banker indifferent at "
                  + (", ".join(pt["banker_indifferent_at"]) or "no set"), highlight=False)
        if "banker_extreme_mixtures" in pt:
            out.print(f"  {len(pt['banker_extreme_mixtures'])} extreme equilibria in Banker's mixed strategies "
                      "over his pure choices there", highlight=False)
    for k, e in enumerate(doc["equilibria"], 1):
        mixed = ", ".join(f"{s_} draw {v['exact']}" for s_, v in e["banker"]["mixed"].items()) or "nowhere"
        ex = e["expectations"]
        out.print(f"[{k}] Banker mixes {mixed}; expectations: Player 1 {ex['player1_per_unit_bet']['float']:.9f}, "
                  f"Player 2 {ex['player2_per_unit_bet']['float']:.9f} per unit bet, Banker "
                  f"{ex['banker_per_unit_total_stake']['exact']} = {ex['banker_per_unit_total_stake']['float']:.9f} "
                  f"per unit stake; certificate {'holds' if e['certificate']['holds'] else 'FAILS'}", highlight=False)
    for c in doc["continua"]:
        out.print(c, highlight=False)
    return doc


@banque_app.command("advantage")
@handles_errors
def banque_advantage(json_out: bool = JSON) -> None:
    """Banker's advantage at theta = 1/2 beside the historical estimates (seed 004, section 1)."""
    from .games.banque_solution import banker_advantage_comparison

    rows = banker_advantage_comparison()
    if json_out:
        print(json.dumps(rows, indent=2))
        return
    t = Table(title="Baccara banque, theta = 1/2: Banker's advantage (% of the total stake)")
    for col in ("assumption", "baccara (exact)", "historical estimates"):
        t.add_column(col)
    for r in rows:
        t.add_row(r["assumption"], "-" if r["percent"] is None else f"{r['percent']:.7f}%",
                  ", ".join(f"{k} {v}%" for k, v in r["historical"].items()) or r.get("note", ""))
    out.print(t)


#: Most theta values a banque plot samples.
MAX_POINTS = 100_000
#: Measured seconds of one core for each figure: fixed, then per point.
PLOT_SECONDS = {1: (80.0, 0.0), 2: (0.0, 0.08), 3: (0.0, 0.22), 4: (240.0, 0.001)}


@banque_app.command("plot")
@handles_errors
def banque_plot(output: str = typer.Option("banque.png", "--out", "-o", metavar="FILE",
                                          help="Image file to write (.png, .pdf, .svg)."),
                figure: int = typer.Option(1, "--figure", "-f", metavar="1-4",
                                           help="Seed 004's figure: 1 correlated value and mixture; "
                                                "2 independent p1, p2; 3 upper - lower value; 4 Nash p1, p2."),
                points: int = typer.Option(200, "--points", metavar="N",
                                           help=f"Theta values sampled (figures 2-4), 2 to {MAX_POINTS}."),
                allow_long: bool = ALLOW_LONG) -> None:
    """Plot seed 004's Figures 1-4 (banque over theta)."""
    if figure not in (1, 2, 3, 4):
        raise BaccaraError(f"--figure must be 1, 2, 3 or 4, got {figure}")
    if not 2 <= points <= MAX_POINTS:
        raise BaccaraError(f"--points must be a whole number from 2 to {MAX_POINTS}, got {points}")
    params.output_file(output, "--out", params.IMAGE_SUFFIXES)
    fixed, per_point = PLOT_SECONDS[figure]
    check_workload(f"Figure {figure} with {points} points", fixed + per_point * points, allow_long,
                   "ask for fewer --points", _say)
    from .plots import plot_banque_correlated, plot_banque_series

    try:
        if figure == 4:
            path = _banque_nash_plot(points, output)
        elif figure == 1:
            from .games.banque_sweep import correlated_sweep

            with _bar() as bar:
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
    from .games.banque_nash_sweep import THETA_9_11, nash_branches
    from .plots import plot_banque_branches

    with _bar() as bar:
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
    from .games.banque_independent_sweep import float_independent, upper_value

    hi = 0.25 if figure == 2 else 0.5
    xs = [hi * (k + 0.5) / points for k in range(points)]
    series: dict[str, list[float]] = {}
    with _bar() as bar:
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


@banque_app.command("sweep")
@handles_errors
def banque_sweep_cmd(
    concept: str = typer.Option("correlated", "--concept", "-c",
                                help="correlated or nash (exact endpoints), or independent (endpoints by bisection)."),
    json_out: bool = JSON,
) -> None:
    """The partition of (0, 1/2] into theta-intervals with one solution formula each (progress bar)."""
    if concept not in CONCEPTS:
        raise BaccaraError(f"--concept must be one of {', '.join(CONCEPTS)}, got {concept!r}")
    check_workload(f"the {concept} sweep over (0, 1/2]", SWEEP_SECONDS[concept], False, "", _say)
    if concept == "nash":
        return _nash_sweep(json_out)
    if concept == "independent":
        return _independent_sweep(json_out)
    from .games.banque_sweep import correlated_sweep, sweep_json

    with _bar() as bar:
        task = bar.add_task("sweeping theta from 1/2 down to 0", total=1000)
        pieces = correlated_sweep(progress=lambda left: bar.update(task, completed=int(1000 * (0.5 - left) / 0.5)))
    doc = sweep_json(pieces)
    if json_out:
        print(json.dumps(doc, indent=2))
        return doc
    t = Table(title=f"Correlated cooperative equilibrium: {doc['count']} theta-intervals in (0, 1/2]")
    for col in ("theta from", "theta to", "Players' support", "Banker mixes at", "left endpoint exactly"):
        t.add_column(col)
    for iv in doc["intervals"]:
        t.add_row(f"{iv['from']['float']:.6f}", f"{iv['to']['float']:.6f}", " ".join(iv["players_support"]),
                  " ".join(iv["banker_mixes_at"]), iv["from"]["exact"])
    out.print(t)
    return doc


def _nash_sweep(json_out: bool) -> None:
    from .games.banque_nash_sweep import nash_sweep, nash_sweep_json

    with _bar() as bar:
        task = bar.add_task("Nash equilibria below 5772/33847: intervals sampled", total=1)
        sw = nash_sweep(progress=lambda done, total: bar.update(task, completed=done, total=total))
    doc = nash_sweep_json(sw)
    if json_out:
        print(json.dumps(doc, indent=2))
        return doc
    t = Table(title=f"Nash equilibrium: {doc['count']} theta-intervals in (0, 1/2] "
                    f"({doc['discontinuities']} discontinuities)")
    for col in ("theta from", "theta to", "equilibria", "p1", "p2", "Banker mixes at"):
        t.add_column(col)
    for iv in doc["intervals"]:
        if "branches" not in iv:
            t.add_row(f"{iv['from']['float']:.6f}", f"{iv['to']['float']:.6f}", "1", "9/11", "9/11",
                      " ".join(iv["banker_indifferent_at"]))
            continue
        rows = [doc["branches"][k] for k in iv["branches"]]
        t.add_row(f"{iv['from']['float']:.6f}", f"{iv['to']['float']:.6f}", str(len(rows)),
                  " | ".join(f"{b['at_sample']['p1']['float']:.6f}" for b in rows),
                  " | ".join(f"{b['at_sample']['p2']['float']:.6f}" for b in rows),
                  " | ".join(" ".join(b["banker_mixes_at"]) for b in rows))
    out.print(t)
    out.print("p1, p2 at a rational inside each branch; every end is exact: "
              "'--json' gives its integer polynomial.", highlight=False)
    jumps = ", ".join(f"{e['float']:.7f}" for e in doc["path"]["players_jumps"])
    out.print(f"Followed as seed 004 does (one equilibrium, right to left): {doc['path']['intervals']} intervals "
              f"below 5772/33847, the Players' strategies jumping at {jumps or 'no theta'}", highlight=False)
    for m in doc["multiple_equilibria"]:
        out.print(f"{m['equilibria']} Nash equilibria coexist on ({m['from']['float']:.7f}, {m['to']['float']:.7f})",
                  highlight=False)
    return doc


@app.command()
@handles_errors
def bertrand(json_out: bool = JSON) -> None:
    """Bertrand's 1888 problems (seed 002): D0, D1, D1/2, W, T, E; Dormoy; Badoureau's errors; audits."""
    if json_out:
        print(json.dumps(bertrand_report(), indent=2))
        return
    out.print(bertrand_text(), highlight=False)


@app.callback(invoke_without_command=True)
def _root(version: bool = typer.Option(False, "--version", help="Print the version and exit.")) -> None:
    if version:
        print(__version__)
        raise typer.Exit(0)


def _name_metavars(command) -> None:
    """Show every option's value as its name (``--decks DECKS``), not as a Python type (``<str>``)."""
    for param in command.params:
        if param.param_type_name == "option" and not param.is_flag and param.metavar is None:
            param.metavar = param.name.upper() if param.name else "VALUE"
    for sub in getattr(command, "commands", {}).values():
        _name_metavars(sub)


def main() -> None:
    """Entry point of the ``baccara`` command."""
    command = typer.main.get_command(app)
    _name_metavars(command)
    command(prog_name="baccara")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
