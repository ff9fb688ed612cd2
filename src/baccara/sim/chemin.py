"""Chemin de fer sessions on real shoes: the rotating bank, its stakes, the commission.

The rules (Wikipedia 2019, "Chemin de fer"; Ethier and Lee (2023), section 1):

* The role of Banker rotates among the players; it changes hands after a
  Banker loss (or when Banker withdraws).  Banker announces the amount he
  risks (the *bank*); the punters' total stake equals the bank (we assume it
  is always covered, shared equally among the other seats).
* After a Banker win the winnings are added to the bank (so the bank grows
  to bank * (2 - alpha)) unless Banker withdraws; the house collects the
  commission alpha on Banker wins (5% in the casino game, up to 10%).
* A tie changes nothing.  A Player win pays the punters from the bank; the
  bank passes to the next seat, who opens a new bank at the initial stake.
* Play: Player must draw on 0-4 and stand on 6-7; at 5 he draws with
  probability p.  Banker, seeing his two cards (Model 2: his composition)
  and Player's third card (or that Player stood), draws with the probability
  his strategy gives at that information set.  Naturals end the coup.

A **strategy** is p and a 44 x 11 table of Banker's drawing probabilities
(his two-card composition j1 <= j2 with total 0-7, by Player's third card
0-9 or "none"): the punto banco tableau, an equilibrium of
:func:`baccara.chemin.solution.solve_chemin` (Models 1 and 2), or a
user's TOML table.  The exact per-coup expectations of any strategy pair
come from the exact game (:func:`baccara.chemin.chemin_game`, Model
B2 for a d-deck shoe, A2 with replacement): the per-coup gains of the
simulation are checked against them.

A session is one shoe dealt to the cut card and one more coup (or ``coups`` coups of an
infinite shoe); the first seat holds the first bank.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from .. import params
from ..algebraic import fraction_str
from ..chemin.kernel import COMP_INDEX, COMPOSITIONS, NONE
from ..errors import BaccaraError, ParameterError
from ..rules import PUNTO_BANCO, player_draws_jit
from ..shoe import a_decks
from ..tomlfile import read_toml
from .distributed import run
from .limits import MAX_DENOMINATOR
from .punto import (
    DEFAULT_COUPS,
    DEFAULT_CUT,
    check_deal,
    check_seed,
    check_shoes,
    max_coups,
)
from .report import SimResult, chemin_report
from .results import ChunkResult, Estimate, column_sums, fnum, in_blocks, ratio
from .shoe_deal import CUT, DEAL_MODES, VALUE, burn, coup_start, draw, shoe_key, uniform

THIRD = tuple(str(k) for k in range(10)) + ("none",)


# ---------------------------------------------------------------- strategies
@dataclass(frozen=True)
class CheminStrategy:
    """Player's probability of drawing at 5 and Banker's drawing probabilities
    ``banker[c][k]`` by composition c (:data:`COMPOSITIONS` order) and Player's third card k (10: stood)."""

    name: str
    draw_at_5: Fraction
    banker: tuple[tuple[Fraction, ...], ...]

    def __post_init__(self) -> None:
        if not 0 <= self.draw_at_5 <= 1:
            raise BaccaraError(f"Player's probability of drawing at 5 must be in [0, 1], got {self.draw_at_5}")
        if len(self.banker) != 44 or any(len(r) != 11 for r in self.banker):
            raise BaccaraError("Banker's strategy needs 44 compositions x 11 third cards")

    def with_draw_at_5(self, p: Fraction) -> CheminStrategy:
        return CheminStrategy(self.name, Fraction(p), self.banker)

    def arrays(self) -> tuple[float, np.ndarray]:
        return float(self.draw_at_5), np.array([[float(q) for q in row] for row in self.banker], dtype=np.float64)

    def mixed(self) -> dict[str, str]:
        """Banker's information sets where he mixes, labelled like the solver's ``(3,3)|6``."""
        out = {}
        for c, (j1, j2) in enumerate(COMPOSITIONS):
            for k in range(11):
                q = self.banker[c][k]
                if 0 < q < 1:
                    out[f"({j1},{j2})|{THIRD[k]}"] = fraction_str(q)
        return out

    def to_json(self) -> dict:
        p = self.draw_at_5
        return {"name": self.name, "player_draw_at_5": fraction_str(p),
                "banker_mixed": self.mixed(),
                "banker_table": [[_move(self.banker[COMPOSITIONS.index(c)][k]) for k in range(11)]
                                 for c in _by_total_representatives()]}


