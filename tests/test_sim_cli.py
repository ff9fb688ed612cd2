"""``baccara simulate`` against a hostile user: every bad input is an ``error:`` naming the option
and exit status 2, within seconds and in bounded memory; never a traceback, a hang, runaway memory,
or an option silently ignored.  Ends with a hypothesis fuzz of every option of every subcommand."""

from __future__ import annotations

import io
import json
import os
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console
from rich.progress import Progress
from typer.testing import CliRunner

from baccara import builtin_bets
from baccara.cli.simulate import simulate_app
from baccara.commands.simulate import progress_columns
from baccara.errors import BaccaraError, ParameterError
from baccara.processes import parse_scheduler, probe_scheduler
from baccara.sim import BanqueJob, PuntoJob, banque_equilibrium_strategy, run, simulate_banque, simulate_punto
from baccara.sim.distributed import IN_FLIGHT_PER_WORKER
from baccara.sim.limits import (
    MAX_CORE_SECONDS,
    MAX_DECKS,
    MAX_OUT_ROWS,
    MAX_OUT_ROWS_HARD,
    check_work,
    estimate_work,
    format_duration,
    hands_per_shoe,
)
from baccara.sim.results import Accumulator, ChunkResult, combine

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
runner = CliRunner()
TINY = ["--shoes", "2", "--workers", "1", "--seed", "7", "--no-progress"]


def cli(*args: str):
    return runner.invoke(simulate_app, list(args))


def tiny(game: str, *args: str):
    """A tiny run; ``args`` come last, so they override TINY's (the last occurrence wins)."""
    return cli(game, *TINY, *args)


def flat(text: str) -> str:
    """Words of ``text`` on one line, without rich's box drawing (help panels)."""
    return " ".join(text.translate({c: " " for c in range(0x2500, 0x2580)}).split())


def assert_error(r, *names: str) -> str:
    """Exit status 2, ``error:`` first, no traceback, and the message names every option in ``names``."""
    assert r.exit_code == 2, (r.exit_code, r.output, r.exception)
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    msg = flat(r.stderr)
    assert msg.startswith("error:"), msg
    for n in names:
        assert n in msg, (n, msg)
    return msg


# ---------------------------------------------------------------- 1. decks
@pytest.mark.parametrize("game", ["punto", "chemin", "banque"])
@pytest.mark.parametrize("decks", ["1000000000", "1e9", "10001", "1e30", "99999999999999999999999", "0", "-1"])
def test_decks_have_a_stated_maximum(game, decks):
    msg = assert_error(tiny(game, "--decks", decks), "--decks")
    assert f"1 to {MAX_DECKS:,}" in msg and "'inf'" in msg


def test_decks_maximum_is_in_the_help():
    r = cli("punto", "--help")
    assert r.exit_code == 0 and f"1 to {MAX_DECKS:,}" in flat(r.stdout)


