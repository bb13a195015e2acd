"""View fields declared once: getters, visibility, the view classes, the encoder, the text.

The generated encoder (``Encoder.encode``, code written from the field
declarations) must give exactly the vector the plain writers give from a
view (``Encoder.encode_view``), for every variant, seat and position; the
``acting`` visibility must hide the drawn card from everyone but the drawer
in both; each variant's view class must describe every field it has.
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import eights
from eights.cards import NO_CARD
from eights.engines import engine_class
from eights.engines.base import Engine, PlayerView
from eights.engines.encoding import Encoder, OneHot, Scaled
from eights.engines.fields import (
    CORE_FIELDS,
    VISIBILITIES,
    ViewField,
    compile_getter,
    core,
    value_text,
)
from eights.engines.table import Frame, TableEngine

#: (variant, options) swept by the encoder check
ENCODER_CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("crazy_eights", {"num_players": 2}),
    ("crazy_eights", {"num_players": 4}),
    ("crazy_eights", {"num_players": 3, "num_decks": 1, "may_keep_drawn_card": True}),
    ("crazy_eights", {"num_players": 3, "num_decks": 3, "may_keep_drawn_card": True}),
    ("livery_eights", {"num_players": 3}),
    ("baby_eating_eights", {"num_players": 2}),
    ("baby_eating_eights", {"num_players": 4}),
    ("baby_eating_eights", {"num_players": 4, "teams": 2}),
]
VARIANTS = ("crazy_eights", "livery_eights", "baby_eating_eights")


def config_id(pair: tuple[str, dict[str, Any]]) -> str:
    variant, options = pair
    return variant + "".join(f"-{k}={v}" for k, v in options.items())


def positions(variant: str, options: dict[str, Any], count: int, seed: int = 0
              ) -> Iterator[Engine]:
    """``count`` positions of seeded random games (a new game when one ends)."""
    chooser = random.Random(seed)
    game_seed = seed
    game = eights.make_game(variant, seed=game_seed, **options)
    for _ in range(count):
        if game.game_over:
            game_seed += 1
            game = eights.make_game(variant, seed=game_seed, **options)
        yield game
        if not game.game_over:
            game.step(chooser.choice(game.legal_actions()))


# ------------------------------------------------------------------ declarations
def test_compile_getter_refuses_a_bad_expression_naming_the_field() -> None:
    """A getter that is not a Python expression is a ValueError naming the field."""
    with pytest.raises(ValueError, match=r"view field 'pile_top': its getter 's\.piles\[0' "
                                         r"is not one expression"):
        compile_getter("pile_top", "s.piles[0")
    with pytest.raises(ValueError, match="view field 'two'"):
        ViewField("two", "int", "doc", "s.stock +")


@pytest.mark.parametrize("expr", ["len(s.stock); s.hands", "x = len(s.stock)"])
def test_compile_getter_refuses_what_is_not_one_expression(expr: str) -> None:
    """A getter must be one expression: the encoder writes it inline in its generated code."""
    with pytest.raises(ValueError, match="view field 'size'"):
        compile_getter("size", expr)


def test_a_getter_is_kept_as_one_canonical_line() -> None:
    """Comments and layout are dropped, so the expression inlines safely in the encoder."""
    f = ViewField("size", "count", "doc", "len(s.stock)  # the stock\n", Scaled(10))
    assert f.expr == "len(s.stock)"
    game = eights.make_game("crazy_eights", seed=3)
    assert Encoder([f], game.config).encode(game, 0)[0] == min(len(game.state.stock) / 10, 1)


def test_compile_getter_reads_g_s_and_seat() -> None:
    """A compiled getter sees the engine as g, its state as s, and the reader's seat."""
    game = eights.make_game("crazy_eights", seed=3)
    get = compile_getter("mine", "(len(s.hands[seat]), g.num_players, s.piles[0][-1])")
    assert get(game, 1) == (len(game.state.hands[1]), 2, game.state.piles[0][-1])
    assert get.__name__ == "get_mine"


