"""Masked PPO self-play on an ``eights`` variant with RLlib's multi-agent API.

Every seat of the PettingZoo env plays the same RLlib policy (parameter
sharing), which only ever picks legal actions: RLlib's action-masking
RLModule adds -inf to the logits of the actions the mask forbids.

Run from the repository root (needs the ``rllib`` extra: ``pip install -e ".[rllib]"``)::

    python examples/rllib_ppo.py --variant crazy_eights --iterations 2
    python examples/rllib_ppo.py --address auto --num-env-runners 8      # a running cluster
    python examples/rllib_ppo.py --address ray://head:10001 ...          # through Ray Client

The glue between our env and RLlib, ``MaskedEightsEnv`` (:func:`masked_env_class`), does
two things:

* RLlib checks a new env by stepping one random action from the whole
  action space, mask or no mask. Our env raises ``IllegalActionError`` for
  that by default; ``illegal_action="terminate"`` ends the game instead
  (-1 to the player, as PettingZoo's ``TerminateIllegalWrapper``). Training
  never meets it, since the masked policy only samples legal actions.
* The masking RLModule reads the keys ``observations`` and ``action_mask``
  (a float mask, as it takes its log); our env says ``observation`` and gives
  an int8 mask.

Every line of progress is one training iteration: the mean return of an
episode summed over the seats (RLlib's ``episode_return_mean``), player_0's
mean return, the mean episode length in env steps, and the env steps sampled
so far. In a two-player win/loss game the seats' returns sum to 0, so the
first number stays near 0 by construction; it is not exactly 0 because a
player whose every move was forced (the engine plays single-choice moves
itself) never acts, and RLlib counts no return for an agent without a step.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import gymnasium as gym
import numpy as np

from eights import ConfigError
from eights.envs import ENV_MODULES, make_env

if TYPE_CHECKING:  # Ray is imported once the flags are read: see masked_env_class
    from ray.rllib.algorithms.ppo import PPOConfig

ENV_NAME = "eights_masked"
POLICY = "shared"


@functools.cache
def masked_env_class() -> type:
    """``MaskedEightsEnv``: RLlib's PettingZoo wrapper around our AEC env, with the keys the
    masking module reads (``config`` holds ``variant`` and the game's config options).

    Made on first use rather than at import, as everything of Ray's here is: importing
    RLlib takes most of a minute, which ``--help`` and a misspelt flag should not wait for.
    """
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    class MaskedEightsEnv(PettingZooEnv):
        def __init__(self, config: dict[str, Any]):
            options = dict(config)
            variant = options.pop("variant")
            super().__init__(make_env(variant, illegal_action="terminate", **options))
            self.observation_spaces = {agent: masked_space(space)
                                       for agent, space in self.observation_spaces.items()}
            self.observation_space = gym.spaces.Dict(self.observation_spaces)

        def reset(self, *, seed: int | None = None, options: dict | None = None):
            obs, infos = super().reset(seed=seed, options=options)
            return masked(obs), infos

        def step(self, action: dict[str, int]):
            obs, rewards, terminateds, truncateds, infos = super().step(action)
            return masked(obs), rewards, terminateds, truncateds, infos

    return MaskedEightsEnv


def masked_space(space: gym.spaces.Dict) -> gym.spaces.Dict:
    """An observation space with the masking module's keys and a float mask."""
    mask = space["action_mask"]
    return gym.spaces.Dict({
        "observations": space["observation"],
        "action_mask": gym.spaces.Box(0.0, 1.0, mask.shape, dtype=np.float32),
    })


def masked(obs: dict[str, dict[str, np.ndarray]]) -> dict[str, dict[str, np.ndarray]]:
    """Observations with the masking module's keys and a float mask."""
    return {agent: {"observations": o["observation"],
                    "action_mask": o["action_mask"].astype(np.float32)}
            for agent, o in obs.items()}


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Masked PPO self-play on an eights variant with RLlib (one shared policy).",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--variant", choices=sorted(ENV_MODULES), default="crazy_eights",
                        help="the game to train on")
    parser.add_argument("--num-players", type=int, default=2, help="players at the table")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a game option, e.g. --option hand_size=5 (repeatable)")
    parser.add_argument("--iterations", type=int, default=5, help="PPO training iterations")
    parser.add_argument("--batch-size", type=int, default=4000,
                        help="env steps sampled per iteration (train_batch_size_per_learner)")
    parser.add_argument("--minibatch-size", type=int, default=256, help="PPO minibatch size")
    parser.add_argument("--epochs", type=int, default=4, help="passes over each batch")
    parser.add_argument("--lr", type=float, default=3e-4, help="learning rate")
    parser.add_argument("--hidden", type=int, nargs="+", default=[256, 256],
                        help="hidden layer widths")
    parser.add_argument("--num-env-runners", type=int, default=0,
                        help="sampling actors; 0 samples in this process")
    parser.add_argument("--envs-per-runner", type=int, default=1,
                        help="envs each runner steps together")
    parser.add_argument("--address", default=None,
                        help="Ray cluster to join: 'auto' (a cluster started with `ray start` "
                             "on this machine), HOST:PORT, or 'ray://HEAD:10001' (Ray Client); "
                             "unset: start a Ray of our own")
    parser.add_argument("--num-cpus", type=int, default=None,
                        help="CPUs for a local Ray (not with --address); unset: all")
    parser.add_argument("--seed", type=int, default=0, help="seed of the envs and networks")
    parser.add_argument("--out", default=None, help="save the trained algorithm here")
    args = parser.parse_args(argv)
    positive = ("num_players", "iterations", "batch_size", "minibatch_size", "epochs",
                "envs_per_runner")
    for name in positive:
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    if args.num_env_runners < 0:
        parser.error("--num-env-runners must be 0 (sample here) or more")
    if args.num_cpus is not None and args.num_cpus < 1:
        parser.error("--num-cpus must be at least 1")
    if not args.lr > 0:
        parser.error("--lr must be positive")
    if args.minibatch_size > args.batch_size:
        parser.error("--minibatch-size must not exceed --batch-size")
    if any(width < 1 for width in args.hidden):
        parser.error("--hidden widths must be at least 1")
    if args.address is not None and args.num_cpus is not None:
        parser.error("--num-cpus is for a local Ray; a cluster (--address) has its own")
    args.options = {}
    for item in args.option:
        name, eq, value = item.partition("=")
        if not (eq and name):
            parser.error(f"--option {item!r} must look like NAME=VALUE, e.g. hand_size=5")
        try:
            args.options[name] = json.loads(value)  # numbers and booleans
        except json.JSONDecodeError:
            args.options[name] = value
    try:  # a bad table fails here, before Ray starts
        make_env(args.variant, num_players=args.num_players, **args.options)
    except ConfigError as err:
        parser.error(str(err))
    return args


