"""The card-level exact engine: bets that look at the cards themselves, priced by dealing them.

The cell engine (:mod:`baccara.punto.exact`) counts deals by each hand's final total, number of cards
and pair class: everything a bet on the outcome needs, in microseconds.  A bet on *which cards* fell
(Player's third card is an 8, Banker's first two cards total 3, every card is red, both hands hold a
pair of the same rank) is not a function of those cells.  This engine prices such a bet exactly by
dealing the coup's cards as *labels*, the coarsest classes of card that the bet can tell apart:

============================  ==========================  =================================
the bet reads                 labels at positions 1-4     e.g.
============================  ==========================  =================================
values only                   10 values                   ``banker_two_card_total``
ranks (pairs, ranks)          13 ranks                    ``player_card1_rank``, ``same_pair``
colours                       values (or ranks) x colour  ``colour``, ``player_card2_colour``
suits                         values (or ranks) x suit    ``identical_pairs``, ``player_suited``
============================  ==========================  =================================

The fifth and sixth cards out of the shoe (the third cards) are dealt at a coarser labelling when the
bet does not read their rank, colour or suit: their values only.  Every ordered deal of the first four
labels and of the third cards is visited once, weighted by the falling product of the counts left; the
bet's rules are checked on each, and the weight goes to the payout of the first rule that holds.  The
counts are exact integers over the (N)_6 ordered six-card deals (N^6 with replacement), the same
denominator as the cell engine's, so both engines' results are comparable and equal where both apply.

Cost (one core, 8 decks, measured in ``tests/test_gallery.py`` and the docs): values or ranks,
milliseconds; colours of values (20 labels), about a second; suits of ranks at positions 1-4
(52 labels), tens of seconds.
"""

from __future__ import annotations

import functools
import types
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from .._numba import defer_blas_probe
from ..errors import BetError
from ..shoe import Shoe
from .events import CARD_FIELDS, FIELDS, NONE_CODE, needed_resolution, resolution_at_least

if TYPE_CHECKING:
    from ..rules import Tableau
    from .known import Known

#: A bet (:class:`baccara.punto.bets.Bet`, which imports this module to check its rules): anything with
#: ``rules`` (each with ``when`` and ``pays``), ``otherwise`` and ``name``.
Bet = Any

#: The largest code a condition's value takes (a third card's "none" rank is 13).
DOMAIN = 16

#: Field kinds of the kernel: how each field's code is computed from a dealt coup.
_CELL_TYPES = {"winner": 0, "margin": 1, "player_total": 2, "banker_total": 2, "player_cards": 3, "banker_cards": 3,
               "total_cards": 4, "player_natural": 5, "banker_natural": 5, "natural": 6, "player_pair": 7,
               "banker_pair": 7, "any_pair": 8, "player_suited_pair": 9, "banker_suited_pair": 9, "same_cards": 10,
               "both_pairs": 11}
_ATTR = {"rank": 0, "value": 1, "suit": 2, "colour": 3}

#: The card attributes each cell field needs, and whether it reads the third cards.
_CELL_NEEDS: dict[str, frozenset[str]] = {
    "player_pair": frozenset({"rank"}), "banker_pair": frozenset({"rank"}), "any_pair": frozenset({"rank"}),
    "both_pairs": frozenset({"rank"}), "player_suited_pair": frozenset({"rank", "suit"}),
    "banker_suited_pair": frozenset({"rank", "suit"}),
}
_CARD_NEEDS_EXTRA: dict[str, frozenset[str]] = {"same_pair": frozenset({"rank"}),
                                                "identical_pairs": frozenset({"rank", "suit"})}


def field_spec(field: str) -> tuple[int, int, int, int]:
    """How the kernel computes ``field``: (type, side 0/1, slot 0-5, attribute)."""
    side = 1 if field.startswith("banker") else 0
    if field in _CELL_TYPES:
        return _CELL_TYPES[field], side, 0, 0
    if "_card" in field and field.split("_card")[1][:1].isdigit():
        k = int(field.split("_card")[1][0])
        attr = field.rsplit("_", 1)[1]
        return 12, side, 3 * side + k - 1, _ATTR[attr]
    if field.endswith("_two_card_total"):
        return 13, side, 0, 0
    if field in ("player_colour", "banker_colour"):
        return 14, side, 0, 0
    return {"colour": (15, 0, 0, 0), "same_pair": (16, 0, 0, 0), "identical_pairs": (17, 0, 0, 0),
            "player_suited": (18, 0, 0, 0), "banker_suited": (18, 1, 0, 0)}[field]


