"""The Baby-Eating Eights heuristic: legal everywhere, and better than chance at every table."""

from __future__ import annotations

import pytest

from eights import make_game
from eights.agents import make_agent, play_game
from eights.agents.baby_heuristic import BabyEatingHeuristic

VARIANT = "baby_eating_eights"


@pytest.mark.parametrize("options", [{"num_players": 2}, {"num_players": 4},
                                     {"num_players": 7}, {"num_players": 4, "teams": 2}])
def test_it_plays_legal_moves_through_whole_games(options):
    agent = make_agent("heuristic", VARIANT, seed=0)
    assert isinstance(agent, BabyEatingHeuristic)
    game = make_game(VARIANT, seed=0, **options)
    for g in range(30):
        game.reset(seed=g)
        while not game.game_over:
            view = game.view(game.current_player)
            action = agent.act(view)
            assert action in view.legal_actions
            game.step(action)


def test_a_heuristic_team_beats_a_random_team():
    game = make_game(VARIANT, num_players=4, teams=2, seed=0)
    wins = 0
    for g in range(200):
        game.reset(seed=g)
        smart = g % 2  # the heuristic holds seats 0 and 2, or 1 and 3
        agents = [make_agent("heuristic" if p % 2 == smart else "random", VARIANT, seed=p)
                  for p in range(4)]
        play_game(game, agents)
        wins += smart in game.winners
    assert wins / 200 > 0.6, f"the heuristic team won {wins} of 200"


def test_a_heuristic_beats_three_random_players_more_than_its_share():
    game = make_game(VARIANT, num_players=4, seed=0)
    wins = 0
    for g in range(200):
        game.reset(seed=g)
        seat = g % 4
        agents = [make_agent("heuristic" if p == seat else "random", VARIANT, seed=p)
                  for p in range(4)]
        play_game(game, agents)
        wins += seat in game.winners
    assert wins / 200 > 0.35, f"won {wins} of 200 (a random player's share is 25%)"
