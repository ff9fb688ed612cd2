"""Game protection (baccara audit): the logs, the exact prices, the tests, the verdicts, the shoes' checks.

The prices are checked against the exact engine (``evaluate``, ``baccara edge --composition``, the
conditioned engine of edge sorting); the tests against Holm's definition and against logs of known
behaviour (blind and flat bettors, counters, an edge sorter) dealt by the simulator's seeded shoes.
The 1,000-player measurements are in the slow test at the end and in benchmarks/bench_audit.py.
"""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from baccara import Shoe, builtin_bets, evaluate
from baccara.audit import LogError, audit, read_bets, read_hands, simulate_logs, write_bets, write_hands
from baccara.audit.evs import coup_table
from baccara.audit.integrity import carried_pairs, shoe_integrity
from baccara.audit.logs import card_code, card_name, coup_card_count
from baccara.audit.simlog import parse_seat, write_logs
from baccara.audit.stats import DEFAULT_ALPHA, DEFAULT_PERMUTATIONS, holm
from baccara.cards import RANKS
from baccara.cli import app
from baccara.errors import BaccaraError
from baccara.punto.edgesort import edge_sort

runner = CliRunner()
BETS = builtin_bets()


def seats(*specs: str):
    return [parse_seat(s, f"p{i}:{s}") for i, s in enumerate(specs)]


@pytest.fixture(scope="module")
def small_logs():
    """Two 2-deck shoes: a blind, a flat and an edge-sorting seat, first cards' classes logged."""
    return simulate_logs(seats("blind", "flat", "edge:6,7,8,9"), 2, decks=2, seed=5)


def frac(s: str) -> Fraction:
    return Fraction(s)


# ---------------------------------------------------------------- formats
def test_cards_read_and_written():
    for code in range(52):
        assert card_code(card_name(code)) == code
    assert card_code("10H") == card_code("TH") == 4 * 9 + 1
    assert card_code("1S") is None and card_code("9X") is None and card_code("") is None


def test_drawing_table_card_counts_match_the_tableau():
    # every four-card start, by value: the count the tableau gives, against the rules written out
    from baccara.rules import PUNTO_BANCO

    for p1, b1, p2, b2, p3 in itertools.product(range(10), repeat=5):
        cards = [4 * (v - 1 if v else 9) for v in (p1, b1, p2, b2, p3)]
        pt, bt = (p1 + p2) % 10, (b1 + b2) % 10
        if pt >= 8 or bt >= 8:
            want = 4
        elif pt <= 5:
            want = 5 + PUNTO_BANCO.banker_draws_on(bt, p3)
        else:
            want = 4 + (bt <= 5)
        assert coup_card_count(cards) == want


def test_logs_round_trip_csv_and_parquet(tmp_path, small_logs):
    hands, bets = small_logs
    for fmt in ("csv", "parquet"):
        h_path, b_path = write_logs(hands, bets, tmp_path / fmt, fmt)
        h = read_hands(h_path, decks=2)
        b = read_bets(b_path, h, BETS)
        assert [(s.shoe, s.burn, [(c.number, c.cards, c.first_class) for c in s.coups]) for s in h.shoes] == \
               [(s.shoe, s.burn, [(c.number, c.cards, c.first_class) for c in s.coups]) for s in hands.shoes]
        assert [(x.shoe, x.coup, x.player, x.bet, x.amount) for x in b.bets] == \
               [(x.shoe, x.coup, x.player, x.bet, x.amount) for x in bets.bets]


HEAD = "shoe,coup,cards,first_class\n"


@pytest.mark.parametrize("text, where, reason", [
    ("shoe,cards\n1,8S KH KD 7C\n", "line 1", "missing column coup"),
    (HEAD + "1,0,9S\n1,1,8S KX KD 7C,\n", "line 3", "unknown card 'KX'"),
    (HEAD + "1,1,8S KH KD 7C,\n1,2,8S QH QD 7S,\n", "line 3", "more 8S in shoe 1 than 1 deck hold"),
    (HEAD + "1,1,9S 9H KD KC,\n1,2,9D 9C QD QC,\n1,3,9S JS JH JD,\n", "line 4", "more cards of rank 9"),
    (HEAD + "1,1,2S 3H 2D 3C,\n", "line 2", "breaks the drawing table"),
    (HEAD + "1,1,8S KH KD 7C 2S,\n", "line 2", "a natural"),
    (HEAD + "1,1,8S KH KD 7C,Q\n", "line 2", "first_class must be S"),
    (HEAD + "1,1,8S KH KD 7C,\n1,3,2S 3H 3D KC 4C 5S,\n", "line 3", "no coup 2"),
])
def test_bad_hand_logs_are_refused_with_file_line_and_reason(tmp_path, text, where, reason):
    path = tmp_path / "hands.csv"
    path.write_text(text)
    with pytest.raises(LogError) as e:
        read_hands(path, decks=1)
    assert str(path) in str(e.value) and where in str(e.value) and reason in str(e.value)


