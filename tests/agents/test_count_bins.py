"""Count bins (`eights.agents.count_bins`): the small counts of an observation as thresholds."""

from __future__ import annotations

import json

import numpy as np
import pytest

from eights.agents.count_bins import THRESHOLDS, CountBins
from eights.agents.policy import NumpyPolicy, check_model
from eights.config import ConfigError
from eights.engines import engine_class
from eights.envs import env_module

TABLES = [("crazy_eights", 2), ("livery_eights", 3), ("crazier_eights", 2),
          ("jokers_of_death", 3), ("baby_eating_eights", 4)]


def _expected(view, feature: str) -> list[int]:
    """The counts a feature's bins stand for, read from the view itself."""
    n, seat = view.num_players, view.seat
    others = [(seat + k) % n for k in range(1, n)]
    if feature == "hand":
        return [len(view.hand)]
    if feature == "hand_sizes":
        return [view.hand_sizes[q] for q in others]
    if feature == "stock":
        return [view.stock_size]
    return [view.drawn_since_play[q] for q in others]


@pytest.mark.parametrize("variant, players", TABLES)
def test_bins_say_the_views_counts(variant, players):
    """At every decision of random games the bins are the thresholds of the true counts:
    each count is read back exactly from the scaled features."""
    env = env_module(variant).env(num_players=players)
    raw = env.unwrapped
    bins = CountBins.for_variant(variant, raw.engine.config)
    assert [c.feature for c in bins.counts] == list(THRESHOLDS)
    rng = np.random.default_rng(3)
    checked = 0
    for game in range(4):
        env.reset(seed=game)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            view = raw.engine.view(raw._seat[agent])
            out = bins.apply(obs["observation"])
            assert out.dtype == np.float32 and out.shape == (bins.observation_size + bins.size,)
            np.testing.assert_array_equal(out[:bins.observation_size], obs["observation"])
            at = bins.observation_size
            for c in bins.counts:
                want = [[float(count >= t) for t in c.thresholds]
                        for count in _expected(view, c.feature)]
                got = out[at:at + c.size].reshape(len(want), -1)
                np.testing.assert_array_equal(got, np.array(want, np.float32), err_msg=c.feature)
                at += c.size
            checked += 1
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            if checked > 400:
                return


def test_rows_and_one_observation_agree():
    config = engine_class("crazy_eights").Config.from_options(num_players=2)
    bins = CountBins.for_variant("crazy_eights", config)
    rows = np.random.default_rng(0).random((5, bins.observation_size)).astype(np.float32)
    np.testing.assert_array_equal(bins.apply(rows)[2], bins.apply(rows[2]))
    with pytest.raises(ConfigError, match="348 features, not 10"):
        bins.apply(np.zeros(10))


def test_an_older_observation_version_has_no_drawn_since_bins():
    config = engine_class("crazy_eights").Config.from_options(num_players=2)
    assert "drawn_since" not in [c.feature for c in CountBins.for_variant(
        "crazy_eights", config, 1).counts]


def _saved(tmp_path, net, meta, name="m.npz"):
    return net.save(tmp_path / name, meta)


def _plain_policy():
    """A small random crazy_eights 2p policy without bins, and its metadata."""
    config = engine_class("crazy_eights").Config.from_options(num_players=2)
    rng = np.random.default_rng(5)
    net = NumpyPolicy([(rng.normal(size=(348, 16)).astype(np.float32), np.zeros(16)),
                       (rng.normal(size=(16, 58)).astype(np.float32), np.zeros(58))], "tanh")
    return net, {"variant": "crazy_eights", "config": config.to_dict(),
                 "observation_size": 348, "observation_version": 2}


