"""Scenario tests for the crazy_eights engine: every rule of the Crazy Eights rules sheet.

Each position is dealt from a stacked deck (``CrazyEightsGame.stacked_deck``;
its ``stock`` lists the stock top first) with a fixed first player, and every
action is checked against the exact state after it: hands, top card, suit to
follow, the player to act, the legal actions, the direction, scores, winners,
rewards and the event log. Tests that pin a reading of the rules say which
numbered item of docs/rules/crazy_eights.md they pin.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

import eights
from eights.cards import NO_CARD, SUITS, card, card_text, cards_text, parse_card, parse_cards
from eights.cards import standard_deck as build_deck
from eights.engines.base import Event, GameRecord
from eights.engines.crazy_eights import CrazyEightsGame

G = CrazyEightsGame
DRAW, PASS = 56, 57
STANDARD_HANDS = ["8S KH 4C JD 2H 9S QC", "5H 3D 7C AS 10D 6S 8D"]


# ------------------------------------------------------------------ helpers
def deal(hands, starter, stock=(), *, first_player=0, num_decks=2, seed=11, **config):
    """A game dealt from a stacked deck: ``hands`` by seat, ``stock`` top first."""
    return G.stacked(hands, starter, stock, first_player=first_player, seed=seed,
                     num_decks=num_decks, hand_size=len(parse_cards(hands[0])), **config)


def hand(game, seat):
    """A seat's cards in the order it got them (dealt, then drawn)."""
    return cards_text(game.state.hands[seat])


def top(game):
    return card_text(game.state.top)


def suit(game):
    return SUITS[game.state.suit]


def stock_top(game, k):
    """The next ``k`` cards of the stock, next one first."""
    return cards_text(game.state.stock[::-1][:k])


def log(game, start=0):
    """The referee's event log from ``start``, cards as text (None when there is none)."""
    return [(e.kind, e.player, None if e.card == NO_CARD else card_text(e.card), e.arg)
            for e in game.events[start:]]


def total_cards(game):
    s = game.state
    return Counter([c for h in s.hands for c in h] + s.stock + s.discard)


def standard_game(stock=(), **config):
    """Two players, seven cards, starter 4H; seat 0 to play."""
    return deal(STANDARD_HANDS, "4H", stock, **config)


# ------------------------------------------------------------------ setup
@pytest.mark.parametrize("num_players", range(2, 9))
def test_setup_two_to_eight_players_two_decks_seven_cards(num_players):
    game = eights.make_game("crazy_eights", seed=100 + num_players, num_players=num_players)
    assert game.config.num_decks == 2 and game.config.hand_size == 7
    assert total_cards(game) == Counter({c: 2 for c in range(52)})
    events = game.events
    draws = Counter(e.player for e in events if e.kind == "draw")
    assert not any(e.kind == "play" for e in events)  # only forced draws can precede a decision
    for seat in range(num_players):
        assert len(game.state.hands[seat]) == 7 + draws[seat]
    assert len(game.state.discard) == 1
    assert len(game.state.stock) == 104 - 7 * num_players - 1 - sum(draws.values())


def test_deal_is_one_card_at_a_time_from_the_first_player_then_the_starter():
    """Pins docs/rules/crazy_eights.md #1 (deal order, starter is the next card)."""
    order = parse_cards("AC 2C 3C 4C 5C 6C 7C 9D")
    rest = build_deck(2)
    for c in order:
        rest.remove(c)
    for first, expected in [
        (0, ["AC 4C", "2C 5C", "3C 6C"]),
        (1, ["3C 6C", "AC 4C", "2C 5C"]),
        (2, ["2C 5C", "3C 6C", "AC 4C"]),
    ]:
        game = eights.make_game("crazy_eights", deck=order + rest, first_player=first,
                                num_players=3, hand_size=2, seed=0)
        assert [hand(game, p) for p in range(3)] == expected
        assert top(game) == "7C" and suit(game) == "C"
        assert cards_text(game.state.discard) == "7C"
        assert stock_top(game, 1) == "9D"
        assert len(game.state.stock) == 104 - 7
        assert game.current_player == first
        assert game.state.direction == 1
        assert log(game) == [("deal", first, None, 0), ("starter", -1, "7C", -1)]


def test_first_player_comes_from_the_seeded_generator_unless_given():
    """Pins docs/rules/crazy_eights.md #1 (first player drawn from the engine's seeded rng)."""
    firsts = set()
    for seed in range(40):
        game = eights.make_game("crazy_eights", seed=seed, num_players=4)
        rng = random.Random(seed)
        first = rng.randrange(4)
        deck = build_deck(2)
        rng.shuffle(deck)
        assert game.events[0] == Event("deal", first, NO_CARD, 0)
        assert game.state.first == first
        dealt = [[deck[i * 4 + k] for i in range(7)] for k in range(4)]
        for k in range(4):
            assert game.state.hands[(first + k) % 4][:7] == dealt[k]
        assert game.events[1] == Event("starter", -1, deck[28], -1)
        again = eights.make_game("crazy_eights", seed=seed, num_players=4)
        assert again.state == game.state
        firsts.add(first)
    assert firsts == {0, 1, 2, 3}
    # A given first player takes no number from the generator: the shuffle is the first use.
    game = eights.make_game("crazy_eights", seed=3, num_players=4, first_player=2)
    deck = build_deck(2)
    random.Random(3).shuffle(deck)
    assert game.state.first == 2
    assert game.state.hands[2][:7] == [deck[i * 4] for i in range(7)]


