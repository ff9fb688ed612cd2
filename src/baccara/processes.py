"""Where long work runs: worker processes here or a Dask cluster.

Every parallel routine in baccara (the simulator, ``chemin prove`` over a range of decks, the
banque events check) gets its workers here: :func:`executor` is one ``concurrent.futures``
executor whatever the backend, so a routine is written once and gives the same answer on
processes of this machine or on a cluster.

How the worker processes start (:func:`start_method`): on Linux, from a process that runs one
Python thread, they are *forked*: a child then has this process's imports and compiled kernels already
and costs almost nothing to start.  Anywhere else they are *spawned*: a forked child inherits the
parent's locks as they were at the fork, and a parent with other threads (a thread
pool, a logging handler, a progress display) can leave one held, so the child would wait for ever.
A spawned child imports the caller's main module again instead, which is harmless except for a
plain script that calls the library at its top level: there :func:`process_pool` refuses with a
clear error instead of a ``BrokenProcessPool``.
"""

from __future__ import annotations

import ast
import contextlib
import multiprocessing
import os
import socket
import struct
import sys
import threading
import time
import warnings
from collections.abc import Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass

from .errors import BaccaraError, ParameterError

#: Seconds to wait for a scheduler's greeting, and for a cluster to have a worker.
SCHEDULER_TIMEOUT = 5.0
WORKERS_TIMEOUT = 10.0


#: The environment variable that chooses how worker processes start (:func:`start_method`).
START_METHOD_VARIABLE = "BACCARA_START_METHOD"


def default_workers() -> int:
    """All cores."""
    return os.cpu_count() or 1


def cores_busy(workers: int | None = None) -> int:
    """The cores that ``workers`` keep busy at once: workers beyond this machine's cores take turns on them.

    Parameters
    ----------
    workers : int, optional
        Workers asked (default: one a core).

    Returns
    -------
    int
        ``min(workers, cores)``, at least 1.
    """
    return max(1, min(workers or default_workers(), default_workers()))


def max_workers() -> int:
    """The most workers on this machine: twice its cores (more only thrash, and each
    worker process of ``processes`` or a local Dask cluster costs a few hundred MB).

    Returns
    -------
    int
        ``2 * os.cpu_count()``.
    """
    return 2 * default_workers()


def check_workers(workers: object) -> int:
    """``--workers`` as given (an integer, or its digits as text), checked against :func:`max_workers`.

    Every command that takes ``-j/--workers`` checks it here, before any work, so that each accepts
    the same range and says so in the same words.

    Parameters
    ----------
    workers : int or str
        The number of workers.

    Returns
    -------
    int
        The number, 1 to :func:`max_workers`.

    Raises
    ------
    ParameterError
        Not an integer, or outside 1 to :func:`max_workers`.
    """
    n = workers
    if isinstance(workers, str):
        text = workers.strip().replace("_", "")
        n = int(text) if text.isascii() and text.isdigit() else None
    top = max_workers()
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= top:
        shown = repr(workers)
        shown = shown if len(shown) <= 60 else shown[:40] + "..." + shown[-10:]
        raise ParameterError(f"--workers must be an integer from 1 to {top} (twice the {default_workers()} "
                             f"cores of this machine), got {shown}")
    return n


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


def dask_client(workers: int, scheduler: str | None, processes: bool = True):
    """A Dask client: on the scheduler at ``scheduler`` (checked first), or on a local cluster.

    Parameters
    ----------
    workers : int
        Workers of the local cluster (ignored with a scheduler).
    scheduler : str or None
        A Dask scheduler's address, ``tcp://HOST:PORT``; None for a local cluster.
    processes : bool
        Whether the local cluster's workers are processes (each with a nanny), or threads of
        one worker in this process: enough for work whose kernels release the GIL (the
        simulator's), without starting and importing everything in ``2 * workers`` processes.

    Returns
    -------
    tuple
        The client, and the local cluster (None with a scheduler): close both when done.
    """
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
    shape = {"n_workers": workers, "threads_per_worker": 1} if processes else {"n_workers": 1,
                                                                              "threads_per_worker": workers}
    cluster = LocalCluster(**shape, processes=processes, dashboard_address=None,
                           scheduler_kwargs={"dashboard": False, "dashboard_address": "127.0.0.1:0"},
                           silence_logs=40)
    return Client(cluster), cluster


