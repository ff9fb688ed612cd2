"""Shoe integrity from the hands alone: the shoe's cards, the drawing table, and whether the shuffle was random.

- **Cards.**  No shoe holds more of a card than its d decks (the log is refused
  otherwise, :mod:`.logs`); each shoe's cards unseen are listed (what is missing, when
  the log covers the whole shoe), and a test asks whether the cards logged could be the
  top of a randomly shuffled d-deck shoe (the chi-square distance of the ranks logged
  from their expectation, against random draws of as many cards from the d decks).
- **The drawing table.**  Every coup was checked as the log was read.
- **Order carried from shoe to shoe.**  A shuffle that leaves the last shoe's order in
  place keeps its neighbours together: the statistic counts the cards of a shoe whose
  successor in the deal (same rank and suit) followed it in the previous shoe too; the
  p-value compares it with the shoe's cards in random orders.
- **The first card's class** (when logged): against the first card's rank (backs that
  tell ranks apart: a sorted shoe) and against the coup's winner, each a chi-square
  statistic of the two-way table with a p-value from the classes permuted within shoes.

Every p-value is a Monte Carlo one, ``(1 + #{random >= observed}) / (1 + draws)``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..cards import RANKS
from ..rules import PUNTO_BANCO, Tableau
from .evs import coup_cell
from .logs import HandLog, card_name

#: Random draws per integrity test by default.
DEFAULT_DRAWS = 999


def _chi2(table: np.ndarray) -> float:
    t = np.asarray(table, dtype=float)
    n = t.sum()
    if n == 0:
        return 0.0
    exp = np.outer(t.sum(axis=1), t.sum(axis=0)) / n
    ok = exp > 0
    return float((((t - exp) ** 2)[ok] / exp[ok]).sum())


def _p(observed: float, null: np.ndarray) -> float:
    return float((1 + np.sum(null >= observed - 1e-9 * (1 + abs(observed)))) / (1 + len(null)))


def carried_pairs(previous: np.ndarray, current: np.ndarray) -> int:
    """Cards of ``current`` whose successor (the same card code) also followed them in ``previous``.

    Parameters
    ----------
    previous, current : numpy.ndarray
        Card codes in deal order.

    Returns
    -------
    int
        The count.
    """
    seen = np.zeros(52 * 52, dtype=bool)
    if len(previous) > 1:
        seen[previous[:-1] * 52 + previous[1:]] = True
    if len(current) < 2:
        return 0
    return int(seen[current[:-1] * 52 + current[1:]].sum())


@dataclass(frozen=True)
class Integrity:
    """The shoe integrity checks of a hand log (:func:`shoe_integrity`).

    Attributes
    ----------
    doc : dict
        The JSON document (``shoes``, ``drawing_table``, ``composition``, ``carried_order``,
        ``class_vs_rank``, ``class_vs_outcome``).
    """

    doc: dict

    @property
    def alarms(self) -> list[str]:
        """The checks whose p-value is at most the stated rate, in words."""
        alpha = self.doc["alpha"]
        out = []
        for key, what in (("composition", "the cards logged are not a random part of the decks"),
                          ("carried_order", "card order carried over from the previous shoe"),
                          ("class_vs_rank", "the backs of the first cards tell their ranks apart (a sorted shoe)"),
                          ("class_vs_outcome", "the first card's class goes with the winner")):
            t = self.doc.get(key)
            if t and t.get("p") is not None and t["p"] <= alpha:
                out.append(f"{what} (p = {t['p']:.4g})")
        return out


def shoe_integrity(hands: HandLog, tableau: Tableau = PUNTO_BANCO, draws: int = DEFAULT_DRAWS, seed: int = 0,
                   alpha: float = 0.01) -> Integrity:
    """Check the shoes of a hand log: their cards, the drawing table, and the randomness of the shuffle.

    Parameters
    ----------
    hands : HandLog
        The hands (already checked: no excess cards, every coup by the table).
    tableau : Tableau
        The drawing rules.
    draws : int
        Random draws per Monte Carlo p-value.
    seed : int
        Their seed.
    alpha : float
        The rate at which a p-value raises an alarm.

    Returns
    -------
    Integrity
        The checks.
    """
    rng = np.random.default_rng([seed, 0xA11D])
    d = hands.decks
    full_ranks = np.full(13, 4 * d)
    shoes = []
    comp_obs, comp_null = 0.0, np.zeros(draws)
    for s in hands.shoes:
        seq = np.array(s.sequence(), dtype=np.int64)
        counts = np.bincount(seq, minlength=52)
        unseen = {card_name(c): int(d - counts[c]) for c in range(52) if d - counts[c] > 0}
        shoes.append({"shoe": s.shoe, "coups": len(s.coups), "cards_logged": int(len(seq)),
                      "complete": bool(len(seq) == 52 * d), "cards_unseen": int(52 * d - len(seq)),
                      "unseen": unseen if len(seq) >= 52 * d - 52 else None})
        k = len(seq)
        if 0 < k < 52 * d:
            ranks = np.bincount(seq // 4, minlength=13)
            exp = full_ranks * k / (52 * d)
            comp_obs += float(((ranks - exp) ** 2 / exp).sum())
            sample = rng.multivariate_hypergeometric(full_ranks, k, size=draws)
            comp_null += ((sample - exp) ** 2 / exp).sum(axis=1)
    doc: dict = {
        "alpha": alpha,
        "draws": draws,
        "shoes": shoes,
        "drawing_table": {"tableau": tableau.name, "coups": sum(len(s.coups) for s in hands.shoes),
                          "all_follow": True},
        "composition": {"statistic": comp_obs, "p": _p(comp_obs, comp_null)} if comp_obs else None,
    }
    # order carried from shoe to shoe
    if len(hands.shoes) > 1:
        obs, null = 0, np.zeros(draws)
        pairs = []
        for a, b in zip(hands.shoes[:-1], hands.shoes[1:]):
            prev, cur = np.array(a.sequence(), dtype=np.int64), np.array(b.sequence(), dtype=np.int64)
            x = carried_pairs(prev, cur)
            obs += x
            seen = np.zeros(52 * 52, dtype=bool)
            seen[prev[:-1] * 52 + prev[1:]] = True
            perm = np.argsort(rng.random((draws, len(cur))), axis=1)
            shuffled = cur[perm]
            y = seen[shuffled[:, :-1] * 52 + shuffled[:, 1:]].sum(axis=1)
            null += y
            pairs.append({"from": a.shoe, "to": b.shoe, "carried": x, "expected": float(y.mean())})
        doc["carried_order"] = {"statistic": obs, "expected": float(null.mean()), "p": _p(obs, null), "pairs": pairs}
    else:
        doc["carried_order"] = None
    # the first card's class
    if hands.has_classes:
        cls, rank, win, shoe_of = [], [], [], []
        for si, s in enumerate(hands.shoes):
            for c in s.coups:
                if c.first_class:
                    cls.append(1 if c.first_class == "S" else 0)
                    rank.append(c.cards[0] // 4)
                    win.append(_winner(coup_cell(c.cards, tableau)))
                    shoe_of.append(si)
        cls_a, rank_a, win_a, shoe_a = map(np.array, (cls, rank, win, shoe_of))
        perms = _within(shoe_a, draws, rng)
        for key, other, n_other in (("class_vs_rank", rank_a, 13), ("class_vs_outcome", win_a, 3)):
            obs_t = _chi2(_table(cls_a, other, n_other))
            null_t = np.array([_chi2(_table(cls_a[p], other, n_other)) for p in perms])
            doc[key] = {"statistic": obs_t, "p": _p(obs_t, null_t), "coups": int(len(cls_a))}
        sorted_ranks = [RANKS[r] for r in range(13) if np.sum((rank_a == r) & (cls_a == 1)) > np.sum(
            (rank_a == r) & (cls_a == 0))]
        doc["class_vs_rank"]["ranks_mostly_sorted"] = sorted_ranks
    else:
        doc["class_vs_rank"] = doc["class_vs_outcome"] = None
    return Integrity(doc)


def _winner(cell: int) -> int:
    """0 banker, 1 player, 2 tie, from a flat cell."""
    _, _, pt, _, bt, _ = np.unravel_index(cell, (3, 3, 10, 2, 10, 2))
    return 0 if bt > pt else 1 if pt > bt else 2


def _table(cls: np.ndarray, other: np.ndarray, n: int) -> np.ndarray:
    t = np.zeros((2, n))
    np.add.at(t, (cls, other), 1)
    return t


def _within(groups: np.ndarray, draws: int, rng: np.random.Generator) -> list[np.ndarray]:
    """Index permutations that shuffle within each group."""
    out = []
    idx = np.arange(len(groups))
    members = [idx[groups == g] for g in np.unique(groups)]
    for _ in range(draws):
        p = idx.copy()
        for m in members:
            p[m] = rng.permutation(m)
        out.append(p)
    return out


__all__ = ["DEFAULT_DRAWS", "Integrity", "carried_pairs", "shoe_integrity"]
