"""Ensembles: several policies written as one MLP that plays their mean logits.

``NumpyPolicy.averaged`` builds the network, ``export_ensemble`` (and ``eights
export A B ... OUT``) writes it as an ordinary exported policy.
"""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

from eights import ConfigError, make_game
from eights.agents import PolicyAgent
from eights.agents.policy import MODELS_DIR, NumpyPolicy
from eights.cli import main
from eights.training.checkpoints import export_ensemble


def mlp(widths: list[int], seed: int, activation: str = "tanh") -> NumpyPolicy:
    rng = np.random.default_rng(seed)
    return NumpyPolicy([(rng.normal(size=(a, b)), rng.normal(size=b))
                        for a, b in itertools.pairwise(widths)], activation)


@pytest.mark.parametrize("activation", ["tanh", "relu"])
@pytest.mark.parametrize("widths", [[6, 4], [6, 5, 4], [6, 5, 3, 4]])
@pytest.mark.parametrize("members", [2, 3])
def test_the_ensemble_plays_the_mean_of_its_members_logits(activation, widths, members):
    nets = [mlp(widths, seed, activation) for seed in range(members)]
    obs = np.random.default_rng(9).normal(size=(10, widths[0])).astype(np.float32)
    ensemble = NumpyPolicy.averaged(nets)
    expected = np.mean([net.logits(obs) for net in nets], axis=0)
    np.testing.assert_allclose(ensemble.logits(obs), expected, rtol=1e-5, atol=1e-5)
    assert ensemble.inputs == widths[0] and ensemble.outputs == widths[-1]


def test_members_may_differ_in_width_but_not_in_what_they_read_or_play():
    wide, narrow = mlp([6, 9, 4], 0), mlp([6, 3, 4], 1)
    obs = np.ones((2, 6), np.float32)
    np.testing.assert_allclose(NumpyPolicy.averaged([wide, narrow]).logits(obs),
                               (wide.logits(obs) + narrow.logits(obs)) / 2, rtol=1e-5)
    # other inputs, other outputs, another depth, another activation
    for other in (mlp([7, 3, 4], 1), mlp([6, 3, 5], 1), mlp([6, 3, 3, 4], 1),
                  mlp([6, 3, 4], 1, "relu")):
        with pytest.raises(ConfigError, match="does not fit policy 0"):
            NumpyPolicy.averaged([wide, other])
    with pytest.raises(ConfigError, match="two or more"):
        NumpyPolicy.averaged([wide])


def small_export(tmp_path, name: str, seed: int, hidden: tuple[int, ...] = (8,),
                 **changes) -> str:
    """A small crazy_eights policy written as an export, on the shipped model's metadata;
    it reads the observation alone unless ``count_bins=True`` (then as the shipped one)."""
    shipped, meta = NumpyPolicy.load(MODELS_DIR / "crazy_eights-2p.npz")
    meta = {key: value for key, value in meta.items()
            if key not in ("activation", "layers", "count_bins")}
    meta.update(changes)
    path = tmp_path / name
    inputs = shipped.inputs if meta.get("count_bins") else meta["observation_size"]
    mlp([inputs, *hidden, shipped.outputs], seed).save(path, meta)
    return str(path)


def test_an_exported_ensemble_plays_and_names_its_members(tmp_path):
    sources = [small_export(tmp_path, f"m{k}.npz", k) for k in range(3)]
    out = export_ensemble(sources, tmp_path / "ens.npz")
    _, meta = NumpyPolicy.load(out)
    assert [m["source"] for m in meta["ensemble"]] == ["m0.npz", "m1.npz", "m2.npz"]
    assert len({m["sha256"] for m in meta["ensemble"]}) == 3
    assert meta["variant"] == "crazy_eights" and meta["layers"] == 2
    agent = PolicyAgent("crazy_eights", str(out))
    members = [PolicyAgent("crazy_eights", source) for source in sources]
    game = make_game("crazy_eights", seed=3)
    for _ in range(40):
        if game.game_over:
            break
        view = game.view(game.current_player)
        legal = view.legal_actions
        # the mean of logits: the legal action whose members' log-probabilities sum
        # highest (each member's softmax normaliser is one constant for all actions)
        scores = np.sum([np.log(m.action_probabilities(view)[list(legal)])
                         for m in members], axis=0)
        assert agent.act(view) == legal[int(np.argmax(scores))]
        game.step(agent.act(view))


def test_an_ensemble_of_different_games_or_layouts_is_refused(tmp_path):
    first = small_export(tmp_path, "a.npz", 0)
    config = NumpyPolicy.load(first)[1]["config"]
    for name, changes, field in (("b.npz", {"observation_version": 1, "observation_size": 239},
                                  "observation_version"),
                                 ("c.npz", {"config": {**config, "hand_size": 5}}, "config")):
        other = small_export(tmp_path, name, 1, **changes)
        with pytest.raises(ConfigError, match=field):
            export_ensemble([first, other], tmp_path / "out.npz")
    with pytest.raises(ConfigError, match="two or more"):
        export_ensemble([first], tmp_path / "out.npz")
    with pytest.raises(ConfigError, match=r"must end in \.npz"):
        export_ensemble([first, first], tmp_path / "out.zip")
    assert not (tmp_path / "out.npz").exists()


def test_eights_export_writes_an_ensemble_from_several_sources(tmp_path, capsys):
    sources = [small_export(tmp_path, f"m{k}.npz", k) for k in range(2)]
    out = tmp_path / "both.npz"
    assert main(["export", *sources, str(out)]) == 0
    assert "from 2 policies" in capsys.readouterr().out
    with np.load(out, allow_pickle=False) as data:
        assert len(json.loads(str(data["metadata"]))["ensemble"]) == 2
    assert main(["export", sources[0], str(tmp_path / "again.npz")]) == 2
    assert "already an exported policy" in " ".join(capsys.readouterr().out.split())


def test_a_shipped_model_joins_an_ensemble_by_name(tmp_path):
    small = small_export(tmp_path, "small.npz", 0, hidden=(8, 8),  # the shipped depth
                         count_bins=True)  # and inputs
    out = export_ensemble(["crazy_eights-2p", small], tmp_path / "with-shipped.npz")
    net, meta = NumpyPolicy.load(out)
    assert meta["ensemble"][0]["source"] == "crazy_eights-2p.npz"
    shipped = NumpyPolicy.load(MODELS_DIR / "crazy_eights-2p.npz")[0]
    assert net.layers[0][0].shape == (shipped.inputs, 256 + 8)


def test_an_ensemble_of_exported_files_needs_no_torch(tmp_path, monkeypatch, capsys):
    import sys

    sources = [small_export(tmp_path, f"m{k}.npz", k, hidden=(8, 8),
                            count_bins=True) for k in range(2)]
    monkeypatch.setitem(sys.modules, "torch", None)  # as after `make run`: no torch
    assert main(["export", "crazy_eights-2p", *sources, str(tmp_path / "e.npz")]) == 0
    assert "from 3 policies" in capsys.readouterr().out
