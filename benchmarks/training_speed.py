"""Learner decisions per CPU-second of `eights train`, one vector env against another.

Runs short training runs (``--timesteps`` learner decisions each, the
default opponent pool, whose ``self`` seats are the run's own checkpoints
from the first step on) with each ``--vec`` kind, alternating kinds for
``--repeats`` rounds so a busier spell of a shared machine slows both alike,
and prints each kind's learner decisions per second of the process's CPU
time and the ratio to the first kind.

Every kind first trains one untimed rollout in the process that times it (imports
and compiled code are paid before the clock). A kind written ``VEC@REV`` runs the
trainer of git revision ``REV`` of this repository instead (its files exported to
a temporary folder, each run in a subprocess of the same Python, timed the same
way), so a figure filed against
an older trainer is measured again beside today's on the same machine::

    .venv/bin/python benchmarks/training_speed.py
    .venv/bin/python benchmarks/training_speed.py --variant baby_eating_eights --players 4
    .venv/bin/python benchmarks/training_speed.py --vecs dummy@34064b4,vector
    .venv/bin/python benchmarks/training_speed.py --vecs dummy@34064b4,vector \
        --observation-version 1

``--observation-version`` sets the layout today's kinds train on: a revision
from before the v2 observations trained on v1, so ``1`` compares the same
network (239 inputs in crazy_eights) on both sides.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent

#: a run of an older revision's trainer: this file's :func:`run` in a subprocess whose
#: ``eights`` is the revision's, after an untimed one-rollout warm-up, printed as JSON
REVISION_RUN = """
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("training_speed", sys.argv[1])
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)
args = json.loads(sys.argv[2])
warm_up = [*args[:3], args[5] * args[6], *args[4:]]
bench.run(*warm_up)
print(json.dumps(bench.run(*args)))
"""


def run(variant: str, players: int, vec: str, timesteps: int, seed: int,
        n_envs: int = 32, n_steps: int = 64, opponents: str | None = None,
        observation_version: int | None = None) -> tuple[int, float]:
    """One run: (learner decisions, CPU seconds of the training itself). An older
    revision's trainer reads its own observation, so ``observation_version`` is passed
    only when given."""
    from eights.training.trainer import TrainSettings, train

    with tempfile.TemporaryDirectory() as out:
        settings = TrainSettings(variant=variant, num_players=players, out=out, seed=seed,
                                 timesteps=timesteps, vec=vec, eval_games=2,
                                 n_envs=n_envs, n_steps=n_steps,
                                 batch_size=min(512, n_envs * n_steps),
                                 eval_opponents="random", checkpoint_every=timesteps // 2,
                                 progress=False,
                                 **({"opponents": opponents} if opponents else {}),
                                 **({"observation_version": observation_version}
                                    if observation_version is not None else {}))
        started = time.process_time()
        result = train(settings)
        return result.timesteps, time.process_time() - started


def export_revision(revision: str, into: Path) -> Path:
    """This repository's files at ``revision`` under ``into`` (``git archive``; the work tree
    and its branches are left alone)."""
    try:
        archive = subprocess.run(["git", "-C", str(REPOSITORY), "archive", revision],
                                 capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as error:
        detail = getattr(error, "stderr", b"") or str(error).encode()
        raise SystemExit(f"training_speed: cannot export revision {revision!r} of "
                         f"{REPOSITORY} ({detail.decode().strip()}); a kind VEC@REV needs a "
                         f"git clone and a revision it holds") from None
    folder = into / revision
    folder.mkdir(parents=True)
    with tempfile.TemporaryFile() as tar_file:
        tar_file.write(archive)
        tar_file.seek(0)
        with tarfile.open(fileobj=tar_file) as tar:
            tar.extractall(folder, filter="data")
    return folder


def run_revision(checkout: Path, variant: str, players: int, vec: str, timesteps: int,
                 seed: int, n_envs: int = 32, n_steps: int = 64,
                 opponents: str | None = None) -> tuple[int, float]:
    """:func:`run` with the trainer of an exported revision, in a subprocess."""
    arguments = json.dumps([variant, players, vec, timesteps, seed, n_envs, n_steps, opponents])
    done = subprocess.run([sys.executable, "-c", REVISION_RUN, __file__, arguments],
                          cwd=checkout,
                          env={"PYTHONPATH": str(checkout), "PATH": "/usr/bin:/bin"},
                          capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"training_speed: the run at {checkout.name} failed:\n"
                         f"{done.stderr.strip()}")
    steps, seconds = json.loads(done.stdout.strip().splitlines()[-1])
    return int(steps), float(seconds)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="crazy_eights")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--vecs", default="dummy,batched", help="vector env kinds to compare")
    parser.add_argument("--timesteps", type=int, default=40_000, help="per run")
    parser.add_argument("--n-envs", type=int, default=32, help="envs per run (default 32)")
    parser.add_argument("--n-steps", type=int, default=64, help="steps per env per rollout")
    parser.add_argument("--opponents", default=None,
                        help="the runs' opponent pool (default: eights train's default pool)")
    parser.add_argument("--repeats", type=int, default=2, help="rounds of one run per kind")
    parser.add_argument("--observation-version", type=int, default=None,
                        help="the observation today's kinds train on (default: the newest); "
                             "a kind VEC@REV reads its revision's own")
    args = parser.parse_args(argv)
    kinds = args.vecs.split(",")
    totals = {kind: [0, 0.0] for kind in kinds}
    with tempfile.TemporaryDirectory() as exports:
        checkouts = {kind: export_revision(kind.partition("@")[2], Path(exports))
                     for kind in kinds if "@" in kind}
        for kind in kinds:  # imports, compiled code: paid before the clock, as a subprocess does
            if kind not in checkouts:
                run(args.variant, args.players, kind, args.n_envs * args.n_steps, 0,
                    args.n_envs, args.n_steps, args.opponents, args.observation_version)
        for round_ in range(args.repeats):
            for kind in kinds:
                _measure(kind, checkouts.get(kind), args, round_, totals)
    base = totals[kinds[0]][0] / totals[kinds[0]][1]
    pool = f"opponents {args.opponents}" if args.opponents else "default pool"
    if args.observation_version is not None:
        pool += f", today's kinds on the v{args.observation_version} observation"
    print(f"\n{args.variant} {args.players}p, {pool}, {args.repeats} x "
          f"{args.timesteps:,} decisions per kind")
    for kind, (steps, seconds) in totals.items():
        rate = steps / seconds
        print(f"  {kind:<16} {rate:8,.0f} learner decisions per CPU-second  "
              f"{rate / base:5.2f}x")
    return 0


def _measure(kind: str, checkout: Path | None, args: argparse.Namespace, round_: int,
             totals: dict[str, list]) -> None:
    """One run of ``kind`` (today's trainer, or the exported revision's), added and printed."""
    vec = kind.partition("@")[0]
    common = (args.variant, args.players, vec, args.timesteps, round_, args.n_envs,
              args.n_steps, args.opponents)
    steps, seconds = run(*common, args.observation_version) if checkout is None else \
        run_revision(checkout, *common)
    totals[kind][0] += steps
    totals[kind][1] += seconds
    print(f"round {round_ + 1}, {kind}: {steps:,} decisions in {seconds:.1f} CPU s "
          f"({steps / seconds:,.0f}/s, {1e6 * seconds / steps:.0f} us each)", flush=True)


if __name__ == "__main__":
    sys.exit(main())
