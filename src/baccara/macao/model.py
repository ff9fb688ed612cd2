"""Macao and Victoria as a two-person game: the hands, the chance weights, the exact engine and best responses.

The game tree
-------------
Each hand (the punter's, then the banker's) is dealt ``initial`` cards face down
and then moves through a small graph of *up-states*: ``(A, r)``, the face-up cards
it has kept (a multiset of values, a sorted tuple) and the number of tens it has
rejected.  At a *decision* state the hand stands or draws (while fewer than
``rules.draws`` cards have been drawn); a drawn ten, when tens may be rejected,
leads to a *pending* state where it is accepted (kept: it counts as a card) or
rejected (dealt out of the shoe, shown, not counted).  Every drawn card leaves the
shoe, rejected tens included.

Information
-----------
The punter knows his face-down cards and his up-state.  The banker knows his own
face-down cards, his own up-state, and the punter's up-state *as the cards lie on
the table*: the multiset of the punter's kept face-up cards and the number of tens
he rejected, not the order in which they came.  This is the one modelling choice:
a banker who also remembered the order could in principle use it (under a
strategy that depends on the order, which card came first says something about the
face-down card).

With that information model, nothing is lost by letting each side's strategy
depend on its multiset of cards rather than on the ordered history: for sampling
without replacement the probability of any ordered sequence of cards depends only
on the multiset of cards dealt, the payoff depends only on the final hands, and
the opponent's information does not see the order.  So each side's strategy set is
the polytope of *flows* on its graph of up-states (``R(s, a)``, the total
realization probability of the histories that reach ``s`` and take ``a``; flow
in equals flow out), which is exactly the set of outcome-relevant behaviour of
every history-dependent (perfect-recall) strategy, and the payoff is bilinear in
the two sides' flows.  The sequence-form linear program of Koller, Megiddo and
von Stengel then applies with flows in place of realization plans
(:mod:`baccara.macao.solution`).

Exact probabilities
-------------------
A coup deals at most ``T = rules.cards_per_coup`` cards.  The chance weight of any
set of final hands, with a specific order for each hand's draws, is the integer
``prod_v (n_v)_{k_v} * (N - k)_{T - k}`` over ``(N)_T`` (``k_v`` cards of value v dealt,
``k`` in all), times the number of orders of the two face-down hands.  Every exact
number here is such an integer sum, divided once at the end.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from itertools import combinations_with_replacement
from math import lcm, perm

from ..errors import BaccaraError, ShoeError
from ..shoe import Shoe
from .variants import MacaoRules, macao_rules

#: Outcome categories of a coup, from the punter's side, in every variant; a game adds ``win_naturalT`` for
#: other paid totals T and, with the banker's bonus, ``lose_naturalT`` (see :attr:`MacaoGame.outcomes`).
OUTCOMES = ("win_natural9", "win_natural8", "win", "push", "lose")
#: Node kinds: a decision to draw or stand, and a drawn ten pending acceptance.
DECIDE, PENDING = "d", "p"
BUST = -1

Key = tuple  # strategy keys (see PunterStrategy / BankerStrategy)
Strategy = Callable[[Key], Fraction]


def _code(values) -> int:
    """A multiset of card values as an integer: 16^v per card of value v."""
    return sum(16**v for v in values)


@dataclass(frozen=True)
class Node:
    """One up-state of a hand: ``kind`` (``"d"`` decide, ``"p"`` a ten pending), kept cards ``A``, tens rejected ``r``.

    ``actions`` names the moves (``("stand",)``, ``("stand", "draw")`` or ``("accept", "reject")``);
    ``children[c]`` is where drawing a card of value c leads (a node index, or BUST), for a decision
    node that can draw; ``accept``/``reject`` the two children of a pending node.
    """

    kind: str
    A: tuple[int, ...]
    r: int
    actions: tuple[str, ...]
    children: tuple[int, ...] = ()
    accept: int = -1
    reject: int = -1

    @property
    def code(self) -> int:
        """The cards this hand has taken from the shoe after the deal, as a multiset code."""
        return _code(self.A) + self.r


@dataclass(frozen=True)
class Graph:
    """The up-states of a hand whose dealt total is ``t0``, in topological order (node 0 is the deal)."""

    nodes: tuple[Node, ...]
    index: Mapping[tuple[str, tuple[int, ...], int], int]


def build_graph(rules: MacaoRules, t0: int) -> Graph:
    """The graph of up-states of a hand dealt a total of ``t0``.

    Parameters
    ----------
    rules : MacaoRules
        The variant.
    t0 : int
        The total of the face-down cards (0-9).

    Returns
    -------
    Graph
        Its nodes, decisions and pending tens, in an order where every arc goes forward.
    """
    raw: dict[tuple[str, tuple[int, ...], int], dict] = {}
    order: list[tuple[str, tuple[int, ...], int]] = []
    frontier: list[tuple[str, tuple[int, ...], int]] = [(DECIDE, (), 0)]
    # breadth first by cards drawn: a node's children have one more card drawn (or are pending at the same count)
    for _drawn in range(rules.draws + 1):
        nxt: list[tuple[str, tuple[int, ...], int]] = []
        pend: list[tuple[str, tuple[int, ...], int]] = []
        for key in frontier:
            if key in raw:
                continue
            _, A, r = key
            can = len(A) + r < rules.draws
            kids: list[tuple[str, tuple[int, ...], int] | int] = []
            if can:
                for c in range(10):
                    if c == 0 and rules.reject_tens:
                        k2: tuple[str, tuple[int, ...], int] | int = (PENDING, A, r)
                        pend.append(k2)  # type: ignore[arg-type]
                    else:
                        A2 = tuple(sorted(A + (c,)))
                        k2 = BUST if rules.totals == "bust" and t0 + sum(A2) > 9 else (DECIDE, A2, r)
                        if k2 != BUST:
                            nxt.append(k2)  # type: ignore[arg-type]
                    kids.append(k2)
            raw[key] = {"actions": ("stand", "draw") if can else ("stand",), "kids": kids}
            order.append(key)
        for key in pend:
            if key in raw:
                continue
            _, A, r = key
            acc_A = tuple(sorted(A + (0,)))
            acc = (DECIDE, acc_A, r)
            rej = (DECIDE, A, r + 1)
            nxt += [acc, rej]
            raw[key] = {"actions": ("accept", "reject"), "acc": acc, "rej": rej}
            order.append(key)
        frontier = list(dict.fromkeys(nxt))
    index = {k: i for i, k in enumerate(order)}
    nodes = []
    for k in order:
        d = raw[k]
        if k[0] == DECIDE:
            kid_index = tuple(BUST if x == BUST else index[x] for x in d["kids"])
            nodes.append(Node(DECIDE, k[1], k[2], d["actions"], kid_index))
        else:
            nodes.append(Node(PENDING, k[1], k[2], d["actions"], accept=index[d["acc"]], reject=index[d["rej"]]))
    return Graph(tuple(nodes), index)


@dataclass(frozen=True)
class HandValue:
    """A final hand: its total (BUST if over 9 under early rules), its cards, and its natural's total (-1: none)."""

    total: int
    cards: int
    natural: int


