"""Time the banque checker's own list of equilibria against the solver's, at a few theta.

At each theta the checker (:func:`baccara.check.banque_interior.interior_equilibria` and
:func:`baccara.check.banque.boundary_equilibria`: plain Python, Fractions and arb balls, no
solver) lists every Nash equilibrium of the simplified banque game by itself.  The reference is
the solver's complete enumeration (:func:`baccara.banque.nash_eq.solution.nash_equilibria`: NumPy float
screens, then exact) at the same theta.  Both lists are compared, and the ratio printed.

Run: ``python benchmarks/bench_banque_check.py 1/34 4/43 1/4 11/38`` (CPU seconds, one process).
"""

from __future__ import annotations

import sys
import time
from fractions import Fraction

from baccara.banque.model import banque_game
from baccara.banque.nash_eq.solution import nash_equilibria
from baccara.check.banque import _Game, boundary_equilibria
from baccara.check.banque_deals import coefficient_table
from baccara.check.banque_interior import interior_equilibria


def main(thetas: list[Fraction]) -> None:
    game = _Game(coefficient_table())
    nash_equilibria(banque_game(), thetas[0])          # warm the solver's caches (the game, Numba) outside the timing
    for theta in thetas:
        t = time.process_time()
        inner, undecided = interior_equilibria(game, theta)
        edge, trouble = boundary_equilibria(game, theta)
        mine_s = time.process_time() - t
        t = time.process_time()
        sol = nash_equilibria(banque_game(), theta)
        theirs_s = time.process_time() - t
        points = {(float(e.p1), float(e.p2)) for e in sol.equilibria}
        say = "undecided: " + undecided[0] if undecided else f"{len(inner) + len(edge)} points, the solver {len(points)}"
        print(f"theta = {theta}: checker {mine_s:.2f} CPU s ({say}), solver {theirs_s:.2f} CPU s: "
              f"ratio {mine_s / theirs_s:.1f}x")


if __name__ == "__main__":
    main([Fraction(a) for a in sys.argv[1:]] or [Fraction(1, 34), Fraction(4, 43), Fraction(1, 4), Fraction(11, 38)])
