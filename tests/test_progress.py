"""Progress off a terminal: plain lines with done/total, rate and time left, at sensible times."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from eights.cli import main
from eights.progress import ProgressReport, format_duration, format_rate, live_capable

#: a plain progress line: label, done/total, percent, rate, and (before the end) time left
LINE = re.compile(r"^(?P<label>.+) (?P<done>[\d,]+)/(?P<total>[\d,]+) \((?P<pct>\d+)%\)"
                  r"(, (?P<rate>[\d.,e-]+) (?P<unit>\w+)/s(, (?P<left>.+) left)?)?$")


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def plain(total: int, clock: Clock, **kwargs) -> tuple[ProgressReport, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, width=200)
    assert not live_capable(console)  # a StringIO is not a terminal
    return ProgressReport("games", total, console=console, clock=clock, **kwargs), out


def lines(out: io.StringIO) -> list[str]:
    return out.getvalue().splitlines()


@pytest.fixture(autouse=True)
def no_forced_terminal(monkeypatch):
    """rich treats FORCE_COLOR / TTY_COMPATIBLE as a terminal; these tests need a plain one."""
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        monkeypatch.delenv(name, raising=False)


def test_a_line_every_tenth_with_rate_and_time_left():
    clock = Clock()
    with plain(600, clock)[0] as report:
        out = report.console.file
        report.update(0)
        for done in range(1, 601):
            clock.now += 0.05  # 20 games/s
            report.update(done)
    got = lines(out)
    assert len(got) == 10, got
    assert got[1] == "games 120/600 (20%), 20.0 games/s, 24 s left"
    assert got[-1] == "games 600/600 (100%), 20.0 games/s"  # the final line, once
    for k, text in enumerate(got, 1):
        match = LINE.match(text)
        assert match, text
        assert match["done"] == f"{60 * k}" and match["total"] == "600"
        assert match["pct"] == f"{10 * k}" and match["unit"] == "games"


def test_a_time_limit_shortens_the_time_left():
    """A training run with --time-limit stops at its deadline, whatever is left to do."""
    clock = Clock()
    report, out = plain(600, clock, deadline=clock.now + 10.0)
    with report:
        report.update(0)
        for done in range(1, 601):
            clock.now += 0.05  # 20 games/s: 30 s of work, but the limit comes at 10 s
            report.update(done)
            if clock.now >= report.deadline:
                break
    got = lines(out)
    assert got[0] == "games 60/600 (10%), 20.0 games/s, 7 s left (time limit)"
    assert " (33%), 20.0 games/s, 0 s left (time limit)" in got[-1]  # stopped at the limit
    no_limit, out = plain(600, clock, deadline=clock.now + 1000.0)
    no_limit.update(0)
    clock.now += 3.0
    no_limit.update(60)
    assert lines(out) == ["games 60/600 (10%), 20.0 games/s, 27 s left"]


def test_a_slow_run_prints_every_30_seconds_between_tenths():
    clock = Clock()
    report, out = plain(100, clock)
    report.update(0)
    for done in range(1, 6):  # 5 games, 12 s apart: no tenth crossed before the 10th game
        clock.now += 12
        report.update(done)
    assert lines(out) == ["games 3/100 (3%), 0.083 games/s, 19 min left"]  # after 36 s
    clock.now += 31
    report.update(5)
    assert lines(out)[-1] == "games 5/100 (5%), 0.055 games/s, 29 min left"
    clock.now += 60
    report.update(5)  # nothing new since the last line: no line however long it has been
    report.close()  # and the last state was printed already
    report.close()
    assert len(lines(out)) == 2
    clock.now += 1
    interrupted, out = plain(100, clock)
    interrupted.update(0)
    clock.now += 1
    interrupted.update(1)
    interrupted.close()  # stopped early: the state it stopped at is printed once
    assert lines(out) == ["games 1/100 (1%), 1.0 games/s, 1 min 39 s left"]


def test_a_resumed_run_counts_its_rate_from_where_it_started():
    clock = Clock()
    report, out = plain(1000, clock)
    report.update(500)  # found stored: not progress of this run
    clock.now += 10
    report.update(600)
    assert lines(out) == ["games 600/1,000 (60%), 10.0 games/s, 40 s left"]


def test_disabled_progress_prints_nothing_but_messages_still_show():
    clock = Clock()
    report, out = plain(10, clock, enabled=False)
    with report:
        for done in range(11):
            clock.now += 1
            report.update(done)
        report.log("expect about 2 min in all")
    assert lines(out) == ["expect about 2 min in all"]


def test_on_a_terminal_the_live_bar_is_used():
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, force_interactive=True, width=120)
    assert live_capable(console)
    with ProgressReport("games", 10, console=console, transient=True) as report:
        assert report._bar is not None
        report.update(0)
        report.update(10)
    assert "games 10/10 (100%)" not in out.getvalue()  # no plain lines on a terminal


def test_durations_and_rates_read_well():
    assert [format_duration(s) for s in (0.2, 13, 59.6, 245, 720, 4320, 7200)] == [
        "<1 s", "13 s", "1 min", "4 min 5 s", "12 min", "1 h 12 min", "2 h"]
    assert [format_rate(r) for r in (2345.6, 35.24, 0.0833)] == ["2,346", "35.2", "0.083"]
    with pytest.raises(ValueError, match="total=-1"):
        ProgressReport("games", -1)


def test_tournament_off_a_terminal_prints_progress_lines(capsys):
    assert main(["tournament", "--agents", "random,greedy", "--games", "200"]) == 0
    got = [line for line in capsys.readouterr().out.splitlines() if line.startswith("games ")]
    assert len(got) == 10, got
    parsed = [LINE.match(line) for line in got]
    assert all(parsed), got
    assert [m["done"] for m in parsed] == [f"{20 * k}" for k in range(1, 11)]
    assert all(m["total"] == "200" and m["unit"] == "games" for m in parsed)
    assert all(float(m["rate"].replace(",", "")) > 0 for m in parsed)
    assert all(m["left"] for m in parsed[:-1]) and parsed[-1]["left"] is None


def test_tournament_no_progress_silences_the_lines(capsys):
    assert main(["tournament", "--agents", "random,greedy", "--games", "20",
                 "--no-progress"]) == 0
    assert not [line for line in capsys.readouterr().out.splitlines()
                if LINE.match(line)]


def test_train_off_a_terminal_prints_progress_lines(tmp_path, capsys):
    pytest.importorskip("stable_baselines3", reason="the train extra is not installed")
    args = ["train", "--variant", "crazy_eights", "--timesteps", "256", "--n-envs", "2",
            "--n-steps", "64", "--batch-size", "64", "--epochs", "1", "--checkpoint-every",
            "256", "--eval-games", "2", "--net-arch", "8", "--opponents", "random",
            "--eval-opponents", "random", "--out", str(tmp_path)]
    assert main(args) == 0
    got = [LINE.match(line) for line in capsys.readouterr().out.splitlines()]
    got = [m for m in got if m and m["label"] == "crazy_eights 2p"]
    assert got, "no progress lines"
    assert got[-1]["done"] == got[-1]["total"] == "256" and got[-1]["unit"] == "steps"
