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
swap in Baby-Eating Eights) is read with the same functions. A variant whose
turns read differently finds its own moments of "held nothing that fitted"
(Crazier Eights: a main phase ended with a discard left) and turns them into
:class:`AtMost` evidence with :func:`at_most`; a game of several piles
follows each hand to now with :func:`follow_hand` (:class:`Uncovered`: a seat
could not give each pile a card of its own, Jokers of Death's rule for a
draw). :func:`weight` is a pure function of the evidence and a candidate's
hands. Every kind is soft (``eps ** violations``): a player may draw holding a
card it could play, or name a suit it holds few of. Where the rules forbid
that (Baby-Eating Eights), a void that leaves a seat no room is certain, and
the determinizer deals around it rather than weighing deals against it
(``Determinizer.certain_voids``).

An **opponent model** (:class:`ChoiceModel`) reads more: every play, draw and
named suit of an opponent is a choice (:class:`Choice`, read once by
:func:`choice_history`), and a deal is as likely as those choices were had the
opponent held the deal's hand, rebuilt backwards to each choice
(:func:`choice_weight`). The heuristic's model
(:class:`eights.agents.heuristic.PileHeuristicModel`) is the one shipped; a
policy's probabilities fit the same interface. Such weights rule most uniform
deals out, so the deals are drawn by a Markov chain rather than by rejection
(:meth:`~eights.engines.determinizers.base.Determinizer.deal_by_model`).
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from ...cards import RANK, SUIT
from ..events import EventKind

if TYPE_CHECKING:
    from ..events import EventKind

#: the beliefs ``Engine.determinize`` takes by name: ``uniform`` (every consistent deal alike,
#: as without a belief) and ``voids`` (the evidence of :func:`void_evidence` and
#: :func:`named_evidence`, or a variant's own :class:`Uncovered` moments, for the variants
#: whose determinizer reads it)
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
#: a card -> the suits (colours) it counts in when a seat's longest suit is weighed; none for a
#: wild card, several for a multicoloured one
SuitsOf = Callable[[int], Iterable[int]]
#: an event -> the seats whose hands it changes in a way the observer cannot count as draws (a
#: Trade's take and give, a hand returned by a seat that lost): evidence about those hands
#: from before it no longer holds
HandsMoved = Callable[[Sequence], Iterable[int]]
#: (event index, seat, cards it held none of then, whether the moment was its draw)
Moment = tuple[int, int, frozenset[int], bool]


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


@dataclasses.dataclass(frozen=True)
class Uncovered:
    """Seat :attr:`seat` could not give each of :attr:`piles` (per pile, the cards that fitted
    it then) a card of its own; since then :attr:`most` cards came into that hand and it
    played :attr:`played` from it.

    The several-pile form of :class:`AtMost`: by Hall's theorem the hand then fell short on
    some set of piles, held fewer cards fitting one of them than there are piles in it
    (:func:`cover_slack`), and which set is not known, so the evidence keeps them all. Its
    hand now with the cards it played since is that hand with the ``most`` cards that came
    in; each of those lifts the slack by at most one. With one pile it says what
    :class:`AtMost` says, the cards played since counted back in.
    """

    seat: int
    piles: tuple[frozenset[int], ...]
    most: int
    played: tuple[int, ...] = ()


Evidence = AtMost | NamedSuit | Uncovered


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
    moments: list[Moment] = []
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


def _moved(events: Sequence[Sequence], start: int, seat: int,
           hands_moved: HandsMoved | None) -> bool:
    """Whether an event from ``start`` on changes ``seat``'s hand by ``hands_moved``."""
    return hands_moved is not None and any(
        seat in hands_moved(e) for e in events[start:])


def at_most(events: Sequence[Sequence], moments: Iterable[Moment],
            drawn_card_may_fit: bool = True, hands_moved: HandsMoved | None = None,
            played: Collection[str] = ()) -> list[AtMost]:
    """:class:`AtMost` evidence of ``moments`` in ``events`` (the hand's events, those the
    moments index), for a variant that finds its own moments (Crazier Eights): a seat held
    none of the moment's cards then, so of them its hand now holds at most as many as it
    drew after the moment, every draw counted, forced or not, plus the card drawn at the
    moment itself where it was a draw and ``drawn_card_may_fit``.

    With ``played`` (the kinds of event that put a card of the seat's face up), each of
    those cards it played since that is one of the moment's came from one of those draws,
    which then holds it no more: the bound is that much lower (the card drawn at the
    moment counted in, since a drawn card that fits may be played at once).

    A moment after which ``hands_moved`` says the seat's hand changed otherwise (a card
    taken or given unseen, its hand returned) is dropped: what came in is not counted as a
    draw, so the bound would no longer be sound, and the cards the observer saw move are
    placed by the determinizer's constraints anyway.
    """
    out = []
    for i, seat, cards, drew in moments:
        after = events[i + 1:]
        if _moved(events, i + 1, seat, hands_moved):
            continue
        later = sum(1 for e in after if e[0] == "draw" and e[1] == seat)
        most = later + int(drew and drawn_card_may_fit)
        if played:
            gone = sum(1 for e in after if e[0] in played and e[1] == seat and e[2] in cards)
            most = min(most, max(0, later + int(drew) - gone))
        out.append(AtMost(seat, cards, most))
    return out


