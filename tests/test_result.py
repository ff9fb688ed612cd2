"""The result protocol: every result has to_json(), a one-line repr, a report for people and HTML for notebooks."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from baccara.games.chemin.model3 import solve_chemin3, sweep_chemin3
from baccara.games.chemin.solution import solve_chemin, sweep_chemin
from baccara.result import Result

RESULTS = {
    "chemin B2 solve": lambda: solve_chemin("B2", 6, Fraction(1, 20)),
    "chemin A1 sweep": lambda: sweep_chemin("A1", None),
    "chemin B3 solve": lambda: solve_chemin3("B3", 2, Fraction(1, 20), all_equilibria=True),
    "chemin B3 sweep": lambda: sweep_chemin3(2, confirm=False),
}


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
