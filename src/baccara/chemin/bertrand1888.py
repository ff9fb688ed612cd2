"""Bertrand's four baccarat problems (Ethier (2021): Ethier, "A note on Bertrand's analysis of baccarat").

Chemin de fer with replacement, each side seeing his own two-card total
(Model A1 of :mod:`baccara.chemin.model`).  A third card has value i with
probability p(i) = (1 + 3 delta_{i,0}) / 13 and a two-card hand has total j
with probability q(j) = (16 + 9 delta_{j,0}) / 13^2 (Ethier 2021, section 2).

Banker's tables are 8 x 11 tuples of 0/1: rows are Banker's two-card total
0-7, columns Player's third card 0-9 and then "none" (Player stood, column
:data:`STOOD` = 10); 1 = draw.  D_u is Banker's best response when he assumes
Player always stands (u = 0) or always draws (u = 1) at 5.  Bertrand's
problems: Player holds 5, Banker (unaware of it) plays D_u, Player stands
(v = 0) or draws (v = 1); W_{u,v}, T_{u,v}, E_{u,v} are Player's probability
of winning, of a tie, and his expectation (equations (3)-(5)).

Every number here is an exact :class:`~fractions.Fraction`, computed; none is
typed in.  The historical tables (Badoureau's erroneous D1, Dormoy's) are the
computed ones with the cells the paper names changed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import cast

from .. import params
from ..algebraic import fraction_str
from ..errors import BaccaraError
from ..result import Result
from ..rules import PUNTO_BANCO, STOOD
from ..solve.additive import AdditiveGame, nash_equilibria
from ..solve.signs import sign
from .model import THIRD_LABELS, CheminGame, chemin_game

Table = tuple[tuple[int, ...], ...]
Cell = tuple[int, int]

#: Cells (Banker total, third card; 10 = none) named by Ethier (2021), section 3.
BADOUREAU_D1_ERRORS: tuple[Cell, ...] = ((4, 1), (4, 9), (6, 6))
DORMOY_D1_ERRORS: tuple[Cell, ...] = ((6, 6),)
DORMOY_D0_INDIFFERENT: Cell = (5, 4)


# ---------------------------------------------------------------- distributions


def third_card(i: int) -> Fraction:
    """p(i) = (1 + 3 delta_{i,0}) / 13: value of one card drawn with replacement (section 2)."""
    return Fraction(1 + 3 * (i == 0), 13)


def two_card(j: int) -> Fraction:
    """q(j) = (16 + 9 delta_{j,0}) / 13^2: total of a two-card hand (section 2)."""
    return Fraction(16 + 9 * (j == 0), 169)


def player_totals(u: int, k: int) -> range:
    """Player's two-card totals that lead to column k under pure strategy u: 0..4+u drew, 5+u..7 stood."""
    return range(5 + u, 8) if k == STOOD else range(0, 5 + u)


def column_weight(u: int, k: int) -> Fraction:
    """sum q(i) over :func:`player_totals` (u, k): the denominators of equations (1)-(2).

    Times 13^2: 89 (u = 0) and 105 (u = 1) for a third card, 137 - 89 and
    137 - 105 for "none" (section 3).
    """
    return sum((two_card(i) for i in player_totals(u, k)), Fraction(0))


# ---------------------------------------------------------------- Banker's tables


@lru_cache(maxsize=16)
def _game(alpha: Fraction) -> tuple[AdditiveGame, dict[Cell, int]]:
    cg = cast(CheminGame, chemin_game("A1", None))  # Model 1: additive
    return cg.at(alpha), {key: i for i, key in enumerate(cg.keys)}


def banker_table(p: Fraction | int, alpha: Fraction | int | float | str = 0) -> Table:
    """Banker's best response to Player drawing at 5 with probability p (equations (1)-(2)).

    Entry (j, k) is 1 iff (1 - p) g^0_{j,k} + p g^1_{j,k} > 0, where g^u is
    Banker's gain from drawing over standing at (j, k) against pure strategy
    u, with joint probabilities (Model A1 at commission alpha; alpha = 0 is
    Bertrand's game).  D_0 = banker_table(0), D_1 = banker_table(1), and
    D_{1/2} = banker_table(1/2) (section 3).  Indifference stands.

    Parameters
    ----------
    p : Fraction or int
        Player's probability of drawing at 5.
    alpha : Fraction, int, float or str
        The commission, in [0, 1) (default 0, Bertrand's game).

    Returns
    -------
    tuple of tuple of int
        Rows by Banker total 0-7, columns by Player's third card 0-9 and 10 (none): 1 draw, 0 stand.
    """
    game, index = _game(params.commission(alpha))
    p = Fraction(p)
    return tuple(
        tuple(int((j, k) in index and game.gain_II(index[(j, k)], p) > 0) for k in range(11)) for j in range(8)
    )


