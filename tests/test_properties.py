"""Property tests over random games per variant and config.

Cards are conserved, the mask is never empty before the end, every game ends
or is truncated, and a seat's view does not change when only cards hidden
from it change. ``make test`` plays :data:`GAMES` games a config;
``make test-slow`` (the ``long`` marker) plays :data:`LONG_GAMES`.
"""

from __future__ import annotations

import dataclasses
import random
from itertools import chain

import pytest

from eights.engines import make_game
from eights.envs import env_module
from tests.conftest import config_id, configs, drawn_card

#: random games a config in ``make test`` (about 7 CPU-s for all configs together)
GAMES = 30
#: and in ``make test-slow``
LONG_GAMES = 2000


def table_cards(game) -> list[int]:
    """Every card at the table (stock, piles, hands, zones), sorted: a multiset to compare
    (a sorted list compares in C; a ``Counter`` comparison cost half of this test)."""
    s = game.state
    return sorted(chain(s.stock, *s.piles, *s.hands, *s.zones))


@pytest.mark.parametrize("games", [GAMES, pytest.param(LONG_GAMES, marks=pytest.mark.long)])
@pytest.mark.parametrize("pair", configs(), ids=config_id)
def test_random_games_conserve_cards_and_end(pair: tuple[str, dict], games: int) -> None:
    variant, config = pair
    game = make_game(variant, seed=0, **config)
    full = sorted(game.full_deck())
    rng = random.Random(1)
    ended = truncated = 0
    for g in range(games):
        game.reset(seed=g)
        check_every = 1 + g % 7
        while not game.game_over:
            legal = game.legal_actions()
            assert len(legal) >= 2, f"game {g}: a decision with {len(legal)} actions"
            assert game.current_player >= 0
            if game.turn % check_every == 0:
                assert table_cards(game) == full, f"game {g} turn {game.turn}: cards changed"
                for pile, pile_counts in zip(game.state.piles, game.state.pile_counts,
                                             strict=True):
                    counts = [0] * len(pile_counts)
                    for card in pile:
                        counts[card] += 1
                    assert counts == list(pile_counts)
            game.step(legal[rng.randrange(len(legal))])
        assert table_cards(game) == full
        assert game.legal_actions() == ()
        assert game.current_player == -1
        if game.terminated:
            ended += 1
            assert game.winners
            returns = game.returns()
            assert sorted(set(returns)) in ([-1.0, 1.0], [1.0])
        else:
            truncated += 1
            assert game.returns() == [0.0] * game.num_players
    assert ended + truncated == games
    assert ended > games // 2, f"only {ended} of {games} games ended"


def shuffle_hidden(game, seat: int, rng: random.Random) -> None:
    """Deal the cards hidden from ``seat`` (other hands, the stock) anew, sizes kept. The
    hands its view shows (its allies', a hand it looks at) are not hidden."""
    s = game.state
    seen = game.hands_seen_by(seat)
    others = [p for p in range(game.num_players) if p not in seen]
    pool = list(s.stock)
    for p in others:
        pool += s.hands[p]
    rng.shuffle(pool)
    pos = 0
    for p in others:
        k = len(s.hands[p])
        s.hands[p] = pool[pos:pos + k]
        pos += k
    s.stock = pool[pos:]


def public_fields(view) -> tuple:
    return (view, view.history())


@pytest.mark.parametrize("pair", configs(), ids=config_id)
def test_views_ignore_hidden_cards(pair: tuple[str, dict]) -> None:
    variant, config = pair
    game = make_game(variant, seed=0, **config)
    encoder = env_module(variant).raw_env(**config).encoder
    rng = random.Random(2)
    checked = 0
    for g in range(12):
        game.reset(seed=1000 + g)
        while not game.game_over:
            if rng.random() < 0.2:
                seat = rng.randrange(game.num_players)
                if drawn_card(game) >= 0 and seat != game.current_player:
                    seat = game.current_player  # a drawn card is the drawer's to see
                before = game.view(seat)
                observed = encoder.encode(game, seat)  # read from the engine itself
                assert (observed == encoder.encode_view(before)).all()
                snap = game.snapshot()
                shuffle_hidden(game, seat, rng)
                after = game.view(seat)
                assert after == before
                assert after.history() == before.history()
                assert (encoder.encode(game, seat) == observed).all()
                game.restore(snap)
                checked += 1
            legal = game.legal_actions()
            game.step(legal[rng.randrange(len(legal))])
    assert checked > 50


@pytest.mark.parametrize("pair", configs()[:1] + configs()[-1:], ids=config_id)
def test_history_hides_other_seats_draws(pair: tuple[str, dict]) -> None:
    variant, config = pair
    game = make_game(variant, seed=11, **config)
    rng = random.Random(3)
    while not game.game_over:
        legal = game.legal_actions()
        game.step(legal[rng.randrange(len(legal))])
    for seat in range(game.num_players):
        view = game.view(seat)
        serialised = dataclasses.asdict(view)["seen_events"]  # what a protocol would send
        assert serialised == view.history()
        for event in view.history():
            if event.kind == "draw" and event.player != seat:
                assert event.card == -1
    referee = [e for e in game.events if e.kind == "draw"]
    assert referee and all(e.card >= 0 for e in referee)


@pytest.mark.parametrize("pair", configs(), ids=config_id)
def test_records_replay_and_snapshots_restore(pair: tuple[str, dict]) -> None:
    variant, config = pair
    rng = random.Random(4)
    for g in range(10):
        game = make_game(variant, seed=500 + g, **config)
        snaps = []
        while not game.game_over:
            if rng.random() < 0.1:
                snaps.append((game.snapshot(), game.render(), game.legal_actions()))
            legal = game.legal_actions()
            game.step(legal[rng.randrange(len(legal))])
        from eights import GameRecord, replay
        record = GameRecord.from_json(game.record().to_json())
        again = replay(record)
        assert again.render() == game.render()
        assert again.events == game.events
        for snap, text, legal in snaps:
            game.restore(snap)
            assert game.render() == text
            assert game.legal_actions() == legal
