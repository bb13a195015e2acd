"""The protocol's messages: building them, writing them, and reading them strictly.

Every message is one JSON object with a ``type``. A frontend (the side that
runs the game) sends ``hello``, ``decide``, ``game_over``, ``error`` and
``bye``; a bot sends ``ready``, ``action`` and ``error``. docs/protocol.md
describes each with an example and ``schema.json`` (beside this module) is
the JSON Schema of all of them.

Reading is strict on purpose: a message over the size limit, with a field
its type does not have, without a required field or with a value of the
wrong kind is refused with a :class:`ProtocolError` whose text names the
field and what is allowed. A bot author learns of a typo at once instead of
a silently ignored field, and a server never holds more than it agreed to.
Because of that, a protocol version never grows fields: a new field is a new
version, and the hello names the version (see :data:`SUPPORTED_PROTOCOLS`).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
from collections.abc import Sequence
from typing import Any

from ..engines import engine_class
from ..engines.base import PlayerView
from . import validation
from .errors import ERROR_CODES, ProtocolError
from .views import view_to_json

#: the protocol this library speaks, as the hello and ready name it
PROTOCOL = "eights-bot/2"
#: versions a bot built on this library answers; any other hello gets unsupported_protocol
SUPPORTED_PROTOCOLS = (PROTOCOL,)
#: what changed since each older version, said to a side that speaks only that one
RETIRED_PROTOCOLS = {
    "eights-bot/1": "eights-bot/2 writes every event's arguments by the kind each variant "
                    "declares (a suit or colour as its code in every variant, null where an "
                    "event has none)",
}
#: default limit on one message read by a stdio bot or ExternalAgent (a decide carries the
#: whole public history); ``eights serve`` has a smaller one of its own
#: (:data:`eights.protocol.server.DEFAULT_SERVER_MAX_MESSAGE_BYTES`)
DEFAULT_MAX_MESSAGE_BYTES = 1 << 20
#: what a frontend whose message is too large can do about it
FRONTEND_SIZE_HINT = ("a decide grows with its view's history, which is optional: send only "
                      "the recent events, or none")
#: ids and game numbers stay below 2**53 so JavaScript reads them exactly
MAX_ID = 2**53 - 1
#: message types each side may send
FRONTEND_TYPES = ("hello", "decide", "game_over", "error", "bye")
BOT_TYPES = ("ready", "action", "error")

@dataclasses.dataclass(frozen=True)
class NumberRange:
    """The values a numeric limit or option may take: finite, of one kind, within bounds.

    :meth:`problem` says what is wrong with a value (or None); :meth:`parse`
    reads an option's text for argparse, so a bad value is a usage error
    naming the option instead of a traceback.
    """

    low: float
    high: float
    integer: bool = True
    unit: str = ""
    #: ``low`` itself is not allowed (a timeout of 0 s is none)
    above: bool = False

    def allowed(self) -> str:
        unit = f" ({self.unit})" if self.unit else ""
        if self.integer:
            return f"an integer from {self.low:,} to {self.high:,}{unit}"
        low = f"above {self.low:g}" if self.above else f"at least {self.low:g}"
        return f"a finite number {low} and at most {self.high:,g}{unit}"

    def problem(self, value: Any, shown: str | None = None) -> str | None:
        """Why ``value`` (given as ``shown``) is not allowed, or None if it is."""
        kinds = (int,) if self.integer else (int, float)
        ok = (not isinstance(value, bool) and isinstance(value, kinds)
              and (isinstance(value, int) or math.isfinite(value))  # an int may not fit a float
              and (value > self.low if self.above else value >= self.low)
              and value <= self.high)
        if ok:
            return None
        shown = shown if shown is not None else repr(value)
        if len(shown) > 40:
            shown = shown[:37] + "..."
        return f"{shown} is not allowed; it must be {self.allowed()}"

    def parse(self, text: str) -> int | float:
        """``text`` as an allowed value, for argparse's ``type=``."""
        shown = text if text.strip() == text and text else repr(text)
        try:
            value: int | float = int(text) if self.integer else float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{shown} is not allowed; it must be "
                                             f"{self.allowed()}") from None
        problem = self.problem(value, shown)
        if problem:
            raise argparse.ArgumentTypeError(problem)
        return value


#: the limits a message size may be set to (a hello always fits the least)
MESSAGE_LIMITS = NumberRange(1024, 64 << 20, unit="bytes")
#: the limits on bad messages in a row before a session is ended
ERROR_LIMITS = NumberRange(1, 10_000, unit="messages")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ProtocolError("bad_json", f"field {key!r} appears twice in one object")
        out[key] = value
    return out


def _no_constants(name: str) -> Any:
    raise ProtocolError("bad_json", f"{name} is not JSON; numbers must be finite")


