"""Every Nash equilibrium with both Players mixing, at one theta, found by the checker alone.

The banque checker (:mod:`baccara.check.banque`) lists the equilibria with a pure Player itself;
this module lists the rest, so that at each sample the artefact's equilibria can be compared
with a complete list derived without the solvers.  The method is the classification of Ethier
and Lee (2015, section 5), written again from the definitions:

Player 1 draws at 5 with probability p1, Player 2 with p2, both in (0, 1).  At information set
k Banker's stake-weighted gain from drawing is the bilinear function
B_k(p) = theta R1^k(p) + (1 - theta) R2^k(p); he draws where it is negative, stands where it is
positive and may mix where it is zero.  Player 1's gain from drawing, Delta1, is linear in p2
and in Banker's draw probabilities x; Player 2's, Delta2, linear in p1 and x.  An equilibrium
with both Players mixing is a point p of the open square and an x in [0, 1]^Z (Z the sets with
B_k(p) = 0; x is 1 where B_k < 0 and 0 where B_k > 0) with Delta1 = Delta2 = 0.

- Sets whose B_k has one sign on the open square (its four corner values are all >= 0 or all
  <= 0, not all zero: a bilinear function's interior values are mixtures of its corner values
  with positive weights) are fixed moves.  The others are *curves*.  Curves with proportional
  B_k (one zero set) whose gains are proportional in the same ratio act as one set with a
  single draw variable; if their gains are not proportional the point is left *undecided*
  (reported, never passed).
- **Points** (two curves crossing): the resultant in p1 of two bilinear functions is a
  quadratic, so every crossing lies in Q(sqrt d); every one in the open square is tested.
- **Along a curve** k (Z = {k}): on a segment between points Banker's draw set D is constant,
  and Delta1 = Delta2 = 0 for some x_k forces G = A1 E2 - A2 E1 = 0, a bilinear function; the
  candidates are the crossings of curve k with G.
- **In a cell** (Z empty): Delta1(p2) = 0 and Delta2(p1) = 0 fix a rational point.

The draw sets D needed are found without sorting the arrangement: every segment of a curve ends
at a crossing c or is a whole component of the curve in the square, and every cell is bounded by
some segment, so D is D(c) plus some of the curves through c, or D at a sample point of a
component plus possibly that curve.  Every candidate point, however found, is then tested
exactly (its signs, its Z, and a vertex search for x in [0, 1]^Z): the list holds only
equilibria, and it misses none.  Signs are decided by arb balls where they exclude zero and in
exact arithmetic otherwise.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from typing import Any

from .banque_deals import JOINT
from .qf import QF, _box_feasible, _sign

F0, F1 = Fraction(0), Fraction(1)
U00, U01, U10, U11 = (JOINT.index(u) for u in ((0, 0), (0, 1), (1, 0), (1, 1)))
#: Most sets through one point tried (2^n subsets); more is reported as undecided.
MAX_THROUGH = 10


def _bilinear(v: list) -> tuple:
    """(c0, c1, c2, c3) with f = c0 + c1 p1 + c2 p2 + c3 p1 p2, from f's values at the four joint
    pure strategies (u1, u2) = (p1, p2) at the corners."""
    return (v[U00], v[U10] - v[U00], v[U01] - v[U00], v[U11] - v[U10] - v[U01] + v[U00])


def _at(c: tuple, p1, p2):
    return c[0] + c[1] * p1 + c[2] * p2 + c[3] * p1 * p2


def _scaled(u: tuple, v: tuple, lam: Fraction) -> bool:
    """u = lam v?"""
    return all(a == lam * b for a, b in zip(u, v))


def _ratio(u: tuple, v: tuple) -> Fraction | None:
    """lam with u = lam v (v not all zero), or None."""
    lam = None
    for a, b in zip(u, v):
        if b == 0:
            if a != 0:
                return None
            continue
        r = Fraction(a) / b
        if lam is None:
            lam = r
        elif r != lam:
            return None
    return lam


class _Curves:
    """The game at theta, as the checker sees it: fixed moves folded into the Players' base gains
    A1 (linear in p2) and A2 (linear in p1), and the curves, each with its bilinear B and the
    changes E1, E2 it makes to Delta1, Delta2 when Banker draws there."""

    def __init__(self, game, theta: Fraction) -> None:
        t = theta
        self.undecided: list[str] = []
        base = game.base

        def lin1(vals):      # Player 1's gain from drawing, linear in p2: (value at p2 = 0, slope)
            a = vals[U10] - vals[U00]
            return (Fraction(a), Fraction(vals[U11] - vals[U01] - a))

        def lin2(vals):      # Player 2's, linear in p1
            a = vals[U01] - vals[U00]
            return (Fraction(a), Fraction(vals[U11] - vals[U10] - a))

        A1 = list(lin1([base[u][0] for u in range(4)]))
        A2 = list(lin2([base[u][1] for u in range(4)]))
        raw = []              # (B, E1, E2, label) of every set that crosses the open square
        for k, lab in enumerate(game.labels):
            g1, g2 = game.g[k]
            if not any(g1) and not any(g2):
                continue
            vals = [t * a + (1 - t) * c for a, c in zip(g1, g2)]
            e1, e2 = lin1(g1), lin2(g2)
            if min(vals) < 0 < max(vals):
                raw.append((_bilinear(vals), e1, e2, lab))
            elif not any(vals):
                self.undecided.append(f"Banker indifferent everywhere at {lab}")
            elif min(vals) < 0:         # draws throughout the open square
                A1 = [a + b for a, b in zip(A1, e1)]
                A2 = [a + b for a, b in zip(A2, e2)]
        # one zero set: proportional B.  Proportional gains in the same ratio make one set whose
        # contribution is lo E on B > 0, hi E on B < 0 and y E on the curve, y in [lo, hi]
        self.B: list[tuple] = []
        self.E1: list[tuple] = []
        self.E2: list[tuple] = []
        self.labels: list[str] = []
        used = [False] * len(raw)
        for i, (b, e1, e2, lab) in enumerate(raw):
            if used[i]:
                continue
            lo, hi, names = F0, F1, [lab]
            for j in range(i + 1, len(raw)):
                lam = None if used[j] else _ratio(raw[j][0], b)
                if lam is None:
                    continue
                used[j] = True
                names.append(raw[j][3])
                if not (_scaled(raw[j][1], e1, lam) and _scaled(raw[j][2], e2, lam)):
                    self.undecided.append(f"sets {lab} and {raw[j][3]} share a curve with unequal gains")
                    continue
                if lam > 0:
                    hi += lam
                else:
                    lo += lam
            A1 = [a + lo * v for a, v in zip(A1, e1)]
            A2 = [a + lo * v for a, v in zip(A2, e2)]
            self.B.append(b)
            self.E1.append(tuple((hi - lo) * v for v in e1))
            self.E2.append(tuple((hi - lo) * v for v in e2))
            self.labels.append("=".join(names))
        self.A1, self.A2 = tuple(A1), tuple(A2)
        self.balls = [tuple(_ball(v) for v in b) for b in self.B]

    def signs(self, p1, p2) -> tuple[frozenset, frozenset]:
        """(D, Z): the curves where B < 0 and where B = 0 at the point, exactly."""
        D, Z = [], []
        x1, x2 = _ball(p1), _ball(p2)
        for k, c in enumerate(self.B):
            bc = self.balls[k]
            v = bc[0] + bc[1] * x1 + bc[2] * x2 + bc[3] * x1 * x2
            s = 1 if v > 0 else -1 if v < 0 else None
            if s is None:
                s = _sign(_at(c, p1, p2))
            if s == 0:
                Z.append(k)
            elif s < 0:
                D.append(k)
        return frozenset(D), frozenset(Z)

    def delta_lines(self, D) -> tuple[tuple, tuple]:
        """Delta1 as (a, b) in p2 and Delta2 as (a, b) in p1, Banker drawing at the curves D."""
        a1, b1 = self.A1
        a2, b2 = self.A2
        for k in D:
            a1, b1 = a1 + self.E1[k][0], b1 + self.E1[k][1]
            a2, b2 = a2 + self.E2[k][0], b2 + self.E2[k][1]
        return (a1, b1), (a2, b2)

    def is_equilibrium(self, p1, p2) -> bool:
        """Both Players mixing at (p1, p2) in the open square: some x in [0, 1]^Z (Z the curves
        through the point) makes both indifferent?"""
        D, Z = self.signs(p1, p2)
        (a1, b1), (a2, b2) = self.delta_lines(D)
        Zs = sorted(Z)
        r1 = [self.E1[k][0] + self.E1[k][1] * p2 for k in Zs]
        r2 = [self.E2[k][0] + self.E2[k][1] * p1 for k in Zs]
        c1, c2 = a1 + b1 * p2, a2 + b2 * p1
        kept = [i for i in range(len(Zs)) if _sign(r1[i]) or _sign(r2[i])]
        if len(kept) > MAX_THROUGH:
            self.undecided.append(f"{len(kept)} sets through ({float(p1):.6f}, {float(p2):.6f})")
            return False
        # row . x = -c for each Player, the two rows made independent first (the vertex search
        # needs at most m independent equations)
        rows = _independent([([r1[i] for i in kept], -c1), ([r2[i] for i in kept], -c2)])
        return rows is not None and _box_feasible(rows, [], len(kept))


def _independent(rows: list[tuple[list, Any]]) -> list[tuple[list, Any]] | None:
    """The two equations row . x = rhs with a dependent one dropped, or None if they contradict
    each other (or one reads 0 = nonzero)."""
    out = []
    for r, c in rows:
        if not any(_sign(v) for v in r):
            if _sign(c):
                return None
            continue
        out.append((r, c))
    if len(out) == 2:
        (r, c), (q, e) = out
        i = next(i for i, v in enumerate(r) if _sign(v))
        lam = q[i] / r[i]
        if all(_sign(b - lam * a) == 0 for a, b in zip(r, q)):
            return None if _sign(e - lam * c) else out[:1]
    return out


def _ball(v):
    return v.ball() if isinstance(v, QF) else QF(v).ball()


def _inside(x) -> bool:
    """0 < x < 1, exactly (a ball first)."""
    if isinstance(x, QF) and x.b:
        b = x.ball()
        if b < 0 or b > 1:
            return False
        if b > 0 and b < 1:
            return True
    return _sign(x) > 0 and _sign(1 - x) > 0


def _roots(r0, r1, r2) -> list:
    """Real roots of r0 + r1 t + r2 t^2 (not identically zero), exactly."""
    if r2 == 0:
        return [] if r1 == 0 else [-r0 / r1]
    disc = r1 * r1 - 4 * r2 * r0
    if disc < 0:
        return []
    if disc == 0:
        return [-r1 / (2 * r2)]
    n, m = disc.numerator, disc.denominator          # sqrt(n / m) = sqrt(n m) / m
    return [QF(-r1 / (2 * r2), s / (2 * r2 * m), n * m) for s in (1, -1)]


def crossings(c: tuple, d: tuple) -> tuple[list, bool]:
    """Where two bilinear functions both vanish in the open square.

    Parameters
    ----------
    c, d : tuple
        (c0, c1, c2, c3) for c0 + c1 p1 + c2 p2 + c3 p1 p2, rationals.

    Returns
    -------
    tuple
        (points, shared): the common zeros (p1, p2) in (0, 1)^2, exact (in Q(sqrt d): the
        resultant in p1 is a quadratic), and whether the two share a whole component (then the
        list is not the answer).
    """
    r0 = c[0] * d[2] - c[2] * d[0]
    r1 = c[0] * d[3] + c[1] * d[2] - c[2] * d[1] - c[3] * d[0]
    r2 = c[1] * d[3] - c[3] * d[1]
    if r0 == 0 and r1 == 0 and r2 == 0:
        # identically zero: a common factor, unless both are vertical lines p1 = const (two
        # distinct ones never meet)
        both_vertical = c[2] == c[3] == 0 and d[2] == d[3] == 0
        return [], not both_vertical or c[0] * d[1] == c[1] * d[0]
    out: list[tuple] = []
    for x in _roots(r0, r1, r2):
        if not _inside(x):
            continue
        lead_c, lead_d = c[2] + c[3] * x, d[2] + d[3] * x
        if _sign(lead_c):
            y = -(c[0] + c[1] * x) / lead_c
        elif _sign(lead_d):
            y = -(d[0] + d[1] * x) / lead_d
        else:
            if _sign(c[0] + c[1] * x) == 0 and _sign(d[0] + d[1] * x) == 0:
                return out, True              # both contain the line p1 = x
            continue
        if _inside(y) and _sign(_at(c, x, y)) == 0 and _sign(_at(d, x, y)) == 0:
            out.append((x, y))
    return out, False


def _component_samples(c: tuple) -> list[tuple[Fraction, Fraction]]:
    """A rational point on every piece of the curve c = 0 in the open square: the graph
    p2 = -(c0 + c1 p1) / (c2 + c3 p1) between the rational p1 where it meets p2 = 0, p2 = 1 or
    its asymptote (monotone and continuous between them), and a vertical line p1 = v if the
    curve contains one."""
    out = []
    if c[2] == 0 and c[3] == 0:
        if c[1] != 0 and 0 < -c[0] / c[1] < 1:
            out.append((-c[0] / c[1], Fraction(1, 2)))
        return out
    cuts = {F0, F1}
    if c[3] != 0:
        v = -c[2] / c[3]
        if 0 < v < 1:
            cuts.add(v)
            if c[0] + c[1] * v == 0:
                out.append((v, Fraction(1, 2)))
    for level in (F0, F1):           # c0 + c1 p1 + (c2 + c3 p1) level = 0
        a, b = c[0] + c[2] * level, c[1] + c[3] * level
        if b != 0 and 0 < -a / b < 1:
            cuts.add(-a / b)
    cs = sorted(cuts)
    for lo, hi in zip(cs, cs[1:]):
        m = (lo + hi) / 2
        den = c[2] + c[3] * m
        if den == 0:
            continue
        y = -(c[0] + c[1] * m) / den
        if 0 < y < 1:
            out.append((m, y))
    return out


def _subsets(Z: frozenset) -> list[frozenset]:
    zs = sorted(Z)
    return [frozenset(s) for n in range(len(zs) + 1) for s in combinations(zs, n)]


def interior_equilibria(game, theta: Fraction) -> tuple[list[tuple], list[str]]:
    """Every (p1, p2) in the open square of a Nash equilibrium at theta (module docstring), and
    what the checker could not decide (empty when the list is complete).

    Parameters
    ----------
    game : baccara.check.banque._Game
        The checker's own coefficients.
    theta : Fraction
        Player 1's share of the stake.

    Returns
    -------
    tuple
        (points, undecided): the points as (p1, p2) pairs of exact numbers, each distinct; the
        reasons the list may be incomplete.
    """
    cv = _Curves(game, theta)
    n = len(cv.B)
    points: dict[tuple, list[tuple]] = {}   # by rounded floats (a duplicate only costs time)
    draw_sets: set[frozenset] = set()      # candidate D of cells (and, less one curve, of segments)
    seg_sets: list[set[frozenset]] = [set() for _ in range(n)]

    def note(p1, p2) -> None:
        D, Z = cv.signs(p1, p2)
        if len(Z) > MAX_THROUGH:
            cv.undecided.append(f"{len(Z)} curves through ({float(p1):.6f}, {float(p2):.6f})")
            return
        for S in _subsets(Z):
            draw_sets.add(D | S)
            for k in Z:
                if k not in S:
                    seg_sets[k].add(D | S)

    for i in range(n):
        for j in range(i + 1, n):
            pts, shared = crossings(cv.B[i], cv.B[j])
            if shared:
                cv.undecided.append(f"curves {cv.labels[i]} and {cv.labels[j]} share a component")
            for p in pts:
                bucket = points.setdefault((round(float(p[0]), 9), round(float(p[1]), 9)), [])
                if not any(same_point(p, q) for q in bucket):
                    bucket.append(p)
                    note(*p)
    for k in range(n):
        for p in _component_samples(cv.B[k]):
            note(*p)
    if n == 0:
        note(Fraction(1, 2), Fraction(1, 2))

    found: list[tuple] = []

    def test(p) -> None:
        if not any(same_point(p, q) for q in found) and cv.is_equilibrium(*p):
            found.append(p)

    for bucket in points.values():                                        # crossings
        for p in bucket:
            test(p)
    for k in range(n):                                                    # along curve k
        s, t = cv.E2[k]
        e, f = cv.E1[k]
        for D in seg_sets[k]:
            (a, b), (g, h) = cv.delta_lines(D)
            # (a + b p2)(s + t p1) - (g + h p1)(e + f p2), bilinear in (p1, p2)
            G = (a * s - g * e, a * t - h * e, b * s - g * f, b * t - h * f)
            if not any(G):
                cv.undecided.append(f"both Players indifferent along {cv.labels[k]}")
                continue
            pts, shared = crossings(cv.B[k], G)
            if shared:
                cv.undecided.append(f"a possible continuum along {cv.labels[k]}")
            for p in pts:
                test(p)
    for D in draw_sets:                                                   # cells
        (a1, b1), (a2, b2) = cv.delta_lines(D)
        if b1 == 0 or b2 == 0:
            if (b1 == 0 and a1 == 0) or (b2 == 0 and a2 == 0):
                cv.undecided.append("a Player indifferent throughout a region")
            continue
        q1, q2 = -a2 / b2, -a1 / b1
        if 0 < q1 < 1 and 0 < q2 < 1:
            test((q1, q2))
    return found, cv.undecided


def same_point(p, q) -> bool:
    """Are two points equal?

    Parameters
    ----------
    p, q : tuple
        Pairs of exact numbers (Fraction or QF).

    Returns
    -------
    bool
        True when both coordinates are equal (numbers in two different quadratic fields never are).
    """
    try:
        return all(_sign(QF(0) + a - b) == 0 for a, b in zip(p, q))
    except ValueError:                # numbers in two quadratic fields: not equal
        return False
