"""baccara's commands, declared once: each command's parameters and the function that computes its result.

The command line (:mod:`baccara.cli`) and the web app (:mod:`baccara.web`) are two faces over these
declarations.  A :class:`Command` names its parameters (:class:`Param`: the option, its type, default,
help, and what the web app may give of it) and its *body*, a plain function that takes every parameter by
keyword, checks the values and returns a :class:`~baccara.result.Result` (or None when it has written its
output itself: a dry run, a log).  The command line makes its Typer options from the parameters and prints
the result; the web app makes its query parameters and forms from the same parameters and serves the
result's document.  Neither reads the other: the web app imports no command-line code.

Bad input raises :class:`~baccara.errors.BaccaraError` whose message names the option as the command line
spells it (``--decks must be ...``); the web app names the same parameter without its dashes.  This
module is light (no solver, no Typer): ``baccara --help`` and the web app's start read it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, replace
from typing import Any

__all__ = ["PROGRESS", "Command", "Param"]

#: Where a long command reports its progress instead of drawing a bar, while set (``progress(done, total,
#: unit)``; it may raise to stop the run): the web app's background jobs.
PROGRESS: ContextVar[Any] = ContextVar("baccara_progress_hook", default=None)

#: The kinds of value a parameter takes (its Python type on the command line).
KINDS = ("str", "int", "bool", "list")


@dataclass(frozen=True)
class Param:
    """One parameter of a command: its option, type, default and help, and how the web app offers it.

    Parameters
    ----------
    name : str
        The body's keyword argument (``tie_pays``).
    flag : str
        The long option (``--tie-pays``); the web app's query parameter is it without the dashes.
    help : str
        What it is and what it allows, shown by ``--help`` and beside the web form's field.
    default : object
        Its value when not given (``...``: required).
    kind : str
        ``str`` (parsed by the body, which names the option in its errors), ``int``, ``bool`` (a flag) or
        ``list`` (repeatable).
    short : str or None
        A short option (``-d``).
    file : bool
        It names a file the command reads (TOML): the web app takes the file's text instead, as
        :attr:`web_name` (``bets-toml``), and hands the body a temporary file holding it.
    web : bool
        Offered by the web app (False: files on the server, plots, the machine's resources, ``--allow-long``).
    web_max : int or None
        The largest whole number the web app accepts (work a job cannot stop midway), if tighter.
    web_choices : tuple of str or None
        The words the web app accepts, where the command line also takes a file's path.
    flag_off : str or None
        The negative flag of a boolean (``--no-progress``).
    web_as : str or None
        The web app's query parameter, where it is not the option's name (``bets-toml`` for ``--bets-file``).
    metavar : str or None
        How ``--help`` names the value (``D-RANGE``), where not the option's name in capitals.
    aliases : tuple of str
        Other spellings the command line accepts (``--sessions`` for ``--shoes``).
    shows : bool
        It only changes what the command line prints after the result (``--exact``): the body never takes
        it, and the web app (which shows every form of the result) does not offer it.
    argument : bool
        Positional on the command line (``baccara check FILE``), named there by :attr:`metavar`; the web app
        still names it by :attr:`web_name`.
    lo, hi : int or None
        The range of an ``int`` parameter, where the command line's parser enforces it (``--workers``).
    """

    name: str
    flag: str
    help: str = ""
    default: Any = None
    kind: str = "str"
    short: str | None = None
    file: bool = False
    web: bool = True
    web_max: int | None = None
    web_choices: tuple[str, ...] | None = None
    flag_off: str | None = None
    web_as: str | None = None
    metavar: str | None = None
    aliases: tuple[str, ...] = ()
    shows: bool = False
    argument: bool = False
    lo: int | None = None
    hi: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS or not self.flag.startswith("--"):
            raise ValueError(f"parameter {self.name}: kind {self.kind!r}, flag {self.flag!r}")

    @property
    def web_name(self) -> str:
        """The web app's query parameter: the option without its dashes, ``-toml`` added for a file's text."""
        if self.web_as is not None:
            return self.web_as
        return self.flag[2:] + "-toml" if self.file else self.flag[2:]

    def but(self, **changes: Any) -> Param:
        """The same parameter with some fields changed (a command's own default or help).

        Parameters
        ----------
        **changes
            Fields of :class:`Param` and their new values.

        Returns
        -------
        Param
            The changed copy.
        """
        return replace(self, **changes)


@dataclass(frozen=True)
class Command:
    """A command: its words, its help, its parameters in order, and its body.

    Parameters
    ----------
    words : tuple of str
        How it is typed after ``baccara`` (``("chemin", "solve")``).
    help : str
        Its help; the first sentence is its summary.
    params : tuple of Param
        Its parameters, in the order ``--help`` lists them.
    body : str
        ``module:function`` under :mod:`baccara.commands` (``.punto:edge``), imported when first run.
    quick : bool
        Answers in well under a second whatever its parameters: the web app runs it beside long solves.
    """

    words: tuple[str, ...]
    help: str
    params: tuple[Param, ...]
    body: str
    quick: bool = False

    @property
    def cli(self) -> str:
        """How it is typed: ``baccara chemin solve``."""
        return " ".join(("baccara", *self.words))

    def function(self) -> Callable[..., Any]:
        """The body: takes every parameter by keyword, returns a result (or None having written its output).

        Returns
        -------
        callable
            The function named by :attr:`body`.
        """
        module, name = self.body.split(":")
        return getattr(importlib.import_module(module, __name__), name)

    def web_params(self) -> tuple[Param, ...]:
        """The parameters the web app offers, in order.

        Returns
        -------
        tuple of Param
            Those with :attr:`Param.web` set (not those that only change what the command line prints).
        """
        return tuple(p for p in self.params if p.web and not p.shows)

    def defaults(self) -> dict[str, Any]:
        """The default value of every parameter the body takes, by keyword (a required one is left out).

        Returns
        -------
        dict
            Keyword -> default.
        """
        return {p.name: p.default for p in self.params if p.default is not ... and not p.shows}
