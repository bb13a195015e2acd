"""Action spaces declared as blocks: ids, texts, decoding and docs from one declaration.

A small space pins the mechanics (ids in declaration order, texts from the
templates, decoding, lookups, refusals, the Markdown table); the three
variants' spaces pin the action ids their docs and env docstrings promise,
which trained policies and saved games depend on.
"""

from __future__ import annotations

import pytest

from eights.actions import ActionSet
from eights.cards import NUM_KINDS, NUM_STANDARD, SUITS, card_text, parse_card
from eights.engines import baby_eating_eights as baby
from eights.engines import livery_eights as livery
from eights.engines.blocks import ActionSpace, Block, Param, cards, numbers, suits
from eights.engines.crazy_eights import CrazyEightsGame
from eights.engines.livery_eights import LiveryEightsGame

CRAZY = CrazyEightsGame.actions
LIVERY = LiveryEightsGame.actions
BABY = baby.BabyEatingEightsGame.actions
VARIANT_SPACES = {"crazy_eights": CRAZY, "livery_eights": LIVERY, "baby_eating_eights": BABY}


def small_space() -> ActionSpace:
    """play 3 cards (0-2), suit (3-6), play a card on a pile (7-10), target a seat (11-13),
    draw (14)."""
    return ActionSpace(
        Block("play", "play {card}", cards(range(3)), when="a matching card"),
        Block("suit", "suit {suit}", suits(), when="after an 8"),
        Block("pile", "play {card} pile {pile}", cards((0, 1)), numbers("pile", 2),
              when="two piles"),
        Block("target", "target {seat}", numbers("seat", 3), when="after a Five"),
        Block("draw", "draw", when="your turn"),
    )


# ------------------------------------------------------------------ the mechanics
def test_ids_are_consecutive_in_declaration_order() -> None:
    """Each block's ids follow the previous block's; the space has them all, no gaps."""
    space = small_space()
    assert isinstance(space, ActionSet)
    assert [(b.name, b.start, b.stop) for b in space.blocks.values()] == [
        ("play", 0, 3), ("suit", 3, 7), ("pile", 7, 11), ("target", 11, 14), ("draw", 14, 15)]
    assert len(space) == 15
    assert [len(b) for b in space.blocks.values()] == [3, 4, 4, 3, 1]


def test_texts_come_from_the_templates() -> None:
    """Every id's text is its block's template filled with its parameters' texts, the
    parameters combined in order (the first one slowest)."""
    assert small_space().texts == (
        "play AC", "play 2C", "play 3C",
        "suit C", "suit D", "suit H", "suit S",
        "play AC pile 0", "play AC pile 1", "play 2C pile 0", "play 2C pile 1",
        "target 0", "target 1", "target 2",
        "draw",
    )


def test_decode_round_trips_every_id() -> None:
    """decode(id) gives (block, args); the block gives back the id and the text."""
    space = small_space()
    for a in range(len(space)):
        block, args = space.decode(a)
        assert block is space[block.name]
        assert a in block
        assert block.id(*args) == a
        assert block.text(args) == space.texts[a]
        assert space.parse(space.texts[a]) == a
        assert space.decode(space.texts[a]) == (block, args)
    assert space.decode(8)[1] == (0, 1)
    assert space.decode(14) == (space["draw"], ())


def test_block_id_and_membership() -> None:
    """Block.id(*args) is the id of those values; `in` tells a block's ids; a value
    outside the block is a ValueError naming it."""
    space = small_space()
    assert space["play"].id(2) == 2
    assert space["suit"].id(SUITS.index("H")) == 5
    assert space["pile"].id(1, 0) == 9
    assert space["target"].id(2) == 13
    assert space["draw"].id() == 14
    assert 3 in space["suit"] and 6 in space["suit"]
    assert 2 not in space["suit"] and 7 not in space["suit"]
    assert "play 2c" in space and "target 2" in space and "target 3" not in space
    with pytest.raises(ValueError, match=r"action block 'play' has no action for \(5,\)"):
        space["play"].id(5)
    with pytest.raises(ValueError, match="action block 'pile'"):
        space["pile"].id(0)


