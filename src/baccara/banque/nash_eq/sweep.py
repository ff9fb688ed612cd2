"""The Nash equilibria of baccara banque for every theta, exactly (Ethier and Lee 2015, section 5).

Above theta = 5772/33847 the Players play p1 = p2 = 9/11 and only Banker's
strategy moves (:func:`baccara.banque.nash_eq.solution.nash_upper_sweep`).  Below
it Ethier and Lee (2015) follows one equilibrium by hand through 62 more intervals, "of
two types: Banker mixes on two information sets (40 cases), or Banker mixes
on one information set and p1 = 0 (22 cases)".  This module follows *every*
equilibrium, each step exact.

Branches
--------
An equilibrium keeps a *form* over a range of theta: the sets Z where Banker
mixes, the sets where he draws, and which Player (if any) plays a pure
strategy.  Its point (p1, p2) solves two equations (a
:class:`~baccara.solve.moving.MovingPoint`): the pure Players' p = e,
Banker's indifference B_z = 0 at each z in Z, and, when fewer sets mix than
Players do, the Players' indifference with Banker's mixing eliminated.  So

- two mixed sets, both Players mixing: two curves cross;
- one mixed set, one Player pure: a curve meets an edge (p1 = 0 in the paper);
- one mixed set, both Players mixing: a curve meets A1 B2 - A2 B1 = 0 (the
  form the paper does not list; it appears in the folds below);
- no mixed set: both Players' indifference (a fixed point), or a corner.

Banker's draw probabilities at Z make the mixing Players indifferent
(Cramer's rule).  The form is an equilibrium while every *condition* keeps
its sign: every other B_k at the point (Banker's best response), 0 < p < 1
for a mixing Player, 0 < x < 1 at Z, a pure Player's preference, and the
branch's own discriminant and leading coefficients.  Each condition's
eliminant is an integer polynomial in theta; the branch ends at the nearest
root where the condition's exact sign changes.

Every equilibrium, every theta
------------------------------
:func:`nash_branches` samples each elementary interval between the branch
ends found so far once, with the complete enumeration
:func:`~baccara.banque.nash_eq.solution.nash_equilibria`, and follows every
equilibrium found there that no known branch explains, both ways, until every
elementary interval has been sampled.  On each elementary interval the set of
equilibria is then the set of branches covering it.  A branch born and dying
inside one elementary interval, away from its sample, would be missed by the
branch ends alone (one was: three equilibria on (0.0924720, 0.0941281)), so the
interval ends also include every *event* of
:mod:`~baccara.banque.nash_eq.proof` (stored, 69 of them): the theta where
some candidate form starts or stops being an equilibrium.  Between consecutive
events every form is an equilibrium throughout or nowhere, so the one sample
sees every equilibrium of the interval.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import flint

from ...algebraic import fraction_str as fstr
from ...algebraic import real_json
from ...errors import BaccaraError
from ...solve.moving import ONE, P1, P2, ZERO, MovingPoint, branch_ends, in_theta
from ...solve.roots import Endpoint, arb_of, precision, rational_between_balls, rationals_around
from ..model import banque_game, infoset_label
from .events import THETA_9_11, stored_events
from .solution import NINE_ELEVENTHS, BanqueNashEquilibrium, nash_equilibria, nash_upper_sweep


@dataclass(frozen=True)
class NashForm:
    """One branch's form (module docstring): Banker mixes at ``mixed``, draws at ``draw``;
    ``pure``: ((Player, his p: 0 or 1), ...) for the Players who do not mix."""

    mixed: tuple[int, ...]
    draw: frozenset
    pure: tuple[tuple[int, int], ...]

    @property
    def free(self) -> tuple[int, ...]:
        return tuple(w for w in (1, 2) if w not in dict(self.pure))

    @property
    def kind(self) -> str:
        where = ", ".join(f"p{w} = {e}" for w, e in self.pure) or "both Players mix"
        return f"Banker mixes at {len(self.mixed)} set{'s' if len(self.mixed) != 1 else ''}; {where}"

    def _gains(self) -> tuple:
        """(a, e): Delta_w = a[w] + sum_z x_z e[w][z], Banker drawing at ``draw``."""
        P = banque_game().polys
        a1 = P.b1 + sum((P.e1[k] for k in self.draw), ZERO)
        a2 = P.b2 + sum((P.e2[k] for k in self.draw), ZERO)
        return {1: a1, 2: a2}, {1: P.e1, 2: P.e2}

    def equations(self) -> list:
        """The pure Players' p = e, Banker's indifference B_z = 0 at each mixed set, and the
        free Players' indifference beyond what Banker's mixing absorbs."""
        B = banque_game().polys.B
        a, e = self._gains()
        eqs = [(P1 if w == 1 else P2) - e_ * ONE for w, e_ in self.pure] + [B[z] for z in self.mixed]
        free, m = self.free, len(self.mixed)
        if m == 0:
            eqs += [a[w] for w in free]
        elif m == 1 and len(free) == 2:      # a1 + x e1 = 0 = a2 + x e2: eliminate x
            z = self.mixed[0]
            eqs.append(a[1] * e[2][z] - a[2] * e[1][z])
        if len(eqs) != 2 or m > len(free):
            raise BaccaraError(f"a form with {m} mixed sets and {len(free)} mixing Players is not followed")
        return eqs

    def draw_probabilities(self) -> list[tuple]:
        """Banker's draw probability at each mixed set as (numerator, denominator): the free
        Players' indifference, by Cramer's rule."""
        a, e = self._gains()
        Z, free = self.mixed, self.free
        if len(Z) == 1:
            z = Z[0]
            w = next((w for w in free if not e[w][z].is_zero()), free[0])
            return [(-a[w], e[w][z])]
        if len(Z) == 2:
            (i, j), (f, g) = Z, free
            den = e[f][i] * e[g][j] - e[f][j] * e[g][i]
            return [(-a[f] * e[g][j] + a[g] * e[f][j], den), (-a[g] * e[f][i] + a[f] * e[g][i], den)]
        return []

    def conditions(self) -> list[tuple[str, flint.fmpz_mpoly]]:
        """(label, polynomial in p1, p2, t): the conditions whose signs hold along the branch."""
        B = banque_game().polys.B
        a, e = self._gains()
        g = banque_game()
        out = [(f"Banker at {infoset_label(g.infosets[k])}", B[k]) for k in range(len(B))
               if k not in self.mixed and not B[k].is_zero()]
        xs = self.draw_probabilities()
        for z, (num, den) in zip(self.mixed, xs):
            lab = infoset_label(g.infosets[z])
            out += [(f"x{lab}: denominator", den), (f"x{lab} > 0", num), (f"x{lab} < 1", den - num)]
        for w in self.free:
            pw = P1 if w == 1 else P2
            out += [(f"p{w} > 0", pw), (f"p{w} < 1", ONE - pw)]
        den = xs[0][1] if xs else ONE          # the x's share one denominator
        for w, e_ in self.pure:                # Delta_w times that denominator
            pref = a[w] * den + sum((num * e[w][z] for z, (num, _) in zip(self.mixed, xs)), ZERO)
            out.append((f"Player {w} keeps p{w} = {e_}", pref))
        return [c for c in out if not c[1].is_constant()]


@dataclass
class NashBranch:
    """One equilibrium followed over theta: its form holds on (lo, hi); ``sample`` is the
    rational where the complete enumeration found it (``equilibrium`` there)."""

    form: NashForm
    locus: MovingPoint
    lo: Endpoint
    hi: Endpoint
    lo_reason: str
    hi_reason: str
    sample: Fraction
    equilibrium: BanqueNashEquilibrium
    extreme_equilibria: int

    def covers(self, theta: Fraction) -> bool:
        t = arb_of(Fraction(theta))
        return bool(self.lo.ball < t) and bool(t < self.hi.ball)


@dataclass
class NashPiece:
    """An elementary interval: no branch begins or ends inside it.  ``branches`` indexes
    the equilibria present on it (one, except where several coexist)."""

    lo: Endpoint
    hi: Endpoint
    branches: tuple[int, ...]
    upper: dict | None = None      # for theta > 5772/33847: p1 = p2 = 9/11 and Banker's sets


@dataclass
class NashSweep:
    branches: list[NashBranch] = field(default_factory=list)
    pieces: list[NashPiece] = field(default_factory=list)       # left to right

    def players_jumps(self, margin: float = 1e-9) -> list[Endpoint]:
        """Ends where the Players' strategies jump: a unique equilibrium on each side, and
        (p1, p2) differ just left and just right of the end."""
        out = []
        for a, b in zip(self.pieces, self.pieces[1:]):
            if len(a.branches) != 1 or len(b.branches) != 1:
                continue
            x, y = rationals_around(a.hi.ball)
            pa = self.branches[a.branches[0]].locus.at(x) if a.upper is None else (Fraction(9, 11),) * 2
            pb = self.branches[b.branches[0]].locus.at(y) if b.upper is None else (Fraction(9, 11),) * 2
            if max(abs(float(u) - float(v)) for u, v in zip(pa, pb)) > margin:
                out.append(a.hi)
        return out

    def path(self) -> list[tuple[int, Endpoint, Endpoint]]:
        """One equilibrium followed from 5772/33847 leftwards, as Ethier and Lee (2015) does: stay on the
        current branch while it lasts; where it ends, take the branch present just left
        of the end whose point is nearest.  (branch, lo, hi) segments, left to right."""
        lower = [p for p in self.pieces if p.upper is None]
        segs: list[list] = []
        for piece in reversed(lower):
            if segs and segs[-1][0] in piece.branches:
                segs[-1][1] = piece.lo
                continue
            if not segs:
                (k,) = piece.branches
            else:
                x, y = rationals_around(piece.hi.ball)
                here = self.branches[segs[-1][0]].locus.at(y)
                k = min(piece.branches, key=lambda b: max(abs(float(u) - float(v)) for u, v in
                                                          zip(self.branches[b].locus.at(x), here)))
            segs.append([k, piece.lo, piece.hi])
        return [tuple(s) for s in reversed(segs)]

    def path_jumps(self, margin: float = 1e-9) -> list[Endpoint]:
        """Ends along :meth:`path` where the Players' strategies jump."""
        out, path = [], self.path()
        for (a, _, end), (b, _, _) in zip(path, path[1:]):
            x, y = rationals_around(end.ball)
            pa, pb = self.branches[a].locus.at(x), self.branches[b].locus.at(y)
            if max(abs(float(u) - float(v)) for u, v in zip(pa, pb)) > margin:
                out.append(end)
        return out

    def multiple(self) -> list[NashPiece]:
        """The pieces on which several Nash equilibria coexist."""
        return [p for p in self.pieces if len(p.branches) > 1]


