"""Training with count bins: `eights train --count-bins` (`eights.training.count_bins_env`)."""

from __future__ import annotations

import numpy as np
import pytest

from eights.agents import make_agent, play_game
from eights.agents.count_bins import CountBins
from eights.agents.policy import MODELS_DIR, NumpyPolicy
from eights.config import ConfigError
from eights.engines import engine_class, make_game
from eights.training.checkpoints import read_metadata, read_policy
from eights.training.count_bins_env import CountBinsVecEnv
from eights.training.distill import DistillSettings, distill
from eights.training.trainer import TrainSettings, resume_settings, train, vector_env

SMALL = {"timesteps": 256, "n_envs": 2, "n_steps": 64, "batch_size": 64, "n_epochs": 1,
         "checkpoint_every": 128, "eval_games": 2, "eval_opponents": "random",
         "opponents": "random", "progress": False}
VARIANT = "crazier_eights"  # its shipped policy reads no bins


def _bins(variant=VARIANT, players=2):
    return CountBins.for_variant(
        variant, engine_class(variant).Config.from_options(num_players=players))


def test_the_wrapper_appends_the_bins_to_every_observation():
    bins = _bins("crazy_eights")
    settings = TrainSettings(variant="crazy_eights", n_envs=3, n_steps=64, batch_size=64,
                             opponents="random", vec="vector", seed=4)
    settings.check()
    inner, outer = vector_env(settings), CountBinsVecEnv(vector_env(settings), bins)
    assert outer.observation_space.shape == (bins.observation_size + bins.size,)
    np.testing.assert_array_equal(outer.reset(), bins.apply(inner.reset()))
    finished = 0
    rng = np.random.default_rng(0)
    for _ in range(300):
        masks = outer.action_masks()
        np.testing.assert_array_equal(masks, np.stack(inner.env_method("action_masks")))
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        inner.step_async(actions)
        outer.step_async(actions)
        want, _, dones, want_infos = inner.step_wait()
        got, _, _, infos = outer.step_wait()
        np.testing.assert_array_equal(got, bins.apply(want))
        for info, raw in zip(infos, want_infos, strict=True):
            if "terminal_observation" in info:
                finished += 1
                np.testing.assert_array_equal(info["terminal_observation"],
                                              bins.apply(raw["terminal_observation"]))
        assert dones.shape == (3,)
    assert finished > 0


def test_a_run_with_bins_starts_from_a_plain_policy_and_plays(tmp_path):
    result = train(TrainSettings(variant=VARIANT, out=str(tmp_path / "run"), init=f"{VARIANT}-2p",
                                 count_bins=True, **SMALL))
    shipped, _ = NumpyPolicy.load(MODELS_DIR / f"{VARIANT}-2p.npz")
    start, meta = read_policy(result.run_dir / "checkpoints" / "step_000000000.zip")
    bins = _bins()
    assert meta["count_bins"] is True and meta["observation_size"] == shipped.inputs
    assert start.inputs == shipped.inputs + bins.size
    np.testing.assert_array_equal(start.layers[0][0][:shipped.inputs], shipped.layers[0][0])
    assert not start.layers[0][0][shipped.inputs:].any()  # zero weights on the new inputs
    exported = result.run_dir / "final.npz"
    agent = make_agent(f"policy:{exported}", VARIANT)
    game = make_game(VARIANT, num_players=2, seed=3)
    play_game(game, [agent, make_agent("random", VARIANT)])
    assert game.game_over and agent._net.count_bins == bins
    # resumed, it keeps reading them; the other way round is refused
    settings, path = resume_settings(str(result.final), {"timesteps": 512})
    assert settings.count_bins
    train(settings, resume_from=path)
    assert read_metadata(result.run_dir / "final.zip")["count_bins"] is True
    with pytest.raises(ConfigError, match="reads count bins with count_bins=False"):
        resume_settings(str(result.final), {"count_bins": False})
    with pytest.raises(ConfigError, match="give --count-bins"):
        TrainSettings(variant=VARIANT, out=str(tmp_path / "x"),
                      **{**SMALL, "init": str(exported)}).check()
    with pytest.raises(ConfigError, match="eights distill trains on the observation alone"):
        distill(DistillSettings(start=str(exported), out=str(tmp_path / "d"),
                                search="ismcts:sims=2", games=1, iterations=1))


def test_bins_and_the_privileged_critic_are_refused_together(tmp_path):
    with pytest.raises(ConfigError, match="count bins and the privileged critic"):
        TrainSettings(variant=VARIANT, out=str(tmp_path / "x"), count_bins=True,
                      privileged_critic=True, **SMALL).check()
