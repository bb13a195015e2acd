"""Run a tournament end to end: schedule, resume from the store, play, summarise, write.

``run_tournament`` is what ``eights tournament`` calls. With an output
directory, every game is committed to ``results.sqlite`` as it finishes and
the same call resumes a killed run; the summary files and the HTML report are
written at the end. Without one, the results live in memory only.

A run expected to take long says so early, through ``announce`` (see
:mod:`eights.tournament.estimate`); the estimate is also logged.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from ..agents import check_agent_spec
from .backends import run_games
from .compiled import plays_compiled
from .estimate import DurationEstimate
from .results import TournamentResult, summarize
from .schedule import Tournament
from .store import ResultsStore

RESULTS_FILE = "results.sqlite"

log = logging.getLogger(__name__)


def run_tournament(tournament: Tournament, out: str | Path | None = None, *,
                   backend: str = "serial", workers: int | None = None,
                   ray_address: str | None = None, engine: str = "auto",
                   restart: bool = False,
                   report: bool = True,
                   progress: Callable[[int, int], None] | None = None,
                   announce: Callable[[str], None] | None = None,
                   command: Sequence[str] | None = None) -> TournamentResult:
    """Play every game of ``tournament`` not yet in ``out``'s store and return the results.

    ``progress(done, total)`` is called as games finish, counting stored ones.
    ``announce(text)`` is told how long the run should take, when that is long.
    ``command`` (the command line) goes into the report, with the version and date.
    ``engine``: where games between built-in agents play (:mod:`.compiled`; the results
    are the same).
    """
    start = time.perf_counter()
    plays_compiled(tournament, engine, 0)  # a bad engine fails here, before anything is written
    for spec in tournament.agents:  # a bad spec or table fails here, before anything is written
        check_agent_spec(spec, tournament.variant, tournament.num_players,
                         **dict(tournament.options))
    out_dir = Path(out) if out is not None else None
    store_path = out_dir / RESULTS_FILE if out_dir is not None else None
    with ResultsStore(store_path, tournament, restart=restart) as store:
        schedule = tournament.schedule()
        done = store.done()
        todo = [g for g in schedule if g.index not in done]
        if progress:
            progress(len(done), len(schedule))
        by_index = {g.index: g for g in todo}
        estimate = DurationEstimate(todo)
        played = 0
        compiled = plays_compiled(tournament, engine, len(todo))
        for result in run_games(tournament, todo, backend=backend, workers=workers,
                                ray_address=ray_address,
                                engine="compiled" if compiled else "python"):
            game = by_index[result.index]
            store.add(game, result)
            played += 1
            if progress:
                progress(len(done) + played, len(schedule))
            said = estimate.add(game, result)
            if said:
                log.info("%s", said)
                if announce:
                    announce(said)
        summary = summarize(tournament, store.games(), len(schedule))
    summary.resumed, summary.played_now, summary.compiled = len(done), played, compiled
    summary.seconds = time.perf_counter() - start
    if out_dir is not None:
        summary.write(out_dir)
        if report:
            from .report import write_report

            write_report(summary, out_dir, command)
    return summary
