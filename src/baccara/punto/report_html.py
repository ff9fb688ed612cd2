"""A math report as one self-contained HTML page (charts inline as SVG), and as a PDF printed by Chromium.

The page needs no network: its style is inline and its charts are SVG drawn
by matplotlib with the glyphs as paths.  The PDF is the same page printed by
headless Chromium (from the distribution's packages, as ``scripts/docs.sh``
uses it), so the two never differ in content; its page numbers, date and bet
are CSS page-margin boxes.  :func:`~baccara.punto.report_out.check_out` checks the
output path before any work, so a bad ``--out`` fails at once rather than after the
simulations.
"""

from __future__ import annotations

import html
import io
import math
import shutil
import subprocess
import tempfile
from fractions import Fraction
from pathlib import Path
from typing import Any

from .. import __version__
from ..browser import HEADLESS_FLAGS, chromium
from ..cards import RANKS
from ..errors import BaccaraError, ParameterError
from ..rules import PUNTO_BANCO
from .known import rank_names
from .mathreport import HANDS, MIN_BETS, MathReport, check_summary, probability_text, signed_pct
from .report_out import SUFFIXES, check_out
from .report_words import estimate, one_in, pays_words, plain, player_rule_words, signed, tableau_rows

#: Seconds Chromium may take to print a page.
PDF_TIMEOUT = 120
#: Hands at which the house-result chart evaluates the exact distribution.
CHART_HANDS = tuple(round(10 ** (3 + k / 4)) for k in range(13))

_STYLE = """
body { font-family: "DejaVu Sans", Helvetica, Arial, sans-serif; font-size: 10.5pt; color: #111;
       max-width: 62em; margin: 1.5em auto; padding: 0 1em; line-height: 1.35; }
h1 { font-size: 18pt; margin-bottom: 0.2em; }
h2 { font-size: 13pt; border-bottom: 1px solid #999; margin-top: 1.2em; break-after: avoid; page-break-after: avoid; }
h3 { font-size: 11pt; margin: 0.8em 0 0.3em; break-after: avoid; page-break-after: avoid; }
.keep { break-inside: avoid; page-break-inside: avoid; }
table { border-collapse: collapse; margin: 0.5em 0; break-inside: avoid; page-break-inside: avoid; }
th, td { border: 1px solid #bbb; padding: 2px 6px; vertical-align: top; }
th { background: #eee; text-align: left; }
td.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
th.n { text-align: right; }
td.c { text-align: center; }
.x { font-family: "DejaVu Sans Mono", monospace; font-size: 8.5pt; }
.nw { white-space: nowrap; }
.lbl { display: inline-block; min-width: 12em; }
.sub { color: #555; }
.meta { color: #333; font-size: 9pt; }
.meta code { font-size: 8.5pt; word-break: break-word; }
.note { background: #fff6dd; border-left: 3px solid #d90; padding: 4px 8px; }
.verdict { background: #eef4ff; border-left: 3px solid #36c; padding: 6px 10px; }
figure { margin: 0.5em 0; break-inside: avoid; page-break-inside: avoid; }
figure svg { max-width: 100%; height: auto; }
figcaption { font-size: 9pt; color: #444; }
@page { size: A4; margin: 14mm 14mm 16mm 14mm;
        @bottom-left { content: FOOTER; font-size: 8pt; color: #555; }
        @bottom-right { content: "page " counter(page) " of " counter(pages); font-size: 8pt; color: #555; } }
@media print { body { font-size: 9pt; margin: 0; padding: 0; max-width: none; } .x { font-size: 7.5pt; } }
"""


class _Raw(str):
    """A table cell already written as HTML (not escaped again)."""


class _Wide(_Raw):
    """A table cell of HTML that spans the rest of its row."""


def _e(text: Any) -> str:
    """Escaped text, with an estimate and its error (``x ± y``, ``1 SE``) kept on one line."""
    if isinstance(text, _Raw):
        return text
    return (html.escape(str(text)).replace(" ± ", "&nbsp;±&nbsp;").replace("± 1 SE", "±&nbsp;1&nbsp;SE")
            .replace("1 SE", "1&nbsp;SE"))


def _exact(x: Fraction | int) -> _Raw:
    """An exact rational in small monospace type, never broken inside a number (only after the slash)."""
    x = Fraction(x)
    if x.denominator == 1:
        return _Raw(f"<span class='x nw'>{x.numerator}</span>")
    return _Raw(f"<span class='x'><span class='nw'>{x.numerator}</span>/<wbr><span class='nw'>"
                f"{x.denominator}</span></span>")


def _with_exact(shown: str, exact: Fraction) -> _Raw:
    """A float for people with its exact fraction in small type beneath."""
    return _Raw(f"<span class='nw'>{html.escape(shown)}</span><br>{_exact(exact)}")


def _pct(x: Any, digits: int = 4) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    return plain(float(x) * 100, digits) + "%"


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def _units(x: float) -> str:
    """Units with thousands separators and one decimal, never a negative zero."""
    text = f"{x:,.1f}"
    return text[1:] if text.startswith("-") and float(text.replace(",", "")) == 0 else text


