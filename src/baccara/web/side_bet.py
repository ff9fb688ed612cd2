"""The side bet designer: a bet written in a form (conditions and pays, as a TOML bets file allows).

The form becomes the TOML text of a ``[bets.NAME]`` table, which the page prices with the very commands
of the command line (``baccara edge --bets FILE`` and ``baccara eor --bet NAME --bets FILE``), so what it
shows is what the downloaded file gives there.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, Response

from ..punto.events import FIELDS
from .commands import Command, WebError, text_file

#: Rules and conditions per rule the form offers.
RULES, CONDITIONS = 3, 3
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _value(text: str) -> Any:
    """A condition's value as TOML data: true/false, a whole number, a list of them, or a word."""
    t = text.strip()
    if t.lower() in ("true", "false"):
        return t.lower() == "true"
    parts = [p.strip() for p in t.split(",") if p.strip()]
    if len(parts) > 1:
        return [_value(p) for p in parts]
    try:
        return int(t)
    except ValueError:
        return t


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return json.dumps(str(value))  # a TOML basic string


def bet_toml(form: dict[str, str]) -> tuple[str, str]:
    """The bet's name and the TOML text of a bets file holding it, from the designer's fields.

    Parameters
    ----------
    form : dict
        ``name``, ``description``, ``otherwise``, and for rule i (1 to :data:`RULES`) ``pays{i}`` and
        condition j ``field{i}_{j}``, ``value{i}_{j}``.

    Returns
    -------
    (str, str)
        The bet's name and the file's text.

    Raises
    ------
    WebError
        A name that is not an identifier, or no rule with a payout.
    """
    name = form.get("name", "").strip() or "my_bet"
    if not _NAME.match(name):
        raise WebError(f"name: a bet's name is letters, digits and _, not starting with a digit, got {name!r}", "name")
    rules = []
    for i in range(1, RULES + 1):
        pays = form.get(f"pays{i}", "").strip()
        when = {}
        for j in range(1, CONDITIONS + 1):
            field, value = form.get(f"field{i}_{j}", "").strip(), form.get(f"value{i}_{j}", "").strip()
            if field and value:
                when[field] = _value(value)
        if pays:
            inner = ", ".join(f"{k} = {_toml(v)}" for k, v in when.items())
            rules.append(f"  {{ when = {{ {inner} }}, pays = {_toml(pays)} }},")
    if not rules:
        raise WebError("pays1: give at least one rule with what it pays (11 for 11:1, 3/2, 0 a push)", "pays1")
    lines = [f"[bets.{name}]"]
    if form.get("description", "").strip():
        lines.append(f"description = {_toml(form['description'].strip())}")
    lines += ["rules = [", *rules, "]"]
    if form.get("otherwise", "").strip():
        lines.append(f"otherwise = {_toml(form['otherwise'].strip())}")
    return name, "\n".join(lines) + "\n"


def bets_file(text: str) -> Path:
    """A file holding ``text``, named by its hash, for ``--bets`` (:func:`baccara.web.commands.text_file`).

    Parameters
    ----------
    text : str
        The TOML text.

    Returns
    -------
    Path
        The file.
    """
    return text_file(text)


def countable(eor: dict) -> dict:
    """A first look at whether the bet can be counted, from its exact effects of removal.

    The edge after removing ``k`` cards is about ``edge + k * effect``; the bet turns in the player's
    favour after about ``edge / (largest effect)`` cards of the rank that helps most have left the shoe
    (a linear estimate; ``baccara count design`` measures a real count on simulated shoes).

    Parameters
    ----------
    eor : dict
        The document of ``baccara eor --json``.

    Returns
    -------
    dict
        ``best_rank`` (the rank whose removal helps the player most), ``effect_percent`` (its effect on the
        house edge, percent), ``cards_to_turn`` (about how many of it must leave, or None), and
        ``spread_percent`` (the largest minus the smallest effect).
    """
    from fractions import Fraction

    edge = float(Fraction(eor["edge"]))
    effects = {r: e["effect_percent"] for r, e in eor["effects"].items()}
    best = min(effects, key=lambda r: effects[r])  # lowers the house edge most
    left = eor["effects"][best]["cards_left"]
    shift = -effects[best] / 100
    need = edge / shift if shift > 0 and edge > 0 else None
    return {"best_rank": best, "effect_percent": effects[best],
            "cards_to_turn": None if need is None or need > left else need,
            "positive_already": edge < 0, "spread_percent": max(effects.values()) - min(effects.values())}


def add_routes(app: FastAPI, page: Any) -> None:
    """Add ``/side-bet`` and ``/side-bet/toml`` to the app.

    Parameters
    ----------
    app : FastAPI
        The app.
    page : callable
        Renders a template: ``page(request, name, context, error)``.
    """

    @app.get("/side-bet/toml", include_in_schema=False)
    async def download(request: Request) -> Response:
        name, text = bet_toml(dict(request.query_params))
        return PlainTextResponse(text, media_type="application/toml",
                                 headers={"Content-Disposition": f'attachment; filename="{name}.toml"'})

    @app.get("/side-bet", response_class=HTMLResponse, include_in_schema=False)
    async def designer(request: Request) -> Response:
        form = dict(request.query_params)
        context: dict[str, Any] = {"fields": FIELDS, "n_rules": RULES, "n_conditions": CONDITIONS, "doc": None,
                                   "eor": None, "toml": None, "name": None, "count": None}
        if not any(form.get(f"pays{i}", "").strip() for i in range(1, RULES + 1)):
            return page(request, "side_bet.html", context)
        engine = request.app.state.engine
        decks = form.get("decks", "").strip() or "8"
        try:
            name, text = bet_toml(form)
            path = str(bets_file(text))
            context.update(name=name, toml=text)
            doc = await engine.document(Command(".punto", "edge", "baccara edge", {"bets": path}), [("decks", decks)])
            context["doc"] = doc["bets"][name]
            if decks.lower() not in ("inf", "infinite"):
                eor = await engine.document(Command(".punto", "eor", "baccara eor", {"bets": path}),
                                            [("decks", decks), ("bet", name)])
                context.update(eor=eor, count=countable(eor))
        except WebError as e:
            body = e.body()
            if "path" in locals():
                body["error"] = body["error"].replace(repr(path), "the bet").replace(path, "the bet")
            return page(request, "side_bet.html", context, body)
        return page(request, "side_bet.html", context)
