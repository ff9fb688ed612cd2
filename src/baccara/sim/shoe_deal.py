"""Shoes as casinos deal them, in Numba: shuffle, burn, cut card, coups.

The rules (Wikipedia 2019, "Punto banco"):

* **Shuffle.**  Each shoe is a uniformly random permutation of ``d`` decks.
  Shoe number ``i`` of a job with seed ``s`` draws its randomness from its
  own counter-based stream, :func:`shoe_key` ``(s, i)`` fed to splitmix64, so
  a shoe is the same whichever process, thread or Dask worker deals it.
  The permutation is drawn lazily (Fisher-Yates one position at a time, with
  Lemire's unbiased bounded integers), so the cards behind the cut card are
  never shuffled.
* **Burn.**  "The dealer burns the first card face up and then based on its
  respective numerical value, with aces worth 1 and face cards worth 10, the
  dealer burns that many cards face down."  The first card is seen (a counter
  counts it); the others are not.
* **Cut card.**  "A cut-card is placed in front of the seventh from last
  card, and the drawing of the cut-card indicates the last coup of the shoe";
  casinos then deal **one more coup** after the one in which the cut card
  appears, and so does every simulation here with a cut card.  With ``cut``
  cards behind the cut card (:data:`DEFAULT_CUT` = 14 by default, a common
  casino depth for 8 decks and the one the published count analyses use),
  the cut card comes out with the card at position ``n - cut`` (0-based, of
  ``n``): the coup that deals it is finished, then one more is dealt.  If it
  comes out between coups, the next coup is that one more.  Equivalently,
  **the last coup is the first one that starts at or past position** ``n - cut``
  (:func:`coup_start`).
* **Enough cards behind the cut card.**  If a coup takes at most ``m`` cards
  (6 in punto banco and chemin de fer, 9 in banque: three hands), the coup
  before the last starts at ``n - cut - 1`` at the latest and can take ``m``
  cards, so the last coup starts at ``n - cut + m - 1`` at the latest and its
  last card can be at ``n - cut + 2m - 2``: the shoe cannot run out exactly when
  ``cut >= 2m - 1`` (:func:`min_cut`): 11 cards in punto banco, 17 in banque.
  Both worst cases happen in some shuffles, so these are the exact minimums.
* **Deal.**  Player, Banker, Player, Banker, then Player's third card, then
  Banker's (Wikipedia 2019); the drawing rules are a :class:`baccara.rules.Tableau`.

Cards are coded ``4 * rank + suit`` (rank 0..12 for A, 2..9, 10, J, Q, K;
suit 0..3), so pairs of equal rank and suited pairs (equal code) are both
visible.  Besides real shoes the dealer can reshuffle before every coup (a
continuous shuffler: every coup is dealt from the full shoe, so the exact
engine's probabilities hold exactly) or deal with replacement (the infinite
shoe, Model A).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..cards import RANK_VALUE
from .limits import DEFAULT_CUT as DEFAULT_CUT  # the cut card's rule is documented here
from .limits import min_cut as min_cut

#: Deal modes.
CUT, CSM, INFINITE = 0, 1, 2
DEAL_MODES = {"cut": CUT, "csm": CSM, "infinite": INFINITE}

#: Baccarat value of each card code.
VALUE = np.array([RANK_VALUE[c // 4] for c in range(52)], dtype=np.int64)
#: Cards burned after each first card: its face value, aces 1, tens and faces 10.
BURN = np.array([min(c // 4 + 1, 10) for c in range(52)], dtype=np.int64)

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_MASK32 = np.uint64(0xFFFFFFFF)
_S30, _S27, _S31, _S32 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(32)


@njit(cache=True)
def mix64(z):
    """The splitmix64 finaliser: a bijective mixing of 64 bits."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(cache=True)
def shoe_key(seed, index):
    """The initial RNG state of shoe ``index`` of a job seeded ``seed`` (both < 2^63)."""
    return mix64(mix64(np.uint64(seed) * _GOLDEN + np.uint64(0x632BE59BD9B4E019)) ^ mix64(np.uint64(index) + _GOLDEN))


@njit(cache=True)
def next32(state):
    """splitmix64 step: (new state, 32 random bits as uint64)."""
    state = state + _GOLDEN
    return state, mix64(state) >> _S32


@njit(cache=True)
def below(state, n):
    """(new state, a uniform integer in [0, n)) for 0 < n < 2^32; Lemire's method, unbiased."""
    un = np.uint64(n)
    state, r = next32(state)
    m = r * un
    low = m & _MASK32
    if low < un:
        t = (np.uint64(0x100000000) - un) % un
        while low < t:
            state, r = next32(state)
            m = r * un
            low = m & _MASK32
    return state, np.int64(m >> _S32)


