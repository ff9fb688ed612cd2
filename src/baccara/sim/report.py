"""Simulation results for people: the base of every simulation result, and the tables it prints.

Each simulator returns a :class:`SimResult` (a :class:`baccara.result.Result`):
``to_json()`` is the document ``baccara simulate ... --json`` prints, and the
report for people (``show()``, the command line's text output) is built from
that document, so that what a person reads and what a program parses cannot
disagree.
"""

from __future__ import annotations

from rich.console import RenderableType
from rich.table import Table

from ..result import Result


class SimResult(Result):
    """Base of the simulation results: subclasses implement :meth:`document` and :meth:`report`."""

    #: The Parquet file the rows were written to (``--out``), or None; set by whoever streamed them.
    out: str | None = None

    def document(self) -> dict:
        """The simulation's figures as a JSON-ready dict (without :attr:`out`).

        Returns
        -------
        dict
            The documented fields (the user guide, ``baccara simulate --json``).
        """
        raise NotImplementedError

    def report(self, doc: dict) -> list[RenderableType]:
        """The report for people, built from the document.

        Parameters
        ----------
        doc : dict
            :meth:`to_json`'s document.

        Returns
        -------
        list
            Text lines and tables; the first line is :meth:`summary`.
        """
        raise NotImplementedError

    def to_json(self) -> dict:
        """The result as ``baccara simulate ... --json`` prints it.

        Returns
        -------
        dict
            :meth:`document`, with ``"out"`` (the Parquet file) when rows were written.
        """
        doc = self.document()
        if self.out is not None:
            doc["out"] = self.out
        return doc

    def summary(self) -> str:
        """The game, the shoe, the strategy and the run's size, on one line.

        Returns
        -------
        str
            The first line of the report.
        """
        return str(self.report(self.to_json())[0])

    def renderables(self) -> list[RenderableType]:
        """The text and tables ``baccara simulate`` prints.

        Returns
        -------
        list
            Text lines and tables, in order.
        """
        lines = self.report(self.to_json())
        if self.out is not None:
            lines.append(f"one row per shoe written to {self.out}")
        return lines


def _table(title: str, columns) -> Table:
    """A table whose cells fold instead of ending in an ellipsis on a narrow terminal."""
    t = Table(title=title)
    for c in columns:
        t.add_column(c, justify="right", overflow="fold")
    return t


def _pm(value, se, digits: int = 6) -> str:
    if value is None:
        return "-"
    return f"{value:+.{digits}f}" + (f" ± {se:.{digits}f}" if se is not None else "")


def _z(z) -> str:
    return "-" if z is None else f"{z:+.2f}"


def _decks(d) -> str:
    return "infinite shoe" if d == "inf" else f"{d} deck{'s' if d != 1 else ''}"


def _rate(doc: dict) -> str:
    r = doc.get("run", {})
    text = f"{doc['hands']:,} hands in {r.get('seconds') or 0:.2f} s"
    if r.get("hands_per_second"):
        text += f" ({r['hands_per_second'] / 1e6:.2f} M hands/s, {r.get('backend')} x {r.get('workers')})"
    return text


def punto_report(doc: dict) -> list[RenderableType]:
    """Punto banco: outcomes and bets, simulated beside the exact values, with z-scores.

    Parameters
    ----------
    doc : dict
        A :class:`~baccara.sim.PuntoResult`'s document.

    Returns
    -------
    list
        Text lines and tables.
    """
    sh = doc["shoe"]
    where = _decks(sh["decks"]) + (f", cut card {sh['cut']} from the end" if sh["cut"] else f", {sh['deal']}")
    kind = doc["strategy"]["kind"]
    who = {"flat": "flat bets", "perfect": "perfect counter",
           "count": f"count {doc['strategy'].get('count', {}).get('name', '')}"}[kind]
    rules = doc.get("tableau", {}).get("name", "punto banco")
    game = "Punto banco" if rules == "punto banco" else f"Punto banco, tableau {rules}"
    lines: list[RenderableType] = [f"{game}, {where}, {who}: {doc['shoes']:,} shoes, seed {doc['seed']}",
                                   _rate(doc)]
    ex = doc.get("exact") or {}
    z = doc.get("z", {}).get("outcomes", {})
    zb = doc.get("z", {}).get("bets", {})
    t = _table("Outcomes", ("outcome", "coups", "frequency", "exact", "z"))
    for k in ("banker", "player", "tie"):
        f = doc["frequencies"][k]
        t.add_row(k, f"{doc['outcomes'][k]:,}", _pm(f["value"], f["stderr"]),
                  f"{ex['outcomes'][k]:.6f}" if ex else "-", _z(z.get(k)))
    lines.append(t)
    t = _table("Bets (one unit each time placed)",
               ("bet", "placed", "a shoe", "EV per bet ± se", "exact, flat", "z", "hit freq", "win a shoe ± se"))
    for name, b in doc["bets"].items():
        e = ex.get("bets", {}).get(name)
        t.add_row(name, f"{b['placed']:,}", f"{b['bets_per_shoe']:.2f}", _pm(b["ev_per_bet"], b["stderr"], 5),
                  f"{e['ev']:+.5f}" if e else "-", _z(zb.get(name)),
                  "-" if b["hit_frequency"] is None else f"{b['hit_frequency']:.5f}",
                  _pm(b["win_per_shoe"], b["win_per_shoe_stderr"], 3))
    lines.append(t)
    for name, why in (ex.get("not_priced") or {}).items():
        lines.append(f"{name}: no exact value beside the simulation; it {why}")
    if "perfect" in doc:
        p = doc["perfect"]
        lines.append(f"perfect counter: {p['evaluations']:,} exact evaluations"
                     + (f" ({p['priced']:,} priced, the rest settled by the last)"
                        if p.get("priced", p["evaluations"]) < p["evaluations"] else "")
                     + (f", {p['evaluations_per_second']:.0f} a second" if p["evaluations_per_second"] else ""))
    lines.append("z = (simulated - exact) / stderr; exact values are for a coup from the full shoe")
    return lines


