"""Ratings from finishing orders with openskill's Plackett-Luce model.

Plackett-Luce reads a whole finishing order, so a 5-player game teaches it
more than five separate win/loss results would, and ties (a truncated game,
equal points) are part of the model.

openskill rates one game after another, and where a game comes in the order
matters a great deal: the last few hundred games outweigh the rest. Rated in
schedule order, a policy that beat the heuristic 60% of 300 games head to
head was ranked below it (``benchmarks/rating_order.py`` measures this). The
agents of a tournament do not change while it runs, so their ratings should
not depend on the order of their games. :func:`rate` therefore rates the same
games in :data:`ORDERS` seeded random orders (of the games sorted first, so
the result depends only on which games were played) with ``tau=0`` (no skill
drift between games) and gives each agent the mean of its ratings over the
orders; the ranking is then the same whatever order the games were stored in.

The history is one pass in schedule order, kept at the end of each round of
the schedule, where every table has played equally (see :func:`rate`'s
``every``); its last point is the order-free rating.

An agent seated more than once at a table (a table with fewer agents than
seats) is rated per seat and then given the mean of its seats' updates.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .stats import Z95

#: rating history points kept per agent, however long the tournament
HISTORY_POINTS = 400
#: random orders the games are rated in; the final rating is the mean over them
ORDERS = 16


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
    return PlackettLuce(tau=0.0)  # the agents' skills do not drift during a tournament


Game = tuple[Sequence[str], Sequence[int]]


def plackett_luce_update(model, mus: Sequence[float], sigmas: Sequence[float],
                         ranks: Sequence[int]) -> list[tuple[float, float]]:
    """``model.rate([[r] for r in ratings], ranks=ranks)`` for one-player teams, float for
    float, without openskill's per-call objects.

    openskill's ``rate`` deep-copies its rating objects and gives each new one a
    ``uuid4``: about 50 us a two-player game, which made the ratings most of a
    tournament whose games play on a compiled core (17 passes over the games). This is
    the same arithmetic in the same order (Weng and Lin's Algorithm 4 as openskill 6
    computes it with ``tau=0``, no weights, scores, margin or balance: the teams sorted
    by rank, the sums over them in that order, the default gamma), checked against
    ``model.rate`` to the bit by ``tests/tournament/test_ratings.py``.
    """
    n = len(mus)
    order = sorted(range(n), key=lambda i: ranks[i])  # stable, as openskill's sort
    rank = [int(ranks[i]) for i in order]
    sigma = [math.sqrt(sigmas[i] * sigmas[i] + 0.0) for i in order]  # the tau step, tau=0
    mu = [0.0 + mus[i] * 1.0 for i in order]
    sigma_sq = [0.0 + (s * 1.0) ** 2 for s in sigma]
    beta_sq = model.beta ** 2
    total = 0.0
    for x in sigma_sq:
        total += x + beta_sq
    c = math.sqrt(total)
    exps = [math.exp(m / c) for m in mu]
    sum_q = [0.0] * n
    for i in range(n):
        for q in range(n):
            if rank[i] >= rank[q]:
                sum_q[q] += exps[i]
    ties = [rank.count(r) for r in rank]
    out: list[tuple[float, float]] = [(0.0, 0.0)] * n
    for i in range(n):
        omega = delta = 0.0
        for q in range(n):
            share = exps[i] / sum_q[q]
            if rank[q] <= rank[i]:
                delta += share * (1 - share) / ties[q]
                if q == i:
                    omega += (1 - share) / ties[q]
                else:
                    omega -= share / ties[q]
        omega *= sigma_sq[i] / c
        delta *= sigma_sq[i] / c ** 2
        delta *= math.sqrt(sigma_sq[i]) / c
        s = sigma[i]
        if omega >= 0:
            new_mu = mu[i] + (s ** 2 / sigma_sq[i]) * omega * 1.0
            new_sigma = s * math.sqrt(max(1 - (s ** 2 / sigma_sq[i]) * delta * 1.0,
                                          model.kappa))
        else:
            new_mu = mu[i] + (s ** 2 / sigma_sq[i]) * omega / 1.0
            new_sigma = s * math.sqrt(max(1 - (s ** 2 / sigma_sq[i]) * delta / 1.0,
                                          model.kappa))
        out[order[i]] = (new_mu, new_sigma)
    return out


def _play_through(model, agents: Sequence[str], games: Iterable[Game],
                  every: int | None = None) -> tuple[dict[str, tuple[float, float]],
                                                     list[HistoryPoint]]:
    """One openskill pass over ``games`` in the given order: the (mu, sigma) at the end,
    and a point every ``every`` games (none when ``every`` is None)."""
    current = {a: (model.mu, model.sigma) for a in agents}
    history: list[HistoryPoint] = []
    for played, (seats, ranks) in enumerate(games, 1):
        updated = plackett_luce_update(model, [current[s][0] for s in seats],
                                       [current[s][1] for s in seats], ranks)
        sums: dict[str, list[float]] = {}
        for s, (mu, sigma) in zip(seats, updated, strict=True):
            acc = sums.setdefault(s, [0.0, 0.0, 0])
            acc[0] += mu
            acc[1] += sigma
            acc[2] += 1
        for s, (mu, sigma, n) in sums.items():
            current[s] = (mu / n, sigma / n)
        if every is not None and played % every == 0:
            history.append(HistoryPoint(played, {a: Rating(*current[a]) for a in agents}))
    return current, history


def rate(agents: Sequence[str], games: Iterable[Game], total: int | None = None,
         every: int | None = None, orders: int = ORDERS
         ) -> tuple[dict[str, Rating], list[HistoryPoint]]:
    """Order-free ratings after ``games`` (seats, ranks), and a thinned history of them.

    The ratings are the mean over ``orders`` seeded random orders of the games (see the
    module docstring). The history has a point every ``every`` games of the order given
    (a tournament passes its games per round, so each point has every table equally
    played), thinned to multiples of it to keep about :data:`HISTORY_POINTS`; its last
    point, after the last game, holds the order-free ratings.
    """
    if every is not None and (isinstance(every, bool) or every < 1):
        raise ValueError(f"every={every!r} is not allowed; give 1 or more games")
    if isinstance(orders, bool) or orders < 1:
        raise ValueError(f"orders={orders!r} is not allowed; give 1 or more orders")
    model = _model()
    games = [(tuple(seats), tuple(ranks)) for seats, ranks in games]
    step = every or 1
    every = step * max(1, math.ceil((total or 0) / step / HISTORY_POINTS))
    start = HistoryPoint(0, {a: Rating(model.mu, model.sigma) for a in agents})
    _, history = _play_through(model, agents, games, every)
    canonical = sorted(games)
    sums = {a: [0.0, 0.0] for a in agents}
    for k in range(orders):
        order = list(canonical)
        random.Random(k).shuffle(order)
        final, _ = _play_through(model, agents, order)
        for a in agents:
            sums[a][0] += final[a][0]
            sums[a][1] += final[a][1]
    ratings = {a: Rating(mu / orders, sigma / orders) for a, (mu, sigma) in sums.items()}
    history = [start, *(h for h in history if h.games != len(games))]
    if games:
        history.append(HistoryPoint(len(games), ratings))
    return ratings, history
