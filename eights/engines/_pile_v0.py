"""Machinery shared by the single-discard-pile variants (Crazy, Livery, Baby-Eating Eights).

What is common to them lives here once: the deal (one card at a time from
the first player round), the stock and the discard pile, drawing (with or
without rebuilding the stock from the discards), seat arithmetic, hands that
end by going out or by a blocked table, match scoring across hands, the
per-seat :class:`PileView` and the text rendering. A variant adds its
actions' rules in ``_legal`` and ``_apply`` and its card points.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from typing import ClassVar

from ..actions import ActionSet
from ..cards import (
    NO_CARD,
    NUM_KINDS,
    NUM_STANDARD,
    RANK,
    SUIT,
    SUITS,
    card_text,
    hand_shown,
    parse_cards,
    standard_deck,
)
from ..config import ConfigError, GameConfig, option
from .base import Engine, PlayerView, State

# Action ids shared by the pile variants: "play <card>" is the card id.
SUIT_ACTION = NUM_STANDARD          # "suit C" .. "suit S" are 52..55
DRAW = NUM_STANDARD + 4             # 56
PASS = NUM_STANDARD + 5             # 57

# Phases: what the player to act is deciding. Every pile variant shares one list
# so observations encode the phase the same way everywhere.
PLAY, CHOOSE_SUIT, AFTER_DRAW, CALL_LAST_CARD, CHALLENGE = 0, 1, 2, 3, 4
PHASE_NAMES = ("play", "choose suit", "after draw", "last card", "challenge")
NO_SEAT = -1

#: deals :meth:`PileEngine.determinize` tries to give another seat to act a real choice
DEAL_TRIES = 50
#: (engine class, config) -> copies of each card id in its full deck
_DECK_COUNTS: dict[tuple[type, PileConfig], tuple[int, ...]] = {}


def pile_actions(*extra: str) -> ActionSet:
    """``play <card>`` for the 52 cards, ``suit C..S``, ``draw``, ``pass``, then ``extra``."""
    return ActionSet(
        [f"play {card_text(c)}" for c in range(NUM_STANDARD)]
        + [f"suit {s}" for s in SUITS]
        + ["draw", "pass", *extra]
    )


@dataclasses.dataclass(frozen=True)
class PileConfig(GameConfig):
    """Options every pile variant has; variants set their own defaults and bounds."""

    num_decks: int = option(1, doc="standard 52-card decks shuffled together", min=1, max=4)
    hand_size: int = option(7, doc="cards dealt to each player", min=1, max=20)
    match: bool = option(False, doc="play hands until the match ends instead of one hand")
    reward: str = option("win_loss", doc="end-of-game rewards: +1/-1, or points-based",
                         choices=("win_loss", "score"))
    max_turns: int = option(2000, doc="applied actions after which the game is truncated",
                            min=1)

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
class PileState(State):
    hands: list[list[int]]
    stock: list[int]            # face down, top card last
    discard: list[int]          # face up, top card last
    discard_counts: list[int]   # copies of each card id in the discard pile
    top: int
    suit: int                   # the suit to follow (the top card's, or an 8's choice)
    current: int
    direction: int              # +1 clockwise (increasing seats), -1 after a reverse
    phase: int
    drawn: int                  # the card just drawn, while deciding to play it
    pending: int                # cards the player to act must pick up (stacked 2s)
    scores: list[int]           # match totals
    hand_number: int
    first: int                  # who played first this hand
    stuck: int                  # consecutive turns in which no card could move
    offender: int = NO_SEAT     # a seat others may act against now (a missed call)
    #: per seat, the suit to follow and the top card's rank when the seat last chose to
    #: draw instead of playing, -1 once it plays again: public, and it tells of voids
    drew_suit: list[int] = dataclasses.field(default_factory=list)
    drew_rank: list[int] = dataclasses.field(default_factory=list)


@dataclasses.dataclass(slots=True)
class PileView(PlayerView):
    """A seat's view of a pile game: its hand and everything public."""

    top: int
    active_suit: int
    direction: int
    stock_size: int
    discard_counts: tuple[int, ...]
    pending_draw: int
    phase: str
    drawn_card: int          # the card this seat just drew, while deciding to play it
    hand_number: int
    offender: int            # the seat others may challenge now (a missed call), else -1
    first_player: int        # who played first this hand (a match's next hand starts after it)
    stuck: int               # consecutive turns in which no card could move (blocked at n)
    drew_on_suit: tuple[int, ...]  # per seat: suit to follow at its last draw since it played
    drew_on_rank: tuple[int, ...]  # per seat: top card's rank then (-1: played since)

    field_kinds: ClassVar[dict[str, str]] = {
        **PlayerView.field_kinds,
        "top": "card", "active_suit": "suit", "direction": "int", "stock_size": "count",
        "discard_counts": "card_counts", "pending_draw": "count", "phase": "phase",
        "drawn_card": "card", "hand_number": "count", "offender": "seat",
        "first_player": "seat", "stuck": "count", "drew_on_suit": "seat_suits",
        "drew_on_rank": "seat_ranks",
    }
    phase_names: ClassVar[tuple[str, ...]] = PHASE_NAMES


