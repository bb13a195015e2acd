"""Views as JSON: exact round trips, strict reading, and no hidden card ever sent.

The leak test follows tests/test_properties.py: at random points of many
random games of every variant and table size, the cards hidden from a seat
(the other hands, the stock) are dealt again at random, and the message sent
to that seat must not change. Any hidden card in it would move.
"""

from __future__ import annotations

import dataclasses
import json
import random
from typing import ClassVar

import numpy as np
import pytest

from eights.engines import VARIANTS, make_game
from eights.engines.base import Event, PlayerView
from eights.engines.livery_eights import LiveryEightsGame
from eights.protocol import messages as m
from eights.protocol import validation
from eights.protocol.errors import ProtocolError
from eights.protocol.views import (
    event_from_json,
    event_to_json,
    sent_history,
    view_class,
    view_fields,
    view_from_json,
    view_to_json,
)
from tests.conftest import config_id, configs, drawn_card
from tests.test_properties import shuffle_hidden

GAMES = 8  # games a config; each gives 8 positions, two seats each


def sampled_positions(variant: str, config: dict, games: int, per_game: int, seed: int):
    """``per_game`` random positions of each of ``games`` random games, the end included.

    Each game is played to its end first, keeping snapshots; the sampled
    ones are then restored latest first (a restore drops the later log), so
    every position costs one restore however long the game ran.
    """
    game = make_game(variant, seed=0, **config)
    rng = random.Random(seed)
    for g in range(games):
        game.reset(seed=seed * 1000 + g)
        snaps = []
        while not game.game_over:
            if rng.random() < 0.25:
                snaps.append(game.snapshot())
            legal = game.legal_actions()
            game.step(legal[rng.randrange(len(legal))])
        yield game, rng
        for k in sorted(rng.sample(range(len(snaps)), min(per_game, len(snaps))), reverse=True):
            game.restore(snaps[k])
            yield game, rng


def sent_to(game, seat: int) -> str:
    """What a frontend sends ``seat`` now: a decide if it is to act, else a game_over."""
    view = game.view(seat)
    if game.game_over:
        return m.encode(m.game_over(view, 1, game.winners))
    if seat == game.current_player:
        return m.encode(m.decide(view, game.turn, 1, 1000))
    return m.encode({"view": view_to_json(view)})  # what a bot would see if asked now


@pytest.mark.parametrize("pair", configs(), ids=config_id)
def test_messages_never_carry_hidden_cards(pair: tuple[str, dict]) -> None:
    variant, config = pair
    checked = 0
    for game, rng in sampled_positions(variant, config, GAMES, per_game=8, seed=11):
        seats = {game.current_player if not game.game_over else 0,
                 rng.randrange(game.num_players)}
        for seat in seats:
            if drawn_card(game) >= 0 and seat != game.current_player:
                continue  # a drawn card is the drawer's to see (as in test_properties)
            before = sent_to(game, seat)
            snap = game.snapshot()
            shuffle_hidden(game, seat, rng)
            assert sent_to(game, seat) == before, f"seat {seat} turn {game.turn}"
            game.restore(snap)
            # and directly: its own hand, no other seat's draws
            data = json.loads(before)["view"]
            assert sorted(data["hand"]) == sorted(game.cardset.text(c)
                                                  for c in game.state.hands[seat])
            for event in data["history"]:
                if event["kind"] == "draw" and event["player"] != seat:
                    assert event["card"] is None
            checked += 1
    assert checked > GAMES * 8


@pytest.mark.parametrize("pair", configs(), ids=config_id)
def test_views_round_trip_exactly(pair: tuple[str, dict]) -> None:
    variant, config = pair
    checked = 0
    for game, rng in sampled_positions(variant, config, 8, per_game=4, seed=12):
        seat = game.current_player if not game.game_over else rng.randrange(game.num_players)
        view = game.view(seat)
        back = view_from_json(view_to_json(view), variant, view.config, view.legal_actions)
        assert back.history() == sent_history(view)
        if not view.config.plays_match:
            assert back == view and back.history() == view.history()
        else:  # the history from this hand's deal on; every field exactly
            trimmed = dataclasses.replace(view, seen_events=back.seen_events)
            assert back == trimmed
            assert len(back.history()) <= len(view.history())
            assert back.history()[0].kind == "deal"
        checked += 1
    assert checked > 10


