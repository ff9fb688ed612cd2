"""The independent cooperative lower value on the sweep's first interval, down to theta = 0: a blow-up.

:func:`~baccara.banque.independent_eq.interval.prove_interval` proves the lower value
for every theta of a sweep interval by closing theta-boxes.  On the first interval,
(0, 0.0172597...), no box touching 0 closes, and the reason is structural (Ethier and
Lee 2015, section 4, with V_theta(p) = A + sum_k min(0, B_k) and B_k = theta R1^k +
(1 - theta) R2^k):

*At theta = 0, V does not depend on p1.*  Player 1's stake is 0, so only R2 counts, and
Banker's information about Player 1's hand only splits Player 2's results among sets whose
probabilities add up to 1.  V_0 is largest on the whole segment p2 = c (c = 9/11), where the
curve of the interval's form, B_(9,10,6) = 0, lies at theta = 0; for small theta every point
of that segment comes within O(theta) of the maximum, on every theta-box that touches 0.

The blow-up
-----------
Write p2 = c + theta u.  The sets whose R2 vanishes on the whole segment (the *line sets*:
the form's curve, and the sets where Player 2 has a natural, whose B does not involve
theta's complement at all) have B_k = theta beta_k, and every other set (*far*) has one sign
on a strip |p2 - c| <= eps T for theta in [0, eps] (checked exactly at the corners of that
box: B_k is multilinear in p1, p2 and theta).  Each bilinear G_theta = theta G1 + (1 - theta)
G2 with G2 constant (= g) on the segment satisfies, exactly,

    (G_theta(p1, c + theta u) - g) / theta = theta (G1(p1, c) - g + u dG1/dp2)
                                             + (1 - theta) (G1(p1, c) - g + u dG2/dp2),

again of the form theta X + (1 - theta) Y with X, Y bilinear in (p1, u).  So on the strip
V_theta = V_0* + theta W_theta, where W has the banque form exactly (A the constant part and
the far sets where Banker draws; B the line sets' beta), with u = T (2 s - 1) for s in [0, 1]:
a game on the unit square (:class:`ScaledGame`) that is *not* degenerate at theta = 0 (its
maximiser at theta = 0 is isolated, on p1 = 0).  The interval prover runs on it unchanged,
over (0, eps).

*Off the strip.*  For fixed theta and p1, V is concave in p2 (linear plus a sum of minima of
linear functions).  If its right derivative at the strip's top (s = 1) is negative and its
left derivative at the bottom (s = 0) positive, for every p1 in [0, 1] and theta in [0, eps],
its maximum over p2 in [0, 1] lies in the strip.  On the strip's edges the derivative in s is
that of W: A's and those of the line sets that have one sign there, multilinear in
(theta, p1), so its sign is decided at the four corners; a line set that may change sign on
an edge fails the check (the line sets whose beta does not involve u contribute nothing).

So for every theta in (0, eps) the lower value is V_0* + theta W_theta(q_F(theta)), q_F the
moving point of W's form; that point is p1 = 0 on the form's curve, the same moving point
p_F as the original form's, so the lower value there is V at p_F, as on (eps, 0.0172597...),
where :func:`~baccara.banque.independent_eq.interval.prove_interval` runs on the game
itself.  :func:`prove_first_interval` does both.

Status
------
The whole first interval, (0, 0.0172597...), is proved in 14 CPU s: blown up on (0, 1/70) (the
widest range the conditions allow: at 1/60 Banker's move at (4,8,3) changes on the strip), the
plain prover on (1/70, 0.0172597...).  The blown-up game's own exact maximiser agrees with the
game's at rationals down to 10^-6 (tests), and below about 10^-10, where the float solver sees
all twelve (j,10,6) curves through the maximiser, the exact one still finds the one form.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from math import lcm
from typing import cast

from ...errors import BaccaraError, ParameterError
from ...solve.arrangement import at as _val
from ...solve.roots import Endpoint, rational_between_balls
from ..model import INFOSETS, JOINT, BanqueGame, BanquePolys, banque_game, infoset_label, polys_of
from .interval import IntervalProof, _form_label, _outer, _prove, prove_interval
from .proof import exact_signature
from .solution import _maximise

#: The strip's half-width in u = (p2 - c) / theta: the line sets' curves lie within
#: u in (-0.28, 1.35) at theta = 0.
HALF_WIDTH = Fraction(2)
#: The blown-up range tried first, (0, EPS), halved until the strip's conditions hold.  The
#: wider the faster (the plain prover does the rest): 1/70 holds, 1/60 does not (Banker's move
#: at (4,8,3) changes on the strip).  The first interval: 14 CPU s at 1/70, 20 s at 1/100.
EPS = Fraction(1, 70)


class _NoSegment(BaccaraError):
    """The form's curve is no segment p2 = c of the kind the blow-up needs (whatever eps)."""


