"""A WebSocket server that lends a built-in agent to any number of frontends at once.

``eights serve --agent heuristic --variant crazy_eights --port 8765`` runs
:class:`BotServer`. Each connection is one session (a hello, decisions, a
bye) with its own agent, answered by a :class:`~eights.protocol.session.BotSession`.

A client that misbehaves, on purpose or not, costs the others a bounded
amount (docs/protocol.md, "What the server promises", has the figures):

* **Connections.** At most ``max_connections`` sessions at once, and at
  most ``max_connections_per_ip`` from one address (an IPv6 client's /64);
  a client beyond its address's share is told ``busy`` and closed. When the
  server is full, a new client still gets in: the session idle longest (not
  in a decision) is told ``busy`` and closed to make room, so silent
  sessions from many addresses cannot hold every slot until their idle
  timeout. Sockets that have not
  finished the opening handshake count too: beyond twice either limit they
  are closed at once, without a word, so a client that opens sockets and
  stalls cannot run the process out of them.
* **Time.** The opening handshake and then the hello must each come within
  ``hello_timeout`` seconds; a session silent for ``idle_timeout`` seconds
  after its hello is closed; a decision that takes longer than
  ``decision_timeout`` (from when a worker starts it) ends the session.
* **Size.** A message over ``max_message_bytes`` is refused with a
  ``too_large`` error; one over :data:`HARD_CAP_FACTOR` times that is not
  even read (WebSocket close code 1009). ``max_errors`` bad messages in a
  row end the session.
* **CPU.** Reading, checking and answering a message (the JSON, the view,
  the agent) is done by ``workers`` threads, never by the event loop, and
  each connection has at most one message there at a time: the next is not
  read until the last is answered. The workers take the waiting messages
  *fairest first* (:class:`FairScheduler`): a connection that has used
  little of their time goes before one that has used much. Large messages
  (and connections whose last message was costly) get all the workers but
  one, so a small decision never waits for a large message to be worked
  through: a client sending the largest messages it may, as fast as it can,
  delays another's small decision by milliseconds (it shares the
  interpreter with one of them), not by a queue of them.

There is no rate limit on top: a connection that sends as fast as it can
only takes CPU that nobody else is waiting for, and a limit would slow a
fast good frontend without protecting anyone more.

The event loop only moves frames, so a client that stalls in the middle of
a message holds only its own coroutine.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import gc
import heapq
import ipaddress
import itertools
import logging
import random
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from ..config import ConfigError
from . import messages as m
from .errors import ProtocolError
from .messages import NumberRange
from .session import DEFAULT_MAX_ERRORS, BotSession

log = logging.getLogger(__name__)

#: messages up to this many times the limit are read and refused; longer ones close the connection
HARD_CAP_FACTOR = 4
#: seconds a closing connection waits for the client's close frame (a stalled one never sends it)
CLOSE_TIMEOUT = 2.0
#: the default message limit: the largest decide of a real game (about 120 kB at default
#: options, 170 kB at the most events per turn the options allow) with room to spare,
#: measured (docs/protocol.md, "What the server promises"; ``python -m tests.protocol.attacks
#: sizes``)
DEFAULT_SERVER_MAX_MESSAGE_BYTES = 256 * 1024
#: worker threads that read and answer messages: heavy messages get all but one, so the last
#: is always there for light ones (more threads add no speed: Python runs one at a time)
DEFAULT_WORKERS = 2
#: sockets not yet in a session may reach this many times the connection limits, then are cut
SOCKET_SLACK = 2
#: a message up to this many bytes, from a connection whose last one took up to LIGHT_SECONDS
#: of CPU, is light: it never waits for a heavy one (FairScheduler)
LIGHT_BYTES = 32 * 1024
LIGHT_SECONDS = 0.01
#: seconds a thread runs before Python hands the interpreter to another (its default is 5 ms)
SWITCH_INTERVAL = 0.001
#: the ports a server may listen on (0 picks a free one)
PORTS = NumberRange(0, 65535)
WORKERS = NumberRange(1, 64, unit="threads")

#: ServerLimits field -> the values it may take
LIMIT_RANGES: dict[str, NumberRange] = {
    "max_message_bytes": m.MESSAGE_LIMITS,
    "decision_timeout": NumberRange(0, 86_400, integer=False, unit="seconds", above=True),
    "idle_timeout": NumberRange(0, 86_400, integer=False, unit="seconds", above=True),
    "hello_timeout": NumberRange(0, 86_400, integer=False, unit="seconds", above=True),
    "max_connections": NumberRange(1, 65_536, unit="connections"),
    "max_connections_per_ip": NumberRange(1, 65_536, unit="connections"),
    "max_errors": m.ERROR_LIMITS,
}


def _websockets() -> Any:
    try:
        import websockets.asyncio.server as server
        import websockets.exceptions as exceptions
    except ImportError:
        raise ConfigError("the WebSocket server needs the websockets package; install it with: "
                          "pip install websockets") from None
    return server, exceptions


def option_name(field: str) -> str:
    """The ``eights serve`` option of a :class:`ServerLimits` field."""
    return "--" + field.replace("_", "-")


@dataclasses.dataclass(frozen=True)
class ServerLimits:
    """What one client may cost the server (see the module docstring).

    Every field is checked when the limits are made: a value of the wrong
    kind, not finite or out of its range (:data:`LIMIT_RANGES`) raises a
    :class:`~eights.config.ConfigError` naming the field and what is allowed.
    """

    max_message_bytes: int = DEFAULT_SERVER_MAX_MESSAGE_BYTES
    decision_timeout: float = 10.0
    idle_timeout: float = 300.0
    hello_timeout: float = 5.0
    max_connections: int = 256
    max_connections_per_ip: int = 8
    max_errors: int = DEFAULT_MAX_ERRORS

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            problem = LIMIT_RANGES[f.name].problem(value)
            if problem:
                raise ConfigError(f"server limit {f.name} (eights serve {option_name(f.name)}):"
                                  f" {problem}")


def client_address(peer: Any) -> str:
    """The address limits count by: an IPv4 address, an IPv6 client's /64, else the text."""
    host = peer[0] if isinstance(peer, tuple) and peer else peer
    try:
        ip = ipaddress.ip_address(str(host).split("%")[0])
    except ValueError:
        return str(host)
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


