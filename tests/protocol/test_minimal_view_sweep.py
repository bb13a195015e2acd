"""Minimal views in every option config: what a frontend must send is enough to play on.

A frontend sends only the required fields of a view; the bot fills in the
rest from the defaults the engines declare beside their fields
(eights/engines/defaults.py) and its search deals positions from the result.
A default that guesses (a phase taken to be ``choose suit`` where the engine
is in another phase that also names a suit) deals a position whose game goes
on differently. So at every decision of seeded random games in every option
config (tests/conftest.py's ``option_sweep``), every seat's minimal JSON view
is read back and determinized, and the position dealt must be the engine's
own: its phase and player to act, and for the seat to act its legal actions
and, after each of them, the next player to act, the phase and the legal
actions. That last check puts the real hidden cards into the dealt position
(hands, stock, pile order, the generator), so only the view's public fields
can make the two games part: a default that guesses a direction, a score or a
count of Aces played this turn makes them part.
"""

from __future__ import annotations

import random

import pytest

from eights.engines import engine_class, make_game
from eights.engines.defaults import TURN_LIMIT_REACH
from eights.protocol.views import read_view, required_now, view_to_json
from tests.conftest import every_option_config, sweep_id

SWEEP = every_option_config()



def minimal_view(view):
    """The seat's view as a frontend sending only its required fields gives it, read back."""
    data = view_to_json(view)
    keep = set(required_now(data, view.variant, view.config, view.legal_actions))
    sent = {name: value for name, value in data.items() if name in keep}
    return read_view(sent, view.variant, view.config, view.legal_actions)[0]


def _with_real_cards(det, game) -> None:
    """Give ``det`` the real game's hidden cards (hands, stock, pile order) and generator,
    so what follows an action depends only on what the view told it."""
    det.state.hands = [list(h) for h in game.state.hands]
    det.state.stock = list(game.state.stock)
    det.state.piles = [list(p) for p in game.state.piles]
    det.state.pile_counts = [bytearray(c) for c in game.state.pile_counts]
    det.rng.setstate(game.rng.getstate())


def _after(engine, action: int) -> tuple[int, str | None, tuple[int, ...]]:
    """Who acts, in which phase, with which legal actions after ``action`` (the engine is put
    back after)."""
    snap = engine.snapshot()
    engine.step(action)
    after = ((engine.current_player, None, ()) if engine.game_over else
             (engine.current_player, engine.view(engine.current_player).phase,
              tuple(engine.legal_actions())))
    engine.restore(snap)
    return after


def _step(game, action: int) -> None:
    """Apply ``action``; the moves it forces stay within the reach from the turn limit at
    which ``turn`` must be sent (:data:`~eights.engines.defaults.TURN_LIMIT_REACH`)."""
    before = game.turn
    game.step(action)
    assert game.turn - before <= TURN_LIMIT_REACH, (game.variant, game.turn - before)


def check_minimal_views(variant: str, config: dict, games: int, seed: int,
                        rate: float = 1.0, most: int | None = None,
                        ends: list | None = None) -> int:
    """Check every seat's minimal view at a ``rate`` of the decisions of ``games`` random
    games (at most ``most`` of them); the number of decisions checked. ``ends`` gets each
    game's (truncated, hands dealt) at its end."""
    cls = engine_class(variant)
    rng = random.Random(seed)
    game = make_game(variant, seed=seed, **config)
    decisions = 0
    for g in range(games):
        game.reset(seed=seed + g)
        while not game.game_over and (most is None or decisions < most):
            legal = game.legal_actions()
            if rng.random() >= rate:
                _step(game, legal[rng.randrange(len(legal))])
                continue
            for seat in range(game.num_players):
                view = game.view(seat)
                back = minimal_view(view)
                det = cls.determinize(back, rng)
                where = (variant, config, game.turn, seat)
                if seat != game.current_player:
                    if det.turn == back.turn:  # (a redeal found no real choice: moved on)
                        assert det.current_player == game.current_player, where
                        assert det.view(seat).phase == view.phase, where
                    continue
                assert det.current_player == seat, where
                assert det.legal_actions() == legal, where
                assert det.view(seat).phase == view.phase, where
                _with_real_cards(det, game)
                for action in legal:
                    assert _after(det, action) == _after(game, action), (
                        *where, game.actions.text(action))
            decisions += 1
            _step(game, legal[rng.randrange(len(legal))])
        if ends is not None:
            ends.append((game.truncated, game.state.hand_number + 1))
    return decisions


