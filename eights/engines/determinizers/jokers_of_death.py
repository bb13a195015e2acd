"""Jokers of Death positions from a view: several piles, and the hand passed at a switch.

Everything but the other hands and the stock is public and comes from the
view (the piles' cards and order below the top do not matter: no rule reads
them but the Aces variant's, which shuffles them). The hidden cards, the deck
less the seat's hand, every pile and a picked-up pile, are dealt at random:
first the hand the seat passed on at a hand switch (:func:`known_cards`), then
the other hands by their sizes, the rest as the stock. ``infer_from_draws`` is
ignored: a player here may draw when unwilling to follow a Jack or King, and a
draw in a turn says only that the hand could not cover every pile, which no
set of cards to leave out of a hand expresses.

The ``voids`` belief reads that: :func:`cover_moments` replays the public side
of the hand from the seat's history (each pile's top and suit to follow, its
penalty and who put its top there, the piles still to play in a turn, a Jack's
or King's follow, a picked-up pile being played out) and finds where an
opponent showed what its hand could not do; :func:`cover_evidence` follows each
such hand to now (:func:`~.belief.follow_hand`, through hand switches) as
:class:`~.belief.Uncovered` evidence.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ...cards import NUM_KINDS, RANK, SUIT, card
from . import belief
from .base import DealConstraints, Determinizer, placeable

if TYPE_CHECKING:
    from ..events import EventKind
    from ..jokers_of_death import JokersOfDeathGame
    from ..table import TableEngine

# (the engine imports this module: its constants are restated here, not imported)
TWO, EIGHT, JACK, KING = 2, 8, 11, 13
FOUR_OF_SPADES = card(4, 3)
#: the event kinds a seat logs only on its own turn: one by another seat starts its turn
#: (``give`` is every seat's echo of a hand switch, ``skip`` names the seat skipped)
TURN_KINDS = frozenset({
    "play", "draw", "take", "pass", "knock", "no_knock", "suit", "pick_up", "left_over",
    "pile_penalty", "stop", "kill", "penalty", "switch", "reverse", "keep"})

#: (start, seat, piles): the hand ``seat`` held just before event ``start`` could not give
#: each of ``piles`` (the cards that fitted each) a card of its own
Moment = tuple[int, int, tuple[frozenset[int], ...]]


@functools.lru_cache(maxsize=512)
def fitting(top: int, suit: int) -> frozenset[int]:
    """The cards that may go on a pile topped by ``top`` (-1: the space a picked-up pile
    left) with ``suit`` to follow in an ordinary turn: an 8, the suit, the rank; on the
    space any card; never a Joker (it only answers). The engine's ``fits``."""
    return frozenset(c for c in range(NUM_KINDS) if RANK[c] and (
        top < 0 or RANK[c] == EIGHT or SUIT[c] == suit or RANK[c] == RANK[top]))


@functools.lru_cache(maxsize=8)
def following(suit: int) -> frozenset[int]:
    """The cards that may follow a Jack or King of ``suit``: that suit, or an 8."""
    return frozenset(c for c in range(NUM_KINDS) if RANK[c] and (
        RANK[c] == EIGHT or SUIT[c] == suit))


@functools.lru_cache(maxsize=32)
def answering(top: int, joker: bool) -> frozenset[int]:
    """The cards that answer a penalty topped by ``top``: a 2 on a 2; a 4 of Spades, or a
    Joker where ``joker`` (the 4 of Spades is not the player's own), on a 4 of Spades."""
    if RANK[top] == TWO:
        return frozenset(c for c in range(NUM_KINDS) if RANK[c] == TWO)
    return frozenset([FOUR_OF_SPADES, *(c for c in range(NUM_KINDS) if joker and not RANK[c])])


