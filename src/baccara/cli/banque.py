"""``baccara banque ...``: baccara banque's three solution concepts (Ethier and Lee 2015)."""

from __future__ import annotations

import json
from fractions import Fraction

import typer
from rich.table import Table

from .. import params
from ..cli_errors import handles_errors
from ..errors import BaccaraError
from ..workload import check_workload
from .common import ALLOW_LONG, JSON, out, progress_bar, say

# ---------------------------------------------------------------- baccara banque
banque_app = typer.Typer(help="Baccara banque (Ethier and Lee 2015): the three-person game's solutions.", no_args_is_help=True,
                         rich_markup_mode=None)
CONCEPTS = ("correlated", "independent", "nash")
BANQUE_MODELS = ("simplified", "traditional", "recent")


@banque_app.command("solve")
@handles_errors
def banque_solve(
    theta: str = typer.Option("1/2", "--theta", "-t", help="Share of the total stake bet on Player 1, in (0, 1)."),
    concept: str = typer.Option("correlated", "--concept", "-c", help="correlated | independent | nash."),
    model: str = typer.Option("simplified", "--model", "-m", help="simplified | traditional | recent."),
    json_out: bool = JSON,
) -> dict | None:
    """Solve baccara banque at one theta (exact, with a certificate)."""
    th = params.theta(theta, "--theta")
    concept = params.choice(concept, "--concept", CONCEPTS, case="exact")
    model = params.choice(model, "--model", BANQUE_MODELS, case="exact")
    if model != "simplified":
        if concept != "correlated":
            raise BaccaraError(f"--concept {concept} --model {model} is not available yet: the full models have "
                               "the correlated cooperative equilibrium (and Banker's minimax strategy)")
        return _banque_full(th, theta, model, json_out)
    from ..games.banque.correlated import correlated_equilibrium

    if concept == "nash":
        return _banque_nash(th, theta, json_out)
    if concept == "independent":
        from ..games.banque.independent import (
            independent_equilibrium,
            maximin_upper_bound,
        )

        ind = independent_equilibrium(th)
        bound = maximin_upper_bound(th, ind.lower_value)
        corr = correlated_equilibrium(th).to_json()
        doc = {"theta": corr["theta"], "concept": "independent", "model": "simplified",
               "players": {"p1": {"exact": str(ind.p1), "float": float(ind.p1)},
                           "p2": {"exact": str(ind.p2), "float": float(ind.p2)}},
               "lower_value": {"exact": str(ind.lower_value), "float": float(ind.lower_value)},
               "upper_value": {"exact": corr["value"], "float": corr["value_float"]},
               "values_differ": ind.values_differ,
               "banker": {"mixed": corr["banker"]["mixed"], "note": "Banker's minimax strategy is the correlated one"},
               "expectations": {"players": str(ind.lower_value), "banker": str(-ind.lower_value)},
               "candidates_checked": ind.candidates,
               "maximin_check": {"status": bound.status, "margin": bound.eps, "boxes": bound.boxes,
                                 "exact": bound.exact,
                                 "method": "branch and bound over the square, independent of the candidate "
                                           "search, every box's bound rechecked in exact arithmetic: no (p1, p2) "
                                           "guarantees more than the lower value + margin"}}
        if json_out:
            print(json.dumps(doc, indent=2))
            return doc
        out.print(f"Baccara banque, simplified model, theta = {theta}: independent cooperative equilibrium", highlight=False)
        out.print(f"Player 1 draws at 5 with p1 = {doc['players']['p1']['exact']} = {doc['players']['p1']['float']:.9f}; "
                  f"Player 2 with p2 = {doc['players']['p2']['exact']} = {doc['players']['p2']['float']:.9f}", highlight=False)
        out.print(f"lower value {doc['lower_value']['exact']} = {doc['lower_value']['float']:.9f}; upper value "
                  f"{doc['upper_value']['exact']} = {doc['upper_value']['float']:.9f}; "
                  f"{'they differ' if ind.values_differ else 'equal: the game has a value'}", highlight=False)
        out.print(f"check (branch and bound, {bound.boxes} boxes, {'exact' if bound.exact else 'floating point'}): "
                  f"no (p1, p2) guarantees more than the lower value + {bound.eps:g}: {bound.status}", highlight=False)
        return doc
    sol = correlated_equilibrium(th)
    doc = sol.to_json()
    if json_out:
        print(json.dumps(doc, indent=2))
        return doc
    out.print(f"Baccara banque, simplified model, theta = {theta}: correlated cooperative equilibrium "
              f"(certificate {'holds' if doc['certificate']['holds'] else 'FAILS'})", highlight=False)
    out.print("Players' mixture: " + ", ".join(f"{k} {v}" for k, v in doc["players"].items()), highlight=False)
    out.print(f"value to the Players: {doc['value']} = {doc['value_float']:.9f}; "
              f"Banker's advantage {doc['expectations']['banker_advantage_percent']:.7f}%", highlight=False)
    out.print("Banker mixes at " + (", ".join(f"{k} draw {v}" for k, v in doc["banker"]["mixed"].items()) or "no set")
              + f"; m = {doc['m']}", highlight=False)
    out.print("Banker's maximum drawing total (Ethier and Lee (2015), Table 1): rows Player 1's third card, columns Player 2's "
              "(10 stood, 11 natural); 5+ = draw on 0-5, mix on 6", highlight=False)
    out.print("      " + " ".join(f"{k:>3}" for k in range(12)), highlight=False)
    for k1, row in enumerate(doc["banker"]["table1"]):
        out.print(f"{k1:>3} | " + " ".join(f"{x:>3}" for x in row), highlight=False)
    return doc


