"""Re-checking a banque independent-value artefact (kind ``banque-independent``) without the solvers.

The artefact (written by ``baccara banque prove --concept independent``) claims, at each theta
listed, that the Players' lower value of the independent cooperative game (Ethier and Lee 2015,
section 4) is exactly the value given.  Player 1 draws at 5 with probability p1, Player 2 with
p2, independently; Banker sees (p1, p2) and replies.  Weighing the Players' results by their
stakes (theta and 1 - theta), their gain with Banker standing everywhere is a bilinear function
A(p) and the change when Banker draws at information set i is B_i(p), so against his best
reply they get

    V(p) = A(p) + sum_i min(0, B_i(p)),

and the lower value is the maximum of V over the unit square.  The proof:

- For any Banker strategy q in [0, 1]^n, V(p) <= W_q(p) = A(p) + sum_i q_i B_i(p), since
  q_i B_i >= min(0, B_i).  W_q is bilinear, so on a rectangle its largest value is at a corner.
- So a rectangle with a q that puts W_q <= value at its four corners has V <= value on it.
  The artefact gives such a q for each dyadic box of a cover of the square and for each quarter
  of a small rectangle around each maximiser (the quarters have the maximiser as a corner, where
  W_q = V = value, which no box away from it could do).
- V(maximiser) = value, so the maximum is the value, exactly.

What this checker re-verifies, in exact arithmetic (integers, Fractions, and a + b sqrt(d)):

1. **The game.**  The coefficients are re-derived from the shoe by a plain count of the deals
   (:mod:`baccara.check.banque_deals`) and compared entry by entry with the artefact's; every
   later step uses the checker's own.
2. **The value is attained**: V at the maximiser (and at each further maximiser listed), computed
   here with every B_i's sign decided exactly, equals the value; the points lie in the square.
3. **The local rectangles**: each contains its point, is cut there into the quarters listed (no
   more, no fewer), and each quarter's q (Banker draws at the sets of ``draws``, mixes as listed)
   lies in [0, 1]^n and keeps W_q <= value at the quarter's four corners.
4. **The boxes**: each is a dyadic square of the unit square whose q keeps W_q <= value at its
   four corners.
5. **The cover**: the boxes and the rectangles cover the unit square (a quadtree walk from the
   whole square: every cell is a box, lies in a rectangle, or splits into four that are covered).

6. **What is shown**: ``value_float`` and the maximiser's ``float`` are the exact values rounded, no
   theta is listed twice, and the ``statement`` is the sentence these steps prove (:func:`verify`
   returns the theorem: the value at each theta).

Nothing is taken from the prover but the certificates themselves; a wrong value, a box deleted,
a quarter's mixture changed or a coefficient altered fails a step.
"""

from __future__ import annotations

from fractions import Fraction

from ..processes import HERE, Workers
from . import Step
from .banque import _dot, _weights
from .banque_deals import game_steps
from .qf import QF, _num, _sign, display_ok

KIND = "banque-independent"
VERSION = 1


class _Game:
    """The stake-weighted coefficients at one theta = n/m, as integers (scaled by m * denominator,
    a positive number, so no sign changes): A[u] and, per label, B[label][u]."""

    def __init__(self, own: dict, theta: Fraction) -> None:
        n, m = theta.numerator, theta.denominator
        self.scale = m * own["denominator"]
        self.A = [n * p1 + (m - n) * p2 for p1, p2 in own["base"]]
        self.labels = sorted(own["gain"])
        self.B = {lab: [n * a + (m - n) * b for a, b in zip(*own["gain"][lab])] for lab in self.labels}


def _value_at(game: _Game, p1, p2):
    """V(p1, p2), scaled like the game: A + every B_i that is negative there, its sign decided exactly."""
    w = _weights(p1, p2)
    total = _dot(game.A, w)
    for lab in game.labels:
        b = _dot(game.B[lab], w)
        if _sign(b) < 0:
            total = b + total
    return total


def _draws(game: _Game, text: str) -> set[str]:
    """The labels whose bit is set in the artefact's hexadecimal ``draws``."""
    bits = int(text, 16)
    if bits >> len(game.labels):
        raise ValueError(f"draws {text} has bits beyond the {len(game.labels)} information sets")
    return {lab for k, lab in enumerate(game.labels) if bits >> k & 1}


def _w(game: _Game, draws: set[str], mix: dict) -> list | None:
    """W_q's coefficients per joint pure strategy (scaled), Banker drawing at ``draws`` and
    mixing as ``mix`` says; None when a mixture is outside [0, 1] or names no set."""
    vec: list = list(game.A)
    for lab in draws:
        if lab not in mix:
            vec = [a + b for a, b in zip(vec, game.B[lab])]
    for lab, q in mix.items():
        if lab not in game.B or _sign(q) < 0 or _sign(1 - q) < 0:
            return None
        vec = [q * b + a for a, b in zip(vec, game.B[lab])]
    return vec


