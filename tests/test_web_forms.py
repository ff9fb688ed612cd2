"""The web app's forms and its limits: each page's form submitted exactly as a browser sends it (every field,
empty ones included) gives the library's number; a long parameter is refused at once and no request blocks
the others; files given as text leave nothing behind; refused jobs leave no job (issue 43, "The web app").

Needs the ``web`` extra; skipped without it.
"""

import csv
import http.client
import io
import json
import re
import tempfile
import threading
import time
import warnings
from html.parser import HTMLParser
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")

with warnings.catch_warnings():  # starlette's test client warns about its httpx
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient
from typer.testing import CliRunner

from baccara import Shoe, builtin_bets, evaluate
from baccara.rules import PUNTO_BANCO
from baccara.web import jobs as jobs_module
from baccara.web.app import MAX_REQUEST_LINE, create_app
from baccara.web.commands import MAX_TEXT, MAX_VALUE

from .webclient import cli_app, cli_json


def exact(x) -> str:
    """A fraction as the documents write it."""
    return f"{x.numerator}/{x.denominator}"


# ---------------------------------------------------------------- a browser's form submission
class _Forms(HTMLParser):
    """Each form of a page and the fields a browser submits from it, as it would (before the user types)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: dict[str, dict] = {}
        self.form: dict | None = None
        self.select: list | None = None  # [name, [(value, selected)], the option being read]
        self.textarea: list | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.form = {"method": (a.get("method") or "get").lower(), "action": a.get("action"), "fields": []}
            self.forms[a.get("id") or f"form{len(self.forms)}"] = self.form
        elif self.form is None or "disabled" in a:
            return
        elif tag == "input" and a.get("name"):
            kind = (a.get("type") or "text").lower()
            if kind in ("checkbox", "radio"):
                self.form.setdefault("checkable", {})[a["name"]] = a.get("value") or "on"
                if "checked" in a:
                    self.form["fields"].append((a["name"], a.get("value") or "on"))
            elif kind not in ("submit", "button", "reset", "image", "file"):
                self.form["fields"].append((a["name"], a.get("value") or ""))
        elif tag == "select" and a.get("name"):
            self.select = [a["name"], [], None]
        elif tag == "option" and self.select is not None:
            self.select[2] = [a.get("value"), "selected" in a, ""]
            self.select[1].append(self.select[2])
        elif tag == "textarea" and a.get("name"):
            self.textarea = [a["name"], ""]

    def handle_data(self, data):
        if self.select is not None and self.select[2] is not None:
            self.select[2][2] += data
        if self.textarea is not None:
            self.textarea[1] += data

    def handle_endtag(self, tag):
        if tag == "form":
            self.form = None
        elif tag == "select" and self.select is not None and self.form is not None:
            options = self.select[1]
            chosen = next((o for o in options if o[1]), options[0] if options else None)
            if chosen is not None:
                self.form["fields"].append((self.select[0], chosen[2] if chosen[0] is None else chosen[0]))
            self.select = None
        elif tag == "textarea" and self.textarea is not None and self.form is not None:
            text = self.textarea[1][1:] if self.textarea[1].startswith("\n") else self.textarea[1]
            self.form["fields"].append((self.textarea[0], text.replace("\r\n", "\n").replace("\n", "\r\n")))
            self.textarea = None


def submit(client, path: str, form_id: str = "form", follow: bool = True, **typed: str):
    """Open ``path``, fill in the form ``form_id`` as a user would (``typed``: field -> text; a checkbox's
    name -> "check"), and send it as the browser does: every field, empty ones included."""
    page = client.get(path)
    assert page.status_code == 200, page.text
    parser = _Forms()
    parser.feed(page.text)
    form = parser.forms[form_id]
    fields = list(form["fields"])
    for name, text in typed.items():
        name = name.replace("__", "-")
        if text == "check":
            assert name in form.get("checkable", {}), f"no checkbox {name} in {form_id}"
            fields.append((name, form["checkable"][name]))
            continue
        assert any(k == name for k, _ in fields), f"no field {name} in {form_id} of {path}"
        fields = [(k, text if k == name else v) for k, v in fields]
    if form["method"] == "post":
        return client.post(form["action"], data=dict(fields), follow_redirects=follow)
    return client.get(form["action"], params=fields, follow_redirects=follow)


def test_the_browser_form_reader_sends_every_field_as_a_browser_does():
    parser = _Forms()
    parser.feed('<form id="f" action="/x"><input name="a" value="1"><input name="b"><select name="s"><option>p'
                '</option><option value="q" selected>Q</option></select><input type="checkbox" name="c" value="true">'
                '<textarea name="t">\nx\ny</textarea><button type="submit">go</button></form>')
    assert parser.forms["f"]["fields"] == [("a", "1"), ("b", ""), ("s", "q"), ("t", "x\r\ny")]


def test_punto_form_as_sent_gives_the_exact_edge(client):
    r = submit(client, "/punto", decks="1")
    assert r.status_code == 200, r.text
    assert exact(evaluate(Shoe.decks(1), builtin_bets())["banker"].edge) in r.text


def test_edgesort_compute_button_as_sent_gives_the_advantage(client):
    r = submit(client, "/edgesort", decks="1")  # the form sends by=value&top= (its select and an empty field)
    assert r.status_code == 200, r.text
    expected = cli_json("edgesort", "--decks", "1", "--sorted", "6,7,8,9")["advantage"]["per_coup"]
    assert expected in r.text


def test_edgesort_search_as_sent_gives_the_best_sorting(client):
    r = submit(client, "/edgesort", decks="1", best="check")
    assert r.status_code == 200, r.text
    expected = cli_json("edgesort", "--decks", "1", "--best")["search"]["top"][0]["advantage_per_coup"]
    assert expected in r.text


def test_chemin_form_as_sent_gives_player_at_5(client):
    r = submit(client, "/chemin", decks="1")
    assert r.status_code == 200, r.text
    doc = cli_json("chemin", "solve", "--model", "B2", "--decks", "1")
    assert doc["equilibria"][0]["player"]["draw_at_5"] in r.text


def test_macao_form_as_sent_gives_the_value(client):
    r = submit(client, "/macao", decks="1", draws="0")
    assert r.status_code == 200, r.text
    doc = cli_json("macao", "solve", "--variant", "victoria", "--decks", "1", "--draws", "0")
    assert doc["value_to_punter"] in r.text


@pytest.mark.slow  # three solution concepts, about 8 s
def test_banque_form_as_sent_shows_each_nash_equilibrium_distinctly(client):
    r = submit(client, "/banque", theta="1/2")
    assert r.status_code == 200, r.text
    doc = cli_json("banque", "solve", "--theta", "1/2", "--concept", "nash")
    shown = re.findall(r'<div class="eq" id="nash-\d+">(.*?)</div></div>', r.text, re.S)
    assert len(shown) == len(doc["equilibria"]) >= 2 and len(set(shown)) == len(shown)  # distinct, each of them
    for eq, text in zip(doc["equilibria"], shown):
        for v in eq["banker"]["mixed"].values():  # Banker's mixtures, which make them differ
            assert v["exact"].removesuffix("/1") in text
        assert "Player 2" in text and eq["expectations"]["player2_per_unit_bet"]["exact"] in text


def test_side_bet_form_as_sent_gives_the_exact_edge(client):
    r = submit(client, "/side-bet", decks="1", field1_1="winner", value1_1="banker", field1_2="banker_total",
               value1_2="7", pays1="3")
    assert r.status_code == 200, r.text
    from baccara.punto.bets import bet_from_mapping

    bet = bet_from_mapping("my_bet", {"rules": [{"when": {"winner": "banker", "banker_total": 7}, "pays": 3}]})
    assert exact(evaluate(Shoe.decks(1), {"my_bet": bet})["my_bet"].edge) in r.text


def test_live_shoe_forms_as_sent_give_the_next_coups_ev(client):
    r = submit(client, "/shoe?decks=1", "coup-form", coup="9 K 4 7 2")
    assert r.status_code == 200, r.text
    shoe = Shoe.decks(1)
    for rank in ("9", "K", "4", "7", "2"):
        shoe = shoe.remove(rank)
    assert exact(-evaluate(shoe, builtin_bets())["banker"].edge) in r.text
    again = submit(client, "/shoe", "new-shoe", decks="2")
    assert again.status_code == 200 and exact(-evaluate(Shoe.decks(2), builtin_bets())["banker"].edge) in again.text


def test_simulate_form_as_sent_runs_the_bets_chosen(client):
    r = submit(client, "/simulate", decks="1", shoes="30", seed="5", bets="banker,dragon7", follow=False)
    assert r.status_code == 303, r.text
    job = r.headers["location"].rsplit("/", 1)[1]
    for _ in range(600):
        s = client.get(f"/api/jobs/{job}").json()
        if s["state"] not in ("queued", "running"):
            break
        time.sleep(0.05)
    assert s["state"] == "done", s
    assert set(s["result"]["bets"]) == {"banker", "dragon7"} and s["unit"] == "shoes"
    rows = list(csv.DictReader(io.StringIO(client.get(f"/api/jobs/{job}?format=csv&table=bets").text)))
    assert [r["name"] for r in rows] == ["banker", "dragon7"]
    expected = cli_json("simulate", "punto", "--decks", "1", "--shoes", "30", "--seed", "5", "--bets", "banker,dragon7")
    for doc in (expected, s["result"]):  # how long it ran, and at what rate: not the same twice
        for key in ("seconds", "hands_per_second"):
            doc["run"].pop(key, None)
    assert s["result"] == expected


def test_the_simulation_api_takes_bets(client):
    r = client.post("/api/jobs/simulate/punto", params={"shoes": "10", "seed": "1", "bets": "tie,panda8"})
    assert r.status_code == 202, r.text
    bad = client.post("/api/jobs/simulate/punto", params={"shoes": "10", "bets": "nope"})
    assert bad.status_code == 422 and bad.json()["parameter"] == "bets", bad.text


# ---------------------------------------------------------------- the drawing table and the JSON link
def test_punto_json_link_carries_a_custom_drawing_table_and_every_parameter(client, tmp_path):
    standard = PUNTO_BANCO.to_toml()
    custom = standard.replace('name = "punto banco"', 'name = "player stands on 5"').replace(
        "player_draws = [0, 1, 2, 3, 4, 5]", "player_draws = [0, 1, 2, 3, 4]")
    assert custom != standard
    shoe = {"decks": "2", "remove": "9,9", "tie-pays": "9"}
    page = client.get("/punto", params={**shoe, "tableau-toml": custom})
    assert page.status_code == 200, page.text
    links = _Links()
    links.feed(page.text)
    link = next(h for h in links.hrefs if h.startswith("/api/edge?"))
    doc = client.get(link).json()
    assert doc == client.get("/api/edge", params={**shoe, "tableau-toml": custom}).json()
    assert doc["tableau"] == "player stands on 5" and doc["bets"]["banker"]["edge"] in page.text
    assert doc["bets"]["banker"]["edge"] != client.get("/api/edge", params=shoe).json()["bets"]["banker"]["edge"]
    (tmp_path / "table.toml").write_text(custom)
    cli = CliRunner().invoke(cli_app, ["edge", "--decks", "2", "--remove", "9,9", "--tie-pays", "9", "--tableau",
                                       str(tmp_path / "table.toml"), "--json"])
    assert json.loads(cli.stdout) == doc


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.hrefs: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag == "a" and dict(attrs).get("href"):
            self.hrefs.append(dict(attrs)["href"])


def test_punto_reads_cards_as_the_live_shoe_does(client):
    spaced = client.get("/api/edge", params={"decks": "1", "remove": "5 5 9 K"})
    assert spaced.status_code == 200, spaced.text
    assert spaced.json() == client.get("/api/edge?decks=1&remove=5,5,9,K").json()
    page = client.get("/punto", params={"decks": "1", "remove": "5 5 9 K"})
    assert page.status_code == 200 and spaced.json()["bets"]["banker"]["edge"] in page.text


def test_files_given_as_text_are_removed_after_the_run(client, tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    table = PUNTO_BANCO.to_toml()
    ok = client.get("/api/edge", params={"decks": "3", "tableau-toml": table + "\n# kept once\n"})
    bad = client.get("/api/edge", params={"decks": "3", "tableau-toml": "player_draws = 3"})
    assert ok.status_code == 200 and bad.status_code == 422 and bad.json()["parameter"] == "tableau-toml"
    assert "baccara-web-" not in bad.text and str(tmp_path) not in bad.text
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------- limits: a long parameter, a slow request
@pytest.fixture(scope="module")
def server():
    """A real server on this machine (a free port), stopped at the end."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import uvicorn

        config = uvicorn.Config(create_app(patience=600), host="127.0.0.1", port=0, log_level="warning", lifespan="off",
                                h11_max_incomplete_event_size=MAX_REQUEST_LINE)  # as baccara serve runs it
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    for _ in range(200):
        if srv.started:
            break
        time.sleep(0.05)
    assert srv.started
    yield srv.servers[0].sockets[0].getsockname()[1]
    srv.should_exit = True
    thread.join(10)


