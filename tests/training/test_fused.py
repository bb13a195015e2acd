"""The rollout's fused forward pass: the modules' numbers, rebuilt when a weight changes."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from gymnasium import spaces
from torch import nn

from eights.training.critic import PrivilegedCriticPolicy
from eights.training.fused import FusedRollout
from eights.training.policies import MaskedMlpPolicy

ACTIONS = 30
FEATURES = 24


def _policy(cls=MaskedMlpPolicy, **kwargs):
    return cls(spaces.Box(0.0, 1.0, (FEATURES,), np.float32), spaces.Discrete(ACTIONS),
               lambda _: 3e-4, **{"net_arch": [16, 12], **kwargs})


def _batch(rows: int = 9, seed: int = 0, density: float = 1.0):
    rng = np.random.default_rng(seed)
    obs = torch.as_tensor(np.where(rng.random((rows, FEATURES)) < density,
                                   rng.random((rows, FEATURES)), 0), dtype=torch.float32)
    masks = rng.random((rows, ACTIONS)) < 0.4
    masks[:, 3] = True
    return obs, masks


def _both(policy, obs, masks, deterministic=False):
    """The policy's forward with the fused pass and with the modules, same random draws."""
    outputs = []
    for fused in (policy._fused, None):
        saved, policy._fused = policy._fused, fused
        torch.manual_seed(7)
        with torch.no_grad():
            outputs.append(policy(obs, deterministic=deterministic, action_masks=masks))
        policy._fused = saved
    return outputs


@pytest.mark.parametrize("kwargs", [
    {}, {"activation_fn": nn.ReLU}, {"net_arch": {"pi": [16], "vf": [8, 8]}}, {"net_arch": []}])
@pytest.mark.parametrize("deterministic", [False, True])
@pytest.mark.parametrize("density", [1.0, 0.1])  # (0.1: the first layers' sparse products)
def test_the_fused_pass_gives_the_modules_numbers(kwargs, deterministic, density):
    torch.manual_seed(0)
    policy = _policy(**kwargs)
    assert policy._fused is not None
    obs, masks = _batch(density=density)
    (actions, values, log_prob), (actions0, values0, log_prob0) = _both(
        policy, obs, masks, deterministic)
    assert torch.equal(actions, actions0)
    assert torch.allclose(values, values0, atol=1e-6)
    assert torch.allclose(log_prob, log_prob0, atol=1e-5)
    assert masks[np.arange(len(masks)), actions.numpy()].all()


def test_a_changed_weight_rebuilds_the_stacked_weights():
    torch.manual_seed(1)
    policy = _policy()
    obs, masks = _batch()
    _both(policy, obs, masks)  # builds the stacked weights once
    loss = policy.evaluate_actions(obs, torch.zeros(len(obs), dtype=torch.long),
                                   action_masks=masks)[0].sum()
    policy.optimizer.zero_grad()
    (-loss).backward()
    policy.optimizer.step()  # the weights move in place
    (_, values, log_prob), (_, values0, log_prob0) = _both(policy, obs, masks, True)
    assert torch.allclose(values, values0, atol=1e-6)
    assert torch.allclose(log_prob, log_prob0, atol=1e-5)
    with torch.no_grad():  # a loaded checkpoint also writes in place
        policy.value_net.bias.add_(5.0)
    (_, values, _), (_, values0, _) = _both(policy, obs, masks, True)
    assert torch.allclose(values, values0, atol=1e-6)


def test_with_gradients_on_the_modules_run():
    policy = _policy()
    obs, masks = _batch()
    _, values, log_prob = policy(obs, action_masks=masks)
    assert values.requires_grad and log_prob.requires_grad


def test_an_unknown_network_keeps_the_modules():
    assert _policy(activation_fn=nn.ELU)._fused is None
    critic = _policy(PrivilegedCriticPolicy, observation_size=FEATURES - 4)
    assert critic._fused is None
    obs, masks = _batch()
    with torch.no_grad():
        actions, _, _ = critic(obs, action_masks=masks)
    assert masks[np.arange(len(masks)), actions.numpy()].all()
    assert FusedRollout.build(nn.Linear(2, 2), nn.Linear(2, 2), nn.Linear(2, 1)) is None
