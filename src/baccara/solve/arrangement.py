"""Banker's indifference curves in the Players' unit square (Ethier and Lee 2015, sections 4-5).

When Player 1 draws at 5 with probability p1 and Player 2, independently,
with p2, every payoff coefficient of the simplified banque game is a
*bilinear* function of (p1, p2): with v = (v_SS, v_SD, v_DS, v_DD),

    sum_u pi_u v_u = c0 + c1 p1 + c2 p2 + c3 p1 p2,
    c0 = v_SS, c1 = v_DS - v_SS, c2 = v_SD - v_SS, c3 = v_SS - v_SD - v_DS + v_DD.

Banker is indifferent at information set i on the curve B_i(p1, p2) = 0 (a
hyperbola branch or a line).  Both the independent cooperative and the Nash
equilibrium are found among the points of the arrangement of these curves:
corners, curve/edge crossings (rational) and curve/curve crossings (roots of
a quadratic: numbers r + s sqrt(D), exact as
:class:`~baccara.algebraic.QuadraticNumber`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from ..algebraic import QuadraticNumber, quadratic_roots

Bilinear = tuple[Fraction, Fraction, Fraction, Fraction]  # c0 + c1 p1 + c2 p2 + c3 p1 p2
CORNERS = tuple((Fraction(x), Fraction(y)) for x in (0, 1) for y in (0, 1))


def bilinear(v: Sequence) -> Bilinear:
    """Coefficients of sum_u pi_u v_u, pi over SS, SD, DS, DD for independent p1, p2."""
    ss, sd, ds, dd = v
    return (ss, ds - ss, sd - ss, ss - sd - ds + dd)


def at(c: Sequence[Fraction | int], p1, p2):
    return c[0] + c[1] * p1 + c[2] * p2 + c[3] * p1 * p2


def p2_on_curve(c: Bilinear, p1):
    """p2 with B(p1, p2) = 0, or None where the curve is vertical or absent."""
    den = c[2] + c[3] * p1
    return None if den == 0 else -(c[0] + c[1] * p1) / den


def crosses_square(c: Bilinear) -> bool:
    """Does the curve B = 0 meet the closed unit square (B not identically zero)?  A
    bilinear function's extremes on the square are at its corners."""
    if not any(c):
        return False
    vals = [at(c, x, y) for x, y in CORNERS]
    return min(vals) <= 0 <= max(vals)


@dataclass
class Arrangement:
    """The relevant curves and the arrangement's points in the closed square.

    ``edge_points``: curve/edge crossings as (p1, p2, curve); ``crossings``:
    curve/curve crossings as (p1, p2, curve a, curve b); ``on_curve[k]``: the
    p1 of every point found on curve k (to cut it into segments).
    """

    curves: list[Bilinear]
    edge_points: list[tuple] = field(default_factory=list)
    crossings: list[tuple] = field(default_factory=list)
    on_curve: dict[int, list] = field(default_factory=dict)

    def points(self) -> list[tuple]:
        """Corners, then curve/edge, then curve/curve points, as (p1, p2)."""
        return list(CORNERS) + [(a, b) for a, b, *_ in self.edge_points] + [(a, b) for a, b, *_ in self.crossings]


def arrangement(curves: list[Bilinear]) -> Arrangement:
    """Every curve/edge and curve/curve crossing in the closed unit square, exactly."""
    out = Arrangement(curves, on_curve={k: [] for k in range(len(curves))})
    p1: Fraction | QuadraticNumber
    for k, c in enumerate(curves):
        for p1 in (Fraction(0), Fraction(1)):
            a0, a1 = c[0] + c[1] * p1, c[2] + c[3] * p1
            if a1 != 0 and 0 <= -a0 / a1 <= 1:
                out.edge_points.append((p1, -a0 / a1, k))
                out.on_curve[k].append(p1)
        for p2 in (Fraction(0), Fraction(1)):
            a0, a1 = c[0] + c[2] * p2, c[1] + c[3] * p2
            if a1 != 0 and 0 <= -a0 / a1 <= 1:
                out.edge_points.append((-a0 / a1, p2, k))
                out.on_curve[k].append(-a0 / a1)
    for x, y in _maybe_crossing(curves):
        ci, cj = curves[x], curves[y]
        k2 = ci[1] * cj[3] - cj[1] * ci[3]
        k1 = ci[0] * cj[3] + ci[1] * cj[2] - cj[0] * ci[3] - cj[1] * ci[2]
        k0 = ci[0] * cj[2] - cj[0] * ci[2]
        if k0 == k1 == k2 == 0:
            continue
        for p1 in quadratic_roots(k2, k1, k0):
            if not (0 <= p1 <= 1):
                continue
            p2 = p2_on_curve(ci, p1)
            if p2 is None:
                p2 = p2_on_curve(cj, p1)
            if p2 is None or not (0 <= p2 <= 1):
                continue
            out.crossings.append((p1, p2, x, y))
            out.on_curve[x].append(p1)
            out.on_curve[y].append(p1)
    return out


def _maybe_crossing(curves: list[Bilinear]) -> list[tuple[int, int]]:
    """The pairs of curves that may cross in the square, screened in floating point: the
    quadratic in p1 of each pair, kept unless clearly without a real root in [0, 1]
    (margins far above the rounding error; every kept pair is then solved exactly)."""
    import numpy as np

    n = len(curves)
    if n < 2:
        return []
    C = np.array([[float(v) for v in c] for c in curves])
    ii, jj = np.triu_indices(n, 1)
    ci, cj = C[ii], C[jj]
    k2 = ci[:, 1] * cj[:, 3] - cj[:, 1] * ci[:, 3]
    k1 = ci[:, 0] * cj[:, 3] + ci[:, 1] * cj[:, 2] - cj[:, 0] * ci[:, 3] - cj[:, 1] * ci[:, 2]
    k0 = ci[:, 0] * cj[:, 2] - cj[:, 0] * ci[:, 2]
    big = np.maximum(np.maximum(np.abs(k2), np.abs(k1)), np.abs(k0)) + 1e-300
    disc = k1 * k1 - 4 * k2 * k0
    real = disc >= -1e-9 * big * big
    sq = np.sqrt(np.maximum(disc, 0))
    q = -0.5 * (k1 + np.copysign(sq, k1))
    with np.errstate(divide="ignore", invalid="ignore"):
        r1 = np.where(np.abs(k2) > 1e-9 * big, q / k2, np.where(k1 != 0, -k0 / k1, np.nan))
        r2 = np.where(q != 0, k0 / q, np.nan)
    inside = lambda r: (r > -1e-6) & (r < 1 + 1e-6)  # noqa: E731
    # near-degenerate quadratics (tiny leading or linear terms) are always kept
    keep = real & (inside(r1) | inside(r2) | (np.abs(k2) <= 1e-9 * big) | (np.abs(q) <= 1e-9 * big))
    return [(int(a), int(b)) for a, b in zip(ii[keep], jj[keep])]


def curve_segments(arr: Arrangement, k: int) -> list[tuple[QuadraticNumber, QuadraticNumber]]:
    """Curve k's p1-intervals between consecutive arrangement points (non-vertical curves)."""
    cuts = sorted({QuadraticNumber.of(0), QuadraticNumber.of(1)} | {QuadraticNumber.of(v) for v in arr.on_curve[k]})
    return list(zip(cuts, cuts[1:]))