def _get(port: int, path: str) -> tuple[int, float, bytes]:
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    t = time.perf_counter()
    c.request("GET", path)
    r = c.getresponse()
    body = r.read()
    c.close()
    return r.status, time.perf_counter() - t, body


@pytest.mark.parametrize("path", ["/api/edge?decks=", "/api/edge?decks=8&remove=", "/punto?decks=", "/side-bet?pays1=",
                                  "/api/edge?tableau-toml="])
def test_a_100_kb_parameter_is_refused_at_once(server, path):
    status, seconds, body = _get(server, path + "9" * 100_000)
    if seconds >= 1.0:  # this machine may be busy with other work: once more (the old cost was a minute)
        status, seconds, body = _get(server, path + "9" * 100_000)
    assert status == 422 and seconds < 1.0, (status, seconds, body[:200])
    assert b"100000 characters long" in body


def test_a_100_kb_form_field_or_job_parameter_is_refused_at_once(client):
    t = time.perf_counter()
    page = client.post("/simulate", data={"shoes": "9" * 100_000})
    api = client.post("/api/jobs/simulate/punto", params={"shoes": "9" * 60_000})
    assert page.status_code == 422 and "100000 characters long" in page.text
    assert api.status_code == 422 and api.json()["parameter"] == "shoes"
    assert time.perf_counter() - t < 1.0


