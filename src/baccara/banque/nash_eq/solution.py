"""Baccara banque: the Nash equilibrium of the simplified model (Ethier and Lee 2015, section 5).

Player 1 draws at 5 with probability p1, Player 2 independently with p2;
Banker chooses at each of his 1144 information sets.  Each Player cares
only about his own result: Player 1's gain from drawing is

    Delta1(p2, x) = d/dp1 [R1^0 + sum_i x_i R1^i](p1, p2),

linear in p2 and in Banker's behavioural strategy x (R1^i: Player 1's gain
when Banker draws at i, a bilinear function of (p1, p2); see
:mod:`baccara.solve.arrangement`), and likewise Delta2(p1, x).
Banker draws at i where the Players' stake-weighted gain
B_i = theta R1^i + (1 - theta) R2^i is negative.

Every Nash equilibrium (p1, p2, x), exactly
-------------------------------------------
Classify by where (p1, p2) lies in the arrangement of the curves B_i = 0:

(a) a corner; (b) a curve meeting an edge; (c) two curves crossing
    (p1, p2 in Q(sqrt D)) -- the arrangement's points;
(d) the open segment of one curve i between consecutive points: Banker mixes
    only at i, both Players indifferent: Delta1 = A1 + x_i B1 = 0 and
    Delta2 = A2 + x_i B2 = 0 force A1 B2 - A2 B1 = 0, a bilinear equation,
    so (p1, p2) is a root of a quadratic along the curve;
(e) the interior of a cell, Banker pure: Delta1(p2) = 0 and Delta2(p1) = 0
    fix p2 and p1 (rational), which must lie in that cell;
(f) an edge between points, Banker pure: the mixing Player's indifference
    does not depend on where he is on the edge (his gain depends on the
    other's fixed move), so such equilibria form segments whose closures
    reach a point of (a)-(b); they are reported as continua.

At each candidate, Banker's indifferent sets Z are exact, and the Banker
strategies that make (p1, p2) best replies form a polytope in [0, 1]^Z whose
vertices are listed (the *extreme behavioural* strategies); the extreme
equilibria in Banker's mixed strategies over his pure choices on Z (the
eleven of Ethier and Lee (2015) at theta = 1/2) are the vertices of the corresponding
polytope in the simplex.  Cells (e) are found by an exact vertical decomposition
of the square (:func:`_cell_points`: no cell is too thin to be seen), every hit
verified exactly.  Each equilibrium carries a certificate checked
on the full 1144-set game, independent of the arrangement.

Degenerate cases are flagged in ``continua`` rather than enumerated:
coinciding curves (proportional B_i, where Banker may mix at several sets
along one curve: sampled), a Player indifferent on a whole cell or edge
segment.  Not searched: a curve lying along an edge of the square, or a
degenerate hyperbola (a pair of lines) meeting itself.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product

import numpy as np

from ...algebraic import QuadraticNumber, quadratic_roots, real_json, simplest
from ...algebraic import fraction_str as fstr
from ...errors import BaccaraError
from ...result import Result
from ...solve.arrangement import Arrangement, arrangement, at, crosses_square, curve_segments, p2_on_curve
from ...solve.linalg import polytope_vertices
from ...solve.sweep import rational_between
from ..model import INFOSETS, BanqueGame, banque_game, infoset_label
from ..report import nash_renderables, nash_summary

F0, F1 = Fraction(0), Fraction(1)


def _coinciding(curves) -> list[tuple[int, ...]]:
    """Groups of curves with proportional coefficients (the same zero set)."""
    keys: dict[tuple, list[int]] = {}
    for k, c in enumerate(curves):
        lead = next(v for v in c if v != 0)
        keys.setdefault(tuple(Fraction(v) / lead for v in c), []).append(k)
    return [tuple(v) for v in keys.values()]


def _lin_p2(c) -> tuple:  # d/dp1 of a bilinear: c1 + c3 p2
    return (c[1], c[3])


def _lin_p1(c) -> tuple:  # d/dp2: c2 + c3 p1
    return (c[2], c[3])


def _ev(lin, t):
    return lin[0] + lin[1] * t


@dataclass(frozen=True)
class BanqueNashEquilibrium:
    """An extreme Nash equilibrium in behavioural strategies."""

    p1: Fraction | QuadraticNumber
    p2: Fraction | QuadraticNumber
    draw: tuple[Fraction | QuadraticNumber, ...]   # Banker's draw probability per information set
    mixed: tuple[int, ...]                         # information sets where Banker is indifferent
    result1: Fraction | QuadraticNumber            # Player 1's expectation per unit he stakes
    result2: Fraction | QuadraticNumber            # Player 2's
    banker: Fraction | QuadraticNumber             # Banker's expectation per unit of total stake


@dataclass(repr=False)
class BanqueNashSet(Result):
    """Every Nash equilibrium of the simplified model at one theta (a :class:`~baccara.result.Result`)."""

    theta: Fraction
    game: BanqueGame = field(default_factory=banque_game)
    equilibria: list[BanqueNashEquilibrium] = field(default_factory=list)
    points: list[tuple] = field(default_factory=list)      # (p1, p2, Z) with equilibria
    continua: list[str] = field(default_factory=list)
    candidates: int = 0
    cells: int = 0

    @property
    def player_strategies(self) -> list[tuple]:
        """The distinct (p1, p2) among the equilibria, in order."""
        return sorted({(e.p1, e.p2) for e in self.equilibria})

    def to_json(self) -> dict:
        """The ``baccara banque solve --concept nash --json`` document (:func:`nash_json`; computed
        once, its certificates included)."""
        key = (len(self.equilibria), len(self.points), len(self.continua))
        if self.__dict__.get("_doc_key") != key:
            self.__dict__["_doc"], self.__dict__["_doc_key"] = nash_json(self), key
        return copy.deepcopy(self.__dict__["_doc"])

    def summary(self) -> str:
        """One line: theta and how many extreme equilibria."""
        return nash_summary(self.to_json())

    def renderables(self) -> list:
        """The Players' strategies, each extreme equilibrium and its certificate."""
        return nash_renderables(self.to_json())


