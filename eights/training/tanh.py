"""``tanh`` through numpy's vectorized kernel: the same activation, a tenth of its cost.

stable-baselines3's PPO networks use ``nn.Tanh`` between their layers. On the CPU
build of torch this project installs (2.13.0+cpu) on an AVX-512 core, ``torch.tanh``
of a 512x256 float32 minibatch took 270 us where ``numpy.tanh`` of the same array took
21 us and ``torch.sigmoid`` 28 (one thread, 2026-11-28): torch's float tanh does not
run vectorized there. With four activations in every minibatch's forward pass and
four more in every rollout step, that was about a tenth of a learner decision
(``docs/training.md``, *What a learner decision costs*).

:class:`FastTanh` is an ``nn.Tanh`` (a drop-in module, so anything that checks for
``nn.Tanh`` still finds one) whose forward pass computes ``numpy.tanh`` into a new
array (:func:`tanh_` overwrites its argument in place instead) and whose backward
pass is torch's own ``tanh_backward`` (the gradient ``g * (1 - y**2)`` from the
saved output, as ``torch.tanh``'s is). The values agree with ``torch.tanh`` to a
float32 rounding (``tests/training/test_tanh.py``).
Tensors numpy cannot view (on an accelerator, or of a dtype numpy lacks) go through
``torch.tanh`` unchanged.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch as th
from torch import nn

#: the dtypes numpy computes the same tanh for (anything else goes through torch)
_NUMPY_DTYPES = (th.float32, th.float64)


def _numpy_can(x: th.Tensor) -> bool:
    """Whether ``x`` is a CPU tensor numpy can view and compute ``tanh`` of."""
    return x.device.type == "cpu" and x.dtype in _NUMPY_DTYPES and x.layout == th.strided


def tanh(x: th.Tensor) -> th.Tensor:
    """``torch.tanh(x)`` as a new tensor, through numpy where it can (no gradient)."""
    if not _numpy_can(x):
        return th.tanh(x)
    array = x.detach().numpy()
    out = np.empty(array.shape, array.dtype)  # (a 0-d input would come back a numpy scalar)
    np.tanh(array, out=out)
    return th.from_numpy(out)


def tanh_(x: th.Tensor) -> th.Tensor:
    """``x.tanh_()`` through numpy where it can: ``x`` overwritten and returned."""
    if not _numpy_can(x) or x.requires_grad:
        return x.tanh_()
    array = x.numpy()
    np.tanh(array, out=array)
    return x


class _Tanh(th.autograd.Function):
    """``tanh`` with numpy's forward and torch's own backward (from the saved output)."""

    @staticmethod
    def forward(ctx: Any, x: th.Tensor) -> th.Tensor:
        y = tanh(x)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx: Any, grad: th.Tensor) -> th.Tensor:
        (y,) = ctx.saved_tensors
        return th.ops.aten.tanh_backward(grad, y)


class FastTanh(nn.Tanh):
    """``nn.Tanh`` computed by :func:`tanh`; see the module docstring."""

    def forward(self, x: th.Tensor) -> th.Tensor:
        if x.requires_grad and th.is_grad_enabled() and _numpy_can(x):
            return _Tanh.apply(x)
        return tanh(x)  # (torch's own where numpy cannot take ``x``)


def swap_tanh(module: nn.Module) -> int:
    """Replace every plain ``nn.Tanh`` inside ``module`` by a :class:`FastTanh`; the count."""
    swapped = 0
    for parent in module.modules():
        for name, child in list(parent.named_children()):
            if type(child) is nn.Tanh:
                setattr(parent, name, FastTanh())
                swapped += 1
    return swapped


__all__ = ["FastTanh", "swap_tanh", "tanh", "tanh_"]
