"""Macao and Victoria: the exact engine against a brute-force oracle, best responses, the certified solution, the CLI."""

import json
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from baccara.cli import app
from baccara.macao.brute import brute_distribution
from baccara.macao.engine import (
    banker_best_response,
    distribution,
    expected_payoff,
    punter_best_response,
    table,
    threshold,
)
from baccara.macao.model import macao_game
from baccara.macao.solution import solve_macao
from baccara.macao.variants import VARIANTS
from baccara.sim.macao import simulate_macao

runner = CliRunner()
TINY = (2, 1, 1, 1, 1, 1, 1, 0, 1, 1)
FIRST_VARIANTS = ("macao", "macao-early", "victoria", "victoria-early")   # the new ones: tests at the end


def random_strategy(seed: int, den: int = 4):
    rnd = random.Random(seed)
    memo: dict = {}
    return lambda key: memo.setdefault(key, Fraction(rnd.randint(0, den), den))


@settings(max_examples=8, deadline=None)
@given(variant=st.sampled_from(sorted(VARIANTS)), seed=st.integers(0, 10**6),
       counts=st.lists(st.integers(0, 2), min_size=10, max_size=10).filter(lambda c: 6 <= sum(c) <= 9))
@pytest.mark.slow  # over 10 CPU-s; the slow job runs it
def test_engine_equals_brute_force(variant, seed, counts):
    counts = tuple(counts)
    g = macao_game(variant, counts)
    if g.N < g.T:
        return
    p, b = random_strategy(seed), random_strategy(seed + 1, 3)
    assert distribution(g, p, b) == brute_distribution(g.rules, counts, p, b)


@pytest.mark.parametrize("variant", [pytest.param(v, marks=pytest.mark.slow) if v == "macao" else v
                                     for v in FIRST_VARIANTS])   # slow: Macao's 2 decks, over 10 CPU-s
def test_best_responses_are_best_and_attained(variant):
    g = macao_game(variant, TINY)
    p, b = random_strategy(7), random_strategy(8)
    vb, reply_b = banker_best_response(g, p)
    vp, reply_p = punter_best_response(g, b)
    # the replies attain their values (checked by the brute-force oracle, independent of the engine)
    assert brute_distribution(g.rules, TINY, p, table(reply_b))["ev"] == vb
    assert brute_distribution(g.rules, TINY, table(reply_p), b)["ev"] == vp
    # and nothing else does better
    for s in range(3):
        assert expected_payoff(g, p, random_strategy(100 + s)) >= vb
        assert expected_payoff(g, random_strategy(200 + s), b) <= vp
    assert expected_payoff(g, threshold(5), b) <= vp


@pytest.mark.parametrize("variant", [pytest.param(v, marks=pytest.mark.slow) if v == "macao" else v
                                     for v in FIRST_VARIANTS])  # macao alone is about 90 CPU-s: the slow job
def test_solution_brackets_the_value_on_a_small_shoe(variant):
    sol = solve_macao(macao_game(variant, (3, 1, 1, 1, 1, 1, 1, 1, 1, 1)))
    # the certificate, recomputed here from the strategies alone
    lo, _ = banker_best_response(sol.game, table(sol.punter))
    hi, _ = punter_best_response(sol.game, table(sol.banker))
    assert (lo, hi) == (sol.guaranteed, sol.conceded)
    assert lo <= sol.payoff <= hi and abs(float(hi - lo)) < 1e-12
    assert json.loads(sol.json())["certificate"]["holds"] is sol.certified


@pytest.mark.slow  # over 10 CPU-s; the slow job runs it
def test_victoria_two_decks_certified():
    sol = solve_macao(macao_game("victoria", 2))
    assert sol.certified
    lo, _ = banker_best_response(sol.game, table(sol.punter))     # the value, recomputed from the strategies
    hi, _ = punter_best_response(sol.game, table(sol.banker))
    assert lo == hi == sol.value
    assert sol.banker_edge < 0          # the punter, paid 3:1 and 2:1 on naturals, has the edge


@pytest.mark.slow
def test_macao_two_decks_certified():
    sol = solve_macao(macao_game("macao", 2))
    assert sol.certified
    lo, _ = banker_best_response(sol.game, table(sol.punter))     # the value, recomputed from the strategies
    hi, _ = punter_best_response(sol.game, table(sol.banker))
    assert lo == hi == sol.value


