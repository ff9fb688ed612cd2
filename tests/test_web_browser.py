"""The web app in headless Chromium (the distribution's package, as scripts/check_site.py drives it):
every page loads with no console error and fits its window on a 390-px phone and a 1,366-px desktop;
every form of every page, filled in and sent as a user would, shows the number the library (or the
JSON API, the command line's document) computes, as a percentage with the exact value a click away.

Slow because they need the browser, which CI installs after the fast suite (scripts/docs.sh): run by
``scripts/test.sh --slow``.  One server and one browser serve the whole module, and the inputs are
small (a few CPU-seconds a page).  Skipped where Chromium is missing, except in CI, where that fails.
"""

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from fractions import Fraction
from pathlib import Path

import pytest

from baccara.browser import HEADLESS_FLAGS

pytestmark = pytest.mark.slow

PAGES = ["/", "/punto", "/shoe", "/side-bet", "/edgesort", "/chemin", "/banque", "/macao", "/simulate", "/api/docs"]


def _need(what: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"{what}: the browser tests must run in CI (scripts/docs.sh installs Chromium and Selenium)")
    pytest.skip(what)


@pytest.fixture(scope="module")
def server():
    pytest.importorskip("fastapi")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    p = subprocess.Popen([sys.executable, "-m", "baccara", "serve", "--port", str(port)],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 60
        while True:
            try:
                urllib.request.urlopen(f"{base}/api/health", timeout=2).read()
                break
            except OSError:
                if p.poll() is not None or time.time() > deadline:
                    raise RuntimeError(f"baccara serve did not start: {p.stderr.read().decode() if p.stderr else ''}") from None
                time.sleep(0.2)
        yield base
    finally:
        p.terminate()
        p.wait(timeout=10)


@pytest.fixture(scope="module")
def driver():
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        _need("selenium is not installed (the docs extra)")
    browser = shutil.which("chromium") or "/usr/bin/chromium"
    driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    if not Path(browser).exists() or not Path(driver_path).exists():
        _need(f"chromium ({browser}) or chromedriver ({driver_path}) is not installed")
    profile = tempfile.mkdtemp(prefix="baccara-web-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = browser
    for flag in (*HEADLESS_FLAGS, "--window-size=1280,900", f"--user-data-dir={profile}"):
        opts.add_argument(flag)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    d = webdriver.Chrome(service=Service(executable_path=driver_path), options=opts)
    d.set_page_load_timeout(120)
    try:
        yield d
    finally:
        d.quit()
        shutil.rmtree(profile, ignore_errors=True)


def _severe(driver) -> list[str]:
    return [e["message"] for e in driver.get_log("browser") if e.get("level") == "SEVERE"]


# ---------------------------------------------------------------- helpers: what the page shows, what it should
WIDTHS = (390, 1366)  # a phone, a laptop


def _api(server: str, path: str):
    """The JSON API's document (the command line's ``--json``) for ``path``."""
    with urllib.request.urlopen(f"{server}/api/{path}", timeout=120) as r:
        return json.load(r)


def _exact(x) -> str:
    """An exact value as the pages write it: ``-3/40``, ``0``."""
    f = Fraction(x)
    return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"


def _percent(x, digits: int = 4, sign: bool = False) -> str:
    """The percentage a calculator would show for the exact value ``x``."""
    hundred = 100 * Fraction(x)
    if hundred.denominator == 1:
        return f"{hundred.numerator:+d}%" if sign and hundred else f"{hundred.numerator}%"
    return f"{float(hundred):+.{digits}f}%" if sign else f"{float(hundred):.{digits}f}%"


def _shown(driver, css: str) -> tuple[str, str]:
    """A number on the page (a ``details.x`` at or inside ``css``): its percentage and its exact value."""
    from selenium.webdriver.common.by import By

    el = driver.find_element(By.CSS_SELECTOR, css)
    if el.tag_name != "details":
        el = el.find_element(By.CSS_SELECTOR, "details.x")
    return (el.find_element(By.TAG_NAME, "summary").text,
            el.find_element(By.CLASS_NAME, "exact").get_attribute("textContent"))


def _viewport(driver, width: int) -> None:
    """Lay the page out in a window ``width`` px wide (a phone's below 800: its viewport meta applies)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": 800, "deviceScaleFactor": 1, "mobile": width < 800})


def _sticking_out(driver, width: int) -> list[str]:
    """What is wider than a window ``width`` px wide: the document, a chart, or any element outside a
    box that scrolls by itself (named, for the message)."""
    _viewport(driver, width)
    return driver.execute_script("""
        const w = arguments[0], out = [];
        const sw = document.documentElement.scrollWidth;
        if (sw > w) out.push(`the document is ${sw} px wide`);
        for (const c of document.querySelectorAll("svg.chart")) {
          const r = c.getBoundingClientRect();
          if (r.left < 0 || r.right > w + 0.5) out.push(`a chart spans ${r.left}-${r.right} px`);
        }
        const scrolls = (e) => { for (let p = e.parentElement; p; p = p.parentElement)
          if (["auto", "scroll"].includes(getComputedStyle(p).overflowX)) return true; return false; };
        for (const e of document.body.querySelectorAll("*")) {
          const r = e.getBoundingClientRect();
          if (r.width > 0 && r.right > w + 0.5 && !scrolls(e) && out.length < 6)
            out.push(`<${e.tagName.toLowerCase()}${e.id ? " id=" + e.id : ""}${e.className && e.className.baseVal === undefined ? " class=" + e.className : ""}> ends at ${Math.round(r.right)} px`);
        }
        return out;""", width)


@pytest.fixture
def page(server, driver):
    """Open a page (a path of the app) and wait for it; the window's size set back afterwards."""
    def go(path: str) -> None:
        driver.get_log("browser")  # what earlier pages logged (an error page's 422 among them): read, dropped
        driver.get(server + path)
        assert driver.execute_script("return document.readyState") == "complete"

    yield go
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def _fill(driver, values: dict[str, str]) -> None:
    """Type into the form's fields (by id) as a user does: select its text, type the new one."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    for key, value in values.items():
        box = driver.find_element(By.ID, key)
        if box.tag_name == "select":
            Select(box).select_by_visible_text(value)
        elif box.get_attribute("type") == "checkbox":
            if box.is_selected() != bool(value):
                box.click()
        else:
            box.clear()
            box.send_keys(value)


def _wait_class():
    """Selenium's WebDriverWait, retrying while the page is being replaced: a self-reloading page (a job's
    progress, a slow answer's "computing" page) makes an element found a moment ago stale, which Chromium
    reports either as a stale element or as a node that "does not belong to the document"."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, WebDriverException
    from selenium.webdriver.support.ui import WebDriverWait as Wait

    class TolerantWait(Wait):
        def __init__(self, driver, timeout: float) -> None:
            super().__init__(driver, timeout, ignored_exceptions=(NoSuchElementException,
                                                                  StaleElementReferenceException, WebDriverException))

    return TolerantWait


def _send(driver, form: str = "#form", seconds: float = 120) -> None:
    """Click the form's button and wait for the answer's page (past the page that says it is computing)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    WebDriverWait = _wait_class()

    old = driver.find_element(By.TAG_NAME, "html")
    driver.find_element(By.CSS_SELECTOR, f"{form} button[type=submit]").click()
    WebDriverWait(driver, seconds).until(ec.staleness_of(old))
    WebDriverWait(driver, 30).until(lambda d: d.execute_script("return document.readyState") == "complete")
    # a slow answer on a busy machine: the "Computing..." page, which reloads itself until the answer is there
    WebDriverWait(driver, seconds).until(lambda d: not d.find_elements(By.ID, "pending")
                                         and d.execute_script("return document.readyState") == "complete")


@pytest.mark.parametrize("path", PAGES)
def test_each_page_loads_without_a_console_error(server, driver, path):
    driver.get(server + path)
    assert driver.execute_script("return document.readyState") == "complete"
    assert driver.title, path
    assert _severe(driver) == []


def test_the_punto_form_shows_the_exact_edge(server, driver):
    from selenium.webdriver.common.by import By
    WebDriverWait = _wait_class()

    from baccara import Shoe, builtin_bets, evaluate

    driver.get(server + "/punto")
    for name, value in (("decks", "6"), ("remove", "5,5,5")):
        box = driver.find_element(By.ID, f"f-{name}")
        box.clear()
        box.send_keys(value)
    driver.find_element(By.CSS_SELECTOR, "#form button[type=submit]").click()
    # the page before the submission has a table too (8 decks): wait for the answer's page
    WebDriverWait(driver, 60).until(lambda d: "decks=6" in d.current_url and d.execute_script(
        "return document.readyState") == "complete")
    results = evaluate(Shoe.decks(6).remove("5").remove("5").remove("5"), builtin_bets())
    for name, r in results.items():  # every bet's house edge: the percentage, and the exact value
        assert _shown(driver, f"#bet-{name} td.edge") == (_percent(r.edge), _exact(r.edge)), name
    cell = driver.find_element(By.CSS_SELECTOR, "#bet-banker td.edge details")
    exact = cell.find_element(By.CLASS_NAME, "exact")
    assert not exact.is_displayed()  # one click away
    cell.find_element(By.TAG_NAME, "summary").click()
    assert exact.is_displayed() and exact.text == _exact(results["banker"].edge)
    assert _severe(driver) == []


def test_the_live_shoe_updates_after_a_coup_is_typed(server, driver):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    WebDriverWait = _wait_class()

    driver.get(server + "/shoe?decks=8")
    assert driver.find_element(By.ID, "cards-left").text == "416"
    box = driver.switch_to.active_element  # the coup box has the focus: keyboard first
    assert box.get_attribute("id") == "coup"
    box.send_keys("9 K 4 7 2", Keys.ENTER)
    left = lambda n: WebDriverWait(driver, 60).until(  # noqa: E731  (the page before also has the count)
        lambda d: d.find_element(By.ID, "cards-left").text == n)
    left("411")
    assert len(driver.find_elements(By.CSS_SELECTOR, "#coups li")) == 1
    assert driver.find_elements(By.CSS_SELECTOR, "#bigroad .ring.wB")  # Banker won: the big road's first cell
    driver.switch_to.active_element.send_keys("8 1 0 K", Keys.ENTER)
    left("407")
    driver.find_element(By.ID, "undo").click()
    left("411")
    assert _severe(driver) == []


def test_a_simulation_shows_its_progress_and_can_be_cancelled(server, driver):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    WebDriverWait = _wait_class()

    driver.get(server + "/simulate")
    driver.find_element(By.ID, "f-shoes").send_keys("100000000")
    driver.find_element(By.ID, "f-seed").send_keys("1")
    driver.find_element(By.CSS_SELECTOR, "#form button[type=submit]").click()
    bar = WebDriverWait(driver, 30).until(ec.presence_of_element_located((By.ID, "progress")))
    WebDriverWait(driver, 30).until(lambda d: float(bar.get_attribute("value") or 0) > 0)  # the script polls
    driver.find_element(By.ID, "cancel").click()
    WebDriverWait(driver, 30).until(lambda d: d.find_element(By.ID, "state").text.startswith("cancelled"))
    assert _severe(driver) == []


def test_a_short_simulation_shows_its_result(server, driver):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    WebDriverWait = _wait_class()

    driver.get(server + "/simulate")
    _fill(driver, {"f-shoes": "200", "f-seed": "7"})
    driver.find_element(By.CSS_SELECTOR, "#form button[type=submit]").click()
    WebDriverWait(driver, 60).until(ec.presence_of_element_located((By.ID, "sim-bets")))
    assert "200 shoes" in driver.find_element(By.ID, "summary").text
    job = driver.find_element(By.ID, "job").get_attribute("data-job")
    result = _api(server, f"jobs/{job}")["result"]
    assert {"banker", "player", "tie"} <= set(result["bets"])
    for name, b in result["bets"].items():  # the job's document, as percentages
        cells = driver.find_elements(By.CSS_SELECTOR, f"#sim-{name} td")
        assert cells[1].text == f"{100 * b['ev_per_bet']:+.4f}%" and cells[2].text == f"{100 * b['stderr']:.4f}%"
        exact = result["exact"]["bets"][name]["ev_exact"]
        assert _shown(cells[3], "details.x") == (_percent(exact, sign=True), _exact(exact))
    try:
        for width in WIDTHS:
            assert _sticking_out(driver, width) == [], width
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    assert _severe(driver) == []


# ---------------------------------------------------------------- every page fits a phone and a desktop
ANSWERED = [  # each page empty and with an answer (small inputs: a few CPU-seconds each), and errors
    "/", "/punto", "/punto?decks=6&remove=5,5,5", "/punto?decks=zero",
    "/shoe?decks=8&coups=9+K+4+7+2%3B8+1+0+K", "/shoe?decks=8&coups=9+K+4+7+2&coup=9+9+9",
    "/side-bet", "/side-bet?name=lucky6&decks=1&field1_1=winner&value1_1=banker&field1_2=banker_total&value1_2=6&pays1=12",
    "/edgesort", "/edgesort?decks=1&cards=1&best=true&top=3",
    "/chemin", "/chemin?model=B2&decks=1&commission=1%2F20",
    "/banque", "/banque?theta=1%2F2",
    "/macao", "/macao?variant=victoria&decks=1&draws=1",
    "/side-bet?name=x&decks=1&field1_1=winner&value1_1=nobody&pays1=5",
    "/simulate", "/api/docs",
]


@pytest.mark.parametrize("path", ANSWERED)
def test_every_page_fits_a_phone_and_a_desktop(page, driver, path):
    page(path)
    for width in WIDTHS:
        assert _sticking_out(driver, width) == [], (path, width)


def test_the_punto_chart_shows_every_bet_at_every_width(page, driver, server):
    page("/punto?decks=8")
    doc = _api(server, "edge?decks=8")
    for width in WIDTHS:
        _viewport(driver, width)
        bars = driver.execute_script("return [...document.querySelectorAll('svg.chart rect')].map(r => {"
                                     "const b = r.getBoundingClientRect(); return [b.left, b.right, b.height]; })")
        assert len(bars) == len(doc["bets"]) > 1
        assert all(0 <= left and right <= width and right - left >= 1 and height > 0
                   for left, right, height in bars), (width, bars)


def test_every_exact_value_opens_at_once(page, driver):
    from selenium.webdriver.common.by import By

    page("/punto?decks=8")
    button = driver.find_element(By.ID, "exact-all")
    assert button.is_displayed()
    button.click()
    shown = driver.execute_script("return [...document.querySelectorAll('details.x')].map(d => d.open)")
    assert len(shown) > 12 and all(shown)
    assert _sticking_out(driver, 390) == []  # the fractions, opened, still fit a phone


# ---------------------------------------------------------------- every form, sent as a user would
def test_the_punto_form_takes_another_drawing_table(page, driver):
    from selenium.webdriver.common.by import By

    from baccara import Shoe, builtin_bets, evaluate
    from baccara.rules import load_tableau_toml

    path = Path(__file__).parents[1] / "examples" / "tableaux" / "chemin_d1.toml"
    page("/punto")
    _fill(driver, {"f-decks": "1"})
    driver.find_element(By.CSS_SELECTOR, "#form details summary").click()
    _fill(driver, {"f-tableau": path.read_text()})
    _send(driver)
    edge = evaluate(Shoe.decks(1), builtin_bets(), tableau=load_tableau_toml(path))["banker"].edge
    assert _shown(driver, "#bet-banker td.edge") == (_percent(edge), _exact(edge))
    assert "chemin de fer D1" in driver.find_element(By.ID, "summary").text


def test_the_live_shoe_starts_a_new_shoe_on_the_tables_terms(page, driver):
    from selenium.webdriver.common.by import By

    from baccara import Shoe, builtin_bets, evaluate

    page("/shoe")
    form = driver.find_element(By.ID, "new-shoe")
    for name, value in (("decks", "6"), ("tie-pays", "9")):
        box = form.find_element(By.NAME, name)
        box.clear()
        box.send_keys(value)
    _send(driver, "#new-shoe")
    assert driver.find_element(By.ID, "cards-left").text == "312"
    ev = -evaluate(Shoe.decks(6), builtin_bets(tie_pays=9))["tie"].edge
    assert _shown(driver, "#ev-tie") == (_percent(ev, sign=True), _exact(ev))


def test_a_refused_coup_stays_in_its_box_with_the_caret_after_it(page, driver):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    WebDriverWait = _wait_class()

    page("/shoe?decks=8")
    driver.switch_to.active_element.send_keys("9 9 9", Keys.ENTER)  # three cards: not a coup
    WebDriverWait(driver, 60).until(lambda d: d.find_elements(By.ID, "error"))
    assert "coup" in driver.find_element(By.ID, "error").text
    box = driver.switch_to.active_element
    assert box.get_attribute("id") == "coup" and box.get_attribute("value") == "9 9 9"
    assert driver.execute_script("const b = document.getElementById('coup'); return [b.selectionStart, b.selectionEnd]") == [5, 5]
    box.send_keys(" 9", Keys.ENTER)  # the fourth card typed after the others: now a coup (a natural 8)
    WebDriverWait(driver, 60).until(lambda d: d.find_element(By.ID, "cards-left").text == "412")


def test_the_side_bet_designer_prices_the_bet(page, driver):
    from baccara import Shoe, evaluate
    from baccara.punto.bets import bet_from_mapping

    page("/side-bet")
    _fill(driver, {"f-name": "lucky6", "f-decks": "1", "field1_1": "winner", "value1_1": "banker",
                   "field1_2": "banker_total", "value1_2": "6", "pays1": "12"})
    _send(driver)
    bet = bet_from_mapping("lucky6", {"rules": [{"when": {"winner": "banker", "banker_total": 6}, "pays": 12}]})
    r = evaluate(Shoe.decks(1), {"lucky6": bet})["lucky6"]
    assert _shown(driver, "#edge") == (_percent(r.edge), _exact(r.edge))
    assert _shown(driver, "#hit") == (_percent(r.p_win), _exact(r.p_win))


def test_the_edge_sorting_form_computes_a_sorting_and_searches_them_all(page, driver, server):
    from selenium.webdriver.common.by import By

    page("/edgesort")
    _fill(driver, {"f-sorted": "6,7,8,9", "f-cards": "1", "f-decks": "1"})
    _send(driver)
    doc = _api(server, "edgesort?decks=1&sorted=6,7,8,9&cards=1")
    x = doc["advantage"]["per_coup"]
    assert _shown(driver, "#advantage-per-coup") == (_percent(x, sign=True), _exact(x))
    _fill(driver, {"f-sorted": "", "f-best": "true", "f-top": "3"})
    _send(driver)
    top = _api(server, "edgesort?decks=1&cards=1&best=true&top=3")["search"]["top"]
    rows = driver.find_elements(By.CSS_SELECTOR, "#search tbody tr")
    assert len(rows) == len(top) == 3
    for row, t in zip(rows, top):
        x = t["advantage_per_coup"]
        assert _shown(row, "td.num") == (_percent(x, sign=True), _exact(x))


def test_the_chemin_form_shows_the_equilibrium(page, driver, server):
    page("/chemin")
    _fill(driver, {"f-model": "B2", "f-decks": "1", "f-commission": "1/20"})
    _send(driver)
    x = _api(server, "chemin/solve?model=B2&decks=1&commission=1/20")["equilibria"][0]["player"]["draw_at_5"]
    assert _shown(driver, "#draw5-1") == (_percent(x), _exact(x))


def test_the_banque_form_shows_the_three_concepts(page, driver, server):
    from selenium.webdriver.common.by import By

    page("/banque")
    _fill(driver, {"f-theta": "1/2"})
    _send(driver)
    x = _api(server, "banque/solve?theta=1/2&concept=correlated")["value"]
    assert _shown(driver, "#value-correlated") == (_percent(x, sign=True), _exact(x))
    nash = _api(server, "banque/solve?theta=1/2&concept=nash")["equilibria"]
    shown = driver.find_elements(By.CSS_SELECTOR, "#concept-nash .eq")
    assert len(shown) == len(nash)
    texts = [e.text for e in shown]
    assert len(set(t.split("\n", 1)[1] for t in texts)) == len(texts)  # each equilibrium its own lines


def test_the_macao_form_shows_the_value_and_the_strategies(page, driver, server):
    from selenium.webdriver.common.by import By

    page("/macao")
    _fill(driver, {"f-variant": "victoria", "f-decks": "1", "f-draws": "1"})
    _send(driver)
    doc = _api(server, "macao/solve?variant=victoria&decks=1&draws=1")
    x = doc["value_to_punter"]
    assert _shown(driver, "#value-to-punter") == (_percent(x, sign=True), _exact(x))
    mixed = [(k, p) for k, p in doc["punter_strategy_exact"]["draw"].items() if Fraction(p) not in (0, 1)]
    assert mixed  # Victoria's punter mixes at 5
    rows = {r.find_element(By.TAG_NAME, "td").text: r for r in
            driver.find_elements(By.CSS_SELECTOR, "#strategy-punter tbody tr")}
    for k, p in mixed:
        total, cards = k.split("/")
        assert _shown(rows[f"total {total}, {cards} cards"], "td.num") == (_percent(p, 2), _exact(p))


def test_a_slow_page_says_it_is_working(page, driver):
    from selenium.webdriver.common.by import By

    page("/macao")
    # the answer's page is not waited for: the form is stopped once the page's own script has run
    driver.execute_script("document.getElementById('form').addEventListener('submit', e => e.preventDefault())")
    driver.find_element(By.CSS_SELECTOR, "#form button[type=submit]").click()
    busy = driver.find_element(By.ID, "busy")
    assert busy.is_displayed() and "Working" in busy.text and busy.find_elements(By.TAG_NAME, "progress")
    assert not driver.find_element(By.CSS_SELECTOR, "#form button[type=submit]").is_enabled()


def test_the_banque_sweep_shows_its_progress_and_can_be_cancelled(page, driver):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    WebDriverWait = _wait_class()

    page("/banque")
    _send(driver, "#sweep-form")
    WebDriverWait(driver, 30).until(ec.presence_of_element_located((By.ID, "progress")))
    WebDriverWait(driver, 60).until(lambda d: "steps" in d.find_element(By.ID, "state").text)  # the script polls
    assert _sticking_out(driver, 390) == []
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    driver.find_element(By.ID, "cancel").click()
    WebDriverWait(driver, 30).until(lambda d: d.find_element(By.ID, "state").text.startswith("cancelled"))
    assert _severe(driver) == []


def test_the_totals_form_shows_the_table_and_fits_a_phone(page, driver):
    from selenium.webdriver.common.by import By

    from baccara import Shoe
    from baccara.punto import totals_distribution

    page("/totals")
    _fill(driver, {"f-decks": "1", "f-remove": "9,9"})
    _send(driver)
    got = totals_distribution(Shoe.decks(1).remove("9").remove("9"))
    assert _shown(driver, "#t7-6") == (_percent(got.table[7][6], 3), _exact(got.table[7][6]))
    assert _shown(driver, "#p8") == (_percent(got.player_totals[8], 3), _exact(got.player_totals[8]))
    both = got.by_cards["both_draw"]["probability"]
    assert _shown(driver, "#cards-both_draw td:nth-child(4)") == (_percent(both), _exact(both))
    assert "Banker wins" in driver.find_element(By.ID, "summary").text
    for width in WIDTHS:
        assert _sticking_out(driver, width) == [], width
    driver.find_element(By.ID, "exact-all").click()  # every fraction open: the table scrolls in its own box
    assert _sticking_out(driver, 390) == []
    assert _severe(driver) == []
