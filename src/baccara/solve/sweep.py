"""The parametric structure of an additive game's Nash equilibria (Ethier and Lee 2023, section 3).

Player II's gains are linear in a parameter alpha (the commission):
g_i^u(alpha) = c_i^u + alpha e_i^u; player I's payoffs do not depend on alpha.
The *best-response-discontinuity curve* of information set i is

    p_i(alpha) = g_i^0(alpha) / (g_i^0(alpha) - g_i^1(alpha)),

defined where g_i^0 and g_i^1 have strictly opposite signs (then 0 < p_i < 1).
In the (alpha, p) plane player II's best response is constant between curves,
so the equilibria over an alpha-interval follow from finitely many cases:
each curve cut at its intersections with the others gives segments (the
"(a) + 2(b)" cases of Ethier and Lee (2023), Table 4); on a segment of curve i, player II's
moves elsewhere are fixed, player I's indifference fixes the equalizing
probability q_i = -Delta / delta_i, independent of alpha, and the segment
carries an equilibrium iff 0 < q_i < 1.  At an intersection both curves'
information sets may mix: several equilibria when the equalizing set has
more than one extreme point (an *exceptional* alpha).

Everything is exact: intersections are roots of integer quadratics,
represented as :class:`~baccara.algebraic.QuadraticNumber`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product
from typing import Any

from ..algebraic import QuadraticNumber, quadratic_roots
from .additive import proportional_groups
from .signs import sign

Real = QuadraticNumber


@dataclass(frozen=True)
class LinearAdditiveGame:
    """An additive 2 x 2^n game with player II's gains linear in alpha.

    ``c[i] = (c_i^0, c_i^1)``, ``e[i] = (e_i^0, e_i^1)``: g_i^u(alpha) = c_i^u + alpha e_i^u
    (any common positive scale).  ``delta[i]``: player I's gain from u = 1
    over u = 0 when player II plays move 1 at i; ``delta_base``: the same gain
    when player II plays move 0 everywhere (any common positive scale).
    """

    c: tuple[tuple[int, int], ...]
    e: tuple[tuple[int, int], ...]
    delta: tuple[int, ...]
    delta_base: int
    labels: tuple[str, ...]

    def g(self, i: int, u: int, alpha):
        return self.c[i][u] + alpha * self.e[i][u]

    def p_of(self, i: int, alpha):
        g0, g1 = self.g(i, 0, alpha), self.g(i, 1, alpha)
        return g0 / (g0 - g1)

    def side(self, j: int, i: int, alpha: Fraction) -> int:
        """Sign of player II's gain at j on curve i at rational alpha: +1 move 1, -1 move 0, 0 indifferent.

        On the curve p = g_i^0 / (g_i^0 - g_i^1), so (1 - p) g_j^0 + p g_j^1 has the
        sign of (g_i^0 g_j^1 - g_i^1 g_j^0) / (g_i^0 - g_i^1); computed in integers
        with alpha = s / t.
        """
        s, t = alpha.numerator, alpha.denominator
        (ci0, ci1), (ei0, ei1) = self.c[i], self.e[i]
        (cj0, cj1), (ej0, ej1) = self.c[j], self.e[j]
        gi0, gi1 = ci0 * t + ei0 * s, ci1 * t + ei1 * s
        gj0, gj1 = cj0 * t + ej0 * s, cj1 * t + ej1 * s
        return sign(gi0 * gj1 - gi1 * gj0) * sign(gi0 - gi1)


@dataclass(frozen=True)
class Curve:
    """A best-response-discontinuity curve and where it lies in (0, 1) over the interval."""

    index: int
    label: str
    pieces: tuple[tuple[Fraction, Fraction], ...]  # open alpha-intervals where 0 < p_i < 1
    partial: bool


@dataclass(frozen=True)
class Intersection:
    """Two curves crossing at alpha (exact) inside both curves' domains."""

    alpha: Real
    i: int
    j: int


@dataclass(frozen=True)
class Case:
    """A segment of curve ``i`` between consecutive intersections, with player II's
    moves elsewhere (``moves``: +1 move 1, -1 move 0) and the equalizing q_i."""

    i: int
    lo: Real
    hi: Real
    moves: tuple[int, ...]
    q: Fraction | None  # None: player I's payoff does not depend on the move at i
    equilibrium: bool


@dataclass(frozen=True)
class PointCase:
    """An intersection point: moves elsewhere, and the extreme equalizing strategies there."""

    point: Intersection
    moves: tuple[int, ...]
    extremes: tuple[dict[int, Fraction], ...]

    @property
    def exceptional(self) -> bool:
        return len(self.extremes) > 1


