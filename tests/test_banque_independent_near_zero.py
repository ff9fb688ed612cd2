"""The independent cooperative lower value on the sweep's first interval, down to theta = 0
(Ethier and Lee 2015, section 4: "interval 1 (0 < theta < 0.0172597)"), by a blow-up of the
square around p2 = 9/11: the blow-up is an exact identity, every condition it needs is
checked (and fails where it should), and the blown-up maximiser is the game's own."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baccara.banque.independent_eq.near_zero import blow_up, prove_first_interval
from baccara.banque.independent_eq.proof import exact_signature
from baccara.banque.independent_eq.solution import _maximise, independent_equilibrium
from baccara.banque.model import INFOSETS, banque_game
from baccara.errors import BaccaraError
from baccara.solve.roots import Endpoint

from .budget import examples

CURVE = INFOSETS.index((9, 10, 6))        # the first interval's form: p1 = 0, on (9,10,6)
EPS = Fraction(1, 100)


@pytest.fixture(scope="module")
def scaled():
    return blow_up(CURVE, EPS)


def _val(c, x, y):
    return c[0] + c[1] * x + c[2] * y + c[3] * x * y


def _v(bilinears, theta, x, y):
    """A + sum_k min(0, B_k), from the bilinears, exactly."""
    a1, a2, r1, r2 = bilinears
    out = theta * _val(a1, x, y) + (1 - theta) * _val(a2, x, y)
    for c1, c2 in zip(r1, r2):
        out += min(0, theta * _val(c1, x, y) + (1 - theta) * _val(c2, x, y))
    return out


def _first_signature():
    """The first interval's form at theta = 1/200, read off the exact solver of the game itself."""
    theta = Fraction(1, 200)
    sol = independent_equilibrium(banque_game(), theta)
    return exact_signature(theta, sol.p1, sol.p2)


fractions01 = st.fractions(min_value=0, max_value=1, max_denominator=10**6)


@settings(max_examples=examples(40), deadline=None)
@given(t=st.fractions(min_value=0, max_value=EPS, max_denominator=10**8).filter(lambda t: t > 0),
       p1=fractions01, s=fractions01)
def test_the_blow_up_is_an_identity_on_the_strip(scaled, t, p1, s):
    """V_theta(p1, c + theta T (2 s - 1)) = V_0* + theta W_theta(p1, s) / scale, exactly, for every theta
    in (0, eps] and every point of the blown-up square: the game's V computed from its own bilinears."""
    g = banque_game()
    p2 = scaled.p2(t, s)
    assert _v(g.bilinears, t, p1, p2) == scaled.v0 + t * _v(scaled.bilinears, t, p1, s) / scaled.scale


def test_the_segment_and_its_sets(scaled):
    """At theta = 0 the form's curve is the line p2 = 9/11; the sets kept are it, its eleven
    companions (j,10,6) and the 88 where Player 2 has a natural (no other set changes sign there)."""
    assert scaled.c == Fraction(9, 11)
    labels = [INFOSETS[k] for k in scaled.line]
    assert len(labels) == 100
    assert sum(1 for k1, k2, j in labels if k2 == 10 and j == 6) == 12
    assert sum(1 for _, k2, _ in labels if k2 == 11) == 88
    # V at theta = 0 is the same at every p1 on the segment: V_0*
    g = banque_game()
    for p1 in (0, Fraction(1, 3), 1):
        assert _v(g.bilinears, 0, p1, scaled.c) == scaled.v0


@pytest.mark.parametrize("theta", [Fraction(1, 10**6), Fraction(1, 997), Fraction(7, 1000)])
def test_the_blown_up_maximiser_is_the_games(scaled, theta):
    """The exact solver on the game itself and on the blown-up game find the same maximiser and the
    same lower value (a check of the blow-up independent of the interval prover)."""
    sol = independent_equilibrium(banque_game(), theta)
    q1, q2, w, *_ = _maximise(theta, scaled)
    assert sol.p1 == q1 == 0
    assert sol.p2 == scaled.p2(theta, q2)
    den = banque_game().denominator
    assert sol.lower_value * den == w * theta / scaled.scale + scaled.v0


def test_the_blow_ups_conditions_fail_where_they_should():
    """Each condition is checked, not assumed: a range too wide (at theta <= 1/20 a far set changes sign on the
    strip), a strip too narrow (a line set's curve meets its edge), a curve that is no line at
    theta = 0."""
    with pytest.raises(BaccaraError, match="changes on the strip"):
        blow_up(CURVE, Fraction(1, 20))
    with pytest.raises(BaccaraError, match="strip's edge"):
        blow_up(CURVE, EPS, half_width=Fraction(1, 10))
    with pytest.raises(BaccaraError, match="not a line"):
        blow_up(INFOSETS.index((10, 0, 5)), EPS)


def test_a_sweep_from_zero_is_proved_down_to_zero():
    """A sweep of (0, 11/1000] has one interval (below about 1e-10 the float solver once saw a
    spurious second one); prove_intervals proves it from theta = 0, blown up all the way (the
    blow-up holds up to 1/70).  A form with a draw set changed, or on another edge, is not proved."""
    from baccara.banque.independent_eq.sweep import exact_ends, independent_sweep
    from baccara.banque.independent_eq.sweep_proof import prove_intervals

    sw = independent_sweep(0.0, 0.011, grid=4)
    assert len(sw.intervals) == 1
    (proof,) = prove_intervals(sw, exact_ends(sw), seconds=300)
    assert proof.status == "proved", proof.reason
    assert proof.lo.ball == 0 and proof.form == "on (9,10,6), on p1=0"
    sig = _first_signature()
    assert sw.intervals[0].signature == sig
    curves, draws, edges = sig
    hi = Endpoint.of_rational(Fraction(11, 1000))
    wrong = (curves, draws - {min(draws)}, edges)
    assert prove_first_interval(hi, wrong, seconds=300).status != "proved"
    assert "p1 = 0" in prove_first_interval(hi, (curves, draws, ("p2=1",)), seconds=300).reason


@pytest.mark.slow  # over 10 CPU-s; the slow job runs it
def test_the_whole_first_interval_is_proved():
    """The sweep's first interval, (0, 0.0172597...), where Banker at (4,8,3) turns (a root of a
    quadratic): proved for every theta (about 15 s: blown up on (0, 1/70), the rest plain)."""
    from baccara.banque.independent_eq.sweep import exact_ends, independent_sweep

    sw = independent_sweep(0.005, 0.02, grid=30)
    end = exact_ends(sw)[0]
    assert f"{float(end.endpoint.ball.mid()):.7f}" == "0.0172597"
    proof = prove_first_interval(end.endpoint, sw.intervals[0].signature, seconds=600)
    assert proof.status == "proved", proof.reason


def test_a_form_whose_curve_is_no_segment_is_refused_at_once():
    """A curve that is no line p2 = c across the square at theta = 0 cannot be blown up at any eps:
    the proof says so without trying ever smaller ranges."""
    form = (frozenset({INFOSETS.index((10, 0, 5))}), frozenset(), ("p1=0",))
    proof = prove_first_interval(Endpoint.of_rational(Fraction(1, 100)), form)
    assert proof.status == "inconclusive" and "not a line" in proof.reason