def _is_main_guard(node: ast.stmt) -> bool:
    """Is ``node`` an ``if __name__ == "__main__":`` block (either side of the ``==``)?"""
    if not isinstance(node, ast.If) or not isinstance(node.test, ast.Compare):
        return False
    test = node.test
    if len(test.ops) != 1 or not isinstance(test.ops[0], ast.Eq):
        return False
    sides = [test.left, test.comparators[0]]
    names = [s for s in sides if isinstance(s, ast.Name) and s.id == "__name__"]
    words = [s for s in sides if isinstance(s, ast.Constant) and s.value == "__main__"]
    return len(names) == 1 and len(words) == 1


def spawn_is_safe() -> bool:
    """Can this process start worker processes (``spawn``) without them re-running the caller's code?

    A spawned worker imports the main module again (as ``__mp_main__``) before it takes any
    task.  That is harmless for an interactive session, a notebook, ``python -c``,
    ``python -m package`` and the ``baccara`` command, and for a script whose call sits
    under ``if __name__ == "__main__":``.  A plain script that calls the library at its top
    level would have every worker run that call again and start workers of its own, which
    multiprocessing refuses (``BrokenProcessPool``): there the answer is no.

    Returns
    -------
    bool
        True where worker processes can be started.
    """
    main = sys.modules.get("__main__")
    if main is None:
        return True
    spec_name = getattr(getattr(main, "__spec__", None), "name", None)
    if spec_name is not None and (spec_name == "__main__" or spec_name.endswith(".__main__")):
        return True  # multiprocessing does not re-run a package's __main__
    path = getattr(main, "__file__", None)
    if path is None or not os.path.isfile(path):
        return spec_name is None  # interactive, a notebook, python -c
    frame = sys._getframe(1)
    while frame is not None and not (frame.f_globals is main.__dict__ and frame.f_code.co_name == "<module>"):
        frame = frame.f_back  # type: ignore[assignment]
    if frame is None:
        return False  # called from elsewhere (a thread, a callback): the main module's top level is unknown
    try:
        with open(path, "rb") as f:
            tree = ast.parse(f.read())
    except (OSError, SyntaxError, ValueError):
        return False
    line = frame.f_lineno
    for node in tree.body:
        if node.lineno <= line <= (node.end_lineno or node.lineno):
            return _is_main_guard(node)
    return False


def start_method() -> str:
    """How :func:`process_pool` starts its workers now: ``"fork"`` or ``"spawn"``.

    Forking copies this process, imports and compiled kernels included, so a worker starts in
    milliseconds instead of half a CPU-second.  It is safe where no other thread of this process
    can hold a lock at the fork: on Linux where this process runs one Python thread (a thread pool,
    a progress display, a logging or Dask thread, a notebook's kernel all count).  The native threads
    that may run beside it are fork-safe: BLAS's idle pool is rebuilt in the child, and baccara starts
    no Numba thread pool (none of its kernels is ``parallel``).  Everywhere else: ``"spawn"``.  The
    environment variable ``BACCARA_START_METHOD`` (``fork`` or ``spawn``) overrides the choice, for
    a process whose native threads baccara cannot see.

    Returns
    -------
    str
        The start method.

    Raises
    ------
    ParameterError
        ``BACCARA_START_METHOD`` set to anything else.
    """
    asked = os.environ.get(START_METHOD_VARIABLE, "").strip().lower()
    if asked:
        if asked not in ("fork", "spawn"):
            raise ParameterError(f"{START_METHOD_VARIABLE} must be fork or spawn, got {asked!r}")
        return asked
    return "fork" if sys.platform.startswith("linux") and threading.active_count() == 1 else "spawn"


