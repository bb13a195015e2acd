"""A person at the keyboard against bots, in plain text a screen reader can follow.

Every event the person's seat may see is read out as one sentence as it
happens (the bots' plays included). On the person's turn the legal moves are
read as a numbered list. Keys, after the Crazy Eights rules' keyboard list:

=============  ==============================================================
Space          draw a card
P              pass (where the rules allow it)
C D H S        name clubs, diamonds, hearts or spades after an 8
C              read the top card (when no suit is being named)
E              read the card counts
Shift+T        the time left on this turn (with a turn timer)
1-9, arrows    choose a move from the list (1 then 2 is move 12); Enter makes it
L              list the moves again;  R  read your hand;  O  the scores
?              help;  Q twice  leave the game
=============  ==============================================================

With a turn timer, a turn that runs out is played for the person: a draw
where drawing is allowed, else a pass, else the first listed move. This
keeps the table moving as a timed online table does.

A step with one legal move is made by the engine itself, never asked; where it
was the person's, they hear so ("Your only move, pass, is played for you.")
before its events, from the engine's record of the moves it made
(:attr:`~eights.engines.table.TableEngine.forced_moves`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from ..agents import Agent, AgentForfeit
from ..cards import cards_count
from ..engines.table import TableEngine
from .keys import KeySource
from .text import (
    action_phrase,
    cards_of,
    counts_sentence,
    forced_sentence,
    hand_sentence,
    moves_sentence,
    narration,
    scores_sentence,
    table_sentence,
    top_card_sentence,
    totals_sentence,
)

HELP = ("Keys: Space draw. P pass. C, D, H, S name a suit after an 8. C read the top card. "
        "E card counts. Shift+T time left. Numbers (1 then 2 for 12) or arrows choose a move, "
        "Enter makes it. "
        "L list moves. R read your hand. O scores. Q twice to leave.")
SUIT_KEYS = {"c": "suit C", "d": "suit D", "h": "suit H", "s": "suit S"}


class PlaySession:
    """One game: ``seat`` is the person's, ``bots`` play every other seat."""

    def __init__(self, engine: TableEngine, seat: int, bots: dict[int, Agent], keys: KeySource,
                 say: Callable[[str], None], *, turn_time: float | None = None,
                 clock: Callable[[], float] = time.monotonic):
        missing = set(range(engine.num_players)) - {seat} - set(bots)
        if missing:
            raise ValueError(f"no bot for seats {sorted(missing)}")
        self.engine, self.seat, self.bots = engine, seat, bots
        self.keys, self.say, self.turn_time, self.clock = keys, say, turn_time, clock
        self._heard = 0
        self._quitting = False
        self._typed = ""  # digits typed so far for a move number
        self._phase: str | None = None
        engine.record_forced_moves()
        self._told: object = None  # the engine's forced_moves last read out
        self._cards = cards_of(engine.view(seat))

    def name(self, p: int) -> str:
        if p == self.seat:
            return f"Player {p} (you)"
        return f"Player {p} ({self.bots[p].name})"

    # ------------------------------------------------------------------ game
    def run(self) -> int:
        """Play to the end, or until the person leaves (Q twice, or the end of input) or a
        bot forfeits (an external bot that failed with ``on_error=forfeit``).

        Returns 0 either way: leaving is the person's choice, not a failure, and a forfeit
        ends the game with a result, as in a tournament.
        """
        engine = self.engine
        opponents = ", ".join(self.name(p) for p in sorted(self.bots))
        self.say(f"{engine.variant.replace('_', ' ').title()}, {engine.num_players} players. "
                 f"{engine.config.goal()} You are player {self.seat}. Opponents: {opponents}. "
                 f"Press ? for help.")
        try:
            while not engine.game_over:
                self._narrate()
                p = engine.current_player
                if p == self.seat:
                    if not self._human_turn():
                        self.say("You left the game.")
                        return 0
                else:
                    try:
                        action = self.bots[p].act(engine.view(p))
                    except AgentForfeit as err:
                        self._forfeit(p, err)
                        return 0
                    engine.step(action)
        except EOFError:
            self.say("Input ended; leaving the game.")
            return 0
        self._narrate()
        self._announce_result()
        self._tell_bots(engine.winners)
        return 0

    def _forfeit(self, seat: int, err: AgentForfeit) -> None:
        """The bot at ``seat`` gave up: the game ends there, and everyone else shares the
        win, as a tournament scores it."""
        self._narrate()
        winners = tuple(p for p in range(self.engine.num_players) if p != seat)
        self.say(f"The game ends: {str(err).removesuffix('.')}.")
        self.say("You win!" if len(winners) == 1 else "You share the win.")
        self._tell_bots(winners)

    def _tell_bots(self, winners: Sequence[int]) -> None:
        """Tell every bot how the game ended (an external bot passes it on to its program)."""
        for p, bot in self.bots.items():
            bot.game_over(self.engine.view(p), tuple(winners))

    def _narrate(self) -> None:
        """Say the events since the last call; after a hand of a match, the match totals."""
        engine = self.engine
        view = engine.view(self.seat)
        events = view.history()
        new = events[self._heard:]
        self._heard = len(events)
        low = engine.low_score_wins
        # at the end of the game the result says the scores instead
        totals = None if engine.game_over else totals_sentence(view, self.name, low)
        for sentence in narration(new, lambda e: engine.describe_event(e, self.name),
                                  self.name, cards_of(view), low, totals,
                                  self._forced_notes(len(events) - len(new))):
            self.say(sentence)

    def _forced_notes(self, heard: int) -> dict[int, list[str]]:
        """For each move the engine made for the person since the last step (their only
        legal one), a sentence saying so, keyed by the index of its first event among those
        not yet heard (events before ``heard`` were). Bots' forced moves are not announced:
        their events say what they did."""
        moves = self.engine.forced_moves
        if moves is self._told:
            return {}
        self._told = moves
        phases = getattr(self.engine, "phases", {})
        notes: dict[int, list[str]] = {}
        for at, frame, action in moves:
            if frame.seat == self.seat:
                move = self.engine.action_text(action)
                notes.setdefault(max(0, at - heard), []).append(
                    forced_sentence(move, phases.get(frame.kind), self._cards))
        return notes

    def _announce_result(self) -> None:
        engine = self.engine
        view = engine.view(self.seat)
        if engine.truncated:
            self.say("The game stopped at the turn limit with no winner.")
        elif self.seat in engine.winners:
            self.say("You win!" if len(engine.winners) == 1 else "You share the win.")
        else:
            self.say(" and ".join(self.name(w) for w in engine.winners) + " won.")
        self.say(scores_sentence(view, self.name))

    # ------------------------------------------------------------- your turn
    def _human_turn(self) -> bool:
        """Read keys until a move is made (True) or the person leaves (False)."""
        view = self.engine.view(self.seat)
        moves = [self.engine.action_text(a) for a in view.legal_actions]
        self._phase = getattr(view, "phase", None)
        self._cards = cards_of(view)
        if all(m.startswith("suit ") for m in moves):
            self.say("Name a suit: C clubs, D diamonds, H hearts, S spades.")
        else:
            table = table_sentence(view, self.name)
            self.say(f"Your turn. {top_card_sentence(view)} "
                     f"You hold {cards_count(len(view.hand))}." + (f" {table}" if table else ""))
        self.say(moves_sentence(moves, self._phase, self._cards))
        deadline = None if self.turn_time is None else self.clock() + self.turn_time
        selected: int | None = None
        while True:
            timeout = None if deadline is None else max(0.0, deadline - self.clock())
            key = self.keys.get(timeout)
            if key is None:
                if deadline is not None and self.clock() >= deadline:
                    move = next((m for m in ("draw", "pass") if m in moves), moves[0])
                    self.say(f"Time is up: you {action_phrase(move, self._phase, self._cards)}.")
                    return self._make(move)
                continue
            if key.lower() != "q":
                self._quitting = False
            if not key.isdigit():
                self._typed = ""
            move, selected = self._key(key, view, moves, selected, deadline)
            if move == "quit":
                return False
            if move is not None:
                return self._make(move)

    def _make(self, move: str) -> bool:
        self.engine.step(move)
        return True

    def _key(self, key: str, view, moves: Sequence[str], selected: int | None,
             deadline: float | None) -> tuple[str | None, int | None]:
        """Act on one key: ``(move to make or None, selection)``."""
        lower = key.lower() if len(key) == 1 else key
        naming = any(m.startswith("suit ") for m in moves)
        if key == " ":
            if "draw" in moves:
                return "draw", selected
            self.say("You cannot draw now.")
        elif lower == "p":
            if "pass" in moves:
                return "pass", selected
            self.say("You cannot pass now.")
        elif lower in SUIT_KEYS and naming:
            return SUIT_KEYS[lower], selected
        elif lower == "c":
            self.say(top_card_sentence(view))
        elif lower in SUIT_KEYS:
            self.say("Suits are named after you play an 8. Press C to read the top card.")
        elif lower == "e":
            self.say(counts_sentence(view, self.name))
        elif key == "T":
            if deadline is None:
                self.say("There is no turn timer.")
            else:
                self.say(f"{max(0.0, deadline - self.clock()):.0f} seconds left.")
        elif key == "t":
            self.say("Shift+T tells the time left.")
        elif key.isdigit() and len(key) == 1:
            # digits typed in a row make one number while it names a move (1 then 2: 12)
            typed = self._typed + key
            if not 1 <= int(typed) <= len(moves):
                typed = key
            n = int(typed)
            if 1 <= n <= len(moves):
                self._typed = typed
                selected = n - 1
                self.say(f"{n}: {action_phrase(moves[selected], self._phase, self._cards)}. "
                         f"Enter to make it.")
            else:
                self._typed = ""
                self.say(f"There is no move {n}; moves are 1 to {len(moves)}.")
        elif key in ("left", "right", "up", "down"):
            step = -1 if key in ("left", "up") else 1
            selected = (0 if step == 1 else len(moves) - 1) if selected is None else (
                (selected + step) % len(moves))
            self.say(f"{selected + 1} of {len(moves)}: "
                     f"{action_phrase(moves[selected], self._phase, self._cards)}.")
        elif key == "enter":
            if selected is None:
                self.say("Choose a move first: its number, or the arrows.")
            else:
                return moves[selected], selected
        elif lower == "l":
            self.say(moves_sentence(moves, self._phase))
        elif lower == "r":
            self.say(hand_sentence(view))
        elif lower == "o":
            self.say(scores_sentence(view, self.name))
        elif key == "?":
            self.say(HELP)
        elif lower == "q":
            if self._quitting:
                return "quit", selected
            self._quitting = True
            self.say("Press Q again to leave the game.")
        else:
            self.say(f"{key!r} does nothing here. Press ? for help.")
        return None, selected
