"""Every Nash equilibrium of a Model B3 face at a given commission, exactly, and the face's critical alphas.

A *face* of chemin de fer under Model B3 (Ethier and Lee 2023, section 4) fixes
Player's move at four of his five compositions of 5 and leaves him one free
probability p.  Banker's gain from drawing at set m is then
b_m(p) = (1 - p) g_m^0 + p g_m^1 with g_m^u = c_m^u - alpha h_m^u (integers c, h,
read off the coefficients), and Player's gains pi_j(x) do not involve alpha.

*Critical alphas* of a face over [lo, hi]: lo and hi; the rational roots of
every g_m^u; and the roots, inside both curves' domains, of
g_i^0 g_j^1 - g_i^1 g_j^0 (degree <= 2 in alpha) for two sets i, j with
best-response-discontinuity curves (where the curve p_i = g_i^0 / (g_i^0 - g_i^1)
meets p_j).  Between consecutive critical alphas nothing changes sign: every
g_m^u keeps its sign and the curves keep their order, so Banker's best
responses to each p keep their pattern and the equilibrium set keeps its
combinatorial type (Player's constraints are free of alpha).  Hence
enumerating the equilibria at each critical alpha and at one rational sample
between consecutive ones determines the face's equilibria for every alpha.

:func:`equilibria_at` enumerates them at one alpha, exactly: an alpha is
(u + v sqrt(D)) / w with integers, and every sign is decided in integers of
Z[sqrt D].  At each candidate p (0, 1, and every curve's value), Banker's
indifferent sets K are free in [0, 1]; with Player's constraints (pi_j >= 0
where he draws, <= 0 where he stands, = 0 where he mixes) they form a
polytope whose vertices are listed.  Between candidates Player mixing with
Banker pure is a continuum of equilibria, reported as such.

This module is part of the independent checker: standard library only.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from functools import cmp_to_key
from itertools import combinations
from math import gcd, isqrt
from typing import Any

F0, F1 = Fraction(0), Fraction(1)
#: Most Banker sets indifferent at once that the vertex enumeration accepts.
MAX_FREE = 6

QS = tuple[int, int]  # a + b sqrt(D), D fixed by the alpha in hand


def _sgn(v: Any) -> int:
    return (v > 0) - (v < 0)


class Alpha:
    """An exact commission (u + v sqrt(D)) / w: integers, w > 0, D > 1 not a square (or v = 0, D = 1).

    Parameters
    ----------
    u, v, D, w : int
        The number's parts.
    """

    __slots__ = ("u", "v", "D", "w")

    def __init__(self, u: int, v: int = 0, D: int = 1, w: int = 1):
        if w < 0:
            u, v, w = -u, -v, -w
        if v == 0:
            D = 1
        self.u, self.v, self.D, self.w = u, v, D, w

    @classmethod
    def of(cls, q: Fraction) -> Alpha:
        """A rational alpha."""
        q = Fraction(q)
        return cls(q.numerator, 0, 1, q.denominator)

    @property
    def rational(self) -> bool:
        return self.v == 0

    def key(self) -> tuple:
        """Equal keys iff equal numbers: ("q", value) or ("r", primitive minimal polynomial, root sign)."""
        if self.v == 0:
            return ("q", Fraction(self.u, self.w))
        # x = (u + v sqrt D) / w: (w x - u)^2 = v^2 D
        a, b, c = self.w * self.w, -2 * self.u * self.w, self.u * self.u - self.v * self.v * self.D
        g = gcd(gcd(a, b), c)
        return ("r", (a // g, b // g, c // g), _sgn(self.v))

    def bounds(self, bits: int = 64) -> tuple[Fraction, Fraction]:
        """Rational bounds (exact when rational)."""
        if self.v == 0:
            q = Fraction(self.u, self.w)
            return q, q
        scale = 1 << bits
        r = isqrt(self.D * scale * scale)
        lo, hi = Fraction(self.u * scale + self.v * r, self.w * scale), Fraction(self.u * scale + self.v * (r + 1), self.w * scale)
        return (lo, hi) if lo <= hi else (hi, lo)

    def cmp(self, other: Alpha) -> int:
        """-1, 0, 1 as self <, =, > other (exact)."""
        if self.key() == other.key():
            return 0
        bits = 64
        while True:
            a0, a1 = self.bounds(bits)
            b0, b1 = other.bounds(bits)
            if a1 < b0:
                return -1
            if b1 < a0:
                return 1
            bits *= 2

    def json(self) -> dict:
        """``{"r", "s", "d", "float"}``: r + s sqrt(d)."""
        r, s = Fraction(self.u, self.w), Fraction(self.v, self.w)
        lo, hi = self.bounds(80)
        return {"r": _fs(r), "s": _fs(s), "d": str(self.D), "float": float((lo + hi) / 2)}

    def scaled(self, c: int, h: int) -> QS:
        """w (c - alpha h) in Z[sqrt D]: same sign as c - alpha h."""
        return (c * self.w - h * self.u, -h * self.v)


def alpha_from_json(r: dict) -> Alpha:
    """The alpha r + s sqrt(d) of an artefact (``{"r", "s", "d"}``)."""
    rr, ss, dd = Fraction(str(r["r"])), Fraction(str(r["s"])), int(r["d"])
    if ss != 0 and dd < 0:
        raise ValueError(f"an alpha r + s sqrt(d) needs d >= 0, got d = {dd}")
    if ss == 0 or isqrt(dd) ** 2 == dd:
        return Alpha.of(rr + ss * isqrt(max(dd, 0)) if ss else rr)
    w = rr.denominator * ss.denominator // gcd(rr.denominator, ss.denominator)
    return Alpha(int(rr * w), int(ss * w), dd, w)


def _fs(q: Fraction) -> str:
    return f"{q.numerator}/{q.denominator}"


def _mul(x: QS, y: QS, D: int) -> QS:
    return (x[0] * y[0] + x[1] * y[1] * D, x[0] * y[1] + x[1] * y[0])


def _sign(x: QS, D: int) -> int:
    a, b = x
    sa, sb = _sgn(a), _sgn(b)
    if sb == 0 or sa == sb:
        return sa or sb
    if sa == 0:
        return sb
    n = a * a - b * b * D  # opposite signs: the larger magnitude wins (never 0: D is not a square)
    return sa if n > 0 else sb


class Face:
    """One face's additive game, from Model 3's integer coefficients.

    Parameters
    ----------
    G, H, S : list
        The coefficients (``G[i]``, ``H[i]`` six integers per Banker set; ``S`` = ``base_sgn``).
    key : str
        The face, e.g. ``"D*SDD"`` (``*`` the free composition).
    """

    def __init__(self, G: list, H: list, S: list, key: str):
        self.key, self.free = key, key.index("*")
        self.G, self.S, self.n = G, S, len(G)
        self.y = [1 if ch == "D" else 0 for ch in key]

        def at_u(row: list, u: int) -> int:
            return row[0] + sum(row[j + 1] * (u if j == self.free else self.y[j]) for j in range(5))
        self.c = [(at_u(G[i], 0), at_u(G[i], 1)) for i in range(self.n)]
        self.h = [(at_u(H[i], 0), at_u(H[i], 1)) for i in range(self.n)]

    def values(self, alpha: Alpha) -> list[tuple[QS, QS]]:
        """w g_m^u(alpha) for every set m and u = 0, 1."""
        return [(alpha.scaled(c0, h0), alpha.scaled(c1, h1)) for (c0, c1), (h0, h1) in zip(self.c, self.h)]

    def critical(self, lo: Fraction, hi: Fraction) -> tuple[list[Alpha], list[Alpha]]:
        """(every critical alpha in [lo, hi], ascending; the curve crossings among them)."""
        lo_a, hi_a = Alpha.of(lo), Alpha.of(hi)
        pts: dict[tuple, Alpha] = {lo_a.key(): lo_a, hi_a.key(): hi_a}
        curves = []
        for m in range(self.n):
            for u in (0, 1):
                c, h = self.c[m][u], self.h[m][u]
                if h and lo <= Fraction(c, h) <= hi:
                    a = Alpha.of(Fraction(c, h))
                    pts[a.key()] = a
            # a curve somewhere in [lo, hi]: g^0 g^1 < 0 at an end or between roots (a quadratic's sign)
            if self._curve_somewhere(m, lo, hi):
                curves.append(m)
        crossings: dict[tuple, Alpha] = {}
        for x, i in enumerate(curves):
            (c0i, c1i), (e0i, e1i) = self.c[i], (-self.h[i][0], -self.h[i][1])
            for j in curves[x + 1:]:
                (c0j, c1j), (e0j, e1j) = self.c[j], (-self.h[j][0], -self.h[j][1])
                k0 = c0i * c1j - c0j * c1i
                k1 = c0i * e1j + e0i * c1j - c0j * e1i - e0j * c1i
                k2 = e0i * e1j - e0j * e1i
                for r in _roots(k2, k1, k0):
                    if lo_a.cmp(r) < 0 < hi_a.cmp(r) and self._inside(i, r) and self._inside(j, r):
                        crossings[r.key()] = r
        pts.update(crossings)
        return _ascending(pts.values()), _ascending(crossings.values())

    def _curve_somewhere(self, m: int, lo: Fraction, hi: Fraction) -> bool:
        cuts = {lo, hi}
        for u in (0, 1):
            c, h = self.c[m][u], self.h[m][u]
            if h and lo < Fraction(c, h) < hi:
                cuts.add(Fraction(c, h))
        cs = sorted(cuts)
        return any((self.c[m][0] - t * self.h[m][0]) * (self.c[m][1] - t * self.h[m][1]) < 0
                   for t in [(a + b) / 2 for a, b in zip(cs, cs[1:])])

    def _inside(self, m: int, alpha: Alpha) -> bool:
        g0, g1 = alpha.scaled(self.c[m][0], self.h[m][0]), alpha.scaled(self.c[m][1], self.h[m][1])
        return _sign(_mul(g0, g1, alpha.D), alpha.D) < 0

    def pi_consts(self, x_fixed: list[int]) -> list[int]:
        """pi_j (scaled by the deals) with Banker playing ``x_fixed`` (0/1) and the free sets at 0."""
        return [-self.S[j + 1] - sum(self.G[i][j + 1] for i, v in enumerate(x_fixed) if v) for j in range(5)]

    def equilibria_at(self, alpha: Alpha) -> tuple[list[tuple[tuple[Fraction, Fraction, int], tuple[Fraction, ...]]], bool]:
        """Every extreme Nash equilibrium of the full game on this face at ``alpha`` (module docstring).

        Parameters
        ----------
        alpha : Alpha
            The commission.

        Returns
        -------
        (list, bool)
            The extreme equilibria, each ``((r, s, D), x)``: Player's free probability r + s sqrt(D)
            and Banker's strategy x (exact); and whether a continuum in Player's free probability
            (Banker pure, Player indifferent) is an equilibrium too.
        """
        D = alpha.D
        vals = self.values(alpha)
        curve = [m for m, (g0, g1) in enumerate(vals) if _sign(_mul(g0, g1, D), D) < 0]

        def cmp_p(i: int, j: int) -> int:
            # sign(p_j - p_i) = sign(g_i^0 g_j^1 - g_j^0 g_i^1) sign(den_i den_j), den = g^0 - g^1
            (a0, a1), (b0, b1) = vals[i], vals[j]
            t = _mul(a0, b1, D)
            t2 = _mul(b0, a1, D)
            di = (a0[0] - a1[0], a0[1] - a1[1])
            dj = (b0[0] - b1[0], b0[1] - b1[1])
            return -_sign((t[0] - t2[0], t[1] - t2[1]), D) * _sign(di, D) * _sign(dj, D)

        curve.sort(key=cmp_to_key(cmp_p))
        groups: list[list[int]] = []
        for m in curve:
            if groups and cmp_p(groups[-1][0], m) == 0:
                groups[-1].append(m)
            else:
                groups.append([m])
        zero = [m for m, (g0, g1) in enumerate(vals) if _sign(g0, D) == 0 and _sign(g1, D) == 0]
        out: list[tuple[tuple[Fraction, Fraction, int], tuple[Fraction, ...]]] = []
        continuum = False

        def pattern(before: int) -> list[int]:
            """Banker's pure moves for p just above the first ``before`` curve groups (0 < p < 1), sets
            with a zero gain at p = 0 or 1 handled as the endpoint case wants."""
            below = {m for g in groups[:before] for m in g}
            x = []
            for m, (g0, g1) in enumerate(vals):
                s0, s1 = _sign(g0, D), _sign(g1, D)
                if m in below:
                    x.append(int(s1 > 0))
                elif s0 * s1 < 0:
                    x.append(int(s0 > 0))
                else:
                    x.append(int((s0 or s1) > 0))
            return x

        # p = 0 and p = 1
        for p in (0, 1):
            x, free = [], []
            for m, (g0, g1) in enumerate(vals):
                s = _sign(g1 if p else g0, D)
                x.append(int(s > 0))
                if s == 0:
                    free.append(m)
            for v in self._vertices(x, free, p):
                out.append(((Fraction(p), F0, 1), v))  # p = 0 or 1
        # each curve group's p
        for n, grp in enumerate(groups):
            i = grp[0]
            g0, g1 = vals[i]
            den = (g0[0] - g1[0], g0[1] - g1[1])
            norm = den[0] * den[0] - den[1] * den[1] * D
            pr = Fraction(g0[0] * den[0] - g0[1] * den[1] * D, norm)
            ps = Fraction(g0[1] * den[0] - g0[0] * den[1], norm)
            x = pattern(n + 1)
            for m in grp:
                x[m] = 0
            for m in zero:
                x[m] = 0
            for v in self._vertices(x, sorted(set(grp) | set(zero)), None):
                out.append(((pr, ps, D), v))
        # open p-intervals between candidates: Banker pure, Player indifferent
        for n in range(len(groups) + 1):
            x = pattern(n)
            for m in zero:
                x[m] = 0
            if self._vertices(x, zero, None):
                continuum = True
        return out, continuum

    def _vertices(self, x: list[int], free: list[int], p: int | None) -> list[tuple[Fraction, ...]]:
        """Vertices of Banker's equilibrium polytope: x fixed outside ``free``; Player at p (None: mixing)."""
        if len(free) > MAX_FREE:
            raise ValueError(f"face {self.key}: {len(free)} Banker sets indifferent at once (at most {MAX_FREE})")
        consts = self.pi_consts(x)
        # rows: (coefficients over free, constant, relation) meaning coef . x + const REL 0
        rows: list[tuple[list[int], int, str]] = []
        for j in range(5):
            yj = p if j == self.free else self.y[j]
            rel = "=" if yj is None else (">=" if yj == 1 else "<=")
            rows.append(([-self.G[i][j + 1] for i in free], consts[j], rel))
        k = len(free)
        for t in range(k):
            e = [0] * k
            e[t] = 1
            rows.append((e, 0, ">="))
            rows.append((e, -1, "<="))

        def ok(pt: list[Fraction]) -> bool:
            for coef, c, rel in rows:
                v = c + sum(a * b for a, b in zip(coef, pt))
                if (rel == "=" and v != 0) or (rel == ">=" and v < 0) or (rel == "<=" and v > 0):
                    return False
            return True

        found: list[tuple[Fraction, ...]] = []
        pts: list[list[Fraction]]
        if k == 0:
            pts = [[]] if ok([]) else []
        else:
            pts = []
            for sub in combinations(rows, k):
                sol = _solve([r[0] for r in sub], [-r[1] for r in sub], k)
                if sol is not None and ok(sol):
                    pts.append(sol)
        for pt in pts:
            full = [Fraction(v) for v in x]
            for i, v in zip(free, pt):
                full[i] = v
            tup = tuple(full)
            if tup not in found:
                found.append(tup)
        return found


