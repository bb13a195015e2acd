"""Failures in the standings: counted per game and seat, totalled per agent, bots that never ran.

The counting itself is tried with an in-process agent that counts failures
of its own (fast, exact); real external bots (tests/protocol/bots/fake_bot.py,
and a Python that exits at once) check the whole path, including a bot that
never started and how it is shown.
"""

from __future__ import annotations

import csv
import json
import re
import sqlite3
from io import StringIO

import pytest
from rich.console import Console

from eights.agents import AGENT_KINDS
from eights.tournament import RESULTS_FILE, Tournament, run_tournament
from eights.tournament.console import standings_table
from eights.tournament.failures import FailureTally
from eights.tournament.text import failures_text
from tests.protocol.conftest import fake_bot, python_bot
from tests.tournament.conftest import Misbehaving


class Stumbler(Misbehaving):
    """Every second decision of a game 'times out' and is replaced by a random move."""

    def misbehave(self):
        if self.asked % 2 == 0:
            self.failures["timeout"] += 1
            self.failures["fallback"] += 1


def rows(out) -> list[tuple[list[str], list[int] | None, list[dict] | None, int]]:
    db = sqlite3.connect(out / RESULTS_FILE)
    found = [(json.loads(seats), None if d is None else json.loads(d),
              None if f is None else json.loads(f), forfeit)
             for seats, d, f, forfeit in db.execute(
                 "SELECT seats, decisions, failures, forfeit FROM games ORDER BY idx")]
    db.close()
    return found


def console_text(result) -> str:
    buffer = StringIO()
    Console(file=buffer, width=250).print(standings_table(result))
    return buffer.getvalue()


def test_failures_are_stored_per_game_and_seat_and_totalled_per_agent(tmp_path, monkeypatch):
    monkeypatch.setitem(AGENT_KINDS, "stumbler", lambda variant, arg, seed: Stumbler(seed))
    t = Tournament("crazy_eights", ("stumbler", "random", "greedy"), num_players=3, games=6)
    result = run_tournament(t, tmp_path)
    expected = 0
    for seats, decisions, failures, _ in rows(tmp_path):
        for k, agent in enumerate(seats):
            if agent == "stumbler":
                n = decisions[k] // 2
                assert failures[k] == ({"fallback": n, "timeout": n} if n else {})
                expected += n
            else:
                assert failures[k] == {} and decisions[k] > 0
    assert expected > 0
    s = result.standing("stumbler")
    assert s.failures == {"fallback": expected, "timeout": expected} and not s.never_started
    assert result.standing("random").failures == {}
    text = f"{expected:,} fallbacks ({expected:,} timeouts)"
    assert failures_text(s.failures, s.forfeits) == text

    summary = json.loads((tmp_path / "summary.json").read_text())
    by_agent = {row["agent"]: row for row in summary["standings"]}
    assert by_agent["stumbler"]["failures"] == {"fallback": expected, "timeout": expected}
    assert by_agent["greedy"]["failures"] == {} and by_agent["greedy"]["never_started"] is False
    with open(tmp_path / "standings.csv") as f:
        csv_rows = {row["agent"]: row for row in csv.DictReader(f)}
    assert csv_rows["stumbler"]["failures"] == text and csv_rows["random"]["failures"] == ""
    assert text in (tmp_path / "report.html").read_text()
    assert "failures" in console_text(result) and text in console_text(result)


def test_a_clean_tournament_has_no_failures_column_at_the_console():
    t = Tournament("crazy_eights", ("random", "greedy"), games=4)
    result = run_tournament(t)
    assert all(s.failures == {} and s.forfeits == 0 for s in result.standings)
    assert "failures" not in console_text(result)


