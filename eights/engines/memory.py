"""What a seat remembers of the table: a fold over the events it saw.

A player at a real table remembers what it saw: the cards each opponent
played, the suits it named, how many cards it drew since it last played, the
cards it was seen to take into its hand (a Seven's swap, a Trade, a picked-up
pile). So the observation's public history (the ``*_v2`` envs) is a fold over
a seat's *redacted* history, the events :attr:`PlayerView.seen_events
<eights.engines.base.PlayerView.seen_events>` holds: nothing a seat cannot see
can reach its memory, by construction. The fold has two users: the engine
(:meth:`TableEngine.memory <eights.engines.table.TableEngine.memory>`, folding
each seat's new events as the log grows) and the protocol's reader (over the
``history`` a frontend sends, where it leaves the memory fields out).

Cards move by their event kind's declared flow (:attr:`EventKind.flow
<eights.engines.events.EventKind.flow>`): ``(from, to)`` between the event
player's hand, the hand of the seat in its ``arg``, the stock and the face-up
table. A kind declared ``new_hand`` (a ``deal``, Baby Eating Eights' ``redeal``) starts
a new hand and forgets the last one's; ``seen_only`` flows are folded only where their
card is seen (the seat's echo of a move another event logs for everyone),
``passes_hands`` moves what is known of each hand to the next seat's (a hand switch), and
``shows`` makes a card known in a hand without moving it (a look at a hand). The state is
a small dataclass of per-seat counts (:class:`Memory`); :func:`remember`
folds one event into it, :func:`fold` a whole history into a new one.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from ..cards import NO_CARD
from ..config import GameConfig
from .defaults import Default
from .encoding import CardCounts, Counts, PerSeat, Scaled
from .events import EventKind
from .fields import ViewField

#: the most copies a count holds (one byte; the protocol's card counts go to 255 too)
COUNT_MAX = 255


@dataclasses.dataclass(slots=True)
class Memory:
    """What seat :attr:`seat` remembers, per seat in absolute seat order (the encoder turns
    them to relative order). Counts are ``bytes`` of copies per card id.

    Every field is an immutable tuple, replaced (never changed in place) when an event
    changes it: a view takes the tuples as they are, with no copy, and stays a snapshot
    while the memory folds on (a view is read at every decision of every seat; an
    event changes one or two rows).

    ``known`` holds cards the observer saw go into another seat's hand and not leave it
    again. When a card the observer did not see leaves that hand, any one of the hand's
    cards may be the one that left, so only what stays certain is kept: one copy of each
    card id less (with one copy of each card in play, nothing). The observer's own entry
    is always empty: its hand is in its view.
    """

    seat: int
    #: per seat, copies of each card it put face up on the table this hand
    played: tuple[bytes, ...]
    #: per seat, how many times it named each suit (or colour) this hand
    named: tuple[tuple[int, ...], ...]
    #: per seat, cards it took from the stock since it last played a card
    drawn: tuple[int, ...]
    #: per seat, copies of each card known to be in its hand
    known: tuple[bytes, ...]
    #: how many events of the seat's history are folded in
    position: int = 0


def new_memory(seat: int, num_players: int, num_cards: int, num_suits: int) -> Memory:
    """The memory of ``seat`` before any event: nothing seen."""
    return Memory(seat, (bytes(num_cards),) * num_players, ((0,) * num_suits,) * num_players,
                  (0,) * num_players, (bytes(num_cards),) * num_players)


def _put(rows: tuple, q: int, row: Any) -> tuple:
    """``rows`` with row ``q`` replaced by ``row``."""
    return (*rows[:q], row, *rows[q + 1:])


def _add(counts: bytes, card: int, delta: int) -> bytes:
    """``counts`` with ``delta`` added to ``card``'s copies, kept within a byte."""
    new = bytearray(counts)
    new[card] = min(COUNT_MAX, max(0, new[card] + delta))
    return bytes(new)


def _forget(memory: Memory) -> None:
    """A new hand: nothing of the last one is remembered (the cards are dealt anew)."""
    n, size, suits = len(memory.played), len(memory.played[0]), len(memory.named[0])
    fresh = new_memory(memory.seat, n, size, suits)
    memory.played, memory.named, memory.drawn, memory.known = (
        fresh.played, fresh.named, fresh.drawn, fresh.known)


