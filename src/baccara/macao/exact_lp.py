"""A small linear program solved exactly: HiGHS finds an optimal basis in floats, python-flint solves it in rationals.

The float solver is trusted only for *which* constraints are active and which variables
are basic at its optimum; the vertex itself is the exact solution of that square
rational system (``fmpq_mat.solve``), and it is checked exactly against every
constraint and bound.  Whether it is *optimal* is left to the caller's own certificate
(in Macao, the two exact best responses), so a wrong basis can cost a certificate but
never give a wrong one.

HiGHS's basis comes from the HiGHS bundled with SciPy (``scipy.optimize._highspy``):
SciPy's public :func:`~scipy.optimize.linprog` returns the solution and the marginals
but not the basis, so without the bundled module the basis is read off the marginals
(a variable strictly between its bounds is basic, a constraint with a nonzero marginal
is active), which is weaker under degeneracy.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
from scipy.sparse import csc_matrix

INF = float("inf")


@dataclass
class ExactLP:
    """``minimise c.z`` subject to ``row_lo <= A z <= row_hi`` and ``col_lo <= z <= col_hi``, with rational data.

    Rows are sparse dicts ``{column: coefficient}``; infinite bounds are None.
    """

    ncols: int
    cost: dict[int, Fraction] = field(default_factory=dict)
    rows: list[dict[int, Fraction]] = field(default_factory=list)
    row_lo: list[Fraction | None] = field(default_factory=list)
    row_hi: list[Fraction | None] = field(default_factory=list)
    col_lo: list[Fraction | None] = field(default_factory=list)
    col_hi: list[Fraction | None] = field(default_factory=list)

    def add_row(self, coefs: dict[int, Fraction], lo: Fraction | None, hi: Fraction | None) -> None:
        """Add the constraint ``lo <= coefs.z <= hi`` (a bound may be None)."""
        self.rows.append({k: Fraction(v) for k, v in coefs.items() if v})
        self.row_lo.append(None if lo is None else Fraction(lo))
        self.row_hi.append(None if hi is None else Fraction(hi))

    def violations(self, z: list[Fraction]) -> list[str]:
        """The constraints and bounds ``z`` breaks, exactly (empty when ``z`` is feasible)."""
        bad = []
        for k, (lo, hi) in enumerate(zip(self.col_lo, self.col_hi)):
            if (lo is not None and z[k] < lo) or (hi is not None and z[k] > hi):
                bad.append(f"column {k} = {float(z[k])} outside its bounds")
        for i, row in enumerate(self.rows):
            s = sum((v * z[k] for k, v in row.items()), Fraction(0))
            lo, hi = self.row_lo[i], self.row_hi[i]
            if (lo is not None and s < lo) or (hi is not None and s > hi):
                bad.append(f"row {i} = {float(s)} outside [{lo}, {hi}]")
        return bad


@dataclass
class Vertex:
    """The exact vertex of an optimal basis: its point, objective and the float solver's value."""

    z: list[Fraction]
    objective: Fraction
    float_objective: float
    violations: list[str]

    @property
    def feasible(self) -> bool:
        """Whether the exact vertex satisfies every constraint and bound."""
        return not self.violations


