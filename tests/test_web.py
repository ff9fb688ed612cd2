"""The web app (``baccara serve``): the API serves the command line's ``--json`` documents, bad input is a 4xx
naming the parameter, and the pages show the exact numbers the library computes.

Needs the ``web`` extra; skipped without it.  The browser tests (headless Chromium) are in
``tests/test_web_browser.py`` and marked slow.
"""

import json
import subprocess
import sys
import time
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")

from typer.testing import CliRunner

from baccara import Shoe, builtin_bets, evaluate
from baccara.web.commands import parameter_of
from baccara.web.shoe_page import big_road, parse_coup, parse_coups

from .budget import examples
from .webclient import cli_app, cli_json

# ---------------------------------------------------------------- the API is the command line's --json
CASES = [
    ("edge?decks=8&remove=9,9&known=1%3D9", ["edge", "--decks", "8", "--remove", "9,9", "--known", "1=9"]),
    ("edge?decks=6&commission=0&tie-pays=9&known=1%3D9&known=2%3D8",
     ["edge", "--decks", "6", "--commission", "0", "--tie-pays", "9", "--known", "1=9", "--known", "2=8"]),
    ("eor?bet=tie&decks=1", ["eor", "--bet", "tie", "--decks", "1"]),
    ("edgesort?decks=1&sorted=6,7,8,9&cards=1", ["edgesort", "--decks", "1", "--sorted", "6,7,8,9", "--cards", "1"]),
    ("chemin/solve?model=B2&decks=1&commission=1/20",
     ["chemin", "solve", "--model", "B2", "--decks", "1", "--commission", "1/20"]),
    ("banque/solve?theta=1/2&concept=correlated", ["banque", "solve", "--theta", "1/2", "--concept", "correlated"]),
    ("macao/solve?variant=victoria&decks=1&draws=0", ["macao", "solve", "--variant", "victoria", "--decks", "1",
                                                      "--draws", "0"]),
]


@pytest.mark.parametrize("url,args", CASES, ids=[c[0].split("?")[0] for c in CASES])
def test_each_api_document_is_the_cli_json(client, url, args):
    r = client.get(f"/api/{url}")
    assert r.status_code == 200, r.text
    doc = r.json()
    expected = cli_json(*args)
    if "seconds" in expected:  # macao reports its own timings
        doc.pop("seconds"), expected.pop("seconds")
    assert doc == expected


# ---------------------------------------------------------------- bad input: a 4xx naming the parameter
@pytest.mark.parametrize("url,parameter,words", [
    ("edge?decks=x", "decks", "--decks must be a whole number"),
    ("edge?commission=2", "commission", "--commission"),
    ("edge?remove=Z", "remove", "unknown rank"),
    ("edge?known=7%3D9", "known", "--known"),
    ("edge?infinite=maybe", "infinite", "true or false"),
    ("edge?decks=8&decks=6", "decks", "once"),
    ("edge?color=red", "color", "no option --color"),
    ("eor?decks=8", "bet", "--bet is missing"),
    ("eor?bet=nope&decks=1", "bet", "unknown bet"),
    ("edgesort?decks=1", "sorted", "--sorted is missing"),
    ("edgesort?decks=1&sorted=6&cards=99", "cards", "--cards"),
    ("chemin/solve?model=C9", "model", "--model"),
    ("chemin/solve?model=B2&commission=1", "commission", "--commission"),
    ("banque/solve?theta=2", "theta", "--theta"),
    ("banque/solve?concept=best", "concept", "--concept"),
    ("macao/solve?variant=poker", "variant", "--variant"),
    ("macao/solve?variant=macao&draws=4", "draws", "--allow-long"),
    ("macao/solve?allow-long=true", "allow-long", "no option --allow-long"),
])
def test_bad_input_is_a_4xx_naming_the_parameter(client, url, parameter, words):
    r = client.get(f"/api/{url}")
    assert 400 <= r.status_code < 500, r.text
    body = r.json()
    assert body["parameter"] == parameter and words in body["error"], body
    assert "Traceback" not in r.text


def test_the_error_is_the_cli_message(client):
    r = CliRunner().invoke(cli_app, ["edge", "--decks", "0", "--json"])
    assert r.exit_code == 2
    body = client.get("/api/edge?decks=0").json()
    assert body["error"] in " ".join(r.output.split()) and body["parameter"] == "decks"


def test_parameter_of_names_the_first_option():
    assert parameter_of("--tie-pays: tie pays must be positive") == "tie-pays"
    assert parameter_of("choose one shoe") is None


