"""What every ``baccara`` command shares: its consoles and how it fails.

- Bad input prints ``error: ...`` on stderr and exits with status 2.
- A result whose certificate fails is printed in full, then ``error: ...``
  names what failed, and the command exits with status 1: a failed
  certificate is never an answer.  A case a solver cannot decide yet
  (:class:`~baccara.errors.NotProven`) prints ``error: not proven: ...``
  and exits with status 1, with no partial answer.
- Anything else that goes wrong is a bug: one line, ``error: internal error ...``,
  exit status 1 (``BACCARA_TRACEBACK=1`` shows the traceback).
- Output is never cut to the terminal's width when it goes to a file or a
  pipe: data is not truncated.
"""

from __future__ import annotations

import errno
import functools
import inspect
import os
import re
from collections.abc import Callable
from typing import Any

import typer
from rich.markup import escape
from typer.core import TyperGroup

try:  # typer carries its own copy of click from 0.22 on
    from typer._click.exceptions import BadOptionUsage, NoSuchOption, UsageError
except ImportError:  # pragma: no cover - an older typer, on click itself
    from click.exceptions import BadOptionUsage, NoSuchOption, UsageError  # type: ignore[assignment]

from ..commands.console import BROKEN_PIPE_STATUS, PIPE_WIDTH, err, make_console, quiet_stdout  # noqa: F401
from ..errors import BaccaraError, CertificateError, NotProven
from ..result import failed_certificates


def fail(message: str, status: int = 2) -> None:
    """Print ``error: message`` on stderr and exit with ``status`` (2: bad input).

    Parameters
    ----------
    message : str
        What is wrong, naming the parameter and what it allows.
    status : int
        The exit status.
    """
    err.print(f"[bold red]error:[/] {escape(message)}", highlight=False)
    raise typer.Exit(status)


def handles_errors(f: Callable) -> Callable:
    """Turn a BaccaraError into ``error: ...`` and exit status 2; a failed certificate into exit status 1.

    A command that returns its result document has it checked by
    :func:`failed_certificates` after printing it.
    """

    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        try:
            doc = f(*args, **kwargs)
        except NotProven as e:  # a case not decided yet: refused, nothing claimed
            fail(f"not proven: {e}", status=1)
        except CertificateError as e:  # not bad input: the answer could not be proved
            fail(f"the certificate fails: {e}", status=1)
        except BaccaraError as e:  # a ParameterError names the command line's flags
            fail(getattr(e, "cli_message", str(e)))
        except (typer.Exit, typer.Abort, KeyboardInterrupt, SystemExit):
            raise
        except MemoryError as e:  # work too large for this machine (a body says what to ask for instead): exit 1
            fail(str(e) or "out of memory: ask for less", status=1)
        except BrokenPipeError:  # the reader went away (`baccara ... --json | head`): not an error of ours
            quiet_stdout()
            raise SystemExit(BROKEN_PIPE_STATUS) from None  # what a shell reports for SIGPIPE
        except Exception as e:  # a bug, not bad input: say so in one line, exit 1
            if os.environ.get("BACCARA_TRACEBACK"):
                raise
            fail(f"internal error ({type(e).__name__}: {e}); this is a bug in baccara: please report the command "
                 "(set BACCARA_TRACEBACK=1 to see where it happened)", status=1)
        if doc is not None:
            bad = list(failed_certificates(doc))
            if bad:
                fail(f"the certificate fails ({', '.join(bad[:5])}{' ...' if len(bad) > 5 else ''}): the result above "
                     "is not proven; please report this input", status=1)

    return wrapper


