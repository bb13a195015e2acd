"""Plain-text phrases: actions, and one sentence per event kind of every variant."""

from __future__ import annotations

import random

import pytest

from eights.engines import VARIANTS, Event, make_game
from eights.engines.cardset import STANDARD
from eights.engines.crazy_eights import CrazyEightsGame
from eights.play.text import action_phrase, forced_sentence, narration


@pytest.mark.parametrize("text, phrase", [
    ("play 8S", "play the eight of spades"),
    ("play 10H", "play the ten of hearts"),
    ("play RJ", "play the red joker"),
    ("play 2H pile 1", "play the two of hearts on pile 1"),
    ("suit D", "name diamonds"),
    ("draw", "draw a card"),
    ("last card", "call last card"),
    ("pass", "pass"),
    ("target 2", "choose player 2"),
    ("bottom AD", "put the ace of diamonds at the bottom of the pile"),
    ("bottom 1X", "bottom 1X"),
    ("target x", "target x"),
    ("knock", "knock (one card left)"),
    ("stop", "stop the hand (two Jokers)"),
    ("reverse", "reverse the direction"),
    ("keep", "keep the direction"),
])
def test_action_phrases(text, phrase):
    assert action_phrase(text) == phrase


@pytest.mark.parametrize("text, phase, phrase", [
    ("pass", "knock", "don't knock"),
    ("draw", "answer", "take the penalty cards"),
    ("draw", "follow", "draw until a card that fits comes, and play it"),
    ("pass", "play", "pass"),
])
def test_action_phrases_read_the_phase(text, phase, phrase):
    assert action_phrase(text, phase) == phrase


def test_the_piles_are_read_out_one_by_one():
    """Pile 2: the four of spades with its penalty; a killed pile says so."""
    from eights.engines.jokers_of_death import JokersOfDeathConfig, JokersOfDeathGame
    from eights.play.text import top_card_sentence

    config = JokersOfDeathConfig(num_players=2, hand_size=2)
    deck = JokersOfDeathGame.stacked_deck(["4S 9C", "2D 3D"], "5S 7S 8H", "KC",
                                          config=config, first_player=0)
    game = JokersOfDeathGame(config, deck=deck, first_player=0)
    game.step("play 4S pile 2")
    sentences = [game.describe_event(e, lambda p: f"Player {p}") for e in game.events]
    assert "Pile 2: Player 0 plays the four of spades." in sentences
    assert "The next player must answer it or take 4 cards." in sentences
    view = game.view(1)
    assert top_card_sentence(view).startswith("Piles. pile 1: the five of spades; pile 2: "
                                              "the four of spades, 4 cards to take unless "
                                              "answered; pile 3:")


@pytest.mark.parametrize("phase, phrase", [
    ("last card", "don't call last card"), ("challenge", "don't challenge"), ("play", "pass"),
    (None, "pass"),
])
def test_pass_is_read_by_what_it_declines(phase, phrase):
    assert action_phrase("pass", phase) == phrase


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_event_kind_a_variant_logs_has_its_own_sentence(variant):
    rng = random.Random(0)
    kinds = set()
    for seed in range(200):
        engine = make_game(variant, num_players=rng.choice([2, 3, 5]), seed=seed)
        while not engine.game_over:
            engine.step(rng.choice(engine.legal_actions()))
        for event in engine.events:
            kinds.add(event.kind)
            sentence = engine.describe_event(event)
            assert sentence.endswith((".", "!")) and "{" not in sentence
    assert kinds <= set(type(engine).event_kinds), kinds - set(type(engine).event_kinds)


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_declared_kind_says_its_sentence_with_every_field_it_may_hold(variant):
    """Each declared kind's sentence is said for an event with every slot filled and with
    every slot none: a field the declaration does not have could not be said."""
    engine = make_game(variant, seed=0)
    for kind in type(engine).event_kinds.values():
        for player, card, arg in ((1, 0, 1), (-1, -1, -1)):
            sentence = engine.describe_event(Event(kind.name, player, card, arg))
            assert sentence.endswith((".", "!")) and "{" not in sentence, (kind.name, sentence)


def test_a_kind_without_a_sentence_or_with_a_field_it_has_not_is_refused():
    from eights.engines.events import EventKind

    with pytest.raises(ValueError, match=r"a meaning \(doc\) and a sentence"):
        EventKind("wobble", "a wobble", "")
    with pytest.raises(ValueError, match=r"uses \{suit\}, which needs a suit arg"):
        EventKind("wobble", "a wobble", "{player} wobbles {suit}.", arg="count")
    with pytest.raises(ValueError, match=r"uses \{card\}"):
        EventKind("wobble", "a wobble", "{player} wobbles {card}.")


