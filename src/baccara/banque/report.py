"""Baccara banque's results for people: each built from the result's JSON document alone, so the
command line, a notebook and a saved ``--json`` file all read the same."""

from __future__ import annotations

from fractions import Fraction

from rich.table import Table

from ..shoe import shoe_text


def _where(doc: dict) -> str:
    """The model, and the shoe when it is not the paper's infinite shoe."""
    shoe = doc.get("shoe", {"kind": "infinite"})
    return f"{doc['model']} model" + ("" if shoe["kind"] == "infinite" else f", {shoe_text(shoe)}")


def correlated_summary(doc: dict) -> str:
    """One line: theta, the concept and whether the certificate holds."""
    return (f"Baccara banque, {_where(doc)}, theta = {doc['theta']}: correlated cooperative equilibrium "
            f"(certificate {'holds' if doc['certificate']['holds'] else 'FAILS'})")


def correlated_renderables(doc: dict) -> list:
    """The Players' mixture, the value, Banker's mixed sets and Ethier and Lee's (2015) Table 1."""
    lines: list = [correlated_summary(doc),
                   "Players' mixture: " + ", ".join(f"{k} {v}" for k, v in doc["players"].items()),
                   f"value to the Players: {doc['value']} = {doc['value_float']:.9f}; "
                   f"Banker's advantage {doc['expectations']['banker_advantage_percent']:.7f}%",
                   "Banker mixes at " + (", ".join(f"{k} draw {v}" for k, v in doc["banker"]["mixed"].items())
                                         or "no set") + f"; m = {doc['m']}",
                   "Banker's maximum drawing total (Ethier and Lee (2015), Table 1): rows Player 1's third card, "
                   "columns Player 2's (10 stood, 11 natural); 5+ = draw on 0-5, mix on 6",
                   "      " + " ".join(f"{k:>3}" for k in range(12))]
    lines += [f"{k1:>3} | " + " ".join(f"{x:>3}" for x in row) for k1, row in enumerate(doc["banker"]["table1"])]
    return lines


def independent_summary(doc: dict) -> str:
    """One line: theta and the concept."""
    return f"Baccara banque, {_where(doc)}, theta = {doc['theta']}: independent cooperative equilibrium"


def independent_renderables(doc: dict) -> list:
    """The Players' maximin strategies, the lower and upper values and the proof of the lower value."""
    pl = doc["players"]
    return [independent_summary(doc),
            f"Player 1 draws at 5 with p1 = {pl['p1']['exact']} = {pl['p1']['float']:.9f}; "
            f"Player 2 with p2 = {pl['p2']['exact']} = {pl['p2']['float']:.9f}",
            f"lower value {doc['lower_value']['exact']} = {doc['lower_value']['float']:.9f}; upper value "
            f"{doc['upper_value']['exact']} = {doc['upper_value']['float']:.9f}; "
            f"{'they differ' if doc['values_differ'] else 'equal: the game has a value'}",
            _independent_proof_line(doc)]


def _independent_proof_line(doc: dict) -> str:
    check, proved = doc["maximin_check"], doc.get("lower_value_proved")
    if proved == "exact":
        cert = check["certificate"]
        curves = sorted({c for loc in cert["local"] for c in loc["curves_through_point"]})
        return (f"lower value proved exactly (no margin): attained at (p1, p2); no (p1, p2) guarantees more "
                f"(a rectangle around the maximiser closed by Banker's mixtures at the curves through it"
                f"{' (' + ', '.join(curves) + ')' if curves else ''}, {check['boxes']} boxes elsewhere, "
                f"each bound rechecked exactly): {check['status']}")
    return (f"check (branch and bound, {check['boxes']} boxes, {'exact' if check['exact'] else 'floating point'}): "
            f"no (p1, p2) guarantees more than the lower value + {check['margin']:g}: {check['status']}"
            + (" (the exact proof: " + check["certificate"]["outcome"] + ", " + check["certificate"]["reason"] + ")"
               if "certificate" in check else ""))


def full_summary(doc: dict) -> str:
    """One line: the full model, what Player 2 sees, theta, the certificate."""
    c = doc["certificate"]
    return (f"Baccara banque, {_where(doc)} (Player 2 sees: {', '.join(doc['player2_information'])}), "
            f"theta = {doc['theta']}: correlated cooperative equilibrium (certificate "
            f"{'holds' if c['holds'] else 'FAILS'}; {c['columns_generated']} of {c['team_strategies']} team "
            "strategies generated)")


