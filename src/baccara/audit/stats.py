"""Permutation tests of whether a player's bets follow information the game should hide, and the verdict.

A hypothesis is a price per coup and bet, ``E[coup, bet]``; its statistic is what the
player's money would earn at those prices,

    T = sum over his bets of amount x E[coup, bet].

"Counting" prices each bet given the cards left (a player who tracks the cards puts more
money where this is high); "edge sorting under S" prices it given the class of the
coup's first card under the sorting S | rest, less the price given the cards left (what
the back adds to the count: a counter's bets do not raise it, since given the cards
seen its average over the classes is 0).

Under "no information" the player's slips (which bets, how much) do not depend on the
cards, so which coup of a shoe got which slip is a matter of chance: the p-value is the
share of random reassignments of his slips to the coups of each shoe (a coup where he
did not bet carries an empty slip) whose statistic reaches his,

    p = (1 + #{permutations with T >= T observed}) / (1 + permutations),

valid whatever the size and choice of his bets (exact when the slips are exchangeable
across the coups of a shoe under no information; a betting pattern tied to the position
in the shoe, with the prices not, is covered only approximately).  The same permutations
serve every hypothesis, and Holm's step-down over all of them keeps the chance of a
false alarm, any hypothesis of a player who uses no information rejected, at most
``alpha``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

#: The verdicts, from the weakest evidence.
VERDICTS = ("none", "counting", "edge sorting")
#: Permutations per test by default.
DEFAULT_PERMUTATIONS = 2999
#: The stated false-alarm rate by default.
DEFAULT_ALPHA = 0.01


@dataclass(frozen=True)
class Hypothesis:
    """One alternative to "no information", with its prices.

    Attributes
    ----------
    key : str
        Its name in the JSON (``counting``, ``edge_sorting:6,7,8,9``, ``edge_sorting:logged``).
    kind : str
        ``"counting"`` or ``"edge sorting"``.
    label : str
        In words.
    prices : numpy.ndarray
        (coups, bets): the price of each bet on each coup.
    """

    key: str
    kind: str
    label: str
    prices: np.ndarray


@dataclass(frozen=True)
class TestResult:
    """One hypothesis tested for one player.

    Attributes
    ----------
    key, kind, label : str
        The hypothesis.
    statistic : float
        His money times the prices.
    null_mean : float
        The statistic's mean over the permutations.
    p : float
        The permutation p-value.
    adjusted : float
        Holm's adjusted p-value over the player's hypotheses.
    rejected : bool
        ``adjusted <= alpha``.
    """

    key: str
    kind: str
    label: str
    statistic: float
    null_mean: float
    p: float
    adjusted: float
    rejected: bool


def holm(p: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values: reject those at most alpha, and the chance of any false rejection is
    at most alpha.

    Parameters
    ----------
    p : sequence of float
        The p-values.

    Returns
    -------
    list of float
        Adjusted p-values, in the same order.
    """
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])
    out = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[i]))
        out[i] = running
    return out


def permutation_test(slips: Sequence[tuple[np.ndarray, np.ndarray]], prices: np.ndarray, permutations: int,
                     rng: np.random.Generator, shared: dict[int, np.ndarray] | None = None,
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The statistics of several hypotheses for one player, observed and under his slips reassigned within shoes.

    Parameters
    ----------
    slips : sequence of (rows, amounts)
        One per shoe he bet in: the rows of the shoe's coups (every coup, in order) and
        ``amounts[coup, bet]``, his money on each bet of each coup (0: none).
    prices : numpy.ndarray
        (rows of the table, bets, hypotheses).
    permutations : int
        Random reassignments.
    rng : numpy.random.Generator
        Their source.
    shared : dict, optional
        Each shoe's permutations by its first row, drawn once and shared by the players of one
        audit (each player's p-value stays valid; only the players' tests are no longer independent).

    Returns
    -------
    tuple
        (observed statistics (H,), their mean over the permutations (H,), p-values (H,)).
    """
    h = prices.shape[2]
    observed = np.zeros(h)
    null = np.zeros((permutations, h))
    scale = np.zeros(h)
    for rows, amounts in slips:
        cols = np.flatnonzero(amounts.any(axis=0))  # the bets he placed in this shoe
        a = amounts[:, cols]
        e = prices[rows][:, cols, :]  # (m, bets placed, H)
        m = len(rows)
        flat_e = e.reshape(m * len(cols), h)
        observed += a.reshape(-1) @ flat_e
        scale += np.abs(a).reshape(-1) @ np.abs(flat_e)
        if m < 2 or not len(cols):
            null += a.reshape(-1) @ flat_e
            continue
        perm = None if shared is None else shared.get(int(rows[0]))
        if perm is None or perm.shape != (permutations, m):
            perm = rng.permuted(np.broadcast_to(np.arange(m), (permutations, m)), axis=1)
            if shared is not None:
                shared[int(rows[0])] = perm
        null += a[perm].reshape(permutations, -1) @ flat_e
    tol = 1e-9 * (1.0 + scale)
    p = (1.0 + (null >= observed - tol).sum(axis=0)) / (1.0 + permutations)
    return observed, null.mean(axis=0), p


def test_player(slips: Sequence[tuple[np.ndarray, np.ndarray]], hypotheses: Sequence[Hypothesis], permutations: int,
                alpha: float, rng: np.random.Generator, shared: dict[int, np.ndarray] | None = None,
                ) -> tuple[str, list[TestResult]]:
    """Test every hypothesis for one player and give the verdict.

    Parameters
    ----------
    slips : sequence of (rows, amounts)
        As :func:`permutation_test` takes them.
    hypotheses : sequence of Hypothesis
        The alternatives.
    permutations : int
        Random reassignments per test (shared by the hypotheses).
    alpha : float
        The false-alarm rate.
    rng : numpy.random.Generator
        The permutations' source.
    shared : dict, optional
        Permutations shared by the players of one audit (:func:`permutation_test`).

    Returns
    -------
    tuple
        (verdict, results): ``edge sorting`` when an edge-sorting hypothesis is rejected,
        else ``counting`` when counting is, else ``none``.
    """
    prices = np.stack([hy.prices for hy in hypotheses], axis=2)
    obs, mean, p = permutation_test(slips, prices, permutations, rng, shared)
    adj = holm([float(x) for x in p])
    results = [TestResult(hy.key, hy.kind, hy.label, float(obs[i]), float(mean[i]), float(p[i]), adj[i],
                          adj[i] <= alpha) for i, hy in enumerate(hypotheses)]
    verdict = "none"
    if any(r.rejected and r.kind == "counting" for r in results):
        verdict = "counting"
    if any(r.rejected and r.kind == "edge sorting" for r in results):
        verdict = "edge sorting"
    return verdict, results


test_player.__test__ = False  # type: ignore[attr-defined]  # not a pytest test, despite its name
permutation_test.__test__ = False  # type: ignore[attr-defined]
