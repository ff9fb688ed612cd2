"""``baccara banque ...``: baccara banque's three solution concepts (Ethier and Lee 2015)."""

from __future__ import annotations

from fractions import Fraction

import typer

from .. import params
from ..commands.banque import BANQUE_ADVANTAGE, BANQUE_PROVE, BANQUE_SOLVE, BANQUE_SWEEP
from ..errors import BaccaraError
from ..workload import check_workload
from .common import ALLOW_LONG, out, progress_bar, register, say
from .errors import handles_errors

# ---------------------------------------------------------------- baccara banque
banque_app = typer.Typer(help="Baccara banque (Ethier and Lee 2015): the three-person game's solutions.", no_args_is_help=True,
                         rich_markup_mode=None)

register(banque_app, BANQUE_SOLVE, __name__)
register(banque_app, BANQUE_ADVANTAGE, __name__)


#: Most theta values a banque plot samples.
MAX_POINTS = 100_000
#: Measured seconds of one core for each figure: fixed, then per point.
PLOT_SECONDS = {1: (80.0, 0.0), 2: (0.0, 0.08), 3: (0.0, 0.22), 4: (240.0, 0.001)}


@banque_app.command("plot")
@handles_errors
def banque_plot(output: str = typer.Option("banque.png", "--out", "-o", metavar="FILE",
                                          help="Image file to write (.png, .pdf, .svg)."),
                figure: int = typer.Option(1, "--figure", "-f", metavar="1-4",
                                           help="Ethier and Lee's (2015) figure: 1 correlated value and mixture; "
                                                "2 independent p1, p2; 3 upper - lower value; 4 Nash p1, p2."),
                points: int = typer.Option(200, "--points", metavar="N",
                                           help=f"Theta values sampled (figures 2-4), 2 to {MAX_POINTS}."),
                allow_long: bool = ALLOW_LONG) -> None:
    """Plot Ethier and Lee's (2015) Figures 1-4 (banque over theta)."""
    if figure not in (1, 2, 3, 4):
        raise BaccaraError(f"--figure must be 1, 2, 3 or 4, got {figure}")
    if not 2 <= points <= MAX_POINTS:
        raise BaccaraError(f"--points must be a whole number from 2 to {MAX_POINTS}, got {points}")
    params.output_file(output, "--out", params.IMAGE_SUFFIXES)
    fixed, per_point = PLOT_SECONDS[figure]
    check_workload(f"Figure {figure} with {points} points", fixed + per_point * points, allow_long,
                   "ask for fewer --points", say)
    from ..plots import plot_banque_correlated, plot_banque_series

    try:
        if figure == 4:
            path = _banque_nash_plot(points, output)
        elif figure == 1:
            from ..banque.correlated_eq.sweep import correlated_sweep

            with progress_bar() as bar:
                task = bar.add_task("sweeping theta from 1/2 down to 0 (per mille)", total=1000)
                pieces = correlated_sweep(progress=lambda left: bar.update(task, completed=int(1000 * (0.5 - left) / 0.5)))
            path = plot_banque_correlated(pieces, output)
        else:
            path = _banque_series_plot(figure, points, output, plot_banque_series)
    except BaccaraError:
        raise
    except (OSError, ValueError) as e:
        raise BaccaraError(f"--out: cannot write {output!r}: {e}") from None
    out.print(f"wrote {path}", highlight=False)


def _banque_nash_plot(points: int, output: str):
    """Figure 4 from every exact Nash branch on (0, 1/4] (p1 = p2 = 9/11 above 5772/33847)."""
    from ..banque.nash_eq.events import THETA_9_11
    from ..banque.nash_eq.sweep import nash_branches
    from ..plots import plot_banque_branches

    with progress_bar() as bar:
        task = bar.add_task("Nash branches: intervals sampled", total=1)
        branches, _ = nash_branches(progress=lambda done, total: bar.update(task, completed=done, total=total))
    segs = []
    for br in branches:
        a, b = float(br.lo), float(br.hi)
        n = max(2, int(points * (b - a) / 0.25))
        xs = [a + (b - a) * (k + 0.5) / n for k in range(n)]
        pts = [br.locus.at(Fraction(x).limit_denominator(10**9)) for x in xs]
        segs.append((xs, {"p1": [float(p[0]) for p in pts], "p2": [float(p[1]) for p in pts]}))
    segs.append(([float(THETA_9_11), 0.25], {"p1": [9 / 11] * 2, "p2": [9 / 11] * 2}))
    return plot_banque_branches(segs, output, "Nash equilibria: the Players' strategies (every branch)",
                                "probability of drawing at 5")


def _banque_series_plot(figure: int, points: int, output: str, plot):
    from ..banque.independent_eq.sweep import float_independent, upper_value

    hi = 0.25 if figure == 2 else 0.5
    xs = [hi * (k + 0.5) / points for k in range(points)]
    series: dict[str, list[float]] = {}
    with progress_bar() as bar:
        task = bar.add_task(f"figure {figure}", total=points)
        for x in xs:
            if figure == 2:
                s = float_independent(x)
                series.setdefault("p1", []).append(s.p1)
                series.setdefault("p2", []).append(s.p2)
            else:
                series.setdefault("(upper - lower) x 10^5", []).append(
                    1e5 * (upper_value(x) - float_independent(x).lower))
            bar.advance(task)
    titles = {2: ("Independent cooperative equilibrium: the Players' maximin strategies", "probability of drawing at 5"),
              3: ("Upper minus lower value of the independent cooperative game", "difference x 10^5")}
    return plot(xs, series, output, *titles[figure], jumps=figure != 3)


register(banque_app, BANQUE_SWEEP, __name__)
register(banque_app, BANQUE_PROVE, __name__)
