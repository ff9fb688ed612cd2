"""Macao and Victoria, the precursors of baccarat, as two-person zero-sum games solved exactly.

Rules as data (:mod:`baccara.macao.variants`: variants ``macao``, ``macao-early``,
``victoria``, ``victoria-early``, ``macao-meyer``, ``macao-russian``, ``macao-four-decks``, each with
its source in :data:`SOURCES` and its modelling choices in :data:`CHOICES`; the banker's natural
bonus and the multiple of each natural total as rules), the game and its information model
(:mod:`baccara.macao.model`), an exact engine and best responses
(:mod:`baccara.macao.engine`) with a brute-force oracle
(:mod:`baccara.macao.brute`), the certified solution
(:mod:`baccara.macao.solution`), and the estimate of a solve's work before it starts
(:func:`estimate`).

Examples
--------
>>> from baccara import macao
>>> macao.solve("victoria", decks=2).certified          # doctest: +SKIP
True
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .. import params
from ..shoe import Shoe
from .variants import CHOICES, SOURCES, VARIANTS, MacaoRules, macao_rules

if TYPE_CHECKING:  # what the names loaded on first use are, for type checkers and editors
    from .brute import brute_distribution
    from .engine import banker_best_response, distribution, expected_payoff, punter_best_response, table, threshold
    from .model import MacaoGame
    from .solution import MacaoSolution
    from .work import MacaoWork

__all__ = ["solve", "table", "estimate", "game", "rules", "threshold", "expected_payoff", "punter_best_response",
           "banker_best_response", "distribution", "brute_distribution", "MacaoSolution", "MacaoGame", "MacaoRules",
           "MacaoWork", "VARIANTS", "SOURCES", "CHOICES"]

rules = macao_rules

#: Names loaded on first use, and the module of each: the rules (:mod:`.variants`) are light, the
#: engine and the LP load NumPy and SciPy, which the command line's ``--help`` must not.
_LAZY = {
    "brute_distribution": ".brute",
    **dict.fromkeys(["banker_best_response", "distribution", "expected_payoff", "punter_best_response", "table",
                     "threshold"], ".engine"),
    "MacaoGame": ".model", "MacaoSolution": ".solution", "MacaoWork": ".work",
}


def __getattr__(name: str):
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def estimate(variant: str | MacaoRules = "macao", *, uniqueness: bool = False, **changes) -> MacaoWork:
    """The size of a variant's game and the estimated time and memory of solving it, before solving.

    Parameters
    ----------
    variant : str or MacaoRules
        A name in :data:`VARIANTS`, or rules.
    uniqueness : bool
        Whether uniqueness will be decided too.
    **changes
        Rule fields to change (``draws``, ``banker_bonus``, ``naturals``, ...).

    Returns
    -------
    MacaoWork
        LP coefficients, banker nodes, estimated seconds of one core and bytes.
    """
    from .work import estimate_macao_work

    return estimate_macao_work(macao_rules(variant, **changes), uniqueness=uniqueness)


def game(variant: str | MacaoRules = "macao", decks: Any = None, *, shoe: Shoe | None = None, **changes) -> MacaoGame:
    """The game for a variant on a shoe.

    Parameters
    ----------
    variant : str or MacaoRules
        A name in :data:`VARIANTS` (``macao``, ``victoria``, ``macao-meyer``, ...), or rules.
    decks : int or str, optional
        Fresh decks (default 2); not with ``shoe``.
    shoe : Shoe, optional
        Any finite shoe.
    **changes
        Rule fields to change (``natural9_pays``, ``draws``, ``banker_bonus``, ``naturals="9=3,8=2,7=1"``, ...).

    Returns
    -------
    MacaoGame
        The game.
    """
    from .model import macao_game

    return macao_game(variant, _shoe(decks, shoe), **changes)


def solve(variant: str | MacaoRules = "macao", decks: Any = None, *, shoe: Shoe | None = None,
          decide_uniqueness: bool = False, **changes) -> MacaoSolution:
    """Solve a variant exactly: the banker's edge, both optimal strategies and the certificate.

    Parameters
    ----------
    variant : str or MacaoRules
        A name in :data:`VARIANTS` (``macao``, ``victoria``, ``macao-meyer``, ...), or rules.
    decks : int or str, optional
        Fresh decks (default 2); not with ``shoe``.
    shoe : Shoe, optional
        Any finite shoe.
    decide_uniqueness : bool
        Also decide whether the optimal strategies are unique (seconds for Victoria, about a
        minute for Macao on 2 decks); otherwise the solution's ``unique`` is None.
    **changes
        Rule fields to change (``natural9_pays``, ``draws``, ``banker_bonus``, ``naturals="9=3,8=2,7=1"``, ...).

    Returns
    -------
    MacaoSolution
        The solution.
    """
    from .model import macao_game
    from .solution import solve_macao

    return solve_macao(macao_game(variant, _shoe(decks, shoe), **changes), decide_uniqueness=decide_uniqueness)


def _shoe(decks: Any, shoe: Shoe | None) -> Shoe | int | None:
    return params.decks_or_shoe(decks, shoe, infinite=False)  # None: the rules' 2 decks
