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
    """JSON Schema counts 1.0 as an integer; the reader refuses it wherever an integer goes
    (in a view's history too), and takes it where any number goes (a config option)."""
    with pytest.raises(ProtocolError) as info:
        m.parse_message('{"type": "action", "id": 1.0, "action": "draw"}', "bot")
    assert info.value.code == "bad_value" and info.value.message == (
        "id: 1.0 is not allowed; it must be an integer from 0 to 9007199254740991")
    hello = m.parse_message('{"type": "hello", "protocol": "eights-bot/2", "variant": '
                            '"crazy_eights", "config": {"num_players": 2, "x": 1e0}}',
                            "frontend")
    assert hello["config"]["x"] == 1.0
    view = a_view()
    view["history"][-1]["player"] = validation.loads_float("1.0")
    err = refused(view, "crazy_eights_view", "view")
    assert err.message.startswith(f"view.history[{len(view['history']) - 1}].player: 1.0 "
                                  f"is not allowed"), err.message


def test_an_event_is_worded_by_its_kind() -> None:
    """An event's oneOf (one branch per declared kind) is worded from the branch its kind
    names; an unknown kind names the kinds; a non-object says so once."""
    view = a_view()
    last = len(view["history"]) - 1
    cases = [({"kind": "pass", "player": 1, "card": None, "arg": 1},
              f"view.history[{last}].arg: 1 is not allowed; it must be null"),
             ({"kind": "pass", "player": 1, "card": None},
              f"view.history[{last}]: missing field(s) arg"),
             ({"kind": "Pass", "player": 1, "card": None, "arg": None},
              f"view.history[{last}].kind: 'Pass' is not allowed; it must be one of 'deal'"),
             (5, f"view.history[{last}]: 5 is not allowed; it must be an object")]
    for event, message in cases:
        view["history"][-1] = event
        err = refused(view, "crazy_eights_view", "view")
        assert err.message.startswith(message), err.message


def a_view() -> dict:
    game = make_game("crazy_eights", seed=1)
    return view_to_json(game.view(game.current_player))


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




def test_a_long_history_is_checked_a_slice_at_a_time_with_the_whole_checks_verdict(
        monkeypatch) -> None:
    """A history longer than SLICE is checked in slices (no one Rust call holds the
    interpreter for the whole of a long view), and gives the verdict and the error one whole
    check gives: the same words, the index in the whole history, a 1.0 found in any slice."""
    view = a_view()
    event = view["history"][-1]
    view["history"] = [dict(event) for _ in range(5 * validation.SLICE + 7)]
    validation.check(view, "crazy_eights_view", "view")
    bad_cases = [
        (validation.SLICE + 3, {**event, "kind": "Pass"}),
        (4 * validation.SLICE + 6, {**event, "player": validation.loads_float("1.0")}),
        (2 * validation.SLICE, 5),
        (0, {**event, "arg": "S"}),
    ]
    for index, bad in bad_cases:
        broken = {**view, "history": [*view["history"][:index], bad,
                                      *view["history"][index + 1:]]}
        sliced = refused(broken, "crazy_eights_view", "view")
        monkeypatch.setattr(validation, "SLICE", 10 ** 9)  # one whole check
        whole = refused(broken, "crazy_eights_view", "view")
        monkeypatch.undo()
        assert f"view.history[{index}]" in sliced.message, sliced.message
        assert (sliced.code, sliced.message) == (whole.code, whole.message)
    assert "history" in validation.validator("crazy_eights_view").slices
