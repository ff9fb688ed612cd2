"""Macao's sequence-form linear program over flows, solved in floats and then exactly.

The punter's strategy is a flow ``x`` on each of his graphs (root inflow 1 per
face-down hand); the banker's a flow ``y`` on each of his trees (one per face-down
hand B and punter up-state U, root inflow 1).  The punter's payoff is
``a0.x + x'Ay``, and the game's value is the optimum of

    maximise  a0.x + sum_t q_t,root
    subject to  q_t,j - sum_{k child of (j, a)} q_t,k - (A'x)_(t,j,a) <= 0   (every banker move),
                E x = e,  x >= 0,  q free,

the dual of the banker's best reply (Koller, Megiddo and von Stengel 1996) with flows
in place of realization plans; the banker's optimal flow is the vector of row
prices.  HiGHS solves it in floats; the float solution is used only to tell, at
every node that is reached, whether a side plays one move or mixes.  The mixed
probabilities are then found exactly: the punter's flows at his mixed nodes solve
the banker's indifference at the banker's mixed nodes, and the banker's flows at
his mixed nodes solve the punter's indifference (two linear systems in rationals);
free directions (when the float solution's mixed sets leave some undetermined) take
the float's value, rounded.  Nothing is trusted: the pair is then certified by the
two exact best responses of :mod:`baccara.macao.engine`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from scipy.sparse import csr_matrix

from ..solve.exact_lp import ExactLP, highs_basis, solve_exact_lp
from .engine import banker_best_response, coefficients, punter_best_response, stand_nodes, table
from .model import BUST, DECIDE, MacaoGame

F0 = Fraction(0)
#: Float thresholds: a node is reached if its float inflow exceeds REACH; a move is mixed if its float
#: probability is within (MIX, 1 - MIX).
REACH = 1e-9
MIX = 1e-7


@dataclass
class FloatSolution:
    """The float LP's answer: the value and both sides' flows."""

    value: float
    x: list[list[list[float]]]      # x[hi][node][action]
    y: list[list[list[float]]]      # y[tree][node][action]
    iterations: int
    x_basic: list[list[list[bool]]]  # the punter's moves whose flow is basic in the optimal basis
    y_tight: list[list[list[bool]]]  # the banker's moves whose row is tight (slack nonbasic)


def _children(n) -> list[tuple[int, list[int]]]:
    """(action, children) of a node's moves."""
    if n.kind == DECIDE:
        out: list[tuple[int, list[int]]] = [(0, [])]
        if len(n.actions) > 1:
            out.append((1, [k for k in n.children if k != BUST]))
        return out
    return [(0, [n.accept]), (1, [n.reject])]