def _css_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


def _table(head: list[str] | None, rows: list[list[Any]], numeric: set[int] | None = None) -> str:
    numeric = numeric or set()

    def cls(i: int) -> str:
        return ' class="n"' if i in numeric else ""

    out = ["<table>"]
    if head:
        out.append("<tr>" + "".join(f"<th{cls(i)}>{_e(h)}</th>" for i, h in enumerate(head)) + "</tr>")
    width = len(head) if head else max((len(r) for r in rows), default=0)
    for row in rows:
        cells = []
        for i, c in enumerate(row):
            if isinstance(c, _Wide):
                cells.append(f"<td colspan='{width - i}'>{c}</td>")
                break
            cells.append(f"<td{cls(i)}>{_e(c)}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</table>")
    return "\n".join(out)


def _svg(fig: Any) -> str:
    import matplotlib.pyplot as plt

    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)
    text = buf.getvalue()
    return text[text.index("<svg"):]  # the XML prologue and doctype are not allowed inside HTML


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.fonttype"] = "path"  # glyphs as paths: the page needs no font
    plt.rcParams["svg.hashsalt"] = "baccara"  # the same report gives the same charts
    return plt


def house_chart(report: MathReport) -> str:
    """The house's result per unit bet after N hands: the edge and the exact 95% band, 10^3 to 10^6 hands (SVG).

    Parameters
    ----------
    report : MathReport
        The report.

    Returns
    -------
    str
        The SVG element.
    """
    plt = _pyplot()
    m = report.moments
    rows = [m.house_result(n) for n in CHART_HANDS]
    edge = float(m.edge) * 100
    fig, ax = plt.subplots(figsize=(7, 3.2))
    ax.fill_between(CHART_HANDS, [r["low_percent"] for r in rows], [r["high_percent"] for r in rows],
                    color="tab:blue", alpha=0.25, label="95% of outcomes (exact)")
    ax.plot(CHART_HANDS, [edge] * len(CHART_HANDS), color="tab:blue", label=f"house edge {edge:.4f}%")
    ax.axhline(0, color="black", lw=0.8)
    ax.set_xscale("log")
    ax.set(xlabel="hands", ylabel="house's result, % of money bet",
           title=f"{report.bet.name}: the house's result after N hands")
    ax.legend(loc="upper right", fontsize=8)
    ax.grid(alpha=0.3)
    return _svg(fig)


def eor_chart(report: MathReport) -> str:
    """Effects of removal on the house edge, by rank (SVG).

    Parameters
    ----------
    report : MathReport
        The report (with effects of removal).

    Returns
    -------
    str
        The SVG element.
    """
    plt = _pyplot()
    _, effects = report.removal
    live = [e for e in effects if e.effect is not None]
    fig, ax = plt.subplots(figsize=(7, 2.8))
    vals = [float(e.effect) * 100 for e in live]
    ax.bar([e.rank for e in live], vals, color=["tab:red" if v < 0 else "tab:green" for v in vals])
    ax.axhline(0, color="black", lw=0.8)
    ax.set(xlabel="rank removed", ylabel="change in house edge, %",
           title=f"{report.bet.name}: effect of removing one card")
    ax.grid(axis="y", alpha=0.3)
    return _svg(fig)