def _move(q: Fraction) -> str:
    return "D" if q == 1 else "S" if q == 0 else "M"


def _by_total_representatives() -> list[tuple[int, int]]:
    return [next(c for c in COMPOSITIONS if (c[0] + c[1]) % 10 == t) for t in range(8)]


def tableau_strategy(draw_at_5: Fraction = Fraction(1)) -> CheminStrategy:
    """Banker plays the punto banco tableau; Player draws at 5 with probability ``draw_at_5`` (tableau: 1)."""
    rows = []
    for j1, j2 in COMPOSITIONS:
        t = (j1 + j2) % 10
        rows.append(tuple(Fraction(int(PUNTO_BANCO.banker_draws_on(t, None if k == NONE else k))) for k in range(11)))
    return CheminStrategy("punto banco tableau", Fraction(draw_at_5), tuple(rows))


def equilibrium_strategy(decks: int | None, alpha: Fraction, model: str = "B2", which: int = 0) -> CheminStrategy:
    """The Nash equilibrium of :func:`~baccara.chemin.solution.solve_chemin` (Model 1 or 2).

    ``model``: ``A1`` / ``A2`` deal with replacement (an infinite shoe, ``decks=None``),
    ``B1`` / ``B2`` from a finite shoe of ``decks`` decks; a bare ``1`` / ``2`` takes its
    letter from ``decks``.  A model contradicting ``decks`` is an error, never
    silently replaced.  Information sets the game drops (never reached, or where
    drawing changes nothing) keep the tableau's move.
    """
    from ..chemin.model import chemin_game  # lazy: equilibrium play only
    from ..chemin.solution import solve_chemin  # lazy: equilibrium play only

    model = check_model_for_decks(model, decks)
    sol = solve_chemin(chemin_game(model, decks), Fraction(alpha))
    eqs = sol.nash.equilibria
    if not eqs:
        raise BaccaraError(f"no equilibrium found for Model {model}, decks {decks}, commission {alpha}")
    eq = eqs[min(which, len(eqs) - 1)]
    rows = [list(r) for r in tableau_strategy().banker]
    for i, (hand, k) in enumerate(sol.game.keys):
        q = Fraction(eq.q[i])
        comps = [hand] if isinstance(hand, tuple) else [c for c in COMPOSITIONS if (c[0] + c[1]) % 10 == hand]
        for c in comps:
            rows[int(COMP_INDEX[c[0], c[1]])][k] = q
    d = "inf" if decks is None else decks
    return CheminStrategy(f"Nash equilibrium, Model {model}, {d} decks, commission {alpha}", Fraction(eq.p),
                          tuple(tuple(r) for r in rows))


MODELS = ("A1", "A2", "B1", "B2")


