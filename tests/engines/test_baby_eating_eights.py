"""Scenario tests for baby_eating_eights: every rule of the Baby-Eating Eights rules from a
stacked deck.

Each test that pins an interpretation says "Pins docs/rules/baby_eating_eights.md #N".
Positions are written as hands (seat order), the starter and the top of the draw pile
(first card drawn first); the rest of the draw pile lies below in card-id order.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

from eights.cards import SUITS, card_text, cards_text, parse_cards, sort_key
from eights.config import ConfigError
from eights.engines.baby_eating_eights import (
    EXPANDED_DECK_SIZE,
    NUM_ACTIONS,
    BabyEatingEightsConfig,
    BabyEatingEightsGame,
)
from eights.engines.base import GameRecord, IllegalActionError
from eights.engines.determinizers.baby_eating_eights import seat_knowledge
from eights.engines.table import Frame
from tests.conftest import all_cards

G = BabyEatingEightsGame


# ---------------------------------------------------------------- helpers
def new_game(hands: list[str], starter: str, stock: str = "", *, first: int = 0, seed: int = 0,
             **options) -> BabyEatingEightsGame:
    """A game dealt exactly ``hands`` (seat order), ``starter`` turned, ``stock`` on top."""
    return G.stacked(hands, starter, stock.split(), first_player=first, seed=seed,
                     hand_size=len(hands[0].split()), **options)


def norm(text: str) -> str:
    """Cards in the order a view shows them (by suit, then rank; jokers last)."""
    return cards_text(sorted(parse_cards(text), key=sort_key))


def hands(game: BabyEatingEightsGame) -> list[str]:
    return [cards_text(sorted(h, key=sort_key)) for h in game.state.hands]


def sizes(game: BabyEatingEightsGame) -> list[int]:
    return [len(h) for h in game.state.hands]


def events_from(game: BabyEatingEightsGame, start: int) -> list[tuple]:
    """Events from index ``start`` on, cards as text ('' for none)."""
    return [(e.kind, e.player, "" if e.card < 0 else card_text(e.card), e.arg)
            for e in game.events[start:]]


def table(game: BabyEatingEightsGame) -> dict:
    """The public essentials of the position, for one exact comparison."""
    s = game.state
    return dict(top=card_text(s.top), suit=SUITS[s.suit] if s.suit >= 0 else "-",
                current=game.current_player, actor=s.actor, phase=game.view(0).phase,
                direction=s.direction, legal=game.legal_texts())



def step(game: BabyEatingEightsGame, *actions: str) -> int:
    """Apply ``actions``; return the event index from before the first."""
    start = len(game.events)
    for a in actions:
        game.step(a)
    return start


def set_position(game: BabyEatingEightsGame, hands_text: list[str], stock: str, drop: str,
                 current: int, victim: int = -1) -> None:
    """Put the game in a position no short deal reaches: hands, draw pile (top first),
    drop pile (bottom first, top last), the player to act. Every card must be placed."""
    s = game.state
    s.hands = [parse_cards(h) for h in hands_text]
    s.stock = parse_cards(stock)[::-1]
    game.set_pile(0, parse_cards(drop))
    s.suits[0] = s.top // 13
    s.agenda = [Frame("turn", current, (False,))]
    if victim >= 0:  # the Guarantee Joker's mode: its standing frame under the turn
        s.agenda.insert(0, Frame("mode", victim))
    s.run_number, s.run_length = -1, 0
    s.combo_used = victim >= 0
    assert all_cards(game) == Counter(game.full_deck())
    game._settle()


SUIT_TEXTS = ["suit C", "suit D", "suit H", "suit S"]


# ---------------------------------------------------------------- deck, deal, players
def test_single_deck_has_54_cards_with_both_jokers():
    """Pins docs/rules/baby_eating_eights.md #1: 54 cards, two told-apart jokers."""
    game = G(seed=1, num_players=4)
    assert not game.config.expanded and game.config.num_decks == 1
    assert game.full_deck() == list(range(54))
    assert all_cards(game) == Counter(range(54))
    assert card_text(game.guarantee) == "RJ" and card_text(game.other_joker) == "BJ"
    black = G(seed=1, num_players=4, guarantee_joker="BJ")
    assert card_text(black.guarantee) == "BJ" and card_text(black.other_joker) == "RJ"
    assert black.view(0).guarantee_joker == 53


def test_expanded_deck_contents():
    """Pins docs/rules/baby_eating_eights.md #1: the second deck lacks KH, AS and the jokers."""
    game = G(seed=1, num_players=3, deck_type="expanded")
    counts = Counter(game.full_deck())
    assert len(game.full_deck()) == EXPANDED_DECK_SIZE == 104
    assert {card_text(c) for c, k in counts.items() if k == 1} == {"KH", "AS", "RJ", "BJ"}
    assert all(k == 2 for c, k in counts.items() if card_text(c) not in ("KH", "AS", "RJ", "BJ"))
    assert all_cards(game) == counts
    assert len(G.stacked_deck(["AC", "AD", "AH"], "2C", expanded=True)) == 104
    with pytest.raises(ConfigError, match="exactly the game's 104 cards"):
        G(num_players=3, deck_type="expanded", deck=G.stacked_deck(["AC", "AD", "AH"], "2C"))


@pytest.mark.parametrize(("players", "expanded"), [(2, False), (5, False), (6, True),
                                                   (8, True), (17, True)])
def test_expanded_deck_is_the_default_above_five_players(players, expanded):
    """Pins docs/rules/baby_eating_eights.md #1: deck_type='auto' expands above five players."""
    game = G(seed=3, num_players=players)
    assert game.config.deck_type == "auto"
    assert game.config.expanded is expanded
    assert len(game.full_deck()) == (104 if expanded else 54)
    single = G(seed=3, num_players=min(players, 8), deck_type="single")
    assert len(single.full_deck()) == 54


@pytest.mark.parametrize(("options", "message"), [
    (dict(num_players=9, deck_type="single"),
     "num_players=9 with hand_size=6 needs 55 cards .* single 54-card deck .* at most 8 "
     "players; deck_type='expanded' seats up to 17"),
    (dict(num_players=8, hand_size=7, deck_type="single"), "needs 57 cards .* at most 7 players"),
    (dict(num_players=17, hand_size=7), "needs 120 cards .* expanded 104-card deck .* at most "
                                        "14 players"),
    (dict(num_players=18), "num_players=18 is not allowed; num_players must be an integer "
                           "from 2 to 17"),
    (dict(num_players=1), "num_players=1 is not allowed"),
])
def test_player_count_limits_name_the_limit(options, message):
    """Pins docs/rules/baby_eating_eights.md #1: 2 to 8 players, 17 with the expanded deck."""
    with pytest.raises(ConfigError, match=message):
        G(**options)
    G(num_players=8, deck_type="single")
    G(num_players=17)
    G(num_players=9)


def test_deal_six_each_and_the_dealers_left_plays_first():
    """Pins docs/rules/baby_eating_eights.md #2: six each, dealt singly from the dealer's left."""
    h = ["3C 4D 5H 6S 7C 9C", "10D JH KS AS 2C 3D", "4H 5S 6C 7D 8H 9H"]
    deck = G.stacked_deck(hands=h, starter="KD", first_player=1)
    assert cards_text(deck[:3]) == "10D 4H 3C"  # seat 1 (the dealer's left), 2, then 0
    game = G(deck=deck, first_player=1, num_players=3)
    assert game.config.hand_size == 6
    assert [cards_text(x) for x in game.state.hands] == h
    assert len(game.state.stock) == 54 - 18 - 1
    assert table(game) == dict(top="KD", suit="D", current=1, actor=1, phase="play",
                               direction=1, legal=["play 3D", "play 10D", "play KS"])
    assert events_from(game, 0) == [("deal", 1, "", 0), ("starter", -1, "KD", -1)]
    firsts = {G(seed=s, num_players=3).state.first for s in range(30)}
    assert firsts == {0, 1, 2}  # the first player is drawn by the engine when not given


@pytest.mark.parametrize("starter", ["AS", "2S", "4S", "5S", "7S", "10S", "QS", "KS", "KH"])
def test_the_starter_has_no_effect(starter):
    """Pins docs/rules/baby_eating_eights.md #3: the turned-up card's effect does not happen."""
    game = new_game(["JS QS JH QH 4C 5C", "2D 3D 4D 5D 6D 7D", "9D 10D JD QD KD AD"]
                    if starter != "QS" else
                    ["JS 10S JH QH 4C 5C", "2D 3D 4D 5D 6D 7D", "9D 10D JD QD KD AD"], starter)
    assert events_from(game, 0) == [("deal", 0, "", 0), ("starter", -1, starter, -1)]
    assert (game.current_player, game.state.direction, sizes(game)) == (0, 1, [6, 6, 6])
    assert len(game.state.stock) == 35


