"""The ``baccara`` command line: a package of thin commands that parse, call and render.

Every command prints a report for people, or with ``--json`` a document whose
field names are a contract (README).  Exit status 2: bad input (``error: ...``
names the option and what it allows); 1: a certificate failed or an internal
error; 0: done.  Output to a file or a pipe is never cut.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys

import typer

from .. import __version__
from . import common as _common

__all__ = ["app", "main"]

#: How each top-level command is registered, in the order of ``baccara --help``: a module whose import
#: registers commands, or (module, its Typer group) added as a group of the same name.
_STEPS: tuple[tuple[str, str, str | None], ...] = (
    ("punto", ".punto", None),  # edge, eor, bets, fields
    ("chemin", ".chemin", "chemin_app"),
    ("simulate", ".simulate", "simulate_app"),
    ("banque", ".banque", "banque_app"),
    ("count", ".count", "count_app"),
    ("macao", ".macao", "macao_app"),
    ("bertrand", ".bertrand", None),
    ("check", ".check", None),
    ("edgesort", ".edgesort", None),
)
#: The step that registers each top-level command.
_STEP_OF = {"edge": "punto", "eor": "punto", "bets": "punto", "fields": "punto", "chemin": "chemin",
            "simulate": "simulate", "banque": "banque", "count": "count", "macao": "macao", "bertrand": "bertrand",
            "check": "check", "edgesort": "edgesort"}
_done: set[str] = set()


def _register(names: set[str] | None = None) -> None:
    """Register the commands of the steps ``names`` (all by default), each once, in the canonical order.

    Registering only the command being run spares its start the imports of
    the others (``baccara simulate punto`` loads no solver).
    """
    for key, module, group in _STEPS:
        if key in _done or (names is not None and key not in names):
            continue
        mod = importlib.import_module(module, __name__)
        if group is not None:
            _common.app.add_typer(getattr(mod, group), name=key)
        _done.add(key)
    # In the canonical order whatever was registered first (a command run in this process, then all).
    order = {importlib.util.resolve_name(module, __name__): i for i, (_, module, _) in enumerate(_STEPS)}
    steps = [key for key, _, _ in _STEPS]
    _common.app.registered_commands.sort(key=lambda c: order.get(getattr(c.callback, "__module__", ""), -1))
    _common.app.registered_groups.sort(key=lambda g: steps.index(g.name) if g.name in steps else -1)


def __getattr__(name: str):
    if name == "app":  # the whole command line, every command registered
        _register()
        return _common.app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@_common.app.callback(invoke_without_command=True)
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
    step = _STEP_OF.get(sys.argv[1]) if len(sys.argv) > 1 else None
    _register({step} if step is not None else None)  # a known command: only its own; else (--help...) all
    command = typer.main.get_command(_common.app)
    _name_metavars(command)
    command(prog_name="baccara")


if __name__ == "__main__":  # pragma: no cover
    main()  # exits itself (click's standalone mode)

