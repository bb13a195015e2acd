"""The frontend's end of a connection to a bot: a subprocess's pipes or a WebSocket.

A channel moves whole message texts and turns every way a transport can fail
into a :class:`~eights.protocol.errors.BotFailure`: ``crash`` when the bot
is gone (it exited, the connection closed, it could not be started) and
``timeout`` when nothing came in time. :class:`ProcessChannel` reads and
writes on its own threads, so a bot that stops reading its input or never
finishes a line cannot block the game past its deadline.
"""

from __future__ import annotations

import collections
import contextlib
import logging
import os
import queue
import signal
import subprocess
import threading
from abc import ABC, abstractmethod
from typing import IO, Any

from .errors import BotFailure, ProtocolError

log = logging.getLogger(__name__)
#: the bot's stderr lines are logged here (at INFO), as the bot's own voice
bot_log = logging.getLogger("eights.protocol.bot")

#: stderr lines kept to explain a crash
STDERR_TAIL = 20
#: seconds a process gets to exit after its input closes, before it is killed
EXIT_GRACE = 1.0


class Channel(ABC):
    """A connection to one bot that carries message texts."""

    #: what is at the other end, for messages (``"process 1234 (node bot.js)"``)
    description: str = "bot"

    @abstractmethod
    def send(self, text: str) -> None:
        """Send one message; ``BotFailure('crash')`` if the bot is gone."""

    @abstractmethod
    def recv(self, timeout: float) -> str:
        """The next message; ``BotFailure`` ``crash`` or ``timeout``, or a ``ProtocolError``."""

    @abstractmethod
    def close(self, kill: bool = False) -> None:
        """Let the bot go (after a bye), or stop it at once with ``kill``."""


class _Oversized:
    def __init__(self, size: int):
        self.size = size


class ProcessChannel(Channel):
    """A bot run as a subprocess: JSON lines on its stdin and stdout, its stderr logged.

    The process gets a session of its own (on POSIX), so stopping it stops
    whatever it started too (a shell wrapper's children).
    """

    def __init__(self, argv: list[str], *, max_message_bytes: int, name: str = "bot",
                 cwd: str | None = None, env: dict[str, str] | None = None):
        self.max_message_bytes = max_message_bytes
        self.name = name
        try:
            self.proc = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                cwd=cwd, env=env, start_new_session=hasattr(os, "killpg"),
            )
        except OSError as err:
            raise BotFailure("crash", f"could not start {' '.join(argv)!r}: {err}") from None
        self.description = f"process {self.proc.pid} ({' '.join(argv)})"
        self._lines: queue.Queue[str | _Oversized | None] = queue.Queue()
        self._outbox: queue.Queue[bytes | None] = queue.Queue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=STDERR_TAIL)
        self._threads = [
            threading.Thread(target=self._read_stdout, args=(self.proc.stdout,), daemon=True,
                             name=f"{name}-stdout"),
            threading.Thread(target=self._read_stderr, args=(self.proc.stderr,), daemon=True,
                             name=f"{name}-stderr"),
            threading.Thread(target=self._write_stdin, args=(self.proc.stdin,), daemon=True,
                             name=f"{name}-stdin"),
        ]
        for thread in self._threads:
            thread.start()

    # ------------------------------------------------------------ threads
    def _read_stdout(self, stream: IO[bytes]) -> None:
        limit = self.max_message_bytes
        try:
            while True:
                line = stream.readline(limit + 1)
                if not line:
                    break
                if len(line) > limit and not line.endswith(b"\n"):
                    size = len(line)
                    while True:  # drop the rest of the overlong line
                        part = stream.readline(1 << 16)
                        size += len(part)
                        if not part or part.endswith(b"\n"):
                            break
                    self._lines.put(_Oversized(size))
                    continue
                text = line.rstrip(b"\r\n")
                if text.strip():
                    self._lines.put(text.decode("utf-8", errors="replace"))
        except (OSError, ValueError):
            pass
        finally:
            self._lines.put(None)

    def _read_stderr(self, stream: IO[bytes]) -> None:
        try:
            for line in stream:
                text = line.decode("utf-8", errors="replace").rstrip()
                self._stderr.append(text)
                bot_log.info("%s: %s", self.name, text)
        except (OSError, ValueError):
            pass

    def _write_stdin(self, stream: IO[bytes]) -> None:
        try:
            while True:
                data = self._outbox.get()
                if data is None:
                    break
                stream.write(data)
                stream.flush()
        except (OSError, ValueError):
            pass  # the bot is gone; the reader reports it
        finally:
            with contextlib.suppress(OSError, ValueError):
                stream.close()

    # ------------------------------------------------------------ channel
    def _gone(self) -> BotFailure:
        try:
            code = self.proc.wait(timeout=EXIT_GRACE)
        except subprocess.TimeoutExpired:
            code = None
        self._threads[1].join(EXIT_GRACE)  # the stderr reader catches the last lines
        how = "closed its output" if code is None else f"exited with status {code}"
        tail = " | ".join(self._stderr)
        return BotFailure("crash", f"{self.description} {how}"
                          + (f"; its last stderr: {tail}" if tail else "; it wrote no stderr"))

    def send(self, text: str) -> None:
        if self.proc.poll() is not None:
            raise self._gone()
        self._outbox.put(text.encode("utf-8") + b"\n")

    def recv(self, timeout: float) -> str:
        try:
            item = self._lines.get(timeout=max(timeout, 0.0))
        except queue.Empty:
            raise BotFailure("timeout", f"{self.description} sent nothing within "
                                        f"{timeout:.3g} s") from None
        if item is None:
            self._lines.put(None)  # stays closed for later calls
            raise self._gone()
        if isinstance(item, _Oversized):
            raise ProtocolError("too_large", f"a line of {item.size:,} bytes is over the limit "
                                             f"of {self.max_message_bytes:,} bytes")
        return item

    def close(self, kill: bool = False) -> None:
        self._outbox.put(None)  # closes its stdin after what is queued
        if not kill:
            try:
                self.proc.wait(timeout=EXIT_GRACE)
            except subprocess.TimeoutExpired:
                kill = True
        if kill and self.proc.poll() is None:
            try:
                if hasattr(os, "killpg"):
                    os.killpg(self.proc.pid, signal.SIGKILL)
                else:
                    self.proc.kill()
            except (ProcessLookupError, PermissionError):
                pass
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                log.warning("%s did not stop after SIGKILL", self.description)
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()


