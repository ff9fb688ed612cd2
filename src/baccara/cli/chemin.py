"""``baccara chemin ...``: chemin de fer as a game (Ethier and Gamez 2013; Ethier and Lee 2023)."""

from __future__ import annotations

import typer

from .. import params
from ..commands.chemin import (
    CHEMIN_PROVE,
    CHEMIN_SOLVE,
    CHEMIN_SWEEP,
    CHEMIN_TABLE,
    CHEMIN_TABLE1,
    CHEMIN_TABLE4,
    CHEMIN_TABLE5,
    CHEMIN_TABLE7,
    DECKS,
    MODEL,
    model_and_decks,
    unproved,
)
from ..commands.options import ADD, COMPOSITION, REMOVE
from ..errors import BaccaraError
from .common import option, out, register
from .errors import handles_errors

# ---------------------------------------------------------------- chemin de fer
chemin_app = typer.Typer(help="Chemin de fer as a game (Ethier and Lee 2023): Nash equilibria, the commission sweep, Table 4.",
                         no_args_is_help=True, rich_markup_mode=None)

register(chemin_app, CHEMIN_SOLVE, __name__)
register(chemin_app, CHEMIN_SWEEP, __name__)
register(chemin_app, CHEMIN_PROVE, __name__, unproved)  # several d: exit 1 after the table when any proof fails
register(chemin_app, CHEMIN_TABLE4, __name__)
register(chemin_app, CHEMIN_TABLE7, __name__)


@chemin_app.command("plot")
@handles_errors
def chemin_plot(model: str = option(MODEL), decks: str | None = option(DECKS),
                composition: str | None = option(COMPOSITION), remove: str | None = option(REMOVE),
                add: str | None = option(ADD),
                output: str = typer.Option("curves.png", "--out", "-o", metavar="FILE",
                                           help="Image file to write (.png, .pdf, .svg).")) -> None:
    """Plot the best-response-discontinuity curves in the (alpha, p) plane (Ethier and Lee (2023), Figure 1)."""
    from ..chemin.model import chemin_game
    from ..chemin.solution import sweep_chemin

    m, d = model_and_decks(model, decks, composition, remove, add, model3=False)
    params.output_file(output, "--out", params.IMAGE_SUFFIXES)
    from ..plots import plot_curves

    try:
        path = plot_curves(sweep_chemin(chemin_game(m, d)), output)
    except BaccaraError:
        raise
    except (OSError, ValueError) as e:
        raise BaccaraError(f"--out: cannot write {output!r}: {e}") from None
    out.print(f"wrote {path}", highlight=False)


register(chemin_app, CHEMIN_TABLE1, __name__)
register(chemin_app, CHEMIN_TABLE5, __name__)
register(chemin_app, CHEMIN_TABLE, __name__)
