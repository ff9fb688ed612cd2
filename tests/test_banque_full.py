"""Baccara banque's full models (Player 2 sees what Player 1 shows): the correlated
cooperative equilibrium by certified column generation."""

import json
import random
from fractions import Fraction as F

import pytest
from typer.testing import CliRunner

from baccara.banque.full_models import full_correlated_equilibrium, team_game
from baccara.banque.model import banque_game
from baccara.cli import app

from .banque_oracle import banker_q, oracle_best_reply, oracle_guaranteed, oracle_payoff

runner = CliRunner()


def brute_force(theta, model, sol):
    """By the oracle, apart from the column generation and its payoffs: what the team's mixture guarantees,
    and what Banker's q holds the team's best pure strategy to."""
    mixture = {c: w for c, w in zip(sol.columns, sol.solution.p) if w}
    return oracle_guaranteed(theta, model, mixture), oracle_best_reply(theta, model, banker_q(sol))


def test_the_oracle_gives_ethier_lee_2015_solution():
    # The oracle checks the paper's own solution at theta = 1/2 (section 3): Banker drawing as Table 1 says
    # (mixing 5121/5792 at (6,10,6) and (10,6,6)) holds SD, DS and DD to -16655514960/(181 13^9) and SS
    # below it, and the Players' p = (0, 110/543, 110/543, 323/543) guarantees that value.
    from .test_banque import TABLE1

    half, value = F(1, 2), F(-16655514960, 181 * 13**9)
    q = {}
    for k1, row in enumerate(TABLE1.strip().splitlines()):
        for k2, entry in enumerate(row.split()):
            top = int(entry.rstrip("+"))
            q.update({(k1, k2, j): F(1) for j in range(top + 1)})
            if entry.endswith("+"):
                q[(k1, k2, top + 1)] = F(5121, 5792)
    pays = {(u1, u2): oracle_payoff(half, "simplified", u1, (u2,), q) for u1 in (0, 1) for u2 in (0, 1)}
    assert pays[0, 1] == pays[1, 0] == pays[1, 1] == value > pays[0, 0]
    mixture = {(0, (1,)): F(110, 543), (1, (0,)): F(110, 543), (1, (1,)): F(323, 543)}
    assert oracle_guaranteed(half, "simplified", mixture) == value == oracle_best_reply(half, "simplified", q)


def test_simplified_by_column_generation_is_ethier_lee_2015():
    # Ethier and Lee (2015), (17)-(18): p = (0, 110/543, 110/543, 323/543), value -16655514960/(181 13^9).
    sol = full_correlated_equilibrium(banque_game(), F(1, 2), "simplified")
    assert sol.certified and sol.value == F(-16655514960, 181 * 13**9)
    assert sol.to_json()["players"] == {"S|D": "110/543", "D|S": "110/543", "D|D": "323/543"}


@pytest.mark.parametrize("theta", [F(1, 2), F(3, 10)])
def test_more_information_helps_the_players(theta):
    # Player 2 knowing more of Player 1's hand can only raise the coalition's value.
    v = {m: full_correlated_equilibrium(banque_game(), theta, m) for m in ("simplified", "recent", "traditional")}
    assert all(s.certified for s in v.values())
    assert v["simplified"].value < v["recent"].value < v["traditional"].value < 0


def test_recent_model_certificate_by_brute_force():
    # All 16 team strategies of the recent model, independently of the column generation:
    # the team's mixture guarantees the value and Banker's q holds every one of them to it.
    theta = F(1, 2)
    sol = full_correlated_equilibrium(banque_game(), theta, "recent")
    guaranteed_by_team, held_by_banker = brute_force(theta, "recent", sol)
    assert guaranteed_by_team == sol.value
    assert held_by_banker == sol.value


EXTREME_THETAS = [F(1, 10**6), pytest.param(F(1, 10000), marks=pytest.mark.slow),
                  pytest.param(F(1, 5000), marks=pytest.mark.slow), pytest.param(F(1, 1000), marks=pytest.mark.slow),
                  F(999999, 10**6), pytest.param(F(1, 2), marks=pytest.mark.slow), F(49, 100)]