def highs_basis(c, a, row_lo, row_hi, col_lo, col_hi) -> dict:
    """``min c.z`` subject to ``row_lo <= a z <= row_hi``, ``col_lo <= z <= col_hi`` by HiGHS's simplex method.

    Parameters
    ----------
    c : ndarray
        Costs.
    a : scipy.sparse matrix
        The constraint matrix.
    row_lo, row_hi, col_lo, col_hi : ndarray
        Bounds (``-inf``/``inf`` where absent).

    Returns
    -------
    dict
        ``x``, ``row_dual``, ``col_status`` and ``row_status`` (``"basic"``, ``"lower"``, ``"upper"``
        or ``"zero"``), ``fun``, ``iterations``.
    """
    a = csc_matrix(a)
    try:
        import scipy.optimize._highspy._core as _h  # the HiGHS bundled with SciPy, for the basis
    except ImportError:  # pragma: no cover - exercised only on a SciPy without the bundled module
        return _linprog_basis(c, a, row_lo, row_hi, col_lo, col_hi)
    lp = _h.HighsLp()
    m, n = a.shape
    lp.num_col_, lp.num_row_ = n, m
    lp.a_matrix_.num_col_, lp.a_matrix_.num_row_ = n, m
    lp.a_matrix_.format_ = _h.MatrixFormat.kColwise
    lp.col_cost_, lp.col_lower_, lp.col_upper_ = np.asarray(c, float), np.asarray(col_lo, float), np.asarray(col_hi, float)
    lp.row_lower_, lp.row_upper_ = np.asarray(row_lo, float), np.asarray(row_hi, float)
    lp.a_matrix_.start_, lp.a_matrix_.index_, lp.a_matrix_.value_ = a.indptr, a.indices, a.data
    highs = _h._Highs()
    opts = _h.HighsOptions()
    opts.output_flag = False
    opts.solver = "simplex"
    highs.passOptions(opts)
    highs.passModel(lp)
    highs.run()
    if highs.getModelStatus() != _h.HighsModelStatus.kOptimal:
        raise ArithmeticError(f"the LP solver failed: {highs.modelStatusToString(highs.getModelStatus())}")
    sol, basis, info = highs.getSolution(), highs.getBasis(), highs.getInfo()
    names = {_h.HighsBasisStatus.kBasic: "basic", _h.HighsBasisStatus.kLower: "lower",
             _h.HighsBasisStatus.kUpper: "upper", _h.HighsBasisStatus.kZero: "zero"}
    return {"x": np.array(sol.col_value), "row_dual": np.array(sol.row_dual),
            "col_status": [names.get(s, "zero") for s in basis.col_status],
            "row_status": [names.get(s, "zero") for s in basis.row_status],
            "fun": float(info.objective_function_value), "iterations": int(info.simplex_iteration_count)}


def _linprog_basis(c, a, row_lo, row_hi, col_lo, col_hi) -> dict:
    """:func:`highs_basis` through SciPy's public ``linprog``, for a SciPy without its bundled HiGHS module:
    the basis is read off the marginals (a bound or row with a nonzero marginal is active)."""
    from scipy.optimize import linprog
    from scipy.sparse import vstack

    fin_hi, fin_lo = np.isfinite(row_hi), np.isfinite(row_lo)
    eq = fin_hi & fin_lo & (np.asarray(row_lo) == np.asarray(row_hi))
    ub_hi = fin_hi & ~eq
    ub_lo = fin_lo & ~eq
    a = a.tocsr()
    a_ub = vstack([a[ub_hi], -a[ub_lo]])
    b_ub = np.concatenate([np.asarray(row_hi)[ub_hi], -np.asarray(row_lo)[ub_lo]])
    bounds = [(None if not np.isfinite(lo) else lo, None if not np.isfinite(hi) else hi) for lo, hi in zip(col_lo, col_hi)]
    res = linprog(c, A_ub=a_ub, b_ub=b_ub, A_eq=a[eq], b_eq=np.asarray(row_lo)[eq], bounds=bounds, method="highs-ds")
    if res.status != 0:
        raise ArithmeticError(f"the LP solver failed: {res.message}")
    x = res.x
    col = []
    for k, v in enumerate(x):
        if np.isfinite(col_lo[k]) and abs(v - col_lo[k]) <= 1e-12 and res.lower.marginals[k] != 0:
            col.append("lower")
        elif np.isfinite(col_hi[k]) and abs(v - col_hi[k]) <= 1e-12 and res.upper.marginals[k] != 0:
            col.append("upper")
        else:
            col.append("basic")
    row = ["basic"] * a.shape[0]
    idx_hi, idx_lo, idx_eq = np.flatnonzero(ub_hi), np.flatnonzero(ub_lo), np.flatnonzero(eq)
    for i, mg in zip(idx_hi, res.ineqlin.marginals[:len(idx_hi)]):
        row[i] = "upper" if mg != 0 else "basic"
    for i, mg in zip(idx_lo, res.ineqlin.marginals[len(idx_hi):]):
        row[i] = "lower" if mg != 0 else "basic"
    for i in idx_eq:
        row[i] = "lower"
    # row duals as HiGHS reports them for l <= a z <= u (a row taken as -a z <= -l has the opposite sign)
    dual = np.zeros(a.shape[0])
    dual[idx_hi] = res.ineqlin.marginals[:len(idx_hi)]
    dual[idx_lo] = -np.asarray(res.ineqlin.marginals[len(idx_hi):])
    dual[idx_eq] = res.eqlin.marginals
    return {"x": x, "row_dual": dual, "col_status": col, "row_status": row, "fun": float(res.fun),
            "iterations": int(res.nit)}


