"""The table core: frame dispatch, the agenda, moving cards, piles, the generator, snapshots.

Moves are checked on a real Crazy Eights game between every kind of place
(hand, stock, pile top, pile bottom, zone), with the pile's derived state
(its top, the suit to follow, its copies per card) and the logged event.
The generator must be ``random.Random`` to the number (replays depend on it)
while sharing its state tuple between snapshots that did not draw.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import eights
from eights.cards import NO_CARD, SUIT, parse_card
from eights.engines.base import Event, GameRandom
from eights.engines.crazy_eights import CrazyEightsGame
from eights.engines.events import EventError
from eights.engines.table import Frame, TableEngine


def crazy(seed: int = 3, **options: Any) -> CrazyEightsGame:
    game = eights.make_game("crazy_eights", seed=seed, **options)
    assert isinstance(game, CrazyEightsGame)
    return game


def counts_of(cards: list[int], size: int = 54) -> bytearray:
    out = bytearray(size)
    for c, k in Counter(cards).items():
        out[c] = k
    return out


def assert_pile_counts_agree(game: TableEngine) -> None:
    s = game.state
    for k, pile in enumerate(s.piles):
        assert type(s.pile_counts[k]) is bytearray
        assert s.pile_counts[k] == counts_of(pile, len(game.cardset))


def play_randomly(game: TableEngine, chooser: random.Random, limit: int = 10_000
                  ) -> list[int]:
    """Play ``game`` to its end with random legal actions; return the actions."""
    actions = []
    while not game.game_over and len(actions) < limit:
        a = chooser.choice(game.legal_actions())
        actions.append(a)
        game.step(a)
    return actions


# ------------------------------------------------------------------ frame dispatch
def test_a_legal_handler_without_apply_is_refused() -> None:
    """A frame kind with <kind>_legal but no <kind>_apply (or the reverse) is a TypeError
    naming the kind, when the class is made."""
    with pytest.raises(TypeError, match=r"Broken: .*<kind>_legal and <kind>_apply.*: foo$"):
        class Broken(TableEngine):
            def foo_legal(self, frame: Frame) -> list[int]:
                return [0]

    with pytest.raises(TypeError, match=r": bar, foo$"):
        class AlsoBroken(TableEngine):
            def foo_legal(self, frame: Frame) -> list[int]:
                return [0]

            def bar_apply(self, frame: Frame, action: int) -> None:
                pass


def test_handlers_are_found_by_name() -> None:
    """<kind>_legal/_apply pairs and <kind>_resolve methods become the dispatch tables;
    private names (a leading underscore) are not frame kinds."""
    class Fine(TableEngine):
        def foo_legal(self, frame: Frame) -> list[int]:
            return [0]

        def foo_apply(self, frame: Frame, action: int) -> None:
            pass

        def tick_resolve(self, frame: Frame) -> None:
            pass

        def _hidden_legal(self, frame: Frame) -> list[int]:
            return []

    assert set(Fine._legal_by_kind) == set(Fine._apply_by_kind) == {"foo"}
    assert set(Fine._resolve_by_kind) == {"tick"}
    assert Fine._legal_by_kind["foo"] is Fine.foo_legal
    assert set(CrazyEightsGame._legal_by_kind) == {"turn", "suit", "after_draw"}


# ------------------------------------------------------------------ the agenda
def test_current_player_is_the_top_frames_seat() -> None:
    """Who acts is the seat of the agenda's top frame, through a game."""
    game = crazy(seed=1, num_players=4)
    chooser = random.Random(1)
    for _ in range(60):
        if game.game_over:
            break
        assert game.current_player == game.state.agenda[-1].seat == game.frame.seat
        game.step(chooser.choice(game.legal_actions()))


