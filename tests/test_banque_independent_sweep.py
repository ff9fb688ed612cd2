"""The independent cooperative equilibrium over theta (Ethier and Lee 2015, section 4, Figures 2-3)."""

import json
from fractions import Fraction

import pytest

from baccara.banque.independent_eq.solution import independent_equilibrium
from baccara.banque.independent_eq.sweep import (
    coincidence_near,
    exact_ends,
    float_independent,
    independent_sweep,
    lower_value_peak,
    sweep_json,
)
from baccara.banque.model import banque_game

NINE_ELEVENTHS = 9 / 11


@pytest.mark.parametrize("theta", [Fraction(1, 2), Fraction(1, 10), Fraction(1, 20), Fraction(9, 20)])
def test_float_search_agrees_with_the_exact_solver(theta):
    f, e = float_independent(float(theta)), independent_equilibrium(banque_game(), theta)
    assert abs(f.p1 - float(e.p1)) < 1e-9 and abs(f.p2 - float(e.p2)) < 1e-9
    assert abs(f.lower - float(e.lower_value)) < 1e-14


@pytest.fixture(scope="module")
def sweep():
    return independent_sweep()


@pytest.mark.slow
@pytest.mark.parametrize("which,block", [(1, (0.241681, 0.432877)), (2, (0.161238, 0.495084))])
def test_where_the_players_play_nine_elevenths(sweep, which, block):
    # Figure 2's caption: p1 = 9/11 for 0.241681 < theta < 0.432877 and
    # p2 = 9/11 for 0.161238 < theta < 0.495084, approximately.
    nine = [iv for iv in sweep.intervals if abs(getattr(iv, f"p{which}") - NINE_ELEVENTHS) < 1e-12]
    runs, cur = [], None
    for iv in sweep.intervals:
        if iv in nine:
            cur = [iv.lo, iv.hi] if cur is None or abs(cur[1] - iv.lo) > 1e-12 else [cur[0], iv.hi]
            if not runs or runs[-1][0] != cur[0]:
                runs.append(cur)
            else:
                runs[-1] = cur
        else:
            cur = None
    longest = max(runs, key=lambda r: r[1] - r[0])
    assert (round(longest[0], 6), round(longest[1], 6)) == block


def test_lower_value_peak():
    # "The game's lower value ... is maximized at about 0.496000.  The maximum value is
    # about -0.008679984."
    t, v = lower_value_peak()
    assert round(t, 6) == 0.496000 and round(v, 9) == -0.008679984


@pytest.mark.slow
@pytest.mark.parametrize("lo,hi,printed", [(0.1660, 0.1675, 0.166815), (0.2150, 0.2163, 0.215651)])
def test_isolated_coincidences_of_the_cooperative_equilibria(lo, hi, printed):
    # "With two exceptions, these are the only theta values at which the two equilibria
    # coincide.  The exceptions are theta_79 ~ 0.166815 and theta_88 ~ 0.215651."
    t, diff = coincidence_near(lo, hi)
    assert round(t, 6) == printed and abs(diff) < 1e-14


@pytest.mark.slow
def test_the_whole_sweep_131_intervals(sweep):
    # Ethier and Lee (2015), section 4: "there are 131 such intervals in (0, 1/2]"; "In exactly nine of
    # these intervals, the maximum occurs along a single indifference curve"; "p1 has 13
    # discontinuities on (0, 1/2], whereas p2 has 11"; the first interval is (theta_**, 1/2].
    sw = sweep
    assert len(sw.intervals) == 131
    assert sum(1 for iv in sw.intervals if len(iv.signature[0]) == 1 and not iv.signature[2]) == 9
    assert len(sw.discontinuities(1)) == 13 and len(sw.discontinuities(2)) == 11
    assert round(sw.intervals[-1].lo, 6) == 0.496212


@pytest.fixture(scope="module")
def ends(sweep):
    return exact_ends(sweep)


@pytest.mark.slow
def test_every_interval_end_is_exact(sweep, ends):
    # Ethier and Lee (2015), section 4: "Each theta_i is a root of a polynomial of degree 13 or less."
    # Every end between the 131 intervals is identified as a root of an integer
    # polynomial at which some condition's exact sign changes, near the bisection's
    # bracket (which the float signature's tolerance can miss by a few 1e-8); the
    # largest degree is 13, as in the paper.
    assert len(ends) == len(sweep.intervals) - 1 == 130
    assert all(e.endpoint is not None for e in ends)
    degrees = [1 if e.endpoint.as_rational is not None else e.endpoint.minimal_polynomial.degree() for e in ends]
    assert max(degrees) == 13
    assert all(float(a.endpoint) < float(b.endpoint) for a, b in zip(ends, ends[1:]))
    # each exact end separates its two intervals: 2e-7 to either side the maximiser has
    # the left and the right interval's form (intervals wider than 1e-6)
    for k, e in enumerate(ends):
        left, right = sweep.intervals[k], sweep.intervals[k + 1]
        x = float(e.endpoint)
        if left.hi - left.lo > 1e-6:
            assert float_independent(x - 2e-7).signature == left.signature
        if right.hi - right.lo > 1e-6:
            assert float_independent(x + 2e-7).signature == right.signature
    # the cooperative equilibria coincide on (9588/37663, 55716/128711) (Ethier and Lee 2015, section 1)
    assert {"9588/37663", "55716/128711"} <= {e.endpoint.exact() for e in ends}


@pytest.mark.slow
def test_sweep_json_with_exact_ends(sweep, ends):
    doc = sweep_json(sweep, ends)
    first, last = doc["intervals"][0], doc["intervals"][-1]
    assert first["from"] == 0.0 and last["to"] == 0.5
    assert first["to"]["polynomial"] and first["to"]["identified_by"]
    assert doc["endpoints"].startswith("exact algebraic numbers (130 of 130")


@pytest.mark.slow
def test_the_sweep_as_a_result(sweep, ends):
    from rich.console import Console

    from baccara.banque.sweeps import IndependentSweep

    res = IndependentSweep(sweep, ends, (0.49, -0.01))
    doc = json.loads(json.dumps(res.to_json()))   # what a reader of --json gets back
    assert doc["count"] == len(doc["intervals"]) == len(sweep.intervals)
    for k, (row, iv) in enumerate(zip(doc["intervals"], sweep.intervals)):
        assert (row["p1"], row["p2"], row["lower_value"]) == (iv.p1, iv.p2, iv.lower)
        if k < len(ends) and ends[k].endpoint is not None:   # the end identified exactly, at its bracket
            lo, hi = ends[k].bracket
            assert lo - 1e-6 <= row["to"]["float"] <= hi + 1e-6  # the float bracket is approximate and row["to"]["exact"].startswith(("root of", "-", *"0123456789"))
    assert doc["lower_value_peak"] == {"theta": 0.49, "value": -0.01}
    con = Console(record=True, width=200)
    res.show(con)
    rows = [line for line in con.export_text().splitlines() if line.startswith("│")]
    assert len(rows) == doc["count"]  # one row per interval
