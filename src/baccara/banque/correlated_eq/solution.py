"""Baccara banque solved: the correlated cooperative equilibrium (Ethier and Lee 2015, section 3).

The two Players form a coalition against Banker and may correlate their
choices: a zero-sum game between the coalition's mixture p over (SS, SD, DS,
DD) and Banker's 2^1144 pure strategies, additive over his information
sets.  Solved exactly by :func:`baccara.solve.zero_sum.solve_additive_zero_sum`
(LP basis, exact rationals, certificate).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ...algebraic import fraction_str as fstr
from ...errors import CertificateError
from ...result import Result
from ...solve.zero_sum import ZeroSumAdditive, best_reply_I, solve_additive_zero_sum
from ..model import JOINT_LABELS, NATURAL, BanqueGame, infoset_label
from ..report import correlated_renderables, correlated_summary


@dataclass(repr=False)
class CorrelatedSolution(Result):
    """The correlated cooperative equilibrium at one theta (a :class:`~baccara.result.Result`)."""

    theta: Fraction
    game: BanqueGame
    h: list[tuple[Fraction, ...]]
    a: tuple[Fraction, ...]
    solution: ZeroSumAdditive

    @property
    def p(self) -> tuple[Fraction, ...]:
        return self.solution.p

    @property
    def value(self) -> Fraction:
        """The game's value to the Players (per unit of total stake)."""
        return self.solution.value

    @property
    def mixed(self) -> dict[tuple[int, int, int], Fraction]:
        """Banker's information sets where he mixes, with his drawing probability."""
        return {self.game.infosets[i]: q for i, q in enumerate(self.solution.q) if 0 < q < 1}

    @property
    def m(self) -> int:
        """Information sets whose best move depends on p (counted non-strictly, as Ethier and Lee 2015 count them)."""
        return sum(1 for hi in self.h if any(x != 0 for x in hi) and min(hi) <= 0 <= max(hi))

    def table1(self) -> list[list[str]]:
        """Ethier and Lee (2015), Table 1: Banker's maximum drawing total by (Player 1's, Player 2's) third
        card (10 stood, 11 natural); "5+" = draw on 0-5, mix on 6; "" for (11, 11)."""
        q = dict(zip(self.game.infosets, self.solution.q))
        rows = []
        for k1 in range(12):
            row = []
            for k2 in range(12):
                if (k1, k2) == (NATURAL, NATURAL):
                    row.append("")
                    continue
                moves = [q[(k1, k2, j)] for j in range(8)]
                top = max((j for j in range(8) if moves[j] == 1), default=-1)
                mixed = [j for j in range(8) if 0 < moves[j] < 1]
                regular = all(m == 1 for m in moves[: top + 1]) and all(
                    m == 0 for j, m in enumerate(moves) if j > top and j not in mixed
                ) and all(j == top + 1 for j in mixed)
                row.append(f"{top}{'+' if mixed else ''}" if regular else "".join(
                    "D" if m == 1 else "S" if m == 0 else "M" for m in moves))
            rows.append(row)
        return rows

    def matrix(self) -> tuple[list[str], list[list[Fraction]]]:
        """The matrix game left when Banker's undecided sets are free (Ethier and Lee (2015) (19)):
        rows the Players' SS, SD, DS, DD; columns Banker's pure choices at the mixed sets."""
        mixed = [i for i, q in enumerate(self.solution.q) if 0 < q < 1]
        base_q = [Fraction(1) if q == 1 else Fraction(0) for q in self.solution.q]
        cols, labels = [], []
        for bits in range(1 << len(mixed)):
            q = list(base_q)
            for b, i in enumerate(mixed):
                q[i] = Fraction((bits >> (len(mixed) - 1 - b)) & 1)
            cols.append(best_reply_I(self.a, self.h, q))
            labels.append("".join("D" if (bits >> (len(mixed) - 1 - b)) & 1 else "S" for b in range(len(mixed))))
        return labels, [[cols[c][r] for c in range(len(cols))] for r in range(4)]

    def summary(self) -> str:
        """One line: theta, the shoe when not the paper's, and the certificate."""
        return correlated_summary(self.to_json())

    def renderables(self) -> list:
        """The mixture, the value, Banker's mixed sets and Table 1."""
        return correlated_renderables(self.to_json())

    def to_json(self) -> dict:
        """The ``baccara banque solve --json`` document (keys in the user guide)."""
        s = self.solution
        return {
            "theta": fstr(self.theta),
            "concept": "correlated",
            "model": "simplified",
            "shoe": self.game.shoe_json(),
            "players": {lab: fstr(x) for lab, x in zip(JOINT_LABELS, s.p)},
            "value": fstr(s.value),
            "value_float": float(s.value),
            "banker": {"mixed": {infoset_label(k): fstr(v) for k, v in self.mixed.items()},
                       "table1": self.table1()},
            "expectations": {"players": fstr(s.value), "banker": fstr(-s.value),
                             "banker_advantage_percent": float(-s.value) * 100},
            "m": self.m,
            "certificate": {"holds": s.certified, "players_guarantee": fstr(s.guaranteed_by_I),
                            "banker_holds_players_to": fstr(s.held_by_II)},
        }


def correlated_equilibrium(game: BanqueGame, theta: Fraction) -> CorrelatedSolution:
    """The correlated cooperative equilibrium of the simplified model, certified exactly.

    Parameters
    ----------
    game : BanqueGame
        The game (:func:`~baccara.banque.model.banque_game`; ``banque_game()`` is the paper's
        infinite shoe).
    theta : Fraction
        Player 1's share of the total stake, in (0, 1).  theta and 1 - theta give the same
        game with the Players swapped (SD and DS exchanged), so (0, 1/2] covers every case.

    Returns
    -------
    CorrelatedSolution
        Its ``solution.certified`` is always True.

    Raises
    ------
    CertificateError
        If the exact certificate fails (the Players' mixture does not guarantee the value
        or Banker's strategy does not hold them to it): never a silent wrong answer.
    """
    a, h = game.a(theta), game.h(theta)
    sol = solve_additive_zero_sum(a, h)
    if not sol.certified:
        raise CertificateError(
            f"theta = {theta} (in (0, 1)), {game.label()}: the exact certificate of the correlated cooperative equilibrium "
            f"fails: the Players guarantee {sol.guaranteed_by_I}, Banker holds them to {sol.held_by_II}, "
            f"the solver's value is {sol.value}")
    return CorrelatedSolution(theta, game, h, a, sol)