@dataclass(frozen=True)
class Interval:
    """An alpha-interval on which the equilibrium follows one formula.

    Player I mixes with p(alpha) = (n0 + n1 alpha) / (d0 + d1 alpha) (p =
    ``pure`` when player I plays a pure strategy); player II mixes at
    information set ``i`` with probability ``q`` (None: pure).
    """

    lo: Real
    hi: Real
    i: int | None
    q: Fraction | None
    p_formula: tuple[int, int, int, int] | None
    pure: int | None
    moves: tuple[int, ...]


@dataclass
class Sweep:
    """The exact alpha-structure of the game's Nash equilibria over [lo, hi]."""

    lo: Fraction
    hi: Fraction
    curves: list[Curve] = field(default_factory=list)
    intersections: list[Intersection] = field(default_factory=list)
    cases: list[Case] = field(default_factory=list)
    points: list[PointCase] = field(default_factory=list)
    intervals: list[Interval] = field(default_factory=list)
    continua: list[str] = field(default_factory=list)
    groups: list[tuple[int, ...]] = field(default_factory=list)
    game: LinearAdditiveGame | None = None

    @property
    def partial_curves(self) -> list[Curve]:
        return [c for c in self.curves if c.partial]

    @property
    def exceptional(self) -> list[PointCase]:
        return [p for p in self.points if p.exceptional]

    def counts(self) -> tuple[int, int, int, int, int]:
        """Ethier and Lee (2023), Table 4's columns: (a) curves, (b) intersections, (c) partial curves,
        (d) = (a) + 2(b) cases, (e) exceptional alphas."""
        a, b = len(self.curves), len(self.intersections)
        return a, b, len(self.partial_curves), a + 2 * b, len({p.point.alpha for p in self.exceptional})


def rational_between(x: Real | Fraction, y: Real | Fraction) -> Fraction:
    """A rational strictly between x < y (a simple one)."""
    x, y = QuadraticNumber.of(x), QuadraticNumber.of(y)
    bits = 16
    while True:
        _, x_hi = x.bounds(bits)
        y_lo, _ = y.bounds(bits)
        if x_hi < y_lo:
            r = _simplest_between(x_hi, y_lo)
            if QuadraticNumber.of(r) in (x, y):  # a rational end: step inside, strictly between
                quarter = (y_lo - x_hi) / 4
                r = _simplest_between(x_hi + quarter, y_lo - quarter)
            return r
        bits *= 2


def _simplest_between(a: Fraction, b: Fraction) -> Fraction:
    """The simplest rational (smallest denominator) in the closed interval [a, b], a <= b,
    by continued fractions."""
    if a <= 0 <= b:
        return Fraction(0)
    if b < 0:
        return -_simplest_between(-b, -a)
    fa = a.numerator // a.denominator
    if a == fa or fa + 1 <= b:
        return Fraction(fa if a == fa else fa + 1)
    return fa + 1 / _simplest_between(1 / (b - fa), 1 / (a - fa))


def _domain(game: LinearAdditiveGame, i: int, lo: Fraction, hi: Fraction) -> list[tuple[Fraction, Fraction]]:
    """Open sub-intervals of (lo, hi) where g_i^0 and g_i^1 have strictly opposite signs."""
    cut_set = {lo, hi}
    for u in (0, 1):
        c, e = game.c[i][u], game.e[i][u]
        if e != 0 and lo < Fraction(-c, e) < hi:
            cut_set.add(Fraction(-c, e))
    cuts = sorted(cut_set)
    pieces: list[tuple[Fraction, Fraction]] = []
    for a, b in zip(cuts, cuts[1:]):
        m = (a + b) / 2
        if game.g(i, 0, m) * game.g(i, 1, m) < 0:
            if pieces and pieces[-1][1] == a:
                pieces[-1] = (pieces[-1][0], b)
            else:
                pieces.append((a, b))
    return pieces


def _inside(pieces, x: Real) -> bool:
    return any(QuadraticNumber.of(a) < x < QuadraticNumber.of(b) for a, b in pieces)


def _crossings(game: LinearAdditiveGame, ci: Curve, cj: Curve) -> list[Real]:
    """Alphas where p_i = p_j inside both domains: roots of g_i^0 g_j^1 - g_j^0 g_i^1."""
    i, j = ci.index, cj.index
    (c0i, c1i), (e0i, e1i) = game.c[i], game.e[i]
    (c0j, c1j), (e0j, e1j) = game.c[j], game.e[j]
    k0 = c0i * c1j - c0j * c1i
    k1 = c0i * e1j + e0i * c1j - c0j * e1i - e0j * c1i
    k2 = e0i * e1j - e0j * e1i
    if k0 == k1 == k2 == 0:
        return []  # the same curve (proportional information sets)
    return [r for r in quadratic_roots(k2, k1, k0) if _inside(ci.pieces, r) and _inside(cj.pieces, r)]


