"""Chemin de fer as a game (Ethier and Gamez 2013; Ethier and Lee 2023).

Player must draw on 0-4 and stand on 6-7; at 5 he chooses: u = 0 (stand) or
u = 1 (draw), mixing with p = P(draw at 5).  Banker is free at every total
0-7; his information set is (his total or two-card composition, Player's
third-card value 0-9 or "none").  Naturals end the coup.  With z = Banker's
final total minus Player's, Player receives -sgn(z) and Banker
sgn(z) - alpha [z > 0] (commission alpha on Banker wins).

Models (Ethier and Gamez 2013, Ethier and Lee 2023): A = with replacement, B = a d-deck shoe; 1 = each side
sees his total, 2 = Banker sees his composition.  With Banker standing
everywhere as the base, the game is additive (:mod:`baccara.solve.additive`):
for information set i and Player pure strategy u,

    g_i^u(alpha) = (G_i^u - alpha H_i^u) / D     Banker's gain from drawing
    h_i^u        = -G_i^u / D                    Player's gain from it

where G_i^u sums sgn(z_draw) - sgn(z_stand) and H_i^u sums
[z_draw > 0] - [z_stand > 0] over the ordered deals that reach i (joint, not
conditional, probabilities), and D is the number of ordered deals.

For a d-deck shoe every such sum is a polynomial in d of degree at most 6 (a
sum of products of six counts 4d - k or 16d - k), so baccara computes it
exactly for d = 1..7 and evaluates the interpolating polynomial (Newton
forward differences, integers only) for any d; with replacement, directly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from math import comb, perm

import numpy as np

from .. import params
from ..errors import BaccaraError
from ..rules import player_draws
from ..shoe import Shoe, a_decks, shoe_key
from ..solve.additive import AdditiveGame
from ..solve.bilinear import BilinearGame
from ..solve.sweep import LinearAdditiveGame, merge_proportional
from .kernel import COMP_INDEX, COMPOSITIONS, NONE, chemin_coefficients

MODELS = ("A1", "A2", "A3", "B1", "B2", "B3")
THIRD_LABELS = tuple(str(k) for k in range(10)) + ("none",)




def check_model(model: str, decks: int | None | Shoe | tuple[int, ...]) -> tuple[str, int | None | tuple[int, ...]]:
    """Validate a model and a shoe: Model A is the infinite shoe (a finite shoe is refused, as
    ``baccara simulate chemin`` refuses it); Model B on the infinite shoe is Model A.

    Parameters
    ----------
    model : str
        A1, A2, A3, B1, B2 or B3 (any case).
    decks : int, None or Shoe
        d fresh decks, None for the infinite shoe, or any :class:`~baccara.shoe.Shoe`.

    Returns
    -------
    tuple
        The model, upper case, and the shoe as the game keys it: d (fresh decks), None
        (infinite) or the 10 counts by value of any other finite shoe.
    """
    m = str(model).upper()
    if m not in MODELS:
        raise BaccaraError(f"model must be one of {', '.join(MODELS)}, got {model!r}")
    if isinstance(decks, Shoe):
        key = shoe_key(decks)
        if m.startswith("A") and key is not None:
            raise BaccaraError(f"model {m} deals with replacement (the infinite shoe); for this {decks.label()} "
                               f"use Model B{m[1]}")
        if m.startswith("B") and key is None:
            m = "A" + m[1]  # the infinite shoe is Model A
        return m, key
    if isinstance(decks, tuple) and len(decks) == 10:  # a game's own key: a composition by value
        if m.startswith("A"):
            raise BaccaraError(f"model {m} deals with replacement (the infinite shoe); for a composition use "
                               f"Model B{m[1]}")
        return m, decks
    if m.startswith("A"):
        if decks is not None:
            raise BaccaraError(f"model {m} deals with replacement (the infinite shoe) but decks is {decks!r}: "
                               f"give decks 'inf', or Model B{m[1]} for {a_decks(decks)} shoe")
        return m, None
    if decks is None:
        return "A" + m[1], None  # the infinite shoe is Model A
    if isinstance(decks, bool) or not isinstance(decks, int) or decks <= 0:
        raise BaccaraError(f"decks must be a positive integer or infinite, got {decks!r}")
    return m, decks


#: Player's two-card compositions with total 5, where he chooses (Model 3
#: information sets), in Ethier and Lee's (2023) order: strategy bits are read in this order.
FIVES = ((0, 5), (1, 4), (2, 3), (6, 9), (7, 8))
FIVE_LABELS = tuple(f"({a},{b})" for a, b in FIVES)


def _draw5(u) -> tuple[int, ...]:
    """Player's moves at the five compositions of 5: an int u (0/1, Models 1-2:
    one move at total 5) or a 5-tuple of 0/1 (Model 3)."""
    return (int(u),) * 5 if isinstance(u, (int, np.integer)) else tuple(int(x) for x in u)


def _player_rule(draw5: tuple[int, ...]) -> np.ndarray:
    """Player's pure strategy as draw[a, b] over his two-card values: draw on
    0-4, stand on 6-7, at 5 as ``draw5`` says per composition."""
    draw = np.zeros((10, 10), dtype=np.bool_)
    for a in range(10):
        for b in range(10):
            draw[a, b] = player_draws((a + b) % 10, 0)
    for (a, b), x in zip(FIVES, draw5):
        draw[a, b] = draw[b, a] = bool(x)
    return draw


def _direct(vc: list[int], replacement: bool, draw5: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    g = np.zeros((44, 11), dtype=np.int64)
    h = np.zeros((44, 11), dtype=np.int64)
    base = np.zeros(2, dtype=np.int64)
    chemin_coefficients(np.array(vc, dtype=np.int64), sum(vc), replacement, _player_rule(draw5), COMP_INDEX, g, h, base)
    return g, h, base


def _deck_counts(d: int) -> list[int]:
    return [16 * d] + [4 * d] * 9


@cache
def _forward_differences(draw5: tuple[int, ...]) -> np.ndarray:
    """Newton forward differences at d = 1 of every coefficient (rows: order 0..6)."""
    samples = []
    for d in range(1, 8):
        g, h, base = _direct(_deck_counts(d), False, draw5)
        samples.append(np.concatenate([g.ravel(), h.ravel(), base]).astype(object))
    table, diffs = samples, []
    for _ in range(7):
        diffs.append(table[0])
        table = [b - a for a, b in zip(table, table[1:])]
    return np.array(diffs, dtype=object)


@dataclass(frozen=True)
class RawCoefficients:
    """Integer sums G, H (44 compositions x 11 third cards) and base, over ``deals``."""

    g: np.ndarray
    h: np.ndarray
    base: tuple[int, int]
    deals: int


def raw_coefficients(decks: int | None | tuple[int, ...], u) -> RawCoefficients:
    """Exact G, H, base for a d-deck shoe (None: with replacement; a tuple: the 10 counts
    by value of any finite shoe) and Player's pure strategy: u = 0/1 (stand/draw at 5)
    or a 5-tuple over :data:`FIVES`."""
    return _raw_coefficients(decks, _draw5(u))


@lru_cache(maxsize=1024)
def _raw_coefficients(decks: int | None | tuple[int, ...], u: tuple[int, ...]) -> RawCoefficients:
    if isinstance(decks, tuple):  # any composition: the kernel directly
        g, h, base = _direct(list(decks), False, u)
        return RawCoefficients(g.astype(object), h.astype(object), (int(base[0]), int(base[1])), perm(sum(decks), 6))
    if decks is None:
        g, h, base = _direct([4, 1, 1, 1, 1, 1, 1, 1, 1, 1], True, u)
        return RawCoefficients(g.astype(object), h.astype(object), (int(base[0]), int(base[1])), 13**6)
    if decks <= 7:
        g, h, base = _direct(_deck_counts(decks), False, u)
        flat = np.concatenate([g.ravel(), h.ravel(), base]).astype(object)
    else:
        diffs = _forward_differences(u)
        weights = np.array([comb(decks - 1, k) for k in range(7)], dtype=object)
        flat = weights @ diffs
    g = flat[:484].reshape(44, 11)
    h = flat[484:968].reshape(44, 11)
    return RawCoefficients(g, h, (int(flat[968]), int(flat[969])), perm(52 * decks, 6))


def infoset_label(key: tuple, model: str) -> str:
    """``"(0,6)|none"`` for a composition, ``"6|none"`` for a total (Model 1)."""
    hand, third = key
    left = f"({hand[0]},{hand[1]})" if isinstance(hand, tuple) else str(hand)
    return f"{left}|{THIRD_LABELS[third]}"


@dataclass(frozen=True)
class CheminGame:
    """Chemin de fer under one model and shoe, as an additive game linear in alpha.

    ``keys[i]`` is Banker's information set i: ((j1, j2) or total, third card
    0-9 or 10 = none).  Integer coefficients over ``deals``:
    ``G[i][u]``, ``H[i][u]``; ``base_sgn[u]``, ``base_win[u]`` (Banker standing
    everywhere).  Information sets never reached are dropped.
    """

    model: str
    decks: int | None | tuple[int, ...]
    keys: tuple[tuple, ...]
    G: tuple[tuple[int, int], ...]
    H: tuple[tuple[int, int], ...]
    base_sgn: tuple[int, int]
    base_win: tuple[int, int]
    deals: int

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(infoset_label(k, self.model) for k in self.keys)

    def index(self, label: str) -> int:
        """Information set index of a label like ``"(3,3)|6"``."""
        return self.labels.index(label)

    def linear(self) -> LinearAdditiveGame:
        """The game with Banker's gains linear in alpha, for the alpha sweep (scaled by D)."""
        return LinearAdditiveGame(
            c=self.G,
            e=tuple((-H0, -H1) for H0, H1 in self.H),
            delta=tuple(-(G1 - G0) for G0, G1 in self.G),
            delta_base=-(self.base_sgn[1] - self.base_sgn[0]),
            labels=self.labels,
        )

    def equivalent_sets(self) -> list[tuple[int, ...]]:
        """Banker's information sets grouped where their payoffs are proportional at every
        commission (both players'; :func:`~baccara.solve.sweep.merge_proportional`), as
        Model A2's compositions of one total are.  A group is one decision: its members play
        alike, and any split with the same weighted total is an equivalent equilibrium.

        Returns
        -------
        list of tuple of int
            The groups, singletons included, in Ethier and Lee's order of their first member.
        """
        return _equivalent_sets(self)

    def block_key(self, i: int) -> tuple:
        """Ethier and Lee's (2023) order of information sets in strategy strings: blocks by
        (Banker total, Player's third card with 'none' first), compositions
        lexicographic within a block."""
        hand, third = self.keys[i]
        return ((_total(hand), -1 if third == NONE else third), hand)

    def at(self, alpha: Fraction | int | float | str) -> AdditiveGame:
        """The additive bimatrix game at commission ``alpha`` (exact rationals).

        Parameters
        ----------
        alpha : Fraction, int, float or str
            The commission, in [0, 1).  A Fraction is trusted, as :func:`baccara.params.commission`
            returns it to the faces and the solvers; any other value (``0.05``, ``"1/20"``) is read
            and checked by it, so that a user's float never gives float payoffs.

        Returns
        -------
        AdditiveGame
            Player's and Banker's payoffs at ``alpha``.
        """
        alpha = _exact(alpha)
        D = self.deals
        a = tuple(Fraction(-self.base_sgn[u], D) for u in (0, 1))
        b = tuple(Fraction(self.base_sgn[u], D) - alpha * Fraction(self.base_win[u], D) for u in (0, 1))
        h = tuple((Fraction(-G0, D), Fraction(-G1, D)) for G0, G1 in self.G)
        g = tuple(
            (Fraction(G0, D) - alpha * Fraction(H0, D), Fraction(G1, D) - alpha * Fraction(H1, D))
            for (G0, G1), (H0, H1) in zip(self.G, self.H)
        )
        return AdditiveGame(a, b, h, g, self.labels)


