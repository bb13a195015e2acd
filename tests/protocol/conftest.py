"""Helpers for the protocol tests: commands that start bots, a server on a free port."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

BOTS = Path(__file__).parent / "bots"
ROOT = Path(__file__).resolve().parents[2]


def python_bot(*args: str) -> str:
    """An ``exec:`` spec running this interpreter with ``args``."""
    return "exec:" + shlex.join([sys.executable, *args])


def fake_bot(mode: str, *args: str) -> str:
    """An ``exec:`` spec for tests/protocol/bots/fake_bot.py in ``mode``."""
    return python_bot(str(BOTS / "fake_bot.py"), mode, *args)


def builtin_bot(agent: str = "heuristic", *args: str) -> str:
    """An ``exec:`` spec for a built-in agent served over stdio."""
    return python_bot("-m", "eights.protocol.stdio", "--agent", agent, *args)


@pytest.fixture
def server():
    """A heuristic crazy_eights server on a free port, with short limits for the tests."""
    from eights.protocol.server import ServerLimits, running_server

    limits = ServerLimits(max_message_bytes=64 * 1024, decision_timeout=10.0, idle_timeout=30.0,
                          max_errors=5)
    with running_server("heuristic", "crazy_eights", limits=limits) as srv:
        yield srv
