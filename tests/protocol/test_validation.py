"""The reader checks messages against schema.json itself, and says what was wrong plainly."""

from __future__ import annotations

import copy

import pytest

from eights.engines import make_game
from eights.protocol import messages as m
from eights.protocol import validation
from eights.protocol.errors import ProtocolError
from eights.protocol.views import read_view, view_to_json


def refused(data: object, name: str, root: str = "") -> ProtocolError:
    with pytest.raises(ProtocolError) as info:
        validation.check(data, name, root)
    return info.value


def test_the_reader_follows_schema_json(monkeypatch) -> None:
    """What the shipped schema says is what is checked: tighten it, and the reader refuses
    what it allowed (so no hand-written check stands in for it)."""
    text = m.encode(m.action(1, "draw"))
    assert m.parse_message(text, "bot")["action"] == "draw"
    schema = copy.deepcopy(validation.load_schema())
    schema["$defs"]["action"]["properties"]["action"]["maxLength"] = 3
    monkeypatch.setattr(validation, "_schema", lambda: schema)
    validation.validator.cache_clear()
    try:
        with pytest.raises(ProtocolError) as info:
            m.parse_message(text, "bot")
        assert info.value.code == "bad_value" and info.value.message.startswith("action: 'draw'")
    finally:
        validation.validator.cache_clear()


def test_one_validator_per_definition() -> None:
    assert validation.validator("decide") is validation.validator("decide")
    assert validation.validator("crazy_eights_view") is not validation.validator("decide")
    with pytest.raises(KeyError, match="no definition 'nothing'"):
        validation.validator("nothing")


def test_integers_are_json_integers() -> None:
    """JSON Schema counts 1.0 as an integer; Python reads it as a float, so it is refused."""
    err = refused({"type": "action", "id": 1.0, "action": "draw"}, "action")
    assert err.code == "bad_value" and err.message == (
        "id: 1.0 is not allowed; it must be an integer from 0 to 9007199254740991")


def a_view() -> dict:
    game = make_game("crazy_eights", seed=1)
    return view_to_json(game.view(game.current_player))


def test_repeated_items_are_checked_once_and_bad_ones_every_time() -> None:
    """Equal items of an array are validated once (in one message and across messages);
    a bad item is never taken for a good one, nor a bool for an int, and the first bad
    copy is the one named."""
    view = a_view()
    event = {"kind": "pass", "player": 1, "card": None, "arg": 1}
    validation.check({**view, "history": [event] * 50}, "crazy_eights_view", "view")
    for bad in ({**event, "arg": True}, {**event, "arg": 1.0}, {**event, "player": -1}):
        history = [event, event, bad, bad]
        for _ in range(2):  # not remembered as valid after the first refusal
            err = refused({**view, "history": history}, "crazy_eights_view", "view")
            assert err.code == "bad_value" and err.message.startswith("view.history[2]."), err


def test_the_memory_of_valid_items_is_bounded(monkeypatch) -> None:
    monkeypatch.setattr(validation, "MAX_REMEMBERED", 10)
    validation.forget()
    view = a_view()
    history = [{"kind": "pass", "player": 1, "card": None, "arg": i} for i in range(25)]
    validation.check({**view, "history": history}, "crazy_eights_view", "view")
    assert sum(len(valid) for _, valid in validation._MEMORY.sets.values()) <= 10


@pytest.mark.parametrize(("data", "name", "root", "code", "message"), [
    ({"type": "hello", "protocol": "eights-bot/2", "variant": "crazy_eights",
      "config": {"Num-Players": 2}}, "hello", "", "bad_value",
     "config key: 'Num-Players' is not allowed; it must be an option name like num_players"),
    ({"type": "decide", "id": 1, "game": 1, "view": {}, "legal": ["draw", 3]}, "decide", "",
     "bad_value", "legal[1]: 3 is not allowed; it must be a non-empty string"),
    ({"type": "decide", "id": 1, "game": 1, "view": [], "legal": ["draw"]}, "decide", "",
     "bad_value", "view: [] is not allowed; it must be an object"),
    ({"type": "bye", "at": 1}, "bye", "", "unknown_field",
     "bye: unknown field(s) 'at'; the fields are "),
    ({"type": "error", "message": "x"}, "error", "", "missing_field",
     "error: missing field(s) code; the fields are code, message, id"),
])
def test_schema_errors_name_the_path_the_value_and_what_is_allowed(data, name, root, code,
                                                                   message) -> None:
    err = refused(data, name, root)
    assert err.code == code and err.message.startswith(message), err.message


def test_a_view_is_read_against_its_variants_definition() -> None:
    """A livery_eights field is unknown in a crazy_eights view, though the schema's ``view``
    allows any variant's; and a card count the schema bounds is refused with its path."""
    game = make_game("crazy_eights", seed=1)
    data = view_to_json(game.view(game.current_player))
    with pytest.raises(ProtocolError) as info:
        read_view({**data, "offender": 1}, "crazy_eights", game.config)
    assert info.value.code == "unknown_field" and "view: unknown field(s) 'offender'" in \
        info.value.message
    top = data["top"]
    with pytest.raises(ProtocolError) as info:
        read_view({**data, "discard_counts": {top: 300}}, "crazy_eights", game.config)
    assert info.value.message.startswith(f"view.discard_counts[{top!r}]: 300 is not allowed")



def test_remembered_conditions_still_decide_each_message() -> None:
    """The decide's condition (while ``legal`` holds ``challenge`` the view names the offender)
    is remembered by the values it looks at, never by the message: each verdict is its own."""
    def decide(legal: list, view: dict) -> dict:
        return {"type": "decide", "id": 1, "game": 1, "view": view, "legal": legal}

    for _ in range(2):
        validation.check(decide(["pass", "draw"], {}), "decide")
        err = refused(decide(["pass", "challenge"], {}), "decide")
        assert err.code == "missing_field" and err.message.startswith(
            "view: missing field(s) offender"), err.message
        validation.check(decide(["pass", "challenge"], {"offender": 1}), "decide")
        validation.check(decide(["pass", "draw"], {}), "decide")


def test_keys_of_different_json_values_differ() -> None:
    """A remembered value is found by its key, so two different JSON values must never share
    one (``True`` is not ``1``, ``1.0`` is not ``1``, ``{}`` is not ``[]``)."""
    values = [1, True, 1.0, 0, False, "1", None, [], {}, [1], [True], ["a", 1], {"a": 1},
              {"a": True}, {"b": 1}, {"a": 1, "b": 2}, {"b": 2, "a": 1}, [1, 2], [2, 1],
              ["a", "b"], {"a": "b"}, [list(range(17))][0]]
    keys = [validation._key(v) for v in values]
    hashable = [k for k in keys if k is not None]
    assert len(set(hashable)) == len(hashable) == len(values) - 1  # the long array has none
