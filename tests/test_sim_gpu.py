"""The GPU backend (``--backend gpu``) against the CPU kernels: the same shoes, the same integers.

The GPU kernels run on numba-cuda's CUDA simulator, in a process of their own
(``tests/gpu_sim_cases.py``: ``NUMBA_ENABLE_CUDASIM=1`` has to be set before
Numba is first imported and changes ``numba.cuda`` for the whole process, so it
must not reach the other tests of this worker).  That process deals small
seeded runs both ways and reports them; the tests here compare them: raw rows
shoe for shoe, the run's exact sums, ``--out`` rows, a count analysis, the
histogram of ``count design`` and the command line's JSON and Parquet file.
The error path (no GPU, no simulator, no numba-cuda) runs in this process.
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from baccara.cli.count import count_app
from baccara.cli.simulate import simulate_app
from baccara.errors import ParameterError
from baccara.sim import gpu
from baccara.sim.distributed import check_backend

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


@pytest.fixture(scope="module")
def sim() -> dict:
    if importlib.util.find_spec("numba_cuda") is None:
        pytest.skip("numba-cuda is not installed (pip install -e '.[test,gpu]'; scripts/test.sh installs it)")
    env = {**os.environ, "NUMBA_ENABLE_CUDASIM": "1", "PYTHONPATH": str(ROOT / "src")}
    r = subprocess.run([sys.executable, str(ROOT / "tests" / "gpu_sim_cases.py")], capture_output=True, text=True,
                       env=env, timeout=600)
    assert r.returncode == 0, r.stderr[-4000:]
    return json.loads(r.stdout)


def test_the_cases_ran_on_the_simulator(sim):
    assert sim["simulator"] is True and sim["status"] is None
    # the CPU's modules (the runner, the punto banco job) never load numba-cuda
    assert sim["numba_cuda_loaded_by_cpu_modules"] is False


CASES = ["main", "side", "toml", "count", "count_file", "tableau", "tableau_values", "infinite", "csm", "jackpot",
         "cards", "cards_count", "cards_csm", "cards_infinite"]


@pytest.mark.parametrize("case", CASES)
def test_gpu_rows_are_the_cpu_rows_shoe_for_shoe(sim, case):
    """Shoes 5 .. 5 + n - 1 of the seed: every column of every row, the general CPU kernel's."""
    c = sim["cases"][case]
    assert len(c["gpu_rows"]) == c["shoes"] and c["gpu_rows"] == c["cpu_rows"]


@pytest.mark.parametrize("case", CASES)
def test_gpu_run_sums_are_the_cpu_run_sums(sim, case):
    """A whole run on the GPU (launches of 7 shoes, the last one short) adds up to the CPU's exact sums."""
    c = sim["cases"][case]
    assert c["backend"] == "gpu" and c["shoes"] > 7
    assert c["gpu_hands"] == c["cpu_hands"] > 0
    assert c["gpu_sums"] == c["cpu_sums"]


def test_the_cases_cover_every_path(sim):
    """Not a vacuous comparison: the flat-bet fast path and the general kernel, bets folded into classes and
    bets tallied coup by coup, count-driven bets placed on some coups but not all, pairs that pay."""
    cases = sim["cases"]
    assert cases["main"]["values_path"] and cases["tableau_values"]["values_path"]
    assert not cases["side"]["values_path"] and not all(cases["side"]["folded"])
    for name in ("count", "count_file"):
        c = cases[name]
        for b, folded in zip(c["columns"][4::3], c["folded"]):
            placed = c["cpu_sums"][b]
            if not folded:  # a counted bet: placed on some coups, not on all
                assert 0 < placed < c["cpu_hands"], (name, b, placed)
    # sums that could pass 2^63 within a launch come back as rows and are summed exactly on the CPU
    assert cases["jackpot"]["sums_on_cpu"] and not cases["side"]["sums_on_cpu"]
    assert cases["jackpot"]["cpu_sums"]["jackpot:net*jackpot:net"] > 2**59  # within a factor 16 of int64's 2^63
    side = cases["side"]["cpu_sums"]
    assert side["player_pair:wins"] > 0 and side["banker_pair:wins"] > 0
    assert cases["toml"]["cpu_sums"]["either_pair:wins"] > 0
    # the custom tableau deals other coups than the punto banco tableau from the same shoes
    assert cases["tableau"]["cpu_rows"] != cases["side"]["cpu_rows"]


def test_the_card_bet_cases_are_not_vacuous(sim):
    """Bets on the cards themselves (3 Giving 8, all red, a first card's rank, a bet of three payout levels on the
    third cards) beside main and pair bets, on every deal: tallied coup by coup, each of them winning, a count
    placing two of them on some coups only."""
    cases = sim["cases"]
    cards = ["three_giving_eight", "all_red", "first_card_ace", "third_cards"]
    for name in ("cards", "cards_count", "cards_csm", "cards_infinite"):
        c = cases[name]
        assert c["card_bets"] == cards and not c["values_path"], name
        folded = dict(zip([col.split(":")[0] for col in c["columns"][4::3]], c["folded"]))
        assert not any(folded[b] for b in cards), name
        for b in cards:
            assert c["cpu_sums"][f"{b}:wins"] > 0, (name, b)
        s = c["cpu_sums"]  # third_cards pays 40, 3 or 5: its winnings are no one level times its wins
        won = s["third_cards:net"] + s["third_cards:placed"] - s["third_cards:wins"]
        assert won not in {p * s["third_cards:wins"] for p in (40, 3, 5)}, name
    c = cases["cards_count"]
    for b in ("all_red", "third_cards"):
        assert 0 < c["cpu_sums"][f"{b}:placed"] < c["cpu_hands"], b
    # the same shoes, flat: the count changes nothing but where the counted bets are placed
    assert cases["cards"]["cpu_sums"]["three_giving_eight:net"] == c["cpu_sums"]["three_giving_eight:net"]