@pytest.mark.parametrize(
    "starter, expected_legal",
    [
        ("8S", ["play 8C", "play 4S", "draw"]),
        ("JH", ["play 8C", "play 4H", "draw"]),
        ("QH", ["play 8C", "play 4H", "draw"]),
        ("KH", ["play 8C", "play 4H", "draw"]),
    ],
)
def test_starter_card_has_no_effect(starter, expected_legal):
    """Pins docs/rules/crazy_eights.md #2 (a starter 8 shows its own suit; J/Q/K do nothing)."""
    game = deal(["4S 4H 8C", "2D 9C 3S", "7D 10C 2C"], starter)
    assert top(game) == starter and suit(game) == starter[-1]
    assert game.current_player == 0
    assert game.state.direction == 1
    assert [hand(game, p) for p in range(3)] == ["4S 4H 8C", "2D 9C 3S", "7D 10C 2C"]
    assert game.view(0).phase == "play"
    assert game.legal_texts() == expected_legal
    assert log(game) == [("deal", 0, None, 0), ("starter", -1, starter, -1)]


# ------------------------------------------------------------------ gameplay 2-3
def test_players_take_turns_matching_rank_or_suit():
    """Pins docs/rules/crazy_eights.md #1 (play goes clockwise) and #3 (a forced draw).

    With ``may_keep_drawn_card`` the drawer of a playable card is asked; by default see
    :func:`test_a_playable_drawn_card_must_be_played_by_default`.
    """
    game = deal(["4C 9H KS", "2H 4D 7S", "5H 10D 9C"], "4H", ["10S"], may_keep_drawn_card=True)
    assert game.legal_texts() == ["play 4C", "play 9H", "draw"]  # rank 4, suit hearts
    game.step("play 4C")  # rank match: clubs now
    assert (top(game), suit(game), game.current_player) == ("4C", "C", 1)
    assert hand(game, 0) == "9H KS"
    assert game.legal_texts() == ["play 4D", "draw"]
    game.step("play 4D")
    assert (top(game), suit(game), game.current_player) == ("4D", "D", 2)
    assert game.legal_texts() == ["play 10D", "draw"]
    game.step("play 10D")
    # Seat 0 holds 9H KS: nothing matches 10D, so the engine draws for it (10S, playable).
    assert (top(game), suit(game), game.current_player) == ("10D", "D", 0)
    assert hand(game, 0) == "9H KS 10S"
    assert game.legal_texts() == ["play 10S", "pass"]
    assert log(game, 2) == [
        ("play", 0, "4C", -1), ("play", 1, "4D", -1), ("play", 2, "10D", -1),
        ("draw", 0, "10S", -1),
    ]
    assert game.record().actions == ("play 4C", "play 4D", "play 10D")


def test_two_copies_of_a_card_are_one_action():
    """Pins docs/rules/crazy_eights.md #13 (copies from the two decks are interchangeable)."""
    game = deal(["8S 8S 4H", "5C 6C 7C"], "9S")
    assert game.legal_texts() == ["play 8S", "draw"]
    game.step("play 8S")
    assert hand(game, 0) == "8S 4H"
    assert game.legal_texts() == ["suit C", "suit D", "suit H", "suit S"]
    game.step("suit C")
    game.step("play 5C")
    assert game.legal_texts() == ["play 8S", "draw"]


# ------------------------------------------------------------------ gameplay 4: eights
def test_eight_is_wild_and_its_player_names_the_suit():
    """Pins docs/rules/crazy_eights.md #4 and #12 (suit choice is its own decision; any suit)."""
    game = standard_game()
    assert game.legal_texts() == ["play 4C", "play 2H", "play KH", "play 8S", "draw"]
    game.step("play 8S")  # an 8 on a 4H: wild
    assert (top(game), game.current_player) == ("8S", 0)
    assert game.view(0).phase == "choose suit"
    assert game.legal_texts() == ["suit C", "suit D", "suit H", "suit S"]
    with pytest.raises(eights.IllegalActionError):
        game.step("play 4C")  # the suit must be named first
    game.step("suit D")
    assert (top(game), suit(game), game.current_player) == ("8S", "D", 1)
    # The next player follows diamonds or plays an 8; spades (the 8's suit) no longer count.
    assert game.legal_texts() == ["play 3D", "play 8D", "play 10D", "draw"]
    game.step("play 8D")
    game.step("suit D")  # naming the 8's own suit is allowed
    assert (top(game), suit(game), game.current_player) == ("8D", "D", 0)
    assert game.legal_texts() == ["play JD", "draw"]
    assert log(game, 2) == [
        ("play", 0, "8S", -1), ("suit", 0, None, 1), ("play", 1, "8D", -1), ("suit", 1, None, 1),
    ]


def test_suit_actions_only_right_after_an_eight():
    """Pins docs/rules/crazy_eights.md #4."""
    game = standard_game()
    for text in ("suit C", "suit H"):
        with pytest.raises(eights.IllegalActionError, match=f"'{text}' is not legal"):
            game.step(text)
    game.step("play 2H")
    assert not any(t.startswith("suit") for t in game.legal_texts())


# ------------------------------------------------------------------ drawing and passing
def test_may_draw_even_when_able_to_play_and_then_play_only_the_drawn_card():
    """Pins docs/rules/crazy_eights.md #3 (draw by choice; only the drawn card may follow)."""
    game = standard_game(["9H", "3C"], may_keep_drawn_card=True)
    assert "draw" in game.legal_texts() and "pass" not in game.legal_texts()
    game.step("draw")
    assert hand(game, 0) == "8S KH 4C JD 2H 9S QC 9H"
    assert game.current_player == 0
    assert game.legal_texts() == ["play 9H", "pass"]  # not 4C, 2H, KH or 8S, not another draw
    view = game.view(0)
    assert (view.phase, view.drawn_card) == ("after draw", parse_card("9H"))
    assert game.view(1).drawn_card == NO_CARD
    with pytest.raises(eights.IllegalActionError, match="'play KH' is not legal"):
        game.step("play KH")
    game.step("play 9H")
    assert (top(game), suit(game), game.current_player) == ("9H", "H", 1)
    assert hand(game, 0) == "8S KH 4C JD 2H 9S QC"
    assert stock_top(game, 1) == "3C"
    assert log(game, 2) == [("draw", 0, "9H", -1), ("play", 0, "9H", -1)]


