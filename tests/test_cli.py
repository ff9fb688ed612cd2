"""The command line: its JSON contract, and every error path (clear message, exit 2, no traceback)."""

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from baccara import Shoe, builtin_bets, coup_distribution, evaluate
from baccara.banque.model import banque_game
from baccara.cli import app

runner = CliRunner()
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run(*args: str):
    return runner.invoke(app, list(args))


def frac(s: str) -> Fraction:
    num, den = s.split("/")
    return Fraction(int(num), int(den))


def test_edge_json_contract():
    r = run("edge", "--decks", "8", "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert set(doc) >= {"shoe", "outcomes", "bets"}
    assert doc["shoe"]["decks"] == 8 and doc["shoe"]["cards"] == 416
    exact = coup_distribution(Shoe.decks(8)).outcomes()
    assert {k: frac(v) for k, v in doc["outcomes"].items()} == exact
    assert set(doc["bets"]) == set(builtin_bets())
    expected = evaluate(Shoe.decks(8))
    for name, b in doc["bets"].items():
        assert "/" in b["ev"] and "/" in b["edge"]
        assert frac(b["edge"]) == expected[name].edge == -frac(b["ev"])
        assert frac(b["p_win"]) + frac(b["p_push"]) + frac(b["p_loss"]) == 1


def test_edge_options_change_the_bets():
    doc = json.loads(run("edge", "--infinite", "--commission", "1/25", "--tie-pays", "9", "--json").stdout)
    shoe = Shoe.infinite()
    want = evaluate(shoe, builtin_bets(commission=Fraction(1, 25), tie_pays=9))
    assert frac(doc["bets"]["banker"]["edge"]) == want["banker"].edge
    assert frac(doc["bets"]["tie"]["edge"]) == want["tie"].edge
    assert doc["shoe"]["kind"] == "infinite"


def test_edge_commission_zero_and_super6_pays():
    doc = json.loads(run("edge", "--decks", "6", "--commission", "0", "--super6-pays", "15", "--json").stdout)
    assert frac(doc["bets"]["banker"]["ev"]) == -frac(doc["bets"]["player"]["ev"])
    assert doc["bets"]["super6"]["payouts"]["15/1"]


def test_edge_composition_forms_agree():
    by_rank = json.loads(run("edge", "--composition", ",".join(["4"] * 13), "--json").stdout)
    by_name = json.loads(run("edge", "--composition", "A=4,2=4,3=4,4=4,5=4,6=4,7=4,8=4,9=4,10=4,J=4,Q=4,K=4", "--json").stdout)
    by_value = json.loads(run("edge", "--composition", "16,4,4,4,4,4,4,4,4,4", "--json").stdout)
    one_deck = json.loads(run("edge", "--decks", "1", "--json").stdout)
    assert by_rank["outcomes"] == by_name["outcomes"] == by_value["outcomes"] == one_deck["outcomes"]
    assert "player_pair" not in by_value["bets"] and "player_pair" in by_value["skipped"]


def test_edge_remove_and_add():
    doc = json.loads(run("edge", "--decks", "1", "--remove", "5,5", "--add", "9", "--json").stdout)
    shoe = Shoe.decks(1).remove("5").remove("5").add("9")
    assert {k: frac(v) for k, v in doc["outcomes"].items()} == coup_distribution(shoe).outcomes()
    assert doc["shoe"]["ranks"]["5"] == 2 and doc["shoe"]["ranks"]["9"] == 5


def test_edge_table_and_user_bets():
    r = run("edge", "--decks", "8", "--bets", str(EXAMPLES / "side_bets.toml"), "--exact")
    assert r.exit_code == 0, r.output
    for name in ("banker", "dragon7", "big", "perfect_pair", "lucky6"):
        assert name in r.stdout
    assert "1.0579%" in r.stdout


def test_eor_table_and_json():
    r = run("eor", "--decks", "8", "--bet", "dragon7")
    assert r.exit_code == 0 and "Effects of removal" in r.stdout
    doc = json.loads(run("eor", "--decks", "8", "--bet", "dragon7", "--json").stdout)
    assert set(doc["effects"]) == {"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"}
    # In a fresh shoe every card is equally likely to go: the effects weighted
    # by the cards of each rank sum to zero.
    assert sum(frac(e["effect"]) * e["cards_left"] for e in doc["effects"].values()) == 0


def test_bets_and_fields_list():
    assert "dragon_bonus_banker" in run("bets").stdout
    assert "banker_suited_pair" in run("fields").stdout


BAD = [
    (["edge", "--decks", "0"], "--decks"),
    (["edge", "--decks", "-3"], "--decks"),
    (["edge", "--decks", "2.5"], "--decks"),
    (["edge", "--decks", "eight"], "--decks"),
    (["edge", "--decks", "8", "--infinite"], "choose one shoe"),
    (["edge", "--composition", "1,2,3"], "13 counts"),
    (["edge", "--composition", ""], "--composition"),
    (["edge", "--composition", "A=4,Z=3"], "unknown rank"),
    (["edge", "--composition", "A=4,3"], "mixes"),
    (["edge", "--composition", "A=-4,2=40"], "non-negative"),
    (["edge", "--composition", "A=x"], "whole number"),
    (["edge", "--composition", "A=2,2=3"], "at least 6 cards"),
    (["edge", "--decks", "1", "--remove", "X"], "--remove"),
    (["edge", "--decks", "1", "--remove", "A,A,A,A,A"], "none left"),
    (["edge", "--infinite", "--remove", "A"], "infinite"),
    (["edge", "--commission", "1"], "commission"),
    (["edge", "--commission", "-1/20"], "commission"),
    (["edge", "--commission", "five"], "--commission"),
    (["edge", "--tie-pays", "0"], "tie pays"),
    (["edge", "--super6-pays", "-2"], "super6 pays"),
    (["edge", "--bets", "/nonexistent/bets.toml"], "not found"),
    (["eor", "--decks", "inf", "--bet", "banker"], "finite"),
    (["eor", "--decks", "8", "--bet", "nosuchbet"], "unknown bet"),
    (["eor", "--decks", "8"], "--bet"),
]


@pytest.mark.parametrize("args,needle", BAD)
def test_bad_input_is_a_clear_error(args, needle):
    r = run(*args)
    assert r.exit_code == 2, r.output
    assert needle.lower() in r.output.lower()
    assert "Traceback" not in r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)


