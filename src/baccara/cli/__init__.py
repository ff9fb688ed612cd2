"""The ``baccara`` command line: a package of thin commands that parse, call and render.

Every command prints a report for people, or with ``--json`` a document whose
field names are a contract (the user guide).  Exit status 2: bad input (``error: ...``
names the option and what it allows); 1: a certificate failed or an internal
error; 0: done.  Output to a file or a pipe is never cut.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from typing import Any

from .. import __version__

__all__ = ["app", "main"]

#: How each top-level command is registered, in the order of ``baccara --help``: a module whose import
#: registers commands, or (module, its Typer group) added as a group of the same name.
_STEPS: tuple[tuple[str, str, str | None], ...] = (
    ("punto", ".punto", None),  # edge, eor, bets, fields
    ("totals", ".totals", None),
    ("chemin", ".chemin", "chemin_app"),
    ("simulate", ".simulate", "simulate_app"),
    ("banque", ".banque", "banque_app"),
    ("count", ".count", "count_app"),
    ("macao", ".macao", "macao_app"),
    ("bertrand", ".bertrand", None),
    ("check", ".check", None),
    ("edgesort", ".edgesort", None),
    ("report", ".report", None),
    ("audit", ".audit", None),
    ("serve", ".serve", None),
)
#: The step that registers each top-level command.
_STEP_OF = {"edge": "punto", "eor": "punto", "bets": "punto", "fields": "punto", "totals": "totals", "chemin": "chemin",
            "simulate": "simulate", "banque": "banque", "count": "count", "macao": "macao", "bertrand": "bertrand",
            "check": "check", "edgesort": "edgesort", "report": "report", "audit": "audit", "serve": "serve"}
#: Each top-level command's summary in ``baccara --help`` (the first sentence of its help, which is all click
#: shows there), in the order listed, so that the list needs none of the commands' modules
#: (tests/test_startup.py checks these against the commands themselves).
_SUMMARIES: tuple[tuple[str, str], ...] = (
    ('edge', "Every bet's win / push / loss probabilities and house edge, exactly (given what is known of the coup's cards)."),
    ('eor', "Effects of removal: the exact change in a bet's house edge when one card of each rank is removed."),
    ('bets', 'List the bets: built-in, and those of a --bets file.'),
    ('fields', "The event fields a user-defined bet's 'when' can test."),
    ('totals', "Outcomes by totals: the exact probability of each final (Player total, Banker total), each hand's "
               "final total, and the coups by cards drawn."),
    ('bertrand', "Bertrand's 1888 problems (Ethier 2021): D0, D1, D1/2, W, T, E; Dormoy; Badoureau's errors; audits."),
    ('check', 'Re-check a proof artefact independently of the solvers and print the theorem it proves: exit 0 if every step holds and every demand (--kind, --decks, --range) is met, 1 if not, 2 on bad input.'),
    ('edgesort', "Edge sorting: each pattern's probability and every bet's exact EV, and the player's advantage."),
    ('report', "The math report of one bet as HTML, PDF or JSON: its pay table, exact figures, the house's result, "
               "and whether it can be beaten."),
    ('audit', "From a casino's hand log and bet log, the evidence that a player counted or edge-sorted: exact EVs, "
              "tests, verdicts."),
    ('serve', 'The local web app: every page and the JSON API (under /api) in a browser, on the same inputs as the commands.'),
    ('chemin', 'Chemin de fer as a game (Ethier and Lee 2023): Nash equilibria, the commission sweep, Table 4.'),
    ('simulate', 'Simulate real shoes (shuffle, burn, cut card): punto banco bets and counting, chemin de fer, banque.'),
    ('banque', "Baccara banque (Ethier and Lee 2015): the three-person game's solutions."),
    ('count', "Count analysis of a side bet: bet frequency, player's edge when betting, win per 100 hands and per shoe, SD, SCORE, risk of ruin, beside the perfect counter; 'count design' derives a count from the exact effects of removal."),
    ('macao', 'Macao and Victoria (the precursors of baccarat) as zero-sum games, solved exactly.'),
)
_done: set[str] = set()


def _app() -> Any:
    """The root Typer app, with ``--version`` (imported here: ``baccara --version`` needs none of it)."""
    from . import common

    if not common.app.registered_callback:
        import typer

        @common.app.callback(invoke_without_command=True)
        def _root(version: bool = typer.Option(False, "--version", help="Print the version and exit.")) -> None:
            if version:
                print(__version__)
                raise typer.Exit(0)

    return common.app


def _register(names: set[str] | None = None) -> None:
    """Register the commands of the steps ``names`` (all by default), each once, in the canonical order.

    Registering only the command being run spares its start the imports of
    the others (``baccara simulate punto`` loads no solver).
    """
    for key, module, group in _STEPS:
        if key in _done or (names is not None and key not in names):
            continue
        app = _app()
        mod = importlib.import_module(module, __name__)
        if group is not None:
            app.add_typer(getattr(mod, group), name=key)
        _done.add(key)
    # In the canonical order whatever was registered first (a command run in this process, then all).
    order = {importlib.util.resolve_name(module, __name__): i for i, (_, module, _) in enumerate(_STEPS)}
    steps = [key for key, _, _ in _STEPS]
    app = _app()
    app.registered_commands.sort(key=lambda c: order.get(getattr(c.callback, "__module__", ""), -1))
    app.registered_groups.sort(key=lambda g: steps.index(g.name) if g.name in steps else -1)


def __getattr__(name: str):
    if name == "app":  # the whole command line, every command registered
        _register()
        return _app()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _name_metavars(command) -> None:
    """Show every option's value as its name (``--decks DECKS``), not as a Python type (``<str>``)."""
    for param in command.params:
        if param.param_type_name == "option" and not param.is_flag and param.metavar is None:
            param.metavar = param.name.upper() if param.name else "VALUE"
    for sub in getattr(command, "commands", {}).values():
        _name_metavars(sub)


def _command_name(args: list[str]) -> str | None:
    """The command that ``args`` run: the first word that is not an option (the root's options take no value)."""
    for i, arg in enumerate(args):
        if arg == "--":
            return args[i + 1] if i + 1 < len(args) else None
        if not arg.startswith("-"):
            return arg
    return None


def _placeholder(name: str, summary: str) -> Any:
    """A command that only lists ``name`` and its summary in ``baccara --help`` (never run: see :func:`main`)."""
    from typer.core import TyperCommand

    def unreachable() -> None:
        raise RuntimeError(f"command {name!r} was not registered")

    return TyperCommand(name, help=summary, callback=unreachable)


def main() -> None:
    """Entry point of the ``baccara`` command."""
    args = sys.argv[1:]
    if args == ["--version"]:  # what the root's --version prints, without loading the command line
        print(__version__)
        raise SystemExit(0)
    import typer

    step = _STEP_OF.get(_command_name(args) or "")
    _register({step} if step is not None else set())  # a known command: only its own module
    command = typer.main.get_command(_app())
    if step is None:  # --help or an unknown name: every command listed by its summary, in the same order
        real = command.commands  # type: ignore[attr-defined]
        command.commands = {name: real.get(name) or _placeholder(name, summary)  # type: ignore[attr-defined]
                            for name, summary in _SUMMARIES} | real
    _name_metavars(command)
    command(prog_name="baccara")


if __name__ == "__main__":  # pragma: no cover
    main()  # exits itself (click's standalone mode)