def test_drawn_playable_card_may_be_kept_by_passing_with_the_option():
    """Pins docs/rules/crazy_eights.md #3 (may_keep_drawn_card=True: pass after a playable draw)."""
    game = standard_game(["9H", "3C"], may_keep_drawn_card=True)
    game.step("draw")
    game.step("pass")
    assert (top(game), suit(game), game.current_player) == ("4H", "H", 1)
    assert hand(game, 0) == "8S KH 4C JD 2H 9S QC 9H"
    assert game.legal_texts() == ["play 8D", "play 5H", "draw"]
    assert log(game, 2) == [("draw", 0, "9H", -1), ("pass", 0, None, -1)]


def test_unplayable_drawn_card_forces_a_pass_applied_by_the_engine():
    """Pins docs/rules/crazy_eights.md #3 (the forced pass is the engine's)."""
    game = standard_game(["3C", "9H"])
    game.step("draw")
    assert game.current_player == 1
    assert hand(game, 0) == "8S KH 4C JD 2H 9S QC 3C"
    assert top(game) == "4H"
    assert game.legal_texts() == ["play 8D", "play 5H", "draw"]
    assert log(game, 2) == [("draw", 0, "3C", -1), ("pass", 0, None, -1)]
    assert game.record().actions == ("draw",)
    assert game.turn == 2  # the decision and the forced pass


def test_no_playable_card_means_the_engine_draws_for_you():
    """Pins docs/rules/crazy_eights.md #3 (a forced draw, then a forced pass or a choice)."""
    game = deal(["2H 9H 9C 6D", "5S 3D 7D 4C"], "4H", ["KC", "JS", "3H"])
    game.step("play 2H")
    # Seat 1 has no heart, no 2 and no 8: the engine draws KC for it and passes.
    assert game.current_player == 0
    assert hand(game, 1) == "5S 3D 7D 4C KC"
    assert log(game, 2) == [("play", 0, "2H", -1), ("draw", 1, "KC", -1), ("pass", 1, None, -1)]
    assert game.legal_texts() == ["play 9H", "draw"]
    game.step("play 9H")
    # Again nothing for seat 1; it draws JS (no match on 9H either) and passes.
    assert hand(game, 1) == "5S 3D 7D 4C KC JS"
    assert game.current_player == 0
    game.step("play 9C")
    # On 9C seat 1 holds a club: a real choice again, and no pass before drawing.
    assert game.current_player == 1
    assert game.legal_texts() == ["play 4C", "play KC", "draw"]
    assert game.record().actions == ("play 2H", "play 9H", "play 9C")


def test_pass_is_never_offered_before_drawing():
    """Pins docs/rules/crazy_eights.md #3."""
    game = standard_game()
    assert "pass" not in game.legal_texts()
    with pytest.raises(eights.IllegalActionError) as err:
        game.step("pass")
    assert str(err.value) == ("crazy_eights: 'pass' is not legal for player 0 now; legal: "
                              "play 4C, play 2H, play KH, play 8S, draw")


def test_a_playable_drawn_card_must_be_played_by_default():
    """Pins docs/rules/crazy_eights.md #3: "P: Pass turn (only allowed after drawing if you
    still can't play)": a drawn card that fits is played, by the engine, as the only move."""
    game = standard_game(["9H", "3C"])
    n = len(game.events)
    game.step("draw")
    assert log(game, n) == [("draw", 0, "9H", -1), ("play", 0, "9H", -1)]
    assert (top(game), suit(game), game.current_player) == ("9H", "H", 1)
    assert hand(game, 0) == "8S KH 4C JD 2H 9S QC"
    assert game.record().actions == ("draw",)
    assert game.legal_texts() == ["play 8D", "play 5H", "draw"]
    # an unplayable drawn card is still followed by the engine's pass
    game = deal(["4C 9H KS", "2H 4D 7S", "5H 10D 9C"], "4H", ["10S", "3C"])
    for action in ("play 4C", "play 4D", "play 10D"):
        game.step(action)
    assert hand(game, 0) == "9H KS"  # seat 0 drew 10S and had to play it
    assert (top(game), game.current_player) == ("10S", 1)
    assert log(game, len(game.events) - 2) == [("draw", 0, "10S", -1), ("play", 0, "10S", -1)]


def test_drawn_eight_may_be_played_and_then_names_a_suit():
    """Pins docs/rules/crazy_eights.md #3 and #4: a drawn 8 is played, then names a suit."""
    game = standard_game(["8C"], may_keep_drawn_card=True)
    game.step("draw")
    assert game.legal_texts() == ["play 8C", "pass"]
    game.step("play 8C")
    assert game.legal_texts() == ["suit C", "suit D", "suit H", "suit S"]
    strict = standard_game(["8C"])
    strict.step("draw")  # by default the 8 is played at once; its player names the suit
    assert top(strict) == "8C" and strict.current_player == 0
    assert strict.legal_texts() == ["suit C", "suit D", "suit H", "suit S"]
    game.step("suit S")
    assert (top(game), suit(game), game.current_player) == ("8C", "S", 1)
    assert game.legal_texts() == ["play 8D", "play AS", "play 6S", "draw"]


