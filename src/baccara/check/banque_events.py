"""The events of a banque Nash artefact, recomputed by the checker alone.

A ``banque-nash`` artefact claims that its events are *all* the theta where the set of Nash
equilibria of the simplified banque game (Ethier and Lee 2015, section 5) can change.
:mod:`baccara.check.banque` checks each interval's equilibria at one sample; this module checks
the claim between samples, by computing again, from the checker's own coefficients, every theta
in the range where some candidate equilibrium starts or stops being one, and asking that each be
an event of the artefact.  It shares no code with the prover (``nash_proof``): its algebra is
flint's multivariate resultants, its roots are isolated in exact rationals (Descartes' rule of
signs and bisection), and each sample is decided by the checker's own exact tests.

The candidates
--------------
Write B_k = theta R1^k + (1 - theta) R2^k for Banker's gain at information set k (he draws where
it is negative), and Delta_w = a_w(D) + sum_s x_s e_w^s for Player w's gain from drawing at 5
with Banker drawing at D and mixing with probabilities x_s at the sets S.  Only the sets whose
B_k changes sign on [0, 1]^2 x [lo, hi] matter (their 8 corner values decide it: B_k is
multilinear); at the others Banker's move never changes.  An equilibrium's point (p1, p2) is

- a **crossing** of two curves B_i = B_j = 0 (Banker mixing at i, j), both Players mixing;
- an **edge point**, B_z = 0 on an edge p_w = e, Player w pure;
- a point **along** a curve z with Banker mixing there only: B_z = 0 and
  G = a_1(D) e_2^z - a_2(D) e_1^z = 0 (both Players indifferent), for a draw set D;
- a **corner**;
- in a **cell** (Banker pure): a_1(D) = a_2(D) = 0, a point fixed in theta.  It enters or leaves
  its cell only by crossing a curve z, where it is the point along z for D less z with x_z = 1
  (or for D with x_z = 0): a change of that along-curve candidate, counted there;
- on an edge with Banker pure: the mixing Player's gain does not depend on his own p, so he is
  indifferent along a whole segment or nowhere: a continuum, reported (none is expected).

Each candidate's point is a root of two polynomials with coefficients in Z[theta].  Every condition
on it -- inside the open square, Banker's sign at every other set, and the feasibility of
Banker's mixing x in [0, 1]^S -- is a polynomial f(p1, p2, theta) eliminated at the point to an
integer polynomial in theta (two resultants).  For the feasibility: a box-constrained linear
system has a solution iff it has a vertex, and each vertex's validity is a sign condition on the
minors of order 1 and 2 of [E_S | r_T] (E_S the Players' gains at S, r_T = -(a + sum_T e) for
T a subset of S), all of which are eliminated.  Between consecutive real roots of all of these,
the candidate is an equilibrium throughout or nowhere, with one draw set; one rational sample of
each piece decides it exactly (numbers of Q(sqrt d)).  Where it changes, the root is an event.

The draw sets D of the along-curve candidates are those met on the curve's segments: every
segment ends at a crossing or an edge point, next to which Banker draws at that point's D and
at any of the other curves through it; they are collected at every piece of every crossing and
edge point.  A condition identically 0 on a branch (a third curve through a crossing for every
theta) is seen as an exact 0 at the samples: Banker may then mix there too (S grows), and the
resultant of the cofactors carries the other branch.

What is reported as trouble (and fails the check): two curves sharing a component without being
proportional (proportional ones act as one set on the common curve, covered by the along-curve
candidates), both Players indifferent along a whole curve, a possible continuum on an edge, and
a set where Banker is indifferent throughout.

Status
------
Over all of (0, 1/2] it finds no trouble, and its changes fall on exactly the stored events of
the proof: 69 below 5772/33847 (179 relevant sets, 15,931 crossings, 716 edge points, 36,985
along-curve candidates; 18 minutes on one core of a loaded machine) and 40 above (120 relevant
sets, 102,069 along-curve candidates; 54 CPU minutes).  Its first run found 20 changes that were
no events -- Banker's draw set changing along the equilibrium with p1 = 0, in (0.0172597,
0.0376433) and near 0.1359 and 0.1500 -- because the proof dropped every curve-edge point; the
mended proof has them, with the same counts of candidates as here.  The ratio to the prover, on
the same ranges and machine: 0.8x to 1.3x (``benchmarks/bench_banque_events.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from contextlib import nullcontext
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations

import flint

from ..processes import Workers
from .banque_interior import _ball, _bilinear, _independent, _roots, gain_line
from .qf import _box_feasible, _sign

CTX = flint.fmpz_mpoly_ctx.get(("p1", "p2", "t"))
P1, P2, T = CTX.gens()
ONE = CTX.from_dict({(0, 0, 0): 1})
ZERO = CTX.from_dict({})
MONO = (ONE, P1, P2, P1 * P2)
#: Most sets met at one point (2^n subsets are tried); more is reported as trouble.
MAX_THROUGH = 8


# ---------------------------------------------------------------- exact roots in theta
def _q(x: Fraction) -> flint.fmpq:
    return flint.fmpq(x.numerator, x.denominator)


def _fr(x: flint.fmpq) -> Fraction:
    return Fraction(int(x.p), int(x.q))


def _sgn_at(h: flint.fmpz_poly, x: Fraction) -> int:
    v = h(_q(x))
    return (v > 0) - (v < 0)


def descartes(f: flint.fmpz_poly, a: Fraction, b: Fraction) -> int:
    """An upper bound on the number of roots of f in the open interval (a, b).

    Descartes' rule of signs after x = (a + b y) / (1 + y): the bound has the parity of the
    number of roots (with multiplicity), so 0 proves there are none and 1 that there is one.

    Parameters
    ----------
    f : flint.fmpz_poly
        The polynomial.
    a, b : Fraction
        The interval, a < b.

    Returns
    -------
    int
        The number of sign changes.
    """
    g = flint.fmpq_poly(f)(flint.fmpq_poly([_q(a), _q(b - a)]))
    h = flint.fmpq_poly(g.coeffs()[::-1])(flint.fmpq_poly([1, 1]))
    cs = [c for c in h.coeffs() if c != 0]
    return sum((u > 0) != (v > 0) for u, v in zip(cs, cs[1:]))


@dataclass
class Root:
    """A real root of an irreducible integer polynomial, isolated between two rationals.

    Parameters
    ----------
    lo, hi : Fraction
        lo = hi: the root is this rational; else it is the only root of ``poly`` in the open
        interval (lo, hi), where ``poly`` changes sign.
    poly : flint.fmpz_poly or None
        The polynomial (None marks an end of the range).
    """

    lo: Fraction
    hi: Fraction
    poly: flint.fmpz_poly | None = None

    def bisect(self) -> None:
        h, m = self.poly, (self.lo + self.hi) / 2
        assert h is not None, "a range end cannot be bisected"
        if _sgn_at(h, m) == _sgn_at(h, self.lo):
            self.lo = m
        else:
            self.hi = m

    def __float__(self) -> float:
        return float((self.lo + self.hi) / 2)


def _isolate(h: flint.fmpz_poly, a: Fraction, b: Fraction) -> list[Root]:
    """The roots of the irreducible h in (a, b), each isolated (Vincent-Collins-Akritas)."""
    if h.degree() == 1:
        r = Fraction(-int(h[0]), int(h[1]))
        return [Root(r, r, h)] if a < r < b else []
    out, stack = [], [(a, b)]
    while stack:
        lo, hi = stack.pop()
        n = descartes(h, lo, hi)
        if n == 1:
            out.append(Root(lo, hi, h))
        elif n > 1:
            m = (lo + hi) / 2
            stack += [(lo, m), (m, hi)]
    return out


class Roots:
    """The distinct real roots in (lo, hi) of a growing set of integer polynomials.

    Each polynomial is factored; each new irreducible factor's roots are isolated by
    Vincent-Collins-Akritas bisection (:func:`descartes`).  :meth:`pieces` separates them into
    disjoint intervals and gives a rational sample strictly inside each piece between them.

    Parameters
    ----------
    lo, hi : Fraction
        The range, lo < hi.
    """

    def __init__(self, lo: Fraction, hi: Fraction) -> None:
        self.lo, self.hi = lo, hi
        self.seen: set[tuple] = set()
        self.roots: list[Root] = []

    def add(self, polys) -> None:
        """Add the roots of each polynomial of ``polys`` (a nonzero constant has none; the zero
        polynomial is an error: a condition that vanishes identically decides nothing)."""
        for f in polys:
            if f == 0:
                raise ArithmeticError("a condition vanishes identically")
            if f.degree() < 1 or descartes(f, self.lo, self.hi) == 0:
                continue
            for h, _ in f.factor()[1]:
                if h.degree() < 1:
                    continue
                if h[h.degree()] < 0:
                    h = -h
                key = tuple(int(c) for c in h.coeffs())
                if key not in self.seen:
                    self.seen.add(key)
                    self.roots += _isolate(h, self.lo, self.hi)

    def pieces(self) -> list[tuple[Root, Root, Fraction]]:
        """Every piece of (lo, hi) between consecutive roots.

        Distinct irreducible polynomials share no root, so bisecting overlapping intervals
        separates them.

        Returns
        -------
        list of tuple
            (root on the left, root on the right, rational sample strictly between), ascending;
            the range's ends are Roots with no polynomial.
        """
        rs = [Root(self.lo, self.lo)] + self.roots + [Root(self.hi, self.hi)]
        while True:
            rs.sort(key=lambda r: (r.lo, r.hi))
            clash = next((n for n in range(len(rs) - 1) if rs[n].hi >= rs[n + 1].lo), None)
            if clash is None:
                break
            a, b = rs[clash], rs[clash + 1]
            wide = [r for r in (a, b) if r.poly is not None and r.lo < r.hi]
            max(wide, key=lambda r: r.hi - r.lo).bisect()
        self.roots = rs[1:-1]
        return [(a, b, (a.hi + b.lo) / 2) for a, b in zip(rs, rs[1:])]


def same_root(r: Root, f: flint.fmpz_poly, a: Fraction, b: Fraction) -> bool:
    """Is the root r the root of f in [a, b]?

    Parameters
    ----------
    r : Root
        An isolated root.
    f : flint.fmpz_poly
        A polynomial with exactly one real root in [a, b].
    a, b : Fraction
        Its isolating interval.

    Returns
    -------
    bool
        True when r is a root of f lying in [a, b] (r's interval is bisected until it lies
        inside [a, b] or outside it).
    """
    if r.poly is None or f.gcd(r.poly).degree() < 1:
        return False
    if r.lo == r.hi:
        return a <= r.lo <= b
    probe = Root(r.lo, r.hi, r.poly)
    while True:
        if probe.hi < a or probe.lo > b:
            return False
        if a <= probe.lo and probe.hi <= b:
            return True
        probe.bisect()


# ---------------------------------------------------------------- the game as polynomials
def _tpoly(m) -> flint.fmpz_poly:
    """A polynomial of CTX in t only, as an fmpz_poly."""
    d = m.to_dict()
    if not d:
        return flint.fmpz_poly([])
    c = [0] * (max(e[2] for e in d) + 1)
    for e, v in d.items():
        if e[0] or e[1]:
            raise ArithmeticError("not a polynomial in theta alone")
        c[e[2]] = int(v)
    return flint.fmpz_poly(c)


def _split(m, var: int) -> list:
    """m's coefficients in the variable ``var`` (0: p1, 1: p2), ascending, as CTX polynomials."""
    d = m.to_dict()
    top = max((e[var] for e in d), default=0)
    parts: list[dict] = [{} for _ in range(top + 1)]
    for e, v in d.items():
        f = list(e)
        f[var] = 0
        parts[e[var]][tuple(f)] = v
    return [CTX.from_dict(p) for p in parts]


