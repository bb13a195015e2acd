"""Crazier Eights positions from a view: allies' hands, a looked-at hand, a known stock top.

Public: the discard pile (its cards face up; its order below the top card
does not matter, a reshuffle shuffles it), every in-play zone, the event
resolving, the agenda and the turn's counters. Known to the seat: its hand,
its allies' hands, a hand it is looking at (a Trade's), and the top cards of
the draw pile it looked at or saw revealed, which stay on top. The rest is
dealt at random: the other hands by their sizes, then the draw pile under the
known cards.

The ``voids`` belief reads the seat's history (:func:`unused_discard_moments`):
every turn's draw is the rule, so a draw tells nothing here; what tells is a
main phase ended with a discard left, which a player who wants its hand empty
does only holding no card it may discard. Of those cards (the engine's rule,
:meth:`~eights.engines.crazier_eights.CrazierEightsGame.discardable`) its hand
now holds at most as many as it drew since, less those of them it has put face
up since (each came from one of those draws). The colour named for an 8 is read
as the pile games read a named suit. A Trade moves cards between two hands
unseen and a seat that loses gives up its hand, so evidence from before either
is dropped for the seats involved (:func:`hands_moved`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from ...cards import NO_CARD
from ..crazier_abilities import DISCARD_PILE, RESOLVING
from ..crazier_cards import END_TURN
from . import belief
from .base import DealConstraints, Determinizer

if TYPE_CHECKING:
    from ..crazier_eights import CrazierEightsGame
    from ..table import TableEngine

#: the events of a player's own main phase: one by a later player of the turn shows the
#: earlier ones' main phases over
MAIN_ACTIONS = frozenset({"discard", "named", "asset", "event"})
#: the events that end the game there and then: a main phase cut short ended by no choice
GAME_ENDS = frozenset({"out", "impossible", "score"})
#: the cards that leave a hand face up (a colour named for an 8 is read with them)
PLAYED = ("discard", "asset", "event")
#: a Trade's moves, each naming its two seats (the player and the seat in ``arg``)
TRADE_MOVES = frozenset({"take", "give", "taken", "given"})


def hands_moved(event: Sequence) -> tuple[int, ...]:
    """The seats whose hands ``event`` changes other than by a draw or a card played face
    up: a Trade's two (the cards go unseen by the others), a seat that lost (its hand goes
    to the discard pile)."""
    kind, player, _card, arg = event
    if kind in TRADE_MOVES:
        return (player, arg)
    if kind == "loses":
        return (player,)
    return ()


def unused_discard_moments(events: Sequence[Sequence], observer: int, fits: belief.Fits,
                           team_of: Sequence[int],
                           turn_players: Callable[[int, Sequence[int]], list[int]]
                           ) -> list[belief.Moment]:
    """The moments a player of another team ended its main phase with a discard left
    (:data:`belief.Moment`: its index is the first event after that main phase, the cards
    those ``fits`` gives for the top card and named colour then).

    ``events`` are one game's (:func:`belief.current_hand`). No event says "end": a player's
    main phase is known to be over at the next turn, the end phase's first ability (a
    ``trigger`` at ``END_TURN``) or, with teams, the first main-phase event of an ally after
    it in ``turn_players`` order; nothing changes the discard pile in between, so the pile
    then is the pile it ended on. Its discards are one plus the ``extra`` ones granted
    before, less the ``discard`` events. The top card is unknown after a ``restore`` of it
    (the card under it is not tracked), and a main phase the game's end cut short says
    nothing.
    """
    out = [0] * len(team_of)
    top, named = NO_CARD, -1
    known = False  # whether ``top`` is the discard pile's top card
    pending: list[int] = []  # the turn's players whose main phase may still be going on
    left: dict[int, int] = {}  # per player of the turn: discards granted less made
    moments: list[belief.Moment] = []
    for i, (kind, player, card, arg) in enumerate(events):
        over = 0  # how many of ``pending`` this event shows to be over
        if kind == "turn" or (kind == "trigger" and arg == END_TURN):
            over = len(pending)
        elif kind in MAIN_ACTIONS and player in pending:
            over = pending.index(player)
        elif kind in GAME_ENDS:
            pending.clear()
        for q in pending[:over]:
            if (known and left[q] > 0 and not out[q]
                    and team_of[q] != team_of[observer]):
                moments.append((i, q, fits(top, named), False))
        del pending[:over]
        if kind == "turn":
            pending = turn_players(player, out)
            left = dict.fromkeys(pending, 1)
        elif kind == "extra" and player in left:
            left[player] += arg
        elif kind in ("discard", "starter"):
            top, named, known = card, -1, True
            if kind == "discard" and player in left:
                left[player] -= 1
        elif kind == "named":
            named = arg
        elif kind == "restore" and card == top:
            known, named = False, -1
        elif kind == "loses":
            out[player] = 1
            if player in pending:
                pending.remove(player)
    return moments


class CrazierEightsDeterminizer(Determinizer):
    """Positions of Crazier Eights from a view; see the module docstring."""

    engine: CrazierEightsGame
    beliefs = ("uniform", "voids")
    #: card set (its SHA-256; None: the built-in one) -> per card, the colours it counts in
    #: when a seat's longest colour is weighed (none for a wild card)
    _suits: ClassVar[dict[str | None, tuple[tuple[int, ...], ...]]] = {}

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

    # ------------------------------------------------------------ the belief
    def read_evidence(self) -> list[belief.Evidence]:
        """What the other teams' main phases showed (:func:`unused_discard_moments`, as
        :class:`~.belief.AtMost` by :func:`~.belief.at_most`) and the colours they named for
        an 8 (:func:`~.belief.named_evidence`), over this game of the seat's history; none
        about a seat from before a Trade it took part in (:func:`hands_moved`)."""
        view, engine = self.view, self.engine
        events = belief.current_hand(view.seen_events.events())
        team = engine.team_of
        moments = unused_discard_moments(events, view.seat, engine.discardable, team,
                                         engine.turn_players)
        found = [*belief.at_most(events, moments, hands_moved=hands_moved, played=PLAYED),
                 *belief.named_evidence(events, view.seat, named="named", played=PLAYED,
                                        hands_moved=hands_moved)]
        return [e for e in found if team[e.seat] != team[view.seat]]

    def suits_of(self, card: int) -> tuple[int, ...]:
        """The colours ``card`` counts in when a named colour is weighed: none for a wild
        card (one that may be discarded whatever colour is named, by the engine's rule),
        else its colours."""
        key = self.engine.config.card_set_sha256
        table = self._suits.get(key)
        if table is None:
            engine = self.engine
            colours = range(len(engine.cardset.colour_codes))
            wild = frozenset.intersection(*(engine.discardable(0, k) for k in colours))
            table = self._suits[key] = tuple(
                () if c in wild else tuple(engine.cardset.colours_of[c])
                for c in range(len(engine.cardset)))
        return table[card]

    def weight(self, engine: TableEngine, evidence: Sequence[belief.Evidence]) -> float:
        """:func:`~.belief.weight` of the dealt hands, colours read by :meth:`suits_of`."""
        return belief.weight(evidence, engine.state.hands, -1, suits_of=self.suits_of)