class _Quiet:
    """At most one log line per ``every`` seconds per kind, counting the ones left out."""

    def __init__(self, every: float = 10.0):
        self.every = every
        self._last: dict[str, float] = {}
        self._skipped: Counter[str] = Counter()

    def warning(self, kind: str, text: str, *args: Any) -> None:
        now = time.monotonic()
        if now - self._last.get(kind, -self.every) < self.every:
            self._skipped[kind] += 1
            return
        skipped = self._skipped.pop(kind, 0)
        self._last[kind] = now
        log.warning(text + (f" ({skipped} more like it not logged)" if skipped else ""), *args)


# ------------------------------------------------------------------ the workers
class DecisionTimeout(Exception):
    """A job ran longer than its time limit (it goes on in its thread; its result is dropped)."""


class SchedulerClosed(Exception):
    """The scheduler was closed before the job was done (the server is closing)."""


@dataclasses.dataclass(eq=False)
class _Job:
    key: object
    fn: Callable[[Any], Any]
    arg: Any
    loop: asyncio.AbstractEventLoop
    started: asyncio.Future
    done: asyncio.Future
    light: bool = True
    tag: float = 0.0
    cancelled: bool = False
    overdue: bool = False


class FairScheduler:
    """Runs jobs on ``workers`` threads, least-served connection first (start-time fair queueing).

    Each key (a connection) has a *virtual finish*: the virtual time at which
    its last job started plus the CPU seconds that job took. A new job is
    tagged with the later of that and the scheduler's virtual time (the tag of
    the job that started last), and a free worker takes the job with the
    smallest tag. So a connection whose messages are cheap goes ahead of one
    whose messages are dear, whoever sent first; a connection that was idle
    banks nothing (its tag is never below the current virtual time); and
    connections with equal appetites take turns.

    Jobs are *light* or *heavy*: heavy if its message is over ``light_bytes``
    or the key's last job took more than ``light_seconds`` of CPU. Heavy jobs
    may hold at most ``workers - 1`` threads (one, with one worker), so a
    light job never waits for a heavy one to finish: it only shares the
    interpreter with it. Python runs one thread at a time, so holding heavy
    jobs to fewer threads costs them nothing in speed.

    A key may have one job at a time (:meth:`run` refuses a second): a
    connection's next message waits until its last is answered.

    A job that outlives its time limit is left to finish on its thread (a
    thread cannot be stopped), and a thread is added in its place, up to
    ``workers`` extra, so a runaway decision does not take a worker from the
    others; the extra thread retires when the runaway ends.
    """

    def __init__(self, workers: int = DEFAULT_WORKERS, *, light_bytes: int = LIGHT_BYTES,
                 light_seconds: float = LIGHT_SECONDS, name: str = "eights-worker"):
        problem = WORKERS.problem(workers)
        if problem:
            raise ConfigError(f"workers: {problem}")
        self.workers = workers
        self.light_bytes = light_bytes
        self.light_seconds = light_seconds
        self.name = name
        self._lock = threading.Condition()
        self._queues: dict[bool, list[tuple[float, int, _Job]]] = {True: [], False: []}
        self._seq = itertools.count()
        self._finish: dict[object, float] = {}
        self._cost: dict[object, float] = {}
        self._busy: set[object] = set()
        self._running: set[_Job] = set()
        self._heavy_running = 0
        self._vtime = 0.0
        self._threads = 0
        self._overdue = 0
        self._overdue_heavy = 0
        self._closed = False
        #: jobs run so far, light and heavy
        self.jobs_run = Counter({"light": 0, "heavy": 0})
        for _ in range(workers):
            self._spawn()

    def _spawn(self) -> None:
        self._threads += 1
        threading.Thread(target=self._work, name=f"{self.name}-{next(self._seq)}",
                         daemon=True).start()

    # -------------------------------------------------------------- the loop's side
    async def run(self, key: object, fn: Callable[[Any], Any], arg: Any,
                  timeout: float | None = None, *, size: int = 0) -> Any:
        """``fn(arg)`` on a worker, in fair order; :class:`DecisionTimeout` past ``timeout``.

        ``size`` is the bytes of the message the job reads (a heavy job
        above ``light_bytes``). The time limit counts from when a worker
        starts the job, not from when it was queued: waiting for a worker is
        the server's doing.
        """
        loop = asyncio.get_running_loop()
        job = _Job(key, fn, arg, loop, loop.create_future(), loop.create_future())
        for future in (job.started, job.done):  # nobody may be left to read an error
            future.add_done_callback(_retrieve)
        with self._lock:
            if self._closed:
                raise SchedulerClosed("the server is closing")
            if key in self._busy:
                raise RuntimeError(f"{key!r} already has a job; one at a time per connection")
            self._busy.add(key)
            job.light = size <= self.light_bytes and self._cost.get(key, 0.0) <= self.light_seconds
            job.tag = max(self._vtime, self._finish.get(key, 0.0))
            heapq.heappush(self._queues[job.light], (job.tag, next(self._seq), job))
            self._lock.notify_all()
        try:
            await asyncio.shield(job.started)
            return await asyncio.wait_for(asyncio.shield(job.done), timeout)
        except TimeoutError:
            self._overrun(job)
            raise DecisionTimeout(f"took longer than {timeout:g} s") from None
        finally:
            with self._lock:
                job.cancelled = True  # dropped if still queued
                self._busy.discard(key)

    def forget(self, key: object) -> None:
        """Drop what the scheduler knows of ``key`` (its connection is closed)."""
        with self._lock:
            self._finish.pop(key, None)
            self._cost.pop(key, None)

    def close(self) -> None:
        """Stop the workers once their jobs are done; nobody waits for any job any more.

        Queued jobs are dropped and running ones left to finish on their
        threads; whoever awaits either gets :class:`SchedulerClosed`.
        """
        with self._lock:
            self._closed = True
            jobs = [job for queue in self._queues.values() for _, _, job in queue]
            jobs += self._running
            for queue in self._queues.values():
                queue.clear()
            self._lock.notify_all()
        closed = SchedulerClosed("the server is closing")
        for job in jobs:
            job.cancelled = True
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
                job.loop.call_soon_threadsafe(_settle, job.started, None, closed)
                job.loop.call_soon_threadsafe(_settle, job.done, None, closed)

    def _overrun(self, job: _Job) -> None:
        with self._lock:
            if job.overdue or job.done.done() or self._closed:
                return
            job.overdue = True
            self._overdue += 1
            self._overdue_heavy += not job.light
            if self._threads < self._thread_limit():
                self._spawn()
            self._lock.notify_all()

    # -------------------------------------------------------------- the workers' side
    def _thread_limit(self) -> int:
        return self.workers + min(self._overdue, self.workers)

    def _heavy_limit(self) -> int:
        return max(1, self.workers - 1) + min(self._overdue_heavy, self.workers)

    def _next(self) -> _Job | None:
        with self._lock:
            while True:
                if self._closed or self._threads > self._thread_limit():
                    self._threads -= 1
                    return None
                for queue in self._queues.values():
                    while queue and queue[0][2].cancelled:
                        heapq.heappop(queue)
                light, heavy = self._queues[True], self._queues[False]
                if heavy and self._heavy_running >= self._heavy_limit():
                    heavy = []
                queue = min((q for q in (light, heavy) if q), key=lambda q: q[0][:2],
                            default=None)
                if queue is not None:
                    tag, _, job = heapq.heappop(queue)
                    self._vtime = max(self._vtime, tag)
                    self._running.add(job)
                    self._heavy_running += not job.light
                    return job
                self._lock.wait()

    def _work(self) -> None:
        while (job := self._next()) is not None:
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
                job.loop.call_soon_threadsafe(_settle, job.started, None, None)
            start = time.thread_time()
            try:
                result, error = job.fn(job.arg), None
            except BaseException as err:  # handed to the waiting coroutine
                result, error = None, err
            spent = time.thread_time() - start
            with self._lock:
                self._running.discard(job)
                self._heavy_running -= not job.light
                self.jobs_run["light" if job.light else "heavy"] += 1
                if job.key in self._busy or job.key in self._finish:
                    self._finish[job.key] = job.tag + spent
                    self._cost[job.key] = spent
                if job.overdue:
                    self._overdue -= 1
                    self._overdue_heavy -= not job.light
                self._lock.notify_all()
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
                job.loop.call_soon_threadsafe(_settle, job.done, result, error)


