"""``eights tournament`` at the console: run it with progress, print the standings.

This is the command's body and its two rich tables (the standings, and the
head-to-head matrix); :mod:`eights.cli` only parses the arguments. Progress
is an :class:`~eights.progress.ProgressReport`: a live bar on a terminal,
plain lines in a log or a pipe. A run expected to take more than a minute
says how long, and why, as soon as it can tell
(:mod:`eights.tournament.estimate`), even with ``--no-progress``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console
from rich.table import Table

from ..agents import split_specs
from ..progress import ProgressReport
from .results import TournamentResult
from .text import failures_text, interval, number, plus_minus

#: the figures of an agent whose bot never started are the fallback's, so they are not shown
NOT_ITS_OWN = "-"


def tournament_command(args: argparse.Namespace, console: Console) -> int:
    """``eights tournament``: play (or resume), then print the standings and the pairs."""
    from ..config import parse_options
    from . import Tournament, run_tournament

    tournament = Tournament(
        variant=args.variant, agents=tuple(split_specs(args.agents)), num_players=args.players,
        games=args.games, seed=args.seed, options=parse_options(args.option or []),
        duplicate=not args.no_duplicate, seating=args.seating,
    )
    console.print(f"{tournament.describe()}: {tournament.total_games:,} games"
                  + (f", results in {args.out}" if args.out else ""), soft_wrap=True)
    with ProgressReport("games", tournament.total_games, unit="games", console=console,
                        enabled=not args.no_progress, transient=True) as progress:
        try:
            result = run_tournament(
                tournament, args.out, backend=args.backend, workers=args.workers,
                engine=args.engine, ray_address=args.ray_address, restart=args.restart,
                report=not args.no_report,
                progress=lambda done, total: progress.update(done), announce=progress.log,
                command=["eights", *getattr(args, "argv", ["tournament"])],
            )
        except KeyboardInterrupt:
            progress.close()
            where = (f"the finished games are stored in {args.out}; the same command resumes"
                     if args.out else "nothing was stored (no --out)")
            console.print(f"interrupted: {where}", soft_wrap=True)
            return 130
    console.print(standings_table(result))
    console.print(pairs_table(result))
    rate = result.played_now / result.seconds if result.seconds else 0.0
    console.print(f"{result.played_now:,} games played in {result.seconds:.1f} s "
                  f"({rate:,.0f} games/s, {args.backend}"
                  + (", on the compiled core)" if result.compiled else ")")
                  + (f"; {result.resumed:,} already stored" if result.resumed else ""),
                  soft_wrap=True)
    if args.out:
        report = "" if args.no_report else f", report {Path(args.out) / 'report.html'}"
        console.print(f"results in {Path(args.out) / 'results.sqlite'}{report}", soft_wrap=True)
    return 0


def standings_table(result: TournamentResult) -> Table:
    """The standings as a rich table: ratings, win rates and margins with 95% intervals.

    A ``failures`` column appears when any agent has failures or forfeits. An
    agent whose bot never started has no rank and no figures of its own.
    """
    table = Table(title=f"standings after {result.games_played:,} games "
                        f"(intervals are 95%)")
    table.add_column("#", justify="right")
    table.add_column("agent", overflow="fold")
    for name in ("rating", "win rate", "95% CI", "margin", "games"):
        table.add_column(name, justify="right", no_wrap=True)
    notes = [failures_text(s.failures, s.forfeits, s.never_started) for s in result.standings]
    if any(notes):
        table.add_column("failures", overflow="fold")
    rank = 0
    for s, note in zip(result.standings, notes, strict=True):
        if s.never_started:
            cells = ["-", s.agent, NOT_ITS_OWN, NOT_ITS_OWN, NOT_ITS_OWN, NOT_ITS_OWN]
        else:
            rank += 1
            cells = [str(rank), s.agent, plus_minus(s.rating, s.rating_low, s.rating_high, ".1f"),
                     number(s.win_rate, ".1%"), interval(s.win_low, s.win_high, ".1%"),
                     plus_minus(s.margin, s.margin_low, s.margin_high, "+.1f")]
        cells.append(f"{s.games:,}")
        if any(notes):
            cells.append(note)
        table.add_row(*cells)
    if any(s.never_started for s in result.standings):
        table.caption = ("never started: the bot never ran, so its games were played by "
                         "fallback moves or forfeited; it is listed last, unranked")
    return table


def pairs_table(result: TournamentResult) -> Table:
    """How often each agent (row) finished ahead of each other (column), ties counting half.

    Columns are headed by the agents' places in the standings, so long specs
    (paths, commands) stay readable.
    """
    agents = result.ranking()
    title = ("head to head: row's win rate against column" if result.tournament.num_players == 2
             else "head to head: how often row finished ahead of column")
    table = Table(title=title)
    table.add_column("agent", overflow="fold")
    for k in range(1, len(agents) + 1):
        table.add_column(f"vs {k}", justify="right", no_wrap=True)
    for k, a in enumerate(agents, 1):
        cells = []
        for b in agents:
            pair = result.pair(a, b)
            cells.append("-" if pair is None else f"{pair.rate:.0%}")
        table.add_row(f"{k} {a}", *cells)
    return table


__all__ = ["pairs_table", "plus_minus", "standings_table", "tournament_command"]
