"""Run by tests/test_sim_gpu.py in a process of its own, under numba-cuda's CUDA simulator.

``NUMBA_ENABLE_CUDASIM=1`` must be set before Numba is first imported, and it changes ``numba.cuda`` for the whole
process: so the GPU kernels are run here, not in the test process, and each case's CPU and GPU results are
printed as one JSON document for the tests to compare.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"


def main() -> None:
    import os

    assert os.environ.get("NUMBA_ENABLE_CUDASIM") == "1", "run under NUMBA_ENABLE_CUDASIM=1"
    import baccara
    from baccara.sim import distributed, punto  # noqa: F401  (the CPU runner, imported as by every simulation)

    doc: dict = {"numba_cuda_loaded_by_cpu_modules": "numba.cuda" in sys.modules}

    import numpy as np

    from baccara.punto.bets import bet_from_mapping, builtin_bets, load_bets_toml
    from baccara.rules import PUNTO_BANCO, load_tableau_toml
    from baccara.sim import _punto_kernel as K
    from baccara.sim import gpu
    from baccara.sim.count_analysis import analyse_count
    from baccara.sim.count_design import count_histogram
    from baccara.sim.counting import count_from_mapping, load_count_toml
    from baccara.sim.distributed import run
    from baccara.sim.punto import PuntoJob, bets_from_names

    doc["simulator"] = gpu.simulator()
    doc["status"] = gpu.gpu_status()
    gpu.SIMULATOR_LAUNCH_SHOES = 7  # several launches, the last one short
    available = dict(builtin_bets())
    toml_bets = load_bets_toml(EXAMPLES / "side_bets.toml")
    available.update(toml_bets)
    with tempfile.TemporaryDirectory() as tmp:  # a jackpot so large that a launch's sums could pass 2^63
        path = Path(tmp) / "jackpot.toml"
        path.write_text('[bets.jackpot]\nrules = [ { when = { any_pair = true }, pays = 300000000 } ]\n')
        available.update(load_bets_toml(path))
    # bets on the cards themselves: from the gallery, and one of several payout levels on the third cards
    gallery = load_bets_toml(EXAMPLES / "gallery.toml")
    card_bets = ("three_giving_eight", "all_red", "first_card_ace", "third_cards")
    available.update({n: gallery[n] for n in card_bets[:3]})
    available["third_cards"] = bet_from_mapping("third_cards", {"rules": [
        {"when": {"player_card3_value": 0, "banker_card3_rank": ["K", "Q"]}, "pays": 40},
        {"when": {"player_card3_value": 0}, "pays": 3},
        {"when": {"banker_card3_suit": "hearts"}, "pays": 5}]})
    card_count = count_from_mapping({
        "name": "cards", "tags": {"4": -1, "5": -1, "6": -1, "8": 2, "9": 2, "K": 1},
        "bets": [{"name": "all_red", "count": "running", "at_least": -2, "at_most": 3},
                 {"name": "third_cards", "count": "true", "at_least": -0.5},
                 {"name": "tie", "count": "running", "at_least": -3, "at_most": 2}]})
    small_count = count_from_mapping({
        "name": "test", "tags": {"4": -1, "5": -1, "6": -1, "7": -1, "8": 2, "9": 2, "K": 1},
        "bets": [{"name": "dragon7", "count": "true", "at_least": 0.5},
                 {"name": "tie", "count": "running", "at_least": -3, "at_most": 2}]})
    tie_count = count_from_mapping({"name": "tie", "tags": {"6": -2, "7": -2, "8": 1, "9": 1, "10": 1},
                                    "bets": [{"name": "tie", "count": "running", "at_least": -2, "at_most": 3}]})
    tableau = load_tableau_toml(EXAMPLES / "tableaux" / "badoureau_d1.toml")
    assert tableau != PUNTO_BANCO

    def job(names, shoes, seed=11, **kw):
        return PuntoJob(seed=seed, shoes=shoes, bets=bets_from_names(names, available), **kw)

    cases = {
        "main": job(("banker", "player", "tie"), 15, decks=8),
        "side": job(("banker", "tie", "dragon7", "panda8", "super6", "ez_banker", "player_pair", "banker_pair",
                     "dragon_bonus_player", "dragon_bonus_banker"), 15, decks=2),
        "toml": job(("banker", *toml_bets), 15, decks=2),
        "count": job(("banker", "dragon7", "tie"), 15, decks=2, count=small_count),
        "count_file": job(("tie",), 12, decks=2, count=load_count_toml(EXAMPLES / "counts" / "tie_67.toml")),
        "tableau": job(("banker", "player", "tie", "player_pair"), 15, decks=2, tableau=tableau),
        "tableau_values": job(("banker", "tie"), 15, decks=1, cut=11, tableau=tableau),
        "infinite": job(("banker", "tie", "player_pair"), 12, decks=None, deal="infinite", coups=25),
        "jackpot": job(("banker", "jackpot"), 12, decks=2),
        "csm": job(("banker", "tie", "banker_pair"), 12, decks=1, deal="csm", coups=25),
        # (seed 10: a 3 Giving 8 wins in these shoes)
        "cards": job(("banker", "player", "tie", *card_bets, "player_pair"), 15, 10, decks=2),
        "cards_count": job(("banker", "tie", "dragon7", *card_bets), 15, 10, decks=2, count=card_count),
        "cards_csm": job(("banker", *card_bets), 12, decks=1, deal="csm", coups=25),
        "cards_infinite": job(("player", *card_bets), 12, decks=None, deal="infinite", coups=25),
    }
    first = 5
    out = {}
    for name, j in cases.items():
        args = j.kernel_args()
        cpu = np.zeros((j.shoes, len(j.columns())), dtype=np.int64)
        K.punto_chunk(j.seed, first, cpu, *args)
        fold = args[16]  # the kernel arguments: ..., cls, kwin, kpay, fold, then the card bets (or None)
        t_cpu, _ = run(j, "threads", 1)
        t_gpu, info = run(j, "gpu")
        out[name] = {"cpu_rows": cpu.tolist(), "gpu_rows": gpu.punto_rows_gpu(j, first, j.shoes).tolist(),
                     "cpu_sums": t_cpu.sums, "gpu_sums": t_gpu.sums, "cpu_hands": t_cpu.hands,
                     "gpu_hands": t_gpu.hands, "shoes": t_gpu.shoes, "backend": info.backend,
                     "folded": [bool(x) for x in fold], "values_path": gpu._Plan(j, None).fast,
                     "columns": j.columns(), "sums_on_cpu": gpu._Plan(j, None).rows,
                     "card_bets": [b.name for b in j.bets if b.card_level]}
    doc["cases"] = out

    # --out rows: the same per-shoe rows, in shoe order, across launches
    j = job(("banker", "tie", "dragon7", "player_pair"), 17, decks=2, count=small_count, keep_rows=True)
    a, _ = run(j, "threads", 1)
    b, _ = run(j, "gpu")
    doc["rows"] = {"cpu": {k: v.tolist() for k, v in a.rows.items()},
                   "gpu": {k: v.tolist() for k, v in b.rows.items()}}

    # a count analysis (baccara count): the count and the perfect counter on the GPU
    d7 = load_count_toml(EXAMPLES / "counts" / "dragon7.toml")
    reps = [analyse_count(d7, "dragon7", decks=8, shoes=14, seed=3, perfect_shoes=1, **kw).to_json()
            for kw in ({"backend": "threads", "workers": 1}, {"backend": "gpu"})]
    doc["count_report"] = {"runs": [r.pop("run", None) for r in reps], "threads": reps[0], "gpu": reps[1]}
    doc["count_perfect"] = count_perfect_cases(d7, available)
    reps = [analyse_count(tie_count, "tie", decks=2, shoes=14, seed=3, perfect_shoes=0, backend=be).to_json()
            for be in ("threads", "gpu")]
    for r in reps:
        r.pop("run", None)
    doc["count_report_running"] = {"threads": reps[0], "gpu": reps[1]}

    # the histogram of count design, true and running counts
    hist = {}
    for running in (False, True):
        _, hn, hv, den = count_histogram(small_count, available["dragon7"], 2, 14, 12, 9, running, PUNTO_BANCO, 2)
        _, gn, gv, gden = count_histogram(small_count, available["dragon7"], 2, 14, 12, 9, running, PUNTO_BANCO,
                                          backend="gpu")
        hist["running" if running else "true"] = {"cpu": [hn.tolist(), hv.tolist(), den],
                                                  "gpu": [gn.tolist(), gv.tolist(), gden]}
    # and of a bet on the cards themselves, paid coup by coup from the coup's cards
    for name in ("three_giving_eight", "all_red"):
        for running in (False, True):
            _, hn, hv, den = count_histogram(card_count, available[name], 2, 14, 15, 10, running, PUNTO_BANCO, 2)
            _, gn, gv, gden = count_histogram(card_count, available[name], 2, 14, 15, 10, running, PUNTO_BANCO,
                                              backend="gpu")
            hist[f"{name}_{'running' if running else 'true'}"] = {"cpu": [hn.tolist(), hv.tolist(), den],
                                                                  "gpu": [gn.tolist(), gv.tolist(), gden]}
    doc["histogram"] = hist

    doc["perfect"] = perfect_cases(available)
    doc["report"] = report_cases()

    # the command line: --backend gpu and --backend threads, the same JSON and the same --out file
    import pyarrow.parquet as pq
    from typer.testing import CliRunner

    from baccara.cli.count import count_app
    from baccara.cli.simulate import simulate_app

    runner = CliRunner()
    cli = {}
    with tempfile.TemporaryDirectory() as tmp:
        for be in ("threads", "gpu"):
            path = str(Path(tmp) / f"{be}.parquet")
            extra = ["--workers", "1"] if be == "threads" else []
            r = runner.invoke(simulate_app, ["punto", "--decks", "2", "--shoes", "13", "--seed", "4", "--bets",
                                             "banker,tie,dragon7,player_pair", "--backend", be, "--json",
                                             "--out", path, *extra])
            assert r.exit_code == 0, r.output
            res = json.loads(r.stdout)
            run_info = res.pop("run")
            res.pop("out")
            cli[be] = {"json": res, "run": run_info, "rows": pq.read_table(path).to_pydict(),
                       "meta": {k.decode(): v.decode() for k, v in (pq.read_schema(path).metadata or {}).items()
                                if k == b"baccara"}}
        designs = []
        for extra in (["--workers", "1"], ["--backend", "gpu"]):
            r = runner.invoke(count_app, ["design", "--bet", "dragon7", "--decks", "2", "--shoes", "30", "--seed", "2",
                                          "--json", *extra])
            assert r.exit_code == 0, r.output
            designs.append(json.loads(r.stdout))
        cli["design"] = designs
        r = runner.invoke(simulate_app, ["punto", "--shoes", "5", "--backend", "gpu", "--workers", "2"])
        cli["workers_error"] = [r.exit_code, r.stderr]
        r = runner.invoke(simulate_app, ["punto", "--shoes", "5", "--backend", "gpu", "--perfect", "--bets",
                                          "banker,player_pair"])
        cli["perfect_error"] = [r.exit_code, r.stderr]
        r = runner.invoke(simulate_app, ["punto", "--shoes", "5", "--decks", "30", "--backend", "gpu", "--perfect",
                                          "--bets", "dragon7"])
        cli["perfect_big_error"] = [r.exit_code, r.stderr]
        # a default run sized on the simulator: timed there, it ends within a few times its budget
        import time

        t0 = time.perf_counter()
        r = runner.invoke(count_app, ["--bet", "dragon7", "--count", str(EXAMPLES / "counts" / "dragon7.toml"),
                                      "--budget", "2", "--seed", "5", "--backend", "gpu", "--json"])
        cli["sized_count"] = {"exit": r.exit_code, "seconds": time.perf_counter() - t0, "stderr": r.stderr,
                              "doc": json.loads(r.stdout) if r.exit_code == 0 else None}
        # the perfect counter on bets on card values: the same JSON and --out file as the CPU's compiled one
        for be in ("threads", "gpu"):
            path = str(Path(tmp) / f"perfect_{be}.parquet")
            extra = ["--workers", "1"] if be == "threads" else []
            r = runner.invoke(simulate_app, ["punto", "--decks", "1", "--cut", "11", "--shoes", "8", "--seed", "11",
                                             "--bets", "dragon7,panda8", "--perfect", "--backend", be, "--json",
                                             "--out", path, *extra])
            assert r.exit_code == 0, r.output
            res = json.loads(r.stdout)
            run_info = res.pop("run")
            res.pop("out")
            for k in ("evaluations_per_second", "evaluations_per_cpu_second"):  # times, not results
                res["perfect"].pop(k)
            cli[f"perfect_{be}"] = {"json": res, "run": run_info, "rows": pq.read_table(path).to_pydict()}
        # --dry-run with --backend gpu: timed on the GPU (here the simulator), the limit at the GPU's nominal rate
        dry = {}
        for name, args in (("flat", ["--shoes", "1e10"]),
                           ("perfect", ["--shoes", "1e6", "--decks", "1", "--cut", "11", "--bets", "dragon7",
                                        "--perfect"])):
            r = runner.invoke(simulate_app, ["punto", "--seed", "1", "--backend", "gpu", "--dry-run", "--json", *args])
            dry[name] = [r.exit_code, json.loads(r.stdout) if r.exit_code == 0 else None, r.stderr]
        r = runner.invoke(simulate_app, ["punto", "--seed", "1", "--shoes", "1e10", "--workers", "2", "--dry-run"])
        dry["threads"] = [r.exit_code, None, r.stderr]
        cli["dry_run"] = dry
    doc["cli"] = cli

    # the device check's script, at its smoke sizes
    import contextlib
    import importlib.util
    import io

    spec = importlib.util.spec_from_file_location("device_check_gpu", ROOT / "benchmarks" / "device_check_gpu.py")
    assert spec is not None and spec.loader is not None
    check = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(check)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "check.json"
        argv, sys.argv = sys.argv, ["device_check_gpu.py", "--smoke", "--json", str(path)]
        out_before = os.environ.get("OUT")
        os.environ["OUT"] = tmp  # the device's output folder: the JSON is written there too
        printed = io.StringIO()
        try:
            with contextlib.redirect_stdout(printed):
                code = check.main()
        finally:
            sys.argv = argv
            if out_before is None:
                del os.environ["OUT"]
            else:
                os.environ["OUT"] = out_before
        doc["device_check"] = {"exit": code, "printed": printed.getvalue(), "json": json.loads(path.read_text()),
                               "out_json": json.loads((Path(tmp) / "device_check.json").read_text()),
                               "dask_skipped": check.dask_skipped(["distributed: No module named 'distributed'"]),
                               "dask_wheels": list(check.DASK_WHEELS),
                               "verdicts": [check.goal("g", v, t, least)["passed"] for v, t, least in
                                            ((0.85, 0.8, True), (0.75, 0.8, True), (7.5, 8, False), (9, 8, False),
                                             (None, 8, False))]}
    doc["version"] = baccara.__version__ if hasattr(baccara, "__version__") else None
    print(json.dumps(doc))


def perfect_cases(available: dict) -> dict:
    """The perfect counter on bets on card values: the CPU's compiled kernel and the GPU's, shoe for shoe.

    Three plans: side bets priced by the sparse numerators (2 decks, their rows kept as ``--out`` keeps them);
    main bets and a bet whose most common payout is not its lowest (Big) priced by the value kernel's 400 cells,
    every second coup (1 deck); and 8 decks, where a decision is often settled by the last pricing without
    pricing again.  Each is a whole run on both (launches of 7 shoes on the GPU) and, but for the first, the raw
    rows of shoes 5 .. of one launch with its decisions."""
    import numpy as np

    from baccara.punto.bets import load_bets_toml
    from baccara.sim import _perfect_kernel as PK
    from baccara.sim import gpu, punto
    from baccara.sim.distributed import run
    from baccara.sim.punto import PuntoJob, bets_from_names

    bets = {**available, **load_bets_toml(EXAMPLES / "side_bets.toml")}

    def job(names, shoes, seed, **kw):
        return PuntoJob(seed=seed, shoes=shoes, bets=bets_from_names(names, bets), perfect=True, **kw)

    cases = {
        "sparse": job(("tie", "dragon7", "panda8"), 8, 3, decks=2, keep_rows=True),
        "dense": job(("banker", "player", "ez_banker", "super6_banker", "big"), 9, 11, decks=1, cut=11,
                     perfect_every=2),
        "eight_decks": job(("dragon7", "panda8"), 2, 2, decks=8),
    }
    first = 5
    out = {}
    for name, j in cases.items():
        args = punto._perfect_args(j)
        plan = gpu._Plan(j, None)
        c = {"columns": j.columns(), "dense": bool(args[10]), "rising": bool(args[11]), "on_gpu": plan.perfect,
             "launches": -(-j.shoes // plan.launch)}
        if name != "eight_decks":
            t_cpu, _ = run(j, "threads", 1)
            t_gpu, info = run(j, "gpu")
            c.update(cpu_sums=t_cpu.sums, gpu_sums=t_gpu.sums, shoes=t_gpu.shoes, backend=info.backend,
                     cpu_extra={k: t_cpu.extra[k] for k in ("evaluations", "priced")}, gpu_extra=t_gpu.extra,
                     sums_on_cpu=plan.rows)
            if j.keep_rows:
                c["cpu_kept"] = {k: v.tolist() for k, v in t_cpu.rows.items()}
                c["gpu_kept"] = {k: v.tolist() for k, v in t_gpu.rows.items()}
        if name != "sparse":
            cpu = np.zeros((j.shoes, len(j.columns())), dtype=np.int64)
            d, p = PK.perfect_chunk(j.seed, first, cpu, *args)
            rows = gpu._Plan(j, None, rows=True)
            raw, _ = rows.rows_or_sums(first, j.shoes)
            assert raw is not None
            c.update(cpu_rows=cpu.tolist(), gpu_rows=raw.tolist(), cpu_taken=[int(d), int(p)],
                     gpu_taken=list(rows.decisions))
        out[name] = c
    return out


def count_perfect_cases(d7, available: dict) -> dict:
    """The count analysis's perfect counter (each coup's exact expectation kept) on the GPU and on the threads.

    One deck cut at 11 cards, 9 shoes: two launches of 7 and 2 shoes on the GPU, chunks of 8 and 1 on the
    threads (the floats summed shoe by shoe and handed on exactly, so the cut does not matter); the report of
    ``baccara count``, and :func:`baccara.sim.count_analysis.perfect_sums` with every coup priced (the math
    report's) and without, shoes 3 ..; a pair bet's perfect counter stays on the CPU's threads, with a note."""
    import numpy as np

    from baccara.sim.count_analysis import CountJob, analyse_count, fold_perfect, perfect_on_gpu, perfect_sums
    from baccara.sim.counting import count_from_mapping
    from baccara.sim.gpu import perfect_ev_gpu

    out: dict = {}
    reps = [analyse_count(d7, "dragon7", decks=1, shoes=9, seed=5, cut=11, perfect_shoes=9, **kw).to_json()
            for kw in ({"backend": "threads", "workers": 1}, {"backend": "gpu"})]
    out["report"] = {"runs": [r.pop("run", None) for r in reps], "threads": reps[0], "gpu": reps[1]}
    job = CountJob(5, 9, 1, available["dragon7"], None, 11, chunk_size=8)
    for every in (False, True):
        c = perfect_sums(job, 3, 9, every_coup=every)
        g = perfect_sums(job, 3, 9, every_coup=every, gpu=True)
        # the launches as they come (each once the next runs), folded by the Python fsum loop: the reference
        launches = list(perfect_ev_gpu(job, 3, 9, every))
        r = fold_perfect(np.concatenate([t for _, t, _ in launches]), np.concatenate([e for _, _, e in launches]),
                         every, reference=True)
        out[f"sums_every_{every}"] = {
            k: [x.table.tolist(), x.ev_placed.tolist(), None if x.ev_all is None else x.ev_all.tolist(), x.compiled]
            for k, x in (("cpu", c), ("gpu", g), ("reference", r))}
        out[f"sums_every_{every}"]["launches"] = [lo for lo, _, _ in launches]
    pairs = count_from_mapping({"name": "pairs", "tags": {"A": 1, "K": -1},
                                "bets": [{"name": "player_pair", "count": "running", "at_least": -1}]})
    out["pair_on_gpu"] = perfect_on_gpu(CountJob(5, 1, 1, available["player_pair"], None, 11))
    reps = [analyse_count(pairs, "player_pair", decks=1, shoes=3, seed=5, cut=11, perfect_shoes=1, **kw).to_json()
            for kw in ({"backend": "threads", "workers": 1}, {"backend": "gpu"})]
    out["pairs"] = {"runs": [r.pop("run", None) for r in reps], "threads": reps[0], "gpu": reps[1]}
    return out


def report_cases() -> dict:
    """The math report (``baccara report``) on the threads and with ``--backend gpu``, at tiny sizes: its count
    design's histogram, its count and its perfect counter on the GPU."""
    from typer.testing import CliRunner

    from baccara.cli import app
    from baccara.punto.mathreport import math_report
    from baccara.sim import count_design, gpu

    launched: list = []  # what reached the GPU: (what, shoes)
    histogram, run_gpu, perfect_ev_gpu = count_design.histogram_gpu, gpu.run_gpu, gpu.perfect_ev_gpu

    def on_gpu_histogram(seed, shoes, *args):
        launched.append(("histogram", shoes))
        return histogram(seed, shoes, *args)

    def on_gpu_run(job, *args, **kw):
        launched.append(("perfect" if job.perfect else "count", job.shoes))
        return run_gpu(job, *args, **kw)

    def on_gpu_perfect(job, first, n, every_coup):
        launched.append(("perfect", n))
        return perfect_ev_gpu(job, first, n, every_coup)

    count_design.histogram_gpu, gpu.run_gpu, gpu.perfect_ev_gpu = on_gpu_histogram, on_gpu_run, on_gpu_perfect
    tiny = {"seed": 1, "design_shoes": 30, "count_shoes": 20, "perfect_shoes": 9, "cuts": (14,), "sort_cards": (),
            "check_hands": 0, "decks_compared": (2,)}
    out: dict = {}
    for be in ("threads", "gpu"):
        launched.clear()
        out[be] = math_report(2, "dragon7", backend=be, workers=1 if be == "threads" else None, **tiny).to_json()
        out[f"launched_{be}"] = list(launched)
    r = CliRunner().invoke(app, ["report", "--bet", "dragon7", "--decks", "2", "--seed", "1", "--design-shoes", "30",
                                 "--count-shoes", "20", "--perfect-shoes", "9", "--cuts", "14", "--sort-cards", "1",
                                 "--check-hands", "0", "--backend", "gpu", "--json"])
    assert r.exit_code == 0, r.output
    out["cli_gpu"] = json.loads(r.stdout)
    r = CliRunner().invoke(app, ["report", "--bet", "dragon7", "--decks", "2", "--count-shoes", "20",
                                 "--backend", "dask"])
    out["bad_backend"] = [r.exit_code, r.stderr]
    return out


if __name__ == "__main__":
    main()
