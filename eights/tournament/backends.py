"""Where the games run: this process, a pool of local processes, or a Ray cluster.

Every backend yields :class:`GameResult` s as games finish (in any order);
the runner stores them and computes everything from the store in schedule
order, so the results do not depend on the backend. Workers build their
agents once per tournament and reuse them across games; where policy agents
play, each worker (or the serial loop) plays :data:`~eights.tournament.play.LOCKSTEP_LANES`
games at once so that their decisions share forward passes.

A local worker process ends when the process that started it dies, however
it dies (a SIGKILL included): a watchdog thread in each worker wakes when
the parent's end of the pipe multiprocessing keeps to it closes, or when the
worker's parent pid changes (checked every second), and exits the worker.
Nothing else would: a worker only reads its task queue, and the
resource tracker lives as long as some worker holds its pipe.
"""

from __future__ import annotations

import itertools
import multiprocessing
import multiprocessing.connection
import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ..config import ConfigError
from .compiled import plays_compiled
from .play import GameResult, TablePlayer, TournamentError, lockstep_lanes
from .schedule import ScheduledGame, Tournament

BACKENDS = ("serial", "process", "ray")


def default_workers() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
               else (os.cpu_count() or 1))


def run_games(tournament: Tournament, games: Sequence[ScheduledGame], *,
              backend: str = "serial", workers: int | None = None,
              ray_address: str | None = None, engine: str = "auto") -> Iterator[GameResult]:
    """Play ``games``, yielding each result as it finishes; ``engine`` says whether games
    between built-in agents play on a compiled core (:func:`.compiled.plays_compiled`)."""
    if backend not in BACKENDS:
        raise ConfigError(f"backend={backend!r} is not known; the backends are "
                          f"{', '.join(BACKENDS)}")
    if workers is not None and (isinstance(workers, bool) or workers < 1):
        raise ConfigError(f"workers={workers!r} is not allowed; use 1 or more")
    if ray_address is not None and backend != "ray":
        raise ConfigError("a Ray address needs --backend ray")
    compiled = plays_compiled(tournament, engine, len(games))
    if not games:
        return iter(())
    if backend == "serial":
        return _serial(tournament, games, compiled)
    if backend == "process":
        return _processes(tournament, games, workers or default_workers(), compiled)
    return _ray(tournament, games, workers, ray_address, compiled)


