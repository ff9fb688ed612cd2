"""The independent cooperative equilibrium over theta (seed 004, section 4, Figures 2-3)."""

from fractions import Fraction

import pytest

from baccara.games.banque_independent import independent_equilibrium
from baccara.games.banque_independent_sweep import (coincidence_near, float_independent, independent_sweep,
                                                    lower_value_peak)

NINE_ELEVENTHS = 9 / 11


@pytest.mark.parametrize("theta", [Fraction(1, 2), Fraction(1, 10), Fraction(1, 20), Fraction(9, 20)])
def test_float_search_agrees_with_the_exact_solver(theta):
    f, e = float_independent(float(theta)), independent_equilibrium(theta)
    assert abs(f.p1 - float(e.p1)) < 1e-9 and abs(f.p2 - float(e.p2)) < 1e-9
    assert abs(f.lower - float(e.lower_value)) < 1e-14


def _break(lo, hi):
    sw = independent_sweep(lo, hi, grid=8)
    assert len(sw.raw_breaks) >= 1
    return sw


@pytest.mark.parametrize("lo,hi,which,printed", [
    # Figure 2's caption: p1 = 9/11 for 0.241681 < theta < 0.432877 and
    # p2 = 9/11 for 0.161238 < theta < 0.495084, approximately.
    (0.2410, 0.2425, 1, 0.241681), (0.4320, 0.4335, 1, 0.432877),
    (0.1605, 0.1620, 2, 0.161238), (0.4945, 0.4955, 2, 0.495084),
])
def test_where_the_players_play_nine_elevenths(lo, hi, which, printed):
    sw = _break(lo, hi)
    ends = [lo] + [(a + b) / 2 for a, b in sw.raw_breaks] + [hi]
    nine = [abs(getattr(float_independent((a + b) / 2), f"p{which}") - NINE_ELEVENTHS) < 1e-12
            for a, b in zip(ends, ends[1:])]        # is p = 9/11 on each piece (at its midpoint)?
    edges = [ends[k + 1] for k in range(len(nine) - 1) if nine[k] != nine[k + 1]]
    assert len(edges) == 1 and round(edges[0], 6) == printed


def test_first_interval_ends_at_theta_star_star():
    # Seed 004: the first interval is (theta_**, 1/2] with theta_** ~ 0.496212.
    sw = independent_sweep(0.4955, 0.5, grid=10)
    assert round(sw.intervals[-1].lo, 6) == 0.496212


def test_lower_value_peak():
    # "The game's lower value ... is maximized at about 0.496000.  The maximum value is
    # about -0.008679984."
    t, v = lower_value_peak()
    assert round(t, 6) == 0.496000 and round(v, 9) == -0.008679984


@pytest.mark.parametrize("lo,hi,printed", [(0.1660, 0.1675, 0.166815), (0.2150, 0.2163, 0.215651)])
def test_isolated_coincidences_of_the_cooperative_equilibria(lo, hi, printed):
    # "With two exceptions, these are the only theta values at which the two equilibria
    # coincide.  The exceptions are theta_79 ~ 0.166815 and theta_88 ~ 0.215651."
    t, diff = coincidence_near(lo, hi)
    assert round(t, 6) == printed and abs(diff) < 1e-14
