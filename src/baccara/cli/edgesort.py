"""``baccara edgesort``: the exact value of telling two classes of cards apart on the first cards of a coup."""

from __future__ import annotations

from ..commands.edgesort import EDGESORT
from .common import app, register

register(app, EDGESORT, __name__)
