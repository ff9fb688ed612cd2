"""The correlated cooperative equilibrium of baccara banque over theta (Ethier and Lee 2015, section 3).

On a theta-interval where the optimal basis of the zero-sum game stays the
same — the Players' support S, Banker's mixed information sets K and his
drawing set D — the equilibrium solves one linear system M(theta) z = r(theta)
whose entries are linear in theta.  By Cramer's rule each unknown is a ratio
of integer polynomials det_j / det (degree at most the system's size),
obtained here exactly by evaluating the determinants at integer points and
interpolating.  The basis stays optimal while every sign condition holds:

- p_u > 0 on S, 0 < q_k < 1 on K (signs of det_j against det),
- Banker's gain keeps its sign at every other information set
  (N_i = sum_{u in S} det_u h_i^u),
- no pure strategy outside S does better for the Players,

so the interval ends at the nearest real root, certified by FLINT's
``fmpz_poly.complex_roots``, of one of these integer polynomials.  Moving left
from theta = 1/2, each new interval's basis comes from re-solving just beyond
the last endpoint, and must end exactly there (otherwise the gap is searched).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import flint

from ...solve.roots import Endpoint, arb_of, precision, rational_below, rational_between_balls, real_roots
from ...solve.zero_sum import solve_additive_zero_sum
from ..model import INFOSETS, BanqueGame, banque_game, infoset_label


@dataclass(frozen=True)
class CorrelatedPiece:
    """An interval of theta with one optimal basis: p(theta), q(theta) and v(theta) are
    ratios of the integer polynomials in ``numerators`` over ``denominator``."""

    lo: Endpoint
    hi: Endpoint
    support: tuple[int, ...]
    mixed: tuple[int, ...]
    draw: frozenset
    denominator: flint.fmpz_poly
    numerators: tuple


def _det(rows: list[list[int]]) -> int:
    """Bareiss fraction-free determinant of an integer matrix."""
    m = [r[:] for r in rows]
    n, sign, prev = len(m), 1, 1
    for k in range(n - 1):
        piv = next((r for r in range(k, n) if m[r][k] != 0), None)
        if piv is None:
            return 0
        if piv != k:
            m[k], m[piv] = m[piv], m[k]
            sign = -sign
        for i in range(k + 1, n):
            for j in range(k + 1, n):
                m[i][j] = (m[i][j] * m[k][k] - m[i][k] * m[k][j]) // prev
        prev = m[k][k]
    return sign * m[n - 1][n - 1]


def _interpolate(values: list[int]) -> flint.fmpz_poly:
    """The integer polynomial taking ``values`` at t = 0, 1, ..., n."""
    xs = [flint.fmpq(i) for i in range(len(values))]
    p = flint.fmpq_poly([0])
    for i, yi in enumerate(values):
        term = flint.fmpq_poly([yi])
        for j, xj in enumerate(xs):
            if j != i:
                term *= flint.fmpq_poly([-xj, 1]) / (xs[i] - xj)
        p += term
    num = p.numer()
    return flint.fmpz_poly(num) if p.denom() == 1 else flint.fmpz_poly(list(p * p.denom()))  # type: ignore[arg-type]  # integral fmpq coefficients


def _system(a, h, support, mixed, draw, D: int):
    """The basis system as integer-linear entries (c0, c1): unknowns p_S, q_K, v."""
    rows, rhs = [], []
    for u in support:
        rows.append([(0, 0)] * len(support) + [h[k][u] for k in mixed] + [(-D, 0)])
        c0 = -a[u][0] - sum(h[i][u][0] for i in draw)
        c1 = -a[u][1] - sum(h[i][u][1] for i in draw)
        rhs.append((c0, c1))
    for k in mixed:
        rows.append([h[k][u] for u in support] + [(0, 0)] * (len(mixed) + 1))
        rhs.append((0, 0))
    rows.append([(1, 0)] * len(support) + [(0, 0)] * (len(mixed) + 1))
    rhs.append((1, 0))
    return rows, rhs


def _piece_polynomials(a, h, support, mixed, draw, D: int):
    """det and the Cramer numerators as integer polynomials in t."""
    rows, rhs = _system(a, h, support, mixed, draw, D)
    n = len(rows)

    def at(entries, t):
        return [[c0 + c1 * t for c0, c1 in r] for r in entries]

    dets: list[list[int]] = [[] for _ in range(n + 1)]
    for t in range(n + 2):
        m = at(rows, t)
        b = [c0 + c1 * t for c0, c1 in rhs]
        dets[0].append(_det(m))
        for j in range(n):
            mj = [r[:j] + [b[i]] + r[j + 1:] for i, r in enumerate(m)]
            dets[j + 1].append(_det(mj))
    polys = [_interpolate(v) for v in dets]
    return polys[0], tuple(polys[1:])


def _conditions(a, h, support, mixed, draw, den, nums, D: int):
    """Integer polynomials whose sign changes end the basis' interval."""
    lin = lambda c: flint.fmpz_poly([c[0], c[1]])  # noqa: E731
    ns, nk = len(support), len(mixed)
    conds = [den] + list(nums[: ns + nk]) + [den - nums[ns + k] for k in range(nk)]
    dp = nums[:ns]
    for i in range(len(h)):
        if i in mixed:
            continue
        conds.append(sum((dp[x] * lin(h[i][u]) for x, u in enumerate(support)), flint.fmpz_poly([0])))
    dq, dv = nums[ns: ns + nk], nums[-1]
    for u in range(4):
        if u in support:
            continue
        w = den * (lin(a[u]) + sum((lin(h[i][u]) for i in draw), flint.fmpz_poly([0])))
        w += sum((dq[x] * lin(h[k][u]) for x, k in enumerate(mixed)), flint.fmpz_poly([0]))
        conds.append(w - dv * D)
    return [c for c in conds if c != 0]