def _over(vec: list, xs: tuple, ys: tuple, bound) -> list[tuple]:
    """The corners (x, y) of the rectangle spanned by xs and ys where W > bound."""
    return [(x, y) for x in xs for y in ys if _sign(_dot(vec, _weights(x, y)) - bound) > 0]


def _dyadic(x0: Fraction, y0: Fraction, side: Fraction) -> tuple[int, int, int] | None:
    """(level, i, j) of the box [x0, x0 + side] x [y0, y0 + side] when it is a dyadic cell of the
    unit square (side 2^-level, corners on that grid), else None."""
    if side <= 0 or side.numerator != 1 or side.denominator & (side.denominator - 1):
        return None
    level = side.denominator.bit_length() - 1
    i, j = x0 / side, y0 / side
    n = 1 << level
    if i.denominator != 1 or j.denominator != 1 or not (0 <= i < n and 0 <= j < n):
        return None
    return level, int(i), int(j)


def _uncovered(cells: set, rects: list) -> list:
    """The cells of a quadtree walk from the unit square that are neither a box, nor inside a
    rectangle, nor the parent of a box (so not split): empty when the cover is complete."""
    parents = set()
    for level, i, j in cells:
        for k in range(1, level + 1):
            parents.add((level - k, i >> k, j >> k))
    holes: list[tuple[Fraction, Fraction, Fraction]] = []
    stack = [(0, 0, 0)]
    while stack and len(holes) < 5:
        level, i, j = stack.pop()
        if (level, i, j) in cells:
            continue
        side = Fraction(1, 1 << level)
        x0, y0 = i * side, j * side
        if any(a <= x0 and x0 + side <= b and c <= y0 and y0 + side <= d for (a, b), (c, d) in rects):
            continue
        if (level, i, j) in parents:
            stack += [(level + 1, 2 * i + di, 2 * j + dj) for di in (0, 1) for dj in (0, 1)]
        else:
            holes.append((x0, y0, side))
    return holes


def _check_proof(own: dict, pr: dict) -> list[Step]:
    theta = Fraction(pr["theta"])
    name = f"theta = {pr['theta']}"
    if not 0 < theta < 1:
        return [Step(name, False, "theta outside (0, 1)")]
    game = _Game(own, theta)
    value = _num(pr["value"]) * game.scale
    steps = []

    # 2. the value is attained
    pts = [pr["maximiser"], *pr.get("others", [])]
    bad = []
    for k, pt in enumerate(pts):
        p1, p2 = _num(pt["p1"]), _num(pt["p2"])
        if not all(_sign(v) >= 0 and _sign(1 - v) >= 0 for v in (p1, p2)):
            bad.append(f"point {k} outside the unit square")
        elif _sign(_value_at(game, p1, p2) - value) != 0:
            bad.append(f"V at point {k} is {float(_value_at(game, p1, p2)) / game.scale:.15g}, not the value")
    steps.append(Step(f"{name}: value attained", not bad, f"V at the {len(pts)} maximiser(s) equals the value "
                      f"{float(value) / game.scale:.15g}, exactly" if not bad else "; ".join(bad[:3])))

    # 3. the local rectangles
    rects, bad = [], []
    for k, loc in enumerate(pr["local"]):
        p1, p2 = _num(loc["point"]["p1"]), _num(loc["point"]["p2"])
        (x0, x1), (y0, y1) = ([Fraction(v) for v in loc["rectangle"][c]] for c in ("p1", "p2"))
        if not (0 <= x0 < x1 <= 1 and 0 <= y0 < y1 <= 1) or not all(
                _sign(v - a) >= 0 and _sign(b - v) >= 0 for v, a, b in ((p1, x0, x1), (p2, y0, y1))):
            bad.append(f"rectangle {k} is not a rectangle of the square around its point")
            continue
        want = {(x, y) for x in (x0, x1) for y in (y0, y1) if _sign(x - p1) and _sign(y - p2)}
        got = [(Fraction(qu["corner"]["p1"]), Fraction(qu["corner"]["p2"])) for qu in pr["local"][k]["quarters"]]
        if set(got) != want or len(got) != len(want):
            bad.append(f"rectangle {k}: its quarters are not the {len(want)} it is cut into at its point")
            continue
        draws = _draws(game, loc["draws"])
        for qu, (x, y) in zip(loc["quarters"], got):
            vec = _w(game, draws, {lab: _num(v) for lab, v in qu["banker_mix"].items()})
            if vec is None:
                bad.append(f"rectangle {k}: a mixture outside [0, 1] or at no information set")
                continue
            over = _over(vec, (p1, QF(x)), (p2, QF(y)), value)
            if over:
                bad.append(f"rectangle {k}, quarter towards ({x}, {y}): W above the value at {len(over)} corner(s)")
        rects.append(((x0, x1), (y0, y1)))
    steps.append(Step(f"{name}: local rectangles", not bad, f"{len(rects)} rectangle(s), each quarter's Banker "
                      "strategy keeps W at or below the value at its corners" if not bad else "; ".join(bad[:3])))

    # 4. the boxes
    cells, bad = set(), []
    for k, bx in enumerate(pr["boxes"]):
        x0, y0, side = (Fraction(v) for v in bx["box"])
        cell = _dyadic(x0, y0, side)
        if cell is None:
            bad.append(f"box {k} is not a dyadic square of the unit square")
            continue
        vec = _w(game, _draws(game, bx["draws"]), {lab: QF(Fraction(v)) for lab, v in bx.get("banker_mix", {}).items()})
        if vec is None:
            bad.append(f"box {k}: a mixture outside [0, 1] or at no information set")
            continue
        if _over(vec, (x0, x0 + side), (y0, y0 + side), value):
            bad.append(f"box {k} ({x0}, {y0}, side {side}): W above the value at a corner")
            continue
        cells.add(cell)
    steps.append(Step(f"{name}: boxes", not bad, f"{len(cells)} dyadic boxes, each with a Banker strategy keeping W "
                      "at or below the value at its corners" if not bad else "; ".join(bad[:3])))

    # 5. the cover
    holes = _uncovered(cells, rects)
    steps.append(Step(f"{name}: cover", not holes, "the boxes and rectangles cover the unit square, so the lower "
                      "value is the value, exactly" if not holes else
                      "not covered: " + "; ".join(f"({a}, {b}) side {c}" for a, b, c in holes[:3])))
    return steps