def _ascending(xs: Iterable[Alpha]) -> list[Alpha]:
    def order(a: Alpha, b: Alpha) -> int:
        return a.cmp(b)
    return sorted(xs, key=cmp_to_key(order))


def _solve(A: list[list[int]], b: list[int], k: int) -> list[Fraction] | None:
    """The unique solution of A x = b (k unknowns, k equations), or None when singular."""
    if len(A) != k:
        return None
    M = [[Fraction(v) for v in row] + [Fraction(bv)] for row, bv in zip(A, b)]
    for col in range(k):
        piv = next((r for r in range(col, k) if M[r][col] != 0), None)
        if piv is None:
            return None
        M[col], M[piv] = M[piv], M[col]
        for r in range(k):
            if r != col and M[r][col] != 0:
                f = M[r][col] / M[col][col]
                M[r] = [a - f * c for a, c in zip(M[r], M[col])]
    return [M[r][k] / M[r][r] for r in range(k)]


def _roots(k2: int, k1: int, k0: int) -> list[Alpha]:
    """Real roots of k2 a^2 + k1 a + k0 (not all zero), exactly."""
    if k2 == 0:
        return [Alpha.of(Fraction(-k0, k1))] if k1 else []
    g = gcd(gcd(k2, k1), k0)
    if k2 < 0:
        g = -g
    k2, k1, k0 = k2 // g, k1 // g, k0 // g
    disc = k1 * k1 - 4 * k2 * k0
    if disc < 0:
        return []
    r = isqrt(disc)
    if r * r == disc:
        return [Alpha.of(Fraction(-k1 + t, 2 * k2)) for t in sorted({-r, r})]
    return [Alpha(-k1, -1, disc, 2 * k2), Alpha(-k1, 1, disc, 2 * k2)]