def _independent_sweep(json_out: bool) -> dict | None:
    from ..games.banque.independent_sweep import (
        exact_ends,
        independent_sweep,
        lower_value_peak,
        sweep_json,
    )

    with progress_bar() as bar:
        task = bar.add_task("theta grid (then bisection)", total=501)
        sw = independent_sweep(progress=lambda k, n: bar.update(task, completed=k))
        task = bar.add_task("exact interval ends", total=len(sw.breaks))
        ends = exact_ends(sw, progress=lambda k, n: bar.update(task, completed=k))
    doc = sweep_json(sw, ends)
    t_peak, v_peak = lower_value_peak()
    doc["lower_value_peak"] = {"theta": t_peak, "value": v_peak}
    if json_out:
        print(json.dumps(doc, indent=2))
        return doc
    t = Table(title=f"Independent cooperative equilibrium: {doc['count']} theta-intervals in (0, 1/2]")
    for col in ("theta from", "theta to", "p1", "p2", "lower value", "maximum on"):
        t.add_column(col)
    def num(x) -> str:
        return f"{x['float'] if isinstance(x, dict) else x:.6f}"

    for iv in doc["intervals"]:
        t.add_row(num(iv["from"]), num(iv["to"]), f"{iv['p1']:.6f}", f"{iv['p2']:.6f}",
                  f"{iv['lower_value']:.9f}", " ".join(iv["maximum_on_curves"] + iv["on_edges"]))
    out.print(t)
    out.print(doc["definition"] + "; " + doc["endpoints"], highlight=False)
    out.print(f"the lower value peaks at theta = {t_peak:.6f}: {v_peak:.9f}", highlight=False)
    return doc


