"""What a tournament writes: summary JSON and CSVs, and the HTML report with its plots."""

from __future__ import annotations

import csv
import hashlib
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


def test_the_page_lists_each_pair_once_better_placed_first(tmp_path):
    import re

    from eights.tournament.report import pairs_once, render_html

    t = Tournament("crazy_eights", ("random", "greedy", "heuristic", "random#b"), games=4,
                   seed=2)
    result = run_tournament(t)
    assert len(result.pairs) == 12  # both orders stay in the data, for lookups
    once = pairs_once(result)
    place = {a: i for i, a in enumerate(result.ranking())}
    assert len(once) == 6
    assert len({frozenset((p.agent, p.opponent)) for p in once}) == 6
    assert all(place[p.agent] < place[p.opponent] for p in once)
    page = render_html(result)
    head_to_head = page[page.index("<h2>Head to head"):page.index("<h2>Rating history")]
    assert len(re.findall(r"<tr><td>", head_to_head)) == 6


def test_the_rating_history_is_taken_at_round_ends(tmp_path):
    t = Tournament("crazy_eights", ("random", "greedy", "heuristic"), games=10, seed=1)
    result = run_tournament(t, tmp_path, report=False)
    per_round = t.games_per_round
    assert per_round == 6 and t.rounds == 5
    assert [h.games for h in result.history] == [0, 6, 12, 18, 24, 30]
    with open(tmp_path / "rating_history.csv") as f:
        rows = list(csv.DictReader(f))
    assert sorted({float(r["rounds"]) for r in rows}) == [0, 1, 2, 3, 4, 5]
    # a long tournament is thinned, still to whole rounds, and keeps its last game
    from eights.tournament import rate

    games = [(("a", "b"), (0, 1))] * 5000
    _, history = rate(["a", "b"], games, total=5000, every=6)
    assert len(history) <= 402 and history[-1].games == 5000
    assert all(h.games % 6 == 0 for h in history[:-1])


def test_intervals_in_the_page_and_tables_are_never_negative_where_bounded(tmp_path):
    import math
    import re
    from io import StringIO

    from rich.console import Console

    from eights.tournament.console import standings_table
    from eights.tournament.report import render_html

    # heuristic against random, a few games: win rates at 0% and 100%, wide intervals
    t = Tournament("crazy_eights", ("random", "heuristic"), games=4, seed=7)
    result = run_tournament(t)
    for s in result.standings:
        assert 0 <= s.win_low <= s.win_rate <= s.win_high <= 1
    for p in result.pairs:
        assert 0 <= p.rate_low <= p.rate <= p.rate_high <= 1
    buffer = StringIO()
    Console(file=buffer, width=200).print(standings_table(result))
    shown = buffer.getvalue() + render_html(result)
    for low, high in re.findall(r"\[(-?[\d.]+)%, (-?[\d.]+)%\]", shown):
        assert 0 <= float(low) <= float(high) <= 100
    assert not re.search(r"±-", shown)
    assert not math.isnan(result.standings[0].win_low)


def test_the_page_says_where_it_came_from(tmp_path):
    from eights import __version__
    from eights.agents.policy import resolve_model

    t = Tournament("crazy_eights", ("random", "policy"), num_players=2, games=2)
    run_tournament(t, tmp_path, command=["eights", "tournament", "--agents", "random,policy"])
    page = (tmp_path / "report.html").read_text()
    assert f"eights {__version__}, written 20" in page and " UTC</li>" in page
    assert "<code>eights tournament --agents random,policy</code>" in page
    model = resolve_model("", "crazy_eights", 2)
    digest = hashlib.sha256(model.read_bytes()).hexdigest()
    assert f"policy: <code>{model.name} sha256:{digest}</code>" in page
    # the subtitle ends with what was played, not a stray "complete."
    assert "; all 2 games played.</p>" in page and "complete." not in page
