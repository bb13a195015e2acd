"""The compiled crazier_eights core plays the Python engine's games, decision for decision.

The comparison itself lives in ``scripts/vector_differential.py`` (one copy),
which runs it at full size (``--variant crazier_eights``); here every config
runs a CI-sized count (:data:`GAMES`), and the corners each config is there for
are checked to occur. A card set of the user's plays compiled too (the cards are
data: :func:`~eights.vector.crazier_eights.card_table`). Then a position taken
from a Python engine mid-game (``record_from_engine``) plays on as the engine
does, and the core's refusals: ended tables, an observation layout it does not
write, a card set whose abilities go on after a loss in a match.
"""

from __future__ import annotations

import numpy as np
import pytest

import eights.vector
from eights.engines import engine_class
from eights.engines.base import IllegalActionError
from eights.vector import CompiledTables, PythonTables, make_tables
from eights.vector import crazier_eights as core
from eights.vector.cores import NotCompiled
from tests.vector.differential_script import differential
from tests.vector.engine_positions import play_on_from_engine_positions

VARIANT = "crazier_eights"
#: one xdist worker compiles (or loads) this core: the other never waits on the same compile
pytestmark = pytest.mark.xdist_group("core-crazier_eights")


CONFIGS = differential.CONFIGS[VARIANT]

#: games compared per config (8 tables each, random legal actions, a quarter of them the
#: heuristic's). Measured CPU cost per game on the loaded 2-core dev machine (numba cache
#: warm): default 25 ms, 3p 43, 4p 57, 5p 105, 8p 105, 2p_2decks 20, teams_4p 48,
#: teams_6p_3 116, match_score_3p 113 (three games), 2p_12cards_1deck 16, hand_size_1 6,
#: max_turns_10 1, max_turns_1 0.3, house_card_set_3p 46: about 10 CPU s for these counts.
GAMES = {
    "default": 40,
    "3p": 20,
    "4p": 15,
    "5p": 8,
    "8p": 8,
    "2p_2decks": 30,
    "teams_4p": 15,
    "teams_6p_3": 8,
    "teams_5p_uneven": 10,
    "match_score_3p": 8,
    "2p_12cards_1deck": 30,
    "hand_size_1": 60,
    "max_turns_10": 50,
    "games_4_max_turns_20": 150,
    "max_turns_1": 60,
    "house_card_set_3p": 15,
}

#: the tables' reset seed (the script's default is 0: other games)
SEED = 2024

#: the corners a config is there to reach, counted over its games (each must occur)
CORNERS = {
    "default": ("triggers", "extra", "chosen", "colours", "destroyed", "restored", "looks",
                "reveals", "bottoms", "found", "fewer", "trades", "gives", "sees", "outs",
                "named", "reshuffles"),
    "5p": ("losses", "impossible"),
    "8p": ("impossible",),
    "2p_12cards_1deck": ("reshuffles", "impossible"),
    "house_card_set_3p": ("losses", "saved"),
    "max_turns_10": ("truncated",),
    "games_4_max_turns_20": ("truncated", "cut_in_a_later_hand"),
    "max_turns_1": ("truncated",),
}


def test_every_config_has_a_game_count():
    assert set(GAMES) == set(CONFIGS)


@pytest.mark.parametrize("name", list(CONFIGS))
def test_compiled_tables_play_the_python_engines_games(name):
    result = differential.compare(CONFIGS[name], GAMES[name], variant=VARIANT, seed=SEED)
    assert result.games == GAMES[name]
    assert result.decisions > 0 and result.heuristic > 0
    assert result.counts["terminated"] + result.counts["truncated"] == result.games
    if CONFIGS[name].get("games", 1) > 1:
        assert result.counts["hands"] > result.games  # matches of several games
    for corner in CORNERS.get(name, ()):
        assert result.counts[corner] > 0, (corner, dict(result.counts))


def test_the_script_takes_the_variant_and_shows_a_card_set_by_its_length(capsys):
    assert differential.main(["--variant", VARIANT, "--games", "2", "--configs",
                              "max_turns_10", "house_card_set_3p"]) == 0
    out = capsys.readouterr().out
    assert "crazier_eights max_turns_10 {'max_turns': 10}: 2 games" in out
    assert "'card_set': <" in out and "characters>" in out and "[[card]]" not in out
    assert "all identical: 4 games" in out


def test_the_script_names_a_crazier_feature_that_differs(monkeypatch, capsys):
    asks = PythonTables(VARIANT, 1).encoder.offsets["asks"]

    class Broken(CompiledTables):
        def observe(self, tables, seats, obs, masks):
            super().observe(tables, seats, obs, masks)
            obs[-1, asks] += 0.5  # the last row's "asks nothing"

    monkeypatch.setattr(differential, "CompiledTables", Broken)
    assert differential.main(["--variant", VARIANT, "--games", "2", "--configs",
                              "default"]) == 1
    out = capsys.readouterr().out
    assert "MISMATCH in default" in out and "observation at asks[0]" in out


