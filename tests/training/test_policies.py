"""The trainer's MaskablePPO policy: sb3-contrib's numbers at less cost a step."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from gymnasium import spaces
from sb3_contrib.common.maskable.distributions import MaskableCategoricalDistribution
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

from eights.training.critic import PrivilegedCriticPolicy
from eights.training.policies import MaskedCategoricalDistribution, MaskedMlpPolicy
from eights.training.trainer import policy_class

ACTIONS = 58


def _pair(logits: torch.Tensor, masks: np.ndarray | None):
    """sb3-contrib's distribution and ours over the same logits and masks."""
    theirs = MaskableCategoricalDistribution(ACTIONS).proba_distribution(logits)
    ours = MaskedCategoricalDistribution(ACTIONS).proba_distribution(logits)
    if masks is not None:
        theirs.apply_masking(masks)
        ours.apply_masking(masks)
    return theirs, ours


@pytest.mark.parametrize("masked", [True, False])
def test_the_distribution_gives_sb3_contribs_numbers(masked):
    generator = torch.Generator().manual_seed(3)
    rng = np.random.default_rng(3)
    for _ in range(20):
        logits = torch.randn(64, ACTIONS, generator=generator) * 4
        masks = rng.random((64, ACTIONS)) < 0.2 if masked else None
        if masks is not None:
            masks[np.arange(64), rng.integers(0, ACTIONS, 64)] = True
        theirs, ours = _pair(logits, masks)
        legal = torch.ones(64, ACTIONS, dtype=torch.bool) if masks is None else \
            torch.as_tensor(masks)
        torch.testing.assert_close(ours.distribution.logits[legal],
                                   theirs.distribution.logits[legal], atol=1e-5, rtol=0)
        torch.testing.assert_close(ours.distribution.probs, theirs.distribution.probs,
                                   atol=1e-6, rtol=0)
        torch.testing.assert_close(ours.entropy(), theirs.entropy(), atol=1e-5, rtol=1e-5)
        legal_actions = torch.multinomial(legal.float(), 1).squeeze(-1)
        torch.testing.assert_close(ours.log_prob(legal_actions), theirs.log_prob(legal_actions),
                                   atol=1e-5, rtol=0)
        assert torch.equal(ours.mode(), theirs.mode())
        sampled = ours.sample()
        assert legal[torch.arange(64), sampled].all()


def test_samples_follow_the_masked_probabilities():
    """Inverse-CDF sampling draws what ``torch.multinomial`` would: over 40,000 draws of one
    row, every action's frequency is its probability (to 0.01; the binomial's standard
    error is at most 0.0025), and a masked action is never drawn."""
    torch.manual_seed(5)
    logits = torch.randn(1, ACTIONS) * 2
    masks = np.zeros((1, ACTIONS), bool)
    masks[0, [0, 3, 4, 17, 40, ACTIONS - 2]] = True
    _, ours = _pair(logits.expand(40_000, ACTIONS), np.repeat(masks, 40_000, axis=0))
    counts = torch.bincount(ours.sample(), minlength=ACTIONS).double() / 40_000
    torch.testing.assert_close(counts, ours.distribution.probs[0].double(), atol=0.01, rtol=0)
    assert counts[torch.as_tensor(~masks[0])].sum() == 0


def test_the_highest_draw_stops_at_the_last_action_of_nonzero_probability(monkeypatch):
    """A row's probabilities summed in float32 often end a little short of 1; a uniform draw
    above that sum must not run past the row's last possible action (into masked ones).
    Every draw here is the largest float below 1."""
    generator = torch.Generator().manual_seed(8)
    rng = np.random.default_rng(8)
    logits = torch.randn(512, ACTIONS, generator=generator) * 3
    masks = rng.random((512, ACTIONS)) < 0.5
    masks[:, 0] = True
    _, ours = _pair(logits, masks)
    probs = ours.distribution.probs
    assert (probs.cumsum(-1)[:, -1] < 1).any()  # rows a draw of 1 - 2**-24 would overrun
    monkeypatch.setattr(torch, "rand",
                        lambda shape, dtype: torch.full(shape, 1 - 2**-24, dtype=dtype))
    sampled = ours.sample()
    rows = torch.arange(512)
    assert torch.as_tensor(masks)[rows, sampled].all() and (probs[rows, sampled] > 0).all()
    last_possible = ACTIONS - 1 - (probs > 0).flip(-1).int().argmax(-1)
    resolvable = probs[rows, last_possible] > 1e-6  # its mass shows in the float32 sum
    assert resolvable.sum() > 400
    assert torch.equal(sampled[resolvable], last_possible[resolvable])