class _Setup:
    """The game at theta split into Banker's fixed moves and his relevant curves."""

    def __init__(self, theta: Fraction, game: BanqueGame | None = None) -> None:
        self.theta = theta
        self.game = game or banque_game()
        r10, r20, r1, r2 = self.game.bilinears
        n = len(r1)
        self.B = [tuple(theta * a + (1 - theta) * b for a, b in zip(r1[i], r2[i])) for i in range(n)]
        self.r1, self.r2 = r1, r2
        self.relevant = [i for i in range(n) if crosses_square(self.B[i])]
        always = [i for i in range(n) if not any(self.B[i]) and (any(r1[i]) or any(r2[i]))]
        if always:
            raise BaccaraError("an information set where Banker is indifferent everywhere: not supported")
        rel = set(self.relevant)
        # a curve missing the square has one sign on all of it: Banker draws there if negative
        self.fixed_draw = [i for i in range(n) if i not in rel and any(self.B[i]) and at(self.B[i], F0, F0) < 0]
        d1 = [int(v) for v in _lin_p2(r10)]      # integers over 13^9: sums stay in Python ints
        d2 = [int(v) for v in _lin_p1(r20)]
        for i in self.fixed_draw:
            d1 = [a + b for a, b in zip(d1, _lin_p2(r1[i]))]
            d2 = [a + b for a, b in zip(d2, _lin_p1(r2[i]))]
        self.d1, self.d2 = tuple(d1), tuple(d2)   # Delta1 = d1 . (1, p2) + ..., Delta2 = d2 . (1, p1) + ...
        self.curves = [self.B[i] for i in self.relevant]
        self.e1 = [_lin_p2(r1[i]) for i in self.relevant]
        self.e2 = [_lin_p1(r2[i]) for i in self.relevant]
        # curves that coincide (proportional B_i): Banker is indifferent at all of them at once
        self.siblings: dict[int, tuple[int, ...]] = {}
        for grp in _coinciding(self.curves):
            for k in grp:
                self.siblings[k] = grp
        self._floats: dict | None = None

    def float_arrays(self) -> dict:
        if self._floats is None:
            C = np.array([[float(v) for v in c] for c in self.curves]).reshape(-1, 4)
            e1 = np.array([[float(v) for v in r] for r in self.e1]).reshape(-1, 2)
            e2 = np.array([[float(v) for v in r] for r in self.e2]).reshape(-1, 2)
            self._floats = {"C": C, "e1": e1, "e2": e2, "scale": max(np.abs(C).max(initial=0), 1e-300),
                            "d1": np.array([float(v) for v in self.d1]), "d2": np.array([float(v) for v in self.d2]),
                            "gscale": max(np.abs(e1).max(initial=0), np.abs(e2).max(initial=0), 1e-300)}
        return self._floats

    def moves(self, p1, p2) -> tuple[list[int], list[int]]:
        """(relevant curves where Banker draws, curves through the point), exactly."""
        draw, zero = [], []
        for k, c in enumerate(self.curves):
            v = at(c, p1, p2)
            if v == 0:
                zero.append(k)
            elif v < 0:
                draw.append(k)
        return draw, zero

    def draw_at(self, p1, p2, skip: int = -1) -> list[int]:
        """Curves (other than ``skip``) where Banker draws, at a point off every other curve
        (a segment's or an edge's interior sample): floats when every value is clearly
        signed, else exact."""
        F = self.float_arrays()
        vals = F["C"] @ np.array([1.0, float(p1), float(p2), float(p1) * float(p2)])
        if skip >= 0:
            vals[skip] = np.inf
        if np.min(np.abs(vals), initial=np.inf) > 1e-9 * F["scale"]:
            return [int(k) for k in np.flatnonzero(vals < 0)]
        return [k for k in self.moves(p1, p2)[0] if k != skip]

    def deltas(self, p1, p2, draw) -> tuple:
        """Delta1, Delta2 with Banker drawing at ``draw`` (relevant indices) and at the fixed sets."""
        a1 = _ev(self.d1, p2) + sum((_ev(self.e1[k], p2) for k in draw), F0)
        a2 = _ev(self.d2, p1) + sum((_ev(self.e2[k], p1) for k in draw), F0)
        return a1, a2


