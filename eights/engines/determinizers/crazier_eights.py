"""Crazier Eights positions from a view: allies' hands, a looked-at hand, a known stock top.

Public: the discard pile (its cards face up; its order below the top card
does not matter, a reshuffle shuffles it), every in-play zone, the event
resolving, the agenda and the turn's counters. Known to the seat: its hand,
its allies' hands, a hand it is looking at (a Trade's), and the top cards of
the draw pile it looked at or saw revealed, which stay on top. The rest is
dealt at random: the other hands by their sizes, then the draw pile under the
known cards.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ..crazier_abilities import DISCARD_PILE, RESOLVING
from .base import DealConstraints, Determinizer

if TYPE_CHECKING:
    from ..crazier_eights import CrazierEightsGame
    from ..table import TableEngine


class CrazierEightsDeterminizer(Determinizer):
    """Positions of Crazier Eights from a view; see the module docstring."""

    engine: CrazierEightsGame

    def __init__(self, engine: TableEngine, view: Any, infer_from_draws: bool = False) -> None:
        #: (seat, hand) for every hand the seat sees: its own, its allies', one it looks at
        self.seen_hands = [(view.seat, list(view.hand))] + [
            (q, list(h)) for q, h in enumerate(view.ally_hands) if q != view.seat and h]
        if view.looking_at:  # (a Trade's player looks at the hand it takes a card from)
            self.seen_hands.append((view.agenda[-1].args[3], list(view.looking_at)))
        super().__init__(engine, view, infer_from_draws)

    def read_constraints(self) -> DealConstraints:
        """The deck less every card the seat sees (hands, zones, the event resolving, the
        known top of the draw pile, the discard pile); the hands it cannot see, by size."""
        engine, view = self.engine, self.view
        seen = [c for _, h in self.seen_hands for c in h]
        seen += [c for z in view.in_play for c in z] + list(view.resolving)
        seen += list(view.known_stock)
        counts = self.unseen_copies((view.discard_counts,), seen)
        hidden = tuple(c for c, m in enumerate(counts) for _ in range(m))
        known = {q for q, _ in self.seen_hands}
        hand_sizes = tuple(0 if q in known else size for q, size in enumerate(view.hand_sizes))
        expected = sum(hand_sizes) + view.stock_size - len(view.known_stock)
        if len(hidden) != expected:
            raise ValueError(
                f"{engine.variant}: the view is not consistent with {engine.describe_deck()}: "
                f"{len(hidden)} cards are hidden from seat {view.seat} but the other hands "
                f"and the draw pile hold {expected}")
        return DealConstraints(seat=view.seat, hidden=hidden, hand_sizes=hand_sizes)

    def position(self, rng: random.Random) -> None:
        engine, view = self.engine, self.view
        hands, stock = self.deal_hidden(rng)
        for q, h in self.seen_hands:
            hands[q] = list(h)
        s = engine.empty_state(view.first_player)
        s.hands = hands
        s.stock = stock + list(reversed(view.known_stock))
        engine.set_position(s)
        rest = list(view.discard_counts)
        if view.top >= 0:
            rest[view.top] -= 1
        engine.set_pile(DISCARD_PILE, [c for c, m in enumerate(rest) for _ in range(m)]
                        + ([view.top] if view.top >= 0 else []))
        engine.set_pile(RESOLVING, list(view.resolving))
        s.zones = [list(z) for z in view.in_play]
        s.known[view.seat] = list(view.known_stock)
        s.named, s.phase, s.lead = view.named, view.turn_phase, view.lead
        s.discards, s.played = list(view.discards_left), list(view.played)
        s.out, s.lost_with = list(view.out), list(view.lost_with)
        s.scores, s.hand_number = list(view.scores), view.hand_number
        s.trade_taken = view.trade_taken
        s.agenda = list(view.agenda)
