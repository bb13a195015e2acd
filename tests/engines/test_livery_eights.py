"""Scenario tests for livery_eights: every rule of the Livery Eights rules from a stacked deck.

Each test that pins an interpretation says "Pins docs/rules/livery_eights.md #N".
Positions are written as hands, starter and stock top (first card drawn first);
the rest of the stock lies below in card-id order.
"""

from __future__ import annotations

import random

import pytest

import eights
from eights.cards import NUM_STANDARD, RANK, SUITS, card_text, cards_text, parse_card
from eights.engines.base import GameRecord
from eights.engines.livery_eights import LiveryEightsConfig, LiveryEightsGame

SUIT_TEXTS = ["suit C", "suit D", "suit H", "suit S"]


# ---------------------------------------------------------------- helpers
def new_game(hands: list[str], starter: str, stock: str = "", *, first: int = 0,
             **options) -> LiveryEightsGame:
    """A game dealt exactly ``hands`` (seat order), with ``starter`` turned and ``stock`` on top."""
    return LiveryEightsGame.stacked(hands, starter, stock.split(), first_player=first,
                                    hand_size=len(hands[0].split()), **options)


def hands(game: LiveryEightsGame) -> list[str]:
    return [cards_text(h) for h in game.state.hands]


def events_from(game: LiveryEightsGame, start: int) -> list[tuple]:
    """Events from index ``start`` on, cards as text ('' for none)."""
    return [(e.kind, e.player, "" if e.card < 0 else card_text(e.card), e.arg)
            for e in game.events[start:]]


def table(game: LiveryEightsGame) -> dict:
    """The public essentials of the position, for one exact comparison."""
    s = game.state
    return dict(top=card_text(s.top), suit=SUITS[s.suit], current=game.current_player,
                phase=game.view(0).phase, pending=s.pending[0], direction=s.direction,
                offender=game.view(0).offender, legal=game.legal_texts())


def play_randomly(game: LiveryEightsGame, rng: random.Random) -> None:
    while not game.game_over:
        game.step(rng.choice(game.legal_actions()))


# Two 16-card-per-hand, three-player tables leave a 3-card stock, so it can run out.
EMPTY_STOCK_TABLE = dict(
    hands=["2C 3C 4C 5C 6C 7C 9C 10C JC QC KC AC 8C 7D 9D 10D",
           "JD QD KD 8D AH 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH",
           "AS 3S 4S 5S 6S 7S 9S 10S JS QS KS AD 3D 4D 5D 6D"],
    starter="2H", stock="2D 2S 8S", must_stack_twos=False,  # seat 0 chooses to stack
)
BLOCKED_TABLE = dict(
    hands=["2S 8C 5S 9S QS 8S AC 3C 4C 5C 6C 7C 9C 10C JC QC",
           "2C 3S 6S 10S 8H KC AD 3D 4D 5D 6D 7D 9D 10D JD QD",
           "4S 7S JS AS 8D KD AH 3H 4H 5H 6H 7H 9H 10H JH QH"],
    starter="KS", stock="2D 2H KH", must_stack_twos=False,
)
BLOCKING_PLAY = ["play 2S", "play 2C", "play 8C", "suit S", "play 3S", "play 4S", "play 5S",
                 "play 6S", "play 7S", "play 9S", "play 10S", "play JS", "play QS", "play AS",
                 "play 8S", "suit S", "suit S", "suit S"]


# ---------------------------------------------------------------- the deal
def test_deal_singly_five_each_starting_with_first_player():
    """Pins docs/rules/livery_eights.md #1: five cards singly, first player first."""
    h = ["3C 4D 5H 6S 7C", "9C 10D JH KS AS", "3D 4H 5S 6C 7D"]
    deck = LiveryEightsGame.stacked_deck(hands=h, starter="KH", first_player=1)
    assert cards_text(deck[:4]) == "9C 3D 3C 10D"  # seat 1, 2, 0, then seat 1 again
    game = eights.make_game("livery_eights", deck=deck, first_player=1, num_players=3)
    assert game.config.hand_size == 5
    assert hands(game) == h
    assert len(game.state.stock) == 52 - 15 - 1
    assert game.state.first == 1
    assert table(game) == dict(top="KH", suit="H", current=1, phase="play", pending=0,
                               direction=1, offender=-1, legal=["play JH", "play KS"])
    assert events_from(game, 0) == [("deal", 1, "", 0), ("starter", -1, "KH", -1)]


def test_starter_eight_goes_to_bottom_of_stock_and_another_is_turned():
    """Pins docs/rules/livery_eights.md #2: every 8 turned up goes under the stock."""
    game = new_game(["3C 4D 5H 6S 7C", "9C 10D JH KS AS"], "8H", "8C 5D 9D")
    s = game.state
    assert cards_text(s.stock[:2]) == "8C 8H"  # bottom of the stock, 8H first then 8C under it
    assert card_text(s.stock[-1]) == "9D"
    assert len(s.stock) == 41
    assert cards_text(s.discard) == "5D"
    assert table(game) == dict(top="5D", suit="D", current=0, phase="play", pending=0,
                               direction=1, offender=-1, legal=["play 4D", "play 5H"])
    assert events_from(game, 0) == [
        ("deal", 0, "", 0), ("starter_to_bottom", -1, "8H", -1),
        ("starter_to_bottom", -1, "8C", -1), ("starter", -1, "5D", -1),
    ]


