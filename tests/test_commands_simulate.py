"""The declarations of ``baccara simulate`` and ``baccara count`` (:mod:`baccara.commands.simulate`, ``.count``).

Each body takes exactly its declared parameters (by keyword: no ``json_out``, no Typer context), the web's
restrictions are declared where the web app reads them, a body called directly (as the web app calls it)
gives the document ``--json`` prints, and the modules load neither Typer nor the command line.
"""

from __future__ import annotations

import inspect
import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from baccara.cli.count import count_app
from baccara.cli.simulate import simulate_app
from baccara.commands.count import COUNT, COUNT_DESIGN
from baccara.commands.simulate import SIMULATE_BANQUE, SIMULATE_CHEMIN, SIMULATE_PUNTO, DryRun
from baccara.errors import BaccaraError

COMMANDS = (SIMULATE_PUNTO, SIMULATE_CHEMIN, SIMULATE_BANQUE, COUNT, COUNT_DESIGN)
#: What the web app may not set: files on the server, the machine's resources, the command line's own display.
CLI_ONLY = {"out_path", "workers", "backend", "scheduler", "progress", "allow_long", "dry_run", "log", "seat",
            "log_format"}


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c.cli)
def test_a_body_takes_exactly_its_declared_parameters_by_keyword(command):
    parameters = inspect.signature(command.function()).parameters.values()
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in parameters)
    assert [p.name for p in parameters] == [p.name for p in command.params]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c.cli)
def test_the_web_is_offered_all_but_the_command_lines_own_parameters(command):
    offered = {p.name for p in command.web_params()}
    assert offered == {p.name for p in command.params} - CLI_ONLY
    assert not offered & CLI_ONLY


@pytest.mark.parametrize("command,query,parameter", [
    (COUNT_DESIGN, [("bet", "dragon7"), ("budget", "301")], "budget"),
    (COUNT_DESIGN, [("bet", "dragon7"), ("shoes", "1e12")], "shoes"),  # as the body reads it: not a way round
    (COUNT_DESIGN, [("bet", "dragon7"), ("shoes", "10_000_001")], "shoes"),
    (COUNT, [("bet", "tie"), ("perfect-shoes", "2e5")], "perfect-shoes"),
    (SIMULATE_CHEMIN, [("banker", "/etc/passwd")], "banker"),  # a file's path on the server: words only
    (SIMULATE_PUNTO, [("out", "/tmp/x.parquet")], "out"),  # the command line's own: not offered
    (SIMULATE_PUNTO, [("log", "/tmp")], "log"),  # a log written on the server: not offered
    (SIMULATE_PUNTO, [("bets-file", "/etc/passwd")], "bets-file"),  # a file is given as its text, bets-toml
])
def test_the_web_refuses_what_the_declarations_forbid_it(command, query, parameter):
    pytest.importorskip("fastapi")
    from baccara.web.commands import WebError, arguments

    with pytest.raises(WebError) as e:
        arguments(command, query)
    assert e.value.parameter == parameter and 400 <= e.value.status < 500


def test_the_web_takes_each_file_as_its_text():
    pytest.importorskip("fastapi")
    from baccara.web.commands import Text, arguments

    kw = arguments(SIMULATE_PUNTO, [("bets-toml", "a"), ("tableau-toml", "b"), ("count-toml", "c")])
    assert (kw["bets_file"], kw["tableau"], kw["count"]) == (Text("bets-toml", "a"), Text("tableau-toml", "b"),
                                                             Text("count-toml", "c"))


def test_a_body_called_directly_gives_the_document_the_command_line_prints():
    args = {**SIMULATE_BANQUE.defaults(), "shoes": "3", "seed": "11", "workers": "1", "decks": "2"}
    direct = SIMULATE_BANQUE.function()(**args).to_json()
    r = CliRunner().invoke(simulate_app, ["banque", "--shoes", "3", "--seed", "11", "--workers", "1", "--decks", "2",
                                          "--json"])
    assert r.exit_code == 0, r.output
    printed = json.loads(r.stdout)
    direct.pop("run"), printed.pop("run")  # timings
    assert direct == printed and direct["shoes"] == 3


def test_a_dry_run_is_a_result_whose_document_is_the_estimate():
    args = {**SIMULATE_CHEMIN.defaults(), "shoes": "1e12", "allow_long": True, "dry_run": True}
    estimate = SIMULATE_CHEMIN.function()(**args)
    assert isinstance(estimate, DryRun) and list(estimate.renderables()) == []
    doc = estimate.to_json()
    assert doc["dry_run"] is True and doc["shoes"] == 10**12 and doc["hands"] > 10**12


@pytest.mark.parametrize("command,changes,option", [
    (SIMULATE_PUNTO, {"shoes": "0"}, "--shoes"),
    (SIMULATE_CHEMIN, {"banker": "nobody"}, "--banker"),
    (SIMULATE_BANQUE, {"theta": "1"}, "--theta"),
    (COUNT, {"bet": None}, "--bet"),
    (COUNT_DESIGN, {"bet": "dragon7", "level": "4"}, "--level"),
])
def test_a_body_refuses_bad_input_naming_the_option(command, changes, option):
    with pytest.raises(BaccaraError, match=f"^{option}"):
        command.function()(**{**command.defaults(), **changes})


def test_count_without_a_subcommand_runs_the_count_and_design_says_where_it_wrote(tmp_path):
    runner = CliRunner()
    r = runner.invoke(count_app, ["--bet", "dragon7"])
    assert r.exit_code == 2 and "--count: give the count system's TOML file" in r.stderr
    path = tmp_path / "d7.toml"
    r = runner.invoke(count_app, ["design", "--bet", "dragon7", "--decks", "2", "--shoes", "30", "--seed", "2",
                                  "--workers", "1", "--out", str(path)])
    assert r.exit_code == 0, r.output
    assert r.stdout.rstrip().endswith(f"count written to {path}") and path.read_text().strip()
    r = runner.invoke(count_app, ["design", "--bet", "dragon7", "--decks", "2", "--shoes", "30", "--seed", "2",
                                  "--workers", "1", "--out", str(path), "--json"])
    assert r.exit_code == 0 and "count written" not in r.stdout and json.loads(r.stdout)


def test_the_declarations_load_no_command_line():
    code = ("import sys, baccara.commands.simulate, baccara.commands.count\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('typer', 'click') "
            "or m.startswith(('baccara.cli', 'baccara.web'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip() == "[]"
