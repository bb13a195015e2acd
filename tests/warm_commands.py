"""Run the docs' Python commands in forks of one warm interpreter instead of fresh ones.

A doc's ``eights train ...`` spends some five of its eight seconds starting Python and
importing torch, Stable-Baselines3 and ``torch._dynamo`` (which torch's optimizers import
on first use), and the docs run about eighty commands: the docs test was the suite's
largest (309 of 1,133 test-seconds; docs/training.md's 21 commands alone 134 s, 50 s
forked; the suite's test-seconds 1,133 -> 1,010, 2026-12-07).

This module is a small fork server (the idea of multiprocessing's ``forkserver`` with its
``preload``, kept apart from the multiprocessing state other tests use), one per pytest
worker: started on first use, it imports what those commands import, then forks a child
for each command, which changes to the command's directory, takes its input and output
files as file descriptors 0, 1 and 2, and runs the command as its console script or
``python`` would: ``eights.cli.main`` with the command's arguments, a script by path, a
module by ``-m``, a ``-c`` string or a doc's Python block. The command's own code runs
unchanged; only the interpreter's start and the imports are shared, and every child is a
fresh copy of a server that never runs a command itself.

Only a plain command is forked (:func:`forkable`): one program and its arguments, no shell
syntax (pipes, redirections, ``&&``, variables, globs), so what ``bash -c`` would run is
exactly that program with those words. The rest run under bash as before.

Protocol (one JSON object a line each way, on the server's stdin and stdout): the test
sends ``{"argv": [...], "cwd": ..., "stdin": path, "out": path}`` (``argv[0]`` is
``eights``, ``python`` or ``:block:`` with the block's text as ``argv[1]``); the server
answers ``{"ready": true}`` once its imports are done and ``{"rc": N}`` when a command
ends. A test that gives up on a command kills the server's process group, children
included; a server gone mid-command is an error of its own, not a slow command.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib
import json
import os
import runpy
import select
import shlex
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

#: what the docs' commands import that costs most to import
PRELOAD = ("numpy", "eights", "eights.cli", "eights.agents", "eights.tournament",
           "eights.training", "torch", "torch._dynamo", "stable_baselines3", "sb3_contrib",
           "matplotlib", "matplotlib.pyplot", "gymnasium", "pettingzoo", "numba")
#: characters that make a command line more than a program and its words under bash
SHELL_SYNTAX = set("|&;<>()$`\\*?[]{}~#!")
PROGRAMS = ("eights", "python")


def forkable(text: str) -> list[str] | None:
    """The words of a command line a fork can run as bash would, else None.

    A line is forkable when it is ``eights ...`` or ``python ...`` and bash would pass
    its words through untouched: quotes are allowed only where :mod:`shlex` and bash agree
    on them (a quoted word without ``$``, backquotes or backslashes), and no word holds
    shell syntax outside its quotes.
    """
    try:
        words = shlex.split(text)
    except ValueError:
        return None
    if not words or words[0] not in PROGRAMS:
        return None
    if any(ch in text for ch in "$`\\!"):
        return None
    unquoted = []
    quote = ""
    for ch in text:
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        else:
            unquoted.append(ch)
    if SHELL_SYNTAX & set(unquoted):
        return None
    flag = words[1] if words[0] == "python" and len(words) > 1 else ""
    if flag.startswith("-") and (flag not in ("-c", "-m") or len(words) < 3):
        return None  # interpreter flags (-u, -X ...) change how the interpreter runs
    return words


def argv_for(text: str, language: str) -> list[str] | None:
    """What a warm fork runs for a doc's command (a Python block, or a forkable line)."""
    return [":block:", text] if language == "python" else forkable(text)


