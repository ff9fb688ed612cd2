"""Chemin de fer results for people: the text and tables the command line prints, built from the JSON documents.

Each function takes a result's :meth:`to_json` document, so that what a person
reads and what a program parses cannot disagree.
"""

from __future__ import annotations

from fractions import Fraction

from rich.console import RenderableType
from rich.table import Table

from ..shoe import shoe_text


def _mixes(mixed: dict) -> str:
    return ", ".join(f"{k} draw {v} = {float(Fraction(v)):.7f}" for k, v in mixed.items()) or "nowhere"


def solution_summary(doc: dict) -> str:
    """One line: model, shoe, commission and how many equilibria (Models 1-3)."""
    n = len(doc["equilibria"])
    verdict = {True: "unique Nash equilibrium", False: f"{n} extreme Nash equilibria",
               None: "one Nash equilibrium (Ethier and Lee's route; enumerate them all to settle uniqueness)"}[doc["unique"]]
    return f"Chemin de fer, Model {doc['model']}, {shoe_text(doc['shoe'])}, commission {Fraction(doc['commission'])}: {verdict}"


def _strategy(banker: dict) -> str:
    """Banker's strategy string, or what it means when no information set is left open."""
    return banker["strategy"] or "(every move strictly dominant)"


def _equivalent_lines(doc: dict) -> list[RenderableType]:
    """Banker's equivalent information sets, where a group has several members (named when few)."""
    groups = doc.get("equivalent_information_sets") or []
    if not groups:
        return []
    head = ("Banker's equivalent information sets (payoffs proportional at every commission) are listed playing "
            "alike; any split with the same weighted total is an equivalent equilibrium: ")
    if sum(map(len, groups)) <= 12:
        return [head + "; ".join(" = ".join(g) for g in groups)]
    return [head + f"{len(groups)} groups of {sum(map(len, groups))} sets (--json lists them)"]


def solution_renderables(doc: dict) -> list[RenderableType]:
    """Every equilibrium: Player's and Banker's strategies, payoffs, certificate (Models 1-3)."""
    lines: list[RenderableType] = [solution_summary(doc)]
    for k, eq in enumerate(doc["equilibria"], 1):
        pl = eq["player"]
        if "draw_at_5" in pl:
            lines.append(f"[{k}] Player draws at 5 with probability {pl['draw_at_5']} = {pl['draw_at_5_float']:.7f}")
        else:
            draws = ", ".join(f"{c} {v}" for c, v in pl["draw"].items())
            lines.append(f"[{k}] Player {pl['strategy']}: draws at {draws}")
        lines.append(f"    Banker {_strategy(eq['banker'])}; mixes {_mixes(eq['banker']['mixed'])}")
        lines.append(f"    payoffs: Player {eq['payoff']['player_float']:.7f}, Banker {eq['payoff']['banker_float']:.7f}; "
                     f"certificate: {'holds' if eq['certificate']['holds'] else 'FAILS'}")
    if doc.get("continua"):
        lines.append(f"continua of equilibria: {doc['continua']}")
    lines.extend(_equivalent_lines(doc))
    if "enumeration" in doc:
        e = doc["enumeration"]
        lines.append(f"enumeration: {e['systems_screened']} systems screened, {e['vertices_checked_exactly']} vertices "
                     f"checked exactly; open sets: Player {len(e['player_sets_open'])}, Banker {e['banker_sets_open']}")
    if "zero_sum" in doc:
        z = doc["zero_sum"]
        lines.append(f"zero-sum LP: value to Player {z['value_to_player']} = {z['value_float']:.9f} "
                     f"({'certified' if z['certified'] else 'NOT certified'})")
    if "seed_route" in doc:
        r = doc["seed_route"]
        ok = [c["confirmed"] for c in r["candidates"]]
        lines.append(f"Ethier and Lee's route (Banker on his B2 support, then Foster's algorithm reversed): "
                     f"{r['note']}; {sum(ok)} of {len(ok)} candidates confirmed")
    return lines


def sweep_summary(doc: dict) -> str:
    """One line: Table 4's counts for the sweep."""
    lo, hi = (str(Fraction(x)) for x in doc["commission_range"])
    return (f"Model {doc['model']}, {shoe_text(doc['shoe'])}, commission in [{lo}, {hi}]: "
            f"(a) {doc['curves']} curves, (b) {doc['intersections']} intersections, (c) {doc['partial_curves']} partial, "
            f"(d) {doc['cases']} cases, (e) {doc['exceptional_alphas']} exceptional alphas")