@pytest.mark.parametrize("name", ["three_giving_eight", "all_red"])
@pytest.mark.parametrize("kind", ["true", "running"])
def test_count_design_histogram_of_a_card_bet_on_the_gpu(sim, name, kind):
    """``count design --backend gpu`` on a bet on the cards: the CPU's bins; over all bins, the flat run's net
    (the same seed, shoes and deal as the "cards" case)."""
    h = sim["histogram"][f"{name}_{kind}"]
    assert h["gpu"] == h["cpu"]
    flat = sim["cases"]["cards"]
    assert sum(h["cpu"][0]) == flat["cpu_hands"] and sum(h["cpu"][1]) == flat["cpu_sums"][f"{name}:net"]
    assert sum(1 for x in h["cpu"][0] if x) > 2


def test_out_rows_are_the_same_across_launches(sim):
    rows = sim["rows"]
    assert rows["gpu"] == rows["cpu"]
    assert rows["gpu"]["shoe"] == list(range(17))
    assert 0 < sum(rows["gpu"]["dragon7_placed"]) < sum(rows["gpu"]["hands"])


def test_count_analysis_on_the_gpu_is_the_threads(sim):
    """``baccara count --backend gpu``: the count's and the perfect counter's figures are the threads' exactly,
    both run on the GPU (the run info says where)."""
    rep = sim["count_report"]
    assert rep["gpu"] == rep["threads"]
    assert rep["runs"][1]["count"]["backend"] == "gpu" and rep["runs"][1]["perfect"]["backend"] == "gpu"
    assert rep["runs"][0]["perfect"]["backend"] == "threads" and "note" not in rep["runs"][1]["perfect"]
    run = sim["count_report_running"]
    assert run["gpu"] == run["threads"]


def test_count_analysis_perfect_counter_on_the_gpu_is_the_threads(sim):
    """The count analysis's perfect counter on the GPU (9 shoes in launches of 7 and 2; the threads' chunks of 8
    and 1): every figure of the report the same, floats to the last bit (each coup's expectation comes back and
    is summed shoe by shoe as on the CPU); not vacuous: it bet, won and lost."""
    rep = sim["count_perfect"]["report"]
    assert rep["gpu"] == rep["threads"]
    assert [r["perfect"]["backend"] for r in rep["runs"]] == ["threads", "gpu"]
    p = rep["gpu"]["perfect"]
    assert p["shoes"] == 9 and 0 < p["bets"] < p["hands"], p
    assert rep["gpu"]["efficiency"] == rep["threads"]["efficiency"]


@pytest.mark.parametrize("every", [False, True])
def test_perfect_sums_on_the_gpu_are_the_compiled_threads(sim, every):
    """:func:`perfect_sums` with ``gpu=True`` (shoes 3 .. 11, two launches): each shoe's row and its sums of the
    expectations of its bets and (every coup priced, as the math report asks) of every coup, bit for bit."""
    c = sim["count_perfect"][f"sums_every_{every}"]
    assert c["gpu"] == c["cpu"]
    # the launches in order (each handed on once the next runs), folded by the Python fsum loop: the same sums
    assert c["launches"] == [0, 7] and c["reference"][1:3] == c["gpu"][1:3]
    table, ev_placed, ev_all, compiled = c["cpu"]
    assert compiled and len(table) == 9 and sum(r[1] for r in table) > 0 and any(x > 0 for x in ev_placed)
    assert (ev_all is not None) == every
    if every:
        assert all(x != 0 for x in ev_all)


def test_count_analysis_perfect_counter_on_pair_bets_stays_on_the_cpu(sim):
    """A pair bet's perfect counter (rank level, the exact engine in Python) runs on the CPU with
    ``--backend gpu`` (as with threads: processes, the exact engine holding the GIL), the count on the GPU; the run info's note says why; the figures are the threads'."""
    from baccara.sim.count_analysis import PERFECT_ON_CPU

    c = sim["count_perfect"]
    assert c["pair_on_gpu"] is False
    rep = c["pairs"]
    assert rep["gpu"] == rep["threads"] and rep["gpu"]["perfect"]["shoes"] == 1
    run = rep["runs"][1]
    assert run["count"]["backend"] == "gpu" and run["perfect"]["backend"] in ("threads", "processes")
    assert run["perfect"]["note"] == PERFECT_ON_CPU and "pair bets" in PERFECT_ON_CPU


PERFECT = ["sparse", "dense", "eight_decks"]


