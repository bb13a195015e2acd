"""Crazier Eights, as James Gray's rulebook gives it, with a card set of our own as data.

Every card is unique: 52 cards, ranks A-K in four colours (purple/eye,
green/ankh, blue/moon, orange/sun), some multicoloured, each an event or an
asset with its own abilities, read from a TOML card file (ours is
eights/data/crazier_eights.toml; the card_file option loads your own). Two to
eight players, seven cards each; two decks shuffle together for five or more.

A turn has four phases. **Beginning**: the triggered abilities of the assets
in play that fire at the beginning of the turn (the turn's players' own
first, then the others' in turn order; the player taking the turn orders one
player's simultaneous abilities). **Draw**: draw a card. **Main**: discard
one card (same colour or rank as the top card; 8s wild, naming a colour; a
multicoloured top card accepts any of its colours) and play one card for its
effect (an event resolves and goes to the bottom of the discard pile; an
asset goes into play in front of you), in either order, plus any extra
discards an ability grants. **End**: the end-of-turn abilities. The first
player with no cards in hand wins. A draw from an empty draw pile first
shuffles the discard pile but its top card into a new one; when that is
impossible (one card in the discard pile) the game ends and the fewest cards
in hand win. A player who loses leaves the game, their hand and assets going
to the bottom of the discard pile; the last player left wins. Teams (``teams``)
see each other's hands, take their turns together and win or lose together.

What is pending is the agenda's frames (:mod:`eights.engines.table`), top
last. Decisions: ``main`` (discard, play, or end the main phase),
``name_colour`` (after an 8), and the ability decisions ``target`` (a
player), ``colour``, ``choose`` (a card: to destroy, restore, trade or put on
the bottom of the draw pile), ``ask`` (yes or no, for "you may") and
``order`` (which of one player's simultaneous abilities first). Effects
resolved as they reach the top: ``turn``, ``draw_phase``, ``main_phase``,
``end_phase``, ``next_turn``, ``run`` (an ability's program from a step on;
it carries its card, so it still happens after its card is destroyed) and
``settle`` (an event goes to the bottom of the discard pile). Every frame is
public. The second pile of the table holds an event while it resolves.

Actions (223, :mod:`eights.engines.crazier_actions`): ``discard <card>``
(0-51), ``play <card>`` (52-103), ``end`` (104), ``colour P|G|B|O``
(105-108), ``target <seat>`` (109-116), ``choose <card>`` (117-168),
``order <card>`` (169-220), ``yes``, ``no`` (221-222). The abilities are run
by :mod:`eights.engines.crazier_abilities`, mixed into the engine; the cards
and their compiled abilities come from :mod:`eights.engines.crazier_cards`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ..cards import NO_CARD, cards_count
from ..config import ConfigError, GameConfig, check_teams, option, seat_teams
from .base import Event
from .cardset import CardSet
from .crazier_abilities import (
    ABILITY_ARGS,
    ASKS,
    DISCARD_PILE,
    RESOLVING,
    TRADE_TAKE,
    AbilityRules,
    ability_ask,
)
from .crazier_actions import (
    ACTIONS,
    CARDSET,
    COLOUR_ID,
    DISCARD_ID,
    END_ID,
    MAX_PLAYERS,
    NUM_CARDS,
    ORDER_ID,
    PLAY_ID,
)
from .crazier_cards import (
    BEGIN_TURN,
    COLOUR_NAMES,
    END_TURN,
    OPPONENT_BEGIN_TURN,
    PLAY,
    CardFileError,
    CrazierCards,
    from_text,
    read,
    sha256,
    text_of,
)
from .defaults import (
    Default,
    Known,
    While,
    constant,
    from_config,
    in_a_match,
    last_dealer,
    per_seat,
    seat_or_none,
    stock_left,
)
from .determinizers.crazier_eights import CrazierEightsDeterminizer
from .encoding import Allies, Bits, CardCounts, CardList, Choice, Flag, OneHot, PerSeat, Scaled
from .encoding import Seat as SeatEncoding
from .events import CORE_EVENTS, PILE_GAME_EVENTS, EventKind, declare_events, pick
from .fields import ViewField, core
from .memory import memory_fields
from .table import (
    HAND,
    PILE,
    STOCK,
    UNDER,
    ZONE,
    Frame,
    TableEngine,
    TableState,
    agenda_field,
    empty_piles,
)

EIGHT = 8
PHASES = ("begin", "draw", "main", "end")
BEGIN, DRAW, MAIN, END = range(4)
#: the decision at hand, by its frame's kind (the view's ``phase``)
DECISIONS = {"main": "main", "name_colour": "name colour", "target": "choose player",
             "colour": "choose colour", "choose": "choose card", "ask": "yes or no",
             "order": "order"}

# ------------------------------------------------------------------ config
@dataclasses.dataclass(frozen=True)
class CrazierEightsConfig(GameConfig):
    """Options of Crazier Eights; the rulebook's own game is every default."""

    variant: ClassVar[str] = "crazier_eights"
    FILE_OPTIONS: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "card_file": ("card_set", "card_set_sha256")}

    num_players: int = option(2, doc="players at the table", min=2, max=MAX_PLAYERS)
    num_decks: int = option(0, doc="decks shuffled together; 0: one for up to four players, "
                                   "two for five to eight", min=0, max=2)
    hand_size: int = option(7, doc="cards each player draws at the start", min=1, max=12)
    teams: int = option(0, doc="teams of allies, seat s in team s % teams (allies sit apart); "
                               "0 for no teams", min=0, max=MAX_PLAYERS // 2)
    games: int = option(1, doc="games in a match, scored with points (one per card in hand, "
                               "the winner none); the fewest points win", min=1, max=100)
    reward: str = option("win_loss", doc="end-of-game rewards: +1/-1, or points-based",
                         choices=("win_loss", "score"))
    card_file: str = option(None, doc="a TOML card file of your own, read once when the "
                                      "config is made: its text becomes card_set (the option "
                                      "then reads None)", optional=True)
    card_set: str = option(None, doc="the text of the card set played (None: the eights base "
                                     "set); records, results stores, models and the protocol "
                                     "carry it", optional=True)
    card_set_sha256: str = option(None, doc="SHA-256 of card_set (hex), filled in from it; a "
                                            "value given must match it", optional=True)
    max_turns: int = option(3000, doc="actions applied in a hand, forced ones included, after "
                                     "which the game is truncated", min=1)

    @property
    def plays_match(self) -> bool:
        """A match is ``games`` above 1."""
        return self.games > 1

    @property
    def decks(self) -> int:
        return self.num_decks or (1 if self.num_players <= 4 else 2)

    def check(self) -> None:
        n = self.num_players
        check_teams(self.variant, n, self.teams)
        if self.teams and n > 3 * self.teams:
            raise ConfigError(
                f"{self.variant}: teams={self.teams} with num_players={n} makes teams of more "
                f"than three; teams have two or three players (use more teams)")
        if n * self.hand_size + 1 > NUM_CARDS * self.decks:
            raise ConfigError(
                f"{self.variant}: num_players={n} with hand_size={self.hand_size} needs "
                f"{n * self.hand_size + 1} cards but {self.decks} deck(s) hold "
                f"{NUM_CARDS * self.decks}; use num_decks=2 or smaller hands")
        self._read_card_file()
        self._check_card_set()

    def _read_card_file(self) -> None:
        """Read ``card_file`` once, into ``card_set``: the config then holds the cards
        themselves, so what is made from it never opens the file again (it may have been
        edited or deleted since)."""
        if self.card_file is None:
            return
        if self.card_set is not None:
            raise ConfigError(f"{self.variant}: card_file and card_set are both given; give "
                              f"one (card_file names a file, card_set is its text)")
        try:
            text = read(self.card_file)
            from_text(text, self.card_file)
        except CardFileError as err:
            raise ConfigError(f"{self.variant}: card_file: {err}") from None
        object.__setattr__(self, "card_set", text)
        object.__setattr__(self, "card_file", None)

    def _check_card_set(self) -> None:
        """Validate ``card_set`` and fill in (or check) its SHA-256."""
        if self.card_set is None:
            if self.card_set_sha256 is not None:
                raise ConfigError(f"{self.variant}: card_set_sha256 is given without card_set; "
                                  f"give the card set's text (or card_file) with it")
            return
        try:
            from_text(self.card_set)
        except CardFileError as err:
            raise ConfigError(f"{self.variant}: {err}") from None
        digest = sha256(self.card_set)
        if self.card_set_sha256 not in (None, digest):
            raise ConfigError(f"{self.variant}: card_set_sha256={self.card_set_sha256!r:.80} "
                              f"does not match card_set, whose SHA-256 is {digest}; the text "
                              f"was changed since the hash was taken")
        object.__setattr__(self, "card_set_sha256", digest)

    @property
    def cards(self) -> CrazierCards:
        """The card set played, parsed once per text."""
        return from_text(self.card_set)

    def team_of(self) -> tuple[int, ...]:
        return seat_teams(self.num_players, self.teams)

    def goal(self) -> str:
        if self.games > 1:
            return (f"A match of {self.games} games: a point per card left in hand; the fewest "
                    f"points win.")
        return "Be the first with no cards in hand."


# ------------------------------------------------------------------ state
@dataclasses.dataclass(slots=True)
class CrazierState(TableState):
    """The table (pile 0: the discard pile; pile 1: an event resolving), and the turn."""

    lead: int = 0       # the seat whose turn it is (its allies take it with it)
    phase: int = BEGIN  # BEGIN, DRAW, MAIN, END
    named: int = -1     # the colour named for the 8 on top (-1: none; follow the top card)
    #: per seat: discards left this turn (one, plus the extra ones abilities give)
    discards: list[int] = dataclasses.field(default_factory=list)
    #: per seat: 1 once it played a card for its effect this turn
    played: list[int] = dataclasses.field(default_factory=list)
    #: per seat: 1 once it lost the game and left
    out: list[int] = dataclasses.field(default_factory=list)
    #: per seat: cards in hand when it lost (its points)
    lost_with: list[int] = dataclasses.field(default_factory=list)
    #: per seat: the top cards of the draw pile it has seen (looked at or revealed), top first
    known: list[list[int]] = dataclasses.field(default_factory=list)
    #: the card a Trade's player took, while it chooses the card to give back: one it held
    #: before the Trade (-1: none)
    trade_taken: int = NO_CARD


def _total(config: CrazierEightsConfig) -> int:
    return NUM_CARDS * config.decks


def _decks(config: CrazierEightsConfig) -> int:
    return config.decks


def _score_scale(config: CrazierEightsConfig) -> float:
    return float(20 * config.games)


def team_in_play(team: Sequence[int], out: Sequence[int], seat: int) -> list[int]:
    """``seat``'s team (``team``: each seat's) still in the game (``out``: each seat's flag),
    from ``seat`` on in seat order: the order allies take their main phases. The protocol's
    default agenda reads it too."""
    n = len(team)
    return [q for k in range(n) if team[q := (seat + k) % n] == team[seat] and not out[q]]


def _follow(game: CrazierEightsGame, seat: int) -> int:
    """The colours a discard may have (bit per colour): the colour named for an 8 on top,
    else every colour of the top card."""
    s = game.state
    if s.named >= 0:
        return 1 << s.named
    pile = s.piles[DISCARD_PILE]
    return game.colour_bits[pile[-1]] if pile else 0


def _decision(game: CrazierEightsGame, seat: int) -> str:
    agenda = game.state.agenda
    return DECISIONS.get(agenda[-1].kind, "main") if agenda else "main"


def _looking_at(game: CrazierEightsGame, seat: int) -> tuple[int, ...]:
    """The hand a Trade's player is looking at while choosing the card to take."""
    frame = game.state.agenda[-1] if game.state.agenda else None
    if frame is None or frame.kind != "choose" or frame.args[5] != TRADE_TAKE:
        return ()
    card, trigger, pc, target = frame.args[:4]
    if game.programs[card][trigger][pc][0] != "trade":
        return ()
    return tuple(sorted(game.state.hands[target]))


def _ask(game: CrazierEightsGame, seat: int) -> tuple[int, int]:
    agenda = game.state.agenda
    return ability_ask(game.programs, agenda[-1] if agenda else None)


def _ally_hands(game: CrazierEightsGame, seat: int) -> tuple[tuple[int, ...], ...]:
    """Each ally's hand, sorted; ``()`` for the others (the ``allies`` visibility hides those
    anyway: without teams, every seat, so no hand is sorted for nothing)."""
    team = game.team_of
    return tuple(tuple(sorted(h)) if team[q] == team[seat] and q != seat else ()
                 for q, h in enumerate(game.state.hands))


# ------------------------------------------------------------------ defaults of a minimal view
# What a reader of a view without the field takes it to be (eights/engines/defaults.py).
def _agenda_default(known: Known) -> list[dict[str, Any]]:
    """During a main phase, the main phase of the turn ``current_player`` leads: its
    ``main`` frame (and a ``name_colour`` on it after an 8) on top of its allies' still to
    come and the ``end_phase`` (which pushes the ``next_turn`` when it resolves)."""
    seat = known.values["current_player"]
    if seat < 0:
        return []
    frames = [{"kind": "end_phase", "seat": seat, "args": []}]
    frames += [{"kind": "main", "seat": q, "args": []}
               for q in reversed(team_in_play(known.config.team_of(), known.values["out"],
                                              seat))]
    if known.values["phase"] == DECISIONS["name_colour"]:
        frames.append({"kind": "name_colour", "seat": seat, "args": []})
    return frames


_TURN_FRAMES = ("turn", "draw_phase", "main_phase", "end_phase", "next_turn")
#: the decisions of a main phase (any other is an ability's, and needs the agenda sent)
_MAIN_DECISIONS = (DECISIONS["main"], DECISIONS["name_colour"])


def _lead_default(known: Known) -> int | None:
    for frame in known.values["agenda"]:
        if frame.kind in _TURN_FRAMES:
            return frame.seat
    return seat_or_none(known.values["current_player"])


def _trade_taken_default(known: Known) -> str | None:
    """While a Trade's player gives a card back: the card of its hand that ``legal`` offers
    no ``choose`` for, the one it took (none when it also holds a copy from before)."""
    if known.values["asks"] != ASKS.index("a card to give"):
        return None
    offered = {text.removeprefix("choose ") for text in known.legal}
    left = [c for c in known.values["hand"] if text_of(c) not in offered]
    return text_of(left[0]) if len(left) == 1 else None


def _turn_phase_default(known: Known) -> int:
    kinds = {frame.kind for frame in known.values["agenda"]}
    for kind, phase in (("draw_phase", 0), ("main_phase", 1), ("end_phase", 2),
                        ("next_turn", 3)):
        if kind in kinds:
            return phase
    return 2


def _follow_default(known: Known) -> int:
    named, top = known.values["named"], known.top
    if named >= 0:
        return 1 << named
    if top < 0:
        return 0
    return sum(1 << c for c in known.config.cards.cardset.colours_of[top])


def _on_table(known: Known) -> int:
    v = known.values
    return (sum(v["hand_sizes"]) + sum(v["discard_counts"]) + len(v["resolving"])
            + sum(map(len, v["in_play"])))


def _face_up(known: Known) -> list[int]:
    """The copies of each card face up in a protocol view: the discard pile, the event
    resolving and every seat's assets in play (what ``unseen_cards``' default leaves out)."""
    v = known.values
    counts = list(v["discard_counts"])
    for c in (*v["resolving"], *(c for zone in v["in_play"] for c in zone)):
        counts[c] += 1
    return counts


def _a_match(config: CrazierEightsConfig) -> bool:
    return config.games > 1


#: the match bookkeeping decides what follows a game's end (who starts, whether the match ends)
_IN_A_MATCH = in_a_match("`games` is more than 1", _a_match)


def _ability_default(known: Known) -> tuple[int, int]:
    agenda = known.values["agenda"]
    return ability_ask(known.config.cards.programs, agenda[-1] if agenda else None)


def _choosing_card(why: str) -> While:
    """Required while the seat chooses a card (``why`` says what the field decides then)."""
    phase = DECISIONS["choose"]
    return While(f"while `phase` is `{phase}` ({why})",
                 lambda known: known.values["phase"] == phase,
                 {"required": ["phase"], "properties": {"phase": {"const": phase}}})


VIEW_FIELDS: tuple[ViewField, ...] = (
    core("hand", CardList(NUM_CARDS, _decks), "copies of each card in the observer's hand"),
    ViewField("top", "card", "the top card of the discard pile",
              "s.piles[0][-1] if s.piles[0] else -1", OneHot(NUM_CARDS)),
    ViewField("follow_colours", "int", "the colours a discard may have, a bit each (purple 1, "
              "green 2, blue 4, orange 8): the named colour after an 8, else the top card's "
              "(any of a multicoloured card's); its rank and 8s always may",
              _follow, Bits(4), feature="follow",
              default=Default("the bit of `named` when it is not null, else the bits of the top "
                              "card's colours", _follow_default)),
    ViewField("named", "suit", "the colour named for the 8 on top (null: none)", "s.named",
              OneHot(4)),
    ViewField("in_play", "seat_cards", "each seat's assets in play (its in-play zone)",
              "tuple(tuple(sorted(z)) for z in s.zones)",
              PerSeat(CardList(NUM_CARDS, _decks)), feature="zones"),
    ViewField("ally_hands", "seat_cards", "each ally's hand (teams see each other's hands); "
              "empty for the others", _ally_hands, PerSeat(CardList(NUM_CARDS, _decks),
                                                           others=True),
              visibility="allies", hidden=(),
              default=per_seat([])),
    ViewField("known_stock", "seen_cards", "the top cards of the draw pile the observer has looked "
              "at or seen revealed, top first", "tuple(s.known[seat])",
              CardList(NUM_CARDS, _decks), visibility="own",
              default=constant([]), required_while=_choosing_card(
                  "what the seat looked at decides what it may put on the bottom")),
    ViewField("looking_at", "seen_cards", "the opponent's hand a Trade's player looks at while "
              "choosing the card to take (only that player sees it)", _looking_at,
              CardList(NUM_CARDS, _decks), visibility="acting", hidden=(),
              default=constant([]), required_while=_choosing_card(
                  "empty but for a Trade's choice of the card to take")),
    ViewField("trade_taken", "card", "the card a Trade's player took, while it chooses the "
              "card to give back, one it held before (only that player sees it; null: none)",
              "s.trade_taken", visibility="acting",
              default=Default("while `asks` is 8 (a card to give): the card of `hand` that `legal`"
                              " has no `choose` for, else `null`", _trade_taken_default)),
    ViewField("resolving", "cards", "the event being resolved (it goes to the bottom of the "
              "discard pile after its effect)", "tuple(s.piles[1])",
              CardList(NUM_CARDS, _decks),
              default=Default("the cards of the `settle` frames of `agenda`",
                              lambda known: [text_of(f.args[0]) for f in known.values["agenda"]
                                             if f.kind == "settle"])),
    ViewField("discard_counts", "card_counts", "every card in the discard pile, its top "
              "included (face up: restoring reads it)", "bytes(s.pile_counts[0])",
              CardCounts(NUM_CARDS, _decks), feature="discards"),
    ViewField("phase", "phase", "what the player to act decides: " + ", ".join(
              f"`{d}`" for d in DECISIONS.values()), _decision,
              Choice(tuple(DECISIONS.values())), names=tuple(DECISIONS.values())),
    ViewField("turn_phase", "count", "the phase of the turn: 0 beginning, 1 draw, 2 main, "
              "3 end", "s.phase", OneHot(4),
              default=Default("from `agenda`: `0` while it holds a `draw_phase` frame, `1` while a"
                              " `main_phase`, `2` while an `end_phase`, `3` while a `next_turn`",
                              _turn_phase_default)),
    ViewField("ability", "card", "the card whose ability asks the decision at hand (null: "
              "none)", lambda g, seat: _ask(g, seat)[0], OneHot(NUM_CARDS),
              default=Default("the card of the agenda's top frame when it is an ability's decision"
                              " (`target`, `colour`, `choose`, `ask`), else `null`",
                              lambda known: (None if _ability_default(known)[0] < 0
                                             else text_of(_ability_default(known)[0])))),
    ViewField("asks", "count", "what that ability asks, by code: " + "; ".join(
              f"{k} {name}" for k, name in enumerate(ASKS)), lambda g, seat: _ask(g, seat)[1],
              OneHot(len(ASKS)),
              default=Default("what the agenda's top frame asks, by the code the field's meaning "
                              "lists", lambda known: _ability_default(known)[1])),
    ViewField("lead", "seat", "whose turn it is (with teams, the ally who leads the team's "
              "turn)", "s.lead", SeatEncoding(),
              default=Default("the `seat` of the agenda's turn frames (`draw_phase`, `main_phase`,"
                              " `end_phase`, `next_turn`), else `current_player`", _lead_default)),
    ViewField("discards_left", "counts", "per seat: discards left this turn",
              "tuple(s.discards)", PerSeat(Scaled(3))),
    ViewField("played", "counts", "per seat: 1 once it played a card this turn",
              "tuple(s.played)", PerSeat(Flag())),
    ViewField("out", "counts", "per seat: 1 once it lost the game and left", "tuple(s.out)",
              PerSeat(Flag())),
    ViewField("teams", "ints", "each seat's team (the seat itself without teams)",
              "g.team_of", Allies(), feature="allies",
              default=from_config("teams", lambda config: list(config.team_of()))),
    core("current_player", SeatEncoding(), "who acts now", feature="to_act"),
    core("hand_sizes", PerSeat(Scaled(20), others=True), "each opponent's hand size / 20"),
    ViewField("stock_size", "count", "cards in the face-down draw pile", "len(s.stock)",
              Scaled(_total), feature="stock",
              default=stock_left("the deck's cards less the hands, the discard pile, the cards in "
                                 "play and those resolving; send it only with `discard_counts`",
                                 _on_table)),
    ViewField("discard_size", "count", "cards in the discard pile", "len(s.piles[0])",
              Scaled(_total),
              default=Default("the copies in `discard_counts`",
                              lambda known: sum(known.values["discard_counts"]))),
    ViewField("lost_with", "counts", "per seat: cards in hand when it lost (its points)",
              "tuple(s.lost_with)",
              default=per_seat(0)),
    core("scores", PerSeat(Scaled(_score_scale)), "match points / (20 x games)",
         default=per_seat(0), required_while=_IN_A_MATCH),
    ViewField("hand_number", "count", "games played before this one in a match",
              "s.hand_number",
              default=constant(0), required_while=_IN_A_MATCH),
    ViewField("first_player", "seat", "who played first this game", "s.first",
              default=last_dealer(), required_while=in_a_match(
                  "`games` is more than 1", _a_match, unless_history=True)),
    agenda_field(
        default=Default(
            "a main phase's: a `main` frame for `current_player` (under a `name_colour` one "
            "during `name colour`) on top of one for each ally still to take it (seat order) "
            "and an `end_phase` frame for `current_player`", _agenda_default),
        required_while=While(
            "while `phase` is neither `main` nor `name colour` (an ability's decision), and "
            "with teams (allies still to take the team's main phase)",
            lambda known: (known.values["phase"] not in _MAIN_DECISIONS
                           or known.config.teams > 0),
            None)),
) + memory_fields("crazier_eights", cards=NUM_CARDS, copies=_decks,
                  suits=len(CARDSET.colour_codes), known=True, table=_face_up,
                  rename={"played": "played_cards", "named": "named_colours"})


# ------------------------------------------------------------------ the engine


class CrazierEightsGame(AbilityRules, TableEngine):
    """Crazier Eights; see the module docstring."""

    variant = "crazier_eights"
    Config = CrazierEightsConfig
    actions = ACTIONS
    cardset = CARDSET
    low_score_wins = True
    view_fields = VIEW_FIELDS
    phases = DECISIONS
    determinizer = CrazierEightsDeterminizer
    #: the action blocks each decision offers (a reader without the view's phase derives it)
    offers: ClassVar[dict[str, tuple[str, ...]]] = {
        "main": ("play", "discard", "end"), "name_colour": ("colour",), "target": ("target",),
        "colour": ("colour",), "choose": ("choose", "no"), "ask": ("yes", "no"),
        "order": ("order",)}
    idle_frame = "main"
    frame_args: ClassVar[dict[str, tuple[str, ...]]] = {
        "turn": (), "draw_phase": (), "main_phase": (), "end_phase": (), "next_turn": (),
        "main": (), "name_colour": (), "settle": ("card",), "order": ("seat", "int", "count"),
        **{kind: ABILITY_ARGS for kind in ("run", "target", "colour", "choose", "ask")},
    }
    event_kinds = declare_events(CORE_EVENTS, pick(PILE_GAME_EVENTS, "draw", "score"), (
        EventKind("deal", "a game of the match is dealt; player: who goes first; arg: the "
                  "game's number, 0 first", "Game {number} is dealt; {player} goes first.",
                  arg="count", new_hand=True),
        EventKind("starter", "the card turned up to start the discard pile",
                  "The discard pile starts with {card}.", player=False, card=True,
                  flow=("stock", "table")),
        EventKind("turn", "the player's turn begins", "{player}'s turn begins."),
        EventKind("discard", "the player discards a card", "{player} discards {card}.",
                  card=True, flow=("hand", "table")),
        EventKind("named", "the player names a colour for an 8",
                  "{player} names {suit}.", arg="suit"),
        EventKind("asset", "the player puts an asset into play",
                  "{player} puts {card} into play.", card=True, flow=("hand", "table")),
        EventKind("event", "the player plays an event card for its effect",
                  "{player} plays {card} for its effect.", card=True, flow=("hand", "table")),
        EventKind("settled", "the event card goes to the bottom of the discard pile",
                  "{card} goes to the bottom of the discard pile.", card=True),
        EventKind("trigger", "an ability of the player's card takes effect; arg: its trigger "
                  "(1 begin turn, 2 end turn, 3 an opponent's turn begins)",
                  "{card} of {player} takes effect.", card=True, arg="int"),
        EventKind("extra", "the card lets the player discard more cards this turn; arg: how "
                  "many", "{player} may discard {arg} more cards this turn.", card=True,
                  arg="count"),
        EventKind("chosen", "the player chooses a seat for an ability; arg: that seat",
                  "{player} chooses {target}.", arg="seat"),
        EventKind("colour", "the player names a colour for an ability",
                  "{player} names {suit}.", arg="suit"),
        EventKind("destroy", "the player destroys an asset; arg: the seat that held it",
                  "{player} destroys {card}.", card=True, arg="seat"),
        EventKind("restore", "the player puts an asset from the discard pile into play",
                  "{player} puts {card} from the discard pile into play.", card=True),
        EventKind("look", "the player looks at a card of the draw pile (seen by the player "
                  "only); arg: its place from the top, 0 first", "{player} looks at {card}.",
                  card=True, arg="count", visibility="player"),
        EventKind("reveal", "the player reveals a card of the draw pile; arg: its place from "
                  "the top, 0 first", "{player} reveals {card} from the draw pile.",
                  card=True, arg="count"),
        EventKind("bottom", "the player puts a card looked at on the bottom of the draw pile "
                  "(seen by the player only); arg: where it was, 0 the top",
                  "{player} puts {card} on the bottom of the draw pile.", card=True,
                  arg="count", visibility="player"),
        EventKind("put_in_play", "the player puts an asset from the draw pile into play",
                  "{player} puts {card} from the draw pile into play.", card=True,
                  flow=("stock", "table")),
        EventKind("fewer", "an ability makes the player draw fewer cards; arg: how many fewer",
                  "{player} draws fewer cards: {arg} prevented.", arg="count"),
        EventKind("take", "the player takes a card in a Trade (seen by the player only); arg: "
                  "the seat it came from", "{player} takes {card} from {target}.", card=True,
                  arg="seat", visibility="player", flow=("hand:arg", "hand")),
        EventKind("give", "the player gives a card back in a Trade (seen by the player only); "
                  "arg: the seat it goes to", "{player} gives {card} to {target}.", card=True,
                  arg="seat", visibility="player", flow=("hand", "hand:arg")),
        EventKind("taken", "a card is taken from the player in a Trade (seen by the player "
                  "only); arg: the taker", "{player} hands {card} over to {target}.",
                  card=True, arg="seat", visibility="player", flow=("hand", "hand:arg"),
                  seen_only=True),
        EventKind("given", "the player receives a card in a Trade (seen by the player only); "
                  "arg: the giver", "{player} receives {card} from {target}.", card=True,
                  arg="seat", visibility="player", flow=("hand:arg", "hand"), seen_only=True),
        EventKind("looks_at_hand", "the player looks at a seat's hand; arg: that seat",
                  "{player} looks at {target}'s hand.", arg="seat"),
        EventKind("sees", "the player knows a card in the hand of the seat in arg (seen by the "
                  "player only): it looked at that hand, or saw the card on the draw pile "
                  "before that seat drew it", "{player} sees {card} in the hand of {target}.",
                  card=True, arg="seat", visibility="player", shows=True),
        EventKind("saved", "the player would lose, but an asset is destroyed instead",
                  "{player} would lose, but {card} is destroyed instead.", card=True),
        EventKind("loses", "the player loses the game and leaves; arg: cards in their hand",
                  "{player} loses the game and leaves.", arg="count"),
        EventKind("returned", "a card of the hand of a player who lost goes face up to the "
                  "bottom of the discard pile", "{card} from the hand of {player} goes to the "
                  "bottom of the discard pile.", card=True, flow=("hand", "table")),
        EventKind("reshuffle", "the discard pile but its top card is shuffled into the draw "
                  "pile; arg: how many cards", "The discard pile but its top card is "
                  "shuffled into the draw pile.", player=False, arg="count"),
        EventKind("impossible", "the player cannot draw: the game is over",
                  "{player} cannot draw: the game is over."),
        EventKind("out", "the player has no cards left", "{player} has no cards left."),
    ))

    config: CrazierEightsConfig
    state: CrazierState

    def __init__(self, config: CrazierEightsConfig | None = None, *, seed: int | None = None,
                 deck: Sequence[int | str] | str | None = None,
                 first_player: int | None = None, **options: Any):
        if config is None:
            config = self.Config.from_options(**options)
        elif options:
            raise ConfigError(f"{self.variant}: pass either a config or options, not both")
        self._use_cards(config)  # (before the deal: a stacked deck is read in its notation)
        super().__init__(config, seed=seed, deck=deck, first_player=first_player)

    @classmethod
    def _unstarted(cls, config: GameConfig, seed: int) -> CrazierEightsGame:
        engine = super()._unstarted(config, seed)
        engine._use_cards(config)
        return engine

    def _use_cards(self, config: CrazierEightsConfig) -> None:
        """Read the card file's rules into lookups indexed by card id."""
        if not isinstance(config, CrazierEightsConfig):
            raise ConfigError(f"{self.variant}: config must be a CrazierEightsConfig, not "
                              f"{type(config).__name__}")
        self.cards = config.cards
        self.cardset = self.cards.cardset
        self.colour_bits = tuple(sum(1 << c for c in cs) for cs in self.cardset.colours_of)
        self.rank = self.cardset.rank
        self.programs = self.cards.programs
        self.is_asset = self.cards.is_asset
        self._team_of = config.team_of()
        #: (top card, colour named) -> per card id, whether it may be discarded on them
        #: (:meth:`_discard_mask`), made as first asked from these cards' ranks and colours
        self._discard_masks: dict[tuple[int, int], bytes] = {}

    @property
    def team_of(self) -> tuple[int, ...]:
        return self._team_of

    @classmethod
    def cardset_for(cls, config: GameConfig) -> CardSet:
        return config.cards.cardset

    # ------------------------------------------------------------ decks
    def full_deck(self) -> list[int]:
        return list(range(NUM_CARDS)) * self.config.decks

    def describe_deck(self) -> str:
        decks = self.config.decks
        return "the 52 cards" if decks == 1 else f"{decks} copies of the 52 cards"

    @classmethod
    def stacked_deck(cls, hands: Sequence[Sequence[int | str] | str],
                     starter: int | str, stock: Sequence[int | str] | str = (),
                     *, config: CrazierEightsConfig | None = None, first_player: int = 0
                     ) -> list[int]:
        """The deck order that deals exactly ``hands`` (seat order) when ``first_player``
        goes first, turns ``starter`` up as the discard pile and leaves ``stock`` (top
        first) on top of the draw pile, the rest below it in id order."""
        cfg = config or CrazierEightsConfig(num_players=len(hands))
        if len(hands) != cfg.num_players:
            raise ConfigError(f"stacked_deck: {len(hands)} hands for "
                              f"num_players={cfg.num_players}")
        deck = list(range(NUM_CARDS)) * cfg.decks
        return cls._stack(hands, [starter], stock, deck, first_player)

    # ------------------------------------------------------------ the deal
    def _new_state(self, first: int) -> CrazierState:
        n = self.num_players
        return CrazierState(
            hands=[[] for _ in range(n)], **empty_piles(2, NUM_CARDS),
            zones=[[] for _ in range(n)], agenda=[], scores=[0] * n, first=first,
            discards=[0] * n, played=[0] * n, out=[0] * n, lost_with=[0] * n,
            known=[[] for _ in range(n)])

    def _deal(self, first: int) -> None:
        """Seven cards each from ``first``, the next card turned up as the discard pile;
        ``first``'s turn on the agenda."""
        s, n = self.state, self.num_players
        self._deal_hands(self._new_deck(), first, self.config.hand_size)
        for k, value in empty_piles(2, NUM_CARDS).items():
            setattr(s, k, value)
        s.zones = [[] for _ in range(n)]
        s.known = [[] for _ in range(n)]
        s.out, s.lost_with = [0] * n, [0] * n
        s.discards, s.played = [0] * n, [0] * n
        s.first, s.lead, s.named, s.phase = first, first, -1, BEGIN
        s.agenda = []
        self.log_event("deal", first, NO_CARD, s.hand_number)
        card = self.move((STOCK,), (PILE, DISCARD_PILE))
        self.log_event("starter", -1, card, -1)
        self.push("turn", first)
        self._run_agenda()

    # ------------------------------------------------------------ seats
    def allies(self, seat: int) -> list[int]:
        """``seat``'s team still in the game, from ``seat`` on in seat order."""
        return self.turn_players(seat, self.state.out)

    def turn_players(self, lead: int, out: Sequence[int]) -> list[int]:
        """The players who take ``lead``'s turn with it (``out``: each seat's flag, 1 once it
        left), in the order they take their main phases: the rule as a function of what a
        history shows, so a reader of the events (the belief's evidence) need not copy it."""
        return team_in_play(self._team_of, out, lead)

    def opponents(self, seat: int) -> list[int]:
        """The other teams' players still in the game, in turn order after ``seat``."""
        team, s, n = self._team_of, self.state, self.num_players
        return [q for k in range(1, n) if team[q := (seat + k) % n] != team[seat]
                and not s.out[q]]

    def in_order(self, seat: int) -> list[int]:
        """Every player still in the game, in turn order from ``seat``."""
        s, n = self.state, self.num_players
        return [q for k in range(n) if not s.out[q := (seat + k) % n]]

    def hands_seen_by(self, seat: int) -> tuple[int, ...]:
        """Its own hand, its allies' and, while a Trade's player chooses the card to take,
        the hand it looks at."""
        team = self._team_of
        seen = [q for q in range(self.num_players) if team[q] == team[seat]]
        if seat == self.current_player and _looking_at(self, seat):
            seen.append(self.state.agenda[-1].args[3])
        return tuple(seen)

    # ------------------------------------------------------------ the turn
    def turn_resolve(self, frame: Frame) -> None:
        """The beginning phase: the turn's counters, then the abilities it triggers."""
        s, lead = self.state, frame.seat
        mine = self.allies(lead)
        for q in range(self.num_players):
            s.discards[q] = 1 if q in mine else 0
            s.played[q] = 0
        s.lead, s.phase = lead, BEGIN
        self.log_event("turn", lead, NO_CARD, -1)
        self.push("draw_phase", lead)
        self._trigger(lead, BEGIN_TURN, OPPONENT_BEGIN_TURN)

    def draw_phase_resolve(self, frame: Frame) -> None:
        self.state.phase = DRAW
        for q in self.allies(frame.seat):
            if not self._draw(q, 1, cause=-1):
                return
        self.push("main_phase", frame.seat)

    def main_phase_resolve(self, frame: Frame) -> None:
        self.state.phase = MAIN
        self.push("end_phase", frame.seat)
        for q in reversed(self.allies(frame.seat)):
            self.push("main", q)

    def end_phase_resolve(self, frame: Frame) -> None:
        self.state.phase = END
        self.push("next_turn", frame.seat)
        self._trigger(frame.seat, END_TURN, -1)

    def next_turn_resolve(self, frame: Frame) -> None:
        """The next team's turn: the next seat clockwise on another team still in."""
        lead = frame.seat
        following = self.opponents(lead)
        if following:
            self.push("turn", following[0])

    def _trigger(self, lead: int, own: int, others: int) -> None:
        """Queue the abilities a condition of ``lead``'s turn triggers (Chapter 7): the
        turn's players' first, then the others' in turn order; a player whose cards fire
        together has them ordered by the player taking the turn (an ally orders its own)."""
        s, team = self.state, self._team_of
        groups = []
        for q in self.allies(lead) + self.opponents(lead):
            trigger = own if team[q] == team[lead] else others
            if trigger < 0:
                continue
            fired = [c for c in s.zones[q] if self.programs[c][trigger]]
            if fired:
                groups.append((q, trigger, fired))
        for q, trigger, fired in reversed(groups):
            for c in fired:
                self.push("run", q, c, trigger, 0, -1, -1, 0)
            if len(set(fired)) > 1:
                decider = q if team[q] == team[lead] else lead
                self.push("order", decider, q, trigger, len(fired))

    def order_legal(self, frame: Frame) -> list[int]:
        n = frame.args[2]
        return sorted({ORDER_ID[f.args[0]] for f in self.state.agenda[-1 - n:-1]})

    def order_apply(self, frame: Frame, a: int) -> None:
        controller, trigger, n = frame.args
        card = ACTIONS.value(a)
        agenda = self.state.agenda
        group = agenda[-n:]
        pick = next(i for i, f in enumerate(group) if f.args[0] == card)
        chosen = group.pop(pick)
        del agenda[-n:]
        agenda += group
        if len({f.args[0] for f in group}) > 1:
            self.push("order", frame.seat, controller, trigger, n - 1)
        agenda.append(chosen)

    # ------------------------------------------------------------ the main phase
    def matches(self, c: int) -> bool:
        """Whether ``c`` may be discarded now: an 8, or the top card's rank, or a colour to
        follow."""
        s = self.state
        pile = s.piles[DISCARD_PILE]
        return self.matches_on(c, pile[-1] if pile else NO_CARD, s.named)

    def matches_on(self, c: int, top: int, named: int) -> bool:
        """Whether ``c`` may be discarded on ``top`` (``NO_CARD``: an empty discard pile, on
        which anything goes) with ``named`` the colour named for the 8 on it (-1: none)."""
        if self.rank[c] == EIGHT or top < 0:
            return True
        if named >= 0:
            return bool(self.colour_bits[c] >> named & 1)
        return self.rank[c] == self.rank[top] or bool(self.colour_bits[c] & self.colour_bits[top])

    def discardable(self, top: int, named: int) -> frozenset[int]:
        """Every card that may be discarded on ``top`` with ``named`` (:meth:`matches_on`):
        the rule as data, for a reader of the history (a seat that ended its main phase with
        a discard left held none of these, as the belief reads it)."""
        return frozenset(c for c in range(NUM_CARDS) if self.matches_on(c, top, named))

    def _discard_mask(self, top: int, named: int) -> bytes:
        """Per card id, 1 where :meth:`matches_on` lets it be discarded on ``top`` with
        ``named``: one table per pair, made once (a main phase asks it of every card held at
        every decision, two method calls a card)."""
        mask = self._discard_masks.get((top, named))
        if mask is None:
            mask = self._discard_masks[top, named] = bytes(
                self.matches_on(c, top, named) for c in range(NUM_CARDS))
        return mask

    def playable(self, seat: int, c: int) -> bool:
        """An asset always; an event whose abilities must choose a card only when there is a
        card to choose (the sixth clarification)."""
        return all(self._can(need, seat) for need in self.cards.needs[c])

    def main_legal(self, frame: Frame) -> list[int]:
        s, p = self.state, frame.seat
        held = sorted(set(s.hands[p]))
        legal = []
        if s.discards[p] > 0:
            pile = s.piles[DISCARD_PILE]
            fits = self._discard_mask(pile[-1] if pile else NO_CARD, s.named)
            legal += [DISCARD_ID[c] for c in held if fits[c]]
        if not s.played[p]:
            needs = self.cards.needs  # (most cards need nothing: no call to ask)
            legal += [PLAY_ID[c] for c in held
                      if self.is_asset[c] or not needs[c] or self.playable(p, c)]
        legal.append(END_ID)
        return legal

    def main_apply(self, frame: Frame, a: int) -> None:
        if a == END_ID:
            return
        s, p = self.state, frame.seat
        block, (c,) = ACTIONS.decode(a)
        if block.name == "discard":
            s.discards[p] -= 1
            self.move((HAND, p), (PILE, DISCARD_PILE), c, "discard", p)
            s.named = -1
            if self._won(p):
                return
            self.push("main", p)
            if self.rank[c] == EIGHT:
                self.push("name_colour", p)
            return
        s.played[p] = 1
        if self.is_asset[c]:
            self.move((HAND, p), (ZONE, p), c, "asset", p)
            if not self._won(p):
                self.push("main", p)
            return
        self.move((HAND, p), (PILE, RESOLVING), c, "event", p)
        if self._won(p):  # (the last card wins before its effect: clarification 7)
            return
        self.push("main", p)
        self.push("settle", p, c)
        self.push("run", p, c, PLAY, 0, -1, -1, 0)

    def name_colour_legal(self, frame: Frame) -> list[int]:
        return list(COLOUR_ID)

    def name_colour_apply(self, frame: Frame, a: int) -> None:
        self.state.named = ACTIONS.value(a)
        self.log_event("named", frame.seat, NO_CARD, self.state.named)

    def settle_resolve(self, frame: Frame) -> None:
        """The event has had its effect: it goes to the bottom of the discard pile."""
        (c,) = frame.args
        s = self.state
        pile = s.piles[RESOLVING]
        pile.remove(c)
        pile.append(c)  # (the one to move is then on top)
        self._to_bottom((PILE, RESOLVING), c)
        self.log_event("settled", frame.seat, c, -1)

    def _to_bottom(self, src: tuple, c: int = NO_CARD) -> None:
        """Put a card on the bottom of the discard pile; it is the top card when the pile was
        empty (then the colour named for an 8 no longer applies)."""
        s = self.state
        self.move(src, (UNDER, DISCARD_PILE), c)
        if len(s.piles[DISCARD_PILE]) == 1:
            s.named = -1

    def _won(self, p: int) -> bool:
        """``p`` has no cards left: its team wins now."""
        if self.state.hands[p]:
            return False
        self.log_event("out", p, NO_CARD, -1)
        self._game_over(self.allies(p))
        return True

    # ------------------------------------------------------------ drawing
    def _draw_one(self, seat: int) -> int:
        s = self.state
        if not s.stock:
            if len(s.piles[DISCARD_PILE]) <= 1:
                return NO_CARD
            self._reshuffle()
        card = self.move((STOCK,), (HAND, seat), NO_CARD, "draw", seat)
        for q, known in enumerate(s.known):
            if known:
                if q != seat and known[0] == card:  # it saw the card on the draw pile
                    self.log_event("sees", q, card, seat)
                del known[0]
        return card

    def _reshuffle(self) -> None:
        """Shuffle the discard pile but its top card and put it under the draw pile (a new
        draw pile when it ran out)."""
        s = self.state
        pile = s.piles[DISCARD_PILE]
        rest = pile[:-1]
        self.rng.shuffle(rest)
        s.stock[:0] = rest
        self.set_pile(DISCARD_PILE, pile[-1:])
        self.log_event("reshuffle", -1, NO_CARD, len(rest))

    def _draw(self, seat: int, count: int, cause: int) -> bool:
        """``seat`` draws ``count`` cards, ``cause`` (a seat; -1 for the draw phase) causing
        it, after its substitution abilities; False when a draw was impossible (the game is
        over)."""
        s, team = self.state, self._team_of
        if cause >= 0:
            change = 0
            for c in s.zones[seat]:
                for who, k in self.cards.draw_change[c]:
                    if who == "any" or team[cause] != team[seat]:
                        change += k
            if change:
                new = max(0, count + change)
                if new < count:
                    self.log_event("fewer", seat, NO_CARD, count - new)
                count = new
        for _ in range(count):
            if self._draw_one(seat) == NO_CARD:
                self.log_event("impossible", seat, NO_CARD, -1)
                self._impossible_draw()
                return False
        return True

    def _impossible_draw(self) -> None:
        """Chapter 6: the game is over; the fewest cards in hand win (with their teams)."""
        s = self.state
        inside = [q for q in range(self.num_players) if not s.out[q]]
        fewest = min(len(s.hands[q]) for q in inside)
        teams = {self._team_of[q] for q in inside if len(s.hands[q]) == fewest}
        self._game_over([q for q in inside if self._team_of[q] in teams])

    # ------------------------------------------------------------ losing
    def _lose(self, p: int) -> None:
        """``p`` loses: a card that saves it is destroyed instead; else its team leaves the
        game, hands and assets to the bottom of the discard pile."""
        s = self.state
        if s.out[p]:
            return
        for c in s.zones[p]:
            if self.cards.saves[c]:
                self.move((ZONE, p), (UNDER, DISCARD_PILE), c, "saved", p)
                return
        for q in self.allies(p):
            s.lost_with[q] = len(s.hands[q])
            self.log_event("loses", q, NO_CARD, s.lost_with[q])
            for c in sorted(s.hands[q]):
                self._to_bottom((HAND, q), c)
                self.log_event("returned", q, c, -1)
            for c in list(s.zones[q]):
                self._to_bottom((ZONE, q), c)
            s.known[q] = []
            s.out[q] = 1
        left = [q for q in range(self.num_players) if not s.out[q]]
        if len({self._team_of[q] for q in left}) == 1:
            self._game_over(left)
            return
        # their pending decisions and abilities go; an event resolving still settles
        kept = [f for f in s.agenda if f.kind == "settle"
                or (not s.out[f.seat] and not (f.kind == "order" and s.out[f.args[0]]))]
        if s.out[s.lead]:
            kept = [f for f in kept if f.kind not in ("turn", "draw_phase", "main_phase",
                                                      "end_phase", "next_turn")]
            kept.insert(0, Frame("next_turn", s.lead))
        s.agenda = kept

    # ------------------------------------------------------------ the end
    def _game_over(self, winners: Sequence[int]) -> None:
        """Score the game (a point per card in hand; the winners none), then end the match
        or deal the next game (the most points go first)."""
        s, n = self.state, self.num_players
        win = set(winners)
        points = [0 if q in win else (s.lost_with[q] if s.out[q] else len(s.hands[q]))
                  for q in range(n)]
        for q in range(n):
            s.scores[q] += points[q]
            self.log_event("score", q, NO_CARD, points[q])
        s.agenda = []
        if s.hand_number + 1 >= self.config.games:
            if self.config.games == 1:
                self._finish(sorted(win))
            else:
                low = min(s.scores)
                self._finish([q for q in range(n) if s.scores[q] == low])
            return
        self._count_next_hand()
        top = max(s.scores)
        first = next(q for k in range(1, n + 1)
                     if s.scores[q := (s.first + k) % n] == top)
        self._deal(first)

    # ------------------------------------------------------------ text
    def describe_event(self, event: Event, name: Any = lambda p: f"player {p}") -> str:
        """:meth:`Engine.describe_event` with this game's card names (a card file's own)."""
        return TableEngine.describe_event.__func__(type(self), event, name, self.cardset)

    def render(self, seat: int | None = None) -> str:
        s, cs = self.state, self.cardset
        pile = s.piles[DISCARD_PILE]
        top = f"{cs.text(pile[-1])} {cs.card_name(pile[-1])}" if pile else "-"
        named = f"  named {COLOUR_NAMES[s.named]}" if s.named >= 0 else ""
        lines = [f"{self.variant}  game {s.hand_number + 1}  turn {self.turn}  "
                 f"phase {PHASES[s.phase]}" + ("  (game over)" if self.game_over else ""),
                 f"draw pile {len(s.stock)}  discard pile {len(pile)}  top {top}{named}"]
        if s.piles[RESOLVING]:
            lines.append("resolving: " + ", ".join(cs.card_name(c) for c in s.piles[RESOLVING]))
        for p in range(self.num_players):
            mark = ">" if p == self.current_player else " "
            visible = seat is None or self._team_of[seat] == self._team_of[p]
            hand = (" ".join(cs.text(c) for c in sorted(s.hands[p])) if visible
                    else cards_count(len(s.hands[p])))
            zone = ", ".join(f"{cs.card_name(c)} ({cs.text(c)})" for c in s.zones[p]) or "-"
            status = "  (lost)" if s.out[p] else ""
            lines.append(f"{mark} player {p}: {hand}  in play: {zone}  "
                         f"(points {s.scores[p]}){status}")
        return "\n".join(lines + self._render_outcome(seat))


__all__ = ["ACTIONS", "CrazierEightsConfig", "CrazierEightsGame", "CrazierState"]
