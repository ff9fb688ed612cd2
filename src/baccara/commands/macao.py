"""``baccara macao ...``: Macao and Victoria, the precursors of baccarat, solved exactly (declared once)."""

from __future__ import annotations

from typing import Any

from .. import params
from ..errors import BaccaraError, ParameterError
from ..macao.variants import VARIANTS, macao_rules, parse_naturals
from ..macao.work import check_macao_work, estimate_macao_work
from ..result import Result
from . import Command, Param
from .console import say
from .options import ADD, ALLOW_LONG, COMPOSITION, REMOVE, build_shoe

#: Each variant and its source, in short (the full citations and the modelling choices: docs, Theory > Macao).
SOURCES = {
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

VARIANT = Param("variant", "--variant", "Variant: " + "; ".join(f"{k} ({v})" for k, v in SOURCES.items()) + ".",
                "macao", short="-v")
DECKS = Param("decks", "--decks", "Decks in the shoe, a positive integer (default: the variant's, 2; 4 in "
                                  "macao-four-decks).", short="-d")
NAT9 = Param("natural9_pays", "--natural9-pays", "A punter's winning natural 9 pays N:1 (the variant's multiple by "
                                                 "default: 3, or 2 in macao-meyer).")
DRAWS = Param("draws", "--draws", "Most cards a hand may draw, rejected tens included, 0-4 (default 2 with one card "
                                  "dealt, 1 with two). No source bounds the draws: the bound is a modelling choice "
                                  "that keeps the game finite; raising it changes the value, and the game grows fast "
                                  "with it.")
NATURALS = Param("naturals", "--naturals", "What a winning natural (a hand of the dealt cards only) pays, by total: "
                                           "such as 9=3,8=2,7=1; totals 0-9, each once, multiples positive (3, 3/2); "
                                           "totals not named pay even money. Not with --natural9-pays.",
                 metavar="T=M,...")
BANKER_BONUS = Param("banker_bonus", "--banker-bonus", "The banker's winning naturals collect the same multiples as "
                                                       "the punter's (except from a punter who ties him in total and "
                                                       "cards, or went over 9). Default: the variant's (on in "
                                                       "macao-meyer, macao-russian and macao-four-decks).",
                     None, "bool", flag_off="--no-banker-bonus")
MACAO_ALLOW_LONG = ALLOW_LONG.but(help="Run even when the estimate exceeds an hour of one core or 4 GB of memory "
                                       "(refused otherwise).")
#: The game: the variant, its shoe and its terms.
GAME = (VARIANT, DECKS, COMPOSITION, REMOVE, ADD, NAT9, DRAWS, NATURALS, BANKER_BONUS)

MACAO_SOLVE = Command(
    ("macao", "solve"), "The game's value (the banker's edge), both sides' optimal strategies and the exact "
                        "certificate.\n\nThe work is estimated from the game's size first: past an hour of one core "
                        "or 4 GB of memory it is\nrefused without --allow-long (exit 2); a solver that runs out anyway "
                        "exits 1.",
    (*GAME,
     Param("plot", "--plot", "Also draw both sides' optimal probability of drawing by total and cards held into this "
                             "PNG.", metavar="FILE.png", web=False),
     Param("uniqueness", "--uniqueness", "Also decide whether the optimal strategies are unique (seconds for "
                                         "Victoria, about a minute for Macao on 2 decks).", False, "bool"),
     MACAO_ALLOW_LONG),
    ".macao:solve")
MACAO_EDGE = Command(("macao", "edge"), "Only the banker's edge under optimal play on both sides, exact and "
                                        "certified.", (*GAME, MACAO_ALLOW_LONG), ".macao:edge")
MACAO_SIMULATE = Command(
    ("macao", "simulate"), "Play coups with both sides' optimal strategies and compare with the exact value.",
    (*GAME, Param("coups", "--coups", "Coups to play (each from a full shoe).", "20000", short="-n"),
     Param("punters", "--punters", "Punters at the table (sharing the banker's draw decision).", "1", short="-k"),
     Param("seed", "--seed", "Random seed, 0 to 2^63 - 1.", "1"), MACAO_ALLOW_LONG),
    ".macao:simulate")


class MacaoEdge(Result):
    """Only the banker's edge of a solved game: its document without the strategies.

    Parameters
    ----------
    solution : MacaoSolution
        The solved game.
    """

    def __init__(self, solution: Any) -> None:
        self.solution = solution

    def to_json(self) -> dict:
        """The solution's document without its strategies.

        Returns
        -------
        dict
            :meth:`baccara.macao.solution.MacaoSolution.to_json` less the ``*_strategy`` fields.
        """
        doc = self.solution.to_json()
        return {k: v for k, v in doc.items() if not k.endswith(("_strategy", "_strategy_exact"))}

    def summary(self) -> str:
        """The solution's one line.

        Returns
        -------
        str
            The value and the banker's edge.
        """
        return str(self.solution.summary())


def _game_args(variant: str, decks: str | None, composition: str | None, remove: str | None, add: str | None,
               natural9_pays: str | None, draws: str | None, naturals: str | None = None,
               banker_bonus: bool | None = None) -> tuple[Any, Any]:
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


def _check_work(rules: Any, allow_long: bool, *, uniqueness: bool = False, coups: int = 0, punters: int = 1) -> None:
    """Estimate the solve (and what follows it) from the game's size; refuse it past the limits."""
    work = estimate_macao_work(rules, uniqueness=uniqueness, coups=coups, punters=punters)
    ask = " or ".join(a for a, given in (("give fewer --draws", rules.draws > 0), ("leave out --uniqueness", uniqueness),
                                         ("give fewer --coups", coups > 0)) if given) or "give fewer --draws"
    check_macao_work(f"{rules.name} with at most {rules.draws} draw(s) per hand"
                     + (" and its uniqueness" if uniqueness else "")
                     + (f" and {coups:,} simulated coups" if coups else ""), work, allow_long, ask, say)


def _solve(rules: Any, shoe: Any, **kw: Any) -> Any:
    """Solve, turning a shoe too small into bad input and a solver that runs out into a MemoryError that says so.

    The command line prints a MemoryError's message and exits with status 1; the web app answers that the
    game cannot be computed there.
    """
    from ..macao.model import macao_game  # lazy: the solver, when a command runs
    from ..macao.solution import solve_macao  # lazy: the solver, when a command runs

    try:
        game = macao_game(rules, shoe)
    except BaccaraError as e:
        raise BaccaraError(f"--decks/--composition: {e}") from None
    try:
        return solve_macao(game, **kw)
    except BaccaraError as e:
        raise BaccaraError(f"--decks/--composition: {e}") from None
    except (MemoryError, ArithmeticError) as e:
        raise MemoryError(f"cannot solve {rules.name} with at most {rules.draws} draw(s) per hand here "
                          f"({type(e).__name__}: {e}): give fewer --draws") from e


def solve(*, variant: str, decks: str | None, composition: str | None, remove: str | None, add: str | None,
          natural9_pays: str | None, draws: str | None, naturals: str | None, banker_bonus: bool | None,
          plot: str | None, uniqueness: bool, allow_long: bool) -> Result:
    """The game's value, both sides' optimal strategies and the certificate (:data:`MACAO_SOLVE`).

    Parameters
    ----------
    variant, decks, composition, remove, add, natural9_pays, draws, naturals, banker_bonus : str, bool or None
        The game (:data:`GAME`).
    plot : str or None
        A PNG to draw both sides' strategies into.
    uniqueness : bool
        Also decide whether the optimal strategies are unique.
    allow_long : bool
        Run past the workload limits.

    Returns
    -------
    Result
        :func:`baccara.macao.solution.solve_macao`'s.

    Raises
    ------
    MemoryError
        The solver ran out (its message says what to ask for instead).
    """
    rules, shoe = _game_args(variant, decks, composition, remove, add, natural9_pays, draws, naturals, banker_bonus)
    if plot is not None and not plot.lower().endswith(".png"):
        raise ParameterError(f"--plot: a .png file name, got {plot!r}")
    _check_work(rules, allow_long, uniqueness=uniqueness)
    sol = _solve(rules, shoe, decide_uniqueness=uniqueness)
    if plot is not None:
        from ..plots import plot_macao_strategies  # lazy: matplotlib, only for --plot

        try:
            plot_macao_strategies(sol, plot)
        except OSError as e:
            raise ParameterError(f"--plot: cannot write {plot!r} ({e.strerror or e})") from None
    return sol


def edge(*, variant: str, decks: str | None, composition: str | None, remove: str | None, add: str | None,
         natural9_pays: str | None, draws: str | None, naturals: str | None, banker_bonus: bool | None,
         allow_long: bool) -> Result:
    """Only the banker's edge under optimal play (:data:`MACAO_EDGE`).

    Parameters
    ----------
    variant, decks, composition, remove, add, natural9_pays, draws, naturals, banker_bonus : str, bool or None
        The game (:data:`GAME`).
    allow_long : bool
        Run past the workload limits.

    Returns
    -------
    MacaoEdge
        The solution less its strategies.
    """
    rules, shoe = _game_args(variant, decks, composition, remove, add, natural9_pays, draws, naturals, banker_bonus)
    _check_work(rules, allow_long)
    return MacaoEdge(_solve(rules, shoe))


def simulate(*, variant: str, decks: str | None, composition: str | None, remove: str | None, add: str | None,
             natural9_pays: str | None, draws: str | None, naturals: str | None, banker_bonus: bool | None,
             coups: str, punters: str, seed: str, allow_long: bool) -> Result:
    """Coups played with both sides' optimal strategies, beside the exact value (:data:`MACAO_SIMULATE`).

    Parameters
    ----------
    variant, decks, composition, remove, add, natural9_pays, draws, naturals, banker_bonus : str, bool or None
        The game (:data:`GAME`).
    coups, punters, seed : str
        How many coups, punters at the table, and the random seed.
    allow_long : bool
        Run past the workload limits.

    Returns
    -------
    Result
        :func:`baccara.sim.macao.simulate_macao`'s.
    """
    from ..sim.macao import simulate_macao  # lazy: the simulator, when it runs

    rules, shoe = _game_args(variant, decks, composition, remove, add, natural9_pays, draws, naturals, banker_bonus)
    n = params.integer(coups, "--coups", lo=1, hi=10**8)
    k = params.integer(punters, "--punters", lo=1, hi=8)
    try:  # the seed's range of every other command
        s = params.integer(seed, "--seed", lo=0, hi=2**63 - 1)
    except BaccaraError:
        raise BaccaraError(f"--seed must be an integer from 0 to 2^63 - 1, got {seed!r}") from None
    _check_work(rules, allow_long, coups=n, punters=k)
    sol = _solve(rules, shoe)
    return simulate_macao(sol, n, seed=s, punters=k)
