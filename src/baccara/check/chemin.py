"""Re-check a Model B3 proof artefact (kind ``chemin-b3-uniqueness``) without the solvers.

The artefact (written by ``baccara chemin prove --model B3``) claims, for
every commission alpha in a range, where every Nash equilibrium of chemin de
fer under Model B3 (Ethier and Lee 2023, section 4) lies.  This module:

1. re-derives the game's integer coefficients by its own count of the deals
   (:mod:`baccara.check.chemin_deals`) and compares them with the artefact's;
   everything after uses the re-derived ones;
2. walks the case tree: the root is Player's whole cube times the whole
   range; every split covers its node (halves of an interval, or the two
   faces of a relation pi_j - c pi_k > 0, whose strict sign over every Banker
   strategy left is re-verified); at every node the iterated strict
   dominance is recomputed here (Banker's gain is affine in y and in alpha
   separately, so its extremes over the node are at corners) and must reach
   the claimed fixings, exclusion or face; a node *excluded by cases* must
   list, for every way Player can draw, stand or mix at his open
   compositions, partial assignments of Banker's open sets (draw, stand,
   mix, in the node's order) covering every full one, each with Farkas
   multipliers that this module checks by exact arithmetic against the
   conditions it writes itself (Player's gains in Banker's draws; Banker's
   gains in (y, alpha), alpha y_j bounded by McCormick's four products);
3. for every face a leaf reaches, the listed intervals: every end is one of the
   face's critical alphas re-derived here (or lo, hi), consecutive intervals
   meet exactly, and each interval's claim holds for *every* alpha in it, not
   at a sample: Banker's x is constant there and Player's free probability
   is N(alpha) / Dn(alpha) (Dn root-free on the closed interval), so Player's
   gains are exact numbers and Banker's gain at each set, times Dn, is a
   polynomial of degree <= 2 in alpha whose real roots are computed exactly
   and compared exactly with the ends (:func:`signs_on`); a claimed
   equilibrium of the full game satisfies every best-reply condition, a
   claimed non-equilibrium is the face's equilibrium with one of Player's
   fixed moves not a best reply;
4. the critical alphas of the faces together, re-derived, with every
   equilibrium there re-enumerated and certified; between consecutive ones,
   exactly one equilibrium (nothing changes sign inside), which must be that
   of a verified face interval covering the open interval;
5. the theorem: derived from steps 1 to 4 (:func:`verify`), written as the
   prover writes it (:func:`statement`); the artefact's ``statement`` must be
   that sentence, and every display ``float`` of an alpha its exact value.

With the infinite shoe the artefact is of the *merged* game (see
:mod:`baccara.chemin.proof`): the checker re-verifies from the re-derived
coefficients that Player's five columns are positive multiples of one
(:func:`~baccara.check.chemin_points.equivalent_columns`, weights as the
artefact states), groups Banker's alike sets itself, merges both, and re-checks
the tree (rooted at Player's one choice, the four dummy moves at 0), the faces
and the critical alphas on the merged coefficients.  A finite-shoe artefact
claiming an equivalence, or an infinite-shoe one omitting it, fails.
"""

from __future__ import annotations

import re
from fractions import Fraction
from itertools import product
from math import gcd, ulp
from typing import Any

from ..processes import HERE, Workers
from . import Step
from .chemin_deals import model3_coefficients
from .chemin_points import (
    Alpha,
    Face,
    _ascending,
    _roots,
    alpha_from_json,
    analyse,
    between,
    equivalent_columns,
    merged_coefficients,
)

F0, F1 = Fraction(0), Fraction(1)
VERSION = 3
#: Earlier versions this checker still reads (version 2 has no case analyses).
READS = (2, 3)


#: A rational as the artefacts write it, "num/den" or an integer: Fraction() alone would also take an
#: exponent ("1e300000000"), whose value a crafted file could make take minutes and gigabytes to build.
_RATIONAL = re.compile(r"^-?[0-9]{1,4000}(/[0-9]{1,4000})?$")


def _q(s: Any) -> Fraction:
    text = str(s)
    if not _RATIONAL.match(text):
        raise ValueError(f"not a rational num/den: {text[:40]!r}")
    return Fraction(text)


class _Game:
    """Model B3's gains from the re-derived integers (over the common denominator ``deals``)."""

    def __init__(self, co: dict):
        self.G, self.H, self.S = co["G"], co["H"], co["base_sgn"]
        self.n = len(self.G)

    def beta(self, i: int, y: list[Fraction], alpha: Fraction) -> Fraction:
        g, h = self.G[i], self.H[i]
        return g[0] - alpha * h[0] + sum(((g[j + 1] - alpha * h[j + 1]) * y[j] for j in range(5)), F0)

    def pi(self, j: int, x: list[Fraction]) -> Fraction:
        return -self.S[j + 1] - sum((xi * self.G[i][j + 1] for i, xi in enumerate(x) if xi), F0)

    def is_equilibrium(self, y: list[Fraction], x: list[Fraction], alpha: Fraction) -> bool:
        """Exact best responses on both sides: a strictly better move is always played."""
        for i in range(self.n):
            b = self.beta(i, y, alpha)
            if (b > 0 and x[i] != 1) or (b < 0 and x[i] != 0):
                return False
        for j in range(5):
            p = self.pi(j, x)
            if (p > 0 and y[j] != 1) or (p < 0 and y[j] != 0):
                return False
        return True