# ---------------------------------------------------------------- 2. scheduler
@contextmanager
def fake_server(mode: str):
    """A loopback server that is not a Dask scheduler: 'http' answers like a web server,
    'silent' accepts and says nothing, 'close' hangs up at once."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)
    conns = []

    def serve() -> None:
        while True:
            try:
                c, _ = srv.accept()
            except OSError:
                return
            conns.append(c)
            if mode == "http":
                c.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
            if mode in ("http", "close"):
                c.close()

    t = threading.Thread(target=serve, daemon=True)
    t.start()
    try:
        yield f"tcp://127.0.0.1:{srv.getsockname()[1]}"
    finally:
        srv.close()
        for c in conns:
            c.close()


@pytest.mark.parametrize("address, says", [
    ("foo", "tcp://HOST:PORT"),
    ("http://127.0.0.1:80", "only tcp"),
    ("tls://127.0.0.1:8786", "only tcp"),
    ("tcp://127.0.0.1", "tcp://HOST:PORT"),
    ("tcp://127.0.0.1:0", "from 1 to 65535"),
    ("tcp://127.0.0.1:99999", "from 1 to 65535"),
    ("tcp://127.0.0.1:1/path", "tcp://HOST:PORT"),
    ("tcp://:8786", "tcp://HOST:PORT"),
    ("", "needs an address"),
    ("tcp://127.0.0.1:1", "nothing listens"),
])
def test_scheduler_address_is_checked_quickly(address, says):
    t0 = time.monotonic()
    msg = assert_error(cli("punto", "--scheduler", address, "--shoes", "2"), "--scheduler")
    assert says in msg and time.monotonic() - t0 < 5


@pytest.mark.parametrize("mode, says", [("http", "answered b'HTTP/1.1'"), ("close", "closed the connection")])
def test_scheduler_that_is_not_dask_is_reported_not_trusted(mode, says):
    """The Dask client would read 'HTTP/1.1' as a frame length and allocate EiB."""
    with fake_server(mode) as address:
        t0 = time.monotonic()
        msg = assert_error(cli("chemin", "--scheduler", address, "--shoes", "2"), "--scheduler", "not a Dask scheduler")
        assert says in msg and time.monotonic() - t0 < 5


def test_silent_server_times_out_within_the_bound():
    with fake_server("silent") as address:
        t0 = time.monotonic()
        with pytest.raises(BaccaraError, match="sent no Dask greeting within 0.5 s"):
            probe_scheduler(address, timeout=0.5)
        assert time.monotonic() - t0 < 2


def test_scheduler_with_workers_or_another_backend_is_refused():
    assert_error(cli("punto", "--scheduler", "tcp://127.0.0.1:1", "--workers", "2", "--shoes", "2"),
                 "--workers", "--scheduler")
    assert_error(cli("punto", "--scheduler", "tcp://127.0.0.1:1", "--backend", "processes", "--shoes", "2"),
                 "--scheduler", "--backend processes")


def test_parse_scheduler_forms():
    assert parse_scheduler("127.0.0.1:8786") == ("127.0.0.1", 8786, "tcp://127.0.0.1:8786")
    assert parse_scheduler(" TCP://host-1.example:1 ") == ("host-1.example", 1, "tcp://host-1.example:1")
    assert parse_scheduler("tcp://[::1]:8786") == ("::1", 8786, "tcp://[::1]:8786")


# ---------------------------------------------------------------- 3. limits and the estimate
def test_estimate_and_limit_functions():
    h = hands_per_shoe("punto", 8, "cut", 7, 80)
    # the estimate is the coups simulated shoes deal (the cut card, then one more coup), within 0.15
    for game, decks, cut in (("punto", 8, 14), ("punto", 1, 11), ("banque", 3, 17)):
        if game == "punto":
            dealt = simulate_punto(PuntoJob(seed=1, shoes=4000, decks=decks, cut=cut, bets=(builtin_bets()["banker"],)),
                                   workers=1).hands
        else:
            dealt = simulate_banque(BanqueJob(seed=1, shoes=4000, strategy=banque_equilibrium_strategy(Fraction(1, 2)),
                                              decks=decks, cut=cut), workers=1).total.hands
        assert hands_per_shoe(game, decks, "cut", cut, 80) == pytest.approx(dealt / 4000, abs=0.15)
    assert hands_per_shoe("chemin", None, "infinite", 7, 55) == 55
    est = estimate_work("punto", 1_000_000, 8, "cut", 7, 80, workers=2)
    assert est.hands == pytest.approx(1e6 * h)
    assert est.seconds == pytest.approx(est.hands / (2 * est.rate))
    text = est.describe()
    assert text.startswith("about ") and "1,000,000 8-deck shoes" in text and "M hands/s on 2 workers" in text
    assert check_work(est, allow_long=False) is est
    huge = estimate_work("punto", 10**12, 8, "cut", 7, 80, workers=16)
    with pytest.raises(BaccaraError, match="--allow-long") as e:
        check_work(huge, allow_long=False)
    assert "--shoes 1,000,000,000,000" in str(e.value) and "one core" in str(e.value)
    assert check_work(huge, allow_long=True) is huge
    # the limit is core time: more workers do not make a run "short"
    just = estimate_work("chemin", 1, None, "infinite", 7, 1, workers=1)
    over = MAX_CORE_SECONDS * just.rate * 1.01
    with pytest.raises(BaccaraError):
        check_work(estimate_work("chemin", int(over), None, "infinite", 7, 1, workers=64), allow_long=False)
    perfect = estimate_work("punto", 3, 10_000, "cut", 7, 80, workers=1, perfect_every=1)
    assert perfect.evaluations > 3e5 and perfect.rate < 100  # Python integers beyond 22 decks
    with pytest.raises(BaccaraError, match="exact evaluations"):
        check_work(perfect, allow_long=False)
    rows = estimate_work("punto", MAX_OUT_ROWS + 1, 1, "cut", 7, 80, workers=64, rows=True)
    with pytest.raises(BaccaraError, match="Parquet rows"):
        check_work(rows, allow_long=False)
    assert check_work(rows, allow_long=True) is rows
    rows = estimate_work("punto", MAX_OUT_ROWS_HARD + 1, 1, "cut", 7, 80, workers=64, rows=True)
    with pytest.raises(BaccaraError, match="even with --allow-long"):
        check_work(rows, allow_long=True)


def test_gpu_runs_are_estimated_and_limited_at_the_gpus_rate():
    """``--backend gpu``: one GPU at its nominal rates, not the CPU's cores; the limit is an hour of its work."""
    from baccara.sim.limits import NOMINAL_GPU_EVALUATIONS_RATE, NOMINAL_GPU_RATES

    cpu = estimate_work("punto", 10**10, 8, "cut", 14, 80, workers=16)
    gpu = estimate_work("punto", 10**10, 8, "cut", 14, 80, workers=16, backend="gpu")
    assert gpu.gpu and not cpu.gpu and gpu.workers == 1 and gpu.hands == cpu.hands
    assert gpu.rate == NOMINAL_GPU_RATES["punto"] and gpu.seconds == pytest.approx(gpu.hands / gpu.rate)
    with pytest.raises(BaccaraError, match="one core's work"):
        check_work(cpu, allow_long=False)
    assert check_work(gpu, allow_long=False) is gpu  # 10^10 shoes: minutes of the GPU's work
    assert "on 1 GPU, at a nominal rate" in gpu.describe()
    over = estimate_work("punto", 10**12, 8, "cut", 14, 80, workers=1, backend="gpu")
    with pytest.raises(BaccaraError, match="the GPU's work at its nominal rate") as e:
        check_work(over, allow_long=False)
    assert "--allow-long" in str(e.value)
    count = estimate_work("punto", 10**9, 8, "cut", 14, 80, workers=1, kind="count", backend="gpu")
    assert count.rate == NOMINAL_GPU_RATES["count"]
    perfect = estimate_work("punto", 10**5, 8, "cut", 14, 80, workers=1, perfect_every=1, by_value=True,
                            backend="gpu")
    assert perfect.rate == NOMINAL_GPU_EVALUATIONS_RATE
    # pair bets, or shoes past 64-bit counts: the GPU does not run them, and says so before any estimate, each
    # leading with its own reason
    with pytest.raises(ParameterError) as e:
        estimate_work("punto", 5, 8, "cut", 14, 80, workers=1, perfect_every=1, by_value=False, backend="gpu")
    said = e.value.cli_message
    assert said.startswith("--backend gpu runs the perfect counter on bets on card values only: pair bets")
    assert "--backend threads or processes" in said and "64-bit" not in said
    with pytest.raises(ParameterError) as e:
        estimate_work("punto", 5, 30, "cut", 14, 80, workers=1, perfect_every=1, by_value=True, backend="gpu")
    said = e.value.cli_message
    assert said.startswith("--backend gpu runs the perfect counter on shoes of at most 22 decks: the exact counts "
                           "of a 30-deck shoe could overflow 64-bit integers")
    assert "--decks 22 or fewer" in said and "pair" not in said


