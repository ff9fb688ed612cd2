"""Unit tests of :mod:`baccara.solve.linalg`: exact Gauss-Jordan over Q and Q(sqrt D), rank,
and the vertices of small polytopes.

Oracles: determinants by cofactor (Laplace) expansion, FLINT's ``fmpq_mat`` rank, and
polygon vertices from pairwise line intersections by Cramer's rule, all written here.
"""

from fractions import Fraction as F
from itertools import combinations, permutations

import flint
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from baccara.algebraic import QuadraticNumber as Q
from baccara.solve.linalg import polytope_vertices, rank_exact, solve_exact

from .budget import examples


def det(m):
    """Cofactor expansion along the first row."""
    if len(m) == 1:
        return m[0][0]
    return sum((-1) ** c * m[0][c] * det([row[:c] + row[c + 1:] for row in m[1:]]) for c in range(len(m)))


def matvec(m, x):
    return [sum((a * b for a, b in zip(row, x)), F(0)) for row in m]


def flint_rank(m):
    rows, cols = len(m), len(m[0])
    return flint.fmpq_mat(rows, cols, [flint.fmpq(x.numerator, x.denominator) for r in m for x in r]).rank()


fracs = st.fractions(-5, 5, max_denominator=4)


def matrices(rows, cols):
    return st.lists(st.lists(fracs, min_size=cols, max_size=cols), min_size=rows, max_size=rows)


# ---------------------------------------------------------------- hand-made
def test_two_by_two():
    # 2x + y = 5, x - y = 1: adding, 3x = 6, x = 2, y = 1.
    assert solve_exact([[2, 1], [1, -1]], [5, 1]) == [F(2), F(1)]


def test_cofactor_oracle_on_a_known_determinant():
    # det [[2,0,1],[1,3,2],[1,1,1]] = 2(3-2) - 0 + 1(1-3) = 0: singular, so no unique solution.
    m = [[F(2), F(0), F(1)], [F(1), F(3), F(2)], [F(1), F(1), F(1)]]
    assert det(m) == 0
    assert solve_exact(m, [F(1), F(2), F(3)]) is None
    assert rank_exact(m) == 2


def test_over_and_under_determined():
    # x = 1, y = 2, x + y = 3: consistent, unique; x + y = 4 instead: inconsistent.
    assert solve_exact([[1, 0], [0, 1], [1, 1]], [1, 2, 3]) == [F(1), F(2)]
    assert solve_exact([[1, 0], [0, 1], [1, 1]], [1, 2, 4]) is None
    # one equation, two unknowns: not determined
    assert solve_exact([[1, 1]], [1]) is None
    assert solve_exact([], []) == []


def test_quadratic_field():
    # (1 + sqrt2) x + y = 3, x - sqrt2 y = 0: x = sqrt2 y, (sqrt2 + 2 + 1) y = 3,
    # y = 3 / (3 + sqrt2) = 3 (3 - sqrt2) / 7, x = sqrt2 y = (9 sqrt2 - 6) / 7.
    r2 = Q(0, 1, 2)
    x, y = solve_exact([[1 + r2, 1], [1, -r2]], [3, 0])
    assert y == Q(F(9, 7), F(-3, 7), 2) and x == Q(F(-6, 7), F(9, 7), 2)
    assert (1 + r2) * x + y == 3 and x - r2 * y == 0


def test_unit_square_and_simplex():
    # 0 <= x, y <= 1: the four corners.
    le = [[1, 0], [-1, 0], [0, 1], [0, -1]]
    assert polytope_vertices([], [], le, [1, 0, 1, 0], 2) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    # x + y + z = 1 in the unit cube: the standard simplex's three unit vectors.
    cube = [[1 if t == c else 0 for t in range(3)] for c in range(3)] + \
        [[-1 if t == c else 0 for t in range(3)] for c in range(3)]
    rhs = [1, 1, 1, 0, 0, 0]
    assert polytope_vertices([[1, 1, 1]], [1], cube, rhs, 3) == [(0, 0, 1), (0, 1, 0), (1, 0, 0)]
    # x + y + z = 3/2 cuts the cube in a hexagon: the permutations of (1, 1/2, 0).
    hexagon = polytope_vertices([[1, 1, 1]], [F(3, 2)], cube, rhs, 3)
    assert sorted(hexagon) == sorted(set(permutations((F(1), F(1, 2), F(0)))))
    # a redundant equality (the same plane twice) changes nothing
    assert polytope_vertices([[1, 1, 1], [2, 2, 2]], [F(3, 2), 3], cube, rhs, 3) == hexagon
    # x + y + z = 4 misses the cube
    assert polytope_vertices([[1, 1, 1]], [4], cube, rhs, 3) == []


