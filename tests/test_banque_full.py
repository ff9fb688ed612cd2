"""Baccara banque's full models (Player 2 sees what Player 1 shows): the correlated
cooperative equilibrium by certified column generation."""

import json
import random
from fractions import Fraction as F
from functools import cache

import pytest
from typer.testing import CliRunner

from baccara.cli import app
from baccara.games.banque.full import full_correlated_equilibrium, team_game

runner = CliRunner()


# ---------------------------------------------------------------- an oracle apart from the solver
# Ethier and Lee (2015), section 1's rules, dealt with replacement (their model, after Kemeny and Snell): a
# card's value is 0 with probability 4/13 (10, J, Q, K) and 1-9 with 1/13 each.  If Banker or both Players
# have naturals (8 or 9), play ends; a Player with the only natural wins; otherwise a Player draws on 0-4,
# stands on 6-7 and chooses at 5, and Banker, seeing each Player's third card (10: stood, 11: natural) and his
# own total j, draws or stands.  Everything is counted here in whole units of 13^-9 (three hands, each two
# cards and a third card or not), from the card weights alone.
WEIGHT = (4, 1, 1, 1, 1, 1, 1, 1, 1, 1)
TWO = tuple(sum(WEIGHT[a] * WEIGHT[b] for a in range(10) for b in range(10) if (a + b) % 10 == t) for t in range(10))


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


@cache
def _hand(draws_at_5: int) -> dict[int, tuple[tuple[int, int], ...]]:
    """A Player's hand: {k: ((final total, weight out of 13^3), ...)}, k his third card (10 stood, 11 natural)."""
    out: dict[int, list] = {}
    for t in range(10):
        if t >= 8:
            out.setdefault(11, []).append((t, 13 * TWO[t]))
        elif t <= 4 or (t == 5 and draws_at_5):
            for c in range(10):
                out.setdefault(c, []).append(((t + c) % 10, TWO[t] * WEIGHT[c]))
        else:
            out.setdefault(10, []).append((t, 13 * TWO[t]))
    return {k: tuple(v) for k, v in out.items()}


def _against(finals, natural: bool, j: int) -> tuple[int, int]:
    """A hand's results against Banker's two-card total j < 8 (x 13 for Banker's third card or none):
    Banker standing, Banker drawing.  A natural wins either way."""
    if natural:
        won = 13 * sum(w for _, w in finals)
        return won, won
    stand = sum(w * 13 * _sign(f - j) for f, w in finals)
    draw = sum(w * WEIGHT[c] * _sign(f - (j + c) % 10) for f, w in finals for c in range(10))
    return stand, draw


@cache
def oracle_cells(theta, u1: int, k1: int, b: int) -> dict[tuple[int, int], tuple]:
    """{(k2, j): (Banker stands, Banker draws)}: the Players' expectation x 13^9 (theta on Player 1's hand) over
    the deals with Player 1 drawing at 5 when u1, showing k1, Player 2 drawing at 5 when b, Banker's total j < 8."""
    h1 = _hand(u1).get(k1, ())
    w1 = sum(w for _, w in h1)
    out = {}
    for k2, h2 in _hand(b).items():
        w2 = sum(w for _, w in h2)
        for j in range(8):
            s1, d1 = _against(h1, k1 == 11, j)
            s2, d2 = _against(h2, k2 == 11, j)
            out[(k2, j)] = (TWO[j] * (theta * w2 * s1 + (1 - theta) * w1 * s2),
                            TWO[j] * (theta * w2 * d1 + (1 - theta) * w1 * d2))
    return out


def oracle_banker_natural(theta) -> F:
    """The deals where Banker has a natural (x 13^9): every hand's two cards compared, no one moves."""
    return sum((13 * TWO[t1]) * (13 * TWO[t2]) * (13 * TWO[j]) * (theta * _sign(t1 - j) + (1 - theta) * _sign(t2 - j))
               for t1 in range(10) for t2 in range(10) for j in (8, 9))


#: Player 2's move at 5 by what he sees of Player 1 (k1 = 0-9 his third card, 10 stood, 11 natural): the classes
CLASS_OF = {"simplified": (0,) * 12, "recent": (0,) * 10 + (1, 2), "traditional": tuple(range(12))}


