"""The stdio bot: ``eights bot`` and ``python -m eights.protocol.stdio`` answer JSON lines."""

from __future__ import annotations

import io
import json
import subprocess
import sys

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
