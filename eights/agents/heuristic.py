"""Rule-based agents: what a careful human player does, written down.

:class:`PileHeuristic` plays every single-pile variant (Crazy Eights, Livery
Eights) from the :class:`~eights.engines.pile.PlayerView` alone:

* it keeps 8s (wild) for when nothing else fits, unless it is close to going out;
* it plays from its longest suit, so the suit it leaves on the pile is one it
  can follow again, and it sheds high-point cards first;
* it saves the cards that hurt the next player (a draw card, a skip) for when
  an opponent is close to going out;
* after an 8 it names the suit it holds most of;
* it stacks 2s rather than picking up, always calls "last card", and always
  challenges a missed call.

Card effects and points come from the engine class, never from a copy of the rules.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import RANK, SUIT
from ..engines import engine_class
from ..engines.base import PlayerView
from .base import Agent

KEEP_WILD = -40.0
ATTACK_NEAR_OUT = 25.0
ATTACK_ANYTIME = 2.0


def best_suit(hand: Sequence[int]) -> int:
    """The suit to name after an 8: the one ``hand`` holds most of (8s aside)."""
    counts = [0.0] * 4
    for c in hand:
        if RANK[c] != 8 and SUIT[c] >= 0:
            counts[SUIT[c]] += 1 + RANK[c] / 100  # ties: keep the suit of higher cards
    return max(range(4), key=lambda s: counts[s])


class PileHeuristic(Agent):
    """Heuristic for single-pile variants; see the module docstring."""

    name = "heuristic"

    def act(self, view: PlayerView) -> int:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        engine = engine_class(view.variant)
        texts = engine.actions.texts
        for wanted in ("last card", "challenge"):
            for a in legal:
                if texts[a] == wanted:
                    return a
        actions = engine.actions
        suit, play, draw = actions["suit"], actions["play"], actions["draw"].id()
        if any(a in suit for a in legal):
            return suit.id(self._best_suit(view))
        plays = [a for a in legal if a in play]
        if not plays:
            return draw if draw in legal else legal[0]
        return max(plays, key=lambda a: (self._score(view, engine, actions.value(a)), -a))

    @staticmethod
    def _best_suit(view: PlayerView) -> int:
        return best_suit(view.hand)

    def _score(self, view: PlayerView, engine: type, c: int) -> float:
        hand = view.hand
        rank = RANK[c]
        score = 0.0
        if rank == 8 and len(hand) > 2:
            score += KEEP_WILD
        score += 0.5 * engine.points_by_rank[rank - 1]
        same_suit = sum(1 for h in hand if SUIT[h] == SUIT[c] and h != c)
        score += 3.0 * same_suit
        attack = engine.attack_ranks.get(rank, 0)
        if attack:
            n = view.num_players
            nearest = min(view.hand_sizes[(view.seat + k) % n] for k in range(1, n))
            score += attack * (ATTACK_NEAR_OUT if nearest <= 2 else ATTACK_ANYTIME)
        return score
