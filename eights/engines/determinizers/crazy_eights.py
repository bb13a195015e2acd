"""Crazy Eights positions from a view: the pile games' dealing, plus the card just drawn.

A seat deciding whether to play the card it just drew (the ``after_draw``
frame) is the one frame with an argument; the seat's own view shows the card,
another seat's does not, so the deal picks one from that seat's hand.
"""

from __future__ import annotations

import random

from ...cards import NO_CARD
from ..table import Frame
from .pile import PileDeterminizer


class CrazyEightsDeterminizer(PileDeterminizer):
    """:class:`PileDeterminizer` with the drawn card of an ``after_draw`` frame."""

    beliefs = ("uniform", "voids")
    #: every choice on a Crazy Eights turn is a play, a draw or a named suit, each with the
    #: pile it was made on in the history, so an opponent model can weigh them all
    reads_choices = True

    def drawn_card_may_fit(self) -> bool:
        """A drawn card that fits is played at once unless the table lets it be kept."""
        return bool(self.engine.config.may_keep_drawn_card)

    def _agenda(self) -> list[Frame]:
        view = self.view
        if view.phase == self.engine.phases["after_draw"]:
            return [Frame("after_draw", view.current_player, (view.drawn_card,))]
        return super()._agenda()

    def _fill_hidden_fields(self, rng: random.Random) -> None:
        """Another seat deciding about the card it just drew: that card is one of its
        hand's, a playable one if it holds any (the engine only asks about a card that
        could be played, and the deal is dealt again when the hand holds none)."""
        engine = self.engine
        s = engine.state
        frame = s.agenda[-1]
        if frame.kind == "after_draw" and frame.args[0] == NO_CARD:
            hand = s.hands[frame.seat]
            playable = [c for c in hand if engine.playable(c)]
            s.agenda[-1] = Frame("after_draw", frame.seat, (rng.choice(playable or hand),))