def banker_expectations(u: int, j: int, k: int) -> tuple[Fraction, Fraction]:
    """(b_{u,0}(j, k), b_{u,1}(j, k)) of equations (1)-(2): Banker's expectation standing, drawing.

    Conditional on Banker's total j and Player's third card k (k = 10: Player
    stood), Player's total i ranging over :func:`player_totals` with weights
    q(i):  b_{u,0} = E sgn(j - P),  b_{u,1} = E sgn(M(j + l) - P) with l ~ p,
    where P = M(i + k) (or i when Player stood) is Player's final total.
    """
    final = (lambda i: i) if k == STOOD else (lambda i: (i + k) % 10)
    totals, w = player_totals(u, k), column_weight(u, k)
    stand = sum((sign(j - final(i)) * two_card(i) for i in totals), Fraction(0)) / w
    draw = sum(
        (sign((j + l) % 10 - final(i)) * two_card(i) * third_card(l) for i in totals for l in range(10)), Fraction(0)
    )
    return stand, draw / w


def conditional_table(p: Fraction | int, weighted: bool = True) -> Table:
    """Banker's table from the conditional expectations (1)-(2) against the mixture p (section 3).

    Draw at (j, k) iff sum_u c_u (b_{u,1} - b_{u,0}) > 0 with c_0 = 1 - p,
    c_1 = p, times :func:`column_weight` (u, k) if ``weighted`` (the paper's
    "more correct" 89 : 105 and (137 - 89) : (137 - 105) averages, which
    equal :func:`banker_table` (p)); unweighted at p = 1/2 is Dormoy's
    average (b_{0,v} + b_{1,v}) / 2.
    """
    p = Fraction(p)

    def gain(j: int, k: int) -> Fraction:
        out = Fraction(0)
        for u, c in ((0, 1 - p), (1, p)):
            stand, draw = banker_expectations(u, j, k)
            out += c * (column_weight(u, k) if weighted else 1) * (draw - stand)
        return out

    return tuple(tuple(int(gain(j, k) > 0) for k in range(11)) for j in range(8))


def check_table(table: Sequence[Sequence[int | bool]]) -> Table:
    """An 8 x 11 table of 0/1 (bools accepted), or :class:`BaccaraError`."""
    rows = tuple(tuple(int(x) for x in row) for row in table)
    if len(rows) != 8 or any(len(r) != 11 for r in rows) or any(x not in (0, 1) for r in rows for x in r):
        raise BaccaraError("a Banker table needs 8 rows (totals 0-7) of 11 entries 0/1 (third card 0-9, none)")
    return rows


def flip(table: Table, cells: Iterable[Cell]) -> Table:
    """``table`` with the move at each (total, third) cell reversed."""
    cells = set(cells)
    return tuple(tuple(1 - x if (j, k) in cells else x for k, x in enumerate(row)) for j, row in enumerate(table))


def differences(a: Table, b: Table) -> tuple[Cell, ...]:
    """The cells where two tables differ, row by row."""
    return tuple((j, k) for j in range(8) for k in range(11) if a[j][k] != b[j][k])


def cell_label(cell: Cell) -> str:
    """``"6|none"``, ``"3|9"``: the chemin de fer information-set label."""
    return f"{cell[0]}|{THIRD_LABELS[cell[1]]}"


def punto_banco_table() -> Table:
    """The punto banco Banker tableau (:data:`baccara.rules.PUNTO_BANCO`) as 0/1."""
    return check_table(PUNTO_BANCO.banker_draws)


def badoureau_d1() -> Table:
    """Badoureau's (1881) D1: the true D1 reversed at (4,1), (4,9), (6,6) (section 3)."""
    return flip(banker_table(1), BADOUREAU_D1_ERRORS)


def dormoy_d1() -> Table:
    """Dormoy's (1872) D1: the true D1 reversed at (6,6) (section 3)."""
    return flip(banker_table(1), DORMOY_D1_ERRORS)


# ---------------------------------------------------------------- Bertrand's problems


