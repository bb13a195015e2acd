"""A protocol bot that abuses its host rather than the protocol, for the runaway-bot tests.

    python rogue_bot.py MODE [--pidfile PATH] [--every N] [--megabytes N] [--starts PATH]

Stdlib only. It answers the hello with ready and a decide with the first
legal action, except where MODE says otherwise:

spawn-crash   start a child (``sleep 1000``) that shares its stdin, stdout and
              stderr, write the child's pid to --pidfile, and exit with status 3
              at the first decide
spawn         the same child; play well, and exit normally at the bye
escape        like spawn, but the child starts a session of its own (out of reach
              of a kill of the bot's process group)
flood-stdout  after the ready, write --megabytes MB of short lines to stdout (stale
              answers, which a frontend skips), then play well
flood-stderr  at the first decide, write one stderr line of --megabytes MB, then answer
long-stderr   at each decide, write one stderr line of --megabytes MB, then answer
hang-every    hang (sleep) at every --every-th decide this process is sent

--starts PATH appends a line to PATH each time the bot starts, so a test can
count its starts.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

MB = 1 << 20


def send(message: object) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def spawn_child(pidfile: str | None, escape: bool) -> None:
    child = subprocess.Popen(["sleep", "1000"], start_new_session=escape)
    if pidfile:
        with open(pidfile, "w", encoding="utf-8") as f:
            f.write(str(child.pid))


def flood_stdout(megabytes: int) -> None:
    line = json.dumps({"type": "action", "id": 0, "action": "draw"}) + "\n"
    chunk = (line * (MB // len(line) + 1))[:MB]
    for _ in range(megabytes):
        sys.stdout.write(chunk)
        sys.stdout.flush()


def long_stderr_line(megabytes: int) -> None:
    chunk = "x" * MB
    for _ in range(megabytes):
        sys.stderr.write(chunk)
    sys.stderr.write("\n")
    sys.stderr.flush()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("mode")
    parser.add_argument("--pidfile")
    parser.add_argument("--every", type=int, default=3)
    parser.add_argument("--megabytes", type=int, default=210)
    parser.add_argument("--starts")
    args = parser.parse_args()
    if args.starts:
        with open(args.starts, "a", encoding="utf-8") as f:
            f.write("start\n")
    if args.mode in ("spawn-crash", "spawn", "escape"):
        spawn_child(args.pidfile, escape=args.mode == "escape")
    decisions = 0
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "hello":
            send({"type": "ready", "protocol": msg["protocol"], "name": "rogue_bot"})
            if args.mode == "flood-stdout":
                flood_stdout(args.megabytes)
            continue
        if msg["type"] == "bye":
            return 0
        if msg["type"] != "decide":
            continue
        decisions += 1
        if args.mode == "spawn-crash":
            return 3
        if args.mode == "hang-every" and decisions % args.every == 0:
            time.sleep(3600)
        if args.mode == "long-stderr" or (args.mode == "flood-stderr" and decisions == 1):
            long_stderr_line(args.megabytes)
        send({"type": "action", "id": msg["id"], "action": msg["legal"][0]})
    return 0


if __name__ == "__main__":
    sys.exit(main())
