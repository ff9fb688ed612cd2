"""The independent cooperative lower value as an artefact (baccara banque prove --concept independent) and its checker."""

from __future__ import annotations

import copy
import json
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from baccara.banque.independent_eq.artefact import prove
from baccara.check import check, check_file
from baccara.check.banque_deals import JOINT, coefficient_table
from baccara.check.banque_independent import _dyadic, _uncovered
from baccara.cli import app

from .budget import examples

THETAS = (Fraction(37, 400), Fraction(1, 2), Fraction(1, 1000))


@pytest.fixture(scope="module")
def doc() -> dict:
    # about 6 s: three exact proofs
    return json.loads(json.dumps(prove(THETAS).to_json()))


def _failed(d: dict) -> list[str]:
    return [s.name for s in check(d).steps if not s.ok]


@pytest.mark.slow  # over 10 CPU-s; the slow job runs it
def test_the_artefact_rechecks(doc):
    rep = check(doc)
    assert rep.holds, rep.steps
    assert [s.name for s in rep.steps][:5] == ["coefficients", "theta = 37/400: value attained",
                                               "theta = 37/400: local rectangles", "theta = 37/400: boxes",
                                               "theta = 37/400: cover"]
    # then what is shown: the display floats and the statement, held to the exact values
    assert [s.name for s in rep.steps][-2:] == ["display floats", "statement"]
    assert len(rep.steps) == 1 + 4 * len(THETAS) + 2


def test_the_published_value_at_one_half_rechecks_without_the_solvers(doc):
    # Ethier and Lee (2015), section 4: at theta = 1/2 the lower value is
    # 5(-1933207795 + 260493 sqrt(245569)) / [98 (13)^9]; the checker confirms the artefact's
    # proof of that number from its own count of the deals.
    pr = next(p for p in doc["proofs"] if p["theta"] == "1/2")
    den = 98 * 13**9
    assert [Fraction(pr["value"][0]), Fraction(pr["value"][1]), pr["value"][2]] == [
        Fraction(5 * -1933207795, den), Fraction(5 * 260493, den), 245569]
    assert check(doc).holds


def _v_grid(theta: Fraction, n: int) -> np.ndarray:
    """V on an n x n grid of the square, in floats, from the checker's own count (an oracle that
    uses neither the prover nor the certificates)."""
    t = coefficient_table()
    th = float(theta)
    A = np.array([th * a + (1 - th) * b for a, b in t["base"]]) / t["denominator"]
    B = np.array([[th * a + (1 - th) * b for a, b in zip(*rows)] for rows in t["gain"].values()]) / t["denominator"]
    g = np.linspace(0, 1, n)
    p1, p2 = np.meshgrid(g, g, indexing="ij")
    w = np.stack([(p1 if u1 else 1 - p1) * (p2 if u2 else 1 - p2) for u1, u2 in JOINT])       # u x grid
    return np.einsum("u,uij->ij", A, w) + np.minimum(np.einsum("ku,uij->kij", B, w), 0).sum(axis=0)


def test_a_grid_of_the_square_never_beats_the_proved_value(doc):
    for pr in doc["proofs"]:
        v = _v_grid(Fraction(pr["theta"]), 201)
        assert v.max() <= pr["value_float"] + 1e-12
        assert v.max() > pr["value_float"] - 1e-3          # and the grid comes close to it


def _lower(d):
    v = d["proofs"][0]["value"]
    v[0] = str(Fraction(v[0]) - Fraction(1, 10**30))


def _raise(d):
    v = d["proofs"][0]["value"]
    v[0] = str(Fraction(v[0]) + Fraction(1, 10**30))


def _mix(d):
    qu = d["proofs"][0]["local"][0]["quarters"][0]["banker_mix"]
    k = next(iter(qu))
    qu[k] = ["0/1", "0/1", 1] if Fraction(qu[k][0]) > Fraction(1, 2) else ["1/1", "0/1", 1]


def _coefficient(d):
    k = next(iter(d["game"]["coefficients"]["gain"]))
    d["game"]["coefficients"]["gain"][k][0][0] += 1


def _grow(d):
    b = d["proofs"][0]["boxes"][0]
    b["box"][2] = str(2 * Fraction(b["box"][2]))


def _stand(d):
    for b in d["proofs"][0]["boxes"]:
        b["draws"] = "0x0"


def _outside(d):
    d["proofs"][0]["maximiser"]["p1"] = ["3/2", "0/1", 1]


@pytest.mark.parametrize(("tamper", "step"), [
    (_lower, "local rectangles"),            # below V(p*) by 1e-30: no quarter closes
    (_raise, "value attained"),              # above: V(p*) is not it
    (lambda d: d["proofs"][0]["boxes"].pop(3), "cover"),
    (lambda d: d["proofs"][0]["local"][0]["quarters"].pop(), "local rectangles"),
    (lambda d: d["proofs"][0]["local"].pop(), "cover"),
    (_mix, "local rectangles"),
    (_coefficient, "coefficients"),
    (_grow, "boxes"),
    (_stand, "boxes"),
    (_outside, "value attained"),
], ids=["value-lowered", "value-raised", "box-deleted", "quarter-deleted", "rectangle-deleted", "mixture-changed",
        "coefficient-changed", "box-grown", "banker-stands", "maximiser-outside"])
def test_a_tampered_artefact_fails(doc, tamper, step):
    d = copy.deepcopy(doc)
    tamper(d)
    failed = _failed(d)
    assert any(name.endswith(step) for name in failed), failed


