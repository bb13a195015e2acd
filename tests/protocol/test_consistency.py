"""A decide whose view fits no position is refused as ``bad_view`` naming the field.

Before, a view that passed the schema but could not be (an empty crazier
agenda: 18 of 3,200 mutated decides) reached the heuristic and came back as
``agent_error``, the bot blamed for the frontend's message.
eights/protocol/consistency.py deals a position from the view and compares.
"""

from __future__ import annotations

import logging
from collections import Counter

import pytest

from eights.engines import VARIANTS, make_game
from eights.protocol import messages as m
from eights.protocol.session import BotSession
from tests.protocol.attacks import mutated_decides


def session_for(variant: str, agent: str = "heuristic") -> BotSession:
    session = BotSession(agent, max_errors=10**4)
    config = make_game(variant, seed=0).config.to_dict()
    (ready,), _ = session.handle(m.encode(m.hello(variant, config)))
    assert ready["type"] == "ready", ready
    return session


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_mutated_views_never_reach_the_agent_as_its_failure(variant: str, caplog) -> None:
    """Every field of every view of a few positions, mutated (seeded): each decide is
    answered with an action or refused for the message, never as the agent's failure."""
    session = session_for(variant)
    codes: Counter[str] = Counter()
    with caplog.at_level(logging.ERROR):
        for field, decide in mutated_decides(variant, positions=12, seed=7):
            (reply,), _ = session.handle(m.encode(decide))
            code = reply.get("code", reply["type"])
            codes[code] += 1
            assert code != "agent_error", (field, reply)
            if code == "bad_view":  # it names a field, and says what would fit
                assert reply["message"].startswith(("view.", "legal:")), reply
                assert reply["id"] == decide["id"]
    assert codes["action"] and codes["bad_view"], codes


def test_an_empty_crazier_agenda_is_a_bad_view_naming_it() -> None:
    """The issue's case: the heuristic met it as an IndexError (agent_error)."""
    session = session_for("crazier_eights")
    game = make_game("crazier_eights", seed=1)
    decide = m.decide(game.view(game.current_player), 3, 1)
    decide["view"]["agenda"] = []
    (reply,), close = session.handle(m.encode(decide))
    assert not close
    assert reply["type"] == "error" and reply["code"] == "bad_view", reply
    assert reply["message"].startswith("view.agenda: [] does not fit"), reply
    assert reply["id"] == 3
    (reply,), _ = session.handle(m.encode(m.decide(game.view(game.current_player), 4, 1)))
    assert reply["type"] == "action", reply  # the session goes on


def test_a_field_that_contradicts_the_rest_is_named_with_what_would_fit() -> None:
    """A drawn card the position never drew: the message says what the position makes it."""
    session = session_for("crazy_eights")
    game = make_game("crazy_eights", seed=2)
    decide = m.decide(game.view(game.current_player), 1, 1)
    decide["view"]["drawn_card"] = decide["view"]["hand"][0]
    (reply,), _ = session.handle(m.encode(decide))
    assert reply["code"] == "bad_view", reply
    assert reply["message"] == (f"view.drawn_card: {decide['view']['hand'][0]!r} does not fit "
                                f"the rest of the view, whose position makes it None")


def test_legal_actions_no_position_allows_are_named() -> None:
    """A legal list the view's own hand and top card cannot give."""
    session = session_for("crazy_eights")
    game = make_game("crazy_eights", seed=2)
    decide = m.decide(game.view(game.current_player), 1, 1)
    playable = [a for a in decide["legal"] if a.startswith("play ")]
    assert len(playable) >= 2, decide["legal"]  # this deal: one dropped still leaves a choice
    decide["legal"] = [a for a in decide["legal"] if a != playable[0]]
    (reply,), _ = session.handle(m.encode(decide))
    assert reply["code"] == "bad_view", reply
    assert reply["message"].startswith("legal: no crazy_eights position fits"), reply


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_real_views_are_never_refused(variant: str) -> None:
    """Whole seeded games, every decision: the check refuses nothing a real game shows."""
    session = session_for(variant)
    for g in range(2):
        game = make_game(variant, seed=50 + g)
        while not game.game_over:
            view = game.view(game.current_player)
            (reply,), _ = session.handle(m.encode(m.decide(view, game.turn + 1, g + 1)))
            assert reply["type"] == "action", reply
            game.step(reply["action"])