class _Model:
    """The checker's coefficients over (lo, hi): the relevant sets' B_k in Z[p1, p2, theta], and
    the Players' gains (the sets where Banker always draws folded into a_1, a_2)."""

    def __init__(self, game, lo: Fraction, hi: Fraction) -> None:
        self.labels = game.labels
        self.trouble: list[str] = []
        self.R: list[int] = []
        self.B: dict[int, flint.fmpz_mpoly] = {}
        self.Bc: dict[int, list[flint.fmpz_poly]] = {}
        self.e1: dict[int, tuple[int, int]] = {}
        self.e2: dict[int, tuple[int, int]] = {}
        a1 = list(gain_line([game.base[u][0] for u in range(4)], 1))
        a2 = list(gain_line([game.base[u][1] for u in range(4)], 2))
        for k in range(len(game.labels)):
            g1, g2 = game.g[k]
            e1, e2 = gain_line(g1, 1), gain_line(g2, 2)
            vals = [t * x + (1 - t) * y for t in (lo, hi) for x, y in zip(g1, g2)]
            if all(v > 0 for v in vals):
                continue
            if all(v < 0 for v in vals):
                a1 = [u + v for u, v in zip(a1, e1)]
                a2 = [u + v for u, v in zip(a2, e2)]
                continue
            r1, r2 = _bilinear(list(g1)), _bilinear(list(g2))
            B = sum(((r2[m] + (r1[m] - r2[m]) * T) * MONO[m] for m in range(4)), ZERO)
            if B == 0:
                if any(e1) or any(e2):
                    self.trouble.append(f"Banker indifferent throughout at {game.labels[k]}")
                continue
            self.R.append(k)
            self.B[k] = B
            self.Bc[k] = [flint.fmpz_poly([r2[m], r1[m] - r2[m]]) for m in range(4)]
            self.e1[k], self.e2[k] = e1, e2
        self.a1, self.a2 = tuple(a1), tuple(a2)

    def a12(self, D) -> tuple[tuple, tuple]:
        a1, a2 = self.a1, self.a2
        for k in D:
            a1 = (a1[0] + self.e1[k][0], a1[1] + self.e1[k][1])
            a2 = (a2[0] + self.e2[k][0], a2[1] + self.e2[k][1])
        return a1, a2

    def signs(self, tq: flint.fmpq, p1, p2, ks: list[int]) -> dict[int, int]:
        """The sign of B_k at (p1, p2) and theta = tq for each k of ``ks``, exactly: an arb ball
        where it excludes 0, exact arithmetic (Q(sqrt d)) where it does not."""
        x1, x2 = _ball(p1), _ball(p2)
        x12 = x1 * x2
        out = {}
        for k in ks:
            c = [f(tq) for f in self.Bc[k]]
            v = flint.arb(c[0]) + flint.arb(c[1]) * x1 + flint.arb(c[2]) * x2 + flint.arb(c[3]) * x12
            if v > 0:
                out[k] = 1
            elif v < 0:
                out[k] = -1
            else:
                f = [_fr(x) for x in c]
                out[k] = _sign(f[0] + f[1] * p1 + f[2] * p2 + f[3] * p1 * p2)
        return out

    def minors(self, D, S) -> list:
        """The minors of order 1 and 2 of [E_S | r_T], T a subset of S, as bilinears of CTX:
        Banker's mixing at S is feasible iff a vertex is, decided by their signs."""
        a1, a2 = self.a12(D)

        def l1(c):          # c0 + c1 p2
            return c[0] * ONE + c[1] * P2

        def l2(c):          # c0 + c1 p1
            return c[0] * ONE + c[1] * P1

        cols = [(l1(self.e1[s]), l2(self.e2[s])) for s in S]
        rs = []
        for n in range(len(S) + 1):
            for U in combinations(S, n):
                b1, b2 = a1, a2
                for s in U:
                    b1 = (b1[0] + self.e1[s][0], b1[1] + self.e1[s][1])
                    b2 = (b2[0] + self.e2[s][0], b2[1] + self.e2[s][1])
                rs.append((l1(b1), l2(b2)))
        out = [c for col in cols + rs for c in col]
        for u, v in combinations(cols + rs, 2):
            out.append(u[0] * v[1] - v[0] * u[1])
        return [m for m in out if m != 0]