def test_limits_are_generous_for_what_people_give(client):
    coups = ";".join(["9 K 4 7 2"] * 10)
    assert len(coups) < MAX_VALUE and len(PUNTO_BANCO.to_toml()) < MAX_TEXT // 8
    assert client.get("/shoe", params={"decks": "8", "coups": coups}).status_code == 200


def test_health_answers_while_a_slow_request_runs(server):
    slow: list = []
    thread = threading.Thread(target=lambda: slow.append(_get(server, "/api/edgesort?best=true&decks=7&cards=2")))
    thread.start()
    time.sleep(0.2)
    answered = []
    while thread.is_alive() and len(answered) < 10:
        status, seconds, _ = _get(server, "/api/health")
        if thread.is_alive():
            answered.append(seconds)
            assert status == 200
        time.sleep(0.05)
    thread.join(120)
    assert slow and slow[0][0] == 200
    assert len(answered) >= 3, f"the slow request took {slow[0][1]:.2f} s: too quick to test"
    assert max(answered) < 0.5, answered  # on a loaded machine; about 10 ms when quiet


# ---------------------------------------------------------------- jobs
def test_a_refused_job_request_leaves_no_job(client):
    before = len(client.app.state.jobs.jobs)
    bad = client.post("/api/jobs/simulate/punto", params={"shoes": "10", "decks": "0"})
    assert bad.status_code == 422 and bad.json()["parameter"] == "decks"
    page = submit(client, "/simulate", shoes="zero", follow=False)
    assert page.status_code == 422
    assert len(client.app.state.jobs.jobs) == before


