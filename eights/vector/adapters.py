""":class:`~eights.vector.env.VectorEnv` behind the interfaces RL libraries expect.

* :class:`GymVectorEnv`: Gymnasium's ``VectorEnv`` (``SAME_STEP`` auto-reset):
  observations are ``{"observation", "action_mask"}`` as the PettingZoo envs
  give them, batched; ``infos["final_obs"]`` is an object array holding each
  ended game's last such dict (``None`` elsewhere), as Gymnasium's own
  ``SyncVectorEnv`` keeps it.
* :class:`SB3VecEnv`: stable-baselines3's ``VecEnv``, the observation a flat
  ``Box`` as :class:`~eights.training.SingleAgentEnv` gives it (so the same
  network and hyperparameters train on either), ``action_masks()`` for
  MaskablePPO (found through ``env_method`` as sb3-contrib looks for it), and
  each ended game's ``terminal_observation``, ``episode`` (reward and
  length and seconds since the env was made, what ``VecMonitor`` would add, so
  ``eights train`` does not wrap it again) and what
  :class:`~eights.training.SingleAgentEnv` tells at a game's end (``seat``,
  ``opponents``, ``winners``, ``is_success``: a league reads them) in its info;
  ``env_method("set_snapshots"/"set_priorities", ...)`` reaches the opponent
  pool, once for all tables, as ``eights train`` calls it.

Neither copies the tables' arrays more than its library's convention asks.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from .env import VectorEnv

#: the VectorEnv methods ``env_method`` reaches (the trainer's calls to its opponent pool)
SHARED_METHODS = ("set_snapshots", "set_priorities")


def _spaces(env: VectorEnv) -> tuple[spaces.Dict, spaces.Box, spaces.Discrete]:
    observation = spaces.Box(0.0, 1.0, (env.observation_size,), np.float32)
    mask = spaces.Box(0, 1, (env.num_actions,), np.int8)
    return (spaces.Dict({"observation": observation, "action_mask": mask}), observation,
            spaces.Discrete(env.num_actions))


class GymVectorEnv(gymnasium.vector.VectorEnv):
    """Gymnasium's ``VectorEnv`` over a :class:`VectorEnv`; see the module docstring."""

    metadata: ClassVar[dict[str, Any]] = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(self, env: VectorEnv) -> None:
        self.env = env
        self.num_envs = env.num_envs
        self.single_observation_space, _, self.single_action_space = _spaces(env)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)

    def _obs(self) -> dict[str, np.ndarray]:
        return {"observation": self.env.obs, "action_mask": self.env.masks}

    def reset(self, *, seed: int | Sequence[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict]:
        if seed is not None and not isinstance(seed, int):
            seed = int(seed[0])  # the tables' streams all come from one seed
        _, infos = self.env.reset(seed)
        return self._obs(), infos

    def step(self, actions: np.ndarray) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray,
                                                  np.ndarray, dict[str, Any]]:
        _, rewards, terminated, truncated, infos = self.env.step(np.asarray(actions))
        if "final_obs" in infos:
            flags = infos["_final_obs"]
            final = np.full(self.num_envs, None, dtype=object)
            for i in np.flatnonzero(flags):
                final[i] = {"observation": infos["final_obs"][i].copy(),
                            "action_mask": np.zeros(self.env.num_actions, np.int8)}
            infos["final_obs"] = final
        return self._obs(), rewards, terminated, truncated, infos


class SB3VecEnv:
    """stable-baselines3's ``VecEnv`` over a :class:`VectorEnv`; see the module docstring.

    Made by :func:`sb3_vec_env` (stable-baselines3 is imported only then)."""


def sb3_vec_env(env: VectorEnv) -> Any:
    """``env`` as a stable-baselines3 ``VecEnv`` (MaskablePPO trains on it as on
    ``DummyVecEnv([SingleAgentEnv...])``)."""
    from stable_baselines3.common.vec_env import VecEnv

    _, observation, action = _spaces(env)

    class _SB3VecEnv(VecEnv, SB3VecEnv):
        def __init__(self) -> None:
            super().__init__(env.num_envs, observation, action)
            self.env = env
            self._actions: np.ndarray | None = None
            self._lengths = np.zeros(env.num_envs, np.int64)
            self._returns = np.zeros(env.num_envs, np.float64)
            self._seed: int | None = None
            self._started = time.time()  # an episode's "t", as VecMonitor reports it

        def reset(self) -> np.ndarray:
            obs, _ = env.reset(self._seed)
            self._seed = None
            self._lengths[:] = 0
            self._returns[:] = 0.0
            return obs.copy()

        def step_async(self, actions: np.ndarray) -> None:
            self._actions = np.asarray(actions).astype(np.int64).reshape(env.num_envs)

        def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict]]:
            obs, rewards, terminated, truncated, infos = env.step(self._actions)
            self._lengths += 1
            self._returns += rewards
            dones = terminated | truncated
            out: list[dict] = [{} for _ in range(env.num_envs)]
            ended = iter(infos.get("episode_info", ()))
            for i in np.flatnonzero(dones):
                out[i] = {**next(ended), "terminal_observation": infos["final_obs"][i].copy(),
                          "TimeLimit.truncated": bool(truncated[i] and not terminated[i]),
                          "episode": {"r": float(self._returns[i]), "l": int(self._lengths[i]),
                                      "t": round(time.time() - self._started, 6)}}
                self._lengths[i] = 0
                self._returns[i] = 0.0
            return obs.copy(), rewards.copy(), dones, out

        def action_masks(self) -> np.ndarray:
            return env.action_masks()

        def env_method(self, method_name: str, *args: Any, indices: Any = None,
                       **kwargs: Any) -> list[Any]:
            rows = self._get_indices(indices)
            if method_name == "action_masks":
                masks = env.action_masks()
                return [masks[i] for i in rows]
            if method_name in SHARED_METHODS:  # one pool serves every table: called once
                result = getattr(env, method_name)(*args, **kwargs)
                return [result for _ in rows]
            raise AttributeError(f"eights.vector: the tables have no method {method_name!r}; "
                                 f"they answer {', '.join(('action_masks', *SHARED_METHODS))}")

        def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
            value = getattr(self, attr_name) if attr_name == "action_masks" else \
                getattr(env, attr_name)
            return [value for _ in self._get_indices(indices)]

        def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
            raise AttributeError(f"eights.vector: the tables' attributes are read-only "
                                 f"({attr_name!r})")

        def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
            return [False for _ in self._get_indices(indices)]

        def seed(self, seed: int | None = None) -> Sequence[int | None]:
            self._seed = seed
            return [seed] * env.num_envs

        def close(self) -> None:
            pass

    return _SB3VecEnv()
