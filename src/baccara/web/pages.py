"""The app's pages: a form of the command line's options, the exact answer as a table, a chart where one helps.

Each page runs the same command as its API route (:mod:`baccara.web.commands`) on the form's fields
(named as the options), so a page shows the numbers of ``baccara ... --json`` for the same inputs.
Forms are GET forms: every answer has a URL that can be bookmarked or shared.
"""

from __future__ import annotations

import asyncio
import json
import math
import re
from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates

from ..commands import Param
from ..commands.chemin import CHEMIN_SWEEP
from ..punto.bets import builtin_bets
from ..rules import PUNTO_BANCO
from . import charts, shoe_page, side_bet, simulate_page, tools
from .commands import COMMANDS, JOB_COMMANDS, WebError
from .pending import patient

#: The pages, in the order of the menu: path, title, what it answers.
PAGES: tuple[tuple[str, str, str], ...] = (
    ("/punto", "Punto banco", "Every bet's exact odds and edge for any shoe."),
    ("/shoe", "Live shoe", "Enter each coup as it is dealt: the exact EV of every bet for the next coup."),
    ("/side-bet", "Side bet designer", "Design a bet: its exact edge, hit frequency, effects of removal; "
                                       "download its TOML."),
    ("/eor", "Effects of removal", "How each card that leaves the shoe changes a bet's edge, exactly."),
    ("/totals", "Outcomes by totals", "Every final Player total against every Banker total, exactly, for any shoe."),
    ("/edgesort", "Edge sorting", "The advantage of reading sorted cards, pattern by pattern."),
    ("/chemin", "Chemin de fer", "The Nash equilibrium at a commission, and its structure over the commission."),
    ("/banque", "Baccara banque", "The three solution concepts side by side, at any theta."),
    ("/macao", "Macao", "Macao and Victoria solved exactly as zero-sum games."),
    ("/simulate", "Simulation", "Punto banco on real shoes, in the background, with a progress bar."),
    *((t.path, t.title, t.summary) for t in tools.TOOLS),
    ("/audit", "Game protection", "Upload a table's hand and bet logs: did a player count or edge-sort?"),
)


def form_query(request: Request, names: Iterable[str]) -> list[tuple[str, str]]:
    """The form's filled-in fields among ``names``, as query parameters (empty fields left out).

    Parameters
    ----------
    request : Request
        The request.
    names : iterable of str
        The fields the page passes on to its command.

    Returns
    -------
    list of (str, str)
        The parameters, in the request's order.
    """
    allowed = set(names)
    return [(k, v.strip()) for k, v in request.query_params.multi_items() if k in allowed and v.strip()]


def as_float(text: Any) -> float:
    """A document's number (``"-243/1047"``, ``0.5``) as a float.

    Parameters
    ----------
    text : str or float
        An exact fraction as text, or a number.

    Returns
    -------
    float
        Its value.
    """
    return float(Fraction(text)) if isinstance(text, str) else float(text)


def percent(x: Any, digits: int = 4, sign: bool = False, value: float | None = None) -> str:
    """A number as a percentage, as a calculator shows it: ``1.0780%``; ``25%`` when exactly that.

    Parameters
    ----------
    x : str or float
        An exact fraction as text (``"-243/1047"``) or a number; other text (a surd) is returned as it is.
    digits : int
        Decimals shown (none when the percentage is a whole number exactly; more, to three significant
        digits, when fewer would show a value that is not zero as zero).
    sign : bool
        Show ``+`` before a positive value.
    value : float, optional
        The value of ``x`` where ``x`` is exact text that is not a fraction (a surd).

    Returns
    -------
    str
        The percentage.
    """
    if isinstance(x, str):
        try:
            hundred = 100 * Fraction(x)
        except (ValueError, ZeroDivisionError):
            return x if value is None else percent(value, digits, sign)
        if hundred.denominator == 1:
            return f"{int(hundred):+d}%" if sign and hundred else f"{int(hundred)}%"
        shown = float(hundred)
    else:
        shown = 100 * float(x)
    if 0 < abs(shown) < 0.5 * 10**-digits:  # not zero, so not shown as zero: three significant digits
        digits = 2 - math.floor(math.log10(abs(shown)))
    return f"{shown:+.{digits}f}%" if sign else f"{shown:.{digits}f}%"