def test_current_player_is_minus_one_when_over() -> None:
    """Once the game has ended (won or truncated), current_player is -1."""
    game = crazy(seed=2)
    play_randomly(game, random.Random(2))
    assert game.terminated
    assert game.current_player == -1
    short = crazy(seed=2, max_turns=3)
    play_randomly(short, random.Random(2))
    assert short.truncated and not short.terminated
    assert short.current_player == -1


def test_push_then_frame_returns_the_pushed_frame() -> None:
    """push(kind, seat, *args) puts a Frame on top: frame reads it, and current_player once
    the engine settles (it is kept by _settle, not read from the agenda on every call)."""
    game = crazy(seed=4)
    below = game.frame
    game.push("suit", 1)
    assert game.frame == Frame("suit", 1, ())
    assert isinstance(game.frame, Frame)
    assert game.frame.kind == "suit" and game.frame.seat == 1 and game.frame.args == ()
    game._settle()
    assert game.current_player == 1 and game.legal_texts() == ["suit C", "suit D", "suit H",
                                                               "suit S"]
    game.push("after_draw", 0, 46)
    assert game.frame == Frame("after_draw", 0, (46,))
    assert game.frame.args[0] == 46
    assert game.state.agenda[-3:] == [below, Frame("suit", 1), Frame("after_draw", 0, (46,))]


def test_applying_a_frame_pops_it_first() -> None:
    """A decision pops its frame before its handler runs, so the handler pushes the next."""
    game = crazy(seed=6)
    game.push("suit", game.current_player)
    depth = len(game.state.agenda)
    game._legal_now = game._legal()
    game.step("suit H")
    assert game.state.suits[0] == 2
    assert len(game.state.agenda) == depth  # suit popped, the next turn pushed
    assert game.frame.kind == "turn"


# ------------------------------------------------------------------ moving cards
def test_move_hand_to_pile_updates_top_suit_counts_and_logs() -> None:
    """A card played onto a pile becomes its top, sets the suit to follow, counts one more
    copy, leaves the hand, and logs the given event with player and arg."""
    game = crazy(seed=5)
    s = game.state
    c = s.hands[0][0]
    before = s.pile_counts[0][c]
    hand_size, pile_size = len(s.hands[0]), len(s.piles[0])
    assert game.move(("hand", 0), ("pile", 0), c, "play", 0) == c
    assert game.top(0) == s.piles[0][-1] == c
    assert s.suits[0] == SUIT[c]
    assert s.pile_counts[0][c] == before + 1
    assert len(s.hands[0]) == hand_size - 1 and len(s.piles[0]) == pile_size + 1
    assert game.events[-1] == Event("play", 0, c, -1)
    assert_pile_counts_agree(game)
    d = s.hands[1][0]
    game.move(("hand", 1), ("pile", 0), d, "play", 1)
    assert game.events[-1] == Event("play", 1, d, -1)
    with pytest.raises(EventError, match="event kind 'test_event' is not declared"):
        game.move(("hand", 1), ("pile", 0), s.hands[1][0], "test_event", 1, arg=7)


def test_move_stock_to_hand_takes_the_top_of_the_stock() -> None:
    """From the stock the top card (the list's last) is taken and returned."""
    game = crazy(seed=5)
    s = game.state
    top = s.stock[-1]
    stock_size = len(s.stock)
    log_size = len(game.events)
    assert game.move(("stock",), ("hand", 1), event="draw", player=1) == top
    assert s.hands[1][-1] == top
    assert len(s.stock) == stock_size - 1
    assert game.events[-1] == Event("draw", 1, top, -1)
    assert len(game.events) == log_size + 1
    # no event given: nothing logged
    game.move(("stock",), ("hand", 1))
    assert len(game.events) == log_size + 1


