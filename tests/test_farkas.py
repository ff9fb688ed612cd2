"""Farkas certificates (baccara.solve.farkas): found for infeasible systems, never for feasible ones,
and checked exactly."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from baccara.solve.farkas import certifies, farkas

from .budget import examples

F = Fraction


def test_interval_contradiction():
    # z >= 2 and z <= 1
    rows = {"lo": ({"z": F(1)}, F(-2), False), "hi": ({"z": F(-1)}, F(1), False)}
    cert = farkas(rows)
    assert cert is not None and certifies(rows, cert)
    assert cert == {"lo": 1, "hi": 1}


def test_two_unknowns_needing_the_linear_program():
    # x + y = 1, x - y = 1 (so x = 1, y = 0), and x + 3 y >= 2: no solution, but every row alone has one
    rows = {"s": ({"x": F(1), "y": F(1)}, F(-1), True), "d": ({"x": F(1), "y": F(-1)}, F(-1), True),
            "c": ({"x": F(1), "y": F(3)}, F(-2), False)}
    cert = farkas(rows)
    assert cert is not None and certifies(rows, cert)
    rows["c"] = ({"x": F(1), "y": F(3)}, F(-1), False)  # now x = 1, y = 0 meets it with equality
    assert farkas(rows) is None


def test_certifies_rejects_bad_multipliers():
    rows = {"lo": ({"z": F(1)}, F(-2), False), "hi": ({"z": F(-1)}, F(1), False)}
    assert not certifies(rows, {"lo": F(1), "hi": F(2)})     # does not cancel z
    assert not certifies(rows, {"lo": F(-1), "hi": F(-1)})   # negative on inequalities
    assert not certifies(rows, {"nope": F(1)})               # a row that is not there
    assert not certifies({"lo": ({"z": F(1)}, F(0), False)}, {"lo": F(1)})  # feasible: constant not < 0


def _feasible_1d(rows) -> bool:
    """z exists with every a z + c >= 0 (or = 0): intersect the intervals exactly."""
    lo, hi = None, None
    for a, c, eq in rows:
        if a == 0:
            if (c < 0) or (eq and c != 0):
                return False
            continue
        r = -c / a
        if eq:
            lo = r if lo is None else max(lo, r)
            hi = r if hi is None else min(hi, r)
        elif a > 0:
            lo = r if lo is None else max(lo, r)
        else:
            hi = r if hi is None else min(hi, r)
    return lo is None or hi is None or lo <= hi


row = st.tuples(st.integers(-5, 5).map(F), st.integers(-9, 9).map(F), st.booleans())


@settings(max_examples=examples(150), deadline=None)
@given(st.lists(row, min_size=1, max_size=6))
def test_one_unknown_against_intervals(rows):
    system = {f"r{k}": ({"z": a} if a else {}, c, eq) for k, (a, c, eq) in enumerate(rows)}
    cert = farkas(system)
    if _feasible_1d(rows):
        assert cert is None
    else:
        assert cert is not None and certifies(system, cert)
