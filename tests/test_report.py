"""The math report (``baccara report``): its exact figures are the engines', its simulated ones carry their seed and
standard errors, its page is self-contained, and the published Dragon 7 and Panda 8 edges come out."""

import copy
import html
import itertools
import json
import math
import os
import re
import resource
import shutil
import subprocess
import sys
import time
from fractions import Fraction
from types import SimpleNamespace

import numpy as np
import pytest
from typer.testing import CliRunner

import baccara
from baccara import Shoe, builtin_bets, coup_distribution, effects_of_removal, evaluate, load_bets_toml, math_report
from baccara.browser import chromium
from baccara.cli import app
from baccara.errors import ParameterError
from baccara.punto import mathreport as M
from baccara.punto.edgesort import best_sorting
from baccara.punto.known import Known
from baccara.punto.report_html import to_html, write_report
from baccara.punto.report_words import condition_words, tableau_rows
from baccara.rules import load_tableau_toml
from baccara.sim.count_analysis import analyse_count
from baccara.sim.results import Estimate

runner = CliRunner()
BETS = builtin_bets()
# Small simulation sizes for the default suite (the defaults are checked in the slow job).
SMALL = {"design_shoes": 2000, "count_shoes": 2000, "perfect_shoes": 12, "cuts": (14,), "sort_cards": (1,),
         "check_hands": 40_000}
# The exact sections only: no count, no simulation check.
EXACT = {"count_shoes": 0, "check_hands": 0}

# Wizard of Odds, "Baccarat — Dragon 7 / Panda 8" side-bet pages (EZ Baccarat): Dragon 7's house edge 7.611%
# and Panda 8's 10.19%, both on 8 decks, compared at their printed precision.
WIZARD_EDGES = {"dragon7": (7.611, 3), "panda8": (10.19, 2)}


def frac(s: str) -> Fraction:
    num, den = s.split("/")
    return Fraction(int(num), int(den))


def run(*args: str):
    return runner.invoke(app, list(args))


@pytest.fixture(scope="module")
def exact_d7():
    """Dragon 7 on 8 decks, the exact sections only."""
    return math_report(8, "dragon7", sort_cards=(1,), **EXACT)


@pytest.fixture(scope="module")
def simulated_d7():
    """Dragon 7 on 8 decks with every section, at small sizes."""
    return math_report(8, "dragon7", seed=5, **SMALL)


# ---------------------------------------------------------------- exact sections
@pytest.mark.parametrize("bet", ["dragon7", "panda8"])
def test_wizard_of_odds_edges_on_8_decks(bet):
    r = math_report(8, bet, sort_cards=(), **EXACT)
    printed, digits = WIZARD_EDGES[bet]
    assert round(float(r.edge) * 100, digits) == printed
    assert r.to_json()["figures"]["edge"]["exact"] == str(evaluate(Shoe.decks(8), {bet: BETS[bet]})[bet].edge)


def test_pay_table_adds_up_to_the_engine(exact_d7):
    r = evaluate(Shoe.decks(8), {"dragon7": BETS["dragon7"]})["dragon7"]
    lines = exact_d7.lines
    assert sum(ln.combinations for ln in lines) == exact_d7.deals == r.deals
    assert sum(ln.contribution for ln in lines) == r.ev
    dist = coup_distribution(Shoe.decks(8))
    win = dist.count(winner="banker", banker_cards=3, banker_total=7)  # the one paying line, counted independently
    assert [(ln.pays, ln.combinations) for ln in lines] == [(40, win), (-1, r.deals - win)]


def test_pay_table_lines_take_the_first_rule_that_holds():
    # Dragon Bonus: several rules, overlapping conditions; each line counts only coups no earlier rule took.
    bet = BETS["dragon_bonus_player"]
    rep = math_report(Shoe.decks(2), bet, sort_cards=(), **EXACT)
    r = evaluate(Shoe.decks(2), {bet.name: bet})[bet.name]
    assert sum(ln.combinations for ln in rep.lines) == r.deals
    assert sum(ln.contribution for ln in rep.lines) == r.ev
    for pays, p in r.probabilities.items():
        assert sum(ln.probability for ln in rep.lines if ln.pays == pays) == p


