"""A careful player of Crazier Eights, from the seat's view and the card file alone.

The card file is public (everyone reads the cards' texts), so the agent reads
what each card does from it; what it knows of the table is the view.

* In the main phase it first plays an event that grants extra discards (they
  count only when played before discarding), then discards, then plays the
  best card left, then discards again while it may; it ends the phase only
  when nothing useful is left.
* It discards non-8s first, the card whose colour it holds least of (keeping
  a colour it can follow), and keeps 8s for when nothing else matches; after
  an 8 it names the colour it holds most of.
* It values a play by what it does to the others: opponents drawing,
  opponents' assets destroyed, extra discards for itself, an asset that works
  every turn; it never plays a card that would make itself lose (Forbidden
  Knowledge with ten cards) and avoids events that only hurt itself.
* It aims abilities at the opponent closest to going out: draws, destroys
  (their assets that hurt it most), trades (taking an 8 or a card it can
  discard, giving a card it cannot); it restores the most useful asset.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..engines.base import PlayerView
from ..engines.crazier_abilities import TRADE_TAKE
from ..engines.crazier_actions import ACTIONS, END_ID, NO, YES
from ..engines.crazier_cards import PLAY, CrazierCards
from .base import Agent

DISCARD, PLAY_BLOCK = ACTIONS["discard"], ACTIONS["play"]
COLOUR, TARGET, CHOOSE = ACTIONS["colour"], ACTIONS["target"], ACTIONS["choose"]
EIGHT = 8
#: how much a card's ability is worth to its player, by what its steps do
STEP_VALUE = {"each_opponent": 3.0, "chosen_draw": 2.0, "discard_extra": 2.5,
              "destroy": 1.5, "restore": 1.5, "trade": 1.0, "look": 0.2, "reveal": 0.3,
              "you_draw": -1.5, "each_player": -0.5, "lose_you": -20.0}


def card_value(cards: CrazierCards, card: int) -> float:
    """How good a card's abilities are for the player who plays it (by its steps)."""
    total = 0.0
    for trigger, program in enumerate(cards.programs[card]):
        weight = 1.0 if trigger == PLAY else 2.0  # an asset's ability comes back every turn
        for op in program:
            name = op[0]
            if name == "draw":
                key = {"each_opponent": "each_opponent", "chosen": "chosen_draw",
                       "you": "you_draw", "each_player": "each_player",
                       "turn_players": "each_opponent"}[op[1]]
                total += weight * STEP_VALUE[key] * op[2]
            elif name == "discard_extra":
                total += weight * STEP_VALUE["discard_extra"] * op[1]
            elif name == "lose":
                total += weight * (STEP_VALUE["lose_you"] if op[1] == "you" else 3.0)
            elif name in STEP_VALUE:
                total += weight * STEP_VALUE[name]
    total += 2.0 * sum(-change for _, change in cards.draw_change[card])
    total += 2.0 if cards.saves[card] else 0.0
    return total