def full_renderables(doc: dict) -> list:
    """The team's mixture, the value and Banker's minimax strategy."""
    lines: list = [full_summary(doc), doc["players_note"]]
    lines += [f"  {lab}: {w} = {float(Fraction(w)):.7f}" for lab, w in doc["players"].items()]
    lines += [f"value to the Players: {doc['value']} = {doc['value_float']:.9f}; "
              f"Banker's advantage {doc['expectations']['banker_advantage_percent']:.7f}%",
              "Banker's minimax strategy mixes at "
              + (", ".join(f"{k} draw {v}" for k, v in doc["banker"]["mixed"].items()) or "no set")]
    ties = doc["banker"].get("indifferent_pure", {})
    if ties:
        lines.append("Banker is exactly indifferent (against the team's mixture) at "
                     + ", ".join(f"{k}, where he must {v}" for k, v in ties.items())
                     + ": that move attains the value")
    return lines


def nash_summary(doc: dict) -> str:
    """One line: theta, the Players' equilibrium strategies and how many extreme equilibria, saying what is
    counted: vertices in behavioural strategies (a draw probability at each of Banker's sets), and, where
    known, in Banker's mixed strategies over his pure choices (the count Ethier and Lee 2015 give)."""
    points, behavioural = len(doc["points"]), len(doc["equilibria"])
    mixed = [len(pt["banker_extreme_mixtures"]) for pt in doc["points"] if "banker_extreme_mixtures" in pt]
    counts = f"{behavioural} extreme equilibri{'um' if behavioural == 1 else 'a'} in behavioural strategies"
    if mixed:
        counts += f", {sum(mixed)} in Banker's mixed strategies over his pure choices"
    return (f"Baccara banque, {_where(doc)}, theta = {doc['theta']}: Nash equilibrium "
            f"({points} pair{'' if points == 1 else 's'} of Players' strategies; {counts}; "
            f"{doc['search']['candidate_points']} candidate points and {doc['search']['cells']} cells searched)")


def nash_renderables(doc: dict) -> list:
    """The Players' strategies, Banker's indifferent sets, each extreme equilibrium and its certificate."""
    lines: list = [nash_summary(doc)]
    for pt in doc["points"]:
        lines.append(f"Player 1 draws at 5 with p1 = {pt['p1']['exact']} = {pt['p1']['float']:.9f}, "
                     f"Player 2 with p2 = {pt['p2']['exact']} = {pt['p2']['float']:.9f}; Banker indifferent at "
                     + (", ".join(pt["banker_indifferent_at"]) or "no set"))
        if "banker_extreme_mixtures" in pt:
            lines.append(f"  {len(pt['banker_extreme_mixtures'])} extreme equilibria in Banker's mixed strategies "
                         "over his pure choices there")
    for k, e in enumerate(doc["equilibria"], 1):
        mixed = ", ".join(f"{s_} draw {v['exact']}" for s_, v in e["banker"]["mixed"].items()) or "nowhere"
        ex = e["expectations"]
        lines.append(f"[{k}] Banker mixes {mixed}; expectations: Player 1 {ex['player1_per_unit_bet']['float']:.9f}, "
                     f"Player 2 {ex['player2_per_unit_bet']['float']:.9f} per unit bet, Banker "
                     f"{ex['banker_per_unit_total_stake']['exact']} = {ex['banker_per_unit_total_stake']['float']:.9f} "
                     f"per unit stake; certificate {'holds' if e['certificate']['holds'] else 'FAILS'}")
    lines += list(doc["continua"])
    return lines


def _num(x) -> str:
    """An interval end: a float, or an exact end's float."""
    return f"{x['float'] if isinstance(x, dict) else x:.6f}"


def correlated_sweep_summary(doc: dict) -> str:
    """One line: the concept and how many theta-intervals."""
    return f"Correlated cooperative equilibrium: {doc['count']} theta-intervals in (0, 1/2]"