def chemin_report(doc: dict) -> list[RenderableType]:
    """Chemin de fer: per-coup gains and outcomes beside the exact values, banks, house take, seats.

    Parameters
    ----------
    doc : dict
        A :class:`~baccara.sim.CheminResult`'s document.

    Returns
    -------
    list
        Text lines and tables.
    """
    sh, tb = doc["shoe"], doc["table"]
    lines: list[RenderableType] = [
        f"Chemin de fer, {_decks(sh['decks'])}, commission {tb['commission']}, {tb['seats']} seats, "
        f"strategy: {doc['strategy']['name']} (Player draws at 5 with p = {doc['strategy']['player_draw_at_5']})",
        f"{doc['shoes']:,} sessions, seed {doc['seed']}; " + _rate(doc)]
    ex, z = doc.get("exact") or {}, doc.get("z", {})
    t = _table("Per coup, one unit staked", ("", "simulated ± se", "exact", "z"))
    for k, label in (("banker", "Banker's gain"), ("player", "Player's gain")):
        b = doc["bets"][k]
        t.add_row(label, _pm(b["ev_per_bet"], b["stderr"]), f"{ex[k]:+.6f}" if ex else "-", _z(z.get(k)))
    n = doc["hands"]
    for k in ("banker", "player", "tie"):
        t.add_row(f"P({k} wins)" if k != "tie" else "P(tie)", f"{doc['outcomes'][k] / n:.6f}",
                  f"{ex['outcomes'][k]:.6f}" if ex else "-", _z(z.get('p_' + k)))
    lines.append(t)
    bk, h = doc["banks"], doc["house"]
    mean_coups = "-" if bk["mean_coups"] is None else f"{bk['mean_coups']:.2f}"
    mean_wins = "-" if bk["mean_wins"] is None else f"{bk['mean_wins']:.2f}"
    lines.append(f"banks: {bk['count']:,} ({bk['per_session']:.2f} a session), mean {mean_coups} coups and "
                 f"{mean_wins} wins each, longest run {bk['longest_run']} wins, largest bank "
                 f"{bk['largest_bank']:,.2f}")
    per_coup = "-" if h["take_per_coup"] is None else f"{h['take_per_coup']:.4f}"
    per_unit = "-" if h["per_coup_per_unit"] is None else f"{h['per_coup_per_unit']:.6f}"
    lines.append(f"house take: {h['take']:,.2f} in all, {h['take_per_session']:.3f} a session, "
                 f"{per_coup} a coup (per unit staked: {per_unit})")
    t = _table("Seats: net per session (seat 0 opens the bank)", ("seat", "mean ± se", "sd"))
    for s in doc["seats"]:
        t.add_row(str(s["seat"]), _pm(s["mean_net_per_session"], s["stderr"]), f"{s['sd_per_session']:.2f}")
    lines.append(t)
    return lines


def banque_report(doc: dict) -> list[RenderableType]:
    """Baccara banque: Banker's and each Player's gain per coup beside the simplified model's exact value.

    Parameters
    ----------
    doc : dict
        A :class:`~baccara.sim.BanqueResult`'s document.

    Returns
    -------
    list
        Text lines and tables.
    """
    sh = doc["shoe"]
    lines: list[RenderableType] = [
        f"Baccara banque, {_decks(sh['decks'])}, theta {doc['theta']}; {doc['strategy']['name']}",
        f"{doc['shoes']:,} sessions, seed {doc['seed']}; " + _rate(doc)]
    mv, ex, z = doc["model_value"], doc.get("exact"), doc.get("z", {})
    t = _table("Per coup, units of the total stake", ("", "simulated ± se", "simplified model (exact)", "z"))
    b = doc["bets"]["banker"]
    t.add_row("Banker's gain", _pm(b["ev_per_bet"], b["stderr"]), f"{mv['banker']:+.6f}", _z(z.get("banker")))
    for k in ("player1", "player2"):
        b = doc["bets"][k]
        t.add_row(f"{k} per unit on his hand", _pm(b["ev_per_bet"], b["stderr"]), "-", "-")
    lines.append(t)
    if ex is None:
        lines.append("the simplified model deals with replacement: compare with --decks inf for an exact check")
    return lines