BAD_TOML = [
    ("[bets.x]\nrules = [ { when = { nosuch = 1 }, pays = 2 } ]", "unknown event field"),
    ("[bets.x]\nrules = [ { when = { winner = 'dealer' }, pays = 2 } ]", "winner is one of"),
    ("[bets.x]\nrules = [ { when = { margin = 'big' }, pays = 2 } ]", "integers"),
    ("[bets.x]\nrules = [ { when = { natural = 1 }, pays = 2 } ]", "true or false"),
    ("[bets.x]\nrules = [ { when = { natural = true }, pays = 'lots' } ]", "pays must be a number"),
    ("[bets.x]\nrules = [ { when = { natural = true }, pays = -3 } ]", "below -1"),
    ("[bets.x]\nrules = [ { when = { natural = true } } ]", "needs 'pays'"),
    ("[bets.x]\nrules = []", "non-empty"),
    ("[bets.x]\nrule = []", "unknown key"),
    ("[bets.banker]\nrules = [ { when = { natural = true }, pays = 1 } ]", "built-in"),
    ("[other]\nx = 1", "no [bets.NAME]"),
    ("this is not toml", "not valid TOML"),
]


@pytest.mark.parametrize("text,needle", BAD_TOML)
def test_bad_bets_file_is_a_clear_error(tmp_path, text, needle):
    f = tmp_path / "bets.toml"
    f.write_text(text)
    r = run("edge", "--decks", "1", "--bets", str(f))
    assert r.exit_code == 2, r.output
    assert needle.lower() in r.output.lower(), r.output


def test_user_bet_needing_ranks_on_a_value_shoe_is_an_error(tmp_path):
    r = run("edge", "--composition", "16,4,4,4,4,4,4,4,4,4", "--bets", str(EXAMPLES / "side_bets.toml"))
    assert r.exit_code == 2 and "either_pair needs a shoe known by rank" in r.output


def test_installed_command_exits_2_without_traceback():
    p = subprocess.run([sys.executable, "-m", "baccara", "edge", "--decks", "0"], capture_output=True, text=True)
    assert p.returncode == 2
    assert "error" in p.stderr and "Traceback" not in p.stderr


# ---------------------------------------------------------------- hardening (bad or extreme input, found by users)
def cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    """``baccara ARGS`` as a user runs it: a process whose output goes to a pipe, not a terminal."""
    return subprocess.run([sys.executable, "-m", "baccara", *args], capture_output=True, text=True, timeout=timeout)


HARDENED = [
    (["edge", "--composition", "A=4,A=4,2=40"], "twice"),
    (["edge", "--composition", "A=4,1=4,2=40"], "twice"),  # 1 is the ace too
    (["edge", "--tie-pays", "1e400"], "--tie-pays"),
    (["edge", "--tie-pays", "inf"], "--tie-pays"),
    (["edge", "--commission", "nan"], "--commission"),
    (["edge", "--decks", "1e400"], "--decks"),
    (["chemin", "solve", "--commission", "1e-99999999"], "--commission"),
    (["chemin", "table4", "--decks", "1-1000000"], "--decks"),
    (["chemin", "table7", "--decks", "1-500"], "--allow-long"),
    (["chemin", "plot", "--out", ""], "--out"),
    (["chemin", "plot", "--out", "/nonexistent/x.png"], "does not exist"),
    (["banque", "plot", "--points", "10000000"], "--points"),
    (["banque", "plot", "--figure", "3", "--points", "50000"], "--allow-long"),
    (["banque", "solve", "--theta", "1/10**6"], "--theta"),
]


@pytest.mark.parametrize("args,needle", HARDENED)
def test_hardened_inputs_are_clear_errors_at_once(args, needle):
    r = run(*args)
    assert r.exit_code == 2, r.output
    assert needle.lower() in r.output.lower(), r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)


