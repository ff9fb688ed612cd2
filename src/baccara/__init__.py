"""baccara: the exact mathematics of baccarat in all its forms.

Punto banco is here at the top: :class:`Shoe` (what is dealt, any
composition), :func:`builtin_bets` and :class:`Bet` (payouts as data),
:func:`coup_distribution`, :func:`evaluate`, :func:`edge` and
:func:`effects_of_removal` (exact, as rationals), and the same as result objects,
:func:`edge_report` (every bet's odds, ``baccara edge``) and :func:`removal_report`
(``baccara eor``); :class:`Known` conditions a coup on what is known of its cards.  The games have modules of
their own, loaded when first used:

- :mod:`baccara.chemin`: chemin de fer as a game (``chemin.solve``, ``chemin.sweep``);
- :mod:`baccara.macao`: Macao and Victoria, baccarat's precursors, solved exactly (``macao.solve``);
- :mod:`baccara.banque`: baccara banque (``banque.correlated``, ``banque.independent``, ``banque.nash``, ``banque.full``);
- :mod:`baccara.sim`: simulation of real shoes, counting systems, chemin de fer and banque sessions;
- :mod:`baccara.audit`: game protection, from a casino's hand and bet logs the evidence that a player counted
  or edge-sorted (``audit.audit``).

Every result has ``to_json()``, a one-line repr, ``show()`` for people and
HTML in notebooks (:mod:`baccara.result`).
"""

import importlib
from typing import TYPE_CHECKING

__version__ = "0.1.0"

#: Where each public name lives: imported on first use, so that ``import baccara`` (and the command line's
#: ``--version`` and ``--help``) loads neither NumPy nor numba until something computes.
_NAMES = {
    "Bet": "punto.bets", "Rule": "punto.bets", "builtin_bets": "punto.bets", "load_bets_toml": "punto.bets",
    "BaccaraError": "errors", "BetError": "errors", "ShoeError": "errors",
    "BetResult": "punto.exact", "CoupDistribution": "punto.exact", "coup_distribution": "punto.exact",
    "edge": "punto.exact", "effects_of_removal": "punto.exact", "evaluate": "punto.exact",
    "Known": "punto.known",
    "EdgeReport": "punto.report", "RemovalReport": "punto.report", "edge_report": "punto.report",
    "removal_report": "punto.report",
    "MathReport": "punto.mathreport", "math_report": "punto.mathreport",
    "PUNTO_BANCO": "rules", "Tableau": "rules",
    "Shoe": "shoe",
}
#: Modules loaded on first use (``baccara.chemin`` builds numba kernels when imported).
_LAZY = ("audit", "banque", "chemin", "macao", "punto", "sim")

if TYPE_CHECKING:  # what the lazy names are, for type checkers and editors
    from .errors import BaccaraError, BetError, ShoeError
    from .punto.bets import Bet, Rule, builtin_bets, load_bets_toml
    from .punto.exact import BetResult, CoupDistribution, coup_distribution, edge, effects_of_removal, evaluate
    from .punto.known import Known
    from .punto.mathreport import MathReport, math_report
    from .punto.report import EdgeReport, RemovalReport, edge_report, removal_report
    from .rules import PUNTO_BANCO, Tableau
    from .shoe import Shoe


def __getattr__(name: str):
    if name in _NAMES:
        value = getattr(importlib.import_module(f".{_NAMES[name]}", __name__), name)
        globals()[name] = value  # found once; later look-ups do not come here
        return value
    if name in _LAZY:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'baccara' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


__all__ = [
    "BaccaraError", "Bet", "BetError", "BetResult", "CoupDistribution", "EdgeReport", "Known", "MathReport",
    "PUNTO_BANCO", "RemovalReport", "Rule", "Shoe", "ShoeError", "Tableau", "builtin_bets", "coup_distribution",
    "edge", "edge_report", "effects_of_removal", "evaluate", "load_bets_toml", "math_report", "removal_report",
    "audit", "banque", "chemin", "macao", "sim",
]