def _retrieve(future: asyncio.Future) -> None:
    if not future.cancelled():
        future.exception()


def _settle(future: asyncio.Future, result: Any, error: BaseException | None) -> None:
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


# ------------------------------------------------------------------ the server
@dataclasses.dataclass(eq=False)
class _Slot:
    """One open session as the connection limits see it: whose, and how long idle."""

    ws: Any
    address: str
    #: ``time.monotonic()`` of its last message read or answer sent
    active: float
    #: a message of it is being worked on (it is not idle, whatever ``active`` says)
    deciding: bool = False
    #: its place was given back (it was evicted, or its handler ended)
    released: bool = False


class BotServer:
    """Serves ``agent_spec`` playing ``variant`` to every WebSocket client that says hello."""

    def __init__(self, agent_spec: str, variant: str, *, host: str = "127.0.0.1",
                 port: int = 8765, limits: ServerLimits | None = None, seed: int | None = None,
                 workers: int | None = None):
        from ..agents import make_agent

        for name, value, allowed in (("port", port, PORTS), ("workers", workers, WORKERS)):
            problem = None if value is None and name == "workers" else allowed.problem(value)
            if problem:
                raise ConfigError(f"{name}: {problem}")
        make_agent(agent_spec, variant)  # a bad spec or variant fails here, not per client
        self.agent_spec = agent_spec
        self.variant = variant
        self.host = host
        self.port = port
        self.limits = limits or ServerLimits()
        self.seed = seed
        self.workers = workers or DEFAULT_WORKERS
        #: sessions open now, and ever opened
        self.connections = 0
        self.sessions = 0
        #: clients refused (busy) and sockets cut before their handshake, since the start
        self.refused = 0
        self.cut = 0
        #: sessions closed to let a new client in when the server was full, since the start
        self.evicted = 0
        self._sessions_by_address: Counter[str] = Counter()
        self._slots: set[_Slot] = set()
        self._sockets = 0
        self._sockets_by_address: Counter[str] = Counter()
        self._server: Any = None
        self._closing: set[asyncio.Task] = set()  # evicted sessions being told why
        self._scheduler: FairScheduler | None = None
        self._quiet = _Quiet()

    @property
    def url(self) -> str:
        return f"ws://{self.host}:{self.port}"

    async def start(self) -> None:
        """Listen (port 0 picks a free port; :attr:`port` then holds it)."""
        server, _ = _websockets()
        self._scheduler = FairScheduler(self.workers)
        limits = self.limits
        self._server = await server.serve(
            self._connection, self.host, self.port,
            max_size=limits.max_message_bytes * HARD_CAP_FACTOR, max_queue=1,
            open_timeout=limits.hello_timeout, close_timeout=CLOSE_TIMEOUT,
            create_connection=_guarded_connection(self),
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
        if self._scheduler is not None:
            self._scheduler.close()  # sessions waiting for a worker end now
        if self._server is not None:
            await self._server.wait_closed()

    def _session_seed(self) -> int | None:
        if self.seed is None:
            return None
        return random.Random(f"{self.seed}/session/{self.sessions}").getrandbits(63)

    # -------------------------------------------------------------- sockets
    def _socket_opened(self, address: str) -> bool:
        """Count a new socket; False if it is to be cut at once (far past the limits)."""
        self._sockets += 1
        self._sockets_by_address[address] += 1
        limits = self.limits
        if (self._sockets > SOCKET_SLACK * limits.max_connections
                or self._sockets_by_address[address]
                > SOCKET_SLACK * limits.max_connections_per_ip):
            self.cut += 1
            self._quiet.warning("cut", "cut a socket from %s at once: %d sockets open from it, "
                                       "%d in all", address, self._sockets_by_address[address],
                                self._sockets)
            return False
        return True

    def _socket_closed(self, address: str) -> None:
        self._sockets -= 1
        self._sockets_by_address[address] -= 1
        if not self._sockets_by_address[address]:
            del self._sockets_by_address[address]

    # -------------------------------------------------------------- a session
    def _refusal(self, address: str) -> str | None:
        """Why a new session from ``address`` is refused, or None (room is made, if need be,
        by evicting the longest-idle session: :meth:`_evict_for`)."""
        limits = self.limits
        if self._sessions_by_address[address] >= limits.max_connections_per_ip:
            return (f"{address} already has {self._sessions_by_address[address]} connections "
                    f"open, the limit per address; close one, or try again later")
        if self.connections >= limits.max_connections and not self._evict_for(address):
            return (f"the server is at its limit of {limits.max_connections} connections, "
                    f"every one of them in a decision; try again later")
        return None

    def _evict_for(self, address: str) -> bool:
        """Make room for a new session from ``address`` by closing the session idle longest
        (one in a decision is not idle); False if every session is in a decision.

        Longest idle first is fair to whoever is playing: a session that sends
        decisions is never idle for long, so it is the silent ones (a crowd
        that said hello and went quiet, a frontend that left without a bye) that
        make way, oldest first, and each goes with a ``busy`` error saying why.
        """
        idle = [slot for slot in self._slots if not slot.deciding]
        if not idle:
            return False
        victim = min(idle, key=lambda slot: slot.active)
        self._release(victim)
        self.evicted += 1
        seconds = time.monotonic() - victim.active
        self._quiet.warning("evict", "the server is full: closed a session from %s, idle "
                                     "%.1f s, to let in one from %s", victim.address, seconds,
                            address)
        why = (f"the server is at its limit of {self.limits.max_connections} connections and "
               f"this session was the one idle longest ({seconds:.0f} s); closing it to let a "
               f"new client in (connect again when you have a decision to ask)")
        task = asyncio.get_running_loop().create_task(
            self._close(victim.ws, m.error("busy", why), 1013, "evicted"))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)
        return True

    def _take(self, ws: Any, address: str) -> _Slot:
        """Count a new session in (its handler gives the place back with :meth:`_release`)."""
        slot = _Slot(ws, address, time.monotonic())
        self._slots.add(slot)
        self.connections += 1
        self._sessions_by_address[address] += 1
        self.sessions += 1
        return slot

    def _release(self, slot: _Slot) -> None:
        """Give a session's place back, once (evicting gives it back before its handler ends)."""
        if slot.released:
            return
        slot.released = True
        self._slots.discard(slot)
        self.connections -= 1
        self._sessions_by_address[slot.address] -= 1
        if not self._sessions_by_address[slot.address]:
            del self._sessions_by_address[slot.address]

    async def _connection(self, ws: Any) -> None:
        """One client's session, held to :attr:`limits`."""
        _, exceptions = _websockets()
        peer = ws.remote_address
        address = client_address(peer)
        why = self._refusal(address)
        if why is not None:
            self.refused += 1
            self._quiet.warning("busy", "refused %s: %s", peer, why)
            with contextlib.suppress(exceptions.ConnectionClosed, asyncio.TimeoutError):
                await asyncio.wait_for(ws.send(m.encode(m.error("busy", why))), CLOSE_TIMEOUT)
                await ws.close(1013, "busy")
            return
        slot = self._take(ws, address)
        log.info("connection from %s", peer)
        session = BotSession(self.agent_spec, variant=self.variant, seed=self._session_seed(),
                             max_message_bytes=self.limits.max_message_bytes,
                             max_errors=self.limits.max_errors, name=f"{self.agent_spec}@{peer}")
        try:
            await self._serve_session(ws, session, slot)
        except (TimeoutError, exceptions.ConnectionClosed, SchedulerClosed):
            pass
        finally:
            self._release(slot)
            assert self._scheduler is not None
            self._scheduler.forget(session)
            log.info("connection from %s closed after %d decisions", peer, session.decisions)

    async def _serve_session(self, ws: Any, session: BotSession, slot: _Slot) -> None:
        limits = self.limits
        assert self._scheduler is not None
        waited = 0.0  # seconds spent waiting for the client before its hello was taken
        while True:
            greeted = session.agent is not None
            wait = limits.idle_timeout if greeted else limits.hello_timeout - waited
            start = time.monotonic()
            try:
                text = await asyncio.wait_for(ws.recv(), max(wait, 0.0))
            except TimeoutError:
                why = (f"no message for {limits.idle_timeout:g} s; closing" if greeted else
                       f"no hello answered with ready within {limits.hello_timeout:g} s of "
                       f"connecting; closing (say hello first)")
                await self._close(ws, m.error("timeout", why), 1008, "idle")
                return
            if not greeted:
                waited += time.monotonic() - start
            slot.active, slot.deciding = time.monotonic(), True
            if isinstance(text, bytes):
                replies, close = session.refuse(ProtocolError(
                    "bad_json", "binary frames are not read; send each message as text"))
            else:
                try:
                    replies, close = await self._scheduler.run(
                        session, session.handle, text, limits.decision_timeout, size=len(text))
                except DecisionTimeout:
                    self._quiet.warning("timeout", "session %s: a decision took longer than "
                                                   "%g s; closing it", session.name,
                                        limits.decision_timeout)
                    await self._close(ws, m.error(
                        "timeout", f"the decision took longer than "
                                   f"{limits.decision_timeout:g} s; closing"), 1011, "timeout")
                    return
            for reply in replies:
                await asyncio.wait_for(ws.send(m.encode(reply)), limits.idle_timeout)
            slot.active, slot.deciding = time.monotonic(), False
            if close:
                await ws.close(1000 if not replies else 1008, "bye" if not replies
                               else "too many errors")
                return

    @staticmethod
    async def _close(ws: Any, reply: dict[str, Any], code: int, reason: str) -> None:
        _, exceptions = _websockets()
        with contextlib.suppress(exceptions.ConnectionClosed, asyncio.TimeoutError):
            await asyncio.wait_for(ws.send(m.encode(reply)), CLOSE_TIMEOUT)
            await ws.close(code, reason)


