"""Chemin de fer under Model 3 (Ethier and Lee 2023, section 4): Player sees his composition.

Player chooses at each of the five compositions of 5 — (0,5) (1,4) (2,3)
(6,9) (7,8) — so under Model B3 the game is 2^5 x 2^484, bilinear in the two
sides' behavioural strategies (:mod:`baccara.solve.bilinear`).  Three routes,
which must agree:

- :func:`solve_chemin3` with ``all_equilibria=True``: every extreme Nash
  equilibrium by the arrangement-vertex enumeration (uniqueness settled at
  that (d, alpha), with the enumeration's counts as the proof's record);
- at alpha = 0 (zero-sum): the sequence-form linear program, certified;
- :func:`seed_route`: Ethier and Lee's (2023) method — restrict Banker to the two pure
  strategies of his Model B2 equilibrium, apply Foster's algorithm with the
  roles reversed (Banker as player I with two strategies, Player additive in
  his five choices), then confirm the candidate in the full game.

:func:`sweep_chemin3` gives the alpha-structure (Ethier and Lee (2023), Table 7 and
Theorem 2): Player draws at (0,5), (6,9), (7,8), stands at (2,3) and mixes at
(1,4), so the game restricted to his choice at (1,4) is an additive 2 x 2^484
game, swept exactly as Model B2; each interval's equilibrium is then
confirmed in the full game (Player's other four moves are optimal against the
interval's Banker strategy, an alpha-free exact check since Player's payoffs
do not involve the commission), and the full enumeration is run at a
rational alpha inside every interval.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..algebraic import fraction_str as fstr
from ..errors import BaccaraError
from ..result import Result
from ..shoe import decks_json, shoe_json
from ..solve.additive import AdditiveGame
from ..solve.additive import nash_equilibria as foster
from ..solve.bilinear import (
    BilinearCertificate,
    BilinearEquilibrium,
    BilinearGame,
    BilinearNashSet,
    BilinearZeroSum,
    certify,
    dominance_reduction,
    nash_equilibria,
    solve_zero_sum,
)
from ..solve.sweep import group_blocks, rational_between, strategy_string, sweep
from .model import FIVE_LABELS, CheminGame, CheminGame3, chemin_game
from .report import solution_renderables, solution_summary, sweep_renderables, sweep_summary
from .solution import CheminSweep, solve_chemin

#: Player's equilibrium moves at the compositions of 5 other than (1,4) (Ethier and Lee 2023, Theorem 2).
THEOREM2_PLAYER = (1, 0, 0, 1, 1)
MIXED_AT = 1  # (1,4)


def player_json(y) -> dict:
    return {"draw": {lab: fstr(v) for lab, v in zip(FIVE_LABELS, y)},
            "draw_float": {lab: float(v) for lab, v in zip(FIVE_LABELS, y)}}


def player_string(y) -> str:
    """Ethier and Lee's (2023) notation: D, S or M at (0,5) (1,4) (2,3) (6,9) (7,8), e.g. DMSDD."""
    return "".join("D" if v == 1 else "S" if v == 0 else "M" for v in y)


@dataclass
class SeedRoute:
    """Ethier and Lee's (2023) method at one (d, alpha): the restricted game's equilibria and whether each
    is an equilibrium of the full game."""

    banker_pure: tuple[tuple[Fraction, ...], tuple[Fraction, ...]] | None
    candidates: list[BilinearEquilibrium] = field(default_factory=list)
    confirmed: list[bool] = field(default_factory=list)
    note: str = ""


