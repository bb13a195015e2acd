"""``SparseRows``: a sparse batch's products equal the dense ones to float rounding."""

from __future__ import annotations

import numpy as np
import pytest

from eights.vector.sparse import SparseRows


def _sparse(rows, columns, density, seed=0, binary=False):
    rng = np.random.default_rng(seed)
    values = np.ones((rows, columns)) if binary else rng.normal(size=(rows, columns))
    return np.where(rng.random((rows, columns)) < density, values, 0.0).astype(np.float32)


CASES = [
    _sparse(512, 239, 0.13), _sparse(32, 348, 0.26, seed=1), _sparse(7, 5, 0.5, seed=2),
    _sparse(64, 770, 0.17, seed=3, binary=True),
    np.zeros((4, 9), np.float32),                       # no nonzero at all
    np.eye(6, dtype=np.float32),                        # one per row
    np.ones((3, 11), np.float32),                       # every entry (odd counts: the tails)
    np.zeros((0, 8), np.float32),                       # no rows
]


@pytest.mark.parametrize("x", CASES, ids=lambda x: f"{x.shape}")
@pytest.mark.parametrize("width", [1, 13, 256])
def test_products_equal_the_dense_ones(x, width):
    rng = np.random.default_rng(width)
    weights_t = rng.normal(size=(x.shape[1], width)).astype(np.float32)
    bias = rng.normal(size=width).astype(np.float32)
    grad = rng.normal(size=(x.shape[0], width)).astype(np.float32)
    rows = SparseRows.of(x)
    assert rows.values.shape[0] == np.count_nonzero(x)
    assert rows.density == pytest.approx(np.count_nonzero(x) / max(1, x.size))
    np.testing.assert_allclose(rows.times(weights_t, bias),
                               x.astype(np.float64) @ weights_t + bias, rtol=1e-5, atol=1e-4)
    np.testing.assert_allclose(rows.transposed_times(grad), x.T.astype(np.float64) @ grad,
                               rtol=1e-5, atol=1e-4)


def test_rows_are_kept_in_order_with_their_columns():
    x = np.array([[0, 2, 0, -1], [0, 0, 0, 0], [3, 0, 0, 0]], np.float32)
    rows = SparseRows.of(x)
    assert rows.indptr.tolist() == [0, 2, 2, 3]
    assert rows.indices.tolist() == [1, 3, 0]
    assert rows.values.tolist() == [2, -1, 3]


def test_into_a_given_output():
    x = _sparse(16, 20, 0.3)
    out = np.full((16, 4), np.nan, np.float32)
    weights_t = np.ones((20, 4), np.float32)
    assert SparseRows.of(x).times(weights_t, np.zeros(4, np.float32), out=out) is out
    np.testing.assert_allclose(out, x @ weights_t, rtol=1e-6, atol=1e-6)


def test_a_non_finite_input_reaches_the_output_as_the_dense_product_would():
    x = np.array([[0, np.inf], [np.nan, 0]], np.float32)
    out = SparseRows.of(x).times(np.ones((2, 1), np.float32), np.zeros(1, np.float32))
    assert np.isinf(out[0, 0]) and np.isnan(out[1, 0])


@pytest.mark.parametrize("bad", [np.zeros((3, 4)), np.zeros(5, np.float32),
                                 np.zeros((4, 6), np.float32)[:, ::2]],
                         ids=["float64", "1-d", "strided"])
def test_refuses_what_it_cannot_read(bad):
    with pytest.raises(ValueError, match="C-contiguous 2-d float32"):
        SparseRows.of(bad)


def test_refuses_products_of_the_wrong_shape():
    rows = SparseRows.of(np.eye(3, dtype=np.float32))
    with pytest.raises(ValueError, match="do not fit rows of 3 inputs"):
        rows.times(np.ones((4, 2), np.float32), np.zeros(2, np.float32))
    with pytest.raises(ValueError, match="gradient of 2 rows for 3 rows"):
        rows.transposed_times(np.ones((2, 2), np.float32))
