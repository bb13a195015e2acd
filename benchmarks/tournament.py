"""Tournament throughput: games per second of random agents, serial and in processes.

    .venv/bin/python benchmarks/tournament.py                 # 20,000 games per row
    .venv/bin/python benchmarks/tournament.py --games 2000 --workers 2 4

Two random agents (``random#a`` and ``random#b``) play 2-player
``crazy_eights`` through :func:`eights.tournament.run_tournament` with the
results store on (every game committed to SQLite as it finishes, as in a
real run), once serially and once per ``--workers`` count with the process
backend. The timing includes everything a user waits for: scheduling,
starting the worker processes, storing and summarising; the report is off.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Sequence

from rich.console import Console
from rich.table import Table

from eights.tournament import Tournament, run_tournament


def measure(games: int, backend: str, workers: int | None, store: bool = True) -> dict:
    tournament = Tournament("crazy_eights", ("random#a", "random#b"), games=games, seed=0)
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        result = run_tournament(tournament, tmp if store else None, backend=backend,
                                workers=workers, report=False)
        seconds = time.perf_counter() - start
    return {"backend": backend, "workers": workers or 1, "store": store,
            "games": result.games_played, "seconds": seconds,
            "games_per_second": result.games_played / seconds,
            "wins_a": result.standing("random#a").wins}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--workers", type=int, nargs="+", default=[2],
                        help="process counts to measure (default 2)")
    args = parser.parse_args(argv)
    rows = [measure(args.games, "serial", None, store=False),
            measure(args.games, "serial", None)]
    rows += [measure(args.games, "process", w) for w in args.workers]
    if len({r["wins_a"] for r in rows}) != 1:
        raise SystemExit("the backends disagree on the results: " + repr(rows))
    base = rows[1]["games_per_second"]
    table = Table(title=f"2-player crazy_eights, random vs random, {args.games:,} games "
                        f"(duplicate deals)")
    for col in ("backend", "workers", "store", "seconds", "games/s", "vs serial"):
        table.add_column(col, justify="right")
    for r in rows:
        table.add_row(r["backend"], str(r["workers"]), "sqlite" if r["store"] else "memory",
                      f"{r['seconds']:.2f}", f"{r['games_per_second']:,.0f}",
                      f"{r['games_per_second'] / base:.2f}x")
    Console().print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
