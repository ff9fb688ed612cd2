"""Unit tests of :mod:`baccara.solve.exact_lp`: HiGHS's float basis solved in exact rationals,
checked for feasibility and optimality, and the exact simplex from any start.

The oracle is SciPy's ``linprog`` (HiGHS, floats) on the same programs, written apart: the
exact optimum must agree with it to float precision, and it must be optimal exactly (prices
and reduced costs of the right signs), from HiGHS's basis, from no basis, and from random ones.
"""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog
from scipy.sparse import csc_matrix

from baccara.solve.exact_lp import STATUSES, Basis, ExactLP, _linprog_basis, highs_basis, solve_exact_lp

from .budget import examples

F = Fraction


def test_exact_lp_vertex_is_exact_and_checked():
    # min -x - y  s.t.  3x + y <= 1,  x + 3y <= 1,  x, y >= 0: the vertex (1/4, 1/4), not a float near it
    lp = ExactLP(2, cost={0: F(-1), 1: F(-1)})
    lp.col_lo, lp.col_hi = [F(0)] * 2, [None, None]
    lp.add_row({0: F(3), 1: F(1)}, None, F(1))
    lp.add_row({0: F(1), 1: F(3)}, None, F(1))
    v = solve_exact_lp(lp)
    assert v.z == [F(1, 4), F(1, 4)] and v.objective == F(-1, 2) and v.feasible and v.optimal
    assert v.prices == [F(-1, 4), F(-1, 4)] and v.reduced == [0, 0]      # c = A^T y + d, y <= 0 on <= rows
    assert lp.violations([F(1, 3), F(1, 4)])      # the exact check sees a breach of 1/12


@given(a=st.integers(1, 9), b=st.integers(1, 9), c=st.integers(1, 9), d=st.integers(1, 9))
@settings(max_examples=20, deadline=None)
def test_exact_lp_vertex_solves_two_by_two_games(a, b, c, d):
    # the row player's maximin LP of [[a, b], [c, d]]: max v s.t. v <= p a + (1-p) c, v <= p b + (1-p) d
    lp = ExactLP(2, cost={1: F(-1)})
    lp.col_lo, lp.col_hi = [F(0), None], [F(1), None]
    lp.add_row({1: F(1), 0: F(c - a)}, None, F(c))
    lp.add_row({1: F(1), 0: F(d - b)}, None, F(d))
    for v in solve_exact_lp(lp), solve_exact_lp(lp, pivot=False), solve_exact_lp(lp, float_basis=False):
        p = v.z[0]
        value = min(p * a + (1 - p) * c, p * b + (1 - p) * d)
        grid = max(min(q * a + (1 - q) * c, q * b + (1 - q) * d) for q in (F(k, 720) for k in range(721)))
        assert v.feasible and -v.objective == value >= grid       # exact and at least as good as any grid point
        assert v.optimal and -sum(v.prices) == 1                  # the column player's mixture, from the prices


def test_linprog_fallback_agrees_with_highs_basis():
    # On a SciPy without its bundled HiGHS module the basis is read off linprog's marginals:
    # same optimum, same active bounds and rows, the row duals with HiGHS's signs.
    inf = np.inf
    c = np.array([-1.0, -2.0, 0.5])
    a = csc_matrix(np.array([[1.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, -1.0]]))
    row_lo, row_hi = np.array([-inf, 1.0, 0.0]), np.array([4.0, inf, 0.0])   # <=, >=, =
    col_lo, col_hi = np.zeros(3), np.array([3.0, inf, inf])
    h = highs_basis(c, a, row_lo, row_hi, col_lo, col_hi)
    f = _linprog_basis(c, a, row_lo, row_hi, col_lo, col_hi)
    assert np.allclose(h["x"], f["x"]) and abs(h["fun"] - f["fun"]) < 1e-12
    assert np.allclose(h["row_dual"], f["row_dual"])
    assert h["col_status"] == f["col_status"] and h["row_status"] == f["row_status"]


def test_a_float_basis_off_by_less_than_its_tolerance_is_corrected():
    # max x + (1 + 1e-12) y  s.t.  x + y <= 1, x, y >= 0: the optimum is y = 1, but the costs differ
    # by less than HiGHS's tolerance; whatever basis it returns, the exact answer is y = 1.
    lp = ExactLP(2, cost={0: F(-1), 1: -(1 + F(1, 10**12))}, col_lo=[F(0)] * 2, col_hi=[None] * 2)
    lp.add_row({0: F(1), 1: F(1)}, None, F(1))
    v = solve_exact_lp(lp)
    assert v.optimal and v.z == [0, 1]
    # from the wrong vertex (x basic), the exact simplex pivots once
    wrong = Basis(("basic", "lower"), ("upper",))
    w = solve_exact_lp(lp, warm=wrong, float_basis=False)
    assert w.z == [0, 1] and w.pivots == 1
    assert not solve_exact_lp(lp, warm=wrong, float_basis=False, pivot=False).optimal


