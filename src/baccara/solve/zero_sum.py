"""Zero-sum games between a player with m pure strategies and an additive opponent.

Player I mixes p over m pure strategies u; player II chooses, at each of n
information sets, move 0 or move 1, and player I's payoff is additive:
A_u + sum_{i in T} h_i^u.  Against p, player II plays move 1 exactly where
sum_u p_u h_i^u < 0, so player I's guaranteed payoff is

    V(p) = sum_u p_u A_u + sum_i min(0, sum_u p_u h_i^u),

a concave piecewise-linear function whose maximum is the game's value.
Player II's side is the linear program

    minimise v  subject to  A_u + sum_i q_i h_i^u <= v  (u < m),  0 <= q_i <= 1,

whose row prices are player I's p.  It is solved exactly by
:func:`baccara.solve.exact_lp.solve_exact_lp`: HiGHS's float basis (player I's
support, player II's mixed sets K and move-1 sets T), solved and checked in
rationals, and the exact simplex method where that basis is wrong (a basis that
is only dual feasible, such as the last one of a column generation with a row
added, is finished by the dual simplex method).  With m rows the simplex is
cheap.  The answer is then certified from p and q alone: V(p) = v (player I
guarantees v) and max_u of player I's payoff against player II's behavioural
strategy q is v (player II holds him to v).  The same certificate makes p
maximin and q minimax.

:func:`solve_zero_sum` takes an :class:`~baccara.solve.additive.AdditiveGame` whose
payoffs are zero-sum (chemin de fer at alpha = 0: m = 2, Ethier and Gamez 2013, section
4) and certifies the answer again in that game's own terms.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from .additive import AdditiveGame
from .exact_lp import Basis, ExactLP, solve_exact_lp


@dataclass(frozen=True)
class ZeroSumAdditive:
    """Exact value, player I's maximin p, player II's minimax behavioural q, and the certificate.

    Attributes
    ----------
    value : Fraction
        The game's value to player I.
    p, q : tuple of Fraction
        Player I's mixture over his pure strategies; player II's probability of move 1 at
        each information set.
    guaranteed_by_I, held_by_II : Fraction
        V(p), and the most player I earns against q, both recomputed exactly from p and q.
    certified : bool
        p and q are distributions and guaranteed_by_I == value == held_by_II: a proof that
        value is the value and p, q are optimal.
    basis : tuple or None
        The optimal basis as (rows u whose slack is nonbasic, sets i where q_i is basic,
        sets at q_i = 1): pass it as ``warm`` to solve a game with more rows.
    """

    value: Fraction
    p: tuple[Fraction, ...]
    q: tuple[Fraction, ...]
    guaranteed_by_I: Fraction
    held_by_II: Fraction
    certified: bool
    basis: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] | None = None


def guaranteed(a: Sequence[Fraction], h: Sequence[Sequence[Fraction]], p: Sequence[Fraction | int]) -> Fraction:
    """V(p): player I's payoff against player II's best reply."""
    base = sum((pu * au for pu, au in zip(p, a)), Fraction(0))
    return base + sum((min(Fraction(0), sum((pu * x for pu, x in zip(p, hi)), Fraction(0))) for hi in h), Fraction(0))


def best_reply_I(a: Sequence[Fraction], h: Sequence[Sequence[Fraction]], q: Sequence[Fraction]) -> list[Fraction]:
    """Player I's payoff from each pure strategy against player II's behavioural q."""
    return [a[u] + sum((qi * hi[u] for qi, hi in zip(q, h) if qi), Fraction(0)) for u in range(len(a))]


def solve_additive_zero_sum(a: Sequence[Fraction], h: Sequence[Sequence[Fraction]],
                            warm: tuple | None = None) -> ZeroSumAdditive:
    """Solve the zero-sum game exactly: player II's LP by :func:`~baccara.solve.exact_lp.solve_exact_lp`.

    Parameters
    ----------
    a : sequence of Fraction
        A_u, player I's payoff from pure strategy u when player II plays move 0 everywhere.
    h : sequence of sequences of Fraction
        h_i^u, the change in that payoff when player II plays move 1 at information set i.
    warm : tuple, optional
        A starting basis tried before the float LP's: the ``basis`` of the solution of a game
        with the same information sets and the first rows of this one (column generation).

    Returns
    -------
    ZeroSumAdditive
        The value, p, q and the exact certificate (``certified``); the certificate is
        recomputed from p and q alone and does not trust either solver.

    Notes
    -----
    HiGHS stops when its primal and dual infeasibilities are below its tolerances (1e-7,
    absolute), so its basis need not be optimal when payoff differences that matter are
    that small -- in baccara banque as theta -> 0 or 1, where Player 1's (or Player 2's)
    move changes the payoff by about theta |h| (Ethier and Lee, "On the three-person game
    baccara banque", Games 6 (2015) 57-78).  Its basis is therefore only a start: the exact
    simplex pivots from it until every reduced cost has the right sign, which is the
    certificate.
    """
    m, n = len(a), len(h)
    vx = solve_exact_lp(player_II_lp(a, h), warm=None if warm is None else _basis(warm, m, n))
    p = [-y for y in vx.prices]
    q, v = vx.z[:n], vx.z[n]
    cols, rows = vx.basis.cols, vx.basis.rows
    basis = (tuple(u for u in range(m) if rows[u] != "basic"), tuple(i for i in range(n) if cols[i] == "basic"),
             tuple(i for i in range(n) if cols[i] == "upper"))
    g = guaranteed(a, h, p)
    held = max(best_reply_I(a, h, q))
    ok = all(x >= 0 for x in p) and sum(p) == 1 and all(0 <= x <= 1 for x in q) and g == v == held
    return ZeroSumAdditive(v, tuple(p), tuple(q), g, held, ok, basis)


@dataclass(frozen=True)
class ZeroSumSolution:
    """Exact value and optimal strategies of a zero-sum additive game, with the certificate."""

    value: Fraction  # to player II
    p: Fraction
    q: tuple[Fraction, ...]
    guaranteed_by_II: Fraction  # min over u of player II's payoff with q
    held_by_I: Fraction  # player II's best reply payoff against p
    certified: bool


def solve_zero_sum(game: AdditiveGame) -> ZeroSumSolution:
    """Value and optimal strategies of a zero-sum additive game (a_u = -b_u, h = -g).

    Parameters
    ----------
    game : AdditiveGame
        A zero-sum game: player I's payoffs the negatives of player II's.

    Returns
    -------
    ZeroSumSolution
        The value to player II, player I's p, player II's q, and the certificate,
        recomputed from p and q alone.

    Raises
    ------
    ValueError
        If the game is not zero-sum.
    """
    n = game.n
    if any(x != -y for x, y in zip(game.a, game.b)) or any(x != -y for hi, gi in zip(game.h, game.g)
                                                           for x, y in zip(hi, gi)):
        raise ValueError("game: solve_zero_sum needs a zero-sum game (a_u = -b_u and h_i = -g_i)")
    sol = solve_additive_zero_sum([-x for x in game.b], [[-x for x in gi] for gi in game.g])
    p, q, value = sol.p[1], sol.q, -sol.value
    guaranteed = min(game.b[u] + sum((q[i] * game.g[i][u] for i in range(n)), Fraction(0)) for u in (0, 1))
    w = (1 - p, p)
    held = sum(w[u] * game.b[u] for u in (0, 1)) + sum(
        (max(Fraction(0), game.gain_II(i, p)) for i in range(n)), Fraction(0)
    )
    ok = all(0 <= qi <= 1 for qi in q) and 0 <= p <= 1 and sum(sol.p) == 1 and guaranteed == value == held
    return ZeroSumSolution(value, p, tuple(q), guaranteed, held, ok)


def player_II_lp(a: Sequence[Fraction], h: Sequence[Sequence[Fraction]]) -> ExactLP:
    """Player II's LP: minimise v subject to A_u + sum_i h_i^u q_i <= v (u < m), 0 <= q_i <= 1.

    Parameters
    ----------
    a, h : sequences of Fraction
        The game (see :func:`solve_additive_zero_sum`).

    Returns
    -------
    ExactLP
        Columns q_0..q_{n-1} and v (column n, free); row u is ``sum_i h_i^u q_i - v <= -A_u``,
        so its price is -p_u.
    """
    m, n = len(a), len(h)
    lp = ExactLP(n + 1, cost={n: Fraction(1)}, col_lo=[Fraction(0)] * n + [None], col_hi=[Fraction(1)] * n + [None])
    for u in range(m):
        row = {i: h[i][u] for i in range(n) if h[i][u]}
        row[n] = Fraction(-1)
        lp.add_row(row, None, -Fraction(a[u]))
    return lp


def _basis(warm: tuple, m: int, n: int) -> Basis:
    """The basis of :func:`player_II_lp` that a ``ZeroSumAdditive.basis`` names (rows past its game's basic)."""
    tight, mixed, draw = (set(x) for x in warm)
    cols = tuple("basic" if i in mixed else "upper" if i in draw else "lower" for i in range(n)) + ("basic",)
    return Basis(cols, tuple("upper" if u in tight else "basic" for u in range(m)))
