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
  with positive weights) are fixed moves.  The others are *curves*.  Sets with proportional
  B_k share one curve; each is a draw variable y in [0, 1] on it (0 on one side, 1 on the
  other), and variables whose gains are positive multiples of each other add up to one.
- **Points** (two curves crossing): the resultant in p1 of two bilinear functions is a
  quadratic, so every crossing lies in Q(sqrt d); every one in the open square is tested.
- **Along a curve** k (Z = {k}): on a segment between points Banker's draw set D is constant.
  If some y in [0, 1]^m (m variables on the curve) makes both Players indifferent, so does a
  vertex of that polytope, which has a free variable v and the rest at 0 or 1 (isolated points),
  or two free (a whole arc).  With v alone free, Delta1 = Delta2 = 0 forces G = A1 E2 - A2 E1 = 0,
  a bilinear function: the candidates are the crossings of curve k with G, for every v and every
  0/1 choice of the others.  With two free, their values move along the curve and leave [0, 1]
  only at such a candidate or where their 2 x 2 system turns singular (a bilinear determinant's
  crossings); so for m > 1 every arc between those points is tested at one rational point of it,
  and an equilibrium there (a continuum) is reported as undecided.
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
from functools import cmp_to_key
from itertools import combinations, product
from math import isqrt
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


def gain_line(vals, player: int) -> tuple:
    """A Player's gain from drawing at 5 as a line in the other Player's draw probability.

    Parameters
    ----------
    vals : sequence
        His payoffs (or their changes) at the four joint pure strategies, in the order of ``JOINT``.
    player : int
        1 (the line is in p2) or 2 (in p1).

    Returns
    -------
    tuple
        (a, b): the gain is a + b p2 for Player 1, a + b p1 for Player 2.
    """
    own, other = (U10, U01) if player == 1 else (U01, U10)
    a = vals[own] - vals[U00]
    return (a, vals[U11] - vals[other] - a)


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

        def lin1(vals):
            return tuple(Fraction(v) for v in gain_line(vals, 1))

        def lin2(vals):
            return tuple(Fraction(v) for v in gain_line(vals, 2))

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
        # one zero set: proportional B (B_j = lam B_i).  Each set on it is a draw variable y in [0, 1],
        # 0 where B_i > 0 and 1 where B_i < 0: y = x_j with gains e_j for lam > 0, and y = 1 - x_j
        # with gains -e_j (e_j folded into the base) for lam < 0, where set j draws on B_i > 0.
        # Variables whose gains are positive multiples of each other add up to one variable.
        self.B: list[tuple] = []
        self.V: list[list[tuple[tuple, tuple]]] = []           # per curve: (E1, E2) of each variable
        self.labels: list[str] = []
        used = [False] * len(raw)
        for i, (b, e1, e2, lab) in enumerate(raw):
            if used[i]:
                continue
            names = [lab]
            gains: list[tuple[tuple, tuple]] = [(e1, e2)]
            for j in range(i + 1, len(raw)):
                lam = None if used[j] else _ratio(raw[j][0], b)
                if lam is None:
                    continue
                used[j] = True
                names.append(raw[j][3])
                f1, f2 = raw[j][1], raw[j][2]
                if lam < 0:
                    A1 = [a + v for a, v in zip(A1, f1)]
                    A2 = [a + v for a, v in zip(A2, f2)]
                    f1, f2 = tuple(-v for v in f1), tuple(-v for v in f2)
                for n, (g1, g2) in enumerate(gains):
                    mu = _ratio(f1 + f2, g1 + g2)
                    if mu is not None and mu > 0:
                        gains[n] = (tuple(a + v for a, v in zip(g1, f1)), tuple(a + v for a, v in zip(g2, f2)))
                        break
                else:
                    gains.append((f1, f2))
            self.B.append(b)
            self.V.append(gains)
            self.labels.append("=".join(names))
        self.A1, self.A2 = tuple(A1), tuple(A2)
        # each curve's change to (Delta1, Delta2) where Banker draws at all its sets (B < 0)
        self.total = [tuple(tuple(sum(g[w][n] for g in gains) for n in range(2)) for w in range(2))
                      for gains in self.V]
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
            e1, e2 = self.total[k]
            a1, b1 = a1 + e1[0], b1 + e1[1]
            a2, b2 = a2 + e2[0], b2 + e2[1]
        return (a1, b1), (a2, b2)

    def is_equilibrium(self, p1, p2) -> bool:
        """Both Players mixing at (p1, p2) in the open square: some x in [0, 1]^Z (Z the curves
        through the point) makes both indifferent?"""
        D, Z = self.signs(p1, p2)
        (a1, b1), (a2, b2) = self.delta_lines(D)
        Vs = [v for k in sorted(Z) for v in self.V[k]]
        r1 = [e1[0] + e1[1] * p2 for e1, _ in Vs]
        r2 = [e2[0] + e2[1] * p1 for _, e2 in Vs]
        c1, c2 = a1 + b1 * p2, a2 + b2 * p1
        kept = [i for i in range(len(Vs)) if _sign(r1[i]) or _sign(r2[i])]
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


def _bounds(x, n: int) -> tuple[Fraction, Fraction]:
    """Rationals lo <= x <= hi, hi - lo of the order of 2^-n (x a Fraction or a QF)."""
    if not isinstance(x, QF) or x.b == 0:
        q = Fraction(x.a if isinstance(x, QF) else x)
        return q, q
    r = isqrt(x.d * 4 ** n)
    lo, hi = x.a + x.b * Fraction(r, 2 ** n), x.a + x.b * Fraction(r + 1, 2 ** n)
    return (lo, hi) if lo <= hi else (hi, lo)


