"""Unit tests of :mod:`baccara.solve.roots`: certified real roots of integer polynomials with
FLINT, their refinement, and exact endpoints.

Polynomials are built from known roots (rationals r = num/den as factors den x - num,
quadratic irrationals +-sqrt(D) as x^2 - D), so the true roots are known exactly; a ball is
checked against them with exact rational arithmetic on its exact ends.
"""

import itertools
from fractions import Fraction as F
from math import isqrt

import flint
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baccara.solve.roots import (
    Endpoint,
    arb_of,
    exact_bounds,
    precision,
    rational_below,
    rational_between_balls,
    rationals_around,
    real_roots,
    refine,
)


def poly_of(rationals=(), squares=(), extra=None):
    """prod (den x - num) * prod (x^2 - D) [* extra]."""
    p = flint.fmpz_poly([1])
    for r in rationals:
        p *= flint.fmpz_poly([-r.numerator, r.denominator])
    for D in squares:
        p *= flint.fmpz_poly([-D, 0, 1])
    if extra is not None:
        p *= extra
    return p


def ends(ball):
    """The ball's exact ends, mid -/+ rad, whatever FLINT's working precision."""
    def exact(x):
        m, e = x.man_exp()
        return F(int(m)) * F(2) ** int(e)

    mid, rad = exact(ball.mid()), exact(ball.rad())
    return mid - rad, mid + rad


def holds(ball, root):
    """The exact ends of ``ball`` bracket ``root``: a Fraction, or ('sqrt', D, sign)."""
    lo, hi = ends(ball)
    if isinstance(root, F):
        return lo <= root <= hi
    _, D, sgn = root
    if sgn > 0:   # lo <= sqrt D <= hi
        return (lo <= 0 or lo * lo <= D) and hi >= 0 and hi * hi >= D
    return lo <= 0 and lo * lo >= D and (hi >= 0 or hi * hi <= D)   # lo <= -sqrt D <= hi


def true_roots(rationals, squares):
    out = [(r, r) for r in set(rationals)]
    for D in set(squares):
        s = F(isqrt(D * 10**30), 10**15)  # only for ordering
        out += [(s, ("sqrt", D, 1)), (-s, ("sqrt", D, -1))]
    return [r for _, r in sorted(out, key=lambda t: t[0])]


non_squares = st.sampled_from([2, 3, 5, 6, 7, 10, 11])
rats = st.fractions(-5, 5, max_denominator=6)


# ---------------------------------------------------------------- hand-made
def test_sqrt2_and_three():
    # (x^2 - 2)(x - 3): roots -sqrt2 < sqrt2 < 3.
    p = poly_of([F(3)], [2])
    balls = real_roots(p)
    assert len(balls) == 3
    assert holds(balls[0], ("sqrt", 2, -1)) and holds(balls[1], ("sqrt", 2, 1)) and holds(balls[2], F(3))
    e = Endpoint(balls[1], p)
    assert e.minimal_polynomial == flint.fmpz_poly([-2, 0, 1])
    assert e.as_rational is None
    assert e.exact().startswith("root of ") and "1.414213562373" in e.exact()
    assert e.to_json()["polynomial"] == [-2, 0, 1]
    assert abs(float(e) - 2 ** 0.5) < 1e-15
    three = Endpoint(balls[2], p)
    assert three.as_rational == 3 and three.exact() == "3/1"
    assert three.to_json() == {"exact": "3/1", "float": 3.0, "polynomial": [-3, 1]}


def test_rational_root_found_through_its_factor():
    # (3x - 2)(x^2 + 1): the only real root is 2/3, a rational endpoint of a cubic.
    p = poly_of([F(2, 3)], extra=flint.fmpz_poly([1, 0, 1]))
    (ball,) = real_roots(p)
    e = Endpoint(ball, p)
    assert e.as_rational == F(2, 3) and e.exact() == "2/3"
    assert Endpoint.of_rational(F(2, 3)).same(e)
    assert not Endpoint.of_rational(F(3, 4)).same(e)


def test_no_real_roots_and_odd_multiplicity():
    assert real_roots(flint.fmpz_poly([1, 0, 1])) == []               # x^2 + 1
    p = poly_of([F(1), F(1), F(2)])                                    # (x-1)^2 (x-2)
    assert [holds(b, r) for b, r in zip(real_roots(p), [F(1), F(2)])] == [True, True]
    (only,) = real_roots(p, odd_only=True)                             # the sign changes at 2 only
    assert holds(only, F(2)) and not holds(only, F(1))


def test_rational_endpoint():
    e = Endpoint.of_rational(F(-7, 4))
    assert e.as_rational == F(-7, 4) and e.exact() == "-7/4" and e.minimal_polynomial is None
    assert e.to_json() == {"exact": "-7/4", "float": -1.75, "polynomial": None}
    assert e.text(3) == "-1.750"


def test_precision_context_restores():
    before = flint.ctx.prec
    with precision(300):
        assert flint.ctx.prec == 300
    assert flint.ctx.prec == before
    with pytest.raises(RuntimeError), precision():
        assert flint.ctx.prec == 256
        raise RuntimeError
    assert flint.ctx.prec == before


def test_refine_narrows_sqrt2_at_working_precision():
    # Inside ``precision()`` (256 bits) a request for 2^-240 is honoured: narrower, still sqrt2.
    with precision():
        p = poly_of(squares=[2])
        ball = real_roots(p)[1]
        ref = refine(ball, p, 240)
        assert ref.rad() <= flint.arb(2) ** -240 and ref.rad() <= ball.rad()
        assert holds(ref, ("sqrt", 2, 1))


