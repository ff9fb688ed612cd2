"""Every event of every Nash form, exactly: no equilibrium branch is born and dies unseen
(Ethier and Lee 2015, section 5, followed past the paper's single equilibrium)."""

from fractions import Fraction as F

import pytest

from baccara.games.banque.nash import nash_equilibria
from baccara.games.banque.nash_proof import nash_proof
from baccara.games.banque.nash_sweep import nash_branches
from baccara.solve.roots import arb_of, rational_between_balls

LO, HI = F(9, 100), F(95, 1000)


@pytest.fixture(scope="module")
def around_37_400():
    proof = nash_proof(LO, HI)
    return proof, None, nash_branches(LO, HI, events=proof.events)


@pytest.mark.slow
def test_the_fold_at_37_400_is_found(around_37_400):
    # The sampled sweep over (0, 5772/33847) saw one equilibrium on the interval holding
    # 37/400; the complete enumeration finds three there.  With the proof's events among the ends,
    # the sweep's count equals the enumeration's at 37/400 and inside every piece.
    proof, _, (_, new) = around_37_400
    t = F(37, 400)

    def count(pieces, x):
        return next(len(p.branches) for p in pieces if p.lo.ball < arb_of(x) < p.hi.ball)

    assert count(new, t) == len(nash_equilibria(t).player_strategies) == 3
    for p in new:
        x = rational_between_balls(p.lo.ball, p.hi.ball)
        assert len(p.branches) == len(nash_equilibria(x).player_strategies)
    multi = [(p.lo.text(7), p.hi.text(7)) for p in new if len(p.branches) > 1]
    assert multi == [("0.0924720", "0.0939539"), ("0.0939539", "0.0941281")]
    # each end of the region is an event of the proof, a root of an integer polynomial
    assert all(any(e.same(q) for q in proof.events) for p in new[1:] for e in (p.lo,))