# ------------------------------------------------------------------ the cards as data
def test_a_card_table_holds_each_steps_arguments():
    """The interpreter's rows are the card file compiler's tuples, field by field: Doom's
    choice of an opponent, its test of that player's hand and the loss it jumps past."""
    from eights.engines.crazier_cards import PLAY, load

    cards = load()
    table = core.card_table(cards)
    doom = cards.cardset.parse("7P")
    program = cards.programs[doom][PLAY]
    assert program[0] == ("choose_player", "opponents")
    assert table[doom, core.R_LENGTH + PLAY] == len(program) == 3

    def row(pc):
        at = core.R_PROGRAM + (PLAY * core.MAX_STEPS + pc) * core.OP_WIDTH
        return list(table[doom, at:at + core.OP_WIDTH])

    assert row(0) == [core.OP_CHOOSE_PLAYER, core.PLAYER_AMONG["opponents"], 0, 0, 0, 0]
    assert row(1) == [core.OP_TEST, core.HAND_AT_LEAST, 12, core.CHOSEN, 3, 3]
    assert row(2) == [core.OP_LOSE, core.CHOSEN, 0, 0, 0, 0]
    moat = cards.cardset.parse("4B")
    assert table[moat, core.R_CHANGE_OPPONENT] == -1 and table[moat, core.R_CHANGE_ANY] == 0
    assert table[doom, core.R_BITS] == 1 and not table[doom, core.R_ASSET]


def test_a_card_set_that_loses_then_goes_on_is_played_by_the_engines_in_a_match():
    """After a loss ends a match's game the engine deals the next game inside the ability
    and only then runs its later steps; the core would run them first, so such a set in a
    match is refused (:class:`NotCompiled`) and ``auto`` takes the Python tables."""
    house = differential.house_card_set()
    with pytest.raises(NotCompiled, match="after a lose step"):
        make_tables(VARIANT, 2, "compiled", card_set=house, games=2)
    assert isinstance(make_tables(VARIANT, 2, card_set=house, games=2), PythonTables)
    assert isinstance(make_tables(VARIANT, 2, card_set=house), CompiledTables)
    assert isinstance(make_tables(VARIANT, 2, games=2), CompiledTables)


# ------------------------------------------------------------------ from a Python engine
@pytest.mark.parametrize("options", [
    {},
    {"num_players": 4, "teams": 2},
    {"num_players": 5, "games": 2, "reward": "score"},
])
def test_a_position_from_the_engine_plays_on_as_the_engine(options):
    """``record_from_engine`` writes a Python engine's position mid-game (its agenda with
    pending abilities, piles, zones, known cards, every seat's memory); given the
    engine's generator state, the record then plays on exactly as the engine does, to the
    end of the game: the same seat to act, legal actions, every seat's observation and
    the returns."""
    starts, compared = play_on_from_engine_positions(VARIANT, core, options, range(40, 50),
                                                     60)
    assert starts >= 6 and compared > 300


# ------------------------------------------------------------------ refusals
def test_an_ended_table_refuses_every_action():
    tables = make_tables(VARIANT, 1, "compiled", hand_size=1, max_turns=3)
    tables.reset(0)
    while tables.current[0] >= 0:  # play it out (three actions at most)
        tables.step(np.array([0]), np.flatnonzero(tables.state["legal"][0])[:1])
    before = tables.state.copy()
    for action in (core.END, core.YES, 0):
        with pytest.raises(IllegalActionError, match="its game is over; deal its next game"):
            tables.step(np.array([0]), np.array([action]))
    assert tables.state.tobytes() == before.tobytes()


def test_the_core_refuses_an_observation_layout_it_does_not_write():
    engine = engine_class(VARIANT)
    config = engine.Config.from_options()
    with pytest.raises(ValueError, match="v2 layout"):
        core.compile_config(engine, config, engine.encoder(config, 1))


def test_the_core_checks_the_engines_declarations(monkeypatch):
    from eights.engines import crazier_abilities as abilities

    monkeypatch.setattr(abilities, "TRADE_TAKE", 5)
    engine = engine_class(VARIANT)
    config = engine.Config.from_options()
    with pytest.raises(ValueError, match="changed"):
        core.compile_config(engine, config, engine.encoder(config, None))


def test_the_compiled_search_plays_positions_the_python_determinizer_dealt():
    """Ordered zones, an agenda of abilities and a card set as data: the search plays whole
    positions the Python determinizer dealt (``DEALS_COMPILED = False``) and acts legally
    from them."""
    from eights.agents import make_agent
    from eights.vector import search

    assert VARIANT in search.searched_variants() and not search.deals_compiled(core)
    agent = make_agent("ismcts:sims=30,core=compiled,belief=voids", VARIANT, seed=1)
    game = eights.make_game(VARIANT, seed=3)
    while not game.game_over:
        view = game.view(game.current_player)
        action = agent.act(view) if view.seat == 0 else view.legal_actions[0]
        assert action in view.legal_actions
        game.step(action)


def test_auto_takes_the_compiled_core_for_every_option():
    assert isinstance(make_tables(VARIANT, 2), CompiledTables)
    assert isinstance(make_tables(VARIANT, 2, num_players=6, teams=3, games=3,
                                  reward="score", num_decks=2), CompiledTables)
    assert isinstance(make_tables(VARIANT, 2, version=1), CompiledTables)


def test_the_env_plays_crazier_on_the_compiled_core():
    env = eights.vector.make(VARIANT, 8, "heuristic", seed=3, hand_size=5)
    assert isinstance(env.tables, CompiledTables)
    env.reset()
    rng = np.random.default_rng(0)
    for _ in range(80):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in env.masks])
        _, rewards, terminated, _, _ = env.step(actions)
        assert set(np.unique(rewards)) <= {-1.0, 0.0, 1.0}
        assert not rewards[~terminated].any()
    assert env.episodes > 0