def field_needs(field: str) -> tuple[frozenset[str], bool]:
    """The card attributes (beyond values) ``field`` reads, and whether it reads the third cards."""
    if field in FIELDS:
        return _CELL_NEEDS.get(field, frozenset()), False
    kind, _, attr, late = CARD_FIELDS[field]
    need = _CARD_NEEDS_EXTRA.get(field, frozenset() if attr == "value" else frozenset({attr}))
    return need, late


@dataclass(frozen=True)
class Labelling:
    """The coarsest classes of card a bet tells apart, at positions 1-4 (``early``) and 5-6 (``late``).

    Each is (rank or value) x (suit, colour or nothing); the late one is never finer than the early one.
    """

    early: tuple[str, str]
    late: tuple[str, str]

    @property
    def labels(self) -> int:
        """Labels at positions 1-4 (the engine visits about labels^4 first-four deals)."""
        return (13 if self.early[0] == "rank" else 10) * {"suit": 4, "colour": 2, "": 1}[self.early[1]]

    def describe(self) -> str:
        def one(lv: tuple[str, str]) -> str:
            base = "ranks" if lv[0] == "rank" else "values"
            return base + (f" and {'suits' if lv[1] == 'suit' else 'colours'}" if lv[1] else "")
        return f"{one(self.early)} (positions 1-4), {one(self.late)} (third cards)"


def _level(attrs: frozenset[str]) -> tuple[str, str]:
    return ("rank" if "rank" in attrs else "value", "suit" if "suit" in attrs else "colour" if "colour" in attrs else "")


def labelling(fields: Iterable[str]) -> Labelling:
    """The labelling a set of fields needs."""
    early: set[str] = set()
    late: set[str] = set()
    for f in fields:
        need, reads_late = field_needs(f)
        early |= need
        if reads_late:
            late |= need
    return Labelling(_level(frozenset(early | late)), _level(frozenset(late)))


def bet_labelling(bet: Bet) -> Labelling:
    """The labelling ``bet`` needs (see :func:`labelling`).

    Parameters
    ----------
    bet : Bet
        The bet.

    Returns
    -------
    Labelling
        Its labels at positions 1-4 and 5-6.
    """
    return labelling(f for r in bet.rules for f, _ in r.when)


def _label_arrays(shoe: Shoe, level: tuple[str, str], member: np.ndarray | None = None) -> tuple[np.ndarray, ...]:
    """Each card type's label at ``level``, and each label's count, value, rank, suit and colour (-1: unknown).

    ``member[t]``: a row of booleans per card type (may it lie at each known position); types that differ
    there get different labels."""
    tv = shoe.type_values()
    tr = shoe.type_ranks()
    nt = len(shoe.counts)
    keys: dict[tuple[int, int, tuple[bool, ...]], int] = {}
    of_type = np.empty(nt, dtype=np.int64)
    attrs: list[tuple[int, int, int, int]] = []
    for t in range(nt):
        base = int(tr[t]) if level[0] == "rank" else int(tv[t])
        suit = t % 4 if shoe.resolution == "suit" else -1
        colour = -1 if suit < 0 else (0 if suit in (1, 2) else 1)
        fine = suit if level[1] == "suit" else colour if level[1] == "colour" else 0
        key = (base, fine, () if member is None else tuple(bool(x) for x in member[t]))
        if key not in keys:
            keys[key] = len(keys)
            attrs.append((int(tv[t]), base if level[0] == "rank" else -1, suit if level[1] == "suit" else -1,
                          colour if level[1] in ("suit", "colour") else -1))
        of_type[t] = keys[key]
    count = np.zeros(len(keys), dtype=np.int64)
    for t, c in enumerate(shoe.counts):
        count[of_type[t]] += c
    a = np.array(attrs, dtype=np.int64).reshape(len(keys), 4)
    return of_type, count, a[:, 0].copy(), a[:, 1].copy(), a[:, 2].copy(), a[:, 3].copy()


@dataclass(frozen=True, eq=False)
class _Program:
    """Bets compiled for the kernel: fields to compute, conditions, rules and payout levels."""

    bets: tuple[Bet, ...]
    fields: tuple[str, ...]
    ftype: np.ndarray
    fside: np.ndarray
    fslot: np.ndarray
    fattr: np.ndarray
    cfield: np.ndarray
    allowed: np.ndarray
    rstart: np.ndarray
    rlevel: np.ndarray
    bstart: np.ndarray
    botherwise: np.ndarray
    levels: tuple[tuple[Fraction, ...], ...]


