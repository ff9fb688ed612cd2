"""Count design: tags from the exact effects of removal, the trigger from one pass over real shoes.

:func:`design_count` builds a count system for one bet:

1. **Effects of removal.**  The exact change in the player's expectation when
   one card of each rank leaves the full shoe (:func:`baccara.punto.exact.effects_of_removal`;
   the player's side is minus the house edge's).
2. **Ideal tags.**  The least-squares linear fit of the expectation on the
   cards seen is, to first order, the effects themselves, centred on their
   mean over the 13 ranks (a constant tag carries no information); a card whose
   removal helps the player counts up (Griffin, *The Theory of Blackjack*, ch. 4).
3. **Integer tags.**  The ideal tags times a scale, rounded and clipped to
   ``[-level, level]``; the scale is the one whose tags have the highest
   *betting correlation* with the effects (Pearson's correlation over the 13
   ranks, Griffin's measure of a count's power for betting).  Unbalanced tags
   start the count at ``-4 x (sum of tags)`` a deck, so that the true count is
   -52 times the mean tag of the unseen cards, balanced or not.
4. **Trigger.**  One pass over real shoes (burn, cut card) records, for every
   coup, the true (or running) count before it and the bet's result, in bins
   of ``step``; for every threshold t the win of betting when the count is at
   least t is then a sum over bins, so every candidate is evaluated on the
   same shoes, and the best is the one with the largest win.  Measure the
   chosen count on other shoes (another seed: ``baccara count``), since a
   trigger picked on a sample flatters that sample.

A bet whose effects are all equal (the pairs, from a full shoe: the chance of
a pair depends on the squares of the rank counts, so removing any one card
changes it alike) cannot be tracked by a linear count; :func:`design_count`
says so.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import numpy as np
from numba import njit
from rich.console import RenderableType

from ..algebraic import fraction_str
from ..cards import RANKS
from ..errors import BaccaraError, ParameterError
from ..punto.bets import Bet
from ..punto.exact import coerce_bet, effects_of_removal
from ..result import Result
from ..rules import PUNTO_BANCO, Tableau
from ..shoe import Shoe
from ._punto_kernel import card_codes, card_level
from .count_analysis import DEFAULT_COUNT_CUT
from .counting import BetRule, CountSystem
from .gpu import check_gpu, histogram_gpu
from .punto import bet_table, card_table, check_deal, check_seed, check_shoes
from .report import _table
from .shoe_deal import CUT, deal_shoe, deck_template, max_coups_cut, shoe_key

#: Count levels: tags are integers from -level to level.
LEVELS = (1, 2, 3)
#: Shoes a thread deals between two reports of progress (when asked for): a fraction of a second.
PROGRESS_CHUNK = 20_000
#: The count's bins: from LOW to HIGH in steps of STEP (true counts beyond fall in the end bins).
TRUE_LOW, TRUE_HIGH, STEP = -40.0, 40.0, 0.5


def removal_effects(decks: int, bet: Bet, tableau: Tableau = PUNTO_BANCO) -> tuple[Fraction, list[Fraction]]:
    """The bet's exact expectation and the change in it when one card of each rank (A..K) is removed.

    Parameters
    ----------
    decks : int
        Decks in the full shoe.
    bet : Bet
        The bet.
    tableau : Tableau
        The drawing rules.

    Returns
    -------
    tuple
        The expectation (Fraction) and 13 effects on the player's expectation (Fractions), A..K.
    """
    base, effects = effects_of_removal(Shoe.decks(decks), bet, tableau)
    out = []
    for e in effects:
        if e.effect is None:
            raise ParameterError(f"--decks {decks}: too few cards to remove one of rank {e.rank}")
        out.append(-e.effect)
    return -base, out


def betting_correlation(tags, effects) -> float:
    """Pearson's correlation over the 13 ranks between tags and effects of removal (Griffin).

    Parameters
    ----------
    tags, effects : sequence of float
        One value per rank, A..K.

    Returns
    -------
    float
        The correlation, in [-1, 1] (0 when either does not vary).
    """
    t, e = np.asarray(tags, dtype=float), np.asarray(effects, dtype=float)
    t, e = t - t.mean(), e - e.mean()
    d = math.sqrt(float(t @ t) * float(e @ e))
    return float(t @ e) / d if d else 0.0


def integer_tags(ideal, level: int) -> tuple[tuple[int, ...], float]:
    """Integer tags in [-level, level] with the highest betting correlation with ``ideal``.

    Every scale at which a rounded tag changes is tried (scaled so the largest ideal tag
    spans 0.5 to 4 x level); ties go to the smaller tags.

    Parameters
    ----------
    ideal : sequence of float
        The ideal tags (13, A..K).
    level : int
        1, 2 or 3.

    Returns
    -------
    tuple
        The tags and their betting correlation with ``ideal``.
    """
    if level not in LEVELS:
        raise ParameterError(f"--level must be 1, 2 or 3 (tags from -level to level), got {level!r}")
    x = np.asarray(ideal, dtype=float)
    top = float(np.abs(x).max())
    if top == 0 or not np.ptp(x) > 1e-12 * top:
        raise BaccaraError("the effects of removal are all equal: no linear count tracks this bet")
    best: tuple[float, int, tuple[int, ...]] | None = None
    for s in np.linspace(0.5, 4 * level, 4000) / top:
        t = np.clip(np.rint(x * s), -level, level).astype(int)
        if not t.any():
            continue
        bc = betting_correlation(t, x)
        key = (round(bc, 12), -int(np.abs(t).sum()))
        if best is None or key > (round(best[0], 12), -best[1]):
            best = (bc, int(np.abs(t).sum()), tuple(int(v) for v in t))
    assert best is not None
    return best[2], best[0]


# ---------------------------------------------------------------- the trigger
@njit(cache=True, nogil=True)
def _histogram(seed, first, n, template, cut, pdraw, bdraw, pay, tags, initial, running, low, step, card, cpay, prog,
               hn, hv):
    """Shoes first .. first + n - 1: per bin of the count before each coup, coups and the bet's net.

    ``card``: the bet's index in the rule program ``prog`` when it reads the cards themselves (its payouts
    ``cpay``; :func:`baccara.sim.punto.card_table`); ``prog`` None: a bet on the cells (its payouts ``pay``)."""
    nb = hn.size
    fv = np.zeros(0, dtype=np.int64)
    if prog is not None:
        fv = np.zeros(prog[0].size, dtype=np.int64)
    size = template.size
    deck = np.empty(size, dtype=np.uint8)
    cap = max_coups_cut(size, cut)
    starts = np.empty(cap, dtype=np.int64)
    cells = np.empty(cap, dtype=np.int64)
    for i in range(n):
        _, nc, burned, end, top = deal_shoe(deck, template, CUT, True, cut, 0, shoe_key(seed, first + i), pdraw,
                                            bdraw, starts, cells)
        rc = initial + tags[top >> 2]
        hidden = burned - 1
        for j in range(nc):
            pos = starts[j]
            x = rc if running else rc * 52.0 / (size - pos + hidden)
            k = int(np.floor((x - low) / step))
            k = min(max(k, 0), nb - 1)
            hn[k] += 1
            if prog is None:
                hv[k] += pay[cells[j]]
            else:
                card_codes(deck, pos, cells[j], prog, fv)
                hv[k] += cpay[card_level(card, fv, prog)]
            for c in range(pos, starts[j + 1] if j + 1 < nc else end):
                rc += tags[deck[c] >> 2]


def count_histogram(system: CountSystem, bet: Bet, decks: int, cut: int, shoes: int, seed: int,
                    running: bool = False, tableau: Tableau = PUNTO_BANCO, workers: int = 1,
                    low: float = TRUE_LOW, high: float = TRUE_HIGH, step: float = STEP,
                    backend: str = "threads", progress: Callable[..., None] | None = None
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """Coups and the bet's net result by the count before the coup, over ``shoes`` real shoes.

    Parameters
    ----------
    system : CountSystem
        Its tags and initial count (its betting rules are not used).
    bet : Bet
        The bet.
    decks, cut, shoes, seed : int
        The shoe, the cards behind the cut card, how many shoes, the seed (shoe i is the one
        every simulation of this seed deals).
    running : bool
        Bin the running count (default: the true count).
    tableau : Tableau
        The drawing rules.
    workers : int
        Threads.
    low, high, step : float
        The bins: [low + k step, low + (k + 1) step); counts outside fall in the end bins.
    backend : str
        ``"threads"`` (``workers`` of them) or ``"gpu"`` (:func:`baccara.sim.gpu.histogram_gpu`: the same bins,
        coups and net).
    progress : callable, optional
        ``progress(shoes_done, shoes, "shoes")`` after each chunk of shoes on the threads (it may raise, to stop
        the run): the web app's job.  The sums do not depend on the chunks.  The GPU's histogram is one launch:
        it reports nothing.

    Returns
    -------
    tuple
        The bins' lower edges, coups per bin, net per bin (units of 1 / den, exact integers), den.
    """
    check_seed(seed)
    check_shoes(shoes)
    check_deal(decks, "cut", cut, 0)
    edges = np.arange(low, high, step)
    pay, dens = bet_table((bet,))
    card, cpay, prog = card_table((bet,))
    template = deck_template(decks)
    base = (template, cut, tableau.player_array, tableau.banker_array, np.ascontiguousarray(pay[:, 0]),
            system.tag_array(), float(system.start(decks)), running, low, step)
    if backend == "gpu":
        hn, hv = histogram_gpu(seed, shoes, *base, edges.size, int(card[0]), cpay[0], prog)
        return edges, hn, hv, dens[0]
    args = (*base, int(card[0]), np.ascontiguousarray(cpay[0]), prog if card[0] >= 0 else None)
    bounds = [shoes * i // max(workers, 1) for i in range(max(workers, 1) + 1)]
    parts = [(np.zeros(edges.size, dtype=np.int64), np.zeros(edges.size, dtype=np.int64)) for _ in bounds[1:]]

    done, lock = [0], threading.Lock()

    def work(i: int) -> None:
        step_ = bounds[i + 1] - bounds[i] if progress is None else PROGRESS_CHUNK
        for first in range(bounds[i], bounds[i + 1], max(step_, 1)):
            n = min(step_, bounds[i + 1] - first)
            _histogram(seed, first, n, *args, *parts[i])  # integer sums: the same whatever the chunks
            if progress is not None:
                with lock:
                    done[0] += n
                    progress(done[0], shoes, "shoes")

    with ThreadPoolExecutor(max_workers=max(workers, 1)) as pool:
        list(pool.map(work, range(len(parts))))
    hn = np.sum([p[0] for p in parts], axis=0)
    hv = np.sum([p[1] for p in parts], axis=0)
    return edges, hn, hv, dens[0]


@dataclass(frozen=True)
class Trigger:
    """Bet when the count is at least ``at_least``: its bet frequency, edge when betting and win per 100 hands."""

    at_least: float
    bets: int
    hands: int
    net: Fraction

    @property
    def frequency(self) -> float:
        return self.bets / self.hands

    @property
    def edge(self) -> float:
        return float(self.net / self.bets) if self.bets else math.nan

    @property
    def win_per_100(self) -> float:
        return float(100 * self.net / self.hands)

    def to_json(self) -> dict:
        return {"at_least": self.at_least, "bets": self.bets, "bet_frequency": self.frequency,
                "edge_when_betting": self.edge if self.bets else None, "win_per_100_hands": self.win_per_100}


def triggers(edges: np.ndarray, hn: np.ndarray, hv: np.ndarray, den: int) -> list[Trigger]:
    """Every threshold at a bin edge (the lowest excluded: it would bet every hand), from the histogram.

    Parameters
    ----------
    edges, hn, hv : numpy.ndarray
        :func:`count_histogram`'s bins, coups and net.
    den : int
        The bet's payout denominator.

    Returns
    -------
    list of Trigger
        One per bin edge above the first, ascending.
    """
    hands = int(hn.sum())
    cn, cv = np.cumsum(hn[::-1])[::-1], np.cumsum(hv[::-1])[::-1]
    return [Trigger(float(edges[k]), int(cn[k]), hands, Fraction(int(cv[k]), den)) for k in range(1, edges.size)]


@dataclass(repr=False)
class CountDesign(Result):
    """A count designed for one bet: effects of removal, tags, betting correlation, the trigger.

    ``system`` is the count; :meth:`to_toml` its file for ``baccara count --count``.
    """

    bet: str
    decks: int
    level: int
    cut: int
    shoes: int
    seed: int
    base: Fraction
    effects: list[Fraction]
    ideal: list[float]
    tags: tuple[int, ...]
    correlation: float
    kind: str
    table: list[Trigger]
    best: Trigger
    system: CountSystem
    tie_pays: str | None = None

    def to_json(self) -> dict:
        """The design as JSON.

        Returns
        -------
        dict
            Effects of removal (exact and float), tags, betting correlation, the best trigger,
            every trigger with a positive win, and the count system.
        """
        return {
            "bet": self.bet, "decks": self.decks, "level": self.level, "cut": self.cut, "shoes": self.shoes,
            "seed": self.seed, "ev": float(self.base), "ev_exact": fraction_str(self.base),
            "effects_of_removal": {r: {"value": float(e), "exact": fraction_str(e)}
                                   for r, e in zip(RANKS, self.effects)},
            "ideal_tags": dict(zip(RANKS, self.ideal)),
            "tags": dict(zip(RANKS, self.tags)), "balanced": self.system.balanced,
            "betting_correlation": self.correlation, "count": self.kind,
            "trigger": self.best.to_json(),
            "triggers": [t.to_json() for t in self.table if t.net > 0 or t is self.best],
            "system": self.system.to_json(),
        }

    def summary(self) -> str:
        return (f"{self.bet}, {self.decks} decks, level {self.level}: tags "
                f"{' '.join(f'{r}{t:+d}' for r, t in zip(RANKS, self.tags) if t)}, betting correlation "
                f"{self.correlation:.3f}; bet when the {self.kind} count >= {self.best.at_least:g}")

    def renderables(self) -> list[RenderableType]:
        t = _table(f"{self.bet}: effects of removal on the player's edge (minus those on the house edge that "
                   f"'baccara eor' shows), per card removed, and tags",
                   ("rank", "effect on the player's edge, %", "ideal", "tag"))
        for r, e, i, g in zip(RANKS, self.effects, self.ideal, self.tags):
            t.add_row(r, f"{float(e) * 100:+.5f}", f"{i:+.3f}", f"{g:+d}")
        lines: list[RenderableType] = [self.summary(), t]
        tt = _table(f"Triggers on {self.shoes:,} shoes (seed {self.seed}, cut {self.cut}), best first",
                    ("bet when >=", "bet frequency, %", "player's edge when betting, %", "win per 100 hands"))
        for tr in sorted(self.table, key=lambda x: x.net, reverse=True)[:8]:
            tt.add_row(f"{tr.at_least:g}", f"{tr.frequency * 100:.3f}", f"{tr.edge * 100:+.3f}",
                       f"{tr.win_per_100:+.4f}")
        lines += [tt, "measure the count on other shoes (another --seed) with 'baccara count': a trigger "
                      "picked on a sample flatters that sample"]
        return lines

    def to_toml(self) -> str:
        """The count as a TOML file for ``baccara count --count`` and ``baccara simulate punto --count``.

        Returns
        -------
        str
            The file's text.
        """
        s = self.system
        lines = [f"# Designed by `baccara count design --decks {self.decks} --bet {self.bet} --level {self.level}"
                 + (f" --tie-pays {self.tie_pays}" if self.tie_pays else "")
                 + f" --shoes {self.shoes} --seed {self.seed} --cut {self.cut}`:",
                 f"# tags from the exact effects of removal (betting correlation {self.correlation:.3f}), the trigger",
                 f"# the best of every threshold on those shoes (bet frequency {self.best.frequency * 100:.2f}%, "
                 f"edge when betting {self.best.edge * 100:+.2f}%).",
                 *([f"# Unbalanced: the true count sits near {s.initial_per_deck:g} on a neutral shoe (-52 x the mean "
                    f"tag of the unseen cards), so the trigger is {self.best.at_least - s.initial_per_deck:+g} from "
                    f"there."] if s.initial_per_deck else []),
                 f"name = {_q(s.name)}",
                 f"description = {_q(s.description)}",
                 f"balanced = {'true' if s.balanced else 'false'}",
                 f"cut = {self.cut}"]
        if s.initial_per_deck:
            lines.append(f"initial_per_deck = {s.initial_per_deck:g}")
        lines += ["", "[tags]"]
        lines += [f"{_q(r)} = {t}" for r, t in zip(RANKS, self.tags) if t]
        lines += ["", "[[bets]]", f"name = {_q(self.bet)}", f"count = {_q(self.kind)}",
                  f"at_least = {self.best.at_least:g}", ""]
        return "\n".join(lines)


def _q(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def design_count(decks: int, bet: Bet | str, level: int = 2, *, shoes: int = 100_000, seed: int = 0,
                 cut: int = DEFAULT_COUNT_CUT, kind: str = "true", tableau: Tableau = PUNTO_BANCO,
                 workers: int = 1, tie_pays: str | None = None, backend: str = "threads",
                 progress: Callable[..., None] | None = None) -> CountDesign:
    """Design a count for ``bet``: tags from the exact effects of removal, the best trigger on real shoes.

    Parameters
    ----------
    decks : int
        Decks in the shoe.
    bet : Bet or str
        The bet, or the name of a built-in bet.
    level : int
        1, 2 or 3: tags are integers from -level to level.
    shoes : int
        Shoes on which every trigger is evaluated.
    seed : int
        Their seed.
    cut : int
        Cards behind the cut card.
    kind : str
        ``"true"`` (running count per deck unseen) or ``"running"``.
    tableau : Tableau
        The drawing rules.
    workers : int
        Threads.
    tie_pays : str, optional
        Recorded in the TOML's comment (how the bet was built).
    backend : str
        ``"threads"`` (``workers`` of them) or ``"gpu"`` (:func:`baccara.sim.gpu.count_histogram_gpu`: the
        same histogram).
    progress : callable, optional
        ``progress(shoes_done, shoes, "shoes")`` as the histogram fills on the threads (it may raise, to stop
        the run; the GPU's histogram reports nothing).

    Returns
    -------
    CountDesign
        The tags, their betting correlation, every trigger's figures and the count system.

    Raises
    ------
    BaccaraError
        A bad level or kind, a bet no linear count tracks, or no trigger that wins.
    """
    bet = coerce_bet(bet)
    if kind not in ("true", "running"):
        raise ParameterError(f"--kind must be true or running, got {kind!r}")
    if level not in LEVELS:
        raise ParameterError(f"--level must be 1, 2 or 3 (tags from -level to level), got {level!r}")
    if backend not in ("threads", "gpu"):
        raise ParameterError(f"--backend of count design must be threads or gpu, got {backend!r}")
    if backend == "gpu":
        check_gpu()
    base, effects = removal_effects(decks, bet, tableau)
    e = np.array([float(x) for x in effects])
    ideal = e - e.mean()
    if np.ptp(e) <= 1e-15 * max(float(np.abs(e).max()), 1e-300):
        raise ParameterError(f"--bet {bet.name}: its effects of removal are all equal from a full {decks}-deck shoe "
                           f"(a pair's chance depends on the squares of the rank counts), so no linear count "
                           f"tracks it; try the perfect counter (baccara count --count FILE shows it)")
    tags, bc = integer_tags(ideal, level)
    per_deck = -4.0 * sum(tags)
    name = f"{bet.name} level {level} (designed)"
    probe = CountSystem(name, tuple(float(t) for t in tags), (BetRule(bet.name, kind, 0.0),),
                        initial_per_deck=per_deck, cut=cut)
    edges, hn, hv, den = count_histogram(probe, bet, decks, cut, shoes, seed, kind == "running", tableau, workers,
                                         backend=backend, progress=progress)
    table = triggers(edges, hn, hv, den)
    best = max(table, key=lambda t: (t.net, -t.bets))
    if best.net <= 0:
        raise ParameterError(f"--bet {bet.name}: no trigger of this count wins on {shoes:,} shoes (the best, "
                           f"{kind} count >= {best.at_least:g}, wins {float(best.net):+.2f} units); the bet may not "
                           f"be countable with a level-{level} count at cut {cut}")
    system = CountSystem(name, probe.tags, (BetRule(bet.name, kind, best.at_least),), initial_per_deck=per_deck,
                         cut=cut, description=f"Bet {bet.name} when the {kind} count is {best.at_least:g} or more")
    return CountDesign(bet.name, decks, level, cut, shoes, seed, base, effects, [float(x) for x in ideal / np.abs(ideal).max()],
                       tags, bc, kind, table, best, system, tie_pays)


def write_design(design: CountDesign, path: str | Path) -> None:
    """Write the designed count's TOML file.

    Parameters
    ----------
    design : CountDesign
        The design.
    path : str or Path
        The file.
    """
    try:
        Path(path).write_text(design.to_toml(), encoding="utf-8")
    except OSError as e:
        raise ParameterError(f"--out: cannot write {path}: {e.strerror or e}") from None