def test_dimension_zero():
    assert polytope_vertices([], [], [], [], 0) == [()]
    assert polytope_vertices([[]], [1], [], [], 0) == []       # 0 = 1 fails
    assert polytope_vertices([], [], [[]], [-1], 0) == []       # 0 <= -1 fails


# ---------------------------------------------------------------- random
@settings(max_examples=examples(200), deadline=None)
@given(st.integers(1, 4).flatmap(lambda n: st.tuples(matrices(n, n), st.lists(fracs, min_size=n, max_size=n))))
def test_square_systems(data):
    m, b = data
    x = solve_exact(m, b)
    d = det(m)
    if d == 0:
        assert x is None
    else:
        assert x is not None and matvec(m, x) == b
        # Cramer's rule, component by component
        for c in range(len(m)):
            mc = [row[:c] + [bi] + row[c + 1:] for row, bi in zip(m, b)]
            assert x[c] == det(mc) / d


@settings(max_examples=examples(150), deadline=None)
@given(st.integers(1, 4), st.integers(1, 4), st.integers(1, 3), st.data())
def test_rank_of_products(rows, cols, r, data):
    # U (rows x r) V (r x cols) has rank <= r; FLINT computes it independently.
    U = data.draw(matrices(rows, r))
    V = data.draw(matrices(r, cols))
    m = [[sum((U[i][t] * V[t][j] for t in range(r)), F(0)) for j in range(cols)] for i in range(rows)]
    assert rank_exact(m) == flint_rank(m) <= min(r, rows, cols)


@settings(max_examples=examples(150), deadline=None)
@given(st.integers(1, 3), st.integers(1, 3), st.data())
def test_overdetermined_consistent_and_inconsistent(extra, n, data):
    m = data.draw(matrices(n + extra, n))
    x0 = data.draw(st.lists(fracs, min_size=n, max_size=n))
    b = matvec(m, x0)
    x = solve_exact(m, b)
    if flint_rank(m) == n:
        assert x == x0
        # a change in one right-hand side that leaves the column space gives None
        b2 = list(b)
        b2[-1] += 1
        aug = [row + [bi] for row, bi in zip(m, b2)]
        assert (solve_exact(m, b2) is None) == (flint_rank(aug) > n)
    else:
        assert x is None


def cramer_vertices(le, rhs):
    """Vertices of {z in R^2 : le z <= rhs}: feasible intersections of two boundary lines."""
    out = set()
    for s, t in combinations(range(len(le)), 2):
        (a, b), (c, d) = le[s], le[t]
        den = a * d - b * c
        if den == 0:
            continue
        z = ((rhs[s] * d - b * rhs[t]) / den, (a * rhs[t] - rhs[s] * c) / den)
        if all(r[0] * z[0] + r[1] * z[1] <= c0 for r, c0 in zip(le, rhs)):
            out.add(z)
    return out


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.tuples(st.integers(-4, 4), st.integers(-4, 4), st.fractions(-2, 3, max_denominator=3)),
                min_size=0, max_size=3))
def test_polygon_vertices_match_cramer(cuts):
    # the unit square cut by a few random half-planes a x + b y <= c
    cuts = [(F(a), F(b), c) for a, b, c in cuts if a or b]
    le = [[F(1), F(0)], [F(-1), F(0)], [F(0), F(1)], [F(0), F(-1)]] + [[a, b] for a, b, _ in cuts]
    rhs = [F(1), F(0), F(1), F(0)] + [c for _, _, c in cuts]
    got = polytope_vertices([], [], le, rhs, 2)
    assert set(got) == cramer_vertices(le, rhs)
    assert got == sorted(set(got))
    for z in got:  # each vertex is feasible and tight on two independent constraints
        tight = [r for r, c in zip(le, rhs) if r[0] * z[0] + r[1] * z[1] == c]
        assert rank_exact(tight) == 2


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(st.tuples(fracs, fracs), min_size=2, max_size=2), st.tuples(fracs, fracs))
def test_solve_in_q_sqrt5(rows, x0):
    # entries r + s sqrt5; the right-hand side from a known solution (x0 + sqrt5, x0 - sqrt5)
    r5 = Q(0, 1, 5)
    m = [[a + b * r5, b - a * r5] for a, b in rows]
    x = [x0[0] + r5, x0[1] - r5]
    rhs = [m[i][0] * x[0] + m[i][1] * x[1] for i in range(2)]
    d = m[0][0] * m[1][1] - m[0][1] * m[1][0]
    assume(d != 0)
    assert solve_exact(m, rhs) == x