def test_move_pile_to_under_puts_the_top_at_the_bottom() -> None:
    """("pile", k) takes the top; ("under", k) puts it at the bottom: counts are unchanged."""
    game = crazy(seed=8)
    s = game.state
    for _ in range(3):
        game.move(("stock",), ("pile", 0))
    pile = list(s.piles[0])
    counts = bytearray(s.pile_counts[0])
    assert game.move(("pile", 0), ("under", 0), event="starter", player=-1) == pile[-1]
    assert s.piles[0] == [pile[-1], *pile[:-1]]
    assert s.pile_counts[0] == counts
    assert game.events[-1] == Event("starter", -1, pile[-1], -1)
    assert_pile_counts_agree(game)


def test_move_pile_to_hand_counts_one_copy_fewer() -> None:
    """Taking a pile's top into a hand lowers its count and shows the card below."""
    game = crazy(seed=8)
    s = game.state
    game.move(("stock",), ("pile", 0))
    below, top = s.piles[0][-2], s.piles[0][-1]
    assert game.move(("pile", 0), ("hand", 0)) == top
    assert game.top() == below
    assert top in s.hands[0]
    assert_pile_counts_agree(game)


def test_move_hand_to_zone_and_back() -> None:
    """A card goes from a hand to a seat's zone and back, the other places untouched."""
    game = crazy(seed=9, num_players=3)
    s = game.state
    c = s.hands[2][3]
    hand = list(s.hands[2])
    pile, stock = list(s.piles[0]), list(s.stock)
    assert s.zones == [[], [], []]
    game.move(("hand", 2), ("zone", 2), c, "play", 2)
    assert s.zones[2] == [c]
    assert s.hands[2].count(c) == hand.count(c) - 1
    assert game.events[-1] == Event("play", 2, c, -1)
    game.move(("zone", 2), ("hand", 0), c, "draw", 0)
    assert s.zones == [[], [], []]
    assert s.hands[0][-1] == c
    assert s.piles[0] == pile and s.stock == stock
    assert sorted(s.hands[2] + [c]) == sorted(hand)


def test_move_to_the_stock_puts_the_card_on_top() -> None:
    """("stock",) as a destination puts the card on top of the stock."""
    game = crazy(seed=9)
    c = game.state.hands[0][0]
    game.move(("hand", 0), ("stock",), c)
    assert game.state.stock[-1] == c
    assert game.move(("stock",), ("hand", 0)) == c


@pytest.mark.parametrize("src", [("nowhere",), ("under", 0), ("deck", 0)])
def test_move_from_a_bad_place_is_refused(src: tuple) -> None:
    """Taking a card from a place that is not one is a ValueError naming it; nothing moves."""
    game = crazy(seed=10)
    before = game.state.copy()
    with pytest.raises(ValueError, match=r"cannot move a card from"):
        game.move(src, ("hand", 0))
    assert game.state == before


@pytest.mark.parametrize("dst", [("nowhere",), ("deck", 0)])
def test_move_to_a_bad_place_is_refused(dst: tuple) -> None:
    """Putting a card in a place that is not one is a ValueError naming it, before the card
    leaves where it was: nothing moves, no card is lost."""
    game = crazy(seed=10)
    before = game.state.copy()
    with pytest.raises(ValueError, match=r"cannot move a card from"):
        game.move(("stock",), dst)
    assert game.state == before


def test_substitution_hook_redirects_a_move() -> None:
    """A substitution sees each move first and may send the card elsewhere."""
    seen: list[tuple[int, tuple, tuple]] = []

    def draws_go_to_zone(engine: TableEngine, card: int, src: tuple, dst: tuple) -> tuple:
        seen.append((card, src, dst))
        return ("zone", dst[1]) if src == ("stock",) and dst[0] == "hand" else dst

    class Redirected(CrazyEightsGame):
        substitutions = (draws_go_to_zone,)

    game = Redirected(seed=3)
    s = game.state
    top = s.stock[-1]
    hand = list(s.hands[1])
    game.move(("stock",), ("hand", 1), event="draw", player=1)
    assert s.zones[1] == [top] and s.hands[1] == hand
    assert seen[-1] == (top, ("stock",), ("hand", 1))


