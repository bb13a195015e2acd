"""Strength figures: head-to-head win rates of agents, duplicate deals; or one against a table.

    .venv/bin/python benchmarks/strength.py --games 2000
    .venv/bin/python benchmarks/strength.py --agents policy,heuristic,random --variants crazy_eights
    .venv/bin/python benchmarks/strength.py --players 4 --variants baby_eating_eights \
        --agents policy,heuristic,random --games 2000

Each pairing plays ``--games`` games through the tournament system: every
deal twice with the seats swapped, so both agents hold both hands. Prints
win rates with 95% Wilson intervals per variant (a truncated game counts
half to each side).

With ``--players N`` above 2, each agent instead sits alone against N - 1
copies of each other agent, its seat rotating game by game, on deals from
seed 5,000,000 + ``--seed`` on (training evaluates its checkpoints, and picks
``best.zip``, on the deals from 1,000,000, so these are fresh); a random
seat's share is 1/N. ``--against SPEC`` seats each agent against copies of
SPEC only (a search measured against the heuristic without the heuristic's
games against copies of the search):

    .venv/bin/python benchmarks/strength.py --players 3 --variants jokers_of_death \
        --agents "ismcts:sims=1000,core=compiled,belief=voids" --against heuristic --games 2000
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
from eights.tournament.text import interval

#: first deal of the ``--players`` tables: far past the deals training evaluates on
#: (``eights.training.monitor.EVAL_SEED`` = 1,000,000 and on)
TABLE_SEED = 5_000_000


def measure(variant: str, specs: Sequence[str], games: int, seed: int = 0) -> TournamentResult:
    return run_tournament(Tournament(variant, tuple(specs), num_players=2, games=games,
                                     seed=seed))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per pairing")
    parser.add_argument("--agents", default="random,greedy,heuristic")
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--seed", type=int, default=0, help="tournament seed (the deals)")
    parser.add_argument("--players", type=int, default=2,
                        help="table size; above 2, one agent against copies of another")
    parser.add_argument("--against", default=None, metavar="SPEC",
                        help="above 2 players: the opponents' spec (each agent of --agents "
                             "against copies of it only); by default every other agent")
    args = parser.parse_args(argv)
    if args.against is not None and args.players <= 2:
        parser.error("--against is for --players above 2 (two players play every pairing "
                     "of --agents)")
    console = Console()
    if args.players > 2:
        return against_tables(console, args)
    for variant in args.variants.split(","):
        result = measure(variant, split_specs(args.agents), args.games, args.seed)
        table = Table(title=f"{variant}: {args.games} two-player games per pairing, "
                            f"duplicate deals ({result.seconds:.1f} s)")
        for col in ("agent", "opponent", "games", "win rate", "95% CI"):
            table.add_column(col, overflow="fold")
        for p in result.pairs:
            table.add_row(p.agent, p.opponent, str(p.games), f"{p.rate:.1%}",
                          interval(p.rate_low, p.rate_high, ".1%"))
        console.print(table)
    return 0


def against_tables(console: Console, args: argparse.Namespace) -> int:
    from eights.agents import make_agent
    from eights.training.evaluate import evaluate

    specs = split_specs(args.agents)
    for variant in args.variants.split(","):
        table = Table(title=f"{variant}: one agent against {args.players - 1} copies of another, "
                            f"{args.games} games each (a random seat's share: "
                            f"{1 / args.players:.0%})")
        for col in ("agent", "opponents", "games", "win rate", "95% CI"):
            table.add_column(col, overflow="fold")
        for spec in specs:
            opponents = [args.against] if args.against is not None else specs
            for other in opponents:
                if other == spec:
                    continue
                agent = make_agent(spec, variant, seed=0)
                result = evaluate(agent, other, variant, args.games, seed=TABLE_SEED + args.seed,
                                  num_players=args.players)
                lo, hi = result.interval()
                table.add_row(spec, f"{args.players - 1} x {other}", str(result.games),
                              f"{result.win_rate:.1%}", interval(lo, hi, ".1%"))
        console.print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