@pytest.mark.parametrize("case", PERFECT)
def test_perfect_counter_on_the_gpu_is_the_cpus_compiled_one(sim, case):
    """``--perfect`` on bets on card values: each GPU thread deals a shoe and prices its decisions by the CPU's own
    code compiled for the GPU: every column of every row (shoes 5 ..), the decisions taken and priced, and a
    whole run's exact sums (launches of 7 shoes) are the CPU's compiled perfect counter's."""
    c = sim["perfect"][case]
    assert c["on_gpu"]
    if "cpu_rows" in c:
        assert len(c["gpu_rows"]) == len(c["cpu_rows"]) > 0 and c["gpu_rows"] == c["cpu_rows"]
        assert c["gpu_taken"] == c["cpu_taken"] and c["cpu_taken"][0] > 0
    if "cpu_sums" in c:
        assert c["backend"] == "gpu" and c["launches"] == 2
        assert c["gpu_sums"] == c["cpu_sums"] and c["cpu_sums"]["hands"] > 0
        assert c["gpu_extra"] == c["cpu_extra"] and c["cpu_extra"]["evaluations"] > 0


def test_perfect_counter_cases_are_not_vacuous(sim):
    """Both ways of pricing (the sparse numerators, the value kernel's cells), bets whose lowest payout is their
    most common one and one whose is not (Big), decisions settled without pricing (8 decks), bets placed on some
    coups only and winning; the --out rows of a run across launches, and its sums summed from them on the CPU."""
    p = sim["perfect"]
    assert not p["sparse"]["dense"] and not p["eight_decks"]["dense"] and p["dense"]["dense"]
    assert p["sparse"]["rising"] and not p["dense"]["rising"]
    d, priced = p["eight_decks"]["cpu_taken"]
    assert 0 < priced < d
    for name, bets in (("sparse", ["dragon7"]), ("dense", ["banker", "player", "big"])):
        s = p[name]["cpu_sums"]
        for b in bets:
            assert 0 < s[f"{b}:placed"] < s["hands"] and s[f"{b}:wins"] > 0, (name, b)
    cols = p["eight_decks"]["columns"]
    placed = [sum(r[cols.index(f"{b}:placed")] for r in p["eight_decks"]["cpu_rows"]) for b in ("dragon7", "panda8")]
    assert all(x > 0 for x in placed)
    kept = p["sparse"]
    assert kept["sums_on_cpu"] and kept["gpu_kept"] == kept["cpu_kept"]
    assert kept["gpu_kept"]["shoe"] == list(range(8)) and sum(kept["gpu_kept"]["dragon7_placed"]) > 0


def test_cli_perfect_on_the_gpu_is_the_threads(sim):
    """``simulate punto --perfect --backend gpu``: the JSON (the perfect counter's decisions included) and the
    --out file of the CPU's compiled perfect counter."""
    cli = sim["cli"]
    threads, on_gpu = cli["perfect_threads"], cli["perfect_gpu"]
    assert on_gpu["json"] == threads["json"] and on_gpu["rows"] == threads["rows"]
    assert on_gpu["run"]["backend"] == "gpu" and on_gpu["json"]["perfect"]["evaluations"] > 0
    assert sum(on_gpu["rows"]["dragon7_placed"]) > 0


def test_dry_run_on_the_gpu_times_the_gpu_and_says_it_was_the_simulator(sim):
    """``--dry-run --backend gpu``: the GPU's line from short launches of the job's own kernel (here on the
    simulator, and said so), beside the CPU backends'; 10^10 shoes need --allow-long on the CPU's cores, not at
    the GPU's nominal rate; the perfect counter's dry run times its GPU kernel too."""
    dry = sim["cli"]["dry_run"]
    code, doc, err = dry["flat"]
    assert code == 0, err
    g = doc["backends"]["gpu"]
    assert g["simulator"] is True and g["workers"] == 1 and g["shoes"] > 0 and g["hands"] > 0
    assert g["seconds"] == pytest.approx(g["timed_seconds"] / g["shoes"] * 10**10)
    assert {"threads", "processes", "dask"} <= set(doc["backends"])
    assert doc["workers"] == 1 and doc["seconds"] < 3600  # the GPU's nominal rate: no --allow-long
    text = " ".join(err.split())
    assert "--backend gpu:" in text and "CUDA simulator" in text and "says nothing of a real GPU" in text
    assert "on 1 GPU, at a nominal rate" in text
    code, _, err = dry["threads"]
    assert code == 2 and "--allow-long" in err and "one core's work" in err
    code, doc, err = dry["perfect"]
    assert code == 0, err
    assert doc["evaluations"] > 0 and doc["backends"]["gpu"]["simulator"] and doc["backends"]["gpu"]["hands"] > 0


@pytest.mark.parametrize("kind", ["true", "running"])
def test_count_design_histogram_on_the_gpu(sim, kind):
    h = sim["histogram"][kind]
    assert h["gpu"] == h["cpu"]
    assert sum(h["cpu"][0]) > 100 and sum(1 for x in h["cpu"][0] if x) > 2  # coups spread over several bins


def test_cli_backend_gpu_json_and_out_file(sim):
    cli = sim["cli"]
    assert cli["gpu"]["json"] == cli["threads"]["json"]
    assert cli["gpu"]["rows"] == cli["threads"]["rows"] and len(cli["gpu"]["rows"]["shoe"]) == 13
    assert cli["gpu"]["meta"] == cli["threads"]["meta"]
    assert cli["gpu"]["run"]["backend"] == "gpu"


def test_cli_count_design_on_the_gpu(sim):
    threads, on_gpu = sim["cli"]["design"]
    assert on_gpu == threads and on_gpu["shoes"] == 30