def test_starter_stays_an_eight_when_only_eights_are_left():
    """Pins docs/rules/livery_eights.md #2: a stock of only 8s cannot loop; the last 8 stays."""
    others = [card_text(c) for c in range(NUM_STANDARD) if RANK[c] != 8]
    h = [" ".join(others[6 * k: 6 * k + 6]) for k in range(8)]
    game = new_game(h, "8C", "8D 8H 8S")
    assert card_text(game.state.top) == "8S"
    # Seats 0-2 find nothing to play on the 8S and draw the buried 8s; 3-5 miss their turns.
    assert events_from(game, 0) == [
        ("deal", 0, "", 0), ("starter_to_bottom", -1, "8C", -1),
        ("starter_to_bottom", -1, "8D", -1), ("starter_to_bottom", -1, "8H", -1),
        ("starter", -1, "8S", -1), ("draw", 0, "8C", -1), ("draw", 1, "8D", -1),
        ("draw", 2, "8H", -1), ("pass", 3, "", -1), ("pass", 4, "", -1), ("pass", 5, "", -1),
    ]
    assert game.current_player == 6
    assert game.legal_texts() == ["play AS", "play 2S", "play 3S", "play 4S", "play 5S",
                                  "play 6S"]


def test_starter_ace_makes_first_player_miss_their_turn():
    """Pins docs/rules/livery_eights.md #3: a turned-up Ace skips the first player."""
    game = new_game(["3C 4D 5H 6S 7C", "9C 10D JH KS AS", "3D 4C 5S 6C 7D"], "AH")
    assert table(game) == dict(top="AH", suit="H", current=1, phase="play", pending=0,
                               direction=1, offender=-1, legal=["play JH", "play AS"])
    assert events_from(game, 0)[1:] == [("starter", -1, "AH", -1), ("skip", 0, "", -1)]
    two = new_game(["3C 4D 5H 6S 7C", "9C 10D JH KS AS"], "AH")
    assert two.current_player == 1


def test_starter_queen_reverses_and_the_dealers_other_neighbour_starts():
    """Pins docs/rules/livery_eights.md #3: a turned-up Queen reverses play from the dealer."""
    h3 = ["3C 4D 5H 6H 7C", "9C 10D JH KS QS", "3D 4C 5S 6C 7D"]
    game = new_game(h3, "QH")  # dealer is seat 2; reversed, seat 1 plays first
    assert table(game) == dict(top="QH", suit="H", current=1, phase="play", pending=0,
                               direction=-1, offender=-1, legal=["play JH", "play QS"])
    start = len(game.events)
    game.step("play JH")
    assert game.current_player == 0  # counter-clockwise from seat 1
    assert events_from(game, start) == [("play", 1, "JH", -1)]
    four = new_game(["3C 4D 5H 6H 7C", "9C 10D JH KS QS", "3D 4C 5S 6C 7D",
                     "2C 2D 9H 10H 10C"], "QH", first=1)
    assert (four.state.first, four.current_player, four.state.direction) == (1, 3, -1)
    two = new_game(["3C 4D 5H 6H 7C", "9C 10D JH KS AS"], "QH")
    assert (two.current_player, two.state.direction) == (0, -1)
    assert events_from(two, 0)[1:] == [("starter", -1, "QH", -1), ("reverse", -1, "", -1)]


def test_starter_two_makes_first_player_pick_up_two_or_stack():
    """Pins docs/rules/livery_eights.md #3 and #10: a turned-up 2 is a pending pick-up of 2.

    By default the first player, holding a 2, must stack it (the engine plays it); with
    ``must_stack_twos=False`` they choose between stacking and picking up.
    """
    deal = (["2C 5H 9C 3D 4C", "6C 7C 9D 10C JC"], "2H", "KD QS JS 10S 9H")
    strict = new_game(*deal)
    assert strict.record().actions == ()
    assert hands(strict) == ["5H 9C 3D 4C", "6C 7C 9D 10C JC KD QS JS 10S"]
    assert table(strict)["legal"] == ["play 4C", "play 9C"]
    game = new_game(*deal, must_stack_twos=False)
    assert table(game) == dict(top="2H", suit="H", current=0, phase="play", pending=2,
                               direction=1, offender=-1, legal=["play 2C", "draw"])
    assert events_from(game, 0)[2:] == [("pending", 0, "", 2)]
    start = len(game.events)
    game.step("play 2C")  # seat 1 has no 2: the pick-up of 4 is forced
    assert hands(game) == ["5H 9C 3D 4C", "6C 7C 9D 10C JC KD QS JS 10S"]
    assert table(game) == dict(top="2C", suit="C", current=0, phase="play", pending=0,
                               direction=1, offender=-1, legal=["play 4C", "play 9C"])
    assert events_from(game, start) == [
        ("play", 0, "2C", -1), ("pending", 1, "", 4), ("draw", 1, "KD", -1),
        ("draw", 1, "QS", -1), ("draw", 1, "JS", -1), ("draw", 1, "10S", -1),
        ("pick_up", 1, "", 4),
    ]


# ---------------------------------------------------------------- matching, drawing
def test_match_rank_or_suit_and_play_goes_clockwise():
    """Pins docs/rules/livery_eights.md #4: match rank or suit; play starts clockwise."""
    game = new_game(["5H KC 9S 3D 4S", "6H 5D 10D JS 3S", "9H AD 4C 5S 6S"], "KH")
    assert table(game)["legal"] == ["play KC", "play 5H"]
    game.step("play 5H")
    assert table(game) == dict(top="5H", suit="H", current=1, phase="play", pending=0,
                               direction=1, offender=-1, legal=["play 5D", "play 6H"])
    game.step("play 6H")
    assert (game.current_player, game.legal_texts()) == (2, ["play 9H", "play 6S"])
    game.step("play 6S")
    assert (game.current_player, game.legal_texts()) == (0, ["play 4S", "play 9S"])
    assert hands(game) == ["KC 9S 3D 4S", "5D 10D JS 3S", "9H AD 4C 5S"]


