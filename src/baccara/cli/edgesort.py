"""``baccara edgesort``: the exact value of telling two classes of cards apart on the first cards of a coup."""

from __future__ import annotations

import typer

from .. import params
from ..errors import BaccaraError
from ..punto.bets import builtin_bets
from ..punto.edgesort import MAX_CARDS, best_sorting, edge_sort
from ..punto.exact import applicable_bets
from .common import (
    ADD,
    BETS,
    COMMISSION,
    COMPOSITION,
    DECKS,
    INFINITE,
    JSON,
    REMOVE,
    SUPER6_PAYS,
    TABLEAU,
    TIE_PAYS,
    app,
    build_bets,
    build_shoe,
    build_tableau,
    progress_bar,
    render,
)
from .errors import handles_errors

#: Most sortings a --best report lists.
MAX_TOP = 4095


@app.command("edgesort")
@handles_errors
def edgesort(
    sorted_ranks: str | None = typer.Option(None, "--sorted", help="The ranks of one class, e.g. 6,7,8,9 (0: any of "
                                                                   "10, J, Q, K); the other class is the rest."),
    cards: str = typer.Option("1", "--cards", help=f"How many cards of the coup the player reads before he bets: "
                                                   f"positions 1 to N (1-{MAX_CARDS}; 1 and 3 are Player's, 2 and 4 "
                                                   "Banker's)."),
    best: bool = typer.Option(False, "--best", help="Search every two-class sorting for the largest advantage "
                                                    "(instead of --sorted)."),
    by: str | None = typer.Option(None, "--by", help="With --best: sort whole values (value: 511 sortings, the "
                                                     "default) or ranks (rank: 4095)."),
    top: str | None = typer.Option(None, "--top", help="With --best: how many sortings to list (default 10)."),
    only: str | None = typer.Option(None, "--only", help="The bets the player chooses among, comma-separated (default: "
                                                         "every bet priced), e.g. banker,player,tie."),
    decks: str | None = DECKS,
    infinite: bool = INFINITE,
    composition: str | None = COMPOSITION,
    remove: str | None = REMOVE,
    add: str | None = ADD,
    commission: str = COMMISSION,
    tie_pays: str = TIE_PAYS,
    super6_pays: str = SUPER6_PAYS,
    bets: str | None = BETS,
    tableau: str | None = TABLEAU,
    json_out: bool = JSON,
) -> dict:
    """Edge sorting: each pattern's probability and every bet's exact EV, and the player's advantage."""
    if best and sorted_ranks is not None:
        raise BaccaraError("choose --sorted RANKS (one sorting) or --best (search them all), not both")
    if not best and sorted_ranks is None:
        raise BaccaraError("--sorted is missing: give the ranks of one class (e.g. --sorted 6,7,8,9), or --best")
    if not best and (by is not None or top is not None):
        raise BaccaraError("--by and --top go with --best")
    k = params.integer(cards, "--cards", lo=1, hi=MAX_CARDS)
    shoe = build_shoe(decks, infinite, composition, remove, add)
    rules = build_tableau(tableau)
    all_bets, _ = build_bets(commission, tie_pays, super6_pays, bets)
    priced = applicable_bets(shoe, all_bets)
    unpriced_user = [n for n in all_bets if n not in priced and n not in builtin_bets()]
    if unpriced_user:
        needs = ", ".join(f"{n} needs a shoe known by {all_bets[n].resolution}" for n in unpriced_user)
        raise BaccaraError(f"--bets: {needs}; this shoe is known only by {shoe.resolution}")
    among = None if only is None else [n for n in only.replace(" ", "").split(",") if n]
    if best:
        n_top = params.integer("10" if top is None else top, "--top", lo=1, hi=MAX_TOP)
        kind = params.choice("value" if by is None else by, "--by", ("value", "rank"), case="lower")
        with progress_bar() as bar:
            task = bar.add_task("sortings searched", total=None)
            result = best_sorting(shoe, k, kind, priced, rules, among, n_top,
                                  progress=lambda done, total: bar.update(task, completed=done, total=total),
                                  names=("--by", "--cards", "--only"))
        return render(result, json_out)
    assert sorted_ranks is not None  # checked above
    return render(edge_sort(shoe, sorted_ranks, k, priced, rules, among, names=("--sorted", "--cards", "--only")),
                  json_out)
