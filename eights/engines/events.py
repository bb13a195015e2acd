"""Event kinds, declared once: what each kind of logged event means and who may see its card.

An event is the 4-tuple ``(kind, player, card, arg)`` an engine appends to
its log (:class:`~eights.engines.base.Event`). Each variant declares the
kinds it logs (:attr:`Engine.event_kinds <eights.engines.base.Engine.event_kinds>`):
a shared set (:data:`CORE_EVENTS`; the pile games add theirs in
:mod:`eights.engines.pile`) and the variant's own, each an
:class:`EventKind`: its name, whether its ``player`` and ``card`` are used,
the kind of its ``arg`` (one of :data:`ARG_KINDS`), who may see its card,
its meaning in one line and the sentence that narrates it.

Everything else is derived from that declaration, so a kind cannot mean one
thing in the engine and another on the wire: the views' redaction (a card
of a ``player``-visible kind is hidden from every other seat), the
protocol's event JSON both ways and its schema (:mod:`eights.protocol`), the
narration (:meth:`Engine.describe_event`), the playthrough text
(:func:`event_text`) and the docs table of every variant's events
(:func:`events_table`). Engines log through
:meth:`Engine.log_event <eights.engines.base.Engine.log_event>`, which refuses
an undeclared kind, and in the test suite
(:func:`~eights.engines.base.check_events`) a value in a slot the kind does
not have too.
"""

from __future__ import annotations

import dataclasses
import string
from collections.abc import Iterable, Mapping

from ..cards import NO_CARD
from .cardset import CardSet

#: the kinds an event's ``arg`` may have (the view fields' kind names where they mean the
#: same), and what a value of each is
ARG_KINDS: dict[str, str] = {
    "seat": "a seat (null: nobody)",
    "suit": "a suit or colour, as its code (`H`; null: none)",
    "pile": "a pile, as its index in the `pile_*` fields (0 for pile 1; null: none)",
    "count": "a number of cards, turns, hands... (null: none)",
    "int": "an integer (points, which may be negative)",
    "bool": "true or false",
    "direction": "`1` while play goes up the seats, `-1` the other way",
}
#: arg kinds whose engine value ``-1`` means "none" (written ``null``); for the others
#: (``int``, ``direction``) -1 is a value like any other
NULLABLE_ARGS = frozenset({"seat", "suit", "pile", "count"})
#: who may see an event's card: every seat, or only the event's own player
VISIBILITIES = ("all", "player")
#: the places a card's flow names (:attr:`EventKind.flow`): the hand of the event's
#: ``player``, the hand of the seat in its ``arg``, the face-down stock, and a face-up
#: place every seat sees (a discard pile, the cards in play in front of a seat)
FLOW_PLACES: dict[str, str] = {
    "hand": "the hand of the event's player",
    "hand:arg": "the hand of the seat in the event's arg",
    "stock": "the face-down stock",
    "table": "a face-up place every seat sees (a discard pile, an asset in play)",
}
#: the fields a sentence (:attr:`EventKind.says`) may use, and what each needs declared
SENTENCE_FIELDS: dict[str, str] = {
    "player": "player", "card": "card", "arg": "count/int arg", "number": "pile/count arg",
    "suit": "suit arg", "target": "seat arg", "direction": "direction arg",
}
_FIELD_ARGS: dict[str, frozenset[str]] = {
    "arg": frozenset({"count", "int"}), "number": frozenset({"pile", "count"}),
    "suit": frozenset({"suit"}), "target": frozenset({"seat"}),
    "direction": frozenset({"direction"}),
}


class EventError(ValueError):
    """An event of a kind the engine did not declare, or with a value its kind has not."""


