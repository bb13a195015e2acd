"""A vector env whose opponents answer together: one forward pass per model per round.

In self-play a third or more of the opponent seats are the learner's own
checkpoints (``self`` in the pool), each a
:class:`~eights.agents.policy.PolicyAgent`. Stepped one env after another
(stable-baselines3's ``DummyVecEnv``), every opponent decision is a forward
pass over a single observation, and numpy spends most of such a pass on
calling overhead, not arithmetic. :class:`BatchedOpponentsVecEnv` steps all
its envs at once instead:

1. every env applies its learner's action
   (:meth:`~eights.training.single_agent.SingleAgentEnv.play_learner`);
2. in rounds, every env whose opponent is to act contributes that opponent's
   turn; the turns are answered by
   :func:`~eights.agents.policy.act_together`, which gives the policy agents
   that play the same model file one forward pass over all their
   observations (other agents act alone), and each env applies its answer;
   rounds go on until every env is back at its learner's turn or over;
3. every env gives its result
   (:meth:`~eights.training.single_agent.SingleAgentEnv.outcome`), and a
   finished env is reset, as ``DummyVecEnv`` does (its final observation in
   ``info["terminal_observation"]``).

Each agent still draws from its own random generator in the same order, so
the episodes are those ``DummyVecEnv`` plays from the same seeds (the tests
compare them), only faster. ``eights train --vec batched`` runs it, and the default
``--vec auto`` does where the compiled tables cannot play the run (a privileged critic,
an opponent that plays from Python views).
"""

from __future__ import annotations

from copy import deepcopy
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env import DummyVecEnv
from stable_baselines3.common.vec_env.base_vec_env import VecEnvStepReturn

from ..agents.policy import act_together


def vector_step(env: Any, result: tuple) -> tuple[np.ndarray, float, bool, dict, dict]:
    """``env``'s Gymnasium step ``result`` as stable-baselines3's vector envs give it:
    (observation, reward, done, info, reset info), ``info["TimeLimit.truncated"]`` set, and a
    finished episode's env reset, its final observation kept in
    ``info["terminal_observation"]`` (this vector env's and :mod:`eights.training.ray_vec`'s
    actors' one way of ending an episode)."""
    obs, reward, terminated, truncated, info = result
    done = terminated or truncated
    info["TimeLimit.truncated"] = truncated and not terminated
    reset_info: dict = {}
    if done:
        info["terminal_observation"] = obs
        obs, reset_info = env.reset()
    return obs, reward, done, info, reset_info


class BatchedOpponentsVecEnv(DummyVecEnv):
    """``DummyVecEnv`` over :class:`~eights.training.single_agent.SingleAgentEnv` copies,
    their opponents answering in batches; see the module docstring."""

    def step_wait(self) -> VecEnvStepReturn:
        results: list[tuple | None] = [env.play_learner(self.actions[k])  # type: ignore[attr-defined]
                                       for k, env in enumerate(self.envs)]
        waiting = [k for k, done in enumerate(results) if done is None]
        while waiting:
            turns = [(k, self.envs[k].pending_opponent()) for k in waiting]  # type: ignore[attr-defined]
            turns = [(k, turn) for k, turn in turns if turn is not None]
            if not turns:
                break
            actions = act_together([turn for _, turn in turns])
            for (k, _), action in zip(turns, actions, strict=True):
                self.envs[k].engine.step(action)  # type: ignore[attr-defined]
            waiting = [k for k, _ in turns]
        for k, env in enumerate(self.envs):
            result = results[k] if results[k] is not None else env.outcome()  # type: ignore[attr-defined]
            obs, self.buf_rews[k], self.buf_dones[k], self.buf_infos[k], reset_info = (
                vector_step(env, result))
            if self.buf_dones[k]:
                self.reset_infos[k] = reset_info
            self._save_obs(k, obs)
        return (self._obs_from_buf(), np.copy(self.buf_rews), np.copy(self.buf_dones),
                deepcopy(self.buf_infos))


__all__ = ["BatchedOpponentsVecEnv", "vector_step"]
