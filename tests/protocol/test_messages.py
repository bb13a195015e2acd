"""Messages: built from real games, written, read back strictly, and valid against schema.json."""

from __future__ import annotations

import json
import random

import jsonschema
import jsonschema_rs
import pytest

from eights.engines import VARIANTS, make_game
from eights.engines.crazy_eights import CrazyEightsGame
from eights.engines.defaults import NOT_CONSTANT, RequiredWhile
from eights.protocol import messages as m
from eights.protocol.errors import ERROR_CODES, ProtocolError
from eights.protocol.views import required_fields, rules_for, view_fields

SENDER = {"hello": "frontend", "decide": "frontend", "game_over": "frontend", "bye": "frontend",
          "ready": "bot", "action": "bot", "error": "bot"}


def sample_messages(variant: str, games: int = 3, rate: float = 0.2) -> list[dict]:
    """One of each message type, with decides (a ``rate`` of the decisions) and game ends
    from whole random games."""
    out = [m.ready("a bot"), m.action(3, "play 8S"), m.bye(), m.error("bad_json", "nope"),
           m.error("illegal_action", "'play 9S' is not legal", 4)]
    rng = random.Random(5)
    for g in range(games):
        game = make_game(variant, seed=g, num_players=2 + g)
        out.append(m.hello(variant, game.config.to_dict(), name="tests"))
        while not game.game_over:
            if rng.random() < rate:
                out.append(m.decide(game.view(game.current_player), game.turn, g, 500))
            legal = game.legal_actions()
            game.step(legal[rng.randrange(len(legal))])
        out.append(m.game_over(game.view(0), g, game.winners))
    return out


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_messages_round_trip(variant: str) -> None:
    for msg in sample_messages(variant):
        text = m.encode(msg)
        assert "\n" not in text
        assert m.parse_message(text, SENDER[msg["type"]]) == msg
        assert m.parse_message(text.encode(), SENDER[msg["type"]]) == msg


def test_decide_carries_the_view_and_legal_texts() -> None:
    deck = CrazyEightsGame.stacked_deck(["8S 2C 3C 4C 5C 6C 7C", "AD 2D 3D 4D 5D 6D 7D"], "9C",
                                        num_decks=2)
    game = make_game("crazy_eights", deck=deck, first_player=0)
    msg = m.decide(game.view(0), 1, 1, 200)
    assert msg["legal"] == game.legal_texts() == [
        "play 2C", "play 3C", "play 4C", "play 5C", "play 6C", "play 7C", "play 8S", "draw"]
    assert list(msg["view"]) == view_fields("crazy_eights")
    view = msg["view"]
    assert view["hand"] == ["2C", "3C", "4C", "5C", "6C", "7C", "8S"]
    assert view["hand_sizes"] == [7, 7] and view["top"] == "9C" and view["active_suit"] == "C"
    assert view["discard_counts"] == {"9C": 1} and view["drawn_card"] is None
    assert view["history"] == [{"kind": "deal", "player": 0, "card": None, "arg": 0},
                               {"kind": "starter", "player": None, "card": "9C", "arg": None}]
    assert msg["time_limit_ms"] == 200 and msg["game"] == 1


def refused(text: str | bytes, sender: str = "frontend", max_bytes: int = 4096) -> ProtocolError:
    with pytest.raises(ProtocolError) as info:
        m.parse_message(text, sender, max_bytes)
    return info.value