def _exact(alpha) -> Fraction:
    """A commission the solvers parsed (a Fraction) as is; a user's value read by :mod:`baccara.params`."""
    return alpha if isinstance(alpha, Fraction) else params.commission(alpha, "alpha")


@lru_cache(maxsize=64)
def _equivalent_sets(game: CheminGame) -> list[tuple[int, ...]]:
    # Banker's gains are (G - alpha H) / D and Player's -G / D: sets proportional in (G, H)
    # are equivalent at every commission, whatever sets happen to be proportional at one
    return merge_proportional(game.linear(), game.block_key)[1]


def chemin_game(model: str = "B2", decks: int | None | Shoe | tuple[int, ...] = 6) -> CheminGame | CheminGame3:
    """The chemin de fer game under ``model`` on a shoe.

    Parameters
    ----------
    model : str
        A1, A2, A3 (with replacement) or B1, B2, B3 (without); 1: Banker sees his
        total, 2: his composition, 3: Player sees his composition too.
    decks : int, None or Shoe
        d fresh decks, None for the infinite shoe, or any :class:`~baccara.shoe.Shoe`
        (a depleted shoe, a composition by rank or by value); a shoe holding exactly
        d fresh decks is the d-deck game.

    Returns
    -------
    CheminGame or CheminGame3
        The additive game (Models 1-2) or the bilinear one (Model 3).
    """
    model, key = check_model(model, decks)
    return _chemin_game3(model, key) if model.endswith("3") else _chemin_game(model, key)


