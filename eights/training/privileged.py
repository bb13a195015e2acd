"""Privileged features: what the referee knows and a seat does not, for a training critic only.

A value network that sees only a seat's observation must learn the luck of
the hidden hands as noise: the same observation is a won position with one
deal of the other hands and a lost one with another. PerfectDou (Yang et al.,
NeurIPS 2022) trains DouDizhu agents with a *perfect-information* critic for
that reason: during training the value network also reads the hidden cards,
while the policy reads only what its seat may see, so what is exported and
played never depends on a hidden card.

:class:`PrivilegedFeatures` writes those hidden cards as a vector appended
to the observation of :class:`~eights.training.single_agent.SingleAgentEnv`
with ``privileged=True`` (an explicit training option; no env shows them
otherwise):

* per opponent, in seat order after the learner: how many copies of each
  card id its hand holds, as a fraction of the deck's copies;
* the stock's next card, one-hot over the card ids (all zero when the stock
  is empty): who draws what next is luck the critic may account for.

Every variant's table (:class:`~eights.engines.table.TableEngine`) keeps its
hands and stock in the same place, so one writer serves all five.
:class:`~eights.training.critic.PrivilegedCriticPolicy` splits the vector
again: the policy network reads the first ``observation_size`` features and
the value network all of them.
"""

from __future__ import annotations

import numpy as np

from ..config import GameConfig
from ..engines import engine_class


class PrivilegedFeatures:
    """Writes the hidden cards of a table as features; see the module docstring."""

    def __init__(self, variant: str, config: GameConfig):
        cls = engine_class(variant)
        game = cls(config, seed=0)
        copies = np.asarray(game.deck_counts(), dtype=np.float32)
        #: card ids in the deck (a Crazier Eights card file may leave some out)
        self.cards = len(copies)
        self.num_players = config.num_players
        #: one over the deck's copies of each card (0 for a card the deck lacks)
        self._scale = np.divide(1.0, copies, out=np.zeros_like(copies), where=copies > 0)
        self.size = self.cards * self.num_players  # (players - 1) hands and the stock's top

    def encode(self, engine: object, seat: int) -> np.ndarray:
        """The features of ``engine``'s table for the learner at ``seat``."""
        state = engine.state  # type: ignore[attr-defined]
        cards, out = self.cards, np.zeros(self.size, dtype=np.float32)
        for k in range(1, self.num_players):
            hand = state.hands[(seat + k) % self.num_players]
            out[(k - 1) * cards:k * cards] = np.bincount(hand, minlength=cards) * self._scale
        if state.stock:
            out[(self.num_players - 1) * cards + state.stock[-1]] = 1.0
        return out


__all__ = ["PrivilegedFeatures"]
