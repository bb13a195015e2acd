"""A league: opponents drawn by how often they still beat the learner (PFSP).

Prioritized fictitious self-play (Vinyals et al., "Grandmaster level in
StarCraft II using multi-agent reinforcement learning", Nature 2019) draws
each opponent of the learner's pool in proportion to ``f(p)``, where ``p`` is
the learner's recent win rate against it. With ``f(p) = (1 - p) ** 2`` (their
"hard" weighting) an opponent the learner always beats (random, soon greedy)
is almost never drawn, and the games go to the opponents it still loses to:
the heuristic, its own recent checkpoints. A fixed mix spends most of its
games where nothing is left to learn.

:class:`League` keeps the learner's last :attr:`League.window` results
against each member of the pool (the pool's specs, and each ``self``
snapshot by its own name) and turns them into the multipliers
:meth:`~eights.training.opponents.OpponentPool.set_priorities` applies to the
pool's weights. A member with no results yet counts as an even match
(``p = 1/2`` after the ``(wins + 1) / (games + 2)`` prior), so a new
checkpoint is tried at once; a floor keeps every member drawn now and then,
so a rate that was measured long ago can still change. The trainer
(``eights train --league``) records every finished episode and pushes the
priorities to the envs after each rollout; each checkpoint's metadata and
the log carry the league's table: games, win rate, priority and share of
the episodes played against each member.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from typing import Any

#: results kept per member: recent enough to follow the learner, many enough to measure
DEFAULT_WINDOW = 200
#: the smallest multiplier: a member the learner always beats is still drawn now and then
DEFAULT_FLOOR = 0.05
#: f(p) = (1 - p) ** POWER: AlphaStar's "hard" weighting
DEFAULT_POWER = 2.0


class League:
    """The learner's recent results per pool member, as PFSP priorities."""

    def __init__(self, window: int = DEFAULT_WINDOW, floor: float = DEFAULT_FLOOR,
                 power: float = DEFAULT_POWER):
        if window < 1:
            raise ValueError(f"window={window!r}: keep at least one result per member")
        if not 0.0 < floor <= 1.0:
            raise ValueError(f"floor={floor!r} must lie in (0, 1]")
        if power < 0:
            raise ValueError(f"power={power!r} must be >= 0")
        self.window, self.floor, self.power = window, floor, power
        self._results: dict[str, deque[float]] = {}
        #: episodes played against each member since the league started
        self.episodes: dict[str, int] = {}

    def record(self, opponents: Iterable[str], score: float) -> None:
        """One finished episode against ``opponents`` (their names; a name seated twice
        counts once): ``score`` is 1 for a win, 0 for a loss, 1/2 for a cut game."""
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"score={score!r} must lie in [0, 1]")
        for name in dict.fromkeys(opponents):
            results = self._results.get(name)
            if results is None:
                results = self._results[name] = deque(maxlen=self.window)
            results.append(score)
            self.episodes[name] = self.episodes.get(name, 0) + 1

    def record_info(self, info: dict[str, Any]) -> bool:
        """Record the episode a finished env's ``info`` describes (``SingleAgentEnv``'s:
        ``opponents``, ``winners``, ``is_success``); False when it did not finish one."""
        if "winners" not in info or "opponents" not in info:
            return False
        score = 1.0 if info.get("is_success") else (0.5 if not info["winners"] else 0.0)
        self.record(info["opponents"], score)
        return True

    def win_rate(self, name: str) -> float:
        """The learner's recent rate against ``name``, with one win and one loss as a prior."""
        results = self._results.get(name, ())
        return (sum(results) + 1.0) / (len(results) + 2.0)

    def priority(self, name: str) -> float:
        """PFSP's ``f(p) = (1 - p) ** power``, at least :attr:`floor`."""
        return max(self.floor, (1.0 - self.win_rate(name)) ** self.power)

    def priorities(self, names: Sequence[str]) -> dict[str, float]:
        """The multiplier of each of ``names`` (the pool's members now)."""
        return {name: self.priority(name) for name in names}

    def table(self, names: Sequence[str]) -> dict[str, dict[str, float]]:
        """Per member: recent games, win rate, priority and share of all episodes so far."""
        total = sum(self.episodes.values()) or 1
        return {name: {"games": len(self._results.get(name, ())),
                       "win_rate": round(self.win_rate(name), 4),
                       "priority": round(self.priority(name), 4),
                       "share": round(self.episodes.get(name, 0) / total, 4)}
                for name in names}


__all__ = ["DEFAULT_FLOOR", "DEFAULT_POWER", "DEFAULT_WINDOW", "League"]