def test_openapi_lists_each_command_with_its_options(client):
    spec = client.get("/api/openapi.json").json()
    edge = spec["paths"]["/api/edge"]["get"]
    names = {p["name"] for p in edge["parameters"]}
    assert {"decks", "remove", "known", "tie-pays", "commission"} <= names
    assert {"/api/chemin/solve", "/api/banque/solve", "/api/edgesort", "/api/macao/solve", "/api/eor"} <= set(spec["paths"])
    assert client.get("/api/docs").status_code == 200


def test_a_burst_of_requests_is_answered(client):
    from concurrent.futures import ThreadPoolExecutor

    urls = [f"/api/edge?decks={d}&remove=9" for d in range(1, 9)] * 3
    with ThreadPoolExecutor(8) as pool:
        codes = list(pool.map(lambda u: client.get(u).status_code, urls))
    assert codes == [200] * len(urls)


# ---------------------------------------------------------------- pages show the library's exact numbers
def test_punto_page_shows_the_exact_edge(client):
    shoe = Shoe.decks(8).remove("9").remove("9")
    edge = evaluate(shoe, builtin_bets())["banker"].edge
    page = client.get("/punto?decks=8&remove=9,9")
    assert page.status_code == 200 and f">{edge.numerator}/{edge.denominator}<" in page.text
    assert "<svg" in page.text  # the chart


def test_a_page_with_bad_input_says_why(client):
    page = client.get("/punto?decks=zero")
    assert page.status_code == 422 and "--decks must be a whole number" in page.text


def test_chemin_page_shows_player_at_5(client):
    doc = client.get("/api/chemin/solve?model=B2&decks=1&commission=1/20").json()  # as the API test: remembered
    page = client.get("/chemin?model=B2&decks=1&commission=1/20")
    assert page.status_code == 200
    assert doc["equilibria"][0]["player"]["draw_at_5"] in page.text and 'class="move D"' in page.text
    assert "equilibrium over the commission" in page.text and "<svg" in page.text  # the sweep's chart


def test_edgesort_page_shows_the_advantage(client):
    doc = client.get("/api/edgesort?decks=1&sorted=6,7,8,9&cards=1").json()
    page = client.get("/edgesort?decks=1&sorted=6,7,8,9&cards=1")
    assert doc["advantage"]["per_coup"] in page.text


# ---------------------------------------------------------------- the live shoe
def test_a_coup_is_read_by_the_drawing_rules():
    c = parse_coup("9 K 4 7 2")  # Player 9+4 = 3 draws a 2: 5; Banker K+7 = 7 stands
    assert (c.player, c.banker, c.player_total, c.banker_total, c.winner) == (("9", "4", "2"), ("K", "7"), 5, 7, "B")
    assert parse_coup("8 1 0 K").winner == "P"  # a natural 8: four cards; 1 is an ace, 0 a ten
    with pytest.raises(ValueError, match="deals 4 cards"):
        parse_coup("8 1 0 K 5")
    with pytest.raises(ValueError, match="third card"):
        parse_coup("2 3 2 3")


def test_the_big_road_turns_on_a_change_of_winner():
    coups = parse_coups("8 1 0 K;8 1 0 K;A 8 K K;9 9 K K")  # P, P, B, tie
    assert big_road(coups) == [[{"w": "P", "ties": 0}, {"w": "P", "ties": 0}], [{"w": "B", "ties": 1}]]


def test_the_live_shoe_takes_a_coup_and_undoes_it(client):
    r = client.get("/shoe?decks=1&coups=&coup=9+K+4+7+2", follow_redirects=False)
    assert r.status_code == 303
    page = client.get(r.headers["location"])
    assert page.status_code == 200 and 'id="cards-left">47<' in page.text
    edge = evaluate(Shoe.decks(1).remove("9").remove("K").remove("4").remove("7").remove("2"), builtin_bets())
    ev = -edge["tie"].edge
    assert f">{ev.numerator}/{ev.denominator}<" in page.text
    assert "carry no information beyond the cards" in page.text
    undo = client.get("/shoe?decks=1&coups=")
    assert 'id="cards-left">52<' in undo.text


def test_the_live_shoe_refuses_a_card_no_longer_in_it(client):
    coups = ";".join(["8 8 8 8"] * 1)
    page = client.get(f"/shoe?decks=1&coups={coups}&coup=8+1+0+K")
    assert page.status_code == 422 and "coup" in page.text


# ---------------------------------------------------------------- the side bet designer
def test_side_bet_designer_prices_the_bet_and_gives_its_toml(client):
    q = "name=lucky6&decks=1&field1_1=winner&value1_1=banker&field1_2=banker_total&value1_2=6&pays1=12"
    page = client.get(f"/side-bet?{q}")
    assert page.status_code == 200, page.text
    toml = client.get(f"/side-bet/toml?{q}")
    assert toml.status_code == 200 and 'winner = "banker"' in toml.text
    from baccara.punto.bets import bet_from_mapping

    bet = bet_from_mapping("lucky6", {"rules": [{"when": {"winner": "banker", "banker_total": 6}, "pays": 12}]})
    edge = evaluate(Shoe.decks(1), {"lucky6": bet})["lucky6"].edge
    assert f">{edge.numerator}/{edge.denominator}<" in page.text
    assert "Effects of removal" in page.text


