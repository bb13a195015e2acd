"""A round-robin: every table of agents plays, seats rotated, win rates with confidence.

For two players every pair of distinct agents meets; for more, every multiset
of agents that fills the table (with at least two different agents) sits
down. Each table plays ``games`` games and its seating rotates every game,
so each agent spends the same number of games in each seat. Game ``g`` of
every table uses deal seed ``seed + g``: all tables see the same deals.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations, combinations_with_replacement

from ..agents import make_agent, play_game
from ..config import ConfigError
from ..engines import make_game


@dataclass
class AgentResult:
    spec: str
    games: int = 0
    wins: float = 0.0
    truncated: int = 0
    #: opponent spec -> [wins, games] against tables containing it
    versus: dict[str, list[float]] = field(default_factory=dict)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)


@dataclass
class RoundRobinResult:
    variant: str
    num_players: int
    games_per_table: int
    agents: dict[str, AgentResult]

    def ranking(self) -> list[AgentResult]:
        return sorted(self.agents.values(), key=lambda r: r.win_rate, reverse=True)


def wilson_interval(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win rate (sound near 0% and 100%, unlike +-2 sigma)."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def schedule(specs: Sequence[str], num_players: int) -> list[tuple[str, ...]]:
    """The tables of a round-robin: agent specs per table, before seat rotation."""
    if len(set(specs)) < 2:
        raise ConfigError("a round-robin needs at least two different agents")
    if len(set(specs)) != len(specs):
        raise ConfigError(f"agents are listed twice: {', '.join(specs)}")
    if num_players == 2:
        return list(combinations(specs, 2))
    return [t for t in combinations_with_replacement(specs, num_players) if len(set(t)) > 1]


def round_robin(variant: str, specs: Sequence[str], num_players: int = 2, games: int = 100,
                seed: int = 0, options: dict | None = None,
                progress: Callable[[int, int], None] | None = None) -> RoundRobinResult:
    """Play the round-robin; ``progress(done, total)`` is called after each game."""
    if games < 1:
        raise ConfigError(f"games={games!r} is not allowed; play at least one game per table")
    tables = schedule(list(specs), num_players)
    engine = make_game(variant, num_players=num_players, seed=seed, **(options or {}))
    agents = {s: make_agent(s, variant) for s in specs}
    results = {s: AgentResult(s) for s in specs}
    total, done = len(tables) * games, 0
    for table in tables:
        for g in range(games):
            shift = g % num_players
            seats = [table[(k + shift) % num_players] for k in range(num_players)]
            for k, s in enumerate(seats):
                agents[s].seed(seed * 1_000_003 + g * 101 + k)
            engine.reset(seed=seed + g)
            play_game(engine, [agents[s] for s in seats])
            _tally(results, seats, engine.winners, engine.truncated)
            done += 1
            if progress:
                progress(done, total)
    return RoundRobinResult(variant, num_players, games, results)


def _tally(results: dict[str, AgentResult], seats: list[str], winners: tuple[int, ...],
           truncated: bool) -> None:
    """Credit one game: a seat's win counts once per seat, shared across its own agent kind."""
    present = set(seats)
    for spec in present:
        mine = [k for k, s in enumerate(seats) if s == spec]
        share = sum(1 for k in mine if k in winners) / len(mine)
        r = results[spec]
        r.games += 1
        r.wins += share
        r.truncated += int(truncated)
        for other in present - {spec}:
            rec = r.versus.setdefault(other, [0.0, 0])
            rec[0] += share
            rec[1] += 1
