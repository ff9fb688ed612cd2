"""Running a simulation job: on this machine (threads or processes) or on a Dask cluster.

A *job* is a small picklable object with ``shoes``, ``chunk_size`` and
``run_chunk(index, pool=None) -> ChunkResult``, and optionally
``run_span(index, chunks) -> ChunkResult``, which deals a run of consecutive
chunks and folds their tallies in its kernels (:func:`run_span`); the
``seconds`` a result reports size the spans that follow.  Chunk ``i``
always holds shoes ``i * chunk_size .. (i + 1) * chunk_size - 1``, each shoe's
cards depend only on (seed, shoe index), and tallies are exact (integers; float
totals as exact partial sums), so the result does not depend on how the chunks
are grouped or shared out: the same seed gives the same result on 1 thread, on N
threads or processes or on a Dask cluster, even when a Dask worker dies and its
span is computed again elsewhere.

The unit of work is a *span* of chunks, sized as the run goes from the chunks
measured so far (:class:`_Planner`): about a second of work for a task of
processes or Dask (the kernels are loaded once a process, and a task returns a
few dozen integers, not rows, unless ``--out`` needs them), a fifth of a second
for a thread, and smaller towards the end so that the workers finish together.

Backends (:data:`RUNNERS`; a new one is a name in :data:`BACKENDS` and a runner):

``threads``   (default) ``workers`` threads, each taking spans and folding them itself (the
              kernels release the GIL); the main thread folds the spans' tallies, a few a second.
``processes`` ``workers - 1`` worker processes (forked where that is safe, else spawned:
              :func:`baccara.processes.start_method`) and a thread of this process, spans as tasks.
``dask``      a Dask distributed cluster: ``scheduler="tcp://HOST:PORT"``, or a local cluster
              when no scheduler is given: ``workers`` threads of one Dask worker in this
              process (the kernels release the GIL), or ``workers`` processes for a job that
              holds the GIL (the perfect counter).

Memory stays bounded however many shoes a job has: at most a few spans per
worker are in flight or waiting at a time, and each finished span is folded
into the running total (:class:`baccara.sim.results.Accumulator`) and its rows
handed to a sink, then dropped.  A scheduler's address is checked before the
Dask client touches it (:func:`probe_scheduler`): something that is not a Dask
scheduler gets a clear error within seconds, not a hang or a huge allocation.
"""

from __future__ import annotations

import dataclasses
import queue
import threading
import time
import uuid
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Protocol

from ..errors import ParameterError
from ..processes import (  # where the work runs: processes here or a Dask cluster
    check_workers,
    cores_busy,
    dask_client,
    default_workers,
    parse_scheduler,
    process_pool,
    processes_can_start,
    spawn_is_safe,
    start_method,
)
from ..workload import Sizing, about, format_duration, size_to_budget
from .results import Accumulator, ChunkResult

BACKENDS = ("threads", "processes", "dask", "gpu")
#: The backends whose time :func:`estimate_backends` predicts from a run on one core (the cores of this machine);
#: the GPU's it times on the GPU (:func:`baccara.sim.gpu.estimate_gpu`).
CPU_BACKENDS = ("threads", "processes", "dask")
#: Tasks (spans of chunks) in flight, or finished early and waiting for an earlier one, per worker.
IN_FLIGHT_PER_WORKER = 2
#: Seconds of one worker's work a task of processes or Dask aims at: its overhead (pickling the job
#: and its tallies, a scheduler's round trip) then weighs little.
TASK_SECONDS = 1.0
#: The same for a span of one thread: the main thread folds a few spans a second, and a stop
#: (Ctrl-C, a cancelled web job) is heard within a fraction of a second.
THREAD_SPAN_SECONDS = 0.2
#: The most chunks in one span, and the most shoes in one span that keeps rows (``--out``).
MAX_SPAN_CHUNKS = 4096
ROWS_PER_SPAN = 1 << 16
#: A job with fewer chunks than this many per worker is cut into smaller chunks (the same result).
TASKS_PER_WORKER = 4