# ------------------------------------------------------------------ exhausted stock
EXHAUST_HANDS = [
    "AH 2H 3H 5H 6H 7H 8H 9H 10H JH QH KH 4C 4D 4S 8C 8D 8S 2C 3C",
    "AD 2D 3D 5D 6D 7D 9D 10D JD QD KD AS 2S 3S 5S 6S 7S 9S 10S JS",
]
EXHAUST_STOCK = ["AC", "QS", "5C", "KS", "6C", "JC", "7C", "QC", "9C", "KC", "10C"]


def exhausted_game(**config):
    """One deck, 20 cards each, an 11-card stock; seat 1 can never match the starter 4H."""
    return deal(EXHAUST_HANDS, "4H", EXHAUST_STOCK, num_decks=1, seed=2024, **config)


def test_drawing_the_stock_dry_then_forced_pass_and_forced_play():
    """Pins docs/rules/crazy_eights.md #3, #8 and #11 (nothing to draw: pass, or must play)."""
    game = exhausted_game()
    assert len(game.state.stock) == 11
    for i in range(5):
        game.step("draw")  # seat 0 draws a club it cannot play; seat 1 is drawn for too
        assert game.current_player == 0
        assert log(game, 2 + 4 * i) == [
            ("draw", 0, EXHAUST_STOCK[2 * i], -1), ("pass", 0, None, -1),
            ("draw", 1, EXHAUST_STOCK[2 * i + 1], -1), ("pass", 1, None, -1),
        ]
    n = len(game.events)
    game.step("draw")  # the last stock card
    # The stock is empty and the discard pile is the starter alone: nothing can be drawn.
    # Seat 1 cannot play either, so it passes; seat 0 must play (no draw, no pass).
    assert log(game, n) == [("draw", 0, "10C", -1), ("pass", 0, None, -1),
                            ("pass", 1, None, -1)]
    assert game.state.stock == [] and cards_text(game.state.discard) == "4H"
    assert game.current_player == 0
    assert game.legal_texts() == [
        "play 4C", "play 8C", "play 4D", "play 8D", "play AH", "play 2H", "play 3H", "play 5H",
        "play 6H", "play 7H", "play 8H", "play 9H", "play 10H", "play JH", "play QH", "play KH",
        "play 4S", "play 8S",
    ]
    assert len(game.state.hands[0]) == 26 and len(game.state.hands[1]) == 25
    assert game.state.stuck == 1


def test_king_with_a_short_stock_draws_what_can_be_drawn():
    """Pins docs/rules/crazy_eights.md #6 (short stock), #8 (rebuild under the top card), #14."""
    game = exhausted_game()
    for _ in range(6):
        game.step("draw")
    n = len(game.events)
    game.step("play KH")
    # The stock is rebuilt from the discards under the K (just the 4H); then nothing is left.
    assert log(game, n) == [
        ("play", 0, "KH", -1), ("reshuffle", -1, None, 1), ("draw", 1, "4H", -1),
        ("skip", 1, None, 1),
    ]
    assert game.state.stock == [] and cards_text(game.state.discard) == "KH"
    assert hand(game, 1).endswith("JC QC KC 4H") and len(game.state.hands[1]) == 26
    assert game.current_player == 0  # two players: the K's player goes again
    assert "draw" not in game.legal_texts()


def test_exhausted_stock_is_rebuilt_from_the_discards_under_the_top_card():
    """Pins docs/rules/crazy_eights.md #8."""
    game = exhausted_game(may_keep_drawn_card=True)
    for _ in range(6):
        game.step("draw")
    game.step("play KH")
    game.step("play QH")  # skips seat 1: seat 0 again
    assert "draw" in game.legal_texts()  # the discards under QH can be drawn again
    game.step("play JH")  # two players: a skip, seat 0 again
    assert cards_text(game.state.discard) == "KH QH JH" and game.state.stock == []
    n = len(game.events)
    game.step("draw")
    rebuilt = parse_cards("KH QH")
    random.Random(2024).shuffle(rebuilt)  # the engine's generator, first used here
    drawn, left = rebuilt[-1], rebuilt[:-1]
    assert log(game, n) == [("reshuffle", -1, None, 2), ("draw", 0, card_text(drawn), -1)]
    assert game.state.stock == left
    assert cards_text(game.state.discard) == "JH" and top(game) == "JH"
    assert game.state.discard_counts[parse_card("JH")] == 1
    assert sum(game.state.discard_counts) == 1
    assert game.legal_texts() == [f"play {card_text(drawn)}", "pass"]
    assert total_cards(game) == Counter(range(52))


def blocked_game(hands, chosen_suit="H", **config):
    """Seat 0 plays 8S; then the stock and the discards under it are removed from play."""
    n = len(hands)
    game = deal(["8S 2C 3D"] + ["5C 9D KC", "6C 10D QC"][: n - 1], "4H", num_decks=1, **config)
    game.step("play 8S")
    s = game.state
    s.stock = []
    game.set_pile(0, [parse_card("8S")])
    for seat, cards in enumerate(hands):
        s.hands[seat] = parse_cards(cards)
    game.step(f"suit {chosen_suit}")
    return game


def test_blocked_table_lowest_hand_wins_and_scores_the_others():
    """Pins docs/rules/crazy_eights.md #8 (blocked hand; state set up by hand, see the doc)."""
    game = blocked_game(["2C 3D", "5C 9D KC"])
    assert game.game_over and game.terminated and not game.truncated
    assert game.winners == (0,)
    assert game.final_scores() == (34, 0)  # 5 + 9 + 20
    assert game.returns() == [1.0, -1.0]
    assert log(game, 3) == [
        ("suit", 0, None, 2), ("pass", 1, None, -1), ("pass", 0, None, -1),
        ("hand_over", 0, None, 1), ("score", 0, None, 34), ("score", 1, None, 0),
        ("game_over", -1, None, 1),
    ]


