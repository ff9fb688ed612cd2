"""The checker's plain count of chemin de fer deals against the solver's compiled kernel.

Two independent derivations of Model 3's payoff sums (Ethier and Lee 2023,
section 4) must agree exactly.  At d = 8 the solver does not count at all: it
evaluates the degree-6 interpolating polynomial in d from d = 1..7, so this
also checks that interpolation against a direct count.
"""

from __future__ import annotations

import pytest

from baccara.check.chemin_deals import model3_coefficients
from baccara.chemin.model import chemin_game


@pytest.mark.parametrize("decks", [1, 2, pytest.param(8, marks=pytest.mark.slow), None])
def test_plain_count_equals_solver(decks):
    mine = model3_coefficients(decks)
    game = chemin_game("B3", decks)
    assert mine["keys"] == [[list(hand), k] for hand, k in game.keys]
    assert mine["G"] == [list(r) for r in game.G]
    assert mine["H"] == [list(r) for r in game.H]
    assert mine["base_sgn"] == list(game.base_sgn)
    assert mine["base_win"] == list(game.base_win)
    assert mine["deals"] == game.deals


def test_one_deck_sums_lie_within_the_deals():
    """With Banker standing everywhere and Player standing at 5, Banker wins on fewer deals than there
    are, and his net (wins minus losses) is smaller than his wins; one deck has (52)_6 ordered deals."""
    c = model3_coefficients(1)
    assert c["deals"] == 52 * 51 * 50 * 49 * 48 * 47
    assert 0 < c["base_win"][0] < c["deals"]
    assert abs(c["base_sgn"][0]) < c["base_win"][0]


def test_bad_decks():
    with pytest.raises(ValueError, match="decks must be"):
        model3_coefficients(0)