#: progress(shoes done, shoes in all, hands done)
Progress = Callable[[int, int, int], None]
#: sink(rows of one span of chunks), called in chunk order
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
    return backend, default_workers() if workers is None else check_workers(workers)


def _needs_worker_processes(what: str, forks: bool = True) -> None:
    if not (processes_can_start() if forks else spawn_is_safe()):
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
        ``progress(shoes done, shoes in all, hands done)`` after each span of chunks (a few
        times a second); it may raise to stop the run.
    sink : callable, optional
        Receives each span's rows in chunk order (e.g. a
        :class:`~baccara.sim.results.ParquetSink`); without one, rows kept by the job
        are concatenated in the result.

    Returns
    -------
    tuple of (ChunkResult, RunInfo)
        The combined total and how it ran.
    """
    backend, workers = check_backend(backend, workers, scheduler)
    if backend == "threads" and workers > 1 and getattr(job, "holds_gil", False) and processes_can_start():
        backend = "processes"  # pure-Python chunks (the perfect counter): one process per core
    elif backend == "processes":
        _needs_worker_processes(f"backend={backend!r}")
    elif backend == "dask" and scheduler is None and getattr(job, "holds_gil", False):
        # only then are the local cluster's workers processes, always spawned; else they are threads here
        _needs_worker_processes(f"backend={backend!r}", forks=False)
    if scheduler is None:
        job = _rechunked(job, workers)
    acc = Accumulator(sink)
    tracker = _Tracker(job, progress, acc)
    if backend in ("threads", "processes"):
        # Loaded (or compiled) here, once, before the clock starts and before any fork: the run's seconds and
        # rate measure the dealing alone, whatever the workers (a run on one thread loaded them on the clock)
        _load_kernels(job)
    t0 = time.perf_counter()
    workers = RUNNERS[backend](job, workers, scheduler, tracker)
    return acc.result(), RunInfo(backend, workers, time.perf_counter() - t0, scheduler)


class _Tracker:
    def __init__(self, job: Job, progress: Progress | None, acc: Accumulator) -> None:
        self.job, self.progress, self.acc, self.shoes, self.hands = job, progress, acc, 0, 0
        self.rows = _keeps_rows(job)

    def done(self, c: ChunkResult) -> None:
        self.shoes += c.shoes
        self.hands += c.hands
        self.acc.add(c)
        if self.progress:
            self.progress(self.shoes, self.job.shoes, self.hands)


# ---------------------------------------------------------------- spans: many chunks in one task
def run_span(job: Job, index: int, chunks: int = 1) -> ChunkResult:
    """Chunks ``index .. index + chunks - 1`` dealt and folded together by this worker.

    The job's own ``run_span`` when it has one (its kernels deal the whole run of shoes and
    fold their tallies without Python per chunk); otherwise its chunks one by one, folded
    here.  Either way the result is exact (integers, float totals as exact partial sums),
    so the total does not depend on how the chunks were grouped or shared out.

    Parameters
    ----------
    job : Job
        The job.
    index : int
        The first chunk.
    chunks : int
        How many chunks.

    Returns
    -------
    ChunkResult
        One result for the span (``index``, ``chunks``), rows concatenated if the job keeps them.
    """
    own = getattr(job, "run_span", None)
    if own is not None:
        return own(index, chunks)
    return fold_chunks(job, index, chunks)


def fold_chunks(job: Job, index: int, chunks: int = 1) -> ChunkResult:
    """Chunks ``index .. index + chunks - 1`` one by one (``run_chunk``), folded together here.

    Parameters
    ----------
    job : Job
        The job.
    index : int
        The first chunk.
    chunks : int
        How many chunks.

    Returns
    -------
    ChunkResult
        One result for the span, float totals as exact partial sums.
    """
    if chunks == 1:
        return job.run_chunk(index, None)
    acc = Accumulator(first=index)
    for i in range(index, index + chunks):
        acc.add(job.run_chunk(i, None))
    return acc.span()


class _Planner:
    """Hands out spans of consecutive chunks, sized from the chunks measured so far.

    A span aims at ``target`` seconds of one worker (processes and Dask: about a second,
    so the cost of a task, pickling the job and its result, is small beside it; threads: a
    fraction, for progress and a prompt stop), never more than a share of what is left
    (guided scheduling: the last spans shrink so that the workers finish together), and
    with rows (``--out``) at most :data:`ROWS_PER_SPAN` shoes.  The sizes change only
    how the work is cut, never the result.
    """

    def __init__(self, job: Job, workers: int, target: float) -> None:
        self.count, self.next, self.workers, self.target = n_chunks(job), 0, workers, target
        self.seconds, self.measured = 0.0, 0
        self.cap = MAX_SPAN_CHUNKS
        if getattr(job, "keep_rows", False):
            self.cap = max(1, min(self.cap, ROWS_PER_SPAN // max(job.chunk_size, 1)))

    def observe(self, c: ChunkResult) -> None:
        self.seconds += c.seconds
        self.measured += max(c.chunks, 1)

    def take(self) -> tuple[int, int] | None:
        left = self.count - self.next
        if left <= 0:
            return None
        k = 1
        if self.measured and self.seconds > 0:
            k = int(self.target / (self.seconds / self.measured))
        k = max(1, min(k, self.cap, -(-left // (2 * self.workers))))
        span = (self.next, k)
        self.next += k
        return span


def _rechunked(job: Job, workers: int) -> Job:
    """The job with chunks small enough for every worker to have some (a short job: same result)."""
    want = TASKS_PER_WORKER * workers
    if n_chunks(job) >= want or job.shoes < 2 or not dataclasses.is_dataclass(job):
        return job
    names = {f.name for f in dataclasses.fields(job)}
    if "chunk_size" not in names:
        return job
    return dataclasses.replace(job, chunk_size=max(1, -(-job.shoes // want)))


def _keeps_rows(job: Job) -> bool:
    """Whether the job's spans carry rows (``--out``), which wait in memory for the earlier spans' to be written."""
    return bool(getattr(job, "keep_rows", False))


def _held(tracker: _Tracker) -> int:
    """Spans back but waiting for an earlier one, counted against a window of tasks where they hold rows.

    A span's tallies are small and wait at no cost; counting them would leave every worker idle behind one slow
    span.  Rows are bounded: a span of them is written only after every earlier one."""
    return tracker.acc.waiting if tracker.rows else 0


def _run_threads(job: Job, workers: int, tracker: _Tracker) -> int:
    """Spans on ``workers`` threads: each thread takes a span, deals it in its kernels (which release
    the GIL) and folds it there, then takes the next; nothing is shared while a span runs.  The main
    thread only folds the finished spans (a few a second) and reports progress."""
    plan = _Planner(job, workers, THREAD_SPAN_SECONDS)
    if workers == 1:
        while (span := plan.take()) is not None:
            c = run_span(job, *span)
            plan.observe(c)
            tracker.done(c)
        return 1
    lock = threading.Lock()  # taken once a span, to take the next one
    # spans taken and not yet back; with rows, not yet folded in (their rows wait for the earlier spans')
    slots = threading.Semaphore(IN_FLIGHT_PER_WORKER * workers)
    stop = threading.Event()
    finished: queue.SimpleQueue = queue.SimpleQueue()

    def work() -> None:
        try:
            while not stop.is_set():
                if not slots.acquire(timeout=0.1):
                    continue
                with lock:
                    span = plan.take()
                if span is None:
                    slots.release()
                    break
                c = run_span(job, *span)
                with lock:
                    plan.observe(c)
                finished.put(c)
        except BaseException as e:  # handed to the main thread, raised there
            finished.put(e)
        finally:
            finished.put(None)

    threads = [threading.Thread(target=work, name=f"baccara-sim-{i}", daemon=True) for i in range(workers)]
    for t in threads:
        t.start()
    running = len(threads)
    try:
        while running:
            try:
                item = finished.get(timeout=0.5)  # a timeout: Ctrl-C is heard at once
            except queue.Empty:
                continue
            if item is None:
                running -= 1
            elif isinstance(item, BaseException):
                raise item
            else:
                before = tracker.acc.waiting
                tracker.done(item)
                for _ in range(before + 1 - tracker.acc.waiting if tracker.rows else 1):  # the spans whose rows are gone
                    slots.release()
    finally:
        stop.set()
        for t in threads:
            t.join()
    return workers


def _windowed(pools: list[tuple[Callable, int]], plan: _Planner, tracker: _Tracker) -> None:
    """Submit spans, each to the first of ``pools`` (``(submit, window)``) with room in its window of
    tasks in flight or waiting to be folded."""
    pending: dict = {}
    try:
        while True:
            for which, (submit, window) in enumerate(pools):
                while (sum(1 for w in pending.values() if w == which) + _held(tracker) < window
                       and (span := plan.take()) is not None):
                    pending[submit(*span)] = which
            if not pending:
                return
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for f in finished:
                del pending[f]
                c = f.result()
                plan.observe(c)
                tracker.done(c)
    finally:
        for f in pending:
            f.cancel()


def run_chunk_serial(job: Job, index: int) -> ChunkResult:
    """One chunk on one core.

    Parameters
    ----------
    job : Job
        The job.
    index : int
        The chunk.

    Returns
    -------
    ChunkResult
        Its result.
    """
    return job.run_chunk(index, None)


def _first_shoes(job: Job, n: int) -> Job:
    """The same dataclass job on its first ``n`` shoes, keeping no rows."""
    names = {f.name for f in dataclasses.fields(job)}  # type: ignore[arg-type]
    off = {"keep_rows": False} if "keep_rows" in names else {}
    return dataclasses.replace(job, shoes=n, **off)  # type: ignore[type-var]


def _load_kernels(job: Job) -> None:
    """Load (or compile) the job's kernels in this process by dealing its first shoe, untallied (a job that
    is not a dataclass, one of the tests', has none)."""
    if dataclasses.is_dataclass(job):
        run_span(_first_shoes(job, 1), 0, 1)


