"""Scenario tests for crazier_eights: every rule of the Crazier Eights rulebook from a stacked deck.

Each test that pins an interpretation says "Pins docs/rules/crazier_eights.md #N".
Positions are written as hands (seat order), the card turned up as the discard pile
and the top of the draw pile (the first card drawn first); the rest of the draw pile
lies below in card-id order. Cards are written by rank and first colour (``7G`` is the
green seven, Potion of Vitality; P purple, G green, B blue, O orange). A few positions
no short deal reaches (an empty draw pile, many assets in play at once) are set up by
:func:`set_position`, which places every card of the deck.
"""

from __future__ import annotations

import random
from collections import Counter
from importlib import resources

import pytest

import eights
from eights.engines.crazier_actions import ACTIONS
from eights.engines.crazier_eights import PHASES, CrazierEightsConfig, CrazierEightsGame
from eights.engines.table import Frame
from tests.conftest import all_cards
from tests.engines.crazier_helpers import (
    cards_but,
    conserved,
    new_game,
    sizes,
    step,
    stock_top,
)
from tests.engines.crazier_helpers import discard_pile as pile
from tests.engines.crazier_helpers import events as events_from
from tests.engines.crazier_helpers import texts as text

G = CrazierEightsGame
CS = G.cardset
COLOURS = ["colour P", "colour G", "colour B", "colour O"]


# ---------------------------------------------------------------- helpers


def set_position(game: CrazierEightsGame, hands: list[str], pile: str, stock: str = "",
                 zones: list[str] | None = None, *, lead: int = 0,
                 rest: str = "pile", out: tuple[int, ...] = ()) -> int:
    """Put ``game`` at the start of ``lead``'s turn in a position no short deal reaches:
    ``hands`` (seat order), the discard pile ``pile`` (bottom first, top last), the draw
    pile ``stock`` (top first) and each seat's in-play ``zones``. Every other card of the
    deck goes under the discard pile (``rest="pile"``) or under the draw pile
    (``rest="stock"``). Seats in ``out`` have left the game (their hands given empty).
    The turn then starts as usual (beginning and draw phases); the event index before it
    is returned."""
    s, n = game.state, game.num_players
    s.hands = [CS.parse_many(h) for h in hands]
    s.stock = CS.parse_many(stock)[::-1]
    s.zones = [CS.parse_many(z) for z in zones] if zones else [[] for _ in range(n)]
    cards = CS.parse_many(pile)
    listed = Counter(cards) + Counter(s.stock)
    for place in (*s.hands, *s.zones):
        listed += Counter(place)
    deck = Counter(game.full_deck())
    assert not listed - deck, "more copies than the deck holds"
    others = sorted((deck - listed).elements())
    if rest == "pile":
        cards = others + cards
    else:
        s.stock = others[::-1] + s.stock
    game.set_pile(0, cards)
    game.set_pile(1, [])
    s.suits[0] = CS.colour[cards[-1]]
    s.named, s.known = -1, [[] for _ in range(n)]
    s.out, s.lost_with, s.discards, s.played = [0] * n, [0] * n, [0] * n, [0] * n
    for q in out:
        assert not s.hands[q] and not s.zones[q]
        s.out[q] = 1
    s.agenda = [Frame("turn", lead)]
    assert all_cards(game) == deck
    start = len(game.events)
    game._run_agenda()
    game._settle()
    return start






def hands(game: CrazierEightsGame) -> list[str]:
    """Each seat's hand, in card-id order (purple, green, blue, orange; A to K)."""
    return [text(sorted(h)) for h in game.state.hands]






def zones(game: CrazierEightsGame) -> list[str]:
    return [text(z) for z in game.state.zones]






def table(game: CrazierEightsGame) -> dict:
    """The public essentials of the position, for one exact comparison."""
    v = game.view(0)
    return dict(top=CS.text(v.top) if v.top >= 0 else "-",
                named=v.named, phase=PHASES[v.turn_phase], lead=v.lead, current=game.current_player,
                discards_left=list(v.discards_left), played=list(v.played),
                legal=game.legal_texts())




def ids(cards: str) -> tuple[int, ...]:
    return tuple(sorted(CS.parse_many(cards)))




