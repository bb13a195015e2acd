"""ISMCTS simulations per CPU-second: the Python search against ``ismcts:core=compiled``.

Both searches run from the same positions (every decision with two or more
legal actions of ``--games`` heuristic games, seeds from ``--seed``), the
same number of simulations each, taking turns position by position so a
busier spell of a shared machine slows both alike. Prints each core's
simulations per second of this process's CPU time and the ratio. The first
compiled search (numba's compile or cache load) is not timed.

    .venv/bin/python benchmarks/search_speed.py
    .venv/bin/python benchmarks/search_speed.py --players 4 --sims 200
    .venv/bin/python benchmarks/search_speed.py --variant livery_eights
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from eights.agents import make_agent
from eights.agents.ismcts import ISMCTSAgent
from eights.engines import make_game
from eights.engines.base import PlayerView
from eights.vector.tables import COMPILED

CORES = ("python", "compiled")


def positions(players: int, games: int, seed: int, variant: str = "crazy_eights"
              ) -> list[PlayerView]:
    """The acting seat's view at every decision of ``games`` heuristic games."""
    game = make_game(variant, num_players=players)
    heuristic = make_agent("heuristic", variant)
    views = []
    for k in range(games):
        game.reset(seed=seed + k)
        while not game.game_over:
            view = game.view(game.current_player)
            if len(view.legal_actions) > 1:
                views.append(view)
            game.step(heuristic.act(view))
    return views


def measure(players: int = 2, games: int = 3, sims: int = 300, seed: int = 0,
            variant: str = "crazy_eights") -> dict[str, float]:
    """Simulations per CPU-second of each core over the same positions."""
    views = positions(players, games, seed, variant)
    agents = {core: ISMCTSAgent(seed=1, simulations=sims, core=core) for core in CORES}
    agents["compiled"].visit_counts(views[0])  # compile or load from the cache
    seconds = dict.fromkeys(CORES, 0.0)
    for view in views:
        for core in CORES:
            started = time.process_time()
            agents[core].visit_counts(view)
            seconds[core] += time.process_time() - started
    return {core: len(views) * sims / seconds[core] for core in CORES} | {
        "positions": len(views)}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="crazy_eights", choices=sorted(COMPILED),
                        help="a variant with a compiled core")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=3, help="heuristic games to search from")
    parser.add_argument("--sims", type=int, default=300, help="simulations per search")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    result = measure(args.players, args.games, args.sims, args.seed, args.variant)
    print(f"{args.variant} {args.players}p, {result['positions']} positions, {args.sims} "
          f"simulations each")
    for core in CORES:
        print(f"  {core:>8}: {result[core]:,.0f} simulations per CPU-second "
              f"({1e6 / result[core]:.0f} us each)")
    print(f"  compiled / python: {result['compiled'] / result['python']:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
