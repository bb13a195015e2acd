"""The `eights` command, run in-process."""

from __future__ import annotations

from eights.cli import main


def test_tournament_prints_a_table(capsys) -> None:
    assert main(["tournament", "--agents", "random,heuristic", "--games", "20"]) == 0
    out = capsys.readouterr().out
    assert "heuristic" in out and "win rate" in out and "95% CI" in out


def test_bad_agent_is_a_clear_error(capsys) -> None:
    assert main(["tournament", "--agents", "random,nobody", "--games", "2"]) == 2
    assert "agent spec 'nobody' is not known" in capsys.readouterr().out


def test_variants_lists_options(capsys) -> None:
    assert main(["variants"]) == 0
    out = capsys.readouterr().out
    assert "crazy_eights" in out and "target_score" in out