def test_a_three_as_starter_cancels_nothing():
    """Pins docs/rules/baby_eating_eights.md #3: a starter Three does not cancel the first card."""
    game = new_game(["2S 2C 4C 5C 6C 7C", "AD 2D 4D 5D 6D 7D", "9S 10S JD QD KD 10D"], "3S")
    # Seat 0's only playable card is the 2S: the engine plays it, and it skips seat 1.
    assert events_from(game, 2) == [("play", 0, "2S", -1), ("skip", 1, "", -1)]
    assert game.current_player == 2 and game.legal_texts() == ["play 9S", "play 10S"]


@pytest.mark.parametrize("starter", ["8D", "RJ", "BJ"])
def test_a_wild_starter_lets_any_card_be_played(starter):
    """Pins docs/rules/baby_eating_eights.md #3: anything may go on a turned-up Eight or Joker."""
    game = new_game(["2C 3D 4H 5S 6C 7D", "AD 2D 4D 4S 6D 9D"], starter)
    assert game.view(0).free
    assert game.legal_texts() == ["play 2C", "play 6C", "play 3D", "play 7D", "play 4H",
                                  "play 5S"]
    step(game, "play 4H")
    assert not game.view(0).free
    assert table(game) == dict(top="4H", suit="H", current=1, actor=1, phase="play",
                               direction=-1, legal=["play 4D", "play 4S"])


# ---------------------------------------------------------------- matching, must play, drawing
def test_match_suit_or_number_and_six_and_nine_are_one_number():
    """Pins docs/rules/baby_eating_eights.md #4: suit or number; 6 and 9 are one number."""
    game = new_game(["9C 6S 2H KD 8C QS", "6D 9D 3C AD 2D 4S", "JH QH KH AH 2S 3S"], "6H")
    assert game.legal_texts() == ["play 8C", "play 9C", "play 2H", "play 6S"]
    step(game, "play 9C")
    assert table(game) == dict(top="9C", suit="C", current=1, actor=1, phase="play",
                               direction=1, legal=["play 3C", "play 6D", "play 9D"])


def test_must_play_a_playable_card():
    """Pins docs/rules/baby_eating_eights.md #5: no voluntary draw while a card can be played."""
    game = new_game(["5H KD 5S 6S 7C 2C", "9C 10D JH KS AS 3C"], "KH")
    assert game.legal_texts() == ["play KD", "play 5H"]
    with pytest.raises(IllegalActionError, match="'draw' is not legal"):
        game.step("draw")


def test_eight_joker_and_king_of_hearts_may_be_held_back():
    """Pins docs/rules/baby_eating_eights.md #5, #6: only wilds and KH playable: draw allowed;
    the draw goes on until a playable card, which must then be played."""
    game = new_game(["8D KH RJ 2S 3S 4S", "9C 10C JC QC KC AC"], "5H", "2C 3C 6H")
    assert game.legal_texts() == ["play 8D", "play KH", "draw", "play RJ"]
    start = step(game, "draw")
    assert events_from(game, start) == [("draw", 0, "2C", -1), ("draw", 0, "3C", -1),
                                        ("draw", 0, "6H", -1)]
    assert table(game) == dict(top="5H", suit="H", current=0, actor=0, phase="play",
                               direction=1,
                               legal=["play 8D", "play 6H", "play KH", "play RJ"])
    with pytest.raises(IllegalActionError, match="'draw' is not legal"):
        game.step("draw")


def test_cannot_match_draws_until_playable_then_plays_it():
    """Pins docs/rules/baby_eating_eights.md #6: draw until playable, same turn; forced moves
    are the engine's own."""
    game = new_game(["2C 3C 4C 6C 7C 9C", "JC JH 5D 6D 2H 4H", "AS 4S 5S 6S 7S 10S"], "KD",
                    "2S 3H JD")
    assert events_from(game, 2) == [("draw", 0, "2S", -1), ("draw", 0, "3H", -1),
                                    ("draw", 0, "JD", -1), ("play", 0, "JD", -1)]
    assert game.turn == 2 and game.record().actions == ()
    assert hands(game)[0] == norm("2C 3C 4C 6C 7C 9C 2S 3H")
    assert table(game) == dict(top="JD", suit="D", current=1, actor=1, phase="play",
                               direction=1, legal=["play JC", "play 5D", "play 6D", "play JH"])
    seen = game.view(1).history()
    assert [(e.kind, e.card) for e in seen[2:5]] == [("draw", -1)] * 3


def test_a_drawn_wild_may_be_held_back_and_the_draw_goes_on():
    """Pins docs/rules/baby_eating_eights.md #6: a drawn Eight stops the draw; holding it back
    draws on."""
    game = new_game(["2C 3C 4C 6C 7C 9C", "JC JH 5D 6D 2H 3H"], "KD", "8S 2S JD")
    assert events_from(game, 2) == [("draw", 0, "8S", -1)]
    assert game.legal_texts() == ["play 8S", "draw"]
    start = step(game, "draw")
    assert events_from(game, start) == [("draw", 0, "2S", -1), ("draw", 0, "JD", -1)]
    assert game.legal_texts() == ["play JD", "play 8S"]


REBUILD_HANDS = [
    "JH 8C JC 7D 8D 9D 10D QD KD AH 2H 3H 4H 5H 6H 7H 8H",
    "AC 2C 3C 4C 5C 6C 7C 9C 10C QC KC AD 2D 3D 4D 5D 6D",
    "9H 10H QH KH AS 4S 5S 6S 7S 8S 9S 10S JS QS KS RJ BJ",
]


def test_an_empty_draw_pile_is_rebuilt_from_the_drop_pile_under_its_top():
    """Pins docs/rules/baby_eating_eights.md #7: the drop pile but its top card becomes the
    draw pile when a draw finds it empty."""
    game = new_game(REBUILD_HANDS, "JD", "2S 3S")
    assert len(game.state.stock) == 2
    start = step(game, "play JH")
    assert events_from(game, start) == [
        ("play", 0, "JH", -1), ("draw", 1, "2S", -1), ("draw", 1, "3S", -1),
        ("reshuffle", -1, "", 1), ("draw", 1, "JD", -1), ("play", 1, "JD", -1),
    ]
    assert cards_text(game.state.discard) == "JH JD"
    assert game.state.stock == []
    assert game.current_player == 2
    assert all_cards(game) == Counter(range(54))


def test_nothing_to_draw_passes_and_a_short_forced_draw_takes_what_there_is():
    """Pins docs/rules/baby_eating_eights.md #7: with both piles spent, the turn passes and a
    forced draw draws what can be drawn."""
    game = new_game(["2C 3C 4C 5C 6C 7C", "AD 2D 3D 4D 5D 6D"], "9C")
    others = [card_text(c) for c in range(54)
              if card_text(c) not in ("2C", "3C", "4C", "5H", "AH", "7H")]
    set_position(game, ["2C 3C 4C", " ".join(others + ["AH", "7H"])], "", "5H", current=0)
    assert events_from(game, 2)[-1] == ("pass", 0, "", -1)
    assert game.current_player == 1
    start = step(game, "play AH")
    assert events_from(game, start) == [
        ("play", 1, "AH", -1), ("reshuffle", -1, "", 1), ("draw", 0, "5H", -1),
        ("forced_draw", 0, "", 1), ("play", 0, "5H", -1),
    ]
    assert (sizes(game)[0], game.view(0).phase) == (3, "five target")


# ---------------------------------------------------------------- every card
def test_ace_next_player_draws_two_and_still_plays():
    """Pins docs/rules/baby_eating_eights.md #8: a forced draw does not cost the turn."""
    game = new_game(["AH 2C 3C 4C 5C 7C", "2D 3D 4D 5D 7D JD", "9S 10S JS QS KS 2S"], "9H",
                    "7H 3S")
    assert events_from(game, 2) == [("play", 0, "AH", -1), ("draw", 1, "7H", -1),
                                    ("draw", 1, "3S", -1), ("forced_draw", 1, "", 2),
                                    ("play", 1, "7H", -1)]
    assert game.view(1).phase == "seven target" and game.current_player == 1


def test_ace_of_spades_makes_the_next_player_draw_four():
    """Pins docs/rules/baby_eating_eights.md #8."""
    game = new_game(["AS 2C 3C 4C 5C 7C", "2D 3D 4D 5D 7D JD", "9H 10H JH QH KH 2H"], "9S",
                    "2S 3S 4H 5H")
    assert events_from(game, 3) == [("draw", 1, "2S", -1), ("draw", 1, "3S", -1),
                                    ("draw", 1, "4H", -1), ("draw", 1, "5H", -1),
                                    ("forced_draw", 1, "", 4)]
    assert sizes(game) == [5, 10, 6]
    assert table(game) == dict(top="AS", suit="S", current=1, actor=1, phase="play",
                               direction=1, legal=["play 2S", "play 3S"])


