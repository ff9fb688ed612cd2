"""``baccara bertrand``: Bertrand's 1888 problems (Ethier, "A note on Bertrand's analysis of baccarat")."""

from __future__ import annotations

import json

from ..cli_errors import handles_errors
from ..games.bertrand import bertrand_report, bertrand_text
from .common import JSON, app, out


@app.command()
@handles_errors
def bertrand(json_out: bool = JSON) -> None:
    """Bertrand's 1888 problems (Ethier 2021): D0, D1, D1/2, W, T, E; Dormoy; Badoureau's errors; audits."""
    if json_out:
        print(json.dumps(bertrand_report(), indent=2))
        return
    out.print(bertrand_text(), highlight=False)


