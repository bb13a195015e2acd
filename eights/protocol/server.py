"""A WebSocket server that lends a built-in agent to any number of frontends at once.

``eights serve --agent heuristic --variant crazy_eights --port 8765`` runs
:class:`BotServer`. Each connection is one session (a hello, decisions, a
bye) with its own agent, answered by a :class:`~eights.protocol.session.BotSession`.

Every connection is held to its own limits, so one client cannot hurt the
others:

* a message over ``max_message_bytes`` is refused with a ``too_large``
  error; one over four times that is not even read (the connection is closed
  with WebSocket code 1009);
* a connection that sends nothing for ``idle_timeout`` seconds (including a
  client that opened a connection and stalled) is closed;
* a decision that takes longer than ``decision_timeout`` ends the session
  with a ``timeout`` error;
* ``max_errors`` bad messages in a row end the session;
* beyond ``max_connections`` a new client is told ``busy`` and closed.

Agents run on worker threads, so the event loop that reads every
connection never waits for one of them, and a client that stalls in the
middle of a message holds only its own coroutine.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import random
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ..config import ConfigError
from . import messages as m
from .errors import ProtocolError
from .session import DEFAULT_MAX_ERRORS, BotSession

log = logging.getLogger(__name__)

#: messages up to this many times the limit are read and refused; longer ones close the connection
HARD_CAP_FACTOR = 4
#: seconds a closing connection waits for the client's close frame (a stalled one never sends it)
CLOSE_TIMEOUT = 2.0


def _websockets() -> Any:
    try:
        import websockets.asyncio.server as server
        import websockets.exceptions as exceptions
    except ImportError:
        raise ConfigError("the WebSocket server needs the websockets package; install it with: "
                          "pip install websockets") from None
    return server, exceptions


@dataclasses.dataclass(frozen=True)
class ServerLimits:
    """What one connection may cost the server (see the module docstring)."""

    max_message_bytes: int = m.DEFAULT_MAX_MESSAGE_BYTES
    decision_timeout: float = 10.0
    idle_timeout: float = 300.0
    max_connections: int = 256
    max_errors: int = DEFAULT_MAX_ERRORS

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
                raise ConfigError(f"server limit {f.name}={value!r} is not allowed; "
                                  f"it must be a positive number")


class BotServer:
    """Serves ``agent_spec`` playing ``variant`` to every WebSocket client that says hello."""

    def __init__(self, agent_spec: str, variant: str, *, host: str = "127.0.0.1",
                 port: int = 8765, limits: ServerLimits | None = None, seed: int | None = None,
                 workers: int | None = None):
        from ..agents import make_agent

        make_agent(agent_spec, variant)  # a bad spec or variant fails here, not per client
        self.agent_spec = agent_spec
        self.variant = variant
        self.host = host
        self.port = port
        self.limits = limits or ServerLimits()
        self.seed = seed
        self.workers = workers
        self.connections = 0
        self.sessions = 0
        self._server: Any = None
        self._executor: ThreadPoolExecutor | None = None

    @property
    def url(self) -> str:
        return f"ws://{self.host}:{self.port}"

    async def start(self) -> None:
        """Listen (port 0 picks a free port; :attr:`port` then holds it)."""
        server, _ = _websockets()
        self._executor = ThreadPoolExecutor(self.workers, thread_name_prefix="eights-bot")
        self._server = await server.serve(
            self._connection, self.host, self.port,
            max_size=self.limits.max_message_bytes * HARD_CAP_FACTOR, max_queue=4,
            close_timeout=CLOSE_TIMEOUT,
        )
        self.port = self._server.sockets[0].getsockname()[1]
        log.info("serving %s playing %s at %s", self.agent_spec, self.variant, self.url)

    async def serve_forever(self) -> None:
        if self._server is None:
            await self.start()
        await self._server.serve_forever()

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)

    def _session_seed(self) -> int | None:
        if self.seed is None:
            return None
        return random.Random(f"{self.seed}/session/{self.sessions}").getrandbits(63)

    async def _connection(self, ws: Any) -> None:
        """One client's session, held to :attr:`limits`."""
        _, exceptions = _websockets()
        limits = self.limits
        peer = ws.remote_address
        if self.connections >= limits.max_connections:
            log.warning("refused %s: %d connections already", peer, self.connections)
            with contextlib.suppress(exceptions.ConnectionClosed):
                await ws.send(m.encode(m.error("busy", f"the server is at its limit of "
                                                       f"{limits.max_connections} connections; "
                                                       f"try again later")))
                await ws.close(1013, "busy")
            return
        self.connections += 1
        self.sessions += 1
        session = BotSession(self.agent_spec, variant=self.variant, seed=self._session_seed(),
                             max_message_bytes=limits.max_message_bytes,
                             max_errors=limits.max_errors, name=f"{self.agent_spec}@{peer}")
        loop = asyncio.get_running_loop()
        log.info("connection from %s", peer)
        try:
            while True:
                try:
                    text = await asyncio.wait_for(ws.recv(), limits.idle_timeout)
                except TimeoutError:
                    await self._close(ws, m.error("timeout", f"no message for "
                                                             f"{limits.idle_timeout:g} s; closing"),
                                      1008, "idle")
                    return
                if isinstance(text, bytes):
                    replies, close = session.refuse(ProtocolError(
                        "bad_json", "binary frames are not read; send each message as text"))
                else:
                    try:
                        replies, close = await asyncio.wait_for(
                            loop.run_in_executor(self._executor, session.handle, text),
                            limits.decision_timeout)
                    except TimeoutError:
                        await self._close(ws, m.error(
                            "timeout", f"the decision took longer than "
                                       f"{limits.decision_timeout:g} s; closing"), 1011, "timeout")
                        return
                for reply in replies:
                    await asyncio.wait_for(ws.send(m.encode(reply)), limits.idle_timeout)
                if close:
                    await ws.close(1000 if not replies else 1008, "bye" if not replies
                                   else "too many errors")
                    return
        except (exceptions.ConnectionClosed, TimeoutError):
            return
        finally:
            self.connections -= 1
            log.info("connection from %s closed after %d decisions", peer, session.decisions)

    @staticmethod
    async def _close(ws: Any, reply: dict[str, Any], code: int, reason: str) -> None:
        _, exceptions = _websockets()
        with contextlib.suppress(exceptions.ConnectionClosed, TimeoutError):
            await asyncio.wait_for(ws.send(m.encode(reply)), 5)
            await ws.close(code, reason)