# ------------------------------------------------------------------ piles
def test_set_pile_keeps_counts_equal_to_the_pile() -> None:
    """set_pile replaces a pile (bottom first) and its counts, a new bytearray of the card
    set's size with copies per card."""
    game = crazy(seed=11)
    s = game.state
    cards = [parse_card(t) for t in ("8S", "AC", "8S", "10H")]
    old = s.pile_counts[0]
    game.set_pile(0, cards)
    assert s.piles[0] == cards and s.piles[0] is not cards
    assert type(s.pile_counts[0]) is bytearray
    assert s.pile_counts[0] is not old
    assert len(s.pile_counts[0]) == len(game.cardset) == 54
    assert s.pile_counts[0][parse_card("8S")] == 2
    assert s.pile_counts[0] == counts_of(cards)
    assert game.top() == parse_card("10H")
    game.set_pile(0, [])
    assert s.piles[0] == [] and not any(s.pile_counts[0])


def test_pile_counts_follow_the_pile_through_play() -> None:
    """Through whole games (reshuffles included) the counts stay those of the pile."""
    for seed in range(3):
        game = crazy(seed=seed, num_players=3, num_decks=1)
        chooser = random.Random(seed)
        while not game.game_over:
            assert_pile_counts_agree(game)
            game.step(chooser.choice(game.legal_actions()))
        assert_pile_counts_agree(game)


# ------------------------------------------------------------------ the generator
def test_game_random_gives_the_numbers_of_random_random() -> None:
    """GameRandom draws exactly what random.Random with the same seed draws."""
    ours, theirs = GameRandom(12345), random.Random(12345)
    for _ in range(50):
        a, b = list(range(60)), list(range(60))
        ours.shuffle(a)
        theirs.shuffle(b)
        assert a == b
        assert ours.randrange(7) == theirs.randrange(7)
        assert ours.randrange(3, 1000, 7) == theirs.randrange(3, 1000, 7)
        assert ours.choice(a) == theirs.choice(b)
        assert ours.getrandbits(63) == theirs.getrandbits(63)
        assert ours.random() == theirs.random()
        assert ours.sample(a, 5) == theirs.sample(b, 5)
        assert ours.uniform(0, 3) == theirs.uniform(0, 3)
    assert ours.getstate() == theirs.getstate()


def test_game_random_state_is_shared_until_it_draws() -> None:
    """state() is the very same tuple while nothing was drawn, a new one after any draw,
    and always equal to getstate()."""
    rng = GameRandom(7)
    first = rng.state()
    assert rng.state() is first
    assert first == rng.getstate()
    for draw in (lambda: rng.random(), lambda: rng.getrandbits(5), lambda: rng.randrange(9),
                 lambda: rng.shuffle([1, 2, 3]), lambda: rng.choice("abc")):
        before = rng.state()
        draw()
        after = rng.state()
        assert after is not before and after != before
        assert after == rng.getstate()
        assert rng.state() is after
    rng.seed(7)
    assert rng.state() == first and rng.state() is not first


def test_game_random_setstate_adopts_the_tuple() -> None:
    """setstate with a taken state makes state() return that very tuple; the next draws are
    those that followed it."""
    rng = GameRandom(8)
    taken = rng.state()
    expected = [rng.random() for _ in range(5)]
    rng.setstate(taken)
    assert rng.state() is taken
    assert [rng.random() for _ in range(5)] == expected


def test_game_random_state_follows_gauss() -> None:
    """state() equals getstate() after every draw, gauss's cached value included."""
    rng = GameRandom(3)
    rng.gauss()
    rng.state()
    rng.gauss()
    assert rng.state() == rng.getstate()