def test_cannot_play_picks_up_one_card_and_that_is_the_turn():
    """Pins docs/rules/livery_eights.md #4: the forced pick-up ends the turn even if playable."""
    game = new_game(["3C 4D 5S 6S 7C", "9C 10D JH KS AS"], "KH", "5H 2D")
    assert hands(game) == ["3C 4D 5S 6S 7C 5H", "9C 10D JH KS AS"]
    assert table(game) == dict(top="KH", suit="H", current=1, phase="play", pending=0,
                               direction=1, offender=-1, legal=["play JH", "play KS"])
    assert len(game.state.stock) == 40
    assert game.turn == 1 and game.record().actions == ()  # applied by the engine itself
    assert events_from(game, 2) == [("draw", 0, "5H", -1)]


def test_if_you_can_lay_a_card_you_must():
    """Pins docs/rules/livery_eights.md #4: no draw while a card is playable."""
    game = new_game(["5H KD 5S 6S 7C", "9C 10D JH KS AS"], "KH")
    assert game.legal_texts() == ["play KD", "play 5H"]
    with pytest.raises(eights.IllegalActionError, match="'draw' is not legal"):
        game.step("draw")
    forced = new_game(["5H 4D 5S 6S 7C", "9C 10D JH 9H AS"], "KH")  # one playable card
    assert events_from(forced, 2) == [("play", 0, "5H", -1)]
    assert (forced.current_player, forced.record().actions) == (1, ())
    assert forced.legal_texts() == ["play 9H", "play JH"]


def test_empty_stock_means_the_player_misses_their_turn():
    """Pins docs/rules/livery_eights.md #5 and #10: pick-up capped by the stock, then a pass."""
    game = new_game(**EMPTY_STOCK_TABLE)
    assert table(game)["legal"] == ["play 2C", "draw"]
    start = len(game.events)
    game.step("play 2C")  # seat 1 has no 2: picks up what the stock holds (3 of 4)
    assert events_from(game, start) == [
        ("play", 0, "2C", -1), ("pending", 1, "", 4), ("draw", 1, "2D", -1),
        ("draw", 1, "2S", -1), ("draw", 1, "8S", -1), ("pick_up", 1, "", 3),
        ("pass", 2, "", -1),
    ]
    assert game.state.stock == [] and game.state.stuck == 1
    assert [len(h) for h in game.state.hands] == [15, 19, 16]
    assert table(game) == dict(
        top="2C", suit="C", current=0, phase="play", pending=0, direction=1, offender=-1,
        legal=["play AC", "play 3C", "play 4C", "play 5C", "play 6C", "play 7C", "play 8C",
               "play 9C", "play 10C", "play JC", "play QC", "play KC"])


def test_pending_pick_up_from_an_empty_stock_still_ends_the_turn():
    """Pins docs/rules/livery_eights.md #5 and #10: it counts as a move, not a missed turn."""
    game = new_game(**EMPTY_STOCK_TABLE)
    for action in ("play 2C", "play 8C", "suit D", "play 2D"):
        game.step(action)
    assert events_from(game, len(game.events) - 3) == [
        ("play", 1, "2D", -1), ("pending", 2, "", 2), ("pick_up", 2, "", 0),
    ]
    assert game.state.stuck == 0 and len(game.state.hands[2]) == 16
    assert table(game) == dict(top="2D", suit="D", current=0, phase="play", pending=0,
                               direction=1, offender=-1,
                               legal=["play 7D", "play 9D", "play 10D"])


def test_reshuffle_option_rebuilds_the_stock_from_the_discards():
    """Pins docs/rules/livery_eights.md #5: reshuffle_empty_stock=True rebuilds the stock."""
    game = new_game(**EMPTY_STOCK_TABLE, reshuffle_empty_stock=True)
    start = len(game.events)
    game.step("play 2C")  # the 4th card comes from the rebuilt stock: the starter 2H
    assert events_from(game, start) == [
        ("play", 0, "2C", -1), ("pending", 1, "", 4), ("draw", 1, "2D", -1),
        ("draw", 1, "2S", -1), ("draw", 1, "8S", -1), ("reshuffle", -1, "", 1),
        ("draw", 1, "2H", -1), ("pick_up", 1, "", 4), ("pass", 2, "", -1),
    ]
    assert cards_text(game.state.discard) == "2C" and game.state.stock == []
    assert game.current_player == 0


def test_blocked_table_ends_the_hand_and_the_lowest_hand_wins():
    """Pins docs/rules/livery_eights.md #5 and #13: nobody can move -> everyone scores."""
    game = new_game(**BLOCKED_TABLE)
    for action in BLOCKING_PLAY:
        assert not game.game_over
        game.step(action)
    assert game.terminated and game.winners == (0,)
    assert hands(game) == [
        "AC 3C 4C 5C 6C 7C 9C 10C JC QC",
        "KC AD 3D 4D 5D 6D 7D 9D 10D JD QD",
        "KD AH 3H 4H 5H 6H 7H 9H 10H JH QH 2D 2H KH",
    ]
    assert game.final_scores() == (65, 75, 89)
    assert game.returns() == [1.0, -1.0, -1.0]
    assert events_from(game, len(game.events) - 8) == [
        ("pass", 0, "", -1), ("pass", 2, "", -1), ("pass", 1, "", -1),
        ("hand_over", 0, "", 1), ("score", 0, "", 65), ("score", 1, "", 75),
        ("score", 2, "", 89), ("game_over", -1, "", 1),
    ]


