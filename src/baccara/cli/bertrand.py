"""``baccara bertrand``: Bertrand's 1888 problems (Ethier, "A note on Bertrand's analysis of baccarat")."""

from __future__ import annotations

from ..chemin.bertrand1888 import bertrand as solve_bertrand
from .common import JSON, app, render
from .errors import handles_errors


@app.command()
@handles_errors
def bertrand(json_out: bool = JSON) -> dict | None:
    """Bertrand's 1888 problems (Ethier 2021): D0, D1, D1/2, W, T, E; Dormoy; Badoureau's errors; audits."""
    return render(solve_bertrand(), json_out)


