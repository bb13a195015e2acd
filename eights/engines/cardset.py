"""Card sets: what the cards of a game are, as data the table core reads.

A card is a small int (its id in the card set), so hands, piles and masks
stay cheap. The card set says what each id means: its text (``10H``), its
spoken name ("ten of hearts"), its rank, the colours it belongs to (one for a
standard card, none for a joker, several for a multicoloured card of a
custom set), its points, and free-form data a variant's rules read (a custom
card's type and ability).

The standard 54 cards (:data:`STANDARD`: the 52 and both jokers, ids as in
:mod:`eights.cards`) are one card set; a variant with its own cards builds
another with :meth:`CardSet.from_records` (from a data file), and the same
core deals, moves, shows and encodes them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from ..cards import (
    NUM_KINDS,
    RANK,
    SUIT,
    SUIT_NAMES,
    SUITS,
    CardError,
    card_name,
    card_text,
    parse_card,
)


@dataclasses.dataclass(frozen=True)
class CardKind:
    """One card of a set: text, name, rank, colours (indices into the set's colours)."""

    text: str
    name: str
    rank: int
    colours: tuple[int, ...]
    points: int = 0
    data: Mapping[str, Any] = dataclasses.field(default_factory=dict)


class CardSet:
    """The cards of a game, by id; lookups are tuples indexed by card id (hot-path cheap).

    ``colours`` are the one-letter colour (suit) codes, ``colour_names`` their
    names; ``rank``, ``colour`` (a card's first colour, -1 for none) and
    ``colours_of`` are tuples indexed by card id.
    """

    def __init__(self, name: str, colours: Sequence[str], colour_names: Sequence[str],
                 kinds: Sequence[CardKind],
                 parse: Callable[[str], int] | None = None, proper_names: bool = False):
        if len(colours) != len(colour_names):
            raise ValueError(f"card set {name!r}: {len(colours)} colour codes but "
                             f"{len(colour_names)} colour names")
        self.name = name
        self.colour_codes = tuple(colours)
        self.colour_names = tuple(colour_names)
        self.kinds = tuple(kinds)
        self.texts = tuple(k.text for k in self.kinds)
        self.rank = tuple(k.rank for k in self.kinds)
        self.colours_of = tuple(k.colours for k in self.kinds)
        self.colour = tuple(k.colours[0] if k.colours else -1 for k in self.kinds)
        self.points = tuple(k.points for k in self.kinds)
        self._by_text = {t.upper(): i for i, t in enumerate(self.texts)}
        #: each card's id by its canonical text, exactly as :attr:`texts` writes it
        self.id_of_text = {t: i for i, t in enumerate(self.texts)}
        if len(self._by_text) != len(self.texts):
            raise ValueError(f"card set {name!r}: card texts must be unique")
        for k in self.kinds:
            bad = [c for c in k.colours if not 0 <= c < len(self.colour_codes)]
            if bad:
                raise ValueError(f"card set {name!r}: card {k.text} has colour index {bad[0]}; "
                                 f"the set has {len(self.colour_codes)} colours")
        self._parse = parse
        #: cards with names of their own ("Death"), spoken with their text, not "the ..."
        self.proper_names = proper_names

    def __len__(self) -> int:
        return len(self.kinds)

    def __repr__(self) -> str:
        return f"CardSet({self.name!r}, {len(self)} cards)"

    def text(self, card: int) -> str:
        if isinstance(card, bool) or not 0 <= card < len(self.kinds):
            raise CardError(f"card id {card!r} is not in the {self.name} card set: ids are "
                            f"0..{len(self.kinds) - 1}")
        return self.texts[card]

    def card_name(self, card: int) -> str:
        self.text(card)
        return self.kinds[card].name

    def spoken(self, card: int) -> str:
        """How narration says a card: "the ten of hearts", or "Death (5P)" for a card with a
        name of its own."""
        name = self.card_name(card)
        return f"{name} ({self.texts[card]})" if self.proper_names else f"the {name}"

    def parse(self, text: str) -> int:
        """A card id from its text (the set's own spellings, case aside); an error naming
        the form otherwise."""
        if self._parse is not None:
            return self._parse(text)
        if not isinstance(text, str) or text.strip().upper() not in self._by_text:
            examples = ", ".join(self.texts[:3])
            raise CardError(f"card {text!r} is not in the {self.name} card set (cards are "
                            f"written like {examples})")
        return self._by_text[text.strip().upper()]

    def parse_many(self, text: str | Iterable[str | int]) -> list[int]:
        items = text.split() if isinstance(text, str) else list(text)
        return [c if isinstance(c, int) and not isinstance(c, bool) else self.parse(c)
                for c in items]

    def colour_code(self, colour: int) -> str:
        return self.colour_codes[colour]

    def parse_colour(self, text: str) -> int:
        """A colour index from its code or its name, case aside."""
        s = text.strip().upper() if isinstance(text, str) else ""
        for i, (code, name) in enumerate(zip(self.colour_codes, self.colour_names, strict=True)):
            if s in (code.upper(), name.upper()):
                return i
        raise CardError(f"{text!r} is not a colour of the {self.name} card set: the colours "
                        f"are {', '.join(self.colour_codes)}")

    @classmethod
    def from_records(cls, name: str, colours: Sequence[str], colour_names: Sequence[str],
                     records: Iterable[Mapping[str, Any]]) -> CardSet:
        """A card set from plain records (as a TOML or JSON file holds them): each has
        ``text``, ``name``, ``rank``, ``colours`` (codes), optional ``points`` and any
        other keys, kept as the card's ``data``."""
        index = {code: i for i, code in enumerate(colours)}
        kinds = []
        for n, rec in enumerate(records):
            missing = [k for k in ("text", "name", "rank", "colours") if k not in rec]
            if missing:
                raise ValueError(f"card set {name!r}: card {n} ({rec.get('text', '?')}) lacks "
                                 f"{', '.join(missing)}")
            unknown = [c for c in rec["colours"] if c not in index]
            if unknown:
                raise ValueError(f"card set {name!r}: card {rec['text']} has colour "
                                 f"{unknown[0]!r}; the colours are {', '.join(colours)}")
            data = {k: v for k, v in rec.items()
                    if k not in ("text", "name", "rank", "colours", "points")}
            kinds.append(CardKind(rec["text"], rec["name"], int(rec["rank"]),
                                  tuple(index[c] for c in rec["colours"]),
                                  int(rec.get("points", 0)), data))
        return cls(name, colours, colour_names, kinds)


def _standard() -> CardSet:
    kinds = [CardKind(card_text(c), card_name(c), RANK[c],
                      (SUIT[c],) if SUIT[c] >= 0 else ())
             for c in range(NUM_KINDS)]
    return CardSet("standard", tuple(SUITS), SUIT_NAMES, kinds, parse=parse_card)


#: the 52 standard cards and the two jokers (``RJ``, ``BJ``), ids as in :mod:`eights.cards`
STANDARD = _standard()