def test_figures_are_the_engines(exact_d7):
    r = evaluate(Shoe.decks(8), {"dragon7": BETS["dragon7"]})["dragon7"]
    f = exact_d7.to_json()["figures"]
    assert frac(f["edge"]["exact"]) == r.edge and frac(f["hit_frequency"]["exact"]) == r.p_win
    assert frac(f["variance"]["exact"]) == r.variance and f["sd"] == pytest.approx(r.sd, rel=1e-15)
    assert f["volatility_index"] == pytest.approx(1.6448536269514722 * r.sd)
    assert f["element_of_risk"] is None  # Dragon 7 never pushes
    ez = math_report(8, "ez_banker", sort_cards=(), **EXACT).moments
    assert ez.element_of_risk == ez.edge / (1 - ez.result.p_push)


def test_house_result_intervals(exact_d7):
    rows = exact_d7.house_results()
    assert [r["hands"] for r in rows] == [10**3, 10**4, 10**5, 10**6]
    for r in rows:
        n = r["hands"]
        assert frac(r["mean"]["exact"]) == n * exact_d7.edge
        assert r["sd"] == pytest.approx((n * float(exact_d7.moments.variance)) ** 0.5)
        assert r["low"] < r["mean"]["float"] < r["high"] and r["method"] == "exact"
    assert rows[-1]["low"] > 0  # a million Dragon 7 bets: the house is ahead at 95%


def test_effects_of_removal_are_the_engines(exact_d7):
    base, effects = effects_of_removal(Shoe.decks(8), BETS["dragon7"])
    got_base, got = exact_d7.removal
    assert got_base == base and [(e.rank, e.effect) for e in got] == [(e.rank, e.effect) for e in effects]


def test_first_card_known(exact_d7):
    shoe = Shoe.decks(8)
    assert sum(k.probability for k in exact_d7.known) == 1
    assert sum(k.probability * k.ev for k in exact_d7.known) == -exact_d7.edge  # the law of total expectation
    six = next(k for k in exact_d7.known if k.card == "6")
    assert six.ev == evaluate(shoe, {"dragon7": BETS["dragon7"]}, known=Known.of({1: "6"}))["dragon7"].ev
    assert exact_d7.known_advantage == sum(k.probability * k.ev for k in exact_d7.known if k.ev > 0) > 0


def test_edge_sorting_is_best_sorting(exact_d7):
    s = best_sorting(Shoe.decks(8), 1, "value", {"dragon7": BETS["dragon7"]}, among=["dragon7"])
    assert exact_d7.sorting[1].best.advantage == s.best.advantage
    doc = exact_d7.to_json()["edge_sorting"]["1"]
    assert frac(doc["advantage_per_coup"]["exact"]) == s.best.advantage
    # One card read and one card known agree when the sort isolates the card worth betting on.
    assert s.best.advantage == exact_d7.known_advantage


# ---------------------------------------------------------------- simulated sections
def test_simulated_sections_carry_seeds_and_standard_errors(simulated_d7):
    doc = simulated_d7.to_json()
    assert doc["settings"]["seed"] == 5 and doc["settings"]["count_seed"] == 6
    assert doc["count"]["seed"] == 5 and doc["count"]["betting_correlation"] > 0.9
    (pen,) = doc["penetrations"]
    assert pen["count"]["seed"] == 6 and pen["perfect"]["seed"] == 6 and pen["cut_card_effect"]["seed"] == 6
    for part in (pen["count"]["win_per_100_hands"], pen["perfect"]["win_per_100_hands"],
                 pen["cut_card_effect"]["effect_on_house_edge"]):
        assert part["stderr"] is not None and part["stderr"] > 0
    json.dumps(doc, allow_nan=False)  # strict JSON: no NaN


def test_perfect_counter_is_analyse_counts(simulated_d7):
    # analyse_count's perfect counter on the same shoes (the same seed) places the same bets with the same
    # exact expectations: the report's figures are its.
    report = analyse_count(simulated_d7.design.system, "dragon7", decks=8, shoes=12, seed=6, cut=14,
                           perfect_shoes=12, workers=1)
    (pen,) = simulated_d7.penetrations
    assert pen.perfect["bets"] == report.perfect.placed and pen.perfect["hands"] == report.perfect.hands
    assert pen.perfect["win_per_100_hands"]["value"] == pytest.approx(
        report.perfect.expected["win_per_100_hands"], rel=1e-12)


