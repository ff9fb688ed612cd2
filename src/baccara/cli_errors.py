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

import functools
import os
import sys
from collections.abc import Callable, Iterator
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape

from .errors import BaccaraError, CertificateError, NotProven

#: Width of the console when the output is not a terminal: wide enough that no table is cut.
PIPE_WIDTH = 100_000


def make_console(stderr: bool = False) -> Console:
    """A console that wraps to the terminal, and never cuts output sent to a file or a pipe.

    Parameters
    ----------
    stderr : bool
        Whether it writes to standard error.

    Returns
    -------
    rich.console.Console
        The console.
    """
    stream = sys.stderr if stderr else sys.stdout
    tty = stream.isatty()
    return Console(stderr=stderr, soft_wrap=stderr, width=None if tty else PIPE_WIDTH)


err = make_console(stderr=True)


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


_NOT_CERTIFICATES = ("seed_route",)


def failed_certificates(doc: Any, path: str = "") -> Iterator[str]:
    """Where a result document reports a certificate that does not hold.

    A certificate fails where a ``"certificate"`` table has ``"holds": false``,
    or a result says ``"certified": false``, ``"confirmed": false`` or
    ``"all_confirmed": false``, or a check's ``"status"`` is ``"refuted"`` or
    ``"inconclusive"`` (not proved either way).
    The candidates of the paper's own route to Model 3 (``"seed_route"``) are
    not certificates: that route may fail by design (Ethier & Lee 2023, d = 1).

    Parameters
    ----------
    doc : object
        A result's JSON document (dicts, lists, scalars).
    path : str
        The path of ``doc`` inside the whole document.

    Yields
    ------
    str
        The path of each failed certificate, e.g. ``equilibria[2].certificate``.
    """
    if isinstance(doc, dict):
        for key, value in doc.items():
            here = f"{path}.{key}" if path else key
            if key in _NOT_CERTIFICATES:
                continue
            if key == "certificate" and isinstance(value, dict) and value.get("holds") is False:
                yield here
            elif key in ("certified", "confirmed", "all_confirmed") and value is False:
                yield here
            elif key == "status" and value in ("refuted", "inconclusive"):
                yield here
            else:
                yield from failed_certificates(value, here)
    elif isinstance(doc, list):
        for k, value in enumerate(doc):
            yield from failed_certificates(value, f"{path}[{k}]")


def _quiet_stdout() -> None:
    """Point standard output at /dev/null, so that the interpreter's last flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no real file descriptor (a test runner's stream)
        pass


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
        except BrokenPipeError:  # the reader went away (`baccara ... --json | head`): not an error of ours
            _quiet_stdout()
            raise SystemExit(141) from None  # what a shell reports for SIGPIPE
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
