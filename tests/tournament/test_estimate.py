"""The duration estimate: said early for a long run, naming the slow agent, and close."""

from __future__ import annotations

import re
import time

from eights.agents import AGENT_KINDS, RandomAgent
from eights.cli import main
from eights.progress import format_duration
from eights.tournament import GameResult, Tournament, estimate
from eights.tournament.estimate import DurationEstimate, format_decision_time

DECISIONS = 20


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def play_out(tournament: Tournament, per_decision: dict[str, float], *, overhead: float = 0.002
             ) -> tuple[list[tuple[float, str]], float]:
    """Feed a whole schedule of made-up games; every agent decides DECISIONS times a game."""
    clock = Clock()
    games = tournament.schedule()
    guess = DurationEstimate(games, clock=clock)
    said = []
    for game in games:
        think = tuple(per_decision[s] * DECISIONS for s in game.seats)
        seconds = sum(think) + overhead
        clock.now += seconds
        result = GameResult(game.index, (0,), (0, 1), (0, 0), False, 40, "", seconds,
                            decisions=(DECISIONS,) * len(game.seats), think=think)
        message = guess.add(game, result)
        if message:
            said.append((clock.now, message))
    return said, clock.now


def test_a_slow_agent_is_announced_once_with_an_accurate_estimate():
    t = Tournament("crazy_eights", ("random", "ismcts:sims=200", "heuristic"), games=100)
    said, total = play_out(t, {"random": 1e-5, "ismcts:sims=200": 0.04, "heuristic": 1e-4})
    assert len(said) == 1
    when, message = said[0]
    assert message == (f"expect about {format_duration(total)} in all "
                       f"(ismcts:sims=200 takes ~40 ms a decision)")
    assert estimate.SETTLE <= when <= estimate.SETTLE + 1  # said as soon as it may be


def test_a_short_run_says_nothing():
    t = Tournament("crazy_eights", ("random", "greedy", "heuristic"), games=100)
    said, total = play_out(t, {"random": 1e-5, "greedy": 1e-5, "heuristic": 1e-4})
    assert said == [] and total < estimate.ANNOUNCE_OVER


def test_many_fast_games_give_the_rate_instead_of_a_culprit():
    t = Tournament("crazy_eights", ("random", "greedy"), games=40_000)
    said, total = play_out(t, {"random": 5e-5, "greedy": 5e-5}, overhead=0.003)
    assert len(said) == 1
    when, message = said[0]
    left = round(t.total_games - when / 0.005)
    assert message == (f"expect about {format_duration(total)} in all ({left:,} games to play "
                       f"at ~200 games/s)")


def test_an_agent_that_plays_late_gives_a_lower_bound_first():
    # the slow agent fills the first tables; "late" plays its first game at table 3
    t = Tournament("crazy_eights", ("slow", "a", "b", "late"), games=20)
    said, total = play_out(t, {"slow": 0.5, "a": 1e-4, "b": 1e-4, "late": 0.2})
    assert len(said) == 2
    (first_at, first), (_, second) = said
    assert first_at >= estimate.PATIENCE
    assert first.startswith("expect at least ") and first.endswith("(not timed yet: b, late)")
    assert second == (f"expect about {format_duration(total)} in all "
                      f"(slow takes ~500 ms a decision, late ~200 ms)")


def test_decision_times_read_well():
    assert [format_decision_time(s) for s in (0.04, 0.0003, 1.234, 0.0123)] == [
        "~40 ms", "~0.3 ms", "~1.2 s", "~12 ms"]


class Sleepy(RandomAgent):
    """A random agent that takes 5 ms over each decision."""

    def act(self, view):
        time.sleep(0.005)
        return super().act(view)


def test_the_command_says_how_long_a_slow_tournament_will_take(monkeypatch, capsys):
    monkeypatch.setitem(AGENT_KINDS, "sleepy", lambda variant, arg, seed: Sleepy(seed))
    monkeypatch.setattr(estimate, "ANNOUNCE_OVER", 0.5)
    monkeypatch.setattr(estimate, "SETTLE", 0.5)
    assert main(["tournament", "--agents", "sleepy,random,greedy", "--games", "10",
                 "--no-progress"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    said = re.search(r"expect about (\d+) s in all \(sleepy takes ~([\d.]+) ms a decision\)",
                     out)
    assert said, out
    assert 4.5 <= float(said[2]) <= 30  # a sleep of 5 ms, on a busy machine perhaps more
    took = float(re.search(r"30 games played in ([\d.]+) s", out)[1])
    assert took / 3 <= int(said[1]) <= took * 3 + 1


def test_a_fast_tournament_says_nothing(capsys):
    assert main(["tournament", "--agents", "random,greedy", "--games", "20",
                 "--no-progress"]) == 0
    assert "expect" not in capsys.readouterr().out