@pytest.mark.parametrize("setup", SWEEP, ids=sweep_id)
def test_minimal_views_determinize_to_the_engines_position(setup: tuple[str, dict]) -> None:
    """A fifth of the decisions of two games per config here (at most 20); the long sweep
    below checks every decision of 20."""
    variant, config = setup
    assert check_minimal_views(variant, config, games=2, seed=7, rate=0.2, most=20) > 0


@pytest.mark.long
@pytest.mark.parametrize("setup", SWEEP, ids=sweep_id)
def test_minimal_views_determinize_to_the_engines_position_over_20_games(
        setup: tuple[str, dict]) -> None:
    variant, config = setup
    assert check_minimal_views(variant, config, games=20, seed=700) > 0


@pytest.mark.parametrize("setup", SWEEP, ids=sweep_id)
def test_every_decision_offers_only_its_frame_kinds_declared_blocks(
        setup: tuple[str, dict]) -> None:
    """The declaration a missing phase is derived from (``offers``) holds at every decision:
    the legal actions' blocks are among those the deciding frame kind declares."""
    variant, config = setup
    game = make_game(variant, seed=11, **config)
    rng = random.Random(11)
    for g in range(3):
        game.reset(seed=11 + g)
        while not game.game_over:
            kind = game.frame.kind
            blocks = {game.actions.decode(a)[0].name for a in game.legal_actions()}
            assert kind in game.phases, (variant, kind)
            assert blocks <= set(game.offers[kind]), (variant, config, kind, sorted(blocks))
            legal = game.legal_actions()
            game.step(legal[rng.randrange(len(legal))])


#: matches of short hands under a turn limit a hand that cuts some of them: every decision
#: is within :data:`TURN_LIMIT_REACH` of the limit, so ``hand_turns`` is sent; the games go
#: on past the limit's count in later hands
SHORT_HAND_MATCHES = [
    ("crazy_eights", {"match": True, "target_score": 100, "hand_size": 2, "max_turns": 20}),
    ("livery_eights", {"match": True, "hand_size": 2, "max_turns": 12}),
    ("jokers_of_death", {"match": True, "hand_size": 3, "target_score": 30, "max_turns": 25}),
    ("crazier_eights", {"games": 4, "hand_size": 2, "max_turns": 20}),
]
#: games a short-hand match is played: enough that one is cut in a later hand
GAMES_A_MATCH = 40


@pytest.mark.parametrize("setup", SHORT_HAND_MATCHES, ids=lambda setup: setup[0])
def test_minimal_views_of_a_match_count_the_turn_limit_from_the_hand(setup) -> None:
    """In a match the turn limit counts each hand's actions: a minimal view near it must send
    ``hand_turns`` (not ``turn``), and the position it determinizes to is cut where the
    engine's is, in the first hand and in later ones."""
    variant, config = setup
    game = make_game(variant, seed=3, **config)
    view = game.view(game.current_player)
    required = required_now(view_to_json(view), variant, view.config, view.legal_actions)
    assert "hand_turns" in required and "turn" not in required
    ends: list[tuple[bool, int]] = []
    assert check_minimal_views(variant, config, games=GAMES_A_MATCH, seed=31, ends=ends) > 0
    assert any(truncated and hands > 1 for truncated, hands in ends), ends