def exact_text(x: Any) -> str:
    """An exact value as people write it: ``0`` and ``3``, not ``0/1`` and ``3/1``.

    Parameters
    ----------
    x : str or int
        A document's exact value.

    Returns
    -------
    str
        The same value, whole numbers without their denominator.
    """
    text = str(x)
    return text[:-2] if re.fullmatch(r"-?\d+/1", text) else text


async def compute(request: Request, name: str, query: list[tuple[str, str]]) -> tuple[Any, dict | None]:
    """Run an API command for a page: its document, or the error to show in the form.

    Parameters
    ----------
    request : Request
        The page's request (the app's engine).
    name : str
        The command's path under /api.
    query : list of (str, str)
        Its parameters.

    Returns
    -------
    (object, dict or None)
        The document (None on error) and the error body (None on success).

    Raises
    ------
    Pending
        The answer takes longer than the app's patience: the page says it is computing.
    """
    try:
        return await patient(request, COMMANDS[name], query), None
    except WebError as e:
        return None, e.body()


def declared(command: str, name: str) -> Param:
    """A form field's declaration: the parameter ``name`` (its web name) of the command at ``/api/command``.

    Parameters
    ----------
    command : str
        The command's path under /api or /api/jobs (``edge``, ``simulate/punto``).
    name : str
        The field: the parameter's web name (``tie-pays``).

    Returns
    -------
    Param
        Its declaration (help, default, kind).

    Raises
    ------
    KeyError
        A page whose field its command does not declare: a template out of step with its command.
    """
    found = {p.web_name: p for p in (COMMANDS.get(command) or JOB_COMMANDS[command]).web_params()}
    if name not in found:
        raise KeyError(f"{command} declares no parameter {name!r} (it has {', '.join(found)})")
    return found[name]


