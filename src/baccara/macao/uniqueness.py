"""Is Macao's optimal strategy unique?  Decided exactly from one certified optimal pair.

The method
----------
In a zero-sum game the optimal strategies of each side form a polytope, and for any
optimal pair ``(x*, y*)`` a punter strategy ``x`` is optimal iff ``(x, y*)`` is an
equilibrium (the exchange property): ``x`` is a best reply to ``y*`` and ``y*`` is a best
reply to ``x``.  Both conditions are linear in ``x``:

- ``x`` plays only moves that are exactly best against ``y*`` (exact margins of
  :func:`~baccara.macao.engine.punter_best_response`): where one move is strictly
  better, ``x`` plays it; where both tie, ``x``'s flow on drawing (rejecting) there is a
  free parameter;
- wherever ``y*`` plays both moves with positive flow, the banker must stay indifferent
  against ``x`` (his two moves' values, with ``y*``'s own play below, are equal): one
  linear equation in those parameters.

So the optimal punter flows lie in the solution set of a linear system that ``x*``
solves; if the system has full column rank (exact rank over the rationals, python-flint),
``x*`` is the punter's only optimal strategy, *as flows*: his behaviour at a hand he
never reaches is any (that is what "unique on the path of play" says).  If the rank
falls short, a null vector of the system is tried as an explicit alternative, ``x* + e d``
for small rational ``e``, certified by the exact best response: an optimal strategy
different from ``x*`` proves that it is not unique.

The banker's side is the same with the roles exchanged, restricted to the trees the
punter reaches (his face-down hand against a punter up-state that ``x*`` stands on with
positive probability): two banker strategies that give the punter the same expected
payoff for every hand he can stand with there are the same *on the path of play*
(``rank [M; L] = rank M``, where ``M`` is the punter's indifference system and ``L`` maps the
banker's free flows to those payoffs).  Off the path of play, at up-states the optimal
punter never stands on, the banker's moves only deter deviations: there he has an
alternative if his tie-broken best reply to ``x*`` (stand on ties) is also optimal.
"""

from __future__ import annotations

from fractions import Fraction

from .engine import banker_best_response, coefficients, punter_best_response, stand_nodes, table
from .lp import _aff_add, _aff_eval, _affine_from_moves, _behaviour, _children
from .model import DECIDE, MacaoGame

F0 = Fraction(0)


def _rank(rows: list[dict], ncols: int) -> int:
    import flint

    rows = [r for r in rows if any(v for k, v in r.items() if k != -1)]
    if not rows or not ncols:
        return 0
    m = flint.fmpq_mat(len(rows), ncols)
    for i, r in enumerate(rows):
        for k, v in r.items():
            if k != -1 and v:
                m[i, k] = flint.fmpq(v.numerator, v.denominator)
    return int(m.rank())


def _nullspace(rows: list[dict], ncols: int) -> list[list[Fraction]]:
    """A basis of ``{d : row.d = 0 for every row}`` (constant terms ignored), exactly."""
    import flint

    rows = [r for r in rows if any(v for k, v in r.items() if k != -1)]
    if not rows:
        return [[Fraction(int(i == k)) for i in range(ncols)] for k in range(ncols)]
    m = flint.fmpq_mat(len(rows), ncols)
    for i, r in enumerate(rows):
        for k, v in r.items():
            if k != -1 and v:
                m[i, k] = flint.fmpq(v.numerator, v.denominator)
    red, rank = m.rref()
    pivots: list[int] = []
    for i in range(rank):
        pivots.append(next(k for k in range(ncols) if red[i, k] != 0))
    free = [k for k in range(ncols) if k not in pivots]
    out = []
    for f in free:
        d = [F0] * ncols
        d[f] = Fraction(1)
        for i, p in enumerate(pivots):
            q = red[i, f]
            d[p] = -Fraction(int(q.p), int(q.q))
        out.append(d)
    return out


