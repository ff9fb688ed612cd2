"""The independent cooperative lower value proved for every theta of a sweep interval
(Ethier and Lee 2015, section 4): the interval's ends from the sweep, exactly; the proof's
outcome computed, and checked against the exact solver at rationals inside."""

from fractions import Fraction

import pytest

from baccara.banque.independent_eq.interval import prove_interval
from baccara.banque.independent_eq.proof import exact_signature
from baccara.banque.independent_eq.solution import independent_equilibrium
from baccara.banque.independent_eq.sweep import exact_ends, independent_sweep
from baccara.banque.independent_eq.sweep_proof import prove_intervals
from baccara.banque.model import banque_game
from baccara.solve.moving import evaluate
from baccara.solve.roots import Endpoint, rational_between_balls


@pytest.fixture(scope="module")
def short_sweep():
    """Three intervals around theta = 0.433: the middle one, (55716/128711, 0.4331174...),
    has Banker indifferent at (10,0,5) and (11,10,6) at the Players' maximin."""
    sw = independent_sweep(0.4325, 0.4335, grid=8)
    return sw, exact_ends(sw)


@pytest.fixture(scope="module")
def short_proofs(short_sweep):
    """Every interval of the short sweep, each proved within two minutes (about 10 s each here)."""
    return prove_intervals(*short_sweep, seconds=120)


@pytest.fixture(scope="module")
def middle_proof(short_sweep):
    """The short sweep's middle interval, proved as prove_intervals proves it (a third of its work)."""
    sw, ends = short_sweep
    return prove_interval(ends[0].endpoint, ends[1].endpoint, sw.intervals[1].signature, seconds=120)


@pytest.mark.slow  # over 10 CPU-s; the slow job runs it
def test_an_interval_is_proved_for_every_theta(short_sweep, middle_proof):
    sw, ends = short_sweep
    assert len(sw.intervals) == 3 and all(e.endpoint is not None for e in ends)
    lo, hi = ends[0].endpoint, ends[1].endpoint
    proof = middle_proof
    assert (proof.lo, proof.hi) == (lo, hi)
    assert proof.status == "proved", proof.reason
    assert proof.form == "on (10,0,5), on (11,10,6)"
    assert lo.exact() == "55716/128711"                   # Banker at (10,0,5) turns there: a rational end
    doc = proof.to_json()
    assert doc["status"] == "proved" and doc["from"]["exact"] == "55716/128711"
    # the claim is about every theta in between: the exact solver agrees at rationals across the interval
    a, b = Fraction(55716, 128711), Fraction(4331174736, 10**10)
    for k in (1, 7, 13, 19):
        theta = a + (b - a) * k / 20
        sol = independent_equilibrium(banque_game(), theta)
        assert exact_signature(theta, sol.p1, sol.p2) == sw.intervals[1].signature


def test_the_value_is_the_forms_moving_point(short_sweep):
    """The proved value is V at the moving point of the form: at a rational inside, the exact
    solver's lower value equals A + the drawing sets' B at that point."""
    from baccara.banque.independent_eq.sweep import independent_locus
    from baccara.banque.model import banque_game

    sw, ends = short_sweep
    theta = rational_between_balls(ends[0].endpoint.ball, ends[1].endpoint.ball)
    sol = independent_equilibrium(banque_game(), theta)
    point, value = independent_locus(sw.intervals[1].signature, theta, float(sol.p1))
    p1, p2 = point.at(theta)
    assert (p1, p2) == (sol.p1, sol.p2)
    assert evaluate(value, p1, p2, theta) == sol.lower_value * banque_game().denominator


def test_a_form_carried_past_its_end_is_not_proved(short_sweep):
    """Past 0.4331174..., Banker's sign at (0,2,4) turns at the form's point: stretching the
    interval to 0.4335 must fail on the form's own conditions."""
    sw, ends = short_sweep
    proof = prove_interval(ends[0].endpoint, Endpoint.of_rational(Fraction(4335, 10000)), sw.intervals[1].signature,
                           sample=Fraction(433, 1000))
    assert proof.status != "proved"
    assert "(0,2,4)" in proof.reason