def add_pages(app: FastAPI, engine: Any, templates: Jinja2Templates) -> None:
    """Add every page's route to ``app``.

    Parameters
    ----------
    app : FastAPI
        The app.
    engine : Engine
        Where computations run.
    templates : Jinja2Templates
        The pages' templates.
    """
    env = templates.env
    env.globals["PAGES"] = PAGES
    env.globals["param"] = declared
    env.filters["percent"] = percent
    env.filters["exact"] = exact_text
    env.filters["count"] = lambda n: f"{int(n):,}"
    env.filters["f"] = as_float
    env.filters["pretty"] = lambda doc: json.dumps(doc, indent=1)

    def page(request: Request, name: str, context: dict, error: dict | None = None) -> Response:
        q = dict(request.query_params)
        return templates.TemplateResponse(request, name, {"q": q, "error": error, **context},
                                           status_code=422 if error else 200)

    shoe_fields = ("decks", "composition", "remove", "add", "commission", "tie-pays", "super6-pays")

    @app.get("/punto", response_class=HTMLResponse, include_in_schema=False)
    async def punto(request: Request) -> Response:
        query = form_query(request, (*shoe_fields, "known"))
        tableau = request.query_params.get("tableau-toml", "").replace("\r\n", "\n").strip()
        if tableau and tableau != PUNTO_BANCO.to_toml().strip():  # another drawing table: sent with the query
            query.append(("tableau-toml", tableau + "\n"))
        doc, error = await compute(request, "edge", query)
        chart = ""
        if doc is not None:
            names = list(doc["bets"])
            chart = charts.bar_chart(names, [-100 * as_float(doc["bets"][n]["edge"]) for n in names],
                                     title="each bet's expected value per unit, percent")
        return page(request, "punto.html", {"doc": doc, "chart": chart, "query": query,
                                            "tableau": tableau or PUNTO_BANCO.to_toml()}, error)

    @app.get("/totals", response_class=HTMLResponse, include_in_schema=False)
    async def totals(request: Request) -> Response:
        query = form_query(request, ("decks", "composition", "remove", "add"))
        tableau = request.query_params.get("tableau-toml", "").replace("\r\n", "\n").strip()
        if tableau and tableau != PUNTO_BANCO.to_toml().strip():  # another drawing table: sent with the query
            query.append(("tableau-toml", tableau + "\n"))
        doc, error = await compute(request, "totals", query)
        return page(request, "totals.html", {"doc": doc, "query": query, "tableau": tableau or PUNTO_BANCO.to_toml()},
                    error)

    @app.get("/edgesort", response_class=HTMLResponse, include_in_schema=False)
    async def edgesort(request: Request) -> Response:
        query = form_query(request, (*shoe_fields, "sorted", "cards", "only", "best", "by", "top"))
        best = any(k == "best" and v.lower() in ("true", "on", "1", "yes") for k, v in query)
        query = [(k, v) for k, v in query if k != "best"] + ([("best", "true")] if best else [])
        if best:  # a search: every sorting, not one
            query = [(k, v) for k, v in query if k != "sorted"]
        else:  # the search's fields (the select always sends its choice) belong to the search only
            query = [(k, v) for k, v in query if k not in ("by", "top")]
            if not any(k == "sorted" for k, _ in query):
                query = [("sorted", "6,7,8,9"), *query]
        doc, error = await compute(request, "edgesort", query)
        chart, search = "", None
        if doc is not None and "search" in doc:
            search, doc = doc["search"], doc["best"]
            chart = charts.bar_chart([",".join(t["sorted"]) for t in search["top"]],
                                     [100 * t["advantage_per_coup_float"] for t in search["top"]],
                                     title="the player's advantage per coup of each sorting, percent")
        elif doc is not None:
            top: list[float] = []
            for p in doc["patterns"]:
                evs = [as_float(b["ev"]) for b in p["bets"].values()]
                top.append(100 * max(0.0, max(evs)))
            chart = charts.bar_chart([p["pattern"] for p in doc["patterns"]], top,
                                     title="the best bet's EV given each pattern, percent")
        return page(request, "edgesort.html", {"doc": doc, "chart": chart, "query": query, "search": search,
                                               "shoe_query": [(k, v) for k, v in query if k in shoe_fields]}, error)

    @app.get("/eor", response_class=HTMLResponse, include_in_schema=False)
    async def eor(request: Request) -> Response:
        query = form_query(request, ("bet", *shoe_fields))
        doc = error = None
        chart = ""
        if request.query_params:  # computed when the form is sent
            if not any(k == "bet" for k, _ in query):
                query = [("bet", "banker"), *query]
            doc, error = await compute(request, "eor", query)
        if doc is not None:
            chart = charts.bar_chart(list(doc["effects"]), [e["effect_percent"] for e in doc["effects"].values()],
                                     title="change in the house edge when one card of the rank leaves, percent")
        return page(request, "eor.html", {"doc": doc, "chart": chart, "query": query, "bets": list(builtin_bets())},
                    error)

    @app.get("/chemin", response_class=HTMLResponse, include_in_schema=False)
    async def chemin(request: Request) -> Response:
        query = form_query(request, ("model", "decks", "composition", "remove", "add", "commission"))
        doc = error = None
        if request.query_params:  # solved when the form is sent (seconds)
            doc, error = await compute(request, "chemin/solve", query)
        chart, sweep, sweep_error = "", None, None
        if doc is not None and not doc["model"].endswith("3"):
            sweep_query = [(k, v) for k, v in query if k != "commission"]
            try:
                sweep = await patient(request, CHEMIN_SWEEP, sweep_query)
            except WebError as e:
                sweep_error = e.body()
            if sweep is not None:
                chart = chemin_sweep_chart(sweep)
        return page(request, "chemin.html", {"doc": doc, "chart": chart, "sweep": sweep, "sweep_error": sweep_error,
                                             "tables": [banker_table(eq) for eq in (doc or {}).get("equilibria", [])],
                                             "query": query}, error)

    @app.get("/banque", response_class=HTMLResponse, include_in_schema=False)
    async def banque(request: Request) -> Response:
        query = form_query(request, ("theta", "decks", "composition", "remove", "add"))
        concepts = ("correlated", "independent", "nash")
        if not request.query_params:  # solved when the form is sent (seconds each)
            return page(request, "banque.html", {"docs": {}, "errors": {}, "query": query})
        answers = await asyncio.gather(*(compute(request, "banque/solve", [*query, ("concept", c)]) for c in concepts))
        docs = {c: a[0] for c, a in zip(concepts, answers)}
        errors = {c: a[1] for c, a in zip(concepts, answers)}
        error = next((e for e in errors.values() if e is not None), None)
        return page(request, "banque.html", {"docs": docs, "errors": errors, "query": query}, error)

    @app.get("/macao", response_class=HTMLResponse, include_in_schema=False)
    async def macao(request: Request) -> Response:
        query = form_query(request, ("variant", "decks", "composition", "remove", "add", "natural9-pays", "draws",
                                     "naturals"))
        doc = error = None
        if query:  # the default game takes tens of seconds: solved only when asked
            doc, error = await compute(request, "macao/solve", query)
        return page(request, "macao.html", {"doc": doc, "query": query}, error)

    shoe_page.add_routes(app, page)
    side_bet.add_routes(app, page)
    simulate_page.add_routes(app, page)
    tools.add_routes(app, page)

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> Response:
        return RedirectResponse("/static/favicon.svg")


