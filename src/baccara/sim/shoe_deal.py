"""Shoes as casinos deal them, in Numba: shuffle, burn, cut card, coups.

The rules (Wikipedia 2019, "Punto banco"):

* **Shuffle.**  Each shoe is a uniformly random permutation of ``d`` decks.
  Shoe number ``i`` of a job with seed ``s`` draws its randomness from its
  own counter-based stream, :func:`shoe_key` ``(s, i)`` fed to splitmix64, so
  a shoe is the same whichever process, thread or Dask worker deals it.
  In punto banco (:func:`shuffle_prefix`) the permutation is drawn by
  Fisher-Yates only as far as the shoe can be dealt (:func:`reach`: the cut
  card, the coup in which it appears and one more), two positions per 64-bit
  splitmix64 output: each 32-bit half picks one position's card by Lemire's
  unbiased multiply-shift (a rejected half, probability below ``n / 2^32``, is
  replaced by a fresh 32-bit draw).  Chemin de fer and banque draw lazily,
  one position per 64-bit output (:func:`draw`), interleaved with the
  strategies' mixing draws.
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
#: Winner of each cell of :data:`baccara.punto.events.CELL_SHAPE`: 0 banker, 1 player, 2 tie.
WINNER = np.array([0 if bt > pt else (1 if pt > bt else 2)
                   for _kp in range(3) for _kb in range(3) for pt in range(10) for _pn in range(2)
                   for bt in range(10) for _bn in range(2)], dtype=np.int64)
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
    state, r = next32(state)
    return bounded(state, r, n)


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


@njit(cache=True, inline="always")
def bounded(state, r, n):
    """(new state, a uniform integer in [0, n)) from the 32 random bits ``r``, 0 < n < 2^32.

    Lemire's multiply-shift: ``r * n >> 32``, unbiased by rejecting the rare
    low parts below ``2^32 mod n`` and drawing fresh 32-bit words (``state``
    advances only then)."""
    un = np.uint64(n)
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
def shuffle_prefix(deck, start, stop, state):
    """Fisher-Yates steps for positions ``start .. stop - 1`` of ``deck``: (new state).

    Position p gets a uniform card among ``deck[p:]``; the positions are taken
    two at a time from one 64-bit splitmix64 output (high half, then low
    half).  Any earlier order of ``deck`` gives a uniform permutation."""
    n = deck.size
    p = start
    while p < stop:
        state = state + _GOLDEN
        z = mix64(state)
        state, j = bounded(state, z >> _S32, n - p)
        j += p
        c = deck[j]
        deck[j] = deck[p]
        deck[p] = c
        p += 1
        if p < stop:
            state, j = bounded(state, z & _MASK32, n - p)
            j += p
            c = deck[j]
            deck[j] = deck[p]
            deck[p] = c
            p += 1
    return state


@njit(cache=True)
def fill_infinite(deck, k, state):
    """Cards drawn with replacement (52 equally likely codes) into ``deck[0:k]``, two per 64-bit output."""
    p = 0
    while p < k:
        state = state + _GOLDEN
        z = mix64(state)
        state, c = bounded(state, z >> _S32, 52)
        deck[p] = c
        p += 1
        if p < k:
            state, c = bounded(state, z & _MASK32, 52)
            deck[p] = c
            p += 1
    return state


@njit(cache=True)
def reach(n, cut):
    """The cards a punto banco shoe of ``n`` cards can deal with ``cut`` behind the cut card.

    The last coup starts before ``n - cut + 6`` and takes at most six cards
    (:func:`~baccara.sim.limits.min_cut`); ``cut >= 11`` keeps this within the shoe."""
    return min(n, n - cut + 11)


@njit(cache=True)
def pair_class(c1, c2):
    """0: not a pair; 1: equal rank, different code (suit); 2: identical code (a suited pair)."""
    if c1 == c2:
        return 2
    return 1 if (c1 >> 2) == (c2 >> 2) else 0


@njit(cache=True)
def cell_index(kp, kb, pt, pn, bt, bn):
    """Flat index of a cell of :data:`baccara.punto.events.CELL_SHAPE` (C order)."""
    return ((((kp * 3 + kb) * 10 + pt) * 2 + pn) * 10 + bt) * 2 + bn


@njit(cache=True)
def start_shoe(deck, template, mode, shuffle, cut, state):
    """Reset ``deck`` to ``template`` and, in the CUT mode, shuffle it as far as it can be dealt and
    burn: (state, first position, cards removed by the burn, face-up burn card or -1)."""
    n = template.size
    for i in range(n):
        deck[i] = template[i]
    if mode != CUT:
        return state, 0, 0, -1
    if shuffle:
        state = shuffle_prefix(deck, 0, reach(n, cut), state)
    first = np.int64(deck[0])
    b = 1 + BURN[first]
    return state, b, b, first


@njit(cache=True)
def next_coup(deck, pos, mode, shuffle, state):
    """Make the cards of the coup at ``pos`` ready: (state, its first position).

    CUT: already shuffled (:func:`start_shoe`).  CSM: reshuffled (six
    Fisher-Yates steps from the top).  INFINITE: six cards drawn with
    replacement.  Both of the latter deal from position 0."""
    if mode == CUT:
        return state, pos
    if mode == CSM:
        if shuffle:
            state = shuffle_prefix(deck, 0, 6, state)
        return state, 0
    return fill_infinite(deck, 6, state), 0


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
def max_coups_cut(n, cut):
    """At most the coups of a shoe of ``n`` cards dealt to the cut card ``cut`` from the end and one more.

    Every coup but the last starts before position ``n - cut`` and takes at
    least 4 cards after a burn of at least 2; then one more."""
    return (n - cut + 1) // 4 + 1


@njit(cache=True, nogil=True)
def deal_shoe(deck, template, mode, shuffle, cut, coups, state, pdraw, bdraw, starts, cells):
    """Deal one punto banco shoe: (state, coups, cards removed by the burn, final position, face-up
    burn card or -1).

    ``deck`` (at least ``max(template.size, 6)`` cards) is reset to ``template``
    and shuffled (:func:`start_shoe`); coup j starts at ``starts[j]`` and falls
    in the cell ``cells[j]`` (:data:`baccara.punto.events.CELL_SHAPE`); its cards are
    ``deck[starts[j]:starts[j + 1]]`` (the final position for the last coup)
    in the CUT mode.  The coup is written out here, in the loop, so that the
    hot path makes no calls: P1, B1, P2, B2, then Player's third card, then
    Banker's (``pdraw[pt]``, ``bdraw[bt, third or 10]``).
    """
    n = template.size
    state, pos, burned, first = start_shoe(deck, template, mode, shuffle, cut, state)
    j = 0
    prev = -1
    while True:
        more, pos = coup_start(mode, pos, prev, n, cut, j, coups)
        if not more:
            break
        if mode != CUT:
            state, pos = next_coup(deck, pos, mode, shuffle, state)
        prev = pos
        starts[j] = pos
        p1 = deck[pos]
        b1 = deck[pos + 1]
        p2 = deck[pos + 2]
        b2 = deck[pos + 3]
        pos += 4
        pt = (VALUE[p1] + VALUE[p2]) % 10
        bt = (VALUE[b1] + VALUE[b2]) % 10
        pn = 0
        bn = 0
        if pt < 8 and bt < 8:
            third = 10
            if pdraw[pt]:
                third = VALUE[deck[pos]]
                pos += 1
                pt = (pt + third) % 10
                pn = 1
            if bdraw[bt, third]:
                bt = (bt + VALUE[deck[pos]]) % 10
                pos += 1
                bn = 1
        cells[j] = cell_index(pair_class(p1, p2), pair_class(b1, b2), pt, pn, bt, bn)
        j += 1
    return state, j, burned, pos, first


@njit(cache=True)
def record_shoe(seed, index, template, cut, mode, shuffle, coups, pdraw, bdraw, starts, cells, winners):
    """Deal shoe ``index`` of the job seeded ``seed`` and record it, as the punto banco kernel deals it.

    Returns (coups dealt, cards removed by the burn, final position, deck).

    The returned deck holds the cards in dealt order up to the final position
    (the first card is the face-up burn card).  ``starts[j]`` is coup j's first
    position, ``cells[j]`` and ``winners[j]`` (0/1/2 = banker/player/tie) its
    outcome.  In the CUT mode the shoe is burned and dealt to the cut card and
    one more coup (:func:`coup_start`); otherwise ``coups`` coups are dealt
    (each from the top of a reshuffled shoe in the CSM mode, of fresh cards
    drawn with replacement in the INFINITE mode: the deck then holds the last
    coup's).
    """
    deck = np.empty(max(template.size, 6), dtype=np.uint8)
    _, j, burned, pos, _ = deal_shoe(deck, template, mode, shuffle, cut, coups, shoe_key(seed, index), pdraw, bdraw,
                                     starts, cells)
    for k in range(j):
        winners[k] = WINNER[cells[k]]
    return j, burned, pos, deck