def test_the_long_run_message_says_what_to_do_on_the_web(client):
    r = client.post("/api/jobs/simulate/punto", params={"shoes": "2000000000"})
    assert r.status_code == 422, r.text
    message = r.json()["error"]
    assert "pass --allow-long" not in message and "command line" in message


def test_finished_jobs_expire(client, monkeypatch):
    r = client.post("/api/jobs/simulate/punto", params={"shoes": "5", "seed": "2"})
    job = r.json()["id"]
    for _ in range(600):
        if client.get(f"/api/jobs/{job}").json()["state"] == "done":
            break
        time.sleep(0.05)
    monkeypatch.setattr(jobs_module, "MAX_AGE", -1.0)
    assert client.get(f"/api/jobs/{job}").status_code == 404


# ---------------------------------------------------------------- CSV downloads, effects of removal
def test_each_table_downloads_as_csv_with_the_documents_values(client):
    doc = client.get("/api/edge?decks=1").json()
    r = client.get("/api/edge?decks=1&format=csv")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    assert 'filename="edge-bets.csv"' in r.headers["content-disposition"]
    rows = list(csv.DictReader(io.StringIO(r.text)))
    assert [row["name"] for row in rows] == list(doc["bets"])
    assert all(row["edge"] == doc["bets"][row["name"]]["edge"] for row in rows)
    whole = list(csv.DictReader(io.StringIO(client.get("/api/edge?decks=1&format=csv&table=document").text)))
    assert {"field": "outcomes.banker", "value": doc["outcomes"]["banker"]} in whole
    bad = client.get("/api/edge?decks=1&format=csv&table=nope")
    assert bad.status_code == 422 and bad.json()["parameter"] == "table" and "bets" in bad.json()["error"]
    assert client.get("/api/edge?decks=1&format=xml").json()["parameter"] == "format"


