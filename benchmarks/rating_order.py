"""How much a tournament's ratings depend on the order its games are rated in.

openskill rates game after game. Fixed agents do not change during a
tournament, so any spread over orders of the *same* games is noise in the
ranking. This plays one round-robin and rates its games in schedule order and
in ``--shuffles`` random orders: with one openskill pass (its default ``tau``,
and ``tau=0``), and with :func:`eights.tournament.rate`, which the standings
use (the mean over seeded orders of the sorted games). It prints the spread of
each agent's rating and how many different rankings came out.

    python benchmarks/rating_order.py                       # 1,000 games a pair, ~10 s
    python benchmarks/rating_order.py --games 200 --shuffles 5
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
from pathlib import Path

from rich.console import Console
from rich.table import Table

from eights.tournament import RESULTS_FILE, ResultsStore, Tournament, rate, run_tournament

#: the ways of rating compared: one openskill pass (with its tau), or eights' rate()
METHODS = ("one pass, default tau", "one pass, tau=0", "eights (mean of orders)")


def rate_in_order(agents, games, method: str) -> dict[str, tuple[float, float]]:
    """Each agent's (mu, sigma) after rating ``games`` (seats, ranks) in the given order."""
    from openskill.models import PlackettLuce

    if method == METHODS[2]:
        ratings, _ = rate(agents, games)
        return {a: (r.mu, r.sigma) for a, r in ratings.items()}
    model = PlackettLuce() if method == METHODS[0] else PlackettLuce(tau=0.0)
    current = {a: model.rating() for a in agents}
    for seats, ranks in games:
        updated = model.rate([[current[s]] for s in seats], ranks=list(ranks))
        for s, (r,) in zip(seats, updated, strict=True):
            current[s] = r
    return {a: (current[a].mu, current[a].sigma) for a in agents}


def ranking(ratings: dict[str, tuple[float, float]]) -> tuple[str, ...]:
    return tuple(sorted(ratings, key=lambda a: -(ratings[a][0] - 3 * ratings[a][1])))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--variant", default="crazy_eights")
    parser.add_argument("--agents", default="random,greedy,heuristic,policy")
    parser.add_argument("--games", type=int, default=1000, help="games per pair")
    parser.add_argument("--shuffles", type=int, default=20, help="random orders to rate in")
    parser.add_argument("--seed", type=int, default=1, help="tournament seed")
    args = parser.parse_args(argv)
    if args.games < 2 or args.shuffles < 2:
        parser.error("--games and --shuffles must be at least 2")
    agents = tuple(args.agents.split(","))
    tournament = Tournament(args.variant, agents, num_players=2, games=args.games,
                            seed=args.seed)
    with tempfile.TemporaryDirectory() as out:
        result = run_tournament(tournament, out=out)
        with ResultsStore(Path(out) / RESULTS_FILE, tournament) as store:
            games = [(g.seats, g.ranks) for g in store.games()]
    console = Console()
    console.print(f"{args.variant}, {len(games):,} games ({args.games:,} a pair); win rates: "
                  + ", ".join(f"{s.agent} {s.win_rate:.1%}" for s in result.standings))
    table = Table(title=f"ratings over {args.shuffles} random orders of the same games")
    for column in ("rated by", "agent", "mu in schedule order", "mu: mean over orders",
                   "mu: sd over orders", "sigma"):
        table.add_column(column, justify="left" if column in ("rated by", "agent") else "right")
    rankings: dict[str, set[tuple[str, ...]]] = {}
    for name in METHODS:
        scheduled = rate_in_order(agents, games, name)
        runs = []
        for k in range(args.shuffles):
            order = list(games)
            random.Random(k).shuffle(order)
            runs.append(rate_in_order(agents, order, name))
        rankings[name] = {ranking(r) for r in runs}
        for agent in agents:
            mus = [r[agent][0] for r in runs]
            table.add_row(name, agent, f"{scheduled[agent][0]:.2f}", f"{statistics.mean(mus):.2f}",
                          f"{statistics.stdev(mus):.2f}", f"{scheduled[agent][1]:.2f}")
        table.add_section()
    console.print(table)
    for name, seen in rankings.items():
        plural = "" if len(seen) == 1 else "s"
        console.print(f"{name}: {len(seen)} distinct ranking{plural} over {args.shuffles} "
                      f"orders")
    return 0


if __name__ == "__main__":
    sys.exit(main())