def _conditions(setup: _Setup, p1, p2, draw, zero):
    """Equalities and inequalities on Banker's x over ``zero`` making p1 and p2 best replies."""
    a1, a2 = setup.deltas(p1, p2, draw)
    rows1 = [_ev(setup.e1[k], p2) for k in zero]
    rows2 = [_ev(setup.e2[k], p1) for k in zero]
    eq_rows, eq_rhs, le_rows, le_rhs = [], [], [], []
    for p, a, row in ((p1, a1, rows1), (p2, a2, rows2)):
        if 0 < p < 1:
            eq_rows.append(row)
            eq_rhs.append(-a)
        elif p == 0:       # Delta <= 0
            le_rows.append(row)
            le_rhs.append(-a)
        else:              # Delta >= 0
            le_rows.append([-v for v in row])
            le_rhs.append(a)
    return eq_rows, eq_rhs, le_rows, le_rhs


def _supporting(setup: _Setup, p1, p2, draw, zero) -> list[tuple]:
    """Vertices of the polytope of Banker's draw probabilities at the curves ``zero`` through
    (p1, p2) that make p1 and p2 best replies (his other moves: draw at ``draw``)."""
    eq_rows, eq_rhs, le_rows, le_rhs = _conditions(setup, p1, p2, draw, zero)
    brows, brhs = _box(len(zero))
    return polytope_vertices(eq_rows, eq_rhs, le_rows + brows, le_rhs + brhs, len(zero))


def _box(m: int) -> tuple[list, list]:
    rows, rhs = [], []
    for t in range(m):
        unit = [F0] * m
        unit[t] = F1
        rows += [unit, [-v for v in unit]]
        rhs += [F1, F0]
    return rows, rhs


def _check_point(setup: _Setup, p1, p2, out: BanqueNashSet, seen: set) -> None:
    key = (QuadraticNumber.of(p1), QuadraticNumber.of(p2))
    if key in seen:
        return
    seen.add(key)
    out.candidates += 1
    if not _float_feasible(setup, float(p1), float(p2)):
        return
    draw, zero = setup.moves(p1, p2)
    if len(zero) > MAX_EXACT_DIM:
        out.continua.append(f"not enumerated: Banker indifferent at {len(zero)} sets at once at "
                            f"({float(p1):.6f}, {float(p2):.6f})")
        return
    verts = _supporting(setup, p1, p2, draw, zero)
    if not verts:
        return
    out.points.append((simplest(p1), simplest(p2), tuple(setup.relevant[k] for k in zero)))
    for v in verts:
        x = {setup.relevant[k]: F1 for k in draw}
        x.update({i: F1 for i in setup.fixed_draw})
        for k, xv in zip(zero, v):
            x[setup.relevant[k]] = xv
        out.equilibria.append(_equilibrium(setup, key[0], key[1], x, tuple(setup.relevant[k] for k in zero)))


MAX_EXACT_DIM = 8


