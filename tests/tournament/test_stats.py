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


@pytest.mark.parametrize(("wins", "games"), [(0, 1), (1, 1), (0.5, 1), (1 / 3 * 3, 3),
                                             (2.9999999999999996, 3), (0, 10_000),
                                             (10_000, 10_000)])
def test_a_win_rate_interval_stays_inside_zero_and_one(wins, games):
    lo, hi = wilson_interval(wins, games)
    assert 0.0 <= lo <= wins / games <= hi <= 1.0
    assert math.copysign(1, lo) == 1  # never -0.0, which prints as "-0.0%"
    assert f"{lo:.1%}"[0] != "-"


def test_an_impossible_win_count_is_refused():
    with pytest.raises(ValueError, match="11 wins of 10 games"):
        wilson_interval(11, 10)
    with pytest.raises(ValueError, match="-1 wins"):
        wilson_interval(-1, 10)


def test_plus_minus_and_intervals_as_written():
    from eights.tournament.text import interval, number, plus_minus

    assert plus_minus(25.0, 20.0, 30.0, ".1f") == "25.0 ±5.0"
    assert plus_minus(2.0, -3.0, 7.0, "+.1f") == "+2.0 ±5.0"
    assert plus_minus(2.0, 7.0, -3.0, "+.1f") == "+2.0 ±5.0"  # bounds either way round
    # a clipped interval is not symmetric: written out, not as a ± that would lie
    assert plus_minus(0.02, 0.0, 0.2, ".2f") == "0.02 [0.00, 0.20]"
    assert plus_minus(3.0, math.nan, math.nan, ".1f") == "3.0"
    assert plus_minus(math.nan, math.nan, math.nan, ".1f") == "-"
    assert interval(-3.25, 20.0) == "[-3.2, 20.0]"
    assert interval(0.0, 0.2, ".0%") == "[0%, 20%]"
    assert interval(math.nan, 1.0) == "-"
    assert number(math.nan) == "-" and number(0.5, ".0%") == "50%"
