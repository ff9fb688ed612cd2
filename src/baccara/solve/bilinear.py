"""Games in behavioural strategies where each player moves at most once per play.

Player I has k information sets and plays move 1 at set j with probability
y_j; player II has n sets and plays move 1 at set i with probability x_i.
When each player moves at most once in any play (chemin de fer: Player
decides once at 5, Banker once afterwards), the expected payoffs are
*bilinear* in the behavioural strategies (Ethier and Lee 2023, section 4, equations
(39)-(44)):

    A(y, x) = a0 + sum_j y_j a_j + sum_i x_i (h0_i + sum_j y_j h_ij)     player I
    B(y, x) = b0 + sum_j y_j b_j + sum_i x_i (g0_i + sum_j y_j g_ij)     player II

so player I's gain from move 1 at j is pi_j(x) = a_j + sum_i x_i h_ij and
player II's at i is beta_i(y) = g0_i + sum_j y_j g_ij.  (y, x) is a Nash
equilibrium iff y_j = 1 where pi_j(x) > 0, y_j = 0 where pi_j(x) < 0, and
likewise x against beta(y).  With k = 1 this is the additive 2 x 2^n game of
:mod:`baccara.solve.additive` (Foster's algorithm); with k = 5 it is
chemin de fer under Model 3, a 2^5 x 2^484 bimatrix game.

Every Nash equilibrium (:func:`nash_equilibria`)
------------------------------------------------
Lemma 1 (strict dominance, both sides, iterated) fixes most sets.  On the
rest, player II's best response to y is constant on the cells of the
arrangement of hyperplanes beta_i(y) = 0 inside each face of player I's cube
[0, 1]^k; the set of equilibria is the union over those cells C of
closure(C) x X(C), where X(C) = {x : x_i = [beta_i > 0] off the hyperplanes
through C, pi(x) compatible with C's face}.  X only grows at the boundary of
a cell, so every equilibrium component contains a point (y, x) with y a
*vertex* of the arrangement: a point of a face with m free coordinates where
m independent hyperplanes meet (for k = 1: p = 0, 1 or a best-response
discontinuity, which is Foster's algorithm).  :func:`nash_equilibria`
enumerates those vertices, and at each the polytope X(y) by its vertices.
Two consequences a reader can re-check:

- the equilibrium is unique iff exactly one vertex y admits an equilibrium
  and X(y) is a single point (a second equilibrium (y', x') puts a second
  vertex, or a second point of X(y), in the list);
- the extreme equilibria returned are all of them.

Candidates are screened in floating point first (a batch of m x m solves
per face); a candidate is dropped only when its float solution lies outside
the cube, or its x-system outside [0, 1], by more than a margin far above
the float error of the well-conditioned systems it keeps; near-singular
systems and near-ties go to the exact stage.  Everything reported is
recomputed in exact rationals and certified (:func:`certify`) from the
payoffs alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations, product
from typing import cast

import numpy as np

from .additive import proportional_groups
from .exact_lp import ExactLP, solve_exact_lp
from .linalg import polytope_vertices, solve_exact

F0 = Fraction(0)
F1 = Fraction(1)


@dataclass(frozen=True)
class BilinearGame:
    """A two-player game with payoffs bilinear in behavioural strategies (exact rationals).

    ``a``, ``b``: length k; ``h``, ``g``: n rows of length k; ``h0``, ``g0``: length n.
    """

    a0: Fraction
    a: tuple[Fraction, ...]
    b0: Fraction
    b: tuple[Fraction, ...]
    h0: tuple[Fraction, ...]
    h: tuple[tuple[Fraction, ...], ...]
    g0: tuple[Fraction, ...]
    g: tuple[tuple[Fraction, ...], ...]
    labels_I: tuple[str, ...] = ()
    labels_II: tuple[str, ...] = ()

    @property
    def k(self) -> int:
        return len(self.a)

    @property
    def n(self) -> int:
        return len(self.g0)

    def gain_I(self, j: int, x: Sequence[Fraction]) -> Fraction:
        """pi_j(x): player I's gain from move 1 over move 0 at his set j."""
        return self.a[j] + sum((xi * hi[j] for xi, hi in zip(x, self.h) if xi), F0)

    def gain_II(self, i: int, y: Sequence[Fraction]) -> Fraction:
        """beta_i(y): player II's gain from move 1 over move 0 at her set i."""
        return self.g0[i] + sum((yj * gij for yj, gij in zip(y, self.g[i]) if yj), F0)

    def payoffs(self, y: Sequence[Fraction], x: Sequence[Fraction]) -> tuple[Fraction, Fraction]:
        """(A(y, x), B(y, x))."""
        A = self.a0 + sum((yj * aj for yj, aj in zip(y, self.a)), F0)
        B = self.b0 + sum((yj * bj for yj, bj in zip(y, self.b)), F0)
        for i, xi in enumerate(x):
            if xi:
                A += xi * (self.h0[i] + sum((yj * hij for yj, hij in zip(y, self.h[i]) if yj), F0))
                B += xi * self.gain_II(i, y)
        return A, B

    def restrict(self, fixed_I: dict[int, Fraction], fixed_II: dict[int, Fraction]) -> BilinearGame:
        """The game on the remaining sets when y_j (j in fixed_I) and x_i (i in fixed_II) are fixed."""
        free_I = [j for j in range(self.k) if j not in fixed_I]
        free_II = [i for i in range(self.n) if i not in fixed_II]
        a0 = self.a0 + sum((v * self.a[j] for j, v in fixed_I.items()), F0)
        b0 = self.b0 + sum((v * self.b[j] for j, v in fixed_I.items()), F0)
        h0 = [self.h0[i] + sum((v * self.h[i][j] for j, v in fixed_I.items()), F0) for i in range(self.n)]
        g0 = [self.g0[i] + sum((v * self.g[i][j] for j, v in fixed_I.items()), F0) for i in range(self.n)]
        a = [self.a[j] + sum((v * self.h[i][j] for i, v in fixed_II.items()), F0) for j in free_I]
        b = [self.b[j] + sum((v * self.g[i][j] for i, v in fixed_II.items()), F0) for j in free_I]
        a0 += sum((v * h0[i] for i, v in fixed_II.items()), F0)
        b0 += sum((v * g0[i] for i, v in fixed_II.items()), F0)
        return BilinearGame(
            a0, tuple(a), b0, tuple(b),
            tuple(h0[i] for i in free_II), tuple(tuple(self.h[i][j] for j in free_I) for i in free_II),
            tuple(g0[i] for i in free_II), tuple(tuple(self.g[i][j] for j in free_I) for i in free_II),
            tuple(self.labels_I[j] for j in free_I) if self.labels_I else (),
            tuple(self.labels_II[i] for i in free_II) if self.labels_II else (),
        )