def test_pairs_have_no_linear_count_but_a_perfect_counter():
    r = math_report(8, "player_pair", design_shoes=200, count_shoes=200, perfect_shoes=2, cuts=(14,),
                    sort_cards=(), check_hands=0)
    assert r.design is None and r.count_note.startswith("there is no linear count")
    assert "--count" not in r.count_note and "baccara count" not in r.count_note  # no other command's options
    assert r.penetrations[0].count is None and r.penetrations[0].perfect["shoes"] == 2
    json.dumps(r.to_json(), allow_nan=False)


def test_a_composition_is_reported_exactly_and_its_simulations_are_left_out_with_a_note():
    shoe = Shoe.decks(8).remove("9", n=5)
    r = math_report(shoe, "dragon7", sort_cards=())
    assert r.edge == evaluate(shoe, {"dragon7": BETS["dragon7"]})["dragon7"].edge
    assert r.penetrations == [] and any("not fresh decks" in n for n in r.notes)


def test_a_small_shoe_keeps_the_default_cuts_it_allows():
    r = math_report(1, "dragon7", design_shoes=300, count_shoes=300, perfect_shoes=2, sort_cards=(), check_hands=0)
    assert r.settings["cuts"] == [14] and [p.cut for p in r.penetrations] == [14]
    assert any("at most 41 cards behind the cut card" in n for n in r.notes)
    json.dumps(r.to_json(), allow_nan=False)


# ---------------------------------------------------------------- the page
def test_html_is_self_contained(simulated_d7):
    page = to_html(simulated_d7)
    assert page.count("<svg") == 4  # house result, effects of removal, counting, first card
    assert not re.search(r"<script|<link|<img|<iframe|url\((?!#)|@import", page, re.I)
    assert not re.search(r"""(src|href)\s*=\s*["']?https?:""", page, re.I)
    e = simulated_d7.edge
    assert f"<span class='nw'>{e.numerator}</span>/<wbr><span class='nw'>{e.denominator}</span>" in page
    assert "seed 6" in page


def test_write_report_refuses_other_suffixes(simulated_d7, tmp_path):
    with pytest.raises(ParameterError, match="must name a .html or .pdf file"):
        write_report(simulated_d7, tmp_path / "r.txt")


# ---------------------------------------------------------------- the command line
def test_cli_json_equals_edge_eor_and_edgesort():
    r = run("report", "--decks", "8", "--bet", "panda8", "--json", "--count-shoes", "0", "--check-hands", "0",
            "--sort-cards", "1")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    edge = json.loads(run("edge", "--decks", "8", "--json").stdout)["bets"]["panda8"]
    assert doc["figures"]["edge"]["exact"] == edge["edge"] and doc["figures"]["p_win"]["exact"] == edge["p_win"]
    eor = json.loads(run("eor", "--decks", "8", "--bet", "panda8", "--json").stdout)
    assert doc["effects_of_removal"] == {"edge": eor["edge"], "effects": eor["effects"]}
    es = json.loads(run("edgesort", "--decks", "8", "--best", "--cards", "1", "--only", "panda8", "--json").stdout)
    assert doc["edge_sorting"]["1"]["advantage_per_coup"]["exact"] == es["best"]["advantage"]["per_coup"]
    assert doc["edge_sorting"]["1"]["sorted"] == es["best"]["sorted"]
    assert doc["penetrations"] == [] and any("count shoes 0" in n for n in doc["notes"])


def test_cli_writes_html(tmp_path):
    out = tmp_path / "d7.html"
    r = run("report", "--decks", "1", "--bet", "dragon7", "--count-shoes", "0", "--check-hands", "0", "--sort-cards",
            "1", "--out", str(out))
    assert r.exit_code == 0, r.output
    assert out.read_text().startswith("<!DOCTYPE html>")


@pytest.mark.parametrize("args, message", [
    ((), "--bet"),
    (("--bet", "nosuch"), "--bet: unknown bet"),
    (("--bet", "dragon7", "--decks", "inf"), "finite shoe"),
    (("--bet", "dragon7", "--out", "r.txt"), "--out must name a .html or .pdf"),
    (("--bet", "dragon7", "--decks", "8", "--composition", "A=3"), "choose one shoe"),
    (("--bet", "dragon7", "--sort-cards", "5"), "--sort-cards"),
    (("--bet", "dragon7", "--level", "4"), "--level"),
    (("--bet", "dragon7", "--cuts", "2"), "--cuts"),
    (("--bet", "dragon7", "--seed", "-1"), "--seed"),
])
def test_cli_errors_name_the_option(args, message):
    r = run("report", *args)
    assert r.exit_code == 2, r.output
    assert message in r.output


