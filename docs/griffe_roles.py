"""A griffe extension for the API reference: Sphinx roles in docstrings become code spans.

The docstrings cite other names the way Sphinx does (``:func:`evaluate```, ``:class:`~baccara.shoe.Shoe```),
which mkdocstrings does not read: the site showed ":func:" before the name.  Each role becomes the
name in backticks (``~`` keeps the last part of a dotted name, as in Sphinx; ``title <target>`` keeps the
title), so the page shows code, never a raw role.  ``scripts/check_site.py`` fails on any role left.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

#: ``:func:`name```, ``:py:class:`~a.b.C```, ``:meth:`title <target>```.
ROLE = re.compile(r":(?:py:)?(?:func|class|meth|mod|data|attr|obj|exc|const|ref|term|doc|envvar|option):"
                  r"`([^`]+)`")


def plain(text: str) -> str:
    """``text`` with every Sphinx role turned into a code span.

    Parameters
    ----------
    text : str
        A docstring.

    Returns
    -------
    str
        The docstring as Markdown reads it.
    """

    def span(m: re.Match) -> str:
        target = m.group(1).strip()
        titled = re.fullmatch(r"(.+?)\s*<(.+)>", target)
        if titled:
            return f"`{titled.group(1)}`"
        if target.startswith("~"):
            target = target[1:].rsplit(".", 1)[-1]
        return f"`{target}`"

    return ROLE.sub(span, text)


def _fix(obj: Any) -> None:
    doc = getattr(obj, "docstring", None)
    if doc is not None and doc.value:
        doc.value = plain(doc.value)


class SphinxRoles(griffe.Extension):
    """Turn Sphinx roles into code spans in every docstring griffe loads."""

    def on_instance(self, *args: Any, **kwargs: Any) -> None:
        _fix(kwargs.get("obj", args[-1] if args else None))

    def on_package(self, *args: Any, **kwargs: Any) -> None:  # once everything is loaded (late docstrings too)
        self._walk(kwargs.get("pkg", args[-1] if args else None))

    on_package_loaded = on_package  # its name in older griffe

    def _walk(self, obj: Any) -> None:
        if obj is None or getattr(obj, "is_alias", False):
            return
        _fix(obj)
        for member in getattr(obj, "members", {}).values():
            self._walk(member)
