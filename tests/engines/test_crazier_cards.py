"""Scenario tests for the Crazier Eights card set: every one of the 52 cards does what it says.

Each card's ability is played out from a stacked deck and checked on the state: who drew
how many, what was destroyed, the colours named, the extra discards granted, the cards
looked at (``state.known``) or revealed, the losses and what saves from them. Positions
are written as hands (seat order, all one size), the turned-up card and the top of the
draw pile (the first card drawn first: seat 0 draws it at once, as its turn begins with
the deal). Assets whose abilities fire at the beginning or end of a turn are put into
play by :func:`put_in_play`, which takes them from the draw pile below the stacked cards
(every card stays exactly once); seat 0 then ends its turn so that seat 1's begins.

Then the card files: the loader's errors name the card, the field and what is allowed;
a user's own file goes in through the ``card_file`` option; and the card table of
``docs/rules/crazier_eights.md`` lists exactly the cards of the built-in file.
"""

from __future__ import annotations

import hashlib
import os
from collections import Counter
from pathlib import Path

import pytest

import eights
from eights.config import ConfigError
from eights.engines import crazier_cards
from eights.engines.crazier_cards import CardFileError, parse
from eights.engines.crazier_eights import CrazierEightsConfig, CrazierEightsGame
from tests.conftest import all_cards
from tests.engines.crazier_helpers import (
    cards_but,
    conserved,
    discard_pile,
    events,
    new_game,
    sizes,
    step,
    stock_top,
    texts,
)

G = CrazierEightsGame
CS = G.cardset
ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "eights" / "data" / "crazier_eights.toml"
DOC = ROOT / "docs" / "rules" / "crazier_eights.md"
BUILT_IN_TEXT = DATA.read_text(encoding="utf-8")
TEXTS = [CS.text(c) for c in range(52)]
#: the cards whose scenario is written below (every card must have one)
COVERED: set[str] = set()


# ---------------------------------------------------------------- helpers
def covers(*cards: str):
    """Mark a test as a scenario of ``cards``."""
    COVERED.update(cards)
    return lambda test: test


def card(text: str) -> int:
    return CS.parse(text)






def put_in_play(game: CrazierEightsGame, seat: int, cards: str) -> None:
    """Put ``cards`` (taken from the draw pile) into play in front of ``seat``."""
    s = game.state
    for c in CS.parse_many(cards):
        s.stock.remove(c)  # (the first copy from the bottom: never a stacked card)
        s.zones[seat].append(c)
    assert all_cards(game) == Counter(game.full_deck())
    game._settle()  # the legal actions of the decision at hand, anew


def spare(n: int, *used: str) -> list[str]:
    """``n`` card texts that none of ``used`` (texts or strings of texts) name."""
    return cards_but(*used)[:n]


def consistent(game: CrazierEightsGame) -> None:
    assert conserved(game)


def hand(game: CrazierEightsGame, seat: int) -> str:
    return texts(sorted(game.state.hands[seat]))




def zone(game: CrazierEightsGame, seat: int) -> str:
    return texts(sorted(game.state.zones[seat]))


def known(game: CrazierEightsGame, seat: int) -> str:
    """The top cards of the draw pile ``seat`` has looked at or seen revealed, top first."""
    return texts(game.state.known[seat])








def legal(game: CrazierEightsGame) -> list[str]:
    return sorted(game.legal_texts())






# ---------------------------------------------------------------- purple (eye)
@covers("AP")
@pytest.mark.parametrize("choice", ["choose QB", "no"])
def test_oracles_eye_looks_at_two_and_may_put_one_on_the_bottom(choice):
    game = new_game(["2G 3G 4G", "5G 6G 7G"], "9B", "KB QB JB 10B")
    put_in_play(game, 1, "AP")
    step(game, "end")  # seat 1's turn begins with Oracle's Eye
    assert (game.current_player, known(game, 1), known(game, 0)) == (1, "QB JB", "")
    assert legal(game) == ["choose JB", "choose QB", "no"]
    step(game, choice)
    if choice == "no":
        assert "QB" in hand(game, 1).split() and stock_top(game, 1) == "JB"
    else:
        assert CS.text(game.state.stock[0]) == "QB"  # the bottom of the draw pile
        assert "JB" in hand(game, 1).split() and "QB" not in hand(game, 1).split()
    assert zone(game, 1) == "AP"
    consistent(game)


@covers("2P")
def test_whisper_of_doubt_an_opponent_draws_and_one_more_discard():
    game = new_game(["2P 8B 3G", "4G 5G 6G"], "9B", "10B JB QB")
    start = step(game, "play 2P")  # the only opponent is chosen by the engine
    assert sizes(game) == [3, 4] and "JB" in hand(game, 1).split()
    assert game.state.discards[0] == 2
    step(game, "discard 8B")
    assert legal(game) == ["colour B", "colour G", "colour O", "colour P"]
    step(game, "colour B", "discard 10B")
    assert discard_pile(game).split()[-2:] == ["8B", "10B"]
    assert ("extra", 0, "2P", 1) in events(game, start)
    assert game.current_player == 1  # (nothing left to do: the turn ended)
    assert sizes(game) == [1, 5]  # seat 1 drew QB for its turn


@covers("3P")
def test_scrying_pool_puts_a_revealed_asset_into_play():
    game = new_game(["3P 2G 3G", "4G 5G 6G", "7G 9G 10G"], "9B", "10B KO JB")
    start = step(game, "play 3P")
    assert zone(game, 0) == "KO"
    assert ("reveal", 0, "KO", 0) in events(game, start)
    assert sizes(game) == [3, 3, 3] and stock_top(game, 1) == "JB"
    consistent(game)


@covers("3P")
def test_scrying_pool_a_revealed_event_goes_to_an_opponent_of_your_choice():
    game = new_game(["3P 2G 3G", "4G 5G 6G", "7G 9G 10G"], "9B", "10B 2O JB")
    step(game, "play 3P")
    assert [known(game, q) for q in range(3)] == ["2O"] * 3  # revealed to everyone
    assert legal(game) == ["target 1", "target 2"]
    step(game, "target 2")
    assert "2O" in hand(game, 2).split() and sizes(game) == [3, 3, 4]
    assert zone(game, 0) == ""


@covers("3P", "AB")
@pytest.mark.parametrize("played", ["3P", "AB"])
def test_nothing_revealed_leaves_nothing_to_draw(played):
    """Scrying Pool and Moonwell with no card to reveal (an empty draw pile, the discard
    pile's one card) reveal nothing, so "Otherwise, ... draws it" has no card to draw: the
    game goes on."""
    game = new_game([f"{played} 2G 3G", "4B 5G 6G"], "9B", "10B")
    s = game.state
    while s.stock:  # every card of the draw pile into seat 1's hand
        s.hands[1].append(s.stock.pop())
    game._settle()
    before = sizes(game)
    start = step(game, f"play {played}")
    assert not game.game_over, events(game, start)
    assert "impossible" not in [e[0] for e in events(game, start)]
    assert sizes(game) == [before[0] - 1, before[1]] and zone(game, 0) == ""
    consistent(game)


