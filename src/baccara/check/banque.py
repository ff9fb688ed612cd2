"""Re-checking a banque Nash proof artefact (kind ``banque-nash``) without the solvers.

The artefact (written by ``baccara banque prove``) claims: over a range (lo, hi] of theta, the
listed *events* are the only places where the set of Nash equilibria of the simplified banque
game (Ethier and Lee 2015, section 5) can change; on each interval between consecutive events the
equilibria keep their forms, and at the interval's sample they are exactly those listed.

What this checker re-verifies, in exact arithmetic (Fractions, and a + b sqrt(d) for the
quadratic irrationals; flint only for polynomial arithmetic):

1. **The game.**  The coefficients are re-derived from the shoe by a plain count of the deals
   (:mod:`baccara.check.banque_deals`) and compared entry by entry with the artefact's; any
   difference fails.  Every later step uses the checker's own coefficients, not the artefact's.
   Only the infinite shoe is counted here; another shoe is a failed step.
2. **The events.**  Each is an integer polynomial with a rational interval [a, b] inside (lo, hi)
   holding exactly one of its real roots (a Sturm count) with a sign change at the ends (or, for
   a = b, a rational root of the polynomial there); the intervals are disjoint and ascending.
3. **The intervals.**  There is one more interval than events; each sample is rational and lies
   strictly between its neighbouring events' intervals (the first above lo, the last below hi),
   so the intervals cover (lo, hi] but for the events.
4. **Every claimed equilibrium**, at its sample (and at the included upper end): from (p1, p2) the
   checker computes every B_k = theta R1^k + (1 - theta) R2^k exactly; Banker's indifferent sets
   must be exactly the artefact's, his draw probability there in [0, 1]; elsewhere he plays his
   strict best reply (draw where B_k < 0).  Each Player's gain from drawing at 5 is then computed
   from the payoffs of the four joint pure strategies: zero for a mixing Player, of the right sign
   for a pure one.  So each is a Nash equilibrium of the whole game; the distinct (p1, p2) are
   counted against the artefact's count.
5. **Completeness where the checker can enumerate.**  At every sample the checker lists, by itself,
   every equilibrium in which some Player plays a pure strategy (the corners, and the edges
   p_w = 0, 1: along an edge Banker's moves change only at the roots of linear functions, so the
   points where the mixing Player can be indifferent are finitely many rationals, each decided by
   an exact linear feasibility test over Banker's indifferent sets, and every segment between
   them is checked to carry no continuum).  Their (p1, p2) must be exactly the artefact's
   equilibria with a pure Player: an equilibrium deleted there fails.  It then lists every
   equilibrium with both Players mixing (:mod:`baccara.check.banque_interior`: the crossings of
   Banker's indifference curves, the points along one curve, the points inside a cell, each
   tested exactly), which must be exactly the artefact's others; where several of Banker's sets
   share one indifference curve (at a few simple theta: 1/9, 1/5, 1/4, 4/9 and 1/2, where eight
   share one) each is a draw variable of its own along it.  Should that list meet a case it cannot
   decide, the step says so and only the pure-Player part is re-derived there.
6. **Bookkeeping across events.**  Each event lists the equilibrium forms (which Players are pure,
   where Banker is indifferent, and a SHA-256 digest of the sets where he draws: recomputed here
   from each equilibrium, not read) that appear and disappear there; the forms of the interval
   after it must be those before it, less the disappearing, plus the appearing.  An equilibrium
   deleted from (or added to) one interval, events untouched, fails here.  The step also counts
   the events across which no form changes (harmless: an event too many only splits an interval,
   each part still sampled and checked).

7. **The events are complete** (:mod:`baccara.check.banque_events`).  The checker computes
   again, from its own coefficients and with its own algebra (flint's multivariate resultants,
   roots isolated in exact rationals), every theta in the range where a candidate equilibrium
   (a crossing of two of Banker's indifference curves, a curve meeting an edge, a point along a
   curve, a corner) starts or stops being an equilibrium or changes its draw set; each must be
   one of the artefact's events.  So nothing is born and dies between two samples unseen: an
   event deleted from the artefact (with its interval merged into its neighbour) fails here.
   This is the longest step (about 10 s for a range of width 1/500, a minute for (49/100, 1/2),
   about 70 CPU minutes for all of (0, 1/2]); ``quick`` (``baccara check --quick``) skips it, and
   the step then says that completeness was taken from the prover.

8. **What is shown.**  Every display float (each event's, each interval's ends, each
   equilibrium's (p1, p2)) must be its exact value rounded, and the artefact's ``statement`` the
   sentence derived from the verified steps (:func:`verify`, which also returns the theorem).
   With ``quick`` step 7 is marked skipped and the theorem says it was taken from the prover.

What it takes from the mathematics rather than recomputing: that the candidates listed are the
only forms an equilibrium can take (the classification of Ethier and Lee 2015, section 5, with
the cell points' changes counted at the along-curve candidates; see
:mod:`baccara.check.banque_events`).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from fractions import Fraction
from itertools import product

import flint

from ..processes import HERE, Workers
from . import Step
from .banque_deals import JOINT, game_steps
from .banque_events import _q, recompute_events, same_root
from .banque_interior import interior_equilibria, same_point
from .qf import QF, _box_feasible, _num, _sign, display_ok

KIND = "banque-nash"
VERSION = 1


# ---------------------------------------------------------------- the game, the checker's own
class _Game:
    """The checker's own coefficients: per joint u, each Player's base sum and per-set changes."""

    def __init__(self, table: dict) -> None:
        self.labels = sorted(table["gain"])
        self.base = table["base"]                               # [u][p]
        self.g = [table["gain"][k] for k in self.labels]        # [k][p][u]
        self.last_draw: list[str] = []


def _weights(p1, p2) -> list:
    """Probability of each joint pure strategy u = (u1, u2) when the Players draw at 5 with p1, p2."""
    return [(p1 if u1 else 1 - p1) * (p2 if u2 else 1 - p2) for u1, u2 in JOINT]


def _dot(ints, w):
    out = 0
    for c, x in zip(ints, w):
        if c:
            out = x * c + out
    return out


def certify(game: _Game, theta: Fraction, p1, p2, claimed: dict) -> tuple[bool, str, frozenset]:
    """Is (p1, p2, Banker: strict best reply off Z, ``claimed`` draw probabilities on Z) a Nash
    equilibrium at theta?  Returns (holds, why not, Z as computed here); the sets where Banker
    surely draws are left in ``game.last_draw``."""
    if not (0 <= float(p1) <= 1 and 0 <= float(p2) <= 1) or _sign(p1) < 0 or _sign(p2) < 0 \
            or _sign(1 - p1) < 0 or _sign(1 - p2) < 0:
        return False, "a draw probability outside [0, 1]", frozenset()
    w = _weights(p1, p2)
    Z, x = set(), {}
    for k, lab in enumerate(game.labels):
        g1, g2 = game.g[k]
        b = _dot([theta * a + (1 - theta) * c for a, c in zip(g1, g2)], w)
        s = _sign(b)
        if s == 0:
            Z.add(lab)
        elif s < 0:
            x[k] = 1
    game.last_draw = [game.labels[k] for k in x]
    if Z != set(claimed):
        return False, f"Banker indifferent at {sorted(Z)}, the artefact says {sorted(claimed)}", frozenset(Z)
    for k, lab in enumerate(game.labels):
        if lab in claimed:
            v = claimed[lab]
            if _sign(v) < 0 or _sign(1 - v) < 0:
                return False, f"Banker's draw probability at {lab} outside [0, 1]", frozenset(Z)
            x[k] = v
    # each Player's result per joint pure strategy, Banker playing x
    S = [[Fraction(game.base[u][p]) for u in range(4)] for p in (0, 1)]
    for k, xv in x.items():
        for p in (0, 1):
            row = game.g[k][p]
            S[p] = [s + xv * c if c else s for s, c in zip(S[p], row)]
    # Player 1's gain from drawing at 5: sum over u2 of P(u2) (S1[1, u2] - S1[0, u2])
    d1 = (1 - p2) * (S[0][2] - S[0][0]) + p2 * (S[0][3] - S[0][1])
    d2 = (1 - p1) * (S[1][1] - S[1][0]) + p1 * (S[1][3] - S[1][2])
    for who, p, d in (("Player 1", p1, d1), ("Player 2", p2, d2)):
        s = _sign(d)
        at0, at1 = _sign(p) == 0, _sign(1 - p) == 0
        if (at0 and s > 0) or (at1 and s < 0) or (not at0 and not at1 and s != 0):
            return False, f"{who} gains by deviating (his gain from drawing has sign {s})", frozenset(Z)
    return True, "", frozenset(Z)


def _digest(labels: list[str]) -> str:
    """The first 12 hex digits of the SHA-256 of the labels, sorted and joined by spaces."""
    return hashlib.sha256(" ".join(sorted(labels)).encode()).hexdigest()[:12]


# ---------------------------------------------------------------- equilibria with a pure Player
def boundary_equilibria(game: _Game, theta: Fraction, limit: int = 12) -> tuple[set, list[str]]:
    """Every (p1, p2) of a Nash equilibrium at theta in which some Player plays pure, found by
    the checker alone (module docstring, step 5); and any continuum or undecided point met."""
    t = theta
    Bu = [[t * a + (1 - t) * c for a, c in zip(*game.g[k])] for k in range(len(game.labels))]   # [k][u]
    G = game.g
    found: set = set()
    trouble: list[str] = []

    def S_of(D, p):
        out = [Fraction(game.base[u][p]) for u in range(4)]
        for k in D:
            out = [s + c for s, c in zip(out, G[k][p])]
        return out

    # corners
    for e1, e2 in product((0, 1), repeat=2):
        u = JOINT.index((e1, e2))
        Dc = [k for k in range(len(Bu)) if Bu[k][u] < 0]
        Z = [k for k in range(len(Bu)) if Bu[k][u] == 0 and (any(G[k][0]) or any(G[k][1]))]
        S1, S2 = S_of(Dc, 0), S_of(Dc, 1)
        # d1 = S1[(1, e2)] - S1[(0, e2)], d2 = S2[(e1, 1)] - S2[(e1, 0)], each plus x . rows
        i1, j1 = JOINT.index((1, e2)), JOINT.index((0, e2))
        i2, j2 = JOINT.index((e1, 1)), JOINT.index((e1, 0))
        r1 = [G[k][0][i1] - G[k][0][j1] for k in Z]
        r2 = [G[k][1][i2] - G[k][1][j2] for k in Z]
        c1, c2 = S1[i1] - S1[j1], S2[i2] - S2[j2]
        ge = []
        for e, r, c in ((e1, r1, c1), (e2, r2, c2)):
            ge.append(([Fraction(v) for v in r], -c) if e == 1 else ([Fraction(-v) for v in r], c))
        kept = [i for i in range(len(Z)) if any(row[i] for row, _ in ge)]
        if len(kept) > limit:
            trouble.append(f"corner ({e1}, {e2}): Banker indifferent at {len(kept)} sets that matter")
            continue
        ge = [([row[i] for i in kept], c) for row, c in ge]
        if _box_feasible([], ge, len(kept)):
            found.add((QF(e1).key(), QF(e2).key()))
    # edges: Player w pure at e, the other mixing
    for w, e in product((1, 2), (0, 1)):
        us = [JOINT.index((e, v) if w == 1 else (v, e)) for v in (0, 1)]     # the other's u = 0, 1
        lin = []            # B_k along the edge: Bu[u0] (1 - q) + Bu[u1] q, q the mixing Player's p
        for k in range(len(Bu)):
            a0, a1 = Bu[k][us[0]], Bu[k][us[1]]
            lin.append((a0, a1 - a0))
        roots = sorted({-a / b for a, b in lin if b != 0 and 0 < -a / b < 1})
        cuts = [Fraction(0)] + roots + [Fraction(1)]
        dev = [JOINT.index((1 - e, v) if w == 1 else (v, 1 - e)) for v in (0, 1)]  # the pure Player's deviation
        pw, pm = w - 1, 2 - w                                                        # payoff index: pure, mixing

        def gains(S, Zs, q, pw=pw, pm=pm, us=us, dev=dev):
            """(equality row for the mixing Player, >= row for the pure one) at q, Banker's other
            moves giving the sums S (per payoff index, per joint u)."""
            Sp, Sm = S[pw], S[pm]
            cm = Sm[us[1]] - Sm[us[0]]
            rm = [Fraction(G[k][pm][us[1]] - G[k][pm][us[0]]) for k in Zs]
            # the pure Player's gain from switching, mixed over the other's q
            cp = (1 - q) * (Sp[dev[0]] - Sp[us[0]]) + q * (Sp[dev[1]] - Sp[us[1]])
            rp = [(1 - q) * (G[k][pw][dev[0]] - G[k][pw][us[0]]) + q * (G[k][pw][dev[1]] - G[k][pw][us[1]])
                  for k in Zs]
            # he must not gain by switching: cp + rp . x <= 0
            return (rm, -cm), ([-v for v in rp], cp)

        everywhere = [k for k, (a, b) in enumerate(lin) if a == 0 and b == 0 and (any(G[k][0]) or any(G[k][1]))]
        if everywhere:
            trouble.append(f"edge p{w} = {e}: Banker indifferent all along it at {len(everywhere)} sets")
            continue
        # sweep q from 0 to 1: Banker's draw set changes only at the roots
        D = {k for k, (a, b) in enumerate(lin) if a < 0 or (a == 0 and b < 0)}
        S = [S_of(D, 0), S_of(D, 1)]
        by_root: dict[Fraction, list[int]] = {}
        for k, (a, b) in enumerate(lin):
            if b != 0 and 0 < -a / b < 1:
                by_root.setdefault(-a / b, []).append(k)
        for n, (lo_, hi_) in enumerate(zip(cuts, cuts[1:])):
            if n > 0:                                  # at the root lo_, then past it
                q = lo_
                grp = by_root[q]
                at_pt = [list(S[0]), list(S[1])]
                for k in grp:
                    if k in D:
                        for p in (0, 1):
                            at_pt[p] = [v - c for v, c in zip(at_pt[p], G[k][p])]
                Zs = [k for k in grp if any(G[k][0]) or any(G[k][1])]
                eqr, ger = gains(at_pt, Zs, q)
                kept = [i for i in range(len(Zs)) if eqr[0][i] or ger[0][i]]
                if len(kept) > limit:
                    trouble.append(f"edge p{w} = {e} at {q}: Banker indifferent at {len(kept)} sets that matter")
                elif _box_feasible([([eqr[0][i] for i in kept], eqr[1])], [([ger[0][i] for i in kept], ger[1])],
                                   len(kept)):
                    pt = (QF(e), QF(q)) if w == 1 else (QF(q), QF(e))
                    found.add((pt[0].key(), pt[1].key()))
                for k in grp:
                    sgn = -1 if lin[k][1] > 0 else 1          # leaves D (B turns positive) or enters it
                    (D.discard if sgn < 0 else D.add)(k)
                    for p in (0, 1):
                        S[p] = [v + sgn * c for v, c in zip(S[p], G[k][p])]
            # the open segment (lo_, hi_): Banker pure; the mixing Player's gain does not depend on q
            (rm, cm), _ = gains(S, [], lo_)
            if cm == 0:
                # indifferent all along; the pure Player's condition is linear in q
                ends = [gains(S, [], q)[1][1] for q in (lo_, hi_)]
                if ends[0] < 0 or ends[1] < 0 or (ends[0] == 0 and ends[1] == 0):
                    trouble.append(f"a continuum of equilibria on the edge p{w} = {e}, ({lo_}, {hi_})")
    return found, trouble


# ---------------------------------------------------------------- polynomials
def _sturm_count(f: flint.fmpq_poly, a: Fraction, b: Fraction) -> int:
    """Distinct real roots of f in (a, b] (Sturm's theorem, exact)."""
    f = flint.fmpq_poly(f)
    g = f.gcd(f.derivative())
    if g.degree() > 0:
        f = f // g
    seq = [f, f.derivative()]
    while seq[-1].degree() > 0:
        r = -(seq[-2] % seq[-1])
        if r == 0:
            break
        seq.append(r)

    def changes(x: Fraction) -> int:
        q = flint.fmpq(x.numerator, x.denominator)
        vals = [s(q) for s in seq]
        vals = [v for v in vals if v != 0]
        return sum((u > 0) != (v > 0) for u, v in zip(vals, vals[1:]))

    return changes(a) - changes(b)


# ---------------------------------------------------------------- the check
def _root_float(f: flint.fmpz_poly, a: Fraction, b: Fraction) -> float:
    """The float of the only root of ``f`` in [a, b] (a sign change there, or a = b a root), by exact bisection."""
    if a == b:
        return float(a)
    fa = f(_q(a))
    for _ in range(200):
        m = (a + b) / 2
        if b - a <= abs(m) * Fraction(1, 1 << 64) or b - a < Fraction(1, 1 << 1000):
            break
        fm = f(_q(m))
        if fm == 0:
            return float(m)
        if (fm > 0) == (fa > 0):
            a, fa = m, fm
        else:
            b = m
    return float((a + b) / 2)


def statement(lo: Fraction, hi: Fraction, ivs: list[tuple[float, float, int]], events: int, top: int) -> str:
    """The theorem in one sentence, from what was verified (the prover writes this sentence too).

    Parameters
    ----------
    lo, hi : Fraction
        The range (lo, hi] of theta.
    ivs : list of (float, float, int)
        Each interval's ends (display floats) and its number of Players' strategy pairs.
    events : int
        How many events.
    top : int
        The Players' strategy pairs at theta = hi.

    Returns
    -------
    str
        The sentence.
    """
    multi: list[tuple[float, float, int]] = []
    for a, b, k in ivs:
        if k > 1:
            if multi and multi[-1][1] == a:
                multi[-1] = (multi[-1][0], b, max(multi[-1][2], k))
            else:
                multi.append((a, b, k))
    regions = ", ".join(f"({a:.7f}, {b:.7f}) [up to {k}]" for a, b, k in multi) or "none"
    return (f"For every theta in ({lo}, {hi}] other than the {events} events (isolated algebraic "
            f"numbers, listed), the simplified banque game (Ethier and Lee 2015) has no continuum of Nash equilibria, "
            f"and on each interval between consecutive events every equilibrium keeps its form (the Players who play "
            f"pure, the sets where Banker is indifferent): the equilibria at the interval's sample are exactly those "
            f"listed.  The Players' equilibrium strategy is unique except on {len(multi)} region(s): {regions}; "
            f"at theta = {hi.numerator}/{hi.denominator} there are {top} Players' strategy pair(s).")


def _eq_json(e: dict) -> dict:
    return {"p1": e["p1"], "p2": e["p2"], "banker_indifferent": e["banker_indifferent"]}


def verify(doc: dict, quick: bool = False, workers: Workers = HERE) -> tuple[list[Step], dict | None]:
    """Re-check a ``banque-nash`` artefact and derive the theorem it proves (module docstring).

    Parameters
    ----------
    doc : dict
        The artefact, as loaded from JSON.
    quick, workers
        As in :func:`check`.

    Returns
    -------
    (list of Step, dict or None)
        The steps, and the theorem derived from them (None when a step fails).
    """
    steps = check(doc, quick, workers)
    if not steps or not all(s.ok for s in steps):
        return steps, None
    lo, hi = Fraction(doc["range"]["lo"]), Fraction(doc["range"]["hi"])
    events, intervals, points = doc["events"], doc["intervals"], doc["points"]
    # display floats: each event's, each interval's ends, each equilibrium's (p1, p2)
    bad = []
    floats = []
    for n, ev in enumerate(events):
        f = flint.fmpz_poly([int(c) for c in ev["polynomial"]])
        a, b = (Fraction(x) for x in ev["interval"])
        v = _root_float(f, a, b)
        floats.append(v)
        if not display_ok(ev.get("float"), Fraction(v)):
            bad.append(f"event {n}'s float")
    ends = [float(lo), *floats, float(hi)]
    for n, iv in enumerate(intervals):
        if iv.get("lo_float") != ends[n] and not display_ok(iv.get("lo_float"), Fraction(ends[n])):
            bad.append(f"interval {n}'s lo_float")
        if iv.get("hi_float") != ends[n + 1] and not display_ok(iv.get("hi_float"), Fraction(ends[n + 1])):
            bad.append(f"interval {n}'s hi_float")
    for where, eqs in [*((f"interval {n}", iv["equilibria"]) for n, iv in enumerate(intervals)),
                       *((f"theta = {pt['theta']}", pt["equilibria"]) for pt in points)]:
        for m, e in enumerate(eqs):
            fl = e.get("float")
            if not (isinstance(fl, list) and len(fl) == 2 and display_ok(fl[0], _num(e["p1"]))
                    and display_ok(fl[1], _num(e["p2"]))):
                bad.append(f"{where}, equilibrium {m}'s float")
    steps.append(Step("display floats", not bad, "every event's, interval end's and equilibrium's float is its "
                      "exact value, rounded" if not bad else f"not the exact value: {', '.join(bad[:3])}"))
    if len(points) != 1 or Fraction(points[0]["theta"]) != hi:
        steps.append(Step("statement", False, "the artefact must list its equilibria at the included end, "
                          f"theta = {hi}, and no other point"))
        return steps, None
    said = statement(lo, hi, [(iv["lo_float"], iv["hi_float"], int(iv["player_strategies"])) for iv in intervals],
                      len(events), int(points[0]["player_strategies"]))
    ok = doc.get("statement") == said
    steps.append(Step("statement", ok, "the artefact's statement is the theorem derived from the steps above"
                      if ok else f"the artefact's statement differs from the derived one: {said}"))
    if not all(s.ok for s in steps):
        return steps, None
    skipped = [s.name for s in steps if s.skipped]
    verified = {
        "kind": "banque-nash", "game": "baccara banque, simplified model (Ethier and Lee 2015, section 5)",
        "shoe": "infinite", "decks": "inf", "parameter": "theta (Player 1's share of the stakes)",
        "range": [str(lo), str(hi)], "lo_included": False, "hi_included": True,
        "claim": "no continuum of Nash equilibria; between consecutive events each equilibrium keeps its form, "
                 "and the equilibria at each interval's sample are exactly those listed",
        "exceptions": [{"polynomial": ev["polynomial"], "interval": ev["interval"], "float": v}
                       for ev, v in zip(events, floats)],
        "equilibria": [{"from": ends[n], "to": ends[n + 1], "sample": iv["sample"],
                        "player_strategies": int(iv["player_strategies"]),
                        "equilibria": [_eq_json(e) for e in iv["equilibria"]]} for n, iv in enumerate(intervals)],
        "at_hi": {"theta": points[0]["theta"], "player_strategies": int(points[0]["player_strategies"]),
                  "equilibria": [_eq_json(e) for e in points[0]["equilibria"]]},
        "statement": said,
    }
    if skipped:
        verified["taken_from_prover"] = [f"{name} (skipped by --quick): that no equilibrium is born and dies "
                                         "between two samples" for name in skipped]
    return steps, verified


def check(doc: dict, quick: bool = False, workers: Workers = HERE) -> list[Step]:
    """Re-check a ``banque-nash`` artefact (module docstring).

    Parameters
    ----------
    doc : dict
        The artefact, as loaded from JSON.
    quick : bool
        Skip step 7, the recomputation of the events (the longest: about 30 s for a range of
        width 1/200, about 70 CPU minutes for all of (0, 1/2]); the report then says so.
    workers : Workers
        Processes for step 7.

    Returns
    -------
    list of Step
        Every claim re-checked, in order.
    """
    steps, own = game_steps(doc, VERSION)
    if own is None:
        return steps
    game = _Game(own)

    lo, hi = Fraction(doc["range"]["lo"]), Fraction(doc["range"]["hi"])
    events = doc["events"]
    # events: isolated roots, disjoint, ascending, inside the range
    prev = lo
    ev_ok = True
    for n, ev in enumerate(events):
        f = flint.fmpz_poly([int(c) for c in ev["polynomial"]])
        a, b = (Fraction(x) for x in ev["interval"])
        if a == b:
            ok = f.degree() >= 1 and f(_q(a)) == 0
        else:
            fa, fb = f(_q(a)), f(_q(b))
            ok = a < b and fa * fb < 0 and _sturm_count(flint.fmpq_poly(f), a, b) == 1
        ordered = prev < a if n > 0 or a == b else prev <= a
        if not (ok and ordered and b < hi and a > lo):
            ev_ok = False
            steps.append(Step(f"event {n}", False, f"near {ev.get('float')}: not a root isolated in its interval "
                              "inside the range, after the previous event"))
        prev = b
    steps.append(Step("events", ev_ok, f"{len(events)} events, each the only real root of its polynomial in its "
                      "interval, the intervals disjoint and ascending in the range"))
    intervals = doc["intervals"]
    if len(intervals) != len(events) + 1:
        steps.append(Step("intervals cover the range", False, f"{len(intervals)} intervals for {len(events)} events"))
        return steps
    ends = [(lo, lo)] + [tuple(Fraction(x) for x in ev["interval"]) for ev in events] + [(hi, hi)]
    cover = []
    for n, iv in enumerate(intervals):
        s = Fraction(iv["sample"])
        if not (ends[n][1] < s < ends[n + 1][0]):
            cover.append(n)
    steps.append(Step("intervals cover the range", not cover,
                      f"{len(intervals)} intervals, each sample strictly between its events" if not cover
                      else f"samples outside their intervals: {cover[:5]}"))

    def check_set(name: str, theta: Fraction, eqs: list, count: int, boundary: bool) -> list:
        forms = []
        bad = []
        pts = set()
        for m, e in enumerate(eqs):
            p1, p2 = _num(e["p1"]), _num(e["p2"])
            claimed = {k: _num(v) for k, v in e["banker_indifferent"].items()}
            ok, why, Z = certify(game, theta, p1, p2, claimed)
            if not ok:
                bad.append(f"equilibrium {m}: {why}")
            pure = [f"p{w}={int(p.a)}" for w, p in ((1, p1), (2, p2)) if p.b == 0 and p.a in (0, 1)]
            forms.append(("; ".join(pure) or "both mix") + " | Z=" + ",".join(sorted(Z))
                         + " | D=" + _digest(game.last_draw))
            pts.add((p1.key(), p2.key()))
        if len(pts) != count:
            bad.append(f"{len(pts)} distinct Players' strategies, the artefact says {count}")
        steps.append(Step(f"{name}: equilibria", not bad, f"{len(eqs)} extreme equilibria certified exactly"
                          if not bad else "; ".join(bad[:3])))
        if boundary:
            mine, trouble = boundary_equilibria(game, theta)
            theirs = {pt for pt in pts if any(QF(v).key() in (pt[0], pt[1]) for v in (0, 1))}
            ok = not trouble and mine == theirs
            detail = (f"{len(mine)} with a pure Player, found by the checker alone" if ok else
                      "; ".join(trouble[:2]) or f"the checker finds {len(mine)} with a pure Player, the artefact "
                      f"{len(theirs)} (missing {len(mine - theirs)}, extra {len(theirs - mine)})")
            inner, undecided = interior_equilibria(game, theta)
            if undecided:
                # only the pure-Player part is re-derived at this theta; say what was not
                steps.append(Step(f"{name}: equilibria with a pure Player complete", ok,
                                  detail + "; those with both Players mixing not re-enumerated here: "
                                  + "; ".join(sorted(set(undecided))[:2])))
                return forms
            listed = [(_num(e["p1"]), _num(e["p2"])) for e in eqs]
            mixing: list[tuple] = []
            for pt in listed:
                if all(_sign(v) > 0 and _sign(1 - v) > 0 for v in pt) and not any(same_point(pt, q) for q in mixing):
                    mixing.append(pt)
            missing = [q for q in inner if not any(same_point(q, pt) for pt in mixing)]
            extra = [pt for pt in mixing if not any(same_point(pt, q) for q in inner)]
            ok = ok and not missing and not extra
            steps.append(Step(f"{name}: every equilibrium found by the checker alone", ok,
                              f"{len(mine)} with a pure Player and {len(inner)} with both mixing, as listed" if ok else
                              detail + (f"; with both mixing the checker finds {len(inner)}, the artefact lists "
                                        f"{len(mixing)} (missing {len(missing)}, extra {len(extra)})")))
        return forms

    all_forms = []
    for n, iv in enumerate(intervals):
        all_forms.append(check_set(f"interval {n} (theta = {iv['sample']})", Fraction(iv["sample"]),
                                   iv["equilibria"], iv["player_strategies"], True))
    for pt in doc.get("points", []):
        th = Fraction(pt["theta"])
        if not (lo < th <= hi):
            steps.append(Step(f"point {pt['theta']}", False, "outside the range"))
        check_set(f"point theta = {pt['theta']}", th, pt["equilibria"], pt["player_strategies"], True)
    book = []
    silent = 0
    for n, ev in enumerate(events):
        silent += not ev["appear"] and not ev["disappear"]
        left, right = Counter(all_forms[n]), Counter(all_forms[n + 1])
        expect = left - Counter(ev["disappear"]) + Counter(ev["appear"])
        if expect != right or (Counter(ev["disappear"]) - left):
            book.append(n)
    steps.append(Step("forms across events", not book, "each interval's forms are its predecessor's, less those "
                      f"that disappear at the event between, plus those that appear ({silent} events change no form)"
                      if not book else
                      f"inconsistent at events {book[:5]}"))
    steps.append(events_step(game, lo, hi, events, quick, workers))
    return steps


def events_step(game: _Game, lo: Fraction, hi: Fraction, events: list, quick: bool = False,
                workers: Workers = HERE) -> Step:
    """Step 7: every theta where a candidate equilibrium starts or stops, recomputed by the
    checker (:mod:`baccara.check.banque_events`), must be one of the artefact's events.

    Parameters
    ----------
    game : _Game
        The checker's own coefficients.
    lo, hi : Fraction
        The artefact's range.
    events : list
        The artefact's events (already checked to be isolated roots, step 2).
    quick : bool
        Do not recompute; the step then holds and says that completeness was not re-derived.
    workers : Workers
        Processes to share the recomputation among.

    Returns
    -------
    Step
        The step.
    """
    name = "events complete"
    if quick:
        return Step(name, True, "not recomputed (quick check): that no equilibrium is born and dies between "
                    "two samples is taken from the prover", skipped=True)
    theirs = [(flint.fmpz_poly([int(c) for c in ev["polynomial"]]), Fraction(ev["interval"][0]),
               Fraction(ev["interval"][1])) for ev in events]
    rep = recompute_events(game, lo, hi, workers=workers)
    missing, used = [], set()
    for r, form in rep.events:
        hit = [n for n, (f, a, b) in enumerate(theirs) if same_root(r, f, a, b)]
        used.update(hit)
        if not hit:
            missing.append(f"{float(r):.10f} ({form})")
    ok = not missing and not rep.trouble
    c = rep.counts
    if ok:
        detail = (f"recomputed by the checker: {len(rep.events)} changes of {len({f for _, f in rep.events})} "
                  f"candidates, all at the artefact's events ({len(used)} of {len(theirs)} met; "
                  f"{c.get('crossings', 0)} crossings, {c.get('edge points', 0)} edge points, "
                  f"{c.get('along-curve candidates', 0)} along-curve candidates)")
    else:
        detail = "; ".join(rep.trouble[:2] + [f"a change at {m}, no event of the artefact" for m in missing[:3]])
    return Step(name, ok, detail)
