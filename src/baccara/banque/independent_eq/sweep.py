"""The independent cooperative equilibrium over theta (Ethier and Lee 2015, section 4; Figures 2-3).

:func:`baccara.banque.independent_eq.solution.independent_equilibrium` finds the
Players' maximin (p1, p2) exactly at one theta among the points of the
arrangement of Banker's indifference curves (corners, curve/edge and
curve/curve crossings, critical points along a curve).  Sweeping theta needs
that search thousands of times, so :func:`float_independent` repeats it in
NumPy floating point, returning the maximiser with its *signature*: what kind
of point it is, the Banker information sets whose curves define it, and
Banker's best response there (where he draws).  The paper's intervals are the
theta-ranges of constant signature: "the independent cooperative equilibrium
(described by the Players' maximin strategy and Banker's best response) is a
continuous function of theta on interval i".

:func:`independent_sweep` evaluates the signature on a grid and bisects
every change down to a bracket narrower than ``tol``: interval ends are
located numerically (to about 1e-11), not as closed-form roots, and each
interval's solution is re-derived exactly at a rational point inside it by the
exact solver when ``exact_check`` is asked for.  Intervals narrower than the
grid step whose neighbours share a signature would be missed; the grid is
fine enough that the count agrees with the paper's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations

import numpy as np

from ...errors import BaccaraError
from ...solve.moving import ONE, P1, P2, MovingPoint, events, value_crossings
from ...solve.roots import Endpoint, arb_of, precision
from ..correlated_eq.solution import correlated_equilibrium
from ..model import BanqueGame, banque_game, infoset_label

#: bilinear(v) = M @ v for v over SS, SD, DS, DD (see baccara.solve.arrangement.bilinear).
M = np.array([[1, 0, 0, 0], [-1, 0, 1, 0], [-1, 1, 0, 0], [1, -1, -1, 1]], dtype=float)


@dataclass(frozen=True)
class FloatSolution:
    theta: float
    p1: float
    p2: float
    lower: float
    signature: tuple


def _feats(p1, p2):
    p1, p2 = np.asarray(p1, dtype=float), np.asarray(p2, dtype=float)
    return np.stack([np.ones_like(p1), p1, p2, p1 * p2])


def float_independent(theta: float, game: BanqueGame | None = None) -> FloatSolution:
    """The Players' maximin independent strategies at ``theta``, in floating point.

    Parameters
    ----------
    theta : float
        Player 1's share of the stakes.
    game : BanqueGame, optional
        The game (default: the paper's infinite shoe).

    Returns
    -------
    FloatSolution
        p1, p2, the lower value and the arrangement signature there.
    """
    A0, A1, H0, H1 = (game or banque_game()).float_linear
    base = M @ (A0 + theta * A1)
    C_all = (H0 + theta * H1) @ M.T                         # every Banker set's curve
    row_scale = np.abs(C_all).max(axis=1) + 1e-300          # each curve's own size: some vanish with theta
    corner_vals = C_all @ _feats([0, 0, 1, 1], [0, 1, 0, 1])
    lo, hi = corner_vals.min(axis=1), corner_vals.max(axis=1)
    tiny = 1e-14 * row_scale
    rel = np.flatnonzero((lo < -tiny) & (hi > tiny))
    fixed = base + C_all[np.flatnonzero((hi <= tiny) & (lo < -tiny))].sum(axis=0)
    C = C_all[rel]
    n = len(rel)
    P = []                                                   # candidate points

    def add(p1, p2, kind):                                   # kind: where the point came from (for readers)
        P.append((p1, p2))

    for x, y in ((0, 0), (0, 1), (1, 0), (1, 1)):
        add(float(x), float(y), ("corner", x, y))
    on_curve: list[list[float]] = [[] for _ in range(n)]
    for k in range(n):
        c0, c1, c2, c3 = C[k]
        for e in (0.0, 1.0):
            a0, a1 = c0 + c1 * e, c2 + c3 * e
            if a1 != 0 and 0 <= -a0 / a1 <= 1:
                add(e, -a0 / a1, ("edge", int(rel[k]), "p1", e))
                on_curve[k].append(e)
            a0, a1 = c0 + c2 * e, c1 + c3 * e
            if a1 != 0 and 0 <= -a0 / a1 <= 1:
                add(-a0 / a1, e, ("edge", int(rel[k]), "p2", e))
                on_curve[k].append(-a0 / a1)
    ii, jj = np.triu_indices(n, 1)
    ci, cj = C[ii], C[jj]
    k2 = ci[:, 1] * cj[:, 3] - cj[:, 1] * ci[:, 3]
    k1 = ci[:, 0] * cj[:, 3] + ci[:, 1] * cj[:, 2] - cj[:, 0] * ci[:, 3] - cj[:, 1] * ci[:, 2]
    k0 = ci[:, 0] * cj[:, 2] - cj[:, 0] * ci[:, 2]
    for a, b, q2, q1, q0 in zip(ii, jj, k2, k1, k0):
        for r in _roots(q2, q1, q0):
            if 0 <= r <= 1:
                p2 = _on(C[a], r)
                if p2 is None:
                    p2 = _on(C[b], r)
                if p2 is not None and 0 <= p2 <= 1:
                    add(r, p2, ("cross", int(min(rel[a], rel[b])), int(max(rel[a], rel[b]))))
                    on_curve[a].append(r)
                    on_curve[b].append(r)
    for k in range(n):                                       # critical points along curve k
        c0, c1, c2, c3 = C[k]
        if c2 == 0 and c3 == 0:
            continue
        cuts = sorted(set([0.0, 1.0] + on_curve[k]))
        for lo_, hi_ in zip(cuts, cuts[1:]):
            if hi_ - lo_ < 1e-15:
                continue
            mid = (lo_ + hi_) / 2
            p2m = _on(C[k], mid)
            if p2m is None or not (0 < p2m < 1):
                continue
            vals = C @ _feats(mid, p2m)
            vals[k] = 0.0
            f = fixed + C[vals < 0].sum(axis=0)
            f0, f1, f2, f3 = f
            s = (c2, c3)
            t = (f3 * c0 + c1 * f2, 2 * f3 * c1)
            ss = (s[0] * s[0], 2 * s[0] * s[1], s[1] * s[1])
            ts = (t[0] * s[0], t[0] * s[1] + t[1] * s[0], t[1] * s[1])
            ll = (f2 * c0, f2 * c1 + f3 * c0, f3 * c1)
            q = [f1 * ss[m] - ts[m] + c3 * ll[m] for m in range(3)]
            for r in _roots(q[2], q[1], q[0]):
                if lo_ < r < hi_:
                    p2 = _on(C[k], r)
                    if p2 is not None and 0 <= p2 <= 1:
                        add(r, p2, ("curve", int(rel[k])))
    pts = np.array(P)
    F = _feats(pts[:, 0], pts[:, 1])
    V = fixed @ F + np.minimum(0.0, C @ F).sum(axis=0)
    best = int(np.argmax(V))
    p1, p2 = pts[best]
    at_best = C_all @ _feats(p1, p2)
    tol = 1e-11 * row_scale
    draws = frozenset(int(i) for i in np.flatnonzero(at_best < -tol))
    indifferent = frozenset(int(i) for i in rel[np.abs(at_best[rel]) <= tol[rel]])
    edges = tuple(e for e, x in (("p1=0", p1), ("p1=1", p1 - 1), ("p2=0", p2), ("p2=1", p2 - 1)) if abs(x) < 1e-12)
    # the signature is geometric (not which candidate label found the point): Banker's best
    # response there, the curves through it, and the edges it lies on
    return FloatSolution(theta, float(p1), float(p2), float(V[best]), (indifferent, draws, edges))


def _on(c, p1):
    den = c[2] + c[3] * p1
    return None if den == 0 else -(c[0] + c[1] * p1) / den


def _roots(a, b, c) -> list[float]:
    if a == 0:
        return [] if b == 0 else [-c / b]
    disc = b * b - 4 * a * c
    if disc < 0:
        return []
    s = np.sqrt(disc)
    q = -0.5 * (b + np.copysign(s, b))        # the stable form
    r = [q / a, c / q] if q != 0 else [-b / (2 * a)]
    return sorted(r)


@dataclass
class IndependentInterval:
    lo: float
    hi: float
    signature: tuple
    p1: float          # at the midpoint
    p2: float
    lower: float
    exact: dict | None = None


@dataclass
class IndependentSweep:
    intervals: list[IndependentInterval] = field(default_factory=list)
    breaks: list[tuple[float, float]] = field(default_factory=list)   # brackets of each interval end
    raw_breaks: list[tuple[float, float]] = field(default_factory=list)  # every change of signature

    def discontinuities(self, which: int, jump: float = 1e-6) -> list[float]:
        """Points where p1 (which = 1) or p2 (2) jumps."""
        out = []
        for (a, b) in self.breaks:
            l_, r_ = float_independent(a), float_independent(b)
            x, y = (l_.p1, r_.p1) if which == 1 else (l_.p2, r_.p2)
            if abs(x - y) > jump:
                out.append((a + b) / 2)
        return out


def independent_sweep(lo: float = 0.0, hi: float = 0.5, grid: int = 500, tol: float = 1e-10,
                      merge: float = 1e-8, progress: Callable[[int, int], None] | None = None) -> IndependentSweep:
    """The theta-intervals of (lo, hi] on which the independent cooperative equilibrium keeps one
    form: the same curves through the Players' maximin point, the same edges, the same Banker
    best response (Ethier and Lee (2015): "a continuous function of theta on interval i").  Changes are
    bracketed to ``tol``; changes within ``merge`` of each other count once."""
    xs = np.linspace(lo, hi, grid + 1)
    if lo == 0:
        # theta = 0 is outside the game.  Not much closer to it than 1e-8: below about 1e-10 the
        # float solver sees the twelve curves (j,10,6), theta apart there, all through the maximiser
        # (the exact one, and the blow-up of independent_near_zero, find one form down to 0).
        xs[0] = min(1e-8, xs[1] / 2)
    sigs = []
    for k, x in enumerate(xs):
        sigs.append(float_independent(float(x)).signature)
        if progress:
            progress(k + 1, grid + 1)
    breaks: list[tuple[float, float]] = []

    def refine(a, b, sa, sb):
        if sa == sb:
            return
        if b - a < tol:
            breaks.append((a, b))
            return
        m = (a + b) / 2
        sm = float_independent(m).signature
        refine(a, m, sa, sm)
        refine(m, b, sm, sb)

    for k in range(grid):
        refine(float(xs[k]), float(xs[k + 1]), sigs[k], sigs[k + 1])
    # Changes closer together than ``merge`` are one event: where a third curve meets the
    # maximiser Banker is indifferent at one more set for an instant (a window of width ~tol).
    groups: list[list[tuple[float, float]]] = []
    for br in breaks:
        if groups and br[0] - groups[-1][-1][1] < merge:
            groups[-1].append(br)
        else:
            groups.append([br])
    kept = [(g[0][0], g[-1][1]) for g in groups]
    out = IndependentSweep(breaks=kept, raw_breaks=breaks)
    ends = [lo] + [(a + b) / 2 for a, b in kept] + [hi]
    for a, b in zip(ends, ends[1:]):
        s = float_independent((a + b) / 2)
        out.intervals.append(IndependentInterval(a, b, s.signature, s.p1, s.p2, s.lower))
    return out


def golden_section(f: Callable[[float], float], a: float, b: float, steps: int = 60, maximize: bool = True) -> float:
    """The extremum of a unimodal f on [a, b] (golden-section search)."""
    g = (5 ** 0.5 - 1) / 2
    c, d = b - g * (b - a), a + g * (b - a)
    fc, fd = f(c), f(d)
    for _ in range(steps):
        if (fc > fd) == maximize:
            b, d, fd = d, c, fc
            c = b - g * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + g * (b - a)
            fd = f(d)
    return (a + b) / 2


def upper_value(theta: float) -> float:
    """The upper value = the correlated cooperative value (Ethier and Lee 2015, Proposition 1), exact
    at the nearest rational with denominator below 10^15."""
    return float(correlated_equilibrium(banque_game(), Fraction(theta).limit_denominator(10**15)).value)


def lower_value_peak(lo: float = 0.49, hi: float = 0.5) -> tuple[float, float]:
    """Where the lower value (the Players' independent maximin) is largest: (theta, value)."""
    t = golden_section(lambda x: float_independent(x).lower, lo, hi)
    return t, float_independent(t).lower


def coincidence_near(lo: float, hi: float) -> tuple[float, float]:
    """The theta in [lo, hi] where upper - lower is smallest, and that difference (Ethier and Lee (2015):
    the two cooperative equilibria also coincide at isolated points, Figure 3)."""
    t = golden_section(lambda x: upper_value(x) - float_independent(x).lower, lo, hi, steps=40, maximize=False)
    return t, upper_value(t) - float_independent(t).lower


def sweep_json(sw: IndependentSweep, ends: list | None = None) -> dict:
    """``baccara banque sweep --concept independent --json``; with ``ends`` (from
    :func:`exact_ends`) every interval end is an exact algebraic number."""
    g = banque_game()

    def end(k: int, x: float) -> dict | float:
        if ends is None or k < 0 or k >= len(ends):
            return x
        e = ends[k]
        if e.endpoint is None:
            return {"exact": None, "float": x, "bracket": list(e.bracket), "identified_by": e.reason}
        return {**e.endpoint.to_json(), "identified_by": e.reason}

    identified = sum(1 for e in ends or [] if e.endpoint is not None)
    return {
        "concept": "independent",
        "count": len(sw.intervals),
        "definition": "theta-intervals on which the curves through the Players' maximin (p1, p2), the edges it "
                      "lies on and Banker's best response to it stay the same (changes within 1e-8 count once)",
        "endpoints": (f"exact algebraic numbers ({identified} of {len(ends)} ends identified; bracketed by "
                      "bisection to about 1e-10 first)") if ends is not None
        else "located by bisection to about 1e-10, not as closed-form roots",
        "intervals": [{
            "from": end(k - 1, iv.lo), "to": end(k, iv.hi), "p1": iv.p1, "p2": iv.p2, "lower_value": iv.lower,
            "maximum_on_curves": [infoset_label(g.infosets[i]) for i in sorted(iv.signature[0])],
            "on_edges": list(iv.signature[2]),
        } for k, iv in enumerate(sw.intervals)],
    }


# ---------------------------------------------------------------- exact interval ends
def independent_locus(sig: tuple, theta: float | Fraction, p1: float, game=None):
    """The moving point of a float signature: (MovingPoint, V), the equations read from
    the curves through the maximiser and the edges it lies on, V = A + sum of the curves
    where Banker draws (the Players' value there, a polynomial in p1, p2, theta).

    Two curves: B_i = B_j = 0.  A curve and an edge: p = e, B_i = 0.  Two edges: a
    corner.  One curve alone: the critical point of V along B_i = 0, where
    dV/dp1 dB/dp2 - dV/dp2 dB/dp1 = 0 (linear in p1, p2: the p1 p2 terms cancel)."""
    curves, draws, edges = sig
    P = (game or banque_game()).polys
    V = P.A + sum((P.B[k] for k in draws), 0 * ONE)
    eqs = [(P1 if e[1] == "1" else P2) - int(e[-1]) * ONE for e in edges]
    eqs += [P.B[k] for k in sorted(curves)]
    if len(curves) == 1 and not edges:
        b = P.B[next(iter(curves))]
        eqs.append(V.derivative("p1") * b.derivative("p2") - V.derivative("p2") * b.derivative("p1"))
    t = Fraction(theta).limit_denominator(10**12)
    # more than two (three curves through p1 = p2 = 9/11 for a whole range): any two
    # that cross transversally there fix the point
    for e1, e2 in combinations(eqs, 2):
        try:
            return MovingPoint.near(e1, e2, p1, t), V
        except ArithmeticError:
            continue
    raise BaccaraError(f"a maximiser on {len(curves)} curves and {len(edges)} edges is not followed")


@dataclass
class ExactEnd:
    """An interval end identified exactly: the root of ``endpoint``'s polynomial that is
    genuine for the condition ``reason`` (or None when no candidate was genuine)."""

    bracket: tuple[float, float]
    endpoint: Endpoint | None
    reason: str


def exact_end(left_sig: tuple, right_sig: tuple, bracket: tuple[float, float]) -> ExactEnd:
    # left_sig, right_sig: the signatures of the intervals on either side (at their
    # midpoints: at the bracket's ends a third curve may be passing through the point)
    """The exact end between two intervals of the float sweep: every condition that can
    end the left or the right form (Banker's sign at the sets that change, the edges, a
    slide along a curve, the branch degenerating) and the equality of the two forms'
    values (a jump) gives an integer polynomial; the end is the root near the bracket at
    which a condition's exact sign changes (the nearest to the bracket, if several)."""
    a, b = bracket
    # the float signature decides a curve passes through the maximiser with a tolerance,
    # so the bisection can miss the event by ~1e-9: search a wider window, take the
    # genuine root nearest the bracket
    lo, hi = arb_of(Fraction(a) - Fraction(1, 10**7)), arb_of(Fraction(b) + Fraction(1, 10**7))
    P = banque_game().polys
    g = banque_game()
    with precision():
        (pl, vl), (pr, vr) = (independent_locus(sig, x, float_independent(x).p1)
                              for sig, x in ((left_sig, a), (right_sig, b)))
        change = left_sig[0] | right_sig[0] | (left_sig[1] ^ right_sig[1])
        evs = []
        for pt, sig, _value in ((pl, left_sig, vl), (pr, right_sig, vr)):
            conds = [(f"Banker at {infoset_label(g.infosets[k])}", P.B[k]) for k in sorted(change - sig[0])]
            conds += [("p1 > 0", P1), ("p1 < 1", ONE - P1), ("p2 > 0", P2), ("p2 < 1", ONE - P2)]
            # the maximiser starts to slide along a curve through it: V's derivative along
            # the curve vanishes, V as on either side of the other curves there
            values = [vl, vr] + [v + P.B[j] for v in (vl, vr) for j in sig[0]]
            conds += [(f"slide along {infoset_label(g.infosets[k])}",
                       v.derivative("p1") * P.B[k].derivative("p2") - v.derivative("p2") * P.B[k].derivative("p1"))
                      for k in sorted(sig[0]) for v in values]
            conds = [c for c in conds + pt.branch_conditions() if not c[1].is_constant()]
            evs += events(pt, conds, lo, hi, vanishing_ok=True)   # a slide along the curve it follows
        if pl != pr or vl != vr:
            evs += value_crossings(pl, vl, pr, vr, lo, hi, "the two forms' values equal (a jump)")
        mid = (a + b) / 2
        genuine = sorted((e for e in evs if e.genuine()),
                         key=lambda e: (round(abs(float(e.ball.mid()) - mid), 15), e.other is not None))
        if not genuine:
            return ExactEnd((a, b), None, "not identified")
        return ExactEnd((a, b), genuine[0].endpoint(), genuine[0].label)


def exact_ends(sw: IndependentSweep, progress: Callable[[int, int], None] | None = None) -> list[ExactEnd]:
    """:func:`exact_end` for every interval end of the sweep."""
    out = []
    for k, (left, right, br) in enumerate(zip(sw.intervals, sw.intervals[1:], sw.breaks)):
        out.append(exact_end(left.signature, right.signature, br))
        if progress:
            progress(k + 1, len(sw.breaks))
    return out
