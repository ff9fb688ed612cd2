"""A brute-force enumerator of Macao coups: the test oracle of the exact engine.

It follows every ordered sequence of cards, one card at a time, with the
strategies' probabilities at each decision, in plain Fractions, and scores the
final hands with its own code: no graphs, no flows, no merging of orders, no
integer weights.  Its cost grows like (N)_T, so it is for tiny shoes.
"""

from __future__ import annotations

from fractions import Fraction

from .engine import Strategy
from .variants import MacaoRules

OUTCOMES = ("win_natural9", "win_natural8", "win", "push", "lose")


def _score(rules: MacaoRules, down: list[int], up: list[int]) -> tuple[int, int]:
    """(total, cards) of a hand; total -1 for a hand over 9 under early rules."""
    if rules.totals == "modulo":
        return (sum(down) + sum(up)) % 10, len(down) + len(up)
    t = sum(down) % 10 + sum(up)
    return (-1 if t > 9 else t), len(down) + len(up)


def _result(rules: MacaoRules, p: tuple[int, int], b: tuple[int, int]) -> tuple[str, Fraction]:
    """The outcome's name and what it pays the punter."""
    (pt, pc), (bt, bc) = p, b
    paid = rules.naturals
    if pt < 0:
        return "lose", Fraction(-1)
    if bt < 0 or pt > bt or (pt == bt and pc < bc):
        if pc == rules.initial and pt in paid:
            return f"win_natural{pt}", paid[pt]
        return "win", Fraction(1)
    if pt == bt and pc == bc:
        return ("push", Fraction(0)) if rules.ties == "push" else ("lose", Fraction(-1))
    if rules.banker_bonus and bc == rules.initial and bt in paid:
        return f"lose_natural{bt}", -paid[bt]
    return "lose", Fraction(-1)


def brute_distribution(rules: MacaoRules, counts: tuple[int, ...], punter: Strategy, banker: Strategy
                       ) -> dict[str, Fraction]:
    """The distribution of outcomes by following every ordered deal, card by card.

    Parameters
    ----------
    rules : MacaoRules
        The variant.
    counts : tuple of int
        The shoe by value 0-9 (tiny: the cost grows like the falling factorial (N)_T).
    punter, banker : callable
        Behavioural strategies, keyed as in :mod:`baccara.macao.engine`.

    Returns
    -------
    dict
        Probability of each outcome (the five of every variant, and ``win_naturalT`` / ``lose_naturalT``
        where they occur), and ``"ev"`` (the punter's expected payoff).
    """
    names = OUTCOMES + tuple(f"win_natural{t}" for t in rules.naturals if t not in (9, 8))
    names += tuple(f"lose_natural{t}" for t in rules.naturals) if rules.banker_bonus else ()
    out = {o: Fraction(0) for o in names}
    shoe = list(counts)
    ev = [Fraction(0)]

    def draws(prob: Fraction, then) -> None:
        """Every next card, with its probability."""
        n = sum(shoe)
        for v in range(10):
            if shoe[v]:
                p = prob * Fraction(shoe[v], n)
                shoe[v] -= 1
                then(v, p)
                shoe[v] += 1

    def play(hand: list[int], up: list[int], rej: int, prob: Fraction, choose, done) -> None:
        """One hand's draws: ``choose(kind, up, rej)`` is the probability of drawing / rejecting."""
        total, _ = _score(rules, hand, up)
        if total < 0:
            done(up, rej, prob)
            return
        d = choose("d", up, rej) if len(up) + rej < rules.draws else Fraction(0)
        if d < 1:
            done(up, rej, prob * (1 - d))
        if d > 0:
            def after(v: int, p: Fraction) -> None:
                if v == 0 and rules.reject_tens:
                    q = choose("p", up, rej)
                    if q < 1:
                        play(hand, up + [0], rej, p * (1 - q), choose, done)
                    if q > 0:
                        play(hand, up, rej + 1, p * q, choose, done)
                else:
                    play(hand, up + [v], rej, p, choose, done)
            draws(prob * d, after)

    def deal(cards: list[int], k: int, prob: Fraction, then) -> None:
        if k == 0:
            then(cards, prob)
            return
        draws(prob, lambda v, p: deal(cards + [v], k - 1, p, then))

    def with_punter(H: list[int], pprob: Fraction) -> None:
        Hs = tuple(sorted(H))

        def with_banker(B: list[int], bprob: Fraction) -> None:
            Bs = tuple(sorted(B))

            def punter_done(up: list[int], rej: int, prob: Fraction) -> None:
                ps = _score(rules, H, up)
                if ps[0] < 0:
                    out["lose"] += prob
                    ev[0] -= prob
                    return
                Ap = tuple(sorted(up))

                def banker_done(bup: list[int], brej: int, p2: Fraction) -> None:
                    name, pay = _result(rules, ps, _score(rules, B, bup))
                    out[name] += p2
                    ev[0] += pay * p2

                play(B, [], 0, prob,
                     lambda kind, bu, br: banker((Bs, Ap, rej, kind, tuple(sorted(bu)), br)), banker_done)

            play(H, [], 0, bprob, lambda kind, u, r: punter((Hs, kind, tuple(sorted(u)), r)), punter_done)

        deal([], rules.initial, pprob, with_banker)

    deal([], rules.initial, Fraction(1), with_punter)
    res = dict(out)
    res["ev"] = ev[0]
    return res
