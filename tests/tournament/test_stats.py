"""Confidence intervals."""

from __future__ import annotations

import math

import pytest

from eights.tournament import mean_interval, wilson_interval


def test_wilson_interval():
    lo, hi = wilson_interval(50, 100)
    assert lo == pytest.approx(0.404, abs=1e-3) and hi == pytest.approx(0.596, abs=1e-3)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert wilson_interval(10, 10)[1] == pytest.approx(1.0)
    assert wilson_interval(0, 10)[0] == 0.0
    lo, hi = wilson_interval(2.5, 5)
    assert lo < 0.5 < hi


def test_mean_interval():
    mean, lo, hi = mean_interval([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5
    half = 1.959963984540054 * math.sqrt((1.5**2 + 0.5**2 + 0.5**2 + 1.5**2) / 3 / 4)
    assert (lo, hi) == pytest.approx((2.5 - half, 2.5 + half))
    assert math.isnan(mean_interval([3.0])[1])
    assert math.isnan(mean_interval([])[0])
