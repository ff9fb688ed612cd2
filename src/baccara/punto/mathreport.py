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
  cut card's effect: :func:`~baccara.sim.count_analysis.perfect_shoe` (the exact
  expectation of every coup of simulated shoes).

Exact figures are fractions; simulated ones carry their standard errors (shoes
as clusters) and the seed.  :mod:`baccara.punto.report_html` turns the result
into a self-contained HTML page or a PDF.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rich.table import Table

from ..algebraic import fraction_str
from ..cards import RANKS
from ..errors import BaccaraError, ParameterError
from ..processes import default_workers
from ..result import Result
from ..rules import PUNTO_BANCO, Tableau
from ..shoe import Shoe
from ..sim.count_analysis import CountJob, analyse_count, perfect_shoe
from ..sim.count_design import design_count
from .bets import Bet, Rule
from .edgesort import best_sorting
from .events import describe_condition
from .exact import BetResult, applicable_bets, coerce_bet, coup_distribution, effects_of_removal, evaluate_bets
from .known import Known, rank_names

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
    """

    when: str
    pays: Fraction
    combinations: int
    deals: int

    @property
    def probability(self) -> Fraction:
        """The line's probability."""
        return Fraction(self.combinations, self.deals)

    @property
    def contribution(self) -> Fraction:
        """Its contribution to the bet's expected value: pays x probability."""
        return self.pays * self.probability

    def to_json(self) -> dict:
        return {"when": self.when, "pays": fraction_str(self.pays), "combinations": str(self.combinations),
                "probability": fraction_str(self.probability), "probability_float": float(self.probability),
                "contribution": fraction_str(self.contribution), "contribution_float": float(self.contribution)}


def pay_table(dist: Any, bet: Bet) -> list[PayLine]:
    """The bet's pay table, one line per rule (the first that holds pays) and one for ``otherwise``.

    Each line is counted exactly by an indicator bet (pays 1 when the line's rule is the
    first to hold, 0 otherwise) evaluated on the same coup distribution.

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
    indicators = []
    for i, rule in enumerate(bet.rules):
        rules = tuple(Rule(r.when, Fraction(0)) for r in bet.rules[:i]) + (Rule(rule.when, Fraction(1)),)
        indicators.append(Bet(f"line{i}", rules, otherwise=Fraction(0)))
    results = evaluate_bets(dist, indicators) if indicators else {}
    lines, taken, deals = [], 0, int(dist.deals)
    for i, rule in enumerate(bet.rules):
        r = results[f"line{i}"]
        n = sum(c for p, c in zip(r.payouts, r.counts) if p == 1)
        lines.append(PayLine(describe_condition(rule.when), rule.pays, n, deals))
        taken += n
    lines.append(PayLine("otherwise", bet.otherwise, deals - taken, deals))
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
        """The house's result after ``hands`` unit bets: exact mean, SD, a 95% interval (normal approximation).

        Parameters
        ----------
        hands : int
            Unit bets.

        Returns
        -------
        dict
            ``hands``, ``mean`` (exact and float), ``sd``, ``low`` and ``high`` (units), the same as
            percentages of the money bet, and ``p_house_ahead`` (normal approximation).
        """
        mean = hands * self.edge
        sd = math.sqrt(hands * self.variance)
        lo, hi = float(mean) - Z95 * sd, float(mean) + Z95 * sd
        return {"hands": hands, "mean": _num(mean), "sd": sd, "low": lo, "high": hi,
                "low_percent": 100 * lo / hands, "high_percent": 100 * hi / hands,
                "p_house_ahead": _normal_cdf(float(mean) / sd) if sd > 0 else float(mean > 0)}

    def to_json(self) -> dict:
        r = self.result
        out = {"edge": _num(self.edge), "edge_percent": float(self.edge) * 100, "ev": _num(r.ev),
               "hit_frequency": _num(self.hit_frequency), "p_win": _num(r.p_win), "p_push": _num(r.p_push),
               "p_loss": _num(r.p_loss), "variance": _num(self.variance), "sd": self.sd,
               "volatility_index": self.volatility_index, "volatility_index_z": Z_VI,
               "element_of_risk": None if self.element_of_risk is None else _num(self.element_of_risk)}
        return out


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
    """

    cut: int
    penetration: float
    count: Any
    perfect: dict
    cut_effect: dict

    def to_json(self) -> dict:
        return {"cut": self.cut, "penetration": self.penetration,
                "count": None if self.count is None else _count_json(self.count),
                "perfect": self.perfect, "cut_card_effect": self.cut_effect}


