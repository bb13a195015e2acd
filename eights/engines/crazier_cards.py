"""Crazier Eights cards as data: a card file, validated and compiled for the engine.

Every Crazier Eights card is unique: a name, a rank, one or more colours, a
type (event or asset), the text players read, and the abilities the engine
carries out. The cards live in a TOML file (``eights/data/crazier_eights.toml``
is ours; a user passes their own with the ``card_file`` option). A card's
abilities are lists of **steps**, each a table whose ``do`` names one of a
small set of primitives:

=================  ===================================================================
``draw``           ``who`` (you, chosen, each_opponent, each_player, turn_players)
                   draws ``count`` cards
``discard_extra``  you may discard ``count`` additional cards this turn
``choose_player``  choose a player (``among``: opponents or any): "chosen" after it
``choose_colour``  name one of the four colours: "chosen" in a ``found_colour`` test
``destroy``        destroy a card in play of your choice (``among``: any, opponents,
                   yours)
``restore``        put an asset card of your choice from the discard pile into play
                   under your control
``trade``          choose an opponent, look at their hand, and exchange a card from your
                   hand (one held before the Trade) with a card of your choice from theirs
``look``           look at the top ``count`` cards of the draw pile (with
                   ``may_bottom``: you may put one of them on the bottom)
``reveal``         reveal the top ``count`` cards of the draw pile to everyone
``play_found``     put the top card of the draw pile (just revealed) into play under
                   your control, if it is an asset
``lose``           ``who`` loses the game
``repeat``         the ``steps`` given, ``count`` times
``if``             the ``then`` steps when ``test`` holds, else the ``else`` steps
=================  ===================================================================

Any step may say ``may = true``: its controller then decides whether it happens.
A ``test`` is one of ``{ found_type = "asset" | "event" }`` (the top card of the
draw pile), ``{ found_colour = <colour> | "chosen" }``, ``{ hand_at_least = n,
who = "you" | "chosen" }`` and ``{ hand_at_most = n, who = ... }``.

An event's abilities are its ``play`` steps. An asset has triggered abilities
(``begin_turn``: at the beginning of your turn; ``end_turn``: at the end of
your turn; ``opponent_begin_turn``: at the beginning of each opponent's turn)
and substitution abilities (``substitute``: ``{ on = "draw", cause =
"opponent" | "any", change = -1 }`` changes how many cards an opponent (or
anyone) causes you to draw, and several add up; ``{ on = "lose", instead =
"destroy_this" }``: if you would lose the game, this card is destroyed instead).

Steps compile to a flat program of small tuples (``repeat`` unrolled, ``if``
and ``may`` as jumps), which the engine runs one frame at a time. A file is
checked completely on load: every error is one line that names the file, the
card, the field and what is allowed. Card texts (``7G``) come from rank and first
colour, so every card file has the same 52 texts and the same action space.

**Limits.** A card set may come from anyone (a file a user names, a protocol
message, a stored record), so reading and compiling it is bounded: only a
regular file is opened (a FIFO, a device, a directory is refused before it is
opened, so nothing blocks or reads forever), of at most
:data:`MAX_CARD_FILE_BYTES` of UTF-8 text; steps nest at most
:data:`MAX_NESTING` lists deep (``repeat`` and ``if`` inside one another) and
a trigger compiles to at most :data:`MAX_PROGRAM_STEPS` steps after
``repeat`` is unrolled (so nested repeats cannot grow exponentially); names and
texts are printable text on one line (no control characters reach a terminal).

A config holds the card set's text, not the file's path (see
:class:`~eights.engines.crazier_eights.CrazierEightsConfig`): :func:`read`
reads a file once, :func:`from_text` parses a text, cached by its content.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import os
import stat
import tomllib
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any

from ..cards import RANK_NAMES, RANK_TEXT
from .cardset import CardKind, CardSet

#: colour codes (the card texts' second part) and names; the symbols are accepted in files
COLOURS = ("P", "G", "B", "O")
COLOUR_NAMES = ("purple", "green", "blue", "orange")
SYMBOLS = ("eye", "ankh", "moon", "sun")
EVENT, ASSET = "event", "asset"
#: triggers, by index in a program's key: an event's ``play``, then the assets' own
TRIGGERS = ("play", "begin_turn", "end_turn", "opponent_begin_turn")
PLAY, BEGIN_TURN, END_TURN, OPPONENT_BEGIN_TURN = range(len(TRIGGERS))
WHO = ("you", "chosen", "each_opponent", "each_player", "turn_players")
PLAYER_AMONG = ("opponents", "any")
CARD_AMONG = ("any", "opponents", "yours")
TESTS = ("found_type", "found_colour", "hand_at_least", "hand_at_most")
PRIMITIVES = ("draw", "discard_extra", "choose_player", "choose_colour", "destroy", "restore",
              "trade", "look", "reveal", "play_found", "lose", "repeat", "if")
#: the primitives that end in a choice of cards: an event with one that is not optional can
#: only be played when there is a card to choose (the rulebook's sixth clarification)
NEEDS_A_CARD = ("destroy", "restore")
BUILT_IN = "crazier_eights.toml"
CARD_KEYS = ("rank", "colours", "name", "type", "text", "substitute") + TRIGGERS
#: the most a card file may hold: ours takes 15 KiB, so a set with far longer texts fits
MAX_CARD_FILE_BYTES = 64 * 1024
#: step lists inside one another (``repeat`` and ``if``): ours go 2 deep
MAX_NESTING = 5
#: steps one trigger compiles to, ``repeat`` unrolled: ours take at most 6
MAX_PROGRAM_STEPS = 64
#: card sets parsed, by text (a config's card set is parsed once, however often it is read)
_PARSED_CACHE_SIZE = 32


class CardFileError(ValueError):
    """A card file that is not a valid Crazier Eights card set."""


def card_id(rank: int, colour: int) -> int:
    """A card's id: ``colour * 13 + rank - 1`` (rank 1 = ace .. 13 = king)."""
    return colour * 13 + rank - 1