def named_evidence(events: Sequence[Sequence], observer: int, flows: Flows = PILE_FLOWS, *,
                   named: str = "suit", played: Collection[str] | None = None,
                   hands_moved: HandsMoved | None = None) -> list[NamedSuit]:
    """The suits opponents named after an 8 (events of kind ``named``, the suit in ``arg``),
    where the hand it was named from is known, so it held its hand of now and the cards it
    put face up since.

    By default ``flows`` say so: no card has come into the seat's hand or left it unseen
    since (a draw, a card taken or given). A variant that reads its own events (Crazier
    Eights) names instead the ``played`` kinds (every card that left the hand face up) and
    ``hands_moved``: the seat drew nothing since and no such event changed its hand.
    """
    events = current_hand(events, flows.new_hand)
    out = []
    for i, (kind, player, _card, arg) in enumerate(events):
        if kind != named or player == observer or player < 0 or arg < 0:
            continue
        after = events[i + 1:]
        if played is None:
            if any(flows.into(e) == player or (flows.out_of(e) == player
                                               and flows.shown_out(e) != player)
                   for e in after):
                continue
            since = tuple(e[2] for e in after if flows.shown_out(e) == player)
        else:
            if any(e[0] == "draw" and e[1] == player for e in after) or _moved(
                    events, i + 1, player, hands_moved):
                continue
            since = tuple(e[2] for e in after if e[0] in played and e[1] == player)
        out.append(NamedSuit(player, arg, since))
    return out


def standard_suits(wild_rank: int) -> SuitsOf:
    """The suits of the standard deck's cards: one each, none for the ``wild_rank`` and none
    for a card of no suit (a joker)."""
    return lambda c: () if RANK[c] == wild_rank or SUIT[c] < 0 else (SUIT[c],)


def follow_hand(events: Sequence[Sequence], start: int, seat: int, observer: int,
                num_players: int, kinds: Mapping[str, EventKind],
                elsewhere: Collection[int] = ()) -> tuple[int, int, tuple[int, ...]] | None:
    """Where the hand ``seat`` held just before ``events[start]`` is now, and what changed it:
    (the seat holding it, the cards that came into it, the cards played from it), or
    ``None`` once it reached ``observer`` (who sees it: nothing to weigh).

    Read from the kinds' declared flows (:class:`~eights.engines.events.EventKind`): a card
    into the event player's hand (a draw, a card seen to join it) came in, a card from it
    to the table was played from it, and a kind that ``passes_hands`` moves every hand to
    the next seat in its direction (a hand switch: the hand, and what is known of it, goes
    on). ``seen_only`` kinds echo a move another event logs, and the events at the indices
    of ``elsewhere`` are plays from somewhere else than the hand (a picked-up pile).
    """
    holder, taken, played = seat, 0, []
    for i in range(start, len(events)):
        kind, player, card, arg = events[i]
        declared = kinds.get(kind)
        if declared is None:
            continue
        if declared.passes_hands:
            holder = (holder + arg) % num_players
            if holder == observer:
                return None
            continue
        flow = declared.flow
        if player != holder or flow is None or declared.seen_only:
            continue
        if flow[1] == "hand":
            taken += 1
        elif flow[0] == "hand" and i not in elsewhere:
            played.append(card)
    return holder, taken, tuple(played)


@functools.lru_cache(maxsize=4096)
def _pile_masks(piles: tuple[frozenset[int], ...]) -> dict[int, int]:
    """Per card that fits any of ``piles``, the bit mask of the piles it fits."""
    masks: dict[int, int] = {}
    for k, cards in enumerate(piles):
        for c in cards:
            masks[c] = masks.get(c, 0) | 1 << k
    return masks


def cover_slack(cards: Iterable[int], piles: Sequence[frozenset[int]]) -> int:
    """The least, over every non-empty set of ``piles``, of the cards (copies counted) that
    fit one of its piles, less the piles in it, plus one.

    At most 0 exactly where no choice of distinct cards gives every pile one (Hall's
    theorem), and one card more lifts it by at most one: so a hand that had no cover, and
    took ``m`` cards in since, has a slack of at most ``m``. With one pile it is the count
    of the cards that fit it.
    """
    if len(piles) == 1:
        fit = piles[0]
        return sum(1 for c in cards if c in fit)
    masks = _pile_masks(tuple(piles))
    held = Counter(masks[c] for c in cards if c in masks)
    return min(sum(k for mask, k in held.items() if mask & chosen) - chosen.bit_count() + 1
               for chosen in range(1, 1 << len(piles)))


