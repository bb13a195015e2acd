"""The table core: piles, hands, zones, an agenda of decision frames, one way to move a card.

Every variant runs on :class:`TableEngine`. Its state (:class:`TableState`)
is a table: a stock, any number of discard piles (each with its cards, its
copies per card, the suit to follow, a pending penalty and who played its top
card), the hands, per-seat zones (cards in play in front of a seat), the
scores, and the **agenda**.

The agenda is what is pending, as a stack of small records
(:class:`Frame`: ``kind, seat, args``), the top one last. A decision frame
asks its seat a question: who acts is the top frame's seat. A variant gives
each frame kind its handlers as methods named by the kind:

* ``<kind>_legal(frame) -> list[int]``: the legal action ids, ascending;
* ``<kind>_apply(frame, action)``: the frame is popped first, so applying
  it may push further frames (a suit to name, a round of Jacks, the next
  turn);
* ``<kind>_resolve(frame)`` instead of both, for a frame that is an effect
  to carry out rather than a question (it is popped and resolved as soon as
  it reaches the top).

So a variant's flow is a dispatch table of small handlers, as pgx writes its
games, and a pending effect is a frame, never a flag read by a hand-written
priority loop.

Cards move by :meth:`TableEngine.move`, the one place that takes a card out
of one place (a hand, the stock, a pile's top or bottom, a seat's zone) and
puts it in another, and logs the event. Who may see a logged card is the
event kind's declared visibility (:attr:`Engine.event_kinds`), so views and
histories cannot leak it. :attr:`TableEngine.substitutions` hook into it: a
substitution ability ("if you would draw, instead ...") sees each move first
and may send the card elsewhere.

Views are declared once (:mod:`eights.engines.fields`); actions are declared
as blocks (:mod:`eights.engines.blocks`); the cards are a card set
(:mod:`eights.engines.cardset`).
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from ..cards import NO_CARD
from ..config import ConfigError, GameConfig
from .base import Engine, PlayerView, State
from .blocks import ActionSpace
from .determinizers.belief import BELIEFS, ChoiceModel
from .encoding import Encoder, latest_version, shared_encoder
from .fields import ViewField, check_enabling_options, compile_fields_reader, view_class
from .memory import OWN, Fold, Memory, folds, new_memory, shared_folds

if TYPE_CHECKING:
    from .determinizers import Determinizer

NO_SEAT = -1
#: (engine class, config) -> copies of each card id in its full deck
_DECK_COPIES: dict[tuple[type, Any], tuple[tuple[int, ...], int]] = {}


@functools.cache
def _lanes(num_cards: int) -> tuple[int, ...]:
    """Card id -> one copy of it in a count int of byte lanes (card ``c`` in byte ``c``)."""
    return tuple(1 << (c << 3) for c in range(num_cards))

# Where a card is: the first item of a place tuple; the second is a seat or a pile.
HAND, STOCK, PILE, UNDER, ZONE = "hand", "stock", "pile", "under", "zone"
_PLACES = frozenset((HAND, STOCK, PILE, UNDER, ZONE))


class Frame(NamedTuple):
    """One pending decision or effect: its kind, the seat it concerns, its arguments."""

    kind: str
    seat: int
    args: tuple = ()


#: ``Frame(kind, seat, args)`` without the keyword handling (frames are made every step)
_new_frame = tuple.__new__


@dataclasses.dataclass(slots=True)
class TableState(State):
    """The table. Lists only (copied two levels deep by :meth:`State.copy`)."""

    hands: list[list[int]] = dataclasses.field(default_factory=list)
    stock: list[int] = dataclasses.field(default_factory=list)        # top card last
    piles: list[list[int]] = dataclasses.field(default_factory=list)  # each: top card last
    #: per pile, copies of each card id in it (views show these; a bytearray, so an
    #: observation reads it without a copy)
    pile_counts: list[bytearray] = dataclasses.field(default_factory=list)
    #: per pile, the suit to follow (the top card's, or a wild card's choice); -1: any
    suits: list[int] = dataclasses.field(default_factory=list)
    #: per pile, cards the next player must take unless they answer it (stacked 2s)
    pending: list[int] = dataclasses.field(default_factory=list)
    #: per pile, who put its top card there (-1: turned up from the stock)
    owners: list[int] = dataclasses.field(default_factory=list)
    #: per seat, the cards it has in play in front of it
    zones: list[list[int]] = dataclasses.field(default_factory=list)
    agenda: list[Frame] = dataclasses.field(default_factory=list)
    direction: int = 1      # +1 clockwise (increasing seats), -1 after a reverse
    scores: list[int] = dataclasses.field(default_factory=list)  # match totals
    hand_number: int = 0
    first: int = 0          # who played first this hand


class TableEngine(Engine):
    """An engine on the table core; see the module docstring."""

    actions: ClassVar[ActionSpace]
    #: the view's declared fields, core fields' encodings included, in observation order
    view_fields: ClassVar[tuple[ViewField, ...]] = ()
    #: the view class made from :attr:`view_fields` (set when the class is made)
    View: ClassVar[type[PlayerView]] = PlayerView
    #: substitution abilities: ``hook(engine, card, src, dst) -> dst``, asked in order before
    #: every move; a hook returns the place the card goes instead (or ``dst`` unchanged)
    substitutions: ClassVar[tuple[Callable[..., tuple], ...]] = ()
    #: seat -> team; each seat its own team unless the variant has teams
    team_of: tuple[int, ...]
    #: per frame kind, the kinds of its arguments (``card``, ``seat``, ``bool``, ``count``,
    #: ``int``): how a view's agenda is written for the protocol
    frame_args: ClassVar[dict[str, tuple[str, ...]]] = {}
    #: the way the deal goes round from the first player: +1 up the seats, -1 down
    deal_step: ClassVar[int] = 1
    #: decision frame kind -> the phase a view shows while it is the decision at hand
    phases: ClassVar[dict[str, str]] = {}
    #: decision frame kind -> the action blocks its decisions may offer (a lone forced
    #: action is no decision). A reader of a view without its ``phase`` derives it from
    #: these (:func:`~eights.engines.defaults.phase_rule`), and a test holds every decision
    #: of every option config to them
    offers: ClassVar[dict[str, tuple[str, ...]]] = {}
    #: the frame kind whose phase a view shows when nothing is pending (the game is over)
    idle_frame: ClassVar[str] = "turn"
    #: whether :meth:`_settle` keeps :attr:`forced_moves`: off until
    #: :meth:`record_forced_moves` (the record costs 3-4% of the raw engine's decisions per
    #: second, and only a narrator reads it)
    record_forced: bool = False
    #: the moves the last :meth:`_settle` (the end of the last step or reset) applied itself, in
    #: order, each ``(at, frame, action)``: ``at`` is the place in the event log where the
    #: move's events begin. A player is never asked a one-move question, so only this record
    #: can tell a person that their move was made for them. A new list each time, never
    #: changed after (a reader may keep it); a :meth:`restore` does not bring it back
    forced_moves: Sequence[tuple[int, Frame, int]] = ()

    state: TableState

    _legal_by_kind: ClassVar[dict[str, Callable]] = {}
    _apply_by_kind: ClassVar[dict[str, Callable]] = {}
    _resolve_by_kind: ClassVar[dict[str, Callable]] = {}
    #: event kind -> its memory fold and whether its card is private (:func:`memory.folds
    #: <eights.engines.memory.folds>`; set when the class is made): kinds that move no card
    #: are left out, so :meth:`memory` skips their events
    _memory_folds: ClassVar[dict[str, tuple[Fold, bool]]] = {}
    #: the folds of the fields every seat's memory shares, where they are shared (else
    #: ``None``), and of each seat's own (:func:`~eights.engines.memory.shared_folds`)
    _shared_folds: ClassVar[dict[str, Fold] | None] = None
    _own_folds: ClassVar[dict[str, tuple[Fold, bool]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Build the frame dispatch tables and the view class from the declarations."""
        super().__init_subclass__(**kwargs)
        cls._set_memory_folds()
        tables: dict[str, dict[str, Callable]] = {"_legal": {}, "_apply": {}, "_resolve": {}}
        for name in dir(cls):
            for suffix, table in tables.items():
                kind = name[:-len(suffix)]
                if name.endswith(suffix) and kind and not kind.startswith("_"):
                    table[kind] = getattr(cls, name)
        legal, apply, resolve = tables.values()
        unpaired = sorted(set(legal) ^ set(apply))
        if unpaired:
            raise TypeError(f"{cls.__name__}: frame kinds need both <kind>_legal and "
                            f"<kind>_apply handlers: {', '.join(unpaired)}")
        cls._legal_by_kind, cls._apply_by_kind, cls._resolve_by_kind = legal, apply, resolve
        if "view_fields" in cls.__dict__ and cls.view_fields:
            check_enabling_options(cls.__name__, cls.view_fields, cls.Config)
            cls.View = view_class(f"{cls.__name__.removesuffix('Game')}View", cls.view_fields,
                                  cls.__module__)
            cls._read_fields = staticmethod(compile_fields_reader(
                [f for f in cls.view_fields if not f.core]))
            cls.View.frame_args = cls.frame_args
        if cls.View is not PlayerView:
            cls.View.cardset = cls.cardset
            cls.View.event_kinds = cls.event_kinds
        cls._check_offers()

    @classmethod
    def _check_offers(cls) -> None:
        """Every phase's frame kind declares the blocks it offers, each a block of the
        variant's action space."""
        if not cls.phases or "actions" not in dir(cls):
            return
        if set(cls.offers) != set(cls.phases) or cls.idle_frame not in cls.phases:
            raise TypeError(f"{cls.__name__}: offers must name the blocks of each frame kind "
                            f"of phases ({', '.join(cls.phases)}), and idle_frame one of them; "
                            f"offers names {', '.join(cls.offers) or 'none'}")
        unknown = sorted({b for blocks in cls.offers.values() for b in blocks}
                         - set(cls.actions.blocks))
        if unknown:
            raise TypeError(f"{cls.__name__}: offers names blocks the action space lacks: "
                            f"{', '.join(unknown)}; the blocks are "
                            f"{', '.join(cls.actions.blocks)}")

    @classmethod
    def _set_memory_folds(cls) -> None:
        """The class's fold tables, from its event kinds (:mod:`eights.engines.memory`)."""
        kinds, private = cls.event_kinds, cls.private_events
        cls._memory_folds = folds(kinds, private)
        cls._shared_folds = shared_folds(kinds, private)
        cls._own_folds = folds(kinds, private, OWN)

    @classmethod
    def encoder(cls, config: Any, version: int | None = None) -> Encoder:
        """The observation encoder of this variant at ``config``, from :attr:`view_fields`
        (one per config and version, shared: see
        :func:`~eights.engines.encoding.shared_encoder`). ``version`` is the env version
        whose layout it writes (the fields declared ``since`` it or before); ``None``, the
        latest (:meth:`observation_version`)."""
        latest = cls.observation_version()
        if version is None:
            version = latest
        elif type(version) is not int or not 1 <= version <= latest:
            raise ConfigError(f"{cls.variant}: observation version {version!r} is not one of "
                              f"1 to {latest}")
        return shared_encoder(cls.view_fields, config, version)

    @classmethod
    def observation_version(cls) -> int:
        """The newest observation version the declared fields make (their latest ``since``)."""
        return latest_version(cls.view_fields)

    # ------------------------------------------------------------ memory
    def _begin(self, seed: Any, deck: Any, first_player: Any) -> None:
        super()._begin(seed, deck, first_player)
        #: per seat, what it remembers of the table (:meth:`memory`), folded on demand
        self._memories: list[Memory | None] = [None] * self.num_players
        #: the fields every seat's memory shares (:func:`~eights.engines.memory.shared_folds`),
        #: folded once for all; per seat, whether its memory folds them itself instead (one
        #: started from a view's, :meth:`remember_view`)
        self._shared_memory: Memory | None = None
        self._apart = [False] * self.num_players
        #: the deck's copies as one int of byte lanes (:meth:`unseen`), read once per engine
        self._deck_lanes: int | None = None

    def memory(self, seat: int) -> Memory:
        """What ``seat`` remembers: its history so far folded (:mod:`eights.engines.memory`).

        Only the events logged since the seat's last call are read, each redacted for the
        seat as its history is (a card of a private kind hidden unless the event is its
        own), so the memory holds nothing its view could not. Kept per seat; its fields are
        immutable tuples, replaced as events fold in, so a view holds them uncopied. Where
        the variant allows (:func:`~eights.engines.memory.shared_folds`), the fields that
        are the same for every seat are folded once for all (:meth:`_shared`) and the
        seat folds only what it knows of the hands.
        """
        memory = self._memories[seat]
        log = self._log
        if memory is not None and memory.position == len(log):
            return memory
        if memory is None:
            memory = self._memories[seat] = self._new_memory(seat)
        shared = self._shared_folds is not None and not self._apart[seat]
        folds = self._own_folds if shared else self._memory_folds
        for kind, player, card, arg in log[memory.position:]:
            fold = folds.get(kind)
            if fold is not None:  # (most kinds move no card: nothing to fold)
                step, private = fold
                step(memory, player, NO_CARD if private and player != seat else card, arg)
        memory.position = len(log)
        if shared:
            common = self._shared()
            memory.played, memory.named, memory.drawn = common.played, common.named, common.drawn
        return memory

    def _new_memory(self, seat: int) -> Memory:
        return new_memory(seat, self.num_players, len(self.cardset),
                          len(self.cardset.colour_codes))

    def _shared(self) -> Memory:
        """The fields every seat's memory shares, every event of the log folded in once
        (unredacted: :func:`~eights.engines.memory.shared_folds` holds only where no
        redaction changes them); a memory of no seat, its ``known`` unused."""
        common = self._shared_memory
        log = self._log
        if common is None:
            common = self._shared_memory = self._new_memory(NO_SEAT)
        elif common.position == len(log):
            return common
        folds = self._shared_folds
        for kind, player, card, arg in log[common.position:]:
            step = folds.get(kind)
            if step is not None:
                step(common, player, card, arg)
        common.position = len(log)
        return common

    def remember_view(self, view: Any) -> None:
        """Start the view's seat's memory from what the view remembers (a determinized
        engine has no past events to fold; what it logs from here on folds on top)."""
        if not hasattr(view, "played_cards"):
            return
        memory = self._new_memory(view.seat)
        memory.played = tuple(map(bytes, view.played_cards))
        memory.named = tuple(map(tuple, view.named_suits))
        memory.drawn = tuple(view.drawn_since_play)
        if hasattr(view, "known_cards"):
            memory.known = tuple(map(bytes, view.known_cards))
        self._memories[view.seat] = memory
        self._apart[view.seat] = True  # (its shared fields are the view's, not the log's)

    def restore(self, snap: tuple) -> None:
        """:meth:`Engine.restore`; a memory that folded events past the restored log is
        dropped (the events after it may differ now) and folded again when next asked."""
        super().restore(snap)
        length = len(self._log)
        self._memories = [m if m is not None and m.position <= length else None
                          for m in self._memories]
        common = self._shared_memory
        if common is not None and common.position > length:
            self._shared_memory = None

    def deck_counts(self) -> tuple[int, ...]:
        """Copies of each card id in the full deck, computed once per config."""
        return self._deck_copies()[0]

    def _deck_copies(self) -> tuple[tuple[int, ...], int]:
        """The deck's copies per card id, and as one int of byte lanes (see :meth:`unseen`)."""
        key = (type(self), self.config)
        known = _DECK_COPIES.get(key)
        if known is None:
            tally = [0] * len(self.cardset)
            for c in self.full_deck():
                tally[c] += 1
            known = _DECK_COPIES[key] = (tuple(tally), int.from_bytes(bytes(tally), "little"))
        return known

    def unseen(self, seat: int) -> bytes:
        """Copies of each card whose place ``seat`` does not know: the deck less its hand,
        the face-up table and the cards its memory knows in other hands (what
        :func:`~eights.engines.memory.unseen` gives from a view).

        Computed on ints whose bytes are the counts (card ``c`` in byte ``c``): the engine's
        counts never exceed the deck's, so no byte borrows from the next and the
        difference's bytes are the counts, in a few integer operations instead of a
        loop over the cards (the observation reads it at every step)."""
        s = self.state
        rest = self._deck_lanes
        if rest is None:
            rest = self._unseen_setup()
        lane, nothing = self._card_lane, self._no_cards
        for counts in s.pile_counts:
            rest -= int.from_bytes(counts, "little")
        for zone in s.zones:
            if zone:
                rest -= sum(map(lane, zone))
        rest -= sum(map(lane, s.hands[seat]))
        for q, known in enumerate(self.memory(seat).known):
            if q != seat and known != nothing:  # (a row of zeros, most of the time, takes 0)
                rest -= int.from_bytes(known, "little")
        return rest.to_bytes(len(nothing), "little")

    def _unseen_setup(self) -> int:
        """Read once a game what :meth:`unseen` reads at every call: the deck's copies as an
        int of byte lanes (returned), the lane of each card id and a row of no cards."""
        num_cards = len(self.cardset)
        self._card_lane = _lanes(num_cards).__getitem__
        self._no_cards = bytes(num_cards)
        self._deck_lanes = self._deck_copies()[1]
        return self._deck_lanes

    def table_counts(self) -> list[int]:
        """Copies of each card face up on the table: every pile and every seat's zone."""
        s = self.state
        counts = [0] * len(self.cardset)
        for pile in s.pile_counts:
            for c, k in enumerate(pile):
                counts[c] += k
        for zone in s.zones:
            for c in zone:
                counts[c] += 1
        return counts

    # ------------------------------------------------------------ the agenda
    @property
    def frame(self) -> Frame:
        """The top frame: the pending decision."""
        return self.state.agenda[-1]

    def push(self, kind: str, seat: int, *args: Any) -> None:
        """Put a frame on top of the agenda: it is decided (or resolved) next."""
        self.state.agenda.append(_new_frame(Frame, (kind, seat, args)))  # Frame(kind, seat, args)

    def _legal(self) -> list[int]:
        frame = self.state.agenda[-1]
        return self._legal_by_kind[frame.kind](self, frame)

    def _settle(self) -> None:
        """Apply forced moves until a real decision (or the end), kept in
        :attr:`forced_moves` where :attr:`record_forced` asks; enforce the turn limit.

        Who acts is the top frame's seat, kept in :attr:`current_player` (-1 once the
        game is over); the top frame's legal handler is looked up here rather than
        through :meth:`_legal`, as this loop runs after every step.
        """
        limit = self.config.max_turns  # actions in the hand in play (a forced move may deal one)
        legal_by_kind = self._legal_by_kind
        forced: list[tuple[int, Frame, int]] | None = [] if self.record_forced else None
        while not self.terminated:
            if self.turn - self.hand_start_turn >= limit:
                self.truncated = True
                self.log_event("truncated", -1, NO_CARD, self.turn)
                break
            frame = self.state.agenda[-1]  # (a new deal replaces the agenda: read it each time)
            legal = legal_by_kind[frame.kind](self, frame)
            if len(legal) != 1:
                self._legal_now = legal
                self.current_player = frame.seat
                if forced is not None:
                    self.forced_moves = forced
                return
            self.turn += 1
            if forced is not None:
                forced.append((len(self._log), frame, legal[0]))
            self._apply(legal[0])
        self._legal_now = []
        self.current_player = -1
        if forced is not None:
            self.forced_moves = forced

    def record_forced_moves(self) -> None:
        """Keep :attr:`forced_moves` from now on, the last step's (or the deal's) included.

        Those were not kept, so the game is played again from its record with the record on
        (the same seed, deck and decisions give the same game): a game just dealt tells the
        moves its deal forced, and a narrator can say so before the first decision.
        """
        if self.record_forced:
            return
        self.record_forced = True
        if self.turn == len(self._decisions):  # no move was forced yet: none to find again
            return
        record = self.record()
        self.reset(seed=record.seed, deck=record.deck, first_player=record.first_player)
        for action in record.actions:
            self.step(action)

    def _apply(self, action: int) -> None:
        agenda = self.state.agenda
        frame = agenda.pop()
        self._apply_by_kind[frame.kind](self, frame, action)
        if self._resolve_by_kind:
            self._run_agenda()

    def _run_agenda(self) -> None:
        """Resolve effect frames on top of the agenda until a decision is at the top."""
        resolve = self._resolve_by_kind
        if not resolve:  # a variant whose frames are all decisions
            return
        state = self.state
        while not self.terminated:
            agenda = state.agenda  # (a new deal, or a player leaving, replaces it: read it anew)
            if not agenda:
                return
            frame = agenda[-1]
            handler = resolve.get(frame.kind)
            if handler is None:
                return
            agenda.pop()
            handler(self, frame)

    # ------------------------------------------------------------ seats
    def next_seat(self, seat: int, steps: int = 1) -> int:
        return (seat + steps * self.state.direction) % self.num_players

    def sorted_hand(self, seat: int) -> tuple[int, ...]:
        """``seat``'s hand in display order (card ids are in that order)."""
        hand = self.state.hands[seat][:]
        hand.sort()
        return tuple(hand)

    # ------------------------------------------------------------ moving cards
    def move(self, src: tuple, dst: tuple, card: int = NO_CARD, event: str = "",
             player: int = NO_SEAT, arg: int = -1) -> int:
        """Move one card from ``src`` to ``dst``; log ``event`` for it; return the card.

        Places are ``(HAND, seat)``, ``(STOCK,)`` (its top), ``(PILE, k)`` (its
        top), ``(UNDER, k)`` (the bottom of pile ``k``) and ``(ZONE, seat)``.
        ``card`` names the card to take from a hand or a zone; from the stock or
        a pile the top card is taken when it is ``NO_CARD``. A card put on a pile
        becomes its top: the suit to follow is its colour.
        """
        s = self.state
        if dst[0] not in _PLACES:
            raise self._bad_move(src, dst)
        where = src[0]
        if where == HAND:
            s.hands[src[1]].remove(card)
        elif where == STOCK:
            card = s.stock.pop()
        elif where == PILE:
            k = src[1]
            pile = s.piles[k]
            card = pile.pop()
            s.pile_counts[k][card] -= 1
            s.suits[k] = self.cardset.colour[pile[-1]] if pile else -1
            s.owners[k] = NO_SEAT  # who played the card now on top is not kept
        elif where == ZONE:
            s.zones[src[1]].remove(card)
        else:  # nothing has moved yet
            raise self._bad_move(src, dst)
        for hook in self.substitutions:
            dst = hook(self, card, src, dst)
        where = dst[0]
        if where == HAND:
            s.hands[dst[1]].append(card)
        elif where == PILE:
            k = dst[1]
            s.piles[k].append(card)
            s.pile_counts[k][card] += 1
            s.suits[k] = self.cardset.colour[card]
        elif where == UNDER:
            k = dst[1]
            pile = s.piles[k]
            pile.insert(0, card)
            s.pile_counts[k][card] += 1
            if len(pile) == 1:  # under an empty pile is its top
                s.suits[k] = self.cardset.colour[card]
        elif where == STOCK:
            s.stock.append(card)
        else:  # ZONE
            s.zones[dst[1]].append(card)
        if event:
            self.log_event(event, player, card, arg)
        return card

    @staticmethod
    def _bad_move(src: tuple, dst: tuple) -> ValueError:
        return ValueError(f"cannot move a card from {src!r} to {dst!r}: places are "
                          f"(hand, seat), (stock,), (pile, k), (under, k) to put a card "
                          f"under a pile, and (zone, seat)")

    def set_pile(self, k: int, cards: Sequence[int]) -> None:
        """Make pile ``k`` hold exactly ``cards`` (bottom first): its counts follow."""
        s = self.state
        s.piles[k] = list(cards)
        counts = bytearray(len(self.cardset))
        for c in cards:
            counts[c] += 1
        s.pile_counts[k] = counts

    def top(self, k: int = 0) -> int:
        """The top card of pile ``k``."""
        return self.state.piles[k][-1]

    # ------------------------------------------------------------ views
    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may know: the core fields and every declared field, each read with
        its visibility applied (see :mod:`eights.engines.fields`)."""
        if not 0 <= seat < self.num_players:
            raise ValueError(
                f"seat {seat!r} is not at this table: seats are 0..{self.num_players - 1}")
        s = self.state
        over = self.terminated or self.truncated
        current = -1 if over else s.agenda[-1].seat
        return self.View(
            self.variant, self.config, seat, current, self.sorted_hand(seat),
            tuple(map(len, s.hands)), tuple(s.scores),
            tuple(self._legal_now) if seat == current else (), self.turn,
            self.turn - self.hand_start_turn, over,
            self._history(seat), *self._read_fields(self, seat))

    #: the declared fields' values for a seat, in order (:func:`~.fields.compile_fields_reader`)
    _read_fields: ClassVar[Callable[[Any, int], tuple]] = staticmethod(lambda g, seat: ())

    def _render_outcome(self, seat: int | None) -> list[str]:
        """The last line of :meth:`render`: the winners once the game is over, else the
        legal actions for the seat to act (or the referee)."""
        if self.game_over:
            return ["winners: " + ", ".join(f"player {w}" for w in self.winners)
                    if self.winners else "truncated"]
        if seat is None or seat == self.current_player:
            return ["legal: " + ", ".join(self.legal_texts())]
        return []

    def hands_seen_by(self, seat: int) -> tuple[int, ...]:
        """The seats whose hands ``seat``'s view shows now: its own; a variant adds its
        allies' or a hand it is looking at. (Tests read it to know what is hidden.)"""
        return (seat,)

    @property
    def team_of(self) -> tuple[int, ...]:
        """Each seat its own team; a variant with teams overrides it."""
        return tuple(range(self.num_players))

    # ------------------------------------------------------------ dealing
    def _start(self) -> None:
        """A new table for the first player (the option, else drawn at random), dealt."""
        first = self.first_player_option
        if first is None:
            first = self.rng.randrange(self.num_players)
        self.state = self._new_state(first)
        self._deal(first)

    def _new_state(self, first: int) -> TableState:
        """The variant's empty table for a game ``first`` starts."""
        raise NotImplementedError

    def _deal(self, first: int) -> None:
        """Deal a hand that ``first`` starts."""
        raise NotImplementedError

    def _deal_hands(self, deck: list[int], first: int, size: int, step: int = 1) -> None:
        """Deal ``size`` cards to each seat from the front of ``deck``, one at a time from
        ``first`` (``step`` +1 up the seats, -1 down); the rest is the stock (its top last)."""
        s, n = self.state, self.num_players
        s.hands = [[] for _ in range(n)]
        pos = 0
        for _ in range(size):
            for k in range(n):
                s.hands[(first + step * k) % n].append(deck[pos])
                pos += 1
        s.stock = deck[pos:][::-1]

    @classmethod
    def stacked(cls, hands: Sequence[Sequence[int | str] | str],
                turned_up: Sequence[int | str] | str, stock: Sequence[int | str] | str = (),
                *, first_player: int = 0, seed: int | None = None, **options: Any
                ) -> TableEngine:
        """A new game dealt from a stacked deck, the way scenario tests and notebooks set
        up a position: ``hands`` in seat order (``"QD 2C 3C"`` or a list), ``turned_up``
        (the starter card, or each pile's card in pile order), ``stock`` (top first) on
        top of the draw pile and the rest of the variant's deck below it in id order.

        ``options`` are the variant's (``num_players`` defaults to the number of hands);
        ``seed`` drives what the deal does not fix (reshuffles, random choices). Hands that
        do not fit the table (their number, their size, more copies of a card than the
        deck holds) are refused with a :class:`ConfigError` naming what is wrong.
        """
        options.setdefault("num_players", len(hands))
        game = cls(seed=seed, **options)
        if len(hands) != game.num_players:
            raise ConfigError(f"stacked: {len(hands)} hands for num_players={game.num_players}")
        size = len(cls.cardset.parse_many(hands[0])) if hands else 0
        dealt = game.config.hand_size
        if size != dealt:
            raise ConfigError(f"stacked: hands of {size} cards, but this table deals {dealt}; "
                              f"give {dealt}-card hands or set hand_size={size}")
        deck = cls._stack(hands, turned_up, stock, game.full_deck(), first_player,
                          cls.deal_step)
        game.reset(seed=seed, deck=deck, first_player=first_player)
        return game

    @classmethod
    def _stack(cls, hands: Sequence[Sequence[int | str] | str],
               turned_up: Sequence[int | str] | str, stock: Sequence[int | str] | str,
               deck: list[int], first_player: int, step: int = 1) -> list[int]:
        """The deck order (top first) that :meth:`_deal_hands` deals as ``hands`` (seat
        order), then turns up ``turned_up`` and leaves ``stock`` (top first) on top of the
        stock; the rest of ``deck`` lies below in id order. Scenario tests stack decks so."""
        n = len(hands)
        parse = cls.cardset.parse_many
        hand_cards = [parse(h) for h in hands]
        size = len(hand_cards[0])
        if any(len(h) != size for h in hand_cards):
            raise ConfigError("stacked_deck: every hand must have the same size")
        order: list[int] = []
        for i in range(size):
            for k in range(n):
                order.append(hand_cards[(first_player + step * k) % n][i])
        order += parse(turned_up) + parse(stock)
        rest = list(deck)
        for c in order:
            if c not in rest:
                raise ConfigError(f"stacked_deck: too many copies of {cls.cardset.text(c)}")
            rest.remove(c)
        return order + rest

    def _draw_one(self, seat: int) -> int:
        """Draw the stock's top card into ``seat``'s hand by the variant's rules; ``NO_CARD``
        when nothing can be drawn."""
        raise NotImplementedError

    def _draw_many(self, seat: int, count: int) -> int:
        """Draw up to ``count`` cards (:meth:`_draw_one`) until none comes; how many came."""
        drawn = 0
        for _ in range(count):
            if self._draw_one(seat) == NO_CARD:
                break
            drawn += 1
        return drawn

    # ------------------------------------------------------------ the end
    def _count_next_hand(self) -> None:
        """The match goes on to its next hand (the variant deals it): its number, and the
        turn from which the turn limit counts again."""
        self.state.hand_number += 1
        self.hand_start_turn = self.turn

    def _finish(self, winners: Sequence[int]) -> None:
        """The game is over: ``winners`` won."""
        self.terminated = True
        self.winners = tuple(sorted(winners))
        self.log_event("game_over", -1, NO_CARD, len(self.winners))

    def final_scores(self) -> tuple[int, ...]:
        return tuple(self.state.scores)

    def _score_returns(self) -> list[float]:
        """Points relative to the table average, scaled to about +-1 per 100 points."""
        scores = self.state.scores
        mean = sum(scores) / len(scores)
        sign = -1.0 if self.low_score_wins else 1.0
        return [sign * (x - mean) / 100.0 for x in scores]

    # ------------------------------------------------------------ determinization
    #: the class that deals this variant's positions from views
    #: (:mod:`eights.engines.determinizers`); ``None``: the variant cannot determinize
    determinizer: ClassVar[type[Determinizer] | None] = None

    @classmethod
    def determinize(cls, view: Any, rng: random.Random, infer_from_draws: bool = False,
                    belief: str | ChoiceModel | None = None) -> TableEngine:
        """A new engine consistent with ``view`` (see :meth:`Engine.determinize`): the
        variant's :attr:`determinizer` deals it (:meth:`Determinizer.determinize`)."""
        if cls.determinizer is None:
            raise NotImplementedError(f"{cls.variant}: determinize is not implemented")
        return cls.determinizer.determinize(cls, view, rng, infer_from_draws, belief)

    @classmethod
    def check_belief(cls, belief: str | ChoiceModel | None) -> None:
        """Refuse a belief this variant's deals do not read (``ValueError`` naming those they
        do and the variants that read it); ``None`` (no belief) every variant takes, an
        opponent model (:class:`~.determinizers.belief.ChoiceModel`) those whose
        determinizer ``reads_choices``."""
        if belief is not None and not isinstance(belief, str):
            if cls.determinizer is None or not cls.determinizer.reads_choices:
                from . import VARIANTS, engine_class  # the registry imports this module

                readers = [v for v in VARIANTS if getattr(
                    getattr(engine_class(v), "determinizer", None), "reads_choices", False)]
                raise ValueError(f"{cls.variant}: belief={belief.name!r} (an opponent model) "
                                 f"is not allowed; its deals do not read the opponents' "
                                 f"choices; {', '.join(readers) or 'no variant'} does")
            return
        have = cls.determinizer.beliefs if cls.determinizer is not None else ()
        if belief is None or belief in have:
            return
        from . import VARIANTS, engine_class  # the registry imports this module

        readers = [v for v in VARIANTS if belief in getattr(
            getattr(engine_class(v), "determinizer", None), "beliefs", ())]
        where = (f"belief={belief!r} is read in {', '.join(readers)}" if readers else
                 f"the beliefs are {', '.join(BELIEFS)}")
        raise ValueError(f"{cls.variant}: belief={belief!r} is not allowed; its deals take "
                         f"{' or '.join(repr(b) for b in have) or 'none'}; {where}")

    # The position interface: all a determinizer does to an engine besides laying piles
    # (:meth:`set_pile`) and asking public rule questions, so no dealing code sets or reads
    # the engine's private members.
    @classmethod
    def unstarted_at(cls, config: GameConfig, seed: int, turn: int,
                     hand_turns: int) -> TableEngine:
        """An engine for ``config`` at ``turn``, ``hand_turns`` of them in the hand in play
        (the turn limit counts those), its generator seeded with ``seed``, and no position
        yet: a determinizer deals one (:meth:`set_position`)."""
        engine = cls._unstarted(config, seed)
        engine.turn = turn
        engine.hand_start_turn = turn - hand_turns
        return engine

    @classmethod
    def unstarted_for(cls, view: PlayerView, seed: int) -> TableEngine:
        """:meth:`unstarted_at` the config and turn counts of ``view``."""
        return cls.unstarted_at(view.config, seed, view.turn, view.hand_turns)

    def empty_state(self, first: int) -> TableState:
        """The variant's empty table for a hand ``first`` started, for a determinizer to fill."""
        return self._new_state(first)

    def set_position(self, state: TableState) -> None:
        """Make ``state`` the position as it is, forced moves not applied (a dealt candidate:
        :meth:`open_choices` tells whether it asks a real question)."""
        self.state = state

    def open_choices(self) -> list[int]:
        """The legal actions of the position's top frame as it stands, even a single one."""
        return self._legal()

    def settle_position(self) -> None:
        """Apply the position's forced moves, as after every step: it is ready to play."""
        self._settle()


TableEngine._set_memory_folds()  # (__init_subclass__ sets each variant's)


def agenda_field(**rules: Any) -> ViewField:
    """The view field of a variant whose every frame is public: its whole agenda
    (``rules``: its ``default`` and ``required_while``, see :mod:`eights.engines.defaults`)."""
    return ViewField("agenda", "frames", "what is pending, bottom first (the top frame is the "
                     "decision at hand); every frame is public", "tuple(s.agenda)", **rules)


def empty_piles(count: int, kinds: int) -> dict[str, list]:
    """The per-pile lists of :class:`TableState` for ``count`` empty piles."""
    return {"piles": [[] for _ in range(count)],
            "pile_counts": [bytearray(kinds) for _ in range(count)],
            "suits": [-1] * count, "pending": [0] * count, "owners": [NO_SEAT] * count}
