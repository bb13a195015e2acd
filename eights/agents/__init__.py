"""Agents: every kind behind one interface, made from a spec string.

Specs: ``"random"``, ``"greedy"``, ``"heuristic"``. Later kinds (``"ismcts"``,
``"policy:PATH"``, ``"exec:COMMAND"``) register here too.
"""

from __future__ import annotations

from collections.abc import Callable

from ..config import ConfigError
from ..engines import engine_class
from .base import Agent, play_game
from .greedy import GreedyAgent
from .heuristic import PileHeuristic
from .ismcts import ISMCTSAgent, ismcts_from_spec
from .policy import PolicyAgent
from .random_agent import RandomAgent

#: spec kind -> factory(variant, argument, seed)
AGENT_KINDS: dict[str, Callable[[str, str, int | None], Agent]] = {
    "random": lambda variant, arg, seed: RandomAgent(seed),
    "greedy": lambda variant, arg, seed: GreedyAgent(seed),
    "heuristic": lambda variant, arg, seed: PileHeuristic(seed),
    "ismcts": lambda variant, arg, seed: ismcts_from_spec(arg, seed),
    "policy": lambda variant, arg, seed: PolicyAgent(variant, arg, seed),
}


def make_agent(spec: str, variant: str, seed: int | None = None) -> Agent:
    """An agent for ``variant`` from a spec like ``"heuristic"`` or ``"policy:model.zip"``."""
    engine_class(variant)  # validates the variant
    kind, _, arg = spec.partition(":")
    if kind not in AGENT_KINDS:
        raise ConfigError(f"agent spec {spec!r} is not known; the kinds are "
                          f"{', '.join(AGENT_KINDS)}")
    agent = AGENT_KINDS[kind](variant, arg, seed)
    agent.name = spec
    return agent


__all__ = [
    "AGENT_KINDS", "Agent", "GreedyAgent", "ISMCTSAgent", "PileHeuristic", "PolicyAgent",
    "RandomAgent", "make_agent", "play_game",
]
