"""Charts as inline SVG drawn on the server: no JavaScript and nothing fetched, a tooltip (``<title>``) on each mark.

Each function returns SVG markup (escaped text, safe to put in a page as is).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from html import escape


def _num(x: float, digits: int = 2) -> str:
    return f"{x:.{digits}f}".rstrip("0").rstrip(".")


def _open(width: float, height: float, title: str, font: int) -> str:
    """The ``<svg>`` tag: drawn in its own units (viewBox), scaled by the page to the width it has (CSS
    ``svg.chart {width: 100%; height: auto}``), never wider than ``width`` pixels."""
    return (f'<svg class="chart" role="img" aria-label="{escape(title)}" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" preserveAspectRatio="xMinYMin meet" style="max-width: {width}px" '
            f'font-size="{font}" font-family="system-ui, sans-serif" xmlns="http://www.w3.org/2000/svg">')


def bar_chart(labels: Sequence[str], values: Sequence[float], *, unit: str = "%", title: str = "",
              tips: Sequence[str] | None = None, width: int = 400, digits: int = 4) -> str:
    """Horizontal bars from a zero line, negative to the left (red) and positive to the right (green).

    Each bar has its own row: a short label (a pattern, a sorting) and the value at its two ends, a
    longer one (a bet's name) above the bar, which then spans the whole width, so that the chart stays
    legible when a phone scales it down.

    Parameters
    ----------
    labels : sequence of str
        One label per bar.
    values : sequence of float
        The bars' values (in ``unit``).
    unit : str
        Shown after each value.
    title : str
        The chart's accessible name.
    tips : sequence of str, optional
        The tooltip of each bar (default: label and value).
    width : int
        Width in the chart's units (and its largest width in pixels).
    digits : int
        Decimals of the values shown.

    Returns
    -------
    str
        An ``<svg>`` element.
    """
    n = len(values)
    pad, text = 2, 14
    longest = max((len(label) for label in labels), default=0)
    inline = longest <= 12  # short labels (patterns, sortings) share the bar's row; longer ones go above it
    shown = [f"{v:+.{digits}f}{unit}" if v else f"0{unit}" for v in values]
    if inline:
        row, bar = 24, 16
        label_w = 8 * longest + 10
        value_w = 8 * max(len(t) for t in shown) + 10 if shown else 0
        x_lo, x_hi = label_w, width - value_w
    else:
        row, bar = 36, 14
        x_lo, x_hi = pad, width - pad
    height = row * n + 4
    lo, hi = min([0.0, *values]), max([0.0, *values])
    span = (hi - lo) or 1.0
    x_of = lambda v: x_lo + (x_hi - x_lo) * (v - lo) / span  # noqa: E731
    zero = x_of(0.0)
    parts = [_open(width, height, title, 13)]
    for i, (label, v) in enumerate(zip(labels, values)):
        y = 2 + i * row
        x0, x1 = sorted((zero, x_of(v)))
        colour = "#2e7d32" if v > 0 else "#c62828"
        tip = tips[i] if tips else f"{label}: {shown[i]}"
        top = y + (row - bar) / 2 - 1 if inline else y + text + 4
        baseline = y + row / 2 + 4 if inline else y + text
        parts.append(f'<g><title>{escape(tip)}</title>'
                     f'<text x="{pad}" y="{baseline:.1f}">{escape(label)}</text>'
                     f'<text x="{width - pad}" y="{baseline:.1f}" text-anchor="end">{escape(shown[i])}</text>'
                     f'<rect x="{x0:.1f}" y="{top:.1f}" width="{max(x1 - x0, 1):.1f}" height="{bar}" '
                     f'fill="{colour}"/></g>')
    parts.append(f'<line x1="{zero:.1f}" y1="{0 if inline else text + 2}" x2="{zero:.1f}" y2="{height}" '
                 f'stroke="#444"/></svg>')
    return "".join(parts)


def line_chart(series: dict[str, Sequence[tuple[float, float]]], *, x_label: str = "", y_label: str = "",
               title: str = "", width: int = 480, height: int = 300) -> str:
    """Lines through points, one per series, each point with a tooltip.

    Parameters
    ----------
    series : dict of str to sequence of (float, float)
        Each series' points (x, y).
    x_label, y_label : str
        The axes' names.
    title : str
        The chart's accessible name.
    width, height : int
        Size in the chart's units (and its largest size in pixels).

    Returns
    -------
    str
        An ``<svg>`` element.
    """
    points = [p for s in series.values() for p in s]
    if not points:
        return ""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    x_lo, x_hi, y_lo, y_hi = min(xs), max(xs), min(ys), max(ys)
    x_span, y_span = (x_hi - x_lo) or 1.0, (y_hi - y_lo) or 1.0
    left, bottom, top, right = 64, 44, 12 + 18 * len(series), 12
    px = lambda x: left + (width - left - right) * (x - x_lo) / x_span  # noqa: E731
    py = lambda y: top + (height - top - bottom) * (1 - (y - y_lo) / y_span)  # noqa: E731
    colours = ["#1565c0", "#c62828", "#2e7d32", "#6a1b9a", "#ef6c00"]
    middle = (top + height - bottom) / 2
    parts = [_open(width, height, title, 14),
             f'<line x1="{left}" y1="{height - bottom}" x2="{width - right}" y2="{height - bottom}" stroke="#444"/>',
             f'<line x1="{left}" y1="{top}" x2="{left}" y2="{height - bottom}" stroke="#444"/>',
             f'<text x="{left}" y="{height - bottom + 18}">{escape(_num(x_lo, 4))}</text>',
             f'<text x="{width - right}" y="{height - bottom + 18}" text-anchor="end">{escape(_num(x_hi, 4))}</text>',
             f'<text x="{(left + width - right) / 2}" y="{height - 6}" text-anchor="middle">{escape(x_label)}</text>',
             f'<text x="{left - 4}" y="{height - bottom}" text-anchor="end">{escape(f"{y_lo:.4g}")}</text>',
             f'<text x="{left - 4}" y="{top + 10}" text-anchor="end">{escape(f"{y_hi:.4g}")}</text>',
             f'<text x="14" y="{middle}" transform="rotate(-90 14 {middle})" text-anchor="middle">'
             f'{escape(y_label)}</text>']
    for k, (name, pts) in enumerate(series.items()):
        colour = colours[k % len(colours)]
        path = " ".join(f"{'M' if i == 0 else 'L'}{px(x):.1f},{py(y):.1f}" for i, (x, y) in enumerate(pts))
        parts.append(f'<path d="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for x, y in pts:
            parts.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3" fill="{colour}">'
                         f'<title>{escape(f"{name}: {x:.6g} -> {y:.6g}")}</title></circle>')
        parts.append(f'<text x="{left + 8}" y="{14 + 18 * k}" fill="{colour}">{escape(name)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _poly(coefficients: list[int], x: Fraction) -> Fraction:
    """An integer polynomial (coefficients from the constant up) at ``x``, exactly."""
    value = Fraction(0)
    for c in reversed(coefficients):
        value = value * x + c
    return value


def banque_sweep_chart(sweep: dict, samples: int = 4) -> str:
    """The correlated equilibrium's value to the players over theta, from a ``banque sweep`` document.

    Each interval's value is its formula (``formula.numerators[-1] / formula.denominator``, integer
    polynomials in theta), evaluated exactly at a few points of the interval.

    Parameters
    ----------
    sweep : dict
        The document of ``baccara banque sweep --concept correlated --json``.
    samples : int
        Points drawn in each interval.

    Returns
    -------
    str
        An SVG line chart (empty for another concept's document).
    """
    points: list[tuple[float, float]] = []
    for iv in sweep.get("intervals", []):
        formula = iv.get("formula")
        if not formula or "value" not in formula.get("unknowns", []):
            return ""
        lo, hi = iv["from"]["float"], iv["to"]["float"]
        k = formula["unknowns"].index("value")
        for i in range(samples + 1):
            t = Fraction(lo + (hi - lo) * i / samples)
            d = _poly(formula["denominator"], t)
            if d != 0:
                points.append((float(t), 100 * float(_poly(formula["numerators"][k], t) / d)))
    return line_chart({"value, percent": points}, x_label="theta", y_label="value to the players (%)",
                      title="the correlated equilibrium's value over theta") if points else ""
