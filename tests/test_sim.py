"""Simulation: real shoes (burn, cut card), agreement with the exact engine, counting, the perfect
counter, chemin de fer and banque sessions, determinism across threads / processes / Dask, the CLI."""

from __future__ import annotations

import itertools
import json
import os
import re
import signal
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from baccara import Shoe, builtin_bets, load_bets_toml
from baccara.cli.simulate import simulate_app
from baccara.errors import BaccaraError
from baccara.punto.events import NCELLS
from baccara.punto.exact import coup_counts, evaluate
from baccara.rules import PUNTO_BANCO
from baccara.sim import (
    BanqueJob,
    CheminJob,
    CountError,
    PuntoJob,
    banque_equilibrium_strategy,
    count_from_mapping,
    equilibrium_strategy,
    exact_chemin,
    load_count_toml,
    load_strategy_toml,
    simulate_banque,
    simulate_chemin,
    simulate_punto,
    tableau_strategy,
)
from baccara.sim._punto_kernel import MAX_CLASSES, fold_classes
from baccara.sim.chemin import strategy_from_mapping
from baccara.sim.punto import bet_table, finalize
from baccara.sim.shoe_deal import BURN, CSM, CUT, WINNER, deal_shoe, deck_template, record_shoe

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
BETS = builtin_bets()
Z_MAX = 4.5  # |simulated - exact| / stderr; fixed seeds, so never flaky
PB = (PUNTO_BANCO.player_array, PUNTO_BANCO.banker_array)


def bets(*names):
    return tuple(BETS[n] for n in names)


def stable(doc: dict) -> dict:
    """A result document without how it ran (timings, backend)."""
    return {k: v for k, v in doc.items() if k not in ("run", "perfect")}


# ---------------------------------------------------------------- the shoe
def stacked(codes: list[int], decks_of_filler: int = 1) -> np.ndarray:
    """A deck dealt in exactly this order (card codes 4 * rank + suit), then filler cards."""
    filler = [4 * 9] * (52 * decks_of_filler)  # tens: value 0
    return np.array(codes + filler, dtype=np.uint8)


def record(template: np.ndarray, cut: int, shuffle: bool = False, seed: int = 0, index: int = 0):
    cap = template.size // 4 + 2
    starts, cells, winners = (np.zeros(cap, dtype=np.int64) for _ in range(3))
    coups, burned, end, deck = record_shoe(seed, index, template, cut, CUT, shuffle, 0, *PB, starts, cells, winners)
    return coups, burned, end, deck, starts[:coups], cells[:coups]


@pytest.mark.parametrize("rank, burned", [(0, 2), (4, 6), (8, 10), (9, 11), (12, 11)])
def test_burn_card_shown_then_that_many_burned(rank, burned):
    """Wikipedia (2019): the first card is shown and that many burned, aces 1, tens and faces 10."""
    _, b, _, _, starts, _ = record(stacked([4 * rank]), cut=14)
    assert b == burned == 1 + BURN[4 * rank]
    assert starts[0] == burned


def test_cut_card_one_more_coup_after_the_one_in_which_it_appears():
    template = stacked([4 * 4])  # a 5 is shown: 6 cards burned, then tens (naturals impossible: 0 + 0 draws)
    n = template.size
    for cut in (11, 12, 14, 17):
        coups, burned, end, _, starts, _ = record(template, cut)
        assert list(starts) == list(range(6, end, 6))  # every coup takes six tens
        # the cut card comes out with position n - cut: during (or just before) the coup before the last
        assert starts[-2] < n - cut <= starts[-1] and end <= n
        assert coups == 1 + next(j for j, s in enumerate(range(6, n, 6)) if s >= n - cut)


def test_cut_card_rule_on_shuffled_shoes_brute_force():
    """On real shuffles, the coups dealt are 1 + the index of the first coup that starts at or past
    the cut card, with the coups replayed by hand from the dealt cards (the tableau in plain Python)."""
    t = deck_template(1)
    n = t.size
    for cut in (11, 13, 20, 41):
        for index in range(40):
            coups, burned, end, deck, starts, cells = record(t, cut, shuffle=True, seed=7, index=index)
            pos, j, replay = burned, 0, []
            while j == 0 or replay[-1] < n - cut:  # deal while no coup has started past the cut card
                replay.append(pos)
                pos += 4 + _third_cards([int(c) for c in deck[pos:pos + 6]])
                j += 1
            assert list(starts) == replay and end == pos <= n
            assert coups == 1 + min(k for k, s in enumerate(replay) if s >= n - cut)


