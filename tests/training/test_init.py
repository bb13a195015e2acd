"""Training from a trained policy: `eights train --init`."""

from __future__ import annotations

import numpy as np
import pytest

from eights.agents.policy import MODELS_DIR, NumpyPolicy
from eights.config import ConfigError
from eights.training.checkpoints import read_metadata, read_policy
from eights.training.trainer import TrainSettings, train

SMALL = {"timesteps": 256, "n_envs": 2, "n_steps": 64, "batch_size": 64, "n_epochs": 1,
         "checkpoint_every": 128, "eval_games": 2, "eval_opponents": "random",
         "opponents": "random", "progress": False}


def test_the_run_starts_from_the_policys_weights(tmp_path):
    result = train(TrainSettings(variant="livery_eights", out=str(tmp_path / "run"),
                                 init="livery_eights-2p", **SMALL))
    shipped, _ = NumpyPolicy.load(MODELS_DIR / "livery_eights-2p.npz")
    start, _ = read_policy(result.run_dir / "checkpoints" / "step_000000000.zip")
    for (w, b), (w0, b0) in zip(start.layers, shipped.layers, strict=True):
        np.testing.assert_array_equal(w, w0)
        np.testing.assert_array_equal(b, b0)
    saved = read_metadata(result.final)
    assert saved["training"]["init"] == "livery_eights-2p"
    assert saved["observation_version"] == 2  # the shipped policy's, taken when none is given
    assert saved["observation_size"] == shipped.inputs


@pytest.mark.parametrize("change, message", [
    ({"net_arch": (64, 64)}, "--net-arch 256,256"),
    ({"observation_version": 1}, "observation version 2"),
    ({"num_players": 3}, "2-player|config"),
    ({"init": "crazy_eights-2p"}, "trained for 'crazy_eights'"),
    ({"init": "no-such-model"}, "neither a file nor a shipped model"),
])
def test_a_policy_that_cannot_start_this_run_is_refused(change, message, tmp_path):
    settings = TrainSettings(variant="livery_eights", out=str(tmp_path / "x"),
                             **{"init": "livery_eights-2p", **SMALL, **change})
    with pytest.raises(ConfigError, match=message):
        settings.check()