def _banque_full(th: Fraction, theta: str, model: str, json_out: bool) -> dict | None:
    from ..games.banque.full import full_correlated_equilibrium

    doc = full_correlated_equilibrium(th, model).to_json()
    if json_out:
        print(json.dumps(doc, indent=2))
        return doc
    c = doc["certificate"]
    out.print(f"Baccara banque, {model} model (Player 2 sees: {', '.join(doc['player2_information'])}), "
              f"theta = {theta}: correlated cooperative equilibrium (certificate {'holds' if c['holds'] else 'FAILS'}; "
              f"{c['columns_generated']} of {c['team_strategies']} team strategies generated)", highlight=False)
    out.print(doc["players_note"], highlight=False)
    for lab, w in doc["players"].items():
        out.print(f"  {lab}: {w} = {float(Fraction(w)):.7f}", highlight=False)
    out.print(f"value to the Players: {doc['value']} = {doc['value_float']:.9f}; "
              f"Banker's advantage {doc['expectations']['banker_advantage_percent']:.7f}%", highlight=False)
    out.print("Banker's minimax strategy mixes at "
              + (", ".join(f"{k} draw {v}" for k, v in doc["banker"]["mixed"].items()) or "no set"), highlight=False)
    return doc


def _banque_nash(th: Fraction, theta: str, json_out: bool) -> dict | None:
    from ..games.banque.nash import nash_equilibria, nash_json

    doc = nash_json(nash_equilibria(th))
    if json_out:
        print(json.dumps(doc, indent=2))
        return doc
    n = len(doc["equilibria"])
    out.print(f"Baccara banque, simplified model, theta = {theta}: Nash equilibrium "
              f"({n} extreme equilibria in behavioural strategies, {doc['search']['candidate_points']} candidate "
              f"points and {doc['search']['cells']} cells searched)", highlight=False)
    for pt in doc["points"]:
        out.print(f"Player 1 draws at 5 with p1 = {pt['p1']['exact']} = {pt['p1']['float']:.9f}, "
                  f"Player 2 with p2 = {pt['p2']['exact']} = {pt['p2']['float']:.9f}; Banker indifferent at "
                  + (", ".join(pt["banker_indifferent_at"]) or "no set"), highlight=False)
        if "banker_extreme_mixtures" in pt:
            out.print(f"  {len(pt['banker_extreme_mixtures'])} extreme equilibria in Banker's mixed strategies "
                      "over his pure choices there", highlight=False)
    for k, e in enumerate(doc["equilibria"], 1):
        mixed = ", ".join(f"{s_} draw {v['exact']}" for s_, v in e["banker"]["mixed"].items()) or "nowhere"
        ex = e["expectations"]
        out.print(f"[{k}] Banker mixes {mixed}; expectations: Player 1 {ex['player1_per_unit_bet']['float']:.9f}, "
                  f"Player 2 {ex['player2_per_unit_bet']['float']:.9f} per unit bet, Banker "
                  f"{ex['banker_per_unit_total_stake']['exact']} = {ex['banker_per_unit_total_stake']['float']:.9f} "
                  f"per unit stake; certificate {'holds' if e['certificate']['holds'] else 'FAILS'}", highlight=False)
    for c in doc["continua"]:
        out.print(c, highlight=False)
    return doc


@banque_app.command("advantage")
@handles_errors
def banque_advantage(json_out: bool = JSON) -> None:
    """Banker's advantage at theta = 1/2 beside the historical estimates (Ethier and Lee 2015, section 1)."""
    from ..games.banque.comparison import banker_advantage_comparison

    rows = banker_advantage_comparison()
    if json_out:
        print(json.dumps(rows, indent=2))
        return
    t = Table(title="Baccara banque, theta = 1/2: Banker's advantage (% of the total stake)")
    for col in ("assumption", "baccara (exact)", "historical estimates"):
        t.add_column(col)
    for r in rows:
        t.add_row(r["assumption"], "-" if r["percent"] is None else f"{r['percent']:.7f}%",
                  ", ".join(f"{k} {v}%" for k, v in r["historical"].items()) or r.get("note", ""))
    out.print(t)


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
            from ..games.banque.correlated_sweep import correlated_sweep

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
    from ..games.banque.nash_sweep import THETA_9_11, nash_branches
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
    from ..games.banque.independent_sweep import float_independent, upper_value

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


#: Measured seconds of one core for each banque sweep (all under the limit: announced, never refused).
SWEEP_SECONDS = {"correlated": 110.0, "independent": 120.0, "nash": 240.0}


