"""A proof over the whole commission range that Model B3's Nash equilibria are as listed.

Chemin de fer under Model B3 (Ethier and Lee 2023, section 4) is bilinear: with
Player's behavioural strategy y over the five compositions of 5 and Banker's x
over his 484 information sets, Banker's gain from drawing at set i is
beta_i(y, alpha) = (G_i(y) - alpha H_i(y)) / D and Player's from drawing at
composition j is pi_j(x) = -(S_j + sum_i x_i G_ij) / D, free of alpha.
:func:`prove_chemin3` proves, for every alpha in [lo, hi] at once, where every
Nash equilibrium lies, in two parts.

1. **A case tree over (y, alpha).**  Each node is a box of Player's cube (an
   interval for each y_j) times an alpha-interval.  At a node, iterated strict
   dominance is exact on the whole box: beta_i is affine in y and in alpha
   separately, so its extremes over the box are at corners (checked at both
   ends of the alpha-interval); a Banker set whose gain is strictly signed is
   fixed, and a Player move whose gain is strictly signed against every Banker
   strategy left is fixed (the node is *excluded* when that move lies outside
   its box).  When nothing more is fixed, the node is split: by a *relation*
   pi_j - c pi_k > 0 for all Banker strategies left (c > 0: an equilibrium has
   y_k = 0 or y_j = 1; c < 0: y_j = 1 or y_k = 1), else by halving Player's
   widest open interval, else by halving the alpha-interval.  A leaf is
   excluded, or a *face*: all of Player's moves but one fixed at 0 or 1.
   At the finest split of Player's box a node may also be *excluded by
   cases*: an equilibrium there draws, stands or mixes at each of Player's
   open compositions and at each of Banker's open sets; Player's conditions
   (pi_j >= 0, <= 0 or = 0) involve Banker's draws x only, Banker's (beta_i)
   involve (y, alpha) only, so a case is refuted when either side has no
   solution, shown by a Farkas certificate (:mod:`baccara.solve.farkas`;
   alpha y_j is bounded by McCormick's inequalities, a relaxation).  Banker's
   sets are taken one at a time, so one certificate refutes every case that
   extends a partial one.  From d = 39 on, nodes near alpha = 0 need it:
   Player's (1,4) at 1 and (7,8) mixing near 0.53 mirror the equilibrium
   (which mixes at (1,4)) closely enough that no split of useful size
   separates them.
2. **The faces.**  On a face Player chooses at one composition only, so the
   game is additive (a 2 x 2^484 game) and its equilibria over [lo, hi] are
   swept exactly (:func:`baccara.solve.sweep.sweep`, Ethier and Lee (2023),
   section 3): every interval and every critical alpha.  An equilibrium of a
   face is one of the full game iff Player's four fixed moves are optimal
   against Banker's strategy, an alpha-free exact check.

Every equilibrium of the full game lies over some leaf, so over a face; the
equilibria are the confirmed ones of the faces.

**The infinite shoe.**  Dealt with replacement, Player's two cards tell him
nothing about the cards to come, so his five compositions of 5 differ only in
how often they are dealt: every coefficient column of composition j (in G, H,
base_sgn and base_win) is w_j times one common column, w = (4, 1, 1, 1, 1)
(:func:`baccara.check.chemin_points.equivalent_columns`).  Player's payoff
and Banker's depend on y only through p = sum_j w_j y_j / sum_j w_j, and
pi_j = w_j pi for one function pi of Banker's strategy, so (y, x) is an
equilibrium iff (p, x) is one of the *merged* game, Player's five columns
summed into one choice (Model A2's additive game in one Player choice).  The
behavioural strategy y is then never unique (every y with the same p does as
well); the proof is of the merged game, whose case tree is the one face
``*SSSS`` (the four dummy moves held at 0), and states uniqueness up to that
equivalence.  The artefact
(:meth:`Chemin3Proof.to_json`) records every node and every face, for
:mod:`baccara.check.chemin` to re-check without the solvers.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from concurrent.futures import as_completed
from dataclasses import dataclass, field, replace
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any, cast

from ..algebraic import QuadraticNumber
from ..algebraic import fraction_str as fstr
from ..check.chemin import statement as check_statement
from ..check.chemin_points import MERGED_FACE, alpha_from_json, analyse, equivalent_columns, merged_coefficients
from ..processes import executor
from ..result import Result
from ..shoe import decks_json
from ..solve.farkas import Row, farkas
from ..solve.sweep import rational_between, sweep
from .model import CheminGame3, chemin_game

#: The artefact's format version (``"version"``); the checker refuses others.
PROOF_VERSION = 3
#: Player's intervals are halved down to this width before the alpha-interval is.
MIN_Y_WIDTH = Fraction(1, 64)
#: The alpha-interval is halved at most this many times before the proof gives up.
MAX_ALPHA_HALVINGS = 12
#: A node at the finest split of Player's box tries the case analysis when at most this many of
#: Banker's sets are open ...
MAX_CASE_SETS = 10
#: ... and gives it up (halving alpha instead) after this many linear programs.
MAX_CASE_LPS = 3000
#: Above the finest split only Player's side of each of his cases is tried (one linear program each);
#: at the finest, Banker's sets are gone through too, within this many programs until alpha has been
#: halved CASE_HALVINGS times, then within MAX_CASE_LPS.
FIRST_CASE_LPS = 8
CASE_HALVINGS = 4

F0, F1 = Fraction(0), Fraction(1)
Box = list[tuple[Fraction, Fraction]]


class ProofIncomplete(Exception):
    """The case tree left a node it could neither exclude nor reduce to a face."""


def _propagate(game: CheminGame3, box: Box, a: Fraction, b: Fraction, fixed: dict[int, int],
               open_: list[int]) -> tuple[Box, dict[int, int], list[int]] | None:
    """Iterated strict dominance on a node; None when Player's forced move leaves the box."""
    G, H, S = game.G, game.H, game.base_sgn
    box, fixed, open_ = list(box), dict(fixed), list(open_)
    while True:
        changed = False
        keep = []
        for i in open_:
            lo = hi = None
            for al in (a, b):
                v = G[i][0] - al * H[i][0]
                lv = hv = v
                for j in range(5):
                    c = G[i][j + 1] - al * H[i][j + 1]
                    p, q = c * box[j][0], c * box[j][1]
                    lv += min(p, q)
                    hv += max(p, q)
                lo = lv if lo is None else min(lo, lv)
                hi = hv if hi is None else max(hi, hv)
            assert lo is not None and hi is not None
            if lo > 0 or hi < 0:
                fixed[i] = 1 if lo > 0 else 0
                changed = True
            else:
                keep.append(i)
        open_ = keep
        for j in range(5):
            cj = -S[j + 1] - sum(G[i][j + 1] for i, v in fixed.items() if v)
            plo = cj + sum(min(0, -G[i][j + 1]) for i in open_)
            phi = cj + sum(max(0, -G[i][j + 1]) for i in open_)
            lj, uj = box[j]
            if plo > 0:
                if uj < 1:
                    return None
                if lj < 1:
                    box[j] = (F1, F1)
                    changed = True
            elif phi < 0:
                if lj > 0:
                    return None
                if uj > 0:
                    box[j] = (F0, F0)
                    changed = True
        if not changed:
            return box, fixed, open_