class PileEngine(Engine):
    """Single discard pile, stock, hands, match; see the module docstring."""

    Config: ClassVar[type[PileConfig]] = PileConfig
    #: the state dataclass; a variant with extra state subclasses PileState
    state_class: ClassVar[type[PileState]] = PileState
    private_events = frozenset({"draw"})
    #: rebuild the stock from the discards (under the top card) when it runs out
    reshuffle_when_empty: ClassVar[bool] = True
    #: points of a card left in hand, by rank (ace first)
    points_by_rank: ClassVar[tuple[int, ...]] = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
    #: ranks whose effect hurts the next player, weighted by how much (for heuristics)
    attack_ranks: ClassVar[dict[int, int]] = {}
    #: the rank that may go on any card (its player then names the suit)
    wild_rank: ClassVar[int] = 8
    event_texts: ClassVar[dict[str, str]] = {
        **Engine.event_texts,
        "deal": "Hand {number} is dealt; {player} plays first.",
        "starter": "The starter card is {card}.",
        "draw": "{player} draws {card}.",
        "reshuffle": "The discards are shuffled into a new stock of {arg} cards.",
        "play": "{player} plays {card}.",
        "suit": "{player} names {suit}.",
        "pass": "{player} passes.",
        "skip": "{player} is skipped.",
        "reverse": "Play changes direction: now {direction}.",
        "hand_over": "{player} wins the hand.",
        "score": "{player} scores {arg} points.",
    }

    state: PileState

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
        n = len(hands)
        hand_cards = [parse_cards(h) for h in hands]
        size = len(hand_cards[0])
        if any(len(h) != size for h in hand_cards):
            raise ConfigError("stacked_deck: every hand must have the same size")
        top = parse_cards([starter])[0] if not isinstance(starter, int) else starter
        stock_cards = parse_cards(stock)
        order: list[int] = []
        for i in range(size):
            for k in range(n):
                order.append(hand_cards[(first_player + k) % n][i])
        order.append(top)
        order += stock_cards
        rest = standard_deck(num_decks)
        for c in order:
            if c not in rest:
                raise ConfigError(f"stacked_deck: too many copies of {card_text(c)}")
            rest.remove(c)
        return order + rest

    # ------------------------------------------------------------ the deal
    def _start(self) -> None:
        n = self.num_players
        first = self.first_player_option
        if first is None:
            first = self.rng.randrange(n)
        self.state = self.state_class(
            hands=[[] for _ in range(n)], stock=[], discard=[], discard_counts=[0] * NUM_KINDS,
            top=NO_CARD, suit=-1, current=first, direction=1, phase=PLAY, drawn=NO_CARD,
            pending=0, scores=[0] * n, hand_number=0, first=first, stuck=0,
        )
        self._deal(first)

    def _deal(self, first: int) -> None:
        s = self.state
        n = self.num_players
        deck = self._new_deck()
        s.hands = [[] for _ in range(n)]
        pos = 0
        for _ in range(self.config.hand_size):
            for k in range(n):
                s.hands[(first + k) % n].append(deck[pos])
                pos += 1
        s.stock = deck[pos:][::-1]
        s.discard = []
        s.discard_counts = [0] * NUM_KINDS
        s.current = s.first = first
        s.direction = 1
        s.phase = PLAY
        s.drawn = NO_CARD
        s.pending = 0
        s.stuck = 0
        s.offender = NO_SEAT
        s.drew_suit = [-1] * n
        s.drew_rank = [-1] * n
        self._log.append(("deal", first, NO_CARD, s.hand_number))
        self._turn_up_starter()

    def _turn_up_starter(self) -> None:
        """Turn the top of the stock to start the discard pile (variants may add rules)."""
        s = self.state
        c = s.stock.pop()
        self._put_on_pile(c)
        self._log.append(("starter", -1, c, -1))

    def _put_on_pile(self, c: int) -> None:
        s = self.state
        s.discard.append(c)
        s.discard_counts[c] += 1
        s.top = c
        s.suit = SUIT[c]

    # ------------------------------------------------------------ moves
    @property
    def current_player(self) -> int:
        return -1 if (self.terminated or self.truncated) else self.state.current

    def next_seat(self, seat: int, steps: int = 1) -> int:
        return (seat + steps * self.state.direction) % self.num_players

    def playable(self, c: int) -> bool:
        """Whether ``c`` may go on the pile now: an 8, or the top card's rank, or the suit."""
        s = self.state
        r = RANK[c]
        return r == self.wild_rank or SUIT[c] == s.suit or r == RANK[s.top]

    def _playable_cards(self, hand: list[int]) -> list[int]:
        s = self.state
        suit, ranks = s.suit, (self.wild_rank, RANK[s.top])
        out: list[int] = []
        for c in hand:
            if (RANK[c] in ranks or SUIT[c] == suit) and c not in out:
                out.append(c)
        out.sort()
        return out

    def can_draw(self) -> bool:
        s = self.state
        return bool(s.stock) or (self.reshuffle_when_empty and len(s.discard) > 1)

    def _draw_one(self, seat: int) -> int:
        """Move the stock's top card to ``seat``'s hand (rebuilding the stock if allowed).

        Returns the card, or ``NO_CARD`` when there is nothing to draw.
        """
        s = self.state
        if not s.stock:
            if not (self.reshuffle_when_empty and len(s.discard) > 1):
                return NO_CARD
            self._rebuild_stock()
        c = s.stock.pop()
        s.hands[seat].append(c)
        self._log.append(("draw", seat, c, -1))
        return c

    def _draw_many(self, seat: int, count: int) -> int:
        drawn = 0
        for _ in range(count):
            if self._draw_one(seat) == NO_CARD:
                break
            drawn += 1
        return drawn

    def _rebuild_stock(self) -> None:
        """Shuffle every discard but the top card into a new stock."""
        s = self.state
        stock = s.discard[:-1]
        self.rng.shuffle(stock)
        s.stock = stock
        s.discard = [s.top]
        s.discard_counts = [0] * NUM_KINDS
        s.discard_counts[s.top] = 1
        self._log.append(("reshuffle", -1, NO_CARD, len(stock)))

    def _play_card(self, seat: int, c: int) -> None:
        s = self.state
        s.hands[seat].remove(c)
        self._put_on_pile(c)
        s.stuck = 0
        s.drew_suit[seat] = s.drew_rank[seat] = -1
        self._log.append(("play", seat, c, -1))

    def _note_draw(self, seat: int) -> None:
        """Remember what ``seat`` did not play on: the table sees it draw instead."""
        s = self.state
        s.drew_suit[seat] = s.suit
        s.drew_rank[seat] = RANK[s.top]

    def _choose_suit(self, seat: int, suit: int) -> None:
        self.state.suit = suit
        self._log.append(("suit", seat, NO_CARD, suit))

    def _pass_turn(self, seat: int, moved: bool) -> bool:
        """Log a pass; count turns in which nothing could move. True if the table is blocked."""
        s = self.state
        self._log.append(("pass", seat, NO_CARD, -1))
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
        self._log.append(("hand_over", winners[0] if len(winners) == 1 else -1, NO_CARD,
                          int(blocked)))
        for p in range(self.num_players):
            self._log.append(("score", p, NO_CARD, points[p]))
        if not self.config.match:
            self._finish(winners)
            return
        match_winners = self._match_winners()
        if match_winners:
            self._finish(match_winners)
            return
        s.hand_number += 1
        self._deal((s.first + 1) % self.num_players)

    def _finish(self, winners: list[int]) -> None:
        self.terminated = True
        self.winners = tuple(sorted(winners))
        self._log.append(("game_over", -1, NO_CARD, len(self.winners)))

    def _score_hand(self, winners: list[int]) -> list[int]:
        """Points each seat gets for this hand."""
        raise NotImplementedError

    def _match_winners(self) -> list[int]:
        """The match's winners once it is decided, else an empty list."""
        raise NotImplementedError

    def final_scores(self) -> tuple[int, ...]:
        return tuple(self.state.scores)

    def _score_returns(self) -> list[float]:
        """Points relative to the table average, scaled to about +-1 per 100 points."""
        scores = self.state.scores
        mean = sum(scores) / len(scores)
        sign = -1.0 if self.low_score_wins else 1.0
        return [sign * (x - mean) / 100.0 for x in scores]

    # ------------------------------------------------------------ views
    def view(self, seat: int) -> PileView:
        if not 0 <= seat < self.num_players:
            raise ValueError(
                f"seat {seat!r} is not at this table: seats are 0..{self.num_players - 1}")
        s = self.state
        over = self.terminated or self.truncated
        to_act = seat == s.current and not over
        hand = s.hands[seat][:]
        hand.sort()  # ids are in display order (cards.sort_key)
        return PileView(
            self.variant, self.config, seat, -1 if over else s.current, tuple(hand),
            tuple(map(len, s.hands)), tuple(s.scores),
            tuple(self._legal_now) if to_act else (), self.turn, over,
            self._history(seat),
            s.top, s.suit, s.direction, len(s.stock), tuple(s.discard_counts), s.pending,
            PHASE_NAMES[s.phase], s.drawn if (to_act and s.phase == AFTER_DRAW) else NO_CARD,
            s.hand_number, s.offender, s.first, s.stuck, tuple(s.drew_suit),
            tuple(s.drew_rank),
        )

    # ------------------------------------------------------------ determinization
    @classmethod
    def determinize(cls, view: PileView, rng: random.Random,
                    infer_from_draws: bool = False) -> PileEngine:
        """A new engine consistent with ``view`` (see :meth:`Engine.determinize`).

        The hidden pool is the full deck minus the seat's hand and the discard
        pile; the other seats get random hands of their sizes from it and the
        rest is the stock, in random order. The discard pile holds the view's
        counts with ``view.top`` last (the order below the top is never read:
        a rebuilt stock is shuffled). Every other state field is public and
        comes from the view. The new engine's event log and decisions start
        empty: its past is not needed to play on, so its ``history()`` and
        ``record()`` cover only what is played from the determinized position.

        When another seat is to act, the engine asked it a real question (two
        or more legal actions, never one), so a deal that leaves it a single
        legal action is dealt again, up to :data:`DEAL_TRIES` times; after
        that the engine applies the forced move as always and the position
        moves on from the view's. When the seat itself is to act its own hand
        fixes its choices, and the new engine's legal actions equal the view's.
        """
        if view.variant != cls.variant:
            raise ValueError(f"{cls.variant}: cannot determinize a {view.variant} view")
        if view.game_over:
            raise ValueError(f"{cls.variant}: the game in this view is over; "
                             f"there is nothing to determinize")
        engine = cls._unstarted(view.config, rng.getrandbits(63))
        engine.turn = view.turn
        for _ in range(DEAL_TRIES):
            engine.state = engine._state_from_view(view, rng)
            if infer_from_draws:
                engine._respect_draws(view, rng)
            engine._fill_hidden_fields(view, rng)
            if view.legal_actions or len(engine._legal()) > 1:
                break
        engine._settle()
        if view.legal_actions and engine.legal_actions() != view.legal_actions:
            raise ValueError(
                f"{cls.variant}: the determinized position allows "
                f"{', '.join(engine.legal_texts())} but the view lists "
                f"{', '.join(engine.actions.texts_of(view.legal_actions))}")
        return engine

    def _state_from_view(self, view: PileView, rng: random.Random) -> PileState:
        """The view's public fields and own hand, the hidden cards dealt from ``rng``."""
        hands, stock = self._deal_hidden(view, rng)
        return self.state_class(
            hands=hands, stock=stock, discard=self._discard_from_view(view),
            discard_counts=list(view.discard_counts), top=view.top, suit=view.active_suit,
            current=view.current_player, direction=view.direction,
            phase=PHASE_NAMES.index(view.phase), drawn=view.drawn_card,
            pending=view.pending_draw, scores=list(view.scores),
            hand_number=view.hand_number, first=view.first_player, stuck=view.stuck,
            offender=view.offender, drew_suit=list(view.drew_on_suit),
            drew_rank=list(view.drew_on_rank),
        )

    def _respect_draws(self, view: PileView, rng: random.Random) -> None:
        """Swap out of each opponent's hand the cards it could have played when it drew.

        The seat's view records what an opponent drew on (the suit to follow
        and the top rank) until it plays again. Its hand then held no card of
        that suit or rank and no wild card, except the card it drew, which any
        one of its hidden cards may be (the deal is random, so its last one).
        Each such card is swapped with a random stock card that fits the
        record, while there is one: hand sizes and the pool stay as they were.
        """
        s = self.state
        wild = self.wild_rank
        for p, suit in enumerate(view.drew_on_suit):
            if p == view.seat or suit < 0:
                continue
            rank = view.drew_on_rank[p]
            hand, stock = s.hands[p], s.stock
            free = [i for i, c in enumerate(stock)
                    if SUIT[c] != suit and RANK[c] != rank and RANK[c] != wild]
            rng.shuffle(free)
            for k in range(len(hand) - 1):
                c = hand[k]
                if (SUIT[c] == suit or RANK[c] == rank or RANK[c] == wild) and free:
                    i = free.pop()
                    hand[k], stock[i] = stock[i], c

    def _deck_counts(self) -> tuple[int, ...]:
        """Copies of each card id in the full deck, computed once per config (search asks often)."""
        key = (type(self), self.config)
        counts = _DECK_COUNTS.get(key)
        if counts is None:
            tally = [0] * NUM_KINDS
            for c in self.full_deck():
                tally[c] += 1
            counts = _DECK_COUNTS[key] = tuple(tally)
        return counts

    def _hidden_pool(self, view: PileView) -> list[int]:
        """The cards ``view.seat`` cannot see: the deck minus its hand and the discards.

        Raises ``ValueError`` when the view's counts do not fit the deck, so a
        corrupt or foreign view fails here rather than deep inside a search.
        """
        counts = [k - d for k, d in zip(self._deck_counts(), view.discard_counts, strict=True)]
        for c in view.hand:
            counts[c] -= 1
        if min(counts) < 0:
            c = counts.index(min(counts))
            raise ValueError(
                f"{self.variant}: the view shows {-counts[c]} more {card_text(c)} than "
                f"{self.describe_deck()} holds (hand and discard pile together)")
        pool = [c for c, k in enumerate(counts) if k for _ in range(k)]
        sizes = view.hand_sizes
        hidden = sum(sizes) - sizes[view.seat] + view.stock_size
        if len(view.hand) != sizes[view.seat] or len(pool) != hidden:
            raise ValueError(
                f"{self.variant}: the view is not consistent with {self.describe_deck()}: "
                f"{len(pool)} cards are hidden from seat {view.seat} but the other hands "
                f"and the stock hold {hidden} (its own hand: {len(view.hand)} cards, "
                f"hand size {sizes[view.seat]})")
        return pool

    def _known_hands(self, view: PileView
                     ) -> tuple[Sequence[tuple[int, int]], Mapping[int, frozenset[int]]]:
        """What ``view.seat``'s own history proves about the other hands.

        Returns ``(placed, barred)``: (card, seat) pairs known to be in that seat's hand,
        and per seat the ranks it is known not to hold. The shared rules move no card
        between hands unseen, so nothing; a variant with swaps or rounds that reveal hands
        (Baby-Eating Eights) says more, and :meth:`_deal_hidden` deals within it.
        """
        return (), {}

    def _deal_hidden(self, view: PileView, rng: random.Random) -> tuple[list[list[int]], list[int]]:
        """The hands (the seat's own as in the view) and the stock, hidden cards shuffled.

        Cards known to be in a hand (:meth:`_known_hands`) are put there first, seats
        barred from some ranks are dealt none of them while the pool allows, and the
        rest is dealt at random; what is left is the stock.
        """
        placed, barred = self._known_hands(view)
        pool = self._hidden_pool(view)
        sizes, seat = view.hand_sizes, view.seat
        hands: list[list[int]] = [[] for _ in sizes]
        hands[seat] = list(view.hand)
        for c, p in placed:
            if p != seat and len(hands[p]) < sizes[p] and c in pool:
                pool.remove(c)
                hands[p].append(c)
        rng.shuffle(pool)
        for p in sorted(barred):
            ranks = barred[p]
            take = [i for i, c in enumerate(pool) if RANK[c] not in ranks]
            for i in reversed(take[:sizes[p] - len(hands[p])]):
                hands[p].append(pool.pop(i))
        for p, size in enumerate(sizes):
            if p != seat and len(hands[p]) < size:
                need = size - len(hands[p])
                hands[p] += pool[:need]
                del pool[:need]
        return hands, pool

    def _discard_from_view(self, view: PileView) -> list[int]:
        """The discard pile from its counts, the view's top card last."""
        counts = list(view.discard_counts)
        if counts[view.top] < 1:
            raise ValueError(f"{self.variant}: the top card {card_text(view.top)} is not "
                             f"among the view's discard counts")
        counts[view.top] -= 1
        return [c for c, k in enumerate(counts) for _ in range(k)] + [view.top]

    def _fill_hidden_fields(self, view: PileView, rng: random.Random) -> None:
        """Set state the view does not show. Variants with more such state extend this.

        Here: another seat deciding about the card it just drew. That card is
        one of its hand's, a playable one if it holds any: the engine only
        asks about a card that could be played (and :meth:`determinize` deals
        again when the hand holds none).
        """
        s = self.state
        if s.phase == AFTER_DRAW and s.drawn == NO_CARD:
            hand = s.hands[s.current]
            playable = [c for c in hand if self.playable(c)]
            s.drawn = rng.choice(playable or hand)

    def render(self, seat: int | None = None) -> str:
        s = self.state
        lines = [f"{self.variant}  hand {s.hand_number + 1}  turn {self.turn}"
                 + ("  (game over)" if self.game_over else "")]
        lines.append(
            f"top {card_text(s.top)}  suit {SUITS[s.suit]}  stock {len(s.stock)}  "
            f"direction {'clockwise' if s.direction == 1 else 'counter-clockwise'}"
            + (f"  pending draw {s.pending}" if s.pending else "")
        )
        for p in range(self.num_players):
            mark = ">" if p == self.current_player else " "
            cards = sorted(s.hands[p])
            shown = hand_shown(cards, seat is None or seat == p)
            lines.append(f"{mark} player {p}: {shown}  (score {s.scores[p]})")
        if self.game_over:
            lines.append("winners: " + ", ".join(f"player {w}" for w in self.winners)
                         if self.winners else "truncated")
        elif seat is None or seat == self.current_player:
            lines.append("legal: " + ", ".join(self.legal_texts()))
        return "\n".join(lines)
