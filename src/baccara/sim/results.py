"""Chunk results, their exact combination, estimates with standard errors, Parquet.

A job is cut into chunks of a fixed number of shoes (sessions); each chunk
returns integer totals and moment sums (Python ints, exact), a few float
totals (money in chemin de fer), histograms and optionally one row per shoe.
Combining adds integers exactly and float totals with :func:`math.fsum` (the
correctly rounded sum, whatever the order), so the result does not depend on
how many processes or workers ran the chunks, nor in which order they finished.

Standard errors treat shoes (sessions) as independent clusters: for a ratio
Y/X of per-shoe totals y_s, x_s over S shoes,

    se^2 = S / (S - 1) * sum_s (y_s - r x_s)^2 / X^2,   r = Y / X,

computed from the exact sums of y^2, xy and x^2.
"""

from __future__ import annotations

import contextlib
import itertools
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

from ..errors import BaccaraError, ParameterError

if TYPE_CHECKING:
    import numpy as np

_SAFE = 2**62


@dataclass
class ChunkResult:
    """What one chunk of shoes returns, or a span of consecutive chunks folded together (picklable;
    small unless rows are kept).

    ``index`` is the first chunk and ``chunks`` how many follow it.  ``partials`` hold float
    totals exactly, as non-overlapping partial sums (a span folded by a worker), so that the
    total rounds once at the end however the chunks were shared among workers.
    """

    index: int
    shoes: int
    hands: int
    sums: dict[str, int] = field(default_factory=dict)
    floats: dict[str, float] = field(default_factory=dict)
    hists: dict[str, np.ndarray] = field(default_factory=dict)
    rows: dict[str, np.ndarray] | None = None
    seconds: float = 0.0
    extra: dict[str, int] = field(default_factory=dict)
    chunks: int = 1
    partials: dict[str, list[float]] = field(default_factory=dict)


def sums_from_fold(acc: np.ndarray, names: list[str], pairs: list[tuple[str, str]],
                   into: dict[str, int] | None = None) -> dict[str, int]:
    """The tallies a folding kernel left in ``acc`` (column sums, then pair products), as exact ints.

    Parameters
    ----------
    acc : numpy.ndarray
        int64, ``len(names) + len(pairs)`` entries (:func:`baccara.sim._punto_kernel.fold_rows`).
    names : list of str
        The columns summed.
    pairs : list of (str, str)
        The column pairs whose products are summed (keys ``"a*b"``).
    into : dict, optional
        Tallies to add to (returned).

    Returns
    -------
    dict of str to int
        The keys of :func:`column_sums`.
    """
    out = {} if into is None else into
    keys = list(names) + [f"{a}*{b}" for a, b in pairs]
    for k, v in zip(keys, acc.tolist()):
        out[k] = out.get(k, 0) + v
    return out