def test_blocked_table_tie_shares_the_win():
    """Pins docs/rules/livery_eights.md #5 and #13: equal lowest hands share the win."""
    tied = dict(BLOCKED_TABLE)
    tied["hands"] = [h.replace("5C", "XX").replace("10D", "5C").replace("XX", "10D")
                     for h in BLOCKED_TABLE["hands"]]
    game = new_game(**tied, match=True, match_games=1)
    for action in BLOCKING_PLAY:
        game.step(action)
    assert game.terminated and game.winners == (0, 1)
    assert game.final_scores() == (70, 70, 89)
    assert game.returns() == [1.0, 1.0, -1.0]


# ---------------------------------------------------------------- trick cards
def test_eight_is_wild_and_its_player_names_the_suit():
    """Pins docs/rules/livery_eights.md #6: an 8 goes on anything; four suit choices."""
    game = new_game(["8S 4H 5C 6C 7C", "9C 10D JD KS AS"], "KH")
    assert game.legal_texts() == ["play 4H", "play 8S"]
    game.step("play 8S")
    assert table(game) == dict(top="8S", suit="S", current=0, phase="choose suit", pending=0,
                               direction=1, offender=-1, legal=SUIT_TEXTS)
    snap = game.snapshot()
    start = len(game.events)
    game.step("suit D")
    assert table(game) == dict(top="8S", suit="D", current=1, phase="play", pending=0,
                               direction=1, offender=-1, legal=["play 10D", "play JD"])
    assert events_from(game, start) == [("suit", 0, "", 1)]
    game.restore(snap)
    game.step("suit S")  # naming the 8's own suit keeps it ("if you wish")
    assert (game.current_player, game.legal_texts()) == (1, ["play AS", "play KS"])


def test_other_trick_cards_must_follow_suit_or_rank():
    """Pins docs/rules/livery_eights.md #7 and #8: A, Q, 2 match normally; Ace skip with two."""
    game = new_game(["AS QS 2S AH 9H", "9C 10D JD KD 3C"], "5H")
    assert game.legal_texts() == ["play AH", "play 9H"]
    start = len(game.events)
    game.step("play AH")  # two players: the Ace's player plays again
    assert events_from(game, start) == [("play", 0, "AH", -1), ("skip", 1, "", -1)]
    assert table(game) == dict(top="AH", suit="H", current=0, phase="play", pending=0,
                               direction=1, offender=-1, legal=["play 9H", "play AS"])


def test_ace_next_player_misses_their_turn():
    """Pins docs/rules/livery_eights.md #8."""
    game = new_game(["AH 9H 3C 4C 5C", "6C 7C 9C 10C JC", "KH 3H 3D 4D 6D"], "5H")
    assert game.legal_texts() == ["play 5C", "play AH", "play 9H"]
    start = len(game.events)
    game.step("play AH")
    assert events_from(game, start) == [("play", 0, "AH", -1), ("skip", 1, "", -1)]
    assert table(game) == dict(top="AH", suit="H", current=2, phase="play", pending=0,
                               direction=1, offender=-1, legal=["play 3H", "play KH"])


def test_queen_reverses_the_direction_of_play():
    """Pins docs/rules/livery_eights.md #9."""
    game = new_game(["QH 9H 3C 4C 6C", "KD 7H 9D 10D JD", "KH 3H 3S 4S 5S"], "5H")
    start = len(game.events)
    game.step("play QH")
    assert events_from(game, start) == [("play", 0, "QH", -1), ("reverse", 0, "", -1)]
    assert table(game) == dict(top="QH", suit="H", current=2, phase="play", pending=0,
                               direction=-1, offender=-1, legal=["play 3H", "play KH"])
    game.step("play KH")
    assert (game.current_player, game.legal_texts()) == (1, ["play KD", "play 7H"])


def test_queen_with_two_players_the_other_player_plays_next():
    """Pins docs/rules/livery_eights.md #9: with two players a reverse is not a skip."""
    game = new_game(["QH 9H 3C 4C 6C", "QD 7H 9D 10D JD"], "5H")
    game.step("play QH")
    assert table(game) == dict(top="QH", suit="H", current=1, phase="play", pending=0,
                               direction=-1, offender=-1, legal=["play QD", "play 7H"])


def test_two_next_player_picks_up_two_and_does_not_discard():
    """Pins docs/rules/livery_eights.md #10."""
    game = new_game(["2H 9H 3H 4C 6C", "KD 7D 9D 10D JD"], "5H", "AS KS QS")
    start = len(game.events)
    game.step("play 2H")
    assert events_from(game, start) == [
        ("play", 0, "2H", -1), ("pending", 1, "", 2), ("draw", 1, "AS", -1),
        ("draw", 1, "KS", -1), ("pick_up", 1, "", 2),
    ]
    assert hands(game) == ["9H 3H 4C 6C", "KD 7D 9D 10D JD AS KS"]
    assert table(game) == dict(top="2H", suit="H", current=0, phase="play", pending=0,
                               direction=1, offender=-1, legal=["play 3H", "play 9H"])


STACK_TABLE = dict(hands=["2H 9H 3H 4C 6C", "2C 5H 8D 10D JD", "KD 7D 9D 10S JS"],
                   starter="KH", stock="AS KS QS JC 10C")