def _leaves(memory: Memory, seat: int, card: int) -> None:
    """``card`` leaves ``seat``'s hand (``NO_CARD``: a card the observer did not see)."""
    known = memory.known[seat]
    if card != NO_CARD:
        if known[card]:
            memory.known = _put(memory.known, seat, _add(known, card, -1))
    elif any(known):  # any of its cards may have gone: one copy of each is no longer certain
        memory.known = _put(memory.known, seat, bytes(k - 1 if k else 0 for k in known))


def _pass_hands(memory: Memory, direction: int) -> None:
    """Every hand passes to the next seat in ``direction``: what was known in seat ``q``'s
    hand is known in the next seat's (the observer's own entry stays empty: the hand it
    passed on is known through its own ``seen_only`` events, the one it got is its hand)."""
    n, known = len(memory.known), memory.known
    moved = [known[(q - direction) % n] for q in range(n)]
    moved[memory.seat] = bytes(len(known[0]))
    memory.known = tuple(moved)


def remember(memory: Memory, event: Sequence, kind: EventKind) -> None:
    """Fold one event of the observer's history (as the observer saw it) into ``memory``."""
    _, player, card, arg = event
    if kind.new_hand:
        _forget(memory)
        return
    if kind.arg == "suit" and player >= 0 and arg >= 0:
        named = list(memory.named[player])
        named[arg] += 1
        memory.named = _put(memory.named, player, tuple(named))
    if kind.passes_hands:
        _pass_hands(memory, arg)
        return
    if kind.shows:
        if card != NO_CARD and 0 <= arg != memory.seat and not memory.known[arg][card]:
            memory.known = _put(memory.known, arg, _add(memory.known[arg], card, 1))
        return
    flow = kind.flow
    if flow is None or (kind.seen_only and card == NO_CARD):
        return
    src, dst = flow
    giver = player if src == "hand" else arg if src == "hand:arg" else -1
    taker = player if dst == "hand" else arg if dst == "hand:arg" else -1
    if giver >= 0:
        _leaves(memory, giver, card)
        if dst == "table":
            # a card reshuffled and played again counts again: a long game reaches any
            # count, which stays at the most a byte holds
            if card != NO_CARD and memory.played[giver][card] < COUNT_MAX:
                memory.played = _put(memory.played, giver, _add(memory.played[giver], card, 1))
            if memory.drawn[giver]:
                memory.drawn = _put(memory.drawn, giver, 0)
    if taker >= 0:
        if card != NO_CARD and taker != memory.seat and memory.known[taker][card] < COUNT_MAX:
            memory.known = _put(memory.known, taker, _add(memory.known[taker], card, 1))
        if src == "stock":
            memory.drawn = _put(memory.drawn, taker, memory.drawn[taker] + 1)


def fold(events: Iterable[Sequence], kinds: Mapping[str, EventKind], seat: int,
         num_players: int, num_cards: int, num_suits: int) -> Memory:
    """A new memory of ``seat`` with every event of ``events`` (its history) folded in."""
    memory = new_memory(seat, num_players, num_cards, num_suits)
    for event in events:
        remember(memory, event, kinds[event[0]])
        memory.position += 1
    return memory


def unseen(memory: Memory, deck: Sequence[int], hand: Iterable[int],
           table: Sequence[int]) -> bytes:
    """Copies of each card whose place the observer does not know: the ``deck`` less its own
    ``hand``, the face-up ``table`` (copies per card) and the cards known in other hands."""
    counts = [k - t for k, t in zip(deck, table, strict=False)]
    for c in hand:
        counts[c] -= 1
    for q, known in enumerate(memory.known):
        if q != memory.seat:
            for c, k in enumerate(known):
                if k:
                    counts[c] -= k
    return bytes(max(0, k) for k in counts)


# ------------------------------------------------------------------ in views
#: the observation version that first holds the memory fields (the ``*_v2`` envs)
MEMORY_SINCE = 2
#: names at most this many times a suit in a hand's features (the count / 4, at most 1)
_NAMED_SCALE = 4.0
#: cards drawn since the last play, scaled by this (at most 1)
_DRAWN_SCALE = 10.0


@functools.cache
def _engine(variant: str) -> Any:
    from . import engine_class  # (the engines import this module)

    return engine_class(variant)


def _memory_of(known: Any, variant: str) -> Memory:
    """The memory a protocol reader folds from the ``history`` a frontend sent."""
    cls = _engine(variant)
    return fold(known.events, cls.event_kinds, known.values["seat"], known.n,
                len(cls.cardset), len(cls.cardset.colour_codes))


@functools.lru_cache(maxsize=256)
def _deck_of(variant: str, config: GameConfig) -> tuple[int, ...]:
    cls = _engine(variant)
    return tuple(cls(config, seed=0).deck_counts())


