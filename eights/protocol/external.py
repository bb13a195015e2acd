"""ExternalAgent: a program that speaks the protocol, playing like any built-in agent.

``make_agent("exec:node bot.js", variant)`` runs a subprocess and talks JSON
lines with it; ``make_agent("ws://host:8765", variant)`` talks to a WebSocket
server such as ``eights serve``. Either way the agent sends the seat's view
and legal actions (built by :mod:`eights.protocol.messages` from the view
alone) and plays the action the bot names, so envs, ``play_game`` and
tournaments use it like any other agent.

A bot is someone else's program, so everything it can do wrong is expected:
it may fail to start, crash, hang, answer with garbage or name an illegal
action. Each failure is logged (logger ``eights.protocol.external``) with
what happened, and then, by ``on_error``:

* ``"fallback"`` (the default): the agent plays a uniformly random legal
  action drawn from its own generator (seeded by :meth:`seed`, so a replayed
  game falls back the same way) and the game goes on;
* ``"forfeit"``: :meth:`act` raises :class:`~eights.protocol.errors.BotForfeit`
  before anything is played; the game runner ends the game with that seat
  losing.

A bot that crashed, missed its deadline, failed the hello or flooded its
output is stopped (its state is unknown, and a hung bot would cost every
later deadline too) and started again for the next decision. Such
*stopping* failures (:data:`STOPPING`) are what a bot costs beyond its time
limits, and three budgets bound them. After ``max_restarts`` + 1 in a row,
or ``max_failures_per_game`` in one game, the bot is not asked again until
the next game (:meth:`seed`): its decisions are ``gave_up`` failures, handled
by ``on_error`` like any other. After ``max_failures`` in all it is
``retired``: it is stopped, and every later decision raises
:class:`~eights.protocol.errors.BotForfeit` at once, without starting it,
whatever ``on_error`` says. The last budget is the agent's, so it lasts for
a tournament that one agent plays (each worker process of a parallel
tournament has its own agents, and so its own budget). A wrong answer
(``malformed``, ``illegal``, ``refused``) costs no more time than a right
one: it is handled and counted, and spends no budget.

The agent counts all of it: :attr:`ExternalAgent.failures` by what went
wrong (the kinds of :data:`~eights.protocol.errors.FAILURE_KINDS`), and
:attr:`ExternalAgent.handled` by what it did about it: ``fallback`` moves,
``restart`` s of the bot, and ``failed_start`` s (a failure before the bot
had answered the hello: it could not be started, died at startup, or
refused or missed the hello). Tournaments store both per game and seat
(:meth:`~eights.agents.Agent.failure_counts`), and a bot whose every
decision failed with at least one failed start is reported as never started.

Options ride on the spec after its last ``?``, as ``policy:PATH?sample``
does: ``exec:./bot?time_limit=0.5,on_error=forfeit`` (a command or URL that
needs a ``?`` of its own ends the spec with one more ``?``). Each must be in
the range :data:`OPTIONS` gives (numbers finite); anything else, and a
command that cannot be split like a shell would, is a
:class:`~eights.config.ConfigError` before anything runs. A ``#label``
suffix names a second entry of the same bot, as for every agent.
"""

from __future__ import annotations

import collections
import contextlib
import json
import logging
import math
import os
import shlex
import shutil
import time
import weakref
from typing import Any

from ..actions import ActionError
from ..agents.base import Agent
from ..config import ConfigError
from ..engines import engine_class
from ..engines.base import PlayerView
from . import messages as m
from .channels import Channel, ProcessChannel, WebSocketChannel
from .errors import BotFailure, BotForfeit, ProtocolError

log = logging.getLogger(__name__)

ON_ERROR = ("fallback", "forfeit")
#: the longest time_limit and startup_timeout, in seconds (a day)
MAX_SECONDS = 86400.0
#: the largest count an option takes (max_restarts, max_failures, ...)
MAX_COUNT = 1_000_000
#: the largest max_message_bytes (64 MiB): a bot's queued output is held up to 4 times it
MAX_MESSAGE_BYTES = 64 * 1024 * 1024


def _seconds(x: float) -> bool:
    return math.isfinite(x) and 0 < x <= MAX_SECONDS


