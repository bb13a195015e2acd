"""The frontend's end of a connection to a bot: a subprocess's pipes or a WebSocket.

A channel moves whole message texts and turns every way a transport can fail
into a :class:`~eights.protocol.errors.BotFailure`: ``crash`` when the bot
is gone (it exited, the connection closed, it could not be started),
``timeout`` when nothing came in time, and ``flood`` when a process wrote
more than a frontend will hold for it.

:class:`ProcessChannel` keeps a bot to bounded time and memory whatever it
does. Its pipes are read and written on threads of their own that poll
(nothing blocks on a pipe), so a bot that stops reading its input, never
finishes a line, or leaves a child holding its pipes cannot block the game
or :meth:`~ProcessChannel.close`. What it writes is held in bounded buffers:
a line of its output longer than the message size limit is dropped (and
reported as ``too_large``), at most :data:`MAX_QUEUED_LINES` lines or
:data:`QUEUED_BYTES_FACTOR` times the message size limit wait to be read, and
of its stderr the last :data:`STDERR_TAIL_BYTES` are kept, each line cut to
:data:`STDERR_LINE_BYTES`; output past those bounds, or more than
:data:`STDERR_FLOOD_BYTES` of stderr between two messages sent to it, is a
``flood``. The bot runs in a process group (a session) of its own, and
stopping it stops the whole group: SIGTERM, then SIGKILL after
:data:`TERM_GRACE` seconds.
"""

from __future__ import annotations

import collections
import contextlib
import logging
import os
import queue
import select
import signal
import subprocess
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Iterator
from typing import IO, Any

from .errors import BotFailure, ProtocolError

log = logging.getLogger(__name__)
#: the bot's stderr lines are logged here (at INFO), as the bot's own voice
bot_log = logging.getLogger("eights.protocol.bot")

#: lines of the bot's output that may wait to be read before it counts as a flood
MAX_QUEUED_LINES = 1000
#: bytes of output that may wait to be read, as a multiple of the message size limit
QUEUED_BYTES_FACTOR = 4
#: the bot's stderr kept to explain a crash (the last this many characters, in whole lines)
STDERR_TAIL_BYTES = 64 * 1024
#: a stderr line is cut to this many bytes (in the log and the tail kept)
STDERR_LINE_BYTES = 4096
#: stderr a bot may write between two messages sent to it before it counts as a flood
STDERR_FLOOD_BYTES = 8 * 1024 * 1024
#: stderr lines (and characters) quoted in a crash's message
STDERR_QUOTE_LINES = 20
STDERR_QUOTE_CHARS = 2000
#: seconds a process gets to exit after its input closes (a bye), before it is stopped
EXIT_GRACE = 1.0
#: seconds a process group gets between SIGTERM and SIGKILL
TERM_GRACE = 0.5
#: seconds to wait for a process to die after SIGKILL (it is left alone after that)
KILL_WAIT = 2.0
#: seconds the pipe threads get to read what a stopped bot left before they are stopped
DRAIN_WAIT = 0.5
#: seconds the output of a bot that exited gets to arrive before its exit is reported
EXIT_SETTLE = 0.2
#: how often the pipe threads and a waiting recv look up from their pipe or queue
POLL_SECONDS = 0.05
READ_CHUNK = 64 * 1024
#: where process groups exist (POSIX); elsewhere only the process itself is stopped
GROUPS = hasattr(os, "killpg")


class Channel(ABC):
    """A connection to one bot that carries message texts."""

    #: what is at the other end, for messages (``"process 1234 (node bot.js)"``)
    description: str = "bot"

    @abstractmethod
    def send(self, text: str) -> None:
        """Send one message; ``BotFailure('crash')`` if the bot is gone."""

    @abstractmethod
    def recv(self, timeout: float) -> str:
        """The next message; ``BotFailure`` ``crash``, ``timeout`` or ``flood``, or a
        ``ProtocolError``."""

    @abstractmethod
    def close(self, kill: bool = False) -> None:
        """Let the bot go (after a bye), or stop it at once with ``kill``."""


class _Oversized:
    def __init__(self, size: int):
        self.size = size


#: a blank line in the queue: it is counted (a flood of blank lines is a flood) and skipped
_BLANK = object()