def solve_float(game: MacaoGame) -> FloatSolution:
    """The sequence-form LP solved by HiGHS (floats).

    Parameters
    ----------
    game : MacaoGame
        The game.

    Returns
    -------
    FloatSolution
        The float value to the punter and both sides' flows.
    """
    coef = coefficients(game)
    den = float(game.denominator * game.scale)
    # punter variables
    xi: list[list[list[int]]] = []
    nx = 0
    for H in game.hands:
        per = []
        for n in game.graph(H).nodes:
            per.append(list(range(nx, nx + len(n.actions))))
            nx += len(n.actions)
        xi.append(per)
    sn = stand_nodes(game)
    stand_var = [{ui: xi[hi][j][0] for ui, j in m.items()} for hi, m in enumerate(sn)]
    # banker node duals
    qi: list[int] = []
    nq = 0
    for B in game.hands:
        nn = len(game.graph(B).nodes)
        for _ in game.units:
            qi.append(nq)
            nq += nn
    nvar = nx + nq
    rows, cols, vals = [], [], []
    r = 0
    for bi, B in enumerate(game.hands):
        nodes = game.graph(B).nodes
        for ui in range(len(game.units)):
            t = game.tree(bi, ui)
            base = qi[t]
            terms = coef[t]
            for j, n in enumerate(nodes):
                for a, kids in _children(n):
                    rows.append(r)
                    cols.append(nx + base + j)
                    vals.append(1.0)
                    for k in kids:
                        rows.append(r)
                        cols.append(nx + base + k)
                        vals.append(-1.0)
                    if n.kind == DECIDE:
                        for hi, c in terms[j][a]:
                            rows.append(r)
                            cols.append(stand_var[hi][ui])
                            vals.append(-c / den)
                    r += 1
    a_ub = csr_matrix((vals, (rows, cols)), shape=(r, nvar))
    # punter's flow conservation
    erows, ecols, evals, b_eq = [], [], [], []
    e = 0
    for hi, H in enumerate(game.hands):
        nodes = game.graph(H).nodes
        parents: list[list[int]] = [[] for _ in nodes]
        for j, n in enumerate(nodes):
            for a, kids in _children(n):
                for k in kids:
                    parents[k].append(xi[hi][j][a])
        for j in range(len(nodes)):
            for v in xi[hi][j]:
                erows.append(e)
                ecols.append(v)
                evals.append(1.0)
            for v in parents[j]:
                erows.append(e)
                ecols.append(v)
                evals.append(-1.0)
            b_eq.append(1.0 if j == 0 else 0.0)
            e += 1
    a_eq = csr_matrix((evals, (erows, ecols)), shape=(e, nvar))
    cost = np.zeros(nvar)
    for hi, d in enumerate(game.punter_busts):
        for j, w in d.items():
            cost[xi[hi][j][1]] = w * game.scale / den       # minimise minus the punter's payoff
    for t in range(len(qi)):
        cost[nx + qi[t]] = -1.0
    lower = np.concatenate([np.zeros(nx), np.full(nq, -np.inf)])
    upper = np.full(nvar, np.inf)
    beq = np.array(b_eq)
    sol = _highs(cost, a_ub, a_eq, beq, lower, upper)
    xs = sol["x"][:nx]
    yd = -sol["row_dual"][:r]
    x_basic = sol["col_basic"][:nx]
    row_tight = ~sol["row_basic"][:r]
    x = [[[float(xs[v]) for v in node] for node in per] for per in xi]
    xb = [[[bool(x_basic[v]) for v in node] for node in per] for per in xi]
    y, yt = [], []
    r = 0
    for B in game.hands:
        nodes = game.graph(B).nodes
        for _ in game.units:
            tree, ttree = [], []
            for n in nodes:
                acts, tights = [], []
                for _a, _k in _children(n):
                    acts.append(float(yd[r]))
                    tights.append(bool(row_tight[r]))
                    r += 1
                tree.append(acts)
                ttree.append(tights)
            y.append(tree)
            yt.append(ttree)
    return FloatSolution(-float(sol["fun"]), x, y, sol["iterations"], xb, yt)


def _highs(c, a_ub, a_eq, b_eq, lower, upper) -> dict:
    """min c.z subject to a_ub z <= 0, a_eq z = b_eq, lower <= z <= upper, by HiGHS's simplex method,
    with the optimal basis (which columns and rows are basic): :func:`baccara.solve.exact_lp.highs_basis`."""
    from scipy.sparse import vstack

    m_ub = a_ub.shape[0]
    res = highs_basis(c, vstack([a_ub, a_eq]).tocsc(), np.concatenate([np.full(m_ub, -np.inf), b_eq]),
                      np.concatenate([np.zeros(m_ub), b_eq]), lower, upper)
    return {**res, "col_basic": np.array([s == "basic" for s in res["col_status"]]),
            "row_basic": np.array([s == "basic" for s in res["row_status"]])}


# ---------------------------------------------------------------- exact recovery
def _aff_add(a: dict, b: dict, k: Fraction | int = 1) -> dict:
    out = dict(a)
    for key, v in b.items():
        out[key] = out.get(key, F0) + k * v
        if not out[key]:
            del out[key]
    return out


def _aff_eval(a: dict, values: dict) -> Fraction:
    return sum((v * (values[k] if k != -1 else 1) for k, v in a.items()), F0)


