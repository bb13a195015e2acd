"""Config validation (eights.config) on the crazy_eights config, and the engine's own arguments.

Every bad value is refused with :class:`eights.ConfigError` naming the option,
the value and what is allowed; nothing is silently coerced.
"""

from __future__ import annotations

import dataclasses

import pytest

import eights
from eights.config import ConfigError, GameConfig
from eights.engines.crazy_eights import CrazyEightsConfig, CrazyEightsGame

OPTIONS = ["num_players", "num_decks", "hand_size", "match", "reward", "max_turns",
           "target_score", "king_draw", "may_keep_drawn_card"]


def make(**options):
    return eights.make_game("crazy_eights", seed=0, **options)


def test_config_error_is_exported_and_a_value_error():
    assert eights.ConfigError is ConfigError
    assert issubclass(ConfigError, ValueError)


def test_defaults_follow_the_rules_file():
    config = CrazyEightsConfig()
    assert config.to_dict() == {
        "num_players": 2, "num_decks": 2, "hand_size": 7, "match": False,
        "reward": "win_loss", "max_turns": 2000, "target_score": 500, "king_draw": 2,
        "may_keep_drawn_card": False,
    }
    assert list(CrazyEightsConfig.options()) == OPTIONS
    assert make().config == config


@pytest.mark.parametrize(
    "option, value, allowed",
    [
        ("num_players", 1, "an integer from 2 to 8"),
        ("num_players", 9, "an integer from 2 to 8"),
        ("num_players", "3", "an integer from 2 to 8"),
        ("num_players", 3.0, "an integer from 2 to 8"),
        ("num_players", True, "an integer from 2 to 8"),
        ("num_players", None, "an integer from 2 to 8"),
        ("num_decks", 0, "an integer from 1 to 4"),
        ("num_decks", 5, "an integer from 1 to 4"),
        ("num_decks", "two", "an integer from 1 to 4"),
        ("hand_size", 0, "an integer from 1 to 20"),
        ("hand_size", 21, "an integer from 1 to 20"),
        ("hand_size", 7.5, "an integer from 1 to 20"),
        ("match", 1, "a bool"),
        ("match", "yes", "a bool"),
        ("match", None, "a bool"),
        ("reward", "points", "'win_loss' or 'score'"),
        ("reward", 1, "'win_loss' or 'score'"),
        ("reward", "WIN_LOSS", "'win_loss' or 'score'"),
        ("max_turns", 0, "an integer from 1 to any"),
        ("max_turns", -5, "an integer from 1 to any"),
        ("max_turns", 10.0, "an integer from 1 to any"),
        ("max_turns", None, "an integer from 1 to any"),
        ("target_score", 0, "an integer from 1 to any"),
        ("target_score", "500", "an integer from 1 to any"),
        ("king_draw", -1, "an integer from 0 to 10"),
        ("king_draw", 11, "an integer from 0 to 10"),
        ("king_draw", False, "an integer from 0 to 10"),
    ],
)
def test_every_bad_value_names_the_option_the_value_and_what_is_allowed(option, value, allowed):
    doc = CrazyEightsConfig.options()[option].metadata["doc"]
    expected = (f"crazy_eights: {option}={value!r} is not allowed; "
                f"{option} must be {allowed} ({doc})")
    with pytest.raises(ConfigError) as err:
        make(**{option: value})
    assert str(err.value) == expected
    with pytest.raises(ConfigError) as err:
        CrazyEightsConfig(**{option: value})
    assert str(err.value) == expected


def test_one_full_message_as_a_user_sees_it():
    with pytest.raises(ConfigError) as err:
        make(num_players=9)
    assert str(err.value) == (
        "crazy_eights: num_players=9 is not allowed; num_players must be an integer "
        "from 2 to 8 (players at the table)"
    )


@pytest.mark.parametrize(
    "option, value",
    [("num_players", 2), ("num_players", 8), ("num_decks", 1), ("num_decks", 4),
     ("hand_size", 1), ("match", True), ("reward", "score"), ("max_turns", 1),
     ("target_score", 1), ("king_draw", 0), ("king_draw", 10)],
)
def test_boundary_values_are_allowed(option, value):
    assert getattr(make(**{option: value}).config, option) == value


@pytest.mark.parametrize("unknown", [["players"], ["num_player"], ["seed_value", "decks"]])
def test_unknown_options_are_named_with_the_known_ones(unknown):
    with pytest.raises(ConfigError) as err:
        make(**{name: 1 for name in unknown})
    assert str(err.value) == (
        f"crazy_eights: unknown option(s) {', '.join(sorted(unknown))}; "
        f"the options are {', '.join(OPTIONS)}"
    )


@pytest.mark.parametrize(
    "options, need, holds",
    [
        ({"num_players": 8, "num_decks": 1}, 57, 52),               # 8 x 7 + starter
        ({"num_players": 8, "hand_size": 13}, 105, 104),            # two decks: 104 cards
        ({"num_players": 6, "hand_size": 20, "num_decks": 2}, 121, 104),
        ({"num_players": 3, "hand_size": 20, "num_decks": 1}, 61, 52),
    ],
)
def test_too_many_players_for_the_cards(options, need, holds):
    with pytest.raises(ConfigError) as err:
        make(**options)
    full = CrazyEightsConfig().to_dict() | options
    assert str(err.value) == (
        f"crazy_eights: num_players={full['num_players']} with hand_size={full['hand_size']} "
        f"needs {need} cards but num_decks={full['num_decks']} holds {holds}; "
        f"use more decks, fewer players or smaller hands"
    )