def _float_feasible(setup: _Setup, p1: float, p2: float) -> bool:
    """Float screen: can some Banker strategy over the curves through (p1, p2) (up to a
    margin) make p1 and p2 best replies?  Errs towards True (HiGHS's tolerances relax
    the constraints); only clearly infeasible points are dropped."""
    from scipy.optimize import linprog

    F = setup.float_arrays()
    vals = F["C"] @ np.array([1.0, p1, p2, p1 * p2])
    tol = 1e-9 * F["scale"]
    zero = np.abs(vals) <= tol
    draw = (vals < 0) & ~zero
    a1 = F["d1"][0] + F["d1"][1] * p2 + (F["e1"][draw, 0] + F["e1"][draw, 1] * p2).sum()
    a2 = F["d2"][0] + F["d2"][1] * p1 + (F["e2"][draw, 0] + F["e2"][draw, 1] * p1).sum()
    r1 = F["e1"][zero, 0] + F["e1"][zero, 1] * p2
    r2 = F["e2"][zero, 0] + F["e2"][zero, 1] * p1
    m = int(zero.sum())
    g = F["gscale"]
    eqs, ubs = [], []
    for p, a, r in ((p1, a1, r1), (p2, a2, r2)):
        if 1e-12 < p < 1 - 1e-12:
            eqs.append((r, -a))
        elif p <= 1e-12:
            ubs.append((r, -a))
        else:
            ubs.append((-r, a))
    if m == 0:
        return all(abs(c) <= 1e-7 * g for _, c in eqs) and all(c >= -1e-7 * g for _, c in ubs)
    if m == 1:   # an interval of x in [0, 1]: no LP needed
        lo, hi = 0.0, 1.0
        for (r, c), is_eq in [(e, True) for e in eqs] + [(u, False) for u in ubs]:
            r, c = float(r[0]) / g, float(c) / g
            if abs(r) <= 1e-12:
                if (abs(c) if is_eq else -c) > 1e-7:
                    return False
                continue
            x = c / r
            slack = 1e-7 / abs(r)
            if is_eq:
                lo, hi = max(lo, x - slack), min(hi, x + slack)
            elif r > 0:
                hi = min(hi, x + slack)
            else:
                lo = max(lo, x - slack)
        return lo <= hi + 1e-12
    if m == 2 and len(eqs) == 2:   # both Players mixing at a crossing: a 2 x 2 system
        A = np.array([r for r, _ in eqs]) / g
        b = np.array([c for _, c in eqs]) / g
        if np.linalg.cond(A) < 1e6:
            x = np.linalg.solve(A, b)
            slack = 1e-7 * np.abs(np.linalg.inv(A)).sum()
            return bool(np.all(x >= -slack) and np.all(x <= 1 + slack))
    kw = {}
    if eqs:
        kw["A_eq"] = np.array([r for r, _ in eqs]) / g
        kw["b_eq"] = np.array([c for _, c in eqs]) / g
    if ubs:
        kw["A_ub"] = np.array([r for r, _ in ubs]) / g
        kw["b_ub"] = np.array([c for _, c in ubs]) / g + 1e-7
    res = linprog(np.zeros(m), bounds=[(0, 1)] * m, method="highs", **kw)
    return res.status != 2


def _equilibrium(setup: _Setup, p1, p2, x: dict, mixed) -> BanqueNashEquilibrium:
    r10, r20, r1, r2 = setup.game.bilinears
    # sum the integer coefficients of the sets where Banker surely draws, then evaluate once
    sure = [i for i, xv in x.items() if xv == 1]
    c1 = [a + sum(r1[i][k] for i in sure) for k, a in enumerate(r10)]
    c2 = [a + sum(r2[i][k] for i in sure) for k, a in enumerate(r20)]
    res1 = at(c1, p1, p2) + sum((xv * at(r1[i], p1, p2) for i, xv in x.items() if xv and xv != 1), F0)
    res2 = at(c2, p1, p2) + sum((xv * at(r2[i], p1, p2) for i, xv in x.items() if xv and xv != 1), F0)
    D = setup.game.denominator
    res1, res2 = QuadraticNumber.of(res1) / D, QuadraticNumber.of(res2) / D
    banker = -(setup.theta * res1 + (1 - setup.theta) * res2)
    draw = tuple(simplest(x.get(i, F0)) for i in range(len(r1)))
    return BanqueNashEquilibrium(simplest(p1), simplest(p2), draw, mixed, simplest(res1), simplest(res2),
                                 simplest(banker))


def nash_equilibria(game: BanqueGame, theta: Fraction) -> BanqueNashSet:
    """Every Nash equilibrium of the simplified model at ``theta`` (module docstring).

    Parameters
    ----------
    game : BanqueGame
        The game (:func:`~baccara.banque.model.banque_game`; ``banque_game()`` is the paper's
        infinite shoe).
    theta : Fraction
        Player 1's share of the total stake, in (0, 1).

    Returns
    -------
    BanqueNashSet
        The extreme equilibria in behavioural strategies, each certified by :func:`certify`.
    """
    setup = _Setup(theta, game)
    arr = arrangement(setup.curves)
    out = BanqueNashSet(theta, setup.game)
    seen: set = set()
    for p1, p2 in arr.points():                                   # (a), (b), (c)
        _check_point(setup, p1, p2, out, seen)
    for k in range(len(setup.curves)):                            # (d)
        for r1_, r2_ in _along_curve(setup, arr, k, out):
            _check_point(setup, r1_, r2_, out, seen)
    for p1, p2 in _cell_points(setup, arr, out):                   # (e)
        _check_point(setup, p1, p2, out, seen)
    _edge_continua(setup, arr, out)                               # (f)
    return out


