"""The ``baccara`` command line: a package of thin commands that parse, call and render.

Every command prints a report for people, or with ``--json`` a document whose
field names are a contract (README).  Exit status 2: bad input (``error: ...``
names the option and what it allows); 1: a certificate failed or an internal
error; 0: done.  Output to a file or a pipe is never cut.
"""

from __future__ import annotations

import typer

from .. import __version__
from ..sim.cli import simulate_app
from . import punto  # noqa: F401  (registers edge, eor, bets, fields)
from .banque import banque_app
from .chemin import chemin_app
from .common import app
from .count import count_app
from .macao import macao_app

app.add_typer(chemin_app, name="chemin")
app.add_typer(simulate_app, name="simulate")
app.add_typer(banque_app, name="banque")
app.add_typer(count_app, name="count")
app.add_typer(macao_app, name="macao")
from . import bertrand, check, edgesort  # noqa: E402, F401  (register bertrand, check, edgesort)

__all__ = ["app", "main"]


@app.callback(invoke_without_command=True)
def _root(version: bool = typer.Option(False, "--version", help="Print the version and exit.")) -> None:
    if version:
        print(__version__)
        raise typer.Exit(0)


def _name_metavars(command) -> None:
    """Show every option's value as its name (``--decks DECKS``), not as a Python type (``<str>``)."""
    for param in command.params:
        if param.param_type_name == "option" and not param.is_flag and param.metavar is None:
            param.metavar = param.name.upper() if param.name else "VALUE"
    for sub in getattr(command, "commands", {}).values():
        _name_metavars(sub)


def main() -> None:
    """Entry point of the ``baccara`` command."""
    command = typer.main.get_command(app)
    _name_metavars(command)
    command(prog_name="baccara")


if __name__ == "__main__":  # pragma: no cover
    main()  # exits itself (click's standalone mode)

