"""Smoke test of benchmarks/throughput.py: each measurement runs a handful of games.

Only shapes and signs are checked, never speed: timings belong in the
benchmark's output, not in assertions that flake on a busy machine.
"""

from __future__ import annotations

import importlib.util
import itertools
import json
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("rlcard")

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "throughput.py"
KEYS = {"decisions_per_s", "games_per_s", "decisions_per_game", "games", "decisions", "seconds"}
TINY = {"seconds": 0.01, "max_games": 3}


def _load():
    spec = importlib.util.spec_from_file_location("eights_bench_throughput", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


bench = _load()


def _check(result: dict) -> None:
    assert result.keys() >= KEYS
    assert "totals" not in result
    assert 1 <= result["games"] <= TINY["max_games"]
    for key in ("decisions_per_s", "games_per_s", "decisions_per_game", "seconds"):
        assert result[key] > 0, key
    assert result["decisions_per_game"] == result["decisions"] / result["games"]


@pytest.mark.parametrize(
    ("fn", "kwargs"),
    [
        ("bench_engine", {}),
        ("bench_aec", {}),
        ("bench_aec", {"num_players": 4}),
        ("bench_openspiel", {}),
        ("bench_openspiel", {"observe": False, "num_players": 5}),
        ("bench_rlcard_uno", {}),
        ("bench_vector", {"tables": 8}),
        ("bench_vector", {"tables": 8, "variant": "livery_eights"}),
        ("bench_vector", {"tables": 4, "backend": "python", "num_players": 3}),
        ("bench_vector_learner", {"tables": 8}),
    ],
)
def test_measurement_returns_positive_rates(fn, kwargs):
    _check(getattr(bench, fn)(**TINY, **kwargs))


def test_engine_and_openspiel_extras():
    engine = bench.bench_engine(**TINY)
    assert engine["steps_per_game"] >= engine["decisions_per_game"]
    assert 0 <= engine["truncated_fraction"] <= 1
    ospiel = bench.bench_openspiel(**TINY)
    assert ospiel["chance_steps_per_game"] > 0  # the deal
    assert 0 <= ospiel["single_option_per_game"] <= ospiel["decisions_per_game"]
    assert 0 <= ospiel["no_winner_fraction"] <= 1


@pytest.mark.parametrize(
    ("fn", "kwargs"),
    [("bench_aec", {"env_name": "livery_eights_v1"}), ("bench_pettingzoo_classic", {})],
)
def test_optional_measurement_runs_or_is_unavailable(fn, kwargs):
    try:
        result = getattr(bench, fn)(**TINY, **kwargs)
    except ImportError as err:
        pytest.skip(f"not available: {err}")
    _check(result)


def test_ratios_pass_miss_and_missing_rows():
    results = {
        "aec_2p": {"decisions_per_s": 60_000.0},
        "rlcard_uno": {"decisions_per_s": 40_000.0},
        "engine_2p": {"decisions_per_s": 300_000.0},
        "openspiel_2p": {"skipped": "not available"},
    }
    checks = bench.ratios(results)
    assert checks["aec_vs_rlcard_uno"]["value"] == pytest.approx(1.5)
    assert checks["aec_vs_rlcard_uno"]["status"] == "MISS"
    assert checks["aec_vs_rlcard_uno_core"]["status"] == "PASS"  # the table core's 1.4x
    assert checks["aec_decisions_per_s"]["status"] == "PASS"
    assert checks["engine_vs_openspiel"] == {"value": None, "target": 1.0, "status": "n/a"}


def test_main_writes_json(tmp_path, capsys):
    out = tmp_path / "figures.json"
    assert bench.main(["--seconds", "0.01", "--only", "engine_2p", "aec_2p", "rlcard_uno",
                       "--json", str(out)]) == 0
    assert "Targets" in capsys.readouterr().out
    data = json.loads(out.read_text())
    assert set(data["results"]) == {"engine_2p", "aec_2p", "rlcard_uno"}
    for result in data["results"].values():
        assert result["decisions_per_s"] > 0
    assert set(data["targets"]) == set(bench.TARGETS)
    assert data["targets"]["engine_vs_openspiel"]["status"] == "n/a"
    assert {"python", "numpy", "open_spiel", "rlcard", "pettingzoo", "cpu_count"} <= set(
        data["environment"])


def _busy_play(order: list[str], name: str, seconds: float):
    """A play function that burns ``seconds`` of CPU per game and notes whose game it was."""
    def play(seed: int) -> tuple[int, dict[str, int]]:
        end = time.process_time() + seconds
        while time.process_time() < end:
            pass
        order.append(name)
        return 2, {"n": 1}
    return play


def test_rows_take_turns_and_count_cpu_time(monkeypatch):
    """Two rows are measured in alternating slices, each until its CPU budget is spent."""
    monkeypatch.setattr(bench, "SLICE", 0.02)
    order: list[str] = []
    a = bench.Row(_busy_play(order, "a", 0.005), 1, games_counted="n")
    b = bench.Row(_busy_play(order, "b", 0.005), 1)
    order.clear()  # the warm-up games
    bench.interleave([a, b], 0.06)
    for row in (a, b):
        assert row.cpu >= 0.06
        assert row.result()["decisions_per_s"] == pytest.approx(row.decisions / row.cpu)
    assert a.result()["games_counted"] == 1.0
    # turns: the first row's games are not all played before the second row's
    switches = sum(1 for x, y in itertools.pairwise(order) if x != y)
    assert switches >= 3, order
