"""View fields declared once: the view class, its observation encoder, its JSON kinds, its text.

A variant lists the public fields of its :class:`~eights.engines.base.PlayerView`
once, as :class:`ViewField`\\ s (name, protocol kind, how it is read from the
engine, who may see it, how it is encoded, what it means). Everything that
shows a view derives from that list:

* :func:`view_class` makes the variant's view dataclass (the core fields of
  :class:`PlayerView` first, then the declared ones, in order), with its
  ``field_kinds`` for the protocol's JSON and JSON Schema;
* :meth:`TableEngine.view <eights.engines.table.TableEngine.view>` fills it
  by calling each field's getter, hiding what the seat may not see;
* :class:`Encoder` lays the encoded fields out in the observation vector and
  writes them into a preallocated buffer, straight from the engine, with the
  same getters and the same hiding, so an observation cannot hold what the
  view would not;
* :meth:`Encoder.table` is the env docstring's observation table;
* :func:`value_text` is how the playthrough printer writes any field.

Visibility is declared, not coded per field: ``"public"`` (every seat),
``"own"`` (the getter is given the reader's seat and returns that seat's own
value, such as its hand), ``"acting"`` (only the seat to act sees it; the
others read ``hidden``), ``"allies"`` (the reader's allies' values, hidden for
other seats; for team variants that show allies their hands).
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..cards import NO_CARD, RANK_TEXT, SUITS, card_text, cards_text
from ..config import GameConfig
from .base import PlayerView

VISIBILITIES = ("public", "own", "acting", "allies")
#: the fields every view has, filled by the engine core (see :class:`PlayerView`)
CORE_FIELDS = ("seat", "current_player", "hand", "hand_sizes", "scores", "turn", "game_over")


# ------------------------------------------------------------------ encodings
class Encoding:
    """How one field becomes observation features. Bound to a config by :meth:`bind`,
    it gives a width and a writer ``write(out, offset, value, seat)``."""

    def bind(self, config: GameConfig) -> tuple[int, Callable[[np.ndarray, int, Any, int], None]]:
        raise NotImplementedError

    #: words for the observation table's "meaning" column
    def describe(self, config: GameConfig) -> str:
        raise NotImplementedError


def _scale_of(scale: float | Callable[[GameConfig], float], config: GameConfig) -> float:
    return float(scale(config) if callable(scale) else scale)


@dataclasses.dataclass(frozen=True)
class OneHot(Encoding):
    """An int from ``first`` to ``first + size - 1`` as a one-hot; anything else is all zeros.
    ``size`` may depend on the config."""

    size: int | Callable[[GameConfig], int]
    first: int = 0

    def bind(self, config):
        size, first = (self.size(config) if callable(self.size) else self.size), self.first

        def write(out, off, value, seat):
            i = value - first
            if 0 <= i < size:
                out[off + i] = 1.0
        return size, write

    def describe(self, config):
        return "one-hot"


@dataclasses.dataclass(frozen=True)
class Choice(Encoding):
    """One of ``names`` (a phase), one-hot in that order."""

    names: tuple[str, ...]

    def bind(self, config):
        index = {name: i for i, name in enumerate(self.names)}

        def write(out, off, value, seat):
            out[off + index[value]] = 1.0
        return len(self.names), write

    def describe(self, config):
        return "one-hot: " + ", ".join(self.names)


@dataclasses.dataclass(frozen=True)
class Scaled(Encoding):
    """A number divided by ``scale`` (a number or a function of the config), at most 1."""

    scale: float | Callable[[GameConfig], float]

    def bind(self, config):
        inv = 1.0 / _scale_of(self.scale, config)

        def write(out, off, value, seat):
            x = value * inv
            out[off] = x if x < 1.0 else 1.0
        return 1, write

    def describe(self, config):
        return f"/ {_scale_of(self.scale, config):g}, at most 1"


@dataclasses.dataclass(frozen=True)
class Flag(Encoding):
    """1 when the value equals ``on`` (truthy when ``on`` is None), else 0."""

    on: Any = None

    def bind(self, config):
        on = self.on

        def write(out, off, value, seat):
            if (value if on is None else value == on):
                out[off] = 1.0
        return 1, write

    def describe(self, config):
        return "1 or 0" if self.on is None else f"1 when {self.on}, else 0"


@dataclasses.dataclass(frozen=True)
class CardList(Encoding):
    """A sorted tuple of card ids as copies per card / ``copies`` (the decks in play)."""

    cards: int | Callable[[GameConfig], int]
    copies: float | Callable[[GameConfig], float] = 1

    def bind(self, config):
        size = self.cards(config) if callable(self.cards) else self.cards
        inv = 1.0 / _scale_of(self.copies, config)
        if inv == 1.0:
            def write(out, off, value, seat):
                if value:
                    out[[off + c for c in value]] = 1.0
        else:
            def write(out, off, value, seat):
                for c in value:
                    out[off + c] += inv
        return size, write

    def describe(self, config):
        copies = _scale_of(self.copies, config)
        return "copies of each card" + ("" if copies == 1 else f" / {copies:g}")


@dataclasses.dataclass(frozen=True)
class CardCounts(Encoding):
    """A tuple of copies per card id (a pile's counts) / ``copies``."""

    cards: int | Callable[[GameConfig], int]
    copies: float | Callable[[GameConfig], float] = 1

    def bind(self, config):
        size = self.cards(config) if callable(self.cards) else self.cards
        inv = 1.0 / _scale_of(self.copies, config)

        def write(out, off, value, seat):
            out[off:off + size] = value[:size]
            if inv != 1.0:
                out[off:off + size] *= inv
        return size, write

    def describe(self, config):
        copies = _scale_of(self.copies, config)
        return "copies of each card" + ("" if copies == 1 else f" / {copies:g}")


@dataclasses.dataclass(frozen=True)
class Seat(Encoding):
    """A seat as a one-hot relative to the observer (observer first, then the next seats);
    with ``others`` the observer has no entry (a seat equal to it writes nothing)."""

    others: bool = False

    def bind(self, config):
        n, skip = config.num_players, int(self.others)

        def write(out, off, value, seat):
            if value >= 0:
                k = (value - seat) % n - skip
                if k >= 0:
                    out[off + k] = 1.0
        return n - skip, write

    def describe(self, config):
        return ("one-hot, relative seat (the next seat first)" if self.others
                else "one-hot, relative seat (0 = observer)")


@dataclasses.dataclass(frozen=True)
class PerSeat(Encoding):
    """A per-seat tuple, each value encoded by ``each``, in relative order (observer first;
    with ``others``, the observer's own value left out)."""

    each: Encoding
    others: bool = False

    def bind(self, config):
        n, skip = config.num_players, int(self.others)
        width, inner = self.each.bind(config)

        def write(out, off, value, seat):
            for k in range(skip, n):
                inner(out, off + (k - skip) * width, value[(seat + k) % n], seat)
        return width * (n - skip), write

    def describe(self, config):
        who = "per opponent, next seat first" if self.others else "per seat, observer first"
        return f"{who}: {self.each.describe(config)}"


# ------------------------------------------------------------------ fields
@dataclasses.dataclass(frozen=True)
class ViewField:
    """One public field of a variant's view (see the module docstring).

    ``get(engine, seat)`` reads it; ``kind`` is how the protocol writes it;
    ``encoding`` how the observation holds it (``None``: in the view only);
    ``feature`` names it in the observation table (default: its name);
    ``hidden`` is what a seat reads where ``visibility`` hides it. ``core``
    marks the fields every :class:`PlayerView` has (:func:`core` makes them).
    :attr:`read` is ``get`` with the visibility applied: the one way the view
    and the encoder read a field.
    """

    name: str
    kind: str
    doc: str
    get: Callable[[Any, int], Any]
    encoding: Encoding | None = None
    visibility: str = "public"
    hidden: Any = NO_CARD
    feature: str = ""
    #: the values a ``phase`` field may take
    names: tuple[str, ...] = ()
    core: bool = False

    def __post_init__(self) -> None:
        if self.visibility not in VISIBILITIES:
            raise ValueError(f"view field {self.name!r}: visibility {self.visibility!r} is not "
                             f"one of {', '.join(VISIBILITIES)}")
        if self.core != (self.name in CORE_FIELDS):
            raise ValueError(f"view field {self.name!r}: the core fields are "
                             f"{', '.join(CORE_FIELDS)}, made with core()")
        object.__setattr__(self, "read", _reader(self))


def _reader(f: ViewField) -> Callable[[Any, int], Any]:
    get, hidden = f.get, f.hidden
    if f.visibility == "acting":
        def read(engine, seat):
            return get(engine, seat) if seat == engine.current_player else hidden
        return read
    if f.visibility == "allies":
        def read(engine, seat):
            team = engine.team_of
            mine = team[seat]
            return tuple(v if q != seat and team[q] == mine else hidden
                         for q, v in enumerate(get(engine, seat)))
        return read
    return get


_CORE_KINDS = {"seat": "seat", "current_player": "seat", "hand": "cards", "hand_sizes": "counts",
               "scores": "ints", "turn": "count", "game_over": "bool"}
_CORE_GETTERS: dict[str, Callable[[Any, int], Any]] = {
    "seat": lambda engine, seat: seat,
    "current_player": lambda engine, seat: engine.current_player,
    "hand": lambda engine, seat: engine.sorted_hand(seat),
    "hand_sizes": lambda engine, seat: tuple(map(len, engine.state.hands)),
    "scores": lambda engine, seat: tuple(engine.state.scores),
    "turn": lambda engine, seat: engine.turn,
    "game_over": lambda engine, seat: engine.game_over,
}


def core(name: str, encoding: Encoding | None, doc: str, feature: str = "") -> ViewField:
    """How a core field (``hand``, ``hand_sizes``, ``scores``, ``current_player``...) is
    encoded; the engine core reads its value."""
    return ViewField(name, _CORE_KINDS[name], doc, _CORE_GETTERS[name], encoding,
                     "own" if name == "hand" else "public", feature=feature, core=True)


def view_class(name: str, fields: Sequence[ViewField], module: str) -> type[PlayerView]:
    """The view dataclass of a variant: :class:`PlayerView` plus the declared fields.

    It is put in ``module`` under ``name``, so views pickle (a process pool or
    ray sends them) and their ``repr`` names them."""
    own = [f for f in fields if not f.core]
    cls = dataclasses.make_dataclass(
        name, [(f.name, Any) for f in own], bases=(PlayerView,), slots=True,
        namespace={"__doc__": f"A seat's view of the game: {', '.join(f.name for f in own)}."})
    cls.field_kinds = {**PlayerView.field_kinds, **{f.name: f.kind for f in own}}
    phases = [f.names for f in own if f.kind == "phase"]
    cls.phase_names = phases[0] if phases else ()
    cls.declared_fields = tuple(fields)
    cls.__module__, cls.__qualname__ = module, name
    setattr(sys.modules[module], name, cls)
    return cls


# ------------------------------------------------------------------ the encoder
class Encoder:
    """The observation vector of a variant at one config, from its declared fields.

    ``encode(engine, seat)`` writes every encoded field into a buffer made
    once, reading each value with the field's getter and the view's hiding
    rules, and returns a copy (an observation an agent keeps must not change
    under it). ``encode_view(view)`` encodes a view object (from the protocol,
    say) the same way; the two agree for every engine position.
    """

    def __init__(self, fields: Sequence[ViewField], config: GameConfig):
        self.config = config
        self.parts: list[tuple[str, int, str]] = []
        self.offsets: dict[str, int] = {}
        plan = []
        pos = 0
        for f in fields:
            if f.encoding is None:
                continue
            width, write = f.encoding.bind(config)
            feature = f.feature or f.name
            self.offsets[feature] = pos
            self.parts.append((feature, width, f"{f.doc} ({f.encoding.describe(config)})"))
            plan.append((f, pos, write))
            pos += width
        self.size = pos
        self._plan = tuple(plan)
        self._reads = tuple((f.read, off, write) for f, off, write in plan)
        self._buffer = np.zeros(pos, dtype=np.float32)

    def encode(self, engine: Any, seat: int) -> np.ndarray:
        """The observation of ``seat`` at the engine's position (a new array)."""
        out = self._buffer
        out.fill(0.0)
        for read, off, write in self._reads:
            write(out, off, read(engine, seat), seat)
        return out.copy()

    def encode_view(self, view: PlayerView) -> np.ndarray:
        """The observation a view holds (the same vector :meth:`encode` gives its seat)."""
        out = np.zeros(self.size, dtype=np.float32)
        seat = view.seat
        for f, off, write in self._plan:
            write(out, off, getattr(view, f.name), seat)
        return out

    def table(self) -> str:
        """The Markdown observation table of the env docstring."""
        rows = ["| index | feature | meaning |", "| --- | --- | --- |"]
        for name, width, doc in self.parts:
            start = self.offsets[name]
            span = str(start) if width == 1 else f"{start}-{start + width - 1}"
            rows.append(f"| {span} | `{name}` | {doc} |")
        return "\n".join(rows)


# ------------------------------------------------------------------ text
def value_text(kind: str, value: Any) -> str:
    """A field's value in the notation, by its kind (for playthroughs and logs)."""
    if kind == "card":
        return card_text(value) if value != NO_CARD else "-"
    if kind == "cards":
        return f"[{cards_text(value)}]"
    if kind == "suit":
        return SUITS[value] if value >= 0 else "-"
    if kind == "card_counts":
        return f"[{cards_text(c for c, k in enumerate(value) for _ in range(k))}]"
    if kind == "seat_suits":
        return "(" + ", ".join(SUITS[x] if x >= 0 else "-" for x in value) + ")"
    if kind == "frames":
        return "[" + " ".join(f"{k}@{seat}" + (f"({','.join(map(str, args))})" if args else "")
                              for k, seat, args in value) + "]"
    if kind == "seat_ranks":
        return "(" + ", ".join(RANK_TEXT[x - 1] if x >= 1 else "-" for x in value) + ")"
    return str(value)
