"""Baccara banque's payoff coefficients by a plain count of the deals (for the checker only).

The checker of banque proofs (:mod:`baccara.check.banque`) must not trust the
solver's game, so it counts the deals again here, written from the rules and
nothing else (Ethier and Lee 2015, section 2; cards dealt with replacement):

- each of Player 1, Player 2 and Banker gets two cards; a card's rank is one of
  13 equally likely, its value the rank's pip count modulo 10 (ten and faces 0);
- if Banker has a natural (8 or 9), or both Players have one, play ends and each
  Player's result is the sign of his total minus Banker's;
- otherwise a Player with a natural wins (+1); one without draws a third card
  at 0-4, stands at 6-7, and at 5 draws when his pure strategy u says so;
- Banker then sees (k1, k2, j): what each Player shows (third card's value 0-9,
  10 stood, 11 natural) and his own total j, and stands or draws.

Every deal is weighed as nine ranks, each of 13: a card a deal does not use
counts 13 (every rank), so every sum is an integer over 13^9.  For the
Players' pure strategies u = (u1, u2) the count gives each Player's result with
Banker standing everywhere (``base``) and the change in it when Banker draws at
one information set (``gain``).  It is slow (a few seconds) and obvious; a test
holds it equal to the solver's game.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from . import Step

#: The Players' joint pure strategies at total 5 (u1, u2), in the solver's order.
JOINT = ((0, 0), (0, 1), (1, 0), (1, 1))
STOOD, NATURAL = 10, 11
#: A deal is counted as nine ranks of 13.
DENOMINATOR = 13**9


def _value(rank: int) -> int:
    """Ace 1, two to nine their pips, ten and faces 0 (rank 1-13)."""
    return rank % 10 if rank < 10 else 0


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def _player_draws(total: int, u: int) -> bool:
    """A Player without a natural draws at 0-4, stands at 6-7, and at 5 as u says."""
    return total <= 4 or (total == 5 and u == 1)


@lru_cache(maxsize=1)
def deal_sums() -> dict:
    """Each Player's result summed over the deals, per joint pure strategy, over 13^9.

    Returns
    -------
    dict
        ``base[u]`` = (Player 1's sum, Player 2's sum) with Banker standing everywhere;
        ``gain[u]`` = {(k1, k2, j): (Player 1's change, Player 2's change)} when Banker draws
        rather than stands at (k1, k2, j) (only the sets where a change is nonzero);
        ``denominator`` = 13^9.
    """
    values = [_value(r) for r in range(1, 14)]
    card = [0] * 10                      # ranks of each value, of 13
    for v in values:
        card[v] += 1
    hand = [0] * 10                      # two-card hands of each total, of 13^2
    for a in values:
        for b in values:
            hand[(a + b) % 10] += 1
    base: list[tuple[int, int]] = []
    gain: list[dict] = []
    for u1, u2 in JOINT:
        s1 = s2 = 0
        g: dict[tuple[int, int, int], list[int]] = {}
        for i1 in range(10):
            for i2 in range(10):
                for j in range(10):
                    w = hand[i1] * hand[i2] * hand[j]
                    if j >= 8 or (i1 >= 8 and i2 >= 8):
                        s1 += w * 13**3 * _sign(i1 - j)
                        s2 += w * 13**3 * _sign(i2 - j)
                        continue
                    for c1, f1, w1 in _third(i1, u1, values):
                        for c2, f2, w2 in _third(i2, u2, values):
                            ww = w * w1 * w2
                            r1 = 1 if c1 == NATURAL else _sign(f1 - j)
                            r2 = 1 if c2 == NATURAL else _sign(f2 - j)
                            s1 += ww * 13 * r1          # Banker stands: his third rank unused
                            s2 += ww * 13 * r2
                            d1 = d2 = 0
                            for v in values:            # Banker draws: each of 13 ranks
                                b = (j + v) % 10
                                d1 += (1 if c1 == NATURAL else _sign(f1 - b)) - r1
                                d2 += (1 if c2 == NATURAL else _sign(f2 - b)) - r2
                            if d1 or d2:
                                row = g.setdefault((c1, c2, j), [0, 0])
                                row[0] += ww * d1
                                row[1] += ww * d2
        base.append((s1, s2))
        gain.append({k: (a, b) for k, (a, b) in g.items()})
    return {"base": base, "gain": gain, "denominator": DENOMINATOR}


def _third(total: int, u: int, values: list[int]) -> list[tuple[int, int, int]]:
    """(what Banker sees, final total, weight of 13) for each way a Player's hand ends."""
    if total >= 8:
        return [(NATURAL, total, 13)]
    if _player_draws(total, u):
        return [(v, (total + v) % 10, 1) for v in values]     # one entry per rank
    return [(STOOD, total, 13)]


def coefficient_table() -> dict:
    """The counts as a table keyed like the artefact's ``game.coefficients``.

    Returns
    -------
    dict
        ``{"denominator": int, "base": [[P1 sum, P2 sum] per joint u],
        "gain": {"(k1,k2,j)": [[P1 change per joint u], [P2 change per joint u]]}}``, integers,
        the sets with every change zero left out.
    """
    s = deal_sums()
    keys = sorted({k for g in s["gain"] for k in g})
    gain = {}
    for k in keys:
        rows = [[s["gain"][u].get(k, (0, 0))[p] for u in range(4)] for p in (0, 1)]
        if any(any(r) for r in rows):
            gain["({},{},{})".format(*k)] = rows
    return {"denominator": s["denominator"], "base": [list(b) for b in s["base"]], "gain": gain}


def game_steps(doc: dict, version: int) -> tuple[list[Step], dict | None]:
    """The first steps of every banque checker: the artefact's version, its game, and its
    coefficients against the checker's own count (any difference fails).

    Parameters
    ----------
    doc : dict
        The artefact.
    version : int
        The artefact version the calling checker reads.

    Returns
    -------
    tuple
        (the steps, the checker's own :func:`coefficient_table`), or (the failed step, None)
        when the version or the game is not one this checker counts.
    """
    if doc.get("version") != version:
        return [Step("version", False, f"this checker reads version {version}, got {doc.get('version')!r}")], None
    shoe: Any = doc["game"]["shoe"]
    if shoe.get("kind") != "infinite" or doc["game"].get("model") != "simplified":
        return [Step("game", False, f"this checker counts the simplified model on the infinite shoe only, "
                     f"got {shoe}")], None
    own = coefficient_table()
    theirs = doc["game"]["coefficients"]
    bad = []
    if int(theirs["denominator"]) != own["denominator"]:
        bad.append("denominator")
    if [[int(v) for v in r] for r in theirs["base"]] != own["base"]:
        bad.append("base")
    tg = {k: [[int(v) for v in r] for r in rows] for k, rows in theirs["gain"].items()}
    bad += sorted(k for k in set(tg) | set(own["gain"]) if tg.get(k) != own["gain"].get(k))
    return [Step("coefficients", not bad, "equal to the checker's own count of the deals" if not bad else
                 f"differ from the checker's count at {len(bad)} entries, first {bad[:3]}")], own