@dataclass(frozen=True, eq=False)
class ScaledGame:
    """The blown-up game W_theta(p1, s) = (V_theta(p1, c + theta T (2 s - 1)) - V_0*) / theta
    on the unit square, for theta in (0, ``eps``]: integer bilinears like
    :attr:`BanqueGame.bilinears`, ``scale`` times those of the game's integer units (its
    bilinears, before its denominator); :meth:`a` and :meth:`h` are in the same units.

    ``line``: the sets kept (the others are folded into A: ``far_draws`` where Banker
    draws throughout the strip); ``v0``: V_0*, V on the segment p2 = c at theta = 0 (the same at
    every p1), in the game's integer units: only a constant here, nothing assumes it is the maximum.
    """

    c: Fraction
    half_width: Fraction
    eps: Fraction
    bilinears: tuple
    scale: int
    line: tuple[int, ...]
    far_draws: tuple[int, ...]
    v0: Fraction

    @property
    def infosets(self) -> tuple[tuple[int, int, int], ...]:
        """The paper's information sets (the far ones carry zero coefficients here)."""
        return INFOSETS

    @cached_property
    def polys(self) -> BanquePolys:
        """The blown-up game as polynomials in (p1, s, theta)."""
        return polys_of(self.bilinears)

    def _joint(self, x: tuple, y: tuple, theta: Fraction) -> tuple[Fraction, ...]:
        return tuple(theta * _val(x, u1, u2) + (1 - theta) * _val(y, u1, u2) for u1, u2 in JOINT)

    def a(self, theta: Fraction) -> tuple[Fraction, ...]:
        """A at theta, per joint pure strategy (p1 and s at 0 or 1).

        Parameters
        ----------
        theta : Fraction
            Player 1's share of the stakes.

        Returns
        -------
        tuple of Fraction
            One per joint pure strategy.
        """
        x, y, _, _ = self.bilinears
        return self._joint(x, y, Fraction(theta))

    def h(self, theta: Fraction) -> list[tuple[Fraction, ...]]:
        """Each set's beta at theta, per joint pure strategy.

        Parameters
        ----------
        theta : Fraction
            Player 1's share of the stakes.

        Returns
        -------
        list of tuple of Fraction
            One row per information set.
        """
        _, _, xs, ys = self.bilinears
        t = Fraction(theta)
        return [self._joint(x, y, t) for x, y in zip(xs, ys)]

    def p2(self, theta, s):
        """The game's p2 at a point of the blown-up square.

        Parameters
        ----------
        theta : Fraction
            Player 1's share of the stakes, in (0, eps].
        s : Fraction
            The blown-up coordinate, in [0, 1].

        Returns
        -------
        Fraction
            c + theta T (2 s - 1).
        """
        return self.c + theta * self.half_width * (2 * s - 1)


def _scaled(g1: tuple, g2: tuple, g: Fraction, c: Fraction, T: Fraction) -> tuple[tuple, tuple]:
    """(X, Y), bilinear in (p1, s), of (G_theta(p1, c + theta u) - g) / theta = theta X + (1 - theta) Y,
    u = T (2 s - 1), for G_theta = theta g1 + (1 - theta) g2 with g2 = g on p2 = c."""
    def one(d2: Fraction, d3: Fraction) -> tuple:
        return (g1[0] + g1[2] * c - g - T * d2, g1[1] + g1[3] * c - T * d3, 2 * T * d2, 2 * T * d3)
    return one(Fraction(g1[2]), Fraction(g1[3])), one(Fraction(g2[2]), Fraction(g2[3]))


