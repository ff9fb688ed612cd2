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

Memory stays bounded however many shoes a job has: at most a few chunks per
worker are in flight or waiting at a time, and each finished chunk is folded
into the running total (:class:`baccara.sim.results.Accumulator`) and its rows
handed to a sink, then dropped.  A scheduler's address is checked before the
Dask client touches it (:func:`probe_scheduler`): something that is not a Dask
scheduler gets a clear error within seconds, not a hang or a huge allocation.
"""

from __future__ import annotations

import os
import socket
import struct
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import (
    FIRST_COMPLETED,
    ThreadPoolExecutor,
    wait,
)
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from typing import Protocol

from ..errors import BaccaraError, ParameterError
from ..processes import process_pool, spawn_is_safe
from .results import Accumulator, ChunkResult

BACKENDS = ("threads", "processes", "dask")
#: Chunks in flight (or finished early, waiting for an earlier one) per worker.
IN_FLIGHT_PER_WORKER = 2
#: Seconds to wait for a scheduler's greeting, and for a cluster to have a worker.
SCHEDULER_TIMEOUT = 5.0
WORKERS_TIMEOUT = 10.0

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


def default_workers() -> int:
    """All cores."""
    return os.cpu_count() or 1


def max_workers() -> int:
    """The most workers on this machine: twice its cores (more only thrash, and each
    worker process of ``processes`` or a local Dask cluster costs a few hundred MB).

    Returns
    -------
    int
        ``2 * os.cpu_count()``.
    """
    return 2 * default_workers()


# ---------------------------------------------------------------- the scheduler's address
def parse_scheduler(address: str) -> tuple[str, int, str]:
    """Check a Dask scheduler's address: ``tcp://HOST:PORT`` (or ``HOST:PORT``).

    Parameters
    ----------
    address : str
        What the user gave as ``--scheduler``.

    Returns
    -------
    tuple of (str, int, str)
        The host, the port and the address in the form ``tcp://HOST:PORT``.

    Raises
    ------
    BaccaraError
        Anything else: another scheme (http, tls, ...), no port, a port outside
        1-65535, a path, an empty host.
    """
    form = f"--scheduler must be a Dask scheduler's address, tcp://HOST:PORT (e.g. tcp://10.0.0.5:8786), got {address!r}"
    text = str(address).strip()
    scheme, sep, rest = text.partition("://")
    if not sep:
        scheme, rest = "tcp", text
    if scheme.lower() != "tcp":
        raise ParameterError(form + f": the {scheme!r} scheme is not supported, only tcp")
    if not rest or any(c in rest for c in "/?#@ \t"):
        raise ParameterError(form)
    if rest.startswith("["):
        host, close, tail = rest[1:].partition("]")
        if not close or not tail.startswith(":"):
            raise ParameterError(form)
        port_text, shown = tail[1:], f"[{host}]"
    else:
        host, colon, port_text = rest.rpartition(":")
        if not colon or ":" in host:
            raise ParameterError(form)
        shown = host
    if not host or not all(c.isalnum() or c in ".-_:%" for c in host):
        raise ParameterError(form)
    if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
        raise ParameterError(f"--scheduler: the port must be a number from 1 to 65535, got {port_text!r} in {address!r}")
    port = int(port_text)
    return host, port, f"tcp://{shown}:{port}"


def _recv(sock: socket.socket, n: int, deadline: float) -> bytes:
    """Up to ``n`` bytes, fewer if the peer closes or the deadline passes."""
    data = b""
    while len(data) < n:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        sock.settimeout(left)
        try:
            chunk = sock.recv(n - len(data))
        except TimeoutError:
            break
        if not chunk:
            break
        data += chunk
    return data


def _resolve(host: str, port: int, timeout: float, where: str) -> list:
    """``socket.getaddrinfo`` within ``timeout`` seconds (a slow resolver must not hang the command)."""
    box: dict = {}

    def work() -> None:
        try:
            box["found"] = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except (OSError, UnicodeError) as e:
            box["error"] = e

    t = threading.Thread(target=work, daemon=True)
    t.start()
    t.join(timeout)
    if t.is_alive():
        raise ParameterError(f"{where}: could not resolve the host {host!r} within {timeout:g} s")
    if "error" in box:
        e = box["error"]
        raise ParameterError(f"{where}: unknown host {host!r} ({getattr(e, 'strerror', None) or e})")
    return box["found"]


def probe_scheduler(address: str, timeout: float = SCHEDULER_TIMEOUT) -> str:
    """Check that a Dask scheduler answers at ``address``, within ``timeout`` seconds.

    A Dask scheduler greets every new connection with a short framed message: an
    8-byte length, then the frame count and sizes.  This reads that greeting
    itself, with a deadline and a cap on the size, so that a web server or
    anything else listening there is reported as such instead of making the Dask
    client wait or allocate whatever its first bytes say.

    Parameters
    ----------
    address : str
        The ``--scheduler`` address.
    timeout : float
        Seconds to connect and to receive the greeting.

    Returns
    -------
    str
        The address as ``tcp://HOST:PORT``.

    Raises
    ------
    BaccaraError
        A bad address, an unknown host, nothing listening, no greeting in time, or
        a greeting that is not the Dask protocol's.
    """
    host, port, norm = parse_scheduler(address)
    deadline = time.monotonic() + timeout
    where = f"--scheduler {address}"
    sock = None
    last: OSError | None = None
    for family, kind, proto, _, sockaddr in _resolve(host, port, timeout, where):
        left = deadline - time.monotonic()
        if left <= 0:
            break
        s = socket.socket(family, kind, proto)
        s.settimeout(left)
        try:
            s.connect(sockaddr)
        except OSError as e:
            s.close()
            last = e
            continue
        sock = s
        break
    if sock is None:
        if isinstance(last, ConnectionRefusedError):
            raise ParameterError(f"{where}: nothing listens at {host}:{port} (connection refused); "
                               f"start a scheduler there (dask scheduler --port {port}) or fix the address")
        if last is None or isinstance(last, TimeoutError):
            raise ParameterError(f"{where}: no answer from {host}:{port} within {timeout:g} s")
        raise ParameterError(f"{where}: cannot connect to {host}:{port}: {last.strerror or last}")
    with sock:
        head = _recv(sock, 8, deadline)
        not_dask = f"{where}: what listens at {host}:{port} is not a Dask scheduler"
        if len(head) < 8:
            if time.monotonic() >= deadline:
                raise ParameterError(f"{not_dask}: it sent no Dask greeting within {timeout:g} s")
            raise ParameterError(f"{not_dask}: it closed the connection without the Dask greeting")
        (n,) = struct.unpack("<Q", head)
        if not 16 <= n <= 1 << 20:
            raise ParameterError(f"{not_dask} (it answered {head!r}...)")
        body = _recv(sock, n, deadline)
        if len(body) < n:
            raise ParameterError(f"{not_dask}: its greeting was cut short")
        (frames,) = struct.unpack_from("<Q", body)
        if not 1 <= frames <= 1024 or 8 + 8 * frames > n:
            raise ParameterError(f"{not_dask} (its greeting is not framed as Dask's)")
    return norm


def check_backend(backend: str, workers: int | None, scheduler: str | None) -> tuple[str, int]:
    """Validate the choice of backend and workers; a scheduler address implies Dask.

    Parameters
    ----------
    backend : str
        ``threads``, ``processes`` or ``dask``.
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
        An unknown backend, a malformed address, workers outside 1 to :func:`max_workers`.
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
        ``threads`` (default), ``processes`` or ``dask``.
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
    if backend == "threads":
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


