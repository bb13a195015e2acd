"""The single-discard-pile games on the table core (Crazy, Livery, Baby-Eating Eights).

What they share lives here once, on :class:`~eights.engines.table.TableEngine`
(which holds what every variant shares: dealing hands, drawing several cards,
the end of the game): one stock and one
discard pile (pile 0), drawing (with or without rebuilding the stock from the
discards), hands that end by going out or by a blocked table, match scoring
across hands, the view fields every one of them has (:func:`pile_fields`),
the common action blocks (:func:`pile_blocks`), the rule questions
determinization asks (:meth:`PileEngine.draw_excludes`) and the text
rendering; the positions dealt from views are
:class:`~eights.engines.determinizers.pile.PileDeterminizer`'s. A variant
adds its frames' handlers (``legal_turn``, ``apply_turn``, ...), its own
fields and blocks, and its card points.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ..cards import (
    NO_CARD,
    NUM_KINDS,
    NUM_STANDARD,
    RANK,
    SUIT,
    SUITS,
    card_text,
    hand_shown,
    standard_deck,
)
from ..config import ConfigError, GameConfig, option
from .blocks import Block, cards, suits
from .defaults import (
    Default,
    around_the_table,
    constant,
    in_a_match,
    last_dealer,
    last_event_direction,
    per_seat,
    stock_left,
)
from .determinizers.pile import PileDeterminizer
from .encoding import CardCounts, CardList, Choice, Flag, OneHot, PerSeat, Scaled, Seat
from .events import CORE_EVENTS, PILE_GAME_EVENTS, declare_events
from .fields import ViewField, core
from .memory import memory_fields
from .table import NO_SEAT, Frame, TableEngine, TableState, empty_piles

__all__ = ["NO_SEAT", "PileConfig", "PileEngine", "PileState", "pile_blocks", "pile_fields"]

#: (engine class, config) -> copies of each card id in its full deck
_DECK_COUNTS: dict[tuple[type, GameConfig], tuple[int, ...]] = {}
_PENDING_SCALE = 20.0


def pile_blocks(play_when: str, draw_when: str, pass_when: str) -> list[Block]:
    """``play <card>`` for the 52 standard cards (the id is the card id), ``suit C..S``,
    ``draw`` and ``pass``: the action blocks every pile variant starts with."""
    return [
        Block("play", "play {card}", cards(range(NUM_STANDARD)), when=play_when),
        Block("suit", "suit {suit}", suits(), when="right after playing a wild card"),
        Block("draw", "draw", when=draw_when),
        Block("pass", "pass", when=pass_when),
    ]


@dataclasses.dataclass(frozen=True)
class PileConfig(GameConfig):
    """Options every pile variant has; variants set their own defaults and bounds."""

    num_decks: int = option(1, doc="standard 52-card decks shuffled together", min=1, max=4)
    hand_size: int = option(7, doc="cards dealt to each player", min=1, max=20)
    match: bool = option(False, doc="play hands until the match ends instead of one hand")
    reward: str = option("win_loss", doc="end-of-game rewards: +1/-1, or points-based",
                         choices=("win_loss", "score"))
    max_turns: int = option(2000, doc="actions applied in a hand, forced ones included, after "
                                     "which the game is truncated", min=1)

    def check(self) -> None:
        cards = 52 * self.num_decks
        need = self.num_players * self.hand_size + 1
        if need > cards:
            raise ConfigError(
                f"{self.variant}: num_players={self.num_players} with hand_size={self.hand_size} "
                f"needs {need} cards but num_decks={self.num_decks} holds {cards}; "
                f"use more decks, fewer players or smaller hands"
            )


@dataclasses.dataclass(slots=True)
class PileState(TableState):
    """The table with one discard pile, and what the pile games track besides."""

    stuck: int = 0              # consecutive turns in which no card could move
    #: per seat, the suit to follow and the top card's rank when the seat last chose to
    #: draw instead of playing, -1 once it plays again: public, and it tells of voids
    drew_suit: list[int] = dataclasses.field(default_factory=list)
    drew_rank: list[int] = dataclasses.field(default_factory=list)

    # The one pile, by the names the rules use.
    @property
    def discard(self) -> list[int]:
        return self.piles[0]

    @property
    def discard_counts(self) -> bytearray:
        return self.pile_counts[0]

    @property
    def top(self) -> int:
        return self.piles[0][-1]

    @property
    def suit(self) -> int:
        return self.suits[0]


@functools.cache
def _cards_that_fit(wild_rank: int) -> tuple[tuple[frozenset[int], ...], ...]:
    """``[suit][rank]``: the card ids that :meth:`PileEngine.playable` allows on a top card
    of ``rank`` with ``suit`` to follow (an 8, or the rank, or the suit). Suit -1 (none
    named) is the last row, so the suit to follow indexes it as it is."""
    suits = (*range(len(SUITS)), -1)
    return tuple(
        tuple(frozenset(c for c in range(len(RANK))
                        if RANK[c] in (wild_rank, rank) or SUIT[c] == suit)
              for rank in range(max(RANK) + 1))
        for suit in suits)


# ------------------------------------------------------------------ shared view fields
def _phase(engine: PileEngine, seat: int) -> str:
    """The phase of the topmost decision on the agenda (the idle one once nothing is)."""
    phases = engine.phases
    for frame in reversed(engine.state.agenda):
        if frame.kind in phases:
            return phases[frame.kind]
    return phases[engine.idle_frame]


def _decks(config: GameConfig) -> int:
    """Copies of each card in play: the card-count features are divided by it."""
    return config.num_decks


#: the match bookkeeping decides what follows a hand's end (who deals, whether the match ends)
_IN_A_MATCH = in_a_match("`match` is true", lambda config: getattr(config, "match", False))
_IN_A_MATCH_UNLESS_HISTORY = in_a_match(
    "`match` is true", lambda config: getattr(config, "match", False), unless_history=True)


def pile_fields(*, cards: int, total_cards: Any, score_scale: Any, phases: Sequence[str],
                own: Sequence[ViewField] = (), own_encoded: Sequence[ViewField] = (),
                match: bool = True, counted_match: bool = False,
                phase_options: Mapping[str, str] | None = None) -> tuple[ViewField, ...]:
    """The view fields of a pile variant, in view and observation order.

    ``own`` are the variant's extra fields after the shared public ones (read
    by the protocol and determinization); ``own_encoded`` its extra encoded
    features, placed before the per-seat parts. ``cards`` is how many card ids
    the encodings span, ``total_cards`` (a number or a function of the config)
    scales hand and stock sizes, ``score_scale`` the scores. ``match``: the
    variant plays hands in a match (its views count them and its observation
    holds the scores; without matches scores come only at the end, so they are
    not encoded); ``counted_match``: a match is a number of hands, so the hand number
    decides when it ends. ``phase_options`` maps a phase only an option reaches to that option:
    its feature is there only while the option is on (see
    :class:`~eights.engines.encoding.Choice`).
    """
    return (
        core("hand", CardList(cards, _decks), "copies of each card in the observer's hand"),
        ViewField("top", "card", "the top card of the discard pile",
                  "s.piles[0][-1]", OneHot(cards)),
        ViewField("active_suit", "suit", "the suit to follow: the top card's, or the suit "
                  "named for a wild card", "s.suits[0]", OneHot(4),
                  feature="suit"),
        ViewField("phase", "phase", "what the player to act is deciding", _phase,
                  Choice(tuple(phases), phase_options or {}), names=tuple(phases)),
        *own_encoded,
        ViewField("direction", "int", "1 while play goes up the seats, -1 after a reverse",
                  "s.direction", Flag(1), default=last_event_direction(1),
                  required_while=around_the_table()),
        core("current_player", Seat(), "who acts now", feature="to_act"),
        core("hand_sizes", PerSeat(Scaled(total_cards), others=True),
             "each opponent's hand size / total cards"),
        ViewField("stock_size", "count", "cards left in the face-down stock",
                  "len(s.stock)", Scaled(total_cards), feature="stock",
                  default=stock_left(
                      "the deck's cards less the hands (`hand_sizes`) and the discard pile "
                      "(`discard_counts`); send it only with `discard_counts`",
                      lambda known: sum(known.values["hand_sizes"])
                      + sum(known.values["discard_counts"]))),
        ViewField("discard_counts", "card_counts", "every card in the discard pile (the top one "
                  "included) and its copies",
                  "bytes(s.pile_counts[0])", CardCounts(cards, _decks),
                  feature="discards", default=Default(
                      "the top card alone: `{\"<top>\": 1}`",
                      lambda known: {} if known.top < 0 else {card_text(known.top): 1})),
        core("scores", PerSeat(Scaled(score_scale)) if match else None, "match scores",
             default=per_seat(0), required_while=_IN_A_MATCH if match else None),
        *([ViewField("hand_number", "count", "hands played before this one in a match (0 in a "
                     "single hand)",
                     "s.hand_number", default=constant(0),
                     required_while=_IN_A_MATCH if counted_match else None)]
          if match else []),
        ViewField("first_player", "seat", "who played first this hand", "s.first",
                  default=last_dealer(),
                  required_while=_IN_A_MATCH_UNLESS_HISTORY if match else None),
        ViewField("stuck", "count", "turns in a row in which nobody could move (the hand is "
                  "blocked at one per player)",
                  "s.stuck", default=constant(0)),
        *own,
        ViewField("drew_on_suit", "seat_suits", "per seat: the suit to follow when it last "
                  "drew instead of playing, null once it has played since",
                  "tuple(s.drew_suit)", PerSeat(OneHot(4), others=True),
                  feature="drew_suit", default=per_seat(None)),
        ViewField("drew_on_rank", "seat_ranks", "per seat: the top card's rank then (A to K), "
                  "or null", "tuple(s.drew_rank)",
                  PerSeat(OneHot(13, first=1), others=True), feature="drew_rank",
                  default=per_seat(None)),
    )


def pile_memory_fields(variant: str, *, cards: int, known: bool = False
                       ) -> tuple[ViewField, ...]:
    """What a seat remembers of a single-pile hand (:func:`~eights.engines.memory.memory_fields`):
    the face-up cards are the discard pile's."""
    return memory_fields(variant, cards=cards, copies=_decks, suits=4, known=known,
                         table=lambda known: known.values["discard_counts"])


