"""Exact certificates that a small system of linear constraints has no solution (Farkas' lemma).

A system of rows ``a_r . z + c_r >= 0`` (or ``= 0``) in real unknowns z has no solution if
and only if there are multipliers lambda_r, >= 0 on the inequalities and of any sign on the
equations, with ``sum_r lambda_r a_r = 0`` and ``sum_r lambda_r c_r < 0``: adding up the rows
with those weights would give ``0 >= (a negative number)`` (Farkas' lemma; Schrijver, *Theory
of Linear and Integer Programming*, 1986, section 7.3).  Such multipliers are a certificate
that anyone can check with a few exact multiplications and additions, without trusting the
search that found them.

:func:`farkas` finds them as HiGHS (through SciPy) solves the dual linear program in floating
point, then solves again, in exact rationals, on the rows the float solution uses, and checks
the result exactly (:func:`certifies`).  A row that fails on its own, over the box its system's
one-unknown rows make, is found first without the float program.  It returns None when the float program finds the
system feasible, or when the exact re-solve does not give a certificate: None proves nothing.

This is not :func:`baccara.solve.exact_lp.solve_exact_lp`, though the dual program could go
through it: the exact LP also finds the certificates whose multipliers the float support drops
(below 1e-12), which changes the proofs' case trees (d = 39 closes with fewer nodes and no
sub-cases of Banker's sets), so switching is a change to the proof artefacts, left for its own step.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

import numpy as np
from scipy.optimize import linprog

from .linalg import eliminate

F0 = Fraction(0)

#: One row: its coefficients by unknown, its constant, and whether it is an equation (``= 0``)
#: rather than an inequality (``>= 0``).
Row = tuple[Mapping[str, Fraction], Fraction, bool]


def certifies(rows: Mapping[str, Row], mult: Mapping[str, Fraction]) -> bool:
    """Whether ``mult`` is a Farkas certificate that ``rows`` have no common solution.

    Parameters
    ----------
    rows : mapping of str to Row
        The system, by row label.
    mult : mapping of str to Fraction
        A multiplier for some of the rows (the others count as 0).

    Returns
    -------
    bool
        True when every multiplier names a row, those of the inequalities are >= 0, the
        combination of the rows' coefficients is 0 in every unknown and of their constants < 0.
    """
    total: dict[str, Fraction] = {}
    const = F0
    for label, lam in mult.items():
        if label not in rows:
            return False
        coeffs, c, is_eq = rows[label]
        if lam < 0 and not is_eq:
            return False
        for v, a in coeffs.items():
            total[v] = total.get(v, F0) + lam * a
        const += lam * c
    return const < 0 and all(t == 0 for t in total.values())


def _one_row(rows: Mapping[str, Row]) -> dict[str, Fraction] | None:
    """A certificate from one row and the bounds: when some row cannot hold for any z in the box that
    the one-unknown rows (bounds) make, that row and those bounds, weighted, refute the system."""
    lo: dict[str, tuple[Fraction, str, Fraction]] = {}  # unknown -> (bound, its row, the row's coefficient)
    hi: dict[str, tuple[Fraction, str, Fraction]] = {}
    for label, (coeffs, c, is_eq) in rows.items():
        if len(coeffs) != 1 or is_eq:
            continue
        (v, a), = coeffs.items()
        if a > 0 and (v not in lo or -c / a > lo[v][0]):
            lo[v] = (-c / a, label, a)
        elif a < 0 and (v not in hi or -c / a < hi[v][0]):
            hi[v] = (-c / a, label, a)
    for label, (coeffs, c, is_eq) in rows.items():
        if any(a and (v not in lo or v not in hi) for v, a in coeffs.items()):
            continue
        top = c + sum((a * (hi[v][0] if a > 0 else lo[v][0]) for v, a in coeffs.items()), F0)
        bottom = c + sum((a * (lo[v][0] if a > 0 else hi[v][0]) for v, a in coeffs.items()), F0)
        sign = Fraction(1) if top < 0 else (Fraction(-1) if is_eq and bottom > 0 else None)
        if sign is None:
            continue
        mult = {label: sign}
        for v, a in coeffs.items():
            a *= sign
            if a:
                _, row, s = hi[v] if a > 0 else lo[v]
                mult[row] = mult.get(row, F0) + abs(a / s)
        if certifies(rows, mult):
            return mult
    return None


def farkas(rows: Mapping[str, Row]) -> dict[str, Fraction] | None:
    """Exact multipliers proving that ``rows`` have no common solution, or None.

    Parameters
    ----------
    rows : mapping of str to Row
        The system, by row label (coefficients and constants exact rationals).

    Returns
    -------
    dict of str to Fraction or None
        A certificate (:func:`certifies` holds), on the rows with nonzero multipliers; None when
        none was found (the system may be feasible, or the float search missed).
    """
    quick = _one_row(rows)
    if quick is not None:
        return quick
    labels = list(rows)
    unknowns = sorted({v for coeffs, _, _ in rows.values() for v in coeffs})
    col = {v: k for k, v in enumerate(unknowns)}
    # the dual program in floats: lambda >= 0 (an equation as lambda+ - lambda-), sum lambda = 1,
    # sum lambda a = 0, minimise sum lambda c; each row scaled by its largest entry for HiGHS
    cols: list[tuple[int, float]] = []
    for r, label in enumerate(labels):
        cols.append((r, 1.0))
        if rows[label][2]:
            cols.append((r, -1.0))
    n = len(cols)
    a_eq = np.zeros((len(unknowns) + 1, n))
    cost = np.zeros(n)
    scale = []
    for label in labels:
        coeffs, c, _ = rows[label]
        s = max([abs(c)] + [abs(v) for v in coeffs.values()]) or Fraction(1)
        scale.append(s)
    for k, (r, sign) in enumerate(cols):
        coeffs, c, _ = rows[labels[r]]
        s = scale[r]
        for v, a in coeffs.items():
            a_eq[col[v], k] = sign * float(a / s)
        cost[k] = sign * float(c / s)
        a_eq[-1, k] = 1.0
    b_eq = np.zeros(len(unknowns) + 1)
    b_eq[-1] = 1.0
    res = linprog(cost, A_eq=a_eq, b_eq=b_eq, bounds=[(0, None)] * n, method="highs")
    if res.status != 0 or res.fun > -1e-12:
        return None
    lam = np.zeros(len(labels))
    for k, (r, sign) in enumerate(cols):
        lam[r] += sign * res.x[k]
    support = [r for r in range(len(labels)) if abs(lam[r]) > 1e-12]
    # exact: on the support, sum lambda a = 0 and sum lambda c = -1
    eqs = [[rows[labels[r]][0].get(v, F0) for r in support] for v in unknowns]
    eqs.append([rows[labels[r]][1] for r in support])
    rhs = [F0] * len(unknowns) + [Fraction(-1)]
    sol = eliminate(eqs, rhs, len(support))
    if sol is None:
        return None
    mult = {labels[r]: (v if v is not None else F0) for r, v in zip(support, sol)}
    mult = {k: v for k, v in mult.items() if v}
    return mult if certifies(rows, mult) else None


__all__ = ["Row", "certifies", "farkas"]