def _along_curve(setup: _Setup, arr: Arrangement, k: int, out: BanqueNashSet) -> list[tuple]:
    """Points of curve k, off the arrangement's points, where both Players can be indifferent
    with Banker mixing only at k: roots of A1 B2 - A2 B1 = 0 along the curve."""
    c = setup.curves[k]
    found = []
    group = setup.siblings.get(k, (k,))
    if len(group) > 1:
        if k == group[0]:
            found.extend(_along_coinciding(setup, arr, group, out))
        return found
    if c[2] == 0 and c[3] == 0:   # a vertical line p1 = v: parametrise by p2
        if c[1] == 0:
            return found
        v = -c[0] / c[1]
        cuts = sorted({F0, F1} | {p2_on_curve(d, v) for j, d in enumerate(setup.curves)
                                  if j != k and p2_on_curve(d, v) is not None and 0 < p2_on_curve(d, v) < 1})
        for lo, hi in zip(cuts, cuts[1:]):
            mid = (lo + hi) / 2
            draw = setup.draw_at(v, mid, skip=k)
            a1 = lambda t, draw=draw: _ev(setup.d1, t) + sum((_ev(setup.e1[j], t) for j in draw), F0)  # noqa: E731
            a2 = _ev(setup.d2, v) + sum((_ev(setup.e2[j], v) for j in draw), F0)
            b2 = _ev(setup.e2[k], v)
            # a1(t) b2 - a2 b1(t) = 0, linear in t
            c0 = a1(F0) * b2 - a2 * _ev(setup.e1[k], F0)
            c1 = (a1(F1) - a1(F0)) * b2 - a2 * (setup.e1[k][1])
            if c1 != 0 and lo < -c0 / c1 < hi:
                found.append((v, -c0 / c1))
            elif c0 == 0 and c1 == 0:
                out.continua.append(f"possible continuum along {infoset_label(INFOSETS[setup.relevant[k]])}")
        return found
    for lo, hi in curve_segments(arr, k):
        mid = rational_between(lo, hi)
        p2m = p2_on_curve(c, mid)
        if p2m is None or not (0 < p2m < 1):
            continue
        draw = setup.draw_at(mid, p2m, skip=k)
        # A1(p2) = a + b p2, B1(p2) = e + f p2; A2(p1) = g + h p1, B2(p1) = s + t p1
        a = setup.d1[0] + sum(setup.e1[j][0] for j in draw)
        b = setup.d1[1] + sum(setup.e1[j][1] for j in draw)
        e, f = setup.e1[k]
        g_ = setup.d2[0] + sum(setup.e2[j][0] for j in draw)
        h = setup.d2[1] + sum(setup.e2[j][1] for j in draw)
        s, t = setup.e2[k]
        # p2 = N / Dn with N = -(c0 + c1 p1), Dn = c2 + c3 p1; multiply through by Dn
        N = (-c[0], -c[1])
        Dn = (c[2], c[3])
        A1n = (a * Dn[0] + b * N[0], a * Dn[1] + b * N[1])
        B1n = (e * Dn[0] + f * N[0], e * Dn[1] + f * N[1])
        poly = _sub(_mul(A1n, (s, t)), _mul((g_, h), B1n))
        if not any(poly):
            out.continua.append(f"possible continuum along {infoset_label(INFOSETS[setup.relevant[k]])}")
            continue
        for r in quadratic_roots(poly[2], poly[1], poly[0]):
            if lo < r < hi:
                p2 = p2_on_curve(c, r)
                if p2 is not None and 0 < p2 < 1:
                    found.append((r, p2))
    return found


