"""The league: PFSP priorities from the learner's results, applied to the pool's draws."""

from __future__ import annotations

import json
import zipfile
from collections import Counter

import numpy as np
import pytest

from eights.cli import LEAGUE_OPPONENTS, main
from eights.config import ConfigError
from eights.training import OpponentPool
from eights.training.league import League
from eights.training.opponents import snapshot_spec


def test_an_opponent_the_learner_beats_is_drawn_less():
    league = League(window=50)
    for _ in range(40):
        league.record(["random"], 1.0)
        league.record(["heuristic"], 0.0)
    assert league.win_rate("random") == pytest.approx(41 / 42)
    assert league.win_rate("heuristic") == pytest.approx(1 / 42)
    assert league.priority("random") == league.floor  # beaten every time: the floor
    assert league.priority("heuristic") == pytest.approx((41 / 42) ** 2)
    assert league.priority("new") == pytest.approx(0.25)  # no results: an even match


def test_only_the_recent_window_counts_and_a_name_seated_twice_counts_once():
    league = League(window=4)
    for _ in range(10):
        league.record(["greedy"], 0.0)
    for _ in range(4):
        league.record(["greedy", "greedy"], 1.0)
    assert league.win_rate("greedy") == pytest.approx(5 / 6)
    assert league.episodes["greedy"] == 14
    table = league.table(["greedy", "random"])
    assert table["greedy"]["games"] == 4 and table["greedy"]["share"] == 1.0
    assert table["random"] == {"games": 0, "win_rate": 0.5, "priority": 0.25, "share": 0.0}


def test_finished_episodes_are_read_from_the_envs_info():
    league = League()
    assert not league.record_info({"seat": 0, "opponents": ["random"]})  # mid-game
    assert league.record_info({"opponents": ["random"], "winners": [0], "is_success": True})
    assert league.record_info({"opponents": ["random"], "winners": [1], "is_success": False})
    assert league.record_info({"opponents": ["random"], "winners": [], "is_success": False})
    assert league.win_rate("random") == pytest.approx((1 + 0 + 0.5 + 1) / 5)


@pytest.mark.parametrize("kwargs", [{"window": 0}, {"floor": 0.0}, {"floor": 2.0},
                                    {"power": -1.0}])
def test_bad_league_settings_are_named(kwargs):
    with pytest.raises(ValueError, match=next(iter(kwargs))):
        League(**kwargs)


def test_a_score_outside_zero_to_one_is_refused():
    with pytest.raises(ValueError, match="score"):
        League().record(["random"], 2.0)


def test_priorities_reweight_the_pools_draws():
    pool = OpponentPool.parse("random@1,greedy@1,self@2")
    pool.set_snapshots(["a.zip", "b.zip"])
    assert pool.members() == [("random", 1.0), ("greedy", 1.0), (snapshot_spec("a.zip"), 1.0),
                              (snapshot_spec("b.zip"), 1.0)]
    pool.set_priorities({"random": 0.1, snapshot_spec("b.zip"): 0.5})
    assert dict(pool.members()) == {"random": 0.1, "greedy": 1.0, snapshot_spec("a.zip"): 1.0,
                                    snapshot_spec("b.zip"): 0.5}
    pool = OpponentPool.parse("random@1,greedy@1")
    pool.set_priorities({"random": 0.25})
    rng = np.random.default_rng(3)
    drawn = Counter(a.name for _ in range(500) for a in pool.draw("crazy_eights", 2, rng))
    assert 0.12 < drawn["random"] / 1000 < 0.28  # 0.25 / 1.25 = 0.2
    pool.set_priorities(None)
    drawn = Counter(a.name for _ in range(500) for a in pool.draw("crazy_eights", 2, rng))
    assert 0.42 < drawn["random"] / 1000 < 0.58


def test_priorities_must_be_positive():
    with pytest.raises(ConfigError, match="positive"):
        OpponentPool.parse("random").set_priorities({"random": 0.0})


def test_a_league_run_records_its_mix(tmp_path):
    out = tmp_path / "run"
    assert main(["train", "--variant", "crazy_eights", "--league", "--timesteps", "1024",
                 "--n-envs", "4", "--n-steps", "64", "--batch-size", "128", "--epochs", "1",
                 "--checkpoint-every", "512", "--eval-games", "2", "--eval-opponents",
                 "random", "--net-arch", "16", "--out", str(out), "--no-progress"]) == 0
    meta = json.loads(zipfile.ZipFile(out / "final.zip").read("eights.json"))
    assert meta["training"]["league"] is True
    assert meta["training"]["opponents"] == LEAGUE_OPPONENTS
    league = meta["league"]
    assert {"heuristic", "greedy", "random"} <= set(league)
    assert any(name.startswith("self step_") for name in league)
    assert sum(row["share"] for row in league.values()) == pytest.approx(1.0, abs=1e-3)
    assert sum(row["games"] for row in league.values()) > 0
    for row in league.values():
        assert row["priority"] == pytest.approx(max(0.05, (1 - row["win_rate"]) ** 2), abs=1e-3)
