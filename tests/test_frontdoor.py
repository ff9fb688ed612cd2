"""The front door: the library from a plain script, clear errors for every class of bad input
a new user meets, and output that reads on a narrow terminal."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _python(code: str, tmp_path: Path, *args: str, name: str = "script.py", timeout: float = 120) -> subprocess.CompletedProcess:
    script = tmp_path / name
    script.write_text(textwrap.dedent(code))
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    return subprocess.run([sys.executable, *args, str(script)], capture_output=True, text=True, timeout=timeout,
                          cwd=tmp_path, env=env)


# ---------------------------------------------------------------- a plain script
def test_perfect_counter_runs_from_a_plain_script(tmp_path):
    """No ``if __name__ == "__main__":``: the perfect counter stays in threads instead of starting worker
    processes that would re-run the script (which crashed with BrokenProcessPool)."""
    r = _python("""
        from baccara import sim
        r = sim.play_punto(4, seed=1, bets="tie", perfect=True, tie_pays=9, workers=2)
        print(r.to_json()["run"]["backend"], r.to_json()["shoes"])
    """, tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["threads", "4"]
    assert "bootstrapping" not in r.stderr and "BrokenProcessPool" not in r.stderr


@pytest.mark.parametrize(("code", "safe"), [
    ("from baccara.processes import spawn_is_safe\nprint(spawn_is_safe())\n", False),
    ("from baccara.processes import spawn_is_safe\n\nif __name__ == '__main__':\n    print(spawn_is_safe())\n", True),
    ("from baccara.processes import spawn_is_safe\n\ndef main():\n    print(spawn_is_safe())\n\n"
     "if '__main__' == __name__:\n    main()\n", True),
    ("from baccara.processes import spawn_is_safe\n\ndef main():\n    print(spawn_is_safe())\n\nmain()\n", False),
])
def test_spawn_is_safe_reads_the_scripts_guard(tmp_path, code, safe):
    r = _python(code, tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == str(safe)


def test_spawn_is_safe_from_python_c():
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    r = subprocess.run([sys.executable, "-c", "from baccara.processes import spawn_is_safe; print(spawn_is_safe())"],
                       capture_output=True, text=True, timeout=60, env=env)
    assert r.stdout.strip() == "True", r.stderr


def test_processes_backend_from_a_plain_script_forks_on_linux(tmp_path):
    """A plain script on one thread: the workers are forked (they do not re-run the script), and the
    result is the threads' to the last tally."""
    if not sys.platform.startswith("linux"):
        pytest.skip("workers are forked only on Linux")
    r = _python("""
        from baccara import sim
        from baccara.processes import start_method
        print(start_method())
        a = sim.play_punto(200, seed=3, bets="banker,tie", backend="processes", workers=2).to_json()
        b = sim.play_punto(200, seed=3, bets="banker,tie", backend="threads", workers=2).to_json()
        print(a["run"]["backend"], a["bets"] == b["bets"], a["hands"] == b["hands"])
    """, tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["fork", "processes", "True", "True"]


def test_processes_backend_from_a_plain_script_with_threads_is_a_clear_error(tmp_path):
    """Another thread alive: the workers would be spawned and re-run the script, so the call is refused."""
    r = _python("""
        import threading
        from baccara import sim
        from baccara.errors import BaccaraError
        from baccara.processes import start_method
        stop = threading.Event()
        threading.Thread(target=stop.wait, daemon=True).start()
        print(start_method())
        try:
            sim.play_punto(4, seed=1, bets="tie", backend="processes", workers=2)
        except BaccaraError as e:
            print("refused:", e)
        stop.set()
    """, tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("spawn")
    assert "refused:" in r.stdout and "__main__" in r.stdout and "backend='processes'" in r.stdout


def test_a_local_dask_run_from_a_plain_script_starts_no_process(tmp_path):
    """A job whose kernels release the GIL runs on a local Dask cluster of threads in this process: no
    worker process re-runs the script, so a plain script may ask for it (it was refused for that reason),
    and its result is the threads' to the last tally."""
    r = _python("""
        import multiprocessing.process
        from baccara import sim
        started = []
        start = multiprocessing.process.BaseProcess.start
        multiprocessing.process.BaseProcess.start = lambda self: (started.append(self), start(self))[1]
        a = sim.play_punto(2_000, seed=1, backend="dask", workers=2).to_json()
        b = sim.play_punto(2_000, seed=1, backend="threads", workers=2).to_json()
        print(a["run"]["backend"], len(started), a["outcomes"] == b["outcomes"], a["bets"] == b["bets"])
    """, tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["dask", "0", "True", "True"]


def test_a_local_dask_run_of_worker_processes_from_a_plain_script_is_a_clear_error(tmp_path):
    """The perfect counter on pair bets holds the GIL: its local Dask cluster is spawned processes, which
    would re-run the script, so the call is refused with the way out."""
    r = _python("""
        from baccara import sim
        from baccara.errors import BaccaraError
        try:
            sim.play_punto(4, seed=1, bets="player_pair", perfect=True, backend="dask", workers=2)
        except BaccaraError as e:
            print("refused:", e)
    """, tmp_path)
    assert r.returncode == 0, r.stderr
    assert "refused:" in r.stdout and "__main__" in r.stdout and "backend='dask'" in r.stdout


def test_workers_are_spawned_while_another_thread_runs():
    """A fork while another thread may hold a lock could hang the child: then the workers are spawned."""
    from baccara.processes import start_method

    stop = threading.Event()
    t = threading.Thread(target=stop.wait, daemon=True)
    t.start()
    try:
        assert start_method() == "spawn"
    finally:
        stop.set()
        t.join()


# ---------------------------------------------------------------- clear errors, no silent choices
def test_evaluate_takes_bet_names_or_says_what_it_wants():
    from baccara import Shoe, builtin_bets, edge, evaluate
    from baccara.errors import BetError

    shoe = Shoe.decks(8)
    by_name = evaluate(shoe, ["banker", "tie"])
    by_bet = evaluate(shoe, [builtin_bets()["banker"], builtin_bets()["tie"]])
    assert {k: r.ev for k, r in by_name.items()} == {k: r.ev for k, r in by_bet.items()}
    assert evaluate(shoe, "banker,tie").keys() == by_name.keys()
    assert edge(shoe, "banker") == by_name["banker"].edge
    with pytest.raises(BetError, match="unknown bet 'bankr'.*banker"):
        evaluate(shoe, ["bankr"])
    with pytest.raises(BetError, match="Bet objects or names"):
        evaluate(shoe, [3])  # type: ignore[list-item]


def test_model_a_is_the_infinite_shoe_only():
    from baccara import chemin
    from baccara.errors import BaccaraError

    assert chemin.solve("A1").to_json()["shoe"]["kind"] == "infinite"  # the default follows the model
    with pytest.raises(BaccaraError, match="model A1 deals with replacement.*Model B1 for an 8-deck shoe"):
        chemin.solve("A1", decks=8)


@pytest.mark.parametrize(("decks", "words"), [(1, "a 1-deck"), (6, "a 6-deck"), (8, "an 8-deck"),
                                              (11, "an 11-deck"), (18, "an 18-deck"), (80, "an 80-deck"),
                                              (110, "a 110-deck"), (11000, "an 11000-deck"), (800, "an 800-deck")])
def test_the_article_before_a_number_of_decks(decks, words):
    from baccara.shoe import a_decks

    assert a_decks(decks) == words


@pytest.fixture(scope="module")
def invoke():
    from typer.testing import CliRunner

    from baccara.cli import app

    runner = CliRunner()
    return lambda *args: runner.invoke(app, list(args))


def _refused(r, *needles: str) -> str:
    """Exit status 2, the project's ``error: ...`` (no click usage block, no traceback), naming ``needles``."""
    assert r.exit_code == 2, r.output
    assert r.output.startswith("error: "), r.output
    assert "Usage:" not in r.output and "Traceback" not in r.output
    for n in needles:
        assert n in r.output, (n, r.output)
    return r.output


@pytest.mark.parametrize("command", [
    ["simulate", "punto", "--shoes", "10"],
    ["count", "--bet", "dragon7", "--decks", "1", "--shoes", "100", "--perfect-shoes", "0"],
    ["count", "design", "--bet", "dragon7", "--decks", "1"],
    ["report", "--bet", "dragon7", "--decks", "1", "--design-shoes", "100", "--count-shoes", "100",
     "--perfect-shoes", "0", "--check-hands", "0", "--json"],
    ["audit", "--tables", "."],
    ["check", "no-such-artefact.json"],
    ["banque", "prove", "--lo", "49/100"],
    ["chemin", "prove", "--decks", "1-2"],
])
def test_every_commands_workers_have_one_range_checked_before_any_work(invoke, monkeypatch, command):
    """Every -j/--workers takes 1 to twice the cores, refused at the face in the same words; ``report`` took
    up to 256 and ran several stages before a runner refused more than twice the cores."""
    import baccara.punto.mathreport as mathreport
    from baccara.processes import default_workers, max_workers

    def ran(*args, **kwargs):
        raise AssertionError("the work started")

    monkeypatch.setattr(mathreport, "math_report", ran)
    top = max_workers()
    shared = f"--workers must be an integer from 1 to {top} (twice the {default_workers()} cores of this machine)"
    for bad in (str(top + 1), "0"):
        out = _refused(invoke(*command, "--workers", bad), shared)
        assert out.count("error:") == 1, out
    if command[0] == "report":  # the most is accepted (the stub stops it when the work starts)
        r = invoke(*command, "--workers", str(top))
        assert "AssertionError: the work started" in r.output, r.output


def test_parse_errors_speak_like_every_other_bad_input(invoke):
    msg = _refused(invoke("edge", "--deck", "8"), "--deck", "did you mean --decks?", "baccara edge --help")
    assert "No such option" not in msg
    _refused(invoke("chemin", "solve", "--modle", "B2"), "did you mean --model?")
    _refused(invoke("edg"), "no command 'edg'", "did you mean edge?")
    _refused(invoke("chemin", "solv"), "baccara chemin has no command 'solv'")
    _refused(invoke("edge", "--decks"), "--decks needs a value", "baccara edge --help")
    _refused(invoke("edge", "extra"), "extra")


def test_help_and_no_arguments_are_unchanged(invoke):
    r = invoke("edge", "--help")
    assert r.exit_code == 0 and "--decks" in r.output
    r = invoke()
    assert "Usage:" in r.output and "edge" in r.output


# ---------------------------------------------------------------- bad input, second round: one case per class
def test_a_bets_file_with_a_misspelt_table_or_unknown_key_is_refused(invoke, tmp_path):
    good = '[bets.small]\nrules = [ { when = { total_cards = 4 }, pays = "1.5" } ]\n'
    for extra, key in (('[bet.lucky]\nrules = [ { when = { natural = true }, pays = 2 } ]\n', "'bet'"),
                       ('colour = "red"\n', "'colour'")):
        f = tmp_path / "bets.toml"
        f.write_text(extra + good if extra.startswith("colour") else good + extra)
        _refused(invoke("bets", "--bets", str(f)), "--bets", key, "unknown key")


def test_chemin_prove_refuses_an_empty_out_and_makes_no_folder_when_refused(invoke, tmp_path):
    _refused(invoke("chemin", "prove", "--decks", "13", "--out", ""), "--out is empty")
    folder = tmp_path / "proofs"
    _refused(invoke("chemin", "prove", "--decks", "1-1000", "--out", str(folder)), "--allow-long")
    assert not folder.exists()


@pytest.mark.parametrize(("args", "needles"), [
    (["macao", "simulate", "--seed", str(2**64)], ["--seed", "2^63 - 1"]),
    (["macao", "simulate", "--seed", str(2**63)], ["--seed", "2^63 - 1"]),
    (["chemin", "prove", "--decks", "-1"], ["--decks", "got '-1'"]),
    (["chemin", "table4", "--decks", "-1"], ["--decks", "got '-1'"]),
    (["edge", "--decks", "-1"], ["--decks", "got '-1'"]),
    (["edge", "--decks", "\u0665"], ["--decks"]),                       # an Arabic-Indic five
    (["simulate", "punto", "--shoes", "\u0661\u0660"], ["--shoes"]),     # Arabic-Indic ten
    (["edge", "--commission", "\uff10.05"], ["--commission", "0-9"]),   # a full-width zero
    (["edge", "--composition", "1,2,3,4,5,6,7,8,9," + "9" * 61], ["--composition", "60 digits"]),
    (["edge", "--decks", "9" * 61], ["--decks", "60 digits"]),
    (["edge", "--commission", "1e-60"], ["--commission", "from 1e-59"]),
    (["chemin", "solve", "--model", "A2", "--remove", "9"], ["--remove"]),
    (["chemin", "solve", "--model", "A1", "--decks", "8"], ["--model A1", "--decks", "an 8-deck shoe"]),
    (["chemin", "solve", "--model", "A1", "--composition", "90,24,24,24,24,24,24,24,24,24"], ["--composition"]),
])
def test_bad_input_is_a_clear_error(invoke, args, needles):
    msg = _refused(invoke(*args), *needles)
    assert "got ''" not in msg


def test_the_finest_commission_the_message_names_is_allowed(invoke):
    assert invoke("edge", "--decks", "1", "--commission", "1e-59", "--json").exit_code == 0


def test_chemin_solve_model_a_without_decks_is_the_infinite_shoe(invoke):
    import json

    r = invoke("chemin", "solve", "--model", "A1", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["shoe"]["kind"] == "infinite"


class _ClosesAfterFirstLine:
    """Standard output whose reader goes away after the first line (``| head -1``)."""

    def __init__(self) -> None:
        self.text = ""

    def write(self, s: str) -> int:
        if "\n" in self.text:
            raise BrokenPipeError(32, "Broken pipe")
        self.text += s
        return len(s)

    def flush(self) -> None:
        if self.text.count("\n") > 1:
            raise BrokenPipeError(32, "Broken pipe")

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        import io

        raise io.UnsupportedOperation("no descriptor")


@pytest.mark.parametrize("args", [["bets"], ["chemin", "solve"], ["edgesort", "--decks", "8", "--sorted", "6,7,8,9",
                                                                  "--cards", "1"], ["bets", "--help"]])
def test_a_reader_that_closes_after_the_first_line_gets_a_quiet_141(monkeypatch, capsys, args):
    import typer

    from baccara.cli import app

    stream = _ClosesAfterFirstLine()
    monkeypatch.setattr(sys, "stdout", stream)
    with pytest.raises(SystemExit) as e:
        typer.main.get_command(app).main(args, prog_name="baccara")
    assert e.value.code == 141
    assert stream.text.count("\n") == 1 or "--help" in args  # the help is written at once, then flushed
    assert capsys.readouterr().err == ""


def test_banque_prove_estimates_before_it_starts(invoke, monkeypatch):
    from fractions import Fraction

    import baccara.banque.nash_eq.artefact
    from baccara.commands.banque import NASH_ENUMERATION_SECONDS, NASH_EVENT_SECONDS, nash_prove_seconds

    whole = sum(NASH_EVENT_SECONDS) + NASH_ENUMERATION_SECONDS
    assert nash_prove_seconds(Fraction(0), Fraction(1, 2), False) == pytest.approx(whole)
    assert nash_prove_seconds(Fraction(0), Fraction(1, 2), True) == pytest.approx(NASH_ENUMERATION_SECONDS)
    assert nash_prove_seconds(Fraction(49, 100), Fraction(1, 2), True) < 100  # a part of a part is computed

    def started(*a, **k):
        raise KeyboardInterrupt  # stands for the long run: the estimate must come first

    monkeypatch.setattr(baccara.banque.nash_eq.artefact, "prove", started)
    r = invoke("banque", "prove", "--out", "n.json")
    assert "the Nash proof over (0, 1/2]: about 45 min (estimated)" in r.output


def test_a_scheduler_that_greets_like_dask_then_sends_junk_is_a_clear_error():
    """It passes the greeting check, then the Dask client cannot read it (msgpack FormatError): an error
    naming --scheduler, not a CRITICAL traceback from Dask and 'internal error'."""
    import socket
    import struct
    import threading
    import time

    from typer.testing import CliRunner

    from baccara.cli.simulate import simulate_app

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
            body = struct.pack("<QQ", 1, 8) + b"\xc1garbage"  # framed as Dask frames, a msgpack that is not
            c.sendall(struct.pack("<Q", len(body)) + body)

    threading.Thread(target=serve, daemon=True).start()
    try:
        t0 = time.monotonic()
        r = CliRunner().invoke(simulate_app, ["punto", "--shoes", "2", "--seed", "1", "--scheduler",
                                              f"tcp://127.0.0.1:{srv.getsockname()[1]}"])
        assert time.monotonic() - t0 < 60
    finally:
        srv.close()
        for c in conns:
            c.close()
    assert r.exit_code == 2, r.output
    assert "--scheduler" in r.output and "not a working Dask scheduler" in r.output
    assert "internal error" not in r.output and "CRITICAL" not in r.output and "Traceback" not in r.output


# ---------------------------------------------------------------- narrow terminals
_NUMBER = r"(?<![\w.,/])[-+]?\d+(?:,\d{3})*(?:\.\d+)?%?(?:/\d+)?(?!\w)"


def _rendered(result, width: int) -> str:
    import io

    from rich.console import Console

    buf = io.StringIO()
    result.show(Console(file=buf, width=width, color_system=None))
    return buf.getvalue()


@pytest.fixture(scope="module")
def narrow_results():
    from baccara import Shoe, sim
    from baccara.punto.edgesort import edge_sort

    return {"edgesort": edge_sort(Shoe.decks(8), "6,7,8,9", 1),
            "simulate punto": sim.play_punto(20, seed=1, bets="banker,player,tie,dragon7", workers=1)}


@pytest.mark.parametrize("width", [80, 40])
@pytest.mark.parametrize("name", ["edgesort", "simulate punto"])
def test_a_narrow_terminal_never_cuts_or_splits_a_number(narrow_results, name, width):
    """Every number of the wide report is in the narrow one whole, nothing is elided, no line is too long."""
    import re

    result = narrow_results[name]
    wide, narrow = _rendered(result, 1000), _rendered(result, width)
    assert "…" not in narrow and "..." not in narrow
    assert all(len(line) <= width for line in narrow.splitlines()), narrow
    tokens = lambda text: sorted(re.findall(_NUMBER, text))  # noqa: E731
    assert tokens(narrow) == tokens(wide)


def test_show_follows_columns(narrow_results, monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", "80")
    narrow_results["edgesort"].show()
    text = capsys.readouterr().out
    assert "…" not in text and max(len(line) for line in text.splitlines()) <= 80


# ---------------------------------------------------------------- reprs and names
def test_shoe_reprs_are_short_and_say_what_the_shoe_is():
    from baccara import Shoe

    assert repr(Shoe.decks(8)) == "Shoe.decks(8)" and eval(repr(Shoe.decks(8))) == Shoe.decks(8)
    assert repr(Shoe.infinite()) == "Shoe.infinite()" and eval(repr(Shoe.infinite())) == Shoe.infinite()
    depleted = repr(Shoe.decks(8).remove("9"))
    assert depleted.startswith("<Shoe: 415-card shoe") and "9=31" in depleted and len(depleted) < 200


def test_a_bet_result_shows_its_house_edge():
    from baccara import Shoe, evaluate

    r = evaluate(Shoe.decks(8), ["banker"])["banker"]
    assert repr(r).startswith("<BetResult banker: house edge 1.0579% (= 114753351728/10847218479825)")
    assert repr(r.bet) == "<Bet banker: Banker, 5% commission on wins; 2 rules, otherwise pays -1>"


def test_the_count_library_is_exported_and_documented():
    from baccara import sim

    for name in ("analyse_count", "design_count"):
        f = getattr(sim, name)
        assert name in sim.__all__ and "Parameters" in f.__doc__ and "Returns" in f.__doc__
    from baccara import Shoe

    assert "Parameters" in Shoe.decks.__doc__ and "Returns" in Shoe.decks.__doc__


def test_help_lists_every_summary_whole_and_each_default_once(invoke):
    r = invoke("--help")
    commands = r.output.split("Commands:")[1]
    assert "..." not in commands and "edge" in commands
    r = invoke("count", "--help")
    for block in r.output.split("\n  -"):
        assert not ("(default" in block and "[default" in block), block


def test_first_sentence_is_whole():
    from baccara.cli.errors import first_sentence

    assert first_sentence("Plot it (e.g. a curve). More.\n\nDetails.") == "Plot it (e.g. a curve)."
    assert first_sentence("No full stop\nat all") == "No full stop at all"


# ---------------------------------------------------------------- the site
def _load_script(path: Path, name: str):
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_site_check_fails_on_a_raw_role(tmp_path):
    check_site = _load_script(ROOT / "scripts" / "check_site.py", "check_site")
    (tmp_path / "index.html").write_text("<p>See :func:<code>evaluate</code> and <code>Shoe</code>.</p>"
                                         "<pre>{'func': 1, ':class:': 2}</pre>")
    (tmp_path / "clean.html").write_text("<p>See <code>evaluate</code>; a ratio 1:2, a time 10:30.</p>")
    errors = check_site.check_roles(tmp_path)
    assert len(errors) == 1 and "index.html" in errors[0] and "evaluate" in errors[0]


def test_sphinx_roles_become_code_spans():
    roles = _load_script(ROOT / "docs" / "griffe_roles.py", "griffe_roles") if _has("griffe") else None
    if roles is None:
        pytest.skip("griffe (a documentation dependency) is not installed")
    assert roles.plain(":func:`evaluate` and :class:`~baccara.shoe.Shoe`") == "`evaluate` and `Shoe`"
    assert roles.plain(":meth:`the decks <baccara.shoe.Shoe.decks>`, :py:mod:`baccara.sim`") == \
        "`the decks`, `baccara.sim`"


def _has(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None


@pytest.mark.slow
def test_a_local_dask_cluster_needs_no_dashboard_port(capfd):
    """Port 8787 taken (another cluster's dashboard): no "Port 8787 is already in use" message."""
    import socket

    from baccara.processes import dask_client

    taken = socket.socket()
    try:
        taken.bind(("127.0.0.1", 8787))
        taken.listen(1)
    except OSError:
        pass  # already taken by something else: the same situation
    import warnings

    try:
        with warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always")
            client, cluster = dask_client(1, None)
            client.close()
            cluster.close()
    finally:
        taken.close()
    out = capfd.readouterr()
    assert "8787" not in out.out + out.err + " ".join(str(w.message) for w in said)


def test_the_start_method_can_be_chosen_by_the_environment(monkeypatch):
    from baccara.errors import ParameterError
    from baccara.processes import START_METHOD_VARIABLE, start_method

    monkeypatch.setenv(START_METHOD_VARIABLE, "spawn")
    assert start_method() == "spawn"
    monkeypatch.setenv(START_METHOD_VARIABLE, " Fork ")
    assert start_method() == "fork"
    monkeypatch.setenv(START_METHOD_VARIABLE, "forkserver")
    with pytest.raises(ParameterError, match="BACCARA_START_METHOD must be fork or spawn, got 'forkserver'"):
        start_method()


def test_a_fork_beside_native_threads_warns_nobody(tmp_path):
    """Python 3.12+ warns of any fork where the system counts several threads (BLAS's idle pool): the pool's
    start silences that one warning, and only where no other Python thread runs."""
    if not sys.platform.startswith("linux"):
        pytest.skip("workers are forked only on Linux")
    r = _python("""
        import os
        import warnings
        warnings.simplefilter("error")
        real_fork = os.fork

        def fork():  # Python 3.12's own words where the system counts several threads
            warnings.warn(f"This process (pid={os.getpid()}) is multi-threaded, use of fork() may lead to "
                          "deadlocks in the child.", DeprecationWarning, stacklevel=2)
            return real_fork()

        os.fork = fork
        import numpy
        from baccara.processes import process_pool
        with process_pool(1) as pool:
            print(pool.submit(sum, [1, 2]).result())
    """, tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["3"]
