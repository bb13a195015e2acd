"""ExternalAgent over stdin/stdout: whole games, and every way a bot can misbehave.

Each misbehaviour is tried with both policies: ``fallback`` (a logged
warning, a random legal move, the game goes on) and ``forfeit`` (a
:class:`BotForfeit` before anything is played). The time limit is short
(0.2 s) but every assertion about time has a wide margin.
"""

from __future__ import annotations

import json
import logging
import os

import pytest

from eights.agents import make_agent, play_game, split_specs
from eights.config import ConfigError
from eights.engines import make_game
from eights.protocol import messages as m
from eights.protocol.errors import BotForfeit
from eights.protocol.external import ExternalAgent
from eights.tournament import Tournament, run_tournament
from eights.tournament.text import failures_text
from tests.protocol.conftest import BOTS, builtin_bot, fake_bot, python_bot
from tests.protocol.test_channels import gone, within

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
    try:
        for g in range(2):
            bot.seed(g)
            game = play_game(make_game("livery_eights", seed=g),
                             [bot, make_agent("random", "livery_eights", g)])
            assert game.game_over
    finally:
        bot.close()
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
    bot = make_agent(fake_bot("crash", "--after", "3") + "?max_restarts=100,"
                     "max_failures_per_game=100", "livery_eights", 1)
    try:
        game = play_game(make_game("livery_eights", seed=1, num_players=2),
                         [bot, make_agent("random", "livery_eights", 2)])
    finally:
        bot.close()
    assert game.game_over
    crashes = bot.failures["crash"]
    assert crashes >= 1
    assert bot.decisions > crashes  # it kept answering between crashes
    assert any("exited with status 3" in w for w in warnings(caplog))
    # what the agent did about its failures is counted too
    assert bot.handled["fallback"] == crashes  # each failed decision was played for it
    assert bot.handled["restart"] in (crashes - 1, crashes)  # the last may end the game
    assert "failed_start" not in bot.handled  # it answered every hello
    assert bot.failure_counts() == bot.failures + bot.handled


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
    # (text only: nothing connects, so the URL needs no port)
    text = "heuristic,exec:node bot.js?time_limit=1,on_error=forfeit,ws://bots.example/c8,random"
    assert split_specs(text) == ["heuristic", "exec:node bot.js?time_limit=1,on_error=forfeit",
                                 "ws://bots.example/c8", "random"]


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


# ---------------------------------------------------------------- options are checked
@pytest.mark.parametrize(("option", "value"), [
    ("time_limit", "inf"), ("time_limit", "nan"), ("time_limit", "1e999"), ("time_limit", "0"),
    ("time_limit", "86401"), ("startup_timeout", "inf"), ("startup_timeout", "-inf"),
    ("startup_timeout", "-1"), ("max_restarts", "-1"), ("max_restarts", "1.5"),
    ("max_restarts", "1000001"), ("max_failures_per_game", "0"),
    ("max_failures_per_game", "inf"), ("max_failures", "0"), ("max_failures", "many"),
    ("max_message_bytes", "1023"), ("max_message_bytes", str(64 * 2**20 + 1)),
])
def test_every_numeric_option_must_be_finite_and_in_range(option: str, value: str) -> None:
    spec = fake_bot("good") + f"?{option}={value}"
    with pytest.raises(ConfigError) as info:
        make_agent(spec, "crazy_eights")
    text = str(info.value)
    assert text.startswith(f"agent spec {spec!r}: {option}={value!r} is not allowed; "
                           f"{option} must be ")
    assert ("finite" in text) == (option in ("time_limit", "startup_timeout"))


def test_options_at_the_ends_of_their_ranges_are_taken() -> None:
    bot = make_agent(fake_bot("good") + "?time_limit=86400,startup_timeout=1e-3,max_restarts=0,"
                     "max_failures_per_game=1,max_failures=1000000,max_message_bytes=1024",
                     "crazy_eights")
    assert (bot.time_limit, bot.startup_timeout, bot.max_restarts) == (86400.0, 1e-3, 0)
    assert (bot.max_failures_per_game, bot.max_failures, bot.max_message_bytes) == (1, 10**6,
                                                                                    1024)
    defaults = make_agent(fake_bot("good"), "crazy_eights")
    assert (defaults.max_failures_per_game, defaults.max_failures) == (5, 50)


