"""Every command in README.md and docs/*.md works as written.

Each Markdown file's fenced blocks are read in order: ``sh``/``bash``/``shell``
blocks line by line (a trailing backslash continues a line, ``#`` starts a
comment), ``console`` blocks by their ``$ `` lines, and ``python`` blocks as whole
scripts. The commands of one file run in order in one fresh directory (with the
repository's ``examples``, ``benchmarks`` and ``scripts`` linked in), so a file may train
a model and then play it, as a reader would. ``eights`` is the venv's command.

How a block is checked is said by an HTML comment on the line before its fence:

* no comment: each command must exit 0 within :data:`RUN_SECONDS`;
* ``<!-- commands: start -->``: long-running (a server): it is started and left
  running in the background while the rest of the file runs, as in a second
  terminal; it must still be running after :data:`START_SECONDS`, or have exited 0,
  and it is stopped when the file is done;
* ``<!-- commands: start-only -->``: long-running work nothing else in the file
  talks to (a long tournament): checked as ``start``, then stopped at once, so it
  does not spend the machine while the rest of the file runs;
* ``<!-- commands: parse -->``: the ``eights`` arguments must parse and the agent
  specs in them must be valid (commands that reproduce shipped models in 30
  minutes or more, too long to run here);
* ``<!-- commands: skip -->``: not checked (output shown as an example, say).

A port a doc's server listens on (``--port N``) is a fixed number a reader can
type, but another program may hold it: each run replaces every port a file's
commands listen on, wherever the file's commands name it (``ws://127.0.0.1:N``),
with a free ephemeral port (:func:`with_free_ports`).

A plain ``eights ...`` or ``python ...`` line (one program and its words, no shell syntax)
and a ``python`` block run in a fork of one warm interpreter that has already imported
torch and the rest (``tests/warm_commands.py``): the command's own code runs as written,
without paying some six seconds of interpreter start and imports each time. Other shell
lines run under ``bash -c``, so pipes work. Lines that bootstrap the
environment (``make``, ``pip install``) and syntax outlines (``...``,
``[--option]``) are never run. ``eights play`` gets the keys ``qq`` (leave the
game) on its input; other commands get an empty input.
"""

from __future__ import annotations

import dataclasses
import os
import re
import shlex
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.warm_commands import WarmCommands, argv_for, forkable

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
BIN = Path(sys.executable).parent
#: the repository's directories a doc's commands may name, linked into its fresh directory
LINKED = ("examples", "benchmarks", "scripts")
RUN_SECONDS = 240
START_SECONDS = 8
FENCE = re.compile(r"^```(\w*)\s*$")
MODE = re.compile(r"<!--\s*commands:\s*(run|start-only|start|parse|skip)\b.*-->")
#: a port a command listens on (``--port 0`` already picks a free one)
LISTEN_PORT = re.compile(r"--port[ =]([1-9]\d*)\b")
NEVER_RUN = ("make ", "pip ", ".venv/bin/python -m pip", "python -m pip", "source ", "cd ")


@dataclass
class Command:
    """One command of a doc: its text, the language of its block, and how it is checked."""

    text: str
    language: str
    mode: str
    line: int


def commands_of(path: Path) -> list[Command]:
    """The commands of a Markdown file, in order (see the module docstring)."""
    lines = path.read_text().splitlines()
    out: list[Command] = []
    i = 0
    while i < len(lines):
        fence = FENCE.match(lines[i])
        if not fence:
            i += 1
            continue
        language = fence.group(1)
        marker = MODE.search(lines[i - 1]) if i else None
        mode = marker.group(1) if marker else "run"
        start = i + 1
        i += 1
        body: list[str] = []
        while i < len(lines) and not lines[i].startswith("```"):
            body.append(lines[i])
            i += 1
        i += 1
        if language == "python":
            out.append(Command("\n".join(body), "python", mode, start + 1))
        elif language in ("sh", "bash", "shell", "console"):
            out += _shell_commands(body, language, mode, start + 1)
    return out


def _shell_commands(body: list[str], language: str, mode: str, first: int) -> list[Command]:
    commands: list[Command] = []
    pending, at = "", first
    for n, raw in enumerate(body, first):
        line = raw
        if language == "console":
            if not line.startswith("$ "):
                continue
            line = line[2:]
        if not pending:
            at = n
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        text = _strip_comment(pending + line).strip()
        pending = ""
        if text:
            commands.append(Command(text, "sh", mode, at))
    return commands


def _strip_comment(line: str) -> str:
    """The line without a trailing ``# comment`` (a ``#`` inside quotes stays)."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=False)
    lexer.whitespace_split = True
    lexer.commenters = "#"
    try:
        words = list(lexer)
    except ValueError:
        return line
    return shlex.join(words) if words else ""


def free_port() -> int:
    """A port no program listens on now: the kernel's pick for port 0 (it does not hand
    the same one out again at once)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def with_free_ports(commands: list[Command],
                    pick: Callable[[], int] = free_port) -> list[Command]:
    """``commands`` with each port they listen on replaced, in every command that names it,
    by a free one: a fixed port in a doc must not fail the test because something else on
    the machine holds it."""
    fixed = sorted({port for c in commands for port in LISTEN_PORT.findall(c.text)})
    if not fixed:
        return commands
    ports = {port: str(pick()) for port in fixed}
    named = re.compile(r"(?<!\d)(" + "|".join(fixed) + r")(?!\d)")
    return [dataclasses.replace(c, text=named.sub(lambda m: ports[m.group(1)], c.text))
            for c in commands]


