"""A tournament's figures from its stored games: standings, pairwise results, ratings.

**Standings**, one row per agent: its openskill rating with a 95% interval,
its win rate (a win shared among the seats an agent holds at a table) with a
Wilson interval, and its mean score margin over the other seats.

**Pairs**, one row per ordered pair of agents that met: how often the first
finished ahead of the second (ties count half; in two-player games this is
the head-to-head win rate) and the mean score margin between them, each
with a 95% interval. Score margins use points signed so that more is
better (penalty points count negative). Both orders of a pair are kept, so
:meth:`TournamentResult.pair` answers either way; the report shows each
pair once.

**Failures**, per agent: what it counted against itself, by kind, summed
over its games (see :mod:`eights.tournament.failures`). An agent whose bot
never started is listed after every ranked agent, and flagged.

**Rating history**: the ratings after each round (one deal at every table
in every seating), where every table has played equally; between round
ends it would only show which tables the schedule played first.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from ..engines import engine_class
from .failures import FailureTally
from .ratings import HistoryPoint, Rating, rate
from .schedule import Tournament
from .stats import mean_interval, wilson_interval
from .store import StoredGame
from .text import failures_text


@dataclass
class Standing:
    agent: str
    rating: float
    rating_low: float
    rating_high: float
    ordinal: float
    games: int
    wins: float
    win_rate: float
    win_low: float
    win_high: float
    margin: float
    margin_low: float
    margin_high: float
    truncated: int
    forfeits: int
    #: what the agent counted against itself, by kind (fallback, restart, timeout, ...)
    failures: dict[str, int] = field(default_factory=dict)
    #: its bot never started: unranked, listed last (see eights.tournament.failures)
    never_started: bool = False


@dataclass
class PairResult:
    agent: str
    opponent: str
    games: int
    ahead: float
    rate: float
    rate_low: float
    rate_high: float
    margin: float
    margin_low: float
    margin_high: float


@dataclass
class TournamentResult:
    tournament: Tournament
    standings: list[Standing]
    pairs: list[PairResult]
    history: list[HistoryPoint]
    games_played: int
    games_total: int
    #: games found in the store before this run, and played by this run
    resumed: int = 0
    played_now: int = 0
    seconds: float = 0.0
    #: whether this run played its games on a compiled core (``--engine``)
    compiled: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def complete(self) -> bool:
        return self.games_played == self.games_total

    def ranking(self) -> list[str]:
        return [s.agent for s in self.standings]

    def standing(self, agent: str) -> Standing:
        for s in self.standings:
            if s.agent == agent:
                return s
        raise KeyError(agent)

    def pair(self, agent: str, opponent: str) -> PairResult | None:
        for p in self.pairs:
            if p.agent == agent and p.opponent == opponent:
                return p
        return None

    def ranked(self) -> list[Standing]:
        """The standings that take a rank: all but the agents that never started."""
        return [s for s in self.standings if not s.never_started]

    def to_dict(self) -> dict[str, Any]:
        return {
            "tournament": self.tournament.to_dict(),
            "games_played": self.games_played,
            "games_total": self.games_total,
            "standings": [_finite(asdict(s)) for s in self.standings],
            "pairs": [_finite(asdict(p)) for p in self.pairs],
        }

    def write(self, out: str | Path) -> list[Path]:
        """``summary.json``, ``standings.csv``, ``pairs.csv`` and ``rating_history.csv``."""
        out = Path(out)
        out.mkdir(parents=True, exist_ok=True)
        paths = [out / "summary.json", out / "standings.csv", out / "pairs.csv",
                 out / "rating_history.csv"]
        _atomic_write(paths[0], json.dumps(self.to_dict(), indent=2) + "\n")
        _write_csv(paths[1], [{**asdict(s), "failures": failures_text(s.failures, s.forfeits,
                                                                      s.never_started)}
                              for s in self.standings], _columns(Standing))
        _write_csv(paths[2], [asdict(p) for p in self.pairs], _columns(PairResult))
        per_round = self.tournament.games_per_round
        rows = [{"games": h.games, "rounds": round(h.games / per_round, 4), "agent": a,
                 "mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal}
                for h in self.history for a, r in h.ratings.items()]
        _write_csv(paths[3], rows, ["games", "rounds", "agent", "mu", "sigma", "ordinal"])
        return paths


def summarize(tournament: Tournament, games: Iterable[StoredGame], total: int
              ) -> TournamentResult:
    """Every figure of the result from the stored games, read once in schedule order."""
    games = list(games)
    sign = -1 if engine_class(tournament.variant).low_score_wins else 1
    agents = tournament.agents
    count = dict.fromkeys(agents, 0)
    wins = dict.fromkeys(agents, 0.0)
    truncated = dict.fromkeys(agents, 0)
    forfeits = dict.fromkeys(agents, 0)
    tallies = {a: FailureTally() for a in agents}
    field_margins: dict[str, list[float]] = {a: [] for a in agents}
    pair_ahead: dict[tuple[str, str], list[float]] = {}
    pair_margin: dict[tuple[str, str], list[float]] = {}
    for g in games:
        held: dict[str, list[int]] = {}
        for k, s in enumerate(g.seats):
            held.setdefault(s, []).append(k)
        winners = set(g.winners)
        points = [sign * x for x in g.scores]
        if g.forfeit >= 0:
            forfeits[g.seats[g.forfeit]] += 1
        for k, s in enumerate(g.seats):
            tallies[s].add(None if g.decisions is None else g.decisions[k],
                           None if g.failures is None else g.failures[k], k == g.forfeit)
        for a, mine in held.items():
            count[a] += 1
            wins[a] += sum(k in winners for k in mine) / len(mine)
            truncated[a] += int(g.truncated)
            others = [k for k in range(len(g.seats)) if k not in mine]
            field_margins[a].append(_mean(points[k] for k in mine)
                                    - _mean(points[k] for k in others))
            for b, theirs in held.items():
                if b == a:
                    continue
                ahead = _mean(1.0 if g.ranks[i] < g.ranks[j] else 0.5 if g.ranks[i] == g.ranks[j]
                              else 0.0 for i in mine for j in theirs)
                pair_ahead.setdefault((a, b), []).append(ahead)
                pair_margin.setdefault((a, b), []).append(
                    _mean(points[k] for k in mine) - _mean(points[k] for k in theirs))
    ratings, history = rate(agents, ((g.seats, g.ranks) for g in games), total=len(games),
                            every=tournament.games_per_round)
    standings = [_standing(a, ratings[a], count[a], wins[a], field_margins[a], truncated[a],
                           forfeits[a], tallies[a]) for a in agents]
    standings.sort(key=lambda s: (s.never_started, -s.ordinal, -s.win_rate, s.agent))
    order = {s.agent: i for i, s in enumerate(standings)}
    pairs = []
    for (a, b), aheads in sorted(pair_ahead.items(), key=lambda kv: (order[kv[0][0]],
                                                                       order[kv[0][1]])):
        n, total_ahead = len(aheads), math.fsum(aheads)
        lo, hi = wilson_interval(total_ahead, n)
        m, mlo, mhi = mean_interval(pair_margin[(a, b)])
        pairs.append(PairResult(a, b, n, total_ahead, total_ahead / n, lo, hi, m, mlo, mhi))
    return TournamentResult(tournament, standings, pairs, history, len(games), total)


def _standing(agent: str, rating: Rating, games: int, wins: float, margins: list[float],
              truncated: int, forfeits: int, tally: FailureTally) -> Standing:
    lo, hi = wilson_interval(wins, games)
    m, mlo, mhi = mean_interval(margins)
    rlo, rhi = rating.interval
    return Standing(agent, rating.mu, rlo, rhi, rating.ordinal, games, wins,
                    wins / games if games else math.nan, lo, hi, m, mlo, mhi, truncated,
                    forfeits, failures=tally.as_dict(), never_started=tally.never_started)


def _mean(values: Iterable[float]) -> float:
    values = list(values)
    return math.fsum(values) / len(values) if values else 0.0


def _finite(row: dict[str, Any]) -> dict[str, Any]:
    """JSON has no NaN: an interval that does not exist yet is null."""
    return {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in row.items()}


def _atomic_write(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text)
    tmp.replace(path)


def _columns(kind: type) -> list[str]:
    return [f.name for f in fields(kind)]


def _write_csv(path: Path, rows: list[dict[str, Any]], columns: list[str]) -> None:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: (f"{v:.6g}" if isinstance(v, float) else v) for k, v in row.items()})
    _atomic_write(path, buffer.getvalue())
