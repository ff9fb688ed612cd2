"""Reading the TOML files users write (bets, count systems, strategies), with clear errors."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from .errors import BaccaraError

#: Largest TOML file read: bets, counts and strategies are a few kB.
MAX_BYTES = 4 * 2**20


def read_toml(path: str | Path, what: str, error: type[BaccaraError] = BaccaraError) -> dict[str, Any]:
    """The parsed contents of ``path``; ``error("<what> file 'path' ...")`` when it is missing,
    unreadable or not valid TOML."""
    if not str(path).strip():
        raise error(f"{what} file: the file name is empty")
    p = Path(path)
    try:
        exists = p.exists()
    except (OSError, ValueError) as e:  # ValueError: a NUL in the path
        raise error(f"{what} file {str(path)!r} cannot be read: {e}") from None
    if exists and not p.is_file():
        raise error(f"{what} file {str(path)!r} is not a regular file")
    if exists and p.stat().st_size > MAX_BYTES:
        raise error(f"{what} file {str(path)!r} is larger than {MAX_BYTES // 2**20} MiB: not a {what} file")
    try:
        return tomllib.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise error(f"{what} file {str(path)!r} not found") from None
    except tomllib.TOMLDecodeError as e:
        raise error(f"{what} file {str(path)!r} is not valid TOML: {e}") from None
    except RecursionError:
        raise error(f"{what} file {str(path)!r} nests tables or arrays too deeply") from None
    except (OSError, ValueError) as e:  # ValueError: undecodable bytes, or a NUL in the path
        raise error(f"{what} file {str(path)!r} cannot be read: {e}") from None
