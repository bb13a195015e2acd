"""The protocol's exceptions: a message that breaks the protocol, a bot that failed, a forfeit.

They live apart from the modules that raise them so a caller (a tournament,
a frontend) can catch them without importing a transport.
"""

from __future__ import annotations

from ..agents.base import AgentForfeit

#: every error code an ``error`` message may carry (docs/protocol.md explains each)
ERROR_CODES = (
    "bad_json",               # not UTF-8 JSON text, or not a JSON object
    "too_large",              # over the receiver's message size limit
    "unknown_type",           # a type the receiver does not know or does not take from this side
    "unknown_field",          # a field the message type does not have
    "missing_field",          # a required field is absent
    "bad_value",              # a field of the wrong type or an impossible value
    "bad_view",               # a decide's view that no position of the game fits
    "unsupported_protocol",   # the hello names a protocol version the bot does not speak
    "unsupported_variant",    # the bot does not play this variant
    "bad_config",             # the variant does not allow this config
    "out_of_order",           # e.g. a decide before any hello
    "agent_error",            # the bot's own agent failed on this view
    "illegal_action",         # (frontend to bot) the bot's action was not legal
    "timeout",                # a deadline passed (decision or idle)
    "too_many_errors",        # the session ends after this many errors in a row
    "busy",                   # the server is at its connection limit
)


class ProtocolError(ValueError):
    """A message that breaks the protocol; ``code`` is one of :data:`ERROR_CODES`.

    ``id`` is the decision id the message was about, when it could be read,
    so the error reply can name the decision it refuses.
    """

    def __init__(self, code: str, message: str, id: int | None = None):
        if code not in ERROR_CODES:
            raise ValueError(f"error code {code!r} is not one of {', '.join(ERROR_CODES)}")
        super().__init__(message)
        self.code = code
        self.message = message
        self.id = id


#: what can go wrong with an external bot (the ``kind`` of a BotFailure or BotForfeit)
FAILURE_KINDS = (
    "crash",      # the process exited or the connection closed (or could not start)
    "timeout",    # no answer within the time limit; the bot is stopped and restarted
    "handshake",  # the bot refused the hello or answered it wrongly
    "malformed",  # the answer is not a valid protocol message
    "illegal",    # the answer names an action that is not legal now
    "refused",    # the bot answered the decision with an error message
    "flood",      # the bot wrote more than the frontend holds for it; it is stopped and restarted
    "gave_up",    # the bot failed too often this game; it is not asked again until the next
    "retired",    # the bot used up its failures for good; every later game forfeits unstarted
)


class BotFailure(Exception):
    """One failure of an external bot, before the on-error policy decides what follows."""

    def __init__(self, kind: str, detail: str):
        if kind not in FAILURE_KINDS:
            raise ValueError(f"failure kind {kind!r} is not one of {', '.join(FAILURE_KINDS)}")
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


class BotForfeit(AgentForfeit):
    """An external bot failed a decision and its agent was told to forfeit rather than fall back.

    Raised from :meth:`ExternalAgent.act` before any action is applied, so
    the game is exactly as it was when the bot was asked. It is an
    :class:`~eights.agents.AgentForfeit`, so tournaments score the game as
    lost by ``seat`` and go on; ``kind`` and ``detail`` say what went wrong.
    """

    def __init__(self, agent: str, seat: int, kind: str, detail: str):
        super().__init__(f"bot {agent!r} at seat {seat} forfeits: {kind}: {detail}")
        self.agent = agent
        self.seat = seat
        self.kind = kind
        self.detail = detail
