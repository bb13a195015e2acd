"""Child processes read from /proc: what a test that kills a pool's owner checks is gone.

Both the tournaments' worker pool and ``eights distill``'s labelling pool promise that
their workers end with the process that started them, however it dies; the tests kill
that process with SIGKILL and look for its former children here (Linux only).
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

#: /proc exists: the tests that read it run only where it does
HAS_PROC = Path("/proc/self/stat").exists()
#: seconds orphaned workers are given to notice and exit
EXIT_SECONDS = 5


def stat(pid: int) -> tuple[int, str, int] | None:
    """(parent pid, state, start time) of a process, or None once it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()  # the name in brackets may hold spaces
    return int(fields[1]), fields[0], int(fields[19])


def children(pid: int) -> dict[int, int]:
    """The processes whose parent is ``pid``: pid -> start time (to tell a reused pid)."""
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (info := stat(int(entry))) is not None and info[0] == pid:
            found[int(entry)] = info[2]
    return found


def alive(pid: int, started: int) -> bool:
    info = stat(pid)
    return info is not None and info[1] not in "ZX" and info[2] == started  # a zombie is dead


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def workers(spawned: dict[int, int]) -> list[int]:
    """The multiprocessing workers among ``spawned`` (not its resource tracker)."""
    return [pid for pid in spawned if "spawn_main" in command_line(pid)]


def kill_and_check_children_exit(proc: subprocess.Popen, spawned: dict[int, int]) -> None:
    """SIGKILL ``proc`` and assert every process of ``spawned`` (its children) is gone
    within :data:`EXIT_SECONDS`."""
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + EXIT_SECONDS
    while time.monotonic() < deadline and any(alive(p, t) for p, t in spawned.items()):
        time.sleep(0.05)
    left = {pid: command_line(pid) for pid, t in spawned.items() if alive(pid, t)}
    assert not left, f"still running {EXIT_SECONDS} s after their parent was killed: {left}"


def reap(proc: subprocess.Popen, spawned: dict[int, int]) -> None:
    """What a test started must not outlive it: ``proc`` and every child still running."""
    if proc.poll() is None:
        proc.kill()
        proc.wait()
    for pid, started in spawned.items():
        if alive(pid, started):
            os.kill(pid, signal.SIGKILL)