def test_a_match_sends_the_history_of_its_hand_and_plays_the_same() -> None:
    """In a match the JSON history starts at the current hand's deal: what a seat remembers
    (its v2 memory) and what an agent plays from the view read back are the same as from
    the whole view."""
    from eights.agents import make_agent
    from eights.engines.crazy_eights import CrazyEightsGame

    rng = random.Random(4)
    game = make_game("crazy_eights", seed=6, match=True, target_score=100)
    agent = make_agent("ismcts:sims=30", "crazy_eights", seed=1)
    encoder = CrazyEightsGame.encoder(game.config, None)
    later_hands = 0
    while not game.game_over:
        view = game.view(game.current_player)
        if view.hand_number > 0 and rng.random() < 0.2:
            data = view_to_json(view)
            assert data["history"][0]["kind"] == "deal"
            back = view_from_json(data, "crazy_eights", view.config, view.legal_actions)
            assert np.array_equal(encoder.encode_view(back), encoder.encode_view(view))
            agent.rng.seed(7)
            first = agent.act(view)
            agent.rng.seed(7)
            assert agent.act(back) == first
            later_hands += 1
        game.step(rng.choice(view.legal_actions))
    assert later_hands >= 5


def a_view() -> tuple[PlayerView, dict]:
    game = make_game("livery_eights", seed=4, num_players=3)
    for _ in range(6):
        game.step(game.legal_actions()[0])
    view = game.view(game.current_player)
    return view, view_to_json(view)


def refused(data: dict, view: PlayerView) -> ProtocolError:
    with pytest.raises(ProtocolError) as info:
        view_from_json(data, view.variant, view.config, view.legal_actions)
    return info.value


@pytest.mark.parametrize(("change", "code", "words"), [
    ({"secret_hands": [["AS"]]}, "unknown_field", ["'secret_hands'", "the fields are seat"]),
    ({"hand": ["1H"]}, "bad_value", ["view.hand[0]: '1H'", "a card like 10H"]),
    ({"hand": ["th"]}, "bad_value", ["view.hand"]),  # wrong size after the card reads
    ({"hand_sizes": [5, 5]}, "bad_value", ["view.hand_sizes", "3 items"]),
    ({"seat": 3}, "bad_value", ["view.seat: 3", "from 0 to 2"]),
    ({"seat": None}, "bad_value", ["view.seat"]),
    ({"active_suit": "X"}, "bad_value", ["view.active_suit: 'X'", "a suit C, D, H, S", "or null"]),
    ({"phase": "dance"}, "bad_value", ["view.phase", "'play'"]),
    ({"turn": -1}, "bad_value", ["view.turn: -1", "an integer of at least 0"]),
    ({"turn": 3, "hand_turns": 4}, "bad_value", ["view.hand_turns: 4", "at most turn (3)"]),
    ({"game_over": 0}, "bad_value", ["view.game_over", "true or false"]),
    ({"discard_counts": {"8s": 1}}, "bad_value",
     ["view.discard_counts key: '8s'", "a card like 10H"]),
    ({"discard_counts": {"8S": 0}}, "bad_value",
     ["view.discard_counts['8S']: 0", "an integer from 1 to 255"]),
    ({"discard_counts": {"8S": 256}}, "bad_value", ["view.discard_counts['8S']: 256"]),
    ({"drew_on_rank": ["Z", None, None]}, "bad_value", ["view.drew_on_rank[0]"]),
    ({"history": [{"kind": "draw", "player": 0, "card": None}]}, "missing_field", ["arg"]),
    ({"history": [{"kind": "Draw!", "player": 0, "card": None, "arg": 1}]}, "bad_value",
     ["view.history[0].kind"]),
    ({"history": [{"kind": "suit", "player": 0, "card": None, "arg": 2}]}, "bad_value",
     ["view.history[0].arg", "a suit"]),
])
def test_bad_views_are_refused_naming_the_field(change: dict, code: str, words: list) -> None:
    view, data = a_view()
    err = refused({**data, **change}, view)
    assert err.code == code, err.message
    for word in words:
        assert word in err.message, err.message


def test_a_missing_field_is_named() -> None:
    view, data = a_view()
    del data["top"]
    err = refused(data, view)
    assert err.code == "missing_field" and "missing field(s) top" in err.message


def test_suit_events_name_the_suit() -> None:
    cls = view_class("crazy_eights")
    event = Event("suit", 0, -1, 2)
    assert event_to_json(event, cls) == {"kind": "suit", "player": 0, "card": None, "arg": "H"}
    assert event_from_json("e", event_to_json(event, cls), 2, cls) == event


