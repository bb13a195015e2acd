"""The round-robin: balanced seats, reproducible, stronger agents ranked first."""

from __future__ import annotations

import pytest

from eights import ConfigError
from eights.tournament import round_robin, schedule
from eights.tournament.roundrobin import wilson_interval


def test_schedule_pairs_and_tables() -> None:
    assert schedule(["a", "b", "c"], 2) == [("a", "b"), ("a", "c"), ("b", "c")]
    tables = schedule(["a", "b"], 3)
    assert tables == [("a", "a", "b"), ("a", "b", "b")]
    with pytest.raises(ConfigError, match="two different agents"):
        schedule(["a"], 2)
    with pytest.raises(ConfigError, match="listed twice"):
        schedule(["a", "a", "b"], 2)


def test_round_robin_ranks_and_reproduces() -> None:
    first = round_robin("crazy_eights", ["random", "heuristic"], games=60, seed=4)
    again = round_robin("crazy_eights", ["random", "heuristic"], games=60, seed=4)
    assert [r.spec for r in first.ranking()] == ["heuristic", "random"]
    assert first.agents["heuristic"].wins == again.agents["heuristic"].wins
    h, r = first.agents["heuristic"], first.agents["random"]
    assert h.games == r.games == 60
    assert h.wins + r.wins == 60
    assert h.versus["random"] == [h.wins, 60]


def test_wilson_interval() -> None:
    lo, hi = wilson_interval(50, 100)
    assert lo == pytest.approx(0.404, abs=1e-3) and hi == pytest.approx(0.596, abs=1e-3)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert wilson_interval(10, 10)[1] == 1.0