def parse_message(text: str | bytes, sender: str,
                  max_bytes: int = DEFAULT_MAX_MESSAGE_BYTES) -> dict[str, Any]:
    """The message in ``text``, sent by ``sender`` (``"frontend"`` or ``"bot"``), checked.

    Checks the size, the JSON, the type (one ``sender`` may send), the
    protocol version of a hello or ready, then the message against its
    definition in ``schema.json`` (:mod:`~eights.protocol.validation`): every
    field's presence and kind. A decide's view is checked as an object here and
    field by field by :func:`~eights.protocol.views.read_view` (its fields are
    the variant's, which the hello names).
    """
    if sender not in ("frontend", "bot"):
        raise ValueError(f"sender must be 'frontend' or 'bot', not {sender!r}")
    size = len(text) if isinstance(text, bytes) else (
        len(text) if len(text) > max_bytes else len(text.encode("utf-8")))
    if size > max_bytes:
        raise ProtocolError("too_large", f"a message of {size:,} bytes is over the limit of "
                                         f"{max_bytes:,} bytes"
                                         + (f"; {FRONTEND_SIZE_HINT}" if sender == "frontend"
                                            else ""))
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        data = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constants,
                          parse_float=validation.loads_float)
    except ProtocolError:
        raise
    except (ValueError, RecursionError) as err:
        reason = "nested too deeply" if isinstance(err, RecursionError) else str(err)
        raise ProtocolError("bad_json", f"not a JSON message ({reason}); send one JSON "
                                        f"object per message") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_json", f"a message must be a JSON object with a \"type\", "
                                        f"not a JSON {type(data).__name__}")
    kind = data.get("type")
    allowed = FRONTEND_TYPES if sender == "frontend" else BOT_TYPES
    if kind not in allowed:
        what = "has no \"type\"" if "type" not in data else f"has type {kind!r}"
        raise ProtocolError("unknown_type", f"the message {what}; a {sender} sends "
                                            f"{', '.join(allowed)}")
    id_ = data.get("id")
    try:
        if kind in ("hello", "ready") and isinstance(data.get("protocol"), str) \
                and data["protocol"] not in SUPPORTED_PROTOCOLS:
            retired = RETIRED_PROTOCOLS.get(data["protocol"])
            raise ProtocolError("unsupported_protocol",
                                f"protocol {data['protocol']!r} is not spoken here; this side "
                                f"speaks {', '.join(SUPPORTED_PROTOCOLS)}"
                                + (f" ({retired})" if retired else ""))
        validation.check(data, kind)
    except ProtocolError as err:
        if isinstance(id_, int) and not isinstance(id_, bool) and 0 <= id_ <= MAX_ID:
            err.id = id_
        raise
    return data


def encode(message: dict[str, Any]) -> str:
    """One message as compact JSON text (one line: JSON escapes newlines in strings)."""
    return json.dumps(message, separators=(",", ":"))


# ------------------------------------------------------------------ builders
def hello(variant: str, config: dict[str, Any], name: str | None = None) -> dict[str, Any]:
    msg: dict[str, Any] = {"type": "hello", "protocol": PROTOCOL, "variant": variant,
                           "config": dict(config)}
    if name:
        msg["name"] = name
    return msg


def ready(name: str) -> dict[str, Any]:
    return {"type": "ready", "protocol": PROTOCOL, "name": name}


def legal_texts(view: PlayerView) -> list[str]:
    """The view's legal actions in the variant's text notation, in id order."""
    return engine_class(view.variant).actions.texts_of(view.legal_actions)


def decide(view: PlayerView, id: int, game: int,
           time_limit_ms: int | None = None) -> dict[str, Any]:
    """Ask ``view.seat`` for a decision: its view and legal actions, all from the view."""
    return {"type": "decide", "id": id, "game": game, "view": view_to_json(view),
            "legal": legal_texts(view), "time_limit_ms": time_limit_ms}


def action(id: int, text: str) -> dict[str, Any]:
    return {"type": "action", "id": id, "action": text}


def game_over(view: PlayerView, game: int, winners: Sequence[int]) -> dict[str, Any]:
    """The end of a game as the seat sees it (the final view) and who won."""
    return {"type": "game_over", "game": game, "view": view_to_json(view),
            "winners": [int(w) for w in winners]}


def error(code: str, message: str, id: int | None = None) -> dict[str, Any]:
    if code not in ERROR_CODES:
        raise ValueError(f"error code {code!r} is not one of {', '.join(ERROR_CODES)}")
    msg: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if id is not None:
        msg["id"] = id
    return msg


def error_from(err: ProtocolError) -> dict[str, Any]:
    return error(err.code, err.message, err.id)


def bye() -> dict[str, Any]:
    return {"type": "bye"}


#: the JSON Schema (draft 2020-12) of every message, shipped beside this module
load_schema = validation.load_schema
