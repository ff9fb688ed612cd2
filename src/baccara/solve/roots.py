"""Certified real roots of integer polynomials: the endpoints of parametric sweeps.

A sweep over a parameter t (banque's theta) ends each interval where some
condition polynomial in Z[t] changes sign.  FLINT's
``fmpz_poly.complex_roots`` isolates every root in a ball and marks the real
ones with an exactly zero imaginary part, so an interval end is an exact
algebraic number: a root of a named integer polynomial inside a certified
ball (:class:`Endpoint`), printed to any number of digits.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import cast

import flint

from .sweep import rational_between

#: Bits of precision for FLINT's certified root isolation (set only while sweeping).
ROOT_PRECISION = 256


class precision:
    """``with precision():`` raises FLINT's working precision for a sweep, then restores it."""

    def __init__(self, bits: int = ROOT_PRECISION) -> None:
        self.bits = bits

    def __enter__(self):
        self.saved, flint.ctx.prec = flint.ctx.prec, self.bits
        return self

    def __exit__(self, *exc) -> None:
        flint.ctx.prec = self.saved


@dataclass(frozen=True)
class Endpoint:
    """A real algebraic number: a root of ``poly`` inside the certified ball ``ball``
    (or an exact rational when ``poly`` is None)."""

    ball: flint.arb
    poly: flint.fmpz_poly | None = None
    rational: Fraction | None = None

    @classmethod
    def of_rational(cls, x: Fraction) -> Endpoint:
        return cls(arb_of(Fraction(x)), None, Fraction(x))

    def __float__(self) -> float:
        return float(self.rational) if self.rational is not None else float(self.ball.mid())

    @cached_property
    def minimal_polynomial(self):
        """The irreducible integer factor of ``poly`` with this root (None for a rational endpoint)."""
        if self.poly is None:
            return None
        for f, _ in self.poly.factor()[1]:
            # python-flint's stub says list[acb]; it returns (root, multiplicity) pairs
            roots = cast("list[tuple[flint.acb, int]]", f.complex_roots())
            if any(z.imag == 0 and z.real.overlaps(self.ball) for z, _ in roots):
                return f
        return self.poly

    @property
    def as_rational(self) -> Fraction | None:
        """The endpoint as a Fraction when it is rational, else None."""
        if self.rational is not None:
            return self.rational
        f = self.minimal_polynomial
        return Fraction(-int(f[0]), int(f[1])) if f.degree() == 1 else None

    def exact(self) -> str:
        """A rational as num/den, otherwise 'root of POLY near X'."""
        r = self.as_rational
        if r is not None:
            return f"{r.numerator}/{r.denominator}"
        return f"root of {self.minimal_polynomial} near {self.text(12)}"

    def to_json(self) -> dict:
        f = self.minimal_polynomial
        return {"exact": self.exact(), "float": float(self),
                "polynomial": None if f is None else [int(c) for c in f.coeffs()]}

    def text(self, digits: int = 6) -> str:
        return f"{float(self):.{digits}f}"

    def same(self, other: Endpoint) -> bool:
        """The same number (the balls are certified, so overlapping ones hold one root)."""
        return self is other or bool(self.ball.overlaps(other.ball))

    def __reduce__(self):
        # FLINT's balls and polynomials do not pickle: an endpoint crosses to another process
        # (baccara.processes) as integers, and comes back as the very same ball
        poly = None if self.poly is None else [int(c) for c in self.poly.coeffs()]
        return (_endpoint_of, (ball_data(self.ball), poly, self.rational))


def _endpoint_of(ball: tuple[int, int, int, int], poly: list[int] | None, rational: Fraction | None) -> Endpoint:
    return Endpoint(ball_of(ball), None if poly is None else flint.fmpz_poly(poly), rational)


def ball_data(ball) -> tuple[int, int, int, int]:
    """A ball as plain integers, exactly: its midpoint m 2^e and radius r 2^f as (m, e, r, f).

    Parameters
    ----------
    ball : flint.arb
        A finite ball.

    Returns
    -------
    tuple of int
        (m, e, r, f); :func:`ball_of` gives the same ball back, whatever the working precision.
    """
    if not ball.is_finite():
        raise ValueError(f"not a finite ball: {ball}")
    (m, e), (r, f) = ball.mid().man_exp(), ball.rad().man_exp()
    return int(m), int(e), int(r), int(f)


def ball_of(data: tuple[int, int, int, int]):
    """The ball written by :func:`ball_data`, the same to the last bit (never narrower nor wider).

    Parameters
    ----------
    data : tuple of int
        (m, e, r, f): the midpoint m 2^e and the radius r 2^f.

    Returns
    -------
    flint.arb
        The ball.
    """
    m, e, r, f = (int(v) for v in data)
    ball = flint.arb((m, e), (r, f))
    if r and ball_data(ball) != (m, e, r, f):
        # FLINT keeps a radius in 30 bits and rounds the one it is given up, by a unit in the last place
        # when it fills all 30 (as every radius FLINT computes may): given half a unit less, it rounds
        # up to the radius itself
        ball = flint.arb((m, e), (2 * r - 1, f - 1))
    if ball_data(ball) != (m, e, r, f):      # a radius wider than 30 bits: it would round up
        raise ValueError(f"not a ball's data: {data}")
    return ball


