"""Run a ``baccara`` command in-process from a web request: the same parsers, the same document.

A request's query parameters are the command's options without their dashes (``remove=9,9`` for
``--remove 9,9``; ``tie-pays`` or ``tie_pays``); the command's own code parses them, so that bad
input fails with the command line's message, naming the option.  The command's result is taken
where it would be printed (:data:`baccara.cli.common.CAPTURE`), so the document served is the one
``--json`` prints.  Options that name files on the server, draw plots or lift the workload limit
(``--allow-long``) are not offered: work past the limit is refused, and the message says to run the
command line for it.  An option that names a file (``--bets``, ``--tableau``, ``--count``) is given as the
file's text instead (``bets-toml``, ``tableau-toml``, ``count-toml``), written to a temporary file for
the run and removed after it.  Every value is bounded in length before anything reads it
(:func:`check_lengths`), and an empty value is an option not given, as an empty form field is.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import json
import os
import re
import tempfile
import types
import typing
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import typer

from ..cli.common import CAPTURE
from ..cli.errors import failed_certificates
from ..errors import BaccaraError, CertificateError, NotProven

#: Options no web request may set: files on the server (unless a command takes their text, see
#: :attr:`Command.files`), plots, ``--json`` (always), ``--allow-long``, the machine's resources.
NEVER = frozenset({"json_out", "allow_long", "plot", "tableau", "exact", "bets_file", "count_file", "out_file",
                   "output", "ctx", "workers", "scheduler", "backend", "count", "out_path", "progress", "dry_run"})

#: The longest value of a parameter (characters): a shoe's coups, a composition, a list of ranks fit well.
MAX_VALUE = 4096
#: The longest text of a file given as text (``bets-toml``, ``tableau-toml``, ``count-toml``): a few kB in use.
MAX_TEXT = 65536
#: The longest query string or form body (bytes: a file's text percent-encoded fits), and the most parameters.
MAX_QUERY, MAX_PARAMETERS = 4 * MAX_TEXT, 256

#: ``--option`` in a message (linear: each ``--`` is looked at once, and option names are short).
_FLAG = re.compile(r"(?<![\w-])--([a-z][a-z0-9]{0,40}(?:-[a-z0-9]{1,40}){0,6})")
#: What the command line says to lift the workload limit, and what the web says instead.
_ALLOW_LONG = ("pass --allow-long to run it anyway", "run it on your own machine with the command line's "
               "--allow-long (the web app does not lift the limit)")


class WebError(Exception):
    """A request the command refused: the HTTP status and the JSON body ``{"error", "parameter"}``.

    Parameters
    ----------
    message : str
        The command line's message (naming the option and what it allows).
    parameter : str or None
        The query parameter it names (the first option in the message), if any.
    status : int
        The HTTP status: 422 for bad input, 500 for a failed certificate (a bug).
    """

    def __init__(self, message: str, parameter: str | None = None, status: int = 422) -> None:
        super().__init__(message)
        self.message = message
        self.parameter = parameter
        self.status = status

    def body(self) -> dict:
        """The JSON body of the error response.

        Returns
        -------
        dict
            ``{"error": message, "parameter": name or None}``.
        """
        return {"error": self.message, "parameter": self.parameter}


def limit_of(name: str) -> int:
    """The longest value parameter ``name`` may have: :data:`MAX_TEXT` for a file's text, else :data:`MAX_VALUE`.

    Parameters
    ----------
    name : str
        The parameter.

    Returns
    -------
    int
        Its limit, in characters.
    """
    return MAX_TEXT if name.endswith("-toml") or name.endswith("_toml") else MAX_VALUE


def check_lengths(items: Iterable[tuple[str, str]]) -> None:
    """Refuse a parameter longer than its limit (:func:`limit_of`), or too many parameters, before anything reads them.

    Parameters
    ----------
    items : iterable of (str, str)
        The request's parameters.

    Raises
    ------
    WebError
        422 naming the parameter, its length and the limit.
    """
    for n, (key, value) in enumerate(items, 1):
        if n > MAX_PARAMETERS:
            raise WebError(f"more than {MAX_PARAMETERS} parameters: give fewer", None, 422)
        if len(key) > 64:
            raise WebError(f"a parameter's name is {len(key)} characters long: names are at most 64", None, 422)
        limit = limit_of(key)
        if len(value) > limit:
            raise WebError(f"--{key} is {len(value)} characters long: at most {limit}", key, 422)


@dataclass(frozen=True)
class Text:
    """The text of a file an option names, given in a request; :func:`run` writes it to a temporary file."""

    param: str  # the query parameter (bets-toml)
    text: str


def parameter_of(message: str) -> str | None:
    """The query parameter a command-line message names: its first ``--option``, without the dashes.

    Parameters
    ----------
    message : str
        The message.

    Returns
    -------
    str or None
        ``decks`` for ``--decks must be ...``; None when it names no option.
    """
    m = _FLAG.search(message)
    return m.group(1) if m else None


@dataclass(frozen=True)
class Option:
    """One option of a command as a query parameter."""

    name: str  # the query parameter: the long option without its dashes (tie-pays)
    arg: str  # the function's argument (tie_pays)
    kind: str  # "str", "bool", "int" or "list"
    default: Any
    help: str


@dataclass(frozen=True)
class Command:
    """A command of the command line that the API runs.

    Parameters
    ----------
    module : str
        Its module under :mod:`baccara.cli` (``.punto``).
    function : str
        Its function there (``edge``).
    cli : str
        How it is typed (``baccara edge``), for messages.
    fixed : dict
        Arguments the web sets itself (besides ``json_out=True``).
    files : tuple of (str, str, str)
        Options that name a file on the command line, taken here as the file's text: (the query
        parameter, the function's argument, the option): ``("count-toml", "count_file", "--count")``.
        The text is written to a temporary file for the run (removed after it), whose path the command gets.
    choices : dict
        Options whose value the web restricts to words (the function's argument -> the words): an option
        that takes a word or a file's path on the command line (``--banker equilibrium|tableau|FILE``).
    maximum : dict
        Options the web bounds more tightly than the command line (the function's argument -> the largest
        whole number): work the command does not estimate and a job cannot stop midway.
    quick : bool
        Answers in well under a second whatever its options (one shoe's exact bets): it runs in the
        engine's lane of quick computations, never behind a long solve.
    """

    module: str
    function: str
    cli: str
    fixed: dict = field(default_factory=dict)
    files: tuple[tuple[str, str, str], ...] = ()
    choices: dict[str, tuple[str, ...]] = field(default_factory=dict)
    quick: bool = False
    maximum: dict[str, int] = field(default_factory=dict)

    def target(self) -> Callable:
        """The command's function without its error handler (it raises :class:`BaccaraError`)."""
        mod = importlib.import_module(self.module, "baccara.cli")
        f = getattr(mod, self.function)
        return getattr(f, "__wrapped__", f)

    def options(self) -> list[Option]:
        """The options a request may give, in the command's order.

        Returns
        -------
        list of Option
            Every option except those of :data:`NEVER` and :attr:`fixed`.
        """
        f = self.target()
        hints = typing.get_type_hints(f)
        found = []
        for p in inspect.signature(f).parameters.values():
            if p.name in NEVER or p.name in self.fixed or \
                    any(arg == p.name for _, arg, _ in self.files):
                continue
            info = p.default
            decls = [d for d in getattr(info, "param_decls", ()) or () if d.startswith("--")]
            long = decls[0].split("/")[0] if decls else "--" + p.name.replace("_", "-")
            found.append(Option(long[2:], p.name, _kind(hints.get(p.name)), getattr(info, "default", info),
                                getattr(info, "help", "") or ""))
        return found


def _kind(hint: Any) -> str:
    args = [a for a in typing.get_args(hint) if a is not type(None)] if isinstance(hint, types.UnionType) or \
        typing.get_origin(hint) is typing.Union else [hint]
    base = args[0] if args else hint
    if base is bool:
        return "bool"
    if base is int:
        return "int"
    if typing.get_origin(base) is list:
        return "list"
    return "str"


_TRUE, _FALSE = {"true", "1", "yes", "on"}, {"false", "0", "no", "off"}


def arguments(command: Command, query: Iterable[tuple[str, str]]) -> dict[str, Any]:
    """The command's arguments from a request's query parameters.

    Parameters
    ----------
    command : Command
        The command.
    query : iterable of (str, str)
        The query parameters in order (a list option may be repeated).

    Returns
    -------
    dict
        Every argument of the command's function.

    Raises
    ------
    WebError
        An unknown parameter, a flag that is not true or false, a number that is not whole.

    Notes
    -----
    An empty value (``top=``, an empty form field) is the option not given.  A file's text is
    given as a :class:`Text`, which :func:`run` writes to a file: nothing is written here.
    """
    options = command.options()
    by_name = {o.name: o for o in options} | {o.name.replace("-", "_"): o for o in options}
    texts = {param: arg for param, arg, _ in command.files}
    given: dict[str, list[str]] = {}
    kw: dict[str, Any] = {"json_out": True, **command.fixed}
    for key, value in query:
        if key in texts or key.replace("_", "-") in texts:
            param = key if key in texts else key.replace("_", "-")
            if texts[param] in kw:
                raise WebError(f"--{param} is given 2 times: give it once", param)
            if value.strip():
                kw[texts[param]] = Text(param, value.replace("\r\n", "\n"))
            continue
        option = by_name.get(key)
        if option is None:
            names = ", ".join([*(o.name for o in options), *texts])
            raise WebError(f"{command.cli} has no option --{key} here (the API takes: {names})", key, 400)
        if value.strip():  # an empty field is an option not given
            given.setdefault(option.arg, []).append(value)
    for o in options:
        values = given.get(o.arg)
        if values is None:
            if o.default is ...:
                raise WebError(f"--{o.name} is missing: {o.help}", o.name)
            kw[o.arg] = o.default
            continue
        if o.kind != "list" and len(values) > 1:
            raise WebError(f"--{o.name} is given {len(values)} times: give it once", o.name)
        v = values[-1]
        if o.kind == "bool":
            if v.strip().lower() not in _TRUE | _FALSE:
                raise WebError(f"--{o.name} is a flag: give true or false, got {v!r}", o.name)
            kw[o.arg] = v.strip().lower() in _TRUE
        elif o.kind == "int":
            try:
                kw[o.arg] = int(v)
            except ValueError:
                raise WebError(f"--{o.name} must be a whole number, got {v!r}", o.name) from None
        elif o.kind == "list":
            kw[o.arg] = values
        else:
            kw[o.arg] = v
        most = command.maximum.get(o.arg)
        if most is not None and v.strip().isdigit() and int(v.strip()) > most:
            raise WebError(f"--{o.name} here is at most {most:,} (the web app's limit; run {command.cli} on your "
                           "own machine for more)", o.name)
        words = command.choices.get(o.arg)
        if words is not None and v.strip().lower() not in words:
            raise WebError(f"--{o.name} here is one of {', '.join(words)}, got {v!r}", o.name)
    signature = inspect.signature(command.target()).parameters
    for name, p in signature.items():  # what the web never sets: the command's own default
        if name not in kw:
            kw[name] = getattr(p.default, "default", p.default)
    return kw


def run(command: Command, query: Iterable[tuple[str, str]], keep: list | None = None) -> Any:
    """Run the command on a request's parameters and return its ``--json`` document.

    Parameters
    ----------
    command : Command
        The command.
    query : iterable of (str, str)
        The request's query parameters.
    keep : list, optional
        Where to put the command's result itself (:class:`baccara.result.Result`), besides its document:
        a math report is also a page.

    Returns
    -------
    dict or list
        The document ``baccara ... --json`` prints for the same options.

    Raises
    ------
    WebError
        Bad input (422, or 400 for an unknown parameter), in the command line's words; a result
        whose certificate fails or a case not proven (500, nothing claimed).
    """
    kw = arguments(command, query)
    written: dict[str, str] = {}  # path -> the parameter whose text it holds
    sink: list = []
    token = CAPTURE.set(sink)
    try:
        for arg, value in list(kw.items()):
            if isinstance(value, Text):
                fd, path = tempfile.mkstemp(prefix="baccara-web-", suffix=".toml")
                written[path] = value.param
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    f.write(value.text)
                kw[arg] = path
        command.target()(**kw)
    except NotProven as e:
        raise WebError(f"not proven: {e}", None, 500) from None
    except CertificateError as e:
        raise WebError(f"the certificate fails: {e}", None, 500) from None
    except BaccaraError as e:
        message = getattr(e, "cli_message", str(e))
        for path, param in written.items():  # the file is the text the request gave: say so
            for name in (path, os.path.basename(path)):  # some messages name the file only
                message = message.replace(repr(name), f"given as {param}").replace(name, f"given as {param}")
        for param, _, option in command.files:
            message = message.replace(option + ":", f"--{param}:").replace(option + " ", f"--{param} ")
        message = message.replace(*_ALLOW_LONG)
        raise WebError(message, parameter_of(message)) from None
    except typer.Exit:  # the command printed why on stderr (a solver that ran out of memory)
        raise WebError(f"{command.cli} could not compute this here: ask for less", None, 422) from None
    finally:
        CAPTURE.reset(token)
        for path in written:
            with contextlib.suppress(OSError):
                os.unlink(path)
    if not sink:
        raise WebError(f"{command.cli} gave no result", None, 500)
    doc = sink[-1].to_json()
    if written:  # a document that quotes its command (a report) names the text given, not our file
        text = json.dumps(doc)
        for path, param in written.items():
            text = text.replace(json.dumps(path)[1:-1], f"({param})")
        doc = json.loads(text)
    if keep is not None:
        keep.append(sink[-1])
    bad = list(failed_certificates(doc))
    if bad:
        raise WebError(f"the certificate fails ({', '.join(bad[:5])}): the result is not proven", None, 500)
    return doc


#: ``--bets FILE`` of ``baccara edge``, ``eor`` and ``edgesort`` given as the file's text.
BETS_TOML = ("bets-toml", "bets", "--bets")
#: ``--tableau FILE`` given as the file's text (a drawing table).
TABLEAU_TOML = ("tableau-toml", "tableau", "--tableau")

#: The commands the API runs, by path under /api.
COMMANDS: dict[str, Command] = {
    "edge": Command(".punto", "edge", "baccara edge", files=(BETS_TOML, TABLEAU_TOML), quick=True),
    "eor": Command(".punto", "eor", "baccara eor", files=(BETS_TOML,), quick=True),
    "totals": Command(".totals", "totals", "baccara totals", files=(TABLEAU_TOML,), quick=True),
    "edgesort": Command(".edgesort", "edgesort", "baccara edgesort", files=(BETS_TOML, TABLEAU_TOML)),
    "chemin/solve": Command(".chemin", "chemin_solve", "baccara chemin solve"),
    "banque/solve": Command(".banque", "banque_solve", "baccara banque solve"),
    "macao/solve": Command(".macao", "macao_solve", "baccara macao solve"),
    "bertrand": Command(".bertrand", "bertrand", "baccara bertrand"),
}

#: What ``baccara count`` (a group's callback) is given for its context: no subcommand invoked.
NO_SUBCOMMAND = types.SimpleNamespace(invoked_subcommand=None)

#: The commands run as background jobs (:mod:`baccara.web.jobs`), by path under /api/jobs.
JOB_COMMANDS: dict[str, Command] = {
    "simulate/punto": Command(".simulate", "punto", "baccara simulate punto",
                              files=(("bets-toml", "bets_file", "--bets-file"), TABLEAU_TOML,
                                     ("count-toml", "count", "--count"))),
    "simulate/chemin": Command(".simulate", "chemin", "baccara simulate chemin",
                               choices={"banker": ("equilibrium", "tableau")}),
    "simulate/banque": Command(".simulate", "banque", "baccara simulate banque"),
    "banque/sweep": Command(".banque", "banque_sweep_cmd", "baccara banque sweep"),
    "count": Command(".count", "count", "baccara count", {"ctx": NO_SUBCOMMAND},
                     files=(("count-toml", "count_file", "--count"), ("bets-toml", "bets_file", "--bets-file"))),
    "count/design": Command(".count", "design", "baccara count design",
                            files=(("bets-toml", "bets_file", "--bets-file"),),
                            maximum={"budget": 300, "shoes": 10**7}),  # no progress: a job that cannot be stopped
    "report": Command(".report", "report", "baccara report", files=(BETS_TOML, TABLEAU_TOML),
                      maximum={"decks": 20, "design_shoes": 10**6, "count_shoes": 10**6, "perfect_shoes": 10**5,
                               "check_hands": 10**9}),
}
