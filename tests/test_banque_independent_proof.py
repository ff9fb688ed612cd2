"""The independent cooperative equilibrium's lower value, proved exactly (Ethier and Lee 2015, section 4)."""

from fractions import Fraction

import numpy as np
import pytest

from baccara.algebraic import QuadraticNumber
from baccara.banque.correlated_eq.solution import correlated_equilibrium
from baccara.banque.independent_eq.proof import (
    _exact_coefficients,
    exact_signature,
    local_certificate,
    prove_lower_value,
)
from baccara.banque.independent_eq.solution import independent_equilibrium
from baccara.banque.model import banque_game


def _proof(theta):
    ind = independent_equilibrium(banque_game(), theta)
    return ind, prove_lower_value(theta, ind.lower_value, (ind.p1, ind.p2), ind.ties)


@pytest.mark.parametrize("theta", [Fraction(1, 2), pytest.param(Fraction(1, 3), marks=pytest.mark.slow),
                                   pytest.param(Fraction(59, 500), marks=pytest.mark.slow), Fraction(1, 10**6),
                                   pytest.param(Fraction(4999, 10000), marks=pytest.mark.slow)], ids=str)
def test_the_lower_value_is_proved_exactly(theta):
    # 1/2: two curves cross at the maximiser; 1/3: three (p1 = p2 = 9/11); 59/500: a critical
    # point along one curve; 1/10**6 and 4999/10000: near the ends of the sweep over (0, 1/2],
    # the first on the edge p1 = 0.  No margin: max V over the square is the value itself.
    ind, proof = _proof(theta)
    assert proof.status == "proved" and proof.holds and proof.to_json()["margin"] == 0
    assert proof.value == ind.lower_value and proof.closed > 0
    (cert,) = proof.local
    assert cert.point == (ind.p1, ind.p2) and cert.quarters
    for qu in cert.quarters:
        assert all(0 <= v <= 1 for v in qu.q.values()) and all(s >= 0 for s in qu.slack)
    if theta == Fraction(59, 500):
        # along one curve the quarters the curve runs through need the exact multiplier that
        # makes the bound's gradient vanish at p*: a quadratic irrational, not a float
        assert len(cert.through) == 1
        assert any(isinstance(v, QuadraticNumber) and v.s != 0 for qu in cert.quarters for v in qu.q.values())
    if theta == Fraction(1, 10**6):
        assert ind.p1 == 0 and len(cert.quarters) == 2


@pytest.mark.slow  # over 10 CPU-s; the slow job runs it
def test_a_tampered_value_or_point_is_refused():
    # The proof can fail.  A value 1e-30 below the true one is refuted by the point itself,
    # and no Banker mixture closes a quarter at any level: the corner p* is above the value.
    theta = Fraction(1, 2)
    ind = independent_equilibrium(banque_game(), theta)
    low = ind.lower_value - Fraction(1, 10**30)
    bad = prove_lower_value(theta, low, (ind.p1, ind.p2))
    assert bad.status == "refuted" and bad.witness == (ind.p1, ind.p2) and not bad.holds
    A, C = _exact_coefficients(theta, banque_game())
    assert all(local_certificate(A, C, (ind.p1, ind.p2), low, lev) is None for lev in range(3, 16))
    assert local_certificate(A, C, (ind.p1, ind.p2), ind.lower_value, 3) is not None
    # a point moved 1e-30 off the maximiser, with its own (slightly lower) value: it is attained
    # there, but nothing around it closes, since p* guarantees more
    moved = (ind.p1 + Fraction(1, 10**30), ind.p2)
    from baccara.banque.independent_eq.proof import _v

    assert _v(A, C, *moved) < ind.lower_value
    assert prove_lower_value(theta, _v(A, C, *moved), moved).status != "proved"
    # a wrong maximiser altogether (a corner, with its value) is refuted
    corner = (Fraction(0), Fraction(0))
    assert prove_lower_value(theta, _v(A, C, *corner), corner).status == "refuted"


def _oracle_values(theta, points):
    """V = E over the pure pairs SS, SD, DS, DD of the Players' gain, plus min(0, Banker's
    gain from drawing) at every set, from the game's raw payoff vectors, exactly in integers
    (not the bilinear coefficients or the sign test the proof uses)."""
    g = banque_game()
    scale = theta.denominator * g.denominator
    a = np.array([int(x * scale) for x in g.a(theta)], dtype=object)
    h = np.array([[int(x * scale) for x in v] for v in g.h(theta)], dtype=object)
    out = []
    for p1, p2 in points:
        n = p1.denominator * p2.denominator
        x1, x2 = p1.numerator * p2.denominator, p2.numerator * p1.denominator    # p = x / n
        pi = np.array([(n - x1) * (n - x2), (n - x1) * x2, x1 * (n - x2), x1 * x2], dtype=object)
        hv = h.dot(pi)
        out.append(Fraction(int(a.dot(pi) + sum(v for v in hv if v < 0)), scale * n * n))
    return out


