"""``baccara macao ...``: Macao and Victoria, the precursors of baccarat, solved exactly."""

from __future__ import annotations

import json

import typer

from .. import params
from ..errors import BaccaraError, ParameterError
from ..macao.variants import VARIANTS, macao_rules, parse_naturals
from ..macao.work import check_macao_work, estimate_macao_work
from .common import ADD, COMPOSITION, JSON, REMOVE, build_shoe, out, render, say
from .errors import fail, handles_errors

_SOURCE_SHORT = {
    "macao": "Wikipedia's 'Baccarat (card game)', 2019: 1 card, modulo 10, tens rejectable, 9 pays 3, 8 pays 2",
    "macao-early": "the same article's early rules: over 9 loses, equal totals and cards a push",
    "victoria": "the same article: Victoria, two cards each",
    "victoria-early": "Victoria under the early rules",
    "macao-meyer": "Meyers Konversations-Lexikon 1908: over 9 loses, ties to fewer cards then the banker, 9 pays "
                   "double both ways",
    "macao-russian": "the Russian Wikipedia article: 104 cards, 9 triple (the banker's too), 8 double, 7 single",
    "macao-four-decks": "a French rules page (adpoker.fr): 4 decks, two cards, 9/8/7 pay 3/2/1 both ways, a tie "
                        "a push",
}

macao_app = typer.Typer(
    help="Macao and Victoria (the precursors of baccarat) as zero-sum games, solved exactly.\n\nVariants and their "
         "sources (the full citations and the modelling choices: docs, Theory > Macao):\n\n"
         + "\n\n".join(f"{k}: {v}." for k, v in _SOURCE_SHORT.items()),
    no_args_is_help=True, rich_markup_mode=None)

VARIANT = typer.Option("macao", "--variant", "-v",
                       help="Variant: " + "; ".join(f"{k} ({v})" for k, v in _SOURCE_SHORT.items()) + ".")
DECKS = typer.Option(None, "--decks", "-d", help="Decks in the shoe, a positive integer (default: the variant's, "
                                                  "2; 4 in macao-four-decks).")
NAT9 = typer.Option(None, "--natural9-pays", help="A punter's winning natural 9 pays N:1 (the variant's "
                                                   "multiple by default: 3, or 2 in macao-meyer).")
NATURALS = typer.Option(None, "--naturals", metavar="T=M,...",
                        help="What a winning natural (a hand of the dealt cards only) pays, by total: such as "
                             "9=3,8=2,7=1; totals 0-9, each once, multiples positive (3, 3/2); totals not named pay "
                             "even money. Not with --natural9-pays.")
ALLOW_LONG = typer.Option(False, "--allow-long",
                          help="Run even when the estimate exceeds an hour of one core or 4 GB of memory "
                               "(refused otherwise).")
BANKER_BONUS = typer.Option(None, "--banker-bonus/--no-banker-bonus",
                            help="The banker's winning naturals collect the same multiples as the punter's (except "
                                 "from a punter who ties him in total and cards, or went over 9). Default: the "
                                 "variant's (on in macao-meyer, macao-russian and macao-four-decks).")
DRAWS = typer.Option(None, "--draws", help="Most cards a hand may draw, rejected tens included, 0-4 "
                                           "(default 2 with one card dealt, 1 with two). No source bounds the "
                                           "draws: the bound is a modelling choice that keeps the game finite; "
                                           "raising it changes the value, and the game grows fast with it.")


def _game_args(variant: str, decks: str | None, composition: str | None, remove: str | None, add: str | None,
               natural9_pays: str | None, draws: str | None, naturals: str | None = None,
               banker_bonus: bool | None = None):
    name = params.choice(variant, "--variant", tuple(VARIANTS), case="lower")
    changes: dict[str, object] = {}
    if natural9_pays is not None and naturals is not None:
        raise ParameterError("--naturals sets every natural's multiple: give it without --natural9-pays")
    if natural9_pays is not None:
        changes["natural9_pays"] = params.payout(natural9_pays, "--natural9-pays", positive=True)
    if naturals is not None:
        changes["naturals"] = parse_naturals(naturals, "--naturals")
    if draws is not None:
        changes["draws"] = params.integer(draws, "--draws", lo=0, hi=4)
    if banker_bonus is not None:
        changes["banker_bonus"] = banker_bonus
    rules = macao_rules(name, **changes)
    shoe = build_shoe(decks, False, composition, remove, add, default_decks=rules.decks)
    if shoe.replacement:
        raise BaccaraError("--decks: Macao is solved for a finite shoe")
    return rules, shoe


def _check_work(rules, allow_long: bool, *, uniqueness: bool = False, coups: int = 0, punters: int = 1) -> None:
    """Estimate the solve (and what follows it) from the game's size; refuse it past the limits."""
    work = estimate_macao_work(rules, uniqueness=uniqueness, coups=coups, punters=punters)
    ask = " or ".join(a for a, given in (("give fewer --draws", rules.draws > 0), ("leave out --uniqueness", uniqueness),
                                         ("give fewer --coups", coups > 0)) if given) or "give fewer --draws"
    check_macao_work(f"{rules.name} with at most {rules.draws} draw(s) per hand"
                     + (" and its uniqueness" if uniqueness else "")
                     + (f" and {coups:,} simulated coups" if coups else ""), work, allow_long, ask, say)