def test_cli_defaults_are_the_librarys():
    from baccara.commands import report as cli_report

    assert (cli_report.DESIGN_SHOES, cli_report.COUNT_SHOES, cli_report.PERFECT_SHOES, cli_report.PERFECT_SHOES_RANK,
            cli_report.CHECK_HANDS) == (M.DESIGN_SHOES, M.COUNT_SHOES, M.PERFECT_SHOES, M.PERFECT_SHOES_RANK,
                                        M.CHECK_HANDS)
    assert tuple(int(c) for c in cli_report.CUTS.split(",")) == M.CUTS


# ---------------------------------------------------------------- a bad --out fails before any work
def _no_work(*_args, **_kwargs):
    raise AssertionError("the report was computed before --out was checked")


@pytest.mark.parametrize("name, message", [
    ("missing/r.html", "does not exist"),
    ("r.txt", "must name a .html or .pdf"),
    ("r", "must name a .html or .pdf"),
    ("afile.html/r.html", "is not a folder"),
    ("adir.html", "exists and is not a file"),
])
def test_bad_out_fails_at_once_naming_out(tmp_path, monkeypatch, name, message):
    (tmp_path / "afile.html").write_text("x")
    (tmp_path / "adir.html").mkdir()
    monkeypatch.setattr(M, "math_report", _no_work)
    t0 = time.perf_counter()
    r = run("report", "--bet", "dragon7", "--out", str(tmp_path / name))
    assert time.perf_counter() - t0 < 2.0
    assert r.exit_code == 2, r.output
    assert "--out" in r.output and message in r.output


def test_out_in_a_folder_that_cannot_be_written(tmp_path, monkeypatch):
    if os.geteuid() == 0:
        pytest.skip("root writes in any folder")
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    monkeypatch.setattr(M, "math_report", _no_work)
    try:
        r = run("report", "--bet", "dragon7", "--out", str(locked / "r.pdf"))
    finally:
        locked.chmod(0o700)
    assert r.exit_code == 2 and "--out: cannot write in folder" in r.output


def test_out_where_no_file_can_be_created(monkeypatch):
    if not os.path.isdir("/proc/self"):
        pytest.skip("needs Linux's /proc, where no file can be created")
    monkeypatch.setattr(M, "math_report", _no_work)
    r = run("report", "--bet", "dragon7", "--out", "/proc/r.html")
    assert r.exit_code == 2 and "--out: cannot write in folder '/proc'" in r.output


def test_bad_out_in_a_fresh_process_costs_under_2_cpu_seconds(tmp_path):
    # CPU time, not wall time: a loaded machine must not fail the test; what is measured is the start-up and
    # the check, and that no engine is loaded or run before it.
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-m", "baccara", "report", "--bet", "dragon7", "--out",
                           str(tmp_path / "no" / "r.html")], capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    assert done.returncode == 2 and "--out: folder" in done.stderr
    assert cpu < 2.0


# ---------------------------------------------------------------- the house's result, exactly
def _brute_force(probs: dict, n: int) -> dict:
    """Every sequence of n outcomes, exactly: net result -> probability."""
    out: dict = {}
    for combo in itertools.product(probs.items(), repeat=n):
        net = sum(c[0] for c in combo)
        out[net] = out.get(net, 0) + math.prod(c[1] for c in combo)
    return out


@pytest.mark.parametrize("bet, hands", [("dragon_bonus_player", 3), ("banker", 5), ("ez_banker", 4), ("tie", 6)])
def test_sum_distribution_is_the_brute_force_one(bet, hands):
    probs = evaluate(Shoe.decks(8), {bet: BETS[bet]})[bet].probabilities
    oracle = _brute_force(probs, hands)
    net, p = M.sum_distribution(probs, hands)
    got = {Fraction(x).limit_denominator(10**6): y for x, y in zip(net, p) if y > 0}
    assert set(k for k, v in oracle.items() if v) <= set(got)
    for k in set(oracle) | set(got):
        assert got.get(k, 0.0) == pytest.approx(float(oracle.get(k, 0)), abs=1e-15)