# ---------------------------------------------------------------- the candidates' points
class _TwoCurves:
    """The points where the curves P = 0 and Q = 0 (bilinear in p, coefficients in Z[theta])
    meet: p1 a root of K = Res_p2(P, Q), p2 from P (P has no factor free of p2)."""

    def __init__(self, P, Q) -> None:
        self.P, self.Q = P, Q
        self.Pc = _split(P, 1)             # P = Pc[0] + Pc[1] p2
        self.K = P.resultant(Q, "p2")
        k = _split(self.K, 0)
        self.Kc = [_tpoly(c) for c in k] + [flint.fmpz_poly([])] * (3 - len(k))
        self.Pp = [[_tpoly(c) for c in _split(part, 0)] for part in self.Pc]

    def elim(self, f) -> flint.fmpz_poly:
        """An integer polynomial in theta vanishing wherever f does at a point (not 0 where f
        vanishes on one branch for every theta: then the other branch's)."""
        F = self.P.resultant(f, "p2")
        E = self.K.resultant(F, "p1")
        if E == 0:
            g = self.K.gcd(F)
            K2, F2 = self.K // g, F // g
            E = K2.resultant(F2, "p1") if K2.degrees()[0] else ONE
        return _tpoly(E)

    def base(self) -> list:
        """Where the points can appear, leave the square or turn complex."""
        k0, k1, k2 = self.Kc
        out = [k2, k1 * k1 - 4 * k2 * k0] if k2 != 0 else [k1]
        out += [self.elim(f) for f in (P1, P1 - 1, P2, P2 - 1, self.Pc[1])]
        return [f for f in out if f != 0]

    @staticmethod
    def inside(p1, p2) -> bool:
        """In the open square?"""
        return min(_sign(p1), _sign(1 - p1), _sign(p2), _sign(1 - p2)) > 0

    def coords(self, t: Fraction) -> list[tuple]:
        """(branch, p1, p2) of each real point at the rational t, exactly."""
        tq = _q(t)
        k0, k1, k2 = (_fr(c(tq)) for c in self.Kc)
        if k2 == 0 and k1 == 0:
            return []
        out = []
        for n, x in enumerate(_roots(k0, k1, k2)):
            a = [_fr(c(tq)) if c != 0 else Fraction(0) for c in (self.Pp[0] + [flint.fmpz_poly([])] * 2)[:2]]
            b = [_fr(c(tq)) if c != 0 else Fraction(0) for c in (self.Pp[1] + [flint.fmpz_poly([])] * 2)[:2]]
            den = b[0] + b[1] * x
            if _sign(den) == 0:
                continue        # P's p2 coefficient has no common factor with the rest: K2 or disc root
            out.append((n, x, -(a[0] + a[1] * x) / den))
        return out