def arb_of(x: Fraction):
    return flint.arb(x.numerator) / x.denominator


def real_roots(poly, odd_only: bool = False) -> list:
    """The real roots of a nonzero integer polynomial as certified balls, ascending; with
    ``odd_only``, only those of odd multiplicity (where the polynomial changes sign)."""
    return sorted((z.real for z, m in poly.complex_roots() if z.imag == 0 and (m % 2 or not odd_only)),
                  key=lambda b: b.mid())


def rational_below(ball, floor: Fraction, digits: int = 3) -> Fraction:
    """A simple rational just below the ball (and above ``floor``), with at least ``digits``
    decimals (so within about 10^-digits of it)."""
    lo = Fraction(str(ball.lower().mid().str(30, radius=False)))
    for den in (10**k for k in range(digits, 40)):
        x = Fraction(int(lo * den) - 1, den)
        if x > floor and lo - x < Fraction(1, den) * 2:
            return x
    return (floor + lo) / 2


def rational_between_balls(x, y) -> Fraction:
    """The simplest rational in the middle half of the gap between two disjoint balls
    x < y (short numbers keep exact work at the sample cheap)."""
    a, b = exact_bounds(x)[1], exact_bounds(y)[0]
    if a >= b:      # balls closer than the working precision resolves (refined ones): exact ends
        a, b = _exact_ends(x)[1], _exact_ends(y)[0]
        if a >= b:
            raise ValueError("the balls are not disjoint and ascending")
    return rational_between(a + (b - a) / 4, b - (b - a) / 4)


def rationals_around(ball, eps: Fraction = Fraction(1, 10**40)) -> tuple[Fraction, Fraction]:
    """Rationals ``eps`` below and above the ball's exact ends."""
    lo, hi = exact_bounds(ball)
    return lo - eps, hi + eps


def refine(ball, poly, bits: int = 200):
    """Narrow a certified isolating ball around a real root of ``poly`` to radius at most
    2^-bits (FLINT's balls are sometimes much wider than its precision), by exact
    bisection inside the ball on the squarefree factor that changes sign there.  A ball
    already that narrow, or one with no sign change inside, is returned as it is.

    The result is the last bisection interval itself, whatever FLINT's working
    precision: its midpoint is stored with as many bits as it needs and its radius is
    the given one halved, both exact.  So it lies inside the ball given (an isolating
    ball stays isolating), and asking for more bits than ``flint.ctx.prec`` really
    narrows it."""
    if ball.rad() <= flint.arb(2) ** -bits:
        return ball
    a, b = _exact_ends(ball)
    for f, _ in poly.factor_squarefree()[1]:
        fa, fb = _sign_at(f, a), _sign_at(f, b)
        if fa * fb < 0:
            break
    else:
        return ball
    width = Fraction(1, 2**bits)
    while b - a > width:
        m = (a + b) / 2
        fm = _sign_at(f, m)
        if fm == 0:
            return _exact_ball(m, Fraction(0))
        if fm == fa:
            a = m
        else:
            b = m
    return _exact_ball((a + b) / 2, (b - a) / 2)


def _exact_ball(mid: Fraction, rad: Fraction):
    """The ball [mid - rad, mid + rad] for dyadic mid and rad, without rounding the
    midpoint to the working precision (the radius is rounded up, as FLINT stores it)."""
    with precision(max(flint.ctx.prec, mid.numerator.bit_length() + 2, rad.numerator.bit_length() + 2)):
        centre = flint.arb(flint.fmpq(mid.numerator, mid.denominator))
        return flint.arb(centre, flint.arb(flint.fmpq(rad.numerator, rad.denominator))) if rad else centre


def exact_bounds(ball) -> tuple[Fraction, Fraction]:
    """Rationals bounding a ball.

    Parameters
    ----------
    ball : flint.arb
        The ball.

    Returns
    -------
    tuple of Fraction
        Its lower and upper ends, rounded outwards at the working precision.
    """
    def exact(x) -> Fraction:
        m, e = x.man_exp()
        return Fraction(int(m)) * Fraction(2) ** int(e)

    return exact(ball.lower()), exact(ball.upper())


def _exact_ends(ball) -> tuple[Fraction, Fraction]:
    """The ball's ends mid -/+ rad exactly, however much finer the ball is than the
    working precision."""
    def exact(x) -> Fraction:
        m, e = x.man_exp()
        return Fraction(int(m)) * Fraction(2) ** int(e)

    mid, rad = exact(ball.mid()), exact(ball.rad())
    return mid - rad, mid + rad


def _sign_at(f, x: Fraction) -> int:
    v = f(flint.fmpq(x.numerator, x.denominator))
    return (v > 0) - (v < 0)
