"""A careful player of Jokers of Death, from the seat's view alone.

* It always knocks with one card (forgetting only costs it the hand);
* it answers every 2 and 4 of Spades it can, and kills a 4 of Spades with a
  Joker whenever the rules let it (a Joker in hand is 50 points);
* it draws as soon as a pile cannot be matched (the draw comes anyway, and
  the cards drawn widen the choice for the other piles); with an empty stock
  it places what it can before passing;
* it plays the most constrained pile first (the one with the fewest cards
  of its hand that fit) and keeps its 8s for piles nothing else fits;
* among the cards for a pile it sheds points first, and it plays the cards
  that hurt the next player (2, 4 of Spades, Aces) when the next player is
  close to going out or holds few cards;
* after an 8 it names the suit it holds most of; after a 10 it turns play
  towards the neighbour with more cards, so the one close to going out waits;
* it stops the hand with two Jokers only when its hand, Jokers included, is
  worth less than what the smallest other hand is likely to hold.
"""

from __future__ import annotations

from ..cards import RANK
from ..engines.base import PlayerView
from ..engines.jokers_of_death import (
    ACTIONS,
    DRAW,
    FOUR_OF_SPADES,
    KEEP,
    KNOCK,
    PASS,
    PLAY_OF,
    POINTS_BY_RANK,
    REVERSE,
    STOP,
    JokersOfDeathGame,
)
from .base import Agent
from .heuristic import best_suit

SUIT_BLOCK = ACTIONS["suit"]
#: the average points of a card of the deck, for guessing what a hidden hand holds
MEAN_POINTS = 7.5
#: how much a card that hurts the next player is worth playing now, by rank
ATTACK = {2: 6.0, 1: 4.0}
ATTACK_FOUR = 12.0
KEEP_EIGHT = -40.0


class JokersOfDeathHeuristic(Agent):
    """Heuristic for ``jokers_of_death``; see the module docstring."""

    name = "heuristic"

    def act(self, view: PlayerView) -> int:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        if STOP in legal and self._should_stop(view):
            return STOP
        if KNOCK in legal:
            return KNOCK
        if REVERSE in legal:
            return self._direction(view)
        suits = [a for a in legal if a in SUIT_BLOCK]
        if suits:
            return SUIT_BLOCK.id(best_suit(view.hand))
        plays = [a for a in legal if a in PLAY_OF]
        if view.phase == "answer":
            return plays[0] if plays else DRAW
        if DRAW in legal and view.phase == "play":
            return DRAW
        if not plays:
            return DRAW if DRAW in legal else PASS
        return max(plays, key=lambda a: (self._score(view, a, plays), -a))

    @staticmethod
    def _should_stop(view: PlayerView) -> bool:
        mine = JokersOfDeathGame.points(view.hand)
        others = min(size for p, size in enumerate(view.hand_sizes) if p != view.seat)
        return mine < others * MEAN_POINTS

    @staticmethod
    def _direction(view: PlayerView) -> int:
        """Play goes on towards the neighbour holding more cards."""
        n = view.num_players
        ahead = view.hand_sizes[(view.seat + view.direction) % n]
        behind = view.hand_sizes[(view.seat - view.direction) % n]
        return REVERSE if behind > ahead else KEEP

    def _score(self, view: PlayerView, action: int, plays: list[int]) -> float:
        c, k = PLAY_OF[action]
        fitting = sum(1 for a in plays if PLAY_OF[a][1] == k)
        rank = RANK[c]
        score = -3.0 * fitting + POINTS_BY_RANK[rank] / 4
        if rank == 8 and fitting > 1:
            score += KEEP_EIGHT
        n = view.num_players
        nxt = view.hand_sizes[(view.seat + view.direction) % n]
        threat = 2.0 if nxt <= 3 else 1.0
        if c == FOUR_OF_SPADES:
            score += ATTACK_FOUR * threat
        else:
            score += ATTACK.get(rank, 0.0) * threat
        return score
