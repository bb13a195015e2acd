"""Training ablations at equal CPU time: what the privileged critic, the league and
expert iteration each buy.

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
* ``both``: the two together;
* ``distill``: ``eights train``'s defaults for the first half of the time
  (``--distill-share`` sets the other part), then ``eights distill`` from that
  run's final checkpoint for the rest: the compiled search ``--teacher`` labels
  the positions of the learner's games against the heuristic, serially in the
  run's own process, and the policy is trained toward its visits (every
  label kept in the window). Its last iteration is what is measured.

Prints each run's PPO decisions and labelled positions, its win rate with a
95% interval, and each configuration's mean over its seeds. Keeps the runs
under ``--out``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path

from rich.console import Console
from rich.table import Table

from eights.cli import LEAGUE_OPPONENTS
from eights.tournament.text import interval


@dataclass(frozen=True)
class Config:
    """A configuration: what it changes in ``TrainSettings``, and whether the second part
    of its time goes to expert iteration (``eights distill``) from its PPO run."""

    train: dict[str, object]
    distill: bool = False


#: the configurations by name
CONFIGS: dict[str, Config] = {
    "base": Config({}),
    "critic": Config({"privileged_critic": True}),
    "league": Config({"league": True, "opponents": LEAGUE_OPPONENTS}),
    "both": Config({"privileged_critic": True, "league": True, "opponents": LEAGUE_OPPONENTS}),
    "distill": Config({}, distill=True),
}
#: the labelling search: compiled, so it runs a thousand simulations a decision without the
#: policy (61.4% against the heuristic in crazy_eights 2p, docs/training.md's ablations)
TEACHER = "ismcts:sims=1000,core=compiled,belief=voids,opponents=heuristic"
#: labelling games an iteration: small, so the time limit (checked between iterations)
#: is overrun by seconds at most
DISTILL_GAMES = 8
#: deals of the measurement: far from training's evaluation deals (1,000,000 on)
MEASURE_SEED = 9_800_000


@dataclass(frozen=True)
class Task:
    """One run of one configuration from one seed."""

    name: str
    seed: int
    variant: str
    players: int
    minutes: float
    out: str
    eval_games: int
    teacher: str
    distill_share: float


@dataclass(frozen=True)
class Trained:
    """What a run did: PPO decisions, labelled positions, seconds, the policy to measure."""

    name: str
    seed: int
    decisions: int
    positions: int
    seconds: float
    model: str


def train_one(task: Task) -> Trained:
    """One run (in its own process, one torch thread)."""
    from eights.training.trainer import TrainSettings, train

    run_dir = Path(task.out) / f"{task.name}-{task.seed}"
    config = CONFIGS[task.name]
    ppo_minutes = task.minutes * (1 - task.distill_share) if config.distill else task.minutes
    result = train(TrainSettings(variant=task.variant, num_players=task.players, seed=task.seed,
                                 out=str(run_dir), timesteps=10**9,
                                 time_limit_minutes=ppo_minutes, progress=False,
                                 eval_games=task.eval_games,
                                 **config.train))  # type: ignore[arg-type]
    if not config.distill:
        return Trained(task.name, task.seed, result.timesteps, 0, result.seconds,
                       str(run_dir / "final.npz"))
    from eights.training.distill import DistillSettings, distill

    done = distill(DistillSettings(
        start=str(run_dir / "final.zip"), out=str(run_dir / "distill"), search=task.teacher,
        opponents="heuristic", games=DISTILL_GAMES, iterations=100_000, epochs=3,
        learning_rate=3e-4, window=100_000, eval_games=task.eval_games, seed=task.seed,
        time_limit_minutes=task.minutes * task.distill_share, progress=False))
    positions = sum(int(row["positions"]) for row in done.rows)
    return Trained(task.name, task.seed, result.timesteps, positions,
                   result.seconds + done.seconds, str(done.final.with_suffix(".npz")))


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
    parser.add_argument("--teacher", default=TEACHER,
                        help=f"the labelling search of distill (default {TEACHER})")
    parser.add_argument("--distill-share", type=float, default=0.5,
                        help="the part of distill's time spent labelling and imitating "
                             "(default 0.5; PPO has the rest)")
    args = parser.parse_args(argv)
    if not 0 < args.distill_share < 1:
        parser.error(f"--distill-share {args.distill_share} must lie between 0 and 1")
    configs = args.configs.split(",")
    unknown = [c for c in configs if c not in CONFIGS]
    if unknown:
        parser.error(f"unknown configs {unknown}; choose from {', '.join(CONFIGS)}")
    seeds = [int(s) for s in args.seeds.split(",")]
    tasks = [Task(name, seed, args.variant, args.players, args.minutes, args.out,
                  args.eval_games, args.teacher, args.distill_share)
             for seed in seeds for name in configs]
    console = Console()
    console.log(f"training {len(tasks)} runs for {args.minutes:g} minutes each")
    if args.procs == 1:  # in this process, one after the other
        trained = {(run.name, run.seed): run for run in map(train_one, tasks)}
    else:
        with get_context("spawn").Pool(args.procs or len(tasks)) as pool:
            trained = {(run.name, run.seed): run
                       for run in pool.imap_unordered(train_one, tasks)}
    table = Table(title=f"{args.variant} {args.players}p: each run's final policy against the "
                        f"heuristic, {args.games} games on deals from {MEASURE_SEED:,}")
    for col in ("config", "seed", "decisions", "labelled", "minutes", "win rate", "95% CI"):
        table.add_column(col)
    means = {}
    for name in configs:
        rates = []
        for seed in seeds:
            run = trained[name, seed]
            rate, low, high = measure(run.model, args.variant, args.players, args.games)
            rates.append(rate)
            table.add_row(name, str(seed), f"{run.decisions:,}",
                          f"{run.positions:,}" if CONFIGS[name].distill else "",
                          f"{run.seconds / 60:.1f}", f"{rate:.1%}", interval(low, high, ".1%"))
        means[name] = sum(rates) / len(rates)
    console.print(table)
    for name, mean in means.items():
        console.print(f"{name}: mean {mean:.1%} over {len(seeds)} seeds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
