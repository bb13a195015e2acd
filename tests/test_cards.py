"""Card identities, the card notation both ways, and the deck builders (eights.cards)."""

from __future__ import annotations

from collections import Counter

import pytest

from eights.cards import (
    ACE,
    BLACK_JOKER,
    JACK,
    KING,
    NO_SUIT,
    NUM_KINDS,
    NUM_STANDARD,
    QUEEN,
    RANK,
    RED_JOKER,
    SUIT,
    CardError,
    card,
    card_name,
    card_text,
    cards_text,
    is_joker,
    parse_card,
    parse_cards,
    parse_suit,
    sort_key,
    standard_deck,
)

ALL_TEXTS = [r + s for s in "CDHS" for r in
             ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")] + ["RJ", "BJ"]


# ------------------------------------------------------------------ ids and tables
def test_card_ids_follow_suit_times_13_plus_rank_minus_one():
    assert card(ACE, 0) == 0
    assert card(KING, 0) == 12
    assert card(ACE, 1) == 13
    assert card(10, 2) == 35
    assert card(KING, 3) == 51
    assert (RED_JOKER, BLACK_JOKER, NUM_STANDARD, NUM_KINDS) == (52, 53, 52, 54)


def test_rank_and_suit_tables_match_the_ids():
    for suit in range(4):
        for rank in range(1, 14):
            c = card(rank, suit)
            assert (RANK[c], SUIT[c]) == (rank, suit)
    assert (RANK[RED_JOKER], SUIT[RED_JOKER]) == (0, NO_SUIT)
    assert (RANK[BLACK_JOKER], SUIT[BLACK_JOKER]) == (0, NO_SUIT)
    assert [is_joker(c) for c in (0, 51, 52, 53)] == [False, False, True, True]


@pytest.mark.parametrize("rank, suit", [(0, 0), (14, 0), (1, -1), (1, 4)])
def test_card_refuses_out_of_range_rank_or_suit(rank, suit):
    with pytest.raises(CardError, match="is not allowed"):
        card(rank, suit)


# ------------------------------------------------------------------ text -> id -> text
def test_every_card_id_round_trips_through_its_text():
    texts = [card_text(c) for c in range(NUM_KINDS)]
    assert texts == ALL_TEXTS
    for c in range(NUM_KINDS):
        assert parse_card(card_text(c)) == c


@pytest.mark.parametrize("text", ALL_TEXTS)
def test_every_text_round_trips_through_its_id(text):
    assert card_text(parse_card(text)) == text


@pytest.mark.parametrize(
    "text, canonical",
    [
        ("10h", "10H"), ("th", "10H"), ("TH", "10H"), ("Ts", "10S"), ("qd", "QD"),
        ("as", "AS"), ("8s", "8S"), ("kc", "KC"), ("rj", "RJ"), ("bj", "BJ"),
        ("  jd ", "JD"), ("2c", "2C"),
    ],
)
def test_lower_case_and_t_for_ten_are_accepted_and_normalised(text, canonical):
    assert card_text(parse_card(text)) == canonical


@pytest.mark.parametrize(
    "text", ["", "1H", "11H", "0H", "T", "10", "H", "10X", "AH1", "ZZ", "8 S", "JK", "joker"]
)
def test_bad_card_texts_raise_card_error_showing_the_notation(text):
    with pytest.raises(CardError) as err:
        parse_card(text)
    message = str(err.value)
    assert repr(text) in message
    assert "a rank (A 2-10 J Q K) then a suit (C D H S), like 10H or QS" in message
    assert "RJ / BJ" in message


@pytest.mark.parametrize("value", [None, 5, 8.0, ["8S"]])
def test_non_text_card_raises_card_error(value):
    with pytest.raises(CardError, match="is not text: write cards like 10H, 8S, QD, RJ"):
        parse_card(value)


def test_card_error_is_a_value_error():
    assert issubclass(CardError, ValueError)


@pytest.mark.parametrize("card_id", [-1, 54, 100])
def test_card_text_refuses_unknown_ids(card_id):
    with pytest.raises(CardError, match=r"ids are 0\.\.53"):
        card_text(card_id)


def test_card_names_are_spoken_forms():
    assert card_name(parse_card("10H")) == "ten of hearts"
    assert card_name(parse_card("AC")) == "ace of clubs"
    assert card_name(parse_card("QS")) == "queen of spades"
    assert card_name(parse_card("8D")) == "eight of diamonds"
    assert card_name(RED_JOKER) == "red joker"
    assert card_name(BLACK_JOKER) == "black joker"
    with pytest.raises(CardError):
        card_name(60)


# ------------------------------------------------------------------ suits
@pytest.mark.parametrize(
    "text, suit",
    [("C", 0), ("d", 1), ("H", 2), (" s ", 3), ("clubs", 0), ("Hearts", 2), ("SPADES", 3)],
)
def test_parse_suit_accepts_letters_and_names(text, suit):
    assert parse_suit(text) == suit


@pytest.mark.parametrize("text", ["", "x", "HH", "heart", "8", None])
def test_parse_suit_refuses_others_naming_the_suits(text):
    with pytest.raises(CardError, match=r"is not allowed: suits are C, D, H, S"):
        parse_suit(text)


# ------------------------------------------------------------------ several cards
def test_parse_cards_from_text_or_list_and_cards_text_back():
    ids = parse_cards("10H 8s qd")
    assert ids == [35, 46, 24]
    assert parse_cards(["10H", "8S", "QD"]) == ids
    assert parse_cards(["th", 46, "QD"]) == ids  # ids pass through
    assert cards_text(ids) == "10H 8S QD"
    assert parse_cards("") == []
    with pytest.raises(CardError):
        parse_cards([True])  # a bool is not a card id
    with pytest.raises(CardError, match="'1X'"):
        parse_cards("AC 1X")


def test_sort_key_orders_by_suit_then_rank_jokers_last():
    cards = parse_cards("RJ KS AC 10H 2C 8D")
    assert cards_text(sorted(cards, key=sort_key)) == "AC 2C 8D 10H KS RJ"
    assert sort_key(RED_JOKER) < sort_key(BLACK_JOKER)  # told apart, in a fixed order
    by_suit_and_rank = sorted(range(54), key=lambda c: (SUIT[c] if c < 52 else 4, RANK[c], c))
    assert sorted(range(54), key=sort_key) == by_suit_and_rank == list(range(54))


# ------------------------------------------------------------------ decks
def test_standard_deck_is_every_card_in_id_order():
    assert standard_deck() == list(range(52))
    assert standard_deck(1, jokers=2) == [*range(52), RED_JOKER, BLACK_JOKER]
    assert standard_deck(1, jokers=1) == [*range(52), RED_JOKER]


def test_two_decks_hold_two_copies_of_each_card():
    deck = standard_deck(2)
    assert len(deck) == 104
    assert Counter(deck) == Counter({c: 2 for c in range(52)})
    assert len(standard_deck(3, jokers=2)) == 162


@pytest.mark.parametrize(
    "kwargs, fragment",
    [
        ({"num_decks": 0}, "num_decks=0 is not allowed: at least one deck"),
        ({"num_decks": -1}, "num_decks=-1 is not allowed"),
        ({"jokers": 3}, "jokers=3 is not allowed: 0, 1 or 2 per deck"),
        ({"jokers": -1}, "jokers=-1 is not allowed"),
    ],
)
def test_deck_builder_refuses_bad_sizes(kwargs, fragment):
    with pytest.raises(CardError, match=fragment):
        standard_deck(**kwargs)


def test_face_card_constants():
    assert (ACE, JACK, QUEEN, KING) == (1, 11, 12, 13)
