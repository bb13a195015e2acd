"""Action spaces declared as blocks: ids, texts both ways, decoding and docs from one list.

A variant declares its fixed discrete action space as an ordered list of
:class:`Block`\\ s, each a text template with typed parameters::

    ACTIONS = ActionSpace(
        Block("play", "play {card}", cards(range(52)), when="a card that matches"),
        Block("suit", "suit {suit}", suits(), when="right after an 8"),
        Block("draw", "draw", when="your turn"),
    )

A block covers every combination of its parameters' values, in order; its
ids follow the previous block's. From that one declaration come the ids
(``ACTIONS["play"].id(card)``), the texts (``play 8S``) and their parsing,
the decoding of an id back to ``(block, args)``, and the Markdown action
table of the env docs (:meth:`ActionSpace.table`). Variant code never writes
an id offset by hand.
"""

from __future__ import annotations

import copy
import dataclasses
import itertools
import re
from collections.abc import Callable, Iterable, Sequence

from ..actions import ActionSet
from .cardset import STANDARD, CardSet


@dataclasses.dataclass(frozen=True)
class Param:
    """One parameter of a block: its name in the template, its values and their text."""

    name: str
    values: tuple[int, ...]
    text: Callable[[int], str]
    #: how the docs name the values (``<card>``, ``C, D, H, S``)
    shown: str
    #: the card set whose cards or colours the values are (None: numbers)
    cardset: CardSet | None = None

    def __post_init__(self) -> None:
        if not self.values:
            raise ValueError(f"action parameter {self.name!r} has no values")


def cards(ids: Iterable[int], cardset: CardSet = STANDARD, name: str = "card") -> Param:
    """A card parameter over ``ids`` of ``cardset``."""
    return Param(name, tuple(ids), cardset.text, "<card>", cardset)


def suits(cardset: CardSet = STANDARD, name: str = "suit") -> Param:
    """A suit (colour) parameter: every colour of ``cardset``."""
    codes = cardset.colour_codes
    return Param(name, tuple(range(len(codes))), codes.__getitem__, ", ".join(codes), cardset)


def numbers(name: str, count: int, first: int = 0) -> Param:
    """A number parameter, ``first`` .. ``first + count - 1`` (seats, piles)."""
    return Param(name, tuple(range(first, first + count)), str, f"{first}-{first + count - 1}")


class Block:
    """A run of consecutive action ids sharing one text template."""

    def __init__(self, name: str, template: str, *params: Param, when: str = ""):
        self.name = name
        self.template = template
        self.params = params
        self.when = when
        names = re.findall(r"{(\w+)}", template)
        if names != [p.name for p in params]:
            raise ValueError(f"action block {name!r}: the template {template!r} names "
                             f"{names} but the parameters are {[p.name for p in params]}")
        self.combos: tuple[tuple[int, ...], ...] = tuple(
            itertools.product(*(p.values for p in params)))
        self.start = 0  # set on the ActionSpace's own copy
        self._index = {combo: i for i, combo in enumerate(self.combos)}

    def __len__(self) -> int:
        return len(self.combos)

    def __repr__(self) -> str:
        return f"Block({self.name!r}, {self.template!r}, ids {self.start}-{self.stop - 1})"

    @property
    def stop(self) -> int:
        return self.start + len(self.combos)

    def text(self, combo: Sequence[int]) -> str:
        values = {p.name: p.text(v) for p, v in zip(self.params, combo, strict=True)}
        return self.template.format(**values)

    def id(self, *args: int) -> int:
        """The action id of this block with ``args``; a ValueError for values outside it."""
        try:
            return self.start + self._index[args]
        except KeyError:
            raise ValueError(f"action block {self.name!r} has no action for {args!r}") from None

    def __contains__(self, action: int) -> bool:
        return self.start <= action < self.stop

    def ids_by_value(self, size: int) -> tuple[int, ...]:
        """For a one-parameter block: a tuple ``t`` with ``t[value]`` the action id of that
        value, -1 for values the block does not take; for hot loops (``t[card]``)."""
        if len(self.params) != 1:
            raise ValueError(f"action block {self.name!r} has {len(self.params)} parameters")
        table = [-1] * size
        for i, (v,) in enumerate(self.combos):
            table[v] = self.start + i
        return tuple(table)


class ActionSpace(ActionSet):
    """A variant's action space, from its blocks (see the module docstring)."""

    def __init__(self, *blocks: Block):
        start = 0
        texts: list[str] = []
        decode: list[tuple[Block, tuple[int, ...]]] = []
        self.blocks: dict[str, Block] = {}
        for declared in blocks:
            if declared.name in self.blocks:
                raise ValueError(f"two action blocks are named {declared.name!r}")
            # its own copy: a block declared once and used in two spaces has an id range in
            # each, and placing it here must not move it in the other
            block = copy.copy(declared)
            block.start = start
            self.blocks[block.name] = block
            for combo in block.combos:
                texts.append(block.text(combo))
                decode.append((block, combo))
            start = block.stop
        sets = {p.cardset for b in blocks for p in b.params if p.cardset is not None}
        if len(sets) > 1:
            raise ValueError("an action space's cards and suits come from one card set")
        cardset = sets.pop() if sets else None
        super().__init__(texts, None if cardset is STANDARD else cardset)
        self._decode = tuple(decode)
        for a, text in enumerate(self.texts):  # texts both ways: each must read back
            try:
                back = self.parse(text)
            except ValueError:
                back = -1
            if back != a:
                raise ValueError(
                    f"action block {decode[a][0].name!r}: its text {text!r} does not read back "
                    f"as itself (texts are lower case; a card follows play, discard, bottom "
                    f"or take, choose, order)")

    def __getitem__(self, name: str) -> Block:
        try:
            return self.blocks[name]
        except KeyError:
            raise KeyError(f"no action block {name!r}; the blocks are "
                           f"{', '.join(self.blocks)}") from None

    def decode(self, action: int) -> tuple[Block, tuple[int, ...]]:
        """``(block, args)`` of an action id (or text)."""
        return self._decode[self.coerce(action)]

    def value(self, action: int) -> int:
        """The argument of a one-parameter action (the card of ``play 8S``, the seat of
        ``target 2``): what code reads instead of subtracting a block's first id."""
        block, args = self._decode[self.coerce(action)]
        if len(args) != 1:
            raise ValueError(f"action {self.texts[action]!r} (block {block.name!r}) has "
                             f"{len(args)} arguments, not one")
        return args[0]

    def forms(self) -> list[str]:
        """Each block's text form for docs, in Markdown: every text of a block of up to four
        (`` `suit C`, `suit D`, ...``), else its template (`` `play <card>` ``)."""
        out = []
        for block in self.blocks.values():
            if len(block) <= 4 and block.params:
                out.append(", ".join(f"`{block.text(c)}`" for c in block.combos))
            else:
                out.append("`" + block.template.format(
                    **{p.name: p.shown if p.shown.startswith("<") else f"<{p.name}>"
                       for p in block.params}) + "`")
        return out

    def table(self) -> str:
        """The Markdown action table of the env docs: ids, text form, when it is legal."""
        rows = ["| id | text | when |", "| --- | --- | --- |"]
        for block, shown in zip(self.blocks.values(), self.forms(), strict=True):
            span = str(block.start) if len(block) == 1 else f"{block.start}-{block.stop - 1}"
            rows.append(f"| {span} | {shown} | {block.when} |")
        return "\n".join(rows)
