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


#: each count as a bytes of one byte
_BYTE = tuple(bytes((k,)) for k in range(COUNT_MAX + 1))


def _put(rows: tuple, q: int, row: Any) -> tuple:
    """``rows`` with row ``q`` replaced by ``row`` (through a list: for a few rows, cheaper
    than joining slices, and a fold makes several a decision)."""
    new = list(rows)
    new[q] = row
    return tuple(new)


def _add(counts: bytes, card: int, delta: int) -> bytes:
    """``counts`` with ``delta`` added to ``card``'s copies (``card`` a card id, never
    ``NO_CARD``), kept within a byte: joined from the slices around it, about half the cost
    of a bytearray copy changed and copied again."""
    k = counts[card] + delta
    return counts[:card] + _BYTE[COUNT_MAX if k > COUNT_MAX else 0 if k < 0 else k] \
        + counts[card + 1:]


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
    elif known.count(0) != len(known):  # (a count not 0) any of its cards may have gone:
        # one copy of each is no longer certain
        memory.known = _put(memory.known, seat, bytes(k - 1 if k else 0 for k in known))


def _pass_hands(memory: Memory, direction: int) -> None:
    """Every hand passes to the next seat in ``direction``: what was known in seat ``q``'s
    hand is known in the next seat's (the observer's own entry stays empty: the hand it
    passed on is known through its own ``seen_only`` events, the one it got is its hand)."""
    n, known = len(memory.known), memory.known
    moved = [known[(q - direction) % n] for q in range(n)]
    moved[memory.seat] = bytes(len(known[0]))
    memory.known = tuple(moved)


#: folds one event (its ``player``, ``card`` and ``arg``) into a memory
Fold = Callable[[Memory, int, int, int], None]


def remember(memory: Memory, event: Sequence, kind: EventKind) -> None:
    """Fold one event of the observer's history (as the observer saw it) into ``memory``."""
    step = folder(kind)
    if step is not None:
        step(memory, event[1], event[2], event[3])


#: which fields a fold changes: every one; the ``shared`` ones (``played``, ``named``,
#: ``drawn``: the same in every seat's memory where :func:`shared_folds` says so); or the
#: seat's ``own`` (``known``)
ALL, SHARED, OWN = "all", "shared", "own"


@functools.cache
def folder(kind: EventKind, part: str = ALL) -> Fold | None:
    """The fold of an event of ``kind`` into the fields of ``part`` (:data:`ALL`,
    :data:`SHARED` or :data:`OWN`), or ``None`` where such an event changes none of them.

    Decided once per kind from its declaration (the engine folds several events a
    decision per seat, and most kinds move no card: a pass, a skip), so folding an
    event runs only the steps its kind has, in this order: a new hand forgets (and
    nothing else); a suit named counts; then a hand switch, else a look, else a flow.
    """
    if kind.new_hand:
        return {ALL: _forget_event, SHARED: _forget_shared, OWN: _forget_own}[part]
    steps: list[Fold] = []
    if kind.arg == "suit" and part != OWN:
        steps.append(_name_suit)
    if kind.passes_hands:
        if part != SHARED:
            steps.append(_pass_event)
    elif kind.shows:
        if part != SHARED:
            steps.append(_show)
    elif kind.flow is not None:
        step = _flow_fold(kind.flow, kind.seen_only, part)
        if step is not None:
            steps.append(step)
    return _chain(steps)


def folds(kinds: Mapping[str, EventKind], private: Iterable[str], part: str = ALL
          ) -> dict[str, tuple[Fold, bool]]:
    """Per event kind that changes the fields of ``part``, its fold and whether its card is
    private (hidden from every seat but the event's player): an engine's table, made once
    per class."""
    hidden = frozenset(private)
    table = {}
    for name, kind in kinds.items():
        step = folder(kind, part)
        if step is not None and not (part == OWN and _to_own_hand(kind) and name in hidden):
            table[name] = (step, name in hidden)
    return table


def _to_own_hand(kind: EventKind) -> bool:
    """A plain move from the stock or the table into the event player's own hand: its card,
    if private, is seen by that seat alone, whose own hand is no part of its ``known``, so
    it changes no seat's :data:`OWN` fields (a private draw)."""
    return (kind.flow is not None and kind.flow[1] == "hand" and kind.flow[0] in ("stock", "table")
            and not (kind.new_hand or kind.passes_hands or kind.shows))


