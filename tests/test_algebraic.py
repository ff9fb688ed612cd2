"""Unit tests of :mod:`baccara.algebraic`: exact quadratic irrationals r + s sqrt(D), their
field operations, order, closed forms and JSON, and the roots of rational quadratics.

Oracles: field identities, the defining equation of each root, and 80-digit ``Decimal``
evaluation for the order (far more digits than any pair of small numbers here needs to be
told apart; equal numbers are decided exactly).
"""

import re
from decimal import Decimal, getcontext
from fractions import Fraction as F

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from baccara.algebraic import QuadraticNumber as Q
from baccara.algebraic import fraction_str, quadratic_roots, real_json, simplest

from .budget import examples

getcontext().prec = 80


def dec(x: Q) -> Decimal:
    r = Decimal(x.r.numerator) / Decimal(x.r.denominator)
    if x.s == 0:
        return r
    return r + Decimal(x.s.numerator) / Decimal(x.s.denominator) * Decimal(x.d).sqrt()


rats = st.fractions(-20, 20, max_denominator=12)
fields = st.sampled_from([2, 3, 5, 7, 13, 17])


@st.composite
def numbers(draw, d=None):
    d = d if d is not None else draw(fields)
    return Q(draw(rats), draw(rats), d)


def parse(text: str) -> Q:
    """Read back ``str(x)``: 'a/b', '(a+sqrt(n))/m', 'a-sqrt(n)', 'sqrt(n)', '-sqrt(n)', ..."""
    m = re.fullmatch(r"(-?\d+)/(\d+)", text)
    if m:
        return Q(F(int(m[1]), int(m[2])))
    m = re.fullmatch(r"\(?(-?\d+)?([+-])?sqrt\((\d+)\)\)?(?:/(\d+))?", text)
    assert m, text
    a = int(m[1]) if m[1] else 0
    sign = -1 if (m[2] == "-") else 1
    den = int(m[4]) if m[4] else 1
    return Q(F(a, den), F(sign, den), int(m[3]))


# ---------------------------------------------------------------- hand-made
def test_normalisation():
    # sqrt(9) = 3, sqrt(0) = 0, s = 0 forgets the field: all rationals.
    assert Q(F(1), F(2), 9) == 7 and Q(F(1), F(2), 9).d == 1
    assert Q(F(5), F(3), 0) == 5
    assert Q(F(5), F(0), 7).d == 1
    with pytest.raises(ValueError):
        Q(F(0), F(1), -2)


def test_golden_ratio():
    # phi = (1 + sqrt5)/2 satisfies phi^2 = phi + 1 and 1/phi = phi - 1.
    phi = Q(F(1, 2), F(1, 2), 5)
    assert phi * phi == phi + 1
    assert 1 / phi == phi - 1
    assert str(phi) == "(1+sqrt(5))/2"
    assert 1 < phi < 2 and F(161, 100) < phi < F(162, 100)
    assert quadratic_roots(F(1), F(-1), F(-1)) == [1 - phi, phi]


def test_closed_forms():
    # -319/224 + sqrt(245569)/224 is printed as is (gcd(319, 224) = 1: nothing cancels);
    # 2 sqrt2 is written sqrt(8); 1 + sqrt(12)/2 = (2 + sqrt12)/2 cancels 2 to 1 + sqrt(3).
    x = Q(F(-319, 224), F(1, 224), 245569)
    assert str(x) == "(-319+sqrt(245569))/224"
    assert str(Q(1, F(1, 2), 12)) == "1+sqrt(3)"
    assert str(Q(0, 2, 2)) == "sqrt(8)"
    assert str(Q(0, -1, 2)) == "-sqrt(2)"
    assert str(Q(F(1, 2), F(1, 2), 3)) == "(1+sqrt(3))/2"
    assert str(Q(F(3, 7))) == "3/7" and str(Q(F(-1))) == "-1/1" and str(Q(0)) == "0/1"
    assert str(Q(F(1), F(-1, 3), 2)) == "(3-sqrt(2))/3"


def test_fraction_str_and_real_json():
    assert fraction_str(0) == "0/1" and fraction_str(-1) == "-1/1" and fraction_str(F(6, -4)) == "-3/2"
    assert real_json(F(1, 4)) == {"exact": "1/4", "float": 0.25}
    j = real_json(Q(0, 1, 2))
    assert j["exact"] == "sqrt(2)" and j["float"] == 2 ** 0.5


def test_simplest():
    assert simplest(Q(F(3, 4))) == F(3, 4) and type(simplest(Q(F(3, 4)))) is F
    assert simplest(5) == 5 and type(simplest(5)) is F
    x = Q(1, 1, 2)
    assert simplest(x) is x


