"""The Model B3 proof over the commission range, re-checked by the independent checker."""

from __future__ import annotations

import copy
import json

import pytest
from typer.testing import CliRunner

from baccara.check import check
from baccara.chemin.proof import prove_chemin3
from baccara.cli import app


@pytest.fixture(scope="module")
def doc1() -> dict:
    return json.loads(json.dumps(prove_chemin3(1).to_json()))


@pytest.fixture(scope="module")
def restricted1():
    """The sweep of Model B3's game restricted to Banker's two candidate strategies (d = 1): Ethier and Lee
    (2023), section 4's route to Table 7, computed apart from the proof."""
    from baccara.chemin.model import chemin_game
    from baccara.chemin.model3 import sweep_chemin3

    return sweep_chemin3(chemin_game("B3", 1), confirm=False).restricted.result


def test_prove_and_check_one_deck(doc1, restricted1):
    report = check(doc1)
    assert report.holds, report.summary()
    # the proof's exceptional alphas are the critical points of the face D*SDD with several equilibria,
    # which the existing sweep of the restricted game (Ethier and Lee 2023, Table 7) finds independently
    assert len(doc1["exceptional"]) == restricted1.counts()[4]


def test_exceptional_point_one_deck(doc1, restricted1):
    # one exceptional alpha, where the equilibria form a segment: the restricted sweep's own exceptional
    # point, r + s sqrt(d) (four extreme Banker strategies of support size 2, as the paper says there)
    (ex,) = doc1["exceptional"]
    (point,) = restricted1.exceptional
    alpha = point.point.alpha
    assert alpha.s != 0 and abs(ex["alpha"]["float"] - (float(alpha.r) + float(alpha.s) * alpha.d ** 0.5)) < 1e-12
    assert len(point.extremes) == 4
    assert len(ex["equilibria"]) == 2 and not ex["continuum"]


def _exceptional_entry(doc):
    key = (doc["exceptional"][0]["alpha"]["r"], doc["exceptional"][0]["alpha"]["s"])
    return next(c for c in doc["critical"] if (c["alpha"]["r"], c["alpha"]["s"]) == key)


def test_deleted_equilibrium_at_exceptional_point_fails(doc1):
    bad = copy.deepcopy(doc1)
    del _exceptional_entry(bad)["equilibria"][0]
    bad["exceptional"][0]["equilibria"] = _exceptional_entry(bad)["equilibria"]
    report = check(bad)
    assert not report.holds
    assert any(not s.ok and s.name.startswith("critical alpha 0.0655") for s in report.steps)


def test_deleted_critical_point_fails(doc1):
    bad = copy.deepcopy(doc1)
    bad["critical"].remove(_exceptional_entry(bad))
    assert not check(bad).holds
    bad = copy.deepcopy(doc1)
    face = next(f for f in bad["faces"] if f["face"] == "D*SDD")
    del face["points"][1]
    report = check(bad)
    assert any(not s.ok and "curve crossings" in s.name for s in report.steps)


def test_changed_exceptional_list_fails(doc1):
    bad = copy.deepcopy(doc1)
    bad["exceptional"] = []
    assert not check(bad).holds


def test_changed_coefficient_fails(doc1):
    bad = copy.deepcopy(doc1)
    bad["coefficients"]["G"][7][2] += 1
    assert not check(bad).holds


def test_deleted_interval_equilibrium_fails(doc1):
    bad = copy.deepcopy(doc1)
    face = next(f for f in bad["faces"] if f["face"] == "D*SDD")
    del face["intervals"][0]
    assert not check(bad).holds


def test_changed_equilibrium_fails(doc1):
    bad = copy.deepcopy(doc1)
    face = next(f for f in bad["faces"] if f["face"] == "D*SDD")
    x = face["intervals"][0]["banker"]
    x[0] = "1/1" if x[0] == "0/1" else "0/1"
    assert not check(bad).holds


def test_false_exclusion_fails(doc1):
    bad = copy.deepcopy(doc1)
    def faces(n):
        return [n] if n["status"] == "face" else [f for c in n.get("children", []) for f in faces(c)]
    node = faces(bad["tree"])[0]
    for k in [k for k in node if k not in ("box", "alpha")]:
        del node[k]
    node["status"] = "excluded"
    assert not check(bad).holds


def test_cli_bad_decks_and_tampered_file(tmp_path, doc1):
    runner = CliRunner()
    r = runner.invoke(app, ["chemin", "prove", "--model", "B3", "--decks", "0"])
    assert r.exit_code == 2 and "--decks" in r.output and "1 to 1,000" in r.output
    bad = copy.deepcopy(doc1)
    bad["coefficients"]["H"][3][0] += 1
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    assert runner.invoke(app, ["check", str(path)]).exit_code == 1


