"""The independent cooperative lower value proved for every theta of a sweep interval (Ethier and Lee 2015, section 4).

:func:`~baccara.banque.independent_eq.proof.prove_lower_value` proves the lower
value at one rational theta.  :func:`prove_interval` proves it for *every* theta of
an interval (a, b) of the theta-sweep on which the maximiser keeps one form F (the
curves through it, the edges it lies on, Banker's best response there): the lower
value there is v_F(theta) = V_theta(p_F(theta)), with p_F(theta) the moving point
that F's two equations fix (an algebraic function of theta, exact in Q(sqrt D) at
every rational theta) and V_theta(p) = A + sum_i min(0, B_i).

The argument
------------
*At least.*  p_F is a real point of the square, and V there has F's draw set, for
every theta in (a, b): each condition (Banker's sign at every set whose sign on
the square can change, p in [0, 1]^2, the branch staying real) is eliminated at
p_F to an integer polynomial in theta; its sign is taken exactly at a rational
inside each piece of (a, b) between that polynomial's roots, and is the same on
all of them.

*At most.*  For each theta the maximum of V over the square lies among finitely
many candidates (:mod:`baccara.banque.independent_eq.solution`): the corners, the points
where a curve meets an edge, the crossings of two curves, and the critical points
of W_D = A + sum_{i in D} B_i along a curve z, for D the draw set where the point
lies.  On a theta-box only the candidates that can lie where V may reach v_F are
needed: a quadtree of the square keeps the cells where the ball bound of
V = A + sum min(0, B_k) reaches v_F's lower bound (*live* cells), splitting each
until few curves pass through it.  A candidate in a live cell is a corner, an edge
point of a curve through it, a crossing of two curves through it, or a critical
point along a curve z through it whose draw set is the cell's (every curve not
through the cell has one sign on it) plus some of the other curves through it.
These are enumerated in interval arithmetic (arb balls): every crossing and edge
point whose ball meets the square, every such draw set, both roots of every
quadratic.  Extra candidates do no harm: each is only required to satisfy
V <= v_F, true of every point.  A candidate is disposed of on a theta-box when its
ball leaves the square, it is not real, or the ball of V there lies below that of
v_F; otherwise the box is halved.  Near a theta where a candidate ties v_F (the
interval's ends: the maximiser jumps or changes form there; or a candidate that
*is* p_F, as where three curves pass through it) halving never ends, so after a
few halvings the candidate is decided in exact arithmetic, once for the whole
interval: the theta where it enters or leaves the square or turns complex, and
where W_S(c) = v_F with S its draw set at a sample (value_crossings: a
resultant), split the interval into pieces on each of which W_S(c) - v_F has one
sign, decided at a rational sample (V <= W_S for any S, so W_S(c) < v_F
suffices).  Where the difference is identically 0 the candidate must lie on F's
curves for every theta and equal p_F at the sample: it is p_F.

This proves V_theta(p) <= v_F(theta) for every theta in (a, b) but finitely many
(the pieces' ends); the lower value and v_F are continuous in theta (V is jointly
continuous, the square compact), so it holds at those too.  Every sign is
certified: arb balls, or exact rationals and numbers of Q(sqrt D) at samples.

Status
------
Over the whole sweep (:func:`prove_intervals`, two processes, 60 s an interval): 128 of the
131 intervals proved, 3 to 45 s each, 1,758 CPU-s in all (13.7 s an interval on average);
with a longer limit the two that reached 60 s, (0.0629881, 0.0799072) and (0.4515301,
0.4945440), are proved too (67 s and 55 s).  The first, (0, 0.0172597...), cannot be proved
this way: at theta = 0 V does not depend on p1, so no theta-box touching 0 closes; it is
proved by a blow-up of the square around p2 = 9/11
(:mod:`~baccara.banque.independent_eq.near_zero`, 14 s), which :func:`prove_intervals`
uses for a sweep's first interval.  So the lower value is V at the interval form's moving
point for every theta in (0, 1/2).  Measured end to end (``baccara banque sweep --concept
independent --prove-intervals 120``, one process, on a machine shared with a test run): all
131 intervals proved, 2,451 s of proofs (the longest 77 s), 45 min wall with the sweep.
Carried past the jump at 0.1124969..., a form is refuted (a theta just past it and the point
that beats it).  Against one sample's exact proof (``benchmarks/bench_banque_interval.py``) a
whole interval costs 1.3x to 9x as much, the first (blown up) about 14x.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

import flint

from ...algebraic import QuadraticNumber, quadratic_roots
from ...errors import BaccaraError, ParameterError
from ...solve.moving import ONE, P1, P2, W_INDEX, MovingPoint, W, in_theta, resultant, terms
from ...solve.roots import Endpoint, arb_of, exact_bounds, precision, rational_between_balls, real_roots, refine
from ...solve.signs import sign
from ..model import BanqueGame, banque_game, infoset_label
from .proof import _signs, exact_signature
from .solution import independent_equilibrium
from .sweep import independent_locus

#: Working precision of the interval arithmetic, bits.
BITS = 128
#: Halvings of a theta-box for one candidate before it is decided exactly.
MAX_HALVINGS = 4
#: Halvings of a theta-box before the candidates on it must be enumerated.
MAX_ENUMERATION_HALVINGS = 24
#: The square's quadtree: cells of side 2^-MIN_CELL_DEPTH at least, a live cell split while more
#: than MAX_FREE curves pass through it, down to side 2^-MAX_CELL_DEPTH (then the theta-box is halved).
MIN_CELL_DEPTH = 3
MAX_FREE = 6
MAX_CELL_DEPTH = 10
#: Halvings of a theta-box after which a candidate the balls cannot place is left to exact arithmetic.
DEEP_ENUMERATION = 12

_POS = flint.arb(0).union(flint.arb(1))       # [0, 1]

Poly = flint.fmpz_poly
TP = Poly([0, 1])


class _Wide(Exception):
    """The theta-box is too wide for this ball computation: halve it."""


class _TimeUp(Exception):
    """The interval's time limit is spent."""