def test_two_skips_the_next_player():
    """Pins docs/rules/baby_eating_eights.md #9; with two players the Two's player goes again."""
    game = new_game(["2H 9H KH JC 3C 4C", "6H 10H 2D 3D 4D 5D", "7H QH 2S 3S 4S 5S"], "JH")
    assert game.legal_texts() == ["play JC", "play 2H", "play 9H", "play KH"]
    start = step(game, "play 2H")
    assert events_from(game, start) == [("play", 0, "2H", -1), ("skip", 1, "", -1)]
    assert table(game) == dict(top="2H", suit="H", current=2, actor=2, phase="play",
                               direction=1, legal=["play 7H", "play QH", "play 2S"])
    two = new_game(["2H 9H KH JC 3C 4C", "6H 10H 2D 3D 4D 5D"], "JH")
    step(two, "play 2H")
    assert (two.current_player, two.legal_texts()) == (0, ["play 9H", "play KH"])


@pytest.mark.parametrize("card", ["AS", "2S", "4S", "5S", "7S", "10S", "QS", "KS"])
def test_three_cancels_the_next_cards_effect(card):
    """Pins docs/rules/baby_eating_eights.md #10: a Three cancels every effect of the card on it."""
    game = new_game(["3S 2C 4C 5C 7C 10C", f"{card} 2D 4D 5D 7D 10D", "JS 6S 2H 4H JH 7H"], "9S")
    assert events_from(game, 2) == [("play", 0, "3S", -1), ("play", 1, card, -1),
                                    ("cancelled", 1, card, -1)]
    assert (game.current_player, game.state.actor, game.state.direction) == (2, 2, 1)
    assert game.view(2).phase == "play"
    assert sizes(game) == [5, 5, 6]
    assert len(game.state.stock) == 35


def test_joker_on_a_three_names_the_suit_but_nobody_draws():
    """Pins docs/rules/baby_eating_eights.md #10: the Joker's suit choice stands on a Three."""
    game = new_game(["3S 2C 4C 5C 7C 10C", "RJ 2D 4D 5D 7D 10D", "JH 6S 2H 4H QH 7H"], "9S")
    assert game.current_player == 1 and game.legal_texts() == ["draw", "play RJ"]
    start = step(game, "play RJ", "suit H")
    assert events_from(game, start) == [("play", 1, "RJ", -1), ("suit", 1, "", 2),
                                        ("cancelled", 1, "RJ", -1)]
    assert sizes(game) == [5, 5, 6]
    assert table(game) == dict(top="RJ", suit="H", current=2, actor=2, phase="play",
                               direction=1,
                               legal=["play 2H", "play 4H", "play 7H", "play JH", "play QH"])


def test_eight_on_a_three_names_the_suit():
    """Pins docs/rules/baby_eating_eights.md #10: wilds work normally on a Three."""
    game = new_game(["3S 2C 4C 5C 7C 10C", "8D 2D 4D 5D 7D 10D", "JH 6S 2H 4H QC 9C"], "9S")
    assert game.legal_texts() == ["play 8D", "draw"]
    start = step(game, "play 8D", "suit C")
    assert events_from(game, start) == [("play", 1, "8D", -1), ("suit", 1, "", 0)]
    assert table(game) == dict(top="8D", suit="C", current=2, actor=2, phase="play",
                               direction=1, legal=["play 9C", "play QC"])


def test_a_three_on_a_three_cancels_nothing_further():
    """Pins docs/rules/baby_eating_eights.md #10: the second Three's own effect is cancelled."""
    game = new_game(["3S 2C 4C 5C 7C 10C", "3D AH 4H 5H 7H 10H", "2D 6S JH 4S QH 7S"], "9S")
    # Every move here is the only legal one, so the engine makes them all.
    assert events_from(game, 2)[:5] == [("play", 0, "3S", -1), ("play", 1, "3D", -1),
                                        ("cancelled", 1, "3D", -1), ("play", 2, "2D", -1),
                                        ("skip", 0, "", -1)]
    assert game.state.actor == 1


@pytest.mark.parametrize(("cancels", "redealt"), [(True, False), (False, True)])
def test_three_cancels_the_king_of_hearts_option(cancels, redealt):
    """Pins docs/rules/baby_eating_eights.md #10, #18: KH on a Three; the option spares it."""
    game = new_game(["3H 2C 4C 5C 7C 10C", "KH 2D 4D 5D 7D 10D", "JH 6S 2H 4H QH 7S"], "9H",
                    three_cancels_king_of_hearts=cancels)
    assert game.legal_texts() == ["play KH", "draw"]
    start = step(game, "play KH")
    kinds = [e[0] for e in events_from(game, start)]
    assert ("redeal" in kinds) is redealt
    assert ("cancelled" in kinds) is not redealt
    assert len(game.state.discard) == (1 if redealt else 3)
    assert sizes(game) == ([6, 6, 6] if redealt else [5, 5, 6])


@pytest.mark.parametrize(("card", "legal"), [("6S", ["play 6C", "play 2S"]),
                                             ("9S", ["play 9C", "play 2S"])])
def test_six_or_nine_on_a_three_locks_out_the_other_number(card, legal):
    """Pins docs/rules/baby_eating_eights.md #11: after a Three no switching between 6 and 9."""
    game = new_game(["3S 2C 4C 5C 7C 10C", f"{card} 2D 4D 5D 7D 10D", "9C 6C 2S 2H 4H 5H"],
                    "KS")
    assert events_from(game, 2) == [("play", 0, "3S", -1), ("play", 1, card, -1),
                                    ("locked", 1, card, -1)]
    assert game.view(2).locked and game.current_player == 2
    assert game.legal_texts() == legal
    unlocked = new_game(["JS 2C 4C 5C 7C 10C", f"{card} 2D 4D 5D 7D 10D",
                         "9C 6C 2S 2H 4H 5H"], "KS")
    assert events_from(unlocked, 2) == [("play", 0, "JS", -1), ("play", 1, card, -1)]
    assert unlocked.legal_texts() == ["play 6C", "play 9C", "play 2S"]
    assert not unlocked.view(2).locked


def test_four_reverses_the_direction():
    """Pins docs/rules/baby_eating_eights.md #12: reverse; with two players nothing is skipped."""
    game = new_game(["4H JC 2C 3C 5C 7C", "6H 10H 2D 3D 4D 5D", "7H 9H 2S 3S 4S 5S"], "JH")
    start = step(game, "play 4H")
    assert events_from(game, start) == [("play", 0, "4H", -1), ("reverse", 0, "", -1)]
    assert table(game) == dict(top="4H", suit="H", current=2, actor=2, phase="play",
                               direction=-1, legal=["play 7H", "play 9H", "play 4S"])
    step(game, "play 9H")
    assert (game.current_player, game.legal_texts()) == (1, ["play 6H", "play 10H"])
    two = new_game(["4H JC 2C 3C 5C 7C", "6H 10H 2D 3D 4D 5D"], "JH")
    step(two, "play 4H")
    assert (two.current_player, two.state.direction) == (1, -1)
    assert two.legal_texts() == ["play 4D", "play 6H", "play 10H"]


def test_five_makes_any_chosen_player_draw_one():
    """Pins docs/rules/baby_eating_eights.md #13: any player, the Five's player included."""
    game = new_game(["5H JC 2C 3C 4C 7C", "6H 10H 2D 3D 4D 5D", "7H QH 2S 3S 4S 5S"], "JH",
                    "9S 3H")
    assert game.legal_texts() == ["play JC", "play 5H"]
    step(game, "play 5H")
    assert table(game) == dict(top="5H", suit="H", current=0, actor=0, phase="five target",
                               direction=1, legal=["target 0", "target 1", "target 2"])
    start = step(game, "target 2")
    assert events_from(game, start) == [("five", 0, "", 2), ("draw", 2, "9S", -1),
                                        ("forced_draw", 2, "", 1)]
    assert (sizes(game), game.current_player) == ([5, 6, 7], 1)
    self_game = new_game(["5H JC 2C 3C 4C 7C", "6H 10H 2D 3D 4D 5D", "7H QH 2S 3S 4S 5S"],
                         "JH", "9S 3H")
    start = step(self_game, "play 5H", "target 0")
    assert events_from(self_game, start)[1:] == [("five", 0, "", 0), ("draw", 0, "9S", -1),
                                                 ("forced_draw", 0, "", 1)]
    assert (sizes(self_game), self_game.current_player) == ([6, 6, 6], 1)