# ------------------------------------------------------------------ snapshots
def test_snapshots_share_the_generator_state_until_it_draws() -> None:
    """Two snapshots with no play between share one generator state tuple; after the
    generator draws, a snapshot holds a new one."""
    game = crazy(seed=13)
    snap1, snap2 = game.snapshot(), game.snapshot()
    assert snap1[1] is snap2[1]
    assert snap1[0] is not snap2[0] and snap1[0] == snap2[0]
    game.rng.random()
    snap3 = game.snapshot()
    assert snap3[1] is not snap1[1]


def test_restore_after_drawing_brings_back_the_same_future() -> None:
    """A match played from a snapshot, restored after the generator drew (new hands are
    shuffled), replays the same actions into the same events, state and generator."""
    game = crazy(seed=14, num_players=2, num_decks=1, match=True, target_score=60)
    chooser = random.Random(14)
    for _ in range(5):
        game.step(chooser.choice(game.legal_actions()))
    snap = game.snapshot()
    start = len(game.events)
    actions = play_randomly(game, chooser)
    first_events, first_state = game.events, game.state.copy()
    kinds = {e.kind for e in first_events[start:]}
    assert "deal" in kinds or "reshuffle" in kinds  # the generator was used after the snapshot
    assert game.rng.getstate() != snap[1]
    first_draws = [game.rng.random() for _ in range(3)]

    game.restore(snap)
    assert len(game.events) == start
    assert game.rng.state() is snap[1]
    for a in actions:
        game.step(a)
    assert game.events == first_events
    assert game.state == first_state
    assert game.winners and game.terminated
    assert [game.rng.random() for _ in range(3)] == first_draws


def test_restore_undoes_everything_a_move_did() -> None:
    """After restore, a move's changes (hand, pile, counts, suit, log) are gone."""
    game = crazy(seed=15)
    snap = game.snapshot()
    state, events = game.state.copy(), game.events
    c = game.state.hands[0][0]
    game.move(("hand", 0), ("pile", 0), c, "play", 0)
    game.move(("stock",), ("zone", 1), event="draw", player=1)
    game.restore(snap)
    assert game.state == state
    assert game.events == events
    assert game.view(0).discard_counts == bytes(state.pile_counts[0])
    assert NO_CARD not in game.state.piles[0]


def test_forced_moves_are_kept_only_when_asked_and_asking_replays_the_same_game() -> None:
    """The record is off on the hot path; turned on, the deal's forced moves (seat 0 cannot
    follow the nine of hearts: its draw, then its pass) are found by replaying the record,
    and each later step keeps its own in a new list."""
    game = eights.engines.stacked_game("crazy_eights", ["2C 3C 4C", "2S 3S 5H"], "9H", "KD",
                                       hand_size=3)
    assert game.turn == 2 and game.forced_moves == ()
    events, legal = game.events, game.legal_actions()
    game.record_forced_moves()
    assert game.events == events and game.legal_actions() == legal
    dealt = game.forced_moves
    assert [(at, frame.seat, game.action_text(a)) for at, frame, a in dealt] == [
        (2, 0, "draw"), (3, 0, "pass")]
    assert [(e.kind, e.player) for e in game.events[2:4]] == [("draw", 0), ("pass", 0)]
    game.step("play 5H")  # seat 0 cannot follow it either: a draw of its own
    assert game.forced_moves is not dealt and len(dealt) == 2
    assert [frame.seat for _, frame, _ in game.forced_moves][:1] == [0]


# ------------------------------------------------------------ stacked games
#: per variant: (options, hands in seat order, turned up, stock top first)
STACKED = {
    "crazy_eights": ({"hand_size": 3}, ["7C QD 7H", "2S 3S 4S"], "9H", "KD"),
    "livery_eights": ({"hand_size": 3}, ["7C QD 7H", "2S 3S 4S", "5D 6D 9D"], "9H", "KD"),
    "baby_eating_eights": ({"hand_size": 2}, ["QD 2C", "JC JS"], "9D", "3H"),
    "jokers_of_death": ({"hand_size": 2}, ["4S 6H", "9S 10S", "BJ 9D"], "5S 6C 7D", "2H"),
    "crazier_eights": ({"hand_size": 2}, ["5P KO", "7G 2B"], "9B", "3O"),
}


