"""ExternalAgent over stdin/stdout: whole games, and every way a bot can misbehave.

Each misbehaviour is tried with both policies: ``fallback`` (a logged
warning, a random legal move, the game goes on) and ``forfeit`` (a
:class:`BotForfeit` before anything is played). The time limit is short
(0.2 s) but every assertion about time has a wide margin.
"""

from __future__ import annotations

import json
import logging
import time

import pytest

from eights.agents import make_agent, play_game, split_specs
from eights.config import ConfigError
from eights.engines import make_game
from eights.protocol import messages as m
from eights.protocol.errors import BotForfeit
from eights.protocol.external import ExternalAgent
from tests.protocol.conftest import builtin_bot, fake_bot

LOGGER = "eights.protocol.external"


def warnings(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records
            if r.name == LOGGER and r.levelno >= logging.WARNING]


@pytest.mark.parametrize("variant", ["crazy_eights", "livery_eights"])
def test_a_builtin_bot_over_stdio_plays_whole_games(variant: str, caplog) -> None:
    bot = make_agent(builtin_bot("heuristic"), variant, seed=1)
    others = [make_agent("random", variant, seed=2), make_agent("heuristic", variant, seed=3)]
    try:
        pids = set()
        for g in range(3):
            bot.seed(g)
            game = play_game(make_game(variant, seed=g, num_players=3), [others[0], bot,
                                                                         others[1]])
            assert game.game_over
            pids.add(bot._holder[0].proc.pid)
            bot.game_over(game.view(1), game.winners)
        assert len(pids) == 1, "one bot process serves every game"
        assert bot.decisions > 10 and not bot.failures
        assert warnings(caplog) == []
    finally:
        bot.close()
    assert bot._holder[0] is None


class Recorder:
    """Wraps an agent and keeps every view it was asked about."""

    def __init__(self, agent):
        self.agent, self.views = agent, []

    def seed(self, seed):
        self.agent.seed(seed)

    def act(self, view):
        self.views.append(view)
        return self.agent.act(view)


def test_the_bot_receives_exactly_the_view_and_nothing_more(tmp_path) -> None:
    record = tmp_path / "received.jsonl"
    bot = Recorder(ExternalAgent(fake_bot("good", "--record", str(record))))
    game = make_game("livery_eights", seed=3, num_players=3)
    play_game(game, [bot, make_agent("random", "livery_eights", 1),
                     make_agent("random", "livery_eights", 2)])
    bot.agent.close()
    received = [json.loads(line) for line in record.read_text().splitlines()]
    assert [r["type"] for r in received] == ["hello"] + ["decide"] * len(bot.views) + ["bye"]
    assert received[0] == m.hello("livery_eights", game.config.to_dict(), name="eights")
    for msg, view in zip(received[1:], bot.views, strict=False):
        assert msg["view"] == m.view_to_json(view)
        assert msg["legal"] == m.legal_texts(view)
        assert msg["time_limit_ms"] == 5000 and msg["game"] == 1


MODES = ["crash", "hang", "garbage", "unknown", "illegal"]
KIND = {"crash": "crash", "hang": "timeout", "garbage": "malformed", "unknown": "malformed",
        "illegal": "illegal"}
WORDS = {"crash": "crashing on purpose", "hang": "time limit of 0.2 s",
         "garbage": "not a JSON message", "unknown": "'confidence'", "illegal": "is not legal now"}


def misbehaving(mode: str, on_error: str) -> ExternalAgent:
    """A bot that answers well twice, then misbehaves (a hanging one hangs at once, so no good
    answer has to beat its 0.2 s limit on a busy machine)."""
    if mode == "hang":
        return make_agent(fake_bot("hang") + f"?time_limit=0.2,on_error={on_error},"
                          "max_restarts=1", "livery_eights", seed=4)
    return make_agent(fake_bot(mode, "--after", "2") + f"?time_limit=10,on_error={on_error}",
                      "livery_eights", seed=4)