def test_side_bet_designer_takes_fields_on_the_cards_themselves(client):
    # issue 46: the designer offers the card fields 'baccara fields' lists; "3 Giving 8" (Banker's first two
    # cards total 3, Player's third card an 8) priced by the card-level engine, as the library prices it
    q = ("name=three_giving_eight&decks=8&field1_1=banker_two_card_total&value1_1=3"
         "&field1_2=player_card3_value&value1_2=8&pays1=200")
    page = client.get(f"/side-bet?{q}")
    assert page.status_code == 200, page.text
    assert '<option value="player_card3_value"' in client.get("/side-bet").text
    from baccara.punto.bets import bet_from_mapping

    bet = bet_from_mapping("three_giving_eight", {"rules": [{"when": {"banker_two_card_total": 3,
                                                                       "player_card3_value": 8}, "pays": 200}]})
    edge = evaluate(Shoe.decks(8), {"three_giving_eight": bet})["three_giving_eight"].edge
    assert f">{edge.numerator}/{edge.denominator}<" in page.text
    assert "Effects of removal" in page.text  # a bet on values: its effects of removal are cheap


def test_side_bet_designer_card_field_errors_name_the_field(client):
    # a condition that cannot hold is refused naming the field, never priced
    for q, field in (("field1_1=player_card1_colour&value1_1=green&pays1=5", "value1_1"),
                     ("field1_1=player_card3_rank&value1_1=Z&pays1=5", "value1_1")):
        r = client.get(f"/api/side-bet?name=x&decks=8&{q}")
        assert r.status_code == 422 and r.json()["parameter"] == field, r.text


def test_side_bet_designer_leaves_a_colour_bets_removal_to_the_command_line(client):
    page = client.get("/side-bet?name=red_start&decks=8&field1_1=player_card1_colour&value1_1=red"
                      "&field1_2=banker_card1_colour&value1_2=red&pays1=3")
    assert page.status_code == 200, page.text
    assert 'id="eor-note"' in page.text and "baccara eor" in page.text and 'id="eor"' not in page.text


def test_side_bet_description_outside_the_basic_plane_is_written_as_toml(client):
    # JSON's escapes wrote an emoji as two surrogates, which TOML refuses: the page answered 500
    q = "name=lucky&decks=1&description=caf%C3%A9+%F0%9F%98%80&field1_1=winner&value1_1=tie&pays1=8"
    assert client.get(f"/side-bet?{q}").status_code == 200
    toml = client.get(f"/side-bet/toml?{q}")
    assert toml.status_code == 200 and "café 😀" in toml.text


def test_side_bet_designer_says_what_is_wrong(client):
    page = client.get("/side-bet?name=x&decks=1&field1_1=winner&value1_1=nobody&pays1=5")
    assert page.status_code == 422 and "baccara-web-" not in page.text


# Every incomplete or contradictory form is refused naming its field (issue 43, "The web app" 1): never a number.
SIDE_BET_REFUSED = [
    # a field chosen twice in one rule: the last one used to win (-312.74%)
    ("field1_1=winner&value1_1=tie&field1_2=winner&value1_2=banker&pays1=8", "field1_2", "twice"),
    # a field with an empty value used to be dropped: a rule with no condition (-800%, hit 100%)
    ("field1_1=winner&value1_1=&pays1=8", "value1_1", "no value"),
    # conditions but no pay used to show nothing at all
    ("field1_1=winner&value1_1=tie", "pays1", "no pay"),
    ("field1_1=winner&value1_1=tie&pays1=8&field2_1=margin&value2_1=3", "pays2", "no pay"),
    # a pay with no condition
    ("pays1=8", "field1_1", "no condition"),
    ("field1_1=winner&value1_1=tie&pays1=8&pays2=1", "field2_1", "no condition"),
    # a value with no field
    ("value1_1=tie&pays1=8", "field1_1", "no field"),
    # conditions that never hold together, a rule that never applies (the bets parser's own check)
    ("field1_1=winner&value1_1=tie&field1_2=margin&value1_2=3&pays1=8", "pays1", "never hold"),
    ("field1_1=winner&value1_1=tie&pays1=8&field2_1=winner&value2_1=tie&field2_2=natural&value2_2=true&pays2=9",
     "pays2", "never applies"),
    # bad values, pays, otherwise, name; a field given twice in the URL
    ("field1_1=winner&value1_1=nobody&pays1=8", "value1_1", "winner is one of"),
    ("field1_1=margin&value1_1=10&pays1=8", "value1_1", "margin takes"),
    ("field1_1=nofield&value1_1=1&pays1=8", "field1_1", "unknown event field"),
    ("field1_1=winner&value1_1=tie&pays1=lots", "pays1", "pays"),
    ("field1_1=winner&value1_1=tie&pays1=8&otherwise=-2", "otherwise", "otherwise"),
    ("field1_1=winner&value1_1=tie&pays1=8&name=9lives", "name", "name"),
    ("field1_1=winner&value1_1=tie&pays1=8&name=banker", "name", "built-in"),
    ("field1_1=winner&value1_1=tie&pays1=8&pays1=9", "pays1", "once"),
    ("field1_1=winner&value1_1=tie&pays1=8&pays4=9", "pays4", "no field"),
]


