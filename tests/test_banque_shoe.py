"""Baccara banque on any shoe: the finite-shoe kernel against a plain enumeration of ordered deals,
and the solution concepts on finite shoes, certified like the paper's."""

from fractions import Fraction as F
from itertools import product
from math import perm

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baccara.banque.correlated_eq.solution import correlated_equilibrium
from baccara.banque.model import JOINT, banque_game, shoe_sums
from baccara.banque.nash_eq.solution import certify, nash_equilibria
from baccara.errors import BaccaraError
from baccara.shoe import Shoe


def _sgn(x: int) -> int:
    return (x > 0) - (x < 0)


def brute_sums(counts: tuple[int, ...], u1: int, u2: int):
    """Every ordered sequence of nine card values, weighted by its falling product: cards
    1-2 Player 1's, 3-4 Player 2's, 5-6 Banker's, 7 Player 1's third, 8 Player 2's, 9 Banker's
    (a deal that uses fewer cards ignores the rest).  Straight from the rules of Ethier and Lee
    (2015), section 2, with no shortcut shared with the kernel."""
    base = np.zeros((2, 13), dtype=object)
    gain = np.zeros((2, 12, 12, 8), dtype=object)
    values = [v for v in range(10) if counts[v]]
    for seq in product(values, repeat=9):
        rem = list(counts)
        w = 1
        for v in seq:
            w *= rem[v]
            rem[v] -= 1
            if w == 0:
                break
        if w == 0:
            continue
        i1, i2, j = (seq[0] + seq[1]) % 10, (seq[2] + seq[3]) % 10, (seq[4] + seq[5]) % 10
        if j >= 8 or (i1 >= 8 and i2 >= 8):
            base[0, 12] += w * _sgn(i1 - j)
            base[1, 12] += w * _sgn(i2 - j)
            continue
        shown, finals, nat = [], [], []
        for i, u, card in ((i1, u1, seq[6]), (i2, u2, seq[7])):
            if i >= 8:
                shown.append(11), finals.append(i), nat.append(True)
            elif i <= 4 or (i == 5 and u):
                shown.append(card), finals.append((i + card) % 10), nat.append(False)
            else:
                shown.append(10), finals.append(i), nat.append(False)
        b = (j + seq[8]) % 10
        for p in (0, 1):
            stand = 1 if nat[p] else _sgn(finals[p] - j)
            draw = 1 if nat[p] else _sgn(finals[p] - b)
            base[p, shown[0]] += w * stand
            gain[p, shown[0], shown[1], j] += w * (draw - stand)
    return base, gain


@settings(max_examples=6, deadline=None)
@given(st.lists(st.sampled_from([0, 1, 3, 5, 8, 9]), min_size=3, max_size=3, unique=True),
       st.lists(st.integers(2, 5), min_size=3, max_size=3), st.sampled_from(JOINT))
def test_kernel_equals_ordered_deals(vals, ns, u):
    counts = [0] * 10
    for v, n in zip(vals, ns):
        counts[v] = n
    counts_t = tuple(counts)
    if sum(counts_t) < 9:
        return
    got = shoe_sums(counts_t, replacement=False)[JOINT.index(u)]
    want = brute_sums(counts_t, *u)
    assert (got[0] == want[0]).all() and (got[1] == want[1]).all()


def test_infinite_shoe_two_ways():
    """The finite-shoe kernel dealing with replacement from one deck's values is the paper's game."""
    sums = shoe_sums((4,) + (1,) * 9, replacement=True)
    paper = banque_game()
    for (b, g), (pb, pg) in zip(sums, paper.sums):
        assert (b == pb.astype(object)).all() and (g == pg.astype(object)).all()


def test_d_decks_as_composition_and_as_decks():
    by_decks = banque_game(2)
    by_shoe = banque_game(Shoe.from_values([32] + [8] * 9))
    assert by_decks is by_shoe and by_decks.denominator == perm(104, 9)
    assert by_decks.label() == "2 decks"


def test_players_are_exchangeable():
    """The two Players are dealt alike: swapping them (strategies, and what each shows to Banker)
    swaps their results exactly, on a finite shoe as on the paper's."""
    g = banque_game(Shoe.from_values([20, 6, 5, 7, 6, 6, 5, 6, 7, 6]))
    assert g.denominator == perm(74, 9) and g.label() == "74-card shoe"
    for u, (u1, u2) in enumerate(JOINT):
        v = JOINT.index((u2, u1))
        assert g.base[u] == g.base[v][::-1]
        assert (g.gain[u][0] == g.gain[v][1].transpose(1, 0, 2)).all()


@pytest.mark.parametrize("shoe", [1, pytest.param(Shoe.decks(6).remove(9, n=10).remove(8, n=10),
                                                   marks=pytest.mark.slow)])   # slow: over 10 CPU-s
def test_finite_shoe_solutions_certified(shoe):
    game = banque_game(shoe)
    sol = correlated_equilibrium(game, F(1, 2))
    assert sol.solution.certified
    assert sol.to_json()["shoe"] == game.shoe_json()
    paper = correlated_equilibrium(banque_game(), F(1, 2))
    assert sol.value != paper.value
    ns = nash_equilibria(game, F(1, 2))
    assert ns.equilibria and all(certify(F(1, 2), e, game).holds for e in ns.equilibria)


def test_more_decks_approach_the_infinite_shoe():
    paper = correlated_equilibrium(banque_game(), F(1, 2)).value
    gaps = [abs(correlated_equilibrium(banque_game(d), F(1, 2)).value - paper) for d in (1, 8)]
    assert gaps[1] < gaps[0] / 4


def test_bad_shoes():
    with pytest.raises(BaccaraError, match="9 cards"):
        banque_game(Shoe.from_values([2, 1, 1, 1, 1, 0, 0, 0, 0, 0]))
    with pytest.raises(BaccaraError, match="decks"):
        banque_game(0)
    with pytest.raises(BaccaraError, match="1000 cards"):
        banque_game(Shoe.from_values([400] + [100] * 9))     # 25 fresh decks
    with pytest.raises(BaccaraError, match="1000 cards"):
        banque_game(Shoe.from_values([401] + [100] * 9))
    with pytest.raises(BaccaraError, match="decks"):
        banque_game(20)
