"""What the web app's tests share besides the ``client`` fixture (tests/conftest.py): the command line's document."""

import json

from typer.testing import CliRunner

from baccara.cli import app as cli_app

__all__ = ["cli_app", "cli_json"]


def cli_json(*args: str):
    """What ``baccara ARGS --json`` prints, parsed."""
    r = CliRunner().invoke(cli_app, [*args, "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)
