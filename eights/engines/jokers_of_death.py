"""Jokers of Death (Insane Eights), as José Luis Adrião's rules give it.

Two or more players, two 52-card decks and two Jokers (more decks as an
option), 20 cards each, three discard piles turned up from the stock. Play
goes counter-clockwise from the dealer's right, and the deal passes on with
it. A turn puts one card on each live pile, matching its top card's suit or
rank; 8s are wild (their player names the pile's suit) except directly on a
2 or a 4 of Spades of the previous player. A player whose hand cannot match
every pile still to play, a card of its own to each, draws until it can (or
until the stock is empty: then they pass).

Special cards, each pinned by a test (``docs/rules/jokers_of_death.md``):

====  ==================================================================
2     the next player may only answer the previous player's 2s, with a 2 on
      each, or take two cards per consecutive 2 for each unanswered pile
4S    the same, with a 4 of Spades or a Joker; taking costs 4, 16 after two
      in succession (4x4)
Jok.  only on a 4 of Spades of the immediately previous player (never your
      own): the pile is killed and leaves play; on two 4s of Spades its
      player also takes four
8     wild, names the suit of its pile
10    its player reverses the direction of play, or keeps it
J, K  must be followed on the same pile by a card of its suit or an 8
      (chaining); a player unable or unwilling draws until a card that fits
      comes, and plays it
A     each Ace skips one following player when the turn ends
====  ==================================================================

A player left with one card knocks (an action; ``auto_knock`` does it for
them); the hand ends when a player who knocked plays their last card. A
player holding two Jokers may stop the hand at any of their decisions.
Everyone then scores the cards in their hand (2-10 face value, J/Q/K 10,
A 20, Joker 50). A ``match`` ends when a player reaches ``target_score``
(105): they lose and the lowest total wins (a tie at the top deals again).
Options add the Hand Switching (the 3 of Diamonds passes every hand on),
Five Pile (four players, four decks, four Jokers, five piles), Aces (three
Aces on top send the piles back into the stock) and Free Discard Pile (a
player may pick up a pile and play it out on the others) variants.

What is pending is the agenda's frames (:mod:`eights.engines.table`), top
last. Decisions: ``turn`` (a placement on a pile still to play, a draw, or
a pass on an empty stock), ``answer`` (a 2 on a 2, a 4 of Spades or a Joker
on a 4 of Spades, or take the cards), ``follow`` (the card on a Jack or
King; its argument is the pile), ``suit`` (after an 8; the pile),
``knock``, ``direction`` (after a 10) and ``pile_hand`` (playing out a
picked-up pile; the pile it left empty). ``end`` is an effect resolved
when it reaches the top: the turn is over, the next one starts. The piles
still to play this turn and the Aces and Tens played in it are state
(``todo``, ``aces``, ``tens``), public like every frame.

Actions (285), declared as blocks: ``play <card> pile <k>`` for the 54
cards on piles 1-5 (ids 0-269, ``5 * card + k - 1``), ``suit C|D|H|S``
(270-273), ``draw``, ``pass``, ``knock``, ``stop``, ``reverse``, ``keep``
(274-279), ``pick up pile <k>`` (280-284).
"""

from __future__ import annotations

import bisect
import dataclasses
import functools
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from ..cards import (
    BLACK_JOKER,
    NO_CARD,
    NUM_KINDS,
    NUM_STANDARD,
    RANK,
    RED_JOKER,
    SUIT,
    SUITS,
    card,
    card_text,
    hand_shown,
    standard_deck,
)
from ..config import ConfigError, GameConfig, option
from .blocks import ActionSpace, Block, cards, numbers, suits
from .defaults import (
    Default,
    Known,
    While,
    around_the_table,
    constant,
    in_a_match,
    last_dealer,
    last_event_direction,
    per_seat,
    seat_or_none,
)
from .determinizers.jokers_of_death import JokersOfDeathDeterminizer
from .encoding import CardCounts, CardList, Choice, Flag, OneHot, PerPile, PerSeat, Scaled, Seat
from .events import CORE_EVENTS, PILE_GAME_EVENTS, EventKind, declare_events, pick
from .fields import ViewField, core
from .memory import memory_fields
from .table import PILE, ZONE, Frame, TableEngine, TableState, agenda_field, empty_piles

ACE, TWO, EIGHT, TEN, JACK, KING = 1, 2, 8, 10, 11, 13
FOUR_OF_SPADES = card(4, 3)
THREE_OF_DIAMONDS = card(3, 1)
JOKER_IDS = (RED_JOKER, BLACK_JOKER)
#: the most piles any option gives (the Five Pile variant)
MAX_PILES = 5
MAX_PLAYERS = 12
#: cards a 2 adds to its pile's penalty; a 4 of Spades multiplies it by four
TWO_PENALTY, FOUR_PENALTY = 2, 4
#: points of a card left in hand, by rank (jokers: rank 0)
POINTS_BY_RANK = (50, 20, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)

PHASES = {"turn": "play", "answer": "answer", "follow": "follow", "suit": "choose suit",
          "knock": "knock", "direction": "direction", "pile_hand": "pile hand"}
#: the action blocks each decision offers (a reader without the view's phase derives it)
OFFERS = {"turn": ("play", "draw", "pass", "pick_up", "stop"),
          "answer": ("play", "draw", "stop"), "follow": ("play", "draw", "pass", "stop"),
          "suit": ("suit", "stop"), "knock": ("knock", "pass"),
          "direction": ("keep", "reverse", "stop"), "pile_hand": ("play", "pass", "stop")}

# ------------------------------------------------------------------ actions
ACTIONS = ActionSpace(
    Block("play", "play {card} pile {pile}", cards(range(NUM_KINDS)),
          numbers("pile", MAX_PILES, first=1),
          when="a card on a pile still to play this turn (its suit or rank, or an 8); an "
               "answer (a 2 on a 2, a 4 of Spades or a Joker on a 4 of Spades); the card on "
               "a Jack or King"),
    Block("suit", "suit {suit}", suits(), when="right after an 8: the suit of its pile"),
    Block("draw", "draw", when="your hand cannot match every pile still to play, a card "
                               "each: draw until it can; answering: take "
                               "the cards for the piles you do not answer; on a Jack or King: "
                               "draw until a card that fits comes, and play it"),
    Block("pass", "pass", when="the stock is empty and your hand cannot match every pile "
                               "still to play (the turn ends); do not knock"),
    Block("knock", "knock", when="right after you are left with one card"),
    Block("stop", "stop", when="you hold two Jokers: stop the hand now"),
    Block("reverse", "reverse", when="your turn ends after you played a 10: reverse the "
                                     "direction"),
    Block("keep", "keep", when="your turn ends after you played a 10: keep the direction"),
    Block("pick_up", "pick up pile {pile}", numbers("pile", MAX_PILES, first=1),
          when="the Free Discard Pile variant, at the start of your turn: that pile becomes "
               "a hand to play out on the other piles"),
)
NUM_ACTIONS = len(ACTIONS)
_PLAY = ACTIONS["play"]
#: action id of ``play <card> pile <k + 1>``: ``PLAY_ID[card][k]``
PLAY_ID: tuple[tuple[int, ...], ...] = tuple(
    tuple(_PLAY.id(c, k + 1) for k in range(MAX_PILES)) for c in range(NUM_KINDS))
