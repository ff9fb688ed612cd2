"""The public API: ``import baccara`` reaches every game, and the documented examples run."""

from __future__ import annotations

import doctest
from fractions import Fraction

import pytest

import baccara
from baccara.errors import BaccaraError


def test_the_games_are_reached_from_the_package():
    assert baccara.chemin.solve("B2", decks=6, commission="1/20").unique
    assert hasattr(baccara.sim, "simulate_punto")
    with pytest.raises(AttributeError):
        baccara.nothing_here  # noqa: B018


@pytest.mark.parametrize("module", ["baccara.chemin", "baccara.banque"])
def test_docstring_examples_run(module):
    import importlib

    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0


def test_chemin_api_checks_its_parameters():
    with pytest.raises(BaccaraError, match="commission must be in"):
        baccara.chemin.solve(commission=1)
    with pytest.raises(BaccaraError, match="decks or shoe, not both"):
        baccara.chemin.solve(decks=6, shoe=baccara.Shoe.decks(6))
    with pytest.raises(BaccaraError, match="lo must be below hi"):
        baccara.chemin.sweep(lo="1/10", hi="1/20")
    assert baccara.chemin.solve(commission=0.05).to_json() == baccara.chemin.solve(commission=Fraction(1, 20)).to_json()


def test_banque_api():
    from baccara.games.banque.correlated import correlated_equilibrium

    assert baccara.banque.correlated("1/2").value == correlated_equilibrium(Fraction(1, 2)).value
    six = baccara.banque.game(6)
    assert baccara.banque.game(shoe=baccara.Shoe.decks(6)) is six
    sol = baccara.banque.correlated(0.5, game=six)
    assert sol.to_json()["shoe"] == {"kind": "decks", "decks": 6, "cards": 312}
    assert "6 decks" in repr(sol) and "Table 1" in sol._repr_html_()
    with pytest.raises(BaccaraError, match="theta"):
        baccara.banque.correlated(1)
    with pytest.raises(BaccaraError, match="not both"):
        baccara.banque.correlated(decks=6, shoe=baccara.Shoe.decks(6))
    with pytest.raises(BaccaraError, match="decks"):
        baccara.banque.game(20)
