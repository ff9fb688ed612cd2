"""Chemin de fer as a two-person game: build it on any shoe, solve it at a commission, sweep the commission.

The game and its models follow S. N. Ethier and C. Gamez, "A game-theoretic
analysis of baccara chemin de fer", *Games* 4(4), 711-737 (2013), and S. N.
Ethier and J. Lee, "A game-theoretic analysis of baccara chemin de fer, II",
*Games* 14(5), 63 (2023):

- Model A deals with replacement (the infinite shoe), Model B from a finite shoe;
- 1: each side sees only his total; 2: Banker sees his two-card composition;
  3: Player sees his composition too (he chooses at each composition of 5).

Player must draw on 0-4 and stand on 6-7 and chooses at 5; Banker is free at
every total 0-7, his information set being his total or composition and
Player's third card (or "none").  Banker pays a commission alpha on his wins.

Examples
--------
>>> from baccara import chemin, Shoe
>>> chemin.solve("B2", decks=8, commission="1/20")          # doctest: +ELLIPSIS
<CheminSolution: Chemin de fer, Model B2, 8 decks, commission 1/20: unique Nash equilibrium>
>>> poor = Shoe.decks(6).remove("8", n=6).remove("9", n=6)     # a shoe poor in 8s and 9s
>>> chemin.solve("B2", shoe=poor).to_json()["equilibria"][0]["player"]["draw_at_5"]
'1919432/2508333'
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from . import params
from .errors import BaccaraError
from .games.chemin.game import FIVES, MODELS, CheminGame, CheminGame3, chemin_game
from .games.chemin.model3 import Chemin3Solution, Chemin3Sweep, solve_chemin3, sweep_chemin3
from .games.chemin.solution import CheminSolution, CheminSweep, solve_chemin, sweep_chemin
from .shoe import Shoe

__all__ = ["FIVES", "MODELS", "CheminGame", "CheminGame3", "CheminSolution", "CheminSweep", "Chemin3Solution",
           "Chemin3Sweep", "game", "solve", "sweep"]


def _shoe(decks: Any, shoe: Shoe | None) -> int | None | Shoe:
    return params.decks_or_shoe(decks, shoe, default=6)


def game(model: str = "B2", decks: int | str | None = None, *, shoe: Shoe | None = None) -> CheminGame | CheminGame3:
    """The chemin de fer game under ``model`` on a shoe.

    Parameters
    ----------
    model : str
        A1, A2, A3, B1, B2 or B3.
    decks : int or str, optional
        Fresh decks, or ``"inf"`` for the infinite shoe (default 6); not with ``shoe``.
    shoe : Shoe, optional
        Any shoe: a depleted one, a composition by rank or by value.

    Returns
    -------
    CheminGame or CheminGame3
        The additive game of Models 1-2 (``.at(alpha)``, ``.linear()``) or the
        bilinear game of Model 3.
    """
    return chemin_game(model, _shoe(decks, shoe))


def solve(model: str = "B2", decks: int | str | None = None, commission: Any = Fraction(1, 20), *,
          shoe: Shoe | None = None, all_equilibria: bool = True) -> CheminSolution | Chemin3Solution:
    """Every Nash equilibrium at one commission, each with an exact certificate.

    Parameters
    ----------
    model : str
        A1, A2, A3, B1, B2 or B3.
    decks : int or str, optional
        Fresh decks, or ``"inf"`` (default 6); not with ``shoe``.
    commission : Fraction, int, float or str
        Alpha, in [0, 1): ``"1/20"``, ``0.05``, ``"5%"``.
    shoe : Shoe, optional
        Any shoe instead of fresh decks.
    all_equilibria : bool
        Model 3: enumerate every extreme equilibrium (settles uniqueness); False
        finds one by Ethier and Lee's route.  Models 1-2 always enumerate them
        (Foster's algorithm).

    Returns
    -------
    CheminSolution or Chemin3Solution
        The equilibria and certificates (``to_json()``, ``show()``).
    """
    alpha = params.commission(commission, "commission")
    g = game(model, decks, shoe=shoe)
    if isinstance(g, CheminGame3):
        return solve_chemin3(g.model, g.decks, alpha, all_equilibria=all_equilibria)
    return solve_chemin(g.model, g.decks, alpha)


def sweep(model: str = "B2", decks: int | str | None = None, lo: Any = 0, hi: Any = Fraction(1, 10), *,
          shoe: Shoe | None = None) -> CheminSweep | Chemin3Sweep:
    """The exact structure of the equilibria over the commission alpha in [lo, hi].

    Parameters
    ----------
    model : str
        A1, A2, A3, B1, B2 or B3 (Model A3's equilibria are Model A1's: its sweep says so).
    decks : int or str, optional
        Fresh decks, or ``"inf"`` (default 6); not with ``shoe``.
    lo, hi : Fraction, int, float or str
        The commission range, 0 <= lo < hi < 1.
    shoe : Shoe, optional
        Any shoe instead of fresh decks.

    Returns
    -------
    CheminSweep or Chemin3Sweep
        Best-response-discontinuity curves, their intersections, the equilibrium on
        every alpha-interval and the exceptional alphas.
    """
    a, b = params.commission(lo, "lo"), params.commission(hi, "hi")
    if a >= b:
        raise BaccaraError(f"lo must be below hi, got {a} and {b}")
    g = game(model, decks, shoe=shoe)
    if g.model == "B3":
        assert g.decks is not None  # Model B: a finite shoe
        return sweep_chemin3(g.decks, a, b)
    return sweep_chemin(g.model, g.decks, a, b)  # Model A3 is swept as A1 (and says so)
