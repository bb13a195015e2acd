"""Card sets: the standard 54 cards as data, and custom sets built from plain records.

The standard set must say exactly what :mod:`eights.cards` says about every id
(text, spoken name, rank, suit), since the engines read the set and the rest of
the package reads :mod:`eights.cards`. Custom sets are checked for what a data
file may get wrong: a missing field, an unknown colour, a duplicate card.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from eights.cards import (
    JOKERS,
    NUM_KINDS,
    RANK,
    SUIT,
    SUIT_NAMES,
    SUITS,
    CardError,
    card_name,
    card_text,
)
from eights.engines.cardset import STANDARD, CardKind, CardSet

COLOURS = ("R", "G", "B")
COLOUR_NAMES = ("red", "green", "blue")


def records() -> list[dict[str, Any]]:
    """Three cards of a small custom set: plain, multicoloured with extra data, colourless."""
    return [
        {"text": "R1", "name": "red one", "rank": 1, "colours": ["R"], "points": 1},
        {"text": "GB5", "name": "green-blue five", "rank": 5, "colours": ["G", "B"],
         "points": 5, "ability": "swap", "cost": 2},
        {"text": "W", "name": "wild", "rank": 0, "colours": []},
    ]


def build(recs: list[Mapping[str, Any]], name: str = "toy") -> CardSet:
    return CardSet.from_records(name, COLOURS, COLOUR_NAMES, recs)


# ------------------------------------------------------------------ the standard set
def test_standard_has_54_cards_agreeing_with_cards_module() -> None:
    """STANDARD's texts, names, ranks and colours are those of eights.cards for every id."""
    assert len(STANDARD) == NUM_KINDS == 54
    assert STANDARD.colour_codes == tuple(SUITS)
    assert STANDARD.colour_names == SUIT_NAMES
    for c in range(NUM_KINDS):
        assert STANDARD.text(c) == STANDARD.texts[c] == card_text(c)
        assert STANDARD.card_name(c) == card_name(c)
        assert STANDARD.rank[c] == RANK[c]
        assert STANDARD.colour[c] == SUIT[c]
        assert STANDARD.points[c] == 0


def test_standard_jokers_have_no_colour() -> None:
    """Both jokers have no colours (colour -1) and rank 0; every other card exactly one."""
    for c in JOKERS:
        assert STANDARD.colours_of[c] == ()
        assert STANDARD.colour[c] == -1
        assert STANDARD.rank[c] == 0
    for c in range(52):
        assert STANDARD.colours_of[c] == (SUIT[c],)


@pytest.mark.parametrize(("text", "expected"), [
    ("8S", "8S"), ("8s", "8S"), ("th", "10H"), ("TH", "10H"), ("10h", "10H"),
    (" qd ", "QD"), ("ac", "AC"), ("rj", "RJ"), ("Bj", "BJ"),
])
def test_standard_parse_accepts_lower_case_and_t(text: str, expected: str) -> None:
    """parse reads any case, surrounding spaces and T for ten; text prints the canonical form."""
    assert STANDARD.text(STANDARD.parse(text)) == expected


def test_standard_parse_many_mixes_ids_and_texts() -> None:
    """parse_many takes a string of texts or a list of texts and ids."""
    assert STANDARD.parse_many("8s th RJ") == [46, 35, 52]
    assert STANDARD.parse_many(["8S", 0, "bj"]) == [46, 0, 53]


@pytest.mark.parametrize("bad", ["ZZ", "11H", "8X", "", "J"])
def test_standard_parse_refuses_unknown_text(bad: str) -> None:
    """An unknown text is a CardError (a ValueError) naming the text."""
    with pytest.raises(CardError, match="is not in the notation") as err:
        STANDARD.parse(bad)
    assert repr(bad) in str(err.value)


@pytest.mark.parametrize("bad", [54, -1, True])
def test_standard_text_refuses_ids_outside_the_set(bad: int) -> None:
    """text() of an id outside 0..53 (or a bool) is a CardError naming the set."""
    with pytest.raises(CardError, match="standard card set"):
        STANDARD.text(bad)


@pytest.mark.parametrize(("text", "colour"), [
    ("C", 0), ("d", 1), ("H", 2), ("s", 3), ("clubs", 0), ("Diamonds", 1), (" HEARTS ", 2),
    ("spades", 3),
])
def test_standard_parse_colour_by_code_and_name(text: str, colour: int) -> None:
    """parse_colour reads a colour's code or its name, case and spaces aside."""
    assert STANDARD.parse_colour(text) == colour
    assert STANDARD.colour_code(colour) == SUITS[colour]