# ---------------------------------------------------------------- Lemma 1, both sides
@dataclass(frozen=True)
class Reduction:
    """Moves fixed by iterated strict dominance (Lemma 1) and the sets left open."""

    fixed_I: dict[int, Fraction]
    fixed_II: dict[int, Fraction]
    open_I: tuple[int, ...]
    open_II: tuple[int, ...]


def _range(const: Fraction, coeffs: Sequence[Fraction]) -> tuple[Fraction, Fraction]:
    """Min and max of const + sum_t c_t z_t over the box z in [0, 1]^T."""
    return (const + sum((c for c in coeffs if c < 0), F0), const + sum((c for c in coeffs if c > 0), F0))


def dominance_reduction(game: BilinearGame) -> Reduction:
    """Iterated Lemma 1 on both sides: a move strictly better against every
    strategy of the opponent left open (the extremes of an affine function over
    a box are at corners: :func:`_range`) is played in every equilibrium."""
    fixed_I: dict[int, Fraction] = {}
    fixed_II: dict[int, Fraction] = {}
    changed = True
    while changed:
        changed = False
        for i in range(game.n):
            if i in fixed_II:
                continue
            const = game.g0[i] + sum((v * game.g[i][j] for j, v in fixed_I.items()), F0)
            lo, hi = _range(const, [game.g[i][j] for j in range(game.k) if j not in fixed_I])
            if lo > 0 or hi < 0:
                fixed_II[i] = F1 if lo > 0 else F0
                changed = True
        for j in range(game.k):
            if j in fixed_I:
                continue
            const = game.a[j] + sum((v * game.h[i][j] for i, v in fixed_II.items()), F0)
            lo, hi = _range(const, [game.h[i][j] for i in range(game.n) if i not in fixed_II])
            if lo > 0 or hi < 0:
                fixed_I[j] = F1 if lo > 0 else F0
                changed = True
    return Reduction(fixed_I, fixed_II,
                     tuple(j for j in range(game.k) if j not in fixed_I),
                     tuple(i for i in range(game.n) if i not in fixed_II))


