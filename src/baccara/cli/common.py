"""Shared by the ``baccara`` commands: the root app, consoles, the common options and their parsing.

Every command prints a table for people, or with ``--json`` a document whose
field names are a contract.  Bad input prints ``error: ...`` naming the
parameter and what is allowed, and exits with status 2.
"""

from __future__ import annotations

import json
from contextvars import ContextVar
from typing import Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from .. import params
from ..cards import parse_ranks, rank_index
from ..errors import BaccaraError
from ..punto.bets import (
    DEFAULT_COMMISSION,
    DEFAULT_SUPER6_PAYS,
    DEFAULT_TIE_PAYS,
    Bet,
    as_payout,
    house_bets,
    load_bets_toml,
)
from ..punto.known import Known
from ..result import Result
from ..rules import PUNTO_BANCO, Tableau, load_tableau_toml
from ..shoe import Shoe
from .errors import BaccaraGroup, err, make_console

app = typer.Typer(
    name="baccara",
    help="Exact mathematics of baccarat: bets, edges and effects of removal for any shoe.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    cls=BaccaraGroup,
)
out = make_console()

#: Where :func:`render` hands results instead of printing them, while set: the web app
#: (:mod:`baccara.web`) runs the very commands of the command line and serves their documents.
CAPTURE: ContextVar[list[Result] | None] = ContextVar("baccara_render_capture", default=None)
#: Where a simulation reports its progress instead of drawing a bar, while set (``progress(done, total,
#: hands)``; it may raise to stop the run): the web app's background jobs.
PROGRESS: ContextVar[Any] = ContextVar("baccara_progress_hook", default=None)


def say(message: str) -> None:
    err.print(message, highlight=False)


def render(result: Result, json_out: bool, console: Console | None = None) -> Any:
    """Print a result, as JSON or for people, and hand its document back (for the certificate check).

    Parameters
    ----------
    result : Result
        What a command computed.
    json_out : bool
        Print :meth:`~baccara.result.Result.to_json` as JSON (else the report for people).
    console : rich.console.Console, optional
        Where the report for people goes (default: the commands' console on standard output).

    Returns
    -------
    dict or list
        The result's document.
    """
    doc = result.to_json()
    sink = CAPTURE.get()
    if sink is not None:  # a caller in this context (the web app) takes the result: nothing is printed
        sink.append(result)
        return doc
    if json_out:
        print(json.dumps(doc, indent=2))
    else:
        result.show(console or out)
    return doc


def progress_bar() -> Progress:
    """The progress bar of every long command: on stderr, gone when done; elapsed time, then the time to go."""
    return Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                    TextColumn("elapsed"), TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                    transient=True, console=err)


ALLOW_LONG = typer.Option(False, "--allow-long",
                          help="Run even when the estimated time exceeds an hour of one core (refused otherwise).")
SCHEDULER = typer.Option(None, "--scheduler", help="Run on a Dask distributed cluster: tcp://HOST:PORT (checked "
                                                   "within 5 s before the run).")
PROOF_BACKEND = typer.Option("processes", "--backend", help="Where the workers run: processes (here) or dask (a "
                                                            "local cluster of --workers, unless --scheduler is given).")



def parse_composition(text: str) -> Shoe:
    """A shoe from ``--composition``: ``A=32,10=31,...`` by rank, 13 counts A..K, or 10 counts by value 0..9."""
    try:
        return _composition(text)
    except BaccaraError as e:
        message = str(e)
        raise BaccaraError(message if message.startswith("--composition") else f"--composition: {message}") from None


def _composition(text: str) -> Shoe:
    parts = [p for p in text.replace(" ", "").split(",") if p]
    if not parts:
        raise BaccaraError("--composition is empty: give RANK=COUNT pairs, 13 counts (A..K) or 10 counts (values 0..9)")
    if all("=" in p for p in parts):
        counts: dict[str | int, int] = {}
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
    try:
        return parse_ranks(text)
    except BaccaraError as e:
        raise BaccaraError(f"{option}: {e}") from None


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
    for option, ranks, change in (("--remove", remove, Shoe.remove), ("--add", add, Shoe.add)):
        for r in _parse_ranks(ranks, option):
            try:
                shoe = change(shoe, r)
            except BaccaraError as e:
                raise BaccaraError(f"{option}: {e}") from None
    return shoe


def build_tableau(path: str | None) -> Tableau:
    """The drawing rules of ``--tableau FILE`` (default: the punto banco tableau)."""
    if path is None:
        return PUNTO_BANCO
    try:
        return load_tableau_toml(path)
    except BaccaraError as e:
        raise BaccaraError(f"--tableau: {e}") from None


def build_known(known: list[str] | None) -> Known | None:
    """What ``--known`` says of the coup's cards (repeatable; ``;`` separates conditions in one)."""
    if not known:
        return None
    return Known.coerce(Known.parse(known, "--known"))


def build_bets(commission: str, tie_pays: str, super6_pays: str, bets_file: str | None) -> tuple[dict[str, Bet], dict]:
    """Built-in bets with the house parameters, plus any user-defined bets."""
    house = {
        "commission": params.commission(commission, "--commission"),
        "tie_pays": as_payout(tie_pays, "--tie-pays: tie pays", positive=True),
        "super6_pays": as_payout(super6_pays, "--super6-pays: super6 pays", positive=True),
    }
    bets = house_bets(**house)
    if bets_file is not None:
        try:
            user = load_bets_toml(bets_file)
        except BaccaraError as e:
            raise BaccaraError(f"--bets: {e}") from None
        for name, bet in user.items():
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
TABLEAU = typer.Option(None, "--tableau", help="TOML file of the drawing rules (default: the punto banco tableau); "
                                               "see examples/tableaux/.")
KNOWN = typer.Option(None, "--known", help="What is known of the coup's cards: POSITION=RANK or 'POSITION in "
                                           "RANK,RANK,...'; positions 1-4 are Player, Banker, Player, Banker, 5 and 6 "
                                           "the fifth and sixth cards out of the shoe; ranks A, 2-9, 10, J, Q, K, or 0 "
                                           "for any of 10, J, Q, K.  Repeat it, or separate conditions by ';'.")


