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

import math
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Iterable, Mapping

import numpy as np

from ..errors import BaccaraError

_SAFE = 2**62


@dataclass
class ChunkResult:
    """What one chunk of shoes returns (picklable; small unless rows are kept)."""

    index: int
    shoes: int
    hands: int
    sums: dict[str, int] = field(default_factory=dict)
    floats: dict[str, float] = field(default_factory=dict)
    hists: dict[str, np.ndarray] = field(default_factory=dict)
    rows: dict[str, np.ndarray] | None = None
    seconds: float = 0.0
    extra: dict[str, int] = field(default_factory=dict)


def in_blocks(pool, n: int, call) -> None:
    """Run ``call(lo, hi)`` over blocks covering rows 0..n-1: on the threads of ``pool``
    (kernels that release the GIL run at once), or in one call without a pool.
    Every row is computed the same way whatever the blocks."""
    if pool is None or n < 2:
        call(0, n)
        return
    k = min(n, 2 * pool._max_workers)
    bounds = [n * i // k for i in range(k + 1)]
    futures = [pool.submit(call, lo, hi) for lo, hi in zip(bounds, bounds[1:]) if hi > lo]
    for f in futures:
        f.result()


def _dot(a: np.ndarray, b: np.ndarray) -> int:
    """Exact sum of a * b over int64 columns (object arithmetic if int64 could overflow)."""
    if a.size == 0:
        return 0
    ma = int(np.abs(a).max())
    mb = int(np.abs(b).max())
    if ma * mb * a.size < _SAFE:
        return int(np.dot(a, b))
    return int(np.dot(a.astype(object), b.astype(object)))


def column_sums(cols: Mapping[str, np.ndarray], pairs: Iterable[tuple[str, str]]) -> dict[str, int]:
    """Exact sums of each column and of the products of the given pairs of columns."""
    out = {}
    for name, c in cols.items():
        out[name] = _dot(c, np.ones_like(c)) if c.size else 0
    for a, b in pairs:
        out[f"{a}*{b}"] = _dot(cols[a], cols[b])
    return out


def combine(chunks: list[ChunkResult]) -> ChunkResult:
    """Sum chunk results exactly; rows are concatenated in chunk order."""
    chunks = sorted(chunks, key=lambda c: c.index)
    total = ChunkResult(index=-1, shoes=0, hands=0)
    floats: dict[str, list[float]] = {}
    rows: dict[str, list[np.ndarray]] | None = None
    for c in chunks:
        total.shoes += c.shoes
        total.hands += c.hands
        total.seconds += c.seconds
        for k, v in c.sums.items():
            total.sums[k] = total.sums.get(k, 0) + int(v)
        for k, v in c.extra.items():
            total.extra[k] = total.extra.get(k, 0) + int(v)
        for k, v in c.floats.items():
            floats.setdefault(k, []).append(v)
        for k, h in c.hists.items():
            total.hists[k] = _add_hist(total.hists.get(k), h)
        if c.rows is not None:
            rows = rows or {}
            for k, v in c.rows.items():
                rows.setdefault(k, []).append(v)
    total.floats = {k: math.fsum(v) for k, v in floats.items()}
    if rows is not None:
        total.rows = {k: np.concatenate(v) for k, v in rows.items()}
    return total


def _add_hist(a: np.ndarray | None, b: np.ndarray) -> np.ndarray:
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


def fnum(x: float) -> float | None:
    """A float for JSON (None for NaN / infinities)."""
    return None if x is None or not math.isfinite(x) else float(x)


def write_parquet(rows: Mapping[str, np.ndarray], path: str | Path, metadata: Mapping[str, str] | None = None) -> None:
    """One row per shoe (or session) to a Parquet file, for pandas."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:  # pragma: no cover - pyarrow is a dependency
        raise BaccaraError("--out needs pyarrow: pip install pyarrow") from None
    table = pa.table({k: np.asarray(v) for k, v in rows.items()})
    if metadata:
        table = table.replace_schema_metadata({str(k): str(v) for k, v in metadata.items()})
    p = Path(path)
    if p.parent and not p.parent.exists():
        raise BaccaraError(f"--out: folder {str(p.parent)!r} does not exist")
    try:
        pq.write_table(table, str(p))
    except OSError as e:
        raise BaccaraError(f"--out: cannot write {str(path)!r}: {e}") from None