@pytest.mark.parametrize("query,field,words", SIDE_BET_REFUSED, ids=[f"{c[1]}-{c[2]}" for c in SIDE_BET_REFUSED])
def test_side_bet_designer_refuses_an_incomplete_or_contradictory_form_naming_the_field(client, query, field, words):
    q = f"decks=1&{query}"
    api = client.get(f"/api/side-bet?{q}")
    assert api.status_code in (400, 422), api.text
    assert api.json()["parameter"] == field and words in api.json()["error"], api.json()
    page = client.get(f"/side-bet?{q}")
    assert page.status_code in (400, 422) and 'id="error"' in page.text and f"({field})" in page.text
    assert 'id="side-edge"' not in page.text and "baccara-web-" not in page.text  # no number, no file of ours
    assert client.get(f"/side-bet/toml?{q}").status_code in (400, 422)


def test_the_empty_designer_is_a_form_not_an_error(client):
    empty = "&".join(f"field{i}_{j}=&value{i}_{j}=" for i in (1, 2, 3) for j in (1, 2, 3))
    page = client.get(f"/side-bet?name=&description=&decks=&otherwise=&pays1=&pays2=&pays3=&{empty}")
    assert page.status_code == 200 and 'id="error"' not in page.text


# A form of the designer drawn at random: per rule, conditions (field, value text) and a pay; slots may be empty,
# a field may repeat.  Values are drawn as data, written for the form and, independently, as TOML.
_FORM_FIELDS = ["winner", "margin", "banker_total", "total_cards", "natural", "player_pair"]
_VALUES = {"winner": ["banker", "player", "tie"], "margin": list(range(10)), "banker_total": list(range(10)),
           "total_cards": [4, 5, 6], "natural": [True, False], "player_pair": [True, False]}
_PAYS = ["8", "3/2", "0", "-1", "11", "0.5", "push", "25"]


def _form_text(v):
    if isinstance(v, list):
        return ",".join(_form_text(x) for x in v)
    return ("true" if v else "false") if isinstance(v, bool) else str(v)


def _toml_value(v):
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v) if isinstance(v, int) else json.dumps(v)


@st.composite
def designer_forms(draw):
    slips = draw(st.booleans())  # half the forms may have the slips a form allows; the others are well formed
    rules = []
    for _ in range(draw(st.integers(1, 3))):
        conditions = []
        fields = draw(st.lists(st.sampled_from(_FORM_FIELDS), min_size=1, max_size=3, unique=not slips))
        if slips and draw(st.integers(0, 4)) == 0:
            fields = draw(st.lists(st.sampled_from(["", *_FORM_FIELDS]), max_size=3))
        for f in fields:
            if slips and draw(st.integers(0, 6)) == 0:
                v = None  # an empty value
            else:
                vals = draw(st.lists(st.sampled_from(_VALUES[f or "winner"]), min_size=1, max_size=2, unique=True))
                v = vals[0] if len(vals) == 1 else vals
            conditions.append((f, v))
        pays = "" if slips and draw(st.integers(0, 6)) == 0 else draw(st.sampled_from(_PAYS))
        rules.append((conditions, pays))
    otherwise = draw(st.sampled_from(["", "-1", "0", "-1/2"]))
    return rules, otherwise


