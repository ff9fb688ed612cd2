"""Chemin de fer's Model 3 payoff coefficients, re-derived by a plain count of the deals.

The proof checker (:mod:`baccara.check.chemin`) trusts no coefficient written
by the solver.  This module counts the deals itself, in the order they are
dealt at the table (Player, Banker, Player, Banker, then Player's third card
and Banker's third card), in pure Python integers: slow (a few seconds a
shoe) and obvious, and sharing no code with the compiled kernel that the
solvers use (:mod:`baccara.chemin.kernel`, which enumerates Player's
hand, then Banker's, by unordered compositions).

What is counted (Ethier and Lee 2023, section 4, Model 3).  Player must draw
on 0-4 and stand on 6-7; at total 5 he chooses at each two-card composition
(0,5), (1,4), (2,3), (6,9), (7,8).  Banker's information set is his two-card
composition (total 0-7) and Player's third card (0-9, or 10 for "Player
stood").  Naturals (8 or 9 in either hand) end the coup.  Over the ordered
deals of six cards (``deals`` of them: (N)_6 for a shoe of N cards, 13^6
with replacement), with z the Banker's final total minus Player's:

- ``G[i][0]``: the sum, over deals reaching set i, of sgn(z if Banker draws)
  - sgn(z if he stands), Player standing at all five compositions of 5;
  ``G[i][1 + j]``: the same sum with Player drawing at composition j only,
  minus ``G[i][0]``;
- ``H[i]``: the same for [z > 0] (the commission is paid on Banker's wins);
- ``base_sgn``, ``base_win``: the sums over all deals of sgn(z) and [z > 0]
  with Banker standing everywhere, in the same layout.

Sets are listed in the order (Banker's total, composition, third card), only
those where some sum is not zero.
"""

from __future__ import annotations

import copy
from functools import lru_cache

#: Player's compositions of 5 where he chooses under Model 3, in Ethier and Lee's (2023) order.
FIVES = ((0, 5), (1, 4), (2, 3), (6, 9), (7, 8))
#: Player's third card "none": he stood.
STOOD = 10


def _sgn(x: int) -> int:
    return (x > 0) - (x < 0)


def _shoe(decks: int | None) -> tuple[list[int], int, bool]:
    """Counts of the values 0-9, the number of cards, and whether cards are replaced."""
    if decks is None:
        return [4] + [1] * 9, 13, True
    if isinstance(decks, bool) or not isinstance(decks, int) or decks < 1:
        raise ValueError(f"decks must be a positive integer or None (with replacement), got {decks!r}")
    return [16 * decks] + [4 * decks] * 9, 52 * decks, False


class _Tally:
    """Sums for one strategy of Player: per Banker set (G, H), and over all deals (S, W)."""

    def __init__(self) -> None:
        self.G: dict[tuple, int] = {}
        self.H: dict[tuple, int] = {}
        self.S = 0
        self.W = 0

    def stand(self, weight: int, z: int) -> None:
        self.S += weight * _sgn(z)
        self.W += weight * (z > 0)

    def banker(self, key: tuple, weight: int, z_draw: int, z_stand: int) -> None:
        self.G[key] = self.G.get(key, 0) + weight * (_sgn(z_draw) - _sgn(z_stand))
        self.H[key] = self.H.get(key, 0) + weight * ((z_draw > 0) - (z_stand > 0))


def _after_two(tally: _Tally, player: tuple[int, int], banker: tuple[int, int], left: list[int], n_left: int,
               weight: int, draws: bool, replace: bool) -> None:
    """Add the deals that continue from four dealt cards (``weight`` ways) to ``tally``."""
    pt, bt = sum(player) % 10, sum(banker) % 10
    comp = (min(banker), max(banker))
    if not draws:
        tally.stand(weight * n_left * (n_left - 1) if not replace else weight * n_left * n_left, bt - pt)
        unused = n_left - 1 if not replace else n_left
        for f in range(10):
            if left[f]:
                tally.banker((comp, STOOD), weight * left[f] * unused, (bt + f) % 10 - pt, bt - pt)
        return
    for e in range(10):
        if not left[e]:
            continue
        w_e = weight * left[e]
        pf = (pt + e) % 10
        rest = list(left)
        if not replace:
            rest[e] -= 1
        n_rest = n_left - 1 if not replace else n_left
        tally.stand(w_e * n_rest, bt - pf)
        for f in range(10):
            if rest[f]:
                tally.banker((comp, e), w_e * rest[f], (bt + f) % 10 - pf, bt - pf)


def _tally(decks: int | None, five_draws: tuple[int, ...]) -> tuple[_Tally, int]:
    counts, n, replace = _shoe(decks)
    tally = _Tally()
    for p1 in range(10):
        for b1 in range(10):
            for p2 in range(10):
                for b2 in range(10):
                    left = list(counts)
                    weight = 1
                    for v in (p1, b1, p2, b2):       # dealt in this order at the table
                        weight *= left[v]
                        if not replace:
                            left[v] -= 1
                    if weight <= 0:
                        continue
                    n_left = n - 4 if not replace else n
                    pt, bt = (p1 + p2) % 10, (b1 + b2) % 10
                    if pt >= 8 or bt >= 8:           # a natural: nobody draws
                        rest = n_left * (n_left - 1) if not replace else n_left * n_left
                        tally.stand(weight * rest, bt - pt)
                        continue
                    comp5 = (min(p1, p2), max(p1, p2))
                    if pt == 5:
                        draws = bool(five_draws[FIVES.index(comp5)])
                    else:
                        draws = pt <= 4
                    _after_two(tally, (p1, p2), (b1, b2), left, n_left, weight, draws, replace)
    deals = 1
    for k in range(6):
        deals *= n if replace else n - k
    return tally, deals


def model3_coefficients(decks: int | None) -> dict:
    """Model 3's integer payoff sums for a d-deck shoe (or with replacement), by a plain count.

    Counted once per d in a process (a copy of the count is returned each time, so a caller may
    change it freely).

    Parameters
    ----------
    decks : int or None
        The number of 52-card decks, or None for dealing with replacement (Model A3).

    Returns
    -------
    dict
        ``keys`` (``[[j1, j2], k]`` per Banker set, k = 10 when Player stood), ``G``, ``H``
        (one row of 6 integers per set), ``base_sgn``, ``base_win`` (6 integers each) and
        ``deals`` (the number of ordered six-card deals), as the module docstring defines them.
    """
    return copy.deepcopy(_count(decks))


@lru_cache(maxsize=4)
def _count(decks: int | None) -> dict:
    base, deals = _tally(decks, (0,) * 5)
    units = [_tally(decks, tuple(int(t == j) for t in range(5)))[0] for j in range(5)]
    keys = set(base.G) | {k for u in units for k in u.G}

    def row(field: str, key: tuple) -> list[int]:
        b = getattr(base, field).get(key, 0)
        return [b] + [getattr(u, field).get(key, 0) - b for u in units]

    rows = [(key, row("G", key), row("H", key)) for key in keys]
    rows = [r for r in rows if any(r[1]) or any(r[2])]
    rows.sort(key=lambda r: ((r[0][0][0] + r[0][0][1]) % 10, r[0][0], r[0][1]))
    return {
        "keys": [[list(key[0]), key[1]] for key, _, _ in rows],
        "G": [g for _, g, _ in rows],
        "H": [h for _, _, h in rows],
        "base_sgn": [base.S] + [u.S - base.S for u in units],
        "base_win": [base.W] + [u.W - base.W for u in units],
        "deals": deals,
    }
