"""Every event of every Nash form, exactly: no equilibrium branch is born and dies unseen
(Ethier and Lee 2015, section 5, followed past the paper's single equilibrium)."""

import json
from fractions import Fraction as F
from importlib import resources

import flint
import pytest

from baccara.banque.model import banque_game
from baccara.banque.nash_eq.events import EVENTS_FILE, stored_events
from baccara.banque.nash_eq.proof import events_json, nash_proof
from baccara.banque.nash_eq.solution import nash_equilibria
from baccara.banque.nash_eq.sweep import nash_branches
from baccara.solve.roots import arb_of, precision, rational_between_balls

LO, HI = F(9, 100), F(95, 1000)

# the fold near 37/400 that sampling the branch ends missed: its left end, the point where two of
# its branches cross, and its right end
FOLD = [[-6785728807, 63617292288, 105589964800],
        [11738571, -3303674192, 36713503424, -30864293888, 2177187840],
        [620881462299683, -5917540719893608, -7300455685480448, 969369135874048]]


def _stored() -> dict:
    return json.loads(resources.files("baccara.banque.nash_eq").joinpath(EVENTS_FILE).read_text())


def test_stored_events_are_isolated_roots():
    # each stored event: an irreducible integer polynomial changing sign on a rational interval
    # holding exactly one of its real roots, the intervals disjoint and ascending
    events = stored_events()
    doc = _stored()
    assert len(events) == len(doc["events"]) > 3
    assert doc["range"] == ["0", "5772/33847"] and doc["continua"] == []
    polys = [row["polynomial"] for row in doc["events"]]
    k = polys.index(FOLD[0])
    assert polys[k:k + 3] == FOLD
    assert [e.text(7) for e in events[k:k + 3]] == ["0.0924720", "0.0939539", "0.0941281"]
    assert all(flint.fmpz_poly(p).factor()[1][0][1] == 1 and len(flint.fmpz_poly(p).factor()[1]) == 1 for p in polys)


@pytest.fixture(scope="module")
def around_37_400():
    proof = nash_proof(LO, HI)
    return proof, None, nash_branches(LO, HI, events=proof.events)


@pytest.mark.slow
def test_the_fold_at_37_400_is_found(around_37_400):
    # The sampled sweep over (0, 5772/33847) saw one equilibrium on the interval holding
    # 37/400; the complete enumeration finds three there.  With the proof's events among the ends,
    # the sweep's count equals the enumeration's at 37/400 and inside every piece.
    proof, _, (_, new) = around_37_400
    t = F(37, 400)

    def count(pieces, x):
        return next(len(p.branches) for p in pieces if p.lo.ball < arb_of(x) < p.hi.ball)

    assert count(new, t) == len(nash_equilibria(banque_game(), t).player_strategies) == 3
    for p in new:
        x = rational_between_balls(p.lo.ball, p.hi.ball)
        assert len(p.branches) == len(nash_equilibria(banque_game(), x).player_strategies)
    multi = [(p.lo.text(7), p.hi.text(7)) for p in new if len(p.branches) > 1]
    assert multi == [("0.0924720", "0.0939539"), ("0.0939539", "0.0941281")]
    # each end of the region is an event of the proof, a root of an integer polynomial
    assert all(any(e.same(q) for q in proof.events) for p in new[1:] for e in (p.lo,))
    assert [[int(c) for c in e.minimal_polynomial.coeffs()] for e in proof.events] == FOLD


@pytest.mark.slow
@pytest.mark.proof  # re-derives the stored events of (0, 5772/33847) from scratch, as its twin for the upper part
def test_the_stored_events_are_the_proofs():
    # Re-derive every event of (0, 5772/33847) and compare with the data the sweep uses.
    proof = nash_proof()
    assert proof.continua == []
    with precision():
        doc = events_json(proof)
        stored = stored_events()
        assert len(proof.events) == len(stored)
        for e, s in zip(proof.events, stored):
            assert e.minimal_polynomial == s.poly and e.ball.overlaps(s.ball)
    assert [row["polynomial"] for row in doc["events"]] == [row["polynomial"] for row in _stored()["events"]]


