"""The uniform random agent: the floor every other agent must clear."""

from __future__ import annotations

from ..engines.base import PlayerView
from .base import Agent


class RandomAgent(Agent):
    """Picks uniformly among the legal actions, from its own seeded generator."""

    name = "random"

    def act(self, view: PlayerView) -> int:
        legal = view.legal_actions
        return legal[self.rng.randrange(len(legal))]