def _along_coinciding(setup: _Setup, arr: Arrangement, group: tuple[int, ...], out: BanqueNashSet) -> list[tuple]:
    """Curves that coincide: on their common segments Banker may mix at all of them, two
    equations in len(group) unknowns, so equilibria there would form a continuum.  Each
    segment is sampled (20 rational points on the curve, checked exactly when the float
    screen admits them); any equilibrium found is reported and the continuum flagged."""
    k = group[0]
    c = setup.curves[k]
    found: list[tuple[Fraction, Fraction]] = []
    if c[2] == 0 and c[3] == 0:
        out.continua.append("coinciding vertical curves not searched: "
                            + ", ".join(infoset_label(INFOSETS[setup.relevant[j]]) for j in group))
        return found
    for lo, hi in curve_segments(arr, k):
        a, b = float(lo), float(hi)
        for t in range(1, 21):
            p1 = Fraction(a + (b - a) * t / 21).limit_denominator(10**9)
            if not (lo < p1 < hi):
                continue
            p2 = p2_on_curve(c, p1)
            if p2 is None or not (0 < p2 < 1):
                continue
            if _float_feasible(setup, float(p1), float(p2)):
                found.append((p1, p2))
    if found:
        out.continua.append("equilibria along coinciding curves (a continuum; sampled points listed): "
                            + ", ".join(infoset_label(INFOSETS[setup.relevant[j]]) for j in group))
    return found


def _mul(u, v):
    return (u[0] * v[0], u[0] * v[1] + u[1] * v[0], u[1] * v[1])


def _sub(u, v):
    return tuple(a - b for a, b in zip(u, v))


def _cell_points(setup: _Setup, arr: Arrangement, out: BanqueNashSet) -> list[tuple]:
    """(e): for every cell of the arrangement, the point where both Players are indifferent
    against Banker's pure best reply there (checked afterwards, exactly, by :func:`_check_point`).

    The cells are found by an exact vertical decomposition: the slabs between consecutive
    abscissae of the arrangement's points and of the curves' vertical asymptotes (every curve is
    the graph of a function of p1 on each slab, and no two cross inside one), a rational abscissa
    inside each, and on that vertical line the curves' rational ordinates, sorted exactly; crossing
    an ordinate flips the sign of the curves through it.  Every cell meets some slab's line, so
    every cell's sign vector is listed, however thin the cell."""
    curves = setup.curves
    xs = {QuadraticNumber.of(F0), QuadraticNumber.of(F1)} | {QuadraticNumber.of(p[0]) for p in arr.points()}
    for c in curves:
        if c[3] != 0 and 0 < -c[2] / c[3] < 1:
            xs.add(QuadraticNumber.of(-c[2] / c[3]))
    order = sorted(xs)
    rows: set[tuple[bool, ...]] = set()
    for lo, hi in zip(order, order[1:]):
        m = rational_between(lo, hi)
        start = []
        ys: dict[Fraction, list[int]] = {}
        for k, c in enumerate(curves):
            v, slope = c[0] + c[1] * m, c[2] + c[3] * m          # B_k(m, p2) = v + slope p2
            if v == 0 and slope == 0:
                raise BaccaraError(f"a curve contains the vertical line p1 = {m}: not supported")
            start.append(v < 0 or (v == 0 and slope < 0))          # the sign just above p2 = 0
            if slope != 0 and 0 < -v / slope < 1:
                ys.setdefault(-v / slope, []).append(k)
        row = list(start)
        rows.add(tuple(row))
        for y in sorted(ys):
            for k in ys[y]:
                row[k] = not row[k]
            rows.add(tuple(row))
    out.cells = len(rows)
    found = []
    for sign in rows:
        draw = [k for k, d in enumerate(sign) if d]
        ex1 = [setup.d1[0] + sum(setup.e1[k][0] for k in draw), setup.d1[1] + sum(setup.e1[k][1] for k in draw)]
        ex2 = [setup.d2[0] + sum(setup.e2[k][0] for k in draw), setup.d2[1] + sum(setup.e2[k][1] for k in draw)]
        if ex1[1] == 0 or ex2[1] == 0:
            if (ex1[1] == 0 and ex1[0] == 0) or (ex2[1] == 0 and ex2[0] == 0):
                out.continua.append("a Player indifferent throughout a cell of the arrangement (not enumerated)")
            continue
        q1, q2 = Fraction(-ex2[0], ex2[1]), Fraction(-ex1[0], ex1[1])
        if 0 < q1 < 1 and 0 < q2 < 1:
            found.append((q1, q2))
    return sorted(set(found))


def _edge_continua(setup: _Setup, arr: Arrangement, out: BanqueNashSet) -> None:
    """(f): an edge segment between arrangement points on which the mixing Player is
    indifferent against Banker's pure best reply everywhere (reported, not enumerated)."""
    for fixed_axis in (0, 1):
        for v in (F0, F1):
            cuts = sorted({QuadraticNumber.of(0), QuadraticNumber.of(1)} | {
                QuadraticNumber.of(p[1 - fixed_axis]) for p in arr.points() if p[fixed_axis] == v})
            for lo, hi in zip(cuts, cuts[1:]):
                mid = rational_between(lo, hi)
                p1, p2 = (v, mid) if fixed_axis == 0 else (mid, v)
                d1, d2 = setup.deltas(p1, p2, setup.draw_at(p1, p2))
                mixing, other = (d2, d1) if fixed_axis == 0 else (d1, d2)
                # the Player on the fixed edge must prefer his pure move there (at the sample)
                other_ok = other <= 0 if v == 0 else other >= 0
                if mixing == 0 and other_ok:
                    out.continua.append(f"Player {2 if fixed_axis == 0 else 1} indifferent along the edge "
                                        f"p{fixed_axis + 1} = {v}, between {float(lo):.6f} and {float(hi):.6f}")


