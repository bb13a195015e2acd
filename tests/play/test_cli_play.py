"""`eights play` from the command line: the match by default, `--hand`, bots checked first."""

from __future__ import annotations

import subprocess
import sys

import pytest


def play(*args: str, keys: str = "qq") -> subprocess.CompletedProcess:
    """Run ``eights play`` with ``keys`` on a pipe for stdin (read one character per key)."""
    return subprocess.run([sys.executable, "-m", "eights.cli", "play", *args], input=keys,
                          capture_output=True, text=True, timeout=60)


def test_crazy_eights_plays_the_match_to_500_by_default_and_leaving_is_not_an_error():
    run = play("--seed", "1", "--opponents", "heuristic")
    assert run.returncode == 0, run.stderr
    first = run.stdout.splitlines()[0]
    assert "A match: hands are dealt until someone has 500 points." in first
    assert run.stdout.splitlines()[-1] == "You left the game."


def test_hand_plays_a_single_hand():
    run = play("--seed", "1", "--opponents", "heuristic", "--hand")
    assert run.returncode == 0, run.stderr
    assert "One hand: the first to empty their hand wins" in run.stdout.splitlines()[0]


def test_livery_match_and_an_explicit_option_wins_over_the_default():
    run = play("--variant", "livery_eights", "--seed", "1", "--opponents", "random")
    assert "A match of 5 games" in run.stdout.splitlines()[0]
    run = play("--variant", "livery_eights", "--seed", "1", "--opponents", "random",
               "--option", "match=false")
    assert "One game" in run.stdout.splitlines()[0]


def test_hand_is_refused_where_the_variant_has_no_match():
    run = play("--variant", "baby_eating_eights", "--opponents", "random", "--hand")
    assert run.returncode == 2
    assert "--hand: baby_eating_eights has no match" in run.stdout


@pytest.mark.parametrize("opponents", ["heuristic,policy", "policy,random,heuristic"])
def test_a_policy_without_a_model_for_the_table_is_refused_before_the_first_card(opponents):
    run = play("--opponents", opponents)
    assert run.returncode == 2
    assert "'policy' has no shipped model for" in run.stdout
    assert "shipped models: baby_eating_eights-4p, crazier_eights-2p, crazy_eights-2p" in run.stdout
    assert "Press ? for help." not in run.stdout  # nothing was dealt


@pytest.mark.parametrize("args, wanted", [
    (["--option", "num_players=3"], "--option num_players is not allowed here: the table has "
                                    "your seat and one per --opponents entry (2 players now)"),
    (["--turn-time", "nan"], "--turn-time nan is not allowed; give seconds, a number > 0 and "
                             "at most 86400"),
    (["--turn-time", "inf"], "--turn-time inf is not allowed"),
    (["--turn-time", "0"], "--turn-time 0 is not allowed"),
    (["--seat", "5"], "--seat 5 is not at a 2-player table"),
    (["--option", "hand_size"], "--option 'hand_size' must look like name=value"),
    (["--opponents", "heuristc"], "agent spec 'heuristc' is not known"),
])
def test_bad_input_is_one_lowercase_error_line_not_a_traceback(args, wanted, capsys):
    """`--option num_players=3` was a TypeError traceback and `--turn-time inf` an
    OverflowError one (their last lines read 'TypeError: ...'); every refusal is one
    'error: ...' line, as in the rest of the CLI, and exit status 2."""
    from eights.cli import main

    assert main(["play", *args]) == 2
    out = capsys.readouterr()
    assert out.out.startswith("error: ") and wanted in out.out, out
    assert out.out.count("\n") == 1 and not out.err


def test_closed_standard_input_is_refused_before_the_deal(monkeypatch, capsys):
    """With stdin closed (`eights play <&-`) Python has no sys.stdin: an AttributeError
    traceback before; now one error line."""
    from eights.cli import main

    monkeypatch.setattr("sys.stdin", None)
    assert main(["play"]) == 2
    assert capsys.readouterr().out == ("error: eights play reads your keys from standard input, "
                                       "which is closed; run it at a terminal or pipe keys to "
                                       "it\n")
