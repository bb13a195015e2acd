"""ISMCTS's horizon in a match: an iteration ends with the hand it started in, scored by
the hand's points, in the Python search and in the compiled one alike."""

from __future__ import annotations

import random

import numpy as np
import pytest

from eights import ConfigError, make_game
from eights.agents import make_agent
from eights.agents.ismcts import _Horizon, hand_returns
from eights.engines import engine_class

#: the variants with matches, and the options that make one short enough to test
MATCH_OPTIONS = {
    "crazy_eights": {"match": True, "target_score": 60},
    "livery_eights": {"match": True, "match_games": 3},
    "jokers_of_death": {"match": True, "target_score": 40, "hand_size": 8},
    "crazier_eights": {"games": 3},
}


@pytest.mark.parametrize(("points", "low", "expected"), [
    ([0, 12, 30], True, [1.0, -1.0, -1.0]),  # the fewest points win where low totals win
    ([0, 12, 30], False, [-1.0, -1.0, 1.0]),  # the most where the hand's winner scores
    ([5, 5, 9], True, [1.0, 1.0, -1.0]),  # a shared best
    ([7, 7], True, [0.0, 0.0]),  # all alike: nobody did better
])
def test_a_hand_scores_its_best_points_plus_one_and_the_rest_minus_one(points, low, expected):
    assert hand_returns(points, low) == expected


def score_events(game, n: int) -> list[int]:
    """The points of the last hand scored, read off its ``score`` events (one per seat)."""
    scores = [e for e in game.events if e.kind == "score"]
    return [e.arg for e in scores[-n:]]


@pytest.mark.parametrize("variant", list(MATCH_OPTIONS))
def test_the_horizon_stops_at_the_hands_end_and_scores_its_points(variant: str) -> None:
    """From decisions all through random matches, playing on while the horizon says so
    stops exactly where the hand ends (the next one dealt, or the match over); the
    returns are the hand's, from the points its ``score`` events give."""
    low = engine_class(variant).low_score_wins
    rng = random.Random(3)
    stops = 0
    for seed in range(4):
        game = make_game(variant, seed=seed, **MATCH_OPTIONS[variant])
        while not game.game_over:
            if rng.random() < 0.1:
                snap = game.snapshot()
                horizon = _Horizon(game, True)
                hand = game.state.hand_number
                while horizon.playing(game):
                    game.step(rng.choice(game.legal_actions()))
                stops += 1
                if game.game_over:
                    assert horizon.returns(game) == game.returns()
                else:
                    assert game.state.hand_number == hand + 1
                    points = score_events(game, game.num_players)
                    assert horizon.returns(game) == hand_returns(points, low)
                game.restore(snap)
            game.step(rng.choice(game.legal_actions()))
    assert stops >= 10


def test_a_single_hand_plays_to_the_games_end() -> None:
    """No match deals another hand: the horizon is the game's end, and its returns."""
    game = make_game("crazy_eights", seed=1)
    horizon = _Horizon(game, True)
    rng = random.Random(1)
    while horizon.playing(game):
        game.step(rng.choice(game.legal_actions()))
    assert game.game_over and horizon.returns(game) == game.returns()


@pytest.mark.parametrize(("spec", "message"), [
    ("ismcts:horizon=round", r"horizon='round' is not allowed; horizon is in a match, where "
                             r"an iteration ends: 'hand' \(the default"),
])
def test_a_bad_horizon_is_refused_naming_what_is_allowed(spec: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        make_agent(spec, "crazy_eights", seed=1)


@pytest.mark.parametrize("core", ["python", "compiled"])
@pytest.mark.parametrize("horizon", ["hand", "game"])
def test_both_horizons_search_a_match_on_both_cores(core: str, horizon: str) -> None:
    """Every searched decision of a short match gets visits on legal actions only, and the
    match is played to its end."""
    spec = f"ismcts:sims=40,core={core},horizon={horizon}"
    agent = make_agent(spec, "crazy_eights", seed=2)
    assert agent.horizon == horizon
    game = make_game("crazy_eights", seed=4, **MATCH_OPTIONS["crazy_eights"])
    searched = 0
    while not game.game_over:
        view = game.view(game.current_player)
        if len(view.legal_actions) > 1 and searched < 12:
            counts = agent.visit_counts(view)
            assert set(np.flatnonzero(counts)) <= set(view.legal_actions)
            searched += 1
        game.step(agent.act(view) if searched < 12 else view.legal_actions[0])
    assert searched == 12 and game.terminated


def test_the_compiled_hand_returns_are_the_pythons() -> None:
    """The compiled search's ``hand_returns`` (totals before the hand, the record's totals
    after) gives what the Python horizon gives for the same points."""
    from eights.vector import CompiledTables
    from eights.vector import search as compiled

    tables = CompiledTables("crazy_eights", 1, num_players=3, match=True)
    record = tables.state[0]
    rng = random.Random(5)
    for _ in range(50):
        before = [rng.randrange(0, 100) for _ in range(3)]
        points = [rng.choice([0, 0, rng.randrange(1, 40)]) for _ in range(3)]
        record["scores"][:3] = [b + p for b, p in zip(before, points, strict=True)]
        for low in (True, False):
            totals = np.array(before, np.float64)
            out = np.zeros(3, np.float64)
            compiled.hand_returns(record, totals, low, out)
            assert out.tolist() == hand_returns(points, low), (before, points, low)