@covers("4P")
def test_shadow_pact_each_player_draws_and_two_more_discards():
    game = new_game(["4P 2G 3G", "4G 5G 6G", "7G 9G 10G"], "9B", "10B JB QB KB")
    step(game, "play 4P")
    assert ["JB" in hand(game, 0).split(), "QB" in hand(game, 1).split(),
            "KB" in hand(game, 2).split()] == [True] * 3
    assert sizes(game) == [4, 4, 4]
    assert game.state.discards[0] == 3


@covers("5P")
def test_death_destroys_a_card_in_play_and_needs_one():
    game = new_game(["5P 2G 3G", "4G 6G 7G"], "9B", "10B")
    assert "play 5P" not in legal(game)  # clarification 6: no card in play to choose
    put_in_play(game, 1, "KO")
    put_in_play(game, 0, "QO")
    assert "play 5P" in legal(game)
    step(game, "play 5P")
    assert legal(game) == ["choose KO", "choose QO"]
    start = step(game, "choose KO")
    assert (zone(game, 0), zone(game, 1)) == ("QO", "")
    assert discard_pile(game) == "5P KO 9B"  # destroyed, then Death itself, to the bottom
    assert ("destroy", 0, "KO", 1) in events(game, start)


@covers("6P")
@pytest.mark.parametrize("castle", [False, True])
def test_curse_of_ages_each_opponent_draws_at_the_beginning_of_their_turn(castle):
    game = new_game(["6P 2G 3G", "4G 5G 7G"], "9B", "10B JB QB")
    if castle:
        put_in_play(game, 1, "KO")
    start = step(game, "play 6P", "end")
    assert zone(game, 0) == "6P" and game.current_player == 1
    if castle:  # Castle: one fewer than the one the opponent causes
        assert hand(game, 1) == "4G 5G 7G JB"
        assert ("fewer", 1, "", 1) in events(game, start)
    else:  # the Curse's card, then the draw phase's
        assert hand(game, 1) == "4G 5G 7G JB QB"


@covers("7P")
@pytest.mark.parametrize("size", [12, 11])
def test_doom_an_opponent_with_twelve_or_more_cards_loses(size):
    mine = ["7P"] + spare(size - 1, "7P 9B 10B")
    theirs = spare(size, "9B 10B", *mine)
    game = new_game([" ".join(mine), " ".join(theirs)], "9B", "10B")
    start = step(game, "play 7P")
    if size == 12:
        assert game.game_over and game.winners == (0,)
        assert (game.state.out, game.state.lost_with[1]) == ([0, 1], 12)
        assert game.state.hands[1] == [] and ("loses", 1, "", 12) in events(game, start)
    else:
        assert not game.game_over and game.state.out == [0, 0] and sizes(game)[1] == 11
    consistent(game)


@covers("8P")
def test_hex_an_opponent_of_your_choice_draws_two():
    game = new_game(["8P 2G 3G", "4G 5G 6G", "7G 9G 10G"], "9B", "10B JB QB")
    step(game, "play 8P")
    assert legal(game) == ["target 1", "target 2"]
    step(game, "target 2")
    assert sizes(game) == [3, 3, 5] and hand(game, 2) == "7G 9G 10G JB QB"


@covers("9P")
def test_malevolent_minion_an_opponent_draws_at_the_end_of_your_turn():
    game = new_game(["9P 2G 3G", "4G 5G 6G", "7G 9G 10G"], "9B", "10B JB QB")
    step(game, "play 9P", "end")
    assert game.current_player == 0 and legal(game) == ["target 1", "target 2"]
    step(game, "target 2")
    assert hand(game, 2) == "7G 9G 10G JB"
    assert game.current_player == 1 and hand(game, 1) == "4G 5G 6G QB"


@covers("10P")
def test_devious_dragon_alone_in_play_destroys_itself():
    game = new_game(["2G 3G 4G", "5G 6G 7G"], "9B", "10B JB")
    put_in_play(game, 1, "10P")
    start = step(game, "end")
    assert zone(game, 1) == "" and discard_pile(game).split()[0] == "10P"
    assert ("destroy", 1, "10P", 1) in events(game, start)
    assert game.current_player == 1


@covers("10P")
def test_devious_dragon_destroys_a_card_in_play_of_its_controllers_choice():
    game = new_game(["2G 3G 4G", "5G 6G 7G"], "9B", "10B JB")
    put_in_play(game, 1, "10P")
    put_in_play(game, 0, "KO")
    step(game, "end")
    assert game.current_player == 1 and legal(game) == ["choose 10P", "choose KO"]
    step(game, "choose KO")
    assert (zone(game, 0), zone(game, 1)) == ("", "10P")


@covers("JP")
def test_restoration_takes_the_only_card_of_the_discard_pile_into_play():
    game = new_game(["JP 2G 3G", "4G 5G 6G"], "KO", "10B")
    start = step(game, "play JP")
    assert zone(game, 0) == "KO"
    assert discard_pile(game) == "JP"  # clarification 8: Restoration is then the only card
    assert ("restore", 0, "KO", -1) in events(game, start)
    assert game.state.named == -1


@covers("JP")
def test_restoration_chooses_among_the_assets_of_the_discard_pile():
    game = new_game(["JP 2G 3G", "4G 5G 6G"], "2B", "10B")
    assert "play JP" not in legal(game)  # no asset in the discard pile
    s = game.state
    for c in CS.parse_many("KO QO"):  # two assets under the top card
        s.stock.remove(c)
        s.piles[0].insert(0, c)
        s.pile_counts[0][c] += 1
    game._settle()
    step(game, "play JP")
    assert legal(game) == ["choose KO", "choose QO"]
    step(game, "choose QO")
    assert zone(game, 0) == "QO" and discard_pile(game) == "JP KO 2B"
    consistent(game)


@covers("QP")
def test_queen_guinevere_one_more_discard_at_the_beginning_of_your_turn():
    game = new_game(["2G 3G 4G", "5B 6B 7G"], "9B", "10B JB")
    put_in_play(game, 1, "QP")
    step(game, "end")
    assert game.current_player == 1 and game.state.discards == [0, 2]
    step(game, "discard 5B", "discard JB")
    assert discard_pile(game).split()[-2:] == ["5B", "JB"]


@covers("KP")
def test_dark_lord_each_opponent_draws_at_the_beginning_of_your_turn():
    game = new_game(["2G 3G 4G", "5G 6G 7G", "9G 10G JG"], "9B", "10B JB QB KB")
    put_in_play(game, 1, "KP")
    step(game, "end")
    assert game.current_player == 1
    assert hand(game, 2) == "9G 10G JG JB"  # in turn order from seat 1: seat 2, then seat 0
    assert hand(game, 0) == "2G 3G 4G 10B QB"
    assert hand(game, 1) == "5G 6G 7G KB"


