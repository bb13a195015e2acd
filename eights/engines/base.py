"""The engine base: what every variant's rules engine shares.

An engine is one game (or match) of one variant. It owns its seeded random
generator, its state, its event log and the record of decisions, and answers
the questions everything else asks: who acts (:attr:`Engine.current_player`),
what they may do (:meth:`Engine.legal_actions`), what happens when they do it
(:meth:`Engine.step`), and what a seat may know (:meth:`Engine.view`).

A variant subclasses :class:`Engine` and supplies four things: its config
class, its action set, ``_start()`` to deal, ``_legal()`` for the current
player's actions, and ``_apply(action)``. The base does the rest once for
all variants:

* forced moves: after every decision the engine applies actions while the
  player to act has exactly one legal action, so an agent is only ever asked
  a real question;
* the turn limit: a game whose hand is still running after ``max_turns``
  actions applied in that hand is truncated (in a match each hand has the
  limit, so a match is as long as its hands make it, and a hand's history, what a
  view of a match carries, stays bounded);
* illegal actions raise :class:`IllegalActionError` (naming the action and
  the legal ones, in text) before anything changes;
* snapshots (state, generator, log and record lengths) and exact replay from
  a :class:`GameRecord`.

State lives in a per-variant :class:`State` dataclass of plain ints and lists,
so a snapshot is a cheap structural copy and nothing is allocated per step
beyond the log's small tuples.
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar, NamedTuple

import numpy as np

from ..actions import ActionError, ActionSet
from ..cards import NO_CARD
from ..config import ConfigError, GameConfig
from .cardset import STANDARD, CardSet
from .events import CORE_EVENTS, EventError, EventKind, declare_events, sentence_fields


class IllegalActionError(ValueError):
    """An action that is not legal now. The game is unchanged."""


#: the C methods of random.Random, called directly where GameRandom must not mark itself used
_GETRANDBITS = random.Random.getrandbits
_RANDOM = random.Random.random


class GameRandom(random.Random):
    """The engine's generator: ``random.Random`` (the same numbers from the same seed) that
    knows whether it was used since its state was last taken.

    :meth:`state` returns the state taken last while the generator has not
    drawn since, so a snapshot shares one immutable state tuple with the
    snapshots before it instead of copying the Mersenne Twister's 625 ints
    (about 25 KiB) each time: games draw rarely (shuffles, blind picks), and
    search agents snapshot thousands of times per decision. Every public way
    to draw marks it used once; the bits a shuffle draws inside
    (:meth:`_randbelow`) come straight from the C generator.
    """

    def __init__(self, seed: int | None = None):
        # (a default seed, as random.Random has: copy and pickle make one without it)
        super().__init__(seed)
        self._taken: tuple | None = None

    def _randbelow(self, n: int) -> int:
        """``random.Random``'s own draw below ``n`` (the same bits, the same numbers)."""
        k = n.bit_length()
        r = _GETRANDBITS(self, k)
        while r >= n:
            r = _GETRANDBITS(self, k)
        return r

    def getrandbits(self, k: int) -> int:
        self._taken = None
        return _GETRANDBITS(self, k)

    def random(self) -> float:
        self._taken = None
        return _RANDOM(self)

    def randrange(self, *args: Any, **kwargs: Any) -> int:
        self._taken = None
        return super().randrange(*args, **kwargs)

    def choice(self, seq: Sequence[Any]) -> Any:
        self._taken = None
        return super().choice(seq)

    def shuffle(self, x: list) -> None:
        """``random.Random.shuffle`` (the same Fisher-Yates, the same draws), its draw below
        ``n`` written in the loop: a deal shuffles every card, on every reset."""
        self._taken = None
        for i in reversed(range(1, len(x))):
            n = i + 1
            k = n.bit_length()
            j = _GETRANDBITS(self, k)
            while j >= n:
                j = _GETRANDBITS(self, k)
            x[i], x[j] = x[j], x[i]

    def sample(self, *args: Any, **kwargs: Any) -> list:
        self._taken = None
        return super().sample(*args, **kwargs)

    def randbytes(self, n: int) -> bytes:
        self._taken = None
        return super().randbytes(n)

    def gauss(self, mu: float = 0.0, sigma: float = 1.0) -> float:
        self._taken = None  # its second value is cached in the state
        return super().gauss(mu, sigma)

    def seed(self, *args: Any, **kwargs: Any) -> None:
        self._taken = None
        super().seed(*args, **kwargs)

    def state(self) -> tuple:
        """The generator's state (``getstate()``), shared while it does not draw."""
        taken = self._taken
        if taken is None:
            taken = self._taken = self.getstate()
        return taken

    def setstate(self, state: tuple) -> None:
        if state is not self._taken:
            super().setstate(state)
            self._taken = state