def _tree_values(nodes, coef_t, stand_x: dict, probs: list[Fraction | None]) -> list[list[dict]]:
    """The banker's move values in one tree (affine in the punter's parameters), his play ``probs`` below."""
    v: list[dict] = [{} for _ in nodes]
    q: list[list[dict]] = [[] for _ in nodes]
    for j in range(len(nodes) - 1, -1, -1):
        n = nodes[j]
        qa = []
        for a, kids in _children(n):
            vec: dict = {}
            if n.kind == DECIDE:
                for hi, c in coef_t[j][a]:
                    vec = _aff_add(vec, stand_x.get(hi, {}), c)
            for kk in kids:
                vec = _aff_add(vec, v[kk])
            qa.append(vec)
        q[j] = qa
        p = probs[j]
        v[j] = qa[0] if p is None or len(qa) == 1 else _aff_add(_aff_add({}, qa[0], 1 - p), qa[1], p)
    return q


def _move(kind: str, A: tuple, r: int) -> str:
    held = "".join(map(str, A)) or "-"
    return (f"{'draw' if kind == DECIDE else 'reject a ten'} with face-up {held}"
            + (f", {r} ten{'s' if r > 1 else ''} rejected" if r else ""))


def _punter_node(game: MacaoGame, h: int, j: int) -> str:
    n = game.graph(game.hands[h]).nodes[j]
    return f"punter dealt {''.join(map(str, game.hands[h]))}: {_move(n.kind, n.A, n.r)}"


