"""Livery Eights positions from a view: the pile games' dealing, plus the pending pick-up
and the "last card" call and challenge windows.

A window's frame carries the seat that plays next; it is public, since the
seat in the window (or the offender) played the top card, so it is rebuilt
from the top card's trick (the engine's ``seat_after``).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ...cards import RANK
from ..table import Frame
from .pile import PileDeterminizer

if TYPE_CHECKING:
    from ..livery_eights import LiveryEightsGame
    from ..pile import PileState


class LiveryEightsDeterminizer(PileDeterminizer):
    """:class:`PileDeterminizer` with the pending 2s and the call and challenge frames."""

    engine: LiveryEightsGame
    beliefs = ("uniform", "voids")

    def _lay_out(self, rng: random.Random) -> PileState:
        s = super()._lay_out(rng)
        s.pending[0] = self.view.pending_draw
        return s

    def _agenda(self) -> list[Frame]:
        """A call or a challenge window: the seat after the top card's trick plays next."""
        view, engine = self.view, self.engine
        rank, p = RANK[view.top], view.current_player
        if view.phase == engine.phases["last_card"]:
            return [Frame("last_card", p, (engine.seat_after(p, rank),))]
        if view.phase == engine.phases["challenge"]:
            return [Frame("challenge", p, (view.offender, engine.seat_after(view.offender, rank)))]
        return super()._agenda()