@pytest.mark.parametrize(("key", "words"), [
    ("workers_error", ["--workers", "--backend gpu"]),
    ("perfect_error", ["--backend gpu", "perfect counter", "card values only", "pair bets", "--backend threads"]),
    ("perfect_big_error", ["--backend gpu runs the perfect counter on shoes of at most 15 decks for these bets",
                           "30-deck shoe", "64-bit integers", "--decks 15 or fewer", "--backend threads"]),
])
def test_cli_gpu_refuses_what_it_does_not_run(sim, key, words):
    code, err = sim["cli"][key]
    assert code == 2 and err.startswith("error:") and "Traceback" not in err
    err = " ".join(err.split())
    for w in words:
        assert w in err
    assert ("pair bets" in err) == (key == "perfect_error") and ("64-bit" in err) == (key == "perfect_big_error")


def test_kernels_compile_for_a_real_gpu_with_the_cpus_float_arithmetic():
    """Compiled to PTX for sm_90 (where a CUDA toolkit is on disk): what the simulator cannot check.  The flat-bet
    kernel is integers only (no uint64 / int64 mix turned float); the count's float64 arithmetic has no fused
    multiply-add and divides with IEEE rounding, as the CPU does, so the true counts are the CPU's to the bit."""
    if importlib.util.find_spec("numba_cuda") is None:
        pytest.skip("numba-cuda is not installed")
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_ENABLE_CUDASIM"}
    env["PYTHONPATH"] = str(ROOT / "src")
    r = subprocess.run([sys.executable, str(ROOT / "tests" / "gpu_ptx_check.py")], capture_output=True, text=True,
                       env=env, timeout=600)
    if r.returncode == 3:
        pytest.skip("no CUDA toolkit (libNVVM and libdevice) on this machine")
    assert r.returncode == 0, r.stderr[-4000:]
    ops = json.loads(r.stdout)
    assert ops["values"] == []
    # the perfect counter decides on exact integers; its only floats are the expectations it can keep per coup
    # (none on the GPU), computed as the CPU computes them: no fused multiply-add
    assert "setp.gt.f64" not in ops["perfect"] and not [o for o in ops["perfect"] if o.startswith("fma")]
    # the count analysis's keeps every coup's: an integer over (an integer times the denominator), IEEE-rounded
    ev = ops["perfect_ev"]
    assert {"cvt.rn.f64", "mul.f64", "div.rn.f64"} <= set(ev), ev
    assert not [o for o in ev if o.startswith("fma") or "approx" in o], ev
    for name in ("general", "general_cards", "histogram"):  # general_cards: the card engine's functions inlined
        assert "div.rn.f64" in ops[name] and "mul.f64" in ops[name], ops[name]
        assert not [o for o in ops[name] if o.startswith("fma") or "approx" in o], ops[name]


def test_the_device_check_script_runs_at_smoke_sizes(sim):
    """benchmarks/device_check_gpu.py, prepared for a GPU, runs end to end (``--smoke``, on the simulator)."""
    dc = sim["device_check"]
    assert dc["exit"] == 0, dc["printed"]
    doc = dc["json"]
    assert [r["rows_equal"] and r["sums_equal"] for r in doc["identity"]] == [True] * 4
    assert doc["gpu"]["flat"]["hands"] > 0 and doc["gpu"]["side+count"]["hands"] > 0
    assert [r["workers"] for r in doc["cpu_threads"]][0] == 1
    assert [r["rows_equal"] for r in doc["perfect"]] == [True, True] and doc["perfect"][0]["gpu"]["evaluations"] > 0
    for line in ("identity, CPU kernels vs GPU", "GPU, hands per second", "CPU threads, flat main bets",
                 "the perfect counter on card values", "processes and a local Dask cluster",
                 "the perfect counter on card values on the CPU", "goals (issue 44)"):
        assert line in dc["printed"]
    assert dc["out_json"] == doc  # $OUT/device_check.json, where the device's output folder is set
    # the threads' scaling: CPU seconds and the machine's own speed-up (a perfectly parallel kernel) beside each
    assert all(r["cpu_seconds"] > 0 and r["machine"] > 0 for r in doc["cpu_threads"])
    # processes and a local Dask cluster at the most workers and at 2, each run dealing the threads' very hands
    threads_hands = doc["cpu_threads"][-1]["hands"]
    assert [(r["backend"], r["workers"], r["hands"]) for r in doc["backends"]["top"]] == \
        [("processes", 2, threads_hands), ("dask", 2, threads_hands)]
    assert [r["backend"] for r in doc["backends"]["two"]] == ["threads", "processes", "dask"]
    assert len({r["hands"] for r in doc["backends"]["two"]}) == 1 and doc["dask_skipped"] is None
    assert all(r["cpu_vs_threads"] > 0 and r["efficiency"] > 0 for r in doc["backends"]["top"])
    # the perfect counter on the CPU: microseconds a coup on one thread per set of bets, and its threads' scaling
    one = doc["perfect_cpu"]["one_thread"]
    assert [r["bets"] for r in one] == ["dragon7+panda8", "banker+player"]
    assert all(r["us_per_coup"] == pytest.approx(1e6 * r["seconds"] / r["hands"]) for r in one)
    assert [r["workers"] for r in doc["perfect_cpu"]["threads"]] == [1, 2]
    assert doc["perfect_cpu"]["threads"][0]["efficiency"] == 1
    # every goal of the issue is there, with a verdict where it was measured (16 workers are not, at smoke sizes)
    assert len(doc["goals"]) == 12 and sum(g["measured"] is None for g in doc["goals"]) == 2
    assert all(isinstance(g["passed"], bool) for g in doc["goals"] if g["measured"] is not None)
    assert all(g["passed"] is None for g in doc["goals"] if "16 workers" in g["goal"])
    assert dc["verdicts"] == [True, False, True, False, None]
    # without Dask: one line that names every wheel to carry, and which one is built for a platform
    assert all(name in dc["dask_skipped"] for name in dc["dask_wheels"]) and "tornado's is built" in \
        dc["dask_skipped"]