def _relation(game: CheminGame3, box: Box, fixed: dict[int, int], open_: list[int]) -> tuple[int, int, Fraction] | None:
    """(j, k, c) with pi_j - c pi_k > 0 against every Banker strategy left, j and k open; c from the breakpoints."""
    G, S = game.G, game.base_sgn
    free = [j for j in range(5) if box[j][0] < box[j][1]]

    def coef(j: int) -> tuple[int, dict[int, int]]:
        return -S[j + 1] - sum(G[i][j + 1] for i, v in fixed.items() if v), {i: -G[i][j + 1] for i in open_}

    for j in free:
        aj, hj = coef(j)
        for k in free:
            if k == j:
                continue
            ak, hk = coef(k)
            cands = {Fraction(hj[i], hk[i]) for i in open_ if hk[i]}
            if ak:
                cands.add(Fraction(aj, ak))
            for c in sorted(cands):
                if c and aj - c * ak + sum(min(F0, hj[i] - c * hk[i]) for i in open_) > 0:
                    return j, k, c
    return None


def _status(box: Box, j: int, pc: dict[int, str]) -> str:
    """Player's move at composition j in a case: D ("1"), S ("0") or mixed ("m")."""
    if j in pc:
        return pc[j]
    lo, hi = box[j]
    return "1" if lo == hi == 1 else ("0" if lo == hi == 0 else "m")


def _signed(coeffs: dict[str, Fraction], c: Fraction, sign: str) -> Row:
    """The row ``coeffs . z + c`` >= 0 (sign "1"), <= 0 ("0", stored negated) or = 0 ("m")."""
    coeffs = {k: v for k, v in coeffs.items() if v}
    if sign == "0":
        return {k: -v for k, v in coeffs.items()}, -c, False
    return coeffs, c, sign == "m"


def _player_base(game: CheminGame3, fixed: dict[int, int]) -> tuple[int, ...]:
    """Player's gain at each composition (times the deals) from the constant and Banker's sets fixed at 1."""
    G, S = game.G, game.base_sgn
    return tuple(-S[j + 1] - sum(G[i][j + 1] for i, v in fixed.items() if v) for j in range(5))


