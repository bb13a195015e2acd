"""Observation encodings: how declared view fields become the observation vector.

Each encoded :class:`~eights.engines.fields.ViewField` names an
:class:`Encoding` (a one-hot, a scaled number, card counts, a relative seat,
per-seat values). :class:`Encoder` lays them out for one config and writes an
observation straight from the engine. It generates one Python function per
config from the declarations (the way :mod:`dataclasses` writes ``__init__``):
each field's getter expression and each encoding's code inline, writing
straight into a new zeroed buffer that becomes the returned array (so an
observation an agent keeps never changes under it, and an encoder holds no
per-call state: one encoder per config is shared by every env, wrapper and
thread, see :func:`shared_encoder`). The code
writes single features through a ``memoryview`` of the buffer (a numpy item
assignment costs about twice as much) and card counts as byte lanes of the
float32s (:class:`CardCounts`), so no numpy call is made per feature. A
per-seat field read as ``tuple(X)`` or ``tuple(map(F, X))`` is read one seat
at a time (``X[i]``, ``F(X[i])``), not gathered first, and a hand read as
``tuple(sorted(X))`` is counted from ``X`` unsorted. No view is built.
``encode_view`` writes a view object's fields through the same encodings'
plain writers; the two agree for every position (tested).
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from ..config import GameConfig
from .base import PlayerView
from .fields import ViewField


class Source:
    """Python source being generated: lines at an indentation, named constants, locals.

    In the encoder's code ``out`` is the observation buffer as a float32
    ``memoryview`` (``out[i] = x``) and ``raw`` the same memory as a
    ``bytearray`` (for byte-lane writes); ``seat`` is the reader and ``acting``
    whether it is the seat to act."""

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
def _relative(k: int) -> str:
    """The local holding the seat ``k`` places after the reader, ``(seat + k) % n``: the
    encoder computes each once, at the top (per-seat fields read them again and again)."""
    return f"r{k}"


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

    def labels(self, config: GameConfig) -> tuple[str, ...]:
        """The named values its features stand for at ``config`` (a phase one-hot's phases),
        in feature order; none for an encoding of numbers or cards. The layout fingerprints
        (:mod:`eights.envs.layout`) record them, so a new phase is named when it appears."""
        return ()

    def options(self) -> tuple[str, ...]:
        """The config options that enable some of its features (checked against the config
        class when the engine class is made)."""
        return ()


def scale_of(scale: float | Callable[[GameConfig], float], config: GameConfig) -> float:
    return float(scale(config) if callable(scale) else scale)


def _size_of(size: int | Callable[[GameConfig], int], config: GameConfig) -> int:
    return size(config) if callable(size) else size


def enabled(config: GameConfig, option: str) -> bool:
    """Whether ``option`` (a declared on/off option, or ``""``: none) is on at ``config``:
    the one test of every ``enabled_by`` declaration (a view field's, a phase's)."""
    return not option or bool(getattr(config, option))


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
    """One of ``names`` (a phase), one-hot in that order.

    ``enabled_by`` maps a name that only an option can reach to that option (a phase
    pushed only by a rule the option turns on): while the option is off the name has no
    feature, so an option left off adds nothing to the observation (see
    :func:`enabled`). Given as a mapping, kept as sorted ``(name, option)`` pairs (the
    declarations are hashed: one encoder per declared tuple and config)."""

    names: tuple[str, ...]
    enabled_by: Mapping[str, str] | tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        pairs = tuple(sorted(dict(self.enabled_by).items()))
        unknown = [name for name, _ in pairs if name not in self.names]
        if unknown:
            raise ValueError(f"Choice: enabled_by names {unknown[0]!r}, which is not one of "
                             f"its names ({', '.join(self.names)})")
        object.__setattr__(self, "enabled_by", pairs)

    def labels(self, config):
        gates = dict(self.enabled_by)
        return tuple(n for n in self.names if n not in gates or enabled(config, gates[n]))

    def options(self):
        return tuple(option for _, option in self.enabled_by)

    def bind(self, config):
        index = {name: i for i, name in enumerate(self.labels(config))}

        def write(out, off, value, seat):
            out[off + index[value]] = 1.0
        return len(index), write

    def source(self, config, off, v, out):
        index = out.const({name: off + i for i, name in enumerate(self.labels(config))})
        out.line(f"out[{index}[{v}]] = 1.0")

    def describe(self, config):
        return "one-hot: " + ", ".join(self.labels(config))


@dataclasses.dataclass(frozen=True)
class Scaled(Encoding):
    """A number divided by ``scale`` (a number or a function of the config), at most 1."""

    scale: float | Callable[[GameConfig], float]

    def bind(self, config):
        inv = 1.0 / scale_of(self.scale, config)

        def write(out, off, value, seat):
            if value:
                x = value * inv
                out[off] = x if x < 1.0 else 1.0
        return 1, write

    def source(self, config, off, v, out):
        inv = 1.0 / scale_of(self.scale, config)
        out.line(f"if {v}:")
        out.line(f"    x = {v} * {inv!r}")
        out.line(f"    out[{off}] = x if x < 1.0 else 1.0")

    def describe(self, config):
        return f"/ {scale_of(self.scale, config):g}, at most 1"


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
class _CopiesPerCard(Encoding):
    """Copies of each of ``cards`` card ids / ``copies`` (the decks in play; either may
    depend on the config). The features do not depend on the order the cards come in,
    and the generated code only reads them, so the encoder may read a field's cards
    unsorted and uncopied (see :func:`unordered`)."""

    cards: int | Callable[[GameConfig], int]
    copies: float | Callable[[GameConfig], float] = 1

    order_free = True

    def describe(self, config):
        copies = scale_of(self.copies, config)
        return "copies of each card" + ("" if copies == 1 else f" / {copies:g}")


@dataclasses.dataclass(frozen=True)
class CardList(_CopiesPerCard):
    """A tuple of card ids (a hand) as copies per card; with one copy of each card in play
    no card can come twice."""

    def bind(self, config):
        size = _size_of(self.cards, config)
        inv = 1.0 / scale_of(self.copies, config)

        def write(out, off, value, seat):
            for c in value:
                out[off + c] += inv
        return size, write

    def source(self, config, off, v, out):
        inv = 1.0 / scale_of(self.copies, config)
        at = f"{off} + c" if off else "c"
        out.line(f"for c in {v}:")
        if inv == 1.0:  # one deck: no card twice in a hand
            out.line(f"    out[{at}] = 1.0")
        else:
            out.line(f"    out[{at}] += {inv!r}")


@dataclasses.dataclass(frozen=True)
class CardCounts(_CopiesPerCard):
    """Copies per card id given as counts (a pile's: bytes, or a sequence of ints); written
    as one dense run of features, each at most 1 (a card played, reshuffled into the stock
    and played again counts more often than the deck holds it)."""

    def bind(self, config):
        size = _size_of(self.cards, config)
        inv = np.float32(1.0 / scale_of(self.copies, config))

        def write(out, off, value, seat):
            counts = (np.frombuffer(value, np.uint8, size)
                      if isinstance(value, (bytes, bytearray)) else value[:size])
            part = out[off:off + size]
            if inv == 1.0:
                part[:] = counts
            else:
                np.multiply(counts, inv, out=part, casting="unsafe")
            np.minimum(part, 1.0, out=part)
        return size, write

    def source(self, config, off, v, out):
        # A count c becomes the float32 c / copies. Its four bytes are four lookups of c
        # (one table per byte lane), so the counts, as bytes, turn into floats with one
        # bytes.translate and one strided bytearray write per lane that is ever non-zero.
        size = _size_of(self.cards, config)
        inv = 1.0 / scale_of(self.copies, config)
        floats = np.minimum(np.arange(256, dtype=np.float32) * np.float32(inv), np.float32(1.0))
        lanes = floats.view(np.uint8).reshape(256, 4)
        # A count of 0 is the float 0.0, four zero bytes: a row of zeros (a seat nobody saw
        # take a card, most of the time) leaves the zeroed buffer as it is, and one bytes
        # comparison costs less than the lanes' writes.
        counts = out.local()
        out.line(f"{counts} = {v}[:{size}]")  # bytes or a bytearray: both translate
        writes = [(lane, table) for lane in range(4)
                  if any(table := lanes[:, lane].tobytes())]
        if writes:
            out.line(f"if {counts} != {out.const(bytes(size))}:")
        for lane, table in writes:
            start, stop = 4 * off + lane, 4 * (off + size) + lane
            out.line(f"    raw[{start}:{stop}:4] = {counts}.translate({out.const(table)})")


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
        self.source_each(config, off, lambda i: f"{v}[{i}]", out)

    def source_each(self, config, off, item: Callable[[str], str], out):
        """Code for the values ``item(i)`` gives, one seat ``i`` at a time (an expression
        of the seat's index), so no tuple of every seat's values is built first."""
        n, skip = config.num_players, int(self.others)
        width, _ = self.each.bind(config)
        for k in range(skip, n):
            w = out.local()
            out.line(f"{w} = {item(_relative(k))}")
            self.each.source(config, off + (k - skip) * width, w, out)

    def describe(self, config):
        who = "per opponent, next seat first" if self.others else "per seat, observer first"
        return f"{who}: {self.each.describe(config)}"


@dataclasses.dataclass(frozen=True)
class Counts(Encoding):
    """A short tuple of counts (one per suit, say), each divided by ``scale``, at most 1."""

    size: int | Callable[[GameConfig], int]
    scale: float

    def bind(self, config):
        size, inv = _size_of(self.size, config), 1.0 / self.scale

        def write(out, off, value, seat):
            for k in range(size):
                x = value[k] * inv
                out[off + k] = x if x < 1.0 else 1.0
        return size, write

    def source(self, config, off, v, out):
        inv = 1.0 / self.scale
        for k in range(_size_of(self.size, config)):
            out.line(f"if {v}[{k}]:")  # (a zero count leaves the zeroed feature as it is)
            out.line(f"    x = {v}[{k}] * {inv!r}")
            out.line(f"    out[{off + k}] = x if x < 1.0 else 1.0")

    def describe(self, config):
        return f"{_size_of(self.size, config)} counts / {self.scale:g}, each at most 1"


class Allies(Encoding):
    """1 for each other seat on the observer's team (the value: each seat's team)."""

    def bind(self, config):
        n = config.num_players

        def write(out, off, value, seat):
            mine = value[seat]
            for k in range(1, n):
                if value[(seat + k) % n] == mine:
                    out[off + k - 1] = 1.0
        return n - 1, write

    def source(self, config, off, v, out):
        n = config.num_players
        out.line(f"mine = {v}[seat]")
        for k in range(1, n):
            out.line(f"if {v}[{_relative(k)}] == mine:")
            out.line(f"    out[{off + k - 1}] = 1.0")

    def describe(self, config):
        return "1 for each other seat on the observer's team, next seat first"


@dataclasses.dataclass(frozen=True)
class Bits(Encoding):
    """An int bitmask as ``width`` flags, bit 0 first (a set of colours, say)."""

    width: int

    def bind(self, config):
        width = self.width

        def write(out, off, value, seat):
            for k in range(width):
                if value >> k & 1:
                    out[off + k] = 1.0
        return width, write

    def describe(self, config):
        return f"{self.width} flags, one per bit"


@dataclasses.dataclass(frozen=True)
class PerPile(Encoding):
    """A per-pile tuple (one value per discard pile, pile 1 first), each value encoded by
    ``each``; ``piles`` (a number or a function of the config) is how many piles there are.
    Piles are not relative to the observer: every seat sees pile 1 as pile 1."""

    each: Encoding
    piles: int | Callable[[GameConfig], int]

    def bind(self, config):
        count = _size_of(self.piles, config)
        width, inner = self.each.bind(config)

        def write(out, off, value, seat):
            for k in range(count):
                inner(out, off + k * width, value[k], seat)
        return width * count, write

    def source(self, config, off, v, out):
        self.source_each(config, off, lambda k: f"{v}[{k}]", out)

    def source_each(self, config, off, item: Callable[[str], str], out):
        """Code for the values ``item(k)`` gives, one pile ``k`` at a time (as
        :meth:`PerSeat.source_each`)."""
        count = _size_of(self.piles, config)
        width, _ = self.each.bind(config)
        for k in range(count):
            w = out.local()
            out.line(f"{w} = {item(str(k))}")
            self.each.source(config, off + k * width, w, out)

    def describe(self, config):
        return f"per pile: {self.each.describe(config)}"


# ------------------------------------------------------------------ the encoder
#: the reader's memory as a getter reads it: read once, at the top of the generated
#: function, as ``mem`` (the public history's fields read it four or five times)
MEMORY_READ = "g.memory(seat)"


def _is_memory_read(node: ast.AST) -> bool:
    """Whether ``node`` is the call :data:`MEMORY_READ`."""
    return (isinstance(node, ast.Call) and not node.keywords and len(node.args) == 1
            and isinstance(node.args[0], ast.Name) and node.args[0].id == "seat"
            and isinstance(node.func, ast.Attribute) and node.func.attr == "memory"
            and isinstance(node.func.value, ast.Name) and node.func.value.id == "g")


def reads_memory(expr: str | None) -> bool:
    """Whether a getter expression reads the reader's memory (:data:`MEMORY_READ`)."""
    return expr is not None and any(
        map(_is_memory_read, ast.walk(ast.parse(expr, mode="eval"))))


def _inline(expr: str) -> str:
    """A getter expression as the encoder writes it: ``g.current_player`` is read once, at
    the top of the generated function, as ``cp``, and :data:`MEMORY_READ` as ``mem``."""

    class ReadOnce(ast.NodeTransformer):
        def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
            if (node.attr == "current_player" and isinstance(node.value, ast.Name)
                    and node.value.id == "g"):
                return ast.copy_location(ast.Name("cp", ast.Load()), node)
            return self.generic_visit(node)

        def visit_Call(self, node: ast.Call) -> ast.AST:
            if _is_memory_read(node):
                return ast.copy_location(ast.Name("mem", ast.Load()), node)
            return self.generic_visit(node)

    return ast.unparse(ReadOnce().visit(ast.parse(expr, mode="eval")))


def _plain(node: ast.expr) -> bool:
    """A name, an attribute or a subscript of one: an indexable container read as it is."""
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return isinstance(node, ast.Name)


def _sole_argument(node: ast.expr, func: str) -> ast.expr | None:
    """The one argument of a call ``func(x)`` (``func`` a plain name); else ``None``."""
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == func and len(node.args) == 1 and not node.keywords):
        return node.args[0]
    return None


def unordered(expr: str | None) -> str | None:
    """For a getter ``tuple(sorted(X))``, ``sorted(X)``, ``tuple(X)`` or ``bytes(X)``
    (``X`` a plain container), ``X`` itself: what an order-free encoding, which only
    reads it, may take without the copy and the sort; else ``None``."""
    if expr is None:
        return None
    node = ast.parse(expr, mode="eval").body
    for wrapper in ("tuple", "bytes", "sorted"):
        node = _sole_argument(node, wrapper) or node
    return _inline(ast.unparse(node)) if _plain(node) else None


def _each_of(gen: ast.GeneratorExp) -> Callable[[str], str] | None:
    """For ``(E for x in X)`` (one loop, no condition, ``X`` a plain container, ``E`` with no
    scope of its own), the expression ``E`` of item ``X[i]``; else ``None``."""
    loop = gen.generators[0]
    if (len(gen.generators) != 1 or loop.ifs or loop.is_async
            or not isinstance(loop.target, ast.Name) or not _plain(loop.iter)
            or any(isinstance(n, (ast.Lambda, ast.comprehension, ast.NamedExpr))
                   for n in ast.walk(gen.elt))):
        return None
    name, seq = loop.target.id, ast.unparse(loop.iter)

    def item(i: str) -> str:
        index = ast.parse(f"{seq}[{i}]", mode="eval").body

        class Bind(ast.NodeTransformer):
            def visit_Name(self, node: ast.Name) -> ast.AST:
                return index if node.id == name else node

        return _inline(ast.unparse(Bind().visit(copy.deepcopy(gen.elt))))
    return item


def per_seat_item(expr: str | None) -> Callable[[str], str] | None:
    """For a per-seat (or per-pile) getter ``tuple(X)``, ``tuple(map(F, X))`` or
    ``tuple(E for x in X)`` (``X`` a plain container), the expression of one seat's (pile's)
    value, ``X[i]``, ``F(X[i])`` or ``E`` of ``X[i]``; else ``None``."""
    if expr is None:
        return None
    inner = _sole_argument(ast.parse(expr, mode="eval").body, "tuple")
    if inner is None:
        return None
    if isinstance(inner, ast.GeneratorExp):
        return _each_of(inner)
    if (isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name)
            and inner.func.id == "map" and len(inner.args) == 2 and not inner.keywords
            and _plain(inner.args[0]) and _plain(inner.args[1])):
        func, seq = (_inline(ast.unparse(a)) for a in inner.args)
        return lambda i: f"{func}({seq}[{i}])"
    if _plain(inner):
        seq = _inline(ast.unparse(inner))
        return lambda i: f"{seq}[{i}]"
    return None