def can_break(evidence: Uncovered, hand_size: int) -> bool:
    """Whether some hand of ``hand_size`` cards breaks ``evidence``: one that cannot says
    nothing (an old draw with many cards taken in since) and need not be weighed. Each
    card of the hand adds at most one to every set of piles' count."""
    return hand_size + cover_slack(evidence.played, evidence.piles) > evidence.most


def _suit_shortfall(hand: Iterable[int], suit: int, suits_of: SuitsOf) -> int:
    """How many cards ``suit`` falls short of the longest suit of ``hand`` (each card counted
    in every suit of ``suits_of``; wild cards in none)."""
    counts: Counter[int] = Counter()
    for c in hand:
        counts.update(suits_of(c))
    return max(counts.values(), default=0) - counts[suit]


def violations(evidence: Evidence, hands: Sequence[Sequence[int]], wild_rank: int,
               suits_of: SuitsOf | None = None) -> int:
    """How far ``hands`` break one piece of evidence (0: they fit it); a named suit is read
    with ``suits_of`` (by default the standard deck's suits, the ``wild_rank`` aside)."""
    hand = hands[evidence.seat]
    if isinstance(evidence, AtMost):
        cards = evidence.cards
        return max(0, sum(1 for c in hand if c in cards) - evidence.most)
    if isinstance(evidence, Uncovered):
        return max(0, cover_slack([*hand, *evidence.played], evidence.piles) - evidence.most)
    return _suit_shortfall([*hand, *evidence.since], evidence.suit,
                           suits_of or standard_suits(wild_rank))


def weight(evidence: Iterable[Evidence], hands: Sequence[Sequence[int]], wild_rank: int,
           void_eps: float = VOID_EPS, named_eps: float = NAMED_EPS,
           suits_of: SuitsOf | None = None) -> float:
    """A candidate deal's weight: ``eps ** violations`` over every piece of evidence (1.0
    for a deal that fits it all); ``suits_of`` as for :func:`violations`; :class:`Uncovered`
    weighs as a void."""
    suits_of = suits_of or standard_suits(wild_rank)
    w = 1.0
    for e in evidence:
        k = violations(e, hands, wild_rank, suits_of)
        if k:
            w *= (named_eps if isinstance(e, NamedSuit) else void_eps) ** k
    return w


# ---------------------------------------------------------------- opponent models
@dataclasses.dataclass(frozen=True)
class Choice:
    """One choice an opponent made in the open, with what it knew then (public data).

    ``kind``: ``"play"`` (it played :attr:`observed` from its hand on its turn),
    ``"draw"`` (it drew instead of playing) or ``"suit"`` (it named suit :attr:`observed`
    after an 8). ``fitting``: the cards that could be played on the pile then (suit to
    follow, top rank, wild cards). ``nearest``: the fewest cards another seat held then.
    """

    seat: int
    kind: str
    observed: int
    fitting: frozenset[int]
    nearest: int


class ChoiceModel(Protocol):
    """An opponent model: how likely a seat holding ``hand`` was to make ``choice``.

    A belief built on it (:func:`choice_weight`) weights each deal by the product of
    these likelihoods over the hand's choices, the seat's hand at each choice rebuilt
    from the deal (:class:`ChoiceHistory`). The heuristic agent supplies one
    (:class:`eights.agents.heuristic.PileHeuristicModel`): the engines never import agents.
    """

    name: str

    def likelihood(self, choice: Choice, hand: Sequence[int]) -> float:
        """The probability (0..1) that a seat holding ``hand`` made ``choice``."""
        ...


@dataclasses.dataclass(frozen=True)
class ChoiceHistory:
    """A hand's history read once for a model belief: per event, the choice it shows (or
    ``None``), and per draw of an opponent which card it was when the table saw it (the
    drawn card played at once) or the cards it could not have been (a drawn card that
    fitted would have been played: a kept one did not fit), so each opponent's hand at
    each choice can be rebuilt backwards from a dealt hand (:func:`choice_weight`)."""

    observer: int
    events: tuple[tuple[str, int, int, int], ...]
    choices: tuple[Choice | None, ...]
    #: per event: for a draw whose card the table saw, that card; else -1
    drawn: tuple[int, ...]
    #: per event: for an unseen kept draw, the cards it cannot have been; else empty
    not_drawn: tuple[frozenset[int], ...]

    @functools.cached_property
    def steps(self) -> tuple[tuple[int, str, int, int, frozenset[int], Choice | None], ...]:
        """The opponents' events that change their hands or show a choice, last first:
        (seat, kind, card, :attr:`drawn`, :attr:`not_drawn`, the choice): what
        :func:`choice_weight` walks for every deal it weighs."""
        return tuple(
            (player, kind, card, self.drawn[i], self.not_drawn[i], self.choices[i])
            for i, (kind, player, card, _arg) in reversed(list(enumerate(self.events)))
            if player >= 0 and player != self.observer and (
                self.choices[i] is not None or kind in ("play", "draw")))

    @property
    def informative(self) -> bool:
        """Whether any opponent made a choice the model can weigh."""
        return any(c is not None for c in self.choices)