@dataclass(frozen=True)
class FiveOutcome:
    """Player holding 5: P(win) W, P(tie) T, expectation E (equations (3)-(4)).

    ``L`` = 1 - W - T is Bertrand's loss probability and ``C`` = W + T/2
    Badoureau's "chances" (E = 2C - 1).
    """

    W: Fraction
    T: Fraction
    E: Fraction

    @property
    def L(self) -> Fraction:
        return 1 - self.W - self.T

    @property
    def C(self) -> Fraction:
        return self.W + self.T / 2


def player_five_value(table: Table, v: int, f: Callable[[int], int]) -> Fraction:
    """A_{u,v} of equations (3) (v = 0, Player stands on 5) and (4) (v = 1, he draws).

    With Banker's total j ~ q on 0..7 (no natural), Player's third card k and
    Banker's l ~ p:  A = E f(Player's final total - Banker's final total),
    Banker drawing where ``table`` (= D_u) has a 1.
    """
    table = check_table(table)
    out = Fraction(0)
    for j in range(8):
        for k in range(10) if v else (STOOD,):
            mine, weight = ((5 + k) % 10, two_card(j) * third_card(k)) if v else (5, two_card(j))
            if table[j][k]:
                out += sum((f(mine - (j + l) % 10) * weight * third_card(l) for l in range(10)), Fraction(0))
            else:
                out += f(mine - j) * weight
    return out / sum((two_card(j) for j in range(8)), Fraction(0))


def player_five(table: Table, v: int) -> FiveOutcome:
    """W, T, E of equations (3)-(4): f = [x > 0], [x = 0], sgn(x)."""
    return FiveOutcome(
        player_five_value(table, v, lambda x: int(x > 0)),
        player_five_value(table, v, lambda x: int(x == 0)),
        player_five_value(table, v, sign),
    )


def bertrand_problems(d0: Table | None = None, d1: Table | None = None) -> dict[tuple[int, int], FiveOutcome]:
    """{(u, v): (W, T, E)}: equations (5a)-(5d) with the true D_0, D_1; (7a)-(7d) with Badoureau's D_1."""
    tables = (banker_table(0) if d0 is None else d0, banker_table(1) if d1 is None else d1)
    return {(u, v): player_five(tables[u], v) for u in (0, 1) for v in (0, 1)}


def badoureau_problems() -> dict[tuple[int, int], FiveOutcome]:
    """Badoureau's (7a)-(7d), copied by Bertrand as (8a)-(8d): his three D_1 errors applied."""
    return bertrand_problems(d1=badoureau_d1())


def half_problems() -> dict[int, FiveOutcome]:
    """{v: (W, T, E)} against D_{1/2} (the punto banco tableau): E_{1/2,0}, E_{1/2,1} of section 3."""
    return {v: player_five(banker_table(Fraction(1, 2)), v) for v in (0, 1)}


# ---------------------------------------------------------------- audit of a Banker table


@dataclass(frozen=True)
class BankerAudit:
    """A Banker table against Player's pure strategies at 5 (u = 0 stand, 1 draw), per coup.

    ``banker[u]``, ``player[u]``: expected payoffs (Model A1, commission
    alpha).  ``response``: Player's best pure response (ties: the one worse
    for Banker); ``value``: Banker's payoff against it.  ``optimum``:
    Banker's equilibrium payoff (the minimax value at alpha = 0; the best
    for Banker if several equilibria); ``cost`` = optimum - value.
    """

    alpha: Fraction
    banker: tuple[Fraction, ...]  # (u = 0, u = 1)
    player: tuple[Fraction, ...]
    response: int
    value: Fraction
    optimum: Fraction
    equilibrium_p: tuple[Fraction, ...]

    @property
    def cost(self) -> Fraction:
        return self.optimum - self.value


def audit_banker_table(table: Sequence[Sequence[int | bool]], alpha: Fraction | int | float | str = 0) -> BankerAudit:
    """What a fixed Banker table (a historical or house rule) earns, and costs, against a Player who knows it.

    Banker's payoff b_u + sum_{draw cells} g_i^u against each pure u; Player
    answers with the u maximising his own a_u + sum h_i^u.  The optimum is
    the Banker payoff of ``nash_equilibria(chemin_game("A1", None).at(alpha))``;
    at alpha = 0 (zero-sum) the cost is >= 0 by the minimax theorem.

    Parameters
    ----------
    table : sequence of sequence of int or bool
        Banker's table: rows by his total 0-7, columns by Player's third card 0-9 and 10 (none).
    alpha : Fraction, int, float or str
        The commission, in [0, 1) (default 0).

    Returns
    -------
    BankerAudit
        Banker's and Player's payoffs against each pure strategy at 5, Player's best response,
        and the equilibrium payoff it is measured against.
    """
    table, alpha = check_table(table), params.commission(alpha)
    game, index = _game(alpha)
    q = [Fraction(0)] * game.n
    for (j, k), i in index.items():
        q[i] = Fraction(table[j][k])
    pays = [game.payoffs(Fraction(u), q) for u in (0, 1)]
    player, banker = tuple(x[0] for x in pays), tuple(x[1] for x in pays)
    best = [u for u in (0, 1) if player[u] == max(player)]
    response = min(best, key=lambda u: banker[u])
    eqs = nash_equilibria(game).equilibria
    optimum = max(e.payoff_II for e in eqs)
    return BankerAudit(alpha, banker, player, response, banker[response], optimum, tuple(sorted({e.p for e in eqs})))