def _real_roots(poly) -> list:
    return [(b, poly) for b in real_roots(poly, odd_only=True)]


def _basis_at(g: BanqueGame, theta: Fraction):
    sol = solve_additive_zero_sum(g.a(theta), g.h(theta))
    if not sol.certified:
        raise ArithmeticError(f"no certified solution at theta = {theta}")
    support = tuple(u for u in range(4) if sol.p[u] > 0)
    mixed = tuple(i for i, q in enumerate(sol.q) if 0 < q < 1)
    draw = frozenset(i for i, q in enumerate(sol.q) if q == 1)
    return support, mixed, draw


def correlated_sweep(lo: Fraction = Fraction(0), hi: Fraction = Fraction(1, 2),
                     progress: Callable[[float], None] | None = None, max_pieces: int = 1000,
                     game: BanqueGame | None = None) -> list[CorrelatedPiece]:
    """The correlated cooperative equilibrium's pieces over (lo, hi], right to left.

    Parameters
    ----------
    lo, hi : Fraction
        The range of theta.
    progress : callable, optional
        Called with the left end reached so far.
    max_pieces : int
        The most pieces.
    game : BanqueGame, optional
        The game (default: the paper's infinite shoe).

    Returns
    -------
    list of CorrelatedPiece
        Right to left, each with exact ends and the solution as rational functions of theta.
    """
    with precision():
        return _sweep(game or banque_game(), lo, hi, progress, max_pieces)


def _sweep(g: BanqueGame, lo: Fraction, hi: Fraction, progress, max_pieces: int) -> list[CorrelatedPiece]:
    a, h = g.linear
    D = g.denominator
    pieces: list[CorrelatedPiece] = []
    right = Endpoint.of_rational(Fraction(hi))
    sample = Fraction(hi)
    lo_arb = arb_of(Fraction(lo))
    while len(pieces) < max_pieces:
        for attempt in range(20):  # a sample on a degenerate point: move a little further left
            try:
                support, mixed, draw = _basis_at(g, sample)
                break
            except (ArithmeticError, StopIteration, ZeroDivisionError):
                sample -= min(Fraction(1, 10**12) * 2**attempt, (sample - Fraction(lo)) / 2)
        else:
            raise ArithmeticError(f"cannot find an optimal basis near theta = {float(sample)}")
        den, nums = _piece_polynomials(a, h, support, mixed, draw, D)
        roots = [r for c in _conditions(a, h, support, mixed, draw, den, nums, D) for r in _real_roots(c)]
        s_arb = arb_of(sample)
        above = [r for r in roots if r[0] > s_arb and r[0] < right.ball]
        if above and not any(Endpoint(b, p_).same(right) for b, p_ in above):
            # this basis ends before the current right end: a piece lies in between
            nearest = min(above, key=lambda r: r[0].mid())[0]
            sample = rational_between_balls(nearest, right.ball)
            continue
        below = [r for r in roots if lo_arb < r[0] < s_arb]
        if below:
            ball, poly = max(below, key=lambda r: r[0].mid())
            left = Endpoint(ball, poly)
        else:
            left = Endpoint.of_rational(Fraction(lo))
        pieces.append(CorrelatedPiece(left, right, support, mixed, draw, den, nums))
        if progress:
            progress(float(left))
        if left.rational is not None:
            break
        right = left
        sample = rational_below(left.ball, Fraction(lo))
        if sample <= lo:
            raise ArithmeticError(f"pieces narrower than the sampling step near theta = {float(left)}")
    return pieces


def piece_solution(piece: CorrelatedPiece, theta: Fraction) -> tuple[list[Fraction], Fraction]:
    """The piece's formulas at ``theta``: (p over SS, SD, DS, DD; value)."""
    t = flint.fmpq(theta.numerator, theta.denominator)
    d = piece.denominator(t)

    def val(poly) -> Fraction:
        x = poly(t) / d
        return Fraction(int(x.p), int(x.q))

    p = [Fraction(0)] * 4
    for k, u in enumerate(piece.support):
        p[u] = val(piece.numerators[k])
    return p, val(piece.numerators[-1])


def sweep_json(pieces: list[CorrelatedPiece]) -> dict:
    """The ``baccara banque sweep --json`` document: intervals left to right."""
    out = []
    for p in reversed(pieces):
        out.append({
            "from": p.lo.to_json(),
            "to": p.hi.to_json(),
            "players_support": [("SS", "SD", "DS", "DD")[u] for u in p.support],
            "banker_mixes_at": [infoset_label(INFOSETS[k]) for k in p.mixed],
            "banker_draw_count": len(p.draw),
            "formula": {
                "denominator": [int(c) for c in p.denominator.coeffs()],
                "numerators": [[int(c) for c in n.coeffs()] for n in p.numerators],
                "unknowns": [("p_" + ("SS", "SD", "DS", "DD")[u]) for u in p.support]
                + ["q_" + infoset_label(INFOSETS[k]) for k in p.mixed] + ["value"],
            },
        })
    return {"concept": "correlated", "model": "simplified", "intervals": out, "count": len(out)}
