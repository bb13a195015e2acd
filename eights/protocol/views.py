"""A seat's :class:`~eights.engines.base.PlayerView` as protocol JSON, and back.

This is the only road a view takes across the protocol, so what a bot may
know is decided here once: every value comes from the view (which the engine
built for that seat alone) and is written in the engine's text notation
(cards ``10H``, suits ``H``, ranks ``Q``). Nothing is read from the engine
itself, so a hidden card cannot reach a bot unless it is already in the view.

Each view class declares the kind of each of its fields (``field_kinds``,
next to the fields themselves). A view with a field missing there is refused
rather than sent (or dropped) silently: a new variant's author must say how
each field is written.

Our frontends write every field (:func:`view_to_json`), but a frontend in
another language should not have to keep our bookkeeping: only what a table
shows is required, and :func:`view_from_json` fills in the rest from the
defaults each engine declares beside its view fields
(:mod:`eights.engines.defaults`), so our agents always get a complete view.
Given every field, it is the exact inverse of :func:`view_to_json`.
"""

from __future__ import annotations

import dataclasses
import functools
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..cards import NO_CARD, RANK_TEXT, CardError
from ..config import GameConfig
from ..engines import engine_class
from ..engines.base import Event, PlayerView, SeatHistory
from ..engines.cardset import STANDARD, CardSet
from ..engines.defaults import Known, RequiredWhile, Rule, view_rules
from ..engines.events import arg_to_json
from ..engines.table import Frame
from . import validation
from .errors import ProtocolError

#: view fields that travel elsewhere: variant and config in the hello, the legal
#: actions in the decide message, the events as ``history``
CARRIED_ELSEWHERE = frozenset({"variant", "config", "legal_actions", "seen_events"})


@functools.cache
def _fields_of(cls: type[PlayerView]) -> tuple[tuple[str, str], ...]:
    """(name, kind) of every field of ``cls`` the protocol writes, from ``cls.field_kinds``."""
    fields = dict(cls.field_kinds)
    unknown = sorted({k for k in fields.values() if k not in ENCODERS})
    if unknown:
        raise TypeError(f"view class {cls.__name__}: unknown field kinds {', '.join(unknown)}; "
                        f"the kinds are {', '.join(ENCODERS)}")
    names = {f.name for f in dataclasses.fields(cls)}
    unwritten = sorted(names - set(fields) - CARRIED_ELSEWHERE)
    if unwritten:
        raise TypeError(f"view class {cls.__name__} has fields the protocol does not know how "
                        f"to write: {', '.join(unwritten)}; declare their kinds in the "
                        f"class's field_kinds")
    missing = sorted(set(fields) - names)
    if missing:
        raise TypeError(f"view class {cls.__name__} lacks fields named in its field_kinds: "
                        f"{', '.join(missing)}")
    return tuple(fields.items())


@functools.cache
def view_class(variant: str) -> type[PlayerView]:
    """The view class a variant's engine builds: the one made from its declared fields
    (``engine.View``), else read from its ``view`` annotation."""
    engine = engine_class(variant)
    cls = getattr(engine, "View", PlayerView)
    if cls is PlayerView:
        try:
            cls = typing.get_type_hints(engine.view).get("return")
        except NameError as err:
            raise TypeError(f"{variant}: its engine's view() annotation cannot be resolved "
                            f"({err}); the protocol reads the view class from it") from None
    if not (isinstance(cls, type) and issubclass(cls, PlayerView)):
        raise TypeError(f"{variant}: its engine's view() does not declare a PlayerView class")
    _fields_of(cls)  # registered?
    return cls


def rules_for(variant: str) -> dict[str, Rule]:
    """The optional fields of ``variant``'s view and how each is filled in, as its engine
    declares them (a field not listed must always be sent)."""
    return view_rules(engine_class(variant))


def required_fields(variant: str, fields: Sequence[str]) -> list[str]:
    """The fields (of ``fields``, the view's) that every view of ``variant`` must carry."""
    rules = rules_for(variant)
    return [name for name in fields if name not in rules]