def test_ids_by_value() -> None:
    """ids_by_value(size)[value] is the id of that value, -1 where the block has none; a
    block of two parameters is refused."""
    space = small_space()
    assert space["play"].ids_by_value(5) == (0, 1, 2, -1, -1)
    assert space["target"].ids_by_value(4) == (11, 12, 13, -1)
    assert space["suit"].ids_by_value(4) == (3, 4, 5, 6)
    with pytest.raises(ValueError, match="'pile' has 2 parameters"):
        space["pile"].ids_by_value(NUM_KINDS)
    with pytest.raises(ValueError, match="'draw' has 0 parameters"):
        space["draw"].ids_by_value(1)


def test_block_repr_names_its_span() -> None:
    """A block's repr shows its name, template and id span."""
    assert repr(small_space()["suit"]) == "Block('suit', 'suit {suit}', ids 3-6)"


@pytest.mark.parametrize(("template", "params"), [
    ("play {card}", ()),
    ("play", (cards(range(3)),)),
    ("play {cards}", (cards(range(3)),)),
    ("give {seat} {card}", (cards(range(3)), numbers("seat", 2))),
])
def test_template_must_name_the_params_in_order(template: str, params: tuple[Param, ...]
                                                ) -> None:
    """A template whose placeholders are not the parameters' names, in order, is refused."""
    with pytest.raises(ValueError, match="action block 'b': the template"):
        Block("b", template, *params)


def test_param_without_values_is_refused() -> None:
    """A parameter with no values (a block of no actions) is refused."""
    with pytest.raises(ValueError, match="'card' has no values"):
        cards(())


def test_two_blocks_with_one_name_are_refused() -> None:
    """Block names must be unique within a space."""
    with pytest.raises(ValueError, match="two action blocks are named 'draw'"):
        ActionSpace(Block("draw", "draw"), Block("draw", "draw again"))


def test_unknown_block_name_lists_the_blocks() -> None:
    """Looking up a block that is not there is a KeyError naming it and listing the blocks."""
    with pytest.raises(KeyError, match="no action block 'discard'; the blocks are "
                                       "play, suit, pile, target, draw"):
        small_space()["discard"]


def test_table_has_one_row_per_block_with_its_span() -> None:
    """The Markdown table: a header, then one row per block with its id span, its text
    (each text for small blocks, the template with <placeholders> otherwise) and when."""
    rows = small_space().table().splitlines()
    assert rows[:2] == ["| id | text | when |", "| --- | --- | --- |"]
    assert rows[2:] == [
        "| 0-2 | `play AC`, `play 2C`, `play 3C` | a matching card |",
        "| 3-6 | `suit C`, `suit D`, `suit H`, `suit S` | after an 8 |",
        "| 7-10 | `play AC pile 0`, `play AC pile 1`, `play 2C pile 0`, `play 2C pile 1` | "
        "two piles |",
        "| 11-13 | `target 0`, `target 1`, `target 2` | after a Five |",
        "| 14 | `draw` | your turn |",
    ]
    big = ActionSpace(Block("play", "play {card}", cards(range(52))),
                      Block("target", "target {seat}", numbers("seat", 17), when="a Five"))
    assert big.table().splitlines()[2:] == [
        "| 0-51 | `play <card>` |  |", "| 52-68 | `target <seat>` | a Five |"]


@pytest.mark.parametrize("variant", sorted(VARIANT_SPACES))
def test_variant_tables_have_one_row_per_block(variant: str) -> None:
    """Each variant's action table lists every block once, with its id span."""
    space = VARIANT_SPACES[variant]
    rows = space.table().splitlines()[2:]
    assert len(rows) == len(space.blocks)
    for row, block in zip(rows, space.blocks.values(), strict=True):
        span = str(block.start) if len(block) == 1 else f"{block.start}-{block.stop - 1}"
        assert row.startswith(f"| {span} | ")


@pytest.mark.parametrize("variant", sorted(VARIANT_SPACES))
def test_variant_spaces_decode_and_parse_every_id(variant: str) -> None:
    """Every id of every variant decodes to a block that gives it back, and its text
    parses back to it."""
    space = VARIANT_SPACES[variant]
    for a in range(len(space)):
        block, args = space.decode(a)
        assert block.id(*args) == a
        assert space.parse(space.texts[a]) == a