@dataclasses.dataclass(frozen=True)
class EventKind:
    """One kind of event, as a variant declares it.

    ``player`` and ``card`` say whether the event has them; ``arg`` is the
    kind of its ``arg`` (:data:`ARG_KINDS`) or ``""`` for none. A slot the
    kind has may still hold "none" (a tied hand has no winner). ``says`` is
    the sentence that narrates it (its fields: :data:`SENTENCE_FIELDS`, each
    allowed only where the declaration has what it reads), ``says_none`` the
    one for an event whose nullable ``arg`` is none (a Queen's skip, where a
    King's says how many cards were drawn).
    """

    name: str
    doc: str
    says: str
    player: bool = True
    card: bool = False
    arg: str = ""
    visibility: str = "all"
    says_none: str = ""
    #: where the event's card goes, ``(from, to)`` in :data:`FLOW_PLACES` (one event per
    #: card), or ``None``: no card moves. What a seat remembers of the table
    #: (:mod:`eights.engines.memory`) is folded from these over its history
    flow: tuple[str, str] | None = None
    #: the flow is folded only by a seat that sees the card: the same move reaches the
    #: others through another event (a Seven's ``take``, seen by the taker, is folded by
    #: every seat; its ``give``, seen by the giver, only by the giver), so no seat folds one
    #: move twice
    seen_only: bool = False
    #: a new hand is dealt (or redealt): what a seat remembered of the last one is forgotten
    new_hand: bool = False
    #: every hand passes to the next seat in the event's ``arg`` direction: what a seat knew
    #: in each hand it now knows in the next seat's
    passes_hands: bool = False
    #: the event's player sees its card in the hand of the seat in ``arg`` (a look at a
    #: hand; a card it saw on the stock drawn): no card moves, the card is known there
    shows: bool = False

    def __post_init__(self) -> None:
        where = f"event kind {self.name!r}"
        if not self.name or not self.name.replace("_", "").isalpha() or not self.name.islower():
            raise ValueError(f"{where}: a name is lower-case letters and underscores")
        if self.arg and self.arg not in ARG_KINDS:
            raise ValueError(f"{where}: arg kind {self.arg!r} is not one of "
                             f"{', '.join(ARG_KINDS)}")
        if self.visibility not in VISIBILITIES:
            raise ValueError(f"{where}: visibility {self.visibility!r} is not one of "
                             f"{', '.join(VISIBILITIES)}")
        if self.visibility == "player" and not (self.player and self.card):
            raise ValueError(f"{where}: a card only its player may see needs a player and a "
                             f"card")
        if not self.doc.strip() or not self.says.strip():
            raise ValueError(f"{where}: every kind has a meaning (doc) and a sentence (says)")
        self._check_flow(where)
        if self.says_none and self.arg not in NULLABLE_ARGS:
            raise ValueError(f"{where}: says_none is for a kind whose arg may be none")
        for text in (self.says, self.says_none):
            for field in sentence_fields(text):
                if not self.allows(field):
                    raise ValueError(f"{where}: its sentence {text!r} uses {{{field}}}, which "
                                     f"needs a {SENTENCE_FIELDS.get(field, 'known field')}; "
                                     f"the fields are {', '.join(SENTENCE_FIELDS)}")

    def _check_flow(self, where: str) -> None:
        """A flow moves a card between two known places; ``hand:arg`` needs a seat arg. The
        other memory effects need what they read: a direction to pass hands, a card and a
        seat to show a card in a hand."""
        if self.passes_hands and self.arg != "direction":
            raise ValueError(f"{where}: passes_hands needs a direction arg")
        if self.shows and not (self.card and self.player and self.arg == "seat"):
            raise ValueError(f"{where}: shows needs a player, a card and a seat arg")
        if self.flow is None:
            if self.seen_only:
                raise ValueError(f"{where}: seen_only is for a kind with a flow")
            return
        if (len(self.flow) != 2 or any(p not in FLOW_PLACES for p in self.flow)
                or self.flow[0] == self.flow[1] == "table"):
            raise ValueError(f"{where}: flow {self.flow!r} is not (from, to) of two places of "
                             f"{', '.join(FLOW_PLACES)}")
        if not self.card:
            raise ValueError(f"{where}: a flow moves the event's card; the kind needs a card")
        if self.seen_only and self.visibility != "player":
            raise ValueError(f"{where}: seen_only is for a card only its player sees")
        if "hand" in self.flow and not self.player:
            raise ValueError(f"{where}: a flow from or to 'hand' needs the event's player")
        if "hand:arg" in self.flow and self.arg != "seat":
            raise ValueError(f"{where}: a flow from or to 'hand:arg' needs a seat arg")

    def allows(self, field: str) -> bool:
        """Whether a sentence of this kind may use ``{field}``."""
        if field in ("player", "card"):
            return getattr(self, field)
        return field in _FIELD_ARGS and self.arg in _FIELD_ARGS[field]

    @property
    def slots(self) -> tuple[bool, bool, bool]:
        """Whether the event has a player, a card and an arg (the log helper's check)."""
        return self.player, self.card, bool(self.arg)


def sentence_fields(text: str) -> list[str]:
    """The ``{fields}`` a sentence template uses."""
    return [field for _, field, _, _ in string.Formatter().parse(text) if field is not None]


def declare_events(*groups: Iterable[EventKind]) -> dict[str, EventKind]:
    """A variant's event kinds: the kinds of each group, a later group's kind replacing an
    earlier one of the same name (a variant's own ``play`` over the shared one). A name
    twice in one group is a mistake, and refused."""
    kinds: dict[str, EventKind] = {}
    for group in groups:
        seen: set[str] = set()
        for kind in group:
            if kind.name in seen:
                raise ValueError(f"event kind {kind.name!r} is declared twice in one group")
            seen.add(kind.name)
            kinds[kind.name] = kind
    return kinds


def pick(group: Iterable[EventKind], *names: str) -> tuple[EventKind, ...]:
    """The kinds of ``group`` named ``names``: a variant that logs only some of a shared set
    declares only those (a name not in the set is refused)."""
    by_name = {kind.name: kind for kind in group}
    missing = [name for name in names if name not in by_name]
    if missing:
        raise ValueError(f"no event kind {', '.join(map(repr, missing))} in the set; it has "
                         f"{', '.join(by_name)}")
    return tuple(by_name[name] for name in names)