def test_mixed_fields_and_division_by_zero():
    with pytest.raises(ValueError):
        Q(0, 1, 2) + Q(0, 1, 3)
    with pytest.raises(ZeroDivisionError):
        Q(1, 1, 2) / Q(0)
    # sqrt(8) = 2 sqrt(2): one number written in two ways; they must compare and hash alike.
    assert Q(0, 2, 2) == Q(0, 1, 8) and hash(Q(0, 2, 2)) == hash(Q(0, 1, 8))
    assert Q(0, 1, 2) != Q(0, 1, 3) and Q(0, 1, 2) < Q(0, 1, 3)


def test_hash_agrees_with_fraction_equality():
    # Python's contract: equal objects hash equally (a set or dict must not keep both)
    x = Q(F(1, 2))
    assert x == F(1, 2)
    assert hash(x) == hash(F(1, 2)) and len({x, F(1, 2)}) == 1


def test_quadratic_roots_degenerate_cases():
    assert quadratic_roots(0, 2, -1) == [F(1, 2)]        # 2x - 1
    assert quadratic_roots(0, 0, 3) == []                 # 3 = 0 has none
    assert quadratic_roots(1, 0, 1) == []                 # x^2 + 1
    assert quadratic_roots(1, -2, 1) == [1]               # (x - 1)^2: one double root
    assert quadratic_roots(1, 0, -2) == [Q(0, -1, 2), Q(0, 1, 2)]


# ---------------------------------------------------------------- random: a field and an order
@settings(max_examples=examples(300), deadline=None)
@given(fields.flatmap(lambda d: st.tuples(numbers(d), numbers(d), numbers(d))))
def test_field_identities(xyz):
    x, y, z = xyz
    assert (x + y) - y == x
    assert x + y == y + x and x * y == y * x
    assert (x + y) + z == x + (y + z) and (x * y) * z == x * (y * z)
    assert x * (y + z) == x * y + x * z
    neg = -x
    assert x - x == 0 and x + neg == 0 and -neg == x
    if y != 0:
        assert (x * y) / y == x
        assert y * (1 / y) == 1
    # with rationals on either side
    q = F(3, 7)
    assert q + x == x + q and q - x == -(x - q) and (q * x) / q == x
    if x != 0:
        assert q / x == q * (1 / x)


@settings(max_examples=examples(300), deadline=None)
@given(numbers(), numbers())
def test_order_agrees_with_decimal(x, y):
    dx, dy = dec(x), dec(y)
    if x == y:
        assert abs(dx - dy) < Decimal(10) ** -70
        assert not x < y and not y < x and x <= y
    else:
        assert abs(dx - dy) > Decimal(10) ** -70   # distinct numbers are far apart at this size
        assert (x < y) == (dx < dy) and (y < x) == (dy < dx)
    assert abs(float(x) - float(dx)) <= 1e-12 * max(1.0, abs(float(dx)))
    lo, hi = x.bounds(40)
    assert Decimal(lo.numerator) / lo.denominator <= dx <= Decimal(hi.numerator) / hi.denominator
    assert hi - lo <= abs(x.s) / 2 ** 40


@settings(max_examples=examples(300), deadline=None)
@given(numbers(), st.integers(2, 6))
def test_one_number_in_two_fields_is_equal(x, k):
    # r + s sqrt(d) = r + (s/k) sqrt(d k^2): equal, same hash, same closed form
    y = Q(x.r, x.s / k, x.d * k * k)
    assert x == y and hash(x) == hash(y) and not x < y and not y < x
    assert str(x) == str(y) or parse(str(y)) == x
    # the same parts in another square-free field (distinct primes) make a different number
    if x.s:
        other = 3 if x.d != 3 else 5
        assert x != Q(x.r, x.s, other)


@settings(max_examples=examples(300), deadline=None)
@given(numbers())
def test_str_round_trips(x):
    assert parse(str(x)) == x
    assert real_json(x) == {"exact": str(x), "float": float(x)}


@settings(max_examples=examples(300), deadline=None)
@given(rats, rats, rats)
def test_quadratic_roots_solve_the_equation(c2, c1, c0):
    assume(c2 or c1 or c0)
    roots = quadratic_roots(c2, c1, c0)
    for r in roots:
        assert c2 * r * r + c1 * r + c0 == 0
    assert roots == sorted(roots) and len(set(roots)) == len(roots)
    disc = c1 * c1 - 4 * c2 * c0
    expected = (1 if c1 else 0) if c2 == 0 else (0 if disc < 0 else 1 if disc == 0 else 2)
    assert len(roots) == expected


@settings(max_examples=examples(200), deadline=None)
@given(rats, rats, fields)
def test_roots_of_a_known_conjugate_pair(r, s, d):
    # x = r +- s sqrt d are the roots of x^2 - 2r x + (r^2 - s^2 d)
    assume(s != 0)
    x1, x2 = Q(r, s, d), Q(r, -s, d)
    assert quadratic_roots(1, -2 * r, r * r - s * s * d) == sorted([x1, x2])