class _State:
    """What dominance has settled at a node, handed down to its children (a child's box and alpha-interval
    lie inside its parent's, so whatever is strictly dominated there is dominated in the child too).

    ``fixed``: Banker's sets fixed (0/1); ``open_``: the others, in order; ``pconst[j]``: deals times
    Player's gain at composition j from the constant and the sets fixed at 1, -S_j - sum G_ij.
    """

    __slots__ = ("fixed", "open_", "pconst")

    def __init__(self, fixed: dict[int, int], open_: list[int], pconst: list[int]):
        self.fixed, self.open_, self.pconst = fixed, open_, pconst


def _common(box: list[tuple[Fraction, Fraction]]) -> tuple[int, list[tuple[int, int]]]:
    """A common denominator L of the box's ends and the ends' numerators over it (integers)."""
    L = 1
    for lo, hi in box:
        for v in (lo, hi):
            L = L * v.denominator // gcd(L, v.denominator)
    return L, [(int(lo * L), int(hi * L)) for lo, hi in box]


def _propagate(g: _Game, box: list[tuple[Fraction, Fraction]], a: Fraction, b: Fraction,
               st: _State) -> tuple[list[tuple[Fraction, Fraction]], _State] | None:
    """Iterated strict dominance at a node, from its parent's state, in integers.

    For alpha = u / v, v (G_i - alpha H_i) has integer coefficients, and L y_j is an integer at the box's
    ends, so the sign of beta_i's extremes over the box is an integer's sign.
    """
    box, fixed, open_, pconst = list(box), dict(st.fixed), list(st.open_), list(st.pconst)
    ends = [(Fraction(al).numerator, Fraction(al).denominator) for al in (a, b)]
    G, H = g.G, g.H
    while True:
        changed = False
        L, ib = _common(box)
        keep = []
        for i in open_:
            gi, hi_ = G[i], H[i]
            lo = hi = None
            for u, v in ends:
                c0 = (v * gi[0] - u * hi_[0]) * L
                lv = hv = c0
                for j in range(5):
                    c = v * gi[j + 1] - u * hi_[j + 1]
                    if c:
                        p, q = c * ib[j][0], c * ib[j][1]
                        if p < q:
                            lv += p
                            hv += q
                        else:
                            lv += q
                            hv += p
                lo = lv if lo is None or lv < lo else lo
                hi = hv if hi is None or hv > hi else hi
            assert lo is not None and hi is not None
            if lo > 0 or hi < 0:
                x = 1 if lo > 0 else 0
                fixed[i] = x
                if x:
                    for j in range(5):
                        pconst[j] -= gi[j + 1]
                changed = True
            else:
                keep.append(i)
        open_ = keep
        for j in range(5):
            lo, hi = _pi_range(g, j, pconst, open_)
            if lo > 0:
                if box[j][1] < 1:
                    return None
                if box[j][0] < 1:
                    box[j], changed = (F1, F1), True
            elif hi < 0:
                if box[j][0] > 0:
                    return None
                if box[j][1] > 0:
                    box[j], changed = (F0, F0), True
        if not changed:
            return box, _State(fixed, open_, pconst)


def _pi_range(g: _Game, j: int, pconst: list[int], open_: list[int], k: int | None = None,
              c: Fraction = F0) -> tuple[int, int]:
    """The range of v (pi_j - c pi_k) (c = u / v; c = 0: pi_j), times the deals, over Banker's strategies
    left (the sets in ``open_`` free, the others as ``pconst`` has them): its signs are pi_j - c pi_k's."""
    u, v = c.numerator, c.denominator
    G = g.G
    lo = hi = v * pconst[j] - (u * pconst[k] if k is not None else 0)
    for i in open_:
        t = -v * G[i][j + 1] + (u * G[i][k + 1] if k is not None else 0)
        if t < 0:
            lo += t
        else:
            hi += t
    return lo, hi


_Row = tuple[dict[str, Fraction], Fraction, bool]


def _move(box: list[tuple[Fraction, Fraction]], j: int, pc: dict[int, str]) -> str:
    """Player's move at j in a case: "1" draws, "0" stands, "m" mixes (or is held inside his box)."""
    if j in pc:
        return pc[j]
    lo, hi = box[j]
    return "1" if lo == hi == 1 else ("0" if lo == hi == 0 else "m")


def _row(coeffs: dict[str, Fraction], c: Fraction, move: str) -> _Row:
    """coeffs . z + c: >= 0 for "1", <= 0 for "0" (stored negated), = 0 for "m"."""
    if move == "0":
        return {k: -v for k, v in coeffs.items()}, -c, False
    return dict(coeffs), c, move == "m"


def _player_rows(g: _Game, box: list[tuple[Fraction, Fraction]], st: _State, pc: dict[int, str],
                 bc: dict[int, str]) -> dict[str, _Row]:
    """Player's best-reply conditions in one case, in Banker's undecided draws x_i in [0, 1]."""
    xs = [i for i in st.open_ if bc.get(i, "m") == "m"]
    rows: dict[str, _Row] = {}
    for i in xs:
        rows[f"x{i}>=0"] = ({f"x{i}": F1}, F0, False)
        rows[f"x{i}<=1"] = ({f"x{i}": -F1}, F1, False)
    for j in range(5):
        c = Fraction(st.pconst[j] - sum(g.G[i][j + 1] for i in st.open_ if bc.get(i) == "1"))
        rows[f"pi{j}"] = _row({f"x{i}": Fraction(-g.G[i][j + 1]) for i in xs}, c, _move(box, j, pc))
    return rows


