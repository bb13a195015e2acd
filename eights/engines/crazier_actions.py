"""The action space of Crazier Eights: one block per kind of decision.

Every choice a Crazier Eights player makes is one action (:data:`ACTIONS`,
223 in all): ``discard <card>``, ``play <card>``, ``end`` (the main phase),
``colour P|G|B|O`` (after an 8, or when an ability names a colour),
``target <seat>``, ``choose <card>`` (a card to destroy, restore, trade or put
on the bottom of the draw pile), ``order <card>`` (which of one player's
abilities firing together goes first), ``yes`` and ``no``. Card texts come
from rank and first colour, so every card file has these same 223 actions.
"""

from __future__ import annotations

from .blocks import ActionSpace, Block, cards, numbers, suits
from .cardset import CardSet
from .crazier_cards import CrazierCards, load

#: our own card set (a card file of the user's has the same card texts)
BUILT_IN: CrazierCards = load()
CARDSET: CardSet = BUILT_IN.cardset
NUM_CARDS = 52
MAX_PLAYERS = 8

ACTIONS = ActionSpace(
    Block("discard", "discard {card}", cards(range(NUM_CARDS), CARDSET),
          when="main phase, a discard left: a card of the top card's colour (any of a "
               "multicoloured top card's, or the colour named for an 8) or rank, or an 8"),
    Block("play", "play {card}", cards(range(NUM_CARDS), CARDSET),
          when="main phase, once a turn: an asset into play, or an event for its effect (one "
               "that must choose a card only when there is one)"),
    Block("end", "end", when="main phase: end it (discards and the play are optional)"),
    Block("colour", "colour {colour}", suits(CARDSET, "colour"),
          when="right after discarding an 8, or when an ability names a colour"),
    Block("target", "target {seat}", numbers("seat", MAX_PLAYERS),
          when="an ability chooses a player (or whose copy of a card to destroy)"),
    Block("choose", "choose {card}", cards(range(NUM_CARDS), CARDSET),
          when="an ability chooses a card: in play (destroy), in the discard pile (restore), "
               "in a hand (trade), on top of the draw pile (put on the bottom)"),
    Block("order", "order {card}", cards(range(NUM_CARDS), CARDSET),
          when="several of one player's abilities fire together: the one to happen first"),
    Block("yes", "yes", when="an ability says you may: do it"),
    Block("no", "no", when="an ability says you may: do not (or keep the top cards as they "
                           "are)"),
)
NUM_ACTIONS = len(ACTIONS)
DISCARD_ID = ACTIONS["discard"].ids_by_value(NUM_CARDS)
PLAY_ID = ACTIONS["play"].ids_by_value(NUM_CARDS)
CHOOSE_ID = ACTIONS["choose"].ids_by_value(NUM_CARDS)
ORDER_ID = ACTIONS["order"].ids_by_value(NUM_CARDS)
COLOUR_ID = tuple(ACTIONS["colour"].id(k) for k in range(4))
TARGET_ID = tuple(ACTIONS["target"].id(k) for k in range(MAX_PLAYERS))
END_ID, YES, NO = ACTIONS["end"].id(), ACTIONS["yes"].id(), ACTIONS["no"].id()