def _defaults(variant: str, table: Callable[[Any], Sequence[int]]) -> dict[str, Default]:
    """Each memory field's default: folded from the ``history`` sent (nothing remembered
    where none is), as JSON. ``table(known)``: the face-up cards' copies in the view."""
    def cards_json(counts: Sequence[int]) -> dict[str, int]:
        if not any(counts):
            return {}
        texts = _engine(variant).cardset.texts
        return {texts[c]: int(k) for c, k in enumerate(counts) if k}

    def suits_json(counts: Sequence[int]) -> dict[str, int]:
        codes = _engine(variant).cardset.colour_codes
        return {codes[s]: int(k) for s, k in enumerate(counts) if k}

    last: list[Any] = [None, None]  # the view read last and its memory: folded once a view

    def of(known: Any) -> Memory:
        if last[0] is not known:
            last[:] = known, _memory_of(known, variant)
        return last[1]

    def unseen_json(known: Any) -> dict[str, int]:
        return cards_json(unseen(of(known), _deck_of(variant, known.config),
                                 known.values["hand"], table(known)))

    said = "folded from the events of `history` (nothing remembered where it is not sent)"
    return {
        "played_cards": Default(said, lambda known: [cards_json(x) for x in of(known).played]),
        "named_suits": Default(said, lambda known: [suits_json(x) for x in of(known).named]),
        "drawn_since_play": Default(said, lambda known: list(of(known).drawn)),
        "known_cards": Default(said, lambda known: [cards_json(x) for x in of(known).known]),
        "unseen_cards": Default(
            "the deck less `hand`, the face-up cards and `known_cards` (" + said + ")",
            unseen_json),
    }


def memory_fields(variant: str, *, cards: int, copies: Any, suits: int, known: bool,
                  table: Callable[[Any], Sequence[int]], rename: Mapping[str, str] | None = None,
                  ) -> tuple[ViewField, ...]:
    """The view fields of what a seat remembers (the public history), encoded from
    observation version :data:`MEMORY_SINCE` on.

    ``cards`` card ids and ``suits`` suits (or colours) in the encodings, ``copies`` (a
    number or a function of the config) the copies of each card in play; ``known``: the
    variant can show a seat cards in another hand (a swap, a Trade, a picked-up pile), so
    the view has ``known_cards``; ``table(known)`` the face-up cards' copies in a
    protocol view (what ``unseen_cards``' default leaves out of the deck); ``rename``
    maps a feature name here (``played``, ``named``...) to the one to use where the variant
    has a feature of that name already (Crazier Eights' ``played``: a card played this turn).
    """
    names = {"played": "played", "named": "named", "drawn_since": "drawn_since",
             "known": "known", "unseen": "unseen", **(rename or {})}
    rules = _defaults(variant, table)
    cards_per_seat = PerSeat(CardCounts(cards, copies), others=True)
    fields = [
        ViewField("played_cards", "seat_card_counts", "per seat: the cards it played face up "
                  "this hand and their copies",
                  "g.memory(seat).played", cards_per_seat,
                  feature=names["played"], default=rules["played_cards"], since=MEMORY_SINCE),
        ViewField("named_suits", "seat_suit_counts", "per seat: how often it named each suit "
                  "this hand", "g.memory(seat).named",
                  PerSeat(Counts(suits, _NAMED_SCALE), others=True), feature=names["named"],
                  default=rules["named_suits"], since=MEMORY_SINCE),
        ViewField("drawn_since_play", "counts", "per seat: cards it drew since it last played "
                  "one", "g.memory(seat).drawn",
                  PerSeat(Scaled(_DRAWN_SCALE), others=True), feature=names["drawn_since"],
                  default=rules["drawn_since_play"], since=MEMORY_SINCE),
    ]
    if known:
        fields.append(ViewField(
            "known_cards", "seat_card_counts", "per seat: cards this seat saw go into its "
            "hand and not leave it since (its own: none)",
            "g.memory(seat).known", cards_per_seat,
            feature=names["known"], default=rules["known_cards"], since=MEMORY_SINCE))
    fields.append(ViewField(
        "unseen_cards", "unseen_counts", "the cards whose place this seat does not know (the "
        "other hands and the stock, less the cards known there) and their copies",
        "g.unseen(seat)", CardCounts(cards, copies), feature=names["unseen"],
        default=rules["unseen_cards"], since=MEMORY_SINCE))
    return tuple(fields)