def _constant_moves(game: LinearAdditiveGame, lo: Fraction, hi: Fraction, curves: set[int]) -> dict[int, int]:
    """Information sets that are not curves and whose move is the same all over the
    (alpha, p) strip: both gains keep one sign (or vanish) for alpha in [lo, hi]."""
    out = {}
    for j in range(len(game.c)):
        if j in curves:
            continue
        signs = {sign(game.g(j, u, x)) for u in (0, 1) for x in (lo, hi)} - {0}
        roots_inside = any(
            game.e[j][u] != 0 and lo < Fraction(-game.c[j][u], game.e[j][u]) < hi for u in (0, 1)
        )
        if len(signs) <= 1 and not roots_inside:
            out[j] = signs.pop() if signs else 0
    return out


def _moves_on_curve(game: LinearAdditiveGame, i: int, alpha, skip: set[int], constant: dict[int, int]) -> tuple[int, ...]:
    return tuple(
        0 if j in skip else (constant[j] if j in constant else game.side(j, i, alpha)) for j in range(len(game.c))
    )


def _delta(game: LinearAdditiveGame, moves: Sequence[int]) -> int:
    return game.delta_base + sum(d for d, m in zip(game.delta, moves) if m > 0)


def merge_proportional(
    game: LinearAdditiveGame, order: Callable[[int], Any]
) -> tuple[LinearAdditiveGame, list[tuple[int, ...]]]:
    """Merge information sets whose payoffs (c^0, c^1, e^0, e^1, delta) are positive multiples
    of each other (see :func:`baccara.solve.additive.merge_equivalent`).

    They share one best-response-discontinuity curve (player II is indifferent
    at all of them at once), so they are one decision in the sweep: the merged
    set plays one move at all members, with summed payoffs.  Under Model A2
    this merges Banker's compositions of one total (with replacement, his
    composition tells him nothing more), giving Model A1.  Groups are listed in
    ``order`` of their first member; the merged game's index k is group k.
    Without proportional sets the game is returned as is, groups (i,).
    """
    ordered = sorted(range(len(game.c)), key=order)
    members = [tuple(ordered[k] for k in m)
               for m in proportional_groups([(*game.c[i], *game.e[i], game.delta[i]) for i in ordered])]
    if all(len(m) == 1 for m in members):
        return game, [(i,) for i in range(len(game.c))]
    def add(vals):
        return tuple(sum(x) for x in zip(*vals))
    merged = LinearAdditiveGame(
        c=tuple(add([game.c[i] for i in m]) for m in members),
        e=tuple(add([game.e[i] for i in m]) for m in members),
        delta=tuple(sum(game.delta[i] for i in m) for m in members),
        delta_base=game.delta_base,
        labels=tuple("+".join(game.labels[i] for i in m) for m in members),
    )
    return merged, members


def sweep(
    game: LinearAdditiveGame,
    lo: Fraction = Fraction(0),
    hi: Fraction = Fraction(1, 10),
    order: Callable[[int], Any] | None = None,
) -> Sweep:
    """The curves, intersections, cases, exceptional alphas and equilibrium intervals over (lo, hi).

    ``order`` (a sort key on information sets) fixes the order of curves, of
    cases (by curve, then alpha) and of intersections (by their two curves).
    """
    lo, hi = Fraction(lo), Fraction(hi)
    order = order or (lambda i: i)
    merged, out_groups = merge_proportional(game, order)
    if merged is not game:
        game, order = merged, (lambda k: k)  # the merged sets are numbered in order
    out = Sweep(lo, hi)
    out.groups = out_groups
    out.game = game
    n = len(game.c)
    for i in sorted(range(n), key=order):
        pieces = _domain(game, i, lo, hi)
        if pieces:
            out.curves.append(Curve(i, game.labels[i], tuple(pieces), pieces != [(lo, hi)]))
    on_curve: dict[int, list[Real]] = {c.index: [] for c in out.curves}
    for x in range(len(out.curves)):
        for y in range(x + 1, len(out.curves)):
            ci, cj = out.curves[x], out.curves[y]
            for r in _crossings(game, ci, cj):
                out.intersections.append(Intersection(r, ci.index, cj.index))  # ci before cj in order
                on_curve[ci.index].append(r)
                on_curve[cj.index].append(r)
    constant = _constant_moves(game, lo, hi, {c.index for c in out.curves})
    for c in out.curves:
        out.cases.extend(_curve_cases(game, c, sorted(on_curve[c.index]), constant))
    for pt in out.intersections:
        out.points.append(_point_case(game, pt, _moves_beside(out.cases, pt)))
    out.intervals = _intervals(game, out)
    for case in out.cases:
        for m in (_delta(game, case.moves), _delta(game, case.moves) + game.delta[case.i]):
            if m == 0:
                out.continua.append(f"player I indifferent beside curve {game.labels[case.i]}")
    return out


