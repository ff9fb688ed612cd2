"""Points of a curve arrangement that move with a parameter theta, followed exactly (used by banque).

Both the Nash and the independent cooperative equilibrium of Ethier and Lee (2015) sit, for
each theta, at a point (p1, p2) of the unit square fixed by two polynomial
equations E1 = E2 = 0 in (p1, p2, theta): Banker's indifference curves
B_i = theta R1^i + (1 - theta) R2^i = 0, edges p = 0 or 1, a Player's
indifference, a critical point along a curve.  Each equation is linear in p2,
so eliminating p2 (a resultant) leaves K(p1, theta) = 0; on a branch,

    p1 = (-K1 + sigma sqrt(K1^2 - 4 K2 K0)) / (2 K2),   K_m in Z[theta],

(or p1 = -K0/K1) and p2 is a ratio of polynomials in p1.  At a rational theta
the point is exact in Q(sqrt D).

A property of the point (Banker's sign at some set, a draw probability, a
value) is a polynomial f(p1, p2, theta); resultants with E1, E2 (FLINT's
``fmpz_mpoly.resultant``) give an integer polynomial R(theta) vanishing
wherever f does at the point.  R's real roots, isolated by FLINT, are the
candidates; a candidate is *genuine* when f's sign, computed exactly at
rationals on either side of it, changes.  So a branch's ends are exact
algebraic numbers: roots of named integer polynomials in certified balls.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

import flint

from ..algebraic import QuadraticNumber, quadratic_roots, simplest
from ..errors import BaccaraError
from .roots import Endpoint, arb_of, rationals_around, real_roots, refine
from .signs import sign

#: p1, p2: the Players' draw probabilities; w: a value (for eliminating it); t: theta.
CTX = flint.fmpz_mpoly_ctx.get(("p1", "p2", "w", "t"))
P1, P2, W, T = CTX.gens()
ONE = CTX.from_dict({(0, 0, 0, 0): 1})
ZERO = CTX.from_dict({})
_P1, _P2, _W, _T = range(4)
#: The index of w among the variables (the one :func:`resultant` eliminates to leave theta).
W_INDEX = _W


def bil(c) -> flint.fmpz_mpoly:
    """c0 + c1 p1 + c2 p2 + c3 p1 p2 as a polynomial."""
    return CTX.from_dict({(0, 0, 0, 0): int(c[0]), (1, 0, 0, 0): int(c[1]),
                          (0, 1, 0, 0): int(c[2]), (1, 1, 0, 0): int(c[3])})


# ---------------------------------------------------------------- polynomial helpers
def terms(f) -> list:
    """((a, b, c, d), coefficient) for each term coefficient * p1^a p2^b w^c t^d, as ints."""
    return [(tuple(int(e) for e in m), int(c)) for m, c in f.to_dict().items()]


def has(f, var: int) -> bool:
    return f.degrees()[var] > 0


def _content(f, var: int):
    """The gcd of f's coefficients in variable ``var`` (a polynomial in the others)."""
    groups: dict[int, dict] = {}
    for m, c in terms(f):
        groups.setdefault(m[var], {})[tuple(v if k != var else 0 for k, v in enumerate(m))] = c
    g = ZERO
    for d in groups.values():
        g = g.gcd(CTX.from_dict(d))
    return g