# ---------------------------------------------------------------- reports


def historical_tables() -> dict[str, Table]:
    """The tables of Ethier (2021) by name: computed D_0, D_1, D_{1/2}, and the historical variants."""
    return {
        "D0": banker_table(0),
        "D1": banker_table(1),
        "D_half": banker_table(Fraction(1, 2)),
        "punto_banco": punto_banco_table(),
        "badoureau_D1": badoureau_d1(),
        "dormoy_D0_draw_5_4": flip(banker_table(0), [DORMOY_D0_INDIFFERENT]),
        "dormoy_D1": dormoy_d1(),
        "dormoy_half_unweighted": conditional_table(Fraction(1, 2), weighted=False),
    }


def _num(x: Fraction) -> dict:
    return {"exact": fraction_str(x), "float": float(x)}


def _outcome_json(o: FiveOutcome) -> dict:
    return {name: _num(getattr(o, name)) for name in ("W", "T", "E", "L", "C")}


def _problems_json(probs: dict[tuple[int, int], FiveOutcome]) -> dict:
    return {f"{u},{v}": _outcome_json(o) for (u, v), o in probs.items()}


def _audit_json(a: BankerAudit) -> dict:
    return {
        "banker_vs_stand": _num(a.banker[0]),
        "banker_vs_draw": _num(a.banker[1]),
        "player_best_response": ("stand", "draw")[a.response],
        "value": _num(a.value),
        "optimum": _num(a.optimum),
        "cost": _num(a.cost),
    }


def bertrand_report() -> dict:
    """Everything above as JSON-ready data: exact numbers as ``"num/den"`` with floats beside."""
    tables = historical_tables()
    d0, d1 = tables["D0"], tables["D1"]
    bad, half = badoureau_problems(), half_problems()
    dormoy = banker_expectations(0, *DORMOY_D0_INDIFFERENT)
    return {
        "source": "S. N. Ethier, \"A note on Bertrand's analysis of baccarat\", arXiv:2107.00198 (2021)",
        "model": "chemin de fer, with replacement, totals only (A1), alpha = 0",
        "column_weights_x169": {
            f"u={u},{'third card' if k == 0 else 'none'}": int(column_weight(u, k) * 169) for u in (0, 1) for k in (0, STOOD)
        },
        "tables": {name: [list(r) for r in t] for name, t in tables.items()},
        "differences": {
            "D0_vs_D1": [cell_label(c) for c in differences(d0, d1)],
            "D1_vs_badoureau_D1": [cell_label(c) for c in differences(d1, tables["badoureau_D1"])],
            "D_half_vs_punto_banco": [cell_label(c) for c in differences(tables["D_half"], tables["punto_banco"])],
            "D0_vs_D_half": [cell_label(c) for c in differences(d0, tables["D_half"])],
            "D_half_vs_dormoy_half": [
                cell_label(c) for c in differences(tables["D_half"], tables["dormoy_half_unweighted"])
            ],
        },
        "problems_5": _problems_json(bertrand_problems()),
        "badoureau_7": _problems_json(bad),
        "half": {f"1/2,{v}": _outcome_json(o) for v, o in half.items()},
        "badoureau_averages": {
            "(E00+E10)/2": _num((bad[0, 0].E + bad[1, 0].E) / 2),
            "(E01+E11)/2": _num((bad[0, 1].E + bad[1, 1].E) / 2),
        },
        "dormoy_5_4": {"stand": _num(dormoy[0]), "draw": _num(dormoy[1])},
        "audits_alpha_0": {name: _audit_json(audit_banker_table(t)) for name, t in tables.items()},
    }