class Event(NamedTuple):
    """One thing that happened, in the order it happened.

    ``card`` is ``-1`` when there is none or when it is hidden from the
    viewer; ``arg`` carries a number whose kind (a suit, a count, a seat,
    points) the engine declares for ``kind`` (:mod:`eights.engines.events`).
    """

    kind: str
    player: int
    card: int = NO_CARD
    arg: int = -1


#: state class -> its field names in order (read once: State.copy runs on every snapshot)
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


@dataclasses.dataclass(slots=True)
class State:
    """Base of a variant's mutable state. Fields are ints, bools, lists, bytearrays, or lists
    of those."""

    def copy(self) -> State:
        """Structural copy: new lists and bytearrays (two levels deep), shared immutable
        values."""
        cls = type(self)
        names = _FIELD_NAMES.get(cls)
        if names is None:
            names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(self))
        values = []
        for name in names:
            v = getattr(self, name)
            if type(v) is list:
                v = [x[:] if type(x) is list or type(x) is bytearray else x for x in v]
            elif type(v) is bytearray:
                v = v[:]
            values.append(v)
        return cls(*values)


@dataclasses.dataclass(frozen=True)
class GameRecord:
    """Everything needed to replay a game exactly: variant, config, seed, deck, decisions."""

    variant: str
    config: dict[str, Any]
    seed: int
    deck: tuple[str, ...] | None
    first_player: int | None
    actions: tuple[str, ...]

    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self))

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        data = json.loads(text)
        data["deck"] = tuple(data["deck"]) if data.get("deck") is not None else None
        data["actions"] = tuple(data["actions"])
        return cls(**data)


class SeatHistory:
    """The event log as one seat may see it: other seats' private cards hidden.

    It holds nothing its seat may not see. Made from a log (as the protocol
    does), it keeps its own copy of the first ``length`` events, with the
    cards of the ``private`` kinds of event hidden unless ``seat`` is the
    event's player. An engine's views share instead two of the engine's
    lists (:meth:`Engine.seat_history`): the log with every private card
    hidden, and the seat's own private events with their places in it. The
    engine only ever appends to them (restoring a snapshot gives it new
    lists), so what a history reads, its first ``length`` events, never
    changes. :meth:`events`, equality and copying (``copy.deepcopy``,
    ``dataclasses.asdict``, pickling) all see only those events.
    """

    __slots__ = ("_length", "_own", "_public", "_seat")

    def __init__(self, log: Sequence[Sequence], length: int, seat: int,
                 private: frozenset[str] = frozenset()):
        if not 0 <= length <= len(log):
            raise ValueError(f"SeatHistory: length {length} is not within the log's "
                             f"{len(log)} events")
        self._public: list[Event] = redact(log[:length], seat, private)
        self._own: Sequence[tuple[int, Event]] = ()
        self._length, self._seat = length, seat

    @classmethod
    def redacted(cls, events: list[Event], seat: int) -> SeatHistory:
        """A history of ``events``, already as ``seat`` may see them (a view read from a
        frontend's JSON, which holds nothing else): the list is kept, not copied, so the
        caller gives it up."""
        history = cls.__new__(cls)
        history._public, history._own = events, ()
        history._length, history._seat = len(events), seat
        return history

    def events(self) -> list[Event]:
        """The events up to this history's length (a new list: changing it changes nothing)."""
        length = self._length
        out = self._public[:length]
        for i, event in self._own:  # the seat's private events, in log order
            if i >= length:
                break
            out[i] = event
        return out

    def __len__(self) -> int:
        return self._length

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SeatHistory) or self._length != other._length:
            return False
        if (self._public is other._public and self._own is other._own
                and self._seat == other._seat):
            return True  # two views of one engine's lists, as long: the same events
        return self.events() == other.events()

    __hash__ = None  # type: ignore[assignment]

    def __deepcopy__(self, memo: dict) -> list[Event]:
        return self.events()

    def __reduce__(self) -> tuple:
        return (SeatHistory, (self.events(), self._length, self._seat))

    def __repr__(self) -> str:
        return f"SeatHistory({self._length} events, seat {self._seat})"