@pytest.mark.slow
@pytest.mark.parametrize("decks", [6, 8])
def test_prove_and_check_slow(decks):
    doc = json.loads(json.dumps(prove_chemin3(decks).to_json()))
    assert check(doc).holds


@pytest.fixture(scope="module")
def doc_inf() -> dict:
    return json.loads(json.dumps(prove_chemin3(None).to_json()))


def test_prove_and_check_infinite_shoe(doc_inf):
    # with replacement Player's compositions of 5 differ only in how often they are dealt (4:1:1:1:1),
    # so the proof is of the merged game and uniqueness is up to that equivalence
    assert doc_inf["equivalence"]["weights"] == [4, 1, 1, 1, 1]
    assert "unique up to this equivalence" in doc_inf["statement"]
    assert doc_inf["exceptional"] == []
    report = check(doc_inf)
    assert report.holds, report.summary()
    assert any(s.name == "equivalence" and s.ok for s in report.steps)


def test_infinite_shoe_tampering_fails(doc_inf):
    bad = copy.deepcopy(doc_inf)
    bad["coefficients"]["G"][7][2] += 1
    assert not check(bad).holds
    bad = copy.deepcopy(doc_inf)
    del bad["critical"][1]["equilibria"][0]
    assert not check(bad).holds
    bad = copy.deepcopy(doc_inf)
    bad["equivalence"]["weights"] = [1, 1, 1, 1, 1]
    assert not check(bad).holds
    bad = copy.deepcopy(doc_inf)
    del bad["equivalence"]
    assert not check(bad).holds


def test_finite_artefact_claiming_equivalence_fails(doc1):
    bad = copy.deepcopy(doc1)
    bad["equivalence"] = {"weights": [4, 1, 1, 1, 1], "merged_face": "*SSSS", "banker_groups": []}
    assert not check(bad).holds


def test_cli_prove_infinite_shoe(tmp_path):
    runner = CliRunner()
    path = tmp_path / "b3-inf.json"
    r = runner.invoke(app, ["chemin", "prove", "--model", "B3", "--decks", "inf", "--out", str(path)])
    assert r.exit_code == 0, r.output
    assert "unique up to this equivalence" in r.output
    assert runner.invoke(app, ["check", str(path)]).exit_code == 0


def test_false_banker_fixing_fails(doc1):
    # the checker hands each node's settled sets down to its children, but still verifies every
    # fixing a node claims against its own dominance
    bad = copy.deepcopy(doc1)
    node = bad["tree"]
    node["banker_fixed"][0][1] = 1 - node["banker_fixed"][0][1]
    report = check(bad)
    assert any(not s.ok and s.name == "case tree" for s in report.steps)
    bad = copy.deepcopy(doc1)
    kid = bad["tree"]["children"][0]
    settled = {i for n in (bad["tree"], kid) for i, _ in n.get("banker_fixed", [])}
    still_open = min(set(range(len(bad["coefficients"]["G"]))) - settled)
    kid["banker_fixed"] = sorted(kid.get("banker_fixed", []) + [[still_open, 1]])
    report = check(bad)
    assert any(not s.ok and s.name == "case tree" for s in report.steps)


def test_cli_proof_that_does_not_close_exits_1_and_claims_nothing(tmp_path, monkeypatch):
    """Without the case analysis, d = 39's case tree stops at its finest split near alpha = 0 (as it did
    before the analysis existed); that is a failed proof (exit 1, no artefact written), not bad input."""
    from baccara.chemin import proof

    monkeypatch.setattr(proof, "_cases", lambda *args, **kw: None)
    out = tmp_path / "p.json"
    r = CliRunner().invoke(app, ["chemin", "prove", "--decks", "39", "--out", str(out)])
    assert r.exit_code == 1
    assert "does not close" in r.output
    assert not out.exists()
    r = CliRunner().invoke(app, ["chemin", "prove", "--decks", "1", "--out", str(tmp_path / "no" / "p.json")])
    assert r.exit_code == 2 and "--out" in r.output
    # over several d, the rows that close are reported and the run still exits 1
    r = CliRunner().invoke(app, ["chemin", "prove", "--decks", "1,39", "--out", str(tmp_path / "many"), "--json"])
    assert r.exit_code == 1 and "does not close for some d" in r.output
    assert (tmp_path / "many" / "b3-d1.json").exists() and not (tmp_path / "many" / "b3-d39.json").exists()


@pytest.fixture(scope="module")
def doc39() -> dict:
    return json.loads(json.dumps(prove_chemin3(39).to_json()))


def _case_nodes(node: dict) -> list[dict]:
    found = [node] if node["status"] == "excluded-cases" else []
    for kid in node.get("children", []):
        found += _case_nodes(kid)
    return found


