"""The banque Nash proof artefact (baccara banque prove) and its independent checker."""

import copy
import json
from fractions import Fraction as F
from pathlib import Path

import pytest
from typer.testing import CliRunner

from baccara.check import check
from baccara.check.banque import _Game, _num, boundary_equilibria
from baccara.check.banque_deals import coefficient_table
from baccara.cli import app
from baccara.games.banque.game import banque_game
from baccara.games.banque.nash import nash_equilibria
from baccara.games.banque.nash_artefact import coefficients_json, number_json, prove

#: written by ``baccara banque prove --lo 49/100 --hi 1/2`` (about 2 minutes)
STORED = Path(__file__).parent / "data" / "banque_nash_49_100.json"


@pytest.fixture(scope="module")
def stored() -> dict:
    return json.loads(STORED.read_text())


def test_plain_count_equals_the_solvers_game():
    # two derivations of the same sums: the numba kernel by two-card totals, the checker's
    # count from the thirteen ranks
    assert coefficient_table() == coefficients_json(banque_game())


@pytest.mark.parametrize("theta", [F(1, 50), F(3, 20), F(1, 4)])
def test_checker_finds_the_pure_player_equilibria_alone(theta):
    # the checker's own enumeration of equilibria with a pure Player (p1 = 0 at 1/50 and 3/20,
    # Ethier and Lee 2015, section 5) against the solver's complete enumeration
    game = _Game(coefficient_table())
    mine, trouble = boundary_equilibria(game, theta)
    sol = nash_equilibria(theta)
    theirs = {(_num(number_json(e.p1)).key(), _num(number_json(e.p2)).key()) for e in sol.equilibria
              if e.p1 in (0, 1) or e.p2 in (0, 1)}
    assert trouble == [] and mine == theirs
    assert (theta == F(1, 4)) == (not mine)


def test_stored_artefact_checks(stored):
    report = check(stored)
    assert report.holds, [s for s in report.steps if not s.ok]
    names = [s.name for s in report.steps]
    assert "coefficients" in names and "forms across events" in names


def test_deleting_an_equilibrium_fails(stored):
    doc = copy.deepcopy(stored)
    iv = doc["intervals"][1]
    assert iv["equilibria"]
    del iv["equilibria"][0]
    report = check(doc)
    assert not report.holds
    assert any(not s.ok and s.name in ("forms across events",) or "interval 1" in s.name and not s.ok
               for s in report.steps)


def test_changing_a_coefficient_fails(stored):
    doc = copy.deepcopy(stored)
    key = sorted(doc["game"]["coefficients"]["gain"])[100]
    doc["game"]["coefficients"]["gain"][key][0][3] += 1
    report = check(doc)
    assert not report.holds
    assert next(s for s in report.steps if s.name == "coefficients").ok is False


def test_a_wrong_equilibrium_fails(stored):
    doc = copy.deepcopy(stored)
    e = doc["intervals"][0]["equilibria"][0]
    e["p1"] = ["4/5", "0", 1]
    assert not check(doc).holds


def test_cli_check_tampered_file_exits_1(stored, tmp_path):
    doc = copy.deepcopy(stored)
    doc["events"][0]["interval"] = ["49/100", "99/200"]
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(doc))
    r = CliRunner().invoke(app, ["check", str(path)])
    assert r.exit_code == 1, r.output
    good = tmp_path / "good.json"
    good.write_text(json.dumps(stored))
    assert CliRunner().invoke(app, ["check", str(good)]).exit_code == 0


@pytest.mark.parametrize("args,flag", [(["--hi", "3/4"], "--hi"), (["--lo", "-1"], "--lo"),
                                       (["--lo", "1/3", "--hi", "1/4"], "--lo"), (["--out", "x.txt"], "--out")])
def test_prove_bad_input_exits_2(args, flag):
    r = CliRunner().invoke(app, ["banque", "prove", *args])
    assert r.exit_code == 2
    assert flag in r.output


@pytest.mark.slow
def test_prove_then_check(tmp_path):
    # a fresh proof over a short range, written by the command and re-checked by the checker
    out = tmp_path / "proof.json"
    r = CliRunner().invoke(app, ["banque", "prove", "--lo", "49/100", "--hi", "1/2", "--out", str(out)])
    assert r.exit_code == 0, r.output
    doc = json.loads(out.read_text())
    assert doc["kind"] == "banque-nash" and check(doc).holds
    assert doc["events"] == json.loads(STORED.read_text())["events"]


@pytest.mark.slow
def test_prove_matches_the_api():
    a = prove(F(49, 100), F(1, 2))
    assert a.to_json()["statement"] == json.loads(STORED.read_text())["statement"]