@given(form=designer_forms(), decks=st.sampled_from(["1", "8", "inf"]))
@settings(max_examples=examples(80), deadline=None, suppress_health_check=list(HealthCheck))
def test_any_form_the_designer_accepts_gives_the_cli_edge_of_the_same_toml(client, tmp_path_factory, form, decks):
    rules, otherwise = form
    query = [("name", "drawn"), ("decks", decks), ("otherwise", otherwise)]
    well_formed, toml_rules = True, []
    for i, (conditions, pays) in enumerate(rules, 1):
        query.append((f"pays{i}", pays))
        when = []
        for j, (f, v) in enumerate(conditions, 1):
            query += [(f"field{i}_{j}", f), (f"value{i}_{j}", "" if v is None else _form_text(v))]
            if not f and v is None:
                continue
            well_formed &= bool(f) and v is not None and f not in [w[0] for w in when]
            when.append((f, v))
        well_formed &= bool(when) == bool(pays)
        if pays:
            inner = ", ".join(f"{f} = {_toml_value(v)}" for f, v in when if f and v is not None)
            toml_rules.append(f"  {{ when = {{ {inner} }}, pays = {json.dumps(pays)} }},")
    well_formed &= bool(toml_rules)
    r = client.get("/api/side-bet", params=query)
    if not well_formed:  # the form's own slips: refused, naming a field
        assert r.status_code == 422 and r.json()["parameter"], r.text
        event("refused by the form's checks")
        return
    path = tmp_path_factory.mktemp("bets") / "drawn.toml"
    path.write_text("[bets.drawn]\nrules = [\n" + "\n".join(toml_rules) + "\n]\n"
                    + (f"otherwise = {json.dumps(otherwise)}\n" if otherwise else ""))
    cli = CliRunner().invoke(cli_app, ["edge", "--decks", decks, "--bets", str(path), "--json"])
    if cli.exit_code != 0:  # the bets parser refuses it (a rule that never applies, say): so does the page
        assert cli.exit_code == 2 and r.status_code == 422, (cli.output, r.text)
        event("refused by the bets parser")
        return
    event("priced")
    assert r.status_code == 200, r.text
    assert r.json()["bet"] == json.loads(cli.stdout)["bets"]["drawn"]


# ---------------------------------------------------------------- the command
def test_serve_binds_this_machine_by_default_and_says_so():
    import inspect

    from baccara.cli.serve import serve

    wrapped = inspect.unwrap(serve)
    assert inspect.signature(wrapped).parameters["host"].default.default == "127.0.0.1"


def test_serve_refuses_a_bad_port():
    r = CliRunner().invoke(cli_app, ["serve", "--port", "70000"])
    assert r.exit_code == 2 and "--port" in r.output


def test_the_app_starts_in_under_5_seconds():
    code = ("import time; t = time.perf_counter(); from baccara.web.app import create_app; create_app(); "
            "print(time.perf_counter() - t)")
    took = float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                                timeout=60).stdout)
    assert took < 5, took


def test_as_float_reads_exact_fractions():
    from baccara.web.pages import as_float, formula_value

    assert as_float("-1/4") == -0.25 and as_float(0.5) == 0.5
    assert formula_value("(1 - 2*alpha) / 4", 0.5) == 0 and formula_value("__import__('os')", 0) is None
    assert Fraction(1, 4) == Fraction("1/4")