@contextmanager
def _quiet_dask_logs() -> Iterator[None]:
    """Silence Dask's loggers for a while (its own messages are turned into ours)."""
    import logging

    names = ["distributed", *(n for n in logging.root.manager.loggerDict if n.startswith("distributed."))]
    loggers = [logging.getLogger(n) for n in names]
    before = [lg.disabled for lg in loggers]
    for lg in loggers:
        lg.disabled = True
    try:
        yield
    finally:
        for lg, was in zip(loggers, before):
            lg.disabled = was


def _dask_client(workers: int, scheduler: str | None):
    try:
        from distributed import Client, LocalCluster
    except ImportError:  # pragma: no cover - distributed is a dependency
        raise BaccaraError("the dask backend needs dask[distributed]: pip install 'dask[distributed]'") from None
    if scheduler is not None:
        address = probe_scheduler(scheduler)
        try:
            with _quiet_dask_logs():  # a peer that greets like Dask and then sends junk: Dask logs CRITICAL
                client = Client(address, timeout=f"{SCHEDULER_TIMEOUT:g}s")
        except (OSError, TimeoutError) as e:
            raise ParameterError(f"--scheduler: cannot reach a Dask scheduler at {scheduler}: {e}") from None
        except Exception as e:  # anything else it sends that the Dask client cannot read
            raise ParameterError(f"--scheduler: what answers at {scheduler} is not a working Dask scheduler "
                                 f"({type(e).__name__}{': ' + str(e) if str(e) else ''})") from None
        try:
            client.wait_for_workers(1, timeout=WORKERS_TIMEOUT)
        except (OSError, TimeoutError):
            client.close()
            raise ParameterError(f"--scheduler: the Dask scheduler at {scheduler} has no workers "
                               f"(none joined within {WORKERS_TIMEOUT:g} s); start some with "
                               f"'dask worker {address}'") from None
        return client, None
    # No dashboard, and its HTTP server on a free port: the default 8787 may be taken ("Port 8787 is
    # already in use"), and nobody looks at it
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                           scheduler_kwargs={"dashboard": False, "dashboard_address": "127.0.0.1:0"},
                           silence_logs=40)
    return Client(cluster), cluster


def _run_dask(job: Job, workers: int, scheduler: str | None, tracker: _Tracker) -> int:
    """Chunks on a Dask cluster, a bounded window of tasks at a time; returns the cluster's threads."""
    from distributed import as_completed as dask_completed

    client, cluster = _dask_client(workers, scheduler)
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