def view_fields(variant: str) -> list[str]:
    """The JSON field names of a variant's view, ``history`` included, in message order."""
    return [name for name, _ in _fields_of(view_class(variant))] + ["history"]


# --------------------------------------------------------------------- writing
# Each writer takes the value and the view's card set (its cards' and colours' notation).
def _suit_text(s: int, cards: CardSet) -> str | None:
    return None if s < 0 else cards.colour_codes[s]


def _rank_text(r: int) -> str | None:
    return None if r < 1 else RANK_TEXT[r - 1]


def _card_text(c: int, cards: CardSet) -> str | None:
    return None if c == NO_CARD else cards.texts[c]


ENCODERS: dict[str, Callable[[Any, CardSet], Any] | None] = {
    "int": lambda x, cards: int(x),
    "count": lambda x, cards: int(x),
    "bool": lambda x, cards: bool(x),
    "phase": lambda x, cards: str(x),
    "seat": lambda p, cards: None if p < 0 else int(p),
    "card": _card_text,
    "cards": lambda cs, cards: [cards.texts[c] for c in cs],
    # cards the seat has seen in places hidden from others (the stock's top, a hand looked at)
    "seen_cards": lambda cs, cards: [cards.texts[c] for c in cs],
    "seat_cards": lambda css, cards: [[cards.texts[c] for c in cs] for cs in css],
    "counts": lambda xs, cards: [int(x) for x in xs],
    "ints": lambda xs, cards: [int(x) for x in xs],
    "suit": _suit_text,
    "seat_suits": lambda xs, cards: [_suit_text(x, cards) for x in xs],
    "seat_ranks": lambda xs, cards: [_rank_text(x) for x in xs],
    "card_counts": lambda counts, cards: {cards.texts[c]: int(k)
                                          for c, k in enumerate(counts) if k},
    # the cards whose place the seat does not know (written as card_counts; not on the table)
    "unseen_counts": lambda counts, cards: {cards.texts[c]: int(k)
                                            for c, k in enumerate(counts) if k},
    # per seat: card counts (cards it played, cards known in its hand)
    "seat_card_counts": lambda rows, cards: [{cards.texts[c]: int(k) for c, k in enumerate(row)
                                              if k} for row in rows],
    # per seat: how often it named each suit
    "seat_suit_counts": lambda rows, cards: [{cards.colour_codes[s]: int(k)
                                              for s, k in enumerate(row) if k} for row in rows],
    # written with the view class's frame_args (see _frames_to_json)
    "frames": None,
}
#: the kinds a per-pile field's values may have: kind ``pile_<inner>`` is a list with one
#: value per discard pile (pile 1 first), each written as kind ``<inner>``
PILE_INNER_KINDS = ("card", "suit", "count", "seat", "bool", "card_counts")
for _inner in PILE_INNER_KINDS:
    ENCODERS[f"pile_{_inner}"] = functools.partial(
        lambda write, values, cards: [write(x, cards) for x in values], ENCODERS[_inner])
KINDS = tuple(ENCODERS)
#: how one frame argument is written, by its declared kind (an engine's ``frame_args``)
FRAME_ARG_WRITERS: dict[str, Callable[[Any, CardSet], Any]] = {
    "card": _card_text, "seat": ENCODERS["seat"], "bool": ENCODERS["bool"],
    "count": ENCODERS["int"], "int": ENCODERS["int"],
}


def _frames_to_json(frames: Any, cls: type[PlayerView]) -> list[dict[str, Any]]:
    """The agenda: ``{"kind", "seat", "args"}`` per frame, bottom first, each argument
    written by the kind the engine declares for it."""
    arg_kinds, cards = cls.frame_args, cls.cardset
    return [{"kind": kind, "seat": None if seat < 0 else seat,
             "args": [FRAME_ARG_WRITERS[k](a, cards) for k, a in zip(arg_kinds[kind], args,
                                                                       strict=True)]}
            for kind, seat, args in frames]