async def serve(server: BotServer, on_ready: Callable[[BotServer], None] | None = None) -> None:
    """Run ``server`` until cancelled, calling ``on_ready`` once it listens."""
    await server.start()
    if on_ready is not None:
        on_ready(server)
    try:
        await server.serve_forever()
    finally:
        await server.close()


@contextlib.contextmanager
def running_server(agent_spec: str, variant: str, **options: Any) -> Iterator[BotServer]:
    """A :class:`BotServer` on a background thread's own event loop, for synchronous code.

    Tests, notebooks and frontends that are not asyncio use it; ``port``
    defaults to 0 (a free port), read from the yielded server's ``url``.
    """
    options.setdefault("port", 0)
    server = BotServer(agent_spec, variant, **options)
    loop = asyncio.new_event_loop()
    started = threading.Event()
    failure: list[BaseException] = []

    def run() -> None:
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(server.start())
        except BaseException as err:  # reported to the caller below
            failure.append(err)
            started.set()
            return
        started.set()
        loop.run_forever()

    thread = threading.Thread(target=run, name="eights-serve", daemon=True)
    thread.start()
    started.wait()
    if failure:
        thread.join()
        loop.close()
        raise failure[0]
    try:
        yield server
    finally:
        asyncio.run_coroutine_threadsafe(server.close(), loop).result(30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(30)
        loop.close()
