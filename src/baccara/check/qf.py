"""Exact numbers a + b sqrt(d) and small exact feasibility tests, for the banque checkers.

Kept apart from the solvers' :class:`baccara.algebraic.QuadraticNumber` on purpose: the checker
modules import no solver code.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations, product
from math import isqrt, ulp
from typing import Any

import flint


# ---------------------------------------------------------------- a + b sqrt(d)
class QF:
    """a + b sqrt(d), a and b rational, d a positive integer (1: rational)."""

    __slots__ = ("a", "b", "d")

    def __init__(self, a, b=0, d: int = 1) -> None:
        a, b, d = Fraction(a), Fraction(b), int(d)
        if d <= 0:
            raise ValueError("sqrt of a non-positive number")
        r = isqrt(d)
        if r * r == d:
            a, b, d = a + b * r, Fraction(0), 1
        if b == 0:
            d = 1
        self.a, self.b, self.d = a, b, d

    def _pair(self, o) -> tuple:
        """(self's (a, b), o's (a, b)) over one common d."""
        if not isinstance(o, QF):
            return (self.a, self.b), (Fraction(o), Fraction(0)), self.d
        if o.d == 1 or o.d == self.d:
            return (self.a, self.b), (o.a, o.b), self.d
        if self.d == 1:
            return (self.a, Fraction(0)), (o.a, o.b), o.d
        # sqrt(o.d) = k sqrt(self.d) with k rational, or the two fields differ
        q = Fraction(o.d, self.d)
        n, m = isqrt(q.numerator), isqrt(q.denominator)
        if n * n != q.numerator or m * m != q.denominator:
            raise ValueError(f"numbers in two quadratic fields (sqrt {self.d}, sqrt {o.d})")
        return (self.a, self.b), (o.a, o.b * Fraction(n, m)), self.d

    def __add__(self, o):
        (a, b), (c, e), d = self._pair(o)
        return QF(a + c, b + e, d)

    __radd__ = __add__

    def __neg__(self):
        return QF(-self.a, -self.b, self.d)

    def __sub__(self, o):
        return self + (-o if isinstance(o, QF) else -Fraction(o))

    def __rsub__(self, o):
        return (-self) + o

    def __mul__(self, o):
        (a, b), (c, e), d = self._pair(o)
        return QF(a * c + b * e * d, a * e + b * c, d)

    __rmul__ = __mul__

    def inverse(self) -> QF:
        """1 / self: (a - b sqrt(d)) / (a^2 - b^2 d)."""
        n = self.a * self.a - self.b * self.b * self.d
        if n == 0:
            raise ZeroDivisionError("QF division by zero")
        return QF(self.a / n, -self.b / n, self.d)

    def __truediv__(self, o):
        return self * (o.inverse() if isinstance(o, QF) else 1 / Fraction(o))

    def __rtruediv__(self, o):
        return self.inverse() * o

    def ball(self) -> flint.arb:
        """An arb ball holding the number (for a quick, rigorous sign where it excludes 0)."""
        x = flint.arb(flint.fmpq(self.a.numerator, self.a.denominator))
        if self.b:
            x += flint.arb(flint.fmpq(self.b.numerator, self.b.denominator)) * flint.arb(self.d).sqrt()
        return x

    def sign(self) -> int:
        sa, sb = _sgn(self.a), _sgn(self.b)
        if sb == 0 or sa == sb:
            return sa or sb
        if sa == 0:
            return sb
        return sa if self.a * self.a > self.b * self.b * self.d else sb

    def key(self) -> tuple:
        return (self.a, self.b, self.d)

    def __float__(self) -> float:
        return float(self.a) + float(self.b) * self.d ** 0.5


def _sgn(v) -> int:
    return (v > 0) - (v < 0)


def _sign(v) -> int:
    return v.sign() if isinstance(v, QF) else _sgn(v)


def _num(row) -> QF:
    """``[a, b, d]`` as a QF."""
    a, b, d = row
    return QF(Fraction(a), Fraction(b), int(d))


# ---------------------------------------------------------------- exact feasibility over a box
def _box_feasible(eq: list[tuple[list, Any]], ge: list[tuple[list, Any]], m: int) -> bool:
    """Is there x in [0, 1]^m with every row . x = rhs in ``eq`` and row . x >= rhs in ``ge``
    (at most two rows in all)?  A bounded polyhedron is nonempty iff it has a vertex: m linearly
    independent active constraints, some of them rows and the rest bounds x_i = 0 or 1."""
    rows = [(r, c, True) for r, c in eq] + [(r, c, False) for r, c in ge]
    if m == 0:
        return all((_sign(c) == 0) if is_eq else (_sign(c) <= 0) for _, c, is_eq in rows)
    eq_idx = [n for n, (_, _, e) in enumerate(rows) if e]
    opt = [n for n, (_, _, e) in enumerate(rows) if not e]
    for extra in range(len(opt) + 1):
        for act in combinations(opt, extra):
            active = eq_idx + list(act)
            k = len(active)
            if k > m:
                continue
            for free in combinations(range(m), k):
                rest = [i for i in range(m) if i not in free]
                for bits in product((0, 1), repeat=len(rest)):
                    x = [Fraction(0)] * m
                    for i, v in zip(rest, bits):
                        x[i] = Fraction(v)
                    # solve the k x k system for the free coordinates
                    A = [[rows[n][0][i] for i in free] for n in active]
                    bvec = [rows[n][1] - sum(rows[n][0][i] * x[i] for i in rest) for n in active]
                    sol = _solve(A, bvec)
                    if sol is None:
                        continue
                    for i, v in zip(free, sol):
                        x[i] = v
                    if all(_sign(v) >= 0 and _sign(1 - v) >= 0 for v in x) and all(
                            (_sign(_dot_rows(r, x, m) - c) == 0) if is_eq else
                            (_sign(_dot_rows(r, x, m) - c) >= 0) for r, c, is_eq in rows):
                        return True
    return False


def _dot_rows(r, x, m):
    out = Fraction(0)
    for i in range(m):
        if _sign(r[i]) and _sign(x[i]):
            out = r[i] * x[i] + out
    return out


def _solve(A, b):
    k = len(A)
    if k == 0:
        return []
    if k == 1:
        return None if _sign(A[0][0]) == 0 else [b[0] / A[0][0]]
    det = A[0][0] * A[1][1] - A[0][1] * A[1][0]
    if _sign(det) == 0:
        return None
    return [(b[0] * A[1][1] - A[0][1] * b[1]) / det, (A[0][0] * b[1] - b[0] * A[1][0]) / det]




def display_ok(f: Any, x: QF | Fraction | int, ulps: int = 4) -> bool:
    """Whether a display float is the exact number ``x``, rounded (within ``ulps`` units in the last place).

    Display fields (``float``, ``value_float``) are for people; the checker holds them to the exact
    values it verified, so that what a reader sees is what was proved.

    Parameters
    ----------
    f : object
        The artefact's float (anything else fails).
    x : QF or Fraction or int
        The exact number.
    ulps : int
        The tolerance, in units in the last place of the exact number's float.

    Returns
    -------
    bool
        Whether ``f`` is a float within the tolerance.
    """
    if not isinstance(f, (int, float)) or isinstance(f, bool):
        return False
    q = x if isinstance(x, QF) else QF(Fraction(x))
    v = q.a
    if q.b:
        scale = 1 << 80
        v += q.b * Fraction(2 * isqrt(q.d * scale * scale) + 1, 2 * scale)
    fv = float(v)
    return abs(float(f) - fv) <= ulps * ulp(fv)
