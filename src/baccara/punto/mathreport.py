"""The math report of one bet: every figure a game designer hands a regulator, in one result.

A side bet is priced with a *math report*: its pay table line by line, the
house edge and spread, the house's result over many hands, and whether it can
be beaten (Jacobson's and the Wizard of Odds' analyses of Dragon 7, Panda 8 and
the pairs are such reports, written by hand).  :func:`math_report` assembles
one from the engines that compute each piece, and re-implements none of them:

* the pay table and the exact moments: :func:`~baccara.punto.exact.evaluate_bets`
  (each line counted by an indicator bet on the same coup distribution);
* effects of removal: :func:`~baccara.punto.exact.effects_of_removal`;
* the first card known: :func:`~baccara.punto.exact.coup_distribution` given
  :class:`~baccara.punto.known.Known`;
* edge sorting: :func:`~baccara.punto.edgesort.best_sorting`;
* the best linear count: :func:`~baccara.sim.count_design.design_count` and
  :func:`~baccara.sim.count_analysis.analyse_count`; the perfect counter and the
  cut card's effect: :func:`~baccara.sim.count_analysis.perfect_sums` (the exact
  expectation of every coup of simulated shoes, compiled on threads for bets on card values).

Exact figures are fractions; simulated ones carry their standard errors (shoes
as clusters) and the seed.  :mod:`baccara.punto.report_html` turns the result
into a self-contained HTML page or a PDF.
"""

from __future__ import annotations

import math
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any

import numpy as np
from rich.table import Table

from ..algebraic import fraction_str
from ..cards import RANKS
from ..errors import BaccaraError, ParameterError
from ..processes import default_workers
from ..result import Result
from ..rules import PUNTO_BANCO, Tableau
from ..shoe import Shoe
from ..sim.count_analysis import CountJob, analyse_count, perfect_on_gpu, perfect_sums
from ..sim.count_design import design_count
from ..sim.punto import DEFAULT_COUPS, MAX_BETS, PuntoJob, simulate_punto
from .bets import Bet, Rule, builtin_bets, house_bets
from .edgesort import best_sorting
from .events import describe_condition
from .exact import BetResult, applicable_bets, coerce_bet, coup_distribution, effects_of_removal, evaluate_bets
from .known import Known, rank_names
from .report import bet_json
from .report_words import condition_words, estimate, one_in, pays_words, plain, player_rule_words, signed

#: Hands after which the house's result is reported.
HANDS = (10**3, 10**4, 10**5, 10**6)
#: z of the two-sided 95% interval of the house's result (normal approximation).
Z95 = 1.959963984540054
#: z of the volatility index (the slot-math convention: a 90% two-sided interval, VI = 1.645 x SD).
Z_VI = 1.6448536269514722
#: Shoes on which the count's trigger is chosen (:func:`~baccara.sim.count_design.design_count`).
DESIGN_SHOES = 20_000
#: Shoes on which the chosen count is measured, at each penetration.
COUNT_SHOES = 100_000
#: Shoes played by the perfect counter at each penetration: bets on card values, and on ranks (pairs).
PERFECT_SHOES = 4_000
PERFECT_SHOES_RANK = 300
#: Cards behind the cut card: half a deck and less (14, the published count analyses') and one deck.
CUTS = (14, 52)
#: Tags from -LEVEL to LEVEL in the designed count.
LEVEL = 2
#: Cards read in the edge-sorting sections.
SORT_CARDS = (1, 4)
#: Shoes compared side by side: fresh decks, and None for a continuous shuffler (an infinite deck).
DECKS_COMPARED: tuple[int | None, ...] = (1, 2, 4, 6, 8, None)
#: Hands dealt to check the exact figures by simulation (every coup from the full shoe).
CHECK_HANDS = 100_000_000
#: Fewest bets from which a count's (or the perfect counter's) figures are given: below it the
#: count is said to have found nothing, not shown as a result.
MIN_BETS = 30
#: Tail mass the exact house-result distribution may leave outside its window (Hoeffding's bound).
HOUSE_TAIL = 1e-18
#: Most lattice points of that distribution (beyond: the normal approximation, with a note).
HOUSE_MAX_POINTS = 1 << 23


def _num(x: Fraction) -> dict:
    return {"exact": fraction_str(x), "float": float(x)}


def _pct(x: float | Fraction | None, digits: int = 4, sign: str = "") -> str:
    return "-" if x is None else f"{float(x) * 100:{sign}.{digits}f}%"


def _normal_cdf(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2))


@dataclass(frozen=True)
class PayLine:
    """One line of a pay table: when it pays, what, in how many ordered deals, and its share of the return.

    Attributes
    ----------
    when : str
        The condition (the first rule of the bet that holds; ``otherwise`` for the rest).
    pays : Fraction
        Net payout per unit staked (-1: the stake lost; 0: a push).
    combinations : int
        Ordered deals of the shoe's cards in which the line pays.
    deals : int
        All ordered deals (the denominator).
    words : str
        The condition in plain words (:func:`~baccara.punto.report_words.condition_words`).
    """

    when: str
    pays: Fraction
    combinations: int
    deals: int
    words: str = ""

    @property
    def probability(self) -> Fraction:
        """The line's probability."""
        return Fraction(self.combinations, self.deals)

    @property
    def contribution(self) -> Fraction:
        """Its contribution to the bet's expected value: pays x probability."""
        return self.pays * self.probability

    def to_json(self) -> dict:
        return {"when": self.when, "words": self.words, "pays_words": pays_words(self.pays),
                "pays": fraction_str(self.pays), "combinations": str(self.combinations),
                "one_in": None if not self.combinations else float(Fraction(self.deals, self.combinations)),
                "probability": fraction_str(self.probability), "probability_float": float(self.probability),
                "contribution": fraction_str(self.contribution), "contribution_float": float(self.contribution)}


def line_bets(bet: Bet) -> list[Bet]:
    """One indicator bet per line of ``bet``'s pay table: it pays 1 on the coups the line takes, else 0.

    Line i takes the coups where rule i holds and no earlier rule does; the last line,
    ``otherwise``, the coups no rule takes.

    Parameters
    ----------
    bet : Bet
        The bet.

    Returns
    -------
    list of Bet
        ``line0``, ``line1``, ... and the ``otherwise`` line last.
    """
    out = []
    for i, rule in enumerate(bet.rules):
        rules = tuple(Rule(r.when, Fraction(0)) for r in bet.rules[:i]) + (Rule(rule.when, Fraction(1)),)
        out.append(Bet(f"line{i}", rules, otherwise=Fraction(0)))
    out.append(Bet(f"line{len(bet.rules)}", tuple(Rule(r.when, Fraction(0)) for r in bet.rules),
                   otherwise=Fraction(1)))
    return out


def pay_table(dist: Any, bet: Bet) -> list[PayLine]:
    """The bet's pay table, one line per rule (the first that holds pays) and one for ``otherwise``.

    Each line is counted exactly by an indicator bet (:func:`line_bets`) evaluated on the same
    coup distribution.

    Parameters
    ----------
    dist : CoupDistribution
        The coup's distribution (:func:`~baccara.punto.exact.coup_distribution`).
    bet : Bet
        The bet.

    Returns
    -------
    list of PayLine
        The lines; their probabilities add up to 1 and their contributions to the bet's EV.
    """
    indicators = line_bets(bet)
    results = evaluate_bets(dist, indicators)
    deals = int(dist.deals)
    lines = []
    whens = [(describe_condition(r.when), condition_words(r.when), r.pays) for r in bet.rules]
    whens.append(("otherwise", "any other coup", bet.otherwise))
    for ind, (when, words, pays) in zip(indicators, whens):
        r = results[ind.name]
        n = sum(c for p, c in zip(r.payouts, r.counts) if p == 1)
        lines.append(PayLine(when, pays, n, deals, words))
    return lines