@pytest.mark.parametrize("mode", MODES)
def test_a_misbehaving_bot_falls_back_and_the_game_goes_on(mode: str, caplog) -> None:
    bot = misbehaving(mode, "fallback")
    start = time.monotonic()
    try:
        for g in range(2):
            bot.seed(g)
            game = play_game(make_game("livery_eights", seed=g),
                             [bot, make_agent("random", "livery_eights", g)])
            assert game.game_over
    finally:
        bot.close()
    assert time.monotonic() - start < 20  # bounded however the bot behaves
    assert bot.failures[KIND[mode]] >= 1
    logged = warnings(caplog)
    assert any(KIND[mode] in w and WORDS[mode] in w and "fallback" in w for w in logged), logged
    if mode != "hang":
        assert bot.decisions >= 2  # the good answers before it went wrong were played


@pytest.mark.parametrize("mode", MODES)
def test_a_misbehaving_bot_forfeits_without_touching_the_game(mode: str, caplog) -> None:
    bot = misbehaving(mode, "forfeit")
    game = make_game("livery_eights", seed=5)
    seats = [bot, make_agent("random", "livery_eights", 1)]
    try:
        with pytest.raises(BotForfeit) as info:
            while not game.game_over:
                seat = game.current_player
                before = game.snapshot()
                turn = game.turn
                game.step(seats[seat].act(game.view(seat)))
    finally:
        bot.close()
    forfeit = info.value
    assert forfeit.kind == KIND[mode] and forfeit.seat == 0 and WORDS[mode] in forfeit.detail
    assert forfeit.agent == bot.name and "forfeits" in str(forfeit)
    assert game.turn == turn and not game.game_over and game.current_player == 0
    assert game.snapshot()[2:] == before[2:]
    assert any("forfeits" in w for w in warnings(caplog))


def test_a_crashed_bot_is_restarted_and_plays_on(caplog) -> None:
    bot = make_agent(fake_bot("crash", "--after", "3") + "?max_restarts=100", "livery_eights", 1)
    try:
        game = play_game(make_game("livery_eights", seed=1, num_players=2),
                         [bot, make_agent("random", "livery_eights", 2)])
    finally:
        bot.close()
    assert game.game_over
    assert bot.failures["crash"] >= 1
    assert bot.decisions > bot.failures["crash"]  # it kept answering between crashes
    assert any("exited with status 3" in w for w in warnings(caplog))


def test_a_bot_that_gives_up_is_asked_again_next_game() -> None:
    bot = make_agent(fake_bot("crash") + "?max_restarts=0", "livery_eights", 1)
    try:
        for g in range(2):
            bot.seed(g)
            play_game(make_game("livery_eights", seed=g),
                      [bot, make_agent("random", "livery_eights", 2)])
            assert bot.failures["crash"] == g + 1  # one crash per game, then no more asking
            assert bot.failures["gave_up"] >= 1
    finally:
        bot.close()


def test_a_late_answer_is_not_taken_for_a_new_decision() -> None:
    bot = make_agent(fake_bot("stale") + "?time_limit=0.2", "livery_eights", 1)
    try:
        game = make_game("livery_eights", seed=2)
        view = game.view(game.current_player)
        assert bot.act(view) in view.legal_actions
        assert bot.failures == {"timeout": 1}
    finally:
        bot.close()


@pytest.mark.parametrize(("mode", "startup", "words"), [
    ("refuse", 30, "refused the hello: unsupported_protocol: fake_bot speaks eights-bot/0"),
    ("mute", 0.3, "did not answer the hello within 0.3 s"),
])
def test_a_failed_handshake_is_a_clear_failure(mode: str, startup: float, words: str) -> None:
    bot = make_agent(fake_bot(mode) + f"?startup_timeout={startup},on_error=forfeit",
                     "livery_eights")
    game = make_game("livery_eights", seed=2)
    with pytest.raises(BotForfeit) as info:
        bot.act(game.view(game.current_player))
    bot.close()
    assert info.value.kind == "handshake" and words in info.value.detail