def _third_cards(six: list[int]) -> int:
    """Third cards of a coup dealt P, B, P, B, P3, B3 from these card codes (punto banco tableau)."""
    v = [min(c // 4 + 1, 10) % 10 for c in six]
    pt, bt = (v[0] + v[2]) % 10, (v[1] + v[3]) % 10
    if pt >= 8 or bt >= 8:
        return 0
    if pt >= 6:
        return int(bt <= 5)
    third = v[4]
    draws = bt <= 2 or (bt == 3 and third != 8) or (bt == 4 and 2 <= third <= 7) or \
        (bt == 5 and 4 <= third <= 7) or (bt == 6 and third in (6, 7))
    return 1 + int(draws)


def test_least_cut_is_the_worst_case_exactly():
    """cut = 11 = 2 x 6 - 1: the coup before the last may start one card before the cut card and take
    six cards, then the last coup six more, ending on the shoe's last card; 10 is refused."""
    template = np.array([4 * 4] + [4 * 9] * 53, dtype=np.uint8)  # 54 cards: coups of six from 6 to 48
    coups, _, end, _, starts, _ = record(template, 11)
    assert starts[-2] == 54 - 11 - 1 and starts[-1] == 48 and end == 54
    PuntoJob(seed=1, shoes=1, bets=bets("banker"), decks=1, cut=11)
    CheminJob(seed=1, shoes=1, strategy=tableau_strategy(), decks=1, cut=11)
    for cut in (10, 52 - 10):
        with pytest.raises(BaccaraError, match=r"cut \(cards behind the cut card\) must be an integer from 11"):
            PuntoJob(seed=1, shoes=1, bets=bets("banker"), decks=1, cut=cut)


def test_shuffle_is_a_permutation_and_depends_only_on_seed_and_index():
    t = deck_template(8)
    _, _, end, d1, *_ = record(t, 14, shuffle=True, seed=5, index=3)
    _, _, _, d2, *_ = record(t, 14, shuffle=True, seed=5, index=3)
    _, _, _, d3, *_ = record(t, 14, shuffle=True, seed=5, index=4)
    assert np.array_equal(d1, d2) and not np.array_equal(d1[:end], d3[:end])
    assert np.array_equal(np.sort(d1), np.sort(t))


def coup_cells(seqs: np.ndarray) -> np.ndarray:
    """The cell of the coup the simulator's :func:`deal_shoe` deals from the top of each row of ``seqs``
    (card codes, six per row, in deal order)."""
    out = np.empty(seqs.shape[0], dtype=np.int64)
    deck = np.empty(6, dtype=np.uint8)
    starts = np.empty(1, dtype=np.int64)
    cells = np.empty(1, dtype=np.int64)
    for i, row in enumerate(seqs.astype(np.uint8)):
        deal_shoe(deck, row, CSM, False, 0, 1, np.uint64(0), *PB, starts, cells)
        out[i] = cells[0]
    return out


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(0, 51), min_size=7, max_size=8))
def test_coup_kernel_cells_match_the_exact_engine(cards):
    """Classify every ordered deal of six of these cards with the simulator's coup: the cell
    histogram equals the exact engine's ordered-deal counts (suited pairs included)."""
    seqs = np.array([[cards[i] for i in p] for p in itertools.permutations(range(len(cards)), 6)], dtype=np.int64)
    hist = np.bincount(coup_cells(seqs), minlength=3600)
    counts52 = np.bincount(np.array(cards), minlength=52)
    exact = coup_counts(Shoe(tuple(int(c) for c in counts52), "suit")).reshape(-1)
    assert np.array_equal(hist, exact)


# ---------------------------------------------------------------- punto banco vs the exact engine
SIDE = bets("banker", "player", "tie", "dragon7", "panda8", "player_pair", "banker_pair")


def assert_agrees(res, names):
    zs = res.z_scores()
    z = {**zs["outcomes"], **{f"bet:{k}": v for k, v in zs["bets"].items()}}
    assert set(zs["bets"]) == {b.name for b in res.job.bets}  # every bet was flat
    for k in names:
        assert z[k] is not None and abs(z[k]) < Z_MAX, (k, z[k])