@dataclass(frozen=True)
class Moments:
    """The exact figures of one bet on one shoe.

    Attributes
    ----------
    result : BetResult
        The bet's outcome distribution (:func:`~baccara.punto.exact.evaluate_bets`).
    """

    result: BetResult

    @property
    def edge(self) -> Fraction:
        """House edge per unit staked."""
        return self.result.edge

    @property
    def hit_frequency(self) -> Fraction:
        """Probability that the bet wins (pays more than the stake back)."""
        return self.result.p_win

    @property
    def variance(self) -> Fraction:
        """Variance of one unit bet's result."""
        return self.result.variance

    @property
    def sd(self) -> float:
        """Standard deviation of one unit bet's result."""
        return math.sqrt(self.variance)

    @property
    def volatility_index(self) -> float:
        """Z_VI x SD (90% two-sided, the slot-math convention)."""
        return Z_VI * self.sd

    @property
    def element_of_risk(self) -> Fraction | None:
        """House edge per unit of resolved bets (pushes excluded); None when the bet never pushes."""
        push = self.result.p_push
        return self.edge / (1 - push) if push else None

    def house_result(self, hands: int) -> dict:
        """The house's result after ``hands`` unit bets, from the exact distribution of their sum.

        The hands are independent, each with this shoe's exact outcome distribution (a
        continuous shuffler, or a fresh shoe each hand); :func:`sum_distribution` convolves it
        ``hands`` times.  The normal approximation is given beside it for comparison.

        Parameters
        ----------
        hands : int
            Unit bets.

        Returns
        -------
        dict
            ``hands``, ``mean`` (exact and float), ``sd``, ``low`` and ``high`` (units: the 2.5% and
            97.5% points of the house's result), the same as percentages of the money bet,
            ``p_house_ahead``, ``p_even`` and ``p_player_ahead`` (each summed on its own, so a
            chance near 1 is known through the other two), ``method`` (``"exact"`` or, for a
            distribution too wide to hold, ``"normal"``), and ``normal``: the normal
            approximation's interval and chance of the house being ahead.
        """
        mean = hands * self.edge
        sd = math.sqrt(hands * self.variance)
        lo_n, hi_n = float(mean) - Z95 * sd, float(mean) + Z95 * sd
        normal = {"low": lo_n, "high": hi_n,
                  "p_house_ahead": _normal_cdf(float(mean) / sd) if sd > 0 else float(mean > 0)}
        dist = sum_distribution(self.result.probabilities, hands)
        if dist is None:
            method, lo, hi = "normal", lo_n, hi_n
            ahead, even = normal["p_house_ahead"], 0.0
            behind = 1.0 - ahead
        else:
            method = "exact"
            house, p = -dist[0][::-1], dist[1][::-1]  # the house's result, ascending
            cdf = np.cumsum(p)
            lo = float(house[min(int(np.searchsorted(cdf, 0.025)), len(house) - 1)])
            hi = float(house[min(int(np.searchsorted(cdf, 0.975)), len(house) - 1)])
            ahead = float(math.fsum(p[house > 0]))
            even = float(math.fsum(p[house == 0]))
            behind = float(math.fsum(p[house < 0]))
        return {"hands": hands, "mean": _num(mean), "sd": sd, "low": lo + 0.0, "high": hi + 0.0,
                "low_percent": 100 * lo / hands + 0.0, "high_percent": 100 * hi / hands + 0.0,
                "p_house_ahead": ahead, "p_even": even, "p_player_ahead": behind,
                "method": method, "normal": normal}

    def to_json(self) -> dict:
        r = self.result
        out = {"edge": _num(self.edge), "edge_percent": float(self.edge) * 100, "ev": _num(r.ev),
               "hit_frequency": _num(self.hit_frequency), "p_win": _num(r.p_win), "p_push": _num(r.p_push),
               "p_loss": _num(r.p_loss), "variance": _num(self.variance), "sd": self.sd,
               "volatility_index": self.volatility_index, "volatility_index_z": Z_VI,
               "element_of_risk": None if self.element_of_risk is None else _num(self.element_of_risk)}
        return out


def sum_distribution(probabilities: dict, hands: int, tail: float = HOUSE_TAIL,
                     max_points: int = HOUSE_MAX_POINTS) -> tuple[np.ndarray, np.ndarray] | None:
    """The distribution of a bettor's net result over ``hands`` independent unit bets.

    The payouts are rationals, so every sum lies on a lattice: scaled by the common
    denominator, shifted to start at 0 and divided by their greatest common divisor, one
    hand's result is an integer from 0 to R.  The sum's distribution is the ``hands``-fold
    convolution of that one, computed as the ``hands``-th power of its discrete Fourier
    transform.  When the full support (``hands`` x R + 1 points) is longer than needed, the
    transform is taken on a window around the mean wide enough that Hoeffding's inequality
    leaves less than ``tail`` of the probability outside it (what falls outside wraps round,
    so the figures are exact to float precision, about 1e-12).

    Parameters
    ----------
    probabilities : dict
        Net payout (Fraction) -> probability (Fraction) of one hand.
    hands : int
        Hands, at least 1.
    tail : float
        Probability the window may leave out.
    max_points : int
        Most points of the transform; a wider distribution returns None.

    Returns
    -------
    tuple of ndarray, or None
        The bettor's net results (floats, in units, ascending) and their probabilities; None
        when the distribution needs more than ``max_points`` points.
    """
    pays = sorted(Fraction(x) for x in probabilities)
    den = math.lcm(*(x.denominator for x in pays))
    scaled = [int(x * den) for x in pays]
    low = scaled[0]
    steps = [x - low for x in scaled]
    g = math.gcd(*steps) or 1
    steps = [x // g for x in steps]
    top = steps[-1]
    p = np.array([float(probabilities[x]) for x in pays])
    full = hands * top + 1
    half = top * math.sqrt(hands * math.log(2 / tail) / 2)
    if full <= 2 * half + top + 2:
        size, start = full, 0
    else:
        size = int(2 * half) + top + 2
        mean = hands * float(np.dot(p, steps))
        start = int(math.floor(mean - size / 2))
    if size > max_points:
        return None
    one = np.zeros(size)
    np.add.at(one, np.array(steps) % size, p)
    pmf = np.fft.irfft(np.fft.rfft(one) ** hands, n=size)
    x = np.arange(start, start + size)
    prob = np.clip(pmf[x % size], 0.0, None)
    net = (x * g + hands * low) / den
    return net.astype(float), prob


@dataclass(frozen=True)
class KnownCard:
    """The bet when the first card of the coup (Player's first) is known.

    Attributes
    ----------
    card : str
        The rank (``0``: any of 10, J, Q, K on a shoe known by value).
    probability : Fraction
        Its chance.
    ev : Fraction
        The bet's expected value given it.
    """

    card: str
    probability: Fraction
    ev: Fraction

    def to_json(self) -> dict:
        return {"card": self.card, "probability": _num(self.probability), "ev": _num(self.ev),
                "bet": self.ev > 0}


def first_card_known(shoe: Shoe, bet: Bet, tableau: Tableau = PUNTO_BANCO) -> list[KnownCard]:
    """The bet's exact expectation for each first card (position 1, Player's first card).

    Parameters
    ----------
    shoe : Shoe
        The shoe.
    bet : Bet
        The bet.
    tableau : Tableau
        The drawing rules.

    Returns
    -------
    list of KnownCard
        One per rank present (per value, ``0`` for ten-valued cards, on a shoe known by value).
    """
    total = coup_distribution(shoe, tableau).deals
    if shoe.resolution == "value":
        names = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "0"]
        present = [shoe.value_counts()[(i + 1) % 10] > 0 for i in range(10)]
    else:
        names = list(RANKS)
        present = [c > 0 for c in shoe.rank_counts() or ()]
    out = []
    for name, here in zip(names, present):
        if not here:
            continue
        dist = coup_distribution(shoe, tableau, Known.of({1: name}))
        ev = evaluate_bets(dist, (bet,))[bet.name].ev
        out.append(KnownCard(name, Fraction(dist.deals, total), ev))
    return out