def banker_table(eq: dict) -> list[dict]:
    """Banker's open information sets at an equilibrium, each with D (draw), S (stand) or M (mix).

    Parameters
    ----------
    eq : dict
        One equilibrium of ``baccara chemin solve --json`` (Models 1-2).

    Returns
    -------
    list of dict
        ``{"set", "third", "move", "draw"}`` per open information set, in the strategy's order:
        the set (Banker's two cards, Player's third card or none), the move letter, and the probability
        of drawing for a mixed move.
    """
    banker = eq.get("banker", {})
    moves = [c for c in banker.get("strategy", "") if c in "DSM"]
    sets = banker.get("open_information_sets", [])
    mixed = banker.get("mixed", {})
    rows = []
    for s, m in zip(sets, moves):
        hand, _, third = s.partition("|")
        rows.append({"set": hand, "third": third, "move": m, "draw": mixed.get(s)})
    return rows


_FORMULA = re.compile(r"^[0-9alphsqrt\s+\-*/().]+$")


def formula_value(text: str, alpha: float) -> float | None:
    """The value at ``alpha`` of a document's formula in alpha (``(477191 - 54732*alpha) / (592524 - ...)``).

    Parameters
    ----------
    text : str
        The formula: numbers, ``alpha``, ``sqrt``, + - * / and parentheses only.
    alpha : float
        The commission.

    Returns
    -------
    float or None
        Its value (None for any other text).
    """
    if not isinstance(text, str) or not _FORMULA.match(text):
        return None
    try:  # only numbers, alpha, sqrt and arithmetic can reach here (checked above)
        return float(eval(text, {"__builtins__": {}}, {"alpha": alpha, "sqrt": math.sqrt}))  # noqa: S307
    except (ArithmeticError, SyntaxError, ValueError, TypeError, NameError):
        return None


def chemin_sweep_chart(sweep: dict, samples: int = 16) -> str:
    """Player's equilibrium probability of drawing at 5 over the commission, from a ``chemin sweep`` document.

    Parameters
    ----------
    sweep : dict
        The document of ``baccara chemin sweep --json``.
    samples : int
        Points drawn in each interval of the commission.

    Returns
    -------
    str
        An SVG line chart (empty if the document has no intervals).
    """
    points: list[tuple[float, float]] = []
    for piece in sweep.get("intervals") or []:
        lo, hi = piece["alpha_from"]["float"], piece["alpha_to"]["float"]
        formula = piece.get("player", {}).get("draw_at_5")
        for i in range(samples + 1):
            a = lo + (hi - lo) * i / samples
            v = formula_value(formula, a)
            if v is not None:
                points.append((a, v))
    return charts.line_chart({"P(draw at 5)": points}, x_label="commission alpha", y_label="Player draws at 5",
                             title="Player's equilibrium over the commission") if points else ""