class CrazierEightsHeuristic(Agent):
    """Heuristic for ``crazier_eights``; see the module docstring."""

    name = "heuristic"

    def act(self, view: PlayerView) -> int:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        cards = view.config.cards
        frame = view.agenda[-1]
        handler = getattr(self, f"_{frame.kind}", None)
        if handler is None:
            return legal[0]
        return handler(view, cards, frame, legal)

    # ------------------------------------------------------------ the main phase
    def _main(self, view: PlayerView, cards: CrazierCards, frame: Any, legal: tuple) -> int:
        discards = [a for a in legal if a in DISCARD]
        plays = [a for a in legal if a in PLAY_BLOCK]
        hand = Counter(view.hand)
        # an event that grants extra discards first, while a discard is still to come
        boosters = [a for a in plays if self._grants_discards(cards, ACTIONS.value(a))
                    and self._safe(view, cards, ACTIONS.value(a))]
        if boosters and discards:
            return max(boosters, key=lambda a: card_value(cards, ACTIONS.value(a)))
        if discards:
            return min(discards, key=lambda a: self._discard_cost(view, cards, hand, a))
        good = [a for a in plays if self._safe(view, cards, ACTIONS.value(a))
                and self._play_value(view, cards, ACTIONS.value(a)) > -1.0]
        if good:
            return max(good, key=lambda a: self._play_value(view, cards, ACTIONS.value(a)))
        return END_ID

    @staticmethod
    def _grants_discards(cards: CrazierCards, card: int) -> bool:
        return any(op[0] == "discard_extra" for op in cards.programs[card][PLAY])

    @staticmethod
    def _safe(view: PlayerView, cards: CrazierCards, card: int) -> bool:
        """Whether playing ``card`` cannot make its player lose by its own test."""
        for op in cards.programs[card][PLAY]:  # (it may draw before the test: count the card)
            if (op[0] == "test" and op[1][0] == "hand_at_least" and op[1][2] == "you"
                    and len(view.hand) >= op[1][1]):
                return False
        return True

    def _play_value(self, view: PlayerView, cards: CrazierCards, card: int) -> float:
        value = card_value(cards, card)
        if any(op[0] == "destroy" and op[1] == "yours" for op in cards.programs[card][PLAY]):
            value -= 2.0
        return value + 1.0  # (a card played is a card out of hand)

    def _discard_cost(self, view: PlayerView, cards: CrazierCards, hand: Counter,
                      a: int) -> float:
        """Lower is better: 8s last; then cards worth playing later; then a colour held
        least of goes first."""
        card = ACTIONS.value(a)
        cost = 0.0
        if cards.cardset.rank[card] == EIGHT:
            cost += 100.0
        if not view.played[view.seat]:
            cost += max(0.0, card_value(cards, card))
        colours = Counter(col for c in view.hand for col in cards.cardset.colours_of[c])
        cost -= 0.5 * (len(view.hand) - colours[cards.cardset.colour[card]])
        return cost

    # ------------------------------------------------------------ choices
    def _name_colour(self, view, cards, frame, legal) -> int:
        return COLOUR.id(self._best_colour(view, cards))

    _colour = _name_colour  # an ability's colour: the one held most, as for an 8

    @staticmethod
    def _best_colour(view: PlayerView, cards: CrazierCards) -> int:
        counts = Counter(col for c in view.hand if cards.cardset.rank[c] != EIGHT
                         for col in cards.cardset.colours_of[c])
        return max(range(4), key=lambda col: (counts[col], -col))

    def _target(self, view, cards, frame, legal) -> int:
        seats = [ACTIONS.value(a) for a in legal]
        opponents = [q for q in seats if view.teams[q] != view.teams[view.seat]]
        pool = opponents or seats
        # the opponent closest to going out
        return TARGET.id(min(pool, key=lambda q: (view.hand_sizes[q], q)))

    def _choose(self, view, cards, frame, legal) -> int:
        card, trigger, pc = frame.args[:3]
        op = cards.programs[card][trigger][pc]
        options = [a for a in legal if a in CHOOSE]
        if op[0] == "look":
            return NO
        if op[0] == "destroy":
            return max(options, key=lambda a: self._destroy_value(view, cards,
                                                                   ACTIONS.value(a)))
        if op[0] == "restore":
            return max(options, key=lambda a: card_value(cards, ACTIONS.value(a)))
        extra = frame.args[5]
        if extra == TRADE_TAKE:  # take from their hand: an 8, else the most useful card
            return max(options, key=lambda a: (cards.cardset.rank[ACTIONS.value(a)] == EIGHT,
                                               card_value(cards, ACTIONS.value(a))))
        # give: the card least useful to me
        return min(options, key=lambda a: (cards.cardset.rank[ACTIONS.value(a)] == EIGHT,
                                           card_value(cards, ACTIONS.value(a))))

    @staticmethod
    def _destroy_value(view: PlayerView, cards: CrazierCards, card: int) -> float:
        mine = card in view.in_play[view.seat]
        theirs = any(card in z for q, z in enumerate(view.in_play)
                     if view.teams[q] != view.teams[view.seat])
        value = card_value(cards, card) if cards.is_asset[card] else 0.0
        return value if theirs else (-value if mine else 0.0)

    def _ask(self, view, cards, frame, legal) -> int:
        card, trigger, pc = frame.args[:3]
        op = cards.programs[card][trigger][pc + 1]
        if op[0] == "destroy":
            zones = view.in_play
            theirs = any(zones[q] for q in range(len(zones))
                         if view.teams[q] != view.teams[view.seat])
            return YES if theirs else NO
        return YES

    def _order(self, view, cards, frame, legal) -> int:
        return max(legal, key=lambda a: (card_value(cards, ACTIONS.value(a)), -a))


__all__ = ["CrazierEightsHeuristic"]