def in_blocks(pool, n: int, call, most: int | None = None) -> None:
    """Run ``call(lo, hi)`` over blocks covering rows 0..n-1: on the threads of ``pool``
    (kernels that release the GIL run at once), or in one call without a pool.
    Every row is computed the same way whatever the blocks.

    Parameters
    ----------
    pool : ThreadPoolExecutor or None
        The threads.
    n : int
        Rows.
    call : callable
        ``call(lo, hi)`` computes rows ``lo .. hi - 1``.
    most : int, optional
        The most rows of a block (a call that holds memory for each of its rows): then as many blocks as
        that takes, one call after another without a pool.
    """
    if most is not None and n > most and pool is None:
        for lo in range(0, n, most):
            call(lo, min(n, lo + most))
        return
    if pool is None or n < 2:
        call(0, n)
        return
    k = min(n, 2 * pool._max_workers)
    if most is not None:
        k = max(k, -(-n // most))
    bounds = [n * i // k for i in range(k + 1)]
    futures = [pool.submit(call, lo, hi) for lo, hi in itertools.pairwise(bounds) if hi > lo]
    for f in futures:
        f.result()


def _dot(a: np.ndarray, b: np.ndarray, ma: int | None = None, mb: int | None = None) -> int:
    """Exact sum of a * b over int64 columns (object arithmetic if int64 could overflow); ``ma``, ``mb``: the
    columns' largest absolute values, where known."""
    import numpy as np
    if a.size == 0:
        return 0
    ma = int(np.abs(a).max()) if ma is None else ma
    mb = int(np.abs(b).max()) if mb is None else mb
    if ma * mb * a.size < _SAFE:
        return int(np.dot(a, b))
    return int(np.dot(a.astype(object), b.astype(object)))


def column_sums(cols: Mapping[str, np.ndarray], pairs: Iterable[tuple[str, str]]) -> dict[str, int]:
    """Exact sums of each column and of the products of the given pairs of columns."""
    import numpy as np
    top = {name: int(np.abs(c).max()) if c.size else 0 for name, c in cols.items()}  # once a column, not a pair
    out = {}
    for name, c in cols.items():
        out[name] = _dot(c, np.ones_like(c), top[name], 1) if c.size else 0
    for a, b in pairs:
        out[f"{a}*{b}"] = _dot(cols[a], cols[b], top[a], top[b])
    return out


def combine(chunks: list[ChunkResult]) -> ChunkResult:
    """Sum chunk results exactly; rows are concatenated in chunk order.

    Parameters
    ----------
    chunks : list of ChunkResult
        The chunks, in any order.

    Returns
    -------
    ChunkResult
        Integer sums added exactly, float totals correctly rounded (maxima for keys ending
        in ``_max``), histograms added, rows concatenated by chunk index.
    """
    acc = Accumulator()
    for c in sorted(chunks, key=lambda c: c.index):
        acc.add(c)
    return acc.result()


def exact_partials(values: Iterable[float]) -> list[float]:
    """The exact sum of ``values`` as non-overlapping partial sums (:attr:`ChunkResult.partials`).

    A chunk that hands these on, rather than its sum rounded to a float, makes the total the values'
    correctly rounded sum however the shoes were cut into chunks: the same to the last bit on any number
    of workers.

    Parameters
    ----------
    values : iterable of float
        Finite floats (one per shoe, say).

    Returns
    -------
    list of float
        Partials whose exact sum is the values' exact sum.
    """
    out: list[float] = []
    for x in values:
        _grow(out, float(x))
    return out


def _grow(partials: list[float], x: float) -> None:
    """Add ``x`` to the non-overlapping partial sums (Shewchuk's algorithm, as in math.fsum)."""
    i = 0
    for y in partials:
        if abs(x) < abs(y):
            x, y = y, x
        hi = x + y
        lo = y - (hi - x)
        if lo:
            partials[i] = lo
            i += 1
        x = hi
    partials[i:] = [x]


class Accumulator:
    """Chunk results folded in as they finish, in bounded memory.

    Chunks (or spans of chunks, :attr:`ChunkResult.chunks`) may arrive in any order; each is
    folded in in index order (early arrivals wait in a small buffer), its rows handed to
    ``sink`` (or kept, without a sink) and dropped.  Integers add exactly and floats as an
    exact running sum rounded once at the end, so the result equals :func:`combine` of all
    the chunks whatever the order they finished in and however they were grouped in spans.

    Parameters
    ----------
    sink : callable, optional
        ``sink(rows)`` receives each chunk's rows in chunk order (e.g. a :class:`ParquetSink`);
        without one, rows are concatenated in memory.
    """

    def __init__(self, sink=None, first: int = 0) -> None:
        self.total = ChunkResult(index=-1, shoes=0, hands=0)
        self.sink = sink
        self._first = first
        self._next = first
        self._waiting: dict[int, ChunkResult] = {}
        self._partials: dict[str, list[float]] = {}
        self._special: dict[str, float] = {}
        self._maxima: dict[str, float] = {}
        self._rows: dict[str, list[np.ndarray]] | None = None

    @property
    def waiting(self) -> int:
        """Chunks that arrived before an earlier one and wait to be folded in."""
        return len(self._waiting)

    def add(self, c: ChunkResult) -> None:
        """Fold in chunk ``c`` (and any later chunks that were waiting for it).

        Parameters
        ----------
        c : ChunkResult
            A finished chunk.
        """
        if c.index < self._next or c.index in self._waiting:
            return  # a chunk computed twice (a retried task): the first copy counts
        self._waiting[c.index] = c
        while self._next in self._waiting:
            c = self._waiting.pop(self._next)
            self._fold(c)
            self._next += max(c.chunks, 1)

    def _fold(self, c: ChunkResult) -> None:
        total = self.total
        total.shoes += c.shoes
        total.hands += c.hands
        total.seconds += c.seconds
        for k, v in c.sums.items():
            total.sums[k] = total.sums.get(k, 0) + int(v)
        for k, v in c.extra.items():
            total.extra[k] = total.extra.get(k, 0) + int(v)
        for k, raw in c.floats.items():
            x = float(raw)
            if k.endswith("_max"):
                self._maxima[k] = max(self._maxima.get(k, -math.inf), x)
            elif math.isfinite(x):
                _grow(self._partials.setdefault(k, []), x)
            else:
                self._special[k] = self._special.get(k, 0.0) + x
        for k, parts in c.partials.items():
            mine = self._partials.setdefault(k, [])
            for x in parts:
                _grow(mine, x)
        for k, h in c.hists.items():
            total.hists[k] = _add_hist(total.hists.get(k), h)
        if c.rows is not None:
            if self.sink is not None:
                self.sink(c.rows)
            else:
                self._rows = self._rows or {}
                for k, col in c.rows.items():
                    self._rows.setdefault(k, []).append(col)

    def result(self) -> ChunkResult:
        """The combined result of the chunks folded in so far.

        Returns
        -------
        ChunkResult
            With ``index=-1``; ``rows`` concatenated unless they went to a sink.
        """
        floats = {k: math.fsum(p) for k, p in self._partials.items()}
        for k, v in self._special.items():
            floats[k] = floats.get(k, 0.0) + v
        floats.update(self._maxima)
        self.total.floats = floats
        if self._rows is not None:
            import numpy as np
            self.total.rows = {k: np.concatenate(v) for k, v in self._rows.items()}
        return self.total

    def span(self) -> ChunkResult:
        """The chunks folded so far as one span result, to be folded again elsewhere: float totals
        stay exact (:attr:`ChunkResult.partials`), rows concatenated.

        Returns
        -------
        ChunkResult
            Indexed by the first chunk, ``chunks`` the chunks folded.
        """
        total = self.result()
        floats = dict(self._special)
        floats.update(self._maxima)
        return ChunkResult(index=self._first, shoes=total.shoes, hands=total.hands, sums=total.sums, floats=floats,
                           hists=total.hists, rows=total.rows, seconds=total.seconds, extra=total.extra,
                           chunks=self._next - self._first,
                           partials={k: list(p) for k, p in self._partials.items()})


def _add_hist(a: np.ndarray | None, b: np.ndarray) -> np.ndarray:
    import numpy as np

    if a is None:
        return b.astype(np.int64).copy()
    n = max(a.size, b.size)
    out = np.zeros(n, dtype=np.int64)
    out[: a.size] += a
    out[: b.size] += b
    return out


@dataclass(frozen=True)
class Estimate:
    """A simulated ratio Y / X with its standard error (shoes as clusters)."""

    value: float
    stderr: float
    num: int
    den: int

    def z(self, exact: Fraction | float) -> float | None:
        """(simulated - exact) / stderr; None without a standard error.  A quantity that did not
        vary (stderr 0) scores 0 when it equals the exact value, infinity otherwise."""
        if self.stderr is None or math.isnan(self.stderr):
            return None
        if self.stderr == 0:
            return 0.0 if self.value == float(exact) else math.inf
        return (self.value - float(exact)) / self.stderr


def ratio(sums: Mapping[str, int], y: str, x: str, clusters: int, scale: int = 1) -> Estimate:
    """Estimate of sum(y) / (scale * sum(x)) from exact sums (keys y, x, y*y, y*x, x*x)."""
    Y, X = sums[y], sums[x]
    if X == 0:
        return Estimate(math.nan, math.nan, Y, X)
    r = Fraction(Y, X)
    if clusters > 1:
        ss = sums[f"{y}*{y}"] - 2 * r * sums[f"{y}*{x}"] + r * r * sums[f"{x}*{x}"]
        var = ss / (X * X) * Fraction(clusters, clusters - 1)
        se = math.sqrt(max(float(var), 0.0)) / scale
    else:
        se = math.nan
    return Estimate(float(r / scale), se, Y, X * scale)


def mean(sums: Mapping[str, int], y: str, clusters: int, scale: int = 1) -> Estimate:
    """Per-shoe mean of y / scale with its standard error."""
    Y = sums[y]
    if clusters == 0:
        return Estimate(math.nan, math.nan, Y, 0)
    m = Fraction(Y, clusters)
    if clusters > 1:
        var = (sums[f"{y}*{y}"] - clusters * m * m) / (clusters - 1) / clusters
        se = math.sqrt(max(float(var), 0.0)) / scale
    else:
        se = math.nan
    return Estimate(float(m / scale), se, Y, clusters * scale)


def fnum(x: float | None) -> float | None:
    """A float for JSON (None for NaN / infinities)."""
    return None if x is None or not math.isfinite(x) else float(x)


def write_parquet(rows: Mapping[str, np.ndarray], path: str | Path, metadata: Mapping[str, str] | None = None) -> None:
    """One row per shoe (or session) to a Parquet file, for pandas.

    Parameters
    ----------
    rows : mapping of str to array
        Columns of equal length.
    path : str or Path
        The file to write.
    metadata : mapping of str to str, optional
        Key-value metadata for the schema.
    """
    with ParquetSink(path, metadata) as sink:
        sink(rows)


def check_out_path(path: str | None, option: str = "--out") -> Path | None:
    """Check, before any work, that a Parquet file can be written at ``path``.

    Parameters
    ----------
    path : str or None
        The user's ``--out`` (None: no file).
    option : str
        The option named in errors.

    Returns
    -------
    Path or None
        The path.

    Raises
    ------
    BaccaraError
        An empty name, a name not ending in ``.parquet``, a missing folder, a folder or
        other non-file in the way, or a place where a file cannot be created.
    """
    if path is None:
        return None
    if not str(path).strip():
        raise BaccaraError(f"{option} needs a file name ending in .parquet, got an empty string")
    p = Path(path)
    if "\0" in str(path):
        raise BaccaraError(f"{option}: a file name cannot contain a NUL character, got {str(path)!r}")
    if p.suffix.lower() != ".parquet":
        raise BaccaraError(f"{option} writes Parquet: give a file name ending in .parquet, got {str(path)!r}")
    parent = p.parent
    if not parent.exists():
        raise BaccaraError(f"{option}: folder {str(parent)!r} does not exist")
    if not parent.is_dir():
        raise BaccaraError(f"{option}: {str(parent)!r} is not a folder")
    if p.exists() and not p.is_file():
        raise BaccaraError(f"{option}: {str(path)!r} exists and is not a file")
    probe = _part_path(p)
    try:
        with open(probe, "wb"):
            pass
        probe.unlink()
    except (OSError, ValueError) as e:
        raise BaccaraError(f"{option}: cannot write in folder {str(parent)!r}: "
                           f"{getattr(e, 'strerror', None) or e}") from None
    if p.exists():
        try:
            with open(p, "ab"):
                pass
        except (OSError, ValueError) as e:
            raise BaccaraError(f"{option}: cannot overwrite {str(path)!r}: {getattr(e, 'strerror', None) or e}") from None
    return p


def _part_path(p: Path) -> Path:
    return p.with_name(f".{p.name}.part")


#: Rows per Parquet row group: the writer keeps ~12 kB of metadata per row group until the file is
#: closed, so small groups (one per chunk of 4,096 shoes) would grow memory by 3 kB a thousand rows.
ROW_GROUP = 1 << 16


class ParquetSink:
    """Rows written to a Parquet file chunk by chunk, in bounded memory.

    Chunks are gathered into row groups of :data:`ROW_GROUP` rows (a few MB) and
    written to a hidden ``.NAME.part`` file beside ``path``, renamed to ``path`` by
    :meth:`close` once every row is written, so an interrupted run leaves no half
    file under the name asked for.  Use as a context manager; call it with each
    chunk's rows, in order.

    Parameters
    ----------
    path : str or Path
        The Parquet file to write.
    metadata : mapping of str to str, optional
        Key-value metadata of the schema (``pyarrow.parquet.read_table(path).schema.metadata``).
    """

    def __init__(self, path: str | Path, metadata: Mapping[str, str] | None = None) -> None:
        try:
            import pyarrow
            import pyarrow.parquet  # noqa: F401
        except ImportError:  # pragma: no cover - pyarrow is a dependency
            raise ParameterError("--out needs pyarrow: pip install pyarrow") from None
        self.path = Path(path)
        self.part = _part_path(self.path)
        self.metadata = {str(k): str(v) for k, v in (metadata or {}).items()}
        self.rows = 0
        self._writer: Any = None  # a pyarrow ParquetWriter once rows come
        self._pending: list = []
        self._pending_rows = 0

    def __call__(self, rows: Mapping[str, np.ndarray]) -> None:
        """Append one chunk's rows.

        Parameters
        ----------
        rows : mapping of str to array
            Columns of equal length; the first call fixes the schema.
        """
        import numpy as np
        import pyarrow as pa
        table = pa.table({k: np.asarray(v) for k, v in rows.items()})
        if self.metadata:
            table = table.replace_schema_metadata(self.metadata)
        self._pending.append(table)
        self._pending_rows += table.num_rows
        self.rows += table.num_rows
        if self._pending_rows >= ROW_GROUP:
            self._flush()

    def _flush(self) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        if not self._pending:
            return
        table = pa.concat_tables(self._pending).combine_chunks()
        self._pending, self._pending_rows = [], 0
        try:
            if self._writer is None:
                if self.path.parent and not self.path.parent.exists():
                    raise ParameterError(f"--out: folder {str(self.path.parent)!r} does not exist")
                self._writer = pq.ParquetWriter(str(self.part), table.schema)
            self._writer.write_table(table, row_group_size=max(table.num_rows, 1))
        except OSError as e:
            self.abort()
            raise ParameterError(f"--out: cannot write {str(self.path)!r}: {e}") from None

    def close(self) -> None:
        """Write the last rows and the footer, and move the file to its name."""
        try:
            self._flush()
            if self._writer is None:
                return
            self._writer.close()
            self._writer = None
            self.part.replace(self.path)
        except OSError as e:
            self.abort()
            raise ParameterError(f"--out: cannot write {str(self.path)!r}: {e}") from None

    def abort(self) -> None:
        """Drop the partial file."""
        self._pending, self._pending_rows = [], 0
        if self._writer is not None:
            with contextlib.suppress(OSError, ValueError):
                self._writer.close()
            self._writer = None
        self.part.unlink(missing_ok=True)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind, value, tb) -> None:
        if kind is None:
            self.close()
        else:
            self.abort()
