"""The command line for known cards, edge sorting and drawing tables: JSON contracts and every error path
(clear message, exit 2, no traceback)."""

import json
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from baccara import PUNTO_BANCO, Shoe, builtin_bets, coup_distribution, evaluate, load_bets_toml
from baccara.cli import app
from baccara.punto.edgesort import edge_sort
from baccara.punto.exact import evaluate_bets
from baccara.rules import load_tableau_toml

from .test_tableau import GOLD

runner = CliRunner()
TABLEAUX = Path(__file__).resolve().parent.parent / "examples" / "tableaux"


def run(*args: str):
    return runner.invoke(app, list(args))


def frac(s: str) -> Fraction:
    num, den = s.split("/")
    return Fraction(int(num), int(den))


# ---------------------------------------------------------------- edge --known
def test_edge_known_json():
    r = run("edge", "--decks", "8", "--known", "1 in 6,7,8,9", "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["known"] == {"1": ["6", "7", "8", "9"]}
    want = evaluate(Shoe.decks(8), known="1 in 6,7,8,9")
    for name, b in doc["bets"].items():
        assert frac(b["ev"]) == want[name].ev
    dist = coup_distribution(Shoe.decks(8), known="1 in 6,7,8,9")
    assert int(doc["deals"]) == dist.deals
    assert json.loads(run("edge", "--json").stdout)["known"] == {}


def test_edge_known_repeated_or_semicolons_agree():
    a = json.loads(run("edge", "--decks", "6", "--known", "1=9", "--known", "3 in 0", "--json").stdout)
    b = json.loads(run("edge", "--decks", "6", "--known", "1=9; 3 in 10,J,Q,K", "--json").stdout)
    assert a == b and a["known"] == {"1": ["9"], "3": ["10", "J", "Q", "K"]}


def test_edge_known_table_says_what_is_known():
    r = run("edge", "--decks", "8", "--known", "2=K")
    assert r.exit_code == 0 and "given 2 = K" in r.stdout


def test_edge_known_and_user_bets(tmp_path):
    r = run("edge", "--decks", "8", "--known", "1=9", "--bets", str(TABLEAUX.parent / "side_bets.toml"), "--json")
    assert r.exit_code == 0, r.output
    big = load_bets_toml(TABLEAUX.parent / "side_bets.toml")["big"]
    want = evaluate_bets(coup_distribution(Shoe.decks(8), known="1=9"), [big])["big"]
    assert frac(json.loads(r.stdout)["bets"]["big"]["ev"]) == want.ev


# ---------------------------------------------------------------- edge --tableau
def test_edge_standard_tableau_file_is_the_default():
    a = json.loads(run("edge", "--decks", "8", "--json").stdout)
    b = json.loads(run("edge", "--decks", "8", "--tableau", str(TABLEAUX / "punto_banco.toml"), "--json").stdout)
    assert a == b


def test_edge_other_tableau(tmp_path):
    f = tmp_path / "gold.toml"
    f.write_text(GOLD)
    r = run("edge", "--decks", "8", "--tableau", str(f), "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["tableau"] == "Baccarat Gold"
    want = evaluate(Shoe.decks(8), tableau=load_tableau_toml(f))
    assert frac(doc["bets"]["banker"]["ev"]) == want["banker"].ev
    assert "Baccarat Gold tableau" in run("edge", "--tableau", str(f)).stdout


# ---------------------------------------------------------------- edgesort
def test_edgesort_json_contract():
    r = run("edgesort", "--decks", "8", "--sorted", "6,7,8,9", "--cards", "2", "--only", "banker,player,tie", "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    want = edge_sort(Shoe.decks(8), "6,7,8,9", 2, builtin_bets(), among=["banker", "player", "tie"])
    assert doc == json.loads(json.dumps(want.to_json()))
    assert doc["sorted"] == ["6", "7", "8", "9"] and doc["cards"] == 2
    assert frac(doc["advantage"]["per_coup"]) == want.advantage
    # Each pattern's chance from the card counts (8 decks: 128 of the 416 cards sorted), its best bet the
    # largest edge, and the advantage the chance-weighted sum of the positive best edges
    per_coup = frequency = pob = Fraction(0)
    for pat in doc["patterns"]:
        sorted_left, other_left, prob = 128, 288, Fraction(1)
        for c in pat["pattern"]:
            prob *= Fraction(sorted_left if c == "S" else other_left, sorted_left + other_left)
            sorted_left, other_left = (sorted_left - 1, other_left) if c == "S" else (sorted_left, other_left - 1)
        assert frac(pat["probability"]) == prob
        evs = {name: frac(b["ev"]) for name, b in pat["bets"].items()}
        best = max(evs[b] for b in ("banker", "player", "tie"))
        assert set(evs) == set(builtin_bets())
        # the best bet among those considered, or none (edge 0) where every one loses
        assert frac(pat["best"]["ev"]) == max(best, 0) and (pat["best"]["bet"] is None) == (best <= 0)
        assert frac(pat["player_or_banker"]["ev"]) == max(evs["banker"], evs["player"])
        if best > 0:
            per_coup, frequency = per_coup + prob * best, frequency + prob
        pob += prob * max(evs["banker"], evs["player"])   # the better of the two every coup
    assert sum(frac(p["probability"]) for p in doc["patterns"]) == 1
    assert (frac(doc["advantage"]["per_coup"]), frac(doc["advantage"]["bet_frequency"])) == (per_coup, frequency)
    assert frac(doc["advantage"]["player_or_banker_per_coup"]) == pob


def test_edgesort_table():
    r = run("edgesort", "--decks", "8", "--sorted", "6,7,8,9")
    assert r.exit_code == 0, r.output
    assert "Player or Banker every coup: 6.7647%" in r.stdout
    assert "first coup of a fresh shoe" in r.stdout


def test_edgesort_depleted_shoe_and_tableau():
    r = run("edgesort", "--composition", "A=30,2=32,3=31,4=32,5=32,6=29,7=32,8=32,9=32,10=32,J=32,Q=32,K=32",
            "--sorted", "7,8,9", "--tableau", str(TABLEAUX / "chemin_d1.toml"), "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["tableau"] == "chemin de fer D1" and "depleted" in doc["assumptions"][0]


def test_edgesort_best_json():
    r = run("edgesort", "--decks", "8", "--best", "--only", "banker,player", "--top", "3", "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["search"]["sortings"] == 511 and doc["search"]["by"] == "value"
    assert [t["sorted"] for t in doc["search"]["top"]][0] == ["6", "7", "8", "9"]
    assert len(doc["search"]["top"]) == 3
    assert doc["best"]["sorted"] == ["6", "7", "8", "9"]


BAD = [
    (["edge", "--known", "1=Z"], "unknown rank 'Z'"),
    (["edge", "--known", "7=9"], "from 1 to 6"),
    (["edge", "--known", "0 in 9"], "from 1 to 6"),
    (["edge", "--known", "1 9"], "--known"),
    (["edge", "--known", ""], "--known is empty"),
    (["edge", "--known", "1=9", "--known", "1=8"], "given twice"),
    (["edge", "--decks", "1", "--remove", "9,9,9,9", "--known", "1=9"], "holds no such card"),
    (["edge", "--decks", "1", "--remove", "9,9,9", "--known", "1=9;2=9"], "cannot deal these cards together"),
    (["edge", "--composition", "16,4,4,4,4,4,4,4,4,4", "--known", "1=K"], "known only by value"),
    (["edge", "--tableau", "/nonexistent/t.toml"], "--tableau"),
    (["edge", "--tableau", ""], "--tableau"),
    (["edgesort"], "--sorted is missing"),
    (["edgesort", "--sorted", "6", "--best"], "not both"),
    (["edgesort", "--sorted", "6", "--by", "rank"], "go with --best"),
    (["edgesort", "--sorted", "6,Z"], "unknown rank 'Z'"),
    (["edgesort", "--sorted", ""], "--sorted names no rank"),
    (["edgesort", "--sorted", "6", "--cards", "5"], "--cards"),
    (["edgesort", "--sorted", "6", "--cards", "x"], "--cards"),
    (["edgesort", "--sorted", "6", "--only", "nope"], "--only: unknown bet"),
    (["edgesort", "--sorted", "0,A,2,3,4,5,6,7,8,9"], "not all 13"),
    (["edgesort", "--composition", "A=10", "--sorted", "6"], "no card of the sorted class"),
    (["edgesort", "--best", "--by", "suit"], "--by"),
    (["edgesort", "--best", "--top", "0"], "--top"),
    (["edgesort", "--best", "--by", "rank", "--composition", "16,4,4,4,4,4,4,4,4,4"], "known by rank"),
    (["edgesort", "--decks", "0", "--sorted", "6"], "--decks"),
]


@pytest.mark.parametrize("args,needle", BAD)
def test_bad_input_is_a_clear_error(args, needle):
    r = run(*args)
    assert r.exit_code == 2, r.output
    assert needle.lower() in r.output.lower(), r.output
    assert "Traceback" not in r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)


@pytest.mark.parametrize("edit,needle", [
    (lambda t: t.replace("7 = []\n", ""), "Banker total 7 is missing"),
    (lambda t: t.replace("4 = [3,4,5,6,7]", "4 = [3,4,10]"), "0-9, got 10"),
    (lambda t: t.replace("player_draws = [0, 1, 2, 3, 4, 5]", "player_draws = [9]"), "0-7"),
    (lambda t: "colour = 'red'\n" + t, "unknown key"),
])
def test_bad_tableau_file_is_exit_2(tmp_path, edit, needle):
    f = tmp_path / "t.toml"
    f.write_text(edit(GOLD))
    for command in (["edge", "--decks", "1"], ["edgesort", "--decks", "1", "--sorted", "9"],
                    ["simulate", "punto", "--shoes", "10"]):
        r = run(*command, "--tableau", str(f))
        assert r.exit_code == 2, r.output
        assert "--tableau" in r.output and needle in r.output, r.output


# ---------------------------------------------------------------- simulate punto --tableau
def test_simulate_punto_with_a_tableau():
    f = TABLEAUX / "chemin_d0.toml"
    r = run("simulate", "punto", "--shoes", "20", "--seed", "3", "--workers", "1", "--tableau", str(f), "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    t = load_tableau_toml(f)
    assert doc["tableau"] == t.to_json()
    exact = coup_distribution(Shoe.decks(8), t).outcomes()
    assert doc["exact"]["outcomes"]["banker"] == pytest.approx(float(exact["banker"]))
    plain = json.loads(run("simulate", "punto", "--shoes", "20", "--seed", "3", "--workers", "1", "--json").stdout)
    assert plain["tableau"] == PUNTO_BANCO.to_json()
    assert plain["outcomes"] != doc["outcomes"]
