"""The compiled baby_eating_eights core plays the Python engine's games, decision for decision.

The comparison itself lives in ``scripts/vector_differential.py`` (one copy),
which runs it at full size (``--variant baby_eating_eights``, 10,000 games per
config); here every config runs a CI-sized count (:data:`GAMES`), and the
corners each config is there for are checked to occur. Then a position taken
from the engine (``record_from_engine``) plays on as the engine, and the core's
refusals: ended tables, an observation layout it does not write, a changed engine.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import eights
import eights.vector
from eights.engines import engine_class
from eights.engines.base import IllegalActionError
from eights.vector import CompiledTables, PythonTables, make_tables
from eights.vector import baby_eating_eights as core
from tests.vector.differential_script import differential

VARIANT = "baby_eating_eights"
#: one xdist worker compiles (or loads) this core: the other never waits on the same compile
pytestmark = pytest.mark.xdist_group("core-baby_eating_eights")


CONFIGS = differential.CONFIGS[VARIANT]

#: games compared per config (8 tables each, random legal actions, a quarter of them the
#: heuristic's). Measured CPU cost per game on the loaded 2-core dev machine (numba cache
#: warm), in ms: default 28, 3p 37, 4p 36, 8p_single 69, 6p_expanded 31, 2p_expanded 10,
#: 17p 163, teams_4p 33, teams_9p_3_score 56, the 2-player options 13-37, guarantee_20_3p
#: 23, 2p_20cards 130, hand_size_1 7, max_turns_10 2, max_turns_1 1: about 16 CPU s for
#: these counts (the Python engines take most of it).
GAMES = {
    "default": 60,
    "3p": 30,
    "4p": 25,
    "8p_single": 16,
    "6p_expanded": 16,
    "2p_expanded": 30,
    "17p": 8,
    "teams_4p": 24,
    "teams_9p_3_score": 16,
    "score": 30,
    "guarantee_bj": 30,
    "guarantee_20_3p": 30,
    "guarantee_0": 30,
    "combo_replaces_draw_four": 30,
    "three_spares_king_of_hearts": 30,
    "ten_again_passes": 30,
    "six_nine_apart": 30,
    "two_player_king_literal": 30,
    "2p_20cards": 10,
    "hand_size_1": 100,
    "max_turns_10": 100,
    "max_turns_1": 100,
}

#: the tables' reset seed (the script's default is 0: other games)
SEED = 2024

#: the corners a config is there to reach, counted over its games (each must occur)
CORNERS = {
    "default": ("skips", "reverses", "cancelled", "locked", "fives", "swaps", "agains",
                "jack_rounds", "fours_in_a_row", "redeals", "reshuffles", "combos", "modes",
                "modes_over", "no_draws"),
    "8p_single": ("reshuffles", "fours_in_a_row", "combos", "modes", "passes"),
    "17p": ("reshuffles", "fours_in_a_row", "passes"),
    "guarantee_20_3p": ("combos", "modes", "no_draws"),
    "ten_again_passes": ("agains", "passes"),
    "2p_20cards": ("combos", "modes", "modes_over", "fours_in_a_row", "locked"),
    "max_turns_10": ("truncated",),
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
    for corner in CORNERS.get(name, ()):
        assert result.counts[corner] > 0, (corner, dict(result.counts))


def test_the_script_takes_the_variant_and_exits_0(capsys):
    assert differential.main(["--variant", VARIANT, "--games", "3", "--configs", "default",
                              "max_turns_1", "--every", "2"]) == 0
    out = capsys.readouterr().out
    assert "baby_eating_eights default {}: 3 games" in out
    assert "all identical: 6 games" in out and "2 baby_eating_eights configs" in out


def test_the_script_names_a_baby_feature_that_differs(monkeypatch, capsys):
    known = PythonTables(VARIANT, 1, num_players=3).encoder.offsets["known"]

    class Broken(CompiledTables):
        def observe(self, tables, seats, obs, masks):
            super().observe(tables, seats, obs, masks)
            obs[-1, known] += 0.5  # the last row's first known card of the next seat

    monkeypatch.setattr(differential, "CompiledTables", Broken)
    assert differential.main(["--variant", VARIANT, "--games", "2", "--configs", "3p"]) == 1
    out = capsys.readouterr().out
    assert "MISMATCH in 3p" in out and "observation at known[0]" in out
    assert "engine_class('baby_eating_eights')" in out and "then the actions [" in out


# ------------------------------------------------------------------ a position from the engine
@pytest.mark.parametrize("options", [{}, {"num_players": 4, "teams": 2},
                                     {"num_players": 7, "guarantee_cards_per_player": 20}])
def test_a_position_from_the_engine_plays_on_as_the_engine(options):
    """``record_from_engine`` writes a mid-game position (hands in their order, the agenda,
    the flags, every seat's memory) that the core continues exactly as the engine does:
    the same seat to act, legal actions, observations and returns, move after move, until
    a draw of chance (the record has its own generator)."""
    tables = CompiledTables(VARIANT, 1, **options)
    engine = engine_class(VARIANT)
    records = np.zeros(1, tables.state.dtype)
    legal = np.zeros(tables.num_actions, np.int64)
    buf = np.zeros(tables.num_actions, np.int64)
    obs = np.zeros(tables.observation_size, np.float32)
    returns = np.zeros(tables.num_players, np.float32)
    encoder = engine.encoder(tables.config, None)
    rng = random.Random(5)
    compared, frames = 0, set()
    for k in range(30):
        game = eights.make_game(VARIANT, seed=700 + k, **options)
        for _ in range(rng.randrange(1, 60)):  # to a random point of the game
            if game.game_over:
                break
            game.step(rng.choice(game.legal_actions()))
        if game.game_over:
            continue
        core.record_from_engine(game, records, 7)
        for _ in range(40):
            frames.add(game.state.agenda[-1].kind if game.state.agenda else "")
            assert records["current"][0] == game.current_player
            assert records["terminated"][0] == game.terminated
            count = core.legal_actions(records[0], tables.params, legal)
            if game.game_over:
                assert not records["legal"][0].any()
            else:
                assert tuple(legal[:count]) == game.legal_actions()
                assert tuple(np.flatnonzero(records["legal"][0])) == game.legal_actions()
            for seat in range(tables.num_players):
                core.observe(records[0], tables.params, tables.offsets, tables.scales, seat,
                             obs)
                assert np.array_equal(obs, encoder.encode(game, seat)), seat
            core.returns(records[0], tables.params, returns)
            assert np.array_equal(returns, np.float32(game.returns()))
            if game.game_over:
                break
            action = rng.choice(game.legal_actions())
            rolls = game.rng.getstate()
            game.step(action)
            core.step(records[0], tables.params, tables.rules, action, buf)
            compared += 1
            if game.rng.getstate() != rolls:  # a draw of chance: the record draws its own
                break
    assert compared > 120 and len(frames) >= 3, (compared, frames)


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
    for action in (core.DRAW, core.PASS, core.TARGET0, 0):
        with pytest.raises(IllegalActionError, match="its game is over; deal its next game"):
            tables.step(np.array([0]), np.array([action]))
    assert tables.state.tobytes() == before.tobytes()


def test_the_core_refuses_an_observation_layout_it_does_not_write():
    engine = engine_class(VARIANT)
    config = engine.Config.from_options()
    with pytest.raises(ValueError, match="v2 layout"):
        core.compile_config(engine, config, engine.encoder(config, 1))


def test_the_core_refuses_an_engine_whose_card_tables_changed(monkeypatch):
    from eights.engines import baby_eating_eights as rules

    engine = engine_class(VARIANT)
    config = engine.Config.from_options()
    exempt = list(rules.EXEMPT)
    exempt[core.ACE_OF_SPADES] = True  # a rule change the core does not know
    monkeypatch.setattr(rules, "EXEMPT", tuple(exempt))
    with pytest.raises(ValueError, match="card tables changed"):
        core.compile_config(engine, config, engine.encoder(config, None))


def test_auto_takes_the_compiled_core_for_every_observation_version():
    assert isinstance(make_tables(VARIANT, 2), CompiledTables)
    assert isinstance(make_tables(VARIANT, 2, version=1), CompiledTables)
    assert isinstance(make_tables(VARIANT, 2, "python", version=1), PythonTables)


def test_the_env_plays_baby_eating_eights_on_the_compiled_core():
    env = eights.vector.make(VARIANT, 8, "heuristic", seed=3)
    assert isinstance(env.tables, CompiledTables)
    env.reset()
    rng = np.random.default_rng(0)
    for _ in range(60):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in env.masks])
        _, rewards, terminated, _, _ = env.step(actions)
        assert set(np.unique(rewards)) <= {-1.0, 0.0, 1.0}
        assert not rewards[~terminated].any()
    assert env.episodes > 0


def test_the_compiled_search_plays_positions_the_python_determinizer_dealt():
    """The search's compiled deal keeps the 52-card pile games' record; this core keeps
    another (ordered hands, jokers), so ``core=compiled`` plays whole positions the Python
    determinizer dealt (``DEALS_COMPILED = False``) and acts legally from them."""
    from eights.agents import make_agent
    from eights.vector import search

    assert VARIANT in search.searched_variants() and not search.deals_compiled(core)
    agent = make_agent("ismcts:sims=30,core=compiled,belief=voids", VARIANT, seed=1)
    game = eights.make_game(VARIANT, num_players=4, seed=3)
    while not game.game_over:
        view = game.view(game.current_player)
        action = agent.act(view) if view.seat == 0 else view.legal_actions[0]
        assert action in view.legal_actions
        game.step(action)