def _banker_rows(g: _Game, box: list[tuple[Fraction, Fraction]], a: Fraction, b: Fraction, st: _State,
                 pc: dict[int, str], bc: dict[int, str]) -> dict[str, _Row]:
    """Banker's best-reply conditions in one case, in (y, alpha, w), w_j standing for alpha y_j and held by
    the four products of bound slacks (alpha - a)(y_j - lo) >= 0 and so on."""
    held = {}
    for j in range(5):
        mv = _move(box, j, pc)
        if box[j][0] == box[j][1]:
            held[j] = box[j][0]
        elif mv != "m":
            held[j] = F1 if mv == "1" else F0
    ys = [j for j in range(5) if j not in held]
    rows: dict[str, _Row] = {"a>=": ({"a": F1}, -a, False), "a<=": ({"a": -F1}, b, False)}
    for j in ys:
        lo, hi = box[j]
        y, w = f"y{j}", f"w{j}"
        rows[f"{y}>="] = ({y: F1}, -lo, False)
        rows[f"{y}<="] = ({y: -F1}, hi, False)
        rows[f"mc{j}.1"] = ({w: F1, y: -a, "a": -lo}, a * lo, False)   # (alpha - a)(y - lo)
        rows[f"mc{j}.2"] = ({w: F1, y: -b, "a": -hi}, b * hi, False)   # (b - alpha)(hi - y)
        rows[f"mc{j}.3"] = ({w: -F1, y: b, "a": lo}, -b * lo, False)   # (b - alpha)(y - lo)
        rows[f"mc{j}.4"] = ({w: -F1, y: a, "a": hi}, -a * hi, False)   # (alpha - a)(hi - y)
    for i, mv in bc.items():
        gi, hi_ = g.G[i], g.H[i]
        coeffs = {"a": -(hi_[0] + sum((hi_[j + 1] * v for j, v in held.items()), F0))}
        for j in ys:
            coeffs[f"y{j}"] = Fraction(gi[j + 1])
            coeffs[f"w{j}"] = Fraction(-hi_[j + 1])
        rows[f"beta{i}"] = _row(coeffs, gi[0] + sum((gi[j + 1] * v for j, v in held.items()), F0), mv)
    return rows


def _certified(rows: dict[str, _Row], mult: dict[str, Fraction]) -> bool:
    """Farkas: nonnegative multipliers on the inequalities (any on the equations) combining the rows to
    0 . z + (a negative constant), so no z satisfies them all."""
    total: dict[str, Fraction] = {}
    const = F0
    for label, lam in mult.items():
        if label not in rows:
            return False
        coeffs, c, eq = rows[label]
        if lam < 0 and not eq:
            return False
        for v, t in coeffs.items():
            total[v] = total.get(v, F0) + lam * t
        const += lam * c
    return const < 0 and all(t == 0 for t in total.values())


def _check_cases(g: _Game, node: dict, box: list[tuple[Fraction, Fraction]], a: Fraction, b: Fraction,
                 st: _State) -> str:
    """Re-check a node excluded by cases; the empty string when it holds, else why not.

    Every way an equilibrium could sit in the node (Player's open compositions drawn, stood or mixed;
    Banker's open sets likewise) must fall under a closed partial assignment of Banker's sets (in the
    node's order of open sets), whose Player's or Banker's conditions a Farkas certificate refutes.
    """
    free = [j for j in range(5) if box[j][0] < box[j][1]]
    opts = [[s for s, ok in (("1", box[j][1] == 1), ("0", box[j][0] == 0), ("m", True)) if ok] for j in free]
    recs = {r["player"]: {c["banker"]: c for c in r["closed"]} for r in node.get("cases", [])}
    for combo in product(*opts):
        closed = recs.get("".join(combo))
        if closed is None:
            return f"Player's case {''.join(combo)} is not analysed"
        pc = dict(zip(free, combo))
        stack = [""]
        while stack:
            pre = stack.pop()
            if pre in closed:
                c = closed[pre]
                bc = dict(zip(st.open_, pre))
                rows = (_player_rows(g, box, st, pc, bc) if c["part"] == "x"
                        else _banker_rows(g, box, a, b, st, pc, bc))
                if not _certified(rows, {k: _q(v) for k, v in c["certificate"].items()}):
                    return f"case {''.join(combo)}/{pre or '-'}: the certificate does not refute it"
            elif len(pre) >= len(st.open_):
                return f"case {''.join(combo)}/{pre}: not refuted"
            else:
                stack.extend(pre + s for s in "10m")
    return ""