@pytest.mark.parametrize("text,needle", [
    ("[bets.x]\nrules = [ { when = { banker_total = 12 }, pays = 2 } ]", "0-9"),
    ("[bets.x]\nrules = [ { when = { total_cards = [1, 2] }, pays = 2 } ]", "4-6"),
    ("[bets.x]\nrules = [ { when = { player_cards = 2, total_cards = 6 }, pays = 2 } ]", "can never hold"),
    ("[bets.x]\nrules = [ { when = { natural = true }, pays = inf } ]", "pays"),
    ("[bets.x]\nrules = [ { when = { natural = true }, pays = nan } ]", "pays"),
    ("[bets.x]\nrules = [ { when = { natural = true }, pays = 1e400 } ]", "pays"),
    ("[bets.x]\nrules = [ { when = { natural = true }, pays = 2 } ]\notherwise = inf", "otherwise"),
])
def test_bets_that_cannot_mean_anything_are_refused(tmp_path, text, needle):
    f = tmp_path / "bets.toml"
    f.write_text(text)
    for command in (["edge", "--decks", "1"], ["bets"], ["eor", "--decks", "1", "--bet", "x"]):
        r = run(*command, "--bets", str(f))
        assert r.exit_code == 2, r.output
        assert needle in r.output, r.output


def test_a_failed_certificate_is_exit_1_after_the_result(monkeypatch):
    from baccara.banque.correlated_eq import solution as banque_solution
    from baccara.result import failed_certificates

    good = banque_solution.correlated_equilibrium(banque_game(), Fraction(1, 2))
    doc = good.to_json()
    assert list(failed_certificates(doc)) == []
    doc["certificate"]["holds"] = False

    class Broken:
        def to_json(self):
            return doc

    monkeypatch.setattr(banque_solution, "correlated_equilibrium", lambda theta, game=None: Broken())
    r = run("banque", "solve", "--theta", "1/2", "--json")
    assert r.exit_code == 1
    assert '"holds": false' in r.output and "error: the certificate fails (certificate)" in r.output


def test_failed_certificates_finds_every_kind():
    from baccara.result import failed_certificates

    doc = {"equilibria": [{"certificate": {"holds": True}}, {"certificate": {"holds": False}}],
           "zero_sum": {"certified": False}, "rows": [{"confirmed": False}], "all_confirmed": True,
           "maximin_check": {"status": "refuted"}, "bound": {"status": "inconclusive"}, "ok": {"status": "holds"},
           "seed_route": {"candidates": [{"confirmed": False}]}}
    assert list(failed_certificates(doc)) == ["equilibria[1].certificate", "zero_sum.certified", "rows[0].confirmed",
                                              "maximin_check.status", "bound.status"]


def test_help_names_values_and_keeps_brackets():
    for command in (["edge"], ["chemin", "solve"], ["banque", "plot"], ["chemin", "table4"]):
        r = cli(*command, "--help")
        assert r.returncode == 0
        assert "<str>" not in r.stdout and "<bool>" not in r.stdout and "<int>" not in r.stdout, r.stdout
    assert "[bets.NAME]" in cli("edge", "--help").stdout


def test_tables_in_a_pipe_are_never_cut():
    r = cli("chemin", "sweep", "--model", "B2", "--decks", "6")
    assert r.returncode == 0, r.stderr
    assert "…" not in r.stdout and "..." not in r.stdout
    assert max(len(line) for line in r.stdout.splitlines()) > 80  # wider than a terminal, not wrapped to it


def test_a_bug_is_one_line_and_exit_1_not_a_traceback(monkeypatch):
    from baccara.banque.correlated_eq import solution as banque_solution

    def boom(theta, game=None):
        raise ArithmeticError("stalled")

    monkeypatch.setattr(banque_solution, "correlated_equilibrium", boom)
    monkeypatch.delenv("BACCARA_TRACEBACK", raising=False)
    r = run("banque", "solve", "--theta", "1/2")
    assert r.exit_code == 1
    assert "error: internal error (ArithmeticError: stalled)" in r.output
    assert isinstance(r.exception, SystemExit)


def test_a_closed_pipe_is_not_reported_as_a_bug():
    # `baccara edge --json | head -c 10`: the reader leaves early; the command stops quietly
    # with status 141 (as for SIGPIPE) and never prints "internal error".
    code = "from baccara.cli import main; main()"
    p = subprocess.Popen([sys.executable, "-c", code, "edge", "--decks", "8", "--json"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.stdout is not None and p.stderr is not None
    p.stdout.close()  # before the command writes (it imports and computes first)
    err = p.stderr.read()
    p.wait(timeout=120)
    assert p.returncode == 141 and b"error" not in err, err


def test_every_command_is_registered_by_its_own_name():
    """`baccara NAME ...` registers only NAME's module; every top-level command must be found that way."""
    import typer

    import baccara.cli as cli

    full = typer.main.get_command(cli.app)
    assert set(full.commands) == set(cli._STEP_OF)
