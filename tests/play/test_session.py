"""`eights play` driven by keystrokes: every key of the rules' list, the timer, narration."""

from __future__ import annotations

import re

import pytest

from eights.agents import AgentForfeit, RandomAgent, make_agent
from eights.engines import VARIANTS, engine_class, make_game
from eights.play import PlaySession, ScriptedKeys

HANDS = ["8S 3H 4H 5H 6H 7H 9C", "2D 3D 4D 5D 6D 7D 9D"]


def stacked_game(hands=HANDS, starter="10H", stock="KC QC JC", **options):
    deck = engine_class("crazy_eights").stacked_deck(hands, starter, stock, num_decks=2,
                                                      first_player=0)
    return make_game("crazy_eights", num_players=2, deck=deck, first_player=0, **options)


class Transcript(list):
    def __call__(self, line: str) -> None:
        self.append(line)

    @property
    def text(self) -> str:
        return "\n".join(self)


def session(engine, keys, **kwargs):
    out = Transcript()
    bots = {p: make_agent("heuristic", engine.variant, seed=p)
            for p in range(engine.num_players) if p != 0}
    return PlaySession(engine, 0, bots, ScriptedKeys(keys), out, **kwargs), out


class FirstMoveKeys:
    """A player who always picks move 1: types its number, then Enter."""

    def __init__(self):
        self._next = "1"

    def get(self, timeout=None):
        key, self._next = self._next, ("enter" if self._next == "1" else "1")
        return key


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", [2, 4])
def test_whole_games_played_with_keystrokes(variant, players):
    for seed in range(3):
        engine = make_game(variant, num_players=players, seed=seed)
        out = Transcript()
        bots = {p: make_agent("heuristic", variant, seed=p) for p in range(1, players)}
        assert PlaySession(engine, 0, bots, FirstMoveKeys(), out).run() == 0
        assert engine.game_over
        assert out[-1].startswith("Scores.")
        assert "won." in out.text or "You win!" in out.text or "turn limit" in out.text


def test_narration_never_names_a_card_an_opponent_drew():
    for seed in range(5):
        engine = make_game("crazy_eights", num_players=3, seed=seed)
        out = Transcript()
        bots = {1: make_agent("random", "crazy_eights", seed=1),
                2: make_agent("heuristic", "crazy_eights", seed=2)}
        PlaySession(engine, 0, bots, FirstMoveKeys(), out).run()
        bot_draws = [line for line in out if line.startswith(("Player 1", "Player 2"))
                     and " draws " in line]
        assert bot_draws, "the bots drew at some point"
        assert all(re.search(r" draws (a card|\d+ cards)( and is skipped)?\.$", line)
                   for line in bot_draws), bot_draws


def test_space_draws_and_p_passes_only_when_allowed():
    engine = stacked_game()
    s, out = session(engine, ["p", " ", "p", "q", "q"])
    s.run()
    assert out.count("You cannot pass now.") == 2  # before the draw, and on the next turn
    assert "Player 0 (you) draws the king of clubs." in out
    # the king cannot be played on the ten of hearts: passing is the one move, made for you
    drew = out.index("Player 0 (you) draws the king of clubs.")
    assert out[drew + 1:drew + 3] == ["Your only move, pass, is played for you.",
                                      "Player 0 (you) passes."]


def test_suit_keys_name_a_suit_after_an_eight_and_c_reads_the_top_card_otherwise():
    engine = stacked_game()
    s, out = session(engine, ["c", "d", "6", "enter", "d", "q", "q"])
    s.run()
    assert out[out.index("Your turn. The top card is the ten of hearts. You hold 7 cards.") + 2] \
        == "The top card is the ten of hearts."
    assert "Suits are named after you play an 8. Press C to read the top card." in out
    assert "Player 0 (you) plays the eight of spades." in out
    assert "Name a suit: C clubs, D diamonds, H hearts, S spades." in out
    assert "Player 0 (you) names diamonds." in out