def correlated_sweep_renderables(doc: dict) -> list:
    """One row per theta-interval: its ends, the Players' support, Banker's mixed sets."""
    t = Table(title=correlated_sweep_summary(doc))
    for col in ("theta from", "theta to", "Players' support", "Banker mixes at", "left endpoint exactly"):
        t.add_column(col)
    for iv in doc["intervals"]:
        t.add_row(_num(iv["from"]), _num(iv["to"]), " ".join(iv["players_support"]),
                  " ".join(iv["banker_mixes_at"]), iv["from"]["exact"])
    return [t]


def independent_sweep_summary(doc: dict) -> str:
    """One line: the concept and how many theta-intervals."""
    return f"Independent cooperative equilibrium: {doc['count']} theta-intervals in (0, 1/2]"


def independent_sweep_renderables(doc: dict) -> list:
    """One row per theta-interval: its ends, the maximin (p1, p2), the lower value, the curves it lies on."""
    t = Table(title=independent_sweep_summary(doc))
    proved = "lower_value_proved" in doc
    on_intervals = "lower_value_proved_on_intervals" in doc
    cols: tuple[str, ...] = ("theta from", "theta to", "p1", "p2", "lower value", "maximum on")
    cols += (("proved at",) if proved else ()) + (("proved on the interval",) if on_intervals else ())
    for col in cols:
        t.add_column(col)
    for iv in doc["intervals"]:
        sample = iv.get("lower_value_at_sample")
        extra: tuple[str, ...] = ((f"{sample['theta']} ({sample['proved']}{'' if sample['same_form'] else ', another form'})"
                  if sample else "-"),) if proved else ()
        if on_intervals:
            whole = iv["lower_value_on_interval"]
            extra += (whole["status"] if whole["status"] == "proved" else f"{whole['status']}: {whole['reason']}",)
        t.add_row(_num(iv["from"]), _num(iv["to"]), f"{iv['p1']:.6f}", f"{iv['p2']:.6f}",
                  f"{iv['lower_value']:.9f}", " ".join(iv["maximum_on_curves"] + iv["on_edges"]), *extra)
    lines: list = [t, doc["definition"] + "; " + doc["endpoints"]]
    if proved:
        lines.append(doc["lower_value_proved"])
    if on_intervals:
        lines.append(f"{doc['intervals_proved']} of {len(doc['intervals'])} intervals proved for every theta; "
                     + doc["lower_value_proved_on_intervals"])
    if "lower_value_peak" in doc:
        peak = doc["lower_value_peak"]
        lines.append(f"the lower value peaks at theta = {peak['theta']:.6f}: {peak['value']:.9f}")
    return lines


def nash_sweep_summary(doc: dict) -> str:
    """One line: the concept, the intervals and the discontinuities."""
    return (f"Nash equilibrium: {doc['count']} theta-intervals in (0, 1/2] "
            f"({doc['discontinuities']} discontinuities)")


def nash_sweep_renderables(doc: dict) -> list:
    """One row per elementary interval (each equilibrium on it), then the path Ethier and Lee (2015) follow."""
    t = Table(title=nash_sweep_summary(doc))
    for col in ("theta from", "theta to", "equilibria", "p1", "p2", "Banker mixes at"):
        t.add_column(col)
    for iv in doc["intervals"]:
        if "branches" not in iv:
            t.add_row(_num(iv["from"]), _num(iv["to"]), "1", "9/11", "9/11", " ".join(iv["banker_indifferent_at"]))
            continue
        rows = [doc["branches"][k] for k in iv["branches"]]
        t.add_row(_num(iv["from"]), _num(iv["to"]), str(len(rows)),
                  " | ".join(f"{b['at_sample']['p1']['float']:.6f}" for b in rows),
                  " | ".join(f"{b['at_sample']['p2']['float']:.6f}" for b in rows),
                  " | ".join(" ".join(b["banker_mixes_at"]) for b in rows))
    jumps = ", ".join(f"{e['float']:.7f}" for e in doc["path"]["players_jumps"])
    lines: list = [t, "p1, p2 at a rational inside each branch; every end is exact: "
                      "its integer polynomial is in the JSON (--json, to_json()).",
                   f"Followed as Ethier and Lee (2015) does (one equilibrium, right to left): "
                   f"{doc['path']['intervals']} intervals below 5772/33847, the Players' strategies jumping at "
                   f"{jumps or 'no theta'}"]
    lines += [f"{m['equilibria']} Nash equilibria coexist on ({m['from']['float']:.7f}, {m['to']['float']:.7f})"
              for m in doc["multiple_equilibria"]]
    return lines
