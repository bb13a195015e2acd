"""A bot over stdin/stdout: JSON lines in, JSON lines out, as chess engines speak UCI.

``python -m eights.protocol.stdio --agent heuristic`` (or ``eights bot
--agent heuristic``) turns any built-in agent into a protocol bot that any
frontend can run as a subprocess. One message per line, UTF-8; the process
ends at a ``bye`` or at the end of its input.

Only protocol messages go to stdout: the real stdout is kept for them and
``sys.stdout`` is pointed at stderr, so a stray ``print`` in an agent cannot
corrupt the stream. Logs go to stderr.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence
from typing import BinaryIO, TextIO

from . import messages as m
from .errors import ProtocolError
from .session import DEFAULT_MAX_ERRORS, BotSession

log = logging.getLogger(__name__)

#: the levels ``--log-level`` takes (in any case)
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


def _skip_line(stream: BinaryIO, chunk: int = 1 << 16) -> int:
    """Read and drop the rest of an overlong line; the bytes dropped."""
    dropped = 0
    while True:
        part = stream.readline(chunk)
        dropped += len(part)
        if not part or part.endswith(b"\n"):
            return dropped


def serve_stdio(session: BotSession, stdin: BinaryIO, stdout: TextIO) -> int:
    """Answer the frontend's lines on ``stdin`` until a bye or the end of input; exit status."""
    limit = session.max_message_bytes
    while True:
        line = stdin.readline(limit + 1)
        if not line:
            return 0
        if len(line) > limit and not line.endswith(b"\n"):
            size = len(line) + _skip_line(stdin)
            replies, close = session.refuse(ProtocolError(
                "too_large", f"a message of {size:,} bytes is over the limit of {limit:,} bytes; "
                             f"{m.FRONTEND_SIZE_HINT}"))
        elif not line.strip():
            continue  # blank lines are allowed between messages
        else:
            replies, close = session.handle(line.rstrip(b"\r\n"))
        for reply in replies:
            stdout.write(m.encode(reply) + "\n")
        stdout.flush()
        if close:
            return 0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of a stdio bot (shared with ``eights bot``)."""
    parser.add_argument("--agent", default="heuristic",
                        help="the built-in agent that answers, e.g. heuristic, ismcts:sims=200, "
                             "policy (default heuristic)")
    parser.add_argument("--variant", help="play only this variant (default: any the hello names)")
    parser.add_argument("--seed", type=int, help="seed the agent per game, for reproducible play")
    parser.add_argument("--max-message-bytes", type=m.MESSAGE_LIMITS.parse,
                        default=m.DEFAULT_MAX_MESSAGE_BYTES,
                        help=f"refuse longer messages: {m.MESSAGE_LIMITS.allowed()} "
                             f"(default {m.DEFAULT_MAX_MESSAGE_BYTES:,})")
    parser.add_argument("--max-errors", type=m.ERROR_LIMITS.parse, default=DEFAULT_MAX_ERRORS,
                        help=f"quit after this many bad messages in a row "
                             f"(default {DEFAULT_MAX_ERRORS})")
    parser.add_argument("--log-level", default="WARNING", type=str.upper, choices=LOG_LEVELS,
                        help="logging level on stderr (default WARNING)")


def run(args: argparse.Namespace) -> int:
    """Run a stdio bot with parsed :func:`add_arguments` options; the exit status."""
    from ..agents import make_agent
    from ..engines import VARIANTS

    logging.basicConfig(stream=sys.stderr, level=args.log_level.upper(),
                        format="%(asctime)s %(name)s %(levelname)s: %(message)s")
    make_agent(args.agent, args.variant or next(iter(VARIANTS)))  # a bad spec fails now
    session = BotSession(args.agent, variant=args.variant, seed=args.seed,
                         max_message_bytes=args.max_message_bytes, max_errors=args.max_errors)
    out = sys.stdout
    sys.stdout = sys.stderr  # stray prints must not reach the protocol stream
    try:
        return serve_stdio(session, sys.stdin.buffer, out)
    except (BrokenPipeError, KeyboardInterrupt):
        return 0
    finally:
        sys.stdout = out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m eights.protocol.stdio",
                                     description=__doc__.split("\n\n")[0])
    add_arguments(parser)
    args = parser.parse_args(argv)
    from ..config import ConfigError

    try:
        return run(args)
    except ConfigError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