def between(a: Alpha, b: Alpha) -> Fraction:
    """A rational strictly between a < b."""
    bits = 32
    while True:
        _, a1 = a.bounds(bits)
        b0, _ = b.bounds(bits)
        if a1 < b0:
            m = (a1 + b0) / 2
            if a.cmp(Alpha.of(m)) < 0 < b.cmp(Alpha.of(m)):
                return m
        bits *= 2


def p_equal(p: tuple[Fraction, Fraction, int], r: dict) -> bool:
    """Whether r + s sqrt(D) equals an artefact's ``{"r", "s", "d"}``."""
    rr, ss, dd = Fraction(str(r["r"])), Fraction(str(r["s"])), int(r["d"])
    return p[0] == rr and _sgn(p[1]) == _sgn(ss) and p[1] * p[1] * p[2] == ss * ss * dd


def p_json(p: tuple[Fraction, Fraction, int]) -> dict:
    """Player's free probability as ``{"r", "s", "d"}``."""
    return {"r": _fs(p[0]), "s": _fs(p[1]), "d": str(p[2] if p[1] else 1)}


def _player_key(face: Face, p: tuple[Fraction, Fraction, int]) -> tuple:
    return tuple(p if t == face.free else (Fraction(face.y[t]), F0, 1) for t in range(5))


