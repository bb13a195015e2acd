"""The policy's dense products through oneDNN, the kernels torch ships for its CPU layers.

A MaskablePPO learner decision is mostly matrix products (the two MLPs' forward pass
in each rollout step, then forward and backward over every minibatch), and torch's
``nn.Linear`` sends float32 products to MKL. MKL picks its kernels by the processor's
vendor: on the AMD EPYC core these sessions ran on (2026-11-28, AVX-512 with full-width
units) it ran the policy's 512x256 by 256x256 products at about 110 GFLOP/s, where
oneDNN, which torch builds in and which picks its kernels by instruction set, ran the
same float32 products at about 230 (275 against 600 us; the weight gradient 330 against
625). Both are float32 throughout: the results differ by rounding only.

:func:`linear` is ``F.linear`` through oneDNN's linear primitive
(``torch.ops.mkldnn._linear_pointwise``, the op torch's own compiler emits for CPU
linear layers) where that op exists and agrees with ``F.linear`` on a probe (checked
once per process), with a backward pass of the same primitive (the input's gradient
is ``grad @ weight``, the weight's ``grad.T @ input``, each a linear of transposed
views). Elsewhere, and for anything but 2-d float32 CPU tensors, it is ``F.linear``.
:class:`FastLinear` is an ``nn.Linear`` (the same parameters and names, so checkpoints
and exports do not change) computed by it.

``EIGHTS_LINEAR=torch`` in the environment turns it off (``F.linear`` everywhere);
``EIGHTS_LINEAR=onednn`` insists on it (an error where the op is missing).
"""

from __future__ import annotations

import functools
import os
from typing import Any

import torch as th
import torch.nn.functional as F
from torch import nn

from ..config import ConfigError

#: ``EIGHTS_LINEAR``'s values
CHOICES = ("auto", "torch", "onednn")


def _onednn(x: th.Tensor, weight: th.Tensor, bias: th.Tensor | None) -> th.Tensor:
    return th.ops.mkldnn._linear_pointwise(x, weight, bias, "none", [], "")


@functools.cache
def onednn_enabled() -> bool:
    """Whether :func:`linear` runs oneDNN in this process (decided once)."""
    choice = os.environ.get("EIGHTS_LINEAR", "auto") or "auto"
    if choice not in CHOICES:
        raise ConfigError(f"EIGHTS_LINEAR={choice!r}; give one of {', '.join(CHOICES)}")
    if choice == "torch":
        return False
    works = False
    if th.backends.mkldnn.is_available():
        generator = th.Generator().manual_seed(0)
        x, weight = th.randn(8, 24, generator=generator), th.randn(16, 24, generator=generator)
        bias = th.randn(16, generator=generator)
        try:
            works = bool(th.allclose(_onednn(x, weight, bias), F.linear(x, weight, bias),
                                     rtol=1e-4, atol=1e-4))
        except (AttributeError, RuntimeError, NotImplementedError):
            works = False
    if choice == "onednn" and not works:
        raise ConfigError("EIGHTS_LINEAR=onednn, but this torch build has no working oneDNN "
                          "linear (torch.ops.mkldnn._linear_pointwise); unset it or give torch")
    return works


def backend_name() -> str:
    """What computes the policy's dense products in this process, for a run's log."""
    return "oneDNN" if onednn_enabled() else "torch's own kernels"


def _fits(x: th.Tensor, weight: th.Tensor) -> bool:
    """Whether oneDNN takes these tensors (2-d float32 on the CPU) in this process."""
    return (x.dim() == 2 and x.dtype == th.float32 and weight.dtype == th.float32
            and x.device.type == "cpu" and weight.device.type == "cpu"
            and x.layout == th.strided and onednn_enabled())


class _OneDnnLinear(th.autograd.Function):
    """``F.linear`` with the forward and both gradients through oneDNN."""

    @staticmethod
    def forward(ctx: Any, x: th.Tensor, weight: th.Tensor,  # type: ignore[override]
                bias: th.Tensor | None) -> th.Tensor:
        ctx.save_for_backward(x, weight)
        return _onednn(x, weight, bias)

    @staticmethod
    def backward(ctx: Any, grad: th.Tensor) -> tuple[Any, ...]:  # type: ignore[override]
        x, weight = ctx.saved_tensors
        needs_x, needs_weight, needs_bias = ctx.needs_input_grad
        return (_onednn(grad, weight.t(), None) if needs_x else None,
                _onednn(grad.t(), x.t(), None) if needs_weight else None,
                grad.sum(0) if needs_bias else None)


def linear(x: th.Tensor, weight: th.Tensor, bias: th.Tensor | None = None) -> th.Tensor:
    """``F.linear(x, weight, bias)``, through oneDNN where it runs (see the module)."""
    if not _fits(x, weight):
        return F.linear(x, weight, bias)
    if not x.is_contiguous():
        # a slice of a wider input (the policy's part of a privileged critic's observation):
        # its weight gradient reads it transposed, and oneDNN took over a second for that
        # product where the same numbers, contiguous, take under a millisecond
        x = x.contiguous()
    if th.is_grad_enabled() and (x.requires_grad or weight.requires_grad
                                 or (bias is not None and bias.requires_grad)):
        return _OneDnnLinear.apply(x, weight, bias)
    return _onednn(x, weight, bias)


class FastLinear(nn.Linear):
    """``nn.Linear`` computed by :func:`linear`."""

    def forward(self, x: th.Tensor) -> th.Tensor:
        return linear(x, self.weight, self.bias)

    @classmethod
    def replacing(cls, layer: nn.Linear) -> FastLinear:
        """A layer of this class holding ``layer``'s own parameters (the same tensors)."""
        new = cls.__new__(cls)
        nn.Module.__init__(new)
        new.in_features, new.out_features = layer.in_features, layer.out_features
        new.weight, new.bias = layer.weight, layer.bias
        return new


def swap_linear(module: nn.Module, cls: type[FastLinear] = FastLinear) -> int:
    """Replace every plain ``nn.Linear`` inside ``module`` (itself included where it is
    a child) by ``cls`` over the same parameters; the count."""
    swapped = 0
    for parent in list(module.modules()):
        for name, child in list(parent.named_children()):
            if type(child) is nn.Linear:
                setattr(parent, name, cls.replacing(child))
                swapped += 1
    return swapped


__all__ = ["CHOICES", "FastLinear", "backend_name", "linear", "onednn_enabled", "swap_linear"]
