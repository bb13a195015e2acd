"""Confidence intervals for the figures a tournament reports.

Win rates use the Wilson score interval, which stays inside [0, 1] and is
honest near 0% and 100% where the normal approximation is not; mean score
margins use the normal approximation of a mean, fine for the hundreds of
games a table plays.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.959963984540054


def wilson_interval(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """95% Wilson score interval of a win rate; ``wins`` may be fractional (shared wins, draws).

    A rate lies in [0, 1], and so do both bounds, rounding error included
    (no ``-0.0%`` either): a report never shows a win rate's interval
    reaching below zero or above one.
    """
    slack = 1e-9 * max(1, games)  # shared wins are sums of fractions
    if games < 0 or not -slack <= wins <= games + slack:
        raise ValueError(f"{wins!r} wins of {games!r} games is not a win rate")
    if games == 0:
        return (0.0, 1.0)
    p = min(1.0, max(0.0, wins / games))
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(max(0.0, p * (1 - p)) / games + z * z / (4 * games * games)) / denom
    return (min(1.0, max(0.0, centre - half)) + 0.0, max(0.0, min(1.0, centre + half)) + 0.0)


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """``(mean, low, high)``: the mean and its 95% interval (NaN bounds under two values)."""
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = math.fsum(values) / n
    if n < 2:
        return (mean, math.nan, math.nan)
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return (mean, mean - half, mean + half)
