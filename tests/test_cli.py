"""The `eights` command, run in-process."""

from __future__ import annotations

from eights.cli import main


def test_tournament_prints_a_table(capsys) -> None:
    assert main(["tournament", "--agents", "random,heuristic", "--games", "20"]) == 0
    out = capsys.readouterr().out
    assert "heuristic" in out and "win rate" in out and "95% CI" in out


def test_tournament_with_out_stores_reports_and_resumes(tmp_path, capsys) -> None:
    args = ["tournament", "--agents", "random,greedy,heuristic", "--players", "3", "--games",
            "6", "--out", str(tmp_path), "--no-progress"]
    assert main(args) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "6 games played" in out and "report.html" in out
    assert (tmp_path / "report.html").is_file()
    assert main(args) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "0 games played" in out and "6 already stored" in out


def test_tournament_refuses_a_foreign_results_file(tmp_path, capsys) -> None:
    (tmp_path / "results.sqlite").write_text("not a database")
    assert main(["tournament", "--agents", "random,greedy", "--games", "2", "--out",
                 str(tmp_path), "--no-progress"]) == 2
    assert "is not a results database" in " ".join(capsys.readouterr().out.split())


def test_bad_agent_is_a_clear_error(capsys) -> None:
    assert main(["tournament", "--agents", "random,nobody", "--games", "2"]) == 2
    assert "agent spec 'nobody' is not known" in capsys.readouterr().out


def test_variants_lists_options(capsys) -> None:
    assert main(["variants"]) == 0
    out = capsys.readouterr().out
    assert "crazy_eights" in out and "target_score" in out
