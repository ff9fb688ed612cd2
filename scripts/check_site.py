"""Check the built documentation site: internal links, then every page in headless Chromium.

Usage: python scripts/check_site.py [--no-browser] SITE_DIR

1. Links (no browser): every ``href`` and ``src`` of every page that points inside the site
   must name a file that exists, and its ``#anchor`` an ``id`` on that page.
2. Browser: the site is served on 127.0.0.1 and each page opened in Debian's Chromium
   (``/usr/bin/chromium`` driven by ``chromedriver``; never a downloaded browser).  A page fails
   if it has no title heading, an image that did not load (``naturalWidth`` 0), text that looks
   like an error (a Python traceback, an exception line, markdown-exec's error output), or a
   severe message in the browser console (a failed request, a script error).

3. Raw roles (no browser): no page shows a Sphinx role as text (":func:", ":class:" before a name),
   which mkdocstrings does not render; docs/griffe_roles.py turns them into code spans.
4. API reference (no browser): every public name -- each name in the ``__all__`` of ``baccara``,
   ``baccara.chemin``, ``baccara.banque``, ``baccara.macao`` and ``baccara.sim`` -- is documented:
   it is in the site's inventory (``objects.inv``) under that name or where it is defined.

Exit status 0 when every check passes, 1 otherwise (every failure is listed).
"""

from __future__ import annotations

import functools
import http.server
import importlib
import re
import shutil
import sys
import tempfile
import threading
import zlib
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

from baccara.browser import HEADLESS_FLAGS

# Text that must not appear on a rendered page.
ERROR_TEXT = [
    re.compile(r"Traceback \(most recent call last\)"),
    re.compile(r"^\s*\w*(Error|Exception): ", re.M),   # an exception's last line, as Python prints it
    re.compile(r"exited with (errors|unexpected code)"),  # markdown-exec's failure message
]


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"] or "")
        if tag == "a" and a.get("name"):
            self.ids.add(a["name"] or "")
        for key in ("href", "src"):
            if a.get(key) and tag in ("a", "img", "link", "script", "source"):
                self.links.append((tag, a[key] or ""))


def _parse(path: Path) -> _Page:
    p = _Page()
    p.feed(path.read_text(encoding="utf-8"))
    return p


def check_links(site: Path) -> list[str]:
    """Every internal link and anchor of every page resolves."""
    pages = sorted(site.rglob("*.html"))
    parsed = {p: _parse(p) for p in pages}
    errors = []
    for page, info in parsed.items():
        for tag, link in info.links:
            u = urlsplit(link)
            if u.scheme or link.startswith("//"):
                if tag != "a" and u.scheme != "data":
                    # every resource a page loads is in the site: it must render offline
                    errors.append(f"{page.relative_to(site)}: external resource {link}")
                continue
            if not u.path:
                target = page
            elif u.path.startswith("/"):  # from the site's root (the 404 page)
                target = site / unquote(u.path).lstrip("/")
            else:
                target = page.parent / unquote(u.path)
            if u.path.endswith("/") or (target.exists() and target.is_dir()):
                target = target / "index.html"
            target = target.resolve()
            if not target.exists():
                errors.append(f"{page.relative_to(site)}: dead link {link}")
                continue
            if u.fragment and target.suffix == ".html":
                ids = parsed[target].ids if target in parsed else _parse(target).ids
                if unquote(u.fragment) not in ids:
                    errors.append(f"{page.relative_to(site)}: dead anchor {link}")
    return errors


#: The modules whose ``__all__`` is the public API.
PUBLIC_MODULES = ("baccara", "baccara.chemin", "baccara.banque", "baccara.macao", "baccara.sim", "baccara.check")


#: A Sphinx role left in a page's text (outside code blocks).
RAW_ROLE = re.compile(r"(?<![\w:]):(?:py:)?(func|class|meth|mod|data|attr|obj|exc|const):(?=\s*\S)")


class _Text(HTMLParser):
    """The text of a page outside ``pre``, ``script`` and ``style``."""

    def __init__(self) -> None:
        super().__init__()
        self.depth, self.parts = 0, []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("pre", "script", "style"):
            self.depth += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("pre", "script", "style") and self.depth:
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if not self.depth:
            self.parts.append(data)


