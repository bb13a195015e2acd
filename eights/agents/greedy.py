"""The greedy agent: plays the first card it legally can, never draws by choice.

A middle baseline between random (which often draws while holding playable
cards) and the heuristic (which chooses *which* card to play). It knows no
rules: it only prefers card plays over other actions.
"""

from __future__ import annotations

import functools

import numpy as np

from ..engines import engine_class
from ..engines.base import PlayerView
from .base import Agent


@functools.cache
def card_plays(variant: str) -> np.ndarray:
    """Which of ``variant``'s action ids play a card (their text starts ``play ``): what
    greedy prefers, read the same way by this agent and its batched forms
    (:mod:`eights.vector.opponents`, :mod:`eights.tournament.compiled`)."""
    return np.array([text.startswith("play ") for text in engine_class(variant).actions.texts],
                    bool)


class GreedyAgent(Agent):
    """The lowest-id card play if any, else a random legal action."""

    name = "greedy"

    def act(self, view: PlayerView) -> int:
        legal = view.legal_actions
        plays = card_plays(view.variant)
        for a in legal:
            if plays[a]:
                return a
        return legal[self.rng.randrange(len(legal))]