def _run_processes(job: Job, workers: int, tracker: _Tracker) -> int:
    """Spans on ``workers - 1`` worker processes and a thread of this one: this process is loaded
    already, so the work costs one process's start-up less (and forked workers almost none)."""
    plan = _Planner(job, workers, TASK_SECONDS)
    spawned = min(workers, plan.count) - 1  # forked workers find the kernels loaded: run() loads them first
    with ThreadPoolExecutor(max_workers=1) as here, \
            process_pool(spawned) if spawned else nullcontext() as pool:
        pools = [(lambda i, k: here.submit(run_span, job, i, k), IN_FLIGHT_PER_WORKER)]
        if pool is not None:
            pools.insert(0, (lambda i, k: pool.submit(run_span, job, i, k), IN_FLIGHT_PER_WORKER * spawned))
        _windowed(pools, plan, tracker)
    return workers


def _run_dask(job: Job, workers: int, scheduler: str | None, tracker: _Tracker) -> int:
    """Spans on a Dask cluster, a bounded window of tasks at a time; returns the cluster's threads."""
    client, cluster = dask_client(workers, scheduler, processes=bool(getattr(job, "holds_gil", False)))
    from distributed import as_completed as dask_completed  # lazy: dask_client said so in words where it is missing
    try:
        threads = max(sum(client.nthreads().values()), 1)
        token = uuid.uuid4().hex[:12]
        plan = _Planner(job, threads, TASK_SECONDS)
        window = IN_FLIGHT_PER_WORKER * threads
        queue_ = dask_completed()
        in_flight = 0

        def fill() -> None:
            nonlocal in_flight
            while in_flight + _held(tracker) < window and (span := plan.take()) is not None:
                i, k = span
                queue_.add(client.submit(run_span, job, i, k, key=f"baccara-sim-{token}-{i}-{k}",
                                         retries=2, pure=False))
                in_flight += 1

        fill()
        for future in queue_:
            try:
                c = future.result()
            except ImportError as e:
                raise ParameterError(f"--scheduler: a Dask worker cannot import what the job needs ({e}); "
                                   f"install baccara on every worker") from None
            in_flight -= 1
            future.release()
            plan.observe(c)
            tracker.done(c)
            fill()
        return threads
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _run_gpu(job: Job, tracker: _Tracker) -> int:
    """Every shoe on one CUDA GPU (:func:`baccara.sim.gpu.run_gpu`); returns 1 (one device)."""
    from .gpu import run_gpu  # lazy: numba-cuda only when the GPU is asked for

    run_gpu(job, tracker.done)
    return 1


