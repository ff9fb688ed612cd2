"""Additive 2 x 2^n bimatrix games and all their Nash equilibria (Ethier and Lee 2023, section 2).

Player I has two pure strategies u = 0, 1 and mixes with p = P(u = 1).
Player II has n information sets; at each she chooses move 0 or 1, so her
pure strategies are the subsets T of information sets where she plays move 1.
Payoffs are *additive* in her choices:

    A(u, T) = a_u + sum_{i in T} h_i^u        (player I)
    B(u, T) = b_u + sum_{i in T} g_i^u        (player II)

so against p her gain from move 1 at i is (1 - p) g_i^0 + p g_i^1, and a
behavioural strategy q (q_i = P(move 1 at i)) is as good as any mixed
strategy with the same marginals.

Lemma 1 (reduction by strict dominance): if g_i^0 and g_i^1 are both positive
(negative), move 1 (move 0) at i is strictly dominant.  Lemma 2 (Foster's
algorithm): player II's best response to p changes only at the
*best-response discontinuities* p_i = g_i^0 / (g_i^0 - g_i^1) in (0, 1); every
Nash equilibrium has p = 0, p = 1, or p at a discontinuity, where player I
must be indifferent and player II mixes only at the information sets whose
discontinuity is p (her *equalizing strategy*).

:func:`nash_equilibria` applies this to find every equilibrium exactly;
:func:`certify` checks one independently, from the payoffs alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product
from typing import cast


@dataclass(frozen=True)
class AdditiveGame:
    """An additive 2 x 2^n bimatrix game with exact rational payoffs."""

    a: tuple[Fraction, ...]  # (u = 0, u = 1), as are b and each h[i], g[i]
    b: tuple[Fraction, ...]
    h: tuple[tuple[Fraction, ...], ...]
    g: tuple[tuple[Fraction, ...], ...]
    labels: tuple[str, ...] = ()

    @property
    def n(self) -> int:
        return len(self.g)

    def gain_II(self, i: int, p: Fraction) -> Fraction:
        """Player II's gain from move 1 over move 0 at i when player I plays p."""
        g0, g1 = self.g[i]
        return (1 - p) * g0 + p * g1

    def discontinuity(self, i: int) -> Fraction | None:
        """p_i = g_i^0 / (g_i^0 - g_i^1) if it lies in (0, 1), else None."""
        g0, g1 = self.g[i]
        if g0 == g1:
            return None
        p = g0 / (g0 - g1)
        return p if 0 < p < 1 else None

    def delta_I(self, move1: Sequence[Fraction] | set[int] | frozenset[int]) -> Fraction:
        """Player I's gain from u = 1 over u = 0 against player II's (behavioural) strategy."""
        if isinstance(move1, (set, frozenset)):
            return self.a[1] - self.a[0] + sum((self.h[i][1] - self.h[i][0] for i in move1), Fraction(0))
        return self.a[1] - self.a[0] + sum(
            (q * (hi[1] - hi[0]) for q, hi in zip(move1, self.h) if q), Fraction(0)
        )

    def payoffs(self, p: Fraction, q: Sequence[Fraction]) -> tuple[Fraction, Fraction]:
        """Expected payoffs (player I, player II) at (p, q)."""
        w = (1 - p, p)
        pay_i = sum((w[u] * (self.a[u] + sum((qi * hi[u] for qi, hi in zip(q, self.h) if qi), Fraction(0))) for u in (0, 1)), Fraction(0))
        pay_ii = sum((w[u] * (self.b[u] + sum((qi * gi[u] for qi, gi in zip(q, self.g) if qi), Fraction(0))) for u in (0, 1)), Fraction(0))
        return pay_i, pay_ii


def dominance_reduction(game: AdditiveGame) -> tuple[dict[int, int], list[int]]:
    """Lemma 1: the information sets where a move is strictly dominant (i -> move), and the rest."""
    fixed, open_ = {}, []
    for i, (g0, g1) in enumerate(game.g):
        if g0 > 0 and g1 > 0:
            fixed[i] = 1
        elif g0 < 0 and g1 < 0:
            fixed[i] = 0
        else:
            open_.append(i)
    return fixed, open_


@dataclass(frozen=True)
class Equilibrium:
    """A Nash equilibrium: player I's p, player II's behavioural strategy q, and payoffs.

    ``support`` lists the pure strategies of player II (as frozensets of the
    mixed information sets where she plays move 1) and their weights, when she
    mixes: the equalizing strategy of Lemma 2.
    """

    p: Fraction
    q: tuple[Fraction, ...]
    payoff_I: Fraction
    payoff_II: Fraction
    mixed: tuple[int, ...] = ()
    support: tuple[tuple[frozenset, Fraction], ...] = ()


