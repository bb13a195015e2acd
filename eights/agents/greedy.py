"""The greedy agent: plays the first card it legally can, never draws by choice.

A middle baseline between random (which often draws while holding playable
cards) and the heuristic (which chooses *which* card to play). It knows no
rules: it only prefers card plays over other actions.
"""

from __future__ import annotations

from ..engines import engine_class
from ..engines.base import PlayerView
from .base import Agent


class GreedyAgent(Agent):
    """The lowest-id card play if any, else a random legal action."""

    name = "greedy"

    def act(self, view: PlayerView) -> int:
        legal = view.legal_actions
        texts = engine_class(view.variant).actions.texts
        for a in legal:
            if texts[a].startswith("play "):
                return a
        return legal[self.rng.randrange(len(legal))]
