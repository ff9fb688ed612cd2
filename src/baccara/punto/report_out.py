"""Where a math report is written: its ``--out`` path, checked before any work.

``baccara report`` computes for a minute or two; a path it cannot write must fail at once, with
a message naming ``--out``, not after the simulations.  This module imports nothing heavy
(no NumPy, no kernels), so the command can check its output before loading the engines.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from ..browser import chromium
from ..errors import ParameterError

#: What ``--out`` may end with.
SUFFIXES = (".html", ".htm", ".pdf")


def check_out(path: str | Path, browser: str | None = None) -> Path:
    """Check, before any work, that the report can be written at ``path``.

    Parameters
    ----------
    path : str or Path
        ``FILE.html`` (or ``.htm``) or ``FILE.pdf``.
    browser : str, optional
        The Chromium executable for a PDF (default: :func:`~baccara.browser.chromium`).

    Returns
    -------
    Path
        The path.

    Raises
    ------
    ParameterError
        An empty name, another suffix, a missing folder, a folder or other non-file in the way, a
        place where no file can be created or an existing file that cannot be overwritten, or a
        PDF without Chromium.
    """
    text = str(path)
    if not text.strip():
        raise ParameterError("--out needs a file name ending in .html or .pdf, got an empty string")
    if "\0" in text:
        raise ParameterError(f"--out: a file name cannot contain a NUL character, got {text!r}")
    p = Path(text)
    if p.suffix.lower() not in SUFFIXES:
        raise ParameterError(f"--out must name a .html or .pdf file, got {text!r}")
    parent = p.parent
    if not parent.exists():
        raise ParameterError(f"--out: folder {str(parent)!r} does not exist")
    if not parent.is_dir():
        raise ParameterError(f"--out: {str(parent)!r} is not a folder")
    if p.exists() and not p.is_file():
        raise ParameterError(f"--out: {text!r} exists and is not a file")
    if p.exists():
        if not os.access(p, os.W_OK):
            raise ParameterError(f"--out: cannot overwrite {text!r}: permission denied")
    else:
        try:
            fd, probe = tempfile.mkstemp(prefix=".baccara-report-", dir=parent)
            os.close(fd)
            os.unlink(probe)
        except OSError as e:
            raise ParameterError(f"--out: cannot write in folder {str(parent)!r}: {e.strerror or e}") from None
    if p.suffix.lower() == ".pdf" and (browser or chromium()) is None:
        raise ParameterError("--out: a PDF is printed by Chromium, which is not installed (install the "
                             "distribution's chromium package), or write the report as FILE.html")
    return p


__all__ = ["SUFFIXES", "check_out"]