# ------------------------------------------------------------------ custom sets
def test_from_records_builds_a_custom_set() -> None:
    """Records become CardKinds in order: texts, names, ranks, points, colours, extra data."""
    cs = build(records())
    assert len(cs) == 3
    assert repr(cs) == "CardSet('toy', 3 cards)"
    assert cs.texts == ("R1", "GB5", "W")
    assert cs.rank == (1, 5, 0)
    assert cs.points == (1, 5, 0)
    assert cs.card_name(1) == "green-blue five"
    assert cs.kinds[1] == CardKind("GB5", "green-blue five", 5, (1, 2), 5,
                                   {"ability": "swap", "cost": 2})
    assert cs.kinds[0].data == {}


def test_multicoloured_card_has_all_its_colours_and_the_first_as_colour() -> None:
    """A card of two colours lists both in colours_of; its colour is the first; none is -1."""
    cs = build(records())
    assert cs.colours_of == ((0,), (1, 2), ())
    assert cs.colour == (0, 1, -1)


def test_custom_parse_is_case_blind_and_names_the_set() -> None:
    """A custom set parses its own texts in any case; an unknown text is a CardError naming
    the set and giving examples."""
    cs = build(records(), name="toy")
    assert cs.parse("gb5") == 1
    assert cs.parse(" w ") == 2
    assert cs.parse_many("R1 W") == [0, 2]
    with pytest.raises(CardError, match=r"'X9' is not in the toy card set") as err:
        cs.parse("X9")
    assert "R1" in str(err.value)
    with pytest.raises(CardError, match="toy card set"):
        cs.parse(7)  # type: ignore[arg-type]


def test_custom_parse_colour_by_code_and_name() -> None:
    """parse_colour of a custom set reads its codes and names; other text is refused."""
    cs = build(records())
    assert cs.parse_colour("g") == 1
    assert cs.parse_colour("Blue") == 2
    with pytest.raises(CardError, match="not a colour of the toy card set: the colours are "
                                        "R, G, B"):
        cs.parse_colour("purple")


@pytest.mark.parametrize("field", ["text", "name", "rank", "colours"])
def test_from_records_refuses_a_missing_field(field: str) -> None:
    """A record without a required field is refused, naming the card and the field."""
    recs = records()
    del recs[1][field]
    with pytest.raises(ValueError, match=rf"card set 'toy': card 1 .*lacks {field}") as err:
        build(recs)
    if field != "text":
        assert "(GB5)" in str(err.value)


def test_from_records_names_every_missing_field() -> None:
    """Several missing fields are listed together."""
    with pytest.raises(ValueError, match=r"card 0 \(Q\) lacks name, rank, colours"):
        build([{"text": "Q"}])


def test_from_records_refuses_an_unknown_colour() -> None:
    """A colour code the set does not have is refused, naming the card, the code and the
    set's colours."""
    recs = records()
    recs[1]["colours"] = ["G", "Y"]
    with pytest.raises(ValueError, match=r"card GB5 has colour 'Y'; the colours are R, G, B"):
        build(recs)


@pytest.mark.parametrize("dup", ["R1", "r1"])
def test_duplicate_texts_are_refused(dup: str) -> None:
    """Two cards with one text (case aside: parsing could not tell them apart) are refused."""
    recs = [*records(), {"text": dup, "name": "another", "rank": 2, "colours": ["B"]}]
    with pytest.raises(ValueError, match="card texts must be unique"):
        build(recs)


def test_card_set_refuses_a_colour_index_out_of_range() -> None:
    """A CardKind naming a colour index the set lacks is refused, naming the card."""
    with pytest.raises(ValueError, match="card Z has colour index 3; the set has 3 colours"):
        CardSet("toy", COLOURS, COLOUR_NAMES, [CardKind("Z", "zed", 1, (3,))])


def test_card_set_refuses_colour_codes_and_names_of_different_lengths() -> None:
    """Colour codes and colour names must pair up."""
    with pytest.raises(ValueError, match="3 colour codes but 2 colour names"):
        CardSet("toy", COLOURS, COLOUR_NAMES[:2], [])
