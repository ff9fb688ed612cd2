"""Baccara banque's full models (Player 2 sees what Player 1 shows): the correlated
cooperative equilibrium by certified column generation."""

import json
import random
from fractions import Fraction as F
from itertools import product

import pytest
from typer.testing import CliRunner

from baccara.cli import app
from baccara.games.banque_full import full_correlated_equilibrium, team_game
from baccara.solve.zero_sum import best_reply_I, guaranteed

runner = CliRunner()


def test_simplified_by_column_generation_is_seed_004():
    # Seed 004, (17)-(18): p = (0, 110/543, 110/543, 323/543), value -16655514960/(181 13^9).
    sol = full_correlated_equilibrium(F(1, 2), "simplified")
    assert sol.certified and sol.value == F(-16655514960, 181 * 13**9)
    assert sol.to_json()["players"] == {"S|D": "110/543", "D|S": "110/543", "D|D": "323/543"}


@pytest.mark.parametrize("theta", [F(1, 2), F(3, 10)])
def test_more_information_helps_the_players(theta):
    # Player 2 knowing more of Player 1's hand can only raise the coalition's value.
    v = {m: full_correlated_equilibrium(theta, m) for m in ("simplified", "recent", "traditional")}
    assert all(s.certified for s in v.values())
    assert v["simplified"].value < v["recent"].value < v["traditional"].value < 0


def test_recent_model_certificate_by_brute_force():
    # All 16 team strategies of the recent model, independently of the column generation:
    # the team's mixture guarantees the value and Banker's q holds every one of them to it.
    theta = F(1, 2)
    sol = full_correlated_equilibrium(theta, "recent")
    game = team_game(theta, "recent")
    cols = [(u1, bits) for u1 in (0, 1) for bits in product((0, 1), repeat=3)]
    built = [game.column(*c) for c in cols]
    a = [c[0] for c in built]
    h = [tuple(c[1][i] for c in built) for i in range(len(game.set_class))]
    p = [dict(zip(sol.columns, sol.solution.p)).get(c, F(0)) for c in cols]
    assert guaranteed(a, h, p) == sol.value
    assert max(best_reply_I(a, h, sol.solution.q)) == sol.value


def test_traditional_best_reply_oracle_against_sampled_strategies():
    # The oracle's best reply (per class, by additivity) beats 300 random team strategies.
    theta = F(1, 2)
    sol = full_correlated_equilibrium(theta, "traditional")
    game = team_game(theta, "traditional")
    q = sol.solution.q
    best, _ = game.best_reply(q)
    assert best == sol.value
    rng = random.Random(4)
    for _ in range(300):
        col = (rng.randint(0, 1), tuple(rng.randint(0, 1) for _ in range(12)))
        a, h = game.column(*col)
        assert a + sum((qi * hi for qi, hi in zip(q, h) if qi), F(0)) <= best


def test_cli_full_model_json_and_errors():
    r = runner.invoke(app, ["banque", "solve", "--theta", "1/2", "--model", "recent", "--json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert doc["model"] == "recent" and doc["certificate"]["holds"] and doc["player2_information"] == [
        "drew", "stood", "natural"]
    assert sum(F(w) for w in doc["players"].values()) == 1
    r = runner.invoke(app, ["banque", "solve", "--model", "traditional", "--concept", "independent"])
    assert r.exit_code == 2 and "error:" in r.output
    r = runner.invoke(app, ["banque", "solve", "--model", "bogus"])
    assert r.exit_code == 2 and "error: --model" in r.output
