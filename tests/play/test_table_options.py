"""A person's table plays the match; the turn limit counts each hand, so no real match is
cut off."""

from __future__ import annotations

import pytest

from eights import ConfigError, make_game
from eights.agents import make_agent
from eights.play.table_options import people_table_options


def test_a_persons_table_plays_the_match():
    assert people_table_options("crazy_eights", {}, hand=False) == {"match": True}
    assert people_table_options("crazy_eights", {}, hand=True) == {"match": False}
    assert people_table_options("crazy_eights", {"max_turns": 300}, hand=False) == {
        "match": True, "max_turns": 300}
    assert people_table_options("crazy_eights", {"match": False}, hand=False) == {
        "match": False}
    assert people_table_options("baby_eating_eights", {}, hand=False) == {}
    with pytest.raises(ConfigError, match="--hand: baby_eating_eights has no match"):
        people_table_options("baby_eating_eights", {}, hand=True, hand_flag="--hand")


def test_a_long_match_between_careful_players_is_played_to_its_end():
    """Deal 45's two-player match between heuristics takes more than 2,000 actions, the
    default limit of a hand: its hands are each far shorter, so it is played to 500."""
    game = make_game("crazy_eights", num_players=2, seed=45,
                     **people_table_options("crazy_eights", {}, hand=False))
    agent = make_agent("heuristic", "crazy_eights")
    while not game.game_over:
        game.step(agent.act(game.view(game.current_player)))
    assert game.config.max_turns == 2000
    assert not game.truncated and max(game.state.scores) >= 500 and game.turn > 2000