class WarmCommands:
    """The test's side: a fork server started on first use and again after a timeout."""

    def __init__(self, env: dict[str, str], preload: tuple[str, ...] = PRELOAD) -> None:
        self.env = env
        self.preload = preload
        self.server: subprocess.Popen | None = None

    def run(self, argv: list[str], cwd: Path, stdin: str,
            timeout: float) -> tuple[int | None, str]:
        """Run ``argv`` in a fork in ``cwd``: (exit status, output), or (None, output so
        far) when it is still running after ``timeout`` seconds (then it is killed)."""
        with tempfile.TemporaryDirectory(prefix="eights-doc-") as scratch:
            feed, out = Path(scratch, "stdin"), Path(scratch, "out")
            feed.write_text(stdin)
            server = self._server()
            server.stdin.write(json.dumps({"argv": argv, "cwd": str(cwd), "stdin": str(feed),
                                           "out": str(out)}) + "\n")
            server.stdin.flush()
            deadline = time.monotonic() + timeout
            rc = self._reply(server, "rc", deadline)
            output = out.read_text(errors="replace") if out.exists() else ""
            if rc is None:
                ended = time.monotonic() < deadline  # no answer before the deadline: it died
                self.close()
                if ended:
                    raise RuntimeError(f"the warm interpreter ended while running {argv}:\n"
                                       f"{output[-3000:]}")
            return rc, output

    def _server(self) -> subprocess.Popen:
        if self.server is None or self.server.poll() is not None:
            self.server = subprocess.Popen(
                [sys.executable, __file__, *self.preload], env=self.env, stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, text=True, start_new_session=True)
            if self._reply(self.server, "ready", time.monotonic() + 120) is None:
                self.close()
                raise RuntimeError("the warm interpreter did not start")
        return self.server

    @staticmethod
    def _reply(server: subprocess.Popen, key: str, deadline: float):
        """The next reply that holds ``key`` (its value), or None at the deadline or EOF."""
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([server.stdout], [], [], left)[0]:
                return None
            line = server.stdout.readline()
            if not line:
                return None
            reply = json.loads(line)
            if key in reply:
                return reply[key]

    def close(self) -> None:
        """Stop the server and every command it is running (its whole process group)."""
        if self.server is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.server.pid, signal.SIGKILL)
            self.server.wait()
            self.server.stdin.close()
            self.server.stdout.close()
            self.server = None


def _run(argv: list[str]) -> int:
    """Run one command in this (forked) process as its program would; its exit status."""
    program, args = argv[0], argv[1:]
    if program == "eights":
        from eights.cli import main

        sys.argv = ["eights", *args]
        sys.path[0] = os.path.dirname(sys.executable)  # the console script's directory
        return main()
    if program == ":block:":
        sys.argv = ["-c"]
        sys.path[0] = ""
        exec(compile(args[0], "<string>", "exec"), {"__name__": "__main__"})
        return 0
    if args[:1] == ["-c"]:
        sys.argv = ["-c", *args[2:]]
        sys.path[0] = ""
        exec(compile(args[1], "<string>", "exec"), {"__name__": "__main__"})
        return 0
    if args[:1] == ["-m"]:
        sys.argv = [args[1], *args[2:]]
        sys.path[0] = os.getcwd()
        runpy.run_module(args[1], run_name="__main__", alter_sys=True)
        return 0
    script = os.path.abspath(args[0])
    sys.argv = [args[0], *args[1:]]
    sys.path[0] = os.path.dirname(script)
    runpy.run_path(script, run_name="__main__")
    return 0


def _child(request: dict) -> None:
    """The forked child: become the command, then exit as an interpreter would."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    os.chdir(request["cwd"])
    stdin = os.open(request["stdin"], os.O_RDONLY)
    out = os.open(request["out"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(stdin, 0)
    os.dup2(out, 1)
    os.dup2(out, 2)
    os.close(stdin)
    os.close(out)
    try:
        code = _run(request["argv"])
    except SystemExit as stop:
        code = stop.code
    except BaseException:  # an uncaught error ends the program as Python's would
        traceback.print_exc()
        code = 1
    if code is None:
        code = 0
    elif not isinstance(code, int):
        print(code, file=sys.stderr)
        code = 1
    try:
        atexit._run_exitfuncs()
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):  # a closed stream has nothing to write
                stream.flush()
        os._exit(code & 0xFF)


def serve(preload: list[str]) -> None:
    """Import the modules named, then fork a child for every request on stdin."""
    for name in preload:
        with contextlib.suppress(ImportError):  # an extra not installed: its commands fail
            importlib.import_module(name)
    replies = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)  # nothing of the server's reaches the replies
    replies.write(json.dumps({"ready": True}) + "\n")
    for line in sys.stdin:
        request = json.loads(line)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            os.close(replies.fileno())  # the replies end when the server does, not its children
            _child(request)
        _, status = os.waitpid(pid, 0)
        replies.write(json.dumps({"rc": os.waitstatus_to_exitcode(status)}) + "\n")


if __name__ == "__main__":
    serve(sys.argv[1:])