def _x_rows(game: CheminGame3, box: Box, fixed: dict[int, int], open_: list[int], pc: dict[int, str],
            bc: dict[int, str]) -> dict[str, Row]:
    """Player's side of a case: his five conditions on Banker's open draws x_i (alpha-free).

    Banker draws at the sets ``bc`` puts at "1", stands at "0", and x_i in [0, 1] at the others;
    Player's gain pi_j (times the deals) is >= 0 where he draws, <= 0 where he stands, 0 where he mixes.
    """
    G = game.G
    var = [i for i in open_ if bc.get(i, "m") == "m"]
    rows: dict[str, Row] = {}
    for i in var:
        rows[f"x{i}>=0"] = ({f"x{i}": F1}, F0, False)
        rows[f"x{i}<=1"] = ({f"x{i}": -F1}, F1, False)
    base = _player_base(game, fixed)
    for j in range(5):
        c = Fraction(base[j] - sum(G[i][j + 1] for i in open_ if bc.get(i) == "1"))
        rows[f"pi{j}"] = _signed({f"x{i}": Fraction(-G[i][j + 1]) for i in var}, c, _status(box, j, pc))
    return rows


def _y_rows(game: CheminGame3, box: Box, a: Fraction, b: Fraction, open_: list[int], pc: dict[int, str],
            bc: dict[int, str]) -> dict[str, Row]:
    """Banker's side of a case: his conditions on (y, alpha), linear in (y, alpha, w = alpha y).

    beta_i (times the deals) is >= 0 where ``bc`` has him draw, <= 0 where he stands, 0 where he mixes;
    Player's mixed moves y_j range over the box, alpha over [a, b], and w_j = alpha y_j is replaced by
    McCormick's four inequalities (products of the bounds' slacks), so the system is a relaxation: no
    solution means no (y, alpha) either.
    """
    G, H = game.G, game.H
    fixed_y = {j: (F1 if _status(box, j, pc) == "1" else box[j][0]) for j in range(5)
               if _status(box, j, pc) != "m" or box[j][0] == box[j][1]}
    mixed = [j for j in range(5) if j not in fixed_y]
    rows: dict[str, Row] = {"a>=": ({"a": F1}, -a, False), "a<=": ({"a": -F1}, b, False)}
    for j in mixed:
        lo, hi = box[j]
        y, w = f"y{j}", f"w{j}"
        rows[f"{y}>="] = ({y: F1}, -lo, False)
        rows[f"{y}<="] = ({y: -F1}, hi, False)
        rows[f"mc{j}.1"] = _signed({w: F1, y: -a, "a": -lo}, a * lo, "1")
        rows[f"mc{j}.2"] = _signed({w: F1, y: -b, "a": -hi}, b * hi, "1")
        rows[f"mc{j}.3"] = _signed({w: -F1, y: b, "a": lo}, -b * lo, "1")
        rows[f"mc{j}.4"] = _signed({w: -F1, y: a, "a": hi}, -a * hi, "1")
    for i in open_:
        if i not in bc:
            continue
        g, h = G[i], H[i]
        coeffs = {"a": -(h[0] + sum((h[j + 1] * v for j, v in fixed_y.items()), F0))}
        for j in mixed:
            coeffs[f"y{j}"] = Fraction(g[j + 1])
            coeffs[f"w{j}"] = Fraction(-h[j + 1])
        rows[f"beta{i}"] = _signed(coeffs, g[0] + sum((g[j + 1] * v for j, v in fixed_y.items()), F0), bc[i])
    return rows


def _cases(game: CheminGame3, box: Box, a: Fraction, b: Fraction, fixed: dict[int, int],
           open_: list[int], memo: dict, budget: int = MAX_CASE_LPS) -> list[dict] | None:
    """Exclude a node by cases, each closed by a Farkas certificate; None when some case stays open.

    An equilibrium in the node has, at each of Player's open compositions, y_j = 1, y_j = 0 or y_j
    mixed (pi_j = 0), and at each of Banker's open sets x_i = 1, 0 or mixed (beta_i = 0).  Player's
    conditions involve x only, Banker's (y, alpha) only, so a case is closed when either side has no
    solution (:func:`_x_rows`, :func:`_y_rows`, :func:`baccara.solve.farkas.farkas`).  Banker's sets are
    assigned one at a time, in ``open_`` order, and a partial assignment already closed closes every
    completion: the record lists, for each of Player's cases, the closed partial assignments.  Banker's
    sets are gone through within ``budget`` linear programs (0: only the empty assignment is tried).
    ``memo`` keeps each system's outcome (Player's side does not involve alpha, so the nodes of one
    box across alpha-intervals share it) and the last case found open in each box.
    """

    def refute(rows: dict[str, Row]) -> dict[str, Fraction] | None:
        key = tuple((k, tuple(sorted(c.items())), v, e) for k, (c, v, e) in sorted(rows.items()))
        if key not in memo:
            memo[key] = farkas(rows)
        return memo[key]

    if len(open_) > MAX_CASE_SETS:
        return None
    free = [j for j in range(5) if box[j][0] < box[j][1]]
    # a case left open in this box before (a wider alpha-interval) is tried first: still open, give up
    seen = ("open case", tuple(box))
    if seen in memo and memo[seen][0] == open_:
        _, combo, pre = memo[seen]
        pc, bc = dict(zip(free, combo)), dict(zip(open_, pre))
        if refute(_x_rows(game, box, fixed, open_, pc, bc)) is None and \
                refute(_y_rows(game, box, a, b, open_, pc, bc)) is None:
            return None
    opts = [[s for s, ok in (("1", box[j][1] == 1), ("0", box[j][0] == 0), ("m", True)) if ok] for j in free]
    out = []
    for combo in product(*opts):
        pc = dict(zip(free, combo))
        closed: list[dict] = []
        root = refute(_x_rows(game, box, fixed, open_, pc, {}))
        budget -= 1
        if root is not None:
            closed.append({"banker": "", "part": "x", "certificate": {k: fstr(v) for k, v in root.items()}})
        if root is None and budget <= 0:
            return None
        stack = [] if root is not None else [""]
        while stack:
            pre = stack.pop()
            if len(pre) == len(open_):
                memo[seen] = (open_, combo, pre)
                return None
            if budget <= 0:
                return None
            for s in "10m":
                p = pre + s
                bc = dict(zip(open_, p))
                cert, part = (refute(_x_rows(game, box, fixed, open_, pc, bc)), "x") if s != "m" else (None, "x")
                budget -= 1
                if cert is None:
                    cert, part = refute(_y_rows(game, box, a, b, open_, pc, bc)), "y"
                    budget -= 1
                if cert is None:
                    stack.append(p)
                else:
                    closed.append({"banker": p, "part": part, "certificate": {k: fstr(v) for k, v in cert.items()}})
        out.append({"player": "".join(combo), "closed": closed})
    return out