def _guarded_connection(server: BotServer) -> Callable[..., Any]:
    """A websockets connection factory that counts sockets per address from the first byte."""
    websockets_server, _ = _websockets()

    class GuardedConnection(websockets_server.ServerConnection):
        address: str | None = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self.address = client_address(transport.get_extra_info("peername"))
            if not server._socket_opened(self.address):
                transport.abort()

        def connection_lost(self, exc: Exception | None) -> None:
            if self.address is not None:
                server._socket_closed(self.address)
                self.address = None
            super().connection_lost(exc)

    return GuardedConnection


def tune_process_for_serving() -> None:
    """Tune the whole interpreter for serving; ``eights serve`` calls it once it listens.

    Two settings of the process, not of one server, so a program that embeds
    a :class:`BotServer` decides for itself:

    * the thread switch interval drops from 5 ms to :data:`SWITCH_INTERVAL`,
      so the event loop and a light decision get the interpreter back from a
      heavy one within a millisecond (every socket operation gives it up);
    * everything loaded so far (modules, the agents' tables) is frozen out
      of garbage collection (``gc.freeze``): a full collection then walks
      only what sessions made, not the whole program, and stops every thread
      for a fraction of the time.

    Measured with four clients flooding the largest valid decides beside a
    good one (docs/protocol.md), the good client's p99 went from about 95 ms
    to about 50 ms with the freeze and 25 ms with both.
    """
    gc.collect()
    gc.freeze()
    sys.setswitchinterval(SWITCH_INTERVAL)


async def serve(server: Any, on_ready: Callable[[Any], None] | None = None) -> None:
    """Run ``server`` (a :class:`BotServer`, or ``eights web``'s server: anything with
    coroutines ``start``, ``serve_forever`` and ``close``) until cancelled, calling
    ``on_ready`` once it listens."""
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
    with in_background(BotServer(agent_spec, variant, **options), "eights-serve") as server:
        yield server


@contextlib.contextmanager
def in_background(server: Any, name: str) -> Iterator[Any]:
    """``server`` (anything with coroutines ``start`` and ``close``) started on a thread's
    own event loop, closed and its thread joined on exit; a failure to start is raised
    here (``eights serve``'s and ``eights web``'s servers both run this way)."""
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

    thread = threading.Thread(target=run, name=name, daemon=True)
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