def check_model_for_decks(model: str, decks: int | None) -> str:
    """The information model for the shoe: ``A1`` / ``A2`` need ``decks=None``, ``B1`` / ``B2`` a finite shoe.

    Parameters
    ----------
    model : str
        ``A1``, ``A2``, ``B1``, ``B2`` (any case), or ``1`` / ``2`` (the letter follows ``decks``).
    decks : int or None
        Decks in the shoe; None for an infinite shoe (cards dealt with replacement).

    Returns
    -------
    str
        The model, upper case, with its letter.

    Raises
    ------
    BaccaraError
        An unknown model, or one that contradicts ``decks``, naming ``--model`` and ``--decks``.
    """
    m = str(model).strip().upper()
    if m in ("1", "2"):
        m = ("A" if decks is None else "B") + m
    if m not in MODELS:
        raise ParameterError(f"--model must be one of {', '.join(MODELS)} (A: cards dealt with replacement, "
                           f"an infinite shoe; B: a finite shoe; 1: Banker sees his total, 2: his two cards), "
                           f"got {model!r}")
    if m[0] == "A" and decks is not None:
        raise ParameterError(f"--model {m} deals with replacement (an infinite shoe) but --decks is {decks}: "
                           f"give --decks inf, or --model B{m[1]} for {a_decks(decks)} shoe")
    if m[0] == "B" and decks is None:
        raise ParameterError(f"--model {m} is a finite shoe but --decks is inf: give a number of --decks, "
                           f"or --model A{m[1]} for the infinite shoe")
    return m


def _prob(value: Any, where: str) -> Fraction:
    if isinstance(value, str) and value.strip().upper() in ("D", "S"):
        return Fraction(int(value.strip().upper() == "D"))
    q = params.rational(value, where)
    if not 0 <= q <= 1:
        raise BaccaraError(f"{where} must be a probability in [0, 1] (or D / S), got {q}")
    return q


def _parse_label(label: str, where: str) -> list[tuple[int, int]]:
    """``"(3,3)|6"`` or ``"3|none"`` -> [(composition index, third)]."""
    try:
        hand, third = label.replace(" ", "").split("|")
        k = THIRD.index(third)
        if hand.startswith("("):
            a, b = (int(x) for x in hand.strip("()").split(","))
            c = int(COMP_INDEX[min(a, b), max(a, b)])
            if c < 0:
                raise ValueError
            return [(c, k)]
        t = int(hand)
        cs = [i for i, (a, b) in enumerate(COMPOSITIONS) if (a + b) % 10 == t]
        if not cs:
            raise ValueError
        return [(c, k) for c in cs]
    except (ValueError, IndexError):
        raise BaccaraError(f"{where}: information set {label!r} should look like \"(3,3)|6\" (Banker's cards, "
                           f"total 0-7, | Player's third card 0-9 or none) or \"3|none\" (a total)") from None


def strategy_from_mapping(data: Mapping[str, Any], where: str = "strategy") -> CheminStrategy:
    """A strategy from its data form; see :func:`load_strategy_toml`."""
    unknown = set(data) - {"name", "player", "banker"}
    if unknown:
        raise BaccaraError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}; allowed: name, player, banker")
    base = tableau_strategy()
    rows = [list(r) for r in base.banker]
    player = data.get("player", {})
    if not isinstance(player, Mapping) or set(player) - {"draw_at_5"}:
        raise BaccaraError(f"{where}: [player] takes one key, draw_at_5 (a probability, or D / S)")
    p = _prob(player.get("draw_at_5", 1), f"{where}, player.draw_at_5")
    banker = data.get("banker", {})
    if not isinstance(banker, Mapping) or set(banker) - {"totals", "mixed"}:
        raise BaccaraError(f"{where}: [banker] takes totals (8 rows of 11 moves) and mixed (label = probability)")
    totals = banker.get("totals")
    if totals is not None:
        if not isinstance(totals, list) or len(totals) != 8:
            raise BaccaraError(f"{where}: banker.totals needs 8 rows, one per Banker total 0-7")
        for t, row in enumerate(totals):
            moves = list(row) if isinstance(row, str) else row
            if not isinstance(moves, list) or len(moves) != 11:
                raise BaccaraError(f"{where}: banker.totals row {t} needs 11 moves (third card 0-9, then none), "
                                   f"e.g. \"DDDDDDDDDDD\"")
            for c, (a, b) in enumerate(COMPOSITIONS):
                if (a + b) % 10 == t:
                    rows[c] = [_prob(m, f"{where}, banker.totals[{t}][{k}]") for k, m in enumerate(moves)]
    mixed = banker.get("mixed", {})
    if not isinstance(mixed, Mapping):
        raise BaccaraError(f"{where}: banker.mixed must be a table \"(3,3)|6\" = probability")
    for label, q in mixed.items():
        for c, k in _parse_label(label, where):
            rows[c][k] = _prob(q, f"{where}, banker.mixed {label!r}")
    return CheminStrategy(str(data.get("name", "user strategy")), p, tuple(tuple(r) for r in rows))