def test_report_on_the_gpu_is_the_threads(sim):
    """``baccara report --backend gpu``: its count design's histogram, its count and its perfect counter (with the
    cut card's effect) ran on the GPU (nothing else did), and every figure of the report is the threads' (the same
    integers, the same floats); a note says what ran where."""
    rep = sim["report"]
    assert rep["launched_threads"] == []
    assert rep["launched_gpu"] == [["histogram", 30], ["count", 20], ["perfect", 9]]
    threads, on_gpu = rep["threads"], rep["gpu"]
    assert threads["count"] is not None and threads["penetrations"][0]["count"]["bets"] > 0  # not vacuous
    perfect = threads["penetrations"][0]["perfect"]
    assert perfect["shoes"] == 9 and perfect["bets"] > 0 and perfect["win_per_100_hands"]["value"] > 0
    assert on_gpu["penetrations"][0]["perfect"] == perfect
    assert on_gpu["penetrations"][0]["cut_card_effect"] == threads["penetrations"][0]["cut_card_effect"]
    differ = {"made", "seconds", "command", "settings", "notes"}
    assert {k: v for k, v in on_gpu.items() if k not in differ} == \
        {k: v for k, v in threads.items() if k not in differ}
    assert {**on_gpu["settings"], "backend": "threads"} == threads["settings"] and \
        on_gpu["settings"]["backend"] == "gpu"
    where, *rest = on_gpu["notes"]
    assert rest == threads["notes"] and not any("where it ran" in n for n in threads["notes"])
    assert where.startswith("where it ran: the count design's histogram (30 shoes), the count at each cut (20 "
                            "shoes) and the perfect counter and the cut card's effect (9 shoes at each cut) on the "
                            "GPU, the same figures as on the CPU's threads")
    assert where.endswith("on the GPU, the same figures as on the CPU's threads")  # nothing on the CPU (no check)
    cli = rep["cli_gpu"]  # the command line: the same count, and the command says --backend gpu
    assert cli["count"] == threads["count"] and cli["penetrations"] == threads["penetrations"]
    assert cli["command"].endswith("--backend gpu") and cli["notes"][0] == where
    code, err = rep["bad_backend"]
    assert code == 2 and err.startswith("error: --backend of report must be threads or gpu, got 'dask'")


def _as_if_a_gpu(monkeypatch) -> dict:
    """No GPU is needed to size a run for one: ``check_gpu`` passes, and the run itself is stopped (raising) once
    sized, its arguments kept."""
    from baccara.punto import mathreport
    from baccara.sim import count_analysis, count_design

    monkeypatch.setattr(gpu, "check_gpu", lambda: None)
    monkeypatch.setattr(gpu, "simulator", lambda: False)  # a real GPU's, even under NUMBA_ENABLE_CUDASIM=1
    asked: dict = {}

    def stop(*args, **kw):
        asked.update(kw)
        raise ParameterError("sized; not run")

    for module, name in ((mathreport, "math_report"), (count_design, "design_count"),
                         (count_analysis, "analyse_count")):
        monkeypatch.setattr(module, name, stop)
    return asked


