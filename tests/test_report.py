"""The math report (``baccara report``): its exact figures are the engines', its simulated ones carry their seed and
standard errors, its page is self-contained, and the published Dragon 7 and Panda 8 edges come out."""

import json
import os
import re
import shutil
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from baccara import Shoe, builtin_bets, coup_distribution, effects_of_removal, evaluate, math_report
from baccara.browser import chromium
from baccara.cli import app
from baccara.errors import ParameterError
from baccara.punto import mathreport as M
from baccara.punto.edgesort import best_sorting
from baccara.punto.known import Known
from baccara.punto.report_html import to_html, write_report
from baccara.sim.count_analysis import analyse_count

runner = CliRunner()
BETS = builtin_bets()
# Small simulation sizes for the default suite (the defaults are checked in the slow job).
SMALL = {"design_shoes": 2000, "count_shoes": 2000, "perfect_shoes": 12, "cuts": (14,), "sort_cards": (1,)}

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
    return math_report(8, "dragon7", count_shoes=0, sort_cards=(1,))


@pytest.fixture(scope="module")
def simulated_d7():
    """Dragon 7 on 8 decks with every section, at small sizes."""
    return math_report(8, "dragon7", seed=5, **SMALL)


# ---------------------------------------------------------------- exact sections
@pytest.mark.parametrize("bet", ["dragon7", "panda8"])
def test_wizard_of_odds_edges_on_8_decks(bet):
    r = math_report(8, bet, count_shoes=0, sort_cards=())
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
    rep = math_report(Shoe.decks(2), bet, count_shoes=0, sort_cards=())
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
    ez = math_report(8, "ez_banker", count_shoes=0, sort_cards=()).moments
    assert ez.element_of_risk == ez.edge / (1 - ez.result.p_push)


def test_house_result_intervals(exact_d7):
    rows = exact_d7.house_results()
    assert [r["hands"] for r in rows] == [10**3, 10**4, 10**5, 10**6]
    for r in rows:
        n = r["hands"]
        assert frac(r["mean"]["exact"]) == n * exact_d7.edge
        assert r["sd"] == pytest.approx((n * float(exact_d7.moments.variance)) ** 0.5)
        assert r["low"] < r["mean"]["float"] < r["high"]
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
                    sort_cards=())
    assert r.design is None and any("no linear count" in n for n in r.notes)
    assert r.penetrations[0].count is None and r.penetrations[0].perfect["shoes"] == 2
    json.dumps(r.to_json(), allow_nan=False)


def test_a_composition_is_reported_exactly_and_its_simulations_are_left_out_with_a_note():
    shoe = Shoe.decks(8).remove("9", n=5)
    r = math_report(shoe, "dragon7", sort_cards=())
    assert r.edge == evaluate(shoe, {"dragon7": BETS["dragon7"]})["dragon7"].edge
    assert r.penetrations == [] and any("not fresh decks" in n for n in r.notes)


def test_a_small_shoe_keeps_the_default_cuts_it_allows():
    r = math_report(1, "dragon7", design_shoes=300, count_shoes=300, perfect_shoes=2, sort_cards=())
    assert r.settings["cuts"] == [14] and [p.cut for p in r.penetrations] == [14]
    assert any("at most 41 cards behind the cut card" in n for n in r.notes)
    json.dumps(r.to_json(), allow_nan=False)


# ---------------------------------------------------------------- the page
def test_html_is_self_contained(simulated_d7):
    page = to_html(simulated_d7)
    assert page.count("<svg") == 4  # house result, effects of removal, counting, first card
    assert not re.search(r"<script|<link|<img|<iframe|url\((?!#)|@import", page, re.I)
    assert not re.search(r"""(src|href)\s*=\s*["']?https?:""", page, re.I)
    assert str(simulated_d7.edge) in page
    assert "seed 6" in page


def test_write_report_refuses_other_suffixes(simulated_d7, tmp_path):
    with pytest.raises(ParameterError, match="must name a .html or .pdf file"):
        write_report(simulated_d7, tmp_path / "r.txt")


# ---------------------------------------------------------------- the command line
def test_cli_json_equals_edge_eor_and_edgesort():
    r = run("report", "--decks", "8", "--bet", "panda8", "--json", "--count-shoes", "0", "--sort-cards", "1")
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
    r = run("report", "--decks", "1", "--bet", "dragon7", "--count-shoes", "0", "--sort-cards", "1", "--out",
            str(out))
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
    from baccara.cli import report as cli_report

    assert (cli_report.DESIGN_SHOES, cli_report.COUNT_SHOES, cli_report.PERFECT_SHOES,
            cli_report.PERFECT_SHOES_RANK) == (M.DESIGN_SHOES, M.COUNT_SHOES, M.PERFECT_SHOES, M.PERFECT_SHOES_RANK)
    assert tuple(int(c) for c in cli_report.CUTS.split(",")) == M.CUTS


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
