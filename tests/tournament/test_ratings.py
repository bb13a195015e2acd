"""openskill ratings over finishing orders."""

from __future__ import annotations

import random

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

    model = PlackettLuce(tau=0.0)
    seat_ratings = model.rate([[model.rating()], [model.rating()], [model.rating()]],
                              ranks=[0, 1, 2])
    final, _ = rate(["a", "b"], [(("b", "a", "b"), (0, 1, 2))])
    from pytest import approx

    assert final["a"].mu == approx(seat_ratings[1][0].mu, abs=1e-12)
    assert final["b"].mu == approx((seat_ratings[0][0].mu + seat_ratings[2][0].mu) / 2,
                                   abs=1e-12)
    assert final["b"].sigma == approx(
        (seat_ratings[0][0].sigma + seat_ratings[2][0].sigma) / 2, abs=1e-12)


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


def test_the_ratings_do_not_depend_on_the_order_of_the_games():
    """a beat b in 60 of 100 games, but b won the last 40: openskill in that order puts b
    far ahead (36.6 against 13.4). The ratings are the same for any order of the same
    games, and a, who won more, is ahead."""
    import random

    games = [(("a", "b"), (0, 1))] * 60 + [(("a", "b"), (1, 0))] * 40
    final, history = rate(["a", "b"], games, total=100, every=10)
    assert final["a"].mu > final["b"].mu
    shuffled = list(games)
    random.Random(5).shuffle(shuffled)
    again, _ = rate(["a", "b"], shuffled, total=100, every=10)
    assert again == final
    one_pass, _ = rate(["a", "b"], games, orders=1)
    assert one_pass != final
    assert history[-1].games == 100 and history[-1].ratings == final
    assert history[-2].ratings["b"].mu > history[-2].ratings["a"].mu  # the pass in order


def test_orders_must_be_positive():
    import pytest

    for bad in (0, -2, True):
        with pytest.raises(ValueError, match="orders="):
            rate(["a", "b"], [(("a", "b"), (0, 1))], orders=bad)


def test_the_update_is_openskills_to_the_bit():
    """plackett_luce_update is openskill's PlackettLuce.rate for one-player teams: the same
    floats, ties and every table size from 2 to 8 included."""
    from eights.tournament.ratings import _model, plackett_luce_update

    model, rng = _model(), random.Random(0)
    for _ in range(2000):
        n = rng.randint(2, 8)
        mus = [rng.uniform(0.0, 50.0) for _ in range(n)]
        sigmas = [rng.uniform(0.5, 9.0) for _ in range(n)]
        ranks = [0] * n if rng.random() < 0.2 else [rng.randint(0, n - 1) for _ in range(n)]
        teams = [[model.rating(mu=m, sigma=s)] for m, s in zip(mus, sigmas, strict=True)]
        expected = model.rate(teams, ranks=list(ranks))
        assert plackett_luce_update(model, mus, sigmas, ranks) == \
            [(team[0].mu, team[0].sigma) for team in expected]
