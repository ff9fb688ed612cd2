"""The result protocol: every result has to_json(), a one-line repr, a report for people and HTML for notebooks."""

from __future__ import annotations

import io
import json
import re
from fractions import Fraction
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

import baccara
from baccara.chemin.model import chemin_game
from baccara.chemin.model3 import solve_chemin3, sweep_chemin3
from baccara.chemin.solution import solve_chemin, sweep_chemin
from baccara.cli.simulate import simulate_app
from baccara.result import Result
from baccara.sim import SimResult, play_banque, play_chemin, play_punto

RESULTS = {
    "chemin B2 solve": lambda: solve_chemin(chemin_game("B2", 6), Fraction(1, 20)),
    "chemin A1 sweep": lambda: sweep_chemin(chemin_game("A1", None)),
    "chemin B3 solve": lambda: solve_chemin3(chemin_game("B3", 2), Fraction(1, 20), all_equilibria=True),
    "chemin B3 sweep": lambda: sweep_chemin3(chemin_game("B3", 2), confirm=False),
}

DRAGON7 = str(Path(__file__).parents[1] / "examples" / "counts" / "dragon7.toml")
#: Simulations, small and seeded; and the same run on the command line.
SIMULATIONS = {
    "simulate punto": (lambda: play_punto(60, seed=1, bets="banker,tie,dragon7", workers=1),
                       ["punto", "--shoes", "60", "--seed", "1", "--bets", "banker,tie,dragon7"]),
    "simulate punto count": (lambda: play_punto(30, seed=2, count=DRAGON7, workers=1),
                             ["punto", "--shoes", "30", "--seed", "2", "--count", DRAGON7]),
    "simulate punto perfect": (lambda: play_punto(2, seed=3, bets="tie", perfect=True, perfect_every=4, workers=1),
                               ["punto", "--shoes", "2", "--seed", "3", "--bets", "tie", "--perfect",
                                "--perfect-every", "4"]),
    "simulate chemin": (lambda: play_chemin(30, seed=4, workers=1), ["chemin", "--shoes", "30", "--seed", "4"]),
    "simulate chemin tableau": (lambda: play_chemin(30, seed=5, decks="inf", banker="tableau", draw_at_5="1/2",
                                                    workers=1),
                                ["chemin", "--shoes", "30", "--seed", "5", "--decks", "inf", "--banker", "tableau",
                                 "--draw-at-5", "1/2"]),
    "simulate banque": (lambda: play_banque(30, seed=6, workers=1), ["banque", "--shoes", "30", "--seed", "6"]),
    "simulate banque independent": (lambda: play_banque(30, seed=7, decks=None, p1="1", p2="1/2",
                                                        banker="draw-to-5", workers=1),
                                    ["banque", "--shoes", "30", "--seed", "7", "--decks", "inf", "--players",
                                     "independent", "--p1", "draw", "--p2", "1/2", "--banker", "draw-to-5"]),
}
RESULTS.update({name: make for name, (make, _) in SIMULATIONS.items()})


@pytest.mark.parametrize("name", RESULTS)
def test_every_result_follows_the_protocol(name):
    r = RESULTS[name]()
    assert isinstance(r, Result)
    doc = r.to_json()
    assert json.loads(r.json()) == doc == json.loads(json.dumps(doc))
    line = r.summary()
    assert "\n" not in line and repr(r) == f"<{type(r).__name__}: {line}>"
    html = r._repr_html_()
    assert html.startswith("<pre") and line.split(":")[0] in html
    assert list(r.renderables())[0] == line


def _timeless(doc: dict) -> dict:
    """The document without what depends on the clock (the run's seconds and rates)."""
    doc = json.loads(json.dumps(doc))
    doc.pop("run")
    doc.get("perfect", {}).pop("evaluations_per_second", None)
    doc.get("perfect", {}).pop("evaluations_per_cpu_second", None)
    return doc


@pytest.mark.parametrize("name", SIMULATIONS)
def test_a_simulation_prints_its_result(name):
    """``baccara simulate`` prints the result's document and report: the entry point and the command
    line build the same run, and the command line adds nothing of its own."""
    make, args = SIMULATIONS[name]
    r = make()
    assert isinstance(r, SimResult)
    doc = json.loads(CliRunner().invoke(simulate_app, [*args, "--json", "--workers", "1"]).stdout)
    assert _timeless(doc) == _timeless(r.to_json())
    text = CliRunner().invoke(simulate_app, [*args, "--workers", "1"]).stdout
    out = io.StringIO()
    r.show(Console(file=out, width=100_000))
    assert _clockless(text) == _clockless(out.getvalue())


def _clockless(text: str) -> str:
    """The report without the run's seconds and rates."""
    return re.sub(r"in [0-9.]+ s( \([0-9.]+ M hands/s)?|[0-9]+ a second", "T", text)


def test_show_prints_the_summary_first():
    r = play_banque(10, seed=1, workers=1)
    out = io.StringIO()
    r.show(Console(file=out, width=200))
    assert out.getvalue().splitlines()[0] == r.summary()


def test_a_result_names_the_file_its_rows_went_to():
    r = play_chemin(5, seed=1, workers=1)
    assert "out" not in r.to_json()
    r.out = "sessions.parquet"
    assert r.to_json()["out"] == "sessions.parquet"
    assert list(r.renderables())[-1] == "one row per shoe written to sessions.parquet"


def test_the_simulators_are_reachable_from_import_baccara():
    for name in ("play_punto", "play_chemin", "play_banque"):
        f = getattr(baccara.sim, name)
        assert "Parameters" in f.__doc__ and "Returns" in f.__doc__
