"""Scenario tests for jokers_of_death: every rule of the Jokers of Death rules from a stacked deck.

Each test that pins an interpretation says "Pins docs/rules/jokers_of_death.md #N".
Positions are written as hands (seat order), the three turned-up cards (pile 1 first)
and the stock top (first card drawn first); the rest of the stock lies below in card-id
order. Seats are numbered clockwise and play goes counter-clockwise: at three players
seat 0 is followed by seat 2, then seat 1. A few positions no short deal reaches (an
empty stock) are set up by :func:`set_position`, which places every card of the deck.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

import eights
from eights.cards import BLACK_JOKER, RED_JOKER, SUIT, SUITS, card_text, cards_text, parse_cards
from eights.engines.jokers_of_death import JokersOfDeathConfig, JokersOfDeathGame
from eights.engines.table import Frame
from tests.conftest import all_cards

G = JokersOfDeathGame
SUIT_TEXTS = ["suit C", "suit D", "suit H", "suit S"]
PILES = "5H 6C 7D"


# ---------------------------------------------------------------- helpers
def new_game(hands: list[str], piles: str = PILES, stock: str = "", *, first: int = 0,
             seed: int = 1, **options) -> JokersOfDeathGame:
    """A game dealt exactly ``hands`` (seat order), ``piles`` turned up, ``stock`` on top."""
    return G.stacked(hands, piles, stock.split(), first_player=first, seed=seed,
                     hand_size=len(hands[0].split()), **options)


def set_position(game: JokersOfDeathGame, hands: list[str], tops: list[str], stock: str,
                 current: int) -> None:
    """Put ``game`` in a position no short deal reaches: ``hands`` (seat order), each pile
    topped by ``tops`` (bottom first, top last), ``stock`` (top first), ``current``'s
    ordinary turn. Every other card of the deck goes under pile 1."""
    s = game.state
    s.hands = [parse_cards(h) for h in hands]
    s.stock = parse_cards(stock)[::-1]
    piles = [parse_cards(t) for t in tops]
    listed = Counter(c for h in s.hands for c in h) + Counter(s.stock)
    for p in piles:
        listed += Counter(p)
    deck = Counter(game.full_deck())
    assert not listed - deck, "more copies than the deck holds"
    piles[0] = sorted((deck - listed).elements()) + piles[0]
    n, k = game.num_players, len(piles)
    for i, cards in enumerate(piles):
        game.set_pile(i, cards)
        s.suits[i] = SUIT[cards[-1]]
    s.pending, s.owners, s.killed = [0] * k, [-1] * k, [0] * k
    s.knocked, s.stuck, s.aces, s.tens = [0] * n, 0, 0, 0
    s.todo = (1 << k) - 1
    s.agenda = [Frame("turn", current)]
    assert all_cards(game) == deck
    game._settle()



def step(game: JokersOfDeathGame, *actions: str) -> int:
    """Apply ``actions``; return the event index before them."""
    start = len(game.events)
    for a in actions:
        game.step(a)
    return start


def hands(game: JokersOfDeathGame) -> list[str]:
    """Each seat's hand, sorted (suit, then rank)."""
    return [cards_text(sorted(h)) for h in game.state.hands]


def sizes(game: JokersOfDeathGame) -> list[int]:
    return [len(h) for h in game.state.hands]


def events_from(game: JokersOfDeathGame, start: int = 0, *kinds: str) -> list[tuple]:
    """Events from ``start`` on (only ``kinds`` if given), cards as text ('' for none)."""
    return [(e.kind, e.player, "" if e.card < 0 else card_text(e.card), e.arg)
            for e in game.events[start:] if not kinds or e.kind in kinds]


def takes(game: JokersOfDeathGame, start: int = 0) -> list[tuple[int, int]]:
    """(player, cards taken) of each penalty take from ``start`` on."""
    return [(e.player, e.arg) for e in game.events[start:] if e.kind == "take"]


def table(game: JokersOfDeathGame) -> dict:
    """The public essentials of the position, for one exact comparison ("--": an empty
    space, after a pile was picked up)."""
    v = game.view(0)
    return dict(tops=" ".join(card_text(c) if c >= 0 else "--" for c in v.pile_tops),
                suits="".join(SUITS[x] if x >= 0 else "-" for x in v.pile_suits),
                pending=list(v.pile_pending),
                to_play="".join("x" if t else "." for t in v.to_play),
                current=game.current_player, phase=v.phase, legal=game.legal_texts())


# ---------------------------------------------------------------- #1 players and decks
def test_two_decks_and_always_two_jokers():
    """Pins docs/rules/jokers_of_death.md #1: 2 x 52 cards and two Jokers, 20 cards each."""
    game = G(JokersOfDeathConfig(), seed=3)
    deck = Counter(game.full_deck())
    assert sum(deck.values()) == 106 == game.config.deck_size
    assert deck[RED_JOKER] == 1 and deck[BLACK_JOKER] == 1
    assert all(deck[c] == 2 for c in range(52))
    assert sizes(game) == [20, 20, 20]
    assert len(game.state.piles) == 3
    assert len(game.state.stock) == 106 - 60 - 3
    more = G(JokersOfDeathConfig(num_players=6, num_decks=3), seed=3)
    deck = Counter(more.full_deck())
    assert sum(deck.values()) == 158 and deck[RED_JOKER] == deck[BLACK_JOKER] == 1
    assert sizes(more) == [20] * 6


def test_a_table_the_decks_cannot_deal_is_refused_with_the_numbers():
    """Pins docs/rules/jokers_of_death.md #1: 20 each and three piles must fit the deck."""
    assert JokersOfDeathConfig(num_players=5).deck_size == 106  # 5 x 20 + 3 = 103 fits
    with pytest.raises(eights.ConfigError, match=r"needs 123 cards .* hold 106"):
        JokersOfDeathConfig(num_players=6)
    with pytest.raises(eights.ConfigError, match=r"needs 203 cards .* hold 158"):
        JokersOfDeathConfig(num_players=10, num_decks=3)
    JokersOfDeathConfig(num_players=10, num_decks=4)
    assert JokersOfDeathConfig(num_players=12, num_decks=5).deck_size == 262  # 243 fits
    for bad in (1, 13):
        with pytest.raises(eights.ConfigError):
            JokersOfDeathConfig(num_players=bad)
    with pytest.raises(eights.ConfigError, match="num_decks=1 is not allowed; the rules play "
                                                 "with two or more"):
        JokersOfDeathConfig(num_decks=1)


# ---------------------------------------------------------------- #2 seats and dealer
def test_play_goes_counter_clockwise_to_the_seat_below():
    """Pins docs/rules/jokers_of_death.md #2: direction -1, seat 0 then the last seat."""
    game = new_game(["5D 6H 7C 9S 10S", "8D 2D 2H 3C 4D", "8S 9D 9H 9C 10H",
                     "5S 6D 7S 9C 10C"])
    assert game.view(0).direction == -1 and game.state.direction == -1
    assert (game.current_player, game.view(0).first_player) == (0, 0)
    step(game, "play 5D pile 1", "play 6H pile 2")  # 7C is then the only card for pile 3
    assert game.current_player == 3
    step(game, "play 5S pile 1", "play 6D pile 2", "play 7S pile 3")
    assert game.current_player == 2
    later = new_game(["5D 6H 7C 9S 10S", "5S 6D 7S 9C 10C", "8S 9D 9H 9C 10H"], first=1)
    assert later.current_player == 1
    step(later, "play 5S pile 1", "play 6D pile 2")  # 7S is then the only card for pile 3
    assert later.current_player == 0


