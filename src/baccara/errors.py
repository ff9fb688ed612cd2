"""Errors raised on bad input, or when an exact result cannot be certified.

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


class CertificateError(BaccaraError):
    """An exact certificate failed: the solver's answer is not proved, so none is returned.

    Raised instead of returning a result whose certificate does not hold (a solver
    bug, never expected); the message names the parameter value and its allowed range.
    """
