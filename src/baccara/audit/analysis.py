"""The audit: each player's bets priced exactly, tested against "no information", and a verdict.

:func:`audit` reads (or takes) the two logs, prices every coup once (:mod:`.evs`), tests
every player (:mod:`.stats`), checks the shoes (:mod:`.integrity`) and returns an
:class:`AuditResult`: JSON for machines, tables for people, and the report's page
(:mod:`.html`).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from pathlib import Path

import numpy as np
from rich.console import RenderableType
from rich.table import Table

from .. import params
from ..algebraic import fraction_str
from ..errors import BaccaraError
from ..punto.bets import Bet, builtin_bets
from ..punto.known import parse_ranks, rank_names
from ..result import Result
from ..rules import PUNTO_BANCO, Tableau
from .evs import CoupTable, candidate_sortings, coup_table
from .integrity import DEFAULT_DRAWS, Integrity, shoe_integrity
from .logs import BetLog, BetRecord, HandLog, read_bets, read_hands
from .stats import DEFAULT_ALPHA, DEFAULT_PERMUTATIONS, Hypothesis, TestResult, test_player

#: Candidate sortings tested by default when the log records no first_class.
DEFAULT_CANDIDATES = 8
_ALL = frozenset(range(13))


@dataclass(frozen=True, eq=False)
class PlayerAudit:
    """One player's bets, prices, tests and verdict (the exact sums and the bets' rows made when first read).

    Attributes
    ----------
    player : str
        The name in the bet log.
    verdict : str
        ``none``, ``counting`` or ``edge sorting``.
    tests : list of TestResult
        Every hypothesis tested.
    table : CoupTable
        The coups' prices.
    records : list of BetRecord
        His bets, in the log's order.
    class_prices : numpy.ndarray or None
        (coups, bets): the prices given the first card's class under the edge-sorting hypothesis
        with the smallest p-value, when one was tested.
    class_key : str or None
        That hypothesis.
    """

    player: str
    verdict: str
    tests: list[TestResult]
    table: CoupTable
    records: list[BetRecord]
    class_prices: np.ndarray | None
    class_key: str | None

    def _cells(self) -> list[tuple[int, int]]:
        col = {b: j for j, b in enumerate(self.table.bets)}
        return [(self.table.index[(b.shoe, b.coup)], col[b.bet]) for b in self.records]

    @cached_property
    def _sums(self) -> tuple[Fraction, Fraction, Fraction, Fraction]:
        staked = expected = fresh = actual = Fraction(0)
        for b, (r, j) in zip(self.records, self._cells()):
            staked += b.amount
            expected += b.amount * self.table.ev_exact[r][j]
            fresh += b.amount * self.table.fresh[b.bet]
            actual += b.amount * self.table.payout_exact[r][j]
        return staked, expected, fresh, actual

    @property
    def staked(self) -> Fraction:
        """Money bet."""
        return self._sums[0]

    @property
    def expected(self) -> Fraction:
        """The expected result given the cards left, exactly."""
        return self._sums[1]

    @property
    def expected_fresh(self) -> Fraction:
        """The expected result with no information (each bet at a fresh shoe's EV), exactly."""
        return self._sums[2]

    @property
    def actual(self) -> Fraction:
        """The actual result, exactly."""
        return self._sums[3]

    @property
    def expected_class(self) -> float | None:
        """The expected result given the first card's class (:attr:`class_key`), or None."""
        if self.class_prices is None:
            return None
        return float(sum(float(b.amount) * self.class_prices[r, j] for b, (r, j) in zip(self.records, self._cells())))

    @cached_property
    def bets(self) -> list[dict]:
        """Every bet: shoe, coup, bet, amount, its exact EV given the cards left, its EV given the first card's
        class, the class logged, and what it paid."""
        rows = []
        for b, (r, j) in zip(self.records, self._cells()):
            ev = self.table.ev_exact[r][j]
            pay = self.table.payout_exact[r][j] * b.amount
            rows.append({"shoe": b.shoe, "coup": b.coup, "bet": b.bet, "amount": fraction_str(b.amount),
                         "ev": fraction_str(ev), "ev_float": float(ev),
                         "ev_first_class": None if self.class_prices is None else float(self.class_prices[r, j]),
                         "first_class": self.table.classes[r] or None, "result": fraction_str(pay),
                         "result_float": float(pay)})
        return rows

    def p_values(self) -> dict[str, float | None]:
        """Holm-adjusted p-values: counting, and the smallest of the edge-sorting hypotheses.

        Returns
        -------
        dict
            ``counting`` and ``edge_sorting`` (None when no sorting was tested).
        """
        edge = [t.adjusted for t in self.tests if t.kind == "edge sorting"]
        count = [t.adjusted for t in self.tests if t.kind == "counting"]
        return {"counting": count[0] if count else None, "edge_sorting": min(edge) if edge else None}

    def to_json(self, with_bets: bool = True) -> dict:
        """The player's document.

        Parameters
        ----------
        with_bets : bool
            Include every bet.

        Returns
        -------
        dict
            ``verdict``, ``p_values``, ``tests``, ``ev`` and ``bets``.
        """
        def num(x: Fraction) -> dict:
            return {"exact": fraction_str(x), "float": float(x)}

        doc = {
            "verdict": self.verdict,
            "p_values": self.p_values(),
            "tests": [{"hypothesis": t.key, "kind": t.kind, "label": t.label, "statistic": t.statistic,
                       "null_mean": t.null_mean, "p": t.p, "p_holm": t.adjusted, "rejected": t.rejected}
                      for t in self.tests],
            "ev": {
                "bets": len(self.bets),
                "staked": num(self.staked),
                "expected_given_cards_left": num(self.expected),
                "expected_no_information": num(self.expected_fresh),
                "expected_given_first_class": self.expected_class,
                "first_class_hypothesis": self.class_key,
                "actual": num(self.actual),
                "edge_given_cards_left": float(self.expected / self.staked) if self.staked else None,
            },
        }
        if with_bets:
            doc["bets"] = self.bets
        return doc


@dataclass(frozen=True, eq=False, repr=False)
class AuditResult(Result):
    """The audit of a hand log and a bet log.

    Attributes
    ----------
    hands : HandLog
        The hands.
    bet_log : BetLog
        The bets.
    table : CoupTable
        Every coup's prices.
    hypotheses : list of Hypothesis
        What was tested.
    players : dict
        Player -> :class:`PlayerAudit`.
    integrity : Integrity
        The shoes' checks.
    alpha : float
        The false-alarm rate.
    permutations : int
        Permutations per test.
    seed : int
        Their seed.
    candidates : list
        (sorted ranks, advantage per coup) of the candidate sortings tested.
    logged_sorting : frozenset or None
        The sorted class read from ``first_class`` (the ranks logged mostly as S).
    tableau : Tableau
        The drawing rules.
    seconds : float
        Time taken.
    """

    hands: HandLog
    bet_log: BetLog
    table: CoupTable
    hypotheses: list[Hypothesis]
    players: dict[str, PlayerAudit]
    integrity: Integrity
    alpha: float
    permutations: int
    seed: int
    candidates: list[tuple[frozenset[int], Fraction]]
    logged_sorting: frozenset[int] | None
    tableau: Tableau = PUNTO_BANCO
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

    def method(self) -> list[str]:
        """The method, in words a surveillance manager can follow.

        Returns
        -------
        list of str
            One paragraph each.
        """
        return method_text(self.alpha, self.permutations, len(self.hypotheses))

    def to_json(self) -> dict:
        """The documented contract (the user guide's audit page, ``baccara audit --json``).

        Returns
        -------
        dict
            ``hands``, ``bets``, ``decks``, ``tableau``, ``shoes``, ``coups``, ``alpha``,
            ``permutations``, ``seed``, ``hypotheses``, ``candidates``, ``logged_sorting``,
            ``players`` (player -> ``verdict``, ``p_values``, ``tests``, ``ev``, ``bets``),
            ``integrity``, ``method`` and ``notes``.
        """
        return {
            "hands": self.hands.source,
            "bets": self.bet_log.source,
            "decks": self.hands.decks,
            "tableau": self.tableau.name,
            "shoes": len(self.hands.shoes),
            "coups": self.table.rows,
            "alpha": self.alpha,
            "permutations": self.permutations,
            "seed": self.seed,
            "hypotheses": [{"key": h.key, "kind": h.kind, "label": h.label} for h in self.hypotheses],
            "candidates": [{"sorted": rank_names(s), "advantage_per_coup": fraction_str(a),
                            "advantage_per_coup_float": float(a)} for s, a in self.candidates],
            "logged_sorting": None if self.logged_sorting is None else rank_names(self.logged_sorting),
            "players": {p: a.to_json() for p, a in self.players.items()},
            "integrity": self.integrity.doc,
            "method": self.method(),
            "notes": self.notes,
            "seconds": self.seconds,
        }

    def summary(self) -> str:
        """One line: the logs, and how many players got each verdict.

        Returns
        -------
        str
            The line.
        """
        counts = {v: sum(1 for a in self.players.values() if a.verdict == v) for v in ("none", "counting",
                                                                                       "edge sorting")}
        return (f"Audit of {len(self.players)} player{'s' if len(self.players) != 1 else ''} over "
                f"{len(self.hands.shoes)} shoe{'s' if len(self.hands.shoes) != 1 else ''} ({self.table.rows} coups), "
                f"false-alarm rate {self.alpha:g}: " + ", ".join(f"{v}: {n}" for v, n in counts.items()))

    def renderables(self) -> list[RenderableType]:
        """The summary, the players' table, the hypotheses and the shoes' checks.

        Returns
        -------
        list
            Text and Rich tables.
        """
        out: list[RenderableType] = [self.summary()]
        t = Table(title="Players: exact EV of their bets, and the tests against no information")
        for col in ("player", "verdict", "bets", "staked", "expected (cards left)", "expected (no information)",
                    "expected (first card's class)", "actual", "p counting", "p edge sorting"):
            t.add_column(col, justify="left" if col in ("player", "verdict") else "right", no_wrap=True)
        for name, a in self.players.items():
            ps = a.p_values()
            t.add_row(name, a.verdict, str(len(a.bets)), f"{float(a.staked):,.2f}", f"{float(a.expected):+,.2f}",
                      f"{float(a.expected_fresh):+,.2f}",
                      "-" if a.expected_class is None else f"{a.expected_class:+,.2f}", f"{float(a.actual):+,.2f}",
                      _p(ps["counting"]), _p(ps["edge_sorting"]))
        out.append(t)
        h = Table(title="Hypotheses tested (Holm's correction over all of them, per player)")
        h.add_column("hypothesis", no_wrap=True)
        h.add_column("what it prices")
        for hy in self.hypotheses:
            h.add_row(hy.key, hy.label)
        out.append(h)
        out.append(integrity_line(self.integrity))
        out += self.notes
        return out


def _p(x: float | None) -> str:
    return "-" if x is None else f"{x:.4g}"


def integrity_line(integrity: Integrity) -> str:
    """The shoes' checks in one line.

    Parameters
    ----------
    integrity : Integrity
        The checks.

    Returns
    -------
    str
        The line.
    """
    doc = integrity.doc
    alarms = integrity.alarms
    head = (f"Shoe integrity: {len(doc['shoes'])} shoes, every coup of {doc['drawing_table']['coups']} follows the "
            f"{doc['drawing_table']['tableau']} tableau, no shoe holds more cards than its decks")
    return head + ("; ALARM: " + "; ".join(alarms) if alarms else "; no sign of a shuffle that is not random")


def method_text(alpha: float, permutations: int, hypotheses: int) -> list[str]:
    """The method in plain words.

    Parameters
    ----------
    alpha : float
        The false-alarm rate.
    permutations : int
        Permutations per test.
    hypotheses : int
        How many hypotheses each player is tested on.

    Returns
    -------
    list of str
        Paragraphs.
    """
    return [
        "Every bet is priced exactly: its expected value (EV) per unit is computed from the cards still in the shoe "
        "when it was placed (the shoe's decks less the burn's face-up card and every card of the earlier coups), by "
        "counting every possible deal of the next coup. This is what a player who tracked every card could know.",
        "When the log records the class of each coup's first card (the back of a sorted card), or for each sorting "
        "the edge-sort engine ranks worth making, the bet is priced again given that class: what a player reading "
        "the backs could know.",
        "The question is whether the player's money went where these prices were high. His statistic is the sum, "
        "over his bets, of the amount times the price. If he used no information, which coup of a shoe got which of "
        "his bets (and how much) was a matter of chance; so his bets are reassigned at random among the coups of "
        f"each shoe, {permutations:,} times, and the p-value is the share of reassignments that earn as much as he "
        "did. This holds whatever his betting pattern: flat, random, progressive.",
        "Counting is tested on the prices given the cards left; edge sorting on what the first card's class adds to "
        "them (a card counter does not score there). With "
        f"{hypotheses} hypotheses per player, Holm's correction keeps the chance of flagging a player who used no "
        f"information at most {alpha:g}. The verdict is 'edge sorting' when an edge-sorting hypothesis is "
        "rejected, else 'counting' when counting is, else 'none'.",
        "A verdict is evidence that the bets follow information, not proof of how it was obtained; the expected "
        "results beside the actual ones show what the information was worth.",
    ]


def _slips(table: CoupTable, records: list[BetRecord]) -> list[tuple[np.ndarray, np.ndarray]]:
    col = {b: j for j, b in enumerate(table.bets)}
    by_shoe: dict[int, np.ndarray] = {}
    rows_of: dict[int, np.ndarray] = {}
    for b in records:
        r = table.index[(b.shoe, b.coup)]
        s = int(table.shoe[r])
        if s not in by_shoe:
            rows_of[s] = np.flatnonzero(table.shoe == s)
            by_shoe[s] = np.zeros((len(rows_of[s]), len(table.bets)))
        by_shoe[s][r - rows_of[s][0], col[b.bet]] += float(b.amount)
    return [(rows_of[s], by_shoe[s]) for s in sorted(by_shoe)]


def _sets(values: Iterable[str | Iterable[str]] | None) -> list[frozenset[int]]:
    out = []
    for v in values or ():
        s = parse_ranks(v, "sorted")
        if s == _ALL:
            raise BaccaraError("sorted: a sorting names some ranks but not all 13")
        if s not in out:
            out.append(s)
    return out


def audit(hands: HandLog | str | Path, bets: BetLog | str | Path, *, decks: int = 8,
          bet_defs: Mapping[str, Bet] | None = None, tableau: Tableau = PUNTO_BANCO,
          sorted_sets: Iterable[str | Iterable[str]] | None = None, candidates: int | None = None,
          permutations: int = DEFAULT_PERMUTATIONS, alpha: float = DEFAULT_ALPHA, seed: int = 0,
          integrity_draws: int = DEFAULT_DRAWS) -> AuditResult:
    """Audit a night's logs: does each player's betting use the cards seen, or the backs of sorted cards?

    Parameters
    ----------
    hands : HandLog, str or Path
        The hand log (a file is read with :func:`~baccara.audit.logs.read_hands`).
    bets : BetLog, str or Path
        The bet log.
    decks : int
        Decks per shoe (when a file is read).
    bet_defs : mapping of str to Bet, optional
        The bets the house offers (default: the built-in bets).
    tableau : Tableau
        The drawing rules.
    sorted_sets : iterable, optional
        Sortings to test besides the candidates, each like ``"6,7,8,9"``.
    candidates : int, optional
        How many of the sortings the edge-sort engine ranks best to test (default 8, or 0
        when the log records ``first_class``, which is tested as logged).
    permutations : int
        Permutations per test.
    alpha : float
        The false-alarm rate, in (0, 1).
    seed : int
        Seed of the permutations.
    integrity_draws : int
        Random draws per shoe-integrity test.

    Returns
    -------
    AuditResult
        The audit.
    """
    t0 = time.perf_counter()
    permutations = params.integer(permutations, "permutations", lo=99, hi=10**6)
    alpha = float(params.rational(alpha, "alpha", lo=0, hi=1, lo_open=True, hi_open=True))
    seed = params.integer(seed, "seed", lo=0, hi=2**63 - 2)
    defs = dict(bet_defs) if bet_defs is not None else builtin_bets()
    hand_log = hands if isinstance(hands, HandLog) else read_hands(hands, decks, tableau)
    bet_log = bets if isinstance(bets, BetLog) else read_bets(bets, hand_log, defs)
    names = list(dict.fromkeys(b.bet for b in bet_log.bets))
    on_cards = [n for n in names if defs[n].card_level]
    table = coup_table(hand_log, defs, names, tableau,
                       card_shoes={b.shoe for b in bet_log.bets if defs[b.bet].card_level})
    chosen = tuple(defs[n] for n in names)
    extra = _sets(sorted_sets)
    n_cand = candidates if candidates is not None else (0 if hand_log.has_classes else DEFAULT_CANDIDATES)
    n_cand = params.integer(n_cand, "candidates", lo=0, hi=511)
    cands = list(candidate_sortings(hand_log.decks, chosen, tableau, n_cand)) if n_cand else []
    logged = None
    notes = []
    if on_cards:
        notes.append("bets on the cards themselves (" + ", ".join(on_cards) + ") are priced exactly given the cards "
                     "left, by the card-level engine, and tested for counting; the edge-sorting tests leave them out "
                     "(their price given the first card would cost the card engine once more per coup and rank)")
    if hand_log.has_classes:
        ranks_s = [0] * 13
        ranks_u = [0] * 13
        for shoe in hand_log.shoes:
            for c in shoe.coups:
                if c.first_class == "S":
                    ranks_s[c.cards[0] // 4] += 1
                elif c.first_class == "U":
                    ranks_u[c.cards[0] // 4] += 1
        logged = frozenset(r for r in range(13) if ranks_s[r] > ranks_u[r])
        mixed = [r for r in range(13) if ranks_s[r] and ranks_u[r]]
        if mixed:
            notes.append("first_class: ranks logged both S and U (" + ", ".join(rank_names(mixed)) + "); the sorted "
                         "class is taken as the ranks logged mostly S")
        if not logged or logged == _ALL:
            notes.append("first_class: every first card logged is of one class; the logged classes tell nothing "
                         "and are not tested")
            logged = None
    hyps = [Hypothesis("counting", "counting", "each bet's exact EV given the cards left (cards seen before it)",
                       table.ev)]
    sets = [s for s, _ in cands] + [s for s in extra if s not in [c for c, _ in cands]]
    wanted = len(sets) + (logged is not None)
    by_unit = 2 * wanted > 10  # every value's price once, or each class's price when few sortings are tested
    if by_unit:
        table = table.with_first_cards(defs, tableau)

    def prices(s: frozenset[int], recorded: bool = False) -> np.ndarray:
        got = table.class_ev(s, recorded) if by_unit else table.class_ev_direct(s, defs, tableau, recorded)
        return got - table.ev

    if logged is not None:
        hyps.append(Hypothesis("edge_sorting:logged", "edge sorting",
                               "what the first card's class, as logged (sorted: " + ", ".join(rank_names(logged))
                               + "), adds to the EV given the cards left", prices(logged, True)))
    for s in sets:
        key = "edge_sorting:" + ",".join(rank_names(s))
        hyps.append(Hypothesis(key, "edge sorting", f"what the first card's class under the sorting "
                               f"{', '.join(rank_names(s))} | rest adds to the EV given the cards left",
                               prices(s)))
    players: dict[str, PlayerAudit] = {}
    by_player: dict[str, list[BetRecord]] = {}
    for b in bet_log.bets:
        by_player.setdefault(b.player, []).append(b)
    shared: dict[int, np.ndarray] = {}  # each shoe's permutations, drawn once from the seed
    rng = np.random.default_rng([seed, 0x5EED])
    for player, records in by_player.items():
        verdict, tests = test_player(_slips(table, records), hyps, permutations, alpha, rng, shared)
        edge = [t for t in tests if t.kind == "edge sorting"]
        best = min(edge, key=lambda t: t.p) if edge else None
        class_prices = None
        if best is not None:
            hy = next(h for h in hyps if h.key == best.key)
            class_prices = hy.prices + table.ev
        players[player] = _player(table, records, player, verdict, tests, class_prices,
                                  None if best is None else best.key)
    integ = shoe_integrity(hand_log, tableau, integrity_draws, seed, alpha)
    return AuditResult(hand_log, bet_log, table, hyps, players, integ, alpha, permutations, seed, cands, logged,
                       tableau, time.perf_counter() - t0, notes)


def _player(table: CoupTable, records: list[BetRecord], player: str, verdict: str, tests: list[TestResult],
            class_prices: np.ndarray | None, class_key: str | None) -> PlayerAudit:
    return PlayerAudit(player, verdict, tests, table, records, class_prices, class_key)
