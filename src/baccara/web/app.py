"""The ASGI app of ``baccara serve``: server-rendered pages and the JSON API under ``/api``.

FastAPI (on Starlette, served by uvicorn) because it writes the OpenAPI document and its docs page
(``/api/docs``) from the routes themselves, and each API route here is declared from the options of the
command it runs (:mod:`baccara.web.commands`), so the docs list the command line's options and help.
Pages are plain HTML forms (GET: every answer has a URL), charts inline SVG; the only script is the
app's own small ``static/app.js`` (the live shoe's focus, a job's progress, a slow page's "working"),
nothing fetched at run time.  Every computation runs in a worker thread, off the event loop (which only
reads requests and writes answers, so ``/api/health`` answers at once), at most :data:`MAX_RUNNING` at once,
and the quick ones (one shoe's bets, effects of removal) in their own lane of :data:`MAX_QUICK`, so that a
page of seconds never waits behind a solve of a minute; a burst of requests waits its turn instead of being
dropped.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import anyio.to_thread
from fastapi import FastAPI, Query, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from .. import __version__
from . import audit_page, pages
from .commands import COMMANDS, MAX_PARAMETERS, MAX_QUERY, MAX_TEXT, MAX_VALUE, Command, WebError, check_lengths, run
from .pending import PATIENCE, RELOAD, Pending
from .tables import DOWNLOAD_PARAMETERS, answer, download_options

HERE = Path(__file__).parent
#: Computations running at once (each in a worker thread); further requests wait their turn.
MAX_RUNNING = 2
#: Quick computations (:attr:`baccara.web.commands.Command.quick`) running at once, besides those.
MAX_QUICK = 4
#: uvicorn's ``h11_max_incomplete_event_size`` for this app: a request line up to the app's own limit reaches
#: the app, which refuses a long parameter by name (h11 alone drops a request line over 16 KiB, unexplained).
MAX_REQUEST_LINE = MAX_QUERY + 16 * 1024
#: Documents kept, by command and parameters (the answers are exact, so never stale).
CACHE_SIZE = 256


class Engine:
    """Runs commands off the event loop, a few at once, remembering recent answers.

    A computation already under way for the same key is joined, not started again, and goes on when a
    request that waited for it stops waiting (a page that said "computing" and reloads itself finds it).
    """

    def __init__(self, running: int = MAX_RUNNING, cache_size: int = CACHE_SIZE, quick: int = MAX_QUICK) -> None:
        self.gate = asyncio.Semaphore(running)
        self.quick_gate = asyncio.Semaphore(quick)
        self.cache: OrderedDict[tuple, Any] = OrderedDict()
        self.cache_size = cache_size
        self.running: dict[tuple, tuple[asyncio.Future, float]] = {}

    async def call(self, f: Callable[..., Any], *args: Any, key: tuple | None = None, quick: bool = False) -> Any:
        """``f(*args)`` in a worker thread once a place is free, or the remembered answer for ``key``.

        Parameters
        ----------
        f : callable
            The computation.
        *args
            Its arguments.
        key : tuple, optional
            What identifies the answer (None: not remembered, nor shared).
        quick : bool
            Run in the lane of quick computations.

        Returns
        -------
        object
            What ``f`` returned.
        """
        if key is None:
            return await self._compute(f, args, None, quick)
        if key in self.cache:
            self.cache.move_to_end(key)
            return self.cache[key]
        if key not in self.running:
            task = asyncio.ensure_future(self._compute(f, args, key, quick))
            self.running[key] = (task, time.monotonic())
            task.add_done_callback(lambda t: (self.running.pop(key, None), t.cancelled() or t.exception()))
        return await asyncio.shield(self.running[key][0])

    def seconds(self, key: tuple) -> float | None:
        """How long the computation of ``key`` has been under way (None: it is not).

        Parameters
        ----------
        key : tuple
            Its key.

        Returns
        -------
        float or None
            Seconds.
        """
        entry = self.running.get(key)
        return None if entry is None else time.monotonic() - entry[1]

    async def _compute(self, f: Callable[..., Any], args: tuple, key: tuple | None, quick: bool) -> Any:
        async with self.quick_gate if quick else self.gate:
            value = await anyio.to_thread.run_sync(f, *args)
        if key is not None:
            self.cache[key] = value
            while len(self.cache) > self.cache_size:
                self.cache.popitem(last=False)
        return value

    @staticmethod
    def key(command: Command, query: list[tuple[str, str]]) -> tuple:
        """What identifies a command's document on some parameters.

        Parameters
        ----------
        command : Command
            The command.
        query : list of (str, str)
            Its parameters.

        Returns
        -------
        tuple
            The key.
        """
        return command.body, tuple(query)

    async def document(self, command: Command, query: list[tuple[str, str]]) -> Any:
        """The ``--json`` document of ``command`` on ``query`` (see :func:`baccara.web.commands.run`).

        Parameters
        ----------
        command : Command
            The command.
        query : list of (str, str)
            Its parameters.

        Returns
        -------
        dict or list
            The document.
        """
        return await self.call(run, command, query, quick=command.quick, key=self.key(command, query))


def _api_route(app: FastAPI, engine: Engine, path: str, command: Command) -> None:
    """Declare ``/api/PATH`` with the command's options as query parameters (for the OpenAPI docs)."""

    async def endpoint(request: Request, **_: Any) -> Any:
        query, fmt, table = download_options(request.query_params.multi_items())
        doc = await engine.document(command, query)
        return answer(doc, fmt, table, path.replace("/", "-"))

    params = [inspect.Parameter("request", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=Request)]
    for p in command.web_params():
        annotation: Any = list[str] | None if p.kind == "list" else str | None
        default = p.default if p.default not in (None, ...) and p.kind != "list" else None
        help_ = f"The text of the file {p.flag} names on the command line (TOML)." if p.file else p.help
        params.append(inspect.Parameter(
            f"p_{p.name}", inspect.Parameter.KEYWORD_ONLY, annotation=annotation,
            default=Query(None, alias=p.web_name, description=help_ + (f" Default: {default}." if default else ""))))
    params += DOWNLOAD_PARAMETERS
    endpoint.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    first = command.help
    app.add_api_route(f"/api/{path}", endpoint, methods=["GET"], name=f"api_{path.replace('/', '_')}",
                      summary=f"{command.cli} --json", description=first + "\n\nThe document is exactly what "
                      f"`{command.cli} ... --json` prints for the same options.", tags=["api"])


