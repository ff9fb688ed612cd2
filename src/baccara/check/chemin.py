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
3. for every face a leaf reaches, the listed equilibria: the intervals cover
   the range in order, each sample lies strictly inside its interval, and at
   each sample the claimed equilibrium is certified (or refuted, when it is
   claimed not to be one) by an exact best-response check in the full game,
   written here; at every rational critical alpha each listed equilibrium is
   certified the same way.

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

from fractions import Fraction
from itertools import product
from math import gcd, isqrt
from typing import Any

from . import Step
from .chemin_deals import model3_coefficients
from .chemin_points import Face, alpha_from_json, analyse, equivalent_columns, merged_coefficients, union_at

F0, F1 = Fraction(0), Fraction(1)
VERSION = 3
#: Earlier versions this checker still reads (version 2 has no case analyses).
READS = (2, 3)


def _q(s: Any) -> Fraction:
    return Fraction(str(s))


def _real_bounds(r: dict, bits: int = 80) -> tuple[Fraction, Fraction]:
    """Rational bounds on r + s sqrt(d) (exact when s = 0)."""
    rr, ss, dd = _q(r["r"]), _q(r["s"]), int(r["d"])
    if ss == 0:
        return rr, rr
    scale = 1 << bits
    lo = Fraction(isqrt(dd * scale * scale), scale)
    a, b = rr + ss * lo, rr + ss * (lo + Fraction(1, scale))
    return (a, b) if a <= b else (b, a)


def _real_eq(u: dict, v: dict) -> bool:
    return (_q(u["r"]), _q(u["s"]), int(u["d"]) if _q(u["s"]) else 1) == \
           (_q(v["r"]), _q(v["s"]), int(v["d"]) if _q(v["s"]) else 1)


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


def _player(face: str, free_value: Fraction) -> list[Fraction]:
    return [free_value if ch == "*" else (F1 if ch == "D" else F0) for ch in face]


def _check_face(g: _Game, f: dict, lo: Fraction, hi: Fraction) -> list[Step]:
    steps = []
    key = f["face"]
    ivs = f["intervals"]
    # the intervals tile [lo, hi] in order
    ok = bool(ivs) and _real_bounds(ivs[0]["alpha_from"]) == (lo, lo) and _real_bounds(ivs[-1]["alpha_to"]) == (hi, hi)
    ok = ok and all(_real_eq(u["alpha_to"], v["alpha_from"]) for u, v in zip(ivs, ivs[1:]))
    steps.append(Step(f"face {key}: intervals tile the range", ok, f"{len(ivs)} intervals"))
    for n, iv in enumerate(ivs):
        s = _q(iv["sample"])
        l0, l1 = _real_bounds(iv["alpha_from"])
        h0, h1 = _real_bounds(iv["alpha_to"])
        inside = l1 < s < h0 or (l0 == l1 == s == lo and h0 > s)
        x = [_q(v) for v in iv["banker"]]
        pf = iv["player_free"]
        if "pure" in pf:
            p = Fraction(int(pf["pure"]))
        else:
            n0, n1, d0, d1 = (int(t) for t in pf["formula"])
            p = Fraction(n0 * s.denominator + n1 * s.numerator, d0 * s.denominator + d1 * s.numerator)
        eq = len(x) == g.n and 0 <= p <= 1 and g.is_equilibrium(_player(key, p), x, s)
        name = f"face {key}, interval {n + 1} at alpha = {s}"
        if iv["full_game"]:
            steps.append(Step(name, inside and eq, "sample inside; equilibrium certified by exact best responses"
                              if inside and eq else f"sample inside: {inside}; certified: {eq}"))
        else:
            steps.append(Step(name, inside and not eq, "sample inside; claimed non-equilibrium refuted exactly"
                              if inside and not eq else f"sample inside: {inside}; is an equilibrium: {eq}"))
    return steps


