"""Crazy Eights, as its rule text ("Crazy Eights", the keyboard-game rules) gives it.

2-8 players, two decks, 7 cards each. Match the top card's rank or suit;
8s are wild and their player names the suit to follow. A player who cannot
or will not play draws one card; a playable drawn card is played at once,
otherwise the player passes. J reverses (a skip with two players), Q skips,
K makes the next player draw two and lose the turn. The first to empty their
hand scores the cards left in the others' hands (8 = 50, J/Q/K = 20, A = 1,
others face value); with ``match=True`` hands are played until someone
reaches ``target_score``.

Interpretations are listed in ``docs/rules/crazy_eights.md``.

Actions (58): ``play <card>`` (ids 0-51, the card id), ``suit C|D|H|S``
(52-55, right after playing an 8), ``draw`` (56), ``pass`` (57, only after
drawing, when the drawn card cannot be played; with ``may_keep_drawn_card`` also
to keep a playable drawn card).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import ClassVar

from ..cards import JACK, KING, NO_CARD, QUEEN, RANK
from ..config import option
from .base import Event
from .pile import (
    AFTER_DRAW,
    CHOOSE_SUIT,
    DRAW,
    PASS,
    PLAY,
    SUIT_ACTION,
    PileConfig,
    PileEngine,
    pile_actions,
)


@dataclasses.dataclass(frozen=True)
class CrazyEightsConfig(PileConfig):
    variant: ClassVar[str] = "crazy_eights"

    num_players: int = option(2, doc="players at the table", min=2, max=8)
    num_decks: int = option(2, doc="standard 52-card decks shuffled together", min=1, max=4)
    hand_size: int = option(7, doc="cards dealt to each player", min=1, max=20)
    target_score: int = option(500, doc="match points that win the match (with match=True)",
                               min=1)
    king_draw: int = option(2, doc="cards a King makes the next player draw", min=0, max=10)
    may_keep_drawn_card: bool = option(
        False, doc="a player who draws a playable card may keep it and pass (by default it "
                   "must be played)")

    def goal(self) -> str:
        if self.match:
            return f"A match: hands are dealt until someone has {self.target_score} points."
        return "One hand: the first to empty their hand wins and scores the others' cards."


class CrazyEightsGame(PileEngine):
    variant = "crazy_eights"
    Config = CrazyEightsConfig
    actions = pile_actions()
    points_by_rank = (1, 2, 3, 4, 5, 6, 7, 50, 9, 10, 20, 20, 20)
    attack_ranks: ClassVar[dict[int, int]] = {KING: 3, QUEEN: 2, JACK: 1}

    config: CrazyEightsConfig

    @classmethod
    def describe_event(cls, event: Event,
                       name: Callable[[int], str] = lambda p: f"player {p}") -> str:
        """A King's victim draws (``arg`` cards) and is skipped: one sentence."""
        if event.kind == "skip" and event.arg >= 0:
            return f"{name(event.player)} draws {event.arg} and is skipped."
        return super().describe_event(event, name)

    # ---------------------------------------------------------------- legal
    def _legal(self) -> list[int]:
        s = self.state
        phase = s.phase
        if phase == PLAY:
            legal = self._playable_cards(s.hands[s.current])
            if self.can_draw():
                legal.append(DRAW)
            elif not legal:
                legal.append(PASS)
            return legal
        if phase == CHOOSE_SUIT:
            return [SUIT_ACTION, SUIT_ACTION + 1, SUIT_ACTION + 2, SUIT_ACTION + 3]
        # AFTER_DRAW: a drawn card that fits is played (or kept, where the option allows);
        # one that does not fit is followed by the pass
        drawn = s.drawn
        if not self.playable(drawn):
            return [PASS]
        return [drawn, PASS] if self.config.may_keep_drawn_card else [drawn]

    # ---------------------------------------------------------------- apply
    def _apply(self, a: int) -> None:
        s = self.state
        p = s.current
        if a < SUIT_ACTION:
            s.drawn = NO_CARD
            self._play_card(p, a)
            if not s.hands[p]:
                self._end_hand([p])
            elif RANK[a] == 8:
                s.phase = CHOOSE_SUIT
            else:
                s.phase = PLAY
                self._after_play(p, RANK[a])
        elif a < DRAW:
            self._choose_suit(p, a - SUIT_ACTION)
            s.phase = PLAY
            s.current = self.next_seat(p)
        elif a == DRAW:
            s.stuck = 0
            self._note_draw(p)
            s.drawn = self._draw_one(p)
            s.phase = AFTER_DRAW
        else:  # PASS
            moved = s.phase == AFTER_DRAW
            s.phase = PLAY
            s.drawn = NO_CARD
            if not self._pass_turn(p, moved):
                s.current = self.next_seat(p)

    def _after_play(self, p: int, rank: int) -> None:
        """The played card's effect, and whose turn it is next."""
        s = self.state
        if rank == JACK:
            if self.num_players == 2:
                s.current = p  # a reverse with two players is a skip
                self._log.append(("skip", self.next_seat(p), NO_CARD, -1))
                return
            s.direction = -s.direction
            self._log.append(("reverse", p, NO_CARD, s.direction))
            s.current = self.next_seat(p)
        elif rank == QUEEN:
            skipped = self.next_seat(p)
            self._log.append(("skip", skipped, NO_CARD, -1))
            s.current = self.next_seat(p, 2)
        elif rank == KING:
            victim = self.next_seat(p)
            drawn = self._draw_many(victim, self.config.king_draw)
            self._log.append(("skip", victim, NO_CARD, drawn))
            s.current = self.next_seat(p, 2)
        else:
            s.current = self.next_seat(p)

    # ---------------------------------------------------------------- scoring
    def _score_hand(self, winners: list[int]) -> list[int]:
        """A sole winner scores the points left in every other hand."""
        points = [0] * self.num_players
        if len(winners) == 1:
            w = winners[0]
            points[w] = sum(self.hand_points(p) for p in range(self.num_players) if p != w)
        return points

    def _match_winners(self) -> list[int]:
        target = self.config.target_score
        return [p for p, score in enumerate(self.state.scores) if score >= target]
