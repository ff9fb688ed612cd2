"""The ASGI app of ``baccara serve``: server-rendered pages and the JSON API under ``/api``.

FastAPI (on Starlette, served by uvicorn) because it writes the OpenAPI document and its docs page
(``/api/docs``) from the routes themselves, and each API route here is declared from the options of the
command it runs (:mod:`baccara.web.commands`), so the docs list the command line's options and help.
Pages are plain HTML forms (GET: every answer has a URL), charts inline SVG; the only script is the
app's own small ``static/app.js`` (the live shoe's focus, a job's progress, a slow page's "working"),
nothing fetched at run time.  Every computation runs in a worker thread, at most :data:`MAX_RUNNING` at once; a burst of
requests waits its turn instead of being dropped.
"""

from __future__ import annotations

import asyncio
import inspect
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio.to_thread
from fastapi import FastAPI, Query, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from .. import __version__
from . import audit_page, pages
from .commands import COMMANDS, Command, WebError, run

HERE = Path(__file__).parent
#: Computations running at once (each in a worker thread); further requests wait their turn.
MAX_RUNNING = 2
#: Documents kept, by command and parameters (the answers are exact, so never stale).
CACHE_SIZE = 256


class Engine:
    """Runs commands off the event loop, a few at once, remembering recent answers."""

    def __init__(self, running: int = MAX_RUNNING, cache_size: int = CACHE_SIZE) -> None:
        self.gate = asyncio.Semaphore(running)
        self.cache: OrderedDict[tuple, Any] = OrderedDict()
        self.cache_size = cache_size

    async def call(self, f: Callable[..., Any], *args: Any, key: tuple | None = None) -> Any:
        """``f(*args)`` in a worker thread once a place is free, or the remembered answer for ``key``.

        Parameters
        ----------
        f : callable
            The computation.
        *args
            Its arguments.
        key : tuple, optional
            What identifies the answer (None: not remembered).

        Returns
        -------
        object
            What ``f`` returned.
        """
        if key is not None and key in self.cache:
            self.cache.move_to_end(key)
            return self.cache[key]
        async with self.gate:
            value = await anyio.to_thread.run_sync(f, *args)
        if key is not None:
            self.cache[key] = value
            while len(self.cache) > self.cache_size:
                self.cache.popitem(last=False)
        return value

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
        return await self.call(run, command, query, key=(command.module, command.function, tuple(sorted(command.fixed.items())), tuple(query)))


def _api_route(app: FastAPI, engine: Engine, path: str, command: Command) -> None:
    """Declare ``/api/PATH`` with the command's options as query parameters (for the OpenAPI docs)."""

    async def endpoint(request: Request, **_: Any) -> Any:
        doc = await engine.document(command, list(request.query_params.multi_items()))
        return JSONResponse(doc)

    params = [inspect.Parameter("request", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=Request)]
    for o in command.options():
        annotation: Any = list[str] | None if o.kind == "list" else str | None
        default = o.default if o.default not in (None, ...) and o.kind != "list" else None
        params.append(inspect.Parameter(
            o.arg, inspect.Parameter.KEYWORD_ONLY, annotation=annotation,
            default=Query(None, alias=o.name, description=o.help + (f" Default: {default}." if default else ""))))
    endpoint.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    first = (inspect.getdoc(command.target()) or "").split("\n")[0]
    app.add_api_route(f"/api/{path}", endpoint, methods=["GET"], name=f"api_{path.replace('/', '_')}",
                      summary=f"{command.cli} --json", description=first + "\n\nThe document is exactly what "
                      f"`{command.cli} ... --json` prints for the same options.", tags=["api"])


def create_app() -> FastAPI:
    """The whole app: pages, the API under ``/api``, its OpenAPI docs at ``/api/docs``, static files.

    Returns
    -------
    fastapi.FastAPI
        The ASGI app.
    """
    app = FastAPI(title="baccara", version=__version__, docs_url=None, redoc_url=None,
                  openapi_url="/api/openapi.json",
                  description="The exact mathematics of baccarat. Each document is the command line's `--json` "
                              "document for the same options (named without their dashes). Bad input: status 422 "
                              "(400 for an unknown parameter) and `{\"error\": message, \"parameter\": name}`.")
    engine = Engine()
    app.state.engine = engine
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    app.state.templates = templates
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")

    @app.exception_handler(WebError)
    async def web_error(request: Request, e: WebError) -> Response:
        return JSONResponse(e.body(), status_code=e.status)

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