# ---------------------------------------------------------------- green (ankh)
@covers("AG")
def test_ankh_of_renewal_is_destroyed_instead_of_its_controller_losing():
    mine = ["7P"] + spare(11, "7P 9B 10B AG")
    theirs = spare(12, "9B 10B AG", *mine)
    game = new_game([" ".join(mine), " ".join(theirs)], "9B", "10B")
    put_in_play(game, 1, "AG")
    start = step(game, "play 7P")
    assert not game.game_over and game.state.out == [0, 0]
    assert zone(game, 1) == "" and "AG" in discard_pile(game).split()
    assert ("saved", 1, "AG", -1) in events(game, start)
    assert sizes(game)[1] == 12


@covers("2G")
@pytest.mark.parametrize("found, discards", [("QG", 3), ("QB", 1)])
def test_seedling_two_more_discards_when_the_revealed_card_is_green(found, discards):
    game = new_game(["2G 3G 4G", "5G 6G 7G"], "9B", f"10B {found}")
    start = step(game, "play 2G")
    assert known(game, 0) == known(game, 1) == found  # revealed: everyone saw it
    assert stock_top(game, 1) == found
    assert game.state.discards[0] == discards
    assert [e for e in events(game, start) if e[0] == "reveal"] == [("reveal", 0, found, 0)]


@covers("3G")
@pytest.mark.parametrize("colour, discards", [("O", 2), ("P", 2), ("G", 1)])
def test_wood_elf_names_a_colour_and_reveals(colour, discards):
    game = new_game(["2G 3B 4G", "5G 6G 7G"], "9B", "10B KP JB")  # KP: purple and orange
    put_in_play(game, 1, "3G")
    step(game, "end")
    assert game.current_player == 1
    assert legal(game) == ["colour B", "colour G", "colour O", "colour P"]
    start = step(game, f"colour {colour}")
    assert ("colour", 1, "", "PGBO".index(colour)) in events(game, start)
    assert ("reveal", 1, "KP", 0) in events(game, start)
    assert game.state.discards[1] == discards
    assert "KP" in hand(game, 1).split()  # then seat 1 draws it


@covers("4G")
def test_overgrowth_with_nothing_in_play_just_gives_a_discard():
    game = new_game(["4G 2G 3G", "5G 6G 7G"], "9B", "10B")
    step(game, "play 4G")
    assert game.state.discards[0] == 2 and game.current_player == 0
    assert "yes" not in legal(game)


@covers("4G")
@pytest.mark.parametrize("answer", ["yes", "no"])
def test_overgrowth_may_destroy_a_card_in_play(answer):
    game = new_game(["4G 2G 3G", "5G 6G 7G"], "9B", "10B")
    put_in_play(game, 1, "KO")
    step(game, "play 4G")
    assert legal(game) == ["no", "yes"]
    step(game, answer)  # (the only card to choose is chosen by the engine)
    assert zone(game, 1) == ("" if answer == "yes" else "KO")
    assert game.state.discards[0] == 2


@covers("5G")
def test_tempest_each_opponent_draws():
    game = new_game(["5G 2G 3G", "4G 6G 7G", "9G 10G JG"], "9B", "10B JB QB")
    step(game, "play 5G")
    assert sizes(game) == [3, 4, 4]
    assert "JB" in hand(game, 1).split() and "QB" in hand(game, 2).split()


@covers("6G")
@pytest.mark.parametrize("extra, draws", [("", 1), ("9G", 0)])
def test_druid_circle_each_opponent_draws_if_you_have_three_or_fewer(extra, draws):
    game = new_game([f"6G 2G 3G {extra}", f"4G 5G 7G {'JG' if extra else ''}"], "9B",
                    "10B JB QB")
    size = len(game.state.hands[1])
    step(game, "play 6G", "end")  # seat 0 holds 3 cards (or 4) at the end of its turn
    assert zone(game, 0) == "6G"
    assert len(game.state.hands[1]) == size + draws + 1  # (and its own draw)


@covers("7G")
def test_potion_of_vitality_two_more_discards():
    game = new_game(["7G 8B 2B 5G", "4G 6G 9G 10G"], "9B", "3B")
    step(game, "play 7G")
    assert game.state.discards[0] == 3
    step(game, "discard 2B", "discard 3B", "discard 8B", "colour G")
    assert discard_pile(game).split()[-3:] == ["2B", "3B", "8B"]
    assert game.state.named == 1 and game.current_player == 1


@covers("8G")
def test_wild_growth_a_player_of_your_choice_draws_yourself_included():
    game = new_game(["8G 2G 3G", "4G 6G 7G"], "9B", "10B JB")
    step(game, "play 8G")
    assert legal(game) == ["target 0", "target 1"]
    step(game, "target 0")
    assert hand(game, 0) == "2G 3G 10B JB" and sizes(game)[1] == 3
    assert game.state.discards[0] == 2


@covers("9G")
def test_elven_archer_destroys_only_an_opponents_card():
    game = new_game(["9G 2G 3G", "4G 6G 7G"], "9B", "10B")
    put_in_play(game, 0, "QO")
    assert "play 9G" not in legal(game)  # only a card of our own in play
    put_in_play(game, 1, "KO")
    step(game, "play 9G")  # KO is the only card to choose
    assert (zone(game, 0), zone(game, 1)) == ("QO", "")
    assert discard_pile(game) == "9G KO 9B"


@covers("10G")
def test_trade_looks_at_a_hand_takes_a_card_and_gives_one():
    game = new_game(["10G 2G 3G", "4B 5B 6B"], "9B", "10B")
    start = step(game, "play 10G")  # the only opponent
    assert ("looks_at_hand", 0, "", 1) in events(game, start)
    assert legal(game) == ["choose 4B", "choose 5B", "choose 6B"]
    step(game, "choose 5B")
    assert legal(game) == ["choose 10B", "choose 2G", "choose 3G"]  # not 5B back
    assert game.current_player == 0  # the Trade's player chooses both cards
    step(game, "choose 2G")
    assert (hand(game, 0), hand(game, 1)) == ("3G 5B 10B", "2G 4B 6B")


@covers("10G")
def test_trade_as_the_last_card_wins_before_its_effect():
    game = new_game(["10G", "4B"], "9B", "3B")
    step(game, "discard 3B", "play 10G")
    assert game.game_over and game.winners == (0,)
    assert hand(game, 1) == "4B"


@covers("JG")
@pytest.mark.parametrize("theirs", ["KO", ""])
def test_treant_destroys_an_opponents_card_at_the_beginning_of_your_turn(theirs):
    game = new_game(["2G 3G 4G", "5G 6G 7G"], "9B", "10B JB")
    put_in_play(game, 1, "JG")
    if theirs:
        put_in_play(game, 0, theirs)
    step(game, "end")
    assert (zone(game, 0), zone(game, 1)) == ("", "JG")  # with none, nothing happens
    assert ("KO" in discard_pile(game).split()) == bool(theirs)