# ---------------------------------------------------------------- certificates and mixtures
@dataclass(frozen=True)
class BanqueNashCertificate:
    """No profitable deviation, checked on the full game: each Player's expectation and his
    best pure reply's, Banker's expectation and his best reply's (sum of positive gains)."""

    player1: tuple
    player2: tuple
    banker: tuple
    holds: bool


def certify(theta: Fraction, eq: BanqueNashEquilibrium, game: BanqueGame | None = None) -> BanqueNashCertificate:
    """Check a Nash equilibrium on the whole game, independently of how it was found.

    Parameters
    ----------
    theta : Fraction
        Player 1's share of the total stake.
    eq : BanqueNashEquilibrium
        The claimed equilibrium.
    game : BanqueGame, optional
        The game (default: the paper's infinite shoe).

    Returns
    -------
    BanqueNashCertificate
        Each side's expectation beside his best reply's; ``holds`` when none gains.
    """
    r10, r20, r1, r2 = (game or banque_game()).bilinears
    t = Fraction(theta)
    p1, p2, x = eq.p1, eq.p2, eq.draw

    def res(base, gains, a, b):
        return at(base, a, b) + sum((xv * at(gains[i], a, b) for i, xv in enumerate(x) if xv), F0)

    P1 = [QuadraticNumber.of(res(r10, r1, a, p2)) for a in (F0, F1)]
    P2 = [QuadraticNumber.of(res(r20, r2, p1, b)) for b in (F0, F1)]
    own1, own2 = QuadraticNumber.of(res(r10, r1, p1, p2)), QuadraticNumber.of(res(r20, r2, p1, p2))
    gains = [-(t * at(r1[i], p1, p2) + (1 - t) * at(r2[i], p1, p2)) for i in range(len(r1))]
    ban = QuadraticNumber.of(sum((xv * gv for xv, gv in zip(x, gains) if xv), F0))
    best = QuadraticNumber.of(sum((gv for gv in gains if gv > 0), F0))
    box = 0 <= p1 <= 1 and 0 <= p2 <= 1 and all(0 <= v <= 1 for v in x)
    holds = box and own1 == max(P1) and own2 == max(P2) and ban == best
    return BanqueNashCertificate((own1, max(P1)), (own2, max(P2)), (ban, best), holds)


def extreme_mixtures(theta: Fraction, p1, p2, mixed: tuple[int, ...],
                     game: BanqueGame | None = None) -> list[tuple[tuple[str, ...], tuple]]:
    """Banker's extreme equilibrium mixtures over his pure choices at the ``mixed`` sets
    (Ethier and Lee 2015, section 5: eleven at theta = 1/2), as (labels SS..DD, weights)."""
    setup = _Setup(Fraction(theta), game)
    draw, zero = setup.moves(p1, p2)
    zero_sets = [setup.relevant[k] for k in zero]
    assert sorted(zero_sets) == sorted(mixed)
    pures = list(product((0, 1), repeat=len(zero)))
    eq_rows, eq_rhs, le_rows, le_rhs = _conditions(setup, p1, p2, draw, zero)
    # in mixture space: a row r . x becomes sum_s mu_s (r . s)
    def lift(rows):
        return [[sum((rv * b for rv, b in zip(r, s)), F0) for s in pures] for r in rows]
    n = len(pures)
    E, e = lift(eq_rows) + [[F1] * n], list(eq_rhs) + [F1]
    L, l_ = lift(le_rows) + [[-F1 if t == u else F0 for u in range(n)] for t in range(n)], list(le_rhs) + [F0] * n
    verts = polytope_vertices(E, e, L, l_, n)
    labels = tuple("".join("D" if b else "S" for b in s) for s in pures)
    return [(labels, v) for v in verts]


