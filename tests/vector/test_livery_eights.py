"""The compiled livery_eights core plays the Python engine's games, decision for decision.

The comparison itself lives in ``scripts/vector_differential.py`` (one copy),
which runs it at full size (``--variant livery_eights``, 10,000 games per
config); here every config runs a CI-sized count (:data:`GAMES`), and the
corners each config is there for are checked to occur. Then the core's
refusals: illegal actions, ended tables, an observation layout it does not write.
"""

from __future__ import annotations

import numpy as np
import pytest

import eights.vector
from eights.engines import engine_class
from eights.engines.base import IllegalActionError
from eights.vector import CompiledTables, PythonTables, make_tables
from eights.vector import livery_eights as core
from tests.vector.differential_script import differential

VARIANT = "livery_eights"
#: one xdist worker compiles (or loads) this core: the other never waits on the same compile
pytestmark = pytest.mark.xdist_group("core-livery_eights")


CONFIGS = differential.CONFIGS[VARIANT]

#: games compared per config (8 tables each, random legal actions, a quarter of them the
#: heuristic's). Measured CPU cost per game on the 2-core dev machine (numba cache warm):
#: default 3 ms, 3p 4, 5p 7, 8p 11, match 12 (5 hands), match_score_3p 10, reshuffle_4p 9,
#: reshuffle_empty_stock 3, loose_twos 3, penalty_0 3, penalty_4_3p 4, 2decks_4p_score 9,
#: 8p_6cards 11, 2p_20cards 5, 4decks_8p_20cards_reshuffle 64, max_turns_10 1,
#: hand_size_1 1.5, max_turns_1 0.1: about 22 CPU s for these counts.
GAMES = {
    "default": 600,
    "3p": 300,
    "5p": 200,
    "8p": 150,
    "match": 120,
    "match_score_3p": 120,
    "reshuffle_4p_10cards": 200,
    "reshuffle_empty_stock": 400,
    "loose_twos": 400,
    "penalty_0": 400,
    "penalty_4_3p": 300,
    "2decks_4p_score": 150,
    "8p_6cards": 150,
    "2p_20cards": 200,
    "4decks_8p_20cards_reshuffle": 40,
    "max_turns_10": 300,
    "match_max_turns_12": 200,
    "hand_size_1": 300,
    "max_turns_1": 300,
}

#: the tables' reset seed (the script's default is 0: other games)
SEED = 2024

#: the corners a config is there to reach, counted over its games (each must occur)
CORNERS = {
    "default": ("calls", "silent", "challenges", "no_challenges", "pick_ups", "skips",
                "reverses", "starter_8s", "missed_turns", "blocked_hands"),
    "8p": ("missed_turns",),
    "8p_6cards": ("missed_turns", "blocked_hands"),
    "2p_20cards": ("blocked_hands",),
    "reshuffle_4p_10cards": ("reshuffles",),
    "reshuffle_empty_stock": ("reshuffles",),
    "4decks_8p_20cards_reshuffle": ("reshuffles",),
    "max_turns_10": ("truncated",),
    "match_max_turns_12": ("truncated", "cut_in_a_later_hand"),
    "hand_size_1": ("no_decision",),
    "max_turns_1": ("no_decision", "truncated", "terminated"),
}


def test_every_config_has_a_game_count():
    assert set(GAMES) == set(CONFIGS)


@pytest.mark.parametrize("name", list(CONFIGS))
def test_compiled_tables_play_the_python_engines_games(name):
    result = differential.compare(CONFIGS[name], GAMES[name], variant=VARIANT, seed=SEED)
    assert result.games == GAMES[name]
    assert (result.decisions > 0 and result.heuristic > 0) or name == "max_turns_1"
    assert result.counts["terminated"] + result.counts["truncated"] == result.games
    if CONFIGS[name].get("match"):
        assert result.counts["hands"] > result.games  # matches of several hands
    for corner in CORNERS.get(name, ()):
        assert result.counts[corner] > 0, (corner, dict(result.counts))


def test_the_script_takes_the_variant_and_exits_0(capsys):
    assert differential.main(["--variant", VARIANT, "--games", "3", "--configs", "default",
                              "max_turns_1", "--every", "2"]) == 0
    out = capsys.readouterr().out
    assert "livery_eights default {}: 3 games" in out
    assert "all identical: 6 games" in out and "2 livery_eights configs" in out


def test_the_script_refuses_a_config_of_another_variant(capsys):
    with pytest.raises(SystemExit):
        differential.main(["--variant", VARIANT, "--configs", "keep_king4_3decks"])
    assert "livery_eights has no config keep_king4_3decks" in capsys.readouterr().err


def test_the_script_names_a_livery_feature_that_differs(monkeypatch, capsys):
    pending = PythonTables(VARIANT, 1).encoder.offsets["pending"]

    class Broken(CompiledTables):
        def observe(self, tables, seats, obs, masks):
            super().observe(tables, seats, obs, masks)
            obs[-1, pending] += 0.5  # the last row's pending pick-up

    monkeypatch.setattr(differential, "CompiledTables", Broken)
    assert differential.main(["--variant", VARIANT, "--games", "2", "--configs", "3p"]) == 1
    out = capsys.readouterr().out
    assert "MISMATCH in 3p" in out and "observation at pending[0]" in out
    assert "engine_class('livery_eights')" in out and "then the actions [" in out


# ------------------------------------------------------------------ refusals
# (an illegal action, one out of range, a batch with one illegal action: every compiled core
# alike, in tests/vector/test_tables.py)
def test_an_ended_table_refuses_every_action():
    tables = make_tables(VARIANT, 1, "compiled", hand_size=1, max_turns=1)
    for seed in range(100):  # a deal over before its first decision
        tables.reset(seed)
        if tables.current[0] < 0:
            break
    assert tables.current[0] < 0
    before = tables.state.copy()
    for action in (core.DRAW, core.CALL, core.CHALLENGE_ACTION):
        with pytest.raises(IllegalActionError, match="its game is over; deal its next game"):
            tables.step(np.array([0]), np.array([action]))
    assert tables.state.tobytes() == before.tobytes()


def test_the_core_refuses_an_observation_layout_it_does_not_write():
    engine = engine_class(VARIANT)
    config = engine.Config.from_options()
    with pytest.raises(ValueError, match="v2 layout"):
        core.compile_config(engine, config, engine.encoder(config, 1))


def test_auto_takes_the_compiled_core_for_every_observation_version():
    assert isinstance(make_tables(VARIANT, 2), CompiledTables)
    assert isinstance(make_tables(VARIANT, 2, version=1), CompiledTables)
    assert isinstance(make_tables(VARIANT, 2, "python", version=1), PythonTables)


def test_the_env_plays_livery_on_the_compiled_core():
    env = eights.vector.make(VARIANT, 8, "heuristic", seed=3)
    assert isinstance(env.tables, CompiledTables)
    env.reset()
    rng = np.random.default_rng(0)
    for _ in range(40):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in env.masks])
        _, rewards, terminated, _, _ = env.step(actions)
        assert set(np.unique(rewards)) <= {-1.0, 0.0, 1.0}
        assert not rewards[~terminated].any()
    assert env.episodes > 0
