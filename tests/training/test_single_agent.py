"""The single-agent wrapper: spaces, masks, rewards, seats, opponents, check_env."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gym_check_env
from stable_baselines3.common.env_checker import check_env

from eights.cards import card_text, parse_cards
from eights.config import ConfigError
from eights.engines import engine_class
from eights.engines.base import IllegalActionError
from eights.training import OpponentPool, SingleAgentEnv
from eights.training.trainer import TrainSettings, make_env_fns
from tests.conftest import available_variants

VARIANTS = available_variants()


def random_episode(env: SingleAgentEnv, rng: np.random.Generator, seed: int | None = None):
    """Play one episode with random legal actions; yields (obs, mask, reward, done, info)."""
    obs, info = env.reset(seed=seed)
    while True:
        mask = env.action_masks()
        assert mask.any(), "the learner is asked to act with no legal action"
        assert env.observation_space.contains(obs)
        action = int(rng.choice(np.flatnonzero(mask)))
        obs, reward, terminated, truncated, info = env.step(action)
        yield obs, reward, terminated, truncated, info
        if terminated or truncated:
            return


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", [2, 3])
def test_check_env(variant, players):
    check_env(SingleAgentEnv(variant, "random", num_players=players))


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("render_mode", [None, "ansi"])
def test_gymnasium_check_env(variant, render_mode):
    """Gymnasium's checker, determinism under a seed included, with no warning but one.

    The one: without a spec it cannot re-make the env in its other render modes;
    tests/test_registration.py checks the registered ids, which have specs.
    """
    env = SingleAgentEnv(variant, "random@1,heuristic@1", num_players=3, render_mode=render_mode)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        gym_check_env(env)
    messages = [str(w.message) for w in caught]
    assert [m for m in messages if "not having a spec" not in m] == []


@pytest.mark.parametrize("variant", VARIANTS)
def test_masks_are_the_engines_legal_actions_for_the_learner(variant):
    env = SingleAgentEnv(variant, "heuristic")
    rng = np.random.default_rng(0)
    for episode in range(20):
        env.reset(seed=episode)
        while True:
            engine = env.engine
            assert engine.current_player == env.seat
            mask = env.action_masks()
            assert sorted(np.flatnonzero(mask)) == sorted(engine.legal_actions())
            _, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
            if terminated or truncated:
                assert not env.action_masks().any()
                break


@pytest.mark.parametrize("variant", VARIANTS)
def test_reward_is_the_learners_return_at_the_end_only(variant):
    env = SingleAgentEnv(variant, "random@1,heuristic@1", num_players=3)
    rng = np.random.default_rng(1)
    outcomes = set()
    for episode in range(200):  # 30 episodes, and on until the learner has won and lost
        if episode >= 30 and outcomes == {True, False}:
            break
        steps = list(random_episode(env, rng, seed=100 + episode))
        assert all(r == 0.0 for _, r, *_ in steps[:-1])
        _, reward, terminated, truncated, info = steps[-1]
        if truncated:
            assert reward == 0.0
            continue
        assert terminated
        won = env.seat in info["winners"]
        assert reward == (1.0 if won else -1.0)
        assert info["is_success"] == won
        outcomes.add(won)
    assert outcomes == {True, False}


def test_score_rewards_follow_the_config():
    env = SingleAgentEnv("crazy_eights", "random", reward="score")
    rng = np.random.default_rng(2)
    *_, (_, reward, terminated, _, _info) = random_episode(env, rng, seed=3)
    assert terminated
    assert reward == pytest.approx(env.engine.returns()[env.seat])
    assert abs(reward) not in (0.0, 1.0)


def test_the_seat_follows_the_reset_seed_and_can_be_fixed():
    env = SingleAgentEnv("crazy_eights", "random", num_players=3)
    seats = [env.reset(seed=k)[1]["seat"] for k in range(30)]
    assert set(seats) == {0, 1, 2}
    again = SingleAgentEnv("crazy_eights", "random", num_players=3)
    assert [again.reset(seed=k)[1]["seat"] for k in range(30)] == seats
    fixed = SingleAgentEnv("crazy_eights", "random", num_players=3, seat=2)
    assert {fixed.reset(seed=k)[1]["seat"] for k in range(4)} == {2}


@pytest.mark.parametrize("players", [2, 4])
def test_training_envs_rotate_through_every_seat(players):
    """The trainer seeds each env once, then Gymnasium's autoreset calls reset() unseeded."""
    settings = TrainSettings(num_players=players, n_envs=2, opponents="random")
    counts = []
    for make in make_env_fns(settings, settings.opponents):
        env = make()
        seats = [env.reset()[1]["seat"] for _ in range(40 * players)]
        counts.append(np.bincount(seats, minlength=players))
    for count in counts:
        assert count.min() >= 20, count  # every seat, and none starved
    assert not np.array_equal(*counts)  # the two envs' seeds give different sequences