def test_every_kind_the_narration_names_is_declared_with_what_it_reads():
    """No sentence (or summary) in eights.play.text for a kind no variant declares: a draw
    summary reads a count of cards drawn from its kind's arg."""
    from eights.engines import engine_class
    from eights.play.text import DRAW_SUMMARIES

    declared = [engine_class(v).event_kinds for v in VARIANTS]
    for name in [*DRAW_SUMMARIES, "draw", "score"]:
        assert any(name in kinds for kinds in declared), name
    assert any(kinds.get(name) is not None and kinds[name].arg == "count"
               for kinds in declared for name in DRAW_SUMMARIES)


def test_hidden_cards_read_as_a_card_and_unknown_kinds_are_refused():
    from eights.engines.events import EventError

    engine = make_game("crazy_eights", seed=0)
    assert engine.describe_event(Event("draw", 1, -1, -1)) == "player 1 draws a card."
    assert engine.describe_event(Event("draw", 1, 0, -1)) == "player 1 draws the ace of clubs."
    assert engine.describe_event(Event("skip", 1, -1, 2)) == "player 1 draws 2 and is skipped."
    assert engine.describe_event(Event("skip", 1, -1, -1)) == "player 1 is skipped."
    with pytest.raises(EventError, match="no sentence for event kind 'wobble': it is not "
                                         "declared; the declared kinds are deal, draw"):
        engine.describe_event(Event("wobble", 2, 0, 3))


def random_views(variant: str, seed: int, **options):
    """Every view of the player to act in a seeded game of random moves."""
    game = make_game(variant, seed=seed, **options)
    rng = random.Random(seed)
    while not game.game_over:
        yield game.view(game.current_player)
        game.step(rng.choice(game.legal_actions()))


def test_the_suit_to_follow_is_said_only_where_it_is_not_the_top_cards():
    from eights.play.text import top_card_sentence

    said = unsaid = 0
    for view in random_views("crazy_eights", 3):
        sentence = top_card_sentence(view)
        named = view.cardset.colour[view.top] != view.active_suit
        assert ("the suit to follow is" in sentence) == named, (sentence, view.top)
        said += named
        unsaid += not named
    assert said and unsaid


def test_an_ability_waiting_on_a_decision_is_read_with_its_card():
    from eights.play.text import ability_phrase, cards_of, table_sentence

    asking = quiet = 0
    for seed in range(4):
        for view in random_views("crazier_eights", seed):
            sentence = table_sentence(view, lambda p: f"player {p}")
            if view.ability >= 0:
                assert f"Taking effect: {ability_phrase(cards_of(view), view.ability)}" in sentence
                asking += 1
            else:
                assert "Taking effect" not in sentence
                quiet += 1
    assert asking and quiet


def test_draws_in_a_row_are_one_sentence_naming_only_the_seats_own_cards():
    def name(p):
        return f"Player {p}"

    def describe(e):
        return CrazyEightsGame.describe_event(e, name)

    king = [Event("draw", 1, -1, -1), Event("draw", 1, -1, -1), Event("skip", 1, -1, 2)]
    assert narration(king, describe, name) == ["Player 1 draws 2 cards and is skipped."]
    own = [Event("draw", 0, 22, -1), Event("draw", 0, 9, -1)]
    spoken = [STANDARD.spoken(22), STANDARD.spoken(9)]
    assert narration(own, describe, name) == [f"Player 0 draws {spoken[0]} and {spoken[1]}."]
    one = [Event("draw", 0, -1, -1), Event("pass", 0, -1, -1)]
    assert narration(one, describe, name) == [describe(one[0]), describe(one[1])]
    score = [Event("score", 0, -1, 34)]
    assert narration(score, describe, name, low_score_wins=True) == [
        describe(score[0]).removesuffix(".") + " (lower is better)."]


def test_a_note_is_read_before_its_event_and_splits_a_run_of_draws():
    """A forced move's sentence comes before its events; a draw the engine made for you after
    one you chose is its own sentence, so the note stands next to the draw it is about."""
    def name(p):
        return f"Player {p}"

    def describe(e):
        return CrazyEightsGame.describe_event(e, name)

    draws = [Event("draw", 0, 22, -1), Event("draw", 0, 9, -1), Event("pass", 0, -1, -1)]
    note = forced_sentence("draw")
    assert note == "Your only move, draw a card, is played for you."
    assert narration(draws, describe, name, notes={1: [note], 3: ["after"]}) == [
        describe(draws[0]), note, describe(draws[1]), describe(draws[2]), "after"]
    assert forced_sentence("pass", "challenge") == \
        "Your only move, don't challenge, is played for you."
