"""Plots for people (matplotlib, no display needed)."""

from __future__ import annotations

from pathlib import Path
from typing import cast

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from .chemin.solution import CheminSweep  # noqa: E402
from .shoe import shoe_label  # noqa: E402


def plot_curves(sw: CheminSweep, path: str | Path, samples: int = 400) -> Path:
    """The best-response-discontinuity curves in the (alpha, p) plane, like Ethier and Lee (2023), Figure 1.

    Full curves in blue, partial ones in orange, intersections as dots, the
    Nash equilibrium path (Player's p(alpha)) in black.
    """
    r = sw.result
    game = r.game
    assert game is not None  # sweep() records the game
    fig, ax = plt.subplots(figsize=(8, 6))
    for c in r.curves:
        for a, b in c.pieces:
            xs = [float(a) + (float(b) - float(a)) * k / samples for k in range(samples + 1)]
            ys = [float(game.p_of(c.index, x)) for x in xs]
            ax.plot(xs, ys, color="tab:orange" if c.partial else "tab:blue", lw=1)
    for pt in r.intersections:
        x = float(pt.alpha)
        ax.plot([x], [float(game.p_of(pt.i, x))], "o", ms=3, color="tab:red")
    for iv in r.intervals:
        lo, hi = float(iv.lo), float(iv.hi)
        xs = [lo + (hi - lo) * k / samples for k in range(samples + 1)]
        ys = [iv.pure if iv.pure is not None else float(game.p_of(cast(int, iv.i), x)) for x in xs]  # mixed: i set
        ax.plot(xs, ys, color="black", lw=2.5, label="Nash equilibrium p(alpha)" if iv is r.intervals[0] else None)
    decks = shoe_label(sw.game.decks)
    ax.set(xlim=(float(r.lo), float(r.hi)), ylim=(0, 1), xlabel="commission alpha",
           ylabel="p (Player's probability of drawing at 5)",
           title=f"Best-response-discontinuity curves, Model {sw.game.model}, {decks}")
    ax.legend(loc="lower right")
    path = Path(path)
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)
    return path


def plot_banque_correlated(pieces, path: str | Path, samples: int = 40) -> Path:
    """The correlated cooperative equilibrium over theta (Ethier and Lee (2015), Figure 1): the value to
    the Players, and the Players' mixture over SS, SD, DS, DD."""
    from fractions import Fraction

    from .banque.correlated_eq.sweep import piece_solution  # lazy: a game loads with its own plot

    fig, (top, bottom) = plt.subplots(2, 1, figsize=(8, 8), sharex=True)
    for piece in pieces:
        lo, hi = float(piece.lo), float(piece.hi)
        xs = [lo + (hi - lo) * (k + 0.5) / samples for k in range(samples)]
        sols = [piece_solution(piece, Fraction(x).limit_denominator(10**12)) for x in xs]
        top.plot(xs, [float(v) for _, v in sols], color="black", lw=1.5)
        for u, color in enumerate(("tab:blue", "tab:orange", "tab:green", "tab:red")):
            bottom.plot(xs, [float(p[u]) for p, _ in sols], color=color, lw=1)
    top.set(ylabel="value to the Players", title="Baccara banque: correlated cooperative equilibrium")
    bottom.set(xlabel="theta (share of the stake on Player 1)", ylabel="Players' mixture", ylim=(0, 1))
    for label, color in zip(("SS", "SD", "DS", "DD"), ("tab:blue", "tab:orange", "tab:green", "tab:red")):
        bottom.plot([], [], color=color, label=label)
    bottom.legend(loc="upper left")
    path = Path(path)
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)
    return path


def plot_banque_series(xs, series: dict[str, list[float]], path: str | Path, title: str, ylabel: str,
                       jumps: bool = True) -> Path:
    """Curves over theta (Ethier and Lee (2015), Figures 2-4): one line per named series; with ``jumps``,
    consecutive points far apart (a discontinuity) are not joined."""
    fig, ax = plt.subplots(figsize=(8, 5))
    for (label, ys), color in zip(series.items(), ("tab:blue", "tab:orange", "tab:green", "tab:red")):
        seg_x, seg_y = [xs[0]], [ys[0]]
        for y0, x1, y1 in zip(ys, xs[1:], ys[1:]):
            if jumps and abs(y1 - y0) > 0.05:  # a jump in a probability: start a new piece
                ax.plot(seg_x, seg_y, color=color, lw=1.3)
                seg_x, seg_y = [], []
            seg_x.append(x1)
            seg_y.append(y1)
        ax.plot(seg_x, seg_y, color=color, lw=1.3, label=label)
    return _finish_theta_plot(fig, ax, path, title, ylabel)


def plot_banque_branches(branches, path: str | Path, title: str, ylabel: str) -> Path:
    """Ethier and Lee (2015), Figure 4 from the exact equilibrium branches: ``branches`` is a list of
    (xs, {"p1": ys, "p2": ys}), each drawn as its own curve (so folds, where several
    equilibria coexist, show as overlapping curves)."""
    fig, ax = plt.subplots(figsize=(8, 5))
    colors = {"p1": "tab:blue", "p2": "tab:orange"}
    labelled: set[str] = set()
    for xs, series in branches:
        for label, ys in series.items():
            ax.plot(xs, ys, color=colors.get(label, "tab:green"), lw=1.3,
                    label=None if label in labelled else label)
            labelled.add(label)
    return _finish_theta_plot(fig, ax, path, title, ylabel)


def _finish_theta_plot(fig, ax, path: str | Path, title: str, ylabel: str) -> Path:
    """Label a plot over theta, add its legend, save it and close it."""
    ax.set(xlabel="theta (share of the stake on Player 1)", ylabel=ylabel, title=title)
    ax.legend(loc="best")
    path = Path(path)
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)
    return path


def plot_macao_strategies(sol, path: str | Path) -> Path:
    """Macao's (or Victoria's) optimal strategies: each side's probability of drawing by total and cards held.

    Parameters
    ----------
    sol : MacaoSolution
        A solved variant (:func:`baccara.macao.solve`).
    path : str or Path
        The PNG to write.

    Returns
    -------
    Path
        The file written.
    """
    from .macao.solution import strategy_table  # lazy: a game loads with its own plot

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    for ax, side in zip(axes, ("punter", "banker")):
        tab = strategy_table(sol.game, sol.punter if side == "punter" else sol.banker, side)["draw"]
        cards = sorted({int(k.split("/")[1]) for k in tab})
        for c in cards:
            pts = sorted((int(k.split("/")[0]), p) for k, p in tab.items() if int(k.split("/")[1]) == c)
            ax.plot([t for t, _ in pts], [p for _, p in pts], marker="o", label=f"{c} card{'s' if c > 1 else ''} held")
        ax.set_title(f"{side.capitalize()}")
        ax.set_xlabel("total")
        ax.set_xticks(range(10))
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    axes[0].set_ylabel("probability of drawing")
    fig.suptitle(f"{sol.summary()}", fontsize=9)
    path = Path(path)
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)
    return path