def _kind(field: str) -> str:
    return CARD_FIELDS[field][0] if field in CARD_FIELDS else FIELDS[field][0]


def _program(bets: tuple[Bet, ...]) -> _Program:
    fields: list[str] = []
    cfield, allowed, rstart, rlevel, bstart, botherwise = [], [], [0], [], [0], []
    levels_all: list[tuple[Fraction, ...]] = []
    base = 0
    for bet in bets:
        levels: list[Fraction] = []

        def level(p: Fraction, levels: list[Fraction] = levels) -> int:
            if p not in levels:
                levels.append(p)
            return levels.index(p)

        for rule in bet.rules:
            for f, vals in rule.when:
                if f not in fields:
                    fields.append(f)
                row = np.zeros(DOMAIN, dtype=np.bool_)
                row[[int(v) for v in vals]] = True
                cfield.append(fields.index(f))
                allowed.append(row)
            rstart.append(len(cfield))
            rlevel.append(base + level(rule.pays))
        botherwise.append(base + level(bet.otherwise))
        bstart.append(len(rlevel))
        levels_all.append(tuple(levels))
        base += len(levels)
    specs = np.array([field_spec(f) for f in fields], dtype=np.int64).reshape(len(fields), 4)
    return _Program(bets, tuple(fields), specs[:, 0].copy(), specs[:, 1].copy(), specs[:, 2].copy(), specs[:, 3].copy(),
                    np.array(cfield, dtype=np.int64),
                    np.array(allowed, dtype=np.bool_).reshape(len(cfield), DOMAIN),
                    np.array(rstart, dtype=np.int64), np.array(rlevel, dtype=np.int64),
                    np.array(bstart, dtype=np.int64), np.array(botherwise, dtype=np.int64), tuple(levels_all))


# ---------------------------------------------------------------- the kernel (compiled by Numba)
_NONE = (NONE_CODE["rank"], NONE_CODE["value"], NONE_CODE["suit"], NONE_CODE["colour"])

#: Field types whose code depends on the first four cards alone (computed at the early labels, stage 1).
EARLY_TYPES = (7, 8, 9, 11, 13, 16, 17, 18)


def is_early(ftype: int, fslot: int) -> bool:
    """Is a field (kernel type, slot) a function of the first four cards alone?"""
    return ftype in EARLY_TYPES or (ftype == 12 and fslot not in (2, 5))


def _attr(lab, attr, v, r, s, c):
    """A card's attribute code (rank, value, suit, colour) at its label, or the attribute's "none" code."""
    if lab < 0:
        return NONE_CODES[attr]
    if attr == 0:
        return r[lab]
    if attr == 1:
        return v[lab]
    if attr == 2:
        return s[lab]
    return c[lab]


def _hand_colour(x, y, z, c):
    """0 if every card of the hand (labels x, y, z; z = -1: no third card) is red, 1 if every one is black, else 2."""
    k = c[x]
    if c[y] != k:
        return 2
    if z >= 0 and c[z] != k:
        return 2
    return k


def _early_value(i, a, b, c, d, v, r, s, col, ftype, fside, fslot, fattr):
    """The code of field ``i``, a function of the first four cards (Player a, c; Banker b, d) alone."""
    t = ftype[i]
    side = fside[i]
    if t == 7:
        return (1 if r[a] == r[c] else 0) if side == 0 else (1 if r[b] == r[d] else 0)
    if t == 8:
        return 1 if (r[a] == r[c] or r[b] == r[d]) else 0
    if t == 9:
        if side == 0:
            return 1 if (r[a] == r[c] and s[a] == s[c]) else 0
        return 1 if (r[b] == r[d] and s[b] == s[d]) else 0
    if t == 11:
        return 1 if (r[a] == r[c] and r[b] == r[d]) else 0
    if t == 12:
        slot = fslot[i]
        lab = a if slot == 0 else c if slot == 1 else b if slot == 3 else d
        return _attr(lab, fattr[i], v, r, s, col)
    if t == 13:
        return (v[a] + v[c]) % 10 if side == 0 else (v[b] + v[d]) % 10
    if t == 16:
        return 1 if (r[a] == r[c] and r[b] == r[d] and r[a] == r[b]) else 0
    if t == 17:
        return 1 if (a == c and b == d and a == b) else 0
    return (1 if s[a] == s[c] else 0) if side == 0 else (1 if s[b] == s[d] else 0)