def test_information_keys():
    engine = stacked_game()
    s, out = session(engine, ["e", "r", "o", "l", "T", "t", "?", "x", "q", "q"])
    assert s.run() == 0
    assert ("Card counts. Player 0 (you): 7 cards; Player 1 (heuristic): 7 cards; stock: 89."
            in out)
    assert ("Your hand, 7 cards: nine of clubs, three of hearts, four of hearts, five of hearts, "
            "six of hearts, seven of hearts, eight of spades.") in out
    assert "Scores. Player 0 (you): 0; Player 1 (heuristic): 0." in out
    assert "There is no turn timer." in out
    assert "Shift+T tells the time left." in out
    assert any(line.startswith("Keys: Space draw.") for line in out)
    assert "'x' does nothing here. Press ? for help." in out
    assert out[-1] == "You left the game."


def test_arrows_and_numbers_choose_and_enter_makes_the_move():
    engine = stacked_game()
    s, out = session(engine, ["enter", "left", "right", "9", "2", "down", "up", "enter",
                              "q", "q"])
    s.run()
    assert "Choose a move first: its number, or the arrows." in out
    assert "7 of 7: draw a card." in out  # left from nothing goes to the last move
    assert "1 of 7: play the three of hearts." in out  # and right wraps around
    assert "There is no move 9; moves are 1 to 7." in out
    assert "2: play the four of hearts. Enter to make it." in out
    assert "3 of 7: play the five of hearts." in out
    assert "Player 0 (you) plays the four of hearts." in out


def test_the_turn_timer_tells_the_time_and_draws_when_it_runs_out():
    now = [100.0]
    engine = stacked_game()

    def clock():
        return now[0]

    class Keys:
        script = iter(["T", "advance", None, "q", "q"])

        def get(self, timeout=None):
            key = next(self.script)
            if key == "advance" or key is None:
                now[0] += 31
                return None
            return key

    out = Transcript()
    bots = {1: make_agent("heuristic", "crazy_eights", seed=1)}
    PlaySession(engine, 0, bots, Keys(), out, turn_time=30, clock=clock).run()
    assert "30 seconds left." in out
    assert "Time is up: you draw a card." in out
    assert "Player 0 (you) draws the king of clubs." in out


def test_end_of_input_leaves_the_game():
    s, out = session(stacked_game(), [])
    assert s.run() == 0
    assert out[-1] == "Input ended; leaving the game."


def test_livery_last_card_call_is_a_listed_move():
    engine = make_game("livery_eights", num_players=2, seed=0)
    s, out = session(engine, [])
    s.run()
    assert any(line.startswith("Your moves: 1 ") for line in out)


def test_moves_ten_and_above_are_typed_digit_by_digit():
    """Eleven hearts and a draw make 12 moves: 1 then 2 chooses move 12, 1 then 1 move 11."""
    hands = ["2H 3H 4H 5H 6H 7H 9H JH QH KH AH", "2D 3D 4D 5D 6D 7D 9D 10D JD QD KD"]
    engine = stacked_game(hands, hand_size=11)
    s, out = session(engine, ["1", "2", "enter", "q", "q"])
    s.run()
    assert out[out.index("1: play the ace of hearts. Enter to make it.") + 1] \
        == "12: draw a card. Enter to make it."
    assert "Player 0 (you) draws the king of clubs." in out
    s, out = session(stacked_game(hands, hand_size=11), ["1", "1", "3", "enter", "q", "q"])
    s.run()
    assert "11: play the king of hearts. Enter to make it." in out
    assert "3: play the three of hearts. Enter to make it." in out  # 113 names no move
    assert "Player 0 (you) plays the three of hearts." in out


def test_one_card_is_one_card():
    engine = stacked_game(["3H", "2D"], hand_size=1)
    s, out = session(engine, ["q", "q"])
    s.run()
    assert "Your turn. The top card is the ten of hearts. You hold 1 card." in out


def test_livery_pass_after_a_penultimate_card_reads_as_not_calling():
    deck = engine_class("livery_eights").stacked_deck(["5H 9C", "6D 7D"], "KH",
                                                      first_player=0)
    engine = make_game("livery_eights", num_players=2, hand_size=2, deck=deck, first_player=0)
    s, out = session(engine, ["1", "enter", "q", "q"])
    s.run()
    assert "Your moves: 1 don't call last card; 2 call last card." in out


def test_a_kings_draw_is_one_sentence_and_a_hand_ends_with_the_match_totals():
    engine = make_game("crazy_eights", num_players=2, seed=1)
    out = Transcript()
    PlaySession(engine, 0, {1: make_agent("heuristic", "crazy_eights", seed=1)},
                FirstMoveKeys(), out).run()
    king = out.index("Player 0 (you) plays the king of hearts.")
    assert out[king + 1] == "Player 1 (heuristic) draws 2 cards and is skipped."
    assert not any("draws 2 and is skipped" in line for line in out)