def _walk(g: _Game, node: dict, box: list[tuple[Fraction, Fraction]], a: Fraction, b: Fraction,
          st: _State, faces: set[str], bad: list[str]) -> int:
    """Re-check one node and its subtree; returns the nodes checked; failures appended to ``bad``."""
    where = f"y in {[[str(u), str(v)] for u, v in box]}, alpha in [{a}, {b}]"
    if [[_q(u), _q(v)] for u, v in node["box"]] != [[u, v] for u, v in box] or \
            [_q(node["alpha"][0]), _q(node["alpha"][1])] != [a, b]:
        bad.append(f"node at {where}: its box is not the one its parent's split gives")
        return 1
    r = _propagate(g, box, a, b, st)
    status = node["status"]
    if r is None:
        if status != "excluded":
            bad.append(f"node at {where}: excluded here, claimed {status}")
        return 1
    if status == "excluded":
        bad.append(f"node at {where}: claimed excluded, dominance does not exclude it")
        return 1
    box2, st2 = r
    fixed2 = st2.fixed
    claimed_fixed = {int(i): int(v) for i, v in node.get("banker_fixed", [])}
    if any(fixed2.get(i) != v for i, v in claimed_fixed.items()):
        bad.append(f"node at {where}: a claimed Banker fixing does not follow")
    if [[_q(u), _q(v)] for u, v in node["player_box"]] != [[u, v] for u, v in box2]:
        bad.append(f"node at {where}: Player's reduced box differs")
        return 1
    free = [j for j in range(5) if box2[j][0] < box2[j][1]]
    if status == "face":
        key = "".join("*" if lo < hi else ("D" if lo == 1 else "S") for lo, hi in box2)
        if "*" not in key:
            key = key[:1] + "*" + key[2:]
        if len(free) > 1 or node["face"] != key:
            bad.append(f"node at {where}: not the claimed face {node['face']}")
        faces.add(key)
        return 1
    if status == "excluded-cases":
        why = _check_cases(g, node, box2, a, b, st2)
        if why:
            bad.append(f"node at {where}: {why}")
        return 1
    kids = node["children"]
    if status == "relation":
        j, k, c = int(node["relation"]["j"]), int(node["relation"]["k"]), _q(node["relation"]["c"])
        if j not in free or k not in free or c == 0 or _pi_range(g, j, st2.pconst, st2.open_, k, c)[0] <= 0:
            bad.append(f"node at {where}: relation pi_{j} - {c} pi_{k} > 0 does not hold")
            return 1
        parts = [(k, F0), (j, F1)] if c > 0 else [(j, F1), (k, F1)]
        boxes = []
        for t, v in parts:
            nb = list(box2)
            nb[t] = (v, v)
            boxes.append((nb, a, b))
    elif status == "split-y":
        j, m = int(node["split"]["j"]), _q(node["split"]["at"])
        if not box2[j][0] < m < box2[j][1]:
            bad.append(f"node at {where}: split point outside the interval")
            return 1
        boxes = []
        for part in ((box2[j][0], m), (m, box2[j][1])):
            nb = list(box2)
            nb[j] = part
            boxes.append((nb, a, b))
    elif status == "split-alpha":
        m = _q(node["split"]["at"])
        if not a < m < b:
            bad.append(f"node at {where}: split point outside the alpha-interval")
            return 1
        boxes = [(box2, a, m), (box2, m, b)]
    else:
        bad.append(f"node at {where}: unknown status {status!r}")
        return 1
    if len(kids) != 2:
        bad.append(f"node at {where}: a split needs two children")
        return 1
    return 1 + sum(_walk(g, kid, nb, na, nbb, st2, faces, bad) for kid, (nb, na, nbb) in zip(kids, boxes))


def _tree_counts(root: dict) -> dict[str, int]:
    """The case tree's nodes, exclusions (by dominance or by cases), face leaves and case analyses."""
    out = {"nodes": 0, "excluded": 0, "faces": 0, "cases": 0}
    stack = [root]
    while stack:
        node = stack.pop()
        out["nodes"] += 1
        st = node["status"]
        out["excluded"] += st in ("excluded", "excluded-cases")
        out["cases"] += st == "excluded-cases"
        out["faces"] += st == "face"
        stack.extend(node.get("children", []))
    return out


def _player(face: str, free_value: Fraction) -> list[Fraction]:
    return [free_value if ch == "*" else (F1 if ch == "D" else F0) for ch in face]


Poly = tuple[Fraction, ...]  # (c0, c1, c2): c0 + c1 alpha + c2 alpha^2


def _pmul(a: tuple[Fraction, Fraction], b: tuple[Fraction, Fraction]) -> Poly:
    return (a[0] * b[0], a[0] * b[1] + a[1] * b[0], a[1] * b[1])


def _eval(p: Poly, t: Fraction) -> Fraction:
    return p[0] + t * (p[1] + t * p[2])


def _sgn(v: Fraction) -> int:
    return (v > 0) - (v < 0)


def signs_on(p: Poly, lo: Alpha, hi: Alpha) -> set[int]:
    """The signs a polynomial of degree <= 2 takes on the open interval (lo, hi), lo < hi, exactly.

    Its real roots are computed exactly (rational, or (u + v sqrt D) / w) and compared exactly with
    the ends; between consecutive roots inside (and the ends) it has one sign, read at a rational
    point there.  No sample stands for the interval: every point of it is covered.

    Parameters
    ----------
    p : tuple of Fraction
        (c0, c1, c2): c0 + c1 alpha + c2 alpha^2.
    lo, hi : Alpha
        The interval's ends.

    Returns
    -------
    set of int
        {0} for the zero polynomial; else the signs (-1, 0, 1) taken somewhere inside.
    """
    if not any(p):
        return {0}
    den = 1
    for c in p:
        den = den * c.denominator // gcd(den, c.denominator)
    k0, k1, k2 = (int(c * den) for c in p)
    inside = {r.key(): r for r in _roots(k2, k1, k0) if lo.cmp(r) < 0 < hi.cmp(r)} if (k1 or k2) else {}
    cuts = [lo, *_ascending(inside.values()), hi]
    out = {0} if inside else set()
    for a, b in zip(cuts, cuts[1:]):
        out.add(_sgn(_eval(p, between(a, b))))
    return out