def _box_json(box: Box) -> list[list[str]]:
    return [[fstr(lo), fstr(hi)] for lo, hi in box]


def _tree(game: CheminGame3, box: Box, a: Fraction, b: Fraction, fixed: dict[int, int], open_: list[int],
          halvings: int, stats: dict[str, int], memo: dict) -> dict:
    """One node of the case tree, with its subtree, as the artefact records it."""
    stats["nodes"] += 1
    node: dict[str, Any] = {"box": _box_json(box), "alpha": [fstr(a), fstr(b)]}
    r = _propagate(game, box, a, b, fixed, open_)
    if r is None:
        stats["excluded"] += 1
        node["status"] = "excluded"
        return node
    box, fixed2, open2 = r
    node["banker_fixed"] = sorted([i, v] for i, v in fixed2.items() if i not in fixed)
    node["player_box"] = _box_json(box)
    free = [j for j in range(5) if box[j][0] < box[j][1]]
    if len(free) <= 1:
        stats["faces"] += 1
        node["status"] = "face"
        key = _face_key(box)
        node["face"] = key if "*" in key else _widen(key)
        return node
    rel = _relation(game, box, fixed2, open2)
    if rel is not None:
        j, k, c = rel
        node["status"] = "relation"
        node["relation"] = {"j": j, "k": k, "c": fstr(c)}
        kids = [(k, F0), (j, F1)] if c > 0 else [(j, F1), (k, F1)]
        node["children"] = []
        for t, v in kids:
            nb = list(box)
            nb[t] = (v, v)
            node["children"].append(_tree(game, nb, a, b, fixed2, open2, halvings, stats, memo))
        return node
    width, j = max((box[t][1] - box[t][0], t) for t in free)
    cases = None
    if width <= MIN_Y_WIDTH and (halvings >= CASE_HALVINGS or ("tried", tuple(box)) not in memo):
        memo["tried", tuple(box)] = True  # before CASE_HALVINGS, once a box: its alpha-halves rarely differ
        cases = _cases(game, box, a, b, fixed2, open2, memo,
                       MAX_CASE_LPS if halvings >= CASE_HALVINGS else FIRST_CASE_LPS)
    if cases is not None:
        stats["excluded"] += 1
        stats["cases"] = stats.get("cases", 0) + 1
        node["status"] = "excluded-cases"
        node["cases"] = cases
        return node
    if width > MIN_Y_WIDTH:
        m = (box[j][0] + box[j][1]) / 2
        node["status"] = "split-y"
        node["split"] = {"j": j, "at": fstr(m)}
        node["children"] = []
        for part in ((box[j][0], m), (m, box[j][1])):
            nb = list(box)
            nb[j] = part
            node["children"].append(_tree(game, nb, a, b, fixed2, open2, halvings, stats, memo))
        return node
    if halvings >= MAX_ALPHA_HALVINGS:
        raise ProofIncomplete(f"no face or exclusion for y in {_box_json(box)}, alpha in [{a}, {b}]")
    m = (a + b) / 2
    node["status"] = "split-alpha"
    node["split"] = {"at": fstr(m)}
    node["children"] = [_tree(game, box, a, m, fixed2, open2, halvings + 1, stats, memo),
                        _tree(game, box, m, b, fixed2, open2, halvings + 1, stats, memo)]
    return node