@dataclass
class Penetration:
    """The count and the perfect counter on shoes cut ``cut`` cards from the end.

    Attributes
    ----------
    cut : int
        Cards behind the cut card.
    penetration : float
        Share of the shoe dealt before the cut card.
    count : CountReport or None
        The designed count's report (:func:`~baccara.sim.count_analysis.analyse_count`).
    perfect : dict
        The perfect counter: shoes, hands, bets, and its expected win per 100 hands and per
        shoe and its edge when betting (from the exact expectations of the bets it placed),
        with standard errors.
    cut_effect : dict
        The mean exact expectation of a flat bet over every coup dealt, less the full shoe's,
        with its standard error.
    count_status : str
        Why the count has no figures here (it never bet, or too rarely); '' when it has.
    """

    cut: int
    penetration: float
    count: Any
    perfect: dict
    cut_effect: dict
    count_status: str = ""

    @property
    def count_measured(self) -> bool:
        """Did the designed count bet often enough (:data:`MIN_BETS`) for its figures to mean something?"""
        return self.count is not None and self.count.count.placed >= MIN_BETS

    @property
    def perfect_measured(self) -> bool:
        """Did the perfect counter bet often enough (:data:`MIN_BETS`) for its figures to mean something?"""
        return bool(self.perfect) and self.perfect["bets"] >= MIN_BETS

    def count_json(self) -> dict | None:
        """The designed count's figures at this cut.

        Returns
        -------
        dict or None
            None where no count was designed; ``measured`` false, the figures None and a
            ``status`` saying why when it bet fewer than :data:`MIN_BETS` times (or never).
        """
        if self.count is None:
            return {"bets": 0, "measured": False, "status": self.count_status} if self.count_status else None
        doc = _count_json(self.count)
        doc["measured"] = self.count_measured
        doc["status"] = self.count_status
        if not self.count_measured:
            for k in ("bet_frequency", "edge_when_betting", "win_per_100_hands", "win_per_shoe", "sd_per_hand"):
                doc[k] = None
        return doc

    def to_json(self) -> dict:
        perfect = dict(self.perfect)
        if perfect:
            perfect["measured"] = self.perfect_measured
            if not self.perfect_measured:
                for k in ("bet_frequency", "edge_when_betting", "win_per_100_hands", "win_per_shoe"):
                    perfect[k] = None
        return {"cut": self.cut, "penetration": self.penetration, "count": self.count_json(),
                "perfect": perfect, "cut_card_effect": self.cut_effect}


def _nn(x: float | None) -> float | None:
    """None for a missing or NaN figure; -0.0 becomes 0.0."""
    return None if x is None or math.isnan(x) else x + 0.0


def _count_json(report: Any) -> dict:
    c = report.count

    def est(e: Any) -> dict:
        return {"value": _nn(e.value), "stderr": _nn(e.stderr)}

    return {"shoes": c.shoes, "hands": c.hands, "bets": c.placed, "bet_frequency": est(c.bet_frequency),
            "edge_when_betting": est(c.edge_when_betting), "win_per_100_hands": est(c.win_per_100),
            "win_per_shoe": est(c.win_per_shoe), "sd_per_hand": _nn(c.sd_per_hand), "seed": report.count_job.seed}


def _cluster_ratio(y: list[float], x: list[float]) -> tuple[float, float]:
    """sum(y) / sum(x) and its standard error, the pairs (y_i, x_i) independent (shoes as clusters)."""
    Y, X, n = math.fsum(y), math.fsum(x), len(x)
    if X == 0:
        return math.nan, math.nan
    r = Y / X
    if n < 2:
        return r, math.nan
    resid = math.fsum((yi - r * xi) ** 2 for yi, xi in zip(y, x))
    return r, math.sqrt(resid * n / (n - 1)) / X


def perfect_and_cut(bet: Bet, decks: int, cut: int, shoes: int, seed: int, exact_ev: Fraction,
                    tableau: Tableau = PUNTO_BANCO, workers: int | None = None,
                    backend: str = "threads") -> tuple[dict, dict]:
    """The perfect counter and the cut card's effect, from the exact expectation of every coup of ``shoes`` shoes.

    Each shoe is dealt to the cut card by :func:`~baccara.sim.count_analysis.perfect_sums`, which
    prices the bet on every coup's unseen cards exactly (compiled, on ``workers`` threads or, with
    ``backend="gpu"``, on the GPU, for bets on card values: the same figures; shoe by shoe in Python for pair
    bets).  The perfect counter bets when that
    expectation is positive; its expected win is the sum of the expectations of its bets.  A
    flat bettor's expected result per hand over real shoes is the mean expectation of all
    coups; less the full shoe's, it is the cut card's effect.

    Parameters
    ----------
    bet : Bet
        The bet.
    decks : int
        Decks in the shoe.
    cut : int
        Cards behind the cut card.
    shoes : int
        Shoes dealt (the first of the seed's).
    seed : int
        The seed (shoe i is the count analysis's shoe i for the same seed).
    exact_ev : Fraction
        The bet's EV on the full shoe.
    tableau : Tableau
        The drawing rules.
    workers : int, optional
        Threads (default: all cores).
    backend : str
        ``threads``, or ``gpu``: bets on card values priced on the GPU (:func:`perfect_on_gpu`), the others on
        the threads.

    Returns
    -------
    tuple of dict
        The perfect counter's figures and the cut card's effect, with standard errors.
    """
    job = CountJob(seed, shoes, decks, bet, None, cut, tableau, chunk_size=8)
    if backend == "gpu" and perfect_on_gpu(job):
        sums = perfect_sums(job, 0, shoes, every_coup=True, gpu=True)
    else:
        with ThreadPoolExecutor(workers or default_workers()) as pool:
            sums = perfect_sums(job, 0, shoes, pool, every_coup=True)
    assert sums.ev_all is not None
    hands = sums.table[:, 0].astype(float).tolist()
    placed = sums.table[:, 1].astype(float).tolist()
    ev_all, ev_placed = sums.ev_all.tolist(), sums.ev_placed.tolist()
    H = math.fsum(hands)
    win, win_se = _cluster_ratio(ev_placed, hands)
    freq, freq_se = _cluster_ratio(placed, hands)
    when, when_se = _cluster_ratio(ev_placed, placed) if math.fsum(placed) else (math.nan, math.nan)
    per_shoe = math.fsum(ev_placed) / shoes
    sd_shoe = (math.sqrt(math.fsum((e - per_shoe) ** 2 for e in ev_placed) / (shoes - 1)) if shoes > 1
               else math.nan)
    mean_ev, mean_se = _cluster_ratio(ev_all, hands)

    nn = _nn
    perfect = {"shoes": shoes, "hands": int(H), "bets": int(math.fsum(placed)), "seed": seed,
               "bet_frequency": {"value": nn(freq), "stderr": nn(freq_se)},
               "edge_when_betting": {"value": nn(when), "stderr": nn(when_se)},
               "win_per_100_hands": {"value": nn(100 * win), "stderr": nn(100 * win_se)},
               "win_per_shoe": {"value": per_shoe + 0.0, "stderr": nn(sd_shoe / math.sqrt(shoes))},
               "hands_per_shoe": H / shoes}
    effect = {"shoes": shoes, "hands": int(H), "seed": seed,
              "mean_ev_per_hand": {"value": nn(mean_ev), "stderr": nn(mean_se)},
              "full_shoe_ev": _num(exact_ev),
              "effect_on_house_edge": {"value": nn(-(mean_ev - float(exact_ev))), "stderr": nn(mean_se)}}
    return perfect, effect


@dataclass(frozen=True)
class DeckColumn:
    """The bet's exact figures on one shoe of the side-by-side comparison.

    Attributes
    ----------
    decks : int or None
        Fresh decks, or None for a continuous shuffler (every coup from a full shoe: an
        infinite deck).
    result : BetResult
        The bet's outcome distribution (the same as ``baccara edge --decks d``).
    lines : list of PayLine
        Its pay table on that shoe.
    shoe : dict
        The shoe's description (:meth:`~baccara.shoe.Shoe.describe`).
    """

    decks: int | None
    result: BetResult
    lines: list[PayLine]
    shoe: dict

    @property
    def label(self) -> str:
        """``"8 decks"``, ``"1 deck"``, ``"continuous shuffler"``."""
        if self.decks is None:
            return "continuous shuffler"
        return f"{self.decks} deck{'s' if self.decks != 1 else ''}"

    def to_json(self) -> dict:
        """The column as JSON.

        Returns
        -------
        dict
            ``decks`` (``"inf"`` for the continuous shuffler), ``label``, ``shoe``, ``bet`` (as
            ``baccara edge --json`` has it), ``return_to_player`` and ``pay_table``.
        """
        r = self.result
        return {"decks": "inf" if self.decks is None else self.decks, "label": self.label, "shoe": self.shoe,
                "bet": bet_json(r), "return_to_player": _num(1 + r.ev),
                "pay_table": [ln.to_json() for ln in self.lines]}