# ---------------------------------------------------------------- every equilibrium
@dataclass(frozen=True)
class BilinearEquilibrium:
    """An extreme Nash equilibrium: behavioural strategies y (player I) and x (player II)."""

    y: tuple[Fraction, ...]
    x: tuple[Fraction, ...]
    payoff_I: Fraction
    payoff_II: Fraction


@dataclass
class BilinearNashSet:
    """Every extreme Nash equilibrium, and the evidence behind the enumeration.

    When player II's equivalent sets were merged, each merged group plays one
    probability in the listed equilibria; ``merged_mixed`` lists the groups mixed
    in some equilibrium, where every split with the same reach-weighted total is
    an equilibrium as well (so the list is then not all of the extreme points).

    ``vertices_tried``: arrangement vertices y examined exactly (after the
    float screen); ``candidates``: (face, hyperplane subset) systems screened;
    ``y_points``: the distinct y admitting an equilibrium, each with its
    number of extreme x.  ``groups``: merged equivalent sets of player II.
    """

    equilibria: list[BilinearEquilibrium] = field(default_factory=list)
    reduction: Reduction | None = None
    groups: list[tuple[int, ...]] | None = None
    candidates: int = 0
    vertices_tried: int = 0
    y_points: list[tuple[tuple[Fraction, ...], int]] = field(default_factory=list)
    merged_mixed: list[tuple[int, ...]] = field(default_factory=list)

    @property
    def unique(self) -> bool:
        """One equilibrium, and no merged group of equivalent sets mixed in it (any split of a
        mixed group's total over its members is an equilibrium too: a continuum)."""
        return len(self.equilibria) == 1 and not self.merged_mixed


def merge_equivalent_II(game: BilinearGame) -> tuple[BilinearGame, list[tuple[int, ...]]]:
    """Merge player II's sets whose payoff rows (g0, g, h0, h) are positive multiples of one
    another: one decision up to scale (Model A: Banker's compositions of one total)."""
    rows = [(game.g0[i], *game.g[i], game.h0[i], *game.h[i]) for i in range(game.n)]
    groups = proportional_groups(rows)
    if all(len(m) == 1 for m in groups):
        return game, [(i,) for i in range(game.n)]

    def add(vals):
        return tuple(sum(v, F0) for v in zip(*vals))

    merged = BilinearGame(
        game.a0, game.a, game.b0, game.b,
        tuple(sum((game.h0[i] for i in m), F0) for m in groups), tuple(add([game.h[i] for i in m]) for m in groups),
        tuple(sum((game.g0[i] for i in m), F0) for m in groups), tuple(add([game.g[i] for i in m]) for m in groups),
        game.labels_I,
        tuple("+".join(game.labels_II[i] for i in m) for m in groups) if game.labels_II else (),
    )
    return merged, groups


_TOL = 1e-6      # margin on float x and gains in the x-screen
_WELL = 1e-6     # |det| of a column-normalised x-system below which the x-screen defers
_COND_MAX = 1e11  # condition number above which a y-system goes straight to the exact stage


