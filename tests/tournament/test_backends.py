"""Backends: a killed tournament takes its worker processes with it."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from eights.tournament import RESULTS_FILE

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(),
                                reason="finds child processes in /proc (Linux)")


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


def test_the_workers_of_a_killed_process_run_exit(tmp_path):
    out = tmp_path / "run"
    proc = subprocess.Popen(
        [sys.executable, "-m", "eights.cli", "tournament", "--agents", "random,greedy",
         "--games", "200000", "--backend", "process", "--workers", "2", "--out", str(out),
         "--no-progress", "--no-report"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    spawned: dict[int, int] = {}
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and proc.poll() is None:  # until workers store games
            time.sleep(0.1)
            if (out / RESULTS_FILE).exists():
                db = sqlite3.connect(out / RESULTS_FILE)
                try:
                    if db.execute("SELECT count(*) FROM games").fetchone()[0] > 0:
                        break
                except sqlite3.OperationalError:
                    pass  # being created
                finally:
                    db.close()
        assert proc.poll() is None, proc.stderr.read().decode()
        spawned = children(proc.pid)
        workers = [pid for pid in spawned if "spawn_main" in command_line(pid)]
        assert len(workers) == 2, {pid: command_line(pid) for pid in spawned}
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and any(alive(p, t) for p, t in spawned.items()):
            time.sleep(0.05)
        left = {pid: command_line(pid) for pid, t in spawned.items() if alive(pid, t)}
        assert not left, f"still running 5 s after their parent was killed: {left}"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stderr.close()
        for pid, started in spawned.items():  # what this test started must not outlive it
            if alive(pid, started):
                os.kill(pid, signal.SIGKILL)


def test_a_worker_watches_the_pid_it_was_given(monkeypatch):
    """No reparenting on Windows: there only the parent's handle tells; elsewhere the pid."""
    from eights.tournament import backends

    parent = os.getppid()
    assert not backends._parent_gone(parent, sentinel_ready=False)
    assert not backends._parent_gone(parent, sentinel_ready=True)  # pipe closed, parent lives
    assert backends._parent_gone(parent + 1_000_000, sentinel_ready=False)
    monkeypatch.setattr(backends.os, "name", "nt")
    assert backends._parent_gone(parent, sentinel_ready=True)
    assert not backends._parent_gone(parent + 1_000_000, sentinel_ready=False)
