"""The banque Nash proof artefact (baccara banque prove) and its independent checker."""

import copy
import json
from fractions import Fraction as F
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from baccara.banque.model import banque_game
from baccara.banque.nash_eq.artefact import coefficients_json, number_json
from baccara.banque.nash_eq.solution import nash_equilibria
from baccara.check import check
from baccara.check.banque import _Game, _num, boundary_equilibria
from baccara.check.banque_deals import coefficient_table
from baccara.check.banque_interior import crossings, interior_equilibria, same_point
from baccara.cli import app

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
    sol = nash_equilibria(banque_game(), theta)
    theirs = {(_num(number_json(e.p1)).key(), _num(number_json(e.p2)).key()) for e in sol.equilibria
              if e.p1 in (0, 1) or e.p2 in (0, 1)}
    assert trouble == [] and mine == theirs
    assert (theta == F(1, 4)) == (not mine)


def _solver_interior(theta):
    out = []
    for e in nash_equilibria(banque_game(), theta).equilibria:
        pt = (_num(number_json(e.p1)), _num(number_json(e.p2)))
        if e.p1 not in (0, 1) and e.p2 not in (0, 1) and not any(same_point(pt, q) for q in out):
            out.append(pt)
    return out


@pytest.mark.parametrize("theta", [F(4, 43)] + [pytest.param(t, marks=pytest.mark.slow)   # 4-10 CPU-s each
                                                 for t in (F(1, 34), F(11, 38), F(1, 9), F(1, 4), F(1, 2))])
def test_checker_finds_the_mixing_equilibria_alone(theta):
    # the checker's own list of equilibria with both Players mixing against the solver's
    # enumeration: three at 4/43 (inside the region the sampled sweep once missed, one of them
    # rational, along one curve), none at 1/34, (9/11, 9/11) at 11/38.  At 1/9, 1/4 and 1/2 some
    # of Banker's sets share one indifference curve with gains in different ratios (at 1/2 eight
    # sets share one), each a draw variable of its own along it
    mine, undecided = interior_equilibria(_Game(coefficient_table()), theta)
    theirs = _solver_interior(theta)
    assert undecided == []
    assert len(mine) == len(theirs) and all(any(same_point(p, q) for q in mine) for p in theirs)
    assert len(mine) == {F(4, 43): 3, F(1, 34): 0, F(11, 38): 1, F(1, 9): 1, F(1, 4): 1, F(1, 2): 1}[theta]


@pytest.mark.slow
@settings(max_examples=6, deadline=None)
@given(st.fractions(min_value=F(1, 1000), max_value=F(1, 2)).filter(lambda t: t.denominator < 10**6))
def test_checker_mixing_equilibria_property(theta):
    # at any theta, what the checker lists is exactly what the solver lists (or it says why not)
    mine, undecided = interior_equilibria(_Game(coefficient_table()), theta)
    if not undecided:
        theirs = _solver_interior(theta)
        assert len(mine) == len(theirs) and all(any(same_point(p, q) for q in mine) for p in theirs)


def test_arcs_of_a_curve_and_rationals_between():
    from baccara.check.banque_interior import _arc_samples, _between, _sorted_distinct
    from baccara.check.qf import QF

    # p1 p2 = 1/4 in the open square runs from (1/4, 1) to (1, 1/4); cut at (1/2, 1/2) it has two
    # arcs, one sample each, on the curve and strictly inside its arc
    arcs = _arc_samples((F(-1, 4), 0, 0, 1), [(F(1, 2), F(1, 2))])
    assert len(arcs) == 2 and all(x * y == F(1, 4) for x, y in arcs)
    assert sorted(x < F(1, 2) for x, _ in arcs) == [False, True] and all(F(1, 4) < x < 1 for x, _ in arcs)
    # (p1 - 1/3)(p2 - 1/2) = 0: two lines, each cut where they cross, four arcs
    arcs = _arc_samples((F(1, 6), F(-1, 2), F(-1, 3), 1), [(F(1, 3), F(1, 2))])
    assert sorted((x == F(1, 3), y < F(1, 2) if x == F(1, 3) else x < F(1, 3)) for x, y in arcs) == [
        (False, False), (False, True), (True, False), (True, True)]
    # a rational strictly between two irrationals 2^-40 apart, and exact order across fields
    a, b = QF(0, 1, 2) / 2, QF(0, 1, 2) / 2 + F(1, 2 ** 40)
    r = _between(a, b)
    assert (r - a).sign() > 0 and (b - r).sign() > 0
    xs = _sorted_distinct([QF(0, 1, 3) / 2, F(1, 2), QF(0, 1, 2) / 2, F(1, 2)])
    assert [round(float(x), 6) for x in xs] == [0.5, 0.707107, 0.866025]