def test_view_field_refuses_an_unknown_visibility() -> None:
    """Visibility is one of public, own, acting, allies; anything else is refused."""
    assert VISIBILITIES == ("public", "own", "acting", "allies")
    with pytest.raises(ValueError, match="view field 'secret': visibility 'private' is not "
                                         "one of public, own, acting, allies"):
        ViewField("secret", "card", "doc", "s.stock[-1]", visibility="private")


def test_core_fields_are_made_only_by_core() -> None:
    """A declared field may not take a core field's name, and core() marks its fields."""
    with pytest.raises(ValueError, match="view field 'hand': the core fields are"):
        ViewField("hand", "cards", "doc", "s.hands[seat]")
    for name in CORE_FIELDS:
        field = core(name, None, "doc")
        assert field.core and field.name == name
    assert core("hand", None, "doc").visibility == "own"
    assert core("scores", None, "doc").visibility == "public"


def test_view_field_keeps_its_expression_and_reads_with_visibility() -> None:
    """A string getter is kept as expr and compiled; an acting field reads hidden for any
    seat but the one to act."""
    game = eights.make_game("crazy_eights", seed=5, num_players=3)
    field = ViewField("size", "count", "doc", "len(s.hands[seat])", visibility="acting",
                      hidden=-7)
    assert field.expr == "len(s.hands[seat])"
    acting = game.current_player
    for seat in range(3):
        expected = len(game.state.hands[seat]) if seat == acting else -7
        assert field.read(game, seat) == expected
    plain = ViewField("top2", "card", "doc", lambda g, seat: g.state.piles[0][-1])
    assert plain.expr is None
    assert plain.read(game, 0) == game.state.piles[0][-1]


def test_allies_visibility_shows_only_allies_values() -> None:
    """An allies field reads each ally's value and hidden for itself and for opponents."""
    game = eights.make_game("baby_eating_eights", seed=2, num_players=4, teams=2)
    field = ViewField("ally_sizes", "counts", "doc", "tuple(map(len, s.hands))",
                      visibility="allies", hidden=-1)
    sizes = [len(h) for h in game.state.hands]
    assert game.team_of == (0, 1, 0, 1)
    assert field.read(game, 0) == (-1, -1, sizes[2], -1)
    assert field.read(game, 3) == (-1, sizes[1], -1, -1)


# ------------------------------------------------------------------ acting visibility
def test_drawn_card_is_seen_only_by_the_drawer() -> None:
    """Crazy Eights with may_keep_drawn_card: while a drawer decides about a playable drawn
    card (top frame after_draw), only its view and observation show the card."""
    options = {"num_players": 3, "may_keep_drawn_card": True}
    encoder = engine_class("crazy_eights").encoder(
        eights.make_game("crazy_eights", seed=0, **options).config)
    at = encoder.offsets["drawn"]
    found = 0
    for game in positions("crazy_eights", options, 1500, seed=1):
        if game.game_over or game.frame.kind != "after_draw":
            continue
        found += 1
        drawer, (drawn,) = game.frame.seat, game.frame.args
        assert game.current_player == drawer
        assert drawn in game.state.hands[drawer]
        for seat in range(game.num_players):
            view = game.view(seat)
            obs = encoder.encode(game, seat)
            feature = obs[at:at + 52]
            if seat == drawer:
                assert view.drawn_card == drawn
                assert np.flatnonzero(feature).tolist() == [drawn]
            else:
                assert view.drawn_card == NO_CARD == -1
                assert not feature.any()
            assert np.array_equal(obs, encoder.encode_view(view))
    assert found >= 20