def _sample_inside(sample: object, lo: Alpha, hi: Alpha) -> bool:
    """Whether an interval's listed sample is a rational strictly inside it.

    No step of the proof reads the sample (every point of the interval is covered), but a field that
    contradicts the claim is a defect of the artefact, display fields included.
    """
    if not isinstance(sample, str) or len(sample) > 200:
        return False
    try:
        t = _q(sample)
    except (ValueError, ZeroDivisionError):
        return False
    a = Alpha.of(t)
    return lo.cmp(a) < 0 < hi.cmp(a)


def _display_ok(r: dict, a: Alpha) -> bool:
    """Whether an alpha's display ``float`` is its exact value, rounded (within one unit in the last place)."""
    f = r.get("float")
    if not isinstance(f, (int, float)) or isinstance(f, bool):
        return False
    b0, b1 = a.bounds(80)
    v = float((b0 + b1) / 2)
    return abs(float(f) - v) <= ulp(v)


class _Piece:
    """One face interval's claim, parsed: Player's free probability N(alpha) / Dn(alpha), Banker's x."""

    def __init__(self, key: str, iv: dict, n: int):
        self.key, self.iv = key, iv
        self.lo, self.hi = alpha_from_json(iv["alpha_from"]), alpha_from_json(iv["alpha_to"])
        self.x = [_q(v) for v in iv["banker"]]
        pf = iv["player_free"]
        if "pure" in pf:
            u = int(pf["pure"])
            if u not in (0, 1):
                raise ValueError(f"face {key}, interval {n + 1}: a pure move must be 0 or 1, got {u}")
            self.N, self.Dn = (Fraction(u), F0), (F1, F0)
        else:
            n0, n1, d0, d1 = (int(t) for t in pf["formula"])
            self.N, self.Dn = (Fraction(n0), Fraction(n1)), (Fraction(d0), Fraction(d1))
        self.full = iv["full_game"]
        if not isinstance(self.full, bool):
            raise ValueError(f"face {key}, interval {n + 1}: full_game must be true or false")

    def p_at(self, t: Fraction) -> Fraction:
        return (self.N[0] + self.N[1] * t) / (self.Dn[0] + self.Dn[1] * t)

    def player_json(self) -> dict:
        pf = self.iv["player_free"]
        if "pure" in pf:
            return {"face": self.key, "free": {"pure": int(pf["pure"])}}
        n0, n1, d0, d1 = (int(t) for t in pf["formula"])
        return {"face": self.key, "free": {"formula": [n0, n1, d0, d1],
                                           "means": f"({n0} + {n1} alpha) / ({d0} + {d1} alpha)"}}


def _verify_piece(g: _Game, face: Face, pc: _Piece) -> str:
    """Verify one face interval's claim for every alpha in it (ends included); the empty string when it
    holds, else why not.

    Player's gains pi_j(x) are free of alpha, so his side is one exact check.  Banker's gain at set i,
    times Dn(alpha), is B_i(alpha) = (Dn - N) g_i^0(alpha) + N g_i^1(alpha), a polynomial of degree <= 2;
    its signs over the open interval are decided by :func:`signs_on`, and the ends follow by continuity
    (Dn has no root on the closed interval).  A claimed equilibrium of the full game must satisfy every
    condition; a claimed non-equilibrium must be the face's equilibrium (the free composition and
    Banker) and violate one of Player's four fixed moves.
    """
    lo, hi = pc.lo, pc.hi
    if len(pc.x) != g.n or any(not 0 <= v <= 1 for v in pc.x):
        return f"Banker's strategy needs {g.n} probabilities in [0, 1]"
    dn = (pc.Dn[0], pc.Dn[1], F0)
    if not any(dn):
        return "Player's probability has a zero denominator"
    if pc.Dn[1]:
        root = Alpha.of(-pc.Dn[0] / pc.Dn[1])
        if lo.cmp(root) <= 0 <= hi.cmp(root):
            return "Player's probability has a pole in the closed interval"
    s = _sgn(_eval(dn, between(lo, hi)))
    num = (pc.N[0], pc.N[1], F0)
    rest = (pc.Dn[0] - pc.N[0], pc.Dn[1] - pc.N[1], F0)
    if -1 in signs_on(tuple(s * c for c in num), lo, hi) or -1 in signs_on(tuple(s * c for c in rest), lo, hi):
        return "Player's probability leaves [0, 1] inside the interval"
    f = face.free
    pi = [g.pi(j, pc.x) for j in range(5)]
    if (pi[f] > 0 and any(rest)) or (pi[f] < 0 and any(num)):
        return f"Player's gain at his free composition is {'positive' if pi[f] > 0 else 'negative'}, yet he " \
               "does not play the forced move there throughout"
    for i in range(g.n):
        (c0, c1), (h0, h1) = face.c[i], face.h[i]
        b = tuple(u + v for u, v in zip(_pmul((rest[0], rest[1]), (Fraction(c0), Fraction(-h0))),
                                         _pmul((num[0], num[1]), (Fraction(c1), Fraction(-h1)))))
        sg = {s * t for t in signs_on(b, lo, hi)}
        xi = pc.x[i]
        if (xi == 1 and -1 in sg) or (xi == 0 and 1 in sg) or (0 < xi < 1 and sg != {0}):
            return f"Banker's move at set {i} is not a best reply somewhere inside the interval"
    fixed_ok = all((pi[j] >= 0) if face.y[j] else (pi[j] <= 0) for j in range(5) if j != f)
    if pc.full and not fixed_ok:
        return "one of Player's fixed moves is not a best reply"
    if not pc.full and fixed_ok:
        return "claimed not an equilibrium of the full game, yet every fixed move of Player's is a best reply"
    return ""


