"""The checker's own recomputation of a banque Nash artefact's events (baccara.check.banque_events)."""

from __future__ import annotations

import json
from fractions import Fraction
from math import gcd
from pathlib import Path

import flint
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from baccara.check.banque import _Game, boundary_equilibria, events_step
from baccara.check.banque_deals import coefficient_table
from baccara.check.banque_events import Roots, descartes, recompute_events, same_root
from baccara.check.banque_interior import interior_equilibria
from baccara.cli import app

from .budget import examples

#: written by ``baccara banque prove --stored --out FILE`` (all of (0, 1/2])
WHOLE = Path(__file__).parent / "data" / "banque_nash_all.json"
STORED = Path(__file__).parent / "data" / "banque_nash_49_100.json"
#: around the region that the sampled sweep once missed (three equilibria near theta = 37/400)
LO, HI = Fraction(23, 250), Fraction(47, 500)


@pytest.fixture(scope="module")
def game():
    return _Game(coefficient_table())


@pytest.fixture(scope="module")
def around_37_400(game):
    return recompute_events(game, LO, HI)


def _events_in(lo, hi):
    doc = json.loads(WHOLE.read_text())
    return [ev for ev in doc["events"] if lo < Fraction(ev["interval"][0]) and Fraction(ev["interval"][1]) < hi]


# ---------------------------------------------------------------- exact roots
def _integer_poly(coeffs) -> flint.fmpz_poly:
    """An integer multiple of the polynomial with these rational coefficients (constant first)."""
    den = 1
    for c in coeffs:
        den = den * c.denominator // gcd(den, c.denominator)
    return flint.fmpz_poly([int(c * den) for c in coeffs])


@st.composite
def roots_inside(draw):
    """(f, a, b, built): an integer polynomial with roots built inside (a, b) -- rational ones, repeated
    ones, a pair of conjugate quadratic irrationals -- times a random cofactor, not zero at a or b;
    ``built`` holds the floats of the roots put inside."""
    a = draw(st.fractions(-3, 3, max_denominator=12))
    width = draw(st.fractions(Fraction(1, 12), 3, max_denominator=12))
    b = a + width
    f = flint.fmpz_poly([1])
    built = set()
    for t in draw(st.lists(st.fractions(0, 1, max_denominator=30).filter(lambda t: 0 < t < 1), min_size=1, max_size=3)):
        r = a + width * t
        f *= flint.fmpz_poly([-r.numerator, r.denominator])
        built.add(round(float(r), 9))
    if draw(st.booleans()):   # m +- sqrt(n)/q inside: (x - m)^2 - n/q^2
        n = draw(st.sampled_from([2, 3, 5, 6, 7]))
        lo_q = int(3 * n**0.5 / width) + 1   # sqrt(n)/q < width/3
        q = draw(st.integers(lo_q, lo_q + 40))
        m = a + width * draw(st.sampled_from([Fraction(1, 2), Fraction(2, 5), Fraction(3, 5)]))
        f *= _integer_poly([m * m - Fraction(n, q * q), -2 * m, Fraction(1)])
        built |= {round(float(m) + s * n**0.5 / q, 9) for s in (-1, 1)}
    f *= flint.fmpz_poly([draw(st.integers(1, 9)), *draw(st.lists(st.integers(-9, 9), max_size=3))])
    assume(all(f(flint.fmpq(x.numerator, x.denominator)) != 0 for x in (a, b)))
    return f, a, b, built


@settings(max_examples=examples(40), deadline=None)
@given(roots_inside())
def test_roots_match_an_independent_count(case):
    # the Descartes-bisection isolation agrees with flint's certified complex roots, and finds those built in
    f, a, b, built = case
    roots = Roots(a, b)
    roots.add([f])
    pieces = roots.pieces()
    expect = {round(float(z.real.mid()), 9) for g, _ in f.factor()[1] for z, _ in g.complex_roots()
              if z.imag == 0 and a < float(z.real.mid()) < b}
    assert all(any(abs(x - y) < 1e-8 for y in expect) for x in built)
    assert len(roots.roots) == len(expect)
    assert descartes(f, a, b) >= len(expect)
    # every piece's sample lies strictly between its two roots; no root of f in a piece
    for left, right, s in pieces:
        assert left.hi < s < right.lo
        assert f(flint.fmpq(s.numerator, s.denominator)) != 0


