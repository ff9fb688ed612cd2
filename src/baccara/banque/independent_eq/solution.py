"""Baccara banque: the independent cooperative equilibrium (Ethier and Lee 2015, section 4).

The Players form a coalition but choose independently: Player 1 draws at 5
with probability p1, Player 2 with p2.  Against Banker's best reply they
guarantee

    V(p1, p2) = A(p1, p2) + sum_i min(0, B_i(p1, p2)),

where A and every B_i (the Players' gain when Banker draws at i) are bilinear
in (p1, p2).  The *lower value* is max V over the unit square; the *upper
value* is min over Banker's mixed strategies of the Players' best reply, and
since a bilinear function is maximised at a corner, that best reply may as
well be correlated: the upper value is the correlated cooperative value.

Where the lower maximum lies.  Inside a cell of the arrangement of the curves
B_i = 0, V is bilinear, so (unless constant along a line) not maximal there;
on an edge of the square V is concave and piecewise linear in the free
coordinate, so maximal at a corner or where a curve crosses the edge; along a
curve B_i = 0 between crossings V is a fixed bilinear function of a point
moving on a hyperbola, maximal at a crossing or where its derivative
vanishes (a quadratic).  So the maximum is among: the corners, curve/edge
crossings, curve/curve crossings (roots of quadratics) and the critical points
along curves.  All are numbers r + s sqrt(D); the candidates are ranked in
floating point and every one within 1e-9 of the best is evaluated exactly.
That the best candidate is the global maximum, exactly, is proved separately
by :func:`~baccara.banque.independent_eq.proof.prove_lower_value`, which
would refute or fail to close a value a missed candidate exceeds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from ...algebraic import QuadraticNumber, quadratic_roots
from ...result import Result
from ...solve.arrangement import CORNERS, arrangement, curve_segments
from ...solve.arrangement import at as _at
from ...solve.arrangement import bilinear as _bilinear
from ...solve.arrangement import p2_on_curve as _p2_on_curve
from ...solve.sweep import rational_between
from ..correlated_eq.solution import CorrelatedSolution, correlated_equilibrium
from ..model import BanqueGame
from ..report import independent_renderables, independent_summary
from .bounds import MaximinBound, maximin_upper_bound
from .proof import ExactMaximinProof, prove_lower_value


@dataclass(frozen=True)
class IndependentSolution:
    """The independent cooperative equilibrium at theta: the Players' maximin (p1, p2),
    the lower value, the upper value (= the correlated cooperative value), and whether
    they differ (Ethier and Lee 2015, Proposition 1)."""

    theta: Fraction
    p1: QuadraticNumber
    p2: QuadraticNumber
    lower_value: QuadraticNumber
    upper_value: Fraction
    candidates: int
    correlated: CorrelatedSolution = field(compare=False)  # the upper value's game: Banker's minimax strategy
    ties: tuple[tuple[QuadraticNumber, QuadraticNumber], ...] = ()  # other points where V = the lower value

    @property
    def values_differ(self) -> bool:
        return self.lower_value != self.upper_value


def independent_equilibrium(game: BanqueGame, theta: Fraction) -> IndependentSolution:
    """The Players' maximin independent strategies and the lower and upper values at theta.

    Parameters
    ----------
    game : BanqueGame
        The game (:func:`~baccara.banque.model.banque_game`; ``banque_game()`` is the paper's
        infinite shoe).
    theta : Fraction
        Player 1's share of the total stake, in (0, 1).

    Returns
    -------
    IndependentSolution
        p1, p2 and the lower value exact in Q(sqrt D); the upper value (the correlated one).
    """
    g = game
    p1, p2, v, n, ties = _maximise(theta, g)
    corr = correlated_equilibrium(g, theta)
    return IndependentSolution(theta, p1, p2, v, corr.value, n, corr, ties)


def _maximise(theta: Fraction, g) -> tuple:
    """The maximiser of V = A + sum_i min(0, B_i) over the square, exactly: (p1, p2, V there, the
    number of candidates, the other candidates with the same value).  ``g`` needs only ``a``
    and ``h`` (the coefficients at theta, per joint pure strategy)."""
    base = _bilinear(g.a(theta))
    curves_all = [_bilinear(hi) for hi in g.h(theta)]
    corners = CORNERS
    fixed: Sequence[Fraction]
    relevant, fixed = [], list(base)
    for c in curves_all:
        vals = [_at(c, x, y) for x, y in corners]
        # a bilinear function's extremes on the square are at its corners
        if min(vals) < 0 < max(vals):
            relevant.append(c)
        elif max(vals) <= 0:
            fixed = [f + x for f, x in zip(fixed, c)]
    fixed = tuple(fixed)

    def value(p1, p2):
        return _at(fixed, p1, p2) + sum((min(0, _at(c, p1, p2)) for c in relevant), 0)

    arr = arrangement(relevant)
    cands: list[tuple] = arr.points()
    for x, c in enumerate(relevant):  # critical points along each curve
        if c[2] == 0 and c[3] == 0:
            continue  # a vertical line: V is piecewise linear along it
        for lo, hi in curve_segments(arr, x):
            mid = rational_between(lo, hi)
            p2m = _p2_on_curve(c, mid)
            if p2m is None or not (0 < p2m < 1):
                continue
            f = list(fixed)
            for y, d in enumerate(relevant):
                if y != x and _at(d, mid, p2m) < 0:
                    f = [a + b for a, b in zip(f, d)]
            c0, c1, c2, c3 = c
            f0, f1, f2, f3 = f
            # N(p1) = f1 s^2 - (f3 (c0 + c1 p1) + c1 (f2 + f3 p1)) s + c3 (f2 + f3 p1)(c0 + c1 p1), s = c2 + c3 p1
            s = (c2, c3)
            lin1 = (c0, c1)
            lin2 = (f2, f3)
            def mul(u, v):
                return (u[0] * v[0], u[0] * v[1] + u[1] * v[0], u[1] * v[1])
            ss = mul(s, s)
            t = (f3 * c0 + c1 * f2, 2 * f3 * c1)
            ts = mul(t, s)
            ll = mul(lin2, lin1)
            n = [f1 * ss[k] - ts[k] + c3 * ll[k] for k in range(3)]
            if n[0] == n[1] == n[2] == 0:
                continue
            for r in quadratic_roots(n[2], n[1], n[0]):
                if lo < r < hi:
                    p2 = _p2_on_curve(c, r)
                    if p2 is not None and 0 <= p2 <= 1:
                        cands.append((r, p2))
    # rank in floats, decide exactly among the best
    pts = np.array([[float(p1), float(p2)] for p1, p2 in cands])
    coef = np.array([[float(x) for x in c] for c in relevant]) if relevant else np.zeros((0, 4))
    feats = np.stack([np.ones(len(pts)), pts[:, 0], pts[:, 1], pts[:, 0] * pts[:, 1]])
    fv = np.array([float(x) for x in fixed]) @ feats + np.minimum(0, coef @ feats).sum(axis=0)
    top = fv.max()
    near = [k for k in range(len(cands)) if fv[k] >= top - 1e-9 * max(1.0, abs(top))]
    exact = [(QuadraticNumber.of(value(*cands[k])), k) for k in near]
    v, k = max(exact, key=lambda t: t[0])
    p1, p2 = cands[k]
    # every other candidate point with exactly the same value (the proof closes each one)
    ties = {(QuadraticNumber.of(cands[j][0]), QuadraticNumber.of(cands[j][1])) for w, j in exact if w == v}
    ties.discard((QuadraticNumber.of(p1), QuadraticNumber.of(p2)))
    return QuadraticNumber.of(p1), QuadraticNumber.of(p2), v, len(cands), tuple(sorted(ties))


@dataclass(frozen=True, repr=False)
class IndependentResult(Result):
    """The independent cooperative equilibrium at theta with the proof of its lower value and
    Banker's minimax strategy (the correlated one): a :class:`~baccara.result.Result`.

    ``proof``: the exact proof (:func:`~baccara.banque.independent_eq.proof.prove_lower_value`);
    ``bound``: the branch and bound to within 1e-10, run only when the exact proof is
    inconclusive (None otherwise)."""

    solution: IndependentSolution
    proof: ExactMaximinProof
    bound: MaximinBound | None = None

    @property
    def lower_value_proved(self) -> str:
        """"exact" (no margin), "within 1e-10" (the exact proof was inconclusive, the
        branch and bound with a margin holds) or "no"."""
        if self.proof.holds:
            return "exact"
        if self.bound is not None and self.bound.holds and self.proof.status != "refuted":
            return f"within {self.bound.eps:g}"
        return "no"

    def to_json(self) -> dict:
        """The ``baccara banque solve --concept independent --json`` document (keys in the user guide)."""
        ind, proof, bound = self.solution, self.proof, self.bound
        corr = self.solution.correlated.to_json()
        proved = self.lower_value_proved
        if proved == "exact" or bound is None:
            check = {"status": {"proved": "holds"}.get(proof.status, proof.status), "margin": 0,
                     "boxes": proof.boxes, "exact": True,
                     "method": "exact: V(p1, p2) equals the lower value; around (p1, p2) a rectangle cut into "
                               "quarters at it, each closed by a Banker mixture at the curves through (p1, p2) "
                               "whose bilinear bound is at most the lower value at the quarter's corners; the rest "
                               "of the square by a branch and bound, every box's bound at most the lower value in "
                               "exact arithmetic: no (p1, p2) guarantees more than the lower value"}
        else:
            check = {"status": bound.status, "margin": bound.eps, "boxes": bound.boxes, "exact": bound.exact,
                     "method": "branch and bound over the square, independent of the candidate search, every box's "
                               "bound rechecked in exact arithmetic: no (p1, p2) guarantees more than the lower "
                               "value + margin (the exact proof was inconclusive: see certificate)"}
        check["certificate"] = proof.to_json()
        return {"theta": corr["theta"], "concept": "independent", "model": "simplified", "shoe": corr["shoe"],
                "players": {"p1": {"exact": str(ind.p1), "float": float(ind.p1)},
                            "p2": {"exact": str(ind.p2), "float": float(ind.p2)}},
                "lower_value": {"exact": str(ind.lower_value), "float": float(ind.lower_value)},
                "lower_value_proved": proved,
                "upper_value": {"exact": corr["value"], "float": corr["value_float"]},
                "values_differ": ind.values_differ,
                "banker": {"mixed": corr["banker"]["mixed"], "note": "Banker's minimax strategy is the correlated one"},
                "expectations": {"players": str(ind.lower_value), "banker": str(-ind.lower_value)},
                "candidates_checked": ind.candidates,
                "maximin_check": check}

    def summary(self) -> str:
        """One line: theta and the concept."""
        return independent_summary(self.to_json())

    def renderables(self) -> list:
        """p1, p2, the lower and upper values and the proof."""
        return independent_renderables(self.to_json())


def solve_independent(game: BanqueGame, theta: Fraction) -> IndependentResult:
    """The independent cooperative equilibrium, its lower value proved exactly.

    The candidate search gives (p1, p2) and the lower value; the proof, independent of that
    search but for the point it closes around, shows no (p1, p2) guarantees more (no margin).
    Where the exact proof is inconclusive, the branch and bound to within 1e-10 runs instead.

    Parameters
    ----------
    game : BanqueGame
        The game (:func:`~baccara.banque.model.banque_game`; ``banque_game()`` is the paper's
        infinite shoe).
    theta : Fraction
        Player 1's share of the total stake, in (0, 1).

    Returns
    -------
    IndependentResult
        The maximin (p1, p2), both values, Banker's minimax strategy and the proof.
    """
    g = game
    ind = independent_equilibrium(g, theta)
    proof = prove_lower_value(theta, ind.lower_value, (ind.p1, ind.p2), ind.ties, game=g)
    bound = None if proof.status != "inconclusive" else maximin_upper_bound(theta, ind.lower_value, game=g)
    return IndependentResult(ind, proof, bound)
