"""The privileged critic: its value reads the hidden cards, its policy cannot."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from sb3_contrib import MaskablePPO

from eights.agents import PolicyAgent, make_agent, play_game
from eights.engines import make_game
from eights.training import SingleAgentEnv
from eights.training.checkpoints import load_model, read_metadata
from eights.training.critic import PrivilegedCriticPolicy, PrivilegedMlpExtractor
from eights.training.trainer import TrainSettings, resume_settings, train

TINY = {"timesteps": 512, "n_envs": 2, "n_steps": 64, "batch_size": 64, "n_epochs": 1,
        "checkpoint_every": 256, "eval_games": 2, "net_arch": (16, 16), "max_snapshots": 2,
        "opponents": "random", "eval_opponents": "random", "progress": False,
        "privileged_critic": True}


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("critic")
    return train(TrainSettings(variant="crazy_eights", out=str(out), seed=5, **TINY))


def test_the_policy_ignores_the_privileged_features_and_the_value_reads_them():
    env = SingleAgentEnv("crazy_eights", "random", privileged=True)
    model = MaskablePPO(PrivilegedCriticPolicy, env, n_steps=64, batch_size=64, seed=0,
                        device="cpu", policy_kwargs={"net_arch": [32, 32],
                                                     "observation_size": env.observation_size})
    policy = model.policy
    assert policy.mlp_extractor.policy_net[0].in_features == env.observation_size
    assert policy.mlp_extractor.value_net[0].in_features == env.observation_space.shape[0]
    obs, _ = env.reset(seed=1)
    batch = torch.as_tensor(np.stack([obs, obs]))
    batch[1, env.observation_size:] = torch.rand(env.privileged_size)
    with torch.no_grad():
        logits = policy.get_distribution(batch).distribution.logits
        values = policy.predict_values(batch)
    torch.testing.assert_close(logits[0], logits[1])
    assert not torch.allclose(values[0], values[1])


def test_the_split_must_leave_privileged_features():
    with pytest.raises(ValueError, match="observation_size"):
        PrivilegedMlpExtractor(10, [8], torch.nn.Tanh, observation_size=10)


def test_the_exported_policy_reads_exactly_the_observation(run):
    env = SingleAgentEnv("crazy_eights", "random")
    meta = read_metadata(run.final)
    assert meta["observation_size"] == env.observation_size
    assert meta["privileged_features"] == SingleAgentEnv(
        "crazy_eights", "random", privileged=True).privileged_size
    weights = np.load(run.run_dir / "final.npz")
    assert weights["w0"].shape == (env.observation_size, 16)
    for name in ("final.zip", "final.npz"):
        agent = PolicyAgent("crazy_eights", str(run.run_dir / name))
        assert agent._net.inputs == env.observation_size
        game = make_game("crazy_eights", seed=3)
        play_game(game, [agent, make_agent("random", "crazy_eights", seed=1)])
        assert game.game_over


def test_a_privileged_checkpoint_reloads_and_resumes(run, tmp_path):
    import shutil

    model = load_model(run.final, for_training=True)
    assert isinstance(model.policy, PrivilegedCriticPolicy)
    assert model.observation_space.shape == (
        read_metadata(run.final)["observation_size"]
        + read_metadata(run.final)["privileged_features"],)
    copy = tmp_path / "copy"
    shutil.copytree(run.run_dir, copy)
    settings, path = resume_settings(str(copy), {"timesteps": 768, "out": str(copy)})
    assert settings.privileged_critic
    assert train(settings, resume_from=path).timesteps >= 768
