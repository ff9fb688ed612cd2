"""Chemin de fer as a game (seed 000; MODELS.md, "Chemin de fer").

Player must draw on 0-4 and stand on 6-7; at 5 he chooses: u = 0 (stand) or
u = 1 (draw), mixing with p = P(draw at 5).  Banker is free at every total
0-7; his information set is (his total or two-card composition, Player's
third-card value 0-9 or "none").  Naturals end the coup.  With z = Banker's
final total minus Player's, Player receives -sgn(z) and Banker
sgn(z) - alpha [z > 0] (commission alpha on Banker wins).

Models (MODELS.md): A = with replacement, B = a d-deck shoe; 1 = each side
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

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb, perm

import numpy as np

from ..errors import BaccaraError
from ..solve.additive import AdditiveGame
from ..solve.sweep import LinearAdditiveGame
from ._chemin_kernel import COMP_INDEX, COMPOSITIONS, NONE, chemin_coefficients

MODELS = ("A1", "A2", "B1", "B2")
THIRD_LABELS = tuple(str(k) for k in range(10)) + ("none",)


def check_model(model: str, decks: int | None) -> tuple[str, int | None]:
    """Validate a model name and deck count; Model A ignores decks (with replacement)."""
    m = str(model).upper()
    if m not in MODELS:
        raise BaccaraError(f"model must be one of {', '.join(MODELS)}, got {model!r}")
    if m.startswith("A"):
        return m, None
    if decks is not None and (isinstance(decks, bool) or not isinstance(decks, int) or decks <= 0):
        raise BaccaraError(f"decks must be a positive integer or infinite, got {decks!r}")
    return m, decks


def check_commission(alpha: Fraction) -> Fraction:
    alpha = Fraction(alpha)
    if not 0 <= alpha < 1:
        raise BaccaraError(f"commission must be in [0, 1), got {alpha}")
    return alpha


def _player_rule(u: int) -> np.ndarray:
    """Player's pure strategy u as draw[a, b] over his two-card values."""
    draw = np.zeros((10, 10), dtype=np.bool_)
    for a in range(10):
        for b in range(10):
            t = (a + b) % 10
            draw[a, b] = t <= 4 or (t == 5 and u == 1)
    return draw


def _direct(vc: list[int], replacement: bool, u: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    g = np.zeros((44, 11), dtype=np.int64)
    h = np.zeros((44, 11), dtype=np.int64)
    base = np.zeros(2, dtype=np.int64)
    chemin_coefficients(np.array(vc, dtype=np.int64), sum(vc), replacement, _player_rule(u), COMP_INDEX, g, h, base)
    return g, h, base


def _deck_counts(d: int) -> list[int]:
    return [16 * d] + [4 * d] * 9


@lru_cache(maxsize=None)
def _forward_differences(u: int) -> np.ndarray:
    """Newton forward differences at d = 1 of every coefficient (rows: order 0..6)."""
    samples = []
    for d in range(1, 8):
        g, h, base = _direct(_deck_counts(d), False, u)
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


@lru_cache(maxsize=512)
def raw_coefficients(decks: int | None, u: int) -> RawCoefficients:
    """Exact G, H, base for a d-deck shoe (None: with replacement) and Player strategy u."""
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
    decks: int | None
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

    def block_key(self, i: int) -> tuple:
        """Seed 000's order of information sets in strategy strings: blocks by
        (Banker total, Player's third card with 'none' first), compositions
        lexicographic within a block."""
        hand, third = self.keys[i]
        return ((_total(hand), -1 if third == NONE else third), hand)

    def at(self, alpha: Fraction) -> AdditiveGame:
        """The additive bimatrix game at commission ``alpha`` (exact rationals)."""
        alpha = check_commission(alpha)
        D = self.deals
        a = tuple(Fraction(-self.base_sgn[u], D) for u in (0, 1))
        b = tuple(Fraction(self.base_sgn[u], D) - alpha * Fraction(self.base_win[u], D) for u in (0, 1))
        h = tuple((Fraction(-G0, D), Fraction(-G1, D)) for G0, G1 in self.G)
        g = tuple(
            (Fraction(G0, D) - alpha * Fraction(H0, D), Fraction(G1, D) - alpha * Fraction(H1, D))
            for (G0, G1), (H0, H1) in zip(self.G, self.H)
        )
        return AdditiveGame(a, b, h, g, self.labels)


def chemin_game(model: str = "B2", decks: int | None = 6) -> CheminGame:
    """Build the chemin de fer game for ``model`` (A1, A2, B1, B2) and ``decks`` (None: infinite)."""
    model, decks = check_model(model, decks)
    return _chemin_game(model, decks)


@lru_cache(maxsize=256)
def _chemin_game(model: str, decks: int | None) -> CheminGame:
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