def test_39_decks_closes_by_cases_and_rechecks(doc39):
    """d = 39, the first d where dominance, relations and splits alone do not close: the nodes near
    alpha = 0 where Player's (1,4) is 1 and (7,8) mixes about 0.53 (a mirror of the equilibrium, whose
    mixing is at (1,4)) are excluded by cases, each refuted by a Farkas certificate; the statement is
    Ethier and Lee's Table 7 pattern (DMSDD, unique for every alpha)."""
    assert _case_nodes(doc39["tree"])
    assert doc39["exceptional"] == []
    assert "unique with no exception" in doc39["statement"] and "D*SDD" in doc39["statement"]
    report = check(doc39)
    assert report.holds, report.summary()


def test_tampered_case_certificate_fails(doc39):
    bad = copy.deepcopy(doc39)
    closed = _case_nodes(bad["tree"])[0]["cases"][0]["closed"][0]
    label = next(iter(closed["certificate"]))
    closed["certificate"][label] = "0"
    report = check(bad)
    assert any(not s.ok and s.name == "case tree" and "certificate" in s.detail for s in report.steps)


def test_missing_case_fails(doc39):
    bad = copy.deepcopy(doc39)
    node = next(n for n in _case_nodes(bad["tree"]) if len(n["cases"]) > 1)
    del node["cases"][-1]
    assert not check(bad).holds
    bad = copy.deepcopy(doc39)
    node = next(n for n in _case_nodes(bad["tree"]) if any(c["closed"][0]["banker"] for c in n["cases"]))
    case = next(c for c in node["cases"] if c["closed"][0]["banker"])
    del case["closed"][0]
    report = check(bad)
    assert any(not s.ok and s.name == "case tree" for s in report.steps)


def test_range_of_decks_writes_each_artefact(tmp_path, doc1):
    from baccara import chemin

    seen = []
    res = chemin.prove_range("B3", [1, "inf"], out_dir=tmp_path, progress=seen.append)
    assert [r["decks"] for r in res.rows] == [1, "inf"] and all(r["proved"] for r in res.rows)
    assert seen == [1, None]
    assert check(json.loads((tmp_path / "b3-d1.json").read_text())).holds
    alpha = doc1["exceptional"][0]["alpha"]["float"]   # the one-deck proof's, checked against the sweep above
    assert res.groups()[0] == ("1", "1", f"unique on face(s) D*SDD, 1 exceptional alpha(s): {alpha:.6f}")
    doc = res.to_json()
    assert doc["kind"] == "chemin-b3-proofs" and len(doc["rows"]) == 2
    grouped = chemin.prove_range("B3", [13, 14])
    assert grouped.groups() == [("13", "14", "unique on face(s) D*SDD, no exceptional alpha")]
    assert grouped.to_json()["groups"] == [{"from": "13", "to": "14",
                                            "outcome": "unique on face(s) D*SDD, no exceptional alpha"}]
    with pytest.raises(Exception, match="out_dir"):
        chemin.prove_range("B3", [1], out_dir=tmp_path / "missing")


def test_cli_range_options(tmp_path):
    runner = CliRunner()
    r = runner.invoke(app, ["chemin", "prove", "--decks", "1-2", "--workers", "0"])
    assert r.exit_code == 2 and "--workers" in r.output
    f = tmp_path / "f.json"
    f.write_text("{}")
    r = runner.invoke(app, ["chemin", "prove", "--decks", "1-2", "--out", str(f)])
    assert r.exit_code == 2 and "folder" in r.output
    r = runner.invoke(app, ["chemin", "prove", "--decks", "1-2,1001"])
    assert r.exit_code == 2 and "1 to 1,000" in r.output


@pytest.mark.slow
def test_far_shoes_keep_table7_pattern():
    """Beyond Ethier and Lee's d <= 100: d = 1000 proved with Table 7's pattern (DMSDD, unique for every
    alpha, no exceptional alpha) and re-checked."""
    doc = json.loads(json.dumps(prove_chemin3(1000).to_json()))
    assert doc["exceptional"] == [] and "unique with no exception" in doc["statement"]
    assert [f["face"] for f in doc["faces"] if any(iv["full_game"] for iv in f["intervals"])] == ["D*SDD"]
    assert check(doc).holds


@pytest.mark.slow
@pytest.mark.proof
def test_table7_pattern_for_every_d_from_13_to_1000():
    """Issue: 'the Table 7 pattern holds for every d >= 13, or the first d where it changes'.  Proved
    for every d from 13 to 1000 (about 2 CPU-hours; 'scripts/test.sh --proofs' runs it on two processes):
    Player plays DMSDD and the equilibrium is unique for every alpha in [0, 1/10]."""
    from baccara import chemin

    res = chemin.prove_range("B3", range(13, 1001), workers=2)
    changed = [r["decks"] for r in res.rows if not (r["proved"] and r["faces"] == ["D*SDD"] and not r["exceptional"])]
    assert changed == [], f"first d where the pattern changes (or the proof does not close): {changed[:5]}"
