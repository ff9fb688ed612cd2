"""The GPU backend: punto banco on a CUDA GPU, one thread per shoe, the same shoes and results as the CPU.

``--backend gpu`` (``backend="gpu"``) deals a punto banco job
(:class:`~baccara.sim.punto.PuntoJob`, or a count analysis's
:class:`~baccara.sim.count_analysis.CountJob`) with the kernels of
:mod:`baccara.sim._punto_cuda`: every shoe from the same counter-based stream
as on the CPU, so a seeded run gives the same integers on the GPU as on one
thread, shoe for shoe (``--out`` rows too).  It covers every deal (cut card,
continuous shuffler, infinite shoe), every drawing tableau, every built-in or
TOML bet (pairs too, and bets on the cards themselves: their rule program
read coup by coup by the card engine's functions compiled for the GPU),
count-driven bets, and the histogram of ``count design`` (:func:`histogram_gpu`).

The perfect counter (``--perfect``, and the count analysis's and math report's,
:func:`perfect_ev_gpu`) on bets on card values runs here too, one thread per shoe: each thread deals its shoe and prices every decision with the
exact engine's value-level counts, by the CPU's own code compiled as CUDA
device functions (:func:`baccara.sim._perfect_kernel.device_functions`), so its
rows, decisions and sums are the CPU's compiled perfect counter's.  The count
analysis's keeps each coup's exact expectation as a float: those floats (the
CPU's, to the last bit) come back with the rows, and the CPU sums them shoe by
shoe as it sums its own, so its figures are the CPU threads' exactly.  Pair bets
(priced at rank level, by the exact engine in Python) and shoes whose exact
counts could pass 64-bit integers stay on the CPU: ``--backend gpu`` says so.

A job the GPU can deal says how, by :meth:`gpu_layout` (a :class:`GpuLayout`:
its kernel's arguments and how its rows are summed), so this module imports
no job: the runner (:mod:`baccara.sim.distributed`) loads it lazily.

The totals of many shoes are added on the GPU, exactly (integer atomics), and
only they come back, launch by launch: a launch is one
:class:`~baccara.sim.results.ChunkResult` of the run.  Rows come back only
for ``--out`` (or where the sums of a launch could overflow 64 bits; the exact
sums are then taken on the CPU).

It needs numba-cuda (``pip install 'baccara[gpu]'``) and a CUDA GPU; with
``NUMBA_ENABLE_CUDASIM=1`` in the environment before Numba is first imported,
the kernels run on numba-cuda's CUDA simulator instead (slowly: for tests).
Nothing else in baccara imports numba-cuda.
"""

from __future__ import annotations

import dataclasses
import importlib
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from math import ceil

import numpy as np

from ..errors import ParameterError
from ..punto.cardengine import rule_program
from ..workload import Sizing, size_to_budget
from .limits import GPU_PERFECT_PAIRS, size_on_gpu
from .results import ChunkResult

#: How to get a GPU backend.
NEEDS = ("--backend gpu needs numba-cuda and a CUDA GPU: pip install 'baccara[gpu]' on a machine with an NVIDIA "
         "GPU and its driver (or set NUMBA_ENABLE_CUDASIM=1 before starting Python to run the GPU kernels on "
         "numba-cuda's CUDA simulator, slowly, for testing)")
#: Shoes per launch on a GPU (the totals of each launch come back as one chunk), and in the simulator.
LAUNCH_SHOES, SIMULATOR_LAUNCH_SHOES = 1 << 22, 64
#: Threads per block on a GPU, and in the simulator (each simulated thread is a Python thread).
THREADS, SIMULATOR_THREADS = 128, 8
#: Blocks per multiprocessor: enough threads to hide memory latency; each thread deals several shoes.
BLOCKS_PER_SM = 16
#: The perfect counter: shoes per launch (some tens of milliseconds of a GPU thread each), and blocks per
#: multiprocessor (each thread's work arrays, some 110 KB at most, are allocated for the launch's threads).
PERFECT_LAUNCH_SHOES, PERFECT_BLOCKS_PER_SM = 1 << 16, 4
#: The most bytes of rows one launch returns (``--out``).
ROWS_BYTES = 1 << 28
_SAFE = 2**62
#: The most cards of a shoe on the GPU: each thread holds its shoe in local memory, reserved for every thread
#: the GPU can hold at once (100 decks: 5,200 bytes a thread, some 1.4 GB on an H200).
MAX_GPU_DECKS = 100


