"""Baccara banque, the simplified model of Ethier and Lee (2015), section 2.

Three players: Player 1, Player 2 and Banker; stakes on the Players' hands in
proportion theta : 1 - theta, payoffs in units of the total stake.  In the paper
cards are dealt with replacement (the infinite shoe, the default here); baccara
also deals from any finite shoe (d decks or any composition), each side still
seeing only totals.  Player 2 ignores Player 1's hand.  A two-card total i has probability q(i) = (16 + 9
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
(Ethier and Lee 2015, terms (1)-(17)).  Everything is an exact integer over the
game's ``denominator``: 13^9 for the infinite shoe, (N)_9 for a finite shoe of N
cards (a deal is counted as nine cards, those it does not use ignored).

:class:`BanqueGame` holds these sums once, with the views the solvers use:
exact at a rational theta (:meth:`BanqueGame.a`, :meth:`BanqueGame.h`), linear
in theta (:attr:`BanqueGame.linear`, :attr:`BanqueGame.float_linear`),
bilinear in the Players' draw probabilities (:attr:`BanqueGame.bilinears`)
and polynomials in (p1, p2, theta) (:attr:`BanqueGame.polys`).  Every solver
takes the game as an argument (default: :func:`banque_game` ``()``, the paper's).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache
from math import perm, prod

import flint
import numpy as np

from .. import params
from ..errors import ShoeError
from ..shoe import MAX_COMPOSITION_CARDS, Shoe, ShoeKey, shoe_json, shoe_key, shoe_label
from ..solve.arrangement import bilinear
from ..solve.moving import ONE, T, bil
from .kernel import NATURAL, STOOD, infinite_kernel, shoe_kernel

__all__ = ["STOOD", "NATURAL", "JOINT", "JOINT_LABELS", "INFOSETS", "BanqueGame", "BanquePolys",
           "banque_game", "infoset_label", "local_game"]

#: The Players' joint pure strategies, in Ethier and Lee's (2015) order.
JOINT = ((0, 0), (0, 1), (1, 0), (1, 1))
JOINT_LABELS = ("SS", "SD", "DS", "DD")
#: Banker's 1144 information sets (k1, k2, j), in order.
INFOSETS = tuple((k1, k2, j) for k1 in range(12) for k2 in range(12) for j in range(8) if (k1, k2) != (11, 11))
#: Cards a coup of banque may use: three two-card hands and three third cards.
CARDS_PER_DEAL = 9
#: Primes below 2^31 for the finite-shoe kernel's residues: their product exceeds
#: 4 (N)_9 for every shoe of at most 1000 cards, so the Chinese remainder theorem
#: recovers every sum (at most 2 (N)_9 in absolute value) exactly.
_PRIMES = np.array([2147483647, 2147483629, 2147483587], dtype=np.int64)


@dataclass(frozen=True)
class BanquePolys:
    """The game's functions of (p1, p2, theta), integers over the game's denominator.

    ``B[i]``: the Players' stake-weighted gain when Banker draws at set i (his
    indifference curve is B_i = 0); ``A``: their payoff with Banker standing everywhere;
    ``e1[i]`` = dR1^i/dp1 and ``e2[i]`` = dR2^i/dp2, each Player's gain from drawing
    at 5 added by Banker drawing at i; ``b1``, ``b2`` the same with Banker standing."""

    B: tuple[flint.fmpz_mpoly, ...]
    A: flint.fmpz_mpoly
    e1: tuple[flint.fmpz_mpoly, ...]
    e2: tuple[flint.fmpz_mpoly, ...]
    b1: flint.fmpz_mpoly
    b2: flint.fmpz_mpoly


def polys_of(bilinears: tuple) -> BanquePolys:
    """:class:`BanquePolys` of a game given as :attr:`BanqueGame.bilinears` (R1^0, R2^0, [R1^i], [R2^i]):
    B_i = theta R1^i + (1 - theta) R2^i, A likewise."""
    r10, r20, r1, r2 = bilinears
    B = tuple(T * bil(a) + (ONE - T) * bil(b) for a, b in zip(r1, r2))
    return BanquePolys(B, T * bil(r10) + (ONE - T) * bil(r20),
                       tuple(bil((c[1], 0, c[3], 0)) for c in r1), tuple(bil((c[2], c[3], 0, 0)) for c in r2),
                       bil((r10[1], 0, r10[3], 0)), bil((r20[2], r20[3], 0, 0)))


@dataclass(frozen=True, eq=False)
class BanqueGame:
    """The simplified banque game's exact coefficients on one shoe.

    Build it with :func:`banque_game`.  ``sums[u]``, for the joint pure strategy
    u = (u1, u2) (index into :data:`JOINT`), holds the kernel's integer arrays
    (``base[p, c]``, ``gain[p, k1, k2, j]``: see :mod:`baccara.banque.kernel`),
    all over ``denominator``.
    """

    shoe: ShoeKey
    denominator: int
    sums: tuple[tuple[np.ndarray, np.ndarray], ...]

    @property
    def infosets(self) -> tuple[tuple[int, int, int], ...]:
        """Banker's 1144 information sets (k1, k2, j), in order."""
        return INFOSETS

    @cached_property
    def base(self) -> tuple[tuple[int, int], ...]:
        """Each Player's result with Banker standing everywhere, per joint u (integers)."""
        return tuple((int(b[0].sum()), int(b[1].sum())) for b, _ in self.sums)

    @cached_property
    def gain(self) -> tuple[np.ndarray, ...]:
        """``gain[u][p, k1, k2, j]``: Player p's gain when Banker draws at (k1, k2, j), per joint u."""
        return tuple(g for _, g in self.sums)

    def split(self, u1: int, u2: int) -> tuple[np.ndarray, np.ndarray]:
        """The kernel's arrays for the Players' pure strategies (u1, u2), base split by what
        Player 1 shows (the full models' Player 2 decides on it)."""
        return self.sums[JOINT.index((u1, u2))]

    @cached_property
    def linear(self) -> tuple[list[tuple[int, int]], list[list[tuple[int, int]]]]:
        """Every coefficient as integers (c0, c1): its value is (c0 + c1 theta) / denominator.

        Returns (A_u for each joint u, h_i^u for each information set i and joint u):
        theta (Player 1's result) + (1 - theta) (Player 2's) = P2 + theta (P1 - P2).
        """
        a = [(b[1], b[0] - b[1]) for b in self.base]
        h = [[(int(g[1][k]), int(g[0][k]) - int(g[1][k])) for g in self.gain] for k in self.infosets]
        return a, h

    def a(self, theta: Fraction) -> tuple[Fraction, ...]:
        """A_u(theta): the Players' payoff with Banker standing everywhere, for each joint u.

        Parameters
        ----------
        theta : Fraction
            Player 1's share of the stakes.

        Returns
        -------
        tuple of Fraction
            One per joint pure strategy (:data:`JOINT`).
        """
        t = Fraction(theta)
        return tuple(self._at(c, t) for c in self.linear[0])

    def h(self, theta: Fraction) -> list[tuple[Fraction, ...]]:
        """h_i^u(theta): the Players' gain when Banker draws at information set i, per joint u.

        Parameters
        ----------
        theta : Fraction
            Player 1's share of the stakes.

        Returns
        -------
        list of tuple of Fraction
            One row per information set, one entry per joint pure strategy.
        """
        t = Fraction(theta)
        return [tuple(self._at(c, t) for c in row) for row in self.linear[1]]

    def _at(self, c: tuple[int, int], t: Fraction) -> Fraction:
        return Fraction(c[0] * t.denominator + c[1] * t.numerator, self.denominator * t.denominator)

    @cached_property
    def float_linear(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(A0, A1, H0, H1) as floats: A_u = A0[u] + A1[u] theta, h_i^u = H0[i, u] + H1[i, u] theta."""
        a, h = self.linear
        D = self.denominator
        A0 = np.array([c[0] / D for c in a], dtype=float)
        A1 = np.array([c[1] / D for c in a], dtype=float)
        H0 = np.array([[c[0] / D for c in row] for row in h], dtype=float)
        H1 = np.array([[c[1] / D for c in row] for row in h], dtype=float)
        return A0, A1, H0, H1

    @cached_property
    def bilinears(self) -> tuple:
        """(R1^0, R2^0, [R1^i], [R2^i]): each Player's result with Banker standing, and his gain
        when Banker draws at set i, as integer bilinear coefficients in (p1, p2) (see
        :func:`baccara.solve.arrangement.bilinear`) over the denominator."""
        base = [bilinear([self.base[u][p] for u in range(4)]) for p in (0, 1)]
        gains = [[bilinear([int(g[p][k]) for g in self.gain]) for k in self.infosets] for p in (0, 1)]
        return base[0], base[1], gains[0], gains[1]

    @cached_property
    def polys(self) -> BanquePolys:
        """The game as polynomials in (p1, p2, theta) (:class:`BanquePolys`)."""
        return polys_of(self.bilinears)

    def label(self) -> str:
        """``'infinite shoe'``, ``'8 decks'``, ``'300-card shoe'``.

        Returns
        -------
        str
            The shoe, for people.
        """
        return shoe_label(self.shoe)

    def shoe_json(self) -> dict:
        """The shoe for JSON documents: ``{"kind": "infinite" | "decks" | "composition", ...}``.

        Returns
        -------
        dict
            See :func:`baccara.shoe.shoe_json`.
        """
        return shoe_json(self.shoe)

    def __repr__(self) -> str:
        return f"BanqueGame({self.label()})"

    def __reduce__(self):
        # to another process (baccara.processes) as its coefficients alone: the cached views
        # (FLINT polynomials among them, which do not pickle) are computed again there
        return (BanqueGame, (self.shoe, self.denominator, self.sums))


#: The games this process has received from others, by shoe (:func:`local_game`).
_RECEIVED: dict[tuple[ShoeKey, int], BanqueGame] = {}


def local_game(game: BanqueGame) -> BanqueGame:
    """This process's copy of a game sent to it: the first copy received of each shoe's game, so
    that its cached views (bilinears, polynomials) are computed once per worker process, not once
    per task.

    Parameters
    ----------
    game : BanqueGame
        A game, as a task received it.

    Returns
    -------
    BanqueGame
        The same game, the copy kept in this process.
    """
    return _RECEIVED.setdefault((game.shoe, game.denominator), game)


def infoset_label(key: tuple[int, int, int]) -> str:
    """``"(6,10,6)"``: Player 1's third card (10 stood, 11 natural), Player 2's, Banker's total.

    Parameters
    ----------
    key : tuple of int
        (k1, k2, j).

    Returns
    -------
    str
        The label.
    """
    return "({},{},{})".format(*key)


def banque_game(shoe: Shoe | int | None = None) -> BanqueGame:
    """The simplified banque game on a shoe (computed once per shoe).

    Parameters
    ----------
    shoe : Shoe, int or None
        None (default): the infinite shoe of Ethier and Lee (2015), cards dealt with
        replacement; d: d fresh decks; or any :class:`~baccara.shoe.Shoe` (a depleted
        shoe, a composition).  A shoe holding exactly d fresh decks is the d-deck game.

    Returns
    -------
    BanqueGame
        The game's exact coefficients.
    """
    if isinstance(shoe, Shoe):
        key = shoe_key(shoe)
    elif shoe is None:
        key = None
    else:
        key = params.decks(shoe, hi=MAX_COMPOSITION_CARDS // 52)
    if isinstance(key, int) and 52 * key > MAX_COMPOSITION_CARDS:
        raise ShoeError(f"decks: banque deals from at most {MAX_COMPOSITION_CARDS // 52} decks "
                        f"({MAX_COMPOSITION_CARDS} cards), got {key}")
    return _banque_game(key)


@lru_cache(maxsize=16)
def _banque_game(key: ShoeKey) -> BanqueGame:
    if key is None:
        sums = []
        for u1, u2 in JOINT:
            base = np.zeros((2, 13), dtype=np.int64)
            gain = np.zeros((2, 12, 12, 8), dtype=np.int64)
            infinite_kernel(u1, u2, base, gain)
            sums.append((base, gain))
        return BanqueGame(None, 13**CARDS_PER_DEAL, tuple(sums))
    counts = (16 * key,) + (4 * key,) * 9 if isinstance(key, int) else key
    return BanqueGame(key, perm(sum(counts), CARDS_PER_DEAL), shoe_sums(counts, replacement=False))


def shoe_sums(counts: tuple[int, ...], replacement: bool) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
    """The kernel's sums for every joint pure strategy, exactly, for a shoe of value counts.

    Parameters
    ----------
    counts : tuple of int
        The shoe's 10 counts by value (0 = tens and faces).
    replacement : bool
        Deal with replacement (then the sums are over N^9) or not (over (N)_9).

    Returns
    -------
    tuple
        (base, gain) integer arrays (Python ints) per joint pure strategy, over N^9 or (N)_9.
    """
    n = sum(counts)
    if not replacement and n < CARDS_PER_DEAL:
        raise ShoeError(f"a coup of banque may use {CARDS_PER_DEAL} cards; this shoe has {n}")
    # a deal uses the six cards of the hands and up to three more
    pad = np.array([0] * 6 + [n ** (CARDS_PER_DEAL - m) if replacement else perm(n - m, CARDS_PER_DEAL - m)
                              for m in range(6, CARDS_PER_DEAL + 1)], dtype=np.int64)
    modulus = prod(int(p) for p in _PRIMES)
    assert 4 * (n**CARDS_PER_DEAL) < modulus  # every sum's sign is recovered
    weights = [modulus // int(p) * pow(modulus // int(p), -1, int(p)) for p in _PRIMES]
    vc = np.array(counts, dtype=np.int64)
    out = []
    for u1, u2 in JOINT:
        base = np.zeros((len(_PRIMES), 2, 13), dtype=np.int64)
        gain = np.zeros((len(_PRIMES), 2, 12, 12, 8), dtype=np.int64)
        shoe_kernel(vc, replacement, u1, u2, pad, _PRIMES, base, gain)
        out.append((_crt(base, weights, modulus), _crt(gain, weights, modulus)))
    return tuple(out)


def _crt(residues: np.ndarray, weights: list[int], modulus: int) -> np.ndarray:
    """The integers (in (-modulus/2, modulus/2)) with these residues, as an object array."""
    x = sum((residues[k].astype(object) * w for k, w in enumerate(weights)), np.zeros(residues.shape[1:], dtype=object))
    x = x % modulus
    return np.where(x > modulus // 2, x - modulus, x)
