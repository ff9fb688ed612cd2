"""``baccara simulate``: punto banco, chemin de fer and banque on real shoes.

Register with ``app.add_typer(simulate_app, name="simulate")``.  The commands are declared, checked and run
in :mod:`baccara.commands.simulate`; here they become Typer commands: a summary for people, ``--json`` for
machines, and bad input prints ``error: ...`` naming the option and what it allows, and exits with status 2.
"""

from __future__ import annotations

from typing import Any

import typer

from ..commands.simulate import SIMULATE_BANQUE, SIMULATE_CHEMIN, SIMULATE_PUNTO
from .common import register

simulate_app = typer.Typer(
    help="Simulate real shoes (shuffle, burn, cut card): punto banco bets and counting, chemin de fer, banque. "
         "Each run is estimated first; runs over an hour of one core's work (about 5 x 10^10 punto banco hands, "
         "3.6 million perfect-counter evaluations; with --backend gpu, an hour of the GPU's work at a nominal "
         "rate) or 10^8 --out rows need --allow-long; --dry-run prints the estimate and stops.",
    no_args_is_help=True,
)


def _no_bar_with_json(kw: dict[str, Any], json_out: bool) -> None:
    """``--progress`` not given: no bar with ``--json`` (its reader is a program), else on a terminal."""
    if json_out and kw["progress"] is None:
        kw["progress"] = False


for _command in (SIMULATE_PUNTO, SIMULATE_CHEMIN, SIMULATE_BANQUE):
    register(simulate_app, _command, __name__, before=_no_bar_with_json)
