"""Livery Eights, as the Inter-Livery Card Game Event's rules give it.

2-8 players, one deck, 5 cards each, dealt singly. Match the top card's rank
or suit; 8s are wild and their player may name a new suit. If you can lay a
card you must; otherwise you pick up one card and that is your turn (an empty
stock means you miss it). An Ace makes the next player miss their turn, a
Queen reverses the direction, a 2 makes the next player pick up 2 unless they
stack a 2 of their own (then the one after picks up 4, and so on). Leaving
yourself one card you must say "last card" before the next player acts, or
anyone may challenge you and you pick up two. The first player out scores 0,
the others score the cards left in their hands (8 = 30, A = 1, 2-9 face
value, 10/J/Q/K = 10); the lowest score wins, over ``match_games`` games with
``match=True``.

Interpretations are listed in ``docs/rules/livery_eights.md``.

Actions (60): ``play <card>`` (ids 0-51, the card id), ``suit C|D|H|S``
(52-55, right after playing an 8), ``draw`` (56: one card when nothing is
playable, or the whole pending pick-up of stacked 2s), ``pass`` (57: miss a
turn on an empty stock, say nothing with one card left, or decline to
challenge), ``last card`` (58) and ``challenge`` (59).
"""

from __future__ import annotations

import dataclasses
import random
from typing import ClassVar

from ..cards import ACE, NO_CARD, QUEEN, RANK
from ..config import option
from .pile import (
    CALL_LAST_CARD,
    CHALLENGE,
    CHOOSE_SUIT,
    DRAW,
    NO_SEAT,
    PASS,
    PLAY,
    SUIT_ACTION,
    PileConfig,
    PileEngine,
    PileState,
    PileView,
    pile_actions,
)

EIGHT, TWO = 8, 2
#: cards a 2 adds to the pending pick-up
TWO_PICK_UP = 2
CALL_ACTION = PASS + 1          # "last card", 58
CHALLENGE_ACTION = PASS + 2     # "challenge", 59


@dataclasses.dataclass(frozen=True)
class LiveryEightsConfig(PileConfig):
    variant: ClassVar[str] = "livery_eights"

    num_players: int = option(2, doc="players at the table", min=2, max=8)
    num_decks: int = option(1, doc="standard 52-card decks shuffled together", min=1, max=4)
    hand_size: int = option(5, doc="cards dealt to each player", min=1, max=20)
    match_games: int = option(5, doc="games in a match (with match=True); lowest total wins",
                              min=1)
    reshuffle_empty_stock: bool = option(
        False, doc="rebuild an empty stock from the discards instead of missing the turn")
    must_stack_twos: bool = option(
        True, doc="a player facing a pending 2 who holds a 2 must play one ('if you can lay "
                  "a card, you must'); False lets them pick up instead")
    last_card_penalty: int = option(
        2, doc="cards a challenged player picks up for not saying 'last card'", min=0)

    def goal(self) -> str:
        if self.match:
            return (f"A match of {self.match_games} games: the lowest total of points left "
                    f"in hand wins.")
        return "One game: the first to empty their hand wins."


@dataclasses.dataclass(slots=True)
class LiveryState(PileState):
    #: who plays next once the "last card" call and the challenge window are over
    next_up: int = NO_SEAT