@dataclass
class NashSet:
    """Every Nash equilibrium of a game: its extreme equilibria, and whether it is unique.

    ``continua`` lists open p-intervals (lo, hi, T) on which every p is an
    equilibrium: player II plays move 1 at the sets T (her strict preference,
    constant on the interval) and player I is indifferent, either against T
    itself or, where some sets leave her indifferent whatever p (g_i^0 = g_i^1 = 0),
    against a mixture of her moves there.  Non-generic, reported rather than hidden;
    the ends of each interval are among ``equilibria``'s p.
    """

    equilibria: list[Equilibrium] = field(default_factory=list)
    continua: list[tuple[Fraction, Fraction, frozenset]] = field(default_factory=list)
    groups: list[tuple[int, ...]] | None = None  # merged equivalent information sets, if any

    @property
    def unique(self) -> bool:
        return len(self.equilibria) == 1 and not self.continua


def _extreme_mixtures(values: dict[frozenset, Fraction], want: str) -> list[tuple[tuple[frozenset, Fraction], ...]]:
    """Extreme points of {x in simplex over pure strategies s : sum x_s values[s] (== | <= | >=) 0}.

    They are the pure s satisfying the condition and, on each edge (s, t) with
    values of opposite signs, the mixture where the sum is 0.
    """
    ok = {"eq": lambda v: v == 0, "le": lambda v: v <= 0, "ge": lambda v: v >= 0}[want]
    out: list[tuple[tuple[frozenset, Fraction], ...]] = [((s, Fraction(1)),) for s, v in values.items() if ok(v)]
    items = list(values.items())
    for x in range(len(items)):
        for y in range(x + 1, len(items)):
            (s, vs), (t, vt) = items[x], items[y]
            if vs * vt < 0:
                ws = -vt / (vs - vt)
                out.append(((s, ws), (t, 1 - ws)))
    return out


def _equilibria_at(game: AdditiveGame, p: Fraction) -> list[Equilibrium]:
    """All extreme equilibria in which player I plays p."""
    indiff = [i for i in range(game.n) if game.gain_II(i, p) == 0]
    base = [Fraction(1) if game.gain_II(i, p) > 0 else Fraction(0) for i in range(game.n)]
    fixed_delta = game.delta_I(base)
    values = {}
    for bits in product((0, 1), repeat=len(indiff)):
        s = frozenset(i for i, b in zip(indiff, bits) if b)
        values[s] = fixed_delta + sum((game.h[i][1] - game.h[i][0] for i in s), Fraction(0))
    want = "le" if p == 0 else ("ge" if p == 1 else "eq")
    out = []
    for mixture in _extreme_mixtures(values, want):
        q = list(base)
        for i in indiff:
            q[i] = sum((w for s, w in mixture if i in s), Fraction(0))
        pay = game.payoffs(p, q)
        out.append(Equilibrium(p, tuple(q), pay[0], pay[1], tuple(indiff), mixture if len(mixture) > 1 else ()))
    return out


def proportional_groups(rows: Sequence[Sequence[Fraction | int]]) -> list[tuple[int, ...]]:
    """Indices of ``rows`` grouped by positive proportionality (zero rows stay alone), in
    order of first appearance."""
    groups: dict[tuple, list[int]] = {}
    for i, v in enumerate(rows):
        lead = cast("Fraction | int | None", next((abs(x) for x in v if x), None))
        key = tuple(Fraction(x) / lead for x in v) if lead else ("zero", i)
        groups.setdefault(key, []).append(i)
    return [tuple(m) for m in groups.values()]


def merge_equivalent(game: AdditiveGame, groups: Sequence[tuple[int, ...]] | None = None
                     ) -> tuple[AdditiveGame, list[tuple[int, ...]]]:
    """Merge information sets whose payoff vectors (g^0, g^1, h^0, h^1) are positive multiples
    of one another.

    Such sets are one decision up to scale: both players' payoffs depend on
    the moves there only through their reach-weighted sum, so playing one move
    everywhere in the group (summed payoffs) loses no equilibrium outcome.
    Under Model A2 this merges Banker's compositions of one total (with
    replacement his composition tells him nothing more): Model A1.  Without
    such sets the game is returned as is.

    Parameters
    ----------
    game : AdditiveGame
        The game.
    groups : sequence of tuple of int, optional
        The groups to merge, when the caller knows them for a whole family of games (a
        commission range: :func:`baccara.solve.sweep.merge_proportional`); by default the
        sets proportional in this game.

    Returns
    -------
    tuple
        The merged game (``game`` itself when no group has two members) and the groups.
    """
    members = ([tuple(m) for m in groups] if groups is not None
               else proportional_groups([(*game.g[i], *game.h[i]) for i in range(game.n)]))
    if all(len(m) == 1 for m in members):
        return game, [(i,) for i in range(game.n)]

    def total(vals):
        return tuple(sum(x, Fraction(0)) for x in zip(*vals))

    merged = AdditiveGame(
        game.a, game.b,
        h=tuple(total([game.h[i] for i in m]) for m in members),
        g=tuple(total([game.g[i] for i in m]) for m in members),
        labels=tuple("+".join(game.labels[i] for i in m) for m in members) if game.labels else (),
    )
    return merged, members