def test_blocked_table_tied_players_all_win_and_nobody_scores():
    """Pins docs/rules/crazy_eights.md #8 (a tie on a blocked table)."""
    game = blocked_game(["2C 3D", "AS 4C", "9D"])  # 5, 5 and 9 points
    assert game.winners == (0, 1)
    assert game.final_scores() == (0, 0, 0)
    assert game.returns() == [1.0, 1.0, -1.0]
    assert log(game, 3) == [
        ("suit", 0, None, 2), ("pass", 1, None, -1), ("pass", 2, None, -1),
        ("pass", 0, None, -1), ("hand_over", -1, None, 1), ("score", 0, None, 0),
        ("score", 1, None, 0), ("score", 2, None, 0), ("game_over", -1, None, 2),
    ]


# ------------------------------------------------------------------ J, Q, K
def test_jack_reverses_with_three_or_more_players():
    """Pins docs/rules/crazy_eights.md #5."""
    game = deal(["JH 5C 9C", "5H 2C 3S", "6H JC 4S"], "4H")
    game.step("play JH")
    assert (game.state.direction, game.current_player) == (-1, 2)
    assert game.legal_texts() == ["play JC", "play 6H", "draw"]
    game.step("play 6H")
    assert game.current_player == 1  # counter-clockwise: 2 -> 1
    game.step("play 5H")
    assert game.current_player == 0
    game.step("play 5C")
    assert game.current_player == 2
    game.step("play JC")  # a second J turns play clockwise again
    assert (game.state.direction, game.current_player) == (1, 0)
    assert game.legal_texts() == ["play 9C", "draw"]
    assert log(game, 2) == [
        ("play", 0, "JH", -1), ("reverse", 0, None, -1), ("play", 2, "6H", -1),
        ("play", 1, "5H", -1), ("play", 0, "5C", -1), ("play", 2, "JC", -1),
        ("reverse", 2, None, 1),
    ]


def test_jack_with_two_players_is_a_skip():
    """Pins docs/rules/crazy_eights.md #5 (two players: the J's player plays again)."""
    game = deal(["JH 9H 5C", "5H 2C 3S"], "4H")
    game.step("play JH")
    assert (game.state.direction, game.current_player) == (1, 0)
    assert game.legal_texts() == ["play 9H", "draw"]
    assert hand(game, 1) == "5H 2C 3S"
    assert log(game, 2) == [("play", 0, "JH", -1), ("skip", 1, None, -1)]


def test_queen_skips_the_next_player():
    """Pins docs/rules/crazy_eights.md #6."""
    game = deal(["QH 5C 9S", "5H 2C 3S", "6H QC 4S"], "4H")
    game.step("play QH")
    assert game.current_player == 2
    game.step("play QC")
    assert game.current_player == 1
    assert game.legal_texts() == ["play 2C", "draw"]
    assert log(game, 2) == [
        ("play", 0, "QH", -1), ("skip", 1, None, -1), ("play", 2, "QC", -1), ("skip", 0, None, -1),
    ]


def test_queen_skips_in_the_current_direction():
    """Pins docs/rules/crazy_eights.md #5 and #6."""
    game = deal(["JH 2C", "5H 3S", "6C 7S", "QH 9S"], "4H")
    game.step("play JH")
    assert (game.state.direction, game.current_player) == (-1, 3)
    game.step("play QH")  # skips seat 2, the next one counter-clockwise
    assert game.current_player == 1
    assert game.legal_texts() == ["play 5H", "draw"]
    assert log(game, 2) == [
        ("play", 0, "JH", -1), ("reverse", 0, None, -1), ("play", 3, "QH", -1),
        ("skip", 2, None, -1),
    ]


def test_queen_and_king_with_two_players_give_the_player_another_turn():
    """Pins docs/rules/crazy_eights.md #14."""
    game = deal(["QH KH 9H", "5C 2C 3S"], "4H", ["7D", "6S"])
    game.step("play QH")
    assert game.current_player == 0
    game.step("play KH")
    assert game.current_player == 0
    assert hand(game, 1) == "5C 2C 3S 7D 6S"
    assert game.legal_texts() == ["play 9H", "draw"]


def test_king_makes_the_next_player_draw_two_and_lose_the_turn():
    """Pins docs/rules/crazy_eights.md #6 (Kings do not stack)."""
    game = deal(["KH 5C 9S", "KC 2C 3S", "6H QC 4S"], "4H", ["2D", "7S", "9C"])
    game.step("play KH")
    # Seat 1 holds KC but may not answer with it: it draws two and is skipped.
    assert hand(game, 1) == "KC 2C 3S 2D 7S"
    assert game.current_player == 2
    assert stock_top(game, 1) == "9C"
    assert game.legal_texts() == ["play 6H", "draw"]
    assert log(game, 2) == [
        ("play", 0, "KH", -1), ("draw", 1, "2D", -1), ("draw", 1, "7S", -1),
        ("skip", 1, None, 2),
    ]


@pytest.mark.parametrize("king_draw, drawn", [(0, ""), (1, "2D"), (3, "2D 7S 9C")])
def test_king_draw_is_configurable(king_draw, drawn):
    """Pins docs/rules/crazy_eights.md #6 (config king_draw)."""
    game = deal(["KH 5C 9S", "KC 2C 3S", "6H QC 4S"], "4H", ["2D", "7S", "9C"],
                king_draw=king_draw)
    game.step("play KH")
    assert hand(game, 1) == ("KC 2C 3S " + drawn).strip()
    assert game.current_player == 2
    assert log(game)[-1] == ("skip", 1, None, king_draw)


# ------------------------------------------------------------------ going out and scoring
def card_points_table():
    game = standard_game()
    return [game.card_points(card(rank, suit)) for suit in range(4) for rank in range(1, 14)]


