"""The opponents a learner meets: agent specs with weights, and its own checkpoints.

A pool is written as a comma-separated list of agent specs, each with an
optional ``@weight``::

    heuristic@0.5,random@0.1,self@0.4
    random,ismcts:sims=50@0.2

``self`` stands for the learner's earlier checkpoints: the trainer adds each
checkpoint it writes (:meth:`OpponentPool.set_snapshots`), and a seat drawn
as ``self`` gets one of the most recent ones, played by a sampling
:class:`~eights.agents.policy.PolicyAgent`. Until a checkpoint exists,
``self`` seats fall back to the other entries. Every other spec is whatever
:func:`eights.agents.make_agent` accepts.

A league (:mod:`eights.training.league`) reweights the pool as training goes:
:meth:`OpponentPool.set_priorities` multiplies each member's weight (a spec's,
or a snapshot's share of ``self``) by how often it still beats the learner.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..agents import Agent, make_agent, split_specs
from ..config import ConfigError

SELF = "self"


def snapshot_spec(path: str) -> str:
    """The agent spec (and name) of a ``self`` opponent playing the checkpoint ``path``."""
    return f"policy:{path}?sample"


class OpponentPool:
    """Weighted agent specs (and self-play snapshots) that fill the opponents' seats."""

    def __init__(self, entries: Sequence[tuple[str, float]], max_snapshots: int = 5):
        if not entries:
            raise ConfigError("the opponent pool is empty; name at least one agent, "
                              "e.g. 'heuristic' or 'random@0.5,self@0.5'")
        for spec, weight in entries:
            if not weight > 0:
                raise ConfigError(f"opponent {spec!r} has weight {weight!r}; weights must be "
                                  f"positive numbers")
        if all(spec == SELF for spec, _ in entries):
            raise ConfigError("an opponent pool of only 'self' has no one to play before the "
                              "first checkpoint; add an agent such as random@0.1")
        if max_snapshots < 1:
            raise ConfigError(f"max_snapshots={max_snapshots!r}: keep at least one snapshot")
        self.entries = [(spec, float(weight)) for spec, weight in entries]
        self.max_snapshots = max_snapshots
        self.snapshots: list[str] = []
        #: member name -> multiplier of its weight (a league's); None: the weights as given
        self.priorities: dict[str, float] | None = None
        self._agents: dict[str, Agent] = {}

    @classmethod
    def parse(cls, text: str, max_snapshots: int = 5) -> OpponentPool:
        """A pool from ``"spec@weight,spec,..."`` (a missing weight is 1)."""
        entries = []
        for item in split_specs(text, extra_kinds=[SELF]):
            spec, at, weight = item.rpartition("@")
            if not at:
                spec, weight = item, "1"
            try:
                value = float(weight)
            except ValueError:
                raise ConfigError(f"opponent {item!r}: the weight after '@' must be a number, "
                                  f"e.g. heuristic@0.5") from None
            entries.append((spec.strip(), value))
        return cls(entries, max_snapshots=max_snapshots)

    def __str__(self) -> str:
        return ",".join(f"{spec}@{weight:g}" for spec, weight in self.entries)

    def check(self, variant: str) -> None:
        """Make every named agent once, so a bad spec fails before training starts."""
        for spec, _ in self.entries:
            if spec != SELF:
                self._agent(spec, variant)

    def set_snapshots(self, paths: Sequence[str]) -> None:
        """The learner's checkpoints, oldest first; only the newest ``max_snapshots`` are used."""
        self.snapshots = [str(p) for p in paths][-self.max_snapshots:]
        keep = {snapshot_spec(p) for p in self.snapshots}
        for spec in [s for s in self._agents if s.startswith("policy:") and s.endswith("?sample")]:
            if spec not in keep:
                del self._agents[spec]

    def members(self) -> list[tuple[str, float]]:
        """The agents a seat may get now, by name (a snapshot as its ``policy:PATH?sample``
        spec), with their weights: ``self``'s weight is shared by its snapshots, and with
        :attr:`priorities` each weight is multiplied by the member's priority."""
        out = []
        for spec, weight in self.entries:
            if spec != SELF:
                out.append((spec, weight))
            elif self.snapshots:
                share = weight / len(self.snapshots)
                out += [(snapshot_spec(path), share) for path in self.snapshots]
        if self.priorities is not None:
            out = [(name, w * self.priorities.get(name, 1.0)) for name, w in out]
        return out

    def set_priorities(self, priorities: dict[str, float] | None) -> None:
        """Multiply each member's weight by ``priorities[name]`` from now on (a member it
        does not name keeps its weight); None draws by the weights as given again."""
        if priorities is not None:
            bad = {k: v for k, v in priorities.items() if not v > 0}
            if bad:
                raise ConfigError(f"priorities {bad} are not positive numbers")
            priorities = dict(priorities)
        self.priorities = priorities

    def draw(self, variant: str, count: int, rng: np.random.Generator) -> list[Agent]:
        """``count`` opponents for one episode, drawn from :meth:`members` by weight and each
        seeded from ``rng``."""
        members = self.members()
        weights = np.array([w for _, w in members])
        picks = rng.choice(len(members), size=count, p=weights / weights.sum())
        return [self._seeded(members[k][0], variant, rng) for k in picks]

    def _seeded(self, spec: str, variant: str, rng: np.random.Generator) -> Agent:
        """The agent ``spec`` names (made once per pool), seeded from ``rng``."""
        agent = self._agent(spec, variant)
        agent.seed(int(rng.integers(2**63 - 1)))
        return agent

    def _agent(self, spec: str, variant: str) -> Agent:
        agent = self._agents.get(spec)
        if agent is None:
            agent = self._agents[spec] = make_agent(spec, variant)
        return agent


__all__ = ["SELF", "OpponentPool", "snapshot_spec"]
