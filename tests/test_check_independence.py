"""The artefact checker (baccara.check) must not lean on the solvers it checks."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import baccara.check as check_pkg
from baccara.check import ArtefactError, check, check_file
from baccara.cli import app

#: What a checker module may import from baccara: itself, the two small protocol modules, and where
#: its workers run (processes here or a Dask cluster; no mathematics).
ALLOWED = ("baccara.check", "baccara.result", "baccara.errors", "baccara.processes")
#: Third-party modules it may use: exact arithmetic, nothing that solves games.
THIRD_PARTY = {"flint", "rich"}


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    pkg = "baccara.check"
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = pkg.rsplit(".", node.level - 1)[0] if node.level > 1 else pkg
                out.append(f"{base}.{node.module}" if node.module else base)
            else:
                out.append(node.module or "")
    return out


def test_checker_imports_no_solver():
    import sys

    for path in Path(check_pkg.__file__).parent.glob("*.py"):
        for name in _imports(path):
            top = name.split(".")[0]
            if top == "baccara":
                assert name.startswith(ALLOWED), f"{path.name} imports {name}: the checker must not use the solvers"
            else:
                assert top in sys.stdlib_module_names or top in THIRD_PARTY, f"{path.name} imports {name}"
    # and where the workers run leans on nothing of baccara but its errors
    import baccara.processes as where

    tree = ast.parse(Path(where.__file__).read_text())
    ours = [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.level]
    assert ours == ["errors"], ours


def test_not_an_artefact_is_a_clear_error(tmp_path):
    with pytest.raises(ArtefactError, match="not a proof artefact"):
        check([1, 2])
    with pytest.raises(ArtefactError, match="kind 'nonsense'"):
        check({"kind": "nonsense"})
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(ArtefactError, match="cannot read"):
        check_file(bad)


def test_cli_bad_file_exit_2(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"kind": "nonsense"}))
    r = CliRunner().invoke(app, ["check", str(bad)])
    assert r.exit_code == 2
    assert "kind 'nonsense'" in r.output
    r = CliRunner().invoke(app, ["check", str(tmp_path / "missing.json")])
    assert r.exit_code == 2