@pytest.mark.parametrize("decks, deal, shoes", [(8, "cut", 60000), (1, "csm", 40000), (None, "infinite", 40000)])
def test_punto_frequencies_agree_with_exact_engine(decks, deal, shoes):
    user = load_bets_toml(EXAMPLES / "side_bets.toml")
    job = PuntoJob(seed=20240601, shoes=shoes, decks=decks, deal=deal, bets=SIDE + (user["perfect_pair"],))
    res = simulate_punto(job)
    assert res.hands == sum(res.outcomes.values()) and res.shoes == shoes
    assert_agrees(res, ["banker", "player", "tie"] + [f"bet:{b.name}" for b in job.bets])
    if deal == "cut":
        assert 79 < res.hands / shoes < 83  # 416 cards, ~4.94 a coup, burn and cut card
    shoe = Shoe.decks(decks) if decks else Shoe.infinite()
    assert res.exact["_bets"]["player_pair"] == evaluate(shoe, bets("player_pair"))["player_pair"].ev


# ---------------------------------------------------------------- determinism
def test_same_seed_same_result_on_threads_processes_and_chunkings():
    job = PuntoJob(seed=7, shoes=3000, bets=bets("banker", "tie", "dragon7"), chunk_size=700)
    one = simulate_punto(job, workers=1).to_json()
    two = simulate_punto(job, workers=2).to_json()
    procs = simulate_punto(job, backend="processes", workers=2).to_json()
    other = simulate_punto(PuntoJob(seed=7, shoes=3000, bets=job.bets, chunk_size=1024), workers=2).to_json()
    assert stable(one) == stable(two) == stable(procs) == stable(other)
    # chunk results combine the same in any order
    chunks = [job.run_chunk(i) for i in range(5)]
    from baccara.sim.results import combine

    a, b = combine(chunks), combine(chunks[::-1])
    assert a.sums == b.sums
    assert stable(finalize(job, a).to_json()) == stable(one)
    assert stable(simulate_punto(PuntoJob(seed=8, shoes=3000, bets=job.bets), workers=1).to_json()) != stable(one)


def test_flat_bets_rows_equal_the_recorded_shoes_folded_or_not():
    """Each shoe's row (hands, outcomes, every bet's placed / net / wins) is what the recorded shoe's
    cells pay, whether the kernel tallies a bet by class (folded) or coup by coup."""
    names = ("banker", "player", "tie", "dragon7", "panda8", "player_pair", "banker_pair",
             "dragon_bonus_player", "dragon_bonus_banker")
    job = PuntoJob(seed=9, shoes=60, bets=bets(*names), keep_rows=True)
    pay, _ = bet_table(job.bets)
    _, _, _, fold = fold_classes(pay, np.zeros(len(names), dtype=np.int8))
    assert fold.any() and not fold.all()  # both tallies are exercised
    res = simulate_punto(job, workers=1)
    for s in range(job.shoes):
        starts, cells, winners = (np.zeros(120, dtype=np.int64) for _ in range(3))
        coups, *_ = record_shoe(job.seed, s, job.template(), job.cut, CUT, True, 0, *PB, starts, cells, winners)
        assert res.rows["hands"][s] == coups
        assert [res.rows[k][s] for k in ("banker", "player", "tie")] == list(np.bincount(winners[:coups], minlength=3))
        won = pay[cells[:coups]]
        for b, name in enumerate(names):
            assert res.rows[f"{name}_placed"][s] == coups
            assert res.rows[f"{name}_wins"][s] == (won[:, b] > 0).sum()
            assert res.rows[f"{name}_net"][s] * job.denominators[b] == pytest.approx(won[:, b].sum(), abs=1e-6)


def test_fold_classes_partition_the_cells_by_winner_and_payouts():
    rng = np.random.default_rng(3)
    pay = np.stack([rng.integers(-1, 2, NCELLS), rng.integers(-3, 4, NCELLS), rng.integers(-1, 9, NCELLS)], axis=1)
    # 3 winners x 3 x 7 x 10 payouts: bets 0 and 1 fold (at most 63 classes), bet 2 would make too many
    for when, folded in (([0, 0, 0], [True, True, False]), ([0, 1, 0], [True, False, False])):
        cls, kwin, kpay, fold = fold_classes(pay, np.array(when, dtype=np.int8))
        assert list(fold) == folded and len(kwin) <= MAX_CLASSES
        assert np.array_equal(kwin[cls], WINNER)  # a class has one winner
        assert np.array_equal(kpay[cls][:, fold], pay[:, fold])  # and one payout of each folded bet
        assert not (fold & (np.array(when) != 0)).any()  # a counted bet is never folded