def test_default_runs_on_the_gpu_are_sized_from_its_nominal_rate(monkeypatch):
    """``report``, ``count design`` and ``count`` with ``--backend gpu`` and no sizes: the GPU's part sized from its
    nominal rate (the sizing line says it was not measured), at least 10^6 shoes for the report's designed count
    and, on a bet on card values, its perfect counter within their budgets; the perfect counter on pair bets
    measured on the CPU's cores."""
    from baccara.cli import app
    from baccara.commands import count as count_command
    from baccara.commands import report as report_command
    from baccara.sim.limits import NOMINAL_GPU_EVALUATIONS_RATE, NOMINAL_GPU_RATES, hands_per_shoe, size_on_gpu

    asked = _as_if_a_gpu(monkeypatch)
    r = runner.invoke(app, ["report", "--bet", "dragon7", "--perfect-shoes", "3", "--backend", "gpu"])
    assert r.exit_code == 2 and "sized; not run" in r.stderr
    design = size_on_gpu("the count design", 8, 14, report_command.DESIGN_BUDGET, 1, 10**9)
    per_shoe = hands_per_shoe("punto", 8, "cut", 14, 0) / NOMINAL_GPU_RATES["count"]
    assert design.per_shoe == pytest.approx(per_shoe) and design.seconds <= report_command.DESIGN_BUDGET
    assert asked["design_shoes"] == design.shoes >= 10**6 and asked["backend"] == "gpu"
    assert asked["count_shoes"] == size_on_gpu("", 8, 14, report_command.COUNT_BUDGET, 1, 10**9).shoes
    err = " ".join(r.stderr.split())
    assert f"report: the count design on {design.shoes:,} shoes: sized to about 6.0 s on the GPU at its nominal " \
           f"rate ({NOMINAL_GPU_RATES['count']:,.0f} hands" in err and "shoes a second; not measured)" in err
    assert "report: the count, at each cut, on" in err and err.count("on the GPU at its nominal rate") == 2

    asked.clear()  # the perfect counter too, on a bet on card values
    r = runner.invoke(app, ["report", "--bet", "dragon7", "--backend", "gpu"])
    assert r.exit_code == 2 and "sized; not run" in r.stderr
    perfect = size_on_gpu("", 8, 14, report_command.PERFECT_BUDGET, 1, 10**7, kind="perfect")
    assert perfect.per_shoe == pytest.approx(hands_per_shoe("punto", 8, "cut", 14, 0) / NOMINAL_GPU_EVALUATIONS_RATE)
    assert asked["perfect_shoes"] == perfect.shoes >= 10**6 and perfect.seconds <= report_command.PERFECT_BUDGET
    assert asked["design_shoes"] >= 10**6
    err = " ".join(r.stderr.split())
    assert f"report: the perfect counter, at each cut, on {perfect.shoes:,} shoes: sized to about 15 s on the GPU " \
           f"at its nominal rate ({NOMINAL_GPU_EVALUATIONS_RATE:,.0f} exact evaluations" in err and err.count("not measured") == 3

    asked.clear()  # a pair bet's perfect counter: measured on the CPU
    r = runner.invoke(app, ["report", "--bet", "player_pair", "--decks", "1", "--backend", "gpu"])
    assert r.exit_code == 2 and "sized; not run" in r.stderr
    err = " ".join(r.stderr.split())
    assert "report: the perfect counter, at each cut, on the CPU, on" in err and "(measured" in err
    assert err.count("not measured") == 2

    asked.clear()
    r = runner.invoke(count_app, ["design", "--bet", "dragon7", "--decks", "6", "--cut", "20", "--backend", "gpu"])
    assert r.exit_code == 2 and asked["backend"] == "gpu"
    shoes = size_on_gpu("", 6, 20, count_command.DESIGN_BUDGET, count_command.DESIGN_LEAST, 10**9).shoes
    assert asked["shoes"] == shoes > count_command.DESIGN_LEAST
    assert f"sizing: the count design on {shoes:,} shoes: sized to about 5.0 s on the GPU at its nominal rate" \
        in " ".join(r.stderr.split())

    asked.clear()
    r = runner.invoke(count_app, ["--bet", "dragon7", "--decks", "1", "--count", str(ROOT / "examples" / "counts" /
                                  "dragon7.toml"), "--budget", "2", "--backend", "gpu"])
    assert r.exit_code == 2 and asked["backend"] == "gpu" and asked["workers"] is None
    err = " ".join(r.stderr.split())
    assert f"sizing: the count on {asked['shoes']:,} shoes: sized to about 1.0 s on the GPU at its nominal" in err
    assert asked["shoes"] == size_on_gpu("", 1, 14, 1, count_command.COUNT_LEAST, 10**9).shoes
    perfect = size_on_gpu("", 1, 14, 1, count_command.PERFECT_LEAST, asked["shoes"], kind="perfect")
    assert asked["perfect_shoes"] == perfect.shoes > count_command.PERFECT_LEAST
    assert f"sizing: the perfect counter on {perfect.shoes:,} shoes: sized to about 1.0 s on the GPU at its " \
           f"nominal rate ({NOMINAL_GPU_EVALUATIONS_RATE:,.0f} exact evaluations" in err and err.count("not measured") == 2


def test_default_runs_on_the_cuda_simulator_are_sized_from_a_timed_launch(monkeypatch):
    """Under the CUDA simulator a shoe takes milliseconds of this CPU: ``count`` and ``count design`` size the GPU's
    part from a short timed launch of their own job there (as a dry run times it), not from a GPU's nominal rate
    (3,000,000 shoes for a budget of 1 s, hours on the simulator), and not held to the least of a real run; the
    line says "the CUDA simulator"."""
    from baccara.sim.count_analysis import CountJob

    asked = _as_if_a_gpu(monkeypatch)
    monkeypatch.setattr(gpu, "simulator", lambda: True)
    timed = []

    def estimate(job, seconds):  # 100 shoes a second on the simulator, a tenth of that for the perfect counter
        timed.append((type(job), job.perfect, seconds))
        shoes = 2 if job.perfect else 20
        return {"shoes": shoes, "timed_seconds": 0.2, "simulator": True}

    monkeypatch.setattr(gpu, "estimate_gpu", estimate)
    r = runner.invoke(count_app, ["--bet", "dragon7", "--count", str(ROOT / "examples" / "counts" / "dragon7.toml"),
                                  "--budget", "2", "--backend", "gpu"])
    assert r.exit_code == 2 and "sized; not run" in r.stderr
    assert asked["shoes"] == 100 and asked["perfect_shoes"] == 10  # 1 s each at the rates timed
    assert [(t, p) for t, p, _ in timed] == [(CountJob, False), (CountJob, True)]
    assert all(s <= 0.2 for _, _, s in timed)  # a short launch, within the budget
    err = " ".join(r.stderr.split())
    assert "sizing: the count on 100 shoes: sized to about 1.0 s on the CUDA simulator (measured 100 shoes a " \
           "second there" in err and "sizing: the perfect counter on 10 shoes" in err
    assert "nominal" not in err
    asked.clear()
    r = runner.invoke(count_app, ["design", "--bet", "dragon7", "--budget", "1", "--backend", "gpu"])
    assert r.exit_code == 2 and asked["shoes"] == 100 and "on the CUDA simulator" in " ".join(r.stderr.split())
    from baccara.cli import app
    from baccara.commands import report as report_command

    asked.clear()
    r = runner.invoke(app, ["report", "--bet", "dragon7", "--backend", "gpu"])
    assert r.exit_code == 2 and "sized; not run" in r.stderr
    assert asked["design_shoes"] == round(100 * report_command.DESIGN_BUDGET)
    assert asked["count_shoes"] == round(100 * report_command.COUNT_BUDGET)
    assert asked["perfect_shoes"] == round(10 * report_command.PERFECT_BUDGET)
    assert " ".join(r.stderr.split()).count("on the CUDA simulator (measured") == 3


