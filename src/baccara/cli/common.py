"""Shared by the ``baccara`` commands: the root app, consoles, the common options and their parsing.

Every command prints a table for people, or with ``--json`` a document whose
field names are a contract.  Bad input prints ``error: ...`` naming the
parameter and what is allowed, and exits with status 2.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Sequence
from typing import Any

import typer
from rich.console import Console

from ..commands import Command, Param
from ..commands import options as opts
from ..commands.console import err, out, progress_bar, say  # noqa: F401
from ..result import Result
from .errors import BaccaraGroup, handles_errors

app = typer.Typer(
    name="baccara",
    help="Exact mathematics of baccarat: bets, edges and effects of removal for any shoe.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    cls=BaccaraGroup,
)

def render(result: Result, json_out: bool, console: Console | None = None) -> Any:
    """Print a result, as JSON or for people, and hand its document back (for the certificate check).

    Parameters
    ----------
    result : Result
        What a command computed.
    json_out : bool
        Print :meth:`~baccara.result.Result.to_json` as JSON (else the report for people).
    console : rich.console.Console, optional
        Where the report for people goes (default: the commands' console on standard output).

    Returns
    -------
    dict or list
        The result's document.
    """
    doc = result.to_json()
    if json_out:
        print(json.dumps(doc, indent=2))
    else:
        result.show(console or out)
    return doc


#: The Python type of each kind of parameter, as Typer reads it (a parameter whose default is None may be absent).
_TYPES: dict[str, Any] = {"str": str, "int": int, "bool": bool, "list": list[str]}


def option(p: Param) -> Any:
    """The Typer option of a declared parameter (:class:`baccara.commands.Param`).

    Parameters
    ----------
    p : Param
        The parameter.

    Returns
    -------
    typer.models.OptionInfo or typer.models.ArgumentInfo
        Its option: the long flag (with its negative, if any), its other spellings, the short one, the default,
        the range and the help; or, for a positional parameter, its argument.
    """
    if p.argument:
        return typer.Argument(p.default, metavar=p.metavar, help=p.help)
    decls = [p.flag if p.flag_off is None else f"{p.flag}/{p.flag_off}", *p.aliases, *([p.short] if p.short else [])]
    return typer.Option(p.default, *decls, help=p.help, metavar=p.metavar, min=p.lo, max=p.hi)


def register(group: typer.Typer, command: Command, module: str, after: Callable[..., None] | None = None,
             before: Callable[[dict[str, Any], bool], None] | None = None, callback: bool = False,
             json_after: str | None = None) -> None:
    """Add a declared command (:class:`baccara.commands.Command`) to a Typer group, with ``--json``.

    Its options are made from its parameters; it runs the body and prints the result (a table, or with
    ``--json`` its document), then hands the result to ``after``, if given, with the parameters that only
    change what is printed (:attr:`baccara.commands.Param.shows`), which the body does not take.

    Parameters
    ----------
    group : typer.Typer
        The group (the root app, or ``baccara chemin``'s).
    command : Command
        The declaration.
    module : str
        The registering module's name (``baccara --help`` lists the commands in the order of their modules).
    after : callable, optional
        ``after(result, json_out=..., **shows)``: more output for people (``baccara edge --exact``).
    before : callable, optional
        ``before(kw, json_out)``: sets the body's arguments that the command line's own options decide (``simulate``'s
        progress bar: not by default with ``--json``), in place.
    callback : bool
        The group's own command (``baccara count``: the group's options, run when no subcommand is named) rather
        than a subcommand.
    json_after : str, optional
        The parameter after which ``--help`` lists ``--json`` (default: after them all).
    """
    shown = tuple(p.name for p in command.params if p.shows)

    def run(**kw: Any) -> Any:
        ctx = kw.pop("ctx", None)
        if ctx is not None and ctx.invoked_subcommand is not None:  # a subcommand runs: the group's own does not
            return None
        json_out = kw.pop("json_out")
        extra = {name: kw.pop(name) for name in shown}
        if before is not None:
            before(kw, json_out)
        result = command.function()(**kw)
        if result is None:  # it wrote its output itself (a dry run, a log)
            return None
        doc = render(result, json_out)
        if after is not None:
            after(result, json_out=json_out, **extra)
        return doc

    json_flag = Param("json_out", "--json", JSON.help, False, "bool")
    listed = [q for p in command.params for q in ((p, json_flag) if p.name == json_after else (p,))]
    typed(run, listed if json_after is not None else (*command.params, json_flag), command, module, context=callback)
    if callback:
        group.callback()(handles_errors(run))
    else:
        group.command(command.words[-1])(handles_errors(run))


def typed(f: Callable[..., Any], params: Sequence[Param], command: Command, module: str,
          context: bool = False) -> None:
    """Give ``f`` the signature Typer reads: a keyword-only parameter per declared one, its option as default.

    Parameters
    ----------
    f : callable
        The function Typer will call with every option by keyword.
    params : sequence of Param
        The options, in the order ``--help`` lists them.
    command : Command
        The declaration (its help and words name ``f``).
    module : str
        The registering module's name.
    context : bool
        Also take Typer's context, as ``ctx`` (a group's own command).
    """
    parameters, hints = [], {}
    if context:
        hints["ctx"] = typer.Context
        parameters.append(inspect.Parameter("ctx", inspect.Parameter.KEYWORD_ONLY, annotation=typer.Context))
    for p in params:
        hint = _TYPES[p.kind]
        hints[p.name] = hint | None if p.default is None or p.kind == "list" else hint
        parameters.append(inspect.Parameter(p.name, inspect.Parameter.KEYWORD_ONLY, default=option(p),
                                            annotation=hints[p.name]))
    f.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    f.__annotations__ = {**hints, "return": Any}
    f.__doc__, f.__name__, f.__qualname__, f.__module__ = command.help, command.words[-1], command.words[-1], module


ALLOW_LONG = option(opts.ALLOW_LONG)
JSON = typer.Option(False, "--json", help="Print JSON (exact numbers as 'num/den' strings).")
