"""Every place in (0, 5772/33847) where the set of Nash equilibria can change, exactly.

:func:`~baccara.banque.nash_eq.sweep.nash_branches` follows equilibrium
branches from samples; a pair of branches born and dying between two samples
would be missed (one was: three equilibria coexist near theta = 37/400, on an
interval no sample hit).  This module closes the hole by computing, for *every*
candidate form an equilibrium can take (Ethier and Lee 2015, section 5, and the
classification in :mod:`baccara.banque.nash_eq.solution`), the exact set of theta
where that form is an equilibrium; the ends of those sets (*events*) are
integer polynomials' roots.  Between consecutive events every form is an
equilibrium throughout or nowhere, so one sample of the complete enumeration
:func:`~baccara.banque.nash_eq.solution.nash_equilibria` per interval sees every
equilibrium on it.

The forms
---------
Write B_k = theta R1^k + (1 - theta) R2^k (Banker draws at k where B_k < 0) and
Delta_w = a_w(D) + sum_z x_z e_w^z for Player w's gain from drawing at 5, with
Banker drawing at the sets D and mixing (x_z) at the sets Z.  Only sets whose
B_k changes sign on [0, 1]^2 x [0, 5772/33847] matter ("relevant": B_k is
multilinear in (p1, p2, theta), so its extremes are at the 8 corners, an exact
test); at every other set Banker's move is the same for the whole range.

*Fixed points* (the point does not depend on D):

- a *crossing* of two relevant curves B_i = B_j = 0, both Players mixing,
  Banker mixing at i and j (his x by Cramer's rule, given D);
- a *curve-edge point* B_z = 0, p_w = e, the other Player mixing;
- a *corner*.

*Moving along a curve* (depends on D): B_z = 0 and G_{z,D} = a1 e2^z - a2 e1^z
= 0, both Players mixing, Banker mixing at z only.  G does not involve theta,
so this point is again a crossing (of B_z with a fixed curve).

*Cell points* (Banker pure, both Players mixing): a1(D)(p2) = a2(D)(p1) = 0 fix
a point that does not move with theta; it enters or leaves its cell only by
crossing a curve z, where it is the along-curve point of (z, D \\ {z}) with
x_z = 0 or 1, an event of that form; or an edge, which it cannot cross (it is
fixed).  *Edge points with Banker pure* make the mixing Player indifferent
along a whole edge segment or nowhere on it (his gain does not depend on his
own p): :func:`~baccara.banque.nash_eq.solution.nash_equilibria` reports such
continua; we check that none occurs (:attr:`NashProof.continua`).

For each fixed point, the conditions are: it is real and in the open square
(discriminant, leading coefficients, p in (0, 1)), Banker's sign at every
other relevant set (triple points: D changes), and, on each interval where D
is constant, the draw probabilities in [0, 1] and a pure Player's preference.
Each is a polynomial in (p1, p2, theta) eliminated at the point to an integer
polynomial in theta; its real roots in the range split it into intervals on
each of which every condition has one sign, decided at one rational sample.
The segments of each curve z (between the fixed points on it) and their draw
sets D are read off the same samples: every segment ends at a crossing or an
edge point, and on each side of a crossing (z, k) the draw set is that
crossing's D, with or without k.  So the list of along-curve forms (z, D) is
complete, and each is analysed the same way.

Signs at the samples are exact: a sample is rational, every polynomial has integer
coefficients, and a point's coordinates there are rational or lie in Q(sqrt d) (the
discriminant of its quadratic), where the sign of a + b sqrt(d) is decided by comparing a^2
with b^2 d (:class:`_QF`).  No value is ever rounded, so none is mistaken for zero.

Degenerate points
-----------------
A sample lies strictly between the roots of every condition's eliminant, so a condition that
is exactly 0 there vanishes on the whole branch: its polynomial shares a factor with the
point's equations (the eliminant is then the resultant of the cofactors, so the other branch
is still followed).  Two cases occur:

- a third relevant set's B_k vanishes at a crossing for every theta (three curves through one
  point; the first met at theta = 4/213): Banker is indifferent there too and may mix at all
  of them;
- the form's own system for Banker's mixing is singular on the branch.

Both are decided by the general test :meth:`_Analyser.lp`: is there a mixing x in [0, 1]^S
(S = the sets where Banker is indifferent) meeting the Players' conditions?  It enumerates
the candidate vertices of that polytope exactly, and all their conditions join the
eliminants, so the events stay complete.  Two curves that are both lines p1 = const meet only
where the constants agree: those theta are events.

Status
------
On (9/100, 19/200) (65 relevant sets, about 15 s) it finds the region the sampled sweep
missed: three equilibria on (0.0924720, 0.0941281).  Over the whole of (0, 5772/33847)
(179 relevant sets, 15,931 crossings, 716 curve-edge points, 36,985 along-curve forms; about
10 minutes on one core of a loaded machine) it completes with 69 events and no continuum; 57
crossings are of proportional curves (covered by the along-curve forms) and 6,046 (sample, form)
pairs meet a point where a further set's B vanishes (decided by the vertex test).  Twenty of the
events are changes of Banker's draw set along the equilibrium with p1 = 0 (in (0.0172597,
0.0376433), and near 0.1359 and 0.1500): an earlier version tested an edge point's fixed
coordinate against the open square and so dropped every curve-edge point; the checker's own
recomputation of the events (:mod:`baccara.check.banque_events`) found them.  Those events are stored in
:data:`EVENTS_FILE` (:func:`write_events`, ``python -m baccara.banque.nash_eq.proof``),
and :func:`~baccara.banque.nash_eq.sweep.nash_branches` cuts its intervals there
(:func:`stored_events`).  Over (5772/33847, 1/2) (120 relevant sets, 102,069 along-curve forms,
about 33 minutes on a loaded machine) it finds 40 events, exactly the rational theta where Banker's
best reply to p1 = p2 = 9/11 changes (:data:`UPPER_EVENTS_FILE`).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations, product
from math import isqrt
from pathlib import Path

import flint

from ...solve.arrangement import at
from ...solve.roots import Endpoint, arb_of, exact_bounds, precision, rational_between_balls
from ..model import BanqueGame, banque_game, infoset_label, local_game
from .events import EVENTS_FILE, THETA_9_11, UPPER_EVENTS_FILE, _q

Poly = flint.fmpz_poly
#: theta as a polynomial
TP = flint.fmpz_poly([0, 1])
ZP = flint.fmpz_poly([])
ONE_T = flint.fmpz_poly([1])


def _bil_t(game: BanqueGame, k: int) -> tuple[Poly, Poly, Poly, Poly]:
    """B_k's bilinear coefficients (c0, c1, c2, c3) as polynomials in theta:
    B_k = c0 + c1 p1 + c2 p2 + c3 p1 p2, each c = R2 + theta (R1 - R2)."""
    _, _, r1, r2 = game.bilinears
    return tuple(flint.fmpz_poly([int(b), int(a) - int(b)]) for a, b in zip(r1[k], r2[k]))  # type: ignore[return-value]


def _mul_lin(a, b) -> tuple:
    """(a0 + a1 p2) (b0 + b1 p1) as bilinear coefficients (c0, c1, c2, c3)."""
    return (a[0] * b[0], a[0] * b[1], a[1] * b[0], a[1] * b[1])


def relevant_sets(game: BanqueGame, lo: Fraction, hi: Fraction) -> list[int]:
    """The information sets whose B_k changes sign on [0, 1]^2 x [lo, hi] (an exact test: B_k is
    multilinear, so its extremes are at the 8 corners); Banker's move at every other set is the
    same throughout."""
    _, _, r1, r2 = game.bilinears
    out = []
    for k in range(len(r1)):
        vals = [t * at(r1[k], p1, p2) + (1 - t) * at(r2[k], p1, p2)
                for t in (lo, hi) for p1 in (0, 1) for p2 in (0, 1)]
        if not (all(v > 0 for v in vals) or all(v < 0 for v in vals)):
            out.append(k)
    return out


class _Point:
    """The point where curve ``P`` (bilinear, coefficients in Z[theta]) meets curve ``Q``:
    p2 = -(P0 + P1 p1) / (P2 + P3 p1) and K(p1) = 0, K = Q at that p2 times the denominator.
    For an edge p_w = e pass ``edge``; then the point is rational in theta."""

    def __init__(self, P, Q=None, edge: tuple[int, int] | None = None) -> None:
        self.P, self.Q, self.edge = P, Q, edge
        if edge is None:
            self.K = self.at_point(Q)

    def at_point(self, f) -> tuple:
        """f (bilinear, coefficients in Z[theta]) at the point, times the p2 denominator:
        (coefficients of p1^0, p1^1, p1^2) -- or, on an edge, (value numerator,) over the
        denominator :meth:`den`."""
        P = self.P
        if self.edge is not None:
            w, e = self.edge
            if w == 1:    # p1 = e: P0 + P1 e + (P2 + P3 e) p2 = 0
                u, v = P[0] + P[1] * e, P[2] + P[3] * e
                # f = f0 + f1 e + (f2 + f3 e) p2, p2 = -u / v
                return ((f[0] + f[1] * e) * v - (f[2] + f[3] * e) * u,)
            u, v = P[0] + P[2] * e, P[1] + P[3] * e    # p2 = e: p1 = -u / v
            return ((f[0] + f[2] * e) * v - (f[1] + f[3] * e) * u,)
        f0, f1, f2, f3 = f
        c0, c1, c2, c3 = P
        return (f0 * c2 - f2 * c0, f0 * c3 + f1 * c2 - f2 * c1 - f3 * c0, f1 * c3 - f3 * c1)

    def den(self) -> Poly:
        """The p2 denominator P2 + P3 p1 eliminated (its zeros: the parametrisation fails)."""
        if self.edge is not None:
            w, e = self.edge
            return self.P[2] + self.P[3] * e if w == 1 else self.P[1] + self.P[3] * e
        return self.eliminant((self.P[2], self.P[3], ZP, ZP))

    def eliminant(self, f) -> Poly:
        """An integer polynomial in theta vanishing wherever f does at the point."""
        F_ = self.at_point(f)
        if self.edge is not None:
            return F_[0]
        r = _res22(self.K, F_)
        if r != 0:
            return r
        # K and F share a factor: one of the point's branches lies on f = 0 for every theta.
        # The other branch's eliminant is the resultant of the cofactors; the shared branch
        # is caught at the samples (f's sign there is undecided, an error) if it enters the square.
        g = _to_mpoly(self.K).gcd(_to_mpoly(F_))
        return _res22(_from_mpoly(_to_mpoly(self.K) // g), _from_mpoly(_to_mpoly(F_) // g))


_CTX2 = flint.fmpz_mpoly_ctx.get(("p1", "t"))


def _to_mpoly(c) -> flint.fmpz_mpoly:
    d: dict[tuple[int, ...], int] = {}
    for e, poly in enumerate(c):
        for k, v in enumerate(poly.coeffs()):
            if v:
                d[(e, k)] = int(v)
    return _CTX2.from_dict(d)


def _from_mpoly(m) -> tuple:
    out = [[0] * (m.degrees()[1] + 1) for _ in range(3)]
    for (e, k), v in m.to_dict().items():
        if e > 2:
            raise ArithmeticError("not quadratic in p1")
        out[e][k] = int(v)
    return tuple(flint.fmpz_poly(c) for c in out)


def _res22(a, b) -> Poly:
    """The resultant in p1 of a0 + a1 p1 + a2 p1^2 and b0 + b1 p1 + b2 p1^2, by their degrees
    over Z[theta] (a leading coefficient vanishing at some theta only adds its roots)."""
    da = 2 if a[2] != 0 else (1 if a[1] != 0 else 0)
    db = 2 if b[2] != 0 else (1 if b[1] != 0 else 0)
    if da == 0:
        return a[0] ** db
    if db == 0:
        return b[0] ** da
    if da == 1 and db == 1:
        return a[1] * b[0] - a[0] * b[1]
    if da == 2 and db == 1:
        return a[2] * b[0] ** 2 - a[1] * b[0] * b[1] + a[0] * b[1] ** 2
    if da == 1 and db == 2:
        return b[2] * a[0] ** 2 - b[1] * a[0] * a[1] + b[0] * a[1] ** 2
    a0, a1, a2 = a
    b0, b1, b2 = b
    return (a2 * b0 - a0 * b2) ** 2 - (a2 * b1 - a1 * b2) * (a1 * b0 - a0 * b1)


def _same_root(a, f, b, g) -> bool:
    """Do the overlapping balls a (a root of f) and b (of g) hold one root?"""
    h = f.gcd(g)
    return h.degree() >= 1 and any(z.imag == 0 and z.real.overlaps(a) and z.real.overlaps(b)
                                   for z, _ in h.complex_roots())


def _lin(c, x):
    return c[0] + c[1] * x


def _bil_val(c, p1, p2):
    return c[0] + c[1] * p1 + c[2] * p2 + c[3] * p1 * p2


@dataclass
class NashProof:
    """The events of every form over (lo, hi) (module docstring): between consecutive
    ``events`` every form is an equilibrium throughout or nowhere.

    Attributes
    ----------
    lo, hi : Fraction
        The range.
    relevant : list of int
        The information sets whose B_k changes sign on the square over the range.
    events : list of Endpoint
        The distinct events, ascending: each a root of an integer polynomial in a certified ball.
    forms : dict
        Each form with events (label) -> its events.
    continua : list of str
        Continua of equilibria met (none expected: a Player indifferent along an edge, curves
        that coincide).
    degenerate : list of str
        Points where Banker is indifferent at a further set for every theta (decided exactly, with
        Banker free to mix there too).
    coincident : list of str
        Crossings of two proportional curves (B_i = c B_j for every theta): no isolated point,
        the common curve being covered by the along-curve forms.
    counts : dict
        What was analysed.
    seconds : float
        Wall-clock time of the analysis.
    """

    lo: Fraction
    hi: Fraction
    relevant: list[int]
    events: list[Endpoint]
    forms: dict[str, list[Endpoint]]
    continua: list[str]
    degenerate: list[str]
    coincident: list[str]
    counts: dict[str, int]
    seconds: float


class _Analyser:
    def __init__(self, game: BanqueGame, lo: Fraction, hi: Fraction) -> None:
        self.game, self.lo, self.hi = game, lo, hi
        self.R = relevant_sets(game, lo, hi)
        self.Bt = {k: _bil_t(game, k) for k in self.R}
        r10, r20, r1, r2 = game.bilinears
        rel = set(self.R)
        # outside R, B_k has one sign on the whole box: Banker draws there when it is negative
        half = Fraction(1, 2)
        fixed = [k for k in range(len(r1)) if k not in rel and (any(r1[k]) or any(r2[k]))
                 and lo * at(r1[k], half, half) + (1 - lo) * at(r2[k], half, half) < 0]
        d1 = [int(r10[1]), int(r10[3])]
        d2 = [int(r20[2]), int(r20[3])]
        for k in fixed:
            d1 = [d1[0] + int(r1[k][1]), d1[1] + int(r1[k][3])]
            d2 = [d2[0] + int(r2[k][2]), d2[1] + int(r2[k][3])]
        self.d1, self.d2 = tuple(d1), tuple(d2)          # a1 = d1 . (1, p2), a2 = d2 . (1, p1)
        self.e1 = {k: (int(r1[k][1]), int(r1[k][3])) for k in self.R}     # e1^k, in p2
        self.e2 = {k: (int(r2[k][2]), int(r2[k][3])) for k in self.R}     # e2^k, in p1
        self.lo_b, self.hi_b = arb_of(lo), arb_of(hi)
        self.prec = flint.ctx.prec        # the ends' balls depend on it: a worker's analyser is built at the same
        self.reset()

    def reset(self) -> None:
        """Forget what was found (a worker's analyser, kept for the next chunk of the same range)."""
        self.forms: dict[str, list[Endpoint]] = {}
        self.continua: list[str] = []
        self.along: set[tuple[int, frozenset]] = set()
        self.degenerate: set[str] = set()
        self.coincident: list[str] = []
        self.current = ""
        self.counts = {"relevant_sets": len(self.R), "crossings": 0, "crossings_in_square": 0,
                       "curve_edge_points": 0, "along_curve_forms": 0, "eliminants": 0, "samples": 0}

    # ---------------------------------------------------------------- Players' gains
    def a12(self, D):
        a1 = (self.d1[0] + sum(self.e1[k][0] for k in D), self.d1[1] + sum(self.e1[k][1] for k in D))
        a2 = (self.d2[0] + sum(self.e2[k][0] for k in D), self.d2[1] + sum(self.e2[k][1] for k in D))
        return a1, a2

    # ---------------------------------------------------------------- roots
    def roots_in(self, polys, lo_b=None, hi_b=None) -> list[tuple]:
        """(ball, squarefree factor) for every real root in (lo_b, hi_b), ascending, distinct."""
        lo_b = self.lo_b if lo_b is None else lo_b
        hi_b = self.hi_b if hi_b is None else hi_b
        self.counts["eliminants"] += len(polys)
        out = []
        for f in polys:
            if f == 0:
                raise ArithmeticError("a condition vanishes identically")
            if f.degree() < 1:
                continue
            for g, _ in f.factor_squarefree()[1]:
                for z, _ in g.complex_roots():
                    if z.imag != 0:
                        continue
                    x = z.real
                    if lo_b < x < hi_b:
                        out.append((x, g))
                    elif x.overlaps(lo_b) or x.overlaps(hi_b):
                        for b in (lo_b, hi_b):
                            if x.overlaps(b) and b.rad() == 0:
                                r = Fraction(int(b.mid().man_exp()[0])) * Fraction(2) ** int(b.mid().man_exp()[1])
                                if g(_q(r)) != 0:
                                    raise ArithmeticError("a root too close to an end to place")
        out.sort(key=lambda r: r[0].mid())
        distinct: list[tuple] = []
        for b, g in out:
            if distinct and distinct[-1][0].overlaps(b):
                if _same_root(distinct[-1][0], distinct[-1][1], b, g):
                    continue
                raise ArithmeticError("two roots not separated at this precision")
            distinct.append((b, g))
        return distinct

    def samples(self, roots, lo_b=None, hi_b=None) -> list[Fraction]:
        lo_b = self.lo_b if lo_b is None else lo_b
        hi_b = self.hi_b if hi_b is None else hi_b
        edges = [lo_b] + [b for b, _ in roots] + [hi_b]
        return [rational_between_balls(a, b) for a, b in zip(edges, edges[1:])]

    # ---------------------------------------------------------------- one point-form
    def analyse(self, label: str, pt: _Point, own: tuple[int, ...], kind: str, extra: frozenset | None = None) -> None:
        """The events of one form whose point is ``pt`` (module docstring): 'cross' (Banker mixes
        at own = (i, j)), 'edge' (own = (z,), the point on the edge pt.edge), 'along' (own =
        (z,), Banker drawing at ``extra``)."""
        self.current = label
        others = [k for k in self.R if k not in own]
        base = [pt.den()]
        if pt.edge is None:
            K = pt.K
            if K[2] == 0 and K[1] == 0:
                if K[0] != 0:
                    return      # no point
                P, Q = pt.P, pt.Q
                proportional = all(P[a] * Q[b] == P[b] * Q[a] for a in range(4) for b in range(4))
                if kind == "cross" and proportional:
                    # B_i and B_j are proportional (their R1, R2 rows with one factor): no isolated
                    # point; on the common curve Banker's two sets act as one, and the along-curve
                    # forms of i and of j (where B_j, B_i vanish: Z) cover it exactly
                    self.coincident.append(label)
                    return
                if P[2] != 0 or P[3] != 0:
                    self.continua.append(f"{label}: the curves coincide")
                    return
                # both curves are lines p1 = const (no p2 in either): they meet, in a whole line,
                # only at the thetas where the two constants agree -- events of this form
                r = P[0] * Q[1] - P[1] * Q[0]
                if r == 0:
                    self.continua.append(f"{label}: the lines coincide")
                else:
                    ends = self.roots_in([r])
                    if ends:
                        self.forms.setdefault(label, []).extend(Endpoint(ball, g) for ball, g in ends)
                return
            base += [K[2], K[1] * K[1] - 4 * K[2] * K[0]]
        base += [pt.eliminant(_b1(c)) for c in ((0, 1, 0, 0), (-1, 1, 0, 0), (0, 0, 1, 0), (-1, 0, 1, 0))]
        base = [f for f in base if f != 0]
        pre = self.roots_in(base)
        # is the point ever in the open square?  (cheap: before the triple points)
        cells = list(zip([(self.lo_b, None)] + pre, pre + [(self.hi_b, None)], self.samples(pre)))
        if not any(self.points(pt, t, others=None) for _, _, t in cells):
            return
        if kind == "cross":
            self.counts["crossings_in_square"] += 1
        # a B_k identically 0 at an edge point (its curve meets the edge there for every theta)
        # has no root to add: the samples see its zero exactly, and Banker may mix there too
        roots = self.roots_in(base + [f for f in (pt.eliminant(self.Bt[k]) for k in others) if f != 0])
        sig_cells: list[tuple] = []
        for a, b, t in zip([(self.lo_b, None)] + roots, roots + [(self.hi_b, None)], self.samples(roots)):
            pts = self.points(pt, t, others)
            coords = {br: (u, v) for br, u, v in self._coords(pt, _q(t))}
            keys = {(D, Z, bool(Z) or self.singular(kind, own, pt, *coords[br])) for br, D, Z in pts}
            for D, Z, _ in keys:
                self.note(kind, own, D, Z, pt)
            polys = [pt.eliminant(_b1(c)) for D, Z, full in keys
                     for c in self.conditions(kind, own, D, Z, pt, extra, full)]
            sub = self.roots_in([f for f in polys if f != 0], a[0], b[0]) if polys else []
            for c, d, s in zip([a] + sub, sub + [b], self.samples(sub, a[0], b[0])):
                sig_cells.append((c, d, self.feasible(kind, own, pt, s, others, extra)))
        self.counts["samples"] += len(sig_cells)
        ends = [left[1] for left, right in zip(sig_cells, sig_cells[1:]) if left[2] != right[2]]
        if ends:  # labels are not unique (along-curve forms name the size of D only): add, never replace
            self.forms.setdefault(label, []).extend(Endpoint(ball, g) for ball, g in ends)

    def points(self, pt: _Point, t: Fraction, others: list[int] | None) -> list[tuple]:
        """The form's points in the open square at theta = t, each as (branch, D, Z): D the
        relevant sets where Banker draws, Z those (besides the form's own) whose B_k is exactly 0
        there (None, None when ``others`` is None: only whether it is in the square).  Every sign is
        exact (:class:`_QF`).  t lies strictly between the roots of every B_k's eliminant, so
        B_k = 0 at t means B_k vanishes on the whole branch (a factor shared with the point's
        equations): Banker is indifferent at k too, and may mix there (see :meth:`lp`)."""
        tq = _q(t)
        out: list[tuple] = []
        for branch, p1, p2 in self._coords(pt, tq):
            # an edge point lies on its edge by construction: only its free coordinate must be
            # strictly inside (testing both dropped every edge point, and the along-curve forms
            # whose segments start at an edge)
            free = (p1, p2) if pt.edge is None else ((p2,) if pt.edge[0] == 1 else (p1,))
            if min(_sign0(v) for x in free for v in (x, 1 - x)) <= 0:
                continue          # outside, or on an edge (then for all theta near t)
            if others is None:
                out.append((branch, None, None))
                continue
            sb = [_sign0(_bil_val([c(tq) for c in self.Bt[k]], p1, p2)) for k in others]
            Z = frozenset(k for k, v in zip(others, sb) if v == 0)
            if Z:
                self.degenerate.add(f"theta near {float(t):.7f}: B at {sorted(Z)} vanishes on a point of "
                                    f"{self.current} for every theta")
            out.append((branch, frozenset(k for k, v in zip(others, sb) if v < 0), Z))
        return out

    def _coords(self, pt: _Point, tq) -> list[tuple]:
        """The point's coordinates at the rational theta tq, exactly (rationals, or in Q(sqrt d))."""
        P = [c(tq) for c in pt.P]
        if pt.edge is not None:
            w, e = pt.edge
            if w == 1:
                u, v = P[0] + P[1] * e, P[2] + P[3] * e
                return [] if v == 0 else [(0, flint.fmpq(e), -u / v)]
            u, v = P[0] + P[2] * e, P[1] + P[3] * e
            return [] if v == 0 else [(0, -u / v, flint.fmpq(e))]
        k0, k1, k2 = (c(tq) for c in pt.K)
        p1s: list[tuple]
        if k2 == 0:
            p1s = [(0, -k0 / k1)] if k1 != 0 else []
        else:
            disc = k1 * k1 - 4 * k2 * k0
            if disc < 0:
                return []
            n, d = int(disc.p), int(disc.q)
            r: object
            if isqrt(n) ** 2 == n and isqrt(d) ** 2 == d:      # rational roots
                r = flint.fmpq(isqrt(n), isqrt(d))
            else:
                r = _QF(0, 1, disc)
            p1s = [(-1, (-k1 - r) / (2 * k2)), (1, (-k1 + r) / (2 * k2))]
        out = []
        for branch, p1 in p1s:
            den = P[2] + P[3] * p1
            if _sign0(den) == 0:
                continue          # p2 at infinity: not a point of the square
            out.append((branch, p1, -(P[0] + P[1] * p1) / den))
        return out

    def conditions(self, kind: str, own: tuple[int, ...], D: frozenset, Z: frozenset, pt: _Point,
                   extra: frozenset | None, full: bool) -> list[tuple]:
        """The bilinears (integer coefficients) whose signs decide the form's feasibility with
        Banker drawing at D (Banker's mixing probabilities and the pure Player's preference); with
        Z (Banker indifferent at more sets) or a singular system, every condition of :meth:`lp`."""
        a1, a2 = self.a12(D)
        lst: list[tuple]
        if kind == "cross":
            lst = list(self._cramer(own, a1, a2))
        else:
            z = own[0]
            e1, e2 = self.e1[z], self.e2[z]
            if kind == "edge":
                assert pt.edge is not None
                pref = _sub(_mul_lin(a1, e2), _mul_lin(e1, a2))
                lst = ([_l1(e2), _l1(a2), _l1(_add(a2, e2)), pref] if pt.edge[0] == 1
                       else [_l2(e1), _l2(a1), _l2(_add(a1, e1)), pref])
            else:
                assert extra is not None
                a1, a2 = self.a12(extra)
                lst = [_l2(e1), _l2(a1), _l2(_add(a1, e1)), _l1(e2), _l1(a2), _l1(_add(a2, e2))]
        if full:     # a singular system on the whole branch, or more indifferent sets: the general test
            lst += [c for cand in self._vertices(kind, own, D, Z, pt) for _, f, g, _ in cand for c in (f, g)]
        return list(dict.fromkeys(tuple(int(v) for v in c) for c in lst if any(c)))

    def _cramer(self, own, a1, a2):
        i, j = own
        den = _sub(_mul_lin(self.e1[i], self.e2[j]), _mul_lin(self.e1[j], self.e2[i]))
        ni = _sub(_mul_lin(self.e1[j], a2), _mul_lin(a1, self.e2[j]))
        nj = _sub(_mul_lin(a1, self.e2[i]), _mul_lin(self.e1[i], a2))
        return den, ni, nj, _sub(den, ni), _sub(den, nj)

    def _vertices(self, kind: str, own: tuple[int, ...], D: frozenset, Z: frozenset, pt: _Point) -> list[list]:
        """Banker's mixing x on S = own + Z with the Players' conditions: x in [0, 1]^S, a mixing
        Player's gain a_w + sum x_s e_w^s = 0, a pure Player's of the right sign.  A nonempty
        polytope has a vertex: |S| independent tight constraints, some rows T (at most one per
        Player) solved for as many free coordinates, the others at 0 or 1.  Each candidate vertex
        is a list of checks (kind, f, g, rel): f, g bilinears, sign(f) sign(g) compared with 0 by
        rel; kind 'den' marks the candidate's determinant g = f (it must not vanish)."""
        S = sorted(set(own) | set(Z))
        a1, a2 = self.a12(D)
        rows = [(1, a1, {s: self.e1[s] for s in S}, "=="), (2, a2, {s: self.e2[s] for s in S}, "==")]
        if kind == "edge":
            assert pt.edge is not None
            w, e = pt.edge
            rows[w - 1] = (w, rows[w - 1][1], rows[w - 1][2], "<=" if e == 0 else ">=")

        def bil(w, c):
            return _l2(c) if w == 1 else _l1(c)

        def times(r, c, r2, c2):      # product of a Player-1 linear form and a Player-2 one
            return _mul_lin(c, c2) if r == 1 else _mul_lin(c2, c)

        one = (1, 0, 0, 0)
        out: list[list] = []
        for m in (0, 1, 2):
            for free in combinations(S, m):
                rest = [s for s in S if s not in free]
                for vals in product((0, 1), repeat=len(rest)):
                    fixed = dict(zip(rest, vals))
                    rhs = {w: _sub((0, 0), _add(a, _lsum(c, fixed))) for w, a, c, _ in rows}   # -(a + sum v e)
                    if m == 0:
                        out.append([("chk", bil(w, _sub((0, 0), rhs[w])), one, rel) for w, _, _, rel in rows])
                    elif m == 1:
                        (s,) = free
                        for w, _, c, _ in rows:
                            A, r = c[s], rhs[w]
                            cand = [("den", bil(w, A), bil(w, A), "!="), ("chk", bil(w, r), bil(w, A), ">="),
                                    ("chk", bil(w, _sub(A, r)), bil(w, A), ">=")]
                            for w2, _, c2, rel2 in rows:
                                if w2 != w:      # the other row's value, times A
                                    res = _sub(times(w, A, w2, _sub((0, 0), rhs[w2])), _sub((0, 0, 0, 0), times(w, r, w2, c2[s])))
                                    cand.append(("chk", res, bil(w, A), rel2))
                            out.append(cand)
                    else:
                        s1, s2 = free
                        e1, e2 = rows[0][2], rows[1][2]
                        r1, r2 = rhs[1], rhs[2]
                        den = _sub(_mul_lin(e1[s1], e2[s2]), _mul_lin(e1[s2], e2[s1]))
                        n1 = _sub(_mul_lin(r1, e2[s2]), _mul_lin(e1[s2], r2))
                        n2 = _sub(_mul_lin(e1[s1], r2), _mul_lin(r1, e2[s1]))
                        out.append([("den", den, den, "!="), ("chk", n1, den, ">="), ("chk", _sub(den, n1), den, ">="),
                                    ("chk", n2, den, ">="), ("chk", _sub(den, n2), den, ">=")])
        return out

    def lp(self, kind: str, own: tuple[int, ...], D: frozenset, Z: frozenset, pt: _Point, p1, p2) -> bool:
        """Is there a mixing x for Banker at own + Z making the point an equilibrium (exactly)?"""
        for cand in self._vertices(kind, own, D, Z, pt):
            ok = True
            for what, f, g, rel in cand:
                sf, sg = _sign0(_bil_val(f, p1, p2)), _sign0(_bil_val(g, p1, p2))
                if what == "den":
                    ok = sf != 0
                else:
                    v = sf * sg
                    ok = v == 0 if rel == "==" else (v >= 0 if rel == ">=" else v <= 0)
                if not ok:
                    break
            if ok:
                return True
        return False

    def singular(self, kind: str, own: tuple[int, ...], pt: _Point, p1, p2) -> bool:
        """Is the form's system for Banker's mixing singular at the point (then on the whole branch,
        the sample lying between the roots of its determinant's eliminant)?"""
        if kind == "cross":
            i, j = own
            return _sign0(_bil_val(_sub(_mul_lin(self.e1[i], self.e2[j]), _mul_lin(self.e1[j], self.e2[i])),
                                   p1, p2)) == 0
        z = own[0]
        u1, u2 = _sign0(_lin(self.e1[z], p2)), _sign0(_lin(self.e2[z], p1))
        if kind == "edge":
            assert pt.edge is not None
            return (u2 if pt.edge[0] == 1 else u1) == 0
        return u1 == 0 and u2 == 0

    def feasible(self, kind: str, own: tuple[int, ...], pt: _Point, t: Fraction, others: list[int],
                 extra: frozenset | None) -> tuple:
        """The form's equilibria at the rational t, exactly: a sorted tuple of (branch, D)."""
        tq = _q(t)
        out = []
        coords = {b: (u, v) for b, u, v in self._coords(pt, tq)}
        for branch, D, Z in self.points(pt, t, others):
            if kind == "along" and D != extra:
                continue
            p1, p2 = coords[branch]
            ok = self._feasible_at(kind, own, pt, D, Z, extra, p1, p2)
            if ok:
                out.append((branch, D))
        return tuple(sorted(out, key=lambda u: (u[0], sorted(u[1]))))

    def _feasible_at(self, kind, own, pt, D, Z, extra, p1, p2) -> bool:
        a1, a2 = self.a12(D)
        if Z:
            return self.lp(kind, own, D, Z, pt, p1, p2)
        if kind == "cross":
            den, ni, nj, ri, rj = (_bil_val(c, p1, p2) for c in self._cramer(own, a1, a2))
            s = _sign0(den)
            if s == 0:       # Banker's two probabilities not determined by the Players
                return self.lp(kind, own, D, Z, pt, p1, p2)
            return all(_sign0(v) * s >= 0 for v in (ni, nj, ri, rj))
        z = own[0]
        e1, e2 = self.e1[z], self.e2[z]
        if kind == "edge":
            w, e = pt.edge
            if w == 1:   # Player 2 mixes: x = -a2 / e2; Player 1 keeps p1 = e
                eo, ao = _lin(e2, p1), _lin(a2, p1)
                g = _lin(a1, p2) * eo - ao * _lin(e1, p2)
            else:
                eo, ao = _lin(e1, p2), _lin(a1, p2)
                g = _lin(a2, p1) * eo - ao * _lin(e2, p1)
            s = _sign0(eo)
            if s == 0:
                return self.lp(kind, own, D, Z, pt, p1, p2)
            x_ok = _sign0(-ao) * s >= 0 and _sign0(eo + ao) * s >= 0
            pref = _sign0(g) * s      # the pure Player's gain from drawing, in sign
            return x_ok and (pref <= 0 if e == 0 else pref >= 0)
        a1, a2 = self.a12(extra)
        u, v = _lin(e1, p2), _lin(a1, p2)
        if _sign0(u) == 0:
            u, v = _lin(e2, p1), _lin(a2, p1)
        s = _sign0(u)
        if s == 0:
            return self.lp(kind, own, D, Z, pt, p1, p2)
        return _sign0(-v) * s >= 0 and _sign0(u + v) * s >= 0

    def note(self, kind: str, own: tuple[int, ...], D: frozenset, Z: frozenset, pt: _Point) -> None:
        """Record the along-curve forms next to this point (module docstring): on each curve s
        through it (own, and Z where Banker is indifferent too), Banker draws at D and at any of
        the other curves' sets."""
        S = sorted(set(own) | set(Z))
        for s in S:
            rest = [k for k in S if k != s]
            for m in range(len(rest) + 1):
                for U in combinations(rest, m):
                    self.along.add((s, D | frozenset(U)))
        if kind == "edge":
            assert pt.edge is not None
            w, e = pt.edge
            for m in range(len(S) + 1):
                for U in combinations(S, m):   # Banker pure on the edge: the other Player's gain is constant there
                    a1, a2 = self.a12(D | frozenset(U))
                    if (_lin(a2, e) if w == 1 else _lin(a1, e)) == 0:
                        self.continua.append(f"Player {3 - w} indifferent along the edge p{w} = {e}")


class _QF:
    """a + b sqrt(d) with a, b, d rational and d not a square: a point's coordinate at a rational
    theta is in such a field, so every sign at a sample is decided exactly.

    The field of :class:`baccara.algebraic.QuadraticNumber`, on python-flint's rationals as the
    rest of this proof is: on Fractions the proof's samples cost half as much again."""

    __slots__ = ("a", "b", "d")

    def __init__(self, a, b, d) -> None:
        self.a, self.b, self.d = flint.fmpq(a), flint.fmpq(b), d

    def _parts(self, o):
        return (o.a, o.b) if isinstance(o, _QF) else (flint.fmpq(o), flint.fmpq(0))

    def __add__(self, o):
        a, b = self._parts(o)
        return _QF(self.a + a, self.b + b, self.d)

    __radd__ = __add__

    def __neg__(self):
        return _QF(-self.a, -self.b, self.d)

    def __sub__(self, o):
        a, b = self._parts(o)
        return _QF(self.a - a, self.b - b, self.d)

    def __rsub__(self, o):
        return (-self) + o

    def __mul__(self, o):
        a, b = self._parts(o)
        return _QF(self.a * a + self.b * b * self.d, self.a * b + self.b * a, self.d)

    __rmul__ = __mul__

    def __truediv__(self, o):
        a, b = self._parts(o)
        n = a * a - b * b * self.d
        if n == 0:
            raise ZeroDivisionError("division by zero in Q(sqrt d)")
        return self * _QF(a / n, -b / n, self.d)

    def __rtruediv__(self, o):
        return _QF(o, 0, self.d) / self

    def sign(self) -> int:
        sa, sb = _sgn(self.a), _sgn(self.b)
        if sb == 0 or sa == sb:
            return sa or sb
        if sa == 0:
            return sb
        # opposite signs: compare a^2 with b^2 d (never equal: d is not a square)
        return sa if self.a * self.a > self.b * self.b * self.d else sb


def _sgn(v) -> int:
    return int(v > 0) - int(v < 0)


def _sign0(v) -> int:
    """The exact sign of a rational or of an element of Q(sqrt d)."""
    return v.sign() if isinstance(v, _QF) else _sgn(v)


def _lsum(c: dict, fixed: dict) -> tuple:
    """sum over the fixed coordinates of v_s c_s (linear forms (c0, c1))."""
    out = (0, 0)
    for s, v in fixed.items():
        if v:
            out = _add(out, c[s])
    return out


def _add(a, b):
    return (a[0] + b[0], a[1] + b[1])


def _sub(a, b):
    return tuple(x - y for x, y in zip(a, b))


def _l1(c):
    """c0 + c1 p1 as a bilinear."""
    return (c[0], c[1], 0, 0)


def _l2(c):
    """c0 + c1 p2 as a bilinear."""
    return (c[0], 0, c[1], 0)


def _b1(c):
    return tuple(flint.fmpz_poly([int(v)]) if v else ZP for v in c)


#: Each family of candidates is cut into this many chunks per worker (counting at least two), in
#: order: enough to even out their unequal costs, few enough that sending the game with each is cheap.
CHUNKS_PER_WORKER = 16


def _crossing(an: _Analyser, i: int, j: int) -> None:
    an.counts["crossings"] += 1
    P, Q = _orient(an.Bt[i], an.Bt[j])
    an.analyse(f"crossing {infoset_label(an.game.infosets[i])} x {infoset_label(an.game.infosets[j])}",
               _Point(P, Q), (i, j), "cross")


def _edge(an: _Analyser, z: int, w: int, e: int) -> None:
    an.counts["curve_edge_points"] += 1
    an.analyse(f"{infoset_label(an.game.infosets[z])} meets p{w} = {e}", _Point(an.Bt[z], edge=(w, e)), (z,), "edge")


def _along(an: _Analyser, z: int, D: frozenset) -> None:
    an.counts["along_curve_forms"] += 1
    a1, a2 = an.a12(D)
    G = _b1(_sub(_mul_lin(a1, an.e2[z]), _mul_lin(an.e1[z], a2)))
    if all(c == 0 for c in G):
        an.continua.append(f"along {infoset_label(an.game.infosets[z])}: both Players indifferent at once")
        return
    P, Q = _orient(G, an.Bt[z])
    an.analyse(f"along {infoset_label(an.game.infosets[z])}, Banker drawing at {len(D)} relevant sets",
               _Point(P, Q), (z,), "along", D)


_FAMILIES: dict[str, Callable[..., None]] = {"crossing": _crossing, "edge": _edge, "along": _along}


#: A worker's analyser of the range it was last given (:func:`_chunk`).
_KEPT: dict[tuple, _Analyser] = {}


def _chunk(args: tuple) -> dict:
    """Analyse some candidates of one family (a worker's share) with nothing found yet, and hand back
    what it found as plain data (an :class:`Endpoint` pickles as integers, exactly)."""
    game, lo, hi, prec, family, items = args
    game = local_game(game)
    key = (game.shoe, game.denominator, lo, hi, prec)
    an = _KEPT.get(key)
    if an is None:          # built once per worker and range (it costs a tenth of a second)
        _KEPT.clear()
        with precision(prec):
            an = _KEPT[key] = _Analyser(game, lo, hi)
    an.reset()
    with precision():
        for item in items:
            _FAMILIES[family](an, *item)
    return {"forms": an.forms, "continua": an.continua, "coincident": an.coincident,
            "degenerate": an.degenerate, "along": an.along, "counts": an.counts}


def _merge(an: _Analyser, found: dict) -> None:
    """Add a chunk's findings to ``an`` as if ``an`` had analysed its candidates itself, in order
    (a form's label keeps its first place, and gathers every form's events under it, as in one process)."""
    for label, ends in found["forms"].items():
        an.forms.setdefault(label, []).extend(ends)
    an.continua += found["continua"]
    an.coincident += found["coincident"]
    an.degenerate |= found["degenerate"]
    an.along |= found["along"]
    for k, v in found["counts"].items():
        if k != "relevant_sets":
            an.counts[k] += v


def _share(an: _Analyser, family: str, items: list, pool: Executor | None, chunks: int,
           progress: Callable[[int, int], None] | None, done: int, total: int) -> int:
    """Analyse every candidate of one family: here, or in ``chunks`` consecutive chunks on ``pool``,
    merged in order (so the result is the same).  Returns the candidates done so far."""
    if pool is None:
        for n, item in enumerate(items):
            _FAMILIES[family](an, *item)
            if progress and (done + n) % 200 == 0:
                progress(done + n, total)
        return done + len(items)
    k = max(1, min(len(items), chunks))
    cuts = [len(items) * c // k for c in range(k + 1)]
    jobs = [(an.game, an.lo, an.hi, an.prec, family, items[a:b]) for a, b in zip(cuts, cuts[1:])]
    for b, found in zip(cuts[1:], pool.map(_chunk, jobs)):
        _merge(an, found)
        if progress:
            progress(done + b, total)
    return done + len(items)


def nash_proof(lo: Fraction = Fraction(0), hi: Fraction | None = None, game: BanqueGame | None = None,
               progress: Callable[[int, int], None] | None = None, pool: Executor | None = None,
               chunks: int = 2 * CHUNKS_PER_WORKER) -> NashProof:
    """Every event of every form over (lo, hi) (module docstring).

    Parameters
    ----------
    lo, hi : Fraction
        The range (default: (0, 5772/33847), below which the Players' strategies move).
    game : BanqueGame, optional
        The game (default: the paper's infinite shoe).
    progress : callable, optional
        Called as ``progress(done, total)`` over the forms.
    pool : concurrent.futures.Executor, optional
        Where to analyse the candidates (:func:`baccara.processes.executor`: processes here or a
        Dask cluster); None: this process.  The result is the same.
    chunks : int
        With a pool: how many chunks each family of candidates is cut into.

    Returns
    -------
    NashProof
        The events, each an exact algebraic number, and what was analysed.
    """
    start = time.perf_counter()
    lo, hi = Fraction(lo), Fraction(THETA_9_11 if hi is None else hi)
    an = _Analyser(game or banque_game(), lo, hi)
    R = an.R
    with precision():
        pairs = [(i, j) for x, i in enumerate(R) for j in R[x + 1:]]
        edges = [(z, w, e) for z in R for w in (1, 2) for e in (0, 1)]
        total = len(pairs) + len(edges)
        done = _share(an, "crossing", pairs, pool, chunks, progress, 0, total)
        _share(an, "edge", edges, pool, chunks, progress, done, total)
        along = sorted(an.along, key=lambda u: (u[0], sorted(u[1])))
        _share(an, "along", along, pool, chunks, None, 0, len(along))
        corner_events = _corners(an)
    events: list[Endpoint] = []
    for ev in sorted([x for v in an.forms.values() for x in v] + corner_events, key=lambda x: float(x.ball.mid())):
        if not events or not events[-1].same(ev):
            events.append(ev)
    return NashProof(lo, hi, R, events, an.forms, an.continua, sorted(an.degenerate), an.coincident, an.counts,
                     time.perf_counter() - start)


def _orient(a, b):
    """(P, Q): parametrise by a curve whose p2-coefficients are not both zero."""
    return (a, b) if not (a[2] == 0 and a[3] == 0) else (b, a)


def _corners(an: _Analyser) -> list[Endpoint]:
    """A corner's equilibrium status changes only where Banker's move at a relevant set changes
    there: B_k at the corner is linear in theta."""
    out = []
    for p1 in (0, 1):
        for p2 in (0, 1):
            roots = an.roots_in([_bil_val(an.Bt[k], p1, p2) for k in an.R])
            cells = []
            for t in an.samples(roots):
                D = frozenset(k for k in an.R if _bil_val([c(_q(t)) for c in an.Bt[k]], p1, p2) < 0)
                a1, a2 = an.a12(D)
                d1, d2 = _lin(a1, p2), _lin(a2, p1)
                ok = (d1 <= 0 if p1 == 0 else d1 >= 0) and (d2 <= 0 if p2 == 0 else d2 >= 0)
                cells.append((D, ok))
            for k, (u, v) in enumerate(zip(cells, cells[1:])):
                if u[1] or v[1]:
                    if u != v:
                        out.append(Endpoint(*roots[k]))
            if any(ok for _, ok in cells):
                an.forms[f"corner ({p1}, {p2})"] = []
    return out


def events_json(proof: NashProof) -> dict:
    """The proof's events as data: each an irreducible integer polynomial (coefficients
    ascending) and a rational interval isolating the root (the polynomial changes sign on it and
    has no other real root there).

    Parameters
    ----------
    proof : NashProof
        The result of :func:`nash_proof`.

    Returns
    -------
    dict
        ``range`` (lo, hi as fractions), ``events`` (list of {"polynomial", "interval", "float"}),
        ``forms`` (label -> the events' floats) and what was analysed.
    """
    out = []
    for e in proof.events:
        f = e.minimal_polynomial
        a, b = exact_bounds(e.ball)
        out.append({"polynomial": [int(c) for c in f.coeffs()], "interval": [str(a), str(b)],
                    "float": float(e)})
    return {"range": [str(proof.lo), str(proof.hi)], "events": out,
            "forms": {k: [float(e) for e in v] for k, v in sorted(proof.forms.items())},
            "relevant_sets": len(proof.relevant), "counts": proof.counts,
            "degenerate_points": len(proof.degenerate), "coincident_curves": proof.coincident,
            "continua": proof.continua}


def write_events(path: str | None = None, upper: bool = False) -> dict:
    """Run :func:`nash_proof` over (0, 5772/33847) (or, with ``upper``, (5772/33847, 1/2)) and
    write its events (:func:`events_json`) to ``path`` (default: the package's :data:`EVENTS_FILE`
    or :data:`UPPER_EVENTS_FILE`).

    Parameters
    ----------
    path : str, optional
        Where to write the JSON.
    upper : bool
        The range above 5772/33847.

    Returns
    -------
    dict
        What was written.
    """
    proof = nash_proof(THETA_9_11, Fraction(1, 2)) if upper else nash_proof()
    if proof.continua:
        raise ArithmeticError(f"continua of equilibria met: {proof.continua}")
    with precision():
        doc = events_json(proof)
    Path(path or Path(__file__).with_name(UPPER_EVENTS_FILE if upper else EVENTS_FILE)).write_text(json.dumps(doc, indent=1) + "\n")
    return doc


if __name__ == "__main__":      # python -m baccara.banque.nash_eq.proof [upper]: refresh the stored events
    import sys

    write_events(upper="upper" in sys.argv[1:])