def event_to_json(event: Event, cls: type[PlayerView]) -> dict[str, Any]:
    """``{"kind", "player", "card", "arg"}``, each written by the kind's declaration in the
    view class's engine (:attr:`~eights.engines.base.PlayerView.event_kinds`): a slot the
    kind has not, no player, no card or a hidden card is null; cards in ``cls``' notation,
    a suit or colour as its code, a seat or pile as its number."""
    kind, player, card, arg = event
    declared = cls.event_kinds[kind]
    cards = cls.cardset
    return {
        "kind": kind,
        "player": None if player < 0 or not declared.player else player,
        "card": None if card == NO_CARD or not declared.card else cards.texts[card],
        "arg": arg_to_json(declared.arg, arg, cards),
    }


def field_to_json(kind: str, value: Any, cls: type[PlayerView]) -> Any:
    """One view field's JSON value, written by its kind (``cls`` is the view's class)."""
    if kind == "frames":
        return _frames_to_json(value, cls)
    return ENCODERS[kind](value, cls.cardset)


def view_to_json(view: PlayerView) -> dict[str, Any]:
    """The JSON object of a view: its registered fields, then ``history``.

    Variant, config and legal actions are not in it: the hello carries the
    first two and the decide message the third.
    """
    cls = type(view)
    out = {name: field_to_json(kind, getattr(view, name), cls) for name, kind in _fields_of(cls)}
    out["history"] = [event_to_json(e, cls) for e in sent_history(view)]
    return out


def sent_history(view: PlayerView) -> list[Event]:
    """The history a view's JSON carries: in a match, from the current hand's deal on.

    What a seat remembers starts again with each hand (a ``new_hand`` event: the memory
    forgets, the hidden cards are dealt anew) and the match so far has fields of its own
    (``scores``, ``hand_number``, ``first_player``), so a reader needs no more; and a
    message then costs a hand's history, not a whole match's (an 8-player livery_eights
    match's largest decide went from 26,009 to 7,405 bytes: docs/protocol.md). A single
    hand sends all of it.
    """
    events = view.history()
    if not view.config.plays_match:
        return events
    kinds = type(view).event_kinds
    for i in range(len(events) - 1, -1, -1):
        if kinds[events[i].kind].new_hand:
            return events[i:]
    return events


# --------------------------------------------------------------------- reading
def _bad(path: str, value: Any, wanted: str) -> ProtocolError:
    shown = repr(value)
    if len(shown) > 60:
        shown = shown[:57] + "..."
    return ProtocolError("bad_value", f"{path}: {shown} is not allowed; it must be {wanted}")


