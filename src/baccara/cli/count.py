"""``baccara count``: what a count system wins on a side bet (and the perfect counter); ``count design``.

The commands are declared, checked and run in :mod:`baccara.commands.count`; here they become the Typer
group ``count`` (its own options run the count report when no subcommand is named) and its subcommand
``design``.
"""

from __future__ import annotations

import typer

from ..commands.count import COUNT, COUNT_DESIGN, SizedDesign
from .common import out, register

count_app = typer.Typer(
    help="Count analysis of a side bet: bet frequency, player's edge when betting, win per 100 hands and per shoe, SD, "
         "SCORE, risk of ruin, beside the perfect counter; 'count design' derives a count from the exact effects "
         "of removal.",
    invoke_without_command=True,
)


def _written(result: SizedDesign, json_out: bool) -> None:
    """Say where ``--out`` wrote the count (not with ``--json``: the output stays the document)."""
    if result.out is not None and not json_out:
        out.print(f"count written to {result.out}", highlight=False)


register(count_app, COUNT, __name__, callback=True)
register(count_app, COUNT_DESIGN, __name__, _written)