#: (message text, sender, error code, words the error must contain)
BAD = [
    ("not json", "frontend", "bad_json", ["not a JSON message"]),
    ("[1, 2]", "frontend", "bad_json", ["JSON object", "list"]),
    ('{"type": "bye", "type": "bye"}', "frontend", "bad_json", ["'type' appears twice"]),
    ('{"type": "action", "id": NaN, "action": "draw"}', "bot", "bad_json", ["NaN"]),
    ('{"id": 1}', "frontend", "unknown_type", ['no "type"', "hello, decide"]),
    ('{"type": "action", "id": 1, "action": "draw"}', "frontend", "unknown_type",
     ["'action'", "a frontend sends"]),
    ('{"type": "decide", "id": 1}', "bot", "unknown_type", ["a bot sends ready, action, error"]),
    ('{"type": "bye", "reason": "done"}', "frontend", "unknown_field", ["'reason'"]),
    ('{"type": "action", "id": 1, "action": "draw", "confidence": 1}', "bot", "unknown_field",
     ["'confidence'", "the fields are id, action"]),
    ('{"type": "action", "id": 1}', "bot", "missing_field", ["missing field(s) action"]),
    ('{"type": "action", "id": -1, "action": "draw"}', "bot", "bad_value", ["id: -1"]),
    ('{"type": "action", "id": 1.0, "action": "draw"}', "bot", "bad_value", ["an integer"]),
    ('{"type": "action", "id": true, "action": "draw"}', "bot", "bad_value", ["an integer"]),
    ('{"type": "action", "id": 1, "action": ""}', "bot", "bad_value", ["non-empty string"]),
    ('{"type": "error", "code": "oops", "message": "x"}', "bot", "bad_value",
     ["code: 'oops'", "bad_json"]),
    ('{"type": "hello", "protocol": "eights-bot/3", "variant": "crazy_eights", "config": {},'
     ' "shiny": 1}', "frontend", "unsupported_protocol", ["'eights-bot/3'", "eights-bot/2"]),
    ('{"type": "hello", "protocol": "eights-bot/1", "variant": "crazy_eights", "config": {}}',
     "frontend", "unsupported_protocol",
     ["'eights-bot/1' is not spoken here; this side speaks eights-bot/2 (eights-bot/2 writes "
      "every event's arguments by the kind each variant declares (a suit or colour as its "
      "code in every variant"]),
    ('{"type": "ready", "protocol": "eights-bot/0", "name": "old"}', "bot",
     "unsupported_protocol", ["'eights-bot/0'"]),
    ('{"type": "hello", "protocol": "eights-bot/2", "variant": "crazy_eights", "config": []}',
     "frontend", "bad_value", ["config", "an object"]),
    ('{"type": "decide", "id": 1, "game": 1, "view": {}, "legal": [], "time_limit_ms": null}',
     "frontend", "bad_value", ["legal", "non-empty array"]),
    ('{"type": "decide", "id": 1, "game": 1, "view": {}, "legal": ["draw", "draw"], '
     '"time_limit_ms": 5}', "frontend", "bad_value", ["without repeats"]),
    ('{"type": "decide", "id": 1, "game": 1, "view": {}, "legal": ["draw"], '
     '"time_limit_ms": 0}', "frontend", "bad_value", ["time_limit_ms", "milliseconds"]),
    ('{"type": "game_over", "game": 1, "view": {}, "winners": [-2]}', "frontend", "bad_value",
     ["winners[0]"]),
]


@pytest.mark.parametrize(("text", "sender", "code", "words"), BAD,
                         ids=[f"{i}-{case[2]}" for i, case in enumerate(BAD)])
def test_bad_messages_are_refused_with_a_clear_error(text, sender, code, words) -> None:
    err = refused(text, sender)
    assert err.code == code, err.message
    for word in words:
        assert word in err.message


def test_errors_keep_the_decision_id() -> None:
    assert refused('{"type": "action", "id": 7, "action": "draw", "x": 1}', "bot").id == 7
    assert refused('{"type": "action", "id": 7}', "bot").id == 7


def test_oversized_messages_are_refused_before_parsing() -> None:
    big = json.dumps({"type": "error", "code": "bad_json", "message": "x" * 5000})
    err = refused(big, "bot", max_bytes=4096)
    assert err.code == "too_large" and "over the limit of 4,096 bytes" in err.message
    wide = json.dumps({"type": "error", "code": "bad_json", "message": "é" * 2100},
                      ensure_ascii=False)  # under 4096 characters, over 4096 bytes
    assert len(wide) < 4096 < len(wide.encode())
    assert refused(wide, "bot").code == "too_large"
    assert refused("[" * 100_000 + "]" * 100_000, max_bytes=10**6).code == "bad_json"


def test_builders_refuse_unknown_error_codes() -> None:
    with pytest.raises(ValueError, match="is not one of"):
        m.error("whatever", "x")


# ------------------------------------------------------------------ the schema