def _unordered_each(item: Callable[[str], str]) -> Callable[[str], str]:
    """``item`` for an order-free encoding of each seat's cards: one seat's
    ``tuple(sorted(X[i]))`` read as ``X[i]`` (see :func:`unordered`)."""
    return lambda i: unordered(item(i)) or item(i)


class Encoder:
    """The observation vector of a variant at one config, from its declared fields.

    ``encode(engine, seat)`` is generated for the config (see the module
    docstring); ``encode_view(view)`` encodes a view object (from the
    protocol, say) the same way; ``table()`` is the env docstring's
    observation table.
    """

    def __init__(self, fields: Sequence[ViewField], config: GameConfig,
                 version: int | None = None):
        self.config = config
        #: the observation version it encodes: the fields declared ``since`` it or before
        #: (``None``: every field, the latest version)
        self.version = version
        self.parts: list[tuple[str, int, str]] = []
        self.offsets: dict[str, int] = {}
        #: feature -> the named values of its features (a phase one-hot's phases), if any
        self.labels: dict[str, tuple[str, ...]] = {}
        plan = []
        pos = 0
        for f in fields:
            if (f.encoding is None or not enabled(config, f.enabled_by)
                    or (version is not None and f.since > version)):
                continue
            width, write = f.encoding.bind(config)
            feature = f.feature or f.name
            if feature in self.offsets:  # (the docs tables and layouts look features up by name)
                raise ValueError(f"field {f.name!r}: feature name {feature!r} is taken by an "
                                 f"earlier field; a feature name is unique in an observation")
            self.offsets[feature] = pos
            self.parts.append((feature, width, f"{f.doc} ({f.encoding.describe(config)})"))
            self.labels[feature] = f.encoding.labels(config)
            plan.append((f, pos, write))
            pos += width
        self.size = pos
        self._plan = tuple(plan)
        self.source = self._generate()
        self.encode: Callable[[Any, int], np.ndarray] = self._compile()

    def _generate(self) -> Source:
        src = Source()
        # each call writes into new zeroed bytes (byte lanes go to ``raw``, floats through
        # ``out``, a float view of them) that the returned array then owns: no state is
        # kept between calls, so envs in any thread can share one encoder
        src.line("s = g.state")
        src.line("cp = g.current_player")
        src.line("acting = seat == cp")
        src.line(f"raw = bytearray({4 * self.size})")
        src.line("out = memoryview(raw).cast('f')")
        n = self.config.num_players
        for k in range(n):
            src.line(f"{_relative(k)} = (seat + {k}) % {n}")
        if any(reads_memory(f.expr) for f, _, _ in self._plan):
            src.line(f"mem = {MEMORY_READ}")
        for f, off, _ in self._plan:
            src.line(f"# {f.name}")
            each = per_seat_item(f.expr) if f.visibility == "public" else None
            if each is not None and isinstance(f.encoding, (PerSeat, PerPile)):
                if getattr(f.encoding.each, "order_free", False):
                    each = _unordered_each(each)
                f.encoding.source_each(self.config, off, each, src)
                continue
            v = src.local()
            cards = unordered(f.expr) if getattr(f.encoding, "order_free", False) else None
            if cards is not None and f.visibility in ("public", "own"):
                src.line(f"{v} = {cards}")
            else:
                src.line(f"{v} = {self._value(f, src)}")
            f.encoding.source(self.config, off, v, src)
        src.line(f"return {src.const(np.frombuffer)}(raw, {src.const(np.float32)})")
        return src

    def _value(self, f: ViewField, src: Source) -> str:
        """The expression of a field's value for the reader ``seat``, visibility applied.

        An ``allies`` field of a reader with no ally at the table (every game without
        teams) is every seat's hidden value, taken as one constant: its getter would build
        the values only to have them hidden."""
        if f.visibility == "allies":
            hidden = src.const((f.hidden,) * self.config.num_players)
            src.line("team = g.team_of")
            return f"{src.const(f.read)}(g, seat) if team.count(team[seat]) > 1 else {hidden}"
        value = f"{src.const(f.get)}(g, seat)" if f.expr is None else f"({_inline(f.expr)})"
        if f.visibility == "acting":
            return f"{value} if acting else {src.const(f.hidden)}"
        return value

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


@functools.lru_cache(maxsize=256)
def shared_encoder(fields: Sequence[ViewField], config: GameConfig,
                   version: int | None = None) -> Encoder:
    """The one :class:`Encoder` of ``fields`` at ``config`` and observation ``version``,
    built on first use.

    Building an encoder generates and compiles code (tens of KiB, milliseconds);
    every env, wrapper and policy of a config shares one instead (an encoder keeps
    no state between calls). ``fields`` must be hashable: a variant's declared tuple.
    """
    return Encoder(fields, config, version)


def latest_version(fields: Sequence[ViewField]) -> int:
    """The newest observation version ``fields`` declare (the most recent ``since``)."""
    return max((f.since for f in fields), default=1)