# ---------------------------------------------------------------- counting
def test_count_system_decisions_match_a_plain_python_count():
    system = load_count_toml(EXAMPLES / "counts" / "dragon7.toml")
    job = PuntoJob(seed=3, shoes=40, bets=bets("banker", "dragon7"), count=system, cut=system.cut, keep_rows=True)
    res = simulate_punto(job, workers=1)
    tags = system.tag_array()
    for s in range(job.shoes):
        cap = 120
        starts, cells, winners = (np.zeros(cap, dtype=np.int64) for _ in range(3))
        coups, burned, end, deck = record_shoe(job.seed, s, job.template(), job.cut, CUT, True, 0, *PB,
                                               starts, cells, winners)
        placed = 0
        for j in range(coups):
            seen = [deck[0]] + list(deck[burned:starts[j]])
            rc = sum(tags[c >> 2] for c in seen)
            tc = rc * 52 / (416 - len(seen))
            placed += tc >= 4
        assert res.rows["dragon7_placed"][s] == placed
        assert res.rows["banker_placed"][s] == coups == res.rows["hands"][s]


def test_count_that_always_bets_is_flat_and_one_that_never_bets_places_nothing():
    flat = simulate_punto(PuntoJob(seed=4, shoes=500, bets=bets("tie")), workers=1)
    mk = lambda lo: count_from_mapping({"tags": {"6": -1, "7": -1, "10": 1, "J": 1}, "bets": [{"name": "tie", "at_least": lo}]})
    always = simulate_punto(PuntoJob(seed=4, shoes=500, bets=bets("tie"), count=mk(-1e9)), workers=1)
    never = simulate_punto(PuntoJob(seed=4, shoes=500, bets=bets("tie"), count=mk(1e9)), workers=1)
    assert always.bets["tie"].net == flat.bets["tie"].net and always.bets["tie"].placed == flat.hands
    assert never.bets["tie"].placed == 0 and never.outcomes == flat.outcomes


def test_dragon7_count_beats_the_house():
    system = load_count_toml(EXAMPLES / "counts" / "dragon7.toml")
    res = simulate_punto(PuntoJob(seed=11, shoes=60000, bets=bets("dragon7"), count=system, cut=14))
    d7 = res.bets["dragon7"]
    assert 2 < d7.bets_per_shoe < 15
    assert d7.ev_per_bet.value > 0.03 and d7.ev_per_bet.value > 3 * d7.ev_per_bet.stderr


@pytest.mark.parametrize("spec, message", [
    ({"tags": {"6": 1}, "bets": [{"name": "tie", "at_least": 1}], "colour": 1}, "unknown key(s) colour"),
    ({"bets": [{"name": "tie", "at_least": 1}]}, "needs a [tags] table"),
    ({"tags": {"Z": 1}, "bets": [{"name": "tie", "at_least": 1}]}, "unknown rank"),
    ({"tags": {"6": "x"}, "bets": [{"name": "tie", "at_least": 1}]}, "tag of 6 must be a number from -1e+06 to 1e+06"),
    ({"tags": {"6": 1}}, "at least one [[bets]]"),
    ({"tags": {"6": 1}, "bets": [{"name": "tie"}]}, "give a threshold"),
    ({"tags": {"6": 1}, "bets": [{"name": "tie", "count": "false", "at_least": 1}]}, "running\" or \"true"),
    ({"tags": {"6": 1}, "bets": [{"name": "tie", "at_least": 2, "at_most": 1}]}, "is above at_most"),
    ({"tags": {"6": 1}, "bets": [{"name": "tie", "at_least": 1}], "balanced": True}, "declared balanced = true"),
    ({"tags": {"6": 1}, "bets": [{"name": "tie", "at_least": 1}], "cut": 10}, "cut (cards behind the cut card) must be an integer from 11"),
    ({"tags": {"6": 1}, "bets": [{"name": "tie", "at_least": 1}, {"name": "tie", "at_most": 1}]}, "two betting rules"),
])
def test_count_system_errors_are_clear(spec, message):
    with pytest.raises(CountError) as e:
        count_from_mapping(spec)
    assert message in str(e.value)