@dataclass
class _Side:
    """One side's flows as affine functions of its parameters (absolute flows on action 1 at mixed nodes)."""

    flows: list[list[list[dict]]]   # per graph, node, action: affine dict
    moves: list[list[int | None]]   # per graph, node: the pure move, or None where mixed (a parameter)
    params: list[tuple[int, int, float]]  # (graph, node, float flow on action 1)


def _affine_side(graphs, fflows, support) -> _Side:
    """Flows affine in the mixed nodes' parameters: a node is mixed where the float flow is positive on
    both moves.  (``support``, the optimal basis's pattern, is kept for diagnostics: it marks many
    degenerate ties off the path of play, which are not indifferences.)"""
    flows: list = []
    moves: list = []
    params: list[tuple[int, int, float]] = []
    for g, (nodes, ff) in enumerate(zip(graphs, fflows)):
        inflow: list[dict] = [{} for _ in nodes]
        inflow[0] = {-1: Fraction(1)}
        gf, gm = [], []
        for j, n in enumerate(nodes):
            f = inflow[j]
            if len(n.actions) == 1:
                acts, mv = [f], 0
            elif sum(ff[j]) > REACH and MIX < ff[j][1] / sum(ff[j]) < 1 - MIX:
                k = len(params)
                params.append((g, j, ff[j][1]))
                acts, mv = [_aff_add(f, {k: Fraction(1)}, -1), {k: Fraction(1)}], None
            else:
                mv = int(ff[j][1] > ff[j][0])
                acts = [f, {}] if mv == 0 else [{}, f]
            gf.append(acts)
            gm.append(mv)
            for a, kids in _children(n):
                if acts[a]:
                    for kk in kids:
                        inflow[kk] = _aff_add(inflow[kk], acts[a])
        flows.append(gf)
        moves.append(gm)
    return _Side(flows, moves, params)


def _ties(form: dict, values: dict, rel: float = 1e-9) -> bool:
    """Whether an affine form vanishes at the float parameter values, to float precision: a tie."""
    terms = [float(v) * (float(values[k]) if k != -1 else 1.0) for k, v in form.items()]
    return abs(sum(terms)) <= rel * max([abs(x) for x in terms] + [1e-300])


def _solve(rows: list[tuple[dict, Fraction]], params: list[tuple[int, int, float]]) -> list[Fraction]:
    """Solve sum_k row[k] p_k = rhs exactly; free parameters take their float value, rounded."""
    nparam = len(params)
    piv: dict[int, tuple[dict, Fraction]] = {}
    for coefs, rhs in rows:
        coefs = dict(coefs)
        for k, (pc, pr) in piv.items():       # eliminate known pivots
            if k in coefs:
                f = coefs[k]
                coefs = _aff_add(coefs, pc, -f)
                rhs -= f * pr
        if not coefs:
            continue                           # dependent (consistent or not: the certificate decides)
        k = max(coefs, key=lambda c: abs(coefs[c]))
        f = coefs[k]
        coefs = {c: v / f for c, v in coefs.items()}
        rhs /= f
        for k2, (pc, pr) in list(piv.items()):  # keep the pivots reduced
            if k in pc:
                g = pc[k]
                piv[k2] = (_aff_add(pc, coefs, -g), pr - g * rhs)
        piv[k] = (coefs, rhs)
    values: dict[int, Fraction] = {}
    for k in range(nparam):
        if k not in piv:
            values[k] = Fraction(params[k][2]).limit_denominator(10**6)
    out = []
    for k in range(nparam):
        if k in values:
            out.append(values[k])
        else:
            pc, pr = piv[k]
            out.append(pr - sum((v * values[c] for c, v in pc.items() if c != k), F0))
    return out


@dataclass
class ExactStrategies:
    """Both sides' exact behaviour, as mappings key -> probability of action 1."""

    punter: dict
    banker: dict
    punter_mixed: int
    banker_mixed: int
    method: str = "indifference equations"