def _face_key(box: Box) -> str:
    """A face as Player's moves: D (1), S (0) or * (free), e.g. ``D*SDD``."""
    return "".join("*" if lo < hi else ("D" if lo == 1 else "S") for lo, hi in box)


def _real_json(x: QuadraticNumber | Fraction) -> dict:
    """An exact real r + s sqrt(d) as strings, with a float beside."""
    q = QuadraticNumber.of(x)
    return {"r": fstr(q.r), "s": fstr(q.s), "d": str(q.d), "float": float(q)}


def _face(game: CheminGame3, key: str, lo: Fraction, hi: Fraction) -> dict:
    """The exact sweep of one face's additive game, each equilibrium confirmed (or not) in the full game."""
    free = key.index("*")
    player = [1 if ch == "D" else 0 for ch in key]
    restricted = game.restricted(player, free)
    sw = sweep(restricted.linear(), lo, hi, order=restricted.block_key)
    groups = sw.groups or [(i,) for i in range(len(game.keys))]
    bil = game.at(F0)  # Player's gains do not involve alpha

    def banker(moves: tuple[int, ...], mixed: dict[int, Fraction]) -> list[Fraction]:
        x = [F0] * len(game.keys)
        for g, members in enumerate(groups):
            for i in members:
                x[i] = mixed[g] if g in mixed else (F1 if moves[g] > 0 else F0)
        return x

    def confirmed(x: list[Fraction]) -> bool:
        return all((bil.gain_I(j, x) >= 0) if player[j] else (bil.gain_I(j, x) <= 0) for j in range(5) if j != free)

    intervals = []
    for iv in sw.intervals:
        x = banker(iv.moves, {iv.i: iv.q} if iv.i is not None and iv.q is not None else {})
        entry: dict[str, Any] = {"alpha_from": _real_json(iv.lo), "alpha_to": _real_json(iv.hi),
                                 "sample": fstr(rational_between(iv.lo, iv.hi)),
                                 "banker": [fstr(v) for v in x]}
        if iv.pure is not None:
            entry["player_free"] = {"pure": iv.pure}
        else:
            assert iv.p_formula is not None  # a mixed interval has its formula
            n0, n1, d0, d1 = iv.p_formula
            entry["player_free"] = {"formula": [n0, n1, d0, d1]}
        entry["full_game"] = confirmed(x)
        intervals.append(entry)
    points = [{"alpha": _real_json(pc.point.alpha), "curves": [pc.point.i, pc.point.j],
               "sweep_confirmed": sum(confirmed(banker(pc.moves, dict(ext))) for ext in pc.extremes)}
              for pc in sw.points]
    return {"face": key, "free": free, "intervals": intervals, "points": points,
            "continua": list(sw.continua)}


