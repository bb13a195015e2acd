"""openskill ratings over finishing orders."""

from __future__ import annotations

from eights.tournament import rate


def test_the_agent_that_finishes_ahead_rises():
    games = [(("a", "b"), (0, 1))] * 20
    final, history = rate(["a", "b"], games, total=20)
    assert final["a"].mu > 25 > final["b"].mu
    assert final["a"].sigma < 25 / 3
    assert history[0].games == 0 and history[-1].games == 20
    assert history[0].ratings["a"].mu == 25


def test_ties_move_equal_agents_nowhere():
    final, _ = rate(["a", "b"], [(("a", "b"), (0, 0))] * 10)
    assert abs(final["a"].mu - final["b"].mu) < 1e-9


def test_finishing_orders_of_many_seats():
    games = [(("a", "b", "c"), (0, 1, 2)), (("c", "a", "b"), (2, 0, 1))] * 10
    final, _ = rate(["a", "b", "c"], games)
    assert final["a"].mu > final["b"].mu > final["c"].mu


def test_an_agent_in_two_seats_gets_the_mean_of_its_seats():
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    seat_ratings = model.rate([[model.rating()], [model.rating()], [model.rating()]],
                              ranks=[0, 1, 2])
    final, _ = rate(["a", "b"], [(("b", "a", "b"), (0, 1, 2))])
    assert final["a"].mu == seat_ratings[1][0].mu
    assert final["b"].mu == (seat_ratings[0][0].mu + seat_ratings[2][0].mu) / 2
    assert final["b"].sigma == (seat_ratings[0][0].sigma + seat_ratings[2][0].sigma) / 2


def test_history_is_thinned_but_keeps_the_end():
    games = [(("a", "b"), (0, 1))] * 1000
    _, history = rate(["a", "b"], games, total=1000)
    assert len(history) <= 402
    assert history[-1].games == 1000


def test_history_points_fall_on_whole_steps():
    import pytest

    games = [(("a", "b"), (0, 1))] * 25
    _, history = rate(["a", "b"], games, total=25, every=6)
    assert [h.games for h in history] == [0, 6, 12, 18, 24, 25]  # and the last game
    for bad in (0, -1, True):
        with pytest.raises(ValueError, match="every="):
            rate(["a", "b"], games, every=bad)
