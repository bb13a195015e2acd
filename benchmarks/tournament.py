"""Tournament throughput: games per second, serial and in processes, Python or compiled.

    .venv/bin/python benchmarks/tournament.py                 # 20,000 games per row
    .venv/bin/python benchmarks/tournament.py --games 2000 --workers 2 4
    .venv/bin/python benchmarks/tournament.py --agents policy,heuristic --games 2000
    .venv/bin/python benchmarks/tournament.py --agents heuristic#a,heuristic#b \
        --variant jokers_of_death --players 3 --games 3000

Two agents (by default ``random#a`` and ``random#b``) play 2-player
``crazy_eights`` through :func:`eights.tournament.run_tournament` with the
results store on (every game committed to SQLite as it finishes, as in a
real run), once serially and once per ``--workers`` count with the process
backend. The timing includes everything a user waits for: scheduling,
starting the worker processes, storing and summarising; the report is off.
Each row gives wall seconds and the CPU seconds of this process and its
workers.

Where every agent is ``random``, ``greedy`` or ``heuristic``, each row is
measured twice: on the Python engines (``--engine python``) and on the
variant's compiled core (``--engine compiled``, :mod:`eights.tournament.compiled`),
the core loaded from numba's cache before the timing (a fresh install compiles
it once, reported on stderr).

Where a ``policy`` agent plays, the serial loop plays
:data:`~eights.tournament.play.LOCKSTEP_LANES` games at once so that the
policy's decisions share forward passes; one more serial row plays one game
at a time (the lanes set to 1 in this process) to show what that buys.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Sequence

from rich.console import Console
from rich.table import Table

from eights.agents import split_specs
from eights.tournament import TablePlayer, Tournament, play, run_tournament
from eights.tournament.compiled import compiled_refusal


def _cpu() -> float:
    """CPU seconds of this process and its finished children (the worker processes)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def measure(games: int, backend: str, workers: int | None, store: bool = True,
            agents: Sequence[str] = ("random#a", "random#b"), lanes: int | None = None,
            engine: str = "python", variant: str = "crazy_eights",
            players: int = 2) -> dict:
    tournament = Tournament(variant, tuple(agents), num_players=players, games=games, seed=0)
    kept = play.LOCKSTEP_LANES
    if lanes is not None:
        play.LOCKSTEP_LANES = lanes
    try:
        with tempfile.TemporaryDirectory() as tmp:
            start, cpu = time.perf_counter(), _cpu()
            result = run_tournament(tournament, tmp if store else None, backend=backend,
                                    workers=workers, engine=engine, report=False)
            seconds, cpu = time.perf_counter() - start, _cpu() - cpu
    finally:
        play.LOCKSTEP_LANES = kept
    return {"backend": backend, "workers": workers or 1, "store": store, "engine": engine,
            "lanes": (play.lockstep_lanes(tournament, result.compiled) if lanes is None
                      else lanes),
            "games": result.games_played, "seconds": seconds, "cpu": cpu,
            "games_per_second": result.games_played / seconds,
            "wins_a": result.standing(agents[0]).wins}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--workers", type=int, nargs="+", default=[2],
                        help="process counts to measure (default 2)")
    parser.add_argument("--agents", default="random#a,random#b",
                        help="the two agents (default random#a,random#b)")
    parser.add_argument("--variant", default="crazy_eights")
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args(argv)
    agents = split_specs(args.agents)
    if len(agents) != 2:
        parser.error(f"--agents names two agents, not {len(agents)}: {args.agents!r}")
    table_args = {"agents": agents, "variant": args.variant, "players": args.players}
    probe = Tournament(args.variant, tuple(agents), num_players=args.players, games=1)
    engines = ["python"] + (["compiled"] if compiled_refusal(probe) is None else [])
    if "compiled" in engines:  # load (or compile) the core before any timing
        TablePlayer(probe, compiled=True).play_many(probe.schedule())
    rows = [measure(args.games, "serial", None, store=False, **table_args)]
    if "policy" in {spec.partition(":")[0].partition("#")[0] for spec in agents}:
        rows.append(measure(args.games, "serial", None, lanes=1, **table_args))
    base = len(rows)
    for engine in engines:
        rows.append(measure(args.games, "serial", None, engine=engine, **table_args))
        rows += [measure(args.games, "process", w, engine=engine, **table_args)
                 for w in args.workers]
    if len({r["wins_a"] for r in rows}) != 1:
        raise SystemExit("the backends disagree on the results: " + repr(rows))
    table = Table(title=f"{args.players}-player {args.variant}, {agents[0]} vs {agents[1]}, "
                        f"{args.games:,} games a table (duplicate deals)")
    for col in ("backend", "workers", "engine", "lanes", "store", "seconds", "CPU s",
                "games/s", "vs serial"):
        table.add_column(col, justify="right")
    for r in rows:
        table.add_row(r["backend"], str(r["workers"]), r["engine"], str(r["lanes"]),
                      "sqlite" if r["store"] else "memory", f"{r['seconds']:.2f}",
                      f"{r['cpu']:.2f}", f"{r['games_per_second']:,.0f}",
                      f"{r['games_per_second'] / rows[base]['games_per_second']:.2f}x")
    Console(width=max(Console().width, 110)).print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