#: The statement of every ``banque-independent`` artefact (the prover writes the same sentence).
STATEMENT = ("At each theta listed, the Players' lower value of the independent cooperative game (Ethier and "
             "Lee 2015, section 4) -- the most they can guarantee with independent draw probabilities p1, p2 at "
             "5 against Banker's best reply -- is the value given, exactly, attained at the maximiser: V there "
             "equals it, and on every box and every quarter of the local rectangles some Banker strategy keeps "
             "the bilinear bound at or below it.")


def verify(doc: dict, quick: bool = False, workers: Workers = HERE) -> tuple[list[Step], dict | None]:
    """Re-check a ``banque-independent`` artefact and derive the theorem it proves (module docstring).

    Parameters
    ----------
    doc : dict
        The artefact, as loaded from JSON.
    quick, workers
        As in :func:`check`.

    Returns
    -------
    (list of Step, dict or None)
        The steps, and the theorem (the value at each theta listed) derived from them; None when
        a step fails.
    """
    steps = check(doc, quick, workers)
    if not steps or not all(s.ok for s in steps):
        return steps, None
    bad = []
    values = []
    thetas = [Fraction(pr["theta"]) for pr in doc["proofs"]]
    if len(set(thetas)) != len(thetas):
        bad.append("a theta is listed twice")
    for pr in doc["proofs"]:
        value, m = _num(pr["value"]), pr["maximiser"]
        p1, p2 = _num(m["p1"]), _num(m["p2"])
        fl = m.get("float")
        if not display_ok(pr.get("value_float"), value):
            bad.append(f"theta = {pr['theta']}: value_float")
        if not (isinstance(fl, list) and len(fl) == 2 and display_ok(fl[0], p1) and display_ok(fl[1], p2)):
            bad.append(f"theta = {pr['theta']}: the maximiser's float")
        values.append({"theta": pr["theta"], "value": pr["value"], "value_float": pr["value_float"],
                       "maximiser": {"p1": m["p1"], "p2": m["p2"]}})
    steps.append(Step("display floats", not bad, "each value_float and maximiser float is its exact value, rounded"
                      if not bad else f"not the exact value: {', '.join(bad[:3])}"))
    ok = doc.get("statement") == STATEMENT
    steps.append(Step("statement", ok, "the artefact's statement is the theorem the steps above prove" if ok else
                      f"the artefact's statement differs from the one its steps prove: {STATEMENT}"))
    if bad or not ok:
        return steps, None
    where = ", ".join(f"theta = {v['theta']}: {v['value_float']:.12f}" for v in values)
    return steps, {
        "kind": KIND, "game": "baccara banque, simplified model (Ethier and Lee 2015, section 4)",
        "shoe": "infinite", "decks": "inf", "parameter": "theta (Player 1's share of the stakes)",
        "claim": "the Players' lower value of the independent cooperative game, exactly, at each theta listed",
        "values": values, "exceptions": [],
        "statement": f"{STATEMENT} ({where})",
    }


def check(doc: dict, quick: bool = False, workers: Workers = HERE) -> list[Step]:
    """Re-check a ``banque-independent`` artefact (module docstring).

    Parameters
    ----------
    doc : dict
        The artefact, as loaded from JSON.
    quick : bool
        No effect (every step is quick: about a second a theta).
    workers : Workers
        No effect.

    Returns
    -------
    list of Step
        Every claim re-checked, in order.
    """
    steps, own = game_steps(doc, VERSION)
    if own is None:
        return steps
    if not doc["proofs"]:
        return [*steps, Step("proofs", False, "the artefact proves nothing: no theta listed")]
    for pr in doc["proofs"]:
        steps += _check_proof(own, pr)
    return steps