@pytest.mark.slow
def test_every_interval_of_a_sweep_is_proved_and_reported(short_sweep, short_proofs):
    """prove_intervals takes the sweep's own ends (the outer ones its range's, as rationals);
    the sweep's document and table say which intervals are proved for every theta."""
    from rich.console import Console

    from baccara.banque.independent_eq.sweep import lower_value_peak
    from baccara.banque.independent_eq.sweep_proof import INTERVALS_PROVE
    from baccara.banque.sweeps import IndependentSweep

    sw, ends = short_sweep
    assert [p.status for p in short_proofs] == ["proved"] * 3, [p.reason for p in short_proofs]
    assert short_proofs[0].lo.rational == Fraction(0.4325) and short_proofs[2].hi.rational == Fraction(0.4335)
    assert short_proofs[0].hi == ends[0].endpoint and short_proofs[2].lo == ends[1].endpoint
    assert [p.form for p in short_proofs] == ["on (10,10,6), on (10,11,6), on (11,10,6)"] + ["on (10,0,5), on (11,10,6)"] * 2
    result = IndependentSweep(sw, ends, lower_value_peak(), None, short_proofs)
    doc = result.to_json()
    assert doc["intervals_proved"] == 3 and doc["lower_value_proved_on_intervals"] == INTERVALS_PROVE
    assert doc["intervals"][1]["lower_value_on_interval"]["from"]["exact"] == "55716/128711"
    console = Console(width=220, record=True)
    for r in result.renderables():
        console.print(r)
    text = console.export_text()
    assert "proved on the interval" in text and "3 of 3 intervals proved for every theta" in text


def test_a_time_limit_ends_the_proof_inconclusive(short_sweep):
    from baccara.errors import ParameterError

    sw, ends = short_sweep
    proof = prove_interval(ends[0].endpoint, ends[1].endpoint, sw.intervals[1].signature, seconds=1e-6)
    assert proof.status == "inconclusive" and "time limit" in proof.reason and not proof.holds
    for bad in (0, -1.0):
        with pytest.raises(ParameterError, match="seconds"):
            prove_interval(ends[0].endpoint, ends[1].endpoint, sw.intervals[1].signature, seconds=bad)
        with pytest.raises(ParameterError, match="seconds"):
            prove_intervals(sw, ends, seconds=bad)


def test_prove_intervals_only_with_the_independent_sweep_and_a_positive_limit():
    from typer.testing import CliRunner

    from baccara.banque.sweeps import sweep
    from baccara.cli import app
    from baccara.errors import ParameterError

    for args, words in ((["--concept", "nash", "--prove-intervals", "30"], "independent"),
                        (["--concept", "independent", "--prove-intervals", "0"], "(0, 86400]"),
                        (["--concept", "independent", "--prove-intervals", "ten"], "'ten'"),
                        (["--concept", "independent", "--prove-intervals", "nan"], "(0, 86400]")):
        r = CliRunner().invoke(app, ["banque", "sweep", *args])
        assert r.exit_code == 2 and "--prove-intervals" in r.output and words in r.output, r.output
    with pytest.raises(ParameterError, match="prove_intervals"):
        sweep("correlated", prove_intervals=10)
    with pytest.raises(ParameterError, match="prove_intervals"):
        sweep("independent", prove_intervals=0)


def test_the_wrong_form_is_not_proved(short_sweep):
    sw, ends = short_sweep
    proof = prove_interval(ends[0].endpoint, ends[1].endpoint, sw.intervals[0].signature)
    assert proof.status == "inconclusive" and "another form" in proof.reason


@pytest.mark.slow
def test_a_form_carried_past_a_jump_is_refuted():
    """At 0.1124969... the maximiser jumps: the form's own conditions still hold past it, but
    another point (where the curves of (8,4,5) and (0,7,5) cross) guarantees more.  Stretched past the jump,
    the interval must be refuted, with a theta just past it and that point."""
    sw = independent_sweep(0.1122, 0.1128, grid=6)
    ends = exact_ends(sw)
    assert [e.reason for e in ends] == ["Banker at (1,7,5)", "the two forms' values equal (a jump)"]
    iv = sw.intervals[1]
    proof = prove_interval(ends[0].endpoint, Endpoint.of_rational(Fraction(1126, 10000)), iv.signature,
                           sample=Fraction(1124, 10000))
    assert proof.status == "refuted"
    theta = Fraction(proof.reason.split("theta = ")[1].split(" ")[0])
    assert float(ends[1].endpoint) < theta < Fraction(1126, 10000)
    # the witness is right: the exact solver's lower value there exceeds the stretched form's
    sol = independent_equilibrium(banque_game(), theta)
    assert exact_signature(theta, sol.p1, sol.p2) == sw.intervals[2].signature
    # and the interval up to the jump itself is proved
    assert prove_interval(ends[0].endpoint, ends[1].endpoint, iv.signature).status == "proved"


