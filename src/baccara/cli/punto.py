"""``baccara edge | eor | bets | fields``: punto banco's bets, exactly, for any shoe."""

from __future__ import annotations

import typer
from rich.markup import escape

from ..errors import BaccaraError, BetError
from ..punto.bets import builtin_bets, field_help
from ..punto.exact import applicable_bets
from ..punto.report import edge_report, removal_report
from .common import (
    ADD,
    BETS,
    COMMISSION,
    COMPOSITION,
    DECKS,
    INFINITE,
    JSON,
    KNOWN,
    REMOVE,
    SUPER6_PAYS,
    TABLEAU,
    TIE_PAYS,
    app,
    build_bets,
    build_known,
    build_shoe,
    build_tableau,
    out,
    render,
)
from .errors import handles_errors


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
    known: list[str] | None = KNOWN,
    tableau: str | None = TABLEAU,
    json_out: bool = JSON,
    exact: bool = typer.Option(False, "--exact", help="Also print each edge as an exact fraction."),
) -> None:
    """Every bet's win / push / loss probabilities and house edge, exactly (given what is known of the coup's cards)."""
    shoe = build_shoe(decks, infinite, composition, remove, add)
    rules = build_tableau(tableau)
    given = build_known(known)
    all_bets, house = build_bets(commission, tie_pays, super6_pays, bets)
    builtin = builtin_bets()
    unpriced_user = [n for n, b in all_bets.items() if n not in builtin and n not in applicable_bets(shoe, {n: b})]
    if unpriced_user:
        needs = ", ".join(f"{n} needs a shoe known by {all_bets[n].resolution}" for n in unpriced_user)
        raise BaccaraError(f"--bets: {needs}; this shoe is known only by {shoe.resolution}")
    result = edge_report(shoe, all_bets, rules, given, house)
    render(result, json_out)
    if exact and not json_out:
        for line in result.exact_lines():
            out.print(line, highlight=False, soft_wrap=True)


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
    try:
        result = removal_report(shoe, all_bets[bet])
    except BetError as e:
        raise BaccaraError(f"--bet {bet}: {e}") from None
    render(result, json_out)


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


