"""Keystrokes, from a terminal or from a script.

A key source hands out one key at a time as a short name: a printable
character as itself (``"p"``, ``"T"``, ``" "``), and ``"enter"``, ``"left"``,
``"right"``, ``"up"``, ``"down"``, ``"escape"``, ``"backspace"`` for the rest. ``get``
waits at most ``timeout`` seconds and returns None when it runs out, which is
how the turn timer works. The end of input raises :class:`EOFError`.
"""

from __future__ import annotations

import os
import select
import sys
from collections.abc import Iterable
from typing import Protocol

ESCAPES = {"[A": "up", "[B": "down", "[C": "right", "[D": "left", "OA": "up", "OB": "down",
           "OC": "right", "OD": "left"}
NAMED = {"\r": "enter", "\n": "enter", "\x7f": "backspace", "\x08": "backspace"}


class KeySource(Protocol):
    def get(self, timeout: float | None = None) -> str | None:
        """The next key, None if ``timeout`` seconds pass first; EOFError at the end of input."""


class ScriptedKeys:
    """Keys from a list, for tests and demos. ``None`` in the list stands for a timeout."""

    def __init__(self, keys: Iterable[str | None]):
        self._keys = iter(keys)

    def get(self, timeout: float | None = None) -> str | None:
        try:
            return next(self._keys)
        except StopIteration:
            raise EOFError("no more scripted keys") from None


class TerminalKeys:
    """Single keystrokes from a file descriptor (the terminal, in cbreak mode, while open).

    Cbreak mode hands over each key as it is pressed, without waiting for
    Enter and without echo, while Ctrl-C still interrupts. Input that is not a
    terminal (a pipe) is read as it comes, one character per key.
    """

    def __init__(self, fd: int | None = None):
        self.fd = sys.stdin.fileno() if fd is None else fd
        self._saved = None
        self._pending = b""

    def __enter__(self) -> TerminalKeys:
        if os.isatty(self.fd):
            import termios
            import tty

            self._saved = termios.tcgetattr(self.fd)
            tty.setcbreak(self.fd)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._saved is not None:
            import termios

            termios.tcsetattr(self.fd, termios.TCSADRAIN, self._saved)
            self._saved = None

    def _read(self, timeout: float | None) -> bytes | None:
        if self._pending:
            byte, self._pending = self._pending[:1], self._pending[1:]
            return byte
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return None
        data = os.read(self.fd, 64)
        if not data:
            raise EOFError("input closed")
        byte, self._pending = data[:1], data[1:]
        return byte

    def get(self, timeout: float | None = None) -> str | None:
        byte = self._read(timeout)
        if byte is None:
            return None
        if byte == b"\x1b":
            tail = ""
            for _ in range(2):
                try:
                    nxt = self._read(0.05)
                except EOFError:  # a lone Escape at the end of input; the next get() ends it
                    break
                if nxt is None:
                    break
                tail += nxt.decode("latin-1")
            return ESCAPES.get(tail, "escape")
        char = byte.decode("latin-1")
        return NAMED.get(char, char)