#: How each backend runs a job: ``runner(job, workers, scheduler, tracker) -> workers used``.
RUNNERS: dict[str, Callable[[Job, int, str | None, _Tracker], int]] = {
    "threads": lambda job, w, s, t: _run_threads(job, w, t),
    "processes": lambda job, w, s, t: _run_processes(job, w, t),
    "dask": _run_dask,
    "gpu": lambda job, w, s, t: _run_gpu(job, t),
}


# ---------------------------------------------------------------- estimates per backend
#: Wall seconds for the worker processes to start: spawned in parallel (an interpreter, the imports,
#: the compiled kernels loaded; about half a CPU-second each on a 2-core machine, 2026), or forked
#: (:func:`baccara.processes.start_method`: some milliseconds; the kernels are loaded before the fork),
#: and for a local Dask cluster: importing Dask and starting its scheduler and a worker of threads in
#: this process (about a second), or worker processes with their nannies (for a job holding the GIL).
PROCESS_START_SECONDS = 1.0
FORK_START_SECONDS = 0.05
DASK_START_SECONDS = 1.0
DASK_PROCESSES_START_SECONDS = 3.0


@dataclass(frozen=True)
class Calibration:
    """A short run of the job's own kernels on one thread here: how fast this machine deals it.

    Attributes
    ----------
    shoes : int
        Shoes dealt (after a first, untimed span that loads the kernels).
    hands : int
        Their hands.
    seconds : float
        Wall seconds on one thread.
    """

    shoes: int
    hands: int
    seconds: float

    @property
    def seconds_per_shoe(self) -> float:
        """Seconds of one core per shoe."""
        return self.seconds / max(self.shoes, 1)

    def to_json(self) -> dict:
        return {"shoes": self.shoes, "hands": self.hands, "seconds": self.seconds,
                "hands_per_second": self.hands / self.seconds if self.seconds else None}