def check_request(query_string: bytes, content_length: str | None, content_type: str = "") -> None:
    """Refuse a request whose query or form is too long, or one of whose parameters is (in linear time).

    Parameters
    ----------
    query_string : bytes
        The raw query string.
    content_length : str or None
        The request's ``Content-Length`` header.
    content_type : str
        Its ``Content-Type``: a file upload (``multipart/form-data``, the audit's logs) has its own limit.

    Raises
    ------
    WebError
        414 for a query over :data:`~baccara.web.commands.MAX_QUERY` bytes, 413 for such a body, 422
        naming a parameter over its limit (:func:`~baccara.web.commands.check_lengths`).
    """
    if len(query_string) > MAX_QUERY:
        raise WebError(f"the query is {len(query_string)} bytes long: at most {MAX_QUERY}", None, 414)
    upload = content_type.strip().lower().startswith("multipart/")
    if not upload and content_length is not None and content_length.strip().isdigit() and \
            int(content_length) > MAX_QUERY:
        raise WebError(f"the request's body is {int(content_length)} bytes long: at most {MAX_QUERY}", None, 413)
    try:
        items = parse_qsl(query_string.decode("latin-1"), keep_blank_values=True, max_num_fields=MAX_PARAMETERS)
    except ValueError:
        raise WebError(f"more than {MAX_PARAMETERS} parameters: give fewer", None, 422) from None
    check_lengths(items)


def create_app(patience: float = PATIENCE) -> FastAPI:
    """The whole app: pages, the API under ``/api``, its OpenAPI docs at ``/api/docs``, static files.

    Parameters
    ----------
    patience : float
        Seconds a page waits for its answer before it says it is computing (:mod:`baccara.web.pending`).

    Returns
    -------
    fastapi.FastAPI
        The ASGI app.
    """
    app = FastAPI(title="baccara", version=__version__, docs_url=None, redoc_url=None,
                  openapi_url="/api/openapi.json",
                  description="The exact mathematics of baccarat. Each document is the command line's `--json` "
                              "document for the same options (named without their dashes). Bad input: status 422 "
                              "(400 for an unknown parameter; 413 or 414 for a body or query too long) and `{\"error\": message, "
                              "\"parameter\": name}`. An empty value is the option not given (as an empty form "
                              "field). An option that names a file on the command line is given as the file's text "
                              "(`bets-toml` for `--bets`, `tableau-toml` for `--tableau`, `count-toml` for `--count`). "
                              f"A value is at most {MAX_VALUE:,} characters long, a file's text {MAX_TEXT:,}.")
    engine = Engine()
    app.state.engine = engine
    app.state.patience = patience
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    app.state.templates = templates
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")

    @app.exception_handler(WebError)
    async def web_error(request: Request, e: WebError) -> Response:
        return JSONResponse(e.body(), status_code=e.status)

    @app.exception_handler(Pending)
    async def pending(request: Request, e: Pending) -> Response:
        return templates.TemplateResponse(request, "pending.html", {"cli": e.cli, "seconds": e.seconds,
                                                                    "reload": RELOAD}, status_code=202)

    @app.middleware("http")
    async def bounded(request: Request, call_next: Callable) -> Response:
        """Refuse a parameter or body too long before any route reads it (a page says why in its own frame)."""
        try:
            check_request(request.scope.get("query_string", b""), request.headers.get("content-length"),
                          request.headers.get("content-type", ""))
        except WebError as e:
            if request.url.path.startswith("/api"):
                return JSONResponse(e.body(), status_code=e.status)
            return templates.TemplateResponse(request, "base.html", {"error": e.body()}, status_code=e.status)
        return await call_next(request)

    @app.exception_handler(Exception)
    async def internal_error(request: Request, e: Exception) -> Response:  # a bug: one line, no traceback
        return JSONResponse({"error": f"internal error ({type(e).__name__}): this is a bug in baccara, please report "
                                      "the request", "parameter": None}, status_code=500)

    for path, command in COMMANDS.items():
        _api_route(app, engine, path, command)

    @app.get("/api/docs", include_in_schema=False)
    async def docs() -> Response:  # Swagger UI from the package's own copy (static/swagger-ui), no CDN
        return get_swagger_ui_html(openapi_url="/api/openapi.json", title="baccara API",
                                   swagger_js_url="/static/swagger-ui/swagger-ui-bundle.js",
                                   swagger_css_url="/static/swagger-ui/swagger-ui.css",
                                   swagger_favicon_url="/static/favicon.svg",
                                   swagger_ui_parameters={"validatorUrl": None})

    @app.get("/api/health", tags=["api"], summary="The app answers")
    async def health() -> dict:
        return {"ok": True, "version": __version__}

    pages.add_pages(app, engine, templates)
    audit_page.add_routes(app, templates)

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def index(request: Request) -> Response:
        return templates.TemplateResponse(request, "index.html", {"pages": pages.PAGES})

    return app
