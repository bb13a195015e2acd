"""Observation encodings: how declared view fields become the observation vector.

Each encoded :class:`~eights.engines.fields.ViewField` names an
:class:`Encoding` (a one-hot, a scaled number, card counts, a relative seat,
per-seat values). :class:`Encoder` lays them out for one config and writes an
observation straight from the engine. It generates one Python function per
config from the declarations (the way :mod:`dataclasses` writes ``__init__``):
each field's getter expression and each encoding's code inline, writing
straight into one preallocated buffer (zeroed, filled, and returned as a
copy, so an observation an agent keeps never changes under it), pile counts
as one slice from the state's bytes. No view is built, no list is gathered
and no call is made per feature. ``encode_view`` writes a view object's
fields through the same encodings' plain writers; the two agree for every
position (tested). An encoder writes one observation at a time: use one per
thread.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..config import GameConfig
from .base import PlayerView
from .fields import ViewField


class Source:
    """Python source being generated: lines at an indentation, named constants, locals."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.namespace: dict[str, Any] = {"np": np}
        self.indent = "    "
        self._locals = 0

    def line(self, text: str) -> None:
        self.lines.append(self.indent + text)

    def const(self, value: Any) -> str:
        """A name bound to ``value`` in the generated function's globals."""
        name = f"C{len(self.namespace)}"
        self.namespace[name] = value
        return name

    def local(self) -> str:
        """A fresh local variable name."""
        self._locals += 1
        return f"v{self._locals}"


# ------------------------------------------------------------------ encodings
#: ``write(out, off, value, seat)``: a bound encoding writes its features into the zeroed
#: buffer ``out`` from offset ``off``
Writer = Callable[[np.ndarray, int, Any, int], None]


class Encoding:
    """How one field becomes observation features. Bound to a config by :meth:`bind`,
    it gives its width and a :data:`Writer`; :meth:`source` writes the same as code
    for the :class:`Encoder` to inline."""

    def bind(self, config: GameConfig) -> tuple[int, Writer]:
        raise NotImplementedError

    def source(self, config: GameConfig, off: int, v: str, out: Source) -> None:
        """Code that adds the features of the value in local ``v`` at offset ``off``.
        By default a call of the bound writer; an encoding may write itself inline."""
        write = self.bind(config)[1]
        out.line(f"{out.const(write)}(out, {off}, {v}, seat)")

    def describe(self, config: GameConfig) -> str:
        """Words for the observation table's "meaning" column."""
        raise NotImplementedError


def _scale_of(scale: float | Callable[[GameConfig], float], config: GameConfig) -> float:
    return float(scale(config) if callable(scale) else scale)


def _size_of(size: int | Callable[[GameConfig], int], config: GameConfig) -> int:
    return size(config) if callable(size) else size


@dataclasses.dataclass(frozen=True)
class OneHot(Encoding):
    """An int from ``first`` to ``first + size - 1`` as a one-hot; anything else is all zeros.
    ``size`` may depend on the config."""

    size: int | Callable[[GameConfig], int]
    first: int = 0

    def bind(self, config):
        size, first = _size_of(self.size, config), self.first

        def write(out, off, value, seat):
            i = value - first
            if 0 <= i < size:
                out[off + i] = 1.0
        return size, write

    def source(self, config, off, v, out):
        size, first = _size_of(self.size, config), self.first
        out.line(f"if {first} <= {v} < {first + size}:")
        out.line(f"    out[{off - first} + {v}] = 1.0")

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

    def source(self, config, off, v, out):
        index = out.const({name: off + i for i, name in enumerate(self.names)})
        out.line(f"out[{index}[{v}]] = 1.0")

    def describe(self, config):
        return "one-hot: " + ", ".join(self.names)


@dataclasses.dataclass(frozen=True)
class Scaled(Encoding):
    """A number divided by ``scale`` (a number or a function of the config), at most 1."""

    scale: float | Callable[[GameConfig], float]

    def bind(self, config):
        inv = 1.0 / _scale_of(self.scale, config)

        def write(out, off, value, seat):
            if value:
                x = value * inv
                out[off] = x if x < 1.0 else 1.0
        return 1, write

    def source(self, config, off, v, out):
        inv = 1.0 / _scale_of(self.scale, config)
        out.line(f"if {v}:")
        out.line(f"    x = {v} * {inv!r}")
        out.line(f"    out[{off}] = x if x < 1.0 else 1.0")

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

    def source(self, config, off, v, out):
        out.line(f"if {v}:" if self.on is None else f"if {v} == {self.on!r}:")
        out.line(f"    out[{off}] = 1.0")

    def describe(self, config):
        return "1 or 0" if self.on is None else f"1 when {self.on}, else 0"


