"""MaskablePPO's MLP policy with the same network and the same numbers, at less cost a step.

A profile of ``eights train`` on the compiled tables (``--vec vector``, 2026-11-27) spent
about a fifth of every learner decision outside the network and the env, in places
whose work is bookkeeping:

* **the masked distribution.** sb3-contrib's ``MaskableCategorical`` is a torch
  ``Categorical`` built twice per forward (once on the raw logits, again on the masked
  ones, and once more in between), each build normalizing with ``logsumexp`` (slow on
  CPU, and differentiated through three times) and checking its arguments against their
  constraints: some 20 us a learner decision. :class:`MaskedCategorical` masks once (at
  -1e8, as sb3-contrib does) and normalizes once with ``log_softmax``, lazily; the
  entropy counts the legal actions only. Its numbers are sb3-contrib's to float rounding
  (1e-6; ``tests/training/test_policies.py``). Samples are drawn by inverse CDF (one
  uniform per row against the cumulative probabilities, ``torch.searchsorted``): the
  same distribution as ``torch.multinomial``, at a fifth of its cost for a rollout's
  32 rows, and never an action of probability zero (the draw is scaled by the row's own
  total, so rounding cannot carry it past the last legal action).
* **the optimizer.** Adam's single-tensor loop (the torch default on CPU) walks every
  parameter tensor in Python; the fused kernel takes them in one call. The
  hyperparameters are stable-baselines3's (``eps=1e-5``, its learning rate).

* **the rollout's forward pass** (added 2026-11-28): with gradients off, the two MLPs
  and their heads run as a few fused products (:class:`~eights.training.fused.FusedRollout`):
  about 250 us a step of 32 rows instead of 340, some 2 us of a learner decision
  (87.3 against 89.0 us, ``docs/training.md``).
* **the activations** (added 2026-11-28): ``torch.tanh`` does not run vectorized in
  the CPU torch installed here, ``numpy.tanh`` does, at a tenth of the cost; the
  extractor's ``nn.Tanh`` modules become :class:`~eights.training.tanh.FastTanh`
  (the same function to float rounding, torch's own gradient), about 10 us of a
  learner decision (``docs/training.md``).
* **the products** (added 2026-11-28): every linear layer runs oneDNN's float32
  kernels instead of MKL's where torch has them (:mod:`~eights.training.products`;
  twice as fast on an AMD core, where MKL picks slower kernels), and the two first
  layers multiply only the observation's nonzero features when few are
  (:mod:`~eights.training.sparse_linear`): 89 against 59 us a learner decision on
  crazy_eights' v1 network (``docs/training.md``).

:class:`MaskedMlpPolicy` is ``MaskableActorCriticPolicy`` with all five; ``eights train``
builds every model with it (or :class:`~eights.training.critic.PrivilegedCriticPolicy`,
which derives from it). Checkpoints hold tensors only, so a model trained with
sb3-contrib's own policy loads into this one and back.

Importing this module needs torch (the ``train`` extra).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch as th
from sb3_contrib.common.maskable.distributions import MaskableCategoricalDistribution
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

from .fused import FusedRollout
from .products import swap_linear
from .sparse_linear import sparse_first_layers
from .tanh import swap_tanh

#: what a masked action's logit becomes (sb3-contrib's own value, so the numbers agree)
MASKED_LOGIT = -1e8
#: the same as 0-d tensors, made once (a new tensor per call costs a few microseconds)
_MASKED_LOGIT = th.tensor(MASKED_LOGIT)
_ZERO = th.tensor(0.0)


class MaskedCategorical:
    """A categorical distribution over the legal actions of each row, built once.

    ``logits`` (normalized: ``logits.exp()`` sums to 1 per row) and ``probs`` are
    computed on first use and kept, as torch's ``Categorical`` keeps them.
    """

    def __init__(self, raw_logits: th.Tensor, masks: th.Tensor | None = None):
        #: the network's logits before masking (masking again starts from them)
        self.raw_logits = raw_logits
        self.masks = masks
        self._logits: th.Tensor | None = None
        self._probs: th.Tensor | None = None

    @property
    def logits(self) -> th.Tensor:
        if self._logits is None:
            logits = self.raw_logits
            if self.masks is not None:
                logits = th.where(self.masks, logits, _MASKED_LOGIT.to(logits.dtype))
            self._logits = logits.log_softmax(dim=-1)
        return self._logits

    @property
    def probs(self) -> th.Tensor:
        if self._probs is None:
            self._probs = th.softmax(self.logits, dim=-1)
        return self._probs

    def log_prob(self, actions: th.Tensor) -> th.Tensor:
        return self.logits.gather(-1, actions.long().unsqueeze(-1)).squeeze(-1)

    def entropy(self) -> th.Tensor:
        p_log_p = self.logits * self.probs
        if self.masks is not None:  # a masked action's -1e8 * 0 must count as nothing
            p_log_p = th.where(self.masks, p_log_p, _ZERO.to(p_log_p.dtype))
        return -p_log_p.sum(-1)

    def sample(self) -> th.Tensor:
        cumulative = self.probs.cumsum(-1)
        draws = th.rand(cumulative.shape[:-1] + (1,), dtype=cumulative.dtype)
        draws *= cumulative[..., -1:]
        return th.searchsorted(cumulative, draws, right=True).squeeze(-1)


class MaskedCategoricalDistribution(MaskableCategoricalDistribution):
    """sb3-contrib's masked categorical distribution over :class:`MaskedCategorical`."""

    distribution: MaskedCategorical  # type: ignore[assignment]

    def proba_distribution(self, action_logits: th.Tensor) -> MaskedCategoricalDistribution:
        self.distribution = MaskedCategorical(action_logits.view(-1, self.action_dim))
        return self

    def apply_masking(self, masks: th.Tensor | np.ndarray | None) -> None:
        raw = self.distribution.raw_logits
        if masks is not None:
            masks = th.as_tensor(masks, dtype=th.bool).reshape(raw.shape)
        self.distribution = MaskedCategorical(raw, masks)

    def mode(self) -> th.Tensor:
        return th.argmax(self.distribution.probs, dim=1)


