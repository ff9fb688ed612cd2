"""``baccara edge | eor | bets | fields``: punto banco's bets, exactly, for any shoe."""

from __future__ import annotations

from rich.markup import escape

from ..commands.punto import EDGE, EOR
from ..punto.bets import field_help
from ..result import Result
from .common import BETS, COMMISSION, SUPER6_PAYS, TIE_PAYS, app, build_bets, out, register
from .errors import handles_errors


def exact_lines(result: Result, json_out: bool, exact: bool) -> None:
    """With ``--exact`` (and not ``--json``), print each figure as an exact fraction after the table."""
    if exact and not json_out:
        for line in result.exact_lines():  # type: ignore[attr-defined]
            out.print(line, highlight=False, soft_wrap=True)


register(app, EDGE, __name__, exact_lines)
register(app, EOR, __name__)


@app.command("bets")
@handles_errors
def list_bets(
    commission: str = COMMISSION,
    tie_pays: str = TIE_PAYS,
    super6_pays: str = SUPER6_PAYS,
    bets: str | None = BETS,
) -> None:
    """List the bets: built-in, and those of a --bets file."""
    all_bets, _ = build_bets(commission, tie_pays, super6_pays, bets)
    for name, b in all_bets.items():
        out.print(f"[bold]{name}[/]: {escape(b.description)}", highlight=False)


@app.command()
def fields() -> None:
    """The event fields a user-defined bet's 'when' can test."""
    out.print(field_help(), highlight=False)


