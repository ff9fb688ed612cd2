"""The count report (baccara.sim.count_analysis) and count design (baccara.sim.count_design):
exact where exact values exist, the same on every backend, and clear errors for bad input."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import numpy as np
import pytest
from typer.testing import CliRunner

from baccara import Shoe, builtin_bets, coup_distribution
from baccara.cli import app
from baccara.errors import BaccaraError
from baccara.punto.exact import evaluate_bets
from baccara.sim import run
from baccara.sim.count_analysis import CountJob, analyse_count, perfect_shoe, risk_of_ruin
from baccara.sim.count_design import betting_correlation, design_count, integer_tags
from baccara.sim.counting import BetRule, CountSystem, load_count_toml

BETS = builtin_bets()
runner = CliRunner()
DRAGON7 = "examples/counts/dragon7.toml"


def every_hand(bet: str) -> CountSystem:
    return CountSystem("always", (0.0,) * 13, (BetRule(bet, "true", -1e300),))


def test_a_count_that_bets_every_hand_has_the_exact_edge():
    r = analyse_count(every_hand("tie"), BETS["tie"], shoes=300, seed=5, perfect_shoes=0, workers=1)
    doc = r.to_json()
    c = doc["count_figures"]
    assert c["bets"] == c["hands"] and c["bet_frequency"]["value"] == 1
    exact = Fraction(doc["exact"]["ev_exact"])
    assert exact == evaluate_bets(coup_distribution(Shoe.decks(8)), [BETS["tie"]])["tie"].ev
    assert abs(c["z_edge_vs_exact_full_shoe"]) < 4
    assert abs(c["edge_when_betting"]["value"] - float(exact)) < 4 * c["edge_when_betting"]["stderr"]
    text = "".join(str(x) for x in r.renderables())
    assert "-14.3596%" in text  # the exact edge printed beside the simulated one
    assert "z = " in text
    # SD per bet of a bet placed every hand is the exact SD of one coup, within sampling error
    assert c["sd_per_bet"] == pytest.approx(doc["exact"]["sd"], rel=0.05)


def test_perfect_counter_edge_is_the_exact_engines_on_the_same_shoes():
    job = CountJob(seed=11, shoes=2, decks=1, bet=BETS["dragon7"], count=None, cut=14, chunk_size=8)
    shoes = [perfect_shoe(job, i) for i in range(2)]
    exact_sum, placed = Fraction(0), 0
    for d in shoes:
        for j in range(0, d.hands, 3):  # every third decision, priced again exactly by rank
            ranks = d.unseen[j].reshape(13, 4).sum(axis=1)
            ev = evaluate_bets(coup_distribution(Shoe.from_ranks([int(x) for x in ranks])), [BETS["dragon7"]])
            ev = ev["dragon7"].ev
            assert d.ev[j] == pytest.approx(float(ev), abs=1e-15)
            assert bool(d.placed[j]) == (ev > 0)
        for j in np.flatnonzero(d.placed):
            ranks = d.unseen[j].reshape(13, 4).sum(axis=1)
            exact_sum += evaluate_bets(coup_distribution(Shoe.from_ranks([int(x) for x in ranks])),
                                       [BETS["dragon7"]])["dragon7"].ev
            placed += 1
    total, _ = run(job, "threads", 1)
    assert total.sums["placed"] == placed > 0
    assert total.floats["ev"] == pytest.approx(float(exact_sum), abs=1e-12)


def _figures_hold(f: dict) -> None:
    """The report's figures follow from its counts as the report's definitions say (Schlesinger's DI, N0
    and SCORE from the win and SD per hand; the perfect counter's win per hand is its exact expectation)."""
    n, hands, bets = f["shoes"], f["hands"], f["bets"]
    win = f["win_per_shoe"]["value"] * n                      # units won in all
    assert f["hands_per_shoe"] == pytest.approx(hands / n) and f["bets_per_shoe"] == pytest.approx(bets / n)
    assert f["bet_frequency"]["value"] == pytest.approx(bets / hands)
    assert f["edge_when_betting"]["value"] == pytest.approx(win / bets)
    assert f["win_per_100_hands"]["value"] == pytest.approx(100 * win / hands)
    assert f["sd_per_hand"] == pytest.approx(f["sd_per_shoe"] / math.sqrt(hands / n))
    per_hand = f["expected"]["win_per_100_hands"] / 100 if "expected" in f else win / hands
    assert f["di"] == pytest.approx(1000 * per_hand / f["sd_per_hand"])
    assert f["n0"] == pytest.approx((f["sd_per_hand"] / per_hand) ** 2)
    assert f["score"] == pytest.approx(f["di"] ** 2)


def test_perfect_counter_in_the_report_bets_only_where_the_edge_is_positive():
    r = analyse_count(load_count_toml(DRAGON7), BETS["dragon7"], decks=2, shoes=40, seed=2, perfect_shoes=6,
                      workers=1)
    doc = r.to_json()
    p = doc["perfect"]
    assert p["expected"]["edge_when_betting"] > 0
    assert p["shoes"] == 6 and 0 < p["bets"] <= p["hands"]
    _figures_hold(p)
    _figures_hold(doc["count_figures"])
    # efficiency: the count's win per 100 hands over the perfect counter's expected one
    assert r.efficiency()["value"] == pytest.approx(doc["count_figures"]["win_per_100_hands"]["value"]
                                                    / p["expected"]["win_per_100_hands"])


def _strip(doc: dict) -> dict:
    doc = dict(doc)
    doc.pop("run")
    return doc


def test_same_result_on_threads_and_processes():
    system = load_count_toml(DRAGON7)
    kw = {"decks": 8, "shoes": 300, "seed": 9, "perfect_shoes": 4}
    a = analyse_count(system, BETS["dragon7"], backend="threads", workers=2, **kw).to_json()
    b = analyse_count(system, BETS["dragon7"], backend="processes", workers=2, **kw).to_json()
    c = analyse_count(system, BETS["dragon7"], backend="threads", workers=1, **kw).to_json()
    assert _strip(a) == _strip(b) == _strip(c)


@pytest.mark.slow
def test_same_sums_on_dask():
    pytest.importorskip("distributed")
    job = CountJob(seed=4, shoes=200, decks=8, bet=BETS["dragon7"], count=load_count_toml(DRAGON7), cut=14,
                   chunk_size=50)
    t, _ = run(job, "threads", 2)
    d, _ = run(job, "dask", 2)
    assert t.sums == d.sums and t.shoes == d.shoes == 200


def test_risk_of_ruin_against_the_gamblers_ruin_and_a_random_walk():
    # +-1 steps won with probability p: the exact ruin is (q/p)^B; the diffusion form agrees to O(mu^2)
    p, B = 0.51, 50
    mu, var = 2 * p - 1, 1 - (2 * p - 1) ** 2
    assert risk_of_ruin(mu, var, B) == pytest.approx(((1 - p) / p) ** B, rel=0.01)
    assert risk_of_ruin(-0.1, 1, 10) == 1.0 and risk_of_ruin(0.0, 1, 10) == 1.0
    # Gaussian steps with drift 0.05: ruin from 20 units before reaching +100, by brute force
    rng = np.random.default_rng(1)
    walks, mu, sd, B = 3000, 0.05, 1.0, 20
    x = np.zeros(walks)
    alive = np.ones(walks, dtype=bool)
    ruined = np.zeros(walks, dtype=bool)
    for _ in range(20_000):
        x[alive] += rng.normal(mu, sd, alive.sum())
        ruined |= alive & (x <= -B)
        alive &= (x > -B) & (x < 100)
        if not alive.any():
            break
    se = math.sqrt(0.13 * 0.87 / walks)
    # the walk overshoots the barrier by ~0.58 sd (Siegmund), so it is ruined a little less often
    assert ruined.mean() == pytest.approx(risk_of_ruin(mu, sd**2, B + 0.583), abs=4 * se)
    with pytest.raises(BaccaraError, match="^bankroll must be a positive number"):
        risk_of_ruin(0.1, 1, 0)


def test_integer_tags_recover_known_tags():
    known = np.array([1, 0, -2, -2, -1, 0, 0, 2, 2, 1, 0, -1, 0])
    ideal = 0.00037 * known + np.random.default_rng(0).normal(0, 1e-6, 13)
    tags, bc = integer_tags(ideal, 2)
    assert tags == tuple(known) and bc > 0.99
    assert betting_correlation(tags, ideal) == pytest.approx(bc)
    t1, _ = integer_tags(ideal, 1)
    assert max(abs(t) for t in t1) == 1


def test_design_count_follows_the_effects_of_removal():
    d = design_count(8, BETS["dragon7"], 2, shoes=300, seed=1, workers=1)
    eor = [float(e) for e in d.effects]
    assert d.correlation > 0.9
    assert all(t == 0 or (t > 0) == (e > np.mean(eor)) for t, e in zip(d.tags, eor))
    assert d.best.net > 0 and d.system.rule_for("dragon7").at_least == d.best.at_least
    text = d.to_toml()
    assert "[[bets]]" in text and 'name = "dragon7"' in text
    with pytest.raises(BaccaraError, match="no linear count"):
        design_count(8, BETS["player_pair"], 2, shoes=10, seed=1)


def test_a_design_reports_its_progress_and_stops_when_told(monkeypatch):
    import baccara.sim.count_design as cd

    monkeypatch.setattr(cd, "PROGRESS_CHUNK", 70)  # several chunks a thread on a small run
    seen: list[tuple[int, int, str]] = []
    reported = design_count(8, BETS["dragon7"], 2, shoes=300, seed=1, workers=2,
                            progress=lambda *a: seen.append(a))
    assert reported.to_json() == design_count(8, BETS["dragon7"], 2, shoes=300, seed=1, workers=2).to_json()
    assert [d for d, _, _ in seen] == sorted(d for d, _, _ in seen) and seen[-1] == (300, 300, "shoes")
    assert len(seen) >= 5

    class Stop(Exception):
        pass

    def stop(done: int, total: int, unit: str) -> None:
        raise Stop

    with pytest.raises(Stop):
        design_count(8, BETS["dragon7"], 2, shoes=300, seed=1, workers=1, progress=stop)


# ---------------------------------------------------------------- the command line
def cli(*args: str):
    return runner.invoke(app, ["count", *args])


def test_cli_report_for_people_with_one_perfect_shoe():
    """One shoe of the perfect counter has no spread (its standard error is None): the report for people prints
    its expectations without one, where it raised a TypeError."""
    r = cli("--bet", "dragon7", "--count", DRAGON7, "--decks", "1", "--shoes", "30", "--perfect-shoes", "1",
            "--seed", "3", "--workers", "1")
    assert r.exit_code == 0, r.output
    line = next(x for x in r.stdout.splitlines() if x.startswith("perfect counter, exact expectations"))
    assert "win per 100 hands" in line and "±" not in line and "None" not in line


def test_cli_report_json(tmp_path):
    r = cli("--bet", "dragon7", "--count", DRAGON7, "--shoes", "200", "--perfect-shoes", "2", "--seed", "3",
            "--workers", "1", "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert doc["bet"] == "dragon7" and doc["count_figures"]["shoes"] == 200 and doc["perfect"]["shoes"] == 2
    f = doc["count_figures"]
    _figures_hold(f)
    _figures_hold(doc["perfect"])
    # the bet's exact value from the full shoe, computed here
    assert Fraction(doc["exact"]["ev_exact"]) == evaluate_bets(coup_distribution(Shoe.decks(8)),
                                                              [BETS["dragon7"]])["dragon7"].ev
    assert doc["efficiency"]["value"] == pytest.approx(f["win_per_100_hands"]["value"]
                                                       / doc["perfect"]["expected"]["win_per_100_hands"])
    # risk of ruin exp(-2 mu B / sigma^2), mu and sigma the mean and SD of a shoe's win, B = 1000 units
    mu, sd = f["win_per_shoe"]["value"], f["sd_per_shoe"]
    assert doc["risk_of_ruin"]["bankroll_units"] == 1000
    assert doc["risk_of_ruin"]["count"] == pytest.approx(math.exp(-2 * mu * 1000 / sd**2) if mu > 0 else 1)


def test_cli_design_writes_a_count_that_loads(tmp_path):
    out = tmp_path / "d7.toml"
    r = cli("design", "--bet", "dragon7", "--level", "1", "--shoes", "500", "--seed", "2", "--workers", "1",
            "--out", str(out))
    assert r.exit_code == 0, r.output
    system = load_count_toml(out)
    assert system.rule_for("dragon7") is not None and max(abs(t) for t in system.tags) == 1


def _toml(tmp_path, text: str) -> str:
    p = tmp_path / "c.toml"
    p.write_text(text)
    return str(p)


@pytest.mark.parametrize(("args", "message"), [
    (["--bankroll", "0"], "--bankroll"),
    (["--unit", "-1"], "--unit"),
    (["--shoes", "0"], "--shoes"),
    (["--bet", "nonsense"], "--bet"),
    (["--perfect-shoes", "500"], "--perfect-shoes"),
])
def test_cli_bad_options_exit_2(args, message):
    base = ["--bet", "dragon7", "--count", DRAGON7, "--shoes", "100", "--workers", "1", "--seed", "1"]
    r = cli(*base, *args)
    assert r.exit_code == 2, r.output
    assert "error:" in r.output and message in r.output


@pytest.mark.parametrize(("text", "message"), [
    ('[tags]\n"Z" = 1\n[[bets]]\nname = "dragon7"\nat_least = 1\n', "tags"),
    ('[tags]\n"8" = 1\n', "[[bets]]"),
    ('[tags]\n"8" = 1\n[[bets]]\nname = "tie"\nat_least = 1\n', "no betting rule for --bet dragon7"),
    ('[tags]\n"8" = 1\n[[bets]]\nname = "dragon7"\nat_least = 1e6\n', "never fired"),
])
def test_cli_bad_count_files_exit_2(tmp_path, text, message):
    r = cli("--bet", "dragon7", "--count", _toml(tmp_path, text), "--shoes", "50", "--workers", "1", "--seed", "1",
            "--perfect-shoes", "0")
    assert r.exit_code == 2, r.output
    assert message in r.output


@pytest.mark.parametrize(("args", "message"), [
    (["--level", "4"], "--level"),
    (["--bet", "player_pair"], "no linear count"),
    (["--kind", "sideways"], "--kind"),
])
def test_cli_design_bad_input_exit_2(args, message):
    r = cli("design", "--bet", "dragon7", "--shoes", "50", "--workers", "1", "--seed", "1", *args)
    assert r.exit_code == 2, r.output
    assert message in r.output