def test_count_files_load_and_bad_files_fail_clearly(tmp_path):
    for f in (EXAMPLES / "counts").glob("*.toml"):
        s = load_count_toml(f)
        assert s.rules and len(s.tags) == 13
    assert load_count_toml(EXAMPLES / "counts" / "tie_67.toml").balanced
    assert not load_count_toml(EXAMPLES / "counts" / "panda8.toml").balanced
    with pytest.raises(CountError, match="not found"):
        load_count_toml(tmp_path / "nope.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("tags = [", encoding="utf-8")
    with pytest.raises(CountError, match="not valid TOML"):
        load_count_toml(bad)
    system = load_count_toml(EXAMPLES / "counts" / "tie_67.toml")
    with pytest.raises(BaccaraError, match="not among the bets"):
        PuntoJob(seed=1, shoes=1, bets=bets("banker"), count=system)


# ---------------------------------------------------------------- the perfect counter and Ask Dr. Math's (1996) tie claim
def test_perfect_counter_bets_exactly_when_the_exact_engine_says_so():
    job = PuntoJob(seed=2, shoes=2, bets=bets("tie", "dragon7"), perfect=True, perfect_every=5, keep_rows=True)
    res = simulate_punto(job, workers=1)
    flat = simulate_punto(PuntoJob(seed=2, shoes=2, bets=bets("tie", "dragon7")), workers=1)
    assert res.outcomes == flat.outcomes  # the same shoes are dealt
    full = np.bincount(job.template(), minlength=52)
    evaluations = 0
    for s in range(2):
        starts, cells, winners = (np.zeros(120, dtype=np.int64) for _ in range(3))
        coups, burned, end, deck = record_shoe(job.seed, s, job.template(), job.cut, CUT, True, 0, *PB, starts, cells,
                                               winners)
        expect = 0
        for j in range(0, coups, 5):
            evaluations += 1
            left = full - np.bincount(np.r_[deck[:1], deck[burned:starts[j]]], minlength=52)
            ev = evaluate(Shoe.from_ranks(left.reshape(13, 4).sum(axis=1)), bets("dragon7"))["dragon7"].ev
            expect += (ev > 0) * min(5, coups - j)
        assert res.rows["dragon7_placed"][s] == expect
    assert res.extra["perfect"]["evaluations"] == evaluations


def test_dr_math_tie_claim_sixes_and_sevens():
    """Ask Dr. Math (1996): the tie turns favourable only with about twice the usual sixes and sevens,
    'similar to adding 4 6s and 4 7s to a fresh single deck' - true at 9:1, not at 8:1."""
    rich = Shoe.decks(1).add("6", n=4).add("7", n=4)
    for pays, favourable in ((9, True), (8, False)):
        bet = builtin_bets(tie_pays=pays)["tie"]
        assert (evaluate(rich, [bet])["tie"].ev > 0) == favourable
        assert evaluate(Shoe.decks(1), [bet])["tie"].ev < 0
    half = Shoe.decks(1).add("6", n=2).add("7", n=2)
    assert evaluate(half, [builtin_bets(tie_pays=9)["tie"]])["tie"].ev < 0


# ---------------------------------------------------------------- chemin de fer
@pytest.fixture(scope="module")
def chemin_eq():
    return equilibrium_strategy(6, Fraction(1, 20))


@pytest.mark.parametrize("deal", ["csm", "cut"])
def test_chemin_gains_agree_with_the_exact_game(chemin_eq, deal):
    res = simulate_chemin(CheminJob(seed=99, shoes=40000, strategy=chemin_eq, decks=6, deal=deal))
    for k, z in res.z_scores().items():
        assert abs(z) < Z_MAX, (k, z)
    doc = res.to_json()
    assert set(doc) >= {"seed", "shoes", "hands", "outcomes", "bets", "exact"}
    assert doc["outcomes"]["banker"] + doc["outcomes"]["player"] + doc["outcomes"]["tie"] == doc["hands"]


def test_chemin_exact_values_are_the_solver_and_the_punto_banco_engine(chemin_eq):
    from baccara.chemin.model import chemin_game
    from baccara.chemin.solution import solve_chemin
    from baccara.punto.exact import coup_distribution

    eq = solve_chemin(chemin_game("B2", 6), Fraction(1, 20)).nash.equilibria[0]
    ex = exact_chemin(6, Fraction(1, 20), chemin_eq)
    assert ex.banker == eq.payoff_II and ex.player == eq.payoff_I
    tb = exact_chemin(8, Fraction(0), tableau_strategy())
    assert (tb.p_banker, tb.p_player, tb.p_tie) == tuple(coup_distribution(Shoe.decks(8)).outcomes().values())


def test_chemin_money_is_conserved_and_banks_pass_on_losses(chemin_eq):
    for withdraw in (0, 2):
        job = CheminJob(seed=5, shoes=300, strategy=chemin_eq, seats=5, stake=10.0, withdraw_after=withdraw,
                        keep_rows=True)
        res = simulate_chemin(job, workers=1)
        r = res.total.rows
        money = sum(r[f"seat{k}_net"] for k in range(5)) + r["house_take"]
        assert np.allclose(money, 0, atol=1e-6)
        if withdraw == 0:
            assert np.array_equal(r["banks"], r["player"] + r["censored"])
        else:
            assert np.all(r["banks"] >= r["player"] + r["censored"])
            assert res.to_json()["banks"]["longest_run"] <= 2
        assert np.all(r["max_bank"] >= 10.0)


def test_chemin_strategy_toml(tmp_path, chemin_eq):
    f = tmp_path / "s.toml"
    f.write_text('name = "mine"\n[player]\ndraw_at_5 = "1/2"\n[banker]\ntotals = ["DDDDDDDDDDD", "DDDDDDDDDDD", '
                 '"DDDDDDDDDDD", "DDDDDDDDSDD", "SSDDDDDDSSD", "SSSSDDDDSSD", "SSSSSSDDSSS", "SSSSSSSSSSS"]\n'
                 '[banker.mixed]\n"(0,6)|none" = 0.25\n"5|4" = "D"\n', encoding="utf-8")
    s = load_strategy_toml(f)
    assert s.draw_at_5 == Fraction(1, 2) and s.mixed() == {"(0,6)|none": "1/4"}
    assert s.banker != tableau_strategy().banker
    for bad, msg in (({"player": {"draw_at_5": 2}}, "probability in [0, 1]"),
                     ({"banker": {"mixed": {"(9,9)|3": 1}}}, "information set"),
                     ({"banker": {"totals": ["D"]}}, "8 rows"),
                     ({"colour": 1}, "unknown key")):
        with pytest.raises(BaccaraError, match=re.escape(msg)):
            strategy_from_mapping(bad)


# ---------------------------------------------------------------- banque
def test_banque_infinite_shoe_agrees_with_the_simplified_model():
    strategy = banque_equilibrium_strategy(Fraction(1, 2))
    res = simulate_banque(BanqueJob(seed=31, shoes=40000, strategy=strategy, decks=None))
    doc = res.to_json()
    assert abs(doc["z"]["banker"]) < Z_MAX
    b, p1, p2 = (doc["bets"][k]["net"] for k in ("banker", "player1", "player2"))
    assert b == pytest.approx(-(p1 + p2) / 2)
    real = simulate_banque(BanqueJob(seed=31, shoes=2000, strategy=strategy, theta=Fraction(1, 3)), workers=1)
    assert real.to_json()["exact"] is None and real.total.hands > 0
    with pytest.raises(BaccaraError, match=r"^cut \(cards behind the cut card\)") as e:  # the library's name
        BanqueJob(seed=1, shoes=1, strategy=strategy, cut=16)  # 2 x 9 - 1 = 17 at least: three hands a coup
    assert e.value.cli_message.startswith("--cut (cards behind")  # the command line's flag


# ---------------------------------------------------------------- Dask
def _dask_env() -> dict:
    env = dict(os.environ, NUMBA_NUM_THREADS="1", OMP_NUM_THREADS="1", PYTHONWARNINGS="ignore")
    return env


@pytest.mark.slow
def test_dask_loopback_cluster_gives_the_single_process_result():
    from distributed import LocalCluster

    job = PuntoJob(seed=12, shoes=2500, bets=bets("banker", "player_pair"), chunk_size=500)
    local = simulate_punto(job, workers=1).to_json()
    with LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1", dashboard_address=None,
                      processes=True, silence_logs=40) as cluster:
        remote = simulate_punto(job, scheduler=cluster.scheduler_address).to_json()
    assert remote["run"]["backend"] == "dask"
    assert stable(remote) == stable(local)


@pytest.mark.slow
def test_killing_a_dask_worker_mid_run_still_completes_with_the_same_answer():
    from distributed import Client, LocalCluster

    job = PuntoJob(seed=13, shoes=36 * 4000, bets=bets("banker", "tie"), chunk_size=4000)
    expected = stable(simulate_punto(job).to_json())
    with LocalCluster(n_workers=0, host="127.0.0.1", dashboard_address=None, silence_logs=40) as cluster:
        addr = cluster.scheduler_address
        procs = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", addr, "--nthreads", "1",
                                   "--no-nanny", "--no-dashboard", "--name", f"w{i}"],
                                  env=_dask_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                 for i in range(3)]
        try:
            with Client(addr) as c:
                c.wait_for_workers(3, timeout=60)
            killed = {}

            def progress(done, total, hands):
                if not killed and done >= 3 * job.chunk_size:
                    procs[0].send_signal(signal.SIGKILL)
                    killed["at"] = done

            got = simulate_punto(job, scheduler=addr, progress=progress)
            assert killed and killed["at"] < job.shoes  # killed mid-run
            assert procs[0].wait(timeout=10) == -signal.SIGKILL
            assert stable(got.to_json()) == expected
        finally:
            for p in procs:
                if p.poll() is None:
                    p.kill()
                    p.wait(timeout=10)


