"""A variant's fixed discrete action space, with one text form per action.

Every decision a player makes is one action id. A variant lists its actions
once, in order, as text (``play 8S``, ``suit H``, ``draw``, ``pass``,
``last card``, ``target 2``, ``play 2H pile 1``); the id is the position in
that list. Tests, logs, replays, the protocol and the UI all speak the text;
agents and envs speak the ids. :meth:`ActionSet.parse` is forgiving about
case, spacing and card spelling (``play th`` is ``play 10H``), and
:meth:`ActionSet.text` always prints the canonical form.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Sequence
from typing import Protocol

import numpy as np

from .cards import SUITS, CardError, card_text, parse_card, parse_suit


class ActionError(ValueError):
    """An action text or id that is not in the variant's action space."""


#: the words a card follows, and those a suit (colour) follows, in action texts
CARD_VERBS = ("play", "discard", "bottom", "take", "choose", "order")
SUIT_VERBS = ("suit", "colour")


def _normalise(text: str, cardset: Notation | None = None) -> str:
    """Canonical spelling of an action text: lower-case verbs, canonical cards and suits
    (in ``cardset``'s notation when given, else the standard cards')."""
    words = text.strip().split()
    out = []
    for i, w in enumerate(words):
        prev = out[-1] if out else ""
        if prev in CARD_VERBS and i > 0:
            try:
                out.append(cardset.text(cardset.parse(w)) if cardset is not None
                           else card_text(parse_card(w)))
                continue
            except CardError:
                pass
        if prev in SUIT_VERBS and i > 0:
            try:
                out.append(cardset.colour_code(cardset.parse_colour(w)) if cardset is not None
                           else SUITS[parse_suit(w)])
                continue
            except CardError:
                pass
        out.append(w.lower())
    return " ".join(out)


class Notation(Protocol):
    """What action texts need of a card set (:class:`eights.engines.cardset.CardSet`)."""

    def text(self, card: int) -> str: ...
    def parse(self, text: str) -> int: ...
    def colour_code(self, colour: int) -> str: ...
    def parse_colour(self, text: str) -> int: ...


def is_action_id(value: object) -> bool:
    """Whether ``value`` has the type of an action id: a Python ``int`` or a numpy integer.

    A bool (``np.bool_`` too), a float, a ``Decimal`` or a ``Fraction`` is not one, even
    when it equals a whole number, so a value that is not an id is never read as one.
    Engines, envs and the single-agent wrapper all ask this one question.
    """
    return type(value) is int or (
        isinstance(value, (int, np.integer)) and not isinstance(value, bool))


class ActionSet:
    """Ids <-> texts for one variant's actions."""

    def __init__(self, texts: Iterable[str], cardset: Notation | None = None):
        self.texts: tuple[str, ...] = tuple(texts)
        #: the cards' notation (None: the standard cards)
        self.cardset = cardset
        self._ids = {t: i for i, t in enumerate(self.texts)}
        if len(self._ids) != len(self.texts):
            raise ValueError("action texts must be unique")

    def __len__(self) -> int:
        return len(self.texts)

    def __contains__(self, text: str) -> bool:
        return _normalise(text, self.cardset) in self._ids

    def id(self, text: str) -> int:
        return self._ids[text]

    def text(self, action: int) -> str:
        """The text of an action id (numpy ints included, as masks and samplers give them)."""
        if isinstance(action, str):
            raise ActionError(f"action {action!r} is not in the action space: ids are "
                              f"0..{len(self.texts) - 1} (text() takes an id)")
        return self.texts[self.coerce(action)]

    def parse(self, text: str) -> int:
        """The id of an action text; an :class:`ActionError` naming the forms otherwise."""
        if not isinstance(text, str):
            raise ActionError(f"action {text!r} is not text")
        key = _normalise(text, self.cardset)
        if key not in self._ids:
            forms = sorted({t.split()[0] for t in self.texts})
            raise ActionError(
                f"action {text!r} is not in this variant's notation; actions start with "
                f"{', '.join(forms)} (for example {self.texts[0]!r}, {self.texts[-1]!r})"
            )
        return self._ids[key]

    def coerce(self, action: int | str) -> int:
        """An id from an id or a text.

        An id is what :func:`is_action_id` accepts; anything else that is not text is
        refused, even when it equals a whole number.
        """
        if is_action_id(action):
            a = int(action)
            if 0 <= a < len(self.texts):
                return a
            raise ActionError(
                f"action {action!r} is not in the action space: ids are 0..{len(self.texts) - 1}"
            )
        if isinstance(action, str):
            return self.parse(action)
        if isinstance(action, (bool, np.bool_, numbers.Number)):
            raise ActionError(
                f"action {action!r} is not in the action space: ids are 0..{len(self.texts) - 1}"
                f", as a Python int or a numpy integer, not a {type(action).__name__}"
            )
        raise ActionError(
            f"action {action!r} is neither an action id nor text ({type(action).__name__}; "
            f"ids are ints 0..{len(self.texts) - 1}, texts as in {self.texts[0]!r})"
        )

    def texts_of(self, actions: Sequence[int]) -> list[str]:
        return [self.texts[a] for a in actions]
