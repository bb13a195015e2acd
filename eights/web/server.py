"""The web server: the page's static files over HTTP and its JSON over one WebSocket.

One process, the ``websockets`` library the bot protocol already uses: its
``process_request`` hook answers plain HTTP GETs with the files under
``static/`` (the page), and ``/ws`` opens the page's WebSocket. Each
WebSocket is one visitor: it may play one game at a time
(:mod:`eights.web.play`), list and replay stored games (:mod:`eights.web.watch`)
and follow a leaderboard (:mod:`eights.web.board`).

The bot protocol's limits apply (:class:`~eights.protocol.server.ServerLimits`,
the same defaults as ``eights serve``): connections at once and per address,
a message size limit, an idle timeout, a run of bad messages that ends the
session, and the work a message asks for (a replay, a bot's thinking, a
leaderboard) done by :class:`~eights.protocol.server.FairScheduler`'s worker
threads, one job per connection at a time, each within ``decision_timeout``.
A WebSocket opened from a page of another site is refused (its ``Origin``
is not this server's), so no web page a visitor opens elsewhere can play or
read stores through their local server.
"""

from __future__ import annotations

import asyncio
import contextlib
import http
import logging
import mimetypes
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from ..agents import AGENT_KINDS, IN_PROCESS_KINDS, split_specs
from ..agents.policy import shipped_models
from ..cli import MAX_TURN_TIME
from ..config import ConfigError
from ..engines import VARIANTS, engine_class
from ..protocol.errors import ProtocolError
from ..protocol.server import (
    CLOSE_TIMEOUT,
    HARD_CAP_FACTOR,
    PORTS,
    DecisionTimeout,
    FairScheduler,
    SchedulerClosed,
    ServerLimits,
    client_address,
    in_background,
)
from . import board as board_module
from . import messages, watch
from .play import PlayTable, key_problem, new_table
from .store import StoreReader

log = logging.getLogger(__name__)

#: the WebSocket's path; every other path is a static file
SOCKET_PATH = "/ws"
#: seconds between looks at a followed store's count of games
POLL_SECONDS = 1.0
#: what the page may load: its own files and its own WebSocket, nothing from elsewhere
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; connect-src 'self'; img-src 'self' data:; "
                               "base-uri 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}
CONTENT_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
                 ".css": "text/css; charset=utf-8", ".png": "image/png",
                 ".svg": "image/svg+xml", ".ico": "image/x-icon"}


def static_files() -> dict[str, bytes]:
    """Every file of the page, by its URL path (``/`` is ``index.html``), read once."""
    root = resources.files("eights.web") / "static"
    files: dict[str, bytes] = {}

    def walk(folder: Any, prefix: str) -> None:
        for item in folder.iterdir():
            if item.is_dir():
                walk(item, f"{prefix}{item.name}/")
            elif Path(item.name).suffix in CONTENT_TYPES:
                files[f"/{prefix}{item.name}"] = item.read_bytes()

    walk(root, "")
    files["/"] = files["/index.html"]
    return files


def catalog(stores: Sequence[StoreReader], labels: Sequence[str]) -> dict[str, Any]:
    """The ``welcome`` message: what a page can choose (variants and their options, the
    agents a table seats, the stores given with ``--results``)."""
    variants = []
    for name in VARIANTS:
        cls = engine_class(name)
        rows = [dict(zip(("name", "default", "allowed", "meaning"), row, strict=True))
                for row in cls.Config.option_rows()]
        variants.append({"name": name, "options": rows,
                         "has_match": "match" in cls.Config.options()})
    agents = [k for k in AGENT_KINDS if k in IN_PROCESS_KINDS]
    return {"type": "welcome", "variants": variants, "agents": agents,
            "models": shipped_models(),
            "stores": [{"index": i, "name": label, "variant": s.tournament.variant,
                        "agents": list(s.tournament.agents)}
                       for i, (label, s) in enumerate(zip(labels, stores, strict=True))]}


def store_label(given: str) -> str:
    """A store as the page names it: as given on the command line (``runs/make-run``), an
    absolute path by its last two parts."""
    path = Path(given)
    return given if not path.is_absolute() else str(Path(*path.parts[-2:]))


