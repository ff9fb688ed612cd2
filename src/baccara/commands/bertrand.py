"""``baccara bertrand``: Bertrand's 1888 problems (Ethier, "A note on Bertrand's analysis of baccarat")."""

from __future__ import annotations

from ..result import Result
from . import Command

BERTRAND = Command(("bertrand",), "Bertrand's 1888 problems (Ethier 2021): D0, D1, D1/2, W, T, E; Dormoy; "
                                  "Badoureau's errors; audits.", (), ".bertrand:bertrand")


def bertrand() -> Result:
    """Bertrand's 1888 problems, solved and audited (:data:`BERTRAND`).

    Returns
    -------
    Result
        :func:`baccara.chemin.bertrand1888.bertrand`'s.
    """
    from ..chemin.bertrand1888 import bertrand as solve_bertrand  # lazy: the solver, when the command runs

    return solve_bertrand()
