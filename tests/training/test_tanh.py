"""``FastTanh``: torch's tanh and its gradient, through numpy's kernel."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from gymnasium import spaces
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from torch import nn

from eights.training.critic import PrivilegedCriticPolicy
from eights.training.policies import MaskedMlpPolicy
from eights.training.tanh import FastTanh, swap_tanh, tanh, tanh_

#: float32 tanh from two kernels: at most a rounding or two apart
ATOL = 4e-7


def _inputs(shape=(64, 48), dtype=torch.float32, seed=0):
    generator = torch.Generator().manual_seed(seed)
    return torch.randn(shape, generator=generator, dtype=dtype) * 4


@pytest.mark.parametrize("x", [
    _inputs(), _inputs(dtype=torch.float64), _inputs()[:, ::3], _inputs().t(),
    torch.tensor(0.7), torch.linspace(-30, 30, 10_001), torch.tensor([-0.0, 0.0, 1e-30]),
    torch.tensor([float("inf"), float("-inf"), float("nan")]), torch.empty(0, 5)])
def test_the_values_are_torchs(x):
    expected = torch.tanh(x)
    for got in (tanh(x), FastTanh()(x), tanh_(x.clone())):
        assert got.shape == expected.shape and got.dtype == expected.dtype
        assert torch.allclose(got, expected, atol=ATOL, rtol=0, equal_nan=True)
        assert torch.equal(got.isnan(), expected.isnan())


def test_in_place_overwrites_its_argument():
    x = _inputs()
    expected = torch.tanh(x)
    out = tanh_(x)
    assert out is x and torch.allclose(x, expected, atol=ATOL, rtol=0)


def test_what_numpy_cannot_take_goes_through_torch():
    x = _inputs(dtype=torch.bfloat16)
    assert torch.equal(FastTanh()(x), torch.tanh(x))
    assert torch.equal(tanh(x), torch.tanh(x))
    leaf = _inputs().requires_grad_()
    with pytest.raises(RuntimeError):  # torch's own refusal: a leaf that needs its grad
        tanh_(leaf)


def test_the_gradient_is_torchs():
    x64 = _inputs((6, 5), dtype=torch.float64).requires_grad_()
    assert torch.autograd.gradcheck(FastTanh(), (x64,))
    x = _inputs().requires_grad_()
    upstream = _inputs(seed=1)
    (FastTanh()(x) * upstream).sum().backward()
    ours = x.grad.clone()
    x.grad = None
    (torch.tanh(x) * upstream).sum().backward()
    assert torch.allclose(ours, x.grad, atol=1e-5, rtol=1e-5)


def test_second_order_gradients_are_torchs_too():
    x = _inputs((4, 3), dtype=torch.float64).requires_grad_()
    assert torch.autograd.gradgradcheck(FastTanh(), (x,))


def test_swap_replaces_plain_tanh_modules_only():
    net = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Sequential(nn.Linear(4, 4), nn.Tanh()),
                        nn.ReLU(), FastTanh())
    assert swap_tanh(net) == 2
    assert [type(m) for m in net.modules() if isinstance(m, nn.Tanh)] == [FastTanh] * 3
    assert isinstance(net[3], nn.ReLU)
    assert swap_tanh(net) == 0


def _policy(cls, **kwargs):
    return cls(spaces.Box(0.0, 1.0, (40,), np.float32), spaces.Discrete(30),
               lambda _: 3e-4, net_arch=[16, 16], **kwargs)


@pytest.mark.parametrize("cls,kwargs", [(MaskedMlpPolicy, {}),
                                        (PrivilegedCriticPolicy, {"observation_size": 30})])
def test_the_policies_train_through_it_and_keep_sb3s_activation(cls, kwargs):
    policy = _policy(cls, **kwargs)
    activations = [m for m in policy.mlp_extractor.modules() if isinstance(m, nn.Tanh)]
    assert activations and all(type(m) is FastTanh for m in activations)
    assert policy.activation_fn is nn.Tanh  # what a checkpoint records: stable-baselines3's


def test_a_minibatch_pass_matches_sb3_contribs_policy():
    torch.manual_seed(0)
    ours = _policy(MaskedMlpPolicy)
    torch.manual_seed(0)
    theirs = _policy(MaskableActorCriticPolicy)
    obs = torch.rand(32, 40, generator=torch.Generator().manual_seed(2))
    actions = torch.arange(32) % 30
    results = []
    for policy in (ours, theirs):
        policy.zero_grad()
        values, log_prob, entropy = policy.evaluate_actions(obs, actions)
        (values.sum() + log_prob.sum() + entropy.sum()).backward()
        results.append((values, log_prob, [p.grad.clone() for p in policy.parameters()]))
    (v1, lp1, g1), (v2, lp2, g2) = results
    assert torch.allclose(v1, v2, atol=1e-6) and torch.allclose(lp1, lp2, atol=1e-5)
    for a, b in zip(g1, g2, strict=True):
        assert torch.allclose(a, b, atol=1e-5, rtol=1e-4)


def test_an_exported_policy_names_the_activation_tanh():
    from eights.agents.policy import NumpyPolicy

    assert NumpyPolicy.from_sb3(_policy(MaskedMlpPolicy)).activation == "tanh"