def test_card_points():
    """Pins docs/rules/crazy_eights.md #9 (8 = 50, J/Q/K = 20, A = 1, others face value)."""
    assert card_points_table() == [1, 2, 3, 4, 5, 6, 7, 50, 9, 10, 20, 20, 20] * 4


def test_playing_the_last_card_wins_and_scores_the_opponents_cards():
    """Pins docs/rules/crazy_eights.md #7, #9 and #10 (no suit is chosen for a last 8)."""
    game = deal(["QH JH JS QS QC JC 8D", "8C KD QS AS 10H 2C 7D"], "4H")
    for text in ("play QH", "play JH", "play JS", "play QS", "play QC", "play JC"):
        game.step(text)
        assert game.current_player == 0  # Q and J both skip the only opponent
    n = len(game.events)
    game.step("play 8D")
    assert game.terminated and game.game_over and not game.truncated
    assert game.current_player == -1 and game.legal_texts() == []
    assert game.state.hands[0] == [] and top(game) == "8D" and suit(game) == "D"
    assert hand(game, 1) == "8C KD QS AS 10H 2C 7D"
    assert game.winners == (0,)
    assert game.final_scores() == (110, 0)  # 50 + 20 + 20 + 1 + 10 + 2 + 7
    assert game.returns() == [1.0, -1.0]
    assert log(game, n) == [
        ("play", 0, "8D", -1), ("hand_over", 0, None, 0), ("score", 0, None, 110),
        ("score", 1, None, 0), ("game_over", -1, None, 1),
    ]
    with pytest.raises(eights.IllegalActionError, match="the game is over; no action is legal"):
        game.step("suit D")


@pytest.mark.parametrize("last", ["8H", "JH", "QH", "KH"])
def test_last_card_has_no_effect(last):
    """Pins docs/rules/crazy_eights.md #7 (no effect, no suit choice on the last card), #10."""
    game = deal([last, "5C", "KS"], "4H", ["2D", "7S"])
    stock_before = game.state.stock[:]
    game.step(f"play {last}")
    assert game.terminated and game.winners == (0,)
    assert [hand(game, p) for p in range(3)] == ["", "5C", "KS"]
    assert game.state.stock == stock_before and game.state.direction == 1
    assert game.final_scores() == (25, 0, 0)
    assert game.returns() == [1.0, -1.0, -1.0]
    assert [e[0] for e in log(game, 2)] == ["play", "hand_over", "score", "score", "score",
                                            "game_over"]


def test_score_rewards_are_relative_to_the_table_mean():
    """Pins docs/rules/crazy_eights.md #10 (reward="score")."""
    game = deal(["KH", "5C", "KS"], "4H", reward="score")
    game.step("play KH")
    assert game.final_scores() == (25, 0, 0)
    mean = 25 / 3
    assert game.returns() == pytest.approx([(25 - mean) / 100, -mean / 100, -mean / 100])
    assert sum(game.returns()) == pytest.approx(0.0)


# ------------------------------------------------------------------ match
def test_one_hand_is_the_game_by_default():
    """Pins docs/rules/crazy_eights.md #9 (match=False)."""
    game = deal(["KH", "5C"], "4H")
    game.step("play KH")
    assert game.terminated and game.final_scores() == (5, 0)  # far below 500
    assert game.state.hand_number == 0


def test_match_deals_the_next_hand_with_the_next_first_player():
    """Pins docs/rules/crazy_eights.md #9 (match=True, first player moves one seat)."""
    game = deal(["QH JH JS QS QC JC 8D", "8C KD QS AS 10H 2C 7D"], "4H", match=True)
    for text in ("play QH", "play JH", "play JS", "play QS", "play QC", "play JC"):
        game.step(text)
    n = len(game.events)
    game.step("play 8D")
    assert not game.game_over
    assert game.final_scores() == (110, 0)
    assert game.returns() == [0.0, 0.0] and game.winners == ()
    assert game.state.hand_number == 1 and game.state.first == 1
    assert log(game, n)[:5] == [
        ("play", 0, "8D", -1), ("hand_over", 0, None, 0), ("score", 0, None, 110),
        ("score", 1, None, 0), ("deal", 1, None, 1),
    ]
    starter = game.events[n + 5]
    assert starter.kind == "starter"
    assert total_cards(game) == Counter({c: 2 for c in range(52)})
    assert game.state.direction == 1


@pytest.mark.parametrize("target, over", [(110, True), (111, False)])
def test_match_ends_when_a_total_reaches_the_target(target, over):
    """Pins docs/rules/crazy_eights.md #9 (reaching the target ends the match)."""
    game = deal(["QH JH JS QS QC JC 8D", "8C KD QS AS 10H 2C 7D"], "4H", match=True,
                target_score=target)
    for text in ("play QH", "play JH", "play JS", "play QS", "play QC", "play JC", "play 8D"):
        game.step(text)
    assert game.terminated is over
    assert game.winners == ((0,) if over else ())
    assert game.returns() == ([1.0, -1.0] if over else [0.0, 0.0])


def play_out(game, pick=lambda legal, turn: legal[0], limit=100_000):
    decisions = 0
    while not game.game_over and decisions < limit:
        legal = game.legal_actions()
        game.step(pick(legal, game.turn))
        decisions += 1
    return decisions