def calibrate(job: Job, seconds: float = 0.25) -> Calibration:
    """Time the job's first shoes on one thread here, doubling them until the run lasts ``seconds``.

    Parameters
    ----------
    job : Job
        A dataclass job (``shoes`` and ``chunk_size`` fields; ``keep_rows`` is turned off).
    seconds : float
        The least duration of the timed run.

    Returns
    -------
    Calibration
        Shoes, hands and seconds of the timed run.
    """
    def timed(n: int) -> Calibration:
        small = _first_shoes(job, n)
        t0 = time.perf_counter()
        c = run_span(small, 0, n_chunks(small))
        return Calibration(n, c.hands, time.perf_counter() - t0)

    n = 1
    timed(min(job.shoes, 2))  # the kernels loaded (compiled on a first run)
    while True:
        got = timed(min(n, job.shoes))
        if got.seconds >= seconds or got.shoes >= job.shoes:
            return got
        n = min(job.shoes, 8 * n, max(2 * n, int(n * 1.2 * seconds / max(got.seconds, 1e-4))))


def estimate_backends(job: Job, workers: int, calibration: Calibration, gpu: bool = False) -> dict[str, dict]:
    """The wall seconds of the job on each backend here, from a calibration on one thread (and the GPU's).

    Parameters
    ----------
    job : Job
        The job.
    workers : int
        Workers of each backend (the cores of this machine by default).
    calibration : Calibration
        From :func:`calibrate`.
    gpu : bool
        Time the job's kernel on the GPU too (:func:`baccara.sim.gpu.estimate_gpu`: short launches there, or
        on numba-cuda's CUDA simulator, whose time says nothing of a real GPU).

    Returns
    -------
    dict
        ``{backend: {"workers", "seconds", "core_seconds", "start_seconds"}}`` for each of
        :data:`CPU_BACKENDS`: the work shared evenly among ``workers`` free cores (no more than this machine has), plus the
        backend's start-up (:data:`PROCESS_START_SECONDS` or :data:`FORK_START_SECONDS`, :data:`DASK_START_SECONDS`,
        :data:`DASK_PROCESSES_START_SECONDS`).  Threads run a job that holds the GIL (the
        perfect counter) on processes.  With ``gpu``, ``"gpu"`` too, timed on the GPU (with
        ``device`` and ``simulator``).

    Raises
    ------
    ParameterError
        With ``gpu``: no GPU (nor the simulator), or a job the GPU does not deal.
    """
    work = calibration.seconds_per_shoe * job.shoes
    gil = bool(getattr(job, "holds_gil", False))
    process = FORK_START_SECONDS if start_method() == "fork" else PROCESS_START_SECONDS
    start = {"threads": process if gil and workers > 1 else 0.0,
             "processes": process if workers > 1 else 0.0,
             "dask": DASK_PROCESSES_START_SECONDS if gil else DASK_START_SECONDS}
    on = cores_busy(workers)
    out = {b: {"workers": workers, "core_seconds": work, "start_seconds": start.get(b, 0.0),
               "seconds": start.get(b, 0.0) + work / on} for b in CPU_BACKENDS}
    if gpu:
        from .gpu import estimate_gpu  # lazy: numba-cuda only when the GPU is asked for

        out["gpu"] = estimate_gpu(job)
    return out


