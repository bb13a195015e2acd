"""What the Crazier Eights scenario tests share: dealing a position and reading it as text.

Both ``test_crazier_eights.py`` (the rules) and ``test_crazier_cards.py`` (each card)
set up stacked games and compare hands, piles and events as card texts.
"""

from __future__ import annotations

from collections import Counter

from eights.engines.crazier_eights import CrazierEightsGame
from tests.conftest import all_cards
from tests.engines.replay_corpus import MEMORY_ONLY_EVENTS

G = CrazierEightsGame
CS = G.cardset


def new_game(hands: list[str], starter: str = "7G", stock: str = "", *, first: int = 0,
             seed: int = 1, **options) -> CrazierEightsGame:
    """A game dealt exactly ``hands`` (seat order), ``starter`` turned up, ``stock`` on top
    of the draw pile (its first card is drawn first, by the first player as its turn
    begins)."""
    return G.stacked(hands, starter, stock, first_player=first, seed=seed,
                     hand_size=len(hands[0].split()), **options)


def step(game: CrazierEightsGame, *actions: str) -> int:
    """Apply ``actions``; return the event index before them."""
    start = len(game.events)
    for a in actions:
        game.step(a)
    return start


def texts(cards) -> str:
    return " ".join(CS.text(c) for c in cards)


def sizes(game: CrazierEightsGame) -> list[int]:
    return [len(h) for h in game.state.hands]


def stock_top(game: CrazierEightsGame, k: int) -> str:
    """The top ``k`` cards of the draw pile, top first."""
    return texts(game.state.stock[::-1][:k])


def discard_pile(game: CrazierEightsGame) -> str:
    """The discard pile, bottom first (its top card last)."""
    return texts(game.state.piles[0])


def events(game: CrazierEightsGame, start: int = 0, *kinds: str) -> list[tuple]:
    """Events from ``start`` on (only ``kinds`` if given), cards as text ('' for none). Left
    out unless asked for: the kinds that re-tell a move for a seat's memory (the cards a
    look or a reveal shows in a hand, a losing hand's cards one by one); tests/engines/
    test_memory.py pins those."""
    return [(e.kind, e.player, CS.text(e.card) if e.card >= 0 else "", e.arg)
            for e in game.events[start:]
            if e.kind in kinds or (not kinds and e.kind not in MEMORY_ONLY_EVENTS)]


def conserved(game: CrazierEightsGame) -> bool:
    """Every card of the deck is somewhere, once per deck."""
    return all_cards(game) == Counter(game.full_deck())


def cards_but(*used: str) -> list[str]:
    """Every card text of the set but the ``used`` ones (texts or strings of texts), in id
    order."""
    gone = set(CS.parse_many(" ".join(used)))
    return [CS.text(c) for c in range(len(CS)) if c not in gone]