def build_config(args: argparse.Namespace) -> PPOConfig:
    """PPO on the new API stack: one masked RLModule that every seat maps to."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (
        ActionMaskingTorchRLModule,
    )
    from ray.tune.registry import register_env

    register_env(ENV_NAME, masked_env_class())
    return (
        PPOConfig()
        .environment(ENV_NAME, env_config={"variant": args.variant,
                                           "num_players": args.num_players, **args.options})
        .env_runners(num_env_runners=args.num_env_runners,
                     num_envs_per_env_runner=args.envs_per_runner)
        .multi_agent(policies={POLICY}, policy_mapping_fn=lambda agent_id, *_, **__: POLICY)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={
            POLICY: RLModuleSpec(module_class=ActionMaskingTorchRLModule,
                                 model_config={"fcnet_hiddens": list(args.hidden)}),
        }))
        .training(train_batch_size_per_learner=args.batch_size,
                  minibatch_size=args.minibatch_size, num_epochs=args.epochs, lr=args.lr)
        .debugging(seed=args.seed)
    )


def progress(iteration: int, result: dict[str, Any]) -> dict[str, float]:
    """The numbers of one iteration's line (NaN before the first finished episode)."""
    runners = result.get("env_runners", {})
    p0 = runners.get("agent_episode_returns_mean", {}).get("player_0", math.nan)
    return {
        "iteration": iteration,
        "episode_return_mean": runners.get("episode_return_mean", math.nan),
        "player_0_return_mean": p0,
        "episode_len_mean": runners.get("episode_len_mean", math.nan),
        "timesteps": int(result.get("num_env_steps_sampled_lifetime", 0)),
    }


def _number(value: float, spec: str) -> str:
    """``value`` formatted, or ``-`` while no episode has finished yet."""
    return "-" if math.isnan(value) else format(value, spec)


def main(argv: Sequence[str] | None = None) -> list[dict[str, float]]:
    args = parse_args(argv)  # before Ray is imported: --help and bad flags answer at once
    import ray

    if args.address is None:
        # "local" starts a Ray of our own even when a `ray start` cluster runs on this machine
        ray.init(address="local", num_cpus=args.num_cpus, include_dashboard=False)
    else:
        ray.init(address=args.address)
    rows = []
    try:
        algo = build_config(args).build_algo()
        for iteration in range(1, args.iterations + 1):
            row = progress(iteration, algo.train())
            rows.append(row)
            print(f"iter {iteration:3d}  return {_number(row['episode_return_mean'], '+.3f')}  "
                  f"p0 {_number(row['player_0_return_mean'], '+.3f')}  "
                  f"len {_number(row['episode_len_mean'], '.1f')}  "
                  f"timesteps {row['timesteps']}", flush=True)
        if args.out:
            # absolute: RLlib reads a relative path as a URI and refuses it
            print(f"saved to {algo.save_to_path(str(Path(args.out).resolve()))}")
        algo.stop()
    finally:
        ray.shutdown()
    return rows


if __name__ == "__main__":
    main()