def _one_sign(vals: list) -> int:
    if all(v > 0 for v in vals):
        return 1
    if all(v < 0 for v in vals):
        return -1
    return 0


def blow_up(curve: int, eps: Fraction, half_width: Fraction = HALF_WIDTH,
            game: BanqueGame | None = None) -> ScaledGame:
    """The blown-up game around the segment where ``curve`` lies at theta = 0, with every
    condition of the module's argument checked exactly (raise BaccaraError naming the one
    that fails).

    Parameters
    ----------
    curve : int
        The information set (index) of the form's curve; at theta = 0 it must be a
        horizontal line p2 = c.
    eps : Fraction
        The blown-up range is theta in (0, eps].
    half_width : Fraction
        T: the strip is |p2 - c| <= theta T.
    game : BanqueGame, optional
        The paper's infinite shoe (the default) only.

    Returns
    -------
    ScaledGame
        Its maximum over the unit square, times theta, plus V_0*, is the lower value.
    """
    g = game or banque_game()
    if g is not banque_game():
        raise BaccaraError("the blow-up follows the paper's infinite shoe only")
    if not 0 < eps < 1 or not half_width > 0:
        raise ParameterError(f"eps must be in (0, 1) and half_width positive, got {eps}, {half_width}")
    r10, r20, r1, r2 = g.bilinears
    k = r2[curve]
    if k[2] == 0 or k[1] * k[2] != k[0] * k[3] or not 0 < Fraction(-k[0], k[2]) < 1:
        raise _NoSegment(f"the curve of {infoset_label(INFOSETS[curve])} is not a line p2 = c across the square "
                           "at theta = 0")
    c, T = Fraction(-k[0], k[2]), half_width
    lo2, hi2 = c - eps * T, c + eps * T
    if not 0 < lo2 < hi2 < 1:
        raise BaccaraError(f"the strip |p2 - {c}| <= {eps * T} leaves the square")
    line, far_draws = [], []
    for i, co in enumerate(r2):
        if co[0] + co[2] * c == 0 and co[1] + co[3] * c == 0:
            line.append(i)
            continue
        sign = _one_sign([t * _val(r1[i], x, y) + (1 - t) * _val(co, x, y)
                          for t in (Fraction(0), eps) for x in (0, 1) for y in (lo2, hi2)])
        if sign == 0:
            raise BaccaraError(f"Banker's move at {infoset_label(INFOSETS[i])} changes on the strip "
                               f"|p2 - {c}| <= {eps * T} for theta <= {eps}")
        if sign < 0:
            far_draws.append(i)
    g1 = [sum(x) for x in zip(r10, *(r1[i] for i in far_draws))]
    g2 = [sum(x) for x in zip(r20, *(r2[i] for i in far_draws))]
    if g2[1] + g2[3] * c != 0:
        raise _NoSegment("V at theta = 0 depends on p1 on the segment")
    v0 = g2[0] + g2[2] * c
    pairs = [_scaled(tuple(g1), tuple(g2), v0, c, T)]
    pairs += [_scaled(r1[i], r2[i], Fraction(0), c, T) for i in line]
    scale = lcm(*(Fraction(v).denominator for xy in pairs for b in xy for v in b))
    ints = [tuple(tuple(int(v * scale) for v in b) for b in xy) for xy in pairs]
    zero: tuple[int, ...] = (0, 0, 0, 0)
    xs, ys = [zero] * len(r1), [zero] * len(r1)
    for i, (x, y) in zip(line, ints[1:]):
        xs[i], ys[i] = x, y
    sc = ScaledGame(c, T, eps, (ints[0][0], ints[0][1], xs, ys), scale, tuple(line), tuple(far_draws), v0)
    _strip_edges(sc)
    return sc


