"""A person's table plays the match, under a turn limit no real match reaches."""

from __future__ import annotations

import pytest

from eights import ConfigError, make_game
from eights.agents import make_agent
from eights.play.table_options import MATCH_TURN_LIMIT, people_table_options


def test_a_persons_table_plays_the_match_under_a_match_sized_limit():
    assert people_table_options("crazy_eights", {}, hand=False) == {
        "match": True, "max_turns": MATCH_TURN_LIMIT}
    assert people_table_options("crazy_eights", {}, hand=True) == {"match": False}
    assert people_table_options("crazy_eights", {"max_turns": 300}, hand=False) == {
        "match": True, "max_turns": 300}
    assert people_table_options("crazy_eights", {"match": False}, hand=False) == {
        "match": False}
    assert people_table_options("baby_eating_eights", {}, hand=False) == {}
    with pytest.raises(ConfigError, match="--hand: baby_eating_eights has no match"):
        people_table_options("baby_eating_eights", {}, hand=True, hand_flag="--hand")


def test_a_long_match_between_careful_players_is_played_to_its_end():
    """Deal 45's two-player match between heuristics takes more than the training
    game's 2,000 actions: cut off there with nobody at 500, finished at a person's table."""
    def play(**options):
        game = make_game("crazy_eights", num_players=2, seed=45, **options)
        agent = make_agent("heuristic", "crazy_eights")
        while not game.game_over:
            game.step(agent.act(game.view(game.current_player)))
        return game

    cut = play(match=True)
    assert cut.truncated and max(cut.state.scores) < 500
    whole = play(**people_table_options("crazy_eights", {}, hand=False))
    assert not whole.truncated and max(whole.state.scores) >= 500 and whole.turn > 2000