def simulator() -> bool:
    """Whether Numba runs CUDA kernels on its simulator (``NUMBA_ENABLE_CUDASIM=1`` when Numba was imported).

    Returns
    -------
    bool
        True under the simulator.
    """
    from numba import config

    return bool(getattr(config, "ENABLE_CUDASIM", False))


def gpu_status() -> str | None:
    """Why the GPU backend cannot run here, or None when it can (a GPU, or the simulator).

    Returns
    -------
    str or None
        The reason (numba-cuda missing, no GPU or driver), or None.
    """
    try:
        cuda = importlib.import_module("numba.cuda")
    except ImportError as e:  # numba-cuda not installed (and no CUDA target in Numba)
        return f"numba-cuda is not installed ({e})"
    if simulator():
        return None
    try:
        ok = bool(cuda.is_available())
    except Exception as e:  # a broken driver or toolkit: say what it said  # noqa: BLE001
        return f"CUDA is not usable here ({type(e).__name__}: {e})"
    return None if ok else "no CUDA GPU (or no driver) was found on this machine"


def check_gpu() -> None:
    """Raise a clear error unless the GPU backend can run here.

    Raises
    ------
    ParameterError
        Naming ``--backend gpu`` and what it needs.
    """
    reason = gpu_status()
    if reason is not None:
        raise ParameterError(f"{NEEDS}; {reason}")


def unsupported(job) -> str | None:
    """Why the GPU cannot deal ``job``, or None when it can.

    Parameters
    ----------
    job : Job
        A simulation job.

    Returns
    -------
    str or None
        The reason (a game other than punto banco, the perfect counter on pair bets or on a shoe whose exact
        counts could overflow 64-bit integers), or None.
    """
    if not hasattr(job, "gpu_layout"):
        return (f"--backend gpu deals punto banco (simulate punto, count, count design), not "
                f"{type(job).__name__}; use --backend threads, processes or dask")
    if getattr(job, "perfect", False) and job.gpu_layout().perfect_args is None:
        refusal = getattr(job, "gpu_perfect_refusal", None)  # pair bets, or counts past 64-bit integers
        return (refusal() if refusal is not None else None) or GPU_PERFECT_PAIRS
    return None


# ---------------------------------------------------------------- the job's layout
@dataclass(frozen=True)
class GpuLayout:
    """What a punto banco job gives the GPU: its kernel's arguments and how its rows are summed.

    Parameters
    ----------
    kernel_args : tuple
        The arguments of :func:`baccara.sim._punto_kernel.punto_chunk` after ``seed, first, out``.
    values_args : tuple or None
        Those of :func:`baccara.sim._punto_kernel.punto_values_chunk`, where that fast path deals the job.
    cap : int
        The most coups one shoe can hold.
    sel : tuple of int
        The kernel row's columns that the job sums, named ``names``.
    names : tuple of str
        Their names.
    pairs : tuple of (str, str)
        The pairs of columns whose products the job sums (:func:`baccara.sim.results.column_sums`).
    finish : callable
        ``finish(index, first, raw rows, seconds) -> ChunkResult``: the CPU's chunk result from raw rows.
    rows : bool
        The job keeps one row per shoe (``--out``).
    perfect_args : tuple or None
        Those of :func:`baccara.sim._perfect_kernel.perfect_chunk` after ``seed, first, out``, where the job is
        the perfect counter on bets on card values (the GPU deals it with :func:`baccara.sim._punto_cuda.perfect_kernel`);
        for the count analysis's (``perfect_ev``), those of :func:`baccara.sim._perfect_kernel.perfect_ev_chunk`
        after ``seed, first, out, evs`` and before ``price_all``.
    perfect_ev : callable or None
        The count analysis's perfect counter (:func:`baccara.sim._punto_cuda.perfect_ev_kernel`):
        ``perfect_ev(index, first, table, evs, seconds) -> ChunkResult`` from each shoe's row and each coup's
        expectation (``evs[i, j]``), summed on the CPU as the CPU's chunks sum them.
    price_all : bool
        With ``perfect_ev``: price every coup (:func:`baccara.sim._perfect_kernel.perfect_shoe`).
    """

    kernel_args: tuple
    values_args: tuple | None
    cap: int
    sel: tuple[int, ...]
    names: tuple[str, ...]
    pairs: tuple[tuple[str, str], ...]
    finish: Callable[[int, int, np.ndarray, float], ChunkResult]
    rows: bool
    perfect_args: tuple | None = None
    perfect_ev: Callable[[int, int, np.ndarray, np.ndarray, float], ChunkResult] | None = None
    price_all: bool = False


