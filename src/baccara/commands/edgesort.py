"""``baccara edgesort``: the exact value of telling two classes of cards apart on the first cards of a coup."""

from __future__ import annotations

from .. import params
from ..errors import BaccaraError
from ..punto.bets import builtin_bets
from ..punto.edgesort import MAX_CARDS, best_sorting, edge_sort
from ..punto.exact import applicable_bets
from ..result import Result
from . import Command, Param
from .console import progress_bar
from .options import BETS, HOUSE, SHOE, TABLEAU, build_bets, build_shoe, build_tableau

#: Most sortings a --best report lists.
MAX_TOP = 4095

EDGESORT = Command(
    ("edgesort",), "Edge sorting: each pattern's probability and every bet's exact EV, and the player's advantage.",
    (Param("sorted_ranks", "--sorted", "The ranks of one class, e.g. 6,7,8,9 (0: any of 10, J, Q, K); the other "
                                       "class is the rest."),
     Param("cards", "--cards", f"How many cards of the coup the player reads before he bets: positions 1 to N "
                               f"(1-{MAX_CARDS}; 1 and 3 are Player's, 2 and 4 Banker's).", "1"),
     Param("best", "--best", "Search every two-class sorting for the largest advantage (instead of --sorted).",
           False, "bool"),
     Param("by", "--by", "With --best: sort whole values (value: 511 sortings, the default) or ranks (rank: 4095)."),
     Param("top", "--top", "With --best: how many sortings to list (default 10)."),
     Param("only", "--only", "The bets the player chooses among, comma-separated (default: every bet priced), e.g. "
                             "banker,player,tie."),
     *SHOE, *HOUSE, BETS, TABLEAU),
    ".edgesort:edgesort")


def edgesort(*, sorted_ranks: str | None, cards: str, best: bool, by: str | None, top: str | None, only: str | None,
             decks: str | None, infinite: bool, composition: str | None, remove: str | None, add: str | None,
             commission: str, tie_pays: str, super6_pays: str, bets: str | None, tableau: str | None) -> Result:
    """One sorting's patterns and exact EVs, or the best sortings (:data:`EDGESORT`).

    Parameters
    ----------
    sorted_ranks : str or None
        The ranks of one class (``--sorted``), or None with ``best``.
    cards : str
        How many of the coup's first cards the player reads.
    best : bool
        Search every sorting instead.
    by, top : str or None
        With ``best``: sort values or ranks; how many sortings to list.
    only : str or None
        The bets the player chooses among, comma-separated.
    decks, infinite, composition, remove, add : str, bool, str, str, str or None
        The shoe (:func:`~baccara.commands.options.build_shoe`).
    commission, tie_pays, super6_pays : str
        The house's terms of the built-in bets.
    bets, tableau : str or None
        TOML files of user-defined bets and of drawing rules.

    Returns
    -------
    Result
        :func:`baccara.punto.edgesort.edge_sort`'s or :func:`~baccara.punto.edgesort.best_sorting`'s.
    """
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
            return best_sorting(shoe, k, kind, priced, rules, among, n_top,
                                progress=lambda done, total: bar.update(task, completed=done, total=total),
                                names=("--by", "--cards", "--only"))
    assert sorted_ranks is not None  # checked above
    return edge_sort(shoe, sorted_ranks, k, priced, rules, among, names=("--sorted", "--cards", "--only"))