def redact(log: Iterable[Sequence], seat: int, private: frozenset[str]) -> list[Event]:
    """``log``'s events as ``seat`` may see them, as a new list of :class:`Event`: the
    card of an event of a ``private`` kind is hidden (``NO_CARD``) unless ``seat`` is
    the event's player."""
    out = []
    for kind, player, card, arg in log:
        if kind in private and player != seat:
            card = NO_CARD
        out.append(Event(kind, player, card, arg))
    return out


@dataclasses.dataclass(slots=True)
class PlayerView:
    """What one seat may know. Every observation, bot message and heuristic starts here.

    Seats are absolute (0..n-1); ``hand_sizes`` and ``scores`` are in seat
    order. ``legal_actions`` is empty unless the seat is the one to act.
    A view is a snapshot made for its reader: its fields are immutable values
    (ints, tuples) and ``seen_events``, a :class:`SeatHistory` holding only
    the seat's redacted events, so nothing done to it reaches the game and
    nothing reachable from it shows a card the seat may not see. (It is not a
    frozen dataclass because frozen construction costs several microseconds
    per observation.)
    """

    variant: str
    config: GameConfig
    seat: int
    current_player: int
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    scores: tuple[int, ...]
    legal_actions: tuple[int, ...]
    turn: int
    #: actions applied in the hand in play (``turn`` in a game of one hand): what the turn
    #: limit counts
    hand_turns: int
    game_over: bool
    seen_events: SeatHistory = dataclasses.field(repr=False)

    #: how each public field is written for bots (kinds of :mod:`eights.protocol.views`).
    #: A view subclass lists its own fields too: the protocol refuses to send a view
    #: with a field missing here, so a new field cannot leak by accident.
    field_kinds: ClassVar[dict[str, str]] = {
        "seat": "seat", "current_player": "seat", "hand": "cards", "hand_sizes": "counts",
        "scores": "ints", "turn": "count", "hand_turns": "count", "game_over": "bool",
    }
    #: the values a ``phase`` field may take, where the view has one
    phase_names: ClassVar[tuple[str, ...]] = ()
    #: the cards' notation (the engine's card set): how the protocol writes and reads them
    cardset: ClassVar[CardSet] = STANDARD
    #: the engine's declared event kinds: how the protocol writes and reads the history
    event_kinds: ClassVar[dict[str, EventKind]] = declare_events(CORE_EVENTS)

    @property
    def num_players(self) -> int:
        return len(self.hand_sizes)

    def history(self) -> list[Event]:
        """The public event log up to this view, with cards this seat may not see hidden."""
        return self.seen_events.events()


