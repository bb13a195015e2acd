"""Jokers of Death positions from a view: several piles, and the hand passed at a switch.

Everything but the other hands and the stock is public and comes from the
view (the piles' cards and order below the top do not matter: no rule reads
them but the Aces variant's, which shuffles them). The hidden cards, the deck
less the seat's hand, every pile and a picked-up pile, are dealt at random:
first the hand the seat passed on at a hand switch (:func:`known_cards`), then
the other hands by their sizes, the rest as the stock. ``infer_from_draws`` is
ignored: a player here may draw when unwilling to follow a Jack or King, so a
draw proves nothing.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING, Any

from .base import DealConstraints, Determinizer, placeable

if TYPE_CHECKING:
    from ..jokers_of_death import JokersOfDeathGame


def known_cards(view: Any) -> list[tuple[int, int]]:
    """(card, seat) pairs ``view.seat`` knows to be in that seat's hand: the hand it
    passed on at the last hand switch (Hand Switching), but the cards its receiver
    has played since. An earlier switch moved those cards on again, unseen."""
    if not view.config.hand_switching:  # (search asks on every iteration)
        return []
    events = view.history()
    last = max((i for i, e in enumerate(events) if e.kind == "switch"), default=-1)
    if last < 0:
        return []
    given = [(e.card, e.arg) for e in events[last + 1:]
             if e.kind == "give" and e.player == view.seat and e.card >= 0]
    if not given:
        return []
    target = given[0][1]
    left = Counter(c for c, _ in given)
    for e in events[last + 1:]:
        if e.kind == "play" and e.player == target and left[e.card] > 0:
            left[e.card] -= 1
    return [(c, target) for c in sorted(left.elements())]


class JokersOfDeathDeterminizer(Determinizer):
    """Positions of Jokers of Death from a view; see the module docstring."""

    engine: JokersOfDeathGame

    def read_constraints(self) -> DealConstraints:
        """The deck less the seat's hand, its picked-up pile and every pile; the other
        hands' sizes; the hand it passed on at a switch, placed."""
        engine, view = self.engine, self.view
        if len(view.pile_counts) != engine.config.piles:
            raise ValueError(f"{engine.variant}: the view shows {len(view.pile_counts)} piles "
                             f"but the config has {engine.config.piles}")
        counts = self.unseen_copies(view.pile_counts, (*view.hand, *view.picked_up))
        hidden = tuple(c for c, m in enumerate(counts) for _ in range(m))
        sizes = view.hand_sizes
        expected = sum(sizes) - sizes[view.seat] + view.stock_size
        if len(hidden) != expected or len(view.hand) != sizes[view.seat]:
            raise ValueError(
                f"{engine.variant}: the view is not consistent with {engine.describe_deck()}: "
                f"{len(hidden)} cards are hidden from seat {view.seat} but the other hands "
                f"and the stock hold {expected}")
        hand_sizes = tuple(0 if p == view.seat else size for p, size in enumerate(sizes))
        return DealConstraints(seat=view.seat, hidden=hidden, hand_sizes=hand_sizes,
                               placed=placeable(known_cards(view), hidden, hand_sizes))

    def position(self, rng: random.Random) -> None:
        engine, view = self.engine, self.view
        hands, stock = self.deal_hidden(rng)
        hands[view.seat] = list(view.hand)
        s = engine.empty_state(view.first_player)
        s.hands, s.stock = hands, stock
        engine.set_position(s)
        for k, pile in enumerate(view.pile_counts):
            top = view.pile_tops[k]
            rest = list(pile)
            if top >= 0:
                rest[top] -= 1
            engine.set_pile(k, [c for c, m in enumerate(rest) for _ in range(m)]
                            + ([top] if top >= 0 else []))
        for frame in view.agenda:
            if frame.kind == "pile_hand":
                s.zones[frame.seat] = list(view.picked_up)
        s.penalties = list(view.penalties)
        s.suits = list(view.pile_suits)
        s.pending = list(view.pile_pending)
        s.owners = list(view.pile_owners)
        s.killed = [int(x) for x in view.killed]
        s.todo = sum(1 << k for k, x in enumerate(view.to_play) if x)
        s.aces, s.tens, s.fresh = view.aces_played, view.tens_played, int(view.fresh_turn)
        s.knocked = list(view.knocked)
        s.direction, s.scores = view.direction, list(view.scores)
        s.hand_number, s.stuck = view.hand_number, view.stuck
        s.agenda = list(view.agenda)