def test_a_hand_of_a_match_ends_with_the_totals_and_which_way_they_count():
    engine = make_game("livery_eights", num_players=2, seed=2, match=True)
    out = Transcript()
    PlaySession(engine, 0, {1: make_agent("heuristic", "livery_eights", seed=1)},
                FirstMoveKeys(), out).run()
    first = out.index("Player 0 (you) scores 33 points (lower is better).")
    assert out[first + 1] == "Player 1 (heuristic) scores 0 points (lower is better)."
    assert out[first + 2] == ("Match totals: Player 0 (you): 33; Player 1 (heuristic): 0 "
                              "(lower is better).")
    assert out[first + 3].startswith("Hand 2 is dealt")
    assert out[-1].startswith("Scores.")  # the last hand ends with the result instead
    assert not out[-2].startswith("Match totals")


def test_a_move_the_engine_makes_for_you_is_announced_and_a_bots_is_not():
    """Nothing in your hand fits the ten of hearts, so the deal's first move (a draw) and the
    pass after the king is drawn are yours by force; the bot's draw and pass are forced too,
    and read as its own; the ten of clubs you draw next must be played."""
    hands = ["4C 5C 6C 7C 9C JS QS", "2D 3D 4D 5D 6D 7D 9D"]
    s, out = session(stacked_game(hands, stock="KD AC 10C"), ["q", "q"])
    s.run()
    starter = out.index("The starter card is the ten of hearts.")
    assert out[starter + 1:starter + 11] == [
        "Your only move, draw a card, is played for you.",
        "Player 0 (you) draws the king of diamonds.",
        "Your only move, pass, is played for you.",
        "Player 0 (you) passes.",
        "Player 1 (heuristic) draws a card.",
        "Player 1 (heuristic) passes.",
        "Your only move, draw a card, is played for you.",
        "Player 0 (you) draws the ten of clubs.",
        "Your only move, play the ten of clubs, is played for you.",
        "Player 0 (you) plays the ten of clubs.",
    ]
    assert sum("is played for you" in line for line in out) == 4


def test_a_bots_forced_moves_are_never_announced_as_yours():
    """Seen from seat 1, the same deal: seat 0's forced moves are a bot's, not announced."""
    engine = stacked_game(["4C 5C 6C 7C 9C JS QS", "2D 3D 4D 5D 6D 7D 9D"], stock="KD AC 10C")
    out = Transcript()
    bots = {0: make_agent("heuristic", "crazy_eights", seed=0)}
    PlaySession(engine, 1, bots, ScriptedKeys(["q", "q"]), out).run()
    starter = out.index("The starter card is the ten of hearts.")
    assert out[starter + 1:starter + 5] == [
        "Player 0 (heuristic) draws a card.", "Player 0 (heuristic) passes.",
        "Your only move, draw a card, is played for you.",
        "Player 1 (you) draws the ace of clubs."]
    announced = [out[i + 1] for i, line in enumerate(out) if "is played for you" in line]
    assert announced and all(line.startswith("Player 1 (you) ") for line in announced)


class ForfeitingBot(RandomAgent):
    """A bot that gives up at its first decision, as an external bot with on_error=forfeit."""

    name = "broken"

    def __init__(self):
        super().__init__(0)
        self.told = None

    def act(self, view):
        raise AgentForfeit("bot 'broken' at seat 1 forfeits: crash: it exited")

    def game_over(self, view, winners):
        self.told = tuple(winners)


def test_a_bot_that_forfeits_ends_the_game_as_a_tournament_scores_it():
    """No traceback: the game ends with a sentence, the others share the win, exit 0."""
    bot = ForfeitingBot()
    out = Transcript()
    s = PlaySession(stacked_game(), 0, {1: bot}, ScriptedKeys(["1", "enter"]), out)
    assert s.run() == 0
    assert out[-2:] == ["The game ends: bot 'broken' at seat 1 forfeits: crash: it exited.",
                        "You win!"]
    assert "Player 0 (you) plays the three of hearts." in out  # narrated before the end
    assert bot.told == (0,)