def load_strategy_toml(path: str | Path) -> CheminStrategy:
    """A chemin de fer strategy from TOML:

    ```toml
    name = "my strategy"
    [player]
    draw_at_5 = "1/2"              # probability, or "D" / "S"
    [banker]
    totals = [                     # optional; default: the punto banco tableau
      "DDDDDDDDDDD",               # total 0: Player's third card 0..9, then none
      ...                          # 8 rows, totals 0-7
    ]
    [banker.mixed]                 # optional overrides by information set
    "(3,3)|6" = "1/2"
    "5|4" = 0.25
    ```
    """
    p = Path(path)
    data = read_toml(p, "strategy", BaccaraError)
    return strategy_from_mapping(data, f"strategy file {p.name}")


# ---------------------------------------------------------------- exact values
@dataclass(frozen=True)
class CheminExact:
    """Exact per-coup values of a strategy pair for a coup dealt from the full shoe."""

    banker: Fraction   # Banker's expected gain per unit staked, commission paid
    player: Fraction   # Player's (the punters') expected gain per unit
    p_banker: Fraction
    p_player: Fraction
    p_tie: Fraction

    @property
    def house(self) -> Fraction:
        return -(self.banker + self.player)


@lru_cache(maxsize=64)
def exact_chemin(decks: int | None, alpha: Fraction, strategy: CheminStrategy) -> CheminExact:
    """Exact values from the additive game of Model B2 (A2 with replacement): with G, H the ordered-deal
    sums of sgn(z) and [z > 0] changes from drawing, and q Banker's drawing probabilities,
    E[sgn z] = (base_sgn + sum_i q_i G_i) / D and P(z > 0) = (base_win + sum_i q_i H_i) / D for each
    Player pure strategy, mixed with p."""
    from ..chemin.model import chemin_game  # lazy: the game's coefficients, only when asked

    game = chemin_game("A2" if decks is None else "B2", decks)
    D = game.deals
    sgn, win = Fraction(0), Fraction(0)
    for u, w in ((0, 1 - strategy.draw_at_5), (1, strategy.draw_at_5)):
        if w == 0:
            continue
        s_u = Fraction(game.base_sgn[u])
        h_u = Fraction(game.base_win[u])
        for i, (hand, k) in enumerate(game.keys):
            q = strategy.banker[int(COMP_INDEX[hand[0], hand[1]])][k]
            if q:
                s_u += q * game.G[i][u]
                h_u += q * game.H[i][u]
        sgn += w * s_u / D
        win += w * h_u / D
    alpha = Fraction(alpha)
    lose = win - sgn
    return CheminExact(banker=sgn - alpha * win, player=-sgn, p_banker=win, p_player=lose, p_tie=1 - win - lose)


# ---------------------------------------------------------------- the kernel
#: The most a chunk keeps of bank runs (entries of two int64 arrays): 32 MiB each.
RUN_BUFFER = 1 << 22
#: The largest opening bank (money is float64; a bank doubles with every win).
MAX_STAKE = 1e9
#: The largest --withdraw-after (a run of wins longer than any shoe is "never").
MAX_WITHDRAW = 1_000_000

#: Integer columns of a session row.
ICOLS = ("coups", "banker", "player", "tie", "banks", "censored", "longest")
#: Float columns.
FCOLS = ("house", "max_bank")


