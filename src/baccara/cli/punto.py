"""``baccara edge | eor | bets | fields``: punto banco's bets, exactly, for any shoe."""

from __future__ import annotations

from ..commands.punto import BETS_LIST, EDGE, EOR, FIELDS
from ..result import Result
from .common import app, out, register


def exact_lines(result: Result, json_out: bool, exact: bool) -> None:
    """With ``--exact`` (and not ``--json``), print each figure as an exact fraction after the table."""
    if exact and not json_out:
        for line in result.exact_lines():  # type: ignore[attr-defined]
            out.print(line, highlight=False, soft_wrap=True)


register(app, EDGE, __name__, exact_lines)
register(app, EOR, __name__)
register(app, BETS_LIST, __name__)
register(app, FIELDS, __name__)