def _count_json(report: Any) -> dict:
    c = report.count

    def nn(x: float) -> float | None:
        return None if x is None or math.isnan(x) else x

    def est(e: Any) -> dict:
        return {"value": nn(e.value), "stderr": nn(e.stderr)}

    return {"shoes": c.shoes, "hands": c.hands, "bets": c.placed, "bet_frequency": est(c.bet_frequency),
            "edge_when_betting": est(c.edge_when_betting), "win_per_100_hands": est(c.win_per_100),
            "win_per_shoe": est(c.win_per_shoe), "sd_per_hand": nn(c.sd_per_hand), "seed": report.count_job.seed}


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
                    tableau: Tableau = PUNTO_BANCO) -> tuple[dict, dict]:
    """The perfect counter and the cut card's effect, from the exact expectation of every coup of ``shoes`` shoes.

    Each shoe is dealt to the cut card by :func:`~baccara.sim.count_analysis.perfect_shoe`, which
    prices the bet on every coup's unseen cards exactly.  The perfect counter bets when that
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

    Returns
    -------
    tuple of dict
        The perfect counter's figures and the cut card's effect, with standard errors.
    """
    job = CountJob(seed, shoes, decks, bet, None, cut, tableau, chunk_size=8)
    hands, placed, ev_all, ev_placed = [], [], [], []
    for i in range(shoes):
        d = perfect_shoe(job, i)
        hands.append(float(d.hands))
        placed.append(float(d.placed.sum()))
        ev_all.append(math.fsum(d.ev))
        ev_placed.append(math.fsum(d.ev[d.placed]))
    H = math.fsum(hands)
    win, win_se = _cluster_ratio(ev_placed, hands)
    freq, freq_se = _cluster_ratio(placed, hands)
    when, when_se = _cluster_ratio(ev_placed, placed) if math.fsum(placed) else (math.nan, math.nan)
    per_shoe = math.fsum(ev_placed) / shoes
    sd_shoe = (math.sqrt(math.fsum((e - per_shoe) ** 2 for e in ev_placed) / (shoes - 1)) if shoes > 1
               else math.nan)
    mean_ev, mean_se = _cluster_ratio(ev_all, hands)

    def nn(x: float) -> float | None:
        return None if math.isnan(x) else x

    perfect = {"shoes": shoes, "hands": int(H), "bets": int(math.fsum(placed)), "seed": seed,
               "bet_frequency": {"value": nn(freq), "stderr": nn(freq_se)},
               "edge_when_betting": {"value": nn(when), "stderr": nn(when_se)},
               "win_per_100_hands": {"value": nn(100 * win), "stderr": nn(100 * win_se)},
               "win_per_shoe": {"value": per_shoe, "stderr": nn(sd_shoe / math.sqrt(shoes))},
               "hands_per_shoe": H / shoes}
    effect = {"shoes": shoes, "hands": int(H), "seed": seed,
              "mean_ev_per_hand": {"value": nn(mean_ev), "stderr": nn(mean_se)},
              "full_shoe_ev": _num(exact_ev),
              "effect_on_house_edge": {"value": nn(-(mean_ev - float(exact_ev))), "stderr": nn(mean_se)}}
    return perfect, effect


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
        return [self.moments.house_result(n) for n in HANDS]

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
            d = self.design
            design = {"level": d.level, "tags": dict(zip(RANKS, [int(t) for t in d.tags])),
                      "betting_correlation": d.correlation, "rule": d.system.rules[0].describe(),
                      "trigger": d.best.at_least, "kind": d.kind, "initial_per_deck": d.system.initial_per_deck,
                      "design_shoes": d.shoes, "design_cut": d.cut, "seed": d.seed}
        return {
            "report": "math report",
            "bet": {"name": self.bet.name, "description": self.bet.description},
            "shoe": self.shoe.describe(),
            "tableau": self.tableau.name,
            "parameters": {k: fraction_str(v) for k, v in self.parameters.items()},
            "deals": str(self.deals),
            "pay_table": [line.to_json() for line in self.lines],
            "figures": self.moments.to_json(),
            "house_result": {"confidence": 0.95, "approximation": "normal", "rows": self.house_results()},
            "effects_of_removal": eor,
            "first_card_known": {"position": 1, "cards": [k.to_json() for k in self.known],
                                 "advantage_per_coup": _num(self.known_advantage)},
            "edge_sorting": sorting,
            "count": design,
            "penetrations": [p.to_json() for p in self.penetrations],
            "settings": self.settings,
            "notes": list(self.notes),
            "seconds": self.seconds,
        }

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
        for c in ("when", "pays", "combinations", "probability", "return"):
            t.add_column(c, justify="left" if c == "when" else "right")
        for ln in self.lines:
            t.add_row(ln.when, str(ln.pays), f"{ln.combinations:,}", f"{float(ln.probability):.8f}",
                      f"{float(ln.contribution):+.8f}")
        out.append(t)
        m = self.moments
        f = Table(title="Figures")
        f.add_column("figure")
        f.add_column("value", justify="right")
        f.add_column("exact", justify="right")
        f.add_row("house edge", _pct(m.edge), fraction_str(m.edge))
        f.add_row("hit frequency", _pct(m.hit_frequency), fraction_str(m.hit_frequency))
        f.add_row("standard deviation", f"{m.sd:.6f}", f"sqrt({fraction_str(m.variance)})")
        f.add_row("volatility index (1.645 SD)", f"{m.volatility_index:.6f}", "")
        if m.element_of_risk is not None:
            f.add_row("element of risk", _pct(m.element_of_risk), fraction_str(m.element_of_risk))
        out.append(f)
        h = Table(title="The house's result (units), 95% interval")
        for c in ("hands", "expected", "SD", "low", "high", "house ahead"):
            h.add_column(c, justify="right")
        for r in self.house_results():
            h.add_row(f"{r['hands']:,}", f"{r['mean']['float']:,.1f}", f"{r['sd']:,.1f}", f"{r['low']:,.1f}",
                      f"{r['high']:,.1f}", f"{r['p_house_ahead']:.4f}")
        out.append(h)
        if self.removal is not None:
            base, effects = self.removal
            e = Table(title="Effects of removal (change in the house edge, one card removed)")
            e.add_column("rank")
            e.add_column("effect", justify="right")
            for x in effects:
                e.add_row(x.rank, "-" if x.effect is None else f"{float(x.effect) * 100:+.6f}%")
            out.append(e)
        k = Table(title=f"First card known: advantage {_pct(self.known_advantage)} per coup")
        for c in ("card", "probability", "EV", "bet?"):
            k.add_column(c, justify="right")
        for x in self.known:
            k.add_row(x.card, f"{float(x.probability):.6f}", _pct(x.ev, sign="+"), "yes" if x.ev > 0 else "")
        out.append(k)
        for n, s in self.sorting.items():
            b = s.best
            out.append(f"Edge sorting, {n} card{'s' if n > 1 else ''} read: sort "
                       f"{{{', '.join(RANKS[r] for r in sorted(b.sorted_ranks))}}} from the rest, advantage "
                       f"{_pct(b.advantage)} per coup")
        if self.design is not None:
            d = self.design
            out.append(f"Best linear count (level {d.level}): tags "
                       f"{', '.join(f'{r}={int(t):+d}' for r, t in zip(RANKS, d.tags))}; betting correlation "
                       f"{d.correlation:.4f}; {d.system.rules[0].describe()}")
        for p in self.penetrations:
            parts = []
            if p.count is not None:
                c = p.count.count.win_per_100
                parts.append(f"the count wins {_fmt(c.value)} ± {_fmt(c.stderr, '.4f')} per 100 hands")
            if p.perfect:
                w = p.perfect["win_per_100_hands"]
                parts.append(f"the perfect counter {_fmt(w['value'])} ± {_fmt(w['stderr'], '.4f')}")
            if p.cut_effect:
                e = p.cut_effect["effect_on_house_edge"]
                parts.append(f"the cut card changes the house edge by {_fmt(_scaled(e['value']), '+.5f')}% ± "
                             f"{_fmt(_scaled(e['stderr']), '.5f')}%")
            out.append(f"Cut {p.cut} ({p.penetration:.1%} dealt): {'; '.join(parts) or 'nothing simulated'}")
        out.extend(f"Note: {n}" for n in self.notes)
        return out


