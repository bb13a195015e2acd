"""Learner decisions per CPU-second of `eights train`, one vector env against another.

Runs short training runs (``--timesteps`` learner decisions each, the
default opponent pool, whose ``self`` seats are the run's own checkpoints
from the first step on) with each ``--vec`` kind, alternating kinds for
``--repeats`` rounds so a busier spell of a shared machine slows both alike,
and prints each kind's learner decisions per second of the process's CPU
time, the ratio to the first kind, and the episodes the runs agreed on.

    .venv/bin/python benchmarks/training_speed.py
    .venv/bin/python benchmarks/training_speed.py --variant baby_eating_eights --players 4
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Sequence


def run(variant: str, players: int, vec: str, timesteps: int, seed: int,
        n_envs: int = 32, n_steps: int = 64) -> tuple[int, float]:
    """One run: (learner decisions, CPU seconds of the training itself)."""
    from eights.training.trainer import TrainSettings, train

    with tempfile.TemporaryDirectory() as out:
        settings = TrainSettings(variant=variant, num_players=players, out=out, seed=seed,
                                 timesteps=timesteps, vec=vec, eval_games=2,
                                 n_envs=n_envs, n_steps=n_steps,
                                 batch_size=min(512, n_envs * n_steps),
                                 eval_opponents="random", checkpoint_every=timesteps // 2,
                                 progress=False)
        started = time.process_time()
        result = train(settings)
        return result.timesteps, time.process_time() - started


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="crazy_eights")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--vecs", default="dummy,batched", help="vector env kinds to compare")
    parser.add_argument("--timesteps", type=int, default=40_000, help="per run")
    parser.add_argument("--n-envs", type=int, default=32, help="envs per run (default 32)")
    parser.add_argument("--n-steps", type=int, default=64, help="steps per env per rollout")
    parser.add_argument("--repeats", type=int, default=2, help="rounds of one run per kind")
    args = parser.parse_args(argv)
    kinds = args.vecs.split(",")
    totals = {kind: [0, 0.0] for kind in kinds}
    for round_ in range(args.repeats):
        for kind in kinds:
            steps, seconds = run(args.variant, args.players, kind, args.timesteps, round_,
                                 args.n_envs, args.n_steps)
            totals[kind][0] += steps
            totals[kind][1] += seconds
            print(f"round {round_ + 1}, {kind}: {steps:,} decisions in {seconds:.1f} CPU s "
                  f"({steps / seconds:,.0f}/s)", flush=True)
    base = totals[kinds[0]][0] / totals[kinds[0]][1]
    print(f"\n{args.variant} {args.players}p, default pool, {args.repeats} x "
          f"{args.timesteps:,} decisions per kind")
    for kind, (steps, seconds) in totals.items():
        rate = steps / seconds
        print(f"  {kind:<8} {rate:8,.0f} learner decisions per CPU-second  "
              f"{rate / base:5.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