@pytest.mark.parametrize("text, where, reason", [
    ("shoe,coup,player,amount\n1,1,ann,5\n", "line 1", "missing column bet"),
    ("shoe,coup,player,bet,amount\n1,1,ann,lucky7,5\n", "line 2", "unknown bet 'lucky7'"),
    ("shoe,coup,player,bet,amount\n1,3,ann,banker,5\n", "line 2", "a bet after its coup"),
    ("shoe,coup,player,bet,amount\n1,2,ann,banker,5\n1,1,ann,banker,5\n", "line 3", "a bet after its coup"),
    ("shoe,coup,player,bet,amount\n1,0,ann,banker,5\n", "line 2", "coup 0, the burn"),
    ("shoe,coup,player,bet,amount\n2,1,ann,banker,5\n", "line 2", "shoe '2' is not in the hand log"),
    ("shoe,coup,player,bet,amount\n1,1,ann,banker,-5\n", "line 2", "amount must be a positive number"),
    ("shoe,coup,player,bet,amount\n1,1,ann,banker,5\n1,1,ann,banker,5\n", "line 3", "given twice"),
])
def test_bad_bet_logs_are_refused_with_file_line_and_reason(tmp_path, text, where, reason):
    hands = tmp_path / "hands.csv"
    hands.write_text(HEAD + "1,0,6S\n1,1,8S KH KD 7C,\n1,2,2S 3H 3D KC 4C 5S,\n")
    path = tmp_path / "bets.csv"
    path.write_text(text)
    h = read_hands(hands, decks=1)
    with pytest.raises(LogError) as e:
        read_bets(path, h, BETS)
    assert str(path) in str(e.value) and where in str(e.value) and reason in str(e.value)


def test_cli_refuses_a_bad_log_with_exit_2(tmp_path):
    hands = tmp_path / "hands.csv"
    hands.write_text(HEAD + "1,1,2S 3H 2D 3C,\n")
    bets = tmp_path / "bets.csv"
    bets.write_text("shoe,coup,player,bet,amount\n1,1,ann,banker,5\n")
    r = runner.invoke(app, ["audit", "--hands", str(hands), "--bets", str(bets)])
    assert r.exit_code == 2 and "line 2" in r.output and "drawing table" in r.output
    assert "Traceback" not in r.output
    hands.write_text(HEAD + "1,0,6S\n1,1,8S KH KD 7C,\n1,2,2S 3H 3D KC 4C 5S,\n")
    for args, msg in ((["--decks", "0"], "--decks"), (["--alpha", "1"], "--alpha"), (["--out", "x.txt"], "--out"),
                      (["--permutations", "5"], "--permutations"), (["--sorted", "Z"], "unknown rank")):
        r = runner.invoke(app, ["audit", "--hands", str(hands), "--bets", str(bets), *args])
        assert r.exit_code == 2 and msg in r.output, (args, r.output)