@pytest.mark.parametrize("theta", [Fraction(1, 2), Fraction(59, 500)], ids=str)
def test_an_exact_grid_never_exceeds_the_proved_value(theta):
    ind, proof = _proof(theta)
    assert proof.holds
    pts = [(Fraction(i, 16), Fraction(j, 16)) for i in range(17) for j in range(17)]
    # and a fine grid around the maximiser, spacing 1e-5, down to rationals next to it
    c1, c2 = (Fraction(float(x)).limit_denominator(10**12) for x in (ind.p1, ind.p2))
    pts += [(c1 + Fraction(i, 10**5), c2 + Fraction(j, 10**5)) for i in range(-5, 6) for j in range(-5, 6)]
    vals = _oracle_values(theta, pts)
    assert max(vals) <= ind.lower_value
    assert ind.lower_value - max(vals) < Fraction(1, 10**9)        # the grid comes close


@pytest.mark.parametrize("theta", [Fraction(3, 10), Fraction(1, 3)], ids=str)
def test_where_the_values_coincide_the_proved_lower_value_is_the_correlated_one(theta):
    # A different argument: the lower value is at most the upper value (the correlated
    # cooperative value, an exact LP); Ethier and Lee (2015), section 4: on
    # (9588/37663, 55716/128711) they coincide, with p1 = p2 = 9/11.
    ind, proof = _proof(theta)
    assert proof.holds and ind.p1 == ind.p2 == Fraction(9, 11)
    assert proof.value == correlated_equilibrium(banque_game(), theta).value


def test_published_lower_values():
    # Ethier and Lee (2015), section 4: at theta = 1/2 the lower value is
    # 5(-1933207795 + 260493 sqrt(245569))/[98 (13)^9] ("it can then be confirmed that this
    # determines a global maximum": here it is proved, exactly); the lower value peaks at
    # theta about 0.496000, about -0.008679984 (section 1).
    ind, proof = _proof(Fraction(1, 2))
    den = 98 * 13**9
    assert proof.holds and proof.value == QuadraticNumber(Fraction(5 * -1933207795, den),
                                                          Fraction(5 * 260493, den), 245569)
    ind, proof = _proof(Fraction(62, 125))
    assert proof.holds and round(float(proof.value), 9) == -0.008679984


@pytest.mark.slow  # over 10 CPU-s; the slow job runs it
def test_the_result_and_the_command_say_exact():
    from typer.testing import CliRunner

    from baccara.cli import app

    r = CliRunner().invoke(app, ["banque", "solve", "--concept", "independent", "--theta", "1/2", "--json"])
    assert r.exit_code == 0, r.output
    import json

    doc = json.loads(r.output)
    assert doc["lower_value_proved"] == "exact"
    check = doc["maximin_check"]
    assert check["status"] == "holds" and check["margin"] == 0 and check["exact"]
    cert = check["certificate"]
    assert cert["outcome"] == "proved" and cert["value"] == doc["lower_value"]["exact"]
    assert sorted(cert["local"][0]["curves_through_point"]) == ["(10,6,6)", "(6,10,6)"]
    assert len(cert["local"][0]["quarters"]) == 4
    r = CliRunner().invoke(app, ["banque", "solve", "--concept", "independent", "--theta", "1/2"])
    assert r.exit_code == 0 and "proved exactly (no margin)" in r.output


@pytest.mark.slow  # over 10 CPU-s; the slow job runs it
def test_sweep_samples_are_proved_with_the_intervals_form():
    # The last intervals of the sweep (theta up to 1/2): at a rational inside each the value is
    # proved exactly and the exact maximiser has the interval's (float) form.
    from baccara.banque.independent_eq.sweep import exact_ends, independent_sweep, lower_value_peak
    from baccara.banque.independent_eq.sweep_proof import SAMPLES_PROVE, prove_samples
    from baccara.banque.sweeps import IndependentSweep

    sw = independent_sweep(0.4962, 0.5, grid=4)
    samples = prove_samples(sw)
    assert len(samples) == len(sw.intervals) >= 2
    for s, iv in zip(samples, sw.intervals):
        assert iv.lo < s.theta < iv.hi and s.proved == "exact" and s.same_form
        assert exact_signature(s.theta, s.p1, s.p2) == iv.signature
    doc = IndependentSweep(sw, exact_ends(sw), lower_value_peak(), samples).to_json()
    assert doc["lower_value_proved"] == SAMPLES_PROVE
    assert all(iv["lower_value_at_sample"]["proved"] == "exact" for iv in doc["intervals"])
    # the table shows where each interval's value is proved, and says what is not proved
    from rich.console import Console

    console = Console(width=200, record=True)
    for r in IndependentSweep(sw, exact_ends(sw), lower_value_peak(), samples).renderables():
        console.print(r)
    text = console.export_text()
    assert "proved at" in text and f"{samples[0].theta} (exact)" in text and "value is not proved" in text


def test_prove_samples_only_with_the_independent_sweep():
    from typer.testing import CliRunner

    from baccara.cli import app

    r = CliRunner().invoke(app, ["banque", "sweep", "--concept", "nash", "--prove-samples"])
    assert r.exit_code == 2 and "--prove-samples" in r.output and "independent" in r.output
    from baccara.banque.sweeps import sweep
    from baccara.errors import ParameterError

    with pytest.raises(ParameterError, match="prove_samples"):
        sweep("correlated", prove_samples=True)
