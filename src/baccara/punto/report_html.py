"""A math report as one self-contained HTML page (charts inline as SVG), and as a PDF printed by Chromium.

The page needs no network: its style is inline and its charts are SVG drawn
by matplotlib with the glyphs as paths.  The PDF is the same page printed by
headless Chromium (from the distribution's packages, as ``scripts/docs.sh``
uses it), so the two never differ in content.
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
from ..algebraic import fraction_str
from ..browser import HEADLESS_FLAGS, chromium
from ..cards import RANKS
from ..errors import BaccaraError, ParameterError
from .mathreport import HANDS, Z95, MathReport

#: Seconds Chromium may take to print a page.
PDF_TIMEOUT = 120

_STYLE = """
body { font-family: "DejaVu Sans", Helvetica, Arial, sans-serif; font-size: 10.5pt; color: #111;
       max-width: 60em; margin: 1.5em auto; padding: 0 1em; line-height: 1.35; }
h1 { font-size: 18pt; margin-bottom: 0.2em; }
h2 { font-size: 13pt; border-bottom: 1px solid #999; margin-top: 1.4em; break-after: avoid; }
table { border-collapse: collapse; margin: 0.6em 0; break-inside: avoid; }
th, td { border: 1px solid #bbb; padding: 2px 6px; vertical-align: top; }
th { background: #eee; text-align: left; }
td.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
span.x { white-space: normal; }
td.x, span.x { font-family: "DejaVu Sans Mono", monospace; font-size: 8.5pt; word-break: break-all; }
.sub { color: #555; }
.note { background: #fff6dd; border-left: 3px solid #d90; padding: 4px 8px; }
figure { margin: 0.6em 0; break-inside: avoid; }
figure svg { max-width: 100%; height: auto; }
figcaption { font-size: 9pt; color: #444; }
section { break-inside: auto; }
section.page { break-before: page; }
@page { size: A4; margin: 15mm; }
@media print { body { font-size: 9pt; margin: 0; padding: 0; max-width: none; } td.x, span.x { font-size: 7.5pt; } }
"""


class _Raw(str):
    """A table cell already written as HTML (not escaped again)."""


def _e(text: Any) -> str:
    return text if isinstance(text, _Raw) else html.escape(str(text))


def _with_exact(shown: str, exact: Fraction) -> _Raw:
    """A float for people with its exact fraction in small type beneath."""
    return _Raw(f"{html.escape(shown)}<br><span class='x'>{html.escape(fraction_str(exact))}</span>")


def _pct(x: Any, digits: int = 4, sign: str = "") -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    return f"{float(x) * 100:{sign}.{digits}f}%"


def _est(e: dict | None, scale: float = 1.0, digits: int = 4, sign: str = "+") -> str:
    if not e or e.get("value") is None:
        return "-"
    v = e["value"] * scale
    se = e.get("stderr")
    return f"{v:{sign}.{digits}f} ± {se * scale:.{digits}f}" if se is not None else f"{v:{sign}.{digits}f}"


def _table(head: list[str], rows: list[list[Any]], numeric: set[int] | None = None, exact: set[int] | None = None,
           caption: str = "") -> str:
    numeric = numeric or set()
    exact = exact or set()
    out = ["<table>"]
    if caption:
        out.append(f"<caption>{_e(caption)}</caption>")
    out.append("<tr>" + "".join(f"<th>{_e(h)}</th>" for h in head) + "</tr>")
    for row in rows:
        cells = []
        for i, c in enumerate(row):
            cls = ' class="n"' if i in numeric else ' class="x"' if i in exact else ""
            cells.append(f"<td{cls}>{_e(c)}</td>")
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
    plt.rcParams["svg.hashsalt"] = "baccara"  # the same report gives the same page
    return plt


def house_chart(report: MathReport) -> str:
    """The house's result per unit bet after N hands: the edge and its 95% band, 10^3 to 10^6 hands (SVG)."""
    plt = _pyplot()
    m = report.moments
    ns = [10 ** (3 + k / 20) for k in range(61)]
    edge, sd = float(m.edge) * 100, m.sd * 100
    fig, ax = plt.subplots(figsize=(7, 3.4))
    ax.fill_between(ns, [edge - Z95 * sd / math.sqrt(n) for n in ns], [edge + Z95 * sd / math.sqrt(n) for n in ns],
                    color="tab:blue", alpha=0.25, label="95% interval")
    ax.plot(ns, [edge] * len(ns), color="tab:blue", label=f"house edge {edge:.4f}%")
    ax.axhline(0, color="black", lw=0.8)
    ax.set_xscale("log")
    ax.set(xlabel="hands", ylabel="house's result, % of money bet",
           title=f"{report.bet.name}: the house's result after N hands")
    ax.legend(loc="upper right", fontsize=8)
    ax.grid(alpha=0.3)
    return _svg(fig)


def eor_chart(report: MathReport) -> str:
    """Effects of removal on the house edge, by rank (SVG)."""
    plt = _pyplot()
    _, effects = report.removal
    live = [e for e in effects if e.effect is not None]
    fig, ax = plt.subplots(figsize=(7, 3))
    vals = [float(e.effect) * 100 for e in live]
    ax.bar([e.rank for e in live], vals, color=["tab:red" if v < 0 else "tab:green" for v in vals])
    ax.axhline(0, color="black", lw=0.8)
    ax.set(xlabel="rank removed", ylabel="change in house edge, %",
           title=f"{report.bet.name}: effect of removing one card")
    ax.grid(axis="y", alpha=0.3)
    return _svg(fig)


def known_chart(report: MathReport) -> str:
    """The bet's EV given the first card, by card (SVG)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 3))
    vals = [float(k.ev) * 100 for k in report.known]
    ax.bar([k.card for k in report.known], vals, color=["tab:green" if v > 0 else "tab:gray" for v in vals])
    ax.axhline(float(-report.edge) * 100, color="tab:blue", lw=1, ls="--", label="no card known")
    ax.axhline(0, color="black", lw=0.8)
    ax.set(xlabel="first card (Player's first)", ylabel="player's EV, %",
           title=f"{report.bet.name}: expectation given the first card")
    ax.legend(fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    return _svg(fig)


def counting_chart(report: MathReport) -> str:
    """Win per 100 hands of the count and of the perfect counter at each penetration, with 2 standard errors (SVG)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 3))
    labels = [f"cut {p.cut}\n({p.penetration:.1%} dealt)" for p in report.penetrations]
    xs = list(range(len(labels)))
    for dx, who, color in ((-0.15, "count", "tab:orange"), (0.15, "perfect", "tab:purple")):
        ys, es = [], []
        for p in report.penetrations:
            w = (p.to_json()["count"] or {}).get("win_per_100_hands") if who == "count" else \
                p.perfect.get("win_per_100_hands")
            ys.append(w["value"] if w and w["value"] is not None else math.nan)
            es.append(2 * w["stderr"] if w and w["stderr"] is not None else 0)
        ax.errorbar([x + dx for x in xs], ys, yerr=es, fmt="o", color=color, capsize=4,
                    label="designed count" if who == "count" else "perfect counter")
    ax.axhline(0, color="black", lw=0.8)
    ax.set_xticks(xs, labels)
    ax.set_xlim(-0.6, len(xs) - 0.4)
    ax.set(ylabel="units won per 100 hands", title=f"{report.bet.name}: what counting wins (± 2 SE)")
    ax.legend(fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    return _svg(fig)


def _figure(svg: str, caption: str) -> str:
    return f"<figure>{svg}<figcaption>{_e(caption)}</figcaption></figure>"


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
    doc = r.to_json()
    p: list[str] = []
    title = f"Math report: {r.bet.name}, {r.shoe.label()}"
    p.append(f"<h1>{_e(title)}</h1>")
    p.append(f"<p class='sub'>{_e(r.bet.description)}. baccara {_e(__version__)}; every exact figure is a "
             f"fraction of the {r.deals:,} ordered deals of the shoe's cards; every simulated figure is given with "
             f"its standard error (shoes as clusters) and its seed.</p>")

    # 1 rules and shoe
    p.append("<section><h2>1. Rules and shoe</h2>")
    shoe = doc["shoe"]
    counts = shoe.get("ranks") or shoe["values"]
    p.append(f"<p>Drawing rules: the {_e(r.tableau.name)} tableau.  Shoe: {_e(r.shoe.label())}, {shoe['cards']} "
             f"cards ({_e(shoe['kind'])}, known by {_e(shoe['resolution'])}).</p>")
    p.append(_table(["card"] + list(counts), [["count"] + list(counts.values())],
                    numeric=set(range(1, len(counts) + 1))))
    if r.parameters:
        p.append("<p>House terms: " + ", ".join(f"{_e(k)} {_e(fraction_str(v))}" for k, v in r.parameters.items())
                 + ".</p>")
    p.append("<p>The bet pays by the first line below whose condition holds; payouts are net, per unit "
             "staked (-1: the stake is lost, 0: a push).</p></section>")

    # 2 pay table
    p.append("<section><h2>2. Pay table</h2>")
    rows = [[ln.when, fraction_str(ln.pays).removesuffix("/1"), f"{ln.combinations:,}",
             _with_exact(f"{float(ln.probability):.10f}", ln.probability),
             _with_exact(f"{float(ln.contribution):+.10f}", ln.contribution)] for ln in r.lines]
    rows.append(["total", "", f"{r.deals:,}", _with_exact(f"{sum(float(x.probability) for x in r.lines):.10f}",
                                                           sum((x.probability for x in r.lines), Fraction(0))),
                 _with_exact(f"{float(-m.edge):+.10f}", -m.edge)])
    p.append(_table(["when", "pays", "combinations", "probability", "return"], rows, numeric={1, 2, 3, 4}))
    p.append("<p class='sub'>Combinations: ordered deals of the cards a coup uses; return: pays x probability, "
             "whose sum is the player's expectation.</p></section>")

    # 3 figures
    p.append("<section><h2>3. House edge and spread</h2>")
    rows = [["house edge", _pct(m.edge), fraction_str(m.edge)],
            ["hit frequency (the bet wins)", _pct(m.hit_frequency), fraction_str(m.hit_frequency)],
            ["push", _pct(m.result.p_push), fraction_str(m.result.p_push)],
            ["standard deviation", f"{m.sd:.6f}", f"sqrt({fraction_str(m.variance)})"],
            ["volatility index (1.645 x SD, 90%)", f"{m.volatility_index:.6f}", ""]]
    if m.element_of_risk is not None:
        rows.append(["element of risk (edge per resolved bet)", _pct(m.element_of_risk),
                     fraction_str(m.element_of_risk)])
    else:
        rows.append(["element of risk", "= house edge (the bet never pushes)", ""])
    p.append(_table(["figure", "value", "exact"], rows, numeric={1}, exact={2}) + "</section>")

    # 4 house result
    p.append("<section><h2>4. The house's result after N hands</h2>")
    rows = [[f"{h['hands']:,}", f"{h['mean']['float']:,.1f}", f"{h['sd']:,.1f}", f"{h['low']:,.1f}",
             f"{h['high']:,.1f}", f"{h['low_percent']:.3f}% to {h['high_percent']:.3f}%", f"{h['p_house_ahead']:.5f}"]
            for h in r.house_results()]
    p.append(_table(["hands", "expected (units)", "SD", "95% low", "95% high", "as % of money bet",
                     "P(house ahead)"], rows, numeric=set(range(7))))
    p.append(_figure(house_chart(r), "Unit bets of one player each hand; the interval is the normal approximation "
                                     "(mean N x edge, SD sqrt(N) x SD of one bet)."))
    p.append("</section>")

    # 5 effects of removal
    p.append("<section class='page'><h2>5. Effects of removal</h2>")
    if r.removal is not None:
        base, effects = r.removal
        rows = [[e.rank, e.cards_left, "-" if e.effect is None else f"{float(e.effect) * 100:+.6f}%",
                 _pct(e.edge_after, 6), "-" if e.effect is None else fraction_str(e.effect)] for e in effects]
        p.append(_table(["rank", "cards left", "effect on house edge", "house edge after", "effect (exact)"], rows,
                        numeric={1, 2, 3}, exact={4}))
        p.append(_figure(eor_chart(r), "The exact change in the house edge when one card of the rank leaves the "
                                       "shoe (the same as 'baccara eor')."))
    else:
        p.append("<p class='note'>Not computed for this shoe (see the notes).</p>")
    p.append("</section>")

    # 6 counting
    p.append("<section><h2>6. Counting</h2>")
    if r.design is not None:
        d = r.design
        p.append(f"<p>The best linear count of level {d.level} (tags from -{d.level} to {d.level}) is derived from "
                 f"the effects of removal: ideal tags are the effects centred on their mean, scaled and rounded to "
                 f"the integers whose <b>betting correlation</b> with the effects is highest "
                 f"({d.correlation:.4f}).  Its trigger is the true count that wins most on {d.shoes:,} shoes "
                 f"(seed {d.seed}, cut {d.cut}): <b>{_e(d.system.rules[0].describe())}</b>.  Its figures below are "
                 f"measured on other shoes (seed {r.settings['count_seed']}).</p>")
        p.append(_table(["rank"] + list(RANKS), [["tag"] + [f"{int(t):+d}" for t in d.tags]],
                        numeric=set(range(1, 14))))
    if r.penetrations:
        for who in ("count", "perfect"):
            rows = []
            for pen in r.penetrations:
                f = pen.to_json()["count"] if who == "count" else pen.perfect
                if not f:
                    continue
                rows.append([f"{pen.cut} ({pen.penetration:.1%})", f"{f['shoes']:,}",
                             _est(f["bet_frequency"], 100, 3, ""), _est(f["edge_when_betting"], 100, 3),
                             _est(f["win_per_100_hands"], 1, 4), _est(f["win_per_shoe"], 1, 4)])
            if rows:
                p.append(f"<p><b>{'The designed count' if who == 'count' else 'The perfect counter'}</b></p>")
                p.append(_table(["cut (dealt)", "shoes", "bets per 100 hands", "edge when betting %",
                                 "win / 100 hands", "win / shoe"], rows, numeric=set(range(1, 6))))
        s = r.settings
        p.append(f"<p class='sub'>Units: one unit a bet.  The count on {s['count_shoes']:,} shoes a cut, the "
                 f"perfect counter on the first {s['perfect_shoes']:,} of the same shoes (seed {s['count_seed']}); "
                 "the perfect counter bets exactly when the exact engine gives the unseen cards a positive "
                 "expectation, and its figures are the exact expectations of the bets it placed: the bound no count "
                 "can pass.  Every shoe is burned (the first card shown, that many burned face down) and dealt to "
                 "the cut card, then one more coup.</p>")
        p.append(_figure(counting_chart(r), "Win per 100 hands, ± 2 standard errors."))
    if r.design is None and not r.penetrations:
        p.append("<p class='note'>Not simulated (see the notes).</p>")
    p.append("</section>")

    # 7 edge sorting
    p.append("<section><h2>7. Edge sorting</h2>")
    rows = []
    for k, s in r.sorting.items():
        b = s.best
        rows.append([k, "{" + ", ".join(RANKS[x] for x in sorted(b.sorted_ranks)) + "}", _pct(b.bet_frequency, 3),
                     _pct(b.advantage), "-" if b.per_bet is None else _pct(b.per_bet), fraction_str(b.advantage)])
    p.append(_table(["cards read", "best sort (one class)", "bets %", "advantage per coup", "per bet",
                     "advantage (exact)"], rows, numeric={0, 2, 3, 4}, exact={5}))
    p.append(f"<p class='sub'>The player tells the cards of one class from the rest by their backs and, reading the "
             f"first N cards of the coup (1 and 3 Player's, 2 and 4 Banker's), bets {_e(r.bet.name)} exactly when "
             f"its expectation given the pattern is positive.  Every split of the values into two classes is "
             f"searched; the figures are exact.</p></section>")

    # 8 first card
    p.append("<section><h2>8. The first card known</h2>")
    p.append(f"<p>A player who sees Player's first card and bets only when its expectation is positive gains "
             f"<b>{_pct(r.known_advantage)}</b> per coup (exact: <span class='x'>"
             f"{_e(fraction_str(r.known_advantage))}</span>).</p>")
    rows = [[k.card, f"{float(k.probability):.6f}", _pct(k.ev, 4, "+"), "bet" if k.ev > 0 else "", fraction_str(k.ev)]
            for k in r.known]
    p.append(_table(["card", "probability", "EV", "", "EV (exact)"], rows, numeric={1, 2}, exact={4}))
    p.append(_figure(known_chart(r), "The player's exact expectation given the first card."))
    p.append("</section>")

    # 9 cut card
    p.append("<section><h2>9. The cut card's effect</h2>")
    if r.penetrations:
        rows = []
        for pen in r.penetrations:
            ce = pen.cut_effect
            if not ce:
                continue
            mean = ce["mean_ev_per_hand"]
            rows.append([f"{pen.cut} ({pen.penetration:.1%})", f"{ce['shoes']:,}", f"{ce['hands']:,}",
                         _est({"value": -mean["value"], "stderr": mean["stderr"]}, 100, 4, ""),
                         _pct(m.edge), _est(ce["effect_on_house_edge"], 100, 4)])
        p.append(_table(["cut (dealt)", "shoes", "hands", "house edge over real shoes %", "full shoe",
                         "effect %"], rows, numeric=set(range(1, 6))))
        p.append("<p class='sub'>A flat bettor's expected result per hand over the coups of real shoes (each coup "
                 "priced exactly on its unseen cards, the shoe dealt to the cut card) against the full shoe's: the "
                 "cut card ends shoes early more often when the cards left favour fewer coups, which shifts the "
                 "average.  Standard errors: shoes as clusters.</p>")
    else:
        p.append("<p class='note'>Not simulated (see the notes).</p>")
    p.append("</section>")

    # 10 settings
    s = r.settings
    p.append("<section><h2>10. Method and settings</h2><ul>")
    if r.penetrations:
        p.append(f"<li>Seed {s['seed']}: the count designed on shoes of seed {s['design_seed']} "
                 f"({s['design_shoes']:,} shoes), measured with the perfect counter on shoes of seed "
                 f"{s['count_seed']} ({s['count_shoes']:,} and {s['perfect_shoes']:,} shoes at each cut: "
                 f"{', '.join(map(str, s['cuts']))} cards behind the cut card).</li>")
    else:
        p.append("<li>No simulation: the exact sections only.</li>")
    p.append(f"<li>Hands reported: {', '.join(f'{n:,}' for n in HANDS)}.  Edge sorting by value.</li>")
    p.append(f"<li>Computed in {r.seconds:.1f} s.  The same figures as JSON: <code>baccara report --json</code>."
             "</li></ul>")
    for n in r.notes:
        p.append(f"<p class='note'>{_e(n)}</p>")
    p.append("</section>")
    return html_page(title, "\n".join(p))


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
        cmd = [browser, *HEADLESS_FLAGS, "--disable-extensions", f"--user-data-dir={tmp}/profile", "--no-pdf-header-footer",
               "--print-to-pdf-no-header", f"--print-to-pdf={out}", page.as_uri()]
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


def html_page(title: str, body: str) -> str:
    """A self-contained page in the math report's style (inline style, no scripts, no links out).

    Parameters
    ----------
    title : str
        The page's title (escaped here).
    body : str
        Its body, as HTML.

    Returns
    -------
    str
        The page.
    """
    return (f"<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'><title>{_e(title)}</title>"
            f"<style>{_STYLE}</style></head><body>\n{body}\n</body></html>\n")


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
    suffix = Path(path).suffix.lower()
    if suffix in (".html", ".htm"):
        return write_html(report, path)
    if suffix == ".pdf":
        return write_pdf(report, path)
    raise ParameterError(f"--out must name a .html or .pdf file, got {str(path)!r}")


__all__ = ["chart_pyplot", "counting_chart", "eor_chart", "house_chart", "html_page", "html_table", "known_chart",
           "print_pdf", "svg_chart", "to_html", "write_html", "write_pdf", "write_report"]
