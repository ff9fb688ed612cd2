"""The simulator with bets on the cards themselves (``player_card3_value``, ``colour``, ``same_pair``).

Each coup the simulator deals, the card engine's compiled rules read its actual cards.  Checked here:
every coup of recorded shoes re-dealt and paid by hand in Python (an oracle independent of the kernel);
the simulated means against the exact card-level engine within a few standard errors; a card bet
driven by a count equal, coup for coup, to the same bet written on the cells; count design; threads;
and the clear errors (the perfect counter).
"""

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from baccara import Shoe
from baccara.cards import RANK_VALUE
from baccara.errors import BaccaraError
from baccara.punto.bets import Bet, Rule, builtin_bets, load_bets_toml
from baccara.punto.exact import card_results, evaluate
from baccara.rules import PUNTO_BANCO
from baccara.sim.count_design import count_histogram
from baccara.sim.counting import BetRule, CountSystem
from baccara.sim.punto import PuntoJob, bet_table, simulate_punto
from baccara.sim.shoe_deal import CUT, deck_template, record_shoe

GALLERY = Path(__file__).resolve().parents[1] / "examples" / "gallery.toml"
RED = {1, 2}  # hearts, diamonds (suits S H D C)

# Bets reading values, ranks, suits and colours of the cards, third cards included.
G8 = Bet("g8", (Rule.make(200, banker_two_card_total=3, player_card3_value=8),
                Rule.make(5, player_card3_rank="none", banker_card3_suit="diamonds")))
REDS = Bet("reds", (Rule.make(9, colour="red"), Rule.make(2, player_colour="black")))
PAIRS = Bet("pairs", (Rule.make(70, identical_pairs=True), Rule.make(30, same_pair=True),
                      Rule.make(4, player_suited=True, banker_card1_rank=["J", "Q", "K"])))


def _total(h):
    return sum(RANK_VALUE[c >> 2] for c in h) % 10


def _by_hand(name: str, p: list[int], b: list[int]) -> int:
    """The bet's net payout for Player's and Banker's cards (codes 4 rank + suit), written out by hand."""
    if name == "g8":
        if _total(b[:2]) == 3 and len(p) == 3 and RANK_VALUE[p[2] >> 2] == 8:
            return 200
        return 5 if len(p) == 2 and len(b) == 3 and b[2] & 3 == 2 else -1
    if name == "reds":
        if all(c & 3 in RED for c in p + b):
            return 9
        return 2 if all(c & 3 not in RED for c in p) else -1
    if p[0] == p[1] == b[0] == b[1]:
        return 70
    if p[0] >> 2 == p[1] >> 2 == b[0] >> 2 == b[1] >> 2:
        return 30
    return 4 if p[0] & 3 == p[1] & 3 and b[0] >> 2 >= 10 else -1


def _hands(deck, pos):
    """Deal the coup at ``pos`` by the punto banco tableau: Player's and Banker's cards."""
    c = [int(x) for x in deck[pos:pos + 6]]
    p, b = [c[0], c[2]], [c[1], c[3]]
    pt, bt, nxt = _total(p), _total(b), 4
    if pt < 8 and bt < 8:
        third = 10
        if PUNTO_BANCO.player_array[pt]:
            p.append(c[nxt])
            third = RANK_VALUE[c[nxt] >> 2]
            nxt += 1
        if PUNTO_BANCO.banker_array[bt, third]:
            b.append(c[nxt])
    return p, b


