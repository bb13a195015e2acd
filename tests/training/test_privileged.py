"""The privileged features: exactly the hidden cards, only on an explicit training option."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from eights.agents import make_agent
from eights.config import ConfigError
from eights.engines import VARIANTS, engine_class
from eights.training import SingleAgentEnv
from eights.training.privileged import PrivilegedFeatures

TABLES = {"jokers_of_death": 3, "baby_eating_eights": 4}


def players(variant: str) -> int:
    return TABLES.get(variant, 2)


def expected(engine, seat: int) -> np.ndarray:
    """The features written out by hand: each opponent's copies of each card over the
    deck's, then the stock's next card."""
    copies = np.asarray(engine.deck_counts(), dtype=np.float64)
    n, cards = engine.config.num_players, len(copies)
    out = np.zeros(cards * n)
    for k in range(1, n):
        for card in engine.state.hands[(seat + k) % n]:
            out[(k - 1) * cards + card] += 1.0 / copies[card]
    if engine.state.stock:
        out[(n - 1) * cards + engine.state.stock[-1]] = 1.0
    return out


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_features_are_every_opponents_hand_and_the_next_card(variant):
    cls = engine_class(variant)
    config = cls.Config.from_options(num_players=players(variant))
    features = PrivilegedFeatures(variant, config)
    agent = make_agent("random", variant, seed=1)
    checked = 0
    for seed in range(3):
        game = cls(config, seed=seed)
        while not game.game_over:
            seat = game.current_player
            got = features.encode(game, seat)
            assert got.shape == (features.size,) and got.dtype == np.float32
            np.testing.assert_allclose(got, expected(game, seat), rtol=1e-6)
            assert got.min() >= 0.0 and got.max() <= 1.0
            checked += 1
            game.step(agent.act(game.view(seat)))
    assert checked > 30


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_env_appends_them_only_when_asked(variant):
    n = players(variant)
    plain = SingleAgentEnv(variant, "random", num_players=n)
    assert plain.privileged_size == 0
    assert plain.observation_space.shape == (plain.observation_size,)
    env = SingleAgentEnv(variant, "random", num_players=n, privileged=True)
    size = env.observation_size
    assert size == plain.observation_size
    assert env.observation_space.shape == (size + env.privileged_size,)
    obs, _ = env.reset(seed=4)
    seen, _ = plain.reset(seed=4)
    rng = np.random.default_rng(0)
    for _ in range(40):  # the same deals and moves: the leading features are the plain ones
        np.testing.assert_array_equal(obs[:size], seen)
        np.testing.assert_allclose(obs[size:], expected(env.engine, env.seat), rtol=1e-6)
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        obs, _, done, cut, _ = env.step(action)
        seen, *_ = plain.step(action)
        if done or cut:
            seed = int(rng.integers(1000))
            obs, _ = env.reset(seed=seed)
            seen, _ = plain.reset(seed=seed)


def test_the_privileged_env_passes_gymnasiums_checker():
    check_env(SingleAgentEnv("crazy_eights", "random", privileged=True), skip_render_check=True)


@pytest.mark.parametrize("value", [1, "yes", None])
def test_privileged_must_be_a_bool(value):
    with pytest.raises(ConfigError, match="privileged="):
        SingleAgentEnv("crazy_eights", "random", privileged=value)
