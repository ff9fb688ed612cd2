"""An upper bound of baccara banque's independent (maximin) value over the square of strategies, by boxes.

Float bounds of V over boxes of (p1, p2) close every box below the claimed value plus a margin; the boxes
left small are bounded by the mixed forms, and the closing boxes are rechecked exactly.  Shared by the
solver (:mod:`.solution`, the margin eps) and the exact proof (:mod:`.proof`, no margin), so neither
imports the other's internals.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from scipy import sparse
from scipy.optimize import linprog

from ...algebraic import QuadraticNumber
from ...solve.arrangement import bilinear as _bilinear
from ..model import BanqueGame, banque_game


@dataclass(frozen=True)
class MaximinBound:
    """A check of the lower value, independent of the candidate search: ``status`` is
    "holds" (no (p1, p2) guarantees the Players more than value + eps), "refuted"
    (``witness`` guarantees more) or "inconclusive" (the boxes ran out).  ``exact``: the
    bound on every box was rechecked in exact rational arithmetic."""

    value: float
    eps: float
    boxes: int
    status: str
    witness: tuple[float, float] | None = None
    exact: bool = False

    @property
    def holds(self) -> bool:
        return self.status == "holds"


def maximin_upper_bound(theta: Fraction, value, eps: Fraction = Fraction(1, 10**10), max_depth: int = 48,
                        max_boxes: int = 100_000, game: BanqueGame | None = None) -> MaximinBound:
    """Branch and bound over the unit square, independent of the arrangement search.

    For any Banker behavioural strategy q in [0, 1]^n, min(0, B_i) <= q_i B_i, so
    V = A + sum_i min(0, B_i) <= A + sum_i q_i B_i, a bilinear function whose maximum over
    a box is at a corner.  First q = 1 where Banker draws at the box's centre (0
    elsewhere); when that bound exceeds ``value + eps`` on a box of side at most 2^-6, q
    is also chosen by a small LP, the best such bound: Banker mixes at the sets whose
    B_i changes sign on the box.  Near the maximiser V has a kink along each curve
    B_i = 0, which the pure bound overestimates in proportion to the box's side, the
    mixed bound only in proportion to its square: as theta -> 0 or 1, where V is nearly
    flat in one direction, only the latter closes the boxes (at theta = 1/10**6 the pure
    bound alone ran out of boxes).  Boxes left open are split in four, and V itself at
    their centres may refute the value.  The search runs in floating point; when it
    closes every box, each closed box's bound (its q, exactly the float's dyadic
    rationals, and its dyadic corners) is recomputed in exact arithmetic against the
    exact ``value`` (a Fraction or QuadraticNumber) + eps, so "holds" is then a proof.

    Parameters
    ----------
    theta : Fraction
        Player 1's share of the total stake, in (0, 1).
    value : Fraction or QuadraticNumber
        The claimed lower value.
    eps : Fraction
        The margin: "holds" proves that no (p1, p2) guarantees more than value + eps.
    max_depth, max_boxes : int
        Limits of the search; when reached, the status is "inconclusive".
    game : BanqueGame, optional
        The game (default: the paper's infinite shoe).

    Returns
    -------
    MaximinBound
        The search's outcome.
    """
    g = game or banque_game()
    v, e = float(value), float(eps)
    A = np.array([float(x) for x in _bilinear(g.a(theta))])
    C = np.array([[float(x) for x in _bilinear(h)] for h in g.h(theta)])
    boxes = np.array([[0.0, 0.0, 1.0]])          # (x0, y0, side)
    closed: list[tuple[np.ndarray, np.ndarray]] = []
    examined = 0
    for _ in range(max_depth):
        examined += len(boxes)
        parts = [_box_bounds(A, C, boxes[k:k + 4096]) for k in range(0, len(boxes), 4096)]
        ub = np.concatenate([p[0] for p in parts])
        at_centre = np.concatenate([p[1] for p in parts])
        draws = np.concatenate([p[2] for p in parts])
        if at_centre.max() > v + e:
            k = int(np.argmax(at_centre))
            x0, y0, side = boxes[k]
            return MaximinBound(v, e, examined, "refuted", (x0 + side / 2, y0 + side / 2))
        shut = ub <= v + e
        closed.append((boxes[shut], draws[shut]))
        small = np.nonzero(~shut & (boxes[:, 2] <= MIXED_SIDE))[0]
        for k in range(0, len(small), 1024):
            idx = small[k:k + 1024]
            bound, q = _mixed_bounds(A, C, boxes[idx])
            ok = bound <= v + e
            closed.append((boxes[idx[ok]], q[ok]))
            shut[idx[ok]] = True
        open_ = boxes[~shut]
        if len(open_) == 0:
            exact = _exact_recheck(theta, closed, value, Fraction(eps), g)
            return MaximinBound(v, e, examined, "holds" if exact else "inconclusive", exact=exact)
        if 4 * len(open_) > max_boxes:
            break
        h = open_[:, 2] / 2
        boxes = np.concatenate([np.stack([open_[:, 0] + dx * h, open_[:, 1] + dy * h, h], axis=1)
                                for dx in (0, 1) for dy in (0, 1)])
    return MaximinBound(v, e, examined, "inconclusive")


#: The largest box side on which the branch and bound tries Banker's mixed bound (an LP).
MIXED_SIDE = 2.0**-6


def _mixed_bounds(A: np.ndarray, C: np.ndarray, boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """min over Banker's q of max over each box's corners of A + sum_i q_i B_i, in floats:
    (the bound per box, q per box and set).  q_i = 1 where B_i <= 0 on the whole box, 0
    where B_i >= 0; the sets where B_i changes sign (at the corners, since B_i is bilinear)
    get q_i from the LP  min t  s.t.  A(c) + sum_i q_i B_i(c) <= t  at the four corners c,
    each box's LP scaled by the size of its free B_i, all boxes' LPs solved as one."""
    x0, y0, s = boxes[:, 0], boxes[:, 1], boxes[:, 2]
    xs = np.stack([x0, x0, x0 + s, x0 + s], axis=1)                           # boxes x corners
    ys = np.stack([y0, y0 + s, y0, y0 + s], axis=1)
    feats = np.stack([np.ones_like(xs), xs, ys, xs * ys], axis=1)              # boxes x 4 x corners
    at = np.einsum("sf,bfc->bsc", C, feats)                                    # boxes x sets x corners
    lo, hi = at.min(axis=2), at.max(axis=2)
    q = (hi <= 0).astype(float)
    base = np.einsum("f,bfc->bc", A, feats) + np.einsum("bs,bsc->bc", q, at)  # boxes x corners
    box_of, sets = np.nonzero((lo < 0) & (hi > 0))
    if len(box_of):
        nb = len(boxes)
        coef = at[box_of, sets]                                                 # free pairs x corners
        scale = np.zeros(nb)
        np.maximum.at(scale, box_of, np.abs(coef).max(axis=1))
        scale[scale == 0] = 1.0
        nf = len(box_of)
        # variables: q for each free (box, set) pair, then t per box; rows: (box, corner)
        rows = np.concatenate([box_of * 4 + c for c in range(4)] + [np.arange(4 * nb)])
        cols = np.concatenate([np.arange(nf)] * 4 + [nf + np.arange(4 * nb) // 4])
        vals = np.concatenate([coef[:, c] / scale[box_of] for c in range(4)] + [-np.ones(4 * nb)])
        a_ub = sparse.csr_matrix((vals, (rows, cols)), shape=(4 * nb, nf + nb))
        b_ub = (-(base - base.max(axis=1, keepdims=True)) / scale[:, None]).ravel()
        cost = np.concatenate([np.zeros(nf), np.ones(nb)])
        res = linprog(cost, A_ub=a_ub, b_ub=b_ub, bounds=[(0, 1)] * nf + [(None, None)] * nb, method="highs")
        if res.status == 0:
            q[box_of, sets] = np.clip(res.x[:nf], 0.0, 1.0)
    bound = (np.einsum("f,bfc->bc", A, feats) + np.einsum("bs,bsc->bc", q, at)).max(axis=1)
    return bound, q


def _exact_recheck(theta: Fraction, closed, value, eps: Fraction, game: BanqueGame | None = None) -> bool:
    """Every closed box's bound, exactly: the coefficients of A + sum_i q_i B_i (integers
    over the game's denominator times den(theta), times the dyadic q_i) at the box's dyadic corners, against
    value + eps.  ``closed`` holds (boxes, q) pairs, q boolean (Banker draws or stands) or
    float in [0, 1] (his mixed strategy), one row per box."""
    g = game or banque_game()
    den = theta.denominator

    def ints(v) -> list[int]:
        return [int(x * den * g.denominator) for x in _bilinear(v)]

    A = np.array(ints(g.a(theta)), dtype=object)
    C = np.array([ints(h) for h in g.h(theta)], dtype=object)
    bound = QuadraticNumber.of(value) + eps
    scale = den * g.denominator
    for boxes, draws in closed:
        for (x0, y0, side), q in zip(boxes, draws):
            if not 0 <= q.min() <= q.max() <= 1:
                return False
            ones = q == 1
            f = A + C[ones].sum(axis=0) if ones.any() else A
            f = [Fraction(int(x)) for x in f]
            for i in np.nonzero((q > 0) & (q < 1))[0]:
                w = Fraction(float(q[i]))                                   # exactly the float
                f = [x + w * int(c) for x, c in zip(f, C[i])]
            best = max(f[0] + f[1] * x + f[2] * y + f[3] * x * y
                       for x in (Fraction(x0), Fraction(x0) + Fraction(side))
                       for y in (Fraction(y0), Fraction(y0) + Fraction(side)))
            if QuadraticNumber.of(best / scale) > bound:
                return False
    return True


def _box_bounds(A: np.ndarray, C: np.ndarray, boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(the bilinear upper bound of V on each box (x0, y0, side), Banker drawing where he
    does at its centre; V at the centre; those draws, boxes x sets)."""
    x0, y0, s = boxes[:, 0], boxes[:, 1], boxes[:, 2]
    cx, cy = x0 + s / 2, y0 + s / 2
    feats = np.stack([np.ones_like(cx), cx, cy, cx * cy])
    vals = C @ feats                                                           # sets x boxes
    draw = vals < 0
    centre = A @ feats + np.minimum(vals, 0).sum(axis=0)
    f = A[None, :] + draw.T.astype(float) @ C                                 # boxes x 4
    ub = np.full(len(boxes), -np.inf)
    for dx in (0.0, 1.0):
        for dy in (0.0, 1.0):
            px, py = x0 + dx * s, y0 + dy * s
            ub = np.maximum(ub, f[:, 0] + f[:, 1] * px + f[:, 2] * py + f[:, 3] * px * py)
    return ub, centre, draw.T