@dataclass
class MacaoGame:
    """Macao (or Victoria) on one shoe: the deal, both sides' graphs and the exact chance weights.

    Attributes
    ----------
    rules : MacaoRules
        The variant.
    counts : tuple of int
        The shoe's cards by value 0-9 (a ten is 0).
    hands : list of tuple
        The face-down hands one side can be dealt (sorted values), in a fixed order.
    orders : list of int
        How many orders of dealing each hand has (1, or 2 for two different cards).
    """

    rules: MacaoRules
    counts: tuple[int, ...]
    hands: list[tuple[int, ...]] = field(init=False)
    orders: list[int] = field(init=False)

    def __post_init__(self) -> None:
        self.counts = tuple(int(c) for c in self.counts)
        if len(self.counts) != 10 or any(c < 0 for c in self.counts):
            raise ShoeError("a Macao shoe needs 10 non-negative counts by value 0-9")
        self.N = sum(self.counts)
        self.T = self.rules.cards_per_coup
        if self.N < self.T:
            raise ShoeError(f"the shoe has {self.N} cards, too few for a coup of {self.rules.name}: the deal and the "
                            f"draws can take {self.T} ({self.rules.initial} card(s) each and up to "
                            f"{self.rules.draws} draw(s) per hand)")
        self.hands = [h for h in combinations_with_replacement(range(10), self.rules.initial)]
        self.orders = [1 if len(set(h)) == 1 else len(h) for h in self.hands]
        self.denominator = perm(self.N, self.T)
        self._w: dict[int, int] = {}
        self._graphs: dict[int, Graph] = {}
        self.codes = [_code(h) for h in self.hands]

    # ---------------------------------------------------------------- structure
    def t0(self, hand: tuple[int, ...]) -> int:
        """The total of a face-down hand."""
        return sum(hand) % 10

    def graph(self, hand: tuple[int, ...]) -> Graph:
        """The graph of up-states of a hand dealt ``hand``."""
        t = self.t0(hand) if self.rules.totals == "bust" else 0
        g = self._graphs.get(t)
        if g is None:
            g = self._graphs[t] = build_graph(self.rules, t)
        return g

    @cached_property
    def units(self) -> list[tuple[tuple[int, ...], int]]:
        """Every punter up-state where he can stand, ``(A, r)``, in a fixed order (the banker's trees)."""
        seen: dict[tuple[tuple[int, ...], int], None] = {}
        for h in self.hands:
            for n in self.graph(h).nodes:
                if n.kind == DECIDE:
                    seen[(n.A, n.r)] = None
        return list(seen)

    @cached_property
    def unit_index(self) -> dict[tuple[tuple[int, ...], int], int]:
        return {u: i for i, u in enumerate(self.units)}

    @cached_property
    def hands_at(self) -> list[list[int]]:
        """For each punter up-state, the punter's hands (indices) that can stand there."""
        out: list[list[int]] = [[] for _ in self.units]
        for i, h in enumerate(self.hands):
            g = self.graph(h)
            for n in g.nodes:
                if n.kind == DECIDE:
                    out[self.unit_index[(n.A, n.r)]].append(i)
        return out

    # ---------------------------------------------------------------- chance
    def weight(self, code: int) -> int:
        """Integer chance weight of a multiset of dealt cards (over :attr:`denominator`), for one order of each draw."""
        w = self._w.get(code)
        if w is None:
            w, k, c = 1, 0, code
            for v in range(10):
                kv = c & 15
                c >>= 4
                if kv:
                    w *= perm(self.counts[v], kv) if kv <= self.counts[v] else 0
                    k += kv
            w = w * perm(self.N - k, self.T - k) if w else 0
            self._w[code] = w
        return w

    # ---------------------------------------------------------------- hands and payoffs
    def value(self, hand: tuple[int, ...], A: tuple[int, ...]) -> HandValue:
        """A final hand: face-down ``hand`` and kept face-up cards ``A``."""
        cards = len(hand) + len(A)
        if self.rules.totals == "modulo":
            total = (sum(hand) + sum(A)) % 10
        else:
            total = sum(hand) % 10 + sum(A)
            if total > 9:
                return HandValue(BUST, cards, -1)
        nat = total if cards == self.rules.initial and total in self.rules.naturals else -1
        return HandValue(total, cards, nat)

    def outcome(self, p: HandValue, b: HandValue) -> str:
        """The outcome (one of :data:`OUTCOMES`) of the punter's hand ``p`` against the banker's ``b``."""
        if p.total == BUST:
            return "lose"
        if b.total == BUST or p.total > b.total or (p.total == b.total and p.cards < b.cards):
            return f"win_natural{p.natural}" if p.natural >= 0 else "win"
        if p.total == b.total and p.cards == b.cards:
            # equal totals and cards: the tie rule, never the banker's bonus (Meyer: one nine against another
            # loses single)
            return "push" if self.rules.ties == "push" else "lose"
        if self.rules.banker_bonus and b.natural >= 0:
            return f"lose_natural{b.natural}"
        return "lose"

    @cached_property
    def outcomes(self) -> tuple[str, ...]:
        """This game's outcome categories: :data:`OUTCOMES`, then ``win_naturalT`` for the other paid totals T,
        then, with the banker's bonus, ``lose_naturalT`` for every natural total T (highest first)."""
        nats = self.rules.naturals
        extra = tuple(f"win_natural{t}" for t in nats if t not in (9, 8))
        if self.rules.banker_bonus:
            extra += tuple(f"lose_natural{t}" for t in nats)
        return OUTCOMES + extra

    @cached_property
    def pays(self) -> dict[str, Fraction]:
        """What each outcome pays the punter, per unit staked."""
        r = self.rules
        out = {"win_natural9": r.natural9_pays, "win_natural8": r.natural8_pays, "win": Fraction(1),
               "push": Fraction(0), "lose": Fraction(-1)}
        for o in self.outcomes[len(OUTCOMES):]:
            t = int(o[-1])
            out[o] = r.multiple(t) if o.startswith("win") else -r.multiple(t)
        return out

    @cached_property
    def scale(self) -> int:
        """The common denominator of the payouts: integer payoffs are payouts times this."""
        return lcm(*(p.denominator for p in self.pays.values()))

    @cached_property
    def ipays(self) -> dict[str, int]:
        return {k: int(v * self.scale) for k, v in self.pays.items()}

    # ---------------------------------------------------------------- the bilinear structure
    @cached_property
    def banker_terms(self) -> list[list[tuple[int, int, int, int, int]]]:
        """For each banker tree ``(B, U)`` (index ``b * len(units) + u``), its terminal terms.

        Each term is ``(node, action, punter hand index, integer weight, outcome index)``: the
        banker stands at ``node`` (action 0) or draws there and busts (action 1, summed over
        the busting cards), against the punter's hand that stands at ``U``.  The chance weight
        includes the orders of both face-down hands.
        """
        out = []
        oc = {o: i for i, o in enumerate(self.outcomes)}
        for bi, B in enumerate(self.hands):
            g = self.graph(B)
            for ui, (A, r) in enumerate(self.units):
                terms: list[tuple[int, int, int, int, int]] = []
                base_u = _code(A) + r
                for hi in self.hands_at[ui]:
                    H = self.hands[hi]
                    pv = self.value(H, A)
                    base = self.codes[hi] + self.codes[bi] + base_u
                    mult = self.orders[hi] * self.orders[bi]
                    for j, n in enumerate(g.nodes):
                        if n.kind != DECIDE:
                            continue
                        code = base + n.code
                        w = self.weight(code)
                        if w:
                            terms.append((j, 0, hi, w * mult, oc[self.outcome(pv, self.value(B, n.A))]))
                        if n.children:
                            busted = sum(self.weight(code + 16**c) for c in range(10) if n.children[c] == BUST)
                            if busted:
                                terms.append((j, 1, hi, busted * mult, oc[self.outcome(pv, HandValue(BUST, 0, -1))]))
                out.append(terms)
        return out

    @cached_property
    def punter_busts(self) -> list[dict[int, int]]:
        """For each punter hand, the integer weight of busting when drawing at each node (summed over the banker's hands)."""
        out = []
        for hi, H in enumerate(self.hands):
            g = self.graph(H)
            d: dict[int, int] = {}
            for j, n in enumerate(g.nodes):
                if n.kind == DECIDE and n.children and BUST in n.children:
                    base = self.codes[hi] + n.code
                    tot = 0
                    for bi in range(len(self.hands)):
                        for c in range(10):
                            if n.children[c] == BUST:
                                tot += self.orders[hi] * self.orders[bi] * self.weight(base + self.codes[bi] + 16**c)
                    if tot:
                        d[j] = tot
            out.append(d)
        return out

    def tree(self, bi: int, ui: int) -> int:
        """Index of the banker's tree: banker's hand ``bi`` against the punter's up-state ``ui``."""
        return bi * len(self.units) + ui

    # ---------------------------------------------------------------- strategies as flows
    def punter_flows(self, punter: Strategy) -> list[list[list[Fraction]]]:
        """The punter's flows: ``flows[h][node][action]``, root inflow 1 for each face-down hand."""
        return [_flows(self.graph(H).nodes, lambda n, H=H: punter((H, n.kind, n.A, n.r))) for H in self.hands]

    def banker_flows(self, banker: Strategy, bi: int, ui: int) -> list[list[Fraction]]:
        """The banker's flows in one tree, root inflow 1."""
        B = self.hands[bi]
        A, r = self.units[ui]
        return _flows(self.graph(B).nodes, lambda n: banker((B, A, r, n.kind, n.A, n.r)))