class _Refuted(Exception):
    def __init__(self, theta: Fraction, point: tuple) -> None:
        super().__init__(f"at theta = {theta} the point {tuple(map(str, point))} beats the claimed value")
        self.theta, self.point = theta, point


@dataclass(frozen=True)
class IntervalProof:
    """The outcome of :func:`prove_interval` on one interval (``lo``, ``hi``).

    ``status``: "proved" (for every theta in the interval the lower value is V at the
    moving point of the form, ``form``), "refuted" (``reason`` names a theta and a point
    that beats it) or "inconclusive" (``reason``).  ``candidates``: (candidate, theta-box)
    pairs disposed of in interval arithmetic; ``exact``: candidates decided in exact
    arithmetic near a tie; ``form_events``: roots of the form's own conditions in the
    interval (none may change a sign); ``seconds``: wall time."""

    lo: Endpoint
    hi: Endpoint
    form: str
    status: str
    candidates: int = 0
    exact: int = 0
    form_events: int = 0
    reason: str = ""
    seconds: float = 0.0

    @property
    def holds(self) -> bool:
        """Whether the lower value is proved for every theta of the interval."""
        return self.status == "proved"

    def to_json(self) -> dict:
        """The interval's exact ends, the form, the status and the counts."""
        return {"from": self.lo.to_json(), "to": self.hi.to_json(), "form": self.form, "status": self.status,
                "candidates_by_intervals": self.candidates, "candidates_decided_exactly": self.exact,
                "roots_of_the_form_conditions": self.form_events, "reason": self.reason,
                "seconds": round(self.seconds, 3)}


