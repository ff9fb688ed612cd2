"""Baccara banque's oracle for the tests, written apart from the package: Ethier and Lee (2015)'s rules played
on every deal, counted from the card weights.

Ethier and Lee (2015), section 1's rules, dealt with replacement (their model, after Kemeny and Snell): a
card's value is 0 with probability 4/13 (10, J, Q, K) and 1-9 with 1/13 each.  If Banker or both Players
have naturals (8 or 9), play ends; a Player with the only natural wins; otherwise a Player draws on 0-4,
stands on 6-7 and chooses at 5, and Banker, seeing each Player's third card (10: stood, 11: natural) and his
own total j, draws or stands.  Everything is counted in whole units of 13^-9 (three hands, each two
cards and a third card or not).  Player 2's move at 5 may depend on what he sees of Player 1: nothing
(the simplified model), whether Player 1 drew, stood or has a natural (recent), or his third card (traditional).
"""

from __future__ import annotations

from fractions import Fraction as F
from functools import cache

#: A card value's weight out of 13 (value 0: 10, J, Q, K).
WEIGHT = (4, 1, 1, 1, 1, 1, 1, 1, 1, 1)
#: A two-card total's weight out of 169.
TWO = tuple(sum(WEIGHT[a] * WEIGHT[b] for a in range(10) for b in range(10) if (a + b) % 10 == t) for t in range(10))


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


@cache
def _hand(draws_at_5: int) -> dict[int, tuple[tuple[int, int], ...]]:
    """A Player's hand: {k: ((final total, weight out of 13^3), ...)}, k his third card (10 stood, 11 natural)."""
    out: dict[int, list] = {}
    for t in range(10):
        if t >= 8:
            out.setdefault(11, []).append((t, 13 * TWO[t]))
        elif t <= 4 or (t == 5 and draws_at_5):
            for c in range(10):
                out.setdefault(c, []).append(((t + c) % 10, TWO[t] * WEIGHT[c]))
        else:
            out.setdefault(10, []).append((t, 13 * TWO[t]))
    return {k: tuple(v) for k, v in out.items()}


def _against(finals, natural: bool, j: int) -> tuple[int, int]:
    """A hand's results against Banker's two-card total j < 8 (x 13 for Banker's third card or none):
    Banker standing, Banker drawing.  A natural wins either way."""
    if natural:
        won = 13 * sum(w for _, w in finals)
        return won, won
    stand = sum(w * 13 * _sign(f - j) for f, w in finals)
    draw = sum(w * WEIGHT[c] * _sign(f - (j + c) % 10) for f, w in finals for c in range(10))
    return stand, draw


@cache
def oracle_cells(theta, u1: int, k1: int, b: int) -> dict[tuple[int, int], tuple]:
    """{(k2, j): (Banker stands, Banker draws)}: the Players' expectation x 13^9 (theta on Player 1's hand) over
    the deals with Player 1 drawing at 5 when u1, showing k1, Player 2 drawing at 5 when b, Banker's total j < 8."""
    h1 = _hand(u1).get(k1, ())
    w1 = sum(w for _, w in h1)
    out = {}
    for k2, h2 in _hand(b).items():
        w2 = sum(w for _, w in h2)
        for j in range(8):
            s1, d1 = _against(h1, k1 == 11, j)
            s2, d2 = _against(h2, k2 == 11, j)
            out[(k2, j)] = (TWO[j] * (theta * w2 * s1 + (1 - theta) * w1 * s2),
                            TWO[j] * (theta * w2 * d1 + (1 - theta) * w1 * d2))
    return out


def oracle_banker_natural(theta) -> F:
    """The deals where Banker has a natural (x 13^9): every hand's two cards compared, no one moves."""
    return sum((13 * TWO[t1]) * (13 * TWO[t2]) * (13 * TWO[j]) * (theta * _sign(t1 - j) + (1 - theta) * _sign(t2 - j))
               for t1 in range(10) for t2 in range(10) for j in (8, 9))


#: Player 2's move at 5 by what he sees of Player 1 (k1 = 0-9 his third card, 10 stood, 11 natural): the classes
CLASS_OF = {"simplified": (0,) * 12, "recent": (0,) * 10 + (1, 2), "traditional": tuple(range(12))}


def oracle_payoff(theta, model: str, u1: int, bits, q: dict) -> F:
    """The Players' expectation for the team strategy (u1, bits) against Banker drawing with probability
    q[(k1, k2, j)]."""
    total = oracle_banker_natural(theta)
    for k1 in range(12):
        for (k2, j), (s, d) in oracle_cells(theta, u1, k1, bits[CLASS_OF[model][k1]]).items():
            x = q.get((k1, k2, j), 0)
            total += s + x * (d - s)
    return F(total) / 13**9


def oracle_best_reply(theta, model: str, q: dict) -> F:
    """The team's best pure reply to q: Player 2's move in each class of what he sees is chosen apart."""
    classes = CLASS_OF[model]
    best = None
    for u1 in (0, 1):
        total = F(oracle_banker_natural(theta))
        for c in sorted(set(classes)):
            total += max(sum(s + q.get((k1, k2, j), 0) * (d - s)
                             for k1 in range(12) if classes[k1] == c
                             for (k2, j), (s, d) in oracle_cells(theta, u1, k1, b).items()) for b in (0, 1))
        best = total if best is None else max(best, total)
    return best / 13**9


def oracle_guaranteed(theta, model: str, mixture: dict) -> F:
    """What the team's mixture {(u1, bits): weight} guarantees: Banker's best reply stands or draws at each
    (k1, k2, j) apart (his move there changes only those deals)."""
    total = F(oracle_banker_natural(theta)) * sum(mixture.values())
    for k1 in range(12):
        cell_sums: dict = {}
        for (u1, bits), wt in mixture.items():
            for key, (s, d) in oracle_cells(theta, u1, k1, bits[CLASS_OF[model][k1]]).items():
                a, b = cell_sums.get(key, (0, 0))
                cell_sums[key] = (a + wt * s, b + wt * d)
        total += sum(min(s, d) for s, d in cell_sums.values())
    return total / 13**9


def banker_q(sol) -> dict:
    """Banker's draw probabilities by (k1, k2, j), from the solution's q over the information sets."""
    return {k: x for k, x in zip(sol.game.source.infosets, sol.solution.q) if x}


def banker_gain_roots(p1, p2, lo, hi) -> list[F]:
    """The thetas in (lo, hi) where Banker's gain from drawing at some (k1, k2, j) changes sign, the Players
    drawing at 5 each on his own with probabilities p1 and p2: every gain is a line in theta (the stakes
    theta and 1 - theta), so these are the roots of the lines."""
    mixture = {(u1, u2): (p1 if u1 else 1 - p1) * (p2 if u2 else 1 - p2) for u1 in (0, 1) for u2 in (0, 1)}

    def gains(theta) -> dict:
        out: dict = {}
        for k1 in range(12):
            for (u1, u2), w in mixture.items():
                for (k2, j), (s, d) in oracle_cells(theta, u1, k1, u2).items():
                    out[k1, k2, j] = out.get((k1, k2, j), 0) + w * (d - s)
        return out

    at0, at1 = gains(F(0)), gains(F(1))
    roots = {at0[k] / (at0[k] - at1[k]) for k in at0 if at0[k] != at1[k]}
    return sorted(t for t in roots if lo < t < hi)