def solve_vertex(lp: ExactLP) -> Vertex:
    """The exact vertex of the optimal basis HiGHS finds for ``lp``.

    Parameters
    ----------
    lp : ExactLP
        The program, with rational data.

    Returns
    -------
    Vertex
        The exact point of the basis (nonbasic variables at their bounds, active rows at theirs,
        the basic variables from the square rational system), its objective, and the constraints it
        breaks (none when the float basis is exactly feasible).

    Raises
    ------
    ArithmeticError
        When the float solver fails, or its basis is singular in exact arithmetic.
    """
    import flint

    n, m = lp.ncols, len(lp.rows)
    r_idx, c_idx, vals = [], [], []
    for i, row in enumerate(lp.rows):
        for k, v in row.items():
            r_idx.append(i)
            c_idx.append(k)
            vals.append(float(v))
    a = csc_matrix((vals, (r_idx, c_idx)), shape=(m, n))

    def fl(b: Fraction | None, default: float) -> float:
        return default if b is None else float(b)

    res = highs_basis(np.array([float(lp.cost.get(k, 0)) for k in range(n)]), a,
                      np.array([fl(b, -INF) for b in lp.row_lo]), np.array([fl(b, INF) for b in lp.row_hi]),
                      np.array([fl(b, -INF) for b in lp.col_lo]), np.array([fl(b, INF) for b in lp.col_hi]))
    z: list[Fraction | None] = [None] * n
    for k, s in enumerate(res["col_status"]):
        if s == "lower" and lp.col_lo[k] is not None:
            z[k] = lp.col_lo[k]
        elif s == "upper" and lp.col_hi[k] is not None:
            z[k] = lp.col_hi[k]
        elif s != "basic":
            z[k] = Fraction(0)
    basic = [k for k in range(n) if z[k] is None]
    active: list[tuple[int, Fraction]] = []
    for i, s in enumerate(res["row_status"]):
        if s == "basic":
            continue
        b = lp.row_lo[i] if s == "lower" else lp.row_hi[i]
        if b is None:
            b = lp.row_hi[i] if lp.row_lo[i] is None else lp.row_lo[i]
        active.append((i, b if b is not None else Fraction(0)))
    if len(active) != len(basic):
        raise ArithmeticError(f"the float basis is not square: {len(basic)} basic variables, {len(active)} active rows")
    pos = {k: p for p, k in enumerate(basic)}
    if basic:
        mat = flint.fmpq_mat(len(basic), len(basic))
        rhs = flint.fmpq_mat(len(basic), 1)
        for p, (i, b) in enumerate(active):
            s = b
            for k, v in lp.rows[i].items():
                q = pos.get(k)
                if q is None:
                    s -= v * z[k]  # type: ignore[operator]
                else:
                    mat[p, q] = flint.fmpq(v.numerator, v.denominator)
            rhs[p, 0] = flint.fmpq(s.numerator, s.denominator)
        try:
            # p-adic lifting, faster than the default at this size (the stubs omit the documented keyword)
            sol = mat.solve(rhs, algorithm="dixon")  # type: ignore[call-arg]
        except ZeroDivisionError:
            raise ArithmeticError("the float solver's basis is singular in exact arithmetic") from None
        for p, k in enumerate(basic):
            val = sol[p, 0]
            z[k] = Fraction(int(val.p), int(val.q))
    zz: list[Fraction] = [v if v is not None else Fraction(0) for v in z]
    obj = sum((v * zz[k] for k, v in lp.cost.items()), Fraction(0))
    return Vertex(zz, obj, res["fun"], lp.violations(zz))