@njit(cache=True, nogil=True)
def _chemin_coup(deck, pos, mode, state, p5, bq, comp_index):
    """One coup: (state, new pos, z = Banker's final total - Player's)."""
    state, p1 = draw(deck, pos, mode, True, state)
    state, b1 = draw(deck, pos + 1, mode, True, state)
    state, p2 = draw(deck, pos + 2, mode, True, state)
    state, b2 = draw(deck, pos + 3, mode, True, state)
    k = pos + 4
    pt = (VALUE[p1] + VALUE[p2]) % 10
    bv1, bv2 = VALUE[b1], VALUE[b2]
    bt = (bv1 + bv2) % 10
    if pt >= 8 or bt >= 8:
        return state, k, bt - pt
    at_5 = 0
    if pt == 5:
        if p5 >= 1.0:
            at_5 = 1
        elif p5 > 0.0:
            state, u = uniform(state)
            at_5 = 1 if u < p5 else 0
    third = 10
    if player_draws_jit(pt, at_5):
        state, c = draw(deck, k, mode, True, state)
        k += 1
        third = VALUE[c]
        pt = (pt + third) % 10
    q = bq[comp_index[bv1, bv2], third]
    bdraws = q >= 1.0
    if 0.0 < q < 1.0:
        state, u = uniform(state)
        bdraws = u < q
    if bdraws:
        state, c = draw(deck, k, mode, True, state)
        k += 1
        bt = (bt + VALUE[c]) % 10
    return state, k, bt - pt


@njit(cache=True, nogil=True)
def play_session(seed, index, template, cut, mode, coups, p5, bq, comp_index, alpha, seats, stake,
                 withdraw, irow, frow, seat_net, runs_coups, runs_wins):
    """One session (a shoe): integer and float columns, each seat's net, and every bank's run."""
    deck = template.copy()
    n = deck.size
    state = shoe_key(seed, index)
    pos = 0
    if mode == CUT:
        state, pos, _ = burn(deck, mode, True, state)
    banker = 0
    bank = stake
    run_coups = 0
    run_wins = 0
    nruns = 0
    max_bank = stake
    house = 0.0
    j = 0
    prev = -1
    while True:
        more, pos = coup_start(mode, pos, prev, n, cut, j, coups)
        if not more:
            break
        prev = pos
        state, pos, z = _chemin_coup(deck, pos, mode, state, p5, bq, comp_index)
        j += 1
        irow[0] += 1
        run_coups += 1
        passes = False
        if z > 0:
            irow[1] += 1
            run_wins += 1
            won = bank * (1.0 - alpha)
            house += bank * alpha
            seat_net[banker] += won
            share = bank / (seats - 1)
            for s in range(seats):
                if s != banker:
                    seat_net[s] -= share
            bank += won
            max_bank = max(max_bank, bank)
            passes = withdraw > 0 and run_wins >= withdraw
        elif z < 0:
            irow[2] += 1
            seat_net[banker] -= bank
            share = bank / (seats - 1)
            for s in range(seats):
                if s != banker:
                    seat_net[s] += share
            passes = True
        else:
            irow[3] += 1
        if passes:
            runs_coups[nruns] = run_coups
            runs_wins[nruns] = run_wins
            nruns += 1
            banker = (banker + 1) % seats
            bank = stake
            run_coups = 0
            run_wins = 0
    if run_coups > 0:
        runs_coups[nruns] = run_coups
        runs_wins[nruns] = run_wins
        nruns += 1
        irow[5] += 1
    irow[4] = nruns
    longest = 0
    for r in range(nruns):
        longest = max(longest, runs_wins[r])
    irow[6] = longest
    frow[0] = house
    frow[1] = max_bank


@njit(cache=True, nogil=True)
def chemin_chunk(seed, first, irows, frows, seat_net, runs_coups, runs_wins, template, cut, mode, coups, p5, bq,
                 comp_index, alpha, seats, stake, withdraw):
    """Sessions ``first .. first + len(irows) - 1``, one row each (releases the GIL)."""
    for i in range(irows.shape[0]):
        play_session(seed, first + i, template, cut, mode, coups, p5, bq, comp_index, alpha, seats, stake, withdraw,
                     irows[i], frows[i], seat_net[i], runs_coups[i], runs_wins[i])


