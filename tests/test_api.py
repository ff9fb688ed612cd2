"""The public API: ``import baccara`` reaches every game, and the documented examples run."""

from __future__ import annotations

import doctest
from fractions import Fraction

import pytest

import baccara
from baccara.banque.model import banque_game
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
    from baccara.banque.correlated_eq.solution import correlated_equilibrium

    assert baccara.banque.correlated("1/2").value == correlated_equilibrium(banque_game(), Fraction(1, 2)).value
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


def test_punto_banco_results_are_the_commands_documents():
    # edge_report / removal_report are what `baccara edge` and `baccara eor` print, and agree
    # with the exact functions they are built on
    import json

    from typer.testing import CliRunner

    from baccara.cli import app

    shoe = baccara.Shoe.decks(6).remove("9", n=3)
    rep = baccara.edge_report(shoe)
    direct = baccara.evaluate(shoe)
    assert {n: r.edge for n, r in rep.results.items()} == {n: r.edge for n, r in direct.items()}
    assert sum(Fraction(v) for v in rep.to_json()["outcomes"].values()) == 1
    assert "Banker" in repr(rep) and "house edge" in rep._repr_html_()
    r = CliRunner().invoke(app, ["edge", "--decks", "6", "--remove", "9,9,9", "--json"])
    assert r.exit_code == 0 and json.loads(r.stdout) == rep.to_json() | {
        "parameters": {"commission": "1/20", "tie_pays": "8/1", "super6_pays": "12/1"}}
    # a shoe known only by value cannot price the pairs: they are skipped, with the reason
    by_value = baccara.edge_report(baccara.Shoe.from_values([128] + [32] * 9))
    assert "player_pair" in by_value.skipped and "player_pair" not in by_value.results
    assert by_value.to_json()["skipped"]["player_pair"] == "needs a shoe known by rank"
    tie = baccara.builtin_bets()["tie"]
    eor = baccara.removal_report(baccara.Shoe.decks(8), tie)
    base, effects = baccara.effects_of_removal(baccara.Shoe.decks(8), tie)
    assert eor.edge == base and eor.effects == effects and "tie" in repr(eor)
    r = CliRunner().invoke(app, ["eor", "--bet", "tie", "--decks", "8", "--json"])
    assert r.exit_code == 0 and json.loads(r.stdout) == eor.to_json()
    with pytest.raises(BaccaraError, match="shoe must be a baccara.Shoe"):
        baccara.edge_report(6)  # type: ignore[arg-type]
