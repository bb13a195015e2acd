"""Gymnasium ids: registered on ``import eights``, cheaply, and made envs pass check_env."""

from __future__ import annotations

import subprocess
import sys
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import eights
from eights import ConfigError
from eights.engines import VARIANTS
from eights.registration import GYM_IDS, gym_id, register_envs
from eights.training import SingleAgentEnv
from tests.conftest import available_variants

EXPECTED = {
    "crazy_eights": "eights/CrazyEights-v2",
    "livery_eights": "eights/LiveryEights-v2",
    "baby_eating_eights": "eights/BabyEatingEights-v2",
}


def test_every_variant_has_an_id_in_the_eights_namespace() -> None:
    assert set(GYM_IDS) == set(VARIANTS)
    for variant, env_id in EXPECTED.items():
        assert GYM_IDS[variant] == gym_id(variant) == env_id
        assert env_id in gymnasium.registry
    assert eights.GYM_IDS is GYM_IDS


def test_an_older_versions_id_gives_its_observation() -> None:
    """``-v1`` stays registered and gives the v1 layout (the shipped models'); ``-v2`` the
    public history after it."""
    old = gymnasium.make("eights/CrazyEights-v1", opponents="random").unwrapped
    new = gymnasium.make("eights/CrazyEights-v2", opponents="random").unwrapped
    assert (old.version, old.observation_space.shape) == (1, (239,))
    assert (new.version, new.observation_space.shape) == (2, (348,))


@pytest.mark.parametrize("variant", available_variants())
def test_make_passes_keywords_and_check_env(variant: str) -> None:
    env = gymnasium.make(GYM_IDS[variant], opponents="heuristic", num_players=3)
    raw = env.unwrapped
    assert isinstance(raw, SingleAgentEnv)
    assert (raw.variant, raw.config.num_players, str(raw.pool)) == (variant, 3, "heuristic@1")
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    # wrappers no longer forward attributes; sb3-contrib reaches the mask this way
    mask = env.get_wrapper_attr("action_masks")()
    assert mask.any() and info["seat"] in range(3)
    _, _, terminated, truncated, _ = env.step(int(np.flatnonzero(mask)[0]))
    assert isinstance(terminated, bool) and isinstance(truncated, bool)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(raw)  # with a spec, so every render mode is made and rendered too
    assert [str(w.message) for w in caught] == []


@pytest.mark.parametrize("env_id", sorted(GYM_IDS.values()))
def test_make_vec_env_builds_every_id(env_id: str) -> None:
    # SB3's standard way: it asks for render_mode="rgb_array" and falls back only on TypeError
    env_util = pytest.importorskip("stable_baselines3.common.env_util")
    vec = env_util.make_vec_env(env_id, n_envs=2, seed=0, env_kwargs={"opponents": "random"})
    try:
        vec.reset()
        frames = vec.get_images()
    finally:
        vec.close()
    assert len(frames) == 2
    assert all(f.dtype == np.uint8 and f.ndim == 3 and f.shape[2] == 3 for f in frames)


def test_make_with_the_module_prefix_and_render_mode() -> None:
    env = gymnasium.make("eights:eights/LiveryEights-v1", render_mode="ansi")
    env.reset(seed=3)
    assert "player" in env.render()


def test_unknown_ids_and_options_are_named() -> None:
    with pytest.raises(gymnasium.error.Error, match="UnoEights"):
        gymnasium.make("eights/UnoEights-v0")
    with pytest.raises(ConfigError, match=r"unknown option.*num_playerz.*the game options are "
                                          r"num_players.*the wrapper options are .*opponents"):
        gymnasium.make("eights/CrazyEights-v1", num_playerz=3)
    with pytest.raises(ConfigError, match="'nobody' is not known"):
        gymnasium.make("eights/CrazyEights-v1", opponents="nobody")


def test_registering_again_changes_nothing_and_warns_nothing() -> None:
    before = {env_id: gymnasium.registry[env_id] for env_id in GYM_IDS.values()}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        register_envs()
    assert {env_id: gymnasium.registry[env_id] for env_id in GYM_IDS.values()} == before


def test_importing_eights_registers_without_heavy_imports() -> None:
    code = ("import sys, eights, gymnasium\n"
            "assert 'eights/CrazyEights-v1' in gymnasium.registry\n"
            "heavy = ['torch', 'stable_baselines3', 'sb3_contrib', 'ray', 'pettingzoo', "
            "'eights.training']\n"
            "print([m for m in heavy if m in sys.modules])\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"