def test_seven_swaps_one_blind_card_each_way():
    """Pins docs/rules/baby_eating_eights.md #14: any other player; uniformly random picks."""
    game = new_game(["7S 6C 2C 3C 4C 5C", "8S 10S 2D 3D 4D 5D", "9H 10H 2H QH KH 3H"], "9S")
    assert game.legal_texts() == ["play 6C", "play 7S"]
    step(game, "play 7S")
    assert table(game) == dict(top="7S", suit="S", current=0, actor=0, phase="seven target",
                               direction=1, legal=["target 1", "target 2"])
    before = [Counter(h) for h in game.state.hands]
    start = step(game, "target 2")
    evs = events_from(game, start)
    assert [e[:2] for e in evs] == [("swap", 0), ("take", 0), ("give", 2), ("take", 2),
                                    ("give", 0)]
    got, gave = parse_cards([evs[1][2], evs[3][2]])
    assert evs[0][3] == 2 and evs[1][3] == 2 and evs[2] == ("give", 2, evs[1][2], 0)
    assert before[2][got] and before[0][gave]
    assert Counter(game.state.hands[0]) == before[0] - Counter([gave]) + Counter([got])
    assert Counter(game.state.hands[2]) == before[2] - Counter([got]) + Counter([gave])
    assert sizes(game) == [5, 6, 6] and game.current_player == 1
    # Who sees what: each side its own take and give; the third player neither card.
    for seat, visible in ((0, {("take", 0), ("give", 0)}), (2, {("take", 2), ("give", 2)}),
                          (1, set())):
        for e in game.view(seat).history()[start + 1:start + 5]:
            assert (e.card >= 0) == ((e.kind, e.player) in visible)


def test_seven_picks_come_from_the_engines_generator():
    """Pins docs/rules/baby_eating_eights.md #14: the blind picks are chance, seeded."""
    results = set()
    for seed in range(12):
        deck = G.stacked_deck(["7S 6C 2C 3C 4C 5C", "2D 3D 4D 5D 6D JD", "9H 10H 2H QH KH 3H"],
                              "9S")
        game = G(deck=deck, first_player=0, num_players=3, seed=seed)
        step(game, "play 7S", "target 2")
        results.add(tuple(sorted(game.state.hands[0])))
        again = G(deck=deck, first_player=0, num_players=3, seed=seed)
        step(again, "play 7S", "target 2")
        assert again.state.hands == game.state.hands
    assert len(results) > 3


def test_eight_is_wild_and_names_any_suit():
    """Pins docs/rules/baby_eating_eights.md #15."""
    game = new_game(["8C JH 3C 4C 5C 6C", "2D 3D 4D 5D 6D JD", "9H 10H 2S QS KS 3S"], "9D")
    assert game.legal_texts() == ["play 6C", "play 8C"]
    step(game, "play 8C")
    assert table(game)["legal"] == SUIT_TEXTS and table(game)["phase"] == "choose suit"
    step(game, "suit D")
    assert table(game) == dict(top="8C", suit="D", current=1, actor=1, phase="play",
                               direction=1, legal=["play 2D", "play 3D", "play 4D", "play 5D",
                                                   "play 6D", "play JD"])


def test_joker_is_wild_and_the_next_player_draws_four():
    """Pins docs/rules/baby_eating_eights.md #19."""
    game = new_game(["BJ JH 3C 4C 5C 7C", "2D 3D 4D 5D 6D JD", "9H 10H 2S QS KS 3S"], "9S",
                    "2H 3H 4H 5H")
    assert game.legal_texts() == ["draw", "play BJ"]
    start = step(game, "play BJ", "suit H")
    assert events_from(game, start) == [
        ("play", 0, "BJ", -1), ("suit", 0, "", 2), ("draw", 1, "2H", -1),
        ("draw", 1, "3H", -1), ("draw", 1, "4H", -1), ("draw", 1, "5H", -1),
        ("forced_draw", 1, "", 4)]
    assert table(game) == dict(top="BJ", suit="H", current=1, actor=1, phase="play",
                               direction=1, legal=["play 2H", "play 3H", "play 4H", "play 5H"])


def test_ten_next_player_draws_and_the_player_drops_again_in_a_chain():
    """Pins docs/rules/baby_eating_eights.md #16: Tens chain; the extra drop is a full turn."""
    game = new_game(["10H JH 10S 2C 3C 4C", "6H 9S 2H 3H 4H 5H", "AD 2D 3D 5D 7D KD"], "9H",
                    "2S 3S 4D 6S")
    assert game.legal_texts() == ["play 10H", "play JH"]
    start = step(game, "play 10H")
    assert events_from(game, start) == [("play", 0, "10H", -1), ("draw", 1, "2S", -1),
                                        ("forced_draw", 1, "", 1), ("again", 0, "", -1)]
    assert table(game) == dict(top="10H", suit="H", current=0, actor=0, phase="play",
                               direction=1, legal=["play JH", "play 10S"])
    assert game.view(1).extra_drop
    start = step(game, "play 10S")
    assert events_from(game, start) == [
        ("play", 0, "10S", -1), ("draw", 1, "3S", -1), ("forced_draw", 1, "", 1),
        ("again", 0, "", -1), ("draw", 0, "4D", -1), ("draw", 0, "6S", -1),
        ("play", 0, "6S", -1)]
    assert table(game) == dict(top="6S", suit="S", current=1, actor=1, phase="play",
                               direction=1,
                               legal=["play 6H", "play 2S", "play 3S", "play 9S"])


def test_ten_again_draws_option_ends_the_turn_instead():
    """Pins docs/rules/baby_eating_eights.md #16: ten_again_draws=False."""
    game = new_game(["10H JH 10S 2C 3C 4C", "6H 9S 2H 3H 4H 5H", "AD 2D 3D 5D 7D KD"], "9H",
                    "2S 3S 4D 6S", ten_again_draws=False)
    start = step(game, "play 10H", "play 10S")
    assert events_from(game, start)[-2:] == [("again", 0, "", -1), ("pass", 0, "", -1)]
    assert (game.current_player, sizes(game)) == (1, [4, 8, 6])


def test_queen_jack_round_and_the_top_jack_sets_what_the_next_player_matches():
    """Pins docs/rules/baby_eating_eights.md #17: round from the next seat to the Queen's player;
    a player with two or more Jacks picks the top one; the next player matches the top Jack."""
    game = new_game(["QD 2C 3C 4C 5C", "JC JS 2H 3H 4S", "AD 6C 7C 9C 10C", "JH 2D 3D 4D 5D"],
                    "9D")
    assert events_from(game, 2) == [("play", 0, "QD", -1), ("jack_round", 0, "", -1)]
    assert table(game) == dict(top="QD", suit="D", current=1, actor=0, phase="jack round",
                               direction=1, legal=["play JC", "play JS"])
    start = step(game, "play JC")
    assert events_from(game, start) == [
        ("play", 1, "JS", -1), ("play", 1, "JC", -1), ("no_jacks", 2, "", -1),
        ("play", 3, "JH", -1), ("no_jacks", 0, "", -1), ("jack_round_over", -1, "JH", -1)]
    assert table(game) == dict(top="JH", suit="H", current=1, actor=1, phase="play",
                               direction=1, legal=["play 2H", "play 3H"])
    assert cards_text(game.state.discard) == "9D QD JS JC JH"


def test_queen_when_nobody_has_jacks_the_next_player_matches_the_queen():
    """Pins docs/rules/baby_eating_eights.md #17."""
    # Seat 0's QH is its only playable card; its own JD is the only Jack of the round.
    game = new_game(["QH JD 2C 3C 4C 5C", "QS 2D 3S 4D 5D 6D", "AD KD 7C 9C 10C 2H"], "9H")
    assert events_from(game, 2) == [
        ("play", 0, "QH", -1), ("jack_round", 0, "", -1), ("no_jacks", 1, "", -1),
        ("no_jacks", 2, "", -1), ("play", 0, "JD", -1), ("jack_round_over", -1, "JD", -1)]
    assert table(game) == dict(top="JD", suit="D", current=1, actor=1, phase="play",
                               direction=1, legal=["play 2D", "play 4D", "play 5D", "play 6D"])
    nobody = new_game(["QH 2C 3C 4C 5C 6C", "QS KH 2D 4D 5D 6D", "AD KD 7C 9C 10C 2H"], "9H")
    assert nobody.legal_texts() == ["play 6C", "play QH"]
    start = step(nobody, "play QH")
    assert events_from(nobody, start) == [
        ("play", 0, "QH", -1), ("jack_round", 0, "", -1), ("no_jacks", 1, "", -1),
        ("no_jacks", 2, "", -1), ("no_jacks", 0, "", -1), ("jack_round_over", -1, "QH", -1)]
    assert table(nobody) == dict(top="QH", suit="H", current=1, actor=1, phase="play",
                                 direction=1, legal=["play KH", "play QS"])