@pytest.mark.slow
def test_a_candidate_whose_draw_set_changes_is_not_mistaken_for_a_witness():
    """On (0.495875..., 0.496125...) a candidate near the maximiser crosses curves (its draw set
    changes inside the interval): W_S with the draw set read at one theta overestimates V
    elsewhere, and must not be taken for a point that beats the form.  The interval is proved."""
    sw = independent_sweep(0.4955, 0.4963, grid=8)
    ends = exact_ends(sw)
    k = next(i for i, iv in enumerate(sw.intervals) if iv.lo < 0.4960 < iv.hi)
    proof = prove_interval(ends[k - 1].endpoint, ends[k].endpoint, sw.intervals[k].signature)
    assert proof.status == "proved", proof.reason
    assert proof.form == "on (9,3,4), on (10,6,6)"


def test_pieces_split_at_each_root_once_even_when_conditions_share_it():
    """Two conditions with a common root (3 theta - 1) cut the interval there once; the other
    roots, sqrt(2)/4 and 2/5, cut it too (1/3 < sqrt(2)/4): four pieces, each strictly between its cuts."""
    import flint

    from baccara.banque.independent_eq.interval import _pieces

    t = flint.fmpz_poly([0, 1])
    f = (3 * t - 1) * (8 * t * t - 1)
    g = (3 * t - 1) * (5 * t - 2) * (3 * t - 1)
    pieces = _pieces([f, g], Endpoint.of_rational(Fraction(1, 4)), Endpoint.of_rational(Fraction(1, 2)))
    cuts = [float(b) for _, b in pieces[:-1]]
    assert cuts == pytest.approx([1 / 3, 2 ** 0.5 / 4, 2 / 5])
    for a, b in pieces:
        assert a.ball < b.ball


@pytest.mark.parametrize("wide", [False, True])
def test_pieces_tell_an_end_from_the_other_root_of_its_polynomial(wide):
    """f = 2^400 (t - 1)^2 - 2 (over its content 2) is irreducible with roots 1 -+ sqrt(2) 2^-200,
    closer than the proofs' 128 bits resolve.  On (lower root, 2) the lower root is the
    interval's end (its ball as FLINT isolates it, or widened to 0.999 of the gap, still
    holding no other root): it must be recognised as the end, and the upper root must cut
    the interval: two pieces, the cut strictly above the end."""
    import flint

    from baccara.banque.independent_eq.interval import _pieces
    from baccara.solve.roots import precision, real_roots

    with precision(128):
        f = flint.fmpz_poly([2**399 - 1, -(2**400), 2**399])
        low, up = real_roots(f)
        ball = flint.arb(low.mid(), (up.mid() - low.mid()) * 0.999) if wide else low
        lo = Endpoint(ball, f)
        pieces = _pieces([f], lo, Endpoint.of_rational(Fraction(2)))
        assert len(pieces) == 2
        (a, cut), (cut2, _) = pieces
        assert a is lo and cut is cut2 and lo.ball < cut.ball and cut.ball.overlaps(up)
        s = rational_between_balls(lo.ball, cut.ball)                # a sample between them, exactly
        x = flint.fmpq(s.numerator, s.denominator)
        assert f(x) < 0 and f(flint.fmpq(2)) > 0                     # f changes sign at the cut


@pytest.mark.slow
def test_an_interval_where_an_edge_point_degenerates_is_proved():
    """On (0.0449134, 0.0459910) the maximiser lies on (5,10,6) and (9,6,6).  At theta = 1/22
    inside it Banker's B at (5,6,6) does not vary along the edge p2 = 1 (its curve's point on
    that edge runs off to infinity), so no ball places that point on a theta-box around 1/22:
    it is decided in exact arithmetic, and the interval is proved."""
    from baccara.banque.independent_eq.interval import _Game, _poly_at
    from baccara.banque.model import banque_game, infoset_label

    G = _Game(banque_game())
    k = next(k for k, s in enumerate(banque_game().infosets) if infoset_label(s) == "(5,6,6)")
    c = [_poly_at(p, Fraction(1, 22)) for p in G.C[k]]
    assert c[1] + c[3] == 0 and c[0] + c[2] != 0          # B = c0 + c1 p1 + c2 p2 + c3 p1 p2 at p2 = 1
    sw = independent_sweep(0.0448, 0.0461, grid=8)
    ends = exact_ends(sw)
    assert float(ends[0].endpoint) < 1 / 22 < float(ends[1].endpoint)
    proof = prove_interval(ends[0].endpoint, ends[1].endpoint, sw.intervals[1].signature)
    assert proof.status == "proved", proof.reason
    assert proof.form == "on (5,10,6), on (9,6,6)"
