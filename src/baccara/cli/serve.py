"""``baccara serve``: the local web app (:mod:`baccara.web`), the same answers as the commands in a browser.

The web framework is an optional extra (``pip install -e ".[web]"``): it is imported only when the
command runs, so that the library and every other command need none of it.
"""

from __future__ import annotations

import importlib.util

import typer

from .. import params
from .common import app
from .errors import fail, handles_errors

#: The packages of the ``web`` extra that the app cannot start without.
WEB_PACKAGES = ("fastapi", "uvicorn", "jinja2")


def missing_web_packages() -> list[str]:
    """The packages of the ``web`` extra that are not installed.

    Returns
    -------
    list of str
        Their import names (empty when the app can start).
    """
    return [name for name in WEB_PACKAGES if importlib.util.find_spec(name) is None]


@app.command("serve")
@handles_errors
def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (default 127.0.0.1: this machine "
                                                         "only; 0.0.0.0 opens it to the network)."),
    port: str = typer.Option("8000", "--port", "-p", help="Port to listen on, 1 to 65535 (default 8000)."),
) -> None:
    """The local web app: every page and the JSON API (under /api) in a browser, on the same inputs as the commands."""
    number = params.integer(port, "--port", lo=1, hi=65535)
    if not host.strip():
        fail("--host is empty: give an address such as 127.0.0.1")
    missing = missing_web_packages()
    if missing:
        fail(f"baccara serve needs the web extra ({', '.join(missing)} not installed): "
             "pip install 'baccara[web]' (from a checkout: pip install -e '.[web]')")
    import uvicorn

    from ..web.app import MAX_REQUEST_LINE, create_app

    typer.echo(f"baccara serve: http://{host}:{number}/ (Ctrl-C stops it)", err=True)
    uvicorn.run(create_app(), host=host, port=number, log_level="warning",
                h11_max_incomplete_event_size=MAX_REQUEST_LINE)