def test_a_named_colour_is_its_code_in_every_variant() -> None:
    """One notation: crazier_eights' named colour is its code, as crazy_eights' suit is (it
    was the colour's number); args a kind has not, and a table event's player, are null."""
    crazier, jokers = view_class("crazier_eights"), view_class("jokers_of_death")
    colour = crazier.cardset.colour_codes[3]
    for kind in ("named", "colour"):
        written = event_to_json(Event(kind, 1, -1, 3), crazier)
        assert written == {"kind": kind, "player": 1, "card": None, "arg": colour}
        assert event_from_json("e", written, 2, crazier) == Event(kind, 1, -1, 3)
    assert event_to_json(Event("starter", -1, 7, 2), jokers)["arg"] == 2  # a pile's index
    assert event_to_json(Event("pass", 0, -1, -1), jokers)["arg"] is None  # no pile
    written = event_to_json(Event("hand_over", -1, -1, 1), jokers)
    assert written == {"kind": "hand_over", "player": None, "card": None, "arg": True}


@pytest.mark.parametrize(("event", "words"), [
    ({"kind": "wobble", "player": 0, "card": None, "arg": None},
     "e.kind: 'wobble' is not allowed; it must be one of 'deal', 'draw', "),
    ({"kind": "pass", "player": 0, "card": "8C", "arg": None},
     "e.card: '8C' is not allowed; it must be null"),
    ({"kind": "play", "player": 0, "card": "8C", "arg": 1},
     "e.arg: 1 is not allowed; it must be null"),
    ({"kind": "suit", "player": 0, "card": None, "arg": 2},
     "e.arg: 2 is not allowed; it must be a suit C, D, H, S"),
    ({"kind": "reverse", "player": 0, "card": None, "arg": 0},
     "e.arg: 0 is not allowed; it must be one of 1, -1"),
    ({"kind": "reshuffle", "player": None, "card": None, "arg": -1},
     "e.arg: -1 is not allowed; it must be an integer of at least 0, or null"),
    ({"kind": "hand_over", "player": 0, "card": None, "arg": 1},
     "e.arg: 1 is not allowed; it must be true or false"),
])
def test_an_event_is_checked_by_its_declared_schema(event, words) -> None:
    """An event's shape is its kind's declaration, as schema.json states it (the reader
    checks it there, never by hand)."""
    with pytest.raises(ProtocolError) as err:
        validation.check(event, "crazy_eights_event", "e")
    assert err.value.code == "bad_value" and words in err.value.message, err.value.message


def test_an_event_is_read_against_the_table() -> None:
    """What the schema cannot know, event_from_json checks: a seat at this table, a card of
    this deck."""
    cls = view_class("crazy_eights")
    for event, words in (({"kind": "pass", "player": 2, "card": None, "arg": None},
                          "e.player: 2 is not allowed; it must be a seat from 0 to 1"),
                         ({"kind": "play", "player": 0, "card": "1H", "arg": None},
                          "e.card: '1H' is not allowed; it must be a card like 10H")):
        with pytest.raises(ProtocolError) as err:
            event_from_json("e", event, 2, cls)
        assert words in err.value.message, err.value.message


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_declared_kind_is_written_and_read_back(variant) -> None:
    """Each kind, with every slot it has filled and with every slot none, comes back the
    same from its JSON (a hidden card is none)."""
    cls = view_class(variant)
    for kind in cls.event_kinds.values():
        for fill in (True, False):
            arg = {"": -1, "bool": int(fill), "direction": 1 if fill else -1,
                   "int": 7 if fill else -5}.get(kind.arg, 1 if fill else -1)
            event = Event(kind.name, 1 if fill and kind.player else -1,
                          0 if fill and kind.card else -1, arg)
            assert event_from_json("e", event_to_json(event, cls), 2, cls) == event, event


def test_an_undeclared_view_field_is_refused_not_sent() -> None:
    """A variant that adds a view field must say how it is written, or nothing is sent."""

    View = LiveryEightsGame.View

    @dataclasses.dataclass(slots=True)
    class RevealingView(View):
        peeked: tuple = ()

    @dataclasses.dataclass(slots=True)
    class DeclaredView(View):
        peeked: tuple = ()
        field_kinds: ClassVar[dict[str, str]] = {**View.field_kinds, "peeked": "cards"}

    view, _ = a_view()
    values = {f.name: getattr(view, f.name) for f in dataclasses.fields(view)}
    with pytest.raises(TypeError, match="does not know how to write: peeked"):
        view_to_json(RevealingView(**values, peeked=(1, 2)))
    assert view_to_json(DeclaredView(**values, peeked=(1, 2)))["peeked"] == ["2C", "3C"]


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_variant_has_a_registered_view(variant: str) -> None:
    view = make_game(variant, seed=0).view(0)
    assert type(view) is view_class(variant)
    assert list(view_to_json(view)) == view_fields(variant)