# ------------------------------------------------------------------ the encoder
@pytest.mark.parametrize("pair", ENCODER_CONFIGS, ids=config_id)
def test_encode_equals_encode_view(pair: tuple[str, dict[str, Any]]) -> None:
    """The generated encode(engine, seat) equals encode_view(view) for every seat over a few
    hundred random positions, and is a float32 vector of the encoder's size."""
    variant, options = pair
    encoder = None
    for game in positions(variant, options, 300, seed=7):
        if encoder is None:
            encoder = type(game).encoder(game.config)
        for seat in range(game.num_players):
            obs = encoder.encode(game, seat)
            assert obs.dtype == np.float32 and obs.shape == (encoder.size,)
            assert np.array_equal(obs, encoder.encode_view(game.view(seat))), (
                f"{variant} {options}: seat {seat} at turn {game.turn}, frame "
                f"{game.state.agenda[-1:]}")


@pytest.mark.parametrize("pair", ENCODER_CONFIGS, ids=config_id)
def test_encoder_layout_is_contiguous(pair: tuple[str, dict[str, Any]]) -> None:
    """The encoded features tile the vector in declaration order; the table has a row each."""
    variant, options = pair
    cls = engine_class(variant)
    game = eights.make_game(variant, seed=0, **options)
    encoder = cls.encoder(game.config)
    pos = 0
    for name, width, _ in encoder.parts:
        assert encoder.offsets[name] == pos
        pos += width
    assert pos == encoder.size
    assert len(encoder.table().splitlines()) == 2 + len(encoder.parts)
    encoded = [f.feature or f.name for f in cls.view_fields if f.encoding is not None]
    assert [name for name, _, _ in encoder.parts] == encoded


# ------------------------------------------------------------------ value_text
@pytest.mark.parametrize(("kind", "value", "text"), [
    ("card", 46, "8S"),
    ("card", 52, "RJ"),
    ("card", NO_CARD, "-"),
    ("cards", (0, 35, 46), "[AC 10H 8S]"),
    ("cards", (), "[]"),
    ("suit", 2, "H"),
    ("suit", -1, "-"),
    ("card_counts", bytes([2, 0, 1] + [0] * 43 + [1] + [0] * 7), "[AC AC 3C 8S]"),
    ("card_counts", bytearray(54), "[]"),
    ("card_counts", (0, 1), "[2C]"),
    ("seat_suits", (0, -1, 3), "(C, -, S)"),
    ("seat_ranks", (1, -1, 13, 10), "(A, -, K, 10)"),
    ("frames", (Frame("turn", 0, (False,)), Frame("suit", 1), Frame("effect", 2, (46, True, 1))),
     "[turn@0(False) suit@1 effect@2(46,True,1)]"),
    ("frames", (), "[]"),
    ("count", 3, "3"),
    ("phase", "choose suit", "choose suit"),
])
def test_value_text(kind: str, value: Any, text: str) -> None:
    """Each kind of field is written in the notation (cards as texts, - for none)."""
    assert value_text(kind, value) == text


# ------------------------------------------------------------------ the view classes
@pytest.mark.parametrize("variant", VARIANTS)
def test_view_class_describes_every_declared_field(variant: str) -> None:
    """The View class has a field and a field kind for every declared non-core field, after
    PlayerView's; its phase names are the variant's phases."""
    cls: type[TableEngine] = engine_class(variant)  # type: ignore[assignment]
    view_cls = cls.View
    assert issubclass(view_cls, PlayerView) and view_cls is not PlayerView
    assert view_cls.__module__ == cls.__module__
    own = [f for f in cls.view_fields if not f.core]
    assert own
    for f in own:
        assert view_cls.field_kinds[f.name] == f.kind
    for name, kind in PlayerView.field_kinds.items():
        assert view_cls.field_kinds[name] == kind
    names = [f.name for f in own]
    assert list(view_cls.__dataclass_fields__)[-len(names):] == names
    assert set(view_cls.field_kinds) == set(PlayerView.field_kinds) | set(names)
    assert view_cls.phase_names == tuple(cls.phases.values())
    phase_fields = [f for f in own if f.kind == "phase"]
    assert [f.names for f in phase_fields] == [view_cls.phase_names]
    assert view_cls.declared_fields == cls.view_fields
    assert view_cls.frame_args == cls.frame_args