class _EdgePoint:
    """The point where the curve B = 0 meets the edge p_w = e: rational in theta."""

    def __init__(self, B, w: int, e: int) -> None:
        self.w, self.e = w, e
        sub = B.compose(CTX.from_dict({(0, 0, 0): e}) if w == 1 else P1,
                        P2 if w == 1 else CTX.from_dict({(0, 0, 0): e}), T)
        var = 1 if w == 1 else 0
        uv = _split(sub, var) + [ZERO]
        self.u, self.v = uv[0], uv[1]            # B on the edge = u + v q

    def _on_edge(self, f):
        g = f.compose(CTX.from_dict({(0, 0, 0): self.e}) if self.w == 1 else P1,
                      P2 if self.w == 1 else CTX.from_dict({(0, 0, 0): self.e}), T)
        parts = _split(g, 1 if self.w == 1 else 0) + [ZERO]
        return parts[0], parts[1]

    def elim(self, f) -> flint.fmpz_poly:
        fa, fb = self._on_edge(f)
        return _tpoly(fa * self.v - fb * self.u)

    def base(self) -> list:
        return [f for f in (_tpoly(self.v), _tpoly(self.u), _tpoly(self.u + self.v)) if f != 0]

    def inside(self, p1, p2) -> bool:
        """Strictly inside the edge?"""
        q = p2 if self.w == 1 else p1
        return _sign(q) > 0 and _sign(1 - q) > 0

    def coords(self, t: Fraction) -> list[tuple]:
        """(0, p1, p2) of the point at the rational t, exactly (none where B is constant on the edge)."""
        tq = _q(t)
        u, v = _fr(_tpoly(self.u)(tq)), _fr(_tpoly(self.v)(tq))
        if v == 0:
            return []
        q = -u / v
        return [(0, Fraction(self.e), q) if self.w == 1 else (0, q, Fraction(self.e))]


