"""Whole tournaments: resume after a kill, the same results on every backend, ranking."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from eights.agents import AGENT_KINDS, AgentForfeit
from eights.cli import main
from eights.tournament import RESULTS_FILE, Tournament, run_tournament
from tests.tournament.conftest import Misbehaving, stored_games

MIXED = Tournament("crazy_eights", ("random", "greedy", "heuristic", "policy", "ismcts:sims=8"),
                   games=8, seed=5)


def figures(result) -> list[tuple]:
    return [(s.agent, s.wins, s.games, round(s.rating, 9), round(s.margin, 9))
            for s in result.standings]


def test_serial_and_process_runs_give_identical_results(tmp_path):
    serial = run_tournament(MIXED, tmp_path / "serial", report=False)
    procs = run_tournament(MIXED, tmp_path / "process", backend="process", workers=2,
                           report=False)
    assert stored_games(tmp_path / "serial") == stored_games(tmp_path / "process")
    assert figures(serial) == figures(procs)
    assert serial.games_played == MIXED.total_games == 10 * 8


@pytest.mark.xdist_group("ray")  # on the worker that has Ray imported already
def test_ray_run_gives_identical_results(tmp_path):
    pytest.importorskip("ray", reason="the ray extra is not installed")
    serial = run_tournament(MIXED, tmp_path / "serial", report=False)
    on_ray = run_tournament(MIXED, tmp_path / "ray", backend="ray", workers=2, report=False)
    assert stored_games(tmp_path / "serial") == stored_games(tmp_path / "ray")
    assert figures(serial) == figures(on_ray)


def test_a_killed_tournament_resumes_losing_and_repeating_nothing(tmp_path):
    out = tmp_path / "run"
    args = ["tournament", "--agents", "random,greedy", "--games", "800", "--seed", "9",
            "--out", str(out), "--no-progress", "--no-report"]
    proc = subprocess.Popen([sys.executable, "-m", "eights.cli", *args],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    stored = 0
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
        if (out / RESULTS_FILE).exists():
            try:
                db = sqlite3.connect(out / RESULTS_FILE)
                stored = db.execute("SELECT count(*) FROM games").fetchone()[0]
                db.close()
            except sqlite3.OperationalError:
                continue  # the schema is being written
            if stored >= 100:
                break
    assert proc.poll() is None, "the tournament finished before it could be killed"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    before = stored_games(out)
    assert 100 <= len(before) < 800

    assert main(args) == 0  # the same command
    after = stored_games(out)
    assert [r[0] for r in after] == list(range(800))
    assert after[:len(before)] == before  # nothing stored before the kill was replayed
    summary = json.loads((out / "summary.json").read_text())
    assert summary["games_played"] == 800

    straight = run_tournament(Tournament("crazy_eights", ("random", "greedy"), games=800,
                                         seed=9), tmp_path / "straight", report=False)
    assert stored_games(tmp_path / "straight") == after
    assert figures(straight) == [(s["agent"], s["wins"], s["games"], round(s["rating"], 9),
                                  round(s["margin"], 9)) for s in summary["standings"]]


def test_a_finished_tournament_resumes_with_nothing_to_play(tmp_path):
    first = run_tournament(MIXED, tmp_path, report=False)
    again = run_tournament(MIXED, tmp_path, report=False)
    assert (again.resumed, again.played_now) == (MIXED.total_games, 0)
    assert figures(first) == figures(again)


@pytest.mark.parametrize("players", [2, 4])
def test_a_clearly_stronger_agent_is_ranked_first(players):
    t = Tournament("crazy_eights", ("random", "greedy", "heuristic"), num_players=players,
                   games=60, seed=2)
    result = run_tournament(t)
    assert result.ranking()[0] == "heuristic"
    assert result.ranking()[-1] == "random"
    best, worst = result.standing("heuristic"), result.standing("random")
    assert best.rating_low > worst.rating_high  # the intervals separate them


def test_livery_ranks_use_penalty_points():
    t = Tournament("livery_eights", ("random", "heuristic"), num_players=3, games=30, seed=1)
    result = run_tournament(t)
    assert result.ranking() == ["heuristic", "random"]
    assert result.standing("heuristic").margin > 0 > result.standing("random").margin


def test_a_script_without_a_main_guard_gets_a_clear_error(tmp_path):
    script = tmp_path / "unguarded.py"
    script.write_text(
        "from eights.tournament import Tournament, run_tournament\n"
        "run_tournament(Tournament('crazy_eights', ('random', 'greedy'), games=4),"
        " backend='process', workers=1)\n")
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode != 0
    assert 'if __name__ == "__main__"' in proc.stderr


class Forfeiter(Misbehaving):
    """Plays two random moves, then gives up, as an external bot told to forfeit would."""

    def misbehave(self):
        if self.asked > 2:
            raise AgentForfeit("gave up")


def test_a_forfeit_loses_that_game_and_the_tournament_goes_on(tmp_path, monkeypatch, caplog):
    monkeypatch.setitem(AGENT_KINDS, "forfeiter", lambda variant, arg, seed: Forfeiter(seed))
    t = Tournament("crazy_eights", ("forfeiter", "random", "greedy"), num_players=3, games=6)
    result = run_tournament(t, tmp_path, report=False)
    assert result.complete
    quitter = result.standing("forfeiter")
    assert quitter.forfeits == quitter.games == 6 and quitter.wins == 0
    assert result.ranking()[-1] == "forfeiter"
    assert "forfeits: gave up" in caplog.text
    db = sqlite3.connect(tmp_path / RESULTS_FILE)
    for seats, winners, ranks, forfeit in db.execute(
            "SELECT seats, winners, ranks, forfeit FROM games"):
        seat = json.loads(seats).index("forfeiter")
        assert forfeit == seat
        assert sorted(json.loads(winners)) == [p for p in range(3) if p != seat]
        assert json.loads(ranks)[seat] == 2


def test_a_team_tournament_scores_each_team_as_one_agent(tmp_path):
    t = Tournament("baby_eating_eights", ("heuristic", "random"), num_players=4, games=40,
                   seed=3, options={"teams": 2})
    result = run_tournament(t, tmp_path / "teams", report=False)
    by_agent = {s.agent: s for s in result.standings}
    # every game has one winning team: the two agents' wins add up to the games played
    ended = [g for g in stored_games(tmp_path / "teams") if json.loads(g[3])]
    assert by_agent["heuristic"].wins + by_agent["random"].wins == len(ended)
    assert by_agent["heuristic"].wins > by_agent["random"].wins
    assert result.standings[0].agent == "heuristic"