def forms_at(theta: Fraction) -> list[tuple[NashForm, MovingPoint, BanqueNashEquilibrium, int]]:
    """Every equilibrium at ``theta`` (complete enumeration) with its form and moving point:
    (form, point, an extreme equilibrium there, the number of extreme equilibria there)."""
    theta = Fraction(theta)
    sol = nash_equilibria(banque_game(), theta)
    if sol.continua:
        raise BaccaraError(f"theta = {theta}: a continuum of equilibria ({sol.continua}); not followed")
    out = []
    for p1, p2, Z in sol.points:
        eqs = [e for e in sol.equilibria if (e.p1, e.p2) == (p1, p2)]
        if len({tuple(e.draw) for e in eqs}) != 1:
            raise BaccaraError(f"theta = {theta}: Banker's behavioural strategy at ({float(p1)}, {float(p2)}) "
                               "is not unique; not followed")
        eq = eqs[0]
        draw = frozenset(i for i, x in enumerate(eq.draw) if x == 1 and i not in Z)
        pure = tuple((w, int(p)) for w, p in ((1, p1), (2, p2)) if p in (0, 1))
        form = NashForm(tuple(sorted(Z)), draw, pure)
        e1, e2 = form.equations()  # two equations in (p1, p2)
        locus = MovingPoint.through(e1, e2, p1, theta)
        if locus.at(theta) != (p1, p2):
            raise ArithmeticError(f"theta = {theta}: the form does not reproduce the equilibrium")
        out.append((form, locus, eq, len(eqs)))
    return out