# ---------------------------------------------------------------- one candidate
@dataclass
class Report:
    """What the recomputation found.

    Attributes
    ----------
    events : list of Root
        Where some candidate starts or stops being an equilibrium (or changes its draw set), each
        with the candidate's name, ascending.
    trouble : list of str
        What the recomputation could not decide (module docstring); empty when complete.
    counts : dict
        Candidates analysed.
    """

    events: list[tuple[Root, str]] = field(default_factory=list)
    trouble: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)


class _Run:
    def __init__(self, model: _Model, lo: Fraction, hi: Fraction) -> None:
        self.m, self.lo, self.hi = model, lo, hi
        self.report = Report(trouble=list(model.trouble))
        self.along: set[tuple[int, frozenset]] = set()
        self.c = self.report.counts

    def inside(self, pt, t: Fraction, others: list[int]) -> list[tuple]:
        """The points in the open square (or edge) at t, each (branch, p1, p2, D, Z): D the sets of
        ``others`` where B < 0, Z where B = 0 (for every theta: t is no root)."""
        tq = _q(t)
        out = []
        for br, p1, p2 in pt.coords(t):
            if not pt.inside(p1, p2):
                continue
            s = self.m.signs(tq, p1, p2, others)
            out.append((br, p1, p2, frozenset(k for k, v in s.items() if v < 0),
                        frozenset(k for k, v in s.items() if v == 0)))
        return out

    def feasible(self, D, S, p1, p2, pure: tuple[int, int] | None) -> bool:
        """Some x in [0, 1]^S makes the mixing Players indifferent (and the pure one content)?"""
        a1, a2 = self.m.a12(D)
        r1 = [self.m.e1[s][0] + self.m.e1[s][1] * p2 for s in S]
        r2 = [self.m.e2[s][0] + self.m.e2[s][1] * p1 for s in S]
        c1, c2 = a1[0] + a1[1] * p2, a2[0] + a2[1] * p1
        rows = [(r1, c1), (r2, c2)]
        eq, ge = [], []
        for w, (r, c) in enumerate(rows, start=1):
            if pure is not None and pure[0] == w:
                # Delta_w = c + r.x must be <= 0 at p_w = 0, >= 0 at p_w = 1
                ge.append(([-v for v in r], c) if pure[1] == 0 else (r, -c))
            else:
                eq.append((r, -c))
        eqs = _independent(eq)
        return eqs is not None and _box_feasible(eqs, ge, len(S))

    def analyse(self, name: str, pt, own: tuple[int, ...], pure=None, required=None) -> None:
        m = self.m
        others = [k for k in m.R if k not in own]
        roots = Roots(self.lo, self.hi)
        base = pt.base()
        roots.add(base)
        if not any(self.inside(pt, s, []) for _, _, s in roots.pieces()):
            return
        self.c["in the square"] = self.c.get("in the square", 0) + 1
        # a condition identically 0 at the point (a curve through an edge point for every theta)
        # has no root to add: its zero is seen exactly at every sample
        roots.add([f for f in (pt.elim(m.B[k]) for k in others) if f != 0])
        shapes = set()
        for _, _, s in roots.pieces():
            for *_, D, Z in self.inside(pt, s, others):
                S = tuple(sorted(set(own) | Z))
                if len(S) > MAX_THROUGH:
                    self.report.trouble.append(f"{name}: {len(S)} sets through one point")
                    continue
                shapes.add((D, S))
                if required is None:
                    self.note(D, S, pure)
        for D, S in shapes:
            roots.add([f for f in (pt.elim(g) for g in m.minors(D, S)) if f != 0])
        status = []
        for a, b, s in roots.pieces():
            st = []
            for br, p1, p2, D, Z in self.inside(pt, s, others):
                S = tuple(sorted(set(own) | Z))
                if (required is None or D == required) and len(S) <= MAX_THROUGH and \
                        self.feasible(D, S, p1, p2, pure):
                    st.append((br, tuple(sorted(D))))
            status.append((a, b, tuple(sorted(st))))
        for (_, r, u), (_, _, v) in zip(status, status[1:]):
            if u != v:
                self.report.events.append((r, name))

    def note(self, D, S, pure) -> None:
        """The along-curve draw sets next to a point: on each curve s through it, D plus any of
        the other curves there; on an edge, check the mixing Player is not indifferent all along."""
        for s in S:
            rest = [k for k in S if k != s]
            for n in range(len(rest) + 1):
                for U in combinations(rest, n):
                    self.along.add((s, D | frozenset(U)))
        if pure is not None:
            self.edge_continua(D, S, pure)

    def edge_continua(self, D, S, pure) -> None:
        w, e = pure
        for n in range(len(S) + 1):
            for U in combinations(S, n):
                a1, a2 = self.m.a12(D | frozenset(U))
                if (a2[0] + a2[1] * e if w == 1 else a1[0] + a1[1] * e) == 0:
                    self.report.trouble.append(f"Player {3 - w} indifferent along part of the edge p{w} = {e}")

    def corners(self) -> None:
        m = self.m
        for c1, c2 in ((0, 0), (0, 1), (1, 0), (1, 1)):
            lin = {k: _tpoly(m.B[k].compose(c1 * ONE, c2 * ONE, T)) for k in m.R}
            roots = Roots(self.lo, self.hi)
            roots.add(f for f in lin.values() if f != 0)
            status = []
            for a, b, s in roots.pieces():
                sq = _q(s)
                D = frozenset(k for k, f in lin.items() if f(sq) < 0)
                Z = tuple(sorted(k for k, f in lin.items() if f == 0))
                for w, e in ((1, c1), (2, c2)):
                    self.edge_continua(D, Z, (w, e))
                if Z:           # curves through the corner for every theta: their segments start here
                    self.note(D, Z, None)
                ok = self._corner_ok(D, Z, c1, c2)
                status.append((a, b, tuple(sorted(D)) if ok else None))
            for (_, r, u), (_, _, v) in zip(status, status[1:]):
                if u != v and (u is not None or v is not None):
                    self.report.events.append((r, f"corner ({c1}, {c2})"))

    def _corner_ok(self, D, Z, c1, c2) -> bool:
        a1, a2 = self.m.a12(D)
        rows = [([self.m.e1[s][0] + self.m.e1[s][1] * c2 for s in Z], a1[0] + a1[1] * c2, c1),
                ([self.m.e2[s][0] + self.m.e2[s][1] * c1 for s in Z], a2[0] + a2[1] * c1, c2)]
        ge = [([-v for v in r], c) if e == 0 else (r, -c) for r, c, e in rows]
        return _box_feasible([], [(list(map(Fraction, r)), Fraction(c)) for r, c in ge], len(Z))