@covers("QG")
@pytest.mark.parametrize("choice", ["choose QB", "no"])
def test_elven_princess_looks_at_the_top_card_and_may_put_it_on_the_bottom(choice):
    game = new_game(["2G 3G 4G", "5G 6G 7G"], "9B", "10B QB JB")
    put_in_play(game, 1, "QG")
    step(game, "end")
    assert known(game, 1) == "QB" and known(game, 0) == ""
    assert legal(game) == ["choose QB", "no"]
    step(game, choice)
    drawn = "QB" if choice == "no" else "JB"
    assert hand(game, 1) == f"5G 6G 7G {drawn}"
    if choice != "no":
        assert CS.text(game.state.stock[0]) == "QB"


@covers("KG")
def test_green_knight_one_more_discard_at_the_beginning_of_your_turn():
    game = new_game(["2G 3G 4G", "5G 6G 7G"], "9B", "10B JB")
    put_in_play(game, 1, "KG")
    step(game, "end")
    assert game.current_player == 1 and game.state.discards[1] == 2


# ---------------------------------------------------------------- blue (moon)
@covers("AB")
@pytest.mark.parametrize("found, asset", [("KO", True), ("2O", False)])
def test_moonwell_a_revealed_asset_into_play_else_you_draw_it(found, asset):
    game = new_game(["AB 2G 3G", "4G 5G 6G"], "9B", f"10B {found}")
    start = step(game, "play AB")
    assert ("reveal", 0, found, 0) in events(game, start)
    if asset:
        assert zone(game, 0) == found and sizes(game) == [3, 3]
    else:
        assert zone(game, 0) == "" and found in hand(game, 0).split() and sizes(game) == [4, 3]


@covers("2B")
def test_riptide_the_chosen_opponent_draws_two():
    game = new_game(["2B 2G 3G", "4G 5G 6G", "7G 9G 10G"], "9B", "10B JB QB")
    step(game, "play 2B")
    assert legal(game) == ["target 1", "target 2"]
    step(game, "target 1")
    assert sizes(game) == [3, 5, 3] and hand(game, 1) == "4G 5G 6G JB QB"


@covers("3B", "8B")
@pytest.mark.parametrize("played", ["3B", "8B"])
def test_mirror_of_fate_and_spell_tome_look_at_three_and_may_bottom_one(played):
    game = new_game([f"{played} 2G 3G", "4G 5G 6G"], "9G", "10B QB JB KB")
    step(game, f"play {played}")
    assert known(game, 0) == "QB JB KB" and known(game, 1) == ""  # looked at: ours only
    assert legal(game) == ["choose JB", "choose KB", "choose QB", "no"]
    step(game, "choose JB")
    assert CS.text(game.state.stock[0]) == "JB" and stock_top(game, 2) == "QB KB"
    assert known(game, 0) == "QB KB"
    assert game.state.discards[0] == 2


@covers("4B", "KO")
@pytest.mark.parametrize("guards, drawn", [("4B", 1), ("KO", 1), ("4B KO", 0)])
def test_moat_and_castle_an_opponent_causes_one_fewer_card_each(guards, drawn):
    game = new_game(["8P 2G 3G", "4G 5G 6G"], "9B", "10B JB QB KB")
    put_in_play(game, 1, guards)
    start = step(game, "play 8P")  # Hex: two cards
    assert sizes(game) == [3, 3 + drawn]
    assert ("fewer", 1, "", 2 - drawn) in events(game, start)
    step(game, "end")
    assert sizes(game)[1] == 4 + drawn  # the draw phase is caused by no one


@covers("4B", "KO")
def test_moat_does_not_reduce_a_draw_its_controller_causes():
    game = new_game(["4P 2G 3G", "4G 5G 6G"], "9B", "10B JB QB")
    put_in_play(game, 0, "4B")
    put_in_play(game, 1, "KO")
    start = step(game, "play 4P")  # Shadow Pact: each player draws a card
    assert sizes(game) == [4, 3]  # seat 0's own card: no reduction; Castle stops seat 1's
    assert [e[1] for e in events(game, start, "fewer")] == [1]


@covers("5B")
@pytest.mark.parametrize("colour, drawn", [("G", 2), ("B", 0)])
def test_lunar_eclipse_each_opponent_draws_two_if_the_colour_named_is_revealed(colour,
                                                                               drawn):
    game = new_game(["5B 2G 3G", "4G 6G 7G", "9G 10G JG"], "9B", "10B QG JB QB KB AO")
    step(game, "play 5B")
    assert legal(game) == ["colour B", "colour G", "colour O", "colour P"]
    start = step(game, f"colour {colour}")
    assert ("colour", 0, "", "PGBO".index(colour)) in events(game, start)
    assert ("reveal", 0, "QG", 0) in events(game, start)
    assert sizes(game) == [3, 3 + drawn, 3 + drawn]


@covers("6B")
@pytest.mark.parametrize("size", [12, 11])
def test_kraken_an_opponent_with_twelve_or_more_loses_at_the_end_of_your_turn(size):
    mine = ["6B"] + spare(size - 1, "6B 9B 10B")
    theirs = spare(size, "9B 10B", *mine)
    game = new_game([" ".join(mine), " ".join(theirs)], "9B", "10B")
    start = step(game, "play 6B")
    assert not game.game_over
    step(game, "end")
    assert ("chosen", 0, "", 1) in events(game, start)
    if size == 12:
        assert game.game_over and game.winners == (0,) and game.state.lost_with[1] == 12
    else:
        assert not game.game_over and game.current_player == 1
    consistent(game)


@covers("7B")
@pytest.mark.parametrize("answer", ["yes", "no"])
def test_night_watch_may_look_at_the_top_card_as_each_opponents_turn_begins(answer):
    game = new_game(["2G 3G 4G", "5G 6G 7G"], "9B", "10B JB QB")
    put_in_play(game, 0, "7B")
    step(game, "end")
    assert game.current_player == 0 and legal(game) == ["no", "yes"]
    start = step(game, answer)
    looked = [e for e in events(game, start) if e[0] == "look"]
    assert looked == ([("look", 0, "JB", 0)] if answer == "yes" else [])
    assert hand(game, 1) == "5G 6G 7G JB"  # (then seat 1 draws it)


@covers("9B")
def test_storm_caller_twice_a_player_of_your_choice_draws():
    game = new_game(["9B 2G 3G", "4G 5G 6G"], "9G", "10B JB QB")
    step(game, "play 9B")
    assert legal(game) == ["target 0", "target 1"]
    step(game, "target 1")
    assert legal(game) == ["target 0", "target 1"]
    step(game, "target 0")
    assert hand(game, 1) == "4G 5G 6G JB" and hand(game, 0) == "2G 3G 10B QB"


