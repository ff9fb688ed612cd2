"""Macao and Victoria, the precursors of baccarat, as two-person zero-sum games solved exactly.

Rules as data (:mod:`baccara.macao.variants`: variants ``macao``, ``macao-early``,
``victoria``, ``victoria-early``), the game and its information model
(:mod:`baccara.macao.model`), an exact engine and best responses
(:mod:`baccara.macao.engine`) with a brute-force oracle
(:mod:`baccara.macao.brute`), and the certified solution
(:mod:`baccara.macao.solution`): the sequence-form LP over flows in floats
(:mod:`baccara.macao.lp`), its optimal vertex recovered exactly (:mod:`baccara.macao.exact_lp`), and
the uniqueness check (:mod:`baccara.macao.uniqueness`).

Examples
--------
>>> from baccara import macao
>>> macao.solve("victoria", decks=2).certified          # doctest: +SKIP
True
"""

from __future__ import annotations

from typing import Any

from .. import params
from ..shoe import Shoe
from .brute import brute_distribution
from .engine import banker_best_response, distribution, expected_payoff, punter_best_response, table, threshold
from .model import MacaoGame, macao_game
from .solution import MacaoSolution, solve_macao
from .variants import VARIANTS, MacaoRules, macao_rules

__all__ = ["VARIANTS", "MacaoGame", "MacaoRules", "MacaoSolution", "banker_best_response", "brute_distribution",
           "distribution", "expected_payoff", "game", "punter_best_response", "rules", "solve", "table", "threshold"]

rules = macao_rules


def game(variant: str | MacaoRules = "macao", decks: Any = None, *, shoe: Shoe | None = None, **changes) -> MacaoGame:
    """The game for a variant on a shoe.

    Parameters
    ----------
    variant : str or MacaoRules
        ``macao``, ``macao-early``, ``victoria``, ``victoria-early``, or rules.
    decks : int or str, optional
        Fresh decks (default 2); not with ``shoe``.
    shoe : Shoe, optional
        Any finite shoe.
    **changes
        Rule fields to change (``natural9_pays``, ``draws``, ...).

    Returns
    -------
    MacaoGame
        The game.
    """
    return macao_game(variant, _shoe(decks, shoe), **changes)


def solve(variant: str | MacaoRules = "macao", decks: Any = None, *, shoe: Shoe | None = None,
          decide_uniqueness: bool = False, **changes) -> MacaoSolution:
    """Solve a variant exactly: the banker's edge, both optimal strategies and the certificate.

    Parameters
    ----------
    variant : str or MacaoRules
        ``macao``, ``macao-early``, ``victoria``, ``victoria-early``, or rules.
    decks : int or str, optional
        Fresh decks (default 2); not with ``shoe``.
    shoe : Shoe, optional
        Any finite shoe.
    decide_uniqueness : bool
        Also decide whether the optimal strategies are unique (seconds for Victoria, about a
        minute for Macao on 2 decks); otherwise the solution's ``unique`` is None.
    **changes
        Rule fields to change (``natural9_pays``, ``draws``, ...).

    Returns
    -------
    MacaoSolution
        The solution.
    """
    return solve_macao(variant, _shoe(decks, shoe), decide_uniqueness=decide_uniqueness, **changes)


def _shoe(decks: Any, shoe: Shoe | None) -> Shoe | int | None:
    return params.decks_or_shoe(decks, shoe, infinite=False)  # None: the rules' 2 decks