def _p2_free(P) -> bool:
    return P.degrees()[1] == 0


def _orient(A, B) -> tuple | None:
    """(P, Q) with P of degree 1 in p2 and no factor free of p2; None if neither qualifies."""
    for P, Q in ((A, B), (B, A)):
        if not _p2_free(P):
            a, b = _split(P, 1)[:2]
            if a.gcd(b).degrees()[0] == 0 and a.gcd(b).degrees()[1] == 0:
                return P, Q
    return None


def _proportional(A, B) -> bool:
    """A = c B for a constant c (in Q(theta))?"""
    da, db = _split(A, 1), _split(B, 1)
    fa = [x for p in da for x in _split(p, 0)]
    fb = [x for p in db for x in _split(p, 0)]
    n = max(len(fa), len(fb))
    fa += [ZERO] * (n - len(fa))
    fb += [ZERO] * (n - len(fb))
    return all(fa[i] * fb[j] == fa[j] * fb[i] for i in range(n) for j in range(n))


def _crossing(run: _Run, i: int, j: int) -> None:
    model, lab = run.m, run.m.labels
    run.c["crossings"] = run.c.get("crossings", 0) + 1
    A, B = model.B[i], model.B[j]
    o = _orient(A, B)
    if o is None:
        if not (_p2_free(A) and _p2_free(B)):
            run.report.trouble.append(f"crossing {lab[i]} x {lab[j]}: no curve to parametrise by")
        return              # two lines p1 = c(theta): they meet only where they coincide
    pt = _TwoCurves(*o)
    if pt.K == 0:
        if not _proportional(A, B):
            run.report.trouble.append(f"{lab[i]} and {lab[j]} share a component")
        return
    run.analyse(f"crossing {lab[i]} x {lab[j]}", pt, (i, j))


