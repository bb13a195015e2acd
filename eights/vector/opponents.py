"""Opponents that answer for many tables at once.

:class:`~eights.vector.env.VectorEnv` asks the opponents of every table whose
seat to act is not the learner's in one call per round. Each kind answers in
as few calls as it can:

* ``heuristic``: the variant's heuristic, compiled with the core where there
  is one (one numba call for every table), else the Python agent per table;
* ``random``: a uniform legal action per table, from the mask (one numpy call);
* ``greedy``: the lowest-id card play in the mask, else a uniform legal action;
* ``policy`` / ``policy:MODEL`` (``?sample`` to sample): a trained policy, one
  forward pass of its network over every table's observation;
* any other agent spec (``ismcts:...``, ``greedy``): the Python agent on each
  table's view, which only the Python tables have (``backend="python"``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..agents import make_agent
from ..agents.policy import PolicyAgent
from ..config import ConfigError
from .kernels import random_actions
from .tables import PythonTables, Tables

#: the kinds every backend answers in batches
BATCHED = ("heuristic", "random", "greedy", "policy")


class Opponent:
    """Answers for a batch of tables: ``act(tables, rows)`` -> one action per table."""

    def act(self, tables: np.ndarray, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    #: whether :meth:`act` reads the observations and masks (else they are not written)
    reads_observation = True


class HeuristicOpponent(Opponent):
    reads_observation = False

    def __init__(self, core: Tables) -> None:
        self.core = core

    def act(self, tables, obs, masks):
        return self.core.heuristic_actions(tables)


class RandomOpponent(Opponent):
    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def act(self, tables, obs, masks):
        return random_actions(masks, self.rng)


class GreedyOpponent(Opponent):
    """:class:`~eights.agents.greedy.GreedyAgent` over masks: the lowest-id legal card play,
    else a uniformly random legal action (the actions whose text is ``play ...``)."""

    def __init__(self, core: Tables, rng: np.random.Generator) -> None:
        from ..agents.greedy import card_plays

        self.plays = card_plays(core.variant)
        self.rng = rng

    def act(self, tables, obs, masks):
        playable = (masks != 0) & self.plays
        has_play = playable.any(axis=1)
        out = random_actions(masks, self.rng)
        out[has_play] = np.argmax(playable[has_play], axis=1)
        return out


class PolicyOpponent(Opponent):
    """A trained policy's network over a batch of observations (greedy, or sampled)."""

    def __init__(self, agent: PolicyAgent, core: Tables, rng: np.random.Generator) -> None:
        agent.check_table(core.config)
        if agent._encoder.size != core.observation_size:
            raise ConfigError(
                f"opponent {agent.name!r} reads {agent._encoder.size} observation features "
                f"(observation v{agent._encoder.version}); these tables write "
                f"{core.observation_size}: give a model of the same observation version, or "
                f"backend='python' with version=...")
        self.agent, self.rng = agent, rng

    def act(self, tables, obs, masks):
        logits = np.where(masks != 0, self.agent._net.logits(obs), -np.inf)
        if self.agent.sample:  # Gumbel-max: argmax of logits + Gumbel noise ~ softmax(logits)
            logits += self.rng.gumbel(size=logits.shape)
        return np.argmax(logits, axis=1)


class AgentOpponent(Opponent):
    """Any agent, acting on each table's Python view (Python tables only)."""

    reads_observation = False

    def __init__(self, agent: Any, core: PythonTables) -> None:
        agent.check_table(core.config)
        self.agent, self.core = agent, core

    def act(self, tables, obs, masks):
        engines = self.core.engines
        return np.array([self.agent.act(engines[i].view(engines[i].current_player))
                         for i in tables], np.int64)


def spec_kind(spec: str) -> str:
    """An agent spec's kind (``policy:m.npz#b`` -> ``policy``): what decides whether the
    tables answer for it in batches (:data:`BATCHED`)."""
    return spec.partition(":")[0].partition("#")[0]


def make_opponent(spec: str, core: Tables, seed: int | None) -> Opponent:
    """The opponent for an agent ``spec`` at these tables; see the module docstring."""
    if not isinstance(spec, str):
        raise ConfigError(f"eights.vector: an opponent is an agent spec (a str), not "
                          f"{type(spec).__name__}; batched kinds: {', '.join(BATCHED)}")
    rng = np.random.default_rng(seed)
    kind = spec_kind(spec)
    if kind == "heuristic":
        return HeuristicOpponent(core)
    if kind == "random":
        return RandomOpponent(rng)
    if kind == "greedy":
        return GreedyOpponent(core, rng)
    agent = make_agent(spec, core.variant, seed)
    if isinstance(agent, PolicyAgent):
        return PolicyOpponent(agent, core, rng)
    if isinstance(core, PythonTables):
        return AgentOpponent(agent, core)
    raise ConfigError(f"eights.vector: opponent {spec!r} plays from Python views, which the "
                      f"compiled {core.variant} tables do not make; batched kinds: "
                      f"{', '.join(BATCHED)} (or backend='python' for any agent)")