@dataclass(frozen=True)
class CheminGame3:
    """Chemin de fer under Model 3 (Ethier and Lee 2023, section 4): Player sees his composition, so he
    chooses at each of the five compositions of 5 (:data:`FIVES`), Banker at each
    (composition, Player's third card or none).

    Deals split by Player's composition, so every ordered-deal sum is affine in
    Player's moves y (one pattern per composition): with ``S`` the sums for
    Player standing at all five and ``S_j`` for drawing only at FIVES[j],
    S(y) = S + sum_j y_j (S_j - S).  Stored as integers over ``deals``:
    ``G[i] = (G_i, G_i^1 - G_i, ..., G_i^5 - G_i)``, ``H[i]`` likewise,
    ``base_sgn``/``base_win`` likewise (Banker standing everywhere).  Banker's
    gain from drawing at i is (G_i(y) - alpha H_i(y)) / D, Player's -G_i(y) / D:
    a bilinear game (:class:`~baccara.solve.bilinear.BilinearGame`).
    """

    model: str
    decks: int | None | tuple[int, ...]
    keys: tuple[tuple, ...]
    G: tuple[tuple[int, ...], ...]
    H: tuple[tuple[int, ...], ...]
    base_sgn: tuple[int, ...]
    base_win: tuple[int, ...]
    deals: int

    player_labels = FIVE_LABELS

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(infoset_label(k, "B2") for k in self.keys)

    def index(self, label: str) -> int:
        return self.labels.index(label)

    def equivalent_sets(self) -> list[tuple[int, ...]]:
        """Banker's information sets grouped where their payoffs are proportional at every
        commission (both players'; :func:`~baccara.solve.sweep.merge_proportional`), as
        Model A2's compositions of one total are.  A group is one decision: its members play
        alike, and any split with the same weighted total is an equivalent equilibrium.

        Returns
        -------
        list of tuple of int
            The groups, singletons included, in Ethier and Lee's order of their first member.
        """
        return _equivalent_sets(self)

    def block_key(self, i: int) -> tuple:
        hand, third = self.keys[i]
        return ((_total(hand), -1 if third == NONE else third), hand)

    def at(self, alpha: Fraction | int | float | str) -> BilinearGame:
        """The bilinear game at commission ``alpha``: player I = Player (y over FIVES),
        player II = Banker (x over ``keys``), exact rationals.

        Parameters
        ----------
        alpha : Fraction, int, float or str
            The commission, in [0, 1).  A Fraction is trusted, as :func:`baccara.params.commission`
            returns it to the faces and the solvers; any other value (``0.05``, ``"1/20"``) is read
            and checked by it, so that a user's float never gives float payoffs.

        Returns
        -------
        BilinearGame
            Player's and Banker's payoffs at ``alpha``.
        """
        alpha = _exact(alpha)
        D = self.deals
        S, W = self.base_sgn, self.base_win
        return BilinearGame(
            a0=Fraction(-S[0], D), a=tuple(Fraction(-v, D) for v in S[1:]),
            b0=Fraction(S[0], D) - alpha * Fraction(W[0], D),
            b=tuple(Fraction(s, D) - alpha * Fraction(w, D) for s, w in zip(S[1:], W[1:])),
            h0=tuple(Fraction(-G[0], D) for G in self.G),
            h=tuple(tuple(Fraction(-v, D) for v in G[1:]) for G in self.G),
            g0=tuple(Fraction(G[0], D) - alpha * Fraction(H[0], D) for G, H in zip(self.G, self.H)),
            g=tuple(tuple(Fraction(gv, D) - alpha * Fraction(hv, D) for gv, hv in zip(G[1:], H[1:]))
                    for G, H in zip(self.G, self.H)),
            labels_I=FIVE_LABELS, labels_II=self.labels,
        )

    def restricted(self, player: Sequence[int], free: int = 1) -> CheminGame:
        """The Model 2-style additive game in which Player plays ``player`` (0/1 per
        composition of 5) except at FIVES[free], where he chooses: a 2 x 2^n game for
        Foster's algorithm and the alpha sweep."""
        def at_u(vec, u):
            y = [int(v) for v in player]
            y[free] = u
            return vec[0] + sum(c * v for c, v in zip(y, vec[1:]))
        return CheminGame(
            model=self.model, decks=self.decks, keys=self.keys,
            G=tuple((at_u(G, 0), at_u(G, 1)) for G in self.G),
            H=tuple((at_u(H, 0), at_u(H, 1)) for H in self.H),
            base_sgn=(at_u(self.base_sgn, 0), at_u(self.base_sgn, 1)),
            base_win=(at_u(self.base_win, 0), at_u(self.base_win, 1)),
            deals=self.deals,
        )


