"""Baccara banque's full models (Ethier and Lee 2015, introduction: Downton and Lockwood).

In the simplified model Player 2 ignores Player 1's hand.  In the full models
he decides at 5 knowing what Player 1 showed:

- ``traditional``: Player 1's third card (0-9), or that he stood, or that he
  has a natural -- 12 information sets, a 2 x 2^12 x 2^1144 game;
- ``recent``: only Player 1's intention -- he drew, stood, or has a natural --
  3 information sets, a 2 x 2^3 x 2^1144 game.

Cards are dealt with replacement as in the simplified model, so the deals
split by what Player 1 shows (c = 0-11) and every payoff is a sum over c of
terms that depend on Player 1's move u1 and on Player 2's move at c's class
only.  Banker's information set (k1, k2, j) lies in one class (that of k1).

The correlated cooperative equilibrium -- the Players' coalition, free to
correlate, against Banker -- is a zero-sum game between 2 x 2^k team pure
strategies and Banker's additive choices.  It is solved by column
generation: solve the game restricted to a few team strategies exactly
(:func:`baccara.solve.zero_sum.solve_additive_zero_sum`: LP basis, exact
rationals, certificate); against Banker's minimax strategy q, find the
team's best pure reply among all 2 x 2^k (for each u1, the best move at each
class separately, by additivity); if it earns more than the restricted value,
add it and repeat.  At the end the team's mixture guarantees v against every
Banker strategy and q holds every one of the 2 x 2^k team strategies to v: v
is the value of the full game, certified.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from ..algebraic import fraction_str as fstr
from ..errors import BaccaraError, CertificateError
from ..result import Result
from ..solve.zero_sum import ZeroSumAdditive, solve_additive_zero_sum
from .model import BanqueGame, banque_game, infoset_label
from .report import full_renderables, full_summary

#: Player 2's information classes: which values c (what Player 1 shows) each contains.
CLASSES = {
    "traditional": tuple((c,) for c in range(12)),
    "recent": (tuple(range(10)), (10,), (11,)),
    "simplified": (tuple(range(12)),),
}
CLASS_LABELS = {
    "traditional": tuple(str(c) for c in range(10)) + ("stood", "natural"),
    "recent": ("drew", "stood", "natural"),
    "simplified": ("any",),
}


def check_model(model: str) -> str:
    """The full model's name, checked.

    Parameters
    ----------
    model : str
        ``"traditional"``, ``"recent"`` or ``"simplified"``.

    Returns
    -------
    str
        The model.
    """
    if model not in CLASSES:
        raise BaccaraError(f"model must be one of {', '.join(CLASSES)}, got {model!r}")
    return model


@dataclass(frozen=True)
class TeamGame:
    """The coalition's game at theta under a model: per (u1, class, b) base terms and Banker's
    gains per information set, all exact over 13^9."""

    model: str
    theta: Fraction
    source: BanqueGame                               # the simplified game's sums on the same shoe
    const: Fraction                                  # deals ended by naturals
    A: dict                                          # (u1, class, b) -> Players' base payoff
    H: dict                                          # (u1, b) -> Players' gain per Banker set
    set_class: tuple[int, ...]                       # class of each Banker information set

    @property
    def k(self) -> int:
        return len(CLASSES[self.model])

    def column(self, u1: int, bits: tuple[int, ...]) -> tuple[Fraction, tuple[Fraction, ...]]:
        """(a_u, h^u over Banker's sets) for the team pure strategy (u1, bits)."""
        a = self.const + sum((self.A[(u1, c, b)] for c, b in enumerate(bits)), Fraction(0))
        h = tuple(self.H[(u1, bits[self.set_class[i]])][i] for i in range(len(self.set_class)))
        return a, h

    def best_reply(self, q) -> tuple[Fraction, tuple[int, tuple[int, ...]]]:
        """The team's best pure reply to Banker's behavioural strategy q: for each u1 the best
        move at each class separately (the payoff is a sum over classes)."""
        best = None
        for u1 in (0, 1):
            total, bits = self.const, []
            for c in range(self.k):
                vals = []
                for b in (0, 1):
                    h = self.H[(u1, b)]
                    vals.append(self.A[(u1, c, b)] + sum((q[i] * h[i] for i in range(len(q))
                                                          if q[i] and self.set_class[i] == c), Fraction(0)))
                bits.append(0 if vals[0] >= vals[1] else 1)
                total += max(vals)
            if best is None or total > best[0]:
                best = (total, (u1, tuple(bits)))
        assert best is not None  # set at u1 = 0
        return best


def team_game(theta: Fraction, model: str = "traditional", game: BanqueGame | None = None) -> TeamGame:
    """The coalition game of ``model`` at ``theta``.

    Parameters
    ----------
    theta : Fraction
        Player 1's share of the stakes, in (0, 1).
    model : str
        ``"traditional"``, ``"recent"`` or ``"simplified"``.
    game : BanqueGame, optional
        The simplified game on the shoe wanted (default: the paper's infinite shoe).

    Returns
    -------
    TeamGame
        The coalition's pure strategies' payoffs against Banker's.
    """
    model = check_model(model)
    g = game or banque_game()
    sums = {(u1, b): g.split(u1, b) for u1 in (0, 1) for b in (0, 1)}  # Player 2 playing b at every class
    classes = CLASSES[model]
    cls_of = {c: k for k, members in enumerate(classes) for c in members}
    D = g.denominator

    def mix(v1, v2):
        return (theta * int(v1) + (1 - theta) * int(v2)) / D

    A = {}
    for (u1, b), (base, _) in sums.items():
        for k, members in enumerate(classes):
            A[(u1, k, b)] = sum((mix(base[0][c], base[1][c]) for c in members), Fraction(0))
    consts = {mix(base[0][12], base[1][12]) for base, _ in sums.values()}
    assert len(consts) == 1  # play ended by naturals: no one's move matters
    H = {key: tuple(mix(gain[0][k], gain[1][k]) for k in g.infosets) for key, (_, gain) in sums.items()}
    set_class = tuple(cls_of[k1] for k1, _, _ in g.infosets)
    return TeamGame(model, theta, g, consts.pop(), A, H, set_class)


def strategy_label(model: str, u1: int, bits: tuple[int, ...]) -> str:
    """``"P1 D; P2 D on 0-9 ..."`` in compact form: Player 1's move, then Player 2's per class."""
    moves = "".join("D" if b else "S" for b in bits)
    return f"{'D' if u1 else 'S'}|{moves}"


@dataclass(repr=False)
class FullCorrelated(Result):
    """The correlated cooperative equilibrium of a full model at theta, certified (a :class:`~baccara.result.Result`)."""

    game: TeamGame
    columns: list[tuple[int, tuple[int, ...]]]
    solution: ZeroSumAdditive
    best_reply_value: Fraction
    iterations: int
    history: list[Fraction] = field(default_factory=list)

    @property
    def value(self) -> Fraction:
        return self.solution.value

    @property
    def certified(self) -> bool:
        """The team's mixture guarantees v, and Banker's q holds every team strategy to v."""
        return self.solution.certified and self.best_reply_value == self.solution.value

    @property
    def banker_ties(self) -> dict[int, int]:
        """Banker's pure move (1 draw, 0 stand) at each set where the team's mixture leaves him
        exactly indifferent: there his move does not change his payoff against that mixture,
        but it is part of the strategy q that holds every team strategy to the value (another
        move there can let some team strategy earn more), so it is reported."""
        s = self.solution
        cols = [self.game.column(*c)[1] for c in self.columns]
        out = {}
        for i, qi in enumerate(s.q):
            if qi in (0, 1) and any(h[i] for h in cols):
                if sum((w * h[i] for w, h in zip(s.p, cols) if w), Fraction(0)) == 0:
                    out[i] = int(qi)
        return out

    def summary(self) -> str:
        """One line: the model, what Player 2 sees, theta and the certificate."""
        return full_summary(self.to_json())

    def renderables(self) -> list:
        """The team's mixture, the value and Banker's minimax strategy."""
        return full_renderables(self.to_json())

    def to_json(self) -> dict:
        """The ``baccara banque solve --model ... --json`` document (keys in the user guide)."""
        g = self.game.source
        s = self.solution
        model = self.game.model
        return {
            "theta": fstr(self.game.theta),
            "concept": "correlated",
            "model": model,
            "shoe": g.shoe_json(),
            "player2_information": list(CLASS_LABELS[model]),
            "players": {strategy_label(model, *col): fstr(w) for col, w in zip(self.columns, s.p) if w},
            "players_note": "team pure strategies: Player 1's move at 5 | Player 2's move at 5 for each thing "
                            "Player 1 may show (" + ", ".join(CLASS_LABELS[model]) + ")",
            "value": fstr(s.value),
            "value_float": float(s.value),
            "banker": {"mixed": {infoset_label(g.infosets[i]): fstr(v) for i, v in enumerate(s.q) if 0 < v < 1},
                       "indifferent_pure": {infoset_label(g.infosets[i]): "draw" if m else "stand"
                                            for i, m in self.banker_ties.items()},
                       "indifferent_note": "sets where the team's mixture leaves Banker exactly indifferent and his "
                                           "minimax strategy plays pure: this move attains the value (another may "
                                           "not hold every team strategy to it)"},
            "expectations": {"players": fstr(s.value), "banker": fstr(-s.value),
                             "banker_advantage_percent": float(-s.value) * 100},
            "certificate": {"holds": self.certified, "players_guarantee": fstr(s.guaranteed_by_I),
                            "best_team_reply_to_banker": fstr(self.best_reply_value),
                            "team_strategies": 2 * 2 ** self.game.k, "columns_generated": len(self.columns),
                            "iterations": self.iterations},
        }


def full_correlated_equilibrium(game: BanqueGame, theta: Fraction, model: str = "traditional",
                                max_iter: int = 200) -> FullCorrelated:
    """The correlated cooperative equilibrium of ``model`` at ``theta`` by column generation.

    Parameters
    ----------
    game : BanqueGame
        The game (:func:`~baccara.banque.model.banque_game`; ``banque_game()`` is the paper's
        infinite shoe).
    theta : Fraction
        Player 1's share of the total stake, in (0, 1).  Unlike the simplified model the
        full models are not symmetric in theta and 1 - theta: Player 2 sees Player 1's hand.
    model : str
        ``"traditional"``, ``"recent"`` or ``"simplified"``.
    max_iter : int
        The most columns to generate.

    Returns
    -------
    FullCorrelated
        Its ``certified`` is always True.

    Raises
    ------
    BaccaraError
        If the model is unknown.
    CertificateError
        If the restricted game's exact certificate fails or the column generation does not
        end within ``max_iter`` iterations: never an uncertified answer.
    """
    team = team_game(theta, model, game)
    k = team.k
    columns = [(u1, (b,) * k) for u1 in (0, 1) for b in (0, 1)]  # the simplified model's SS, SD, DS, DD
    history = []
    warm = None
    where = f"theta = {team.theta} (in (0, 1)), {model} model, {team.source.label()}"
    for it in range(1, max_iter + 1):
        cols = [team.column(*c) for c in columns]
        a = [c[0] for c in cols]
        h = [tuple(c[1][i] for c in cols) for i in range(len(team.set_class))]
        sol = solve_additive_zero_sum(a, h, warm=warm)
        warm = sol.basis  # the next game's start: this basis, the new column's slack basic (dual feasible)
        if not sol.certified:
            raise CertificateError(f"{where}: the exact certificate of the game restricted to {len(columns)} "
                                   f"team strategies fails (the team guarantees {sol.guaranteed_by_I}, Banker "
                                   f"holds it to {sol.held_by_II})")
        history.append(sol.value)
        best, col = team.best_reply(sol.q)
        if best <= sol.value:
            return FullCorrelated(team, columns, sol, best, it, history)
        if col in columns:  # cannot happen when the restricted game is solved exactly
            raise CertificateError(f"{where}: column generation stalled: the team's best reply {col} is "
                                   "already a column")
        columns.append(col)
    raise CertificateError(f"{where}: column generation did not converge in {max_iter} iterations")
