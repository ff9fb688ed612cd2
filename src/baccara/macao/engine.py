"""Exact evaluation in Macao: the distribution of outcomes for given strategies, and best responses.

Strategies are behavioural, as functions of a key (any mapping's ``get`` with a
default will do, see :func:`table`):

- the punter's key ``(H, kind, A, r)``: his face-down hand H (sorted values), the
  node's kind (``"d"``: the probability of *drawing*; ``"p"``: of *rejecting* the
  drawn ten), his kept face-up cards A and tens rejected r;
- the banker's key ``(B, Ap, rp, kind, A, r)``: his face-down hand B, the punter's
  kept face-up cards Ap and tens rejected rp, then as the punter's for his own hand.

Every number is exact: integer chance weights (:class:`~baccara.macao.model.MacaoGame`)
times rational flows, divided once.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from math import lcm

from .model import BUST, DECIDE, PENDING, MacaoGame, Strategy

F0 = Fraction(0)


def table(probs: Mapping, default: Fraction | int = 0) -> Strategy:
    """A strategy from a mapping of keys to probabilities, ``default`` elsewhere.

    Parameters
    ----------
    probs : mapping
        Key -> probability of action 1 (draw at a decision, reject at a pending ten).
    default : Fraction or int
        The probability where the key is missing.

    Returns
    -------
    callable
        The strategy.
    """
    d = Fraction(default)
    return lambda key: probs.get(key, d)


def threshold(stand_on: int, reject: bool = True, *, banker: bool = False) -> Strategy:
    """A simple rule: draw while the hand's total is below ``stand_on``, reject every ten (or keep it).

    Parameters
    ----------
    stand_on : int
        The lowest total that stands (0-10; 10 draws at every total).
    reject : bool
        Whether drawn tens are rejected.
    banker : bool
        Build the banker's strategy (his keys carry the punter's up-cards) rather than the punter's.

    Returns
    -------
    callable
        The strategy.
    """
    def f(key) -> Fraction:
        hand, kind, A = (key[0], key[3], key[4]) if banker else (key[0], key[1], key[2])
        if kind == PENDING:
            return Fraction(int(reject))
        # reachable hands are never over 9 under early rules, so one formula serves both totals
        return Fraction(int((sum(hand) % 10 + sum(A)) % 10 < stand_on))
    return f


def _int_scale(values) -> tuple[list[int], int]:
    """Rationals as integers over their least common denominator."""
    d = lcm(*(v.denominator for v in values)) if values else 1
    return [int(v * d) for v in values], d




def coefficients(game: MacaoGame) -> list[list[tuple[list[tuple[int, int]], list[tuple[int, int]]]]]:
    """Per banker tree, per node: ``(stand terms, bust terms)``, each a list of (punter hand index, coefficient).

    A coefficient is the chance weight times the integer payoff to the punter (payout times
    :attr:`~baccara.macao.model.MacaoGame.scale`); the punter's stand flow at the tree's
    up-state and the banker's flow on the node's action multiply it.
    """
    cached = getattr(game, "_coefficients", None)
    if cached is not None:
        return cached
    ipay = [game.ipays[o] for o in game.outcomes]
    out = []
    for bi in range(len(game.hands)):
        nodes = game.graph(game.hands[bi]).nodes
        for ui in range(len(game.units)):
            per: list[tuple[list[tuple[int, int]], list[tuple[int, int]]]] = [([], []) for _ in nodes]
            for j, a, hi, w, o in game.banker_terms[game.tree(bi, ui)]:
                per[j][a].append((hi, w * ipay[o]))
            out.append(per)
    game._coefficients = out  # type: ignore[attr-defined]
    return out


def stand_nodes(game: MacaoGame) -> list[dict[int, int]]:
    """For each punter hand, its decision nodes by up-state index: ``{unit index: node index}``."""
    out = []
    for H in game.hands:
        g = game.graph(H)
        out.append({game.unit_index[(n.A, n.r)]: j for j, n in enumerate(g.nodes) if n.kind == DECIDE})
    return out


def punter_stand_flows(game: MacaoGame, xflows: list[list[list[Fraction]]]) -> list[dict[int, Fraction]]:
    """For each up-state, the punter's stand flow by hand index (nonzero only)."""
    sn = stand_nodes(game)
    out: list[dict[int, Fraction]] = [{} for _ in game.units]
    for hi, m in enumerate(sn):
        for ui, j in m.items():
            f = xflows[hi][j][0]
            if f:
                out[ui][hi] = f
    return out


