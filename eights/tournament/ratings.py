"""Ratings from finishing orders with openskill's Plackett-Luce model.

Plackett-Luce reads a whole finishing order, so a 5-player game teaches it
more than five separate win/loss results would, and ties (a truncated game,
equal points) are part of the model. Games are rated in schedule order,
whatever order they finished in, so every backend gives the same ratings.
The history is kept at the end of each round of the schedule, where every
table has played equally (see :func:`rate`'s ``every``).

An agent seated more than once at a table (a table with fewer agents than
seats) is rated per seat and then given the mean of its seats' updates.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .stats import Z95

#: rating history points kept per agent, however long the tournament
HISTORY_POINTS = 400


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """``mu - 3 sigma``: the conservative estimate tables are sorted by."""
        return self.mu - 3 * self.sigma

    @property
    def interval(self) -> tuple[float, float]:
        """95% interval of the skill estimate."""
        return (self.mu - Z95 * self.sigma, self.mu + Z95 * self.sigma)


@dataclass(frozen=True)
class HistoryPoint:
    games: int
    ratings: dict[str, Rating]


def _model():
    try:
        from openskill.models import PlackettLuce
    except ImportError:  # pragma: no cover - a core dependency
        raise ImportError("ratings need openskill: pip install openskill") from None
    return PlackettLuce()


def rate(agents: Sequence[str], games: Iterable[tuple[Sequence[str], Sequence[int]]],
         total: int | None = None, every: int | None = None
         ) -> tuple[dict[str, Rating], list[HistoryPoint]]:
    """Ratings after ``games`` (seats, ranks) in order, and a thinned history of them.

    The history has a point every ``every`` games (a tournament passes its
    games per round, so each point has every table equally played), thinned
    to multiples of it to keep about :data:`HISTORY_POINTS`, and the last game.
    """
    if every is not None and (isinstance(every, bool) or every < 1):
        raise ValueError(f"every={every!r} is not allowed; give 1 or more games")
    model = _model()
    current = {a: (model.mu, model.sigma) for a in agents}
    history = [HistoryPoint(0, {a: Rating(*current[a]) for a in agents})]
    step = every or 1
    every = step * max(1, math.ceil((total or 0) / step / HISTORY_POINTS))
    played = 0
    for seats, ranks in games:
        teams = [[model.rating(mu=current[s][0], sigma=current[s][1])] for s in seats]
        updated = model.rate(teams, ranks=list(ranks))
        sums: dict[str, list[float]] = {}
        for s, (r,) in zip(seats, updated, strict=True):
            acc = sums.setdefault(s, [0.0, 0.0, 0])
            acc[0] += r.mu
            acc[1] += r.sigma
            acc[2] += 1
        for s, (mu, sigma, n) in sums.items():
            current[s] = (mu / n, sigma / n)
        played += 1
        if played % every == 0:
            history.append(HistoryPoint(played, {a: Rating(*current[a]) for a in agents}))
    if history[-1].games != played:
        history.append(HistoryPoint(played, {a: Rating(*current[a]) for a in agents}))
    return {a: Rating(*current[a]) for a in agents}, history
