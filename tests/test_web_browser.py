"""The web app in headless Chromium (the distribution's package, as scripts/check_site.py drives it):
every page loads with no console error, a form shows the exact number the library computes, and the
live shoe updates after a coup is typed.

Slow (a browser and a server start): run by ``scripts/test.sh --slow`` (CI, after scripts/docs.sh has
installed Chromium and Selenium).  Skipped where Chromium is missing, except in CI, where that fails.
"""

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
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
        import urllib.request

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


@pytest.mark.parametrize("path", PAGES)
def test_each_page_loads_without_a_console_error(server, driver, path):
    driver.get(server + path)
    assert driver.execute_script("return document.readyState") == "complete"
    assert driver.title, path
    assert _severe(driver) == []


def test_the_punto_form_shows_the_exact_edge(server, driver):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

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
    cell = driver.find_element(By.CSS_SELECTOR, "#bet-banker td.exact")
    edge = evaluate(Shoe.decks(6).remove("5").remove("5").remove("5"), builtin_bets())["banker"].edge
    assert cell.text == f"{edge.numerator}/{edge.denominator}"
    assert _severe(driver) == []


def test_the_live_shoe_updates_after_a_coup_is_typed(server, driver):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

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
    from selenium.webdriver.support.ui import WebDriverWait

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
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(server + "/simulate")
    driver.find_element(By.ID, "f-shoes").send_keys("200")
    driver.find_element(By.CSS_SELECTOR, "#form button[type=submit]").click()
    WebDriverWait(driver, 60).until(ec.presence_of_element_located((By.ID, "sim-bets")))
    assert "200 shoes" in driver.find_element(By.ID, "summary").text
    assert _severe(driver) == []
