"""The `eights` command, run in-process."""

from __future__ import annotations

import re

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


def test_variants_is_a_readable_table_per_variant(capsys) -> None:
    assert main(["variants"]) == 0
    out = capsys.readouterr().out
    assert "| option |" not in out  # not raw Markdown
    assert "crazy_eights (env crazy_eights_v2)" in out
    assert "may_keep_drawn_card" in out and "must_stack_twos" in out
    assert "Set an option with --option NAME=VALUE" in out


def test_version(capsys) -> None:
    from importlib.metadata import version

    import pytest

    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"eights {version('eights')}"


def test_every_command_help_has_examples_and_defaults(capsys) -> None:
    import pytest

    for command in ("tournament", "train", "export", "play", "variants"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        out = capsys.readouterr().out
        assert "example" in out and f"eights {command}" in out.split("example")[1], command
    with pytest.raises(SystemExit):
        main(["tournament", "--help"])
    assert "(default 200)" in " ".join(capsys.readouterr().out.split())


def test_a_missing_training_extra_is_one_line_naming_the_install_command(monkeypatch,
                                                                         capsys) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "torch", None)  # as after `make run`: no torch
    for args in (["train", "--timesteps", "10"], ["export", "run", "out.npz"]):
        assert main(args) == 2
        out = " ".join(capsys.readouterr().out.split())
        assert "needs the train extra (torch is not installed)" in out
        assert '.venv/bin/python -m pip install -c constraints.txt -e ".[train]"' in out
        assert "Traceback" not in out


def test_tables_keep_agent_names_whole_off_a_terminal(capsys, monkeypatch) -> None:
    # capsys is not a terminal: rich folded long names over lines at 80 columns
    monkeypatch.delenv("COLUMNS", raising=False)  # (pytest-xdist's workers set COLUMNS=80)
    agents = "random#a-long-label-for-the-control,heuristic#another-long-label"
    assert main(["tournament", "--agents", agents, "--games", "4", "--no-progress"]) == 0
    standings = capsys.readouterr().out.split("head to head")[0]
    for name in agents.split(","):
        assert re.search(rf"│ \d │ {name} +│", standings), standings
