"""The sample Node.js frontend (examples/frontends/crazy_eights_table.js) plays whole games.

It deals its own crazy_eights game in JavaScript and asks ``eights serve``
for every decision over its own WebSocket client, sending only the required
view fields. The test reads the game it prints: it must end, every answer
must be one of the legal actions the table offered, and the table's legal
plays must follow crazy_eights' rules (match the suit to follow or the top
card's rank; 8s are wild).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys

import pytest

from tests.protocol.conftest import ROOT

pytestmark = pytest.mark.skipif(shutil.which("node") is None,
                                reason="node is not on PATH (the sample frontend is Node.js)")

TABLE = "examples/frontends/crazy_eights_table.js"
DECISION = re.compile(r"^turn \d+, seat (\d+) \(([a-z ]+)\): hand (.+), top (\S+), "
                      r"suit ([CDHS]); legal: (.+) -> (.+)$")


@pytest.fixture(scope="module")
def server_url():
    """``eights serve`` on a free port, as a frontend author would run it."""
    proc = subprocess.Popen([sys.executable, "-m", "eights.cli", "serve", "--agent", "heuristic",
                             "--variant", "crazy_eights", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert "serving heuristic playing crazy_eights at ws://" in line, line
        yield line.split(" at ")[1].split()[0]
    finally:
        proc.terminate()
        proc.wait(10)


def playable(card: str, top: str, suit: str) -> bool:
    return card[:-1] == "8" or card[-1] == suit or card[:-1] == top[:-1]


def check_decision(match: re.Match) -> None:
    _, phase, hand, top, suit, legal_text, answer = match.groups()
    legal = legal_text.split(", ")
    assert answer in legal, match.group(0)
    assert len(legal) == len(set(legal)) > 1
    if phase == "choose suit":
        assert legal == ["suit C", "suit D", "suit H", "suit S"]
        return
    assert phase == "play", match.group(0)
    cards = hand.split()
    plays = sorted(set(a.removeprefix("play ") for a in legal if a.startswith("play ")))
    assert plays == sorted({c for c in cards if playable(c, top, suit)}), match.group(0)
    assert set(legal) - {f"play {c}" for c in plays} <= {"draw", "pass"}


@pytest.mark.parametrize(("seed", "players"), [(1, 2), (7, 3), (12, 5)])
def test_the_node_frontend_plays_a_whole_game_against_eights_serve(server_url, seed: int,
                                                                   players: int) -> None:
    done = subprocess.run(["node", TABLE, server_url, str(seed), str(players)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    decisions = [DECISION.match(line) for line in lines if DECISION.match(line)]
    assert len(decisions) > 5
    for match in decisions:
        check_decision(match)
    assert {int(m.group(1)) for m in decisions} == set(range(players))
    last = lines[-1]
    assert last.startswith("game over after") and f"and {len(decisions)} decisions" in last
    assert "0 cards" in last or "nobody can move" in done.stdout