def branch_through(theta: Fraction, form: NashForm, locus: MovingPoint, eq: BanqueNashEquilibrium, n_ext: int,
                   lo: Fraction, hi: Fraction) -> NashBranch:
    """Follow the equilibrium of ``form`` from ``theta`` both ways to its first genuine
    events, within (lo, hi)."""
    conditions = form.conditions() + locus.branch_conditions()
    (left, why_l), (right, why_r) = branch_ends(locus, conditions, theta, lo, hi)
    return NashBranch(form, locus, left, right, why_l, why_r, Fraction(theta), eq, n_ext)


def _distinct(ends: list[Endpoint]) -> list[Endpoint]:
    out: list[Endpoint] = []
    for e in sorted(ends, key=lambda e: float(e)):
        if not out or not out[-1].same(e):
            out.append(e)
    return out


def nash_branches(lo: Fraction = Fraction(0), hi: Fraction = THETA_9_11,
                  progress: Callable[[int, int], None] | None = None,
                  events: list[Endpoint] | None = None) -> tuple[list[NashBranch], list[NashPiece]]:
    """Every Nash equilibrium branch over (lo, hi) and the elementary intervals between
    their ends (module docstring): each elementary interval is sampled once with the
    complete enumeration, and every equilibrium found there that no known branch
    explains is followed both ways, until no interval is left unsampled.  ``events``
    (:func:`~baccara.banque.nash_eq.proof.nash_proof`): the theta where some form's
    equilibrium set changes; with them among the interval ends, no branch can be born
    and die between two samples.  By default, the proof's stored events of
    (0, 5772/33847) (:func:`~baccara.banque.nash_eq.events.stored_events`); ``[]`` samples
    the branch ends only."""
    lo, hi = Fraction(lo), Fraction(hi)
    lo_b, hi_b = arb_of(lo), arb_of(hi)
    if events is None:
        events = stored_events()
    fixed = [e for e in events if lo_b < e.ball < hi_b]
    with precision():
        branches: list[NashBranch] = []
        samples: list[Fraction] = []
        while True:
            ends = _distinct([Endpoint.of_rational(lo), Endpoint.of_rational(hi)] + fixed
                             + [b.lo for b in branches] + [b.hi for b in branches])
            gaps = [(a, b) for a, b in zip(ends, ends[1:])
                    if not any(a.ball < arb_of(t) < b.ball for t in samples)]
            if progress:
                progress(len(ends) - 1 - len(gaps), len(ends) - 1)
            if not gaps:
                break
            theta = rational_between_balls(gaps[0][0].ball, gaps[0][1].ball)
            samples.append(theta)
            for form, locus, eq, n_ext in forms_at(theta):
                point = locus.at(theta)
                if any(b.covers(theta) and b.locus.at(theta) == point for b in branches):
                    continue
                branches.append(branch_through(theta, form, locus, eq, n_ext, lo, hi))
        pieces = []
        for a, b in zip(ends, ends[1:]):
            t = next(t for t in samples if a.ball < arb_of(t) < b.ball)
            pieces.append(NashPiece(a, b, tuple(k for k, br in enumerate(branches) if br.covers(t))))
        return branches, pieces


