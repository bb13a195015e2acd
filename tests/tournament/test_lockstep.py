"""Lockstep play: a worker plays a policy tournament's games together, so that the policies'
decisions share forward passes, and every game ends as it would alone."""

from __future__ import annotations

import pytest

from eights.agents import AgentForfeit, RandomAgent
from eights.tournament import TablePlayer, Tournament, TournamentError
from eights.tournament import play as play_module
from eights.tournament.play import LOCKSTEP_LANES, lockstep_lanes

POLICY = Tournament("crazy_eights", ("policy", "heuristic", "random"), games=18, seed=5)


@pytest.mark.parametrize(("agents", "lanes"), [
    (("policy", "heuristic"), LOCKSTEP_LANES),
    (("policy#a", "policy#b"), LOCKSTEP_LANES),
    (("random", "heuristic"), 1),
    (("policy", "exec:python bot.py"), 1),
])
def test_lanes_only_where_a_policy_plays_and_every_agent_is_built_in(agents, lanes):
    assert lockstep_lanes(Tournament("crazy_eights", agents, games=2)) == lanes


def _fields(result):
    return (result.index, result.winners, result.ranks, result.scores, result.truncated,
            result.turns, result.actions, result.forfeit, result.decisions, result.failures)


def test_lockstep_games_end_as_they_do_one_at_a_time(monkeypatch):
    games = POLICY.schedule()
    together = TablePlayer(POLICY).play_many(games)
    monkeypatch.setattr(play_module, "LOCKSTEP_LANES", 1)
    alone = TablePlayer(POLICY)
    assert alone.lanes() == 1
    assert [_fields(r) for r in together] == [_fields(alone.play(g)) for g in games]
    assert [r.index for r in together] == [g.index for g in games]
    assert all(sum(r.think) > 0 for r in together)


class _Failing(RandomAgent):
    """Raises on its third decision of every game (``kind`` says how)."""

    def __init__(self, kind: type[Exception]):
        super().__init__(0)
        self.kind, self.calls = kind, 0

    def seed(self, seed):
        super().seed(seed)
        self.calls = 0

    def act(self, view):
        self.calls += 1
        if self.calls == 3:
            raise self.kind("no more")
        return super().act(view)


def _player_with(kind: type[Exception], monkeypatch) -> tuple[TablePlayer, list]:
    player = TablePlayer(POLICY)
    real = player._agent

    def agent(spec, copy, lane=0):
        if spec == "random":
            key = (spec, copy, lane)
            if key not in player._agents:
                player._agents[key] = _Failing(kind)
            return player._agents[key]
        return real(spec, copy, lane)

    monkeypatch.setattr(player, "_agent", agent)
    return player, POLICY.schedule()


def test_a_forfeit_in_one_lane_ends_that_game_only(monkeypatch):
    player, games = _player_with(AgentForfeit, monkeypatch)
    results = player.play_many(games)
    seated = [g for g in games if "random" in g.seats]
    assert seated and len(results) == len(games)
    for game, result in zip(games, results, strict=True):
        if "random" in game.seats:
            assert result.forfeit == game.seats.index("random")
        else:
            assert result.forfeit == -1 and result.winners


def test_an_agent_error_in_lockstep_names_its_game(monkeypatch):
    player, games = _player_with(ValueError, monkeypatch)
    with pytest.raises(TournamentError, match=r"ValueError: no more") as raised:
        player.play_many(games)
    index = int(str(raised.value).split()[1])
    assert "random" in games[index].seats  # the game whose agent raised, not another lane's