@dataclass(repr=False)
class Chemin3Proof(Result):
    """A proof artefact for Model B3 over a commission range (see the module docstring).

    Parameters
    ----------
    game : CheminGame3
        The game (its integer coefficients are written into the artefact).
    lo, hi : Fraction
        The commission range proved.
    tree : dict
        The case tree's root node (nested).
    faces : list of dict
        Each face's exact sweep with its equilibria confirmed or not.
    critical : list of dict
        Every critical alpha of the faces together, with every extreme equilibrium of the full
        game there (:func:`baccara.check.chemin_points.analyse`).
    stats : dict
        Node counts: ``nodes``, ``excluded``, ``faces``.
    weights : tuple of int, optional
        When Player's compositions of 5 are alike (the infinite shoe): each one's column is
        ``weights[j]`` times a common one, and ``tree``, ``faces`` and ``critical`` are of the merged
        game, Player's choice p = sum_j w_j y_j / sum_j w_j at composition 1 (module docstring).
    groups : tuple of tuple of int, optional
        With ``weights``: Banker's alike sets (rows positively proportional), merged into one set each
        in the merged game (its Banker strategies list one move per group).
    """

    game: CheminGame3
    lo: Fraction
    hi: Fraction
    tree: dict
    faces: list[dict]
    critical: list[dict] = field(default_factory=list)
    stats: dict[str, int] = field(default_factory=dict)
    weights: tuple[int, ...] | None = None
    groups: tuple[tuple[int, ...], ...] | None = None

    def exceptional(self) -> list[dict]:
        """The critical alphas with more than one extreme equilibrium (or a continuum) in the full game.

        Returns
        -------
        list of dict
            ``{"alpha", "equilibria", "continuum"}`` for each such alpha, ascending.
        """
        return [c for c in self.critical if len(c["equilibria"]) > 1 or c["continuum"]]

    def unique_faces(self) -> list[str]:
        """The faces carrying a confirmed equilibrium on some interval of alpha.

        Returns
        -------
        list of str
            Face keys such as ``"D*SDD"``.
        """
        return [f["face"] for f in self.faces if any(iv["full_game"] for iv in f["intervals"])]

    def statement(self) -> str:
        """The proved statement in one sentence.

        Returns
        -------
        str
            The sentence.
        """
        ex = [{"alpha": e["alpha"], "equilibria": len(e["equilibria"]), "continuum": bool(e["continuum"])}
              for e in self.exceptional()]
        return check_statement(decks_json(self.game.decks), self.lo, self.hi, ex, self.unique_faces(),
                               list(self.weights) if self.weights is not None else None, len(self.groups or ()))

    def summary(self) -> str:
        """One line: the statement and the size of the case tree.

        Returns
        -------
        str
            The line.
        """
        return (f"{self.statement()} ({self.stats.get('nodes', 0)} nodes, "
                f"{self.stats.get('excluded', 0)} excluded, {self.stats.get('faces', 0)} face leaves)")

    def renderables(self) -> list:
        """The summary, then each face's intervals, for people.

        Returns
        -------
        list
            Lines of text.
        """
        lines: list[Any] = [self.summary()]
        for f in self.faces:
            lines.append(f"face {f['face']}: {len(f['intervals'])} intervals, {len(f['points'])} critical alphas")
            for iv in f["intervals"]:
                lines.append(f"  [{iv['alpha_from']['float']:.6f}, {iv['alpha_to']['float']:.6f}] "
                             f"{'equilibrium' if iv['full_game'] else 'not an equilibrium of the full game'}")
        return lines

    def to_json(self) -> dict:
        """The proof artefact (kind ``chemin-b3-uniqueness``).

        Returns
        -------
        dict
            ``kind``, ``version``, ``model``, ``decks``, ``range``, ``coefficients`` (the game's
            integers: ``keys``, ``G``, ``H``, ``base_sgn``, ``base_win``, ``deals``), ``tree``
            (the case tree), ``faces`` (each face's sweep), ``exceptional`` and ``statement``.
        """
        g = self.game
        return {
            "kind": "chemin-b3-uniqueness", "version": PROOF_VERSION, "model": "B3",
            "decks": decks_json(g.decks), "range": [fstr(self.lo), fstr(self.hi)],
            "coefficients": {"keys": [[list(h), k] for h, k in g.keys], "G": [list(r) for r in g.G],
                             "H": [list(r) for r in g.H], "base_sgn": list(g.base_sgn),
                             "base_win": list(g.base_win), "deals": g.deals},
            "tree": self.tree, "stats": dict(self.stats), "faces": self.faces, "critical": self.critical,
            "exceptional": self.exceptional(), "statement": self.statement(),
            **({"equivalence": {"weights": list(self.weights), "merged_face": MERGED_FACE,
                                "banker_groups": [list(m) for m in self.groups or ()]}}
               if self.weights is not None else {}),
        }


def prove_chemin3(decks: int | None = 6, lo: Fraction = F0, hi: Fraction = Fraction(1, 10)) -> Chemin3Proof:
    """Prove where every Model B3 Nash equilibrium lies for all alpha in [lo, hi] (module docstring).

    Parameters
    ----------
    decks : int or None
        Decks in the shoe (None: the infinite shoe).
    lo, hi : Fraction
        The commission range, 0 <= lo <= hi < 1, as :func:`baccara.params.commission` returns it: the faces (:mod:`baccara.chemin`, the command line) check it, this trusts it.

    Returns
    -------
    Chemin3Proof
        The case tree and the faces' sweeps; ``to_json()`` is the artefact.

    Raises
    ------
    ProofIncomplete
        When the case tree cannot close a node.

    Notes
    -----
    With the infinite shoe (``decks=None``) Player's compositions of 5 are alike, so the proof is
    of the merged game and uniqueness is up to that equivalence (module docstring).
    """
    full = cast(CheminGame3, chemin_game("B3", decks))
    w = equivalent_columns(full.G, full.H, full.base_sgn, full.base_win)
    root: Box = [(F0, F1)] * 5
    game = full
    groups: tuple[tuple[int, ...], ...] | None = None
    if w is not None:
        m = merged_coefficients({"G": full.G, "H": full.H, "base_sgn": full.base_sgn, "base_win": full.base_win})
        groups = tuple(tuple(g) for g in m["groups"])
        game = replace(full, keys=tuple(full.keys[g[0]] for g in groups), G=tuple(map(tuple, m["G"])),
                       H=tuple(map(tuple, m["H"])), base_sgn=tuple(m["base_sgn"]), base_win=tuple(m["base_win"]))
        root = [(F0, F1)] + [(F0, F0)] * 4
    stats = {"nodes": 0, "excluded": 0, "faces": 0}
    tree = _tree(game, root, lo, hi, {}, list(range(len(game.keys))), 0, stats, {})
    keys: list[str] = []

    def collect(node: dict) -> None:
        if node["status"] == "face" and node["face"] not in keys:
            keys.append(node["face"])
        for ch in node.get("children", []):
            collect(ch)

    collect(tree)
    faces = [_face(game, k, lo, hi) for k in sorted(keys)]
    an = analyse([list(r) for r in game.G], [list(r) for r in game.H], list(game.base_sgn), sorted(keys), lo, hi)
    proof = Chemin3Proof(full, lo, hi, tree, faces, an["critical"], stats, tuple(w) if w is not None else None,
                         groups)
    # cross-check the enumeration against the sweeps: every crossing the sweep found is critical, and
    # where its equalizing points give two or more full-game equilibria the enumeration finds several
    ex = {alpha_from_json(e["alpha"]).key() for e in proof.exceptional()}
    for f in faces:
        for pt in f["points"]:
            a = alpha_from_json(pt["alpha"])
            if not any(a.key() == c.key() for c in an["crossings"][f["face"]]):
                raise ProofIncomplete(f"face {f['face']}: the sweep's crossing {pt['alpha']['float']} is not critical")
            if pt["sweep_confirmed"] > 1 and a.key() not in ex:
                raise ProofIncomplete(f"face {f['face']}: the sweep and the enumeration disagree at "
                                      f"{pt['alpha']['float']}")
    bad = [r for r in an["regions"] if r[3] != 1 or r[4]]
    if bad:
        a, b, smp, n, cont = bad[0]
        raise ProofIncomplete(f"alpha = {smp}: {n} extreme equilibria{' and a continuum' if cont else ''} "
                              "between critical alphas")
    return proof


