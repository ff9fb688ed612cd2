"""Reading the TOML files users write (bets, count systems, strategies), with clear errors."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from .errors import BaccaraError


def read_toml(path: str | Path, what: str, error: type[BaccaraError] = BaccaraError) -> dict[str, Any]:
    """The parsed contents of ``path``; ``error("<what> file 'path' ...")`` when it is missing,
    unreadable or not valid TOML."""
    try:
        return tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise error(f"{what} file {str(path)!r} not found") from None
    except tomllib.TOMLDecodeError as e:
        raise error(f"{what} file {str(path)!r} is not valid TOML: {e}") from None
    except (OSError, ValueError) as e:  # ValueError: undecodable bytes, or a NUL in the path
        raise error(f"{what} file {str(path)!r} cannot be read: {e}") from None