def _scaled(x: float | None) -> float | None:
    return None if x is None else 100 * x


def _fmt(x: float | None, spec: str = "+.4f") -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else format(x, spec)


def _positive_int(value: Any, name: str, lo: int = 0, hi: int = 10**9) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ParameterError(f"{name} must be an integer from {lo:,} to {hi:,}, got {value!r}")
    return value


def math_report(shoe: Shoe | int, bet: Bet | str, *, tableau: Tableau = PUNTO_BANCO,
                parameters: dict | None = None, seed: int = 0, design_shoes: int = DESIGN_SHOES,
                count_shoes: int = COUNT_SHOES, perfect_shoes: int | None = None,
                cuts: tuple[int, ...] | None = None, level: int = LEVEL, workers: int | None = None,
                sort_cards: tuple[int, ...] = SORT_CARDS, progress: Any = None) -> MathReport:
    """The math report of one bet on one shoe.

    Parameters
    ----------
    shoe : Shoe or int
        The shoe, or a number of fresh decks.  The simulated sections (count, perfect counter,
        cut card) need fresh decks; on another shoe they are left out, with a note.
    bet : Bet or str
        The bet, or the name of a built-in bet.
    tableau : Tableau
        The drawing rules.
    parameters : dict, optional
        The house parameters the bet was built with (commission, tie and Super 6 payouts), reported.
    seed : int
        The seed: the count is designed on shoes of ``seed`` and measured, with the perfect
        counter, on shoes of ``seed + 1``.
    design_shoes : int
        Shoes on which the count's trigger is chosen (default :data:`DESIGN_SHOES`).
    count_shoes : int
        Shoes on which the count is measured at each cut (default :data:`COUNT_SHOES`); 0: no
        simulation at all.
    perfect_shoes : int, optional
        Shoes for the perfect counter and the cut card's effect at each cut (default
        :data:`PERFECT_SHOES`, :data:`PERFECT_SHOES_RANK` for bets on ranks).
    cuts : tuple of int, optional
        Cards behind the cut card, one simulation each (default: those of :data:`CUTS` that the
        shoe allows, at most 52 x decks - 11).
    level : int
        Tags of the designed count from -level to level (1, 2 or 3).
    workers : int, optional
        Threads for the count's simulations (default: all cores).
    sort_cards : tuple of int
        Cards read in the edge-sorting sections (1 to 4 each).
    progress : callable, optional
        Called with a line as each section starts.

    Returns
    -------
    MathReport
        Every figure, exact where exact, simulated with standard errors and the seed.
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
    seed = _positive_int(seed, "--seed", 0, 2**63 - 2)
    design_shoes = _positive_int(design_shoes, "--design-shoes", 1, 10**9)
    count_shoes = _positive_int(count_shoes, "--count-shoes", 0, 10**12)
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
    if not applicable_bets(shoe, {bet.name: bet}):
        raise ParameterError(f"--bet {bet.name}: it needs a shoe known by {bet.resolution}; this shoe is known only "
                             f"by {shoe.resolution}")
    notes: list[str] = list(notes_first)
    say("exact figures")
    dist = coup_distribution(shoe, tableau)
    result = evaluate_bets(dist, (bet,))[bet.name]
    lines = pay_table(dist, bet)
    removal = None
    say("effects of removal")
    try:
        removal = effects_of_removal(shoe, bet, tableau)
    except BaccaraError as e:
        notes.append(f"effects of removal: {e}")
    say("first card known")
    known = first_card_known(shoe, bet, tableau)
    sorting = {}
    if bet.card_level and sort_cards:
        notes.append("edge sorting: the search prices the bet in every pattern of 511 sortings, and a bet on the "
                     "cards themselves takes the card-level engine tenths of a second or more each time; analyse "
                     "one sorting with 'baccara edgesort --sorted RANKS --only " + bet.name + "'")
    for k in sort_cards if not bet.card_level else ():
        say(f"edge sorting, {k} card{'s' if k > 1 else ''} read")
        sorting[k] = best_sorting(shoe, k, "value", {bet.name: bet}, tableau, among=[bet.name], top=3)
    decks = _fresh_decks(shoe)
    design = None
    penetrations: list[Penetration] = []
    settings = {"seed": seed, "design_seed": seed, "count_seed": seed + 1, "design_shoes": design_shoes,
                "count_shoes": count_shoes, "perfect_shoes": perfect_shoes, "cuts": [], "level": level,
                "sort_by": "value"}
    if decks is None:
        notes.append("the count, the perfect counter and the cut card's effect are simulated on fresh decks only; "
                     f"this shoe ({shoe.label()}) is not fresh decks, so they are left out")
    elif count_shoes == 0:
        notes.append("no simulation asked for (count shoes 0): the count, the perfect counter and the cut card's "
                     "effect are left out")
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
                                  workers=workers or default_workers())
        except BaccaraError as e:  # a bet no linear count tracks (the pairs), or no trigger that wins
            notes.append(f"best linear count: {getattr(e, 'cli_message', e)}")
        for cut in cuts:
            count = None
            if design is not None:
                say(f"count at cut {cut} on {count_shoes:,} shoes")
                try:
                    count = analyse_count(design.system, bet, decks=decks, shoes=count_shoes, seed=seed + 1, cut=cut,
                                          perfect_shoes=0, tableau=tableau, workers=workers)
                except BaccaraError as e:  # the trigger never fired on these shoes
                    notes.append(f"count at cut {cut}: {getattr(e, 'cli_message', e)}")
            perfect: dict = {}
            effect: dict = {}
            if perfect_shoes:
                say(f"perfect counter and cut card at cut {cut} on {perfect_shoes:,} shoes")
                try:
                    perfect, effect = perfect_and_cut(bet, decks, cut, perfect_shoes, seed + 1, result.ev, tableau)
                except BaccaraError as e:  # payouts too large for the per-shoe sums
                    notes.append(f"perfect counter at cut {cut}: {getattr(e, 'cli_message', e)}")
            penetrations.append(Penetration(cut, 1 - cut / (52 * decks), count, perfect, effect))
        settings["cuts"] = list(cuts)
    return MathReport(shoe, tableau, bet, dict(parameters or {}), int(dist.deals), lines, Moments(result), removal,
                      known, sorting, design, penetrations, settings, notes, time.perf_counter() - t0)


def _fresh_decks(shoe: Shoe) -> int | None:
    """d when ``shoe`` is d fresh decks at its resolution (what the simulations deal), else None."""
    d = shoe.fresh_decks()
    if d is None or shoe.resolution == "value":
        return d
    if shoe.resolution == "rank":
        return d if shoe.rank_counts() == (4 * d,) * 13 else None
    return d if all(c == d for c in shoe.counts) else None


__all__ = ["CUTS", "COUNT_SHOES", "DESIGN_SHOES", "HANDS", "KnownCard", "MathReport", "Moments", "PERFECT_SHOES",
           "PERFECT_SHOES_RANK", "PayLine", "Penetration", "first_card_known", "math_report", "pay_table",
           "perfect_and_cut"]