@lru_cache(maxsize=256)
def _chemin_game3(model: str, decks: int | None | tuple[int, ...]) -> CheminGame3:
    base = raw_coefficients(decks, (0,) * 5)
    units = [raw_coefficients(decks, tuple(int(t == j) for t in range(5))) for j in range(5)]
    keys, G, H = [], [], []
    for c, hand in enumerate(COMPOSITIONS):
        for k in range(11):
            g = [int(base.g[c, k])] + [int(u.g[c, k]) - int(base.g[c, k]) for u in units]
            h = [int(base.h[c, k])] + [int(u.h[c, k]) - int(base.h[c, k]) for u in units]
            if any(g) or any(h):
                keys.append((hand, k))
                G.append(tuple(g))
                H.append(tuple(h))
    order = sorted(range(len(keys)), key=lambda t: (_total(keys[t][0]), keys[t][0], keys[t][1]))
    return CheminGame3(
        model=model, decks=decks,
        keys=tuple(keys[t] for t in order), G=tuple(G[t] for t in order), H=tuple(H[t] for t in order),
        base_sgn=(base.base[0],) + tuple(u.base[0] - base.base[0] for u in units),
        base_win=(base.base[1],) + tuple(u.base[1] - base.base[1] for u in units),
        deals=base.deals,
    )