def test_a_whole_seeded_match_to_the_target():
    """Pins docs/rules/crazy_eights.md #9 (hands until someone's total reaches the target)."""
    game = eights.make_game("crazy_eights", seed=8, num_players=3, match=True, target_score=150,
                            max_turns=50_000)
    play_out(game)
    assert game.terminated
    deals = [e.player for e in game.events if e.kind == "deal"]
    assert len(deals) >= 2
    assert deals == [(deals[0] + i) % 3 for i in range(len(deals))]
    scores = [0, 0, 0]
    for e in game.events:
        if e.kind == "score":
            scores[e.player] += e.arg
    assert tuple(scores) == game.final_scores()
    reached = [p for p in range(3) if scores[p] >= 150]
    assert game.winners == tuple(reached) and len(reached) == 1
    assert game.returns() == [1.0 if p in reached else -1.0 for p in range(3)]
    assert game.state.hand_number == len(deals) - 1


# ------------------------------------------------------------------ turn limit
def test_truncated_after_max_turns_applied_actions():
    """Pins docs/rules/crazy_eights.md #10 (truncation; forced actions count)."""
    game = standard_game(["3C"], max_turns=2)
    game.step("draw")  # the decision is turn 1, the forced pass turn 2
    assert game.truncated and not game.terminated and game.game_over
    assert game.current_player == -1 and game.legal_texts() == [] and game.legal_actions() == ()
    assert game.winners == () and game.returns() == [0.0, 0.0]
    assert game.final_scores() == (0, 0)
    assert log(game, 2) == [("draw", 0, "3C", -1), ("pass", 0, None, -1),
                            ("truncated", -1, None, 2)]
    assert int(game.legal_mask().sum()) == 0
    with pytest.raises(eights.IllegalActionError, match="the game is over"):
        game.step("play 8D")


# ------------------------------------------------------------------ errors, snapshots, replay
def test_illegal_action_names_it_and_the_legal_ones_and_changes_nothing():
    game = standard_game(["9H"])
    before, events, turn = game.state.copy(), game.events, game.turn
    for text, shown in [("play QC", "play QC"), ("play 5h", "play 5H"), ("suit H", "suit H"),
                        ("pass", "pass"), (57, "pass")]:
        with pytest.raises(eights.IllegalActionError) as err:
            game.step(text)
        assert str(err.value) == (
            f"crazy_eights: {shown!r} is not legal for player 0 now; "
            f"legal: play 4C, play 2H, play KH, play 8S, draw"
        )
        assert game.state == before and game.events == events and game.turn == turn
        assert game.legal_texts() == ["play 4C", "play 2H", "play KH", "play 8S", "draw"]
        assert game.record().actions == ()
    game.step("play 4c")
    assert (top(game), game.current_player) == ("4C", 1)


def test_legal_mask_matches_legal_actions():
    game = standard_game()
    mask = game.legal_mask()
    assert mask.shape == (58,) and mask.dtype.name == "int8"
    assert [i for i in range(58) if mask[i]] == [3, 27, 38, 46, DRAW]
    mask[0] = 1  # a fresh array: changing it changes nothing
    assert game.legal_mask()[0] == 0


def test_snapshot_and_restore_return_to_the_same_position():
    game = eights.make_game("crazy_eights", seed=31, num_players=3)

    def pick(legal, turn):
        return legal[turn % len(legal)]

    for _ in range(40):
        game.step(pick(game.legal_actions(), game.turn))
    snap = game.snapshot()
    state, events, turn, legal = game.state.copy(), game.events, game.turn, game.legal_texts()
    play_out(game, pick, limit=400)
    end_state, end_events = game.state.copy(), game.events
    assert end_events != events
    for _ in range(2):  # a snapshot can be restored more than once
        game.restore(snap)
        assert game.state == state and game.events == events
        assert game.turn == turn and game.legal_texts() == legal
        assert not game.game_over
        play_out(game, pick, limit=400)
        assert game.state == end_state and game.events == end_events
    assert any(e.kind == "reshuffle" for e in end_events)  # the generator was restored too


def test_snapshot_keeps_the_after_draw_decision():
    game = standard_game(["9H"], may_keep_drawn_card=True)
    game.step("draw")
    snap = game.snapshot()
    game.step("play 9H")
    game.restore(snap)
    assert game.legal_texts() == ["play 9H", "pass"] and game.view(0).drawn_card == parse_card("9H")
    assert game.record().actions == ("draw",)


def test_record_round_trips_through_json_and_replays_exactly():
    game = eights.make_game("crazy_eights", seed=77, num_players=4, king_draw=3)
    play_out(game, lambda legal, turn: legal[turn % len(legal)], limit=150)
    record = game.record()
    assert record.variant == "crazy_eights" and record.seed == 77
    assert record.deck is None and record.first_player is None
    assert record.config == game.config.to_dict()
    assert len(record.actions) == 150 or game.game_over
    again = GameRecord.from_json(record.to_json())
    assert again == record
    copy = eights.replay(again)
    assert copy.state == game.state and copy.events == game.events
    assert copy.turn == game.turn and copy.legal_texts() == game.legal_texts()
    assert copy.winners == game.winners and copy.game_over == game.game_over


def test_record_of_a_stacked_deck_game_replays_exactly():
    game = standard_game(["9H", "3C"], match=True, may_keep_drawn_card=True)
    for text in ("draw", "pass", "play 8D", "suit C", "play 4C", "play 7C"):
        game.step(text)
    record = GameRecord.from_json(game.record().to_json())
    assert record.first_player == 0
    assert record.actions == ("draw", "pass", "play 8D", "suit C", "play 4C", "play 7C")
    # dealt alternately from seat 0, then the starter, then the stock top first
    assert " ".join(record.deck[:16]) == "8S 5H KH 3D 4C 7C JD AS 2H 10D 9S 6S QC 8D 4H 9H"
    copy = eights.replay(record)
    assert copy.state == game.state and copy.events == game.events


def test_replay_refuses_another_variants_record():
    record = dataclasses.replace(standard_game().record(), variant="livery_eights")
    with pytest.raises(eights.ConfigError, match="record is for 'livery_eights'"):
        G.replay(record)


