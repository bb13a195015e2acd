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

Frames (the agenda's decisions): ``turn`` (play, or pick up), ``suit``
(after an 8), ``last_card`` (say it or not, with one card left) and
``challenge`` (each other seat in turn may challenge a missed call).
Actions (60), declared as blocks: ``play <card>`` (ids 0-51, the card id),
``suit C|D|H|S`` (52-55, right after playing an 8), ``draw`` (56: one card
when nothing is playable, or the whole pending pick-up of stacked 2s),
``pass`` (57: miss a turn on an empty stock, say nothing with one card left,
or decline to challenge), ``last card`` (58) and ``challenge`` (59).
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from ..cards import ACE, NO_CARD, NUM_STANDARD, QUEEN, RANK
from ..config import option
from .blocks import ActionSpace, Block
from .defaults import While, constant
from .determinizers.livery_eights import LiveryEightsDeterminizer
from .encoding import Seat
from .events import CORE_EVENTS, PILE_GAME_EVENTS, EventKind, declare_events
from .fields import ViewField
from .pile import (
    NO_SEAT,
    PileConfig,
    PileEngine,
    pending_field,
    pile_blocks,
    pile_fields,
    pile_memory_fields,
)
from .table import Frame

EIGHT, TWO = 8, 2
#: cards a 2 adds to the pending pick-up
TWO_PICK_UP = 2
PHASES = {"turn": "play", "suit": "choose suit", "last_card": "last card",
          "challenge": "challenge"}
#: the action blocks each decision offers (a reader without the view's phase derives it)
OFFERS = {"turn": ("play", "draw"), "suit": ("suit",), "last_card": ("last_card", "pass"),
          "challenge": ("challenge", "pass")}


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


def _offender(game: LiveryEightsGame, seat: int) -> int:
    agenda = game.state.agenda
    return agenda[-1].args[0] if agenda and agenda[-1].kind == "challenge" else NO_SEAT


ACTIONS = ActionSpace(
    *pile_blocks(
        play_when="a card matching the top card's rank or the suit to follow, or any 8; you "
                  "must play if you can; on a pending 2 only a 2",
        draw_when="nothing playable: pick up one card, or the whole pending pick-up of 2s",
        pass_when="miss the turn on an empty stock, keep quiet with one card left, or "
                  "decline to challenge"),
    Block("last_card", "last card", when="right after your play leaves you one card"),
    Block("challenge", "challenge", when="the player who just left themselves one card did "
                                         "not say it"),
)
CALL_ACTION = ACTIONS["last_card"].id()
CHALLENGE_ACTION = ACTIONS["challenge"].id()


class LiveryEightsGame(PileEngine):
    variant = "livery_eights"
    event_kinds = declare_events(CORE_EVENTS, PILE_GAME_EVENTS, (
        EventKind("starter_to_bottom", "an 8 turned up as the starter goes under the stock",
                  "The starter, {card}, goes to the bottom of the stock.", player=False,
                  card=True),
        EventKind("reverse", "play changes direction; player: who reversed (none for a "
                  "turned-up Queen); arg: the new direction",
                  "Play changes direction: now {direction}.", arg="direction"),
        EventKind("pending", "the player must answer stacked 2s; arg: the cards to pick up",
                  "{player} must play a 2 or pick up {arg} cards.", arg="count"),
        EventKind("pick_up", "the player picks up the stacked 2s' cards; arg: how many",
                  "{player} picks up {arg} cards.", arg="count"),
        EventKind("last_card", "the player calls last card", "{player} calls last card."),
        EventKind("no_call", "the player does not call last card",
                  "{player} does not call last card."),
        EventKind("challenge", "the player challenges a missed call; arg: the seat challenged",
                  "{player} challenges {target} for not calling last card.", arg="seat"),
        EventKind("no_challenge", "the player does not challenge; arg: the seat that could be "
                  "challenged", "{player} does not challenge.", arg="seat"),
        EventKind("penalty", "a challenged player picks up penalty cards; arg: how many",
                  "{player} picks up {arg} penalty cards.", arg="count"),
    ))
    Config = LiveryEightsConfig
    actions = ACTIONS
    low_score_wins = True
    points_by_rank = (1, 2, 3, 4, 5, 6, 7, 30, 9, 10, 10, 10, 10)
    attack_ranks: ClassVar[dict[int, int]] = {TWO: 3, ACE: 2}
    phases = PHASES
    offers = OFFERS
    determinizer = LiveryEightsDeterminizer
    view_fields = pile_fields(
        cards=NUM_STANDARD, total_cards=lambda config: 52 * config.num_decks,
        score_scale=lambda config: 100.0 * (config.match_games if config.match else 1),
         phases=tuple(PHASES.values()), counted_match=True,
        own_encoded=[
            pending_field(),
            ViewField("offender", "seat", "a seat that missed its last-card call and may be "
                      "challenged now, else null", _offender, Seat(others=True),
                      default=constant(None), required_while=While(
                          "while `phase` is `challenge` (in a decide: while `legal` holds "
                          "`challenge`)",
                          lambda known: known.values["phase"] == PHASES["challenge"],
                          {"required": ["phase"],
                           "properties": {"phase": {"const": PHASES["challenge"]}}})),
        ]) + pile_memory_fields("livery_eights", cards=NUM_STANDARD)

    config: LiveryEightsConfig

    @property  # type: ignore[override]
    def reshuffle_when_empty(self) -> bool:
        """The rules make an empty stock a missed turn; the option rebuilds it instead."""
        return self.config.reshuffle_empty_stock

    # ------------------------------------------------------------ the deal
    def _turn_up_starter(self) -> None:
        """An 8 turned up goes to the bottom of the stock and the next card is turned.

        If every card left is an 8 the last one turned stays (it cannot loop for
        ever). A starting Ace, Queen or 2 then acts on the first player.
        """
        s = self.state
        c = s.stock[-1]
        for _ in range(len(s.stock) - 1):
            if RANK[c] != EIGHT:
                break
            s.stock.insert(0, s.stock.pop())
            self.log_event("starter_to_bottom", -1, c, -1)
            c = s.stock[-1]
        self.move(("stock",), ("pile", 0))
        self.log_event("starter", -1, c, -1)
        self._starter_trick(RANK[c])

    def _starter_trick(self, rank: int) -> None:
        """A trick card turned up applies to the first player, as if the dealer had played it."""
        s = self.state
        first = s.first
        if rank == ACE:
            self.log_event("skip", first, NO_CARD, -1)
            s.agenda[-1] = Frame("turn", self.next_seat(first))
        elif rank == QUEEN:
            s.direction = -1
            self.log_event("reverse", -1, NO_CARD, s.direction)
            s.agenda[-1] = Frame("turn", self.next_seat(first, 2))  # the dealer's other side
        elif rank == TWO:
            s.pending[0] = TWO_PICK_UP
            self.log_event("pending", first, NO_CARD, s.pending[0])

    # ---------------------------------------------------------------- turn
    def turn_legal(self, frame: Frame) -> list[int]:
        hand = self.state.hands[frame.seat]
        if self.state.pending[0]:
            return self._legal_facing_twos(hand)
        legal = self._playable_cards(hand)
        if not legal:  # must play if you can; else pick up one, or miss the turn
            legal.append(self.DRAW if self.can_draw() else self.PASS)
        return legal

    def _legal_facing_twos(self, hand: list[int]) -> list[int]:
        """Only a 2 may go on a pending 2; ``draw`` takes the whole pick-up instead."""
        twos = sorted({c for c in hand if RANK[c] == TWO})
        if not (twos and self.config.must_stack_twos):
            twos.append(self.DRAW)
        return twos

    def turn_apply(self, frame: Frame, a: int) -> None:
        p = frame.seat
        if a == self.DRAW:
            self._draw_turn(p)
        elif a == self.PASS:  # empty stock, nothing playable: the turn is missed
            if not self._pass_turn(p, moved=False):
                self.push("turn", self.next_seat(p))
        else:
            self._play(p, a)

    def _play(self, p: int, c: int) -> None:
        """Discard ``c``; going out ends the hand before any trick or call."""
        self._play_card(p, c)
        if not self.state.hands[p]:
            self._end_hand([p])
            return
        rank = RANK[c]
        if rank == EIGHT:
            self.push("suit", p)
            return
        self._end_play(p, self._trick(p, rank))

    def _trick(self, p: int, rank: int) -> int:
        """Apply a played card's trick; return the seat that plays next."""
        s = self.state
        if rank == ACE:
            self.log_event("skip", self.next_seat(p), NO_CARD, -1)
        elif rank == QUEEN:
            s.direction = -s.direction
            self.log_event("reverse", p, NO_CARD, s.direction)
        elif rank == TWO:
            s.pending[0] += TWO_PICK_UP
            self.log_event("pending", self.next_seat(p), NO_CARD, s.pending[0])
        return self.seat_after(p, rank)

    def seat_after(self, p: int, rank: int) -> int:
        """Who plays after ``p``'s card of ``rank``, once its trick is applied.

        Pure, so determinization can rebuild a call's or a challenge's next
        seat from the top card: an Ace skips a seat; a Queen has already turned
        the direction, so the next seat is the new neighbour.
        """
        return self.next_seat(p, 2 if rank == ACE else 1)

    def _end_play(self, p: int, nxt: int) -> None:
        """Pass the turn to ``nxt``, unless ``p`` now holds one card and must say "last card"."""
        if len(self.state.hands[p]) == 1:
            self.push("last_card", p, nxt)
        else:
            self.push("turn", nxt)

    def _draw_turn(self, p: int) -> None:
        """Pick up the pending 2s (as many as the stock holds), or one card; the turn ends."""
        s = self.state
        s.stuck = 0  # a pick-up changes the table even if the stock gave nothing
        if s.pending[0]:
            got = self._draw_many(p, s.pending[0])
            self.log_event("pick_up", p, NO_CARD, got)
            s.pending[0] = 0
        else:
            self._note_draw(p)
            self._draw_one(p)
        self.push("turn", self.next_seat(p))

    # ---------------------------------------------------------------- suit
    def suit_legal(self, frame: Frame) -> list[int]:
        return list(self.SUIT_IDS)

    def suit_apply(self, frame: Frame, a: int) -> None:
        p = frame.seat
        self._choose_suit(p, self.SUIT_IDS.index(a))
        self._end_play(p, self.seat_after(p, EIGHT))

    # ---------------------------------------------------------------- last card
    def last_card_legal(self, frame: Frame) -> list[int]:
        return [self.PASS, CALL_ACTION]

    def last_card_apply(self, frame: Frame, a: int) -> None:
        """Say it, and the next seat plays; keep quiet, and the others may challenge."""
        p, (nxt,) = frame.seat, frame.args
        if a == CALL_ACTION:
            self.log_event("last_card", p, NO_CARD, -1)
            self.push("turn", nxt)
        else:
            self.log_event("no_call", p, NO_CARD, -1)
            self.push("challenge", self.next_seat(p), p, nxt)

    # ---------------------------------------------------------------- challenge
    def challenge_legal(self, frame: Frame) -> list[int]:
        return [self.PASS, CHALLENGE_ACTION]

    def challenge_apply(self, frame: Frame, a: int) -> None:
        """A challenge makes the offender pick up; a pass hands the chance to the next seat,
        until it comes round to the offender and play goes on."""
        p, (offender, nxt) = frame.seat, frame.args
        if a == CHALLENGE_ACTION:
            self.log_event("challenge", p, NO_CARD, offender)
            got = self._draw_many(offender, self.config.last_card_penalty)
            self.log_event("penalty", offender, NO_CARD, got)
            self.push("turn", nxt)
            return
        self.log_event("no_challenge", p, NO_CARD, offender)
        following = self.next_seat(p)
        if following == offender:
            self.push("turn", nxt)
        else:
            self.push("challenge", following, offender, nxt)

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
