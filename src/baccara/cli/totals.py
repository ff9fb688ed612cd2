"""``baccara totals``: the exact probability of every final (Player total, Banker total) of a coup."""

from __future__ import annotations

import typer

from ..punto.totals import totals_distribution
from .common import (
    ADD,
    COMPOSITION,
    DECKS,
    INFINITE,
    JSON,
    REMOVE,
    TABLEAU,
    app,
    build_shoe,
    build_tableau,
    out,
    render,
)
from .errors import handles_errors


@app.command()
@handles_errors
def totals(
    decks: str | None = DECKS,
    infinite: bool = INFINITE,
    composition: str | None = COMPOSITION,
    remove: str | None = REMOVE,
    add: str | None = ADD,
    tableau: str | None = TABLEAU,
    json_out: bool = JSON,
    exact: bool = typer.Option(False, "--exact", help="Also print every probability as an exact fraction."),
) -> None:
    """Outcomes by totals: the exact probability of each final (Player total, Banker total), each hand's final total, and the coups by cards drawn."""
    result = totals_distribution(build_shoe(decks, infinite, composition, remove, add), build_tableau(tableau))
    render(result, json_out)
    if exact and not json_out:
        for line in result.exact_lines():
            out.print(line, highlight=False, soft_wrap=True)
