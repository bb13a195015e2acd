"""The server's FairScheduler: cheap connections first, light jobs never behind heavy ones.

Jobs hold their worker on a gate (a threading.Event) where an ordering is
checked, so the tests depend on the order things happen in, not on timing.
"""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from eights.config import ConfigError
from eights.protocol.server import DecisionTimeout, FairScheduler, SchedulerClosed

HEAVY = 10**6  # bytes: over light_bytes
GATE_SECONDS = 20  # a gate that is never opened fails the test instead of hanging it


def spin(seconds: float) -> float:
    """Use ``seconds`` of this thread's CPU."""
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass
    return seconds


def held(gate: threading.Event, log: list[str], name: str):
    def job(_: object) -> str:
        log.append(f"{name} started")
        assert gate.wait(GATE_SECONDS), "the gate was never opened"
        log.append(f"{name} done")
        return name

    return job


def noting(log: list[str], name: str):
    def job(_: object) -> str:
        log.append(name)
        return name

    return job


async def until(condition, seconds: float = 10) -> None:
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, "timed out waiting"
        await asyncio.sleep(0.005)


def test_a_connection_that_used_less_goes_first_whoever_asked_first() -> None:
    async def main() -> None:
        scheduler = FairScheduler(1)
        gate, log = threading.Event(), []
        await scheduler.run("dear", spin, 0.05)
        await scheduler.run("cheap", spin, 0.0)
        blocker = asyncio.create_task(scheduler.run("blocker", held(gate, log, "blocker"), None))
        await until(lambda: "blocker started" in log)
        dear = asyncio.create_task(scheduler.run("dear", noting(log, "dear"), None))
        await asyncio.sleep(0.05)  # the dear connection asks well before the cheap one
        cheap = asyncio.create_task(scheduler.run("cheap", noting(log, "cheap"), None))
        await asyncio.sleep(0.05)
        gate.set()
        await asyncio.gather(blocker, dear, cheap)
        assert log == ["blocker started", "blocker done", "cheap", "dear"]
        scheduler.close()

    asyncio.run(main())


def test_a_light_job_does_not_wait_for_heavy_ones() -> None:
    """Two workers: heavy jobs get one, so a light job runs while a heavy one is stuck and
    another heavy one waits its turn."""

    async def main() -> None:
        scheduler = FairScheduler(2)
        gate, log = threading.Event(), []
        first = asyncio.create_task(scheduler.run("a", held(gate, log, "heavy a"), None,
                                                  size=HEAVY))
        await until(lambda: "heavy a started" in log)
        second = asyncio.create_task(scheduler.run("b", noting(log, "heavy b"), None, size=HEAVY))
        light = await asyncio.wait_for(scheduler.run("c", noting(log, "light c"), None, size=100),
                                       10)
        assert light == "light c"
        assert log == ["heavy a started", "light c"]  # heavy b still waits for heavy a
        gate.set()
        assert await asyncio.gather(first, second) == ["heavy a", "heavy b"]
        assert scheduler.jobs_run == {"light": 1, "heavy": 2}
        scheduler.close()

    asyncio.run(main())


def test_a_connection_whose_last_job_was_dear_is_heavy_even_with_a_small_message() -> None:
    async def main() -> None:
        scheduler = FairScheduler(2, light_seconds=0.01)
        await scheduler.run("thinker", spin, 0.05, size=100)
        await scheduler.run("thinker", spin, 0.0, size=100)
        await scheduler.run("quick", spin, 0.0, size=100)
        assert scheduler.jobs_run == {"light": 2, "heavy": 1}
        scheduler.close()

    asyncio.run(main())


def test_connections_with_equal_appetites_take_turns() -> None:
    async def main() -> None:
        scheduler = FairScheduler(1)
        order: list[str] = []

        def job(name: str) -> None:
            spin(0.003)
            order.append(name)

        async def client(name: str) -> None:
            for _ in range(15):
                await scheduler.run(name, job, name, size=HEAVY)

        await asyncio.gather(*(client(name) for name in "abc"))
        for i in range(0, 45, 9):  # within any nine jobs in a row, each had about a third
            window = order[i:i + 9]
            assert all(2 <= window.count(name) <= 4 for name in "abc"), order
        scheduler.close()

    asyncio.run(main())


def test_one_job_at_a_time_per_connection() -> None:
    async def main() -> None:
        scheduler = FairScheduler(2)
        gate, log = threading.Event(), []
        first = asyncio.create_task(scheduler.run("a", held(gate, log, "a"), None))
        await until(lambda: log)
        with pytest.raises(RuntimeError, match="one at a time per connection"):
            await scheduler.run("a", noting(log, "again"), None)
        gate.set()
        assert await first == "a"
        assert await scheduler.run("a", noting(log, "again"), None) == "again"
        scheduler.close()

    asyncio.run(main())


def test_a_runaway_job_times_out_and_its_thread_is_replaced() -> None:
    async def main() -> None:
        scheduler = FairScheduler(1)
        gate, log = threading.Event(), []
        with pytest.raises(DecisionTimeout, match=r"longer than 0\.2 s"):
            await scheduler.run("runaway", held(gate, log, "runaway"), None, 0.2, size=HEAVY)
        # the one worker is still stuck, yet others are served, light and heavy
        assert await asyncio.wait_for(scheduler.run("b", noting(log, "b"), None), 10) == "b"
        assert await asyncio.wait_for(scheduler.run("c", noting(log, "c"), None, 1, size=HEAVY),
                                      10) == "c"
        assert "runaway done" not in log
        gate.set()
        await until(lambda: "runaway done" in log)
        await scheduler.run("b", noting(log, "b again"), None)
        await until(lambda: scheduler._threads == 1)  # the extra thread retired
        scheduler.close()

    asyncio.run(main())


def test_closing_ends_every_wait() -> None:
    async def main() -> None:
        scheduler = FairScheduler(1)
        gate, log = threading.Event(), []
        running = asyncio.create_task(scheduler.run("a", held(gate, log, "a"), None))
        await until(lambda: log)
        queued = asyncio.create_task(scheduler.run("b", noting(log, "b"), None))
        await asyncio.sleep(0.05)
        scheduler.close()
        for task in (running, queued):
            with pytest.raises(SchedulerClosed):
                await asyncio.wait_for(task, 10)
        with pytest.raises(SchedulerClosed):
            await scheduler.run("c", noting(log, "c"), None)
        gate.set()
        assert "b" not in log

    asyncio.run(main())


@pytest.mark.parametrize("workers", [0, 65, 1.5, None])
def test_a_bad_worker_count_is_refused(workers: object) -> None:
    with pytest.raises(ConfigError, match=r"^workers: .* is not allowed; it must be an integer "
                                          r"from 1 to 64 \(threads\)"):
        FairScheduler(workers)  # type: ignore[arg-type]