def nash_json(sol: BanqueNashSet) -> dict:
    """The contract of ``baccara banque solve --concept nash --json``."""
    g = sol.game
    eqs = []
    for e in sol.equilibria:
        cert = certify(sol.theta, e, g)
        eqs.append({
            "players": {"p1": real_json(e.p1), "p2": real_json(e.p2)},
            "banker": {"mixed": {infoset_label(g.infosets[i]): real_json(QuadraticNumber.of(e.draw[i])) for i in e.mixed}},
            "expectations": {"player1_per_unit_bet": real_json(e.result1), "player2_per_unit_bet": real_json(e.result2),
                             "banker_per_unit_total_stake": real_json(e.banker)},
            "certificate": {"holds": cert.holds},
        })
    points = []
    for p1, p2, Z in sol.points:
        row = {"p1": real_json(p1), "p2": real_json(p2), "banker_indifferent_at": [infoset_label(g.infosets[i]) for i in Z]}
        if 0 < len(Z) <= 4:
            row["banker_extreme_mixtures"] = [
                {lab: real_json(w)["exact"] for lab, w in zip(labels, v) if w != 0}
                for labels, v in extreme_mixtures(sol.theta, p1, p2, Z, g)]
        points.append(row)
    return {
        "theta": fstr(sol.theta),
        "concept": "nash",
        "model": "simplified",
        "shoe": g.shoe_json(),
        "players": [{"p1": real_json(a), "p2": real_json(b)} for a, b in sol.player_strategies],
        "points": points,
        "equilibria": eqs,
        "extreme_equilibria": len(eqs),
        "continua": sol.continua,
        "search": {"candidate_points": sol.candidates, "cells": sol.cells},
    }


# ---------------------------------------------------------------- theta > 5772/33847
NINE_ELEVENTHS = Fraction(9, 11)


def nine_elevenths_breaks(lo: Fraction = Fraction(1, 10), hi: Fraction = Fraction(1, 2),
                          game: BanqueGame | None = None) -> list[Fraction]:
    """The theta in [lo, hi) where Banker's best response to p1 = p2 = 9/11 changes: roots of
    B_i(9/11, 9/11; theta) = theta R1^i + (1 - theta) R2^i, linear in theta, so rational.
    (Ethier and Lee (2015), section 5: on each interval between them the Nash equilibria have
    p1 = p2 = 9/11, for theta > 5772/33847, with Banker's strategy changing at each.)"""
    r10, r20, r1, r2 = (game or banque_game()).bilinears
    p = NINE_ELEVENTHS
    roots = set()
    for a, b in zip(r1, r2):
        x, y = at(a, p, p), at(b, p, p)          # B(theta) = y + theta (x - y)
        if x != y:
            t = Fraction(-y) / (x - y)
            if lo <= t < hi:
                roots.add(t)
    return sorted(roots)


def nine_elevenths_equilibrium_exists(theta: Fraction, game: BanqueGame | None = None) -> bool:
    """Is there a Nash equilibrium with p1 = p2 = 9/11 at ``theta``?  (Some Banker best reply
    to 9/11 makes both Players indifferent: a polytope check at one point.)"""
    setup = _Setup(theta, game)
    draw, zero = setup.moves(NINE_ELEVENTHS, NINE_ELEVENTHS)
    return bool(_supporting(setup, NINE_ELEVENTHS, NINE_ELEVENTHS, draw, zero))


def nash_upper_sweep(game: BanqueGame | None = None) -> dict:
    """The Nash equilibria for theta in (5772/33847, 1/2], exactly (Ethier and Lee 2015, section 5): the
    intervals between consecutive changes of Banker's best response to p1 = p2 = 9/11, each
    checked to carry an equilibrium with p1 = p2 = 9/11, and where that stops."""
    ends = nine_elevenths_breaks(game=game) + [Fraction(1, 2)]
    pieces = [(a, b, nine_elevenths_equilibrium_exists((a + b) / 2, game)) for a, b in zip(ends, ends[1:])]
    k = len(pieces)
    while k > 0 and pieces[k - 1][2]:
        k -= 1
    upper = pieces[k:]
    rows = []
    for a, b, _ in upper:
        setup = _Setup((a + b) / 2, game)
        draw, zero = setup.moves(NINE_ELEVENTHS, NINE_ELEVENTHS)
        rows.append({"from": {"exact": fstr(a), "float": float(a)}, "to": {"exact": fstr(b), "float": float(b)},
                     "p1": "9/11", "p2": "9/11",
                     "banker_indifferent_at": [infoset_label(INFOSETS[setup.relevant[z]]) for z in zero]})
    return {"concept": "nash", "range": [fstr(upper[0][0]), "1/2"], "count": len(rows), "intervals": rows,
            "below": f"for theta <= {fstr(upper[0][0])} the Players' strategies vary with theta: "
                     "baccara.banque.nash_eq.sweep follows every equilibrium branch there"}