def test_a_pages_csv_link_downloads_its_table(client):
    page = client.get("/edgesort?decks=1&sorted=6,7,8,9")
    links = _Links()
    links.feed(page.text)
    link = next(h for h in links.hrefs if "format=csv" in h)
    rows = list(csv.DictReader(io.StringIO(client.get(link).text)))
    doc = client.get(link.replace("&format=csv", "")).json()
    assert [row["pattern"] for row in rows] == [p["pattern"] for p in doc["patterns"]]


def test_eor_form_as_sent_gives_the_exact_effects(client):
    r = submit(client, "/eor", decks="1", bet="dragon7")
    assert r.status_code == 200, r.text
    doc = cli_json("eor", "--bet", "dragon7", "--decks", "1")
    assert all(e["effect"] in r.text for e in doc["effects"].values())
    assert client.get("/eor").status_code == 200 and 'id="effects"' not in client.get("/eor").text


# ---------------------------------------------------------------- pages made from the commands' declarations
def _job_result(client, response) -> dict:
    assert response.status_code == 303, response.text
    job = response.headers["location"].rsplit("/", 1)[1]
    for _ in range(1200):
        s = client.get(f"/api/jobs/{job}").json()
        if s["state"] not in ("queued", "running"):
            break
        time.sleep(0.05)
    assert s["state"] == "done", s
    page = client.get(response.headers["location"])
    assert page.status_code == 200 and 'class="doc-table"' in page.text
    return s["result"]


def _without_timings(doc: dict) -> dict:
    doc.pop("seconds", None)
    for key in ("seconds", "hands_per_second"):
        doc.get("run", {}).pop(key, None)
    return doc