def test_twos_stack_and_the_next_player_picks_up_four():
    """Pins docs/rules/livery_eights.md #10: only a 2 goes on a pending 2, not even an 8.

    With ``must_stack_twos=False`` the stack is a choice (``draw`` is offered beside the 2).
    """
    game = new_game(**STACK_TABLE, must_stack_twos=False)
    game.step("play 2H")
    assert table(game) == dict(top="2H", suit="H", current=1, phase="play", pending=2,
                               direction=1, offender=-1, legal=["play 2C", "draw"])
    with pytest.raises(eights.IllegalActionError, match="'play 8D' is not legal"):
        game.step("play 8D")
    start = len(game.events)
    game.step("play 2C")
    assert events_from(game, start) == [
        ("play", 1, "2C", -1), ("pending", 2, "", 4), ("draw", 2, "AS", -1),
        ("draw", 2, "KS", -1), ("draw", 2, "QS", -1), ("draw", 2, "JC", -1),
        ("pick_up", 2, "", 4),
    ]
    assert hands(game) == ["9H 3H 4C 6C", "5H 8D 10D JD", "KD 7D 9D 10S JS AS KS QS JC"]
    assert table(game) == dict(top="2C", suit="C", current=0, phase="play", pending=0,
                               direction=1, offender=-1, legal=["play 4C", "play 6C"])


def test_a_player_holding_a_two_may_pick_up_instead_with_the_loose_option():
    """Pins docs/rules/livery_eights.md #10: with must_stack_twos=False stacking is a choice."""
    game = new_game(**STACK_TABLE, must_stack_twos=False)
    game.step("play 2H")
    start = len(game.events)
    game.step("draw")
    assert events_from(game, start) == [
        ("draw", 1, "AS", -1), ("draw", 1, "KS", -1), ("pick_up", 1, "", 2),
        ("draw", 2, "QS", -1),  # seat 2 cannot play on the 2H: a normal one-card pick-up
    ]
    assert hands(game) == ["9H 3H 4C 6C", "2C 5H 8D 10D JD AS KS", "KD 7D 9D 10S JS QS"]
    assert table(game) == dict(top="2H", suit="H", current=0, phase="play", pending=0,
                               direction=1, offender=-1, legal=["play 3H", "play 9H"])


def test_a_player_holding_a_two_must_stack_it_by_default():
    """Pins docs/rules/livery_eights.md #10: "if you can lay a card, you must" holds on a 2.

    A player facing a pending 2 who holds a 2 is not offered ``draw``: with one 2 the engine
    plays it, with two the player chooses which.
    """
    assert LiveryEightsConfig().must_stack_twos is True
    game = new_game(**STACK_TABLE)
    start = len(game.events)
    game.step("play 2H")  # seat 1's only legal action is its 2C; seat 2 then picks up 4
    assert game.record().actions == ("play 2H",)
    assert events_from(game, start) == [
        ("play", 0, "2H", -1), ("pending", 1, "", 2), ("play", 1, "2C", -1),
        ("pending", 2, "", 4), ("draw", 2, "AS", -1), ("draw", 2, "KS", -1),
        ("draw", 2, "QS", -1), ("draw", 2, "JC", -1), ("pick_up", 2, "", 4),
    ]
    assert hands(game) == ["9H 3H 4C 6C", "5H 8D 10D JD", "KD 7D 9D 10S JS AS KS QS JC"]
    assert game.current_player == 0
    two_twos = dict(STACK_TABLE, hands=["2H 9H 3H 4C 6C", "2C 2D 8D 10D JD",
                                        "KD 7D 9D 10S JS"])
    game = new_game(**two_twos)
    game.step("play 2H")
    assert table(game)["legal"] == ["play 2C", "play 2D"]


# ---------------------------------------------------------------- last card
def test_saying_last_card_after_the_penultimate_discard():
    """Pins docs/rules/livery_eights.md #11: the call is the player's next decision."""
    game = new_game(["5H 9H", "6H 7H"], "KH")
    game.step("play 5H")
    assert hands(game) == ["9H", "6H 7H"]
    assert table(game) == dict(top="5H", suit="H", current=0, phase="last card", pending=0,
                               direction=1, offender=-1, legal=["pass", "last card"])
    start = len(game.events)
    game.step("last card")
    assert events_from(game, start) == [("last_card", 0, "", -1)]
    assert table(game) == dict(top="5H", suit="H", current=1, phase="play", pending=0,
                               direction=1, offender=-1, legal=["play 6H", "play 7H"])


CALL_TABLE = dict(hands=["5H 9H", "6H 7H", "6D 7D"], starter="KH", stock="AC 2C 3C 4C")


def test_silent_last_card_is_challenged_by_the_next_player():
    """Pins docs/rules/livery_eights.md #11: a challenge costs the silent player two cards."""
    game = new_game(**CALL_TABLE)
    game.step("play 5H")
    start = len(game.events)
    game.step("pass")
    assert events_from(game, start) == [("no_call", 0, "", -1)]
    assert table(game) == dict(top="5H", suit="H", current=1, phase="challenge", pending=0,
                               direction=1, offender=0, legal=["pass", "challenge"])
    assert game.view(2).offender == 0 and game.view(2).legal_actions == ()
    start = len(game.events)
    game.step("challenge")
    assert events_from(game, start) == [
        ("challenge", 1, "", 0), ("draw", 0, "AC", -1), ("draw", 0, "2C", -1),
        ("penalty", 0, "", 2),
    ]
    assert hands(game) == ["9H AC 2C", "6H 7H", "6D 7D"]
    assert table(game) == dict(top="5H", suit="H", current=1, phase="play", pending=0,
                               direction=1, offender=-1, legal=["play 6H", "play 7H"])
    # the penalty cards are hidden from everyone but the offender
    assert [e.card for e in game.view(1).history() if e.kind == "draw"] == [-1, -1]
    assert [card_text(e.card) for e in game.view(0).history() if e.kind == "draw"] == [
        "AC", "2C"]