# ---------------------------------------------------------------- the command line
runner = CliRunner()


def cli(*args):
    return runner.invoke(simulate_app, list(args))


def test_cli_punto_json_contract_and_parquet(tmp_path):
    out = tmp_path / "shoes.parquet"
    r = cli("punto", "--decks", "8", "--shoes", "300", "--bets", "banker,dragon7", "--seed", "5", "--json",
            "--out", str(out), "--workers", "1")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert set(doc) >= {"seed", "shoes", "hands", "outcomes", "bets", "exact"}
    assert doc["seed"] == 5 and doc["shoes"] == 300 and isinstance(doc["hands"], int)
    assert set(doc["outcomes"]) == {"banker", "player", "tie"} and all(isinstance(v, int) for v in doc["outcomes"].values())
    for name in ("banker", "dragon7"):
        b = doc["bets"][name]
        assert isinstance(b["placed"], int) and {"net", "ev_per_bet", "stderr"} <= set(b)
    assert doc["exact"]["bets"]["dragon7"]["ev_exact"] == str(evaluate(Shoe.decks(8), bets("dragon7"))["dragon7"].ev)
    import pyarrow.parquet as pq

    table = pq.read_table(out)   # one row a shoe, whose sums are the document's totals
    assert table.num_rows == 300
    assert sum(table.column("hands").to_pylist()) == doc["hands"]
    assert sum(table.column("dragon7_net").to_pylist()) == pytest.approx(doc["bets"]["dragon7"]["net"])