def _check_face(g: _Game, f: dict, lo: Fraction, hi: Fraction, face: Face,
                pieces: list[_Piece]) -> list[Step]:
    """Re-check one face's intervals over their whole domain (module docstring, step 3)."""
    steps = []
    key = f["face"]
    crit = {a.key() for a in face.critical(lo, hi)[0]}
    ivs = f["intervals"]
    tile = []
    if not ivs:
        tile.append("no interval")
    else:
        if pieces[0].lo.key() != Alpha.of(lo).key():
            tile.append(f"the first interval starts at {pieces[0].lo.json()['float']:.9f}, not at {lo}")
        if pieces[-1].hi.key() != Alpha.of(hi).key():
            tile.append(f"the last interval ends at {pieces[-1].hi.json()['float']:.9f}, not at {hi}")
    if f.get("free") != key.index("*"):
        tile.append(f"the face's free composition is {key.index('*')}, not {f.get('free')!r}")
    for n, pc in enumerate(pieces):
        if pc.lo.cmp(pc.hi) >= 0:
            tile.append(f"interval {n + 1} is empty or reversed")
        for end, name in ((pc.lo, "alpha_from"), (pc.hi, "alpha_to")):
            if end.key() not in crit:
                tile.append(f"interval {n + 1}'s end {end.json()['float']:.12f} is not a critical alpha of the face")
            if not _display_ok(pc.iv[name], end):
                tile.append(f"interval {n + 1}'s {name} float is not its exact value")
        if "sample" in pc.iv and not _sample_inside(pc.iv["sample"], pc.lo, pc.hi):
            tile.append(f"interval {n + 1}'s sample {str(pc.iv['sample'])[:40]!r} is not a rational inside it")
    for n, (u, v) in enumerate(zip(pieces, pieces[1:])):
        if u.hi.key() != v.lo.key():
            tile.append(f"intervals {n + 1} and {n + 2} do not meet")
    steps.append(Step(f"face {key}: intervals tile the range", not tile,
                      f"{len(ivs)} intervals, consecutive, meeting exactly, every end one of the face's "
                      f"{len(crit)} re-derived critical alphas" if not tile else "; ".join(tile[:3])))
    if tile:
        return steps
    for n, pc in enumerate(pieces):
        why = _verify_piece(g, face, pc)
        name = f"face {key}, interval {n + 1} [{pc.lo.json()['float']:.6f}, {pc.hi.json()['float']:.6f}]"
        steps.append(Step(name, not why, why or (
            "an equilibrium of the full game for every alpha in it: Player's gains exact, Banker's "
            "as polynomials in alpha signed by exact roots" if pc.full else
            "the face's equilibrium for every alpha in it, and no equilibrium of the full game (a fixed "
            "move of Player's is not a best reply)")))
    return steps


def _check_critical(doc: dict, an: dict) -> list[Step]:
    """Re-derive every critical alpha and re-enumerate every equilibrium there and between (module docstring)."""
    steps = []
    listed = doc["critical"]
    mine = an["points"]
    theirs = [alpha_from_json(c["alpha"]) for c in listed]
    same = [a.key() for a in mine] == [a.key() for a in theirs]
    shown = same and all(_display_ok(c["alpha"], a) for a, c in zip(mine, listed))
    steps.append(Step("critical alphas", shown, f"{len(mine)} re-derived (the ends, the roots of every gain, the "
                      f"curves' crossings); they match the artefact's one to one, display floats included"
                      if shown else f"re-derived {len(mine)}, the artefact lists {len(theirs)}; they differ"
                      if not same else "an alpha's display float is not its exact value"))
    for f in doc["faces"]:
        if f["face"] not in an["crossings"]:
            continue
        a = {c.key() for c in an["crossings"][f["face"]]}
        b = {alpha_from_json(pt["alpha"]).key() for pt in f["points"]}
        steps.append(Step(f"face {f['face']}: curve crossings", a == b,
                          f"{len(a)} re-derived, matching the artefact's" if a == b else
                          f"re-derived {len(a)}, listed {len(b)}; they differ"))
    if not same:
        return steps
    for a, c, (enum, cont) in zip(mine, listed, an["point_equilibria"]):
        claimed = []
        for e in c["equilibria"]:
            y = tuple((_q(p["r"]), _q(p["s"]), int(p["d"]) if _q(p["s"]) else 1) for p in e["player"])
            claimed.append((y, tuple(_q(v) for v in e["banker"])))
        enum_n = [(tuple((p[0], p[1], p[2] if p[1] else 1) for p in y), x) for y, x in enum]
        certified = all(any(_same_eq(u, v) for v in enum_n) for u in claimed)
        complete = len(claimed) == len(enum_n) and all(any(_same_eq(u, v) for u in claimed) for v in enum_n)
        ok = certified and complete and bool(c["continuum"]) == cont
        steps.append(Step(f"critical alpha {a.json()['float']:.9f}", ok,
                          f"{len(enum_n)} extreme equilibria{' and a continuum' if cont else ''}: each listed one "
                          "certified by exact best responses in Q(sqrt D), and the list complete" if ok else
                          f"listed {len(claimed)}, re-enumerated {len(enum_n)}; certified: {certified}, "
                          f"complete: {complete}"))
    bad = [r for r in an["regions"] if r[3] != 1 or r[4]]
    steps.append(Step("between critical alphas", not bad,
                      f"{len(an['regions'])} open intervals, each with exactly one equilibrium at a rational sample "
                      "(and so throughout: no gain changes sign and no two curves cross inside)" if not bad else
                      f"alpha = {bad[0][2]}: {bad[0][3]} extreme equilibria"))
    ex_mine = [a.key() for a, c in zip(mine, listed) if len(c["equilibria"]) > 1 or c["continuum"]]
    ex_theirs = [alpha_from_json(e["alpha"]).key() for e in doc["exceptional"]]
    same_entries = doc["exceptional"] == [c for c in listed if len(c["equilibria"]) > 1 or c["continuum"]]
    steps.append(Step("exceptional alphas", ex_mine == ex_theirs and same_entries,
                      f"{len(ex_mine)}: the critical alphas with several equilibria, as the artefact states"
                      if ex_mine == ex_theirs else "the artefact's list differs from the re-derived one"))
    return steps


