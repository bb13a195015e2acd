"""Strength of the ISMCTS agent against the heuristic (or any agent), two players.

    .venv/bin/python benchmarks/ismcts.py --games 300 --sims 1000
    .venv/bin/python benchmarks/ismcts.py --games 100 --ms 50 --opponent random

Game ``g`` is dealt from seed ``seed + g`` and the seats alternate every game,
so ISMCTS plays first in half the games. Prints the win rate with its 95%
Wilson interval, the draws (truncated games), and the mean milliseconds per
ISMCTS decision (decisions with one legal action never reach an agent).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from eights.agents import Agent, ISMCTSAgent, make_agent, play_game
from eights.agents.ismcts import DEFAULT_EXPLORATION, DEFAULT_SIMULATIONS
from eights.engines import VARIANTS, make_game
from eights.engines.base import PlayerView
from eights.tournament.stats import wilson_interval


class TimedAgent(Agent):
    """Wraps the search agent to time each decision it is asked."""

    def __init__(self, agent: ISMCTSAgent):
        super().__init__()
        self.agent = agent
        self.seconds = 0.0
        self.decisions = 0

    def act(self, view: PlayerView) -> int:
        start = time.perf_counter()
        action = self.agent.act(view)
        self.seconds += time.perf_counter() - start
        self.decisions += 1
        return action


def measure(variant: str = "crazy_eights", games: int = 300,
            sims: int = DEFAULT_SIMULATIONS, ms: float | None = None,
            exploration: float = DEFAULT_EXPLORATION, opponent: str = "heuristic",
            seed: int = 0, progress: Callable[[int], None] | None = None,
            infer: bool = True) -> dict:
    """Play the games; return wins, truncated games and timing of the search agent."""
    search = TimedAgent(ISMCTSAgent(seed, simulations=sims, time_ms=ms,
                                    exploration=exploration, infer=infer))
    other = make_agent(opponent, variant, seed=seed + 1)
    game = make_game(variant, num_players=2, seed=seed)
    wins = truncated = 0
    start = time.perf_counter()
    for g in range(games):
        game.reset(seed=seed + g)
        first = g % 2  # the seat ISMCTS plays this game
        play_game(game, [search, other] if first == 0 else [other, search])
        wins += first in game.winners
        truncated += game.truncated
        if progress:
            progress(g + 1)
    return {
        "variant": variant, "opponent": opponent, "games": games, "wins": wins,
        "truncated": truncated, "interval": wilson_interval(wins, games),
        "decisions": search.decisions,
        "ms_per_decision": 1000 * search.seconds / max(search.decisions, 1),
        "seconds": time.perf_counter() - start,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--sims", type=int, default=DEFAULT_SIMULATIONS,
                        help="simulations per decision")
    budget.add_argument("--ms", type=float, default=None, help="milliseconds per decision")
    parser.add_argument("--c", type=float, default=DEFAULT_EXPLORATION,
                        help="UCB exploration constant")
    parser.add_argument("--variant", default="crazy_eights", choices=list(VARIANTS))
    parser.add_argument("--opponent", default="heuristic", help="the other agent's spec")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-infer", action="store_true",
                        help="deal opponents at random, ignoring what their draws tell")
    args = parser.parse_args(argv)
    console = Console()
    budget_text = f"ms={args.ms:g}" if args.ms is not None else f"sims={args.sims}"
    budget_text += ",infer=0" if args.no_infer else ""
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task(f"ismcts:{budget_text} vs {args.opponent}", total=args.games)
        out = measure(args.variant, args.games, args.sims, args.ms, args.c, args.opponent,
                      args.seed, progress=lambda done: bar.update(task, completed=done),
                      infer=not args.no_infer)
    lo, hi = out["interval"]
    table = Table(title=f"{args.variant}, two players: ismcts:{budget_text},c={args.c:g} "
                        f"vs {args.opponent} ({out['seconds']:.0f} s)")
    for col in ("games", "wins", "win rate", "95% CI", "truncated", "ms/decision",
                "decisions"):
        table.add_column(col, justify="right", no_wrap=True)
    table.add_row(str(out["games"]), str(out["wins"]), f"{out['wins'] / out['games']:.1%}",
                  f"{lo:.1%}-{hi:.1%}", str(out["truncated"]), f"{out['ms_per_decision']:.1f}",
                  str(out["decisions"]))
    console.print(table)
    console.print(f"ismcts:{budget_text},c={args.c:g} vs {args.opponent}: won {out['wins']} of "
                  f"{out['games']} ({out['wins'] / out['games']:.1%}, 95% CI {lo:.1%}-{hi:.1%}), "
                  f"{out['ms_per_decision']:.1f} ms per decision", soft_wrap=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
