"""Baby-Eating Eights positions from a view: what the seat's own history proves.

Cards move between hands here (a Seven's swap, blind draws in the Guarantee
Joker's mode) and a Jack round shows who has no Jack left, so the seat knows
more than the pile games' pool: :class:`SeatKnowledge`, read from its history
(:func:`seat_knowledge`), places the cards it gave and bars Jacks from the
seats that ran out of them. A draw or a pass proves the hand held nothing it
had to play (the engine's ``draw_excludes``, which reads the pile's lock), and
every frame is public, so the agenda is the view's.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from ...cards import JACK, NUM_KINDS, RANK
from ..table import Frame
from .pile import PileDeterminizer

if TYPE_CHECKING:
    from ..baby_eating_eights import BabyEatingState


class SeatKnowledge(NamedTuple):
    """What a seat's own history proves about the other hands (for determinization).

    ``placed``: (card, seat) pairs, a card this seat saw go into that seat's hand (its
    own ``give``: a Seven's swap, a blind draw out of its hand in the Guarantee Joker's
    mode) and not seen to leave it since. ``jackless``: seats that emptied their hands of
    Jacks in a Jack round (dropped them all, or had none) and have not been given a card
    since. A King of Hearts' redeal forgets both. A hidden card leaving a hand (a Seven
    or a blind draw between other seats) forgets what was placed in that hand, since the
    card taken may be it.
    """

    placed: tuple[tuple[int, int], ...]
    jackless: frozenset[int]


#: every Jack's card id: what a seat emptied of Jacks is barred from
JACKS = frozenset(c for c in range(NUM_KINDS) if RANK[c] == JACK)

#: the last view read by :func:`seat_knowledge`: a search determinizes one view many times
_knowledge_cache: list = [None, None]


def seat_knowledge(view: Any) -> SeatKnowledge:
    """Read :class:`SeatKnowledge` from ``view``'s history (cached for the last view)."""
    if _knowledge_cache[0] is view:
        return _knowledge_cache[1]
    seat = view.seat
    placed: list[tuple[int, int]] = []
    jackless: set[int] = set()
    in_round = False
    for kind, player, c, arg in view.history():
        if kind == "give":
            if player == seat:
                placed.append((c, arg))
            elif arg != seat:  # a card we cannot see left `player`: it may be one we placed
                placed = [(k, q) for k, q in placed if q != player]
        elif kind == "take":
            jackless.discard(player)
            if player == seat and (c, arg) in placed:  # we took back a card we had placed
                placed.remove((c, arg))
        elif kind in ("play", "bottom"):
            if (c, player) in placed:
                placed.remove((c, player))
            if in_round and kind == "play":
                jackless.add(player)
        elif kind == "draw":
            jackless.discard(player)
        elif kind == "no_jacks":
            jackless.add(player)
        elif kind == "jack_round":
            in_round = True
        elif kind == "jack_round_over":
            in_round = False
        elif kind == "redeal":
            placed, in_round = [], False
            jackless.clear()
    jackless.discard(seat)
    result = SeatKnowledge(tuple(placed), frozenset(jackless))
    _knowledge_cache[0], _knowledge_cache[1] = view, result
    return result


class BabyEatingDeterminizer(PileDeterminizer):
    """:class:`PileDeterminizer` with the seat's knowledge, the pile's flags and the whole
    agenda.

    The ``voids`` belief reads the pile games' evidence (:meth:`read_evidence`): a seat
    that drew or passed held no card it had to play (``draw_excludes``, under the Six and
    Nine lock; the cards it may hold back aside), and the suit it named. The engine closes
    the draws an effect forces with a ``forced_draw`` event, so they are not read as
    chosen; a Seven's swap and the Guarantee Joker's blind draws move cards by their
    declared flows (a card taken counts as one drawn, a hand changed unseen tells no named
    suit), and a King of Hearts' redeal starts the evidence anew, as a deal does.
    """

    beliefs = ("uniform", "voids")
    #: a seat may not draw or pass holding a card it must play (#5): its voids are certain
    certain_voids = True
    #: a record stands after a pass too, when nothing was drawn: the whole hand is read
    spare_drawn_card: ClassVar[bool] = False

    def _known_hands(self) -> tuple[Sequence[tuple[int, int]], dict[int, frozenset[int]]]:
        """Cards the seat gave away stay where they went; emptied of Jacks, no Jack
        (:func:`seat_knowledge`)."""
        known = seat_knowledge(self.view)
        return known.placed, dict.fromkeys(known.jackless, JACKS)

    def _drew_locked(self, seat: int) -> bool:
        """A Six or Nine's lock: only the rank itself matched when ``seat`` drew."""
        return bool(self.view.drew_on_lock[seat])

    def _lay_out(self, rng: random.Random) -> BabyEatingState:
        s = super()._lay_out(rng)
        view = self.view
        s.drew_lock = list(view.drew_on_lock)
        s.three_live, s.locked, s.free = view.three_live, view.locked, view.free
        s.owners[0] = view.top_player
        s.run_number, s.run_length = view.run_number, view.run_length
        s.combo_used = view.guarantee_spent
        return s

    def _agenda(self) -> list[Frame]:
        """Every frame is public: the view's agenda is the position's."""
        return list(self.view.agenda)

    def _fill_hidden_fields(self, rng: random.Random) -> None:
        """A seat asked to order its Jacks holds a Jack: swap one in from hidden cards."""
        view, s = self.view, self.engine.state
        frame = s.agenda[-1]
        if frame.kind != "jacks" or frame.seat == view.seat:
            return
        hand = s.hands[frame.seat]
        if any(RANK[c] == JACK for c in hand):
            return
        places = [s.stock] + [s.hands[q] for q in range(self.engine.num_players)
                              if q not in (view.seat, frame.seat)]
        found = [(pile, i) for pile in places for i, c in enumerate(pile) if RANK[c] == JACK]
        placed = {c for c, q in seat_knowledge(view).placed if q == frame.seat}
        spare = [k for k, c in enumerate(hand) if c not in placed]
        if found and spare:
            pile, i = found[rng.randrange(len(found))]
            k = spare[rng.randrange(len(spare))]
            hand[k], pile[i] = pile[i], hand[k]