def test_a_malformed_artefact_is_a_failed_check_not_a_traceback(doc):
    d = copy.deepcopy(doc)
    d["proofs"][0]["boxes"][0]["draws"] = hex(1 << 5000)
    rep = check(d)
    assert not rep.holds and rep.steps[0].name == "artefact well formed"
    d = copy.deepcopy(doc)
    d["proofs"] = []
    assert not check(d).holds


@st.composite
def _quadtree(draw):
    """The leaves of a random quadtree of the unit square (level, i, j)."""
    leaves, stack = [], [(0, 0, 0)]
    while stack:
        level, i, j = stack.pop()
        if level < 5 and draw(st.booleans()):
            stack += [(level + 1, 2 * i + a, 2 * j + b) for a in (0, 1) for b in (0, 1)]
        else:
            leaves.append((level, i, j))
    return leaves


@settings(max_examples=examples(60), deadline=None)
@given(_quadtree(), st.data())
def test_the_cover_walk_accepts_every_quadtree_and_misses_no_hole(leaves, data):
    assert _uncovered(set(leaves), []) == []
    for level, i, j in leaves:
        side = Fraction(1, 2**level)
        assert _dyadic(i * side, j * side, side) == (level, i, j)
    gone = data.draw(st.sampled_from(leaves))
    rest = set(leaves) - {gone}
    side = Fraction(1, 2 ** gone[0])
    holes = _uncovered(rest, [])
    assert holes and any(h == (gone[1] * side, gone[2] * side, side) for h in holes) or gone == (0, 0, 0)
    # a rectangle over the missing leaf mends it
    rect = ((gone[1] * side, (gone[1] + 1) * side), (gone[2] * side, (gone[2] + 1) * side))
    assert _uncovered(rest, [rect]) == []


def test_dyadic_rejects_what_is_no_cell():
    assert _dyadic(Fraction(0), Fraction(0), Fraction(1, 3)) is None
    assert _dyadic(Fraction(1, 8), Fraction(0), Fraction(1, 2)) is None
    assert _dyadic(Fraction(1), Fraction(0), Fraction(1, 2)) is None


@pytest.mark.slow  # over 10 CPU-s; the slow job runs it
def test_the_command_writes_an_artefact_that_rechecks(tmp_path):
    out = tmp_path / "value.json"
    r = CliRunner().invoke(app, ["banque", "prove", "--concept", "independent", "--theta", "1/4,3/10",
                                 "--out", str(out)])
    assert r.exit_code == 0, r.output
    rep = check_file(out)
    assert rep.holds and rep.kind == "banque-independent"
    r = CliRunner().invoke(app, ["check", str(out)])
    assert r.exit_code == 0 and "every step holds" in r.output


@pytest.mark.parametrize("args", [
    ["--concept", "independent"],
    ["--concept", "independent", "--theta", "0"],
    ["--concept", "independent", "--theta", "1/4,one"],
    ["--concept", "independent", "--theta", "1/4", "--lo", "1/10"],
    ["--concept", "independent", "--theta", "1/4", "--stored"],
    ["--theta", "1/4"],
    ["--concept", "correlated"],
])
def test_bad_input_exits_2(args):
    r = CliRunner().invoke(app, ["banque", "prove", *args])
    assert r.exit_code == 2, r.output
    assert "error:" in r.output and "Traceback" not in r.output


def test_the_api_takes_theta_or_the_sweep_samples():
    from baccara import banque
    from baccara.errors import BaccaraError

    with pytest.raises(BaccaraError, match="either theta or sweep_samples"):
        banque.prove_independent()
    with pytest.raises(BaccaraError, match="either theta or sweep_samples"):
        banque.prove_independent("1/2", sweep_samples=True)
    with pytest.raises(BaccaraError, match="theta"):
        banque.prove_independent("3/2")
    with pytest.raises(BaccaraError, match="at least one"):
        banque.prove_independent([])


@pytest.mark.slow
@settings(max_examples=10, deadline=None)
@given(st.fractions(min_value=Fraction(1, 10**4), max_value=Fraction(1, 2), max_denominator=10**4))
def test_at_any_rational_theta_the_artefact_rechecks(theta):
    # the prover's exact proof closes (no CertificateError) and the checker, from its own count
    # of the deals, agrees
    d = json.loads(json.dumps(prove([theta]).to_json()))
    rep = check(d)
    assert rep.holds, [s for s in rep.steps if not s.ok]


@pytest.mark.slow  # over 10 CPU-s; the slow job runs it
def test_sweep_samples_prove_one_rational_inside_each_interval(monkeypatch):
    # the whole sweep takes minutes: here over (0.25, 0.27) only, across the end 9588/37663
    from baccara import banque
    from baccara.banque.independent_eq import artefact
    from baccara.banque.independent_eq import sweep as isw

    real = isw.independent_sweep
    monkeypatch.setattr(artefact, "independent_sweep", lambda: real(0.25, 0.27, grid=8))
    d = json.loads(json.dumps(banque.prove_independent(sweep_samples=True).to_json()))
    ivs = [p["sweep_interval"] for p in d["proofs"]]
    assert len(ivs) >= 2 and ivs[0][0] == 0.25 and ivs[-1][1] == 0.27
    assert all(a < float(Fraction(p["theta"])) < b for p, (a, b) in zip(d["proofs"], ivs))
    assert any(abs(b - 9588 / 37663) < 1e-8 for _, b in ivs[:-1])     # an interval ends there
    assert check(d).holds