# ------------------------------------------------------------------ the variants' ids
def _check_pile_ids(space: ActionSpace) -> None:
    """play <card> is the card id (0-51), suit C..S 52-55, draw 56, pass 57."""
    for c in range(NUM_STANDARD):
        assert space.texts[c] == f"play {card_text(c)}"
        assert space["play"].id(c) == c
    assert space.parse("play 8S") == parse_card("8S") == 46
    assert space.parse("play th") == parse_card("10H")
    assert [space.parse(f"suit {s}") for s in SUITS] == [52, 53, 54, 55]
    assert space.parse("draw") == 56
    assert space.parse("pass") == 57
    assert space["play"].ids_by_value(NUM_KINDS) == tuple(range(52)) + (-1, -1)


def test_crazy_eights_action_ids() -> None:
    """Crazy Eights: the 58 documented actions, and the engine's constants agree."""
    _check_pile_ids(CRAZY)
    assert len(CRAZY) == 58
    assert list(CRAZY.blocks) == ["play", "suit", "draw", "pass"]
    assert CrazyEightsGame.DRAW == 56 and CrazyEightsGame.PASS == 57
    assert CrazyEightsGame.SUIT_IDS == (52, 53, 54, 55)


def test_livery_eights_action_ids() -> None:
    """Livery Eights: the pile actions, then last card 58 and challenge 59 (60 actions)."""
    _check_pile_ids(LIVERY)
    assert LIVERY.parse("last card") == 58 == livery.CALL_ACTION
    assert LIVERY.parse("challenge") == 59 == livery.CHALLENGE_ACTION
    assert len(LIVERY) == 60
    assert LiveryEightsGame.DRAW == 56 and LiveryEightsGame.PASS == 57


def test_baby_eating_eights_action_ids() -> None:
    """Baby-Eating Eights: the pile actions, play RJ 58, play BJ 59, target 0..16 60-76,
    bottom <card> 77 + card id; 131 actions."""
    _check_pile_ids(BABY)
    assert BABY.parse("play RJ") == 58 == BABY["play_joker"].start
    assert BABY.parse("play bj") == 59
    for seat in range(17):
        assert BABY.parse(f"target {seat}") == 60 + seat
        assert BABY["target"].id(seat) == 60 + seat
    assert BABY["target"].start == 60 == baby.TARGET_ACTION[0]
    for c in range(NUM_KINDS):
        assert BABY.parse(f"bottom {card_text(c)}") == 77 + c
    assert BABY.parse("bottom 8S") == 77 + 46
    assert BABY["bottom"].start == 77 == baby.BOTTOM_ACTION[0]
    assert len(BABY) == baby.NUM_ACTIONS == 131
    play_action = baby.PLAY_ACTION
    assert play_action == (*range(52), 58, 59)
    assert [baby.CARD_OF_ACTION[a] for a in (0, 46, 58, 59)] == [0, 46, 52, 53]
    assert set(baby.CARD_OF_ACTION[52:58]) == {-1}
    assert set(baby.CARD_OF_ACTION[60:]) == {-1}


# ------------------------------------------------------------------ texts both ways
def test_a_block_whose_texts_do_not_read_back_is_refused() -> None:
    """Texts go both ways: a declaration whose texts the notation would not read back as
    themselves (a card after a verb that is not play/discard/bottom/take, a capital) is
    refused when the space is made, naming the block and the text."""
    with pytest.raises(ValueError, match="action block 'give': its text 'give AC to 0'"):
        ActionSpace(Block("give", "give {card} to {seat}", cards((0, 1)), numbers("seat", 2)))
    with pytest.raises(ValueError, match="action block 'Draw'"):
        ActionSpace(Block("Draw", "Draw"))
    space = ActionSpace(Block("play_pile", "play {card} pile {pile}", cards((0, 1)),
                              numbers("pile", 3)))
    assert [space.parse(t) for t in space.texts] == list(range(len(space)))


def test_a_block_in_two_spaces_keeps_each_spaces_ids() -> None:
    """One declared block used by two spaces has its own ids in each: placing it in the
    second space does not move it in the first."""
    draw = Block("draw", "draw", when="your turn")
    first = ActionSpace(draw)
    second = ActionSpace(Block("pass", "pass"), draw)
    assert first["draw"].id() == 0 and first.texts[0] == "draw"
    assert second["draw"].id() == 1 and second.texts[1] == "draw"
    assert first.decode(0)[0].name == "draw" and 0 in first["draw"]
    assert draw.start == 0  # the declaration itself is left as it was