def _edge(run: _Run, z: int, w: int, e: int) -> None:
    lab = run.m.labels
    run.c["edge points"] = run.c.get("edge points", 0) + 1
    pt = _EdgePoint(run.m.B[z], w, e)
    if pt.u == 0 and pt.v == 0:
        run.report.trouble.append(f"{lab[z]} vanishes along the edge p{w} = {e}")
        return
    run.analyse(f"{lab[z]} meets p{w} = {e}", pt, (z,), pure=(w, e))


def _along(run: _Run, z: int, D: frozenset) -> None:
    model, lab = run.m, run.m.labels
    run.c["along-curve candidates"] = run.c.get("along-curve candidates", 0) + 1
    (a10, a11), (a20, a21) = model.a12(D)
    (e10, e11), (e20, e21) = model.e1[z], model.e2[z]
    G = (a10 * ONE + a11 * P2) * (e20 * ONE + e21 * P1) - (a20 * ONE + a21 * P1) * (e10 * ONE + e11 * P2)
    if G == 0:
        run.report.trouble.append(f"both Players indifferent along {lab[z]}")
        return
    o = _orient(model.B[z], G)
    if o is None:
        if not (_p2_free(model.B[z]) and _p2_free(G)):
            run.report.trouble.append(f"along {lab[z]}: no curve to parametrise by")
        return              # both lines p1 = const: they meet only at isolated theta
    pt = _TwoCurves(*o)
    if pt.K == 0:
        run.report.trouble.append(f"along {lab[z]}: G shares a component with the curve")
        return
    run.analyse(f"along {lab[z]}, Banker drawing at {len(D)} relevant sets", pt, (z,), required=D)