def recover_exact(game: MacaoGame, fs: FloatSolution, force_p: frozenset = frozenset(),
                  force_b: frozenset = frozenset()) -> ExactStrategies:
    """Exact strategies from the float LP's pattern of moves (see the module docstring).

    Parameters
    ----------
    game : MacaoGame
        The game.
    fs : FloatSolution
        The float LP's solution.
    force_p, force_b : frozenset
        Nodes where a tie is imposed besides those the float solution shows: the banker's
        (tree, node) and the punter's (hand, node) (see :func:`solve_exact`).

    Returns
    -------
    ExactStrategies
        The punter's and the banker's exact behaviour (to be certified).
    """
    coef = coefficients(game)
    U = len(game.units)
    pgraphs = [game.graph(H).nodes for H in game.hands]
    tgraphs = [game.graph(game.hands[t // U]).nodes for t in range(len(game.hands) * U)]
    P = _affine_side(pgraphs, fs.x, fs.x_basic)
    Bk = _affine_side(tgraphs, fs.y, fs.y_tight)
    sn = stand_nodes(game)
    # (a) the banker's indifference at his mixed nodes, in the punter's parameters
    stand_x = [{hi: P.flows[hi][sn[hi][ui]][0] for hi in game.hands_at[ui]} for ui in range(U)]
    rows_p: list[tuple[dict, Fraction]] = []
    xfloat = {k: Fraction(p[2]) for k, p in enumerate(P.params)}
    mixed_trees: dict[int, list[int]] = {}
    for t in range(len(tgraphs)):
        if any(stand_x[t % U].values()):  # a tree the punter never reaches gives only 0 = 0
            mixed_trees[t] = [j for j, n in enumerate(tgraphs[t]) if len(n.actions) == 2]
    for t, js in mixed_trees.items():
        ui = t % U
        nodes = tgraphs[t]
        per = coef[t]
        q: list[list[dict]] = [[] for _ in nodes]   # q[j][a]: H-vector of the move's value
        v: list[dict] = [{} for _ in nodes]
        for j in range(len(nodes) - 1, -1, -1):
            n = nodes[j]
            qa = []
            for a, kids in _children(n):
                vec: dict = {}
                if n.kind == DECIDE:
                    for hi, c in per[j][a]:
                        vec[hi] = vec.get(hi, 0) + c
                for kk in kids:
                    vec = _aff_add(vec, v[kk])
                qa.append(vec)
            q[j] = qa
            mv = Bk.moves[t][j]
            v[j] = qa[0 if mv is None else mv]
        mixed_here = {j for (tt, j, _) in Bk.params if tt == t}
        for j in js:
            g = _aff_add(q[j][1], q[j][0], -1)
            form: dict = {}
            for hi, c in g.items():
                form = _aff_add(form, stand_x[ui].get(hi, {}), c)
            if j in mixed_here or (t, j) in force_p or _ties(form, xfloat):
                rhs = -form.pop(-1, F0)
                rows_p.append((form, rhs))
    tp = _solve(rows_p, P.params)
    # (b) the punter's indifference at his mixed nodes, in the banker's parameters
    bvals = {k: None for k in range(len(Bk.params))}
    del bvals
    stand_val: list[list[dict]] = [[{} for _ in range(U)] for _ in game.hands]
    for t in range(len(tgraphs)):
        ui = t % U
        per = coef[t]
        acc: dict[int, dict] = {}
        for j, (st, bu) in enumerate(per):
            for a, terms in ((0, st), (1, bu)):
                if not terms or a >= len(Bk.flows[t][j]):
                    continue
                f = Bk.flows[t][j][a]
                if not f:
                    continue
                for hi, c in terms:
                    acc[hi] = _aff_add(acc.get(hi, {}), f, c)
        for hi, form in acc.items():
            stand_val[hi][ui] = _aff_add(stand_val[hi][ui], form)
    rows_b: list[tuple[dict, Fraction]] = []
    yfloat = {k: Fraction(p[2]) for k, p in enumerate(Bk.params)}
    mixed_hands = {hi: [j for j, n in enumerate(pgraphs[hi]) if len(n.actions) == 2] for hi in range(len(pgraphs))}
    mixed_at = {(hi, j) for hi, j, _ in P.params}
    for hi, js in mixed_hands.items():
        nodes = pgraphs[hi]
        busts = game.punter_busts[hi]
        v = [{} for _ in nodes]
        qv: list[list[dict]] = [[] for _ in nodes]
        for j in range(len(nodes) - 1, -1, -1):
            n = nodes[j]
            qa = []
            for a, kids in _children(n):
                if n.kind == DECIDE and a == 0:
                    vec = dict(stand_val[hi][game.unit_index[(n.A, n.r)]])
                else:
                    vec = {-1: Fraction(-busts.get(j, 0) * game.scale)} if (n.kind == DECIDE and busts.get(j)) else {}
                for kk in kids:
                    vec = _aff_add(vec, v[kk])
                qa.append(vec)
            qv[j] = qa
            mv = P.moves[hi][j]
            v[j] = qa[0 if mv is None else mv]
        for j in js:
            form = _aff_add(qv[j][1], qv[j][0], -1)
            if (hi, j) in mixed_at or (hi, j) in force_b or _ties(form, yfloat):
                rhs = -form.pop(-1, F0)
                rows_b.append((form, rhs))
    sb = _solve(rows_b, Bk.params)
    return ExactStrategies(_behaviour(game, P, tp, pgraphs, punter=True),
                           _behaviour(game, Bk, sb, tgraphs, punter=False), len(tp), len(sb))


def _behaviour(game: MacaoGame, side: _Side, values: list[Fraction], graphs, punter: bool) -> dict:
    """Behaviour (probability of action 1 at every node with a choice) from affine flows and parameter values."""
    vals = dict(enumerate(values))
    out: dict = {}
    U = len(game.units)
    for g, nodes in enumerate(graphs):
        if punter:
            prefix: tuple = (game.hands[g],)
        else:
            Ap, rp = game.units[g % U]
            prefix = (game.hands[g // U], Ap, rp)
        for j, n in enumerate(nodes):
            if len(n.actions) < 2:
                continue
            mv = side.moves[g][j]
            if mv is not None:
                out[prefix + (n.kind, n.A, n.r)] = Fraction(mv)
                continue
            a1 = _aff_eval(side.flows[g][j][1], vals)
            tot = a1 + _aff_eval(side.flows[g][j][0], vals)
            p = a1 / tot if tot else Fraction(0)
            out[prefix + (n.kind, n.A, n.r)] = min(max(p, F0), Fraction(1))
    return out


def solve_exact(game: MacaoGame, fs: FloatSolution, rounds: int = 8):
    """Exact optimal strategies and their certificate, from the float LP.

    The strategies of :func:`recover_exact` are checked by both exact best responses; where
    a side's best response strictly beats the candidate at a node (a tie the float solution
    showed only within its precision, or a free direction that rounding set wrongly), the tie
    is imposed there and the systems are solved again (an active-set refinement), up to
    ``rounds`` times.  If that leaves a gap and the punter's strategy is optimal (its guarantee
    is the float value, to float precision), the banker's strategy is rebuilt by
    :func:`banker_repair`: an exact linear program over his exactly best replies, with no
    rounding (``ExactStrategies.method`` says which way the pair was found).

    Parameters
    ----------
    game : MacaoGame
        The game.
    fs : FloatSolution
        The float LP's solution.
    rounds : int
        Most refinements.

    Returns
    -------
    (ExactStrategies, Fraction, Fraction, int)
        The strategies, the least the punter's strategy guarantees him (the banker's best
        response), the most the banker's strategy concedes (the punter's best response), and
        the refinements used.  They are equal iff the pair is certified optimal.
    """
    force_p: set = set()
    force_b: set = set()
    best = None
    U = len(game.units)
    for k in range(rounds + 1):
        ex = recover_exact(game, fs, frozenset(force_p), frozenset(force_b))
        mb: dict = {}
        mp: dict = {}
        lo, _ = banker_best_response(game, table(ex.punter), mb)
        hi, _ = punter_best_response(game, table(ex.banker), mp)
        if best is None or hi - lo < best[2] - best[1]:
            best = (ex, lo, hi, k)
        if lo == hi or k == rounds:
            break
        new_b = set()
        for (hi_, j), m in mp.items():      # the punter strictly prefers a move his strategy does not play
            if sum(fs.x[hi_][j]) <= REACH:
                continue                    # off his path: no tie to impose there
            n = game.graph(game.hands[hi_]).nodes[j]
            p = ex.punter.get((game.hands[hi_], n.kind, n.A, n.r), F0)
            if (m > 0 and p < 1) or (m < 0 and p > 0):
                new_b.add((hi_, j))
        new_p = set()
        for (t, j), m in mb.items():
            if sum(fs.y[t][j]) <= REACH:
                continue
            n = game.graph(game.hands[t // U]).nodes[j]
            Ap, rp = game.units[t % U]
            p = ex.banker.get((game.hands[t // U], Ap, rp, n.kind, n.A, n.r), F0)
            if (m > 0 and p < 1) or (m < 0 and p > 0):
                new_p.add((t, j))
        if not (new_b - force_b) and not (new_p - force_p):
            break
        force_b |= new_b
        force_p |= new_p
    assert best is not None
    ex, lo, hi, k = best
    if lo != hi and abs(float(lo) - fs.value) <= 1e-9:
        rep = banker_repair(game, ex.punter)
        if rep is not None:
            hi2, _ = punter_best_response(game, table(rep[0]))
            if hi2 - lo < hi - lo:
                ex = ExactStrategies(ex.punter, rep[0], ex.punter_mixed, rep[1],
                                     "indifference equations (punter), exact LP over best replies (banker)")
                best = (ex, lo, hi2, k)
    return best


# ---------------------------------------------------------------- exact repair of the banker's strategy
def _affine_from_moves(graphs, moves: list[list[int | None]]) -> _Side:
    """Flows affine in parameters, with the moves given: an int is a pure move, None a parameter (its action-1 flow)."""
    flows: list = []
    params: list[tuple[int, int, float]] = []
    for g, nodes in enumerate(graphs):
        inflow: list[dict] = [{} for _ in nodes]
        inflow[0] = {-1: Fraction(1)}
        gf = []
        for j, n in enumerate(nodes):
            f = inflow[j]
            mv = moves[g][j] if len(n.actions) > 1 else 0
            if mv is None:
                k = len(params)
                params.append((g, j, 0.0))
                acts = [_aff_add(f, {k: Fraction(1)}, -1), {k: Fraction(1)}]
            elif len(n.actions) == 1:
                acts = [f]
            else:
                acts = [f, {}] if mv == 0 else [{}, f]
            gf.append(acts)
            for a, kids in _children(n):
                if acts[a]:
                    for kk in kids:
                        inflow[kk] = _aff_add(inflow[kk], acts[a])
        flows.append(gf)
    return _Side(flows, [list(m) for m in moves], params)


def banker_repair(game: MacaoGame, punter: dict) -> tuple[dict, int] | None:
    """The banker's exact strategy that concedes least among his best replies to a punter strategy.

    In a zero-sum game every optimal strategy of the banker is a best reply to every optimal
    strategy of the punter.  So when the punter's exact strategy ``punter`` is optimal (its
    guarantee is the value), the banker's optimal strategies are found among his replies that
    play, at every node of every tree the punter reaches, only moves that are exactly best
    against it (exact margins of :func:`~baccara.macao.engine.banker_best_response`);
    where both moves are exactly best the banker may mix, and that mixing is the unknown, as is
    every move in the trees the punter never reaches (there only the punter's deviations price
    them: fixing them at the float LP's moves can cost the certificate).  The mixing is then the
    solution of a small linear program (the banker minimises the punter's best-reply value
    ``sum_H u_H,root`` subject to ``u_H,j >= `` the value of each of the punter's moves), solved
    exactly from HiGHS's optimal basis (:func:`~baccara.solve.exact_lp.solve_exact_lp`).  No
    rounding is involved; the certificate (both best responses) decides.

    Parameters
    ----------
    game : MacaoGame
        The game.
    punter : dict
        The punter's exact behaviour (key -> probability of action 1).

    Returns
    -------
    (dict, int) or None
        The banker's behaviour and the number of nodes where he mixes, or None when the exact
        LP has no optimum.
    """
    coef = coefficients(game)
    U = len(game.units)
    tgraphs = [game.graph(game.hands[t // U]).nodes for t in range(len(game.hands) * U)]
    pgraphs = [game.graph(H).nodes for H in game.hands]
    margins: dict = {}
    banker_best_response(game, table(punter), margins)
    moves: list[list[int | None]] = []
    for t, nodes in enumerate(tgraphs):
        gm: list[int | None] = []
        for j, n in enumerate(nodes):
            if len(n.actions) < 2:
                gm.append(0)
            elif (t, j) in margins:
                m = margins[(t, j)]
                gm.append(None if m == 0 else int(m > 0))
            else:                  # a tree the punter never reaches: only his deviations price the moves
                gm.append(None)
        moves.append(gm)
    side = _affine_from_moves(tgraphs, moves)
    K = len(side.params)
    # the punter's stand values, affine in the banker's parameters
    stand_val: list[list[dict]] = [[{} for _ in range(U)] for _ in game.hands]
    for t in range(len(tgraphs)):
        ui = t % U
        acc: dict[int, dict] = {}
        for j, (st, bu) in enumerate(coef[t]):
            for a, terms in ((0, st), (1, bu)):
                if not terms or a >= len(side.flows[t][j]):
                    continue
                f = side.flows[t][j][a]
                if not f:
                    continue
                for hi, c in terms:
                    acc[hi] = _aff_add(acc.get(hi, {}), f, c)
        for hi, form in acc.items():
            stand_val[hi][ui] = _aff_add(stand_val[hi][ui], form)
    D = Fraction(game.denominator * game.scale)
    uidx: list[list[int]] = []
    ncol = K
    for nodes in pgraphs:
        uidx.append(list(range(ncol, ncol + len(nodes))))
        ncol += len(nodes)
    lp = ExactLP(ncol, cost={uidx[h][0]: Fraction(1) for h in range(len(pgraphs))})
    lp.col_lo = [Fraction(0) if k < K else None for k in range(ncol)]
    lp.col_hi = [None] * ncol
    for g, j, _ in side.params:   # the other move's flow is nonnegative
        form = side.flows[g][j][0]
        const = form.get(-1, F0)
        lp.add_row({c: v for c, v in form.items() if c != -1}, -const, None)
    for h, nodes in enumerate(pgraphs):
        busts = game.punter_busts[h]
        for j, nd in enumerate(nodes):
            for a, kids in _children(nd):   # value of the move - u_j <= 0
                row: dict[int, Fraction] = {uidx[h][j]: Fraction(-1)}
                const = F0
                if nd.kind == DECIDE and a == 0:
                    for c, v in stand_val[h][game.unit_index[(nd.A, nd.r)]].items():
                        if c == -1:
                            const += v / D
                        else:
                            row[c] = row.get(c, F0) + v / D
                elif nd.kind == DECIDE:
                    const -= Fraction(busts.get(j, 0) * game.scale) / D
                for kk in kids:
                    row[uidx[h][kk]] = row.get(uidx[h][kk], F0) + 1
                lp.add_row(row, None, -const)
    try:
        vx = solve_exact_lp(lp)
    except ArithmeticError:
        return None
    beh = _behaviour(game, side, vx.z[:K], tgraphs, punter=False)
    return beh, sum(1 for v in beh.values() if 0 < v < 1)