def test_dragon7_house_ahead_after_1000_hands_is_the_exact_binomial():
    # Dragon 7 pays 40 or loses: after n hands with k wins the bettor has 41k - n, so the house is ahead when
    # 41k < n; the exact chance is a binomial sum of fractions.
    r = evaluate(Shoe.decks(8), {"dragon7": BETS["dragon7"]})["dragon7"]
    p, n = r.p_win, 1000
    exact = sum(math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1) if 41 * k < n)
    row = M.Moments(r).house_result(n)
    assert row["method"] == "exact"
    assert row["p_house_ahead"] == pytest.approx(float(exact), abs=1e-12)
    assert row["p_house_ahead"] + row["p_even"] + row["p_player_ahead"] == pytest.approx(1, abs=1e-12)
    assert row["normal"]["p_house_ahead"] < row["p_house_ahead"] - 0.015  # the normal approximation is off


def test_the_window_round_the_mean_loses_nothing():
    # Past a few thousand hands the transform is taken on a window round the mean; against the whole support.
    probs = evaluate(Shoe.decks(8), {"banker": BETS["banker"]})["banker"].probabilities
    n = 5000
    net, p = M.sum_distribution(probs, n)
    assert len(net) < 39 * n + 1  # windowed
    one = np.zeros(39 * n + 1)
    for pay, q in probs.items():
        one[int(pay * 20) + 20] += float(q)
    full = np.clip(np.fft.irfft(np.fft.rfft(one) ** n, n=len(one)), 0, None)
    full_net = (np.arange(len(one)) - 20 * n) / 20
    lookup = dict(zip(full_net.round(6), full))
    assert max(abs(lookup[x] - y) for x, y in zip(net.round(6), p)) < 1e-12
    assert math.fsum(p) == pytest.approx(1, abs=1e-12)


# ---------------------------------------------------------------- the bet by deck: the same as baccara edge
@pytest.mark.parametrize("bet, extra", [("panda8", ()), ("tie", ("--tableau", "examples/tableaux/badoureau_d1.toml"))])
def test_per_deck_figures_are_baccara_edge(bet, extra):
    r = run("report", "--decks", "8", "--bet", bet, "--json", "--count-shoes", "0", "--check-hands", "0",
            "--sort-cards", "", *extra)
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert [c["decks"] for c in doc["decks_compared"]] == [1, 2, 4, 6, 8, "inf"]
    for col in doc["decks_compared"]:
        e = run("edge", "--decks", str(col["decks"]), "--json", *extra)
        assert e.exit_code == 0, e.output
        edge = json.loads(e.stdout)
        assert col["bet"] == edge["bets"][bet] and col["shoe"] == edge["shoe"]
        assert frac(col["return_to_player"]["exact"]) == 1 + frac(edge["bets"][bet]["ev"])
        assert sum(frac(ln["probability"]) for ln in col["pay_table"]) == 1


# ---------------------------------------------------------------- a count that finds nothing, the verdict
def _scan_numbers(text: str) -> list[str]:
    """Every printed zero with a sign (-0, +0.000, -0.00%) and every '± 0.000' with nothing but zeros."""
    bad = [m.group(0) for m in re.finditer(r"(?<![\w./])[-+−]0(?:\.0+)?(?![\d.])", text)]
    bad += [m.group(0) for m in re.finditer(r"±\s*0\.0+(?![\d.]*[1-9])", text)]
    return bad


