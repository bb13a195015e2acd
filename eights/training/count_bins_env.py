"""The trainer's envs with count bins after each observation (``eights train --count-bins``).

A model that reads count bins (:mod:`eights.agents.count_bins`) takes the
observation and its bins as its input, so the envs it trains on hand it both:
this wrapper appends the bins to every observation a vector env returns (the
final observation of a finished game included), whatever kind of vector env it
wraps. The action masks pass through untouched.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from stable_baselines3.common.vec_env import VecEnv, VecEnvWrapper

from ..agents.count_bins import CountBins


class CountBinsVecEnv(VecEnvWrapper):
    """``venv`` whose observations carry ``bins`` after them."""

    def __init__(self, venv: VecEnv, bins: CountBins):
        self.bins = bins
        size = bins.observation_size + bins.size
        super().__init__(venv, observation_space=gym.spaces.Box(0.0, 1.0, (size,), np.float32))

    def reset(self) -> np.ndarray:
        return self.bins.apply(self.venv.reset())

    def step_wait(self) -> Any:
        obs, rewards, dones, infos = self.venv.step_wait()
        for info in infos:
            if "terminal_observation" in info:
                info["terminal_observation"] = self.bins.apply(info["terminal_observation"])
        return self.bins.apply(obs), rewards, dones, infos

    def action_masks(self) -> np.ndarray:
        return np.stack(self.venv.env_method("action_masks"))