def processes_can_start() -> bool:
    """Can this process start worker processes now: forked (:func:`start_method`), or spawned where that
    does not re-run the caller's script (:func:`spawn_is_safe`)?

    Returns
    -------
    bool
        True where :func:`process_pool` starts its workers.
    """
    return start_method() == "fork" or spawn_is_safe()


def process_pool(workers: int, what: str = "this call") -> ProcessPoolExecutor:
    """A pool of ``workers`` processes (use it as a context manager), forked or spawned (:func:`start_method`).

    Forked workers are all started here, before the pool's own threads exist.

    Parameters
    ----------
    workers : int
        Processes in the pool (at least 1).
    what : str
        What starts them, for the error message.

    Returns
    -------
    concurrent.futures.ProcessPoolExecutor
        The pool.

    Raises
    ------
    ParameterError
        Where spawned workers would re-run the caller's script (:func:`spawn_is_safe`).
    """
    method = start_method()
    if method == "spawn" and not spawn_is_safe():
        raise ParameterError(f"{what} starts worker processes, which re-run the main script: call it under "
                             f"'if __name__ == \"__main__\":' (or use one worker)")
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context(method))
    if method == "fork":
        with warnings.catch_warnings():
            # Python 3.12+ warns of a fork wherever the operating system counts more than one thread, as it does
            # beside BLAS's idle pool: start_method() has seen to the Python threads that could hold a lock
            warnings.filterwarnings("ignore", message=r".*use of fork\(\) may lead to deadlocks",
                                    category=DeprecationWarning)
            pool.submit(os.getpid).result()  # forks every worker now, while this process has one thread
    return pool


#: The backends of the long proofs and checks (the simulator adds ``threads``).
PROOF_BACKENDS = ("processes", "dask")


@dataclass(frozen=True)
class Workers:
    """How many workers a long proof or check takes, and where they run.

    Parameters
    ----------
    count : int
        Processes here, or the workers of a local Dask cluster.
    backend : str
        ``processes`` or ``dask``.
    scheduler : str, optional
        A checked Dask scheduler's address (its cluster's workers run the work).
    """

    count: int = 1
    backend: str = "processes"
    scheduler: str | None = None

    @property
    def parallel(self) -> bool:
        """Whether the work leaves this process."""
        return self.count > 1 or self.backend == "dask" or self.scheduler is not None

    def executor(self, what: str) -> contextlib.AbstractContextManager[Executor]:
        """:func:`executor` for these workers.

        Parameters
        ----------
        what : str
            What starts them, for error messages.

        Returns
        -------
        context manager of concurrent.futures.Executor
            The executor.
        """
        return executor(self.count, self.backend, self.scheduler, what)


#: One process, this one: the default of every check.
HERE = Workers()


@contextmanager
def executor(workers: int, backend: str = "processes", scheduler: str | None = None,
             what: str = "this call") -> Iterator[Executor]:
    """A ``concurrent.futures`` executor on ``workers`` processes here, or on a Dask cluster.

    Parameters
    ----------
    workers : int
        Processes here, or the local Dask cluster's workers (ignored with a scheduler).
    backend : str
        ``processes`` (spawned, :func:`process_pool`) or ``dask``.
    scheduler : str, optional
        A Dask scheduler's address, ``tcp://HOST:PORT`` (implies ``dask``); without one, ``dask``
        starts a local cluster.
    what : str
        What starts the workers, for error messages.

    Yields
    ------
    concurrent.futures.Executor
        ``submit`` and ``map`` as usual; closed (and a local cluster shut down) on exit.
    """
    if scheduler is not None or backend == "dask":
        if scheduler is None and not spawn_is_safe():
            process_pool(workers, what)  # raises the plain-script error
        client, cluster = dask_client(workers, scheduler)
        try:
            with client.get_executor() as pool:
                yield pool
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
    else:
        with process_pool(workers, what) as pool:
            yield pool


__all__ = ["HERE", "PROOF_BACKENDS", "Workers", "cores_busy", "dask_client", "default_workers", "executor", "max_workers", "parse_scheduler",
           "probe_scheduler", "process_pool", "processes_can_start", "spawn_is_safe",
           "START_METHOD_VARIABLE", "start_method"]
