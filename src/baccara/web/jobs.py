"""Background jobs: a long command (a simulation) runs in its own thread, reports progress, and can be cancelled.

A job runs the command line's own command (:func:`baccara.web.commands.run`), so its result is the
command's ``--json`` document; its progress comes from the simulation's own progress callback
(:data:`baccara.commands.PROGRESS`), which raises to cancel it between chunks.  At most
:data:`RUNNING` jobs run at once, at most :data:`WAITING` more wait their turn (beyond that a start is
refused, 429); finished jobs are kept for their results to be read, the last :data:`KEEP` and for at
most :data:`MAX_AGE` seconds.
"""

from __future__ import annotations

import itertools
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from ..commands import PROGRESS
from .commands import Command, WebError, arguments, run

#: Jobs running at once (each may use every core).
RUNNING = 1
#: Finished jobs kept for their results.
KEEP = 50
#: Jobs that may wait their turn; another start is refused until one finishes.
WAITING = 8
#: Seconds a finished job is kept.
MAX_AGE = 3600.0


class Cancelled(Exception):
    """Raised inside a job's progress callback once the job is cancelled: the run stops there."""


@dataclass
class Job:
    """One background run of a command."""

    id: str
    command: Command
    query: list[tuple[str, str]]
    state: str = "queued"  # queued, running, done, failed, cancelled
    done: int = 0
    total: int = 0
    unit: str = "shoes"  # what done and total count (a sweep's stage)
    result: Any = None
    value: Any = None  # the command's result itself (a math report, to be shown as a page)
    error: dict | None = None
    started: float = field(default_factory=time.time)
    finished: float | None = None
    cancel: threading.Event = field(default_factory=threading.Event)

    def status(self, with_result: bool = True) -> dict:
        """The job as JSON.

        Parameters
        ----------
        with_result : bool
            Include the result document (when done).

        Returns
        -------
        dict
            ``id``, ``command``, ``state``, ``done``, ``total``, ``unit`` (what they count), ``error``, and
            ``result`` when done.
        """
        doc = {"id": self.id, "command": self.command.cli, "query": self.query, "state": self.state,
               "done": self.done, "total": self.total, "unit": self.unit, "error": self.error,
               "seconds": round((self.finished or time.time()) - self.started, 2)}
        if with_result and self.state == "done":
            doc["result"] = self.result
        return doc


class Jobs:
    """The app's background jobs."""

    def __init__(self, running: int = RUNNING) -> None:
        self.jobs: dict[str, Job] = {}
        self.gate = threading.Semaphore(running)
        self.lock = threading.Lock()
        self.ids = itertools.count(1)

    def start(self, command: Command, query: list[tuple[str, str]]) -> Job:
        """Start ``command`` on ``query`` in the background.

        Parameters
        ----------
        command : Command
            The command.
        query : list of (str, str)
            Its options, as query parameters.

        Returns
        -------
        Job
            The job (queued or running).

        Raises
        ------
        WebError
            An unknown parameter, or a value that is not of the option's kind (checked before starting);
            429 when :data:`WAITING` jobs already wait their turn.
        """
        arguments(command, query)  # unknown names and malformed flags: refused at once
        with self.lock:
            self._forget()
            waiting = sum(j.state == "queued" for j in self.jobs.values())
            if waiting >= WAITING:
                raise WebError(f"{waiting} jobs are waiting their turn already: start this one when one has "
                               "finished", None, 429)
            job = Job(f"{next(self.ids)}", command, query)
            self.jobs[job.id] = job
        threading.Thread(target=self._work, args=(job,), name=f"baccara-job-{job.id}", daemon=True).start()
        return job

    def _forget(self) -> None:
        """Drop finished jobs past :data:`MAX_AGE` seconds, and all but the last :data:`KEEP` (lock held)."""
        now = time.time()
        finished = [j for j in self.jobs.values() if j.finished is not None]
        for old in finished[:max(0, len(finished) - KEEP)]:
            del self.jobs[old.id]
        for j in finished:
            if j.id in self.jobs and now - (j.finished or now) > MAX_AGE:
                del self.jobs[j.id]

    def discard(self, job_id: str) -> None:
        """Forget a job (one that refused its input at once: a refused request leaves no job behind).

        Parameters
        ----------
        job_id : str
            Its id.
        """
        with self.lock:
            self.jobs.pop(job_id, None)

    def recent(self, n: int = 10) -> list[Job]:
        """The last ``n`` jobs started, newest first.

        Parameters
        ----------
        n : int
            How many.

        Returns
        -------
        list of Job
            The jobs.
        """
        with self.lock:
            self._forget()
            return sorted(self.jobs.values(), key=lambda j: -int(j.id))[:n]

    def get(self, job_id: str) -> Job:
        """The job ``job_id``.

        Parameters
        ----------
        job_id : str
            Its id.

        Returns
        -------
        Job
            The job.

        Raises
        ------
        WebError
            No such job (404).
        """
        with self.lock:
            self._forget()
            job = self.jobs.get(job_id)
        if job is None:
            raise WebError(f"no job {job_id!r} (finished jobs are kept for a while, then forgotten)", "id", 404)
        return job

    def cancel(self, job_id: str) -> Job:
        """Ask the job to stop (it stops after the chunk it is dealing).

        Parameters
        ----------
        job_id : str
            Its id.

        Returns
        -------
        Job
            The job.
        """
        job = self.get(job_id)
        job.cancel.set()
        return job

    def _work(self, job: Job) -> None:
        def progress(done: int, total: int, *rest: Any) -> None:
            job.done, job.total = done, total
            if rest and isinstance(rest[0], str):  # a sweep's stage: what it counts
                job.unit = rest[0]
            if job.cancel.is_set():
                raise Cancelled

        with self.gate:
            if job.cancel.is_set():
                job.state, job.finished = "cancelled", time.time()
                return
            job.state = "running"
            token = PROGRESS.set(progress)
            try:
                kept: list = []
                job.result = run(job.command, job.query, keep=kept)
                job.value = kept[-1] if kept else None
                job.state = "done"
            except Cancelled:
                job.state = "cancelled"
            except WebError as e:
                if job.cancel.is_set():
                    job.state = "cancelled"
                else:
                    job.state, job.error = "failed", e.body()
            except Exception as e:  # a bug: said in one line, the app goes on
                job.state, job.error = "failed", {"error": f"internal error ({type(e).__name__}: {e})",
                                                  "parameter": None}
            finally:
                PROGRESS.reset(token)
                job.finished = time.time()
