"""The bot's side of one protocol session, whatever carries it (stdin/stdout, a WebSocket).

A session is a hello, then any number of decisions (and game ends, and new
hellos that change the variant or config), then a bye. :class:`BotSession`
is that state machine around one built-in :class:`~eights.agents.Agent`: it
takes one message's text and gives the replies to send, so the transports
only move text and enforce their own limits.

A message that breaks the protocol is answered with an ``error`` naming what
was wrong; the session goes on, because one bad message is no reason to lose
a game. Only ``max_errors`` errors in a row end it, so a client that sends
nothing but garbage is cut off.

A hello for a table the agent cannot play (``policy`` without a model for
that many players) is refused with ``bad_config`` at once, not at the first
decision. A frontend may leave out a view's optional fields; when the agent
cannot decide on the view so filled in (a search whose sampled positions do
not fit a default), the session logs why and answers with the variant's
heuristic instead, so the frontend still gets a legal move.

A decide's view that no position of the game fits (an empty agenda while a
decision is asked, legal actions its hand cannot give) is refused as
``bad_view`` naming the field (:mod:`~eights.protocol.consistency`), before
the agent sees it: the fault is the frontend's, not the agent's.
"""

from __future__ import annotations

import logging
import random
from typing import Any

from ..actions import ActionError
from ..agents import Agent, check_agent_spec, make_agent
from ..config import ConfigError, GameConfig
from ..engines import VARIANTS, engine_class
from ..engines.base import PlayerView
from . import messages as m
from .consistency import check_view_fits
from .errors import ProtocolError
from .views import read_view, view_from_json

log = logging.getLogger(__name__)

#: errors in a row after which a session is closed
DEFAULT_MAX_ERRORS = 10