# ---------------------------------------------------------------- #1 cards and decks
def test_fifty_two_unique_cards_named_by_rank_and_first_colour():
    """Pins docs/rules/crazier_eights.md #1: 52 unique cards; 7G is the green seven.

    A card's id is its first colour x 13 + rank - 1; its text is rank then the code of its
    first colour; names are unique; five cards are multicoloured (Chapter 2).
    """
    assert len(CS) == 52 and len(set(CS.texts)) == 52
    assert len({CS.card_name(c) for c in range(52)}) == 52
    assert CS.texts[:13] == ("AP", "2P", "3P", "4P", "5P", "6P", "7P", "8P", "9P", "10P",
                             "JP", "QP", "KP")
    assert CS.parse("7G") == 19 and CS.text(19) == "7G" and CS.parse("ko") == 51
    names = {t: CS.card_name(CS.parse(t)) for t in
             ("7G", "10G", "5P", "KO", "4B", "8B", "KP", "JB", "QP", "3O", "10P")}
    assert names == {"7G": "Potion of Vitality", "10G": "Trade", "5P": "Death",
                     "KO": "Castle", "4B": "Moat", "8B": "Spell Tome", "KP": "Dark Lord",
                     "JB": "Rainbow Serpent", "QP": "Queen Guinevere",
                     "3O": "Angel of Hope", "10P": "Devious Dragon"}
    multi = {CS.text(c): CS.colours_of[c] for c in range(52) if len(CS.colours_of[c]) > 1}
    assert multi == {"KP": (0, 3), "KG": (1, 2), "9B": (2, 3), "JB": (2, 0, 1, 3),
                     "10O": (3, 0)}  # purple 0, green 1, blue 2, orange 3
    assert all(CS.rank[c] == c % 13 + 1 and CS.colour[c] == c // 13 for c in range(52))
    game = G(CrazierEightsConfig(), seed=5)
    assert Counter(game.full_deck()) == Counter(range(52))
    assert conserved(game) and sizes(game)[game.state.first] == 8


def test_one_deck_up_to_four_players_two_decks_for_five_or_more():
    """Pins docs/rules/crazier_eights.md #1: num_decks 0 is one deck to 4 players, two from 5.

    Chapter 9: two decks shuffled together serve five to eight players; seven cards each
    must fit the decks.
    """
    assert [CrazierEightsConfig(num_players=n).decks for n in range(2, 9)] == [1, 1, 1, 2, 2,
                                                                               2, 2]
    assert CrazierEightsConfig(num_players=2, num_decks=2).decks == 2
    five = G(CrazierEightsConfig(num_players=5), seed=2)
    assert Counter(five.full_deck()) == Counter({c: 2 for c in range(52)})
    assert sorted(sizes(five)) == [7, 7, 7, 7, 8]  # the first player has drawn
    assert len(five.state.stock) == 104 - 35 - 1 - 1 and conserved(five)
    with pytest.raises(eights.ConfigError, match="needs 57 cards but 1 deck"):
        CrazierEightsConfig(num_players=8, num_decks=1)


# ---------------------------------------------------------------- #2 set-up
def test_deal_one_card_at_a_time_from_the_first_player_then_turn_up_the_next():
    """Pins docs/rules/crazier_eights.md #2: seven each from the first player, then a starter.

    A deck in id order, seat 1 first: seat 1 gets AP 3P 5P ..., seat 0 gets 2P 4P ...;
    the 15th card (2G) is turned up as the discard pile; the 16th (3G) is seat 1's first
    draw (Chapter 1: the turn starts with a draw).
    """
    game = G(CrazierEightsConfig(num_players=2), deck=list(range(52)), first_player=1, seed=1)
    assert hands(game) == ["2P 4P 6P 8P 10P QP AG", "AP 3P 5P 7P 9P JP KP 3G"]
    assert pile(game) == "2G" and stock_top(game, 2) == "4G 5G"
    assert len(game.state.stock) == 52 - 14 - 1 - 1
    assert events_from(game) == [("deal", 1, "", 0), ("starter", -1, "2G", -1),
                                 ("turn", 1, "", -1), ("draw", 1, "3G", -1)]
    assert table(game) == dict(top="2G", named=-1, phase="main", lead=1, current=1,
                               discards_left=[0, 1], played=[0, 0],
                               legal=["discard 3G", "play AP", "play 3P", "play 7P",
                                      "play 9P", "play KP", "play 3G", "end"])
    assert game.view(0).first_player == 1


def test_the_first_player_is_drawn_at_random_or_given():
    """Pins docs/rules/crazier_eights.md #2: a random first player unless first_player."""
    firsts = {G(CrazierEightsConfig(num_players=3), seed=seed).state.first
              for seed in range(30)}
    assert firsts == {0, 1, 2}
    again = [G(CrazierEightsConfig(num_players=3), seed=7).state.first for _ in range(2)]
    assert again[0] == again[1]
    game = G(CrazierEightsConfig(num_players=3), seed=7, first_player=2)
    assert game.state.first == game.state.lead == game.current_player == 2


def test_the_turned_up_card_has_no_effect():
    """Pins docs/rules/crazier_eights.md #2: an event or asset turned up does nothing.

    Tempest (each opponent draws a card) turned up: nobody draws; Dark Lord (an asset)
    turned up stays in the discard pile, in nobody's play.
    """
    game = new_game(["3G 4G 6G", "2B 3B 4B"], "5G", "AO AB")
    assert sizes(game) == [4, 3] and hands(game)[0] == "3G 4G 6G AO"
    assert events_from(game, 0, "draw") == [("draw", 0, "AO", -1)]
    lord = new_game(["3G 4G 6G", "2B 3B 4B"], "KP", "AO AB")
    assert pile(lord) == "KP" and zones(lord) == ["", ""]
    step(lord, "end")
    assert sizes(lord) == [4, 4]  # seat 1 draws its own card only, no Dark Lord's


def test_an_eight_turned_up_is_followed_by_its_own_colour():
    """Pins docs/rules/crazier_eights.md #2, #5: clarification 9, an eight on top.

    Solar Flare (8O) turned up: no colour is named; the first discard must be orange or
    an 8 (its rank), and Solar Flare does not make anyone draw.
    """
    game = new_game(["2O 3G 4B 8P 9B", "5P 6P 7P 9P JP"], "8O", "QO")
    assert sizes(game) == [6, 5]
    v = game.view(0)
    assert (v.named, v.follow_colours) == (-1, 8)  # orange's bit
    assert [a for a in game.legal_texts() if a.startswith("discard")] == [
        "discard 8P", "discard 9B", "discard 2O", "discard QO"]


# ---------------------------------------------------------------- #3 phases
def test_a_turn_is_beginning_draw_main_and_end_in_that_order():
    """Pins docs/rules/crazier_eights.md #3: the four phases of Chapter 5, one after another.

    The first turn's beginning and draw happen at the deal; seat 0 then plays Malevolent
    Minion (at the end of your turn, an opponent of your choice draws) and, nothing left
    to do, its main phase ends: the end phase asks whom (three players), and only then
    does seat 1's turn begin with its draw.
    """
    game = new_game(["9P 3O 2B", "4P 5P 6P", "4B 5B 6B"], "7G", "AO JO AB 2O")
    assert events_from(game)[-2:] == [("turn", 0, "", -1), ("draw", 0, "AO", -1)]
    assert PHASES[game.view(0).turn_phase] == "main"
    start = step(game, "play 9P")  # nothing matches 7G: the main phase ends by itself
    assert events_from(game, start) == [("asset", 0, "9P", -1), ("trigger", 0, "9P", 2)]
    assert table(game) == dict(top="7G", named=-1, phase="end", lead=0, current=0,
                               discards_left=[1, 0, 0], played=[1, 0, 0],
                               legal=["target 1", "target 2"])
    start = step(game, "target 2")
    assert events_from(game, start) == [
        ("chosen", 0, "", 2), ("draw", 2, "JO", -1), ("turn", 1, "", -1),
        ("draw", 1, "AB", -1)]
    assert table(game)["phase"] == "main" and table(game)["lead"] == 1
    assert sizes(game) == [3, 4, 4]


def test_nothing_is_discarded_before_the_draw():
    """Pins docs/rules/crazier_eights.md #3: "discard a card before drawing" means "before
    playing".

    Angel of Hope in play: at the beginning of seat 0's turn its ability asks whom to
    draw; no discard is legal then and the draw phase comes after it.
    """
    game = new_game(["3O 2B 5B", "4P 5P 6P"], "7G", "AO JO AB")
    step(game, "play 3O")  # nothing matches 7G: the main phase ends by itself
    start = step(game, "end")  # seat 1 passes
    assert events_from(game, start) == [("turn", 0, "", -1), ("trigger", 0, "3O", 1)]
    assert table(game) == dict(top="7G", named=-1, phase="begin", lead=0, current=0,
                               discards_left=[1, 0], played=[0, 0],
                               legal=["target 0", "target 1"])
    assert sizes(game) == [3, 4]
    start = step(game, "target 1")
    assert events_from(game, start) == [("chosen", 0, "", 1), ("draw", 1, "AB", -1),
                                        ("draw", 0, "AP", -1)]
    assert PHASES[game.view(0).turn_phase] == "main" and sizes(game) == [4, 5]


# ---------------------------------------------------------------- #4 the main phase
def test_one_discard_and_one_play_in_either_order_each_optional():
    """Pins docs/rules/crazier_eights.md #4: Chapter 1, "before or after discarding".

    Seat 0 may discard then play, play then discard, or do neither and end; once both
    are used the turn passes by itself (a single legal action, #21).
    """
    game = new_game(["3G 6G QP 2B", "2P 3P 4P 6P"], "7G", "AB 5O")
    assert table(game) == dict(top="7G", named=-1, phase="main", lead=0, current=0,
                               discards_left=[1, 0], played=[0, 0],
                               legal=["discard 3G", "discard 6G", "play QP", "play 3G",
                                      "play 6G", "play AB", "play 2B", "end"])
    snap = game.snapshot()
    step(game, "discard 3G")
    assert table(game)["legal"] == ["play QP", "play 6G", "play AB", "play 2B", "end"]
    start = step(game, "play QP")
    assert events_from(game, start) == [("asset", 0, "QP", -1), ("turn", 1, "", -1),
                                        ("draw", 1, "5O", -1)]
    assert (hands(game)[0], zones(game), pile(game)) == ("6G AB 2B", ["QP", ""], "7G 3G")

    game.restore(snap)
    step(game, "play QP")
    assert table(game)["legal"] == ["discard 3G", "discard 6G", "end"]
    step(game, "discard 6G")
    assert (hands(game)[0], zones(game), pile(game)) == ("3G AB 2B", ["QP", ""], "7G 6G")
    assert game.current_player == 1

    game.restore(snap)
    start = step(game, "end")
    assert events_from(game, start) == [("turn", 1, "", -1), ("draw", 1, "5O", -1)]
    assert sizes(game) == [5, 5] and pile(game) == "7G" and zones(game) == ["", ""]


def test_extra_discards_come_one_at_a_time_before_or_after_the_play_each_matching():
    """Pins docs/rules/crazier_eights.md #4: clarification 3, three discards in total.

    Seat 0 discards 3G on 5G, then plays Potion of Vitality (two additional discards):
    3B matches 3G by rank, then 6B matches 3B by colour; 2P never matches.
    """
    game = new_game(["7G 3G 3B 6B 2P", "2O 3O 4O 6O 7O"], "5G", "AO")
    step(game, "discard 3G")
    assert table(game)["discards_left"] == [0, 0]
    start = step(game, "play 7G")
    assert events_from(game, start) == [("event", 0, "7G", -1), ("extra", 0, "7G", 2),
                                        ("settled", 0, "7G", -1)]
    assert table(game) == dict(top="3G", named=-1, phase="main", lead=0, current=0,
                               discards_left=[2, 0], played=[1, 0],
                               legal=["discard 3B", "end"])
    step(game, "discard 3B")
    assert table(game)["legal"] == ["discard 6B", "end"]
    step(game, "discard 6B")
    assert pile(game) == "7G 5G 3G 3B 6B" and hands(game)[0] == "2P AO"
    assert game.current_player == 1
    # the extra discards may also come before the play
    early = new_game(["4O 3G 6G 2P", "2B 3B 4B 6B"], "5G", "AO")
    step(early, "discard 3G", "play 4O")
    assert table(early)["discards_left"] == [1, 0]
    step(early, "discard 6G")
    assert pile(early) == "4O 5G 3G 6G" and early.current_player == 1


# ---------------------------------------------------------------- #5 matching
def test_a_discard_matches_by_colour_or_rank_and_an_eight_always():
    """Pins docs/rules/crazier_eights.md #5: Chapter 1, discarding cards."""
    game = new_game(["3G 7P 8O 5B 9P KB", "2O 3O 4O 6O 7O 9O"], "7G", "AO")
    assert [a for a in game.legal_texts() if a.startswith("discard")] == [
        "discard 7P", "discard 3G", "discard 8O"]
    assert game.view(0).follow_colours == 2  # green's bit


def test_a_multicoloured_top_card_accepts_any_of_its_colours():
    """Pins docs/rules/crazier_eights.md #5: Chapter 2, Dark Lord is purple and orange."""
    game = new_game(["2P 2O 2B KB 8G 3G", "4O 5O 6O 7O 9O JO"], "KP", "AG")
    assert game.view(0).follow_colours == 1 | 8
    assert [a for a in game.legal_texts() if a.startswith("discard")] == [
        "discard 2P", "discard 8G", "discard KB", "discard 2O"]


@pytest.mark.parametrize("starter, legal", [
    ("3G", ["discard KG", "discard JB"]),               # green
    ("5B", ["discard KG", "discard 9B", "discard JB"]),  # blue
    ("6O", ["discard 9B", "discard JB", "discard 10O"]),  # orange
    ("AP", ["discard JB", "discard 10O"]),               # purple
])
def test_a_multicoloured_card_is_discarded_when_any_of_its_colours_matches(starter, legal):
    """Pins docs/rules/crazier_eights.md #5: Chapter 2, "one of its colors".

    Green Knight (green, blue), Storm Caller (blue, orange), Rainbow Serpent (all four)
    and Sun King (orange, purple).
    """
    game = new_game(["KG 9B JB 10O", "2P 3P 4P 6P"], starter, "4G")
    expected = legal + (["discard 4G"] if starter == "3G" else [])
    assert [a for a in game.legal_texts() if a.startswith("discard")] == sorted(
        expected, key=ACTIONS.parse)


def test_after_rainbow_serpent_any_colour_follows():
    """Pins docs/rules/crazier_eights.md #5: a four-coloured top card accepts every colour."""
    game = new_game(["JB 2P 3P 4P", "2G 5B 6O 7P"], "3G", "AO 9G")
    step(game, "discard JB", "end")
    assert game.current_player == 1 and game.view(1).follow_colours == 15
    assert [a for a in game.legal_texts() if a.startswith("discard")] == [
        "discard 7P", "discard 2G", "discard 9G", "discard 5B", "discard 6O"]


def test_an_eight_names_one_of_the_four_colours_and_the_next_discard_follows_it():
    """Pins docs/rules/crazier_eights.md #5: clarification 2, naming colours.

    Seat 0 discards Wild Growth (8G) and names blue. Only the four colours can be named
    ("pink" is no action). Seat 1 may then discard blue cards or 8s: not its green card
    (the 8's own colour) nor a card of the previous top's rank.
    """
    game = new_game(["8G 2O 3O 4O", "3G 2B 8P 7O"], "7G", "AO 9O")
    step(game, "discard 8G")
    assert table(game)["legal"] == COLOURS
    with pytest.raises(eights.IllegalActionError):
        game.step("colour pink")
    start = step(game, "colour B", "end")
    assert events_from(game, start)[0] == ("named", 0, "", 2)
    assert game.current_player == 1
    assert (game.state.named, game.view(1).named, game.view(1).follow_colours) == (2, 2, 4)
    assert [a for a in game.legal_texts() if a.startswith("discard")] == [
        "discard 8P", "discard 2B"]
    step(game, "discard 2B")  # the named colour applies to one discard only
    assert game.state.named == -1 and game.view(1).follow_colours == 4


# ---------------------------------------------------------------- #6 playing
def test_an_asset_goes_into_play_in_front_of_its_player():
    """Pins docs/rules/crazier_eights.md #6: Chapter 1, "controlled by the player"."""
    game = new_game(["QP 2B", "2P 3P"], "7G", "AO")
    step(game, "play QP")
    assert zones(game) == ["QP", ""] and game.view(1).in_play == (ids("QP"), ())
    assert pile(game) == "7G" and hands(game)[0] == "2B AO"


def test_an_event_resolves_set_aside_then_goes_to_the_bottom_of_the_discard_pile():
    """Pins docs/rules/crazier_eights.md #6: Chapter 1, events go to the bottom.

    Death chooses between two cards in play: while seat 0 chooses, Death is set aside,
    public in every view; the destroyed card then Death go to the bottom of the discard
    pile (Chapter 1, destroyed cards), under the turned-up card.
    """
    game = new_game(["QP 5P 2B", "KB 3P 4P"], "7G", "AO 9O 6O")
    step(game, "play QP")     # nothing matches 7G: the turn passes
    step(game, "play KB")     # seat 1
    assert zones(game) == ["QP", "KB"] and game.current_player == 0
    step(game, "play 5P")
    assert table(game)["legal"] == ["choose QP", "choose KB"]
    assert game.view(1).resolving == ids("5P") and text(game.state.piles[1]) == "5P"
    assert pile(game) == "7G" and "5P" not in hands(game)[0]
    start = step(game, "choose KB")
    assert events_from(game, start)[:2] == [("destroy", 0, "KB", 1), ("settled", 0, "5P", -1)]
    assert pile(game) == "5P KB 7G" and zones(game) == ["QP", ""]
    assert game.view(0).resolving == () and conserved(game)


# ---------------------------------------------------------------- #7 winning
def test_a_player_whose_last_card_is_discarded_wins_at_once():
    """Pins docs/rules/crazier_eights.md #7: Chapter 1, the win condition.

    Seat 0 plays Queen Guinevere, then discards its last card: it wins on the spot, and
    the game is scored (Chapter 1, points): seat 1 a point per card in hand.
    """
    game = new_game(["3G", "2B"], "7G", "QP")
    step(game, "play QP")
    start = step(game, "discard 3G")
    assert events_from(game, start) == [
        ("discard", 0, "3G", -1), ("out", 0, "", -1), ("score", 0, "", 0),
        ("score", 1, "", 1), ("game_over", -1, "", 1)]
    assert game.terminated and game.winners == (0,) and game.current_player == -1
    assert game.final_scores() == (0, 1) and game.returns() == [1.0, -1.0]
    assert zones(game) == ["QP", ""] and conserved(game)


def test_the_last_card_played_wins_before_its_effect():
    """Pins docs/rules/crazier_eights.md #7: clarification 7, "before the card takes effect".

    Seat 0 discards 3G and plays its last card, Tempest (each opponent draws a card):
    seat 0 wins at once and seat 1 draws nothing. Its last card an asset wins the same way.
    """
    game = new_game(["3G", "2B"], "7G", "5G")
    start = step(game, "discard 3G", "play 5G")
    assert events_from(game, start, "draw", "out", "game_over") == [
        ("out", 0, "", -1), ("game_over", -1, "", 1)]
    assert game.winners == (0,) and sizes(game) == [0, 1] and game.final_scores() == (0, 1)
    assert conserved(game)
    asset = new_game(["3G", "2B"], "7G", "KP")
    step(asset, "discard 3G", "play KP")
    assert asset.winners == (0,) and zones(asset) == ["KP", ""] and sizes(asset) == [0, 1]


# ---------------------------------------------------------------- #8 the draw pile
def test_an_empty_draw_pile_is_rebuilt_from_the_discard_pile_but_its_top():
    """Pins docs/rules/crazier_eights.md #8: Chapter 1, zero cards in the draw pile.

    The draw pile is empty when seat 0 must draw: the discard pile but its top card (3G)
    is shuffled into a new draw pile and seat 0 draws from it.
    """
    game = new_game(["2P 3P", "2B 3B"], "7G")
    start = set_position(game, ["2P 3P", "2B 3B"], "3G", "")
    drawn = text(game.state.hands[0][-1:])
    assert events_from(game, start) == [("turn", 0, "", -1), ("reshuffle", -1, "", 47),
                                        ("draw", 0, drawn, -1)]
    assert pile(game) == "3G" and len(game.state.stock) == 46 and conserved(game)
    assert game.state.hands[0][-1] not in CS.parse_many("2P 3P 2B 3B 3G")
    assert table(game)["phase"] == "main" and game.current_player == 0


def test_an_impossible_draw_ends_the_game_and_the_fewest_cards_win():
    """Pins docs/rules/crazier_eights.md #8: Chapter 6, drawing is impossible.

    No draw pile and one card in the discard pile: seat 0 cannot make its draw; the game
    is over and seat 1, with fewer cards in hand, wins; points are scored as usual.
    """
    rest = cards_but("7G")
    game = new_game(["2P", "2B"], "7G")
    start = set_position(game, [" ".join(rest[25:]), " ".join(rest[:25])], "7G", "")
    assert sizes(game) == [26, 25]
    assert events_from(game, start) == [
        ("turn", 0, "", -1), ("impossible", 0, "", -1), ("score", 0, "", 26),
        ("score", 1, "", 0), ("game_over", -1, "", 1)]
    assert game.terminated and game.winners == (1,) and game.final_scores() == (26, 0)


def test_an_impossible_draw_with_equal_fewest_hands_makes_them_all_win():
    """Pins docs/rules/crazier_eights.md #8: ties for the fewest cards all win."""
    rest = cards_but("7G")
    game = new_game(["2P", "2B", "2O"], "7G")
    set_position(game, [" ".join(rest[:17]), " ".join(rest[17:34]), " ".join(rest[34:])],
                 "7G", "", lead=1)
    assert game.terminated and game.winners == (0, 1, 2)
    assert game.final_scores() == (0, 0, 0)


def test_an_ability_draw_that_is_impossible_ends_the_game_at_once():
    """Pins docs/rules/crazier_eights.md #8: Chapter 6 applies to every draw.

    Seat 0 draws the last card of the draw pile, then plays Tempest: seat 1 cannot draw
    (one card in the discard pile); seat 0, with 24 cards to seat 1's 26, wins.
    """
    rest = cards_but("7G 5G AO")
    game = new_game(["2P", "2B"], "7G")
    set_position(game, ["5G " + " ".join(rest[:23]), " ".join(rest[23:])], "7G", "AO")
    assert sizes(game) == [25, 26] and game.state.stock == []
    start = step(game, "play 5G")
    assert events_from(game, start, "event", "draw", "impossible", "game_over") == [
        ("event", 0, "5G", -1), ("impossible", 1, "", -1), ("game_over", -1, "", 1)]
    assert game.winners == (0,) and game.final_scores() == (0, 26) and conserved(game)


# ---------------------------------------------------------------- #9, #23 looking, revealing
def test_looked_at_cards_are_seen_by_the_looker_only_and_stay_where_they_are():
    """Pins docs/rules/crazier_eights.md #9, #23: Chapter 3, looking at cards.

    Spell Tome played: seat 0 looks at the top three cards (seat 1's history shows the
    looks with the cards hidden), keeps them in place (``no``) and gains a discard; after
    seat 1 draws the first of them, seat 0 still knows the other two.
    """
    game = new_game(["8B 2P", "3G 4G"], "7G", "AO 9O 6O JO 2O")
    start = step(game, "play 8B")
    assert events_from(game, start) == [("event", 0, "8B", -1), ("look", 0, "9O", 0),
                                        ("look", 0, "6O", 1), ("look", 0, "JO", 2)]
    assert [(e.kind, e.card) for e in game.seat_history(1).events()[start + 1:]] == [
        ("look", -1)] * 3
    assert table(game)["legal"] == ["choose 6O", "choose 9O", "choose JO", "no"]
    assert (game.view(0).known_stock, game.view(1).known_stock) == (
        tuple(CS.parse_many("9O 6O JO")), ())
    assert stock_top(game, 3) == "9O 6O JO"
    start = step(game, "no")  # then nothing matches 7G: the turn passes
    assert events_from(game, start)[:2] == [("extra", 0, "8B", 1), ("settled", 0, "8B", -1)]
    assert events_from(game, start, "draw") == [("draw", 1, "9O", -1)]
    assert text(game.view(0).known_stock) == "6O JO" and stock_top(game, 2) == "6O JO"
    assert pile(game) == "8B 7G"


def test_the_looker_may_put_one_looked_at_card_on_the_bottom_of_the_draw_pile():
    """Pins docs/rules/crazier_eights.md #23: look with may_bottom, ``choose <card>``."""
    game = new_game(["8B 2P", "3G 4G"], "7G", "AO 9O 6O JO 2O")
    step(game, "play 8B")
    start = step(game, "choose 6O")
    assert events_from(game, start)[0] == ("bottom", 0, "6O", 1)
    assert game.seat_history(1).events()[start] == ("bottom", 0, -1, 1)
    assert CS.text(game.state.stock[0]) == "6O"
    assert events_from(game, start, "draw") == [("draw", 1, "9O", -1)]
    assert stock_top(game, 2) == "JO 2O" and text(game.view(0).known_stock) == "JO"


def test_revealed_cards_are_seen_by_everyone_and_stay_where_they_are():
    """Pins docs/rules/crazier_eights.md #9: Chapter 3, revealing cards.

    Seedling reveals the top card of the draw pile (9G, green): every seat knows it, it
    stays on top, and seat 0 may discard two additional cards.
    """
    game = new_game(["2G 3G 4G", "3B 4B 5B"], "7G", "AO 9G 6O")
    start = step(game, "play 2G")
    assert events_from(game, start) == [("event", 0, "2G", -1), ("reveal", 0, "9G", 0),
                                        ("extra", 0, "2G", 2), ("settled", 0, "2G", -1)]
    assert game.seat_history(1).events()[start + 1] == ("reveal", 0, CS.parse("9G"), 0)
    assert game.view(0).known_stock == game.view(1).known_stock == ids("9G")
    assert stock_top(game, 1) == "9G"
    assert table(game)["discards_left"] == [3, 0]


def test_too_few_cards_to_look_at_puts_the_discard_pile_under_the_draw_pile_first():
    """Pins docs/rules/crazier_eights.md #9: clarification 4.

    After seat 0's draw one card (JO) is left; Spell Tome looks at three: the discard
    pile but its top card (2P 3P under 4P) is shuffled and put under the draw pile, and
    seat 0 looks at JO and those two. With still too few cards, the ones there are looked
    at.
    """
    rest = cards_but("2P 3P 4P AO JO 8B")
    game = new_game(["2P", "2B"], "7G")
    set_position(game, ["8B " + " ".join(rest[:23]), " ".join(rest[23:])], "2P 3P 4P",
                 "AO JO")
    assert stock_top(game, 5) == "JO"
    start = step(game, "play 8B")
    assert events_from(game, start, "reshuffle") == [("reshuffle", -1, "", 2)]
    assert pile(game) == "4P" and stock_top(game, 1) == "JO"
    assert set(stock_top(game, 3).split()) == {"JO", "2P", "3P"}
    assert text(game.view(0).known_stock) == stock_top(game, 3)
    assert events_from(game, start, "look")[0] == ("look", 0, "JO", 0)
    few = new_game(["2P", "2B"], "7G")
    set_position(few, ["8B " + " ".join(rest[:23]), " ".join(rest[23:]) + " 2P 3P"], "4P",
                 "AO JO")
    start = step(few, "play 8B")
    assert events_from(few, start, "look", "reshuffle") == [("look", 0, "JO", 0)]
    assert few.view(0).known_stock == ids("JO") and conserved(few)


# ---------------------------------------------------------------- #10-#13 triggered abilities
def test_angel_of_hope_still_draws_after_devious_dragon_destroys_it():
    """Pins docs/rules/crazier_eights.md #10, #11, #12: Chapter 7, the rulebook's example.

    Seat 0 plays Devious Dragon (turn 1: it does nothing that turn); at seat 0's next turn
    it must destroy a card in play (seat 1's Hourglass). Seat 0 then plays Angel of Hope.
    At the turn after, both fire: seat 0 orders them, the Dragon first, destroys the
    Angel, and the Angel's ability still makes a player of seat 0's choice draw. Each
    ``trigger`` event is logged as its ability starts to take effect: the Dragon's after
    seat 0's ``order``, the Angel's after the Dragon has destroyed it.
    """
    game = new_game(["10P 3O 2B 4B", "6O 2P 3P 4P"], "7G", "9O 5B JO QB AB KB")
    start = step(game, "play 10P")  # nothing matches 7G: the turn passes
    assert events_from(game, start, "trigger", "destroy") == []
    start = step(game, "play 6O")
    assert events_from(game, start) == [("asset", 1, "6O", -1), ("turn", 0, "", -1),
                                        ("trigger", 0, "10P", 1)]
    assert table(game) == dict(top="7G", named=-1, phase="begin", lead=0, current=0,
                               discards_left=[1, 0], played=[0, 0],
                               legal=["choose 10P", "choose 6O"])
    start = step(game, "choose 6O")
    assert events_from(game, start) == [("destroy", 0, "6O", 1), ("draw", 0, "JO", -1)]
    step(game, "play 3O")  # the turn passes
    start = step(game, "end")  # seat 1
    assert events_from(game, start, "turn", "trigger") == [("turn", 0, "", -1)]
    assert table(game)["legal"] == ["order 10P", "order 3O"] and game.current_player == 0
    start = step(game, "order 10P")
    assert events_from(game, start) == [("trigger", 0, "10P", 1)]
    assert table(game)["legal"] == ["choose 10P", "choose 3O"]
    start = step(game, "choose 3O")
    assert events_from(game, start) == [("destroy", 0, "3O", 0), ("trigger", 0, "3O", 1)]
    assert zones(game) == ["10P", ""] and pile(game) == "3O 6O 7G"
    assert table(game) == dict(top="7G", named=-1, phase="begin", lead=0, current=0,
                               discards_left=[1, 0], played=[0, 0],
                               legal=["target 0", "target 1"])
    start = step(game, "target 1")
    assert events_from(game, start) == [("chosen", 0, "", 1), ("draw", 1, "AB", -1),
                                        ("draw", 0, "KB", -1)]
    assert hands(game) == ["2B 4B KB 9O JO", "2P 3P 4P AB 5B QB"] and conserved(game)


def test_the_turns_player_first_then_the_others_in_turn_order():
    """Pins docs/rules/crazier_eights.md #10: Chapter 7, whose abilities come first.

    At seat 0's turn: seat 0's Queen Guinevere first (an additional discard), then seat
    1's Night Watch (seat 1 may look at the top card: its decision), then seat 2's Curse of
    Ages (seat 0 draws AO, the card seat 1 looked at), then seat 0's draw phase (JO).
    """
    game = new_game(["2P", "2B", "2O"], "7G")
    start = set_position(game, ["3G 4G", "3B 4B", "3O 4O"], "7G", "AO JO KO",
                         ["QP", "7B", "6P"])
    assert events_from(game, start) == [
        ("turn", 0, "", -1), ("trigger", 0, "QP", 1), ("extra", 0, "QP", 1),
        ("trigger", 1, "7B", 3)]
    assert table(game) == dict(top="7G", named=-1, phase="begin", lead=0, current=1,
                               discards_left=[2, 0, 0], played=[0, 0, 0],
                               legal=["yes", "no"])
    start = step(game, "yes")
    assert events_from(game, start) == [("look", 1, "AO", 0), ("trigger", 2, "6P", 3),
                                        ("draw", 0, "AO", -1), ("draw", 0, "JO", -1)]
    assert hands(game)[0] == "3G 4G AO JO" and game.current_player == 0


def test_trigger_events_are_logged_in_the_order_the_abilities_take_effect():
    """Pins docs/rules/crazier_eights.md #10: the log tells Chapter 7's order.

    A ``trigger`` event reads "<card> of <player> takes effect", so the three come in the
    order the abilities take effect (the test above): seat 0's Queen Guinevere, then seat
    1's Night Watch, then seat 2's Curse of Ages.
    """
    game = new_game(["2P", "2B", "2O"], "7G")
    start = set_position(game, ["3G 4G", "3B 4B", "3O 4O"], "7G", "AO JO KO",
                         ["QP", "7B", "6P"])
    step(game, "yes")
    assert events_from(game, start, "trigger") == [
        ("trigger", 0, "QP", 1), ("trigger", 1, "7B", 3), ("trigger", 2, "6P", 3)]


def test_the_player_taking_the_turn_orders_an_opponents_simultaneous_abilities():
    """Pins docs/rules/crazier_eights.md #10, #12: Chapter 7, "whoever is currently taking a
    turn decides what order".

    Seat 1's Night Watch and Curse of Ages both fire at the beginning of seat 0's turn;
    seat 0 (not their controller) orders them. Night Watch first: seat 1 looks at AO,
    which the Curse then gives seat 0. The Curse first: seat 1 looks at JO instead.
    """
    game = new_game(["2P", "2B", "2O"], "7G")
    set_position(game, ["3G 4G", "3B 4B", "3O 4O"], "7G", "AO JO KO", ["", "7B 6P", ""])
    assert table(game)["legal"] == ["order 6P", "order 7B"] and game.current_player == 0
    snap = game.snapshot()
    step(game, "order 7B")
    assert game.current_player == 1 and table(game)["legal"] == ["yes", "no"]
    start = step(game, "yes")
    assert events_from(game, start) == [("look", 1, "AO", 0), ("trigger", 1, "6P", 3),
                                        ("draw", 0, "AO", -1), ("draw", 0, "JO", -1)]
    game.restore(snap)
    start = step(game, "order 6P")
    assert events_from(game, start) == [("trigger", 1, "6P", 3), ("draw", 0, "AO", -1),
                                        ("trigger", 1, "7B", 3)]
    start = step(game, "yes")
    assert events_from(game, start) == [("look", 1, "JO", 0), ("draw", 0, "JO", -1)]


def test_copies_of_one_card_firing_together_need_no_order():
    """Pins docs/rules/crazier_eights.md #10: two decks, two Curses of Ages.

    Seat 1's two copies fire at the beginning of seat 0's turn without an ``order``
    decision: seat 0 draws two cards, then one in its draw phase.
    """
    game = new_game(["2P", "2B"], "7G", num_decks=2)
    start = set_position(game, ["3G 4G", "3B 4B"], "7G", "AO JO KO", ["", "6P 6P"])
    assert events_from(game, start) == [
        ("turn", 0, "", -1), ("trigger", 1, "6P", 3), ("draw", 0, "AO", -1),
        ("trigger", 1, "6P", 3), ("draw", 0, "JO", -1), ("draw", 0, "KO", -1)]
    assert game.current_player == 0 and table(game)["phase"] == "main"


def test_an_asset_put_into_play_at_the_beginning_of_the_turn_waits_for_the_next():
    """Pins docs/rules/crazier_eights.md #12: only cards in play when the turn starts fire.

    Sun Oracle reveals Queen Guinevere and puts it into play during seat 0's beginning
    phase: Queen Guinevere gives no extra discard this turn, and both fire next turn.
    """
    game = new_game(["2P", "2B"], "7G")
    start = set_position(game, ["3G 4G", "3B 4B"], "7G", "QP JO KO AB", ["QO", ""])
    assert events_from(game, start) == [
        ("turn", 0, "", -1), ("trigger", 0, "QO", 1), ("reveal", 0, "QP", 0),
        ("put_in_play", 0, "QP", -1), ("draw", 0, "JO", -1)]
    assert zones(game) == ["QO QP", ""] and table(game)["discards_left"] == [1, 0]
    step(game, "end", "end")
    assert table(game)["legal"] == ["order QP", "order QO"]
    start = step(game, "order QP")
    assert events_from(game, start) == [("trigger", 0, "QP", 1), ("extra", 0, "QP", 1),
                                        ("trigger", 0, "QO", 1), ("reveal", 0, "AB", 0),
                                        ("draw", 0, "AB", -1)]
    assert table(game)["discards_left"] == [2, 0]


def test_an_opponent_begin_turn_ability_fires_at_each_opponents_turn_only():
    """Pins docs/rules/crazier_eights.md #12: Curse of Ages, "each opponent's turn".

    Seat 1's Curse of Ages makes seat 0 and seat 2 draw an extra card at the beginning of
    their turns, not seat 1 at its own.
    """
    game = new_game(["2P", "2B", "2O"], "7G")
    start = set_position(game, ["3G 4G", "3B 4B", "3O 4O"], "7G", "AO JO KO AB 5B 6B 9B",
                         ["", "6P", ""], rest="stock")
    step(game, "end", "end", "end")
    assert events_from(game, start, "turn", "draw") == [
        ("turn", 0, "", -1), ("draw", 0, "AO", -1), ("draw", 0, "JO", -1),
        ("turn", 1, "", -1), ("draw", 1, "KO", -1),
        ("turn", 2, "", -1), ("draw", 2, "AB", -1), ("draw", 2, "5B", -1),
        ("turn", 0, "", -1), ("draw", 0, "6B", -1), ("draw", 0, "9B", -1)]
    assert sizes(game) == [6, 3, 4]


def test_an_end_of_turn_ability_works_the_turn_its_asset_is_played():
    """Pins docs/rules/crazier_eights.md #12: only beginning-of-turn abilities wait a turn.

    Malevolent Minion played in the main phase is in play at the end of that turn: seat
    1 draws a card then.
    """
    game = new_game(["9P 2B", "3P 4P"], "7G", "AO JO")
    start = step(game, "play 9P")
    assert events_from(game, start) == [
        ("asset", 0, "9P", -1), ("trigger", 0, "9P", 2), ("chosen", 0, "", 1),
        ("draw", 1, "JO", -1), ("turn", 1, "", -1), ("draw", 1, "AP", -1)]


def test_devious_dragon_alone_in_play_destroys_itself():
    """Pins docs/rules/crazier_eights.md #13: clarification 5, may or must.

    The Dragon's "destroy" is a must: the only card in play is the Dragon, so it is
    destroyed (no decision: the only choice) and goes to the bottom of the discard pile.
    """
    game = new_game(["10P 2B", "3P 4P"], "7G", "AO JO KO")
    step(game, "play 10P")
    start = step(game, "end")
    assert events_from(game, start) == [
        ("turn", 0, "", -1), ("trigger", 0, "10P", 1), ("destroy", 0, "10P", 0),
        ("draw", 0, "KO", -1)]
    assert zones(game) == ["", ""] and pile(game) == "10P 7G"


def test_a_may_step_is_asked_only_when_it_can_happen():
    """Pins docs/rules/crazier_eights.md #13: Overgrowth's "you may destroy".

    With nothing in play Overgrowth asks nothing and gives its discard; with seat 1's
    Sorceress in play seat 0 is asked, and ``yes`` destroys it (the only choice).
    """
    game = new_game(["4G 2P", "3B 4B"], "7G", "AO")
    start = step(game, "play 4G")
    assert events_from(game, start)[:3] == [("event", 0, "4G", -1), ("extra", 0, "4G", 1),
                                            ("settled", 0, "4G", -1)]
    other = new_game(["2P", "2B"], "7G")
    set_position(other, ["4G 4P", "3B 4B"], "7G", "AO JO", ["", "QB"])
    step(other, "play 4G")
    assert table(other)["legal"] == ["yes", "no"] and other.current_player == 0
    snap = other.snapshot()
    start = step(other, "yes")
    assert events_from(other, start)[:3] == [("destroy", 0, "QB", 1), ("extra", 0, "4G", 1),
                                             ("settled", 0, "4G", -1)]
    other.restore(snap)
    start = step(other, "no")
    assert events_from(other, start)[:1] == [("extra", 0, "4G", 1)]
    assert zones(other) == ["", "QB"]


def test_an_assets_must_step_with_nothing_to_choose_does_nothing():
    """Pins docs/rules/crazier_eights.md #13: Treant with no card an opponent controls.

    Treant must destroy a card an opponent controls: with none it does nothing (and never
    its own side's Moat); with one (Sorceress) it destroys it, no decision needed.
    """
    game = new_game(["2P", "2B"], "7G")
    start = set_position(game, ["3G 4G", "3B 5B"], "7G", "AO JO", ["JG 4B", ""])
    assert events_from(game, start) == [("turn", 0, "", -1), ("trigger", 0, "JG", 1),
                                        ("draw", 0, "AO", -1)]
    assert zones(game) == ["JG 4B", ""]
    start = set_position(game, ["3G 4G", "3B 5B"], "7G", "AO JO", ["JG 4B", "QB"])
    assert events_from(game, start) == [("turn", 0, "", -1), ("trigger", 0, "JG", 1),
                                        ("destroy", 0, "QB", 1), ("draw", 0, "AO", -1)]
    assert zones(game) == ["JG 4B", ""] and game.state.piles[0][0] == CS.parse("QB")


# ---------------------------------------------------------------- #14 choosing cards
def test_death_cannot_be_played_with_nothing_in_play():
    """Pins docs/rules/crazier_eights.md #14: clarification 6, choosing cards.

    With no card in play, Death, Sunburst and Rainbow Serpent cannot be played (nor
    Restoration with no asset in the discard pile); an event choosing a player (Hex, Doom)
    always can.
    """
    game = new_game(["5P 9G JB JP AO 8P 7P 2B", "3B 4B 5B 6B 7B 9B 10B QB"], "2G", "4G")
    plays = [a for a in game.legal_texts() if a.startswith("play")]
    assert plays == ["play 7P", "play 8P", "play 4G", "play 2B"]
    with pytest.raises(eights.IllegalActionError):
        game.step("play 5P")


def test_an_event_that_must_destroy_needs_a_card_of_the_right_side():
    """Pins docs/rules/crazier_eights.md #14: Elven Archer needs an opponent's card, Rainbow
    Serpent one of the player's own, Death and Wildfire any.

    Wildfire destroys two cards "then another": with one card in play it is playable and
    its second destroy does nothing.
    """
    hand = "5P 9G JB 5O 2P"
    game = new_game(["2P", "2B"], "7G")

    def plays() -> list[str]:
        return [a for a in game.legal_texts() if a.startswith("play")]

    set_position(game, [hand, "3B 4B"], "7G", "AO", ["QP", ""])
    assert plays() == ["play 2P", "play 5P", "play JB", "play AO", "play 5O"]
    set_position(game, [hand, "3B 4B"], "7G", "AO", ["", "QP"])
    assert plays() == ["play 2P", "play 5P", "play 9G", "play AO", "play 5O"]
    start = step(game, "play 5O")
    assert events_from(game, start)[:3] == [("event", 0, "5O", -1), ("destroy", 0, "QP", 1),
                                            ("settled", 0, "5O", -1)]
    assert zones(game) == ["", ""] and conserved(game)


def test_the_abilities_of_a_player_who_has_left_do_not_take_effect(tmp_path):
    """Pins docs/rules/crazier_eights.md #11, #18: a player who left takes its abilities along.

    A card file of our own gives Dark Lord a beginning ability that makes an opponent
    with twelve or more cards lose. At seat 0's turn it fires first; seat 1 loses, and
    its Curse of Ages, gathered at the same time, never takes effect (no ``trigger`` event
    is logged for it) and never makes seat 0 draw. Choosing seat 2 (too few cards)
    instead, the Curse does.
    """
    source = resources.files("eights.data").joinpath("crazier_eights.toml").read_text(
        encoding="utf-8")
    lord = 'begin_turn = [{ do = "draw", who = "each_opponent", count = 1 }]'
    doom = ('begin_turn = [{ do = "choose_player", among = "opponents" }, { do = "if", '
            'test = { hand_at_least = 12, who = "chosen" }, then = [{ do = "lose", '
            'who = "chosen" }] }]')
    assert source.count(lord) == 1
    path = tmp_path / "cards.toml"
    path.write_text(source.replace(lord, doom), encoding="utf-8")
    game = new_game(["2P", "2B", "2O"], "7G", card_file=str(path))
    twelve = " ".join(cards_but("KP 6P 7G AO JO 3G 4G 3O 4O")[:12])
    set_position(game, ["3G 4G", twelve, "3O 4O"], "7G", "AO JO", ["KP", "6P", ""],
                 rest="stock")
    assert table(game)["legal"] == ["target 1", "target 2"] and game.current_player == 0
    snap = game.snapshot()
    start = step(game, "target 1")
    assert events_from(game, start) == [("chosen", 0, "", 1), ("loses", 1, "", 12),
                                        ("draw", 0, "AO", -1)]
    assert events_from(game, start, "returned") == [  # face up, each: every seat saw it
        ("returned", 1, c, -1) for c in sorted(twelve.split(), key=game.cardset.parse)]
    assert game.state.out == [0, 1, 0] and zones(game) == ["KP", "", ""]
    assert pile(game).endswith("7G") and "6P" in pile(game) and conserved(game)
    game.restore(snap)
    start = step(game, "target 2")
    assert events_from(game, start) == [("chosen", 0, "", 2), ("trigger", 1, "6P", 3),
                                        ("draw", 0, "AO", -1), ("draw", 0, "JO", -1)]


# ---------------------------------------------------------------- #15 trade
def test_trade_takes_a_card_of_the_players_choice_and_gives_one_back():
    """Pins docs/rules/crazier_eights.md #15: clarification 7, "whoever plays Trade decides".

    Seat 0 chooses seat 2 (three players), looks at its hand (only seat 0 sees it), takes
    5O and gives 3P: both choices are seat 0's. The card given is one seat 0 held before
    the Trade, never 5O back ("exchange a card from your hand"). Seat 1 sees neither card.
    """
    game = new_game(["10G 2P 3P", "4B 5B 6B", "4O 5O 6O"], "7G", "AO")
    step(game, "play 10G")
    assert table(game)["legal"] == ["target 1", "target 2"]
    step(game, "target 2")
    assert game.current_player == 0
    assert table(game)["legal"] == ["choose 4O", "choose 5O", "choose 6O"]
    assert game.view(0).looking_at == ids("4O 5O 6O")  # seat 0 looks at seat 2's hand
    assert game.view(1).looking_at == game.view(2).looking_at == ()
    start = step(game, "choose 5O")
    assert events_from(game, start) == [("take", 0, "5O", 2), ("taken", 2, "5O", 0)]
    assert game.current_player == 0
    assert table(game)["legal"] == ["choose 2P", "choose 3P", "choose AO"]
    assert game.view(0).trade_taken == ids("5O")[0]  # only the trader sees what it took
    assert game.view(1).trade_taken == game.view(2).trade_taken == -1
    with pytest.raises(eights.IllegalActionError, match="'choose 5O' is not legal"):
        game.step("choose 5O")
    start = step(game, "choose 3P")
    assert events_from(game, start)[:3] == [("give", 0, "3P", 2), ("given", 2, "3P", 0),
                                            ("settled", 0, "10G", -1)]
    assert hands(game)[0] == "2P AO 5O" and hands(game)[2] == "3P 4O 6O"
    seen = game.seat_history(1).events()
    assert {(e.kind, e.card) for e in seen[start - 2:start + 2]} == {
        ("take", -1), ("taken", -1), ("give", -1), ("given", -1)}
    assert pile(game) == "10G 7G" and conserved(game)


def test_trade_gives_back_another_copy_of_the_card_taken_held_before():
    """Pins docs/rules/crazier_eights.md #15: with two decks a copy of the card taken that
    the player held before the Trade is a card of its hand to exchange."""
    game = new_game(["10G 5O 3P", "4B 5B 6B", "4O 5O 6O"], "7G", "AO", num_decks=2)
    step(game, "play 10G", "target 2", "choose 5O")
    assert table(game)["legal"] == ["choose 3P", "choose AO", "choose 5O"]
    step(game, "choose 5O")
    assert hands(game)[0] == "3P AO 5O" and hands(game)[2] == "4O 5O 6O" and conserved(game)
    assert game.state.trade_taken == -1


def test_a_determinization_keeps_the_card_a_trade_took_out_of_the_cards_to_give():
    """Pins docs/rules/crazier_eights.md #15: the trader's view holds the card it took, so
    a search's positions offer the same cards to give as the game."""
    game = new_game(["10G 2P 3P", "4B 5B 6B", "4O 5O 6O"], "7G", "AO")
    step(game, "play 10G", "target 2", "choose 5O")
    view = game.view(0)
    for k in range(10):
        deal = G.determinize(view, random.Random(k))
        assert deal.legal_actions() == game.legal_actions() == view.legal_actions


def test_a_frontend_may_leave_out_the_card_a_trade_took():
    """Pins docs/rules/crazier_eights.md #15: a protocol view without ``trade_taken`` gets
    it from the legal actions (the card of the hand they leave out), and determinizes."""
    from eights.protocol.views import read_view, required_now, view_to_json

    game = new_game(["10G 2P 3P", "4B 5B 6B", "4O 5O 6O"], "7G", "AO")
    step(game, "play 10G", "target 2", "choose 5O")
    view = game.view(0)
    data = view_to_json(view)
    keep = set(required_now(data, view.variant, view.config, view.legal_actions))
    assert "trade_taken" not in keep
    back, filled = read_view({k: v for k, v in data.items() if k in keep}, view.variant,
                             view.config, view.legal_actions)
    assert "trade_taken" in filled and back.trade_taken == view.trade_taken
    assert G.determinize(back, random.Random(0)).legal_actions() == view.legal_actions


def test_trade_may_be_played_as_the_last_card_and_wins_at_once():
    """Pins docs/rules/crazier_eights.md #15, #7: clarification 7, Trade as the last card."""
    game = new_game(["10G", "4B"], "7G", "3G")
    step(game, "discard 3G")
    assert table(game)["legal"] == ["play 10G", "end"]
    start = step(game, "play 10G")
    assert events_from(game, start) == [
        ("event", 0, "10G", -1), ("out", 0, "", -1), ("score", 0, "", 0),
        ("score", 1, "", 1), ("game_over", -1, "", 1)]
    assert game.winners == (0,) and hands(game) == ["", "4B"] and conserved(game)


# ---------------------------------------------------------------- #16 restoration
def test_restoration_may_take_the_top_card_and_the_card_below_becomes_the_top():
    """Pins docs/rules/crazier_eights.md #16, #5: clarification 8, and an 8 exposed (9).

    Seat 0 discards Solar Flare (8O) naming purple; seat 1 discards Queen Guinevere on it.
    Seat 0's Restoration puts Queen Guinevere into play from the top of the discard pile:
    Solar Flare is the top card again, with no colour named, so orange (or an 8) follows.
    """
    game = new_game(["8O JP 2B", "QP 3B 4B"], "7G", "AO 5B 6B 9O")
    step(game, "discard 8O", "colour P", "end", "discard QP", "end")
    assert pile(game) == "7G 8O QP" and game.current_player == 0
    start = step(game, "play JP")
    assert events_from(game, start) == [("event", 0, "JP", -1), ("restore", 0, "QP", -1),
                                        ("settled", 0, "JP", -1)]
    assert zones(game) == ["QP", ""] and pile(game) == "JP 7G 8O"
    assert table(game) == dict(top="8O", named=-1, phase="main", lead=0, current=0,
                               discards_left=[1, 0], played=[1, 0],
                               legal=["discard AO", "end"])
    assert game.view(0).follow_colours == 8


def test_restoration_taking_the_only_card_becomes_the_only_card():
    """Pins docs/rules/crazier_eights.md #16: clarification 8, the only card.

    Queen Guinevere turned up is the whole discard pile; Restoration puts it into play and
    then is the only card: the next discard follows Restoration (purple, or a jack).
    """
    game = new_game(["JP 2B", "3B 4B"], "QP", "AO")
    start = step(game, "play JP")
    assert events_from(game, start)[:3] == [("event", 0, "JP", -1), ("restore", 0, "QP", -1),
                                            ("settled", 0, "JP", -1)]
    assert pile(game) == "JP" and zones(game) == ["QP", ""]
    assert game.current_player == 1 and game.view(1).follow_colours == 1
    assert [a for a in game.legal_texts() if a.startswith("discard")] == ["discard AP"]


# ---------------------------------------------------------------- #17 substitutions
def test_castle_and_moat_make_an_opponents_draw_two_draw_zero():
    """Pins docs/rules/crazier_eights.md #17: Chapter 8, two substitutions add up.

    Seat 1 controls Castle and Moat: Hex (an opponent draws two) and Riptide (an opponent
    draws two) make it draw nothing; its own draw phase is caused by no one and draws one.
    """
    game = new_game(["2P", "2B"], "7G")
    set_position(game, ["8P 2B 9B", "3B 5B 6B"], "7G", "AO JO QO", ["", "KO 4B"],
                 rest="stock")
    snap = game.snapshot()
    start = step(game, "play 8P")  # (nothing left to discard on 7G: the turn passes)
    assert events_from(game, start) == [
        ("event", 0, "8P", -1), ("chosen", 0, "", 1), ("fewer", 1, "", 2),
        ("settled", 0, "8P", -1), ("turn", 1, "", -1), ("draw", 1, "JO", -1)]
    assert sizes(game) == [3, 4]
    game.restore(snap)
    start = step(game, "play 2B")
    assert events_from(game, start, "fewer", "draw") == [("fewer", 1, "", 2)]
    assert sizes(game) == [3, 3]


def test_one_castle_takes_one_card_off_and_only_an_opponents_cause_counts():
    """Pins docs/rules/crazier_eights.md #17: the cause is the controller of the ability.

    Seat 1 (Castle) draws one of Hex's two. Storm Caller (twice: a player of your choice
    draws) makes seat 0 draw one despite its Moat (seat 0 itself is the cause), and seat
    1 none. Seat 1's Curse of Ages makes seat 0 (Moat) draw nothing at its turn.
    """
    game = new_game(["2P", "2B"], "7G")
    set_position(game, ["8P 2B 9B", "3B 5B 7B"], "7G", "AO JO QO", ["4B", "KO"],
                 rest="stock")
    snap = game.snapshot()
    start = step(game, "play 8P")
    assert events_from(game, start, "fewer", "draw")[:2] == [("fewer", 1, "", 1),
                                                             ("draw", 1, "JO", -1)]
    game.restore(snap)
    step(game, "play 9B")
    start = step(game, "target 0", "target 1")
    assert events_from(game, start, "fewer", "draw") == [("draw", 0, "JO", -1),
                                                         ("fewer", 1, "", 1)]
    curse = new_game(["2P", "2B"], "7G")
    start = set_position(curse, ["8P 2B 9B", "3B 5B 7B"], "7G", "AO JO QO", ["4B", "6P"],
                         rest="stock")
    assert events_from(curse, start) == [("turn", 0, "", -1), ("trigger", 1, "6P", 3),
                                         ("fewer", 0, "", 1), ("draw", 0, "AO", -1)]


def test_ankh_of_renewal_is_destroyed_instead_of_losing():
    """Pins docs/rules/crazier_eights.md #17: the lose substitution.

    Seat 1 has twelve cards and Ankh of Renewal: Doom would make it lose; the Ankh is
    destroyed instead (to the bottom of the discard pile) and seat 1 plays on.
    """
    game = new_game(["2P", "2B"], "7G")
    twelve = " ".join(cards_but("7P 7G AG QO 2B")[:12])
    set_position(game, ["7P 2B", twelve], "7G", "QO", ["", "AG"], rest="stock")
    start = step(game, "play 7P")
    assert events_from(game, start)[:4] == [
        ("event", 0, "7P", -1), ("chosen", 0, "", 1), ("saved", 1, "AG", -1),
        ("settled", 0, "7P", -1)]
    assert pile(game) == "7P AG 7G" and zones(game) == ["", ""]
    assert game.state.out == [0, 0] and game.current_player == 1 and not game.game_over


# ---------------------------------------------------------------- #18 losing
DOOM_HANDS = ["7P 2P 3P 4P 5P 6P 9P 10P JP QP KP AG",
              "QB 2G 3G 4G 5G 6G 8G 9G 10G JG QG KG",
              "AB 2B 3B 4B 5B 6B 7B 8B 9B 10B JB KB"]


def test_a_player_who_loses_leaves_with_hand_and_assets_to_the_bottom():
    """Pins docs/rules/crazier_eights.md #18: Chapter 1, losing the game.

    Seat 1 (twelve cards, Sorceress in play) is chosen by seat 0's Doom and loses: its hand
    and its Sorceress go to the bottom of the discard pile, under the Doom; the game goes
    on and turns skip seat 1.
    """
    game = new_game(DOOM_HANDS, "7G", "AO 2O 3O 4O 5O 6O")
    step(game, "end", "play QB", "end", "end")
    assert sizes(game) == [14, 12, 13] and zones(game) == ["", "QB", ""]
    step(game, "play 7P")
    start = step(game, "target 1")
    assert events_from(game, start) == [("chosen", 0, "", 1), ("loses", 1, "", 12),
                                        ("settled", 0, "7P", -1)]
    s = game.state
    assert s.out == [0, 1, 0] and s.lost_with == [0, 12, 0] and sizes(game)[1] == 0
    assert zones(game) == ["", "", ""] and game.view(2).out == (0, 1, 0)
    assert pile(game).split()[0] == "7P" and pile(game).split()[-1] == "7G"
    assert set(pile(game).split()[1:-1]) == set(DOOM_HANDS[1].split()) | {"2O"}
    assert not game.game_over and game.current_player == 0
    start = step(game, "end")
    assert events_from(game, start, "turn") == [("turn", 2, "", -1)] and conserved(game)


def test_the_last_player_left_wins_and_a_player_who_left_scores_its_hand():
    """Pins docs/rules/crazier_eights.md #18, #19: two players, Doom."""
    game = new_game(DOOM_HANDS[:2], "7G", "AO")
    step(game, "play 7P")
    assert game.terminated and game.winners == (0,)
    assert game.final_scores() == (0, 12) and game.state.lost_with == [0, 12]
    assert events_from(game, 0, "loses", "score") == [
        ("loses", 1, "", 12), ("score", 0, "", 0), ("score", 1, "", 12)]


def test_a_lead_who_loses_passes_the_turn_and_its_event_still_settles():
    """Pins docs/rules/crazier_eights.md #18: Forbidden Knowledge with ten or more cards.

    Seat 0 plays Forbidden Knowledge keeping eleven cards: after its look and discards it
    loses; its pending main phase is dropped, Forbidden Knowledge still goes to the
    bottom, and seat 1's turn begins.
    """
    game = new_game(["2P", "2B", "2O"], "7G")
    ten = " ".join(cards_but("7O 7G 3G 4G QB 3O 4O 5O")[:10])
    set_position(game, ["7O " + ten, "3G 4G", "3O 4O"], "7G", "5O", ["QB", "", ""],
                 rest="stock")
    step(game, "play 7O")
    assert table(game)["legal"][-1] == "no"
    start = step(game, "no")
    assert events_from(game, start) == [
        ("extra", 0, "7O", 2), ("loses", 0, "", 11), ("settled", 0, "7O", -1),
        ("turn", 1, "", -1), ("draw", 1, "JP", -1)]
    assert game.state.out == [1, 0, 0] and zones(game) == ["", "", ""]
    assert pile(game).split()[:2] == ["7O", "QB"] and conserved(game)
    assert game.current_player == 1 and table(game)["lead"] == 1


# ---------------------------------------------------------------- #19 points and matches
def test_a_match_scores_every_game_and_the_most_points_play_first():
    """Pins docs/rules/crazier_eights.md #19: Chapter 1, playing for points.

    Seat 0 wins game 1 (seat 1 scores a point); seat 1, with the most points, plays first
    in game 2. The match ends after game 2; the fewest total points win it.
    """
    game = new_game(["3G", "2B"], "7G", "QP", games=2)
    start = step(game, "play QP", "discard 3G")
    assert events_from(game, start, "score", "deal") == [
        ("score", 0, "", 0), ("score", 1, "", 1), ("deal", 1, "", 1)]
    assert not game.game_over and game.state.scores == [0, 1]
    v = game.view(0)
    assert (v.hand_number, v.first_player, v.lead) == (1, 1, 1)
    assert sizes(game) == [1, 2] and zones(game) == ["", ""] and conserved(game)
    rng = random.Random(3)
    while not game.game_over:
        game.step(rng.choice(game.legal_actions()))
    assert game.terminated
    low = min(game.final_scores())
    assert game.winners == tuple(p for p in (0, 1) if game.final_scores()[p] == low)


@pytest.mark.parametrize("first, hands_, after", [
    (0, ["3G", "2B", "2O"], 1),   # seats 1 and 2 tie: seat 1 is first clockwise after 0
    (1, ["2B", "3G", "2O"], 2),   # seats 0 and 2 tie: seat 2 is first clockwise after 1
])
def test_tied_most_points_the_first_such_seat_after_the_previous_first_player(first, hands_,
                                                                                after):
    """Pins docs/rules/crazier_eights.md #19: who plays first after a tie on points."""
    game = new_game(hands_, "7G", "QP", first=first, games=2)
    step(game, "play QP", "discard 3G")
    assert game.state.hand_number == 1 and game.state.first == after


# ---------------------------------------------------------------- #20 teams
TEAM_HANDS = ["2P 3P", "2B 3B", "2O 3O", "2G 3G"]


def test_allies_see_each_others_hands_and_take_their_turn_together():
    """Pins docs/rules/crazier_eights.md #20: Chapter 10, playing on teams.

    Seats 0 and 2 against 1 and 3. Each sees its ally's hand only. Seat 0's team turn:
    both draw (the lead first), seat 0 has its main phase, then seat 2 its own; the lead
    then passes to seat 1, whose team draws in turn.
    """
    game = new_game(TEAM_HANDS, "7P", "AP AB AO AG 4P 4B", teams=2)
    v = game.view(0)
    assert v.teams == (0, 1, 0, 1)
    assert v.ally_hands == ((), (), ids("2O 3O AB"), ())
    assert game.view(1).ally_hands == ((), (), (), ids("2G 3G"))
    assert events_from(game)[2:] == [("turn", 0, "", -1), ("draw", 0, "AP", -1),
                                     ("draw", 2, "AB", -1)]
    assert table(game) == dict(top="7P", named=-1, phase="main", lead=0, current=0,
                               discards_left=[1, 0, 1, 0], played=[0, 0, 0, 0],
                               legal=["discard AP", "discard 2P", "discard 3P", "play AP",
                                      "play 2P", "play 3P", "end"])
    step(game, "discard 2P")
    assert (game.current_player, table(game)["lead"]) == (0, 0)
    step(game, "end")
    assert (game.current_player, table(game)["lead"], table(game)["phase"]) == (2, 0, "main")
    assert table(game)["legal"] == ["discard 2O", "play AB", "play 2O", "play 3O", "end"]
    start = step(game, "discard 2O", "end")
    assert events_from(game, start, "turn", "draw") == [
        ("turn", 1, "", -1), ("draw", 1, "AO", -1), ("draw", 3, "AG", -1)]
    assert table(game)["discards_left"] == [0, 1, 0, 1] and game.current_player == 1
    start = step(game, "end", "end")  # seats 1 and 3; then seat 2 leads, seat 0 after it
    assert events_from(game, start, "turn", "draw") == [
        ("turn", 2, "", -1), ("draw", 2, "4P", -1), ("draw", 0, "4B", -1)]
    assert (game.current_player, table(game)["lead"]) == (2, 2)
    step(game, "end")
    assert (game.current_player, table(game)["lead"]) == (0, 2)


def test_the_lead_passes_to_the_next_seat_on_another_team():
    """Pins docs/rules/crazier_eights.md #20: three teams of two, seats 0 3, 1 4, 2 5."""
    game = new_game(["2P 3P", "2B 3B", "2O 3O", "2G 3G", "4P 5P", "4B 5B"], "7P",
                    teams=3)
    leads = [game.state.lead]
    for _ in range(6):
        while game.state.lead == leads[-1]:
            step(game, "end")
        leads.append(game.state.lead)
    assert leads == [0, 1, 2, 3, 4, 5, 0]


def test_teams_of_three_and_two_take_turns_as_teams():
    """Pins docs/rules/crazier_eights.md #20: "teams with two or three people on each team"
    need not be even: five players in two teams are seats 0 2 4 against 1 3, and the lead
    passes to the next seat on another team, so after seat 4 it skips seat 0 (its ally)."""
    game = new_game(["2P 3P", "2B 3B", "2O 3O", "2G 3G", "4P 5P"], "7P", teams=2)
    assert game.view(0).teams == (0, 1, 0, 1, 0)
    assert game.view(1).ally_hands == ((), (), (), ids("2G 3G"), ())
    leads = [game.state.lead]
    for _ in range(5):
        while game.state.lead == leads[-1]:
            step(game, "end")
        leads.append(game.state.lead)
    assert leads == [0, 1, 2, 3, 4, 1]


@pytest.mark.parametrize(("players", "teams", "message"), [
    (7, 2, "teams of more than three"),
    (5, 3, "every team needs at least two players"),
])
def test_teams_outside_two_or_three_players_are_refused(players, teams, message):
    with pytest.raises(eights.ConfigError, match=message):
        eights.make_game("crazier_eights", num_players=players, teams=teams)


def test_an_ally_who_goes_out_wins_for_the_whole_team():
    """Pins docs/rules/crazier_eights.md #20, #7: Chapter 10, the team wins together."""
    game = new_game(["2P", "2B", "3P", "2G"], "7P", "AO QB", teams=2)
    step(game, "end")  # seat 0's main phase
    assert game.current_player == 2
    step(game, "play QB", "discard 3P")
    assert game.terminated and game.winners == (0, 2)
    assert game.final_scores() == (0, 1, 0, 1) and game.returns() == [1.0, -1.0, 1.0, -1.0]


def test_a_player_who_loses_takes_the_whole_team_out():
    """Pins docs/rules/crazier_eights.md #20, #18: Chapter 10, the team loses together."""
    hands_ = DOOM_HANDS + ["AO 2O 3O 4O 5O 6O 8O 9O 10O JO QO KO"]
    game = new_game(hands_, "7G", "AP 8P", teams=2)
    step(game, "play 7P")
    assert table(game)["legal"] == ["target 1", "target 3"]
    start = step(game, "target 1")
    assert events_from(game, start, "loses") == [("loses", 1, "", 12), ("loses", 3, "", 12)]
    assert game.terminated and game.winners == (0, 2)
    assert game.final_scores() == (0, 12, 0, 12)


def test_opponents_are_the_other_teams_players():
    """Pins docs/rules/crazier_eights.md #20, #17: Tempest skips the ally; an ally's draw is
    no opponent's.

    Tempest (each opponent draws) makes seats 1 and 3 draw, not seat 2. Seat 2's Wild
    Growth makes seat 0 draw despite seat 0's Castle: an ally is not an opponent.
    """
    game = new_game(TEAM_HANDS, "7P", "5G 8G JO QO KO", teams=2)
    start = step(game, "play 5G")
    assert events_from(game, start, "draw") == [("draw", 1, "JO", -1), ("draw", 3, "QO", -1)]
    castle = new_game(TEAM_HANDS, "7P", teams=2)
    set_position(castle, ["2P 3P", "2B 3B", "8G 3O", "2G 3G"], "7P", "AO JO QO 9O",
                 ["KO", "", "", ""], rest="stock")
    step(castle, "end")
    assert castle.current_player == 2
    step(castle, "play 8G")
    start = step(castle, "target 0")
    assert events_from(castle, start)[:2] == [("chosen", 2, "", 0), ("draw", 0, "QO", -1)]
    assert events_from(castle, start, "fewer") == []


def test_an_ally_orders_its_own_simultaneous_abilities_after_the_leads():
    """Pins docs/rules/crazier_eights.md #20, #10: the lead's abilities, then the ally's.

    Seat 0's Queen Guinevere takes effect first; seat 2's King Arthur and Green Knight fire
    together and seat 2 (not the lead) orders them.
    """
    game = new_game(TEAM_HANDS, "7P", teams=2)
    start = set_position(game, ["2P 3P", "2B 3B", "2O 3O", "2G 3G"], "7P", "AO JO",
                         ["QP", "", "KB KG", ""], rest="stock")
    assert events_from(game, start) == [
        ("turn", 0, "", -1), ("trigger", 0, "QP", 1), ("extra", 0, "QP", 1)]
    assert game.current_player == 2 and table(game)["legal"] == ["order KG", "order KB"]
    start = step(game, "order KB")
    assert events_from(game, start) == [("trigger", 2, "KB", 1), ("extra", 2, "KB", 2),
                                        ("trigger", 2, "KG", 1), ("extra", 2, "KG", 1),
                                        ("draw", 0, "AO", -1), ("draw", 2, "JO", -1)]
    assert table(game)["discards_left"] == [2, 0, 4, 0]


def test_an_impossible_draw_makes_the_team_of_the_fewest_cards_win():
    """Pins docs/rules/crazier_eights.md #20, #8: the fewest cards win with their teams."""
    rest = cards_but("7G")
    game = new_game(TEAM_HANDS, "7P", teams=2)
    set_position(game, [" ".join(rest[:13]), " ".join(rest[13:26]), " ".join(rest[26:39]),
                        " ".join(rest[39:])], "7G", "")
    assert sizes(game) == [13, 13, 13, 12]
    assert game.terminated and game.winners == (1, 3)
    assert game.final_scores() == (13, 0, 13, 0)


# ---------------------------------------------------------------- #22 copies
def test_destroying_one_of_two_copies_asks_the_card_then_whose():
    """Pins docs/rules/crazier_eights.md #22: two decks, two Queens Guinevere in play.

    Seat 0's Death chooses the card (Queen Guinevere), then whose copy (seat 1's).
    """
    game = new_game(["2P", "2B"], "7G", num_decks=2)
    set_position(game, ["5P 2B", "3B 4B"], "7G", "AO JO", ["QP", "QP KB"], rest="stock")
    step(game, "play 5P")
    assert table(game)["legal"] == ["choose QP", "choose KB"]
    step(game, "choose QP")
    assert table(game)["legal"] == ["target 0", "target 1"] and game.current_player == 0
    start = step(game, "target 1")
    assert events_from(game, start)[:2] == [("destroy", 0, "QP", 1), ("settled", 0, "5P", -1)]
    assert zones(game) == ["QP", "KB"] and pile(game).startswith("5P QP ")
    assert conserved(game)


def test_the_other_players_abilities_follow_turn_order_from_the_lead():
    """Pins docs/rules/crazier_eights.md #10: "then ... based on turn order".

    At seat 1's turn (three players) turn order is 1, 2, 0: seat 2's Night Watch asks
    before seat 0's Curse of Ages makes seat 1 draw.
    """
    game = new_game(["2P", "2B", "2O"], "7G")
    start = set_position(game, ["3G 4G", "3B 4B", "3O 4O"], "7G", "AO JO KO",
                         ["6P", "", "7B"], lead=1, rest="stock")
    assert events_from(game, start) == [("turn", 1, "", -1), ("trigger", 2, "7B", 3)]
    assert game.current_player == 2 and table(game)["legal"] == ["yes", "no"]
    start = step(game, "yes")
    assert events_from(game, start) == [("look", 2, "AO", 0), ("trigger", 0, "6P", 3),
                                        ("draw", 1, "AO", -1), ("draw", 1, "JO", -1)]


# ---------------------------------------------------------------- Chapter 11, clarification 1
def test_every_player_may_count_the_hands_and_the_draw_pile():
    """Chapter 11, clarification 1: hand sizes and the draw pile's size are public."""
    game = new_game(["3G 4G 5G", "3B 4B 5B", "3O 4O 5O"], "7G", "AO")
    for seat in range(3):
        v = game.view(seat)
        assert v.hand_sizes == (4, 3, 3)
        assert v.stock_size == 52 - 9 - 1 - 1 and v.discard_size == 1


# ---------------------------------------------------------------- Part III
def test_the_rulebooks_first_three_turns():
    """Pins docs/rules/crazier_eights.md #4, #5, #6, #12, #21: Part III, card for card.

    Tina (seat 0) and Lora (seat 1); Potion of Vitality turned up. Tina draws Malevolent
    Minion, plays Ferocity (to the bottom of the discard pile; two discards this turn) and
    discards Elven Princess and Wood Elf. Lora draws, discards Tempest and plays Queen
    Guinevere, which does nothing yet. Tina draws Forbidden Knowledge; Death is a legal
    discard on Tempest, but she plays it to destroy Queen Guinevere (both to the bottom),
    then discards Spell Tome naming blue: Lora must discard blue or an 8.
    """
    tina = "4O QG 3G 5P 8B 6P JO"    # Ferocity, Elven Princess, Wood Elf, Death, Spell Tome
    lora = "5G QP 2B 9B AO 6O 10O"   # Tempest, Queen Guinevere, ...
    game = new_game([tina, lora], "7G", "9P 2P 7O AP")
    # first turn
    assert events_from(game, 2) == [("turn", 0, "", -1), ("draw", 0, "9P", -1)]
    assert hands(game)[0] == "5P 6P 9P 3G QG 8B 4O JO" and pile(game) == "7G"
    assert [a for a in game.legal_texts() if a.startswith("discard")] == [
        "discard 3G", "discard QG", "discard 8B"]  # green, or her eight
    start = step(game, "play 4O")
    assert events_from(game, start) == [("event", 0, "4O", -1), ("extra", 0, "4O", 1),
                                        ("settled", 0, "4O", -1)]
    assert pile(game) == "4O 7G"
    assert table(game) == dict(top="7G", named=-1, phase="main", lead=0, current=0,
                               discards_left=[2, 0], played=[1, 0],
                               legal=["discard 3G", "discard QG", "discard 8B", "end"])
    step(game, "discard QG")
    assert table(game)["legal"] == ["discard 3G", "discard 8B", "end"]
    start = step(game, "discard 3G")  # both discards used: the turn passes
    # second turn
    assert events_from(game, start) == [("discard", 0, "3G", -1), ("turn", 1, "", -1),
                                        ("draw", 1, "2P", -1)]
    assert pile(game) == "4O 7G QG 3G" and hands(game)[0] == "5P 6P 9P 8B JO"
    assert hands(game)[1] == "2P QP 5G 2B 9B AO 6O 10O"
    step(game, "discard 5G")
    start = step(game, "play QP")
    assert events_from(game, start) == [("asset", 1, "QP", -1), ("turn", 0, "", -1),
                                        ("draw", 0, "7O", -1)]  # Queen Guinevere: not yet
    assert zones(game) == ["", "QP"] and pile(game) == "4O 7G QG 3G 5G"
    # third turn
    assert hands(game)[0] == "5P 6P 9P 8B 7O JO"
    assert table(game) == dict(top="5G", named=-1, phase="main", lead=0, current=0,
                               discards_left=[1, 0], played=[0, 0],
                               legal=["discard 5P", "discard 8B", "play 5P", "play 6P",
                                      "play 9P", "play 8B", "play 7O", "play JO", "end"])
    start = step(game, "play 5P")  # Queen Guinevere is the only card to destroy
    assert events_from(game, start) == [("event", 0, "5P", -1), ("destroy", 0, "QP", 1),
                                        ("settled", 0, "5P", -1)]
    assert zones(game) == ["", ""] and pile(game) == "5P QP 4O 7G QG 3G 5G"
    step(game, "discard 8B")
    assert table(game)["legal"] == COLOURS
    start = step(game, "colour B")  # nothing is left to do: Lora's turn
    assert events_from(game, start) == [("named", 0, "", 2), ("turn", 1, "", -1),
                                        ("draw", 1, "AP", -1)]
    assert pile(game) == "5P QP 4O 7G QG 3G 5G 8B" and hands(game)[0] == "6P 9P 7O JO"
    assert game.view(1).named == 2 and game.view(1).follow_colours == 4
    assert [a for a in game.legal_texts() if a.startswith("discard")] == [
        "discard 2B", "discard 9B"]
    assert game.record().actions == ("play 4O", "discard QG", "discard 3G", "discard 5G",
                                     "play QP", "play 5P", "discard 8B", "colour B")
    assert conserved(game)


# ---------------------------------------------------------------- #21 actions
def test_every_choice_is_one_action_and_a_single_choice_is_made_by_the_engine():
    """Pins docs/rules/crazier_eights.md #21: nine kinds of action, one decision each.

    Death with one card in play needs no ``choose``; with two it asks. The actions are
    the same by id or by text.
    """
    assert list(ACTIONS.blocks) == ["discard", "play", "end", "colour", "target", "choose",
                                    "order", "yes", "no"]
    game = new_game(["QP 5P 2B", "KB 3P 4P"], "7G", "AO 9O 6O")
    step(game, "play QP", "play KB")
    game.step(ACTIONS.parse("play 5P"))
    assert table(game)["legal"] == ["choose QP", "choose KB"]
    assert game.legal_actions() == tuple(ACTIONS.parse(a) for a in game.legal_texts())
    lone = new_game(["QP 5P 2B", "3B 3P 4P"], "7G", "AO 9O 6O")
    step(lone, "play QP", "end")
    start = step(lone, "play 5P")  # Queen Guinevere is the only card in play
    assert events_from(lone, start)[:2] == [("event", 0, "5P", -1), ("destroy", 0, "QP", 0)]
    assert lone.record().actions == ("play QP", "end", "play 5P")


# ---------------------------------------------------------------- whole games
def legal_discard(game: CrazierEightsGame, c: int) -> bool:
    """Chapter 1's discarding rule, written out again: an 8; else the colour named for an 8
    on top; else the top card's rank or one of its colours."""
    s = game.state
    top = s.piles[0][-1]
    if CS.rank[c] == 8:
        return True
    if s.named >= 0:
        return s.named in CS.colours_of[c]
    return CS.rank[c] == CS.rank[top] or bool(set(CS.colours_of[c]) & set(CS.colours_of[top]))


@pytest.mark.parametrize("options", [
    dict(num_players=2), dict(num_players=3), dict(num_players=4, teams=2),
    dict(num_players=5), dict(num_players=2, games=2),
], ids=["2p", "3p", "4p-teams", "5p-two-decks", "match"])
def test_random_games_keep_every_rule(options):
    """Pins docs/rules/crazier_eights.md #5, #21: whole games by random legal actions.

    After every action: every card is somewhere once per deck; a decision always has two
    or more legal actions (one is applied by the engine); every legal discard matches by
    the rules; only the player to act's cards are discarded or played; a player who left
    holds nothing.
    """
    config = CrazierEightsConfig(**options)
    for seed in range(8):
        game = G(config, seed=seed)
        rng = random.Random(seed)
        while not game.game_over:
            assert len(game.legal_actions()) >= 2
            p = game.current_player
            for a in game.legal_texts():
                verb, _, card = a.partition(" ")
                if verb in ("discard", "play"):
                    c = CS.parse(card)
                    assert c in game.state.hands[p]
                    if verb == "discard":
                        assert legal_discard(game, c), a
            game.step(rng.choice(game.legal_actions()))
            assert conserved(game)
            s = game.state
            assert all(not s.hands[q] and not s.zones[q] for q in range(game.num_players)
                       if s.out[q])
        assert game.terminated or game.truncated


def test_an_opponent_begin_turn_ability_makes_every_player_of_the_team_draw():
    """Pins docs/rules/crazier_eights.md #20, #12: Curse of Ages at a team's turn.

    "That player draws a card": the players taking the turn are seat 0 and its ally seat
    2, so both draw from seat 1's Curse, then each draws in the draw phase.
    """
    game = new_game(TEAM_HANDS, "7P", teams=2)
    start = set_position(game, TEAM_HANDS, "7P", "AO JO QO 9O", ["", "6P", "", ""],
                         rest="stock")
    assert events_from(game, start) == [
        ("turn", 0, "", -1), ("trigger", 1, "6P", 3), ("draw", 0, "AO", -1),
        ("draw", 2, "JO", -1), ("draw", 0, "QO", -1), ("draw", 2, "9O", -1)]


def test_an_impossible_draw_counts_only_the_players_still_in():
    """Pins docs/rules/crazier_eights.md #8, #18: a player who left, with no cards, does not
    win an impossible draw: seat 2 (25 cards) beats seat 0 (26)."""
    rest = cards_but("7G")
    game = new_game(["2P", "2B", "2O"], "7G")
    start = set_position(game, [" ".join(rest[:26]), "", " ".join(rest[26:])], "7G", "",
                         out=(1,))
    assert events_from(game, start, "impossible", "game_over") == [
        ("impossible", 0, "", -1), ("game_over", -1, "", 1)]
    assert game.winners == (2,) and game.final_scores() == (26, 0, 0)


def test_two_ankhs_save_one_loss_each():
    """Pins docs/rules/crazier_eights.md #17: one lose substitution per loss (two decks)."""
    game = new_game(["2P", "2B"], "7G", num_decks=2)
    twelve = " ".join(cards_but("7P 7G AG QO 2B")[:12])
    set_position(game, ["7P 2B", twelve], "7G", "QO", ["", "AG AG"], rest="stock")
    start = step(game, "play 7P")
    assert events_from(game, start, "saved", "loses") == [("saved", 1, "AG", -1)]
    assert zones(game) == ["", "AG"] and game.state.out == [0, 0]


# ---------------------------------------------------------------- what a seat saw, for search
def test_a_determinization_keeps_the_cards_a_seat_looked_at_on_top_of_the_draw_pile():
    """Mirror of Fate looks at the top three: every deal from the looker's view keeps them
    there, in order; the other seat's view knows nothing of them."""
    game = new_game(["3B 2P 4P", "6P 9P JP"], "7G", "AG 5O 9O QO KO")
    step(game, "play 3B")
    looked = [CS.parse(c) for c in ("5O", "9O", "QO")]  # (AG was drawn at the draw phase)
    view = game.view(0)
    assert list(view.known_stock) == looked and game.view(1).known_stock == ()
    for k in range(20):
        deal = G.determinize(view, random.Random(k))
        assert deal.state.stock[::-1][:3] == looked
        assert deal.legal_actions() == game.legal_actions()


def test_a_determinization_keeps_an_allys_hand_and_the_hand_a_trade_looks_at():
    game = new_game(["10G 2P", "6P 9P", "4P 5B", "JP QB"], "7G", "AG 5O 9O QO KO AB 2B",
                    teams=2)
    # seat 0 leads: after its draw it trades with seat 1 and looks at that hand
    step(game, "play 10G", "target 1")
    view = game.view(0)
    assert view.looking_at == tuple(sorted(game.state.hands[1]))
    assert view.ally_hands[2] == tuple(sorted(game.state.hands[2]))
    for k in range(20):
        deal = G.determinize(view, random.Random(k))
        assert sorted(deal.state.hands[2]) == sorted(game.state.hands[2])
        assert sorted(deal.state.hands[1]) == sorted(game.state.hands[1])
        assert deal.legal_actions() == game.legal_actions()
