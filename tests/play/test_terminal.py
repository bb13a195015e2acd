"""`eights play` in a real pseudo-terminal: single keystrokes, no Enter needed, a whole game."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time

import pytest

from eights.play import TerminalKeys

pty = pytest.importorskip("pty", reason="pseudo-terminals are POSIX only")


class Terminal:
    def __init__(self, args: list[str]):
        self.master, slave = pty.openpty()
        self.proc = subprocess.Popen([sys.executable, "-m", "eights.cli", *args], stdin=slave,
                                     stdout=slave, stderr=slave, close_fds=True)
        os.close(slave)
        self.buffer = ""

    def expect(self, text: str, timeout: float = 30.0) -> str:
        """Read until ``text`` appears; return everything read up to and including it."""
        deadline = time.monotonic() + timeout
        while text not in self.buffer:
            left = deadline - time.monotonic()
            assert left > 0, f"{text!r} never came; got:\n{self.buffer[-2000:]}"
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.master, 4096)
                except OSError:  # the program ended and closed the terminal
                    chunk = b""
                if not chunk:
                    assert text in self.buffer, f"ended before {text!r}:\n{self.buffer[-2000:]}"
                self.buffer += chunk.decode("utf-8", "replace").replace("\r\n", "\n")
        head, _, tail = self.buffer.partition(text)
        self.buffer = tail
        return head + text

    def press(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def close(self) -> int:
        try:
            return self.proc.wait(timeout=30)
        finally:
            os.close(self.master)


def test_a_whole_game_at_the_keyboard():
    term = Terminal(["play", "--seed", "4", "--opponents", "heuristic", "--hand"])
    try:
        term.expect("Press ? for help.")
        for _ in range(500):
            seen = term.expect("\n")
            if seen.startswith("Your moves: 1 "):
                term.press("1")  # one key, no Enter: the terminal is in cbreak mode
                term.expect("Enter to make it.")
                term.press("\r")
            elif seen.startswith("Scores."):
                break
        else:
            pytest.fail("the game did not end in 500 lines")
        assert term.close() == 0
    finally:
        if term.proc.poll() is None:
            term.proc.kill()


def test_information_keys_and_leaving_in_a_terminal():
    term = Terminal(["play", "--seed", "2", "--opponents", "random,heuristic",
                     "--turn-time", "300"])
    try:
        term.expect("Your moves: 1 ")
        term.press("E")
        assert "Player 2 (heuristic)" in term.expect("stock:")
        term.press("T")
        term.expect(" seconds left.")
        term.press("\x1b[C")  # the right arrow
        term.expect("1 of ")
        term.press("qq")
        term.expect("You left the game.")
        assert term.close() == 0
    finally:
        if term.proc.poll() is None:
            term.proc.kill()


def test_keys_from_a_pipe_decode_arrows_and_enter():
    read, write = os.pipe()
    os.write(write, b"a\x1b[D\r \x1b")
    os.close(write)
    with TerminalKeys(read) as keys:
        got = [keys.get(1.0) for _ in range(5)]
        with pytest.raises(EOFError):
            keys.get(1.0)
    os.close(read)
    assert got == ["a", "left", "enter", " ", "escape"]
