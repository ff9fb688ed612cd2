"""The audit as one self-contained HTML page, or a PDF, made as ``baccara report`` makes its pages.

The page, the tables, the SVG charts and the printing by Chromium are those of
:mod:`baccara.punto.report_html`; this module writes the audit's sections: the verdicts,
for each player the cumulative exact EV against the actual result, the bet size against
the exact EV of the bet, the first card's class against the bets, the shoes' checks and
the method in words.
"""

from __future__ import annotations

import html
from pathlib import Path

import numpy as np

from .. import __version__
from ..errors import ParameterError
from ..punto.known import parse_ranks
from ..punto.report_html import chart_pyplot, html_page, html_table, print_pdf, svg_chart
from .analysis import AuditResult, PlayerAudit, integrity_line


def _e(text: object) -> str:
    return html.escape(str(text))


def cumulative_chart(player: PlayerAudit) -> str:
    """The player's cumulative exact EV (given the cards left, and with no information) against his result (SVG).

    Parameters
    ----------
    player : PlayerAudit
        The player.

    Returns
    -------
    str
        The chart.
    """
    plt = chart_pyplot()
    fig, ax = plt.subplots(figsize=(7, 3.0))
    amount = np.array([eval_amount(b["amount"]) for b in player.bets])
    ev = np.array([b["ev_float"] for b in player.bets])
    res = np.array([b["result_float"] for b in player.bets])
    x = np.arange(1, len(ev) + 1)
    ax.plot(x, np.cumsum(amount * ev), label="expected, given the cards left (exact)")
    if player.expected_class is not None:
        evc = np.array([b["ev_first_class"] for b in player.bets])
        ax.plot(x, np.cumsum(amount * evc), label="expected, given the first card's class")
    ax.plot(x, np.cumsum(res), label="actual result", color="black", lw=0.8)
    ax.axhline(0, color="grey", lw=0.6)
    ax.set(xlabel="bets, in order", ylabel="money", title=f"{_text(player.player)}: expected and actual result")
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    return svg_chart(fig)


def size_chart(player: PlayerAudit) -> str:
    """Each bet's size against its exact EV given the cards left (SVG).

    Parameters
    ----------
    player : PlayerAudit
        The player.

    Returns
    -------
    str
        The chart.
    """
    plt = chart_pyplot()
    fig, ax = plt.subplots(figsize=(7, 2.8))
    for name in dict.fromkeys(b["bet"] for b in player.bets):
        pts = [(b["ev_float"] * 100, eval_amount(b["amount"])) for b in player.bets if b["bet"] == name]
        ax.scatter([p[0] for p in pts], [p[1] for p in pts], s=8, alpha=0.6, label=_text(name))
    ax.axvline(0, color="grey", lw=0.6)
    ax.set(xlabel="exact EV of the bet given the cards left, %", ylabel="amount",
           title=f"{_text(player.player)}: bet size against the bet's EV")
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    return svg_chart(fig)


def _text(name: str) -> str:
    """A name from a log as matplotlib text: its ``$`` escaped, so that it is never read as mathematics."""
    return name.replace("$", r"\$")


def eval_amount(text: str) -> float:
    """An amount as the JSON writes it (``"5"``, ``"5/2"``) as a float.

    Parameters
    ----------
    text : str
        The amount.

    Returns
    -------
    float
        Its value.
    """
    num, _, den = text.partition("/")
    return float(num) / float(den or 1)


