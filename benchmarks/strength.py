"""Strength figures: head-to-head win rates of agents, two players, duplicate deals.

    .venv/bin/python benchmarks/strength.py --games 2000
    .venv/bin/python benchmarks/strength.py --agents policy,heuristic,random --variants crazy_eights

Each pairing plays ``--games`` games through the tournament system: every
deal twice with the seats swapped, so both agents hold both hands. Prints
win rates with 95% Wilson intervals per variant (a truncated game counts
half to each side).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from rich.console import Console
from rich.table import Table

from eights.agents import split_specs
from eights.engines import VARIANTS
from eights.tournament import Tournament, TournamentResult, run_tournament


def measure(variant: str, specs: Sequence[str], games: int, seed: int = 0) -> TournamentResult:
    return run_tournament(Tournament(variant, tuple(specs), num_players=2, games=games,
                                     seed=seed))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per pairing")
    parser.add_argument("--agents", default="random,greedy,heuristic")
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--seed", type=int, default=0, help="tournament seed (the deals)")
    args = parser.parse_args(argv)
    console = Console()
    for variant in args.variants.split(","):
        result = measure(variant, split_specs(args.agents), args.games, args.seed)
        table = Table(title=f"{variant}: {args.games} two-player games per pairing, "
                            f"duplicate deals ({result.seconds:.1f} s)")
        for col in ("agent", "opponent", "games", "win rate", "95% CI"):
            table.add_column(col)
        for p in result.pairs:
            table.add_row(p.agent, p.opponent, str(p.games), f"{p.rate:.1%}",
                          f"{p.rate_low:.1%}-{p.rate_high:.1%}")
        console.print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