def _same_eq(u: tuple, v: tuple) -> bool:
    (yu, xu), (yv, xv) = u, v
    return xu == xv and all(a[0] == b[0] and (a[1] > 0) == (b[1] > 0) and (a[1] < 0) == (b[1] < 0)
                            and a[1] * a[1] * a[2] == b[1] * b[1] * b[2] for a, b in zip(yu, yv))


#: Most decks a chemin artefact may name (the prove command's limit).
MAX_DECKS = 1000


def _decks(v: Any) -> int | None:
    if v == "inf":
        return None
    if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= MAX_DECKS:
        raise ValueError(f"decks must be a whole number 1 to {MAX_DECKS} or \"inf\", got {v!r}")
    return v


def statement(decks: int | str | None, lo: Fraction, hi: Fraction, exceptions: list[dict], faces: list[str],
              weights: list[int] | None, groups: int) -> str:
    """The theorem in one sentence, from what was verified (the prover writes the same sentence).

    Parameters
    ----------
    decks : int or str
        d, or ``"inf"``.
    lo, hi : Fraction
        The commission range.
    exceptions : list of dict
        ``{"alpha", "equilibria", "continuum"}`` (``alpha`` as :meth:`Alpha.json`), ascending.
    faces : list of str
        The faces carrying the equilibrium on some interval.
    weights : list of int or None
        Player's composition weights, when they are alike (the infinite shoe).
    groups : int
        With ``weights``: how many groups Banker's alike sets form.

    Returns
    -------
    str
        The sentence.
    """
    where = ", ".join(f"{e['alpha']['float']:.6f} ({e['equilibria']} extreme equilibria"
                      f"{', and a continuum' if e['continuum'] else ''})" for e in exceptions)
    where = f"except at {where}" if exceptions else "with no exception"
    if weights is not None:
        w = weights
        p = " + ".join(f"{c} y{j + 1}" if c != 1 else f"y{j + 1}" for j, c in enumerate(w))
        return (f"Model B3, d = {decks}: Player's compositions of 5 carry no "
                f"information (the coefficient column of composition j is w_j times a common one, "
                f"w = ({', '.join(map(str, w))})), so his strategies y with the same "
                f"p = ({p}) / {sum(w)} are equivalent; for every alpha in [{lo}, {hi}] the "
                f"Nash equilibrium is unique up to this equivalence (p and Banker's merged strategy are unique, "
                f"y is any split of p; Banker's alike sets, {groups} groups, merged the same way) "
                f"{where}")
    return (f"Model B3, d = {decks}: for every alpha in [{lo}, {hi}] "
            f"the Nash equilibrium is unique {where}; Player is on the face(s) {', '.join(faces)}")


def _cover(an: dict, pieces: list[_Piece]) -> Step:
    """Each open region between consecutive critical alphas lies in a verified full-game interval whose
    equilibrium is the one enumerated there."""
    bad = []
    full = [pc for pc in pieces if pc.full]
    for (a, b, smp, _, _), eqs in zip(an["regions"], an["region_equilibria"]):
        hit = [pc for pc in full if pc.lo.cmp(a) <= 0 <= pc.hi.cmp(b)]
        same = []
        for pc in hit:
            y = tuple((v, F0, 1) for v in _player(pc.key, pc.p_at(smp)))
            same.append(len(eqs) == 1 and eqs[0] == (y, tuple(pc.x)))
        if not hit or not all(same):
            bad.append(f"({a.json()['float']:.9f}, {b.json()['float']:.9f})")
    return Step("equilibrium between critical alphas", not bad,
                f"each of the {len(an['regions'])} open intervals lies in a face interval verified above, "
                "whose equilibrium is the one enumerated there" if not bad else
                f"not covered by a verified interval with the enumerated equilibrium: {', '.join(bad[:3])}")


