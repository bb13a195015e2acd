"""How long a tournament will take, said early when it is long.

A slow agent (``ismcts:sims=200`` thinks for tens of milliseconds a
decision) can make a tournament run for many minutes, and a run that says
nothing for that long looks hung. :class:`DurationEstimate` watches the
games as they finish. Each game says how long every seat's agent thought
(:attr:`~eights.tournament.play.GameResult.think`), so each agent gets a
cost per game seated, and the rest of a game's time (the engine, the
bookkeeping) is a cost per game. The games still to play then cost their
count times the per-game cost plus their seats' agent costs, and take that
times the run's own ratio of wall time to game time, which accounts for
parallel workers (and their start-up) on any backend.

An agent's first game is set aside once it has played another: it carries
the agent's warm-up (an external bot starting, a model loading), which
would make a short run's estimate far too long. The first game's rest of
the time (building the agents) is set aside the same way.

Nothing is timed up front: the estimate costs nothing, and it measures the
real agents on the real backend and machine. It is said once the run has
gone on for :data:`SETTLE` seconds and every agent has played two games (an
estimate missing an agent would be low), if more than
:data:`ANNOUNCE_OVER` seconds of the run are still to come. The wait
matters: with duplicate deals the first round plays a single deal at every
table, and one long or short deal throws the estimate far off (to twice
the real time, in a tournament with ``ismcts:sims=200``); a few rounds in,
it is within about 15%. If after
:data:`PATIENCE` seconds some agent has not played yet (its first table
comes late in the schedule), a lower bound is said instead, and the full
estimate follows once every agent has played.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence

from ..progress import format_duration, format_rate
from .play import GameResult
from .schedule import ScheduledGame

#: say nothing about runs expected to end within this many seconds
ANNOUNCE_OVER = 60.0
#: seconds of play to see before estimating (several deals, not one)
SETTLE = 15.0
#: seconds to wait for every agent to have played before saying a lower bound
PATIENCE = 30.0
#: an agent is named as the reason when it is at least this share of the time left
NAMED_SHARE = 0.25


def format_decision_time(seconds: float) -> str:
    """``~40 ms``, ``~0.3 ms``, ``~1.2 s``."""
    if seconds >= 1:
        return f"~{seconds:.2g} s"
    ms = seconds * 1000
    return f"~{ms:.0f} ms" if ms >= 10 else f"~{ms:.2g} ms"


class DurationEstimate:
    """Predicts the rest of a run from its finished games; see the module docstring."""

    def __init__(self, todo: Sequence[ScheduledGame], *,
                 clock: Callable[[], float] = time.monotonic):
        self.clock = clock
        self.started = clock()
        self.remaining_games = len(todo)
        self.remaining_seats: Counter[str] = Counter(s for g in todo for s in g.seats)
        #: per agent, over its seat-games but the first: seconds thought, decisions, games
        self.think: Counter[str] = Counter()
        self.decisions: Counter[str] = Counter()
        self.seat_games: Counter[str] = Counter()
        #: per agent, its first seat-game: (seconds thought, decisions)
        self.first: dict[str, tuple[float, int]] = {}
        self.games = 0
        self.game_seconds = 0.0
        #: the rest of each game's time (not thinking), over the games but the first
        self.overhead = 0.0
        self._said_about = False
        self._said_bound = False

    def add(self, game: ScheduledGame, result: GameResult) -> str | None:
        """Count a finished game; returns what to say about the duration, if anything."""
        self.remaining_games -= 1
        self.remaining_seats.subtract(game.seats)
        if self.games:
            self.overhead += max(0.0, result.seconds - sum(result.think))
        self.games += 1
        self.game_seconds += result.seconds
        for k, spec in enumerate(game.seats):
            think = result.think[k] if k < len(result.think) else 0.0
            decisions = result.decisions[k] if k < len(result.decisions) else 0
            if spec not in self.first:
                self.first[spec] = (think, decisions)
                continue
            self.seat_games[spec] += 1
            self.think[spec] += think
            self.decisions[spec] += decisions
        return self.message()

    def untimed(self) -> list[str]:
        """Agents with games still to play that have not finished two yet."""
        return sorted(a for a, n in self.remaining_seats.items()
                      if n > 0 and self.seat_games[a] == 0)

    def _agent_cost(self, agent: str) -> float:
        return self.think[agent] / self.seat_games[agent] if self.seat_games[agent] else 0.0

    def remaining_cost(self) -> dict[str, float]:
        """Game-seconds still to come: per agent, and ``""`` for the per-game rest.

        An agent not timed yet costs nothing here, so the sum is a lower bound.
        """
        costs = {"": self.remaining_games * self.overhead / max(1, self.games - 1)}
        for agent, seats in self.remaining_seats.items():
            if seats > 0:
                costs[agent] = seats * self._agent_cost(agent)
        return costs

    def seconds_left(self) -> float | None:
        """Wall seconds still to come (a lower bound while agents are untimed); None at first."""
        if self.games == 0 or self.game_seconds <= 0:
            return None
        scale = (self.clock() - self.started) / self.game_seconds
        return sum(self.remaining_cost().values()) * scale

    def message(self) -> str | None:
        """What to say now: once ``expect about``, perhaps ``expect at least`` before it."""
        if self._said_about:
            return None
        elapsed = self.clock() - self.started
        if elapsed < SETTLE:
            return None
        left = self.seconds_left()
        if left is None or left <= ANNOUNCE_OVER:
            return None
        untimed = self.untimed()
        if not untimed:
            self._said_about = True
            return f"expect about {format_duration(elapsed + left)} in all{self._why(left)}"
        if self._said_bound or elapsed < PATIENCE:
            return None
        self._said_bound = True
        return (f"expect at least {format_duration(elapsed + left)} in all (not timed yet: "
                f"{', '.join(untimed)})")

    def _why(self, left: float) -> str:
        """`` (ismcts:sims=200 takes ~40 ms a decision)``: the agents most of the time goes to."""
        costs = self.remaining_cost()
        total = sum(costs.values())
        named = sorted((a for a in costs if a and self.decisions[a]
                        and costs[a] >= NAMED_SHARE * total),
                       key=lambda a: -costs[a])[:2]
        if not named:
            rate = self.remaining_games / left if left > 0 else 0.0
            return f" ({self.remaining_games:,} games to play at ~{format_rate(rate)} games/s)"
        parts = [f"{a} takes {format_decision_time(self.think[a] / self.decisions[a])} "
                 f"a decision" for a in named[:1]]
        parts += [f"{a} {format_decision_time(self.think[a] / self.decisions[a])}"
                  for a in named[1:]]
        return f" ({', '.join(parts)})"