def test_the_learner_only_acts_on_its_turn_and_opponents_play_between():
    env = SingleAgentEnv("crazy_eights", "heuristic", num_players=4)
    rng = np.random.default_rng(4)
    for _obs, _r, terminated, truncated, info in random_episode(env, rng, seed=5):
        if not (terminated or truncated):
            assert env.engine.current_player == info["seat"]
    decided = {e.player for e in env.engine.events if e.kind == "play"}
    assert len(decided) > 1


def test_same_seed_same_episode():
    def trace(seed):
        env = SingleAgentEnv("livery_eights", "random@1,heuristic@1", num_players=3)
        rng = np.random.default_rng(0)
        return [(o.tobytes(), r) for o, r, *_ in random_episode(env, rng, seed=seed)]

    assert trace(11) == trace(11)
    assert trace(11) != trace(12)


def test_opponents_are_drawn_by_weight():
    env = SingleAgentEnv("crazy_eights", OpponentPool.parse("random@3,heuristic@1"),
                     num_players=2)
    names = [env.reset(seed=k)[1]["opponents"][0] for k in range(400)]
    share = names.count("random") / len(names)
    assert 0.65 < share < 0.85


def test_illegal_action_loses_by_default_and_leaves_the_game_alone():
    env = SingleAgentEnv("crazy_eights", "random")
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    before = env.engine.snapshot()
    _obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info["illegal_action"] == engine_class("crazy_eights").actions.texts[illegal]
    assert env.engine.snapshot()[0] == before[0]
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_illegal_action_can_raise():
    env = SingleAgentEnv("crazy_eights", "random", illegal_action="raise")
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    with pytest.raises(IllegalActionError, match="legal"):
        env.step(illegal)


def test_stacked_deck_reset_option():
    cls = engine_class("crazy_eights")
    deck = cls.stacked_deck(["2C 3C 4C 5C 6C 7C 9C", "2D 3D 4D 5D 6D 7D 9D"], "10C",
                            stock="JH QH KH", num_decks=2)
    env = SingleAgentEnv("crazy_eights", "random", seat=0)
    obs, _ = env.reset(seed=0, options={"deck": deck, "first_player": 0})
    view = env.engine.view(0)
    assert sorted(view.hand) == sorted(parse_cards("2C 3C 4C 5C 6C 7C 9C"))
    assert card_text(view.top) == "10C"
    assert obs[env.encoder.offsets["hand"] + parse_cards("9C")[0]] == pytest.approx(0.5)


@pytest.mark.parametrize("bad, message", [
    ({"opponents": "nobody"}, "not known"),
    ({"opponents": "random@x"}, "weight"),
    ({"opponents": "random@0"}, "positive"),
    ({"opponents": "self"}, "first checkpoint"),
    ({"seat": 5}, "seat"),
    ({"illegal_action": "ignore"}, "illegal_action"),
    ({"illegal_reward": "x"}, "illegal_reward"),
    ({"seat": True}, "seat"),
    ({"num_playerz": 3}, "unknown option.*num_players.*opponents"),
    ({"num_players": 9}, "num_players"),
])
def test_bad_arguments_are_named(bad, message):
    kwargs = {"opponents": "random", **bad}
    with pytest.raises(ConfigError, match=message):
        SingleAgentEnv("crazy_eights", **kwargs)


def test_unknown_reset_option_is_refused():
    env = SingleAgentEnv("crazy_eights", "random")
    with pytest.raises(ConfigError, match="deck, first_player"):
        env.reset(seed=0, options={"seat": 1})


def test_step_before_reset():
    with pytest.raises(RuntimeError, match="reset"):
        SingleAgentEnv("crazy_eights", "random").step(0)