class BotSession:
    """Answers one frontend's messages with an agent made from ``agent_spec``.

    ``variant`` restricts the session to one variant (a server serves one);
    ``seed`` makes the agent's choices reproducible: game ``g`` of the
    session reseeds it from ``(seed, g)``.
    """

    def __init__(self, agent_spec: str, *, variant: str | None = None, seed: int | None = None,
                 max_message_bytes: int = m.DEFAULT_MAX_MESSAGE_BYTES,
                 max_errors: int = DEFAULT_MAX_ERRORS, name: str | None = None):
        self.agent_spec = agent_spec
        self.only_variant = variant
        self.seed = seed
        self.max_message_bytes = max_message_bytes
        self.max_errors = max_errors
        self.name = name or f"eights {agent_spec}"
        self.variant: str | None = None
        self.config: GameConfig | None = None
        self.agent: Agent | None = None
        self.game: int | None = None
        self.errors_in_row = 0
        self.decisions = 0
        #: decisions the fallback heuristic answered because the agent failed on defaults
        self.fallbacks = 0
        self._fallback: Agent | None = None

    # ----------------------------------------------------------------- entry
    def handle(self, text: str | bytes) -> tuple[list[dict[str, Any]], bool]:
        """The replies to one message, and whether the session is over."""
        try:
            msg = m.parse_message(text, "frontend", self.max_message_bytes)
            replies, close = self._dispatch(msg)
        except ProtocolError as err:
            return self.refuse(err)
        self.errors_in_row = 0
        return replies, close

    def refuse(self, err: ProtocolError) -> tuple[list[dict[str, Any]], bool]:
        """The error reply to a bad message (transports call it for what they refuse)."""
        self.errors_in_row += 1
        log.info("session %s: refused a message: %s: %s", self.name, err.code, err.message)
        replies = [m.error_from(err)]
        if self.errors_in_row >= self.max_errors:
            replies.append(m.error("too_many_errors",
                                   f"{self.errors_in_row} bad messages in a row; closing"))
            return replies, True
        return replies, False

    # ----------------------------------------------------------------- types
    def _dispatch(self, msg: dict[str, Any]) -> tuple[list[dict[str, Any]], bool]:
        kind = msg["type"]
        if kind == "hello":
            return [self._hello(msg)], False
        if kind == "bye":
            return [], True
        if kind == "error":
            log.info("session %s: the frontend reports %s: %s", self.name, msg["code"],
                     msg["message"])
            return [], False
        if self.agent is None:
            raise ProtocolError("out_of_order", f"a {kind} before any hello; send a hello "
                                                f"first, naming the protocol, variant and config",
                                msg.get("id"))
        if kind == "decide":
            return [self._decide(msg)], False
        self._game_over(msg)
        return [], False

    def _hello(self, msg: dict[str, Any]) -> dict[str, Any]:
        variant = msg["variant"]
        allowed = [self.only_variant] if self.only_variant else list(VARIANTS)
        if variant not in allowed:
            raise ProtocolError("unsupported_variant", f"variant {variant!r} is not played "
                                                       f"here; this bot plays {', '.join(allowed)}")
        try:  # an option naming a file on the bot's machine is refused: send its content
            config = engine_class(variant).Config.from_data(msg["config"], "a hello's config")
        except ConfigError as err:
            raise ProtocolError("bad_config", f"config: {err}") from None
        except TypeError as err:
            raise ProtocolError("bad_config", f"config: {err}") from None
        agent = self.agent
        if agent is None or variant != self.variant:
            try:
                agent = make_agent(self.agent_spec, variant, self.seed)
            except ConfigError as err:
                raise ProtocolError("unsupported_variant",
                                    f"the agent {self.agent_spec!r} cannot play {variant}: {err}"
                                    ) from None
        try:
            check_agent_spec(self.agent_spec, variant, **config.to_dict())
        except ConfigError as err:
            raise ProtocolError("bad_config", f"the agent {self.agent_spec!r} cannot play this "
                                              f"table: {err}") from None
        if agent is not self.agent:
            self.agent, self._fallback = agent, None
        self.variant, self.config = variant, config
        self.game = None
        log.info("session %s: hello from %s: %s, %s", self.name, msg.get("name", "a frontend"),
                 variant, config.to_dict())
        return m.ready(self.name)

    def _decide(self, msg: dict[str, Any]) -> dict[str, Any]:
        assert self.agent is not None and self.variant is not None and self.config is not None
        id_ = msg["id"]
        actions = engine_class(self.variant).actions
        legal = []
        for i, text in enumerate(msg["legal"]):
            try:
                legal.append(actions.parse(text))
            except ActionError as err:
                raise ProtocolError("bad_value", f"legal[{i}]: {err}", id_) from None
        try:
            view, filled = read_view(msg["view"], self.variant, self.config,
                                     tuple(sorted(legal)))
        except ProtocolError as err:
            err.id = id_
            raise
        if view.current_player != view.seat:
            raise ProtocolError("bad_value", f"view.current_player is {view.current_player} "
                                             f"but the decision is asked of view.seat "
                                             f"{view.seat}; they must be the same", id_)
        try:
            check_view_fits(msg["view"], view, filled)
        except ProtocolError as err:
            err.id = id_
            raise
        if msg["game"] != self.game:
            self.game = msg["game"]
            if self.seed is not None:
                self.agent.seed(random.Random(f"{self.seed}/{self.game}").getrandbits(63))
        try:
            chosen = self.agent.act(view)
        except Exception as err:  # the agent's own failure: report it, keep serving
            if not filled:
                log.exception("session %s: the agent failed on decision %s", self.name, id_)
                raise ProtocolError("agent_error", f"the agent {self.agent_spec!r} failed on "
                                                   f"this view: {type(err).__name__}: {err}",
                                    id_) from None
            chosen = self._fall_back(view, filled, err, id_)
        if chosen not in view.legal_actions:
            raise ProtocolError("agent_error", f"the agent {self.agent_spec!r} chose "
                                               f"{chosen!r}, which is not legal", id_)
        self.decisions += 1
        return m.action(id_, actions.text(chosen))

    def _fall_back(self, view: PlayerView, filled: tuple[str, ...], err: Exception,
                   id_: int) -> int:
        """The heuristic's choice, when the agent failed on a view with defaults filled in.

        A search agent samples positions that fit the view; a default that
        does not fit what the frontend's game really holds (a wild starter
        it did not mark ``free``, say) can leave no such position. That is a
        gap in what the frontend sent, not a reason to lose the decision.
        """
        assert self.variant is not None
        log.warning("session %s: the agent %r could not decide %s on this view (%s: %s); the "
                    "frontend left out %s and the defaults may not fit its game, so the "
                    "heuristic answers instead. Sending those fields lets the agent decide.",
                    self.name, self.agent_spec, id_, type(err).__name__, err, ", ".join(filled))
        if self._fallback is None:
            self._fallback = make_agent("heuristic", self.variant, self.seed)
        self.fallbacks += 1
        return self._fallback.act(view)

    def _game_over(self, msg: dict[str, Any]) -> None:
        assert self.variant is not None and self.config is not None
        view = view_from_json(msg["view"], self.variant, self.config)
        n = self.config.num_players
        bad = [w for w in msg["winners"] if w >= n]
        if bad:
            raise ProtocolError("bad_value", f"winners: seat {bad[0]} is not at a "
                                             f"{n}-player table")
        log.info("session %s: game %s over, seat %d sees winners %s and scores %s", self.name,
                 msg["game"], view.seat, msg["winners"], list(view.scores))