class _Lines:
    """Cuts a byte stream into lines, holding at most ``limit`` bytes of any one line.

    :meth:`feed` and :meth:`end` give ``(head, size)`` per line: its first
    ``limit`` bytes (without the newline) and its whole length, so a line
    longer than the limit is known by its size without being held.
    """

    def __init__(self, limit: int):
        self.limit = limit
        self._head = bytearray()
        self._size = 0
        self._pending = False

    def feed(self, data: bytes) -> list[tuple[bytes, int]]:
        lines = []
        start = 0
        while start < len(data):
            newline = data.find(b"\n", start)
            end = len(data) if newline < 0 else newline
            room = self.limit - len(self._head)
            if room > 0:
                self._head += data[start:min(end, start + room)]
            self._size += end - start
            self._pending = True
            if newline < 0:
                break
            lines.append(self._take())
            start = newline + 1
        return lines

    def end(self) -> list[tuple[bytes, int]]:
        """The last line, if the stream ended without a newline."""
        return [self._take()] if self._pending else []

    def _take(self) -> tuple[bytes, int]:
        line = (bytes(self._head), self._size)
        self._head.clear()
        self._size = 0
        self._pending = False
        return line


class ProcessChannel(Channel):
    """A bot run as a subprocess: JSON lines on its stdin and stdout, its stderr logged.

    The process gets a session of its own (on POSIX), so stopping it stops
    whatever it started too (a shell wrapper's children, a helper it forked).
    A child that starts a session of its own is out of reach; it is left
    running, and only costs the threads that wait on the pipes it holds.
    """

    def __init__(self, argv: list[str], *, max_message_bytes: int, name: str = "bot",
                 cwd: str | None = None, env: dict[str, str] | None = None):
        self.max_message_bytes = max_message_bytes
        #: bytes of output that may wait to be read before the bot counts as flooding
        self.max_queued_bytes = QUEUED_BYTES_FACTOR * max_message_bytes
        self.name = name
        try:
            self.proc = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                cwd=cwd, env=env, start_new_session=GROUPS,
            )
        except (OSError, ValueError) as err:  # ValueError: a NUL in the command
            raise BotFailure("crash", f"could not start {' '.join(argv)!r}: {err}") from None
        self.description = f"process {self.proc.pid} ({' '.join(argv)})"
        self._lines: queue.Queue[tuple[object, int] | None] = queue.Queue()
        self._queued_lock = threading.Lock()
        self._queued_lines = 0
        self._queued_bytes = 0
        #: why the bot counts as flooding, once it does
        self._flood: str | None = None
        self._stderr_since_send = 0
        self._stderr: collections.deque[str] = collections.deque()
        self._stderr_chars = 0
        self._stderr_lock = threading.Lock()
        self._outbox: queue.Queue[bytes | None] = queue.Queue()
        self._stop = threading.Event()
        self._closed = False
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            assert stream is not None
            os.set_blocking(stream.fileno(), False)
        self._readers = [
            threading.Thread(target=self._read_stdout, daemon=True, name=f"{name}-stdout"),
            threading.Thread(target=self._read_stderr, daemon=True, name=f"{name}-stderr"),
        ]
        self._writer = threading.Thread(target=self._write_stdin, daemon=True,
                                        name=f"{name}-stdin")
        for thread in (*self._readers, self._writer):
            thread.start()

    # ------------------------------------------------------------ state
    @property
    def queued(self) -> tuple[int, int]:
        """Lines and bytes of the bot's output waiting to be read."""
        with self._queued_lock:
            return self._queued_lines, self._queued_bytes

    @property
    def flooded(self) -> str | None:
        """Why the bot counts as flooding (it is then sent and read nothing more), or None."""
        return self._flood

    @property
    def stderr_tail(self) -> str:
        """The end of the bot's stderr: at most :data:`STDERR_TAIL_BYTES` characters."""
        with self._stderr_lock:
            return "\n".join(self._stderr)

    # ------------------------------------------------------------ threads
    def _chunks(self, stream: IO[bytes]) -> Iterator[bytes]:
        """What ``stream`` gives until it ends or the channel is stopped; never blocks long."""
        fd = stream.fileno()
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        while not self._stop.is_set():
            if not poller.poll(POLL_SECONDS * 1000):
                continue
            try:
                data = os.read(fd, READ_CHUNK)
            except BlockingIOError:
                continue
            except OSError:
                return
            if not data:
                return
            yield data

    def _read_stdout(self) -> None:
        assert self.proc.stdout is not None
        lines = _Lines(self.max_message_bytes)
        try:
            for data in self._chunks(self.proc.stdout):
                for head, size in lines.feed(data):
                    if not self._queue(head, size):
                        return  # a flood: read nothing more
            for head, size in lines.end():
                self._queue(head, size)
        finally:
            self._lines.put(None)

    def _queue(self, head: bytes, size: int) -> bool:
        """Queue one line for :meth:`recv`; False (and a flood) past the bounds."""
        item: object
        if size > self.max_message_bytes:
            item, cost = _Oversized(size), 0
        else:
            text = head.rstrip(b"\r")
            item = text.decode("utf-8", errors="replace") if text.strip() else _BLANK
            cost = len(head) + 1
        with self._queued_lock:
            lines, size_queued = self._queued_lines + 1, self._queued_bytes + cost
            if lines > MAX_QUEUED_LINES or size_queued > self.max_queued_bytes:
                self._flood = (f"{self.description} wrote more than {MAX_QUEUED_LINES:,} lines "
                               f"or {self.max_queued_bytes:,} bytes to stdout that were not "
                               f"asked for (it is read no further)")
                return False
            self._queued_lines, self._queued_bytes = lines, size_queued
        self._lines.put((item, cost))
        return True

    def _read_stderr(self) -> None:
        assert self.proc.stderr is not None
        lines = _Lines(STDERR_LINE_BYTES)
        for data in self._chunks(self.proc.stderr):
            for head, size in lines.feed(data):
                self._keep_stderr(head, size)
            self._stderr_since_send += len(data)
            if self._stderr_since_send > STDERR_FLOOD_BYTES:
                self._flood = (f"{self.description} wrote more than "
                               f"{STDERR_FLOOD_BYTES:,} bytes to stderr since it was last sent "
                               f"a message (it is read no further)")
                return
        for head, size in lines.end():
            self._keep_stderr(head, size)

    def _keep_stderr(self, head: bytes, size: int) -> None:
        text = head.decode("utf-8", errors="replace").rstrip()
        if size > STDERR_LINE_BYTES:
            text += f" [... cut: a line of {size:,} bytes]"
        with self._stderr_lock:
            self._stderr.append(text)
            self._stderr_chars += len(text) + 1
            while self._stderr_chars > STDERR_TAIL_BYTES and len(self._stderr) > 1:
                self._stderr_chars -= len(self._stderr.popleft()) + 1
        bot_log.info("%s: %s", self.name, text)

    def _write_stdin(self) -> None:
        stream = self.proc.stdin
        assert stream is not None
        fd = stream.fileno()
        poller = select.poll()
        poller.register(fd, select.POLLOUT)
        try:
            while not self._stop.is_set():
                try:
                    data = self._outbox.get(timeout=POLL_SECONDS)
                except queue.Empty:
                    continue
                if data is None:
                    break
                view = memoryview(data)
                while view and not self._stop.is_set():
                    if not poller.poll(POLL_SECONDS * 1000):
                        continue
                    try:
                        view = view[os.write(fd, view):]
                    except BlockingIOError:
                        continue
        except OSError:
            pass  # the bot is gone (a broken pipe); the reader reports it
        finally:
            with contextlib.suppress(OSError, ValueError):
                stream.close()

    # ------------------------------------------------------------ channel
    def _gone(self) -> BotFailure:
        try:
            code = self.proc.wait(timeout=EXIT_GRACE)
        except subprocess.TimeoutExpired:
            code = None
        self._readers[1].join(DRAIN_WAIT)  # the stderr reader catches the last lines
        how = "closed its output" if code is None else f"exited with status {code}"
        with self._stderr_lock:
            quoted = list(self._stderr)[-STDERR_QUOTE_LINES:]
        tail = " | ".join(quoted)
        if len(tail) > STDERR_QUOTE_CHARS:
            tail = "..." + tail[-STDERR_QUOTE_CHARS:]
        return BotFailure("crash", f"{self.description} {how}"
                          + (f"; its last stderr: {tail}" if tail else "; it wrote no stderr"))

    def send(self, text: str) -> None:
        if self._flood:
            raise BotFailure("flood", self._flood)
        if self._closed or self.proc.poll() is not None:
            raise self._gone()
        self._stderr_since_send = 0
        self._outbox.put(text.encode("utf-8") + b"\n")

    def recv(self, timeout: float) -> str:
        deadline = time.monotonic() + max(timeout, 0.0)
        exited: float | None = None  # when the process was first seen to have exited
        while True:
            if self._flood:
                raise BotFailure("flood", self._flood)
            now = time.monotonic()
            try:
                entry = self._lines.get(timeout=max(0.0, min(deadline - now, POLL_SECONDS)))
            except queue.Empty:
                now = time.monotonic()
                if self._flood:
                    continue
                if now >= deadline:
                    raise BotFailure("timeout", f"{self.description} sent nothing within "
                                                f"{timeout:.3g} s") from None
                # a child holding its output would keep the end of it from ever coming
                if self.proc.poll() is not None:
                    exited = now if exited is None else exited
                    if now - exited >= EXIT_SETTLE:
                        raise self._gone() from None
                continue
            if entry is None:
                self._lines.put(None)  # stays closed for later calls
                if self._flood:
                    continue
                raise self._gone()
            item, cost = entry
            with self._queued_lock:
                self._queued_lines -= 1
                self._queued_bytes -= cost
            if item is _BLANK:
                continue
            if isinstance(item, _Oversized):
                raise ProtocolError("too_large", f"a line of {item.size:,} bytes is over the "
                                                 f"limit of {self.max_message_bytes:,} bytes")
            assert isinstance(item, str)
            return item

    def close(self, kill: bool = False) -> None:
        """Let the bot go (a bye was sent) or stop it (``kill``); returns within seconds.

        Either way its process group is stopped afterwards, so nothing it
        started outlives it; the pipe threads are stopped and its pipes closed.
        """
        if self._closed:
            return
        self._closed = True
        self._outbox.put(None)  # closes its stdin after what is queued
        if not kill:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=EXIT_GRACE)
        self._stop_group()
        deadline = time.monotonic() + DRAIN_WAIT
        for thread in self._readers:  # they read what it left, to the end of its pipes
            thread.join(max(0.0, deadline - time.monotonic()))
        self._stop.set()
        deadline = time.monotonic() + 2 * POLL_SECONDS + 1.0
        for thread, stream in zip((*self._readers, self._writer),
                                  (self.proc.stdout, self.proc.stderr, self.proc.stdin),
                                  strict=True):
            thread.join(max(0.0, deadline - time.monotonic()))
            if thread.is_alive():  # cannot happen but for a stuck interpreter: leave it be
                log.warning("%s: its %s thread did not stop", self.description, thread.name)
            elif stream is not None:
                with contextlib.suppress(OSError, ValueError):
                    stream.close()

    def _stop_group(self) -> None:
        """Stop the process and everything in its group: SIGTERM, then SIGKILL."""
        proc = self.proc
        if not GROUPS:
            if proc.poll() is None:
                proc.kill()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(timeout=KILL_WAIT)
            return
        if not _signal_group(proc.pid, signal.SIGTERM):
            return  # the process has exited, and nothing it started is left in its group
        deadline = time.monotonic() + TERM_GRACE
        while time.monotonic() < deadline:
            proc.poll()  # reaps it once it exits, so it leaves the group
            if not _signal_group(proc.pid, 0):
                return
            time.sleep(0.01)
        _signal_group(proc.pid, signal.SIGKILL)
        try:
            proc.wait(timeout=KILL_WAIT)
        except subprocess.TimeoutExpired:
            log.warning("%s did not stop after SIGKILL", self.description)


def _signal_group(pgid: int, sig: int) -> bool:
    """Send ``sig`` to process group ``pgid``; False if no process is left in it."""
    try:
        os.killpg(pgid, sig)
    except ProcessLookupError:
        return False
    except PermissionError:  # a member changed user (setuid); nothing more we can do
        return False
    return True


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