def test_a_default_count_on_the_cuda_simulator_ends_within_a_few_times_its_budget(sim):
    run = sim["cli"]["sized_count"]
    assert run["exit"] == 0, run["stderr"]
    sizing = run["doc"]["run"]["sizing"]
    assert [s["what"] for s in sizing] == ["the count", "the perfect counter"]
    assert all(s["simulator"] and s["on"] == "gpu" and s["budget_seconds"] == 1 for s in sizing)
    assert " ".join(run["stderr"].split()).count("on the CUDA simulator (measured") == 2
    assert run["seconds"] < 7.5 * 2, run["seconds"]  # its budget is 2 s; at a GPU's nominal rate, hours


def test_a_sizing_line_on_the_gpu_says_its_rate_is_nominal():
    from baccara.sim.limits import size_on_gpu
    from baccara.workload import Sizing

    s = size_on_gpu("the count", 8, 14, 10, 1000, 10**9)
    assert s.workers == 1 and s.gpu == 5e8 and s.shoes * s.per_shoe <= 10 < s.shoes * s.per_shoe * 1.1
    assert s.to_json()["on"] == "gpu" and s.to_json()["nominal_rate_per_second"] == 5e8
    assert s.to_json()["nominal_rate_counts"] == "hands"
    assert "on the GPU at its nominal rate (500,000,000 hands, about" in s.describe()
    assert s.describe().endswith("shoes a second; not measured)")
    perfect = size_on_gpu("the perfect counter", 8, 14, 10, 1000, 10**9, kind="perfect")
    assert "(8,000,000 exact evaluations, about" in perfect.describe()  # its rate counts evaluations, not hands
    assert perfect.to_json()["nominal_rate_counts"] == "exact evaluations"
    on_cpu = Sizing("x", 10, 2, 1.0, 0.1).describe()  # the CPU's: measured here
    assert "nominal" not in on_cpu and "GPU" not in on_cpu and "(measured 10 shoes a second on one core)" in on_cpu


# ---------------------------------------------------------------- without a GPU (this process)
def _no_gpu_here() -> bool:
    return gpu.gpu_status() is not None


needs_no_gpu = pytest.mark.skipif("not _no_gpu_here()", reason="a GPU (or the simulator) is available here")


@needs_no_gpu
def test_without_a_gpu_the_cli_exits_2_saying_what_is_needed():
    r = runner.invoke(simulate_app, ["punto", "--shoes", "10", "--backend", "gpu"])
    assert r.exit_code == 2, r.output
    err = " ".join(r.stderr.split())
    assert err.startswith("error: --backend gpu needs numba-cuda and a CUDA GPU")
    assert "pip install 'baccara[gpu]'" in err and "NUMBA_ENABLE_CUDASIM=1" in err
    r = runner.invoke(count_app, ["design", "--bet", "dragon7", "--shoes", "10", "--backend", "gpu"])
    assert r.exit_code == 2 and "--backend gpu needs" in r.stderr
    from baccara.cli import app

    r = runner.invoke(app, ["report", "--bet", "dragon7", "--backend", "gpu"])  # before any work, no traceback
    assert r.exit_code == 2 and r.stderr.startswith("error: --backend gpu needs numba-cuda and a CUDA GPU")
    assert "Traceback" not in r.output


@needs_no_gpu
def test_without_a_gpu_the_report_raises_a_parameter_error():
    from baccara.punto.mathreport import math_report

    with pytest.raises(ParameterError, match=r"backend gpu needs numba-cuda and a CUDA GPU"):
        math_report(2, "dragon7", count_shoes=0, backend="gpu")
    with pytest.raises(ParameterError, match=r"backend of report must be threads or gpu, got .dask."):
        math_report(2, "dragon7", count_shoes=0, backend="dask")


@needs_no_gpu
def test_without_a_gpu_python_raises_a_parameter_error():
    with pytest.raises(ParameterError, match=r"backend gpu needs numba-cuda and a CUDA GPU"):
        check_backend("gpu", None, None)
    from baccara import sim as S

    with pytest.raises(ParameterError, match="baccara\\[gpu\\]"):
        S.play_punto(10, seed=1, backend="gpu")


def test_without_numba_cuda_installed(monkeypatch):
    """numba-cuda missing: the same clear error, and the CPU backends as before."""
    monkeypatch.setitem(sys.modules, "numba.cuda", None)  # `from numba import cuda` now raises ImportError
    reason = gpu.gpu_status()
    assert reason is not None and reason.startswith("numba-cuda is not installed")
    with pytest.raises(ParameterError, match="pip install 'baccara\\[gpu\\]'"):
        gpu.check_gpu()
    r = runner.invoke(simulate_app, ["punto", "--shoes", "3", "--seed", "1", "--workers", "1", "--json"])
    assert r.exit_code == 0 and json.loads(r.stdout)["shoes"] == 3