def check_roles(site: Path) -> list[str]:
    """No page shows a raw Sphinx role."""
    errors = []
    for page in sorted(site.rglob("*.html")):
        parser = _Text()
        parser.feed(page.read_text(encoding="utf-8"))
        text = "".join(parser.parts)
        for m in RAW_ROLE.finditer(text):
            around = " ".join(text[max(0, m.start() - 40):m.end() + 40].split())
            errors.append(f"{page.relative_to(site)}: a raw Sphinx role: ...{around}...")
    return errors


def check_api(site: Path) -> list[str]:
    """Every public name is in the API reference (the inventory mkdocstrings writes)."""
    raw = (site / "objects.inv").read_bytes().split(b"\n", 4)
    documented = {line.split(" ", 1)[0] for line in zlib.decompress(raw[4]).decode().splitlines()}
    errors, names = [], 0
    for modname in PUBLIC_MODULES:
        module = importlib.import_module(modname)
        for name in getattr(module, "__all__", ()):
            names += 1
            obj = getattr(module, name)
            where = f"{getattr(obj, '__module__', '')}.{getattr(obj, '__qualname__', name)}"
            candidates = {f"{modname}.{name}", where, getattr(obj, "__name__", "")}
            if not candidates & documented:
                errors.append(f"API reference: {modname}.{name} is public but not documented")
    print(f"check_site: {names} public names checked against the API reference")
    return errors


def _serve(site: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass
    handler = functools.partial(Quiet, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def check_browser(site: Path) -> list[str]:
    """Open every page in headless Chromium."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    browser = shutil.which("chromium") or "/usr/bin/chromium"
    driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    if not Path(browser).exists() or not Path(driver_path).exists():
        return [f"chromium ({browser}) or chromedriver ({driver_path}) is not installed"]
    profile = tempfile.mkdtemp(prefix="baccara-docs-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = browser
    for flag in (*HEADLESS_FLAGS, "--window-size=1280,900", f"--user-data-dir={profile}"):
        opts.add_argument(flag)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    server, base = _serve(site)
    driver = webdriver.Chrome(service=Service(executable_path=driver_path), options=opts)
    errors = []
    images = 0
    pages = sorted(p for p in site.rglob("*.html") if p.name != "404.html")
    try:
        for page in pages:
            rel = page.relative_to(site).as_posix()
            driver.get(base + rel)
            state = driver.execute_script(
                "return {title: (document.querySelector('article h1') || {}).textContent || '',"
                " text: document.body.innerText,"
                " bad: Array.from(document.images).filter(i => !i.complete || i.naturalWidth === 0)"
                "      .map(i => (i.getAttribute('src') || '').slice(0, 80)),"
                " images: document.images.length};")
            images += state["images"]
            if not state["title"].strip():
                errors.append(f"{rel}: no title heading (the page did not render)")
            for src in state["bad"]:
                errors.append(f"{rel}: broken image {src}")
            for pattern in ERROR_TEXT:
                m = pattern.search(state["text"])
                if m:
                    line = state["text"][max(0, m.start() - 60):m.end() + 60].replace("\n", " | ")
                    errors.append(f"{rel}: error text on the page: ...{line}...")
            for entry in driver.get_log("browser"):
                if entry.get("level") == "SEVERE":
                    errors.append(f"{rel}: browser console: {entry.get('message')}")
    finally:
        driver.quit()
        server.shutdown()
        shutil.rmtree(profile, ignore_errors=True)
    print(f"check_site: {len(pages)} pages opened in {browser}, {images} images")
    return errors


def main(argv: list[str]) -> int:
    browser = "--no-browser" not in argv
    args = [a for a in argv if a != "--no-browser"]
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    site = Path(args[0]).resolve()
    if not (site / "index.html").exists():
        print(f"check_site: {site} has no index.html (build the site first)", file=sys.stderr)
        return 2
    errors = check_links(site)
    print(f"check_site: links of {len(list(site.rglob('*.html')))} pages checked")
    errors += check_roles(site)
    errors += check_api(site)
    if browser:
        errors += check_browser(site)
    for e in errors:
        print("FAIL", e, file=sys.stderr)
    if errors:
        print(f"check_site: {len(errors)} problem(s)", file=sys.stderr)
        return 1
    print("check_site: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