def never_run(command: Command) -> bool:
    text = command.text
    return (command.mode == "skip" or text.startswith(NEVER_RUN) or "..." in text
            or "[--" in text)


def environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = str(ROOT)
    env.pop("COLUMNS", None)
    return env


def check(command: Command, cwd: Path, background: list[subprocess.Popen]) -> None:
    """Run one command as its mode says; fail with its output when it does not work."""
    where = f"line {command.line}: {command.text[:200]}"
    if command.mode == "parse":
        parse(command.text, where)
        return
    words = command.text.split()
    stdin = "qq" if words[:2] == ["eights", "play"] else ""
    if command.mode == "run" and (forked := argv_for(command.text, command.language)) is not None:
        rc, out = WARM.run(forked, cwd, stdin, RUN_SECONDS)
        if rc is None:
            pytest.fail(f"{where}: still running after {RUN_SECONDS} s:\n{out[-3000:]}")
        assert rc == 0, f"{where}: exit {rc}:\n{out[-3000:]}"
        return
    if command.language == "python":
        argv = [sys.executable, "-c", command.text]
    else:
        argv = ["bash", "-c", command.text]
    proc = subprocess.Popen(argv, cwd=cwd, env=environment(), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if command.mode in ("start", "start-only"):
        proc.stdin.close()
        time.sleep(START_SECONDS)
        if proc.poll() is None:
            if command.mode == "start":
                background.append(proc)
            else:
                proc.kill()
                proc.wait()
            return
        out = proc.stdout.read()
        assert proc.returncode == 0, f"{where}: exit {proc.returncode}:\n{out[-3000:]}"
        return
    try:
        out, _ = proc.communicate(stdin, timeout=RUN_SECONDS)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
        pytest.fail(f"{where}: still running after {RUN_SECONDS} s:\n{out[-3000:]}")
    assert proc.returncode == 0, f"{where}: exit {proc.returncode}:\n{out[-3000:]}"


#: the fork server that runs this module's plain commands (see tests/warm_commands.py)
WARM = WarmCommands(environment())


@pytest.fixture(scope="module", autouse=True)
def _stop_the_warm_interpreter():
    yield
    WARM.close()


def parse(text: str, where: str) -> None:
    """An ``eights`` command's arguments parse, and its agent specs name real agents."""
    from eights.agents import check_agent_spec, split_specs
    from eights.cli import build_parser

    argv = shlex.split(text)
    assert argv[0] == "eights", f"{where}: only eights commands can be parsed"
    try:
        args = build_parser().parse_args(argv[1:])
    except SystemExit:
        pytest.fail(f"{where}: the arguments do not parse")
    players = getattr(args, "players", None) or getattr(args, "num_players", None)
    for attr in ("agents", "opponents", "eval_opponents"):
        for spec in split_specs(getattr(args, attr, None) or "", extra_kinds=("self",)):
            spec = spec.partition("@")[0]
            if spec == "self" or (spec.startswith("policy:") and "." in spec):
                continue  # the learner's own checkpoints; a model the command trains first
            # (distill takes its variant from the checkpoint it starts from)
            check_agent_spec(spec, getattr(args, "variant", None) or "crazy_eights", players)


def doc_id(path: Path) -> str:
    return str(path.relative_to(ROOT))


@pytest.mark.parametrize("path", DOCS, ids=doc_id)
def test_every_command_of_the_doc_works_as_written(path: Path, tmp_path: Path) -> None:
    for tree in LINKED:
        (tmp_path / tree).symlink_to(ROOT / tree)
    ran = 0
    started = time.monotonic()
    background: list[subprocess.Popen] = []
    try:
        for command in with_free_ports(commands_of(path)):
            if never_run(command):
                continue
            check(command, tmp_path, background)
            ran += 1
    finally:
        for proc in background:
            proc.kill()
            proc.wait()
    print(f"{doc_id(path)}: {ran} commands in {time.monotonic() - started:.0f} s")


def test_the_reader_finds_commands_where_the_docs_have_them() -> None:
    """The parser itself: continuation lines, comments, console prompts, markers."""
    text = "\n".join([
        "<!-- commands: start -->", "```sh", "eights serve --port 0   # a server", "```",
        "```console", "$ eights variants", "output line", "```",
        "```sh", "eights tournament --agents random,heuristic \\", "  --games 4", "```",
        "<!-- commands: skip -->", "```python", "print(1)", "```",
        "<!-- commands: start-only -->", "```sh", "eights tournament --games 9999", "```",
    ])
    doc = Path(os.environ.get("TMPDIR", "/tmp")) / "eights-doc-reader.md"
    doc.write_text(text)
    try:
        found = [(c.text, c.mode, c.language) for c in commands_of(doc)]
    finally:
        doc.unlink()
    assert found == [
        ("eights serve --port 0", "start", "sh"),
        ("eights variants", "run", "sh"),
        ("eights tournament --agents random,heuristic --games 4", "run", "sh"),
        ("print(1)", "skip", "python"),
        ("eights tournament --games 9999", "start-only", "sh"),
    ]
    assert never_run(Command("make run", "sh", "run", 1))
    assert never_run(Command("eights tournament ... --out x", "sh", "run", 1))
    assert not never_run(Command("eights variants", "sh", "run", 1))


def test_ports_the_docs_listen_on_are_replaced_by_free_ones() -> None:
    """A doc's server and its clients get the same free port instead of the doc's fixed one
    (8765 was held by another program, and the whole doc failed)."""
    ports = set()
    while len(ports) < 4:  # the doc's two and the two picked for them, all different
        ports.add(free_port())
    first, second, *picked = sorted(ports)
    commands = [Command(f"eights serve --agent heuristic --port {first}", "sh", "start", 1),
                Command(f'eights tournament --agents "random,ws://127.0.0.1:{first}"', "sh",
                        "run", 2),
                Command(f"eights serve --port {second}", "sh", "start", 3),
                Command(f"node table.js ws://127.0.0.1:{second} {first}0", "sh", "run", 4),
                Command("eights serve --port 0", "sh", "start", 5)]
    picks = iter(picked)
    texts = [c.text for c in with_free_ports(commands, lambda: next(picks))]
    assert texts == [f"eights serve --agent heuristic --port {picked[0]}",
                     f'eights tournament --agents "random,ws://127.0.0.1:{picked[0]}"',
                     f"eights serve --port {picked[1]}",
                     f"node table.js ws://127.0.0.1:{picked[1]} {first}0",
                     "eights serve --port 0"]
    with socket.socket() as sock:  # and a port picked is one a server can listen on
        sock.bind(("127.0.0.1", free_port()))


def test_a_start_only_command_is_stopped_once_it_has_started(tmp_path, monkeypatch) -> None:
    """``start`` keeps a server for the rest of the file; ``start-only`` stops the work."""
    monkeypatch.setattr(sys.modules[__name__], "START_SECONDS", 0.2)
    background: list[subprocess.Popen] = []
    sleeper = f"{sys.executable} -c 'import time; time.sleep(60)'"
    check(Command(sleeper, "sh", "start-only", 1), tmp_path, background)
    assert background == []
    check(Command(sleeper, "sh", "start", 2), tmp_path, background)
    try:
        assert len(background) == 1 and background[0].poll() is None
    finally:
        for proc in background:
            proc.kill()
            proc.wait()


def test_plain_commands_run_in_a_warm_fork_and_shell_lines_under_bash() -> None:
    """Only a line bash would pass through word for word is forked."""
    assert forkable("eights tournament --agents 'heuristic,exec:node bot.js' --games 2") == [
        "eights", "tournament", "--agents", "heuristic,exec:node bot.js", "--games", "2"]
    assert forkable('python -m eights.vector.warm --variants "crazy_eights"') == [
        "python", "-m", "eights.vector.warm", "--variants", "crazy_eights"]
    for shell_line in ("eights variants | head", "eights tournament > out.txt", "ls runs",
                       "eights play --variant $VARIANT", "python -u script.py",
                       "eights export runs/*.npz out.npz", "eights variants && eights --version",
                       "FOO=1 eights variants", "python -c"):
        assert forkable(shell_line) is None, shell_line
    assert argv_for("print(1)", "python") == [":block:", "print(1)"]


def test_a_forked_command_reports_its_exit_output_and_timeout(tmp_path) -> None:
    """Exit statuses, tracebacks, input and a command that runs too long, as bash reports
    them, and a later command runs after one was killed."""
    warm = WarmCommands(environment(), preload=())  # the mechanism, without the imports' cost
    try:
        code = "import os, sys; print(os.getcwd(), sys.stdin.read()); sys.exit(3)"
        assert warm.run(["python", "-c", code], tmp_path, "qq", 60) == (3, f"{tmp_path} qq\n")
        rc, out = warm.run([":block:", "raise ValueError('named')"], tmp_path, "", 60)
        assert rc == 1 and "ValueError: named" in out
        rc, out = warm.run(["eights", "tournament", "--agents", "nosuch"], tmp_path, "", 60)
        assert rc == 2 and "error:" in out
        assert warm.run([":block:", "import time; time.sleep(60)"], tmp_path, "", 0.5)[0] is None
        assert warm.run(["eights", "--version"], tmp_path, "", 60)[0] == 0
        # the server itself gone is said so, not taken for a slow command
        killer = "import os, signal, time; os.kill(os.getppid(), signal.SIGKILL); time.sleep(60)"
        with pytest.raises(RuntimeError, match="warm interpreter ended"):
            warm.run([":block:", killer], tmp_path, "", 60)
        assert warm.run(["eights", "--version"], tmp_path, "", 60)[0] == 0
    finally:
        warm.close()