@pytest.mark.parametrize("theta", EXTREME_THETAS, ids=str)
def test_recent_model_certified_at_extreme_theta(theta):
    # Before the exact simplex: at 1/10000 the certificate failed, at 1/10**6 and 999999/10**6
    # the column generation stalled (the restricted game was not solved exactly).
    sol = full_correlated_equilibrium(banque_game(), theta, "recent")
    assert sol.certified and sol.solution.certified
    # by the oracle over all 16 team strategies, independently of the column generation
    guaranteed_by_team, held_by_banker = brute_force(theta, "recent", sol)
    assert guaranteed_by_team == sol.value == held_by_banker


@pytest.mark.parametrize("theta", [pytest.param(F(1, 10000), marks=pytest.mark.slow), F(999999, 10**6),
                                   pytest.param(F(49, 100), marks=pytest.mark.slow)], ids=str)
def test_traditional_model_certified_at_extreme_theta(theta):
    # Before: at 1/10000 the basis search enumerated subsets of up to 2m + 2 = 58 sets (no
    # answer in 2 minutes, none in 15 at 1/10**6); at 999999/10**6 the column generation stalled.
    sol = full_correlated_equilibrium(banque_game(), theta, "traditional")
    assert sol.certified and sol.best_reply_value == sol.value
    assert brute_force(theta, "traditional", sol) == (sol.value, sol.value)   # the oracle, over all 2^13
    # Player 2 seeing more of Player 1's hand can only help the Players
    simplified = full_correlated_equilibrium(banque_game(), theta, "simplified").value
    assert simplified <= full_correlated_equilibrium(banque_game(), theta, "recent").value <= sol.value


def test_traditional_best_reply_oracle_against_sampled_strategies():
    # The solver's best reply (per class, by additivity) is the best of all 2^13 team strategies, as the oracle
    # prices them; a few priced one by one are no better.
    theta = F(1, 2)
    sol = full_correlated_equilibrium(banque_game(), theta, "traditional")
    game = team_game(theta, "traditional")
    best, (u1, bits) = game.best_reply(sol.solution.q)
    q = banker_q(sol)
    assert best == sol.value == oracle_best_reply(theta, "traditional", q) == oracle_payoff(theta, "traditional", u1,
                                                                                             bits, q)
    rng = random.Random(4)
    for _ in range(20):
        u1, bits = rng.randint(0, 1), tuple(rng.randint(0, 1) for _ in range(12))
        assert oracle_payoff(theta, "traditional", u1, bits, q) <= best


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


def test_the_move_at_an_exact_tie_is_reported_and_needed():
    # recent model, theta = 1/2: the team's mixture leaves Banker exactly indifferent at sets where
    # his minimax q plays pure.  Each such move is reported, and it matters: the other move there
    # lets some team pure strategy earn more than the value (so "stand on ties" would not attain it).
    from fractions import Fraction as F

    from baccara.banque.full_models import full_correlated_equilibrium
    from baccara.banque.model import INFOSETS, infoset_label

    r = full_correlated_equilibrium(banque_game(), F(1, 2), "recent")
    ties = r.banker_ties
    assert ties
    doc = r.to_json()
    assert doc["banker"]["indifferent_pure"] == {infoset_label(INFOSETS[i]): "draw" if m else "stand"
                                                 for i, m in ties.items()}
    assert any("must" in str(line) for line in r.renderables())
    cols = [r.game.column(*c)[1] for c in r.columns]
    q = list(r.solution.q)
    assert r.game.best_reply(q)[0] == r.value
    for i, m in ties.items():
        assert sum((w * h[i] for w, h in zip(r.solution.p, cols) if w), F(0)) == 0
        flipped = list(q)
        flipped[i] = 1 - m
        assert r.game.best_reply(flipped)[0] > r.value