#: the kinds every engine logs (:class:`~eights.engines.table.TableEngine`)
CORE_EVENTS = (
    EventKind("truncated", "the game stopped at the turn limit; arg: the turns played",
              "The game stops at the turn limit ({arg} turns).", player=False, arg="count"),
    EventKind("game_over", "the game is over; arg: how many seats won",
              "The game is over.", player=False, arg="count"),
)

#: the kinds of the games of one or more discard piles and a stock (the pile engines and
#: Jokers of Death, each replacing the few it logs otherwise)
PILE_GAME_EVENTS = (
    EventKind("deal", "a hand is dealt; player: who plays first; arg: the hand's number, 0 "
              "first", "Hand {number} is dealt; {player} plays first.", arg="count",
              new_hand=True),
    EventKind("starter", "the card turned up to start the discard pile",
              "The starter card is {card}.", player=False, card=True, flow=("stock", "table")),
    EventKind("draw", "a card drawn from the stock (seen by its drawer only)",
              "{player} draws {card}.", card=True, visibility="player",
              flow=("stock", "hand")),
    EventKind("reshuffle", "the discards are shuffled into a new stock; arg: its size",
              "The discards are shuffled into a new stock of {arg} cards.", player=False,
              arg="count"),
    EventKind("play", "a card played on the discard pile", "{player} plays {card}.",
              card=True, flow=("hand", "table")),
    EventKind("suit", "the suit a wild card's player names", "{player} names {suit}.",
              arg="suit"),
    EventKind("pass", "the player passes", "{player} passes."),
    EventKind("skip", "the player loses their turn", "{player} is skipped."),
    EventKind("reverse", "play changes direction; arg: the new direction",
              "Play changes direction: now {direction}.", arg="direction"),
    EventKind("hand_over", "the hand is over; player: its winner (none for a tie); arg: "
              "whether it ended blocked", "{player} wins the hand.", arg="bool"),
    EventKind("score", "a seat's points for the hand", "{player} scores {arg} points.",
              arg="int"),
)


# ------------------------------------------------------------------ writing and reading
def arg_to_json(kind: str, arg: int, cards: CardSet) -> int | str | None:
    """An event's ``arg`` as the protocol writes it, by its declared kind."""
    if not kind or (arg < 0 and kind in NULLABLE_ARGS):
        return None
    if kind == "suit":
        return cards.colour_codes[arg] if arg < len(cards.colour_codes) else None
    if kind == "bool":
        return bool(arg)
    return int(arg)


def arg_text(kind: str, arg: int, cards: CardSet) -> str:
    """An event's ``arg`` in the playthrough notation (``" H"``, ``" pile 2"``,
    ``" player 1"``, ``" (3)"``), empty where it has none."""
    if not kind or (arg < 0 and kind in NULLABLE_ARGS):
        return ""
    if kind == "suit":
        return f" {cards.colour_codes[arg]}"
    if kind == "pile":
        return f" pile {arg + 1}"
    if kind == "seat":
        return f" player {arg}"
    if kind == "direction":
        return f" ({arg:+d})"
    if kind == "bool":
        return f" ({'yes' if arg else 'no'})"
    return f" ({arg})"


def event_text(event: tuple, kinds: Mapping[str, EventKind], cards: CardSet) -> str:
    """One event in the playthrough notation, each slot written by its declared kind:
    ``player 1 draw ??``, ``player 0 play 8S pile 2``, ``player 0 suit H``,
    ``table reshuffle (40)``."""
    name, player, card, arg = event
    kind = kinds[name]
    who = f"player {player}" if player >= 0 else "table"
    shown = "" if not kind.card else (" ??" if card == NO_CARD else f" {cards.texts[card]}")
    return f"{who} {name}{shown}{arg_text(kind.arg, arg, cards)}"


def events_table(variants: Mapping[str, Mapping[str, EventKind]]) -> str:
    """Every variant's event kinds as one Markdown table: a kind declared alike by several
    variants is one row naming them all, so the shared kinds and each variant's own show."""
    rows: list[tuple[EventKind, list[str]]] = []
    for variant, kinds in variants.items():
        for kind in kinds.values():
            row = next((r for r in rows if r[0] == kind), None)
            if row is None:
                rows.append((kind, [variant]))
            else:
                row[1].append(variant)
    rows.sort(key=lambda r: (r[0].name, -len(r[1])))
    everyone = len(variants)
    lines = ["| kind | variants | player | card | arg | meaning |",
             "| --- | --- | --- | --- | --- | --- |"]
    for kind, names in rows:
        where = "all" if len(names) == everyone else ", ".join(names)
        card = ("" if not kind.card else "its player only" if kind.visibility == "player"
                else "everyone")
        lines.append(f"| `{kind.name}` | {where} | {'seat' if kind.player else ''} | {card} | "
                     f"{kind.arg} | {kind.doc} |")
    return "\n".join(lines)
