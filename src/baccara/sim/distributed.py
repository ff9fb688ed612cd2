"""Running a simulation job: on this machine (threads or processes) or on a Dask cluster.

A *job* is a small picklable object with ``shoes``, ``chunk_size`` and
``run_chunk(index, pool=None) -> ChunkResult`` (``pool``: a thread pool whose
threads share the chunk's shoes; the kernels release the GIL).  Chunk ``i`` always holds shoes
``i * chunk_size .. (i + 1) * chunk_size - 1`` and each shoe's cards depend
only on (seed, shoe index), so every backend computes the same chunks and
:func:`baccara.sim.results.combine` adds them exactly: the same seed gives the
same result on 1 thread, on N processes or on a Dask cluster, even when a
Dask worker dies and its chunks are computed again elsewhere.

Backends:

``threads``   (default) the shoes of each chunk shared among ``workers`` threads, all cores.
``processes`` a local process pool; each process runs chunks on one core.
``dask``      a Dask distributed cluster: ``scheduler="tcp://HOST:PORT"``, or a
              local cluster of ``workers`` processes when no scheduler is given.
``gpu``       punto banco on a CUDA GPU, one thread per shoe, the same shoes
              (:mod:`baccara.sim.gpu`; needs the ``gpu`` extra, numba-cuda).

Memory stays bounded however many shoes a job has: at most a few chunks per
worker are in flight or waiting at a time, and each finished chunk is folded
into the running total (:class:`baccara.sim.results.Accumulator`) and its rows
handed to a sink, then dropped.  A scheduler's address is checked before the
Dask client touches it (:func:`probe_scheduler`): something that is not a Dask
scheduler gets a clear error within seconds, not a hang or a huge allocation.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from concurrent.futures import (
    FIRST_COMPLETED,
    ThreadPoolExecutor,
    wait,
)
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Protocol

from ..errors import ParameterError
from ..processes import (  # where the work runs: processes here or a Dask cluster
    dask_client,
    default_workers,
    max_workers,
    parse_scheduler,
    process_pool,
    spawn_is_safe,
)
from .results import Accumulator, ChunkResult

BACKENDS = ("threads", "processes", "dask", "gpu")
#: Chunks in flight (or finished early, waiting for an earlier one) per worker.
IN_FLIGHT_PER_WORKER = 2

#: progress(shoes done, shoes in all, hands done)
Progress = Callable[[int, int, int], None]
#: sink(rows of one chunk), called in chunk order
Sink = Callable[[dict], None]


class Job(Protocol):
    @property
    def shoes(self) -> int: ...  # read-only: the jobs are frozen dataclasses

    @property
    def chunk_size(self) -> int: ...

    def run_chunk(self, index: int, pool=None) -> ChunkResult: ...


@dataclass(frozen=True)
class RunInfo:
    """How a job ran: backend, workers, wall-clock seconds."""

    backend: str
    workers: int
    seconds: float
    scheduler: str | None = None

    def to_json(self) -> dict:
        return {"backend": self.backend, "workers": self.workers, "seconds": self.seconds,
                "scheduler": self.scheduler}


def n_chunks(job: Job) -> int:
    return -(-job.shoes // job.chunk_size)


def check_backend(backend: str, workers: int | None, scheduler: str | None) -> tuple[str, int]:
    """Validate the choice of backend and workers; a scheduler address implies Dask.

    Parameters
    ----------
    backend : str
        ``threads``, ``processes``, ``dask`` or ``gpu``.
    workers : int or None
        Local workers (None: every core); not with a scheduler.
    scheduler : str or None
        A Dask scheduler's address, ``tcp://HOST:PORT``.

    Returns
    -------
    tuple of (str, int)
        The backend and the number of workers.

    Raises
    ------
    BaccaraError
        An unknown backend, a malformed address, workers outside 1 to :func:`max_workers`; ``gpu``
        with workers, or where there is neither a GPU nor the CUDA simulator.
    """
    backend = str(backend).strip().lower()
    if backend not in BACKENDS:
        raise ParameterError(f"--backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    if scheduler is not None:
        if backend not in ("dask", "threads"):
            raise ParameterError(f"--scheduler runs on Dask; it cannot be combined with --backend {backend}")
        backend = "dask"
        parse_scheduler(scheduler)
        if workers is not None:
            raise ParameterError("--workers sets the local workers; with --scheduler the cluster's workers run "
                               "the job: leave --workers out")
        return backend, 1
    if backend == "gpu":
        if workers is not None:
            raise ParameterError("--workers sets CPU threads or processes; --backend gpu deals every shoe on one GPU: "
                                 "leave --workers out")
        from .gpu import check_gpu  # lazy: numba-cuda only when the GPU is asked for

        check_gpu()
        return backend, 1
    if workers is None:
        workers = default_workers()
    top = max_workers()
    if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= top:
        raise ParameterError(f"--workers must be an integer from 1 to {top} (twice the {default_workers()} "
                           f"cores of this machine), got {workers!r}")
    return backend, workers


def _needs_spawn(what: str) -> None:
    if not spawn_is_safe():
        raise ParameterError(f"{what} starts worker processes, which re-run the main script: call it under "
                             f"'if __name__ == \"__main__\":' (or use backend='threads')")


def run(job: Job, backend: str = "threads", workers: int | None = None, scheduler: str | None = None,
        progress: Progress | None = None, sink: Sink | None = None) -> tuple[ChunkResult, RunInfo]:
    """Run every chunk of ``job`` and combine them as they finish.

    Parameters
    ----------
    job : Job
        The job (``shoes``, ``chunk_size``, ``run_chunk``).
    backend : str
        ``threads`` (default), ``processes``, ``dask`` or ``gpu`` (punto banco jobs, :mod:`baccara.sim.gpu`).
    workers : int, optional
        Local workers (default: every core).
    scheduler : str, optional
        A Dask scheduler's address (implies ``dask``).
    progress : callable, optional
        ``progress(shoes done, shoes in all, hands done)`` after each chunk.
    sink : callable, optional
        Receives each chunk's rows in chunk order (e.g. a
        :class:`~baccara.sim.results.ParquetSink`); without one, rows kept by the job
        are concatenated in the result.

    Returns
    -------
    tuple of (ChunkResult, RunInfo)
        The combined total and how it ran.
    """
    backend, workers = check_backend(backend, workers, scheduler)
    if backend == "threads" and workers > 1 and getattr(job, "holds_gil", False) and spawn_is_safe():
        backend = "processes"  # pure-Python chunks (the perfect counter): one process per core
    elif backend == "processes" or (backend == "dask" and scheduler is None):
        _needs_spawn(f"backend={backend!r}")
    acc = Accumulator(sink)
    tracker = _Tracker(job, progress, acc)
    t0 = time.perf_counter()
    if backend == "gpu":
        from .gpu import run_gpu  # lazy: numba-cuda only when the GPU is asked for

        run_gpu(job, tracker.done)
    elif backend == "threads":
        _run_threads(job, workers, tracker)
    elif backend == "processes":
        _run_processes(job, workers, tracker)
    else:
        workers = _run_dask(job, workers, scheduler, tracker)
    return acc.result(), RunInfo(backend, workers, time.perf_counter() - t0, scheduler)


class _Tracker:
    def __init__(self, job: Job, progress: Progress | None, acc: Accumulator) -> None:
        self.job, self.progress, self.acc, self.shoes, self.hands = job, progress, acc, 0, 0

    def done(self, c: ChunkResult) -> None:
        self.shoes += c.shoes
        self.hands += c.hands
        self.acc.add(c)
        if self.progress:
            self.progress(self.shoes, self.job.shoes, self.hands)


def _windowed(submit: Callable, count: int, window: int, tracker: _Tracker) -> None:
    """Submit chunks 0..count-1 keeping at most ``window`` in flight or waiting to be folded."""
    pending: set = set()
    nxt = 0
    try:
        while nxt < count or pending:
            while nxt < count and len(pending) + tracker.acc.waiting < window:
                pending.add(submit(nxt))
                nxt += 1
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in finished:
                tracker.done(f.result())
    finally:
        for f in pending:
            f.cancel()


def _run_threads(job: Job, workers: int, tracker: _Tracker) -> None:
    """Whole chunks on ``workers`` threads: while one thread sums a finished chunk (Python,
    holding the GIL) the others keep dealing (the kernels release it).  A single chunk is
    split among the threads instead, so small jobs use every core too."""
    count = n_chunks(job)
    if workers == 1 or count == 1:
        with ThreadPoolExecutor(max_workers=workers) if workers > 1 else nullcontext() as pool:
            for i in range(count):
                tracker.done(job.run_chunk(i, pool))
        return
    with ThreadPoolExecutor(max_workers=workers) as pool:
        _windowed(lambda i: pool.submit(job.run_chunk, i, None), count, IN_FLIGHT_PER_WORKER * workers, tracker)


def run_chunk_serial(job: Job, index: int) -> ChunkResult:
    """One chunk on one core (the task of worker processes and Dask workers)."""
    return job.run_chunk(index, None)


def _run_processes(job: Job, workers: int, tracker: _Tracker) -> None:
    count = n_chunks(job)
    with process_pool(min(workers, count)) as pool:
        _windowed(lambda i: pool.submit(run_chunk_serial, job, i), count, IN_FLIGHT_PER_WORKER * workers, tracker)


def _run_dask(job: Job, workers: int, scheduler: str | None, tracker: _Tracker) -> int:
    """Chunks on a Dask cluster, a bounded window of tasks at a time; returns the cluster's threads."""
    from distributed import as_completed as dask_completed

    client, cluster = dask_client(workers, scheduler)
    try:
        threads = max(sum(client.nthreads().values()), 1)
        token = uuid.uuid4().hex[:12]
        count, nxt = n_chunks(job), 0
        window = IN_FLIGHT_PER_WORKER * threads
        queue = dask_completed()
        in_flight = 0

        def fill() -> None:
            nonlocal nxt, in_flight
            while nxt < count and in_flight + tracker.acc.waiting < window:
                queue.add(client.submit(run_chunk_serial, job, nxt, key=f"baccara-sim-{token}-{nxt}", retries=2,
                                        pure=False))
                nxt += 1
                in_flight += 1

        fill()
        for future in queue:
            try:
                c = future.result()
            except ImportError as e:
                raise ParameterError(f"--scheduler: a Dask worker cannot import what the job needs ({e}); "
                                   f"install baccara on every worker") from None
            in_flight -= 1
            future.release()
            tracker.done(c)
            fill()
        return threads
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
