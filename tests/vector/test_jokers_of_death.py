"""The compiled jokers_of_death core plays the Python engine's games, decision for decision.

The comparison itself lives in ``scripts/vector_differential.py`` (one copy),
which runs it at full size (``--variant jokers_of_death``); here every config
runs a CI-sized count (:data:`GAMES`), and the corners each config is there for
are checked to occur. Then a position taken from a Python engine mid-game
(``record_from_engine``) plays on as the engine does, and the core's refusals:
ended tables, an observation layout it does not write.
"""

from __future__ import annotations

import numpy as np
import pytest

import eights.vector
from eights.engines import engine_class
from eights.engines.base import IllegalActionError
from eights.vector import CompiledTables, PythonTables, make_tables
from eights.vector import jokers_of_death as core
from tests.vector.differential_script import differential
from tests.vector.engine_positions import play_on_from_engine, play_on_from_engine_positions

VARIANT = "jokers_of_death"
#: one xdist worker compiles (or loads) this core: the other never waits on the same compile
pytestmark = pytest.mark.xdist_group("core-jokers_of_death")


CONFIGS = differential.CONFIGS[VARIANT]

#: games compared per config (8 tables each, random legal actions, a quarter of them the
#: heuristic's). Measured CPU cost per game on the loaded 2-core dev machine (numba cache
#: warm): default 28 ms, 2p 23, 4p 23, 5p_20cards 28, 12p_8decks_34cards 360,
#: 3decks_6p_10cards 80, match 50, match_score_2p_10cards 30, score 28, auto_knock_4cards 23,
#: hand_switching 40, hand_switching_2p_8cards 23, five_pile 68, aces 30, aces_5p 48,
#: free_discard_pile 148, free_discard_pile_2p_6cards 55, everything_five_pile_match 178,
#: hand_size_1 10, max_turns_20 5, max_turns_1 1: about 11 CPU s for these counts (the
#: matches need enough games for one of several hands).
GAMES = {
    "default": 30,
    "2p": 20,
    "4p": 15,
    "5p_20cards": 15,
    "12p_8decks_34cards": 2,
    "3decks_6p_10cards": 6,
    "match": 8,
    "match_score_2p_10cards": 25,
    "score": 8,
    "auto_knock_4cards": 15,
    "hand_switching": 12,
    "hand_switching_2p_8cards": 15,
    "five_pile": 8,
    "aces": 10,
    "aces_5p": 25,
    "free_discard_pile": 5,
    "free_discard_pile_2p_6cards": 10,
    "everything_five_pile_match": 8,
    "hand_size_1": 20,
    "max_turns_20": 15,
    "match_max_turns_25": 150,
    "max_turns_1": 40,
}

#: the tables' reset seed (the script's default is 0: other games)
SEED = 2024

#: the corners a config is there to reach, counted over its games (each must occur)
CORNERS = {
    "default": ("answers_taken", "kills", "passes", "knocks", "no_knocks", "stops",
                "reverses", "keeps", "skips", "suits", "outs", "blocked_hands"),
    "5p_20cards": ("passes", "blocked_hands"),
    "auto_knock_4cards": ("knocks", "outs"),
    "hand_switching": ("switches",),
    "hand_switching_2p_8cards": ("switches",),
    "five_pile": ("kills",),
    "aces_5p": ("recycles",),
    "free_discard_pile": ("pick_ups", "pile_penalties"),
    "free_discard_pile_2p_6cards": ("pick_ups", "pile_penalties"),
    "everything_five_pile_match": ("switches", "pick_ups"),
    "max_turns_20": ("truncated",),
    "match_max_turns_25": ("truncated", "cut_in_a_later_hand"),
    "max_turns_1": ("no_decision", "truncated", "terminated"),
}


def test_every_config_has_a_game_count():
    assert set(GAMES) == set(CONFIGS)


@pytest.mark.parametrize("name", list(CONFIGS))
def test_compiled_tables_play_the_python_engines_games(name):
    result = differential.compare(CONFIGS[name], GAMES[name], variant=VARIANT, seed=SEED)
    assert result.games == GAMES[name]
    assert result.decisions > 0 and (result.heuristic > 0 or name == "max_turns_1")
    assert result.counts["terminated"] + result.counts["truncated"] == result.games
    if CONFIGS[name].get("match"):
        assert result.counts["hands"] > result.games  # matches of several hands
    for corner in CORNERS.get(name, ()):
        assert result.counts[corner] > 0, (corner, dict(result.counts))


def test_the_script_takes_the_variant_and_exits_0(capsys):
    assert differential.main(["--variant", VARIANT, "--games", "3", "--configs", "2p",
                              "max_turns_1", "--every", "2"]) == 0
    out = capsys.readouterr().out
    assert "jokers_of_death 2p {'num_players': 2}: 3 games" in out
    assert "all identical: 6 games" in out and "2 jokers_of_death configs" in out


def test_the_script_names_a_jokers_feature_that_differs(monkeypatch, capsys):
    to_play = PythonTables(VARIANT, 1, num_players=2).encoder.offsets["to_play"]

    class Broken(CompiledTables):
        def observe(self, tables, seats, obs, masks):
            super().observe(tables, seats, obs, masks)
            obs[-1, to_play] += 0.5  # the last row's first pile still to play

    monkeypatch.setattr(differential, "CompiledTables", Broken)
    assert differential.main(["--variant", VARIANT, "--games", "2", "--configs", "2p"]) == 1
    out = capsys.readouterr().out
    assert "MISMATCH in 2p" in out and "observation at to_play[0]" in out
    assert "engine_class('jokers_of_death')" in out


