"""ProcessChannel against bots that abuse their host: children, floods, huge stderr lines.

Every wait here has a deadline of its own (a call that should return runs on
a thread and is given a few seconds), so a regression fails the test rather
than hanging the run. The bots are tests/protocol/bots/rogue_bot.py.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import threading
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest

from eights.protocol import channels as ch
from eights.protocol import messages as m
from eights.protocol.channels import ProcessChannel
from eights.protocol.errors import BotFailure
from tests.protocol.conftest import BOTS

ROGUE = str(BOTS / "rogue_bot.py")
DECIDE = json.dumps({"type": "decide", "id": 1, "legal": ["draw"]})
pytestmark = pytest.mark.skipif(not ch.GROUPS, reason="process groups are POSIX")


def rogue(mode: str, *args: str) -> ProcessChannel:
    """A rogue bot, greeted: it has answered the hello with ready."""
    channel = ProcessChannel([sys.executable, ROGUE, mode, *args],
                             max_message_bytes=m.DEFAULT_MAX_MESSAGE_BYTES, name=mode)
    channel.send(m.encode(m.hello("livery_eights", {"num_players": 2}, name="test")))
    assert json.loads(channel.recv(10))["type"] == "ready"
    return channel


def within(seconds: float, call, *args) -> float:
    """Run ``call(*args)`` on a thread; fail unless it returns within ``seconds``; its time."""
    done = threading.Event()
    errors: list[BaseException] = []

    def run() -> None:
        try:
            call(*args)
        except BaseException as err:  # handed to the test below
            errors.append(err)
        finally:
            done.set()

    start = time.monotonic()
    threading.Thread(target=run, daemon=True).start()
    assert done.wait(seconds), f"{call.__name__} did not return within {seconds} s"
    if errors:
        raise errors[0]
    return time.monotonic() - start


def gone(pid: int, wait: float = 5.0) -> bool:
    """Whether process ``pid`` is dead (or a zombie waiting for init) within ``wait`` s."""
    deadline = time.monotonic() + wait
    while True:
        try:
            os.kill(pid, 0)
            stat = Path(f"/proc/{pid}/stat")
            if stat.exists() and stat.read_text().rsplit(")", 1)[1].split()[0] in "ZX":
                return True
        except (ProcessLookupError, FileNotFoundError):
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)


def child_of(pidfile: Path) -> int:
    deadline = time.monotonic() + 10
    while not pidfile.exists() or not pidfile.read_text():
        assert time.monotonic() < deadline, "the bot did not write its child's pid"
        time.sleep(0.02)
    pid = int(pidfile.read_text())
    assert not gone(pid, wait=0), "the child should be running while the bot is"
    return pid


@contextlib.contextmanager
def rogue_with_child(tmp_path: Path, mode: str) -> Iterator[tuple[ProcessChannel, int]]:
    """A greeted rogue bot in ``mode`` and its child's pid; the child is killed after, if alive."""
    pidfile = tmp_path / "child.pid"
    channel = rogue(mode, "--pidfile", str(pidfile))
    child = child_of(pidfile)
    try:
        yield channel, child
    finally:
        if not gone(child, wait=0):
            os.kill(child, 9)


def test_a_bot_that_crashes_leaving_a_child_on_its_pipes_is_a_crash_and_stops(tmp_path) -> None:
    with rogue_with_child(tmp_path, "spawn-crash") as (channel, child):
        channel.send(DECIDE)
        # the child keeps stdout open, so no end of file comes: the exit itself is noticed
        with pytest.raises(BotFailure) as info:
            channel.recv(30)
        assert info.value.kind == "crash" and "exited with status 3" in info.value.detail
        assert within(5, channel.close, True) < 5
        assert gone(child), "the bot's child outlived it"


def test_a_bot_that_exits_after_bye_leaving_a_child_closes_in_time(tmp_path) -> None:
    with rogue_with_child(tmp_path, "spawn") as (channel, child):
        channel.send(DECIDE)
        assert json.loads(channel.recv(10))["action"] == "draw"
        channel.send(m.encode(m.bye()))
        assert within(5, channel.close) < 5
        assert channel.proc.returncode == 0  # it left by itself, after the bye
        assert gone(child), "the bot's child outlived it"


def test_a_child_out_of_the_group_cannot_block_closing(tmp_path) -> None:
    """A child in a session of its own escapes the group kill; close still returns."""
    with rogue_with_child(tmp_path, "escape") as (channel, child):
        channel.send(m.encode(m.bye()))
        assert within(5, channel.close) < 5
        assert not any(t.is_alive() for t in (*channel._readers, channel._writer))
        assert not gone(child, wait=0), "the child was meant to escape the group kill"
    assert gone(child)


def test_a_stdout_flood_is_held_to_its_bounds_and_is_a_failure() -> None:
    tracemalloc.start()
    try:
        channel = rogue("flood-stdout", "--megabytes", "210")
        deadline = time.monotonic() + 20
        while not channel.flooded:
            assert time.monotonic() < deadline, "210 MB of lines did not count as a flood"
            lines, size = channel.queued
            assert lines <= ch.MAX_QUEUED_LINES and size <= channel.max_queued_bytes
            time.sleep(0.01)
        lines, size = channel.queued
        assert lines <= ch.MAX_QUEUED_LINES and size <= channel.max_queued_bytes
        with pytest.raises(BotFailure) as info:
            channel.recv(10)
        assert info.value.kind == "flood" and "1,000 lines" in info.value.detail
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 16 * 2**20, f"{peak / 2**20:.0f} MB held for a flood"
    assert within(5, channel.close, True) < 5


def test_one_huge_stderr_line_is_a_flood_and_is_not_held() -> None:
    tracemalloc.start()
    try:
        channel = rogue("flood-stderr", "--megabytes", "200")
        channel.send(DECIDE)
        with pytest.raises(BotFailure) as info:
            channel.recv(20)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert info.value.kind == "flood" and "to stderr" in info.value.detail
    assert peak < 16 * 2**20, f"{peak / 2**20:.0f} MB held for a stderr flood"
    assert len(channel.stderr_tail) <= ch.STDERR_TAIL_BYTES
    assert within(5, channel.close, True) < 5


def test_long_stderr_lines_are_cut_and_only_the_tail_is_kept() -> None:
    """1 MB stderr lines are no flood (each comes after a message) but are not kept whole."""
    channel = rogue("long-stderr", "--megabytes", "1")
    try:
        for id_ in range(1, 21):
            channel.send(json.dumps({"type": "decide", "id": id_, "legal": ["draw"]}))
            assert json.loads(channel.recv(10))["id"] == id_
        time.sleep(0.2)  # the stderr reader catches up
        tail = channel.stderr_tail
        assert 2 * ch.STDERR_LINE_BYTES < len(tail) <= ch.STDERR_TAIL_BYTES
        assert f"[... cut: a line of {2**20:,} bytes]" in tail
        assert all(len(line) < ch.STDERR_LINE_BYTES + 100 for line in tail.splitlines())
        assert channel.flooded is None
    finally:
        channel.send(m.encode(m.bye()))
        within(5, channel.close)


def test_lines_are_cut_whatever_the_chunks() -> None:
    lines = ch._Lines(5)
    assert lines.feed(b"ab") == []
    assert lines.feed(b"c\n\nabcdefgh") == [(b"abc", 3), (b"", 0)]
    assert lines.feed(b"ij") == []
    assert lines.feed(b"\nxy\nz") == [(b"abcde", 10), (b"xy", 2)]
    assert lines.end() == [(b"z", 1)]
    assert lines.end() == []