@pytest.mark.parametrize("pair", [
    ("crazy_eights", {"num_players": 3, "may_keep_drawn_card": True}),
    ("livery_eights", {"num_players": 3}),
    ("baby_eating_eights", {"num_players": 4, "teams": 2}),
], ids=config_id)
def test_views_pickle_and_unpickle_equal(pair: tuple[str, dict[str, Any]]) -> None:
    """A view pickles (process pools send them) and comes back equal, of its own class."""
    variant, options = pair
    for game in positions(variant, options, 40, seed=11):
        for seat in range(game.num_players):
            view = game.view(seat)
            back = pickle.loads(pickle.dumps(view))
            assert type(back) is type(view)
            assert back == view
            assert back.history() == view.history()


def test_views_fill_declared_fields_with_their_getters() -> None:
    """A view's declared fields are each field's read for that seat."""
    game = eights.make_game("baby_eating_eights", seed=4, num_players=4, teams=2)
    for seat in range(4):
        view = game.view(seat)
        for f in type(game).view_fields:
            if not f.core:
                assert getattr(view, f.name) == f.read(game, seat), f.name


def test_one_hot_ignores_values_out_of_range() -> None:
    """A OneHot writes nothing for a value outside its range (a hidden card, -1)."""
    game = eights.make_game("crazy_eights", seed=0)
    size, write = OneHot(4).bind(game.config)
    assert size == 4
    for value in (-1, 4):
        out = np.zeros(4, np.float32)
        write(out, 0, value, 0)
        assert not out.any()


# ------------------------------------------------------------ one shared encoder per config
def test_envs_of_one_config_share_one_encoder_and_other_configs_do_not() -> None:
    from eights.envs import crazy_eights_v1

    a, b = crazy_eights_v1.raw_env(num_players=2), crazy_eights_v1.raw_env(num_players=2)
    other = crazy_eights_v1.raw_env(num_players=3)
    assert a.encoder is b.encoder
    assert other.encoder is not a.encoder and other.encoder.size != a.encoder.size
    copied = pickle.loads(pickle.dumps(a))  # an unpickled env finds the shared one again
    assert copied.encoder is a.encoder


def test_a_kept_observation_never_changes_when_the_shared_encoder_writes_again() -> None:
    game = eights.make_game("crazy_eights", num_players=2)
    game.reset(seed=5)
    encoder = type(game).encoder(game.config)
    kept = encoder.encode(game, 0)
    before = kept.copy()
    rng = random.Random(5)
    for _ in range(6):
        if game.game_over:
            break
        legal = game.legal_actions()
        game.step(legal[rng.randrange(len(legal))])
        encoder.encode(game, 0)
        encoder.encode(game, 1)
    assert np.array_equal(kept, before)
    assert kept.flags.writeable  # an agent may scale its own copy in place


def test_one_encoder_used_from_many_threads_gives_what_it_gives_alone() -> None:
    """Envs in different threads share an encoder: it keeps no state between calls."""
    from concurrent.futures import ThreadPoolExecutor

    games = []
    for seed in range(8):
        game = eights.make_game("jokers_of_death", num_players=3)
        game.reset(seed=seed)
        for action in random.Random(seed).choices(range(3), k=seed):
            if not game.game_over:
                legal = game.legal_actions()
                game.step(legal[action % len(legal)])
        games.append(game)
    encoder = type(games[0]).encoder(games[0].config)
    alone = [encoder.encode(g, s) for g in games for s in range(3)]

    def encode_many(_: int) -> list[np.ndarray]:
        return [encoder.encode(g, s) for _ in range(50) for g in games for s in range(3)]

    with ThreadPoolExecutor(max_workers=4) as pool:
        for result in pool.map(encode_many, range(4)):
            for i, obs in enumerate(result):
                assert np.array_equal(obs, alone[i % len(alone)])
