"""Schedules: balanced seats, duplicate deals that really replay, seeds independent of order."""

from __future__ import annotations

from collections import Counter

import pytest

from eights import ConfigError, GameRecord, make_game, replay
from eights.tournament import TablePlayer, Tournament


def seat_counts(tournament: Tournament) -> Counter:
    return Counter((agent, seat) for g in tournament.schedule()
                   for seat, agent in enumerate(g.seats))


@pytest.mark.parametrize("agents, players, seating", [
    (("a", "b", "c"), 2, "rotate"),
    (("a", "b", "c", "d"), 3, "rotate"),
    (("a", "b", "c", "d"), 3, "permute"),
    (("a", "b"), 4, "rotate"),
    (("a", "b", "c"), 5, "rotate"),
])
def test_every_agent_plays_each_seat_equally_often(agents, players, seating):
    t = Tournament("crazy_eights", agents, num_players=players, games=7, seating=seating)
    counts = seat_counts(t)
    assert set(counts) == {(a, s) for a in agents for s in range(players)}
    assert len(set(counts.values())) == 1, counts
    assert len(t.schedule()) == t.total_games == len(t.tables()) * t.games_per_table
    assert t.games_per_table % len(t.seatings()) == 0 and t.games_per_table >= 7


def test_tables_are_pairs_or_seat_combinations():
    assert Tournament("crazy_eights", ("a", "b", "c")).tables() == [
        ("a", "b"), ("a", "c"), ("b", "c")]
    assert Tournament("crazy_eights", ("a", "b", "c", "d"), num_players=3).tables() == [
        ("a", "b", "c"), ("a", "b", "d"), ("a", "c", "d"), ("b", "c", "d")]
    # fewer agents than seats: every mix with at least two different agents
    assert Tournament("crazy_eights", ("a", "b"), num_players=3).tables() == [
        ("a", "a", "b"), ("a", "b", "b")]


@pytest.mark.parametrize("agents, players, teams", [
    (("a", "b"), 4, 2),
    (("a", "b", "c"), 4, 2),
    (("a", "b", "c"), 6, 3),
    (("a", "b"), 6, 3),
])
def test_team_play_seats_one_agent_per_team(agents, players, teams):
    t = Tournament("baby_eating_eights", agents, num_players=players, games=5,
                   options={"teams": teams})
    team = t.team_of()
    assert t.sides == teams and t.tables()
    for g in t.schedule():
        by_team = {team[k]: set() for k in range(players)}
        for k, agent in enumerate(g.seats):
            by_team[team[k]].add(agent)
        assert all(len(members) == 1 for members in by_team.values()), g.seats
        assert len(set(g.seats)) > 1
    counts = seat_counts(t)  # every agent holds every seat equally often
    assert set(counts) == {(a, s) for a in agents for s in range(players)}
    assert len(set(counts.values())) == 1, counts
    assert f"in {teams} teams" in t.describe()


def test_a_team_table_is_one_agents_pair_against_anothers():
    t = Tournament("baby_eating_eights", ("a", "b"), num_players=4, games=2,
                   options={"teams": 2})
    assert [g.seats for g in t.schedule()] == [("a", "b", "a", "b"), ("b", "a", "b", "a")]
    # without teams the same table size mixes the agents' seats
    plain = Tournament("baby_eating_eights", ("a", "b"), num_players=4, games=4)
    assert t.team_of() == (0, 1, 0, 1) and plain.team_of() == (0, 1, 2, 3)
    assert ("a", "a", "b", "b") in {g.seats for g in plain.schedule()}


def test_duplicate_deals_replay_the_same_cards_with_seats_permuted():
    t = Tournament("crazy_eights", ("random", "greedy", "heuristic"), num_players=3, games=6)
    player = TablePlayer(t)  # one engine reused across games, as in a real run
    by_deal: dict[int, list] = {}
    for g in t.schedule():
        by_deal.setdefault(g.deal, []).append(g)
    for games in by_deal.values():
        # every table plays every rotation of this deal, all from one deal seed
        assert len(games) == len(t.tables()) * 3
        assert len({g.deal_seed for g in games}) == 1
        assert len({g.seats for g in games}) == len(games)
        starts = set()
        for g in games:
            result = player.play(g)
            record = GameRecord("crazy_eights", t.config().to_dict(), g.deal_seed, None, None,
                                tuple(result.actions.split(";")))
            assert replay(record).winners == result.winners  # this deal is what was played
            fresh = make_game("crazy_eights", num_players=3, seed=g.deal_seed)
            starts.add((tuple(tuple(h) for h in fresh.state.hands), fresh.state.discard[-1],
                        fresh.current_player))
        assert len(starts) == 1, "one deal: the same cards in the same seats, the same leader"


def test_without_duplicate_every_game_has_its_own_deal():
    t = Tournament("crazy_eights", ("a", "b"), games=10, duplicate=False)
    seeds = [g.deal_seed for g in t.schedule()]
    assert len(set(seeds)) == len(seeds) == 10


def test_seeds_depend_on_the_tournament_seed_only():
    one = Tournament("crazy_eights", ("a", "b"), games=4, seed=1).schedule()
    again = Tournament("crazy_eights", ("a", "b"), games=4, seed=1).schedule()
    other = Tournament("crazy_eights", ("a", "b"), games=4, seed=2).schedule()
    assert one == again
    assert [g.deal_seed for g in one] != [g.deal_seed for g in other]
    assert len({s for g in one for s in g.agent_seeds}) == 8


def test_games_round_up_to_whole_seatings():
    t = Tournament("crazy_eights", ("a", "b", "c"), num_players=3, games=4)
    assert t.games_per_table == 6 and t.rounds == 2


def test_agent_lists_with_commas_inside_specs():
    t = Tournament("crazy_eights", "random,ismcts:sims=5,c=2,heuristic")
    assert t.agents == ("random", "ismcts:sims=5,c=2", "heuristic")


@pytest.mark.parametrize("kwargs, message", [
    ({"agents": ("random",)}, "at least two different agents"),
    ({"agents": ("random", "random", "heuristic")}, "listed twice: random"),
    ({"games": 0}, "games=0 is not allowed"),
    ({"seating": "shuffle"}, "seating must be one of rotate, permute"),
    ({"num_players": 9}, "num_players"),
    ({"options": {"hand_size": 0}}, "hand_size"),
    ({"options": {"num_players": 3}}, "give the table size as num_players"),
    ({"variant": "crazy_nines"}, "not known"),
    ({"seed": "x"}, "seed"),
])
def test_bad_definitions_are_named(kwargs, message):
    args = {"variant": "crazy_eights", "agents": ("random", "heuristic"), **kwargs}
    with pytest.raises(ConfigError, match=message):
        Tournament(**args)
