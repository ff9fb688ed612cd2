"""Start-up: what the command line and the exact engine load, and that the quick paths give the same answers.

``baccara --version`` and ``--help`` list the commands without importing them (their summaries are kept in
:mod:`baccara.cli`, checked here against the commands' own help); the exact engine counts a process's first
distribution in pure Python instead of loading Numba, with the same integers as the compiled kernels.
"""

import json
import subprocess
import sys

import numpy as np
import pytest
import typer
from click.utils import _make_default_short_help

import baccara.cli as cli
from baccara import Shoe, builtin_bets, evaluate
from baccara.punto import exact as exact_module

PROBE = ("import json, sys, runpy\n"
         "sys.argv = ['baccara'] + sys.argv[1:]\n"
         "code = 0\n"
         "try:\n"
         "    from baccara.cli import main\n"
         "    main()\n"
         "except SystemExit as e:\n"
         "    code = e.code\n"
         "sys.stdout = sys.__stdout__\n"
         "print('\\nLOADED', json.dumps({'code': code, 'modules': sorted(m for m in ('numpy', 'numba', 'scipy', "
         "'flint', 'pydantic', 'baccara.punto.exact', 'baccara.sim.punto', 'baccara.chemin.model') "
         "if m in sys.modules)}))\n")


def loaded(*args: str) -> dict:
    """The exit status of ``baccara ARGS`` in a fresh interpreter, and which heavy modules it imported."""
    p = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, timeout=120)
    return json.loads(p.stdout.rsplit("LOADED", 1)[1])


def test_version_and_help_import_neither_numpy_nor_the_commands():
    assert loaded("--version") == {"code": 0, "modules": []}
    top = loaded("--help")
    assert top["code"] == 0 and not {"numba", "scipy", "baccara.punto.exact"} & set(top["modules"])


@pytest.mark.parametrize("group", ["chemin", "simulate", "banque", "count", "macao", "check"])
def test_a_group_help_loads_no_kernel_or_solver(group):
    got = loaded(group, "--help")
    assert got["code"] == 0
    # nor Pydantic, which Typer imports to coerce a flag's None default (cli.errors.BaccaraGroup gives it False)
    assert not {"numba", "scipy", "flint", "pydantic", "baccara.punto.exact", "baccara.chemin.model"} & set(got["modules"])


def test_edge_computes_without_numba():
    got = loaded("edge", "--decks", "8", "--json")
    assert got["code"] == 0 and "numba" not in got["modules"] and "baccara.punto.exact" in got["modules"]


def test_the_listed_summaries_are_the_commands_own():
    """``baccara --help`` lists each command by the first sentence of its help (all that click shows there)."""
    full = typer.main.get_command(cli.app)
    own = {name: _make_default_short_help(c.help or "", 10**6) for name, c in full.commands.items()}
    assert dict(cli._SUMMARIES) == own
    assert [name for name, _ in cli._SUMMARIES] == list(full.commands)  # in the same order


def test_the_command_is_the_first_word_that_is_not_an_option():
    assert cli._command_name(["--help"]) is None
    assert cli._command_name(["simulate", "punto"]) == "simulate"
    assert cli._command_name(["--version", "edge"]) == "edge"
    assert cli._command_name(["--", "edge"]) == "edge"


@pytest.mark.parametrize("shoe,known", [
    (Shoe.decks(8), None),                                   # by suit
    (Shoe.from_ranks([24] * 13), "1 in 6,7,8,9"),            # by rank, conditioned
    (Shoe.decks(8).by_value(), None),                        # by value: the value-level kernel
    (Shoe.infinite(), None),
])
def test_the_pure_python_first_count_equals_the_compiled_kernels(monkeypatch, shoe, known):
    compiled = exact_module.coup_counts(shoe, known=known)
    monkeypatch.setattr(exact_module, "_numba_loaded", lambda: False)
    monkeypatch.setattr(exact_module, "_pure_counted", 0)
    first = exact_module.coup_counts(shoe, known=known)
    assert exact_module._pure_counted == 1  # this one was counted in Python
    assert first.dtype == compiled.dtype == np.int64
    assert np.array_equal(first, compiled)


def test_the_pure_python_first_value_book_equals_the_compiled_kernels(monkeypatch):
    shoe = Shoe.decks(8).remove("5").remove("5")
    bets = [b for b in builtin_bets().values() if b.resolution == "value"]
    def priced() -> dict:
        return {name: (r.counts, r.deals, r.ev) for name, r in evaluate(shoe, bets).items()}

    compiled = priced()
    monkeypatch.setattr(exact_module, "_numba_loaded", lambda: False)
    monkeypatch.setattr(exact_module, "_pure_counted", 0)
    assert priced() == compiled
    assert exact_module._pure_counted == 1
