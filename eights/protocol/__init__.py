"""The JSON bot protocol: any program can play, and any frontend can use our agents.

A *frontend* runs a game and asks a *bot* for decisions: it sends the seat's
view (everything that seat may know, nothing more) and the legal actions in
text notation; the bot answers one action. docs/protocol.md is the full
description and ``schema.json`` the JSON Schema of every message.

* :mod:`~eights.protocol.messages`: building, writing and strictly reading messages
* :mod:`~eights.protocol.views`: a PlayerView as JSON and back (what a bot may see); the
  fields a frontend may leave out are filled in from the engine's declared defaults
* :mod:`~eights.protocol.session`: the bot's side of a session, around a built-in agent
* :mod:`~eights.protocol.stdio`: a bot over stdin/stdout (``eights bot``)
* :mod:`~eights.protocol.server`: a WebSocket bot server (``eights serve``)
* :mod:`~eights.protocol.channels`: the frontend's end of a pipe or WebSocket
* :mod:`~eights.protocol.external`: :class:`ExternalAgent` (``exec:COMMAND``, ``ws://URL``)

Transports and ExternalAgent are imported on use, so reading messages does
not need the WebSocket library.
"""

from __future__ import annotations

from typing import Any

from .errors import ERROR_CODES, FAILURE_KINDS, BotFailure, BotForfeit, ProtocolError
from .messages import PROTOCOL, SUPPORTED_PROTOCOLS, encode, load_schema, parse_message
from .views import read_view, view_from_json, view_to_json


def __getattr__(name: str) -> Any:
    if name == "ExternalAgent":
        from .external import ExternalAgent

        return ExternalAgent
    if name == "BotServer":
        from .server import BotServer

        return BotServer
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "ERROR_CODES", "FAILURE_KINDS", "PROTOCOL", "SUPPORTED_PROTOCOLS", "BotFailure", "BotForfeit",
    "BotServer", "ExternalAgent", "ProtocolError", "encode", "load_schema", "parse_message",
    "read_view", "view_from_json", "view_to_json",
]