@dataclass(repr=False)
class Chemin3Solution(Result):
    """Equilibria of chemin de fer under Model 3 at one commission, with certificates."""

    game: CheminGame3
    alpha: Fraction
    bilinear: BilinearGame
    equilibria: list[BilinearEquilibrium]
    certificates: list[BilinearCertificate]
    open_sets: list[int]
    enumeration: BilinearNashSet | None = None
    zero_sum: BilinearZeroSum | None = None
    route: SeedRoute | None = None

    @property
    def unique(self) -> bool | None:
        """True/False once every equilibrium is enumerated; None if only one was sought."""
        return None if self.enumeration is None else self.enumeration.unique

    def summary(self) -> str:
        """One line: model, shoe, commission and how many equilibria."""
        return solution_summary(self.to_json())

    def renderables(self) -> list:
        """Every equilibrium with its certificate, the enumeration and the cross-checks, for people."""
        return solution_renderables(self.to_json())

    def strategy(self, eq: BilinearEquilibrium) -> str:
        blocks = _blocks(self.game, self.open_sets)
        moves = [1 if v == 1 else -1 for v in eq.x]
        return strategy_string(moves, {i for i in self.open_sets if 0 < eq.x[i] < 1}, blocks)

    def to_json(self) -> dict:
        labels = self.game.labels
        eqs = []
        for eq, cert in zip(self.equilibria, self.certificates):
            eqs.append({
                "player": {**player_json(eq.y), "strategy": player_string(eq.y)},
                "banker": {
                    "strategy": self.strategy(eq),
                    "mixed": {labels[i]: fstr(v) for i, v in enumerate(eq.x) if 0 < v < 1},
                    "open_information_sets": [labels[i] for i in sorted(self.open_sets, key=self.game.block_key)],
                },
                "payoff": {"player": fstr(eq.payoff_I), "banker": fstr(eq.payoff_II),
                           "player_float": float(eq.payoff_I), "banker_float": float(eq.payoff_II)},
                "certificate": {
                    "holds": cert.holds,
                    "player_payoff": fstr(cert.payoff_I),
                    "player_best_response_payoff": fstr(cert.best_response_I),
                    "banker_payoff": fstr(cert.payoff_II),
                    "banker_best_response_payoff": fstr(cert.best_response_II),
                },
            })
        out: dict[str, Any] = {
            "model": self.game.model,
            "decks": decks_json(self.game.decks),
            "shoe": shoe_json(self.game.decks),
            "commission": fstr(self.alpha),
            "unique": self.unique,
            "equilibria": eqs,
            "continua": [],
        }
        if self.enumeration is not None:
            e = self.enumeration
            assert e.reduction is not None  # nash_equilibria always records it
            out["enumeration"] = {
                "method": "arrangement vertices of Banker's best-response hyperplanes in each face of "
                          "Player's cube, after iterated strict dominance (solve.bilinear)",
                "player_sets_open": [FIVE_LABELS[j] for j in e.reduction.open_I],
                "banker_sets_open": len(e.reduction.open_II),
                "systems_screened": e.candidates,
                "vertices_checked_exactly": e.vertices_tried,
                "banker_equivalent_sets_mixed": [[labels[i] for i in grp] for grp in e.merged_mixed],
                "player_points_with_equilibria": [
                    {"draw": {lab: fstr(v) for lab, v in zip(FIVE_LABELS, y)}, "banker_extreme_points": cnt}
                    for y, cnt in e.y_points],
            }
        if self.zero_sum is not None:
            z = self.zero_sum
            out["zero_sum"] = {"value_to_player": fstr(z.value), "value_float": float(z.value),
                               "certified": z.certified, "player": player_json(z.y)["draw"],
                               "banker_mixed": {labels[i]: fstr(v) for i, v in enumerate(z.x) if 0 < v < 1}}
            if self.enumeration is not None:  # zero-sum: the equilibria are (optimal y) x (optimal x)
                ys = sorted({e.y for e in self.equilibria})
                xs = sorted({e.x for e in self.equilibria})
                out["zero_sum"]["player_optimal_vertices"] = [player_json(y)["draw"] for y in ys]
                out["zero_sum"]["banker_optimal_vertices"] = [
                    {labels[i]: fstr(v) for i, v in enumerate(x) if 0 < v < 1} for x in xs]
        if self.route is not None:
            r = self.route
            out["seed_route"] = {"note": r.note, "candidates": [
                {"player": player_json(c.y)["draw"],
                 "banker_mixed": {labels[i]: fstr(v) for i, v in enumerate(c.x) if 0 < v < 1},
                 "confirmed": ok} for c, ok in zip(r.candidates, r.confirmed)]}
        return out