@dataclasses.dataclass(frozen=True)
class CrazierCards:
    """A loaded card file: the card set, and per card id its rules as the engine reads them.

    ``programs[card][trigger]`` is the compiled program of that trigger (``()``
    when the card has none); ``draw_change[card]`` is ``(cause, change)`` pairs;
    ``saves[card]`` says the card is destroyed instead of its controller losing;
    ``needs[card]`` names what an event must be able to choose to be played
    (the ops ``("destroy", among)``, ``("restore",)``), or is empty.
    """

    name: str
    cardset: CardSet
    is_asset: tuple[bool, ...]
    programs: tuple[tuple[tuple[tuple, ...], ...], ...]
    draw_change: tuple[tuple[tuple[str, int], ...], ...]
    saves: tuple[bool, ...]
    needs: tuple[tuple[tuple[str, ...], ...], ...]
    texts: tuple[str, ...]
    source: str

    def ability_text(self, card: int) -> str:
        """``Name (type): text`` of a card, as narration and the protocol read it."""
        kind = self.cardset.kinds[card]
        return f"{kind.name} ({ASSET if self.is_asset[card] else EVENT}): {self.texts[card]}"


# ------------------------------------------------------------------ loading
def load(path: str | os.PathLike | None = None) -> CrazierCards:
    """The card set in the file ``path`` (our own when None), read now and validated."""
    if path is None:
        return _load_built_in()
    return from_text(read(path), os.fspath(path))


def read(path: str | os.PathLike) -> str:
    """The text of the card file ``path``, read within the limits (module docstring).

    Anything but a regular file is refused before it is opened; the file is opened
    without blocking and read up to one byte past :data:`MAX_CARD_FILE_BYTES`.
    """
    path = os.fspath(path)
    where = repr(path)
    try:
        _regular(os.stat(path).st_mode, where)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as err:
        raise CardFileError(f"{where} cannot be read: {err.strerror or err}") from None
    with os.fdopen(fd, "rb") as file:
        try:
            _regular(os.fstat(file.fileno()).st_mode, where)  # replaced since the stat
            data = file.read(MAX_CARD_FILE_BYTES + 1)
        except OSError as err:
            raise CardFileError(f"{where} cannot be read: {err.strerror or err}") from None
    return decode(data, where)


