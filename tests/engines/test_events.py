"""Event kinds declared once: the log helper refuses what a declaration does not allow, and
every event every variant logs, at every option, fits its kind's declaration."""

from __future__ import annotations

import random

import pytest

from eights.engines import VARIANTS, engine_class, make_game
from eights.engines.base import Engine, check_events
from eights.engines.events import (
    ARG_KINDS,
    CORE_EVENTS,
    EventError,
    EventKind,
    declare_events,
    event_text,
    pick,
)
from eights.protocol.views import event_from_json, event_to_json, view_class
from tests.conftest import option_sweep


def test_an_undeclared_kind_fails_where_it_is_logged():
    game = make_game("crazy_eights", seed=0)
    before = list(game.events)
    with pytest.raises(EventError, match="crazy_eights: event kind 'wobble' is not declared; "
                                         "the declared kinds are deal, draw, game_over"):
        game.log_event("wobble", 0)
    assert game.events == before


@pytest.mark.parametrize(("args", "words"), [
    (("pass", 0, 5, -1), "event 'pass' was logged with a card its declaration does not have"),
    (("pass", 0, -1, 3), "event 'pass' was logged with a arg its declaration does not have"),
    (("reshuffle", 1, -1, 30), "event 'reshuffle' was logged with a player its declaration"),
])
def test_a_value_in_a_slot_the_kind_has_not_fails(args, words):
    game = make_game("crazy_eights", seed=0)
    with pytest.raises(EventError, match=words):
        game.log_event(*args)


def test_the_test_suite_checks_every_slot_and_production_only_the_kind():
    """tests/conftest.py turns the slot check on; without it only the kind is checked (the
    cheap check production runs)."""
    game = make_game("crazy_eights", seed=0)
    assert type(game).log_event is Engine._log_event_checked
    try:
        check_events(False)
        game.log_event("pass", 0, 5, -1)  # not caught here: the tests catch it
        with pytest.raises(EventError, match="event kind 'wobble' is not declared"):
            game.log_event("wobble", 0)
    finally:
        check_events()
    assert type(game).log_event is Engine._log_event_checked


def test_a_declared_event_is_logged_as_the_engines_always_did():
    game = make_game("jokers_of_death", seed=0)
    game.log_event("play", 1, 7, 2)
    assert tuple(game.events[-1]) == ("play", 1, 7, 2)


def test_declarations_are_checked_when_made():
    with pytest.raises(ValueError, match="is declared twice in one group"):
        declare_events(CORE_EVENTS, CORE_EVENTS[:1] * 2)
    assert declare_events(CORE_EVENTS, (EventKind("game_over", "over", "Over."),))[
        "game_over"].arg == ""  # a later group's kind replaces an earlier one
    with pytest.raises(ValueError, match="no event kind 'wobble' in the set"):
        pick(CORE_EVENTS, "truncated", "wobble")
    with pytest.raises(ValueError, match="arg kind 'colour' is not one of seat, suit"):
        EventKind("named", "a colour", "{player} names it.", arg="colour")
    with pytest.raises(ValueError, match="a card only its player may see needs a player and "
                                         "a card"):
        EventKind("peek", "a peek", "{player} peeks.", visibility="player")
    with pytest.raises(ValueError, match="says_none is for a kind whose arg may be none"):
        EventKind("keep", "keep", "{player} keeps.", arg="direction", says_none="x.")


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_redaction_is_the_declared_visibility(variant):
    kinds = engine_class(variant).event_kinds
    assert engine_class(variant).private_events == {
        name for name, kind in kinds.items() if kind.visibility == "player"}
    assert view_class(variant).event_kinds is kinds


def _fits(kind: EventKind, event: tuple, game) -> list[str]:
    """What in ``event`` its declaration does not allow, at ``game``'s table."""
    _, player, card, arg = event
    n, piles = game.num_players, len(game.state.piles)
    wrong = []
    if not (player == -1 or (kind.player and 0 <= player < n)):
        wrong.append(f"player {player}")
    if not (card == -1 or (kind.card and 0 <= card < len(game.cardset))):
        wrong.append(f"card {card}")
    allowed = {
        "": arg == -1, "seat": -1 <= arg < n, "suit": -1 <= arg < len(game.cardset.colour_codes),
        "pile": -1 <= arg < piles, "count": arg >= -1, "int": True, "bool": arg in (0, 1),
        "direction": arg in (1, -1),
    }
    assert set(allowed) == {"", *ARG_KINDS}
    if not allowed[kind.arg]:
        wrong.append(f"arg {arg} (a {kind.arg or 'kind without an arg'})")
    return wrong


def _play(variant: str, seed: int, **options):
    """A seeded game, plays preferred (as the playthroughs play: uniform play draws for
    ever), to its end."""
    game = make_game(variant, seed=seed, **options)
    rng = random.Random(seed)
    while not game.game_over:
        legal = game.legal_texts()
        plays = [t for t in legal if t.startswith("play ")] or legal
        game.step(plays[rng.randrange(len(plays))])
    return game


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_event_of_every_option_fits_its_declaration_and_crosses_the_protocol(variant):
    """One game per config of the option sweep: every logged event fits its kind's
    declaration (values in range), reads as a sentence and a playthrough line, and each
    seat's history comes back the same from its JSON."""
    cls = view_class(variant)
    for i, options in enumerate(option_sweep(variant)):
        game = _play(variant, i, **options)
        kinds = game.event_kinds
        for event in game.events:
            assert event.kind in kinds, (options, event)
            assert not _fits(kinds[event.kind], event, game), (options, event)
            assert game.describe_event(event).endswith((".", "!"))
            assert event.kind in event_text(event, kinds, game.cardset)
        for seat in range(game.num_players):
            history = game.view(seat).history()
            written = [event_to_json(e, cls) for e in history]
            assert [event_from_json("e", e, game.num_players, cls) for e in written] == history
            for event, data in zip(history, written, strict=True):
                if kinds[event.kind].visibility == "player" and event.player != seat:
                    assert data["card"] is None, (options, event)