@lru_cache(maxsize=256)
def _chemin_game(model: str, decks: int | None | tuple[int, ...]) -> CheminGame:
    raw = [raw_coefficients(decks, u) for u in (0, 1)]
    by_total = model.endswith("1")
    sums: dict[tuple, list[int]] = {}
    for c, (j1, j2) in enumerate(COMPOSITIONS):
        hand = (j1 + j2) % 10 if by_total else (j1, j2)
        for k in range(11):
            s = sums.setdefault((hand, k), [0, 0, 0, 0])
            for u in (0, 1):
                s[u] += int(raw[u].g[c, k])
                s[2 + u] += int(raw[u].h[c, k])
    keys = tuple(k for k, s in sums.items() if any(s))
    keys = tuple(sorted(keys, key=lambda k: (_total(k[0]), k[0] if isinstance(k[0], tuple) else (), k[1])))
    return CheminGame(
        model=model,
        decks=decks,
        keys=keys,
        G=tuple((sums[k][0], sums[k][1]) for k in keys),
        H=tuple((sums[k][2], sums[k][3]) for k in keys),
        base_sgn=(raw[0].base[0], raw[1].base[0]),
        base_win=(raw[0].base[1], raw[1].base[1]),
        deals=raw[0].deals,
    )


def _total(hand) -> int:
    return (hand[0] + hand[1]) % 10 if isinstance(hand, tuple) else hand