def artefact_name(decks: int | None) -> str:
    """The file name :func:`prove_chemin3_range` gives the artefact of one d: ``b3-d8.json``, ``b3-dinf.json``.

    Parameters
    ----------
    decks : int or None
        Decks (None: the infinite shoe).

    Returns
    -------
    str
        The file name.
    """
    return f"b3-d{'inf' if decks is None else decks}.json"


def _prove_row(decks: int | None, lo: Fraction, hi: Fraction, out_dir: str | None) -> dict:
    """One d of :func:`prove_chemin3_range`: the proof's outcome as a row (its artefact written to ``out_dir``)."""
    t = time.process_time()
    row: dict[str, Any] = {"decks": decks_json(decks)}
    try:
        proof = prove_chemin3(decks, lo, hi)
    except ProofIncomplete as e:
        row.update(proved=False, reason=str(e), cpu_s=round(time.process_time() - t, 2))
        return row
    doc = proof.to_json()
    row.update(proved=True, faces=proof.unique_faces(),
               exceptional=[{"alpha": e["alpha"], "equilibria": len(e["equilibria"]), "continuum": e["continuum"]}
                            for e in proof.exceptional()],
               equivalence=proof.weights is not None, nodes=proof.stats.get("nodes", 0),
               cases=proof.stats.get("cases", 0), statement=proof.statement())
    if out_dir is not None:
        path = Path(out_dir) / artefact_name(decks)
        path.write_text(json.dumps(doc))
        row["file"] = str(path)
    row["cpu_s"] = round(time.process_time() - t, 2)
    return row