@pytest.mark.parametrize("path,game", [("/simulate-chemin", "chemin"), ("/simulate-banque", "banque")])
def test_a_session_simulation_form_as_sent_gives_the_cli_document(client, path, game):
    result = _job_result(client, submit(client, path, shoes="20", seed="3", follow=False))
    assert _without_timings(result) == _without_timings(cli_json("simulate", game, "--shoes", "20", "--seed", "3"))


def test_a_count_form_as_sent_takes_the_count_as_text(client):
    count = (Path(__file__).parents[1] / "examples" / "counts" / "tie_67.toml").read_text()
    result = _job_result(client, submit(client, "/count", bet="tie", count__toml=count, shoes="200",
                                        perfect__shoes="0", seed="1", follow=False))
    expected = cli_json("count", "--bet", "tie", "--count", str(Path(__file__).parents[1] / "examples" / "counts" /
                                                                  "tie_67.toml"), "--shoes", "200", "--perfect-shoes",
                        "0", "--seed", "1")
    result.pop("run", None), expected.pop("run", None)
    assert result == expected


def test_a_strategy_file_is_not_read_from_the_server(client):
    r = submit(client, "/simulate-chemin", shoes="20", banker="/etc/passwd", follow=False)
    assert r.status_code == 422 and "(banker)" in r.text
    api = client.post("/api/jobs/simulate/chemin", params={"shoes": "20", "banker": "/etc/passwd"})
    assert api.status_code == 422 and api.json()["parameter"] == "banker"


@pytest.mark.slow  # a few seconds of the exact solution, and a count designed on simulated shoes
def test_bertrand_and_count_design_pages_give_the_cli_documents(client):
    page = submit(client, "/bertrand")
    doc = cli_json("bertrand")
    assert page.status_code == 200 and 'class="doc-table"' in page.text
    assert client.get("/api/bertrand").json() == doc
    result = _job_result(client, submit(client, "/count/design", bet="dragon7", shoes="200", seed="1", follow=False))
    expected = cli_json("count", "design", "--bet", "dragon7", "--shoes", "200", "--seed", "1")
    assert _without_timings(result) == _without_timings(expected)


@pytest.mark.parametrize("path", ["/count", "/count/design", "/simulate-chemin", "/simulate-banque", "/bertrand",
                                  "/eor"])
def test_each_new_page_is_in_the_menu_and_offers_every_option(client, path):
    page = client.get(path)
    assert page.status_code == 200 and f'href="{path}"' in page.text


def test_a_quick_computation_never_waits_behind_long_ones():
    import asyncio

    from baccara.web.app import Engine

    release = threading.Event()

    def long() -> str:
        release.wait(10)
        return "long"

    async def race() -> tuple:
        engine = Engine(running=2, quick=2)
        slow = [asyncio.ensure_future(engine.call(long)) for _ in range(3)]  # two run, one waits its turn
        await asyncio.sleep(0.05)
        quick = await asyncio.wait_for(engine.call(lambda: "quick", quick=True), 5)
        waiting = sum(not t.done() for t in slow)
        release.set()
        return quick, waiting, await asyncio.gather(*slow)

    quick, waiting, slow = asyncio.run(race())
    assert quick == "quick" and waiting == 3 and slow == ["long"] * 3


def test_a_slow_page_says_it_is_computing_then_shows_the_answer():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(create_app(patience=0.0)) as c:
            url = "/chemin?model=B1&decks=2"
            first = c.get(url)
            assert first.status_code == 202 and 'http-equiv="refresh"' in first.text, first.status_code
            assert "baccara chemin solve" in first.text
            for _ in range(600):  # as the browser reloads it
                page = c.get(url)
                if page.status_code != 202:
                    break
                time.sleep(0.1)
            assert page.status_code == 200, page.text
            doc = cli_json("chemin", "solve", "--model", "B1", "--decks", "2")
            assert doc["equilibria"][0]["player"]["draw_at_5"] in page.text
            assert c.get("/api/chemin/solve?model=B1&decks=2").json() == doc  # the API always waits