@covers("10B")
@pytest.mark.parametrize("found, hands", [
    ("2O", ["2G 3G 4G JB 2O", "5G 6G 7G QB"]),  # an event: to the opponent
    ("KO", ["2G 3G 4G JB", "5G 6G 7G KO"]),     # an asset: drawn as usual
])
def test_moon_priestess_a_revealed_event_goes_to_an_opponent(found, hands):
    game = new_game(["2G 3G 4G", "5G 6G 7G"], "9B", f"JB {found} QB")
    put_in_play(game, 1, "10B")
    start = step(game, "end")
    assert ("reveal", 1, found, 0) in events(game, start)
    assert [hand(game, 0), hand(game, 1)] == hands


@covers("JB")
def test_rainbow_serpent_destroys_your_own_card_then_each_opponent_draws():
    game = new_game(["JB 2G 3G", "4G 5G 6G", "7G 9G 10G"], "9B", "10B JG QB")
    put_in_play(game, 1, "KO")
    assert "play JB" not in legal(game)  # no card of our own to destroy
    put_in_play(game, 0, "QO")
    step(game, "play JB")
    assert (zone(game, 0), zone(game, 1)) == ("", "KO")
    assert "QO" in discard_pile(game).split()
    assert sizes(game) == [3, 3, 4]  # Castle stops seat 1's card


@covers("QB")
@pytest.mark.parametrize("answer", ["yes", "no"])
def test_sorceress_may_destroy_an_opponents_card_at_the_end_of_your_turn(answer):
    game = new_game(["QB 2G 3G", "4G 5G 6G"], "9B", "10B JB")
    put_in_play(game, 1, "KO")
    step(game, "play QB", "end")
    assert game.current_player == 0 and legal(game) == ["no", "yes"]
    step(game, answer)
    assert zone(game, 1) == ("" if answer == "yes" else "KO") and zone(game, 0) == "QB"
    assert game.current_player == 1


@covers("QB")
def test_sorceress_asks_nothing_when_no_opponent_has_a_card_in_play():
    game = new_game(["QB 2G 3G", "4G 5G 6G"], "9B", "10B JB")
    step(game, "play QB", "end")
    assert game.current_player == 1 and zone(game, 0) == "QB"


@covers("KB")
def test_king_arthur_two_more_discards_at_the_beginning_of_your_turn():
    game = new_game(["2G 3G 4G", "5B 6B 7B"], "9B", "10B JB")
    put_in_play(game, 1, "KB")
    step(game, "end")
    assert game.state.discards[1] == 3
    step(game, "discard 5B", "discard 6B", "discard 7B")
    assert discard_pile(game).split()[-3:] == ["5B", "6B", "7B"]


# ---------------------------------------------------------------- orange (sun)
@covers("AO")
def test_sunburst_destroys_a_card_and_gives_a_discard():
    game = new_game(["AO 2G 3G", "4G 5G 6G"], "9B", "10B")
    assert "play AO" not in legal(game)
    put_in_play(game, 1, "KO")
    step(game, "play AO")
    assert zone(game, 1) == "" and game.state.discards[0] == 2
    assert discard_pile(game) == "AO KO 9B"


@covers("2O")
def test_spark_an_opponent_of_your_choice_draws_one():
    game = new_game(["2O 2G 3G", "4G 5G 6G", "7G 9G 10G"], "9B", "10B JB")
    step(game, "play 2O", "target 2")
    assert sizes(game) == [3, 3, 4] and "JB" in hand(game, 2).split()


@covers("3O")
def test_angel_of_hope_a_player_of_your_choice_draws():
    game = new_game(["2G 3G 4G", "5G 6G 7G"], "9B", "10B JB QB")
    put_in_play(game, 1, "3O")
    step(game, "end")
    assert game.current_player == 1 and legal(game) == ["target 0", "target 1"]
    step(game, "target 0")
    assert hand(game, 0) == "2G 3G 4G 10B JB" and hand(game, 1) == "5G 6G 7G QB"


@covers("3O", "10P")
def test_angel_of_hope_still_takes_effect_after_devious_dragon_destroys_it():
    """Chapter 7's example: both fire; the Dragon first destroys the Angel, which still draws."""
    game = new_game(["2G 3G 4G", "5G 6G 7G"], "9B", "10B JB QB")
    put_in_play(game, 1, "10P 3O")
    step(game, "end")
    assert legal(game) == ["order 10P", "order 3O"]
    step(game, "order 10P")
    assert legal(game) == ["choose 10P", "choose 3O"]
    step(game, "choose 3O")
    assert zone(game, 1) == "10P" and legal(game) == ["target 0", "target 1"]
    step(game, "target 0")
    assert hand(game, 0) == "2G 3G 4G 10B JB"


@covers("4O")
def test_ferocity_one_more_discard():
    game = new_game(["4O 2B 3B", "4G 5G 6G"], "9B", "10G")
    step(game, "play 4O")
    assert game.state.discards[0] == 2
    step(game, "discard 2B", "discard 3B")
    assert discard_pile(game) == "4O 9B 2B 3B" and game.current_player == 1


@covers("5O")
def test_wildfire_destroys_two_cards():
    game = new_game(["5O 2G 3G", "4G 5G 6G"], "9B", "10B")
    put_in_play(game, 1, "KO")
    put_in_play(game, 0, "QO")
    step(game, "play 5O")
    assert legal(game) == ["choose KO", "choose QO"]
    step(game, "choose KO")  # then QO is the only card left
    assert (zone(game, 0), zone(game, 1)) == ("", "")
    assert discard_pile(game) == "5O QO KO 9B"


@covers("5O")
def test_wildfire_with_one_card_in_play_destroys_it():
    game = new_game(["5O 2G 3G", "4G 5G 6G"], "9B", "10B")
    put_in_play(game, 1, "KO")
    step(game, "play 5O")
    assert zone(game, 1) == "" and game.current_player == 0


@covers("6O")
@pytest.mark.parametrize("size, discards", [(10, 3), (9, 1)])
def test_hourglass_two_more_discards_with_ten_or_more_cards(size, discards):
    mine = spare(size, "6O 9B 10B JB")
    theirs = spare(size, "6O 9B 10B JB", *mine)
    game = new_game([" ".join(mine), " ".join(theirs)], "9B", "10B JB")
    put_in_play(game, 1, "6O")
    step(game, "end")
    assert game.current_player == 1 and game.state.discards[1] == discards


@covers("7O")
def test_forbidden_knowledge_looks_and_gives_two_discards():
    game = new_game(["7O 2G 3G", "4G 5G 6G"], "9B", "10B QB JB KB")
    step(game, "play 7O")
    assert known(game, 0) == "QB JB KB"
    step(game, "choose KB")
    assert known(game, 0) == "QB JB" and CS.text(game.state.stock[0]) == "KB"
    assert game.state.discards[0] == 3 and game.state.out == [0, 0]


