"""The GPU backend: punto banco on a CUDA GPU, one thread per shoe, the same shoes and results as the CPU.

``--backend gpu`` (``backend="gpu"``) deals a punto banco job
(:class:`~baccara.sim.punto.PuntoJob`, or a count analysis's
:class:`~baccara.sim.count_analysis.CountJob`) with the kernels of
:mod:`baccara.sim._punto_cuda`: every shoe from the same counter-based stream
as on the CPU, so a seeded run gives the same integers on the GPU as on one
thread, shoe for shoe (``--out`` rows too).  It covers every deal (cut card,
continuous shuffler, infinite shoe), every drawing tableau, every built-in or
TOML bet (pairs too), count-driven bets, and the histogram of ``count
design`` (:func:`count_histogram_gpu`).  The perfect counter prices each
decision with the exact engine in Python: it runs on the CPU.

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

import importlib
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from math import ceil

import numpy as np

from ..errors import ParameterError
from ..punto.bets import Bet
from ..rules import PUNTO_BANCO, Tableau
from .results import ChunkResult, column_sums

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
#: The most bytes of rows one launch returns (``--out``).
ROWS_BYTES = 1 << 28
_SAFE = 2**62


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
        The reason (a game other than punto banco, the perfect counter), or None.
    """
    from .count_analysis import CountJob  # lazy: the count analysis loads the exact engine
    from .punto import PuntoJob  # lazy: punto imports the CPU runner, which imports this module lazily

    if isinstance(job, PuntoJob | CountJob):
        if job.perfect:
            return ("--backend gpu: the perfect counter prices every decision with the exact engine on the CPU; "
                    "run it with --backend threads or processes")
        return None
    return (f"--backend gpu deals punto banco (simulate punto, count, count design), not {type(job).__name__}; "
            f"use --backend threads, processes or dask")


# ---------------------------------------------------------------- the job's layout
@dataclass(frozen=True)
class _Layout:
    """What a job's rows are summed into: columns ``sel`` of the kernel's row named ``names``, the products
    ``pairs``; ``finish(index, first, raw rows, seconds)`` is the CPU's chunk result from raw rows."""

    sel: np.ndarray
    names: tuple[str, ...]
    pairs: tuple[tuple[str, str], ...]
    finish: Callable[[int, int, np.ndarray, float], ChunkResult]
    rows: bool


