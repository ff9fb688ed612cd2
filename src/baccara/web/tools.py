"""Pages made from a command's own declaration: the commands without a page of their own get one here.

Each page's form is the command's parameters (:meth:`baccara.commands.Command.web_params`: name, kind,
default and help, as the command declares them) and the texts of the files it reads; its answer is the
command's ``--json`` document shown as its tables (:mod:`baccara.web.tables`), each downloadable as CSV,
and the whole document.  A command that runs long (a simulation, a count) runs as a background job with a
progress bar (:mod:`baccara.web.jobs`), shown at ``/jobs/ID``.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import anyio.to_thread
from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from ..errors import BaccaraError
from .commands import COMMANDS, JOB_COMMANDS, MAX_PARAMETERS, Command, WebError, check_lengths
from .pending import patient
from .simulate_page import started
from .tables import all_tables

#: Rows of a table shown on a page (the CSV download has them all).
MAX_ROWS = 200


@dataclass(frozen=True)
class Tool:
    """A page of one command: its path, title, what it answers, and the command (under /api or /api/jobs)."""

    path: str
    title: str
    summary: str
    command: str
    job: bool


#: The pages made from commands, in the menu's order.
TOOLS: tuple[Tool, ...] = (
    Tool("/count", "Count analysis", "A count system on one bet, on simulated shoes, beside the perfect counter.",
         "count", True),
    Tool("/count/design", "Count design", "A count for a bet derived from its exact effects of removal, its best "
                                          "trigger picked on simulated shoes.", "count/design", True),
    Tool("/simulate-chemin", "Chemin de fer sessions", "Chemin de fer on real shoes: the rotating bank, the "
                                                        "commission, bank runs, the house's take.", "simulate/chemin",
         True),
    Tool("/simulate-banque", "Banque sessions", "Baccara banque on real shoes: two tableaux against one Banker.",
         "simulate/banque", True),
    Tool("/report", "Math report", "The math report of one bet: its pay table, exact figures, the house's result, "
                                   "whether it can be beaten; as a page, HTML or PDF.", "report", True),
    Tool("/bertrand", "Bertrand 1888", "Bertrand's problems of 1888 solved exactly (Ethier 2021): D0, D1, D1/2, W, "
                                       "T, E; Dormoy; Badoureau's errors.", "bertrand", False),
)


def command_of(tool: Tool) -> Command:
    """The command a tool runs.

    Parameters
    ----------
    tool : Tool
        The page.

    Returns
    -------
    Command
        From :data:`~baccara.web.commands.JOB_COMMANDS` or :data:`~baccara.web.commands.COMMANDS`.
    """
    return (JOB_COMMANDS if tool.job else COMMANDS)[tool.command]


def form_fields(command: Command) -> tuple[list[dict], list[dict]]:
    """The form of a command: its options, then the texts of the files it reads.

    Parameters
    ----------
    command : Command
        The command.

    Returns
    -------
    (list of dict, list of dict)
        Per option ``name``, ``kind``, ``help`` and ``placeholder`` (its default); per file ``name`` and ``help``.
    """
    options = [{"name": p.web_name, "kind": p.kind, "help": p.help,
                "placeholder": "" if p.default in (None, ...) or p.kind == "bool" else str(p.default)}
               for p in command.web_params() if not p.file]
    texts = [{"name": p.web_name, "help": f"the TOML text of the file {p.flag} names on the command line"}
             for p in command.web_params() if p.file]
    return options, texts


def shown_tables(doc: Any) -> list[tuple[str, list[str], list[dict], int]]:
    """A document's tables as a page shows them: path, columns, the first :data:`MAX_ROWS` rows, all rows' count.

    Parameters
    ----------
    doc : dict or list
        The document.

    Returns
    -------
    list of (str, list of str, list of dict, int)
        Per table (the whole document's ``document`` table left to the JSON shown beside).
    """
    shown = []
    for path, rows in all_tables(doc).items():
        if path == "document":
            continue
        columns = list(dict.fromkeys(c for r in rows for c in r))
        shown.append((path, columns, rows[:MAX_ROWS], len(rows)))
    return shown


def add_routes(app: FastAPI, page: Any) -> None:
    """Add each tool's page, and the pages of jobs (``/jobs/ID``).

    Parameters
    ----------
    app : FastAPI
        The app (its ``state.jobs`` holds the background jobs).
    page : callable
        Renders a template: ``page(request, name, context, error)``.
    """
    for tool in TOOLS:
        _add_tool(app, page, tool)

    @app.get("/jobs/{job_id}", response_class=HTMLResponse, include_in_schema=False)
    async def job_page(request: Request, job_id: str) -> Response:
        try:
            job = request.app.state.jobs.get(job_id)
        except WebError as e:
            return page(request, "base.html", {}, e.body())
        tool = next((t for t in TOOLS if t.job and JOB_COMMANDS[t.command] is job.command), None)
        tables = shown_tables(job.result) if job.state == "done" else []
        return page(request, "job.html", {"job": job, "tool": tool, "tables": tables}, job.error)

    @app.get("/jobs/{job_id}/report.{suffix}", include_in_schema=False)
    async def report_file(request: Request, job_id: str, suffix: str) -> Response:
        """A finished math report as its HTML page (shown) or PDF (downloaded), as ``baccara report --out``."""
        job = request.app.state.jobs.get(job_id)
        if suffix not in ("html", "pdf"):
            raise WebError(f"a report is report.html or report.pdf, not report.{suffix}", "suffix", 404)
        if job.state != "done" or not hasattr(job.value, "to_json") or job.command is not JOB_COMMANDS["report"]:
            raise WebError(f"job {job_id} holds no finished math report", "id", 404)
        data = await anyio.to_thread.run_sync(report_bytes, job.value, suffix)
        if suffix == "html":
            return HTMLResponse(data.decode("utf-8"))
        return Response(data, media_type="application/pdf",
                        headers={"Content-Disposition": f'attachment; filename="report-{job_id}.pdf"'})

    @app.post("/jobs/{job_id}/cancel", include_in_schema=False)
    async def job_cancel(request: Request, job_id: str) -> Response:
        request.app.state.jobs.cancel(job_id)
        return RedirectResponse(f"/jobs/{job_id}", status_code=303)


def _add_tool(app: FastAPI, page: Any, tool: Tool) -> None:
    """Add one tool's page: its form (GET; an instant command's answer too) and, for a job, its start (POST)."""

    def context() -> dict:
        options, texts = form_fields(command_of(tool))
        return {"tool": tool, "options": options, "texts": texts, "doc": None, "tables": []}

    async def show(request: Request) -> Response:
        ctx = context()
        if not tool.job and request.query_params:  # an instant command: computed when the form is sent
            names = {o["name"] for o in ctx["options"]} | {t["name"] for t in ctx["texts"]}
            query = [(k, v.strip()) for k, v in request.query_params.multi_items() if k in names and v.strip()]
            try:
                ctx["doc"] = await patient(request, command_of(tool), query)
            except WebError as e:
                return page(request, "command.html", ctx, e.body())
            ctx.update(tables=shown_tables(ctx["doc"]), query=query)
        return page(request, "command.html", ctx)

    async def start(request: Request) -> Response:
        ctx = context()
        names = {o["name"] for o in ctx["options"]} | {t["name"] for t in ctx["texts"]}
        try:
            try:
                body = parse_qsl((await request.body()).decode("utf-8", "replace"), keep_blank_values=True,
                                 max_num_fields=MAX_PARAMETERS)
            except ValueError:
                raise WebError(f"more than {MAX_PARAMETERS} fields", None) from None
            check_lengths(body)
            query = [(k, v if k.endswith("-toml") else v.strip()) for k, v in body if k in names and v.strip()]
            ctx["form"] = dict(query)
            job = await started(request.app.state.jobs, tool.command, query)
        except WebError as e:
            return page(request, "command.html", ctx, e.body())
        return RedirectResponse(f"/jobs/{job.id}", status_code=303)

    app.add_api_route(tool.path, show, methods=["GET"], response_class=HTMLResponse, include_in_schema=False)
    if tool.job:
        app.add_api_route(tool.path, start, methods=["POST"], include_in_schema=False)


def report_bytes(report: Any, suffix: str) -> bytes:
    """A math report written as ``baccara report --out FILE.html|pdf`` writes it, as bytes.

    Parameters
    ----------
    report : MathReport
        The report (a finished job's result).
    suffix : str
        ``html`` or ``pdf``.

    Returns
    -------
    bytes
        The file's contents (the file, temporary, is removed).

    Raises
    ------
    WebError
        The PDF could not be printed here (no Chromium): the HTML page prints to PDF from a browser.
    """
    from ..punto.report_html import write_report  # lazy: matplotlib, loaded only for a report

    with tempfile.TemporaryDirectory(prefix="baccara-web-") as folder:
        path = Path(folder) / f"report.{suffix}"
        try:
            write_report(report, path)
        except BaccaraError as e:
            raise WebError(f"the PDF could not be printed here ({e}); open the HTML page and print it from the "
                           "browser", "suffix", 422) from None
        return path.read_bytes()
