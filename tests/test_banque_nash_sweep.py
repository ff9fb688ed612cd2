"""Baccara banque's Nash equilibrium over theta, below 5772/33847 (Ethier and Lee 2015, section 5)."""

import json
from fractions import Fraction as F
from math import isqrt
from types import SimpleNamespace

import flint
import pytest

from baccara.banque.model import banque_game, infoset_label
from baccara.banque.nash_eq.events import THETA_9_11
from baccara.banque.nash_eq.solution import certify, nash_equilibria
from baccara.banque.nash_eq.sweep import NashSweep, branch_through, forms_at, nash_branches, nash_sweep, nash_sweep_json
from baccara.solve.moving import evaluate
from baccara.solve.roots import precision, rational_between_balls

LABELS = [infoset_label(k) for k in banque_game().infosets]


def _labels(form):
    return [LABELS[i] for i in form.mixed]


def test_the_interval_below_5772_33847():
    # Ethier and Lee (2015), section 5: just below theta'' = 5772/33847 Banker mixes on (10,0,4) and
    # (11,10,6), p1 = (1443 - 9304 theta)/(481 - 3850 theta), p2 = 9/11, and the interval's
    # left end is theta' = (82755888 + 1123 sqrt(2262279009))/803081778, "because of a
    # change in Banker's strategy at (9,8,3)".
    theta = F(17, 100)
    ((form, locus, eq, n),) = forms_at(theta)
    assert _labels(form) == ["(10,0,4)", "(11,10,6)"] and form.pure == ()
    assert locus.at(theta) == ((1443 - 9304 * theta) / (481 - 3850 * theta), F(9, 11))
    with precision():
        br = branch_through(theta, form, locus, eq, n, F(0), F(1, 2))
    a, b, c, D = 803081778, 82755888, 1123, 2262279009
    # theta' solves (a t - b)^2 = c^2 D
    expected = flint.fmpz_poly([b * b - c * c * D, -2 * a * b, a * a])
    f = br.lo.minimal_polynomial
    assert f.degree() == 2 and expected == f * (expected.coeffs()[-1] // f.coeffs()[-1])
    assert abs(float(br.lo) - (b + c * isqrt(D * 10**40) / 10**20) / a) < 1e-15
    assert br.lo_reason == "Banker at (9,8,3)"
    # ... and on the right the branch ends exactly where p1 reaches 9/11
    assert br.hi.as_rational == THETA_9_11


def test_interval_1():
    # Ethier and Lee (2015): "interval 1 (0 < theta < 0.0172597)": Banker mixes on one information
    # set and p1 = 0.
    branches, pieces = nash_branches(F(0), F(175, 10000))
    first = branches[pieces[0].branches[0]]
    assert first.hi.text(7) == "0.0172597" and first.form.pure == ((1, 0),) and len(first.form.mixed) == 1
    assert first.lo.as_rational == 0
    assert first.hi.minimal_polynomial == flint.fmpz_poly([1196071, -70128084, 48076640])


@pytest.fixture(scope="module")
def fold():
    return nash_branches(F(109, 1000), F(1101, 10000))


@pytest.mark.slow
def test_three_equilibria_coexist_past_the_paper(fold):
    # Beyond Ethier and Lee (2015) (which follows one equilibrium): on (0.1092511, 0.1099948) three
    # Nash equilibria coexist, an S-shaped fold of the equilibrium curve.  Each is
    # certified on the full game at a rational inside.
    branches, pieces = fold
    multi = [p for p in pieces if len(p.branches) > 1]
    assert len(multi) == 1 and len(multi[0].branches) == 3
    assert (multi[0].lo.text(7), multi[0].hi.text(7)) == ("0.1092511", "0.1099948")
    theta = F(1095, 10000)
    sol = nash_equilibria(banque_game(), theta)
    assert len(sol.player_strategies) == 3
    assert all(certify(theta, e).holds for e in sol.equilibria)
    # the three branches join at the fold's ends: one mixes at (0,8,3) only
    kinds = sorted(len(branches[k].form.mixed) for k in multi[0].branches)
    assert kinds == [1, 2, 2]
    single = next(branches[k] for k in multi[0].branches if len(branches[k].form.mixed) == 1)
    assert _labels(single.form) == ["(0,8,3)"] and single.lo.same(multi[0].lo) and single.hi.same(multi[0].hi)


def _equilibrium_at(br, t):
    """The branch's strategies at t: its point, Banker's draw set and mixing from its form."""
    p1, p2 = br.locus.at(t)
    x = [F(0)] * len(LABELS)
    for i in br.form.draw:
        x[i] = F(1)
    for z, (num, den) in zip(br.form.mixed, br.form.draw_probabilities()):
        x[z] = evaluate(num, p1, p2, t) / evaluate(den, p1, p2, t)
    return SimpleNamespace(p1=p1, p2=p2, draw=x)


@pytest.mark.slow
def test_each_end_is_where_the_equilibrium_stops(fold):
    # Independently of the event search: just inside each algebraic end the branch's
    # strategies pass the full-game certificate, just outside they do not.
    branches, _ = fold
    checked = 0
    for br in branches:
        for end, inward in ((br.lo, 1), (br.hi, -1)):
            if end.rational is not None:
                continue
            x = F(end.ball.mid().str(40, radius=False))
            assert certify(x + inward * F(1, 10**9), _equilibrium_at(br, x + inward * F(1, 10**9))).holds
            try:
                outside = certify(x - inward * F(1, 10**9), _equilibrium_at(br, x - inward * F(1, 10**9))).holds
            except (ArithmeticError, ZeroDivisionError):
                outside = False
            assert not outside
            checked += 1
    assert checked >= 4


@pytest.fixture(scope="module")
def full():
    return nash_sweep()


@pytest.mark.slow
def test_the_whole_nash_sweep(full):
    # Ethier and Lee (2015): 41 intervals with p1 = p2 = 9/11 above 5772/33847, then 62 below,
    # "Banker mixes on two information sets (40 cases), or Banker mixes on one
    # information set and p1 = 0 (22 cases)", the Players' strategies jumping once,
    # at theta_31 ~ 0.0844782.  Followed as the paper does (one equilibrium, right to
    # left), we find 64 intervals below (42 and 22): the two extra come from the folds
    # where three equilibria coexist, (0.0843394, 0.0861968), which contains the
    # paper's jump, and (0.1092511, 0.1099948), where a jump is forced.  Off the path, a pair
    # of equilibria is born at 0.0924720 and dies at 0.0941281 (three coexist there), which
    # sampling the branch ends alone missed; the proof's events cut the intervals there.
    sw: NashSweep = full
    upper = [p for p in sw.pieces if p.upper is not None]
    lower = [p for p in sw.pieces if p.upper is None]
    assert len(upper) == 41 and len(lower) == 70 and len(sw.branches) == 70
    path = sw.path()
    two = sum(1 for k, _, _ in path if len(sw.branches[k].form.mixed) == 2)
    one = sum(1 for k, _, _ in path if sw.branches[k].form.pure == ((1, 0),))
    assert (len(path), two, one) == (64, 42, 22)
    assert [e.text(7) for e in sw.path_jumps()] == ["0.0843394", "0.1092511"]
    assert sw.players_jumps() == []          # every jump of the path is inside a fold
    regions = _merge([(p.lo, p.hi) for p in sw.multiple()])
    assert [(a.text(7), b.text(7)) for a, b in regions] == [
        ("0.0843394", "0.0861968"), ("0.0924720", "0.0941281"), ("0.1092511", "0.1099948")]
    assert all(len(p.branches) in (1, 3) for p in lower)
    # the sweep's count is the complete enumeration's inside every interval
    with precision():
        samples = [rational_between_balls(p.lo.ball, p.hi.ball) for p in lower]
    assert [len(p.branches) for p in lower] == [len(nash_equilibria(banque_game(), x).player_strategies) for x in samples]
    ends = [p.hi.text(7) for p in lower]
    assert "0.0844782" in ends
    assert lower[-1].hi.as_rational == THETA_9_11


@pytest.mark.slow
def test_nash_sweep_json(full):
    doc = nash_sweep_json(full)
    assert doc["count"] == 111 and doc["discontinuities"] == 110
    assert len(doc["multiple_equilibria"]) == 6
    first = doc["intervals"][0]
    assert first["from"]["exact"] == "0/1" and first["to"]["polynomial"] == [1196071, -70128084, 48076640]
    b = doc["branches"][first["branches"][0]]
    assert b["pure_players"] == {"p1": 0} and b["at_sample"]["p1"]["exact"] == "0/1"
    assert doc["intervals"][-1]["to"]["exact"] == "1/2" and doc["intervals"][-1]["p1"] == "9/11"


def _merge(spans):
    out = []
    for a, b in spans:
        if out and out[-1][1].same(a):
            out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out


@pytest.mark.slow
def test_branch_plot(fold, tmp_path):
    from baccara.plots import plot_banque_branches

    branches, _ = fold
    segs = []
    for br in branches:
        xs = [br.lo, br.hi]
        ts = [F(float(x)).limit_denominator(10**9) for x in xs]
        ts = [ts[0] + (ts[1] - ts[0]) * k / 4 for k in range(1, 4)]
        pts = [br.locus.at(t) for t in ts]
        segs.append(([float(t) for t in ts], {"p1": [float(p[0]) for p in pts], "p2": [float(p[1]) for p in pts]}))
    path = plot_banque_branches(segs, tmp_path / "fig4.png", "Nash", "p")
    assert path.exists() and path.stat().st_size > 1000


@pytest.mark.slow
def test_the_sweep_as_a_result(full):
    # The result's document survives JSON and says what the sweep found, interval by interval.
    from rich.console import Console

    from baccara.banque.sweeps import NashSweep

    res = NashSweep(full)
    doc = json.loads(json.dumps(res.to_json()))
    assert doc["count"] == len(doc["intervals"]) == len(full.pieces)
    for iv, p in zip(doc["intervals"], full.pieces):
        assert (iv["from"]["float"], iv["to"]["float"]) == (float(p.lo), float(p.hi))
        assert iv["equilibria"] == (1 if p.upper is not None else len(p.branches))
    con = Console(record=True, width=200)
    res.show(con)
    text = con.export_text()
    assert f"{doc['count']} theta-intervals" in repr(res) and text.count("9/11") >= doc["count"] - 62
    assert "5772/33847" in text and "<table" not in text and "theta" in res._repr_html_()
