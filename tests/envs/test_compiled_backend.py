"""``backend="compiled"``: the AEC env's game on one table of the compiled core
(:mod:`eights.envs.tables`), the same games as the Python engine, game for game."""

from __future__ import annotations

import pickle
import random
import warnings
from importlib import import_module

import numpy as np
import pytest
from pettingzoo.test import api_test

from eights import IllegalActionError
from eights.config import ConfigError
from eights.envs import env_module
from eights.envs.tables import CompiledTable, EngineTable
from eights.vector.cores import COMPILED

#: each variant at two tables, the second with options that reach more of its rules
CASES = [
    ("crazy_eights", {"num_players": 2}), ("crazy_eights", {"num_players": 4, "match": True}),
    ("livery_eights", {"num_players": 2}), ("livery_eights", {"num_players": 3,
                                                              "reward": "score"}),
    ("jokers_of_death", {"num_players": 3}),
    ("jokers_of_death", {"num_players": 3, "hand_switching": True, "free_discard_pile": True}),
    ("baby_eating_eights", {"num_players": 4}), ("baby_eating_eights", {"num_players": 4,
                                                                        "teams": 2}),
    ("crazier_eights", {"num_players": 2}), ("crazier_eights", {"num_players": 3,
                                                                "max_turns": 40}),
]


def _case(variant: str, options: dict):
    return pytest.param(variant, options, marks=pytest.mark.xdist_group(f"core-{variant}"),
                        id=f"{variant}-{'-'.join(f'{k}={v}' for k, v in options.items())}")


def _played(env, seeds, pick=None) -> list[tuple]:
    """Every agent_iter step of the games of ``seeds``: what last() gives, then the action
    (random legal ones from a seeded generator, or ``pick(env, mask)``)."""
    rng = random.Random(0)
    out = []
    for seed in seeds:
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            out.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(),
                        reward, term, trunc, repr(info)))
            if term or trunc:
                env.step(None)
            else:
                env.step(int(rng.choice(list(np.flatnonzero(obs["action_mask"])))))
    return out


@pytest.mark.parametrize("variant,options", [_case(v, o) for v, o in CASES])
def test_the_compiled_table_plays_the_engines_games(variant, options):
    """Same seeds, same actions: every observation, mask, reward, end flag and info."""
    module = env_module(variant)
    python = module.env(**options)
    compiled = module.env(**options, backend="compiled")
    assert isinstance(compiled.unwrapped._table, CompiledTable)
    assert isinstance(python.unwrapped._table, EngineTable)
    assert _played(compiled, range(6)) == _played(python, range(6))


@pytest.mark.parametrize("variant", [pytest.param(v, marks=pytest.mark.xdist_group(f"core-{v}"))
                                     for v in sorted(COMPILED)])
def test_an_older_observation_version_plays_the_engines_games(variant):
    """A ``_v1`` env on the compiled table: the core writes the newest observation and the
    table keeps the v1 columns, feature for feature the v1 encoder's."""
    module = import_module(f"eights.envs.{variant}_v1")
    python, compiled = module.env(), module.env(backend="compiled")
    size = python.observation_space(python.possible_agents[0])["observation"].shape
    assert compiled.observation_space(compiled.possible_agents[0])["observation"].shape == size
    assert _played(compiled, range(4)) == _played(python, range(4))


@pytest.mark.parametrize("variant", [pytest.param(v, marks=pytest.mark.xdist_group(f"core-{v}"))
                                     for v in sorted(COMPILED)])
def test_pettingzoo_api_test(variant):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env_module(variant).env(backend="compiled"), num_cycles=100)


@pytest.mark.xdist_group("core-crazier_eights")
def test_the_engine_is_replayed_to_the_tables_position_for_render():
    """render() (and env.engine) read the Python engine replayed to the table's position:
    the same text as the Python backend's at every step."""
    module = env_module("crazier_eights")
    envs = [module.env(render_mode="ansi", render_seat="referee", backend=b)
            for b in ("python", "compiled")]
    rng = random.Random(4)
    for env in envs:
        env.reset(seed=9)
    for _ in range(60):
        assert envs[1].render() == envs[0].render()
        obs, _, term, trunc, _ = envs[0].last()
        if term or trunc:
            break
        action = int(rng.choice(list(np.flatnonzero(obs["action_mask"]))))
        for env in envs:
            env.step(action)
    engine = envs[1].unwrapped.engine
    assert engine.current_player == envs[0].unwrapped.engine.current_player
    assert engine.legal_actions() == envs[0].unwrapped.engine.legal_actions()


@pytest.mark.xdist_group("core-jokers_of_death")
def test_an_illegal_action_is_refused_with_the_engines_message_and_changes_nothing():
    module = env_module("jokers_of_death")
    envs = [module.env(num_players=3, backend=b) for b in ("python", "compiled")]
    messages = []
    for env in envs:
        env.reset(seed=2)
        obs, *_ = env.last()
        illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
        with pytest.raises(IllegalActionError) as caught:
            env.step(illegal)
        messages.append(str(caught.value))
        with pytest.raises(IllegalActionError, match="not in the action space"):
            env.step(10_000)
        after, *_ = env.last()
        assert np.array_equal(obs["observation"], after["observation"])
    assert messages[0] == messages[1] and "not legal" in messages[1]


@pytest.mark.xdist_group("core-crazy_eights")
def test_terminate_on_an_illegal_action_ends_the_game_as_the_python_env_does():
    module = env_module("crazy_eights")
    results = []
    for backend in ("python", "compiled"):
        env = module.env(illegal_action="terminate", backend=backend)
        env.reset(seed=3)
        obs, *_ = env.last()
        env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
        results.append([(a, env.rewards[a], env.terminations[a], env.infos[a],
                         env.observe(a)["action_mask"].any()) for a in env.agents])
    assert results[0] == results[1]
    assert not any(masked for *_, masked in results[1])


@pytest.mark.xdist_group("core-baby_eating_eights")
def test_a_pickled_env_goes_on_with_the_same_game():
    module = env_module("baby_eating_eights")
    env = module.env(num_players=4, backend="compiled")
    env.reset(seed=5)
    rng = random.Random(1)
    for _ in range(15):
        obs, *_ = env.last()
        env.step(int(rng.choice(list(np.flatnonzero(obs["action_mask"])))))
    copy = pickle.loads(pickle.dumps(env))
    assert copy.unwrapped.backend == "compiled"
    assert np.array_equal(env.last()[0]["observation"], copy.last()[0]["observation"])
    action = int(np.flatnonzero(env.last()[0]["action_mask"])[0])
    env.step(action)
    copy.step(action)
    assert np.array_equal(env.last()[0]["observation"], copy.last()[0]["observation"])
    assert env.unwrapped.engine.render() == copy.unwrapped.engine.render()


def test_an_unknown_backend_is_refused_naming_the_backends():
    with pytest.raises(ConfigError, match="backend='numba' is not allowed; use one of "
                                          "'python', 'compiled'"):
        env_module("crazy_eights").env(backend="numba")


@pytest.mark.xdist_group("core-crazy_eights")
def test_a_stacked_deck_is_refused_by_the_compiled_table():
    """A stacked deck (the core deals from seeds)."""
    env = env_module("crazy_eights").env(backend="compiled")
    with pytest.raises(ConfigError, match="deals from seeds only; a stacked deck or a "
                                          "first_player needs backend='python'"):
        env.reset(seed=1, options={"first_player": 1})