@covers("7O", "AG")
@pytest.mark.parametrize("ankh", [False, True])
def test_forbidden_knowledge_you_lose_with_ten_or_more_cards(ankh):
    mine = ["7O"] + spare(9, "7O 9B 10B QB JB KB AG")
    theirs = spare(10, "9B 10B QB JB KB AG", *mine)
    game = new_game([" ".join(mine), " ".join(theirs)], "9B", "10B QB JB KB")
    if ankh:
        put_in_play(game, 0, "AG")
    step(game, "play 7O", "no")  # 10 cards left in hand
    if ankh:
        assert not game.game_over and zone(game, 0) == "" and game.state.out == [0, 0]
    else:
        assert game.game_over and game.winners == (1,)
        assert game.state.out == [1, 0] and game.state.lost_with[0] == 10
    consistent(game)


@covers("8O")
def test_solar_flare_each_opponent_draws():
    game = new_game(["8O 2G 3G", "4G 5G 6G", "7G 9G 10G"], "9B", "10B JB QB")
    step(game, "play 8O")
    assert sizes(game) == [3, 4, 4]


@covers("9O")
@pytest.mark.parametrize("answer", ["yes", "no"])
def test_lion_of_the_sun_may_destroy_a_card_in_play(answer):
    game = new_game(["2G 3G 4G", "5G 6G 7G"], "9B", "10B JB")
    put_in_play(game, 1, "9O")
    put_in_play(game, 0, "KO")
    step(game, "end")
    assert legal(game) == ["no", "yes"]
    step(game, answer)
    if answer == "yes":
        assert legal(game) == ["choose 9O", "choose KO"]
        step(game, "choose KO")
    assert zone(game, 0) == ("" if answer == "yes" else "KO") and zone(game, 1) == "9O"


@covers("10O")
def test_sun_king_each_opponent_draws_at_the_end_of_your_turn():
    game = new_game(["10O 2G 3G", "4G 5G 6G", "7G 9G 10G"], "9B", "10B JB QB KB")
    step(game, "play 10O", "end")
    assert hand(game, 1) == "4G 5G 6G JB KB" and hand(game, 2) == "7G 9G 10G QB"


@covers("JO")
def test_bard_each_player_draws_and_two_more_discards():
    game = new_game(["JO 2G 3G", "4G 5G 6G"], "9B", "10B JB QB")
    step(game, "play JO")
    assert hand(game, 0) == "2G 3G 10B JB" and hand(game, 1) == "4G 5G 6G QB"
    assert game.state.discards[0] == 3


@covers("QO")
@pytest.mark.parametrize("found, in_play, hand_after", [
    ("KB", "KB QO", "5G 6G 7G JB"),  # an asset: into play
    ("2O", "QO", "5G 6G 7G 2O"),     # an event: drawn as usual
])
def test_sun_oracle_a_revealed_asset_goes_into_play(found, in_play, hand_after):
    game = new_game(["2G 3G 4G", "5G 6G 7G"], "9B", f"10B {found} JB")
    put_in_play(game, 1, "QO")
    start = step(game, "end")
    assert ("reveal", 1, found, 0) in events(game, start)
    assert (zone(game, 1), hand(game, 1)) == (in_play, hand_after)


# ---------------------------------------------------------------- multicoloured cards
@covers("KP", "KG", "9B", "JB", "10O")
@pytest.mark.parametrize("top, fits", [
    ("2P", "KP 10O JB"), ("2O", "KP 9B 10O JB"), ("2G", "KG JB"), ("2B", "KG 9B JB"),
])
def test_a_multicoloured_card_is_discarded_on_any_of_its_colours(top, fits):
    game = new_game(["KP KG 9B JB 10O", "3G 4G 5G 6G 7G"], top, "AO")
    discards = {t.split()[1] for t in game.legal_texts() if t.startswith("discard ")}
    assert discards == set(fits.split()) | ({"AO"} if top == "2O" else set())


@covers("KP")
def test_a_multicoloured_top_card_takes_any_of_its_colours():
    game = new_game(["KP 2G 3G 5G", "4O 6G 6P 7B"], "2P", "AG 3B")
    step(game, "discard KP", "end")
    assert game.current_player == 1
    discards = {t.split()[1] for t in game.legal_texts() if t.startswith("discard ")}
    assert discards == {"4O", "6P"}


def test_every_card_has_a_scenario():
    assert set(TEXTS) == COVERED, sorted(set(TEXTS) - COVERED)


# ---------------------------------------------------------------- the card file
def edit(old: str, new: str, text: str = BUILT_IN_TEXT) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


def change(name: str, old: str, new: str) -> str:
    """The built-in file with ``old`` replaced by ``new`` in the card named ``name``."""
    block = record(name)
    assert block.count(old) == 1, old
    return edit(block, block.replace(old, new))


def record(name: str) -> str:
    """The [[card]] block of the card named ``name`` in the built-in file."""
    start = BUILT_IN_TEXT.index(f'name = "{name}"')
    begin = BUILT_IN_TEXT.rindex("[[card]]", 0, start)
    end = BUILT_IN_TEXT.find("[[card]]", start)
    return BUILT_IN_TEXT[begin:end if end >= 0 else len(BUILT_IN_TEXT)]


def test_the_built_in_file_loads_52_cards():
    cards = parse(BUILT_IN_TEXT)
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    assert sorted(cards.cardset.text(c) for c in range(52)) == sorted(
        rank + colour for rank in ranks for colour in "PGBO")  # each rank in each colour once
    assert cards.cardset.card_name(card("KO")) == "Castle"
    assert cards.ability_text(card("5P")) == ("Death (event): Destroy a card that is in play "
                                              "on the table of your choice.")


#: (how the built-in file is broken, the error that must name the card, field and what is allowed)
BROKEN_FILES = {
    "missing a card": (
        lambda: edit(record("Potion of Vitality"), ""),
        r"the set lacks 7G; a card set has one card of each rank A-K in each of the four "
        r"colours"),
    "a rank and colour twice": (
        lambda: change("Potion of Vitality", 'rank = "7"', 'rank = "6"'),
        r"card 20 \(Potion of Vitality\) and card 19 \(Druid Circle\) are both the six of "
        r"green; every rank and first colour comes once"),
    "an unknown step": (
        lambda: change("Potion of Vitality", 'do = "discard_extra"', 'do = "explode"'),
        r"card 20 \(Potion of Vitality\), field 'play\[0\]': do = 'explode' is not a step; "
        r"steps are draw, discard_extra, .*, repeat, if"),
    "a bad who": (
        lambda: change("Tempest", 'who = "each_opponent"', 'who = "everyone"'),
        r"card 18 \(Tempest\), field 'play\[0\]': draw: who = 'everyone'; allowed: you, "
        r"chosen, each_opponent, each_player, turn_players"),
    "a bad colour": (
        lambda: edit('colours = ["blue", "purple", "green", "orange"]',
                     'colours = ["blue", "pink"]'),
        r"card 37 \(Rainbow Serpent\), field 'colours': 'pink' is not a colour; the colours "
        r"are purple \(eye\), green \(ankh\), blue \(moon\), orange \(sun\)"),
    "an event with a begin_turn ability": (
        lambda: change("Ferocity", 'type = "event"\n',
                       'type = "event"\nbegin_turn = [{ do = "discard_extra", count = 1 }]\n'),
        r"card 43 \(Ferocity\), field 'begin_turn': an event has no 'begin_turn' abilities; "
        r"an event has play"),
    "an unknown field": (
        lambda: change("Castle", 'type = "asset"\n', 'type = "asset"\ncost = 3\n'),
        r"card 52 \(Castle\), field 'cost': unknown field; a card has rank, colours, name, "
        r"type, text, substitute, play, begin_turn, end_turn, opponent_begin_turn"),
}