def shared_folds(kinds: Mapping[str, EventKind], private: Iterable[str]
                 ) -> dict[str, Fold] | None:
    """Per event kind, its fold of the :data:`SHARED` fields, where those fields are the
    same in every seat's memory, so an engine folds each event into them once rather
    than once per seat; else ``None``.

    They are the same unless a seat's redacted history changes them: a private card put
    face up (``played`` counts the card, which the other seats do not see), or a
    ``seen_only`` move to the table or from the stock (the seats that do not see its
    card skip it, and with it its ``drawn`` count). The shared fold reads every card.
    """
    hidden = frozenset(private)
    for name, kind in kinds.items():
        if kind.flow is None or kind.new_hand or kind.passes_hands or kind.shows:
            continue
        src, dst = kind.flow
        if (name in hidden and dst == "table") or (
                kind.seen_only and (dst == "table" or src == "stock")):
            return None
    return {name: step for name, step in
            ((name, folder(kind, SHARED)) for name, kind in kinds.items()) if step is not None}


def _chain(steps: Sequence[Fold]) -> Fold | None:
    """One fold running ``steps`` in order (``None`` for none)."""
    if len(steps) <= 1:
        return steps[0] if steps else None
    first, second = steps

    def both(memory: Memory, player: int, card: int, arg: int) -> None:
        first(memory, player, card, arg)
        second(memory, player, card, arg)
    return both


def _forget_event(memory: Memory, player: int, card: int, arg: int) -> None:
    _forget(memory)


def _forget_shared(memory: Memory, player: int, card: int, arg: int) -> None:
    known = memory.known
    _forget(memory)
    memory.known = known


def _forget_own(memory: Memory, player: int, card: int, arg: int) -> None:
    played, named, drawn = memory.played, memory.named, memory.drawn
    _forget(memory)
    memory.played, memory.named, memory.drawn = played, named, drawn


def _name_suit(memory: Memory, player: int, card: int, arg: int) -> None:
    """``player`` named suit ``arg`` (a nobody or no suit counts nothing)."""
    if player >= 0 and arg >= 0:
        named = list(memory.named[player])
        named[arg] += 1
        memory.named = _put(memory.named, player, tuple(named))


def _pass_event(memory: Memory, player: int, card: int, arg: int) -> None:
    _pass_hands(memory, arg)


def _show(memory: Memory, player: int, card: int, arg: int) -> None:
    """The observer sees ``card`` in the hand of seat ``arg`` (its own hand: known anyway)."""
    if card != NO_CARD and 0 <= arg != memory.seat and not memory.known[arg][card]:
        memory.known = _put(memory.known, arg, _add(memory.known[arg], card, 1))


def _flow_fold(flow: tuple[str, str], seen_only: bool, part: str = ALL) -> Fold | None:
    """The fold of a card moving ``flow`` = ``(from, to)`` (see :mod:`eights.events`) into
    the fields of ``part``; with ``seen_only``, only where the observer sees the card.
    ``None`` where the move changes none of them."""
    src, dst = flow
    give = {"hand": 1, "hand:arg": 2}.get(src, 0)  # the giver: nobody, the player, the arg
    take = {"hand": 1, "hand:arg": 2}.get(dst, 0)
    to_table, from_stock = dst == "table", src == "stock"
    shared, own = part != OWN, part != SHARED
    if not ((own and (give or take)) or (shared and ((give and to_table)
                                                     or (take and from_stock)))):
        return None

    def fold(memory: Memory, player: int, card: int, arg: int) -> None:
        if seen_only and card == NO_CARD:
            return
        giver = player if give == 1 else arg if give == 2 else -1
        if giver >= 0:
            if own:
                _leaves(memory, giver, card)
            if shared and to_table:
                # a card reshuffled and played again counts again: a long game reaches any
                # count, which stays at the most a byte holds
                if card != NO_CARD and memory.played[giver][card] < COUNT_MAX:
                    memory.played = _put(memory.played, giver,
                                         _add(memory.played[giver], card, 1))
                if memory.drawn[giver]:
                    memory.drawn = _put(memory.drawn, giver, 0)
        taker = player if take == 1 else arg if take == 2 else -1
        if taker >= 0:
            if (own and card != NO_CARD and taker != memory.seat
                    and memory.known[taker][card] < COUNT_MAX):
                memory.known = _put(memory.known, taker, _add(memory.known[taker], card, 1))
            if shared and from_stock:
                memory.drawn = _put(memory.drawn, taker, memory.drawn[taker] + 1)
    return fold


def fold(events: Iterable[Sequence], kinds: Mapping[str, EventKind], seat: int,
         num_players: int, num_cards: int, num_suits: int) -> Memory:
    """A new memory of ``seat`` with every event of ``events`` (its history) folded in."""
    memory = new_memory(seat, num_players, num_cards, num_suits)
    steps: dict[str, Fold | None] = {}  # each kind's fold, looked up once per history
    for event in events:
        name = event[0]
        if name not in steps:
            steps[name] = folder(kinds[name])
        step = steps[name]
        if step is not None:
            step(memory, event[1], event[2], event[3])
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