def test_infeasible_and_unbounded_programs_are_errors():
    lp = ExactLP(1, col_lo=[F(0)], col_hi=[None])
    lp.add_row({0: F(1)}, None, F(-1))               # z <= -1 and z >= 0
    with pytest.raises(ArithmeticError, match="infeasible"):
        solve_exact_lp(lp, float_basis=False)
    lp = ExactLP(1, cost={0: F(-1)}, col_lo=[F(0)], col_hi=[None])
    with pytest.raises(ArithmeticError, match="unbounded"):
        solve_exact_lp(lp, float_basis=False)


bound = st.one_of(st.none(), st.integers(-3, 3).map(F))
coef = st.integers(-3, 3).map(F)


@st.composite
def programs(draw):
    """Small programs with every kind of bound: boxes, half-lines, free columns, <=, >=, = and ranges."""
    n, m = draw(st.integers(1, 4)), draw(st.integers(0, 4))
    lp = ExactLP(n, cost={k: draw(coef) for k in range(n)})
    for _ in range(n):
        lo, width = draw(bound), draw(st.one_of(st.none(), st.integers(0, 3)))
        lp.col_lo.append(lo)
        lp.col_hi.append(None if width is None else (lo or 0) + width)
    for _ in range(m):
        lo, width = draw(bound), draw(st.one_of(st.none(), st.integers(0, 3)))
        hi = None if width is None else (lo if lo is not None else draw(coef)) + width
        lp.add_row({k: draw(coef) for k in range(n)}, lo, hi)
    return lp


def float_optimum(lp: ExactLP):
    """linprog's status and optimum on the program, written apart (a range as two inequalities)."""
    n = lp.ncols
    a_ub, b_ub, a_eq, b_eq = [], [], [], []
    for row, lo, hi in zip(lp.rows, lp.row_lo, lp.row_hi):
        r = [float(row.get(k, 0)) for k in range(n)]
        if lo is not None and lo == hi:
            a_eq.append(r)
            b_eq.append(float(lo))
            continue
        if hi is not None:
            a_ub.append(r)
            b_ub.append(float(hi))
        if lo is not None:
            a_ub.append([-x for x in r])
            b_ub.append(-float(lo))
    res = linprog([float(lp.cost.get(k, 0)) for k in range(n)], A_ub=a_ub or None, b_ub=b_ub or None,
                  A_eq=a_eq or None, b_eq=b_eq or None, method="highs",
                  bounds=[(None if lo is None else float(lo), None if hi is None else float(hi))
                          for lo, hi in zip(lp.col_lo, lp.col_hi)])
    return res.status, res.fun


def check_optimal(lp: ExactLP, v) -> None:
    """Exact optimality from the definitions: feasible, c = A^T y + d, and complementary signs."""
    assert not lp.violations(v.z) and v.optimal
    for k in range(lp.ncols):
        col = sum((y * row.get(k, 0) for y, row in zip(v.prices, lp.rows)), F(0))
        assert lp.cost.get(k, 0) == col + v.reduced[k]
        lo, hi = lp.col_lo[k], lp.col_hi[k]
        if v.reduced[k] > 0:
            assert v.z[k] == lo
        if v.reduced[k] < 0:
            assert v.z[k] == hi
    for row, y, lo, hi in zip(lp.rows, v.prices, lp.row_lo, lp.row_hi):
        s = sum((c * v.z[k] for k, c in row.items()), F(0))
        assert (y <= 0 or s == lo) and (y >= 0 or s == hi)


@settings(max_examples=examples(300), deadline=None)
@given(programs(), st.data())
def test_random_programs_match_linprog_from_any_start(lp, data):
    status, fun = float_optimum(lp)
    basis = Basis(tuple(data.draw(st.sampled_from(STATUSES)) for _ in range(lp.ncols)),
                  tuple(data.draw(st.sampled_from(("basic", "lower", "upper"))) for _ in lp.rows))
    for kw in ({}, {"float_basis": False}, {"warm": basis, "float_basis": False}):
        if status != 0:     # infeasible or unbounded (HiGHS may not say which): an error, never an answer
            with pytest.raises(ArithmeticError):
                solve_exact_lp(lp, **kw)
            continue
        v = solve_exact_lp(lp, **kw)
        check_optimal(lp, v)
        assert abs(float(v.objective) - fun) <= 1e-9 * max(1.0, abs(fun))


@settings(max_examples=examples(100), deadline=None)
@given(programs(), programs())
def test_warm_start_from_fewer_rows(lp, extra):
    # an optimal basis of the program's first rows, the new rows basic: dual feasible, so the dual
    # simplex finishes it; the answer is the cold solve's optimum
    if extra.ncols != lp.ncols or not extra.rows:
        return
    try:
        first = solve_exact_lp(lp)
    except ArithmeticError:
        return
    more = ExactLP(lp.ncols, lp.cost, lp.rows + extra.rows, lp.row_lo + extra.row_lo, lp.row_hi + extra.row_hi,
                   lp.col_lo, lp.col_hi)
    try:
        cold = solve_exact_lp(more)
    except ArithmeticError:
        with pytest.raises(ArithmeticError):
            solve_exact_lp(more, warm=Basis(first.basis.cols, first.basis.rows + ("basic",) * len(extra.rows)),
                           float_basis=False)
        return
    warm = solve_exact_lp(more, warm=Basis(first.basis.cols, first.basis.rows + ("basic",) * len(extra.rows)),
                          float_basis=False)
    check_optimal(more, warm)
    assert warm.objective == cold.objective