def test_every_coup_paid_as_by_hand():
    # Ten real 1-deck shoes: the kernel's per-shoe net of each bet equals the coups re-dealt and paid in Python.
    bets = (builtin_bets()["banker"], G8, REDS, PAIRS)
    job = PuntoJob(seed=7, shoes=10, decks=1, bets=bets, keep_rows=True)
    res = simulate_punto(job, workers=1)
    template = deck_template(1)
    cap = 20
    starts, cells, winners = (np.zeros(cap, dtype=np.int64) for _ in range(3))
    hits = 0
    for i in range(10):
        coups, _, _, deck = record_shoe(7, i, template, job.cut, CUT, True, 0, PUNTO_BANCO.player_array,
                                        PUNTO_BANCO.banker_array, starts, cells, winners)
        for bet in bets[1:]:
            net = [_by_hand(bet.name, *_hands(deck, starts[j])) for j in range(coups)]
            assert res.rows[f"{bet.name}_net"][i] == sum(net), (bet.name, i)
            assert res.rows[f"{bet.name}_wins"][i] == sum(x > 0 for x in net)
            assert res.rows[f"{bet.name}_placed"][i] == coups
            hits += sum(x > 0 for x in net)
    assert hits >= 10  # the bets' wins were exercised, not only their losses


def test_simulated_card_bets_agree_with_the_exact_engine():
    # A continuous shuffler deals every coup from the full shoe, so the exact values hold exactly in expectation.
    g = load_bets_toml(GALLERY)
    same = Bet("same", (Rule.make(30, same_pair=True), Rule.make(2, player_card1_rank=["J", "Q", "K"],
                                                                 banker_card3_value=[1, 2, 3])))
    bets = (g["three_giving_eight"], same)
    job = PuntoJob(seed=11, shoes=100, decks=2, deal="csm", coups=200, bets=bets)
    res = simulate_punto(job, workers=1)
    exact = card_results(Shoe.decks(2), bets, PUNTO_BANCO)
    for b in bets:
        st = res.bets[b.name]
        assert st.placed == 20_000
        assert abs(st.ev_per_bet.z(exact[b.name].ev)) < 4, b.name
        assert abs(st.hit.z(exact[b.name].p_win)) < 4, b.name
        assert res.exact["_bets"][b.name] == exact[b.name].ev


def test_card_bets_deal_the_same_coups():
    # Adding a bet on the cards does not change the coups a seed deals (continuous shuffler and infinite shoe too).
    b = builtin_bets()
    for kw in ({"deal": "csm", "coups": 30, "decks": 1}, {"decks": None, "coups": 30}, {"decks": 1}):
        plain = simulate_punto(PuntoJob(seed=3, shoes=20, bets=(b["banker"], b["player_pair"]), **kw), workers=1)
        more = simulate_punto(PuntoJob(seed=3, shoes=20, bets=(b["banker"], b["player_pair"], REDS), **kw), workers=1)
        assert plain.outcomes == more.outcomes, kw
        for n in ("banker", "player_pair"):
            assert plain.bets[n].net == more.bets[n].net, (kw, n)


def test_a_count_drives_a_card_bet_as_it_drives_the_same_bet_on_cells():
    # The bet "Banker wins" written on the cells, and again with a card condition that always holds: the count
    # places both on the same coups, and they pay alike.
    cells = Bet("banker_cells", (Rule.make(1, winner="banker"),))
    cards = Bet("banker_cards", (Rule.make(1, winner="banker", player_card1_value=list(range(10))),))
    assert cards.card_level and not cells.card_level
    tags = tuple(float(t) for t in (0, 0, 0, 1, 1, 1, 0, -1, -1, 0, 0, 0, 0))
    count = CountSystem("test", tags, (BetRule("banker_cells", "true", 1.0), BetRule("banker_cards", "true", 1.0)))
    res = simulate_punto(PuntoJob(seed=5, shoes=300, decks=2, bets=(cells, cards), count=count), workers=1)
    a, c = res.bets["banker_cells"], res.bets["banker_cards"]
    assert 0 < c.placed < res.hands
    assert (a.placed, a.net, a.wins) == (c.placed, c.net, c.wins)