def _check_critical(g: _Game, co: dict, doc: dict, keys: list[str], lo: Fraction, hi: Fraction) -> list[Step]:
    """Re-derive every critical alpha and re-enumerate every equilibrium there and between (module docstring)."""
    steps = []
    an = analyse(co["G"], co["H"], co["base_sgn"], keys, lo, hi)
    listed = doc["critical"]
    mine = an["points"]
    theirs = [alpha_from_json(c["alpha"]) for c in listed]
    same = [a.key() for a in mine] == [a.key() for a in theirs]
    steps.append(Step("critical alphas", same, f"{len(mine)} re-derived (the ends, the roots of every gain, the "
                      f"curves' crossings); they match the artefact's one to one" if same else
                      f"re-derived {len(mine)}, the artefact lists {len(theirs)}; they differ"))
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
    for a, c in zip(mine, listed):
        enum, cont = union_at([Face(co["G"], co["H"], co["base_sgn"], k) for k in keys], a)
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
    steps.append(Step("exceptional alphas", ex_mine == ex_theirs,
                      f"{len(ex_mine)}: the critical alphas with several equilibria, as the artefact states"
                      if ex_mine == ex_theirs else "the artefact's list differs from the re-derived one"))
    return steps


def _same_eq(u: tuple, v: tuple) -> bool:
    (yu, xu), (yv, xv) = u, v
    return xu == xv and all(a[0] == b[0] and (a[1] > 0) == (b[1] > 0) and (a[1] < 0) == (b[1] < 0)
                            and a[1] * a[1] * a[2] == b[1] * b[1] * b[2] for a, b in zip(yu, yv))


def check(doc: dict, quick: bool = False, workers: int = 1) -> list[Step]:
    """Re-check a ``chemin-b3-uniqueness`` artefact (see the module docstring).

    Parameters
    ----------
    doc : dict
        The artefact, as loaded from JSON.
    quick : bool
        Accepted for a common signature; every step here is short, so none is skipped.
    workers : int
        Accepted for a common signature (one process suffices).

    Returns
    -------
    list of Step
        Every claim re-checked, in order.
    """
    steps: list[Step] = []
    if doc.get("version") not in READS or doc.get("model") != "B3":
        return [Step("artefact version", False, f"this checker reads versions {READS}, model B3")]
    decks = None if doc["decks"] == "inf" else int(doc["decks"])
    mine = model3_coefficients(decks)
    theirs = doc["coefficients"]
    same = all(mine[k] == theirs[k] for k in ("keys", "G", "H", "base_sgn", "base_win", "deals"))
    steps.append(Step("coefficients", same, "re-derived by a plain count of the deals; " +
                      ("they match the artefact's" if same else "they differ from the artefact's")))
    w = equivalent_columns(mine["G"], mine["H"], mine["base_sgn"], mine["base_win"])
    eqv = doc.get("equivalence")
    root = [(F0, F1)] * 5
    if w is None:
        if eqv is not None:
            steps.append(Step("equivalence", False, "the artefact merges Player's compositions of 5, but their "
                              "re-derived coefficient columns are not positive multiples of one"))
            return steps
    else:
        merged = merged_coefficients(mine)
        ok = eqv is not None and eqv.get("weights") == w and eqv.get("banker_groups") == merged["groups"]
        steps.append(Step("equivalence", ok, f"Player's five coefficient columns are {w} times one common column "
                          f"(re-derived), so only p = sum w_j y_j / {sum(w)} matters; Banker's "
                          f"{len(mine['G'])} sets fall into {len(merged['groups'])} groups of alike rows; both "
                          "merged, as the artefact states" if ok else
                          "the artefact's weights or Banker groups differ from the re-derived ones (or are missing)"))
        if not ok:
            return steps
        mine = {**mine, **merged}
        root = [(F0, F1)] + [(F0, F0)] * 4
    g = _Game(mine)
    lo, hi = _q(doc["range"][0]), _q(doc["range"][1])
    faces: set[str] = set()
    bad: list[str] = []
    root_state = _State({}, list(range(g.n)), [-g.S[j + 1] for j in range(5)])
    count = _walk(g, doc["tree"], root, lo, hi, root_state, faces, bad)
    steps.append(Step("case tree", not bad, f"{count} nodes re-checked; every equilibrium lies over "
                      f"the face(s) {', '.join(sorted(faces))}" if not bad else "; ".join(bad[:5])))
    listed = {f["face"]: f for f in doc["faces"]}
    missing = sorted(faces - set(listed))
    steps.append(Step("faces listed", not missing, "every face a leaf reaches is swept" if not missing
                      else f"missing: {', '.join(missing)}"))
    for key in sorted(faces & set(listed)):
        steps += _check_face(g, listed[key], lo, hi)
    steps += _check_critical(g, mine, doc, sorted(faces), lo, hi)
    return steps