def test_cli_chemin_banque_and_count(tmp_path):
    r = cli("chemin", "--shoes", "200", "--seed", "1", "--json", "--workers", "1")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    o, b = doc["outcomes"], doc["bets"]
    assert (doc["seed"], doc["shoes"]) == (1, 200) and sum(o.values()) == doc["hands"]
    # a unit on each side every coup: Player's wins pay 1, Banker's 19/20 (the 5% commission); a tie pushes
    assert b["player"]["placed"] == b["banker"]["placed"] == doc["hands"]
    assert Fraction(b["player"]["net_exact"]) == o["player"] - o["banker"]
    assert Fraction(b["banker"]["net_exact"]) == Fraction(19, 20) * o["banker"] - o["player"]
    assert b["banker"]["ev_per_bet"] == pytest.approx(b["banker"]["net"] / doc["hands"])
    ex = doc["exact"]
    assert Fraction(ex["house_exact"]) == -Fraction(ex["banker_exact"]) - Fraction(ex["player_exact"])
    assert sum(ex["outcomes"].values()) == pytest.approx(1)
    hist = doc["banks"]["coups_histogram"]   # banks by their number of coups: every coup in one bank
    assert sum(hist) == doc["banks"]["count"] and sum(k * n for k, n in enumerate(hist)) == doc["hands"]
    r = cli("chemin", "--shoes", "50", "--seed", "1", "--banker", "tableau", "--draw-at-5", "stand")
    assert r.exit_code == 0 and "Chemin de fer" in r.stdout
    r = cli("banque", "--shoes", "200", "--seed", "1", "--json", "--decks", "inf", "--players", "independent",
            "--p1", "1/2", "--p2", "draw", "--workers", "1")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    hands, bets = doc["by_hand"], doc["bets"]
    assert sum(doc["outcomes"].values()) == 2 * doc["hands"] and all(sum(h.values()) == doc["hands"] for h in hands.values())
    for w in ("player1", "player2"):   # each Player's hand against Banker's, at even money
        assert Fraction(bets[w]["net_exact"]) == hands[w]["player"] - hands[w]["banker"]
    # Banker holds both hands' stakes, theta = 1/2 each
    assert Fraction(bets["banker"]["net_exact"]) == -(Fraction(bets["player1"]["net_exact"])
                                                      + Fraction(bets["player2"]["net_exact"])) / 2
    # Ethier and Lee (2015), section 3: the game's value at theta = 1/2 is -16655514960/(181 13^9) to the Players
    assert Fraction(doc["exact"]["banker_exact"]) == Fraction(16655514960, 181 * 13**9)
    r = cli("punto", "--shoes", "100", "--seed", "1", "--count", str(EXAMPLES / "counts" / "tie_67.toml"),
            "--tie-pays", "9", "--bets", "banker")
    assert r.exit_code == 0, r.output
    assert "Tie 6-7" in r.stdout