def union_at(faces: list[Face], alpha: Alpha) -> tuple[list[tuple[tuple, tuple[Fraction, ...]]], bool]:
    """The extreme equilibria of the full game at ``alpha`` over all ``faces`` (each once), and any continuum.

    Parameters
    ----------
    faces : list of Face
        The faces every equilibrium lies on.
    alpha : Alpha
        The commission.

    Returns
    -------
    (list, bool)
        ``(y, x)`` pairs, y Player's five probabilities as (r, s, D) triples; and whether a continuum exists.
    """
    out: list[tuple[tuple, tuple[Fraction, ...]]] = []
    cont = False
    for f in faces:
        eqs, c = f.equilibria_at(alpha)
        cont = cont or c
        for p, x in eqs:
            e = (_player_key(f, p), x)
            if e not in out:
                out.append(e)
    return out, cont


def analyse(G: list, H: list, S: list, keys: list[str], lo: Fraction, hi: Fraction) -> dict:
    """The critical alphas of all ``keys`` faces together, with every extreme equilibrium at each.

    Parameters
    ----------
    G, H, S : list
        Model 3's coefficients (``base_sgn`` as S).
    keys : list of str
        The faces.
    lo, hi : Fraction
        The commission range.

    Returns
    -------
    dict
        ``critical``: ``[{"alpha", "equilibria": [{"player", "banker"}], "continuum"}]`` ascending over
        the union of the faces' critical alphas; ``crossings``: each face's curve crossings (alphas);
        ``regions``: ``[(from, to, sample, number of extreme equilibria, continuum)]`` between them;
        ``region_equilibria``: the extreme equilibria at each region's sample (as :func:`union_at`);
        ``points``: the critical alphas (:class:`Alpha`); ``point_equilibria``: :func:`union_at` at each.
    """
    faces = [Face(G, H, S, k) for k in keys]
    allpts: dict[tuple, Alpha] = {}
    crossings = {}
    for f in faces:
        crit, cross = f.critical(lo, hi)
        crossings[f.key] = cross
        for a in crit:
            allpts[a.key()] = a
    pts = _ascending(allpts.values())
    critical = []
    at_points = []
    for a in pts:
        eqs, cont = union_at(faces, a)
        at_points.append((eqs, cont))
        critical.append({"alpha": a.json(), "continuum": cont,
                         "equilibria": [{"player": [p_json(p) for p in y], "banker": [_fs(v) for v in x]}
                                        for y, x in eqs]})
    regions = []
    region_eqs = []
    for a, b in zip(pts, pts[1:]):
        s = between(a, b)
        eqs, cont = union_at(faces, Alpha.of(s))
        regions.append((a, b, s, len(eqs), cont))
        region_eqs.append(eqs)
    return {"critical": critical, "crossings": crossings, "regions": regions, "points": pts,
            "region_equilibria": region_eqs, "point_equilibria": at_points}