def resultant(a, b, var: int):
    """A polynomial with the zero set of Res_var(a, b): the contents of a and b in ``var``
    are split off first, so that they cannot make the resultant vanish identically, and
    multiplied back in (b itself when it does not involve ``var``)."""
    if not has(b, var):
        return b
    if not has(a, var):
        return a
    ca, cb = _content(a, var), _content(b, var)
    return (a // ca).resultant(b // cb, CTX.names()[var]) * ca * cb


def in_theta(f) -> flint.fmpz_poly:
    """A polynomial in t alone as an fmpz_poly."""
    d = dict(terms(f))
    if any(m[0] or m[1] or m[2] for m in d):
        raise ValueError("not a polynomial in theta alone")
    n = max((m[3] for m in d), default=0)
    return flint.fmpz_poly([d.get((0, 0, 0, k), 0) for k in range(n + 1)])


def evaluate(f, p1, p2, t: Fraction, w=0):
    """f(p1, p2, w, t) exactly, p1, p2 and w rational or in one Q(sqrt D)."""
    x = (QuadraticNumber.of(p1), QuadraticNumber.of(p2), QuadraticNumber.of(w))
    total = QuadraticNumber.of(0)
    for m, coef in terms(f):
        term = QuadraticNumber.of(coef * Fraction(t) ** m[3])
        for v, k in zip(x, m[:3]):
            for _ in range(k):
                term = term * v
        total = total + term
    return total


def value_t(f, t: Fraction) -> Fraction:
    """A polynomial in t alone at a rational t."""
    return sum((c * Fraction(t) ** m[3] for m, c in terms(f)), Fraction(0))


def bilinear_at(f, t: Fraction) -> tuple[Fraction, ...]:
    """(u0, u1, v0, v1) with f = u0 + u1 p1 + v0 p2 + v1 p1 p2 at theta = t (f bilinear)."""
    out = [Fraction(0)] * 4
    slot = {(0, 0): 0, (1, 0): 1, (0, 1): 2, (1, 1): 3}
    for m, c in terms(f):
        out[slot[m[:2]]] += c * Fraction(t) ** m[3]
    return tuple(out)


def p1_coefficients(k) -> tuple:
    """(K0, K1, K2) in Z[t] with k = K0 + K1 p1 + K2 p1^2 (k in p1 and t only)."""
    d = dict(terms(k))
    if any(m[0] > 2 or m[1] or m[2] for m in d):
        raise BaccaraError("p1 is not quadratic over Q(theta) here")
    return tuple(CTX.from_dict({(0, 0, 0, m[3]): c for m, c in d.items() if m[0] == e}) for e in range(3))


# ---------------------------------------------------------------- the moving point
@dataclass(frozen=True)
class MovingPoint:
    """The point where two equations (``eqs``: their terms) vanish, on one branch:
    ``crossing`` holds the terms of K(p1, t), the irreducible factor of the eliminant on
    which p1 lies, and ``branch`` the sign sigma of its square root (0: p1 rational)."""

    eqs: tuple
    crossing: tuple = ()
    branch: int = 0

    @classmethod
    def through(cls, e1, e2, p1, t: Fraction) -> MovingPoint:
        """The branch of {e1 = e2 = 0} through the point with this p1 at theta = t."""
        pt = cls((tuple(terms(e1)), tuple(terms(e2))))
        _, factors = pt._split()[0].factor()
        hits = [f for f, _ in factors if has(f, _P1) and evaluate(f, p1, 0, t) == 0]
        if len(hits) != 1:
            raise ArithmeticError("cannot single out the factor that holds p1")
        pt = cls(pt.eqs, tuple(terms(hits[0])))
        k0, k1, k2 = (value_t(c, t) for c in pt.k_coeffs())
        return pt if k2 == 0 else cls(pt.eqs, pt.crossing, sign(2 * k2 * QuadraticNumber.of(p1) + k1))

    @classmethod
    def near(cls, e1, e2, p1: float, t: Fraction, tol: float = 1e-6) -> MovingPoint:
        """The branch of {e1 = e2 = 0} whose p1 at the rational t is the one near the float p1."""
        pt = cls((tuple(terms(e1)), tuple(terms(e2))))
        roots = []
        for f, _ in pt._split()[0].factor()[1]:
            if not has(f, _P1):
                continue
            k0, k1, k2 = (value_t(c, t) for c in p1_coefficients(f))
            roots += [r for r in quadratic_roots(k2, k1, k0) if abs(float(r) - p1) < tol]
        if len(roots) != 1:
            raise ArithmeticError(f"{len(roots)} exact points near p1 = {p1}")
        return cls.through(e1, e2, roots[0], t)

    def equations(self) -> tuple:
        return tuple(CTX.from_dict(dict(e)) for e in self.eqs)

    def _split(self) -> tuple:
        """(the source of K, the equation giving p2 from p1), computed once per point."""
        return self._cached_split

    @cached_property
    def _cached_split(self) -> tuple:
        e0, e1 = self.equations()
        if not has(e0, _P2):
            return e0, e1
        if not has(e1, _P2):
            return e1, e0
        return e0.resultant(e1, "p2"), e0

    @cached_property
    def _quadratic(self):
        return CTX.from_dict(dict(self.crossing)) if self.crossing else self._split()[0]

    def quadratic(self):
        return self._quadratic

    def k_coeffs(self) -> tuple:
        """(K0, K1, K2) in Z[t]: the coefficients of p1^0, p1^1, p1^2 in K."""
        return p1_coefficients(self.quadratic())

    def at(self, t: Fraction) -> tuple:
        """(p1, p2) exactly at a rational theta."""
        t = Fraction(t)
        k0, k1, k2 = (value_t(c, t) for c in self.k_coeffs())
        if k2 == 0:
            p1 = QuadraticNumber.of(-k0 / k1)
        else:
            disc = k1 * k1 - 4 * k2 * k0
            if disc < 0:
                raise ArithmeticError("the point is not real here")
            p1 = QuadraticNumber(-k1 / (2 * k2), Fraction(self.branch, 2 * k2 * disc.denominator),
                                 disc.numerator * disc.denominator)
        u0, u1, v0, v1 = bilinear_at(self._split()[1], t)
        return simplest(p1), simplest(QuadraticNumber.of(-(u0 + u1 * p1) / (v0 + v1 * p1)))

    def branch_conditions(self) -> list[tuple[str, flint.fmpz_mpoly]]:
        """Where the branch itself degenerates: K's leading coefficient and discriminant,
        the p2 equation's coefficient of p2."""
        k0, k1, k2 = self.k_coeffs()
        out = []
        if not k2.is_zero():
            out += [("branch: leading coefficient", k2), ("branch: discriminant", k1 * k1 - 4 * k2 * k0)]
        elif not k1.is_zero():
            out.append(("point: leading coefficient", k1))
        d = dict(terms(self._split()[1]))
        out.append(("p2: denominator", CTX.from_dict({(m[0], 0, 0, m[3]): c for m, c in d.items() if m[1] == 1})))
        return [(lab, f) for lab, f in out if not f.is_constant()]

    def eliminate(self, f):
        """R(p1 eliminated): a polynomial in the variables other than p1, p2 (t, and w if f
        has it) vanishing wherever f = 0 at the point."""
        p2eq = self._split()[1]
        if not has(p2eq, _P2):
            raise ArithmeticError("the second equation does not fix p2")
        return resultant(self.quadratic(), resultant(p2eq, f, _P2), _P1)

    def theta_polynomial(self, f) -> flint.fmpz_poly:
        """:meth:`eliminate` as an integer polynomial in theta."""
        return in_theta(self.eliminate(f))

    def value(self, f, t: Fraction):
        """f at the point, exactly, at a rational theta."""
        p1, p2 = self.at(t)
        return evaluate(f, p1, p2, Fraction(t))


# ---------------------------------------------------------------- events along a branch
@dataclass
class Event:
    """A candidate end: a root (``ball``) of ``poly``, the eliminant of ``condition`` at
    ``point``; with ``other`` = (point', f'), of condition - f'(point') (two values equal)."""

    ball: flint.arb
    poly: flint.fmpz_poly
    label: str
    condition: flint.fmpz_mpoly
    point: MovingPoint
    other: tuple | None = None
    room: Fraction = Fraction(1, 10**40)      # less than the distance to poly's other roots

    def _sign_at(self, t: Fraction) -> int:
        v = self.point.value(self.condition, t)
        if self.other is None:
            return sign(v)
        u = self.other[0].value(self.other[1], t)
        return 0 if v == u else (1 if u < v else -1)

    @cached_property
    def refined(self):
        """The root's ball narrowed by exact bisection (:func:`~baccara.solve.roots.refine`)."""
        return refine(self.ball, self.poly)

    def genuine(self) -> bool:
        """Does the condition really change sign at the root?  Its exact sign is taken at
        rationals on either side, closer than any other root of ``poly``; a branch that
        cannot be evaluated there (its point turns complex) ends at the root."""
        a, b = rationals_around(self.refined, self.room)
        try:
            return self._sign_at(a) != self._sign_at(b)
        except (ArithmeticError, ZeroDivisionError):
            return True      # the branch itself breaks down at the root

    def endpoint(self) -> Endpoint:
        return Endpoint(self.refined, self.poly)


def value_crossings(a: MovingPoint, fa, b: MovingPoint, fb, lo, hi, label: str = "values equal") -> list[Event]:
    """Candidate thetas in (lo, hi) where fa at point a equals fb at point b: w - fa and
    w - fb eliminated at each point, then w between them."""
    r = in_theta(resultant(a.eliminate(W - fa), b.eliminate(W - fb), _W))
    if r == 0 or r.degree() < 1:
        return []
    return [Event(ball, r, label, fa, a, (b, fb), room) for ball, room in _with_room(real_roots(r)) if lo < ball < hi]


def events(point: MovingPoint, conditions: list[tuple[str, flint.fmpz_mpoly]], lo, hi,
           vanishing_ok: bool = False) -> list[Event]:
    """Every real root in (lo, hi) (arb balls or numbers) of every condition's eliminant.
    A condition vanishing along the whole branch is an error, unless ``vanishing_ok``
    (then it cannot end the branch and is skipped: e.g. one of the point's own equations)."""
    out = []
    for label, f in conditions:
        r = point.theta_polynomial(f)
        if r == 0:
            if vanishing_ok:
                continue
            raise ArithmeticError(f"{label}: the condition vanishes along the whole branch")
        if r.degree() >= 1:
            out += [Event(b, r, label, f, point, room=room) for b, room in _with_room(real_roots(r)) if lo < b < hi]
    return out


def _with_room(balls: list) -> list[tuple]:
    """Each root with a step smaller than a third of its distance to the neighbouring roots
    (and at most 1e-40)."""
    out = []
    for k, b in enumerate(balls):
        gaps = [abs(float((b - o).mid())) for o in balls[max(0, k - 1):k] + balls[k + 1:k + 2]]
        room = Fraction(1, 10**40)
        if gaps and min(gaps) / 3 < 1e-40:
            room = Fraction(min(gaps) / 3)
        out.append((b, room))
    return out


def first_genuine(evs: list[Event], descending: bool) -> Event | None:
    """The nearest genuine event, going up (or down with ``descending``)."""
    for ev in sorted(evs, key=lambda e: e.ball.mid(), reverse=descending):
        if ev.genuine():
            return ev
    return None


def branch_ends(point: MovingPoint, conditions: list[tuple[str, flint.fmpz_mpoly]], theta: Fraction,
                lo: Fraction, hi: Fraction) -> tuple[tuple[Endpoint, str], tuple[Endpoint, str]]:
    """Follow the point from ``theta`` both ways to the first genuine events within (lo, hi):
    ((left end, its condition), (right end, its condition)); lo or hi with '' if none."""
    s = arb_of(Fraction(theta))
    evs = events(point, conditions, arb_of(Fraction(lo)), arb_of(Fraction(hi)))
    up = first_genuine([e for e in evs if e.ball > s], descending=False)
    down = first_genuine([e for e in evs if e.ball < s], descending=True)
    left = (down.endpoint(), down.label) if down else (Endpoint.of_rational(Fraction(lo)), "")
    right = (up.endpoint(), up.label) if up else (Endpoint.of_rational(Fraction(hi)), "")
    return left, right