def test_crossings_of_two_hyperbolas():
    # p1 p2 = 1/4 and p1 = p2 (as bilinears c0 + c1 p1 + c2 p2 + c3 p1 p2) meet at (1/2, 1/2) only
    # in the open square; p1 p2 = 1/8 and p1 + p2 = 1 at (2 +- sqrt 2) / 4, irrational
    pts, shared = crossings((F(-1, 4), 0, 0, 1), (0, 1, -1, 0))
    assert not shared and len(pts) == 1 and all(v.a == F(1, 2) and v.b == 0 for v in pts[0])
    pts, shared = crossings((F(-1, 8), 0, 0, 1), (-1, 1, 1, 0))
    assert not shared and len(pts) == 2 and sorted(float(p[0]) for p in pts) == pytest.approx(
        [(2 - 2 ** 0.5) / 4, (2 + 2 ** 0.5) / 4])
    assert crossings((F(-1, 2), 1, 0, 0), (F(-1, 2), 1, 0, 0))[1]        # one line twice: shared


@pytest.mark.slow  # the whole artefact checked again (about 25 CPU-s); the slow job runs it
def test_deleting_a_mixing_equilibrium_fails_at_its_sample(stored):
    # the checker's own list catches it at the sample itself, not only in the bookkeeping
    doc = copy.deepcopy(stored)
    iv = doc["intervals"][0]
    iv["equilibria"] = [e for e in iv["equilibria"] if e["p1"][:2] != ["9/11", "0/1"]]
    iv["player_strategies"] -= 1
    report = check(doc, quick=True)
    bad = [s.name for s in report.steps if not s.ok]
    assert "interval 0 (theta = 31/63): every equilibrium found by the checker alone" in bad


@pytest.mark.slow  # over 10 CPU-s; the slow job runs it
def test_stored_artefact_checks(stored):
    report = check(stored, quick=True)
    assert report.holds, [s for s in report.steps if not s.ok]
    names = [s.name for s in report.steps]
    assert "coefficients" in names and "forms across events" in names
    # at theta = 1/2 too, where eight of Banker's sets share one curve, the checker lists every
    # equilibrium itself
    assert "point theta = 1/2: every equilibrium found by the checker alone" in names


@pytest.mark.slow  # over 10 CPU-s; the slow job runs it
def test_deleting_an_equilibrium_fails(stored):
    doc = copy.deepcopy(stored)
    iv = doc["intervals"][1]
    assert iv["equilibria"]
    del iv["equilibria"][0]
    report = check(doc, quick=True)
    assert not report.holds
    assert any(not s.ok and s.name in ("forms across events",) or "interval 1" in s.name and not s.ok
               for s in report.steps)


@pytest.mark.slow  # the whole artefact checked again (about 25 CPU-s); the slow job runs it
def test_changing_a_coefficient_fails(stored):
    doc = copy.deepcopy(stored)
    key = sorted(doc["game"]["coefficients"]["gain"])[100]
    doc["game"]["coefficients"]["gain"][key][0][3] += 1
    report = check(doc, quick=True)
    assert not report.holds
    assert next(s for s in report.steps if s.name == "coefficients").ok is False


@pytest.mark.slow  # the whole artefact checked again (about 25 CPU-s); the slow job runs it
def test_a_wrong_equilibrium_fails(stored):
    doc = copy.deepcopy(stored)
    e = doc["intervals"][0]["equilibria"][0]
    e["p1"] = ["4/5", "0", 1]
    assert not check(doc, quick=True).holds


