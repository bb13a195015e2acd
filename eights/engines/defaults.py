"""What a view's reader may be left without, and how each missing field is filled in.

A frontend in another language keeps its own game, and what it knows for
sure is what a table shows: the seat's hand, the top card, the suit to
follow, how many cards each seat holds, whose turn it is, and the legal
actions. Everything else in a view (the discard pile's contents, the stock's
size, who drew on what, match bookkeeping) is ours, so it may be left out:
a reader fills each missing field in and the agents still get a complete
:class:`~eights.engines.base.PlayerView`.

The engine is the one source of truth, so each field's default is declared
beside the field itself, in the variant's module
(``ViewField(..., default=..., required_while=...)``); a field with no
default must always be sent. The ``phase`` is never a guess: each decision
frame kind declares the action blocks it offers (``TableEngine.offers``,
beside the variant's phases), and a missing phase is the one phase whose
frame kinds offer every legal action's block. Where more than one does (a
Jack round and an ordinary turn both offer only plays), or the legal
actions are not known (a view of a seat that is not to act), the phase is
required (:func:`phase_rule`).

Defaults are JSON values, exactly what a frontend could have sent, so the
protocol checks them like sent ones, and fills them in on demand: a default
may read any other field (``known.values[name]``), sent or filled in.
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..config import GameConfig

#: marks a default that is not one JSON value whatever the position
NOT_CONSTANT = object()


@dataclasses.dataclass(frozen=True)
class Known:
    """What a view's reader knows when it fills in a missing field.

    ``values`` holds the view's fields in the view's own form (card ids, -1
    for none): those sent, and any other is filled in when first read.
    ``legal`` are the decision's legal actions as text, ``blocks`` the names
    of their action blocks.
    """

    config: GameConfig
    legal: tuple[str, ...]
    blocks: frozenset[str]
    values: Mapping[str, Any]
    events: Sequence[Any]
    deck_size: int

    @property
    def n(self) -> int:
        return self.config.num_players

    @property
    def top(self) -> int:
        return self.values["top"]

    def legal_has(self, word: str) -> bool:
        """Whether a legal action is ``word`` or starts with it (``suit`` for ``suit H``)."""
        return any(text == word or text.startswith(word + " ") for text in self.legal)


@dataclasses.dataclass(frozen=True)
class Default:
    """A field's value when it is left out: ``make`` gives it as JSON, ``text`` says it in
    words (docs/protocol.md and schema.json show it). ``constant`` is that value when it is
    the same in every position (the schema's ``default``), else :data:`NOT_CONSTANT`."""

    text: str
    make: Callable[[Known], Any]
    constant: Any = NOT_CONSTANT


@dataclasses.dataclass(frozen=True)
class While:
    """When a field that has a default must be sent all the same: ``applies`` (``text`` says
    when in words; ``detail`` adds what the reader could not tell in this position)."""

    text: str
    applies: Callable[[Known], bool]
    #: the same condition as a JSON Schema over the view (``None``: it reads more than the
    #: view, such as the decide's legal actions)
    view_schema: dict[str, Any] | None = None
    detail: Callable[[Known], str] | None = None


@dataclasses.dataclass(frozen=True)
class RequiredWhile:
    """A field required in some positions (``condition``) with a default elsewhere."""

    condition: While
    default: Default

    @property
    def text(self) -> str:
        return self.condition.text

    @property
    def view_schema(self) -> dict[str, Any] | None:
        return self.condition.view_schema

    def applies(self, known: Known) -> bool:
        return self.condition.applies(known)


Rule = Default | RequiredWhile


def constant(value: Any) -> Default:
    """A default that is ``value`` in every position."""
    return Default(f"`{json.dumps(value)}`", lambda known: value, value)


def per_seat(value: Any) -> Default:
    """A per-seat array of ``value`` (its length is the hello's ``num_players``)."""
    return Default(f"`{json.dumps(value)}` for every seat", lambda known: [value] * known.n)


def from_config(name: str, make: Callable[[GameConfig], Any] | None = None) -> Default:
    """The config's ``name`` (or ``make(config)``): exact, the hello carries the config."""
    read = make or (lambda config: getattr(config, name))
    return Default(f"from the config's `{name}`", lambda known: read(known.config))


def seat_or_none(seat: int) -> int | None:
    """A seat as JSON: null for none (-1)."""
    return None if seat < 0 else seat


def current_player() -> Default:
    """``current_player`` (a field that differs from it only out of turn)."""
    return Default("`current_player`", lambda known: seat_or_none(known.values["current_player"]))


def last_event_direction(start: int) -> Default:
    """The history's last word on the direction: a deal sets it to ``start`` (the variant's
    direction at a deal), a reverse to its ``arg``."""
    def direction(known: Known) -> int:
        value = start
        for event in known.events:
            if event.kind == "deal":
                value = start
            elif event.kind == "reverse":
                value = event.arg
        return value
    return Default(f"the `arg` of the last `reverse` event in `history` (`{start}` after a "
                   f"`deal`), else `{start}`", direction)


def last_dealer() -> Default:
    """Who the last ``deal`` event says plays first."""
    def first(known: Known) -> int:
        deals = [e.player for e in known.events if e.kind == "deal" and 0 <= e.player < known.n]
        return deals[-1] if deals else 0
    return Default("the `player` of the last `deal` event in `history`, else `0`", first)


def stock_left(text: str, on_table: Callable[[Known], int]) -> Default:
    """The deck less the cards ``on_table`` counts (never below 0: a view holding more cards
    than the deck is refused with its own error)."""
    return Default(text, lambda known: max(0, known.deck_size - on_table(known)))


# ------------------------------------------------------------------ when a guess could be wrong
# A default must never be a wrong guess: where what a reader knows (the sent fields, the
# legal actions, the history when it is sent) does not fix a field's value, the field is
# required. These are the conditions the variants share.
def in_phases(*names: str) -> While:
    """Required while ``phase`` is one of ``names`` (a condition the schema states too)."""
    text = " or ".join(f"`{name}`" for name in names)
    schema = {"const": names[0]} if len(names) == 1 else {"enum": list(names)}
    return While(f"while `phase` is {text}", lambda known: known.values["phase"] in names,
                 {"required": ["phase"], "properties": {"phase": schema}})


#: a view whose ``history`` is left out (or empty: a sent one holds its ``deal`` at least)
_NO_HISTORY = {"not": {"required": ["history"], "properties": {"history": {"minItems": 1}}}}


def around_the_table() -> While:
    """The direction: with two players either way is the other seat, so it changes nothing;
    with more it decides who is next, and only the history tells it."""
    return While("with more than 2 players (`hand_sizes`), unless `history` is sent",
                 lambda known: known.n > 2 and not known.events,
                 {"required": ["hand_sizes"], "properties": {"hand_sizes": {"minItems": 3}},
                  **_NO_HISTORY})


def in_a_match(option: str, is_match: Callable[[GameConfig], bool], *,
               unless_history: bool = False) -> While:
    """Match bookkeeping, which decides what follows the end of a hand: required in a match
    (``option`` names the config's option that makes one), and with ``unless_history`` not
    where the history is sent (the default reads it)."""
    return While(f"in a match ({option}){', unless `history` is sent' if unless_history else ''}",
                 lambda known: is_match(known.config) and not (unless_history and known.events))


#: how near the turn limit the count it reads must be sent: an action and the forced moves
#: that follow it may reach the limit (the longest run of forced moves in the option sweep is
#: 31, in a two-player crazy_eights hand on an empty stock; the minimal-view sweep checks
#: every run it meets is shorter than this)
TURN_LIMIT_REACH = 100


def near_turn_limit(count: str, in_match: bool) -> While:
    """The turn count ``count`` (``turn`` outside a match, ``hand_turns`` in one, where the
    turn limit counts each hand's actions): it changes nothing until the next action, with
    the moves it forces, reaches the turn limit. Only a frontend that counts the actions
    knows how near that is (a reader without the count takes it to be far)."""
    where = "in a match" if in_match else "outside a match"
    return While(f"{where}, from the config's `max_turns` - {TURN_LIMIT_REACH} on (the next "
                 f"action and the moves it forces may reach the turn limit)",
                 lambda known: (known.config.plays_match == in_match
                                and known.values.get(count, 0)
                                >= known.config.max_turns - TURN_LIMIT_REACH))


#: the defaults of the fields every view has (:class:`~eights.engines.base.PlayerView`)
#: and of its history
CORE_DEFAULTS: dict[str, Rule] = {
    "scores": per_seat(0),
    "turn": RequiredWhile(near_turn_limit("turn", False), constant(0)),
    "hand_turns": RequiredWhile(near_turn_limit("hand_turns", True), Default(
        "`turn` outside a match, else 0",
        lambda known: 0 if known.config.plays_match else known.values["turn"])),
    "game_over": Default("`true` when `current_player` is `null`, else `false`",
                         lambda known: known.values["current_player"] < 0),
    "history": constant([]),
}


# ------------------------------------------------------------------ the phase
def _shown(names: Sequence[str]) -> str:
    return ", ".join(f"`{name}`" for name in names)


def phase_candidates(phases: Mapping[str, str], offers: Mapping[str, Sequence[str]],
                     idle: str, known: Known) -> list[str]:
    """The phases this position may be in: once the game is over, the idle phase; in a view
    of a seat not to act (its legal actions unknown), every phase; else each phase one of
    whose frame kinds offers every legal action's block."""
    seat, current = known.values["seat"], known.values["current_player"]
    if current < 0:
        return [idle]
    names = dict.fromkeys(phases.values())
    if current != seat:
        return list(names)
    return list(dict.fromkeys(phase for kind, phase in phases.items()
                              if known.blocks <= set(offers[kind])))


def phase_rule(phases: Mapping[str, str], offers: Mapping[str, Sequence[str]],
               idle: str) -> Rule:
    """The ``phase`` field's rule, derived from the frame kinds' offered blocks: the one
    phase whose frame kinds offer every legal action's block; required where more than one
    does (or none: a legal action no frame kind offers), and in a view of a seat not to act.
    """
    candidates = functools.partial(phase_candidates, phases, offers, idle)
    by_phase: dict[str, set[str]] = {}
    for kind, phase in phases.items():
        by_phase.setdefault(phase, set()).update(offers[kind])
    offered = "; ".join(f"`{phase}` ({', '.join(f'`{b}`' for b in sorted(blocks))})"
                        for phase, blocks in by_phase.items())
    default = Default(f"the one phase that offers the blocks of every action in `legal` "
                      f"({offered}); once the game is over, `{idle}`",
                      lambda known: candidates(known)[0])
    shared = _shared_blocks(by_phase)
    ambiguous = ("while `legal`'s actions are all of blocks that more than one phase offers ("
                 + "; ".join(f"only {_shown(sorted(blocks))}: {' or '.join(f'`{p}`' for p in ps)}"
                             for blocks, ps in shared) + "), and " if shared else "while ")
    if len(by_phase) == 1:
        return default
    condition = While(ambiguous + "in a view of a seat that is not to act",
                      lambda known: len(candidates(known)) != 1,
                      detail=lambda known: (
                          "here it may be " + " or ".join(map(repr, candidates(known)))
                          if candidates(known) else
                          "no phase offers every action of legal"))
    return RequiredWhile(condition, default)


def _shared_blocks(by_phase: Mapping[str, set[str]]) -> list[tuple[frozenset[str], list[str]]]:
    """Each largest set of blocks that several phases offer, with those phases."""
    shared: dict[frozenset[str], list[str]] = {}
    names = list(by_phase)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            common = frozenset(by_phase[a] & by_phase[b])
            if common:
                phases = [p for p in names if common <= by_phase[p]]
                shared[common] = phases
    return [(blocks, ps) for blocks, ps in shared.items()
            if not any(blocks < other for other in shared)]


# ------------------------------------------------------------------ per engine
@functools.cache
def view_rules(engine: type) -> dict[str, Rule]:
    """An engine class's optional fields and how each is filled in, in field order (the
    core fields' first, ``history`` last); a field not listed must always be sent.

    Read from its declarations: each :class:`~eights.engines.fields.ViewField`'s
    ``default`` and ``required_while``, :data:`CORE_DEFAULTS`, and for its ``phase`` field
    :func:`phase_rule` over its ``phases`` and ``offers``.
    """
    view = engine.View
    declared = {f.name: f for f in engine.view_fields}
    rules: dict[str, Rule] = {}
    for name, kind in view.field_kinds.items():
        field = declared.get(name)
        if kind == "phase":
            rules[name] = phase_rule(engine.phases, engine.offers,
                                     engine.phases[engine.idle_frame])
        elif field is not None and field.default is not None:
            rules[name] = (field.default if field.required_while is None
                           else RequiredWhile(field.required_while, field.default))
        elif name in CORE_DEFAULTS:
            rules[name] = CORE_DEFAULTS[name]
    rules["history"] = CORE_DEFAULTS["history"]
    return rules