def nash_sweep(progress: Callable[[int, int], None] | None = None) -> NashSweep:
    """Every Nash equilibrium of (0, 1/2], exactly: the branches below 5772/33847, then the
    intervals with p1 = p2 = 9/11 (:func:`~baccara.banque.nash_eq.solution.nash_upper_sweep`),
    each sampled once by the complete enumeration to show no other equilibrium is there."""
    branches, pieces = nash_branches(progress=progress)
    upper = nash_upper_sweep()
    if Fraction(upper["range"][0]) != THETA_9_11:
        raise ArithmeticError("the 9/11 region does not begin at 5772/33847")
    done = len(pieces)
    for row in upper["intervals"]:
        a, b = Fraction(row["from"]["exact"]), Fraction(row["to"]["exact"])
        sol = nash_equilibria(banque_game(), (a + b) / 2)
        if sol.player_strategies != [(NINE_ELEVENTHS, NINE_ELEVENTHS)] or sol.continua:
            raise ArithmeticError(f"another Nash equilibrium on ({float(a)}, {float(b)}) besides 9/11")
        row = {**row, "sample_theta": fstr((a + b) / 2), "extreme_equilibria": len(sol.equilibria)}
        pieces.append(NashPiece(Endpoint.of_rational(a), Endpoint.of_rational(b), (), row))
        if progress:
            progress(len(pieces), done + len(upper["intervals"]))
    return NashSweep(branches, pieces)


