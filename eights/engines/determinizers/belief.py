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
many as it drew since) and :func:`named_evidence` (:class:`NamedSuit`: a seat
names the suit it holds most); a game of several piles reads its own moments
and follows each hand to now with :func:`follow_hand` (:class:`Uncovered`: a
seat could not give each pile a card of its own, Jokers of Death's rule for a
draw). :func:`weight` is a pure function of the
evidence and a candidate's hands, so a model-based belief (the likelihood of
each observed action under a policy) can replace it without touching the
dealing. Every kind is soft (``eps ** violations``): a player may draw
holding a card it could play, or name a suit it holds few of.
"""

from __future__ import annotations

import dataclasses
import functools
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from ...cards import RANK, SUIT

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
#: Crazy Eights, a pick-up of stacked 2s or a penalty in Livery Eights): not a choice to draw
FORCED_DRAW_ENDS = frozenset({"skip", "pick_up", "penalty"})

#: (suit to follow, top rank) -> the cards that could be played on them, wild cards included
Fits = Callable[[int, int], frozenset[int]]


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


def current_hand(events: Sequence[Sequence]) -> list[Sequence]:
    """The events of the hand in play: those after the last ``deal`` (a match deals anew,
    and what was seen of the last hand says nothing of this one's cards)."""
    start = 0
    for i, event in enumerate(events):
        if event[0] == "deal":
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


def void_evidence(events: Sequence[Sequence], observer: int, fits: Fits,
                  drawn_card_may_fit: bool = True) -> list[AtMost]:
    """What each opponent's draws and passes say it lacked, over the hand's whole history.

    An opponent that chose to draw (a single draw no forced-draw event accounts for), or
    passed its turn without drawing, held no card that fitted the pile then (``fits`` of
    the suit to follow and the top rank). Of those cards its hand now holds at most as
    many as it drew afterwards: the card drawn then too when ``drawn_card_may_fit`` (it
    may be kept though it fits), every later draw, forced or not.
    """
    events = current_hand(events)
    forced = _draws_closed(events)
    suit = rank = -1
    moments: list[tuple[int, int, frozenset[int], bool]] = []  # (index, seat, cards, drew)
    for i, (kind, player, card, arg) in enumerate(events):
        if kind in ("starter", "play") and card >= 0:
            suit, rank = SUIT[card], RANK[card]
        elif kind == "suit" and arg >= 0:
            suit = arg
        elif player != observer and player >= 0 and suit >= 0 and (
                (kind == "draw" and not forced[i])
                or (kind == "pass" and not (i and events[i - 1][0] == "draw"
                                            and events[i - 1][1] == player))):
            moments.append((i, player, fits(suit, rank), kind == "draw"))
    out = []
    for i, seat, cards, drew in moments:
        later = sum(1 for e in events[i + 1:] if e[0] == "draw" and e[1] == seat)
        out.append(AtMost(seat, cards, later + int(drew and drawn_card_may_fit)))
    return out


def named_evidence(events: Sequence[Sequence], observer: int) -> list[NamedSuit]:
    """The suits opponents named after an 8, where the hand it was named from is known: the
    seat drew nothing since, so it held its hand of now and the cards it played since."""
    events = current_hand(events)
    out = []
    for i, (kind, player, _card, arg) in enumerate(events):
        if kind != "suit" or player == observer or player < 0 or arg < 0:
            continue
        after = events[i + 1:]
        if any(e[0] == "draw" and e[1] == player for e in after):
            continue
        since = tuple(e[2] for e in after if e[0] == "play" and e[1] == player)
        out.append(NamedSuit(player, arg, since))
    return out


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


def _suit_shortfall(hand: Iterable[int], suit: int, wild_rank: int) -> int:
    """How many cards ``suit`` falls short of the longest suit of ``hand``, wild cards aside."""
    counts = [0, 0, 0, 0]
    for c in hand:
        if RANK[c] != wild_rank:
            counts[SUIT[c]] += 1
    return max(counts) - counts[suit]


def violations(evidence: Evidence, hands: Sequence[Sequence[int]], wild_rank: int) -> int:
    """How far ``hands`` break one piece of evidence (0: they fit it)."""
    hand = hands[evidence.seat]
    if isinstance(evidence, AtMost):
        cards = evidence.cards
        return max(0, sum(1 for c in hand if c in cards) - evidence.most)
    if isinstance(evidence, Uncovered):
        return max(0, cover_slack([*hand, *evidence.played], evidence.piles) - evidence.most)
    return _suit_shortfall([*hand, *evidence.since], evidence.suit, wild_rank)


def weight(evidence: Iterable[Evidence], hands: Sequence[Sequence[int]], wild_rank: int,
           void_eps: float = VOID_EPS, named_eps: float = NAMED_EPS) -> float:
    """A candidate deal's weight: ``eps ** violations`` over every piece of evidence (1.0
    for a deal that fits it all); :class:`Uncovered` weighs as a void."""
    w = 1.0
    for e in evidence:
        k = violations(e, hands, wild_rank)
        if k:
            w *= (named_eps if isinstance(e, NamedSuit) else void_eps) ** k
    return w
