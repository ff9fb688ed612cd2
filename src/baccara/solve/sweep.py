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

Degenerate games (a set whose gain vanishes identically, two sets' gains vanishing at
one alpha, curves that coincide) break the count of cases but not the structure:
every equilibrium at alpha has p = 0, p = 1 or p = p_i(alpha), and player II's strategy
there is a vertex of the polytope of her best responses that make player I's choice
optimal, which depends on alpha only through the signs of the gains at p.  Those signs
are constant between consecutive *breakpoints* (lo, hi, the zeros of every gain and the
curves' intersections), so the sweep enumerates the extreme equilibria exactly once per
cell between breakpoints and once at each breakpoint (:class:`Piece`,
:class:`AlphaPoint`): whether the equilibrium is unique, and every extreme one where it
is not.  The intervals are read off these pieces.

Everything is exact: intersections are roots of integer quadratics,
represented as :class:`~baccara.algebraic.QuadraticNumber`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cmp_to_key
from itertools import product
from math import lcm
from typing import Any

from ..algebraic import QuadraticNumber, quadratic_roots
from ..errors import NotProven
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
    """An alpha-interval on which one extreme equilibrium follows one formula.

    Player I mixes with p(alpha) = (n0 + n1 alpha) / (d0 + d1 alpha) (p =
    ``pure`` when player I plays a pure strategy); player II mixes at
    information set ``i`` with probability ``q`` (None: pure) and plays
    ``moves`` elsewhere (+1 move 1, -1 move 0; 0 at ``i``).  Where the
    equilibrium is not unique several intervals overlap: one per extreme
    equilibrium (see :attr:`Sweep.pieces`).
    """

    lo: Real
    hi: Real
    i: int | None
    q: Fraction | None
    p_formula: tuple[int, int, int, int] | None
    pure: int | None
    moves: tuple[int, ...]


@dataclass(frozen=True)
class Branch:
    """One extreme equilibrium along a piece: player I's p(alpha) and player II's strategy.

    ``pure``: player I's pure strategy (0 or 1), or None when p(alpha) follows curve ``curve``,
    p = (n0 + n1 alpha) / (d0 + d1 alpha) with ``p_formula`` = (n0, n1, d0, d1).  ``q``:
    player II's probability of move 1 at every information set (constant along the piece).
    """

    pure: int | None
    curve: int | None
    p_formula: tuple[int, int, int, int] | None
    q: tuple[Fraction, ...]

    def p(self, alpha):
        """Player I's p at ``alpha`` (a Fraction or a QuadraticNumber) inside the piece."""
        if self.pure is not None:
            return Fraction(self.pure)
        assert self.p_formula is not None  # a branch on a curve has its formula
        n0, n1, d0, d1 = self.p_formula
        return (n0 + n1 * alpha) / (d0 + d1 * alpha)

    def limit(self, alpha):
        """p at ``alpha`` or, where both gains of the curve's set vanish (0/0), its limit there."""
        if self.p_formula is not None:
            n0, n1, d0, d1 = self.p_formula
            if d0 + d1 * alpha == 0:  # then n vanishes there too (p stays in [0, 1]): n / d = n1 / d1
                return Fraction(n1, d1)
        return self.p(alpha)


@dataclass(frozen=True)
class Piece:
    """An open alpha-interval (lo, hi) on which the set of equilibria follows fixed formulas.

    ``branches``: every extreme equilibrium, as a function of alpha.  ``continua``: the
    p-intervals along which every p is an equilibrium (player I indifferent), each as its two
    ends, a pure strategy (0 or 1) or the p_formula of a curve; their extreme points are
    among the branches.
    ``open``: the information sets where no move is strictly dominant (as
    :func:`baccara.solve.additive.dominance_reduction` finds at any alpha inside).
    """

    lo: Real
    hi: Real
    branches: tuple[Branch, ...]
    continua: tuple[tuple[int | tuple[int, int, int, int], int | tuple[int, int, int, int]], ...]
    open: tuple[int, ...]

    @property
    def unique(self) -> bool:
        """Whether the equilibrium is unique at every alpha in (lo, hi)."""
        return len(self.branches) == 1 and not self.continua


@dataclass(frozen=True)
class AlphaPoint:
    """The equilibria at one alpha where they are not the limits of the neighbouring pieces'.

    ``equilibria``: every extreme equilibrium (p, q) there, p exact; ``continua``: the
    p-intervals (p_from, p_to) along which every p is an equilibrium; ``open`` as for
    :class:`Piece`.
    """

    alpha: Real
    equilibria: tuple[tuple[Real, tuple[Fraction, ...]], ...]
    continua: tuple[tuple[Real, Real], ...]
    open: tuple[int, ...]

    @property
    def unique(self) -> bool:
        """Whether the equilibrium at ``alpha`` is unique."""
        return len(self.equilibria) == 1 and not self.continua


@dataclass
class Sweep:
    """The exact alpha-structure of the game's Nash equilibria over [lo, hi].

    ``curves`` to ``points`` and ``continua``: Ethier and Lee's (2023) construction (Tables 2-4);
    ``pieces`` and ``special``: every extreme equilibrium, on each open interval between
    breakpoints and at each alpha where they are not the limits of a neighbouring piece's;
    ``intervals``: the same equilibria, one row per extreme equilibrium and maximal interval.
    """

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
    pieces: list[Piece] = field(default_factory=list)
    special: list[AlphaPoint] = field(default_factory=list)

    @property
    def unique(self) -> bool:
        """Whether the equilibrium is unique at every alpha in [lo, hi]: every piece's is, and
        no alpha between has several (:attr:`special` lists those that do)."""
        return all(pc.unique for pc in self.pieces) and all(pt.unique for pt in self.special)

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
    """A rational strictly between x < y (a simple one).

    Parameters
    ----------
    x, y : Real or Fraction
        The ends, x < y.

    Returns
    -------
    Fraction
        A rational of small denominator strictly between them.

    Raises
    ------
    ValueError
        When x >= y (there is none: never search for ever).
    """
    x, y = QuadraticNumber.of(x), QuadraticNumber.of(y)
    if not x < y:
        raise ValueError(f"rational_between needs x < y, got {float(x)} and {float(y)}")
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
    equilibria: bool = True,
) -> Sweep:
    """The curves, intersections, cases, exceptional alphas and equilibrium intervals over (lo, hi).

    ``order`` (a sort key on information sets) fixes the order of curves, of
    cases (by curve, then alpha) and of intersections (by their two curves).
    ``equilibria=False`` stops after Ethier and Lee's construction (what Table 4 counts):
    no pieces, special alphas or intervals.
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
        moves = _moves_beside(out.cases, pt)
        out.points.append(_point_case(game, pt, moves) if moves is not None else _point_case_at(game, pt))
    for case in out.cases:
        for m in (_delta(game, case.moves), _delta(game, case.moves) + game.delta[case.i]):
            if m == 0:
                out.continua.append(f"player I indifferent beside curve {game.labels[case.i]}")
    if not equilibria:
        return out
    fixed = _fixed_sets(game, lo, hi)
    live = [j for j in range(n) if j not in fixed]
    out.pieces, out.special = _pieces(game, _breakpoints(game, lo, hi, live, out.intersections), live, fixed)
    out.intervals = _branch_intervals(out.pieces)
    return out


def _curve_cases(game: LinearAdditiveGame, curve: Curve, cuts: list[Real], constant: dict[int, int]) -> list[Case]:
    cases = []
    for a, b in curve.pieces:
        inner = [QuadraticNumber.of(a)] + [r for r in cuts if QuadraticNumber.of(a) < r < QuadraticNumber.of(b)] + [QuadraticNumber.of(b)]
        # a point where three or more curves meet is a crossing of each pair: one cut, not several
        inner = [r for k, r in enumerate(inner) if k == 0 or r != inner[k - 1]]
        for x, y in zip(inner, inner[1:]):
            alpha = rational_between(x, y)
            moves = _moves_on_curve(game, curve.index, alpha, {curve.index}, constant)
            q = Fraction(-_delta(game, moves), game.delta[curve.index]) if game.delta[curve.index] else None
            ok = q is not None and 0 < q < 1
            cases.append(Case(curve.index, x, y, moves, q, ok))
    return cases


def _moves_beside(cases: list[Case], pt: Intersection) -> tuple[int, ...] | None:
    """Player II's moves at an intersection, away from its two curves: those of the
    segment of curve i that ends there; None where they differ on the two sides (a third
    curve crosses at the same point)."""
    before = [c for c in cases if c.i == pt.i and c.hi == pt.alpha]
    after = [c for c in cases if c.i == pt.i and c.lo == pt.alpha]
    a, b = list(before[0].moves), list(after[0].moves)
    a[pt.j] = b[pt.j] = 0
    return tuple(a) if a == b else None


def _point_case_at(game: LinearAdditiveGame, pt: Intersection) -> PointCase:
    """An intersection where more than two curves meet: player II's moves from the signs of her
    gains at the point itself, and the extreme equalizing strategies over every set where she is
    indifferent there."""
    R, S, d, L = _in_field(pt.alpha)
    g = [tuple((game.c[j][u] * L + game.e[j][u] * R, game.e[j][u] * S) for u in (0, 1)) for j in range(len(game.c))]
    gi0, gi1 = g[pt.i]
    moves, free = [], []
    for j, (gj0, gj1) in enumerate(g):
        x, y = _mul(gi0, gj1, d), _mul(gi1, gj0, d)
        s = _sign2((x[0] - y[0], x[1] - y[1]), d) * _sign2(gi0, d)  # the sign of the gain at j at p_i
        moves.append(s)
        if s == 0:
            free.append(j)
    if len(free) > MAX_INDIFFERENT:
        raise NotProven(f"{len(free)} best-response curves meet at alpha = {pt.alpha}; the sweep lists extreme "
                        f"equilibria for at most {MAX_INDIFFERENT} at once")
    value = _delta(game, moves)
    extremes = tuple(dict(zip(free, x)) for x in _vertices(value, [game.delta[j] for j in free], "eq"))
    return PointCase(pt, tuple(moves), extremes)


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


#: The most information sets at which player II may be indifferent at once (at one p) whose
#: extreme equilibria the sweep lists: it examines the 2^k corners of a cube.  Beyond, it
#: refuses (:class:`~baccara.errors.NotProven`) rather than answer in part.
MAX_INDIFFERENT = 12

_ZERO, _ONE = Fraction(0), Fraction(1)


def _fixed_sets(game: LinearAdditiveGame, lo: Fraction, hi: Fraction) -> dict[int, int]:
    """Sets where one move is strictly dominant all over [lo, hi] (both gains of one strict sign
    at both ends, so everywhere between): set -> +1 (move 1) or -1 (move 0)."""
    out = {}
    for j in range(len(game.c)):
        signs = {sign(game.g(j, u, x)) for u in (0, 1) for x in (lo, hi)}
        if signs in ({1}, {-1}):
            out[j] = signs.pop()
    return out


def _breakpoints(game: LinearAdditiveGame, lo: Fraction, hi: Fraction, live: list[int],
                 intersections: list[Intersection]) -> list[Real]:
    """lo, hi, the zeros of every gain of a live set and the curves' intersections, ascending.

    Between consecutive ones every gain keeps its sign and the curves their order, so the
    signs of player II's gains at p = 0, 1 and every p_i do not change (a set that is not a
    curve has gains of one sign, or 0, whatever p in (0, 1)): so neither do the extreme
    equilibria's formulas.
    """
    pts = {QuadraticNumber.of(lo), QuadraticNumber.of(hi)}
    for j in live:
        for u in (0, 1):
            c, e = game.c[j][u], game.e[j][u]
            if e != 0 and lo < Fraction(-c, e) < hi:
                pts.add(QuadraticNumber.of(Fraction(-c, e)))
    pts.update(x.alpha for x in intersections)
    return sorted(pts)


def _vertices(value: int, coeffs: Sequence[int], want: str) -> list[tuple[Fraction, ...]]:
    """Vertices of {x in [0, 1]^k : value + sum_j coeffs[j] x_j (== | <= | >=) 0}: the cube's
    corners that satisfy it and the points of its edges where the sum crosses 0 (a vertex
    of a cube cut by a hyperplane or a half-space lies on an edge of the cube)."""
    ok = {"eq": lambda v: v == 0, "le": lambda v: v <= 0, "ge": lambda v: v >= 0}[want]
    out = []
    for bits in product((0, 1), repeat=len(coeffs)):
        v = value + sum(a for a, b in zip(coeffs, bits) if b)
        if ok(v):
            out.append(tuple(_ONE if b else _ZERO for b in bits))
        for j, a in enumerate(coeffs):
            if not bits[j] and a and v * (v + a) < 0:
                x = [_ONE if b else _ZERO for b in bits]
                x[j] = Fraction(-v, a)
                out.append(tuple(x))
    return out


def _in_field(alpha) -> tuple[int, int, int, int]:
    """alpha as integers (R, S, d, L) with L alpha = R + S sqrt(d) (S = 0 for a rational alpha)."""
    x = QuadraticNumber.of(alpha)
    L = lcm(x.r.denominator, x.s.denominator)
    return int(x.r * L), int(x.s * L), x.d, L


def _mul(x: tuple[int, int], y: tuple[int, int], d: int) -> tuple[int, int]:
    """(a + b sqrt d)(c + e sqrt d), as integer pairs."""
    return (x[0] * y[0] + x[1] * y[1] * d, x[0] * y[1] + x[1] * y[0])


def _sign2(x: tuple[int, int], d: int) -> int:
    """The sign of a + b sqrt(d), exactly, in integers."""
    a, b = x
    sa, sb = sign(a), sign(b)
    if sb == 0 or sa == sb:
        return sa or sb
    if sa == 0:
        return sb
    return sa if a * a > b * b * d else sb


def _equilibria_at(game: LinearAdditiveGame, alpha, live: list[int], fixed: dict[int, int]):
    """Every extreme equilibrium at one alpha (a Fraction or a QuadraticNumber), exactly.

    Player I's p is 0, 1 or a discontinuity p_i in (0, 1) (Foster's Lemma 2); at each,
    player II plays her strict best response where she has one, and at the sets where she is
    indifferent (F) any x in [0, 1]^F with player I's gain Delta = 0 (<= 0 at p = 0, >= 0 at
    p = 1): the extreme equilibria are that polytope's vertices.  Between consecutive
    candidates, every p is an equilibrium when Delta can be 0 there (a continuum): against the
    strict best response, with any mix at the sets indifferent at every p.  Signs only, in
    integers at a rational alpha: at p_i player II's gain at j has the sign of
    (g_i^0 g_j^1 - g_i^1 g_j^0) (g_i^0 - g_i^1).

    Returns ``(found, continua, open)``: ``found`` a list of (pure, curve, p, q) with q over
    all sets, ``continua`` pairs of the (pure, curve, p) of a continuum's ends, ``open`` the
    sets where no move is strictly dominant at alpha.
    """
    n = len(game.c)
    R, S, d, L = _in_field(alpha)
    # player II's gains at alpha times L, as a + b sqrt(d) in integer pairs
    gains = {j: tuple((game.c[j][u] * L + game.e[j][u] * R, game.e[j][u] * S) for u in (0, 1)) for j in live}
    sg = {j: (_sign2(g0, d), _sign2(g1, d)) for j, (g0, g1) in gains.items()}
    q0 = [_ONE if fixed.get(j, -1) > 0 else _ZERO for j in range(n)]
    base = _delta(game, [fixed.get(j, -1) for j in range(n)])

    def cross(i: int, j: int) -> int:  # the sign of g_i^0 g_j^1 - g_i^1 g_j^0
        x, y = _mul(gains[i][0], gains[j][1], d), _mul(gains[i][1], gains[j][0], d)
        return _sign2((x[0] - y[0], x[1] - y[1]), d)

    # p_i - p_j = (g_j^0 g_i^1 - g_i^0 g_j^1) / ((g_i^0 - g_i^1)(g_j^0 - g_j^1)); g^0 - g^1 has g^0's sign
    def before(i: int, j: int) -> int:  # the sign of p_i - p_j
        return -cross(i, j) * sg[i][0] * sg[j][0]

    curves = sorted((j for j in live if sg[j][0] * sg[j][1] < 0), key=cmp_to_key(before))
    cands: list[tuple[Any, int | None, int | None]] = [(_ZERO, 0, None)]
    position: dict[int, int] = {}  # every discontinuity's place among the candidates
    for j in curves:
        i = cands[-1][2]
        if i is None or cross(i, j) != 0:  # a new p (else the same p as the last: one candidate)
            (a0, b0), (a1, b1) = gains[j]
            if S == 0:
                p: Any = Fraction(a0, a0 - a1)
            else:
                p = QuadraticNumber(Fraction(a0), Fraction(b0), d) / QuadraticNumber(Fraction(a0 - a1), Fraction(b0 - b1), d)
                p = p.r if p.s == 0 else p
            cands.append((p, None, j))
        position[j] = len(cands) - 1
    cands.append((_ONE, 1, None))

    def gain_sign(j: int, pure: int | None, i: int | None) -> int:
        if i is None:
            return sg[j][pure or 0]
        return cross(i, j) * sg[i][0]  # at p_i: the sign of (g_i^0 g_j^1 - g_i^1 g_j^0) (g_i^0 - g_i^1)

    found = []
    for p, pure, curve in cands:
        q, value, free = list(q0), base, []
        for j in live:
            s = gain_sign(j, pure, curve)
            if s == 0:
                free.append(j)
            elif s > 0:
                q[j], value = _ONE, value + game.delta[j]
        if len(free) > MAX_INDIFFERENT:
            raise NotProven(f"player II is indifferent at {len(free)} information sets at once at alpha = {alpha} "
                            f"(p = {p}); the sweep lists extreme equilibria for at most {MAX_INDIFFERENT}")
        want = "le" if pure == 0 else ("ge" if pure == 1 else "eq")
        for x in _vertices(value, [game.delta[j] for j in free], want):
            for j, v in zip(free, x):
                q[j] = v
            found.append((pure, curve, p, tuple(q)))
    continua = []
    for k in range(len(cands) - 1):
        value, low, high = base, 0, 0
        for j in live:
            s0, s1 = sg[j]
            if s0 * s1 < 0:  # a discontinuity: the sign of g^0 below it, of g^1 above
                s = s0 if position[j] > k else s1
            else:
                s = s0 or s1
            if s > 0:
                value += game.delta[j]
            elif s == 0:  # both gains 0: indifferent at every p
                low, high = low + min(0, game.delta[j]), high + max(0, game.delta[j])
        if value + low <= 0 <= value + high:
            (pa, ua, ca), (pb, ub, cb) = cands[k], cands[k + 1]
            continua.append(((ua, ca, pa), (ub, cb, pb)))
    open_ = tuple(j for j in live if not (sg[j][0] == sg[j][1] != 0))
    return found, continua, open_


def _formula(game: LinearAdditiveGame, curve: int | None) -> tuple[int, int, int, int] | None:
    if curve is None:
        return None
    (c0, c1), (e0, e1) = game.c[curve], game.e[curve]
    return (c0, e0, c0 - c1, e0 - e1)


def _end(game: LinearAdditiveGame, pure: int | None, curve: int | None) -> int | tuple[int, int, int, int]:
    """A continuum's end over a piece: player I's pure strategy, or the formula of his p."""
    f = _formula(game, curve)
    return pure if f is None else f  # type: ignore[return-value]


def _pieces(game: LinearAdditiveGame, bps: list[Real], live: list[int],
            fixed: dict[int, int]) -> tuple[list[Piece], list[AlphaPoint]]:
    """The extreme equilibria on each cell between breakpoints (equal neighbours merged), and
    the breakpoints where they are not the limits of a neighbouring piece's."""
    pieces: list[Piece] = []
    for x, y in zip(bps, bps[1:]):
        found, continua, open_ = _equilibria_at(game, rational_between(x, y), live, fixed)
        branches = tuple(Branch(pure, curve, _formula(game, curve), q) for pure, curve, _, q in found)
        ends = tuple((_end(game, ua, ca), _end(game, ub, cb)) for (ua, ca, _), (ub, cb, _) in continua)
        if pieces and (pieces[-1].branches, pieces[-1].continua, pieces[-1].open) == (branches, ends, open_):
            pieces[-1] = Piece(pieces[-1].lo, y, branches, ends, open_)
        else:
            pieces.append(Piece(x, y, branches, ends, open_))
    special = []
    for b in bps:
        found, continua, open_ = _equilibria_at(game, b, live, fixed)
        here = {(_simplest(p), tuple(q[j] for j in live)) for _, _, p, q in found}  # fixed sets agree
        for pc in pieces:
            if pc.lo <= b <= pc.hi:
                limit = {(_simplest(br.limit(b)), tuple(br.q[j] for j in live)) for br in pc.branches}
                if limit != here or bool(pc.continua) != bool(continua):
                    eqs = tuple((_simplest(p), q) for _, _, p, q in found)
                    pairs = tuple((_simplest(pa), _simplest(pb)) for (_, _, pa), (_, _, pb) in continua)
                    special.append(AlphaPoint(b, eqs, pairs, open_))
                    break
    return pieces, special


def _simplest(x) -> Real:
    return QuadraticNumber.of(x)


def _branch_intervals(pieces: list[Piece]) -> list[Interval]:
    """One interval per extreme equilibrium and maximal run of pieces it belongs to."""
    out: list[Interval] = []
    active: dict[Branch, Real] = {}
    prev: Real | None = None

    def close(br: Branch, lo: Real, hi: Real) -> None:
        mixed = [k for k, v in enumerate(br.q) if 0 < v < 1]  # a vertex mixes at one set at most
        i = mixed[0] if mixed else None
        moves = tuple(0 if k == i else (1 if v == 1 else -1) for k, v in enumerate(br.q))
        out.append(Interval(lo, hi, i, None if i is None else br.q[i], br.p_formula, br.pure, moves))

    for pc in pieces:
        for br in [b for b in active if b not in pc.branches]:
            assert prev is not None  # a branch is active only after a piece
            close(br, active.pop(br), prev)
        for br in pc.branches:
            active.setdefault(br, pc.lo)
        prev = pc.hi
    for br, lo in active.items():
        assert prev is not None
        close(br, lo, prev)
    return sorted(out, key=lambda iv: (iv.lo, iv.hi))


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