def test_going_out_in_the_jack_round_ends_the_game_at_once():
    """Pins docs/rules/baby_eating_eights.md #17, #23."""
    game = new_game(["QH 2C", "3D 4D", "JC JS"], "9H")
    assert game.current_player == 2 and game.legal_texts() == ["play JC", "play JS"]
    start = step(game, "play JS")
    assert events_from(game, start) == [("play", 2, "JC", -1), ("play", 2, "JS", -1),
                                        ("out", 2, "", -1), ("game_over", -1, "", 1)]
    assert game.terminated and game.winners == (2,)
    assert game.returns() == [-1.0, -1.0, 1.0]


@pytest.mark.parametrize(("players", "teams", "skipped", "next_up"), [
    (4, 0, [1, 2], 3), (3, 0, [1, 2], 0), (2, 0, [1], 0),
    (4, 2, [1], 2), (6, 2, [1], 2), (6, 3, [1, 2], 3),
])
def test_kings_skip_two_or_to_the_ally(players, teams, skipped, next_up):
    """Pins docs/rules/baby_eating_eights.md #18, #24: the next two seats miss their turn; in
    team play play goes straight to the King's player's next ally."""
    fill = ["2D 3D 4D 5D 2S 4S", "2H 3H 4H 5H 5S 6S", "JC QC 2C 3C 7S QS",
            "9D 10D JD QD 8S JS", "9H 10H JH QH AH AS"]
    h = ["KS 10S 3S 6C 7C AC"] + [fill[k] for k in range(players - 1)]
    game = new_game(h, "9S", teams=teams)
    assert game.legal_texts() == ["play 6C", "play 3S", "play 10S", "play KS"]
    start = step(game, "play KS")
    assert events_from(game, start) == [("play", 0, "KS", -1)] + [
        ("skip", p, "", -1) for p in skipped]
    assert (game.current_player, game.state.actor) == (next_up, next_up)
    assert len(game.legal_actions()) == 2


def test_the_literal_two_player_king_skips_both_seats():
    """Pins docs/rules/baby_eating_eights.md #18: ``two_player_king="literal"`` skips the
    opponent and then the King's player, so the opponent plays next."""
    h = ["KS 10S 3S 6C 7C AC", "2D 3D 4D 5D 2S 4S"]
    game = new_game(h, "9S", two_player_king="literal")
    start = step(game, "play KS")
    assert events_from(game, start) == [("play", 0, "KS", -1), ("skip", 1, "", -1),
                                        ("skip", 0, "", -1)]
    assert game.current_player == 1


def test_king_of_hearts_redeals_every_other_card():
    """Pins docs/rules/baby_eating_eights.md #18: all but KH shuffled, six each, order kept."""
    game = new_game(["KH JH 3C 4C 5C 6C", "2D 3D 4D 5D 6D JD", "9S 10S 2S QS 2H 3S"], "9H")
    old = [list(h) for h in game.state.hands]
    start = step(game, "play KH")
    assert events_from(game, start) == [("play", 0, "KH", -1), ("redeal", 0, "KH", 6)]
    assert sizes(game) == [6, 6, 6]
    assert cards_text(game.state.discard) == "KH" and len(game.state.stock) == 35
    assert all_cards(game) == Counter(range(54))
    assert game.state.hands != old
    assert table(game)["top"] == "KH" and table(game)["suit"] == "H"
    assert (game.current_player, game.state.actor, game.state.direction) == (1, 1, 1)
    assert (game.state.run_number, game.state.run_length) == (13, 1)


# ---------------------------------------------------------------- Four in a Row
def test_four_in_a_row_every_player_puts_a_card_at_the_bottom():
    """Pins docs/rules/baby_eating_eights.md #20: the starter counts; the fourth card's player
    places first, in the direction of play; bottom cards are public."""
    game = new_game(["JD 2C 3C", "JH 4H 5H", "JS 6S 7S", "9S 10S 2D"], "JC")
    assert game.legal_texts() == ["play 2C", "play 3C", "play JD"]
    start = step(game, "play JD")
    assert events_from(game, start) == [
        ("play", 0, "JD", -1), ("play", 1, "JH", -1), ("play", 2, "JS", -1),
        ("four_in_a_row", 2, "", 11)]
    assert table(game) == dict(top="JS", suit="S", current=2, actor=2, phase="four in a row",
                               direction=1, legal=["bottom 6S", "bottom 7S"])
    start = step(game, "bottom 7S", "bottom 2D", "bottom 3C", "bottom 4H")
    assert events_from(game, start) == [("bottom", 2, "7S", -1), ("bottom", 3, "2D", -1),
                                        ("bottom", 0, "3C", -1), ("bottom", 1, "4H", -1)]
    assert cards_text(game.state.discard) == "4H 3C 2D 7S JC JD JH JS"
    assert game.view(1).discard_counts == game.view(2).discard_counts
    assert [e.card >= 0 for e in game.view(1).history()[start:]] == [True] * 4
    assert table(game) == dict(top="JS", suit="S", current=3, actor=3, phase="play",
                               direction=1, legal=["play 9S", "play 10S"])
    assert (game.state.run_number, game.state.run_length) == (11, 0)


def test_four_in_a_row_runs_across_a_king_of_hearts_redeal():
    """Pins docs/rules/baby_eating_eights.md #20: "four cards of the same number are dropped
    in succession, with no cards in between": the King of Hearts' redeal puts no card on the
    pile, so a King dropped after it is the fourth King in a row."""
    game = new_game(["KD 2C 3C", "4H 5H 6H", "7S 9S 10S", "KH 2D 3D"], "KC", seed=1)
    step(game, "play KD")  # the second King (the starter counts); seats 1 and 2 are skipped
    start = step(game, "play KH")  # the third: every other card is redealt
    assert events_from(game, start) == [("play", 3, "KH", -1), ("redeal", 3, "KH", 3)]
    assert (game.state.run_number, game.state.run_length) == (13, 3)
    assert "play KS" in game.legal_texts()  # the redeal (seed 1) gave seat 0 a King
    start = step(game, "play KS")
    assert events_from(game, start) == [("play", 0, "KS", -1), ("four_in_a_row", 0, "", 13)]
    assert game.view(0).phase == "four in a row"


def test_a_king_of_hearts_that_completes_four_in_a_row_is_counted_once():
    """Pins docs/rules/baby_eating_eights.md #20: the round comes first, then the redeal; the
    count starts again from the next card, so the King of Hearts does not count again."""
    game = new_game(["KD 2C 3C", "4H 5H 6H", "KH 9S 10S", "KS 2D 3D"], "KC", seed=16)
    start = step(game, "play KD", "play KS", "play KH")
    assert events_from(game, start)[-2:] == [("play", 2, "KH", -1),
                                             ("four_in_a_row", 2, "", 13)]
    start = step(game, "bottom 9S", "bottom 2D", "bottom 2C", "bottom 4H")
    assert events_from(game, start)[-1] == ("redeal", 2, "KH", 3)
    assert (game.state.run_number, game.state.run_length) == (13, 0)
    assert table(game)["legal"] == ["play KD", "play JH"]  # seed 16 deals seat 3 a King
    start = step(game, "play KD")  # the first King of a new run, not the second
    assert "four_in_a_row" not in [e[0] for e in events_from(game, start)]


@pytest.mark.parametrize("counted", [True, False])
def test_four_in_a_row_with_sixes_and_nines(counted):
    """Pins docs/rules/baby_eating_eights.md #20: 6s and 9s are one number (an option)."""
    game = new_game(["9C 2H 3H", "9D 4H 5H", "6D 7H 10H", "6H 9H 2S"], "6C",
                    six_nine_four_in_a_row=counted)
    kinds = [e[0] for e in events_from(game, 2)]
    assert ("four_in_a_row" in kinds) is counted
    assert game.view(0).phase == ("four in a row" if counted else "play")
    assert game.current_player == (2 if counted else 3)