def _float_screen(gf, cf, M, n) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For the face with free coordinates M and constant part cf: the m-subsets of player
    II's hyperplanes whose intersection may lie in the open face.

    Rows are normalised over the free coordinates.  A system with condition number
    kappa <= _COND_MAX is solved in floats, whose error is at most about kappa * 2^-52
    relative (Higham, Accuracy and Stability, Thm 7.2); it is kept when inside the face
    up to a margin of 1e-9 + 1e-12 kappa, a thousand times that bound.  Systems worse
    conditioned are returned separately, unsolved, for the exact stage.  Returns (kept
    subsets, their float solutions, ill-conditioned subsets).
    """
    m = len(M)
    sub = gf[:, M]
    norms = np.linalg.norm(sub, axis=1)
    rows = np.flatnonzero(norms > 0)   # a hyperplane constant on the face defines no vertex in it
    combos = np.array(list(combinations(rows, m)), dtype=np.int64).reshape(-1, m)
    if len(combos) == 0:
        return combos, np.zeros((0, m)), combos
    scaled = sub / np.where(norms > 0, norms, 1)[:, None]
    rhs_all = -cf / np.where(norms > 0, norms, 1)
    mats = scaled[combos]                       # (C, m, m)
    rhs = rhs_all[combos]                       # (C, m)
    with np.errstate(all="ignore"):
        kappa = np.linalg.cond(mats)
    well = np.isfinite(kappa) & (kappa <= _COND_MAX)
    ill = combos[~well]
    combos, mats, rhs, kappa = combos[well], mats[well], rhs[well], kappa[well]
    if len(combos) == 0:
        return combos, np.zeros((0, m)), ill
    ys = np.linalg.solve(mats, rhs[..., None])[..., 0]
    margin = (1e-9 + 1e-12 * kappa)[:, None]
    inside = np.all((ys > -margin) & (ys < 1 + margin), axis=1)
    return combos[inside], ys[inside], ill


def nash_equilibria(game: BilinearGame, merge: bool = True) -> BilinearNashSet:
    """Every extreme Nash equilibrium of ``game``, exactly (see the module docstring)."""
    red = dominance_reduction(game)
    small = game.restrict(red.fixed_I, red.fixed_II)
    groups: list[tuple[int, ...]] = [(i,) for i in range(small.n)]
    if merge:
        small, groups = merge_equivalent_II(small)
    k, n = small.k, small.n
    scale = max([abs(float(v)) for r in small.g for v in r] + [abs(float(v)) for v in small.g0] + [1e-300])
    gf = np.array([[float(v) / scale for v in r] for r in small.g]).reshape(n, k)
    g0f = np.array([float(v) / scale for v in small.g0])
    norms = np.maximum(np.linalg.norm(gf, axis=1), 1e-300)
    out = BilinearNashSet(reduction=red, groups=groups)
    seen: set[tuple[Fraction, ...]] = set()
    for m in range(k + 1):
        for M in combinations(range(k), m):
            others = [j for j in range(k) if j not in M]
            for bits in product((0, 1), repeat=len(others)):
                fixed = dict(zip(others, bits))
                if m == 0:
                    y = tuple(Fraction(fixed[j]) for j in range(k))
                    out.candidates += 1
                    _exact_vertex(small, y, M, seen, out)
                    continue
                cf = g0f + sum((gf[:, j] * b for j, b in fixed.items()), np.zeros(n))
                combos, ys, ill = _float_screen(gf, cf, list(M), n)
                out.candidates += len(combos) + len(ill)
                todo = [(Z, yM) for Z, yM in zip(combos, ys)] + [(Z, None) for Z in ill]
                for Z, yM in todo:
                    if yM is not None:
                        yf = np.zeros(k)
                        for j, b in fixed.items():
                            yf[j] = b
                        yf[list(M)] = yM
                        if not _x_screen(small, gf, g0f, norms, yf, M, fixed):
                            continue
                    yM_exact = solve_exact(
                        [[small.g[i][j] for j in M] for i in Z],
                        [-(small.g0[i] + sum((small.g[i][j] * b for j, b in fixed.items()), F0)) for i in Z],
                    )
                    if yM_exact is None or not all(0 < v < 1 for v in yM_exact):
                        continue
                    y_list = [Fraction(fixed.get(j, 0)) for j in range(k)]
                    for j, v in zip(M, yM_exact):
                        y_list[j] = v
                    _exact_vertex(small, tuple(y_list), M, seen, out)
    return _expand(game, red, groups, out)


def _x_screen(small: BilinearGame, gf, g0f, norms, yf, M, fixed) -> bool:
    """Float check that some x in player II's best-response face makes y a best response of
    player I; undecided cases (near-ties, degenerate systems) pass to the exact stage."""
    beta = (g0f + gf @ yf) / norms
    Z = np.flatnonzero(np.abs(beta) <= 1e-9)
    if len(Z) != len(M):
        return True
    hf = np.array([[float(v) for v in r] for r in small.h]).reshape(small.n, small.k)
    af = np.array([float(v) for v in small.a])
    scale = max(np.abs(hf).max(initial=0), np.abs(af).max(initial=0), 1e-300)
    x = (beta > 0).astype(float)
    x[Z] = 0.0
    pi0 = (af + x @ hf) / scale
    if len(M):
        mat = hf[np.ix_(Z, list(M))].T / scale
        col = np.linalg.norm(mat, axis=0)
        if np.any(col == 0) or abs(np.linalg.det(mat / col)) < _WELL:
            return True
        xz = np.linalg.solve(mat, -pi0[list(M)])
        if np.any(xz < -_TOL) or np.any(xz > 1 + _TOL):
            return False
        x[Z] = xz
    pi = (af + x @ hf) / scale
    for j, b in fixed.items():
        if (b == 0 and pi[j] > _TOL) or (b == 1 and pi[j] < -_TOL):
            return False
    return True


def supporting_strategies(game: BilinearGame, y: Sequence[Fraction]) -> list[tuple[Fraction, ...]]:
    """The vertices of X(y): player II's best replies to y (x_i = [beta_i > 0] off the sets
    Z(y) where she is indifferent, x_Z in [0, 1]^Z) against which y is a best reply of
    player I (pi_j(x) = 0 where 0 < y_j < 1, <= 0 where y_j = 0, >= 0 where y_j = 1)."""
    beta = [game.gain_II(i, y) for i in range(game.n)]
    Z = [i for i in range(game.n) if beta[i] == 0]
    base = [F1 if b > 0 else F0 for b in beta]
    pi0 = [game.gain_I(j, base) for j in range(game.k)]
    eq_rows, eq_rhs, le_rows, le_rhs = [], [], [], []
    for j in range(game.k):
        row = [game.h[i][j] for i in Z]
        if 0 < y[j] < 1:
            eq_rows.append(row)
            eq_rhs.append(-pi0[j])
        elif y[j] == 0:                       # pi_j <= 0
            le_rows.append(row)
            le_rhs.append(-pi0[j])
        else:                                 # pi_j >= 0
            le_rows.append([-v for v in row])
            le_rhs.append(pi0[j])
    for t in range(len(Z)):
        unit = [F0] * len(Z)
        unit[t] = F1
        le_rows += [unit, [-v for v in unit]]
        le_rhs += [F1, F0]
    out = []
    for v in polytope_vertices(eq_rows, eq_rhs, le_rows, le_rhs, len(Z)):
        x = list(base)
        for i, xi in zip(Z, v):
            x[i] = cast(Fraction, xi)  # rational rows: a rational vertex
        out.append(tuple(x))
    return out


def _exact_vertex(small: BilinearGame, y: tuple[Fraction, ...], M, seen: set, out: BilinearNashSet) -> None:
    """Exact stage at a candidate vertex y: the vertices of X(y) (:func:`supporting_strategies`)."""
    if y in seen:
        return
    seen.add(y)
    out.vertices_tried += 1
    xs = supporting_strategies(small, y)
    if not xs:
        return
    out.y_points.append((y, len(xs)))
    for x in xs:
        A, B = small.payoffs(y, x)
        out.equilibria.append(BilinearEquilibrium(y, x, A, B))


def _expand(game: BilinearGame, red: Reduction, groups, small_out: BilinearNashSet) -> BilinearNashSet:
    """Equilibria of the reduced (and merged) game as strategies of the full game."""
    out = BilinearNashSet(reduction=red, groups=groups, candidates=small_out.candidates,
                          vertices_tried=small_out.vertices_tried)
    for eq in small_out.equilibria:
        y = [F0] * game.k
        for j, v in red.fixed_I.items():
            y[j] = v
        for j, v in zip(red.open_I, eq.y):
            y[j] = v
        x = [F0] * game.n
        for i, v in red.fixed_II.items():
            x[i] = v
        for g_, v in zip(groups, eq.x):
            for t in g_:
                x[red.open_II[t]] = v
            if len(g_) > 1 and 0 < v < 1:
                members = tuple(red.open_II[t] for t in g_)
                if members not in out.merged_mixed:
                    out.merged_mixed.append(members)
        A, B = game.payoffs(y, x)
        out.equilibria.append(BilinearEquilibrium(tuple(y), tuple(x), A, B))
    for yv, cnt in small_out.y_points:
        y = [F0] * game.k
        for j, v in red.fixed_I.items():
            y[j] = v
        for j, v in zip(red.open_I, yv):
            y[j] = v
        out.y_points.append((tuple(y), cnt))
    return out


# ---------------------------------------------------------------- certificates
@dataclass(frozen=True)
class BilinearCertificate:
    """Exact evidence that (y, x) is a Nash equilibrium: each side's payoff and the most
    it could get by deviating (by bilinearity, the sum of its positive gains)."""

    payoff_I: Fraction
    best_response_I: Fraction
    payoff_II: Fraction
    best_response_II: Fraction
    holds: bool


def certify(game: BilinearGame, y: Sequence[Fraction], x: Sequence[Fraction]) -> BilinearCertificate:
    """Check from the payoffs alone that neither player gains by deviating from (y, x)."""
    A, B = game.payoffs(y, x)
    zero_I, zero_II = [F0] * game.k, [F0] * game.n
    best_I = game.payoffs(zero_I, x)[0] + sum((max(F0, game.gain_I(j, x)) for j in range(game.k)), F0)
    best_II = game.payoffs(y, zero_II)[1] + sum((max(F0, game.gain_II(i, y)) for i in range(game.n)), F0)
    box = all(0 <= v <= 1 for v in y) and all(0 <= v <= 1 for v in x)
    return BilinearCertificate(A, best_I, B, best_II, box and A == best_I and B == best_II)


# ---------------------------------------------------------------- the zero-sum case by LP
@dataclass(frozen=True)
class BilinearZeroSum:
    """Value (to player I) and a pair of optimal behavioural strategies of a zero-sum
    bilinear game, found by LP and certified exactly: ``lower`` is what y guarantees
    player I, ``upper`` what x holds him to; ``certified`` iff they are equal."""

    value: Fraction
    y: tuple[Fraction, ...]
    x: tuple[Fraction, ...]
    lower: Fraction
    upper: Fraction
    certified: bool


def guaranteed_I(game: BilinearGame, y: Sequence[Fraction]) -> Fraction:
    """min over x of A(y, x) in a zero-sum game: player II's best reply plays move 1
    exactly where it lowers A (additivity over her sets)."""
    base = game.a0 + sum((yj * aj for yj, aj in zip(y, game.a)), F0)
    return base + sum((min(F0, game.h0[i] + sum((yj * hij for yj, hij in zip(y, game.h[i])), F0))
                       for i in range(game.n)), F0)


def held_I(game: BilinearGame, x: Sequence[Fraction]) -> Fraction:
    """max over y of A(y, x): player I's best reply (sum of his positive gains)."""
    return game.payoffs([F0] * game.k, x)[0] + sum((max(F0, game.gain_I(j, x)) for j in range(game.k)), F0)


