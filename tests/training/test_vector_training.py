"""``eights train --vec vector``: the run's envs as eights.vector tables (and ``auto``, the
default, which takes them where the run can)."""

from __future__ import annotations

import json

import pytest
from rich.console import Console

from eights.config import ConfigError
from eights.training.checkpoints import read_metadata
from eights.training.products import backend_name
from eights.training.trainer import TrainSettings, env_kind, train


@pytest.mark.parametrize("variant", ["crazy_eights", "baby_eating_eights"])  # compiled; Python
def test_a_league_run_on_vector_tables(tmp_path, variant):
    """The pool's members play (the compiled heuristic, greedy and random from the masks,
    the run's own checkpoints in one forward pass) and the league counts their games."""
    result = train(TrainSettings(variant=variant, out=str(tmp_path / "run"), timesteps=512,
                                 n_envs=4, n_steps=64, batch_size=128, n_epochs=1,
                                 checkpoint_every=256, eval_games=2, net_arch=(16,),
                                 vec="vector", league=True, eval_opponents="random",
                                 progress=False))
    assert result.timesteps >= 512
    league = read_metadata(result.final)["league"]
    assert sum(row["games"] for row in league.values()) > 0
    assert any(name.startswith("self step_") for name in league)


def test_the_vector_tables_refuse_the_privileged_critic():
    with pytest.raises(ConfigError, match="privileged"):
        TrainSettings(vec="vector", privileged_critic=True).check()


@pytest.mark.parametrize(("settings", "kind"), [
    ({}, "vector"),
    ({"variant": "jokers_of_death", "num_players": 3}, "vector"),
    ({"privileged_critic": True}, "batched"),
    ({"opponents": "heuristic@0.5,ismcts:sims=5@0.5"}, "batched"),
    ({"opponents": "random,greedy,policy,self"}, "vector"),
    ({"observation_version": 1}, "vector"),
    ({"vec": "dummy"}, "dummy"),
], ids=["defaults", "jokers", "critic", "python-agent", "batched-kinds", "v1", "named"])
def test_auto_takes_the_vector_tables_where_the_run_can(settings, kind):
    assert TrainSettings().vec == "auto"
    assert env_kind(TrainSettings(**settings)) == kind


def test_a_run_records_the_env_it_stepped(tmp_path, capsys):
    """``auto`` is resolved before the run starts: its log, settings.json and the
    checkpoints say which env ran, so a resumed run steps the same one."""
    result = train(TrainSettings(out=str(tmp_path / "run"), timesteps=256, n_envs=2,
                                 n_steps=64, batch_size=128, n_epochs=1, checkpoint_every=128,
                                 eval_games=2, net_arch=(16,), opponents="heuristic",
                                 eval_opponents="random", progress=False), console=Console())
    out = capsys.readouterr().out
    assert "2 envs (eights.vector tables, --vec vector)" in out
    assert f"the network's products through {backend_name()}" in out
    assert json.loads((result.run_dir / "settings.json").read_text())["vec"] == "vector"
    assert read_metadata(result.final)["training"]["vec"] == "vector"
