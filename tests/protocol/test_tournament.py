"""External bots in a tournament: a forfeiting bot loses its games and the run goes on."""

from __future__ import annotations

from eights.agents import AgentForfeit
from eights.protocol.errors import BotForfeit
from eights.tournament import Tournament, run_tournament
from tests.protocol.conftest import fake_bot


def test_bot_forfeit_is_an_agent_forfeit() -> None:
    assert issubclass(BotForfeit, AgentForfeit)


def test_a_tournament_goes_on_past_crashing_and_garbage_bots() -> None:
    crasher = fake_bot("crash") + "?on_error=forfeit"
    babbler = fake_bot("garbage") + "?on_error=fallback"
    tournament = Tournament("livery_eights", ("heuristic", crasher, babbler), games=2, seed=3)
    result = run_tournament(tournament, report=False)
    assert result.games_played == tournament.total_games == 6
    by_agent = {s.agent: s for s in result.standings}
    crashes = by_agent[crasher]
    assert crashes.games == 4
    assert 1 <= crashes.forfeits <= 4  # every game in which it was asked to decide
    assert by_agent[babbler].forfeits == 0 and by_agent["heuristic"].forfeits == 0
