"""A protocol bot that misbehaves on request, for the ExternalAgent tests (stdlib only).

    python fake_bot.py MODE [--after N] [--record PATH]

It answers the hello with ready, and its first N decisions (default 0) with
the first legal action; from then on MODE says what it does with a decide:

good      answer the first legal action
crash     write a line to stderr and exit with status 3
hang      never answer (sleep)
garbage   answer a line that is not JSON
unknown   answer an action with a field the protocol does not have
illegal   answer an action in the notation that is not legal now
stale     answer with the wrong id, then nothing
refuse    refuse the hello itself (unsupported_protocol)
mute      never answer the hello
"""

from __future__ import annotations

import argparse
import json
import sys
import time

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def send(message: object) -> None:
    sys.stdout.write((message if isinstance(message, str) else json.dumps(message)) + "\n")
    sys.stdout.flush()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("mode")
    parser.add_argument("--after", type=int, default=0)
    parser.add_argument("--record")
    args = parser.parse_args()
    record = open(args.record, "a", encoding="utf-8") if args.record else None  # noqa: SIM115
    decisions = 0
    for line in sys.stdin:
        if record:
            record.write(line)
            record.flush()
        msg = json.loads(line)
        if msg["type"] == "hello":
            if args.mode == "refuse":
                send({"type": "error", "code": "unsupported_protocol",
                      "message": "fake_bot speaks eights-bot/0 only"})
            elif args.mode != "mute":
                send({"type": "ready", "protocol": msg["protocol"], "name": "fake_bot"})
            continue
        if msg["type"] == "bye":
            return 0
        if msg["type"] != "decide":
            continue
        decisions += 1
        legal, id_ = msg["legal"], msg["id"]
        mode = args.mode if decisions > args.after else "good"
        if mode == "crash":
            sys.stderr.write("fake_bot: crashing on purpose\n")
            sys.stderr.flush()
            return 3
        if mode == "hang":
            time.sleep(3600)
        elif mode == "garbage":
            send("this is {not JSON")
        elif mode == "unknown":
            send({"type": "action", "id": id_, "action": legal[0], "confidence": 0.9})
        elif mode == "illegal":
            wrong = next(f"play {r}{s}" for s in "CDHS" for r in RANKS
                         if f"play {r}{s}" not in legal)
            send({"type": "action", "id": id_, "action": wrong})
        elif mode == "stale":
            send({"type": "action", "id": id_ - 1, "action": legal[0]})
        else:
            send({"type": "action", "id": id_, "action": legal[0]})
    return 0


if __name__ == "__main__":
    sys.exit(main())