# ---------------------------------------------------------------- the job
@dataclass(frozen=True)
class CheminJob:
    """Chemin de fer sessions: shoe, commission, strategy pair, table and stake rules."""

    seed: int
    shoes: int
    strategy: CheminStrategy
    decks: int | None = 6
    alpha: Fraction = Fraction(1, 20)
    seats: int = 6
    stake: float = 1.0
    withdraw_after: int = 0
    deal: str = "cut"
    cut: int = DEFAULT_CUT
    coups: int = DEFAULT_COUPS
    chunk_size: int = 1024
    keep_rows: bool = False

    def __post_init__(self) -> None:
        check_seed(self.seed)
        check_shoes(self.shoes, "--sessions")
        object.__setattr__(self, "deal", check_deal(self.decks, self.deal, self.cut, self.coups))
        a = Fraction(self.alpha)
        if not 0 <= a < 1 or a.denominator > MAX_DENOMINATOR:
            raise ParameterError(f"--commission must be a rational in [0, 1) with a denominator up to 10^9, got {a}")
        object.__setattr__(self, "alpha", a)
        if isinstance(self.seats, bool) or not isinstance(self.seats, int) or not 2 <= self.seats <= 32:
            raise ParameterError(f"--seats must be an integer from 2 to 32, got {self.seats!r}")
        if (isinstance(self.stake, bool) or not isinstance(self.stake, (int, float)) or not math.isfinite(self.stake)
                or not 0 < self.stake <= MAX_STAKE):
            raise ParameterError(f"--stake (the opening bank) must be a positive number up to 10^9 units, "
                               f"got {self.stake!r}")
        if (isinstance(self.withdraw_after, bool) or not isinstance(self.withdraw_after, int)
                or not 0 <= self.withdraw_after <= MAX_WITHDRAW):
            raise ParameterError(f"--withdraw-after must be an integer from 0 (never) to {MAX_WITHDRAW:,}, "
                               f"got {self.withdraw_after!r}")
        if isinstance(self.chunk_size, bool) or not isinstance(self.chunk_size, int) or self.chunk_size < 1:
            raise BaccaraError(f"chunk size must be a positive integer, got {self.chunk_size!r}")
        # each session keeps every bank's run (two int64 per possible coup): bound a chunk's buffers
        object.__setattr__(self, "chunk_size", min(self.chunk_size, max(1, RUN_BUFFER // self.capacity())))

    def capacity(self) -> int:
        return max_coups(self.decks, self.deal, self.cut, self.coups) + 1

    def kernel_args(self) -> tuple:
        return _chemin_args(self)

    def run_chunk(self, index: int, pool=None) -> ChunkResult:
        t0 = time.perf_counter()
        first = index * self.chunk_size
        n = min(self.shoes, first + self.chunk_size) - first
        cap = self.capacity()
        irows = np.zeros((n, len(ICOLS)), dtype=np.int64)
        frows = np.zeros((n, len(FCOLS)), dtype=np.float64)
        seat_net = np.zeros((n, self.seats), dtype=np.float64)
        runs_coups = np.zeros((n, cap), dtype=np.int64)
        runs_wins = np.zeros((n, cap), dtype=np.int64)
        args = self.kernel_args()
        in_blocks(pool, n, lambda lo, hi: chemin_chunk(self.seed, first + lo, irows[lo:hi], frows[lo:hi],
                                                       seat_net[lo:hi], runs_coups[lo:hi], runs_wins[lo:hi], *args))
        return self.chunk_result(index, first, irows, frows, seat_net, runs_coups, runs_wins, time.perf_counter() - t0)

    def chunk_result(self, index, first, irows, frows, seat_net, runs_coups, runs_wins, seconds) -> ChunkResult:
        a = self.alpha
        cols = {c: irows[:, i] for i, c in enumerate(ICOLS)}
        # per unit staked, in units of 1/alpha.denominator
        cols["banker_units"] = (a.denominator - a.numerator) * cols["banker"] - a.denominator * cols["player"]
        cols["player_units"] = cols["player"] - cols["banker"]
        pairs = [("coups", "coups"), ("banker_units", "banker_units"), ("banker_units", "coups"),
                 ("player_units", "player_units"), ("player_units", "coups")]
        pairs += [(k, k) for k in ("banker", "player", "tie", "banks")] + [(k, "coups") for k in ("banker", "player", "tie")]
        sums = column_sums(cols, pairs)
        mask = runs_coups > 0
        hists = {"bank_coups": np.bincount(runs_coups[mask]), "bank_wins": np.bincount(runs_wins[mask])}
        floats = {"house": float(frows[:, 0].sum()), "house^2": float((frows[:, 0] ** 2).sum()),
                  "max_bank_max": float(frows[:, 1].max(initial=0.0))}
        for s in range(self.seats):
            floats[f"seat{s}"] = float(seat_net[:, s].sum())
            floats[f"seat{s}^2"] = float((seat_net[:, s] ** 2).sum())
        rows = None
        if self.keep_rows:
            rows = {"session": np.arange(first, first + irows.shape[0], dtype=np.int64)}
            for c in ICOLS:
                rows[c] = cols[c].astype(np.int32)
            rows["house_take"] = frows[:, 0].copy()
            rows["max_bank"] = frows[:, 1].copy()
            for s in range(self.seats):
                rows[f"seat{s}_net"] = seat_net[:, s].copy()
        return ChunkResult(index=index, shoes=irows.shape[0], hands=int(cols["coups"].sum()), sums=sums,
                           floats=floats, hists=hists, rows=rows, seconds=seconds)


@lru_cache(maxsize=32)
def _chemin_args(job: CheminJob) -> tuple:
    p5, bq = job.strategy.arrays()
    template = np.repeat(np.arange(52, dtype=np.uint8), job.decks if job.decks is not None else 1)
    return (template, job.cut, DEAL_MODES[job.deal], job.coups, p5, bq, COMP_INDEX.astype(np.int64),
            float(job.alpha), job.seats, float(job.stake), job.withdraw_after)


# ---------------------------------------------------------------- results
@dataclass(repr=False)
class CheminResult(SimResult):
    """Chemin de fer sessions' results, with the exact per-coup values beside them.

    ``to_json()`` is the document of ``baccara simulate chemin --json`` (the user guide), ``show()`` its tables.
    """

    job: CheminJob
    total: ChunkResult
    exact: CheminExact | None
    run: dict = field(default_factory=dict)

    @property
    def sessions(self) -> int:
        return self.total.shoes

    @property
    def coups(self) -> int:
        return self.total.hands

    def estimates(self) -> dict[str, Estimate]:
        s, S, a = self.total.sums, self.total.shoes, self.job.alpha
        return {
            "banker": ratio(s, "banker_units", "coups", S, a.denominator),
            "player": ratio(s, "player_units", "coups", S),
            "p_banker": ratio(s, "banker", "coups", S),
            "p_player": ratio(s, "player", "coups", S),
            "p_tie": ratio(s, "tie", "coups", S),
        }

    def z_scores(self) -> dict[str, float | None]:
        if self.exact is None:
            return {}
        e = self.estimates()
        return {k: e[k].z(getattr(self.exact, k)) for k in ("banker", "player", "p_banker", "p_player", "p_tie")}

    def report(self, doc: dict) -> list:
        return chemin_report(doc)

    def document(self) -> dict:
        t, s, S, j = self.total, self.total.sums, self.total.shoes, self.job
        e = self.estimates()
        bank_coups, bank_wins = t.hists.get("bank_coups", np.zeros(1)), t.hists.get("bank_wins", np.zeros(1))
        banks = int(bank_coups.sum())
        doc = {
            "game": "chemin",
            "seed": j.seed,
            "shoes": S,
            "hands": t.hands,
            "outcomes": {"banker": s["banker"], "player": s["player"], "tie": s["tie"]},
            "bets": {
                "banker": _unit(s["coups"], Fraction(s["banker_units"], a_den(j)), e["banker"]),
                "player": _unit(s["coups"], Fraction(s["player_units"]), e["player"]),
            },
            "exact": None if self.exact is None else {
                "shoe": "infinite shoe" if j.decks is None else f"{j.decks} decks",
                "basis": "one coup dealt from the full shoe, Model " + ("A2" if j.decks is None else "B2"),
                "banker": float(self.exact.banker), "banker_exact": fraction_str(self.exact.banker),
                "player": float(self.exact.player), "player_exact": fraction_str(self.exact.player),
                "house": float(self.exact.house), "house_exact": fraction_str(self.exact.house),
                "outcomes": {"banker": float(self.exact.p_banker), "player": float(self.exact.p_player),
                             "tie": float(self.exact.p_tie)},
            },
            "z": {k: fnum(v) if v is not None else None for k, v in self.z_scores().items()},
            "house": {
                "per_coup_per_unit": fnum(float(j.alpha) * e["p_banker"].value),
                "take": t.floats.get("house", 0.0),
                "take_per_session": fnum(t.floats.get("house", 0.0) / S),
                "take_per_coup": fnum(t.floats.get("house", 0.0) / t.hands) if t.hands else None,
            },
            "banks": {
                "count": banks,
                "per_session": fnum(banks / S),
                "ended_by_shoe": s["censored"],
                "mean_coups": fnum(float((np.arange(bank_coups.size) * bank_coups).sum()) / banks) if banks else None,
                "mean_wins": fnum(float((np.arange(bank_wins.size) * bank_wins).sum()) / banks) if banks else None,
                "coups_histogram": [int(x) for x in bank_coups],
                "wins_histogram": [int(x) for x in bank_wins],
                "longest_run": int(np.flatnonzero(bank_wins).max()) if banks else 0,
                "largest_bank": t.floats.get("max_bank_max", 0.0),
            },
            "seats": [_seat(t.floats, k, S) for k in range(j.seats)],
            "table": {"seats": j.seats, "stake": j.stake, "withdraw_after": j.withdraw_after,
                      "commission": fraction_str(j.alpha)},
            "shoe": {"decks": "inf" if j.decks is None else j.decks, "deal": j.deal,
                     "cut": j.cut if j.deal == "cut" else None},
            "strategy": j.strategy.to_json(),
            "run": self.run,
        }
        return doc


def a_den(job: CheminJob) -> int:
    return job.alpha.denominator


def _unit(coups: int, net: Fraction, e: Estimate) -> dict:
    return {"placed": coups, "net": float(net), "net_exact": fraction_str(net), "ev_per_bet": fnum(e.value), "stderr": fnum(e.stderr)}


def _seat(floats: Mapping[str, float], k: int, S: int) -> dict:
    m = floats.get(f"seat{k}", 0.0) / S
    var = max(floats.get(f"seat{k}^2", 0.0) / S - m * m, 0.0) * S / max(S - 1, 1)
    return {"seat": k, "mean_net_per_session": m, "stderr": math.sqrt(var / S), "sd_per_session": math.sqrt(var)}


def finalize_chemin(job: CheminJob, total: ChunkResult, run: dict | None = None, with_exact: bool = True) -> CheminResult:
    run = dict(run or {})
    if run.get("seconds"):
        run["hands_per_second"] = total.hands / run["seconds"]
    return CheminResult(job, total, exact_chemin(job.decks, job.alpha, job.strategy) if with_exact else None, run)


def simulate_chemin(job: CheminJob, backend: str = "threads", workers: int | None = None,
                    scheduler: str | None = None, progress=None, sink=None) -> CheminResult:
    total, info = run(job, backend, workers, scheduler, progress, sink)
    return finalize_chemin(job, total, info.to_json())
