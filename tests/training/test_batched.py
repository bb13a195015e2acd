"""Opponents answering in batches play exactly the episodes they play one at a time."""

from __future__ import annotations

import numpy as np
import pytest
from stable_baselines3.common.vec_env import DummyVecEnv

from eights.agents import make_agent
from eights.agents.policy import MODELS_DIR, act_together
from eights.engines import make_game
from eights.training import SingleAgentEnv
from eights.training.batched import BatchedOpponentsVecEnv
from eights.training.trainer import TrainSettings, train

SNAPSHOT = str(MODELS_DIR / "crazy_eights-2p.npz")


def env_fns(count: int, variant: str = "crazy_eights", players: int = 2,
            pool: str = "heuristic@0.3,random@0.1,self@0.6", snapshot: str = SNAPSHOT):
    def make(seed: int):
        def build() -> SingleAgentEnv:
            env = SingleAgentEnv(variant, pool, num_players=players)
            env.set_snapshots([snapshot])
            env.reset(seed=seed)
            return env
        return build
    return [make(seed) for seed in range(count)]


def rollout(vec, steps: int, illegal_every: int = 0):
    vec.seed(0)
    vec.reset()
    rng = np.random.default_rng(1)
    seen = []
    for step in range(steps):
        masks = np.stack(vec.env_method("action_masks"))
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        if illegal_every and step % illegal_every == 0:
            actions[0] = int(np.flatnonzero(~masks[0])[0])  # the wrapper ends it as illegal
        obs, rewards, dones, infos = vec.step(actions)
        seen.append((obs.copy(), rewards.copy(), dones.copy(),
                     [(i.get("illegal_action"), i.get("winners")) for i in infos]))
    return seen


def assert_same_rollouts(expected, got):
    assert len(expected) == len(got)
    for (o1, r1, d1, i1), (o2, r2, d2, i2) in zip(expected, got, strict=True):
        np.testing.assert_array_equal(o1, o2)
        np.testing.assert_array_equal(r1, r2)
        np.testing.assert_array_equal(d1, d2)
        assert i1 == i2


@pytest.mark.parametrize("illegal_every", [0, 7])
def test_the_same_episodes_as_one_env_after_another(illegal_every):
    one_by_one = rollout(DummyVecEnv(env_fns(6)), 150, illegal_every)
    batched = rollout(BatchedOpponentsVecEnv(env_fns(6)), 150, illegal_every)
    assert sum(d.sum() for _, _, d, _ in batched) > 5  # episodes ended and were reset
    assert_same_rollouts(one_by_one, batched)


def test_several_opponent_seats_answer_in_every_round():
    snapshot = str(MODELS_DIR / "baby_eating_eights-4p.npz")
    fns = env_fns(3, "baby_eating_eights", 4, "greedy@0.5,self@0.5", snapshot)
    assert_same_rollouts(rollout(DummyVecEnv(fns), 40), rollout(BatchedOpponentsVecEnv(fns), 40))


def test_act_together_gives_each_agent_its_own_action():
    game = make_game("crazy_eights", seed=4)
    turns = []
    for k in range(12):
        spec = f"policy:{SNAPSHOT}?sample" if k % 3 else "heuristic"
        turns.append((make_agent(spec, "crazy_eights", seed=k),
                      game.view(game.current_player)))
    alone = []
    for k, (agent, view) in enumerate(turns):
        agent.seed(k)
        alone.append(agent.act(view))
    for k, (agent, _) in enumerate(turns):
        agent.seed(k)
    assert act_together(turns) == alone


def test_training_with_batched_opponents(tmp_path):
    result = train(TrainSettings(variant="crazy_eights", out=str(tmp_path / "run"),
                                 timesteps=512, n_envs=4, n_steps=64, batch_size=128,
                                 n_epochs=1, eval_games=2, net_arch=(16,), vec="batched",
                                 opponents="random,self", eval_opponents="random",
                                 progress=False))
    assert result.timesteps >= 512
    assert (result.run_dir / "final.npz").is_file()


@pytest.mark.long  # a Ray start; tests/training/test_distill.py runs Ray in the suite
def test_the_same_episodes_in_ray_actors():
    pytest.importorskip("ray")
    from eights.training.ray_vec import RayVecEnv

    fns = env_fns(3)
    one_by_one = rollout(DummyVecEnv(fns), 40)
    vec = RayVecEnv(fns, num_cpus=2)  # three envs on two actors
    try:
        assert vec.env_method("set_priorities", None) == [None] * 3
        assert vec.get_attr("variant") == ["crazy_eights"] * 3
        on_ray = rollout(vec, 40)
    finally:
        vec.close()
    assert_same_rollouts(one_by_one, on_ray)


def test_a_ray_address_needs_the_ray_vec():
    from eights.config import ConfigError

    with pytest.raises(ConfigError, match="vec ray"):
        TrainSettings(ray_address="auto").check()


@pytest.mark.long  # a second Ray start; the episodes on Ray are compared above
def test_a_league_run_on_a_local_ray(tmp_path):
    pytest.importorskip("ray")
    result = train(TrainSettings(variant="crazy_eights", out=str(tmp_path / "ray"),
                                 timesteps=256, n_envs=3, n_steps=64, batch_size=64,
                                 n_epochs=1, checkpoint_every=128, eval_games=2,
                                 net_arch=(16,), vec="ray", league=True,
                                 opponents="random,self", eval_opponents="random",
                                 progress=False))
    assert result.timesteps >= 256
    from eights.training.checkpoints import read_metadata

    league = read_metadata(result.final)["league"]
    assert sum(row["games"] for row in league.values()) > 0  # the actors' episodes counted