def _page_text(page: str) -> str:
    page = re.sub(r"<svg.*?</svg>", " ", page, flags=re.S)
    page = re.sub(r"<style>.*?</style>", " ", page, flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


@pytest.fixture(scope="module")
def never_betting():
    """A count whose trigger is never reached on the one shoe it is measured on, at both cuts."""
    return math_report(8, "dragon7", seed=0, design_shoes=2000, count_shoes=1, perfect_shoes=0, cuts=(14, 52),
                       sort_cards=(), check_hands=0)


def test_a_count_that_never_bets_is_said_so_at_every_cut(never_betting):
    r = never_betting
    assert [p.cut for p in r.penetrations] == [14, 52]  # no row dropped
    doc = r.to_json()
    for pen in doc["penetrations"]:
        assert pen["count"]["measured"] is False and "never bet in 1 shoe " in pen["count"]["status"]
    page = _page_text(to_html(r))
    assert page.count("found nothing: it never bet in 1 shoe") == 2
    assert not re.search(r"--count(?![-\w])", page) and "baccara count" not in page  # no option never passed
    assert not _scan_numbers(page)
    assert "Countability not assessed" in doc["countability"]["text"]


def _fake_count(placed: int, win: float, se: float, seed: int = 1) -> SimpleNamespace:
    est = Estimate(win, se, 0, 1)
    zero = Estimate(0.0, 0.0, 0, 1)
    c = SimpleNamespace(shoes=100_000, hands=7_000_000, placed=placed, bet_frequency=zero, edge_when_betting=zero,
                        win_per_100=est, win_per_shoe=zero, sd_per_hand=0.0)
    return SimpleNamespace(count=c, count_job=SimpleNamespace(seed=seed))


def _perfect(bets: int, win: float, se: float) -> dict:
    z = {"value": 0.0, "stderr": 0.0}
    return {"shoes": 400, "hands": 28_000, "bets": bets, "seed": 1, "bet_frequency": z, "edge_when_betting": z,
            "win_per_100_hands": {"value": win, "stderr": se}, "win_per_shoe": z, "hands_per_shoe": 70.0}


def test_a_count_that_bet_twice_in_100000_shoes_is_no_result(simulated_d7):
    r = copy.copy(simulated_d7)
    # Twice in 100,000 shoes, both lost: the figures would read "0.000 ± 0.000" bets and "-100.000 ± 0.000" edge.
    r.penetrations = [M.Penetration(52, 0.875, _fake_count(2, -0.0, 0.0), _perfect(0, 0.0, 0.0), {},
                                    "it bet only 2 times in 100,000 shoes (7,000,000 hands): too few to measure")]
    doc = r.to_json()
    pen = doc["penetrations"][0]
    assert pen["count"]["win_per_100_hands"] is None and pen["count"]["measured"] is False
    assert pen["perfect"]["win_per_100_hands"] is None
    page = _page_text(to_html(r))
    assert "found nothing: it bet only 2 times in 100,000 shoes" in page
    assert "-100.0" not in page and not _scan_numbers(page)
    terminal = "\n".join(str(x) for x in r.renderables() if isinstance(x, str))
    assert "the count found nothing" in terminal and not _scan_numbers(terminal)


def test_the_verdict_states_its_uncertainty(simulated_d7):
    r = copy.copy(simulated_d7)
    r.penetrations = [M.Penetration(14, 0.966, _fake_count(5000, 1.2, 0.3), _perfect(900, 2.5, 0.4), {})]
    v = r.verdict()
    assert v["verdict"] == "countable"
    assert v["text"] == ("Countable: a designed count wins +1.20 ± 0.30 (1 SE) units per 100 hands at cut 14; the "
                         "perfect counter bounds any count at +2.50 ± 0.40 (1 SE) there.")
    r.penetrations = [M.Penetration(14, 0.966, _fake_count(5000, 0.4, 0.3), _perfect(900, 2.5, 0.4), {})]
    assert r.verdict()["verdict"] == "perfect counter only"
    r.penetrations = [M.Penetration(14, 0.966, _fake_count(5000, 0.4, 0.3), _perfect(900, 0.5, 0.4), {})]
    assert r.verdict()["verdict"] == "not countable" and "within 2 SE of nothing" in r.verdict()["text"]


def test_a_count_above_the_perfect_counter_within_noise_is_said_so(simulated_d7):
    r = copy.copy(simulated_d7)
    r.penetrations = [M.Penetration(52, 0.875, _fake_count(5000, 0.9, 0.3), _perfect(900, 0.6, 0.5), {})]
    text = r.comparison(r.penetrations[0])
    assert "above the perfect counter's by 0.30 ± 0.58 (1 SE)" in text and "within noise" in text
    assert "contradict" not in text
    assert re.sub(r"\s+", " ", text) in _page_text(to_html(r))
    r.penetrations = [M.Penetration(52, 0.875, _fake_count(5000, 3.0, 0.3), _perfect(900, 0.6, 0.5), {})]
    assert "more than 2 SE" in r.comparison(r.penetrations[0])
    r.penetrations = [M.Penetration(52, 0.875, _fake_count(5000, 0.3, 0.3), _perfect(900, 0.6, 0.5), {})]
    assert r.comparison(r.penetrations[0]) == ""  # below the bound: nothing to explain


# ---------------------------------------------------------------- the count applied from the page
def test_the_count_can_be_applied_from_the_page(simulated_d7):
    cj = simulated_d7.to_json()["count"]
    system = simulated_d7.design.system
    assert cj["balanced"] == system.balanced and cj["deck_sum"] == 4 * sum(cj["tags"].values())
    assert cj["initial_running_count"] == system.start(8)
    assert "52" in cj["true_count"] and "not yet seen" in cj["true_count"]
    page = _page_text(to_html(simulated_d7))
    assert ("unbalanced: the tags of one deck sum to" if not cj["balanced"] else "balanced") in page
    assert f"set the running count to {cj['initial_running_count']:g}" in page
    assert "true count = running count x 52 / (cards not yet seen)" in page
    assert f"count is {cj['trigger']:g} or more" in page
    row = re.search(r"tag((?:\s+[-+]?\d+){13})", page).group(1).split()
    assert [int(t) for t in row] == list(cj["tags"].values())


# ---------------------------------------------------------------- edge sorting by what the bet pays on
def test_a_suited_pair_bet_is_not_edge_sorted_and_says_why():
    pp = load_bets_toml("examples/side_bets.toml")["perfect_pair"]
    r = math_report(6, pp, design_shoes=200, count_shoes=200, perfect_shoes=1, cuts=(14,), check_hands=0)
    assert r.sorting == {} and "pays on suits" in r.sort_note
    page = _page_text(to_html(r))
    assert "Not given for this bet: it pays on suits" in page
    assert "The count on" not in page and "designed on shoes of seed" not in page  # no count: no text of one
    assert "The count designed" not in page


def test_a_pair_bet_is_edge_sorted_by_rank(monkeypatch):
    seen = []
    real = M.best_sorting

    def spy(shoe, cards, by, *args, **kwargs):
        seen.append(by)
        return real(shoe, cards, "value", *args, **kwargs)  # by value, only to keep the test fast

    monkeypatch.setattr(M, "best_sorting", spy)
    r = math_report(8, "player_pair", count_shoes=0, check_hands=0, sort_cards=(1,))
    assert seen == ["rank"] and r.settings["sort_by"] == "rank"
    # One card read tells nothing of a pair: no sort gains, and the page says so rather than "{A}, 0.000%".
    assert r.sorting[1].best.advantage == 0
    page = _page_text(to_html(r))
    assert "no sort gains anything" in page and "{A}" not in page
    math_report(8, "dragon7", count_shoes=0, check_hands=0, sort_cards=(1,))
    assert seen == ["rank", "value"]


# ---------------------------------------------------------------- rules, pay table and terms in words
def test_pay_table_in_words(exact_d7):
    page = _page_text(to_html(exact_d7))
    assert "Banker wins with a three-card 7" in page and "pays 40 to 1" in page and "1 in 44.4" in page
    assert "banker_cards" not in page and "winner =" not in page
    for bet in list(BETS.values()) + list(load_bets_toml("examples/side_bets.toml").values()):
        for rule in bet.rules:
            words = condition_words(rule.when)
            assert "=" not in words and "_" not in words, (bet.name, words)


def test_the_drawing_rules_are_printed(exact_d7):
    page = to_html(exact_d7)
    assert "the standard tableau" in page and "Player draws a third card on a two-card total of 0-5" in page
    head, rows = tableau_rows(exact_d7.tableau)
    assert rows[3] == ["3", "D", "D", "D", "D", "D", "D", "D", "D", "D", "S", "D"]  # Banker's 3 stands on an 8
    custom = math_report(8, "tie", tableau=load_tableau_toml("examples/tableaux/badoureau_d1.toml"),
                         sort_cards=(), **EXACT)
    page = to_html(custom)
    assert f"a custom tableau: {custom.tableau.name}" in page
    for row in tableau_rows(custom.tableau)[1]:
        assert "".join(f"<td>{row[0]}</td>") in page


def test_only_the_bets_own_house_terms():
    params = {"commission": Fraction(1, 20), "tie_pays": Fraction(8), "super6_pays": Fraction(12)}
    assert M.house_terms(BETS["banker"], params) == {"commission": Fraction(1, 20)}
    assert M.house_terms(BETS["tie"], params) == {"tie_pays": Fraction(8)}
    assert M.house_terms(BETS["dragon7"], params) == {}
    r = math_report(8, "dragon7", parameters=params, sort_cards=(), **EXACT)
    page = _page_text(to_html(r))
    assert "commission" not in page and "tie pays" not in page and "Super 6" not in page


def test_the_known_card_axis_names_the_bet(monkeypatch, exact_d7):
    import baccara.punto.report_html as H

    figs = []
    monkeypatch.setattr(H, "_svg", lambda fig: figs.append(fig) or "<svg></svg>")
    banker = math_report(8, "banker", sort_cards=(), **EXACT)
    H.known_chart(banker)
    label = figs[0].axes[0].get_ylabel()
    assert "player's" not in label.lower() and "banker" in label


# ---------------------------------------------------------------- layout and what a lab submission has
def test_layout_rules(exact_d7):
    page = to_html(exact_d7)
    assert ".nw { white-space: nowrap; }" in page
    assert "break-after: avoid" in page and "counter(page)" in page and "counter(pages)" in page
    assert "section.page" not in page  # no forced page break leaving a page half empty
    num, den = exact_d7.edge.numerator, exact_d7.edge.denominator
    assert f"<span class='nw'>{num}</span>/<wbr><span class='nw'>{den}</span>" in page
    text = _page_text(page)
    assert exact_d7.made in text and f"baccara {baccara.__version__}" in text
    assert not _scan_numbers(text)


def test_the_command_that_made_it_is_on_the_page(tmp_path):
    out = tmp_path / "r.html"
    r = run("report", "--decks", "2", "--bet", "super6", "--count-shoes", "0", "--check-hands", "0",
            "--sort-cards", "1", "--super6-pays", "15", "--out", str(out))
    assert r.exit_code == 0, r.output
    text = _page_text(out.read_text())
    assert (f"baccara report --bet super6 --decks 2 --super6-pays 15 --out {out} --count-shoes 0 --sort-cards 1 "
            "--check-hands 0") in text
    assert "Super 6 pays 15 to 1" in text and "commission" not in text


def test_a_lab_submissions_figures(simulated_d7):
    page = to_html(simulated_d7)
    text = _page_text(page)
    for label in ("1 deck", "2 decks", "4 decks", "6 decks", "8 decks", "continuous shuffler"):
        assert f"<th class=\"n\">{label}</th>" in page
    assert "return to player" in text and "1 in 44.4" in text and "Rules and assumptions" in text
    assert "P(house ahead)" in text and "exact" in text
    # Every "±" is labelled: in a table whose header says "± 1 SE", or in a sentence that says "(1 SE)".
    for table in re.findall(r"<table>.*?</table>", page, flags=re.S):
        for cell in re.findall(r"<td[^>]*>(.*?)</td>", table, flags=re.S):
            if "±" in cell:
                assert "1 SE" in _page_text(cell) or "± 1 SE" in _page_text(table), cell
    for _, para in re.findall(r"<(p|li)(?:\s[^>]*)?>(.*?)</\1>", re.sub(r"<svg.*?</svg>", "", page, flags=re.S),
                              flags=re.S):
        if "±" in para:
            assert "1 SE" in _page_text(para), para


def test_simulation_check_of_the_exact_figures(simulated_d7):
    c = simulated_d7.check
    assert c["hands"] >= 40_000 and c["seed"] == 7 and c["decks"] == 8
    figures = [row["figure"] for row in c["rows"]]
    assert figures == ["return per unit bet (EV)", "hit frequency (the bet wins)",
                       "line: Banker wins with a three-card 7", "line: any other coup"]
    for row in c["rows"]:
        assert row["low95"] < row["simulated"] < row["high95"] and row["stderr"] > 0
        assert abs(row["z"]) < 5  # seeded: the same every run
    assert frac(c["rows"][0]["exact"]["exact"]) == -simulated_d7.edge
    assert f"{c['hands']:,} hands" in _page_text(to_html(simulated_d7))


# ---------------------------------------------------------------- slow: the PDF, the default sizes
@pytest.mark.slow
def test_pdf_through_chromium(simulated_d7, tmp_path):
    if chromium() is None:
        if os.environ.get("CI") == "true":
            pytest.fail("chromium is not installed on CI: the PDF cannot be checked")
        pytest.skip("chromium is not installed (the distribution's chromium package prints the PDF)")
    path = write_report(simulated_d7, tmp_path / "d7.pdf")
    data = path.read_bytes()
    assert data.startswith(b"%PDF")
    assert len(re.findall(rb"/Type\s*/Page[^s]", data)) >= 2


def test_chromium_lookup_is_consistent():
    found = chromium()
    assert found is None or shutil.which(found) or os.access(found, os.X_OK)