def oracle_payoff(theta, model: str, u1: int, bits, q: dict) -> F:
    """The Players' expectation for the team strategy (u1, bits) against Banker drawing with probability
    q[(k1, k2, j)]."""
    total = oracle_banker_natural(theta)
    for k1 in range(12):
        for (k2, j), (s, d) in oracle_cells(theta, u1, k1, bits[CLASS_OF[model][k1]]).items():
            x = q.get((k1, k2, j), 0)
            total += s + x * (d - s)
    return F(total) / 13**9


def oracle_best_reply(theta, model: str, q: dict) -> F:
    """The team's best pure reply to q: Player 2's move in each class of what he sees is chosen apart."""
    classes = CLASS_OF[model]
    best = None
    for u1 in (0, 1):
        total = F(oracle_banker_natural(theta))
        for c in sorted(set(classes)):
            total += max(sum(s + q.get((k1, k2, j), 0) * (d - s)
                             for k1 in range(12) if classes[k1] == c
                             for (k2, j), (s, d) in oracle_cells(theta, u1, k1, b).items()) for b in (0, 1))
        best = total if best is None else max(best, total)
    return best / 13**9


def oracle_guaranteed(theta, model: str, mixture: dict) -> F:
    """What the team's mixture {(u1, bits): weight} guarantees: Banker's best reply stands or draws at each
    (k1, k2, j) apart (his move there changes only those deals)."""
    total = F(oracle_banker_natural(theta)) * sum(mixture.values())
    for k1 in range(12):
        cell_sums: dict = {}
        for (u1, bits), wt in mixture.items():
            for key, (s, d) in oracle_cells(theta, u1, k1, bits[CLASS_OF[model][k1]]).items():
                a, b = cell_sums.get(key, (0, 0))
                cell_sums[key] = (a + wt * s, b + wt * d)
        total += sum(min(s, d) for s, d in cell_sums.values())
    return total / 13**9


def banker_q(sol) -> dict:
    """Banker's draw probabilities by (k1, k2, j), from the solution's q over the information sets."""
    return {k: x for k, x in zip(sol.game.source.infosets, sol.solution.q) if x}


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
    guaranteed_by_team, held_by_banker = brute_force(theta, "recent", sol)
    assert guaranteed_by_team == sol.value
    assert held_by_banker == sol.value


EXTREME_THETAS = [F(1, 10**6), F(1, 10000), F(1, 5000), F(1, 1000), F(999999, 10**6), F(1, 2), F(49, 100)]


@pytest.mark.parametrize("theta", EXTREME_THETAS, ids=str)
def test_recent_model_certified_at_extreme_theta(theta):
    # Before the exact simplex: at 1/10000 the certificate failed, at 1/10**6 and 999999/10**6
    # the column generation stalled (the restricted game was not solved exactly).
    sol = full_correlated_equilibrium(theta, "recent")
    assert sol.certified and sol.solution.certified
    # by the oracle over all 16 team strategies, independently of the column generation
    guaranteed_by_team, held_by_banker = brute_force(theta, "recent", sol)
    assert guaranteed_by_team == sol.value == held_by_banker


@pytest.mark.parametrize("theta", [F(1, 10000), F(999999, 10**6), F(49, 100)], ids=str)
def test_traditional_model_certified_at_extreme_theta(theta):
    # Before: at 1/10000 the basis search enumerated subsets of up to 2m + 2 = 58 sets (no
    # answer in 2 minutes, none in 15 at 1/10**6); at 999999/10**6 the column generation stalled.
    sol = full_correlated_equilibrium(theta, "traditional")
    assert sol.certified and sol.best_reply_value == sol.value
    assert brute_force(theta, "traditional", sol) == (sol.value, sol.value)   # the oracle, over all 2^13
    # Player 2 seeing more of Player 1's hand can only help the Players
    simplified = full_correlated_equilibrium(theta, "simplified").value
    assert simplified <= full_correlated_equilibrium(theta, "recent").value <= sol.value


def test_traditional_best_reply_oracle_against_sampled_strategies():
    # The solver's best reply (per class, by additivity) is the best of all 2^13 team strategies, as the oracle
    # prices them; a few priced one by one are no better.
    theta = F(1, 2)
    sol = full_correlated_equilibrium(theta, "traditional")
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

    from baccara.games.banque.full import full_correlated_equilibrium
    from baccara.games.banque.game import INFOSETS, infoset_label

    r = full_correlated_equilibrium(F(1, 2), "recent")
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
