"""``baccara bertrand``: Bertrand's 1888 problems (Ethier, "A note on Bertrand's analysis of baccarat")."""

from __future__ import annotations

from ..commands.bertrand import BERTRAND
from .common import app, register

register(app, BERTRAND, __name__)