def pairs_of(sums: dict, names: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """The pairs of columns whose products a chunk's sums hold (the ``"a*b"`` keys of
    :func:`baccara.sim.results.column_sums`), in order.

    Parameters
    ----------
    sums : dict
        A chunk's sums.
    names : tuple of str
        The columns.

    Returns
    -------
    tuple of (str, str)
        The pairs.
    """
    out = []
    for key in sums:
        if key in names:
            continue
        pair = next(((a, key[len(a) + 1:]) for a in names if key.startswith(a + "*") and key[len(a) + 1:] in names),
                    None)
        if pair is None:
            raise ValueError(f"cannot read the sum {key!r} as a product of columns")
        out.append(pair)
    return tuple(out)


def _check_size(cards: int) -> None:
    if cards > 52 * MAX_GPU_DECKS:
        raise ParameterError(f"--backend gpu deals shoes of at most {MAX_GPU_DECKS} decks (each GPU thread holds its "
                             f"shoe), got {cards // 52:,}; use --backend threads, processes or dask")


def _card_args(nb: int, card: np.ndarray | None, cpay: np.ndarray | None,
               prog: tuple[np.ndarray, ...] | None) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, ...]]:
    """The general kernel's bets on the cards (``card``, ``cpay``, the rule program's arrays), or, with none
    (``card`` None), arrays of the same types that no coup reads: a kernel takes arrays, not None."""
    if card is not None:
        assert cpay is not None and prog is not None
        return np.ascontiguousarray(card), np.ascontiguousarray(cpay), tuple(np.ascontiguousarray(a) for a in prog)
    empty = rule_program(()).arrays
    return (np.full(nb, -1, dtype=np.int64), np.zeros((nb, 1), dtype=np.int64),
            tuple(np.zeros((max(a.shape[0], 1), *a.shape[1:]), dtype=a.dtype) for a in empty))


def _column_bounds(args: tuple, cap: int, cpay: np.ndarray | None = None) -> list[int]:
    """The largest absolute value of each column of one shoe's row (``cap`` coups at most; ``cpay``: the
    payouts of the bets on the cards themselves)."""
    pay = args[7]
    top = [cap] * 4
    for b in range(pay.shape[1]):
        most = int(np.abs(pay[:, b]).max())
        if cpay is not None:
            most = max(most, int(np.abs(cpay[b]).max()))
        top += [cap, cap * most, cap]
    return top


