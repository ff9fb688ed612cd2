"""Chemin de fer solved: equilibria at one commission, the alpha sweep, and Ethier and Lee's (2023) tables.

Builds on :mod:`baccara.chemin.model` (the game) and :mod:`baccara.solve`
(card-free solvers); produces result objects and JSON-ready documents in the
notation of Ethier and Lee (2023) (strategy strings of D, S and M in blocks of
information sets; information sets written ``"(3,3)|6"``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from math import gcd

from ..algebraic import fraction_str as fstr
from ..algebraic import real_json
from ..errors import BaccaraError
from ..result import Result
from ..shoe import decks_json, shoe_json
from ..solve.additive import Certificate, Equilibrium, NashSet, certify, dominance_reduction, nash_equilibria
from ..solve.sweep import Sweep, group_blocks, strategy_string, sweep
from .kernel import NONE
from .model import THIRD_LABELS, CheminGame, CheminGame3, _total, chemin_game
from .report import solution_renderables, solution_summary, sweep_renderables, sweep_summary

DEFAULT_RANGE = (Fraction(0), Fraction(1, 10))


def p_formula_text(formula: tuple[int, int, int, int]) -> str:
    """Player's p(alpha) = (n0 + n1 alpha) / (d0 + d1 alpha), reduced, as text."""
    n0, n1, d0, d1 = formula
    g = gcd(*formula)
    if d0 < 0 or (d0 == 0 and d1 < 0):
        g = -g
    n0, n1, d0, d1 = (x // g for x in formula)
    return f"({n0} {'+' if n1 >= 0 else '-'} {abs(n1)}*alpha) / ({d0} {'+' if d1 >= 0 else '-'} {abs(d1)}*alpha)"


# ---------------------------------------------------------------- one alpha
@dataclass(repr=False)
class CheminSolution(Result):
    """Every Nash equilibrium of one chemin de fer game, each with its certificate."""

    def summary(self) -> str:
        """One line: model, shoe, commission and how many equilibria."""
        return solution_summary(self.to_json())

    def renderables(self) -> list:
        """Every equilibrium with its certificate, for people."""
        return solution_renderables(self.to_json())

    game: CheminGame
    alpha: Fraction
    nash: NashSet
    certificates: list[Certificate]
    open_sets: list[int]

    @property
    def unique(self) -> bool:
        return self.nash.unique

    def strategy(self, eq: Equilibrium) -> str:
        """Banker's strategy on the information sets Lemma 1 leaves open, in blocks."""
        blocks = group_blocks(self.open_sets, self.game.block_key)
        moves = [1 if q == 1 else -1 for q in eq.q]
        mixed = {i for i in self.open_sets if 0 < eq.q[i] < 1}
        return strategy_string(moves, mixed, blocks)

    def to_json(self) -> dict:
        labels = self.game.labels
        out = []
        for eq, cert in zip(self.nash.equilibria, self.certificates):
            out.append({
                "player": {"draw_at_5": fstr(eq.p), "draw_at_5_float": float(eq.p)},
                "banker": {
                    "strategy": self.strategy(eq),
                    "mixed": {labels[i]: fstr(eq.q[i]) for i in range(len(eq.q)) if 0 < eq.q[i] < 1},
                    "open_information_sets": [labels[i] for i in sorted(self.open_sets, key=self.game.block_key)],
                },
                "payoff": {"player": fstr(eq.payoff_I), "banker": fstr(eq.payoff_II),
                           "player_float": float(eq.payoff_I), "banker_float": float(eq.payoff_II)},
                "certificate": {
                    "holds": cert.holds,
                    "player_payoff_if_stand": fstr(cert.payoff_I_by_u[0]),
                    "player_payoff_if_draw": fstr(cert.payoff_I_by_u[1]),
                    "banker_payoff": fstr(cert.payoff_II),
                    "banker_best_response_payoff": fstr(cert.best_response_II),
                },
            })
        return {
            "model": self.game.model,
            "decks": decks_json(self.game.decks),
            "shoe": shoe_json(self.game.decks),
            "commission": fstr(self.alpha),
            "unique": self.unique,
            "equilibria": out,
            "continua": [{"p_from": fstr(a), "p_to": fstr(b)} for a, b, _ in self.nash.continua],
            "equivalent_information_sets": equivalent_json(self.game),
        }


def equivalent_json(game: CheminGame) -> list[list[str]]:
    """Banker's equivalent information sets (payoffs proportional at every commission), as labels:
    each group is one decision, its members listed playing alike."""
    return [[game.labels[i] for i in m] for m in game.equivalent_sets() if len(m) > 1]


def _game12(game: CheminGame | CheminGame3, model3_function: str) -> CheminGame:
    """The additive game of Models 1-2; Model 3 is refused with the function that solves it."""
    if not isinstance(game, CheminGame):
        raise BaccaraError(f"model {game.model} is Model 3 (Player sees his composition): use {model3_function}")
    return game


def solve_chemin(game: CheminGame | CheminGame3, alpha: Fraction = Fraction(1, 20)) -> CheminSolution:
    """All Nash equilibria of chemin de fer ``game`` at commission ``alpha``.

    Parameters
    ----------
    game : CheminGame
        Model A1, A2, B1 or B2 on its shoe (:func:`~baccara.chemin.model.chemin_game`; Model 3:
        :func:`~baccara.chemin.model3.solve_chemin3`).
    alpha : Fraction
        The commission, in [0, 1), as :func:`baccara.params.commission` returns it: the faces (:mod:`baccara.chemin`, the command line) check it, this trusts it.

    Returns
    -------
    CheminSolution
        The equilibria, each with its certificate.
    """
    game = _game12(game, "solve_chemin3")
    g = game.at(alpha)
    nash = nash_equilibria(g, groups=game.equivalent_sets())
    certs = [certify(g, eq.p, eq.q) for eq in nash.equilibria]
    _, open_sets = dominance_reduction(g)
    return CheminSolution(game, alpha, nash, certs, open_sets)


# ---------------------------------------------------------------- best-response table
def best_response_table(game: CheminGame, p: Fraction, alpha: Fraction) -> tuple[list[list[str]], list[str]]:
    """Banker's best response to Player drawing at 5 with probability p, in the layout of
    Ethier and Lee (2023), Table 1: rows Banker total 0-7, columns Player's third card 0-9 and none.

    A cell is D (draw), S (stand) or M (indifferent) when every composition of
    that total agrees; otherwise ``*`` with a note listing the compositions.
    """
    g = game.at(alpha)
    cells: dict[tuple[int, int], dict[str, str]] = {}
    for i, (hand, third) in enumerate(game.keys):
        v = g.gain_II(i, Fraction(p))
        move = "D" if v > 0 else ("S" if v < 0 else "M")
        name = f"({hand[0]},{hand[1]})" if isinstance(hand, tuple) else str(hand)
        cells.setdefault((_total(hand), third), {})[name] = move
    rows, notes = [], []
    for t in range(8):
        row = []
        for k in list(range(10)) + [NONE]:
            moves = cells.get((t, k), {})
            kinds = set(moves.values())
            if len(kinds) == 1:
                row.append(kinds.pop())
            elif not kinds:
                row.append("-")
            else:
                row.append("*")
                notes.append(f"({t},{THIRD_LABELS[k]}): " + ", ".join(f"{c} {m}" for c, m in moves.items()))
        rows.append(row)
    return rows, notes


# ---------------------------------------------------------------- the sweep
@dataclass(repr=False)
class CheminSweep(Result):
    """The exact alpha-structure of chemin de fer's equilibria for one model and d.

    ``as_model`` is ``"A3"`` when Model A3 was asked for: with replacement Player's five
    compositions of 5 are one decision, so its equilibria are Model A1's (``game``).
    """

    game: CheminGame
    result: Sweep
    as_model: str | None = None

    def label(self, k: int) -> str:
        assert self.result.game is not None  # sweep() records the game
        return self.result.game.labels[k]

    def _blocks(self) -> list[list[int]]:
        groups = self.result.groups  # merged information set k -> its members
        return group_blocks([c.index for c in self.result.curves], lambda k: self.game.block_key(groups[k][0]))

    def table2(self) -> list[dict]:
        """Ethier and Lee (2023), Table 2: one row per case (curve segment)."""
        blocks = self._blocks()
        return [{
            "case": n + 1,
            "curve": self.label(c.i),
            "alpha_from": real_json(c.lo),
            "alpha_to": real_json(c.hi),
            "strategy": strategy_string(c.moves, {c.i}, blocks),
            "equalizing_q": None if c.q is None else fstr(c.q),
            "equilibrium": c.equilibrium,
        } for n, c in enumerate(self.result.cases)]

    def table3(self) -> list[dict]:
        """Ethier and Lee (2023), Table 3: one row per intersection of two curves."""
        blocks = self._blocks()
        return [{
            "case": n + 1,
            "curves": [self.label(p.point.i), self.label(p.point.j)],
            "alpha": real_json(p.point.alpha),
            "strategy": strategy_string(p.moves, set().union(*p.extremes) or {p.point.i, p.point.j}, blocks),
            "several_equilibria": p.exceptional,
            "banker_extreme_strategies": [{self.label(k): fstr(v) for k, v in e.items()} for e in p.extremes],
        } for n, p in enumerate(self.result.points)]

    def intervals(self) -> list[dict]:
        """One row per extreme equilibrium and maximal alpha-interval (rows overlap where it is not unique)."""
        out = []
        for iv in self.result.intervals:
            row = {"alpha_from": real_json(iv.lo), "alpha_to": real_json(iv.hi)}
            if iv.pure is not None:
                row["player"] = {"draw_at_5": fstr(iv.pure)}
            else:
                assert iv.p_formula is not None  # Player mixes on a curve
                row["player"] = {"draw_at_5": p_formula_text(iv.p_formula)}
            row["banker"] = {"mixed": {} if iv.i is None or iv.q is None else {self.label(iv.i): fstr(iv.q)}}
            out.append(row)
        return out

    def _banker(self, q: tuple[Fraction, ...], open_sets: tuple[int, ...]) -> dict:
        """Banker's strategy as ``chemin solve`` writes it: on the open information sets, in blocks."""
        groups = self.result.groups  # merged information set k -> its members
        full = [Fraction(0)] * len(self.game.keys)
        for k, members in enumerate(groups):
            for i in members:
                full[i] = q[k]
        sets = [i for k in open_sets for i in groups[k]]
        blocks = group_blocks(sets, self.game.block_key)
        mixed = {i for i in sets if 0 < full[i] < 1}
        labels = self.game.labels
        return {"strategy": strategy_string([1 if x == 1 else -1 for x in full], mixed, blocks),
                "mixed": {labels[i]: fstr(full[i]) for i in range(len(full)) if 0 < full[i] < 1}}

    def equilibria_by_interval(self) -> list[dict]:
        """The commission range cut into open intervals on each of which the set of equilibria
        follows fixed formulas: whether it is unique, and every extreme equilibrium (what
        ``chemin solve`` finds at any commission inside), with any continuum of Player's p."""
        def end(x) -> str:
            return fstr(x) if isinstance(x, int) else p_formula_text(x)
        return [{
            "alpha_from": real_json(pc.lo),
            "alpha_to": real_json(pc.hi),
            "unique": pc.unique,
            "equilibria": [{"player": {"draw_at_5": end(br.pure if br.p_formula is None else br.p_formula)},
                            "banker": self._banker(br.q, pc.open)} for br in pc.branches],
            "continua": [{"p_from": end(a), "p_to": end(b)} for a, b in pc.continua],
        } for pc in self.result.pieces]

    def equilibria_at_points(self) -> list[dict]:
        """Every commission in the range where the equilibria are not the limits of a neighbouring
        interval's (several where the intervals beside have one, or others): all of them, exactly."""
        return [{
            "alpha": real_json(pt.alpha),
            "unique": pt.unique,
            "equilibria": [{"player": {"draw_at_5": str(p), "draw_at_5_float": float(p)},
                            "banker": self._banker(q, pt.open)} for p, q in pt.equilibria],
            "continua": [{"p_from": str(a), "p_to": str(b)} for a, b in pt.continua],
        } for pt in self.result.special]

    def summary(self) -> str:
        """One line: the counts of Ethier and Lee's Table 4."""
        return sweep_summary(self.to_json())

    def renderables(self) -> list:
        """The equilibrium by interval and Tables 2-3, for people."""
        return sweep_renderables(self.to_json())

    def to_json(self) -> dict:
        a, b, c, d, e = self.result.counts()
        r = self.result
        note = {} if self.as_model is None else {"note": (
            "with replacement Player's five compositions of 5 are equivalent: Model A3's equilibria are Model A1's, "
            "Player drawing at 5 with the total probability p(alpha) split across them in any way")}
        return {
            "model": self.as_model or self.game.model,
            "decks": decks_json(self.game.decks),
            "shoe": shoe_json(self.game.decks),
            "commission_range": [fstr(r.lo), fstr(r.hi)],
            "curves": a,
            "intersections": b,
            "partial_curves": c,
            "cases": d,
            "exceptional_alphas": e,
            "curve_list": [{"information_set": x.label, "partial": x.partial,
                            "defined_on": [[fstr(p), fstr(q)] for p, q in x.pieces]} for x in r.curves],
            "exceptional": [real_json(a_) for a_ in sorted({p.point.alpha for p in r.exceptional})],
            "intervals": self.intervals(),
            "table2": self.table2(),
            "table3": self.table3(),
            "continua": r.continua,
            "unique": r.unique,
            "equilibria_by_interval": self.equilibria_by_interval(),
            "equilibria_at_points": self.equilibria_at_points(),
            "equivalent_information_sets": equivalent_json(self.game),
            **note,
        }


def sweep_chemin(game: CheminGame | CheminGame3, lo: Fraction = DEFAULT_RANGE[0], hi: Fraction = DEFAULT_RANGE[1],
                 equilibria: bool = True) -> CheminSweep:
    """The alpha sweep of chemin de fer ``game`` (Ethier and Lee (2023), section 3) over [lo, hi].

    Parameters
    ----------
    game : CheminGame or CheminGame3
        Model A1, A2, B1 or B2 on its shoe, or Model A3 (swept as A1, and said so)
        (:func:`~baccara.chemin.model.chemin_game`; Model B3:
        :func:`~baccara.chemin.model3.sweep_chemin3`).
    lo, hi : Fraction
        The commission range, 0 <= lo < hi < 1, as :func:`baccara.params.commission` returns it: the faces (:mod:`baccara.chemin`, the command line) check it, this trusts it.
    equilibria : bool
        False: Ethier and Lee's construction only, what Table 4 counts.

    Returns
    -------
    CheminSweep
        The curves, their intersections and the equilibria on every alpha-interval.
    """
    if game.model == "A3":  # with replacement the compositions of 5 are one decision: Model A1
        a1 = sweep_chemin(chemin_game("A1", game.decks), lo, hi, equilibria)
        return CheminSweep(a1.game, a1.result, as_model="A3")
    game = _game12(game, "sweep_chemin3")
    return CheminSweep(game, sweep(game.linear(), lo, hi, order=game.block_key, equilibria=equilibria))


def table4(decks: Iterable[int | None], progress: Callable[[int | None], None] | None = None) -> list[tuple]:
    """Ethier and Lee (2023), Table 4: (d, (a), (b), (c), (d), (e)) for each d, Model B2 (d = None: the limit, Model A2)."""
    rows = []
    for d in decks:
        sw = sweep_chemin(chemin_game("B2" if d is not None else "A2", d), equilibria=False)
        rows.append((d, *sw.result.counts()))
        if progress:
            progress(d)
    return rows


def table5(decks: Iterable[int], progress: Callable[[int], None] | None = None) -> list[list[str]]:
    """Ethier and Lee (2023), Table 5: Banker's equilibrium move (D or S) at each (total, third card)
    where it is the same at every composition, every d in ``decks`` and every
    alpha in [0, 1/10]; blank where it varies (the cells Table 6 details).
    Rows: total 0-7; columns: third card 0-9, then none."""
    seen: dict[tuple[int, int], set[str]] = {}
    for d in decks:
        sw = sweep_chemin(chemin_game("B2", d))
        game, groups = sw.game, sw.result.groups
        for iv in sw.result.intervals:
            for k, members in enumerate(groups):
                for i in members:
                    hand, third = game.keys[i]
                    move = "M" if k == iv.i else ("D" if iv.moves[k] > 0 else "S")
                    seen.setdefault((_total(hand), third), set()).add(move)
        if progress is not None:
            progress(d)
    return [[(lambda m: m.copy().pop() if len(m) == 1 and "M" not in m else "")(seen.get((t, k), set()))
             for k in list(range(10)) + [NONE]] for t in range(8)]


def table1(game: CheminGame, lo: Fraction = DEFAULT_RANGE[0], hi: Fraction = DEFAULT_RANGE[1]) -> list[list[str]]:
    """Ethier and Lee (2023), Table 1: Banker's move where it is the same against both Player pure
    strategies (stand or draw at 5), at both ends of the commission range and at every
    composition of the total (by linearity in alpha, then for every alpha between);
    blank where it is not (the undetermined information sets).
    Rows: total 0-7; columns: third card 0-9, then none."""
    seen: dict[tuple[int, int], set[str]] = {}
    for alpha in (lo, hi):
        g = game.at(alpha)
        for i, (hand, third) in enumerate(game.keys):
            for u in (0, 1):
                v = g.g[i][u]
                seen.setdefault((_total(hand), third), set()).add("D" if v > 0 else "S" if v < 0 else "=")
    return [[(lambda m: next(iter(m)) if len(m) == 1 and "=" not in m else "")(seen.get((t, k), set()))
             for k in list(range(10)) + [NONE]] for t in range(8)]