_FAMILIES: dict[str, Callable[..., None]] = {"crossing": _crossing, "edge": _edge, "along": _along}


def _chunk(args: tuple) -> tuple:
    """Analyse some candidates of one family in a fresh run (a worker's share): plain data back."""
    game, lo, hi, family, items = args
    run = _Run(_Model(game, lo, hi), lo, hi)
    for item in items:
        _FAMILIES[family](run, *item)
    events = [(r.lo, r.hi, None if r.poly is None else [int(c) for c in r.poly.coeffs()], name)
              for r, name in run.report.events]
    return events, run.report.trouble, run.c, run.along


def _map(run: _Run, game, family: str, items: list, workers: Workers, progress) -> None:
    """Analyse every candidate of ``items``, on ``workers`` when they leave this process, and
    merge what they find into ``run``."""
    chunks = max(1, min(len(items), 16 * max(workers.count, 2) if workers.parallel else 1))
    jobs = [(game, run.lo, run.hi, family, items[n::chunks]) for n in range(chunks)]
    with workers.executor("the events check with several workers") if workers.parallel else nullcontext() as pool:
        results: Iterable[tuple] = pool.map(_chunk, jobs) if pool is not None else map(_chunk, jobs)
        for n, (events, trouble, counts, along) in enumerate(results):
            run.report.events += [(Root(a, b, None if c is None else flint.fmpz_poly(c)), name)
                                  for a, b, c, name in events]
            run.report.trouble += trouble
            for k, v in counts.items():
                run.c[k] = run.c.get(k, 0) + v
            run.along |= along
            if progress is not None:
                progress(family, n + 1, chunks)


def recompute_events(game, lo: Fraction, hi: Fraction, progress=None, workers: int | Workers = 1) -> Report:
    """Every theta in (lo, hi) where some candidate equilibrium starts or stops (module docstring).

    Parameters
    ----------
    game : baccara.check.banque._Game
        The checker's own coefficients.
    lo, hi : Fraction
        The range.
    progress : callable, optional
        Called as ``progress(family, done, total)`` over the candidates' chunks (family
        ``"crossing"``, ``"edge"`` or ``"along"``).
    workers : int or Workers
        Processes here (1: this one), or :class:`~baccara.processes.Workers` (a Dask cluster).

    Returns
    -------
    Report
        The events, and what could not be decided.
    """
    if not isinstance(workers, Workers):
        workers = Workers(workers)
    model = _Model(game, lo, hi)
    run = _Run(model, lo, hi)
    R = model.R
    run.c["relevant sets"] = len(R)
    pairs = [(i, j) for n, i in enumerate(R) for j in R[n + 1:]]
    _map(run, game, "crossing", pairs, workers, progress)
    _map(run, game, "edge", [(z, w, e) for z in R for w in (1, 2) for e in (0, 1)], workers, progress)
    run.corners()
    _map(run, game, "along", sorted(run.along, key=lambda u: (u[0], sorted(u[1]))), workers, progress)
    for r, _ in run.report.events:      # narrow each for its float (its isolation does not change)
        while r.poly is not None and r.hi - r.lo > Fraction(1, 10**12):
            r.bisect()
    run.report.events.sort(key=lambda u: (u[0].lo, u[0].hi))
    return run.report
