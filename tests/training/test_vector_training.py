"""``eights train --vec vector``: the run's envs as eights.vector tables."""

from __future__ import annotations

import pytest

from eights.config import ConfigError
from eights.training.checkpoints import read_metadata
from eights.training.trainer import TrainSettings, train


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
