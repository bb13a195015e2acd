"""The rollout's forward pass through MaskablePPO's two MLPs in a few fused calls.

Collecting a rollout runs the policy once per step on a small batch (one row per
table, 32 at ``eights train``'s defaults) with gradients off. At that size the
arithmetic is cheap and the calls are not: stable-baselines3's ``MlpExtractor`` runs
the actor's and the critic's ``nn.Sequential`` one module at a time (four ``Linear``
and four activation modules at the default 256x256), then the two heads, each module
call paying torch's hook and dispatch overhead. On one core (2026-11-28) that was
about 320 us a step of 32 rows, 10 us of every learner decision.

:class:`FusedRollout` computes the same function from the same parameters: both
networks' first layers as one product against their weights stacked side by side
(they read the same features; from the nonzero features alone where they are sparse,
:mod:`eights.training.sparse_linear`), then each network's further layers and head as
one product each (:func:`eights.training.products.linear`), the activations in place.
The stacked weights are built once and kept until a parameter changes, so they are
rebuilt once per update, not once per step. A change is seen two ways: a write into a tensor (a
loaded checkpoint, an in-place edit) bumps its version counter, and the steps of
the optimizer :meth:`FusedRollout.watch` was given are counted (torch's fused Adam
writes the parameters without bumping their versions). The outputs equal the
modules' to float rounding (``tests/training/test_fused.py``).

It applies only where it knows the network: a plain ``MlpExtractor`` whose two
``nn.Sequential`` alternate ``Linear`` and ``Tanh`` or ``ReLU`` (stable-baselines3's
choices for ``activation_fn``) and linear heads. :meth:`FusedRollout.build` returns
``None`` for anything else (the privileged critic's extractor, a custom activation),
and the policy then runs the modules as before.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import torch as th
from stable_baselines3.common.torch_layers import MlpExtractor
from torch import nn

from .products import FastLinear, linear
from .sparse_linear import SparseInputLinear, sparse_rows
from .tanh import FastTanh, tanh_

#: the in-place activations the fused pass knows, by module type (tanh through numpy's
#: kernel either way: :mod:`eights.training.tanh`)
_ACTIVATIONS: dict[type[nn.Module], Callable[[th.Tensor], th.Tensor]] = {
    nn.Tanh: tanh_,
    FastTanh: tanh_,
    nn.ReLU: th.Tensor.relu_,
}


#: the layers it fuses (each an ``nn.Linear``, computed one way or another)
_LINEARS = (nn.Linear, FastLinear, SparseInputLinear)


def _layers(net: nn.Sequential) -> list[tuple[nn.Linear, Callable[[th.Tensor], th.Tensor]]] | None:
    """``net`` as (Linear, in-place activation) pairs, or None if it is anything else."""
    modules = list(net)
    if len(modules) % 2:
        return None
    pairs = []
    for layer, activation in zip(modules[::2], modules[1::2], strict=True):
        apply = _ACTIVATIONS.get(type(activation))
        if type(layer) not in _LINEARS or layer.bias is None or apply is None:
            return None
        pairs.append((layer, apply))
    return pairs


class FusedRollout:
    """A no-gradient forward pass of (actor MLP + action head, critic MLP + value head)."""

    def __init__(self, actor: Sequence[tuple[nn.Linear, Callable]],
                 critic: Sequence[tuple[nn.Linear, Callable]],
                 action_head: nn.Linear, value_head: nn.Linear):
        self._actor = list(actor)
        self._critic = list(critic)
        self._action_head = action_head
        self._value_head = value_head
        linears = [lin for lin, _ in self._actor + self._critic] + [action_head, value_head]
        self._parameters = [t for lin in linears for t in (lin.weight, lin.bias)]
        self._key: tuple | None = None
        self._steps = 0
        self._first: tuple[th.Tensor, th.Tensor, th.Tensor, int] | None = None
        self._rest: list[list[tuple[th.Tensor, th.Tensor, Callable | None]]] = []

    @classmethod
    def build(cls, extractor: nn.Module, action_head: nn.Module,
              value_head: nn.Module) -> FusedRollout | None:
        """The fused pass for these modules, or None where it does not know them."""
        if type(extractor) is not MlpExtractor:
            return None
        if type(action_head) not in _LINEARS or type(value_head) not in _LINEARS:
            return None
        actor, critic = _layers(extractor.policy_net), _layers(extractor.value_net)
        if actor is None or critic is None:
            return None
        return cls(actor, critic, action_head, value_head)

    def watch(self, optimizer: th.optim.Optimizer) -> None:
        """Count ``optimizer``'s steps as changes of the weights (the policy's own optimizer,
        given once when the policy is built)."""
        optimizer.register_step_post_hook(self._count_step)

    def _count_step(self, *_: object) -> None:
        self._steps += 1

    def _refresh(self) -> None:
        """Rebuild the stacked weights if any parameter changed since the last call."""
        key = (self._steps, *((id(t), t._version) for t in self._parameters))
        if key == self._key:
            return
        with th.no_grad():
            self._first = None
            actor, critic = self._actor, self._critic
            if actor and critic:  # both read the features: one product for both first layers
                (pa, _), (pc, _) = actor[0], critic[0]
                weight = th.cat([pa.weight, pc.weight])
                self._first = (weight, weight.t().contiguous(), th.cat([pa.bias, pc.bias]),
                               pa.out_features)
                actor, critic = actor[1:], critic[1:]
            self._rest = []
            for layers, head in ((actor, self._action_head), (critic, self._value_head)):
                steps = [(lin.weight, lin.bias, act) for lin, act in layers]
                steps.append((head.weight, head.bias, None))
                self._rest.append(steps)
        self._key = key

    def __call__(self, features: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
        """The action logits and the values of ``features`` (rows), without gradients."""
        self._refresh()
        with th.no_grad():
            outputs = []
            if self._first is not None:
                weight, weight_t, bias, split = self._first
                rows = sparse_rows(features)
                hidden = linear(features, weight, bias) if rows is None else \
                    th.from_numpy(rows.times(weight_t.numpy(), bias.numpy()))
                first_actor, first_critic = self._actor[0][1], self._critic[0][1]
                inputs = [first_actor(hidden[:, :split]), first_critic(hidden[:, split:])]
            else:
                inputs = [features, features]
            for x, steps in zip(inputs, self._rest, strict=True):
                for weight, bias, activation in steps:
                    x = linear(x, weight, bias)
                    if activation is not None:
                        x = activation(x)
                outputs.append(x)
        return outputs[0], outputs[1]


__all__ = ["FusedRollout"]
