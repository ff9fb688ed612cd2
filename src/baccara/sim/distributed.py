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
"""

from __future__ import annotations

import os
import time
import uuid
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor, as_completed
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Callable, Protocol

from ..errors import BaccaraError
from .results import ChunkResult, combine

BACKENDS = ("threads", "processes", "dask")

#: progress(shoes done, shoes in all, hands done)
Progress = Callable[[int, int, int], None]


class Job(Protocol):
    shoes: int
    chunk_size: int

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


def default_workers() -> int:
    """All cores."""
    return os.cpu_count() or 1


def check_backend(backend: str, workers: int | None, scheduler: str | None) -> tuple[str, int]:
    """Validate the choice of backend; a scheduler address implies Dask."""
    if scheduler is not None:
        if backend not in ("dask", "threads"):
            raise BaccaraError(f"--scheduler runs on Dask; it cannot be combined with --backend {backend}")
        backend = "dask"
        if "://" not in scheduler or not scheduler.split("://", 1)[1]:
            raise BaccaraError(f"--scheduler must be an address like tcp://HOST:PORT, got {scheduler!r}")
    if backend not in BACKENDS:
        raise BaccaraError(f"--backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    if workers is None:
        workers = default_workers()
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise BaccaraError(f"--workers must be a positive integer, got {workers!r}")
    return backend, workers


def run(job: Job, backend: str = "threads", workers: int | None = None, scheduler: str | None = None,
        progress: Progress | None = None) -> tuple[ChunkResult, RunInfo]:
    """Run every chunk of ``job`` and combine them; returns the total and how it ran."""
    backend, workers = check_backend(backend, workers, scheduler)
    if backend == "threads" and workers > 1 and getattr(job, "holds_gil", False):
        backend = "processes"  # pure-Python chunks (the perfect counter): one process per core
    t0 = time.perf_counter()
    if backend == "threads":
        chunks = _run_threads(job, workers, progress)
    elif backend == "processes":
        chunks = _run_processes(job, workers, progress)
    else:
        chunks = _run_dask(job, workers, scheduler, progress)
    total = combine(chunks)
    return total, RunInfo(backend, workers, time.perf_counter() - t0, scheduler)


class _Tracker:
    def __init__(self, job: Job, progress: Progress | None) -> None:
        self.job, self.progress, self.shoes, self.hands = job, progress, 0, 0

    def done(self, c: ChunkResult) -> None:
        self.shoes += c.shoes
        self.hands += c.hands
        if self.progress:
            self.progress(self.shoes, self.job.shoes, self.hands)


def _run_threads(job: Job, workers: int, progress: Progress | None) -> list[ChunkResult]:
    """Whole chunks on ``workers`` threads: while one thread sums a finished chunk (Python,
    holding the GIL) the others keep dealing (the kernels release it).  A single chunk is
    split among the threads instead, so small jobs use every core too."""
    tracker = _Tracker(job, progress)
    count = n_chunks(job)
    if workers == 1 or count == 1:
        with ThreadPoolExecutor(max_workers=workers) if workers > 1 else nullcontext() as pool:
            out = []
            for i in range(count):
                out.append(job.run_chunk(i, pool))
                tracker.done(out[-1])
            return out
    out = []
    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(job.run_chunk, i, None) for i in range(count)]
        for f in as_completed(futures):
            c = f.result()
            out.append(c)
            tracker.done(c)
    return sorted(out, key=lambda c: c.index)


def run_chunk_serial(job: Job, index: int) -> ChunkResult:
    """One chunk on one core (the task of worker processes and Dask workers)."""
    return job.run_chunk(index, None)


def _run_processes(job: Job, workers: int, progress: Progress | None) -> list[ChunkResult]:
    import multiprocessing as mp

    tracker, out = _Tracker(job, progress), []
    with ProcessPoolExecutor(max_workers=min(workers, n_chunks(job)), mp_context=mp.get_context("spawn")) as pool:
        futures = [pool.submit(run_chunk_serial, job, i) for i in range(n_chunks(job))]
        for f in as_completed(futures):
            c = f.result()
            out.append(c)
            tracker.done(c)
    return out


def _dask_client(workers: int, scheduler: str | None):
    try:
        from distributed import Client, LocalCluster
    except ImportError:  # pragma: no cover - distributed is a dependency
        raise BaccaraError("the dask backend needs dask[distributed]: pip install 'dask[distributed]'") from None
    if scheduler is not None:
        try:
            return Client(scheduler, timeout="15s"), None
        except (OSError, TimeoutError) as e:
            raise BaccaraError(f"--scheduler: cannot reach a Dask scheduler at {scheduler}: {e}") from None
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                           dashboard_address=None, silence_logs=40)
    return Client(cluster), cluster


def _run_dask(job: Job, workers: int, scheduler: str | None, progress: Progress | None) -> list[ChunkResult]:
    from distributed import as_completed as dask_completed

    client, cluster = _dask_client(workers, scheduler)
    tracker, out = _Tracker(job, progress), []
    try:
        token = uuid.uuid4().hex[:12]
        n = n_chunks(job)
        futures = client.map(run_chunk_serial, [job] * n, list(range(n)),
                             key=[f"baccara-sim-{token}-{i}" for i in range(n)], retries=2)
        for _, c in dask_completed(futures, with_results=True):
            out.append(c)
            tracker.done(c)
        del futures
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    return out