# ---------------------------------------------------------------- running
@contextmanager
def _quiet() -> Iterator[None]:
    """The simulator's uint64 arithmetic wraps around as the GPU's does, but NumPy warns of it, in each
    simulated thread: those warnings are silenced for the launch (the threads end with it)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", r"overflow encountered in scalar", RuntimeWarning,
                                r"baccara\.sim\.(_punto_cuda|shoe_deal)")
        yield


def _config(shoes: int, per_sm: int = BLOCKS_PER_SM) -> tuple[int, int]:
    """(blocks, threads per block) for a launch of ``shoes`` shoes, at most ``per_sm`` blocks a multiprocessor."""
    from numba import cuda

    if simulator():
        return max(1, ceil(shoes / SIMULATOR_THREADS)), SIMULATOR_THREADS
    sms = cuda.get_current_device().MULTIPROCESSOR_COUNT
    return max(1, min(ceil(shoes / THREADS), sms * per_sm)), THREADS


class _Plan:
    """A job's kernel, its arguments on the device, and how many shoes a launch deals."""

    def __init__(self, job, launch: int | None, rows: bool = False) -> None:
        from numba import cuda

        from . import _punto_cuda as C  # lazy: numba-cuda, only for the GPU backend

        self.job = job
        self.layout = lay = job.gpu_layout()
        args = lay.kernel_args
        (template, cut, mode, _shuffle, coups, pdraw, bdraw, pay, when, lo, hi, tags, initial, cls, kwin, kpay,
         fold, card, cpay, prog) = args
        args = args[:17]
        _check_size(template.size)
        self.ncols = 4 + 3 * pay.shape[1]
        top = _column_bounds(args, lay.cap, cpay)
        index = dict(zip(lay.names, lay.sel))
        sel = np.array(lay.sel, dtype=np.int64)
        pa = np.array([index[a] for a, _ in lay.pairs], dtype=np.int64)
        pb = np.array([index[b] for _, b in lay.pairs], dtype=np.int64)
        # the sums of a launch must fit int64: a bound on each of them (Python integers)
        worst = max([top[s] for s in lay.sel] + [top[a] * top[b] for a, b in zip(pa, pb)] + [1])
        self.perfect = lay.perfect_args is not None
        self.ev = lay.perfect_ev is not None  # the count analysis's: rows and every coup's expectation come back
        self.launch = launch or (SIMULATOR_LAUNCH_SHOES if simulator() else
                                 PERFECT_LAUNCH_SHOES if self.perfect else LAUNCH_SHOES)
        self.rows = rows or lay.rows or worst * self.launch >= _SAFE or self.ev
        if self.rows:
            width = len(lay.sel) + lay.cap if self.ev else self.ncols
            self.launch = max(1, min(self.launch, ROWS_BYTES // (8 * width)))
        self.nsums = sel.size + pa.size
        dev = cuda.to_device
        self.args: tuple
        self.tail: tuple = ()
        self.work: tuple = ()
        self.work_threads = 0
        self.taken = None
        self.per_sm = BLOCKS_PER_SM
        if lay.perfect_args is not None:  # the perfect counter: the CPU's code, a shoe a thread
            (template, cut, every, pdraw, bdraw, pay, base, dv, other, both, dense, rising,
             full) = lay.perfect_args[:13]
            nb = pay.shape[1]
            self.per_sm = PERFECT_BLOCKS_PER_SM
            self.kernel = (C.perfect_ev_kernel(self.ncols) if self.ev else
                           C.perfect_kernel(self.ncols, self.nsums, self.rows, nb))
            self.work_shapes = C.perfect_work_shapes(int(template.size), lay.cap)
            self.dense = bool(dense)
            self.taken = cuda.device_array(2, dtype=np.int64)
            self.args = (dev(template), int(cut), int(every), dev(pdraw), dev(bdraw), dev(pay), dev(base), dev(dv),
                         dev(other), dev(both), bool(dense), bool(rising), dev(full))
            self.tail = ((dev(np.ascontiguousarray(lay.perfect_args[13], dtype=np.float64)), bool(lay.price_all))
                         if self.ev else (dev(np.zeros((0, nb), dtype=np.float64)), dev(np.ones(nb, dtype=np.float64)),
                                          dev(sel), dev(pa), dev(pb)))
        elif lay.values_args is not None:  # flat bets blind to pairs: a shoe of values, a coup one look-up
            vtemplate, _, ctab, kwin2, kpay2 = lay.values_args
            self.kernel = C.values_kernel(int(vtemplate.size), int(kwin2.size), self.ncols, self.nsums, self.rows)
            self.args = (dev(vtemplate), int(cut), dev(ctab.astype(np.int16)), dev(kwin2), dev(kpay2),
                         dev(np.ones(pay.shape[1], dtype=np.bool_)), dev(sel), dev(pa), dev(pb))
        else:
            loose = not bool(np.all(fold))
            counting = bool(np.any(when != 0))
            card, cpay, prog = _card_args(pay.shape[1], card, cpay, prog)
            ncard = int(np.count_nonzero(card >= 0))
            self.kernel = C.general_kernel(int(template.size), int(kwin.size), self.ncols, self.nsums, self.rows,
                                           int(prog[0].size) if ncard else 0)
            self.args = (dev(template), int(cut), int(mode), int(coups), dev(pdraw), dev(bdraw), dev(pay),
                         dev(when), dev(lo), dev(hi), dev(tags), float(initial), dev(cls), dev(kwin), dev(kpay),
                         dev(fold), loose, counting, ncard, dev(card), dev(cpay), *(dev(a) for a in prog),
                         dev(sel), dev(pa), dev(pb))
        self.fast = lay.values_args is not None
        #: The perfect counter's decisions taken and priced in the latest launch.
        self.decisions = (0, 0)

    def perfect_ev(self, first: int, n: int) -> tuple[np.ndarray, np.ndarray]:
        """The count analysis's perfect counter on shoes ``first .. first + n - 1``: each shoe's row (the
        layout's columns) and each coup's expectation (``evs[i, j]``, NaN past the shoe's coups)."""
        return self.perfect_ev_collect(self.perfect_ev_launch(first, n))

    def perfect_ev_launch(self, first: int, n: int) -> tuple:
        """Start :meth:`perfect_ev` on shoes ``first .. first + n - 1`` and return at once (a kernel launch is
        asynchronous): the CPU may work until :meth:`perfect_ev_collect` of the returned handle waits for it.
        One launch at a time: collect it before the next launch."""
        from numba import cuda

        out = cuda.device_array((n, len(self.layout.sel)), dtype=np.int64)
        evs = cuda.device_array((n, self.layout.cap, 1), dtype=np.float64)
        blocks, threads = _config(n, self.per_sm)
        assert self.taken is not None
        self.taken.copy_to_device(np.zeros(2, dtype=np.int64))
        self._perfect_work(blocks * threads)
        with _quiet():
            self.kernel[blocks, threads](self.job.seed, first, n, *self.args, *self.work, *self.tail, out, evs,
                                         self.taken)
        return n, out, evs

    def perfect_ev_collect(self, launched: tuple) -> tuple[np.ndarray, np.ndarray]:
        """Wait for a launch of :meth:`perfect_ev_launch` and bring its rows and expectations back."""
        from numba import cuda

        n, out, evs = launched
        cuda.synchronize()
        assert self.taken is not None
        d, p = self.taken.copy_to_host().tolist()
        self.decisions = (int(d), int(p))
        return out.copy_to_host(), evs.copy_to_host().reshape(n, self.layout.cap)

    def perfect_ev_overlapped(self, first: int, n: int) -> Iterator[tuple[int, np.ndarray, np.ndarray, float]]:
        """:meth:`perfect_ev` on shoes ``first .. first + n - 1``, launch by launch, each handed on once the next
        is running (the caller's work on one overlaps the GPU's on the next): ``(lo, rows, evs, seconds)`` for
        shoes ``first + lo ..``, ``seconds`` from its launch to its collection."""
        ready: tuple[int, np.ndarray, np.ndarray, float] | None = None
        for lo in range(0, n, self.launch):
            t0 = time.perf_counter()
            launched = self.perfect_ev_launch(first + lo, min(self.launch, n - lo))
            if ready is not None:
                yield ready
            table, evs = self.perfect_ev_collect(launched)
            ready = (lo, table, evs, time.perf_counter() - t0)
        if ready is not None:
            yield ready

    def rows_or_sums(self, first: int, n: int) -> tuple[np.ndarray | None, np.ndarray | None]:
        """Deal shoes ``first .. first + n - 1``: (their raw rows, None) or (None, the launch's sums)."""
        from numba import cuda

        out = cuda.device_array((n, self.ncols) if self.rows else (1, 1), dtype=np.int64)
        sums = cuda.to_device(np.zeros(max(self.nsums, 1), dtype=np.int64))
        blocks, threads = _config(n, self.per_sm)
        taken = () if self.taken is None else (self.taken,)
        if self.taken is not None:
            self.taken.copy_to_device(np.zeros(2, dtype=np.int64))
            self._perfect_work(blocks * threads)
        with _quiet():
            self.kernel[blocks, threads](self.job.seed, first, n, *self.args, *self.work, *self.tail, out, sums,
                                         *taken)
        cuda.synchronize()
        if self.taken is not None:
            d, p = self.taken.copy_to_host().tolist()
            self.decisions = (int(d), int(p))
        if self.rows:
            return out.copy_to_host(), None
        return None, sums.copy_to_host()

    def _perfect_work(self, threads: int) -> None:
        """The perfect counter's work arrays for ``threads`` threads of a grid (kept for the next launches): one
        slice a thread, the thread's index last, a dense plan's arrays only where the plan is dense; ``w`` and
        ``u0`` also as flat slices of the same memory."""
        from numba import cuda

        from . import _punto_cuda as C  # lazy: numba-cuda, only for the GPU backend

        if self.work_threads >= threads:
            return
        self.work = ()  # the old arrays go before the new ones are allocated
        work = {}
        for name in C.PERFECT_WORK:  # the thread's index last: a warp's threads touch adjacent words
            last = threads if self.dense or name not in C.PERFECT_DENSE_WORK else 1
            work[name] = cuda.device_array((*self.work_shapes[name], last),
                                           dtype=np.uint8 if name == "deck" else np.int64)
        flat = tuple(work[k].reshape(int(np.prod(self.work_shapes[k])), threads) for k in ("w", "u0"))
        self.work = (*(work[k] for k in ("deck", "starts", "cells", "w", "u0")), *flat,
                     *(work[k] for k in C.PERFECT_DENSE_WORK))
        self.work_threads = threads

    def chunk(self, index: int, first: int, n: int) -> ChunkResult:
        """One launch as a chunk result: the same sums (and rows) as the CPU's chunks of these shoes (the perfect
        counter's decisions too, without the CPU's ``cpu_microseconds``: no CPU priced them)."""
        t0 = time.perf_counter()
        if self.layout.perfect_ev is not None:
            table, evs = self.perfect_ev(first, n)
            return self.layout.perfect_ev(index, first, table, evs, time.perf_counter() - t0)  # the CPU's extra
        raw, sums = self.rows_or_sums(first, n)
        if raw is not None:
            res = self.layout.finish(index, first, raw, time.perf_counter() - t0)
        else:
            assert sums is not None
            names, ns = self.layout.names, len(self.layout.sel)
            out = {nm: int(sums[k]) for k, nm in enumerate(names)}
            for k, (a, b) in enumerate(self.layout.pairs):
                out[f"{a}*{b}"] = int(sums[ns + k])
            res = ChunkResult(index=index, shoes=n, hands=out[names[0]], sums=out, seconds=time.perf_counter() - t0)
        if self.perfect:
            res.extra = {"evaluations": self.decisions[0], "priced": self.decisions[1]}
        return res


def run_gpu(job, done: Callable[[ChunkResult], None], launch: int | None = None) -> int:
    """Deal every shoe of ``job`` on the GPU, handing each launch's result to ``done`` in order.

    Parameters
    ----------
    job : PuntoJob or CountJob
        A punto banco job (the perfect counter only on bets on card values).
    done : callable
        ``done(chunk)`` for each launch, in order (chunk ``i`` holds the launch's shoes).
    launch : int, optional
        Shoes per launch (default :data:`LAUNCH_SHOES`, or :data:`SIMULATOR_LAUNCH_SHOES` in the simulator).

    Returns
    -------
    int
        The launches.

    Raises
    ------
    ParameterError
        No GPU (nor the simulator), or a job the GPU does not deal.
    """
    check_gpu()
    why = unsupported(job)
    if why is not None:
        raise ParameterError(why)
    plan = _Plan(job, launch)
    finish_ev = plan.layout.perfect_ev
    if finish_ev is not None:  # the count analysis's perfect counter: launch k folded on the CPU while k + 1 runs
        for k, (first, table, evs, seconds) in enumerate(plan.perfect_ev_overlapped(0, job.shoes)):
            done(finish_ev(k, first, table, evs, seconds))
        return ceil(job.shoes / plan.launch)
    k = 0
    for first in range(0, job.shoes, plan.launch):
        done(plan.chunk(k, first, min(plan.launch, job.shoes - first)))
        k += 1
    return k


def estimate_gpu(job, seconds: float = 0.25) -> dict:
    """The job's wall seconds on the GPU here, from short timed launches of its own kernel (a dry run's estimate).

    A first launch of one shoe compiles the kernel (or loads it) and is timed apart; then launches of doubling
    shoes are timed until one lasts ``seconds`` (or deals a full launch, or the job's shoes), and the job's
    launches are predicted at that launch's speed.  Under numba-cuda's CUDA simulator the time is the
    simulator's, on the CPU, which says nothing of a real GPU: ``simulator`` says so.

    Parameters
    ----------
    job : PuntoJob or CountJob
        The job (its rows are not kept while timing).
    seconds : float
        The least duration of the last timed launch.

    Returns
    -------
    dict
        ``device`` (the GPU's name, or the simulator), ``simulator``, ``workers`` (1), ``shoes``, ``hands`` and
        ``timed_seconds`` of the last timed launch, ``start_seconds`` (the first launch: compiling), ``seconds``
        (the job's launches at the timed speed) and ``core_seconds`` (None: not a CPU's work).

    Raises
    ------
    ParameterError
        No GPU (nor the simulator), or a job the GPU does not deal.
    """
    from numba import cuda

    check_gpu()
    why = unsupported(job)
    if why is not None:
        raise ParameterError(why)
    if "keep_rows" in {f.name for f in dataclasses.fields(job)}:
        job = dataclasses.replace(job, keep_rows=False)
    plan = _Plan(job, None)
    t0 = time.perf_counter()
    plan.chunk(0, 0, 1)
    start = time.perf_counter() - t0
    n = 1
    while True:
        got = plan.chunk(0, 0, n)
        if got.seconds >= seconds or n >= min(job.shoes, plan.launch):
            break
        n = min(job.shoes, plan.launch, 8 * n, max(2 * n, int(n * 1.2 * seconds / max(got.seconds, 1e-4))))
    name = "numba-cuda's CUDA simulator" if simulator() else cuda.get_current_device().name
    device = name.decode() if isinstance(name, bytes) else str(name)
    return {"device": device, "simulator": simulator(), "workers": 1, "shoes": got.shoes, "hands": got.hands,
            "timed_seconds": got.seconds, "start_seconds": start, "core_seconds": None,
            "seconds": got.seconds / got.shoes * job.shoes}


def size_gpu_job(job, what: str, decks: int, cut: int, budget: float, least: int, most: int,
                 kind: str = "count") -> Sizing:
    """The shoes of ``job`` that the GPU deals in ``budget`` seconds: at its nominal rate
    (:func:`baccara.sim.limits.size_on_gpu`), or under numba-cuda's CUDA simulator from a short timed launch there.

    The simulator runs each GPU thread in Python on this machine's CPU, milliseconds a shoe where a GPU takes
    nanoseconds: the nominal rate would size a run of seconds to hours.  There the job is timed as a dry run times
    it (:func:`estimate_gpu`, a launch of at most a twentieth of the budget after the one that compiles), and
    its shoes are not held to ``least`` (a real run's floor); the sizing line says "the CUDA simulator".

    Parameters
    ----------
    job : PuntoJob or CountJob
        The job the run deals (its shoes bound the timed launch).
    what : str
        What is sized, for the line.
    decks, cut : int
        The shoe.
    budget : float
        Seconds the run may take.
    least, most : int
        Bounds on the shoes (``least`` a real GPU's floor only).
    kind : str
        The nominal rate, as :func:`baccara.sim.limits.size_on_gpu` takes it.

    Returns
    -------
    Sizing
        The shoes chosen, at the GPU's nominal rate, or measured on the simulator (``Sizing.simulator``).
    """
    if not simulator():
        return size_on_gpu(what, decks, cut, budget, least, most, kind)
    timed = estimate_gpu(job, min(0.2, budget / 20))
    per_shoe = timed["timed_seconds"] / max(timed["shoes"], 1)
    return dataclasses.replace(size_to_budget(what, per_shoe, budget, 1, 1, most), simulator=True)


def punto_rows_gpu(job, first: int, n: int) -> np.ndarray:
    """The raw rows of shoes ``first .. first + n - 1`` dealt on the GPU.

    The rows :func:`baccara.sim._punto_kernel.punto_chunk` writes for the job's
    kernel arguments: hands, Banker, Player, tie, then placed, net, wins of each bet.

    Parameters
    ----------
    job : PuntoJob or CountJob
        The job.
    first, n : int
        The first shoe and how many.

    Returns
    -------
    numpy.ndarray
        (n, 4 + 3 bets) int64.
    """
    check_gpu()
    why = unsupported(job)
    if why is not None:
        raise ParameterError(why)
    raw, _ = _Plan(job, None, rows=True).rows_or_sums(first, n)
    assert raw is not None
    return raw


def perfect_ev_gpu(job, first: int, n: int, every_coup: bool) -> Iterator[tuple[int, np.ndarray, np.ndarray]]:
    """The count analysis's perfect counter on shoes ``first .. first + n - 1`` of ``job``, launch by launch.

    Parameters
    ----------
    job : CountJob
        A perfect-counter job on a bet on card values.
    first, n : int
        The first shoe and how many.
    every_coup : bool
        Price every coup (every coup's expectation), not only the decisions not already settled.

    Yields
    ------
    tuple
        ``(lo, table, evs)``: shoes ``first + lo ..`` of the launch, their rows
        (:data:`baccara.sim.count_analysis.COLUMNS`) and each coup's expectation (``evs[i, j]``), the CPU's
        :func:`baccara.sim._perfect_kernel.perfect_ev_chunk`'s to the last bit; in order, each launch once the
        next is running (the caller's work on one overlaps the GPU's on the next).

    Raises
    ------
    ParameterError
        No GPU (nor the simulator), or a job the GPU does not deal.
    """
    check_gpu()
    job = dataclasses.replace(job, every_coup=every_coup)
    why = unsupported(job)
    if why is not None:
        raise ParameterError(why)
    for lo, table, evs, _ in _Plan(job, None).perfect_ev_overlapped(first, n):
        yield lo, table, evs  # the caller folds this launch on the CPU while the next runs on the GPU


def histogram_gpu(seed: int, shoes: int, template: np.ndarray, cut: int, pdraw: np.ndarray, bdraw: np.ndarray,
                  pay: np.ndarray, tags: np.ndarray, initial: float, running: bool, low: float, step: float,
                  bins: int, card: int = -1, cpay: np.ndarray | None = None,
                  prog: tuple[np.ndarray, ...] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The histogram of :func:`baccara.sim.count_design.count_histogram` (checked arguments) on the GPU.

    Parameters
    ----------
    seed, shoes : int
        The seed and the shoes 0 .. shoes - 1.
    template : numpy.ndarray
        The shoe's card codes (uint8).
    cut : int
        Cards behind the cut card.
    pdraw, bdraw : numpy.ndarray
        The tableau.
    pay : numpy.ndarray
        The bet's payout numerator per cell (int64).
    tags : numpy.ndarray
        The count's tag per rank.
    initial : float
        The count at the top of the shoe.
    running : bool
        Bin the running count (else the true count).
    low, step : float
        Bin k holds counts in [low + k step, low + (k + 1) step); the end bins the rest.
    bins : int
        The bins.
    card : int, optional
        The bet's index in the rule program ``prog`` when it reads the cards themselves (-1: a bet on the cells).
    cpay : numpy.ndarray, optional
        Its net payout numerator at each level of ``prog`` (int64), with ``card``.
    prog : tuple of numpy.ndarray, optional
        The rule program's arrays (:func:`baccara.punto.cardengine.rule_program`), with ``card``.

    Returns
    -------
    tuple of numpy.ndarray
        Coups per bin and the bet's net per bin (int64): the CPU's, exactly.
    """
    from numba import cuda

    from . import _punto_cuda as C  # lazy: numba-cuda, only for the GPU backend

    check_gpu()
    _check_size(template.size)
    on_cards = card >= 0
    cards, cp, arrays = _card_args(1, np.array([card], dtype=np.int64) if on_cards else None,
                                   None if cpay is None else np.asarray(cpay).reshape(1, -1), prog)
    kernel = C.histogram_kernel(int(template.size), int(bins), int(arrays[0].size) if on_cards else 0)
    hn = cuda.to_device(np.zeros(bins, dtype=np.int64))
    hv = cuda.to_device(np.zeros(bins, dtype=np.int64))
    dev = cuda.to_device
    args = (dev(template), int(cut), dev(pdraw), dev(bdraw), dev(np.ascontiguousarray(pay)), dev(tags),
            float(initial), bool(running), float(low), float(step), int(cards[0]), dev(np.ascontiguousarray(cp[0])),
            *(dev(a) for a in arrays), hn, hv)
    launch = SIMULATOR_LAUNCH_SHOES if simulator() else LAUNCH_SHOES
    for first in range(0, shoes, launch):
        n = min(launch, shoes - first)
        blocks, threads = _config(n)
        with _quiet():
            kernel[blocks, threads](seed, first, n, *args)
    cuda.synchronize()
    return hn.copy_to_host(), hv.copy_to_host()


__all__ = ["NEEDS", "GpuLayout", "check_gpu", "estimate_gpu", "gpu_status", "histogram_gpu", "pairs_of",
           "perfect_ev_gpu", "punto_rows_gpu", "run_gpu", "simulator", "unsupported"]
