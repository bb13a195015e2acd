"""Beliefs: weighting the deals a determinizer makes by what the opponents' play showed.

A :class:`~eights.engines.determinizers.base.Determinizer` deals the hidden
cards uniformly among the deals its hard constraints allow. A player at a real
table knows more: an opponent who drew on hearts held no heart then, one who
named spades after an 8 likely held most spades. A belief turns such public
evidence into a weight per candidate deal (at most 1), and
``Engine.determinize(view, rng, belief=...)`` draws a deal in proportion to its
weight: rejection sampling over at most :data:`CANDIDATES` candidates, then
importance resampling among them if none was kept. Every hard constraint still
holds, since every candidate comes from the determinizer.

The evidence is data, read once per view by small pure functions over a seat's
history: :func:`void_evidence` (:class:`AtMost`: a seat that drew or passed
held none of the cards that fitted then, so of those it holds now at most as
many as it took into its hand since, less those it was seen to give up) and
:func:`named_evidence` (:class:`NamedSuit`: a seat names the suit it holds
most). What moves cards in and out of hands is the variant's declared flows
(:class:`Flows`), so a variant whose cards change hands unseen (a Seven's
swap in Baby-Eating Eights) is read with the same functions. :func:`weight`
is a pure function of the evidence and a candidate's hands, so a model-based
belief (the likelihood of each observed action under a policy) can replace it
without touching the dealing. Both kinds are soft (``eps ** violations``): a
player may draw holding a card it could play, or name a suit it holds few
of. Where the rules forbid that (Baby-Eating Eights), a void that leaves a
seat no room is certain, and the determinizer deals around it rather than
weighing deals against it (``Determinizer.certain_voids``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence

from ...cards import RANK, SUIT
from ..events import EventKind

#: the beliefs ``Engine.determinize`` takes by name: ``uniform`` (every consistent deal alike,
#: as without a belief) and ``voids`` (the evidence of :func:`void_evidence` and
#: :func:`named_evidence`, for the variants whose determinizer reads it)
BELIEFS = ("uniform", "voids")
#: the most candidate deals a belief weighs for each deal it returns: more follow the evidence
#: more closely where few deals fit it, at a cost linear in it there (elsewhere the first deal
#: that fits is kept)
CANDIDATES = 32
#: the weight of one broken void: a seat holding one card more of the cards it did not play
#: on (when it drew) than it could have drawn since
VOID_EPS = 0.02
#: the weight of each card by which a named suit falls short of the seat's longest suit then
NAMED_EPS = 0.3
#: the events that end a run of forced draws, their ``arg`` the run's length (a King's draws in
#: Crazy Eights, a pick-up of stacked 2s or a penalty in Livery Eights, an Ace's, Five's, Ten's
#: or Joker's draws and the Guarantee Joker's combo in Baby-Eating Eights): not a choice to draw
FORCED_DRAW_ENDS = frozenset({"skip", "pick_up", "penalty", "forced_draw"})
#: the events whose card is the pile's top card from then on: a card turned up or played, and
#: the King of Hearts a Baby-Eating Eights redeal leaves alone on the pile (its new hand's
#: first event, so the hand's draws on it are read)
TOP_CARDS = frozenset({"starter", "play", "redeal"})
#: the events after which only the top card's own rank matches (not its number) until the next
#: card goes on the pile: a Six or Nine dropped on a Three in Baby-Eating Eights
LOCKS = frozenset({"locked"})

#: (suit to follow, top rank, locked: only the rank itself matches) -> the cards a seat that
#: drew or passed there did not hold (the engine's ``draw_excludes``)
Fits = Callable[[int, int, bool], frozenset[int]]


@dataclasses.dataclass(frozen=True)
class AtMost:
    """Seat :attr:`seat` holds at most :attr:`most` of :attr:`cards` (copies counted)."""

    seat: int
    cards: frozenset[int]
    most: int


@dataclasses.dataclass(frozen=True)
class NamedSuit:
    """Seat :attr:`seat` named :attr:`suit` holding its hand of now plus :attr:`since`, the
    cards it played after naming (it drew nothing since, so that was its whole hand)."""

    seat: int
    suit: int
    since: tuple[int, ...]


Evidence = AtMost | NamedSuit


@dataclasses.dataclass(frozen=True)
class Flows:
    """Where each kind of event moves its card, as the readers need it: which seat's hand a
    card enters or leaves, and which kinds deal a new hand. Made from a variant's declared
    kinds (:func:`flows_of`, from :attr:`EventKind.flow`, ``seen_only`` and ``new_hand``); the
    default is the shared pile games' (a draw, a card played or turned up, a deal).

    ``moves``: kind -> ``(from, to)``, places of :data:`~eights.engines.events.FLOW_PLACES`
    (``hand``: the event's player's, ``hand:arg``: the seat in its ``arg``). ``echoes``: kinds
    that re-tell, for the one seat that sees the card, a move another kind logs for every
    seat (a Seven's ``give`` beside its ``take``); left out, so no move counts twice.
    """

    moves: Mapping[str, tuple[str, str]] = dataclasses.field(default_factory=lambda: {
        "draw": ("stock", "hand"), "play": ("hand", "table"), "starter": ("stock", "table")})
    echoes: frozenset[str] = frozenset()
    new_hand: frozenset[str] = frozenset({"deal"})

    def _seat(self, event: Sequence, place: str) -> int:
        """The seat whose hand ``place`` is in ``event`` (-1: not a hand)."""
        return event[1] if place == "hand" else event[3] if place == "hand:arg" else -1

    def into(self, event: Sequence) -> int:
        """The seat whose hand ``event`` puts its card in (-1: none)."""
        move = self.moves.get(event[0])
        return -1 if move is None or event[0] in self.echoes else self._seat(event, move[1])

    def out_of(self, event: Sequence) -> int:
        """The seat whose hand ``event`` takes its card from (-1: none)."""
        move = self.moves.get(event[0])
        return -1 if move is None or event[0] in self.echoes else self._seat(event, move[0])

    def shown_out(self, event: Sequence) -> int:
        """The seat that put ``event``'s card face up on the table from its hand (-1: none)."""
        move = self.moves.get(event[0])
        return self.out_of(event) if move is not None and move[1] == "table" else -1


#: the shared pile games' flows (what a reader of hand-built histories takes by default)
PILE_FLOWS = Flows()


def flows_of(kinds: Mapping[str, EventKind]) -> Flows:
    """A variant's :class:`Flows`, from its declared event kinds (``Engine.event_kinds``)."""
    return Flows(moves={name: k.flow for name, k in kinds.items() if k.flow is not None},
                 echoes=frozenset(name for name, k in kinds.items() if k.seen_only),
                 new_hand=frozenset(name for name, k in kinds.items() if k.new_hand))


def current_hand(events: Sequence[Sequence],
                 new_hand: Iterable[str] = PILE_FLOWS.new_hand) -> list[Sequence]:
    """The events of the hand in play: those from the last ``new_hand`` event on (a match
    deals anew, a King of Hearts redeals, and what was seen of the last hand says nothing
    of this one's cards)."""
    new_hand = frozenset(new_hand)
    start = 0
    for i, event in enumerate(events):
        if event[0] in new_hand:
            start = i
    return list(events[start:])


def _draws_closed(events: Sequence[Sequence]) -> list[bool]:
    """Per event, whether it is a draw of a forced run (:data:`FORCED_DRAW_ENDS`). A run is
    one seat's draws in a row; a reshuffle of the stock between them does not end it."""
    forced = [False] * len(events)
    i = 0
    while i < len(events):
        if events[i][0] != "draw":
            i += 1
            continue
        seat, draws, j = events[i][1], [], i
        while j < len(events) and (events[j][0] == "reshuffle"
                                   or (events[j][0] == "draw" and events[j][1] == seat)):
            if events[j][0] == "draw":
                draws.append(j)
            j += 1
        end = events[j] if j < len(events) else None
        if end is not None and end[0] in FORCED_DRAW_ENDS and end[1] == seat \
                and end[3] == len(draws):
            for k in draws:
                forced[k] = True
        i = j
    return forced


def _draws_on(events: Sequence[Sequence], i: int, forced: Sequence[bool]) -> bool:
    """Whether the chosen draw ``i`` is followed (a reshuffle aside) by another chosen draw of
    the same seat: a draw until a playable card comes, the seat holding the cards before."""
    for j in range(i + 1, len(events)):
        if events[j][0] != "reshuffle":
            return events[j][0] == "draw" and events[j][1] == events[i][1] and not forced[j]
    return False


def void_evidence(events: Sequence[Sequence], observer: int, fits: Fits,
                  drawn_card_may_fit: bool = True, flows: Flows = PILE_FLOWS) -> list[AtMost]:
    """What each opponent's draws and passes say it lacked, over the hand's whole history.

    An opponent that chose to draw (a draw no forced-draw event accounts for), or passed
    its turn without drawing, held no card that fitted the pile then (``fits`` of the suit
    to follow, the top rank and whether a lock (:data:`LOCKS`) held the pile to that rank).
    Of those cards its hand now holds at most as many as came into it since (``flows``):
    the card drawn then, every later draw (forced or not) and card taken, less the cards of
    them it was seen to give up (played, put under the pile). Where a drawn card that fits
    is played at once (not ``drawn_card_may_fit``), the card drawn then cannot be one of
    them either. In a run of draws until a playable card comes, the run's last draw says
    all the earlier ones do (the seat held their cards then), so it alone is evidence:
    pieces saying the same would each cut the deal's weight.
    """
    events = current_hand(events, flows.new_hand)
    forced = _draws_closed(events)
    suit = rank = -1
    locked = False
    moments: list[tuple[int, int, frozenset[int], bool]] = []  # (index, seat, cards, drew)
    for i, (kind, player, card, arg) in enumerate(events):
        if kind in TOP_CARDS and card >= 0:
            suit, rank, locked = SUIT[card], RANK[card], False
        elif kind == "suit" and arg >= 0:
            suit = arg
        elif kind in LOCKS:
            locked = True
        elif player != observer and player >= 0 and suit >= 0 and (
                (kind == "draw" and not forced[i] and not _draws_on(events, i, forced))
                or (kind == "pass" and not (i and events[i - 1][0] == "draw"
                                            and events[i - 1][1] == player))):
            moments.append((i, player, fits(suit, rank, locked), kind == "draw"))
    out = []
    for i, seat, cards, drew in moments:
        after = events[i + 1:]
        came = sum(1 for e in after if flows.into(e) == seat)
        gone = sum(1 for e in after if e[2] in cards and flows.out_of(e) == seat)
        most = came + int(drew) - gone
        if drew and not drawn_card_may_fit:
            most = min(most, came)
        out.append(AtMost(seat, cards, max(most, 0)))
    return out


def named_evidence(events: Sequence[Sequence], observer: int,
                   flows: Flows = PILE_FLOWS) -> list[NamedSuit]:
    """The suits opponents named after an 8, where the hand it was named from is known: no
    card has come into the seat's hand or left it unseen since (``flows``: a draw, a card
    taken or given), so it held its hand of now and the cards it put face up since."""
    events = current_hand(events, flows.new_hand)
    out = []
    for i, (kind, player, _card, arg) in enumerate(events):
        if kind != "suit" or player == observer or player < 0 or arg < 0:
            continue
        after = events[i + 1:]
        if any(flows.into(e) == player or (flows.out_of(e) == player
                                           and flows.shown_out(e) != player) for e in after):
            continue
        since = tuple(e[2] for e in after if flows.shown_out(e) == player)
        out.append(NamedSuit(player, arg, since))
    return out


def _suit_shortfall(hand: Iterable[int], suit: int, wild_rank: int) -> int:
    """How many cards ``suit`` falls short of the longest suit of ``hand``, wild cards (and
    cards of no suit: jokers) aside."""
    counts = [0, 0, 0, 0]
    for c in hand:
        if RANK[c] != wild_rank and SUIT[c] >= 0:
            counts[SUIT[c]] += 1
    return max(counts) - counts[suit]


def violations(evidence: Evidence, hands: Sequence[Sequence[int]], wild_rank: int) -> int:
    """How far ``hands`` break one piece of evidence (0: they fit it)."""
    hand = hands[evidence.seat]
    if isinstance(evidence, AtMost):
        cards = evidence.cards
        return max(0, sum(1 for c in hand if c in cards) - evidence.most)
    return _suit_shortfall([*hand, *evidence.since], evidence.suit, wild_rank)


def weight(evidence: Iterable[Evidence], hands: Sequence[Sequence[int]], wild_rank: int,
           void_eps: float = VOID_EPS, named_eps: float = NAMED_EPS) -> float:
    """A candidate deal's weight: ``eps ** violations`` over every piece of evidence (1.0
    for a deal that fits it all)."""
    w = 1.0
    for e in evidence:
        k = violations(e, hands, wild_rank)
        if k:
            w *= (void_eps if isinstance(e, AtMost) else named_eps) ** k
    return w