def test_same_root_tells_conjugates_apart():
    f = flint.fmpz_poly([-2, 0, 1])            # +- sqrt 2
    r = Roots(Fraction(0), Fraction(2))
    r.add([f])
    (root,) = r.roots
    assert same_root(root, f, Fraction(1), Fraction(3, 2))
    assert not same_root(root, f, Fraction(-3, 2), Fraction(-1))
    assert not same_root(root, flint.fmpz_poly([-3, 0, 1]), Fraction(1), Fraction(2))


# ---------------------------------------------------------------- the events
@pytest.mark.slow  # over 10 CPU-s; the slow job runs it
def test_the_recomputed_events_are_the_artefacts(around_37_400):
    # around 37/400 the checker alone finds where the three equilibria appear and where two
    # of them leave, and they are exactly the whole-range artefact's events there
    assert not around_37_400.trouble
    theirs = _events_in(LO, HI)
    assert [round(e["float"], 7) for e in theirs] == [0.0924720, 0.0939539]
    found = {n for r, _ in around_37_400.events for n, e in enumerate(theirs)
             if same_root(r, flint.fmpz_poly([int(c) for c in e["polynomial"]]),
                          *(Fraction(x) for x in e["interval"]))}
    assert found == {0, 1}
    assert all(any(same_root(r, flint.fmpz_poly([int(c) for c in e["polynomial"]]),
                             *(Fraction(x) for x in e["interval"])) for e in theirs)
               for r, _ in around_37_400.events)
    forms = {f for _, f in around_37_400.events}
    assert "crossing (10,10,6) x (5,10,6)" in forms


@pytest.mark.slow  # the events recomputed over the artefact (about 25 CPU-s); the slow job runs it
def test_deleting_an_event_fails(game):
    theirs = _events_in(LO, HI)
    assert events_step(game, LO, HI, theirs).ok
    step = events_step(game, LO, HI, theirs[1:])
    assert not step.ok and "no event of the artefact" in step.detail and "0.09247" in step.detail


def test_quick_skips_and_says_so(game):
    step = events_step(game, LO, HI, [], quick=True)
    assert step.ok and step.skipped and "not recomputed" in step.detail


@pytest.mark.slow  # over 10 CPU-s; the slow job runs it
def test_equilibria_constant_between_recomputed_events(game, around_37_400):
    # an oracle that does not use the events: the checker's own enumeration of every equilibrium
    # at a theta gives the same points' count at two rationals of each piece the events leave
    cuts = sorted({(r.lo, r.hi) for r, _ in around_37_400.events})
    ends = [(LO, LO)] + cuts + [(HI, HI)]
    counts = []
    for (_, a), (b, _) in zip(ends, ends[1:]):
        per = []
        for x in (Fraction(1, 3), Fraction(3, 4)):
            t = a + (b - a) * x
            pure, _ = boundary_equilibria(game, t)
            inner, undecided = interior_equilibria(game, t)
            assert not undecided
            per.append(len(pure) + len(inner))
        assert per[0] == per[1]
        counts.append(per[0])
    # three equilibria from 0.0924720 (at 0.0939539 one changes its form; two leave at 0.0941281)
    assert counts == [1, 3, 3]


@pytest.mark.slow  # over 10 CPU-s; the slow job runs it
def test_cli_quick_says_the_events_were_not_recomputed():
    r = CliRunner().invoke(app, ["check", "--quick", str(STORED)])
    assert r.exit_code == 0, r.output
    assert "not recomputed" in r.output


@pytest.mark.slow  # over 10 CPU-s; the slow job runs it
def test_two_workers_find_the_same_events(game, around_37_400):
    two = recompute_events(game, LO, HI, workers=2)
    assert [(float(r), f) for r, f in two.events] == [(float(r), f) for r, f in around_37_400.events]
    assert two.counts == around_37_400.counts and not two.trouble


@pytest.mark.slow  # a local Dask cluster's start, then the recomputation (about 25 CPU-s); the slow job runs it
def test_a_dask_cluster_finds_the_same_events(game, around_37_400):
    from baccara.processes import Workers

    on_dask = recompute_events(game, LO, HI, workers=Workers(2, "dask"))
    assert [(float(r), f) for r, f in on_dask.events] == [(float(r), f) for r, f in around_37_400.events]
    assert on_dask.counts == around_37_400.counts and not on_dask.trouble


@pytest.mark.parametrize("bad", ["0", "-1", "300", "two"])
def test_cli_workers_bad_input_exits_2(bad):
    r = CliRunner().invoke(app, ["check", "--workers", bad, str(STORED)])
    assert r.exit_code == 2 and "--workers" in r.output
