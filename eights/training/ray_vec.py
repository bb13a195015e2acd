"""The learner's games on Ray: each env of a training run in a Ray actor.

``eights train --vec ray`` plays the league's games (every env with its
opponents) in Ray actors, on a cluster given by ``--ray-address`` or on a
local Ray, and learns in this process: what ``SubprocVecEnv`` does with local
processes, spread over as many machines as the cluster has. Each actor holds
one :class:`~eights.training.single_agent.SingleAgentEnv`, built there from
the same picklable factory the other vector envs use, and resets it when an
episode ends, keeping its final observation in ``info["terminal_observation"]``
as stable-baselines3's vector envs do; so a run plays the same episodes on
Ray as in one process. ``env_method`` (the league's snapshots and priorities)
reaches every actor. Needs the ``ray`` extra.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import (
    VecEnv,
    VecEnvIndices,
    VecEnvObs,
    VecEnvStepReturn,
)


class _EnvActor:
    """Some envs of the run, stepped as stable-baselines3's subprocess workers step theirs."""

    def __init__(self, makes: Sequence[Callable[[], Any]]):
        self.envs = [make() for make in makes]

    def spaces(self) -> tuple[Any, Any]:
        return self.envs[0].observation_space, self.envs[0].action_space

    def reset(self, seeds: Sequence[int | None], options: Sequence[dict | None]) -> list:
        return [env.reset(seed=seed, options=option)
                for env, seed, option in zip(self.envs, seeds, options, strict=True)]

    def step(self, actions: Sequence[int]) -> list[tuple]:
        from .batched import vector_step

        return [vector_step(env, env.step(action))
                for env, action in zip(self.envs, actions, strict=True)]

    def call(self, which: Sequence[int], name: str, args: Sequence, kwargs: dict) -> list:
        return [getattr(self.envs[k], name)(*args, **kwargs) for k in which]

    def get(self, which: Sequence[int], name: str) -> list:
        return [getattr(self.envs[k], name) for k in which]

    def set(self, which: Sequence[int], name: str, value: Any) -> list[None]:
        return [setattr(self.envs[k], name, value) for k in which]

    def is_wrapped(self, which: Sequence[int], wrapper: type) -> list[bool]:
        from stable_baselines3.common.env_util import is_wrapped

        return [is_wrapped(self.envs[k], wrapper) for k in which]


class RayVecEnv(VecEnv):
    """Envs in Ray actors; see the module docstring. ``address``: a cluster's address, or
    None for a local Ray (started here, with ``num_cpus`` CPUs, and shut down on close).
    The envs are spread over ``actors`` actors of one CPU each (default: as many as the
    cluster has CPUs, at most one per env), each stepping its share in turn."""

    def __init__(self, env_fns: Sequence[Callable[[], Any]], address: str | None = None,
                 num_cpus: int | None = None, actors: int | None = None):
        from ..extras import connect_ray

        ray, self._started_here = connect_ray(address, num_cpus, "training on Ray (--vec ray)")
        self._ray = ray
        if actors is None:
            actors = max(1, int(ray.cluster_resources().get("CPU", 1)))
        actors = min(actors, len(env_fns))
        size = -(-len(env_fns) // actors)
        #: (actor, the env indices it holds)
        self._shares = [list(range(k, min(k + size, len(env_fns))))
                        for k in range(0, len(env_fns), size)]
        remote = ray.remote(num_cpus=1)(_EnvActor)
        self.actors = [remote.remote([env_fns[k] for k in share]) for share in self._shares]
        observation_space, action_space = ray.get(self.actors[0].spaces.remote())
        super().__init__(len(env_fns), observation_space, action_space)
        self._pending: list[Any] = []
        self.closed = False

    def reset(self) -> VecEnvObs:
        ray = self._ray
        parts = ray.get([a.reset.remote([self._seeds[k] for k in share],
                                        [self._options[k] for k in share])
                         for a, share in zip(self.actors, self._shares, strict=True)])
        results = [r for part in parts for r in part]
        obs, infos = zip(*results, strict=True)
        self.reset_infos = list(infos)
        self._reset_seeds()
        self._reset_options()
        return np.stack(obs)

    def step_async(self, actions: np.ndarray) -> None:
        self._pending = [a.step.remote([int(actions[k]) for k in share])
                         for a, share in zip(self.actors, self._shares, strict=True)]

    def step_wait(self) -> VecEnvStepReturn:
        parts = self._ray.get(self._pending)
        self._pending = []
        results = [r for part in parts for r in part]
        obs, rewards, dones, infos, reset_infos = zip(*results, strict=True)
        self.reset_infos = list(reset_infos)
        return (np.stack(obs), np.array(rewards, dtype=np.float32), np.array(dones),
                list(infos))

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        for a in self.actors:
            self._ray.kill(a)
        if self._started_here:
            self._ray.shutdown()

    def _ask(self, indices: VecEnvIndices, method: str, *args: Any) -> list[Any]:
        """Call ``method`` on the actors holding the envs ``indices``, in the envs' order."""
        wanted = set(self._get_indices(indices))
        refs, order = [], []
        for actor, share in zip(self.actors, self._shares, strict=True):
            which = [i for i, k in enumerate(share) if k in wanted]
            if which:
                refs.append(getattr(actor, method).remote(which, *args))
                order += [share[i] for i in which]
        answers = [x for part in self._ray.get(refs) for x in part]
        by_env = dict(zip(order, answers, strict=True))
        return [by_env[k] for k in self._get_indices(indices)]

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        return self._ask(indices, "get", attr_name)

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        self._ask(indices, "set", attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: VecEnvIndices = None,
                   **method_kwargs: Any) -> list[Any]:
        return self._ask(indices, "call", method_name, method_args, method_kwargs)

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        return self._ask(indices, "is_wrapped", wrapper_class)


__all__ = ["RayVecEnv"]