class LiveryEightsGame(PileEngine):
    variant = "livery_eights"
    event_texts: ClassVar[dict[str, str]] = {
        **PileEngine.event_texts,
        "starter_to_bottom": "The starter, {card}, goes to the bottom of the stock.",
        "pending": "{player} must play a 2 or pick up {arg} cards.",
        "pick_up": "{player} picks up {arg} cards.",
        "last_card": "{player} calls last card.",
        "no_call": "{player} does not call last card.",
        "no_challenge": "{player} does not challenge.",
        "challenge": "{player} challenges {target} for not calling last card.",
        "penalty": "{player} picks up {arg} penalty cards.",
    }
    Config = LiveryEightsConfig
    actions = pile_actions("last card", "challenge")
    state_class = LiveryState
    low_score_wins = True
    points_by_rank = (1, 2, 3, 4, 5, 6, 7, 30, 9, 10, 10, 10, 10)
    attack_ranks: ClassVar[dict[int, int]] = {TWO: 3, ACE: 2}

    config: LiveryEightsConfig
    state: LiveryState

    @property  # type: ignore[override]
    def reshuffle_when_empty(self) -> bool:
        """The rules make an empty stock a missed turn; the option rebuilds it instead."""
        return self.config.reshuffle_empty_stock

    # ------------------------------------------------------------ the deal
    def _deal(self, first: int) -> None:
        self.state.next_up = NO_SEAT
        super()._deal(first)

    def _turn_up_starter(self) -> None:
        """An 8 turned up goes to the bottom of the stock and the next card is turned.

        If every card left is an 8 the last one turned stays (it cannot loop for
        ever). A starting Ace, Queen or 2 then acts on the first player.
        """
        s = self.state
        c = s.stock.pop()
        for _ in range(len(s.stock)):
            if RANK[c] != EIGHT:
                break
            s.stock.insert(0, c)
            self._log.append(("starter_to_bottom", -1, c, -1))
            c = s.stock.pop()
        self._put_on_pile(c)
        self._log.append(("starter", -1, c, -1))
        self._starter_trick(RANK[c])

    def _starter_trick(self, rank: int) -> None:
        """A trick card turned up applies to the first player, as if the dealer had played it."""
        s = self.state
        first = s.first
        if rank == ACE:
            self._log.append(("skip", first, NO_CARD, -1))
            s.current = self.next_seat(first)
        elif rank == QUEEN:
            s.direction = -1
            self._log.append(("reverse", -1, NO_CARD, s.direction))
            s.current = self.next_seat(first, 2)  # the dealer's other neighbour
        elif rank == TWO:
            s.pending = TWO_PICK_UP
            self._log.append(("pending", first, NO_CARD, s.pending))

    # ---------------------------------------------------------------- legal
    def _legal(self) -> list[int]:
        s = self.state
        phase = s.phase
        if phase == PLAY:
            hand = s.hands[s.current]
            if s.pending:
                return self._legal_facing_twos(hand)
            legal = self._playable_cards(hand)
            if not legal:  # must play if you can; else pick up one, or miss the turn
                legal.append(DRAW if self.can_draw() else PASS)
            return legal
        if phase == CHOOSE_SUIT:
            return [SUIT_ACTION, SUIT_ACTION + 1, SUIT_ACTION + 2, SUIT_ACTION + 3]
        if phase == CALL_LAST_CARD:
            return [PASS, CALL_ACTION]
        return [PASS, CHALLENGE_ACTION]  # CHALLENGE

    def _legal_facing_twos(self, hand: list[int]) -> list[int]:
        """Only a 2 may go on a pending 2; ``draw`` takes the whole pick-up instead."""
        twos = sorted({c for c in hand if RANK[c] == TWO})
        if not (twos and self.config.must_stack_twos):
            twos.append(DRAW)
        return twos

    # ---------------------------------------------------------------- apply
    def _apply(self, a: int) -> None:
        s = self.state
        p = s.current
        if a < SUIT_ACTION:
            self._play(p, a)
        elif a < DRAW:
            self._choose_suit(p, a - SUIT_ACTION)
            self._end_play(p, self._seat_after(p, EIGHT))
        elif a == DRAW:
            self._draw_turn(p)
        elif a == PASS:
            self._pass(p)
        elif a == CALL_ACTION:
            self._log.append(("last_card", p, NO_CARD, -1))
            self._resume()
        else:
            self._challenge(p)

    def _play(self, p: int, c: int) -> None:
        """Discard ``c``; going out ends the hand before any trick or call."""
        s = self.state
        self._play_card(p, c)
        if not s.hands[p]:
            self._end_hand([p])
            return
        rank = RANK[c]
        if rank == EIGHT:
            s.phase = CHOOSE_SUIT
            return
        self._end_play(p, self._trick(p, rank))

    def _trick(self, p: int, rank: int) -> int:
        """Apply a played card's trick; return the seat that plays next."""
        s = self.state
        if rank == ACE:
            self._log.append(("skip", self.next_seat(p), NO_CARD, -1))
        elif rank == QUEEN:
            s.direction = -s.direction
            self._log.append(("reverse", p, NO_CARD, s.direction))
        elif rank == TWO:
            s.pending += TWO_PICK_UP
            self._log.append(("pending", self.next_seat(p), NO_CARD, s.pending))
        return self._seat_after(p, rank)

    def _seat_after(self, p: int, rank: int) -> int:
        """Who plays after ``p``'s card of ``rank``, once its trick is applied.

        Pure, so :meth:`_fill_hidden_fields` can rebuild ``next_up`` from the
        top card without replaying the trick: an Ace skips a seat; a Queen has
        already turned the direction, so the next seat is the new neighbour.
        """
        return self.next_seat(p, 2 if rank == ACE else 1)

    def _fill_hidden_fields(self, view: PileView, rng: random.Random) -> None:
        """Rebuild ``next_up`` during a "last card" call or challenge window.

        It is public: the seat in the window (the caller, or the offender
        while others may challenge) played the top card, and the seat after
        that card's trick plays once the window closes.
        """
        super()._fill_hidden_fields(view, rng)
        s = self.state
        if s.phase in (CALL_LAST_CARD, CHALLENGE):
            player = s.current if s.phase == CALL_LAST_CARD else s.offender
            s.next_up = self._seat_after(player, RANK[s.top])

    def _end_play(self, p: int, nxt: int) -> None:
        """Pass the turn to ``nxt``, unless ``p`` now holds one card and must say "last card"."""
        s = self.state
        if len(s.hands[p]) == 1:
            s.phase = CALL_LAST_CARD
            s.next_up = nxt
        else:
            s.phase = PLAY
            s.current = nxt

    def _draw_turn(self, p: int) -> None:
        """Pick up the pending 2s (as many as the stock holds), or one card; the turn ends."""
        s = self.state
        s.stuck = 0  # a pick-up changes the table even if the stock gave nothing
        if s.pending:
            got = self._draw_many(p, s.pending)
            self._log.append(("pick_up", p, NO_CARD, got))
            s.pending = 0
        else:
            self._note_draw(p)
            self._draw_one(p)
        s.current = self.next_seat(p)

    def _pass(self, p: int) -> None:
        """``pass`` means: miss the turn, keep quiet with one card, or decline to challenge."""
        s = self.state
        if s.phase == PLAY:  # empty stock, nothing playable
            if not self._pass_turn(p, moved=False):
                s.current = self.next_seat(p)
        elif s.phase == CALL_LAST_CARD:
            self._log.append(("no_call", p, NO_CARD, -1))
            s.offender = p
            s.phase = CHALLENGE
            s.current = self.next_seat(p)
        else:
            self._log.append(("no_challenge", p, NO_CARD, s.offender))
            nxt = self.next_seat(p)
            if nxt == s.offender:
                self._resume()
            else:
                s.current = nxt

    def _challenge(self, p: int) -> None:
        s = self.state
        offender = s.offender
        self._log.append(("challenge", p, NO_CARD, offender))
        got = self._draw_many(offender, self.config.last_card_penalty)
        self._log.append(("penalty", offender, NO_CARD, got))
        self._resume()

    def _resume(self) -> None:
        """Close the call / challenge window: the seat that was next plays."""
        s = self.state
        s.current = s.next_up
        s.next_up = NO_SEAT
        s.offender = NO_SEAT
        s.phase = PLAY

    # ---------------------------------------------------------------- scoring
    def _score_hand(self, winners: list[int]) -> list[int]:
        """Everyone scores the cards in their hand (the player who went out holds none)."""
        return [self.hand_points(p) for p in range(self.num_players)]

    def _match_winners(self) -> list[int]:
        """After ``match_games`` hands the lowest totals win (ties share)."""
        s = self.state
        if s.hand_number + 1 < self.config.match_games:
            return []
        best = min(s.scores)
        return [p for p, x in enumerate(s.scores) if x == best]