def test_just_enough_cards_is_allowed():
    game = make(num_players=8, hand_size=12)  # 97 of 104 cards
    assert len(game.state.stock) == 104 - 96 - 1
    game = make(num_players=2, hand_size=20, num_decks=1)  # 41 of 52
    assert len(game.state.stock) == 11


def test_config_is_frozen_and_replace_validates():
    config = CrazyEightsConfig(num_players=3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.num_players = 4  # type: ignore[misc]
    assert config.replace(num_players=4).num_players == 4
    assert config.num_players == 3
    with pytest.raises(ConfigError, match="num_players=12 is not allowed"):
        config.replace(num_players=12)
    with pytest.raises(ConfigError, match="unknown option"):
        config.replace(players=4)


def test_to_dict_round_trips_through_from_options():
    config = CrazyEightsConfig(num_players=4, match=True, target_score=100, king_draw=3)
    assert CrazyEightsConfig.from_options(**config.to_dict()) == config
    assert isinstance(config, GameConfig)
    assert CrazyEightsConfig.variant == "crazy_eights"


def test_describe_lists_every_option():
    table = CrazyEightsConfig.describe().splitlines()
    assert table[0] == "| option | default | allowed | meaning |"
    assert len(table) == 2 + len(OPTIONS)
    assert table[2] == "| `num_players` | `2` | an integer from 2 to 8 | players at the table |"
    assert "| `reward` | `'win_loss'` | 'win_loss' or 'score' |" in table[6]
    for name, row in zip(OPTIONS, table[2:], strict=True):
        assert row.startswith(f"| `{name}` |")


# ------------------------------------------------------------------ engine arguments
def test_config_object_or_options_but_not_both():
    game = CrazyEightsGame(CrazyEightsConfig(num_players=3), seed=1)
    assert game.num_players == 3
    with pytest.raises(ConfigError, match="crazy_eights: pass either a config or options"):
        CrazyEightsGame(CrazyEightsConfig(), num_players=3)
    with pytest.raises(ConfigError, match="config must be a CrazyEightsConfig, not dict"):
        CrazyEightsGame({"num_players": 2})  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", ["1", 1.5, True, [1]])
def test_seed_must_be_an_int(seed):
    with pytest.raises(ConfigError, match=r"seed=.* is not allowed; seed must be an int"):
        eights.make_game("crazy_eights", seed=seed)


@pytest.mark.parametrize("first_player, seats", [(2, 1), (-1, 1), ("0", 1), (4, 3)])
def test_first_player_must_be_a_seat(first_player, seats):
    with pytest.raises(ConfigError) as err:
        eights.make_game("crazy_eights", seed=0, first_player=first_player,
                         num_players=seats + 1)
    assert str(err.value) == (
        f"crazy_eights: first_player={first_player!r} is not allowed; "
        f"it must be a seat from 0 to {seats}"
    )


def test_unknown_variant_names_the_known_ones():
    with pytest.raises(ConfigError, match="variant 'crazy_nines' is not known; the variants are "
                                          "crazy_eights"):
        eights.make_game("crazy_nines")


def test_stacked_deck_must_hold_exactly_the_games_cards():
    deck = CrazyEightsGame.stacked_deck([["8S"], ["8H"]], "4H", num_decks=2)
    with pytest.raises(ConfigError) as err:
        eights.make_game("crazy_eights", deck=deck[:-1], hand_size=1)
    assert str(err.value) == (
        "crazy_eights: the stacked deck must hold exactly the game's 104 cards "
        "(every card of 2 52-card decks), got 103 cards"
    )
    one_deck = CrazyEightsGame.stacked_deck([["8S"], ["8H"]], "4H", num_decks=1)
    with pytest.raises(ConfigError, match=r"the game's 104 cards .* got 52 cards"):
        eights.make_game("crazy_eights", deck=one_deck, hand_size=1)
    with pytest.raises(ConfigError, match="the game's 52 cards \\(every card of one 52-card "
                                          "deck\\), got 52 cards"):
        eights.make_game("crazy_eights", deck=[*one_deck[:-1], one_deck[0]], hand_size=1,
                         num_decks=1)


def test_stacked_deck_helper_refuses_impossible_positions():
    with pytest.raises(ConfigError, match="stacked_deck: every hand must have the same size"):
        CrazyEightsGame.stacked_deck([["8S", "2C"], ["8H"]], "4H")
    with pytest.raises(ConfigError, match="stacked_deck: too many copies of 8S"):
        CrazyEightsGame.stacked_deck([["8S", "8S"], ["8S", "2C"]], "4H", num_decks=2)


def test_options_written_name_value_are_read_as_json_where_they_parse():
    """One parser for every command's ``--option`` (``eights play``, ``eights tournament``)."""
    from eights.config import parse_options

    assert parse_options(["hand_size=5", "match=true", "reward=score", "x="]) == {
        "hand_size": 5, "match": True, "reward": "score", "x": ""}
    with pytest.raises(ConfigError, match=r"--option 'hand_size' must look like name=value"):
        parse_options(["hand_size"])
    with pytest.raises(ConfigError, match=r"--option '=5' must look like name=value"):
        parse_options(["=5"])


def test_the_tournament_console_imports_nothing_private_from_the_cli():
    """``tournament/console.py`` read the CLI's private ``_parse_options``; both now use
    :func:`eights.config.parse_options`."""
    import ast
    from pathlib import Path

    import eights.tournament.console as console

    tree = ast.parse(Path(console.__file__).read_text(encoding="utf-8"))
    private = [(node.module, alias.name) for node in ast.walk(tree)
               if isinstance(node, ast.ImportFrom) for alias in node.names
               if alias.name.startswith("_") and (node.module or "").endswith("cli")]
    assert private == []