def _blocks(game: CheminGame3, open_sets) -> list[list[int]]:
    return group_blocks(list(open_sets), game.block_key)


def _check_model3(game: CheminGame | CheminGame3) -> CheminGame3:
    """The game, which must be Model A3 or B3 (Models 1-2: :func:`~baccara.chemin.solution.solve_chemin`)."""
    if not isinstance(game, CheminGame3):
        raise BaccaraError(f"model must be A3 or B3 here, got {game.model}: use solve_chemin")
    return game


def solve_chemin3(game: CheminGame | CheminGame3, alpha: Fraction = Fraction(1, 20), all_equilibria: bool = True) -> Chemin3Solution:
    """Chemin de fer under Model A3 or B3 at commission ``alpha``.

    ``all_equilibria``: enumerate every extreme equilibrium (settles
    uniqueness); otherwise one equilibrium by Ethier and Lee's (2023) route (or, where it
    fails, the enumeration).  At alpha = 0 the zero-sum LP is solved too.

    Parameters
    ----------
    game : CheminGame3
        Model A3 or B3 on its shoe (:func:`~baccara.chemin.model.chemin_game`).
    alpha : Fraction
        The commission, in [0, 1), as :func:`baccara.params.commission` returns it: the faces (:mod:`baccara.chemin`, the command line) check it, this trusts it.
    all_equilibria : bool
        Enumerate every extreme equilibrium, or find one by Ethier and Lee's route.

    Returns
    -------
    Chemin3Solution
        The equilibria, each with its certificate.
    """
    game = _check_model3(game)
    model = game.model
    bil = game.at(alpha)
    red = dominance_reduction(bil)
    sol = Chemin3Solution(game, alpha, bil, [], [], list(red.open_II))
    if alpha == 0:
        sol.zero_sum = solve_zero_sum(bil)
    if model == "B3":
        sol.route = seed_route(game, alpha)
    if all_equilibria or sol.route is None or not any(sol.route.confirmed):
        sol.enumeration = nash_equilibria(bil)
        sol.equilibria = list(sol.enumeration.equilibria)
    else:
        sol.equilibria = [c for c, ok in zip(sol.route.candidates, sol.route.confirmed) if ok]
    sol.certificates = [certify(bil, e.y, e.x) for e in sol.equilibria]
    return sol


def _banker_on_b3(game3: CheminGame3, q_b2: tuple[Fraction, ...], keys_b2) -> tuple[Fraction, ...]:
    pos = {k: i for i, k in enumerate(keys_b2)}
    return tuple(q_b2[pos[k]] if k in pos else Fraction(0) for k in game3.keys)


def seed_route(game3: CheminGame3, alpha: Fraction) -> SeedRoute:
    """Ethier and Lee's (2023) method (section 4): Banker restricted to the two pure strategies of his
    Model B2 equilibrium at the same (d, alpha); Foster's algorithm on the reversed game
    (Banker = player I choosing between them, Player = player II, additive in his five
    choices); each equilibrium found is then certified in the full Model B3 game."""
    b2 = solve_chemin(chemin_game("B2", game3.decks), alpha)
    eq = b2.nash.equilibria[0]
    mixed = [i for i, v in enumerate(eq.q) if 0 < v < 1]
    if len(mixed) != 1:
        return SeedRoute(None, note=f"Model B2 equilibrium mixes at {len(mixed)} sets: the route needs exactly one")
    x0 = list(eq.q)
    x1 = list(eq.q)
    x0[mixed[0]], x1[mixed[0]] = Fraction(0), Fraction(1)
    pure = (_banker_on_b3(game3, tuple(x0), b2.game.keys), _banker_on_b3(game3, tuple(x1), b2.game.keys))
    bil = game3.at(alpha)
    zero = [Fraction(0)] * bil.k
    a = tuple(bil.payoffs(zero, x)[1] for x in pure)       # Banker's payoff, Player standing at all five
    b = tuple(bil.payoffs(zero, x)[0] for x in pure)       # Player's
    h = tuple(tuple(bil.b[j] + sum((xi * gi[j] for xi, gi in zip(x, bil.g) if xi), Fraction(0)) for x in pure)
              for j in range(bil.k))                       # Banker's change when Player draws at j
    g = tuple(tuple(bil.gain_I(j, x) for x in pure) for j in range(bil.k))  # Player's gain at j
    reversed_game = AdditiveGame(a, b, h, g, FIVE_LABELS)
    route = SeedRoute(pure, note="Banker restricted to the Model B2 support; Foster with the roles reversed")
    for e in foster(reversed_game, merge=False).equilibria:
        x = tuple((1 - e.p) * u + e.p * v for u, v in zip(*pure))
        y = tuple(e.q)
        A, B = bil.payoffs(y, x)
        route.candidates.append(BilinearEquilibrium(y, x, A, B))
        route.confirmed.append(certify(bil, y, x).holds)
    return route


