"""``baccara macao ...``: Macao and Victoria, the precursors of baccarat, solved exactly."""

from __future__ import annotations

import json

import typer

from .. import params
from ..errors import BaccaraError, ParameterError
from ..macao.variants import VARIANTS, macao_rules
from .common import ADD, COMPOSITION, JSON, REMOVE, build_shoe, out, render
from .errors import handles_errors

macao_app = typer.Typer(help="Macao and Victoria (the precursors of baccarat) as zero-sum games, solved exactly.",
                        no_args_is_help=True, rich_markup_mode=None)

VARIANT = typer.Option("macao", "--variant", "-v", help=f"Variant: {', '.join(VARIANTS)}.")
DECKS = typer.Option(None, "--decks", "-d", help="Decks in the shoe, a positive integer (default 2).")
NAT9 = typer.Option(None, "--natural9-pays", help="A punter's winning natural 9 pays N:1 (default 3).")
DRAWS = typer.Option(None, "--draws", help="Most cards a hand may draw, rejected tens included, 0-4 "
                                           "(default 2 Macao, 1 Victoria). The bound keeps the game finite; on 2 "
                                           "decks raising it changes the value (see the README's table), and the "
                                           "game grows fast with it.")


def _game_args(variant: str, decks: str | None, composition: str | None, remove: str | None, add: str | None,
               natural9_pays: str | None, draws: str | None):
    name = params.choice(variant, "--variant", tuple(VARIANTS), case="lower")
    changes: dict[str, object] = {}
    if natural9_pays is not None:
        changes["natural9_pays"] = params.payout(natural9_pays, "--natural9-pays", positive=True)
    if draws is not None:
        changes["draws"] = params.integer(draws, "--draws", lo=0, hi=4)
    rules = macao_rules(name, **changes)
    shoe = build_shoe(decks, False, composition, remove, add, default_decks=rules.decks)
    if shoe.replacement:
        raise BaccaraError("--decks: Macao is solved for a finite shoe")
    return rules, shoe


@macao_app.command("solve")
@handles_errors
def macao_solve(variant: str = VARIANT, decks: str | None = DECKS, composition: str | None = COMPOSITION,
                remove: str | None = REMOVE, add: str | None = ADD, natural9_pays: str | None = NAT9,
                draws: str | None = DRAWS,
                plot: str | None = typer.Option(None, "--plot", metavar="FILE.png",
                                                help="Also draw both sides' optimal probability of drawing by total "
                                                     "and cards held into this PNG."),
                uniqueness: bool = typer.Option(False, "--uniqueness",
                                                help="Also decide whether the optimal strategies are unique "
                                                     "(seconds for Victoria, about a minute for Macao on 2 decks)."),
                json_out: bool = JSON) -> dict | None:
    """The game's value (the banker's edge), both sides' optimal strategies and the exact certificate."""
    from ..macao.solution import solve_macao

    rules, shoe = _game_args(variant, decks, composition, remove, add, natural9_pays, draws)
    if plot is not None and not plot.lower().endswith(".png"):
        raise ParameterError(f"--plot: a .png file name, got {plot!r}")
    try:
        sol = solve_macao(rules, shoe, decide_uniqueness=uniqueness)
    except BaccaraError as e:
        raise BaccaraError(f"--decks/--composition: {e}") from None
    if plot is not None:
        from ..plots import plot_macao_strategies

        try:
            plot_macao_strategies(sol, plot)
        except OSError as e:
            raise ParameterError(f"--plot: cannot write {plot!r} ({e.strerror or e})") from None
    return render(sol, json_out)


@macao_app.command("edge")
@handles_errors
def macao_edge(variant: str = VARIANT, decks: str | None = DECKS, composition: str | None = COMPOSITION,
               remove: str | None = REMOVE, add: str | None = ADD, natural9_pays: str | None = NAT9,
               draws: str | None = DRAWS, json_out: bool = JSON) -> dict | None:
    """Only the banker's edge under optimal play on both sides, exact and certified."""
    from ..macao.solution import solve_macao

    rules, shoe = _game_args(variant, decks, composition, remove, add, natural9_pays, draws)
    try:
        sol = solve_macao(rules, shoe)
    except BaccaraError as e:
        raise BaccaraError(f"--decks/--composition: {e}") from None
    doc = {k: v for k, v in sol.to_json().items() if k not in ("punter_strategy", "banker_strategy")}
    if json_out:
        print(json.dumps(doc, indent=2))
    else:
        out.print(sol.summary(), highlight=False)
    return doc


@macao_app.command("simulate")
@handles_errors
def macao_simulate(variant: str = VARIANT, decks: str | None = DECKS, composition: str | None = COMPOSITION,
                   remove: str | None = REMOVE, add: str | None = ADD, natural9_pays: str | None = NAT9,
                   draws: str | None = DRAWS,
                   coups: str = typer.Option("20000", "--coups", "-n", help="Coups to play (each from a full shoe)."),
                   punters: str = typer.Option("1", "--punters", "-k", help="Punters at the table (sharing the "
                                                                             "banker's draw decision)."),
                   seed: str = typer.Option("1", "--seed", help="Random seed."),
                   json_out: bool = JSON) -> dict | None:
    """Play coups with both sides' optimal strategies and compare with the exact value."""
    from ..macao.solution import solve_macao
    from ..sim.macao import simulate_macao

    rules, shoe = _game_args(variant, decks, composition, remove, add, natural9_pays, draws)
    n = params.integer(coups, "--coups", lo=1, hi=10**8)
    k = params.integer(punters, "--punters", lo=1, hi=8)
    s = params.integer(seed, "--seed", lo=0)
    try:
        sol = solve_macao(rules, shoe)
    except BaccaraError as e:
        raise BaccaraError(f"--decks/--composition: {e}") from None
    return render(simulate_macao(sol, n, seed=s, punters=k), json_out)