@njit(cache=True)
def uniform(state):
    """(new state, a uniform float in [0, 1)) with 53 random bits."""
    state = state + _GOLDEN
    return state, np.float64(mix64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def draw(deck, pos, mode, shuffle, state):
    """(new state, card code) at position ``pos``: a lazy Fisher-Yates step.

    With ``shuffle`` False the deck is dealt as stacked (for tests).  In the
    INFINITE mode a card is drawn with replacement from 52 equally likely codes.
    """
    if mode == INFINITE:
        state, c = below(state, 52)
        return state, c
    if shuffle:
        state, j = below(state, deck.size - pos)
        j += pos
        c = deck[j]
        deck[j] = deck[pos]
        deck[pos] = c
    return state, np.int64(deck[pos])


@njit(cache=True)
def pair_class(c1, c2):
    """0: not a pair; 1: equal rank, different code (suit); 2: identical code (a suited pair)."""
    if c1 == c2:
        return 2
    return 1 if (c1 >> 2) == (c2 >> 2) else 0


@njit(cache=True)
def cell_index(kp, kb, pt, pn, bt, bn):
    """Flat index of a cell of :data:`baccara.events.CELL_SHAPE` (C order)."""
    return ((((kp * 3 + kb) * 10 + pt) * 2 + pn) * 10 + bt) * 2 + bn


@njit(cache=True)
def play_coup(deck, pos, mode, shuffle, state, pdraw, bdraw, cards):
    """Deal one coup from position ``pos``.

    Returns (state, new pos, cell, winner 0/1/2 = banker/player/tie); the codes
    dealt are written to ``cards[0:k]`` (P1, B1, P2, B2, then third cards) and
    the number dealt is ``new pos - pos``.
    """
    state, p1 = draw(deck, pos, mode, shuffle, state)
    state, b1 = draw(deck, pos + 1, mode, shuffle, state)
    state, p2 = draw(deck, pos + 2, mode, shuffle, state)
    state, b2 = draw(deck, pos + 3, mode, shuffle, state)
    cards[0] = p1
    cards[1] = b1
    cards[2] = p2
    cards[3] = b2
    k = 4
    pt = (VALUE[p1] + VALUE[p2]) % 10
    bt = (VALUE[b1] + VALUE[b2]) % 10
    pn = 0
    bn = 0
    if pt < 8 and bt < 8:
        third = 10
        if pdraw[pt]:
            state, p3 = draw(deck, pos + k, mode, shuffle, state)
            cards[k] = p3
            k += 1
            third = VALUE[p3]
            pt = (pt + third) % 10
            pn = 1
        if bdraw[bt, third]:
            state, b3 = draw(deck, pos + k, mode, shuffle, state)
            cards[k] = b3
            k += 1
            bt = (bt + VALUE[b3]) % 10
            bn = 1
    cell = cell_index(pair_class(p1, p2), pair_class(b1, b2), pt, pn, bt, bn)
    winner = 0 if bt > pt else (1 if pt > bt else 2)
    return state, pos + k, cell, winner


@njit(cache=True)
def coup_start(mode, pos, prev, n, cut, j, coups):
    """(deal coup j?, its first position).

    In the CUT mode coup j is dealt unless the previous one, which started at
    ``prev`` (-1 before the first coup), started at or past position
    ``n - cut``: the cut card came out during (or just before) the coup that
    dealt position ``n - cut``, and one more coup follows.  Otherwise
    ``coups`` coups, each from the full shoe in the CSM mode.
    """
    if mode == CUT:
        return prev < n - cut, pos
    if j >= coups:
        return False, pos
    return True, (0 if mode == CSM else pos)


@njit(cache=True)
def burn(deck, mode, shuffle, state):
    """Burn at the top of a fresh shoe: (state, cards removed, the face-up first card)."""
    state, first = draw(deck, 0, mode, shuffle, state)
    b = BURN[first]
    for i in range(b):
        state, _ = draw(deck, 1 + i, mode, shuffle, state)
    return state, 1 + b, first


def deck_template(decks: int) -> np.ndarray:
    """The card codes of a fresh ``decks``-deck shoe, in order (uint8)."""
    return np.repeat(np.arange(52, dtype=np.uint8), decks)


@njit(cache=True)
def record_shoe(seed, index, template, cut, mode, shuffle, coups, pdraw, bdraw, starts, cells, winners):
    """Deal shoe ``index`` of the job seeded ``seed`` and record it.

    Returns (coups dealt, cards removed by the burn, final position, deck).

    ``template`` is copied; the returned deck holds the cards in dealt order
    up to the final position (the first card is the face-up burn card).  ``starts[j]`` is coup j's first
    position, ``cells[j]`` and ``winners[j]`` its outcome.  In the CUT mode the
    shoe is burned and dealt to the cut card and one more coup
    (:func:`coup_start`); otherwise ``coups`` coups are dealt (from the full
    shoe each time in the CSM mode).
    """
    deck = template.copy()
    state = shoe_key(seed, index)
    cards = np.empty(6, dtype=np.int64)
    n = deck.size
    pos = 0
    burned = 0
    j = 0
    if mode == CUT:
        state, burned, _ = burn(deck, mode, shuffle, state)
        pos = burned
        prev = -1
        while prev < n - cut:
            starts[j] = pos
            prev = pos
            state, pos, cell, w = play_coup(deck, pos, mode, shuffle, state, pdraw, bdraw, cards)
            cells[j] = cell
            winners[j] = w
            j += 1
    else:
        for j in range(coups):
            if mode == CSM:
                pos = 0
            starts[j] = pos
            state, pos, cell, w = play_coup(deck, pos, mode, shuffle, state, pdraw, bdraw, cards)
            cells[j] = cell
            winners[j] = w
        j = coups
    return j, burned, pos, deck


@njit(cache=True)
def coup_cells(seqs, pdraw, bdraw):
    """The cell of a coup dealt from each row of ``seqs`` (card codes, six per row, in deal order)."""
    out = np.empty(seqs.shape[0], dtype=np.int64)
    cards = np.empty(6, dtype=np.int64)
    deck = np.empty(6, dtype=np.uint8)
    state = np.uint64(0)
    for i in range(seqs.shape[0]):
        for k in range(6):
            deck[k] = seqs[i, k]
        state, _, cell, _ = play_coup(deck, 0, CUT, False, state, pdraw, bdraw, cards)
        out[i] = cell
    return out