def test_a_bot_that_never_started_is_unranked_and_listed_last(tmp_path):
    dead = python_bot("-c", "import sys; sys.exit(3)")  # a program that dies at startup
    babbler = fake_bot("garbage", "--after", "3")  # starts, then answers garbage
    t = Tournament("livery_eights", (dead, "heuristic", babbler), games=2, seed=1)
    result = run_tournament(t, tmp_path)
    assert result.complete
    assert result.ranking()[-1] == dead  # whatever its figures
    assert {s.agent for s in result.ranked()} == {"heuristic", babbler}
    gone, noisy = result.standing(dead), result.standing(babbler)
    assert gone.never_started and not noisy.never_started
    assert gone.failures["failed_start"] >= 4 and gone.failures["crash"] >= 4
    assert gone.failures["restart"] >= 3 and gone.failures["fallback"] > 0
    assert noisy.failures["fallback"] == noisy.failures["malformed"] > 0
    assert "failed_start" not in noisy.failures and "restart" not in noisy.failures

    table = console_text(result)
    row = next(line for line in table.splitlines() if "sys.exit(3)" in line)
    cells = [cell.strip() for cell in row.split("│")]
    assert cells[1] == "-" and cells[3:7] == ["-"] * 4  # no rank, no figures of its own
    assert cells[8].startswith("never started: ") and "failed starts" in cells[8]
    # the rank column of every row's first line (long specs fold onto more lines, whose
    # rank cell is empty, so the check does not depend on where the checkout lies)
    ranks = [cells[1] for cells in (line.split("│") for line in table.splitlines())
             if len(cells) > 2 and cells[1].strip() and cells[1].strip() != "#"]
    assert [r.strip() for r in ranks] == ["1", "2", "-"]
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert [s["never_started"] for s in summary["standings"]] == [False, False, True]
    page = (tmp_path / "report.html").read_text()
    assert "never started: " in page and "listed last and unranked" in page
    standings = page[page.index("<h2>Standings"):page.index("<h2>Head to head")]
    header = standings[standings.index("<thead>"):standings.index("</thead>")]
    rows = standings[standings.index("<tbody>"):].split("<tr>")[1:]
    assert len(rows) == 3
    for row in rows:  # every row has a cell under every heading
        assert row.count("<td>") == header.count("<th>") == 11
    cells = re.findall(r"<td>(.*?)</td>", rows[-1])
    assert cells[0] == "-" and cells[5] == "4" and cells[10].startswith("never started: ")


def test_a_forfeiting_bot_that_never_started(tmp_path):
    dead = python_bot("-c", "import sys; sys.exit(3)") + "?on_error=forfeit"
    t = Tournament("crazy_eights", ("random", dead), games=4, seed=2)
    result = run_tournament(t, report=False)
    s = result.standing(dead)
    assert s.never_started and s.forfeits == 4 and s.wins == 0
    assert s.failures == {"crash": 4, "failed_start": 4, "restart": 3}
    assert failures_text(s.failures, s.forfeits, s.never_started) == (
        "never started: 4 failed starts, 3 restarts, 4 forfeits (4 crashes)")
    assert result.ranking() == ["random", dead]


def test_failures_are_the_same_on_every_backend(tmp_path):
    # every answer is garbage, so every move is a fallback drawn from the agent's seeded
    # generator: the games, and the failures, depend on the schedule alone
    babbler = fake_bot("garbage")
    t = Tournament("crazy_eights", ("greedy", babbler, "random"), games=2, seed=4)
    serial = run_tournament(t, tmp_path / "serial", report=False)
    procs = run_tournament(t, tmp_path / "process", backend="process", workers=2, report=False)
    assert rows(tmp_path / "serial") == rows(tmp_path / "process")
    assert serial.standing(babbler).failures == procs.standing(babbler).failures
    assert serial.standing(babbler).failures["malformed"] > 0


@pytest.mark.parametrize(("seats", "never"), [
    ([(5, {"failed_start": 1, "crash": 1, "fallback": 5}, False)], True),
    ([(5, {"failed_start": 1, "fallback": 4}, True)], True),  # the last one forfeited
    ([(5, {"failed_start": 1, "fallback": 4}, False)], False),  # it answered one decision
    ([(5, {"malformed": 5, "fallback": 5}, False)], False),  # it started, then babbled
    ([(5, {"failed_start": 1, "fallback": 5}, False), (0, {}, False)], True),
    # an older row did not record decisions: the question stays open, it is ranked
    ([(5, {"failed_start": 1, "fallback": 5}, False), (None, None, False)], False),
    ([(0, {}, False)], False),  # never asked at all
])
def test_never_started_means_every_decision_failed_after_a_failed_start(seats, never):
    tally = FailureTally()
    for decisions, failures, forfeited in seats:
        tally.add(decisions, failures, forfeited)
    assert tally.never_started is never


def test_failure_texts():
    assert failures_text({}) == ""
    assert failures_text({}, forfeits=2) == "2 forfeits"
    assert failures_text({"fallback": 12, "restart": 1, "timeout": 11, "crash": 1}) == (
        "12 fallbacks, 1 restart (11 timeouts, 1 crash)")
    assert failures_text({"illegal": 1, "oom_kill": 2}) == "2 oom kill, 1 illegal move"
    assert failures_text({"forfeit": 3}, forfeits=3) == "3 forfeits"
    assert failures_text({}, never_started=True) == "never started"