def _between(a, b) -> Fraction:
    """A rational strictly between the exact numbers a < b."""
    n = 32
    while True:
        au, bl = _bounds(a, n)[1], _bounds(b, n)[0]
        if au < bl:
            return (au + bl) / 2
        n *= 2


def _compare(a, b) -> int:
    """The sign of a - b, exactly (numbers of two quadratic fields are never equal)."""
    try:
        return _sign(QF(0) + a - b)
    except ValueError:
        n = 64
        while True:
            (al, au), (bl, bu) = _bounds(a, n), _bounds(b, n)
            if au < bl or bu < al:
                return -1 if au < bl else 1
            n *= 2


def _sorted_distinct(xs: list) -> list:
    """The exact numbers xs, ascending, each once."""
    out: list = []
    for x in sorted(xs, key=cmp_to_key(_compare)):
        if not out or _compare(x, out[-1]) != 0:
            out.append(x)
    return out


def _arc_samples(c: tuple, cuts: list) -> list[tuple[Fraction, Fraction]]:
    """A rational point strictly inside each arc of the curve c = 0 in the open square, the arcs
    being its pieces between the points ``cuts`` (on the curve), the edges and its asymptote: the
    graph p2 = -(c0 + c1 p1) / (c2 + c3 p1) is monotone and continuous between the p1 where it
    meets p2 = 0, p2 = 1 or its asymptote, and a vertical line p1 = v is a piece of its own."""
    out = []
    vertical = None                                      # a component p1 = v
    if c[2] == 0 and c[3] == 0:
        if c[1] != 0 and 0 < -c[0] / c[1] < 1:
            vertical = -c[0] / c[1]
    elif c[3] != 0:
        v = -c[2] / c[3]
        if 0 < v < 1 and c[0] + c[1] * v == 0:
            vertical = v
    if vertical is not None:
        ys = _sorted_distinct([F0, F1] + [p[1] for p in cuts if _sign(QF(0) + p[0] - vertical) == 0])
        out += [(vertical, _between(lo, hi)) for lo, hi in zip(ys, ys[1:])]
    if c[2] == 0 and c[3] == 0:
        return out
    xs = [F0, F1] + [p[0] for p in cuts]
    if c[3] != 0 and 0 < -c[2] / c[3] < 1:
        xs.append(-c[2] / c[3])
    for level in (F0, F1):                               # c0 + c1 p1 + (c2 + c3 p1) level = 0
        a, b = c[0] + c[2] * level, c[1] + c[3] * level
        if b != 0 and 0 < -a / b < 1:
            xs.append(-a / b)
    xs = _sorted_distinct([x for x in xs if _sign(x) >= 0 and _sign(1 - x) >= 0])
    for lo, hi in zip(xs, xs[1:]):
        m = _between(lo, hi)
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
    on_curve: list[list[tuple]] = [[] for _ in range(n)]    # the crossings on each curve

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
                on_curve[i].append(p)
                on_curve[j].append(p)
                bucket = points.setdefault((round(float(p[0]), 9), round(float(p[1]), 9)), [])
                if not any(same_point(p, q) for q in bucket):
                    bucket.append(p)
                    note(*p)
    for k in range(n):
        for p in _arc_samples(cv.B[k], []):        # a point on every piece of the curve
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
        gains = cv.V[k]
        cuts = list(on_curve[k])
        for D in seg_sets[k]:
            base = cv.delta_lines(D)
            # a vertex of Banker's x with one variable free and the others at 0 or 1
            for v in range(len(gains)):
                others = [w for w in range(len(gains)) if w != v]
                for bits in product((0, 1), repeat=len(others)):
                    (a, b), (g, h) = base
                    for w, bit in zip(others, bits):
                        if bit:
                            (e0, e1), (s0, s1) = gains[w]
                            a, b, g, h = a + e0, b + e1, g + s0, h + s1
                    (e, f), (s_, t) = gains[v]
                    # (a + b p2)(s + t p1) - (g + h p1)(e + f p2), bilinear in (p1, p2)
                    G = (a * s_ - g * e, a * t - h * e, b * s_ - g * f, b * t - h * f)
                    if not any(G):
                        cv.undecided.append(f"both Players indifferent along {cv.labels[k]}")
                        continue
                    pts, shared = crossings(cv.B[k], G)
                    if shared:
                        cv.undecided.append(f"a possible continuum along {cv.labels[k]}")
                    for p in pts:
                        test(p)
                    cuts += pts
        if len(gains) > 1:
            # Several variables on one curve: a vertex with two free (the rest at bounds) moves
            # along the curve while its two values stay in [0, 1].  It can only start or stop
            # where one of them reaches a bound (a point above) or their 2 x 2 system turns
            # singular (a zero of its determinant, bilinear); so an arc between those points
            # carries equilibria throughout or nowhere, and one sample on it decides which.
            for v, w in combinations(range(len(gains)), 2):
                (e1v, e2v), (e1w, e2w) = gains[v], gains[w]
                det = (e1v[0] * e2w[0] - e1w[0] * e2v[0], e1v[0] * e2w[1] - e1w[0] * e2v[1],
                       e1v[1] * e2w[0] - e1w[1] * e2v[0], e1v[1] * e2w[1] - e1w[1] * e2v[1])
                if any(det):
                    cuts += crossings(cv.B[k], det)[0]
            for p in _arc_samples(cv.B[k], cuts):
                if cv.is_equilibrium(*p):
                    cv.undecided.append(f"a continuum of equilibria along {cv.labels[k]}, through "
                                        f"({float(p[0]):.6f}, {float(p[1]):.6f})")
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