def usage_message(e: UsageError, where: str | None = None) -> str:
    """A command-line usage error (an unknown option or command, a missing value) in the words of
    every other bad input: what is wrong, the close name meant, where the help is.

    Parameters
    ----------
    e : UsageError
        The parser's error.
    where : str, optional
        The command line's command (``baccara edge``) when the error does not know it.

    Returns
    -------
    str
        The message printed after ``error:``.
    """
    where = e.ctx.command_path if e.ctx is not None else where or "baccara"
    see = f"'{where} --help' lists them"
    if isinstance(e, NoSuchOption):
        guess = list(e.possibilities or ())
        meant = f"; did you mean {guess[0]}?" if guess else ""  # the closest first
        return f"{where} has no option {e.option_name}{meant} ({see})"
    text = e.format_message().strip()
    command = re.fullmatch(r"No such command '(.*)'\.(?: Did you mean '(.*)'\?)?", text)
    if command:
        meant = f"; did you mean {command.group(2)}?" if command.group(2) else ""
        return f"{where} has no command {command.group(1)!r}{meant} ({see})"
    if isinstance(e, BadOptionUsage) and text.endswith("requires an argument."):
        return f"{e.option_name} needs a value (see '{where} --help')"
    if text[:1].isupper() and not text[:2].isupper():
        text = text[0].lower() + text[1:]
    return f"{where}: {text.rstrip('.')} (see '{where} --help')"


def _broken_pipe(e: OSError) -> None:
    """A closed pipe ends the command quietly with status 141; any other OSError is re-raised."""
    if e.errno != errno.EPIPE:
        raise e
    quiet_stdout()
    raise SystemExit(BROKEN_PIPE_STATUS) from None


def first_sentence(text: str) -> str:
    """The first sentence of a help text's first paragraph, whole (click cuts it at 45 characters or so).

    Parameters
    ----------
    text : str
        The help text.

    Returns
    -------
    str
        Its first sentence.
    """
    paragraph = " ".join(inspect.cleandoc(text).split("\n\n")[0].split())
    end = re.search(r"(?<!e\.g)(?<!i\.e)\.(\s|$)", paragraph)
    return paragraph[: end.start() + 1] if end else paragraph


def _tidy_help(command: Any) -> None:
    """Every command's summary in full in its group's list (not cut with '...'), and an option's default
    said once: not also as click's ``[default: ...]`` when its help already states it."""
    for param in getattr(command, "params", []):
        if "default" in (getattr(param, "help", None) or "").lower():
            param.show_default = False
    for sub in getattr(command, "commands", {}).values():
        if not sub.short_help and sub.help:
            sub.short_help = first_sentence(sub.help)
        _tidy_help(sub)


def _command_path(group: Any, ctx: Any, tokens: list[str]) -> str:
    """``baccara chemin solve``: the commands named by the leading words of the command line."""
    path, command = [ctx.command_path], group
    for word in tokens:
        sub = command.get_command(ctx, word) if hasattr(command, "get_command") else None
        if sub is None:
            break
        path.append(word)
        command = sub
    return " ".join(path)


class BaccaraGroup(TyperGroup):
    """The ``baccara`` command group: parsing errors print ``error: ...`` and exit with status 2
    like every other bad input (not click's usage block), and a reader that closes the pipe early
    ends the command quietly with status 141."""

    def get_help_option(self, ctx):
        option = super().get_help_option(ctx)
        if option is not None and option.default is None:
            # A flag whose default is a bool needs no coercion; Typer coerces a None default through
            # Pydantic, whose import was most of the time of a group's --help.
            option.default = False
        return option

    def make_context(self, info_name, args, parent=None, **extra):
        if not getattr(self, "_tidied", False):
            _tidy_help(self)
            self._tidied = True
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except UsageError as e:
            if type(e).__name__ == "NoArgsIsHelpError":
                raise
            fail(usage_message(e))
            raise  # pragma: no cover - fail() exits
        except OSError as e:  # --help into a closed pipe
            _broken_pipe(e)
            raise  # pragma: no cover - _broken_pipe() exits

    def invoke(self, ctx):
        tokens = [*(getattr(ctx, "_protected_args", None) or getattr(ctx, "protected_args", None) or []), *ctx.args]
        try:
            return super().invoke(ctx)
        except UsageError as e:
            if type(e).__name__ == "NoArgsIsHelpError":
                raise
            fail(usage_message(e, _command_path(self, ctx, tokens)))
        except OSError as e:
            _broken_pipe(e)
            raise  # pragma: no cover - _broken_pipe() exits