def test_challenge_window_goes_round_in_turn_order():
    """Pins docs/rules/livery_eights.md #11: each other player may challenge, next one first."""
    game = new_game(**CALL_TABLE)
    game.step("play 5H")
    game.step("pass")
    game.step("pass")
    assert table(game) == dict(top="5H", suit="H", current=2, phase="challenge", pending=0,
                               direction=1, offender=0, legal=["pass", "challenge"])
    start = len(game.events)
    game.step("challenge")
    assert events_from(game, start) == [
        ("challenge", 2, "", 0), ("draw", 0, "AC", -1), ("draw", 0, "2C", -1),
        ("penalty", 0, "", 2),
    ]
    assert game.current_player == 1 and game.view(0).offender == -1


def test_nobody_challenges_and_play_continues():
    """Pins docs/rules/livery_eights.md #11: when all decline the silent player keeps one card."""
    game = new_game(**CALL_TABLE)
    game.step("play 5H")
    game.step("pass")
    start = len(game.events)
    game.step("pass")
    game.step("pass")
    assert events_from(game, start) == [("no_challenge", 1, "", 0), ("no_challenge", 2, "", 0)]
    assert hands(game) == ["9H", "6H 7H", "6D 7D"]
    assert table(game) == dict(top="5H", suit="H", current=1, phase="play", pending=0,
                               direction=1, offender=-1, legal=["play 6H", "play 7H"])


def test_last_card_call_comes_after_the_eights_suit_choice():
    """Pins docs/rules/livery_eights.md #11."""
    game = new_game(["8S 9H", "6H 7H"], "KH")
    assert game.legal_texts() == ["play 9H", "play 8S"]
    game.step("play 8S")
    assert game.view(0).phase == "choose suit"
    game.step("suit H")
    assert table(game) == dict(top="8S", suit="H", current=0, phase="last card", pending=0,
                               direction=1, offender=-1, legal=["pass", "last card"])
    game.step("last card")
    assert (game.current_player, game.legal_texts()) == (1, ["play 6H", "play 7H"])


def test_ace_as_penultimate_card_call_then_play_again_and_go_out():
    """Pins docs/rules/livery_eights.md #8 and #11: the Ace's skip applies after the call."""
    game = new_game(["AH 9H", "6D 7D"], "KH")
    game.step("play AH")
    assert table(game)["phase"] == "last card" and game.current_player == 0
    start = len(game.events)
    game.step("last card")  # seat 0 plays again; its 9H is forced and wins
    assert events_from(game, start) == [
        ("last_card", 0, "", -1), ("play", 0, "9H", -1), ("hand_over", 0, "", 0),
        ("score", 0, "", 0), ("score", 1, "", 13), ("game_over", -1, "", 1),
    ]
    assert game.winners == (0,) and game.final_scores() == (0, 13)


def test_challenge_window_includes_the_skipped_player():
    """Pins docs/rules/livery_eights.md #11: after an Ace the skipped player may challenge."""
    game = new_game(["AH 9H", "6D 7D", "6H 7H"], "KH")
    game.step("play AH")
    game.step("pass")
    assert (game.current_player, game.view(0).offender) == (1, 0)
    game.step("pass")
    assert game.current_player == 2 and game.view(0).phase == "challenge"
    game.step("pass")
    assert table(game) == dict(top="AH", suit="H", current=2, phase="play", pending=0,
                               direction=1, offender=-1, legal=["play 6H", "play 7H"])


def test_challenge_window_after_a_queen_runs_the_new_way():
    """Pins docs/rules/livery_eights.md #11: the window follows the direction after the Queen."""
    game = new_game(["QH 9H", "6D 7D", "6H 7H"], "KH")
    game.step("play QH")
    game.step("pass")
    assert (game.current_player, game.state.direction) == (2, -1)
    game.step("pass")
    assert game.current_player == 1
    game.step("pass")
    assert table(game) == dict(top="QH", suit="H", current=2, phase="play", pending=0,
                               direction=-1, offender=-1, legal=["play 6H", "play 7H"])


def test_two_as_penultimate_card_pending_waits_for_the_call():
    """Pins docs/rules/livery_eights.md #10 and #11."""
    game = new_game(["2H 9H", "6D 7D"], "KH", "AC 3C 4C")
    game.step("play 2H")
    assert table(game) == dict(top="2H", suit="H", current=0, phase="last card", pending=2,
                               direction=1, offender=-1, legal=["pass", "last card"])
    start = len(game.events)
    game.step("last card")  # seat 1 picks up 2 (forced), then seat 0's 9H is forced
    assert events_from(game, start)[:5] == [
        ("last_card", 0, "", -1), ("draw", 1, "AC", -1), ("draw", 1, "3C", -1),
        ("pick_up", 1, "", 2), ("play", 0, "9H", -1),
    ]
    assert game.winners == (0,) and game.final_scores() == (0, 6 + 7 + 1 + 3)


