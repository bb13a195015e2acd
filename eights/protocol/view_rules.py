"""Which view fields a frontend must send, and what the others are taken to be.

A frontend in another language keeps its own game, and what it knows for
sure is what a table shows: the seat's hand, the top card, the suit to
follow, how many cards each seat holds, whose turn it is, and the legal
actions. Everything else in a view (the discard pile's contents, the stock's
size, who drew on what, match bookkeeping) is ours, so it is optional: a bot
built on this library fills each missing field with a documented default,
and its agents still get a complete :class:`~eights.engines.base.PlayerView`.

A field is *required* when a decision cannot be made without it and
neither the legal actions nor the rest of the view tell it: livery_eights'
``pending_draw`` (how many cards a 2 would make you pick up), its
``offender`` while a challenge is legal, and baby_eating_eights' ``phase``
(a Jack round's legal actions look like an ordinary turn's). Defaults say
"unknown" where the protocol can (no history, no draws remembered) and
derive what the sent fields determine (the stock is the deck less the hands
and the discards). docs/protocol.md has a table of them per variant, and
``schema.json`` their ``required`` lists and constant ``default`` values;
tests keep the three in step.

Defaults are JSON values, exactly what a frontend could have sent, so they
are checked like sent ones. A variant not listed in :data:`VARIANT_RULES`
requires every field: a new variant's author decides what is optional.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..cards import NUM_STANDARD, RANK, SUIT, card, card_text
from ..config import GameConfig
from ..engines.base import Event
from ..engines.crazier_abilities import ASKS, ability_ask
from ..engines.crazier_cards import text_of
from ..engines.crazier_eights import team_in_play

JOKERS_FOUR_OF_SPADES = card(4, 3)

#: marks a default that is not one JSON value whatever the position
NOT_CONSTANT = object()


@dataclasses.dataclass(frozen=True)
class Known:
    """What a view's reader knows when it fills in a missing field.

    ``values`` holds the fields read so far (those sent, then the defaults
    filled in before this one) in the view's own form: card ids, -1 for none.
    """

    config: GameConfig
    legal: tuple[str, ...]
    values: Mapping[str, Any]
    events: Sequence[Event]
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
    """An optional field: ``make`` gives its JSON value when left out, ``text`` says it in words.

    ``constant`` is that value when it is the same in every position (the
    schema's ``default``), else :data:`NOT_CONSTANT`.
    """

    text: str
    make: Callable[[Known], Any]
    constant: Any = NOT_CONSTANT


@dataclasses.dataclass(frozen=True)
class RequiredWhile:
    """A field required in some positions (``applies``; ``text`` says which) with a default
    elsewhere."""

    text: str
    applies: Callable[[Known], bool]
    default: Default
    #: the same condition as a JSON Schema over the view (``None``: it reads more than
    #: the view, such as the decide's legal actions, and schema.json states it by hand)
    view_schema: dict[str, Any] | None = None


Rule = Default | RequiredWhile


def constant(value: Any) -> Default:
    """A default that is ``value`` in every position."""
    return Default(f"`{json.dumps(value)}`", lambda known: value, value)


def per_seat(value: Any) -> Default:
    """A per-seat array of ``value`` (its length is the hello's ``num_players``)."""
    return Default(f"`{json.dumps(value)}` for every seat", lambda known: [value] * known.n)


# ------------------------------------------------------------------ derived defaults
def _stock_size(known: Known) -> int:
    """Never below 0: a view holding more cards than the deck is refused with its own error."""
    return max(0, known.deck_size - sum(known.values["hand_sizes"])
               - sum(known.values["discard_counts"]))


def _direction_from(start: int) -> Callable[[Known], int]:
    """The history's last word on the direction: a deal sets it to ``start`` (the
    variant's direction at a deal), a reverse to its ``arg``."""
    def direction(known: Known) -> int:
        value = start
        for event in known.events:
            if event.kind == "deal":
                value = start
            elif event.kind == "reverse":
                value = event.arg
        return value
    return direction


def _first_player(known: Known) -> int:
    deals = [e.player for e in known.events if e.kind == "deal" and 0 <= e.player < known.n]
    return deals[-1] if deals else 0


def _pile_phase(after_draw: bool) -> Callable[[Known], str]:
    """The phase the legal actions imply in crazy_eights (``after_draw``) or livery_eights."""
    def phase(known: Known) -> str:
        if known.legal_has("suit"):
            return "choose suit"
        for name in ("last card", "challenge"):
            if name in known.legal:
                return name
        if after_draw and "pass" in known.legal:
            return "after draw"
        return "play"
    return phase


def _drawn_card(known: Known) -> str | None:
    """After a draw the only card play offered is the drawn card."""
    if known.values["phase"] != "after draw":
        return None
    plays = [text.split()[1] for text in known.legal if text.startswith("play ")]
    return plays[0] if len(plays) == 1 else None


def _in_phase(phase: str, then: Callable[[Known], Any], otherwise: Any) -> Callable[[Known], Any]:
    return lambda known: then(known) if known.values["phase"] == phase else otherwise


def _current(known: Known) -> int | None:
    seat = known.values["current_player"]
    return None if seat < 0 else seat


def _locked(known: Known) -> bool:
    """A Six or Nine on top whose other number the hand holds, off suit, but may not play."""
    top, suit = known.top, known.values["active_suit"]
    if known.values["phase"] != "play" or not 0 <= top < NUM_STANDARD or RANK[top] not in (6, 9):
        return False
    other = 15 - RANK[top]
    return any(RANK[c] == other and SUIT[c] != suit and f"play {card_text(c)}" not in known.legal
               for c in known.values["hand"] if c < NUM_STANDARD)


def _free(known: Known) -> bool:
    """A wild card on top with a card off its suit, not wild, playable: a wild starter."""
    top, suit = known.top, known.values["active_suit"]
    if top < 0 or not (top >= NUM_STANDARD or RANK[top] == 8):
        return False
    if top >= NUM_STANDARD and suit < 0:
        return True
    return known.values["phase"] == "play" and any(
        RANK[c] != 8 and SUIT[c] != suit and f"play {card_text(c)}" in known.legal
        for c in known.values["hand"] if c < NUM_STANDARD)


def _run_number(known: Known) -> int:
    top = known.top
    if top < 0:
        return -1
    rank = RANK[top]
    return 6 if rank == 9 and known.config.six_nine_four_in_a_row else rank


# ------------------------------------------------------------------ per variant
COMMON: dict[str, Rule] = {
    "scores": per_seat(0),
    "turn": constant(0),
    "game_over": Default("`true` when `current_player` is `null`, else `false`",
                         lambda known: known.values["current_player"] < 0),
    "history": constant([]),
}

PILE: dict[str, Rule] = {
    **COMMON,
    "discard_counts": Default("the top card alone: `{\"<top>\": 1}`",
                              lambda known: {} if known.top < 0 else {card_text(known.top): 1}),
    "stock_size": Default("the deck's cards less the hands (`hand_sizes`) and the discard "
                          "pile (`discard_counts`); send it only with `discard_counts`",
                          _stock_size),
    "direction": Default("the `arg` of the last `reverse` event in `history` (`1` after a "
                         "`deal`), else `1`", _direction_from(1)),
    "hand_number": constant(0),
    "first_player": Default("the `player` of the last `deal` event in `history`, else `0`",
                            _first_player),
    "stuck": constant(0),
    "drew_on_suit": per_seat(None),
    "drew_on_rank": per_seat(None),
}

CRAZY_EIGHTS: dict[str, Rule] = {
    **PILE,
    "phase": Default("from `legal`: `choose suit` if it holds `suit` actions, `after draw` "
                     "if it holds `pass`, else `play`", _pile_phase(after_draw=True)),
    "drawn_card": Default("during `after draw`, the card of the one `play` action in `legal`; "
                          "else `null`", _drawn_card),
}

LIVERY_EIGHTS: dict[str, Rule] = {
    **PILE,
    "phase": Default("from `legal`: `choose suit` if it holds `suit` actions, `last card` or "
                     "`challenge` if it holds that action, else `play`",
                     _pile_phase(after_draw=False)),
    "offender": RequiredWhile("while `legal` holds `challenge`",
                              lambda known: "challenge" in known.legal, constant(None)),
}

def _seat_or_none(seat: int) -> int | None:
    return None if seat < 0 else seat


def _baby_agenda(known: Known) -> list[dict[str, Any]]:
    """The pending frames a table shows: the decision at hand (by ``phase``) on top of the
    dropped card's pending effect (``effect_card``) and the turn passing on after it."""
    v = known.values
    current, actor = v["current_player"], v["actor"]
    decision = {"play": "turn", "choose suit": "suit", "five target": "five",
                "seven target": "seven", "jack round": "jacks",
                "four in a row": "bottom"}[v["phase"]]
    if decision == "turn":
        return [{"kind": "turn", "seat": _seat_or_none(current), "args": [v["extra_drop"]]}]
    frames = [{"kind": "next", "seat": _seat_or_none(actor), "args": [None, False]}]
    effect = v["effect_card"]
    if effect < 0 and decision == "suit":
        effect = known.top  # the wild whose suit is being named
    if effect >= 0:
        frames.append({"kind": "effect", "seat": _seat_or_none(actor),
                       "args": [card_text(effect), v["effect_cancelled"], None]})
    args = [1] if decision in ("jacks", "bottom") else []
    frames.append({"kind": decision, "seat": _seat_or_none(current), "args": args})
    return frames


BABY_EATING_EIGHTS: dict[str, Rule] = {
    **{name: rule for name, rule in PILE.items() if name != "hand_number"},
    "actor": Default("`current_player` (they differ only in a Jack round and Four in a Row)",
                     _current),
    "teams": Default("from the config's `teams`", lambda known: list(known.config.team_of())),
    "guarantee_joker": Default("from the config's `guarantee_joker`",
                               lambda known: known.config.guarantee_joker),
    "guarantee_victim": constant(None),
    "guarantee_spent": constant(False),
    "three_live": Default("`true` when `top` is a Three (send `false` for a Three that went on "
                          "a live Three)",
                          lambda known: 0 <= known.top < NUM_STANDARD and RANK[known.top] == 3),
    "locked": Default("read from `legal`: `true` when `top` is a Six or Nine and a Nine or Six "
                      "of another suit in the hand is not playable, else `false`", _locked),
    "free": Default("read from `legal`: `true` when `top` is wild and a card neither wild nor "
                    "of `active_suit` is playable, or `top` is a joker with no `active_suit` (a "
                    "wild starter), else `false`", _free),
    "top_player": constant(None),
    "run_number": Default("`top`'s number (a Nine counts as 6 with six_nine_four_in_a_row; a "
                          "joker 0)", _run_number),
    "run_length": constant(1),
    "extra_drop": constant(False),
    "effect_card": constant(None),
    "effect_cancelled": constant(False),
    "drew_on_lock": per_seat(0),
    "agenda": Default("by `phase`: during `play` one `turn` frame for `current_player` (its "
                      "argument `extra_drop`); otherwise a `next` frame for `actor`, an `effect` "
                      "frame for `effect_card` (a wild's `top` while its suit is named) when "
                      "there is one, and the decision's frame for `current_player` (`suit`, "
                      "`five`, `seven`, or `jacks`/`bottom` with 1 seat to go)", _baby_agenda),
}

def _jokers_owners(known: Known) -> list[int | None]:
    """Unknown (``null``), except a 4 of Spades the seat answers while holding a Joker it may
    not play on it: that 4 of Spades is its own."""
    v = known.values
    me = v["current_player"]
    jokers = [c for c in v["hand"] if c >= NUM_STANDARD]
    owners: list[int | None] = []
    for k, (top, to_play) in enumerate(zip(v["pile_tops"], v["to_play"], strict=True)):
        own = (v["phase"] == "answer" and to_play and top == JOKERS_FOUR_OF_SPADES and jokers
               and not any(text.startswith(f"play {card_text(j)} pile {k + 1}")
                           for text in known.legal for j in jokers))
        owners.append(me if own and me >= 0 else None)
    return owners


def _jokers_agenda(known: Known) -> list[dict[str, Any]]:
    """The decision at hand (by ``phase``) on top of the turn it belongs to: ``answer`` while
    a pile to answer is left, ``turn`` while a pile to play is left, else ``end``."""
    v = known.values
    seat = _seat_or_none(v["current_player"])
    pile = next((k for k, on in enumerate(v["decision_pile"]) if on), 0)
    phase = v["phase"]
    if phase == "pile hand":  # the space the picked-up pile left is the one without a top
        space = next((k for k, top in enumerate(v["pile_tops"]) if top < 0), 0)
        return [{"kind": "pile_hand", "seat": seat, "args": [space]}]
    if phase in ("play", "answer"):
        return [{"kind": "turn" if phase == "play" else "answer", "seat": seat, "args": []}]
    left = any(v["to_play"])
    answering = left and any(p and t for p, t in zip(v["pile_pending"], v["to_play"],
                                                     strict=True))
    below = "answer" if answering else "turn" if left else "end"
    kind = {"follow": "follow", "choose suit": "suit", "knock": "knock",
            "direction": "direction"}[phase]
    args = [pile] if kind in ("follow", "suit") else []
    if kind == "direction":
        return [{"kind": kind, "seat": seat, "args": args}]
    return [{"kind": below, "seat": seat, "args": []}, {"kind": kind, "seat": seat, "args": args}]


JOKERS_OF_DEATH: dict[str, Rule] = {
    **COMMON,
    "decision_pile": RequiredWhile(
        "while `phase` is `follow` or `choose suit`",
        lambda known: known.values["phase"] in ("follow", "choose suit"),
        Default("`false` for every pile", lambda known: [False] * known.config.piles),
        {"required": ["phase"], "properties": {"phase": {"enum": ["follow", "choose suit"]}}}),
    "pile_owners": Default("`null` for every pile, except a 4 of Spades the seat answers "
                           "holding a Joker that `legal` does not let it play there: its own",
                           _jokers_owners),
    "picked_up": RequiredWhile(
        "while `phase` is `pile hand`", lambda known: known.values["phase"] == "pile hand",
        constant([]), {"required": ["phase"], "properties": {"phase": {"const": "pile hand"}}}),
    "penalties": per_seat(0),
    "aces_played": constant(0),
    "tens_played": constant(0),
    "fresh_turn": Default("`true` while `legal` has a `pick up pile` action, else `false`",
                          lambda known: known.legal_has("pick up")),
    "knocked": per_seat(0),
    "direction": Default("the `arg` of the last `reverse` event in `history` (`-1` after a "
                         "`deal`), else `-1`", _direction_from(-1)),
    "hand_number": constant(0),
    "first_player": Default("the `player` of the last `deal` event in `history`, else `0`",
                            _first_player),
    "stuck": constant(0),
    "agenda": Default("by `phase`: the decision's frame for `current_player` (`follow` and "
                      "`suit` with the `decision_pile`) on top of the turn it belongs to "
                      "(`answer` while a pile with a penalty is `to_play`, `turn` while another "
                      "is, else `end`); during `pile hand` one `pile_hand` frame for the pile "
                      "without a top", _jokers_agenda),
}

def _crazier_agenda(known: Known) -> list[dict[str, Any]]:
    """During a main phase, the main phase of the turn ``current_player`` leads: its
    ``main`` frame (and a ``name_colour`` on it after an 8) on top of its allies' still to
    come and the ``end_phase`` (which pushes the ``next_turn`` when it resolves)."""
    seat = known.values["current_player"]
    if seat < 0:
        return []
    frames = [{"kind": "end_phase", "seat": seat, "args": []}]
    frames += [{"kind": "main", "seat": q, "args": []}
               for q in reversed(team_in_play(known.config.team_of(), known.values["out"],
                                              seat))]
    if known.values["phase"] == "name colour":
        frames.append({"kind": "name_colour", "seat": seat, "args": []})
    return frames


_TURN_FRAMES = ("turn", "draw_phase", "main_phase", "end_phase", "next_turn")


def _crazier_lead(known: Known) -> int | None:
    for frame in known.values["agenda"]:
        if frame.kind in _TURN_FRAMES:
            return frame.seat
    return _current(known)


def _crazier_trade_taken(known: Known) -> str | None:
    """While a Trade's player gives a card back: the card of its hand that ``legal`` offers
    no ``choose`` for, the one it took (none when it also holds a copy from before)."""
    if known.values["asks"] != ASKS.index("a card to give"):
        return None
    offered = {text.removeprefix("choose ") for text in known.legal}
    left = [c for c in known.values["hand"] if text_of(c) not in offered]
    return text_of(left[0]) if len(left) == 1 else None


def _crazier_turn_phase(known: Known) -> int:
    kinds = {frame.kind for frame in known.values["agenda"]}
    for kind, phase in (("draw_phase", 0), ("main_phase", 1), ("end_phase", 2),
                        ("next_turn", 3)):
        if kind in kinds:
            return phase
    return 2


def _crazier_follow(known: Known) -> int:
    named, top = known.values["named"], known.top
    if named >= 0:
        return 1 << named
    if top < 0:
        return 0
    return sum(1 << c for c in known.config.cards.cardset.colours_of[top])


def _crazier_stock(known: Known) -> int:
    v = known.values
    table = (sum(v["hand_sizes"]) + sum(v["discard_counts"]) + len(v["resolving"])
             + sum(map(len, v["in_play"])))
    return max(0, known.deck_size - table)


def _crazier_played(known: Known) -> list[int]:
    v = known.values
    seat = v["current_player"]
    done = v["phase"] == "main" and bool(v["hand"]) and not known.legal_has("play")
    return [int(q == seat and done) for q in range(known.n)]


def _crazier_discards_left(known: Known) -> list[int]:
    seat = known.values["current_player"]
    return [int(q == seat and known.legal_has("discard")) for q in range(known.n)]


_MAIN_DECISIONS = ("main", "name colour")


def _crazier_ability(known: Known) -> tuple[int, int]:
    agenda = known.values["agenda"]
    programs = known.config.cards.programs
    return ability_ask(programs, agenda[-1] if agenda else None)


CRAZIER_EIGHTS: dict[str, Rule] = {
    **COMMON,
    "lost_with": per_seat(0),
    "teams": Default("from the config's `teams`", lambda known: list(known.config.team_of())),
    "agenda": RequiredWhile(
        "while `phase` is neither `main` nor `name colour` (an ability's decision)",
        lambda known: known.values["phase"] not in _MAIN_DECISIONS,
        Default("a main phase's: a `main` frame for `current_player` (under a `name_colour` "
                "one during `name colour`) on top of one for each ally still to take it "
                "(seat order) and an `end_phase` frame for `current_player`",
                _crazier_agenda),
        {"required": ["phase"],
         "properties": {"phase": {"not": {"enum": list(_MAIN_DECISIONS)}}}}),
    "lead": Default("the `seat` of the agenda's turn frames (`draw_phase`, `main_phase`, "
                    "`end_phase`, `next_turn`), else `current_player`", _crazier_lead),
    "ability": Default("the card of the agenda's top frame when it is an ability's decision "
                       "(`target`, `colour`, `choose`, `ask`), else `null`",
                       lambda known: (None if _crazier_ability(known)[0] < 0
                                      else text_of(_crazier_ability(known)[0]))),
    "asks": Default("what the agenda's top frame asks, by the code the field's meaning lists",
                    lambda known: _crazier_ability(known)[1]),
    "turn_phase": Default("from `agenda`: `0` while it holds a `draw_phase` frame, `1` while a "
                          "`main_phase`, `2` while an `end_phase`, `3` while a `next_turn`",
                          _crazier_turn_phase),
    "resolving": Default("the cards of the `settle` frames of `agenda`",
                         lambda known: [text_of(f.args[0])
                                        for f in known.values["agenda"] if f.kind == "settle"]),
    "discard_size": Default("the copies in `discard_counts`",
                            lambda known: sum(known.values["discard_counts"])),
    "stock_size": Default("the deck's cards less the hands, the discard pile, the cards in "
                          "play and those resolving; send it only with `discard_counts`",
                          _crazier_stock),
    "follow_colours": Default("the bit of `named` when it is not null, else the bits of the "
                              "top card's colours", _crazier_follow),
    "known_stock": RequiredWhile(
        "while `phase` is `choose card` (what the seat looked at decides what it may put on "
        "the bottom)", lambda known: known.values["phase"] == "choose card", constant([]),
        {"required": ["phase"], "properties": {"phase": {"const": "choose card"}}}),
    "looking_at": RequiredWhile(
        "while `phase` is `choose card` (empty but for a Trade's choice of the card to take)",
        lambda known: known.values["phase"] == "choose card", constant([]),
        {"required": ["phase"], "properties": {"phase": {"const": "choose card"}}}),
    "trade_taken": Default("while `asks` is 8 (a card to give): the card of `hand` that "
                           "`legal` has no `choose` for, else `null`", _crazier_trade_taken),
    "ally_hands": per_seat([]),
    "discards_left": Default("`1` for `current_player` when `legal` holds a `discard` action, "
                             "else `0`", _crazier_discards_left),
    "played": Default("`1` for `current_player` during `main` when `legal` holds no `play` "
                      "action (had it not played, an asset at least could be), else `0`",
                      _crazier_played),
    "hand_number": constant(0),
    "first_player": Default("the `player` of the last `deal` event in `history`, else `0`",
                            _first_player),
}


#: variant -> its optional fields, in the order they are filled in (a rule may read the
#: fields before it); a field not listed is required
VARIANT_RULES: dict[str, dict[str, Rule]] = {
    "crazy_eights": CRAZY_EIGHTS,
    "livery_eights": LIVERY_EIGHTS,
    "baby_eating_eights": BABY_EATING_EIGHTS,
    "jokers_of_death": JOKERS_OF_DEATH,
    "crazier_eights": CRAZIER_EIGHTS,
}


def rules_for(variant: str) -> dict[str, Rule]:
    """The optional fields of ``variant``'s view and how each is filled in (none: all required)."""
    return VARIANT_RULES.get(variant, {})


def required_fields(variant: str, fields: Sequence[str]) -> list[str]:
    """The fields (of ``fields``, the view's) that every view of ``variant`` must carry."""
    rules = rules_for(variant)
    return [name for name in fields if name not in rules]