# ------------------------------------------------------------------ views and rendering
def test_views_show_only_the_seats_own_cards_and_hide_others_draws():
    """Pins docs/rules/crazy_eights.md #15 (drawn cards are private)."""
    game = deal(["KH 9H 5C", "5S 3D 7D"], "4H", ["2D", "7S"])
    game.step("play KH")
    v0, v1 = game.view(0), game.view(1)
    assert v0.hand == tuple(parse_cards("5C 9H"))
    assert v1.hand == tuple(parse_cards("2D 3D 7D 5S 7S"))  # sorted by suit, then rank
    assert v0.hand_sizes == v1.hand_sizes == (2, 5)
    assert v0.current_player == 0 and v0.legal_actions == game.legal_actions()
    assert v1.legal_actions == ()
    assert (v0.top, v0.active_suit, v0.direction, v0.stock_size) == (parse_card("KH"), 2, 1,
                                                                     104 - 7 - 2)
    assert v0.discard_counts[parse_card("KH")] == 1 and sum(v0.discard_counts) == 2
    hidden = [("draw", 1, NO_CARD, -1), ("draw", 1, NO_CARD, -1)]
    shown = [("draw", 1, parse_card("2D"), -1), ("draw", 1, parse_card("7S"), -1)]
    assert [tuple(e) for e in v0.history()[3:5]] == hidden
    assert [tuple(e) for e in v1.history()[3:5]] == shown
    assert v0.history()[2] == Event("play", 0, parse_card("KH"), -1)
    assert [tuple(e) for e in game.events[3:5]] == shown
    with pytest.raises(ValueError, match="seat 2 is not at this table"):
        game.view(2)


def test_a_seats_view_does_not_change_when_only_hidden_cards_change():
    """Pins docs/rules/crazy_eights.md #15."""
    a = deal(["KH 9H 5C", "5S 3D 7D"], "4H", ["2D", "7S"])
    b = deal(["KH 9H 5C", "6S 2D 9D"], "4H", ["QC", "10S"])
    for game in (a, b):
        game.step("play KH")
        game.step("draw")
    assert a.view(0) == b.view(0)
    assert a.view(0).history() == b.view(0).history()
    assert a.view(1) != b.view(1)


def test_the_view_shows_a_drawn_card_only_to_its_drawer():
    """Pins docs/rules/crazy_eights.md #15."""
    game = standard_game(["9H"], may_keep_drawn_card=True)
    game.step("draw")
    assert game.view(0).drawn_card == parse_card("9H")
    assert game.view(1).drawn_card == NO_CARD
    assert game.view(1).history()[-1] == Event("draw", 0, NO_CARD, -1)
    assert game.view(0).history()[-1] == Event("draw", 0, parse_card("9H"), -1)


def test_render_shows_the_table_and_hides_other_hands_from_a_seat():
    game = standard_game()
    assert game.render() == "\n".join([
        "crazy_eights  hand 1  turn 0",
        "top 4H  suit H  stock 89  direction clockwise",
        "> player 0: 4C QC JD 2H KH 8S 9S  (score 0)",
        "  player 1: 7C 3D 8D 10D 5H AS 6S  (score 0)",
        "legal: play 4C, play 2H, play KH, play 8S, draw",
    ])
    assert game.render(0).splitlines()[3] == "  player 1: 7 cards  (score 0)"
    assert game.render(0).splitlines()[-1].startswith("legal: ")
    assert game.render(1).splitlines()[2:] == [
        "> player 0: 7 cards  (score 0)",
        "  player 1: 7C 3D 8D 10D 5H AS 6S  (score 0)",
    ]
    game.step("play 8S")
    game.step("suit C")
    assert game.render().splitlines()[1] == "top 8S  suit C  stock 89  direction clockwise"


def test_render_at_the_end_names_the_winners():
    game = deal(["KH", "5C"], "4H")
    game.step("play KH")
    assert game.render().splitlines() == [
        "crazy_eights  hand 1  turn 1  (game over)",
        "top KH  suit H  stock 101  direction clockwise",
        "  player 0: no cards  (score 5)",
        "  player 1: 5C  (score 0)",
        "winners: player 0",
    ]


# ------------------------------------------------------------------ public draw record
def test_a_draw_shows_the_table_what_its_player_did_not_play_on():
    """The view records the suit to follow and the top rank at a seat's last draw until it
    plays again: everyone at the table sees it; the observation encodes it."""

    h, c = SUITS.index("H"), SUITS.index("C")
    game = deal(["10C 3C 4C 5C 6C 7C 9C", "2D 3D 4D 5D 6D 7D 9D"], "10H",
                stock="JS QS 4H KS", first_player=0)
    assert game.view(1).drew_on_suit == (-1, -1)
    game.step("draw")  # seat 0 draws JS and must pass; seat 1 can only draw (QS) and pass
    for seat in (0, 1):
        view = game.view(seat)
        assert (view.drew_on_suit, view.drew_on_rank) == ((h, h), (10, 10))
    game.step("play 10C")  # seat 0 plays: its record clears; seat 1 draws 4H on clubs
    assert hand(game, 1).endswith("QS 4H")
    view = game.view(0)
    assert (view.drew_on_suit, view.drew_on_rank) == ((-1, c), (-1, 10))
    encoder = game.encoder(game.config)
    obs = encoder.encode_view(view)
    assert obs[encoder.offsets["drew_suit"] + c] == 1.0
    assert obs[encoder.offsets["drew_rank"] + 10 - 1] == 1.0
    assert obs[encoder.offsets["drew_suit"]:encoder.offsets["drew_rank"] + 13].sum() == 2.0