class WebSocketChannel(Channel):
    """A bot behind a WebSocket URL (``eights serve`` or any server speaking the protocol)."""

    def __init__(self, url: str, *, max_message_bytes: int, open_timeout: float):
        try:
            from websockets.sync.client import connect
        except ImportError:
            raise BotFailure("crash", "ws:// bots need the websockets package; install it with: "
                                      "pip install websockets") from None
        self.url = url
        self.description = f"WebSocket {url}"
        self.max_message_bytes = max_message_bytes
        self._stack = contextlib.ExitStack()  # connect() is a context manager in websockets 17
        try:
            self.ws: Any = self._stack.enter_context(connect(
                url, open_timeout=open_timeout, close_timeout=1, max_size=max_message_bytes,
                proxy=None))
        except Exception as err:  # refused, DNS, TLS, handshake: the bot is not there
            raise BotFailure("crash", f"could not connect to {url}: "
                                      f"{type(err).__name__}: {err}") from None

    def _closed(self, err: Exception) -> BotFailure:
        code = getattr(err, "rcvd", None)
        why = f" (code {code.code}: {code.reason or 'no reason'})" if code is not None else ""
        if getattr(err, "sent", None) is not None and err.sent.code == 1009:  # type: ignore[attr-defined]
            why = f" (a message over the limit of {self.max_message_bytes:,} bytes)"
        return BotFailure("crash", f"{self.description} closed the connection{why}")

    def send(self, text: str) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            self.ws.send(text)
        except ConnectionClosed as err:
            raise self._closed(err) from None
        except OSError as err:
            raise BotFailure("crash", f"{self.description}: {err}") from None

    def recv(self, timeout: float) -> str:
        from websockets.exceptions import ConnectionClosed

        try:
            data = self.ws.recv(timeout=max(timeout, 0.0))
        except TimeoutError:
            raise BotFailure("timeout", f"{self.description} sent nothing within "
                                        f"{timeout:.3g} s") from None
        except ConnectionClosed as err:
            raise self._closed(err) from None
        if isinstance(data, bytes):
            raise ProtocolError("bad_json", "a binary frame; the protocol sends text frames")
        return data

    def close(self, kill: bool = False) -> None:
        try:
            self.ws.close(code=1000 if not kill else 1011, reason="" if not kill else "dropped")
            self._stack.close()
        except Exception:  # closing a broken connection: nothing more to do
            log.debug("closing %s failed", self.description, exc_info=True)