#: (card, pile index) of each play action id
PLAY_OF: dict[int, tuple[int, int]] = {
    PLAY_ID[c][k]: (c, k) for c in range(NUM_KINDS) for k in range(MAX_PILES)}
SUIT_IDS = tuple(ACTIONS["suit"].id(k) for k in range(4))


def _fit_row(suit: int | None, rank: int) -> bytes:
    """Per card id, whether it fits a pile whose suit to follow is ``suit`` and whose top
    card has ``rank`` (``suit`` None: an empty pile): an 8 always, a Joker never (it only
    answers a 4 of Spades), else the suit or the rank."""
    return bytes(RANK[c] == EIGHT or (RANK[c] != 0 and (
        suit is None or SUIT[c] == suit or RANK[c] == rank)) for c in range(NUM_KINDS))


#: (suit to follow, top card's rank) -> :func:`_fit_row`, and None -> an empty pile's
_FIT_MASKS: dict[tuple[int, int] | None, bytes] = {
    None: _fit_row(None, -1),
    **{(suit, rank): _fit_row(suit, rank) for suit in range(-1, 4) for rank in range(14)}}
DRAW, PASS, KNOCK, STOP, REVERSE, KEEP = (
    ACTIONS[name].id() for name in ("draw", "pass", "knock", "stop", "reverse", "keep"))
#: action id of ``pick up pile <k + 1>``
PICK_UP_ID = tuple(ACTIONS["pick_up"].id(k + 1) for k in range(MAX_PILES))


# ------------------------------------------------------------------ matching
def covers(fitting: Sequence[Sequence[int]], copies: Callable[[int], int]) -> bool:
    """Whether every pile can take a card of its own: ``fitting[j]`` lists the kinds of
    card that fit pile ``j``, ``copies(c)`` how many of ``c`` the hand holds, and one card
    goes on one pile only.

    A bipartite matching of piles to cards (augmenting paths, Kuhn's algorithm, a kind
    taking as many piles as its copies): a card that is the only fit of two piles covers
    just one of them, so "the necessary cards" to match every pile are distinct cards
    (docs/rules/jokers_of_death.md #5).
    """
    need = len(fitting)
    if not need or min(map(len, fitting)) >= need:
        return True  # (Hall: any set of piles sees at least as many kinds as there are piles)
    if not all(fitting):
        return False
    given: dict[int, list[int]] = {}  # kind -> the piles its copies go to

    def place(j: int, tried: set[int]) -> bool:
        for c in fitting[j]:
            if c in tried:
                continue
            tried.add(c)
            piles = given.setdefault(c, [])
            if len(piles) < copies(c):
                piles.append(j)
                return True
            for i, other in enumerate(piles):
                if place(other, tried):
                    piles[i] = j
                    return True
        return False

    return all(place(j, set()) for j in range(len(fitting)))


