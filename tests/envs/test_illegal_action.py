"""The ``illegal_action`` env option: "raise" by default, "terminate" ends the game."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test

from eights import ConfigError, IllegalActionError
from eights.envs import env_module, make_env
from tests.conftest import available_variants

VARIANTS = available_variants()


def first_illegal(env) -> int:
    obs, *_ = env.last()
    return int(np.flatnonzero(obs["action_mask"] == 0)[0])


@pytest.mark.parametrize("maker", ["env", "raw_env"])
@pytest.mark.parametrize("variant", VARIANTS)
def test_terminate_ends_the_game_with_the_illegal_reward(variant: str, maker: str) -> None:
    env = getattr(env_module(variant), maker)(num_players=3, illegal_action="terminate",
                                              illegal_reward=-2.5)
    env.reset(seed=4)
    offender = env.agent_selection
    action = first_illegal(env)
    before = env.unwrapped.engine.render()
    env.step(action)
    text = env.unwrapped.engine.action_text(action)
    assert env.unwrapped.engine.render() == before  # the game itself is not changed
    assert env.terminations == dict.fromkeys(env.possible_agents, True)
    assert env.truncations == dict.fromkeys(env.possible_agents, False)
    assert env.rewards == {a: (-2.5 if a == offender else 0.0) for a in env.possible_agents}
    assert all(info == {"illegal_action": text, "illegal_agent": offender}
               for info in env.infos.values())
    assert env.agent_selection == offender
    obs, reward, terminated, truncated, info = env.last()
    assert (reward, terminated, truncated) == (-2.5, True, False)
    assert info["illegal_action"] == text
    returns = {}
    for agent in env.agent_iter():
        obs, reward, *_ = env.last()
        assert not obs["action_mask"].any()  # nothing is legal once the game has ended
        returns[agent] = reward
        env.step(None)
    assert env.agents == []
    assert returns == {a: (-2.5 if a == offender else 0.0) for a in env.possible_agents}


@pytest.mark.parametrize("variant", VARIANTS)
def test_raise_is_the_default_and_names_the_legal_actions(variant: str) -> None:
    env = make_env(variant, num_players=2)
    assert env.illegal_action == "raise"
    env.reset(seed=1)
    with pytest.raises(IllegalActionError, match="legal"):
        env.step(first_illegal(env))
    assert not any(env.terminations.values())


@pytest.mark.parametrize("variant", VARIANTS)
def test_terminate_passes_the_api_test(variant: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(make_env(variant, num_players=3, illegal_action="terminate"), num_cycles=200)


@pytest.mark.parametrize("variant", VARIANTS)
def test_unmasked_random_play_always_ends_cleanly(variant: str) -> None:
    """What RLlib's env check does: sample the whole action space, ignore the mask."""
    env = make_env(variant, num_players=2, illegal_action="terminate")
    rng = np.random.default_rng(0)
    space = env.action_space("player_0")
    ended_by_illegal = 0
    for game in range(20):
        env.reset(seed=game)
        for agent in env.agent_iter(max_iter=10_000):
            _obs, _reward, terminated, truncated, info = env.last()
            ended_by_illegal += "illegal_action" in info and agent == info["illegal_agent"]
            env.step(None if terminated or truncated else int(rng.integers(space.n)))
        assert env.agents == []
    assert ended_by_illegal > 0


def test_terminate_still_raises_for_actions_outside_the_space() -> None:
    env = make_env("crazy_eights", illegal_action="terminate")
    env.reset(seed=0)
    outside = {10_000: "not in the action space", -1: "not in the action space"}
    for action, message in outside.items():
        with pytest.raises(IllegalActionError, match=message):
            env.step(action)
    # what is not an action id at all is a TypeError, in either mode
    for action in ("shout", "draw", 3.0, True, None):
        with pytest.raises(TypeError, match="is not an action id"):
            env.step(action)
    assert not any(env.terminations.values())


def test_terminate_takes_numpy_actions_but_not_text() -> None:
    env = make_env("crazy_eights", illegal_action="terminate")
    env.reset(seed=0)
    action = np.int64(first_illegal(env))
    text = env.unwrapped.engine.action_text(int(action))
    env.step(action)
    assert env.infos[env.agent_selection]["illegal_action"] == text
    env.reset(seed=0)
    with pytest.raises(TypeError, match=r"\(str\) is not an action id.*parse_action"):
        env.step(text)
    assert not any(env.terminations.values())
    env.step(env.unwrapped.engine.parse_action(text))
    assert all(env.terminations.values())


@pytest.mark.parametrize("bad, message", [
    ({"illegal_action": "ignore"}, "illegal_action='ignore' is not allowed.*'raise', 'terminate'"),
    ({"illegal_action": None}, "illegal_action=None"),
    ({"illegal_reward": "-1"}, "illegal_reward='-1' is not allowed"),
    ({"illegal_reward": float("nan")}, "finite number"),
    ({"illegal_reward": True}, "illegal_reward=True"),
    ({"illegal_actions": "terminate"}, "unknown option.*illegal_actions.*env options are "
                                       "render_mode, render_seat, illegal_action, "
                                       "illegal_reward"),
])
def test_bad_env_options_are_named(bad: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        make_env("crazy_eights", **bad)


def test_env_options_stay_out_of_the_game_config() -> None:
    env = make_env("livery_eights", num_players=4, illegal_action="terminate", illegal_reward=-3)
    assert env.config.num_players == 4
    assert not {"illegal_action", "illegal_reward"} & set(env.config.to_dict())
    assert (env.illegal_action, env.illegal_reward) == ("terminate", -3.0)


def test_make_env_is_the_variant_modules_env() -> None:
    env = make_env("baby_eating_eights", num_players=4, render_mode="ansi")
    assert type(env) is env_module("baby_eating_eights").raw_env
    assert env.metadata["name"] == "baby_eating_eights_v2"
    assert env.render_mode == "ansi" and len(env.possible_agents) == 4
    with pytest.raises(ConfigError, match="variant 'uno' is not known; the variants are "
                                          "crazy_eights, livery_eights, baby_eating_eights"):
        make_env("uno")
