"""Run a declared command (:mod:`baccara.commands`) from a web request: the same parameters, the same document.

A request's query parameters are the command's parameters (:class:`~baccara.commands.Param`) by their web
names, the options without their dashes (``remove=9,9`` for ``--remove 9,9``; ``tie-pays`` or
``tie_pays``); the command's body parses them, so that bad input fails with the command line's message,
naming the parameter.  The body's result is served as its document, the one ``--json`` prints.  Parameters
declared for the command line only (files on the server, plots, the machine's resources, ``--allow-long``)
are not offered: work past the limit is refused, and the message says to run the command line for it.  A
file the command reads (``--bets``, ``--tableau``, ``--count``) is given as the file's text instead
(``bets-toml``, ``tableau-toml``, ``count-toml``), written to a temporary file for the run and removed after
it.  Every value is bounded in length before anything reads it (:func:`check_lengths`), and an empty value
is a parameter not given, as an empty form field is.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .. import params
from ..commands import Command, Param
from ..commands.banque import BANQUE_SOLVE, BANQUE_SWEEP
from ..commands.bertrand import BERTRAND
from ..commands.chemin import CHEMIN_SOLVE
from ..commands.count import COUNT, COUNT_DESIGN
from ..commands.edgesort import EDGESORT
from ..commands.macao import MACAO_SOLVE
from ..commands.punto import EDGE, EOR, TOTALS
from ..commands.report import REPORT
from ..commands.simulate import SIMULATE_BANQUE, SIMULATE_CHEMIN, SIMULATE_PUNTO
from ..errors import BaccaraError, CertificateError, NotProven
from ..result import failed_certificates

__all__ = ["COMMANDS", "JOB_COMMANDS", "Command", "WebError", "arguments", "check_lengths", "run"]

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


_TRUE, _FALSE = {"true", "1", "yes", "on"}, {"false", "0", "no", "off"}


def _whole(value: str) -> int | float:
    """A value as the bodies read a whole number (``1e12``, ``1_000``), or -inf where it is not one (the body
    then says why)."""
    try:
        return params.integer(value, "value")
    except BaccaraError:
        return float("-inf")


def _by_name(command: Command) -> dict[str, Param]:
    """The web parameters of a command by their names, with dashes or underscores."""
    found: dict[str, Param] = {}
    for p in command.web_params():
        found[p.web_name] = found[p.web_name.replace("-", "_")] = p
    return found


def arguments(command: Command, query: Iterable[tuple[str, str]]) -> dict[str, Any]:
    """The body's keyword arguments from a request's query parameters.

    Parameters
    ----------
    command : Command
        The command.
    query : iterable of (str, str)
        The query parameters in order (a list parameter may be repeated).

    Returns
    -------
    dict
        Every parameter of the command: those given, parsed by kind; the others their defaults.

    Raises
    ------
    WebError
        An unknown parameter, one given twice, a flag that is not true or false, a number that is not
        whole or over the web app's bound, a word not offered here.

    Notes
    -----
    An empty value (``top=``, an empty form field) is the parameter not given.  A file's text is
    given as a :class:`Text`, which :func:`run` writes to a file: nothing is written here.
    """
    params = command.web_params()
    by_name = _by_name(command)
    given: dict[str, list[str]] = {}
    for key, value in query:
        p = by_name.get(key)
        if p is None:
            names = ", ".join(q.web_name for q in params)
            raise WebError(f"{command.cli} has no option --{key} here (the API takes: {names})", key, 400)
        if value.strip():  # an empty field is a parameter not given
            given.setdefault(p.name, []).append(value)
    kw: dict[str, Any] = command.defaults()
    for p in params:
        values = given.get(p.name)
        if values is None:
            if p.default is ...:
                raise WebError(f"--{p.web_name} is missing: {p.help}", p.web_name)
            continue
        if p.kind != "list" and len(values) > 1:
            raise WebError(f"--{p.web_name} is given {len(values)} times: give it once", p.web_name)
        v = values[-1]
        if p.file:
            kw[p.name] = Text(p.web_name, v.replace("\r\n", "\n"))
        elif p.kind == "bool":
            if v.strip().lower() not in _TRUE | _FALSE:
                raise WebError(f"--{p.web_name} is a flag: give true or false, got {v!r}", p.web_name)
            kw[p.name] = v.strip().lower() in _TRUE
        elif p.kind == "int":
            try:
                kw[p.name] = int(v)
            except ValueError:
                raise WebError(f"--{p.web_name} must be a whole number, got {v!r}", p.web_name) from None
            if (p.lo is not None and kw[p.name] < p.lo) or (p.hi is not None and kw[p.name] > p.hi):
                bounds = " and ".join(b for b in (p.lo is not None and f"at least {p.lo}",
                                                  p.hi is not None and f"at most {p.hi}") if b)
                raise WebError(f"--{p.web_name} must be a whole number, {bounds}, got {v!r}", p.web_name)
        elif p.kind == "list":
            kw[p.name] = values
        else:
            kw[p.name] = v
        if p.web_max is not None and _whole(v) > p.web_max:  # 1e12 and 1_000 too, as the body reads them
            raise WebError(f"--{p.web_name} here is at most {p.web_max:,} (the web app's limit; run {command.cli} "
                           "on your own machine for more)", p.web_name)
        if p.web_choices is not None and v.strip().lower() not in p.web_choices:
            raise WebError(f"--{p.web_name} here is one of {', '.join(p.web_choices)}, got {v!r}", p.web_name)
    return kw


def _message(command: Command, message: str, written: dict[str, str]) -> str:
    """A body's message in the web app's words: files given as text, and their parameters, named as given."""
    for path, param in written.items():  # the file is the text the request gave: say so
        for name in (path, os.path.basename(path)):  # some messages name the file only
            message = message.replace(repr(name), f"given as {param}").replace(name, f"given as {param}")
    for p in command.web_params():
        if p.file:
            message = message.replace(p.flag + ":", f"--{p.web_name}:").replace(p.flag + " ", f"--{p.web_name} ")
    return message.replace(*_ALLOW_LONG)


def run(command: Command, query: Iterable[tuple[str, str]], keep: list | None = None) -> Any:
    """Run the command on a request's parameters and return its document.

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
    try:
        for arg, value in list(kw.items()):
            if isinstance(value, Text):
                fd, path = tempfile.mkstemp(prefix="baccara-web-", suffix=".toml")
                written[path] = value.param
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    f.write(value.text)
                kw[arg] = path
        result = command.function()(**kw)
    except NotProven as e:
        raise WebError(f"not proven: {e}", None, 500) from None
    except CertificateError as e:
        raise WebError(f"the certificate fails: {e}", None, 500) from None
    except BaccaraError as e:
        message = _message(command, getattr(e, "cli_message", str(e)), written)
        raise WebError(message, parameter_of(message)) from None
    except MemoryError:  # a solver that ran out of memory
        raise WebError(f"{command.cli} could not compute this here: ask for less", None, 422) from None
    finally:
        for path in written:
            with contextlib.suppress(OSError):
                os.unlink(path)
    if result is None:
        raise WebError(f"{command.cli} gave no result", None, 500)
    doc = result.to_json()
    if written:  # a document that quotes its command (a report) names the text given, not our file
        text = json.dumps(doc)
        for path, param in written.items():
            text = text.replace(json.dumps(path)[1:-1], f"({param})")
        doc = json.loads(text)
    if keep is not None:
        keep.append(result)
    bad = list(failed_certificates(doc))
    if bad:
        raise WebError(f"the certificate fails ({', '.join(bad[:5])}): the result is not proven", None, 500)
    return doc


#: The commands the API runs, by path under /api.
COMMANDS: dict[str, Command] = {"edge": EDGE, "eor": EOR, "totals": TOTALS, "edgesort": EDGESORT, "chemin/solve": CHEMIN_SOLVE,
                                "banque/solve": BANQUE_SOLVE, "macao/solve": MACAO_SOLVE, "bertrand": BERTRAND}

#: The commands run as background jobs (:mod:`baccara.web.jobs`), by path under /api/jobs.
JOB_COMMANDS: dict[str, Command] = {"simulate/punto": SIMULATE_PUNTO, "simulate/chemin": SIMULATE_CHEMIN,
                                    "simulate/banque": SIMULATE_BANQUE, "banque/sweep": BANQUE_SWEEP,
                                    "count": COUNT, "count/design": COUNT_DESIGN, "report": REPORT}