def _int(path: str, value: Any, low: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad(path, value, "an integer")
    if low is not None and value < low:
        raise _bad(path, value, f"an integer >= {low}")
    return value


def _list(path: str, value: Any, length: int | None = None) -> list:
    if not isinstance(value, list):
        raise _bad(path, value, "an array")
    return _per_seat(path, value, length) if length is not None else value


def _per_seat(path: str, value: list, n: int | None) -> list:
    """``value``, an array the schema checked, refused unless it has one item per seat."""
    if n is not None and len(value) != n:
        raise _bad(path, value, f"an array of {n} items (one per seat)")
    return value


def _seat(path: str, value: Any, n: int) -> int:
    if value is None:
        return -1
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n:
        raise _bad(path, value, f"a seat from 0 to {n - 1}, or null")
    return value


def _card(path: str, value: Any, cards: CardSet, nullable: bool = False) -> int:
    if value is None and nullable:
        return NO_CARD
    try:
        if not isinstance(value, str):
            raise CardError("not text")
        return cards.parse(value)
    except CardError:
        examples = ("10H, QS or RJ" if cards is STANDARD
                    else f"{cards.texts[9]}, {cards.texts[24]} or {cards.texts[-1]}")
        raise _bad(path, value, f"a card like {examples}" + (", or null" if nullable else "")
                   ) from None


def _suit(path: str, value: Any, cards: CardSet) -> int:
    if value is None:
        return -1
    codes = cards.colour_codes
    if not isinstance(value, str) or value not in codes:
        raise _bad(path, value, f"a suit {', '.join(codes[:-1])} or {codes[-1]}, or null")
    return codes.index(value)


def _card_counts(path: str, value: Any, cards: CardSet) -> bytes:
    """Copies per card id, as the engine's views hold them (bytes); the schema checked the
    form (card texts to counts of 1 to 255), this that each card is one of the variant's."""
    counts, ids = [0] * len(cards), cards.id_of_text
    for text, k in value.items():
        c = ids.get(text)
        if c is None:  # not a card's canonical text: say which card, or what a card is
            c = _card(f"{path} key", text, cards)
            raise _bad(f"{path} key", text, f"a card in canonical notation ({cards.texts[c]})")
        counts[c] = k
    return bytes(counts)


def _suit_counts(path: str, value: Any, cards: CardSet) -> tuple[int, ...]:
    """Counts per suit (or colour) id from ``{"H": 2}``; the schema checked the form."""
    counts = [0] * len(cards.colour_codes)
    for code, k in value.items():
        counts[_suit(f"{path} key", code, cards)] = k
    return tuple(counts)


def _frames(path: str, value: Any, n: int, cls: type[PlayerView]) -> tuple:
    """An agenda back as :class:`~eights.engines.table.Frame` tuples, every kind and
    argument checked against the engine's declaration."""
    arg_kinds = cls.frame_args
    out = []
    for i, item in enumerate(value):
        where = f"{path}[{i}]"
        kind = item["kind"]
        if kind not in arg_kinds:
            raise _bad(f"{where}.kind", kind, "one of " + ", ".join(map(repr, arg_kinds)))
        kinds = arg_kinds[kind]
        args = item["args"]
        if len(args) != len(kinds):
            raise _bad(f"{where}.args", args, f"{len(kinds)} arguments ({', '.join(kinds)})")
        read = []
        for j, (k, a) in enumerate(zip(kinds, args, strict=True)):
            at = f"{where}.args[{j}]"
            if k == "bool":
                if not isinstance(a, bool):
                    raise _bad(at, a, "true or false")
                read.append(a)
            elif k == "card":
                read.append(_card(at, a, cls.cardset, nullable=True))
            elif k == "seat":
                read.append(_seat(at, a, n))
            else:
                read.append(_int(at, a, 0 if k == "count" else None))
        out.append(Frame(kind, _seat(f"{where}.seat", item["seat"], n), tuple(read)))
    return tuple(out)


def _decode(kind: str, path: str, value: Any, n: int, cls: type[PlayerView]) -> Any:
    """One field's value back in the view's own form (ids, -1 for none).

    The value's shape was checked against the variant's view schema
    (:func:`read_view`); what is checked here is what the schema cannot know:
    that a card or suit is one of this variant's, a seat at this table, one
    value per seat.
    """
    cards = cls.cardset
    if kind in ("int", "count", "bool", "phase"):
        return value
    if kind == "seat":
        return _seat(path, value, n)
    if kind == "card":
        return _card(path, value, cards, nullable=True)
    if kind in ("cards", "seen_cards"):
        return tuple(_card(f"{path}[{i}]", c, cards) for i, c in enumerate(value))
    if kind == "seat_cards":
        return tuple(tuple(_card(f"{path}[{i}][{j}]", c, cards) for j, c in enumerate(hand))
                     for i, hand in enumerate(_per_seat(path, value, n)))
    if kind in ("counts", "ints"):
        return tuple(_per_seat(path, value, n))
    if kind == "suit":
        return _suit(path, value, cards)
    if kind == "seat_suits":
        return tuple(_suit(f"{path}[{i}]", x, cards)
                     for i, x in enumerate(_per_seat(path, value, n)))
    if kind == "seat_ranks":
        return tuple(-1 if x is None else RANK_TEXT.index(x) + 1
                     for x in _per_seat(path, value, n))
    if kind in ("card_counts", "unseen_counts"):
        return _card_counts(path, value, cards)
    if kind == "seat_card_counts":
        return tuple(_card_counts(f"{path}[{i}]", row, cards)
                     for i, row in enumerate(_per_seat(path, value, n)))
    if kind == "seat_suit_counts":
        return tuple(_suit_counts(f"{path}[{i}]", row, cards)
                     for i, row in enumerate(_per_seat(path, value, n)))
    if kind == "frames":
        return _frames(path, value, n, cls)
    if kind.startswith("pile_"):
        inner = kind.removeprefix("pile_")
        return tuple(_decode(inner, f"{path}[{i}]", x, n, cls) for i, x in enumerate(value))
    raise AssertionError(f"unknown field kind {kind!r}")


def event_from_json(path: str, data: Any, n: int, cls: type[PlayerView]) -> Event:
    """An event back from its JSON, which the variant's event schema checked (``$defs/
    <variant>_event``, in :func:`read_view`): its kind declared, a slot the kind has not null,
    its ``arg`` of the declared kind. What is checked here is what the schema cannot know: a
    seat at this table, a card of this variant's deck."""
    name = data["kind"]
    declared = cls.event_kinds[name]
    player = _seat(f"{path}.player", data["player"], n)
    card = _card(f"{path}.card", data["card"], cls.cardset, nullable=True)
    return Event(name, player, card, _event_arg(f"{path}.arg", declared.arg, data["arg"], n,
                                                 cls.cardset))


def _events_from_json(history: list, n: int, cls: type[PlayerView]) -> list[Event]:
    """A history's events back from their JSON, which the schema checked; an event met
    before (a long history repeats its draws and passes) is read once and shared, which
    keeps a long view's reading, and the objects it makes, about a third smaller."""
    read: dict[tuple, Event] = {}
    events = []
    for i, data in enumerate(history):
        key = (data["kind"], data["player"], data["card"], data["arg"])  # hashable: checked
        event = read.get(key)
        if event is None:
            event = read[key] = event_from_json(f"view.history[{i}]", data, n, cls)
        events.append(event)
    return events


def _event_arg(path: str, kind: str, value: Any, n: int, cards: CardSet) -> int:
    """An event's ``arg`` back in the engine's form by its declared kind (``-1`` for none)."""
    if not kind or value is None:
        return -1
    if kind == "suit":
        return _suit(path, value, cards)
    if kind == "seat":
        return _seat(path, value, n)
    return int(value)  # a bool as 0 or 1; a direction, pile, count or number as it is


@functools.lru_cache(maxsize=64)
def deck_counts(variant: str, config: GameConfig) -> tuple[int, ...]:
    """Copies of each card id in the deck ``variant`` plays with under ``config``."""
    engine = engine_class(variant)(config, seed=0)
    counts = [0] * len(engine.cardset)
    for c in engine.full_deck():
        counts[c] += 1
    return tuple(counts)


class _Values(dict):
    """A view's fields read so far, in the view's own form; a field not sent is filled in
    when first read (a default may read any other field, sent or filled in), or refused
    when its engine says it is required here."""

    def __init__(self, sent: Mapping[str, Any], cls: type[PlayerView], variant: str,
                 data: Mapping[str, Any], n: int) -> None:
        super().__init__(sent)
        self.cls, self.variant, self.data, self.n = cls, variant, data, n
        self.kinds = dict(_fields_of(cls))
        self.rules = rules_for(variant)
        self.known: Known | None = None
        self.filled: list[str] = []
        self._filling: set[str] = set()

    def __missing__(self, name: str) -> Any:
        rule = self.rules.get(name)
        if rule is None or name in self.data or name in self._filling or self.known is None:
            raise KeyError(name)
        self._filling.add(name)
        known = self.known
        if isinstance(rule, RequiredWhile):
            if rule.applies(known):
                detail = rule.condition.detail
                raise ProtocolError("missing_field", f"view: missing field {name}, required "
                                                     f"in {self.variant} {rule.text}"
                                    + (f"; {detail(known)}" if detail else ""))
            rule = rule.default
        value = _decode(self.kinds[name], f"view.{name} (its default)", rule.make(known),
                        self.n, self.cls)
        self[name] = value
        self.filled.append(name)
        self._filling.discard(name)
        return value


def _read_values(data: Mapping[str, Any], variant: str, config: GameConfig,
                 legal: tuple[int, ...], deck_size: int) -> tuple[_Values, list[Event]]:
    """The fields sent, decoded, with what a default may read (filled in on demand)."""
    cls = view_class(variant)
    n = config.num_players
    values = _Values({name: _decode(kind, f"view.{name}", data[name], n, cls)
                      for name, kind in _fields_of(cls) if name in data}, cls, variant, data, n)
    events = _events_from_json(_list("view.history", data.get("history", [])), n, cls)
    actions = engine_class(variant).actions
    values.known = Known(config, tuple(actions.texts_of(legal)),
                         frozenset(actions.decode(a)[0].name for a in legal), values, events,
                         deck_size)
    return values, events


def _fill_in(values: _Values) -> list[str]:
    """Refuse a missing field required here; fill the optional ones in; the names filled."""
    for name in values.rules:
        if name != "history" and name not in values.data:
            values[name]
    return values.filled


def _discards(values: Mapping[str, Any], kinds: Mapping[str, str],
              size: int) -> tuple[str, list[int]]:
    """The cards face up on the table and the copies of each: every field of card counts
    (``discard_counts``, a several-pile variant's ``pile_counts``) and every list of cards
    but the hand (a picked-up pile). Returns the name of the counts field with them."""
    total = [0] * size
    name = "discard_counts"
    for field, kind in kinds.items():
        if kind == "card_counts" or kind == "pile_card_counts":
            name = field
            for counts in (values[field],) if kind == "card_counts" else values[field]:
                for c, k in enumerate(counts):
                    total[c] += k
        elif kind == "cards" and field != "hand":
            for c in values[field]:
                total[c] += 1
        elif kind == "seat_cards" and field == "in_play":  # cards in play, face up
            for cards in values[field]:
                for c in cards:
                    total[c] += 1
    return name, total


def _check_cards(data: Mapping[str, Any], values: Mapping[str, Any],
                 deck: tuple[int, ...], kinds: Mapping[str, str], cards: CardSet) -> None:
    """The hand, the discard piles and the stock must fit the deck the hello's config makes."""
    card_text = cards.texts.__getitem__
    name, discards = _discards(values, kinds, len(deck))
    if name == "pile_counts":
        tops = zip(values["pile_tops"], values["pile_counts"], strict=True)
        for k, (top, counts) in enumerate(tops):
            if top >= 0 and counts[top] < 1:
                raise _bad(f"view.pile_counts[{k}]", data.get("pile_counts"),
                           f"every card of pile {k + 1}, its top one ({card_text(top)}) "
                           f"included")
    else:
        top = values["top"]
        if top >= 0 and discards[top] < 1:
            raise _bad("view.discard_counts", data.get("discard_counts"),
                       f"every card of the discard pile, the top one ({card_text(top)}) "
                       f"included")
    held = list(discards)
    for c in values["hand"]:
        held[c] += 1
    for field, kind in kinds.items():  # (seen elsewhere: the stock's top, a hand looked at)
        if kind == "seen_cards":
            for c in values[field]:
                held[c] += 1
    for c, k in enumerate(held):
        if k > deck[c]:
            raise _bad("view.hand", data["hand"],
                       f"no more copies of a card than the deck has: with view.{name} "
                       f"it makes {k} {card_text(c)}, the deck {deck[c]} (is the hello's "
                       f"config right?)")
    stock = sum(deck) - sum(values["hand_sizes"]) - sum(discards)
    if stock < 0:
        raise _bad("view.hand_sizes", data["hand_sizes"],
                   f"hands that, with view.{name}, hold at most the deck's "
                   f"{sum(deck)} cards (is the hello's config right?)")
    if "stock_size" in data and name not in data:
        raise ProtocolError("missing_field", f"view: stock_size is sent without {name}; the "
                                             f"stock is what the hands and the discards leave "
                                             f"of the deck, so send both or neither")
    if values["stock_size"] != stock:
        raise _bad("view.stock_size", values["stock_size"],
                   f"the deck's {sum(deck)} cards less the hands' {sum(values['hand_sizes'])} "
                   f"and the discards' {sum(discards)}: {stock}")


def _check_piles(data: Mapping[str, Any], values: Mapping[str, Any],
                 fields: Sequence[tuple[str, str]], config: GameConfig) -> None:
    """Every per-pile field holds one value per pile of the hello's config."""
    piles = getattr(config, "piles", None)
    for name, kind in fields:
        if kind.startswith("pile_") and piles is not None and len(values[name]) != piles:
            raise _bad(f"view.{name}", data.get(name, values[name]),
                       f"an array of {piles} items (one per pile)")


def read_view(data: Any, variant: str, config: GameConfig,
              legal: tuple[int, ...] = ()) -> tuple[PlayerView, tuple[str, ...]]:
    """The view ``data`` describes, and the names of the fields filled in by default.

    ``legal`` are the decision's legal actions (none for a game_over view).
    Strict: unknown or missing required fields and values of the wrong kind
    raise a :class:`ProtocolError` naming the field (``view.hand[2]``) and
    what is allowed. It checks form, counts per seat and that the cards fit
    the deck, not that the position could arise in a game; an agent that
    meets an impossible position fails on its own.
    """
    cls = view_class(variant)
    validation.check(data, f"{variant}_view", "view")
    fields = _fields_of(cls)
    names = [name for name, _ in fields] + ["history"]
    n = config.num_players
    deck = (deck_counts(variant, config)
            if "discard_counts" in names or "pile_counts" in names else ())
    values, events = _read_values(data, variant, config, legal, sum(deck))
    filled = _fill_in(values)
    if "history" not in data:
        filled.append("history")
    if values["seat"] < 0:
        raise _bad("view.seat", None, f"a seat from 0 to {n - 1}")
    if len(values["hand"]) != values["hand_sizes"][values["seat"]]:
        raise _bad("view.hand", data["hand"],
                   f"as many cards as hand_sizes[{values['seat']}] "
                   f"({values['hand_sizes'][values['seat']]})")
    if "turn" in data and values["hand_turns"] > values["turn"]:
        raise _bad("view.hand_turns", data["hand_turns"],
                   f"at most turn ({values['turn']}): the hand's actions are the game's too")
    _check_piles(data, values, fields, config)
    if deck:
        _check_cards(data, values, deck, dict(fields), cls.cardset)
    values["hand"] = tuple(sorted(values["hand"]))  # in display order, as the engines give it
    history = SeatHistory.redacted(events, values["seat"])
    view = cls(variant=variant, config=config, legal_actions=tuple(legal), seen_events=history,
               **dict(values))
    return view, tuple(filled)


def required_now(data: Any, variant: str, config: GameConfig,
                 legal: tuple[int, ...] = ()) -> list[str]:
    """The fields of the whole view ``data`` a frontend must send in this position: those
    every view needs and those required while something holds (a challenge is legal, a
    decision is not a main phase's...), read from ``data`` itself. Our tests send exactly
    these to check that the defaults of the rest are enough. The ``history`` is optional,
    so a field required unless it is sent (``direction``) is required here."""
    fields = _fields_of(view_class(variant))
    data = {name: value for name, value in data.items() if name != "history"}
    values, _ = _read_values(data, variant, config, legal, sum(deck_counts(variant, config)))
    rules = rules_for(variant)
    return [name for name, _ in fields
            if name not in rules or (isinstance(rules[name], RequiredWhile)
                                     and rules[name].applies(values.known))]


def view_from_json(data: Any, variant: str, config: GameConfig,
                   legal: tuple[int, ...] = ()) -> PlayerView:
    """The view ``data`` describes, its optional fields filled in (:func:`read_view`).

    Given every field, it is the exact inverse of :func:`view_to_json`, so a
    bot written with this library (``eights bot``, ``eights serve``) hands
    its agent the very view the frontend had.
    """
    return read_view(data, variant, config, legal)[0]