@dataclass(repr=False)
class Chemin3ProofRange(Result):
    """The Model B3 proof (:func:`prove_chemin3`) for several d: one row per d.

    Parameters
    ----------
    lo, hi : Fraction
        The commission range proved.
    rows : list of dict
        Per d, in the order asked: ``decks``, ``proved``, and when proved ``faces`` (the faces carrying
        the equilibrium), ``exceptional`` (each exceptional alpha, exact, with its count of extreme
        equilibria), ``nodes``, ``cases`` (nodes excluded by cases), ``statement`` and ``file`` (the
        artefact, when written); when not, ``reason``.  ``cpu_s``: the proof's CPU seconds.
    wall_s : float
        Seconds the whole run took.
    workers : int
        Processes used.
    """

    lo: Fraction
    hi: Fraction
    rows: list[dict]
    wall_s: float = 0.0
    workers: int = 1

    def groups(self) -> list[tuple[str, str, str]]:
        """Consecutive finite d with the same outcome, as (first d, last d, outcome).

        Returns
        -------
        list of tuple of str
            The groups in order; the infinite shoe and unproved d are groups of their own.
        """
        out: list[list[str]] = []

        def outcome(r: dict) -> str:
            if not r["proved"]:
                return "not proved: " + r["reason"]
            if r["equivalence"]:
                return "unique up to Player's equivalent compositions"
            faces = ", ".join(r["faces"])
            ex = r["exceptional"]
            return (f"unique on face(s) {faces}, " +
                    (f"{len(ex)} exceptional alpha(s): " + ", ".join(f"{e['alpha']['float']:.6f}" for e in ex)
                     if ex else "no exceptional alpha"))

        prev: int | None = None
        for r in self.rows:
            d = r["decks"]
            o = outcome(r)
            if out and prev is not None and d != "inf" and int(d) == prev + 1 and out[-1][2] == o:
                out[-1][1] = str(d)
            else:
                out.append([str(d), str(d), o])
            prev = int(d) if d != "inf" else None
        return [(a, b, o) for a, b, o in out]

    def statement(self) -> str:
        """What the run proved, in one paragraph.

        Returns
        -------
        str
            One sentence per group of d (:meth:`groups`).
        """
        parts = [f"d = {a}{'' if a == b else f'-{b}'}: {o}" for a, b, o in self.groups()]
        return f"Model B3, every alpha in [{self.lo}, {self.hi}]: " + "; ".join(parts)

    def summary(self) -> str:
        """One line: how many d were proved, in how long.

        Returns
        -------
        str
            The line.
        """
        n = sum(r["proved"] for r in self.rows)
        cpu = sum(r["cpu_s"] for r in self.rows)
        return (f"Model B3 proofs over alpha in [{self.lo}, {self.hi}]: {n} of {len(self.rows)} values of d proved "
                f"({cpu:.0f} CPU s, {self.wall_s:.0f} s on {self.workers} process(es))")

    def renderables(self) -> list:
        """The summary, the groups of d, then a row per d, for people.

        Returns
        -------
        list
            Lines of text and a table.
        """
        from rich.table import Table

        table = Table("d", "proved", "faces", "exceptional alphas", "nodes", "CPU s")
        for r in self.rows:
            ex = ", ".join(f"{e['alpha']['float']:.6f}" for e in r.get("exceptional", [])) or "-"
            table.add_row(str(r["decks"]), "yes" if r["proved"] else "NO", ", ".join(r.get("faces", [])) or "-",
                          ex, str(r.get("nodes", "-")), f"{r['cpu_s']:.1f}")
        return [self.summary(), *[f"  d = {a}{'' if a == b else f'-{b}'}: {o}" for a, b, o in self.groups()], table]

    def to_json(self) -> dict:
        """Every row, the groups and the statement.

        Returns
        -------
        dict
            ``kind`` (``chemin-b3-proofs``), ``range``, ``rows``, ``groups``, ``statement``, ``wall_s``,
            ``workers``.  Each d's own artefact is its file (``rows[k]["file"]``), for ``baccara check``.
        """
        return {"kind": "chemin-b3-proofs", "range": [fstr(self.lo), fstr(self.hi)], "rows": self.rows,
                "groups": [{"from": a, "to": b, "outcome": o} for a, b, o in self.groups()],
                "statement": self.statement(), "wall_s": round(self.wall_s, 2), "workers": self.workers}


def prove_chemin3_range(decks: Sequence[int | None], lo: Fraction = F0, hi: Fraction = Fraction(1, 10),
                        workers: int = 1, out_dir: str | Path | None = None,
                        progress: Callable[[int | None], None] | None = None, backend: str = "processes",
                        scheduler: str | None = None) -> Chemin3ProofRange:
    """The Model B3 proof for each d in ``decks``, on ``workers`` processes or a Dask cluster (:func:`prove_chemin3`).

    Parameters
    ----------
    decks : sequence of int or None
        The values of d (None: the infinite shoe).
    lo, hi : Fraction
        The commission range.
    workers : int
        Processes (1: in this process).
    out_dir : str or Path, optional
        A folder for each d's artefact (:func:`artefact_name`).
    progress : callable, optional
        Called with each d when it is done.
    backend : str
        ``processes`` (here) or ``dask`` (a local cluster of ``workers``, or the one at ``scheduler``):
        the same rows either way.
    scheduler : str, optional
        A checked Dask scheduler's address (implies ``dask``).

    Returns
    -------
    Chemin3ProofRange
        One row per d, in the order of ``decks``; a d whose proof does not close is a row with
        ``proved`` false, not an exception.
    """
    where = None if out_dir is None else str(out_dir)
    t = time.perf_counter()
    rows: dict[int, dict] = {}
    if workers <= 1 and backend == "processes" and scheduler is None:
        for k, d in enumerate(decks):
            rows[k] = _prove_row(d, lo, hi, where)
            if progress:
                progress(d)
    else:
        with executor(workers, backend, scheduler, "chemin prove with several workers") as pool:
            futures = {pool.submit(_prove_row, d, lo, hi, where): k for k, d in enumerate(decks)}
            for fut in as_completed(futures):
                k = futures[fut]
                rows[k] = fut.result()
                if progress:
                    progress(decks[k])
    return Chemin3ProofRange(lo, hi, [rows[k] for k in range(len(decks))], time.perf_counter() - t, max(workers, 1))


def _widen(key: str) -> str:
    """A 0-dimensional face inside a 1-dimensional one: (1,4) freed."""
    return key[:1] + "*" + key[2:]


__all__ = ["PROOF_VERSION", "Chemin3Proof", "Chemin3ProofRange", "ProofIncomplete", "artefact_name", "prove_chemin3",
           "prove_chemin3_range"]