@pytest.mark.slow  # the whole artefact checked again from the command line (about 40 CPU-s); the slow job runs it
def test_cli_check_tampered_file_exits_1(stored, tmp_path):
    doc = copy.deepcopy(stored)
    doc["events"][0]["interval"] = ["49/100", "99/200"]
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(doc))
    r = CliRunner().invoke(app, ["check", "--quick", str(path)])
    assert r.exit_code == 1, r.output
    good = tmp_path / "good.json"
    good.write_text(json.dumps(stored))
    assert CliRunner().invoke(app, ["check", "--quick", str(good)]).exit_code == 0


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
    assert doc["kind"] == "banque-nash" and check(doc).holds    # events recomputed too (about 90 s)
    assert doc["events"] == json.loads(STORED.read_text())["events"]


#: written by ``baccara banque prove --stored --out FILE`` (all of (0, 1/2], about 2 minutes)
WHOLE = Path(__file__).parent / "data" / "banque_nash_all.json"


def test_three_regions_follow_from_the_whole_range_artefact():
    # the user guide's statement (unique but on three regions where three equilibria coexist)
    # is computed from the whole-range artefact when the site is built; here the artefact must
    # give exactly three such regions, at the folds and the detached pair found by the sweep
    doc = json.loads(WHOLE.read_text())
    assert (doc["range"]["lo"], doc["range"]["hi"]) in (("0", "1/2"), ("0/1", "1/2"))
    regions = []
    for iv in doc["intervals"]:
        if iv["player_strategies"] > 1:
            if regions and regions[-1][1] == iv["lo_float"]:
                regions[-1][1] = iv["hi_float"]
            else:
                regions.append([iv["lo_float"], iv["hi_float"]])
    assert len(regions) == 3
    assert all(3 == iv["player_strategies"] for iv in doc["intervals"] if iv["player_strategies"] > 1)
    page = (Path(__file__).parent.parent / "docs" / "guide" / "banque.md").read_text()
    assert "tests/data/banque_nash_all.json" in page and 'iv["player_strategies"] > 1' in page


@pytest.mark.slow
def test_whole_range_artefact_is_reproduced_and_checks(tmp_path):
    # the whole range, written by the command from the stored events, equals the stored
    # artefact, and the checker re-derives every equilibrium at every sample and at theta = 1/2
    # (quick: the events between samples are recomputed by the test below, marked proof)
    out = tmp_path / "all.json"
    r = CliRunner().invoke(app, ["banque", "prove", "--stored", "--out", str(out)])
    assert r.exit_code == 0, r.output
    doc = json.loads(out.read_text())
    assert doc == json.loads(WHOLE.read_text())
    report = check(doc, quick=True)
    assert report.holds, [s for s in report.steps if not s.ok][:3]
    alone = [s for s in report.steps if s.name.endswith("every equilibrium found by the checker alone")]
    assert len(alone) == len(doc["intervals"]) + len(doc["points"])


@pytest.mark.slow
@pytest.mark.proof
def test_whole_range_artefact_events_are_the_checkers():
    # The whole check, not quick: the checker recomputes, apart from the prover, every theta of (0, 1/2]
    # where the set of equilibria can change, and each must be an event of the artefact
    # (about 70 CPU-minutes: scripts/test.sh --proofs, not CI).
    report = check(json.loads(WHOLE.read_text()))
    assert report.holds, [s for s in report.steps if not s.ok][:3]
    events = [s for s in report.steps if s.name.startswith("events")]
    assert events and all(s.ok and "not recomputed" not in s.detail for s in events)


def test_samples_avoid_coinciding_curves():
    # at theta = 1/4 two of Banker's curves coincide with unequal gains; a sample chosen in an
    # interval around it is not 1/4
    import flint

    from baccara.banque.nash_eq.artefact import _coincide_unequally, _generic_sample

    assert _coincide_unequally(F(1, 4), None) and not _coincide_unequally(F(4, 43), None)
    t = _generic_sample(flint.arb(6) / 25, flint.arb(13) / 50, None)
    assert F(6, 25) < t < F(13, 50) and t != F(1, 4) and not _coincide_unequally(t, None)