#: spec options after the last '?': name -> (type, check, what is allowed)
OPTIONS: dict[str, tuple[type, Any, str]] = {
    "time_limit": (float, _seconds, f"seconds per decision, a finite number > 0 and at most "
                                    f"{MAX_SECONDS:g} (default 5)"),
    "startup_timeout": (float, _seconds, f"seconds to start and answer the hello, a finite "
                                         f"number > 0 and at most {MAX_SECONDS:g} (default 10)"),
    "on_error": (str, lambda x: x in ON_ERROR, "fallback or forfeit (default fallback)"),
    "max_restarts": (int, lambda x: 0 <= x <= MAX_COUNT,
                     f"restarts in a row per game, an integer from 0 to {MAX_COUNT} (default 3)"),
    "max_failures_per_game": (int, lambda x: 1 <= x <= MAX_COUNT,
                              f"stopping failures (crash, timeout, handshake, flood) in a game "
                              f"before the bot is not asked again that game, an integer from 1 "
                              f"to {MAX_COUNT} (default 5)"),
    "max_failures": (int, lambda x: 1 <= x <= MAX_COUNT,
                     f"stopping failures in all before the bot forfeits every later game "
                     f"unstarted, an integer from 1 to {MAX_COUNT} (default 50)"),
    "max_message_bytes": (int, lambda x: 1024 <= x <= MAX_MESSAGE_BYTES,
                          f"an integer from 1024 to {MAX_MESSAGE_BYTES} "
                          f"(default {m.DEFAULT_MAX_MESSAGE_BYTES})"),
}
#: failures that leave the bot in an unknown state: it is stopped and restarted, and
#: each spends the failure budgets (max_restarts, max_failures_per_game, max_failures)
STOPPING = frozenset({"crash", "timeout", "handshake", "flood"})