class Visitor:
    """One WebSocket: its game, the board it follows, its replies waiting to be sent."""

    def __init__(self, address: str):
        self.address = address
        self.outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.table: PlayTable | None = None
        self.board: int | None = None  # the store whose board it follows
        self.board_count = -1
        self.errors = 0


class WebServer:
    """Serves the page and its WebSocket; ``stores`` are the ``--results`` it may read."""

    def __init__(self, stores: Sequence[str | Path] = (), *, host: str = "127.0.0.1",
                 port: int = 8000, limits: ServerLimits | None = None, workers: int = 2):
        problem = PORTS.problem(port)
        if problem:
            raise ConfigError(f"--port: {problem}")
        self.paths = [str(s) for s in stores]
        readers = [StoreReader(s) for s in self.paths]  # a bad --results fails here
        self.store_names = [r.name for r in readers]
        self._welcome = catalog(readers, [store_label(p) for p in self.paths])
        for reader in readers:
            reader.close()
        self.host, self.port = host, port
        self.limits = limits or ServerLimits()
        self.workers = workers
        self.files = static_files()
        self.connections = 0
        self._by_address: Counter[str] = Counter()
        self._server: Any = None
        self._scheduler: FairScheduler | None = None
        #: called with (table, message) for every message of a played game (tests look)
        self.on_play_message: Callable[[PlayTable, dict[str, Any]], None] | None = None

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"

    # ------------------------------------------------------------- lifecycle
    async def start(self) -> None:
        """Listen (port 0 picks a free port; :attr:`port` then holds it)."""
        from websockets.asyncio.server import serve

        self._scheduler = FairScheduler(self.workers, name="eights-web-worker")
        limits = self.limits
        self._server = await serve(
            self._connection, self.host, self.port, process_request=self._http,
            max_size=limits.max_message_bytes * HARD_CAP_FACTOR, max_queue=4,
            open_timeout=limits.hello_timeout, close_timeout=CLOSE_TIMEOUT)
        self.port = self._server.sockets[0].getsockname()[1]
        log.info("eights web at %s", self.url)

    async def serve_forever(self) -> None:
        if self._server is None:
            await self.start()
        await self._server.serve_forever()

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        if self._scheduler is not None:
            self._scheduler.close()
        if self._server is not None:
            await self._server.wait_closed()

    # ------------------------------------------------------------------ HTTP
    def _http(self, connection: Any, request: Any) -> Any:
        """Static files for plain GETs; the WebSocket's handshake goes on at ``/ws`` when its
        ``Origin`` (if any) is this server."""
        from websockets.datastructures import Headers
        from websockets.http11 import Response

        path = request.path.split("?", 1)[0]
        if path == SOCKET_PATH:
            origin = request.headers.get("Origin")
            host = request.headers.get("Host")
            if origin is not None and origin not in (f"http://{host}", f"https://{host}"):
                return connection.respond(http.HTTPStatus.FORBIDDEN,
                                          f"a page from {origin} may not use this server\n")
            return None
        body = self.files.get(path)
        if body is None:
            return connection.respond(http.HTTPStatus.NOT_FOUND, f"no file {path}\n")
        suffix = Path("/index.html" if path == "/" else path).suffix
        headers = Headers({"Content-Type": CONTENT_TYPES.get(suffix) or
                           mimetypes.guess_type(path)[0] or "application/octet-stream",
                           "Content-Length": str(len(body)), **SECURITY_HEADERS})
        return Response(200, "OK", headers, body)

    # ------------------------------------------------------------- WebSocket
    async def _connection(self, ws: Any) -> None:
        from websockets.exceptions import ConnectionClosed

        address = client_address(ws.remote_address)
        limits = self.limits
        why = None
        if self.connections >= limits.max_connections:
            why = f"the server is at its limit of {limits.max_connections} connections"
        elif self._by_address[address] >= limits.max_connections_per_ip:
            why = (f"{address} already has {self._by_address[address]} connections open, the "
                   f"limit per address; close a tab")
        if why is not None:
            with contextlib.suppress(ConnectionClosed, TimeoutError):
                await asyncio.wait_for(ws.send(messages.dumps(
                    {"type": "error", "code": "busy", "message": why})), CLOSE_TIMEOUT)
                await ws.close(1013, "busy")
            return
        self.connections += 1
        self._by_address[address] += 1
        visitor = Visitor(address)
        writer = asyncio.create_task(self._write(ws, visitor))
        poller = asyncio.create_task(self._poll(visitor))
        try:
            visitor.outbox.put_nowait(self._welcome)
            await self._read(ws, visitor)
        except (ConnectionClosed, SchedulerClosed):
            pass
        finally:
            poller.cancel()
            if visitor.table is not None and visitor.table.running:
                await asyncio.to_thread(visitor.table.stop)
            await _drain(visitor, writer)
            self.connections -= 1
            self._by_address[address] -= 1
            if not self._by_address[address]:
                del self._by_address[address]
            if self._scheduler is not None:
                self._scheduler.forget(visitor)
                self._scheduler.forget((visitor, "poll"))

    async def _write(self, ws: Any, visitor: Visitor) -> None:
        while True:
            message = await visitor.outbox.get()
            await ws.send(messages.dumps(message))

    async def _read(self, ws: Any, visitor: Visitor) -> None:
        limits = self.limits
        while True:
            try:
                text = await asyncio.wait_for(ws.recv(), limits.idle_timeout)
            except TimeoutError:
                await self._close(ws, visitor, "timeout",
                                  f"no message for {limits.idle_timeout:g} s; closing", 1008)
                return
            try:
                message = messages.parse(text, limits.max_message_bytes)
                await self._handle(visitor, message)
                visitor.errors = 0
            except ProtocolError as err:
                visitor.errors += 1
                if visitor.errors >= limits.max_errors:
                    await self._close(ws, visitor, "too_many_errors",
                                      f"{err.message}; {visitor.errors} bad messages in a row, "
                                      f"closing", 1008)
                    return
                visitor.outbox.put_nowait(messages.error(err))

    async def _close(self, ws: Any, visitor: Visitor, code: str, text: str, ws_code: int) -> None:
        from websockets.exceptions import ConnectionClosed

        visitor.outbox.put_nowait({"type": "error", "code": code, "message": text})
        await asyncio.sleep(0)
        with contextlib.suppress(ConnectionClosed, TimeoutError):
            while not visitor.outbox.empty():
                await asyncio.sleep(0.01)
            await asyncio.wait_for(ws.close(ws_code, code), CLOSE_TIMEOUT)

    # -------------------------------------------------------------- messages
    async def _handle(self, visitor: Visitor, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "start":
            await self._start_game(visitor, message)
        elif kind in ("key", "move"):
            table = visitor.table
            if table is None or not table.running:
                raise ProtocolError("out_of_order", f"{kind}: no game is being played; "
                                                    f"start one first")
            if kind == "key":
                problem = key_problem(message["key"])
                if problem:
                    raise ProtocolError("bad_value", f"key.key: {problem}")
                table.key(message["key"])
            else:
                table.key(f"move:{message['index']}")
        elif kind == "leave":
            if visitor.table is None or not visitor.table.running:
                raise ProtocolError("out_of_order", "leave: no game is being played")
            await asyncio.to_thread(visitor.table.stop)
        else:
            store = message["store"]
            if not 0 <= store < len(self.paths):
                given = (f"stores are 0 to {len(self.paths) - 1}" if self.paths else
                         "the server was started without --results")
                raise ProtocolError("bad_value", f"{kind}.store: {store} is not a store; "
                                                 f"{given}")
            if kind == "board":
                visitor.board, visitor.board_count = store, -1
            reply = await self._job(visitor, self._watch_job, message)
            if kind == "board":
                visitor.board_count = reply["games_played"]
            visitor.outbox.put_nowait(reply)

    async def _start_game(self, visitor: Visitor, message: dict[str, Any]) -> None:
        if visitor.table is not None and visitor.table.running:
            await asyncio.to_thread(visitor.table.stop)
        loop = asyncio.get_running_loop()
        turn_time = message.get("turn_time")
        if turn_time is not None and not 0 < turn_time <= MAX_TURN_TIME:
            raise ProtocolError("bad_value", f"start.turn_time: {turn_time} is not allowed; give "
                                             f"seconds, more than 0 and at most {MAX_TURN_TIME}")
        try:
            specs = split_specs(",".join(message["opponents"]))
            engine, bots = await asyncio.to_thread(
                new_table, message["variant"], specs, seat=message.get("seat", 0),
                seed=message.get("seed"), options=message.get("options") or {},
                hand=message.get("hand", False))
        except ConfigError as err:
            raise ProtocolError("bad_config", str(err)) from None

        def emit(msg: dict[str, Any]) -> None:
            if self.on_play_message is not None:
                self.on_play_message(table, msg)
            with contextlib.suppress(RuntimeError):  # the server closed under the game
                loop.call_soon_threadsafe(visitor.outbox.put_nowait, msg)

        table = PlayTable(engine, message.get("seat", 0), bots, emit,
                          turn_time=message.get("turn_time"))
        visitor.table = table
        visitor.outbox.put_nowait({"type": "started", "variant": engine.variant,
                                   "players": engine.num_players,
                                   "seat": message.get("seat", 0)})
        table.start()

    def _watch_job(self, message: dict[str, Any]) -> dict[str, Any]:
        """A Watch or Leaderboard request, on a worker thread, with the store opened afresh
        (each thread its own SQLite connection; each sees the games landed so far)."""
        store = StoreReader(self.paths[message["store"]])
        try:
            kind = message["type"]
            if kind == "games":
                return watch.list_games(store, message.get("agent") or None,
                                        message.get("outcome", "any"))
            if kind == "replay":
                seat = message.get("seat")
                return watch.replay(store, message["game"], seat)
            if kind == "think":
                return watch.thinking(store, message["game"], message["step"])
            return board_module.board(store)
        finally:
            store.close()

    async def _job(self, key: object, fn: Callable[[Any], Any], arg: Any) -> Any:
        assert self._scheduler is not None
        try:
            return await self._scheduler.run(key, fn, arg, self.limits.decision_timeout)
        except DecisionTimeout:
            raise ProtocolError("timeout", f"{arg['type']}: the work took longer than "
                                           f"{self.limits.decision_timeout:g} s") from None
        except ConfigError as err:
            raise ProtocolError("bad_value", str(err)) from None

    async def _poll(self, visitor: Visitor) -> None:
        """Send the followed board again whenever its store gains games.

        A board of many games takes seconds to compute (the ratings are fitted over every
        game), so the next look waits at least twice as long as the last board took: a
        tournament writing fast costs a watcher at most a third of a CPU.
        """
        pause = POLL_SECONDS
        while True:
            await asyncio.sleep(pause)
            pause = POLL_SECONDS
            store = visitor.board
            if store is None or visitor.board_count < 0:
                continue
            try:
                count = await asyncio.to_thread(_count, self.paths[store])
                if count != visitor.board_count and visitor.board == store:
                    began = time.monotonic()
                    reply = await self._job((visitor, "poll"), self._watch_job,
                                            {"type": "board", "store": store})
                    pause = max(POLL_SECONDS, 2 * (time.monotonic() - began))
                    visitor.board_count = reply["games_played"]
                    visitor.outbox.put_nowait(reply)
            except (ProtocolError, ConfigError, RuntimeError) as err:
                log.debug("board poll: %s", err)


def _count(path: str) -> int:
    store = StoreReader(path)
    try:
        return store.count()
    finally:
        store.close()


async def _drain(visitor: Visitor, writer: asyncio.Task) -> None:
    """Let the writer send what is queued (briefly), then stop it."""
    deadline = time.monotonic() + CLOSE_TIMEOUT
    while not visitor.outbox.empty() and not writer.done() and time.monotonic() < deadline:
        await asyncio.sleep(0.01)
    writer.cancel()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await writer



@contextlib.contextmanager
def running_web_server(stores: Sequence[str | Path] = (), **options: Any) -> Iterator[WebServer]:
    """A :class:`WebServer` on a background thread's own event loop (tests, notebooks);
    ``port`` defaults to 0 (a free one), read from the yielded server's ``url``."""
    options.setdefault("port", 0)
    with in_background(WebServer(stores, **options), "eights-web") as server:
        yield server