def test_four_in_a_row_with_the_jacks_of_a_queen_round():
    """Pins docs/rules/baby_eating_eights.md #17, #20: the Jack round pauses for Four in a Row."""
    game = new_game(["QD 2C 3C 4C 5C KC", "JC JD JH 6S 7S 2H", "JS 6C 7C 9C 10C 3D",
                     "AH 3H 4H 5H 6H 7H"],
                    "9D")
    assert game.legal_texts() == ["play JC", "play JD", "play JH"]
    start = step(game, "play JH")
    assert events_from(game, start) == [
        ("play", 1, "JC", -1), ("play", 1, "JD", -1), ("play", 1, "JH", -1),
        ("play", 2, "JS", -1), ("four_in_a_row", 2, "", 11)]
    assert (game.current_player, game.view(0).phase) == (2, "four in a row")
    start = step(game, "bottom 10C", "bottom 5H", "bottom 5C", "bottom 6S")
    assert events_from(game, start) == [
        ("bottom", 2, "10C", -1), ("bottom", 3, "5H", -1), ("bottom", 0, "5C", -1),
        ("bottom", 1, "6S", -1), ("no_jacks", 3, "", -1), ("no_jacks", 0, "", -1),
        ("jack_round_over", -1, "JS", -1), ("play", 1, "7S", -1)]
    assert table(game) == dict(top="7S", suit="S", current=1, actor=1, phase="seven target",
                               direction=1, legal=["target 0", "target 2", "target 3"])


def test_four_in_a_row_emptying_hands_wins_together():
    """Pins docs/rules/baby_eating_eights.md #20, #23: everyone places, then all who are out win."""
    game = new_game(["JD 2C", "JH 3D", "JS 4H", "5C 6C"], "JC")
    step(game, "play JD", "play JH")
    start = step(game, "play JS")
    assert events_from(game, start) == [("play", 2, "JS", -1), ("four_in_a_row", 2, "", 11),
                                        ("bottom", 2, "4H", -1)]
    assert game.current_player == 3 and game.legal_texts() == ["bottom 5C", "bottom 6C"]
    start = step(game, "bottom 6C")
    assert events_from(game, start) == [
        ("bottom", 3, "6C", -1), ("bottom", 0, "2C", -1), ("bottom", 1, "3D", -1),
        ("out", 0, "", -1), ("out", 1, "", -1), ("out", 2, "", -1), ("game_over", -1, "", 3)]
    assert game.winners == (0, 1, 2)
    assert game.final_scores() == (0, 0, 0, 1)
    assert game.ranks() == (0, 0, 0, 3)


# ---------------------------------------------------------------- the Guarantee Joker
COMBO_HANDS = ["BJ 2D 3D 4D 6D 7D", "RJ AC AD 2C 3C 7C"]


def test_guarantee_joker_combo_and_its_mode_from_start_to_end():
    """Pins docs/rules/baby_eating_eights.md #21, #22: the whole draw pile; then skips and draws
    from the affected hand until the piles hold three cards per player."""
    game = new_game(COMBO_HANDS, "5C", "2H 3H 4H 5H")
    assert game.legal_texts() == ["draw", "play BJ"]
    step(game, "play BJ", "suit H")
    assert sizes(game) == [5, 10]
    assert game.legal_texts() == ["play 2H", "play 3H", "play 4H", "play 5H", "play RJ"]
    start = step(game, "play RJ", "suit S")
    evs = events_from(game, start)
    assert evs[:3] == [("play", 1, "RJ", -1), ("suit", 1, "", 3), ("guarantee", 0, "", 37)]
    assert [e[:2] for e in evs[3:40]] == [("draw", 0)] * 37
    # the draw pile ran out: the drop pile under the Guarantee Joker is the new one at once
    assert evs[40:] == [("forced_draw", 0, "", 37), ("reshuffle", -1, "", 2),
                        ("guarantee_mode", 0, "", 6), ("no_draw", 0, "", 4)]
    assert sizes(game) == [42, 9] and sorted(game.state.stock) == parse_cards("5C BJ")
    view = game.view(1)
    assert (view.guarantee_victim, view.guarantee_spent, view.stock_size) == (0, True, 2)
    assert game.current_player == 0
    # Seat 1 cannot match the 9S: skipped, nothing drawn.
    start = step(game, "play 9S")
    assert events_from(game, start) == [("play", 0, "9S", -1), ("pass", 1, "", -1)]
    assert game.current_player == 0 and sizes(game) == [41, 9]
    # The Ace of Spades' four cards come out of seat 0's hand, blindly.
    start = step(game, "play AS")
    evs = events_from(game, start)
    assert evs[0] == ("play", 0, "AS", -1)
    assert [e[:2] for e in evs[1:]] == [("take", 1), ("give", 0)] * 4
    assert sizes(game) == [36, 13] and game.state.victim == 0
    assert all(e.card == -1 for e in game.view(1).history()[start + 1:] if e.kind == "give")
    assert all(e.card >= 0 for e in game.view(1).history()[start + 1:] if e.kind == "take")
    # The AC brings the piles to six (three per player): the mode ends, the draw is normal.
    assert {"play AC", "play AD"} <= set(game.legal_texts())
    start = step(game, "play AC")
    evs = events_from(game, start)
    assert evs[:2] == [("play", 1, "AC", -1), ("guarantee_over", 0, "", 6)]
    # the Ace's two take the draw pile's two cards, and it is remade from the drop pile
    assert [e[:2] for e in evs[2:]] == [("draw", 0), ("draw", 0), ("reshuffle", -1),
                                        ("forced_draw", 0)]
    assert game.state.victim == -1 and game.view(0).guarantee_spent
    assert sizes(game) == [38, 12] and len(game.state.stock) == 3
    assert all_cards(game) == Counter(range(54))


def test_a_draw_pile_run_out_by_the_other_jokers_four_is_remade_before_the_combo():
    """Pins docs/rules/baby_eating_eights.md #7, #21: "if, at any point the draw pile runs
    out", the face-up cards under the top are the new draw pile at once, so the other
    Joker's four that empties the draw pile leaves a whole one for the combo to give."""
    game = new_game(["2C 3C 4C 5C 6C 7C", "AD 2D 3D 4D 5D 6D"], "9C")
    listed = ["BJ", "2C", "RJ", "3D", "2H", "3H", "4H", "5H"]
    drop = [card_text(c) for c in range(54) if card_text(c) not in listed]
    set_position(game, ["BJ 2C", "RJ 3D"], "2H 3H 4H 5H", " ".join(drop), current=0)
    start = step(game, "play BJ", "suit H")
    assert [e[0] for e in events_from(game, start)][-3:] == ["draw", "reshuffle", "forced_draw"]
    assert sizes(game) == [1, 6] and len(game.state.stock) == len(drop)
    start = step(game, "play RJ", "suit S")
    evs = events_from(game, start)
    assert ("guarantee", 0, "", len(drop)) in evs
    assert sizes(game)[0] == 1 + len(drop)
    assert all_cards(game) == Counter(range(54))


@pytest.mark.parametrize(("replaces", "p0", "p2"), [(False, 32, 10), (True, 36, 6)])
def test_guarantee_combo_next_player_draws_from_the_affected_hand(replaces, p0, p2):
    """Pins docs/rules/baby_eating_eights.md #21, #22: the Guarantee Joker's own draw four
    comes out of the affected hand (or not at all with combo_replaces_draw_four)."""
    game = new_game(COMBO_HANDS + ["KD 2S 3S 4S 5S 6S"], "5C", "2H 3H 4H 5H",
                    combo_replaces_draw_four=replaces)
    step(game, "play BJ", "suit H")
    start = step(game, "play RJ", "suit S")
    evs = events_from(game, start)
    assert ("guarantee", 0, "", 31) in evs and ("guarantee_mode", 0, "", 9) in evs
    takes = [e for e in evs if e[0] == "take"]
    assert len(takes) == (0 if replaces else 4) and all(e[1:4:2] == (2, 0) for e in takes)
    assert sizes(game) == [p0, 9, p2]


def test_reverse_order_jokers_do_nothing_unusual():
    """Pins docs/rules/baby_eating_eights.md #21: the other Joker on the Guarantee Joker."""
    game = new_game(["RJ 2D 3D 4D 6D 7D", "BJ AC 2C 3C 4C 7C"], "5C", "2H 3H 4H 5H 6H 7H 8H 9H")
    step(game, "play RJ", "suit H")
    assert game.legal_texts() == ["play 2H", "play 3H", "play 4H", "play 5H", "play BJ"]
    start = step(game, "play BJ", "suit S")
    assert events_from(game, start) == [("play", 1, "BJ", -1), ("suit", 1, "", 3)] + [
        ("draw", 0, c, -1) for c in ("6H", "7H", "8H", "9H")] + [("forced_draw", 0, "", 4)]
    assert "guarantee" not in [e.kind for e in game.events]
    assert not game.view(0).guarantee_spent and sizes(game) == [9, 9]


