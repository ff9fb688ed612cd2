"""``baccara totals``: the exact probability of every final (Player total, Banker total) of a coup."""

from __future__ import annotations

from ..commands.punto import TOTALS
from .common import app, register
from .punto import exact_lines

register(app, TOTALS, __name__, exact_lines)
