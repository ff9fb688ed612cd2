"""The side bet designer: a bet written in a form (conditions and pays, as a TOML bets file allows).

The form is read into the data of a ``[bets.NAME]`` table (:func:`bet_spec`): every incomplete or
contradictory rule (a field without a value, a value without a field, a field chosen twice in one rule,
conditions without a pay, a pay without a condition) is refused naming its field, since a form, unlike a
TOML file, would otherwise drop or overwrite it silently.  Each condition, pay and the whole bet are then
checked by the TOML bets parser's own code (:func:`baccara.punto.bets.bet_from_mapping`), and the bet is
priced from its TOML text by the very commands of the command line (``baccara edge --bets FILE`` and
``baccara eor --bet NAME --bets FILE``), so what the page shows is what the downloaded file gives there.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import replace
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, Response

from ..errors import BetError
from ..punto.bets import as_payout, bet_from_mapping, builtin_bets
from ..punto.cardengine import estimated_seconds
from ..punto.events import CARD_FIELDS, FIELDS, normalize_condition
from ..shoe import Shoe
from .commands import COMMANDS, WebError
from .tables import answer

#: Every field a condition can test, as ``baccara fields`` lists them: the coup's outcome, then the cards
#: themselves (name -> (kind, description, ...)).
DESIGNER_FIELDS: dict[str, tuple] = {**FIELDS, **CARD_FIELDS}

#: A bet on the cards that the card-level engine prices in more than this many seconds (estimated) runs in
#: the lane of long work.
QUICK_SECONDS = 1.0

#: Rules and conditions per rule the form offers.
RULES, CONDITIONS = 3, 3
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")
#: The start of the bets parser's message about one rule (the name is an identifier, checked first).
_RULE = re.compile(r"^bet '[A-Za-z0-9_]{1,64}', rule ([0-9]{1,3}): ")
_PAYS_HELP = "11 for 11:1, 3/2, 0 a push, -1 a loss"
#: Every field of the designer's form (and of ``/api/side-bet``).
FORM_FIELDS = frozenset({"name", "description", "decks", "otherwise", "format", "table",
                         *(f"pays{i}" for i in range(1, RULES + 1)),
                         *(f"{k}{i}_{j}" for k in ("field", "value") for i in range(1, RULES + 1)
                           for j in range(1, CONDITIONS + 1))})


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
    return _toml_string(str(value))


def _toml_string(text: str) -> str:
    """A TOML basic string: backslash, quote and the control characters escaped, everything else as it is
    (JSON's escapes would write a character past U+FFFF as two surrogates, which TOML refuses)."""
    out = []
    for ch in text:
        if ch in ('"', "\\"):
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def form_is_empty(form: dict[str, str]) -> bool:
    """Whether the designer's form has no rule at all (the page then shows the empty form, no error).

    Parameters
    ----------
    form : dict
        The form's fields.

    Returns
    -------
    bool
        True when no pay, condition field or condition value is filled in.
    """
    keys = [f"pays{i}" for i in range(1, RULES + 1)] + [f"{k}{i}_{j}" for k in ("field", "value")
                                                         for i in range(1, RULES + 1) for j in range(1, CONDITIONS + 1)]
    return not any(form.get(k, "").strip() for k in keys)


def bet_spec(form: dict[str, str]) -> tuple[str, dict[str, Any], list[int]]:
    """The bet's name and its data (a ``[bets.NAME]`` table), from the designer's fields, every field checked.

    Parameters
    ----------
    form : dict
        ``name``, ``description``, ``otherwise``, and for rule i (1 to :data:`RULES`) ``pays{i}`` and
        condition j ``field{i}_{j}``, ``value{i}_{j}``.

    Returns
    -------
    (str, dict, list of int)
        The name; the table ``{"rules": [{"when": {...}, "pays": "..."}], "otherwise": ..., "description": ...}``
        (values as TOML reads them); the form's number of each rule kept (rules left empty are skipped).

    Raises
    ------
    WebError
        The first field that is wrong, named (``value1_2``, ``pays3``), and why.
    """
    name = form.get("name", "").strip() or "my_bet"
    if not _NAME.match(name):
        raise WebError(f"name: a bet's name is letters, digits and _ (at most 64), not starting with a digit, "
                       f"got {name!r}", "name")
    if name in builtin_bets():  # the command line refuses it beside the built-in bets: so does its download
        raise WebError(f"name: bet {name!r} has the name of a built-in bet; rename it", "name")
    rules: list[dict[str, Any]] = []
    numbers: list[int] = []
    for i in range(1, RULES + 1):
        pays = form.get(f"pays{i}", "").strip()
        when: dict[str, Any] = {}
        chosen: dict[str, int] = {}
        for j in range(1, CONDITIONS + 1):
            f, v = form.get(f"field{i}_{j}", "").strip(), form.get(f"value{i}_{j}", "").strip()
            if not f and not v:
                continue
            if not f:
                raise WebError(f"field{i}_{j}: rule {i} gives the value {v!r} but no field: choose the field it "
                               "tests, or clear the value", f"field{i}_{j}")
            if f not in DESIGNER_FIELDS:
                raise WebError(f"field{i}_{j}: unknown event field {f!r}: fields are {', '.join(DESIGNER_FIELDS)}",
                               f"field{i}_{j}")
            if not v:
                raise WebError(f"value{i}_{j}: rule {i} tests {f} but gives no value: give it "
                               f"({DESIGNER_FIELDS[f][1]}), "
                               "or clear the field", f"value{i}_{j}")
            if f in chosen:
                raise WebError(f"field{i}_{j}: rule {i} tests {f} twice (conditions {chosen[f]} and {j}); a rule's "
                               f"conditions must all hold, so give {f} once, its values as a list (5,6) if it may "
                               "take several", f"field{i}_{j}")
            chosen[f] = j
            value = _value(v)
            try:
                normalize_condition(f, value)  # the bets parser's own check of a condition
            except BetError as e:
                raise WebError(f"value{i}_{j}: rule {i}: {e}", f"value{i}_{j}") from None
            when[f] = value
        if not pays and not when:
            continue
        if not pays:
            raise WebError(f"pays{i}: rule {i} has conditions but no pay: give what it pays ({_PAYS_HELP}), or "
                           "clear its conditions", f"pays{i}")
        if not when:
            raise WebError(f"field{i}_1: rule {i} pays {pays} but has no condition, so it would decide every coup: "
                           "choose what it pays on (what every other coup pays is 'otherwise')", f"field{i}_1")
        try:
            as_payout(pays, f"rule {i} pays")
        except BetError as e:
            raise WebError(f"pays{i}: {e} ({_PAYS_HELP})", f"pays{i}") from None
        rules.append({"when": when, "pays": pays})
        numbers.append(i)
    if not rules:
        raise WebError(f"pays1: give at least one rule: a condition and what it pays ({_PAYS_HELP})", "pays1")
    spec: dict[str, Any] = {}
    if form.get("description", "").strip():
        spec["description"] = form["description"].strip()
    spec["rules"] = rules
    otherwise = form.get("otherwise", "").strip()
    if otherwise:
        try:
            as_payout(otherwise, "otherwise")
        except BetError as e:
            raise WebError(f"otherwise: {e} (-1: the stake is lost, 0 a push)", "otherwise") from None
        spec["otherwise"] = otherwise
    try:  # the whole bet, by the bets parser: e.g. a rule that can never pay
        bet_from_mapping(name, spec)
    except BetError as e:
        message, m = str(e), _RULE.match(str(e))
        if m and 1 <= int(m.group(1)) <= len(numbers):
            i = numbers[int(m.group(1)) - 1]
            raise WebError(f"pays{i}: rule {i}: {message[m.end():]}", f"pays{i}") from None
        raise WebError(message, None) from None
    return name, spec, numbers


def spec_toml(name: str, spec: dict[str, Any]) -> str:
    """The TOML text of a bets file holding the bet ``name`` of data ``spec`` (:func:`bet_spec`).

    Parameters
    ----------
    name : str
        The bet's name (an identifier).
    spec : dict
        Its table.

    Returns
    -------
    str
        The file's text; reading it gives back ``{"bets": {name: spec}}`` exactly.
    """
    lines = [f"[bets.{name}]"]
    if "description" in spec:
        lines.append(f"description = {_toml(spec['description'])}")
    lines.append("rules = [")
    for r in spec["rules"]:
        inner = ", ".join(f"{k} = {_toml(v)}" for k, v in r["when"].items())
        lines.append(f"  {{ when = {{ {inner} }}, pays = {_toml(r['pays'])} }},")
    lines.append("]")
    if "otherwise" in spec:
        lines.append(f"otherwise = {_toml(spec['otherwise'])}")
    text = "\n".join(lines) + "\n"
    if tomllib.loads(text) != {"bets": {name: spec}}:  # pragma: no cover - a bug in the writer above
        raise WebError("the bet's TOML does not read back as the form: this is a bug in baccara", None, 500)
    return text


def bet_toml(form: dict[str, str]) -> tuple[str, str]:
    """The bet's name and the TOML text of a bets file holding it, from the designer's fields.

    Parameters
    ----------
    form : dict
        The designer's fields (see :func:`bet_spec`).

    Returns
    -------
    (str, str)
        The bet's name and the file's text.

    Raises
    ------
    WebError
        The field that is wrong, named (see :func:`bet_spec`).
    """
    name, spec, _ = bet_spec(form)
    return name, spec_toml(name, spec)


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


def read_form(request: Request) -> dict[str, str]:
    """The designer's fields of a request, each given at most once.

    Parameters
    ----------
    request : Request
        The request.

    Returns
    -------
    dict
        Field -> value.

    Raises
    ------
    WebError
        A field given twice (a form gives each once; the second would silently win), or one the form lacks.
    """
    form: dict[str, str] = {}
    for k, v in request.query_params.multi_items():
        if k not in FORM_FIELDS:
            raise WebError(f"the side bet designer has no field {k!r} (it takes: name, description, decks, otherwise, "
                           f"pays1-{RULES}, field1_1-{RULES}_{CONDITIONS}, value1_1-{RULES}_{CONDITIONS}; the API also "
                           "format and table)", k, 400)
        if k in form:
            raise WebError(f"{k} is given 2 times: give it once", k)
        form[k] = v
    return form


async def price(engine: Any, form: dict[str, str]) -> dict[str, Any]:
    """The designed bet priced by ``baccara edge`` (and ``baccara eor`` for a finite shoe) on its TOML text.

    Parameters
    ----------
    engine : Engine
        Where commands run (:class:`baccara.web.app.Engine`).
    form : dict
        The designer's fields (:func:`bet_spec`), and ``decks`` (default 8).

    Returns
    -------
    dict
        ``name``, ``toml`` (the bets file), ``bet`` (the bet's entry of ``baccara edge --json``), ``eor``
        (the document of ``baccara eor --json``, None for an infinite shoe).

    Raises
    ------
    WebError
        The field that is wrong, named.
    """
    name, spec, _ = bet_spec(form)
    text = spec_toml(name, spec)
    bet = bet_from_mapping(name, spec)
    decks = form.get("decks", "").strip() or "8"
    # effects of removal price the bet 13 times more: a bet on the cards' colours or suits takes the card-level
    # engine seconds each time, so the page leaves them to the command line (and says so); a bet that takes
    # the engine more than a moment goes to the lane of long work, not the quick lane that answers every page
    slow = bet.card_level and bet.resolution == "suit"
    edge = COMMANDS["edge"]
    if bet.card_level and decks.isdigit() and 1 <= int(decks) <= 10_000:  # past that, edge refuses the shoe
        if estimated_seconds(Shoe.decks(int(decks)), (bet,)) > QUICK_SECONDS:
            edge = replace(edge, quick=False)
    try:
        doc = await engine.document(edge, [("decks", decks), ("bets-toml", text)])
        eor = None
        if decks.lower() not in ("inf", "infinite") and not slow:
            eor = await engine.document(COMMANDS["eor"], [("decks", decks), ("bet", name), ("bets-toml", text)])
    except WebError as e:
        if e.parameter == "bets-toml":  # the form's own bet: say which field
            message = e.message.replace("--bets-toml: ", "").replace(" in given as bets-toml", "")
            raise WebError(message, "name" if "built-in" in message else None, e.status) from None
        raise
    note = (f"Effects of removal are not computed here for a bet on the cards' colours or suits (each of the 13 "
            f"takes the card-level engine seconds): run 'baccara eor --decks {decks} --bet {name} --bets FILE' with "
            "the downloaded file.") if slow and decks.lower() not in ("inf", "infinite") else None
    return {"name": name, "toml": text, "bet": doc["bets"][name], "eor": eor, "eor_note": note}


def add_routes(app: FastAPI, page: Any) -> None:
    """Add ``/side-bet``, ``/side-bet/toml`` and ``/api/side-bet`` to the app.

    Parameters
    ----------
    app : FastAPI
        The app.
    page : callable
        Renders a template: ``page(request, name, context, error)``.
    """

    @app.get("/side-bet/toml", include_in_schema=False)
    async def download(request: Request) -> Response:
        name, text = bet_toml(read_form(request))
        return PlainTextResponse(text, media_type="application/toml",
                                 headers={"Content-Disposition": f'attachment; filename="{name}.toml"'})

    @app.get("/api/side-bet", tags=["api"], summary="A bet designed in the side bet designer's fields, priced")
    async def api(request: Request) -> Response:
        """The designer's fields (``name``, ``pays1``, ``field1_1``, ``value1_1``, ..., ``otherwise``, ``decks``) as
        query parameters: the bet's TOML and its documents from ``baccara edge`` and ``baccara eor``
        (``format=csv``: the effects of removal as CSV)."""
        form = read_form(request)
        fmt = form.pop("format", "").strip().lower() or "json"
        table = form.pop("table", "").strip() or None
        return answer(await price(request.app.state.engine, form), fmt, table, "side-bet")

    @app.get("/side-bet", response_class=HTMLResponse, include_in_schema=False)
    async def designer(request: Request) -> Response:
        context: dict[str, Any] = {"fields": DESIGNER_FIELDS, "n_rules": RULES, "n_conditions": CONDITIONS, "doc": None,
                                   "eor": None, "eor_note": None, "toml": None, "name": None,
                                   "count": None}
        try:
            form = read_form(request)
            if form_is_empty(form):
                return page(request, "side_bet.html", context)
            priced = await price(request.app.state.engine, form)
        except WebError as e:
            return page(request, "side_bet.html", context, e.body())
        context.update(name=priced["name"], toml=priced["toml"], doc=priced["bet"], eor=priced["eor"],
                       eor_note=priced["eor_note"], count=countable(priced["eor"]) if priced["eor"] else None)
        return page(request, "side_bet.html", context)