# ---------------------------------------------------------------- the game over theta
class _Game:
    """Each B_k and A as four integer polynomials in theta (the bilinear coefficients)."""

    def __init__(self, game) -> None:
        r10, r20, r1, r2 = game.bilinears
        self.B = [tuple(Poly([int(b), int(a) - int(b)]) for a, b in zip(x, y)) for x, y in zip(r1, r2)]
        self.A = tuple(Poly([int(b), int(a) - int(b)]) for a, b in zip(r10, r20))
        self.game, self.polys = game, game.polys
        self.n = len(self.B)
        # B_k = g_k(theta) C_k: the curve is C_k = 0 (B_k vanishes on the whole square where g_k does)
        self.g, self.C = [], []
        for c in self.B:
            g = Poly([0])
            for x in c:
                g = g.gcd(x)
            if g.is_zero():
                g = Poly([1])
            if g.coeffs()[-1] < 0:
                g = -g
            self.g.append(g)
            self.C.append(tuple(x // g for x in c))

    def sign_on_box(self, k: int, lo: Fraction, hi: Fraction) -> int:
        """+1 / -1 when B_k > 0 / < 0 on all of [0, 1]^2 x [lo, hi] (multilinear: the 8
        corners decide), 0 when it may change sign there."""
        c = self.B[k]
        vals = [c[0](t) + c[1](t) * x + c[2](t) * y + c[3](t) * x * y
                for t in (flint.fmpq(lo.numerator, lo.denominator), flint.fmpq(hi.numerator, hi.denominator))
                for x in (0, 1) for y in (0, 1)]
        if all(v > 0 for v in vals):
            return 1
        if all(v < 0 for v in vals):
            return -1
        return 0


def _add(a, b):
    return tuple(x + y for x, y in zip(a, b))


def _at(polys, t):
    return tuple(flint.arb_poly(p)(t) for p in polys)


def _bil(c, x, y):
    return c[0] + c[1] * x + (c[2] + c[3] * x) * y


def _quad_root(k0, k1, k2, sigma: int):
    """The root (-k1 + sigma sqrt(k1^2 - 4 k2 k0)) / (2 k2) as a ball, None when certainly
    not real; k2 = None: the linear root -k0 / k1."""
    if k2 is None:
        if k1.contains(0):
            if not k0.contains(0) and abs(k0).lower() > abs(k1).upper():
                return flint.arb(2)           # |root| > 1: off the square
            raise _Wide
        return -k0 / k1
    disc = k1 * k1 - 4 * k2 * k0
    if disc < 0:
        return None
    if disc.lower() < 0:
        sq = flint.arb(0).union(flint.arb(disc.upper()).sqrt())
    else:
        sq = disc.sqrt()
    if not k2.contains(0):
        return (-k1 + sigma * sq) / (2 * k2)
    den = -k1 - sigma * sq
    if den.contains(0):
        if not k0.contains(0) and abs(2 * k0).lower() > abs(den).upper():
            return flint.arb(2)               # |root| > 1: off the square
        raise _Wide
    return 2 * k0 / den


def _in_square(x, y):
    """The balls clipped to [0, 1], or None when one misses it."""
    if x > 1 or x < 0 or y > 1 or y < 0:
        return None
    return x.intersection(_POS), y.intersection(_POS)


def _on_curve(c, x):
    """p2 on the curve c = 0 at p1 = x; a ball beyond 1 when |p2| > 1 is certain."""
    den, num = c[2] + c[3] * x, -(c[0] + c[1] * x)
    if den.contains(0):
        if not num.contains(0) and abs(num).lower() > abs(den).upper():
            return flint.arb(2)              # |p2| > 1: off the square
        raise _Wide
    return num / den


# ---------------------------------------------------------------- candidates
# descriptors: ("corner", x, y), ("edge", k, w, e), ("cross", i, j, sigma), ("crit", z, D, sigma)
def _cross_k(G: _Game, i: int, j: int):
    ci, cj = G.C[i], G.C[j]
    k2 = ci[1] * cj[3] - cj[1] * ci[3]
    k1 = ci[0] * cj[3] + ci[1] * cj[2] - cj[0] * ci[3] - cj[1] * ci[2]
    k0 = ci[0] * cj[2] - cj[0] * ci[2]
    return k0, k1, k2


def _crit_k(f, c):
    """N(p1) = f1 s^2 - (f3 (c0 + c1 p1) + c1 (f2 + f3 p1)) s + c3 (f2 + f3 p1)(c0 + c1 p1), s = c2 + c3 p1:
    V = f along the curve c = 0 is critical where N = 0 (coefficients of p1^0, p1^1, p1^2)."""
    c0, c1, c2, c3 = c
    f0, f1, f2, f3 = f
    ss = (c2 * c2, 2 * c2 * c3, c3 * c3)
    t = (f3 * c0 + c1 * f2, 2 * f3 * c1)
    ts = (t[0] * c2, t[0] * c3 + t[1] * c2, t[1] * c3)
    ll = (f2 * c0, f2 * c1 + f3 * c0, f3 * c1)
    return tuple(f1 * ss[m] - ts[m] + c3 * ll[m] for m in range(3))


class _Prover:
    def __init__(self, G: _Game, lo: Endpoint, hi: Endpoint, sig: tuple, theta: Fraction, p1) -> None:
        self.G, self.lo, self.hi, self.sig = G, lo, hi, sig
        self.pF, self.vF = independent_locus(sig, theta, float(p1), G.game)
        self.sample = theta
        self.lo_q, self.hi_q = _outer(lo.ball)[0], _outer(hi.ball)[1]
        signs = {k: G.sign_on_box(k, self.lo_q, self.hi_q) for k in range(G.n)}
        self.rel = [k for k in range(G.n) if signs[k] == 0 and any(not c.is_zero() for c in G.B[k])]
        fixed = G.A
        for k in range(G.n):
            if signs[k] < 0:
                fixed = _add(fixed, G.B[k])
        self.fixed = fixed
        draws = sig[1]
        wf = G.A
        for k in draws:
            wf = _add(wf, G.B[k])
        self.wF = wf                                      # V at p_F: A + the sets where Banker draws there
        self.kF = tuple(Poly(in_theta(c)) for c in self.pF.k_coeffs())
        split = self.pF._split()[1]
        coef: dict[tuple, dict[int, int]] = {}
        for m, c in terms(split):
            coef.setdefault(m[:2], {})[m[3]] = c
        self.p2F = tuple(Poly([coef.get(key, {}).get(e, 0) for e in range(1 + max(coef.get(key, {0: 0})))])
                         for key in ((0, 0), (1, 0), (0, 1), (1, 1)))
        self.counts = {"boxes": 0, "exact": 0}
        self.fixed_draws = [k for k in range(G.n) if signs[k] < 0]
        self.kcache: dict = {}
        self.on_pF: dict = {}
        self.deadline: float | None = None
        self.decided: set = set()           # candidates decided exactly on the whole interval

    def tick(self) -> None:
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise _TimeUp

    # ------------------------------------------------------------ p_F and v_F on a box
    def vF_lower(self, t):
        k0, k1, k2 = _at(self.kF, t)
        if self.kF[2].is_zero():
            x = _quad_root(k0, k1, None, 0)
        else:
            x = _quad_root(k0, k1, k2, self.pF.branch)
        if x is None:
            raise _Wide
        u0, u1, v0, v1 = _at(self.p2F, t)
        den = v0 + v1 * x
        if den.contains(0):
            raise _Wide
        y = -(u0 + u1 * x) / den
        sq = _in_square(x, y)
        if sq is None:
            raise _Wide
        return _bil(_at(self.wF, t), *sq).lower()

    # ------------------------------------------------------------ a candidate on a box
    def point(self, desc, t, B):
        """The candidate's point as balls over the theta-box t, or None (not real)."""
        kind = desc[0]
        if kind == "corner":
            return flint.arb(desc[1]), flint.arb(desc[2])
        if kind == "edge":
            _, k, w, e = desc
            c, cp = B[k], self.G.C[k]
            if (cp[2] + e * cp[3] if w == 1 else cp[1] + e * cp[3]).is_zero():
                return None                      # B_k does not vary along this edge: no isolated point
            if w == 1:
                return flint.arb(e), _on_curve(c, flint.arb(e))
            den = c[1] + c[3] * e
            if den.contains(0):
                raise _Wide
            return -(c[0] + c[2] * e) / den, flint.arb(e)
        if kind == "cross":
            _, i, j, sigma = desc
            key = ("cross", i, j)
            if key not in self.kcache:
                self.kcache[key] = _cross_k(self.G, i, j)
            k0, k1, k2 = self.kcache[key]
            if k2.is_zero() and k1.is_zero():
                return None                      # parallel lines (or one line twice): no isolated point
            a0, a1 = _at((k0, k1), t)
            x = _quad_root(a0, a1, None if k2.is_zero() else flint.arb_poly(k2)(t), sigma)
            if x is None:
                return None
            if x > 1 or x < 0:
                return x, flint.arb(0)
            for c in (B[i], B[j]):
                if not (c[2] + c[3] * x).contains(0):
                    return x, _on_curve(c, x)
            for c in (B[i], B[j]):
                if not (c[2] + c[3] * x).is_zero():
                    return x, _on_curve(c, x)
            raise _Wide
        _, z, D, sigma = desc
        key = ("crit", z, D)
        if key not in self.kcache:
            f = self.fixed
            for k in D:
                f = _add(f, self.G.B[k])
            self.kcache[key] = _crit_k(f, self.G.C[z])
        n0, n1, n2 = self.kcache[key]
        if n2.is_zero() and n1.is_zero():
            return None                          # V is constant along the curve, or nowhere critical
        a0, a1 = _at((n0, n1), t)
        x = _quad_root(a0, a1, None if n2.is_zero() else flint.arb_poly(n2)(t), sigma)
        if x is None:
            return None
        return x, _on_curve(B[z], x)

    def off_unit(self, desc, t) -> bool:
        """Does the crossing's quadratic K(p1) certainly have no root with p1 in [0, 1]?"""
        ks = _at(self.kcache[("cross", desc[1], desc[2])], t)
        for m in range(16):
            x = flint.arb(m).union(flint.arb(m + 1)) / 16
            if (ks[0] + ks[1] * x + ks[2] * x * x).contains(0):
                return False
        return True

    def below(self, desc, t, B, Bv, fixed, vlow) -> bool:
        """Is the candidate certainly not above v_F on the box (not real, off the square, or V below)?"""
        p = self.point(desc, t, B)
        if p is None:
            return True
        sq = _in_square(*p)
        if sq is None:
            return True
        x, y = sq
        v = _bil(fixed, x, y)
        total = v.upper()
        for k in self.rel:
            b = _bil(Bv[k], x, y).upper()
            if b < 0:
                total += b
        return bool(total < vlow)

    # ------------------------------------------------------------ the enumeration on a box
    def cells(self, B, Bv, fixed, vlow) -> list[tuple[frozenset, frozenset]]:
        """The *live* cells of the square on the theta-box: a quadtree, a cell dropped when its
        ball bound of V = fixed + sum min(0, B_k) lies below v_F's lower bound, a live one
        split until at most MAX_FREE curves pass through it (raise _Wide past MAX_CELL_DEPTH).
        Each as (the curves through it, the curves where Banker draws throughout it)."""
        out: list[tuple[frozenset, frozenset]] = []
        todo = [(Fraction(0), Fraction(0), Fraction(1), 0)]
        while todo:
            x0, y0, h, depth = todo.pop()
            x, y = arb_of(x0).union(arb_of(x0 + h)), arb_of(y0).union(arb_of(y0 + h))
            bound = _bil(fixed, x, y).upper()
            through, draws = [], []
            for k in self.rel:
                u = _bil(Bv[k], x, y).upper()
                if u < 0:
                    bound += u
                c = self.gsign[k] * _bil(B[k], x, y)     # B_k's sign, by its curve C_k
                if c < 0:
                    draws.append(k)
                elif not c > 0:
                    through.append(k)
            if bound < vlow:
                continue
            if depth < MIN_CELL_DEPTH or len(through) > MAX_FREE:
                if depth == MAX_CELL_DEPTH:
                    raise _Wide
                g = h / 2
                todo += [(x0, y0, g, depth + 1), (x0 + g, y0, g, depth + 1), (x0, y0 + g, g, depth + 1),
                         (x0 + g, y0 + g, g, depth + 1)]
                continue
            out.append((frozenset(through), frozenset(draws)))
        return out

    def candidates(self, t, B, cells, deep: bool = False) -> set:
        """Every candidate on the theta-box t that can lie in a live cell (a superset), or raise
        _Wide.  A crossing there is of two curves through that cell; a critical point along
        curve z there has, as its draw set, the cell's plus some of the other curves through it
        (every other curve has one sign on the cell).  ``deep`` (a narrow box): a crossing or
        edge point the balls cannot place is kept as a candidate rather than the box halved."""
        out: set = {("corner", x, y) for x in (0, 1) for y in (0, 1)}
        live = frozenset().union(*(c for c, _ in cells)) if cells else frozenset()
        for k in live:
            for w in (1, 2):
                for e in (0, 1):
                    desc = ("edge", k, w, e)
                    try:
                        p = self.point(desc, t, B)
                    except _Wide:
                        if not deep:
                            raise
                        out.add(desc)            # left to dispose(), and exact arithmetic
                        continue
                    if p is not None and _in_square(*p) is not None:
                        out.add(desc)
        pairs = {(i, j) for through, _ in cells for i, j in combinations(sorted(through), 2)}
        for i, j in pairs:
            for sigma in (1, -1):
                desc = ("cross", i, j, sigma)
                try:
                    p = self.point(desc, t, B)
                except _Wide:
                    if self.off_unit(desc, t):
                        continue
                    if not deep:
                        raise
                    out.add(desc)                # e.g. two curves that coincide at one theta
                    continue
                if p is not None and _in_square(*p) is not None:
                    out.add(desc)
        sets: dict[int, set] = {}
        for through, draws in cells:
            for z in through:
                if self.G.C[z][2].is_zero() and self.G.C[z][3].is_zero():
                    continue                    # a vertical line: V is linear along it
                free = sorted(through - {z})
                for r in range(len(free) + 1):
                    for sub in combinations(free, r):
                        sets.setdefault(z, set()).add(draws | frozenset(sub))
        for z, ds in sets.items():
            for d in ds:
                for sigma in (1, -1):
                    out.add(("crit", z, d, sigma))
        return out

    # ------------------------------------------------------------ the whole interval
    def upper(self) -> None:
        """V <= v_F on the interval (raise _Refuted or BaccaraError otherwise), piece by piece
        between the theta where some B_k vanishes on the whole square (there its curve is
        C_k = 0 on both sides, its sign flips)."""
        gs = [self.G.g[k] for k in self.rel if self.G.g[k].degree() >= 1]
        for a, b in _pieces(gs, self.lo, self.hi):
            s = rational_between_balls(a.ball, b.ball)
            self.gsign = {k: 1 if _poly_at(self.G.g[k], s) > 0 else -1 for k in self.rel}
            self.enumerate_on(_outer(a.ball)[0], _outer(b.ball)[1], 0)

    def box(self, u: Fraction, v: Fraction):
        t = arb_of(u).union(arb_of(v))
        B = {k: _at(self.G.C[k], t) for k in self.rel}
        Bv = {k: _at(self.G.B[k], t) for k in self.rel}
        return t, B, Bv, _at(self.fixed, t)

    def enumerate_on(self, u: Fraction, v: Fraction, depth: int) -> None:
        self.tick()
        t, B, Bv, fixed = self.box(u, v)
        try:
            vlow = self.vF_lower(t)
            cands = self.candidates(t, B, self.cells(B, Bv, fixed, vlow), depth >= DEEP_ENUMERATION)
        except _Wide:
            if depth >= MAX_ENUMERATION_HALVINGS:
                raise BaccaraError(f"the candidates on ({float(u)}, {float(v)}) could not be enumerated") from None
            m = (u + v) / 2
            self.enumerate_on(u, m, depth + 1)
            self.enumerate_on(m, v, depth + 1)
            return
        for desc in cands:
            self.dispose(desc, u, v, 0, (t, B, Bv, fixed, vlow))

    def dispose(self, desc, u: Fraction, v: Fraction, depth: int, pre=None) -> None:
        self.tick()
        if pre is None:
            t, B, Bv, fixed = self.box(u, v)
            try:
                vlow = self.vF_lower(t)
            except _Wide:
                vlow = None
        else:
            t, B, Bv, fixed, vlow = pre
        self.counts["boxes"] += 1
        if vlow is not None:
            try:
                if self.below(desc, t, B, Bv, fixed, vlow):
                    return
            except _Wide:
                pass
        if desc in self.decided:
            return
        if depth < MAX_HALVINGS and not self.through_pF(desc):
            m = (u + v) / 2
            self.dispose(desc, u, m, depth + 1)
            self.dispose(desc, m, v, depth + 1)
            return
        # decided exactly once for the whole interval (it would come back on every theta-box)
        self.exact(desc, self.lo_q, self.hi_q)
        self.decided.add(desc)

    def through_pF(self, desc) -> bool:
        """Do the candidate's equations hold at p_F for every theta (so that it may be p_F)?"""
        if desc not in self.on_pF:
            self.on_pF[desc] = all(self.pF.theta_polynomial(e) == 0 for e in self.equations(desc))
        return self.on_pF[desc]

    # ------------------------------------------------------------ exact, near a tie
    def equations(self, desc):
        P = self.G.polys
        kind = desc[0]
        if kind == "corner":
            return P1 - desc[1] * ONE, P2 - desc[2] * ONE
        if kind == "edge":
            _, k, w, e = desc
            return (P1 if w == 1 else P2) - e * ONE, P.B[k]
        if kind == "cross":
            return P.B[desc[1]], P.B[desc[2]]
        _, z, D, _ = desc
        Wd = P.A + sum((P.B[k] for k in sorted(D) + self.fixed_draws), 0 * ONE)
        b = P.B[z]
        return b, Wd.derivative("p1") * b.derivative("p2") - Wd.derivative("p2") * b.derivative("p1")

    def exact(self, desc, u: Fraction, v: Fraction) -> None:
        """Decide the candidate on (u, v) (clipped to the interval) in exact arithmetic."""
        self.counts["exact"] += 1
        lo = self.lo if u <= self.lo_q else Endpoint.of_rational(u)
        hi = self.hi if v >= self.hi_q else Endpoint.of_rational(v)
        e1, e2 = self.equations(desc)
        mp0 = MovingPoint((tuple(terms(e1)), tuple(terms(e2))))
        conds = [f for _, f in mp0.branch_conditions()] + [P1, ONE - P1, P2, ONE - P2]
        polys = []
        for f in conds:
            r = mp0.theta_polynomial(f)
            if r != 0:
                polys.append(r)
        for a, b in _pieces(polys, lo, hi):
            self.tick()
            s = rational_between_balls(a.ball, b.ball)
            p = self._root_at(desc, mp0, s)
            if p is None or not all(0 <= x <= 1 for x in p):
                continue
            mp = MovingPoint.through(e1, e2, p[0], s)
            self._below_on(desc, mp, a, b, 0)

    def _below_on(self, desc, mp: MovingPoint, a: Endpoint, b: Endpoint, depth: int) -> None:
        """V(c) <= v_F on (a, b), where the candidate c (the moving point mp) is real and in the
        square throughout: W_S(c) - v_F, S the draw set at a sample, has no root on each piece
        between its roots, so one sign there (V <= W_S for every S).  A piece where W_S(c) is
        not below v_F at its sample is taken again with the draw set there."""
        s = rational_between_balls(a.ball, b.ball)
        Wc = self._w_at(mp.at(s), s)
        r = in_theta(resultant(mp.eliminate(W - Wc), self.pF.eliminate(W - self.vF), W_INDEX))
        for a2, b2 in _pieces([r] if r != 0 else [], a, b):
            s2 = rational_between_balls(a2.ball, b2.ball)
            mine, theirs = mp.value(Wc, s2), self.pF.value(self.vF, s2)
            if mine < theirs:
                continue
            true = mp.value(self._w_at(mp.at(s2), s2), s2)      # V at the point itself
            if theirs < true:
                raise _Refuted(s2, mp.at(s2))
            if true < theirs:
                if depth >= 3 or s2 == s:
                    raise BaccaraError(f"{_describe(desc)} could not be placed below the maximiser's value")
                self._below_on(desc, mp, a2, b2, depth + 1)
                continue
            # equal at a sample between the roots: the difference vanishes identically
            same = all(mp.theta_polynomial(f) == 0 for f in self.pF.equations())
            if not (same and mp.at(s2) == self.pF.at(s2)):
                raise BaccaraError(f"{_describe(desc)} ties the maximiser's value without being it")

    def _w_at(self, p, s: Fraction):
        """A + the sets where Banker draws at the point p (exact, at theta = s), as a polynomial."""
        C = [tuple(_scaled_at(c, s) for c in self.G.B[k]) for k in self.rel]
        P = self.G.polys
        draws = [k for k, sg in zip(self.rel, _signs(C, *p)) if sg < 0]
        draws += self.fixed_draws
        return P.A + sum((P.B[k] for k in draws), 0 * ONE)

    def _root_at(self, desc, mp0: MovingPoint, s: Fraction):
        """The candidate's point at the rational s, exactly (None when not real)."""
        q = [_poly_at(in_theta(c), s) for c in mp0.k_coeffs()]
        if q[2] == 0:
            if q[1] == 0:
                return None
            x = QuadraticNumber.of(-q[0] / q[1])
        else:
            roots = quadratic_roots(q[2], q[1], q[0])
            if not roots:
                return None
            # which root is this candidate's: the one in its ball at s (the eliminant here need
            # not be the quadratic, or have the sign, that the balls were computed from)
            ball = None
            for bits in (128, 256, 512, 1024):
                with precision(bits):
                    t = arb_of(s)
                    B = {k: _at(self.G.C[k], t) for k in self.rel}
                    try:
                        ball = self.point(desc, t, B)
                    except _Wide:
                        continue
                if ball is None:
                    return None
                hits = [r for r in roots if ball[0].overlaps(_arb_q(r))]
                if len(hits) == 1:
                    break
            else:
                raise BaccaraError(f"{_describe(desc)}: its branch cannot be told at theta = {s}")
            x = hits[0]
        u0, u1, v0, v1 = (_bil_coef(mp0._split()[1], m, s) for m in ((0, 0), (1, 0), (0, 1), (1, 1)))
        den = v0 + v1 * x
        if den == 0:
            return None
        return x, QuadraticNumber.of(-(u0 + u1 * x)) / den


def _arb_q(x: QuadraticNumber):
    """An arb ball holding x = r + s sqrt(d)."""
    x = QuadraticNumber.of(x)
    r = arb_of(x.r)
    return r if x.s == 0 else r + arb_of(x.s) * flint.arb(x.d).sqrt()


def _bil_coef(f, m, s: Fraction) -> Fraction:
    return sum((Fraction(c) * s ** e[3] for e, c in terms(f) if e[:2] == m), Fraction(0))


def _scaled_at(p: Poly, s: Fraction) -> int:
    """den(s) p(s), for p of degree at most 1: an integer of p(s)'s sign (fast)."""
    c = p.coeffs()
    if len(c) > 2:
        raise ValueError("degree above 1")
    n, d = s.numerator, s.denominator
    return (int(c[0]) * d if c else 0) + (int(c[1]) * n if len(c) > 1 else 0)


def _poly_at(p: Poly, s: Fraction) -> Fraction:
    return sum((Fraction(int(c)) * s ** k for k, c in enumerate(p.coeffs())), Fraction(0))


def _outer(ball) -> tuple[Fraction, Fraction]:
    return exact_bounds(ball)


def _pieces(polys: list, lo: Endpoint, hi: Endpoint) -> list[tuple[Endpoint, Endpoint]]:
    """The open pieces of (lo, hi) between the real roots of ``polys``."""
    lo_b, hi_b = lo.ball, hi.ball
    # the distinct irreducible factors: two of them share no root (two conditions often do)
    factors: dict[tuple, Poly] = {}
    for f in polys:
        if f.degree() < 1:
            continue
        for g, _ in f.factor()[1]:
            if g.degree() >= 1:
                g = -g if g.coeffs()[-1] < 0 else g
                factors[tuple(int(c) for c in g.coeffs())] = g
    cuts = []
    for g in factors.values():
        for iso in real_roots(g):
            ball = iso
            if ball.overlaps(lo_b) or ball.overlaps(hi_b):
                ball = refine(ball, g, 300)
            if lo_b < ball < hi_b:
                cuts.append(Endpoint(ball, g))
            elif ball.overlaps(lo_b) or ball.overlaps(hi_b):
                end = lo if ball.overlaps(lo_b) else hi
                if not _is_end(iso, ball, g, end):
                    raise BaccaraError("a root too close to a piece's end to place")
    cuts.sort(key=lambda e: e.ball.mid())
    for n in range(len(cuts) - 1):          # distinct roots: narrow overlapping balls apart
        a, b = cuts[n], cuts[n + 1]
        if a.ball.overlaps(b.ball):
            assert a.poly is not None and b.poly is not None
            cuts[n], cuts[n + 1] = Endpoint(refine(a.ball, a.poly, 400), a.poly), Endpoint(refine(b.ball, b.poly, 400),
                                                                                           b.poly)
    cuts.sort(key=lambda e: e.ball.mid())
    edges = [lo] + cuts + [hi]
    out = []
    for a, b in zip(edges, edges[1:]):
        if a.ball.overlaps(b.ball):
            raise BaccaraError("two roots not separated")
        out.append((a, b))
    return out


def _is_end(iso, ball, g: Poly, end: Endpoint) -> bool:
    """Is the root of the irreducible g in its isolating ball ``iso`` (narrowed to ``ball``
    inside it) the end itself?  Proved, not guessed from overlapping balls: the end is a
    root of g only if g is its minimal polynomial f (up to sign), and then it is this
    root exactly when the end's ball (which holds no other root of f) contains ``ball``,
    or ``iso`` (no other root of g) contains the end's ball.  Where the balls overlap
    without either, the end's ball is narrowed; a case still undecided is refused
    (False, then the caller stops)."""
    if end.rational is not None:
        return _poly_at(g, end.rational) == 0          # g irreducible with a rational root: linear
    f = end.minimal_polynomial
    if f is None or g.gcd(f).degree() < 1:
        return False
    e = end.ball
    for _ in range(2):
        if not e.overlaps(ball):
            return False                                # the two numbers lie in disjoint balls
        if e.contains(ball) or iso.contains(e):
            return True
        e = refine(e, f, 300)
    return False


def _describe(desc) -> str:
    labels = banque_game().infosets
    kind = desc[0]
    if kind == "corner":
        return f"the corner ({desc[1]}, {desc[2]})"
    if kind == "edge":
        return f"the point of curve {infoset_label(labels[desc[1]])} on p{desc[2]} = {desc[3]}"
    if kind == "cross":
        return f"the crossing of {infoset_label(labels[desc[1]])} and {infoset_label(labels[desc[2]])}"
    return f"a critical point along {infoset_label(labels[desc[1]])}"


# ---------------------------------------------------------------- the driver
def _form_label(sig: tuple) -> str:
    labels = banque_game().infosets
    curves, _, edges = sig
    parts = [f"on {infoset_label(labels[k])}" for k in sorted(curves)] + [f"on {e}" for e in edges]
    return ", ".join(parts) if parts else "a corner"


def _form_holds(pr: _Prover) -> int:
    """The form's own conditions keep their signs on the interval: the number of roots met
    (each checked not to change a sign); raise BaccaraError at one that does."""
    P = pr.G.polys
    conds = [(f"Banker at {infoset_label(banque_game().infosets[k])}", P.B[k]) for k in pr.rel]
    conds += [("p1 > 0", P1), ("p1 < 1", ONE - P1), ("p2 > 0", P2), ("p2 < 1", ONE - P2)]
    conds += pr.pF.branch_conditions()
    met = 0
    for label, f in conds:
        r = pr.pF.theta_polynomial(f)
        if r == 0:
            continue                        # vanishes along the whole branch: the form's own curve or edge
        pieces = _pieces([r], pr.lo, pr.hi)
        if len(pieces) < 2:
            continue
        # the condition is 0 at p_F only at roots of r: its sign is constant on each piece
        signs = [_sign_on(pr.pF, f, rational_between_balls(a.ball, b.ball), label) for a, b in pieces]
        for (_, b), left, right in zip(pieces, signs, signs[1:]):
            met += 1
            if left != right or left == 0:
                raise BaccaraError(f"the form's condition '{label}' changes sign near theta = {float(b):.12g}")
    return met


def _sign_on(point: MovingPoint, f, s: Fraction, label: str) -> int:
    """The exact sign of the condition f at the moving point at theta = s."""
    try:
        v = point.value(f, s)
    except (ArithmeticError, ZeroDivisionError):
        raise BaccaraError(f"the form's condition '{label}' cannot be evaluated at theta = {s}") from None
    return sign(v)


def prove_interval(lo: Endpoint, hi: Endpoint, signature: tuple, game: BanqueGame | None = None,
                   sample: Fraction | None = None, seconds: float | None = None) -> IntervalProof:
    """Prove that on the whole interval (lo, hi) the lower value is V at the moving point of the
    form ``signature`` (see the module's docstring).

    Parameters
    ----------
    lo, hi : Endpoint
        The interval's exact ends (:func:`~baccara.banque.independent_eq.sweep.exact_ends`).
    signature : tuple
        The form, as the sweep writes it: (curves through the maximiser, Banker's draw set
        there, the edges it lies on).
    game : BanqueGame, optional
        The game; only the paper's infinite shoe (the default) is supported.
    sample : Fraction, optional
        The rational inside the interval at which the form is read off the exact solver
        (default: the simplest rational in the middle half).
    seconds : float, optional
        A time limit: past it the proof stops, "inconclusive" (checked between steps, so
        one exact step may overrun it).

    Returns
    -------
    IntervalProof
        "proved", "refuted" (a theta and a point beating the form) or "inconclusive".
    """
    start = time.perf_counter()
    g = game or banque_game()
    if g is not banque_game():
        raise BaccaraError("the interval proof follows the paper's infinite shoe only")
    if seconds is not None and not seconds > 0:
        raise ParameterError(f"seconds must be positive, got {seconds}")
    theta = rational_between_balls(lo.ball, hi.ball) if sample is None else Fraction(sample)
    if not lo.ball < flint.arb(theta.numerator) / theta.denominator < hi.ball:
        raise BaccaraError(f"the sample {theta} is not inside the interval")
    sol = independent_equilibrium(g, theta)
    return _prove(lo, hi, signature, g, theta, (sol.p1, sol.p2), seconds, start)


def _prove(lo: Endpoint, hi: Endpoint, signature: tuple, g, theta: Fraction, point: tuple,
           seconds: float | None, start: float) -> IntervalProof:
    """:func:`prove_interval` for any game with ``bilinears``, ``polys``, ``a`` and ``h`` (the
    paper's, or the blown-up game of :mod:`~baccara.banque.independent_eq.near_zero`),
    given the exact maximiser ``point`` at the rational sample ``theta`` inside (lo, hi)."""
    label = _form_label(signature)

    def done(status: str, reason: str = "", pr: _Prover | None = None, met: int = 0) -> IntervalProof:
        c = pr.counts if pr else {"boxes": 0, "exact": 0}
        return IntervalProof(lo, hi, label, status, c["boxes"], c["exact"], met, reason, time.perf_counter() - start)

    if exact_signature(theta, point[0], point[1], g) != signature:
        return done("inconclusive", f"at theta = {theta} the maximiser has another form")
    with precision(BITS):
        pr = _Prover(_Game(g), lo, hi, signature, theta, point[0])
        if seconds is not None:
            pr.deadline = start + seconds
        try:
            met = _form_holds(pr)
        except BaccaraError as e:
            return done("inconclusive", str(e), pr)
        try:
            pr.upper()
        except _Refuted as e:
            return done("refuted", str(e), pr, met)
        except _TimeUp:
            return done("inconclusive", f"the time limit ({seconds:g} s) was reached", pr, met)
        except (BaccaraError, ArithmeticError) as e:
            return done("inconclusive", str(e), pr, met)
    return done("proved", "", pr, met)