@pytest.mark.parametrize(("penalty", "drawn"), [(0, ""), (3, "AC 2C 3C")])
def test_last_card_penalty_option(penalty, drawn):
    """Pins docs/rules/livery_eights.md #11: last_card_penalty sets the cards picked up."""
    game = new_game(**CALL_TABLE, last_card_penalty=penalty)
    game.step("play 5H")
    game.step("pass")
    game.step("challenge")
    assert hands(game)[0] == ("9H " + drawn).strip()
    assert events_from(game, len(game.events) - 1) == [("penalty", 0, "", penalty)]
    assert game.current_player == 1


# ---------------------------------------------------------------- going out, scoring
def test_discarding_the_last_card_ends_the_game_without_its_trick():
    """Pins docs/rules/livery_eights.md #12: a last 2 makes nobody pick up."""
    game = new_game(["2H 9H", "6H 7D"], "KH")
    game.step("play 9H")
    game.step("last card")  # seat 1's 6H is forced; it now holds one card
    assert table(game)["phase"] == "last card" and game.current_player == 1
    start = len(game.events)
    game.step("last card")  # seat 0's 2H is forced: out
    assert events_from(game, start) == [
        ("last_card", 1, "", -1), ("play", 0, "2H", -1), ("hand_over", 0, "", 0),
        ("score", 0, "", 0), ("score", 1, "", 7), ("game_over", -1, "", 1),
    ]
    assert game.terminated and game.winners == (0,) and game.state.pending[0] == 0
    assert hands(game) == ["", "7D"]
    assert game.returns() == [1.0, -1.0]
    assert game.current_player == -1 and game.legal_actions() == ()


def test_last_card_an_eight_needs_no_suit():
    """Pins docs/rules/livery_eights.md #12."""
    game = new_game(["8S 9H", "6H 7D"], "KH")
    game.step("play 9H")
    game.step("last card")
    game.step("last card")
    assert game.winners == (0,)
    assert events_from(game, len(game.events) - 5) == [
        ("play", 0, "8S", -1), ("hand_over", 0, "", 0), ("score", 0, "", 0),
        ("score", 1, "", 7), ("game_over", -1, "", 1),
    ]
    assert "suit" not in [e.kind for e in game.events]


def test_an_eight_left_in_hand_scores_thirty():
    """Pins docs/rules/livery_eights.md #13: an 8 left in hand scores 30 points."""
    game = new_game(["9H", "8D"], "KH")  # seat 0's 9H is forced and goes out at once
    assert game.terminated and game.winners == (0,)
    assert game.final_scores() == (0, 30)


def test_card_points():
    """Pins docs/rules/livery_eights.md #13: 8 = 30, A = 1, 2-7 and 9 face, 10/J/Q/K = 10."""
    game = new_game(["9H", "8D"], "KH")
    expected = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 30, "9": 9,
                "10": 10, "J": 10, "Q": 10, "K": 10}
    for rank, points in expected.items():
        for suit in SUITS:
            assert game.card_points(parse_card(rank + suit)) == points


def test_score_reward_prefers_low_scores():
    """Pins docs/rules/livery_eights.md #13: reward='score' rewards low points."""
    game = new_game(["9H", "8D"], "KH", reward="score")
    assert game.returns() == [0.15, -0.15]


# ---------------------------------------------------------------- the match
def test_match_deal_moves_clockwise_and_totals_add_up():
    """Pins docs/rules/livery_eights.md #1 and #13: the next game's first player is one seat on."""
    game = new_game(["9H 5H", "3C 4C"], "KH", "2S", match=True, match_games=2, seed=11)
    game.step("play 9H")
    start = len(game.events)
    game.step("last card")  # seat 1 must pick up 2S, seat 0's 5H goes out: game 1 is over
    assert events_from(game, start)[:8] == [
        ("last_card", 0, "", -1), ("draw", 1, "2S", -1), ("play", 0, "5H", -1),
        ("hand_over", 0, "", 0), ("score", 0, "", 0), ("score", 1, "", 9),
        ("deal", 1, "", 1), ("starter", -1, "KH", -1),  # game 2 is shuffled from seed 11
    ]
    s = game.state
    assert (s.hand_number, s.first, s.scores, game.current_player) == (1, 1, [0, 9], 1)
    play_randomly(game, random.Random(5))
    check_match_result(game, games=2)


def check_match_result(game: LiveryEightsGame, games: int) -> None:
    """Totals are the per-hand scores summed; the lowest totals win; one deal per game."""
    n = game.num_players
    assert game.terminated
    assert sum(e.kind == "hand_over" for e in game.events) == games
    totals = [0] * n
    for e in game.events:
        if e.kind == "score":
            totals[e.player] += e.arg
    assert tuple(totals) == game.final_scores()
    best = min(totals)
    assert game.winners == tuple(p for p in range(n) if totals[p] == best)
    firsts = [e.player for e in game.events if e.kind == "deal"]
    assert firsts == [(firsts[0] + k) % n for k in range(games)]


def test_default_match_is_five_games():
    """Pins docs/rules/livery_eights.md #13: 'add up the total after 5 games'."""
    assert LiveryEightsConfig().match_games == 5
    game = eights.make_game("livery_eights", num_players=3, match=True, seed=2024)
    play_randomly(game, random.Random(1))
    check_match_result(game, games=5)


# ---------------------------------------------------------------- engine contract
def test_action_space():
    """Pins docs/rules/livery_eights.md #14: 60 actions in a fixed order."""
    texts = LiveryEightsGame.actions.texts
    assert len(texts) == 60
    assert (texts[0], texts[51], texts[52], texts[55]) == ("play AC", "play KS", "suit C",
                                                          "suit S")
    assert texts[56:] == ("draw", "pass", "last card", "challenge")


