"""The messages the page sends the web server, read strictly, and the replies' shapes.

The page and the server speak JSON objects with a ``type``, one per
WebSocket message. A message the server cannot use is answered with an
``error`` carrying one of the bot protocol's codes
(:data:`eights.protocol.errors.ERROR_CODES`), so a reader of docs/protocol.md
already knows what each means: ``bad_json``, ``too_large``,
``unknown_type``, ``unknown_field``, ``missing_field``, ``bad_value``,
``out_of_order``, ``illegal_action``, ``too_many_errors``, ``busy``,
``timeout``. Reading is strict for the same reason as there: a typo in a
field is named at once instead of being ignored.
"""

from __future__ import annotations

import json
from typing import Any

from ..protocol.errors import ProtocolError
from ..protocol.messages import encode

__all__ = ["FIELDS", "dumps", "error", "parse"]

#: JSON kinds, by the name a message's description uses
_KINDS: dict[str, tuple[type, ...]] = {
    "string": (str,), "integer": (int,), "boolean": (bool,), "object": (dict,),
    "strings": (list,), "integer or null": (int, type(None)),
}

#: type -> field -> (kind, required); every message the page may send
FIELDS: dict[str, dict[str, tuple[str, bool]]] = {
    # Play: a new game at a table of the page's choosing; then its keys and moves
    "start": {"variant": ("string", True), "opponents": ("strings", True),
              "seat": ("integer", False), "seed": ("integer or null", False),
              "options": ("object", False), "hand": ("boolean", False),
              "turn_time": ("number", False)},
    "key": {"key": ("string", True)},
    "move": {"index": ("integer", True)},
    "leave": {},
    # Watch: a store's games (filtered), one game's replay, a bot's thinking at one step
    "games": {"store": ("integer", True), "agent": ("string", False),
              "outcome": ("string", False)},
    "replay": {"store": ("integer", True), "game": ("integer", True),
               "seat": ("integer or null", False)},
    "think": {"store": ("integer", True), "game": ("integer", True),
              "step": ("integer", True)},
    # Leaderboard: a store's standings, sent again whenever the store gains games
    "board": {"store": ("integer", True)},
}
#: the longest key name the page sends ("backspace")
MAX_KEY_CHARS = 16
#: outcome filters of the games list
OUTCOMES = ("any", "win", "loss", "truncated", "forfeit")


def _check(kind: str, value: Any) -> bool:
    allowed = _KINDS[kind]
    if isinstance(value, bool) and bool not in allowed:
        return False  # JSON true is not an integer here
    if not isinstance(value, allowed):
        return False
    if kind == "strings":
        return all(isinstance(v, str) for v in value)
    return True


def parse(text: str | bytes, max_bytes: int) -> dict[str, Any]:
    """The page's message in ``text``, checked; a :class:`ProtocolError` names what is wrong."""
    if isinstance(text, bytes):
        raise ProtocolError("bad_json", "binary frames are not read; send each message as text")
    size = len(text.encode("utf-8"))
    if size > max_bytes:
        raise ProtocolError("too_large", f"a message of {size:,} bytes is over the limit of "
                                         f"{max_bytes:,} bytes")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as err:
        raise ProtocolError("bad_json", f"not a JSON message ({err}); send one JSON object "
                                        f"per message") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_json", f"a message must be a JSON object with a \"type\", "
                                        f"not a JSON {type(data).__name__}")
    kind = data.get("type")
    if kind not in FIELDS:
        what = "has no \"type\"" if "type" not in data else f"has type {kind!r}"
        raise ProtocolError("unknown_type", f"the message {what}; the page sends "
                                            f"{', '.join(FIELDS)}")
    fields = FIELDS[kind]
    for name in data:
        if name != "type" and name not in fields:
            raise ProtocolError("unknown_field", f"{kind}: no field {name!r}; its fields are "
                                                 f"{', '.join(fields) or 'none'}")
    for name, (want, required) in fields.items():
        if name not in data:
            if required:
                raise ProtocolError("missing_field", f"{kind}: the field {name!r} is required")
            continue
        if not _check(want, data[name]):
            raise ProtocolError("bad_value", f"{kind}.{name}: {json.dumps(data[name])[:60]} "
                                             f"is not allowed; it must be {_a(want)}")
    if kind == "key" and not 0 < len(data["key"]) <= MAX_KEY_CHARS:
        raise ProtocolError("bad_value", f"key.key: a key name is 1 to {MAX_KEY_CHARS} "
                                         f"characters")
    if kind == "games" and data.get("outcome", "any") not in OUTCOMES:
        raise ProtocolError("bad_value", f"games.outcome: {data['outcome']!r} is not one of "
                                         f"{', '.join(OUTCOMES)}")
    return data


def _a(kind: str) -> str:
    return {"strings": "a list of strings", "object": "an object",
            "integer or null": "an integer or null"}.get(kind, f"a {kind}")


def error(err: ProtocolError) -> dict[str, Any]:
    """The ``error`` reply to a message the server could not use."""
    return {"type": "error", "code": err.code, "message": err.message}


def dumps(message: dict[str, Any]) -> str:
    """One reply as compact JSON (the protocol's writer)."""
    return encode(message)