def test_options_given_in_python_are_checked_too() -> None:
    target = fake_bot("good")
    with pytest.raises(ConfigError, match=r"time_limit=inf is not allowed; time_limit must be "
                                          r"seconds per decision, a finite number"):
        ExternalAgent(target, time_limit=float("inf"))
    with pytest.raises(ConfigError, match="startup_timeout='soon' is not allowed"):
        ExternalAgent(target, startup_timeout="soon")
    with pytest.raises(ConfigError, match="max_failures=0 is not allowed; max_failures must be"):
        ExternalAgent(target, max_failures=0)
    assert ExternalAgent(target, time_limit=2).time_limit == 2.0


@pytest.mark.parametrize("command", ["'x", "bot.py 'unclosed", "bot.py \\"])
def test_a_command_that_cannot_be_split_is_a_config_error(command: str) -> None:
    spec = f"exec:{command}"
    with pytest.raises(ConfigError) as info:
        make_agent(spec + "?time_limit=1", "crazy_eights")
    assert f"agent spec {spec!r}: the command cannot be split like a shell would" in str(info.value)


def test_a_command_with_a_nul_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="holds a NUL character"):
        make_agent(fake_bot("good") + " x\0y", "crazy_eights")


# ---------------------------------------------------------------- runaway bots
def rogue_bot(mode: str, *args: str) -> str:
    return python_bot(str(BOTS / "rogue_bot.py"), mode, *args)


def test_a_bot_closed_with_a_child_on_its_pipes_stops_in_time(tmp_path) -> None:
    pidfile = tmp_path / "child.pid"
    bot = make_agent(rogue_bot("spawn", "--pidfile", str(pidfile)), "livery_eights")
    game = make_game("livery_eights", seed=2)
    view = game.view(game.current_player)
    assert bot.act(view) in view.legal_actions and bot.decisions == 1
    child = int(pidfile.read_text())
    try:
        assert within(5, bot.close) < 5  # bye; it exits; its child holds stdout and is stopped
        assert gone(child)
    finally:
        if not gone(child, wait=0):
            os.kill(child, 9)


@pytest.mark.parametrize("mode", ["flood-stdout", "flood-stderr"])
def test_a_flooding_bot_is_a_failing_bot(mode: str, caplog) -> None:
    bot = make_agent(rogue_bot(mode, "--megabytes", "210"), "livery_eights", seed=1)
    game = make_game("livery_eights", seed=2)
    view = game.view(game.current_player)
    try:
        assert bot.act(view) in view.legal_actions
        assert bot.failures == {"flood": 1} and bot.handled == {"fallback": 1}
        assert bot._holder[0] is None  # it was stopped
        assert any("flood" in w and "fallback" in w for w in warnings(caplog))
        bot.act(view)  # started again (and it floods again)
        assert bot.handled["restart"] == 1
    finally:
        bot.close()
    forfeiting = make_agent(rogue_bot(mode, "--megabytes", "210") + "?on_error=forfeit",
                            "livery_eights")
    with pytest.raises(BotForfeit) as info:
        forfeiting.act(view)
    forfeiting.close()
    assert info.value.kind == "flood"


# ---------------------------------------------------------------- failure budgets
def first_view(seed: int):
    game = make_game("livery_eights", seed=seed)
    return game.view(game.current_player)


