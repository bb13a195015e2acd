"""What a tournament writes: summary JSON and CSVs, and the HTML report with its plots."""

from __future__ import annotations

import csv
import json

from eights.tournament import Tournament, run_tournament
from eights.tournament.report import rate_matrix


def test_a_tournament_writes_its_summary_and_report(tmp_path):
    t = Tournament("crazy_eights", ("random", "greedy", "heuristic"), num_players=3, games=6)
    result = run_tournament(t, tmp_path)
    for name in ("results.sqlite", "summary.json", "standings.csv", "pairs.csv",
                 "rating_history.csv", "report.html", "winrate_heatmap.png",
                 "rating_history.png"):
        assert (tmp_path / name).stat().st_size > 0, name
    for png in ("winrate_heatmap.png", "rating_history.png"):
        assert (tmp_path / png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["tournament"] == t.to_dict()
    assert [s["agent"] for s in summary["standings"]] == result.ranking()
    with open(tmp_path / "standings.csv") as f:
        rows = list(csv.DictReader(f))
    assert [r["agent"] for r in rows] == result.ranking()
    assert {"rating", "rating_low", "rating_high", "win_rate", "win_low", "win_high", "margin",
            "margin_low", "margin_high"} <= set(rows[0])
    with open(tmp_path / "pairs.csv") as f:
        pairs = list(csv.DictReader(f))
    assert len(pairs) == 6  # every ordered pair met
    page = (tmp_path / "report.html").read_text()
    assert "winrate_heatmap.png" in page and "rating_history.png" in page
    for agent in t.agents:
        assert agent in page


def test_pairs_are_consistent_both_ways():
    t = Tournament("crazy_eights", ("random", "heuristic"), games=40, seed=1)
    result = run_tournament(t)
    ab, ba = result.pair("heuristic", "random"), result.pair("random", "heuristic")
    assert ab.games == ba.games == 40
    assert ab.ahead + ba.ahead == 40
    assert ab.margin == -ba.margin
    h = result.standing("heuristic")
    assert h.wins == ab.ahead  # two players, no truncation: finishing ahead is winning
    agents, matrix = rate_matrix(result)
    assert agents == result.ranking()
    assert matrix[0][1] == result.pair(agents[0], agents[1]).rate


def test_agent_names_are_escaped_in_the_page(tmp_path):
    from eights.tournament.report import render_html

    t = Tournament("crazy_eights", ("random", "ismcts:sims=4,c=1"), games=2)
    result = run_tournament(t)
    result.standings[0].agent = "<script>alert(1)</script>"
    assert "<script>" not in render_html(result)