def _banker_node(game: MacaoGame, t: int, j: int) -> str:
    U = len(game.units)
    B = game.hands[t // U]
    Ap, rp = game.units[t % U]
    n = game.graph(B).nodes[j]
    up = ("".join(map(str, Ap)) or "nothing") + (f" (+{rp} ten{'s' if rp > 1 else ''} rejected)" if rp else "")
    return f"banker dealt {''.join(map(str, B))}, punter showing {up}: {_move(n.kind, n.A, n.r)}"


def _try(candidates, check) -> dict | None:
    for c in candidates:
        r = check(c)
        if r is not None:
            return r
    return None


def punter_uniqueness(game: MacaoGame, punter: dict, banker: dict, value: Fraction) -> dict:
    """Whether the punter's optimal flows are unique (see the module docstring).

    Parameters
    ----------
    game : MacaoGame
        The game.
    punter, banker : dict
        A certified optimal pair (exact behaviour).
    value : Fraction
        The game's value.

    Returns
    -------
    dict
        ``unique`` (True, False, or None when undecided), ``free_nodes`` (his nodes where both
        moves are best against the banker's strategy), ``equations`` and ``rank``, and for a
        non-unique answer ``alternative_differs_at`` (nodes as ``hand/kind/kept cards/tens``).
    """
    U = len(game.units)
    mp: dict = {}
    punter_best_response(game, table(banker), mp)
    pgraphs = [game.graph(H).nodes for H in game.hands]
    moves = [[None if mp.get((h, j)) == 0 else int(mp.get((h, j), 0) > 0) for j, _ in enumerate(nodes)]
             for h, nodes in enumerate(pgraphs)]
    side = _affine_from_moves(pgraphs, moves)
    K = len(side.params)
    sn = stand_nodes(game)
    stand_x = [{hi: side.flows[hi][sn[hi][ui]][0] for hi in game.hands_at[ui]} for ui in range(U)]
    coef = coefficients(game)
    rows: list[dict] = []
    for bi, B in enumerate(game.hands):
        nodes = game.graph(B).nodes
        for ui, (Ap, rp) in enumerate(game.units):
            if K == 0:
                break
            t = game.tree(bi, ui)
            yf = game.banker_flows(table(banker), bi, ui)
            mixed = [j for j, f in enumerate(yf) if len(f) == 2 and f[0] > 0 and f[1] > 0]
            if not mixed:
                continue
            probs: list[Fraction | None] = [banker.get((B, Ap, rp, n.kind, n.A, n.r)) if len(n.actions) > 1 else None
                                            for n in nodes]
            q = _tree_values(nodes, coef[t], stand_x[ui], probs)
            rows += [_aff_add(q[j][1], q[j][0], -1) for j in mixed]
    rank = _rank(rows, K)
    out: dict = {"free_nodes": K, "equations": len(rows), "rank": rank}
    if rank == K:
        return {"unique": True, **out}
    # an explicit alternative along the null space
    xf = game.punter_flows(table(punter))
    theta = [xf[g][j][1] for g, j, _ in side.params]

    def check(d: list[Fraction]) -> dict | None:
        for e in (Fraction(1, 2**k) for k in (4, 10, 20)):
            for sgn in (1, -1):
                th = [a + sgn * e * b for a, b in zip(theta, d)]
                vals = dict(enumerate(th))
                if any(_aff_eval(f, vals) < 0 for g in side.flows for node in g for f in node):
                    continue
                alt = _behaviour(game, side, th, pgraphs, punter=True)
                lo, _ = banker_best_response(game, table(alt))
                if lo == value:
                    diff = [side.params[k][:2] for k in range(K) if th[k] != theta[k]]
                    return {"unique": False, **out, "alternative_differs_at": [
                        _punter_node(game, g, j) for g, j in diff[:10]], "alternative_nodes": len(diff)}
        return None

    found = _try(_nullspace(rows, K)[:8], check)
    return found or {"unique": None, **out}


def banker_uniqueness(game: MacaoGame, punter: dict, banker: dict, value: Fraction) -> dict:
    """Whether the banker's optimal strategy is unique on the path of play, and off it (see the module docstring).

    Parameters
    ----------
    game : MacaoGame
        The game.
    punter, banker : dict
        A certified optimal pair (exact behaviour).
    value : Fraction
        The game's value.

    Returns
    -------
    dict
        ``unique_on_path`` (True, False or None), ``free_nodes``, ``equations``, ``rank``;
        ``off_path_up_states`` (punter up-states the optimal punter never stands on) and
        ``unique_off_path`` (False when the banker's tie-broken best reply there is also
        optimal and differs, else None).
    """
    U = len(game.units)
    mb: dict = {}
    banker_best_response(game, table(punter), mb)
    reached = sorted({t % U for t, _ in mb})
    tgraphs = [game.graph(game.hands[t // U]).nodes for t in range(len(game.hands) * U)]
    moves: list[list[int | None]] = []
    for t, nodes in enumerate(tgraphs):
        moves.append([None if mb.get((t, j)) == 0 else int(mb.get((t, j), 0) > 0) for j in range(len(nodes))])
    side = _affine_from_moves(tgraphs, moves)
    K = len(side.params)
    coef = coefficients(game)
    reached_set = set(reached)
    stand_val: list[list[dict]] = [[{} for _ in range(U)] for _ in game.hands]
    for t in range(len(tgraphs)):
        ui = t % U
        if ui not in reached_set:
            continue
        for j, (st, bu) in enumerate(coef[t]):
            for a, terms in ((0, st), (1, bu)):
                f = side.flows[t][j][a] if a < len(side.flows[t][j]) else {}
                if f:
                    for hi, c in terms:
                        stand_val[hi][ui] = _aff_add(stand_val[hi][ui], f, c)
    xf = game.punter_flows(table(punter))
    rows: list[dict] = []
    for h, H in enumerate(game.hands):
        nodes = game.graph(H).nodes
        mixed = [j for j, f in enumerate(xf[h]) if len(f) == 2 and f[0] > 0 and f[1] > 0]
        if not mixed:
            continue
        v: list[dict] = [{} for _ in nodes]
        q: list[list[dict]] = [[] for _ in nodes]
        for j in range(len(nodes) - 1, -1, -1):
            n = nodes[j]
            qa = []
            for a, kids in _children(n):
                vec = dict(stand_val[h][game.unit_index[(n.A, n.r)]]) if n.kind == DECIDE and a == 0 else {}
                for kk in kids:
                    vec = _aff_add(vec, v[kk])
                qa.append(vec)
            q[j] = qa
            p = punter.get((H, n.kind, n.A, n.r)) if len(n.actions) > 1 else None
            v[j] = qa[0] if p is None else _aff_add(_aff_add({}, qa[0], 1 - p), qa[1], p)
        rows += [_aff_add(q[j][1], q[j][0], -1) for j in mixed]
    payoffs = [stand_val[h][ui] for ui in reached for h in game.hands_at[ui]]
    rank = _rank(rows, K)
    rank_all = _rank(rows + payoffs, K)
    out: dict = {"free_nodes": K, "equations": len(rows), "rank": rank,
                 "off_path_up_states": len(game.units) - len(reached), "up_states": len(game.units)}
    res: dict = {"unique_on_path": True if rank_all == rank else None, **out}
    if rank_all != rank:   # an explicit alternative on the path of play: a null vector that moves a payoff
        theta: list[Fraction] = []
        for g, j, _ in side.params:
            yf = game.banker_flows(table(banker), g // U, g % U)
            theta.append(yf[j][1])

        def lin(form: dict, d: list[Fraction]) -> Fraction:
            return sum((v * d[k] for k, v in form.items() if k != -1), F0)

        if rows:
            cands = _nullspace(rows, K)
        else:
            cands = [[Fraction(int(i == k)) for i in range(K)] for k in range(K)]
        cands = [d for d in cands if any(lin(f, d) for f in payoffs)][:6]

        def check(d: list[Fraction]) -> dict | None:
            for e in (Fraction(1, 2**k) for k in (4, 12)):
                for sgn in (1, -1):
                    th = [a + sgn * e * b for a, b in zip(theta, d)]
                    vals = dict(enumerate(th))
                    if any(_aff_eval(f, vals) < 0 for t in side.flows for node in t for f in node):
                        continue
                    alt = dict(banker)
                    alt.update({k: v for k, v in _behaviour(game, side, th, tgraphs, punter=False).items()
                                if game.unit_index[(k[1], k[2])] in reached_set})
                    hi, _ = punter_best_response(game, table(alt))
                    if hi == value:
                        diff = [side.params[k][:2] for k in range(K) if th[k] != theta[k]]
                        return {"unique_on_path": False, "alternative_differs_at": [
                            _banker_node(game, g, j) for g, j in diff[:10]], "alternative_nodes": len(diff)}
            return None

        found = _try(cands, check)
        if found:
            res.update(found)
    # off the path of play: the banker's tie-broken best reply to x* in the trees the punter never reaches
    _, reply = banker_best_response(game, table({k: v for k, v in punter.items()}))
    alt = dict(banker)
    changed = 0
    for key in banker:
        Ap, rp = key[1], key[2]
        if game.unit_index[(Ap, rp)] not in reached_set:
            new = reply.get(key, F0)
            if new != banker[key]:
                changed += 1
            alt[key] = new
    res["unique_off_path"] = None
    if changed:
        conceded, _ = punter_best_response(game, table(alt))
        if conceded == value:
            res["unique_off_path"] = False
            res["alternative_off_path_changes"] = changed
    elif len(reached) == len(game.units):
        res["unique_off_path"] = True
    return res


def uniqueness(game: MacaoGame, punter: dict, banker: dict, value: Fraction) -> dict:
    """Both sides' uniqueness, and one verdict for people.

    Parameters
    ----------
    game : MacaoGame
        The game.
    punter, banker : dict
        A certified optimal pair.
    value : Fraction
        The game's value.

    Returns
    -------
    dict
        ``punter`` and ``banker`` (see :func:`punter_uniqueness`, :func:`banker_uniqueness`),
        ``unique`` (True: both sides' optimal strategies are unique on the path of play; False: an
        alternative optimal strategy was found for a side on the path of play; None: undecided)
        and ``note``, a sentence.
    """
    p = punter_uniqueness(game, punter, banker, value)
    b = banker_uniqueness(game, punter, banker, value)
    if p["unique"] is False or b["unique_on_path"] is False:
        verdict: bool | None = False
    elif p["unique"] and b["unique_on_path"]:
        verdict = True
    else:
        verdict = None
    words = {True: "unique", False: "not unique", None: "undecided"}
    note = (f"punter: {words[p['unique']]} (as flows; his moves at hands he never reaches are arbitrary); "
            f"banker: {words[b['unique_on_path']]} on the path of play")
    if b["off_path_up_states"]:
        note += (f"; off it (the {b['off_path_up_states']} of {b['up_states']} punter up-states the optimal "
                 f"punter never stands on) {words[b['unique_off_path']]}"
                 + (", his moves there only deter deviations" if b["unique_off_path"] is False else ""))
    return {"unique": verdict, "note": note, "punter": p, "banker": b}
