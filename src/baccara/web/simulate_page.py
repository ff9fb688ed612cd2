"""The simulation page and the jobs API: a simulation runs in the background with a progress bar and can be cancelled.

``POST /api/jobs/simulate/punto?shoes=...`` starts ``baccara simulate punto`` (its options as query
parameters, as for every API route); ``GET /api/jobs/ID`` tells its state and progress, and once done holds
the command's ``--json`` document; ``POST /api/jobs/ID/cancel`` stops it.  The page ``/simulate`` is a
form that starts one and a page per job that shows its progress (the app's script polls it; without
scripts the page refreshes itself) and its result.
"""

from __future__ import annotations

import asyncio
import inspect
from typing import Any
from urllib.parse import parse_qsl

from fastapi import FastAPI, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from .charts import banque_sweep_chart
from .commands import JOB_COMMANDS, MAX_PARAMETERS, WebError, check_lengths
from .jobs import Job, Jobs
from .tables import answer, download_options

#: The form's fields (options of ``baccara simulate punto``).
FIELDS = ("decks", "shoes", "bets", "seed", "cut", "perfect", "commission", "tie-pays")
#: How long a start waits to see the job refuse its input (seconds), so that bad input is a 4xx at once.
FIRST_LOOK = 1.0


async def started(jobs: Jobs, path: str, query: list[tuple[str, str]]) -> Job:
    """Start a job and wait a moment: bad input fails at once, and is raised as the 4xx it is (the job forgotten).

    Parameters
    ----------
    jobs : Jobs
        The app's jobs.
    path : str
        The command's path under /api/jobs (:data:`~baccara.web.commands.JOB_COMMANDS`).
    query : list of (str, str)
        Its parameters.

    Returns
    -------
    Job
        The job, running or queued (or done already).

    Raises
    ------
    WebError
        The input refused (422), or too many jobs waiting (429).
    """
    job = jobs.start(JOB_COMMANDS[path], query)
    for _ in range(int(FIRST_LOOK / 0.05)):
        if job.state == "failed" and job.error is not None:
            jobs.discard(job.id)  # refused: no job is left behind
            raise WebError(job.error["error"], job.error["parameter"], 422)
        if job.state in ("done", "cancelled") or job.done > 0:
            break
        await asyncio.sleep(0.05)
    return job


def add_routes(app: FastAPI, page: Any) -> None:
    """Add the jobs API and the simulation pages.

    Parameters
    ----------
    app : FastAPI
        The app.
    page : callable
        Renders a template: ``page(request, name, context, error)``.
    """
    jobs = Jobs()
    app.state.jobs = jobs

    for path, command in JOB_COMMANDS.items():
        async def start(request: Request, _path: str = path, **_: Any) -> Response:
            job = await started(jobs, _path, list(request.query_params.multi_items()))
            return JSONResponse(job.status(), status_code=202, headers={"Location": f"/api/jobs/{job.id}"})

        params = [inspect.Parameter("request", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=Request)]
        for p in command.web_params():
            help_ = f"The text of the file {p.flag} names on the command line (TOML)." if p.file else p.help
            params.append(inspect.Parameter(f"p_{p.name}", inspect.Parameter.KEYWORD_ONLY, annotation=str | None,
                                            default=Query(None, alias=p.web_name, description=help_)))
        start.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
        app.add_api_route(f"/api/jobs/{path}", start, methods=["POST"], status_code=202, tags=["jobs"],
                          summary=f"Start {command.cli} in the background",
                          description="Returns the job (202); `GET /api/jobs/{id}` has its progress and, once done, "
                                      f"`result`: the document of `{command.cli} ... --json`.")

    @app.get("/api/jobs/{job_id}", tags=["jobs"], summary="A job's state, progress and result")
    async def job_status(request: Request, job_id: str,
                         format_: str | None = Query(None, alias="format", description="json (the default), or csv: "
                                                     "one of the result's tables (once done; see table)."),
                         table_: str | None = Query(None, alias="table", description="With format=csv: the table, by "
                                                    "its path in the result.")) -> Response:
        job = jobs.get(job_id)
        _, fmt, table = download_options(request.query_params.multi_items())
        if fmt == "json" and table is None:
            return JSONResponse(job.status())
        if job.state != "done":
            raise WebError(f"job {job_id} is {job.state}: its tables come once it is done", "format", 409)
        return answer(job.result, fmt, table, f"job-{job_id}")

    @app.post("/api/jobs/{job_id}/cancel", tags=["jobs"], summary="Cancel a job")
    async def job_cancel(job_id: str) -> dict:
        return jobs.cancel(job_id).status(with_result=False)

    @app.post("/banque/sweep", include_in_schema=False)
    async def banque_sweep(request: Request) -> Response:
        job = await started(jobs, "banque/sweep", [("concept", "correlated")])
        return RedirectResponse(f"/banque/sweep/{job.id}", status_code=303)

    @app.get("/banque/sweep/{job_id}", response_class=HTMLResponse, include_in_schema=False)
    async def banque_sweep_page(request: Request, job_id: str) -> Response:
        job = jobs.get(job_id)
        chart = banque_sweep_chart(job.result) if job.state == "done" else ""
        return page(request, "banque_sweep.html", {"job": job, "chart": chart}, job.error)

    @app.post("/banque/sweep/{job_id}/cancel", include_in_schema=False)
    async def banque_sweep_cancel(job_id: str) -> Response:
        jobs.cancel(job_id)
        return RedirectResponse(f"/banque/sweep/{job_id}", status_code=303)

    @app.get("/simulate", response_class=HTMLResponse, include_in_schema=False)
    async def form(request: Request) -> Response:
        recent = jobs.recent(10)
        return page(request, "simulate.html", {"job": None, "recent": recent})

    @app.post("/simulate", include_in_schema=False)
    async def submit(request: Request) -> Response:
        query: list[tuple[str, str]] = []
        try:
            body = parse_qsl((await request.body()).decode("utf-8", "replace"), keep_blank_values=True,
                             max_num_fields=MAX_PARAMETERS)
            check_lengths(body)
            query = [(k, v.strip()) for k, v in body if k in FIELDS and v.strip()]  # empty fields: not given
            job = await started(jobs, "simulate/punto", query)
        except ValueError:
            return page(request, "simulate.html", {"job": None, "recent": [], "form": {}},
                        {"error": f"more than {MAX_PARAMETERS} fields", "parameter": None})
        except WebError as e:
            return page(request, "simulate.html", {"job": None, "recent": [], "form": dict(query)}, e.body())
        return RedirectResponse(f"/simulate/{job.id}", status_code=303)

    @app.get("/simulate/{job_id}", response_class=HTMLResponse, include_in_schema=False)
    async def show(request: Request, job_id: str) -> Response:
        job = jobs.get(job_id)
        return page(request, "simulate.html", {"job": job, "recent": [], "form": dict(job.query)}, job.error)

    @app.post("/simulate/{job_id}/cancel", include_in_schema=False)
    async def cancel(job_id: str) -> Response:
        jobs.cancel(job_id)
        return RedirectResponse(f"/simulate/{job_id}", status_code=303)
