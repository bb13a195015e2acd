"""Backends: a killed tournament takes its worker processes with it."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time

import pytest

from eights.tournament import RESULTS_FILE
from tests.processes import (
    HAS_PROC,
    children,
    command_line,
    kill_and_check_children_exit,
    reap,
    workers,
)

pytestmark = pytest.mark.skipif(not HAS_PROC, reason="finds child processes in /proc (Linux)")


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
        assert len(workers(spawned)) == 2, {pid: command_line(pid) for pid in spawned}
        kill_and_check_children_exit(proc, spawned)
    finally:
        reap(proc, spawned)
        proc.stderr.close()


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