def test_masking_again_starts_from_the_networks_logits():
    logits = torch.randn(4, ACTIONS)
    masks = np.zeros((4, ACTIONS), bool)
    masks[:, :3] = True
    _, ours = _pair(logits, masks)
    assert ours.distribution.probs[:, 3:].sum() == 0
    ours.apply_masking(None)
    theirs, _ = _pair(logits, None)
    torch.testing.assert_close(ours.distribution.probs, theirs.distribution.probs)


def test_gradients_flow_through_the_legal_logits_only():
    logits = torch.randn(8, ACTIONS, requires_grad=True)
    masks = np.zeros((8, ACTIONS), bool)
    masks[:, ::7] = True
    _, ours = _pair(logits, masks)
    (ours.log_prob(torch.zeros(8, dtype=torch.long)).sum() + ours.entropy().sum()).backward()
    assert logits.grad[:, ~masks[0]].abs().sum() == 0
    assert logits.grad[:, masks[0]].abs().sum() > 0


def _policy(cls=MaskedMlpPolicy, **kwargs):
    return cls(spaces.Box(0.0, 1.0, (40,), np.float32), spaces.Discrete(ACTIONS),
               lambda _: 3e-4, net_arch=[16, 16], **kwargs)


def test_the_policy_is_sb3_contribs_network_with_fused_adam():
    torch.manual_seed(0)
    ours = _policy()
    torch.manual_seed(0)
    theirs = _policy(MaskableActorCriticPolicy)
    assert ours.state_dict().keys() == theirs.state_dict().keys()
    for key, value in theirs.state_dict().items():
        assert torch.equal(ours.state_dict()[key], value), key
    group = ours.optimizer.param_groups[0]
    assert isinstance(ours.optimizer, torch.optim.Adam)
    assert group["fused"] and group["eps"] == theirs.optimizer.param_groups[0]["eps"] == 1e-5
    assert isinstance(ours.action_dist, MaskedCategoricalDistribution)
    assert _policy(optimizer_kwargs={"eps": 1e-3}).optimizer.param_groups[0]["eps"] == 1e-3


@pytest.mark.parametrize("density", [0.1, 0.9])
def test_a_training_pass_gives_sb3_contribs_numbers_and_gradients(density):
    """Through the first layers' sparse products (a sparse batch) or the dense ones, and
    oneDNN's or torch's products elsewhere: sb3-contrib's policy's values, log-probabilities,
    entropies and every parameter's gradient, to float rounding."""
    torch.manual_seed(0)
    ours = _policy()
    torch.manual_seed(0)
    theirs = _policy(MaskableActorCriticPolicy)
    layers = [type(m).__name__ for m in ours.modules() if isinstance(m, torch.nn.Linear)]
    assert layers == ["SparseInputLinear", "FastLinear", "SparseInputLinear", "FastLinear",
                      "FastLinear", "FastLinear"]
    rng = np.random.default_rng(1)
    obs = torch.as_tensor(np.where(rng.random((300, 40)) < density, rng.random((300, 40)), 0),
                          dtype=torch.float32)
    masks = rng.random((300, ACTIONS)) < 0.3
    actions = torch.as_tensor(rng.integers(0, ACTIONS, 300))
    masks[np.arange(300), actions.numpy()] = True
    results = []
    for policy in (ours, theirs):
        values, log_prob, entropy = policy.evaluate_actions(obs, actions, action_masks=masks)
        (values.sum() + log_prob.sum() + entropy.sum()).backward()
        results.append((values, log_prob, entropy, [p.grad for p in policy.parameters()]))
    for got, expected in zip(results[0][:3], results[1][:3], strict=True):
        torch.testing.assert_close(got, expected, rtol=1e-5, atol=1e-5)
    for got, expected in zip(results[0][3], results[1][3], strict=True):
        torch.testing.assert_close(got, expected, rtol=1e-4, atol=1e-4)


def test_the_trainer_builds_every_model_on_it():
    assert policy_class(False, 40)[0] is MaskedMlpPolicy
    critic, extra = policy_class(True, 40)
    assert critic is PrivilegedCriticPolicy and issubclass(critic, MaskedMlpPolicy)
    assert extra == {"observation_size": 40}
