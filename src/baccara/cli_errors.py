"""How every ``baccara`` command reports bad input: ``error: ...`` on stderr, exit status 2."""

from __future__ import annotations

import functools
from typing import Callable

import typer
from rich.console import Console
from rich.markup import escape

from .errors import BaccaraError

err = Console(stderr=True, soft_wrap=True)


def fail(message: str) -> None:
    err.print(f"[bold red]error:[/] {escape(message)}", highlight=False)
    raise typer.Exit(2)


def handles_errors(f: Callable) -> Callable:
    """Turn a BaccaraError into ``error: ...`` on stderr and exit status 2."""

    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        try:
            return f(*args, **kwargs)
        except BaccaraError as e:
            fail(str(e))

    return wrapper