def to_html(result: AuditResult) -> str:
    """The audit as one self-contained HTML page.

    Parameters
    ----------
    result : AuditResult
        The audit.

    Returns
    -------
    str
        The page.
    """
    r = result
    p: list[str] = []
    title = f"Game protection audit: {r.hands.source}"
    p.append(f"<h1>{_e(title)}</h1>")
    p.append(f"<p class='sub'>Hands {_e(r.hands.source)}, bets {_e(r.bet_log.source)}: {len(r.hands.shoes)} shoes of "
             f"{r.hands.decks} decks, {r.table.rows} coups, {len(r.players)} players. False-alarm rate "
             f"{r.alpha:g}; {r.permutations:,} permutations per test, seed {r.seed}. baccara {_e(__version__)}.</p>")
    p.append("<section><h2>1. Verdicts</h2>")
    rows = []
    for name, a in r.players.items():
        ps = a.p_values()
        rows.append([name, a.verdict, len(a.bets), f"{float(a.staked):,.2f}", f"{float(a.expected):+,.2f}",
                     f"{float(a.expected_fresh):+,.2f}",
                     "-" if a.expected_class is None else f"{a.expected_class:+,.2f}", f"{float(a.actual):+,.2f}",
                     "-" if ps["counting"] is None else f"{ps['counting']:.4g}",
                     "-" if ps["edge_sorting"] is None else f"{ps['edge_sorting']:.4g}"])
    p.append(html_table(["player", "verdict", "bets", "staked", "expected given the cards left",
                         "expected with no information", "expected given the first card's class", "actual",
                         "p (counting, Holm)", "p (edge sorting, Holm)"], rows, numeric=set(range(2, 10))))
    p.append("<p>Expected results are exact (every deal of the next coup counted, given the cards left); the "
             "p-values are Holm-adjusted over the hypotheses below: a player is flagged when one is at most "
             f"{r.alpha:g}.</p>")
    p.append(html_table(["hypothesis", "what it prices"], [[h.key, h.label] for h in r.hypotheses]))
    p.append("</section>")
    p.append("<section><h2>2. The method</h2>")
    p += [f"<p>{_e(par)}</p>" for par in r.method()]
    p.append("</section>")
    for k, (name, a) in enumerate(r.players.items(), start=3):
        p.append(f"<section class='page'><h2>{k}. {_e(name)}: {_e(a.verdict)}</h2>")
        p.append(html_table(["hypothesis", "statistic", "mean under no information", "p", "p (Holm)", "rejected"],
                            [[t.key, f"{t.statistic:+.4f}", f"{t.null_mean:+.4f}", f"{t.p:.4g}", f"{t.adjusted:.4g}",
                              "yes" if t.rejected else "no"] for t in a.tests], numeric={1, 2, 3, 4}))
        p.append(f"<figure>{cumulative_chart(a)}<figcaption>Cumulative expected result of {_e(name)}'s bets, "
                 "exact, against the actual result.</figcaption></figure>")
        p.append(f"<figure>{size_chart(a)}<figcaption>Bet size against the bet's exact EV given the cards left: "
                 "a counter's money rises with the EV.</figcaption></figure>")
        classes = [b for b in a.bets if b["first_class"]]
        if classes or a.class_key:
            tab: dict[tuple[str, str], list[float]] = {}
            for b in a.bets:
                key = (b["first_class"] or _class_of(r, b, a.class_key), b["bet"])
                tab.setdefault(key, []).append(eval_amount(b["amount"]))
            sorting = a.class_key.split(":", 1)[1] if a.class_key and not a.class_key.endswith(":logged") else None
            p.append("<p>The first card's class against the bets" + (
                f" (S: the sorted class {_e(sorting)}, read from the first card's rank)" if sorting else
                " (as logged)") + ":</p>")
            p.append(html_table(["first card", "bet", "bets", "money"],
                                [[c, bet, len(v), f"{sum(v):,.2f}"] for (c, bet), v in sorted(tab.items())],
                                numeric={2, 3}))
        p.append("</section>")
    p.append("<section class='page'><h2>Shoe integrity</h2>")
    p.append(f"<p>{_e(integrity_line(r.integrity))}.</p>")
    doc = r.integrity.doc
    p.append(html_table(["shoe", "coups", "cards logged", "cards unseen"],
                        [[s["shoe"], s["coups"], s["cards_logged"], s["cards_unseen"]] for s in doc["shoes"]],
                        numeric={1, 2, 3}))
    tests = [(k, doc.get(k)) for k in ("composition", "carried_order", "class_vs_rank", "class_vs_outcome")]
    p.append(html_table(["check", "statistic", "p"], [[k, f"{t['statistic']:.4g}", f"{t['p']:.4g}"]
                                                       for k, t in tests if t], numeric={1, 2}))
    for n in r.notes:
        p.append(f"<p class='note'>{_e(n)}</p>")
    p.append("</section>")
    return html_page(title, "\n".join(p))


def _class_of(r: AuditResult, bet: dict, key: str | None) -> str:
    if not key or key.endswith(":logged"):
        return "-"
    ranks = parse_ranks(key.split(":", 1)[1])
    row = r.table.index[(bet["shoe"], bet["coup"])]
    return "S" if int(r.table.first_rank[row]) in ranks else "U"


def write_audit_report(result: AuditResult, path: str | Path) -> Path:
    """Write the audit as HTML or PDF, by the file's suffix.

    Parameters
    ----------
    result : AuditResult
        The audit.
    path : str or Path
        ``FILE.html`` (or ``.htm``) or ``FILE.pdf``.

    Returns
    -------
    Path
        The file written.
    """
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix in (".html", ".htm"):
        try:
            p.write_text(to_html(result), encoding="utf-8")
        except OSError as e:
            raise ParameterError(f"--out: cannot write {p}: {e.strerror or e}") from None
        return p
    if suffix == ".pdf":
        return print_pdf(to_html(result), p)
    raise ParameterError(f"--out must name a .html or .pdf file, got {str(path)!r}")