@banque_app.command("sweep")
@handles_errors
def banque_sweep_cmd(
    concept: str = typer.Option("correlated", "--concept", "-c",
                                help="correlated or nash (exact endpoints), or independent (endpoints by bisection)."),
    json_out: bool = JSON,
) -> dict | None:
    """The partition of (0, 1/2] into theta-intervals with one solution formula each (progress bar)."""
    concept = params.choice(concept, "--concept", CONCEPTS, case="exact")
    check_workload(f"the {concept} sweep over (0, 1/2]", SWEEP_SECONDS[concept], False, "", say)
    if concept == "nash":
        return _nash_sweep(json_out)
    if concept == "independent":
        return _independent_sweep(json_out)
    from ..games.banque.correlated_sweep import correlated_sweep, sweep_json

    with progress_bar() as bar:
        task = bar.add_task("sweeping theta from 1/2 down to 0", total=1000)
        pieces = correlated_sweep(progress=lambda left: bar.update(task, completed=int(1000 * (0.5 - left) / 0.5)))
    doc = sweep_json(pieces)
    if json_out:
        print(json.dumps(doc, indent=2))
        return doc
    t = Table(title=f"Correlated cooperative equilibrium: {doc['count']} theta-intervals in (0, 1/2]")
    for col in ("theta from", "theta to", "Players' support", "Banker mixes at", "left endpoint exactly"):
        t.add_column(col)
    for iv in doc["intervals"]:
        t.add_row(f"{iv['from']['float']:.6f}", f"{iv['to']['float']:.6f}", " ".join(iv["players_support"]),
                  " ".join(iv["banker_mixes_at"]), iv["from"]["exact"])
    out.print(t)
    return doc


def _nash_sweep(json_out: bool) -> dict | None:
    from ..games.banque.nash_sweep import nash_sweep, nash_sweep_json

    with progress_bar() as bar:
        task = bar.add_task("Nash equilibria below 5772/33847: intervals sampled", total=1)
        sw = nash_sweep(progress=lambda done, total: bar.update(task, completed=done, total=total))
    doc = nash_sweep_json(sw)
    if json_out:
        print(json.dumps(doc, indent=2))
        return doc
    t = Table(title=f"Nash equilibrium: {doc['count']} theta-intervals in (0, 1/2] "
                    f"({doc['discontinuities']} discontinuities)")
    for col in ("theta from", "theta to", "equilibria", "p1", "p2", "Banker mixes at"):
        t.add_column(col)
    for iv in doc["intervals"]:
        if "branches" not in iv:
            t.add_row(f"{iv['from']['float']:.6f}", f"{iv['to']['float']:.6f}", "1", "9/11", "9/11",
                      " ".join(iv["banker_indifferent_at"]))
            continue
        rows = [doc["branches"][k] for k in iv["branches"]]
        t.add_row(f"{iv['from']['float']:.6f}", f"{iv['to']['float']:.6f}", str(len(rows)),
                  " | ".join(f"{b['at_sample']['p1']['float']:.6f}" for b in rows),
                  " | ".join(f"{b['at_sample']['p2']['float']:.6f}" for b in rows),
                  " | ".join(" ".join(b["banker_mixes_at"]) for b in rows))
    out.print(t)
    out.print("p1, p2 at a rational inside each branch; every end is exact: "
              "'--json' gives its integer polynomial.", highlight=False)
    jumps = ", ".join(f"{e['float']:.7f}" for e in doc["path"]["players_jumps"])
    out.print(f"Followed as Ethier and Lee (2015) does (one equilibrium, right to left): {doc['path']['intervals']} intervals "
              f"below 5772/33847, the Players' strategies jumping at {jumps or 'no theta'}", highlight=False)
    for m in doc["multiple_equilibria"]:
        out.print(f"{m['equilibria']} Nash equilibria coexist on ({m['from']['float']:.7f}, {m['to']['float']:.7f})",
                  highlight=False)
    return doc