def _strip_edges(sc: ScaledGame) -> None:
    """V's derivative in p2 points into the strip on both its edges, for every p1 and theta in
    [0, eps] (see the module's docstring), or raise BaccaraError."""
    xa, ya, xs, ys = sc.bilinears
    corners = [(t, x) for t in (Fraction(0), sc.eps) for x in (0, 1)]

    def slope(x, y, t, p1):          # d/ds of theta X + (1 - theta) Y
        return t * (x[2] + x[3] * p1) + (1 - t) * (y[2] + y[3] * p1)

    for s, want in ((1, -1), (0, 1)):
        total = [slope(xa, ya, t, p1) for t, p1 in corners]
        for i in sc.line:
            x, y = xs[i], ys[i]
            if x[2] == x[3] == y[2] == y[3] == 0:
                continue                   # beta does not involve s
            sign = _one_sign([t * _val(x, p1, s) + (1 - t) * _val(y, p1, s) for t, p1 in corners])
            if sign == 0:
                raise BaccaraError(f"the curve of {infoset_label(INFOSETS[i])} may meet the strip's edge s = {s}")
            if sign < 0:
                total = [a + slope(x, y, t, p1) for a, (t, p1) in zip(total, corners)]
        if _one_sign(total) != want:
            raise BaccaraError(f"V may increase out of the strip across its edge s = {s}")


def prove_first_interval(hi: Endpoint, signature: tuple, seconds: float | None = None,
                         eps: Fraction | None = None) -> IntervalProof:
    """Prove the lower value for every theta in (0, hi), the sweep's first interval: the blown-up
    game on (0, eps), the game itself on (eps, hi) (see the module's docstring).

    Parameters
    ----------
    hi : Endpoint
        The interval's upper end, exactly.
    signature : tuple
        The interval's form, as the sweep writes it; its maximiser must lie on p1 = 0 and on
        one curve.
    seconds : float, optional
        A time limit for the two proofs together.
    eps : Fraction, optional
        Where the blow-up hands over (default: the largest of EPS, EPS / 2, ... for which the
        blow-up's conditions hold).

    Returns
    -------
    IntervalProof
        On (0, hi): "proved" when both parts are, else the first part's status and reason.
    """
    start = time.perf_counter()
    if seconds is not None and not seconds > 0:
        raise ParameterError(f"seconds must be positive, got {seconds}")
    zero = Endpoint.of_rational(Fraction(0))
    curves, draws, edges = signature
    label = _form_label(signature)

    def fail(reason: str) -> IntervalProof:
        return IntervalProof(zero, hi, label, "inconclusive", 0, 0, 0, reason, time.perf_counter() - start)

    if len(curves) != 1 or edges != ("p1=0",):
        return fail("the blow-up needs a maximiser on p1 = 0 and on one curve")
    (curve,) = curves
    sc = None
    e = Fraction(eps) if eps is not None else EPS
    while sc is None:
        try:
            sc = blow_up(curve, e)
        except BaccaraError as err:
            if eps is not None or e < Fraction(1, 10**6) or isinstance(err, _NoSegment):
                return fail(str(err))
            e /= 2
    whole = not Endpoint.of_rational(e).ball < hi.ball
    if whole and e < _outer(hi.ball)[1]:   # the interval ends about eps: blown up just past it
        try:
            sc = blow_up(curve, _outer(hi.ball)[1])
        except BaccaraError as err:
            return fail(str(err))
    top = hi if whole else Endpoint.of_rational(e)
    theta = rational_between_balls(zero.ball, top.ball)
    q1, q2, *_ = _maximise(theta, sc)
    sig = exact_signature(theta, q1, q2, cast(BanqueGame, sc))      # it reads only a() and h()
    if sig[0] != frozenset(curves) or sig[2] != edges or frozenset(sc.far_draws) | sig[1] != draws:
        return fail(f"at theta = {theta} the blown-up maximiser does not have the interval's form")
    near = _prove(zero, top, sig, sc, theta, (q1, q2), seconds, start)
    if whole or near.status != "proved":
        return IntervalProof(zero, hi, label, near.status, near.candidates, near.exact, near.form_events,
                             near.reason and f"blown up on (0, {float(top.ball.mid()):.7g}): {near.reason}",
                             time.perf_counter() - start)
    left = None if seconds is None else max(seconds - (time.perf_counter() - start), 1e-3)
    rest = prove_interval(Endpoint.of_rational(e), hi, signature, seconds=left)
    reason = "" if rest.status == "proved" else f"on ({e}, {float(hi.ball.mid()):.7g}): {rest.reason}"
    return IntervalProof(zero, hi, label, rest.status, near.candidates + rest.candidates, near.exact + rest.exact,
                         near.form_events + rest.form_events, reason, time.perf_counter() - start)
