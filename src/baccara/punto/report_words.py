"""The math report's words: pay-table conditions and payouts as people say them, the drawing rules
as tables, and estimates printed without false precision.

A reviewer reads "Banker wins with a three-card 7, pays 40 to 1", not the bet file's
``banker_cards = 3, banker_total = 7, winner = banker``; and a simulated figure whose
standard error rounds to zero, or a zero printed with a minus sign, misleads.  The
functions here are pure (text in, text out) and shared by the report's terminal tables
(:mod:`.mathreport`) and its page (:mod:`.report_html`).
"""

from __future__ import annotations

import math
from fractions import Fraction

from ..rules import STOOD, Tableau
from .events import CARD_FIELDS, COLOUR_NAMES, FIELDS, HAND_COLOUR_NAMES, NONE_CODE, RANK_NAMES, SUIT_NAMES, WINNERS

_SIDES = ("player", "banker")
_NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def _or(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def _values(vals: tuple) -> list[int]:
    return [int(v) for v in vals]


def _hand(side: str, cond: dict[str, tuple]) -> str:
    """What a condition says of one hand: 'a three-card 7', 'a natural', 'a total of 8 or 9'; '' for nothing."""
    total = _values(cond[f"{side}_total"]) if f"{side}_total" in cond else None
    cards = _values(cond[f"{side}_cards"]) if f"{side}_cards" in cond else None
    natural = bool(cond[f"{side}_natural"][0]) if f"{side}_natural" in cond and len(cond[f"{side}_natural"]) == 1 \
        else None
    t = _or([str(v) for v in total]) if total else ""
    if natural:
        return f"a natural {t}".strip()
    if cards and len(cards) == 1:
        words = f"a {_NUMBER_WORDS[cards[0]]}-card {t}".strip() if t else f"{_NUMBER_WORDS[cards[0]]} cards"
    elif t:
        words = f"a total of {t}"
    else:
        words = ""
    if natural is False:
        words = f"{words} (no natural)".strip() if words else "no natural"
    return words


def _card_code(field: str, code: object) -> str:
    """One value of a card field's condition (stored as a code) as the bet file writes it."""
    kind, attr = CARD_FIELDS[field][0], CARD_FIELDS[field][2]
    if kind == "bool":
        return "yes" if code else "no"
    if kind == "total":
        return str(code)
    if kind == "hand_colour":
        return HAND_COLOUR_NAMES[int(code)]  # type: ignore[call-overload]
    c = int(code)  # type: ignore[call-overload]
    if c == NONE_CODE[attr]:
        return "none"
    names = {"rank": RANK_NAMES, "suit": SUIT_NAMES, "colour": COLOUR_NAMES}.get(attr)
    return names[c] if names else str(c)


def condition_words(when: tuple[tuple[str, tuple], ...]) -> str:
    """A bet's condition in plain words.

    Parameters
    ----------
    when : tuple of (field, allowed values)
        The condition, as :class:`~baccara.punto.bets.Rule` holds it.

    Returns
    -------
    str
        E.g. ``"Banker wins with a three-card 7"``, ``"Player's first two cards are a pair"``,
        ``"a tie, with a natural in either hand"``; ``"any coup"`` for no condition.
    """
    cond = dict(when)
    parts: list[str] = []
    used: set[str] = set()
    winners = [WINNERS[int(v)] for v in cond["winner"]] if "winner" in cond else None
    margin = _values(cond["margin"]) if "margin" in cond else None
    if winners is not None:
        used.add("winner")
        if winners == ["tie"]:
            parts.append("a tie")
        elif len(winners) == 1:
            hand = _hand(winners[0], cond)
            used |= {f"{winners[0]}_{f}" for f in ("total", "cards", "natural")}
            parts.append(f"{winners[0].capitalize()} wins" + (f" with {hand}" if hand else ""))
        else:
            parts.append("the coup ends in " + _or([f"a {w.capitalize()} win" if w != "tie" else "a tie"
                                                     for w in winners]))
    if margin is not None:
        used.add("margin")
        by = f"by {_or([str(v) for v in margin])} point{'s' if margin != [1] else ''}"
        if parts:
            parts[-1] += " " + by
        else:
            parts.append(f"won {by}")
    for side in _SIDES:
        if any(f"{side}_{f}" in cond and f"{side}_{f}" not in used for f in ("total", "cards", "natural")):
            hand = _hand(side, cond)
            used |= {f"{side}_{f}" for f in ("total", "cards", "natural")}
            if hand:
                parts.append(f"{side.capitalize()} has {hand}")
    for side in _SIDES:
        for kind, what in (("pair", "a pair (equal ranks)"), ("suited_pair", "a suited pair (equal rank and suit)")):
            f = f"{side}_{kind}"
            if f in cond and len(cond[f]) == 1:
                used.add(f)
                parts.append(f"{side.capitalize()}'s first two cards {'are' if cond[f][0] else 'are not'} {what}")
    if "any_pair" in cond and len(cond["any_pair"]) == 1:
        used.add("any_pair")
        parts.append("either hand's first two cards are a pair" if cond["any_pair"][0]
                     else "neither hand's first two cards are a pair")
    if "natural" in cond and len(cond["natural"]) == 1:
        used.add("natural")
        parts.append("with a natural in either hand" if cond["natural"][0] else "with no natural in either hand")
    if "total_cards" in cond:
        used.add("total_cards")
        parts.append(f"{_or([str(v) for v in _values(cond['total_cards'])])} cards dealt in all")
    for f, vals in when:  # anything not said above, in the field's own description
        if f not in used:
            if f in FIELDS:
                parts.append(f"{FIELDS[f][1]}: {_or([('yes' if v else 'no') if isinstance(v, bool) else str(v) for v in vals])}")
            else:
                parts.append(f"{CARD_FIELDS[f][1]}: {_or([_card_code(f, v) for v in vals])}")
    if not parts:
        return "any coup"
    text = ", ".join(parts)
    return text[0].upper() + text[1:]


def pays_words(pays: Fraction) -> str:
    """A net payout in words: ``"pays 40 to 1"``, ``"pays 19 to 20"``, ``"push (stake returned)"``, ``"loses"``.

    Parameters
    ----------
    pays : Fraction
        Net payout per unit staked.

    Returns
    -------
    str
        The words.
    """
    pays = Fraction(pays)
    if pays == -1:
        return "loses the stake"
    if pays == 0:
        return "push (the stake is returned)"
    if pays < 0:
        return f"returns {1 + pays} of the stake"
    return f"pays {pays.numerator} to {pays.denominator}"


def tableau_rows(tableau: Tableau) -> tuple[list[str], list[list[str]]]:
    """Banker's drawing rule as a table: his two-card total by Player's third card (or 'stood').

    Parameters
    ----------
    tableau : Tableau
        The drawing rules.

    Returns
    -------
    tuple
        The header (``Banker's total``, ``Player stood``, then Player's third card 0-9) and one row per
        Banker total 0-7 of ``D`` (draws) and ``S`` (stands).
    """
    head = ["Banker's total", "Player stood"] + [str(k) for k in range(10)]
    rows = []
    for t in range(8):
        rows.append([str(t)] + ["D" if tableau.banker_draws[t][k] else "S" for k in (STOOD, *range(10))])
    return head, rows


def player_rule_words(tableau: Tableau) -> str:
    """Player's drawing rule in words, e.g. ``"Player draws on 0-5 and stands on 6-7"``.

    Parameters
    ----------
    tableau : Tableau
        The drawing rules.

    Returns
    -------
    str
        The sentence.
    """
    draws = [t for t in range(8) if tableau.player_draws[t]]
    stands = [t for t in range(8) if not tableau.player_draws[t]]
    return (f"Player draws a third card on a two-card total of {ranges(draws) or 'none'} and stands on "
            f"{ranges(stands) or 'none'}")


def ranges(values: list[int]) -> str:
    """Integers as runs: ``[0, 1, 2, 5]`` -> ``"0-2, 5"``.

    Parameters
    ----------
    values : list of int
        Sorted integers.

    Returns
    -------
    str
        The runs ('' for none).
    """
    out: list[str] = []
    i = 0
    while i < len(values):
        j = i
        while j + 1 < len(values) and values[j + 1] == values[j] + 1:
            j += 1
        out.append(str(values[i]) if i == j else f"{values[i]}-{values[j]}")
        i = j + 1
    return ", ".join(out)


def signed(x: float, digits: int) -> str:
    """``x`` with a sign and ``digits`` decimals, but a zero (or what rounds to it) as ``0`` with no sign.

    Parameters
    ----------
    x : float
        The number.
    digits : int
        Decimals.

    Returns
    -------
    str
        E.g. ``"+1.25"``, ``"-0.03"``, ``"0"``: never ``"-0.00"`` or ``"+0.00"``.
    """
    s = f"{x:+.{digits}f}"
    return "0" if float(s) == 0 else s


def plain(x: float, digits: int) -> str:
    """``x`` with ``digits`` decimals and no negative zero.

    Parameters
    ----------
    x : float
        The number.
    digits : int
        Decimals.

    Returns
    -------
    str
        The number (``"0.000"``, never ``"-0.000"``).
    """
    s = f"{x:.{digits}f}"
    return s[1:] if s.startswith("-") and float(s) == 0 else s


def estimate(value: float | None, se: float | None, *, scale: float = 1.0, sign: bool = True,
             unit: str = "") -> str:
    """A simulated figure and its standard error, rounded to what the error allows.

    The error is shown with two significant digits and the value to the same decimal place,
    so neither prints as ``0.0000`` when it is not; a value that rounds to zero is ``0``
    (no sign); an exact zero with no spread (nothing happened) is ``0 (none)``.

    Parameters
    ----------
    value, se : float or None
        The estimate and its standard error (None or NaN: not available).
    scale : float
        Multiply both (100 for percentages).
    sign : bool
        Show a sign on non-zero values.
    unit : str
        Appended to both numbers (``"%"``).

    Returns
    -------
    str
        E.g. ``"+1.23 ± 0.45"``; ``"-"`` when there is no value.
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    v = value * scale
    if se is None or (isinstance(se, float) and math.isnan(se)):
        digits = 4
        return (signed(v, digits) if sign else plain(v, digits)) + unit
    s = abs(se * scale)
    if s == 0:
        if v == 0:
            return "0 (none)"
        return (signed(v, 6) if sign else plain(v, 6)) + unit + " (no spread)"
    digits = min(10, max(0, 1 - math.floor(math.log10(s))))
    shown = signed(v, digits) if sign else plain(v, digits)
    return f"{shown}{unit} ± {s:.{digits}f}{unit}"


def one_in(p: Fraction | float) -> str:
    """A probability as odds "1 in N" (N to three significant figures, or whole above 1,000).

    Parameters
    ----------
    p : Fraction or float
        The probability.

    Returns
    -------
    str
        E.g. ``"1 in 44.4"``, ``"1 in 1,286"``; ``"never"`` for 0, ``"always"`` for 1.
    """
    p = float(p)
    if p <= 0:
        return "never"
    if p >= 1:
        return "always"
    n = 1 / p
    return f"1 in {n:,.0f}" if n >= 1000 else f"1 in {n:.3g}"


__all__ = ["condition_words", "estimate", "one_in", "pays_words", "plain", "player_rule_words", "ranges",
           "signed", "tableau_rows"]
