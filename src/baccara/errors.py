"""Errors raised on bad input.

Every error names the offending parameter and what is allowed, so that the
CLI can print it as is and exit non-zero (never a traceback).
"""

from __future__ import annotations


class BaccaraError(ValueError):
    """Bad input to baccara: the message names the parameter and the allowed range."""


class ShoeError(BaccaraError):
    """An invalid shoe (decks, counts, ranks, too few cards)."""


class BetError(BaccaraError):
    """An invalid bet definition, or a bet the shoe cannot price."""