@pytest.mark.parametrize("args, message", [
    (["punto", "--decks", "0"], "--decks must be a whole number of decks from 1 to 10,000"),
    (["punto", "--shoes", "abc"], "--shoes must be a whole number from 1 to 10^15"),
    (["punto", "--shoes", "0"], "--shoes must be a whole number from 1 to 10^15, got '0'"),
    (["punto", "--bets", "banker,nosuch"], "unknown bet 'nosuch'"),
    (["punto", "--cut", "3"], "--cut (cards behind the cut card)"),
    (["punto", "--cut", "10"], "--cut (cards behind the cut card) must be an integer from 11 (one more coup"),
    (["chemin", "--cut", "10"], "--cut (cards behind the cut card) must be an integer from 11"),
    (["punto", "--deal", "sometimes"], "--deal must be one of"),
    (["punto", "--count", "missing.toml"], "count file 'missing.toml' not found"),
    (["punto", "--count", str(EXAMPLES / "counts" / "tie_67.toml"), "--perfect"], "not both"),
    (["punto", "--perfect", "--deal", "csm"], "--perfect needs a real shoe"),
    (["punto", "--scheduler", "nonsense"], "--scheduler must be a Dask scheduler's address"),
    (["punto", "--backend", "tpu"], "--backend must be one of"),
    (["punto", "--out", "shoes.csv"], "ending in .parquet"),
    (["punto", "--commission", "2"], "--commission must be a rational in [0, 1)"),
    (["chemin", "--banker", "nobody"], "--banker must be equilibrium, tableau"),
    (["chemin", "--seats", "1"], "--seats must be a whole number from 2"),
    (["chemin", "--draw-at-5", "3/2"], "--draw-at-5 must be a probability in [0, 1]"),
    (["banque", "--theta", "1"], "--theta must be a number in (0, 1)"),
    (["banque", "--p1", "1/2"], "--p1 / --p2 go with --players independent"),
    (["banque", "--cut", "16"], "--cut (cards behind the cut card) must be an integer from 17"),
])
def test_cli_bad_input_exits_2_with_error(args, message):
    r = cli(*args, "--shoes" if "--shoes" not in args else "--seed", "10" if "--shoes" not in args else "1")
    assert r.exit_code == 2, r.output
    assert r.stderr.lstrip().startswith("error:")
    assert message in " ".join(r.stderr.split())


@pytest.mark.parametrize(("decks", "cut", "names", "shoes"), [
    (8, 14, ("banker", "player", "tie"), 301),
    (1, 11, ("banker", "player", "tie", "dragon7", "panda8"), 200),
    (6, 40, ("tie",), 7),
])
def test_values_fast_path_deals_the_same_rows(decks, cut, names, shoes):
    """Flat bets blind to pairs are dealt from a shoe of values: the same rows as the general kernel."""
    from baccara.sim import _punto_kernel as K
    from baccara.sim.punto import _values_args

    bets = builtin_bets()
    job = PuntoJob(seed=7, shoes=shoes, bets=tuple(bets[n] for n in names), decks=decks, cut=cut)
    fast = _values_args(job)
    assert fast is not None
    general = np.zeros((shoes, len(job.columns())), dtype=np.int64)
    values = np.zeros_like(general)
    K.punto_chunk(job.seed, 3, general, *job.kernel_args())
    K.punto_values_chunk(job.seed, 3, values, *fast)
    assert np.array_equal(general, values)


def test_values_fast_path_only_for_bets_blind_to_pairs():
    from baccara.sim.punto import _values_args

    bets = builtin_bets()
    assert _values_args(PuntoJob(seed=1, shoes=4, bets=(bets["banker"], bets["player_pair"]))) is None
    assert _values_args(PuntoJob(seed=1, shoes=4, bets=(bets["banker"],), deal="csm", decks=8)) is None