def distribution(game: MacaoGame, punter: Strategy, banker: Strategy) -> dict[str, Fraction]:
    """The exact distribution of the coup's outcome when both sides play the given strategies.

    Parameters
    ----------
    game : MacaoGame
        The game (rules and shoe).
    punter, banker : callable
        Behavioural strategies (see the module docstring).

    Returns
    -------
    dict
        Probability of each of the game's :attr:`~baccara.macao.model.MacaoGame.outcomes`, and ``"ev"``: the
        punter's expected payoff per unit staked (minus the banker's edge).
    """
    xf = game.punter_flows(punter)
    outcomes = game.outcomes
    acc: list = [0] * len(outcomes)
    lose = outcomes.index("lose")
    den_x = lcm(*(f.denominator for fl in xf for node in fl for f in node))
    for hi, d in enumerate(game.punter_busts):
        for j, w in d.items():
            acc[lose] += w * int(xf[hi][j][1] * den_x)
    xs = punter_stand_flows(game, xf)
    for bi in range(len(game.hands)):
        for ui in range(len(game.units)):
            if not xs[ui]:
                continue
            yf = game.banker_flows(banker, bi, ui)
            yint, den_y = _int_scale([f for node in yf for f in node])
            ymat, k = [], 0
            for node in yf:
                ymat.append(yint[k:k + len(node)])
                k += len(node)
            xi = {hi: int(f * den_x) for hi, f in xs[ui].items()}
            part = [0] * len(outcomes)
            for j, a, hi, w, o in game.banker_terms[game.tree(bi, ui)]:
                x = xi.get(hi)
                if x and ymat[j][a]:
                    part[o] += w * x * ymat[j][a]
            for o in range(len(outcomes)):
                if part[o]:
                    acc[o] += Fraction(part[o], den_y)
    den = game.denominator * den_x
    out = {o: Fraction(acc[k]) / den for k, o in enumerate(outcomes)}
    out["ev"] = sum((game.pays[o] * out[o] for o in outcomes), F0)
    return out


def banker_best_response(game: MacaoGame, punter: Strategy, margins: dict | None = None) -> tuple[Fraction, dict]:
    """The banker's best reply to a punter strategy: the punter's expected payoff against it, and the reply.

    Parameters
    ----------
    game : MacaoGame
        The game.
    punter : callable
        The punter's behavioural strategy.

    Returns
    -------
    (Fraction, dict)
        The least the punter can be held to (his expected payoff per unit staked), and the
        banker's pure reply as a mapping key -> 0 or 1 (ties: stand, reject).  With ``margins``
        (a dict), how much better action 1 is for the banker at each node of each tree reached,
        by (tree, node), in the engine's integer units.
    """
    xf = game.punter_flows(punter)
    coef = coefficients(game)
    den_x = lcm(*(f.denominator for fl in xf for node in fl for f in node))
    total = 0
    for hi, d in enumerate(game.punter_busts):
        for j, w in d.items():
            total -= w * game.scale * int(xf[hi][j][1] * den_x)
    xs = punter_stand_flows(game, xf)
    reply: dict = {}
    for bi, B in enumerate(game.hands):
        nodes = game.graph(B).nodes
        for ui, (Ap, rp) in enumerate(game.units):
            if not xs[ui]:
                continue
            xi = {hi: int(f * den_x) for hi, f in xs[ui].items()}
            per = coef[game.tree(bi, ui)]
            v = [0] * len(nodes)
            for j in range(len(nodes) - 1, -1, -1):
                n = nodes[j]
                if n.kind == DECIDE:
                    stand = sum(c * xi[hi] for hi, c in per[j][0] if hi in xi)
                    if len(n.actions) > 1:
                        draw = sum(c * xi[hi] for hi, c in per[j][1] if hi in xi)
                        draw += sum(v[k] for k in n.children if k != BUST)
                        move = int(draw < stand)
                        v[j] = min(stand, draw)
                        reply[(B, Ap, rp, n.kind, n.A, n.r)] = Fraction(move)
                        if margins is not None:
                            margins[(game.tree(bi, ui), j)] = stand - draw   # > 0: drawing is better for him
                    else:
                        v[j] = stand
                else:
                    acc, rej = v[n.accept], v[n.reject]
                    move = int(rej <= acc)
                    v[j] = rej if move else acc
                    reply[(B, Ap, rp, n.kind, n.A, n.r)] = Fraction(move)
                    if margins is not None:
                        margins[(game.tree(bi, ui), j)] = acc - rej
            total += v[0]
    return Fraction(total, game.denominator * game.scale * den_x), reply


