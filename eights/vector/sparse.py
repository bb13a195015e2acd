"""A dense layer's products when its input rows are mostly zeros, compiled.

Our observations are sparse: of crazy_eights' 239 v1 features a decision has about 32
nonzero (13%), of its 348 v2 features about 90 (26%), and the other variants 7-17%.
A network's first layer multiplies every one of those zeros by a row of its weights, and
in training that layer's forward product and weight gradient are about a third of the
network's arithmetic. Here a batch of rows is kept as its nonzeros only (compressed
rows, :class:`SparseRows`), and the two products read only the weight rows of features
that are present: a row's output is its bias plus, for each nonzero feature, the value
times that feature's row of the transposed weights; a feature's weight gradient is the
sum, over the rows where it is nonzero, of the value times that row's output gradient
(the same nonzeros, regrouped by feature).

The sums are the dense product's over its nonzero terms, in another order: equal to
float rounding. The loops are written four nonzeros at a time, so each pass over an
output row does four products (the output row stays in the cache, the weight rows
stream), and the products may contract to fused multiply-adds; nothing assumes the
numbers are finite. Whether to use them is the caller's choice (the dense product
wins above some density: :mod:`eights.training.sparse_linear` says where).
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass

import numba
import numpy as np

#: LLVM may fuse a multiply and an add; it may not assume finite numbers or reorder sums
_FLAGS = {"contract"}


@numba.njit(cache=True, nogil=True)
def _compress(x, indptr, indices, values):
    """Fill ``indptr`` (rows + 1), ``indices`` and ``values`` (at least ``x.size`` long)
    with ``x``'s nonzeros row by row; the count of nonzeros. Branch-free: every entry is
    written and the cursor moves on only past a nonzero."""
    rows, columns = x.shape
    n = 0
    for r in range(rows):
        indptr[r] = n
        for j in range(columns):
            v = x[r, j]
            indices[n] = j
            values[n] = v
            n += v != 0.0
    indptr[rows] = n
    return n


@numba.njit(cache=True, nogil=True)
def _by_column(indptr, indices, values, columns, colptr, rowidx, colvals):
    """The same nonzeros grouped by column (a counting sort): ``colptr`` (columns + 1),
    the row of each (``rowidx``) and its value."""
    rows = indptr.shape[0] - 1
    starts = np.zeros(columns + 1, np.int64)
    for p in range(indptr[rows]):
        starts[indices[p] + 1] += 1
    for j in range(columns):
        starts[j + 1] += starts[j]
    colptr[:] = starts
    for r in range(rows):
        for p in range(indptr[r], indptr[r + 1]):
            j = indices[p]
            q = starts[j]
            starts[j] = q + 1
            rowidx[q] = r
            colvals[q] = values[p]


@numba.njit(cache=True, nogil=True, fastmath=_FLAGS)
def _weighted_sums(ptr, index, weight, source, start, out):
    """``out[i] = start + sum over p in ptr[i]:ptr[i + 1] of weight[p] * source[index[p]]``.

    By rows (the forward product): ``ptr, index, weight`` are the compressed rows,
    ``source`` the transposed weights, ``start`` the bias. By columns (the weight
    gradient, transposed): the nonzeros grouped by column, ``source`` the output
    gradient, ``start`` zeros."""
    width = out.shape[1]
    for i in range(out.shape[0]):
        acc = out[i]
        for k in range(width):
            acc[k] = start[k]
        p, end = ptr[i], ptr[i + 1]
        while p + 3 < end:
            v0, v1, v2, v3 = weight[p], weight[p + 1], weight[p + 2], weight[p + 3]
            s0, s1 = source[index[p]], source[index[p + 1]]
            s2, s3 = source[index[p + 2]], source[index[p + 3]]
            for k in range(width):
                acc[k] += (v0 * s0[k] + v1 * s1[k]) + (v2 * s2[k] + v3 * s3[k])
            p += 4
        while p < end:
            v0, s0 = weight[p], source[index[p]]
            for k in range(width):
                acc[k] += v0 * s0[k]
            p += 1


_KERNELS = (_compress, _by_column, _weighted_sums)
_READY: list[bool] = []


def _warm_up() -> None:
    """Compile (or load from numba's disk cache) the kernels on a scratch matrix, and say
    so on stderr when it compiled: the first use in a fresh install pays it (seconds)."""
    started = time.perf_counter()
    scratch = np.eye(2, dtype=np.float32)
    rows = SparseRows._compressed(scratch)
    rows.transposed_times(rows.times(scratch, np.zeros(2, np.float32)))
    if any(sum(kernel.stats.cache_misses.values()) for kernel in _KERNELS):
        print(f"eights.vector: compiled the sparse products in "
              f"{time.perf_counter() - started:.1f} s (cached in "
              f"{_KERNELS[0].stats.cache_path} for later processes)", file=sys.stderr)
    _READY.append(True)


@dataclass(frozen=True)
class SparseRows:
    """A float32 matrix's nonzeros, row by row (compressed sparse rows)."""

    shape: tuple[int, int]
    indptr: np.ndarray
    indices: np.ndarray
    values: np.ndarray

    @classmethod
    def of(cls, x: np.ndarray) -> SparseRows:
        """``x`` (2-d, float32, C-contiguous) compressed."""
        if x.ndim != 2 or x.dtype != np.float32 or not x.flags.c_contiguous:
            raise ValueError(f"SparseRows.of takes a C-contiguous 2-d float32 array, not "
                             f"{x.dtype} of shape {x.shape}")
        if not _READY:
            _warm_up()
        return cls._compressed(x)

    @classmethod
    def _compressed(cls, x: np.ndarray) -> SparseRows:
        indptr = np.empty(x.shape[0] + 1, np.int64)
        indices = np.empty(x.size, np.int32)
        values = np.empty(x.size, np.float32)
        count = _compress(x, indptr, indices, values)
        return cls(x.shape, indptr, indices[:count], values[:count])

    @property
    def density(self) -> float:
        """The fraction of entries that are nonzero."""
        return self.values.shape[0] / max(1, self.shape[0] * self.shape[1])

    def times(self, weights_t: np.ndarray, bias: np.ndarray,
              out: np.ndarray | None = None) -> np.ndarray:
        """``self @ weights_t + bias``; ``weights_t`` is (columns, outputs), C-contiguous."""
        if weights_t.shape[0] != self.shape[1] or bias.shape != weights_t.shape[1:]:
            raise ValueError(f"weights {weights_t.shape} and bias {bias.shape} do not fit "
                             f"rows of {self.shape[1]} inputs")
        if out is None:
            out = np.empty((self.shape[0], weights_t.shape[1]), np.float32)
        _weighted_sums(self.indptr, self.indices, self.values, weights_t, bias, out)
        return out

    def transposed_times(self, grad: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """``self.T @ grad`` (columns, outputs): a layer's weight gradient, transposed,
        from its output gradient ``grad`` (rows, outputs), C-contiguous float32."""
        if grad.shape[0] != self.shape[0]:
            raise ValueError(f"gradient of {grad.shape[0]} rows for {self.shape[0]} rows")
        columns = self.shape[1]
        colptr = np.empty(columns + 1, np.int64)
        rowidx = np.empty(self.values.shape[0], np.int32)
        colvals = np.empty(self.values.shape[0], np.float32)
        _by_column(self.indptr, self.indices, self.values, columns, colptr, rowidx, colvals)
        if out is None:
            out = np.empty((columns, grad.shape[1]), np.float32)
        _weighted_sums(colptr, rowidx, colvals, grad, np.zeros(grad.shape[1], np.float32),
                       out)
        return out


__all__ = ["SparseRows"]
