"""baccara: the exact mathematics of baccarat in all its forms.

Data flows one way: :mod:`~baccara.shoe` (what is dealt) ->
:mod:`~baccara.rules` (drawing rules) and :mod:`~baccara.bets` (payouts as
data) -> :mod:`~baccara.exact` (exact joint distribution, edges, effects of
removal) -> :mod:`~baccara.report` and :mod:`~baccara.cli`.
"""

from .bets import Bet, Rule, builtin_bets, load_bets_toml
from .errors import BaccaraError, BetError, ShoeError
from .exact import (
    BetResult,
    CoupDistribution,
    coup_distribution,
    edge,
    effects_of_removal,
    evaluate,
)
from .rules import PUNTO_BANCO, Tableau
from .shoe import Shoe

__version__ = "0.1.0"

__all__ = [
    "BaccaraError", "Bet", "BetError", "BetResult", "CoupDistribution", "PUNTO_BANCO", "Rule",
    "Shoe", "ShoeError", "Tableau", "builtin_bets", "coup_distribution", "edge",
    "effects_of_removal", "evaluate", "load_bets_toml",
]