# ------------------------------------------------------------------ config
def deck_of(config: JokersOfDeathConfig) -> list[int]:
    """The game's cards in id order: its 52-card decks and its Jokers (two of each colour
    with four)."""
    return standard_deck(config.decks) + list(JOKER_IDS) * (config.jokers // 2)



@dataclasses.dataclass(frozen=True)
class JokersOfDeathConfig(GameConfig):
    """Options of Jokers of Death; the rules' own game is every default."""

    variant: ClassVar[str] = "jokers_of_death"

    num_players: int = option(3, doc="players at the table", min=2, max=MAX_PLAYERS)
    num_decks: int = option(0, doc="52-card decks shuffled together; 0: the rules' own (2, "
                                   "or 4 with five_pile)", min=0, max=8)
    hand_size: int = option(20, doc="cards dealt to each player", min=1, max=40)
    match: bool = option(False, doc="play hands until a player reaches target_score instead "
                                    "of one hand")
    target_score: int = option(105, doc="with match=True: the first to reach it loses and the "
                                        "lowest total wins", min=1)
    reward: str = option("win_loss", doc="end-of-game rewards: +1/-1, or points-based",
                         choices=("win_loss", "score"))
    auto_knock: bool = option(False, doc="knock for every player left with one card (for "
                                         "agents that should not learn to knock)")
    hand_switching: bool = option(False, doc="the Hand Switching variant: the 3 of Diamonds "
                                             "passes every hand to the next player")
    five_pile: bool = option(False, doc="the Five Pile variant: four players, four decks, four "
                                        "Jokers, five piles")
    aces: bool = option(False, doc="the Aces variant: when every live pile has an Ace on top, "
                                   "the piles but the Aces go back into the stock")
    free_discard_pile: bool = option(
        False, doc="the Free Discard Pile variant: at the start of a turn a player may pick up "
                   "a pile and must play all of it on the other piles")
    max_turns: int = option(5000, doc="actions applied in a hand, forced ones included, after "
                                     "which the game is truncated", min=1)

    @property
    def decks(self) -> int:
        """The 52-card decks in play."""
        return self.num_decks or (4 if self.five_pile else 2)

    @property
    def jokers(self) -> int:
        """Jokers in play: always two (four in the Five Pile variant)."""
        return 4 if self.five_pile else 2

    @property
    def piles(self) -> int:
        """Discard piles turned up at the deal."""
        return MAX_PILES if self.five_pile else 3

    @property
    def deck_size(self) -> int:
        return 52 * self.decks + self.jokers

    def check(self) -> None:
        if self.num_decks == 1:
            raise ConfigError(
                f"{self.variant}: num_decks=1 is not allowed; the rules play with two or more "
                f"52-card decks (0 gives the rules' own: 2, or 4 with five_pile)")
        if self.five_pile and self.num_players != 4:
            raise ConfigError(
                f"{self.variant}: five_pile=True is the Five Pile variant for four players; "
                f"num_players={self.num_players} is not allowed with it (use num_players=4)")
        need = self.num_players * self.hand_size + self.piles
        if need > self.deck_size:
            raise ConfigError(
                f"{self.variant}: num_players={self.num_players} with hand_size="
                f"{self.hand_size} and {self.piles} piles needs {need} cards but "
                f"{self.decks} decks and {self.jokers} Jokers hold {self.deck_size}; use more "
                f"decks (num_decks), fewer players or smaller hands")

    def goal(self) -> str:
        if self.match:
            return (f"A match: the first to reach {self.target_score} points loses; the lowest "
                    f"total then wins.")
        return "One hand: the first to knock and then play their last card wins."


# ------------------------------------------------------------------ state
@dataclasses.dataclass(slots=True)
class JokersState(TableState):
    """The table, and what a turn of several placements keeps."""

    #: per pile, 1 once a Joker killed it (its cards stay in it, out of play)
    killed: list[int] = dataclasses.field(default_factory=list)
    #: per seat: 1 knocked with one card, -1 chose not to knock for this card, 0 neither
    knocked: list[int] = dataclasses.field(default_factory=list)
    todo: int = 0       # bit k set: pile k still to play (or to answer) this turn
    aces: int = 0       # Aces played this turn: each skips a player when it ends
    tens: int = 0       # Tens played this turn: its player decides the direction
    #: turns in a row that ended without a card placed, drawn (a penalty's cards too) or
    #: picked up
    stuck: int = 0
    #: 1 from the start of an ordinary turn until its player places or draws a card (a pile
    #: may be picked up only then, in the Free Discard Pile variant)
    fresh: int = 0
    #: per seat, the points of picked-up pile cards it could not play (Free Discard Pile)
    penalties: list[int] = dataclasses.field(default_factory=list)


def _piles(config: JokersOfDeathConfig) -> int:
    return config.piles


def _decks(config: JokersOfDeathConfig) -> int:
    return config.decks


def _total(config: JokersOfDeathConfig) -> int:
    return config.deck_size


def _score_scale(config: JokersOfDeathConfig) -> float:
    return float(config.target_score)


def _phase(game: JokersOfDeathGame, seat: int) -> str:
    agenda = game.state.agenda
    for frame in reversed(agenda):
        phase = PHASES.get(frame.kind)
        if phase is not None:
            return phase
    return PHASES["turn"]


def _decision_pile(game: JokersOfDeathGame, seat: int) -> tuple[bool, ...]:
    """The pile a ``follow`` or ``suit`` decision is about (all False otherwise)."""
    s = game.state
    frame = s.agenda[-1] if s.agenda else None
    k = frame.args[0] if frame is not None and frame.kind in ("follow", "suit") else -1
    return _pile_flags(k, len(s.piles))


@functools.cache
def _piles_in(mask: int, piles: int) -> tuple[int, ...]:
    """The piles of ``piles`` whose bit is set in ``mask`` (the piles still to play), in
    order: made once per pair (every turn decision asks it)."""
    return tuple(k for k in range(piles) if mask >> k & 1)


@functools.cache
def _pile_flags(k: int, piles: int) -> tuple[bool, ...]:
    """Per pile of ``piles``, whether it is pile ``k``: made once per pair (the observation
    reads it at every decision)."""
    return tuple(i == k for i in range(piles))


# ------------------------------------------------------------------ defaults of a minimal view
# What a reader of a view without the field takes it to be (eights/engines/defaults.py).
def _owners_default(known: Known) -> list[int | None]:
    """Unknown (``null``), except a 4 of Spades the seat answers while holding a Joker it may
    not play on it: that 4 of Spades is its own."""
    v = known.values
    me = v["current_player"]
    jokers = [c for c in v["hand"] if c >= NUM_STANDARD]
    owners: list[int | None] = []
    for k, (top, to_play) in enumerate(zip(v["pile_tops"], v["to_play"], strict=True)):
        own = (v["phase"] == PHASES["answer"] and to_play and top == FOUR_OF_SPADES and jokers
               and not any(text.startswith(f"play {card_text(j)} pile {k + 1}")
                           for text in known.legal for j in jokers))
        owners.append(me if own and me >= 0 else None)
    return owners


def _agenda_default(known: Known) -> list[dict[str, Any]]:
    """The decision at hand (by ``phase``) on top of the turn it belongs to: ``answer`` while
    a pile to answer is left, ``turn`` while a pile to play is left, else ``end``."""
    v = known.values
    seat = seat_or_none(v["current_player"])
    pile = next((k for k, on in enumerate(v["decision_pile"]) if on), 0)
    kind = {phase: kind for kind, phase in PHASES.items()}[v["phase"]]
    if kind == "pile_hand":  # the space the picked-up pile left is the one without a top
        space = next((k for k, top in enumerate(v["pile_tops"]) if top < 0), 0)
        return [{"kind": "pile_hand", "seat": seat, "args": [space]}]
    if kind in ("turn", "answer"):
        return [{"kind": kind, "seat": seat, "args": []}]
    left = any(v["to_play"])
    answering = left and any(p and t for p, t in zip(v["pile_pending"], v["to_play"],
                                                     strict=True))
    below = "answer" if answering else "turn" if left else "end"
    args = [pile] if kind in ("follow", "suit") else []
    if kind == "direction":
        return [{"kind": kind, "seat": seat, "args": args}]
    return [{"kind": below, "seat": seat, "args": []}, {"kind": kind, "seat": seat, "args": args}]


#: the scores decide whether a hand's end ends the match
_IN_A_MATCH = in_a_match("`match` is true", lambda config: config.match)
#: Aces and Tens played count from the start of a turn, when every live pile is to play
_TURN_UNDER_WAY = While(
    "while a pile that is not `killed` is not `to_play` (a turn under way, or an answer)",
    lambda known: any(not killed and not todo for killed, todo
                      in zip(known.values["killed"], known.values["to_play"], strict=True)))


def _in_phases(*kinds: str) -> While:
    """Required while the phase is one of ``kinds``' (a condition the schema states too)."""
    names = [PHASES[kind] for kind in kinds]
    text = " or ".join(f"`{name}`" for name in names)
    schema = ({"const": names[0]} if len(names) == 1 else {"enum": names})
    return While(f"while `phase` is {text}", lambda known: known.values["phase"] in names,
                 {"required": ["phase"], "properties": {"phase": schema}})


def _face_up(known: Known) -> list[int]:
    """The copies of each card face up in a protocol view: the piles and a picked-up pile
    (what ``unseen_cards``' default leaves out of the deck)."""
    counts = [0] * NUM_KINDS
    for pile in known.values["pile_counts"]:
        for c, k in enumerate(pile):
            counts[c] += k
    for c in known.values["picked_up"]:
        counts[c] += 1
    return counts


VIEW_FIELDS: tuple[ViewField, ...] = (
    core("hand", CardList(NUM_KINDS, _decks), "copies of each card in the observer's hand"),
    ViewField("pile_tops", "pile_card", "each pile's top card (null: an empty space, after a "
              "pile was picked up)", "tuple(p[-1] if p else -1 for p in s.piles)",
              PerPile(OneHot(NUM_KINDS), _piles), feature="tops"),
    ViewField("pile_suits", "pile_suit", "each pile's suit to follow: its top card's, or the "
              "suit named for an 8", "tuple(s.suits)", PerPile(OneHot(4), _piles),
              feature="suits"),
    ViewField("pile_pending", "pile_count", "each pile's penalty: the cards the player to "
              "answer it takes unless they answer (2s: two per 2 in a row; 4 of Spades: 4, "
              "then 16)", "tuple(s.pending)", PerPile(Scaled(16), _piles), feature="pending"),
    ViewField("pile_owners", "pile_seat", "who put each pile's top card there (null: turned "
              "up at the deal)", "tuple(s.owners)", PerPile(Seat(), _piles), feature="owners",
              default=Default("`null` for every pile, except a 4 of Spades the seat answers "
                              "holding a Joker that `legal` does not let it play there: its own",
                              _owners_default),
              required_while=While(
                  "while a pile's top (`pile_tops`) is the 4 of Spades: who put it there decides "
                  "whether a Joker may answer it",
                  lambda known: FOUR_OF_SPADES in known.values["pile_tops"],
                  {"required": ["pile_tops"],
                   "properties": {"pile_tops": {"contains": {"const": "4S"}}}})),
    ViewField("killed", "pile_bool", "each pile: killed by a Joker (out of play)",
              "tuple(map(bool, s.killed))", PerPile(Flag(), _piles)),
    ViewField("to_play", "pile_bool", "each pile: still to play (or to answer) this turn",
              "tuple(bool(s.todo >> k & 1) for k in range(len(s.piles)))",
              PerPile(Flag(), _piles)),
    ViewField("decision_pile", "pile_bool", "the pile a follow or suit decision is about",
              _decision_pile, PerPile(Flag(), _piles),
              default=Default("`false` for every pile",
                              lambda known: [False] * known.config.piles),
              required_while=_in_phases("follow", "suit")),
    ViewField("phase", "phase", "what the player to act is deciding", _phase,
              Choice(tuple(PHASES.values())), names=tuple(PHASES.values())),
    ViewField("aces_played", "count", "Aces played this turn (each skips a player when it "
              "ends)", "s.aces", Scaled(4), feature="aces",
              default=constant(0), required_while=_TURN_UNDER_WAY),
    ViewField("tens_played", "count", "Tens played this turn (its player then decides the "
              "direction)", "s.tens", Flag(), feature="tens",
              default=constant(0), required_while=_TURN_UNDER_WAY),
    ViewField("fresh_turn", "bool", "true from the start of an ordinary turn until its player "
              "places, draws or picks up a card (Free Discard Pile: a pile may be picked up "
              "only then)", "bool(s.fresh)",
              default=Default("`true` while `legal` has a `pick up pile` action, else `false`",
                              lambda known: known.legal_has("pick up"))),
    ViewField("knocked", "ints", "per seat: 1 knocked with one card, -1 chose not to knock "
              "for it, 0 neither", "tuple(s.knocked)", PerSeat(Flag(1)),
              default=per_seat(0), required_while=While(
                  "while a seat holds one card (`hand_sizes`): drawing or taking a card undoes "
                  "a knock",
                  lambda known: 1 in known.values["hand_sizes"],
                  {"required": ["hand_sizes"],
                   "properties": {"hand_sizes": {"contains": {"const": 1}}}})),
    ViewField("direction", "int", "1 while play goes up the seats, -1 the other way (the "
              "game starts counter-clockwise: -1)", "s.direction", Flag(1),
              default=last_event_direction(-1), required_while=around_the_table()),
    core("current_player", Seat(), "who acts now", feature="to_act"),
    core("hand_sizes", PerSeat(Scaled(_total), others=True),
         "each opponent's hand size / total cards"),
    ViewField("stock_size", "count", "cards left in the face-down stock", "len(s.stock)",
              Scaled(_total), feature="stock"),
    ViewField("pile_counts", "pile_card_counts", "every card in each pile (killed ones "
              "too), its top included, and its copies", "tuple(map(bytes, s.pile_counts))",
              PerPile(CardCounts(NUM_KINDS, _decks), _piles), feature="pile_cards"),
    ViewField("picked_up", "cards", "the picked-up pile its player is playing out (Free Discard "
              "Pile; every card of it was face up)", "tuple(sorted(c for z in s.zones for c in "
              "z))", CardList(NUM_KINDS, _decks),
              default=constant([]), required_while=While(
                  "while `pile_tops` holds `null` (a picked-up pile leaves its space empty "
                  "until it is played out)",
                  lambda known: any(top < 0 for top in known.values["pile_tops"]),
                  {"required": ["pile_tops"],
                   "properties": {"pile_tops": {"contains": {"type": "null"}}}})),
    ViewField("penalties", "ints", "per seat: points of picked-up pile cards it could not play "
              "(Free Discard Pile), added to its hand's points", "tuple(s.penalties)",
              PerSeat(Scaled(_score_scale)),
              default=per_seat(0)),
    core("scores", PerSeat(Scaled(_score_scale)), "match scores / target_score",
         default=per_seat(0), required_while=_IN_A_MATCH),
    ViewField("hand_number", "count", "hands played before this one in a match",
              "s.hand_number",
              default=constant(0)),
    ViewField("first_player", "seat", "who played first this hand", "s.first",
              default=last_dealer(), required_while=in_a_match(
                  "`match` is true", lambda config: config.match, unless_history=True)),
    ViewField("stuck", "count", "turns in a row that ended with no card placed, drawn (a "
              "penalty's cards too) or picked up (the hand is blocked at one per player)",
              "s.stuck",
              default=constant(0), required_while=While(
                  "while `stock_size` is 0 (with a stock, every turn draws or places a card)",
                  lambda known: known.values["stock_size"] == 0,
                  {"required": ["stock_size"], "properties": {"stock_size": {"const": 0}}})),
    agenda_field(default=Default(
        "by `phase`: the decision's frame for `current_player` (`follow` and `suit` with the "
        "`decision_pile`) on top of the turn it belongs to (`answer` while a pile with a "
        "penalty is `to_play`, `turn` while another is, else `end`); during `pile hand` one "
        "`pile_hand` frame for the pile without a top", _agenda_default),
        required_while=_in_phases("suit", "knock")),
) + memory_fields("jokers_of_death", cards=NUM_KINDS, copies=_decks, suits=4, known=True,
                  table=_face_up)


# ------------------------------------------------------------------ the engine
class JokersOfDeathGame(TableEngine):
    """Jokers of Death; see the module docstring."""

    variant = "jokers_of_death"
    Config = JokersOfDeathConfig
    actions = ACTIONS
    low_score_wins = True
    phases = PHASES
    offers = OFFERS
    determinizer = JokersOfDeathDeterminizer
    view_fields = VIEW_FIELDS
    deal_step = -1  # dealt counter-clockwise from the first player, as play goes
    frame_args: ClassVar[dict[str, tuple[str, ...]]] = {
        "turn": (), "answer": (), "follow": ("count",), "suit": ("count",), "knock": (),
        "direction": (), "end": (), "pile_hand": ("count",),
    }
    event_kinds = declare_events(CORE_EVENTS, pick(
        PILE_GAME_EVENTS, "deal", "draw", "suit", "skip", "hand_over", "score"), (
        EventKind("starter", "the card turned up to start a pile; arg: the pile",
                  "Pile {number} starts with {card}.", player=False, card=True, arg="pile",
                  flow=("stock", "table")),
        EventKind("starter_to_bottom", "a card turned up for a pile goes under the stock; "
                  "arg: the pile", "Turned up for pile {number}, {card} goes under the stock.",
                  player=False, card=True, arg="pile"),
        EventKind("play", "a card played on a pile; arg: the pile",
                  "Pile {number}: {player} plays {card}.", card=True, arg="pile",
                  flow=("hand", "table")),
        EventKind("penalty", "the card played makes the next player answer or take cards; "
                  "arg: how many", "The next player must answer it or take {arg} cards.",
                  arg="count"),
        EventKind("take", "the player takes penalty cards; arg: how many came",
                  "{player} takes {arg} cards.", arg="count"),
        EventKind("pass", "the player cannot play and passes; arg: the pile left unplayed, if "
                  "any", "{player} cannot play and passes.", arg="pile"),
        EventKind("knock", "the player knocks: one card left", "{player} knocks: one card "
                  "left."),
        EventKind("no_knock", "the player does not knock", "{player} does not knock."),
        EventKind("kill", "the player's Joker kills a pile; arg: the pile",
                  "{player}'s Joker kills pile {number}: it is out of play.", arg="pile"),
        EventKind("reverse", "the player reverses the direction; arg: the new direction",
                  "{player} reverses the direction: now {direction}.", arg="direction"),
        EventKind("keep", "the player keeps the direction; arg: the direction",
                  "{player} keeps the direction.", arg="direction"),
        EventKind("switch", "the 3 of Diamonds: every hand passes to the next player",
                  "The 3 of Diamonds: every hand passes to the next player."),
        EventKind("give", "a card passed on in a hand switch (seen by its giver only); arg: "
                  "the seat it goes to", "{player} passes {card} on to {target}.", card=True,
                  arg="seat", visibility="player", flow=("hand", "hand:arg"), seen_only=True),
        EventKind("hands_pass", "in a hand switch every hand goes to the next seat; arg: the "
                  "direction of play (what each seat knew of a hand it now knows of the next "
                  "seat's)", "Every hand goes to the next player, {direction}.", player=False,
                  arg="direction", passes_hands=True),
        EventKind("recycle", "every pile has an Ace on top: cards go back into the stock; "
                  "arg: how many", "Every pile has an Ace on top: {arg} cards go back into "
                  "the stock.", player=False, arg="count"),
        EventKind("stop", "the player holds two Jokers and stops the hand",
                  "{player} holds two Jokers and stops the hand."),
        EventKind("out", "the player plays their last card", "{player} plays their last "
                  "card."),
        EventKind("blocked", "nobody can play: the hand is over",
                  "Nobody can play: the hand is over.", player=False),
        EventKind("tie", "seats are tied at the top: another hand decides; arg: the top score",
                  "Players are tied at the top: another hand decides the loser.",
                  player=False, arg="int"),
        EventKind("pick_up", "the player picks up a pile to play it out; arg: the pile",
                  "{player} picks up pile {number} to play it out.", arg="pile"),
        EventKind("pile_penalty", "the player cannot play out the picked-up pile; arg: its "
                  "points", "{player} cannot play out the pile: its {arg} points are a "
                  "penalty.", arg="int"),
        EventKind("left_over", "a card of the picked-up pile its player could not play out "
                  "goes into its hand, seen by everyone", "{card} goes into the hand of "
                  "{player}.", card=True, flow=("table", "hand")),
    ))

    config: JokersOfDeathConfig
    state: JokersState

    # ------------------------------------------------------------ decks
    def full_deck(self) -> list[int]:
        return deck_of(self.config)

    def describe_deck(self) -> str:
        cfg = self.config
        return f"{cfg.decks} 52-card decks and {cfg.jokers} Jokers"

    @classmethod
    def stacked_deck(cls, hands: Sequence[Sequence[int | str] | str],
                     piles: Sequence[int | str] | str, stock: Sequence[int | str] | str = (),
                     *, config: JokersOfDeathConfig | None = None, first_player: int = 0
                     ) -> list[int]:
        """The deck order that deals exactly ``hands`` (in seat order) when ``first_player``
        plays first, turns up ``piles`` (pile 1 first) and leaves ``stock`` (top first) on
        top of the stock, the rest below it in id order.

        Scenario tests write positions this way instead of computing the deal.
        """
        cfg = config or JokersOfDeathConfig(num_players=len(hands))
        n = len(hands)
        if n != cfg.num_players:
            raise ConfigError(f"stacked_deck: {n} hands for num_players={cfg.num_players}")
        return cls._stack(hands, piles, stock, deck_of(cfg), first_player, cls.deal_step)

    # ------------------------------------------------------------ the deal
    def _new_state(self, first: int) -> JokersState:
        n, cfg = self.num_players, self.config
        return JokersState(
            hands=[[] for _ in range(n)], **empty_piles(cfg.piles, NUM_KINDS),
            zones=[[] for _ in range(n)], agenda=[], direction=-1, scores=[0] * n,
            hand_number=0, first=first, killed=[0] * cfg.piles, knocked=[0] * n,
            penalties=[0] * n)

    def _deal(self, first: int) -> None:
        """``hand_size`` cards each, one at a time counter-clockwise from ``first``; the piles
        turned up from the stock (a Joker goes under the stock and the next card is turned);
        ``first``'s turn on the agenda."""
        s, cfg, n = self.state, self.config, self.num_players
        self._deal_hands(self._new_deck(), first, cfg.hand_size, step=self.deal_step)
        for k, value in empty_piles(cfg.piles, NUM_KINDS).items():
            setattr(s, k, value)
        s.killed = [0] * cfg.piles
        s.knocked = [0] * n
        s.penalties = [0] * n
        s.zones = [[] for _ in range(n)]
        s.first, s.direction, s.stuck = first, -1, 0
        s.agenda = []
        self.log_event("deal", first, NO_CARD, s.hand_number)
        for k in range(cfg.piles):
            self._turn_up(k)
        self._start_turn(first)

    def _turn_up(self, k: int) -> None:
        """Turn the stock's top card up as pile ``k``. A Joker matches nothing (it only ever
        goes on a 4 of Spades), so it goes under the stock and the next card is turned."""
        s = self.state
        for _ in range(len(s.stock)):
            c = s.stock[-1]
            if RANK[c] != 0:
                break
            s.stock.insert(0, s.stock.pop())
            self.log_event("starter_to_bottom", -1, c, k)
        c = self.move(("stock",), (PILE, k))
        self.log_event("starter", -1, c, k)

    # ------------------------------------------------------------ helpers
    def _live(self) -> int:
        """Bit mask of the piles still in play."""
        return sum(1 << k for k, dead in enumerate(self.state.killed) if not dead)

    def fits(self, c: int, k: int) -> bool:
        """Whether ``c`` may be placed on pile ``k`` in an ordinary turn: an 8 (the piles
        with a penalty are answered, never played on), the suit to follow, or the rank."""
        return bool(self._fit_mask(k)[c])

    def _fit_mask(self, k: int) -> bytes:
        """Per card id, whether it fits pile ``k`` now (:meth:`fits`), from a table made once
        per (suit to follow, top rank): a turn asks it of every kind in the hand on every
        pile, and a method call per pair was a fifth of a decision."""
        s = self.state
        pile = s.piles[k]
        return _FIT_MASKS[(s.suits[k], RANK[pile[-1]]) if pile else None]

    def _jokers_held(self, seat: int) -> int:
        hand = self.state.hands[seat]
        return hand.count(RED_JOKER) + hand.count(BLACK_JOKER)

    def _with_stop(self, seat: int, legal: list[int]) -> list[int]:
        """Two Jokers in hand: stopping the hand is legal at each of the holder's decisions
        (``legal`` is ascending, and stays so)."""
        if self._jokers_held(seat) >= 2:
            bisect.insort(legal, STOP)
        return legal

    def _draw_one(self, seat: int) -> int:
        """The stock's top card to ``seat`` (``NO_CARD`` on an empty stock). A player who
        knocked and now holds more than one card must knock again."""
        s = self.state
        if not s.stock:
            return NO_CARD
        c = self.move(("stock",), ("hand", seat), event="draw", player=seat)
        s.knocked[seat] = 0
        s.stuck = 0
        s.fresh = 0
        return c

    def _take(self, seat: int, count: int) -> None:
        """Take ``count`` penalty cards (as many as the stock holds)."""
        self.log_event("take", seat, NO_CARD, self._draw_many(seat, count))
        self.state.stuck = 0

    # ------------------------------------------------------------ turns
    def _start_turn(self, seat: int) -> None:
        """``seat``'s turn: answering the previous player's 2s and 4s of Spades if any pile
        has a penalty, else an ordinary turn on every live pile."""
        s = self.state
        s.aces = s.tens = 0
        attacked = sum(1 << k for k, p in enumerate(s.pending) if p and not s.killed[k])
        if attacked:
            s.todo = attacked
            self.push("answer", seat)
        else:
            s.todo = self._live()
            s.fresh = 1
            self.push("turn", seat)
        self._knock_if_one(seat)

    def _knock_if_one(self, seat: int) -> None:
        """The rules' "if the player has only one card left, either at the end of a turn or
        in the middle of a turn, he or she must knock": whenever ``seat`` is left one card
        it has neither knocked nor declined for (by a placement, a draw, a take, a pile
        played back into the hand, a hand switch), the knock is decided before anything
        else."""
        if self._owes_knock(seat):
            self._offer_knock(seat)

    def _owes_knock(self, seat: int) -> bool:
        """``seat`` holds one card it has neither knocked nor declined for."""
        s = self.state
        return len(s.hands[seat]) == 1 and s.knocked[seat] == 0

    def _offer_knock(self, seat: int) -> None:
        if self.config.auto_knock:
            self._knock(seat)
        else:
            self.push("knock", seat)

    def _knock(self, seat: int) -> None:
        self.state.knocked[seat] = 1
        self.log_event("knock", seat, NO_CARD, -1)

    def _next_turn(self, seat: int) -> None:
        """The turn after ``seat``'s: each Ace played in it skips one player."""
        s = self.state
        q = seat
        for _ in range(s.aces):
            q = self.next_seat(q)
            self.log_event("skip", q, NO_CARD, -1)
        self._start_turn(self.next_seat(q))

    def end_resolve(self, frame: Frame) -> None:
        """The turn is over: its player decides the direction after a 10, then the next
        player's turn starts."""
        if self.state.tens:
            self.push("direction", frame.seat)
        else:
            self._next_turn(frame.seat)

    # ---------------------------------------------------------------- turn
    def turn_legal(self, frame: Frame) -> list[int]:
        s, p = self.state, frame.seat
        hand = s.hands[p]
        todo = _piles_in(s.todo, len(s.piles))
        fitting = self._fitting(hand, todo)
        legal = [PLAY_ID[c][k] for k, fit in zip(todo, fitting, strict=True) for c in fit]
        if not covers(fitting, hand.count):
            legal.append(DRAW if s.stock else PASS)
        if s.fresh and self.config.free_discard_pile:
            legal += self._pick_ups()
        legal.sort()
        return self._with_stop(p, legal)

    def _fitting(self, hand: Sequence[int], piles: Sequence[int]) -> list[list[int]]:
        """Per pile of ``piles``, the kinds of card in ``hand`` that fit it (each once)."""
        kinds = set(hand)
        return [[c for c in kinds if mask[c]] for mask in map(self._fit_mask, piles)]

    def turn_apply(self, frame: Frame, a: int) -> None:
        p = frame.seat
        if a == DRAW:
            self._draw_until_able(p)
            self.push("turn", p)
            self._knock_if_one(p)
        elif a == PASS:
            s = self.state
            self.log_event("pass", p, NO_CARD, -1)
            if self._blocked(p):
                return
            s.todo = 0
            self.push("end", p)
        elif a == STOP:
            self._stop(p)
        elif a in PICK_UP_ID:
            self._pick_up(p, PICK_UP_ID.index(a))
        else:
            c, k = PLAY_OF[a]
            self._place(p, c, k, "turn")

    def _blocked(self, p: int) -> bool:
        """Count a turn passed with no card placed, drawn or picked up; a whole round of
        them in a row ends the hand (the stock is empty and nobody can play). Each of
        those sets the count back to 0 as it happens (as a penalty taken does) and ends
        the turn's being ``fresh``, which is what tells such a turn apart here: a
        picked-up pile played out leaves every pile to play again, so the piles still to
        play cannot."""
        s = self.state
        if not s.fresh:
            return False
        s.stuck += 1
        if s.stuck >= self.num_players:
            self.log_event("blocked", -1, NO_CARD, -1)
            self._end_hand(None)
            return True
        return False

    def _draw_until_able(self, p: int) -> None:
        """Draw until distinct cards of the hand fit every pile still to play (or the stock
        is out): "until you are able to match any piles that you were unable to match"."""
        s = self.state
        hand = s.hands[p]  # (drawing appends to it)
        todo = _piles_in(s.todo, len(s.piles))
        fitting = self._fitting(hand, todo)
        while s.stock and not covers(fitting, hand.count):
            c = self._draw_one(p)
            for fit, k in zip(fitting, todo, strict=True):
                if c not in fit and self.fits(c, k):
                    fit.append(c)

    def _place(self, p: int, c: int, k: int, kind: str) -> None:
        """``p`` puts ``c`` on pile ``k`` (in a ``turn``, an ``answer`` or a ``follow``), the
        card's effect applies, and what comes next is pushed: the turn's continuation, then
        a Jack's or King's follow, a knock, the suit of an 8 (the top one decided first)."""
        s = self.state
        s.todo &= ~(1 << k)
        before = s.pending[k]
        self.move(("hand", p), (PILE, k), c, "play", p, k)
        s.owners[k] = p
        s.stuck = 0
        s.fresh = 0
        rank = RANK[c]
        if kind == "answer":
            if rank == 0:
                self._kill(p, k, before)
            else:  # a 2 on a 2, a 4 of Spades on a 4 of Spades
                s.pending[k] = before + TWO_PENALTY if rank == TWO else before * FOUR_PENALTY
        elif rank == TWO:
            s.pending[k] = TWO_PENALTY
        elif c == FOUR_OF_SPADES:
            s.pending[k] = FOUR_PENALTY
        if s.pending[k]:
            self.log_event("penalty", p, NO_CARD, s.pending[k])
        if rank == ACE:
            s.aces += 1
        elif rank == TEN:
            s.tens += 1
        if not s.hands[p] and s.knocked[p] == 1:
            self._end_hand(p)
            return
        if kind == "turn":
            self.push("turn" if s.todo else "end", p)
        elif kind == "answer":
            self.push("answer" if s.todo else "end", p)
        if kind != "answer" and rank in (JACK, KING):
            self.push("follow", p, k)
        if c == THREE_OF_DIAMONDS and kind != "answer" and self.config.hand_switching:
            self._switch_hands(p)
        self._knock_if_one(p)
        if rank == EIGHT:
            self.push("suit", p, k)
        if self.config.aces:  # (an answer places no Ace, but a Joker's kill may leave only Aces)
            self._recycle_aces()

    def _kill(self, p: int, k: int, pending: int) -> None:
        """A Joker on a 4 of Spades: the pile leaves play; on two or more 4s of Spades in a
        row its player takes four for each one the Joker does not neutralise."""
        s = self.state
        s.killed[k] = 1
        s.pending[k] = 0
        self.log_event("kill", p, NO_CARD, k)
        extra = pending // FOUR_PENALTY
        if extra > 1:
            self._take(p, extra)

    def _switch_hands(self, p: int) -> None:
        """The Hand Switching variant's 3 of Diamonds: each hand goes to the next player in
        the direction of play; everyone must knock again for the hand they get."""
        s = self.state
        n = self.num_players
        hands = [[] for _ in range(n)]
        for q in range(n):
            hands[self.next_seat(q)] = s.hands[q]
        self.log_event("switch", p, NO_CARD, -1)
        self.log_event("hands_pass", -1, NO_CARD, s.direction)
        for q in range(n):  # each seat saw the hand it passed on (search agents remember it)
            for c in sorted(s.hands[q]):
                self.log_event("give", q, c, self.next_seat(q))
        s.hands = hands
        s.knocked = [0] * n

    def _recycle_aces(self) -> None:
        """The Aces variant: every live pile with an Ace on top sends its other cards back
        into the stock, shuffled with it."""
        s = self.state
        live = [k for k in range(len(s.piles)) if not s.killed[k]]
        if not all(s.piles[k] and RANK[s.piles[k][-1]] == ACE for k in live):
            return
        back = list(s.stock)
        for k in live:
            pile = s.piles[k]
            back += pile[:-1]
            self.set_pile(k, pile[-1:])
            s.pending[k] = 0
        moved = len(back) - len(s.stock)
        if not moved:
            return
        self.rng.shuffle(back)
        s.stock = back
        self.log_event("recycle", -1, NO_CARD, moved)

    # ---------------------------------------------------------------- free discard pile
    def _pick_ups(self) -> list[int]:
        """The piles that may be picked up: live ones with cards, while another live pile
        with cards is left to play them on."""
        s = self.state
        full = [k for k in range(len(s.piles)) if s.piles[k] and not s.killed[k]]
        return [PICK_UP_ID[k] for k in full] if len(full) > 1 else []

    def _pick_up(self, p: int, k: int) -> None:
        """The Free Discard Pile variant: pile ``k`` becomes ``p``'s second hand (its cards
        in ``p``'s zone), to be played out on the other piles before the first hand."""
        s = self.state
        self.log_event("pick_up", p, NO_CARD, k)
        while s.piles[k]:
            self.move((PILE, k), (ZONE, p))
        s.pending[k] = 0
        s.stuck = 0
        s.fresh = 0
        self.push("pile_hand", p, k)

    def _fits_inert(self, c: int, j: int) -> bool:
        """A picked-up card on another pile: the ordinary match (an empty space is not
        played on until the pile is played out)."""
        return bool(self.state.piles[j]) and self.fits(c, j)

    def pile_hand_legal(self, frame: Frame) -> list[int]:
        s, p = self.state, frame.seat
        (k,) = frame.args
        legal = sorted({PLAY_ID[c][j] for c in s.zones[p] for j in range(len(s.piles))
                        if j != k and not s.killed[j] and self._fits_inert(c, j)})
        if not legal:
            legal.append(PASS)
        return self._with_stop(p, legal)

    def pile_hand_apply(self, frame: Frame, a: int) -> None:
        """A card of the picked-up pile goes on another pile with no effect (an 8 still names
        the suit); once the pile is played out the first hand plays an ordinary turn, the
        empty space taking any card. ``pass`` (nothing fits): the cards left join the hand
        and their points are a penalty; the turn ends."""
        s, p = self.state, frame.seat
        (k,) = frame.args
        if a == STOP:
            self._stop(p)
            return
        if a == PASS:
            points = 0
            points = self.points(s.zones[p])
            for c in list(s.zones[p]):
                self.move((ZONE, p), ("hand", p), c, "left_over", p)
            s.penalties[p] += points
            s.knocked[p] = 0
            self.log_event("pile_penalty", p, NO_CARD, points)
            s.todo = 0
            self.push("end", p)
            self._knock_if_one(p)
            return
        c, j = PLAY_OF[a]
        self.move((ZONE, p), (PILE, j), c, "play", p, j)
        s.owners[j] = p
        s.pending[j] = 0
        if s.zones[p]:
            self.push("pile_hand", p, k)
        else:
            s.todo = self._live()
            self.push("turn", p)
        if RANK[c] == EIGHT:
            self.push("suit", p, j)

    # ---------------------------------------------------------------- answer
    def answer_legal(self, frame: Frame) -> list[int]:
        s, p = self.state, frame.seat
        hand = set(s.hands[p])
        legal = []
        for k in range(len(s.piles)):
            if not s.todo >> k & 1:
                continue
            top = s.piles[k][-1]
            for c in hand:
                if (RANK[top] == TWO and RANK[c] == TWO) or (
                        top == FOUR_OF_SPADES and (
                            c == FOUR_OF_SPADES or (RANK[c] == 0 and s.owners[k] != p))):
                    legal.append(PLAY_ID[c][k])
        legal.sort()
        legal.append(DRAW)
        return self._with_stop(p, legal)

    def answer_apply(self, frame: Frame, a: int) -> None:
        p = frame.seat
        s = self.state
        if a == DRAW:  # take the cards for every pile not answered
            count = 0
            for k in range(len(s.piles)):
                if s.todo >> k & 1:
                    count += s.pending[k]
                    s.pending[k] = 0
            s.todo = 0
            self._take(p, count)
            self.push("end", p)
            self._knock_if_one(p)
        elif a == STOP:
            self._stop(p)
        else:
            c, k = PLAY_OF[a]
            self._place(p, c, k, "answer")

    # ---------------------------------------------------------------- follow
    def _follows(self, c: int, k: int) -> bool:
        """A card that may go on a Jack or King on pile ``k``: its suit, or an 8."""
        return RANK[c] == EIGHT or (RANK[c] != 0 and SUIT[c] == self.state.suits[k])

    def follow_legal(self, frame: Frame) -> list[int]:
        s, p = self.state, frame.seat
        (k,) = frame.args
        legal = sorted({PLAY_ID[c][k] for c in s.hands[p] if self._follows(c, k)})
        if s.stock:
            legal.append(DRAW)
        elif not legal:
            legal.append(PASS)
        return self._with_stop(p, legal)

    def follow_apply(self, frame: Frame, a: int) -> None:
        p = frame.seat
        (k,) = frame.args
        if a == DRAW:  # draw until a card that fits comes, and play it
            s = self.state
            while s.stock:
                c = self._draw_one(p)
                if not self._follows(c, k):
                    continue
                if self._owes_knock(p):
                    # an empty hand drew its one card: the knock comes "before playing
                    # another card", then the follow is decided again with that card
                    self.push("follow", p, k)
                    self._offer_knock(p)
                else:
                    self._place(p, c, k, "follow")
                return
            self.log_event("pass", p, NO_CARD, k)
        elif a == PASS:
            self.log_event("pass", p, NO_CARD, k)
        elif a == STOP:
            self._stop(p)
        else:
            c, _ = PLAY_OF[a]
            self._place(p, c, k, "follow")

    # ---------------------------------------------------------------- suit, knock, ten
    def suit_legal(self, frame: Frame) -> list[int]:
        return self._with_stop(frame.seat, list(SUIT_IDS))

    def suit_apply(self, frame: Frame, a: int) -> None:
        if a == STOP:
            self._stop(frame.seat)
            return
        (k,) = frame.args
        suit = SUIT_IDS.index(a)
        self.state.suits[k] = suit
        self.log_event("suit", frame.seat, NO_CARD, suit)

    def knock_legal(self, frame: Frame) -> list[int]:
        return self._with_stop(frame.seat, [PASS, KNOCK])

    def knock_apply(self, frame: Frame, a: int) -> None:
        p = frame.seat
        if a == KNOCK:
            self._knock(p)
        elif a == STOP:
            self._stop(p)
        else:
            self.state.knocked[p] = -1
            self.log_event("no_knock", p, NO_CARD, -1)

    def direction_legal(self, frame: Frame) -> list[int]:
        return self._with_stop(frame.seat, [REVERSE, KEEP])

    def direction_apply(self, frame: Frame, a: int) -> None:
        p = frame.seat
        s = self.state
        if a == STOP:
            self._stop(p)
            return
        if a == REVERSE:
            s.direction = -s.direction
            self.log_event("reverse", p, NO_CARD, s.direction)
        else:
            self.log_event("keep", p, NO_CARD, s.direction)
        self._next_turn(p)

    # ------------------------------------------------------------ ending a hand
    def _stop(self, p: int) -> None:
        """Two Jokers shown: the hand stops now and everyone scores their hand."""
        self.log_event("stop", p, NO_CARD, -1)
        self._end_hand(None)

    @staticmethod
    def points(cards: Sequence[int]) -> int:
        """Points of cards left in a hand: 2-10 face value, J/Q/K 10, A 20, Joker 50."""
        return sum(POINTS_BY_RANK[RANK[c]] for c in cards)

    def hand_points(self, seat: int) -> int:
        return self.points(self.state.hands[seat])

    def _end_hand(self, out: int | None) -> None:
        """Score the hand (``out``: who played their last card after knocking; ``None``: the
        hand was stopped or blocked), then end the game or deal the next hand."""
        s, n = self.state, self.num_players
        if out is not None:
            self.log_event("out", out, NO_CARD, -1)
        # (picked-up pile cards not yet played out when the hand stops count as unused)
        points = [self.hand_points(q) + s.penalties[q] + self.points(s.zones[q])
                  for q in range(n)]
        for q in range(n):
            s.scores[q] += points[q]
        best = min(points)
        hand_winners = [out] if out is not None else [q for q in range(n) if points[q] == best]
        s.agenda = []
        s.todo = 0
        self.log_event("hand_over", hand_winners[0] if len(hand_winners) == 1 else -1,
                       NO_CARD, int(out is None))
        for q in range(n):
            self.log_event("score", q, NO_CARD, points[q])
        if not self.config.match:
            self._finish(hand_winners)
            return
        top = max(s.scores)
        if top >= self.config.target_score:
            if s.scores.count(top) == 1:
                low = min(s.scores)
                self._finish([q for q in range(n) if s.scores[q] == low])
                return
            self.log_event("tie", -1, NO_CARD, top)
        self._count_next_hand()
        self._deal((s.first - 1) % n)  # the deal passes to the right, with the play

    # ------------------------------------------------------------ text
    def render(self, seat: int | None = None) -> str:
        s = self.state
        lines = [f"{self.variant}  hand {s.hand_number + 1}  turn {self.turn}"
                 + ("  (game over)" if self.game_over else "")]
        lines.append(f"stock {len(s.stock)}  direction "
                     f"{'clockwise' if s.direction == 1 else 'counter-clockwise'}")
        for k, pile in enumerate(s.piles):
            if s.killed[k]:
                lines.append(f"  pile {k + 1}: killed ({len(pile)} cards)")
                continue
            extra = [f"penalty {s.pending[k]}"] if s.pending[k] else []
            if s.todo >> k & 1 and not self.game_over:
                extra.append("to play")
            if pile:
                suit = SUITS[s.suits[k]] if s.suits[k] >= 0 else "-"
                shown = f"{card_text(pile[-1])}  suit {suit}"
            else:
                shown = "empty (any card)"
            lines.append(f"  pile {k + 1}: {shown}" + "".join(f"  {x}" for x in extra))
        for p in range(self.num_players):
            mark = ">" if p == self.current_player else " "
            shown = hand_shown(sorted(s.hands[p]), seat is None or seat == p)
            knock = "  (knocked)" if s.knocked[p] == 1 else ""
            lines.append(f"{mark} player {p}: {shown}  (score {s.scores[p]}){knock}")
        return "\n".join(lines + self._render_outcome(seat))


__all__ = ["ACTIONS", "JokersOfDeathConfig", "JokersOfDeathGame", "JokersState"]
