"""Every env passes PettingZoo's own tests and keeps the promises of its docstring."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from eights import IllegalActionError
from eights.envs import env_module
from eights.envs.base import EightsEnv
from tests.conftest import MAX_PLAYERS, available_variants, config_id, configs

VARIANTS = available_variants()


#: every swept config (2, 4 and more players, teams, matches) and each variant's largest table
API_CASES = configs() + [(v, {"num_players": MAX_PLAYERS[v]}) for v in VARIANTS]


@pytest.mark.parametrize("case", API_CASES, ids=config_id)
def test_pettingzoo_api_and_seed(case: tuple[str, dict]) -> None:
    variant, config = case
    module = env_module(variant)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(module.env(**config), num_cycles=200)
        seed_test(lambda: module.env(**config), num_cycles=200)


#: what PettingZoo's api_test itself warns about in any env with action masks (Dict spaces)
PETTINGZOO_OWN = ("Observation is not a NumPy array", "Observation space for each agent")


def test_api_test_draws_no_warning_of_ours() -> None:
    # api_test probes reset(options={"options": 1}); the env used to warn it was unused
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env_module("crazy_eights").env(num_players=2), num_cycles=20)
    ours = {str(w.message) for w in caught if not str(w.message).startswith(PETTINGZOO_OWN)}
    assert ours == set()


def test_a_misspelt_reset_option_is_named() -> None:
    env = env_module("crazy_eights").env(num_players=2)
    with pytest.warns(UserWarning, match=r"reset option 'firstplayer' is not used \(did you "
                                         r"mean 'first_player'\?\); the reset options are"):
        env.reset(seed=0, options={"firstplayer": 1})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env.reset(seed=0, options={"render_fps": 4})  # another wrapper's key passes


@pytest.mark.parametrize("variant", VARIANTS)
def test_docstring_documents_the_spaces(variant: str) -> None:
    module = env_module(variant)
    env = module.raw_env(num_players=2)
    assert env.encoder.table() in module.__doc__
    n_actions = env.action_space("player_0").n
    assert f"Discrete({n_actions})" in module.__doc__
    assert env.observation_space("player_0")["observation"].shape == (env.encoder.size,)


@pytest.mark.parametrize("variant", VARIANTS)
def test_illegal_action_raises_and_changes_nothing(variant: str) -> None:
    env = env_module(variant).env(num_players=2)
    env.reset(seed=1)
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.unwrapped.engine.render()
    with pytest.raises(IllegalActionError, match="not legal"):
        env.step(illegal)
    with pytest.raises(IllegalActionError, match="not in the action space"):
        env.step(10_000)
    assert env.unwrapped.engine.render() == before
    obs2, *_ = env.last()
    assert np.array_equal(obs["observation"], obs2["observation"])


@pytest.mark.parametrize("variant", VARIANTS)
def test_calls_before_reset_are_clear_errors(variant: str) -> None:
    env = env_module(variant).env(num_players=2)
    with pytest.raises(RuntimeError, match="before reset"):
        env.step(0)


def test_unknown_render_mode_and_option_are_refused() -> None:
    module = env_module("crazy_eights")
    with pytest.raises(ValueError, match="render_mode"):
        module.env(render_mode="rgb_array")
    from eights import ConfigError
    with pytest.raises(ConfigError, match="unknown option"):
        module.env(num_playerz=3)


def test_only_the_player_to_act_has_a_mask_and_obs_match_views() -> None:
    env = env_module("crazy_eights").env(num_players=3)
    env.reset(seed=5)
    raw: EightsEnv = env.unwrapped
    for agent in env.possible_agents:
        obs = raw.observe(agent)
        seat = raw._seat[agent]
        view = raw.engine.view(seat)
        assert obs["observation"].dtype == np.float32
        assert np.array_equal(obs["observation"], raw.encoder.encode_view(view))
        if agent == env.agent_selection:
            assert set(np.flatnonzero(obs["action_mask"])) == set(raw.engine.legal_actions())
        else:
            assert not obs["action_mask"].any()


def test_stacked_deck_reset_option_and_render() -> None:
    from eights.engines.crazy_eights import CrazyEightsGame
    deck = CrazyEightsGame.stacked_deck(
        hands=[["8S", "KH", "2C", "3C", "4C", "5C", "6C"],
               ["9D", "9H", "2D", "3D", "4D", "5D", "6D"]],
        starter="KC", num_decks=2, first_player=1)
    env = env_module("crazy_eights").env(num_players=2, render_mode="ansi",
                                           may_keep_drawn_card=True, render_seat="referee")
    env.reset(seed=0, options={"deck": deck, "first_player": 1})
    assert env.agent_selection == "player_1"
    text = env.render()
    assert "top KC" in text and "player 0: 2C 3C 4C 5C 6C KH 8S" in text
    # player 1 could not play on KC, so the engine drew for them (a forced move): AC fits
    engine = env.unwrapped.engine
    assert engine.legal_texts() == ["play AC", "pass"]
    env.step(engine.parse_action("pass"))
    assert env.agent_selection == "player_0"


def test_game_end_rewards_and_dead_steps() -> None:
    from eights.engines.crazy_eights import CrazyEightsGame
    deck = CrazyEightsGame.stacked_deck(
        hands=[["KC"], ["2D"]], starter="QC", num_decks=2)
    env = env_module("crazy_eights").env(num_players=2, hand_size=1)
    env.reset(seed=0, options={"deck": deck, "first_player": 0})
    env.step(env.unwrapped.engine.parse_action("play KC"))
    assert env.terminations == {"player_0": True, "player_1": True}
    assert env.rewards == {"player_0": 1.0, "player_1": -1.0}
    _, reward, term, _, info = env.last()
    assert reward == 1.0 and term and info["winners"] == [0]
    for _ in env.agent_iter():
        env.step(None)
    assert env.agents == []


def test_truncation_past_the_turn_limit() -> None:
    env = env_module("crazy_eights").env(num_players=2, max_turns=3)
    env.reset(seed=2)
    for _agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            assert trunc and not term and reward == 0.0
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert env.agents == []
