"""What the single-discard-pile games share in determinization (Crazy, Livery, Baby-Eating).

The hidden pool is the full deck less the seat's hand and the discard pile;
the other seats get random hands of their sizes from it and the rest is the
stock, in random order. The discard pile holds the view's counts with
``view.top`` last (the order below the top is never read: a rebuilt stock is
shuffled). Every other state field is public and comes from the view.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar

from ...cards import card_text
from ..table import Frame
from . import belief
from .base import DealConstraints, Determinizer, placeable

if TYPE_CHECKING:
    from ..pile import PileEngine, PileState
    from ..table import TableEngine


class PileDeterminizer(Determinizer):
    """Positions of a pile game from a view; a variant adds its own fields and frames."""

    engine: PileEngine
    #: an opponent's last card may be the one it drew, which may fit: it is not swapped
    #: out by :meth:`_respect_draws`
    spare_drawn_card: ClassVar[bool] = True

    # ------------------------------------------------------------ constraints
    def read_constraints(self) -> DealConstraints:
        """The hidden pool (:meth:`_hidden_pool`), the other hands' sizes, what the seat's
        history proves (:meth:`_known_hands`) and, with ``infer_from_draws``, what each
        opponent's standing draw says it lacked (:meth:`_voids`)."""
        view = self.view
        placed, barred = self._known_hands()
        hidden = tuple(self._hidden_pool())
        sizes = list(view.hand_sizes)
        sizes[view.seat] = 0
        hand_sizes = tuple(sizes)
        return DealConstraints(
            seat=view.seat, hidden=hidden, hand_sizes=hand_sizes,
            placed=placeable(placed, hidden, hand_sizes),
            barred={p: cards for p, cards in barred.items() if p != view.seat},
            void=self._voids() if self.infer_from_draws else {})

    def _known_hands(self) -> tuple[Sequence[tuple[int, int]], Mapping[int, frozenset[int]]]:
        """What the seat's own history proves about the other hands: (card, seat) pairs known
        to be in that seat's hand, and per seat the cards it is known not to hold. The
        shared rules move no card between hands unseen, so nothing; a variant with swaps or
        rounds that reveal hands (Baby-Eating Eights) says more."""
        return (), {}

    def _hidden_pool(self) -> list[int]:
        """The cards the seat cannot see: the deck minus its hand and the discards.

        Raises ``ValueError`` when the view's counts do not fit the deck, so a
        corrupt or foreign view fails here rather than deep inside a search.
        """
        engine, view = self.engine, self.view
        counts = self.unseen_copies((view.discard_counts,), view.hand)
        pool = [c for c, k in enumerate(counts) if k for _ in range(k)]
        sizes = view.hand_sizes
        hidden = sum(sizes) - sizes[view.seat] + view.stock_size
        if len(view.hand) != sizes[view.seat] or len(pool) != hidden:
            raise ValueError(
                f"{engine.variant}: the view is not consistent with {engine.describe_deck()}: "
                f"{len(pool)} cards are hidden from seat {view.seat} but the other hands "
                f"and the stock hold {hidden} (its own hand: {len(view.hand)} cards, "
                f"hand size {sizes[view.seat]})")
        return pool

    def _voids(self) -> dict[int, frozenset[int]]:
        """Per opponent whose draw record stands (it drew, and has not played since), the
        cards it would not have drawn holding (the engine's ``draw_excludes``)."""
        view, engine = self.view, self.engine
        return {p: engine.draw_excludes(suit, view.drew_on_rank[p], self._drew_locked(p))
                for p, suit in enumerate(view.drew_on_suit) if p != view.seat and suit >= 0}

    def _drew_locked(self, seat: int) -> bool:
        """Whether the pile was locked to its rank when ``seat`` drew (no shared rule locks)."""
        return False

    # ------------------------------------------------------------ the position
    def position(self, rng: random.Random) -> None:
        """The view's public fields and own hand, the hidden cards dealt (:meth:`_lay_out`);
        then ``infer_from_draws`` swaps out of each opponent's hand the cards it could
        have played when it drew (:meth:`_respect_draws`), and state the view does not
        show is filled in (:meth:`_fill_hidden_fields`)."""
        self._lay_out(rng)
        if self.infer_from_draws:
            self._respect_draws(rng)
        self._fill_hidden_fields(rng)

    def _lay_out(self, rng: random.Random) -> PileState:
        """The view's public fields and own hand, the hidden cards dealt from ``rng``."""
        view, engine = self.view, self.engine
        hands, stock = self.deal_hidden(rng)
        hands[view.seat] = list(view.hand)
        s = engine.empty_state(view.first_player)
        s.hands, s.stock = hands, stock
        engine.set_position(s)
        engine.set_pile(0, self._discard())
        s.suits[0] = view.active_suit
        s.direction, s.scores = view.direction, list(view.scores)
        s.hand_number, s.stuck = getattr(view, "hand_number", 0), view.stuck
        s.drew_suit, s.drew_rank = list(view.drew_on_suit), list(view.drew_on_rank)
        s.agenda = self._agenda()
        return s

    def _discard(self) -> list[int]:
        """The discard pile from its counts, the view's top card last."""
        view = self.view
        counts = list(view.discard_counts)
        if counts[view.top] < 1:
            raise ValueError(f"{self.engine.variant}: the top card {card_text(view.top)} is "
                             f"not among the view's discard counts")
        counts[view.top] -= 1
        return [c for c, k in enumerate(counts) for _ in range(k)] + [view.top]

    def _agenda(self) -> list[Frame]:
        """The pending frames a view shows (by its phase). A variant whose frames carry more
        than a seat rebuilds them here; hidden arguments are filled by
        :meth:`_fill_hidden_fields`."""
        view = self.view
        kind = {phase: kind for kind, phase in self.engine.phases.items()}[view.phase]
        return [Frame(kind, view.current_player)]

    def _respect_draws(self, rng: random.Random) -> None:
        """Swap out of each opponent's hand the cards its standing draw says it lacked.

        The seat's view records what an opponent drew on (the suit to follow and the top
        rank) until it plays again; its hand then held none of its ``void`` cards
        (:attr:`DealConstraints.void`), except the card it drew, which any one of its
        hidden cards may be (the deal is random, so its last one: :attr:`spare_drawn_card`).
        Each such card is swapped with a random stock card outside its ``void`` and
        ``barred`` sets, while there is one: hand sizes and the pool stay as they were.
        """
        s, c = self.engine.state, self.constraints
        for p, void in c.void.items():
            barred = c.barred.get(p, frozenset())
            hand, stock = s.hands[p], s.stock
            free = [i for i, x in enumerate(stock) if x not in void and x not in barred]
            rng.shuffle(free)
            for k in range(len(hand) - int(self.spare_drawn_card)):
                x = hand[k]
                if x in void and free:
                    i = free.pop()
                    hand[k], stock[i] = stock[i], x

    def _fill_hidden_fields(self, rng: random.Random) -> None:
        """Set state the view does not show. Variants with such state extend this."""

    # ------------------------------------------------------------ the belief
    def read_evidence(self) -> list[belief.Evidence]:
        """The voids each opponent's draws and passes show over the hand, and the suits it
        named (:func:`~.belief.void_evidence`, :func:`~.belief.named_evidence`), cards
        moving in and out of hands as the engine's event kinds declare."""
        view, engine = self.view, self.engine
        events = view.seen_events.events()
        flows = belief.flows_of(engine.event_kinds)
        return [*belief.void_evidence(events, view.seat, engine.draw_excludes,
                                      self.drawn_card_may_fit(), flows),
                *belief.named_evidence(events, view.seat, flows)]

    def read_choices(self) -> belief.ChoiceHistory:
        """The opponents' plays, draws and named suits of the hand, with what fitted the
        pile at each (:func:`~.belief.choice_history`)."""
        view, engine = self.view, self.engine
        return belief.choice_history(view.seen_events.events(), view.seat, engine.draw_excludes,
                                     view.hand_sizes, self.drawn_card_may_fit())

    def drawn_card_may_fit(self) -> bool:
        """Whether a seat may keep a drawn card that fits (so it counts among the cards the
        seat could hold against its void). Yes unless a variant plays a fitting one at once."""
        return True

    def weight(self, engine: TableEngine, evidence: Sequence[belief.Evidence]) -> float:
        """:func:`~.belief.weight` of the dealt hands, 8s (the wild rank) aside in suits."""
        return belief.weight(evidence, engine.state.hands, self.engine.wild_rank)