def nash_equilibria(game: AdditiveGame, merge: bool = True,
                    groups: Sequence[tuple[int, ...]] | None = None) -> NashSet:
    """Every Nash equilibrium of ``game``, up to equivalent information sets.

    Parameters
    ----------
    game : AdditiveGame
        The game.
    merge : bool
        Merge equivalent information sets (:func:`merge_equivalent`): their members play
        alike, and any split with the same weighted total is an equivalent equilibrium.
        ``False`` enumerates every set separately.
    groups : sequence of tuple of int, optional
        The equivalent sets, when they are known for a family of games (see
        :func:`merge_equivalent`).

    Returns
    -------
    NashSet
        Every extreme equilibrium, and the continua.
    """
    alone: list[tuple[int, ...]] = [(i,) for i in range(game.n)]
    merged, groups = merge_equivalent(game, groups) if merge else (game, alone)
    if merged is game:
        return _nash_equilibria(game)
    small = _nash_equilibria(merged)
    out = NashSet(continua=[(lo, hi, frozenset(i for k in t for i in groups[k])) for lo, hi, t in small.continua],
                  groups=groups)
    for eq in small.equilibria:
        q = [Fraction(0)] * game.n
        for k, members in enumerate(groups):
            for i in members:
                q[i] = eq.q[k]
        pay = game.payoffs(eq.p, q)
        mixed = tuple(i for k in eq.mixed for i in groups[k])
        support = tuple((frozenset(i for k in s for i in groups[k]), w) for s, w in eq.support)
        out.equilibria.append(Equilibrium(eq.p, tuple(q), pay[0], pay[1], mixed, support))
    return out


def _nash_equilibria(game: AdditiveGame) -> NashSet:
    """Every Nash equilibrium of an additive 2 x 2^n game (Lemma 2, Foster's algorithm), exactly.

    Candidates for p are 0, 1 and the discontinuities p_i; at each, player II's
    best responses are the mixtures over the information sets where she is
    indifferent, and player I must be indifferent (0 < p < 1) or prefer his
    pure strategy (p = 0, 1).  Between candidates player II's best response is
    fixed except at the sets where her gain vanishes identically (g_i^0 = g_i^1
    = 0), where any mixture is a best response; an equilibrium there needs
    player I indifferent against one of them, reported as a continuum.
    """
    points = sorted({d for i in range(game.n) if (d := game.discontinuity(i)) is not None})
    result = NashSet()
    for p in [Fraction(0)] + points + [Fraction(1)]:
        result.equilibria.extend(_equilibria_at(game, p))
    edges = [Fraction(0)] + points + [Fraction(1)]
    for lo, hi in zip(edges, edges[1:]):
        mid = (lo + hi) / 2
        t = frozenset(i for i in range(game.n) if game.gain_II(i, mid) > 0)
        # her gain at mid is zero only where it is zero for every p (else mid would be a discontinuity)
        free = [game.h[i][1] - game.h[i][0] for i in range(game.n) if game.gain_II(i, mid) == 0]
        d = game.delta_I(t)
        low = d + sum((x for x in free if x < 0), Fraction(0))
        high = d + sum((x for x in free if x > 0), Fraction(0))
        if low <= 0 <= high:
            result.continua.append((lo, hi, t))
    return result


@dataclass(frozen=True)
class Certificate:
    """Exact evidence that (p, q) is a Nash equilibrium.

    ``payoff_I_by_u``: player I's payoff from each pure strategy against q;
    ``payoff_II`` and ``best_response_II``: player II's payoff at (p, q) and
    the most she could get against p (the sum of her positive gains, by
    additivity).  ``holds`` is True when no player gains by deviating.
    """

    payoff_I_by_u: tuple[Fraction, ...]  # (u = 0, u = 1)
    payoff_I: Fraction
    payoff_II: Fraction
    best_response_II: Fraction
    holds: bool


def certify(game: AdditiveGame, p: Fraction, q: Sequence[Fraction]) -> Certificate:
    """Check, from the payoffs alone, that neither player gains by deviating from (p, q)."""
    pay_u = tuple(game.payoffs(Fraction(u), q)[0] for u in (0, 1))
    pay_i, pay_ii = game.payoffs(p, q)
    best_ii = game.payoffs(p, [Fraction(0)] * game.n)[1] + sum(
        (max(Fraction(0), game.gain_II(i, p)) for i in range(game.n)), Fraction(0)
    )
    best_i = max(pay_u)
    holds = pay_i == best_i and pay_ii == best_ii and 0 <= p <= 1 and all(0 <= x <= 1 for x in q)
    return Certificate(pay_u, pay_i, pay_ii, best_ii, holds)
