"""Card identities, their text notation, and deck builders.

A card is a small int, so hands, piles and masks stay cheap on the hot path:

* ``0..51`` are the standard cards, ``suit * 13 + (rank - 1)`` with suits in
  the order clubs, diamonds, hearts, spades (``C D H S``) and ranks
  ``1`` (ace) to ``13`` (king);
* ``52`` and ``53`` are the two jokers, written ``RJ`` (red) and ``BJ``
  (black) so that variants needing two distinguishable jokers can name them.

Copies of the same card from several decks share one id: a variant counts
copies, it never needs to tell two ``8S`` apart.

Text notation is one form per card, rank then suit: ``AC``, ``2D`` ...
``10H``, ``JS``, ``QD``, ``KC``, ``RJ``, ``BJ``. :func:`parse_card` also
accepts lower case and ``T`` for ten, and :func:`card_text` always prints the
canonical form, so ``card_text(parse_card(s))`` normalises ``s``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

SUITS = "CDHS"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
RANK_TEXT = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANK_NAMES = (
    "ace", "two", "three", "four", "five", "six", "seven",
    "eight", "nine", "ten", "jack", "queen", "king",
)

NUM_STANDARD = 52
RED_JOKER = 52
BLACK_JOKER = 53
NUM_KINDS = 54
JOKERS = (RED_JOKER, BLACK_JOKER)
JOKER_TEXT = {RED_JOKER: "RJ", BLACK_JOKER: "BJ"}
JOKER_NAMES = {RED_JOKER: "red joker", BLACK_JOKER: "black joker"}

ACE, JACK, QUEEN, KING = 1, 11, 12, 13
NO_SUIT = -1
NO_CARD = -1

# Lookup tables indexed by card id: faster than arithmetic in the engines' loops.
# Jokers have rank 0 and no suit.
RANK: tuple[int, ...] = tuple(c % 13 + 1 for c in range(NUM_STANDARD)) + (0, 0)
SUIT: tuple[int, ...] = tuple(c // 13 for c in range(NUM_STANDARD)) + (NO_SUIT, NO_SUIT)


class CardError(ValueError):
    """A card or suit text that is not in the notation."""


def card(rank: int, suit: int) -> int:
    """The id of the standard card of ``rank`` (1 = ace .. 13 = king) and ``suit`` (0..3)."""
    if not 1 <= rank <= 13:
        raise CardError(f"rank {rank!r} is not allowed: ranks are 1 (ace) to 13 (king)")
    if not 0 <= suit <= 3:
        raise CardError(f"suit {suit!r} is not allowed: suits are 0..3 for {SUITS}")
    return suit * 13 + rank - 1


def is_joker(card_id: int) -> bool:
    return card_id >= NUM_STANDARD


def card_text(card_id: int) -> str:
    """Canonical text of a card id, e.g. ``10H``, ``QS``, ``RJ``."""
    if isinstance(card_id, bool):
        raise CardError(f"card id {card_id!r} is not allowed: ids are 0..{NUM_KINDS - 1}")
    if 0 <= card_id < NUM_STANDARD:
        return RANK_TEXT[card_id % 13] + SUITS[card_id // 13]
    if card_id in JOKER_TEXT:
        return JOKER_TEXT[card_id]
    raise CardError(f"card id {card_id!r} is not allowed: ids are 0..{NUM_KINDS - 1}")


def card_name(card_id: int) -> str:
    """Spoken form for screen readers and logs: ``ten of hearts``, ``red joker``."""
    if card_id in JOKER_NAMES:
        return JOKER_NAMES[card_id]
    card_text(card_id)  # validates
    return f"{RANK_NAMES[card_id % 13]} of {SUIT_NAMES[card_id // 13]}"


_RANK_BY_TEXT = {text: i + 1 for i, text in enumerate(RANK_TEXT)} | {"T": 10}
_JOKER_BY_TEXT = {text: cid for cid, text in JOKER_TEXT.items()}


def parse_card(text: str) -> int:
    """Card id from its text (``10H``, ``th``, ``8s``, ``RJ``); a clear error otherwise."""
    if not isinstance(text, str):
        raise CardError(f"card {text!r} is not text: write cards like 10H, 8S, QD, RJ")
    s = text.strip().upper()
    if s in _JOKER_BY_TEXT:
        return _JOKER_BY_TEXT[s]
    rank = _RANK_BY_TEXT.get(s[:-1])
    suit = SUITS.find(s[-1:]) if s else -1
    if rank is None or suit < 0 or len(s) < 2:
        raise CardError(
            f"card {text!r} is not in the notation: a rank (A 2-10 J Q K) then a suit "
            f"(C D H S), like 10H or QS, or a joker RJ / BJ"
        )
    return suit * 13 + rank - 1


def parse_suit(text: str) -> int:
    """Suit index from ``C``/``D``/``H``/``S`` (or its name)."""
    s = text.strip().upper() if isinstance(text, str) else ""
    if len(s) == 1 and s in SUITS:
        return SUITS.index(s)
    names = [n.upper() for n in SUIT_NAMES]
    if s in names:
        return names.index(s)
    raise CardError(f"suit {text!r} is not allowed: suits are C, D, H, S")


def cards_text(cards: Iterable[int]) -> str:
    return " ".join(card_text(c) for c in cards)


def cards_count(n: int) -> str:
    """``"1 card"``, ``"7 cards"``: a count of cards as people say it."""
    return f"{n} {'card' if n == 1 else 'cards'}"


def hand_shown(cards: Sequence[int], visible: bool) -> str:
    """A hand in a rendered table: its cards where the reader may see them, else its size."""
    if visible:
        return cards_text(cards) or "no cards"
    return cards_count(len(cards))


def parse_cards(text: str | Sequence[str]) -> list[int]:
    """Cards from ``"10H 8S QD"`` or ``["10H", "8S", "QD"]``."""
    items = text.split() if isinstance(text, str) else list(text)
    return [c if isinstance(c, int) and not isinstance(c, bool) else parse_card(c) for c in items]


def standard_deck(num_decks: int = 1, jokers: int = 0) -> list[int]:
    """``num_decks`` full 52-card decks plus ``jokers`` jokers per deck, in id order."""
    if num_decks < 1:
        raise CardError(f"num_decks={num_decks!r} is not allowed: at least one deck")
    if not 0 <= jokers <= 2:
        raise CardError(f"jokers={jokers!r} is not allowed: 0, 1 or 2 per deck")
    one = list(range(NUM_STANDARD)) + list(JOKERS[:jokers])
    return one * num_decks


def sort_key(card_id: int) -> int:
    """Order for showing a hand: by suit, then rank; jokers last, ``RJ`` before ``BJ``.

    The ids are laid out in that order, so the key is the id itself and a plain
    ``sort()`` (no key function, as the engines do when building views) orders a hand.
    """
    return card_id