def _early_code(a, b, c, d, v, r, s, col, ftype, fside, fslot, fattr, early, radix):
    """Stage 1: the mixed-radix code of the early fields for the first four cards (Player a, c; Banker b, d)."""
    code = 0
    for i in range(ftype.size):
        if early[i]:
            code = code * radix[i] + _early_value(i, a, b, c, d, v, r, s, col, ftype, fside, fslot, fattr)
    return code


def _coup_codes(a, c, e, b, d, f, pt, bt, v, r, s, col, ftype, fside, fslot, fattr, early, fv):
    """The codes of the fields not ``early`` for one coup, into ``fv``: Player's cards a, c, e and Banker's b, d,
    f (labels; -1: no third card), ``pt`` and ``bt`` the hands' two-card totals; ``v``, ``r``, ``s``, ``col``
    each label's value, rank, suit and colour (-1: not known at this labelling)."""
    ptot = pt if e < 0 else (pt + v[e]) % 10
    btot = bt if f < 0 else (bt + v[f]) % 10
    pn = 2 if e < 0 else 3
    bn = 2 if f < 0 else 3
    for i in range(ftype.size):
        if early[i]:
            continue
        t = ftype[i]
        side = fside[i]
        x = 0
        if t == 0:
            x = 0 if btot > ptot else (1 if ptot > btot else 2)
        elif t == 1:
            x = abs(ptot - btot)
        elif t == 2:
            x = ptot if side == 0 else btot
        elif t == 3:
            x = pn if side == 0 else bn
        elif t == 4:
            x = pn + bn
        elif t == 5:
            x = (1 if (pn == 2 and ptot >= 8) else 0) if side == 0 else (1 if (bn == 2 and btot >= 8) else 0)
        elif t == 6:
            x = 1 if ((pn == 2 and ptot >= 8) or (bn == 2 and btot >= 8)) else 0
        elif t == 10:
            x = 1 if pn == bn else 0
        elif t == 12 and (fslot[i] == 2 or fslot[i] == 5):
            x = _attr(e if fslot[i] == 2 else f, fattr[i], v, r, s, col)
        elif t == 12 or t == 7 or t == 8 or t == 9 or t == 11 or t == 13 or t >= 16:
            x = _early_value(i, a, b, c, d, v, r, s, col, ftype, fside, fslot, fattr)
        elif t == 14:
            x = _hand_colour(a, c, e, col) if side == 0 else _hand_colour(b, d, f, col)
        else:
            hp = _hand_colour(a, c, e, col)
            hb = _hand_colour(b, d, f, col)
            x = hp if hp == hb else 2
        fv[i] = x


def _bet_level(bet, fv, cfield, allowed, rstart, rlevel, bstart, botherwise):
    """The payout level of bet ``bet`` for the field codes ``fv``: its first rule that holds, else otherwise."""
    for k0 in range(bstart[bet], bstart[bet + 1]):
        ok = True
        for k in range(rstart[k0], rstart[k0 + 1]):
            if not allowed[k, fv[cfield[k]]]:
                ok = False
                break
        if ok:
            return rlevel[k0]
    return botherwise[bet]


def _evaluate(a, c, e, b, d, f, pt, bt, w, v, r, s, col, ftype, fside, fslot, fattr, early, fv, cfield, allowed,
              rstart, rlevel, bstart, botherwise, out):
    """Stage 2: the late fields' codes for one coup at the late labels (Player a, c, e; Banker b, d, f; -1: no
    third card; the early fields' codes already in ``fv``), then each bet's first matching rule: ``w`` deals go
    to its payout level."""
    _coup_codes(a, c, e, b, d, f, pt, bt, v, r, s, col, ftype, fside, fslot, fattr, early, fv)
    for bet in range(bstart.size - 1):
        out[_bet_level(bet, fv, cfield, allowed, rstart, rlevel, bstart, botherwise)] += w


