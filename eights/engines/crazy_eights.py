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

Frames (the agenda's decisions): ``turn`` (play a card, or draw), ``suit``
(name the suit after an 8), ``after_draw`` (play the drawn card, or pass).
Actions (58), declared as blocks: ``play <card>`` (ids 0-51, the card id),
``suit C|D|H|S`` (52-55), ``draw`` (56), ``pass`` (57, after drawing a card
that cannot be played; with ``may_keep_drawn_card`` also to keep a playable
one).
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from ..cards import JACK, KING, NO_CARD, NUM_STANDARD, QUEEN, RANK
from ..config import option
from .blocks import ActionSpace
from .defaults import Default, Known
from .determinizers.crazy_eights import CrazyEightsDeterminizer
from .encoding import OneHot
from .events import CORE_EVENTS, PILE_GAME_EVENTS, EventKind, declare_events
from .fields import ViewField
from .pile import PileConfig, PileEngine, pile_blocks, pile_fields, pile_memory_fields
from .table import Frame

PHASES = {"turn": "play", "suit": "choose suit", "after_draw": "after draw"}
#: the action blocks each decision offers (a reader without the view's phase derives it)
OFFERS = {"turn": ("play", "draw"), "suit": ("suit",), "after_draw": ("play", "pass")}


def _drawn_card(known: Known) -> str | None:
    """After a draw the only card play offered is the drawn card."""
    if known.values["phase"] != PHASES["after_draw"]:
        return None
    plays = [text.split()[1] for text in known.legal if text.startswith("play ")]
    return plays[0] if len(plays) == 1 else None


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


ACTIONS = ActionSpace(*pile_blocks(
    play_when="a card matching the top card's rank or the suit to follow, or any 8; after a "
              "draw only the drawn card",
    draw_when="your turn, while a card can be drawn (even if you could play)",
    pass_when="after drawing a playable card you keep; forced otherwise"))


class CrazyEightsGame(PileEngine):
    variant = "crazy_eights"
    Config = CrazyEightsConfig
    actions = ACTIONS
    points_by_rank = (1, 2, 3, 4, 5, 6, 7, 50, 9, 10, 20, 20, 20)
    attack_ranks: ClassVar[dict[int, int]] = {KING: 3, QUEEN: 2, JACK: 1}
    phases = PHASES
    offers = OFFERS
    determinizer = CrazyEightsDeterminizer
    view_fields = pile_fields(
        cards=NUM_STANDARD, total_cards=lambda config: 52 * config.num_decks,
        score_scale=lambda config: config.target_score, phases=tuple(PHASES.values()),
        own_encoded=[ViewField(
            "drawn_card", "card", "the card this seat just drew, while it decides whether to "
            "play it; else null (no other seat sees it)",
            f"s.agenda[-1].args[0] if s.agenda and s.agenda[-1].kind == 'after_draw' "
            f"else {NO_CARD}", OneHot(NUM_STANDARD),
            visibility="acting", feature="drawn",
            default=Default("during `after draw`, the card of the one `play` action in "
                            "`legal`; else `null`", _drawn_card))]
    ) + pile_memory_fields("crazy_eights", cards=NUM_STANDARD)

    event_kinds = declare_events(CORE_EVENTS, PILE_GAME_EVENTS, (
        EventKind("skip", "the player loses their turn (a Queen, a Jack with two players, a "
                  "King); arg: the cards a King made them draw, none otherwise",
                  "{player} draws {arg} and is skipped.", arg="count",
                  says_none="{player} is skipped."),
    ))

    config: CrazyEightsConfig

    # ---------------------------------------------------------------- turn
    def turn_legal(self, frame: Frame) -> list[int]:
        legal = self._playable_cards(self.state.hands[frame.seat])
        if self.can_draw():
            legal.append(self.DRAW)
        elif not legal:
            legal.append(self.PASS)
        return legal

    def turn_apply(self, frame: Frame, a: int) -> None:
        p = frame.seat
        if a == self.DRAW:
            self.state.stuck = 0
            self._note_draw(p)
            self.push("after_draw", p, self._draw_one(p))
        elif a == self.PASS:
            self._pass(p, moved=False)
        else:
            self._play(p, a)

    # ---------------------------------------------------------------- suit
    def suit_legal(self, frame: Frame) -> list[int]:
        return list(self.SUIT_IDS)

    def suit_apply(self, frame: Frame, a: int) -> None:
        p = frame.seat
        self._choose_suit(p, self.SUIT_IDS.index(a))
        self.push("turn", self.next_seat(p))

    # ---------------------------------------------------------------- after_draw
    def after_draw_legal(self, frame: Frame) -> list[int]:
        """A drawn card that fits is played (or kept, where the option allows); one that
        does not fit is followed by the pass."""
        drawn = frame.args[0]
        if not self.playable(drawn):
            return [self.PASS]
        return [drawn, self.PASS] if self.config.may_keep_drawn_card else [drawn]

    def after_draw_apply(self, frame: Frame, a: int) -> None:
        if a == self.PASS:
            self._pass(frame.seat, moved=True)
        else:
            self._play(frame.seat, a)

    # ---------------------------------------------------------------- effects
    def _play(self, p: int, c: int) -> None:
        self._play_card(p, c)
        if not self.state.hands[p]:
            self._end_hand([p])
        elif RANK[c] == 8:
            self.push("suit", p)
        else:
            self._after_play(p, RANK[c])

    def _pass(self, p: int, moved: bool) -> None:
        if not self._pass_turn(p, moved):
            self.push("turn", self.next_seat(p))

    def _after_play(self, p: int, rank: int) -> None:
        """The played card's effect, and whose turn it is next."""
        s = self.state
        if rank == JACK:
            if self.num_players == 2:
                self.log_event("skip", self.next_seat(p), NO_CARD, -1)
                self.push("turn", p)  # a reverse with two players is a skip
                return
            s.direction = -s.direction
            self.log_event("reverse", p, NO_CARD, s.direction)
            self.push("turn", self.next_seat(p))
        elif rank == QUEEN:
            self.log_event("skip", self.next_seat(p), NO_CARD, -1)
            self.push("turn", self.next_seat(p, 2))
        elif rank == KING:
            victim = self.next_seat(p)
            drawn = self._draw_many(victim, self.config.king_draw)
            self.log_event("skip", victim, NO_CARD, drawn)
            self.push("turn", self.next_seat(p, 2))
        else:
            self.push("turn", self.next_seat(p))

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
