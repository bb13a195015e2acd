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
* :class:`~eights.engines.encoding.Encoder` lays the encoded fields out in
  the observation vector and writes them straight from the engine, with the
  same getters and the same hiding, so an observation cannot hold what the
  view would not; its ``table()`` is the env docstring's observation table;
* :func:`value_text` is how the playthrough printer writes any field.

A getter is a function ``get(engine, seat)`` or, better, an expression over
``g`` (the engine), ``s`` (its state) and ``seat``, such as
``"s.piles[0][-1]"``: the view's getter is compiled from it, and the encoder
writes it inline into the code it generates, so the observation and the view
read the same expression.

Visibility is declared, not coded per field: ``"public"`` (every seat),
``"own"`` (the getter is given the reader's seat and returns that seat's own
value, such as its hand), ``"acting"`` (only the seat to act sees it; the
others read ``hidden``), ``"allies"`` (the reader's allies' values, hidden for
other seats; for team variants that show allies their hands).
"""

from __future__ import annotations

import ast
import dataclasses
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..cards import NO_CARD, RANK_TEXT
from .base import PlayerView
from .cardset import STANDARD, CardSet
from .defaults import Default, While

if TYPE_CHECKING:
    from .encoding import Encoding

VISIBILITIES = ("public", "own", "acting", "allies")
#: the fields every view has, filled by the engine core (see :class:`PlayerView`)
CORE_FIELDS = ("seat", "current_player", "hand", "hand_sizes", "scores", "turn", "hand_turns",
               "game_over")


# ------------------------------------------------------------------ fields
@dataclasses.dataclass(frozen=True)
class ViewField:
    """One public field of a variant's view (see the module docstring).

    ``get`` reads it: a function ``get(engine, seat)`` or an expression over
    ``g``, ``s`` and ``seat`` (kept as :attr:`expr`); ``kind`` is how the
    protocol writes it;
    ``encoding`` how the observation holds it (``None``: in the view only);
    ``feature`` names it in the observation table (default: its name);
    ``hidden`` is what a seat reads where ``visibility`` hides it. ``core``
    marks the fields every :class:`PlayerView` has (:func:`core` makes them).
    ``enabled_by`` names the option without which it is not encoded.
    :attr:`read` is ``get`` with the visibility applied: the one way the view
    and the encoder read a field.
    """

    name: str
    kind: str
    doc: str
    get: Callable[[Any, int], Any] | str
    encoding: Encoding | None = None
    visibility: str = "public"
    hidden: Any = NO_CARD
    feature: str = ""
    #: the values a ``phase`` field may take (all of them: the view and the protocol
    #: know every phase; a phase only an option reaches says so in its encoding, see
    #: :class:`~eights.engines.encoding.Choice`)
    names: tuple[str, ...] = ()
    core: bool = False
    #: the on/off config option without which the field is not encoded (``""``: always
    #: encoded), so an option left off adds no feature; the view holds the field either way
    enabled_by: str = ""
    #: what a reader of a view without this field takes it to be (None: it must be sent;
    #: see :mod:`eights.engines.defaults`); not part of the field's identity (the encoder
    #: cache's key), as it changes no view and no observation
    default: Default | None = dataclasses.field(default=None, compare=False)
    #: where it must be sent all the same, though it has a default
    required_while: While | None = dataclasses.field(default=None, compare=False)
    #: the first observation version that encodes it: an env of version ``v`` encodes the
    #: fields with ``since <= v`` (the view holds every field), so a field added for a new
    #: env version leaves the older versions' layouts as they were
    since: int = 1

    def __post_init__(self) -> None:
        if self.visibility not in VISIBILITIES:
            raise ValueError(f"view field {self.name!r}: visibility {self.visibility!r} is not "
                             f"one of {', '.join(VISIBILITIES)}")
        if self.core != (self.name in CORE_FIELDS):
            raise ValueError(f"view field {self.name!r}: the core fields are "
                             f"{', '.join(CORE_FIELDS)}, made with core()")
        if type(self.since) is not int or self.since < 1:
            raise ValueError(f"view field {self.name!r}: since={self.since!r} is not an "
                             f"observation version (an int from 1)")
        if self.required_while is not None and self.default is None:
            raise ValueError(f"view field {self.name!r}: required_while needs a default (the "
                             f"value where it is not required)")
        expr = one_expression(self.name, self.get) if isinstance(self.get, str) else None
        object.__setattr__(self, "expr", expr)
        if expr is not None:
            object.__setattr__(self, "get", compile_getter(self.name, expr))
        object.__setattr__(self, "read", _reader(self))


def check_enabling_options(owner: str, fields: Sequence[ViewField], config: type) -> None:
    """Refuse a declaration enabled by an option ``config`` (a config class) does not
    declare as on/off: misspelt, such a field or phase would silently never be encoded."""
    declared = {f.name: f for f in dataclasses.fields(config)}
    for f in fields:
        wanted = ([f.enabled_by] if f.enabled_by else []) + list(
            f.encoding.options() if f.encoding is not None else ())
        for option in wanted:
            if option not in declared or not isinstance(declared[option].default, bool):
                onoff = sorted(n for n, d in declared.items() if isinstance(d.default, bool))
                raise ValueError(
                    f"{owner}: view field {f.name!r} is enabled by {option!r}, which is not an "
                    f"on/off option of {config.__name__}; those are {', '.join(onoff) or 'none'}")


def one_expression(name: str, expr: str) -> str:
    """``expr`` as one canonical line (comments and layout dropped): the encoder writes it
    inline in its generated code. Anything that is not one expression is refused."""
    try:
        return ast.unparse(ast.parse(expr.strip(), mode="eval"))
    except SyntaxError as err:
        raise ValueError(f"view field {name!r}: its getter {expr!r} is not one expression "
                         f"({err.msg})") from None


def compile_getter(name: str, expr: str) -> Callable[[Any, int], Any]:
    """``get(engine, seat)`` from an expression over ``g``, ``s`` (``g.state``) and ``seat``."""
    expr = one_expression(name, expr)
    source = f"def get_{name}(g, seat):\n    s = g.state\n    return {expr}\n"
    namespace: dict[str, Any] = {}
    exec(compile(source, f"<view field {name}>", "exec"), namespace)
    return namespace[f"get_{name}"]


def compile_fields_reader(fields: Sequence[ViewField]) -> Callable[[Any, int], tuple]:
    """``read(engine, seat)``: the values of ``fields`` in order, as their :attr:`ViewField.read`
    gives them, from one generated function. A public field declared by an expression is
    written inline (as the encoders are generated); the others are called. A view reads
    every field at every decision, so one call instead of one per field matters."""
    lines = ["def read_fields(g, seat):", "    s = g.state", "    return ("]
    namespace: dict[str, Any] = {}
    for i, f in enumerate(fields):
        if f.expr is not None and f.visibility == "public":
            lines.append(f"        {f.expr},  # {f.name}")
        else:
            namespace[f"read_{i}"] = f.read
            lines.append(f"        read_{i}(g, seat),  # {f.name}")
    lines.append("    )")
    exec(compile("\n".join(lines) + "\n", "<view fields reader>", "exec"), namespace)
    return namespace["read_fields"]


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
               "scores": "ints", "turn": "count", "hand_turns": "count", "game_over": "bool"}
_CORE_GETTERS: dict[str, str] = {
    "seat": "seat",
    "current_player": "g.current_player",
    "hand": "tuple(sorted(s.hands[seat]))",
    "hand_sizes": "tuple(map(len, s.hands))",
    "scores": "tuple(s.scores)",
    "turn": "g.turn",
    "hand_turns": "g.turn - g.hand_start_turn",
    "game_over": "g.game_over",
}


def core(name: str, encoding: Encoding | None, doc: str, feature: str = "",
         default: Default | None = None, required_while: While | None = None) -> ViewField:
    """How a core field (``hand``, ``hand_sizes``, ``scores``, ``current_player``...) is
    encoded; the engine core reads its value. ``default`` and ``required_while``: where the
    variant knows better than :data:`~eights.engines.defaults.CORE_DEFAULTS` (the scores
    matter in its matches)."""
    return ViewField(name, _CORE_KINDS[name], doc, _CORE_GETTERS[name], encoding,
                     "own" if name == "hand" else "public", feature=feature, core=True,
                     default=default, required_while=required_while)


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


# ------------------------------------------------------------------ text
def value_text(kind: str, value: Any, cards: CardSet = STANDARD) -> str:
    """A field's value in the notation, by its kind (for playthroughs and logs); cards and
    suits in ``cards``' notation."""
    texts, codes = cards.texts, cards.colour_codes
    if kind == "card":
        return texts[value] if value != NO_CARD else "-"
    if kind in ("cards", "seen_cards"):
        return "[" + " ".join(texts[c] for c in value) + "]"
    if kind == "seat_card_counts":
        return "(" + ", ".join(value_text("card_counts", v, cards) for v in value) + ")"
    if kind == "seat_suit_counts":
        return "(" + ", ".join(" ".join(f"{codes[s]}{k}" for s, k in enumerate(v) if k) or "-"
                               for v in value) + ")"
    if kind == "seat_cards":
        return "(" + ", ".join(value_text("cards", v, cards) for v in value) + ")"
    if kind == "suit":
        return codes[value] if value >= 0 else "-"
    if kind in ("card_counts", "unseen_counts"):
        return "[" + " ".join(texts[c] for c, k in enumerate(value) for _ in range(k)) + "]"
    if kind == "seat_suits":
        return "(" + ", ".join(codes[x] if x >= 0 else "-" for x in value) + ")"
    if kind == "frames":
        return "[" + " ".join(f"{k}@{seat}" + (f"({','.join(map(str, args))})" if args else "")
                              for k, seat, args in value) + "]"
    if kind.startswith("pile_"):  # one value per discard pile
        inner = kind.removeprefix("pile_")
        return "(" + ", ".join(value_text(inner, v, cards) for v in value) + ")"
    if kind == "seat_ranks":
        return "(" + ", ".join(RANK_TEXT[x - 1] if x >= 1 else "-" for x in value) + ")"
    return str(value)