def test_simulation_agrees_with_the_exact_value():
    sol = solve_macao(macao_game("victoria-early", 2))
    r = simulate_macao(sol, 4000, seed=3)
    assert abs(r.z) < 4


def test_rules_are_data_and_payouts_options():
    g = macao_game("macao", TINY, natural9_pays=2)
    assert g.rules.natural9_pays == 2 and g.pays["win_natural9"] == 2


@pytest.mark.parametrize("args", [
    ["macao", "edge", "--variant", "baccarat"],
    ["macao", "edge", "--decks", "0"],
    ["macao", "solve", "--composition", "1,1,1,1,1,0,0,0,0,0"],
    ["macao", "edge", "--natural9-pays", "-1"],
    ["macao", "simulate", "--coups", "0"],
])
def test_bad_input_exits_2(args):
    r = runner.invoke(app, args)
    assert r.exit_code == 2, r.output


@pytest.mark.slow  # over 10 CPU-s; the slow job runs it
def test_cli_edge_json():
    r = runner.invoke(app, ["macao", "edge", "--variant", "victoria-early", "--json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    sol = solve_macao(macao_game("victoria-early", 2))     # the default shoe; its value is recomputed here
    lo, _ = banker_best_response(sol.game, table(sol.punter))
    hi, _ = punter_best_response(sol.game, table(sol.banker))
    assert lo == hi == sol.value
    assert doc["certificate"]["holds"] and Fraction(doc["banker_edge"]) == sol.banker_edge


@pytest.mark.slow  # a two-deck solve (about 20 CPU-s); the slow job runs it
def test_macao_early_two_decks_certified():
    sol = solve_macao(macao_game("macao-early", 2))
    assert sol.certified, sol.summary()
    lo, _ = banker_best_response(sol.game, table(sol.punter))     # recomputed independently of the solver
    hi, _ = punter_best_response(sol.game, table(sol.banker))
    assert lo == hi == sol.value


@pytest.mark.slow  # deciding uniqueness on two decks (about 30 CPU-s); the slow job runs it
def test_uniqueness_on_victoria_early():
    from baccara.macao.uniqueness import uniqueness

    assert solve_macao(macao_game("victoria-early", 2)).uniqueness is None  # not asked: not decided
    sol = solve_macao(macao_game("victoria-early", 2), decide_uniqueness=True)
    u = sol.uniqueness
    assert u is not None and u["punter"]["unique"] is True and u["punter"]["rank"] == u["punter"]["free_nodes"]
    # the banker's alternative is explicit; it is re-certified here by the exact best response
    assert u["banker"]["unique_on_path"] is False and u["unique"] is False
    assert json.loads(sol.json())["unique"] is False
    assert uniqueness(sol.game, sol.punter, sol.banker, sol.value) == u


def test_plot_writes_a_png(tmp_path):
    out = tmp_path / "v.png"
    r = runner.invoke(app, ["macao", "solve", "--variant", "victoria-early", "--plot", str(out)])
    assert r.exit_code == 0, r.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    r = runner.invoke(app, ["macao", "solve", "--variant", "victoria-early", "--plot", str(tmp_path / "v.txt")])
    assert r.exit_code == 2 and "--plot" in r.output


# ---------------------------------------------------------------------------------------------------------------
# The banker's natural bonus, the multiples per total and the published variants (Meyers Konversations-Lexikon
# 1908, the Russian rules, the four-deck French rules), the work estimate and --allow-long.

def _independent_value(counts, bust, ties, naturals, bonus, punter=None, banker=None):
    """One card each, at most one draw, no ten rejected: the game solved apart from the package.

    Its own enumeration of ordered deals in Fractions and its own LP (scipy's HiGHS): maximise
    ``bust(x) + sum t_(b,u)`` with ``t_(b,u)`` at most the banker's stand and draw payoffs in each of his
    information sets (his card b, the punter's up-card u or none), both linear in the punter's drawing
    probabilities x_h.  With ``punter`` (h -> probability of drawing) it returns instead, exactly, what that
    strategy guarantees (the banker's best reply); with ``banker`` ((b, u) -> probability) what it concedes.
    """
    import numpy as np
    from scipy.optimize import linprog

    N = sum(counts)

    def score(down, ups):
        t = down % 10 + sum(ups) if bust else (down + sum(ups)) % 10
        return (-1 if t > 9 else t), 1 + len(ups)

    def pay(p, b):
        (pt, pc), (bt, bc) = p, b
        if pt < 0:
            return Fraction(-1)
        if bt < 0 or pt > bt or (pt == bt and pc < bc):
            return Fraction(naturals.get(pt, 1)) if pc == 1 else Fraction(1)
        if pt == bt and pc == bc:
            return Fraction(0) if ties == "push" else Fraction(-1)
        if bonus and bc == 1:
            return -Fraction(naturals.get(bt, 1))
        return Fraction(-1)

    def deals(left, k):
        """Every ordered run of k cards with its probability."""
        if k == 0:
            yield (), Fraction(1)
            return
        n = sum(left)
        for v in range(10):
            if left[v]:
                rest = list(left)
                rest[v] -= 1
                for tail, p in deals(rest, k - 1):
                    yield (v,) + tail, Fraction(left[v], n) * p

    hands = [h for h in range(10) if counts[h]]
    # S[(b, u)][h] / D[(b, u)][h]: the banker stands / draws at (b, u) against the punter's h; busted[h]
    S: dict = {}
    D: dict = {}
    busted = {h: Fraction(0) for h in hands}
    for (h, b), p2 in deals(counts, 2):
        left = list(counts)
        left[h] -= 1
        left[b] -= 1
        for ups, pu in ((), Fraction(1)), *(((c,), Fraction(left[c], N - 2)) for c in range(10) if left[c]):
            pc = score(h, ups)
            if pc[0] < 0:
                busted[h] -= p2 * pu
                continue
            rest = list(left)
            for c in ups:
                rest[c] -= 1
            key = (b, ups[0] if ups else None)
            S.setdefault(key, {}).setdefault(h, Fraction(0))
            D.setdefault(key, {}).setdefault(h, Fraction(0))
            S[key][h] += p2 * pu * pay(pc, score(b, ()))
            D[key][h] += sum((p2 * pu * Fraction(rest[d], N - 2 - len(ups)) * pay(pc, score(b, (d,)))
                              for d in range(10) if rest[d]), Fraction(0))

    def w(x, h, u):      # the punter's weight on (h, u): stand with no up-card, or draw
        return x[h] if u is not None else 1 - x[h]

    if punter is not None:
        x = {h: Fraction(punter(h)) for h in hands}
        return sum((busted[h] * x[h] for h in hands), Fraction(0)) + sum(
            (min(sum((w(x, h, k[1]) * v for h, v in S[k].items()), Fraction(0)),
                 sum((w(x, h, k[1]) * v for h, v in D[k].items()), Fraction(0))) for k in S), Fraction(0))
    if banker is not None:
        total = Fraction(0)
        for h in hands:
            stand = sum(((1 - banker(k)) * S[k][h] + banker(k) * D[k][h] for k in S if k[1] is None and h in S[k]),
                        Fraction(0))
            draw = busted[h] + sum(((1 - banker(k)) * S[k][h] + banker(k) * D[k][h]
                                    for k in S if k[1] is not None and h in S[k]), Fraction(0))
            total += max(stand, draw)
        return total
    keys = list(S)
    nx, nt = len(hands), len(keys)
    c = np.zeros(nx + nt)
    c[:nx] = [-float(busted[h]) for h in hands]
    c[nx:] = -1.0
    rows, rhs = [], []
    for j, k in enumerate(keys):
        for side in (S, D):
            row = np.zeros(nx + nt)
            row[nx + j] = 1.0
            const = 0.0
            for h, v in side[k].items():
                i = hands.index(h)
                if k[1] is None:        # (1 - x_h) v
                    const += float(v)
                    row[i] += float(v)
                else:                   # x_h v
                    row[i] -= float(v)
            rows.append(row)
            rhs.append(const)
    res = linprog(c, A_ub=np.array(rows), b_ub=np.array(rhs),
                  bounds=[(0, 1)] * nx + [(None, None)] * nt, method="highs")
    assert res.status == 0, res.message
    return -res.fun


SMALL_SHOES = [(2, 1, 1, 1, 1, 1, 1, 0, 1, 1), (3, 1, 2, 1, 1, 2, 1, 1, 2, 2)]


@pytest.mark.parametrize("counts", SMALL_SHOES)
@pytest.mark.parametrize("variant", ["macao-meyer", "macao-russian"])
def test_banker_bonus_against_an_lp_written_apart(variant, counts):
    # Meyer's rules (over 9 loses, 9 pays double both ways, equal points and cards to the banker) and the
    # Russian (9, 8, 7 pay 3, 2, 1 both ways, modulo 10), with the banker's bonus, one draw, no ten rejected:
    # the package's exact certified value against an enumeration and LP that share none of its code
    rules = VARIANTS[variant]
    sol = solve_macao(macao_game(variant, counts, draws=1, reject_tens=False))
    assert sol.certified and sol.game.rules.banker_bonus
    args = (counts, rules.totals == "bust", rules.ties, dict(rules.naturals), True)
    assert abs(_independent_value(*args) - float(sol.value)) < 1e-12
    # the package's optimal strategies, scored by the independent code, guarantee and concede the value exactly
    assert _independent_value(*args, punter=lambda h: sol.punter.get(((h,), "d", (), 0), 0)) == sol.value
    assert _independent_value(*args, banker=lambda k: sol.banker.get(
        ((k[0],), () if k[1] is None else (k[1],), 0, "d", (), 0), 0)) == sol.value


@pytest.mark.parametrize("counts", SMALL_SHOES)
def test_without_the_bonus_the_lp_written_apart_agrees_too(counts):
    sol = solve_macao(macao_game("macao", counts, draws=1, reject_tens=False))
    assert abs(_independent_value(counts, False, "banker", {9: 3, 8: 2}, False) - float(sol.value)) < 1e-12


@pytest.mark.parametrize("changes, value", [
    ({}, Fraction(930947, 6897189)),
    ({"natural9_pays": 2}, Fraction(436451, 6897189)),
    ({"decks": 1}, Fraction(114059, 812175)),
    ({"draws": 0}, Fraction(93, 1339)),
])
def test_the_punter_only_values_are_unchanged(changes, value):
    # Macao on two decks, one draw, only the punter's naturals paid: the four values reproduced exactly by an
    # independent solver (issue 35); the banker's bonus and the new variants leave them as they were
    changes = {"draws": 1, **changes}
    decks = changes.pop("decks", 2)
    sol = solve_macao(macao_game("macao", decks, **changes))
    assert sol.certified and sol.value == value
    assert set(sol.to_json()["outcomes"]) == {"win_natural9", "win_natural8", "win", "push", "lose"}


def test_the_banker_bonus_changes_the_sign_of_macao():
    # two decks, one draw: the punter's edge comes from the one-sided bonus; paid both ways it is the banker's
    plain = solve_macao(macao_game("macao", 2, draws=1))
    both = solve_macao(macao_game("macao", 2, draws=1, banker_bonus=True))
    assert plain.value > 0 > both.value and both.certified
    doc = both.to_json()
    assert doc["rules"]["banker_bonus"] is True and not doc["rules"]["as_named"]
    assert Fraction(doc["outcomes"]["lose_natural9"]) > 0 and Fraction(doc["outcomes"]["lose_natural8"]) > 0
    assert sum(Fraction(v) for v in doc["outcomes"].values()) == 1


def test_bonus_identities():
    # a multiple of 1 is an ordinary win: the Russian 7=1 changes nothing, nor does a bonus of even money
    counts = (3, 1, 1, 1, 1, 1, 1, 1, 1, 1)
    russian = solve_macao(macao_game("macao-russian", counts, draws=1)).value
    assert russian == solve_macao(macao_game("macao", counts, draws=1, banker_bonus=True)).value
    assert (solve_macao(macao_game("macao", counts, draws=1, naturals="9=1, 8=1", banker_bonus=True)).value
            == solve_macao(macao_game("macao", counts, draws=1, naturals={9: 1, 8: 1})).value)
    g = macao_game("macao", counts, naturals="9=3,8=2,7=1", banker_bonus=True)
    assert g.pays["lose_natural9"] == -3 and g.pays["win_natural7"] == 1 and g.rules.multiple(5) == 1


@pytest.mark.parametrize("variant", ["macao-meyer", "macao-four-decks"])
def test_new_variants_engine_equals_brute_force(variant):
    counts = (2, 0, 1, 1, 0, 1, 0, 1, 0, 1)          # 7 cards: 0+9, 2+7 make two-card nines, 0+7 a seven
    g = macao_game(variant, counts, draws=1)
    p, b = random_strategy(11), random_strategy(12, 3)
    assert distribution(g, p, b) == brute_distribution(g.rules, counts, p, b)


def test_new_variant_uniqueness_is_decided():
    sol = solve_macao(macao_game("macao-meyer", 2, draws=1), decide_uniqueness=True)
    assert sol.certified and sol.uniqueness is not None and isinstance(sol.uniqueness["unique"], bool)


def test_simulation_pays_the_banker_bonus():
    sol = solve_macao(macao_game("macao-meyer", 2, draws=1))
    assert abs(simulate_macao(sol, 4000, seed=5).z) < 4


def test_variants_name_their_sources():
    from baccara.macao.variants import CHOICES, SOURCES

    assert set(SOURCES) == set(VARIANTS) == set(CHOICES)
    assert "Meyers" in SOURCES["macao-meyer"] and "1908" in SOURCES["macao-meyer"]
    assert VARIANTS["macao-russian"].banker_bonus and VARIANTS["macao-russian"].naturals == {9: 3, 8: 2, 7: 1}
    assert VARIANTS["macao-four-decks"].decks == 4 and VARIANTS["macao-four-decks"].ties == "push"
    r = runner.invoke(app, ["macao", "--help"])
    assert r.exit_code == 0 and all(v in r.output for v in VARIANTS) and "Meyers" in r.output


@pytest.mark.parametrize("args, option", [
    (["--naturals", "9=3,10=2"], "--naturals"),
    (["--naturals", "9=0"], "--naturals"),
    (["--naturals", "9=3,9=2"], "--naturals"),
    (["--naturals", "9"], "--naturals"),
    (["--naturals", ","], "--naturals"),
    (["--naturals", "9=x"], "--naturals"),
    (["--naturals", "9=3", "--natural9-pays", "2"], "--naturals"),
    (["--draws", "5"], "--draws"),
])
def test_bad_naturals_exit_2_naming_the_option(args, option):
    r = runner.invoke(app, ["macao", "edge", "--draws", "1", *args])
    assert r.exit_code == 2 and option in r.output, r.output


def test_cli_banker_bonus_and_naturals():
    r = runner.invoke(app, ["macao", "edge", "--draws", "1", "--banker-bonus", "--naturals", "9=3,8=2,7=1", "--json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert doc["rules"]["naturals"] == {"9": "3", "8": "2", "7": "1"} and doc["rules"]["banker_bonus"]
    assert Fraction(doc["value_to_punter"]) == solve_macao(macao_game("macao-russian", 2, draws=1)).value
    r = runner.invoke(app, ["macao", "edge", "--variant", "macao-meyer", "--draws", "1", "--no-banker-bonus", "--json"])
    assert r.exit_code == 0 and json.loads(r.output)["rules"]["banker_bonus"] is False


def test_work_is_estimated_and_refused_past_the_limits():
    from baccara.macao.variants import macao_rules
    from baccara.macao.work import MEMORY_LIMIT, estimate_macao_work

    sizes = [estimate_macao_work(macao_rules("macao", draws=d)) for d in range(5)]
    assert all(a.terms < b.terms and a.bytes < b.bytes for a, b in zip(sizes, sizes[1:]))
    assert sizes[2].bytes < MEMORY_LIMIT < sizes[3].bytes      # 3 draws reached 7.2 GB before the LP gave up
    for draws in ("3", "4"):
        r = runner.invoke(app, ["macao", "solve", "--variant", "macao", "--draws", draws])
        assert r.exit_code == 2 and "--allow-long" in r.output and "--draws" in r.output, r.output
    r = runner.invoke(app, ["macao", "simulate", "--draws", "1", "--coups", "100000000", "--punters", "4"])
    assert r.exit_code == 2 and "--coups" in r.output, r.output


@pytest.mark.parametrize("variant", ["macao-meyer", "macao-russian", "macao-four-decks"])
def test_new_variants_certified_by_both_best_responses(variant):
    counts = (3, 1, 1, 1, 1, 1, 1, 1, 1, 1)
    sol = solve_macao(macao_game(variant, counts, draws=1))
    lo, reply_b = banker_best_response(sol.game, table(sol.punter))     # recomputed here from the strategies
    hi, reply_p = punter_best_response(sol.game, table(sol.banker))
    assert lo == hi == sol.payoff == sol.value and sol.certified
    if sol.game.rules.initial == 1:     # the best reply attains its value under the brute-force oracle
        assert brute_distribution(sol.game.rules, counts, table(sol.punter), table(reply_b))["ev"] == lo