def _table_text(name: str, table: Table) -> list[str]:
    head = "     " + " ".join(f"{c:>2}" for c in (*range(10), "-")) + "   (- = Player stood)"
    rows = [f"  {j}: " + " ".join(f"{x:>2}" for x in row) for j, row in enumerate(table)]
    return [name, head, *rows, ""]


def _frac_text(x: Fraction) -> str:
    for n in (1, 2):
        scaled = x * 137 * 13**n
        if scaled.denominator == 1:
            return f"{scaled.numerator}/(137*13^{n}) = {x} ~ {float(x):.6f}"
    return f"{x} ~ {float(x):.6f}"


def _problems_text(title: str, probs: dict) -> list[str]:
    out = [title]
    for key, o in probs.items():
        out += [f"  {key}: {n} = {_frac_text(getattr(o, n))}" for n in ("W", "T", "E")]
    return out + [""]


def bertrand_text() -> str:
    """A report for people: the tables as 0/1 rows, the fractions with decimals, the audits."""
    tables = historical_tables()
    out = ["Bertrand's baccarat problems (Ethier 2021), chemin de fer A1, exact", ""]
    for name in ("D0", "D1", "D_half", "badoureau_D1"):
        out += _table_text(name, tables[name])
    for a, b in (("D0", "D1"), ("D1", "badoureau_D1"), ("D_half", "punto_banco")):
        diff = ", ".join(cell_label(c) for c in differences(tables[a], tables[b])) or "none"
        out.append(f"{a} vs {b}: differ at {diff}")
    out.append("")
    title = "Equations (5a)-(5d): (u, v) = (Banker assumes, Player does); 0 stand, 1 draw"
    out += _problems_text(title, bertrand_problems())
    out += _problems_text("Badoureau (7a)-(7d) = Bertrand (8a)-(8d), with Badoureau's D1", badoureau_problems())
    out += _problems_text("Against D_1/2 (punto banco): v = 0, 1", {f"1/2,{v}": o for v, o in half_problems().items()})
    stand, draw = banker_expectations(0, *DORMOY_D0_INDIFFERENT)
    out += [
        "Dormoy's (5,4), Banker assuming Player stands (equations (1), u = 0):",
        f"  stand {stand * 1157}/1157 ~ {float(stand):.6f}, draw {draw * 1157}/1157 ~ {float(draw):.6f}",
        "",
    ]
    opt = audit_banker_table(tables["D0"]).optimum
    out.append("Audit at alpha = 0: Banker's payoff per coup vs Player's best pure response at 5")
    out.append(f"  (Banker's minimax value {opt} ~ {float(opt):+.6f}; cost = value - payoff)")
    for name, t in tables.items():
        audit = audit_banker_table(t)
        out.append(
            f"  {name:<24} vs stand {float(audit.banker[0]):+.6f}  vs draw {float(audit.banker[1]):+.6f}  "
            f"best reply {('stand', 'draw')[audit.response]:<5}  cost {audit.cost} ~ {float(audit.cost):.3e}"
        )
    return "\n".join(out)


@dataclass(repr=False)
class BertrandReport(Result):
    """Bertrand's 1888 problems (Ethier 2021) as one result: the tables, the problems, the audits.

    Attributes
    ----------
    doc : dict
        :func:`bertrand_report`.
    text : str
        :func:`bertrand_text`.
    """

    doc: dict
    text: str

    def to_json(self) -> dict:
        """The report as a document (:func:`bertrand_report`).

        Returns
        -------
        dict
            Exact numbers as ``"num/den"`` with floats beside.
        """
        return self.doc

    def summary(self) -> str:
        """Bertrand's problem (5d), Player's expectation when he draws at 5 against D_1.

        Returns
        -------
        str
            The line.
        """
        e = self.doc["problems_5"]["1,1"]["E"]
        return ("Bertrand's baccarat problems (Ethier 2021): Player drawing at 5 against D_1 expects "
                f"{e['exact']} ~ {e['float']:.6f}")

    def renderables(self) -> list:
        """The report for people.

        Returns
        -------
        list
            One string.
        """
        return [self.text]


def bertrand() -> BertrandReport:
    """Bertrand's 1888 problems, solved exactly (Ethier 2021).

    Returns
    -------
    BertrandReport
        D_0, D_1, D_1/2, problems (5a)-(5d) and (7a)-(7d), Dormoy's (5,4), audits of the
        historical tables (``to_json()``, ``show()``).
    """
    return BertrandReport(bertrand_report(), bertrand_text())
