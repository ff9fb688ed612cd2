"""The distribution's Chromium, run headless: where it is, and the flags every use of it shares.

Three things drive Chromium: the math report's PDF (:mod:`baccara.punto.report_html`), the
documentation site's check (``scripts/check_site.py``) and the web app's browser tests.  They all
start it the same way: headless, sandbox and GPU off, and no background networking (on a machine
without a network Chromium otherwise keeps trying to reach its update and sync servers).
"""

from __future__ import annotations

import os
import shutil

#: Flags for a headless Chromium that talks to nothing but the page it is given (add a
#: ``--user-data-dir`` of your own: a fresh profile each time).
HEADLESS_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
                  "--no-first-run", "--disable-background-networking", "--disable-component-update",
                  "--disable-sync")


def chromium() -> str | None:
    """The Chromium executable.

    Returns
    -------
    str or None
        ``chromium``, ``chromium-browser`` or ``/usr/bin/chromium``, whichever is found first; None
        when there is none.
    """
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if os.access("/usr/bin/chromium", os.X_OK) else None


__all__ = ["HEADLESS_FLAGS", "chromium"]
