"""Baccara banque, the simplified model of Ethier and Lee (2015), section 2.

Three players: Player 1, Player 2 and Banker; stakes on the Players' hands in
proportion theta : 1 - theta, payoffs in units of the total stake.  Cards are
dealt with replacement and each side sees only totals; Player 2 ignores
Player 1's hand.  A two-card total i has probability q(i) = (16 + 9
delta_{i,0}) / 13^2 and a card value k has q'(k) = (1 + 3 delta_{k,0}) / 13.

If Banker or both Players have naturals, play ends.  A Player with a natural
wins his stake from a non-natural Banker, play continuing with the other.
Each Player must draw on 0-4 and stand on 6-7; at 5 he stands (u = 0) or
draws (u = 1).  Banker then sees (k1, k2, j): each Player's third-card value
0-9, or 10 (stood) or 11 (natural), and his own total j = 0-7; (11, 11) is
excluded, leaving 1144 information sets.  With Banker standing everywhere as
the base, the Players' payoff is additive over Banker's draws:

    a_{u1,u2,T}(theta) = A_{u1,u2}(theta) + sum_{i in T} h_i^{u1,u2}(theta),

each term theta (Player 1's result) + (1 - theta) (Player 2's result)
(Ethier and Lee 2015, terms (1)-(17)).  Everything is an exact integer over 13^9.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache

import numpy as np
from numba import njit

from ... import params

STOOD, NATURAL = 10, 11
DENOMINATOR = 13**9
#: The Players' joint pure strategies, in Ethier and Lee's (2015) order.
JOINT = ((0, 0), (0, 1), (1, 0), (1, 1))
JOINT_LABELS = ("SS", "SD", "DS", "DD")


@njit(cache=True)
def _sgn(x):
    return (x > 0) - (x < 0)


@njit(cache=True)
def _draws(i, u):
    """Does a Player with two-card total i (not a natural) and strategy u draw?"""
    return i < 8 and (i <= 4 or (i == 5 and u == 1))


@njit(cache=True)
def _player(i, u, k):
    """(what Banker sees, final total, weight over 13) for a Player with total i and strategy u
    whose third card, if he draws, has value k."""
    if i >= 8:
        return NATURAL, i, 13
    if _draws(i, u):
        return k, (i + k) % 10, 1 + 3 * (k == 0)
    return STOOD, i, 13


@njit(cache=True)
def _banque_kernel(u1, u2, base, gain):
    """Ordered-deal sums (weights over 13^9) for Players' pure strategies (u1, u2).

    ``base[p, c]``: Player p's (0: Player 1, 1: Player 2) result summed over the
    deals in which Player 1 shows c (his third card 0-9, 10 stood, 11 natural;
    12: play ended by Banker's natural or two Player naturals), Banker standing
    everywhere.  (Split by c because in the full model Player 2 decides on
    what Player 1 shows.)  ``gain[p, k1, k2, j]``: the change in
    Player p's result when Banker draws rather than stands at (k1, k2, j).
    """
    for i1 in range(10):
        w1 = 16 + 9 * (i1 == 0)
        for i2 in range(10):
            w2 = 16 + 9 * (i2 == 0)
            for j in range(10):
                wj = 16 + 9 * (j == 0)
                w = w1 * w2 * wj
                if j >= 8 or (i1 >= 8 and i2 >= 8):
                    base[0, 12] += w * 13 * 13 * 13 * _sgn(i1 - j)
                    base[1, 12] += w * 13 * 13 * 13 * _sgn(i2 - j)
                    continue
                for k1 in range(10 if _draws(i1, u1) else 1):
                    c1, f1, wk1 = _player(i1, u1, k1)
                    for k2 in range(10 if _draws(i2, u2) else 1):
                        c2, f2, wk2 = _player(i2, u2, k2)
                        ws = w * wk1 * wk2
                        r1s = 1 if c1 == NATURAL else _sgn(f1 - j)
                        r2s = 1 if c2 == NATURAL else _sgn(f2 - j)
                        base[0, c1] += ws * 13 * r1s
                        base[1, c1] += ws * 13 * r2s
                        for l in range(10):
                            wl = 1 + 3 * (l == 0)
                            b = (j + l) % 10
                            r1d = 1 if c1 == NATURAL else _sgn(f1 - b)
                            r2d = 1 if c2 == NATURAL else _sgn(f2 - b)
                            gain[0, c1, c2, j] += ws * wl * (r1d - r1s)
                            gain[1, c1, c2, j] += ws * wl * (r2d - r2s)


def kernel_sums(u1: int, u2: int) -> tuple[np.ndarray, np.ndarray]:
    """(base split by what Player 1 shows, gain) for the Players' pure strategies (u1, u2)."""
    base = np.zeros((2, 13), dtype=np.int64)
    gain = np.zeros((2, 12, 12, 8), dtype=np.int64)
    _banque_kernel(u1, u2, base, gain)
    return base, gain


@dataclass(frozen=True)
class BanqueGame:
    """The simplified banque game's exact coefficients (integers over 13^9).

    ``base[u][p]``, ``gain[u][p]`` for joint pure strategy u = (u1, u2)
    (index into :data:`JOINT`) and Player p; ``infosets`` lists Banker's 1144
    (k1, k2, j) in order.
    """

    base: tuple[tuple[int, int], ...]
    gain: tuple[np.ndarray, ...]
    infosets: tuple[tuple[int, int, int], ...]

    @cached_property
    def linear(self) -> tuple[list[tuple[int, int]], list[list[tuple[int, int]]]]:
        """Every coefficient as integers (c0, c1): its value is (c0 + c1 theta) / 13^9.

        Returns (A_u for each joint u, h_i^u for each information set i and joint u):
        theta (Player 1's result) + (1 - theta) (Player 2's) = P2 + theta (P1 - P2).
        """
        a = [(b[1], b[0] - b[1]) for b in self.base]
        h = [[(int(g[1][k]), int(g[0][k]) - int(g[1][k])) for g in self.gain] for k in self.infosets]
        return a, h

    def a(self, theta: Fraction) -> tuple[Fraction, ...]:
        """A_u(theta): the Players' payoff with Banker standing everywhere, for each joint u."""
        return tuple(_at(c, Fraction(theta)) for c in self.linear[0])

    def h(self, theta: Fraction) -> list[tuple[Fraction, ...]]:
        """h_i^u(theta): the Players' gain when Banker draws at information set i, per joint u."""
        t = Fraction(theta)
        return [tuple(_at(c, t) for c in row) for row in self.linear[1]]


def _at(c: tuple[int, int], t: Fraction) -> Fraction:
    return Fraction(c[0] * t.denominator + c[1] * t.numerator, DENOMINATOR * t.denominator)


def infoset_label(key: tuple[int, int, int]) -> str:
    """``"(6,10,6)"``: Player 1's third card (10 stood, 11 natural), Player 2's, Banker's total."""
    return "({},{},{})".format(*key)


def check_theta(theta: Fraction | int | float | str) -> Fraction:
    """Theta, exactly, in (0, 1) (floats read as the decimal they print: 0.1 is 1/10)."""
    return params.theta(theta)


@lru_cache(maxsize=1)
def banque_game() -> BanqueGame:
    """The simplified model's coefficients (computed once)."""
    bases, gains = [], []
    for u1, u2 in JOINT:
        base, gain = kernel_sums(u1, u2)
        bases.append((int(base[0].sum()), int(base[1].sum())))
        gains.append(gain)
    infosets = tuple((k1, k2, j) for k1 in range(12) for k2 in range(12) for j in range(8) if (k1, k2) != (11, 11))
    return BanqueGame(tuple(bases), tuple(gains), infosets)