def _pairs_of(sums: dict, names: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """The pairs of columns whose products a chunk's sums hold (``"a*b"`` keys)."""
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


def _layout(job) -> _Layout:
    from . import count_analysis as CA  # lazy: the count analysis loads the exact engine
    from .punto import PuntoJob  # lazy: see unsupported()

    if isinstance(job, PuntoJob):
        ncols = len(job.columns())
        names = tuple(job.columns())
        # the CPU's own chunk result on no rows: the sums (and their keys) the CPU computes
        probe = job.chunk_result(0, 0, np.zeros((0, ncols), dtype=np.int64), 0.0, {})
        return _Layout(np.arange(ncols, dtype=np.int64), names, _pairs_of(probe.sums, names),
                       lambda i, first, raw, secs: job.chunk_result(i, first, raw, secs, {}), job.keep_rows)
    c = 4
    sel = np.array([0, c, c + 1, c + 4, c + 2], dtype=np.int64)  # CountJob.run_chunk's columns

    def finish(i: int, first: int, raw: np.ndarray, secs: float) -> ChunkResult:
        cols = {k: raw[:, s] for k, s in zip(CA.COLUMNS, sel)}
        return ChunkResult(index=i, shoes=raw.shape[0], hands=int(cols["hands"].sum()),
                           sums=column_sums(cols, CA._PAIRS), seconds=secs)

    return _Layout(sel, tuple(CA.COLUMNS), tuple(CA._PAIRS), finish, False)


def _column_bounds(args: tuple, cap: int) -> np.ndarray:
    """The largest absolute value of each column of one shoe's row (``cap`` coups at most)."""
    pay = args[7]
    top = [cap] * 4
    for b in range(pay.shape[1]):
        top += [cap, cap * int(np.abs(pay[:, b]).max()), cap]
    return np.array(top, dtype=object)


# ---------------------------------------------------------------- running
@contextmanager
def _quiet() -> Iterator[None]:
    """The simulator's uint64 arithmetic wraps around as the GPU's does, but NumPy warns of it, in each
    simulated thread: those warnings are silenced for the launch (the threads end with it)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", r"overflow encountered in scalar", RuntimeWarning,
                                r"baccara\.sim\._punto_cuda")
        yield


def _config(shoes: int) -> tuple[int, int]:
    """(blocks, threads per block) for a launch of ``shoes`` shoes."""
    from numba import cuda

    if simulator():
        return max(1, ceil(shoes / SIMULATOR_THREADS)), SIMULATOR_THREADS
    sms = cuda.get_current_device().MULTIPROCESSOR_COUNT
    return max(1, min(ceil(shoes / THREADS), sms * BLOCKS_PER_SM)), THREADS


class _Plan:
    """A job's kernel, its arguments on the device, and how many shoes a launch deals."""

    def __init__(self, job, launch: int | None) -> None:
        from numba import cuda

        from . import _punto_cuda as C  # lazy: numba-cuda, only for the GPU backend
        from . import punto as P  # lazy: see unsupported()

        self.job, self.layout = job, _layout(job)
        args = job.kernel_args()
        (template, cut, mode, _shuffle, coups, pdraw, bdraw, pay, when, lo, hi, tags, initial, cls, kwin, kpay,
         fold) = args
        self.ncols = 4 + 3 * pay.shape[1]
        shoe = job if isinstance(job, P.PuntoJob) else job.punto  # a CountJob's shoe
        cap = P.max_coups(shoe.decks, shoe.deal, shoe.cut, shoe.coups)
        top = _column_bounds(args, cap)
        sel, names = self.layout.sel, self.layout.names
        index = {nm: int(s) for nm, s in zip(names, sel)}
        pa = np.array([index[a] for a, _ in self.layout.pairs], dtype=np.int64)
        pb = np.array([index[b] for _, b in self.layout.pairs], dtype=np.int64)
        # the per-launch sums must fit int64: a bound on each sum over `shoes` shoes
        worst = max([top[s] for s in sel] + [top[a] * top[b] for a, b in zip(pa, pb)] + [1])
        default = SIMULATOR_LAUNCH_SHOES if simulator() else LAUNCH_SHOES
        self.launch = launch or default
        self.rows = self.layout.rows or worst * self.launch >= _SAFE
        if self.rows:
            self.launch = max(1, min(self.launch, ROWS_BYTES // (8 * self.ncols)))
        nsums = sel.size + pa.size
        fast = P._values_args(job) if isinstance(job, P.PuntoJob) else None
        dev = cuda.to_device
        self.args: tuple
        if fast is not None:  # flat bets blind to pairs: a shoe of values, a coup one look-up
            vtemplate, _, ctab, kwin2, kpay2 = fast
            self.kernel = C.values_kernel(int(vtemplate.size), int(kwin2.size), self.ncols, nsums, self.rows)
            self.args = (dev(vtemplate), int(cut), dev(ctab.astype(np.int16)), dev(kwin2), dev(kpay2),
                         dev(np.ones(pay.shape[1], dtype=np.bool_)), dev(sel), dev(pa), dev(pb))
        else:
            loose = not bool(np.all(fold))
            counting = bool(np.any(when != 0))
            self.kernel = C.general_kernel(int(template.size), int(kwin.size), self.ncols, nsums, self.rows)
            self.args = (dev(template), int(cut), int(mode), int(coups), dev(pdraw), dev(bdraw), dev(pay),
                         dev(when), dev(lo), dev(hi), dev(tags), float(initial), dev(cls), dev(kwin), dev(kpay),
                         dev(fold), loose, counting, dev(sel), dev(pa), dev(pb))
        self.nsums = nsums
        self.fast = fast is not None

    def rows_or_sums(self, first: int, n: int) -> tuple[np.ndarray | None, np.ndarray | None]:
        """Deal shoes ``first .. first + n - 1``: (their raw rows, None) or (None, the launch's sums)."""
        from numba import cuda

        out = cuda.device_array((n, self.ncols) if self.rows else (1, 1), dtype=np.int64)
        sums = cuda.to_device(np.zeros(max(self.nsums, 1), dtype=np.int64))
        blocks, threads = _config(n)
        with _quiet():
            self.kernel[blocks, threads](self.job.seed, first, n, *self.args, out, sums)
        cuda.synchronize()
        if self.rows:
            return out.copy_to_host(), None
        return None, sums.copy_to_host()

    def chunk(self, index: int, first: int, n: int) -> ChunkResult:
        """One launch as a chunk result: the same sums (and rows) as the CPU's chunks of these shoes."""
        t0 = time.perf_counter()
        raw, sums = self.rows_or_sums(first, n)
        if raw is not None:
            return self.layout.finish(index, first, raw, time.perf_counter() - t0)
        assert sums is not None
        names, ns = self.layout.names, self.layout.sel.size
        out = {nm: int(sums[k]) for k, nm in enumerate(names)}
        for k, (a, b) in enumerate(self.layout.pairs):
            out[f"{a}*{b}"] = int(sums[ns + k])
        return ChunkResult(index=index, shoes=n, hands=out[names[0]], sums=out, seconds=time.perf_counter() - t0)


def run_gpu(job, done: Callable[[ChunkResult], None], launch: int | None = None) -> int:
    """Deal every shoe of ``job`` on the GPU, handing each launch's result to ``done`` in order.

    Parameters
    ----------
    job : PuntoJob or CountJob
        A punto banco job (not the perfect counter).
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
    k = 0
    for first in range(0, job.shoes, plan.launch):
        done(plan.chunk(k, first, min(plan.launch, job.shoes - first)))
        k += 1
    return k


def punto_rows_gpu(job, first: int, n: int) -> np.ndarray:
    """The raw rows of shoes ``first .. first + n - 1`` dealt on the GPU.

    The rows :func:`baccara.sim._punto_kernel.punto_chunk` writes for the job's
    :meth:`kernel_args`: hands, Banker, Player, tie, then placed, net, wins of each bet.

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
    plan = _Plan(job, None)
    if not plan.rows:
        plan = _Plan(_with_rows(job), None)
    raw, _ = plan.rows_or_sums(first, n)
    assert raw is not None
    return raw


def _with_rows(job):
    from dataclasses import replace

    from .punto import PuntoJob  # lazy: see unsupported()

    if isinstance(job, PuntoJob):
        return replace(job, keep_rows=True)
    raise ParameterError("punto_rows_gpu: rows of a count analysis are its kernel's; use a PuntoJob")


def count_histogram_gpu(system, bet: Bet, decks: int, cut: int, shoes: int, seed: int, running: bool = False,
                        tableau: Tableau = PUNTO_BANCO, low: float = -40.0, high: float = 40.0,
                        step: float = 0.5) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """:func:`baccara.sim.count_design.count_histogram` on the GPU: the same bins, coups and net, exactly.

    Parameters
    ----------
    system : CountSystem
        Its tags and initial count.
    bet : Bet
        The bet.
    decks, cut, shoes, seed : int
        The shoe, the cards behind the cut card, how many shoes, the seed.
    running : bool
        Bin the running count (default: the true count).
    tableau : Tableau
        The drawing rules.
    low, high, step : float
        The bins.

    Returns
    -------
    tuple
        The bins' lower edges, coups per bin, net per bin (units of 1 / den), den.
    """
    from numba import cuda

    from . import _punto_cuda as C  # lazy: numba-cuda, only for the GPU backend
    from .punto import bet_table, check_deal, check_seed, check_shoes  # lazy: see unsupported()
    from .shoe_deal import deck_template

    check_gpu()
    check_seed(seed)
    check_shoes(shoes)
    check_deal(decks, "cut", cut, 0)
    edges = np.arange(low, high, step)
    pay, dens = bet_table((bet,))
    template = deck_template(decks)
    kernel = C.histogram_kernel(int(template.size), int(edges.size))
    hn = cuda.to_device(np.zeros(edges.size, dtype=np.int64))
    hv = cuda.to_device(np.zeros(edges.size, dtype=np.int64))
    dev = cuda.to_device
    args = (dev(template), int(cut), dev(tableau.player_array), dev(tableau.banker_array),
            dev(np.ascontiguousarray(pay[:, 0])), dev(system.tag_array()), float(system.start(decks)), bool(running),
            float(low), float(step), hn, hv)
    launch = SIMULATOR_LAUNCH_SHOES if simulator() else LAUNCH_SHOES
    for first in range(0, shoes, launch):
        n = min(launch, shoes - first)
        blocks, threads = _config(n)
        with _quiet():
            kernel[blocks, threads](seed, first, n, *args)
    cuda.synchronize()
    return edges, hn.copy_to_host(), hv.copy_to_host(), dens[0]


__all__ = ["NEEDS", "check_gpu", "count_histogram_gpu", "gpu_status", "punto_rows_gpu", "run_gpu", "simulator",
           "unsupported"]
