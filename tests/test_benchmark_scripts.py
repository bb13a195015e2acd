"""The strength and tournament benchmark scripts run end to end on a few games.

They assert nothing about speed (figures belong in the benchmarks' output,
not in timed tests), only that the scripts work and the backends agree.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def load(name: str):
    spec = importlib.util.spec_from_file_location(f"eights_bench_{name}", BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_strength_prints_pairwise_rates(capsys):
    assert load("strength").main(["--games", "10", "--agents", "random,heuristic",
                                  "--variants", "crazy_eights"]) == 0
    out = capsys.readouterr().out
    assert "heuristic" in out and "95% CI" in out


def test_tournament_throughput_runs_serial_and_processes(capsys):
    assert load("tournament").main(["--games", "20", "--workers", "2"]) == 0
    out = capsys.readouterr().out
    assert "games/s" in out and "process" in out


def test_strength_against_tables_of_copies(capsys):
    assert load("strength").main(["--games", "8", "--agents", "random,heuristic", "--players",
                                  "4", "--variants", "baby_eating_eights"]) == 0
    assert "3 x heuristic" in capsys.readouterr().out