def _equilibrium_lines(equilibria: list[dict], continua: list[dict]) -> list[str]:
    out = []
    for k, eq in enumerate(equilibria, 1):
        out.append(f"    [{k}] Player draws at 5 with probability {eq['player']['draw_at_5']}; "
                   f"Banker {_strategy(eq['banker'])}, mixes {_mixes(eq['banker']['mixed'])}")
    out.extend(f"    every p from {c['p_from']} to {c['p_to']} (a continuum)" for c in continua)
    return out


def _uniqueness_lines(doc: dict) -> list[str]:
    """Whether the equilibrium is unique; where it is not, every extreme equilibrium."""
    lo, hi = (str(Fraction(x)) for x in doc["commission_range"])
    if doc["unique"]:
        return [f"the Nash equilibrium is unique at every commission in [{lo}, {hi}]"]
    lines = [f"the Nash equilibrium is not unique at some commissions in [{lo}, {hi}]:"]
    for iv in doc["equilibria_by_interval"]:
        if not iv["unique"]:
            lines.append(f"  alpha in ({iv['alpha_from']['exact']}, {iv['alpha_to']['exact']}) = "
                         f"({iv['alpha_from']['float']:.7f}, {iv['alpha_to']['float']:.7f}): not unique, "
                         f"{len(iv['equilibria'])} extreme equilibria")
            lines.extend(_equilibrium_lines(iv["equilibria"], iv["continua"]))
    for pt in doc["equilibria_at_points"]:
        verdict = "unique" if pt["unique"] else f"not unique, {len(pt['equilibria'])} extreme equilibria"
        lines.append(f"  alpha = {pt['alpha']['exact']} = {pt['alpha']['float']:.7f}: {verdict}")
        lines.extend(_equilibrium_lines(pt["equilibria"], pt["continua"]))
    return lines


def sweep_renderables(doc: dict) -> list[RenderableType]:
    """The sweep: equilibrium by interval, exceptional alphas, Tables 2 and 3 of Ethier and Lee (2023)."""
    lines: list[RenderableType] = [sweep_summary(doc)]
    t = Table(title="Nash equilibrium by commission interval")
    for col in ("alpha from", "alpha to", "Player p(alpha) at 5", "Banker mixes"):
        t.add_column(col)
    for iv in doc["intervals"]:
        pl = iv["player"]
        t.add_row(f"{iv['alpha_from']['float']:.7f}", f"{iv['alpha_to']['float']:.7f}",
                  pl["draw_at_5"] if "draw_at_5" in pl else "DMSDD, (1,4): " + pl["draw"]["(1,4)"],
                  ", ".join(f"{k}: {v}" for k, v in iv["banker"]["mixed"].items()) or "-")
    lines.append(t)
    for e in doc["exceptional"]:
        lines.append(f"several equilibria at alpha = {e['exact']} = {e['float']:.7f}")
    if "unique" in doc:
        lines.extend(_uniqueness_lines(doc))
    if "table7" in doc:
        lines.append("Banker's strategies by interval (Ethier and Lee 2023, Table 7 blocks (3,8) (4,1) (5,4) (6,none) "
                     "(6,6)): " + ", ".join(doc["table7"]))
        lines.append("each interval confirmed in the full 2^5 x 2^484 game (Player's other four moves optimal; "
                     f"all equilibria enumerated at a rational alpha inside): {'yes' if doc['all_confirmed'] else 'NO'}")
    if "note" in doc:
        lines.append(doc["note"])
    lines.extend(_equivalent_lines(doc))
    t2 = Table(title="Cases (Ethier and Lee 2023, Table 2)")
    for col in ("case", "alpha interval", "Banker strategy", "q", "NE"):
        t2.add_column(col)
    for r in doc["table2"]:
        t2.add_row(str(r["case"]), f"({r['alpha_from']['float']:.7f}, {r['alpha_to']['float']:.7f})", r["strategy"],
                   r["equalizing_q"], "yes" if r["equilibrium"] else "")
    lines.append(t2)
    t3 = Table(title="Intersections (Ethier and Lee 2023, Table 3)")
    for col in ("case", "curves", "alpha", "Banker strategy", "several NE"):
        t3.add_column(col)
    for r in doc["table3"]:
        t3.add_row(str(r["case"]), " & ".join(r["curves"]), f"{r['alpha']['float']:.7f}", r["strategy"],
                   "yes" if r["several_equilibria"] else "")
    lines.append(t3)
    return lines
