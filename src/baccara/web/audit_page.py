"""The audit page: upload a hand log and a bet log, read the audit's report (``baccara audit --out``).

``GET /audit`` is the form; ``POST /audit`` (``multipart/form-data``: the files ``hands`` and
``bets``, and the options ``decks``, ``sorted``, ``permutations``, ``alpha``, ``seed``) answers
with the report's page, or the form again with the reason (status 422) when a log or an option
is refused.  The upload is read with the standard library's MIME parser, so the page needs no
package beyond the app's.
"""

from __future__ import annotations

import tempfile
from email.parser import BytesParser
from email.policy import default as email_policy
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.templating import Jinja2Templates
from starlette.concurrency import run_in_threadpool

from .. import params
from ..errors import BaccaraError

#: The largest upload read (bytes): a month of one table's logs is a few megabytes.
MAX_UPLOAD = 64 * 1024 * 1024
#: The form's options and their defaults (fewer permutations than the command's: a page answers in seconds).
OPTIONS = {"decks": "8", "sorted": "", "permutations": "999", "alpha": "0.01", "seed": "0"}


def parse_upload(content_type: str, body: bytes) -> tuple[dict[str, tuple[str, bytes]], dict[str, str]]:
    """The files and fields of a ``multipart/form-data`` body.

    Parameters
    ----------
    content_type : str
        The request's Content-Type (with its boundary).
    body : bytes
        The request's body.

    Returns
    -------
    tuple
        (field -> (file name, bytes) for the files, field -> text for the other fields).
    """
    if not content_type.lower().startswith("multipart/form-data"):
        raise BaccaraError("upload the two logs as a form (multipart/form-data): fields hands and bets")
    msg = BytesParser(policy=email_policy).parsebytes(b"Content-Type: " + content_type.encode("latin-1")
                                                      + b"\r\nMIME-Version: 1.0\r\n\r\n" + body)
    files: dict[str, tuple[str, bytes]] = {}
    fields: dict[str, str] = {}
    for part in msg.iter_parts():
        name = part.get_param("name", header="content-disposition")
        if not isinstance(name, str):
            continue
        payload = part.get_payload(decode=True)
        data = payload if isinstance(payload, bytes) else b""
        filename = part.get_filename()
        if filename is not None:
            files[name] = (filename, data)
        else:
            fields[name] = data.decode("utf-8", "replace").strip()
    return files, fields


def run_upload(files: dict[str, tuple[str, bytes]], fields: dict[str, str]) -> str:
    """Audit the uploaded logs and return the report's page.

    Parameters
    ----------
    files : dict
        ``hands`` and ``bets``: (file name, bytes).
    fields : dict
        The options (``decks``, ``sorted``, ``permutations``, ``alpha``, ``seed``).

    Returns
    -------
    str
        The report's HTML page.
    """
    from ..audit.analysis import audit  # lazy: NumPy and the engine, loaded by the first audit, not the app's start
    from ..audit.html import to_html  # lazy: matplotlib, as above

    for need in ("hands", "bets"):
        if need not in files or not files[need][1]:
            raise BaccaraError(f"{need}: upload the {need[:-1] if need == 'bets' else 'hand'} log (CSV or Parquet)")
    opt = {k: fields.get(k) or v for k, v in OPTIONS.items()}
    decks = params.integer(opt["decks"], "decks", lo=1, hi=100)
    sorted_sets = [s for s in opt["sorted"].split(";") if s.strip()]
    with tempfile.TemporaryDirectory(prefix="baccara-audit-") as tmp:
        paths = {}
        for key in ("hands", "bets"):
            name, data = files[key]
            suffix = ".parquet" if name.lower().endswith((".parquet", ".pq")) else ".csv"
            paths[key] = Path(tmp) / f"{key}{suffix}"
            paths[key].write_bytes(data)
        try:
            result = audit(paths["hands"], paths["bets"], decks=decks, sorted_sets=sorted_sets,
                           permutations=params.integer(opt["permutations"], "permutations", lo=99, hi=100_000),
                           alpha=float(params.rational(opt["alpha"], "alpha", lo=0, hi=1, lo_open=True,
                                                       hi_open=True)), seed=params.integer(opt["seed"], "seed", lo=0, hi=2**63 - 2))
        except BaccaraError as e:  # name the uploaded files, not the temporary copies
            text = str(e)
            for key, p in paths.items():
                text = text.replace(str(p), files[key][0] or key)
            raise BaccaraError(text) from None
    return to_html(result)


def add_routes(app: FastAPI, templates: Jinja2Templates) -> None:
    """Add ``GET /audit`` (the form) and ``POST /audit`` (the report).

    Parameters
    ----------
    app : FastAPI
        The app.
    templates : Jinja2Templates
        The pages' templates.
    """
    def form(request: Request, values: dict[str, str], error: dict[str, Any] | None) -> Response:
        return templates.TemplateResponse(request, "audit.html", {"q": values, "error": error},
                                          status_code=422 if error else 200)

    @app.get("/audit", response_class=HTMLResponse, include_in_schema=False)
    async def audit_form(request: Request) -> Response:
        return form(request, dict(OPTIONS), None)

    @app.post("/audit", response_class=HTMLResponse, include_in_schema=False)
    async def audit_upload(request: Request) -> Response:
        body = await request.body()
        values = dict(OPTIONS)
        if len(body) > MAX_UPLOAD:
            return form(request, values, {"error": f"the upload is over {MAX_UPLOAD // 2**20} MiB", "parameter": None})
        try:
            files, fields = parse_upload(request.headers.get("content-type", ""), body)
            values.update({k: v for k, v in fields.items() if k in OPTIONS})
            page = await run_in_threadpool(run_upload, files, fields)
        except BaccaraError as e:
            return form(request, values, {"error": str(e), "parameter": None})
        return HTMLResponse(page)