@pytest.mark.parametrize("action", ["play 9C", "suit H", "challenge", "last card", "draw",
                                    "fly", 60, -1])
def test_illegal_actions_raise_and_leave_the_game_unchanged(action):
    game = new_game(["5H KC 9S 3D 4S", "6H 5D 10D JS 3S", "9H AD 4C 5S 6S"], "KH")
    before = (game.state.copy(), game.render(), len(game.events), game.turn, game.record())
    with pytest.raises(eights.IllegalActionError) as err:
        game.step(action)
    message = str(err.value)
    assert "play KC, play 5H" in message
    if isinstance(action, str) and action != "fly":
        assert f"{action!r} is not legal for player 0" in message
    else:
        assert repr(action) in message
    after = (game.state, game.render(), len(game.events), game.turn, game.record())
    assert after == before


def test_illegal_action_in_the_challenge_window():
    game = new_game(**CALL_TABLE)
    game.step("play 5H")
    game.step("pass")
    before = game.state.copy()
    with pytest.raises(eights.IllegalActionError, match="'play 6H' is not legal for player 1 "
                                                          "now; legal: pass, challenge"):
        game.step("play 6H")
    assert game.state == before


@pytest.mark.parametrize(("option", "value"), [
    ("num_players", 1), ("num_players", 9), ("num_decks", 0), ("num_decks", 5),
    ("hand_size", 0), ("match_games", 0), ("last_card_penalty", -1),
    ("reshuffle_empty_stock", 1), ("must_stack_twos", "yes"), ("match_games", 2.5),
    ("reward", "points"), ("max_turns", 0),
])
def test_bad_config_values_name_the_option(option, value):
    with pytest.raises(eights.ConfigError, match=rf"livery_eights: {option}="):
        eights.make_game("livery_eights", **{option: value})


def test_unknown_option_and_too_small_deck():
    with pytest.raises(eights.ConfigError, match=r"unknown option.*jokers"):
        eights.make_game("livery_eights", jokers=2)
    with pytest.raises(eights.ConfigError, match="num_players=8 with hand_size=7 needs 57"):
        eights.make_game("livery_eights", num_players=8, hand_size=7)


def test_config_defaults():
    """Pins docs/rules/livery_eights.md #14."""
    cfg = LiveryEightsConfig()
    assert cfg.to_dict() == dict(
        num_players=2, num_decks=1, hand_size=5, match=False, reward="win_loss",
        max_turns=2000, match_games=5, reshuffle_empty_stock=False, must_stack_twos=True,
        last_card_penalty=2,
    )
    assert LiveryEightsGame.low_score_wins is True


def test_snapshot_restore_inside_the_challenge_window():
    game = new_game(**CALL_TABLE)
    game.step("play 5H")
    game.step("pass")
    snap = game.snapshot()
    before = (game.state.copy(), game.render(), game.events, game.legal_texts())
    game.step("challenge")
    assert game.state != before[0]
    game.restore(snap)
    assert (game.state, game.render(), game.events, game.legal_texts()) == before
    game.step("pass")  # the restored game plays on normally
    assert (game.current_player, game.view(0).offender) == (2, 0)


def test_record_replays_exactly():
    game = new_game(**BLOCKED_TABLE)
    for action in BLOCKING_PLAY[:8]:
        game.step(action)
    record = GameRecord.from_json(game.record().to_json())
    assert record.actions == tuple(BLOCKING_PLAY[:8])
    again = eights.replay(record)
    assert again.state == game.state and again.events == game.events
    assert again.legal_texts() == game.legal_texts()


def test_seeded_match_replays_exactly():
    game = eights.make_game("livery_eights", num_players=4, match=True, match_games=2,
                            seed=99, must_stack_twos=True, reshuffle_empty_stock=True)
    play_randomly(game, random.Random(3))
    again = eights.replay(game.record())
    assert again.state == game.state and again.events == game.events
    assert again.winners == game.winners


def test_turn_limit_truncates():
    game = new_game(**BLOCKED_TABLE, max_turns=3)
    game.step("play 2S")
    game.step("play 2C")  # the forced pick-up is the 3rd applied action
    assert game.truncated and not game.terminated
    assert game.returns() == [0.0, 0.0, 0.0]
    assert game.events[-1] == eights.engines.Event("truncated", -1, -1, 3)


@pytest.mark.parametrize("options", [
    dict(num_players=2),
    dict(num_players=5, must_stack_twos=True, last_card_penalty=4),
    dict(num_players=8, hand_size=6, reshuffle_empty_stock=True),
    dict(num_players=3, num_decks=2, hand_size=10, match=True, match_games=2),
    dict(num_players=4, hand_size=12),
])
def test_random_games_keep_every_card_and_end(options):
    """Property check: cards conserved, a real choice at every decision, every game ends."""
    rng = random.Random(7)
    for seed in range(40):
        game = eights.make_game("livery_eights", seed=seed, **options)
        total = 52 * game.config.num_decks
        while not game.game_over:
            s = game.state
            assert sum(map(len, s.hands)) + len(s.stock) + len(s.discard) == total
            assert sum(s.discard_counts) == len(s.discard)
            assert len(game.legal_actions()) >= 2
            view = game.view(game.current_player)
            assert view.legal_actions == game.legal_actions()
            game.step(rng.choice(game.legal_actions()))
        assert game.terminated or game.turn >= game.config.max_turns
