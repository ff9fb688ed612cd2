"""Exact linear algebra for the solvers, small systems only: over the rationals, or over
any exact field whose elements support + - * / and comparison (a quadratic field
Q(sqrt D) as :class:`~baccara.algebraic.QuadraticNumber`)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations

from ..algebraic import QuadraticNumber, simplest

F0 = Fraction(0)


def _elt(x):
    """Ints and Fractions as Fractions; other exact numbers as they are."""
    return Fraction(x) if isinstance(x, (int, Fraction)) else x


def eliminate(rows: Sequence[Sequence], rhs: Sequence, nvar: int | None = None) -> list | None:
    """Gauss-Jordan elimination over any exact field (Fractions, quadratic numbers): a solution of
    rows . z = rhs in ``nvar`` unknowns (default: the rows' length), over- or under-determined, with
    None for each unknown that has no pivot (free); None when the system is inconsistent."""
    m = [list(map(_elt, r)) + [_elt(c)] for r, c in zip(rows, rhs)]
    if nvar is None:
        nvar = len(rows[0]) if rows else 0
    r = 0
    pivots = []
    for col in range(nvar):
        piv = next((t for t in range(r, len(m)) if m[t][col] != 0), None)
        if piv is None:
            continue
        m[r], m[piv] = m[piv], m[r]
        inv = 1 / m[r][col]
        m[r] = [v * inv for v in m[r]]
        for t in range(len(m)):
            if t != r and m[t][col] != 0:
                f = m[t][col]
                m[t] = [vt - f * vr for vt, vr in zip(m[t], m[r])]
        pivots.append((r, col))
        r += 1
    if any(row[-1] != 0 for row in m[r:]):
        return None
    out: list = [None] * nvar
    for t, col in pivots:
        out[col] = m[t][-1]
    return out


def solve_exact(rows: Sequence[Sequence[Fraction]], rhs: Sequence[Fraction]) -> list[Fraction] | None:
    """The unique solution of rows . z = rhs (Gauss-Jordan in rationals), or None when the
    system is inconsistent or does not determine z."""
    z = eliminate(rows, rhs)
    return None if z is None or any(v is None for v in z) else z


def rank_exact(rows: Sequence[Sequence[Fraction]]) -> int:
    """Rank of a rational matrix (exact elimination)."""
    m = [list(map(_elt, r)) for r in rows]
    r = 0
    for col in range(len(m[0]) if m else 0):
        piv = next((t for t in range(r, len(m)) if m[t][col] != 0), None)
        if piv is None:
            continue
        m[r], m[piv] = m[piv], m[r]
        for t in range(r + 1, len(m)):
            if m[t][col] != 0:
                f = m[t][col] / m[r][col]
                m[t] = [vt - f * vr for vt, vr in zip(m[t], m[r])]
        r += 1
    return r


def polytope_vertices(eq_rows, eq_rhs, le_rows, le_rhs, dim: int) -> list[tuple[QuadraticNumber | Fraction, ...]]:
    """Vertices of the polytope {z in R^dim : eq_rows z = eq_rhs, le_rows z <= le_rhs}
    (bounded), exactly: each is cut out by the equalities and dim - rank(eq) active
    inequalities, so every such choice is tried (small dim only)."""
    if dim == 0:
        ok = all(c == 0 for c in eq_rhs) and all(0 <= c for c in le_rhs)
        return [()] if ok else []
    r = rank_exact(eq_rows) if eq_rows else 0
    basis: list[int] = []
    for t in range(len(eq_rows)):  # an independent subset of the equalities
        if rank_exact([eq_rows[u] for u in basis + [t]]) > len(basis):
            basis.append(t)
    out: set[tuple[QuadraticNumber | Fraction, ...]] = set()
    for act in combinations(range(len(le_rows)), dim - r):
        rows = [eq_rows[t] for t in basis] + [le_rows[t] for t in act]
        rhs = [eq_rhs[t] for t in basis] + [le_rhs[t] for t in act]
        z = solve_exact(rows, rhs)
        if z is None:
            continue
        if all(sum((c * v for c, v in zip(row, z)), F0) == c0 for row, c0 in zip(eq_rows, eq_rhs)) and \
                all(sum((c * v for c, v in zip(row, z)), F0) <= c0 for row, c0 in zip(le_rows, le_rhs)):
            out.add(tuple(simplest(v) for v in z))
    return sorted(out)