@dataclasses.dataclass(frozen=True)
class CardList(Encoding):
    """A sorted tuple of card ids as copies per card / ``copies`` (the decks in play); with
    one copy of each card in play no card can come twice."""

    cards: int | Callable[[GameConfig], int]
    copies: float | Callable[[GameConfig], float] = 1

    def bind(self, config):
        size = _size_of(self.cards, config)
        inv = 1.0 / _scale_of(self.copies, config)

        def write(out, off, value, seat):
            for c in value:
                out[off + c] += inv
        return size, write

    def source(self, config, off, v, out):
        inv = 1.0 / _scale_of(self.copies, config)
        if inv == 1.0:  # one deck: no card twice in a hand
            out.line(f"for c in {v}:")
            out.line(f"    out[{off} + c] = 1.0")
        else:
            out.line("prev = -1")
            out.line(f"for c in {v}:")
            out.line("    if c == prev:")
            out.line(f"        out[{off} + c] += {inv!r}")
            out.line("    else:")
            out.line(f"        out[{off} + c] = {inv!r}")
            out.line("        prev = c")

    def describe(self, config):
        copies = _scale_of(self.copies, config)
        return "copies of each card" + ("" if copies == 1 else f" / {copies:g}")


@dataclasses.dataclass(frozen=True)
class CardCounts(Encoding):
    """Copies per card id (a pile's counts: bytes, or a sequence of ints) / ``copies``;
    written as one dense slice."""

    cards: int | Callable[[GameConfig], int]
    copies: float | Callable[[GameConfig], float] = 1

    def bind(self, config):
        size = _size_of(self.cards, config)
        inv = np.float32(1.0 / _scale_of(self.copies, config))

        def write(out, off, value, seat):
            counts = (np.frombuffer(value, np.uint8, size)
                      if isinstance(value, (bytes, bytearray)) else value[:size])
            if inv == 1.0:
                out[off:off + size] = counts
            else:
                np.multiply(counts, inv, out=out[off:off + size], casting="unsafe")
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

    def source(self, config, off, v, out):
        n, skip = config.num_players, int(self.others)
        out.line(f"if {v} >= 0:")
        out.line(f"    k = ({v} - seat) % {n} - {skip}")
        out.line("    if k >= 0:")
        out.line(f"        out[{off} + k] = 1.0")

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
        steps = tuple((k, (k - skip) * width) for k in range(skip, n))

        def write(out, off, value, seat):
            for k, at in steps:
                inner(out, off + at, value[(seat + k) % n], seat)
        return width * (n - skip), write

    def source(self, config, off, v, out):
        n, skip = config.num_players, int(self.others)
        width, _ = self.each.bind(config)
        for k in range(skip, n):
            w = out.local()
            out.line(f"{w} = {v}[(seat + {k}) % {n}]")
            self.each.source(config, off + (k - skip) * width, w, out)

    def describe(self, config):
        who = "per opponent, next seat first" if self.others else "per seat, observer first"
        return f"{who}: {self.each.describe(config)}"


# ------------------------------------------------------------------ the encoder
class Encoder:
    """The observation vector of a variant at one config, from its declared fields.

    ``encode(engine, seat)`` is generated for the config (see the module
    docstring); ``encode_view(view)`` encodes a view object (from the
    protocol, say) the same way; ``table()`` is the env docstring's
    observation table.
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
        #: the buffer every observation is written into (its copy is returned)
        self._buffer = np.zeros(pos, dtype=np.float32)
        self.source = self._generate()
        self.encode: Callable[[Any, int], np.ndarray] = self._compile()

    def _generate(self) -> Source:
        src = Source()
        src.line("s = g.state")
        src.line(f"out = {src.const(self._buffer)}")
        src.line("out.fill(0.0)")
        for f, off, _ in self._plan:
            v = src.local()
            src.line(f"# {f.name}")
            src.line(f"{v} = {self._value(f, src)}")
            f.encoding.source(self.config, off, v, src)
        src.line("return out.copy()")
        return src

    @staticmethod
    def _value(f: ViewField, src: Source) -> str:
        """The expression of a field's value for the reader ``seat``, visibility applied."""
        if f.expr is None or f.visibility == "allies":
            return f"{src.const(f.read)}(g, seat)"
        if f.visibility == "acting":
            return f"({f.expr}) if seat == g.current_player else {src.const(f.hidden)}"
        return f"({f.expr})"

    def _compile(self) -> Callable[[Any, int], np.ndarray]:
        text = "def encode(g, seat):\n" + "\n".join(self.source.lines) + "\n"
        namespace = self.source.namespace
        exec(compile(text, f"<encoder of {type(self.config).__name__}>", "exec"), namespace)
        encode = namespace["encode"]
        encode.__doc__ = "The observation of ``seat`` at the engine's position (a new array)."
        return encode

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
