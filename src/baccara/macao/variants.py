"""The rules of Macao and Victoria as data: one frozen :class:`MacaoRules` per variant.

Macao is described as the immediate precursor of baccarat, and Victoria as its
two-card variation, in "Baccarat (card game)", Wikipedia (revision of 26 April
2019), after D. Parlett.  The rules modelled (see :mod:`baccara.macao` for the
information model and the bounds):

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
  ``natural8_pays`` to 1 (2), any other win 1 to 1; a lost bet loses the stake.
  (A punter's natural 9 never wins against the banker's natural 9: equal totals and
  cards.)
- ``draws``: each hand may take at most this many cards from the shoe after the
  deal, rejected tens included (the bound that keeps the game finite; see
  :mod:`baccara.macao`).
"""

from __future__ import annotations

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
        return (f"{self.initial} card{'s' if self.initial > 1 else ''} each, {tot}, equal totals and cards: {tie}, "
                f"{card} 9 pays {self.natural9_pays}:1, {card} 8 pays {self.natural8_pays}:1, at most "
                f"{self.draws} draw{'s' if self.draws != 1 else ''} per hand"
                + (", tens may be rejected" if self.reject_tens else ""))

    def to_json(self) -> dict:
        """The rules as a JSON-ready dict.

        Returns
        -------
        dict
            Every field; payouts as exact strings.
        """
        return {"variant": self.name, "initial_cards": self.initial, "totals": self.totals, "ties": self.ties,
                "natural9_pays": str(self.natural9_pays), "natural8_pays": str(self.natural8_pays),
                "max_draws": self.draws, "reject_tens": self.reject_tens, "default_decks": self.decks}


#: Most draws per hand accepted (the game grows fast with it).
MAX_DRAWS = 4

#: The variants by name.
VARIANTS: dict[str, MacaoRules] = {
    "macao": MacaoRules("macao"),
    "macao-early": MacaoRules("macao-early", totals="bust", ties="push"),
    "victoria": MacaoRules("victoria", initial=2, draws=1),
    "victoria-early": MacaoRules("victoria-early", initial=2, totals="bust", ties="push", draws=1),
}


def macao_rules(variant: str | MacaoRules = "macao", **changes: Any) -> MacaoRules:
    """A variant by name, with fields changed.

    Parameters
    ----------
    variant : str or MacaoRules
        One of :data:`VARIANTS` (``macao``, ``macao-early``, ``victoria``, ``victoria-early``), or rules.
    **changes
        Fields to change (``natural9_pays=2``, ``draws=3``, ...); None values are ignored.

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
    unknown = set(changes) - set(MacaoRules.__dataclass_fields__) - {"name"}
    if unknown:
        raise BaccaraError(f"unknown rule field(s): {', '.join(sorted(unknown))}")
    return replace(rules, **changes) if changes else rules
