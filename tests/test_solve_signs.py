"""The one sign function, exact and compiled, and the one Player rule of chemin de fer and banque."""

from fractions import Fraction

import flint
from hypothesis import given
from hypothesis import strategies as st

from baccara.rules import PUNTO_BANCO, player_draws, player_draws_jit
from baccara.solve.signs import sgn, sign


@given(st.integers(-10**6, 10**6))
def test_compiled_sign_is_the_exact_sign(x):
    assert sgn(x) == sign(x) == (1 if x > 0 else -1 if x < 0 else 0)


@given(st.fractions())
def test_sign_of_exact_numbers(q):
    assert sign(q) == sign(q.numerator) == sign(flint.fmpq(q.numerator, q.denominator))
    assert sign(-q) == -sign(q)


def test_player_rule_draws_on_0_to_4_stands_on_6_7_chooses_at_5():
    for at_5 in (0, 1):
        rule = [player_draws(t, at_5) for t in range(10)]
        assert rule == [player_draws_jit(t, at_5) for t in range(10)]
        assert rule[:5] == [True] * 5 and rule[6:] == [False] * 4 and rule[5] == bool(at_5)
    # punto banco's tableau is the rule with Player drawing at 5
    assert tuple(player_draws(t, 1) for t in range(8)) == PUNTO_BANCO.player_draws
    assert Fraction(sign(Fraction(-1, 3))) == -1