@pytest.mark.parametrize("seconds, text", [(0.2, "under a second"), (4.25, "4.2 s"), (42, "42 s"), (200, "3.3 min"),
                                           (3 * 3600, "3.0 h"), (40 * 86400, "40 days"), (float("inf"), "forever")])
def test_format_duration(seconds, text):
    assert format_duration(seconds) == text


@pytest.mark.parametrize("seconds", [0.2, 0.999, 1, 4.25, 42, 200, 3 * 3600, 40 * 86400, 3 * 365.25 * 86400,
                                     float("inf")])
def test_a_sizing_line_reads_for_every_duration(seconds):
    """``about`` goes before a figure, never before ``under a second`` or ``forever``; on the CPU, on the GPU and
    for a run at its least that takes longer than its budget."""
    from baccara.workload import Sizing

    for sizing in (Sizing("the count", 10, 2, seconds, 0.1), Sizing("the count", 10, 1, seconds, 0.1, gpu=5e8),
                   Sizing("the count", 10, 1, 1.0, seconds / 10, least=10)):
        line = sizing.describe()
        assert "about under" not in line and "about forever" not in line
    from baccara.workload import about

    words = format_duration(seconds)
    said = about(seconds)
    assert said == (words if words in ("under a second", "forever") else f"about {words}")
    assert f"sized to {said} on the 2 cores here" in Sizing("the count", 10, 2, seconds, 0.1).describe()