def _curve_cases(game: LinearAdditiveGame, curve: Curve, cuts: list[Real], constant: dict[int, int]) -> list[Case]:
    cases = []
    for a, b in curve.pieces:
        inner = [QuadraticNumber.of(a)] + [r for r in cuts if QuadraticNumber.of(a) < r < QuadraticNumber.of(b)] + [QuadraticNumber.of(b)]
        for x, y in zip(inner, inner[1:]):
            alpha = rational_between(x, y)
            moves = _moves_on_curve(game, curve.index, alpha, {curve.index}, constant)
            q = Fraction(-_delta(game, moves), game.delta[curve.index]) if game.delta[curve.index] else None
            ok = q is not None and 0 < q < 1
            cases.append(Case(curve.index, x, y, moves, q, ok))
    return cases


def _moves_beside(cases: list[Case], pt: Intersection) -> tuple[int, ...]:
    """Player II's moves at an intersection, away from its two curves: those of the
    segment of curve i that ends there (no other curve crosses at the same point)."""
    before = [c for c in cases if c.i == pt.i and c.hi == pt.alpha]
    after = [c for c in cases if c.i == pt.i and c.lo == pt.alpha]
    a, b = list(before[0].moves), list(after[0].moves)
    a[pt.j] = b[pt.j] = 0
    if a != b:
        raise ArithmeticError(f"more than two curves meet at alpha = {float(pt.alpha)}; not supported")
    return tuple(a)


def _point_case(game: LinearAdditiveGame, pt: Intersection, moves: tuple[int, ...]) -> PointCase:
    base = _delta(game, moves)
    values = {}
    for bi, bj in product((0, 1), repeat=2):
        values[(bi, bj)] = base + bi * game.delta[pt.i] + bj * game.delta[pt.j]
    extremes = [{pt.i: Fraction(s[0]), pt.j: Fraction(s[1])} for s, v in values.items() if v == 0]
    items = list(values.items())
    for x in range(4):
        for y in range(x + 1, 4):
            (s, vs), (t, vt) = items[x], items[y]
            if vs * vt < 0:
                ws = Fraction(-vt, vs - vt)
                extremes.append({pt.i: ws * s[0] + (1 - ws) * t[0], pt.j: ws * s[1] + (1 - ws) * t[1]})
    return PointCase(pt, moves, tuple(extremes))


def _pure_pieces(game: LinearAdditiveGame, u: int, lo: Fraction, hi: Fraction) -> list[Interval]:
    """Alpha-pieces where player I playing pure u (p = u) is an equilibrium."""
    cut_set = {lo, hi}
    for i in range(len(game.c)):
        c, e = game.c[i][u], game.e[i][u]
        if e != 0 and lo < Fraction(-c, e) < hi:
            cut_set.add(Fraction(-c, e))
    cuts = sorted(cut_set)
    out = []
    for a, b in zip(cuts, cuts[1:]):
        m = (a + b) / 2
        moves = tuple(sign(game.g(i, u, m)) for i in range(len(game.c)))
        d = _delta(game, moves)
        if (u == 0 and d <= 0) or (u == 1 and d >= 0):
            out.append(Interval(QuadraticNumber.of(a), QuadraticNumber.of(b), None, None, None, u, moves))
    return out


def _intervals(game: LinearAdditiveGame, sw: Sweep) -> list[Interval]:
    found = []
    for case in sw.cases:
        if case.equilibrium:
            i = case.i
            (c0, c1), (e0, e1) = game.c[i], game.e[i]
            found.append(Interval(case.lo, case.hi, i, case.q, (c0, e0, c0 - c1, e0 - e1), None, case.moves))
    found.extend(_pure_pieces(game, 0, sw.lo, sw.hi))
    found.extend(_pure_pieces(game, 1, sw.lo, sw.hi))
    return sorted(found, key=lambda iv: (iv.lo, iv.hi))


def strategy_string(moves: Sequence[int], mixed: set[int], order: Sequence[Sequence[int]]) -> str:
    """Player II's strategy in the paper's notation: blocks of D (move 1), S (move 0), M (mixed)."""
    def ch(j: int) -> str:
        return "M" if j in mixed else ("D" if moves[j] > 0 else "S")
    return "-".join("".join(ch(j) for j in block) for block in order)


def group_blocks(indices: Sequence[int], key: Callable[[int], tuple]) -> list[list[int]]:
    """Indices grouped into consecutive blocks of equal key, blocks and members in key order."""
    blocks: dict[tuple, list[int]] = {}
    for i in indices:
        blocks.setdefault(key(i)[0], []).append(i)
    return [sorted(v, key=key) for _, v in sorted(blocks.items())]