def compare_decks(bet: Bet, tableau: Tableau = PUNTO_BANCO,
                  decks: tuple[int | None, ...] = DECKS_COMPARED) -> list[DeckColumn]:
    """The bet's exact figures on 1, 2, 4, 6 and 8 fresh decks and a continuous shuffler.

    Parameters
    ----------
    bet : Bet
        The bet.
    tableau : Tableau
        The drawing rules.
    decks : tuple
        The shoes: decks, None for the continuous shuffler (an infinite deck).

    Returns
    -------
    list of DeckColumn
        One per shoe, each the same as ``baccara edge --decks d`` for the bet.
    """
    out = []
    for d in decks:
        shoe = Shoe.infinite() if d is None else Shoe.decks(d)
        dist = coup_distribution(shoe, tableau)
        out.append(DeckColumn(d, evaluate_bets(dist, (bet,))[bet.name], pay_table(dist, bet), shoe.describe()))
    return out


def house_terms(bet: Bet, parameters: dict | None) -> dict:
    """The house parameters that shape ``bet``: those whose change changes the built-in bet.

    Parameters
    ----------
    bet : Bet
        The bet.
    parameters : dict or None
        ``commission``, ``tie_pays`` and ``super6_pays`` as the built-in bets were built.

    Returns
    -------
    dict
        The ones this bet depends on (none for a bet of the user's own).
    """
    if not parameters or set(parameters) != {"commission", "tie_pays", "super6_pays"}:
        return {}
    base = house_bets(**parameters)
    if base.get(bet.name) != bet:
        return {}
    out = {}
    for k, v in parameters.items():
        other = dict(parameters)
        other[k] = v / 2 if k == "commission" and v else Fraction(1, 100) if k == "commission" else v + 1
        if house_bets(**other)[bet.name] != bet:
            out[k] = v
    return out