@pytest.mark.parametrize("prec", [53, 128])
def test_refine_reaches_more_bits_than_the_working_precision(prec):
    # At FLINT's default 53 bits and at the 128 bits of banque's interval proofs, sqrt2's
    # isolating ball has radius about 6e-39 (53 bits) or 1.7e-77 (128 bits).  Refining to
    # 2^-300 and 2^-400 must give balls that narrow, still holding sqrt2, never wider than
    # the ball given, and leave the working precision as it was.  (Built at the working
    # precision, the result used to have radius 2^-prec: 2.2e-16 and 5.9e-39.)
    with precision(prec):
        p = poly_of(squares=[2])
        ball = real_roots(p)[1]
        for bits in (200, 300, 400):
            ref = refine(ball, p, bits)
            assert flint.ctx.prec == prec
            assert holds(ref, ("sqrt", 2, 1))
            assert ref.rad() <= flint.arb(2) ** -bits and ref.rad() <= ball.rad()
            lo, hi = ends(ref)                       # the ends bracket sqrt2 to 2^-bits
            assert hi - lo <= 2 * F(1, 2 ** bits) * (1 + F(1, 2 ** 20))


def test_a_rational_between_balls_closer_than_the_working_precision():
    # sqrt2 and a rational c within 2^-210 of it: at 128 bits their isolating balls, refined
    # to 2^-300, are disjoint, but their ends rounded to 128 bits cross; the sample between
    # them must still lie strictly between (the exact ends are used then).
    c = F(isqrt(2 * 4 ** 210), 2 ** 210)                     # just below sqrt2
    with precision(128):
        p = poly_of([c], squares=[2])
        lo_ball, hi_ball = (refine(b, p, 300) for b in real_roots(p)[1:])
        assert holds(lo_ball, c) and holds(hi_ball, ("sqrt", 2, 1))
        assert exact_bounds(lo_ball)[1] >= exact_bounds(hi_ball)[0]    # rounded: they cross
        m = rational_between_balls(lo_ball, hi_ball)
        assert ends(lo_ball)[1] < m < ends(hi_ball)[0] and c < m and m * m < 2


# ---------------------------------------------------------------- random, from known roots
@settings(max_examples=120, deadline=None)
@given(st.lists(rats, max_size=4), st.lists(non_squares, max_size=2))
def test_isolated_balls_hold_exactly_the_roots(rationals, squares):
    p = poly_of(rationals, squares)
    if p.degree() < 1:
        assert real_roots(p) == []
        return
    with precision():
        balls = real_roots(p)
        roots = true_roots(rationals, squares)
        assert len(balls) == len(roots)                      # every root, once (distinct roots)
        for b, r in zip(balls, roots):                       # in ascending order
            assert holds(b, r)
        for b, c in itertools.pairwise(balls):                   # disjoint and ascending
            assert exact_bounds(b)[1] < exact_bounds(c)[0]
            m = rational_between_balls(b, c)
            assert exact_bounds(b)[1] < m < exact_bounds(c)[0]
        # odd multiplicity: doubling every factor removes every sign change
        assert real_roots(p * p, odd_only=True) == []
        assert len(real_roots(p * p)) == len(roots)
        for b, r in zip(balls, roots):
            lo, hi = rationals_around(b)
            blo, bhi = exact_bounds(b)
            assert lo < blo and bhi < hi
            below = rational_below(b, F(-100), digits=3)
            assert F(-100) < below < blo and blo - below < F(2, 10**3)
            e = Endpoint(b, p)
            if isinstance(r, F):
                assert e.as_rational == r and e.exact() == f"{r.numerator}/{r.denominator}"
            else:
                assert e.as_rational is None
                assert e.minimal_polynomial == flint.fmpz_poly([-r[1], 0, 1])


@settings(max_examples=80, deadline=None)
@given(st.lists(rats, min_size=1, max_size=3, unique=True), st.lists(non_squares, max_size=2, unique=True),
       st.integers(60, 500), st.sampled_from([53, 128, 256]))
def test_refine_narrows_and_keeps_the_root(rationals, squares, bits, prec):
    # Whatever the working precision, below or above ``bits``: the refined ball holds its
    # root, lies inside the isolating ball (so it still isolates it), and has radius at most 2^-bits (unless the
    # isolating ball ends exactly on its root, where refine sees no sign change and keeps it).
    p = poly_of(rationals, squares)
    with precision(prec):
        refined = []
        for b, r in zip(real_roots(p), true_roots(rationals, squares)):
            ref = refine(b, p, bits)
            assert flint.ctx.prec == prec
            assert holds(ref, r)
            assert ref.rad() <= b.rad()
            assert ends(b)[0] <= ends(ref)[0] and ends(ref)[1] <= ends(b)[1]   # inside the ball given
            on_end = any(p(flint.fmpq(x.numerator, x.denominator)) == 0 for x in ends(b))
            assert ref.rad() <= flint.arb(2) ** -bits or (ref is b and on_end)
            refined.append(ref)
        for x, y in itertools.pairwise(refined):             # still disjoint and ascending
            assert ends(x)[1] < ends(y)[0]


def test_arb_of_is_exact_for_dyadics_and_encloses_others():
    assert arb_of(F(3, 8)) == flint.arb(F(3, 8).numerator) / 8
    b = arb_of(F(1, 3))
    lo, hi = exact_bounds(b)
    assert lo <= F(1, 3) <= hi