class Engine:
    """Base rules engine. See the module docstring for what a variant supplies."""

    variant: ClassVar[str] = ""
    Config: ClassVar[type[GameConfig]] = GameConfig
    actions: ClassVar[ActionSet]
    #: the cards: their ids, texts (the notation of decks, records and actions), names,
    #: ranks and colours
    cardset: ClassVar[CardSet] = STANDARD
    #: the kinds of event the engine logs, each declared once (:mod:`eights.engines.events`):
    #: the shared kinds and the variant's own (:func:`~eights.engines.events.declare_events`)
    event_kinds: ClassVar[dict[str, EventKind]] = declare_events(CORE_EVENTS)
    #: event kinds whose card only the event's player may see (made from :attr:`event_kinds`)
    private_events: ClassVar[frozenset[str]] = frozenset()
    #: kind -> whether it has a player, a card and an arg (made from :attr:`event_kinds`)
    _event_slots: ClassVar[dict[str, tuple[bool, bool, bool]]] = {}
    #: True where the lowest points win (penalty scoring), False where points are won
    low_score_wins: ClassVar[bool] = False
    #: the seat that decides now, -1 once the game is over (set by :meth:`reset` and every
    #: step; declared here so a view field's getter ``g.current_player`` resolves)
    current_player: int

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Derive the redaction and the log helper's check from :attr:`event_kinds`."""
        super().__init_subclass__(**kwargs)
        cls.private_events = frozenset(
            name for name, kind in cls.event_kinds.items() if kind.visibility == "player")
        cls._event_slots = {name: kind.slots for name, kind in cls.event_kinds.items()}

    def __init__(self, config: GameConfig | None = None, *, seed: int | None = None,
                 deck: Sequence[int | str] | str | None = None,
                 first_player: int | None = None, **options: Any):
        if config is not None and options:
            raise ConfigError(f"{self.variant}: pass either a config or options, not both")
        if config is None:
            config = self.Config.from_options(**options)
        elif not isinstance(config, self.Config):
            raise ConfigError(
                f"{self.variant}: config must be a {self.Config.__name__}, "
                f"not {type(config).__name__}"
            )
        self.config = config
        self.num_players = config.num_players
        self.reset(seed=seed, deck=deck, first_player=first_player)

    # ------------------------------------------------------------------ setup
    def reset(self, seed: int | None = None, deck: Sequence[int | str] | str | None = None,
              first_player: int | None = None) -> None:
        """Start a new game: shuffled from ``seed``, or dealt from a stacked ``deck``.

        A stacked deck lists the cards top first: the deal takes cards from
        the front. ``first_player`` fixes who plays first (random otherwise).
        """
        self._begin(seed, deck, first_player)
        self._start()
        self._settle()

    def _begin(self, seed: int | None, deck: Sequence[int | str] | str | None,
               first_player: int | None) -> None:
        """Everything a new game sets up before the deal: generator, options, empty log."""
        if seed is None:
            seed = int.from_bytes(os.urandom(8), "little") & (2**63 - 1)
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
            raise ConfigError(f"{self.variant}: seed={seed!r} is not allowed; seed must be an int")
        self.seed = int(seed)
        self.rng = GameRandom(self.seed)
        self._stacked = None
        self._initial_deck = None
        if deck is not None:
            cards = self.cardset.parse_many(deck)
            self._check_deck(cards)
            self._stacked = self._initial_deck = cards
        if first_player is not None and not (
            isinstance(first_player, (int, np.integer)) and not isinstance(first_player, bool)
            and 0 <= first_player < self.num_players
        ):
            raise ConfigError(
                f"{self.variant}: first_player={first_player!r} is not allowed; "
                f"it must be a seat from 0 to {self.num_players - 1}"
            )
        self.first_player_option = None if first_player is None else int(first_player)
        self._log: list[tuple] = []
        #: the log with the cards of private events hidden, and per seat its own private
        #: events (place in the log, event), as far as a view has needed them
        #: (:meth:`seat_history`): only ever appended to, replaced when cut back
        self._public: list[Event] = []
        self._own: list[list[tuple[int, Event]]] = [[] for _ in range(self.num_players)]
        self._decisions: list[int] = []
        self.turn = 0
        #: :attr:`turn` when the hand in play began (the turn limit counts from it)
        self.hand_start_turn = 0
        self.terminated = False
        self.truncated = False
        self.winners: tuple[int, ...] = ()
        self._legal_now: list[int] = []
        #: the seat that acts next (possibly out of turn); -1 once the game is over. Kept by
        #: :meth:`_settle` (and :meth:`restore`) as a plain attribute: envs, encoders and
        #: agents read it on every step
        self.current_player = -1

    @classmethod
    def _unstarted(cls, config: GameConfig, seed: int) -> Engine:
        """An engine with ``config`` and a generator seeded with ``seed``, but no deal yet.

        :meth:`determinize` fills in the position itself, so dealing a game
        only to throw it away (a shuffle of the whole deck) is skipped.
        """
        if not isinstance(config, cls.Config):
            raise ConfigError(f"{cls.variant}: config must be a {cls.Config.__name__}, "
                              f"not {type(config).__name__}")
        engine = cls.__new__(cls)
        engine.config = config
        engine.num_players = config.num_players
        engine._begin(seed, None, None)
        return engine

    def _check_deck(self, cards: list[int]) -> None:
        full = sorted(self.full_deck())
        if sorted(cards) != full:
            raise ConfigError(
                f"{self.variant}: the stacked deck must hold exactly the game's {len(full)} cards "
                f"(every card of {self.describe_deck()}), got {len(cards)} cards"
            )

    def _new_deck(self) -> list[int]:
        """The deck for a deal, top card first: the stacked deck once, then shuffled ones."""
        if self._stacked is not None:
            deck, self._stacked = list(self._stacked), None
            return deck
        deck = self.full_deck()
        self.rng.shuffle(deck)
        return deck

    # ------------------------------------------------------------- variant API
    def full_deck(self) -> list[int]:
        raise NotImplementedError

    def describe_deck(self) -> str:
        return "the variant's deck"

    def _start(self) -> None:
        raise NotImplementedError

    def _legal(self) -> list[int]:
        raise NotImplementedError

    def _apply(self, action: int) -> None:
        raise NotImplementedError

    def view(self, seat: int) -> PlayerView:
        raise NotImplementedError

    def final_scores(self) -> tuple[int, ...]:
        """Each seat's points at the end (match totals in a match)."""
        raise NotImplementedError

    # ---------------------------------------------------------------- queries
    @property
    def game_over(self) -> bool:
        return self.terminated or self.truncated

    def legal_actions(self) -> tuple[int, ...]:
        """Legal action ids for :attr:`current_player`, ascending; empty when over."""
        return tuple(self._legal_now)

    def legal_mask(self) -> np.ndarray:
        """The legal actions as an int8 mask over the whole action space (a fresh array)."""
        mask = np.zeros(len(self.actions), dtype=np.int8)
        mask[self._legal_now] = 1
        return mask

    def legal_texts(self) -> list[str]:
        return self.actions.texts_of(self._legal_now)

    def action_text(self, action: int) -> str:
        return self.actions.text(action)

    def parse_action(self, text: str) -> int:
        return self.actions.parse(text)

    @property
    def events(self) -> list[Event]:
        """The whole event log, hidden cards included (the referee's view)."""
        return [Event(*e) for e in self._log]

    def seat_history(self, seat: int) -> SeatHistory:
        """The event log so far as ``seat`` may see it, for its view.

        The history refers to nothing but what the seat may see: the log with
        every private card hidden and the seat's own private events, which are
        brought up to date here from the log (only events logged since the
        last view are read, once for all seats) and only ever appended to;
        :meth:`restore` gives new, shorter lists where it cuts them back, so a
        history made earlier keeps reading what it read.
        """
        if not 0 <= seat < self.num_players:
            raise ValueError(
                f"seat {seat!r} is not at this table: seats are 0..{self.num_players - 1}")
        return self._history(seat)

    def _history(self, seat: int) -> SeatHistory:
        """:meth:`seat_history` for a seat known to be at the table (views check it)."""
        log, public = self._log, self._public
        k, n = len(public), len(log)
        if k != n:  # read the events logged since the last view (once for all seats)
            own = self._own
            if k > n:  # the log was cut back behind restore()'s back: read it all again
                public = self._public = []
                own = self._own = [[] for _ in range(self.num_players)]
                k = 0
            private, seats, make = self.private_events, self.num_players, Event._make
            for e in log[k:] if k else log:
                k += 1
                if e[0] in private:
                    player = e[1]
                    if 0 <= player < seats:
                        own[player].append((k - 1, make(e)))
                    e = (e[0], player, NO_CARD, e[3])
                public.append(make(e))  # an Event once here, not at every read of a history
        history = SeatHistory.__new__(SeatHistory)
        history._public, history._own, history._length, history._seat = (
            public, self._own[seat], n, seat)
        return history

    def returns(self) -> list[float]:
        """Rewards at the end: +1 winners, -1 others; 0 for all if truncated or not over."""
        if not self.terminated:
            return [0.0] * self.num_players
        if getattr(self.config, "reward", "win_loss") == "score":
            return self._score_returns()
        win = set(self.winners)
        return [1.0 if p in win else -1.0 for p in range(self.num_players)]

    def _score_returns(self) -> list[float]:
        raise NotImplementedError

    def ranks(self) -> tuple[int, ...]:
        """Each seat's finishing place, 0 the best: the winners, then the others by points.

        Tied seats share a place and the next place skips (1, 1, 3), as in
        sports tables; rating systems that take finishing orders
        (Plackett-Luce) read it directly. A game that was truncated or is not
        over ranks every seat level: nobody finished ahead of anybody.
        """
        if not self.terminated:
            return (0,) * self.num_players
        return self.ranks_from(self.winners, self.final_scores())

    @classmethod
    def ranks_from(cls, winners: Sequence[int], scores: Sequence[int]) -> tuple[int, ...]:
        """:meth:`ranks` of a game that ended with ``winners`` and :meth:`final_scores`
        ``scores``: a class method, so that a game played elsewhere (a compiled table of
        :mod:`eights.vector`) ranks by the very same rule."""
        win = set(winners)
        sign = 1 if cls.low_score_wins else -1
        keys = [(p not in win, sign * x) for p, x in enumerate(scores)]
        return tuple(sum(1 for other in keys if other < key) for key in keys)

    # ------------------------------------------------------------------ steps
    def step(self, action: int | str) -> None:
        """Apply one decision of :attr:`current_player`, then any forced moves after it."""
        if self.terminated or self.truncated:
            raise IllegalActionError(f"{self.variant}: the game is over; no action is legal")
        if type(action) is int and action in self._legal_now:  # the usual case, checked once
            a = action
        else:
            try:
                a = self.actions.coerce(action)
            except ActionError as err:
                raise IllegalActionError(
                    f"{err}; legal now: {', '.join(self.legal_texts())}") from None
            if a not in self._legal_now:
                raise IllegalActionError(
                    f"{self.variant}: {self.actions.texts[a]!r} is not legal for player "
                    f"{self.current_player} now; legal: {', '.join(self.legal_texts())}"
                )
        self._decisions.append(a)
        self.turn += 1
        self._apply(a)
        self._settle()

    def _settle(self) -> None:
        """Apply forced moves until a real decision (or the end), enforce the turn limit, and
        set :attr:`current_player` and the legal actions: the variant layer's loop (the
        table core's reads its agenda, :meth:`TableEngine._settle`)."""
        raise NotImplementedError

    # ------------------------------------------------------ snapshot / replay
    def snapshot(self) -> tuple:
        """An opaque copy of the whole game position, for :meth:`restore` on this engine."""
        return (self.state.copy(), self.rng.state(), len(self._log), len(self._decisions),
                self.turn, self.hand_start_turn, self.terminated, self.truncated, self.winners,
                list(self._legal_now), self._stacked, self.current_player)

    def restore(self, snap: tuple) -> None:
        """Return this engine to a position taken with :meth:`snapshot`."""
        (state, rng_state, log_len, n_decisions, self.turn, self.hand_start_turn,
         self.terminated, self.truncated,
         self.winners, legal, self._stacked, self.current_player) = snap
        self.state = state.copy()
        self.rng.setstate(rng_state)
        del self._log[log_len:]
        # fresh lists where they went further: histories already made keep theirs
        if len(self._public) > log_len:
            self._public = self._public[:log_len]
            self._own = [own if not own or own[-1][0] < log_len
                         else [x for x in own if x[0] < log_len] for own in self._own]
        del self._decisions[n_decisions:]
        self._legal_now = list(legal)

    def record(self) -> GameRecord:
        """The game so far as a replayable record."""
        deck = self._initial_deck
        return GameRecord(
            variant=self.variant,
            config=self.config.to_dict(),
            seed=self.seed,
            deck=None if deck is None else tuple(map(self.cardset.text, deck)),
            first_player=self.first_player_option,
            actions=tuple(self.actions.texts_of(self._decisions)),
        )

    @classmethod
    def cardset_for(cls, config: GameConfig) -> CardSet:
        """The card set a game with ``config`` plays (its names; the notation is
        :attr:`cardset`'s): a variant whose cards come from an option overrides it."""
        return cls.cardset

    @classmethod
    def determinize(cls, view: PlayerView, rng: random.Random,
                    infer_from_draws: bool = False, belief: Any = None) -> Engine:
        """A new engine whose position is consistent with ``view``.

        The seat's own hand and everything public are as in the view; the
        cards hidden from the seat (other hands, the stock) are dealt at
        random from ``rng``, which also seeds the new engine's generator, so
        play from the result is reproducible. Only the view is read: search
        agents (:mod:`eights.agents.ismcts`) sample the positions a seat
        cannot tell apart this way without ever touching the real game.

        ``infer_from_draws`` reads a public draw as "could not play": the
        deal then gives an opponent who drew no card it could have played
        then (apart from the card it drew). The rules force this reading where
        a player may only draw when unable to play; elsewhere it is an
        assumption about the opponents.

        ``belief`` weights the consistent deals by what the opponents' play
        showed (:mod:`eights.engines.determinizers.belief`): ``None`` or
        ``"uniform"`` deals them alike; ``"voids"`` (the single-pile games Crazy,
        Livery and Baby-Eating Eights; Crazier Eights, where a main phase ended
        with a discard left is what tells; Jokers of Death, where it is the
        piles its draws, passes, follows and takes show it could not cover)
        makes a deal less likely the more it breaks what each opponent's draws,
        passes and named suits over the whole hand say it held; an opponent
        model (a :class:`~eights.engines.determinizers.belief.ChoiceModel`, such
        as the heuristic's, in Crazy Eights) makes it as likely as the
        opponents' plays, draws and named suits of the hand were under that
        model. A variant whose deals do not read a belief refuses it
        (``ValueError``), naming the variants that do.
        """
        raise NotImplementedError(f"{cls.variant}: determinize is not implemented")

    @classmethod
    def check_belief(cls, belief: Any) -> None:
        """Refuse (``ValueError``) a ``belief`` that :meth:`determinize` does not take here;
        an engine that deals no positions takes none but ``None``."""
        if belief is not None:
            raise ValueError(f"{cls.variant}: belief={belief!r} is not allowed; this engine "
                             f"deals no positions to weight")

    @classmethod
    def replay(cls, record: GameRecord) -> Engine:
        """A new engine that has played ``record``'s decisions from its start."""
        if record.variant != cls.variant:
            raise ConfigError(f"record is for {record.variant!r}, not {cls.variant!r}")
        engine = cls(cls.Config.from_data(record.config, "the record"), seed=record.seed,
                     deck=record.deck, first_player=record.first_player)
        for text in record.actions:
            engine.step(text)
        return engine

    def log_event(self, kind: str, player: int = -1, card: int = NO_CARD,
                  arg: int = -1) -> None:
        """Append an event to the log; its ``kind`` must be declared (:attr:`event_kinds`).

        The one way an engine logs. Here, one dict lookup: an undeclared (a typo'd) kind
        fails where it is logged, for a few tens of ns an event. Under :func:`check_events` (the
        test suite turns it on) it is :meth:`_log_event_checked` instead, which also refuses
        a value in a slot the kind does not have.
        """
        if kind not in self._event_slots:
            raise self._bad_event(kind, player, card, arg)
        self._log.append((kind, player, card, arg))

    def _log_event_checked(self, kind: str, player: int = -1, card: int = NO_CARD,
                           arg: int = -1) -> None:
        """:meth:`log_event` that also refuses a player, card or arg the kind does not have
        (a slot it has not must hold -1): the declaration and the engine cannot disagree
        unseen. About 100 ns an event more, so the test suite's (:func:`check_events`)."""
        slots = self._event_slots.get(kind)
        if slots is None or not ((player == -1 or slots[0]) and (card == NO_CARD or slots[1])
                                 and (arg == -1 or slots[2])):
            raise self._bad_event(kind, player, card, arg)
        self._log.append((kind, player, card, arg))

    @classmethod
    def _bad_event(cls, kind: str, player: int, card: int, arg: int) -> EventError:
        declared = cls.event_kinds.get(kind)
        if declared is None:
            return EventError(f"{cls.variant}: event kind {kind!r} is not declared; the "
                              f"declared kinds are {', '.join(sorted(cls.event_kinds))}")
        given = [name for name, value, has in (("player", player, declared.player),
                                               ("card", card, declared.card),
                                               ("arg", arg, bool(declared.arg)))
                 if value != -1 and not has]
        return EventError(f"{cls.variant}: event {kind!r} was logged with a "
                          f"{' and a '.join(given)} its declaration does not have "
                          f"({(kind, player, card, arg)!r})")

    @classmethod
    def describe_event(cls, event: Event, name: Callable[[int], str] = lambda p: f"player {p}",
                       cardset: CardSet | None = None) -> str:
        """One plain-text sentence for ``event``, for people and screen readers.

        The sentence is its kind's declared one (:attr:`EventKind.says
        <eights.engines.events.EventKind.says>`), whose fields are
        ``{player}`` (``name(event.player)``, "nobody" for -1), ``{card}``
        ("the queen of hearts", or "a card" when hidden), ``{arg}``, ``{number}``
        (``arg + 1``), ``{suit}`` (``arg`` as a suit), ``{target}``
        (``name(arg)``) and ``{direction}``; each is allowed only where the
        declaration has what it reads, so every sentence can be said.
        """
        kind, player, card, arg = event
        declared = cls.event_kinds.get(kind)
        if declared is None:
            raise EventError(f"{cls.variant}: no sentence for event kind {kind!r}: it is not "
                             f"declared; the declared kinds are "
                             f"{', '.join(sorted(cls.event_kinds))}")
        cards = cardset or cls.cardset
        template = declared.says
        if declared.says_none and arg < 0:
            template = declared.says_none
        makers: dict[str, Callable[[], Any]] = {
            "player": lambda: name(player) if player >= 0 else "nobody",
            "card": lambda: cards.spoken(card) if card >= 0 else "a card",
            "arg": lambda: arg, "number": lambda: arg + 1,
            "suit": lambda: (cards.colour_names[arg] if 0 <= arg < len(cards.colour_names)
                             else "no suit"),
            "target": lambda: name(arg) if arg >= 0 else "nobody",
            "direction": lambda: "clockwise" if arg >= 0 else "counterclockwise",
        }
        return template.format(**{f: makers[f]() for f in sentence_fields(template)})

    def render(self, seat: int | None = None) -> str:
        """A plain-text picture of the game, from ``seat``'s view (the referee's if None)."""
        raise NotImplementedError

    def __repr__(self) -> str:
        """``CrazyEightsGame(num_players=2, seed=7; turn 3, player 0 to act)``: the options
        that differ from the variant's defaults, the seed, and where the game stands."""
        options = [f"num_players={self.num_players}"] + [
            f"{f.name}={getattr(self.config, f.name)!r}"
            for f in dataclasses.fields(self.config)
            if f.name != "num_players" and getattr(self.config, f.name) != f.default]
        if self.terminated:
            where = "over, winners " + (", ".join(map(str, self.winners)) or "none")
        elif self.truncated:
            where = "truncated"
        else:
            where = f"player {self.current_player} to act"
        return (f"{type(self).__name__}({', '.join(options)}, seed={self.seed}; "
                f"turn {self.turn}, {where})")


_LOG_EVENT = Engine.log_event


def check_events(on: bool = True) -> None:
    """Check every logged event's slots against its kind's declaration (``on``), or only
    that its kind is declared (the default, cheaper: engines log a few events a decision).

    The test suite turns it on (tests/conftest.py), and so does the environment variable
    ``EIGHTS_CHECK_EVENTS=1`` for a process it starts.
    """
    Engine.log_event = Engine._log_event_checked if on else _LOG_EVENT  # type: ignore[method-assign]


if os.environ.get("EIGHTS_CHECK_EVENTS", "") not in ("", "0"):
    check_events()