def describe_backends(backends: dict[str, dict]) -> list[str]:
    """One line for people per backend of :func:`estimate_backends`, e.g.
    ``--backend threads   -j 2: about 3 min``, the GPU's saying where it was timed.

    Parameters
    ----------
    backends : dict
        From :func:`estimate_backends`.

    Returns
    -------
    list of str
        The lines, in order.
    """
    lines = []
    for b, e in backends.items():
        start = f" (starting {format_duration(e['start_seconds'])})" if e["start_seconds"] else ""
        took = about(e["seconds"])
        if b == "gpu":
            where = (f"timed on {e['device']}, on this machine's CPU: it says nothing of a real GPU's speed"
                     if e["simulator"] else f"timed on {e['device']}")
            start = f" (compiling {format_duration(e['start_seconds'])})" if e["start_seconds"] else ""
            lines.append(f"--backend gpu: {took}{start}; {where}, {e['shoes']:,} shoe"
                         f"{'' if e['shoes'] == 1 else 's'} in {e['timed_seconds']:.2f} s")
        else:
            lines.append(f"--backend {b:9s} -j {e['workers']}: {took}{start}")
    return lines


def size_job(job: Job, what: str, budget: float, workers: int, least: int, most: int) -> Sizing:
    """Shoes for ``job`` to take about ``budget`` seconds on ``workers`` cores here, from a short calibration.

    Parameters
    ----------
    job : Job
        The job (its ``shoes`` only bound the calibration).
    what : str
        The run, for people.
    budget : float
        Seconds the run may take.
    workers : int
        Cores it runs on.
    least, most : int
        Bounds on the shoes (:func:`baccara.workload.size_to_budget`).

    Returns
    -------
    Sizing
        The shoes chosen, the measured speed, and why.
    """
    cal = calibrate(job, min(0.2, budget / 20))
    return size_to_budget(what, cal.seconds_per_shoe, budget, workers, least, most)