def verify(doc: dict, quick: bool = False, workers: Workers = HERE) -> tuple[list[Step], dict | None]:
    """Re-check a ``chemin-b3-uniqueness`` artefact and derive the theorem it proves (module docstring).

    Parameters
    ----------
    doc : dict
        The artefact, as loaded from JSON.
    quick : bool
        Accepted for a common signature; every step here is short, so none is skipped.
    workers : Workers
        Accepted for a common signature (one process suffices).

    Returns
    -------
    (list of Step, dict or None)
        Every claim re-checked, in order; and the theorem derived from them (the ``verified``
        object of ``baccara check --json``), None when a step fails.
    """
    steps: list[Step] = []
    if doc.get("version") not in READS or doc.get("model") != "B3":
        return [Step("artefact version", False, f"this checker reads versions {READS}, model B3")], None
    decks = _decks(doc["decks"])
    mine = model3_coefficients(decks)
    theirs = doc["coefficients"]
    same = all(mine[k] == theirs[k] for k in ("keys", "G", "H", "base_sgn", "base_win", "deals"))
    steps.append(Step("coefficients", same, "re-derived by a plain count of the deals; " +
                      ("they match the artefact's" if same else "they differ from the artefact's")))
    w = equivalent_columns(mine["G"], mine["H"], mine["base_sgn"], mine["base_win"])
    eqv = doc.get("equivalence")
    root = [(F0, F1)] * 5
    groups = 0
    if w is None:
        if eqv is not None:
            steps.append(Step("equivalence", False, "the artefact merges Player's compositions of 5, but their "
                              "re-derived coefficient columns are not positive multiples of one"))
            return steps, None
    else:
        merged = merged_coefficients(mine)
        groups = len(merged["groups"])
        ok = isinstance(eqv, dict) and eqv.get("weights") == w and eqv.get("banker_groups") == merged["groups"]
        steps.append(Step("equivalence", ok, f"Player's five coefficient columns are {w} times one common column "
                          f"(re-derived), so only p = sum w_j y_j / {sum(w)} matters; Banker's "
                          f"{len(mine['G'])} sets fall into {len(merged['groups'])} groups of alike rows; both "
                          "merged, as the artefact states" if ok else
                          "the artefact's weights or Banker groups differ from the re-derived ones (or are missing)"))
        if not ok:
            return steps, None
        mine = {**mine, **merged}
        root = [(F0, F1)] + [(F0, F0)] * 4
    g = _Game(mine)
    lo, hi = _q(doc["range"][0]), _q(doc["range"][1])
    if not (len(doc["range"]) == 2 and 0 <= lo < hi < 1):
        return steps + [Step("range", False, f"the range must be [lo, hi] with 0 <= lo < hi < 1, got {doc['range']}")], None
    faces: set[str] = set()
    bad: list[str] = []
    root_state = _State({}, list(range(g.n)), [-g.S[j + 1] for j in range(5)])
    count = _walk(g, doc["tree"], root, lo, hi, root_state, faces, bad)
    steps.append(Step("case tree", not bad, f"{count} nodes re-checked; every equilibrium lies over "
                      f"the face(s) {', '.join(sorted(faces))}" if not bad else "; ".join(bad[:5])))
    if "stats" in doc:
        mine_stats = _tree_counts(doc["tree"])
        ok = {k: doc["stats"].get(k, 0) for k in ("nodes", "excluded", "faces", "cases")} == mine_stats
        steps.append(Step("tree counts", ok, f"the artefact's counts are the tree's: {mine_stats}" if ok else
                          f"the artefact's counts {doc['stats']} are not the tree's {mine_stats}"))
    listed = {f["face"]: f for f in doc["faces"]}
    missing = sorted(faces - set(listed))
    steps.append(Step("faces listed", not missing, "every face a leaf reaches is swept" if not missing
                      else f"missing: {', '.join(missing)}"))
    pieces: list[_Piece] = []
    for key in sorted(faces & set(listed)):
        mine_pc = [_Piece(key, iv, n) for n, iv in enumerate(listed[key]["intervals"])]
        steps += _check_face(g, listed[key], lo, hi, Face(mine["G"], mine["H"], mine["base_sgn"], key), mine_pc)
        pieces += mine_pc
    keys = sorted(faces)
    an = analyse(mine["G"], mine["H"], mine["base_sgn"], keys, lo, hi)
    steps += _check_critical(doc, an)
    steps.append(_cover(an, pieces))
    used = [pc for pc in pieces if pc.full]
    exceptions = [{"alpha": a.json(), "equilibria": len(c["equilibria"]), "continuum": bool(c["continuum"])}
                  for a, c in zip(an["points"], an["critical"]) if len(c["equilibria"]) > 1 or c["continuum"]]
    unique_faces = sorted({pc.key for pc in used})
    said = statement(doc["decks"], lo, hi, exceptions, unique_faces, w, groups)
    ok = doc.get("statement") == said
    steps.append(Step("statement", ok, "the artefact's statement is the theorem derived from the steps above"
                      if ok else f"the artefact's statement differs from the derived one: {said}"))
    if not all(st.ok for st in steps):
        return steps, None
    verified = {
        "kind": "chemin-b3-uniqueness", "game": "chemin de fer", "model": "B3", "decks": doc["decks"],
        "parameter": "alpha (the commission)", "range": [str(lo), str(hi)],
        "claim": ("the Nash equilibrium is unique for every alpha in the range but the exceptions"
                  + (" (up to the equivalence of Player's compositions of 5)" if w is not None else "")),
        **({"equivalence": {"weights": w, "banker_groups": groups}} if w is not None else {}),
        "equilibria": [{"alpha_from": pc.lo.json(), "alpha_to": pc.hi.json(), "player": pc.player_json(),
                        "banker": [f"{v.numerator}/{v.denominator}" for v in pc.x]} for pc in used],
        "exceptions": exceptions, "statement": said,
    }
    return steps, verified


def check(doc: dict, quick: bool = False, workers: Workers = HERE) -> list[Step]:
    """Re-check a ``chemin-b3-uniqueness`` artefact (see :func:`verify`).

    Parameters
    ----------
    doc : dict
        The artefact, as loaded from JSON.
    quick, workers
        As in :func:`verify`.

    Returns
    -------
    list of Step
        Every claim re-checked, in order.
    """
    return verify(doc, quick, workers)[0]