class MaskedMlpPolicy(MaskableActorCriticPolicy):
    """``MaskableActorCriticPolicy`` with :class:`MaskedCategoricalDistribution` and fused
    Adam; the network, its initialization and the hyperparameters are unchanged."""

    def __init__(self, observation_space: Any, action_space: Any, lr_schedule: Any,
                 *args: Any, optimizer_kwargs: dict[str, Any] | None = None, **kwargs: Any):
        if optimizer_kwargs is None:  # stable-baselines3's Adam, in one fused step
            optimizer_kwargs = {"eps": 1e-5, "fused": True}
        super().__init__(observation_space, action_space, lr_schedule, *args,
                         optimizer_kwargs=optimizer_kwargs, **kwargs)

    def _build(self, lr_schedule: Any) -> None:
        self.action_dist = MaskedCategoricalDistribution(int(self.action_space.n))
        super()._build(lr_schedule)
        swap_tanh(self.mlp_extractor)
        sparse_first_layers(self.mlp_extractor.policy_net, self.mlp_extractor.value_net)
        swap_linear(self)
        self._fused = FusedRollout.build(self.mlp_extractor, self.action_net, self.value_net)
        if self._fused is not None:
            self._fused.watch(self.optimizer)

    def forward(self, obs: th.Tensor, deterministic: bool = False,
                action_masks: np.ndarray | None = None) -> tuple[th.Tensor, th.Tensor, th.Tensor]:
        """Actions, values and log-probabilities, as ``MaskableActorCriticPolicy.forward``.

        With gradients off (collecting a rollout) and a network :class:`FusedRollout`
        knows, the pass runs fused; the distribution and its draws are the same.
        """
        if self._fused is None or th.is_grad_enabled() or not self.share_features_extractor:
            return super().forward(obs, deterministic, action_masks)
        logits, values = self._fused(self.extract_features(obs))
        distribution = self.action_dist.proba_distribution(logits)
        distribution.apply_masking(action_masks)
        actions = distribution.get_actions(deterministic=deterministic)
        log_prob = distribution.log_prob(actions)
        return actions.reshape((-1, *self.action_space.shape)), values, log_prob


__all__ = ["MASKED_LOGIT", "MaskedCategorical", "MaskedCategoricalDistribution",
           "MaskedMlpPolicy"]