def card_kernel(n14, v14, r14, s14, c14, co14, n56, v56, r56, s56, c56, allow14, allow56, n, replacement, pdraw,
                bdraw, ftype, fside, fslot, fattr, early, radix, ncodes, groups, cfield, allowed, rstart, rlevel, bstart,
                botherwise, out):
    """Ordered-deal counts of each payout level, in two stages.

    Stage 1 deals the first four cards (Player a, Banker b, Player c, Banker d) at the early labels,
    weighted by the falling product of their counts, and adds each weight to ``groups[g, code]``: g the
    first four's late labels, ``code`` its early fields' codes.  What follows the first four cards depends
    only on their late labels, so stage 2 deals the third cards (late labels) once per group, the weights
    of the cards left read from the late counts.  Deals that stop early are counted with every continuation
    of the six cards, so the levels sum to (N)_6 (N^6 with replacement).  ``allow14[p, label]`` and
    ``allow56[p, label]``: may the card at position p + 1 (p + 5) hold that label (what is known of the
    coup's cards); only the deals that agree are counted, continuations included.
    """
    dec = 0 if replacement else 1
    L1 = n14.size
    L2 = n56.size
    cnt = n14.copy()
    for a in range(L1):
        wa = cnt[a]
        if wa <= 0 or not allow14[0, a]:
            continue
        cnt[a] -= dec
        for b in range(L1):
            wb = cnt[b]
            if wb <= 0 or not allow14[1, b]:
                continue
            cnt[b] -= dec
            for c in range(L1):
                wc = cnt[c]
                if wc <= 0 or not allow14[2, c]:
                    continue
                cnt[c] -= dec
                g3 = ((co14[a] * L2 + co14[b]) * L2 + co14[c]) * L2
                w3 = wa * wb * wc
                for d in range(L1):
                    wd = cnt[d]
                    if wd > 0 and allow14[3, d]:
                        code = _early_code(a, b, c, d, v14, r14, s14, c14, ftype, fside, fslot, fattr, early, radix)
                        groups[g3 + co14[d], code] += w3 * wd
                cnt[c] += dec
            cnt[b] += dec
        cnt[a] += dec
    late = n56.copy()
    fv = np.zeros(ftype.size, dtype=np.int64)
    for g in range(groups.shape[0]):
        d = g % L2
        c = (g // L2) % L2
        b = (g // (L2 * L2)) % L2
        a = g // (L2 * L2 * L2)
        pt = (v56[a] + v56[c]) % 10
        bt = (v56[b] + v56[d]) % 10
        late[a] -= dec
        late[b] -= dec
        late[c] -= dec
        late[d] -= dec
        # the cards left that positions 5 and 6 allow, and the ordered pairs of them (every continuation)
        k5 = 0
        k6 = 0
        k56 = 0
        for x in range(L2):
            if allow56[0, x]:
                k5 += late[x]
                if allow56[1, x]:
                    k56 += late[x]
            if allow56[1, x]:
                k6 += late[x]
        both = k5 * k6 - dec * k56
        for code in range(ncodes):
            w4 = groups[g, code]
            if w4 == 0:
                continue
            x = code
            for i in range(ftype.size - 1, -1, -1):
                if early[i]:
                    fv[i] = x % radix[i]
                    x //= radix[i]
            if pt >= 8 or bt >= 8 or (not pdraw[pt] and not bdraw[bt, 10]):
                if both > 0:
                    _evaluate(a, c, -1, b, d, -1, pt, bt, w4 * both, v56, r56, s56, c56, ftype, fside, fslot, fattr,
                              early, fv, cfield, allowed, rstart, rlevel, bstart, botherwise, out)
            elif not pdraw[pt]:
                for f in range(L2):
                    wf = late[f]
                    if wf > 0 and allow56[0, f]:
                        w6 = k6 - (dec if allow56[1, f] else 0)
                        if w6 > 0:
                            _evaluate(a, c, -1, b, d, f, pt, bt, w4 * wf * w6, v56, r56, s56, c56, ftype, fside,
                                      fslot, fattr, early, fv, cfield, allowed, rstart, rlevel, bstart, botherwise,
                                      out)
            else:
                for e in range(L2):
                    we = late[e]
                    if we <= 0 or not allow56[0, e]:
                        continue
                    if bdraw[bt, v56[e]]:
                        late[e] -= dec
                        for f in range(L2):
                            wf = late[f]
                            if wf > 0 and allow56[1, f]:
                                _evaluate(a, c, e, b, d, f, pt, bt, w4 * we * wf, v56, r56, s56, c56, ftype, fside,
                                          fslot, fattr, early, fv, cfield, allowed, rstart, rlevel, bstart,
                                          botherwise, out)
                        late[e] += dec
                    else:
                        w6 = k6 - (dec if allow56[1, e] else 0)
                        if w6 > 0:
                            _evaluate(a, c, e, b, d, -1, pt, bt, w4 * we * w6, v56, r56, s56, c56, ftype, fside,
                                      fslot, fattr, early, fv, cfield, allowed, rstart, rlevel, bstart, botherwise,
                                      out)
        late[a] += dec
        late[b] += dec
        late[c] += dec
        late[d] += dec


NONE_CODES = np.array(_NONE, dtype=np.int64)

#: Radix of an early field's code, by its kind (the largest code + 1).
_RADIX = {"bool": 2, "rank": 13, "value": 10, "suit": 4, "colour": 2, "total": 10}
#: At most this many groups x early codes (int64 entries) in stage 1 of the kernel.
MAX_GROUPS = 1 << 23
#: Seconds of one core per unit of :func:`work_units` (measured on a 2-core machine, 2026: a bet on the third
#: card's colour, 20 labels, 6.4e7 units in about 8 s), and the most seconds one pricing may take: past it,
#: a bet is refused in words instead of holding a core for many minutes.
SECONDS_PER_UNIT = 1.3e-7
MAX_SECONDS = 120.0


#: Functions Numba inlines where they are called (the simulator calls them on every coup it deals).
_INLINED = ("_attr", "_hand_colour", "_early_value", "_coup_codes", "_bet_level")


@functools.cache
def compiled() -> types.SimpleNamespace:
    """The engine's functions compiled by Numba (cached on disk once compiled), for it and for the simulator.

    Returns
    -------
    types.SimpleNamespace
        ``card_kernel`` (this engine's kernel), and the two functions that read a dealt coup's cards, which the
        simulator calls on every coup it deals (:mod:`baccara.sim`): ``coup_codes(a, c, e, b, d, f, pt, bt, v,
        r, s, col, ftype, fside, fslot, fattr, early, fv)`` writes each field's code for the coup whose Player
        holds the labels a, c, e and Banker b, d, f (-1: no third card; ``pt``, ``bt`` the two-card totals),
        and ``bet_level(bet, fv, cfield, allowed, rstart, rlevel, bstart, botherwise)`` gives the payout level
        of one bet of a :class:`RuleProgram` from those codes.
    """
    from numba import njit  # lazy: importing Numba costs a process a second; only card-level bets need it

    defer_blas_probe()
    namespace = dict(globals())
    for name in ("_attr", "_hand_colour", "_early_value", "_early_code", "_coup_codes", "_bet_level", "_evaluate",
                 "card_kernel"):
        f = globals()[name]
        # the pieces a dealt coup calls are inlined: a call passing a dozen arrays costs more than the work
        jit = njit(cache=True, nogil=True, inline="always") if name in _INLINED else njit(cache=True, nogil=True)
        namespace[name] = jit(types.FunctionType(f.__code__, namespace, name))
    return types.SimpleNamespace(card_kernel=namespace["card_kernel"], coup_codes=namespace["_coup_codes"],
                                 bet_level=namespace["_bet_level"])


def coup_functions(jit: Callable[[Any], Any]) -> types.SimpleNamespace:
    """The engine's functions that read one dealt coup (the pieces :func:`compiled` inlines), compiled by ``jit``.

    The same code as :func:`compiled` gives the CPU, for another Numba target: the GPU backend passes
    ``numba.cuda.jit(device=True)``, so a dealt coup is read by one interpreter of the bet language on every
    backend.

    Parameters
    ----------
    jit : callable
        A decorator compiling a Python function (each of them is pure integer code on arrays).

    Returns
    -------
    types.SimpleNamespace
        ``coup_codes`` and ``bet_level``, with the signatures :func:`compiled` documents.
    """
    namespace = dict(globals())
    for name in _INLINED:
        namespace[name] = jit(types.FunctionType(globals()[name].__code__, namespace, name))
    return types.SimpleNamespace(coup_codes=namespace["_coup_codes"], bet_level=namespace["_bet_level"])


@dataclass(frozen=True, eq=False)
class RuleProgram:
    """Bets' rules as arrays for compiled code that reads each coup's cards (the simulator's kernels).

    Attributes
    ----------
    arrays : tuple of numpy.ndarray
        ``(ftype, fside, fslot, fattr, early, cfield, allowed, rstart, rlevel, bstart, botherwise)``: the
        fields to compute (``early`` all false: every field is read from the dealt coup) and each bet's rules,
        as :func:`compiled` ``.coup_codes`` and ``.bet_level`` take them.
    levels : tuple of tuple of Fraction
        Each bet's distinct payouts; bet k's level j is entry ``sum(len(levels[i]) for i < k) + j`` of the
        levels ``bet_level`` returns.
    """

    arrays: tuple[np.ndarray, ...]
    levels: tuple[tuple[Fraction, ...], ...]


def rule_program(bets: tuple[Bet, ...]) -> RuleProgram:
    """The rules of ``bets`` compiled for reading dealt coups (see :class:`RuleProgram`).

    Parameters
    ----------
    bets : tuple of Bet
        The bets.

    Returns
    -------
    RuleProgram
        Their arrays and payout levels.
    """
    prog = _program(bets)
    early = np.zeros(prog.ftype.size, dtype=np.bool_)
    arrays = (prog.ftype, prog.fside, prog.fslot, prog.fattr, early, prog.cfield, prog.allowed, prog.rstart,
              prog.rlevel, prog.bstart, prog.botherwise)
    return RuleProgram(arrays, prog.levels)


@functools.cache
def code_attributes() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each card code ``4 * rank + suit`` (ranks A..K 0-12, suits spades, hearts, diamonds, clubs 0-3)
    as this engine labels it: its value, rank, suit and colour (0 red, 1 black), for the simulator's cards.

    Returns
    -------
    tuple of numpy.ndarray
        Four int64 arrays of 52 entries (read-only).
    """
    of_type, _count, v, r, s, c = _label_arrays(Shoe.decks(1), ("rank", "suit"))
    assert (of_type == np.arange(52)).all()
    for x in (v, r, s, c):
        x.flags.writeable = False
    return v, r, s, c


# ---------------------------------------------------------------- pricing
_INT64_CARDS = 1146  # 4 N^6 < 2^63


def level_counts(shoe: Shoe, bets: tuple[Bet, ...], tableau: Tableau,
                 known: Known | None = None) -> list[tuple[tuple[Fraction, ...], list[int]]]:
    """Each bet's payout levels and the ordered deals paying each, by the card-level kernel.

    Parameters
    ----------
    shoe : Shoe
        What is dealt (its resolution must determine every field the bets read).
    bets : tuple of Bet
        The bets (they share one pass; the labelling is the finest any of them needs).
    tableau : Tableau
        The drawing rules.
    known : Known, optional
        What is known of the coup's cards (:class:`baccara.punto.known.Known`): only the ordered deals
        that agree are counted.  Cards are then labelled also by whether each known position allows
        them (a few more labels).

    Returns
    -------
    list of (levels, counts)
        For each bet, its distinct payouts and the deals paying each (they sum to the deals that agree
        with ``known``: (N)_6 without it).
    """
    if shoe.cards > _INT64_CARDS:
        raise BetError(f"bets on the cards themselves are priced for shoes of at most {_INT64_CARDS} cards "
                       f"(22 decks); this one has {shoe.cards}")
    fields = [f for b in bets for r in b.rules for f, _ in r.when]
    need = needed_resolution(fields)
    if not resolution_at_least(shoe.resolution, need):
        raise BetError(f"bets on {', '.join(sorted(set(fields)))} need a shoe known by {need}; this shoe is known "
                       f"only by {shoe.resolution}")
    lab = labelling(fields)
    prog = _program(bets)
    allow = None
    member14 = member56 = None
    if known is not None and not known.empty:
        from .known import labelling as known_labelling  # lazy: only a condition on the cards needs it

        kl = known_labelling(shoe.resolution, known)  # checks that the shoe tells the allowed ranks apart
        allow = kl.allow[:, kl.type_label].T  # allow[t, p]: may type t lie at position p + 1
        member14 = allow[:, [p - 1 for p in known.positions]]
        member56 = allow[:, [p - 1 for p in known.positions if p >= 5]]
    early_of, n14, v14, r14, s14, c14 = _label_arrays(shoe, lab.early, member14)
    late_of, n56, v56, r56, s56, c56 = _label_arrays(shoe, lab.late, member56)
    co14 = np.zeros(n14.size, dtype=np.int64)
    allow14 = np.ones((4, n14.size), dtype=np.bool_)
    allow56 = np.ones((2, n56.size), dtype=np.bool_)
    for t in range(len(shoe.counts)):
        co14[early_of[t]] = late_of[t]
        if allow is not None:
            allow14[:, early_of[t]] = allow[t, :4]
            allow56[:, late_of[t]] = allow[t, 4:]
    out = np.zeros(sum(len(lv) for lv in prog.levels), dtype=np.int64)
    # Stage 1 groups the first four cards by their late labels; when those are the early labels already,
    # every field is read in stage 2 instead.
    split = lab.early != lab.late
    early = np.array([split and is_early(int(t), int(sl)) for t, sl in zip(prog.ftype, prog.fslot)],
                     dtype=np.bool_)
    radix = np.array([_RADIX[_kind(f)] if e else 1 for f, e in zip(prog.fields, early)], dtype=np.int64)
    ncodes = int(np.prod(radix)) if radix.size else 1
    if n56.size**4 * ncodes > MAX_GROUPS:
        raise BetError(f"bets on {', '.join(f for f, e in zip(prog.fields, early) if e)} together read too many "
                       f"things about the first four cards to be priced at once ({ncodes} combinations); price "
                       f"them one at a time")
    units = _units(int(np.count_nonzero(n14)), int(np.count_nonzero(n56)), ncodes)
    if units * SECONDS_PER_UNIT > MAX_SECONDS:
        raise BetError(f"bets on {', '.join(sorted(set(fields)))} read the cards too finely to be priced in reasonable "
                       f"time: about {units * SECONDS_PER_UNIT / 60:,.0f} minutes of one core (the card labels: "
                       f"{lab.describe()}); ask less of the third cards (their values, not their suits)")
    groups = np.zeros((n56.size**4, ncodes), dtype=np.int64)
    compiled().card_kernel(n14, v14, r14, s14, c14, co14, n56, v56, r56, s56, c56, allow14, allow56, shoe.cards,
                           shoe.replacement, tableau.player_array, tableau.banker_array, prog.ftype, prog.fside,
                           prog.fslot, prog.fattr, early, radix, ncodes, groups, prog.cfield, prog.allowed,
                           prog.rstart, prog.rlevel, prog.bstart, prog.botherwise, out)
    res, i = [], 0
    for lv in prog.levels:
        res.append((lv, [int(x) for x in out[i : i + len(lv)]]))
        i += len(lv)
    return res


def _units(n14: int, n56: int, ncodes: int) -> int:
    """The kernel's work: the first four cards' ordered labels, then every group of them (by the third cards'
    labels) times its early codes, each followed by the third cards' pairs of labels (labels that some card
    of the shoe has: a small shoe's few cards are few labels)."""
    return n14**4 + n56**6 * ncodes


def estimated_seconds(shoe: Shoe, bets: tuple[Bet, ...]) -> float:
    """About how long :func:`level_counts` takes to price ``bets`` on ``shoe``, on one core.

    Parameters
    ----------
    shoe : Shoe
        The shoe (known by the resolution the bets need).
    bets : tuple of Bet
        Bets on the cards themselves.

    Returns
    -------
    float
        Seconds (:data:`SECONDS_PER_UNIT` times the kernel's work); 0 for no bet on the cards.
    """
    fields = [f for b in bets for r in b.rules for f, _ in r.when]
    if not any(b.card_level for b in bets) or not resolution_at_least(shoe.resolution, needed_resolution(fields)):
        return 0.0
    lab = labelling(fields)
    prog = _program(bets)
    split = lab.early != lab.late
    early = [split and is_early(int(t), int(sl)) for t, sl in zip(prog.ftype, prog.fslot)]
    ncodes = int(np.prod([_RADIX[_kind(f)] if e else 1 for f, e in zip(prog.fields, early)] or [1]))
    n14 = int(np.count_nonzero(_label_arrays(shoe, lab.early, None)[1]))  # the labels a card of the shoe has
    n56 = int(np.count_nonzero(_label_arrays(shoe, lab.late, None)[1]))
    return _units(n14, n56, ncodes) * SECONDS_PER_UNIT


def rule_hits(bet: Bet, shoe: Shoe) -> list[int]:
    """Deals in which each rule of ``bet`` holds, whether or not an earlier rule holds too (for checking a bet).

    Parameters
    ----------
    bet : Bet
        The bet.
    shoe : Shoe
        What is dealt.

    Returns
    -------
    list of int
        One count per rule.
    """
    from ..rules import PUNTO_BANCO  # lazy: rules imports the engine's tableau tables; checks are rare

    singles = tuple(_single(bet, k) for k in range(len(bet.rules)))
    return [c[lv.index(Fraction(1))] if Fraction(1) in lv else 0
            for lv, c in level_counts(shoe, singles, PUNTO_BANCO)]


def _single(bet: Bet, k: int) -> Any:
    """A stand-in bet paying 1 when rule ``k`` holds (duck-typed for :func:`_program`)."""
    rule = bet.rules[k]
    return types.SimpleNamespace(rules=(types.SimpleNamespace(when=rule.when, pays=Fraction(1)),),
                                 otherwise=Fraction(-1), name=f"{bet.name}-rule{k + 1}")