def test_huge_runs_are_refused_with_the_estimate_and_the_way_out():
    msg = assert_error(cli("punto", "--shoes", "1e12"), "--shoes", "--allow-long")
    assert "hands" in msg and "about" in msg
    r = cli("punto", "--shoes", "1e12", "--allow-long", "--dry-run", "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["dry_run"] and doc["shoes"] == 10**12 and doc["hands"] > 8e13
    assert "estimate: about" in flat(r.stderr)
    r = cli("punto", "--help")
    assert "--allow-long" in r.stdout and "--dry-run" in r.stdout


def test_shoes_have_an_absolute_maximum():
    assert_error(cli("punto", "--shoes", "1e16", "--allow-long"), "--shoes", "10^15")


class CountingJob:
    """A job of cheap chunks that records how many were started."""

    def __init__(self, shoes: int, chunk_size: int = 1) -> None:
        self.shoes, self.chunk_size = shoes, chunk_size
        self.started = 0
        self.lock = threading.Lock()

    def run_chunk(self, index: int, pool=None) -> ChunkResult:
        with self.lock:
            self.started += 1
        time.sleep(0.0005 * (index % 3))  # finish out of order
        return ChunkResult(index=index, shoes=self.chunk_size, hands=1, sums={"x": index},
                           floats={"f": 0.1, "big_max": float(index % 7)})


class Stop(Exception):
    pass


def test_a_run_of_a_trillion_shoes_holds_a_bounded_window():
    """The old runner submitted every chunk before the first finished (60-130 MB/s of futures)."""
    job = CountingJob(shoes=10**12)
    seen = []

    def progress(done, total, hands):
        seen.append(job.started - done)
        if done >= 500:
            raise Stop

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t0 = time.monotonic()
    with pytest.raises(Stop):
        run(job, workers=2, progress=progress)
    assert time.monotonic() - t0 < 10
    assert max(seen) <= IN_FLIGHT_PER_WORKER * 2
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 100_000  # KiB


def test_streamed_total_equals_the_combined_chunks_whatever_the_order():
    job = CountingJob(shoes=300)
    total, _ = run(job, workers=2)
    chunks = [job.run_chunk(i) for i in range(300)]
    ref = combine(chunks[::-1])
    assert total.sums == ref.sums and total.floats == ref.floats and total.shoes == 300
    assert total.floats["big_max"] == 6.0  # a maximum, not the sum of the chunks' maxima
    acc = Accumulator()
    for c in chunks[::2] + chunks[1::2] + chunks[:5]:  # out of order, some twice (retried tasks)
        acc.add(c)
    assert acc.result().sums == ref.sums and acc.waiting == 0


def test_out_rows_are_streamed_and_complete(tmp_path):
    import pyarrow.parquet as pq

    out = tmp_path / "shoes.parquet"
    r = cli("punto", "--shoes", "70000", "--workers", "2", "--seed", "3", "--json", "--out", str(out))
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert pq.ParquetFile(out).metadata.num_row_groups == 2  # 65,536 rows, then the rest
    t = pq.read_table(out)
    assert t.num_rows == 70000 and t.column("shoe").to_pylist() == list(range(70000))
    assert sum(t.column("hands").to_pylist()) == doc["hands"]
    assert json.loads(t.schema.metadata[b"baccara"])["seed"] == 3
    assert [p.name for p in tmp_path.iterdir()] == ["shoes.parquet"]  # no .part left behind


# ---------------------------------------------------------------- 4. --out, before any work
@pytest.mark.parametrize("path, says", [
    ("", "empty string"),
    ("   ", "empty string"),
    ("/proc/x.parquet", "cannot write in folder"),
    ("{tmp}/missing/x.parquet", "does not exist"),
    ("{tmp}/afile.txt/x.parquet", "is not a folder"),
    ("{tmp}/adir.parquet", "is not a file"),
    ("{tmp}/x.csv", "ending in .parquet"),
    ("{tmp}/a\0b.parquet", "NUL"),
])
def test_out_is_checked_before_any_work(tmp_path, path, says):
    (tmp_path / "afile.txt").write_text("x")
    (tmp_path / "adir.parquet").mkdir()
    t0 = time.monotonic()
    # a run that would take ages if it started
    msg = assert_error(cli("punto", "--shoes", "1e9", "--allow-long", "--out", path.format(tmp=tmp_path)), "--out")
    assert says in msg and time.monotonic() - t0 < 5


def test_out_in_a_folder_it_cannot_write_in(tmp_path):
    # A folder that exists but takes no new file: a directory stands where the run's first file
    # (the hidden '.x.parquet.part' beside x.parquet) must go -- unwritable for root too (CI runs as root).
    (tmp_path / ".x.parquet.part").mkdir()
    assert_error(cli("punto", *TINY, "--out", str(tmp_path / "x.parquet")), "--out", "cannot write")
    assert not (tmp_path / "x.parquet").exists()
    if os.geteuid() != 0:   # and a read-only folder, for a user that permissions bind
        ro = tmp_path / "ro"
        ro.mkdir()
        ro.chmod(0o500)
        assert_error(cli("punto", *TINY, "--out", str(ro / "x.parquet")), "--out", "cannot write")


# ---------------------------------------------------------------- 5, 6, 7: options that were silently ignored
@pytest.mark.parametrize("args, names", [
    (["punto", "--decks", "inf", "--cut", "14"], ["--cut", "--decks inf"]),
    (["banque", "--decks", "inf", "--cut", "14"], ["--cut", "--decks inf"]),
    (["punto", "--deal", "csm", "--cut", "14"], ["--cut", "--deal csm"]),
    (["chemin", "--deal", "infinite", "--cut", "9"], ["--cut", "--decks inf"]),
    (["punto", "--coups", "50"], ["--coups", "--deal csm"]),
    (["punto", "--deal", "infinite", "--decks", "8"], ["--deal infinite", "--decks 8"]),
    (["punto", "--deal", "cut", "--decks", "inf"], ["--deal cut", "--decks inf"]),
    (["chemin", "--model", "A1", "--decks", "6"], ["--model A1", "--decks"]),
    (["chemin", "--model", "A2", "--decks", "8"], ["--model A2", "--decks"]),
    (["chemin", "--model", "B1", "--decks", "inf"], ["--model B1", "--decks"]),
    (["chemin", "--model", "B2", "--deal", "infinite"], ["--model B2", "--decks"]),
    (["chemin", "--model", "C3"], ["--model", "A1, A2, B1, B2"]),
    (["chemin", "--model", "-1"], ["--model"]),
    (["chemin", "--model", "B1", "--banker", "tableau"], ["--model", "--banker"]),
    (["banque", "--players", "independent"], ["--players independent", "--p1", "--p2"]),
    (["banque", "--players", "independent", "--p1", "1/2"], ["--p2"]),
    (["banque", "--p2", "1/2"], ["--p1 / --p2", "--players independent"]),
    (["punto", "--perfect-every", "5"], ["--perfect-every", "--perfect"]),
    (["punto", "--count", ""], ["--count", "empty"]),
    (["punto", "--bets-file", ""], ["--bets-file", "empty"]),
    (["chemin", "--banker", ""], ["--banker"]),
])
def test_contradictory_or_incomplete_options_are_errors(args, names):
    assert_error(tiny(*args), *names)


@pytest.mark.parametrize("args, names", [
    (["--backend", "dask"], ["--backend"]),
    (["--backend", "gpu"], ["--backend"]),
    (["-j", "2"], ["--workers"]),
    (["--scheduler", "tcp://127.0.0.1:1"], ["--scheduler"]),
    (["--dry-run"], ["--dry-run"]),
    (["--allow-long"], ["--allow-long", "100,000 shoes"]),
    (["--progress"], ["--progress"]),
    (["--bets", "dragon7"], ["--bets", "--seat"]),
    (["--count", str(ROOT / "examples" / "counts" / "dragon7.toml")], ["--count", "--seat count:FILE.toml"]),
    (["--perfect"], ["--perfect", "--seat perfect:BET"]),
    (["--dry-run", "--backend", "dask", "-j", "2", "--out", "x.parquet"],
     ["--out", "--workers", "--backend", "--dry-run", "leave them out"]),
])
def test_a_log_refuses_by_name_the_options_its_dealing_would_ignore(tmp_path, args, names):
    """``--log`` deals its logs one shoe after another in this process: the options of a simulation's run are
    refused, each named with why, and nothing is written (no logs, no Parquet file)."""
    out = tmp_path / "logs"
    r = cli("punto", "--shoes", "3", "--seed", "3", "--log", str(out), "--seat", "flat:banker", *args)
    msg = assert_error(r, "--log", *names)
    assert "ignored" in msg and not out.exists() and not Path("x.parquet").exists()
    r = cli("punto", "--shoes", "3", "--seed", "3", "--log", str(out), "--seat", "flat:banker", "--no-progress")
    assert r.exit_code == 0, r.output  # what --no-progress and --json ask for is what a log does
    assert (out / "hands.csv").exists() and (out / "bets.csv").exists()


def test_the_body_of_simulate_punto_refuses_them_too(tmp_path):
    """The refusal is the command's, not the command line's: its body refuses a log beside a run's options."""
    from baccara.commands.simulate import SIMULATE_PUNTO

    body, given = SIMULATE_PUNTO.function(), SIMULATE_PUNTO.defaults()
    given.update(shoes="3", seed="3", log=str(tmp_path / "logs"), seat=["flat:banker"])
    for option, value in (("backend", "processes"), ("workers", "2"), ("out_path", str(tmp_path / "x.parquet")),
                          ("dry_run", True), ("scheduler", "tcp://127.0.0.1:1")):
        with pytest.raises(BaccaraError, match="^--log .* so --" + option.replace("_path", "").replace("_", "-")):
            body(**{**given, option: value})
    assert not (tmp_path / "logs").exists() and not (tmp_path / "x.parquet").exists()
    assert body(**given) is None and (tmp_path / "logs" / "hands.csv").exists()


def test_model_a_implies_the_infinite_shoe():
    r = cli("chemin", "--model", "A1", *TINY, "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["shoe"]["decks"] == "inf" and "Model A1" in doc["strategy"]["name"]
    r = cli("chemin", "--decks", "inf", *TINY, "--json")  # no --model: the letter follows the shoe
    assert r.exit_code == 0 and "Model A2" in json.loads(r.stdout)["strategy"]["name"]
    r = cli("chemin", "--model", "b1", "--decks", "4", *TINY, "--json")
    assert r.exit_code == 0 and "Model B1, 4 decks" in json.loads(r.stdout)["strategy"]["name"]


# ---------------------------------------------------------------- 8. the progress bar
def test_progress_bar_labels_elapsed_then_eta():
    console = Console(file=io.StringIO(), width=200, force_terminal=False)
    with Progress(*progress_columns(), console=console, auto_refresh=False) as bar:
        task = bar.add_task("shoes", total=100, rate="3.10 M hands/s")
        bar.update(task, completed=40)
        console.print(bar.make_tasks_table(bar.tasks))
    line = next(x for x in console.file.getvalue().splitlines() if "shoes" in x)
    words = line.split()
    assert "left" not in words
    e, a = words.index("elapsed"), words.index("ETA")
    assert e < a and ":" in words[e + 1] and (":" in words[a + 1] or words[a + 1] == "-:--:--")


def test_progress_bar_runs_no_thread_of_its_own(monkeypatch):
    """The bar is redrawn by the run's reports: no refresh thread, so processes can still be forked."""
    import threading

    from baccara.commands import simulate as S

    seen = []

    def fake(job, backend, workers, scheduler, progress=None, sink=None):
        seen.append(threading.active_count())
        progress(job.shoes // 2, job.shoes, 1000)
        seen.append(threading.active_count())
        return "done"

    job = type("Job", (), {"shoes": 10})()
    before = threading.active_count()
    common = S.Common(10, 1, None, "threads", None, None, False, False)
    assert S._run(fake, job, common, True, None) == "done"
    assert seen == [before, before]


# ---------------------------------------------------------------- 9. tables in pipes
def test_tables_are_whole_when_stdout_is_a_pipe(tmp_path):
    """As ``baccara simulate punto ... | cat`` with a narrow COLUMNS: no cell cut with an ellipsis."""
    long = "a_side_bet_with_a_name_long_enough_to_overflow_any_reasonable_terminal_" + "x" * 60
    bets = tmp_path / "bets.toml"
    bets.write_text(f'[bets.{long}]\nrules = [{{when = {{winner = "tie"}}, pays = 8}}]\notherwise = -1\n')
    names = ",".join(builtin_bets()) + "," + long
    env = dict(os.environ, PYTHONPATH=str(SRC), COLUMNS="40", NUMBA_NUM_THREADS="1")
    p = subprocess.run([sys.executable, "-m", "baccara", "simulate", "punto", "--bets-file", str(bets), "--bets", names,
                        "--shoes", "3", "--workers", "1", "--seed", "1"], capture_output=True, text=True, env=env,
                       timeout=120, cwd=tmp_path, check=False)
    assert p.returncode == 0, p.stderr
    assert "…" not in p.stdout and "..." not in p.stdout
    assert long in p.stdout
    for name in builtin_bets():
        assert f" {name} " in p.stdout


# ---------------------------------------------------------------- 10. rationals and every other option
def test_a_decimal_commission_is_the_decimal_it_prints():
    r = cli("punto", *TINY, "--json", "--commission", "0.05", "--bets", "banker")
    s = cli("punto", *TINY, "--json", "--commission", "1/20", "--bets", "banker")
    assert r.exit_code == s.exit_code == 0
    a, b = json.loads(r.stdout), json.loads(s.stdout)
    assert a["exact"]["bets"] == b["exact"]["bets"] and a["bets"] == b["bets"]
    r = cli("chemin", *TINY, "--json", "--commission", "0.05", "--banker", "tableau")
    assert r.exit_code == 0 and json.loads(r.stdout)["table"]["commission"] == "1/20"
    r = cli("banque", *TINY, "--json", "--theta", "0.45", "--decks", "inf")
    assert r.exit_code == 0 and json.loads(r.stdout)["theta"] == "9/20"


@pytest.mark.parametrize("args, names", [
    (["punto", "--tie-pays", "1e999999999"], ["--tie-pays"]),   # Fraction() would build a 10^9-digit integer
    (["punto", "--commission", "1e-999999999"], ["--commission"]),
    (["punto", "--commission", "0.0000000001"], ["--commission", "nine decimals"]),
    (["punto", "--commission", "nan"], ["--commission"]),
    (["punto", "--commission", "1"], ["--commission", "[0, 1)"]),
    (["punto", "--tie-pays", "0"], ["--tie-pays", "(0, 1,000]"]),
    (["punto", "--tie-pays", "1e30"], ["--tie-pays"]),
    (["punto", "--super6-pays", "1e400"], ["--super6-pays"]),
    (["punto", "--super6-pays", "inf"], ["--super6-pays"]),
    (["punto", "--coups", "1e30", "--deal", "csm"], ["--coups", "100,000"]),
    (["punto", "--seed", "-1"], ["--seed", "2^63 - 1"]),
    (["punto", "--seed", "9223372036854775808"], ["--seed"]),
    (["punto", "--seed", "1.5"], ["--seed"]),
    (["punto", "--workers", "0"], ["--workers"]),
    (["punto", "--workers", "1e30"], ["--workers", "cores"]),
    (["punto", "--backend", "tpu"], ["--backend"]),
    (["punto", "--backend", ""], ["--backend"]),
    (["punto", "--cut", "nan"], ["--cut"]),
    (["punto", "--cut", "1e400"], ["--cut"]),
    (["punto", "--deal", ""], ["--deal"]),
    (["punto", "--bets", ""], ["--bets"]),
    (["punto", "--bets", "banker,banker"], ["--bets"]),
    (["punto", "--perfect", "--perfect-every", "0"], ["--perfect-every"]),
    (["chemin", "--stake", "1e30"], ["--stake"]),
    (["chemin", "--stake", "nan"], ["--stake"]),
    (["chemin", "--stake", "0"], ["--stake"]),
    (["chemin", "--withdraw-after", "1e30"], ["--withdraw-after"]),
    (["chemin", "--seats", "1e9"], ["--seats"]),
    (["chemin", "--draw-at-5", "inf"], ["--draw-at-5"]),
    (["chemin", "--coups", "1e30", "--deal", "csm"], ["--coups"]),
    (["banque", "--theta", "1e-400"], ["--theta"]),
    (["banque", "--theta", "0"], ["--theta"]),
    (["banque", "--players", "independent", "--p1", "nan", "--p2", "1"], ["--p1"]),
    (["banque", "--coups", "99999999999999999999999", "--deal", "csm"], ["--coups"]),
    (["banque", "--banker", "everyone"], ["--banker"]),
])
def test_hostile_values_are_errors_naming_the_option(args, names):
    assert_error(tiny(*args), *names)


@pytest.fixture(scope="module")
def files():
    """Bad TOML files for --bets-file, --count and chemin's --banker."""
    d = Path(tempfile.mkdtemp(prefix="baccara-sim-cli-"))
    rule = '[[bets]]\nname = "tie"\nat_least = 1\n'
    texts = {
        "invalid.toml": "x = [\n",
        "empty.toml": "",
        "binary.toml": "\udcff",
        "bets_nan.toml": '[bets.odd]\nrules = [{when = {winner = "tie"}, pays = nan}]\notherwise = -1\n',
        "bets_huge.toml": '[bets.big]\nrules = [{when = {winner = "tie"}, pays = 1e300}]\notherwise = -1\n',
        "bets_builtin.toml": '[bets.banker]\nrules = [{when = {winner = "tie"}, pays = 8}]\notherwise = -1\n',
        "count_badtag.toml": '[tags]\n"Z" = 1\n' + rule,
        "count_hugetag.toml": '[tags]\n"6" = 1e300\n' + rule,
        "count_strtag.toml": '[tags]\n"6" = "minus one"\n' + rule,
        "count_nan.toml": '[tags]\n"6" = 1\n[[bets]]\nname = "tie"\nat_least = nan\n',
        "count_cut.toml": 'cut = 1000000000000\n[tags]\n"6" = 1\n' + rule,
        "count_cut400.toml": 'cut = 400\n[tags]\n"6" = 1\n' + rule,
        "count_nosuchbet.toml": '[tags]\n"6" = 1\n[[bets]]\nname = "nosuch"\nat_least = 1\n',
        "strategy_p.toml": "[player]\ndraw_at_5 = 2\n",
        "strategy_rows.toml": '[banker]\ntotals = ["DDD"]\n',
        "strategy_label.toml": '[banker.mixed]\n"(11,3)|6" = 0.5\n',
    }
    for name, text in texts.items():
        (d / name).write_text(text, encoding="utf-8", errors="surrogateescape")
    (d / "folder.toml").mkdir()
    return d


@pytest.mark.parametrize("args, names", [
    (["punto", "--bets-file", "invalid.toml"], ["--bets-file", "not valid TOML"]),
    (["punto", "--bets-file", "binary.toml"], ["--bets-file", "cannot be read"]),
    (["punto", "--bets-file", "folder.toml"], ["--bets-file"]),
    (["punto", "--bets-file", "missing.toml"], ["--bets-file", "not found"]),
    (["punto", "--bets-file", "bets_nan.toml"], ["--bets-file"]),
    (["punto", "--bets-file", "bets_builtin.toml"], ["--bets-file", "built-in"]),
    (["punto", "--bets-file", "bets_huge.toml", "--bets", "big"], ["--bets", "pays must be"]),
    (["punto", "--count", "invalid.toml"], ["--count", "not valid TOML"]),
    (["punto", "--count", "empty.toml"], ["--count", "[tags]"]),
    (["punto", "--count", "folder.toml"], ["--count"]),
    (["punto", "--count", "count_badtag.toml"], ["--count", "unknown rank 'Z'"]),
    (["punto", "--count", "count_hugetag.toml"], ["--count", "tag of 6"]),
    (["punto", "--count", "count_strtag.toml"], ["--count", "tag of 6"]),
    (["punto", "--count", "count_nan.toml"], ["--count", "at_least"]),
    (["punto", "--count", "count_cut.toml"], ["--count", "cut"]),
    (["punto", "--count", "count_cut400.toml", "--decks", "1"], ["count file's cut", "--cut", "--decks"]),
    (["punto", "--count", "count_nosuchbet.toml"], ["--count", "'nosuch'"]),
    (["chemin", "--banker", "invalid.toml"], ["--banker", "not valid TOML"]),
    (["chemin", "--banker", "folder.toml"], ["--banker"]),
    (["chemin", "--banker", "strategy_p.toml"], ["--banker", "draw_at_5"]),
    (["chemin", "--banker", "strategy_rows.toml"], ["--banker", "8 rows"]),
    (["chemin", "--banker", "strategy_label.toml"], ["--banker", "(11,3)|6"]),
])
def test_bad_files_are_errors_naming_the_option(files, args, names):
    args = [str(files / a) if a.endswith(".toml") else a for a in args]
    assert_error(tiny(*args), *names)


# ---------------------------------------------------------------- 11. fuzz
OPTIONS = {
    "punto": ["--decks", "--shoes", "--bets", "--bets-file", "--count", "--perfect-every", "--seed", "--cut", "--deal",
              "--coups", "--commission", "--tie-pays", "--super6-pays", "--workers", "--backend", "--out",
              "--scheduler"],
    "chemin": ["--decks", "--shoes", "--banker", "--draw-at-5", "--model", "--commission", "--seats", "--stake",
               "--withdraw-after", "--seed", "--cut", "--deal", "--coups", "--workers", "--backend", "--out",
               "--scheduler"],
    "banque": ["--decks", "--shoes", "--theta", "--players", "--p1", "--p2", "--banker", "--seed", "--cut", "--deal",
               "--coups", "--workers", "--backend", "--out", "--scheduler"],
}
SPECIAL = ["", " ", "0", "-1", "1", "2", "3", "7", "14", "1e3", "1e400", "-1e400", "1e999999999", "1e-999999999",
           "nan", "NaN", "inf", "-inf", "infinite", "0x10", "1/0", "1/3", "0.05", "0.5", "1_000", "9" * 60, "abc",
           "draw", "stand", "D", "A1", "A2", "B1", "b2", "cut", "csm", "infinite", "threads", "equilibrium",
           "independent", "tableau", "draw-to-5", "banker", "tie,dragon7", "banker,nosuch", "tcp://127.0.0.1:1",
           "tcp://127.0.0.1:0", "http://127.0.0.1:80", "foo", "x.parquet", "x.csv", "/proc/x.parquet",
           "missing/x.parquet", "\x00", "é", "--json"]


EXAMPLES = ROOT / "examples"
#: Plausible values, so that a good share of the fuzz runs (and must succeed, or name the option).
VALID = {
    "--decks": st.one_of(st.sampled_from(["1", "2", "6", "8", "inf", "1e3", "10000"]), st.integers(1, 64).map(str)),
    "--shoes": st.sampled_from(["1", "2", "3", "1e1", "5"]),
    "--bets": st.sampled_from(["banker", "tie,dragon7", "player_pair,banker_pair", "super6,panda8",
                               "banker,perfect_pair"]),
    "--bets-file": st.just(str(EXAMPLES / "side_bets.toml")),
    "--count": st.sampled_from([str(p) for p in sorted((EXAMPLES / "counts").glob("*.toml"))]),
    "--perfect-every": st.sampled_from(["1", "5"]),
    "--seed": st.integers(0, 2**63 - 1).map(str),
    "--cut": st.integers(6, 60).map(str),
    "--deal": st.sampled_from(["cut", "csm", "infinite"]),
    "--coups": st.integers(1, 200).map(str),
    "--commission": st.sampled_from(["1/20", "0.05", "0", "0.1", "1/25", "0.0125"]),
    "--tie-pays": st.sampled_from(["8", "9", "8.5"]),
    "--super6-pays": st.sampled_from(["12", "15"]),
    "--workers": st.sampled_from(["1", "2"]),
    "--backend": st.just("threads"),
    "--out": st.sampled_from(["x.parquet", "./y.PARQUET"]),
    "--scheduler": st.sampled_from(["tcp://127.0.0.1:1", "127.0.0.1:1"]),
    ("chemin", "--banker"): st.sampled_from(["equilibrium", "tableau", "nash"]),
    "--draw-at-5": st.sampled_from(["draw", "stand", "1/2", "0.3"]),
    "--model": st.sampled_from(["A1", "A2", "B1", "B2", "1", "2"]),
    "--seats": st.integers(2, 32).map(str),
    "--stake": st.sampled_from(["1", "0.5", "100"]),
    "--withdraw-after": st.integers(0, 5).map(str),
    "--theta": st.sampled_from(["1/2", "0.3", "2/3"]),
    "--players": st.sampled_from(["equilibrium", "independent"]),
    "--p1": st.sampled_from(["draw", "stand", "1/2"]),
    "--p2": st.sampled_from(["draw", "stand", "0.25"]),
    ("banque", "--banker"): st.sampled_from(["equilibrium", "draw-to-5"]),
}


def values(game: str, opt: str, files_dir: Path):
    """Two parts plausible values, one part hostile ones."""
    names = sorted(p.name for p in files_dir.iterdir())
    hostile = st.one_of(
        st.sampled_from(SPECIAL),
        st.sampled_from([str(files_dir / n) for n in names]),
        st.integers(-(10**30), 10**30).map(str),
        st.integers(0, 12_000).map(str),
        st.floats(allow_nan=True, allow_infinity=True).map(repr),
        st.fractions(max_denominator=10**12).map(str),
        st.text(max_size=12),
    )
    if opt == "--shoes":  # a legitimate run of millions of shoes is slow, not wrong: keep runs tiny
        hostile = hostile.filter(lambda v: not _sizeable(v))
    valid = VALID.get((game, opt), VALID.get(opt))
    return st.one_of(valid, valid, hostile)


def _sizeable(text: str) -> bool:
    """Would ``--shoes text`` be accepted as more than a few dozen shoes?"""
    from baccara.commands.simulate import parse_count

    try:
        return parse_count(text, "--shoes") > 50
    except BaccaraError:
        return False


class Alarm(Exception):
    pass


def _alarm(*_):
    raise Alarm("a simulate run took more than 30 s")


@pytest.mark.slow  # over 10 CPU-s; the slow job runs it
def test_fuzz_every_option_of_every_subcommand(files):
    """Random values (garbage, huge, negative, nan / inf, files, addresses) for 1-3 options at a time:
    each run succeeds or exits 2 with ``error:`` naming one of them, within 30 s, in bounded memory."""
    fuzz_dir = Path(tempfile.mkdtemp(prefix="baccara-sim-fuzz-"))
    cwd = os.getcwd()
    previous = signal.signal(signal.SIGALRM, _alarm)

    # BACCARA_SIM_FUZZ=2000 for a long, random hunt; by default a fixed, quick sample
    hunt = int(os.environ.get("BACCARA_SIM_FUZZ", "0"))

    @settings(max_examples=hunt or 100, deadline=None, derandomize=not hunt, database=None,
              suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def one(data):
        game = data.draw(st.sampled_from(sorted(OPTIONS)))
        chosen = data.draw(st.lists(st.sampled_from(OPTIONS[game]), min_size=1, max_size=3, unique=True))
        args = [game]
        for opt in chosen:
            args += [opt, data.draw(values(game, opt, files), label=opt)]
        for opt, v in (("--shoes", "2"), ("--workers", "1"), ("--seed", "11")):
            if opt not in chosen and not (opt == "--workers" and "--scheduler" in chosen):
                args += [opt, v]
        args.append("--no-progress")
        t0 = time.monotonic()
        signal.alarm(30)
        try:
            os.chdir(fuzz_dir)  # relative --out paths land here
            r = runner.invoke(simulate_app, args)
        finally:
            signal.alarm(0)
            os.chdir(cwd)
        assert r.exception is None or isinstance(r.exception, SystemExit), (args, repr(r.exception))
        assert r.exit_code in (0, 2), (args, r.exit_code, r.output)
        outcomes[f"{game} exit {r.exit_code}"] = outcomes.get(f"{game} exit {r.exit_code}", 0) + 1
        if r.exit_code == 2:
            msg = flat(r.stderr or r.output).lower()
            assert "error" in msg, (args, msg)
            assert any(opt in msg for opt in chosen), (args, msg)
        assert time.monotonic() - t0 < 30

    outcomes: dict[str, int] = {}
    try:
        one()
    finally:
        signal.signal(signal.SIGALRM, previous)
        print("fuzz outcomes:", dict(sorted(outcomes.items())))
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss < 2_000_000  # KiB: under 2 GB


def test_library_errors_name_arguments_and_the_command_line_names_flags():
    # One message, two audiences: play_punto(perfect_every=0) names its argument,
    # the command line the flag it was given.
    from typer.testing import CliRunner

    import baccara.sim as sim
    from baccara.cli import app
    from baccara.errors import ParameterError

    with pytest.raises(ParameterError, match=r"^perfect_every must be a positive integer, got 0$"):
        sim.play_punto(10, seed=1, perfect=True, perfect_every=0)
    with pytest.raises(ParameterError, match=r"^seed must be an integer from 0 to 2\^63 - 1"):
        sim.play_punto(10, seed=-1)
    with pytest.raises(ParameterError, match=r"^bets: unknown bet 'nope'"):
        sim.play_punto(10, seed=1, bets="nope")
    r = CliRunner().invoke(app, ["simulate", "punto", "--shoes", "10", "--bets", "nope"])
    assert r.exit_code == 2 and "error: --bets: unknown bet 'nope'" in r.output
