"""Options that are off add no features: a phase or a field only an option reaches is
declared ``enabled_by`` that option and encoded only while it is on.

The issue this answers: a ``name suit`` phase behind an option that defaults off widened
crazy_eights' observation from 239 to 240 features (every later offset moved) and broke
the shipped model, because every declared phase was encoded whatever the config.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from eights.config import option
from eights.engines import crazy_eights, engine_class
from eights.engines.encoding import Choice, Encoding, OneHot, enabled
from eights.engines.fields import ViewField, check_enabling_options
from eights.variants import REGISTRY
from tests.conftest import option_values, table_sizes

PHASES = (*crazy_eights.PHASES.values(), "name suit")


@dataclasses.dataclass(frozen=True)
class NamingConfig(crazy_eights.CrazyEightsConfig):
    """Crazy Eights with a rule that is off by default: a 3 makes the next player name a
    suit (the worked example of docs/architecture.md)."""

    three_names_suit: bool = option(False, doc="a 3 makes the next player name the suit")


def _fields(phase_options: dict[str, str], extra: tuple[ViewField, ...] = ()):
    """Crazy Eights' declared fields with the phase ``name suit`` added to its phases (and
    ``extra`` fields after the phase): the one change the worked example makes to them."""
    out = []
    for f in crazy_eights.CrazyEightsGame.view_fields:
        if f.name == "phase":
            f = dataclasses.replace(f, encoding=Choice(PHASES, phase_options), names=PHASES)
            out += [f, *extra]
        else:
            out.append(f)
    return tuple(out)


NAMER = ViewField("namer", "seat", "who names the suit for a 3, or -1",
                  "-1", OneHot(8), enabled_by="three_names_suit")


class NamingGame(crazy_eights.CrazyEightsGame):
    """The example's declarations: the phase and a field, each enabled by the option."""

    Config = NamingConfig
    view_fields = _fields({"name suit": "three_names_suit"}, (NAMER,))


def layout(engine, **options) -> list[tuple[str, int, tuple[str, ...]]]:
    encoder = engine.encoder(engine.Config.from_options(**options))
    return [(name, width, encoder.labels[name]) for name, width, _ in encoder.parts]


def test_a_declared_conditional_phase_and_field_appear_only_when_their_option_is_on():
    shipped = layout(crazy_eights.CrazyEightsGame)
    off = layout(NamingGame)
    assert off == shipped  # 239 features, as the shipped model reads them
    on = layout(NamingGame, three_names_suit=True)
    assert ("phase", 4, (*crazy_eights.PHASES.values(), "name suit")) in on
    assert ("namer", 8, ()) in on and "namer" not in {name for name, _, _ in off}
    assert [p for p in on if p[0] not in ("phase", "namer")] == [
        p for p in off if p[0] != "phase"]
    for options in ({}, {"three_names_suit": True}):
        game = NamingGame(seed=3, **options)
        encoder = NamingGame.encoder(game.config)
        observation = encoder.encode(game, game.current_player)
        assert observation.shape == (encoder.size,)
        np.testing.assert_array_equal(
            observation, encoder.encode_view(game.view(game.current_player)))


def test_undeclared_the_phase_widens_the_default_observation():
    """Without ``phase_options`` the experiment of the issue: 239 -> 240 features (the v1
    layout, the shipped model's)."""
    plain = crazy_eights.CrazyEightsGame.Config.from_options()
    widened = crazy_eights.CrazyEightsGame.encoder(plain, 1).size + 1
    fields = _fields({})
    from eights.engines.encoding import Encoder
    assert Encoder(fields, plain, 1).size == widened == 240


@pytest.mark.parametrize("gate", [
    {"phase_options": {"name suit": "three_name_suit"}},
    {"extra": (dataclasses.replace(NAMER, enabled_by="hand_size"),)},
], ids=["misspelt", "not on-off"])
def test_a_declaration_enabled_by_an_unknown_or_non_boolean_option_is_refused(gate):
    fields = _fields(gate.get("phase_options", {}), gate.get("extra", ()))
    with pytest.raises(ValueError, match=r"NamingGame: view field '(phase|namer)' is enabled "
                                         r"by '\w+', which is not an on/off option of "
                                         r"NamingConfig; those are .*three_names_suit"):
        check_enabling_options("NamingGame", fields, NamingConfig)


def test_choice_refuses_to_enable_a_name_it_does_not_have():
    with pytest.raises(ValueError, match=r"enabled_by names 'name suit', which is not one of "
                                         r"its names \(play, choose suit\)"):
        Choice(("play", "choose suit"), {"name suit": "three_names_suit"})


def _features(engine, config) -> list[tuple[str, tuple[str, ...]]]:
    encoder = engine.encoder(config)
    return [(name, encoder.labels[name]) for name, _, _ in encoder.parts]


def _gates(engine) -> tuple[dict[str, str], dict[tuple[str, str], str]]:
    """The declared conditional features of ``engine``: feature -> option, and
    (feature, value) -> option."""
    fields, values = {}, {}
    for f in engine.view_fields:
        feature = f.feature or f.name
        if f.enabled_by:
            fields[feature] = f.enabled_by
        if isinstance(f.encoding, Choice):
            values.update({(feature, name): opt for name, opt in f.encoding.enabled_by})
    return fields, values


def _ungated(engine, config) -> list[tuple[str, tuple[str, ...]]]:
    """The features at ``config`` less the declared conditional ones, each of which must be
    there exactly when its option is on."""
    fields, values = _gates(engine)
    features = _features(engine, config)
    for feature, opt in fields.items():
        assert (feature in {f for f, _ in features}) == enabled(config, opt), (feature, opt)
    out = []
    for feature, labels in features:
        for label in labels:
            if (feature, label) in values:
                assert enabled(config, values[feature, label]), (feature, label)
        if feature not in fields:
            out.append((feature, tuple(v for v in labels if (feature, v) not in values)))
    return out


@pytest.mark.parametrize("variant", REGISTRY)
def test_an_option_changes_widths_never_which_features_there_are(variant):
    """For every option of every variant, at its default and at the values the option sweep
    tries (each at the smallest and the largest table it allows): the observation holds the
    default config's features, in order, with the same phases; only the features declared
    ``enabled_by`` an option that is on come and go. (Table sizes, decks and piles change
    widths.) So an option that is off never adds a feature."""
    engine = engine_class(variant)
    default = engine.Config.from_options()
    expected = _ungated(engine, default)
    for name, f in engine.Config.options().items():
        for value in [f.default, *option_values(engine, name)]:
            for n in table_sizes(engine, {name: value}) if name != "num_players" else [value]:
                config = engine.Config.from_options(**{"num_players": n, name: value})
                assert _ungated(engine, config) == expected, (name, value, n)


def test_encodings_without_named_values_enable_nothing():
    assert Encoding().labels(None) == () and Encoding().options() == ()
