"""Exact real numbers of the form r + s*sqrt(D): rationals and quadratic irrationals.

The α at which two best-response-discontinuity curves cross is a root of a
quadratic with integer coefficients, so it lies in Q(sqrt(D)).  These numbers
compare exactly: r1 + s1 sqrt(D1) = r2 + s2 sqrt(D2) iff r1 = r2 and
s1 sqrt(D1) = s2 sqrt(D2) (two square roots of non-squares are either rational
multiples of each other or linearly independent over Q); when they differ,
bounds from integer square roots at growing precision decide the order.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import total_ordering
from math import gcd, isqrt


def fraction_str(x: Fraction | int) -> str:
    """An exact rational as ``"num/den"`` (the JSON contract: ``"0/1"``, ``"-1/1"`` included)."""
    x = Fraction(x)
    return f"{x.numerator}/{x.denominator}"


def _is_square(n: int) -> bool:
    return n >= 0 and isqrt(n) ** 2 == n


@total_ordering
@dataclass(frozen=True)
class QuadraticNumber:
    """The real number r + s*sqrt(d), with d > 1 not a perfect square, or s = 0 and d = 1."""

    r: Fraction
    s: Fraction = Fraction(0)
    d: int = 1

    def __post_init__(self) -> None:
        r, s, d = Fraction(self.r), Fraction(self.s), int(self.d)
        if d < 0:
            raise ValueError("sqrt of a negative number")
        if s == 0 or d in (0, 1) or _is_square(d):
            r, s, d = r + s * isqrt(d), Fraction(0), 1
        object.__setattr__(self, "r", r)
        object.__setattr__(self, "s", s)
        object.__setattr__(self, "d", d)

    @classmethod
    def of(cls, x: QuadraticNumber | Fraction | int) -> QuadraticNumber:
        return x if isinstance(x, QuadraticNumber) else cls(Fraction(x))

    def bounds(self, bits: int) -> tuple[Fraction, Fraction]:
        """Rational lower and upper bounds, within about 2^-bits * |s|."""
        if self.s == 0:
            return self.r, self.r
        scale = 1 << bits
        lo = Fraction(isqrt(self.d * scale * scale), scale)
        hi = lo + Fraction(1, scale)
        a, b = self.r + self.s * lo, self.r + self.s * hi
        return (a, b) if a <= b else (b, a)

    def __float__(self) -> float:
        lo, hi = self.bounds(80)
        return float((lo + hi) / 2)

    def _key(self) -> tuple:
        return (self.r, self.s * self.s * self.d, (self.s > 0) - (self.s < 0))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (int, Fraction)):
            other = QuadraticNumber(Fraction(other))
        if not isinstance(other, QuadraticNumber):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        # equal numbers hash equally: a rational one hashes as the Fraction it equals
        return hash(self.r) if self.s == 0 else hash(self._key())

    def __lt__(self, other: QuadraticNumber | Fraction | int) -> bool:
        other = QuadraticNumber.of(other)
        if self == other:
            return False
        bits = 64
        while True:
            a_lo, a_hi = self.bounds(bits)
            b_lo, b_hi = other.bounds(bits)
            if a_hi < b_lo:
                return True
            if b_hi < a_lo:
                return False
            bits *= 2

    # field operations within one Q(sqrt(d))
    def _common(self, other: QuadraticNumber | Fraction | int) -> tuple[QuadraticNumber, int]:
        other = QuadraticNumber.of(other)
        if self.d != 1 and other.d != 1 and self.d != other.d:
            raise ValueError("arithmetic across different quadratic fields is not supported")
        return other, max(self.d, other.d)

    def __add__(self, other):
        o, d = self._common(other)
        return QuadraticNumber(self.r + o.r, self.s + o.s, d)

    __radd__ = __add__

    def __neg__(self):
        return QuadraticNumber(-self.r, -self.s, self.d)

    def __sub__(self, other):
        return self + (-QuadraticNumber.of(other))

    def __rsub__(self, other):
        return QuadraticNumber.of(other) - self

    def __mul__(self, other):
        o, d = self._common(other)
        return QuadraticNumber(self.r * o.r + self.s * o.s * d, self.r * o.s + self.s * o.r, d)

    __rmul__ = __mul__

    def __truediv__(self, other):
        o, d = self._common(other)
        norm = o.r * o.r - o.s * o.s * d
        if norm == 0:
            raise ZeroDivisionError("division by zero")
        conj = QuadraticNumber(o.r / norm, -o.s / norm, d)
        return self * conj

    def __rtruediv__(self, other):
        return QuadraticNumber.of(other) / self

    def __str__(self) -> str:
        """A closed form such as ``(-319+sqrt(245569))/224`` or ``3/7``."""
        if self.s == 0:
            return f"{self.r.numerator}/{self.r.denominator}"
        den = self.r.denominator * self.s.denominator // gcd(self.r.denominator, self.s.denominator)
        a, b = int(self.r * den), int(self.s * den)
        # write b*sqrt(d) as sign(b) sqrt(b^2 d), then cancel common factors
        root_arg = b * b * self.d
        a, den, root_arg = _cancel(a, den, root_arg)
        sign = "+" if b > 0 else "-"
        root = f"sqrt({root_arg})"
        head = f"{a}{sign}{root}" if a else (root if b > 0 else f"-{root}")
        return f"({head})/{den}" if den != 1 else head


def real_json(x: QuadraticNumber | Fraction | int) -> dict:
    """An exact real (rational or quadratic irrational) for JSON: closed form and float."""
    x = QuadraticNumber.of(x)
    return {"exact": str(x), "float": float(x)}


def simplest(x: QuadraticNumber | Fraction | int) -> QuadraticNumber | Fraction:
    """A rational as a Fraction, a quadratic irrational as a QuadraticNumber: one form per
    number, so results compare and hash alike whichever field computed them."""
    if isinstance(x, QuadraticNumber):
        return x.r if x.s == 0 else x
    return Fraction(x)


def _cancel(a: int, den: int, root_arg: int) -> tuple[int, int, int]:
    """Divide (a ± sqrt(root_arg)) / den by every common factor k (k | a, k | den, k^2 | root_arg)
    found among the primes of gcd(a, den) below 10^6."""
    g = gcd(a, den)
    p = 2
    while g > 1 and p < 10**6:
        if g % p == 0:
            g //= p
            if a % p == 0 and den % p == 0 and root_arg % (p * p) == 0:
                a, den, root_arg = a // p, den // p, root_arg // (p * p)
                g = gcd(a, den)
                continue
            while g % p == 0:
                g //= p
        p += 1 if p == 2 else 2
    return a, den, root_arg


def quadratic_roots(c2: Fraction | int, c1: Fraction | int, c0: Fraction | int) -> list[QuadraticNumber]:
    """Real roots of c2 x^2 + c1 x + c0 (not all zero), ascending, exactly."""
    c2, c1, c0 = Fraction(c2), Fraction(c1), Fraction(c0)
    if c2 == 0:
        if c1 == 0:
            return []
        return [QuadraticNumber(-c0 / c1)]
    disc = c1 * c1 - 4 * c2 * c0
    if disc < 0:
        return []
    # sqrt(num/den) = sqrt(num*den)/den
    n, m = disc.numerator * disc.denominator, disc.denominator
    if disc == 0:
        return [QuadraticNumber(-c1 / (2 * c2))]
    base, half = -c1 / (2 * c2), Fraction(1, 2 * c2 * m)
    roots = [QuadraticNumber(base, -half, n), QuadraticNumber(base, half, n)]
    return sorted(roots)