def test_a_plain_policy_with_zero_bin_weights_plays_as_before(tmp_path):
    net, meta = _plain_policy()
    config = check_model(net, meta, "crazy_eights", "shipped")
    bins = CountBins.for_variant("crazy_eights", config, meta["observation_version"])
    padded = net.with_count_bins(bins)
    assert padded.inputs == net.inputs + bins.size
    obs = np.random.default_rng(1).random((7, net.inputs)).astype(np.float32)
    np.testing.assert_allclose(padded.logits(obs), net.logits(obs), rtol=1e-5, atol=1e-5)
    path = _saved(tmp_path, padded, {**meta, "count_bins": True})
    loaded, loaded_meta = NumpyPolicy.load(path)
    check_model(loaded, loaded_meta, "crazy_eights", path)
    assert loaded.count_bins == bins
    np.testing.assert_allclose(loaded.logits(obs), net.logits(obs), rtol=1e-5, atol=1e-5)
    with pytest.raises(ConfigError, match="reads count bins already"):
        padded.with_count_bins(bins)


def test_bin_weights_change_the_play(tmp_path):
    """The bins reach the first layer: weights on them change the logits."""
    net, meta = _plain_policy()
    config = check_model(net, meta, "crazy_eights", "shipped")
    padded = net.with_count_bins(CountBins.for_variant("crazy_eights", config))
    w0 = padded.layers[0][0]
    w0[net.inputs:] = 1.0
    obs = np.zeros((1, net.inputs), np.float32)
    obs[0, 0] = 0.5  # one card in hand: the own-hand bin ">= 1" is on
    assert not np.allclose(padded.logits(obs), net.logits(obs))


@pytest.mark.parametrize("meta_change, message", [
    ({"count_bins": "yes"}, "'count_bins' is 'yes'; it is true or false"),
    ({"count_bins": False}, "takes 387 inputs, but crazy_eights with its config gives 348"),
])
def test_metadata_that_does_not_fit_the_network_is_refused(tmp_path, meta_change, message):
    net, meta = _plain_policy()
    config = check_model(net, meta, "crazy_eights", "shipped")
    padded = net.with_count_bins(CountBins.for_variant("crazy_eights", config))
    path = _saved(tmp_path, padded, {**meta, **meta_change})
    loaded, loaded_meta = NumpyPolicy.load(path)
    with pytest.raises(ConfigError, match=message):
        check_model(loaded, loaded_meta, "crazy_eights", path)


def test_a_plain_network_that_claims_bins_is_refused(tmp_path):
    net, meta = _plain_policy()
    path = _saved(tmp_path, net, {**meta, "count_bins": True})
    loaded, loaded_meta = NumpyPolicy.load(path)
    assert json.loads(str(np.load(path)["metadata"]))["count_bins"] is True
    with pytest.raises(ConfigError, match="gives 348 observation features and 39 count bins"):
        check_model(loaded, loaded_meta, "crazy_eights", path)


def test_an_ensemble_does_not_mix_inputs():
    net, meta = _plain_policy()
    config = check_model(net, meta, "crazy_eights", "shipped")
    padded = net.with_count_bins(CountBins.for_variant("crazy_eights", config))
    both = NumpyPolicy.averaged([padded, padded])
    assert both.count_bins == padded.count_bins
    other = NumpyPolicy([(padded.layers[0][0].copy(), padded.layers[0][1]), *padded.layers[1:]],
                        padded.activation)
    with pytest.raises(ConfigError, match="policy 1 of the ensemble reads no count bins"):
        NumpyPolicy.averaged([padded, other])


def test_the_agent_reads_the_bins_at_its_tables_scales(tmp_path):
    """A two-deck model at a one-deck table: one copy of a card is one card, and a hand
    size is scaled by 52, so the bins are read back at the table's scales."""
    from eights.agents.policy import PolicyAgent

    net, meta = _plain_policy()
    config = check_model(net, meta, "crazy_eights", "small")
    path = _saved(tmp_path, net.with_count_bins(CountBins.for_variant("crazy_eights", config)),
                  {**meta, "count_bins": True})
    agent = PolicyAgent("crazy_eights", str(path))
    one_deck = engine_class("crazy_eights").Config.from_options(num_players=2, num_decks=1)
    agent.check_table(one_deck)
    assert agent._net.count_bins == CountBins.for_variant("crazy_eights", one_deck, 2)
    assert agent._net.count_bins != CountBins.for_variant("crazy_eights", config, 2)
