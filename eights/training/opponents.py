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
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..agents import Agent, make_agent, split_specs
from ..config import ConfigError

SELF = "self"


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
        keep = {f"policy:{p}?sample" for p in self.snapshots}
        for spec in [s for s in self._agents if s.startswith("policy:") and s.endswith("?sample")]:
            if spec not in keep:
                del self._agents[spec]

    def draw(self, variant: str, count: int, rng: np.random.Generator) -> list[Agent]:
        """``count`` opponents for one episode, each seeded from ``rng``."""
        entries = [(s, w) for s, w in self.entries if s != SELF or self.snapshots]
        weights = np.array([w for _, w in entries])
        picks = rng.choice(len(entries), size=count, p=weights / weights.sum())
        out = []
        for k in picks:
            spec = entries[k][0]
            if spec == SELF:
                path = self.snapshots[int(rng.integers(len(self.snapshots)))]
                spec = f"policy:{path}?sample"
            agent = self._agent(spec, variant)
            agent.seed(int(rng.integers(2**63 - 1)))
            out.append(agent)
        return out

    def _agent(self, spec: str, variant: str) -> Agent:
        agent = self._agents.get(spec)
        if agent is None:
            agent = self._agents[spec] = make_agent(spec, variant)
        return agent


__all__ = ["SELF", "OpponentPool"]