def known_chart(report: MathReport) -> str:
    """The bet's EV given the first card, by card (SVG).

    Parameters
    ----------
    report : MathReport
        The report.

    Returns
    -------
    str
        The SVG element.
    """
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 2.8))
    vals = [float(k.ev) * 100 for k in report.known]
    ax.bar([k.card for k in report.known], vals, color=["tab:green" if v > 0 else "tab:gray" for v in vals])
    ax.axhline(float(-report.edge) * 100, color="tab:blue", lw=1, ls="--", label="no card known")
    ax.axhline(0, color="black", lw=0.8)
    ax.set(xlabel="first card (Player's first)", ylabel=f"{report.bet.name} bet's EV, %",
           title=f"{report.bet.name}: the bettor's expectation given the first card")
    ax.legend(fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    return _svg(fig)


def counting_chart(report: MathReport) -> str | None:
    """Win per 100 hands of the count and of the perfect counter at each cut, ± 2 SE (SVG); None when
    neither bet often enough anywhere to be measured.

    Parameters
    ----------
    report : MathReport
        The report.

    Returns
    -------
    str or None
        The SVG element.
    """
    points = []
    for i, p in enumerate(report.penetrations):
        if p.count_measured:
            c = p.count.count.win_per_100
            points.append(("count", i, c.value, c.stderr))
        if p.perfect_measured:
            w = p.perfect["win_per_100_hands"]
            points.append(("perfect", i, w["value"], w["stderr"]))
    if not points:
        return None
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 2.8))
    labels = [f"cut {p.cut}\n({p.penetration:.1%} dealt)" for p in report.penetrations]
    for who, dx, color, label in (("count", -0.15, "tab:orange", "designed count"),
                                  ("perfect", 0.15, "tab:purple", "perfect counter")):
        mine = [q for q in points if q[0] == who]
        if mine:
            ax.errorbar([q[1] + dx for q in mine], [q[2] for q in mine], yerr=[2 * (q[3] or 0) for q in mine],
                        fmt="o", color=color, capsize=4, label=label)
    ax.axhline(0, color="black", lw=0.8)
    ax.set_xticks(range(len(labels)), labels)
    ax.set_xlim(-0.6, len(labels) - 0.4)
    ax.set(ylabel="units won per 100 hands", title=f"{report.bet.name}: what counting wins (± 2 SE)")
    ax.legend(fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    return _svg(fig)


def _figure(svg: str, caption: str) -> str:
    return f"<figure>{svg}<figcaption>{_e(caption)}</figcaption></figure>"


def _section(number: int, title: str, first: str, rest: str = "") -> str:
    """A section whose heading stays on the page of its first block."""
    return (f"<section><div class='keep'><h2>{number}. {_e(title)}</h2>\n{first}</div>\n{rest}</section>")


def _terms(report: MathReport) -> str:
    names = {"commission": "commission on Banker's wins", "tie_pays": "a tie pays", "super6_pays": "Super 6 pays"}
    parts = []
    for k, v in report.terms.items():
        v = Fraction(v)
        shown = f"{plain(float(v) * 100, 2)}%" if k == "commission" else f"{v.numerator} to {v.denominator}"
        parts.append(f"{names.get(k, k)} {shown}")
    return ", ".join(parts)


def _rules_section(r: MathReport) -> str:
    t = r.tableau
    shoe = r.shoe
    standard = t.player_draws == PUNTO_BANCO.player_draws and t.banker_draws == PUNTO_BANCO.banker_draws
    first = (f"<p><b>The game.</b>  Punto banco: Player and Banker each get two cards from a shoe of "
             f"{_e(shoe.label())} ({shoe.cards:,} cards).  A hand's total is the last digit of the sum of its cards "
             "(aces count 1, tens and faces 0).  A two-card 8 or 9 is a <i>natural</i> and ends the coup.  Otherwise "
             f"{_e(player_rule_words(t))}; Banker then draws or stands by the table below.  The higher total wins; "
             "equal totals tie.</p>")
    head, rows = tableau_rows(t)
    rest = [f"<h3>Banker's drawing rule ({'the standard tableau' if standard else 'a custom tableau: ' + _e(t.name)})"
            "</h3>",
            _table(head, rows, numeric=set(range(1, len(head)))),
            "<p class='sub'>D: Banker draws; S: Banker stands.  Rows: Banker's two-card total; columns: Player's "
            "third card (its value), or 'Player stood'.  A natural (8 or 9) in either hand ends the coup before any "
            "draw.</p>"]
    terms = _terms(r)
    rest.append(f"<p><b>The bet.</b>  {_e(r.bet.name)}: {_e(r.bet.description or 'a bet of the user')}.  It is placed "
                "before the coup and settled by the first line of the pay table (section 2) whose condition holds; "
                "payouts are net, per unit staked."
                + (f"  House terms it depends on: {_e(terms)}." if terms else "") + "</p>")
    rest.append("<p><b>Assumptions.</b></p><ul>"
                "<li>Exact figures are for one coup dealt from the full, freshly shuffled shoe: every ordered deal of "
                f"its cards equally likely ({r.deals:,} of them).  They are exact fractions; the decimals beside them "
                "are rounded.</li>"
                "<li>The house's result after N hands treats the hands as independent, each with these exact chances "
                "(a continuous shuffler, or a fresh shoe each hand); on a real shoe dealt to the cut card the cards "
                "of one hand change the next, which section 10 measures.</li>"
                "<li>One unit is bet each hand; results are in units (or per cent of the money bet).</li>"
                "<li>Simulated figures (counting, the cut card, the simulation check) are estimates: each is given "
                "as value ± one standard error (1 SE), shoes taken as independent clusters, with its seed so it can "
                "be reproduced.</li>"
                "<li>Edge sorting and the first card known assume a player who sees the cards without error; they "
                "measure exposure to those attacks, not a legal way to play.</li></ul>")
    return _section(1, "Rules and assumptions", first, "\n".join(rest))


def _by_decks_section(r: MathReport, number: int) -> str:
    cols = r.decks_compared
    if not cols:
        return _section(number, "By number of decks", "<p class='note'>Not computed.</p>")
    head = ["figure"] + [c.label for c in cols]
    num = set(range(1, len(head)))
    rows = [["house edge"] + [_pct(c.result.edge) for c in cols],
            ["return to player"] + [_pct(1 + c.result.ev) for c in cols],
            ["hit frequency (the bet wins)"] + [_pct(c.result.p_win) for c in cols],
            ["... as odds"] + [one_in(c.result.p_win) for c in cols]]
    if any(c.result.p_push for c in cols):
        rows.append(["push"] + [_pct(c.result.p_push) for c in cols])
    rows.append(["standard deviation"] + [plain(c.result.sd, 4) for c in cols])
    for i, ln in enumerate(r.lines):
        rows.append([f"{ln.words}: {pays_words(ln.pays)}"]
                    + [_Raw(f"{_pct(c.lines[i].probability, 4)}<br><span class='sub'>"
                            f"{one_in(c.lines[i].probability)}</span>") for c in cols])
    rows = [[_Raw(f"<span class='lbl'>{_e(row[0])}</span>")] + row[1:] for row in rows]
    first = _table(head, rows, numeric=num)
    rest = ("<p class='sub'>Every figure exact, for one coup from a full shoe of fresh decks; the continuous shuffler "
            "deals every coup from a full shoe of infinitely many decks (cards with replacement).  Each column is "
            f"the same as <code>baccara edge --decks d</code> for {_e(r.bet.name)}.</p>")
    return _section(number, "By number of decks, and a continuous shuffler", first, rest)


def _house_section(r: MathReport, number: int) -> str:
    rows = []
    for h in r.house_results():
        rows.append([f"{h['hands']:,}", f"{h['mean']['float']:,.1f}", f"{h['sd']:,.1f}",
                     f"{_units(h['low'])} to {_units(h['high'])}",
                     f"{plain(h['low_percent'], 3)}% to {plain(h['high_percent'], 3)}%", probability_text(h),
                     f"{h['p_even']:.4f}" if h["p_even"] >= 5e-5 else ("0" if h["p_even"] == 0 else "< 0.0001"),
                     f"{h['normal']['p_house_ahead']:.4f}"])
    first = _table(["hands", "expected (units)", "SD", "95% of outcomes (units)", "as % of money bet",
                    "P(house ahead)", "P(even)", "P(house ahead), normal approx."], rows, numeric=set(range(8)))
    method = {h["method"] for h in r.house_results()}
    rest = ("<p class='sub'>The house's result is the sum of the independent hands' results; its distribution is the "
            "exact one-hand distribution convolved N times (by Fourier transform, exact to float precision), "
            "not a normal approximation, whose chance of the house being ahead is given beside it for comparison."
            + (" Some rows are too wide to hold exactly and use the normal approximation." if "normal" in method
               else "") + "</p>")
    rest += _figure(house_chart(r), "The house edge and the band holding 95% of the house's results (the exact "
                                    "2.5% and 97.5% points), per cent of the money bet.")
    return _section(number, "The house's result after N hands", first, rest)


def _count_section(r: MathReport, number: int) -> str:
    verdict = r.verdict()
    first = f"<p class='verdict'><b>{_e(verdict['text'])}</b></p>"
    rest: list[str] = []
    cj = r.count_json()
    if cj is not None:
        d = r.design
        tags = [f"{t:+d}" if t else "0" for t in cj["tags"].values()]
        balance = ("balanced: the tags of one deck sum to 0, so the running count starts at 0" if cj["balanced"] else
                   f"unbalanced: the tags of one deck sum to {cj['deck_sum']:+d}, so the running count starts at "
                   f"{cj['initial_per_deck']:g} per deck, {cj['initial_running_count']:g} for {r.shoe.label()}")
        rest.append("<h3>The designed count, as a player applies it</h3>")
        rest.append(_table(["rank"] + list(RANKS), [["tag"] + tags], numeric=set(range(1, 14))))
        rest.append("<ol>"
                    f"<li>At the start of a shoe set the running count to <b>{cj['initial_running_count']:g}</b> "
                    f"(the tags are {_e(balance)}).</li>"
                    "<li>Add the tag of every card seen: the burn card shown face up and every card dealt.</li>"
                    "<li>Before each coup compute the <b>true count</b> = running count x 52 / (cards not yet seen); "
                    "cards not yet seen are those left in the shoe plus the burned cards never shown.</li>"
                    f"<li>Bet {_e(r.bet.name)} (one unit) when the {_e(cj['kind'])} count is "
                    f"<b>{cj['trigger']:g} or more</b>; otherwise do not bet.</li></ol>")
        rest.append(f"<p class='sub'>Tags from -{d.level} to {d.level}: the exact effects of removal centred on their "
                    f"mean, scaled and rounded to the integers of highest <b>betting correlation</b> with them "
                    f"({d.correlation:.4f}).  The trigger is the true count that won most on {d.shoes:,} shoes "
                    f"(seed {d.seed}, cut {d.cut}); the figures below are measured on other shoes (seed "
                    f"{r.settings['count_seed']}), since a trigger chosen on a sample flatters that sample.</p>")
    if r.penetrations:
        rows = []
        for pen in r.penetrations:
            where = f"{pen.cut} ({pen.penetration:.1%})"
            if r.design is not None:
                if pen.count_measured:
                    c = pen.count.count
                    rows.append(["designed count", where, f"{c.shoes:,}", f"{c.placed:,}",
                                 estimate(c.bet_frequency.value, c.bet_frequency.stderr, scale=100, sign=False),
                                 estimate(c.edge_when_betting.value, c.edge_when_betting.stderr, scale=100),
                                 estimate(c.win_per_100.value, c.win_per_100.stderr),
                                 estimate(c.win_per_shoe.value, c.win_per_shoe.stderr)])
                else:
                    rows.append(["designed count", where, f"{r.settings['count_shoes']:,}",
                                 f"{pen.count.count.placed:,}" if pen.count is not None else "0",
                                 _Wide(f"<i>found nothing: {_e(pen.count_status)}</i>")])
            if pen.perfect:
                f = pen.perfect
                if pen.perfect_measured:
                    rows.append(["perfect counter", where, f"{f['shoes']:,}", f"{f['bets']:,}",
                                 estimate(f["bet_frequency"]["value"], f["bet_frequency"]["stderr"], scale=100,
                                          sign=False),
                                 estimate(f["edge_when_betting"]["value"], f["edge_when_betting"]["stderr"],
                                          scale=100),
                                 estimate(f["win_per_100_hands"]["value"], f["win_per_100_hands"]["stderr"]),
                                 estimate(f["win_per_shoe"]["value"], f["win_per_shoe"]["stderr"])])
                else:
                    rows.append(["perfect counter", where, f"{f['shoes']:,}", f"{f['bets']:,}",
                                 _Wide(f"<i>found nothing to measure: {_plural(f['bets'], 'bet')} on "
                                       f"{_plural(f['shoes'], 'shoe')} (fewer than {MIN_BETS})</i>")])
        if rows:
            rest.append("<h3>At each cut</h3>")
            rest.append(_table(["who", "cut (dealt)", "shoes", "bets", "bets per 100 hands (± 1 SE)",
                                "edge when betting, % (± 1 SE)", "win per 100 hands (± 1 SE)",
                                "win per shoe (± 1 SE)"], rows, numeric={2, 3, 4, 5, 6, 7}))
        for text in (r.comparison(p) for p in r.penetrations):
            if text:
                rest.append(f"<p class='note'>{_e(text)}</p>")
        s = r.settings
        who = []
        if r.design is not None:
            who.append(f"the designed count on {s['count_shoes']:,} shoes at each cut")
        if any(p.perfect for p in r.penetrations):
            who.append(f"the perfect counter on the first {s['perfect_shoes']:,} of the same shoes")
        rest.append(f"<p class='sub'>Units: one unit a bet.  Measured: {_e(' and '.join(who) or 'nothing')} (seed "
                    f"{s['count_seed']}).  The perfect counter bets exactly when the exact engine gives the unseen "
                    "cards a positive expectation; its figures are the exact expectations of the bets it placed, the "
                    "bound no count can pass in expectation.  A count or counter that bet fewer than "
                    f"{MIN_BETS} times is said to have found nothing rather than given figures.  Every shoe is burned "
                    "(the first card shown, that many burned face down) and dealt to the cut card, then one more "
                    "coup.</p>")
        chart = counting_chart(r)
        if chart:
            rest.append(_figure(chart, "Win per 100 hands, ± 2 SE."))
    return _section(number, "Counting: can the bet be beaten?", first, "\n".join(rest))


def _sorting_section(r: MathReport, number: int) -> str:
    if r.sort_note:
        return _section(number, "Edge sorting", f"<p class='note'>{_e(r.sort_note)}</p>")
    if not r.sorting:
        return _section(number, "Edge sorting", "<p class='note'>Not computed: no number of cards read was asked "
                                                "for.</p>")
    rows = []
    by = r.settings.get("sort_by") or "value"
    for k, srt in r.sorting.items():
        b = srt.best
        if b.advantage <= 0:
            rows.append([k, _Wide(f"<i>no sort gains anything: of {len(srt.ranking):,} sorts by {_e(srt.by)}, none "
                                  f"gives {_e(r.bet.name)} a positive expectation on any pattern</i>")])
            continue
        rows.append([k, "{" + ", ".join(rank_names(b.sorted_ranks)) + "}", _pct(b.bet_frequency, 3),
                     _with_exact(_pct(b.advantage), b.advantage), "-" if b.per_bet is None else _pct(b.per_bet)])
    first = _table(["cards read", "best sort (one class)", "bets %", "advantage per coup", "per bet"], rows,
                   numeric={0, 2, 3, 4})
    rest = (f"<p class='sub'>The player tells the cards of one class from the rest by their backs and, reading the "
            f"first N cards of the coup (1 and 3 Player's, 2 and 4 Banker's), bets {_e(r.bet.name)} exactly when its "
            f"expectation given the pattern is positive.  Every split of the {'ranks' if by == 'rank' else 'values'} "
            f"into two classes is searched ({'the bet pays on ranks, so the sort is by rank' if by == 'rank' else 'the bet pays on values'}); "
            "the figures are exact.</p>")
    return _section(number, "Edge sorting", first, rest)


def _known_section(r: MathReport, number: int) -> str:
    first = (f"<p>A player who sees Player's first card and bets only when the bet's expectation is positive gains "
             f"<b>{_pct(r.known_advantage)}</b> per coup (exact: {_exact(r.known_advantage)}).</p>")
    rows = [[k.card, f"{float(k.probability):.6f}", _with_exact(signed_pct(k.ev, 4), k.ev), "bet" if k.ev > 0 else ""]
            for k in r.known]
    rest = _table(["card", "probability", "the bet's EV", ""], rows, numeric={1, 2})
    rest += _figure(known_chart(r), "The bettor's exact expectation given the first card.")
    return _section(number, "The first card known", first, rest)


def _cut_section(r: MathReport, number: int) -> str:
    rows = []
    for pen in r.penetrations:
        ce = pen.cut_effect
        if not ce:
            continue
        mean = ce["mean_ev_per_hand"]
        if mean["stderr"] is None:
            rows.append([f"{pen.cut} ({pen.penetration:.1%})", f"{ce['shoes']:,}", f"{ce['hands']:,}",
                         _Wide("<i>not measured: one shoe gives no standard error</i>")])
            continue
        rows.append([f"{pen.cut} ({pen.penetration:.1%})", f"{ce['shoes']:,}", f"{ce['hands']:,}",
                     estimate(-mean["value"], mean["stderr"], scale=100, sign=False, unit="%"), _pct(r.edge),
                     estimate(ce["effect_on_house_edge"]["value"], ce["effect_on_house_edge"]["stderr"], scale=100,
                              unit="%")])
    if not rows:
        return _section(number, "The cut card's effect", "<p class='note'>Not simulated (see the notes).</p>")
    first = _table(["cut (dealt)", "shoes", "hands", "house edge over real shoes (± 1 SE)", "full shoe",
                    "effect (± 1 SE)"], rows, numeric=set(range(1, 6)))
    rest = ("<p class='sub'>A flat bettor's expected result per hand over the coups of real shoes (each coup priced "
            "exactly on its unseen cards, the shoe dealt to the cut card) against the full shoe's: the cut card ends "
            "shoes early more often when the cards left favour fewer coups, which shifts the average.</p>")
    return _section(number, "The cut card's effect", first, rest)


def _check_section(r: MathReport, number: int) -> str:
    c = r.check
    if not c:
        return _section(number, "Simulation check of the exact figures",
                        "<p class='note'>Not simulated (see the notes).</p>")
    rows = []
    for row in c["rows"]:
        ex = row["exact"]["float"]
        rows.append([row["figure"], _with_exact(plain(ex, 8), Fraction(row["exact"]["exact"])),
                     estimate(row["simulated"], row["stderr"], sign=False),
                     "-" if row["low95"] is None else _Raw(f"{plain(row['low95'], 6)} to<br>{plain(row['high95'], 6)}"),
                     "-" if row["z"] is None else signed(row["z"], 2)])
    first = (f"<p>{_e(check_summary(c))}</p>"
             + _table(["figure", "exact", "simulated (± 1 SE)", "95% interval", "z"], rows, numeric={1, 2, 3, 4}))
    rest = (f"<p class='sub'>{c['hands']:,} hands in {_plural(c['shoes'], 'run')} of {c['coups_per_shoe']} coups, every coup "
            f"dealt from a full shoe of {_e(r.shoe.label())} (a continuous shuffler), seed {c['seed']}, by the "
            "package's simulator, which shuffles and deals cards one by one instead of counting deals (it shares "
            "only the bet's payout for each outcome).  z = (simulated - exact) / SE; about 1 figure in 20 falls "
            "outside its 95% interval by chance.</p>")
    return _section(number, "Simulation check of the exact figures", first, rest)


def to_html(report: MathReport) -> str:
    """The report as one self-contained HTML page.

    Parameters
    ----------
    report : MathReport
        The report.

    Returns
    -------
    str
        The page: inline style and SVG charts, no scripts, no links out.
    """
    r = report
    m = r.moments
    p: list[str] = []
    title = f"Math report: {r.bet.name}, {r.shoe.label()}"
    p.append(f"<h1>{_e(title)}</h1>")
    p.append(f"<p class='sub'>{_e(r.bet.description)}</p>")
    made = f"Made {_e(r.made)} by baccara {_e(__version__)}" if r.made else f"Made by baccara {_e(__version__)}"
    cmd = (" with <code>" + " ".join(f"<span class='nw'>{_e(w)}</span>" for w in r.command.split(" ")) + "</code>"
           if r.command else
           " from Python (baccara.math_report), for a bet or shoe no command line names")
    p.append(f"<p class='meta'>{made}{cmd}.  Computed in {r.seconds:.1f} s.  Exact figures are fractions of the "
             f"{r.deals:,} ordered deals of the shoe's cards; every simulated figure is given as value ± one standard "
             "error (1 SE) with its seed.</p>")

    # summary
    verdict = r.verdict()
    summary = [["house edge", _pct(m.edge)], ["return to player", _pct(1 + m.result.ev)],
               ["hit frequency", f"{_pct(m.hit_frequency)} ({one_in(m.hit_frequency)})"],
               ["standard deviation (one unit bet)", plain(m.sd, 4)],
               ["house ahead after 1,000 hands (exact)", probability_text(r.house_results()[0])],
               ["counting", verdict["text"]]]
    if r.check:
        summary.append(["simulation check", check_summary(r.check)])
    p.append(f"<div class='keep'><h2>Summary</h2>{_table(None, summary)}</div>")

    p.append(_rules_section(r))

    # 2 pay table
    rows = [[ln.words, pays_words(ln.pays), f"{ln.combinations:,}",
             _with_exact(f"{float(ln.probability):.10f}", ln.probability), one_in(ln.probability),
             _with_exact(plain(float(ln.contribution), 10) if ln.contribution < 0 else
                         f"+{float(ln.contribution):.10f}" if ln.contribution else "0", ln.contribution)]
            for ln in r.lines]
    rows.append(["total", "", f"{r.deals:,}", _with_exact(f"{sum(float(x.probability) for x in r.lines):.10f}",
                                                           sum((x.probability for x in r.lines), Fraction(0))), "",
                 _with_exact(plain(float(-m.edge), 10), -m.edge)])
    first = _table(["when", "pays", "combinations", "probability", "odds", "return"], rows, numeric={2, 3, 4, 5})
    p.append(_section(2, "Pay table", first,
                      "<p class='sub'>Each line takes the coups that no line above it took.  Combinations: ordered "
                      "deals of the cards a coup uses; return: pays x probability, whose sum is the bettor's "
                      "expectation per unit (the house edge with its sign turned).</p>"))

    # 3 figures
    rows = [["house edge", _pct(m.edge), _exact(m.edge)],
            ["return to player (RTP)", _pct(1 + m.result.ev), _exact(1 + m.result.ev)],
            ["hit frequency (the bet wins)", f"{_pct(m.hit_frequency)} ({one_in(m.hit_frequency)})",
             _exact(m.hit_frequency)]]
    if m.result.p_push:
        rows.append(["push", _pct(m.result.p_push), _exact(m.result.p_push)])
    rows += [["standard deviation", plain(m.sd, 6), _Raw(f"<span class='x'>sqrt(</span>{_exact(m.variance)}"
                                                          "<span class='x'>)</span>")],
             ["volatility index (1.645 x SD, 90%)", plain(m.volatility_index, 6), ""]]
    if m.element_of_risk is not None:
        rows.append(["element of risk (edge per resolved bet)", _pct(m.element_of_risk), _exact(m.element_of_risk)])
    else:
        rows.append(["element of risk", "= house edge (the bet never pushes)", ""])
    p.append(_section(3, "House edge and spread", _table(["figure", "value", "exact"], rows, numeric={1})))
    p.append(_by_decks_section(r, 4))
    p.append(_house_section(r, 5))

    # 6 effects of removal
    if r.removal is not None:
        base, effects = r.removal
        rows = [[e.rank, e.cards_left, "-" if e.effect is None else signed_pct(e.effect, 6), _pct(e.edge_after, 6),
                 "-" if e.effect is None else _exact(e.effect)] for e in effects]
        first = _table(["rank", "cards left", "effect on house edge", "house edge after", "effect (exact)"], rows,
                       numeric={1, 2, 3})
        p.append(_section(6, "Effects of removal", first,
                          _figure(eor_chart(r), "The exact change in the house edge when one card of the rank "
                                                "leaves the shoe (the same as 'baccara eor').")))
    else:
        p.append(_section(6, "Effects of removal", "<p class='note'>Not computed for this shoe (see the notes).</p>"))
    p.append(_count_section(r, 7))
    p.append(_sorting_section(r, 8))
    p.append(_known_section(r, 9))
    p.append(_cut_section(r, 10))
    p.append(_check_section(r, 11))

    # 12 settings
    s = r.settings
    items = []
    if r.penetrations:
        if r.design is not None:
            items.append(f"The count designed on {s['design_shoes']:,} shoes of seed {s['design_seed']} (cut "
                         f"{s['cuts'][0]}), measured on {s['count_shoes']:,} shoes of seed {s['count_seed']} at each "
                         "cut.")
        if any(pen.perfect for pen in r.penetrations):
            items.append(f"The perfect counter and the cut card's effect on the first {s['perfect_shoes']:,} of the "
                         f"shoes of seed {s['count_seed']} at each cut.")
        items.append(f"Cuts: {', '.join(map(str, s['cuts']))} cards behind the cut card.")
    else:
        items.append("No count simulation.")
    if r.check:
        items.append(f"Simulation check: {r.check['hands']:,} hands, seed {r.check['seed']}.")
    items.append(f"Hands in the house's result: {', '.join(f'{n:,}' for n in HANDS)}.")
    items.append("The same figures as JSON: the same command with <code>--json</code>.")
    p.append(_section(12, "Method and settings", "<ul>" + "".join(f"<li>{x}</li>" for x in items) + "</ul>",
                      "".join(f"<p class='note'>{_e(n)}</p>" for n in r.notes)))
    body = "\n".join(p)
    footer = f"{r.bet.name} math report, {r.shoe.label()}" + (f", {r.made}" if r.made else "") + \
        f", baccara {__version__}"
    return html_page(title, body, footer)


def write_html(report: MathReport, path: str | Path) -> Path:
    """Write the report's HTML page.

    Parameters
    ----------
    report : MathReport
        The report.
    path : str or Path
        The file.

    Returns
    -------
    Path
        The file written.
    """
    path = Path(path)
    try:
        path.write_text(to_html(report), encoding="utf-8")
    except OSError as e:
        raise ParameterError(f"--out: cannot write {path}: {e.strerror or e}") from None
    return path


def write_pdf(report: MathReport, path: str | Path, browser: str | None = None) -> Path:
    """Print the report's HTML page to a PDF with headless Chromium.

    Parameters
    ----------
    report : MathReport
        The report.
    path : str or Path
        The PDF file.
    browser : str, optional
        The Chromium executable (default: :func:`chromium`).

    Returns
    -------
    Path
        The file written.

    Raises
    ------
    BaccaraError
        No Chromium, or it failed to print.
    """
    return print_pdf(to_html(report), path, browser)


def print_pdf(page_html: str, path: str | Path, browser: str | None = None) -> Path:
    """Print an HTML page (any report's) to a PDF with headless Chromium.

    Parameters
    ----------
    page_html : str
        The self-contained page.
    path : str or Path
        The PDF file.
    browser : str, optional
        The Chromium executable (default: :func:`chromium`).

    Returns
    -------
    Path
        The file written.

    Raises
    ------
    BaccaraError
        No Chromium, or it failed to print.
    """
    browser = browser or chromium()
    if browser is None:
        raise BaccaraError("--out: a PDF is printed by Chromium, which is not installed (install the distribution's "
                           "chromium package), or write the report as FILE.html")
    path = Path(path).resolve()
    if path.is_dir():
        raise ParameterError(f"--out needs the path of a file to write, got the folder {path}")
    with tempfile.TemporaryDirectory(prefix="baccara-report-") as tmp:
        page = Path(tmp) / "report.html"
        page.write_text(page_html, encoding="utf-8")
        out = Path(tmp) / "report.pdf"
        cmd = [browser, *HEADLESS_FLAGS, "--disable-extensions", f"--user-data-dir={tmp}/profile",
               "--no-pdf-header-footer", f"--print-to-pdf={out}", page.as_uri()]
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=PDF_TIMEOUT)
        except (OSError, subprocess.TimeoutExpired) as e:
            raise BaccaraError(f"--out: Chromium ({browser}) could not print the PDF: {e}") from None
        if not out.exists() or out.stat().st_size == 0:
            tail = (done.stderr or "").strip().splitlines()[-3:]
            raise BaccaraError(f"--out: Chromium ({browser}) printed no PDF (exit {done.returncode}): "
                               f"{' / '.join(tail)}")
        try:
            shutil.copyfile(out, path)
        except OSError as e:
            raise ParameterError(f"--out: cannot write {path}: {e.strerror or e}") from None
    return path