def branch_json(br: NashBranch) -> dict:
    g = banque_game()
    p1, p2 = br.locus.at(br.sample)
    eq = br.equilibrium
    k0, k1, k2 = br.locus.k_coeffs()
    return {
        "from": br.lo.to_json(), "to": br.hi.to_json(),
        "form": br.form.kind,
        "banker_mixes_at": [infoset_label(g.infosets[i]) for i in br.form.mixed],
        "pure_players": {f"p{w}": e for w, e in br.form.pure},
        "p1_solves": {"K2 p1^2 + K1 p1 + K0 = 0, K in theta (coefficients ascending)":
                      [[int(c) for c in in_theta(k).coeffs()] for k in (k0, k1, k2)],
                      "branch": br.locus.branch},
        "sample_theta": fstr(br.sample),
        "at_sample": {"p1": real_json(p1), "p2": real_json(p2),
                      "banker_draw": {infoset_label(g.infosets[i]): real_json(eq.draw[i]) for i in br.form.mixed},
                      "player1_per_unit_bet": real_json(eq.result1), "player2_per_unit_bet": real_json(eq.result2),
                      "banker_per_unit_total_stake": real_json(eq.banker),
                      "extreme_equilibria": br.extreme_equilibria},
        "left_end": br.lo_reason or None, "right_end": br.hi_reason or None,
    }


def nash_sweep_json(sw: NashSweep) -> dict:
    """``baccara banque sweep --concept nash --json``: the elementary intervals of (0, 1/2]
    left to right, each naming the branches (equilibria) present on it."""
    intervals = []
    for p in sw.pieces:
        row: dict[str, Any] = {"from": p.lo.to_json(), "to": p.hi.to_json()}
        if p.upper is not None:
            row.update({"equilibria": 1, "p1": "9/11", "p2": "9/11",
                        "banker_indifferent_at": p.upper["banker_indifferent_at"],
                        "sample_theta": p.upper["sample_theta"],
                        "extreme_equilibria": p.upper["extreme_equilibria"]})
        else:
            row.update({"equilibria": len(p.branches), "branches": list(p.branches)})
        intervals.append(row)
    return {
        "concept": "nash", "model": "simplified",
        "count": len(intervals),
        "discontinuities": len(intervals) - 1,
        "discontinuities_are": "interval ends: where Banker's strategy (and the set of equilibria) changes",
        "players_discontinuities": [e.to_json() for e in sw.players_jumps()],
        "path": {"definition": "one equilibrium followed from 5772/33847 leftwards, as Ethier and Lee (2015) does",
                 "intervals": len(sw.path()), "players_jumps": [e.to_json() for e in sw.path_jumps()]},
        "multiple_equilibria": [{"from": p.lo.to_json(), "to": p.hi.to_json(), "equilibria": len(p.branches)}
                                for p in sw.multiple()],
        "branches": [branch_json(b) for b in sw.branches],
        "intervals": intervals,
    }
