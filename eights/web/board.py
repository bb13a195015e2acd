"""Leaderboard: a store's standings with their intervals and the head-to-head matrix.

The figures are the tournament's own (:func:`~eights.tournament.results.summarize`
over the stored games, :func:`~eights.tournament.report.rate_matrix` for the
heatmap), so the page says what ``eights tournament`` and its HTML report say.
The server sends the board again whenever the store's count of games grows
(:class:`~eights.web.server.WebServer` polls it), so a tournament that is
still writing is watched live.
"""

from __future__ import annotations

import math
from dataclasses import asdict
from typing import Any

from ..tournament.report import pairs_once, rate_matrix
from ..tournament.results import summarize
from ..tournament.text import failures_text, interval, number
from .store import StoreReader


def _finite(value: Any) -> Any:
    return None if isinstance(value, float) and math.isnan(value) else value


def board(store: StoreReader) -> dict[str, Any]:
    """The ``board`` message: standings, pairs and the win-rate matrix, as the report has them."""
    t = store.tournament
    games = list(store.games())
    result = summarize(t, games, t.total_games)
    standings = []
    rank = 0
    for s in result.standings:
        rank += 0 if s.never_started else 1
        row = {k: _finite(v) for k, v in asdict(s).items()}
        row.update(rank=None if s.never_started else rank,
                   text={"rating": number(s.rating),
                         "rating_ci": interval(s.rating_low, s.rating_high),
                         "win_rate": number(s.win_rate, ".1%"),
                         "win_ci": interval(s.win_low, s.win_high, ".1%"),
                         "margin": number(s.margin, "+.1f"),
                         "margin_ci": interval(s.margin_low, s.margin_high),
                         "failures": failures_text(s.failures, s.forfeits, s.never_started)})
        standings.append(row)
    agents, matrix = rate_matrix(result) if games else (list(t.agents), [])
    pairs = [{"agent": p.agent, "opponent": p.opponent, "games": p.games,
              "rate": number(p.rate, ".1%"), "rate_ci": interval(p.rate_low, p.rate_high, ".1%"),
              "margin": number(p.margin, "+.1f"),
              "margin_ci": interval(p.margin_low, p.margin_high)}
             for p in pairs_once(result)] if games else []
    return {"type": "board", "store": store.name, "title": t.describe(),
            "games_played": len(games), "games_total": t.total_games,
            "standings": standings, "agents": agents,
            "matrix": [[_finite(x) for x in row] for row in matrix], "pairs": pairs}
