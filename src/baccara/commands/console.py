"""The consoles of the commands: results on standard output, notices and progress bars on standard error.

Output to a file or a pipe is never cut to the terminal's width, and a reader that closes the pipe early
ends the command quietly with status 141, as a command killed by SIGPIPE does.
"""

from __future__ import annotations

import os
import sys

from rich.console import Console
from rich.progress import (
    BarColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

#: Width of the console when the output is not a terminal: wide enough that no table is cut.
PIPE_WIDTH = 100_000


#: The exit status a shell reports for a command killed by SIGPIPE (its reader went away).
BROKEN_PIPE_STATUS = 141


class _PipeConsole(Console):
    """A console that, when the reader of a pipe goes away, exits quietly with status 141 (as a
    command killed by SIGPIPE does), where rich itself exits with status 1."""

    def on_broken_pipe(self) -> None:
        buffer = getattr(self, "_buffer", None)
        if isinstance(buffer, list):
            del buffer[:]  # what could not be written: not for the next command run in this process
        quiet_stdout()
        raise SystemExit(BROKEN_PIPE_STATUS)


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
    return _PipeConsole(stderr=stderr, soft_wrap=stderr, width=None if tty else PIPE_WIDTH)


err = make_console(stderr=True)


def quiet_stdout() -> None:
    """Point standard output at /dev/null, so that the interpreter's last flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no real file descriptor (a test runner's stream)
        pass


out = make_console()


def say(message: str) -> None:
    """Print a notice on standard error.

    Parameters
    ----------
    message : str
        The notice (rich markup allowed).
    """
    err.print(message, highlight=False)


def progress_bar() -> Progress:
    """The progress bar of every long command: on stderr, gone when done; elapsed time, then the time to go."""
    return Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                    TextColumn("elapsed"), TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                    transient=True, console=err)