def solve_zero_sum(game: BilinearGame) -> BilinearZeroSum:
    """The zero-sum game (B = -A) as the linear program of the sequence form:

        maximise  a0 + sum_j a_j y_j + sum_i s_i
        subject to  s_i <= 0,  s_i <= h0_i + sum_j h_ij y_j,  0 <= y <= 1,

    (s_i is what player II's best reply at her set i takes from player I; the dual
    prices of the second constraints are her draw probabilities x_i).  It is solved
    exactly by :func:`~baccara.solve.exact_lp.solve_exact_lp` (HiGHS's basis, the
    vertex in rationals, the exact simplex where the basis is not optimal), which gives
    y; x is then a vertex of the strategies of player II that support y
    (:func:`supporting_strategies`), her optimal set since y is optimal.  The pair is
    certified by ``guaranteed_I(y) == held_I(x)``, two evaluations that trust neither
    the LP nor the recovery.

    Parameters
    ----------
    game : BilinearGame
        A zero-sum game.

    Returns
    -------
    BilinearZeroSum
        The value to player I, optimal y and x, and the certificate.

    Raises
    ------
    ValueError
        If the game is not zero-sum.
    """
    if game.b0 != -game.a0 or any(b != -a for a, b in zip(game.b, game.a)) or any(
            g0 != -h0 for g0, h0 in zip(game.g0, game.h0)) or any(
            gv != -hv for gr, hr in zip(game.g, game.h) for gv, hv in zip(gr, hr)):
        raise ValueError("solve_zero_sum needs a zero-sum game (B = -A)")
    k, n = game.k, game.n
    col_lo: list[Fraction | None] = [F0] * k + [None] * n
    col_hi: list[Fraction | None] = [F1] * k
    col_hi += [F0] * n
    lp = ExactLP(k + n, cost={**{j: -game.a[j] for j in range(k) if game.a[j]}, **{k + i: -F1 for i in range(n)}},
                 col_lo=col_lo, col_hi=col_hi)
    for i in range(n):
        row = {j: -game.h[i][j] for j in range(k) if game.h[i][j]}
        row[k + i] = F1
        lp.add_row(row, None, game.h0[i])
    y = solve_exact_lp(lp).z[:k]
    # player II: a best reply to y that holds player I to what y guarantees (a vertex of X(y));
    # y is optimal, so X(y) is her optimal set, and the certificate below decides
    xs = supporting_strategies(game, y)
    x = list(xs[0]) if xs else [F1 if game.gain_II(i, y) > 0 else F0 for i in range(n)]
    lower, upper = guaranteed_I(game, y), held_I(game, x)
    return BilinearZeroSum(lower, tuple(y), tuple(x), lower, upper, lower == upper)