def test_past_its_budget_for_the_game_a_bot_is_not_asked_again_that_game(caplog) -> None:
    """A bot that crashes at every second decision: never twice in a row, yet only 3 a game."""
    bot = make_agent(fake_bot("crash", "--after", "1") + "?max_restarts=100,"
                     "max_failures_per_game=3", "livery_eights", seed=1)
    view = first_view(2)
    try:
        for _ in range(10):  # ten decisions of one game
            assert bot.act(view) in view.legal_actions
        assert bot.failures == {"crash": 3, "gave_up": 4}
        assert bot.decisions == 3 and bot.handled == {"restart": 2, "fallback": 7}
        assert any("3 failures this game stopped it (max_failures_per_game=3)" in w
                   for w in warnings(caplog))
        bot.seed(1)  # the next game: it is asked again
        bot.act(view)
        assert bot.decisions == 4 and bot.handled["restart"] == 3
    finally:
        bot.close()


def test_wrong_answers_spend_no_budget() -> None:
    bot = make_agent(fake_bot("illegal") + "?max_failures_per_game=1,max_failures=1",
                     "livery_eights", seed=1)
    view = first_view(2)
    try:
        for _ in range(5):
            bot.act(view)
    finally:
        bot.close()
    assert bot.failures == {"illegal": 5} and bot.handled == {"fallback": 5}


def test_past_its_budget_in_all_a_bot_forfeits_every_game_without_being_started() -> None:
    bot = make_agent(fake_bot("crash", "--after", "1") + "?max_restarts=100,"
                     "max_failures_per_game=2,max_failures=5", "livery_eights", seed=1)
    outcomes = []
    for g in range(4):
        bot.seed(g)
        view = first_view(g)
        for _ in range(6):
            try:
                bot.act(view)
                outcomes.append(g)
            except BotForfeit as forfeit:
                assert forfeit.kind == "retired" and "max_failures=5" in forfeit.detail
                assert bot._holder[0] is None  # stopped for good, not started again
                outcomes.append(f"forfeit {g}")
                break
    # game 2: good, crash (the 5th: retired, a fallback), then a forfeit; game 3: at once
    assert outcomes == [0] * 6 + [1] * 6 + [2, 2, "forfeit 2", "forfeit 3"]
    assert bot.failures == {"crash": 5, "gave_up": 4, "retired": 2}
    assert bot.handled["restart"] == 4  # after each crash but the last
    assert bot.decisions == 5


def hang_every_third(starts, options: str) -> str:
    return rogue_bot("hang-every", "--every", "3", "--starts", str(starts)) + options


def test_a_bot_hanging_now_and_then_costs_a_tournament_bounded_time(tmp_path) -> None:
    starts = tmp_path / "starts"
    bot = hang_every_third(starts, "?time_limit=0.2,max_failures_per_game=2,max_failures=6")
    tournament = Tournament("livery_eights", ("heuristic", bot), games=8, seed=1)
    result = run_tournament(tournament, report=False)  # six timeouts in all, then no asking
    assert result.games_played == 8
    standing = result.standing(bot)
    failures = standing.failures
    assert failures["timeout"] == 6  # every failure it had; the 6th retired it
    assert standing.forfeits == failures["retired"] >= 1  # each game after the 6th failure
    assert len(starts.read_text().splitlines()) == failures["restart"] + 1  # none once retired
    shown = failures_text(failures, standing.forfeits)
    assert shown.startswith(f"{failures['fallback']} fallbacks, {failures['restart']} restarts, "
                            f"{standing.forfeits} forfeit") and "(6 timeouts" in shown


@pytest.mark.long
def test_a_bot_hanging_now_and_then_with_the_default_budgets(tmp_path) -> None:
    """The issue's case (hanging at every third decision, time_limit=0.5) with the defaults."""
    starts = tmp_path / "starts"
    bot = hang_every_third(starts, "?time_limit=0.5")
    tournament = Tournament("livery_eights", ("heuristic", bot), games=40, seed=1)
    result = run_tournament(tournament, report=False)  # 50 failures, then forfeits
    standing = result.standing(bot)
    assert result.games_played == 40 and standing.failures["timeout"] == 50
    assert standing.forfeits == standing.failures["retired"] >= 1
    assert len(starts.read_text().splitlines()) == standing.failures["restart"] + 1
