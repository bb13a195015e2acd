"""The bot's side of a session: handshake, versions, decisions, and errors that keep it going."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import pytest

from eights.agents import AGENT_KINDS, Agent
from eights.engines import make_game
from eights.protocol import messages as m
from eights.protocol.session import BotSession

BUILT_IN_TEXT = (Path(__file__).resolve().parents[2] / "eights" / "data"
                 / "crazier_eights.toml").read_text(encoding="utf-8")


def say(session: BotSession, message: dict | str) -> tuple[list[dict], bool]:
    return session.handle(message if isinstance(message, str) else m.encode(message))


def hello(variant: str = "crazy_eights", **config) -> dict:
    return m.hello(variant, make_game(variant, seed=0, **config).config.to_dict(), name="tests")


def play(session: BotSession, variant: str, seed: int, **config) -> list[str]:
    """A whole game, every decision asked of the session; the actions it chose."""
    game = make_game(variant, seed=seed, **config)
    chosen = []
    while not game.game_over:
        view = game.view(game.current_player)
        (reply,), close = say(session, m.decide(view, game.turn + 1, seed, None))
        assert reply == {"type": "action", "id": game.turn + 1, "action": reply["action"]}
        assert not close
        chosen.append(reply["action"])
        game.step(reply["action"])
    for seat in range(game.num_players):
        assert say(session, m.game_over(game.view(seat), seed, game.winners)) == ([], False)
    return chosen


@pytest.mark.parametrize("variant", ["crazy_eights", "livery_eights"])
def test_a_session_plays_whole_games(variant: str) -> None:
    session = BotSession("heuristic")
    (ready,), _ = say(session, hello(variant, num_players=3))
    assert ready == {"type": "ready", "protocol": "eights-bot/2", "name": "eights heuristic"}
    for seed in range(3):
        assert play(session, variant, seed, num_players=3)
    assert say(session, m.bye()) == ([], True)


def test_a_seeded_session_is_reproducible() -> None:
    runs = []
    for _ in range(2):
        session = BotSession("random", seed=5)
        say(session, hello("livery_eights"))
        runs.append([play(session, "livery_eights", seed) for seed in range(3)])
    assert runs[0] == runs[1]


def only_error(replies: tuple[list[dict], bool]) -> dict:
    (reply,), close = replies
    assert reply["type"] == "error" and not close
    return reply


def test_decisions_need_a_hello_first() -> None:
    session = BotSession("random")
    game = make_game("crazy_eights", seed=1)
    err = only_error(say(session, m.decide(game.view(game.current_player), 9, 1)))
    assert err["code"] == "out_of_order" and err["id"] == 9 and "hello first" in err["message"]


def test_a_bot_refuses_a_protocol_it_does_not_speak_and_accepts_one_it_does() -> None:
    session = BotSession("random")
    newer = {**hello(), "protocol": "eights-bot/3", "features": ["undo"]}
    err = only_error(say(session, newer))
    assert err["code"] == "unsupported_protocol"
    assert "'eights-bot/3' is not spoken here" in err["message"]
    assert "eights-bot/2" in err["message"]
    (ready,), _ = say(session, hello())
    assert ready["type"] == "ready"


def test_variant_and_config_are_checked() -> None:
    session = BotSession("random", variant="livery_eights")
    err = only_error(say(session, hello("crazy_eights")))
    assert err["code"] == "unsupported_variant" and "plays livery_eights" in err["message"]
    bad = {**hello("livery_eights"), "config": {"num_players": 99}}
    err = only_error(say(session, bad))
    assert err["code"] == "bad_config" and "num_players=99" in err["message"]
    err = only_error(say(session, {**hello("livery_eights"), "config": {"colour": "red"}}))
    assert err["code"] == "bad_config" and "unknown option(s) colour" in err["message"]


def test_a_hello_may_not_name_a_card_file_on_the_bots_machine() -> None:
    """A frontend chooses the game, not which file the bot opens: card_file is refused."""
    session = BotSession("random")
    bad = {**hello("crazier_eights"), "config": {"num_players": 2,
                                                 "card_file": "/etc/passwd"}}
    err = only_error(say(session, bad))
    assert err["code"] == "bad_config"
    assert ("a hello's config names a file (card_file), which is never opened from stored or "
            "received data; give the content instead (card_set and card_set_sha256") \
        in err["message"]
    assert "passwd" not in err["message"]
    assert say(session, hello("crazier_eights"))[0][0]["type"] == "ready"


def test_a_hello_carries_its_card_set_and_the_bot_plays_those_cards(tmp_path) -> None:
    """The frontend's own card set travels in the hello (its text and hash), so a bot
    plays the frontend's cards without a file on its machine; a hash that does not match
    the text is refused."""
    path = tmp_path / "my_cards.toml"
    path.write_text(BUILT_IN_TEXT.replace('name = "Castle"', 'name = "Keep"'), encoding="utf-8")
    greeting = hello("crazier_eights", card_file=str(path))
    assert greeting["config"]["card_file"] is None
    assert greeting["config"]["card_set_sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
    path.unlink()  # the bot never needed it
    session = BotSession("heuristic")
    assert say(session, greeting)[0][0]["type"] == "ready"
    assert session.config.cards.cardset.card_name(session.config.cards.cardset.parse("KO")) \
        == "Keep"
    assert play(session, "crazier_eights", 1, card_set=greeting["config"]["card_set"])
    forged = {**greeting, "config": {**greeting["config"], "card_set_sha256": "0" * 64}}
    err = only_error(say(session, forged))
    assert err["code"] == "bad_config" and "card_set_sha256='0000" in err["message"]
    assert "does not match card_set, whose SHA-256 is " in err["message"]


def test_a_new_hello_changes_the_variant() -> None:
    session = BotSession("heuristic")
    say(session, hello("crazy_eights"))
    say(session, hello("livery_eights", num_players=4))
    assert play(session, "livery_eights", 0, num_players=4)


def test_bad_decisions_are_refused_and_the_session_goes_on() -> None:
    session = BotSession("random")
    say(session, hello())
    game = make_game("crazy_eights", seed=2)
    msg = m.decide(game.view(game.current_player), 4, 1)
    err = only_error(say(session, {**msg, "legal": ["fly away", "draw"]}))
    assert err["code"] == "bad_value" and err["id"] == 4 and "legal[0]" in err["message"]
    other = 1 - game.current_player
    err = only_error(say(session, {**msg, "view": m.decide(game.view(other), 4, 1)["view"]}))
    assert "current_player" in err["message"] and err["id"] == 4
    err = only_error(say(session, {**msg, "view": {**msg["view"], "x": 1}}))
    assert err["code"] == "unknown_field" and err["id"] == 4
    (reply,), _ = say(session, msg)
    assert reply["type"] == "action" and reply["action"] in msg["legal"]


def test_a_decide_may_leave_out_its_time_limit() -> None:
    """time_limit_ms may be null, so leaving it out means the same: no limit (it was
    refused as a missing field)."""
    session = BotSession("random")
    say(session, hello())
    game = make_game("crazy_eights", seed=2)
    msg = m.decide(game.view(game.current_player), 1, 1)
    del msg["time_limit_ms"]
    (reply,), _ = say(session, msg)
    assert reply["type"] == "action" and reply["action"] in msg["legal"], reply


def test_an_agent_failure_is_reported_not_fatal(monkeypatch) -> None:
    class Broken(Agent):
        def act(self, view):
            raise RuntimeError("out of ideas")

    monkeypatch.setitem(AGENT_KINDS, "broken", lambda variant, arg, seed: Broken(seed))
    session = BotSession("broken")
    say(session, hello())
    game = make_game("crazy_eights", seed=2)
    err = only_error(say(session, m.decide(game.view(game.current_player), 1, 1)))
    assert err["code"] == "agent_error" and "RuntimeError: out of ideas" in err["message"]


def test_too_many_errors_in_a_row_end_the_session() -> None:
    session = BotSession("random", max_errors=3)
    assert not say(session, "garbage")[1]
    say(session, hello())  # a good message resets the count
    assert not say(session, "garbage")[1]
    assert not say(session, "garbage")[1]
    replies, close = say(session, "garbage")
    assert close and [r["code"] for r in replies] == ["bad_json", "too_many_errors"]


def test_informational_messages_get_no_answer() -> None:
    session = BotSession("random")
    say(session, hello())
    assert say(session, m.error("illegal_action", "that was not legal", 3)) == ([], False)
    game = make_game("crazy_eights", seed=random.Random(1).randrange(100))
    bad_over = m.game_over(game.view(0), 1, [5])
    err = only_error(say(session, bad_over))
    assert "winners" in err["message"]
    assert json.loads(m.encode(bad_over))["winners"] == [5]


def test_a_hello_for_a_table_the_agent_cannot_play_is_bad_config() -> None:
    session = BotSession("policy")
    err = only_error(say(session, hello("crazy_eights", num_players=3)))
    assert err["code"] == "bad_config"
    assert "'policy' cannot play this table" in err["message"]
    assert "shipped models" in err["message"] and "crazy_eights-2p" in err["message"]
    (ready,), _ = say(session, hello("crazy_eights"))  # two players: a model is shipped
    assert ready["type"] == "ready"
