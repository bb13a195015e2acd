"""The policy's first layers, computed from the observation's nonzeros only.

An observation is mostly zeros (crazy_eights: 32 of 239 v1 features nonzero at a
typical decision, 90 of 348 in v2; the other variants 7-17%), and the first layer of
each of MaskablePPO's two networks multiplies all of them. :class:`SparseInputLinear`
is a :class:`~eights.training.products.FastLinear` (an ``nn.Linear``: the same
parameters, names and initialization, so checkpoints and exports do not change) whose
forward pass, when its input is a float32 batch that needs no gradient of its own and
is sparse enough, runs the compiled products of :mod:`eights.vector.sparse`: the output
from the nonzeros' weight rows, the weight gradient from the same nonzeros grouped by
feature. Anything else (a denser input, an input that needs its gradient, another
dtype) takes the dense path. The results equal the dense layer's to float rounding
(``tests/training/test_sparse_linear.py``).

Where the dense product wins depends on how fast it is: on a PPO minibatch of 512 rows
into 256 outputs (one thread, an AMD EPYC core, 2026-11-28), the sparse forward and
weight gradient cost about 25 ns per nonzero input, the dense ones (through oneDNN,
:mod:`eights.training.products`) about 2.5 us per input column, twice that through
MKL. They meet near a fifth of the inputs nonzero against oneDNN (crazy_eights v1 at
13.5%: 433 against 664 us; v2 at 26%: 1,038 against 883; livery v2 at 23%: 803 against
782; jokers v2 at 17.5%: 1,680 against 1,817) and near two fifths against MKL.
"""

from __future__ import annotations

from typing import Any

import torch as th

from ..vector.sparse import SparseRows
from .products import FastLinear, onednn_enabled

#: above this fraction of nonzero inputs the dense product is faster (see the module)
DENSE_ABOVE = {"onednn": 0.2, "torch": 0.4}


def dense_above() -> float:
    """The density above which this process's dense product is the faster."""
    return DENSE_ABOVE["onednn" if onednn_enabled() else "torch"]


def sparse_rows(x: th.Tensor) -> SparseRows | None:
    """``x``'s nonzeros where the sparse products pay (a 2-d float32 CPU batch sparse
    enough), else None."""
    if x.dim() != 2 or x.dtype != th.float32 or x.device.type != "cpu":
        return None
    rows = SparseRows.of(x.detach().contiguous().numpy())
    return rows if rows.density <= dense_above() else None


class _SparseInputProduct(th.autograd.Function):
    """``rows @ weight.T + bias`` from compressed rows, with the weight's and the bias's
    gradients (the input's is never asked for: :class:`SparseInputLinear` sends an input
    that needs one down the dense path)."""

    @staticmethod
    def forward(ctx: Any, weight: th.Tensor, bias: th.Tensor,  # type: ignore[override]
                rows: SparseRows) -> th.Tensor:
        ctx.rows = rows
        weights_t = weight.detach().t().contiguous().numpy()
        return th.from_numpy(rows.times(weights_t, bias.detach().numpy()))

    @staticmethod
    def backward(ctx: Any, grad: th.Tensor) -> tuple[Any, ...]:  # type: ignore[override]
        weight_grad = bias_grad = None
        if ctx.needs_input_grad[0]:
            weight_grad = th.from_numpy(ctx.rows.transposed_times(grad.contiguous().numpy())).t()
        if ctx.needs_input_grad[1]:
            bias_grad = grad.sum(0)
        return weight_grad, bias_grad, None


class SparseInputLinear(FastLinear):
    """A linear layer that multiplies only the nonzero inputs of a sparse batch."""

    def forward(self, x: th.Tensor) -> th.Tensor:
        if x.requires_grad or self.bias is None or self.weight.dtype != th.float32:
            return super().forward(x)
        rows = sparse_rows(x)
        if rows is None:
            return super().forward(x)
        return _SparseInputProduct.apply(self.weight, self.bias, rows)


def sparse_first_layers(*nets: th.nn.Sequential) -> None:
    """Make each network's first layer, when it is a plain ``nn.Linear`` or a
    :class:`FastLinear`, a :class:`SparseInputLinear` over the same parameters (in place)."""
    for net in nets:
        if len(net) and type(net[0]) in (th.nn.Linear, FastLinear):
            net[0] = SparseInputLinear.replacing(net[0])


__all__ = ["DENSE_ABOVE", "SparseInputLinear", "dense_above", "sparse_first_layers",
           "sparse_rows"]