# ---------------------------------------------------------------- the alpha sweep
@dataclass(repr=False)
class Chemin3Sweep(Result):
    """The alpha-structure of Model B3 (Ethier and Lee (2023), Table 7, Theorem 2) with its confirmations."""

    game: CheminGame3
    restricted: CheminSweep
    confirmations: list[dict]

    def intervals(self) -> list[dict]:
        rows = self.restricted.intervals()
        out = []
        for row, conf in zip(rows, self.confirmations):
            player = {lab: ("1" if v else "0") for lab, v in zip(FIVE_LABELS, THEOREM2_PLAYER)}
            player[FIVE_LABELS[MIXED_AT]] = row["player"]["draw_at_5"]
            out.append({**row, "player": {"draw": player}, "banker_strategy": conf["strategy"],
                        "confirmed_in_full_game": conf["player_other_moves_optimal"],
                        "sample_alpha": fstr(conf["sample"]), "unique_at_sample": conf["unique_at_sample"]})
        return out

    def table7(self) -> list[str]:
        return [c["strategy"] for c in self.confirmations]

    def summary(self) -> str:
        """One line: the counts of Ethier and Lee's Table 4 for the restricted game."""
        return sweep_summary(self.to_json())

    def renderables(self) -> list:
        """The equilibrium by interval, Table 7's strategies and the confirmations, for people."""
        return sweep_renderables(self.to_json())

    def to_json(self) -> dict:
        base = self.restricted.to_json()
        for key in ("unique", "equilibria_by_interval", "equilibria_at_points"):  # the restricted game's, not B3's
            base.pop(key)
        base["model"] = self.game.model
        base["player"] = {"strategy": "DMSDD", "mixed_at": FIVE_LABELS[MIXED_AT]}
        base["intervals"] = self.intervals()
        base["table7"] = self.table7()
        base["all_confirmed"] = all(c["player_other_moves_optimal"] and c["unique_at_sample"]
                                    for c in self.confirmations)
        return base


TABLE7_BLOCKS = ((3, 8), (4, 1), (5, 4), (6, 10), (6, 6))


def table7_blocks(game) -> list[list[int]]:
    """Ethier and Lee (2023), Tables 5-7's blocks: (3,8) (4,1) (5,4) (6,none) (6,6), compositions in order."""
    return [sorted((i for i, (h, k) in enumerate(game.keys) if ((h[0] + h[1]) % 10, k) == b), key=game.block_key)
            for b in TABLE7_BLOCKS]


