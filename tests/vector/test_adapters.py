"""The RL libraries' interfaces over the vector tables: what their loops read at a game's end."""

from __future__ import annotations

import numpy as np

from eights.vector import make
from eights.vector.adapters import sb3_vec_env
from eights.vector.kernels import random_actions


def test_the_sb3_adapter_reports_each_game_as_vecmonitor_would():
    """``eights train`` does not wrap these tables in ``VecMonitor``: the adapter's own
    ``episode`` must be the game's reward, its learner decisions and the seconds since the
    env was made, and the terminal observation the game's last."""
    vec = sb3_vec_env(make("crazy_eights", 6, "heuristic", seed=3))
    vec.seed(3)
    vec.reset()
    rng = np.random.default_rng(3)
    returns, lengths, ended, last_t = np.zeros(6), np.zeros(6, np.int64), 0, 0.0
    while ended < 20:
        masks = np.stack(vec.env_method("action_masks"))
        vec.step_async(random_actions(masks.astype(np.int8), rng))
        _, rewards, dones, infos = vec.step_wait()
        returns += rewards
        lengths += 1
        for i in np.flatnonzero(dones):
            episode = infos[i]["episode"]
            assert episode["r"] == returns[i] and episode["l"] == lengths[i]
            assert episode["t"] >= last_t
            last_t = episode["t"]
            assert infos[i]["terminal_observation"].shape == vec.observation_space.shape
            assert infos[i]["is_success"] == (rewards[i] > 0)
            returns[i], lengths[i] = 0.0, 0
            ended += 1
        for i in np.flatnonzero(~dones):
            assert infos[i] == {}
