"""The independent cooperative equilibrium's lower value, proved exactly (Ethier and Lee 2015, section 4).

:func:`baccara.banque.independent_eq.bounds.maximin_upper_bound` proves that no
(p1, p2) guarantees the Players more than the lower value + eps: near the
maximiser p* every bilinear bound exceeds V(p*), so no finite cover of boxes
closes with eps = 0.  :func:`prove_lower_value` closes it exactly.

The argument.  For any Banker behavioural strategy q in [0, 1]^n,

    V(p) = A(p) + sum_i min(0, B_i(p)) <= W_q(p) = A(p) + sum_i q_i B_i(p),

a bilinear function, maximal over a rectangle at one of its corners.  Cut a
small rectangle L around p* into four at p*: each quarter has p* as a corner.
Take q_i = 1 where B_i(p*) < 0, q_i = 0 where B_i(p*) > 0 (so W_q(p*) = V(p*)),
and q_i free in [0, 1] at the sets S whose curves pass through p*.  If some
such q has W_q <= V* at the quarter's four corners, V <= V* on the quarter.
Along an edge of the quarter W_q is linear, so the conditions at the two
corners next to p* say that W_q's partial derivatives at p* point out of the
quarter (a Banker mixture over S that makes p* a local maximum in that
direction: first-order optimality of a minimum of bilinear functions); the
far corner's condition is second order and holds once L is small.  Where p*
is a critical point along one curve, q at S is the multiplier that makes W_q's
gradient vanish there (exact, in Q(sqrt D)) and the far corner's condition is
the second-order condition along the curve.  Outside L the branch and bound
of :func:`~baccara.banque.independent_eq.bounds.maximin_upper_bound` closes
dyadic boxes with the bound <= V* (no eps), every box rechecked in exact
arithmetic.  With V(p*) = V* exactly, the lower value is V*, no margin.

The certificate can fail: a claimed value below V(p*) (by 1e-30, say) fails at
the corner p* of every quarter, whatever q.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction
from math import floor, gcd

import numpy as np
from scipy.optimize import linprog

from ...algebraic import QuadraticNumber
from ...errors import ParameterError
from ...solve.arrangement import at as _at
from ...solve.arrangement import bilinear as _bilinear
from ...solve.linalg import eliminate
from ..model import BanqueGame, banque_game, infoset_label
from .bounds import MIXED_SIDE, _box_bounds, _exact_recheck, _mixed_bounds

Number = Fraction | QuadraticNumber

#: The finest level of the rectangle L around the maximiser tried (side 3 * 2^-level).
MAX_LEVEL = 40


@dataclass(frozen=True)
class Quarter:
    """One quarter of the rectangle around the maximiser, with p* as a corner: the corners
    ``x`` (p1 from p1* to x) and ``y``, Banker's mixture ``q`` at the sets whose curves pass
    through p*, and ``slack``: value - W_q at the three other corners (each >= 0, exactly)."""

    x: Fraction
    y: Fraction
    q: dict[int, Number]
    slack: tuple[Number, Number, Number]


@dataclass(frozen=True)
class LocalCertificate:
    """V <= value on the rectangle ``box`` = ((x0, x1), (y0, y1)) around ``point``: one
    :class:`Quarter` for each nondegenerate quarter; ``through``: the sets whose curves pass
    through the point; ``level``: box side 3 * 2^-level (clipped to the square)."""

    point: tuple[Number, Number]
    box: tuple[tuple[Fraction, Fraction], tuple[Fraction, Fraction]]
    level: int
    through: tuple[int, ...]
    quarters: tuple[Quarter, ...]


@dataclass(frozen=True)
class ExactMaximinProof:
    """The outcome of :func:`prove_lower_value`.  ``status``: "proved" (max over the square of
    V = ``value`` exactly: V(point) = value and V <= value everywhere), "refuted" (``witness``
    guarantees more than ``value``) or "inconclusive".  ``boxes``: boxes examined by the branch
    and bound outside the local rectangles, ``closed``: those closed with their bound rechecked
    exactly; ``local``: the certificates around the maximisers; ``cover``: the closed boxes
    themselves, as (boxes, q) array pairs, each row (x0, y0, side) with Banker's q per set
    (boolean: he draws or stands; float: his mixture), for the artefact
    (:mod:`~baccara.banque.independent_eq.artefact`); ``seconds``: wall time."""

    theta: Fraction
    value: Number
    point: tuple[Number, Number]
    status: str
    boxes: int = 0
    closed: int = 0
    local: tuple[LocalCertificate, ...] = ()
    witness: tuple[Number, Number] | None = None
    reason: str = ""
    seconds: float = 0.0
    cover: tuple = field(default=(), compare=False, repr=False)

    @property
    def holds(self) -> bool:
        return self.status == "proved"

    def to_json(self) -> dict:
        """The certificate as JSON: the local rectangles with Banker's mixtures, the box count
        (``outcome`` is the status, under a key of its own so that an inconclusive exact proof
        beside a margin proof that holds is not read as a failed check)."""
        labels = banque_game().infosets

        def s(x) -> str:
            return str(QuadraticNumber.of(x))

        return {
            "outcome": self.status,
            "value": s(self.value),
            "point": [s(self.point[0]), s(self.point[1])],
            "margin": 0,
            "boxes": self.boxes,
            "boxes_closed_exactly": self.closed,
            "local": [{
                "point": [s(c.point[0]), s(c.point[1])],
                "rectangle": {"p1": [s(c.box[0][0]), s(c.box[0][1])], "p2": [s(c.box[1][0]), s(c.box[1][1])]},
                "curves_through_point": [infoset_label(labels[i]) for i in c.through],
                "quarters": [{"p1": [s(c.point[0]), s(qu.x)], "p2": [s(c.point[1]), s(qu.y)],
                              "banker_mix": {infoset_label(labels[i]): s(v) for i, v in qu.q.items()},
                              "slack_at_corners": [s(v) for v in qu.slack]} for qu in c.quarters],
            } for c in self.local],
            "witness": None if self.witness is None else [s(self.witness[0]), s(self.witness[1])],
            "reason": self.reason,
            "seconds": round(self.seconds, 3),
        }


def _exact_coefficients(theta: Fraction, game: BanqueGame):
    return _bilinear(game.a(theta)), [_bilinear(h) for h in game.h(theta)]


def _signs(C, p1: Number, p2: Number) -> list[int]:
    """The sign of every B_i at (p1, p2) in Q(sqrt D), exactly, in integer arithmetic: with
    p_k = r_k + s_k sqrt(D), B_i = x_i + y_i sqrt(D) (x_i, y_i over one denominator)."""
    a, b = QuadraticNumber.of(p1), QuadraticNumber.of(p2)
    d = max(a.d, b.d)
    xs = [Fraction(1), a.r, b.r, a.r * b.r + a.s * b.s * d]
    ys = [Fraction(0), a.s, b.s, a.r * b.s + a.s * b.r]
    den = 1
    for v in xs + ys:
        den = den * v.denominator // gcd(den, v.denominator)
    for c in C:
        for v in c:
            den = den * v.denominator // gcd(den, v.denominator)
    xi = [int(v * den) for v in xs]
    yi = [int(v * den) for v in ys]
    out = []
    for c in C:
        ci = [int(v * den) for v in c]
        x = sum(u * w for u, w in zip(ci, xi))
        y = sum(u * w for u, w in zip(ci, yi))
        sx, sy = (x > 0) - (x < 0), (y > 0) - (y < 0)
        if sx == sy or sy == 0:
            out.append(sx)
        elif sx == 0:
            out.append(sy)
        else:                                               # opposite signs: compare x^2 with y^2 D
            big = (x * x > y * y * d) - (x * x < y * y * d)
            out.append(sx * big)
    return out


def _v(A, C, p1: Number, p2: Number) -> Number:
    """V(p1, p2) exactly: A + the B_i where Banker draws (B_i < 0)."""
    f = list(A)
    for c, sg in zip(C, _signs(C, p1, p2)):
        if sg < 0:
            f = [u + w for u, w in zip(f, c)]
    return QuadraticNumber.of(_at(f, QuadraticNumber.of(p1), QuadraticNumber.of(p2)))


def local_certificate(A, C, point: tuple[Number, Number], value: Number, level: int) -> LocalCertificate | None:
    """The certificate that V <= value on the rectangle of side about 3 * 2^-level around
    ``point`` (see the module's docstring), or None when no Banker mixture closes some quarter.

    Parameters
    ----------
    A : tuple of Fraction
        The Players' bilinear gain when Banker stands everywhere, c0 + c1 p1 + c2 p2 + c3 p1 p2.
    C : list of tuple of Fraction
        Each information set's bilinear gain B_i when Banker draws there.
    point : tuple of Fraction or QuadraticNumber
        The maximiser p* in the closed unit square.
    value : Fraction or QuadraticNumber
        The claimed lower value.
    level : int
        The rectangle is the 3 x 3 block of dyadic cells of side 2^-level around the point.

    Returns
    -------
    LocalCertificate or None
        Every quarter's Banker mixture and its exact slacks, or None.
    """
    p1, p2 = (QuadraticNumber.of(x) for x in point)
    side = Fraction(1, 2**level)

    def span(x: QuadraticNumber) -> tuple[Fraction, Fraction]:
        i = floor(float(x) / side)
        while i * side > x:
            i -= 1
        while (i + 1) * side < x:
            i += 1
        return max(Fraction(0), (i - 1) * side), min(Fraction(1), (i + 2) * side)

    box = (span(p1), span(p2))
    through, fixed = [], list(A)
    for i, (c, b) in enumerate(zip(C, _signs(C, p1, p2))):
        if b == 0:
            through.append(i)
        elif b < 0:
            fixed = [f + x for f, x in zip(fixed, c)]
    quarters = []
    for x in box[0]:
        for y in box[1]:
            if x == p1 or y == p2:
                continue                                 # p* on the square's edge: no quarter there
            qu = _quarter(fixed, [C[i] for i in through], through, (p1, p2), (x, y), value)
            if qu is None:
                return None
            quarters.append(qu)
    return LocalCertificate((p1, p2), box, level, tuple(through), tuple(quarters))


def _quarter(F, Bs, through, p, far, value) -> Quarter | None:
    """Banker's mixture q at the sets through p that puts W_q = F + sum q_i B_i <= value at
    the corners of the rectangle spanned by p and ``far``, checked exactly; None if not found."""
    (p1, p2), (x, y) = p, far
    corners = [(p1, p2), (x, p2), (p1, y), (x, y)]
    f_at = [_at(F, a, b) - value for a, b in corners]      # exact
    b_at = [[_at(c, a, b) for a, b in corners] for c in Bs]
    if f_at[0] > 0:
        return None                                        # V(p) > value: nothing closes this
    m = len(Bs)
    tries: list[list[Number]] = []
    if m == 0:
        tries.append([])
    else:
        ff = np.array([float(v) for v in f_at[1:]])
        bb = np.array([[float(v) for v in row[1:]] for row in b_at])          # sets x corners
        norm = np.maximum(np.abs(bb).max(axis=0), np.abs(ff)) + 1e-300
        # max t  s.t.  (f(c) + sum_i q_i b_i(c)) / norm(c) + t <= 0 at the three corners
        res = linprog(np.r_[np.zeros(m), -1.0], A_ub=np.c_[(bb / norm).T, np.ones(3)], b_ub=-ff / norm,
                      bounds=[(0, 1)] * m + [(None, 1)], method="highs")
        if res.status != 0:
            return None
        qf = np.clip(res.x[:m], 0.0, 1.0)
        tries.append([Fraction(round(v * 2**40), 2**40) for v in qf])
        exact = _active_solution(f_at[1:], [row[1:] for row in b_at], qf, norm)
        if exact is not None:
            tries.append(exact)
    for q in tries:
        if not all(0 <= v <= 1 for v in q):
            continue
        slack = [-(f + sum((qi * row[k] for qi, row in zip(q, b_at)), Fraction(0))) for k, f in enumerate(f_at)]
        if all(s >= 0 for s in slack):
            return Quarter(x, y, {i: _simplest(v) for i, v in zip(through, q)}, tuple(slack[1:]))
    return None


def _simplest(x: Number) -> Number:
    return x.r if isinstance(x, QuadraticNumber) and x.s == 0 else x


def _active_solution(f_at, b_at, qf, norm) -> list[Number] | None:
    """q from the float LP's active set, exactly: the q_i at a bound set to it, the rest solving
    the corners' constraints that are tight (f(c) + sum_i q_i b_i(c) = 0); free directions
    keep the float's dyadic value."""
    m = len(qf)
    tight = [k for k in range(len(f_at))
             if -(float(f_at[k]) + float(np.dot(qf, [float(r[k]) for r in b_at]))) <= 1e-9 * norm[k]]
    q: list[Number | None] = [None] * m
    for i, v in enumerate(qf):
        if v <= 1e-9:
            q[i] = Fraction(0)
        elif v >= 1 - 1e-9:
            q[i] = Fraction(1)
    free = [i for i in range(m) if q[i] is None]
    # rows: sum_{i free} b_i(c) q_i = -(f(c) + sum_{i fixed} b_i(c) q_i)
    rows: list[list[QuadraticNumber]] = []
    rhs_col: list[QuadraticNumber] = []
    for k in tight:
        rhs = -(f_at[k] + sum((q[i] * b_at[i][k] for i in range(m) if q[i] is not None), Fraction(0)))
        rows.append([QuadraticNumber.of(b_at[i][k]) for i in free])
        rhs_col.append(QuadraticNumber.of(rhs))
    sol = eliminate(rows, rhs_col, len(free))
    for j, i in enumerate(free):
        q[i] = sol[j] if sol is not None and sol[j] is not None else Fraction(round(float(qf[i]) * 2**40), 2**40)
    return [QuadraticNumber.of(v) if v is not None else QuadraticNumber.of(0) for v in q]


def prove_lower_value(theta: Fraction, value: Number, point: tuple[Number, Number],
                      others: tuple[tuple[Number, Number], ...] = (), max_depth: int = 48,
                      max_boxes: int = 200_000, game: BanqueGame | None = None) -> ExactMaximinProof:
    """Prove that the lower value at theta is exactly ``value``, attained at ``point``.

    V(point) = value is checked exactly.  Around ``point`` (and each of ``others``, further
    maximisers) a :func:`local_certificate` closes a small rectangle; the rest of the square
    is covered by the branch and bound of
    :func:`~baccara.banque.independent_eq.bounds.maximin_upper_bound` with no margin, every
    closed box's bilinear bound rechecked <= value in exact arithmetic.  Where no local
    certificate closes around a point (the value is wrong, or the point is no maximiser), the
    branch and bound still searches, briefly (4000 boxes), for a point that refutes the value.

    Parameters
    ----------
    theta : Fraction
        Player 1's share of the total stake, in (0, 1).
    value : Fraction or QuadraticNumber
        The claimed lower value.
    point : tuple of Fraction or QuadraticNumber
        The claimed maximiser (p1, p2) in the closed unit square.
    others : tuple of points, optional
        Further maximisers, each closed by its own local certificate.
    max_depth, max_boxes : int
        Limits of the branch and bound; when reached, the status is "inconclusive".
    game : BanqueGame, optional
        The game (default: the paper's infinite shoe).

    Returns
    -------
    ExactMaximinProof
        "proved", "refuted" (with a witness) or "inconclusive" (with the reason).
    """
    start = time.perf_counter()
    g = game or banque_game()
    value = QuadraticNumber.of(value)
    pts = [(QuadraticNumber.of(p[0]), QuadraticNumber.of(p[1])) for p in (point, *others)]
    for p in pts:
        if not all(0 <= x <= 1 for x in p):
            raise ParameterError(f"point must lie in the unit square [0, 1]^2, got {tuple(map(str, p))}")
    A, C = _exact_coefficients(theta, g)

    missing: list[tuple[QuadraticNumber, QuadraticNumber]] = []     # points no local certificate closes

    def done(status, **kw) -> ExactMaximinProof:
        if status == "inconclusive" and missing:
            kw["reason"] = f"no local certificate around {tuple(map(str, missing[0]))}; " + kw.get("reason", "")
        return ExactMaximinProof(theta, value, pts[0], status, seconds=time.perf_counter() - start, **kw)

    for p in pts:
        vp = _v(A, C, *p)
        if vp > value:
            return done("refuted", witness=p, reason="the point guarantees more than the value")
    if _v(A, C, *pts[0]) != value:
        return done("inconclusive", reason="the value is not attained at the point")
    local = []
    for p in pts:
        cert = next((c for lev in range(3, MAX_LEVEL + 1) if (c := local_certificate(A, C, p, value, lev))), None)
        if cert is None:
            missing.append(p)        # the branch and bound still runs: it may refute the value
        else:
            local.append(cert)
    excl = np.array([[float(c.box[0][0]), float(c.box[0][1]), float(c.box[1][0]), float(c.box[1][1])]
                     for c in local]).reshape(-1, 4)      # dyadic: exact as floats
    if missing:
        max_boxes = min(max_boxes, 4000)    # no proof without it: only a short search for a refutation
    v = float(value)
    margin = 1e-13 * max(1.0, abs(v))
    Af = np.array([float(x) for x in A])
    Cf = np.array([[float(x) for x in c] for c in C])
    boxes = np.array([[0.0, 0.0, 1.0]])
    closed: list[tuple[np.ndarray, np.ndarray]] = []
    examined = 0
    for _ in range(max_depth):
        inside = np.zeros(len(boxes), dtype=bool)
        for x0, x1, y0, y1 in excl:
            inside |= ((boxes[:, 0] >= x0) & (boxes[:, 0] + boxes[:, 2] <= x1)
                       & (boxes[:, 1] >= y0) & (boxes[:, 1] + boxes[:, 2] <= y1))
        boxes = boxes[~inside]
        if len(boxes) == 0:
            break
        examined += len(boxes)
        parts = [_box_bounds(Af, Cf, boxes[k:k + 4096]) for k in range(0, len(boxes), 4096)]
        ub = np.concatenate([pp[0] for pp in parts])
        at_centre = np.concatenate([pp[1] for pp in parts])
        draws = np.concatenate([pp[2] for pp in parts])
        k = int(np.argmax(at_centre))
        if at_centre[k] > v + margin:
            x0, y0, s = (Fraction(float(z)) for z in boxes[k])
            w = (x0 + s / 2, y0 + s / 2)
            if _v(A, C, *w) > value:
                return done("refuted", boxes=examined, witness=w, reason="a box's centre guarantees more")
        shut = ub <= v - margin
        closed.append((boxes[shut], draws[shut]))
        small = np.nonzero(~shut & (boxes[:, 2] <= MIXED_SIDE))[0]
        for j in range(0, len(small), 1024):
            idx = small[j:j + 1024]
            bound, q = _mixed_bounds(Af, Cf, boxes[idx])
            ok = bound <= v - margin
            closed.append((boxes[idx[ok]], q[ok]))
            shut[idx[ok]] = True
        open_ = boxes[~shut]
        if len(open_) == 0:
            boxes = open_
            break
        if 4 * len(open_) > max_boxes:
            return done("inconclusive", boxes=examined, local=tuple(local), reason="the boxes ran out")
        h = open_[:, 2] / 2
        boxes = np.concatenate([np.stack([open_[:, 0] + dx * h, open_[:, 1] + dy * h, h], axis=1)
                                for dx in (0, 1) for dy in (0, 1)])
    if len(boxes):
        return done("inconclusive", boxes=examined, local=tuple(local), reason="the depth ran out")
    n_closed = sum(len(b) for b, _ in closed)
    if not _exact_recheck(theta, closed, value, Fraction(0), g):
        return done("inconclusive", boxes=examined, closed=n_closed, local=tuple(local),
                    reason="a box's bound failed its exact recheck")
    return done("proved", boxes=examined, closed=n_closed, local=tuple(local),
                cover=tuple((b, q) for b, q in closed if len(b)))


def exact_signature(theta: Fraction, p1: Number, p2: Number, game: BanqueGame | None = None) -> tuple:
    """The form of the maximiser (p1, p2), exactly, as the float sweep writes it: (the curves
    through it that cross the square, the sets where Banker draws there, its edges).

    Parameters
    ----------
    theta : Fraction
        Player 1's share of the total stake.
    p1, p2 : Fraction or QuadraticNumber
        The point.
    game : BanqueGame, optional
        The game (default: the paper's infinite shoe).

    Returns
    -------
    tuple
        (frozenset, frozenset, tuple of str), comparable with a float signature.
    """
    A, C = _exact_coefficients(theta, game or banque_game())
    signs = _signs(C, p1, p2)
    crossing = [min(_at(c, x, y) for x, y in ((0, 0), (0, 1), (1, 0), (1, 1))) < 0
                < max(_at(c, x, y) for x, y in ((0, 0), (0, 1), (1, 0), (1, 1))) for c in C]
    edges = tuple(e for e, x, v in (("p1=0", p1, 0), ("p1=1", p1, 1), ("p2=0", p2, 0), ("p2=1", p2, 1)) if x == v)
    return (frozenset(i for i, sg in enumerate(signs) if sg == 0 and crossing[i]),
            frozenset(i for i, sg in enumerate(signs) if sg < 0), edges)