def choice_history(events: Sequence[Sequence], observer: int, fits: Fits,
                   hand_sizes: Sequence[int], drawn_card_may_fit: bool) -> ChoiceHistory:
    """Read the hand's opponent choices (:class:`Choice`) from a seat's history.

    A play is a choice unless it is the card just drawn (the rules play a fitting drawn
    card at once); a draw is a choice unless a forced-draw event closes it
    (:data:`FORCED_DRAW_ENDS`); a named suit is a choice. ``hand_sizes`` are the seat's
    view's, from which each earlier size is counted back; ``drawn_card_may_fit``: a kept
    drawn card may fit (then a kept draw says nothing of its card).
    """
    events = [tuple(e) for e in current_hand(events)]
    forced = _draws_closed(events)
    n = len(hand_sizes)
    # hand sizes before each event, counted back from the view's
    sizes = list(hand_sizes)
    before: list[list[int]] = [[]] * len(events)
    for i in range(len(events) - 1, -1, -1):
        kind, player, _card, _arg = events[i]
        if kind == "play" and player >= 0:
            sizes[player] += 1
        elif kind == "draw" and player >= 0:
            sizes[player] -= 1
        before[i] = list(sizes)
    choices: list[Choice | None] = []
    drawn: list[int] = []
    not_drawn: list[frozenset[int]] = []
    suit = rank = -1
    for i, (kind, player, card, arg) in enumerate(events):
        choice = None
        seen, unfit = -1, frozenset()
        theirs = player != observer and player >= 0 and suit >= 0
        if theirs:
            fitting = fits(suit, rank, False)
            nearest = min(before[i][(player + k) % n] for k in range(1, n))
            after_draw = i > 0 and events[i - 1][0] == "draw" and events[i - 1][1] == player
            if kind == "play" and not after_draw:
                choice = Choice(player, "play", card, fitting, nearest)
            elif kind == "draw" and not forced[i]:
                choice = Choice(player, "draw", -1, fitting, nearest)
            elif kind == "suit" and arg >= 0:
                choice = Choice(player, "suit", arg, fitting, nearest)
            if kind == "draw":
                nxt = events[i + 1] if i + 1 < len(events) else None
                if nxt is not None and nxt[0] == "play" and nxt[1] == player:
                    seen = nxt[2]
                elif not forced[i] and not drawn_card_may_fit:
                    unfit = fitting
        choices.append(choice)
        drawn.append(seen)
        not_drawn.append(unfit)
        if kind in TOP_CARDS and card >= 0:
            suit, rank = SUIT[card], RANK[card]
        elif kind == "suit" and arg >= 0:
            suit = arg
    return ChoiceHistory(observer, tuple(events), tuple(choices), tuple(drawn),
                         tuple(not_drawn))


def choice_weight(history: ChoiceHistory, hands: Sequence[Sequence[int]], model: ChoiceModel,
                  rng: random.Random) -> float:
    """The likelihood of the opponents' choices under ``model`` if they hold ``hands`` now.

    Each opponent's hand is rebuilt backwards from its dealt hand: before a play it also
    held the card played; before a draw it lacked the card drawn, which is the card the
    table saw played at once, or else one of its cards then drawn at random (one that
    did not fit, where a fitting drawn card would have been played). The random pick
    makes the weight an unbiased estimate of the likelihood over the unseen draws, which
    is what a pseudo-marginal Markov chain (:meth:`Determinizer.deal_by_model`) needs.
    """
    rebuilt = {p: list(hand) for p, hand in enumerate(hands) if p != history.observer}
    w = 1.0
    for player, kind, card, seen, unfit, choice in history.steps:
        hand = rebuilt[player]
        if kind == "play":
            hand.append(card)
        elif kind == "draw":
            if seen >= 0 and seen in hand:
                hand.remove(seen)
            elif hand:
                pick = [k for k, c in enumerate(hand) if c not in unfit] or range(len(hand))
                hand.pop(pick[int(rng.random() * len(pick))])
        if choice is not None:
            w *= model.likelihood(choice, hand)
            if w == 0.0:
                return 0.0
    return w
