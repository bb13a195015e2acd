"""The greedy agent: plays the first card it legally can, never draws by choice.

A middle baseline between random (which often draws while holding playable
cards) and the heuristic (which chooses *which* card to play). It knows no
rules: it only prefers card plays over other actions.
"""

from __future__ import annotations

from ..engines.base import PlayerView
from ..engines.pile import SUIT_ACTION
from .base import Agent


class GreedyAgent(Agent):
    """Lowest-id card play if any, else a random legal action."""

    name = "greedy"

    def act(self, view: PlayerView) -> int:
        legal = view.legal_actions
        if legal[0] < SUIT_ACTION:
            return legal[0]
        return legal[self.rng.randrange(len(legal))]