def _regular(mode: int, where: str) -> None:
    """Refuse what is not a regular file (reading it could block or never end)."""
    if not stat.S_ISREG(mode):
        kinds = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"),
                 (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                 (stat.S_ISSOCK, "a socket"))
        kind = next((name for test, name in kinds if test(mode)), "not a file")
        raise CardFileError(f"{where} is {kind}; a card file is a regular TOML file of at "
                            f"most {MAX_CARD_FILE_BYTES // 1024} KiB")


def decode(data: bytes, where: str) -> str:
    """The UTF-8 text of a card file's bytes, refused past :data:`MAX_CARD_FILE_BYTES`."""
    if len(data) > MAX_CARD_FILE_BYTES:
        raise CardFileError(f"{where} is larger than {MAX_CARD_FILE_BYTES // 1024} KiB; a card "
                            f"file is a TOML file of at most that (ours takes 15 KiB)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise CardFileError(f"{where} is not UTF-8 text (byte {err.start} is "
                            f"{data[err.start:err.start + 1]!r}); save it as UTF-8") from None


def sha256(text: str) -> str:
    """The hex SHA-256 of a card set's text (of its UTF-8 bytes: ``sha256sum`` of the file)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


_parsed: dict[str, CrazierCards] = {}


def from_text(text: str | None, source: str = "card_set") -> CrazierCards:
    """The card set of a card file's ``text`` (ours when None), parsed once per text.

    ``source`` names it in errors (the file, or the option that carried the text).
    """
    if text is None:
        return _load_built_in()
    cards = _parsed.get(text)
    if cards is None:
        cards = parse(text, source)
        if len(_parsed) >= _PARSED_CACHE_SIZE:
            _parsed.pop(next(iter(_parsed)), None)
        _parsed[text] = cards
    return cards


@functools.cache
def _load_built_in() -> CrazierCards:
    text = resources.files("eights.data").joinpath(BUILT_IN).read_text(encoding="utf-8")
    return parse(text, f"eights/data/{BUILT_IN}")


def parse(text: str, source: str = "<card file>") -> CrazierCards:
    """A card set from the text of a TOML card file (see the module docstring)."""
    if not isinstance(text, str):
        raise CardFileError(f"{source}: {_shown(text)} is not the text of a card file")
    decode(text.encode("utf-8", "surrogatepass"), source)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise CardFileError(f"{source}: not valid TOML ({err})") from None
    except RecursionError:  # arrays or tables nested past what the TOML reader can follow
        raise CardFileError(f"{source}: not valid TOML here (arrays or tables nested too "
                            f"deeply); steps nest at most {MAX_NESTING} deep") from None
    unknown = sorted(set(data) - {"set", "card"})
    if unknown:
        raise CardFileError(f"{source}: unknown top-level key {_shown(unknown[0])}; a card "
                            f"file has [set] and [[card]] tables")
    cards = data.get("card")
    if not isinstance(cards, list) or not cards:
        raise CardFileError(f"{source}: no [[card]] tables; a card set has 52 cards")
    set_name = _set_name(data.get("set", {}), source)
    by_id: dict[int, tuple[Mapping[str, Any], _Card]] = {}
    for n, record in enumerate(cards):
        card = _Card.check(record, n, source)
        if card.id in by_id:
            raise CardFileError(
                f"{source}: card {n + 1} ({card.name}) and card "
                f"{list(by_id).index(card.id) + 1} ({by_id[card.id][1].name}) are both the "
                f"{RANK_NAMES[card.rank - 1]} of {COLOUR_NAMES[card.colours[0]]}; every rank "
                f"and first colour comes once")
        by_id[card.id] = (record, card)
    missing = [text_of(i) for i in range(52) if i not in by_id]
    if missing:
        raise CardFileError(f"{source}: the set lacks {', '.join(missing)}; a card set has one "
                            f"card of each rank A-K in each of the four colours (52 cards)")
    names = [by_id[i][1].name for i in range(52)]
    twice = sorted({x for x in names if names.count(x) > 1})
    if twice:
        raise CardFileError(f"{source}: two cards are named {twice[0]!r}; names are unique")
    ordered = [by_id[i][1] for i in range(52)]
    kinds = [CardKind(text_of(c.id), c.name, c.rank, c.colours, 1,
                      {"type": c.type, "text": c.text}) for c in ordered]
    cardset = CardSet(f"crazier_eights ({set_name})", COLOURS, COLOUR_NAMES, kinds,
                      proper_names=True)
    return CrazierCards(
        name=set_name, cardset=cardset,
        is_asset=tuple(c.type == ASSET for c in ordered),
        programs=tuple(c.programs for c in ordered),
        draw_change=tuple(c.draw_change for c in ordered),
        saves=tuple(c.saves for c in ordered),
        needs=tuple(c.needs for c in ordered),
        texts=tuple(c.text for c in ordered), source=source)


def _set_name(table: Any, source: str) -> str:
    """The ``[set]`` table's name (the file's name when it has none)."""
    if not isinstance(table, Mapping):
        raise CardFileError(f"{source}: set = {_shown(table)}; [set] is a table, e.g. "
                            f"[set] name = \"my cards\"")
    extra = sorted(set(table) - {"name"})
    if extra:
        raise CardFileError(f"{source}: [set] has an unknown key {_shown(extra[0])}; it has "
                            f"name")
    if "name" not in table:
        return os.path.basename(source)
    name = table["name"]
    problem = _not_printable(name)
    if problem:
        raise CardFileError(f"{source}: [set] name: {problem}")
    return name.strip()


def _not_printable(value: Any) -> str:
    """Why ``value`` is not a name or text (a non-empty string of printable characters on one
    line: a control character would reach the terminal that prints it); "" when it is."""
    if not isinstance(value, str) or not value.strip():
        return f"{_shown(value)} is not a non-empty string"
    bad = next((i for i, ch in enumerate(value) if not ch.isprintable()), -1)
    if bad >= 0:
        return (f"character {bad + 1} is U+{ord(value[bad]):04X}, a control character; names "
                f"and texts are printable text on one line")
    return ""


def _shown(value: Any, limit: int = 40) -> str:
    """``repr(value)`` cut to ``limit`` characters, so an error stays one short line."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit - 3]}..."