@pytest.mark.slow  # a small report, its JSON and its page: a few CPU-seconds
def test_the_report_form_as_sent_gives_the_cli_report_and_its_page(client):
    sizes = {"design-shoes": "20", "count-shoes": "0", "perfect-shoes": "0", "sort-cards": "1", "check-hands": "100000"}
    r = submit(client, "/report", bet="dragon7", decks="1", follow=False, **{k.replace("-", "__"): v
                                                                             for k, v in sizes.items()})
    result = _job_result(client, r)
    expected = cli_json("report", "--bet", "dragon7", "--decks", "1", *(x for k, v in sizes.items()
                                                                       for x in (f"--{k}", v)))
    for doc in (result, expected):  # when and how fast it was made: not the same twice
        doc.pop("seconds", None), doc.pop("made", None), doc.get("simulation_check", {}).pop("seconds", None)
    # the command the report quotes: the one that made it (the web's names no --json; the command line's does)
    cli_command, web_command = expected.pop("command"), result.pop("command")
    assert "--json" in cli_command.split() and cli_command.replace(" --json", "") == web_command
    assert result == expected
    job = r.headers["location"]
    assert 'id="report-files"' in client.get(job).text
    html = client.get(f"{job}/report.html")
    assert html.status_code == 200 and html.text.lstrip().lower().startswith("<!doctype html")
    edge = expected["figures"]["edge"]
    assert edge["exact"] in html.text or f"{100 * edge['float']:.4f}" in html.text
    assert client.post("/api/jobs/report", params={"bet": "tie", "decks": "1000"}).json()["parameter"] == "decks"
    big = client.post("/api/jobs/report", params={"bet": "dragon7", "count-shoes": "100000000"})
    assert big.status_code == 422 and big.json()["parameter"] == "count-shoes"


def test_the_live_shoe_and_side_bet_pages_link_their_json_and_csv(client):
    shoe = client.get("/shoe", params={"decks": "1", "coups": "9 K 4 7 2", "tie-pays": "9"})
    links = _Links()
    links.feed(shoe.text)
    doc = client.get(next(h for h in links.hrefs if h.startswith("/api/edge?"))).json()
    assert doc["bets"]["tie"]["ev"] in shoe.text and doc["shoe"]["cards"] == 47
    q = "name=d7&decks=1&field1_1=winner&value1_1=banker&field1_2=banker_cards&value1_2=3&field1_3=banker_total&" \
        "value1_3=7&pays1=40"
    page = client.get(f"/side-bet?{q}")
    links = _Links()
    links.feed(page.text)
    api = client.get(next(h for h in links.hrefs if h.startswith("/api/side-bet?") and "csv" not in h)).json()
    assert api["bet"]["edge"] in page.text
    rows = list(csv.DictReader(io.StringIO(client.get(next(h for h in links.hrefs if "format=csv" in h)).text)))
    assert {r["name"]: r["effect"] for r in rows} == {k: e["effect"] for k, e in api["eor"]["effects"].items()}


class _Doc:
    def to_json(self) -> dict:
        return {"ok": True}


def fake_sweep() -> _Doc:
    """A command that reports progress by stage, as ``baccara banque sweep`` does, then its result."""
    from baccara.commands import PROGRESS

    PROGRESS.get()(1, 4, "intervals sampled")
    return _Doc()


def test_a_jobs_progress_says_what_it_counts():
    from baccara.commands import Command
    from baccara.web.jobs import Jobs

    jobs = Jobs()
    job = jobs.start(Command(("sweep",), "A sweep.", (), f"{__name__}:fake_sweep"), [])
    for _ in range(200):
        if job.state == "done":
            break
        time.sleep(0.01)
    assert job.state == "done" and job.result == {"ok": True}
    assert job.status()["unit"] == "intervals sampled" and (job.done, job.total) == (1, 4)
