"""The stdio bot: ``eights bot`` and ``python -m eights.protocol.stdio`` answer JSON lines."""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys

import pytest

from eights.engines import make_game
from eights.protocol import messages as m
from eights.protocol.session import BotSession
from eights.protocol.stdio import serve_stdio


def lines_for(game) -> list[str]:
    view = game.view(game.current_player)
    return [m.encode(m.hello(game.variant, game.config.to_dict())),
            m.encode(m.decide(view, 1, 1, 1000))]


def run_stdio(text: bytes, **options) -> tuple[list[dict], int]:
    out = io.StringIO()
    status = serve_stdio(BotSession("random", **options), io.BytesIO(text), out)
    return [json.loads(line) for line in out.getvalue().splitlines()], status


def test_answers_each_line_and_ends_at_bye() -> None:
    game = make_game("crazy_eights", seed=1)
    hello, decide = lines_for(game)
    text = "\n".join([hello, "", decide, m.encode(m.bye()), decide]).encode() + b"\n"
    replies, status = run_stdio(text)
    assert status == 0
    assert [r["type"] for r in replies] == ["ready", "action"]  # nothing after the bye
    assert replies[1]["action"] in game.legal_texts()


def test_an_overlong_line_is_refused_and_skipped() -> None:
    game = make_game("crazy_eights", seed=1)
    hello, decide = lines_for(game)
    text = (hello + "\n" + "x" * 10_000 + "\n" + decide + "\r\n").encode()
    replies, status = run_stdio(text, max_message_bytes=4096)
    assert [r["type"] for r in replies] == ["ready", "error", "action"]
    assert replies[1]["code"] == "too_large" and "10,001 bytes" in replies[1]["message"]
    assert status == 0  # the end of input ends the bot


def test_eights_bot_command_speaks_the_protocol() -> None:
    game = make_game("livery_eights", seed=2, num_players=3)
    hello, decide = lines_for(game)
    unknown = json.dumps({**json.loads(decide), "hint": "play 8S"})
    text = "\n".join([hello, decide, unknown, "not json", m.encode(m.bye())]) + "\n"
    proc = subprocess.run([sys.executable, "-m", "eights.cli", "bot", "--agent", "heuristic",
                           "--variant", "livery_eights"], input=text.encode(),
                          capture_output=True, timeout=60)
    assert proc.returncode == 0, proc.stderr.decode()
    replies = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    assert [r["type"] for r in replies] == ["ready", "action", "error", "error"]
    assert replies[0]["name"] == "eights heuristic"
    assert replies[1]["action"] in game.legal_texts()
    assert replies[2]["code"] == "unknown_field" and "'hint'" in replies[2]["message"]
    assert replies[2]["id"] == 1
    assert replies[3]["code"] == "bad_json"


def test_a_bad_agent_spec_is_a_clear_error() -> None:
    proc = subprocess.run([sys.executable, "-m", "eights.protocol.stdio", "--agent", "nobody"],
                          input=b"", capture_output=True, timeout=60)
    assert proc.returncode == 2
    assert "agent spec 'nobody' is not known" in proc.stderr.decode()


#: (eights bot option, a value it refuses): every numeric option has some
BAD_BOT_OPTIONS = [
    ("--max-message-bytes", "-5"), ("--max-message-bytes", "0"), ("--max-message-bytes", "1023"),
    ("--max-message-bytes", "1e9"), ("--max-message-bytes", str(1 << 40)),
    ("--max-errors", "0"), ("--max-errors", "-1"), ("--max-errors", "nan"),
    ("--max-errors", "100000"), ("--seed", "x"),
]


def test_every_numeric_bot_option_is_checked() -> None:
    from tests.protocol.test_server import numeric_options

    assert {option for option, _ in BAD_BOT_OPTIONS} == numeric_options("bot")


@pytest.mark.parametrize(("option", "value"), BAD_BOT_OPTIONS)
@pytest.mark.parametrize("command", ["eights bot", "python -m eights.protocol.stdio"])
def test_bot_options_out_of_range_are_usage_errors(command: str, option: str, value: str,
                                                   capsys) -> None:
    from eights.cli import main as cli_main
    from eights.protocol.stdio import main as stdio_main

    # an unknown agent fails too, so a value wrongly taken ends the command instead of reading
    args = ["--agent", "nobody", option, value]
    with pytest.raises(SystemExit) as info:
        cli_main(["bot", *args]) if command == "eights bot" else stdio_main(args)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert f"{command}: error: argument {option}: " in err, err
    if option != "--seed":
        assert f"{value} is not allowed; it must be an integer from " in err, err


def test_a_bad_log_level_is_a_usage_error_and_any_case_is_taken(capsys) -> None:
    from eights.protocol.stdio import add_arguments

    parser = argparse.ArgumentParser(prog="bot")
    add_arguments(parser)
    assert parser.parse_args(["--log-level", "info"]).log_level == "INFO"
    with pytest.raises(SystemExit):
        parser.parse_args(["--log-level", "loud"])
    assert "argument --log-level: invalid choice: 'LOUD'" in capsys.readouterr().err


def test_eights_bot_bad_numbers_are_errors_not_tracebacks() -> None:
    done = subprocess.run([sys.executable, "-m", "eights.cli", "bot", "--max-message-bytes",
                           "-5"], input=b"", capture_output=True, timeout=60)
    assert done.returncode == 2, done
    err = done.stderr.decode()
    assert "error: argument --max-message-bytes: -5 is not allowed; it must be an integer " \
           "from 1,024 to 67,108,864 (bytes)" in err, err
    assert "Traceback" not in err


def test_a_too_large_line_says_the_history_may_be_shortened() -> None:
    game = make_game("crazy_eights", seed=1)
    hello, _ = lines_for(game)
    replies, _ = run_stdio((hello + "\n" + "x" * 5000 + "\n").encode(), max_message_bytes=4096)
    assert replies[1]["code"] == "too_large"
    assert "history, which is optional" in replies[1]["message"]
