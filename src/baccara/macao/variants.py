"""The rules of Macao and Victoria as data: one frozen :class:`MacaoRules` per variant.

Macao is described as the immediate precursor of baccarat, and Victoria as its
two-card variation, in "Baccarat (card game)", Wikipedia (revision of 26 April
2019), after D. Parlett.  Each published description is a named variant
(:data:`VARIANTS`, with its source in :data:`SOURCES`); what a source leaves open
is a modelling choice, listed in :data:`CHOICES`.  The rules modelled (see
:mod:`baccara.macao` for the information model and the bounds):

- card values: A = 1, 2-9 face value, 10 J Q K = 0 (a "ten");
- the deal: ``initial`` cards face down to the punter and to the banker (Macao 1,
  Victoria 2); a dealt hand's total is its sum modulo 10;
- the punter, then the banker (seeing the punter's face-up cards), may draw cards
  one at a time, face up; a drawn ten may be *rejected* (``reject_tens``): it is
  dealt out of the shoe, lies face up beside the hand, and does not count as a card
  of the hand; the player then draws again or stands;
- ``totals = "modulo"`` (later rules): drawn cards add modulo 10;
  ``totals = "bust"`` (early rules): drawn cards add without reduction and a hand
  over 9 loses at once (a punter who busts loses before the banker plays);
- the higher total wins; equal totals: the hand with fewer cards wins; equal totals
  and cards: ``ties = "banker"`` (the banker wins) or ``"push"`` (early rules: bets off);
- a punter winning with a natural (exactly ``initial`` cards) of 9 is paid
  ``natural9_pays`` to 1 (3 in the sources; 2 in some rules), with a natural 8
  ``natural8_pays`` to 1 (2), with a natural of another total the multiple in
  ``other_naturals`` (the Russian rules' 7 pays 1:1), any other win 1 to 1; a lost
  bet loses the stake.  (A punter's natural 9 never wins against the banker's
  natural 9: equal totals and cards.)
- ``banker_bonus``: the banker's naturals collect the same multiples: a banker who
  wins with a natural of total t takes t's multiple of the stake, except from a
  punter whose hand ties his in total and cards (that punter loses his stake once,
  as Meyer says of two nines) and from a punter who went over 9 (his stake was lost
  at once, before the banker played).
- ``draws``: each hand may take at most this many cards from the shoe after the
  deal, rejected tens included (the bound that keeps the game finite; see
  :mod:`baccara.macao`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from .. import params
from ..errors import BaccaraError

TOTALS = ("modulo", "bust")
TIES = ("banker", "push")


@dataclass(frozen=True)
class MacaoRules:
    """One variant of Macao or Victoria (see the module docstring for what each field means).

    Attributes
    ----------
    name : str
        The variant's name (``macao``, ``macao-early``, ``victoria``, ``victoria-early``).
    initial : int
        Cards dealt to each hand (1 Macao, 2 Victoria).
    totals : str
        ``"modulo"`` or ``"bust"``.
    ties : str
        ``"banker"`` or ``"push"``: equal totals and equal numbers of cards.
    natural9_pays, natural8_pays : Fraction
        What a punter's winning natural 9 / natural 8 pays to 1.
    draws : int
        Most cards a hand may take from the shoe after the deal (rejected tens included).
    reject_tens : bool
        Whether a drawn ten may be rejected.
    decks : int
        The default shoe (fresh decks).
    banker_bonus : bool
        Whether the banker's winning naturals collect the same multiples as the punter's.
    other_naturals : tuple of (int, Fraction)
        Multiples of winning naturals of totals other than 9 and 8, as sorted ``(total, pays)`` pairs.
    """

    name: str
    initial: int = 1
    totals: str = "modulo"
    ties: str = "banker"
    natural9_pays: Fraction = Fraction(3)
    natural8_pays: Fraction = Fraction(2)
    draws: int = 2
    reject_tens: bool = True
    decks: int = 2
    banker_bonus: bool = False
    other_naturals: tuple[tuple[int, Fraction], ...] = ()

    def __post_init__(self) -> None:
        if self.initial not in (1, 2):
            raise BaccaraError(f"initial must be 1 (Macao) or 2 (Victoria), got {self.initial!r}")
        if self.totals not in TOTALS:
            raise BaccaraError(f"totals must be one of {', '.join(TOTALS)}, got {self.totals!r}")
        if self.ties not in TIES:
            raise BaccaraError(f"ties must be one of {', '.join(TIES)}, got {self.ties!r}")
        object.__setattr__(self, "natural9_pays", params.payout(self.natural9_pays, "natural9_pays", positive=True))
        object.__setattr__(self, "natural8_pays", params.payout(self.natural8_pays, "natural8_pays", positive=True))
        object.__setattr__(self, "draws", params.integer(self.draws, "draws", lo=0, hi=MAX_DRAWS))
        if not isinstance(self.banker_bonus, bool):
            raise BaccaraError(f"banker_bonus must be True or False, got {self.banker_bonus!r}")
        other = dict(_natural_pairs(self.other_naturals, "other_naturals"))
        if set(other) & {8, 9}:
            raise BaccaraError("other_naturals: totals 9 and 8 are natural9_pays and natural8_pays")
        object.__setattr__(self, "other_naturals", tuple(sorted(other.items())))

    @property
    def naturals(self) -> dict[int, Fraction]:
        """What a winning natural pays to 1, by total (9 and 8 always; other totals where given), highest first."""
        d = {9: self.natural9_pays, 8: self.natural8_pays, **dict(self.other_naturals)}
        return dict(sorted(d.items(), reverse=True))

    def multiple(self, total: int) -> Fraction:
        """What a winning natural of ``total`` pays to 1 (1 for a total with no bonus).

        Parameters
        ----------
        total : int
            The natural's total (0-9).

        Returns
        -------
        Fraction
            The multiple.
        """
        return self.naturals.get(total, Fraction(1))

    @property
    def cards_per_coup(self) -> int:
        """Most cards one coup can take from the shoe: the deal and every draw of both hands."""
        return 2 * (self.initial + self.draws)

    def describe(self) -> str:
        """One line of the rules for people.

        Returns
        -------
        str
            E.g. ``"1 card, totals modulo 10, equal totals and cards: banker wins, natural 9 pays 3:1 ..."``.
        """
        tot = "totals modulo 10" if self.totals == "modulo" else "over 9 loses at once"
        tie = "banker wins" if self.ties == "banker" else "push"
        card = "one-card" if self.initial == 1 else "two-card"
        nats = ", ".join(f"{card} {t} pays {m}:1" for t, m in self.naturals.items())
        return (f"{self.initial} card{'s' if self.initial > 1 else ''} each, {tot}, equal totals and cards: {tie}, "
                f"{nats}{' (the banker' + chr(39) + 's too)' if self.banker_bonus else ''}, at most "
                f"{self.draws} draw{'s' if self.draws != 1 else ''} per hand"
                + (", tens may be rejected" if self.reject_tens else ""))

    def to_json(self) -> dict:
        """The rules as a JSON-ready dict.

        Returns
        -------
        dict
            Every field; payouts as exact strings; ``naturals`` by total; ``source`` for a named variant and ``as_named`` (the rules are exactly that variant's).
        """
        return {"variant": self.name, "initial_cards": self.initial, "totals": self.totals, "ties": self.ties,
                "natural9_pays": str(self.natural9_pays), "natural8_pays": str(self.natural8_pays),
                "max_draws": self.draws, "reject_tens": self.reject_tens, "default_decks": self.decks,
                "naturals": {str(t): str(m) for t, m in self.naturals.items()},
                "banker_bonus": self.banker_bonus, "source": SOURCES.get(self.name),
                "as_named": VARIANTS.get(self.name) == self}


def _natural_pairs(pairs: Any, name: str) -> list[tuple[int, Fraction]]:
    """Validated ``(total, multiple)`` pairs: totals 0-9, each once; multiples positive payouts."""
    if isinstance(pairs, Mapping):
        pairs = list(pairs.items())
    out: dict[int, Fraction] = {}
    try:
        items = list(pairs)
    except TypeError:
        raise BaccaraError(f"{name} must be (total, multiple) pairs, got {pairs!r}") from None
    for item in items:
        try:
            t, m = item
        except (TypeError, ValueError):
            raise BaccaraError(f"{name} must be (total, multiple) pairs, got {item!r}") from None
        total = params.integer(t, f"{name} total", lo=0, hi=9)
        if total in out:
            raise BaccaraError(f"{name} gives the total {total} twice: give each total once")
        out[total] = params.payout(m, f"{name} multiple of total {total}", positive=True)
    return sorted(out.items())


def parse_naturals(text: Any, name: str = "--naturals") -> dict[int, Fraction]:
    """The multiples of winning naturals by total, from ``"9=3,8=2,7=1"`` or a mapping.

    Parameters
    ----------
    text : str or mapping
        ``TOTAL=MULTIPLE`` pairs, comma-separated: totals 0-9, each once; multiples positive (``3``,
        ``3/2``), at most :data:`~baccara.params.MAX_PAYOUT`.  Totals not named pay even money.
    name : str
        The parameter's name, used in the error messages.

    Returns
    -------
    dict
        Total -> multiple.
    """
    if isinstance(text, Mapping):
        return dict(_natural_pairs(text, name))
    parts = [p for p in str(text).replace(" ", "").split(",") if p]
    if not parts:
        raise BaccaraError(f"{name} is empty: give TOTAL=MULTIPLE pairs such as 9=3,8=2,7=1 (totals 0-9)")
    pairs = []
    for p in parts:
        if p.count("=") != 1:
            raise BaccaraError(f"{name}: each item is TOTAL=MULTIPLE with a total 0-9 (such as 9=3), got {p!r}")
        pairs.append(tuple(p.split("=")))
    return dict(_natural_pairs(pairs, name))


#: Most draws per hand accepted (the game grows fast with it).
MAX_DRAWS = 4

WIKIPEDIA_2019 = '"Baccarat (card game)", Wikipedia, revision of 26 April 2019 (section Macao, after D. Parlett)'
MEYER_1908 = 'Meyers Grosses Konversations-Lexikon, 6th ed., vol. 13 (Leipzig, 1908), p. 13, "Macao"'
RUSSIAN = '"Макао (карточная игра)" [Macao (card game)], Russian Wikipedia'
ADPOKER = '"Jouer au Macao", adpoker.fr (a French rules page)'

#: The variants by name.
VARIANTS: dict[str, MacaoRules] = {
    "macao": MacaoRules("macao"),
    "macao-early": MacaoRules("macao-early", totals="bust", ties="push"),
    "victoria": MacaoRules("victoria", initial=2, draws=1),
    "victoria-early": MacaoRules("victoria-early", initial=2, totals="bust", ties="push", draws=1),
    "macao-meyer": MacaoRules("macao-meyer", totals="bust", ties="banker", natural9_pays=Fraction(2),
                              natural8_pays=Fraction(1), reject_tens=False, banker_bonus=True),
    "macao-russian": MacaoRules("macao-russian", natural9_pays=Fraction(3), natural8_pays=Fraction(2),
                                other_naturals=((7, Fraction(1)),), banker_bonus=True),
    "macao-four-decks": MacaoRules("macao-four-decks", initial=2, totals="bust", ties="push", draws=1,
                                   natural9_pays=Fraction(3), natural8_pays=Fraction(2),
                                   other_naturals=((7, Fraction(1)),), reject_tens=False, banker_bonus=True,
                                   decks=4),
}

#: Where each variant's rules come from (the rules the source states; the rest is in :data:`CHOICES`).
SOURCES: dict[str, str] = {
    "macao": f"{WIKIPEDIA_2019}: two decks, one card each, a drawn ten may be rejected, later rules add modulo 10, "
             "equal totals go to fewer cards then to the banker, a punter's natural 9 pays triple (unless the "
             "banker has one too), 8 double, anything else even money",
    "macao-early": f"{WIKIPEDIA_2019}: the early version, where going over 9 loses (as in blackjack) and equal "
                   "totals and cards call all bets off",
    "victoria": f"{WIKIPEDIA_2019}: Victoria, the variation of Macao where each hand is first dealt two cards",
    "victoria-early": f"{WIKIPEDIA_2019}: Victoria (two cards) under the early rules (over 9 loses, ties a push)",
    "macao-meyer": f"{MEYER_1908}: one card each, more may be bought, over 9 loses at once, a first-card 9 "
                   "(grosser Schlag) is paid double and the banker's collects double from every punter except "
                   "one who also holds a nine (he loses single), equal points and cards go to the banker",
    "macao-russian": f"{RUSSIAN}: 104 cards (two decks), one card each, a 9 wins triple, the banker's too, "
                     "8 double, 7 single; a hand that buys a card loses the bonus",
    "macao-four-decks": f"{ADPOKER}: four 52-card decks, two cards each, a dealt 9 is paid triple, 8 double, 7 "
                        "single, the banker's alike, equal hands a push (coup nul), the other rules as in "
                        "vingt-et-un",
}

#: What each variant takes as a modelling choice where its source is silent or unclear.
CHOICES: dict[str, str] = {
    "macao": "at most 2 draws per hand; the banker's naturals earn no bonus (the source names none)",
    "macao-early": "at most 2 draws per hand; the punter's naturals paid as in macao; tens may be rejected",
    "victoria": "at most 1 draw per hand; naturals (two-card 9 and 8) paid as in macao; tens may be rejected",
    "victoria-early": "at most 1 draw per hand; naturals paid as in macao; tens may be rejected",
    "macao-meyer": "two decks (Meyer gives no number; Wikipedia's Macao uses two); at most 2 draws per hand; a "
                   "first-card 8 (kleiner Schlag) is named but no bonus stated, so it pays even money; tens "
                   "cannot be rejected (not mentioned); a punter over 9 loses his single stake at once",
    "macao-russian": "at most 2 draws per hand; totals modulo 10 and tens rejected as in macao; equal totals and "
                     "cards go to the banker (not stated); re-buying both cards is not modelled",
    "macao-four-decks": "at most 1 draw per hand; drawn cards add without reduction and over 9 loses (read from "
                        "'as in vingt-et-un'); the two dealt cards count modulo 10; tens cannot be rejected",
}


def macao_rules(variant: str | MacaoRules = "macao", **changes: Any) -> MacaoRules:
    """A variant by name, with fields changed.

    Parameters
    ----------
    variant : str or MacaoRules
        One of :data:`VARIANTS` (``macao``, ``macao-early``, ``victoria``, ``victoria-early``,
        ``macao-meyer``, ``macao-russian``, ``macao-four-decks``), or rules.
    **changes
        Fields to change (``natural9_pays=2``, ``draws=3``, ``banker_bonus=True``, ...); None values are
        ignored.  ``naturals`` (a mapping or ``"9=3,8=2,7=1"``) sets every natural's multiple at once: totals
        it does not name pay even money.

    Returns
    -------
    MacaoRules
        The rules.
    """
    if isinstance(variant, MacaoRules):
        rules = variant
    else:
        name = str(variant).strip().lower()
        if name not in VARIANTS:
            raise BaccaraError(f"variant must be one of {', '.join(VARIANTS)}, got {variant!r}")
        rules = VARIANTS[name]
    changes = {k: v for k, v in changes.items() if v is not None}
    if "naturals" in changes:
        clash = sorted({"natural9_pays", "natural8_pays", "other_naturals"} & set(changes))
        if clash:
            raise BaccaraError(f"naturals sets every multiple: give it without {', '.join(clash)}")
        nats = parse_naturals(changes.pop("naturals"), "naturals")
        changes["natural9_pays"] = nats.pop(9, Fraction(1))
        changes["natural8_pays"] = nats.pop(8, Fraction(1))
        changes["other_naturals"] = tuple(nats.items())
    unknown = set(changes) - set(MacaoRules.__dataclass_fields__) - {"name"}
    if unknown:
        raise BaccaraError(f"unknown rule field(s): {', '.join(sorted(unknown))}")
    return replace(rules, **changes) if changes else rules