@pytest.fixture(scope="module")
def validator():
    schema = m.load_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema, format_checker=None)


@pytest.fixture(scope="module")
def compiled_validator():
    """The whole schema compiled by jsonschema_rs (what the reader runs on): the pure-Python
    validator takes a minute and a half for one variant's sample of long histories, whose
    events are each matched against every declared kind."""
    return jsonschema_rs.validator_for(m.load_schema())


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_message_sent_is_valid_against_the_schema(compiled_validator,
                                                        variant: str) -> None:
    types = set()
    for msg in sample_messages(variant, rate=0.1):
        errors = [e.message for e in compiled_validator.iter_errors(msg)]
        assert not errors, (msg["type"], errors[:3])
        types.add(msg["type"])
    assert types == set(m.FRONTEND_TYPES) | set(m.BOT_TYPES)


@pytest.mark.parametrize(("text", "sender", "code", "words"), BAD,
                         ids=[f"{i}-{case[2]}" for i, case in enumerate(BAD)])
def test_the_schema_refuses_what_the_reader_refuses(validator, text, sender, code, words) -> None:
    if code == "bad_json":
        return  # not JSON, or JSON Python reads differently (NaN, repeated keys)
    data = json.loads(text)
    if code == "bad_value" and "1.0" in text:
        return  # JSON Schema counts 1.0 as an integer; the reader wants 1
    if code != "unknown_type":
        assert not validator.is_valid(data), text
    side = "frontend_message" if sender == "frontend" else "bot_message"
    side_schema = {**validator.schema, "$ref": f"#/$defs/{side}"}
    side_schema.pop("oneOf")
    assert not jsonschema.Draft202012Validator(side_schema).is_valid(data), text


def test_schema_matches_the_code(validator) -> None:
    defs = validator.schema["$defs"]
    assert defs["error"]["properties"]["code"]["enum"] == list(ERROR_CODES)
    for variant in VARIANTS:
        name = f"{variant}_view"
        assert list(defs[name]["properties"]) == view_fields(variant), variant
        assert {"$ref": f"#/$defs/{name}"} in defs["view"]["anyOf"]
        assert defs[name]["required"] == required_fields(variant, view_fields(variant))
        for field, rule in rules_for(variant).items():
            prop = defs[name]["properties"][field]
            default = rule.default if isinstance(rule, RequiredWhile) else rule
            assert default.text in prop["description"], (variant, field)
            if default.constant is NOT_CONSTANT:
                assert "default" not in prop, (variant, field)
            else:
                assert prop["default"] == default.constant, (variant, field)
    assert {"hello", "decide", "game_over", "error", "bye"} == set(m.FRONTEND_TYPES)
    for kind in {*m.FRONTEND_TYPES, *m.BOT_TYPES}:  # the reader checks each against its own
        assert defs[kind]["properties"]["type"] == {"const": kind}, kind


def test_the_schema_refuses_bad_views(validator) -> None:
    msg = next(msg for msg in sample_messages("crazy_eights", games=1, rate=0.1)
               if msg["type"] == "decide")
    for change in ({"hand": ["1H"]}, {"secret": 1}, {"top": "ZZ"},
                   {"history": [{"kind": "draw", "player": 1, "card": None}]}):
        bad = {**msg, "view": {**msg["view"], **change}}
        assert not validator.is_valid(bad), change
    missing = {**msg, "view": {k: v for k, v in msg["view"].items() if k != "hand"}}
    assert not validator.is_valid(missing)


def test_schema_view_definitions_are_made_from_the_declared_fields() -> None:
    """schema.json's per-variant views are exactly what the declared view fields make
    (``make regen`` rewrites them: ``python -m eights.protocol.schema_views --write``)."""
    from eights.protocol.schema_views import main, schema_text, with_view_definitions
    from tests.conftest import out_of_date

    schema = m.load_schema()
    made = with_view_definitions(schema)
    stale = sorted(k for k in made.get("$defs", {})
                   if made["$defs"][k] != schema.get("$defs", {}).get(k))
    assert schema_text(made) == schema_text(schema), out_of_date(
        "eights/protocol/schema.json", f"view definitions {', '.join(stale) or 'reordered'}")
    assert main([]) == 0