def check_option(key: str, value: Any, where: str = "") -> Any:
    """``value`` of option ``key`` converted to the option's type, or a ConfigError.

    A text is converted as a spec's option is (``"0.5"``); the error names
    the option, the value and what is allowed, after ``where`` (the spec).
    """
    kind, ok, allowed = OPTIONS[key]
    converted: Any = None
    if isinstance(value, str):
        with contextlib.suppress(ValueError):
            converted = kind(value)
    elif kind is float and isinstance(value, (int, float)) and not isinstance(value, bool):
        converted = float(value)
    elif kind is int and isinstance(value, int) and not isinstance(value, bool):
        converted = value
    if converted is None or not ok(converted):
        raise ConfigError(f"{where}{key}={value!r} is not allowed; {key} must be {allowed}")
    return converted


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"exec:./bot?time_limit=0.5"`` -> ``("exec:./bot", {"time_limit": 0.5})``.

    Everything after the last ``?`` is options; ``"ws://h/p?token=x?"`` keeps
    its query (the options after the last ``?`` are empty).
    """
    if "?" not in spec:
        return spec, {}
    target, _, text = spec.rpartition("?")
    options: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        key, eq, value = item.partition("=")
        if not eq or key not in OPTIONS:
            raise ConfigError(f"agent spec {spec!r}: {item!r} is not an option; after the last "
                              f"'?' come name=value options: {', '.join(OPTIONS)} (end the "
                              f"spec with '?' to keep a '?' in the command or URL)")
        options[key] = check_option(key, value, f"agent spec {spec!r}: ")
    return target, options


def _shorten(text: str, limit: int = 120) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "..."


class ExternalAgent(Agent):
    """An agent whose decisions come from a program speaking the protocol.

    ``target`` is ``"exec:COMMAND"`` (split like a shell would, without a
    shell, and run in the current directory) or a ``ws://`` / ``wss://`` URL.
    One bot process or connection serves every game the agent plays; it is
    started at the first decision and again after a failure that stops it.
    Call :meth:`close` (or use the agent as a context manager) to say bye;
    a process left over is stopped when the agent is garbage-collected or
    the interpreter exits.
    """

    def __init__(self, target: str, *, seed: int | None = None, time_limit: float = 5.0,
                 startup_timeout: float = 10.0, on_error: str = "fallback",
                 max_restarts: int = 3, max_failures_per_game: int = 5,
                 max_failures: int = 50,
                 max_message_bytes: int = m.DEFAULT_MAX_MESSAGE_BYTES):
        super().__init__(seed)
        if on_error not in ON_ERROR:
            raise ConfigError(f"on_error={on_error!r} is not allowed; it must be "
                              f"{' or '.join(ON_ERROR)}")
        where = f"agent {target!r}: "
        self.target = target
        self.name = target
        self.time_limit: float = check_option("time_limit", time_limit, where)
        self.startup_timeout: float = check_option("startup_timeout", startup_timeout, where)
        self.on_error = on_error
        self.max_restarts: int = check_option("max_restarts", max_restarts, where)
        self.max_failures_per_game: int = check_option("max_failures_per_game",
                                                       max_failures_per_game, where)
        self.max_failures: int = check_option("max_failures", max_failures, where)
        self.max_message_bytes: int = check_option("max_message_bytes", max_message_bytes,
                                                   where)
        if target.startswith("exec:"):
            try:
                self.argv = shlex.split(target[len("exec:"):])
            except ValueError as err:  # an unclosed quote, a trailing backslash
                raise ConfigError(f"agent spec {target!r}: the command cannot be split like a "
                                  f"shell would ({err}); quote it as a shell would, e.g. "
                                  f"exec:python 'my bot.py'") from None
            if any("\0" in arg for arg in self.argv):
                raise ConfigError(f"agent spec {target!r}: the command holds a NUL character, "
                                  f"which no command can")
            if not self.argv:
                raise ConfigError(f"agent spec {target!r}: exec: needs a command, "
                                  f"e.g. exec:node examples/bots/random_bot.js")
            program = self.argv[0]
            if shutil.which(program) is None and not os.path.isfile(program):
                raise ConfigError(f"agent spec {target!r}: the command {program!r} is not "
                                  f"found (not on PATH and not a file)")
            self.url = None
        elif target.startswith(("ws://", "wss://")):
            self.argv = None
            self.url = target
        else:
            raise ConfigError(f"external agent {target!r}: the target must be exec:COMMAND or "
                              f"a ws:// or wss:// URL")
        # self.failures (from Agent) counts failures by kind: crash, timeout, handshake, ...
        #: what was done about failures: fallback moves, restarts, failed starts
        self.handled: collections.Counter[str] = collections.Counter()
        #: decisions the bot answered itself
        self.decisions = 0
        self._restart_pending = False
        self._holder: list[Channel | None] = [None]
        self._finalizer = weakref.finalize(self, _drop, self._holder)
        self._ready_for: tuple[str, str] | None = None
        self._next_id = 0
        self._game = 0
        self._new_game = True
        self._last_turn = -1
        self._failures_in_row = 0
        #: stopping failures this game, and in all
        self._game_failures = 0
        self._total_failures = 0
        #: why the bot is not asked again this game, or None
        self._given_up: str | None = None
        #: why the bot forfeits every decision from now on, or None
        self._retired: str | None = None

    @classmethod
    def from_spec(cls, spec: str, seed: int | None = None) -> ExternalAgent:
        """An agent from ``exec:COMMAND[?options]`` or ``ws://URL[?options]``."""
        target, options = parse_spec(spec)
        return cls(target, seed=seed, **options)

    # ------------------------------------------------------------ agent API
    def seed(self, seed: int | None) -> None:
        """Reseed (tournaments do this per game): a new game, and the bot gets a fresh chance
        (unless it is retired: that is for good)."""
        super().seed(seed)
        self._new_game = True

    def act(self, view: PlayerView) -> int:
        if not view.legal_actions:
            raise ValueError(f"seat {view.seat} has no decision to make in this view")
        if self._new_game or view.turn < self._last_turn:
            self._game += 1
            self._new_game = False
            self._given_up = None
            self._failures_in_row = self._game_failures = 0
        self._last_turn = view.turn
        if self._retired is not None:
            self.failures["retired"] += 1
            raise BotForfeit(self.name, view.seat, "retired", self._retired)
        self._next_id += 1
        id_ = self._next_id
        try:
            if self._given_up is not None:
                raise BotFailure("gave_up", self._given_up)
            channel = self._ready(view)
            channel.send(m.encode(m.decide(view, id_, self._game,
                                           max(1, round(self.time_limit * 1000)))))
            action = self._answer(channel, id_, view, time.monotonic() + self.time_limit)
        except BotFailure as failure:
            return self._fail(view, id_, failure)
        self._failures_in_row = 0
        self.decisions += 1
        return action

    def failure_counts(self) -> collections.Counter[str]:
        """:attr:`failures` by kind plus :attr:`handled` (``fallback``, ``restart``, ...)."""
        return self.failures + self.handled

    def game_over(self, view: PlayerView, winners: tuple[int, ...] | list[int]) -> None:
        """Tell the bot how a game ended (optional; the bot does not answer)."""
        channel = self._holder[0]
        if channel is None or self._ready_for is None:
            return
        try:
            channel.send(m.encode(m.game_over(view, self._game, winners)))
        except BotFailure as failure:
            log.info("%s: could not send game_over: %s", self.name, failure)
            self._drop_channel()

    def close(self) -> None:
        """Say bye and let the bot go."""
        channel = self._holder[0]
        if channel is None:
            return
        with contextlib.suppress(BotFailure):
            channel.send(m.encode(m.bye()))
        self._holder[0] = None
        self._ready_for = None
        channel.close()

    def __enter__(self) -> ExternalAgent:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------ internals
    def _open(self) -> Channel:
        if self.argv is not None:
            return ProcessChannel(self.argv, max_message_bytes=self.max_message_bytes,
                                  name=self.name)
        assert self.url is not None
        return WebSocketChannel(self.url, max_message_bytes=self.max_message_bytes,
                                open_timeout=self.startup_timeout)

    def _drop_channel(self) -> None:
        """Stop the bot now (its state is unknown); the next decision starts it again."""
        channel, self._holder[0] = self._holder[0], None
        self._ready_for = None
        self._restart_pending = True
        if channel is not None:
            channel.close(kill=True)

    def _ready(self, view: PlayerView) -> Channel:
        """The channel, started and greeted with the view's variant and config.

        A failure on the way (the bot cannot be started, dies, or refuses or
        misses the hello) is counted as a ``failed_start`` before it is handled.
        """
        config = view.config.to_dict()
        key = (view.variant, json.dumps(config, sort_keys=True))
        if self._holder[0] is not None and self._ready_for == key:
            return self._holder[0]
        try:
            return self._start(view, config, key)
        except BotFailure:
            self.handled["failed_start"] += 1
            raise

    def _start(self, view: PlayerView, config: dict[str, Any], key: tuple[str, str]) -> Channel:
        """Start the bot if it is not running (a restart after a failure is counted), greet it."""
        if self._holder[0] is None:
            if self._restart_pending:
                self.handled["restart"] += 1
                self._restart_pending = False
            self._holder[0] = self._open()
        channel = self._holder[0]
        channel.send(m.encode(m.hello(view.variant, config, name="eights")))
        deadline = time.monotonic() + self.startup_timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise BotFailure("handshake", f"{channel.description} did not answer the hello "
                                              f"within {self.startup_timeout:g} s")
            try:
                text = channel.recv(remaining)
            except BotFailure as failure:
                if failure.kind == "timeout":
                    raise BotFailure("handshake", f"{channel.description} did not answer the "
                                     f"hello within {self.startup_timeout:g} s") from None
                raise
            try:
                msg = m.parse_message(text, "bot", self.max_message_bytes)
            except ProtocolError as err:
                raise BotFailure("handshake", f"bad answer to the hello: {err.message} "
                                              f"(got {_shorten(text)!r})") from None
            if msg["type"] == "ready":
                self._ready_for = key
                log.info("%s: %s is ready (%s) for %s", self.name, msg["name"],
                         channel.description, view.variant)
                return channel
            if msg["type"] == "error" and msg.get("id") is None:
                raise BotFailure("handshake", f"the bot refused the hello: {msg['code']}: "
                                              f"{msg['message']}")
            log.debug("%s: skipping a late answer while greeting: %s", self.name, text)

    def _answer(self, channel: Channel, id_: int, view: PlayerView, deadline: float) -> int:
        """The action the bot names for decision ``id_``, checked against the view."""
        actions = engine_class(view.variant).actions
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise BotFailure("timeout", f"no answer within the time limit of "
                                            f"{self.time_limit:g} s")
            try:
                text = channel.recv(remaining)
                msg = m.parse_message(text, "bot", self.max_message_bytes)
            except ProtocolError as err:
                raise _Malformed(err) from None
            except BotFailure as failure:
                if failure.kind == "timeout":
                    raise BotFailure("timeout", f"no answer within the time limit of "
                                                f"{self.time_limit:g} s") from None
                raise
            got = msg.get("id")
            if msg["type"] == "ready":
                raise _Malformed(ProtocolError("unknown_type", "a ready where an action for "
                                                               f"decision {id_} was expected"))
            if got is not None and got < id_:
                log.debug("%s: skipping a late answer to decision %s", self.name, got)
                continue
            if got is not None and got > id_:
                raise _Malformed(ProtocolError("bad_value", f"an answer to decision {got}, "
                                                            f"which was never asked (now {id_})"))
            if msg["type"] == "error":
                raise BotFailure("refused", f"the bot answered with an error: {msg['code']}: "
                                            f"{msg['message']}")
            try:
                chosen = actions.parse(msg["action"])
            except ActionError as err:
                raise BotFailure("illegal", str(err)) from None
            if chosen not in view.legal_actions:
                raise BotFailure("illegal", f"{actions.text(chosen)!r} is not legal now; legal: "
                                            f"{', '.join(actions.texts_of(view.legal_actions))}")
            return chosen

    def _fail(self, view: PlayerView, id_: int, failure: BotFailure) -> int:
        """Log a failure, tell or stop the bot, then fall back or forfeit."""
        self.failures[failure.kind] += 1
        where = f"{self.name} (seat {view.seat}, game {self._game}, decision {id_})"
        if failure.kind in STOPPING:
            self._drop_channel()
            self._failures_in_row += 1
            self._spend(where)
        elif failure.kind in ("malformed", "illegal"):
            code = failure.code if isinstance(failure, _Malformed) else "illegal_action"
            self._tell(m.error(code, failure.detail, id_))
        if self.on_error == "forfeit":
            log.warning("%s: %s: %s; the bot forfeits", where, failure.kind, failure.detail)
            raise BotForfeit(self.name, view.seat, failure.kind, failure.detail)
        choice = view.legal_actions[self.rng.randrange(len(view.legal_actions))]
        self.handled["fallback"] += 1
        level = logging.INFO if failure.kind == "gave_up" else logging.WARNING
        log.log(level, "%s: %s: %s; playing %r instead (fallback)", where, failure.kind,
                failure.detail, engine_class(view.variant).actions.text(choice))
        return choice

    def _spend(self, where: str) -> None:
        """Count a stopping failure against the budgets; give up on the bot this game, or
        for good."""
        self._game_failures += 1
        self._total_failures += 1
        if self._total_failures >= self.max_failures:
            self._retired = (f"{self._total_failures} failures in all stopped it "
                             f"(max_failures={self.max_failures}); it is not started again")
            log.warning("%s: %s, and forfeits every decision from now on", where, self._retired)
            self._restart_pending = False
            return
        if self._given_up is not None:
            return
        if self._failures_in_row > self.max_restarts:
            self._given_up = (f"it failed {self._failures_in_row} times in a row this game "
                              f"(max_restarts={self.max_restarts}); it is not asked again "
                              f"until the next game")
        elif self._game_failures >= self.max_failures_per_game:
            self._given_up = (f"{self._game_failures} failures this game stopped it "
                              f"(max_failures_per_game={self.max_failures_per_game}); it is "
                              f"not asked again until the next game")
        if self._given_up is not None:
            log.warning("%s: %s", where, self._given_up)

    def _tell(self, message: dict[str, Any]) -> None:
        """Tell the bot what it did wrong (best effort: it may not listen)."""
        channel = self._holder[0]
        if channel is not None:
            try:
                channel.send(m.encode(message))
            except BotFailure:
                self._drop_channel()

    def __repr__(self) -> str:
        return f"ExternalAgent({self.name!r}, on_error={self.on_error!r})"


class _Malformed(BotFailure):
    """A ``malformed`` failure that keeps the protocol error's code, to tell the bot."""

    def __init__(self, err: ProtocolError):
        super().__init__("malformed", err.message)
        self.code = err.code


def _drop(holder: list[Channel | None]) -> None:
    """Finalizer: stop a bot process the agent still holds."""
    channel, holder[0] = holder[0], None
    if channel is not None:
        channel.close(kill=True)
