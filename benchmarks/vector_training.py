"""MaskablePPO's learner decisions per CPU-second on ``eights.vector`` against the trainer's env.

The same policy, network and hyperparameters as ``eights train``'s defaults (its
:class:`~eights.training.policies.MaskedMlpPolicy`, 32 envs of 64 steps, batches
of 512, 4 epochs, a 256x256 MLP, one thread), against the
same opponent (the heuristic at every other seat), on two vector envs:

* ``dummy``: SB3's ``DummyVecEnv`` over the same envs, one opponent forward at a time
  (the trainer's default before ``batched``);
* ``batched``: ``eights train``'s default (:class:`~eights.training.batched.
  BatchedOpponentsVecEnv` over :class:`~eights.training.SingleAgentEnv`, the
  Python engine and encoder);
* ``vector``: :func:`eights.vector.adapters.sb3_vec_env` over
  :func:`eights.vector.make` (the compiled core and heuristic where the variant
  has one).

Runs alternate for ``--repeats`` rounds so a busier spell of a shared machine
slows both alike; each line is one run's ``model.learn`` (the PPO updates
included), and the summary is each kind's learner decisions per CPU-second and
its ratios to the others::

    .venv/bin/python benchmarks/vector_training.py
    .venv/bin/python benchmarks/vector_training.py --timesteps 20000 --repeats 1
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from typing import Any

#: the envs compared: ``dummy`` (the trainer's default when #29 was filed: its 659 us a
#: decision), ``batched`` (the default since), ``vector``
KINDS = ("dummy", "batched", "vector")


def vec_env(kind: str, variant: str, players: int, n_envs: int, seed: int) -> Any:
    """The vector env of ``kind`` with the heuristic at every opponent seat."""
    from stable_baselines3.common.vec_env import VecMonitor

    if kind == "vector":
        from eights.vector import make
        from eights.vector.adapters import sb3_vec_env

        return sb3_vec_env(make(variant, n_envs, "heuristic", num_players=players, seed=seed))
    from stable_baselines3.common.vec_env import DummyVecEnv

    from eights.training.batched import BatchedOpponentsVecEnv
    from eights.training.trainer import TrainSettings, make_env_fns

    settings = TrainSettings(variant=variant, num_players=players, seed=seed, n_envs=n_envs)
    settings.check()
    wrapper = DummyVecEnv if kind == "dummy" else BatchedOpponentsVecEnv
    return VecMonitor(wrapper(make_env_fns(settings, "heuristic")))


def run(kind: str, variant: str, players: int, timesteps: int, seed: int) -> tuple[int, float]:
    """One ``learn``: (learner decisions, CPU seconds)."""
    import torch
    from sb3_contrib import MaskablePPO
    from threadpoolctl import threadpool_limits

    from eights.training.trainer import TrainSettings, policy_class

    defaults = TrainSettings()
    torch.set_num_threads(1)
    env = vec_env(kind, variant, players, defaults.n_envs, seed)
    policy, _ = policy_class(False, env.observation_space.shape[0])
    model = MaskablePPO(policy, env, n_steps=defaults.n_steps,
                        batch_size=defaults.batch_size, n_epochs=defaults.n_epochs,
                        learning_rate=defaults.learning_rate, gamma=defaults.gamma,
                        gae_lambda=defaults.gae_lambda, ent_coef=defaults.ent_coef,
                        policy_kwargs={"net_arch": list(defaults.net_arch)}, seed=seed,
                        device="cpu", verbose=0)
    with threadpool_limits(1, user_api="blas"):
        started = time.process_time()
        model.learn(timesteps)
        seconds = time.process_time() - started
    env.close()
    return model.num_timesteps, seconds


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="crazy_eights")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--timesteps", type=int, default=40_000, help="per run")
    parser.add_argument("--repeats", type=int, default=2, help="rounds of one run per kind")
    parser.add_argument("--kinds", default=",".join(KINDS),
                        help=f"envs compared, comma-separated (of {', '.join(KINDS)}; "
                             f"batched is the ratios' base and always runs)")
    args = parser.parse_args(argv)
    kinds = [k for k in KINDS if k in args.kinds.split(",") or k == "batched"]
    unknown = sorted(set(args.kinds.split(",")) - set(KINDS))
    if unknown:
        parser.error(f"--kinds: {', '.join(unknown)} is not an env here; envs: "
                     f"{', '.join(KINDS)}")
    totals = {kind: [0, 0.0] for kind in kinds}
    for round_ in range(args.repeats):
        for kind in kinds:
            steps, seconds = run(kind, args.variant, args.players, args.timesteps, round_)
            totals[kind][0] += steps
            totals[kind][1] += seconds
            print(f"round {round_ + 1}, {kind}: {steps:,} learner decisions in {seconds:.1f} "
                  f"CPU s ({steps / seconds:,.0f}/s, {1e6 * seconds / steps:.0f} us each)",
                  flush=True)
    rates = {kind: steps / seconds for kind, (steps, seconds) in totals.items()}
    for kind, rate in rates.items():
        against = "".join(f", {rate / rates[other]:.2f}x {other}" for other in rates
                          if other != kind and other != "vector")
        print(f"{kind}: {rate:,.0f} learner decisions per CPU-second{against}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