@pytest.mark.parametrize("broken", BROKEN_FILES)
def test_a_broken_card_file_is_refused_naming_card_field_and_what_is_allowed(broken):
    make_text, message = BROKEN_FILES[broken]
    with pytest.raises(CardFileError, match=message):
        parse(make_text())


def test_a_card_file_that_is_not_toml():
    text = edit('name = "Castle"', 'name = "Castle')  # an unterminated string
    line = 1 + text[:text.index('name = "Castle')].count("\n")
    with pytest.raises(CardFileError, match=rf"my_cards\.toml: not valid TOML \(.*at line "
                                            rf"{line}, column 15\)"):
        parse(text, "my_cards.toml")


def user_file(tmp_path: Path) -> Path:
    """The built-in file with Ferocity renamed Berserker Rage and three extra discards."""
    old = record("Ferocity")
    new = (old.replace('name = "Ferocity"', 'name = "Berserker Rage"')
           .replace('text = "You may discard an additional card this turn."',
                    'text = "You may discard three additional cards this turn."')
           .replace('play = [{ do = "discard_extra", count = 1 }]',
                    'play = [{ do = "discard_extra", count = 3 }]'))
    assert new.count("Berserker Rage") == 1 and "count = 3" in new
    path = tmp_path / "my_cards.toml"
    path.write_text(edit(old, new), encoding="utf-8")
    return path


def test_a_users_card_file_through_the_option(tmp_path):
    path = user_file(tmp_path)
    config = CrazierEightsConfig(num_players=2, hand_size=4, card_file=str(path))
    deck = G.stacked_deck(["4O 2B 3B 5B", "4G 5G 6G 7G"], "9B", "6B", config=config)
    game = G(config, deck=deck, first_player=0, seed=1)
    assert game.cardset.card_name(card("4O")) == "Berserker Rage"
    assert game.cardset.card_name(card("KO")) == "Castle"
    start = step(game, "play 4O")
    assert game.state.discards[0] == 4
    step(game, "discard 2B", "discard 3B", "discard 5B")
    said = [game.describe_event(e) for e in game.events[start:]]
    assert "player 0 plays Berserker Rage (4O) for its effect." in said
    assert "player 0 may discard 3 more cards this turn." in said
    made = eights.make_game("crazier_eights", card_file=str(path), seed=2)
    assert made.cardset.card_name(card("4O")) == "Berserker Rage"
    assert "three additional" in made.cards.ability_text(card("4O"))


