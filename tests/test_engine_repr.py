"""An engine's repr says what game it is and where it stands."""

from __future__ import annotations

import eights


def test_repr_names_the_changed_options_the_seed_and_the_position() -> None:
    game = eights.make_game("livery_eights", seed=7, num_players=4, must_stack_twos=False)
    assert repr(game) == (f"LiveryEightsGame(num_players=4, must_stack_twos=False, seed=7; "
                          f"turn 0, player {game.current_player} to act)")
    game = eights.make_game("crazy_eights", seed=3, hand_size=1)
    while not game.game_over:
        game.step(game.legal_actions()[0])
    assert repr(game).startswith("CrazyEightsGame(num_players=2, hand_size=1, seed=3; turn ")
    assert repr(game).endswith(f"over, winners {game.winners[0]})")
