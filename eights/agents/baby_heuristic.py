"""A careful player of Baby-Eating Eights, from the seat's view alone.

* It drops what hurts the next player (Tens, Aces, Jokers, skips) when the
  next player is an opponent, and holds them when the next player is an ally;
* it plays from its longest suit, so it can follow the suit it leaves;
* it keeps the wild cards (8, Jokers, King of Hearts) for when nothing else
  fits: the must-play rule lets it hold them, and each one saved is a turn
  it will not have to draw;
* it plays a wild card rather than draw until something fits;
* after an 8 or a Joker it names the suit it holds most of; in a Jack round
  it puts that suit's Jack on top;
* a Five makes the opponent with the fewest cards draw; a Seven swaps with
  the opponent with the fewest cards (their cards are as likely as any to be
  good, and it slows them); in Four in a Row it gives up the card of its
  thinnest suit.
"""

from __future__ import annotations

from ..cards import RANK, SUIT
from ..engines.baby_eating_eights import ACTIONS, CARD_OF_ACTION, KING_OF_HEARTS, BabyEatingView
from .base import Agent
from .heuristic import best_suit

SUIT_BLOCK, TARGET_BLOCK, BOTTOM_BLOCK = ACTIONS["suit"], ACTIONS["target"], ACTIONS["bottom"]
DRAW, PASS = ACTIONS["draw"].id(), ACTIONS["pass"].id()

#: how much a card hurts the next player, by rank (0: a joker)
ATTACK = {1: 3.0, 2: 2.0, 10: 3.0, 13: 2.5, 0: 4.0}
WILD_HOLD = -30.0


class BabyEatingHeuristic(Agent):
    """Heuristic for ``baby_eating_eights``; see the module docstring."""

    name = "heuristic"

    def act(self, view: BabyEatingView) -> int:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        suits = [a for a in legal if a in SUIT_BLOCK]
        if suits:
            wanted = SUIT_BLOCK.id(best_suit(view.hand))
            return wanted if wanted in legal else suits[0]
        targets = [a for a in legal if a in TARGET_BLOCK]
        if targets:
            return self._target(view, targets)
        bottoms = [a for a in legal if a in BOTTOM_BLOCK]
        if bottoms:
            return self._bottom(view, bottoms)
        plays = [a for a in legal if CARD_OF_ACTION[a] >= 0]
        if view.phase == "jack round":
            best = best_suit(view.hand)
            return max(plays, key=lambda a: (SUIT[CARD_OF_ACTION[a]] == best, -a))
        if not plays:
            return PASS if PASS in legal else (DRAW if DRAW in legal else legal[0])
        return max(plays, key=lambda a: (self._score(view, CARD_OF_ACTION[a]), -a))

    def _opponents(self, view: BabyEatingView) -> list[int]:
        mine = view.teams[view.seat]
        return [p for p in range(view.num_players) if view.teams[p] != mine]

    def _next_is_opponent(self, view: BabyEatingView) -> bool:
        n = view.num_players
        nxt = (view.seat + view.direction) % n
        return view.teams[nxt] != view.teams[view.seat]

    def _score(self, view: BabyEatingView, c: int) -> float:
        hand = view.hand
        rank = RANK[c]
        wild = rank in (0, 8) or c == KING_OF_HEARTS
        score = WILD_HOLD if wild and len(hand) > 2 else 0.0
        score += 3.0 * sum(1 for h in hand if SUIT[h] == SUIT[c] and h != c and SUIT[c] >= 0)
        attack = ATTACK.get(rank, 0.0)
        if attack:
            score += attack * (4.0 if self._next_is_opponent(view) else -4.0)
        return score

    def _target(self, view: BabyEatingView, targets: list[int]) -> int:
        opponents = set(self._opponents(view))
        pool = [a for a in targets if ACTIONS.value(a) in opponents] or targets
        return min(pool, key=lambda a: (view.hand_sizes[ACTIONS.value(a)], a))

    @staticmethod
    def _bottom(view: BabyEatingView, bottoms: list[int]) -> int:
        counts = [0] * 4
        for c in view.hand:
            if SUIT[c] >= 0:
                counts[SUIT[c]] += 1

        def keep_value(a: int) -> tuple:
            c = ACTIONS.value(a)
            rank = RANK[c]
            wild = rank in (0, 8) or c == KING_OF_HEARTS
            return (wild, rank in ATTACK, counts[SUIT[c]] if SUIT[c] >= 0 else 9, -a)

        return min(bottoms, key=keep_value)