def test_a_bad_card_file_through_the_option_names_card_file(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(change("Trade", 'do = "trade"', 'do = "swap"'), encoding="utf-8")
    with pytest.raises(ConfigError, match=r"crazier_eights: card_file: .*bad\.toml: card 23 "
                                          r"\(Trade\), field 'play\[0\]': do = 'swap' is not "
                                          r"a step"):
        eights.make_game("crazier_eights", card_file=str(path))
    with pytest.raises(ConfigError, match=r"card_file: .*cannot be read"):
        CrazierEightsConfig(card_file=str(tmp_path / "missing.toml"))


def test_a_config_reads_its_card_file_once_and_carries_the_card_set(tmp_path):
    """The path is read when the config is made and never again: the config (and so a
    game's record) holds the text and its SHA-256, and replays exactly after the file is
    edited or deleted."""
    path = user_file(tmp_path)
    config = CrazierEightsConfig(num_players=2, hand_size=4, card_file=str(path))
    assert config.card_file is None and config.card_set == path.read_text(encoding="utf-8")
    assert config.card_set_sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
    assert config.to_dict()["card_set"] == config.card_set
    game = G(config, seed=4)
    while not game.game_over and game.turn < 60:
        game.step(game.legal_actions()[game.turn % len(game.legal_actions())])
    record = eights.GameRecord.from_json(game.record().to_json())
    path.write_text(BUILT_IN_TEXT.replace("count = 1 }", "count = 2 }"), encoding="utf-8")
    assert eights.replay(record).state == game.state
    path.unlink()
    assert eights.replay(record).state == game.state
    assert config.replace(hand_size=5).card_set == config.card_set  # no file to read again


def test_a_record_naming_a_card_file_is_refused_without_opening_it(tmp_path):
    """A record is data: a card_file in it (a FIFO here, which a blocking open would wait
    on for ever) is refused, not opened."""
    fifo = tmp_path / "cards.fifo"
    os.mkfifo(fifo)
    record = eights.GameRecord("crazier_eights", {"num_players": 2, "card_file": str(fifo)},
                               seed=1, deck=None, first_player=None, actions=())
    with pytest.raises(ConfigError, match=r"^crazier_eights: the record names a file "
                                          r"\(card_file\), which is never opened from stored "
                                          r"or received data; give the content instead "
                                          r"\(card_set and card_set_sha256"):
        eights.replay(record)


@pytest.mark.parametrize(("options", "message"), [
    ({"card_set": BUILT_IN_TEXT, "card_set_sha256": "ab" * 32},
     r"card_set_sha256='abab.*' does not match card_set, whose SHA-256 is [0-9a-f]{64}; the "
     r"text was changed since the hash was taken"),
    ({"card_set_sha256": "ab" * 32}, r"card_set_sha256 is given without card_set"),
    ({"card_set": BUILT_IN_TEXT, "card_file": "my_cards.toml"},
     r"card_file and card_set are both given; give one"),
    ({"card_set": "[[card]]\nrank = 5"}, r"^crazier_eights: card_set: card 1 \(card 1\), "
                                          r"field 'name': missing"),
])
def test_a_card_set_that_does_not_fit_its_hash_or_file_is_refused(options, message):
    with pytest.raises(ConfigError, match=message):
        CrazierEightsConfig(**options)


def test_a_card_file_is_read_again_after_it_changes(tmp_path):
    path = user_file(tmp_path)
    first = crazier_cards.load(path)
    path.write_text(BUILT_IN_TEXT.replace("Castle", "Keep"), encoding="utf-8")
    os.utime(path, ns=(1, 1))
    again = crazier_cards.load(path)
    assert first.cardset.card_name(card("KO")) == "Castle"
    assert again.cardset.card_name(card("KO")) == "Keep"


# ---------------------------------------------------------------- the card file's limits
POTION_PLAY = 'play = [{ do = "discard_extra", count = 2 }]'


def nested_repeat(depth: int, count: int = 1) -> str:
    """Potion of Vitality's play as ``depth`` repeats inside one another, around one draw."""
    steps = '{ do = "draw", who = "you", count = 1 }'
    for _ in range(depth):
        steps = f'{{ do = "repeat", count = {count}, steps = [{steps}] }}'
    return change("Potion of Vitality", POTION_PLAY, f"play = [{steps}]")


def fifo(tmp_path: Path) -> str:
    path = tmp_path / "cards.fifo"
    os.mkfifo(path)
    return str(path)


def written(tmp_path: Path, data: bytes) -> str:
    path = tmp_path / "my_cards.toml"
    path.write_bytes(data)
    return str(path)


#: (a card_file that is no card file, the one-line error naming it): each was read until
#: memory ran out, blocked for ever, or ended in a traceback
HAZARDOUS_FILES = {
    "a FIFO": (fifo, r"'.*cards\.fifo' is a FIFO; a card file is a regular TOML "
                     r"file of at most 64 KiB"),
    "/dev/zero": (lambda _: "/dev/zero", r"'/dev/zero' is a character device"),
    "/dev/urandom": (lambda _: "/dev/urandom", r"'/dev/urandom' is a character "
                                               r"device"),
    "a directory": (str, r"'.*' is a directory; a card file is a regular"),
    "a /proc file": (lambda _: "/proc/self/status", r"/proc/self/status: not valid TOML"),
    "too large": (lambda tmp: written(tmp, BUILT_IN_TEXT.encode() + b"#" * 65536),
                  r"'.*my_cards\.toml' is larger than 64 KiB"),
    "not UTF-8": (lambda tmp: written(tmp, BUILT_IN_TEXT.encode("utf-16")),
                  r"'.*my_cards\.toml' is not UTF-8 text \(byte 0 is b'\\xff'\); save it as "
                  r"UTF-8"),
}


@pytest.mark.parametrize("hazard", HAZARDOUS_FILES)
def test_a_card_file_that_is_no_card_file_is_refused_in_one_line(tmp_path, hazard):
    """Only a regular file is opened (checked before opening: a FIFO would block), at most
    64 KiB of it is read, and it must be UTF-8: each refusal is one line naming the file."""
    make_path, message = HAZARDOUS_FILES[hazard]
    with pytest.raises(ConfigError, match=r"^crazier_eights: card_file: " + message) as err:
        CrazierEightsConfig(card_file=make_path(tmp_path))
    assert "\n" not in str(err.value)


#: (a card file's text, the one-line error after its name: the card and field where it has
#: them); each ended in a traceback or ran for ever
HAZARDOUS_TEXTS = {
    "set = 5": (lambda: "set = 5\n" + BUILT_IN_TEXT.replace('[set]\nname = "eights base set"',
                                                           ""),
                r"set = 5; \[set\] is a table"),
    "a [set] name with a control character": (
        lambda: edit('name = "eights base set"', 'name = "eights\\u001b[2J set"'),
        r"\[set\] name: character 7 is U\+001B, a control character"),
    "steps nested 200 deep": (
        lambda: nested_repeat(200),
        r"not valid TOML here \(arrays or tables nested too deeply\); steps nest at most 5 "
        r"deep"),
    "repeat nested 10 deep": (
        lambda: nested_repeat(10, count=5),
        r"card 20 \(Potion of Vitality\), field 'play\[0\]\.steps\[0\]\.steps\[0\]"
        r"\.steps\[0\]\.steps\[0\]\.steps': steps nested more than 5 deep \(repeat and if "
        r"inside one another\); write them flatter"),
    "arrays nested 2000 deep": (
        lambda: edit(POTION_PLAY, "play = " + "[" * 2000 + "]" * 2000),
        r"not valid TOML here \(arrays or tables nested too deeply\)"),
    "a control character in a name": (
        lambda: change("Castle", 'name = "Castle"', 'name = "Cas\\u001b]0;owned\\u0007tle"'),
        r"card 52 \(card 52\), field 'name': character 4 is U\+001B, a control character; "
        r"names and texts are printable text on one line"),
    "a control character in a text": (
        lambda: change("Castle", 'text = "', 'text = "\\r'),
        r"card 52 \(Castle\), field 'text': character 1 is U\+000D, a control character"),
    "a newline in a text": (
        lambda: change("Castle", 'text = "', 'text = "two\\nlines '),
        r"card 52 \(Castle\), field 'text': character 4 is U\+000A"),
}


@pytest.mark.parametrize("hazard", HAZARDOUS_TEXTS)
def test_a_card_file_past_the_limits_is_refused_in_one_line(hazard):
    """Past the nesting, the size or the step limit, or with a control character in a name
    or text (it would reach the terminal raw), a file is refused naming its card and field."""
    make_text, message = HAZARDOUS_TEXTS[hazard]
    with pytest.raises(CardFileError, match=r"^my_cards\.toml: " + message) as err:
        parse(make_text(), "my_cards.toml")
    assert "\n" not in str(err.value)


def test_nested_repeats_stop_at_the_step_limit_instead_of_unrolling(monkeypatch):
    """Four repeats of 5 inside one another would unroll to 625 steps (5 ** 10 at depth 10
    took for ever): compiling stops at the 65th step, counted here, not timed."""
    compiled = []
    step = crazier_cards._Compiler._step

    def counting(self, *args):
        compiled.append(args[-1])
        return step(self, *args)

    monkeypatch.setattr(crazier_cards._Compiler, "_step", counting)
    with pytest.raises(CardFileError, match=r"card 20 \(Potion of Vitality\), field 'play.*': "
                                            r"play compiles to more than 64 steps \(repeat "
                                            r"unrolls its steps count times\)"):
        parse(nested_repeat(4, count=5))
    potion = [field for field in compiled if field.startswith("play[0]")]
    assert crazier_cards.MAX_PROGRAM_STEPS < len(potion) < 2 * crazier_cards.MAX_PROGRAM_STEPS


def test_a_long_bad_value_is_cut_short_in_the_error():
    text = change("Castle", 'type = "asset"', f'type = "{"x" * 5000}"')
    with pytest.raises(CardFileError, match=r"field 'type': 'x{36}\.\.\. is not a card type") \
            as err:
        parse(text)
    assert len(str(err.value)) < 200


# ---------------------------------------------------------------- the docs' card table
def doc_table() -> list[list[str]]:
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("## The card set"):]
    section = section[:section.index("\n## ", 3)]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    return [[cell.strip().strip("`") for cell in row.strip("|").split(" | ")] for row in rows]


def test_the_docs_card_table_lists_the_52_cards_of_the_data_file():
    cards = crazier_cards.load()
    rows = doc_table()
    assert [r[0] for r in rows] == TEXTS  # card-id order
    for c, (text, name, colours, kind, words) in enumerate(rows):
        assert name == cards.cardset.card_name(c), text
        assert colours == ", ".join(crazier_cards.COLOUR_NAMES[k]
                                    for k in cards.cardset.colours_of[c]), text
        assert kind == ("asset" if cards.is_asset[c] else "event"), text
        assert words == cards.texts[c], text