def cover_moments(events: Sequence[Sequence], observer: int, num_piles: int
                  ) -> tuple[list[Moment], frozenset[int]]:
    """Where the opponents of ``observer`` showed what their hands could not do, over one
    hand's history (:func:`~.belief.current_hand`), and the plays of a picked-up pile.

    Replays the public side of the table, event by event: a turn starts at the first event
    a seat logs after another seat's (or after a ``skip``); it answers the piles with a
    penalty if any, else plays every live pile. The moments:

    * a ``draw`` in an ordinary turn is legal only while no choice of distinct cards
      covers the piles still to play; it draws until they are covered, so the hand before
      its last card still had no cover (that card counts as taken in);
    * a ``pass`` in a turn (an empty stock): no cover either;
    * drawing on a Jack or King (allowed even holding a card that follows, but it costs
      cards: read as unable) until a card that follows comes: the hand before that card
      held none; a follow ``pass``: none at all;
    * taking the penalty of the piles left to answer (allowed holding an answer, but it
      costs cards: read as unable): no 2 for a 2, no 4 of Spades (nor a Joker, unless
      the 4 of Spades was the player's own) for a 4 of Spades; the cards taken count as
      taken in. The cards a Joker's kill makes its player take are no choice.

    Draws that end in a ``pass`` (the stock ran out) are read at the pass. Returns the
    moments and the indices of the plays from a picked-up pile (not from the hand).
    """
    tops, suits, sizes = [-1] * num_piles, [-1] * num_piles, [0] * num_piles
    pending, owners, killed = [0] * num_piles, [-1] * num_piles, [False] * num_piles
    actor, over, answer, todo, follow, zone, last = -1, True, False, set(), -1, 0, -1
    moments: list[Moment] = []
    elsewhere: set[int] = set()
    i = 0
    while i < len(events):
        kind, p, c, arg = events[i]
        if kind in TURN_KINDS and (p != actor or over):
            live = [k for k in range(num_piles) if not killed[k]]
            attacked = {k for k in live if pending[k]}
            actor, over, answer = p, False, bool(attacked)
            todo, follow, zone = attacked or set(live), -1, 0
        theirs = p != observer
        if kind == "starter":
            tops[arg], suits[arg], owners[arg] = c, SUIT[c], -1
            sizes[arg] += 1
        elif kind == "draw":
            j = i
            while j < len(events) and events[j][0] == "draw" and events[j][1] == p:
                j += 1
            after = events[j] if j < len(events) else None
            passes = after is not None and after[0] == "pass" and after[1] == p
            taken = after is not None and after[0] == "take" and after[1] == p
            if theirs and not passes and not taken and not answer and zone == 0:
                piles = ((following(suits[follow]),) if follow >= 0
                         else tuple(fitting(tops[k], suits[k]) for k in sorted(todo)))
                if piles:
                    moments.append((j - 1, p, piles))
            i = j
            continue
        elif kind == "take":
            start = max(0, i - arg)  # (the cards taken are the draws just before)
            killing = start > 0 and events[start - 1][0] == "kill"
            if not killing:
                if theirs and answer and todo:
                    moments.append((start, p, (frozenset().union(*(
                        answering(tops[k], owners[k] != p) for k in todo)),)))
                for k in todo:
                    pending[k] = 0
                todo = set()
        elif kind == "pass":
            if arg >= 0:  # on a Jack or King: nothing in hand follows it
                if theirs:
                    moments.append((i, p, (following(suits[arg]),)))
                follow = -1
            else:
                if theirs and todo:
                    moments.append((i, p, tuple(fitting(tops[k], suits[k])
                                                for k in sorted(todo))))
                todo = set()
        elif kind == "play":
            last = arg
            tops[arg], suits[arg], owners[arg] = c, SUIT[c], p
            sizes[arg] += 1
            todo.discard(arg)
            if zone:
                elsewhere.add(i)
                pending[arg] = 0
                zone -= 1
                if not zone:
                    todo = {k for k in range(num_piles) if not killed[k]}
            elif not answer:
                follow = arg if RANK[c] in (JACK, KING) else -1
        elif kind == "penalty":
            pending[last] = arg
        elif kind == "suit":
            suits[last] = arg
        elif kind == "kill":
            killed[arg], pending[arg] = True, 0
            todo.discard(arg)
        elif kind == "pick_up":
            zone, sizes[arg] = sizes[arg], 0
            tops[arg], suits[arg], pending[arg], owners[arg] = -1, -1, 0, -1
        elif kind == "left_over":
            zone = max(0, zone - 1)
        elif kind == "pile_penalty":
            zone, todo = 0, set()
        elif kind == "recycle":
            for k in range(num_piles):
                if not killed[k]:
                    sizes[k], pending[k] = 1, 0
        elif kind in ("skip", "reverse", "keep"):
            over = True
        elif kind == "hand_over":
            break
        i += 1
    return moments, frozenset(elsewhere)


def cover_evidence(events: Sequence[Sequence], observer: int, num_players: int,
                   num_piles: int, kinds: Mapping[str, EventKind]) -> list[belief.Uncovered]:
    """The moments of the hand in play (:func:`cover_moments`), each followed to the hand
    it speaks of now (:func:`~.belief.follow_hand`): who holds it, the cards that came into
    it and the cards played from it since. A hand that reached the observer is dropped."""
    events = belief.current_hand(events)
    moments, elsewhere = cover_moments(events, observer, num_piles)
    out = []
    for start, seat, piles in moments:
        now = belief.follow_hand(events, start, seat, observer, num_players, kinds, elsewhere)
        if now is not None:
            holder, taken, played = now
            out.append(belief.Uncovered(holder, piles, taken, played))
    return out


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
    beliefs = ("uniform", "voids")

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

    # ------------------------------------------------------------ the belief
    def read_evidence(self) -> list[belief.Evidence]:
        """What each opponent's draws, passes and takes of the hand showed its hand could not
        do (:func:`cover_evidence`), but what no hand of its size now could break."""
        view, engine = self.view, self.engine
        found = cover_evidence(view.seen_events.events(), view.seat, view.num_players,
                               engine.config.piles, engine.event_kinds)
        return [e for e in found if belief.can_break(e, view.hand_sizes[e.seat])]

    def weight(self, engine: TableEngine, evidence: Sequence[belief.Evidence]) -> float:
        """:func:`~.belief.weight` of the dealt hands."""
        return belief.weight(evidence, engine.state.hands, EIGHT)