def _flows(nodes, prob1) -> list[list[Fraction]]:
    """Flows on a graph from a behaviour: ``prob1(node)`` is the probability of action 1 (draw, reject)."""
    inflow = [Fraction(0)] * len(nodes)
    inflow[0] = Fraction(1)
    out = []
    for j, n in enumerate(nodes):
        f = inflow[j]
        if len(n.actions) == 1:
            acts = [f]
        else:
            p = Fraction(prob1(n)) if f else Fraction(0)
            if not 0 <= p <= 1:
                raise BaccaraError(f"a strategy's probability must be in [0, 1], got {p} at {n.kind, n.A, n.r}")
            acts = [f - f * p, f * p]
        out.append(acts)
        if n.kind == DECIDE and len(acts) > 1 and acts[1]:
            for k in n.children:
                if k != BUST:
                    inflow[k] += acts[1]
        elif n.kind == PENDING:
            if acts[0]:
                inflow[n.accept] += acts[0]
            if acts[1]:
                inflow[n.reject] += acts[1]
    return out


def shoe_counts(shoe: Shoe | int | tuple[int, ...] | None, default_decks: int = 2) -> tuple[int, ...]:
    """Counts by value 0-9 from a shoe, a number of decks or 10 counts.

    Parameters
    ----------
    shoe : Shoe, int, tuple of int or None
        A :class:`~baccara.shoe.Shoe` (dealt without replacement), fresh decks, or counts by value.
    default_decks : int
        Decks when ``shoe`` is None.

    Returns
    -------
    tuple of int
        The 10 counts.
    """
    if shoe is None:
        shoe = default_decks
    if isinstance(shoe, Shoe):
        if shoe.replacement:
            raise ShoeError("Macao is solved for a finite shoe dealt without replacement, not the infinite shoe")
        return tuple(shoe.value_counts())
    if isinstance(shoe, bool):
        raise ShoeError(f"decks must be a positive integer, got {shoe!r}")
    if isinstance(shoe, int):
        if shoe <= 0:
            raise ShoeError(f"decks must be a positive integer, got {shoe!r}")
        return (16 * shoe,) + (4 * shoe,) * 9
    counts = tuple(shoe)
    if len(counts) != 10 or not all(isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in counts):
        raise ShoeError(f"a shoe by value needs 10 non-negative integer counts (values 0-9), got {shoe!r}")
    return counts


def macao_game(variant: str | MacaoRules = "macao", shoe: Shoe | int | tuple[int, ...] | None = None,
               **changes) -> MacaoGame:
    """The game for a variant on a shoe.

    Parameters
    ----------
    variant : str or MacaoRules
        ``macao``, ``macao-early``, ``victoria``, ``victoria-early``, or rules.
    shoe : Shoe, int or tuple of int, optional
        The shoe (default: the variant's decks, 2).
    **changes
        Rule fields to change (``natural9_pays``, ``draws``, ...).

    Returns
    -------
    MacaoGame
        The game.
    """
    rules = macao_rules(variant, **changes)
    return MacaoGame(rules, shoe_counts(shoe, rules.decks))