# ---------------------------------------------------------------- exact prices
def test_ev_given_the_cards_left_is_the_exact_engine_and_baccara_edge(small_logs):
    hands, bets = small_logs
    names = ["banker", "player", "tie", "dragon7", "player_pair"]
    table = coup_table(hands, BETS, names)
    # the composition by hand: the decks less the burn's shown card and every earlier coup
    shoe = hands.shoes[1]
    left = np.full(52, 2)
    left[shoe.burn[0]] -= 1
    for c in shoe.coups[:5]:
        for x in c.cards:
            left[x] -= 1
    row = table.index[(shoe.shoe, 6)]
    assert (table.left[row] == left).all()
    ranks = left.reshape(13, 4).sum(axis=1)
    want = evaluate(Shoe.from_ranks([int(x) for x in ranks]), names)
    assert table.ev_exact[row] == [want[n].ev for n in names]
    comp = ",".join(f"{RANKS[r]}={int(ranks[r])}" for r in range(13))
    r = runner.invoke(app, ["edge", "--composition", comp, "--json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert [frac(doc["bets"][n]["ev"]) for n in names] == table.ev_exact[row]


def test_ev_given_the_first_cards_class_is_the_edge_sort_engine(small_logs):
    hands, _ = small_logs
    names = ["banker", "player", "tie"]
    table = coup_table(hands, BETS, names).with_first_cards(BETS)
    s = frozenset({5, 6, 7, 8})  # 6, 7, 8, 9
    by_class = table.class_ev(s)
    logged = table.class_ev(s, recorded=True)
    assert np.allclose(by_class, logged)  # the simulator logs the classes of that sorting
    # priced class by class, the same prices
    assert np.allclose(table.class_ev_direct(s, BETS), by_class, rtol=0, atol=1e-13)
    assert np.allclose(table.class_ev_direct(s, BETS, recorded=True), logged, rtol=0, atol=1e-13)
    odd = frozenset({0, 10})  # A, J: splits the value-0 cards, priced by rank
    assert np.allclose(table.class_ev_direct(odd, BETS), table.class_ev(odd), rtol=0, atol=1e-13)
    for row in (0, 7, table.rows - 1):
        ranks = table.rank_left()[row]
        shoe = Shoe.from_ranks([int(x) for x in ranks])
        analysis = edge_sort(shoe, "6,7,8,9", 1, {n: BETS[n] for n in names})
        pattern = "S" if table.first_rank[row] in s else "O"
        g = next(p for p in analysis.patterns if p.pattern == pattern)
        assert np.allclose(by_class[row], [float(g.results[n].ev) for n in names], rtol=0, atol=1e-13)
        # the classes' mixture is the price given the cards left
        mix = sum(float(p.probability) * np.array([float(p.results[n].ev) for n in names])
                  for p in analysis.patterns if p.results)
        assert np.allclose(mix, table.ev[row], atol=1e-13)


def test_payouts_are_the_bets_on_the_coups_outcome(small_logs):
    hands, _ = small_logs
    table = coup_table(hands, BETS, ["banker", "player", "tie"])
    from baccara.cards import RANK_VALUE

    for s in hands.shoes:
        for c in s.coups:
            v = [RANK_VALUE[x // 4] for x in c.cards]
            pt, bt = (v[0] + v[2]) % 10, (v[1] + v[3]) % 10
            if len(v) == 6:
                pt, bt = (pt + v[4]) % 10, (bt + v[5]) % 10
            elif len(v) == 5:
                if pt <= 5:
                    pt = (pt + v[4]) % 10
                else:
                    bt = (bt + v[4]) % 10
            row = table.index[(s.shoe, c.number)]
            banker, player, tie = table.payout_exact[row]
            if pt == bt:
                assert (banker, player, tie) == (0, 0, 8)
            elif bt > pt:
                assert (banker, player, tie) == (Fraction(19, 20), -1, -1)
            else:
                assert (banker, player, tie) == (-1, 1, -1)


# ---------------------------------------------------------------- the tests
def test_holm_is_the_step_down_procedure():
    rng = np.random.default_rng(0)
    for _ in range(50):
        p = list(rng.random(int(rng.integers(1, 7))) ** 2)
        adj = holm(p)
        m = len(p)
        order = sorted(range(m), key=lambda i: p[i])
        for k, i in enumerate(order):
            assert adj[i] == pytest.approx(min(1.0, max((m - j) * p[order[j]] for j in range(k + 1))))


def test_flat_bettor_cannot_be_flagged_and_blind_bettors_rarely_are():
    hands, bets = simulate_logs(seats(*["blind"] * 60, "flat", "flat:player"), 2, decks=8, seed=11)
    result = audit(hands, bets, candidates=0, permutations=199, seed=3, integrity_draws=19)
    flat = [a for n, a in result.players.items() if "flat" in n]
    assert all(a.verdict == "none" and a.tests[0].p == 1.0 for a in flat)  # a flat slip is the same on every coup
    blind = [a for n, a in result.players.items() if "blind" in n]
    assert sum(a.verdict != "none" for a in blind) <= 3  # 1% of 60 is 0.6 expected
    ps = np.array([a.tests[0].p for a in blind])
    assert 0.3 < ps.mean() < 0.7  # p-values near uniform under no information


def test_counters_are_flagged_counting_and_the_edge_sorter_edge_sorting():
    hands, bets = simulate_logs(seats("perfect:dragon7", "perfect:dragon7", "edge:6,7,8,9", "edge_only:6,7,8,9",
                                      "blind"), 2, decks=8, seed=2)
    result = audit(hands, bets, permutations=499, seed=1, integrity_draws=19)
    v = {n.split(":", 1)[1] + n.split(":")[0]: a.verdict for n, a in result.players.items()}
    assert v["perfect:dragon7p0"] == v["perfect:dragon7p1"] == "counting"
    assert v["edge:6,7,8,9p2"] == v["edge_only:6,7,8,9p3"] == "edge sorting"
    assert v["blindp4"] == "none"
    doc = result.to_json()
    sorter = doc["players"]["p2:edge:6,7,8,9"]
    assert sorter["verdict"] == "edge sorting" and sorter["p_values"]["edge_sorting"] <= DEFAULT_ALPHA
    # what the backs were worth: about 6.8% of the money bet every coup (Jacobson's figure, one card read)
    ev = sorter["ev"]
    assert 0.03 < ev["expected_given_first_class"] / ev["staked"]["float"] < 0.11
    assert abs(ev["expected_given_cards_left"]["float"] / ev["staked"]["float"]) < 0.03


def test_without_first_class_the_candidate_sortings_find_the_sorter():
    hands, bets = simulate_logs(seats("edge:6,7,8,9", "blind"), 3, decks=2, seed=4, sorted_ranks=None)
    stripped = type(hands)(hands.source, hands.decks, tuple(
        type(s)(s.shoe, s.burn, tuple(type(c)(c.number, c.cards, None, c.line) for c in s.coups))
        for s in hands.shoes), False)
    result = audit(stripped, bets, permutations=1999, seed=1, integrity_draws=19)
    keys = [h.key for h in result.hypotheses]
    assert keys[0] == "counting" and "edge_sorting:6,7,8,9" in keys and len(keys) >= 3
    assert result.players["p0:edge:6,7,8,9"].verdict == "edge sorting"
    assert result.players["p1:blind"].verdict == "none"


# ---------------------------------------------------------------- shoe integrity
def test_carried_pairs_counts_neighbours_kept():
    prev = np.array([1, 2, 3, 4, 5])
    assert carried_pairs(prev, np.array([1, 2, 3, 4, 5])) == 4
    assert carried_pairs(prev, np.array([5, 4, 3, 2, 1])) == 0
    assert carried_pairs(prev, np.array([3, 4, 1, 2, 9])) == 2


def test_a_carried_order_and_sorted_backs_are_detected_and_random_shoes_are_not():
    # the tests' power on simulated faults, over several seeds: one riffle of the last shoe's order, sorted backs
    carried, random_p, sorted_p = [], [], []
    for seed in range(6):
        random_h, _ = simulate_logs(seats("blind"), 3, decks=1, seed=seed)
        carried_h, _ = simulate_logs(seats("blind"), 3, decks=1, seed=seed, fault="carry")
        sorted_h, _ = simulate_logs(seats("blind"), 4, decks=2, seed=seed, sorted_ranks="6,7,8,9")
        r = shoe_integrity(random_h, draws=199, seed=seed).doc
        assert r["class_vs_rank"] is None and r["drawing_table"]["all_follow"]
        assert all(not s["complete"] for s in r["shoes"])
        random_p.append(r["carried_order"]["p"])
        c = shoe_integrity(carried_h, draws=199, seed=seed).doc
        carried.append(c["carried_order"]["p"])
        assert c["carried_order"]["statistic"] > 3 * c["carried_order"]["expected"]
        s = shoe_integrity(sorted_h, draws=199, seed=seed).doc
        sorted_p.append(s["class_vs_rank"]["p"])
        assert s["class_vs_rank"]["ranks_mostly_sorted"] == ["6", "7", "8", "9"]
    assert all(p <= 0.01 for p in carried) and all(p <= 0.01 for p in sorted_p)
    assert sum(p <= 0.01 for p in random_p) <= 1 and max(random_p) > 0.2


# ---------------------------------------------------------------- command line and report
def test_cli_json_contract_and_report(tmp_path):
    hands, bets = simulate_logs(seats("edge:6,7,8,9", "blind"), 1, decks=2, seed=6)
    h, b = write_logs(hands, bets, tmp_path)
    out = tmp_path / "audit.html"
    r = runner.invoke(app, ["audit", "--hands", str(h), "--bets", str(b), "--decks", "2", "--json",
                            "--permutations", "199", "--out", str(out)])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout[r.stdout.index("{"):])
    assert set(doc["players"]) == {"p0:edge:6,7,8,9", "p1:blind"}
    for p in doc["players"].values():
        assert p["verdict"] in ("none", "counting", "edge sorting")
        assert set(p["p_values"]) == {"counting", "edge_sorting"}
        assert set(p["ev"]) >= {"staked", "expected_given_cards_left", "expected_no_information", "actual"}
        for bet in p["bets"]:
            assert frac(bet["ev"]) == Fraction(bet["ev"])
    page = out.read_text()
    assert page.startswith("<!DOCTYPE html>") and "<svg" in page and "The method" in page
    r = runner.invoke(app, ["audit", "--hands", str(h), "--bets", str(b), "--decks", "2", "--permutations", "199"])
    assert r.exit_code == 0 and "Audit of 2 players" in r.output


def test_cli_defaults_are_the_librarys():
    from baccara.audit.analysis import DEFAULT_CANDIDATES
    from baccara.commands.audit import ALPHA, CANDIDATES, PERMUTATIONS

    assert (PERMUTATIONS, float(ALPHA), CANDIDATES) == (DEFAULT_PERMUTATIONS, DEFAULT_ALPHA, DEFAULT_CANDIDATES)


def test_written_logs_read_back_unchanged(tmp_path):
    hands, bets = simulate_logs(seats("count:examples/counts/dragon7.toml"), 1, decks=8, seed=3)
    write_hands(hands, tmp_path / "h.csv")
    write_bets(bets, tmp_path / "b.csv")
    h = read_hands(tmp_path / "h.csv")
    assert sum(len(s.coups) for s in h.shoes) == sum(len(s.coups) for s in hands.shoes)
    assert len(read_bets(tmp_path / "b.csv", h, BETS).bets) == len(bets.bets)


# ---------------------------------------------------------------- must hold, at full size
@pytest.mark.slow
def test_must_hold_over_a_thousand_players_of_each_kind():
    # blind bettors draw their own bets, so 100 share a table; flat bettors and edge sorters follow a rule, so each
    # has a table (at one table they would be copies); a sorter flagged within 2 shoes is flagged within 10
    from baccara.audit.power import flag_rates

    blind = flag_rates(["blind", "edge_only:6,7,8,9"], 1000, 10, per_table=100, seed=100)[0]
    flat, sorter = flag_rates(["flat", "edge_only:6,7,8,9"], 1000, 2, per_table=1, seed=10_000)
    assert blind.players == flat.players == sorter.players == 1000
    assert blind.rate <= 0.01 and flat.rate <= 0.01
    assert sorter.verdicts["edge sorting"] >= 990


def test_simulate_punto_writes_logs_that_the_audit_reads(tmp_path):
    r = runner.invoke(app, ["simulate", "punto", "--log", str(tmp_path), "--seat", "ann=blind", "--seat",
                            "edge_only:6,7,8,9", "--shoes", "1", "--decks", "2", "--seed", "9"])
    assert r.exit_code == 0, r.output
    hands = read_hands(tmp_path / "hands.csv", decks=2)
    bets = read_bets(tmp_path / "bets.csv", hands, BETS)
    assert set(bets.players) <= {"ann", "seat2"} and "seat2" in bets.players
    assert hands.has_classes  # the sorter's shoe logs its first cards' classes
    # shoe 1 of seed 9 is the simulator's: the same cards as simulate_logs deals
    same, _ = simulate_logs(seats("blind"), 1, decks=2, seed=9)
    assert hands.shoes[0].sequence() == same.shoes[0].sequence()
    r = runner.invoke(app, ["simulate", "punto", "--seat", "blind", "--shoes", "1"])
    assert r.exit_code == 2 and "--log" in r.output


def test_audit_tables_gives_each_tables_document(tmp_path):
    from baccara.audit import audit_tables

    pairs = []
    for t in range(2):
        hands, bets = simulate_logs(seats("blind", "perfect:dragon7"), 1, decks=2, seed=20 + t)
        pairs.append(write_logs(hands, bets, tmp_path / str(t)))
    docs = audit_tables(pairs, workers=1, decks=2, permutations=199, candidates=0)
    for (h, b), doc in zip(pairs, docs):
        alone = audit(str(h), str(b), decks=2, permutations=199, candidates=0).to_json()
        assert doc["hands"] == str(h)
        assert {p: d["p_values"] for p, d in doc["players"].items()} == \
               {p: d["p_values"] for p, d in alone["players"].items()}


@pytest.mark.slow
def test_audit_tables_on_worker_processes(tmp_path):
    from baccara.audit import audit_tables

    hands, bets = simulate_logs(seats("blind"), 1, decks=2, seed=30)
    pair = write_logs(hands, bets, tmp_path)
    here = audit_tables([pair], workers=1, decks=2, permutations=199, candidates=0)
    there = audit_tables([pair, pair], workers=2, decks=2, permutations=199, candidates=0)
    assert there[0]["players"] == there[1]["players"] == here[0]["players"]


def test_the_audit_page_reads_two_uploaded_logs_and_shows_the_report(tmp_path):
    import warnings

    from fastapi.testclient import TestClient

    from baccara.web.app import create_app

    hands, bets = simulate_logs(seats("edge_only:6,7,8,9", "blind"), 1, decks=2, seed=12)
    h, b = write_logs(hands, bets, tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(create_app()) as client:
            assert client.get("/audit").status_code == 200
            r = client.post("/audit", files={"hands": ("night.csv", h.read_bytes()), "bets": ("b.csv", b.read_bytes())},
                            data={"decks": "2", "permutations": "199"})
            assert r.status_code == 200 and "Game protection audit" in r.text and "edge sorting" in r.text
            bad = h.read_text().replace("\n1,1,", "\n1,1,XX ", 1)
            r = client.post("/audit", files={"hands": ("night.csv", bad.encode()), "bets": ("b.csv", b.read_bytes())},
                            data={"decks": "2"})
            assert r.status_code == 422 and "night.csv line 3" in r.text and "unknown card" in r.text
            r = client.post("/audit", files={"hands": ("night.csv", h.read_bytes())}, data={"decks": "2"})
            assert r.status_code == 422 and "bet log" in r.text


# ---------------------------------------------------------------- many tables from the command line
def _month(folder):
    """Three tables of one or two 2-deck shoes: two as NAME.hands.csv/NAME.bets.csv, one as a subfolder."""
    folder.mkdir(exist_ok=True)
    for t in range(3):
        hands, bets = simulate_logs(seats("blind", "edge:6,7,8,9"), 1 + t % 2, decks=2, seed=40 + t)
        if t == 2:
            write_logs(hands, bets, folder / "t3")
        else:
            write_hands(hands, folder / f"t{t + 1}.hands.csv")
            write_bets(bets, folder / f"t{t + 1}.bets.csv")
    return folder


def test_table_pairs_match_logs_by_name_and_refuse_the_rest(tmp_path):
    from baccara.audit import table_pairs

    for name in ("a.hands.csv", "a.bets.parquet", "notes.txt", ".hidden.csv"):
        (tmp_path / name).write_text("x")
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "hands.parquet").write_text("x")
    (tmp_path / "b" / "bets.csv").write_text("x")
    (tmp_path / "reports").mkdir()
    assert table_pairs(tmp_path) == [("a", tmp_path / "a.hands.csv", tmp_path / "a.bets.parquet"),
                                     ("b", tmp_path / "b" / "hands.parquet", tmp_path / "b" / "bets.csv")]
    cases = {"c.hands.csv": "c.hands.csv has no bets log beside it", "stray.csv": "stray.csv is not named NAME.hands",
             "a.bets.csv": "table 'a' has two bets logs"}
    for name, message in cases.items():
        (tmp_path / name).write_text("x")
        with pytest.raises(BaccaraError, match="--tables") as e:
            table_pairs(tmp_path)
        assert message in str(e.value)
        (tmp_path / name).unlink()
    (tmp_path / "b" / "bets.csv").unlink()
    with pytest.raises(BaccaraError, match="has no bets log"):
        table_pairs(tmp_path)
    with pytest.raises(BaccaraError, match="no table in"):
        table_pairs(tmp_path / "reports")
    with pytest.raises(BaccaraError, match="is not a folder"):
        table_pairs(tmp_path / "nowhere")


def test_cli_tables_verdicts_across_tables_and_json(tmp_path):
    month = _month(tmp_path / "month")
    common = ["audit", "--decks", "2", "--permutations", "199", "--candidates", "0"]
    r = runner.invoke(app, [*common, "--tables", str(month), "--json", "-j", "1"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert list(doc["tables"]) == ["t1", "t2", "t3"]
    # each table's document is the one-table command's
    one = runner.invoke(app, [*common, "--hands", str(month / "t3" / "hands.csv"), "--bets",
                              str(month / "t3" / "bets.csv"), "--json"])
    alone = json.loads(one.output)
    for d in (alone, doc["tables"]["t3"]):
        d.pop("seconds")
    assert doc["tables"]["t3"] == alone
    rows = doc["verdicts"]
    assert [(r_["table"], r_["player"]) for r_ in rows] == [(t, p) for t in ("t1", "t2", "t3")
                                                            for p in doc["tables"][t]["players"]]
    for r_ in rows:
        p = doc["tables"][r_["table"]]["players"][r_["player"]]
        assert (r_["verdict"], r_["p_counting"], r_["p_edge_sorting"]) == \
               (p["verdict"], p["p_values"]["counting"], p["p_values"]["edge_sorting"])
    assert any(r_["verdict"] == "edge sorting" for r_ in rows)  # the sorters, over one or two shoes
    people = runner.invoke(app, [*common, "--tables", str(month), "-j", "1"])
    assert people.exit_code == 0 and "Audit of 3 tables" in people.output and "t3" in people.output


def test_cli_tables_on_two_processes_gives_the_same_documents(tmp_path):
    month = _month(tmp_path / "month")
    docs = []
    for workers in ("1", "2"):
        r = runner.invoke(app, ["audit", "--decks", "2", "--permutations", "199", "--tables", str(month), "--json",
                                "--workers", workers, "--backend", "processes"])
        assert r.exit_code == 0, r.output
        doc = json.loads(r.output)
        for d in doc["tables"].values():
            d.pop("seconds")
        docs.append(doc)
    assert docs[0] == docs[1]


@pytest.mark.parametrize("args, message", [
    (["--out", "r.html"], "--out writes one table's report"),
    (["--backend", "threads"], "--backend must be one of processes, dask"),
    (["--workers", "0"], "--workers must be an integer from 1 to"),
    (["--workers", "2", "--scheduler", "tcp://127.0.0.1:1"], "--scheduler"),
    (["--hands", "h.csv"], "--tables audits a folder of tables"),
])
def test_cli_tables_refuses_bad_options(tmp_path, args, message):
    (tmp_path / "a.hands.csv").write_text("x")
    (tmp_path / "a.bets.csv").write_text("x")
    r = runner.invoke(app, ["audit", "--tables", str(tmp_path), *args])
    assert r.exit_code == 2 and message in r.output, r.output


def test_cli_tables_refuses_bad_folders_and_names_a_bad_log(tmp_path):
    r = runner.invoke(app, ["audit", "--hands", "h.csv", "--bets", "b.csv", "--workers", "2"])
    assert r.exit_code == 2 and "share out the tables of --tables" in r.output
    month = _month(tmp_path / "month")
    (month / "t9.bets.csv").write_text("shoe,coup,player,bet,amount\n")
    r = runner.invoke(app, ["audit", "--tables", str(month), "-j", "1"])
    assert r.exit_code == 2 and "t9.bets.csv has no hands log beside it" in r.output
    (month / "t9.bets.csv").unlink()
    lines = (month / "t2.hands.csv").read_text().splitlines()
    lines[3] = lines[3].replace(lines[3].split(",")[2].split()[1], "1X")
    (month / "t2.hands.csv").write_text("\n".join(lines) + "\n")
    r = runner.invoke(app, ["audit", "--tables", str(month), "--decks", "2", "-j", "1"])
    assert r.exit_code == 2 and f"{month / 't2.hands.csv'} line 4: unknown card '1X'" in r.output, r.output
    empty = tmp_path / "empty"
    empty.mkdir()
    r = runner.invoke(app, ["audit", "--tables", str(empty)])
    assert r.exit_code == 2 and "no table in" in r.output


# ---------------------------------------------------------------- bets on the cards themselves
GALLERY = Path(__file__).resolve().parent.parent / "examples" / "gallery.toml"


def _gallery():
    from baccara.commands.options import build_bets

    return build_bets("1/20", "8", "12", str(GALLERY))[0]


def test_card_bets_are_settled_from_the_logged_cards(small_logs):
    from baccara.audit.evs import card_payouts
    from baccara.cards import RANK_VALUE

    hands, _ = small_logs
    defs = _gallery()
    names = ("three_giving_eight", "all_red", "first_card_ace")
    coups = [c.cards for s in hands.shoes for c in s.coups]
    paid = card_payouts(coups, [defs[n] for n in names])
    wins = [0, 0, 0]
    for cards, got in zip(coups, paid, strict=True):
        v = [RANK_VALUE[x // 4] for x in cards]
        b_two = (v[1] + v[3]) % 10
        player_third = v[4] if len(v) == 6 or (len(v) == 5 and (v[0] + v[2]) % 10 <= 5) else None
        oracle = (200 if b_two == 3 and player_third == 8 else -1,
                  22 if all(x % 4 in (1, 2) for x in cards) else -1,  # hearts and diamonds
                  12 if cards[0] // 4 == 0 else -1)
        assert tuple(got) == oracle
        wins = [w + (o > 0) for w, o in zip(wins, oracle)]
    assert wins[2] > 0  # the log holds an ace first: the oracle's winning branch is exercised


def test_card_bets_are_audited_at_their_exact_ev_given_the_cards_left():
    from baccara.audit.logs import BetLog, BetRecord

    defs = _gallery()
    hands, flat = simulate_logs(seats("flat"), 1, decks=1, seed=3)
    s = hands.shoes[0].shoe
    extra = [BetRecord(s, c, "c", bet, Fraction(5), 100 + c) for c in (1, 2, 3)
             for bet in ("three_giving_eight", "first_card_ace")]
    bets = BetLog("bets.csv", flat.bets + tuple(extra))
    result = audit(hands, bets, decks=1, bet_defs=defs, permutations=199, candidates=0, sorted_sets=["6,7,8,9"])
    table = result.table
    names = ("three_giving_eight", "first_card_ace")
    for i in (0, table.rows - 1):  # the cards left by rank, as baccara edge --composition takes them
        ranks = table.left[i].reshape(13, 4).sum(axis=1)
        exact = evaluate(Shoe.from_ranks([int(x) for x in ranks]), [defs[n] for n in names])
        assert [table.ev_exact[i][table.bets.index(n)] for n in names] == [exact[n].ev for n in names]
    card_cols = [table.bets.index(n) for n in ("three_giving_eight", "first_card_ace")]
    for hy in result.hypotheses[1:]:  # the edge-sorting tests leave the card bets out
        assert (hy.prices[:, card_cols] == 0).all()
    assert result.hypotheses[1].prices[:, table.bets.index("banker")].any()
    unit = table.with_first_cards(defs)
    assert np.allclose(unit.class_ev(frozenset({5, 6, 7, 8}))[:, card_cols], table.ev[:, card_cols])
    doc = result.to_json()
    c = doc["players"]["c"]
    assert c["ev"]["bets"] == 6
    assert Fraction(c["ev"]["expected_given_cards_left"]["exact"]) == 5 * sum(
        table.ev_exact[table.index[(s, b.coup)]][table.bets.index(b.bet)] for b in extra)
    assert any("bets on the cards themselves (three_giving_eight, first_card_ace)" in n for n in doc["notes"])


def test_a_player_named_like_mathematics_gets_a_report(tmp_path):
    # matplotlib reads $...$ in a title or legend as mathematics: a player (or bet) named "$\zzz$" made the
    # report's charts raise; names from a log are text, drawn as written
    from baccara.audit import audit
    from baccara.audit.html import write_audit_report

    hands, bets = simulate_logs([parse_seat("blind", r"$\zzz$")], 1, decks=2, seed=3)
    h, b = write_logs(hands, bets, tmp_path)
    out = write_audit_report(audit(h, b, decks=2, permutations=99), tmp_path / "a.html")
    assert r"\zzz" in out.read_text()