def test_specs_carry_options_and_bad_ones_are_refused() -> None:
    bot = make_agent(fake_bot("good") + "?time_limit=0.5,on_error=forfeit,max_restarts=0",
                     "crazy_eights")
    assert (bot.time_limit, bot.on_error, bot.max_restarts) == (0.5, "forfeit", 0)
    assert isinstance(make_agent("ws://127.0.0.1:9", "crazy_eights"), ExternalAgent)
    with pytest.raises(ConfigError, match="time_limit must be seconds per decision"):
        make_agent(fake_bot("good") + "?time_limit=-1", "crazy_eights")
    with pytest.raises(ConfigError, match=r"'colour=red' is not an option.*time_limit"):
        make_agent(fake_bot("good") + "?colour=red", "crazy_eights")
    with pytest.raises(ConfigError, match="on_error must be fallback or forfeit"):
        make_agent(fake_bot("good") + "?on_error=sulk", "crazy_eights")
    with pytest.raises(ConfigError, match="'no-such-bot-here' is not found"):
        make_agent("exec:no-such-bot-here --fast", "crazy_eights")
    with pytest.raises(ConfigError, match="exec: needs a command"):
        make_agent("exec:", "crazy_eights")
    with pytest.raises(ConfigError, match="ws:// or wss:// URL"):
        make_agent("ws:localhost", "crazy_eights")


def test_split_specs_keeps_external_specs_whole() -> None:
    text = "heuristic,exec:node bot.js?time_limit=1,on_error=forfeit,ws://127.0.0.1:8765,random"
    assert split_specs(text) == ["heuristic", "exec:node bot.js?time_limit=1,on_error=forfeit",
                                 "ws://127.0.0.1:8765", "random"]


def test_a_bot_that_cannot_be_reached_falls_back(caplog) -> None:
    bot = make_agent("ws://127.0.0.1:9?startup_timeout=2", "livery_eights", seed=1)
    game = make_game("livery_eights", seed=2)
    view = game.view(game.current_player)
    assert bot.act(view) in view.legal_actions
    assert bot.failures["crash"] == 1
    assert any("could not connect to ws://127.0.0.1:9" in w for w in warnings(caplog))


def test_the_bot_process_stops_when_the_agent_is_closed() -> None:
    bot = make_agent(fake_bot("good"), "livery_eights")
    game = make_game("livery_eights", seed=2)
    bot.act(game.view(game.current_player))
    proc = bot._holder[0].proc
    bot.close()
    assert proc.wait(timeout=5) == 0  # it read the bye and exited by itself
    hung = make_agent(fake_bot("hang") + "?time_limit=0.2", "livery_eights")
    hung.act(game.view(game.current_player))  # times out: the hung process is killed
    assert hung._holder[0] is None and hung.failures == {"timeout": 1}


def test_what_the_agent_did_about_failures_is_counted() -> None:
    bot = make_agent(fake_bot("crash", "--after", "3") + "?max_restarts=100", "livery_eights", 1)
    try:
        game = play_game(make_game("livery_eights", seed=1, num_players=2),
                         [bot, make_agent("random", "livery_eights", 2)])
    finally:
        bot.close()
    assert game.game_over
    crashes = bot.failures["crash"]
    assert crashes >= 1
    assert bot.handled["fallback"] == crashes  # each failed decision was played for it
    assert bot.handled["restart"] in (crashes - 1, crashes)  # the last may end the game
    assert "failed_start" not in bot.handled  # it answered every hello
    assert bot.failure_counts() == bot.failures + bot.handled


def test_a_bot_that_dies_at_startup_counts_failed_starts_and_restarts() -> None:
    from tests.protocol.conftest import python_bot

    dead = python_bot("-c", "import sys; sys.exit(3)") + "?max_restarts=2"
    bot = make_agent(dead, "livery_eights", seed=1)
    game = make_game("livery_eights", seed=2)
    view = game.view(game.current_player)
    try:
        for _ in range(4):
            assert bot.act(view) in view.legal_actions
    finally:
        bot.close()
    # three starts fail (the first start, then two restarts), then it is given up this game
    assert bot.handled == {"failed_start": 3, "restart": 2, "fallback": 4}
    assert bot.failures == {"crash": 3, "gave_up": 1}
    assert bot.decisions == 0


def test_a_closed_bot_is_started_again_without_counting_a_restart() -> None:
    bot = make_agent(fake_bot("good"), "livery_eights")
    game = make_game("livery_eights", seed=2)
    view = game.view(game.current_player)
    try:
        bot.act(view)
        bot.close()
        bot.act(view)
    finally:
        bot.close()
    assert not bot.handled and not bot.failures and bot.decisions == 2
