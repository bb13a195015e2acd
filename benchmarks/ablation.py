"""Training ablations at equal CPU time: what the privileged critic and the league each buy.

Trains every (configuration, seed) pair at once, one process and one torch
thread each, all under the same ``--minutes`` limit (so each run gets the
same CPU time when the machine has a core per run; give ``--procs`` no more
than its cores), then measures every final policy against the heuristic on
fresh deals: ``--games`` duplicate games for two players (each deal twice,
seats swapped), else seat-rotated games against copies of the heuristic.

    .venv/bin/python benchmarks/ablation.py --minutes 4.5 --seeds 11,12,13,14
    .venv/bin/python benchmarks/ablation.py --configs base,critic --minutes 1 --seeds 1 \
        --games 200 --out runs/ablation

The configurations (``--configs``, default all):

* ``base``: ``eights train``'s defaults;
* ``critic``: ``--privileged-critic``;
* ``league``: ``--league`` (its pool, heuristic,greedy,random,self@2);
* ``both``: the two together.

Prints each run's decisions trained and its win rate with a 95% interval, and
each configuration's mean over its seeds. Keeps the runs under ``--out``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from multiprocessing import get_context
from pathlib import Path

from rich.console import Console
from rich.table import Table

from eights.cli import LEAGUE_OPPONENTS
from eights.tournament.text import interval

#: configuration -> the TrainSettings it changes
CONFIGS: dict[str, dict[str, object]] = {
    "base": {},
    "critic": {"privileged_critic": True},
    "league": {"league": True, "opponents": LEAGUE_OPPONENTS},
    "both": {"privileged_critic": True, "league": True, "opponents": LEAGUE_OPPONENTS},
}
#: deals of the measurement: far from training's evaluation deals (1,000,000 on)
MEASURE_SEED = 9_800_000


def train_one(task: tuple[str, int, str, int, float, str, int]) -> tuple[str, int, int, float]:
    """One run (in its own process): (configuration, seed, decisions, seconds)."""
    name, seed, variant, players, minutes, out, eval_games = task
    from eights.training.trainer import TrainSettings, train

    result = train(TrainSettings(variant=variant, num_players=players, seed=seed,
                                 out=f"{out}/{name}-{seed}", timesteps=10**9,
                                 time_limit_minutes=minutes, progress=False,
                                 eval_games=eval_games,
                                 **CONFIGS[name]))  # type: ignore[arg-type]
    return name, seed, result.timesteps, result.seconds


def measure(model: str, variant: str, players: int, games: int) -> tuple[float, float, float]:
    """The policy's win rate against the heuristic and its 95% interval."""
    from eights.agents import make_agent
    from eights.tournament import Tournament, run_tournament
    from eights.training.evaluate import evaluate

    spec = f"policy:{model}"
    if players == 2:
        result = run_tournament(Tournament(variant, (spec, "heuristic"), num_players=2,
                                           games=games, seed=MEASURE_SEED))
        pair = next(p for p in result.pairs if p.agent == spec)
        return pair.rate, pair.rate_low, pair.rate_high
    outcome = evaluate(make_agent(spec, variant, seed=0), "heuristic", variant, games,
                       seed=MEASURE_SEED, num_players=players)
    return (outcome.win_rate, *outcome.interval())


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="crazy_eights")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--configs", default=",".join(CONFIGS),
                        help=f"which of {', '.join(CONFIGS)}")
    parser.add_argument("--seeds", default="11,12", help="training seeds, one run per config")
    parser.add_argument("--minutes", type=float, default=4.5, help="each run's time limit")
    parser.add_argument("--games", type=int, default=2000, help="measurement games per run")
    parser.add_argument("--eval-games", type=int, default=200,
                        help="games per evaluation during training (eights train's default)")
    parser.add_argument("--procs", type=int, default=None,
                        help="runs at once (default: all of them; 1: in this process)")
    parser.add_argument("--out", default="runs/ablation", help="where the runs are kept")
    args = parser.parse_args(argv)
    configs = args.configs.split(",")
    unknown = [c for c in configs if c not in CONFIGS]
    if unknown:
        parser.error(f"unknown configs {unknown}; choose from {', '.join(CONFIGS)}")
    seeds = [int(s) for s in args.seeds.split(",")]
    tasks = [(name, seed, args.variant, args.players, args.minutes, args.out, args.eval_games)
             for seed in seeds for name in configs]
    console = Console()
    console.log(f"training {len(tasks)} runs for {args.minutes:g} minutes each")
    if args.procs == 1:  # in this process, one after the other
        done = map(train_one, tasks)
        trained = {(name, seed): (steps, secs) for name, seed, steps, secs in done}
    else:
        with get_context("spawn").Pool(args.procs or len(tasks)) as pool:
            trained = {(name, seed): (steps, secs)
                       for name, seed, steps, secs in pool.imap_unordered(train_one, tasks)}
    table = Table(title=f"{args.variant} {args.players}p: each run's final policy against the "
                        f"heuristic, {args.games} games on deals from {MEASURE_SEED:,}")
    for col in ("config", "seed", "decisions", "win rate", "95% CI"):
        table.add_column(col)
    means = {}
    for name in configs:
        rates = []
        for seed in seeds:
            model = str(Path(args.out) / f"{name}-{seed}" / "final.npz")
            rate, low, high = measure(model, args.variant, args.players, args.games)
            rates.append(rate)
            table.add_row(name, str(seed), f"{trained[name, seed][0]:,}", f"{rate:.1%}",
                          interval(low, high, ".1%"))
        means[name] = sum(rates) / len(rates)
    console.print(table)
    for name, mean in means.items():
        console.print(f"{name}: mean {mean:.1%} over {len(seeds)} seeds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
