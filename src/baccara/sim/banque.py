"""Baccara banque sessions: two tableaux, one Banker, stakes in proportion theta.

The rules (Wikipedia 2019, "Baccarat Banque"; Ethier and Lee (2015), section 2):

* The Banker holds the bank for the whole shoe (three decks in Wikipedia (2019)).
  He deals three cards, to Player 1 (his right), Player 2 (his left) and
  himself, then three more likewise; third cards go Player 1, Player 2, Banker.
* If Banker has a natural, or both Players have, play ends and each hand is
  compared with Banker's.  A Player's natural wins his stake from a
  non-natural Banker; play goes on between Banker and the other Player.
* Each Player must draw on 0-4 and stand on 6-7; at 5 the Players choose
  (u1, u2): jointly (a correlated mixture over SS, SD, DS, DD) or each with
  his own probability.  Banker sees (k1, k2, j): each Player's third-card
  value 0-9, or 10 (stood) or 11 (natural), and his own total j = 0-7, and
  draws with his strategy's probability there.
* Stakes on the two hands are theta : 1 - theta; results are in units of the
  total stake.  Banker's gain per coup is -(theta r1 + (1 - theta) r2),
  r = +1, 0, -1 for a Player win, tie, loss.

The default strategies are the correlated cooperative equilibrium of the
simplified model at theta (:func:`baccara.banque.correlated_eq.solution.correlated_equilibrium`).
That model is exact for cards dealt with replacement (``decks=None``), where
the simulation is checked against it; on a real shoe it is the reference.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

import numpy as np
from numba import njit

from ..algebraic import fraction_str
from ..errors import BaccaraError, ParameterError
from ..rules import player_draws_jit
from ..solve.signs import sgn
from .distributed import run
from .limits import MAX_DENOMINATOR
from .punto import DEFAULT_COUPS, check_deal, check_seed, check_shoes
from .report import SimResult, banque_report
from .results import ChunkResult, Estimate, column_sums, fnum, in_blocks, ratio
from .shoe_deal import CUT, DEAL_MODES, VALUE, burn, coup_start, draw, shoe_key, uniform

STOOD, NATURAL = 10, 11
#: Cards behind the cut card by default: a banque coup takes up to nine cards
#: and one more coup follows the one in which the cut card appears, so the
#: least cut that cannot run the shoe out is 2 * 9 - 1 = 17 (``min_cut(9)``).
BANQUE_CUT = 17
JOINT_LABELS = ("SS", "SD", "DS", "DD")


@dataclass(frozen=True)
class BanqueStrategy:
    """The Players' joint distribution over (SS, SD, DS, DD) at 5 and Banker's drawing
    probabilities ``banker[k1][k2][j]`` (k = third card 0-9, 10 stood, 11 natural; j = total 0-7)."""

    name: str
    players: tuple[Fraction, ...]  # over SS, SD, DS, DD
    banker: tuple[tuple[tuple[Fraction, ...], ...], ...]

    def __post_init__(self) -> None:
        if len(self.players) != 4 or any(not 0 <= x <= 1 for x in self.players) or sum(self.players) != 1:
            raise BaccaraError(f"the Players' mixture over SS, SD, DS, DD must be 4 probabilities summing to 1, "
                               f"got {[str(x) for x in self.players]}")

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        cum = np.cumsum([float(x) for x in self.players])
        cum[-1] = 1.0
        bq = np.array([[[float(q) for q in r2] for r2 in r1] for r1 in self.banker], dtype=np.float64)
        return cum, bq

    def to_json(self) -> dict:
        mixed = {f"({k1},{k2},{j})": fraction_str(q)
                 for k1 in range(12) for k2 in range(12) for j in range(8)
                 if 0 < (q := self.banker[k1][k2][j]) < 1}
        return {"name": self.name, "players": {lab: fraction_str(x)
                                               for lab, x in zip(JOINT_LABELS, self.players)},
                "banker_mixed": mixed}


def independent_players(p1: Fraction, p2: Fraction) -> tuple[Fraction, ...]:
    """The joint mixture of two Players drawing at 5 independently with p1, p2."""
    p1, p2 = Fraction(p1), Fraction(p2)
    for name, p in (("--p1", p1), ("--p2", p2)):
        if not 0 <= p <= 1:
            raise BaccaraError(f"{name} must be a probability in [0, 1], got {p}")
    return ((1 - p1) * (1 - p2), (1 - p1) * p2, p1 * (1 - p2), p1 * p2)


def _banker_table(q_by_infoset: dict[tuple[int, int, int], Fraction]) -> tuple:
    return tuple(tuple(tuple(Fraction(q_by_infoset.get((k1, k2, j), 0)) for j in range(8))
                       for k2 in range(12)) for k1 in range(12))


def draw_to_5_banker() -> tuple:
    """A plain Banker: draw on 0-5, stand on 6-7, whatever he sees."""
    return _banker_table({(k1, k2, j): Fraction(int(j <= 5)) for k1 in range(12) for k2 in range(12) for j in range(8)})


@lru_cache(maxsize=16)
def equilibrium_strategy(theta: Fraction) -> BanqueStrategy:
    """The correlated cooperative equilibrium of the simplified model at theta (Ethier and Lee 2015, section 3)."""
    from ..banque.correlated_eq.solution import correlated_equilibrium  # lazy: equilibrium play only
    from ..banque.model import banque_game  # lazy: equilibrium play only

    sol = correlated_equilibrium(banque_game(), Fraction(theta))
    q = {k: Fraction(v) for k, v in zip(sol.game.infosets, sol.solution.q)}
    return BanqueStrategy(f"correlated cooperative equilibrium, theta {theta}",
                          tuple(Fraction(x) for x in sol.p), _banker_table(q))


def exact_banque(theta: Fraction, strategy: BanqueStrategy) -> Fraction:
    """Banker's exact expected gain per coup (units of the total stake) in the simplified model
    (with replacement): -(sum_u pi_u (A_u + sum_i q_i h_i^u))."""
    from ..banque.model import banque_game  # lazy: the game's coefficients, only when asked

    g = banque_game()
    a, h = g.a(Fraction(theta)), g.h(Fraction(theta))
    total = Fraction(0)
    for u, pi in enumerate(strategy.players):
        if pi == 0:
            continue
        v = a[u]
        for i, (k1, k2, j) in enumerate(g.infosets):
            q = strategy.banker[k1][k2][j]
            if q:
                v += q * h[i][u]
        total += pi * v
    return -total


# ---------------------------------------------------------------- the kernel
ICOLS = ("coups", "banker_units", "win1", "tie1", "lose1", "win2", "tie2", "lose2")


@njit(cache=True, nogil=True)
def _player(deck, pos, mode, state, i, u):
    """(state, pos, what Banker sees, final total) for a Player with two-card total i."""
    if i >= 8:
        return state, pos, NATURAL, i
    if player_draws_jit(i, u):
        state, c = draw(deck, pos, mode, True, state)
        return state, pos + 1, VALUE[c], (i + VALUE[c]) % 10
    return state, pos, STOOD, i


@njit(cache=True, nogil=True)
def _banque_coup(deck, pos, mode, state, cum, bq):
    """One coup: (state, new pos, r1, r2) with r = +1 / 0 / -1 for a Player win / tie / loss."""
    state, a1 = draw(deck, pos, mode, True, state)
    state, a2 = draw(deck, pos + 1, mode, True, state)
    state, b1 = draw(deck, pos + 2, mode, True, state)
    state, c1 = draw(deck, pos + 3, mode, True, state)
    state, c2 = draw(deck, pos + 4, mode, True, state)
    state, b2 = draw(deck, pos + 5, mode, True, state)
    pos += 6
    i1 = (VALUE[a1] + VALUE[c1]) % 10
    i2 = (VALUE[a2] + VALUE[c2]) % 10
    j = (VALUE[b1] + VALUE[b2]) % 10
    if j >= 8 or (i1 >= 8 and i2 >= 8):
        return state, pos, sgn(i1 - j), sgn(i2 - j)
    u1 = 0
    u2 = 0
    if i1 == 5 or i2 == 5:
        state, x = uniform(state)
        joint = 3
        for t in range(3):
            if x < cum[t]:
                joint = t
                break
        u1 = joint >> 1
        u2 = joint & 1
    state, pos, k1, f1 = _player(deck, pos, mode, state, i1, u1)
    state, pos, k2, f2 = _player(deck, pos, mode, state, i2, u2)
    q = bq[k1, k2, j]
    b = j
    bdraws = q >= 1.0
    if 0.0 < q < 1.0:
        state, x = uniform(state)
        bdraws = x < q
    if bdraws:
        state, c = draw(deck, pos, mode, True, state)
        pos += 1
        b = (j + VALUE[c]) % 10
    r1 = 1 if k1 == NATURAL else sgn(f1 - b)
    r2 = 1 if k2 == NATURAL else sgn(f2 - b)
    return state, pos, r1, r2


@njit(cache=True, nogil=True)
def play_banque_session(seed, index, template, cut, mode, coups, cum, bq, tn, td, row):
    """One shoe held by one Banker; ``row`` as :data:`ICOLS` (Banker's gain in units of 1/td)."""
    deck = template.copy()
    n = deck.size
    state = shoe_key(seed, index)
    pos = 0
    if mode == CUT:
        state, pos, _ = burn(deck, mode, True, state)
    j = 0
    prev = -1
    while True:
        more, pos = coup_start(mode, pos, prev, n, cut, j, coups)
        if not more:
            break
        prev = pos
        state, pos, r1, r2 = _banque_coup(deck, pos, mode, state, cum, bq)
        j += 1
        row[0] += 1
        row[1] -= tn * r1 + (td - tn) * r2
        row[3 - r1] += 1
        row[6 - r2] += 1


@njit(cache=True, nogil=True)
def banque_chunk(seed, first, rows, template, cut, mode, coups, cum, bq, tn, td):
    """Sessions ``first .. first + len(rows) - 1``, one row each (releases the GIL)."""
    for i in range(rows.shape[0]):
        for c in range(rows.shape[1]):
            rows[i, c] = 0
        play_banque_session(seed, first + i, template, cut, mode, coups, cum, bq, tn, td, rows[i])


# ---------------------------------------------------------------- the job
@dataclass(frozen=True)
class BanqueJob:
    """Banque sessions: shoe, theta, strategies."""

    seed: int
    shoes: int
    strategy: BanqueStrategy
    theta: Fraction = Fraction(1, 2)
    decks: int | None = 3
    deal: str = "cut"
    cut: int = BANQUE_CUT
    coups: int = DEFAULT_COUPS
    chunk_size: int = 2048
    keep_rows: bool = False

    def __post_init__(self) -> None:
        check_seed(self.seed)
        check_shoes(self.shoes, "--sessions")
        object.__setattr__(self, "deal", check_deal(self.decks, self.deal, self.cut, self.coups, 9))
        t = Fraction(self.theta)
        if not 0 < t < 1 or t.denominator > MAX_DENOMINATOR:
            raise ParameterError(f"--theta must be a rational in (0, 1) with a denominator up to 10^9, got {t}")
        object.__setattr__(self, "theta", t)

    def kernel_args(self) -> tuple:
        return _banque_args(self)

    def run_chunk(self, index: int, pool=None) -> ChunkResult:
        t0 = time.perf_counter()
        first = index * self.chunk_size
        n = min(self.shoes, first + self.chunk_size) - first
        rows = np.zeros((n, len(ICOLS)), dtype=np.int64)
        args = self.kernel_args()
        in_blocks(pool, n, lambda lo, hi: banque_chunk(self.seed, first + lo, rows[lo:hi], *args))
        cols = {c: rows[:, i] for i, c in enumerate(ICOLS)}
        cols["units1"] = cols["win1"] - cols["lose1"]
        cols["units2"] = cols["win2"] - cols["lose2"]
        pairs = [("coups", "coups"), ("banker_units", "banker_units"), ("banker_units", "coups")]
        for k in ("win1", "tie1", "lose1", "win2", "tie2", "lose2", "units1", "units2"):
            pairs += [(k, k), (k, "coups")]
        out: dict[str, np.ndarray] | None = None
        if self.keep_rows:
            out = {"session": np.arange(first, first + n, dtype=np.int64)}
            for c in ICOLS:
                out[c] = cols[c].astype(np.int32) if c != "banker_units" else cols[c] / self.theta.denominator
            out["banker_net"] = out.pop("banker_units")
        return ChunkResult(index=index, shoes=n, hands=int(cols["coups"].sum()), sums=column_sums(cols, pairs),
                           rows=out, seconds=time.perf_counter() - t0)


@lru_cache(maxsize=16)
def _banque_args(job: BanqueJob) -> tuple:
    cum, bq = job.strategy.arrays()
    template = np.repeat(np.arange(52, dtype=np.uint8), job.decks if job.decks is not None else 1)
    return (template, job.cut, DEAL_MODES[job.deal], job.coups, cum, bq, job.theta.numerator, job.theta.denominator)


@dataclass(repr=False)
class BanqueResult(SimResult):
    """Banque sessions' results beside the simplified model's exact value (``baccara simulate banque``)."""

    job: BanqueJob
    total: ChunkResult
    exact: Fraction | None
    model_value: Fraction
    run: dict = field(default_factory=dict)

    def estimates(self) -> dict[str, Estimate]:
        s, S, t = self.total.sums, self.total.shoes, self.job.theta
        return {
            "banker": ratio(s, "banker_units", "coups", S, t.denominator),
            "player1": ratio(s, "units1", "coups", S),
            "player2": ratio(s, "units2", "coups", S),
        }

    def report(self, doc: dict) -> list:
        return banque_report(doc)

    def document(self) -> dict:
        s, S, j, e = self.total.sums, self.total.shoes, self.job, self.estimates()
        t = j.theta

        def unit(y: str, den: int, est: Estimate) -> dict:
            net = Fraction(s[y], den)
            return {"placed": s["coups"], "net": float(net), "net_exact": fraction_str(net),
                    "ev_per_bet": fnum(est.value), "stderr": fnum(est.stderr)}

        mv = {"banker": float(self.model_value), "banker_exact": fraction_str(self.model_value),
              "basis": "simplified model of Ethier and Lee (2015): cards dealt with replacement, one coup"}
        return {
            "game": "banque",
            "seed": j.seed,
            "shoes": S,
            "hands": self.total.hands,
            "outcomes": {"banker": s["lose1"] + s["lose2"], "player": s["win1"] + s["win2"], "tie": s["tie1"] + s["tie2"]},
            "by_hand": {"player1": {"player": s["win1"], "tie": s["tie1"], "banker": s["lose1"]},
                        "player2": {"player": s["win2"], "tie": s["tie2"], "banker": s["lose2"]}},
            "bets": {"banker": unit("banker_units", t.denominator, e["banker"]),
                     "player1": unit("units1", 1, e["player1"]), "player2": unit("units2", 1, e["player2"])},
            "exact": None if self.exact is None else dict(mv, shoe="infinite shoe"),
            "model_value": mv,
            "z": {"banker": fnum(e["banker"].z(self.exact))} if self.exact is not None else {},
            "theta": fraction_str(t),
            "shoe": {"decks": "inf" if j.decks is None else j.decks, "deal": j.deal,
                     "cut": j.cut if j.deal == "cut" else None},
            "strategy": j.strategy.to_json(),
            "run": self.run,
        }


def finalize_banque(job: BanqueJob, total: ChunkResult, run: dict | None = None) -> BanqueResult:
    run = dict(run or {})
    if run.get("seconds"):
        run["hands_per_second"] = total.hands / run["seconds"]
    value = exact_banque(job.theta, job.strategy)
    return BanqueResult(job, total, value if job.decks is None else None, value, run)


def simulate_banque(job: BanqueJob, backend: str = "threads", workers: int | None = None,
                    scheduler: str | None = None, progress=None, sink=None) -> BanqueResult:
    total, info = run(job, backend, workers, scheduler, progress, sink)
    return finalize_banque(job, total, info.to_json())