def test_the_first_player_is_drawn_at_random_or_given():
    """Pins docs/rules/jokers_of_death.md #2: a random first player unless first_player."""
    firsts = {G(JokersOfDeathConfig(num_players=4), seed=seed).state.first
              for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    again = [G(JokersOfDeathConfig(num_players=4), seed=7).state.first for _ in range(2)]
    assert again[0] == again[1]
    assert G(JokersOfDeathConfig(num_players=4), seed=7, first_player=2).state.first == 2


def test_the_deal_passes_to_the_right_between_hands():
    """Pins docs/rules/jokers_of_death.md #2, #17: the next hand starts one seat on.

    Seat 0 knocks and goes out; the second hand's first player is seat 2, the next one
    counter-clockwise, and play in it goes counter-clockwise again.
    """
    game = new_game(["5H 6C", "AC AD", "AH AS"], "5D 6D 7D", match=True)
    step(game, "play 5H pile 1", "knock", "play 6C pile 2")
    assert not game.game_over
    assert game.state.scores == [0, 40, 40]
    assert events_from(game, 0, "deal") == [("deal", 0, "", 0), ("deal", 2, "", 1)]
    v = game.view(0)
    assert (v.first_player, v.hand_number, v.direction) == (2, 1, -1)
    four = new_game(["AC AD", "5H 6C", "AH AS", "2C 3C"], "5D 6D 7D", first=1, match=True)
    step(four, "play 5H pile 1", "knock", "play 6C pile 2")  # seat 0 plays after seat 1
    assert not four.game_over and four.state.first == 0


# ---------------------------------------------------------------- #3 the deal
def test_deal_one_at_a_time_counter_clockwise_then_three_piles():
    """Pins docs/rules/jokers_of_death.md #3: first player first, then the seat below."""
    deck = list(range(52)) * 2 + [RED_JOKER, BLACK_JOKER]  # AC 2C 3C ... in id order
    config = JokersOfDeathConfig(num_players=3, hand_size=3)
    game = G(config, deck=deck, first_player=1)
    assert hands(game) == ["2C 5C 8C", "AC 4C 7C", "3C 6C 9C"]  # seat 1, 0, 2, seat 1 ...
    assert [cards_text(p) for p in game.state.piles] == ["10C", "JC", "QC"]
    assert card_text(game.state.stock[-1]) == "KC"
    assert len(game.state.stock) == 106 - 9 - 3
    assert events_from(game) == [("deal", 1, "", 0), ("starter", -1, "10C", 0),
                                 ("starter", -1, "JC", 1), ("starter", -1, "QC", 2)]
    # the Jack turned up needs no follow: seat 1 plays an ordinary turn
    assert table(game) == dict(tops="10C JC QC", suits="CCC", pending=[0, 0, 0],
                               to_play="xxx", current=1, phase="play",
                               legal=["play AC pile 1", "play AC pile 2", "play AC pile 3",
                                      "play 4C pile 1", "play 4C pile 2", "play 4C pile 3",
                                      "play 7C pile 1", "play 7C pile 2", "play 7C pile 3"])


def test_stacked_deck_deals_counter_clockwise():
    """Pins docs/rules/jokers_of_death.md #3: the stacked deck follows the same order."""
    h = ["2C 5C 8C", "AC 4C 7C", "3C 6C 9C"]
    config = JokersOfDeathConfig(num_players=3, hand_size=3)
    deck = G.stacked_deck(h, "10C JC QC", ["KC"], config=config, first_player=1)
    assert cards_text(deck[:13]) == "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC"
    assert hands(new_game(h, "10C JC QC", first=1)) == h


def test_a_joker_turned_up_goes_under_the_stock():
    """Pins docs/rules/jokers_of_death.md #3: the next card is turned instead."""
    game = new_game(["5D 6H 7C", "5S 6D 9C", "5C 6S 9H"], "5H RJ BJ 6C 7D", "9D")
    s = game.state
    assert [cards_text(p) for p in s.piles] == ["5H", "6C", "7D"]
    assert s.stock[0] == BLACK_JOKER and s.stock[1] == RED_JOKER  # bottom first
    assert card_text(s.stock[-1]) == "9D"
    assert len(s.stock) == 106 - 9 - 3
    assert events_from(game) == [
        ("deal", 0, "", 0), ("starter", -1, "5H", 0), ("starter_to_bottom", -1, "RJ", 1),
        ("starter_to_bottom", -1, "BJ", 1), ("starter", -1, "6C", 1),
        ("starter", -1, "7D", 2)]


def test_a_card_turned_up_has_no_effect():
    """Pins docs/rules/jokers_of_death.md #3: no penalty, no follow, no skip; an 8's suit.

    A 2 and a 4 of Spades turned up start no penalty, so seat 0 plays an ordinary turn
    and a Joker is no answer on them; an 8 turned up asks for its own suit (or an 8).
    """
    game = new_game(["2D 4H 8H RJ", "5S 6D 9C 3C", "5C 6S 9H 3D"], "2H 4S 8C")
    assert table(game) == dict(tops="2H 4S 8C", suits="HSC", pending=[0, 0, 0],
                               to_play="xxx", current=0, phase="play",
                               legal=["play 2D pile 1", "play 4H pile 1", "play 4H pile 2",
                                      "play 8H pile 1", "play 8H pile 2", "play 8H pile 3"])
    assert game.view(0).pile_owners == (-1, -1, -1)
    ace = new_game(["AD 4H 8H", "5S 6D 9C", "5C 6S 9H"], "AH KS 7D")
    assert ace.current_player == 0 and ace.view(0).phase == "play"


# ---------------------------------------------------------------- #4 matching
def test_a_card_matches_by_suit_or_rank_and_an_eight_anywhere():
    """Pins docs/rules/jokers_of_death.md #4: suit, rank or an 8; never a Joker."""
    game = new_game(["5S 9H 3C 8S BJ", "5C 6S 9C 3D 4D", "5D 6D 9D 3H 4H"])
    assert table(game) == dict(
        tops="5H 6C 7D", suits="HCD", pending=[0, 0, 0], to_play="xxx", current=0,
        phase="play", legal=["play 3C pile 2", "play 9H pile 1", "play 5S pile 1",
                             "play 8S pile 1", "play 8S pile 2", "play 8S pile 3"])
    assert "play BJ pile 1" not in game.legal_texts()
    with pytest.raises(eights.IllegalActionError, match="'draw' is not legal"):
        game.step("draw")  # every pile has a card that fits: no draw


def test_no_draw_while_every_pile_still_to_play_has_a_card():
    """Pins docs/rules/jokers_of_death.md #4: "you must play three cards"."""
    game = new_game(["5S 9H 8S 3C 10S", "5C 6S 9C 3D 8D", "5D 6D 9D 3H 8H"])
    step(game, "play 8S pile 3", "suit D", "play 5S pile 1")
    # pile 2 is left, and 3C fits it: the engine plays it, nothing to decide
    assert events_from(game, 0, "play")[-1] == ("play", 0, "3C", 1)
    assert game.current_player == 2 and sizes(game) == [2, 5, 5]


# ---------------------------------------------------------------- #5 drawing
def test_draw_until_distinct_cards_cover_every_pile():
    """Pins docs/rules/jokers_of_death.md #5: one draw serves every pile that needs one.

    Piles 2 and 3 (6C, 7C) have no card in seat 0's hand. The draw takes 9H (fits
    neither), 3C (fits both, but one card covers one pile) and 4C, and stops: 5D, 3C and
    4C cover the three piles. Placing on pile 1 first or last is a choice.
    """
    game = new_game(["5D 9S 10S", "5C 6S 9C", "5S 6D 9D"], "5H 6C 7C", "9H 3C 4C 2C")
    assert game.legal_texts() == ["play 5D pile 1", "draw"]
    start = step(game, "draw")
    assert events_from(game, start, "draw") == [
        ("draw", 0, "9H", -1), ("draw", 0, "3C", -1), ("draw", 0, "4C", -1)]
    assert game.legal_texts() == ["play 3C pile 2", "play 3C pile 3", "play 4C pile 2",
                                  "play 4C pile 3", "play 5D pile 1", "play 9H pile 1"]
    step(game, "play 3C pile 2")  # 4C still covers pile 3: no draw
    assert game.legal_texts() == ["play 4C pile 3", "play 5D pile 1", "play 9H pile 1"]
    assert game.current_player == 0 and game.view(0).to_play == (True, False, True)


#: the issue's position: 9H is the only fit of both 9D and QH
NINE_HANDS = ["7C 9H 6S 3S", "2C 3C 4C 6C", "2D 3D 4D 6D"]


def test_a_card_that_is_the_only_fit_of_two_piles_covers_one_of_them():
    """Pins docs/rules/jokers_of_death.md #5: "the necessary cards" are distinct cards.

    Piles 5C 9D QH, hand 7C 9H 6S 3S: every pile has a fitting card, but 9H is the only
    one for both 9D and QH, so the hand cannot match all three piles and ``draw`` is
    legal at once. It draws JS (fits nothing) and 4D (fits 9D): then 7C, 4D and 9H
    cover the piles and the draw stops.
    """
    game = new_game(NINE_HANDS, "5C 9D QH", "JS 4D 2S")
    assert game.legal_texts() == ["play 7C pile 1", "play 9H pile 2", "play 9H pile 3",
                                  "draw"]
    start = step(game, "draw")
    assert events_from(game, start, "draw") == [("draw", 0, "JS", -1), ("draw", 0, "4D", -1)]
    assert hands(game)[0] == "7C 4D 9H 3S 6S JS"
    assert game.legal_texts() == ["play 7C pile 1", "play 4D pile 2", "play 9H pile 2",
                                  "play 9H pile 3"]


def test_distinct_cards_for_every_pile_refuse_the_draw():
    """Pins docs/rules/jokers_of_death.md #4, #5: 6D for 9D frees 9H for QH; two copies of
    a card are two cards; two 8s cover two piles, one 8 one pile; a Joker covers none."""
    cases = [("7C 9H 6D 3S", False), ("7C 9H 9H 3S", False), ("8S 8D 9H 3S", False),
             ("8S 9H 3S 4S", True), ("7C 9H RJ 3S", True)]
    for hand, may_draw in cases:
        game = new_game([hand, *NINE_HANDS[1:]], "5C 9D QH", "JS 4D 2S")
        assert ("draw" in game.legal_texts()) == may_draw, hand
        if not may_draw:
            with pytest.raises(eights.IllegalActionError, match="'draw' is not legal"):
                game.step("draw")


def test_on_an_empty_stock_a_hand_that_cannot_cover_every_pile_may_pass():
    """Pins docs/rules/jokers_of_death.md #5, #6: the pass takes the place of the draw."""
    game = G(JokersOfDeathConfig(num_players=3, hand_size=4), seed=1, first_player=0)
    set_position(game, NINE_HANDS, ["5C", "9D", "QH"], "", 0)
    assert game.legal_texts() == ["play 7C pile 1", "play 9H pile 2", "play 9H pile 3",
                                  "pass"]


def test_placing_first_then_drawing_for_the_pile_left():
    """Pins docs/rules/jokers_of_death.md #5: placements and the draw in any order."""
    game = new_game(["5D 9S 10S", "5C 6S 9C", "5S 6D 9D"], "5H 6C 7D", "9H 6H")
    assert game.legal_texts() == ["play 5D pile 1", "play 5D pile 3", "draw"]
    step(game, "play 5D pile 3")
    # pile 1 now has nothing either: the draw is forced and goes until 9H fits pile 1
    # and 6H pile 2, both of which the player then places
    assert events_from(game, 0, "draw") == [("draw", 0, "9H", -1), ("draw", 0, "6H", -1)]
    assert game.legal_texts() == ["play 6H pile 1", "play 6H pile 2", "play 9H pile 1"]


# ---------------------------------------------------------------- #6 an empty stock
def test_empty_stock_pass_ends_the_turn_with_piles_unplayed():
    """Pins docs/rules/jokers_of_death.md #6: pass, never a rebuilt stock."""
    game = G(JokersOfDeathConfig(num_players=3, hand_size=3), seed=1, first_player=0)
    set_position(game, ["5C 9S 10S", "KS 4S 9C", "JS QS 6D"], ["5H", "6C", "7D"], "", 0)
    assert table(game) == dict(tops="5H 6C 7D", suits="HCD", pending=[0, 0, 0],
                               to_play="xxx", current=0, phase="play",
                               legal=["play 5C pile 1", "play 5C pile 2", "pass"])
    start = step(game, "pass")  # passing at once is allowed: the turn ends
    assert events_from(game, start)[0] == ("pass", 0, "", -1)
    assert sizes(game)[0] == 3 and game.view(0).stock_size == 0
    assert game.current_player == 2 and game.view(0).stuck == 1


def test_empty_stock_place_what_fits_then_pass():
    """Pins docs/rules/jokers_of_death.md #6: "passes instead of playing", read per pile."""
    game = G(JokersOfDeathConfig(num_players=3, hand_size=3), seed=1, first_player=0)
    set_position(game, ["5C 9S 10S", "KS 4S 9C", "JS QS 6D"], ["5H", "6C", "7D"], "", 0)
    start = step(game, "play 5C pile 2")  # then nothing fits piles 1 and 3: pass is forced
    assert events_from(game, start)[:2] == [("play", 0, "5C", 1), ("pass", 0, "", -1)]
    assert game.current_player == 2 and game.view(0).stuck == 0
    assert table(game)["legal"] == ["play 6D pile 3", "pass"]


BLOCKED = dict(hands=["5C 9S 10S", "KS 4S", "JS QS"], tops=["5H", "6C", "7D"])


def test_a_round_of_passes_blocks_the_table_and_the_lowest_hand_wins():
    """Pins docs/rules/jokers_of_death.md #6, #16: nobody can place a card: hand over.

    Seat 0 places 5C then passes (no pass counted: a card was placed); seats 2, 1 and
    0 then pass in a row, a whole round: the hand is scored like a stopped one.
    """
    game = G(JokersOfDeathConfig(num_players=3, hand_size=2), seed=1, first_player=0)
    set_position(game, BLOCKED["hands"], BLOCKED["tops"], "", 0)
    start = step(game, "play 5C pile 2")
    assert game.terminated and game.winners == (1,)
    assert events_from(game, start, "pass", "blocked", "hand_over", "score") == [
        ("pass", 0, "", -1), ("pass", 2, "", -1), ("pass", 1, "", -1), ("pass", 0, "", -1),
        ("blocked", -1, "", -1), ("hand_over", 1, "", 1), ("score", 0, "", 19),
        ("score", 1, "", 14), ("score", 2, "", 20)]
    assert game.final_scores() == (19, 14, 20)
    assert game.returns() == [-1.0, 1.0, -1.0]


def test_a_turn_that_played_out_a_picked_up_pile_is_not_a_pass_that_blocks():
    """Pins docs/rules/jokers_of_death.md #6, #22: seats 0 and 2 pass with nothing to
    place; seat 1 picks up pile 2, plays its 6C on pile 1 and passes, leaving an empty
    space: cards were placed, so the count starts again and seat 0, who can now play
    on the empty space, gets its turn (found by a rules audit: the turn counted as a
    pass, since every pile was left to play, and the table was declared blocked)."""
    game = G(JokersOfDeathConfig(num_players=3, hand_size=2, free_discard_pile=True),
             seed=1, first_player=0)
    set_position(game, ["2H 3H", "9H 9S", "2S 3S"], ["9C", "6C", "7D"], "", 0)
    step(game, "pass", "pass")
    assert (game.current_player, game.state.stuck) == (1, 2)
    start = step(game, "pick up pile 2", "pass")  # the 6C onto pile 1 is forced
    assert events_from(game, start, "pick_up", "play", "pass", "blocked") == [
        ("pick_up", 1, "", 1), ("play", 1, "6C", 0), ("pass", 1, "", -1)]
    assert not game.game_over and game.current_player == 0 and game.state.stuck == 0
    assert "play 2H pile 2" in game.legal_texts()
    assert "  pile 2: empty (any card)  to play" in game.render().splitlines()


def test_a_blocked_table_tie_shares_the_win():
    """Pins docs/rules/jokers_of_death.md #6, #16: equal lowest hands share the win."""
    game = G(JokersOfDeathConfig(num_players=3, hand_size=2), seed=1, first_player=0)
    set_position(game, ["5C 9S 10S", "KS 4S", "10S 4S"], BLOCKED["tops"], "", 0)
    step(game, "play 5C pile 2")
    assert game.terminated and game.winners == (1, 2)
    assert game.final_scores() == (19, 14, 14)


# ---------------------------------------------------------------- #7 twos
TWOS_HANDS = ["2H 2C 7S 4C 9S 5C 7H",   # John, seat 0
              "2H 9C 9D 9H 10C JC QC",  # Theodore, seat 1 (plays after Margaret)
              "2D 2S 7D 3H 4S 5S 6S"]   # Margaret, seat 2
TWOS_STOCK = "3C 4C 5C 6C 3D 4D 5D 6D 9S 10S 3S"


def test_the_rules_twos_example():
    """Pins docs/rules/jokers_of_death.md #7: the rules' example, card for card.

    John plays 2s on two piles and a 7 on the third. Margaret answers both with 2s and
    may not play on the 7 pile (though her 7D fits it). Theodore has one 2: he answers
    one pile and takes 4 for the other. John has no 2 and takes 6; Margaret then plays
    on all three piles.
    """
    game = new_game(TWOS_HANDS, PILES, TWOS_STOCK)
    step(game, "play 2H pile 1", "play 2C pile 2", "play 7S pile 3")
    assert table(game) == dict(
        tops="2H 2C 7S", suits="HCS", pending=[2, 2, 0], to_play="xx.", current=2,
        phase="answer", legal=["play 2D pile 1", "play 2D pile 2", "play 2S pile 1",
                               "play 2S pile 2", "draw"])
    assert game.view(2).pile_owners == (0, 0, 0)
    with pytest.raises(eights.IllegalActionError, match="'play 7D pile 3' is not legal"):
        game.step("play 7D pile 3")
    step(game, "play 2D pile 1", "play 2S pile 2")
    assert table(game) == dict(
        tops="2D 2S 7S", suits="DSS", pending=[4, 4, 0], to_play="xx.", current=1,
        phase="answer", legal=["play 2H pile 1", "play 2H pile 2", "draw"])
    start = step(game, "play 2H pile 1")  # Theodore's take of 4, then John's of 6: forced
    assert takes(game, start) == [(1, 4), (0, 6)]
    assert sizes(game) == [4 + 6, 6 + 4, 5]
    assert hands(game)[1] == "3C 4C 5C 6C 9C 10C JC QC 9D 9H"
    assert table(game) == dict(
        tops="2H 2S 7S", suits="HSS", pending=[0, 0, 0], to_play="xxx", current=2,
        phase="play", legal=["play 7D pile 3", "play 3H pile 1", "play 4S pile 2",
                             "play 4S pile 3", "play 5S pile 2", "play 5S pile 3",
                             "play 6S pile 2", "play 6S pile 3"])
    assert len(game.record().actions) == 6  # the takes were no decisions


def test_the_rules_twos_counterfactual():
    """Pins docs/rules/jokers_of_death.md #7: "had he initially played just one two".

    John plays one 2 and two other cards; Margaret, Theodore, John and Margaret play
    single 2s on it; Theodore takes 10 (5 x 2); John plays on all three piles again.
    """
    game = new_game(TWOS_HANDS, PILES, TWOS_STOCK)
    step(game, "play 2H pile 1", "play 4C pile 2", "play 7S pile 3")
    assert (game.current_player, game.legal_texts()) == (
        2, ["play 2D pile 1", "play 2S pile 1", "draw"])
    step(game, "play 2D pile 1")
    assert (game.current_player, game.legal_texts()) == (1, ["play 2H pile 1", "draw"])
    step(game, "play 2H pile 1")
    assert (game.current_player, game.legal_texts()) == (0, ["play 2C pile 1", "draw"])
    step(game, "play 2C pile 1")
    assert (game.current_player, game.legal_texts()) == (2, ["play 2S pile 1", "draw"])
    assert game.view(2).pile_pending == (8, 0, 0)
    start = step(game, "play 2S pile 1")
    assert takes(game, start) == [(1, 10)]
    assert sizes(game) == [3, 6 + 10, 5]
    assert table(game) == dict(
        tops="2S 4C 7S", suits="SCS", pending=[0, 0, 0], to_play="xxx", current=0,
        phase="play", legal=["play 5C pile 2", "play 7H pile 3", "play 9S pile 1",
                             "play 9S pile 3"])


def test_answering_is_a_choice_and_one_draw_takes_every_unanswered_pile():
    """Pins docs/rules/jokers_of_death.md #7: one draw takes 2 + 2; the next plays normally."""
    game = new_game(TWOS_HANDS, PILES, TWOS_STOCK)
    step(game, "play 2H pile 1", "play 2C pile 2", "play 7S pile 3")
    start = step(game, "draw")  # Margaret holds two 2s and takes instead
    assert takes(game, start) == [(2, 4)]
    assert sizes(game) == [4, 7, 11]
    assert table(game)["pending"] == [0, 0, 0] and table(game)["to_play"] == "xxx"
    assert (game.current_player, game.view(1).phase) == (1, "play")


def test_with_the_stock_short_the_take_is_what_it_holds():
    """Pins docs/rules/jokers_of_death.md #7: one card left to take 2; the pile is cleared."""
    game = G(JokersOfDeathConfig(num_players=3, hand_size=3), seed=1, first_player=0)
    set_position(game, ["2H 6S 7S 9H 10H", "9S 10S 6D", "9D 10D 3H"], ["5H", "6C", "7D"],
                 "3C", 0)
    start = step(game, "play 2H pile 1", "play 6S pile 2")  # 7S on pile 3 is forced
    assert takes(game, start) == [(2, 1)]  # seat 2 has no 2: the take is forced
    assert hands(game)[2] == "3C 9D 10D 3H"
    assert game.view(0).stock_size == 0 and game.view(0).pile_pending == (0, 0, 0)
    assert (game.current_player, game.view(1).phase) == (1, "play")


# ---------------------------------------------------------------- #8 the 4 of Spades
FOUR_PILES = "5S 6C 7D"
FOUR_OPENING = ("play 4S pile 1", "play 6H pile 2", "play 7H pile 3")


def test_four_of_spades_taking_costs_four():
    """Pins docs/rules/jokers_of_death.md #8: a 4 of Spades gives its pile a penalty of 4."""
    game = new_game(["4S 6H 7H 8C 9H", "9S 10S JS 6D 7C", "4H 9D 5S 3H 10D"], FOUR_PILES)
    start = step(game, *FOUR_OPENING)
    # seat 2 holds no 4 of Spades and no Joker (4H and 5S do not answer): forced take of 4
    assert takes(game, start) == [(2, 4)]
    assert sizes(game) == [2, 5, 9]
    assert table(game) == dict(
        tops="4S 6H 7H", suits="SHH", pending=[0, 0, 0], to_play="xxx", current=1,
        phase="play", legal=["play 7C pile 3", "play 6D pile 2", "play 9S pile 1",
                             "play 10S pile 1", "play JS pile 1"])


def test_four_of_spades_answered_by_four_of_spades_then_sixteen():
    """Pins docs/rules/jokers_of_death.md #8: 4 x 4 = 16 after two 4s of Spades in a row."""
    game = new_game(["4S 6H 7H 8C 9H", "9S 10S JS 6D 7C", "4S 9D 5S 3H 10D"], FOUR_PILES)
    step(game, *FOUR_OPENING)
    assert table(game) == dict(tops="4S 6H 7H", suits="SHH", pending=[4, 0, 0],
                               to_play="x..", current=2, phase="answer",
                               legal=["play 4S pile 1", "draw"])
    assert game.view(2).pile_owners == (0, 0, 0)
    start = step(game, "play 4S pile 1")
    assert takes(game, start) == [(1, 16)]  # seat 1 cannot answer: takes 16
    assert sizes(game) == [2, 5 + 16, 4]
    assert (game.current_player, game.view(0).phase) == (0, "play")
    assert game.view(0).pile_pending == (0, 0, 0)


def test_a_third_four_of_spades_makes_sixty_four():
    """Pins docs/rules/jokers_of_death.md #8: with more decks, 16 then 64."""
    game = new_game(["4S 6H 7H 8C 9H", "4S 10S JS 6D 7C", "4S 9D 5S 3H 10D"], FOUR_PILES,
                    num_decks=3)
    step(game, *FOUR_OPENING)
    step(game, "play 4S pile 1")
    assert game.view(1).pile_pending == (16, 0, 0)
    assert game.legal_texts() == ["play 4S pile 1", "draw"]
    start = step(game, "play 4S pile 1")
    assert takes(game, start) == [(0, 64)]
    assert sizes(game)[0] == 2 + 64


def test_a_two_and_a_four_of_spades_are_answered_together():
    """Pins docs/rules/jokers_of_death.md #8: each in its own kind; one draw takes the rest."""
    hands_ = ["2H 4S 7D 9H 10H", "9C 10C 2C QC KC", "2D 4S RJ 3H 3D"]
    game = new_game(hands_, "5H 6S 7C", "3C 4C 5C 6C 3D 4D 5D 6D")
    step(game, "play 2H pile 1", "play 4S pile 2")  # 7D on pile 3 is forced
    assert table(game) == dict(
        tops="2H 4S 7D", suits="HSD", pending=[2, 4, 0], to_play="xx.", current=2,
        phase="answer", legal=["play 2D pile 1", "play 4S pile 2", "play RJ pile 2", "draw"])
    snap = game.snapshot()
    start = step(game, "play 2D pile 1", "draw")
    assert takes(game, start) == [(2, 4)]  # the 2 is answered, the 4 of Spades taken
    assert table(game)["pending"] == [4, 0, 0]
    assert (game.current_player, game.legal_texts()) == (1, ["play 2C pile 1", "draw"])
    game.restore(snap)
    start = step(game, "draw")
    assert takes(game, start) == [(2, 2 + 4)]
    assert table(game)["pending"] == [0, 0, 0]
    assert (game.current_player, game.view(1).phase) == (1, "play")
    game.restore(snap)
    start = step(game, "play 4S pile 2", "draw")  # the 4 of Spades answered, the 2 taken
    # seat 1 holds no 4 of Spades nor Joker: it takes the 16 at once
    assert takes(game, start) == [(2, 2), (1, 16)]
    assert table(game)["pending"] == [0, 0, 0]


# ---------------------------------------------------------------- #9 Jokers
def test_a_joker_kills_the_pile_and_later_turns_have_one_pile_fewer():
    """Pins docs/rules/jokers_of_death.md #9: the pile leaves play with its cards."""
    game = new_game(["4S 6H 7H 8C 9H", "9S 10S JS 6D 7C", "BJ 9D 5S 3H 10D"], FOUR_PILES)
    step(game, *FOUR_OPENING)
    assert game.legal_texts() == ["play BJ pile 1", "draw"]
    start = step(game, "play BJ pile 1")
    assert events_from(game, start, "play", "kill", "take") == [
        ("play", 2, "BJ", 0), ("kill", 2, "", 0)]
    v = game.view(1)
    assert v.killed == (True, False, False)
    assert v.pile_pending == (0, 0, 0)
    assert cards_text(game.state.piles[0]) == "5S 4S BJ"
    assert sum(v.pile_counts[0]) == 3
    assert sizes(game) == [2, 5, 4]
    # seat 1 plays on piles 2 and 3 only, though 9S, 10S and JS would fit pile 1
    assert table(game) == dict(tops="BJ 6H 7H", suits="-HH", pending=[0, 0, 0],
                               to_play=".xx", current=1, phase="play",
                               legal=["play 7C pile 3", "play 6D pile 2"])
    step(game, "play 6D pile 2")  # 7C on pile 3 is then forced
    # seat 0's 8C fits both live piles, but one card covers one pile: it may draw (#5)
    assert table(game) == dict(tops="BJ 6D 7C", suits="-DC", pending=[0, 0, 0],
                               to_play=".xx", current=0, phase="play",
                               legal=["play 8C pile 2", "play 8C pile 3", "draw"])
    assert game.view(0).killed == (True, False, False)


def test_a_joker_on_two_fours_of_spades_also_takes_four():
    """Pins docs/rules/jokers_of_death.md #9: "only powerful enough to neutralise one"."""
    game = new_game(["4S 6H 7H 8C 9H", "RJ 10S JS 6D 7C", "4S 9D 5S 3H 10D"], FOUR_PILES,
                    "3C 4C 5C 6C")
    step(game, *FOUR_OPENING)
    step(game, "play 4S pile 1")
    assert (game.current_player, game.legal_texts()) == (1, ["play RJ pile 1", "draw"])
    start = step(game, "play RJ pile 1")
    assert events_from(game, start, "kill", "take") == [("kill", 1, "", 0), ("take", 1, "", 4)]
    assert hands(game)[1] == "3C 4C 5C 6C 7C 6D 10S JS"
    assert game.view(0).killed == (True, False, False)
    assert (game.current_player, table(game)["to_play"]) == (0, ".xx")


def test_a_joker_on_sixty_four_takes_sixteen():
    """Pins docs/rules/jokers_of_death.md #9: 4^(n-1) cards on n 4s of Spades."""
    game = new_game(["4S 6H 7H 8C RJ", "4S 10S JS 6D 7C", "4S 9D 5S 3H 10D"], FOUR_PILES,
                    num_decks=3)
    step(game, *FOUR_OPENING)
    step(game, "play 4S pile 1", "play 4S pile 1")
    assert (game.current_player, game.legal_texts()) == (0, ["play RJ pile 1", "draw"])
    start = step(game, "play RJ pile 1")
    assert takes(game, start) == [(0, 16)]
    assert game.view(0).killed == (True, False, False)


def test_a_joker_only_answers_a_four_of_spades():
    """Pins docs/rules/jokers_of_death.md #9: not on a 2, not after the take."""
    game = new_game(["2S 6H 7H 8C 9H", "9S 10S JS 6D 7C", "2D 9D RJ 3H 10D"], FOUR_PILES)
    step(game, "play 2S pile 1", "play 6H pile 2", "play 7H pile 3")
    assert (game.current_player, game.legal_texts()) == (2, ["play 2D pile 1", "draw"])
    after_take = new_game(["4S 6H 7H 8C 9H", "RJ 10S JS 6D 7C", "4H 9D 5S 3H 10D"],
                          FOUR_PILES)
    step(after_take, *FOUR_OPENING)  # seat 2 takes 4 (forced)
    assert after_take.current_player == 1 and after_take.view(1).phase == "play"
    assert card_text(after_take.view(1).pile_tops[0]) == "4S"
    assert not any("RJ" in a for a in after_take.legal_texts())


def test_a_joker_is_not_legal_on_your_own_four_of_spades():
    """Pins docs/rules/jokers_of_death.md #9, #13: the special rule, two Aces at three.

    Seat 0's 4 of Spades and two Aces skip both other players; the 4 of Spades comes back
    to seat 0, who must answer it with a 4 of Spades or take: the Joker is no answer.
    """
    game = new_game(["4S AH AD 4S RJ", "9C 10C JC QC KC", "9D 5C 3H 2D 3C"], "5S 6H 7D")
    start = step(game, "play 4S pile 1", "play AH pile 2")  # AD on pile 3 is forced
    assert events_from(game, start, "skip") == [("skip", 2, "", -1), ("skip", 1, "", -1)]
    assert table(game) == dict(tops="4S AH AD", suits="SHD", pending=[4, 0, 0],
                               to_play="x..", current=0, phase="answer",
                               legal=["play 4S pile 1", "draw"])
    assert game.view(0).pile_owners[0] == 0
    game.step("draw")
    assert takes(game, start) == [(0, 4)]
    assert game.current_player == 2


def test_a_joker_is_not_legal_on_your_own_four_of_spades_at_two_players():
    """Pins docs/rules/jokers_of_death.md #9: "a 4 of Spades and a Joker in a 2-player game"."""
    game = new_game(["4S AH 9D RJ 10C", "10S 3H 3D 9C QC"], "5S 6H 7D", "3C 4C 5C 6C")
    start = step(game, "play 4S pile 1", "play AH pile 2")  # 9D on pile 3 is forced
    # the Ace skips seat 1; seat 0 holds only the Joker, which does not answer its own
    # 4 of Spades: the take is forced
    assert events_from(game, start, "skip") == [("skip", 1, "", -1)]
    assert takes(game, start) == [(0, 4)]
    assert hands(game)[0] == "3C 4C 5C 6C 10C RJ"
    assert (game.current_player, game.view(1).phase) == (1, "play")


# ---------------------------------------------------------------- #10 eights
def test_an_eight_is_not_legal_on_a_penalty_but_is_after_the_take():
    """Pins docs/rules/jokers_of_death.md #10: only the answer goes on a pile to answer."""
    game = new_game(["2H 6H 7H 8C 9S", "8S 10C JC QC KC", "8D 2D 5S 3H 10D"], PILES,
                    "3C 4C")
    step(game, "play 2H pile 1", "play 6H pile 2", "play 7H pile 3")
    assert table(game)["legal"] == ["play 2D pile 1", "draw"]  # seat 2's 8D is no answer
    with pytest.raises(eights.IllegalActionError, match="'play 8D pile 1' is not legal"):
        game.step("play 8D pile 1")
    step(game, "draw")
    # seat 1's 8S may go on any pile once the 2 is taken (its one card covers one pile, so
    # it may draw as well, #5)
    assert table(game) == dict(tops="2H 6H 7H", suits="HHH", pending=[0, 0, 0],
                               to_play="xxx", current=1, phase="play",
                               legal=["play 8S pile 1", "play 8S pile 2", "play 8S pile 3",
                                      "draw"])
    step(game, "play 8S pile 1")
    assert game.view(1).phase == "choose suit"


def test_eights_name_the_suit_of_their_pile():
    """Pins docs/rules/jokers_of_death.md #10: its own decision, right away; 8 on 8 again."""
    game = new_game(["8S 6H 7H 9C 10C", "3C 9S 10S JS QS", "3D 8D 5S 6D 7S"])
    start = step(game, "play 8S pile 1")
    assert table(game) == dict(tops="8S 6C 7D", suits="SCD", pending=[0, 0, 0],
                               to_play=".xx", current=0, phase="choose suit",
                               legal=SUIT_TEXTS)
    assert game.view(0).decision_pile == (True, False, False)
    step(game, "suit D", "play 6H pile 2")  # 7H on pile 3 is then forced
    assert events_from(game, start, "suit") == [("suit", 0, "", 1)]
    assert table(game)["suits"] == "DHH"
    # seat 2: the Diamonds named and an 8 go on pile 1; 5S (the 8's own suit) does not
    assert game.current_player == 2
    assert [a for a in game.legal_texts() if a.endswith("pile 1")] == [
        "play 3D pile 1", "play 6D pile 1", "play 8D pile 1"]
    start = step(game, "play 8D pile 1")
    assert (game.view(2).phase, game.legal_texts()) == ("choose suit", SUIT_TEXTS)
    step(game, "suit C", "play 6D pile 2")  # 7S on pile 3 is then forced
    assert events_from(game, start, "suit") == [("suit", 2, "", 0)]
    assert game.current_player == 1 and table(game)["suits"] == "CDS"
    assert [a for a in game.legal_texts() if a.endswith("pile 1")] == ["play 3C pile 1"]


# ---------------------------------------------------------------- #11 tens
OTHERS = ["10S 3C 7C 3H 4H", "10D 3C 7S 3H 4H"]  # seats 1 and 2: something to decide


def test_ten_reverse_or_keep_decides_who_plays_next():
    """Pins docs/rules/jokers_of_death.md #11: decided once, when the turn is over."""
    game = new_game(["10H 6H 7H 9S 9D", *OTHERS])
    step(game, "play 10H pile 1", "play 6H pile 2", "play 7H pile 3")
    assert table(game) == dict(tops="10H 6H 7H", suits="HHH", pending=[0, 0, 0],
                               to_play="...", current=0, phase="direction",
                               legal=["reverse", "keep"])
    snap = game.snapshot()
    start = step(game, "reverse")
    assert events_from(game, start, "reverse") == [("reverse", 0, "", 1)]
    assert game.current_player == 1 and game.view(1).direction == 1
    step(game, "play 3H pile 1", "play 4H pile 2")  # 7C on pile 3 is forced
    assert game.current_player == 2  # the new direction holds
    game.restore(snap)
    start = step(game, "keep")
    assert events_from(game, start, "keep") == [("keep", 0, "", -1)]
    assert game.current_player == 2 and game.view(2).direction == -1


def test_two_tens_give_one_decision():
    """Pins docs/rules/jokers_of_death.md #11: reversing twice would be keeping."""
    game = new_game(["10H 10C 7H 9S 9D", *OTHERS])
    step(game, "play 10H pile 1", "play 10C pile 2", "play 7H pile 3")
    assert game.view(0).tens_played == 2
    assert game.legal_texts() == ["reverse", "keep"]
    start = step(game, "reverse")
    assert len(events_from(game, start, "reverse", "keep")) == 1
    assert game.current_player == 1 and game.view(1).phase == "play"


def test_the_direction_is_decided_before_the_aces_skip():
    """Pins docs/rules/jokers_of_death.md #11, #13: the Ace skips in the new direction."""
    game = new_game(["10H AC 7H 9S 9D", *OTHERS])
    step(game, "play 10H pile 1", "play AC pile 2", "play 7H pile 3")
    snap = game.snapshot()
    start = step(game, "reverse")
    assert events_from(game, start, "skip") == [("skip", 1, "", -1)]
    assert game.current_player == 2
    game.restore(snap)
    start = step(game, "keep")
    assert events_from(game, start, "skip") == [("skip", 2, "", -1)]
    assert game.current_player == 1


# ---------------------------------------------------------------- #12 Jacks and Kings
J_OTHERS = ["5S 6D 9C 3C 4S 6S", "3D 5D 6H 9D 10S 10C"]


def test_a_jack_is_followed_on_its_pile_by_its_suit_or_an_eight():
    """Pins docs/rules/jokers_of_death.md #12: not the same rank in another suit."""
    game = new_game(["JH 4H 8C JD 5C 9S", *J_OTHERS], PILES, "3C 4C")
    step(game, "play JH pile 1")
    assert table(game) == dict(tops="JH 6C 7D", suits="HCD", pending=[0, 0, 0],
                               to_play=".xx", current=0, phase="follow",
                               legal=["play 8C pile 1", "play 4H pile 1", "draw"])
    assert game.view(0).decision_pile == (True, False, False)
    with pytest.raises(eights.IllegalActionError, match="'play JD pile 1' is not legal"):
        game.step("play JD pile 1")
    with pytest.raises(eights.IllegalActionError, match="'play 5C pile 2' is not legal"):
        game.step("play 5C pile 2")
    step(game, "play 4H pile 1")
    assert game.view(0).phase == "play" and table(game)["to_play"] == ".xx"
    assert cards_text(game.state.piles[0]) == "5H JH 4H"


def test_an_eight_follows_and_names_the_suit():
    """Pins docs/rules/jokers_of_death.md #12, #10: the 8's suit is its own decision."""
    game = new_game(["JH 4H 8C JD 5C 9S", *J_OTHERS], PILES, "3C 4C")
    step(game, "play JH pile 1", "play 8C pile 1")
    assert (game.view(0).phase, game.legal_texts()) == ("choose suit", SUIT_TEXTS)
    step(game, "suit S")
    assert table(game)["suits"] == "SCD" and game.view(0).phase == "play"


def test_jacks_and_kings_chain():
    """Pins docs/rules/jokers_of_death.md #12: a Jack or King that follows is followed."""
    game = new_game(["JH KH 4H 6C 7D 9S", *J_OTHERS])
    step(game, "play JH pile 1", "play KH pile 1")
    assert (game.view(0).phase, game.legal_texts()) == ("follow", ["play 4H pile 1", "draw"])
    step(game, "play 4H pile 1")
    assert cards_text(game.state.piles[0]) == "5H JH KH 4H"
    assert game.view(0).phase == "play"


def test_unable_or_unwilling_draws_until_a_card_fits_and_plays_it():
    """Pins docs/rules/jokers_of_death.md #12: drawing is legal with a card that fits."""
    game = new_game(["KH 4H 6C 7D 9S 9C", *J_OTHERS], PILES, "3C JD 5H 2C")
    step(game, "play KH pile 1")
    assert game.legal_texts() == ["play 4H pile 1", "draw"]
    start = step(game, "draw")
    assert events_from(game, start, "draw", "play") == [
        ("draw", 0, "3C", -1), ("draw", 0, "JD", -1), ("draw", 0, "5H", -1),
        ("play", 0, "5H", 0)]
    assert hands(game)[0] == "3C 6C 9C 7D JD 4H 9S"
    assert game.view(0).phase == "play" and table(game)["to_play"] == ".xx"


def test_a_follow_draw_on_an_emptying_stock_ends_the_chain():
    """Pins docs/rules/jokers_of_death.md #12, #6: the stock runs out first: the chain ends."""
    game = G(JokersOfDeathConfig(num_players=3, hand_size=4), seed=1, first_player=0)
    set_position(game, ["KH 4H 6C 7D 9S", "5S 6D 9C 3C", "3D 5D 6H 9D"], ["5H", "6C", "7D"],
                 "3C 4C", 0)
    start = step(game, "play KH pile 1", "draw")
    assert events_from(game, start, "draw") == [("draw", 0, "3C", -1), ("draw", 0, "4C", -1)]
    assert card_text(game.state.piles[0][-1]) == "KH"
    assert game.view(0).stock_size == 0
    assert table(game)["phase"] == "play" and table(game)["to_play"] == ".xx"
    assert game.current_player == 0


def test_on_an_empty_stock_a_jack_nothing_follows_is_left():
    """Pins docs/rules/jokers_of_death.md #12, #6: no card, no stock: the chain ends."""
    game = G(JokersOfDeathConfig(num_players=3, hand_size=4), seed=1, first_player=0)
    set_position(game, ["KH 6C 7D 9S 9C", "5S 6D 9C 3C", "3D 5D 6H 9D"], ["5H", "6C", "7D"],
                 "", 0)
    start = step(game, "play KH pile 1")
    assert events_from(game, start, "play", "pass") == [("play", 0, "KH", 0),
                                                         ("pass", 0, "", 0)]
    assert table(game)["phase"] == "play" and table(game)["to_play"] == ".xx"


def test_a_follow_card_has_its_own_effect():
    """Pins docs/rules/jokers_of_death.md #12, #13: a 2 that follows starts a penalty;
    an Ace that follows skips."""
    others = ["5S 6D 9C 3C 4S 10D", "3D 5D 2D 9D 10C 4S"]
    game = new_game(["KH 2H 6C 7D 9S 10S", *others])
    step(game, "play KH pile 1", "play 2H pile 1", "play 6C pile 2")  # then 7D, forced
    assert table(game) == dict(tops="2H 6C 7D", suits="HCD", pending=[2, 0, 0],
                               to_play="x..", current=2, phase="answer",
                               legal=["play 2D pile 1", "draw"])
    ace = new_game(["KH AH 6C 7D 9S 10S", *others])
    start = step(ace, "play KH pile 1", "play AH pile 1", "play 6C pile 2")
    assert events_from(ace, start, "skip") == [("skip", 2, "", -1)]
    assert ace.current_player == 1


def test_no_jack_or_king_in_an_answer():
    """Pins docs/rules/jokers_of_death.md #12: an answer is a 2 or a 4 of Spades (or Joker)."""
    game = new_game(["2H 6H 7H 8C 9S", "8S 10C JC QC KC", "JH KH 2D 3H 10D"])
    step(game, "play 2H pile 1", "play 6H pile 2", "play 7H pile 3")
    assert game.legal_texts() == ["play 2D pile 1", "draw"]


# ---------------------------------------------------------------- #13 Aces
def test_an_ace_skips_the_next_player():
    """Pins docs/rules/jokers_of_death.md #13: at three players seat 1 plays after seat 0."""
    game = new_game(["AH 6H 7H 9S 9C", "5S 6D 9D 3C 4S", "3D 5D 6S 10D 10C"])
    start = step(game, "play AH pile 1", "play 6H pile 2")  # then 7H, forced
    assert events_from(game, start, "skip") == [("skip", 2, "", -1)]
    assert (game.current_player, game.legal_texts()) == (1, ["play 6D pile 2", "draw"])


def test_two_aces_at_three_players_give_the_same_player_another_turn():
    """Pins docs/rules/jokers_of_death.md #13: "the person who discarded the aces plays again"."""
    game = new_game(["AH AC 7D 9S 9D", "5S 6D 9C 3C 4S", "3D 5D 6H 9H 10C"])
    start = step(game, "play AH pile 1", "play AC pile 2", "play 7D pile 3")
    assert events_from(game, start, "skip") == [("skip", 2, "", -1), ("skip", 1, "", -1)]
    assert table(game) == dict(tops="AH AC 7D", suits="HCD", pending=[0, 0, 0],
                               to_play="xxx", current=0, phase="play",
                               legal=["play 9D pile 3", "draw"])
    assert game.view(0).aces_played == 0


def test_an_ace_at_two_players_gives_its_player_another_turn():
    """Pins docs/rules/jokers_of_death.md #13: one Ace skips the only other player."""
    game = new_game(["AH 6H 7H 9S 9C", "5S 6D 9D 3C 4S"], PILES, "3H 4H 5H")
    start = step(game, "play AH pile 1", "play 6H pile 2")  # then 7H, forced
    assert events_from(game, start, "skip") == [("skip", 1, "", -1)]
    # seat 0 again: nothing fits, the draw is forced and goes on until three cards cover
    # the three piles (#5): 3H, 4H and 5H each fit every pile
    assert events_from(game, start, "draw") == [
        ("draw", 0, "3H", -1), ("draw", 0, "4H", -1), ("draw", 0, "5H", -1)]
    assert (game.current_player, game.legal_texts()) == (
        0, ["play 3H pile 1", "play 3H pile 2", "play 3H pile 3", "play 4H pile 1",
            "play 4H pile 2", "play 4H pile 3", "play 5H pile 1", "play 5H pile 2",
            "play 5H pile 3"])


# ---------------------------------------------------------------- #14 knocking
KNOCK_HANDS = ["5D 6H 7C 9S", "5S 6D 7H 9C", "5C 6S 7S 9H"]


def test_knock_is_offered_when_left_with_one_card():
    """Pins docs/rules/jokers_of_death.md #14: knock or pass, at once."""
    game = new_game(KNOCK_HANDS)
    step(game, "play 5D pile 1", "play 6H pile 2")  # 7C on pile 3 is forced
    assert table(game) == dict(tops="5D 6H 7C", suits="DHC", pending=[0, 0, 0],
                               to_play="...", current=0, phase="knock",
                               legal=["pass", "knock"])
    snap = game.snapshot()
    start = step(game, "knock")
    assert events_from(game, start, "knock") == [("knock", 0, "", -1)]
    assert game.view(0).knocked == (1, 0, 0) and game.current_player == 2
    game.restore(snap)
    start = step(game, "pass")
    assert events_from(game, start, "no_knock") == [("no_knock", 0, "", -1)]
    assert game.view(0).knocked == (-1, 0, 0) and game.current_player == 2


def test_knock_in_the_middle_of_a_turn_comes_before_a_jacks_follow():
    """Pins docs/rules/jokers_of_death.md #14: before anything else, even the follow."""
    game = new_game(["JH 4H", "5S 6D", "5C 6S"])
    step(game, "play JH pile 1")
    assert (game.view(0).phase, game.legal_texts()) == ("knock", ["pass", "knock"])
    step(game, "knock")
    assert (game.view(0).phase, game.legal_texts()) == ("follow", ["play 4H pile 1", "draw"])


def test_auto_knock_knocks_for_the_player():
    """Pins docs/rules/jokers_of_death.md #14: auto_knock=True, no decision."""
    game = new_game(KNOCK_HANDS, auto_knock=True)
    start = step(game, "play 5D pile 1", "play 6H pile 2")
    assert events_from(game, start, "knock") == [("knock", 0, "", -1)]
    assert game.view(0).knocked == (1, 0, 0) and game.current_player == 2
    assert game.record().actions == ("play 5D pile 1", "play 6H pile 2")


def test_knocked_and_last_card_ends_the_hand_mid_turn():
    """Pins docs/rules/jokers_of_death.md #14, #16: pile 3 is never played."""
    game = new_game(["5H 6C", "KC 9D", "AH 2S"], "5D 6D 7D")
    step(game, "play 5H pile 1", "knock")
    assert game.legal_texts() == ["play 6C pile 2", "draw"]
    start = step(game, "play 6C pile 2")
    assert game.terminated and game.winners == (0,)
    assert events_from(game, start, "out", "hand_over", "score", "game_over") == [
        ("out", 0, "", -1), ("hand_over", 0, "", 0),
        ("score", 0, "", 0), ("score", 1, "", 19), ("score", 2, "", 22),
        ("game_over", -1, "", 1)]
    assert game.final_scores() == (0, 19, 22)
    assert game.returns() == [1.0, -1.0, -1.0]


def test_knocked_and_last_card_on_a_jack_ends_the_hand():
    """Pins docs/rules/jokers_of_death.md #14: the Jack's follow is never played."""
    game = new_game(["9H JD", "KC 9D", "AH 2S"], "5H 6D 7D")
    step(game, "play 9H pile 1", "knock", "play JD pile 2")
    assert game.terminated and game.winners == (0,)
    assert card_text(game.state.piles[1][-1]) == "JD"


def test_last_card_without_knocking_does_not_end_the_hand():
    """Pins docs/rules/jokers_of_death.md #14: the pile left to play needs a draw."""
    game = new_game(["5H 6C", "KC 9D", "8H 2S"], "5D 6D 7D", "3C 4C 7S 9S")
    step(game, "play 5H pile 1", "pass")
    start = step(game, "play 6C pile 2")
    assert not game.game_over
    # the empty hand must still play pile 3: draws until 7S fits, and places it
    assert events_from(game, start, "draw", "play", "out") == [
        ("play", 0, "6C", 1), ("draw", 0, "3C", -1), ("draw", 0, "4C", -1),
        ("draw", 0, "7S", -1), ("play", 0, "7S", 2)]
    assert hands(game)[0] == "3C 4C"
    assert game.current_player == 2


def test_a_draw_that_leaves_one_card_offers_the_knock_before_it_is_played():
    """Pins docs/rules/jokers_of_death.md #14: "one card left ... in the middle of a
    turn ... must knock ... before playing another card" holds after a draw too.

    Seat 0 declines to knock, empties its hand on pile 2, and draws 7S for pile 3: one
    card, so the knock comes first; knocking and placing 7S goes out.
    """
    game = new_game(["5H 6C", "KC 9D", "8H 2S"], "5D 6D 7D", "7S 9S 3C")
    step(game, "play 5H pile 1", "pass")
    start = step(game, "play 6C pile 2")  # the draw for pile 3 is forced
    assert events_from(game, start, "draw") == [("draw", 0, "7S", -1)]
    assert (game.current_player, game.view(0).phase, game.legal_texts()) == (
        0, "knock", ["pass", "knock"])
    snap = game.snapshot()
    step(game, "knock")  # then 7S on pile 3 is forced, and ends the hand
    assert game.terminated and game.winners == (0,)
    game.restore(snap)
    step(game, "pass")
    assert not game.game_over and game.view(0).knocked == (-1, 0, 0)
    assert card_text(game.state.piles[2][-1]) == "7S" and game.current_player == 2


def test_a_follow_draw_that_leaves_one_card_knocks_then_follows_again():
    """Pins docs/rules/jokers_of_death.md #14: a King placed as the last card unknocked;
    the follow draw brings 3D to the empty hand, so the knock is decided before 3D is
    played, then the follow is decided again with it."""
    game = new_game(["5H KD", "KC 9D", "8H 2S"], "5D 6D 7D", "3D 9S 7S 3C")
    step(game, "play 5H pile 1", "pass")
    start = step(game, "play KD pile 2")  # the empty hand's follow draw is forced
    assert events_from(game, start, "draw") == [("draw", 0, "3D", -1)]
    assert (game.view(0).phase, game.legal_texts()) == ("knock", ["pass", "knock"])
    step(game, "knock")
    assert (game.view(0).phase, game.legal_texts()) == ("follow", ["play 3D pile 2", "draw"])
    step(game, "play 3D pile 2")
    assert game.terminated and game.winners == (0,)


def test_an_empty_hand_at_the_next_turn_draws():
    """Pins docs/rules/jokers_of_death.md #14, #13: out without a knock, seat 0 plays on.

    Seat 0 follows its Jack with an Ace, declines to knock and places its last card;
    two Aces give it the next turn with an empty hand: it draws.
    """
    game = new_game(["JH AH AC 7D", "5S 6D 9C 3C", "3D 5D 6H 9D"], PILES, "9S 3H 3C 3D")
    step(game, "play JH pile 1", "play AH pile 1", "play AC pile 2", "pass")
    assert not game.game_over
    assert events_from(game, 0, "skip", "draw") == [
        ("skip", 2, "", -1), ("skip", 1, "", -1), ("draw", 0, "9S", -1),
        ("draw", 0, "3H", -1), ("draw", 0, "3C", -1), ("draw", 0, "3D", -1)]
    assert table(game) == dict(tops="AH AC 7D", suits="HCD", pending=[0, 0, 0],
                               to_play="xxx", current=0, phase="play",
                               legal=["play 3C pile 2", "play 3D pile 3", "play 3H pile 1"])


def test_drawing_clears_a_knock():
    """Pins docs/rules/jokers_of_death.md #14: with more cards, knock again at one."""
    game = new_game(["5D 6H 7C 9S", "5S 6D 7H 9C"], PILES, "6C 7C")
    step(game, "play 5D pile 1", "play 6H pile 2", "knock")  # 7C on pile 3 was forced
    step(game, "play 5S pile 1", "play 6D pile 2", "play 7H pile 3", "pass")  # no knock
    assert game.view(0).knocked == (1, -1)
    assert (game.current_player, game.legal_texts()) == (0, ["play 9S pile 1", "draw"])
    start = step(game, "draw")
    assert events_from(game, start, "draw") == [("draw", 0, "6C", -1), ("draw", 0, "7C", -1)]
    assert game.view(0).knocked == (0, -1)
    step(game, "play 9S pile 1", "play 6C pile 2")  # 7C left: knock again
    assert (game.view(0).phase, game.legal_texts()) == ("knock", ["pass", "knock"])


def test_a_knocked_player_answering_with_the_last_card_goes_out_or_takes_and_knocks_no_more():
    """Pins docs/rules/jokers_of_death.md #14, #7: an answer is a placement; a take clears."""
    game = new_game(["5D 6H 7C 2S", "2D 6D 7H 9C"])
    step(game, "play 5D pile 1", "play 6H pile 2", "knock")  # 7C on pile 3 was forced
    step(game, "play 2D pile 1", "play 6D pile 2", "play 7H pile 3", "pass")
    assert table(game) == dict(tops="2D 6D 7H", suits="DDH", pending=[2, 0, 0],
                               to_play="x..", current=0, phase="answer",
                               legal=["play 2S pile 1", "draw"])
    snap = game.snapshot()
    step(game, "play 2S pile 1")
    assert game.terminated and game.winners == (0,)
    assert game.final_scores() == (0, 9)
    game.restore(snap)
    start = step(game, "draw")
    assert takes(game, start) == [(0, 2)]
    assert game.view(0).knocked[0] == 0 and not game.game_over


# ---------------------------------------------------------------- #15, #16 stop and points
def test_stop_is_legal_at_every_decision_of_the_two_jokers_holder():
    """Pins docs/rules/jokers_of_death.md #15: turn, suit, follow, forced placement, ten."""
    game = new_game(["RJ BJ 8C KH 10H 7H 4H AH", "2C 3D 4H 5S 6C 7D 9H 10S",
                     "JC QD KH AS 9C 9D 3S 2S"])
    assert game.legal_texts()[-1] == "stop"
    step(game, "play 8C pile 2")
    assert game.legal_texts() == [*SUIT_TEXTS, "stop"]
    step(game, "suit C", "play KH pile 1")
    assert game.view(0).phase == "follow" and game.legal_texts()[-2:] == ["draw", "stop"]
    step(game, "play 10H pile 1")
    assert game.legal_texts() == ["play 7H pile 3", "stop"]  # no longer forced
    step(game, "play 7H pile 3")
    assert sorted(game.legal_texts()) == ["keep", "reverse", "stop"]
    start = step(game, "stop")
    assert game.terminated and game.winners == (1,)
    assert events_from(game, start) == [
        ("stop", 0, "", -1), ("hand_over", 1, "", 1), ("score", 0, "", 124),
        ("score", 1, "", 46), ("score", 2, "", 73), ("game_over", -1, "", 1)]


def test_stop_while_answering():
    """Pins docs/rules/jokers_of_death.md #15: the holder's take is a decision too."""
    game = new_game(["2H 6H 7H 8C 9S", "8S 10C JC QC KC", "RJ BJ 3D 3H 10D"])
    step(game, "play 2H pile 1", "play 6H pile 2", "play 7H pile 3")
    assert (game.current_player, game.legal_texts()) == (2, ["draw", "stop"])


def test_card_points_and_the_stopper_scores_the_jokers():
    """Pins docs/rules/jokers_of_death.md #16, #15: 2-10 face value, J Q K 10, A 20, Joker 50."""
    game = new_game(["RJ BJ 2C 9D 10H JS", "QC KD AH AS 3C 4D", "5C 6D 7H 8S 2D 10C"])
    assert "stop" in game.legal_texts()
    step(game, "stop")
    assert game.terminated and game.winners == (2,)
    assert game.final_scores() == (131, 67, 38)
    assert game.returns() == [-1.0, -1.0, 1.0]


def test_score_reward_is_points_against_the_table_mean():
    """Pins docs/rules/jokers_of_death.md #16: reward="score"."""
    game = new_game(["RJ BJ 2C 9D 10H JS", "QC KD AH AS 3C 4D", "5C 6D 7H 8S 2D 10C"],
                    reward="score")
    step(game, "stop")
    mean = (131 + 67 + 38) / 3
    assert game.returns() == pytest.approx([-(x - mean) / 100 for x in (131, 67, 38)])


# ---------------------------------------------------------------- #17 the match
OUT_HANDS = ("5H 6C", "5D 6D 7D")  # seat 0 knocks after 5H and goes out with 6C
OUT = ("play 5H pile 1", "knock", "play 6C pile 2")


def test_match_the_first_to_reach_the_target_loses_and_the_lowest_wins():
    """Pins docs/rules/jokers_of_death.md #17: one loser at 40 or more."""
    game = new_game([OUT_HANDS[0], "AC AD", "2H 3S"], OUT_HANDS[1], match=True,
                    target_score=40)
    step(game, *OUT)
    assert game.terminated and game.winners == (0,)
    assert game.final_scores() == (0, 40, 5)


def test_match_default_target_is_105():
    """Pins docs/rules/jokers_of_death.md #17, #15: 100 for the Jokers and 5 more lose."""
    lose = new_game(["RJ BJ 5C", "2C 3C 4C", "2D 3D 5D"], "5H 6H 7H", match=True)
    assert lose.config.target_score == 105
    step(lose, "stop")
    assert lose.terminated and lose.winners == (1,)
    assert lose.final_scores() == (105, 9, 10)
    below = new_game(["RJ BJ 4C", "2C 3C 5C", "2D 3D 5D"], "5H 6H 7H", match=True)
    step(below, "stop")
    assert not below.game_over
    assert below.state.scores == [104, 10, 10] and below.view(0).hand_number == 1


def test_match_hands_add_up_below_the_target():
    """Pins docs/rules/jokers_of_death.md #17: scores carry into the next hand."""
    game = new_game([OUT_HANDS[0], "AC AD", "2H 3S"], OUT_HANDS[1], match=True)
    step(game, *OUT)
    assert not game.game_over
    assert game.final_scores() == (0, 40, 5)
    assert game.view(1).scores == (0, 40, 5)


def test_match_a_tie_at_the_top_deals_another_hand():
    """Pins docs/rules/jokers_of_death.md #17: two at 40 with target 40: no loser yet."""
    game = new_game([OUT_HANDS[0], "AC AD", "AH AS"], OUT_HANDS[1], match=True,
                    target_score=40, seed=5)
    start = step(game, *OUT)
    assert not game.game_over
    assert events_from(game, start, "tie", "deal") == [("tie", -1, "", 40), ("deal", 2, "", 1)]
    assert game.state.scores == [0, 40, 40]
    rng = random.Random(2)
    while not game.game_over:
        game.step(rng.choice(game.legal_actions()))
    scores = list(game.final_scores())
    assert game.terminated and max(scores) >= 40 and scores.count(max(scores)) == 1
    assert game.winners == tuple(q for q in range(3) if scores[q] == min(scores))


def test_match_a_tie_at_the_bottom_shares_the_win():
    """Pins docs/rules/jokers_of_death.md #17: the lowest totals share the win."""
    game = new_game(["RJ BJ", "5C 5D", "4H 6S"], "5H 6H 7H", match=True, target_score=100)
    step(game, "stop")
    assert game.terminated and game.winners == (1, 2)
    assert game.final_scores() == (100, 10, 10)


# ---------------------------------------------------------------- #18 actions
def test_the_action_ids():
    """Pins docs/rules/jokers_of_death.md #18: 285 actions, ids 5 x card + pile - 1 first."""
    game = new_game(KNOCK_HANDS)
    assert len(G.actions) == 285
    assert game.parse_action("play AC pile 1") == 0
    assert game.parse_action("play AC pile 5") == 4
    assert game.parse_action("play 2C pile 1") == 5
    assert game.parse_action("play KS pile 3") == 5 * 51 + 2
    assert game.parse_action("play RJ pile 1") == 260
    assert game.parse_action("play BJ pile 5") == 269
    assert [game.parse_action(t) for t in SUIT_TEXTS] == [270, 271, 272, 273]
    assert [game.parse_action(t) for t in ("draw", "pass", "knock", "stop", "reverse",
                                           "keep")] == [274, 275, 276, 277, 278, 279]
    assert [game.parse_action(f"pick up pile {k}") for k in range(1, 6)] == [
        280, 281, 282, 283, 284]
    assert game.action_text(5 * 9 + 1) == "play 10C pile 2"


def test_legal_actions_are_ascending_with_stop_at_the_direction_decision():
    """Pins docs/rules/jokers_of_death.md #18, #15: legal action ids come ascending.

    (The engine contract, ``Engine.legal_actions``: "Legal action ids ..., ascending".)
    """
    game = new_game(["RJ BJ 8C KH 10H 7H 4H AH", "2C 3D 4H 5S 6C 7D 9H 10S",
                     "JC QD KH AS 9C 9D 3S 2S"])
    step(game, "play 10H pile 1", "play 8C pile 2", "suit C", "play 7H pile 3")
    assert game.view(0).phase == "direction"
    assert list(game.legal_actions()) == sorted(game.legal_actions())


# ---------------------------------------------------------------- #19 Hand Switching
SWITCH_HANDS = ["5D 6H 7C 9S", "3D 3S 7S JC", "5S 6D 7H 10C"]
SWITCH_PLAY = ("play 5D pile 1", "play 6H pile 2", "knock",  # seat 0: 7C forced
               "play 5S pile 1", "play 6D pile 2", "play 7H pile 3", "knock")  # seat 2


def test_three_of_diamonds_passes_every_hand_on_and_clears_knocks():
    """Pins docs/rules/jokers_of_death.md #19, #14: the player goes on with the hand received.

    Seats 0 and 2 knocked with one card each; seat 1's 3 of Diamonds sends seat 0's hand
    to seat 2, seat 2's to seat 1 and seat 1's to seat 0. Seat 1 now holds one card it
    has not knocked for: it decides at once.
    """
    game = new_game(SWITCH_HANDS, PILES, "5H 8H", hand_switching=True)
    step(game, *SWITCH_PLAY)
    assert game.view(0).knocked == (1, 0, 1) and game.current_player == 1
    start = step(game, "play 3D pile 2")
    assert events_from(game, start, "switch") == [("switch", 1, "", -1)]
    assert hands(game) == ["JC 3S 7S", "10C", "9S"]
    assert game.view(0).knocked == (0, 0, 0)
    assert table(game) == dict(tops="5S 3D 7H", suits="SDH", pending=[0, 0, 0],
                               to_play="x.x", current=1, phase="knock",
                               legal=["pass", "knock"])
    step(game, "knock")  # then 10C fits neither pile: the draw is forced, for two cards
    assert events_from(game, start, "draw") == [("draw", 1, "5H", -1), ("draw", 1, "8H", -1)]
    assert game.view(1).knocked == (0, 0, 0)
    assert game.legal_texts() == ["play 5H pile 1", "play 5H pile 3", "play 8H pile 1",
                                  "play 8H pile 3"]


def test_a_seat_remembers_the_hand_it_passed_on_when_it_determinizes():
    """Pins docs/rules/jokers_of_death.md #19: search deals the hand a seat passed on back to
    its receiver (less what the receiver has played since); the passing is private."""
    game = new_game(["5D 6H 7C 9S 4H", "3D 3S 7S JC QC", "5S 6D 7H 10C 2H"], PILES,
                    "5H 8H", hand_switching=True)
    step(game, "play 5D pile 1", "play 6H pile 2")  # 7C forced
    step(game, "play 5S pile 1", "play 6D pile 2", "play 7H pile 3")
    step(game, "play 3D pile 2")  # seat 1's 3 of Diamonds: 0 -> 2 -> 1 -> 0
    assert hands(game) == ["JC QC 3S 7S", "10C 2H", "4H 9S"]
    gives = events_from(game, 0, "give")
    assert gives == [("give", 0, "4H", 2), ("give", 0, "9S", 2), ("give", 1, "JC", 0),
                     ("give", 1, "QC", 0), ("give", 1, "3S", 0), ("give", 1, "7S", 0),
                     ("give", 2, "10C", 1), ("give", 2, "2H", 1)]
    seen_by_1 = [e for e in game.view(1).history() if e.kind == "give"]
    assert [card_text(e.card) for e in seen_by_1 if e.card >= 0] == ["JC", "QC", "3S", "7S"]
    assert all(e.card < 0 for e in seen_by_1 if e.player != 1)
    for seed in range(20):
        det = G.determinize(game.view(0), random.Random(seed))
        assert sorted(det.state.hands[2]) == sorted(game.state.hands[2])  # 4H 9S
        det = G.determinize(game.view(2), random.Random(seed))
        assert sorted(det.state.hands[1]) == sorted(game.state.hands[1])  # 10C 2H
    # without the switch nothing is known: the other hands are dealt at random
    plain = new_game(["5D 6H 7C 9S 4H", "3D 3S 7S JC QC", "5S 6D 7H 10C 2H"], PILES, "5H 8H")
    dealt = {tuple(sorted(G.determinize(plain.view(0), random.Random(s)).state.hands[2]))
             for s in range(20)}
    assert len(dealt) > 1


def test_a_three_of_diamonds_that_follows_switches_too():
    """Pins docs/rules/jokers_of_death.md #19, #12: "or as a follow"."""
    game = new_game(["KD 3D 5C 9S 10S", "6D 7C 8H 9H 10H", "2C 3C 4C JC QC"], PILES,
                    hand_switching=True)
    start = step(game, "play KD pile 3", "play 3D pile 3")
    assert events_from(game, start, "switch") == [("switch", 0, "", -1)]
    assert hands(game) == ["7C 6D 8H 9H 10H", "2C 3C 4C JC QC", "5C 9S 10S"]
    assert game.current_player == 0 and table(game)["to_play"] == "xx."


def test_without_the_option_the_three_of_diamonds_is_ordinary():
    """Pins docs/rules/jokers_of_death.md #19: hand_switching=False by default."""
    game = new_game(SWITCH_HANDS, PILES, "5H 8H")
    step(game, *SWITCH_PLAY)
    start = step(game, "play 3D pile 2")
    assert events_from(game, start, "switch") == []
    assert hands(game) == ["9S", "JC 3S 7S", "10C"]


def test_a_hand_of_one_card_received_is_knocked_for_at_the_start_of_the_turn():
    """Pins docs/rules/jokers_of_death.md #14, #19: neither knocked nor declined for."""
    game = new_game(["5D 6H 7C 9S 10S", "JS 9S 6S 3D 9C", "5S 6D 7S 9D 10D"], PILES,
                    hand_switching=True)
    step(game, "play 5D pile 1", "play 6H pile 2")  # 7C forced
    step(game, "play 5S pile 1", "play 6D pile 2")  # 7S forced
    assert game.current_player == 1
    step(game, "play JS pile 1", "play 9S pile 1", "play 6S pile 3")  # 3D is then forced
    assert events_from(game, 0, "play", "switch")[-2:] == [("play", 1, "3D", 1),
                                                           ("switch", 1, "", -1)]
    assert hands(game) == ["9C", "9D 10D", "9S 10S"]
    assert table(game) == dict(tops="9S 3D 6S", suits="SDS", pending=[0, 0, 0],
                               to_play="xxx", current=0, phase="knock",
                               legal=["pass", "knock"])


# ---------------------------------------------------------------- #20 Five Pile
def test_five_pile_four_players_four_decks_four_jokers_five_piles():
    """Pins docs/rules/jokers_of_death.md #20, #15: any two of the four Jokers stop."""
    config = JokersOfDeathConfig(num_players=4, five_pile=True)
    assert (config.decks, config.jokers, config.deck_size, config.piles) == (4, 4, 212, 5)
    deck = Counter(G(config, seed=2).full_deck())
    assert deck[RED_JOKER] == deck[BLACK_JOKER] == 2 and sum(deck.values()) == 212
    game = new_game(["RJ RJ 5D 6H 7C", "2C 3C 4C 9C 10C", "2D 3D 4D 9D 10D",
                     "2H 3H 4H 9H 10H"], "5H 6C 7D 9S 10S", five_pile=True)
    assert len(game.state.piles) == 5
    assert table(game) == dict(
        tops="5H 6C 7D 9S 10S", suits="HCDSS", pending=[0] * 5, to_play="xxxxx", current=0,
        phase="play", legal=["play 7C pile 2", "play 7C pile 3", "play 5D pile 1",
                             "play 5D pile 3", "play 6H pile 1", "play 6H pile 2", "draw",
                             "stop"])
    assert len(game.state.stock) == 212 - 20 - 5


def test_five_pile_is_refused_for_other_table_sizes():
    """Pins docs/rules/jokers_of_death.md #20: exactly four players."""
    for n in (2, 3, 5):
        with pytest.raises(eights.ConfigError, match="five_pile=True"):
            JokersOfDeathConfig(num_players=n, five_pile=True)


# ---------------------------------------------------------------- #21 Aces variant
def test_aces_on_every_pile_send_the_other_cards_back_into_the_stock():
    """Pins docs/rules/jokers_of_death.md #21: cards conserved, the turn goes on."""
    game = new_game(["AC AD 9H 10H 4S", "5S 6D 9C 3C 4C", "3D 5D 6H 9D 10C"], "AH 5C 5D",
                    aces=True)
    assert game.view(0).stock_size == 106 - 15 - 3
    step(game, "play AC pile 2")
    assert events_from(game, 0, "recycle") == []
    start = step(game, "play AD pile 3")
    assert events_from(game, start, "recycle") == [("recycle", -1, "", 2)]
    assert [cards_text(p) for p in game.state.piles] == ["AH", "AC", "AD"]
    assert game.view(0).stock_size == 106 - 15 - 3 + 2
    assert all_cards(game) == Counter(game.full_deck())
    assert table(game) == dict(tops="AH AC AD", suits="HCD", pending=[0, 0, 0],
                               to_play="x..", current=0, phase="play",
                               legal=["play 9H pile 1", "play 10H pile 1"])


def test_without_the_aces_option_the_piles_stay():
    """Pins docs/rules/jokers_of_death.md #21: aces=False by default."""
    game = new_game(["AC AD 9H 10H 4S", "5S 6D 9C 3C 4C", "3D 5D 6H 9D 10C"], "AH 5C 5D")
    start = step(game, "play AC pile 2", "play AD pile 3")
    assert events_from(game, start, "recycle") == []
    assert [cards_text(p) for p in game.state.piles] == ["AH", "5C AC", "5D AD"]


def test_the_aces_variant_only_counts_live_piles():
    """Pins docs/rules/jokers_of_death.md #21, #9: a killed pile keeps its cards."""
    game = new_game(["4S 6H 7H 8C 9H", "AH AH 9C 10C JC", "BJ 9D 5S 3H 10D"], FOUR_PILES,
                    aces=True)
    step(game, *FOUR_OPENING, "play BJ pile 1")
    assert game.view(1).killed == (True, False, False)
    stock = game.view(1).stock_size
    start = step(game, "play AH pile 2")  # the other AH on pile 3 (7H) is then forced
    assert events_from(game, start, "recycle") == [("recycle", -1, "", 4)]
    assert [cards_text(p) for p in game.state.piles] == ["5S 4S BJ", "AH", "AH"]
    # two Aces at three players: seat 1 plays again, and draws (nothing fits the Aces)
    drawn = len(events_from(game, start, "draw"))
    assert game.current_player == 1 and drawn > 0
    assert game.view(1).stock_size == stock + 4 - drawn
    assert all_cards(game) == Counter(game.full_deck())


def test_a_joker_that_kills_the_last_pile_without_an_ace_sends_the_others_back():
    """Pins docs/rules/jokers_of_death.md #21, #9: "whenever a placement leaves an Ace on top
    of every live pile", an answer's placement too: a Joker kills the one pile left
    without an Ace (found by a rules audit: only turns' placements were looked at, and the
    next turn covered an Ace, the recycle lost)."""
    game = new_game(["AH AD 4S 9H 9C 3D", "RJ 4H 5D 6H 8C 3S"], "5H AC 7S", aces=True)
    step(game, "play AH pile 1", "play AD pile 2")  # 4S on pile 3 is forced
    stock = game.view(1).stock_size
    start = step(game, "play RJ pile 3")
    assert events_from(game, start, "kill", "recycle") == [("kill", 1, "", 2),
                                                            ("recycle", -1, "", 2)]
    assert [cards_text(p) for p in game.state.piles] == ["AH", "AD", "7S 4S RJ"]
    assert game.view(0).stock_size == stock + 2
    assert all_cards(game) == Counter(game.full_deck())


def test_a_game_that_loops_is_truncated_at_max_turns():
    """Pins docs/rules/jokers_of_death.md #21: max_turns ends it, truncated."""
    game = new_game(KNOCK_HANDS, aces=True, max_turns=2)
    step(game, "play 5D pile 1")
    game.step("play 6H pile 2")
    assert game.truncated and not game.terminated and game.winners == ()
    assert events_from(game, len(game.events) - 1) == [("truncated", -1, "", 2)]


# ---------------------------------------------------------------- #22 Free Discard Pile
def test_a_pile_is_picked_up_only_at_the_start_of_an_ordinary_turn():
    """Pins docs/rules/jokers_of_death.md #22: before placing or drawing; never in an answer."""
    hands_ = ["2H 6H 7C 3S 4S", "RJ 8D AC 10S JS", "2S 10C JC QC KC"]
    game = new_game(hands_, PILES, "3D 4D", free_discard_pile=True)
    assert game.legal_texts() == ["play 7C pile 2", "play 7C pile 3", "play 2H pile 1",
                                  "play 6H pile 1", "play 6H pile 2", "pick up pile 1",
                                  "pick up pile 2", "pick up pile 3"]
    step(game, "play 2H pile 1")
    assert not any(a.startswith("pick up") for a in game.legal_texts())
    step(game, "play 6H pile 2")  # 7C on pile 3 is forced
    assert (game.view(2).phase, game.legal_texts()) == ("answer", ["play 2S pile 1", "draw"])
    plain = new_game(hands_, PILES, "3D 4D")
    assert not any(a.startswith("pick up") for a in plain.legal_texts())


def test_a_picked_up_pile_is_played_out_on_the_other_piles_without_effects():
    """Pins docs/rules/jokers_of_death.md #22: no follow, no penalty; then the first hand.

    Seat 0 leaves KH and 2H on pile 1 (seat 2 takes the 2). Seat 1 picks pile 1 up and
    plays it out on pile 2: the King needs no follow, the 2 starts no penalty. Then seat
    1 plays an ordinary turn on every live pile; the empty space takes any card but a
    Joker.
    """
    game = new_game(["KH 2H 6H 7C 3S 4S", "RJ 8D AC 10S JS QS", "9S 10C JC QC KC 3C"],
                    PILES, "3D 4D", free_discard_pile=True)
    step(game, "play KH pile 1", "play 2H pile 1", "play 6H pile 2")  # 7C forced; 2 taken
    assert game.current_player == 1 and "pick up pile 1" in game.legal_texts()
    start = step(game, "pick up pile 1")
    assert events_from(game, start, "pick_up") == [("pick_up", 1, "", 0)]
    assert game.state.piles[0] == [] and cards_text(game.view(1).picked_up) == "2H 5H KH"
    assert (game.view(1).phase, game.legal_texts()) == (
        "pile hand", ["play 2H pile 2", "play 5H pile 2", "play KH pile 2"])
    step(game, "play KH pile 2")
    assert (game.view(1).phase, game.legal_texts()) == (
        "pile hand", ["play 2H pile 2", "play 5H pile 2"])
    step(game, "play 2H pile 2")  # 5H is then forced
    assert game.view(1).pile_pending == (0, 0, 0) and game.view(1).picked_up == ()
    assert cards_text(game.state.piles[1]) == "6C 6H KH 2H 5H"
    assert table(game) == dict(tops="-- 5H 7C", suits="-HC", pending=[0, 0, 0],
                               to_play="xxx", current=1, phase="play",
                               legal=game.legal_texts())
    assert game.legal_texts() == ["play AC pile 1", "play AC pile 3", "play 8D pile 1",
                                  "play 8D pile 2", "play 8D pile 3", "play 10S pile 1",
                                  "play JS pile 1", "play QS pile 1"]


def test_a_picked_up_pile_that_does_not_fit_is_a_penalty():
    """Pins docs/rules/jokers_of_death.md #22: pass; the cards join the hand and count twice.

    Seat 0 picks up pile 1 (5H), which fits neither other pile: the pass is forced, 5H
    joins the hand and its 5 points are a penalty. Seat 2 may then put any card on the
    empty space. Seat 2 stops the hand: seat 0 scores its hand (5H included) plus 5.
    """
    game = new_game(["9S 10S 3C", "2C 3D 4H", "RJ BJ 4D"], PILES, free_discard_pile=True)
    start = step(game, "pick up pile 1")
    assert events_from(game, start, "pick_up", "pile_penalty") == [
        ("pick_up", 0, "", 0), ("pile_penalty", 0, "", 5)]
    assert hands(game)[0] == "3C 5H 9S 10S" and game.view(0).penalties == (5, 0, 0)
    assert (game.current_player, game.legal_texts()) == (
        2, ["play 4D pile 1", "play 4D pile 3", "draw", "stop", "pick up pile 2",
            "pick up pile 3"])
    step(game, "stop")
    assert game.final_scores() == (3 + 5 + 9 + 10 + 5, 9, 104)


def test_a_hand_stopped_during_a_picked_up_pile_counts_its_cards_as_a_penalty():
    """Pins docs/rules/jokers_of_death.md #22, #15: the cards not yet played out count."""
    game = new_game(["RJ BJ 3C", "2C 3D 4H", "9S 10S 4D"], PILES, free_discard_pile=True)
    step(game, "pick up pile 1")
    assert game.legal_texts() == ["pass", "stop"]  # 5H fits nowhere: pass, or stop
    step(game, "stop")
    assert game.terminated and game.final_scores()[0] >= 100 + 3 + 5


def test_a_knock_stands_through_a_picked_up_pile_and_the_first_hands_last_card_goes_out():
    """Pins docs/rules/jokers_of_death.md #22, #14: the knock counts the first hand only.

    Seat 0 knocks with 9H, the others decline at one card; at its next turn seat 0 picks
    up pile 1, plays it out on piles 2 and 3 (no knock asked, nothing ends), then puts 9H
    on the empty space and goes out.
    """
    game = new_game(["5S 6D 7S 9H", "5C 6S 7C 3D", "5D 6H 7H 3C"], PILES, "2D 3H 4C 8S",
                    free_discard_pile=True)
    step(game, "play 5S pile 1", "play 6D pile 2", "knock")  # 7S on pile 3 was forced
    step(game, "play 5D pile 1", "play 6H pile 2", "pass", "play 5C pile 1",
         "play 6S pile 2", "pass")
    assert (game.current_player, game.view(0).knocked) == (0, (1, -1, -1))
    step(game, "pick up pile 1", "play 5S pile 2", "play 5C pile 3", "play 5H pile 2",
         "play 5D pile 2")
    assert not game.game_over and game.view(0).knocked[0] == 1
    assert game.legal_texts() == ["play 9H pile 1", "draw"]
    step(game, "play 9H pile 1")
    assert game.terminated and game.winners == (0,)


def test_covers_agrees_with_trying_every_assignment():
    """Pins docs/rules/jokers_of_death.md #5: the matching finds distinct cards for every
    pile exactly when some assignment of the hand's cards (copies apart) does."""
    from itertools import permutations

    from eights.engines.jokers_of_death import covers

    rng = random.Random(5)
    for _ in range(3000):
        piles = rng.randint(1, 5)
        hand = [rng.randrange(8) for _ in range(rng.randint(0, 6))]
        fit = [set(rng.sample(range(8), rng.randint(0, 4))) for _ in range(piles)]
        fitting = [[c for c in sorted(set(hand)) if c in f] for f in fit]
        brute = any(all(hand[i] in f for i, f in zip(order, fit, strict=True))
                    for order in permutations(range(len(hand)), piles))
        assert covers(fitting, hand.count) == brute, (hand, fit)