def text_of(card: int) -> str:
    """A card's text (``7G``) from its id, the same in every card file."""
    return RANK_TEXT[card % 13] + COLOURS[card // 13]


def _colour(value: Any) -> int:
    """A colour index from a code, name or symbol; -1 when it is none."""
    if isinstance(value, str):
        v = value.strip().lower()
        for i in range(4):
            if v in (COLOURS[i].lower(), COLOUR_NAMES[i], SYMBOLS[i]):
                return i
    return -1


ALLOWED_COLOURS = ", ".join(f"{n} ({s})" for n, s in zip(COLOUR_NAMES, SYMBOLS, strict=True))


@dataclasses.dataclass
class _Card:
    """One card record being checked and compiled."""

    where: str
    name: str = ""
    rank: int = 0
    colours: tuple[int, ...] = ()
    type: str = ""
    text: str = ""
    programs: tuple[tuple[tuple, ...], ...] = ()
    draw_change: tuple[tuple[str, int], ...] = ()
    saves: bool = False
    needs: tuple[tuple[str, ...], ...] = ()

    @property
    def id(self) -> int:
        return card_id(self.rank, self.colours[0])

    def error(self, field: str, message: str) -> CardFileError:
        return CardFileError(f"{self.where}, field {field!r}: {message}")

    @classmethod
    def check(cls, record: Any, n: int, source: str) -> _Card:
        if not isinstance(record, Mapping):
            raise CardFileError(f"{source}: card {n + 1} is not a table")
        name = record.get("name")
        label = name if not _not_printable(name) and len(name) <= 60 else f"card {n + 1}"
        card = cls(where=f"{source}: card {n + 1} ({label})")
        for key in record:
            if key not in CARD_KEYS:
                raise card.error(key, f"unknown field; a card has {', '.join(CARD_KEYS)}")
        for key in ("name", "rank", "colours", "type", "text"):
            if key not in record:
                raise card.error(key, "missing; every card has name, rank, colours, type "
                                      "and text")
        card.name = card._string(record, "name")
        card.text = card._string(record, "text")
        rank = record["rank"]
        rank_text = str(rank).strip().upper() if isinstance(rank, (str, int)) else ""
        if rank_text not in RANK_TEXT:
            raise card.error("rank", f"{_shown(rank)} is not a rank; ranks are "
                                     f"{', '.join(RANK_TEXT)}")
        card.rank = RANK_TEXT.index(rank_text) + 1
        colours = record["colours"]
        if not isinstance(colours, list) or not colours:
            raise card.error("colours", f"{_shown(colours)} is not a list of colours; write e.g. "
                                        f"[\"green\"] (colours: {ALLOWED_COLOURS})")
        indices = []
        for c in colours:
            i = _colour(c)
            if i < 0:
                raise card.error("colours", f"{_shown(c)} is not a colour; the colours are "
                                            f"{ALLOWED_COLOURS}")
            if i in indices:
                raise card.error("colours", f"{_shown(c)} is listed twice")
            indices.append(i)
        card.colours = tuple(indices)
        kind = record["type"]
        if kind not in (EVENT, ASSET):
            raise card.error("type", f"{_shown(kind)} is not a card type; types are event "
                                     f"and asset")
        card.type = kind
        programs: list[tuple[tuple, ...]] = [() for _ in TRIGGERS]
        allowed = ("play",) if kind == EVENT else TRIGGERS[1:]
        for t, trigger in enumerate(TRIGGERS):
            if trigger not in record:
                continue
            if trigger not in allowed:
                raise card.error(trigger, f"an {kind} has no {trigger!r} abilities; an {kind} "
                                          f"has {', '.join(allowed)}"
                                          + ("" if kind == EVENT else " and substitute"))
            programs[t] = _Compiler(card, trigger, t).program(record[trigger])
        if kind == EVENT and not programs[PLAY]:
            raise card.error("play", "an event needs its play steps (what it does when played)")
        if "substitute" in record:
            if kind != ASSET:
                raise card.error("substitute", "only an asset has substitution abilities")
            card._substitutions(record["substitute"])
        card.programs = tuple(programs)
        if kind == EVENT:
            card.needs = _needs(record["play"])
        return card

    def _string(self, record: Mapping[str, Any], key: str) -> str:
        value = record[key]
        problem = _not_printable(value)
        if problem:
            raise self.error(key, problem)
        return value.strip()

    def _substitutions(self, items: Any) -> None:
        if not isinstance(items, list):
            raise self.error("substitute", "a list of tables such as "
                                           "{ on = \"draw\", cause = \"opponent\", change = -1 }")
        changes = []
        for k, item in enumerate(items):
            field = f"substitute[{k}]"
            if not isinstance(item, Mapping) or item.get("on") not in ("draw", "lose"):
                raise self.error(field, "each substitution has on = \"draw\" or on = \"lose\"")
            if item["on"] == "draw":
                extra = sorted(set(item) - {"on", "cause", "change"})
                cause, change = item.get("cause", "opponent"), item.get("change")
                if extra:
                    raise self.error(field, f"unknown key {_shown(extra[0])}; a draw substitution "
                                            f"has cause and change")
                if cause not in ("opponent", "any"):
                    raise self.error(field, f"cause {_shown(cause)}: allowed are opponent and any")
                if type(change) is not int or change == 0:
                    raise self.error(field, f"change {_shown(change)}: a non-zero whole number of "
                                            f"cards (negative: fewer)")
                changes.append((cause, change))
            else:
                if item.get("instead") != "destroy_this" or set(item) != {"on", "instead"}:
                    raise self.error(field, "a lose substitution is "
                                            "{ on = \"lose\", instead = \"destroy_this\" }")
                self.saves = True
        self.draw_change = tuple(changes)


def _needs(steps: list) -> tuple[tuple[str, ...], ...]:
    """What an event must be able to choose when played: its card-choosing steps that always
    happen (not optional, not inside a test; the first round of a repeat), as the ops the
    engine asks ``_can`` about (``("destroy", among)``, ``("restore",)``)."""
    out = []
    for step in steps:
        if step.get("may"):
            continue
        if step["do"] in NEEDS_A_CARD:
            out.append(("restore",) if step["do"] == "restore" else ("destroy", step["among"]))
        elif step["do"] == "repeat":
            out.extend(_needs(step["steps"]))
    return tuple(dict.fromkeys(out))


#: steps with no fields of their own: compiled to ``(do,)``
BARE_STEPS = ("choose_colour", "restore", "trade", "play_found")


class _Compiler:
    """Steps (TOML tables) to a flat program: tuples ``(op, *args)``; ``repeat`` unrolled;
    ``if`` and ``may`` become ``("test", test, else_pc, end_pc)``, ``("ask", else_pc)``
    and ``("jump", pc)``."""

    def __init__(self, card: _Card, trigger: str, index: int):
        self.card, self.trigger, self.index = card, trigger, index
        self.ops: list[tuple] = []
        self.depth = 0

    def program(self, steps: Any) -> tuple[tuple, ...]:
        self._steps(steps, self.trigger)
        return tuple(self.ops)

    def _error(self, field: str, message: str) -> CardFileError:
        return self.card.error(field, message)

    def _steps(self, steps: Any, field: str) -> None:
        """Compile a list of steps, one list deeper than the caller's (at most
        :data:`MAX_NESTING`), so a file nested past it is refused before it is followed."""
        if not isinstance(steps, list) or not steps:
            raise self._error(field, "a non-empty list of steps such as "
                                     "[{ do = \"draw\", who = \"chosen\", count = 1 }]")
        if self.depth == MAX_NESTING:
            raise self._error(field, f"steps nested more than {MAX_NESTING} deep (repeat and "
                                     f"if inside one another); write them flatter")
        self.depth += 1
        for k, step in enumerate(steps):
            self._step(step, f"{field}[{k}]")
        self.depth -= 1

    def _grown(self, field: str) -> None:
        """Refuse a program past :data:`MAX_PROGRAM_STEPS`, checked as each step is added, so
        nested repeats stop at the limit instead of unrolling exponentially."""
        if len(self.ops) > MAX_PROGRAM_STEPS:
            raise self._error(field, f"{self.trigger} compiles to more than "
                                     f"{MAX_PROGRAM_STEPS} steps (repeat unrolls its steps "
                                     f"count times); use fewer or smaller repeats")

    def _step(self, step: Any, field: str) -> None:
        if not isinstance(step, Mapping) or "do" not in step:
            raise self._error(field, "each step is a table with do = one of "
                                     + ", ".join(PRIMITIVES))
        do = step["do"]
        if do not in PRIMITIVES:
            raise self._error(field, f"do = {_shown(do)} is not a step; steps are "
                                     f"{', '.join(PRIMITIVES)}")
        may = step.get("may", False)
        if not isinstance(may, bool):
            raise self._error(field, f"may = {_shown(may)}: true or false")
        if do == "discard_extra" and self.index == OPPONENT_BEGIN_TURN:
            raise self._error(field, "discard_extra happens on its controller's own turn: not "
                                     "in opponent_begin_turn")
        ask_at = -1
        if may:
            ask_at = len(self.ops)
            self.ops.append(("ask", -1))
        if do in BARE_STEPS:
            self._keys(step, field)
            self.ops.append((do,))
        else:
            getattr(self, f"_{do}")(step, field)
        if may:
            self.ops[ask_at] = ("ask", len(self.ops))
        self._grown(field)

    def _keys(self, step: Mapping[str, Any], field: str, *keys: str) -> None:
        extra = sorted(set(step) - {"do", "may", *keys})
        if extra:
            allowed = ", ".join(keys) if keys else "no other keys"
            raise self._error(field, f"{step['do']}: unknown key {_shown(extra[0])} (it takes "
                                     f"{allowed})")

    def _count(self, step: Mapping[str, Any], field: str, default: int | None = None,
               most: int = 10) -> int:
        count = step.get("count", default)
        if type(count) is not int or not 1 <= count <= most:
            raise self._error(field, f"{step['do']}: count = {_shown(count)}; a whole number "
                                     f"from 1 to {most}")
        return count

    def _choice(self, step: Mapping[str, Any], field: str, key: str,
                allowed: Sequence[str], default: str | None = None) -> str:
        value = step.get(key, default)
        if value not in allowed:
            raise self._error(field, f"{step['do']}: {key} = {_shown(value)}; allowed: "
                                     f"{', '.join(allowed)}")
        return value

    def _draw(self, step, field):
        self._keys(step, field, "who", "count")
        who = self._choice(step, field, "who", WHO)
        if who == "turn_players" and self.index != OPPONENT_BEGIN_TURN:
            raise self._error(field, "draw: who = \"turn_players\" (the players taking the "
                                     "turn) is for opponent_begin_turn abilities")
        self.ops.append(("draw", who, self._count(step, field)))

    def _discard_extra(self, step, field):
        self._keys(step, field, "count")
        self.ops.append(("discard_extra", self._count(step, field, most=5)))

    def _choose_player(self, step, field):
        self._keys(step, field, "among")
        self.ops.append(("choose_player", self._choice(step, field, "among", PLAYER_AMONG)))

    def _destroy(self, step, field):
        self._keys(step, field, "among")
        self.ops.append(("destroy", self._choice(step, field, "among", CARD_AMONG)))

    def _look(self, step, field):
        self._keys(step, field, "count", "may_bottom")
        bottom = step.get("may_bottom", False)
        if not isinstance(bottom, bool):
            raise self._error(field, f"look: may_bottom = {_shown(bottom)}; true or false")
        self.ops.append(("look", self._count(step, field, most=5), bottom))

    def _reveal(self, step, field):
        self._keys(step, field, "count")
        self.ops.append(("reveal", self._count(step, field, most=5)))

    def _lose(self, step, field):
        self._keys(step, field, "who")
        self.ops.append(("lose", self._choice(step, field, "who", ("you", "chosen"))))

    def _repeat(self, step, field):
        self._keys(step, field, "count", "steps")
        count = self._count(step, field, most=5)
        for _ in range(count):
            self._steps(step.get("steps"), f"{field}.steps")

    def _if(self, step, field):
        self._keys(step, field, "test", "then", "else")
        test = self._test(step.get("test"), f"{field}.test")
        at = len(self.ops)
        self.ops.append(("test", test, -1, -1))
        self._steps(step.get("then"), f"{field}.then")
        if "else" in step:
            jump = len(self.ops)
            self.ops.append(("jump", -1))
            otherwise = len(self.ops)
            self._steps(step["else"], f"{field}.else")
            self.ops[jump] = ("jump", len(self.ops))
        else:
            otherwise = len(self.ops)
        self.ops[at] = ("test", test, otherwise, len(self.ops))

    def _test(self, test: Any, field: str) -> tuple:
        if not isinstance(test, Mapping):
            raise self._error(field, f"a test is a table with one of {', '.join(TESTS)}")
        kinds = [k for k in TESTS if k in test]
        extra = sorted(set(test) - set(TESTS) - {"who"})
        if len(kinds) != 1 or extra:
            raise self._error(field, f"a test has exactly one of {', '.join(TESTS)} (and who "
                                     f"with the hand tests)")
        kind, value = kinds[0], test[kinds[0]]
        if kind == "found_type":
            if value not in (EVENT, ASSET):
                raise self._error(field, f"found_type = {_shown(value)}: event or asset")
            return (kind, value)
        if kind == "found_colour":
            colour = -2 if value == "chosen" else _colour(value)
            if colour == -1:
                raise self._error(field, f"found_colour = {_shown(value)}: \"chosen\" or a colour "
                                         f"({ALLOWED_COLOURS})")
            return (kind, colour)
        if type(value) is not int or not 0 <= value <= 200:
            raise self._error(field, f"{kind} = {_shown(value)}: a whole number of cards")
        who = test.get("who", "you")
        if who not in ("you", "chosen"):
            raise self._error(field, f"who = {_shown(who)}: you or chosen")
        return (kind, value, who)