def equivalent_columns(G: Sequence, H: Sequence, S: Sequence, W: Sequence) -> list[int] | None:
    """Positive integers w (gcd 1) with every coefficient column of composition j equal to w_j times one
    common column, or None when Player's compositions of 5 are not all alike.

    With replacement (d = infinity) Player's two cards tell him nothing about the rest of the shoe,
    so his five compositions of 5 differ only in how often they are dealt: column j of ``G``,
    ``H``, ``base_sgn`` and ``base_win`` is the probability of composition j times one column
    (weights 4 : 1 : 1 : 1 : 1, as (0, 5) is dealt in 4 x 2 ways of 169, the others in 2).

    Parameters
    ----------
    G, H : list
        Model 3's rows (six integers each).
    S, W : list
        ``base_sgn`` and ``base_win`` (six integers each).

    Returns
    -------
    list of int or None
        The five weights.
    """
    vecs = [[r[j + 1] for r in G] + [r[j + 1] for r in H] + [S[j + 1], W[j + 1]] for j in range(5)]
    m = next((t for t, v in enumerate(vecs[0]) if v), None)
    if m is None:
        return None
    ratios = []
    for v in vecs:
        q = Fraction(v[m], vecs[0][m])
        if q <= 0 or any(a * vecs[0][m] != v[m] * b for a, b in zip(v, vecs[0])):
            return None
        ratios.append(q)
    den = 1
    for q in ratios:
        den = den * q.denominator // gcd(den, q.denominator)
    w = [int(q * den) for q in ratios]
    div = gcd(*w)
    return [t // div for t in w]


def banker_groups(G: list, H: list) -> list[list[int]]:
    """Banker's sets grouped by positive proportionality of their rows (``G[i]`` then ``H[i]``), each group
    in the sets' order, groups in order of their first set; a zero row stays alone.

    Alike sets are one decision up to scale: both players' payoffs depend on Banker's moves there only
    through their weighted sum (with replacement, Banker's compositions of one total, as in Model A1).

    Parameters
    ----------
    G, H : list
        The rows.

    Returns
    -------
    list of list of int
        The groups (set indices).
    """
    groups: dict[tuple, list[int]] = {}
    for i, (g, h) in enumerate(zip(G, H)):
        v = list(g) + list(h)
        lead = next((abs(x) for x in v if x), 0)
        key = tuple(Fraction(x, lead) for x in v) if lead else ("zero", i)
        groups.setdefault(key, []).append(i)
    return list(groups.values())


def merged_coefficients(co: dict) -> dict:
    """Model 3's coefficients with alike choices merged: Player's five compositions of 5 into one
    (composition 1), and Banker's alike sets (:func:`banker_groups`) into one set each.

    Player's merged move p = sum_j w_j y_j / sum_j w_j (see :func:`equivalent_columns`) carries the sum
    of the five columns; the other four columns are zero (Player's moves there are dummies, held at 0).
    A merged Banker set carries its members' summed rows; his move there is the members' common move
    (a split with the same weighted total is equivalent).

    Parameters
    ----------
    co : dict
        ``G``, ``H``, ``base_sgn``, ``base_win`` (as :func:`baccara.check.chemin_deals.model3_coefficients`).

    Returns
    -------
    dict
        ``G``, ``H``, ``base_sgn``, ``base_win`` merged, and ``groups`` (Banker's, as set indices).
    """
    def row(r: Any) -> list[int]:
        return [r[0], sum(r[1:6]), 0, 0, 0, 0]
    G, H = [row(r) for r in co["G"]], [row(r) for r in co["H"]]
    groups = banker_groups(G, H)

    def add(rows: list[list[int]], m: list[int]) -> list[int]:
        return [sum(rows[i][t] for i in m) for t in range(6)]
    return {"G": [add(G, m) for m in groups], "H": [add(H, m) for m in groups],
            "base_sgn": row(co["base_sgn"]), "base_win": row(co["base_win"]), "groups": groups}


#: The merged game's only face: Player chooses p at composition 1, the dummies stand.
MERGED_FACE = "*SSSS"


__all__ = ["MERGED_FACE", "Alpha", "Face", "alpha_from_json", "analyse", "banker_groups", "between", "equivalent_columns",
           "merged_coefficients", "p_equal", "p_json", "union_at"]
