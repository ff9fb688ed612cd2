"""The front door: the library from a plain script, clear errors for every class of bad input
a new user meets, and output that reads on a narrow terminal."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
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
    ("from baccara.sim.distributed import spawn_is_safe\nprint(spawn_is_safe())\n", False),
    ("from baccara.sim.distributed import spawn_is_safe\n\nif __name__ == '__main__':\n    print(spawn_is_safe())\n", True),
    ("from baccara.sim.distributed import spawn_is_safe\n\ndef main():\n    print(spawn_is_safe())\n\n"
     "if '__main__' == __name__:\n    main()\n", True),
    ("from baccara.sim.distributed import spawn_is_safe\n\ndef main():\n    print(spawn_is_safe())\n\nmain()\n", False),
])
def test_spawn_is_safe_reads_the_scripts_guard(tmp_path, code, safe):
    r = _python(code, tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == str(safe)


def test_spawn_is_safe_from_python_c():
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    r = subprocess.run([sys.executable, "-c", "from baccara.sim.distributed import spawn_is_safe; print(spawn_is_safe())"],
                       capture_output=True, text=True, timeout=60, env=env)
    assert r.stdout.strip() == "True", r.stderr


def test_processes_backend_from_a_plain_script_is_a_clear_error(tmp_path):
    r = _python("""
        from baccara import sim
        from baccara.errors import BaccaraError
        try:
            sim.play_punto(4, seed=1, bets="tie", backend="processes", workers=2)
        except BaccaraError as e:
            print("refused:", e)
    """, tmp_path)
    assert r.returncode == 0, r.stderr
    assert "refused:" in r.stdout and "__main__" in r.stdout and "backend='processes'" in r.stdout
