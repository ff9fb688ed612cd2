"""Edge sorting: what a player gains who tells two classes of cards apart on the first cards of a coup.

Edge sorting (the technique the Phil Ivey cases made known; "Baccarat (card
game)", Wikipedia, 2019) turns the cards of some ranks one way and the rest the
other way, so that the backs of the next cards out of the shoe show which
class each belongs to.  With the ranks sorted into a class S and the rest, a
player who reads the class of the cards at positions 1..k of the coup (1:
Player's first card, 2: Banker's first, 3: Player's second, 4: Banker's
second) sees one of 2^k *patterns* before he bets.

For each pattern the exact engine gives its probability and every bet's EV
given it (:mod:`baccara.punto.known`).  The player's advantage is his expected gain
per coup when he bets one unit on the best bet whenever its EV is positive and
otherwise does not bet,

    A = sum over patterns g of P(g) max(0, max_b EV_b(g)),

also per bet placed (A / P(he bets)) and when he must bet Player or Banker
every coup (sum_g P(g) max(EV_player(g), EV_banker(g))).  Every number is an
exact rational.

Assumptions: the coup is dealt from the given shoe (the first coup of a fresh
shoe, or any depleted composition); every card is sorted and read without
error; the player sees nothing else.

E. Jacobson's figures for an 8-deck shoe sorted 6, 7, 8, 9 against the rest
("Edge Sorting in Baccarat", 2012) are reproduced by the tests: 6.765% per
coup when one card is read and Player or Banker is bet every coup, 20.928%
when four cards are read and the best of Banker, Player and Tie is bet when
positive.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations, product
from typing import Any

from rich.console import RenderableType
from rich.table import Table

from .. import params
from ..algebraic import fraction_str
from ..cards import RANK_VALUE
from ..errors import BaccaraError
from ..result import Result
from ..rules import PUNTO_BANCO, Tableau
from ..shoe import Shoe
from .bets import Bet, builtin_bets
from .exact import BetResult, CoupDistribution, applicable_bets, coup_counts, evaluate_bets
from .known import POSITION_NAMES, Known, parse_ranks, rank_names

#: Most positions a player can read before he bets (the first four cards of the coup).
MAX_CARDS = 4
#: Letters of the two classes in a pattern: S, the sorted ranks; O, the others.
SORTED, OTHER = "S", "O"
_ALL = frozenset(range(13))


@dataclass(frozen=True, eq=False)
class PatternResult:
    """One pattern of classes at positions 1..k: its probability and every bet's result given it.

    Attributes
    ----------
    pattern : str
        One letter per position: ``S`` (a sorted rank) or ``O`` (another).
    deals : int
        Ordered deals that show the pattern.
    results : dict or None
        Bet name -> :class:`~baccara.punto.exact.BetResult` given the pattern (None
        when no deal shows it).
    probability : Fraction
        The pattern's probability.
    """

    pattern: str
    deals: int
    results: dict[str, BetResult] | None
    probability: Fraction

    def best(self, among: Iterable[str]) -> tuple[str | None, Fraction]:
        """The bet with the highest EV among ``among`` if that EV is positive, else (None, 0).

        Parameters
        ----------
        among : iterable of str
            The bets the player may choose.

        Returns
        -------
        tuple
            The bet's name (None: no bet) and its EV.
        """
        if self.results is None:
            return None, Fraction(0)
        name = max(among, key=lambda n: self.results[n].ev)  # type: ignore[index]
        ev = self.results[name].ev
        return (name, ev) if ev > 0 else (None, Fraction(0))

    def player_or_banker(self) -> tuple[str | None, Fraction]:
        """Player or Banker, whichever has the higher EV (Banker on a tie), and that EV.

        Returns
        -------
        tuple
            ``("banker" | "player", ev)``, or (None, 0) for a pattern no deal shows.
        """
        if self.results is None:
            return None, Fraction(0)
        b, p = self.results["banker"].ev, self.results["player"].ev
        return ("banker", b) if b >= p else ("player", p)


def _classes(sorted_ranks: frozenset[int], cards: int, name: str) -> list[tuple[str, Known]]:
    """The 2^cards patterns and the condition each one is."""
    other = _ALL - sorted_ranks
    out = []
    for letters in product((SORTED, OTHER), repeat=cards):
        ranks = tuple(sorted_ranks if c == SORTED else other for c in letters) + (None,) * (6 - cards)
        out.append(("".join(letters), Known(ranks, name)))
    return out


def _patterns(shoe: Shoe, tableau: Tableau, bets: tuple[Bet, ...], sorted_ranks: frozenset[int],
              cards: int, name: str) -> list[PatternResult]:
    total = shoe.deals()
    out = []
    for letters, known in _classes(sorted_ranks, cards, name):
        counts = coup_counts(shoe, tableau, known)
        deals = int(counts.sum())
        results = evaluate_bets(CoupDistribution(shoe, counts, deals, tableau, known), bets) if deals else None
        out.append(PatternResult(letters, deals, results, Fraction(deals, total)))
    return out


def _check_sorting(shoe: Shoe, sorted_ranks: frozenset[int], name: str) -> None:
    if not sorted_ranks or sorted_ranks == _ALL:
        raise BaccaraError(f"{name} must name some ranks but not all 13 (A, 2-9, 10, J, Q, K): the two classes are "
                           "the ranks named and the rest")
    zero = frozenset(r for r in range(13) if RANK_VALUE[r] == 0)
    if shoe.resolution == "value" and sorted_ranks & zero and not zero <= sorted_ranks:
        raise BaccaraError(f"{name}: this shoe is known only by value, so it cannot tell "
                           f"{', '.join(rank_names(sorted_ranks & zero))} from {', '.join(rank_names(zero - sorted_ranks))}"
                           "; sort whole values (0 for 10, J, Q, K together) or give the shoe by rank")
    have = set(r for r in range(13) if (shoe.counts[RANK_VALUE[r]] if shoe.resolution == "value"
                                         else (shoe.rank_counts() or ())[r]) > 0)
    for label, cls in (("sorted", sorted_ranks), ("other", _ALL - sorted_ranks)):
        if not cls & have:
            raise BaccaraError(f"{name}: the shoe holds no card of the {label} class ({', '.join(rank_names(cls))}): "
                               "there is nothing to tell apart")


def _bets(shoe: Shoe, bets: Mapping[str, Bet] | None, among: Iterable[str] | None,
          among_name: str) -> tuple[dict[str, Bet], tuple[str, ...]]:
    chosen = applicable_bets(shoe, builtin_bets()) if bets is None else dict(bets)
    for need in ("banker", "player"):
        if need not in chosen:
            chosen[need] = builtin_bets()[need]
    names = tuple(chosen) if among is None else tuple(among)
    if not names:
        raise BaccaraError(f"{among_name} names no bet; bets are {', '.join(chosen)}")
    for n in names:
        if n not in chosen:
            raise BaccaraError(f"{among_name}: unknown bet {n!r}; bets are {', '.join(chosen)}")
    return chosen, names


def _priced(chosen: Mapping[str, Bet], considered: tuple[str, ...]) -> tuple[Bet, ...]:
    """The bets priced in each pattern: every bet on the cells (microseconds), and the bets on the cards
    themselves (the card-level engine, tenths of a second or more each) only if the player chooses among them."""
    return tuple(b for n, b in chosen.items() if not b.card_level or n in considered)


def _advantage(patterns: list[PatternResult], among: tuple[str, ...]) -> tuple[Fraction, Fraction, Fraction]:
    """(advantage per coup, probability of betting, advantage when Player or Banker is bet every coup)."""
    per_coup, placed, forced = Fraction(0), Fraction(0), Fraction(0)
    for g in patterns:
        name, ev = g.best(among)
        if name is not None:
            per_coup += g.probability * ev
            placed += g.probability
        forced += g.probability * g.player_or_banker()[1]
    return per_coup, placed, forced


def _num(key: str, x: Fraction | None) -> dict:
    """``{key: "num/den", key_float: float}`` (both None for None): exact, with a float beside."""
    return {key: None if x is None else fraction_str(x), f"{key}_float": None if x is None else float(x)}


def _pct(x: Fraction | None, digits: int = 4) -> str:
    return "-" if x is None else f"{float(x) * 100:.{digits}f}%"


@dataclass(frozen=True, eq=False, repr=False)
class EdgeSortAnalysis(Result):
    """Every pattern of an edge sorting, each bet's exact EV given it, and the player's advantage.

    Attributes
    ----------
    shoe : Shoe
        The shoe the coup is dealt from.
    tableau : Tableau
        The drawing rules.
    sorted_ranks : frozenset of int
        The ranks of class S (the others form class O).
    cards : int
        The positions read, 1..cards.
    among : tuple of str
        The bets the player chooses among.
    patterns : list of PatternResult
        The 2^cards patterns, in the order S before O, position 1 first.
    """

    shoe: Shoe
    tableau: Tableau
    sorted_ranks: frozenset[int]
    cards: int
    among: tuple[str, ...]
    patterns: list[PatternResult]

    @property
    def advantage(self) -> Fraction:
        """Expected gain per coup, betting the best bet whenever its EV is positive."""
        return _advantage(self.patterns, self.among)[0]

    @property
    def bet_frequency(self) -> Fraction:
        """Probability that some bet has a positive EV (that the player bets)."""
        return _advantage(self.patterns, self.among)[1]

    @property
    def per_bet(self) -> Fraction | None:
        """Expected gain per unit bet (None when no pattern favours a bet)."""
        per_coup, placed, _ = _advantage(self.patterns, self.among)
        return per_coup / placed if placed else None

    @property
    def player_or_banker(self) -> Fraction:
        """Expected gain per coup when Player or Banker, the better, is bet every coup."""
        return _advantage(self.patterns, self.among)[2]

    def to_json(self) -> dict:
        """The documented contract (the user guide, ``baccara edgesort --json``).

        Returns
        -------
        dict
            ``shoe``, ``tableau``, ``assumptions``, ``sorted``, ``other``,
            ``cards``, ``positions``, ``bets_considered``, ``patterns``,
            ``advantage``.
        """
        per_coup, placed, forced = _advantage(self.patterns, self.among)
        pats = []
        for g in self.patterns:
            best, ev = g.best(self.among)
            pb, pb_ev = g.player_or_banker()
            pats.append({
                "pattern": g.pattern,
                "classes": {str(i + 1): "sorted" if c == SORTED else "other" for i, c in enumerate(g.pattern)},
                "probability": fraction_str(g.probability),
                "probability_float": float(g.probability),
                "bets": None if g.results is None else {
                    n: {"ev": fraction_str(r.ev), "ev_float": float(r.ev)} for n, r in g.results.items()},
                "best": {"bet": best, "ev": fraction_str(ev), "ev_float": float(ev)},
                "player_or_banker": {"bet": pb, "ev": fraction_str(pb_ev), "ev_float": float(pb_ev)},
            })
        return {
            "shoe": self.shoe.describe(),
            "tableau": self.tableau.name,
            "assumptions": self.assumptions(),
            "sorted": rank_names(self.sorted_ranks),
            "other": rank_names(_ALL - self.sorted_ranks),
            "cards": self.cards,
            "positions": {str(p): POSITION_NAMES[p] for p in range(1, self.cards + 1)},
            "bets_considered": list(self.among),
            "patterns": pats,
            "advantage": {
                **_num("per_coup", per_coup),
                **_num("bet_frequency", placed),
                **_num("per_bet", per_coup / placed if placed else None),
                **_num("player_or_banker_per_coup", forced),
            },
        }

    def assumptions(self) -> list[str]:
        """The assumptions behind the figures, in words.

        Returns
        -------
        list of str
            One sentence each.
        """
        fresh = self.shoe.fresh_decks() is not None or self.shoe.replacement
        return [
            f"the coup is dealt from {self.shoe.label()}" + (" (the first coup of a fresh shoe)" if fresh and
                                                             not self.shoe.replacement else
                                                             " (cards dealt with replacement)" if fresh else
                                                             " (a depleted shoe: these cards are what is left)"),
            f"every card of {', '.join(rank_names(self.sorted_ranks))} is turned one way, every other card the "
            "other way, and the player reads without error the class of "
            + ", ".join(f"card {p} ({POSITION_NAMES[p]})" for p in range(1, self.cards + 1))
            + " before he bets; he sees nothing else",
            f"drawing rules: {self.tableau.name}",
            "the player bets one unit on the bet with the highest EV given the pattern when that EV is positive "
            f"(among {', '.join(self.among)}), and otherwise does not bet",
        ]

    def summary(self) -> str:
        """One line: the sorting, the shoe and the advantage.

        Returns
        -------
        str
            The line.
        """
        per_coup, placed, forced = _advantage(self.patterns, self.among)
        per_bet = f", {_pct(per_coup / placed)} per bet" if placed else ""
        return (f"Edge sorting {', '.join(rank_names(self.sorted_ranks))} | rest, {self.cards} card"
                f"{'s' if self.cards > 1 else ''} read, {self.shoe.label()}: advantage {_pct(per_coup)} per coup "
                f"(bets on {_pct(placed, 2)} of coups{per_bet}); Player or Banker every coup: {_pct(forced)}")

    def renderables(self) -> list[RenderableType]:
        """The summary, the assumptions, and a table of the patterns.

        Returns
        -------
        list
            Text lines and a Rich table.
        """
        doc = self.to_json()
        lines: list[RenderableType] = [self.summary()]
        lines += [f"- {a}" for a in doc["assumptions"]]
        names = next((list(g.results) for g in self.patterns if g.results), [])
        t = Table(title="EV of each bet given the pattern (S: " + ", ".join(doc["sorted"]) + "; O: the rest)")
        for col in ["pattern", "probability", "best bet", "best EV", *names]:
            t.add_column(col, justify="left" if col in ("pattern", "best bet") else "right", no_wrap=True)
        for g in self.patterns:
            evs = [_pct(g.results[n].ev, 3) if g.results else "-" for n in names]
            best, ev = g.best(self.among)
            t.add_row(g.pattern, f"{float(g.probability):.6f}", best or "(no bet)", _pct(ev, 3), *evs)
        lines.append(t)
        a = doc["advantage"]
        lines.append(f"advantage per coup = {a['per_coup']} = {a['per_coup_float'] * 100:.6f}%")
        lines.append(f"Player or Banker every coup = {a['player_or_banker_per_coup']} = "
                     f"{a['player_or_banker_per_coup_float'] * 100:.6f}%")
        return lines


def _cards(cards: Any, name: str) -> int:
    return params.integer(cards, name, lo=1, hi=MAX_CARDS)


def edge_sort(shoe: Shoe, sorted_ranks: str | Iterable[str | int], cards: Any = 1,
              bets: Mapping[str, Bet] | None = None, tableau: Tableau = PUNTO_BANCO,
              among: Iterable[str] | None = None, *, names: tuple[str, str, str] = ("sorted", "cards", "among"),
              ) -> EdgeSortAnalysis:
    """The exact edge sorting analysis of one two-class sorting.

    Parameters
    ----------
    shoe : Shoe
        The shoe the coup is dealt from (a fresh shoe: its first coup).
    sorted_ranks : str or iterable
        The ranks of one class (``"6,7,8,9"``; ``0`` stands for 10, J, Q, K);
        the other class is the rest.
    cards : int
        How many cards of the coup the player reads before he bets: positions
        1..cards, 1 to 4.
    bets : mapping of str to Bet, optional
        The bets priced (default: every built-in bet the shoe can price;
        Player and Banker are always added).
    tableau : Tableau
        The drawing rules.
    among : iterable of str, optional
        The bets the player may choose (default: all of ``bets``).
    names : tuple of str
        How ``sorted_ranks``, ``cards`` and ``among`` are named in error messages.

    Returns
    -------
    EdgeSortAnalysis
        Every pattern's probability and bets, and the advantage.
    """
    s_name, c_name, a_name = names
    k = _cards(cards, c_name)
    ranks = parse_ranks(sorted_ranks, s_name)
    _check_sorting(shoe, ranks, s_name)
    chosen, considered = _bets(shoe, bets, among, a_name)
    pats = _patterns(shoe, tableau, _priced(chosen, considered), ranks, k, s_name)
    return EdgeSortAnalysis(shoe, tableau, ranks, k, considered, pats)


def sortings(by: str) -> list[frozenset[int]]:
    """Every two-class sorting, once each: by value (511) or by rank (4095).

    A sorting and its complement are the same two classes; each is listed by
    the class without value 0 (by value) or without the king (by rank).

    Parameters
    ----------
    by : str
        ``"value"``: the classes are unions of values 0-9; ``"rank"``: of ranks A-K.

    Returns
    -------
    list of frozenset of int
        The ranks of the sorted class of each sorting.
    """
    if by == "value":
        units = [frozenset(r for r in range(13) if RANK_VALUE[r] == v) for v in range(1, 10)]
    else:
        units = [frozenset({r}) for r in range(12)]
    out = []
    for size in range(1, len(units) + 1):
        for combo in combinations(units, size):
            out.append(frozenset().union(*combo))
    return out


@dataclass(frozen=True, eq=False, repr=False)
class EdgeSortSearch(Result):
    """The best two-class sorting: every sorting's advantage, the best one analysed in full.

    Attributes
    ----------
    by : str
        ``"value"`` or ``"rank"``.
    ranking : list of tuple
        (sorted ranks, advantage per coup, Player-or-Banker advantage) for
        every sorting searched, best first.
    best : EdgeSortAnalysis
        The analysis of the best sorting.
    top : int
        How many sortings the report lists.
    """

    by: str
    ranking: list[tuple[frozenset[int], Fraction, Fraction]]
    best: EdgeSortAnalysis
    top: int = 10

    def to_json(self) -> dict:
        """``search`` (by, sortings searched, the top sortings) and ``best`` (:meth:`EdgeSortAnalysis.to_json`).

        Returns
        -------
        dict
            The document.
        """
        return {
            "search": {
                "by": self.by,
                "cards": self.best.cards,
                "sortings": len(self.ranking),
                "criterion": "advantage per coup, betting the best bet whenever its EV is positive",
                "top": [{"sorted": rank_names(s), **_num("advantage_per_coup", a), **_num("player_or_banker_per_coup", f)}
                        for s, a, f in self.ranking[: self.top]],
            },
            "best": self.best.to_json(),
        }

    def summary(self) -> str:
        """One line: how many sortings, and the best.

        Returns
        -------
        str
            The line.
        """
        s, a, _ = self.ranking[0]
        return (f"Best of {len(self.ranking)} two-class sortings by {self.by}, {self.best.cards} card"
                f"{'s' if self.best.cards > 1 else ''} read, {self.best.shoe.label()}: "
                f"{', '.join(rank_names(s))} | rest, advantage {_pct(a)} per coup")

    def renderables(self) -> list[RenderableType]:
        """The summary, the top sortings, then the best one in full.

        Returns
        -------
        list
            Text lines and Rich tables.
        """
        t = Table(title=f"The {min(self.top, len(self.ranking))} best sortings (of {len(self.ranking)})")
        for col in ("sorted class", "advantage per coup", "Player or Banker every coup"):
            t.add_column(col, justify="left" if col == "sorted class" else "right", no_wrap=True)
        for s, a, f in self.ranking[: self.top]:
            t.add_row(", ".join(rank_names(s)), _pct(a), _pct(f))
        return [self.summary(), t, *self.best.renderables()]


def best_sorting(shoe: Shoe, cards: Any = 1, by: str = "value", bets: Mapping[str, Bet] | None = None,
                 tableau: Tableau = PUNTO_BANCO, among: Iterable[str] | None = None, top: int = 10,
                 progress: Callable[[int, int], None] | None = None,
                 *, names: tuple[str, str, str] = ("by", "cards", "among")) -> EdgeSortSearch:
    """Search every two-class sorting for the largest advantage per coup.

    Parameters
    ----------
    shoe : Shoe
        The shoe the coup is dealt from.
    cards : int
        Positions read, 1..cards (1 to 4).
    by : str
        ``"value"`` (511 sortings of the values 0-9) or ``"rank"`` (4095 of the 13 ranks).
    bets : mapping of str to Bet, optional
        The bets priced (default: every built-in bet the shoe can price).
    tableau : Tableau
        The drawing rules.
    among : iterable of str, optional
        The bets the player may choose (default: all of ``bets``).
    top : int
        How many sortings the report lists.
    progress : callable, optional
        Called as ``progress(done, total)`` after each sorting.
    names : tuple of str
        How ``by``, ``cards`` and ``among`` are named in error messages.

    Returns
    -------
    EdgeSortSearch
        Every sorting's advantage, best first (ties: the earlier sorting), and the best analysed in full.
    """
    b_name, c_name, a_name = names
    k = _cards(cards, c_name)
    by = params.choice(by, b_name, ("value", "rank"), case="lower")
    if by == "rank" and shoe.resolution == "value":
        raise BaccaraError(f"{b_name} rank needs a shoe known by rank; this one is known only by value")
    chosen, considered = _bets(shoe, bets, among, a_name)
    on_cards = [n for n in considered if chosen[n].card_level]
    if on_cards:
        raise BaccaraError(
            f"{a_name}: {', '.join(on_cards)} read{'s' if len(on_cards) == 1 else ''} the cards themselves: the "
            f"card-level engine prices such a bet in tenths of a second to seconds given the cards read, and the "
            f"search would price it in each of 2^{k} patterns of {511 if by == 'value' else 4095} sortings; analyse "
            f"one sorting (--sorted), or leave the bet out of the search ({a_name} with the other bets)")
    bet_tuple = _priced(chosen, considered)
    have = set(r for r in range(13) if (shoe.counts[RANK_VALUE[r]] if shoe.resolution == "value"
                                         else (shoe.rank_counts() or ())[r]) > 0)
    candidates = [s for s in sortings(by) if s & have and (_ALL - s) & have]
    if not candidates:
        raise BaccaraError("the shoe holds cards of a single class under every sorting: there is nothing to sort")
    ranking: list[tuple[frozenset[int], Fraction, Fraction]] = []
    kept: dict[frozenset[int], list[PatternResult]] = {}
    best_a: Fraction | None = None
    for i, s in enumerate(candidates):
        pats = _patterns(shoe, tableau, bet_tuple, s, k, "sorting")
        a, _, f = _advantage(pats, considered)
        ranking.append((s, a, f))
        if best_a is None or a > best_a:
            best_a, kept = a, {s: pats}
        if progress is not None:
            progress(i + 1, len(candidates))
    order = sorted(range(len(ranking)), key=lambda j: -ranking[j][1])  # stable: ties keep the search order
    ranking = [ranking[j] for j in order]
    best_set = ranking[0][0]
    best = EdgeSortAnalysis(shoe, tableau, best_set, k, considered, kept[best_set])
    return EdgeSortSearch(by, ranking, best, top)
