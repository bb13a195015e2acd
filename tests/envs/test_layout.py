"""A layout cannot change unversioned: every registered env version's observation and action
layout equals its checked-in fingerprint (eights/envs/layouts/<env>.json), and every
fingerprinted version has its line in the env's version history."""

from __future__ import annotations

import dataclasses
import importlib
import json
import shutil

import pytest

from eights.engines.blocks import ActionSpace, Block
from eights.engines.crazy_eights import PHASES, CrazyEightsGame
from eights.engines.encoding import Choice
from eights.envs import layout
from eights.variants import REGISTRY


@pytest.mark.parametrize("variant", REGISTRY)
def test_every_env_versions_layout_is_its_fingerprint(variant):
    state, message = layout.check(variant)
    assert state == "ok", message


def test_every_fingerprinted_version_has_its_version_history_line():
    """PettingZoo's classic envs keep a "Version History" in their module docstrings; ours
    are the EnvDoc histories (docs/envs/<variant>.md shows them)."""
    found = layout.fingerprinted()
    for variant in REGISTRY.values():
        assert (variant.env_name, variant.env_version) in found, layout.missing(variant.env_name)
    for env_name, version in found:
        variant = env_name.rsplit("_v", 1)[0]
        assert variant in REGISTRY, f"{env_name}.json fingerprints no registered variant"
        doc = importlib.import_module(REGISTRY[variant].env).DOC
        assert version in {v for v, _ in doc.history}, (
            f"{env_name} is fingerprinted but {REGISTRY[variant].env}'s version history has "
            f"no line for v{version}")


def _with_phase(engine, name: str):
    """``engine``'s declared fields with one more phase, declared by nobody as an option's:
    the one-rule change of the issue."""
    fields = []
    for f in engine.view_fields:
        if f.name == "phase":
            names = (*f.names, name)
            f = dataclasses.replace(f, encoding=Choice(names), names=names)
        fields.append(f)
    return tuple(fields)


def test_an_unversioned_observation_change_is_named_with_what_to_do(monkeypatch):
    monkeypatch.setattr(CrazyEightsGame, "view_fields", _with_phase(CrazyEightsGame,
                                                                    "name suit"))
    state, message = layout.check("crazy_eights")
    assert state == "changed"
    assert message.startswith(
        "crazy_eights_v1's layout differs from its fingerprint crazy_eights_v1.json: the "
        "observation at the defaults (2 players): field 3 'phase' (offset 108): width 3 -> 4, "
        "+ value 'name suit'; size 239 -> 240. ")
    assert ("add eights/envs/crazy_eights_v3.py (its EnvDoc history with a line for v3 "
            "saying what changed; a new field declared since=3), register it in "
            "eights/variants.py, then run `make regen`" in message)


def test_an_unversioned_action_space_change_is_named(monkeypatch):
    blocks = [*CrazyEightsGame.actions.blocks.values(), Block("knock", "knock")]
    monkeypatch.setattr(CrazyEightsGame, "actions", ActionSpace(*blocks))
    state, message = layout.check("crazy_eights")
    assert state == "changed"
    assert ("the action space: action block 4 was nothing, is 'knock' `knock` (ids 58-58); "
            "58 -> 59 actions") in message


def test_a_change_only_a_bigger_table_shows_is_caught_by_its_digest():
    stored = layout.fingerprint("crazy_eights", version=1)
    current = json.loads(json.dumps(stored))
    current["largest_table"]["sha256"] = "0" * 64
    assert layout.differences(stored, current) == [
        "the layout at 8 players (the largest table): digest differs (size 359 -> 359, "
        "8 players now)"]


def test_the_writer_adds_missing_fingerprints_and_never_rewrites_a_changed_one(
        tmp_path, monkeypatch, capsys):
    root = tmp_path / "layouts"
    shutil.copytree(layout.LAYOUTS, root)
    (root / "livery_eights_v1.json").unlink()
    assert layout.main(["--root", str(root), "--check"]) == 1
    assert ("livery_eights_v1.json is out of date (no fingerprint of livery_eights_v1): run "
            "`make regen` and review the diff") in capsys.readouterr().err
    assert layout.main(["--root", str(root)]) == 0
    assert (root / "livery_eights_v1.json").read_text() == (
        layout.LAYOUTS / "livery_eights_v1.json").read_text()
    before = (root / "crazy_eights_v1.json").read_text()
    monkeypatch.setattr(CrazyEightsGame, "view_fields", _with_phase(CrazyEightsGame, "x"))
    assert layout.main(["--root", str(root)]) == 1
    assert "error: crazy_eights_v1's layout differs" in capsys.readouterr().err
    assert (root / "crazy_eights_v1.json").read_text() == before


def test_the_fingerprint_names_the_phases_the_shipped_model_reads():
    fields = {f["feature"]: f for f in layout.fingerprint("crazy_eights")["observation"]}
    assert fields["phase"]["values"] == list(PHASES.values())


@pytest.mark.parametrize("variant", [v for v in REGISTRY if REGISTRY[v].env_version >= 2])
def test_a_new_version_appends_its_fields_and_the_old_versions_observation_is_unchanged(
        variant):
    """v2 adds the public history after the v1 features: the v1 env gives exactly the
    features it always did (its fingerprint above), which are v2's first ones."""
    import random

    old = importlib.import_module(f"eights.envs.{variant}_v1").raw_env()
    new = importlib.import_module(f"eights.envs.{variant}_v2").raw_env()
    assert old.metadata["name"] == f"{variant}_v1" and new.metadata["name"] == f"{variant}_v2"
    assert new.encoder.size > old.encoder.size
    for env in (old, new):
        env.reset(seed=3)
    rng = random.Random(0)
    for _ in range(40):
        if old.engine.game_over:
            break
        for seat, agent in enumerate(old.possible_agents):
            a, b = old.observe(agent)["observation"], new.observe(agent)["observation"]
            assert (b[:a.size] == a).all(), seat
        action = rng.choice(old.engine.legal_actions())
        old.step(action)
        new.step(action)
