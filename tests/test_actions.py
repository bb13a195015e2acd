"""The action notation both ways (eights.actions), on the crazy_eights action space."""

from __future__ import annotations

import numpy as np
import pytest

import eights
from eights.actions import ActionError, ActionSet
from eights.cards import card_text
from eights.engines.crazy_eights import CrazyEightsGame

ACTIONS = CrazyEightsGame.actions


def test_crazy_eights_has_58_actions_in_a_fixed_order():
    assert len(ACTIONS) == 58
    assert ACTIONS.texts[:52] == tuple(f"play {card_text(c)}" for c in range(52))
    assert ACTIONS.texts[52:] == ("suit C", "suit D", "suit H", "suit S", "draw", "pass")
    assert ACTIONS.parse("play AC") == 0
    assert ACTIONS.parse("play 10H") == 35
    assert ACTIONS.parse("play 8S") == 46
    assert ACTIONS.parse("play KS") == 51
    assert [ACTIONS.parse(t) for t in ("suit C", "suit D", "suit H", "suit S")] == [52, 53, 54, 55]
    assert (ACTIONS.parse("draw"), ACTIONS.parse("pass")) == (56, 57)


@pytest.mark.parametrize("action", range(58))
def test_every_action_round_trips_id_text_id(action):
    text = ACTIONS.text(action)
    assert ACTIONS.parse(text) == action
    assert ACTIONS.id(text) == action
    assert text in ACTIONS


@pytest.mark.parametrize(
    "text, canonical",
    [
        ("PLAY th", "play 10H"),
        ("play th", "play 10H"),
        ("  Play   10h  ", "play 10H"),
        ("play 8s", "play 8S"),
        ("PLAY QD", "play QD"),
        ("play as", "play AS"),
        ("SUIT h", "suit H"),
        ("suit hearts", "suit H"),
        ("Suit Spades", "suit S"),
        ("suit c", "suit C"),
        ("DRAW", "draw"),
        (" Pass ", "pass"),
    ],
)
def test_parse_is_forgiving_and_text_prints_the_canonical_form(text, canonical):
    action = ACTIONS.parse(text)
    assert ACTIONS.text(action) == canonical
    assert text in ACTIONS
    assert ACTIONS.coerce(text) == action


@pytest.mark.parametrize(
    "text", ["play 1H", "play", "jump", "", "suit X", "suit", "play 8S now", "draw 2", "play RJ"]
)
def test_unknown_action_texts_raise_action_error_naming_the_forms(text):
    with pytest.raises(ActionError) as err:
        ACTIONS.parse(text)
    message = str(err.value)
    assert f"action {text!r} is not in this variant's notation" in message
    assert "actions start with draw, pass, play, suit" in message
    assert "(for example 'play AC', 'pass')" in message
    assert text not in ACTIONS


def test_parse_refuses_non_text():
    with pytest.raises(ActionError, match="action 56 is not text"):
        ACTIONS.parse(56)


@pytest.mark.parametrize("action", [58, -1, 1000, True, "draw", 2.0])
def test_text_refuses_anything_but_an_id_in_range(action):
    with pytest.raises(ActionError, match=r"is not in the action space: ids are 0\.\.57"):
        ACTIONS.text(action)


def test_coerce_takes_ids_numpy_ids_and_texts():
    assert ACTIONS.coerce(46) == 46
    assert ACTIONS.coerce(np.int64(46)) == 46
    assert ACTIONS.coerce(np.int8(57)) == 57
    assert ACTIONS.coerce("play 8s") == 46
    assert type(ACTIONS.coerce(np.int64(3))) is int


@pytest.mark.parametrize(
    "action, fragment",
    [
        (58, r"action 58 is not in the action space: ids are 0\.\.57"),
        (-1, r"action -1 is not in the action space"),
        (True, r"action True is not in the action space"),
        (3.5, r"action 3\.5 is not in the action space"),
        (None, r"action None is neither an action id nor text"),
        ([1], r"action \[1\] is neither an action id nor text"),
    ],
)
def test_coerce_refuses_bad_actions(action, fragment):
    with pytest.raises(ActionError, match=fragment):
        ACTIONS.coerce(action)


def test_texts_of_and_action_errors_are_value_errors():
    assert ACTIONS.texts_of([0, 46, 54, 56, 57]) == ["play AC", "play 8S", "suit H", "draw", "pass"]
    assert issubclass(ActionError, ValueError)


def test_action_texts_must_be_unique():
    with pytest.raises(ValueError, match="action texts must be unique"):
        ActionSet(["draw", "pass", "draw"])


def test_engine_speaks_the_same_notation():
    game = eights.make_game("crazy_eights", seed=5)
    assert game.parse_action("PLAY th") == 35
    assert game.action_text(35) == "play 10H"
    assert game.legal_texts() == [game.action_text(a) for a in game.legal_actions()]


def test_engine_step_turns_a_bad_text_into_an_illegal_action_error_listing_legal_ones():
    game = eights.make_game("crazy_eights", seed=5)
    turn, legal = game.turn, ", ".join(game.legal_texts())
    with pytest.raises(eights.IllegalActionError) as err:
        game.step("play 1H")
    assert str(err.value).startswith("action 'play 1H' is not in this variant's notation")
    assert str(err.value).endswith(f"; legal now: {legal}")
    with pytest.raises(eights.IllegalActionError, match=r"ids are 0\.\.57; legal now: "):
        game.step(99)
    assert game.turn == turn
    assert ", ".join(game.legal_texts()) == legal


def test_text_accepts_numpy_ids_as_samplers_give_them():
    assert ACTIONS.text(np.int64(56)) == "draw"
