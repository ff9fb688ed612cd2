"""``baccara macao ...``: Macao and Victoria, the precursors of baccarat, solved exactly."""

from __future__ import annotations

import typer

from ..commands.macao import MACAO_EDGE, MACAO_SIMULATE, MACAO_SOLVE, SOURCES
from .common import register

macao_app = typer.Typer(
    help="Macao and Victoria (the precursors of baccarat) as zero-sum games, solved exactly.\n\nVariants and their "
         "sources (the full citations and the modelling choices: docs, Theory > Macao):\n\n"
         + "\n\n".join(f"{k}: {v}." for k, v in SOURCES.items()),
    no_args_is_help=True, rich_markup_mode=None)

register(macao_app, MACAO_SOLVE, __name__)
register(macao_app, MACAO_EDGE, __name__)
register(macao_app, MACAO_SIMULATE, __name__)