def own_stacking_keywords(game) -> dict:
    """What each variant's own ``stacked_deck`` (the scenario tests') needs to know of the
    table: its deck, as that variant spells it."""
    if game.variant in ("crazy_eights", "livery_eights"):
        return {"num_decks": game.config.num_decks}
    if game.variant == "baby_eating_eights":
        return {"expanded": game.config.expanded}
    return {"config": game.config}


@pytest.mark.parametrize("variant", sorted(STACKED))
def test_stacked_game_deals_what_the_variants_own_stacked_deck_deals(variant):
    """``eights.stacked_game`` is one call for every variant, and its deck is the one the
    variant's scenario tests stack (the deal order, the turned-up cards, the stock)."""
    import eights

    options, hands, turned_up, stock = STACKED[variant]
    game = eights.stacked_game(variant, hands, turned_up, stock, first_player=1, seed=3,
                               **options)
    expected = type(game).stacked_deck(hands, turned_up, stock, first_player=1,
                                       **own_stacking_keywords(game))
    assert game.record().deck == tuple(game.cardset.text(c) for c in expected)
    assert game.num_players == len(hands) and game.record().seed == 3


@pytest.mark.parametrize(("hands", "options", "message"), [
    (["7C QD 7H", "2S 3S 4S"], {"hand_size": 5},
     r"stacked: hands of 3 cards, but this table deals 5; give 5-card hands or set "
     r"hand_size=3"),
    (["7C QD 7H"], {"hand_size": 3, "num_players": 2}, r"stacked: 1 hands for num_players=2"),
    (["7C 7C 7C", "7C 2S 3S"], {"hand_size": 3, "num_decks": 1},
     r"too many copies of 7C"),
    (["7C QD", "2S 3S 4S"], {"hand_size": 2}, r"every hand must have the same size"),
])
def test_stacked_game_refuses_hands_that_do_not_fit_the_table(hands, options, message):
    import eights
    from eights.config import ConfigError

    with pytest.raises(ConfigError, match=message):
        eights.stacked_game("crazy_eights", hands, "9H", **options)


# ------------------------------------------------------------------ the turn limit, a hand
@pytest.mark.parametrize("variant, options", [
    ("crazy_eights", {"match": True, "target_score": 100, "hand_size": 2, "max_turns": 20}),
    ("livery_eights", {"match": True, "hand_size": 2, "max_turns": 12}),
    ("jokers_of_death", {"match": True, "hand_size": 3, "target_score": 30, "max_turns": 25}),
    ("crazier_eights", {"games": 4, "hand_size": 2, "max_turns": 20}),
])
def test_the_turn_limit_counts_the_actions_of_each_hand(variant: str, options: dict) -> None:
    """In a match ``max_turns`` bounds each hand, not the match: ``hand_turns`` starts again
    at every deal (within the step whose actions dealt it), a game is cut only when a hand
    reaches the limit, and matches are cut in later hands, past that many actions in all."""
    limit, cut_later = options["max_turns"], 0
    for seed in range(40):
        game = eights.make_game(variant, seed=seed, **options)
        rng = random.Random(seed)
        hand, before = 0, 0
        while True:
            if game.state.hand_number != hand:
                hand = game.state.hand_number
                assert before < game.hand_start_turn <= game.turn
            if game.game_over:
                break
            view = game.view(game.current_player)
            assert view.hand_turns == view.turn - game.hand_start_turn < limit
            before = game.turn
            game.step(rng.choice(game.legal_actions()))
        assert game.truncated == (game.turn - game.hand_start_turn >= limit)
        cut_later += game.truncated and game.turn > limit
    assert cut_later > 0