@pytest.mark.slow  # a server process (the browser tests start one too)
def test_serve_runs_and_answers(tmp_path):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    p = subprocess.Popen([sys.executable, "-m", "baccara", "serve", "--port", str(port)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    try:
        import httpx

        deadline = time.time() + 30
        while True:
            try:
                r = httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=2)
                break
            except httpx.TransportError:
                assert time.time() < deadline and p.poll() is None, p.stderr.read() if p.poll() is not None else ""
                time.sleep(0.2)
        assert r.json()["ok"] is True
    finally:
        p.terminate()
        p.wait(timeout=10)


def test_serve_without_the_web_extra_says_how_to_install_it(monkeypatch):
    import baccara.cli.serve as serve_module

    monkeypatch.setattr(serve_module, "missing_web_packages", lambda: ["fastapi"])
    r = CliRunner().invoke(cli_app, ["serve"])
    assert r.exit_code == 2 and "pip install" in r.output and "[web]" in r.output and "Traceback" not in r.output


@pytest.mark.parametrize("path", ["/", "/punto", "/shoe", "/side-bet", "/edgesort", "/chemin", "/banque", "/macao",
                                  "/simulate", "/api/docs", "/eor", "/count", "/count/design", "/simulate-chemin",
                                  "/simulate-banque", "/report", "/bertrand"])
def test_no_page_loads_anything_from_elsewhere(client, path):
    import re

    page = client.get(path)
    assert page.status_code == 200
    assert not re.findall(r'(?:src|href)="(?:https?:)?//', page.text), path


# ---------------------------------------------------------------- background jobs: the simulation
def _finished(client, job_id: str, seconds: float = 60) -> dict:
    deadline = time.time() + seconds
    while True:
        s = client.get(f"/api/jobs/{job_id}").json()
        if s["state"] not in ("queued", "running") or time.time() > deadline:
            return s
        time.sleep(0.1)


def test_a_simulation_job_gives_the_cli_document(client):
    r = client.post("/api/jobs/simulate/punto?shoes=100&seed=5&decks=8")
    assert r.status_code == 202
    s = _finished(client, r.json()["id"])
    assert s["state"] == "done" and s["done"] == s["total"] == 100
    expected = cli_json("simulate", "punto", "--shoes", "100", "--seed", "5", "--decks", "8")
    for doc in (s["result"], expected):  # how long it ran, and at what rate: not the same twice
        for key in ("seconds", "hands_per_second"):
            doc["run"].pop(key, None)
    assert s["result"] == expected


def test_a_simulation_job_can_be_cancelled(client):
    r = client.post("/api/jobs/simulate/punto?shoes=10000000&seed=1&decks=8")
    assert r.status_code == 202
    assert client.post(f"/api/jobs/{r.json()['id']}/cancel").status_code == 200
    s = _finished(client, r.json()["id"])
    assert s["state"] == "cancelled" and s["done"] < s["total"] and "result" not in s


def test_a_simulation_refuses_bad_input_at_once(client):
    r = client.post("/api/jobs/simulate/punto?shoes=-5")
    assert r.status_code == 422 and r.json()["parameter"] == "shoes"
    assert client.post("/api/jobs/simulate/punto?allow-long=true").status_code == 400
    assert client.get("/api/jobs/nope").status_code == 404


def test_the_simulation_page_starts_a_job_and_shows_its_result(client):
    r = client.post("/simulate", content="shoes=50&seed=2", headers={"content-type": "application/x-www-form-urlencoded"},
                    follow_redirects=False)
    assert r.status_code == 303
    job_id = r.headers["location"].rsplit("/", 1)[1]
    s = _finished(client, job_id)
    page = client.get(r.headers["location"])
    assert s["state"] == "done" and 'id="sim-bets"' in page.text and f"{s['result']['hands']:,} hands" in page.text


def test_punto_page_takes_another_drawing_table(client):
    from pathlib import Path

    from baccara.rules import load_tableau_toml

    path = Path(__file__).parents[1] / "examples" / "tableaux" / "chemin_d1.toml"
    edge = evaluate(Shoe.decks(1), builtin_bets(), tableau=load_tableau_toml(path))["banker"].edge
    page = client.get("/punto", params={"decks": "1", "tableau-toml": path.read_text()})
    assert page.status_code == 200 and f">{edge.numerator}/{edge.denominator}<" in page.text
    assert "chemin de fer D1" in page.text
    bad = client.get("/punto", params={"decks": "1", "tableau-toml": "player_draws = [9]"})
    assert bad.status_code == 422 and "--tableau" in bad.text and "baccara-web-" not in bad.text


def test_the_banque_sweep_chart_draws_each_intervals_formula():
    from baccara.web.charts import banque_sweep_chart

    doc = {"intervals": [{"from": {"float": 0.0}, "to": {"float": 0.5},
                          "formula": {"denominator": [2], "numerators": [[1], [0, 1]], "unknowns": ["p_SS", "value"]}}]}
    svg = banque_sweep_chart(doc)
    assert svg.startswith("<svg") and "0.5 -&gt; 25" in svg  # value theta/2 at theta = 1/2: 25 percent
    assert banque_sweep_chart({"intervals": [{"from": {"float": 0}, "to": {"float": 1}, "formula": None}]}) == ""


@pytest.mark.slow  # a few CPU-seconds of the sweep before it stops
def test_the_banque_sweep_runs_as_a_job_that_can_be_cancelled(client):
    r = client.post("/banque/sweep", follow_redirects=False)
    assert r.status_code == 303
    job_id = r.headers["location"].rsplit("/", 1)[1]
    client.post(f"/api/jobs/{job_id}/cancel")
    s = _finished(client, job_id)
    assert s["state"] == "cancelled" and s["command"] == "baccara banque sweep"
    assert client.get(r.headers["location"]).status_code == 200


WEIRD = ["", "x", "-1", "0", "1e999", "nan", "1/0", "99999999999999999999", "A=1", ",,,", "é", "true"]


@pytest.mark.parametrize("path,base", [("edge", [("decks", "1")]),
                                       pytest.param("eor", [("bet", "tie"), ("decks", "1")], marks=pytest.mark.slow)])
def test_no_value_of_any_option_is_a_500(client, path, base):
    from baccara.web.commands import COMMANDS

    for o in COMMANDS[path].web_params():
        for v in WEIRD:
            q = [(k, x) for k, x in base if k != o.web_name] + [(o.web_name, v)]
            r = client.get(f"/api/{path}", params=q)
            assert r.status_code < 500, (q, r.text)
            if r.status_code >= 400:
                assert set(r.json()) == {"error", "parameter"}


def test_a_count_job_takes_the_count_file_as_text_and_gives_the_cli_document(client):
    from pathlib import Path

    path = Path(__file__).parents[1] / "examples" / "counts" / "tie_67.toml"
    r = client.post("/api/jobs/count", params={"bet": "tie", "count-toml": path.read_text(), "shoes": "300",
                                               "perfect-shoes": "0", "seed": "1", "decks": "8"})
    assert r.status_code == 202, r.text
    s = _finished(client, r.json()["id"])
    assert s["state"] == "done" and s["done"] == s["total"] == 300
    expected = cli_json("count", "--bet", "tie", "--count", str(path), "--shoes", "300", "--perfect-shoes", "0",
                        "--seed", "1", "--decks", "8")
    for doc in (s["result"], expected):  # timings
        doc.pop("run", None)
    assert s["result"] == expected
    bad = client.post("/api/jobs/count", params={"bet": "tie", "count-toml": "tags = 3", "shoes": "10"})
    assert bad.status_code == 422 and bad.json()["parameter"] == "count-toml", bad.text
    assert "baccara-web-" not in bad.text


def test_edgesort_page_searches_every_sorting(client):
    doc = client.get("/api/edgesort?decks=1&cards=1&best=true&top=3").json()
    page = client.get("/edgesort?decks=1&cards=1&best=true&top=3")
    assert page.status_code == 200 and 'id="search"' in page.text
    assert all(t["advantage_per_coup"] in page.text for t in doc["search"]["top"])
    assert "/edgesort?sorted=6%2C7%2C8%2C9&amp;cards=1&amp;decks=1" in page.text


def test_countable_reads_the_effects_of_removal():
    from baccara.web.side_bet import countable

    eor = {"edge": "1/100", "effects": {"A": {"effect_percent": 0.1, "cards_left": 32},
                                        "6": {"effect_percent": -0.05, "cards_left": 32}}}
    got = countable(eor)
    assert got["best_rank"] == "6" and got["cards_to_turn"] == pytest.approx(20) and not got["positive_already"]
    eor["effects"]["6"]["cards_left"] = 10  # fewer sixes left than it takes: not by one rank
    assert countable(eor)["cards_to_turn"] is None


def test_the_live_shoe_keeps_the_tables_terms(client):
    r = client.get("/shoe?decks=1&tie-pays=9&coups=&coup=9+K+4+7+2", follow_redirects=False)
    assert r.status_code == 303 and "tie-pays=9" in r.headers["location"]
    page = client.get(r.headers["location"])
    bets = builtin_bets(tie_pays=9)
    ev = -evaluate(Shoe.decks(1).remove("9").remove("K").remove("4").remove("7").remove("2"), bets)["tie"].edge
    assert f">{ev.numerator}/{ev.denominator}<" in page.text and 'name="tie-pays" value="9"' in page.text


def test_the_engine_runs_at_most_a_few_at_once_and_answers_every_call():
    import asyncio
    import threading

    from baccara.web.app import Engine

    running, most, lock = [0], [0], threading.Lock()

    def work(i: int) -> int:
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        time.sleep(0.02)
        with lock:
            running[0] -= 1
        return i

    async def burst() -> list:
        engine = Engine(running=2)
        return await asyncio.gather(*(engine.call(work, i) for i in range(12)))

    assert asyncio.run(burst()) == list(range(12)) and most[0] == 2


def test_numbers_read_like_a_calculator():
    from baccara.web.pages import exact_text, percent

    assert percent("811350158873/75266689467200") == "1.0780%"  # the percentage first, four decimals
    assert percent("-1/8", sign=True) == "-12.5000%" and percent("1/4") == "25%" and percent("0/1") == "0%"
    assert percent("1/1", sign=True) == "+100%" and percent(0.5, 2) == "50.00%"
    assert percent("1/8000000") == "0.0000125%" and percent("-1/8000000", sign=True) == "-0.0000125%"
    assert percent("(1+sqrt(5))/4", value=0.809017) == "80.9017%" and percent("(1+sqrt(5))/4") == "(1+sqrt(5))/4"
    assert exact_text("0/1") == "0" and exact_text("-3/1") == "-3" and exact_text("3/11") == "3/11"


def test_macao_strategies_come_exact_beside_their_floats(client):
    doc = client.get("/api/macao/solve?variant=victoria&decks=1&draws=1").json()
    for side in ("punter", "banker"):
        floats, exact = doc[f"{side}_strategy"], doc[f"{side}_strategy_exact"]
        assert floats["draw"] and floats.keys() == exact.keys()
        for kind in floats:
            assert floats[kind].keys() == exact[kind].keys()
            for k, p in exact[kind].items():
                assert 0 <= Fraction(p) <= 1 and float(Fraction(p)) == pytest.approx(floats[kind][k], abs=1e-12)
    page = client.get("/macao?variant=victoria&decks=1&draws=1")
    mixed = [p for p in doc["punter_strategy_exact"]["draw"].values() if Fraction(p) not in (0, 1)]
    assert mixed and all(f">{p}<" in page.text for p in mixed) and "total 5, 2 cards" in page.text
    assert "5/2<" not in page.text and ">0/1<" not in page.text


@pytest.mark.parametrize("path", [
    "/punto?decks=8", "/shoe?decks=1&coups=9+K+4+7+2", "/edgesort?decks=1&sorted=6,7,8,9&cards=1",
    "/side-bet?name=lucky6&decks=1&field1_1=winner&value1_1=banker&field1_2=banker_total&value1_2=6&pays1=12",
    "/chemin?model=B2&decks=1&commission=1/20", "/macao?variant=victoria&decks=1&draws=1"])
def test_pages_show_no_python_literals_and_no_whole_numbers_as_fractions(client, path):
    import re

    page = client.get(path)
    assert page.status_code == 200
    text = re.sub(r"<pre\b.*?</pre>|<script\b.*?</script>|<[^>]+>", " ", page.text, flags=re.S)  # what is read
    assert not re.findall(r"\b(?:True|False|None)\b|(?<![\d/])-?\d+/1(?![\d/])", text), path
    assert re.search(r"\d\.\d{4}%", text), path  # percentages first


@pytest.mark.parametrize("labels", [["S", "OS", "SOS"], ["dragon_bonus_banker", "player", "tie"]])
def test_a_bar_chart_scales_and_draws_every_bar_inside_its_box(labels):
    import re

    from baccara.web.charts import bar_chart

    svg = bar_chart(labels, [-14.36, 2.5, 0.0])
    w, h = map(float, re.search(r'viewBox="0 0 (\S+) (\S+)"', svg).groups())
    rects = [tuple(map(float, r)) for r in
             re.findall(r'<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"', svg)]
    assert len(rects) == 3 and all(0 <= x and x + rw <= w and 0 <= y and y + rh <= h for x, y, rw, rh in rects)
    assert f'style="max-width: {w:g}px"' in svg and "-14.3600%" in svg and "+2.5000%" in svg


# ---------------------------------------------------------------- outcomes by totals
def test_the_totals_api_is_the_cli_json_and_the_page_shows_it(client, tmp_path):
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "examples" / "tableaux" / "badoureau_d1.toml").read_text()
    path = tmp_path / "drawing.toml"
    path.write_text(text)
    api = client.get("/api/totals", params={"decks": "2", "remove": "9,6", "tableau-toml": text})
    assert api.status_code == 200, api.text
    assert api.json() == cli_json("totals", "--decks", "2", "--remove", "9,6", "--tableau", str(path))
    assert client.get("/api/totals?infinite=true").json() == cli_json("totals", "--infinite")
    csv = client.get("/api/totals?decks=1&format=csv")
    assert csv.status_code == 200 and csv.text.splitlines()[0] == \
        "player_total,banker_total,winner,probability.exact,probability.float"
    bad = client.get("/api/totals?decks=0")
    assert bad.status_code == 422 and bad.json()["parameter"] == "decks"
    assert client.get("/api/totals?known=1%3D9").status_code == 400  # not an option of totals

    import re

    page = client.get("/totals", params={"decks": "2", "remove": "9,6", "tableau-toml": text})
    assert page.status_code == 200 and 'id="grid"' in page.text
    doc = api.json()
    cell = re.search(r'id="t7-6">(.*?)</td>', page.text, flags=re.S).group(1)
    exact = doc["matrix"]["7"]["6"]
    assert f"{100 * float(Fraction(exact)):.3f}%" in cell and f'<span class="exact">{exact}</span>' in cell
    shown = re.sub(r"<pre\b.*?</pre>|<textarea\b.*?</textarea>|<script\b.*?</script>|<[^>]+>", " ", page.text,
                   flags=re.S)
    assert not re.findall(r"\b(?:True|False|None)\b|(?<![\d/])-?\d+/1(?![\d/])", shown)
    assert "Badoureau D1" in shown


def test_no_value_of_any_totals_option_is_a_500(client):
    from baccara.web.commands import COMMANDS

    for name in [o.name for o in COMMANDS["totals"].options()] + ["tableau-toml"]:
        for v in [*WEIRD, "player_draws = [9]"]:
            r = client.get("/api/totals", params=[("decks", "1"), (name, v)] if name != "decks" else [(name, v)])
            assert r.status_code < 500, (name, v, r.text)
            if r.status_code >= 400:
                assert set(r.json()) == {"error", "parameter"}