def test_stored_upper_events_are_the_nine_elevenths_breaks():
    # Above 5772/33847 the event proof (every form, every condition) finds exactly the rational
    # thetas where Banker's best reply to p1 = p2 = 9/11 changes (Ethier and Lee 2015, section 5),
    # derived here apart -- by the tests' own banque oracle, from the card weights -- as the roots of
    # Banker's gains from drawing, lines in theta: no other event, so no region with further equilibria there.
    # derived here apart as the roots of the linear B_i(9/11, 9/11; theta): no other event, so
    # no region with further equilibria there.
    from baccara.banque.nash_eq.events import UPPER_EVENTS_FILE

    from .banque_oracle import banker_gain_roots

    doc = json.loads(resources.files("baccara.banque.nash_eq").joinpath(UPPER_EVENTS_FILE).read_text())
    assert doc["range"] == ["5772/33847", "1/2"] and doc["continua"] == []
    events = stored_events(UPPER_EVENTS_FILE)
    assert all(e.poly.degree() == 1 for e in events)
    roots = [F(-int(e.poly[0]), int(e.poly[1])) for e in events]
    assert roots == banker_gain_roots(F(9, 11), F(9, 11), F(5772, 33847), F(1, 2))


@pytest.mark.slow
@pytest.mark.proof
def test_the_stored_upper_events_are_the_proofs():
    # Re-derive every event of (5772/33847, 1/2) (about 15 CPU-minutes: scripts/test.sh --proofs, not CI).
    from baccara.banque.nash_eq.events import THETA_9_11, UPPER_EVENTS_FILE

    proof = nash_proof(THETA_9_11, F(1, 2))
    assert proof.continua == []
    with precision():
        doc = events_json(proof)
    stored = json.loads(resources.files("baccara.banque.nash_eq").joinpath(UPPER_EVENTS_FILE).read_text())
    assert [row["polynomial"] for row in doc["events"]] == [row["polynomial"] for row in stored["events"]]


@pytest.mark.slow  # over 10 CPU-s; the slow job runs it
def test_edge_points_are_analysed_and_the_checker_agrees():
    # On (17/1000, 19/1000) the equilibrium with p1 = 0 (Player 2 mixing, Banker mixing where
    # the curve (9,10,6) meets the edge) changes Banker's draw set three times.  The proof once
    # dropped every curve-edge point (it tested p1 = 0 against the open square) and found no
    # event here; the checker's own recomputation, written apart, found them.  Both now agree.
    from baccara.check.banque import _Game
    from baccara.check.banque_deals import coefficient_table
    from baccara.check.banque_events import recompute_events, same_root
    from baccara.solve.roots import exact_bounds

    lo, hi = F(17, 1000), F(19, 1000)
    proof = nash_proof(lo, hi)
    assert [e.text(7) for e in proof.events] == ["0.0172597", "0.0182052", "0.0187178"]
    assert set(k for k, v in proof.forms.items() if v) == {"(9,10,6) meets p1 = 0"}
    assert proof.counts["along_curve_forms"] == 1498
    mine = recompute_events(_Game(coefficient_table()), lo, hi)
    assert not mine.trouble and mine.counts["along-curve candidates"] == 1498
    with precision():
        theirs = [(e.minimal_polynomial, *exact_bounds(e.ball)) for e in proof.events]
    hits = [[n for n, (f, a, b) in enumerate(theirs) if same_root(r, f, a, b)] for r, _ in mine.events]
    assert sorted(h[0] for h in hits if h) == [0, 1, 2] and all(hits)
    # the equilibrium itself: p1 = 0 on both sides of the first event, found by the enumeration
    for t in (F(1725, 100000), F(1727, 100000)):
        assert any(p[0] == 0 for p in nash_equilibria(banque_game(), t).player_strategies)


def test_forms_sharing_a_label_keep_every_event():
    # an along-curve form is named by its curve and the size of Banker's draw set, so two forms can
    # share a label: their events are gathered under it, never replaced (a lost event would be a
    # false proof), in one process and when a worker's chunk is merged
    from baccara.banque.nash_eq.proof import _Analyser, _merge
    from baccara.solve.roots import Endpoint

    with precision():
        a = Endpoint(arb_of(F(1, 10)), None)
        b = Endpoint(arb_of(F(1, 5)), None)
    an = _Analyser.__new__(_Analyser)
    an.forms, an.continua, an.coincident, an.degenerate, an.along = {"along x, 2 sets": [a]}, [], [], set(), set()
    an.counts = {}
    _merge(an, {"forms": {"along x, 2 sets": [b]}, "continua": [], "coincident": [], "degenerate": set(),
                "along": set(), "counts": {}})
    assert an.forms["along x, 2 sets"] == [a, b]