def test_the_other_joker_turned_up_gives_no_combo():
    """Pins docs/rules/baby_eating_eights.md #21: nobody dropped the starter Joker."""
    game = new_game(["RJ 2D 3D 4D 6D 7D", "AC 2C 3C 4C 7C 9C"], "BJ", "2H 3H 4H 5H")
    start = step(game, "play RJ", "suit C")
    assert [e[0] for e in events_from(game, start)] == [
        "play", "suit", *["draw"] * 4, "forced_draw"]
    assert not game.view(0).guarantee_spent


def test_the_combo_happens_once_until_a_king_of_hearts():
    """Pins docs/rules/baby_eating_eights.md #22: once spent, the combo is a plain Joker."""
    game = new_game(COMBO_HANDS, "5C", "2H 3H 4H 5H 6H 7H 8H 9H")
    game.state.combo_used = True  # the position after an earlier combo, before any KH
    step(game, "play BJ", "suit H")
    start = step(game, "play RJ", "suit S")
    assert events_from(game, start) == [("play", 1, "RJ", -1), ("suit", 1, "", 3)] + [
        ("draw", 0, c, -1) for c in ("6H", "7H", "8H", "9H")] + [("forced_draw", 0, "", 4)]
    assert sizes(game) == [9, 9] and game.state.victim == -1


def test_king_of_hearts_ends_the_mode_and_resets_the_guarantee_joker():
    """Pins docs/rules/baby_eating_eights.md #18, #22."""
    game = new_game(COMBO_HANDS, "5C", "2H 3H 4H 5H", guarantee_cards_per_player=10,
                    two_player_king="literal")
    step(game, "play BJ", "suit H", "play RJ", "suit S")
    assert game.state.victim == 0 and game.state.combo_used
    start = step(game, "play 9S", "play KS")
    assert events_from(game, start) == [
        ("play", 0, "9S", -1), ("pass", 1, "", -1), ("play", 0, "KS", -1),
        ("skip", 1, "", -1), ("skip", 0, "", -1), ("pass", 1, "", -1)]
    start = step(game, "play KH")
    assert events_from(game, start) == [("play", 0, "KH", -1), ("redeal", 0, "KH", 6),
                                        ("guarantee_over", 0, "", 42)]
    view = game.view(1)
    assert (view.guarantee_victim, view.guarantee_spent) == (-1, False)
    assert sizes(game) == [6, 6] and len(game.state.stock) == 41
    assert all_cards(game) == Counter(range(54))
    assert game.state.actor == 1


def test_the_affected_player_emptied_by_draws_has_gone_out():
    """Pins docs/rules/baby_eating_eights.md #22, #23: draws out of the affected hand can empty
    it, and that player wins."""
    game = new_game(["2D 3D 4D", "5D 6D 7D", "9D 10D JD"], "KD", guarantee_cards_per_player=20)
    rest = [card_text(c) for c in range(54) if card_text(c) not in (
        "AH", "3C", "4C", "6C", "7C", "2C", "5H")]
    set_position(game, ["AH 3C 4C", "6C 7C", "2C"], "", " ".join(rest + ["5H"]), current=0,
                 victim=2)
    assert events_from(game, 2) == [
        ("play", 0, "AH", -1), ("take", 1, "2C", 2), ("give", 2, "2C", 1), ("out", 2, "", -1),
        ("game_over", -1, "", 1)]
    assert game.winners == (2,) and game.final_scores() == (2, 3, 0)


def test_a_round_of_skips_ends_the_mode():
    """Pins docs/rules/baby_eating_eights.md #22: if nobody can match for a whole round, the
    mode ends (it would loop for ever) and drawing resumes."""
    game = new_game(COMBO_HANDS, "5C", guarantee_cards_per_player=20)
    clubs = "AC 2C 3C 4C 6C 7C 9C 10C JC QC KC"
    diamonds = "AD 2D 3D 4D 6D 7D 9D 10D JD QD KD"
    hearts = "AH 2H 3H 4H 6H 7H 8H 9H 10H JH QH KH"
    # Seat 0's mode; every card that could go on the 5H lies in the drop pile.
    set_position(game, [clubs + " AS 2S 3S 4S 6S 7S", diamonds + " 9S 10S JS QS KS"], "",
                 hearts + " 5C 5D 5S 8C 8D 8S RJ BJ 5H", current=0, victim=0)
    assert events_from(game, 2)[:5] == [
        ("pass", 0, "", -1), ("pass", 1, "", -1), ("stuck", -1, "", -1),
        ("guarantee_over", 0, "", 21), ("reshuffle", -1, "", 20)]
    assert [e[:2] for e in events_from(game, 7)][:1] == [("draw", 0)]
    assert game.state.victim == -1 and all_cards(game) == Counter(range(54))


# ---------------------------------------------------------------- teams
def test_team_seating_allies_apart():
    """Pins docs/rules/baby_eating_eights.md #24: seat s is in team s % teams."""
    assert G(seed=1, num_players=4, teams=2).team_of == (0, 1, 0, 1)
    assert G(seed=1, num_players=5, teams=2).team_of == (0, 1, 0, 1, 0)
    assert G(seed=1, num_players=6, teams=3).team_of == (0, 1, 2, 0, 1, 2)
    assert G(seed=1, num_players=7, teams=3).team_of == (0, 1, 2, 0, 1, 2, 0)
    assert G(seed=1, num_players=3).team_of == (0, 1, 2)
    assert G(seed=1, num_players=6, teams=2).view(4).teams == (0, 1, 0, 1, 0, 1)


@pytest.mark.parametrize(("options", "message"), [
    (dict(num_players=4, teams=1), "teams=1 is not allowed with num_players=4; every team "
                                   "needs at least two players"),
    (dict(num_players=5, teams=3), "teams must be 0 .* or from 2 to 2"),
    (dict(num_players=3, teams=2), "teams need at least 4 players"),
    (dict(num_players=2, teams=2), "teams need at least 4 players"),
])
def test_team_counts_are_checked(options, message):
    """Pins docs/rules/baby_eating_eights.md #24: every team needs two players."""
    with pytest.raises(ConfigError, match=message):
        G(**options)


def test_seven_may_swap_with_the_ally():
    """Pins docs/rules/baby_eating_eights.md #14, #24."""
    game = new_game(["7S 6C 2C 3C 4C 5C", "2D 3D 4D 5D 6D JD", "9H 10H 2H QH KH 3H",
                     "AD 9D 10D QD KD 2S"], "9S", teams=2)
    step(game, "play 7S")
    assert game.legal_texts() == ["target 1", "target 2", "target 3"]
    start = step(game, "target 2")
    assert events_from(game, start)[0] == ("swap", 0, "", 2)


def test_a_team_wins_together():
    """Pins docs/rules/baby_eating_eights.md #23, #24, #25: winners hold the whole team; team
    scores are the team's cards left."""
    game = new_game(["AH", "2D", "3D", "4D"], "9H", teams=2)
    assert game.terminated and game.winners == (0, 2)
    assert events_from(game, 2) == [("play", 0, "AH", -1), ("out", 0, "", -1),
                                    ("game_over", -1, "", 2)]
    assert game.returns() == [1.0, -1.0, 1.0, -1.0]
    assert game.final_scores() == (1, 2, 1, 2)
    assert game.ranks() == (0, 2, 0, 2)
    assert game.view(3).scores == (1, 2, 1, 2)


# ---------------------------------------------------------------- the end
@pytest.mark.parametrize("last", ["AH", "8C", "KH", "QH", "10H", "5H", "7H"])
def test_going_out_wins_at_once_without_the_last_cards_effect(last):
    """Pins docs/rules/baby_eating_eights.md #23."""
    game = new_game([last, "JD", "2S"], "9H")
    if last in ("8C", "KH"):  # a wild or the King of Hearts may be held back: a decision
        assert game.legal_texts() == [f"play {last}", "draw"]
        game.step(f"play {last}")
    assert game.terminated and game.winners == (0,)
    assert events_from(game, 2) == [("play", 0, last, -1), ("out", 0, "", -1),
                                    ("game_over", -1, "", 1)]
    assert sizes(game) == [0, 1, 1]
    assert game.final_scores() == (0, 1, 1) and game.ranks() == (0, 1, 1)
    assert game.legal_actions() == () and game.current_player == -1


def test_a_last_card_that_makes_four_in_a_row_just_wins():
    """Pins docs/rules/baby_eating_eights.md #23: the game ends before the round starts."""
    game = new_game(["JD JS", "JH 2C"], "JC")  # the starter is the first Jack of the run
    start = step(game, "play JD")  # seat 1's JH and then seat 0's JS are forced
    assert events_from(game, start) == [
        ("play", 0, "JD", -1), ("play", 1, "JH", -1), ("play", 0, "JS", -1),
        ("out", 0, "", -1), ("game_over", -1, "", 1)]
    assert game.terminated and game.winners == (0,) and sizes(game) == [0, 1]