def _solve(rules, shoe, **kw):
    """Solve, turning a shoe too small into bad input and a solver that runs out into exit status 1."""
    from ..macao.model import macao_game
    from ..macao.solution import solve_macao

    try:
        game = macao_game(rules, shoe)
    except BaccaraError as e:
        raise BaccaraError(f"--decks/--composition: {e}") from None
    try:
        return solve_macao(game, **kw)
    except BaccaraError as e:
        raise BaccaraError(f"--decks/--composition: {e}") from None
    except (MemoryError, ArithmeticError) as e:
        fail(f"cannot solve {rules.name} with at most {rules.draws} draw(s) per hand here ({type(e).__name__}: "
             f"{e}): give fewer --draws", status=1)
        raise  # not reached: fail() exits


@macao_app.command("solve")
@handles_errors
def macao_solve(variant: str = VARIANT, decks: str | None = DECKS, composition: str | None = COMPOSITION,
                remove: str | None = REMOVE, add: str | None = ADD, natural9_pays: str | None = NAT9,
                draws: str | None = DRAWS, naturals: str | None = NATURALS, banker_bonus: bool | None = BANKER_BONUS,
                plot: str | None = typer.Option(None, "--plot", metavar="FILE.png",
                                                help="Also draw both sides' optimal probability of drawing by total "
                                                     "and cards held into this PNG."),
                uniqueness: bool = typer.Option(False, "--uniqueness",
                                                help="Also decide whether the optimal strategies are unique "
                                                     "(seconds for Victoria, about a minute for Macao on 2 decks)."),
                json_out: bool = JSON, allow_long: bool = ALLOW_LONG) -> dict | None:
    """The game's value (the banker's edge), both sides' optimal strategies and the exact certificate.

    The work is estimated from the game's size first: past an hour of one core or 4 GB of memory it is
    refused without --allow-long (exit 2); a solver that runs out anyway exits 1.
    """
    rules, shoe = _game_args(variant, decks, composition, remove, add, natural9_pays, draws, naturals, banker_bonus)
    if plot is not None and not plot.lower().endswith(".png"):
        raise ParameterError(f"--plot: a .png file name, got {plot!r}")
    _check_work(rules, allow_long, uniqueness=uniqueness)
    sol = _solve(rules, shoe, decide_uniqueness=uniqueness)
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
               draws: str | None = DRAWS, naturals: str | None = NATURALS, banker_bonus: bool | None = BANKER_BONUS,
               json_out: bool = JSON, allow_long: bool = ALLOW_LONG) -> dict | None:
    """Only the banker's edge under optimal play on both sides, exact and certified."""
    rules, shoe = _game_args(variant, decks, composition, remove, add, natural9_pays, draws, naturals, banker_bonus)
    _check_work(rules, allow_long)
    sol = _solve(rules, shoe)
    doc = {k: v for k, v in sol.to_json().items() if not k.endswith(("_strategy", "_strategy_exact"))}
    if json_out:
        print(json.dumps(doc, indent=2))
    else:
        out.print(sol.summary(), highlight=False)
    return doc


@macao_app.command("simulate")
@handles_errors
def macao_simulate(variant: str = VARIANT, decks: str | None = DECKS, composition: str | None = COMPOSITION,
                   remove: str | None = REMOVE, add: str | None = ADD, natural9_pays: str | None = NAT9,
                   draws: str | None = DRAWS, naturals: str | None = NATURALS,
                   banker_bonus: bool | None = BANKER_BONUS,
                   coups: str = typer.Option("20000", "--coups", "-n", help="Coups to play (each from a full shoe)."),
                   punters: str = typer.Option("1", "--punters", "-k", help="Punters at the table (sharing the "
                                                                             "banker's draw decision)."),
                   seed: str = typer.Option("1", "--seed", help="Random seed, 0 to 2^63 - 1."),
                   json_out: bool = JSON, allow_long: bool = ALLOW_LONG) -> dict | None:
    """Play coups with both sides' optimal strategies and compare with the exact value."""
    from ..sim.macao import simulate_macao

    rules, shoe = _game_args(variant, decks, composition, remove, add, natural9_pays, draws, naturals, banker_bonus)
    n = params.integer(coups, "--coups", lo=1, hi=10**8)
    k = params.integer(punters, "--punters", lo=1, hi=8)
    try:  # the seed's range of every other command
        s = params.integer(seed, "--seed", lo=0, hi=2**63 - 1)
    except BaccaraError:
        raise BaccaraError(f"--seed must be an integer from 0 to 2^63 - 1, got {seed!r}") from None
    _check_work(rules, allow_long, coups=n, punters=k)
    sol = _solve(rules, shoe)
    return render(simulate_macao(sol, n, seed=s, punters=k), json_out)
