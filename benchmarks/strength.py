"""Strength figures: head-to-head win rates of the built-in agents, two players.

    .venv/bin/python benchmarks/strength.py --games 2000

Seats alternate every game and game ``g`` uses deal seed ``g``, so both
agents see the same deals from both seats. Prints win rates with 95% Wilson
intervals per variant.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from rich.console import Console
from rich.table import Table

from eights.engines import VARIANTS
from eights.tournament import round_robin


def measure(variant: str, specs: Sequence[str], games: int, seed: int = 0) -> dict:
    start = time.perf_counter()
    result = round_robin(variant, specs, num_players=2, games=games, seed=seed)
    seconds = time.perf_counter() - start
    rows = []
    for r in result.ranking():
        for other, (wins, played) in sorted(r.versus.items()):
            rows.append((r.spec, other, wins, played))
    return {"variant": variant, "rows": rows, "seconds": seconds}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per pairing")
    parser.add_argument("--agents", default="random,greedy,heuristic")
    parser.add_argument("--variants", default=",".join(VARIANTS))
    args = parser.parse_args(argv)
    console = Console()
    from eights.tournament.stats import wilson_interval
    for variant in args.variants.split(","):
        out = measure(variant, args.agents.split(","), args.games)
        table = Table(title=f"{variant}: {args.games} two-player games per pairing "
                            f"({out['seconds']:.1f} s)")
        for col in ("agent", "opponent", "win rate", "95% CI"):
            table.add_column(col)
        for spec, other, wins, played in out["rows"]:
            lo, hi = wilson_interval(wins, played)
            table.add_row(spec, other, f"{wins / played:.1%}", f"{lo:.1%}-{hi:.1%}")
        console.print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
