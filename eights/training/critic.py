"""A MaskablePPO policy whose value network alone reads the privileged features.

The env (``SingleAgentEnv(privileged=True)``) appends the hidden cards
(:mod:`eights.training.privileged`) to each observation.
:class:`PrivilegedCriticPolicy` keeps the policy network on the first
``observation_size`` features, the seat's own observation, and gives the
value network the whole vector. The split is in the network itself, not in a
mask: the policy network's first layer has exactly ``observation_size``
inputs, so its weights (``mlp_extractor.policy_net``), what a checkpoint's
policy and an exported ``.npz`` hold, cannot read a hidden card, and the
exported model plays from the plain observation like any other.

Importing this module needs torch (the ``train`` extra).
"""

from __future__ import annotations

from typing import Any

import torch as th
from stable_baselines3.common.torch_layers import MlpExtractor
from stable_baselines3.common.utils import get_device
from torch import nn

from .policies import MaskedMlpPolicy


class PrivilegedMlpExtractor(MlpExtractor):
    """stable-baselines3's ``MlpExtractor`` with its policy network on the first
    ``observation_size`` features only (the value network reads them all)."""

    def __init__(self, feature_dim: int, net_arch: Any, activation_fn: type[nn.Module],
                 observation_size: int, device: th.device | str = "auto"):
        if not 0 < observation_size < feature_dim:
            raise ValueError(f"observation_size={observation_size} must lie between 0 and the "
                             f"{feature_dim} features, the privileged ones after it")
        super().__init__(feature_dim, net_arch, activation_fn, device)
        pi_dims = net_arch.get("pi", []) if isinstance(net_arch, dict) else net_arch
        layers: list[nn.Module] = []
        last = observation_size
        for width in pi_dims:
            layers += [nn.Linear(last, width), activation_fn()]
            last = width
        self.policy_net = nn.Sequential(*layers).to(get_device(device))
        self.observation_size = observation_size

    def forward(self, features: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
        return self.forward_actor(features), self.forward_critic(features)

    def forward_actor(self, features: th.Tensor) -> th.Tensor:
        return self.policy_net(features[..., :self.observation_size])


class PrivilegedCriticPolicy(MaskedMlpPolicy):
    """MaskablePPO's MLP policy with a privileged critic; see the module docstring.

    ``observation_size`` (a policy keyword) is how many leading features are the
    seat's own observation; the rest are privileged.
    """

    def __init__(self, *args: Any, observation_size: int, **kwargs: Any):
        self.observation_size = observation_size
        super().__init__(*args, **kwargs)

    def _build_mlp_extractor(self) -> None:
        self.mlp_extractor = PrivilegedMlpExtractor(
            self.features_dim, self.net_arch, self.activation_fn, self.observation_size,
            device=self.device)

    def _get_constructor_parameters(self) -> dict[str, Any]:
        data = super()._get_constructor_parameters()
        data["observation_size"] = self.observation_size
        return data


__all__ = ["PrivilegedCriticPolicy", "PrivilegedMlpExtractor"]