def test_scores_are_cards_left_and_the_score_reward():
    """Pins docs/rules/baby_eating_eights.md #25."""
    assert G.low_score_wins
    rng = random.Random(0)
    game = G(seed=8, num_players=3, reward="score")
    while not game.game_over:
        game.step(rng.choice(game.legal_actions()))
    assert game.terminated
    scores = game.final_scores()
    assert scores == tuple(sizes(game)) and min(scores) == 0
    mean = sum(scores) / 3
    assert game.returns() == [(mean - x) / 6 for x in scores]


def test_turn_limit_truncates():
    """Pins docs/rules/baby_eating_eights.md #26."""
    game = G(seed=4, num_players=3, max_turns=6)
    while not game.game_over:
        game.step(game.legal_actions()[0])
    assert game.truncated and not game.terminated
    assert game.turn == 6 and game.events[-1].kind == "truncated"
    assert game.returns() == [0.0] * 3 and game.ranks() == (0, 0, 0)


# ---------------------------------------------------------------- actions, config, records
def test_action_space():
    """Pins docs/rules/baby_eating_eights.md #27."""
    texts = G.actions.texts
    assert len(G.actions) == NUM_ACTIONS == 131
    assert (texts[0], texts[51], texts[52], texts[55], texts[56], texts[57]) == (
        "play AC", "play KS", "suit C", "suit S", "draw", "pass")
    assert (texts[58], texts[59], texts[60], texts[76]) == (
        "play RJ", "play BJ", "target 0", "target 16")
    assert (texts[77], texts[77 + 38], texts[130]) == ("bottom AC", "bottom KH", "bottom BJ")
    assert G.actions.parse("bottom 7c") == 77 + 6
    assert G.actions.parse("play rj") == 58
    assert G.actions.parse("Target 3") == 63


def test_config_defaults():
    """Pins docs/rules/baby_eating_eights.md #27."""
    config = G(seed=0).config
    assert config.to_dict() == dict(
        num_players=2, deck_type="auto", hand_size=6, teams=0, guarantee_joker="RJ",
        guarantee_cards_per_player=3, combo_replaces_draw_four=False,
        three_cancels_king_of_hearts=True, ten_again_draws=True, six_nine_four_in_a_row=True,
        two_player_king="again",
        reward="win_loss", max_turns=3000)
    assert "deck_type" in BabyEatingEightsConfig.describe()


@pytest.mark.parametrize(("option", "value"), [
    ("deck_type", "double"), ("guarantee_joker", "XJ"), ("teams", -1), ("hand_size", 0),
    ("ten_again_draws", 1), ("reward", "points"), ("max_turns", 0),
])
def test_bad_config_values_name_the_option(option, value):
    with pytest.raises(ConfigError, match=f"{option}={value!r} is not allowed"):
        G(**{option: value})


@pytest.mark.parametrize("action", ["play 9C", "suit H", "target 1", "bottom 2C", "pass"])
def test_illegal_actions_raise_and_leave_the_game_unchanged(action):
    game = new_game(["5H KD 5S 6S 7C 2C", "9C 10D JH KS AS 3C"], "KH")
    before = (game.render(), game.legal_actions(), len(game.events))
    with pytest.raises(IllegalActionError, match="legal: play KD, play 5H"):
        game.step(action)
    assert (game.render(), game.legal_actions(), len(game.events)) == before


def test_determinize_keeps_the_card_a_seat_gave_and_the_jacks_nobody_holds():
    """Pins docs/rules/baby_eating_eights.md #28: what a seat's own history proves about
    other hands survives every determinization of its view."""
    rng = random.Random(0)
    game = new_game(["7S 6C 2C 3C 4C 5C", "8S 10S 2D 3D 4D 5D", "9H 10H 2H QH KH 3H"], "9S")
    start = step(game, "play 7S", "target 2")
    gave = [e.card for e in game.view(0).history()[start:] if e.kind == "give" and e.player == 0]
    assert seat_knowledge(game.view(0)).placed == ((gave[0], 2),)
    assert seat_knowledge(game.view(1)).placed == ()  # seat 1 saw neither card
    for _ in range(50):
        assert gave[0] in G.determinize(game.view(0), rng).state.hands[2]
    # A Jack round: seat 1 drops both Jacks, seats 2, 3 and 0 have none; JD is in the stock.
    game = new_game(["QD 2C 3C 4C 5C", "JC JS 2S 3S 4S", "AD 6C 7C 9C 10C", "JH 2D 3D 4D 5D"],
                    "9D")  # seat 0's QD is forced: the engine plays it
    step(game, "play JC")
    assert table(game)["top"] == "JH" and game.current_player == 1
    assert seat_knowledge(game.view(1)).jackless == {0, 2, 3}
    jd = parse_cards("JD")[0]
    for _ in range(50):
        det = G.determinize(game.view(1), rng)
        assert not any(jd in det.state.hands[q] for q in (0, 2, 3))
    step(game, "draw")  # seat 1 cannot follow JH: it draws until it holds an Eight
    assert "play 8D" in game.legal_texts()
    start = step(game, "play 8D", "suit H")  # seat 2 has no heart: it draws, maybe a Jack
    drew = {e[1] for e in events_from(game, start) if e[0] == "draw"}
    assert 2 in drew and seat_knowledge(game.view(1)).jackless == {0, 2, 3} - drew


def test_views_hold_only_what_the_seat_may_know():
    """Pins docs/rules/baby_eating_eights.md #28."""
    game = new_game(["2C 3C 4C 6C 7C 9C", "JC JH 5D 6D 2H 4H", "AS 4S 5S 6S 7S 10S"], "KD",
                    "2S 3H JD")
    view = game.view(2)
    assert view.hand == tuple(parse_cards(norm("AS 4S 5S 6S 7S 10S")))
    assert view.hand_sizes == (8, 6, 6) and view.legal_actions == ()
    assert view.phase == "play" and view.actor == 1 and view.current_player == 1
    assert game.view(1).legal_actions == game.legal_actions()
    assert [e.card for e in view.history() if e.kind == "draw"] == [-1, -1, -1]
    assert [e.card for e in game.view(0).history() if e.kind == "draw"] == parse_cards(
        "2S 3H JD")
    shown = dataclasses.asdict(view)
    assert shown["seen_events"] == view.history()
    assert "hands" not in shown and "stock" not in shown


def test_snapshot_restore_inside_the_jack_round_and_four_in_a_row():
    game = new_game(["QD 2C 3C 4C 5C KC", "JC JD JH 6S 7S 2H", "JS 6C 7C 9C 10C 3D",
                     "AH 3H 4H 5H 6H 7H"],
                    "9D")
    snap = game.snapshot()
    text = game.render()
    step(game, "play JH", "bottom 10C")
    assert game.view(0).phase == "four in a row"
    snap2, text2 = game.snapshot(), game.render()
    step(game, "bottom 5H", "bottom 5C", "bottom 6S")
    game.restore(snap2)
    assert game.render() == text2 and game.legal_texts() == [
        "bottom AH", "bottom 3H", "bottom 4H", "bottom 5H", "bottom 6H", "bottom 7H"]
    game.restore(snap)
    assert game.render() == text and game.legal_texts() == ["play JC", "play JD", "play JH"]


def test_records_replay_exactly():
    game = new_game(COMBO_HANDS + ["KD 2S 3S 4S 5S 6S"], "5C", "2H 3H 4H 5H")
    rng = random.Random(5)
    while not game.game_over:
        game.step(rng.choice(game.legal_actions()))
    record = GameRecord.from_json(game.record().to_json())
    again = G.replay(record)
    assert again.events == game.events and again.render() == game.render()
    seeded = G(seed=77, num_players=4, teams=2)
    while not seeded.game_over:
        seeded.step(rng.choice(seeded.legal_actions()))
    assert G.replay(seeded.record()).events == seeded.events


def test_every_event_kind_has_a_sentence():
    game = new_game(COMBO_HANDS + ["KD 2S 3S 4S 5S 6S"], "5C", "2H 3H 4H 5H")
    step(game, "play BJ", "suit H", "play RJ", "suit S")
    for e in game.view(2).history():
        text = G.describe_event(e)
        assert text.endswith((".", "!")) and ":" not in text.split()[0]
    for kind in ("cancelled", "locked", "five", "swap", "take", "give", "again", "jack_round",
                 "no_jacks", "jack_round_over", "four_in_a_row", "bottom", "redeal",
                 "guarantee", "guarantee_mode", "guarantee_over", "no_draw", "stuck", "out",
                 "pass", "deal"):
        assert kind in G.event_kinds