def pending_field() -> ViewField:
    """Cards the player to act must pick up unless they answer (stacked 2s)."""
    return ViewField("pending_draw", "count", "cards the player to act must pick up (stacked "
                     "2s)", "s.pending[0]",
                     Scaled(_PENDING_SCALE), feature="pending")


class PileEngine(TableEngine):
    """One discard pile, a stock, hands, a match; see the module docstring."""

    Config: ClassVar[type[PileConfig]] = PileConfig
    #: the state dataclass; a variant with extra state subclasses PileState
    state_class: ClassVar[type[PileState]] = PileState
    #: rebuild the stock from the discards (under the top card) when it runs out
    reshuffle_when_empty: ClassVar[bool] = True
    #: points of a card left in hand, by rank (ace first)
    points_by_rank: ClassVar[tuple[int, ...]] = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
    #: ranks whose effect hurts the next player, weighted by how much (for heuristics)
    attack_ranks: ClassVar[dict[int, int]] = {}
    #: the rank that may go on any card (its player then names the suit)
    wild_rank: ClassVar[int] = 8
    #: ``[suit][rank]`` -> the cards that fit there (made from :attr:`wild_rank`)
    _cards_that_fit: ClassVar[tuple[tuple[frozenset[int], ...], ...]] = _cards_that_fit(8)
    event_kinds = declare_events(CORE_EVENTS, PILE_GAME_EVENTS)
    determinizer = PileDeterminizer

    state: PileState

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._cards_that_fit = _cards_that_fit(cls.wild_rank)
        if hasattr(cls, "actions"):
            actions = cls.actions
            cls.DRAW = actions["draw"].id()
            cls.PASS = actions["pass"].id()
            cls.SUIT_IDS = tuple(actions["suit"].id(k) for k in range(4))

    DRAW: ClassVar[int]
    PASS: ClassVar[int]
    SUIT_IDS: ClassVar[tuple[int, ...]]

    # ------------------------------------------------------------ decks
    def full_deck(self) -> list[int]:
        return standard_deck(self.config.num_decks)

    def describe_deck(self) -> str:
        n = self.config.num_decks
        return "one 52-card deck" if n == 1 else f"{n} 52-card decks"

    @classmethod
    def stacked_deck(cls, hands: Sequence[Sequence[int | str] | str], starter: int | str,
                     stock: Sequence[int | str] | str = (), *, num_decks: int = 1,
                     first_player: int = 0) -> list[int]:
        """The deck order that deals exactly ``hands``, turns up ``starter``, and leaves
        ``stock`` (top first) on top of the stock, the rest of the cards below it in id order.

        Scenario tests write positions this way instead of computing the deal.
        """
        return cls._stack(hands, [starter], stock, standard_deck(num_decks), first_player)

    # ------------------------------------------------------------ the deal
    def _new_state(self, first: int) -> PileState:
        n = self.num_players
        return self.state_class(
            hands=[[] for _ in range(n)], **empty_piles(1, len(self.cardset)),
            zones=[[] for _ in range(n)], agenda=[], direction=1, scores=[0] * n,
            hand_number=0, first=first, stuck=0, drew_suit=[-1] * n, drew_rank=[-1] * n)

    def _deal(self, first: int) -> None:
        """Deal a hand: ``hand_size`` cards each, one at a time from ``first``; the rest is
        the stock; ``first``'s turn is on the agenda; the starter is turned up."""
        s = self.state
        n = self.num_players
        self._deal_hands(self._new_deck(), first, self.config.hand_size)
        self.set_pile(0, [])
        s.suits[0], s.pending[0], s.owners[0] = -1, 0, NO_SEAT
        s.first = first
        s.direction = 1
        s.stuck = 0
        s.drew_suit = [-1] * n
        s.drew_rank = [-1] * n
        s.agenda = [Frame("turn", first)]
        self.log_event("deal", first, NO_CARD, s.hand_number)
        self._turn_up_starter()

    def _turn_up_starter(self) -> None:
        """Turn the top of the stock to start the discard pile (variants may add rules)."""
        c = self.move(("stock",), ("pile", 0))
        self.log_event("starter", -1, c, -1)

    # ------------------------------------------------------------ moves
    def playable(self, c: int) -> bool:
        """Whether ``c`` may go on the pile now: an 8, or the top card's rank, or the suit."""
        s = self.state
        r = RANK[c]
        return r == self.wild_rank or SUIT[c] == s.suits[0] or r == RANK[s.piles[0][-1]]

    def _playable_cards(self, hand: list[int]) -> list[int]:
        """The distinct cards of ``hand`` that :meth:`playable` allows, ascending."""
        s = self.state
        fits = self._cards_that_fit[s.suits[0]][RANK[s.piles[0][-1]]]
        return sorted(fits.intersection(hand))

    def can_draw(self) -> bool:
        s = self.state
        return bool(s.stock) or (self.reshuffle_when_empty and len(s.piles[0]) > 1)

    def _draw_one(self, seat: int) -> int:
        """Move the stock's top card to ``seat``'s hand (rebuilding the stock if allowed).

        Returns the card, or ``NO_CARD`` when there is nothing to draw.
        """
        s = self.state
        if not s.stock:
            if not (self.reshuffle_when_empty and len(s.piles[0]) > 1):
                return NO_CARD
            self._rebuild_stock()
        return self.move(("stock",), ("hand", seat), event="draw", player=seat)

    def _rebuild_stock(self) -> None:
        """Shuffle every discard but the top card into a new stock."""
        s = self.state
        top = s.piles[0][-1]
        stock = s.piles[0][:-1]
        self.rng.shuffle(stock)
        s.stock = stock
        self.set_pile(0, [top])
        self.log_event("reshuffle", -1, NO_CARD, len(stock))

    def _play_card(self, seat: int, c: int) -> None:
        s = self.state
        self.move(("hand", seat), ("pile", 0), c, "play", seat)
        s.owners[0] = seat
        s.stuck = 0
        s.drew_suit[seat] = s.drew_rank[seat] = -1

    def _note_draw(self, seat: int) -> None:
        """Remember what ``seat`` did not play on: the table sees it draw instead."""
        s = self.state
        s.drew_suit[seat] = s.suits[0]
        s.drew_rank[seat] = RANK[s.piles[0][-1]]

    def _choose_suit(self, seat: int, suit: int) -> None:
        self.state.suits[0] = suit
        self.log_event("suit", seat, NO_CARD, suit)

    def _pass_turn(self, seat: int, moved: bool) -> bool:
        """Log a pass; count turns in which nothing could move. True if the table is blocked."""
        s = self.state
        self.log_event("pass", seat, NO_CARD, -1)
        s.stuck = 0 if moved else s.stuck + 1
        if s.stuck >= self.num_players:
            self._end_hand(self._blocked_winners(), blocked=True)
            return True
        return False

    # ------------------------------------------------------------ scoring
    def card_points(self, c: int) -> int:
        return self.points_by_rank[RANK[c] - 1]

    def hand_points(self, seat: int) -> int:
        return sum(self.card_points(c) for c in self.state.hands[seat])

    def _blocked_winners(self) -> list[int]:
        points = [self.hand_points(p) for p in range(self.num_players)]
        best = min(points)
        return [p for p in range(self.num_players) if points[p] == best]

    def _end_hand(self, winners: list[int], blocked: bool = False) -> None:
        """Score a finished hand, then end the game or deal the next hand of the match."""
        s = self.state
        points = self._score_hand(winners)
        for p in range(self.num_players):
            s.scores[p] += points[p]
        self.log_event("hand_over", winners[0] if len(winners) == 1 else -1, NO_CARD,
                       int(blocked))
        for p in range(self.num_players):
            self.log_event("score", p, NO_CARD, points[p])
        if not self.config.match:
            self._finish(winners)
            return
        match_winners = self._match_winners()
        if match_winners:
            self._finish(match_winners)
            return
        self._count_next_hand()
        self._deal((s.first + 1) % self.num_players)

    def _score_hand(self, winners: list[int]) -> list[int]:
        """Points each seat gets for this hand."""
        raise NotImplementedError

    def _match_winners(self) -> list[int]:
        """The match's winners once it is decided, else an empty list."""
        raise NotImplementedError

    # ------------------------------------------------------------ what a determinizer asks
    def deck_counts(self) -> tuple[int, ...]:
        """Copies of each card id in the full deck, computed once per config (search asks often)."""
        key = (type(self), self.config)
        counts = _DECK_COUNTS.get(key)
        if counts is None:
            tally = [0] * NUM_KINDS
            for c in self.full_deck():
                tally[c] += 1
            counts = _DECK_COUNTS[key] = tuple(tally)
        return counts

    def draw_excludes(self, suit: int, rank: int, locked: bool = False) -> frozenset[int]:
        """The cards a seat that drew on ``suit`` to follow and a top card of ``rank`` is
        taken not to have held: those it could have played instead (``infer_from_draws``
        in determinization; ``locked`` is Baby-Eating Eights')."""
        return self._cards_that_fit[suit][rank]

    def render(self, seat: int | None = None) -> str:
        s = self.state
        lines = [f"{self.variant}  hand {s.hand_number + 1}  turn {self.turn}"
                 + ("  (game over)" if self.game_over else "")]
        lines.append(
            f"top {card_text(s.top)}  suit {SUITS[s.suit]}  stock {len(s.stock)}  "
            f"direction {'clockwise' if s.direction == 1 else 'counter-clockwise'}"
            + (f"  pending draw {s.pending[0]}" if s.pending[0] else "")
        )
        for p in range(self.num_players):
            mark = ">" if p == self.current_player else " "
            cards = sorted(s.hands[p])
            shown = hand_shown(cards, seat is None or seat == p)
            lines.append(f"{mark} player {p}: {shown}  (score {s.scores[p]})")
        return "\n".join(lines + self._render_outcome(seat))