def sweep_chemin3(game: CheminGame | CheminGame3, lo: Fraction = Fraction(0), hi: Fraction = Fraction(1, 10),
                  confirm: bool = True) -> Chemin3Sweep:
    """Model B3's equilibria over alpha in [lo, hi] (see the module docstring).

    Parameters
    ----------
    game : CheminGame3
        Model B3 on its shoe (:func:`~baccara.chemin.model.chemin_game`).
    lo, hi : Fraction
        The commission range, 0 <= lo < hi < 1, as :func:`baccara.params.commission` returns it: the faces (:mod:`baccara.chemin`, the command line) check it, this trusts it.
    confirm : bool
        Confirm each interval's equilibrium in the full Model B3 game.

    Returns
    -------
    Chemin3Sweep
        The restricted game's sweep, Table 7's strategies and their confirmations.
    """
    if not isinstance(game, CheminGame3) or game.model != "B3":
        raise BaccaraError(f"the Model 3 sweep is Model B3's, got Model {game.model}")
    game3 = game
    restricted = game3.restricted(THEOREM2_PLAYER, MIXED_AT)
    sw = CheminSweep(restricted, sweep(restricted.linear(), lo, hi, order=restricted.block_key))
    blocks = table7_blocks(restricted)
    groups = sw.result.groups or [(i,) for i in range(len(restricted.keys))]
    bil0 = game3.at(Fraction(0))  # Player's payoffs do not involve alpha
    confirmations = []
    for iv in sw.result.intervals:
        moves = [0] * len(restricted.keys)
        x = [Fraction(0)] * len(restricted.keys)
        mixed = set()
        for k, members in enumerate(groups):
            for i in members:
                moves[i] = iv.moves[k]
                x[i] = Fraction(1) if iv.moves[k] > 0 else Fraction(0)
                if k == iv.i:
                    assert iv.q is not None  # a mixed interval
                    x[i] = iv.q
                    mixed.add(i)
        conf: dict[str, Any] = {"strategy": strategy_string(moves, mixed, blocks)}
        conf["player_other_moves_optimal"] = all(
            (bil0.gain_I(j, x) >= 0) if THEOREM2_PLAYER[j] else (bil0.gain_I(j, x) <= 0)
            for j in range(5) if j != MIXED_AT)
        sample = rational_between(iv.lo, iv.hi)
        conf["sample"] = sample
        if confirm:
            full = nash_equilibria(game3.at(sample))
            expect_y = _p_at(iv, sample)
            conf["unique_at_sample"] = full.unique and full.equilibria[0].y[MIXED_AT] == expect_y \
                and full.equilibria[0].x == tuple(x)
        else:
            conf["unique_at_sample"] = None
        confirmations.append(conf)
    return Chemin3Sweep(game3, sw, confirmations)


def table7(decks, confirm: bool = True, progress=None) -> list[dict]:
    """Ethier and Lee (2023), Table 7 and Theorem 2 for every d in ``decks``: consecutive d with the same
    Banker strategies (by alpha-interval) grouped, with the number of alpha-values where
    several equilibria exist and whether every interval was confirmed in the full game
    (``confirmed``: True, False where refuted, None where not asked and nothing refuted)."""
    rows: list[dict] = []
    for d in decks:
        sw = sweep_chemin3(chemin_game("B3", d), confirm=confirm)
        key = (tuple(sw.table7()), sw.restricted.result.counts()[4])
        # True: confirmed in the full game; None: not asked (--no-confirm) and nothing refuted; False: refuted
        refuted = not all(c["player_other_moves_optimal"] and c["unique_at_sample"] is not False
                          for c in sw.confirmations)
        ok: bool | None = False if refuted else (True if confirm else None)
        if rows and rows[-1]["key"] == key:
            rows[-1]["decks"].append(d)
            before = rows[-1]["confirmed"]
            rows[-1]["confirmed"] = False if False in (before, ok) else (None if None in (before, ok) else True)
        else:
            rows.append({"key": key, "decks": [d], "strategies": list(key[0]), "exceptional_alphas": key[1],
                         "confirmed": ok})
        if progress:
            progress(d)
    for r in rows:
        del r["key"]
    return rows


def _p_at(iv, alpha: Fraction) -> Fraction:
    if iv.pure is not None:
        return Fraction(iv.pure)
    n0, n1, d0, d1 = iv.p_formula
    return (n0 + n1 * alpha) / (d0 + d1 * alpha)