def test_count_design_histogram_of_a_card_bet_sums_to_the_flat_run():
    # count design's pass over real shoes pays a card bet coup by coup: its histogram's total equals a flat run.
    g = load_bets_toml(GALLERY)["three_giving_eight"]
    tags = tuple(float(t) for t in (0, 0, 1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0))
    system = CountSystem("probe", tags, (BetRule(g.name, "true", 0.0),))
    _, hn, hv, den = count_histogram(system, g, 2, 14, 200, 9)
    flat = simulate_punto(PuntoJob(seed=9, shoes=200, decks=2, cut=14, bets=(g,)), workers=1)
    assert hn.sum() == flat.hands
    assert Fraction(int(hv.sum()), den) == flat.bets[g.name].net


def test_threads_agree():
    bets = (builtin_bets()["tie"], G8, REDS)
    one = simulate_punto(PuntoJob(seed=2, shoes=64, decks=2, bets=bets, chunk_size=16), workers=1)
    two = simulate_punto(PuntoJob(seed=2, shoes=64, decks=2, bets=bets, chunk_size=16), workers=2)
    assert one.outcomes == two.outcomes
    for n in one.bets:
        assert (one.bets[n].placed, one.bets[n].net, one.bets[n].wins) == \
            (two.bets[n].placed, two.bets[n].net, two.bets[n].wins)


def test_perfect_counter_refuses_card_bets_clearly():
    with pytest.raises(BaccaraError, match="perfect.*g8.*card-level engine"):
        PuntoJob(seed=1, shoes=1, bets=(G8,), perfect=True)
    # the cell table of a card bet is zeros; its denominator still counts its payouts
    pay, dens = bet_table((Bet("h", (Rule.make(Fraction(7, 2), colour="red"),)),))
    assert not pay.any() and dens == (2,)


def test_exact_values_beside_the_simulation():
    # Bets on values or ranks are priced beside the run; colours and suits (seconds to minutes) are named instead.
    b = builtin_bets()
    g = Bet("g", (Rule.make(200, banker_two_card_total=3, player_card3_value=8),))
    res = simulate_punto(PuntoJob(seed=1, shoes=5, bets=(b["banker"], g, REDS)), workers=1)
    assert res.exact["_bets"]["banker"] == evaluate(Shoe.decks(8), [b["banker"]])["banker"].ev
    assert res.exact["_bets"]["g"] == evaluate(Shoe.decks(8), [g])["g"].ev and "reds" not in res.exact["_bets"]
    assert "colours" in res.document()["exact"]["not_priced"]["reds"]


def test_command_line_simulates_counts_and_refuses_the_perfect_counter():
    import json

    from typer.testing import CliRunner

    from baccara.cli import app

    runner = CliRunner()
    base = ["simulate", "punto", "--bets-file", str(GALLERY), "--shoes", "4", "--seed", "3", "--workers", "1",
            "--no-progress"]
    r = runner.invoke(app, [*base, "--bets", "three_giving_eight,banker", "--json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["bets"]["three_giving_eight"]["placed"] == doc["hands"]
    r = runner.invoke(app, [*base, "--bets", "three_giving_eight", "--perfect"])
    assert r.exit_code == 2 and "card-level engine" in r.output and "Traceback" not in r.output


def test_count_analysis_of_a_card_bet():
    # 'baccara count' on a bet on the cards: the count is simulated; the perfect counter is left out by default,
    # and asked for, refused clearly.
    from baccara.sim.count_analysis import analyse_count

    g = load_bets_toml(GALLERY)["three_giving_eight"]
    tags = tuple(float(t) for t in (1, 1, -3, 1, 1, 1, 1, -8, 1, 1, 1, 1, 1))
    count = CountSystem("g", tags, (BetRule(g.name, "true", 0.0),))
    rep = analyse_count(count, g, decks=2, shoes=200, seed=4, cut=14, workers=1)
    assert rep.perfect is None and 0 < rep.count.placed < rep.count.hands
    flat = simulate_punto(PuntoJob(seed=4, shoes=200, decks=2, cut=14, bets=(g,), count=count), workers=1)
    assert rep.count.placed == flat.bets[g.name].placed
    with pytest.raises(BaccaraError, match="perfect"):
        analyse_count(count, g, decks=2, shoes=20, seed=4, cut=14, perfect_shoes=5, workers=1)
