"""Errors raised on bad input, or when an exact result cannot be certified.

Every error names the offending parameter and what is allowed, so that the
CLI can print it as is and exit non-zero (never a traceback).
"""

from __future__ import annotations

import re

#: A command-line flag in a message: ``--perfect-every``.
_FLAG = re.compile(r"(?<![\w-])--([a-z][a-z0-9]*(?:-[a-z0-9]+)*)")


class BaccaraError(ValueError):
    """Bad input to baccara: the message names the parameter and the allowed range."""


class ParameterError(BaccaraError):
    """A bad parameter, written once for both audiences.

    The message is written with the command line's flags (``--seed``,
    ``--perfect-every``); as an exception it names the library's arguments
    (``seed``, ``perfect_every``), which the flags spell with dashes.  The
    command line prints :attr:`cli_message`.

    Parameters
    ----------
    message : str
        The message, naming parameters by their flags.
    """

    def __init__(self, message: str) -> None:
        self.cli_message = message
        super().__init__(_FLAG.sub(lambda m: m.group(1).replace("-", "_"), message))


class ShoeError(BaccaraError):
    """An invalid shoe (decks, counts, ranks, too few cards)."""


class BetError(BaccaraError):
    """An invalid bet definition, or a bet the shoe cannot price."""


class CertificateError(BaccaraError):
    """An exact certificate failed: the solver's answer is not proved, so none is returned.

    Raised instead of returning a result whose certificate does not hold (a solver
    bug, never expected); the message names the parameter value and its allowed range.
    """


class NotProven(CertificateError):
    """A case the solver cannot decide yet: it refuses rather than answer in part.

    The command line prints ``error: not proven: ...`` and exits with status 1, as for a
    failed certificate: nothing is claimed.
    """
