"""Determinization: a new engine consistent with a seat's view, hidden cards dealt at random.

Search agents sample the positions a seat cannot tell apart with
``Engine.determinize(view, rng)``; these tests pin what such a position keeps
(the seat's hand, everything public, the legal actions) and what it may
change (only cards hidden from the seat).
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

from eights.engines import engine_class, make_game
from eights.engines.base import Engine
from eights.engines.livery_eights import LiveryEightsGame
from tests.conftest import all_cards, every_option_config, sweep_id

SWEEP = every_option_config()



def public_fields(view) -> dict:
    """Every field of a view but its history (a determinized engine's log starts empty)."""
    return {f.name: getattr(view, f.name) for f in dataclasses.fields(view)
            if f.name != "seen_events"}


def positions(variant: str, config: dict, games: int, seed: int):
    """Yield the engine at every decision of seeded random games (do not step it)."""
    game = make_game(variant, seed=seed, **config)
    rng = random.Random(seed)
    for g in range(games):
        game.reset(seed=seed + g)
        while not game.game_over:
            yield game
            legal = game.legal_actions()
            game.step(legal[rng.randrange(len(legal))])


def check_every_view(variant: str, config: dict, games: int, seed: int,
                     others_every: int = 1) -> None:
    """Determinize every seat's view at every decision of ``games`` random games (the
    other seats' views at every ``others_every``-th decision).

    The seat to act keeps its hand, everything public and its legal actions. Another
    seat's view deals a position with every card in it; its public fields stay as they
    are unless no redeal finds the actor a real choice (then the forced move is applied,
    :meth:`TableEngine.determinize`), which a table rarely comes to.
    """
    cls = engine_class(variant)
    rng = random.Random(seed)
    acting = others = kept = 0
    for k, game in enumerate(positions(variant, config, games, seed)):
        deck = Counter(game.full_deck())
        for seat in range(game.num_players):
            if seat != game.current_player and k % others_every:
                continue
            view = game.view(seat)
            det = cls.determinize(view, rng)
            assert all_cards(det) == deck
            if seat != game.current_player:
                kept += public_fields(det.view(seat)) == public_fields(view)
                others += 1
                continue
            assert det.current_player == seat
            assert det.legal_actions() == game.legal_actions() == view.legal_actions
            assert sorted(det.state.hands[seat]) == sorted(game.state.hands[seat])
            assert public_fields(det.view(seat)) == public_fields(view)
            acting += 1
    assert acting > 0
    assert kept >= 0.9 * others, f"{kept} of {others} other seats' views kept"


@pytest.mark.parametrize("setup", SWEEP, ids=sweep_id)
def test_every_view_determinizes_in_every_option_config(setup: tuple[str, dict]) -> None:
    """One game per config here, the other seats' views at every fourth decision (an
    eight-seat table deals seven views a decision); the long sweep below plays 200, every
    view of every decision."""
    variant, config = setup
    check_every_view(variant, config, games=1, seed=100, others_every=4)


@pytest.mark.long
@pytest.mark.parametrize("setup", SWEEP, ids=sweep_id)
def test_every_view_determinizes_in_every_option_config_over_200_games(
        setup: tuple[str, dict]) -> None:
    variant, config = setup
    check_every_view(variant, config, games=200, seed=1000)


def test_hidden_cards_are_dealt_from_the_generator() -> None:
    """Same generator state, same deal; other seeds deal the hidden cards differently."""
    game = make_game("crazy_eights", num_players=3, seed=4)
    view = game.view(game.current_player)
    a = type(game).determinize(view, random.Random(1))
    b = type(game).determinize(view, random.Random(1))
    assert a.state == b.state and a.rng.getstate() == b.rng.getstate()
    others = {tuple(type(game).determinize(view, random.Random(s)).state.hands[1])
              for s in range(20)}
    assert len(others) == 20


def test_determinizing_leaves_the_real_game_alone() -> None:
    game = make_game("livery_eights", num_players=3, seed=5)
    before = game.snapshot()
    det = type(game).determinize(game.view(game.current_player), random.Random(0))
    while not det.game_over:
        det.step(det.legal_actions()[0])
    assert game.snapshot() == before


def test_a_card_drawn_by_another_seat_is_a_playable_one_of_its_hand() -> None:
    cls = engine_class("crazy_eights")
    rng = random.Random(3)
    seen = 0
    config = {"num_players": 3, "may_keep_drawn_card": True}  # another seat decides on a draw
    for game in positions("crazy_eights", config, 40, seed=300):
        if game.frame.kind != "after_draw":
            continue
        drawer = game.current_player
        watcher = (drawer + 1) % 3
        det = cls.determinize(game.view(watcher), rng)
        drawn = det.frame.args[0]
        assert det.frame.kind == "after_draw" and det.frame.seat == drawer
        assert drawn in det.state.hands[drawer]
        assert det.playable(drawn)
        assert det.legal_actions() == (drawn, *game.legal_actions()[1:])
        seen += 1
    assert seen > 20


def test_livery_next_seat_is_rebuilt_in_the_call_and_challenge_windows() -> None:
    """Who plays after a call or a challenge window is not in the view: it follows from who
    played the top card and its trick, and determinization rebuilds the frame with it."""
    kinds = Counter()
    rng = random.Random(4)
    for players in (2, 3, 4):
        for game in positions("livery_eights", {"num_players": players}, 150, seed=400):
            frame = game.frame
            if frame.kind not in ("last_card", "challenge"):
                continue
            for seat in range(players):
                det = LiveryEightsGame.determinize(game.view(seat), rng)
                assert det.frame == frame
            kinds[frame.kind] += 1
    assert kinds["last_card"] > 20 and kinds["challenge"] > 5


def test_views_show_first_player_and_stuck_turns() -> None:
    """Public state determinize needs (who started the hand, how long the table is stuck)."""
    for game in positions("livery_eights", {"num_players": 3, "match": True}, 10, seed=500):
        view = game.view(0)
        assert (view.first_player, view.stuck) == (game.state.first, game.state.stuck)


def test_bad_views_are_refused_clearly() -> None:
    game = make_game("crazy_eights", num_players=2, seed=6)
    view = game.view(game.current_player)
    with pytest.raises(ValueError, match="cards are hidden from seat"):
        type(game).determinize(dataclasses.replace(view, stock_size=view.stock_size + 1),
                               random.Random(0))
    with pytest.raises(ValueError, match="cannot determinize a crazy_eights view"):
        LiveryEightsGame.determinize(view, random.Random(0))
    while not game.game_over:
        game.step(game.legal_actions()[0])
    with pytest.raises(ValueError, match="game in this view is over"):
        type(game).determinize(game.view(0), random.Random(0))
    with pytest.raises(NotImplementedError):
        Engine.determinize(view, random.Random(0))


@pytest.mark.parametrize("variant", ["crazy_eights", "livery_eights"])
def test_inferring_from_draws_deals_opponents_nothing_they_could_have_played(variant):
    """With infer_from_draws, an opponent that drew holds no card of the suit or rank it
    drew on and no wild card, except one card (the one it drew); cards stay conserved."""
    import random as _random

    from eights.agents import make_agent
    from eights.cards import RANK, SUIT

    rng = _random.Random(0)
    checked = 0
    for seed in range(40):
        game = make_game(variant, num_players=3, seed=seed)
        agents = [make_agent("heuristic", variant, seed=k) for k in range(3)]
        while not game.game_over and checked < 400:
            seat = game.current_player
            view = game.view(seat)
            drew = [p for p in range(3) if p != seat and view.drew_on_suit[p] >= 0]
            if drew:
                det = type(game).determinize(view, rng, infer_from_draws=True)
                for p in drew:
                    suit, rank = view.drew_on_suit[p], view.drew_on_rank[p]
                    hand = det.state.hands[p]
                    fits = [c for c in hand if SUIT[c] == suit or RANK[c] in (rank, 8)]
                    assert len(fits) <= 1 or not any(
                        SUIT[c] != suit and RANK[c] not in (rank, 8) for c in det.state.stock)
                    checked += 1
                cards = sorted(c for h in det.state.hands for c in h) + det.state.stock
                assert len(cards) + len(det.state.discard) == len(game.full_deck())
                assert det.legal_actions() == view.legal_actions
            game.step(agents[seat].act(view))
    assert checked > 50