# ------------------------------------------------------------------ from a Python engine
@pytest.mark.parametrize("options", [
    {},
    {"num_players": 2, "hand_switching": True, "hand_size": 8},
    {"free_discard_pile": True, "aces": True, "num_players": 4, "hand_size": 8},
    {"five_pile": True, "num_players": 4, "match": True, "target_score": 60,
     "reward": "score", "hand_switching": True},
])
def test_a_position_from_the_engine_plays_on_as_the_engine(options):
    """``record_from_engine`` writes a Python engine's position mid-game (its frames, its
    piles and zones, every seat's memory); given the engine's generator state, the record
    then plays on exactly as the engine does, to the end of the game: the same seat to
    act, legal actions, every seat's observation and the returns."""
    starts, compared = play_on_from_engine_positions(VARIANT, core, options, range(40, 52),
                                                     40)
    assert starts >= 6 and compared > 300


@pytest.mark.parametrize("hands, stock, last", [
    (["5H 6C", "KC 9D", "8H 2S"], "7S 9S 3C", "play 6C pile 2"),  # the turn's draw
    (["5H KD", "KC 9D", "8H 2S"], "3D 9S 7S 3C", "play KD pile 2"),  # a King's follow draw
])
@pytest.mark.parametrize("knock", ["knock", "pass"])
def test_a_draw_that_leaves_one_card_is_knocked_for_as_the_engine(hands, stock, last, knock):
    """docs/rules/jokers_of_death.md #14: an empty hand that draws one card decides the
    knock before playing it, in the core as in the engine (each answer played on)."""
    engine = engine_class(VARIANT).stacked(hands, "5D 6D 7D", stock.split(), first_player=0,
                                           seed=1, hand_size=2)
    for text in ("play 5H pile 1", "pass"):
        engine.step(text)
    tables = CompiledTables(VARIANT, 1, hand_size=2)
    script = iter([engine.parse_action(last), engine.parse_action(knock)])
    compared = play_on_from_engine(
        engine, core, tables, lambda game: next(script, game.legal_actions()[0]))
    assert compared >= 2


# ------------------------------------------------------------------ refusals
# (an illegal action, one out of range, a batch with one illegal action: every compiled core
# alike, in tests/vector/test_tables.py)
def test_an_ended_table_refuses_every_action():
    tables = make_tables(VARIANT, 1, "compiled", hand_size=1, auto_knock=True, max_turns=1)
    for seed in range(100):  # a deal over before its first decision
        tables.reset(seed)
        if tables.current[0] < 0:
            break
    assert tables.current[0] < 0
    before = tables.state.copy()
    for action in (core.DRAW, core.PASS, core.STOP, 0):
        with pytest.raises(IllegalActionError, match="its game is over; deal its next game"):
            tables.step(np.array([0]), np.array([action]))
    assert tables.state.tobytes() == before.tobytes()


def test_the_core_refuses_an_observation_layout_it_does_not_write():
    engine = engine_class(VARIANT)
    config = engine.Config.from_options()
    with pytest.raises(ValueError, match="v2 layout"):
        core.compile_config(engine, config, engine.encoder(config, 1))


def test_the_core_checks_the_engines_declarations(monkeypatch):
    from eights.engines import jokers_of_death as rules

    monkeypatch.setattr(rules, "FOUR_PENALTY", 3)
    engine = engine_class(VARIANT)
    config = engine.Config.from_options()
    with pytest.raises(ValueError, match="changed"):
        core.compile_config(engine, config, engine.encoder(config, None))


def test_the_compiled_search_plays_positions_the_python_determinizer_dealt():
    """54 card ids, several piles and picked-up zones: the search's compiled deal does not
    keep this record, so ``core=compiled`` plays whole positions the Python determinizer
    dealt (``DEALS_COMPILED = False``) and acts legally from them."""
    from eights.agents import make_agent
    from eights.vector import search

    assert VARIANT in search.searched_variants() and not search.deals_compiled(core)
    agent = make_agent("ismcts:sims=30,core=compiled,belief=voids", VARIANT, seed=1)
    game = eights.make_game(VARIANT, num_players=3, seed=3)
    while not game.game_over:
        view = game.view(game.current_player)
        action = agent.act(view) if view.seat == 0 else view.legal_actions[0]
        assert action in view.legal_actions
        game.step(action)


def test_auto_takes_the_compiled_core_for_every_option():
    assert isinstance(make_tables(VARIANT, 2), CompiledTables)
    assert isinstance(make_tables(VARIANT, 2, five_pile=True, num_players=4, aces=True,
                                  hand_switching=True, free_discard_pile=True,
                                  match=True), CompiledTables)
    assert isinstance(make_tables(VARIANT, 2, version=1), CompiledTables)


def test_the_env_plays_jokers_on_the_compiled_core():
    env = eights.vector.make(VARIANT, 8, "heuristic", seed=3, hand_size=5)
    assert isinstance(env.tables, CompiledTables)
    env.reset()
    rng = np.random.default_rng(0)
    for _ in range(60):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in env.masks])
        _, rewards, terminated, _, _ = env.step(actions)
        assert set(np.unique(rewards)) <= {-1.0, 0.0, 1.0}
        assert not rewards[~terminated].any()
    assert env.episodes > 0
