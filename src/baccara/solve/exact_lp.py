"""Linear programs solved exactly: HiGHS's float basis, then the vertex and its prices in rationals.

Every exact linear program in baccara goes through :func:`solve_exact_lp`.  HiGHS (the copy
bundled with SciPy) is trusted only for *which* variables are basic and which bounds are
active at its optimum.  That basis is solved in exact rationals (python-flint): the vertex,
the row prices and the reduced costs.  The vertex is optimal, exactly, when it meets every
constraint and bound and every reduced cost and price has the sign its active bound allows
(LP duality: the prices are then a dual optimum with the same objective).  HiGHS stops
within its tolerances (about 1e-7), so when payoff differences that matter are that small
its basis can be wrong; the bounded-variable simplex method then pivots from it in exact
rationals -- the primal method from a feasible basis, the dual method from a dual feasible
one (a warm start from a program with fewer rows), and from neither a first phase that
minimises the sum of infeasibilities.  A wrong float basis therefore costs pivots, never
a wrong answer.

A basis's square system (the tight rows in the basic columns) is mostly triangular in the
games' programs (a node's value follows from its children's), so it is solved by peeling
rows with one unknown left and columns left in one row; only the core that remains goes
to flint's dense solver (p-adic lifting).  The same order solves the transposed system for
the prices.  The simplex solves each basis afresh that way, so a pivot costs about one pass
over the program's nonzeros, with thousands of rows (Macao) as with four (banque).

Without SciPy's bundled HiGHS module the basis is read off the public
:func:`~scipy.optimize.linprog`'s marginals (a variable strictly between its bounds is
basic, a constraint with a nonzero marginal is active), which is weaker under degeneracy:
the exact check and the simplex then do more of the work.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from fractions import Fraction

import flint
import numpy as np
from scipy.sparse import csc_matrix

INF = float("inf")

#: A variable's place in a basis: basic, or nonbasic at its lower or upper bound, or (free) at 0.
STATUSES = ("basic", "lower", "upper", "zero")


@dataclass
class ExactLP:
    """``minimise c.z`` subject to ``row_lo <= A z <= row_hi`` and ``col_lo <= z <= col_hi``, with rational data.

    Rows are sparse dicts ``{column: coefficient}``; infinite bounds are None.  ``col_lo`` and
    ``col_hi`` left empty mean free columns.
    """

    ncols: int
    cost: dict[int, Fraction] = field(default_factory=dict)
    rows: list[dict[int, Fraction]] = field(default_factory=list)
    row_lo: list[Fraction | None] = field(default_factory=list)
    row_hi: list[Fraction | None] = field(default_factory=list)
    col_lo: list[Fraction | None] = field(default_factory=list)
    col_hi: list[Fraction | None] = field(default_factory=list)

    def add_row(self, coefs: dict[int, Fraction], lo: Fraction | None, hi: Fraction | None) -> None:
        """Add the constraint ``lo <= coefs.z <= hi`` (a bound may be None).

        Parameters
        ----------
        coefs : dict of int to Fraction
            The row's coefficients by column (zeros are dropped).
        lo, hi : Fraction or None
            The row's bounds; None where there is none.
        """
        self.rows.append({k: v if type(v) is Fraction else Fraction(v) for k, v in coefs.items() if v})
        self.row_lo.append(None if lo is None else Fraction(lo))
        self.row_hi.append(None if hi is None else Fraction(hi))

    def violations(self, z: list[Fraction]) -> list[str]:
        """The constraints and bounds ``z`` breaks, exactly.

        Parameters
        ----------
        z : list of Fraction
            A point, one value per column.

        Returns
        -------
        list of str
            One line per broken bound or row; empty when ``z`` is feasible.
        """
        col_lo, col_hi = self.col_lo or [None] * self.ncols, self.col_hi or [None] * self.ncols
        bad = []
        for k, (lo, hi) in enumerate(zip(col_lo, col_hi)):
            if (lo is not None and z[k] < lo) or (hi is not None and z[k] > hi):
                bad.append(f"column {k} = {float(z[k])} outside its bounds")
        for i, row in enumerate(self.rows):
            s = sum((v * z[k] for k, v in row.items()), Fraction(0))
            lo, hi = self.row_lo[i], self.row_hi[i]
            if (lo is not None and s < lo) or (hi is not None and s > hi):
                bad.append(f"row {i} = {float(s)} outside [{lo}, {hi}]")
        return bad


@dataclass(frozen=True)
class Basis:
    """A basis of an :class:`ExactLP`: where each column and each row stands.

    Attributes
    ----------
    cols : tuple of str
        Per column: ``"basic"``, or nonbasic at its ``"lower"`` or ``"upper"`` bound, or
        ``"zero"`` (a free column at 0).
    rows : tuple of str
        Per row: ``"basic"`` (its activity is basic: the row need not be tight), or tight at its
        ``"lower"`` or ``"upper"`` bound.  A square basis has as many basic columns as tight rows.
    """

    cols: tuple[str, ...]
    rows: tuple[str, ...]


@dataclass
class Vertex:
    """The exact vertex of a basis, its prices, and whether it is feasible and optimal.

    Attributes
    ----------
    z : list of Fraction
        The point: nonbasic columns at their bounds, basic ones from the basis's square system.
    objective : Fraction
        ``c.z``.
    float_objective : float
        HiGHS's objective (nan when the float solver was not asked).
    violations : list of str
        The constraints and bounds ``z`` breaks (:meth:`ExactLP.violations`).
    basis : Basis
        The basis.
    dual_feasible : bool
        Every reduced cost and price has the sign its bound allows (at its lower bound >= 0, at
        its upper <= 0, free 0).
    pivots : int
        Exact simplex pivots and bound flips made after the float basis (0 when it was optimal).
    prices, reduced, optimal, feasible
        Properties: the row prices, the reduced costs, and what holds (see each).
    """

    z: list[Fraction]
    objective: Fraction
    float_objective: float
    violations: list[str]
    basis: Basis
    dual_feasible: bool
    pivots: int = 0
    _d: list = field(default_factory=list, repr=False)   # reduced costs of columns, then row prices (flint)

    @property
    def prices(self) -> list[Fraction]:
        """The row prices y (0 on basic rows), with HiGHS's signs: ``c = A^T y + d``, so y >= 0 on a
        row tight at its lower bound and y <= 0 at its upper."""
        return [_fr(v) for v in self._d[len(self.z):]]

    @property
    def reduced(self) -> list[Fraction]:
        """The reduced costs d of the columns (0 on basic ones)."""
        return [_fr(v) for v in self._d[:len(self.z)]]

    @property
    def optimal(self) -> bool:
        """Whether the vertex is feasible and its basis dual feasible: a proof that ``z`` minimises
        the program and the prices solve its dual."""
        return self.dual_feasible and not self.violations

    @property
    def feasible(self) -> bool:
        """Whether the exact vertex satisfies every constraint and bound."""
        return not self.violations


# ---------------------------------------------------------------- the float basis
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

    Raises
    ------
    ArithmeticError
        When HiGHS does not report an optimum.
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


# ---------------------------------------------------------------- the program in flint
def _q(x) -> flint.fmpq:
    if type(x) is not Fraction:
        x = Fraction(x)
    return flint.fmpq(x.numerator, x.denominator)


def _fr(x: flint.fmpq) -> Fraction:
    return Fraction(int(x.p), int(x.q))


class _Program:
    """An :class:`ExactLP` in flint rationals, with its bounds and its products ``A x`` and ``A^T y``.

    Variables 0..n-1 are the columns, n..n+m-1 the rows' activities ``a_i.z`` (the simplex's
    computational form ``A z - r = 0``), each with its bounds.  A program whose matrix is dense
    and not too large (a game with few pure strategies against many information sets) keeps it
    as a flint matrix, so the products run in C; a sparse one (Macao's) loops over its nonzeros.
    """

    def __init__(self, lp: ExactLP) -> None:
        self.lp = lp
        self.n = n = lp.ncols
        self.m = m = len(lp.rows)
        self.rows = [{k: _q(v) for k, v in row.items()} for row in lp.rows]
        self.cols: list[dict[int, flint.fmpq]] = [{} for _ in range(n)]
        for i, row in enumerate(self.rows):
            for k, v in row.items():
                self.cols[k][i] = v
        self.cost = [flint.fmpq(0)] * n
        for k, c in lp.cost.items():
            self.cost[k] = _q(c)
        col_lo, col_hi = lp.col_lo or [None] * n, lp.col_hi or [None] * n
        self.lo = [None if b is None else _q(b) for b in list(col_lo) + list(lp.row_lo)]
        self.hi = [None if b is None else _q(b) for b in list(col_hi) + list(lp.row_hi)]
        nnz = sum(len(row) for row in self.rows)
        self.A: flint.fmpq_mat | None = None
        if 0 < m * n <= 4_000_000 and 4 * nnz >= m * n:
            vals: list = [0] * (m * n)
            for i, row in enumerate(self.rows):
                for k, v in row.items():
                    vals[i * n + k] = v
            self.A = flint.fmpq_mat(m, n, vals)
            self.AT = self.A.transpose()

    def times(self, x: list[flint.fmpq]) -> list[flint.fmpq]:
        """``A x``: every row's activity at the point ``x`` (one value per column)."""
        if self.A is not None:
            ax = self.A * flint.fmpq_mat(self.n, 1, x)
            return [ax[i, 0] for i in range(self.m)]
        zero = flint.fmpq(0)
        return [sum((v * x[k] for k, v in row.items() if x[k] != 0), zero) for row in self.rows]

    def times_t(self, y: list[flint.fmpq]) -> list[flint.fmpq]:
        """``A^T y``: every column's price at the row prices ``y`` (one value per row)."""
        if self.A is not None:
            aty = self.AT * flint.fmpq_mat(self.m, 1, y)
            return [aty[k, 0] for k in range(self.n)]
        out = [flint.fmpq(0)] * self.n
        for i, yi in enumerate(y):
            if yi != 0:
                for k, v in self.rows[i].items():
                    out[k] += v * yi
        return out

    def at(self, j: int, status: str) -> flint.fmpq:
        """The value of nonbasic variable ``j`` at ``status``: the bound named, else the other, else 0."""
        lo, hi = self.lo[j], self.hi[j]
        first, second = (hi, lo) if status == "upper" else (lo, hi)
        if status != "zero" and first is not None:
            return first
        if status != "zero" and second is not None:
            return second
        return flint.fmpq(0)

    def sign_ok(self, j: int, value: flint.fmpq, d: flint.fmpq) -> bool:
        """Whether reduced cost (or row price) ``d`` of nonbasic variable ``j`` at ``value`` is dual feasible."""
        lo, hi = self.lo[j], self.hi[j]
        at_lo, at_hi = lo is not None and value == lo, hi is not None and value == hi
        if at_lo and at_hi:
            return True          # a fixed variable (an equation)
        if at_lo:
            return d >= 0
        if at_hi:
            return d <= 0
        return d == 0            # free at 0

    def solve(self, status: list[str]) -> tuple[_Square, list[flint.fmpq]]:
        """The square system of the basis ``status`` (columns', then rows' statuses) and every
        variable's value: nonbasic ones at their bounds, then the basic columns, then the rows'
        activities.  ArithmeticError when the basis is not square or singular."""
        n, m, zero = self.n, self.m, flint.fmpq(0)
        x = [zero if status[k] == "basic" else self.at(k, status[k]) for k in range(n)]
        basic = [k for k in range(n) if status[k] == "basic"]
        tight = [i for i in range(m) if status[n + i] != "basic"]
        ax = self.times(x)
        rhs = {i: self.at(n + i, status[n + i]) - ax[i] for i in tight}
        if self.A is not None and len(basic) * 4 < n:
            entries = {i: {k: v for k in basic if (v := self.A[i, k]) != 0} for i in tight}
        else:
            entries = {i: {k: v for k, v in self.rows[i].items() if status[k] == "basic"} for i in tight}
        sq = _Square(entries, basic)
        for k, v in sq.solve(rhs).items():
            x[k] = v
        return sq, x + self.times(x)

    def prices(self, sq: _Square, status: list[str], cost: list[flint.fmpq]) -> list[flint.fmpq]:
        """Every variable's reduced cost for ``cost`` (one per variable) at the basis ``status``; a
        tight row's is its price y_i plus its own cost.  A basic row's cost moves onto its columns
        (r_l = a_l.z); the tight rows' prices then solve the square system's transpose."""
        n, m, zero = self.n, self.m, flint.fmpq(0)
        d = list(cost[:n])
        row_cost = [cost[n + i] if status[n + i] == "basic" else zero for i in range(m)]
        if any(c != 0 for c in row_cost):
            for k, v in enumerate(self.times_t(row_cost)):
                d[k] += v
        y = sq.solve_transpose({k: d[k] for k in range(n) if status[k] == "basic"})
        yf = [y.get(i, zero) for i in range(m)]
        out = [dk - v for dk, v in zip(d, self.times_t(yf))]
        out += [cost[n + i] + yf[i] if i in y else zero for i in range(m)]
        for j, s in enumerate(status):
            if s == "basic":
                out[j] = zero
        return out


# ---------------------------------------------------------------- a basis's square system
class _Square:
    """The square system of a basis, ordered for solving: rows with one unknown left (solved
    forward), a dense core (flint), then columns left in one row (solved backward).

    ``entries``: tight row -> {basic column: coefficient}.  Raises ArithmeticError when the
    system is not square or singular.
    """

    def __init__(self, entries: dict[int, dict[int, flint.fmpq]], basic: list[int]) -> None:
        if len(entries) != len(basic):
            raise ArithmeticError(f"the basis is not square: {len(basic)} basic columns, {len(entries)} tight rows")
        self.entries = entries
        cols: dict[int, dict[int, flint.fmpq]] = {k: {} for k in basic}
        for i, row in entries.items():
            for k, v in row.items():
                cols[k][i] = v
        self.colmap = cols
        left = {i: set(row) for i, row in entries.items()}
        self.fwd: list[tuple[int, int]] = []
        queue = deque(i for i, s in left.items() if len(s) == 1)
        while queue:
            i = queue.popleft()
            if len(left[i]) != 1:
                continue
            (k,) = left.pop(i)
            self.fwd.append((i, k))
            for i2 in cols[k]:
                if i2 in left:
                    left[i2].discard(k)
                    if len(left[i2]) == 1:
                        queue.append(i2)
        known = {k for _, k in self.fwd}
        ccols = {k: {i for i in rows if i in left} for k, rows in cols.items() if k not in known}
        self.bwd: list[tuple[int, int]] = []
        queue = deque(k for k, s in ccols.items() if len(s) == 1)
        while queue:
            k = queue.popleft()
            if k not in ccols or len(ccols[k]) != 1:
                continue
            (i,) = ccols.pop(k)
            self.bwd.append((i, k))
            for k2 in left.pop(i):
                if k2 in ccols:
                    ccols[k2].discard(i)
                    if len(ccols[k2]) == 1:
                        queue.append(k2)
        self.core_rows, self.core_cols = sorted(left), sorted(ccols)
        if len(self.core_rows) != len(self.core_cols) or any(not cols[k] for k in basic):
            raise ArithmeticError("the basis is singular in exact arithmetic")
        self.core = None
        if self.core_rows:
            pos = {k: p for p, k in enumerate(self.core_cols)}
            c = len(self.core_rows)
            core = flint.fmpq_mat(c, c)
            for r, i in enumerate(self.core_rows):
                for k, v in entries[i].items():
                    p = pos.get(k)
                    if p is not None:
                        core[r, p] = v
            self.core = core

    def _core_solve(self, mat: flint.fmpq_mat, rhs: list) -> list:
        try:
            # p-adic lifting, faster than the default at this size (the stubs omit the documented keyword)
            sol = mat.solve(flint.fmpq_mat(len(rhs), 1, rhs), algorithm="dixon")  # type: ignore[call-arg]
        except ZeroDivisionError:
            raise ArithmeticError("the basis is singular in exact arithmetic") from None
        return [sol[p, 0] for p in range(len(rhs))]

    def solve(self, rhs: dict[int, flint.fmpq]) -> dict[int, flint.fmpq]:
        """The basic columns' values: ``sum_k a_ik z_k = rhs_i`` on every tight row i."""
        z: dict[int, flint.fmpq] = {}
        ent = self.entries

        def rest(i: int, skip: int) -> flint.fmpq:
            return rhs[i] - sum((v * z[k] for k, v in ent[i].items() if k != skip), flint.fmpq(0))

        for i, k in self.fwd:
            z[k] = rest(i, k) / ent[i][k]
        if self.core is not None:
            vals = self._core_solve(self.core, [rhs[i] - sum((v * z[k] for k, v in ent[i].items() if k in z),
                                                             flint.fmpq(0)) for i in self.core_rows])
            z.update(zip(self.core_cols, vals))
        for i, k in reversed(self.bwd):
            z[k] = rest(i, k) / ent[i][k]
        return z

    def solve_transpose(self, c: dict[int, flint.fmpq]) -> dict[int, flint.fmpq]:
        """The tight rows' prices: ``sum_i a_ik y_i = c_k`` for every basic column k."""
        y: dict[int, flint.fmpq] = {}
        cm = self.colmap

        def rest(k: int, skip: int) -> flint.fmpq:
            return c[k] - sum((v * y[i] for i, v in cm[k].items() if i != skip), flint.fmpq(0))

        for i, k in self.bwd:
            y[i] = rest(k, i) / cm[k][i]
        if self.core is not None:
            vals = self._core_solve(self.core.transpose(),
                                    [c[k] - sum((v * y[i] for i, v in cm[k].items() if i in y), flint.fmpq(0))
                                     for k in self.core_cols])
            y.update(zip(self.core_rows, vals))
        for i, k in reversed(self.fwd):
            y[i] = rest(k, i) / cm[k][i]
        return y


def _vertex(prog: _Program, basis: Basis, float_objective: float = float("nan"), pivots: int = 0) -> Vertex:
    """The exact vertex, prices and reduced costs of ``basis``, checked (ArithmeticError if it is not
    square or singular)."""
    n, m = prog.n, prog.m
    if len(basis.cols) != n or len(basis.rows) != m:
        raise ArithmeticError("the basis does not fit the program")
    status = list(basis.cols) + list(basis.rows)
    sq, x = prog.solve(status)
    d = prog.prices(sq, status, prog.cost + [flint.fmpq(0)] * m)
    bad = []
    for j in range(n + m):
        lo, hi = prog.lo[j], prog.hi[j]
        if (lo is not None and x[j] < lo) or (hi is not None and x[j] > hi):
            bad.append(f"column {j} = {float(_fr(x[j]))} outside its bounds" if j < n else
                       f"row {j - n} = {float(_fr(x[j]))} outside [{prog.lp.row_lo[j - n]}, {prog.lp.row_hi[j - n]}]")
    values = [x[j] if status[j] == "basic" else prog.at(j, status[j]) for j in range(n + m)]
    dual_ok = all(prog.sign_ok(j, values[j], d[j]) for j in range(n + m) if status[j] != "basic")
    obj = sum((c * x[k] for k, c in enumerate(prog.cost) if c != 0), flint.fmpq(0))
    return Vertex([_fr(v) for v in x[:n]], _fr(obj), float_objective, bad, basis, dual_ok, pivots, d)


# ---------------------------------------------------------------- the exact simplex method
class _Simplex:
    """The bounded-variable simplex method on ``A z - r = 0`` (variables: the columns, then the
    rows' activities r), revised and exact.  Each basis is solved afresh through its square
    system (:class:`_Square`: the tight rows in the basic columns, peeled), so a pivot costs
    about one pass over the program's nonzeros and a solve of the small dense core."""

    def __init__(self, prog: _Program, basis: Basis) -> None:
        self.prog = prog
        n, m = prog.n, prog.m
        self.N = n + m
        self.status = [self._normal(j, s) for j, s in enumerate(list(basis.cols) + list(basis.rows))]
        self.cost = list(prog.cost) + [flint.fmpq(0)] * m
        self.pivots = 0

    def _normal(self, j: int, s: str) -> str:
        """A nonbasic variable's status named by the bound it sits at (a free one at 0)."""
        if s == "basic":
            return s
        lo, hi = self.prog.lo[j], self.prog.hi[j]
        if (s == "lower" and lo is not None) or (s == "upper" and hi is not None):
            return s
        return "lower" if lo is not None else "upper" if hi is not None else "zero"

    def fixed(self, j: int) -> bool:
        lo, hi = self.prog.lo[j], self.prog.hi[j]
        return lo is not None and hi is not None and lo == hi

    def direction(self, sq: _Square, enter: int, sign: int) -> dict[int, flint.fmpq]:
        """How fast each basic variable moves when nonbasic ``enter`` moves by ``sign`` per unit."""
        prog, n, st = self.prog, self.prog.n, self.status
        zero = flint.fmpq(0)
        rhs = {i: zero for i in sq.entries}
        if enter < n:
            for i, v in prog.cols[enter].items():
                if i in rhs:
                    rhs[i] = -sign * v
        else:
            rhs[enter - n] = flint.fmpq(sign)
        rate = sq.solve(rhs)
        vec = [zero] * n
        for k, v in rate.items():
            vec[k] = v
        if enter < n:
            vec[enter] = flint.fmpq(sign)
        for i, r in enumerate(prog.times(vec)):
            if st[n + i] == "basic":
                rate[n + i] = r
        return rate

    def _limit(self, j: int, xj: flint.fmpq, rate: flint.fmpq) -> flint.fmpq | None:
        """How far basic variable ``j`` at ``xj``, moving at ``rate``, may go before a bound stops it
        (None: never).  An infeasible one (phase 1) stops where it becomes feasible."""
        lo, hi = self.prog.lo[j], self.prog.hi[j]
        if lo is not None and xj < lo:
            return (lo - xj) / rate if rate > 0 else None
        if hi is not None and xj > hi:
            return (xj - hi) / -rate if rate < 0 else None
        if rate < 0:
            return None if lo is None else (xj - lo) / -rate
        return None if hi is None else (hi - xj) / rate

    def _below(self, j: int, xj: flint.fmpq) -> bool:
        lo = self.prog.lo[j]
        return lo is not None and xj < lo

    def infeasible(self, x) -> list[int]:
        """The basic variables outside their bounds."""
        lo, hi = self.prog.lo, self.prog.hi
        return [j for j, s in enumerate(self.status)
                if s == "basic" and ((lo[j] is not None and x[j] < lo[j]) or (hi[j] is not None and x[j] > hi[j]))]

    def candidates(self, d) -> list[tuple[flint.fmpq, int, int]]:
        """The nonbasic variables whose reduced cost has the wrong sign: (rate, variable, direction)."""
        out = []
        for j, s in enumerate(self.status):
            if s == "basic" or self.fixed(j):
                continue
            if d[j] < 0 and s != "upper":
                out.append((-d[j], j, 1))
            elif d[j] > 0 and s != "lower":
                out.append((d[j], j, -1))
        return out

    def primal(self, phase1: bool = False) -> bool:
        """The primal simplex method (Dantzig's rule, then Bland's after repeated degenerate pivots)
        to an optimal basis; with ``phase1``, to a feasible one, minimising the sum of the basic
        variables' infeasibilities.  False when ``phase1`` proves the program infeasible."""
        lo, hi, m = self.prog.lo, self.prog.hi, self.prog.m
        degenerate, bland = 0, False
        for _ in range(100 * (self.N + m)):
            sq, x = self.prog.solve(self.status)
            cost = self.cost
            if phase1:
                bad = self.infeasible(x)
                if not bad:
                    return True
                cost = [flint.fmpq(0)] * self.N
                for j in bad:
                    cost[j] = flint.fmpq(-1) if self._below(j, x[j]) else flint.fmpq(1)
            eligible = self.candidates(self.prog.prices(sq, self.status, cost))
            if not eligible:
                return not phase1
            # Entering variables in the rule's order.  A bound flip keeps the basis, hence the prices,
            # so in phase 2 the next candidate needs no new prices: only a change of basis ends the pass.
            eligible.sort(key=lambda e: e[1] if bland else (-e[0], e[1]))
            for _, enter, sign in eligible:
                rates = self.direction(sq, enter, sign)
                # x_enter moves by sign * step, basic x_j by rate_j * step; the first bound reached stops it
                steps = []
                low, high = lo[enter], hi[enter]
                if low is not None and high is not None:
                    steps.append((high - low, enter))
                for j, rate in rates.items():
                    if rate != 0:
                        t = self._limit(j, x[j], rate)
                        if t is not None:
                            steps.append((t, j))
                if not steps:
                    raise ArithmeticError("the exact simplex found the program unbounded")
                step, leave = min(steps, key=lambda s: (s[0], s[1]))
                self.pivots += 1
                if leave == enter:   # a bound flip: x_enter goes from one bound to the other
                    self.status[enter] = "upper" if sign > 0 else "lower"
                    for j, rate in rates.items():
                        x[j] += rate * step
                    if phase1:       # the infeasibilities, hence the phase's costs, may have changed
                        break
                    continue
                degenerate = degenerate + 1 if step == 0 else 0
                bland = bland or degenerate > 2 * m
                new = x[leave] + rates[leave] * step
                self.status[leave] = "upper" if hi[leave] is not None and new == hi[leave] else "lower"
                self.status[enter] = "basic"
                break
        raise ArithmeticError("the exact simplex did not terminate")

    def dual(self) -> bool:
        """From a dual feasible basis, the dual simplex method (Bland's rule: the first basic variable
        out of bounds leaves, ties in the ratio test to the first variable) until every basic
        variable is within its bounds.  False when it cannot go on (the caller then starts afresh)."""
        prog, n = self.prog, self.prog.n
        for _ in range(10 * self.N):
            sq, x = prog.solve(self.status)
            bad = self.infeasible(x)
            if not bad:
                return True
            d = prog.prices(sq, self.status, self.cost)
            leave = min(bad)
            below = self._below(leave, x[leave])   # then x_leave must rise, else fall
            # g_j = d x_leave / d x_j for every nonbasic j, through the tight rows' sensitivities rho
            basic = [k for k in range(n) if self.status[k] == "basic"]
            if leave < n:
                own: dict[int, flint.fmpq] = {}
                rho = sq.solve_transpose({k: flint.fmpq(int(k == leave)) for k in basic})
            else:
                own = prog.rows[leave - n]
                rho = sq.solve_transpose({k: own.get(k, flint.fmpq(0)) for k in basic})
            rf = [rho.get(i, flint.fmpq(0)) for i in range(prog.m)]
            g = [own.get(k, flint.fmpq(0)) - v for k, v in enumerate(prog.times_t(rf))] + rf
            # a variable at its lower bound may rise, at its upper bound fall, a free one either way;
            # the least ratio |d_j / g_j| keeps every reduced cost's sign
            ratios = []
            for j, s in enumerate(self.status):
                gj = g[j]
                if s == "basic" or gj == 0 or self.fixed(j):
                    continue
                if s == "zero" or (s == "lower" and (gj > 0) == below) or (s == "upper" and (gj < 0) == below):
                    ratios.append((abs(d[j] / gj), j))
            if not ratios:
                return False
            _, enter = min(ratios)
            self.status[leave] = "lower" if below else "upper"
            self.status[enter] = "basic"
            self.pivots += 1
        return False

    def result(self) -> Basis:
        n = self.prog.n
        return Basis(tuple(self.status[:n]), tuple(self.status[n:]))


def _slack_basis(prog: _Program) -> Basis:
    """Every row's activity basic, every column at a bound (or 0): always square and nonsingular."""
    cols = tuple("lower" if prog.lo[k] is not None else "upper" if prog.hi[k] is not None else "zero"
                 for k in range(prog.n))
    return Basis(cols, ("basic",) * prog.m)


def _float_start(lp: ExactLP) -> tuple[Basis, float]:
    """HiGHS's optimal basis of ``lp`` and its objective."""
    n, m = lp.ncols, len(lp.rows)
    r_idx: list[int] = []
    c_idx: list[int] = []
    vals: list[float] = []
    for i, row in enumerate(lp.rows):
        r_idx.extend([i] * len(row))
        c_idx.extend(row)
        vals.extend([v.numerator / v.denominator for v in row.values()])   # correctly rounded, as float(v)
    a = csc_matrix((vals, (r_idx, c_idx)), shape=(m, n))

    def fl(bounds: list[Fraction | None], default: float) -> np.ndarray:
        return np.array([default if b is None else float(b) for b in bounds]) if bounds else np.full(n, default)

    cost = np.zeros(n)
    for k, c in lp.cost.items():
        cost[k] = float(c)
    res = highs_basis(cost, a,
                      fl(lp.row_lo, -INF), fl(lp.row_hi, INF), fl(lp.col_lo, -INF), fl(lp.col_hi, INF))
    return Basis(tuple(res["col_status"]), tuple(res["row_status"])), res["fun"]


def solve_exact_lp(lp: ExactLP, *, warm: Basis | None = None, float_basis: bool = True,
                   pivot: bool = True) -> Vertex:
    """An optimal vertex of ``lp`` in exact rationals, from HiGHS's float basis (see the module docstring).

    Parameters
    ----------
    lp : ExactLP
        The program, with rational data.
    warm : Basis, optional
        A basis tried before the float solver's, e.g. an optimal basis of a program with the same
        columns and fewer rows, the new rows basic: dual feasible, finished by the dual simplex.
    float_basis : bool
        Ask HiGHS for a starting basis.  False: the warm basis, else the slack basis (every row
        basic), and the exact simplex from there.
    pivot : bool
        Pivot in exact arithmetic when no start is optimal.  False returns the exact vertex of
        the first square nonsingular start, checked: ``optimal`` and ``feasible`` say what holds.

    Returns
    -------
    Vertex
        The vertex, its prices and reduced costs; with ``pivot`` it is always ``optimal``.

    Raises
    ------
    ArithmeticError
        When the program is infeasible or unbounded; without ``pivot``, when no start gives a
        square nonsingular basis or the float solver fails.
    """
    prog = _Program(lp)

    def starts():
        if warm is not None:
            yield warm, float("nan")
        if float_basis:
            try:
                yield _float_start(lp)
            except ArithmeticError:
                if not pivot:
                    raise

    first: Vertex | None = None
    err: ArithmeticError | None = None
    for b, fobj in starts():
        try:
            v = _vertex(prog, b, fobj)
        except ArithmeticError as e:
            err = e
            continue
        if v.optimal or not pivot:
            return v
        if v.feasible or v.dual_feasible:
            first = v
            break
        first = first or v
    if not pivot:
        raise err or ArithmeticError("no starting basis")
    sx = _Simplex(prog, first.basis if first is not None else _slack_basis(prog))
    if first is not None and not first.feasible and first.dual_feasible and not sx.dual():
        sx = _Simplex(prog, first.basis)
    if not sx.primal(phase1=True):
        raise ArithmeticError("the program is infeasible")
    sx.primal()
    v = _vertex(prog, sx.result(), first.float_objective if first is not None else float("nan"), sx.pivots)
    if not v.optimal:  # pragma: no cover - the simplex ends only at an optimal basis
        raise ArithmeticError("the exact simplex ended at a basis that is not optimal")
    return v


__all__ = ["STATUSES", "Basis", "ExactLP", "Vertex", "highs_basis", "solve_exact_lp"]