def _batches(games: Sequence[ScheduledGame], workers: int,
             lanes: int = 1) -> list[list[ScheduledGame]]:
    """Enough games per task to amortise the hand-off (and fill a worker's ``lanes``), few
    enough to balance the workers."""
    size = max(lanes, min(64, len(games) // (workers * 8)))
    return [list(games[i:i + size]) for i in range(0, len(games), size)]


def _pipeline(submit: Callable[[list[ScheduledGame]], Any],
              wait_any: Callable[[list[Any]], tuple[list[list[GameResult]], list[Any]]],
              batches: list[list[ScheduledGame]], slots: int) -> Iterator[GameResult]:
    """Keep ``slots`` batches in flight; yield each batch's results as it completes."""
    queue = iter(batches)
    pending = [submit(batch) for batch in itertools.islice(queue, slots)]
    while pending:
        finished, pending = wait_any(pending)
        for results in finished:
            yield from results
            batch = next(queue, None)
            if batch is not None:
                pending.append(submit(batch))


def _play_batch(tournament: Tournament, batch: list[ScheduledGame],
                compiled: bool = False) -> list[GameResult]:
    """Play a batch in a worker, reusing the worker's agents while the tournament is the same."""
    global _worker
    if _worker is None or _worker.tournament != tournament or _worker.compiled != compiled:
        _worker = TablePlayer(tournament, compiled=compiled)
    return _worker.play_many(batch)


#: the worker process's player, kept between batches
_worker: TablePlayer | None = None


# ------------------------------------------------------------------- serial
def _serial(tournament: Tournament, games: Sequence[ScheduledGame],
            compiled: bool = False) -> Iterator[GameResult]:
    player = TablePlayer(tournament, compiled=compiled)
    lanes = player.lanes()
    try:
        for start in range(0, len(games), lanes):
            yield from player.play_many(games[start:start + lanes])
    finally:
        player.close()


# ---------------------------------------------------------------- processes
def _processes(tournament: Tournament, games: Sequence[ScheduledGame],
               workers: int, compiled: bool = False) -> Iterator[GameResult]:
    pool = watched_pool(workers)

    def wait_any(pending: list[Future]) -> tuple[list[list[GameResult]], list[Future]]:
        done, rest = wait(pending, return_when=FIRST_COMPLETED)
        return [f.result() for f in done], list(rest)

    try:
        yield from _pipeline(lambda batch: pool.submit(_play_batch, tournament, batch, compiled),
                             wait_any,
                             _batches(games, workers, lockstep_lanes(tournament, compiled)),
                             2 * workers)
    except BrokenProcessPool:
        raise TournamentError(
            "a worker process died before finishing its games. Worker processes import the "
            "main module: a script that runs a tournament with the process backend must do "
            "so under `if __name__ == \"__main__\":`") from None
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def watched_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` local processes that end when this process dies, however it
    dies (the module docstring): the tournaments' and ``eights distill``'s."""
    # spawn, not fork: the parent may run threads (the progress bar, Ray, torch)
    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_start_worker, initargs=(os.getpid(),))


#: seconds between a worker's checks that its parent is still there
PARENT_POLL = 1.0
#: seconds a worker whose parent died gives its agents to close (external bots) before exiting
CLOSE_GRACE = 3.0


def _start_worker(parent_pid: int) -> None:
    """Worker initializer: end this worker when ``parent_pid`` (its pool's owner) dies."""
    threading.Thread(target=_watch_parent, args=(parent_pid,), name="eights-parent-watch",
                     daemon=True).start()


def _watch_parent(parent_pid: int, poll: float = PARENT_POLL) -> None:
    parent = multiprocessing.parent_process()
    # POSIX: the read end of a pipe whose write end only the parent holds; Windows: its handle
    sentinel = parent.sentinel if parent is not None else None
    while True:
        if sentinel is not None:
            woken = bool(multiprocessing.connection.wait([sentinel], timeout=poll))
        else:
            time.sleep(poll)
            woken = False
        if woken and not _parent_gone(parent_pid, woken):
            time.sleep(0.1)  # a dying process closes its files before its children are adopted
        if _parent_gone(parent_pid, woken):
            break
        if woken:  # the parent closed the pipe but lives on: watch its pid alone
            sentinel = None
    _exit_orphaned()


def _parent_gone(parent_pid: int, sentinel_ready: bool) -> bool:
    if os.name == "nt":  # no reparenting there; the sentinel is the parent's process handle
        return sentinel_ready
    return os.getppid() != parent_pid  # an orphan is adopted by init or a subreaper


def _exit_orphaned() -> None:
    """Close this worker's tournament agents if it has any (stopping external bots),
    briefly, then exit at once."""
    player = _worker
    if player is not None:
        closer = threading.Thread(target=player.close, daemon=True)
        closer.start()
        closer.join(CLOSE_GRACE)
    os._exit(1)


# ---------------------------------------------------------------------- ray
def _ray(tournament: Tournament, games: Sequence[ScheduledGame], workers: int | None,
         address: str | None, compiled: bool = False) -> Iterator[GameResult]:
    from ..extras import connect_ray

    ray, started_here = connect_ray(address, workers or default_workers(), "--backend ray")
    try:
        slots = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
        task = ray.remote(num_cpus=1)(_play_batch)
        shared = ray.put(tournament)

        def wait_any(pending: list[Any]) -> tuple[list[list[GameResult]], list[Any]]:
            ready, rest = ray.wait(pending, num_returns=1)
            return [ray.get(ref) for ref in ready], rest

        yield from _pipeline(lambda batch: task.remote(shared, batch, compiled), wait_any,
                             _batches(games, slots, lockstep_lanes(tournament, compiled)),
                             2 * slots)
    finally:
        if started_here:
            ray.shutdown()