def simulation_check(bet: Bet, decks: int | None, hands: int, seed: int, tableau: Tableau = PUNTO_BANCO,
                     workers: int | None = None) -> dict:
    """The exact figures checked by simulation: the bet's EV, hit frequency and every pay line's chance.

    Coups are dealt from the full shoe every time (a continuous shuffler, ``deal="csm"``), so the
    simulated figures estimate exactly the exact ones; each comes with its standard error, a
    95% interval and its z-score ((simulated - exact) / SE).

    Parameters
    ----------
    bet : Bet
        The bet.
    decks : int or None
        Fresh decks (None: infinite).
    hands : int
        Hands to deal (rounded up to whole runs of :data:`~baccara.sim.punto.DEFAULT_COUPS` coups).
    seed : int
        The seed.
    tableau : Tableau
        The drawing rules.
    workers : int, optional
        Threads (default: all cores).

    Returns
    -------
    dict
        ``hands``, ``shoes``, ``seed``, ``deal``, ``seconds`` and ``rows`` (figure, exact, simulated,
        stderr, 95% interval, z), ``max_abs_z``.
    """
    t0 = time.perf_counter()
    lines = line_bets(bet)[: MAX_BETS - 1]
    shoes = max(1, -(-hands // DEFAULT_COUPS))
    job = PuntoJob(seed=seed, shoes=shoes, decks=decks, bets=(bet, *lines), deal="csm", coups=DEFAULT_COUPS,
                   tableau=tableau)
    res = simulate_punto(job, workers=workers)
    shoe = Shoe.infinite() if decks is None else Shoe.decks(decks)
    dist = coup_distribution(shoe, tableau)
    exact = evaluate_bets(dist, (bet, *lines))
    rows = []

    def row(figure: str, x: Fraction, est: Any) -> None:
        v, se = est.value, _nn(est.stderr)
        z = est.z(x)
        rows.append({"figure": figure, "exact": _num(x), "simulated": v + 0.0, "stderr": se,
                     "low95": None if se is None else v - Z95 * se, "high95": None if se is None else v + Z95 * se,
                     "z": None if z is None or math.isinf(z) or math.isnan(z) else z})

    row("return per unit bet (EV)", exact[bet.name].ev, res.bets[bet.name].ev_per_bet)
    row("hit frequency (the bet wins)", exact[bet.name].p_win, res.bets[bet.name].hit)
    words = [condition_words(r.when) for r in bet.rules] + ["any other coup"]
    for ln, w in zip(lines, words):
        row(f"line: {w}", exact[ln.name].ev, res.bets[ln.name].ev_per_bet)
    zs = [abs(r["z"]) for r in rows if r["z"] is not None]
    return {"hands": res.hands, "shoes": shoes, "coups_per_shoe": DEFAULT_COUPS, "seed": seed,
            "deal": "every coup dealt from the full shoe",
            "decks": "inf" if decks is None else decks, "rows": rows, "max_abs_z": max(zs) if zs else None,
            "lines_checked": len(lines), "seconds": time.perf_counter() - t0}


def _plain_failure(e: BaccaraError, what: str) -> str:
    """A library error in the report's own words (no option of another command)."""
    text = str(getattr(e, "cli_message", e))
    if "effects of removal are all equal" in text:
        return ("there is no linear count, since the bet's effects of removal are all equal from a full shoe (a "
                "pair's chance depends on the squares of the rank counts, not on which ranks are gone) and no count "
                "of tags can track it")
    if "no trigger of this count wins" in text:
        return f"no linear count wins ({text.split(': ', 1)[-1]})"
    return f"{what}: {text.split(': ', 1)[-1] if text.startswith('--') else text}"


@dataclass(repr=False)
class MathReport(Result):
    """The math report of one bet: pay table, exact figures, the house's result, and how it can be beaten.

    Attributes
    ----------
    shoe : Shoe
        The shoe.
    tableau : Tableau
        The drawing rules.
    bet : Bet
        The bet.
    parameters : dict
        The house parameters the built-in bets were built with.
    deals : int
        Ordered deals of the shoe (the denominator of every exact probability).
    lines : list of PayLine
        The pay table.
    moments : Moments
        House edge, hit frequency, SD, volatility index, element of risk.
    removal : tuple
        (edge, list of :class:`~baccara.punto.exact.RemovalEffect`), or None on a shoe too small.
    known : list of KnownCard
        The first card known.
    sorting : dict
        Cards read -> :class:`~baccara.punto.edgesort.EdgeSortSearch`.
    design : CountDesign or None
        The best linear count (None: see ``notes``).
    penetrations : list of Penetration
        The count, the perfect counter and the cut card's effect at each cut.
    settings : dict
        The simulation sizes, seed and cuts.
    notes : list of str
        What could not be computed, and why.
    seconds : float
        Wall time.
    decks_compared : list of DeckColumn
        The bet on 1, 2, 4, 6 and 8 decks and a continuous shuffler.
    terms : dict
        The house terms this bet depends on (:func:`house_terms`).
    sort_note : str
        Why the edge-sorting section is not given ('' when it is).
    count_note : str
        Why no count was designed ('' when one was).
    check : dict or None
        The simulation check of the exact figures (:func:`simulation_check`).
    command : str
        The command that made the report.
    made : str
        When (UTC, ISO 8601).
    """

    shoe: Shoe
    tableau: Tableau
    bet: Bet
    parameters: dict
    deals: int
    lines: list[PayLine]
    moments: Moments
    removal: Any
    known: list[KnownCard]
    sorting: dict
    design: Any
    penetrations: list[Penetration]
    settings: dict
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0
    decks_compared: list[DeckColumn] = field(default_factory=list)
    terms: dict = field(default_factory=dict)
    sort_note: str = ""
    count_note: str = ""
    check: dict | None = None
    command: str = ""
    made: str = ""

    # ------------------------------------------------------------ derived
    @property
    def known_advantage(self) -> Fraction:
        """Expected gain per coup of a player who sees the first card and bets only when its EV is positive."""
        return sum((k.probability * k.ev for k in self.known if k.ev > 0), Fraction(0))

    def house_results(self) -> list[dict]:
        """The house's result after each of :data:`HANDS` hands (see :meth:`Moments.house_result`).

        Returns
        -------
        list of dict
            One per number of hands.
        """
        rows = self.__dict__.get("_house_rows")
        if rows is None:  # each row convolves the exact distribution: computed once per report
            rows = self.__dict__["_house_rows"] = [self.moments.house_result(n) for n in HANDS]
        return rows

    def comparison(self, pen: Penetration) -> str:
        """The designed count against the perfect counter at one cut, their standard errors respected.

        Parameters
        ----------
        pen : Penetration
            The cut.

        Returns
        -------
        str
            '' when there is nothing to say (either not measured, or the count below the bound).
        """
        if not (pen.count_measured and pen.perfect_measured):
            return ""
        c = pen.count.count.win_per_100
        w = pen.perfect["win_per_100_hands"]
        if c.value <= w["value"] or c.stderr is None or w["stderr"] is None:
            return ""
        d, e = c.value - w["value"], math.hypot(c.stderr, w["stderr"])
        gap = f"by {estimate(d, e, sign=False)} (1 SE) units per 100 hands"
        if d <= 2 * e:
            return (f"At cut {pen.cut} the designed count's figure is above the perfect counter's {gap}: within "
                    f"noise (under 2 SE).  The perfect counter is measured on only {pen.perfect['shoes']:,} shoes; "
                    "in expectation no count can win more than it.")
        return (f"At cut {pen.cut} the designed count's figure is above the perfect counter's {gap}, more than "
                "2 SE: about a 1-in-40 chance if the bound holds; more shoes for the perfect counter would settle "
                "it.")

    def verdict(self) -> dict:
        """Can the bet be beaten by counting?  The answer with its uncertainty (1 SE), in words and figures.

        A bet is *countable* when a designed count wins more than 2 standard errors above zero
        at some cut; else the perfect counter says whether any count could.

        Returns
        -------
        dict
            ``verdict`` (``countable``, ``perfect counter only``, ``not countable``, ``not
            assessed``), ``text``, and the figures it rests on.
        """
        if not self.penetrations:
            why = self.notes[-1] if self.notes else "no simulation"
            return {"verdict": "not assessed", "text": f"Countability not assessed: {why}."}

        def fig(e: Any) -> tuple[float, float]:
            return (e.value, e.stderr) if not isinstance(e, dict) else (e["value"], e["stderr"])

        counted = [p for p in self.penetrations if p.count_measured]
        perfect = [p for p in self.penetrations if p.perfect_measured]
        best = max(counted, key=lambda p: p.count.count.win_per_100.value) if counted else None
        top = max(perfect, key=lambda p: p.perfect["win_per_100_hands"]["value"]) if perfect else None

        def perfect_at(p: Penetration) -> str:
            if not p.perfect:
                return "the perfect counter was not simulated there"
            if not p.perfect_measured:
                return (f"the perfect counter bet only {_n(p.perfect['bets'], 'time')} on "
                        f"{_n(p.perfect['shoes'], 'shoe')} there, too few to measure")
            v, e = fig(p.perfect["win_per_100_hands"])
            return f"the perfect counter bounds any count at {estimate(v, e)} (1 SE) there"

        doc: dict = {"min_bets": MIN_BETS}
        if best is not None:
            v, e = fig(best.count.count.win_per_100)
            doc["count"] = {"cut": best.cut, "win_per_100_hands": {"value": v, "stderr": e}}
            if e is not None and v - 2 * e > 0:
                doc["verdict"] = "countable"
                doc["text"] = (f"Countable: a designed count wins {estimate(v, e)} (1 SE) units per 100 hands at "
                               f"cut {best.cut}; {perfect_at(best)}.")
                return doc
            count_part = (f"the best designed count wins {estimate(v, e)} (1 SE) units per 100 hands at cut "
                          f"{best.cut}, within 2 SE of nothing")
        elif self.design is None:
            count_part = self.count_note or "no count was designed"
        else:
            count_part = "the designed count found nothing: " + "; ".join(
                f"cut {p.cut}: {p.count_status}" for p in self.penetrations if p.count_status)
        if top is not None:
            v, e = fig(top.perfect["win_per_100_hands"])
            doc["perfect"] = {"cut": top.cut, "win_per_100_hands": {"value": v, "stderr": e}}
            if e is not None and v - 2 * e > 0:
                doc["verdict"] = "perfect counter only"
                doc["text"] = (f"Not countable in practice: {count_part}.  Only a perfect counter, who prices every "
                               f"coup exactly on the cards left (a computer), wins: {estimate(v, e)} (1 SE) units "
                               f"per 100 hands at cut {top.cut}.")
                return doc
            doc["verdict"] = "not countable"
            doc["text"] = (f"Not countable: {count_part}; even the perfect counter, the bound on any count, wins "
                           f"only {estimate(v, e)} (1 SE) units per 100 hands at cut {top.cut}, within 2 SE of "
                           "nothing.")
            return doc
        doc["verdict"] = "not countable" if self.penetrations and all(p.perfect for p in self.penetrations) \
            else "not assessed"
        doc["text"] = (f"Not shown countable: {count_part}; the perfect counter placed fewer than {MIN_BETS} bets "
                       "at every cut, so nothing was found to measure." if doc["verdict"] == "not countable" else
                       f"Countability not assessed: {count_part}; the perfect counter was not simulated.")
        return doc

    # ------------------------------------------------------------ Result
    def to_json(self) -> dict:
        """The ``baccara report --json`` document.

        Returns
        -------
        dict
            ``bet``, ``shoe``, ``tableau``, ``parameters``, ``deals``, ``pay_table``, ``figures``,
            ``house_result``, ``effects_of_removal``, ``first_card_known``, ``edge_sorting``,
            ``count``, ``penetrations``, ``settings``, ``notes``.
        """
        eor = None
        if self.removal is not None:
            base, effects = self.removal
            eor = {"edge": fraction_str(base), "effects": {
                e.rank: {"cards_left": e.cards_left,
                         "effect": None if e.effect is None else fraction_str(e.effect),
                         "effect_percent": None if e.effect is None else float(e.effect) * 100,
                         "edge_after": None if e.edge_after is None else fraction_str(e.edge_after)}
                for e in effects}}
        sorting = {}
        for k, s in self.sorting.items():
            b = s.best
            sorting[str(k)] = {"cards": k, "by": s.by, "sortings": len(s.ranking),
                               "sorted": rank_names(b.sorted_ranks),
                               "advantage_per_coup": _num(b.advantage), "bet_frequency": _num(b.bet_frequency),
                               "advantage_per_bet": None if b.per_bet is None else _num(b.per_bet)}
        design = None
        if self.design is not None:
            design = self.count_json()
        return {
            "report": "math report",
            "made": self.made,
            "command": self.command,
            "bet": {"name": self.bet.name, "description": self.bet.description},
            "shoe": self.shoe.describe(),
            "tableau": self.tableau.name,
            "rules": {"tableau": self.tableau.to_json(), "player": player_rule_words(self.tableau)},
            "parameters": {k: fraction_str(v) for k, v in self.parameters.items()},
            "house_terms": {k: fraction_str(v) for k, v in self.terms.items()},
            "deals": str(self.deals),
            "pay_table": [line.to_json() for line in self.lines],
            "figures": self.moments.to_json(),
            "decks_compared": [c.to_json() for c in self.decks_compared],
            "house_result": {"confidence": 0.95, "method": "exact distribution of the sum of independent hands "
                             "(Fourier transform, float precision); the normal approximation beside it",
                             "rows": self.house_results()},
            "effects_of_removal": eor,
            "first_card_known": {"position": 1, "cards": [k.to_json() for k in self.known],
                                 "advantage_per_coup": _num(self.known_advantage)},
            "edge_sorting": sorting,
            "edge_sorting_note": self.sort_note or None,
            "count": design,
            "count_note": self.count_note or None,
            "penetrations": [p.to_json() for p in self.penetrations],
            "countability": self.verdict(),
            "comparisons": [c for c in (self.comparison(p) for p in self.penetrations) if c],
            "simulation_check": self.check,
            "settings": self.settings,
            "notes": list(self.notes),
            "seconds": self.seconds,
        }

    def count_json(self) -> dict | None:
        """The designed count as a player applies it: tags, whether they are balanced, the running count
        at the start of a shoe, the true count's definition and the trigger.

        Returns
        -------
        dict or None
            None when no count was designed.
        """
        if self.design is None:
            return None
        d = self.design
        system = d.system
        decks = _fresh_decks(self.shoe) or 0  # a count is only designed on fresh decks
        deck_sum = 4 * sum(int(t) for t in d.tags)
        rule = system.rules[0]
        return {"level": d.level, "tags": dict(zip(RANKS, [int(t) for t in d.tags])),
                "balanced": system.balanced, "deck_sum": deck_sum,
                "betting_correlation": d.correlation, "rule": rule.describe(),
                "trigger": d.best.at_least, "kind": d.kind, "initial": system.initial,
                "initial_per_deck": system.initial_per_deck, "initial_running_count": system.start(decks),
                "true_count": "running count x 52 / cards not yet seen (the cards left in the shoe and the "
                              "face-down burned cards): the running count per deck unseen",
                "design_shoes": d.shoes, "design_cut": d.cut, "seed": d.seed, "system": system.to_json()}

    def summary(self) -> str:
        """The bet, the shoe and its house edge.

        Returns
        -------
        str
            The line.
        """
        return (f"Math report, {self.bet.name}, {self.shoe.label()}: house edge {_pct(self.edge)}, "
                f"hit frequency {_pct(self.moments.hit_frequency)}, SD {self.moments.sd:.4f}")

    @property
    def edge(self) -> Fraction:
        """The bet's exact house edge."""
        return self.moments.edge

    def renderables(self) -> list:
        """The report's tables for a terminal (the HTML page has the charts too).

        Returns
        -------
        list
            Lines and Rich tables.
        """
        out: list = [self.summary()]
        t = Table(title=f"Pay table ({self.deals:,} ordered deals)")
        for c in ("when", "pays", "combinations", "probability", "odds", "return"):
            t.add_column(c, justify="left" if c == "when" else "right")
        for ln in self.lines:
            t.add_row(ln.words, pays_words(ln.pays), f"{ln.combinations:,}", f"{float(ln.probability):.8f}",
                      one_in(ln.probability), signed(float(ln.contribution), 8))
        out.append(t)
        m = self.moments
        f = Table(title="Figures")
        f.add_column("figure")
        f.add_column("value", justify="right")
        f.add_column("exact", justify="right")
        f.add_row("house edge", _pct(m.edge), fraction_str(m.edge))
        f.add_row("return to player", _pct(1 + m.result.ev), fraction_str(1 + m.result.ev))
        f.add_row("hit frequency", f"{_pct(m.hit_frequency)} ({one_in(m.hit_frequency)})", fraction_str(m.hit_frequency))
        f.add_row("standard deviation", f"{m.sd:.6f}", f"sqrt({fraction_str(m.variance)})")
        f.add_row("volatility index (1.645 SD)", f"{m.volatility_index:.6f}", "")
        if m.element_of_risk is not None:
            f.add_row("element of risk", _pct(m.element_of_risk), fraction_str(m.element_of_risk))
        out.append(f)
        if self.decks_compared:
            d = Table(title="By shoe (exact)")
            d.add_column("figure")
            cols = self.decks_compared
            for col in cols:
                d.add_column(col.label, justify="right")
            d.add_row("house edge", *[_pct(col.result.edge) for col in cols])
            d.add_row("return to player", *[_pct(1 + col.result.ev) for col in cols])
            d.add_row("hit frequency", *[_pct(col.result.p_win) for col in cols])
            d.add_row("SD", *[f"{col.result.sd:.4f}" for col in cols])
            out.append(d)
        h = Table(title="The house's result (units) after N independent hands: exact distribution")
        for c in ("hands", "expected", "SD", "2.5%", "97.5%", "house ahead", "(normal approx.)"):
            h.add_column(c, justify="right")
        for r in self.house_results():
            h.add_row(f"{r['hands']:,}", f"{r['mean']['float']:,.1f}", f"{r['sd']:,.1f}", plain(r['low'], 1),
                      plain(r['high'], 1), probability_text(r), f"{r['normal']['p_house_ahead']:.4f}")
        out.append(h)
        if self.removal is not None:
            base, effects = self.removal
            e = Table(title="Effects of removal (change in the house edge, one card removed)")
            e.add_column("rank")
            e.add_column("effect", justify="right")
            for x in effects:
                e.add_row(x.rank, "-" if x.effect is None else signed_pct(x.effect, 6))
            out.append(e)
        k = Table(title=f"First card known: advantage {_pct(self.known_advantage)} per coup")
        for c in ("card", "probability", "the bet's EV", "bet?"):
            k.add_column(c, justify="right")
        for x in self.known:
            k.add_row(x.card, f"{float(x.probability):.6f}", signed_pct(x.ev, 4), "yes" if x.ev > 0 else "")
        out.append(k)
        if self.sort_note:
            out.append(f"Edge sorting: {self.sort_note}")
        for n, srt in self.sorting.items():
            b = srt.best
            read = f"Edge sorting by {srt.by}, {n} card{'s' if n > 1 else ''} read: "
            out.append(read + "no sort gains anything" if b.advantage <= 0 else
                       read + f"sort {{{', '.join(rank_names(b.sorted_ranks))}}} from the rest, advantage "
                       f"{_pct(b.advantage)} per coup")
        cj = self.count_json()
        if cj is not None:
            out.append(f"Best linear count (level {cj['level']}): tags "
                       f"{', '.join(f'{r}={t:+d}' if t else f'{r}=0' for r, t in cj['tags'].items())} "
                       f"({'balanced' if cj['balanced'] else 'unbalanced: a deck sums to ' + str(cj['deck_sum'])}); "
                       f"start the running count at {cj['initial_running_count']:g}; true count = "
                       f"{cj['true_count']}; bet when the {cj['kind']} count >= {cj['trigger']:g}; betting "
                       f"correlation {cj['betting_correlation']:.4f}")
        elif self.count_note:
            out.append(f"Count: {self.count_note}")
        for p in self.penetrations:
            parts = []
            if p.count_measured:
                c = p.count.count.win_per_100
                parts.append(f"the count wins {estimate(c.value, c.stderr)} (1 SE) per 100 hands")
            elif p.count_status:
                parts.append(f"the count found nothing: {p.count_status}")
            if p.perfect_measured:
                w = p.perfect["win_per_100_hands"]
                parts.append(f"the perfect counter {estimate(w['value'], w['stderr'])} (1 SE)")
            elif p.perfect:
                parts.append(f"the perfect counter bet {_n(p.perfect['bets'], 'time')} on "
                             f"{_n(p.perfect['shoes'], 'shoe')}: too few to measure")
            if p.cut_effect:
                e = p.cut_effect["effect_on_house_edge"]
                parts.append("the cut card's effect is not measured (one shoe gives no standard error)"
                             if e["stderr"] is None else f"the cut card changes the house edge by "
                             f"{estimate(e['value'], e['stderr'], scale=100, unit='%')} (1 SE)")
            out.append(f"Cut {p.cut} ({p.penetration:.1%} dealt): {'; '.join(parts) or 'nothing simulated'}")
        out.append(self.verdict()["text"])
        out.extend(c for c in (self.comparison(p) for p in self.penetrations) if c)
        if self.check:
            out.append(check_summary(self.check))
        out.extend(f"Note: {n}" for n in self.notes)
        return out


def _n(n: int, word: str) -> str:
    """``"1 shoe"``, ``"2 shoes"``, ``"100,000 shoes"``."""
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def signed_pct(x: Fraction | float, digits: int) -> str:
    """A change in percent with its sign; an exact zero as ``0``.

    Parameters
    ----------
    x : Fraction or float
        The change (a fraction of one unit).
    digits : int
        Decimals of the percentage.

    Returns
    -------
    str
        E.g. ``"+0.012345%"``, ``"0"``.
    """
    text = signed(float(x) * 100, digits)
    return text if text == "0" else text + "%"


def probability_text(row: dict) -> str:
    """The house's chance of being ahead, with the player's beside it when it rounds to 1.

    Parameters
    ----------
    row : dict
        A row of :meth:`MathReport.house_results`.

    Returns
    -------
    str
        E.g. ``"0.6725"``, ``"1 - 3.1e-12"``, ``"1 (to 16 digits)"``.
    """
    p = row["p_house_ahead"]
    if p < 0.9999:
        return f"{p:.4f}"
    rest = row["p_even"] + row["p_player_ahead"]
    return f"1 - {rest:.1e}" if rest >= 1e-16 else "1 (to 16 digits)"


def check_summary(check: dict) -> str:
    """One line on the simulation check: hands, and how far the simulated figures fall from the exact ones.

    Parameters
    ----------
    check : dict
        :func:`simulation_check`'s document.

    Returns
    -------
    str
        The line.
    """
    z = check.get("max_abs_z")
    rows = len(check["rows"])
    verdict = ("too few hands for standard errors" if z is None else
               f"every one within {math.ceil(z * 10) / 10:.1f} SE of the exact value" if z < 3 else
               f"the farthest {z:.1f} SE from the exact value (a 1-in-370 event per figure for 3 SE)")
    return (f"Simulation check on {check['hands']:,} hands, {check['deal']} (seed {check['seed']}), {rows} figures: "
            f"{verdict}.")


def _positive_int(value: Any, name: str, lo: int = 0, hi: int = 10**9) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ParameterError(f"{name} must be an integer from {lo:,} to {hi:,}, got {value!r}")
    return value


def math_report(shoe: Shoe | int, bet: Bet | str, *, tableau: Tableau = PUNTO_BANCO,
                parameters: dict | None = None, seed: int = 0, design_shoes: int = DESIGN_SHOES,
                count_shoes: int = COUNT_SHOES, perfect_shoes: int | None = None,
                cuts: tuple[int, ...] | None = None, level: int = LEVEL, workers: int | None = None,
                sort_cards: tuple[int, ...] = SORT_CARDS, check_hands: int = CHECK_HANDS,
                decks_compared: tuple[int | None, ...] = DECKS_COMPARED, command: str = "",
                progress: Any = None, backend: str = "threads") -> MathReport:
    """The math report of one bet on one shoe.

    Parameters
    ----------
    shoe : Shoe or int
        The shoe, or a number of fresh decks.  The simulated sections (count, perfect counter,
        cut card, the simulation check) need fresh decks; on another shoe they are left out, with
        a note.
    bet : Bet or str
        The bet, or the name of a built-in bet.
    tableau : Tableau
        The drawing rules.
    parameters : dict, optional
        The house parameters the bets were built with (commission, tie and Super 6 payouts); the
        report states those the bet depends on.
    seed : int
        The seed: the count is designed on shoes of ``seed`` and measured, with the perfect
        counter, on shoes of ``seed + 1``; the simulation check deals shoes of ``seed + 2``.
    design_shoes : int
        Shoes on which the count's trigger is chosen (default :data:`DESIGN_SHOES`).
    count_shoes : int
        Shoes on which the count is measured at each cut (default :data:`COUNT_SHOES`); 0: no
        count, perfect counter or cut card simulated.
    perfect_shoes : int, optional
        Shoes for the perfect counter and the cut card's effect at each cut (default
        :data:`PERFECT_SHOES`, :data:`PERFECT_SHOES_RANK` for bets on ranks).
    cuts : tuple of int, optional
        Cards behind the cut card, one simulation each (default: those of :data:`CUTS` that the
        shoe allows, at most 52 x decks - 11).
    level : int
        Tags of the designed count from -level to level (1, 2 or 3).
    workers : int, optional
        Threads for the simulations (default: all cores).
    sort_cards : tuple of int
        Cards read in the edge-sorting sections (1 to 4 each).
    check_hands : int
        Hands dealt to check the exact figures by simulation (default :data:`CHECK_HANDS`; 0: no
        check).
    decks_compared : tuple
        The shoes of the side-by-side comparison (decks; None for a continuous shuffler).
    command : str
        The command that made the report, printed on it (default: the equivalent
        ``baccara report`` command of a built-in bet on fresh decks, where there is one).
    progress : callable, optional
        Called with a line as each section starts.
    backend : str
        ``"threads"`` (default), or ``"gpu"``: the count design's histogram and the count at each cut run
        on a CUDA GPU (:mod:`baccara.sim.gpu`; the same integers, so the same figures, as on the threads),
        while the perfect counter, the cut card's effect and the simulation check run on ``workers``
        threads; a note says what ran where.

    Returns
    -------
    MathReport
        Every figure, exact where exact, simulated with standard errors and the seed.

    Raises
    ------
    ParameterError
        A bad size, cut or backend; ``gpu`` where there is neither a CUDA GPU nor the CUDA simulator.
    """
    t0 = time.perf_counter()
    say = progress or (lambda _line: None)
    if isinstance(shoe, int) and not isinstance(shoe, bool):
        shoe = Shoe.decks(shoe)
    if not isinstance(shoe, Shoe):
        raise BaccaraError(f"shoe must be a baccara.Shoe or a number of decks, got {type(shoe).__name__}")
    if shoe.replacement:
        raise ParameterError("--decks: a math report needs a finite shoe (effects of removal, counting), not 'inf'")
    bet = coerce_bet(bet)
    seed = _positive_int(seed, "--seed", 0, 2**63 - 4)
    design_shoes = _positive_int(design_shoes, "--design-shoes", 1, 10**9)
    count_shoes = _positive_int(count_shoes, "--count-shoes", 0, 10**12)
    check_hands = _positive_int(check_hands, "--check-hands", 0, 10**12)
    if perfect_shoes is None:
        perfect_shoes = PERFECT_SHOES if bet.resolution == "value" else PERFECT_SHOES_RANK
    perfect_shoes = _positive_int(perfect_shoes, "--perfect-shoes", 0, 10**7)
    if bet.card_level and perfect_shoes:
        notes_first = [f"the perfect counter and the cut card's effect: {bet.name} reads the cards themselves, and "
                       f"pricing it exactly before every coup with the card-level engine (tenths of a second or "
                       f"more each) would take hours; left out"]
        perfect_shoes = 0
    else:
        notes_first = []
    for k in sort_cards:
        _positive_int(k, "--sort-cards", 1, 4)
    if backend not in ("threads", "gpu"):
        raise ParameterError(f"--backend of report must be threads or gpu, got {backend!r}")
    if backend == "gpu":  # before any work
        from ..sim.gpu import check_gpu  # lazy: numba-cuda only when the GPU is asked for

        check_gpu()
    if not applicable_bets(shoe, {bet.name: bet}):
        raise ParameterError(f"--bet {bet.name}: it needs a shoe known by {bet.resolution}; this shoe is known only "
                             f"by {shoe.resolution}")
    made = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    notes: list[str] = list(notes_first)
    say("exact figures")
    dist = coup_distribution(shoe, tableau)
    result = evaluate_bets(dist, (bet,))[bet.name]
    lines = pay_table(dist, bet)
    say("the bet on 1, 2, 4, 6 and 8 decks and a continuous shuffler")
    columns = compare_decks(bet, tableau, decks_compared)
    removal = None
    say("effects of removal")
    try:
        removal = effects_of_removal(shoe, bet, tableau)
    except BaccaraError as e:
        notes.append(f"effects of removal: {e}")
    say("first card known")
    known = first_card_known(shoe, bet, tableau)
    sorting = {}
    sort_by = "rank" if bet.resolution == "rank" else "value"
    sort_note = ""
    if bet.card_level and sort_cards:
        sort_note = ("Not given for this bet: it pays on the cards themselves, and the search prices the bet in every "
                     "pattern of 511 sortings, each taking the card-level engine tenths of a second or more.  "
                     f"Analyse one sorting with 'baccara edgesort --sorted RANKS --only {bet.name}'.")
    elif bet.resolution == "suit":
        sort_note = ("Not given for this bet: it pays on suits (a suited pair), and the edge-sorting analysis tells "
                     "apart classes of ranks only.  A sort by value or rank would miss what the bet pays on, so its "
                     "figure would not be the bet's; a sort by suit is not analysed.")
    else:
        for k in sort_cards:
            say(f"edge sorting by {sort_by}, {k} card{'s' if k > 1 else ''} read")
            sorting[k] = best_sorting(shoe, k, sort_by, {bet.name: bet}, tableau, among=[bet.name], top=3)
    decks = _fresh_decks(shoe)
    design = None
    count_note = ""
    penetrations: list[Penetration] = []
    settings = {"seed": seed, "design_seed": seed, "count_seed": seed + 1, "check_seed": seed + 2,
                "design_shoes": design_shoes, "count_shoes": count_shoes, "perfect_shoes": perfect_shoes,
                "cuts": [], "level": level, "sort_by": sort_by if sorting else None, "sort_cards": list(sort_cards),
                "check_hands": check_hands, "decks_compared": ["inf" if d is None else d for d in decks_compared],
                "backend": backend}
    if decks is None:
        notes.append("the count, the perfect counter, the cut card's effect and the simulation check are simulated "
                     f"on fresh decks only; this shoe ({shoe.label()}) is not fresh decks, so they are left out")
    elif count_shoes == 0:
        notes.append("no count simulation asked for (count shoes 0): the count, the perfect counter and the cut "
                     "card's effect are left out")
    else:
        top = 52 * decks - 11
        if cuts is None:
            cuts = tuple(c for c in CUTS if c <= top) or (min(CUTS[0], top),)
            if len(cuts) < len(CUTS):
                notes.append(f"a {decks}-deck shoe allows at most {top} cards behind the cut card: simulated at "
                             f"cut {', '.join(map(str, cuts))} only")
        for cut in cuts:
            _positive_int(cut, "--cuts", 6, top)
        say(f"count design on {design_shoes:,} shoes")
        try:
            design = design_count(decks, bet, level, shoes=design_shoes, seed=seed, cut=cuts[0], tableau=tableau,
                                  workers=workers or default_workers(), backend=backend)
        except BaccaraError as e:  # a bet no linear count tracks (the pairs), or no trigger that wins
            count_note = _plain_failure(e, "no count")
        for cut in cuts:
            count, status = None, ""
            if design is not None:
                say(f"count at cut {cut} on {count_shoes:,} shoes")
                try:
                    count = analyse_count(design.system, bet, decks=decks, shoes=count_shoes, seed=seed + 1, cut=cut,
                                          perfect_shoes=0, tableau=tableau, backend=backend,
                                          workers=None if backend == "gpu" else workers)
                except BaccaraError as e:
                    if "never fired" not in str(e):
                        raise
                    status = (f"it never bet in {count_shoes:,} shoe{'s' if count_shoes != 1 else ''} dealt to "
                              f"this cut (its trigger, "
                              f"{_rule_words(design)}, was never reached)")
                if count is not None and count.count.placed < MIN_BETS:
                    c = count.count
                    status = (f"it bet only {c.placed:,} time{'s' if c.placed != 1 else ''} in {c.shoes:,} "
                              f"shoe{'s' if c.shoes != 1 else ''} "
                              f"({c.hands:,} hands): too few to measure anything (fewer than {MIN_BETS} bets)")
            perfect: dict = {}
            effect: dict = {}
            if perfect_shoes:
                say(f"perfect counter and cut card at cut {cut} on {perfect_shoes:,} shoes")
                try:
                    perfect, effect = perfect_and_cut(bet, decks, cut, perfect_shoes, seed + 1, result.ev, tableau,
                                                      workers, backend)
                except BaccaraError as e:  # payouts too large for the per-shoe sums
                    notes.append(_plain_failure(e, f"perfect counter at cut {cut}"))
            penetrations.append(Penetration(cut, 1 - cut / (52 * decks), count, perfect, effect, status))
        settings["cuts"] = list(cuts)
        if backend == "gpu":
            notes.append(_where_it_ran(design_shoes, count_shoes if design else 0, perfect_shoes, check_hands,
                                       workers, _perfect_on_gpu(bet, decks, cuts, tableau)))
    check = None
    if decks is not None and check_hands:
        say(f"simulation check on {check_hands:,} hands")
        try:
            check = simulation_check(bet, decks, check_hands, seed + 2, tableau, workers)
        except BaccaraError as e:  # payouts the simulator's integers cannot hold
            notes.append(_plain_failure(e, "simulation check"))
    elif decks is not None:
        notes.append("no simulation check asked for (check hands 0)")
    if not command:
        command = _command(bet, decks, tableau, settings, cuts)
    return MathReport(shoe, tableau, bet, dict(parameters or {}), int(dist.deals), lines, Moments(result), removal,
                      known, sorting, design, penetrations, settings, notes, time.perf_counter() - t0, columns,
                      house_terms(bet, parameters), sort_note, count_note, check, command, made)


def _perfect_on_gpu(bet: Bet, decks: int, cuts: tuple[int, ...], tableau: Tableau) -> bool:
    """Whether ``backend="gpu"`` prices this report's perfect counter on the GPU (:func:`perfect_on_gpu`)."""
    try:
        return all(perfect_on_gpu(CountJob(0, 1, decks, bet, None, cut, tableau)) for cut in cuts)
    except BaccaraError:  # payouts too large for the per-shoe sums: no perfect counter at all
        return False


def _where_it_ran(design_shoes: int, count_shoes: int, perfect_shoes: int, check_hands: int,
                  workers: int | None, by_value: bool = True) -> str:
    """The note of a report run with ``backend="gpu"``: what ran on the GPU, what on the CPU (``by_value``: the
    bet is on card values, so its perfect counter ran on the GPU too, where 64-bit counts hold its shoe)."""
    threads = f"{workers} thread{'s' if workers != 1 else ''}" if workers else "its threads, one a core"
    perfect = f"the perfect counter and the cut card's effect ({perfect_shoes:,} shoes at each cut)"
    gpu = [f"the count design's histogram ({design_shoes:,} shoes)"]
    if count_shoes:
        gpu.append(f"the count at each cut ({count_shoes:,} shoes)")
    cpu = []
    if perfect_shoes and by_value:
        gpu.append(perfect)
    elif perfect_shoes:
        cpu.append(f"{perfect[:-1]}: a pair bet, priced at rank level by the exact engine, which the GPU does not)")
    if check_hands:
        cpu.append(f"the simulation check ({check_hands:,} hands)")
    return (f"where it ran: {', '.join(gpu[:-1]) + ' and ' + gpu[-1] if len(gpu) > 1 else gpu[0]} on the GPU, the "
            f"same figures as on the CPU's threads" + (f"; {' and '.join(cpu)} on the CPU, {threads}" if cpu else ""))


def _rule_words(design: Any) -> str:
    rule = design.system.rules[0]
    return f"{rule.count} count >= {rule.at_least:g}"


def _command(bet: Bet, decks: int | None, tableau: Tableau, settings: dict, cuts: tuple[int, ...] | None) -> str:
    """The ``baccara report`` command that makes the same report (a built-in bet on fresh decks), else ''."""
    if decks is None or tableau != PUNTO_BANCO or builtin_bets().get(bet.name) != bet:
        return ""
    s = settings
    parts = [f"baccara report --bet {bet.name} --decks {decks} --seed {s['seed']}"]
    for opt, key, default in (("--design-shoes", "design_shoes", DESIGN_SHOES), ("--count-shoes", "count_shoes",
                                                                                   COUNT_SHOES),
                              ("--level", "level", LEVEL), ("--check-hands", "check_hands", CHECK_HANDS)):
        if s[key] != default:
            parts.append(f"{opt} {s[key]}")
    if s["perfect_shoes"] != (PERFECT_SHOES if bet.resolution == "value" else PERFECT_SHOES_RANK):
        parts.append(f"--perfect-shoes {s['perfect_shoes']}")
    if cuts is not None and tuple(cuts) != CUTS:
        parts.append(f"--cuts {','.join(map(str, cuts))}")
    if tuple(s["sort_cards"]) != SORT_CARDS:
        parts.append(f"--sort-cards {','.join(map(str, s['sort_cards']))}")
    if s.get("backend", "threads") != "threads":
        parts.append(f"--backend {s['backend']}")
    return " ".join(parts)


def _fresh_decks(shoe: Shoe) -> int | None:
    """d when ``shoe`` is d fresh decks at its resolution (what the simulations deal), else None."""
    d = shoe.fresh_decks()
    if d is None or shoe.resolution == "value":
        return d
    if shoe.resolution == "rank":
        return d if shoe.rank_counts() == (4 * d,) * 13 else None
    return d if all(c == d for c in shoe.counts) else None


__all__ = ["CHECK_HANDS", "CUTS", "COUNT_SHOES", "DECKS_COMPARED", "DESIGN_SHOES", "HANDS", "MIN_BETS", "DeckColumn",
           "KnownCard", "MathReport", "Moments", "PERFECT_SHOES", "PERFECT_SHOES_RANK", "PayLine", "Penetration",
           "check_summary", "compare_decks", "first_card_known", "house_terms", "line_bets", "math_report",
           "pay_table", "perfect_and_cut", "probability_text", "signed_pct", "simulation_check", "sum_distribution"]
