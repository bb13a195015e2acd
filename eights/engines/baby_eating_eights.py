"""Baby-Eating Eights, as its author's rules ("Baby-Eating Eights") give it.

2 to 8 players with one 54-card deck (both jokers, told apart: one is the
Guarantee Joker), up to 17 with the expanded deck (a second deck without the
King of Hearts, the Ace of Spades and the jokers; the default above five
players). Six cards each; the player on the dealer's left plays first. Match
the top card's suit or number (Sixes and Nines are one number); Eights and
Jokers are wild and their player names the suit. A player who can play must,
except that an Eight, a Joker or the King of Hearts may be held back; a player
who cannot match draws until a playable card comes. Nearly every card has an
effect:

====  ==================================================================
A     the next player draws 2 (the Ace of Spades: 4)
2     the next player is skipped
3     the next card's effect is cancelled (wilds still name their suit)
4     the direction reverses
5     its player names any player (themselves too), who draws 1
6, 9  one number; on a Three the next player may not switch between them
7     its player names another player; each takes a blind card of the other
8     wild, names the suit
10    the next player draws 1 and the Ten's player drops again (chains)
J     nothing
Q     the Jack round: from the next player round to the Queen's player,
      each drops all their Jacks; the top Jack is what the next player matches
K     (spades, clubs, diamonds) the next two players are skipped; in team
      play, play skips straight to the player's ally
KH    every other card is shuffled and six are dealt to each player; the
      turn order stays; it resets the Guarantee Joker
Jok.  wild, names the suit, the next player draws 4
====  ==================================================================

Four cards of one number in a row make every player put a card of their
choice at the bottom of the pile. The Guarantee Joker played directly on the
other Joker makes the other Joker's player draw the whole draw pile; then,
while the draw and drop piles hold fewer than three cards per player, a player
who cannot match is skipped and forced draws come out of that player's hand.
Teams (``teams``) win together. The first player (or team) out wins.

Interpretations are listed in ``docs/rules/baby_eating_eights.md``.

What is pending is the agenda's frames (:mod:`eights.engines.table`), top
last. Decisions: ``turn`` (a drop, a draw or a pass; its argument says
whether it is a Ten's extra drop), ``suit`` (after a wild), ``five`` and
``seven`` (a target), ``jacks`` (in the Jack round, which Jack ends on top;
with the seats still to go), ``bottom`` (Four in a Row: the card to put
under the pile; with the seats still to go). Effects, resolved when they
reach the top: ``effect`` (a dropped card's effect, whether a Three cancels
it, and the other Joker's player for the Guarantee Joker's combo),
``four`` (a Four in a Row round starts), ``jack_round`` (the next seat of the
round), ``next`` (whose turn comes, and whether it is an extra drop). The
Guarantee Joker's mode is a standing frame, ``mode``, at the bottom of the
agenda while it lasts. The view carries the agenda (every frame is public).

Actions (131), declared as blocks: ``play <card>`` for the 52 standard cards
(ids 0-51, the card id) and the jokers (``play RJ`` 58, ``play BJ`` 59);
``suit C|D|H|S`` (52-55, after a wild); ``draw`` (56: draw until a playable
card comes, also to hold back an Eight, a Joker or the King of Hearts);
``pass`` (57: the turn passes without a card, when nothing can be drawn or in
the Guarantee Joker's mode); ``target 0`` .. ``target 16`` (60-76: the player
a Five makes draw or a Seven swaps with); ``bottom <card>`` (77-130, 77 + card
id: the card put at the bottom of the pile for Four in a Row). In the Jack
round ``play J?`` names the Jack that ends on top of the player's Jacks.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence
from typing import Any, ClassVar

from ..cards import (
    BLACK_JOKER,
    JACK,
    KING,
    NO_CARD,
    NUM_KINDS,
    NUM_STANDARD,
    QUEEN,
    RANK,
    RED_JOKER,
    SUIT,
    SUITS,
    card,
    card_text,
    hand_shown,
)
from ..config import ConfigError, GameConfig, check_teams, option, seat_teams
from .blocks import ActionSpace, Block, cards, numbers
from .defaults import (
    Default,
    Known,
    While,
    constant,
    current_player,
    from_config,
    in_phases,
    per_seat,
    seat_or_none,
)
from .determinizers.baby_eating_eights import BabyEatingDeterminizer
from .encoding import Allies, Flag, OneHot, Scaled, Seat
from .events import CORE_EVENTS, PILE_GAME_EVENTS, EventKind, declare_events, pick
from .fields import ViewField
from .pile import NO_SEAT, PileEngine, PileState, pile_blocks, pile_fields, pile_memory_fields
from .table import Frame, agenda_field

#: the most players any deck seats (the expanded deck's 104 cards, six each and a starter)
MAX_PLAYERS = 17
KING_OF_HEARTS = card(KING, 2)
ACE_OF_SPADES = card(1, 3)
SINGLE_DECK_SIZE = NUM_KINDS
EXPANDED_DECK_SIZE = 2 * NUM_KINDS - 4

# ------------------------------------------------------------------ actions
ACTIONS = ActionSpace(
    *pile_blocks(
        play_when="a card matching the number (Six = Nine) or the suit to follow, an 8, the "
                  "King of Hearts when it matches; in the Jack round, the Jack to end on top",
        draw_when="hold back the wild cards (8, Joker, King of Hearts) you could play, or "
                  "nothing fits: draw until something playable comes",
        pass_when="the Guarantee Joker's mode, or nothing left to draw: the turn passes"),
    Block("play_joker", "play {card}", cards((RED_JOKER, BLACK_JOKER)), when="a Joker, on "
          "anything"),
    Block("target", "target {seat}", numbers("seat", MAX_PLAYERS),
          when="after a Five (any seat, yourself too) or a Seven (an opponent, or your ally)"),
    Block("bottom", "bottom {card}", cards(range(NUM_KINDS)),
          when="Four in a Row: the card of your hand you put under the pile"),
)
NUM_ACTIONS = len(ACTIONS)                  # 131
#: action id of "target <seat>", by seat
TARGET_ACTION: tuple[int, ...] = ACTIONS["target"].ids_by_value(MAX_PLAYERS)
#: action id of "bottom <card>", by card id
BOTTOM_ACTION: tuple[int, ...] = ACTIONS["bottom"].ids_by_value(NUM_KINDS)

#: action id of "play <card>", by card id
PLAY_ACTION: tuple[int, ...] = tuple(range(NUM_STANDARD)) + (
    ACTIONS["play_joker"].id(RED_JOKER), ACTIONS["play_joker"].id(BLACK_JOKER))
#: card id of a play action, by action id (-1 for actions that play no card)
CARD_OF_ACTION: tuple[int, ...] = tuple(
    args[0] if block.name in ("play", "play_joker") else NO_CARD
    for block, args in (ACTIONS.decode(a) for a in range(NUM_ACTIONS)))

# ------------------------------------------------------------------ phases
#: decision frame kind -> the phase views show
PHASE_OF = {"turn": "play", "suit": "choose suit", "five": "five target",
            "seven": "seven target", "jacks": "jack round", "bottom": "four in a row"}
PHASES = tuple(PHASE_OF.values())
#: the action blocks each decision offers (a reader without the view's phase derives it:
#: a Jack round's plays look like a turn's, a Five's target like a Seven's)
OFFERS = {"turn": ("play", "play_joker", "draw", "pass"), "suit": ("suit",),
          "five": ("target",), "seven": ("target",), "jacks": ("play",), "bottom": ("bottom",)}

# ------------------------------------------------------------------ card tables
#: the number a card matches by: Sixes and Nines are one number (6); jokers 0
NUMBER: tuple[int, ...] = tuple(6 if RANK[c] in (6, 9) else RANK[c] for c in range(NUM_KINDS))
#: cards a player may hold back although they could play them
EXEMPT: tuple[bool, ...] = tuple(
    c >= NUM_STANDARD or RANK[c] == 8 or c == KING_OF_HEARTS for c in range(NUM_KINDS))
#: cards that may go on anything (their player names the suit)
WILD: tuple[bool, ...] = tuple(c >= NUM_STANDARD or RANK[c] == 8 for c in range(NUM_KINDS))
#: cards whose effect a Three cancels is worth narrating ("cancelled" events)
HAS_EFFECT: tuple[bool, ...] = tuple(
    c >= NUM_STANDARD or RANK[c] in (1, 2, 3, 4, 5, 7, 10, QUEEN, KING) for c in range(NUM_KINDS))


def _had_to_play(c: int, suit: int, rank: int, locked: bool) -> bool:
    """Whether a player holding ``c`` could not have drawn on ``suit`` and a top of ``rank``."""
    if EXEMPT[c]:
        return False
    if SUIT[c] == suit:
        return True
    if locked:
        return RANK[c] == rank
    return NUMBER[c] == (6 if rank in (6, 9) else rank)


@functools.cache
def _cards_barring_a_draw(suit: int, rank: int, locked: bool) -> frozenset[int]:
    """Every card :func:`_had_to_play` names for one record (search asks per iteration)."""
    return frozenset(c for c in range(NUM_KINDS) if _had_to_play(c, suit, rank, locked))


def deck_cards(expanded: bool) -> list[int]:
    """The game's cards in id order: 54, or 104 with the expanded deck's second deck."""
    cards = list(range(NUM_KINDS))
    if expanded:
        cards += [c for c in range(NUM_STANDARD) if c not in (KING_OF_HEARTS, ACE_OF_SPADES)]
        cards.sort()
    return cards


@dataclasses.dataclass(frozen=True)
class BabyEatingEightsConfig(GameConfig):
    variant: ClassVar[str] = "baby_eating_eights"

    num_players: int = option(2, doc="players at the table (at most 8 with one deck, "
                                     "17 with the expanded deck)", min=2, max=MAX_PLAYERS)
    deck_type: str = option("auto", doc="'single': one 54-card deck with both jokers; 'expanded': "
                                   "plus a second deck without the king of hearts, the ace of "
                                   "spades and the jokers (104 cards); 'auto': expanded above "
                                   "five players", choices=("auto", "single", "expanded"))
    hand_size: int = option(6, doc="cards dealt to each player (at the start and by the "
                                   "king of hearts)", min=1, max=20)
    teams: int = option(0, doc="teams of allies, seat s in team s % teams (allies sit apart); "
                               "0 for no teams", min=0, max=MAX_PLAYERS // 2)
    guarantee_joker: str = option("RJ", doc="which joker is the Guarantee Joker",
                                  choices=("RJ", "BJ"))
    guarantee_cards_per_player: int = option(
        3, doc="the Guarantee Joker's mode lasts while the draw and drop piles hold fewer "
               "than this many cards per player", min=0, max=20)
    combo_replaces_draw_four: bool = option(
        False, doc="the Guarantee Joker's combo spares the next player the Joker's draw four")
    three_cancels_king_of_hearts: bool = option(
        True, doc="a Three cancels the king of hearts' redeal (and its reset) like any effect")
    ten_again_draws: bool = option(
        True, doc="a player who cannot match on a Ten's extra drop draws until playable "
                  "(False: the turn just ends)")
    six_nine_four_in_a_row: bool = option(
        True, doc="Sixes and Nines count as one number for Four in a Row")
    two_player_king: str = option(
        "again", doc="a King of Spades, Clubs or Diamonds with two players: 'again' skips the "
                     "opponent (the King's player plays again); 'literal' skips the opponent "
                     "and then the King's player, so the opponent plays next",
        choices=("again", "literal"))
    reward: str = option("win_loss", doc="end-of-game rewards: +1/-1, or by cards left",
                         choices=("win_loss", "score"))
    max_turns: int = option(3000, doc="actions applied in a hand, forced ones included, after "
                                     "which the game is truncated", min=1)

    @property
    def expanded(self) -> bool:
        """Whether the expanded (104-card) deck is in play."""
        return self.deck_type == "expanded" or (
            self.deck_type == "auto" and self.num_players > 5)

    @property
    def num_decks(self) -> int:
        """Decks shuffled together (the expanded deck's second one is short of four cards)."""
        return 2 if self.expanded else 1

    @property
    def deck_size(self) -> int:
        return EXPANDED_DECK_SIZE if self.expanded else SINGLE_DECK_SIZE

    def check(self) -> None:
        n, h, total = self.num_players, self.hand_size, self.deck_size
        need = n * h + 1
        if need > total:
            name = "expanded 104-card deck" if self.expanded else "single 54-card deck"
            most = (total - 1) // h
            hint = "" if self.expanded else (
                f"; deck_type='expanded' seats up to {(EXPANDED_DECK_SIZE - 1) // h}")
            raise ConfigError(
                f"{self.variant}: num_players={n} with hand_size={h} needs {need} cards (a hand "
                f"each and the starter) but the {name} (deck_type={self.deck_type!r}) holds "
                f"{total}; it seats at most {most} players{hint}")
        check_teams(self.variant, n, self.teams)

    def team_of(self) -> tuple[int, ...]:
        """Seat ``s`` is in team ``s % teams``: allies sit as far apart as the table allows."""
        return seat_teams(self.num_players, self.teams)



@dataclasses.dataclass(slots=True)
class BabyEatingState(PileState):
    """The table, and the flags of the pile's top this variant's rules read."""

    three_live: bool = False        # the top card is a Three that cancels the next card's effect
    locked: bool = False            # the top Six/Nine went on a Three: no switching 6 <-> 9
    free: bool = False              # the top card is a wild starter: anything may be played
    run_number: int = -1            # the number of the cards in a row on top of the pile
    run_length: int = 0             # how many (since the last Four in a Row)
    combo_used: bool = False        # the combo happened since the start or the last KH
    drew_lock: list[int] = dataclasses.field(default_factory=list)

    @property
    def victim(self) -> int:
        """The seat the Guarantee Joker's mode is on (its standing frame), -1 when off."""
        agenda = self.agenda
        return agenda[0].seat if agenda and agenda[0].kind == "mode" else NO_SEAT

    @property
    def actor(self) -> int:
        """Whose turn it is: the seat of the topmost ``turn`` or ``next`` frame (who acts may
        be another seat, in the Jack round or Four in a Row)."""
        for frame in reversed(self.agenda):
            if frame.kind == "turn" or frame.kind == "next":
                return frame.seat
        return NO_SEAT


def _top_frame(game: BabyEatingEightsGame, kinds: tuple[str, ...]) -> Frame | None:
    for frame in reversed(game.state.agenda):
        if frame.kind in kinds:
            return frame
    return None


def _extra_drop(game: BabyEatingEightsGame, seat: int) -> bool:
    frame = _top_frame(game, ("turn", "next"))
    return bool(frame is not None and frame.args[-1])


def _effect_frame(game: BabyEatingEightsGame) -> Frame | None:
    return _top_frame(game, ("effect",))


def _effect_card(game: BabyEatingEightsGame, seat: int) -> int:
    frame = _effect_frame(game)
    return NO_CARD if frame is None else frame.args[0]


def _effect_cancelled(game: BabyEatingEightsGame, seat: int) -> bool:
    frame = _effect_frame(game)
    return bool(frame is not None and frame.args[1])


def _deck_size(config: BabyEatingEightsConfig) -> int:
    return config.deck_size


# ------------------------------------------------------------------ defaults of a minimal view
# What a reader of a view without the field takes it to be (eights/engines/defaults.py).
def _locked_default(known: Known) -> bool:
    """A Six or Nine on top whose other number the hand holds, off suit, but may not play."""
    top, suit = known.top, known.values["active_suit"]
    if known.values["phase"] != "play" or not 0 <= top < NUM_STANDARD or RANK[top] not in (6, 9):
        return False
    other = 15 - RANK[top]
    return any(RANK[c] == other and SUIT[c] != suit and f"play {card_text(c)}" not in known.legal
               for c in known.values["hand"] if c < NUM_STANDARD)


def _free_default(known: Known) -> bool:
    """A wild card on top with a card off its suit, not wild, playable: a wild starter."""
    top, suit = known.top, known.values["active_suit"]
    if top < 0 or not (top >= NUM_STANDARD or RANK[top] == 8):
        return False
    if top >= NUM_STANDARD and suit < 0:
        return True
    return known.values["phase"] == "play" and any(
        RANK[c] != 8 and SUIT[c] != suit and f"play {card_text(c)}" in known.legal
        for c in known.values["hand"] if c < NUM_STANDARD)


def _run_number_default(known: Known) -> int:
    top = known.top
    if top < 0:
        return -1
    rank = RANK[top]
    return 6 if rank == 9 and known.config.six_nine_four_in_a_row else rank


def _run_goes_on(known: Known) -> bool:
    """A card of the run's number may be played, now or once the decision at hand is taken
    (a wild's suit, an effect's target, a bottom card, a Jack round: the next seat may go
    on with the run): then how long the run is decides whether it makes Four in a Row."""
    if known.values["phase"] != PHASE_OF["turn"]:
        return True
    number = _run_number_default(known)
    numbers = NUMBER if known.config.six_nine_four_in_a_row else RANK
    return any(numbers[c] == number and f"play {card_text(c)}" in known.legal
               for c in known.values["hand"])


def _mode_possible(known: Known) -> bool:
    """The Guarantee Joker's mode may be on: the stock and the discard pile (the deck less the
    hands) hold fewer than ``guarantee_cards_per_player`` cards per player. The mode is a
    frame at the bottom of the agenda, which the agenda's default has not."""
    threshold = known.config.guarantee_cards_per_player * known.n
    return known.deck_size - sum(known.values["hand_sizes"]) < threshold


_MODE_TEXT = ("while the stock and the discard pile (the deck less `hand_sizes`) hold fewer "
              "than `guarantee_cards_per_player` cards per player (the Guarantee Joker's mode "
              "may be on)")


def _agenda_default(known: Known) -> list[dict[str, Any]]:
    """The pending frames a table shows: the decision at hand (by ``phase``) on top of the
    dropped card's pending effect (``effect_card``) and the turn passing on after it."""
    v = known.values
    current, actor = v["current_player"], v["actor"]
    decision = {phase: kind for kind, phase in PHASE_OF.items()}[v["phase"]]
    if decision == "turn":
        return [{"kind": "turn", "seat": seat_or_none(current), "args": [v["extra_drop"]]}]
    frames = [{"kind": "next", "seat": seat_or_none(actor), "args": [None, False]}]
    effect = v["effect_card"]
    if effect < 0 and decision == "suit":
        effect = known.top  # the wild whose suit is being named
    if effect >= 0:
        frames.append({"kind": "effect", "seat": seat_or_none(actor),
                       "args": [card_text(effect), v["effect_cancelled"], None]})
    args = [1] if decision in ("jacks", "bottom") else []
    frames.append({"kind": decision, "seat": seat_or_none(current), "args": args})
    return frames


_AGENDA_DEFAULT = Default(
    "by `phase`: during `play` one `turn` frame for `current_player` (its argument "
    "`extra_drop`); otherwise a `next` frame for `actor`, an `effect` frame for `effect_card` "
    "(a wild's `top` while its suit is named) when there is one, and the decision's frame for "
    "`current_player` (`suit`, `five`, `seven`, or `jacks`/`bottom` with 1 seat to go)",
    _agenda_default)


_IN_PHASES = in_phases(PHASE_OF["suit"], PHASE_OF["jacks"], PHASE_OF["bottom"])
_AGENDA_REQUIRED = While(
    f"{_IN_PHASES.text}, or {_MODE_TEXT}",
    lambda known: _IN_PHASES.applies(known) or _mode_possible(known))

_OWN_ENCODED = (
    ViewField("three_live", "bool", "the top card is a Three: the next card's effect is cancelled",
              "s.three_live", Flag(),
              default=Default("`true` when `top` is a Three (send `false` for a Three that went on"
                              " a live Three)",
                              lambda known: (0 <= known.top < NUM_STANDARD
                                             and RANK[known.top] == 3)),
              required_while=While(
                  "while `top` is a Three", lambda known: (0 <= known.top < NUM_STANDARD
                                                          and RANK[known.top] == 3),
                  {"required": ["top"], "properties": {"top": {"pattern": "^3"}}})),
    ViewField("locked", "bool", "the top Six or Nine went on a Three: no switching between "
              "Six and Nine",
              "s.locked", Flag(),
              default=Default("read from `legal`: `true` when `top` is a Six or Nine and a Nine or"
                              " Six of another suit in the hand is not playable, else `false`",
                              _locked_default)),
    ViewField("free", "bool", "a wild starter: any card may be played",
              "s.free", Flag(),
              default=Default("read from `legal`: `true` when `top` is wild and a card neither "
                              "wild nor of `active_suit` is playable, or `top` is a joker with no "
                              "`active_suit` (a wild starter), else `false`", _free_default),
              required_while=in_phases("choose suit")),
    ViewField("extra_drop", "bool", "the player whose turn it is drops again after a Ten",
              _extra_drop, Flag(),
              default=constant(False), required_while=While(
                  "while `top` is a Ten (its player may drop again)",
                  lambda known: 0 <= known.top < NUM_STANDARD and RANK[known.top] == 10,
                  {"required": ["top"], "properties": {"top": {"pattern": "^10"}}})),
    ViewField("effect_cancelled", "bool", "a Three cancels that effect",
              _effect_cancelled, Flag(),
              default=constant(False)),
    ViewField("guarantee_spent", "bool", "the combo happened since the start or the last King "
              "of Hearts", "s.combo_used", Flag(),
              default=constant(False)),
    ViewField("effect_card", "card", "the card whose effect is still to happen, else null",
              _effect_card, OneHot(NUM_KINDS), feature="effect",
              default=constant(None)),
    ViewField("run_length", "count", "cards of that number in a row since the last Four in "
              "a Row", "s.run_length", Scaled(4),
              default=constant(1), required_while=While(
                  "while `phase` is not `play`, or `legal` holds a `play` of the run's number "
                  "(`run_number`'s default)", _run_goes_on)),
    ViewField("run_number", "int", "the number on top for Four in a Row (6 for Sixes and Nines, "
              "0 for a joker)",
              "s.run_number", Scaled(13),
              default=Default("`top`'s number (a Nine counts as 6 with six_nine_four_in_a_row; a "
                              "joker 0)", _run_number_default)),
    ViewField("teams", "ints", "each seat's team (the seat itself without teams)",
              "g.team_of", Allies(), feature="allies",
              default=from_config("teams", lambda config: list(config.team_of()))),
    ViewField("guarantee_victim", "seat", "the seat the Guarantee Joker's mode is on, else null",
              "s.victim", Seat(), feature="victim",
              default=constant(None), required_while=While(_MODE_TEXT, _mode_possible)),
    ViewField("actor", "seat", "whose turn it is (current_player may act out of turn: a "
              "Jack round, Four in a Row)",
              "s.actor", Seat(),
              default=dataclasses.replace(current_player(), text="`current_player` (they differ "
                                                                 "only in a Jack round and Four in"
                                                                 " a Row)")),
)
_OWN = (
    ViewField("guarantee_joker", "card", "the Guarantee Joker",
              "g.guarantee",
              default=from_config("guarantee_joker")),
    ViewField("top_player", "seat", "who dropped the top card (null: the starter)",
              "s.owners[0]",
              default=constant(None)),
    ViewField("drew_on_lock", "ints", "per seat: 1 if the top Six or Nine was locked when it "
              "last drew", "tuple(s.drew_lock)",
              default=per_seat(0)),
    agenda_field(default=_AGENDA_DEFAULT, required_while=_AGENDA_REQUIRED),
)


class BabyEatingEightsGame(PileEngine):
    """Baby-Eating Eights; see the module docstring."""

    variant = "baby_eating_eights"
    Config = BabyEatingEightsConfig
    state_class = BabyEatingState
    actions = ACTIONS
    low_score_wins = True
    #: every card left in hand counts one
    points_by_rank = (1,) * 13
    attack_ranks: ClassVar[dict[int, int]] = {1: 2, 2: 2, 10: 1, KING: 2, 0: 3}
    phases = PHASE_OF
    offers = OFFERS
    determinizer = BabyEatingDeterminizer
    #: how each frame kind's arguments are written (for the protocol)
    frame_args: ClassVar[dict[str, tuple[str, ...]]] = {
        "turn": ("bool",), "suit": (), "five": (), "seven": (), "jacks": ("count",),
        "bottom": ("count",), "effect": ("card", "bool", "seat"), "four": (),
        "jack_round": ("count",), "next": ("seat", "bool"), "mode": (),
    }
    view_fields = pile_fields(
        cards=NUM_KINDS, total_cards=_deck_size, score_scale=_deck_size, phases=PHASES,
        match=False, own_encoded=_OWN_ENCODED, own=_OWN,
    ) + pile_memory_fields("baby_eating_eights", cards=NUM_KINDS, known=True)
    event_kinds = declare_events(CORE_EVENTS, pick(
        PILE_GAME_EVENTS, "starter", "draw", "reshuffle", "play", "suit", "skip", "reverse"), (
        EventKind("deal", "the cards are dealt; player: who plays first; arg: always 0",
                  "The cards are dealt; {player} plays first.", arg="count", new_hand=True),
        EventKind("pass", "the player drops no card and the turn passes",
                  "{player} does not drop a card; the turn passes."),
        EventKind("cancelled", "a Three under the card cancels its effect",
                  "The Three cancels the effect of {card}.", card=True),
        EventKind("locked", "a Six or Nine went on a Three: no switching between them next",
                  "{card} went on a Three: the next player may not switch between Six and "
                  "Nine.", card=True),
        EventKind("five", "a Five makes a seat draw a card; arg: that seat",
                  "{player} makes {target} draw a card.", arg="seat"),
        EventKind("swap", "a Seven swaps a card blindly; arg: the other seat",
                  "{player} swaps a card blindly with {target}.", arg="seat"),
        EventKind("take", "the player takes a card from another hand (seen by the taker "
                  "only); arg: that seat", "{player} takes {card} from {target}.", card=True,
                  arg="seat", visibility="player", flow=("hand:arg", "hand")),
        EventKind("give", "the player loses a card to another hand (seen by the giver only); "
                  "arg: that seat", "{player} gives {card} to {target}.", card=True,
                  arg="seat", visibility="player", flow=("hand", "hand:arg"), seen_only=True),
        EventKind("again", "a Ten: the player drops again", "{player} drops again after the "
                  "Ten."),
        EventKind("jack_round", "a Queen starts the Jack round",
                  "The Queen from {player} starts the Jack round: everyone drops their "
                  "Jacks."),
        EventKind("no_jacks", "the player has no Jack to drop", "{player} has no Jacks."),
        EventKind("jack_round_over", "the Jack round is over; card: the top card",
                  "The Jack round is over; {card} is on top.", player=False, card=True),
        EventKind("four_in_a_row", "Four in a Row: from the player, everyone puts a card at "
                  "the bottom; arg: the run's number",
                  "Four in a row! Starting with {player}, everyone puts a card at the bottom "
                  "of the pile.", arg="count"),
        EventKind("bottom", "the player puts a card at the bottom of the pile",
                  "{player} puts {card} at the bottom of the pile.", card=True,
                  flow=("hand", "table")),
        EventKind("redeal", "the King of Hearts redeals; card: the top card kept; arg: cards "
                  "dealt to each", "The King of Hearts from {player}: every other card is "
                  "shuffled and {arg} are dealt to each player.", card=True, arg="count",
                  new_hand=True),
        EventKind("guarantee", "the Guarantee Joker: the player draws the draw pile; arg: its "
                  "size", "The Guarantee Joker: {player} draws the entire draw pile ({arg} "
                  "cards).", arg="count"),
        EventKind("forced_draw", "the player has drawn the cards an effect made them draw (an "
                  "Ace, Five, Ten or Joker, the Guarantee Joker's combo), logged after those "
                  "draws; arg: how many came", "{player} has drawn the {arg} cards they were "
                  "made to draw.", arg="count"),
        EventKind("guarantee_mode", "the Guarantee Joker's mode starts on the player; arg: "
                  "the cards the piles must reach", "Until the piles hold {arg} cards, a "
                  "player who cannot match is skipped and forced draws come from the hand of "
                  "{player}.", arg="count"),
        EventKind("guarantee_over", "the Guarantee Joker's mode on the player ends; arg: the "
                  "cards in the piles", "The Guarantee Joker's mode on {player} is over.",
                  arg="count"),
        EventKind("no_draw", "the mode's victim would draw from their own hand; arg: the "
                  "cards", "{player} would draw from their own hand: nothing happens.",
                  arg="count"),
        EventKind("stuck", "nobody could drop a card for a whole round",
                  "Nobody could drop a card for a whole round.", player=False),
        EventKind("out", "the player has no cards left", "{player} has no cards left."),
    ))

    config: BabyEatingEightsConfig
    state: BabyEatingState
    #: the Guarantee Joker's card id (set per game from the config; read by ``g.guarantee``)
    guarantee: int

    # ------------------------------------------------------------ setup
    def _begin(self, seed: int | None, deck: Sequence[int | str] | str | None,
               first_player: int | None) -> None:
        cfg = self.config
        n = cfg.num_players
        self._team_of = cfg.team_of()
        self.guarantee = RED_JOKER if cfg.guarantee_joker == "RJ" else BLACK_JOKER
        self.other_joker = BLACK_JOKER + RED_JOKER - self.guarantee
        self.threshold = cfg.guarantee_cards_per_player * n
        self._targets = list(TARGET_ACTION[:n])
        self._seven_targets = [[TARGET_ACTION[t] for t in range(n) if t != p] for p in range(n)]
        super()._begin(seed, deck, first_player)

    @property
    def team_of(self) -> tuple[int, ...]:
        return self._team_of

    def full_deck(self) -> list[int]:
        return deck_cards(self.config.expanded)

    def describe_deck(self) -> str:
        if self.config.expanded:
            return ("the expanded deck: 54 cards with both jokers and a second deck without the "
                    "king of hearts, the ace of spades and the jokers (104 cards)")
        return "one 54-card deck with both jokers"

    @classmethod
    def stacked_deck(cls, hands: Sequence[Sequence[int | str] | str], starter: int | str,
                     stock: Sequence[int | str] | str = (), *, expanded: bool = False,
                     first_player: int = 0) -> list[int]:
        """The deck order that deals exactly ``hands`` (in seat order), turns up ``starter``
        and leaves ``stock`` (top first) on top of the draw pile, the rest below in id order.
        """
        return cls._stack(hands, [starter], stock, deck_cards(expanded), first_player)

    def _new_state(self, first: int) -> BabyEatingState:
        s = super()._new_state(first)
        s.drew_lock = [0] * self.num_players
        return s

    def _deal(self, first: int) -> None:
        """Six cards each from ``first``, the starter turned up; a wild starter lets anything
        be played on it."""
        s = self.state
        self._deal_hands(self._new_deck(), first, self.config.hand_size)
        s.agenda = [Frame("turn", first, (False,))]
        self.log_event("deal", first, NO_CARD, 0)
        c = self.move(("stock",), ("pile", 0))
        self.log_event("starter", -1, c, -1)
        s.free = WILD[c]
        s.run_number = self._number(c)
        s.run_length = 1

    def _number(self, c: int) -> int:
        return NUMBER[c] if self.config.six_nine_four_in_a_row else RANK[c]

    # ------------------------------------------------------------ matching
    def draw_excludes(self, suit: int, rank: int, locked: bool = False) -> frozenset[int]:
        """The cards a seat that drew (or passed) on ``suit`` and a top card of ``rank``
        (``locked``: by a Six or Nine, only the rank itself matched) cannot have held: those
        it had to play, not the ones it may hold back (Eights, Jokers, the King of Hearts)."""
        return _cards_barring_a_draw(suit, rank, bool(locked))

    def playable(self, c: int) -> bool:
        """Whether ``c`` may go on the pile now (suit, number, a wild, or a wild starter)."""
        s = self.state
        if WILD[c] or s.free or SUIT[c] == s.suits[0]:
            return True
        if s.locked:
            return RANK[c] == RANK[s.piles[0][-1]]
        return NUMBER[c] == NUMBER[s.piles[0][-1]]

    def _decline_action(self, extra: bool) -> int:
        """``draw`` while drawing is the rule and possible, else ``pass``."""
        s = self.state
        if s.victim >= 0 or (extra and not self.config.ten_again_draws) or not (
                s.stock or len(s.piles[0]) > 1):
            return self.PASS
        return self.DRAW

    # ------------------------------------------------------------ turn
    def turn_legal(self, frame: Frame) -> list[int]:
        """Every card that fits (a player who can play must, wild cards aside), the jokers,
        and ``draw`` or ``pass`` when nothing must be played."""
        s = self.state
        suit, free = s.suits[0], s.free
        table = RANK if s.locked else NUMBER
        key = table[s.piles[0][-1]]
        out: list[int] = []
        jokers: list[int] = []
        must = False
        for c in s.hands[frame.seat]:
            if c >= NUM_STANDARD:
                if PLAY_ACTION[c] not in jokers:
                    jokers.append(PLAY_ACTION[c])
            elif free or SUIT[c] == suit or table[c] == key or RANK[c] == 8:
                if c not in out:
                    out.append(c)
                if not EXEMPT[c]:
                    must = True
        out.sort()
        if not must:
            out.append(self._decline_action(frame.args[0]))
        if jokers:
            jokers.sort()
            out += jokers
        return out

    def turn_apply(self, frame: Frame, a: int) -> None:
        p = frame.seat
        if a == self.DRAW:
            self._draw_until_playable(p)
            self.state.agenda.append(frame)  # still their turn: now a card fits
        elif a == self.PASS:
            self._pass(p)
        else:
            self._drop(p, CARD_OF_ACTION[a])

    def _drop(self, p: int, c: int) -> None:
        """``p`` drops ``c`` on the pile in their turn. Then, in order: its suit is named (a
        wild), Four in a Row rounds it completed, its effect, and the next turn."""
        s = self.state
        cancelled = s.three_live
        prev_top, prev_player = s.piles[0][-1], s.owners[0]
        self.move(("hand", p), ("pile", 0), c, "play", p)
        s.owners[0] = p
        s.stuck = 0
        s.free = False
        s.drew_suit[p] = s.drew_rank[p] = -1
        s.drew_lock[p] = 0
        s.locked = cancelled and NUMBER[c] == 6
        s.three_live = RANK[c] == 3 and not cancelled
        combo_from = (prev_player if c == self.guarantee and prev_top == self.other_joker
                      and prev_player >= 0 and prev_player != p else NO_SEAT)
        fours = self._count_run(c)
        if s.victim >= 0:
            self._check_mode_end()
        if not s.hands[p]:
            self._go_out(p)
            return
        self.push("next", p, NO_SEAT, False)
        self.push("effect", p, c, cancelled, combo_from)
        for _ in range(fours):
            self.push("four", p)
        if WILD[c]:
            self.push("suit", p)

    def _count_run(self, c: int) -> int:
        """Four in a Row: count cards of one number in a row; 1 when ``c`` is the fourth."""
        s = self.state
        number = self._number(c)
        if number == s.run_number:
            s.run_length += 1
            if s.run_length >= 4:
                s.run_length = 0
                return 1
        else:
            s.run_number = number
            s.run_length = 1
        return 0

    # ------------------------------------------------------------ suit, five, seven
    def suit_legal(self, frame: Frame) -> list[int]:
        return list(self.SUIT_IDS)

    def suit_apply(self, frame: Frame, a: int) -> None:
        self._choose_suit(frame.seat, self.SUIT_IDS.index(a))

    def five_legal(self, frame: Frame) -> list[int]:
        return self._targets[:]

    def five_apply(self, frame: Frame, a: int) -> None:
        t = ACTIONS.value(a)
        self.log_event("five", frame.seat, NO_CARD, t)
        self._force_draw(t, 1)

    def seven_legal(self, frame: Frame) -> list[int]:
        return self._seven_targets[frame.seat][:]

    def seven_apply(self, frame: Frame, a: int) -> None:
        self._swap(frame.seat, ACTIONS.value(a))

    # ------------------------------------------------------------ effects
    def effect_resolve(self, frame: Frame) -> None:
        """A dropped card's effect, unless a Three cancels it (a Six or Nine on a Three is
        locked instead)."""
        p, (c, cancelled, combo_from) = frame.seat, frame.args
        if cancelled and (c != KING_OF_HEARTS or self.config.three_cancels_king_of_hearts):
            if NUMBER[c] == 6:
                self.log_event("locked", p, c, -1)
            elif HAS_EFFECT[c]:
                self.log_event("cancelled", p, c, -1)
            return
        self._effect(p, c, combo_from)

    def _set_next(self, after: int, extra: bool = False) -> None:
        """Who plays once this turn's pending work is done (the ``next`` frame below)."""
        agenda = self.state.agenda
        frame = agenda[-1]
        agenda[-1] = Frame("next", frame.seat, (after, extra))

    def _effect(self, p: int, c: int, combo_from: int) -> None:
        """Apply ``p``'s card ``c``: it may push a decision (a Five's or Seven's target) or a
        Jack round, or change who plays next."""
        if c >= NUM_STANDARD:
            if combo_from >= 0 and not self.state.combo_used:
                self._combo(combo_from)
                if self.config.combo_replaces_draw_four:
                    return
            self._force_draw(self.next_seat(p), 4)
            return
        rank = RANK[c]
        if rank == 1:
            self._force_draw(self.next_seat(p), 4 if c == ACE_OF_SPADES else 2)
        elif rank == 2:
            self.log_event("skip", self.next_seat(p), NO_CARD, -1)
            self._set_next(self.next_seat(p, 2))
        elif rank == 4:
            s = self.state
            s.direction = -s.direction
            self.log_event("reverse", p, NO_CARD, s.direction)
        elif rank == 5:
            self.push("five", p)
        elif rank == 7:
            self.push("seven", p)
        elif rank == 10:
            self._force_draw(self.next_seat(p), 1)
            if self.terminated:  # the draw emptied the Guarantee Joker's affected hand
                return
            self._set_next(p, extra=True)
            self.log_event("again", p, NO_CARD, -1)
        elif rank == QUEEN:
            self.log_event("jack_round", p, NO_CARD, -1)
            self.push("jack_round", self.next_seat(p), self.num_players)
        elif rank == KING:
            if c == KING_OF_HEARTS:
                self._redeal(p)
            else:
                self._skip_for_king(p)

    def _skip_for_king(self, p: int) -> None:
        """The next two seats are skipped; in team play, play goes straight to the next ally."""
        team = self.team_of
        if self.config.teams:
            k = 1
            while team[self.next_seat(p, k)] != team[p]:
                k += 1
        elif self.num_players == 2 and self.config.two_player_king == "again":
            k = 2
        else:
            k = 3
        for j in range(1, k):
            self.log_event("skip", self.next_seat(p, j), NO_CARD, -1)
        self._set_next(self.next_seat(p, k))

    def next_resolve(self, frame: Frame) -> None:
        """The turn passes: to the seat an effect named, else the next one."""
        after, extra = frame.args
        self.push("turn", after if after >= 0 else self.next_seat(frame.seat), extra)

    # ------------------------------------------------------------ draws and swaps
    def _draw_until_playable(self, p: int) -> None:
        """``p`` draws until a card that can be played comes (or nothing is left to draw)."""
        s = self.state
        self._note_draw(p)
        while True:
            c = self._draw_one(p)
            if c == NO_CARD:
                break
            s.stuck = 0
            if self.playable(c):
                break

    def _draw_one(self, seat: int) -> int:
        """The pile engine's draw, then the rules' "if, at any point the draw pile runs
        out, take every face-up card, excluding the card last dropped, and shuffle them":
        the new draw pile is made the moment the last card is drawn, not at the next draw,
        so the Guarantee Joker's combo never finds it empty while the drop pile holds
        cards under its top (an empty draw pile with a one-card drop pile waits for the
        next draw, as before)."""
        c = super()._draw_one(seat)
        self._rebuild_if_spent()
        return c

    def _rebuild_if_spent(self) -> None:
        s = self.state
        if not s.stock and len(s.piles[0]) > 1:
            self._rebuild_stock()

    def _note_draw(self, seat: int) -> None:
        s = self.state
        s.drew_suit[seat] = s.suits[0]
        s.drew_rank[seat] = RANK[s.piles[0][-1]] or -1  # a Joker on top: no number
        s.drew_lock[seat] = int(s.locked)

    def _forget_draw(self, seat: int) -> None:
        """``seat`` got cards it did not choose: what it drew on says nothing of them."""
        s = self.state
        s.drew_suit[seat] = s.drew_rank[seat] = -1
        s.drew_lock[seat] = 0

    def _force_draw(self, seat: int, count: int) -> None:
        """A card makes ``seat`` draw ``count``: from the draw pile, or in the Guarantee
        Joker's mode blindly out of the affected player's hand.

        Draws from the pile are closed by a ``forced_draw`` event (how many came): they look
        like the draws of a player who could not match, which often follow at once (an Ace's
        two, then the drawer's own turn), and only the closing event tells a reader of the
        history (a belief, a narration) which draws were no choice."""
        s = self.state
        v = s.victim
        self._forget_draw(seat)
        if v < 0:
            self.log_event("forced_draw", seat, NO_CARD, self._draw_many(seat, count))
            return
        if seat == v:
            self.log_event("no_draw", seat, NO_CARD, count)
            return
        src, dst = s.hands[v], s.hands[seat]
        for _ in range(count):
            i = self.rng.randrange(len(src))
            c = src[i]
            src[i] = src[-1]
            src.pop()
            dst.append(c)
            self.log_event("take", seat, c, v)
            self.log_event("give", v, c, seat)
            if not src:
                self._go_out(v)
                return

    def _swap(self, p: int, t: int) -> None:
        """A Seven: ``p`` and ``t`` each take a uniformly random card of the other's hand."""
        s = self.state
        mine, theirs = s.hands[p], s.hands[t]
        i = self.rng.randrange(len(theirs))
        j = self.rng.randrange(len(mine))
        got, gave = theirs[i], mine[j]
        mine[j], theirs[i] = got, gave
        self.log_event("swap", p, NO_CARD, t)
        self.log_event("take", p, got, t)
        self.log_event("give", t, got, p)
        self.log_event("take", t, gave, p)
        self.log_event("give", p, gave, t)
        self._forget_draw(p)
        self._forget_draw(t)

    def _pass(self, p: int) -> None:
        """The turn passes without a card (skipped in the Guarantee Joker's mode, or nothing
        left to draw). A whole round of it ends the mode."""
        s = self.state
        self.log_event("pass", p, NO_CARD, -1)
        self._note_draw(p)
        s.stuck += 1
        if s.stuck >= self.num_players and s.victim >= 0:
            # Outside the mode a pass needs both piles spent, so every card of the suit to
            # follow is in some hand and its holder must drop it: only the mode can stick.
            s.stuck = 0
            self.log_event("stuck", -1, NO_CARD, -1)
            self._end_mode()
        self.push("turn", self.next_seat(p), False)

    # ------------------------------------------------------------ the Queen's Jack round
    def jack_round_resolve(self, frame: Frame) -> None:
        """The round reaches ``frame.seat``: it drops its Jacks (a decision: which ends on
        top), or has none and the round moves on."""
        seat, (left,) = frame.seat, frame.args
        for c in self.state.hands[seat]:
            if RANK[c] == JACK:
                self.push("jacks", seat, left)
                return
        self.log_event("no_jacks", seat, NO_CARD, -1)
        self._jack_round_on(seat, left - 1)

    def _jack_round_on(self, seat: int, left: int) -> None:
        if left:
            self.push("jack_round", self.next_seat(seat), left)
        else:
            self.log_event("jack_round_over", -1, self.state.piles[0][-1], -1)

    def jacks_legal(self, frame: Frame) -> list[int]:
        out = []
        for c in self.state.hands[frame.seat]:
            if RANK[c] == JACK and c not in out:
                out.append(c)
        out.sort()
        return out

    def jacks_apply(self, frame: Frame, top_jack: int) -> None:
        """``seat`` drops all their Jacks, ``top_jack`` last (on top)."""
        s = self.state
        seat, (left,) = frame.seat, frame.args
        hand = s.hands[seat]
        jacks = sorted(c for c in hand if RANK[c] == JACK)
        jacks.remove(top_jack)
        jacks.append(top_jack)
        fours = 0
        for c in jacks:
            self.move(("hand", seat), ("pile", 0), c, "play", seat)
            fours += self._count_run(c)
        s.owners[0] = seat
        s.three_live = s.locked = s.free = False
        s.stuck = 0
        s.drew_suit[seat] = s.drew_rank[seat] = -1
        s.drew_lock[seat] = 0
        if s.victim >= 0:
            self._check_mode_end()
        if not hand:
            self._go_out(seat)
            return
        self._jack_round_on(seat, left - 1)
        for _ in range(fours):
            self.push("four", seat)

    # ------------------------------------------------------------ Four in a Row
    def four_resolve(self, frame: Frame) -> None:
        self.log_event("four_in_a_row", frame.seat, NO_CARD, self.state.run_number)
        self.push("bottom", frame.seat, self.num_players)

    def bottom_legal(self, frame: Frame) -> list[int]:
        return [BOTTOM_ACTION[c] for c in sorted(set(self.state.hands[frame.seat]))]

    def bottom_apply(self, frame: Frame, a: int) -> None:
        s = self.state
        seat, (left,) = frame.seat, frame.args
        self.move(("hand", seat), ("under", 0), ACTIONS.value(a), "bottom", seat)
        left -= 1
        if s.victim >= 0:
            self._check_mode_end()
        if left:
            self.push("bottom", self.next_seat(seat), left)
            return
        out = [q for q in range(self.num_players) if not s.hands[q]]
        if out:
            for q in out:
                self.log_event("out", q, NO_CARD, -1)
            self._finish(out)

    # ------------------------------------------------------------ King of Hearts
    def _redeal(self, p: int) -> None:
        """Every card but the King of Hearts is shuffled and ``hand_size`` dealt to each,
        from ``p``'s left; the rest is the draw pile. The Guarantee Joker is reset."""
        s = self.state
        n = self.num_players
        size = self.config.hand_size
        top = s.piles[0][-1]
        pool = s.stock + s.piles[0][:-1]
        for hand in s.hands:
            pool += hand
        self.rng.shuffle(pool)
        hands: list[list[int]] = [[] for _ in range(n)]
        pos = 0
        for _ in range(size):
            for k in range(1, n + 1):
                hands[(p + k) % n].append(pool[pos])
                pos += 1
        s.hands = hands
        s.stock = pool[pos:]
        self.set_pile(0, [top])
        # the run is untouched: the redeal puts no card on the pile, so the King stays counted
        # once (a run it completed starts again from the next card) and the next King continues
        # a run it is part of
        s.drew_suit = [-1] * n
        s.drew_rank = [-1] * n
        s.drew_lock = [0] * n
        self.log_event("redeal", p, top, size)
        if s.victim >= 0:
            self._end_mode()
        s.combo_used = False

    # ------------------------------------------------------------ the Guarantee Joker
    def _combo(self, q: int) -> None:
        """The Guarantee Joker on the other Joker: ``q`` draws the entire draw pile; the mode
        starts (a standing frame under the agenda) while the piles hold few cards."""
        s = self.state
        s.combo_used = True
        self.log_event("guarantee", q, NO_CARD, len(s.stock))
        drawn = 0
        while s.stock:
            self.move(("stock",), ("hand", q), event="draw", player=q)
            drawn += 1
        self.log_event("forced_draw", q, NO_CARD, drawn)  # closed like an effect's draws
        self._forget_draw(q)
        self._rebuild_if_spent()
        if len(s.stock) + len(s.piles[0]) < self.threshold:
            s.agenda.insert(0, Frame("mode", q))
            self.log_event("guarantee_mode", q, NO_CARD, self.threshold)

    def _check_mode_end(self) -> None:
        s = self.state
        if len(s.stock) + len(s.piles[0]) >= self.threshold:
            self._end_mode()

    def _end_mode(self) -> None:
        s = self.state
        self.log_event("guarantee_over", s.victim, NO_CARD, len(s.stock) + len(s.piles[0]))
        del s.agenda[0]

    # ------------------------------------------------------------ the end
    def _team(self, p: int) -> list[int]:
        team = self.team_of
        return [q for q in range(self.num_players) if team[q] == team[p]]

    def _go_out(self, p: int) -> None:
        self.log_event("out", p, NO_CARD, -1)
        self._finish(self._team(p))

    def _finish(self, winners: list[int]) -> None:
        s = self.state
        self.terminated = True
        self.winners = tuple(sorted(set(w for q in winners for w in self._team(q))))
        s.scores = list(self.final_scores())
        self.log_event("game_over", -1, NO_CARD, len(self.winners))

    def final_scores(self) -> tuple[int, ...]:
        """Cards left in hand (fewer is better); in team play, the team's cards together."""
        return self.scores_of_hands(self.config, [len(h) for h in self.state.hands])

    @staticmethod
    def scores_of_hands(config: BabyEatingEightsConfig, sizes: Sequence[int]) -> tuple[int, ...]:
        """:meth:`final_scores` from the hands' sizes: what a compiled table that kept only
        the sizes reports by the same rule."""
        if not config.teams:
            return tuple(int(size) for size in sizes)
        team_of = config.team_of()
        totals = [0] * config.teams
        for q, size in enumerate(sizes):
            totals[team_of[q]] += int(size)
        return tuple(totals[team_of[q]] for q in range(len(sizes)))

    def ranks(self) -> tuple[int, ...]:
        """Every winner shares first place (Four in a Row can empty hands of several teams);
        the others follow by :meth:`final_scores`, fewer cards first."""
        if not self.terminated:
            return (0,) * self.num_players
        return self.ranks_from(self.winners, self.final_scores())

    @classmethod
    def ranks_from(cls, winners: Sequence[int], scores: Sequence[int]) -> tuple[int, ...]:
        win = set(winners)
        keys = [(0, 0) if p in win else (1, x) for p, x in enumerate(scores)]
        return tuple(sum(1 for other in keys if other < key) for key in keys)

    def _score_returns(self) -> list[float]:
        """Fewer cards than the table's mean is better: (mean - own) / hand size."""
        scores = self.final_scores()
        mean = sum(scores) / len(scores)
        return [(mean - x) / self.config.hand_size for x in scores]

    # ------------------------------------------------------------ text
    def render(self, seat: int | None = None) -> str:
        s = self.state
        cfg = self.config
        lines = [f"{self.variant}  turn {self.turn}" + ("  (game over)" if self.game_over else "")]
        suit = SUITS[s.suit] if s.suit >= 0 else "-"
        flags = [name for name, on in (("three live", s.three_live), ("locked", s.locked),
                                        ("anything goes", s.free)) if on]
        lines.append(
            f"top {card_text(s.top)}  suit {suit}  stock {len(s.stock)}  drop {len(s.discard)}  "
            f"direction {'clockwise' if s.direction == 1 else 'counter-clockwise'}"
            + "".join(f"  [{f}]" for f in flags))
        gj = card_text(self.guarantee)
        mode = (f"  mode on player {s.victim} until the piles hold {self.threshold}"
                if s.victim >= 0 else "")
        lines.append(f"guarantee joker {gj}{' (spent)' if s.combo_used else ''}{mode}  "
                     f"run {s.run_length}x{s.run_number}")
        if not self.game_over:
            current = self.current_player
            lines.append(f"phase {self.phases[s.agenda[-1].kind]}  turn of player {s.actor}"
                         + (f"  (player {current} acts)" if current != s.actor else "")
                         + ("  drops again" if _extra_drop(self, -1) else ""))
        for p in range(self.num_players):
            mark = ">" if p == self.current_player else " "
            cards = sorted(s.hands[p])
            shown = hand_shown(cards, seat is None or seat == p)
            team = f"  [team {self.team_of[p]}]" if cfg.teams else ""
            lines.append(f"{mark} player {p}: {shown}{team}")
        return "\n".join(lines + self._render_outcome(seat))


#: the view class made from the declared fields (the name the rest of the package uses)
BabyEatingView = BabyEatingEightsGame.View