def punter_stand_values(game: MacaoGame, banker: Strategy) -> list[list[Fraction]]:
    """``values[hi][ui]``: the punter's integer-weighted payoff (over the game's denominator and scale) of
    standing at up-state ui with hand hi against the banker's strategy."""
    coef = coefficients(game)
    vals = [[F0] * len(game.units) for _ in game.hands]
    for bi in range(len(game.hands)):
        for ui in range(len(game.units)):
            hands = game.hands_at[ui]
            if not hands:
                continue
            yf = game.banker_flows(banker, bi, ui)
            yint, den_y = _int_scale([f for node in yf for f in node])
            ymat, k = [], 0
            for node in yf:
                ymat.append(yint[k:k + len(node)])
                k += len(node)
            acc: dict[int, int] = {}
            for j, (st, bu) in enumerate(coef[game.tree(bi, ui)]):
                for a, terms in ((0, st), (1, bu)):
                    y = ymat[j][a] if a < len(ymat[j]) else 0
                    if y:
                        for hi, c in terms:
                            acc[hi] = acc.get(hi, 0) + c * y
            for hi, s in acc.items():
                vals[hi][ui] += Fraction(s, den_y)
    return vals


def punter_best_response(game: MacaoGame, banker: Strategy, margins: dict | None = None) -> tuple[Fraction, dict]:
    """The punter's best reply to a banker strategy: his expected payoff and the reply.

    Parameters
    ----------
    game : MacaoGame
        The game.
    banker : callable
        The banker's behavioural strategy.

    Returns
    -------
    (Fraction, dict)
        The most the punter can get (per unit staked), and his pure reply as a mapping
        key -> 0 or 1 (ties: stand, reject).  With ``margins`` (a dict), how much better action 1
        is for him at each node, by (hand, node), in the engine's units.
    """
    sv = punter_stand_values(game, banker)
    total = F0
    reply: dict = {}
    for hi, H in enumerate(game.hands):
        nodes = game.graph(H).nodes
        busts = game.punter_busts[hi]
        v = [F0] * len(nodes)
        for j in range(len(nodes) - 1, -1, -1):
            n = nodes[j]
            if n.kind == DECIDE:
                stand = sv[hi][game.unit_index[(n.A, n.r)]]
                if len(n.actions) > 1:
                    draw = -busts.get(j, 0) * game.scale + sum((v[k] for k in n.children if k != BUST), F0)
                    move = int(draw > stand)
                    v[j] = draw if move else stand
                    reply[(H, n.kind, n.A, n.r)] = Fraction(move)
                    if margins is not None:
                        margins[(hi, j)] = draw - stand      # > 0: drawing is better for him
                else:
                    v[j] = stand
            else:
                acc, rej = v[n.accept], v[n.reject]
                move = int(rej >= acc)
                v[j] = rej if move else acc
                reply[(H, n.kind, n.A, n.r)] = Fraction(move)
                if margins is not None:
                    margins[(hi, j)] = rej - acc
        total += v[0]
    return total / (game.denominator * game.scale), reply


def expected_payoff(game: MacaoGame, punter: Strategy, banker: Strategy) -> Fraction:
    """The punter's expected payoff per unit staked (minus the banker's edge) for a pair of strategies.

    Parameters
    ----------
    game : MacaoGame
        The game.
    punter, banker : callable
        The two strategies.

    Returns
    -------
    Fraction
        The expectation, exactly.
    """
    return distribution(game, punter, banker)["ev"]


__all__ = ["banker_best_response", "distribution", "expected_payoff", "punter_best_response", "table", "threshold"]