def test_gpu_refuses_shoes_it_cannot_hold(monkeypatch):
    monkeypatch.setattr(gpu, "check_gpu", lambda: None)  # as if a GPU were here: the size is checked first
    from baccara.punto.bets import builtin_bets
    from baccara.sim.punto import PuntoJob

    job = PuntoJob(seed=1, shoes=1, decks=gpu.MAX_GPU_DECKS + 1, bets=(builtin_bets()["banker"],))
    with pytest.raises(ParameterError, match="at most 100 decks"):
        gpu.run_gpu(job, lambda c: None)


def test_count_design_takes_threads_or_gpu():
    r = runner.invoke(count_app, ["design", "--bet", "dragon7", "--shoes", "10", "--backend", "dask"])
    assert r.exit_code == 2 and "--backend of count design must be threads or gpu" in r.stderr


def test_other_games_are_refused_by_name():
    class CheminJob:
        pass

    why = gpu.unsupported(CheminJob())
    assert why is not None and "--backend gpu deals punto banco" in why and "CheminJob" in why


def test_the_perfect_counter_the_gpu_does_not_run_is_refused_by_name():
    """Pair bets (rank level, the exact engine in Python) stay on the CPU, in ``simulate punto --perfect`` and in
    the count analysis; the perfect counter on card values is the GPU's in both."""
    from baccara.punto.bets import builtin_bets
    from baccara.sim.count_analysis import CountJob
    from baccara.sim.punto import PuntoJob

    bets = builtin_bets()
    pairs = PuntoJob(seed=1, shoes=1, decks=1, bets=(bets["banker"], bets["player_pair"]), perfect=True)
    why = gpu.unsupported(pairs)
    assert why is not None and "card values only" in why and "pair bets" in why and "--backend threads" in why
    analysis = CountJob(seed=1, shoes=1, decks=1, bet=bets["player_pair"], cut=11)
    why = gpu.unsupported(analysis)
    assert why is not None and "card values only" in why and "pair bets" in why
    assert gpu.unsupported(CountJob(seed=1, shoes=1, decks=1, bet=bets["dragon7"], cut=11)) is None
    assert gpu.unsupported(PuntoJob(seed=1, shoes=1, decks=1, bets=(bets["dragon7"],), perfect=True)) is None


def test_a_shoe_too_large_for_the_gpus_perfect_counter_is_refused_for_its_size():
    """A bet on card values on a shoe whose exact counts could overflow 64-bit integers: refused for that reason
    (not for pair bets), with the most decks the GPU takes; a larger payout lowers it (Dragon 7 pays 40:1), and
    the message says so."""
    from baccara.punto.bets import builtin_bets
    from baccara.sim.count_analysis import CountJob
    from baccara.sim.limits import max_perfect_decks, perfect_fits_int64
    from baccara.sim.punto import PuntoJob

    most = max_perfect_decks()
    assert perfect_fits_int64(most) and not perfect_fits_int64(most + 1)
    assert 4 * (52 * 22) ** 6 < 2**63 <= 4 * (52 * 23) ** 6 and most == 22  # the ordered deals of six cards
    bets = builtin_bets()
    for job in (PuntoJob(seed=1, shoes=1, decks=30, bets=(bets["player"],), perfect=True),
                CountJob(seed=1, shoes=1, decks=30, bet=bets["player"], cut=14)):
        why = gpu.unsupported(job)
        assert why is not None and why.startswith(f"--backend gpu runs the perfect counter on shoes of at most "
                                                  f"{most} decks: the exact counts of a 30-deck shoe could overflow "
                                                  f"64-bit integers")
        assert f"--decks {most} or fewer" in why and "pair bets" not in why and "--backend threads" in why
    fewer = max_perfect_decks(40)  # Dragon 7: 40 times the (N)_6 deals of N cards
    assert 40 * math.perm(52 * fewer, 6) < 2**63 <= 40 * math.perm(52 * (fewer + 1), 6) and fewer < most
    for decks in (fewer + 1, 30):
        why = gpu.unsupported(PuntoJob(seed=1, shoes=1, decks=decks, bets=(bets["dragon7"],), perfect=True))
        assert why is not None and why.startswith(f"--backend gpu runs the perfect counter on shoes of at most "
                                                  f"{fewer} decks for these bets")
        assert f"{decks}-deck shoe" in why and f"--decks {fewer} or fewer" in why
    assert gpu.unsupported(PuntoJob(seed=1, shoes=1, decks=fewer, bets=(bets["dragon7"],), perfect=True)) is None
    from baccara.sim.limits import gpu_perfect_refusal

    huge = 2**62  # a payout that no deck can hold: no "at most 0 decks"
    assert max_perfect_decks(huge) == 0
    why = gpu_perfect_refusal(1, True, huge)
    assert why is not None and "even one deck" in why and "0 decks" not in why and "--backend threads" in why


def test_unknown_backends_are_still_refused():
    with pytest.raises(ParameterError, match="backend must be one of threads, processes, dask, gpu"):
        check_backend("tpu", None, None)
    with pytest.raises(ParameterError, match="scheduler"):
        check_backend("gpu", None, "tcp://127.0.0.1:8786")
