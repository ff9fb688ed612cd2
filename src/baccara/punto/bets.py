"""Bets as data: payout tables over the events of a coup.

A :class:`Bet` is an ordered list of rules ``(condition, pays)`` and a payout
for ``otherwise``; the first rule whose condition holds gives the bet's net
result per unit staked (``k`` for a k:1 win, ``0`` for a push, ``-1`` for a
loss).  Conditions are conjunctions of field constraints over
:data:`baccara.punto.events.FIELDS`.  Every built-in bet is written in this form,
and user-defined bets load from TOML in the same form (see
:func:`load_bets_toml`), so a new side bet is priced without Python.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import params
from ..errors import BaccaraError, BetError
from ..tomlfile import read_toml
from .events import (
    CARD_FIELD_EXAMPLES,
    CARD_FIELDS,
    COLOUR_NAMES,
    FIELDS,
    NCELLS,
    NONE_CODE,
    SUIT_NAMES,
    condition_mask,
    describe_condition,
    needed_resolution,
    normalize_condition,
)

if TYPE_CHECKING:
    import numpy as np

DEFAULT_COMMISSION = Fraction(1, 20)
DEFAULT_TIE_PAYS = Fraction(8)
DEFAULT_SUPER6_PAYS = Fraction(12)

_WORDS = {"push": Fraction(0), "lose": Fraction(-1), "loss": Fraction(-1)}


def as_payout(value: Any, name: str, positive: bool = False) -> Fraction:
    """A payout per unit staked, exactly, checked against its range.

    Floats are read as the decimal they print (0.95 -> 19/20), as everywhere
    in baccara (:func:`baccara.params.payout`); ``"push"`` is 0 and
    ``"lose"`` / ``"loss"`` is -1.

    Parameters
    ----------
    value : int, Fraction, float or str
        The payout (``11`` for 11:1, ``"push"``, ``"lose"``).
    name : str
        The parameter's name, used in the error message.
    positive : bool
        Whether the payout must be a win (in (0, MAX_PAYOUT]) rather than in [-1, MAX_PAYOUT].

    Returns
    -------
    Fraction
        The exact payout.
    """
    if isinstance(value, str) and value.strip().lower() in _WORDS:
        value = _WORDS[value.strip().lower()]
    try:
        return params.payout(value, name, positive=positive)
    except BaccaraError as e:
        raise BetError(str(e)) from None


@dataclass(frozen=True)
class Rule:
    """Pays ``pays`` (net, per unit staked) when every condition in ``when`` holds."""

    when: tuple[tuple[str, tuple], ...]
    pays: Fraction

    @classmethod
    def make(cls, pays: Any, **when: Any) -> Rule:
        return cls(
            when=tuple(sorted((f, normalize_condition(f, v)) for f, v in when.items())),
            pays=as_payout(pays, "pays"),
        )


@dataclass(frozen=True)
class Bet:
    """A bet: the first matching rule pays; otherwise ``otherwise`` (default: lose the stake)."""

    name: str
    rules: tuple[Rule, ...]
    otherwise: Fraction = Fraction(-1)
    description: str = field(default="", compare=False)

    def __hash__(self) -> int:  # bets key caches: hash once
        h = self.__dict__.get("_hash")
        if h is None:
            h = hash((self.name, self.rules, self.otherwise))
            object.__setattr__(self, "_hash", h)
        return h

    def __repr__(self) -> str:
        rules = f"{len(self.rules)} rule{'' if len(self.rules) == 1 else 's'}, otherwise pays {self.otherwise}"
        return f"<Bet {self.name}: {self.description + '; ' if self.description else ''}{rules}>"

    def __post_init__(self) -> None:
        if not self.name or not all(ch.isalnum() or ch in "_-" for ch in self.name):
            raise BetError(f"bet name must be letters, digits, '_' or '-', got {self.name!r}")
        for p in [r.pays for r in self.rules] + [self.otherwise]:
            if not -1 <= p <= params.MAX_PAYOUT:
                raise BetError(f"bet {self.name!r}: a payout must be in [-1, {params.MAX_PAYOUT}] (-1: the stake "
                               f"lost), got {p}")
        self.check_rules()

    def check_rules(self) -> None:
        """Refuse a rule that can never pay: its condition holds in no coup, or only in coups an
        earlier rule already matched (a slip in a user's bet, never meant).

        Conditions on the cells are checked over every cell; conditions on the cards themselves
        (:data:`baccara.punto.events.CARD_FIELDS`) first for the contradictions a designer can write
        (a third card to a hand of two cards, no third card to a hand of three), then, where the bet
        reads values or ranks only (at most 13 labels, a fraction of a second), by dealing the infinite
        shoe with the card-level engine: a rule no deal satisfies is refused."""
        import numpy as np
        unset = np.ones(NCELLS, dtype=bool)
        seen: list[dict[str, frozenset[int]] | None] = []  # each earlier rule's cards by position, if all it reads
        for k, rule in enumerate(self.rules, 1):
            _check_third_cards(self.name, k, rule.when)
            cards = _positional_cards(self.name, k, rule.when)
            for j, earlier in enumerate(seen, 1):
                if earlier is not None and all(p in cards and cards[p] <= allowed for p, allowed in earlier.items()):
                    raise BetError(f"bet {self.name!r}, rule {k}: never applies, since every coup it matches "
                                   f"({describe_condition(rule.when)}) is matched by rule {j}")
            only_cards = all(f in CARD_FIELDS and _POSITION.match(f) for f, _ in rule.when)
            seen.append(cards if only_cards else None)
            cells = tuple((f, v) for f, v in rule.when if f not in CARD_FIELDS)
            mask = condition_mask(cells)
            if not mask.any():
                raise BetError(f"bet {self.name!r}, rule {k}: its conditions can never hold together "
                               f"({describe_condition(rule.when)})")
            if len(cells) < len(rule.when):
                continue  # a card-level rule: checked by dealing below
            if not (mask & unset).any():
                raise BetError(f"bet {self.name!r}, rule {k}: never applies, since every coup it matches "
                               f"({describe_condition(rule.when)}) is matched by an earlier rule")
            unset &= ~mask
        if self.card_level:
            from ..shoe import Shoe  # lazy: with the engine
            from . import cardengine  # lazy: the card-level engine loads Numba; only bets on the cards need it
            if cardengine.bet_labelling(self).labels <= 13:
                for k, hits in enumerate(cardengine.rule_hits(self, Shoe.infinite()), 1):
                    if hits == 0:
                        raise BetError(f"bet {self.name!r}, rule {k}: its conditions can never hold together "
                                       f"({describe_condition(self.rules[k - 1].when)})")

    @cached_property
    def card_level(self) -> bool:
        """Does the bet read the cards themselves (priced by :mod:`baccara.punto.cardengine`), not only cells?"""
        return any(f in CARD_FIELDS for r in self.rules for f, _ in r.when)

    @cached_property
    def card_fields(self) -> tuple[str, ...]:
        """The fields on the cards themselves that the bet reads, in order of first use."""
        return tuple(dict.fromkeys(f for r in self.rules for f, _ in r.when if f in CARD_FIELDS))

    @cached_property
    def resolution(self) -> str:
        """The shoe resolution needed to price this bet (value, rank or suit)."""
        return needed_resolution([f for r in self.rules for f, _ in r.when])

    def cell_levels(self) -> tuple[tuple[Fraction, ...], np.ndarray]:
        """The bet's distinct payouts and, for each cell, the index of its payout."""
        return _cell_levels(self)


#: A field on one card of one hand: ``player_card3_suit`` -> (player, 3, suit).
_POSITION = re.compile(r"^(player|banker)_card([123])_(rank|value|suit|colour)$")
#: The 52 cards as (rank code, suit code), and "no third card".
_DECK = tuple((r, s) for r in range(13) for s in range(4))
_NONE = (-1, -1)


def _card_attribute(card: tuple[int, int], attr: str) -> int:
    """A card's code for one attribute (:data:`baccara.punto.events.NONE_CODE` for no card)."""
    if card == _NONE:
        return NONE_CODE[attr]
    r, s = card
    if attr == "rank":
        return r
    if attr == "value":
        return (r + 1) % 10 if r < 9 else 0
    if attr == "suit":
        return s
    return COLOUR_NAMES.index("red") if SUIT_NAMES[s] in ("hearts", "diamonds") else COLOUR_NAMES.index("black")


def _positional_cards(name: str, k: int, when: tuple[tuple[str, tuple], ...]) -> dict[str, frozenset[int]]:
    """The cards each position a rule names may hold (indices into the deck, -1 for no third card).

    A BetError when the conditions on one card contradict each other: a suit and a colour that no card
    has (hearts and black), a rank and a value (an ace worth 5), "none" and a card.
    """
    out: dict[str, frozenset[int]] = {}
    for f, allowed in when:
        m = _POSITION.match(f)
        if m is None:
            continue
        pos, attr = f"{m.group(1)}_card{m.group(2)}", m.group(3)
        third = m.group(2) == "3"
        cards = [(i, c) for i, c in enumerate(_DECK)] + ([(-1, _NONE)] if third else [])
        ok = frozenset(i for i, c in cards if _card_attribute(c, attr) in allowed)
        out[pos] = out.get(pos, ok) & ok
        if not out[pos]:
            raise BetError(f"bet {name!r}, rule {k}: its conditions on {pos} can never hold together: no card "
                           f"has them all ({describe_condition(tuple((g, a) for g, a in when if g.startswith(pos)))})")
    return out


def _check_third_cards(name: str, k: int, when: tuple[tuple[str, tuple], ...]) -> None:
    """A clear error for a rule that asks a hand for a third card it cannot have (or the reverse)."""
    conds = dict(when)
    for side in ("player", "banker"):
        cards = conds.get(f"{side}_cards")
        for f, allowed in when:
            if not (f.startswith(f"{side}_card3_") and cards is not None):
                continue
            none = NONE_CODE[CARD_FIELDS[f][0]]
            if none not in allowed and cards == (2,):
                raise BetError(f"bet {name!r}, rule {k}: {f} asks for a third card, but {side}_cards = 2 "
                               f"(a hand of two cards has none)")
            if set(allowed) == {none} and cards == (3,):
                raise BetError(f"bet {name!r}, rule {k}: {f} = none asks for no third card, but {side}_cards = 3")


@lru_cache(maxsize=4096)
def _cell_levels(bet: Bet) -> tuple[tuple[Fraction, ...], np.ndarray]:
    import numpy as np
    if bet.card_level:
        raise BetError(f"bet {bet.name!r} reads the cards themselves ({', '.join(bet.card_fields)}), which no cell "
                       f"of a coup determines: it is priced exactly by the card-level engine (baccara edge), "
                       f"not by this command")
    payout = np.full(NCELLS, -1, dtype=np.int64)
    levels: list[Fraction] = []
    unset = np.ones(NCELLS, dtype=bool)

    def level(p: Fraction) -> int:
        if p not in levels:
            levels.append(p)
        return levels.index(p)

    for rule in bet.rules:
        hit = unset & condition_mask(rule.when)
        if hit.any():
            payout[hit] = level(rule.pays)
            unset &= ~hit
    if unset.any():
        payout[unset] = level(bet.otherwise)
    return tuple(levels), payout


# ---------------------------------------------------------------- built-in bets
def _as_commission(value: Any) -> Fraction:
    """The commission on Banker's wins, in [0, 1), or :class:`BetError`."""
    try:
        return params.commission(value)
    except BaccaraError as e:
        raise BetError(str(e)) from None


def banker(commission: Any = DEFAULT_COMMISSION) -> Bet:
    """Banker: wins 1 - commission, ties push.

    Parameters
    ----------
    commission : int, Fraction, float or str
        The commission on Banker's wins, in [0, 1).

    Returns
    -------
    Bet
        The bet.
    """
    return _banker(_as_commission(commission))


def _banker(c: Fraction) -> Bet:
    return Bet("banker", (Rule.make(1 - c, winner="banker"), Rule.make(0, winner="tie")),
               description=f"Banker, {float(c) * 100:g}% commission on wins")


def player() -> Bet:
    """Player: wins 1, ties push."""
    return Bet("player", (Rule.make(1, winner="player"), Rule.make(0, winner="tie")), description="Player, even money")


def tie(pays: Any = DEFAULT_TIE_PAYS) -> Bet:
    """Tie: pays ``pays``:1.

    Parameters
    ----------
    pays : int, Fraction, float or str
        What a tie pays, k:1 (positive).

    Returns
    -------
    Bet
        The bet.
    """
    return _tie(as_payout(pays, "tie pays", positive=True))


def _tie(t: Fraction) -> Bet:
    return Bet("tie", (Rule.make(t, winner="tie"),), description=f"Tie, pays {t}:1")


def ez_banker() -> Bet:
    """EZ Baccarat Banker: even money, push when Banker wins with a three-card 7."""
    return Bet("ez_banker", (
        Rule.make(0, winner="banker", banker_cards=3, banker_total=7),
        Rule.make(1, winner="banker"),
        Rule.make(0, winner="tie"),
    ), description="EZ Baccarat Banker: even money, push on a three-card Banker 7 win")


def dragon7() -> Bet:
    """EZ Baccarat Dragon 7: Banker wins with a three-card 7, pays 40:1."""
    return Bet("dragon7", (Rule.make(40, winner="banker", banker_cards=3, banker_total=7),),
               description="Dragon 7: Banker wins with a three-card 7, 40:1")


def panda8() -> Bet:
    """EZ Baccarat Panda 8: Player wins with a three-card 8, pays 25:1."""
    return Bet("panda8", (Rule.make(25, winner="player", player_cards=3, player_total=8),),
               description="Panda 8: Player wins with a three-card 8, 25:1")


def super6_banker() -> Bet:
    """Super 6 Banker: even money, but a Banker win with 6 pays 1:2."""
    return Bet("super6_banker", (
        Rule.make(Fraction(1, 2), winner="banker", banker_total=6),
        Rule.make(1, winner="banker"),
        Rule.make(0, winner="tie"),
    ), description="Super 6 Banker: even money, 1:2 on a Banker win with 6")


def super6(pays: Any = DEFAULT_SUPER6_PAYS) -> Bet:
    """Super 6 side bet: Banker wins with 6, pays ``pays``:1.

    Parameters
    ----------
    pays : int, Fraction, float or str
        What a Banker win with 6 pays, k:1 (positive).

    Returns
    -------
    Bet
        The bet.
    """
    return _super6(as_payout(pays, "super6 pays", positive=True))


def _super6(p: Fraction) -> Bet:
    return Bet("super6", (Rule.make(p, winner="banker", banker_total=6),),
               description=f"Super 6: Banker wins with 6, {p}:1")


def player_pair(pays: Any = 11) -> Bet:
    """Player Pair: Player's first two cards of equal rank, pays 11:1."""
    return Bet("player_pair", (Rule.make(pays, player_pair=True),), description="Player's first two cards pair, 11:1")


def banker_pair(pays: Any = 11) -> Bet:
    """Banker Pair: Banker's first two cards of equal rank, pays 11:1."""
    return Bet("banker_pair", (Rule.make(pays, banker_pair=True),), description="Banker's first two cards pair, 11:1")


#: Dragon Bonus paytable for a non-natural win, by margin.
DRAGON_BONUS_MARGINS = {9: 30, 8: 10, 7: 6, 6: 4, 5: 2, 4: 1}


def _dragon_bonus(side: str) -> Bet:
    return Bet(f"dragon_bonus_{side}", (
        Rule.make(1, winner=side, **{f"{side}_natural": True}),
        Rule.make(0, winner="tie", natural=True),
        *(Rule.make(p, winner=side, margin=m) for m, p in DRAGON_BONUS_MARGINS.items()),
    ), description=f"Dragon Bonus on {side.capitalize()}: natural win 1:1, natural tie push, win by 9 30:1 ... by 4 1:1")


def dragon_bonus_player() -> Bet:
    """Dragon Bonus on Player (natural win 1:1, natural tie push, margins 9..4 pay 30, 10, 6, 4, 2, 1)."""
    return _dragon_bonus("player")


def dragon_bonus_banker() -> Bet:
    """Dragon Bonus on Banker (natural win 1:1, natural tie push, margins 9..4 pay 30, 10, 6, 4, 2, 1)."""
    return _dragon_bonus("banker")


def builtin_bets(
    commission: Any = DEFAULT_COMMISSION,
    tie_pays: Any = DEFAULT_TIE_PAYS,
    super6_pays: Any = DEFAULT_SUPER6_PAYS,
) -> dict[str, Bet]:
    """Every built-in bet, by name, with the given house parameters.

    Parameters
    ----------
    commission : int, Fraction, float or str
        The commission on Banker's wins, in [0, 1).
    tie_pays, super6_pays : int, Fraction, float or str
        What a tie and the Super 6 side bet pay, k:1 (positive).

    Returns
    -------
    dict of str to Bet
        The bets, by name.
    """
    return house_bets(_as_commission(commission), as_payout(tie_pays, "tie pays", positive=True),
                      as_payout(super6_pays, "super6 pays", positive=True))


def house_bets(commission: Fraction, tie_pays: Fraction, super6_pays: Fraction) -> dict[str, Bet]:
    """:func:`builtin_bets` with the house parameters already read and checked (by
    :func:`baccara.params.commission` and :func:`as_payout`): the command line and the simulator
    read them under their own names, and they are not read again.

    Parameters
    ----------
    commission : Fraction
        The commission on Banker's wins, in [0, 1).
    tie_pays, super6_pays : Fraction
        What a tie and the Super 6 side bet pay, k:1 (positive).

    Returns
    -------
    dict of str to Bet
        The bets, by name.
    """
    return dict(_builtin_bets(commission, tie_pays, super6_pays))


@lru_cache(maxsize=32)
def _builtin_bets(commission: Fraction, tie_pays: Fraction, super6_pays: Fraction) -> tuple[tuple[str, Bet], ...]:
    bets = [
        _banker(commission), player(), _tie(tie_pays),
        ez_banker(), dragon7(), panda8(),
        super6_banker(), _super6(super6_pays),
        player_pair(), banker_pair(),
        dragon_bonus_player(), dragon_bonus_banker(),
    ]
    return tuple((b.name, b) for b in bets)


# ---------------------------------------------------------------- user-defined bets
#: Keys of a bet's table that inform people and are not priced: where the bet was published, the house
#: edge published there (a percentage, as printed), and a note (examples/gallery.toml uses them).
INFO_KEYS = ("source", "url", "published_edge", "note")

def bet_from_mapping(name: str, spec: Mapping[str, Any]) -> Bet:
    """A bet from its data form: ``{"rules": [{"when": {...}, "pays": P}, ...], "otherwise": P}``."""
    if not isinstance(spec, Mapping):
        raise BetError(f"bet {name!r} must be a table with 'rules'")
    unknown = set(spec) - {"rules", "otherwise", "description", *INFO_KEYS}
    if unknown:
        raise BetError(f"bet {name!r}: unknown key(s) {', '.join(sorted(unknown))}; allowed: rules, otherwise, "
                       f"description, {', '.join(INFO_KEYS)}")
    for key in INFO_KEYS:
        if key in spec and not isinstance(spec[key], str):
            raise BetError(f"bet {name!r}: {key} must be a string (it is information for people, not priced), "
                           f"got {spec[key]!r}")
    rules_spec = spec.get("rules", [])
    if not isinstance(rules_spec, list) or not rules_spec:
        raise BetError(f"bet {name!r} needs a non-empty list 'rules' of {{when = {{...}}, pays = ...}}")
    rules = []
    for i, r in enumerate(rules_spec):
        if not isinstance(r, Mapping) or "pays" not in r:
            raise BetError(f"bet {name!r}, rule {i + 1}: needs 'pays' (and 'when', a table of conditions)")
        extra = set(r) - {"when", "pays"}
        if extra:
            raise BetError(f"bet {name!r}, rule {i + 1}: unknown key(s) {', '.join(sorted(extra))}; allowed: when, pays")
        when = r.get("when", {})
        if not isinstance(when, Mapping):
            raise BetError(f"bet {name!r}, rule {i + 1}: 'when' must be a table of field = value(s)")
        try:
            rules.append(Rule.make(r["pays"], **dict(when)))
        except BetError as e:
            raise BetError(f"bet {name!r}, rule {i + 1}: {e}") from None
    otherwise = as_payout(spec.get("otherwise", -1), f"bet {name!r} otherwise")
    return Bet(name, tuple(rules), otherwise, str(spec.get("description", "")))


def load_bets_toml(path: str | Path) -> dict[str, Bet]:
    """User-defined bets from a TOML file: one table ``[bets.NAME]`` per bet.

    Example::

        [bets.big]
        description = "Big: five or six cards dealt"
        rules = [ { when = { total_cards = [5, 6] }, pays = "0.54" } ]

        [bets.small]
        rules = [ { when = { total_cards = 4 }, pays = "1.5" } ]

    Fields for ``when``: see :data:`baccara.punto.events.FIELDS`.
    """
    data = read_toml(path, "bets", BetError)
    unknown = ", ".join(map(repr, sorted(set(data) - {"bets"})))
    bets = data.get("bets")
    if not isinstance(bets, Mapping) or not bets:
        raise BetError(f"bets file {str(path)!r} has no [bets.NAME] tables"
                       + (f" (unknown key(s) {unknown} at the top level)" if unknown else ""))
    if unknown:  # a misspelt table ([bet.lucky]) would drop its bet without a word
        raise BetError(f"bets file {str(path)!r}: unknown key(s) {unknown} at the top level; "
                       f"allowed: bets (one [bets.NAME] table per bet)")
    return {name: bet_from_mapping(name, spec) for name, spec in bets.items()}


def field_help() -> str:
    """The fields a bet's ``when`` can test, one per line, for help texts: the fields on the coup's outcome
    (priced by the cell engine in microseconds), then the fields on the cards themselves with an example
    each and the engine and cost their resolution needs."""
    lines = ["Fields on the outcome (exact cell engine, microseconds a shoe):"]
    lines += [f"  {name}: {desc} (needs a shoe known by {res})" for name, (_, desc, res) in FIELDS.items()]
    lines += ["", "Fields on the cards themselves (exact card-level engine; the coarsest labels the bet needs:",
              "values or ranks about 0.1-0.5 s for 8 decks, colours about 1-2 s, suits of the first four cards",
              "about 3-5 s; examples after '='; third cards take \"none\" when the hand has two cards):"]
    for name, (kind, desc, attr, _) in CARD_FIELDS.items():
        res = {"value": "value", "rank": "rank"}.get(attr, "suit")
        lines.append(f"  {name}: {desc}; = {CARD_FIELD_EXAMPLES[kind]} (needs a shoe known by {res})")
    lines += ["", "Either hand / both hands: list rules in order, e.g. both (player_cards = 3, player_total = 9,",
              "banker_cards = 3, banker_total = 9) pays 75, then each hand alone pays 10 (first match pays)."]
    return "\n".join(lines)