def html_page(title: str, body: str, footer: str = "") -> str:
    """A self-contained page in the math report's style (inline style, no scripts, no links out).

    Parameters
    ----------
    title : str
        The page's title (escaped here).
    body : str
        Its body, as HTML.
    footer : str, optional
        The text printed at the foot of every PDF page, beside the page number.

    Returns
    -------
    str
        The page.
    """
    style = _STYLE.replace("FOOTER", _css_string(footer))
    return (f"<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'><title>{_e(title)}</title>"
            f"<style>{style}</style></head><body>\n{body}\n</body></html>\n")


def html_table(head: list[str], rows: list[list[Any]], numeric: set[int] | None = None) -> str:
    """A table in the report's style: every cell escaped, the ``numeric`` columns right-aligned.

    Parameters
    ----------
    head : list of str
        The column names.
    rows : list of list
        The cells.
    numeric : set of int, optional
        The columns of numbers.

    Returns
    -------
    str
        The table's HTML.
    """
    return _table(head, [[str(c) for c in row] for row in rows], numeric)


def svg_chart(fig: Any) -> str:
    """A matplotlib figure as inline SVG, glyphs as paths (the figure is closed).

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure, made with :func:`chart_pyplot`'s settings.

    Returns
    -------
    str
        The ``<svg>`` element.
    """
    return _svg(fig)


def chart_pyplot() -> Any:
    """matplotlib's pyplot set up for the report's charts (Agg, glyphs as paths, the same page from the same
    report).

    Returns
    -------
    module
        ``matplotlib.pyplot``.
    """
    return _pyplot()


def write_report(report: MathReport, path: str | Path) -> Path:
    """Write the report as HTML or PDF, by the file's suffix.

    Parameters
    ----------
    report : MathReport
        The report.
    path : str or Path
        ``FILE.html`` (or ``.htm``) or ``FILE.pdf``.

    Returns
    -------
    Path
        The file written.
    """
    check_out(path)
    if Path(path).suffix.lower() == ".pdf":
        return write_pdf(report, path)
    return write_html(report, path)


__all__ = ["CHART_HANDS", "SUFFIXES", "chart_pyplot", "check_out", "counting_chart", "eor_chart", "house_chart",
           "html_page", "html_table", "known_chart", "print_pdf", "svg_chart", "to_html", "write_html", "write_pdf",
           "write_report"]
