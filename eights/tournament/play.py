"""Playing scheduled games: the one function every backend runs, in whatever process.

A :class:`TablePlayer` holds one engine and the agents of one tournament;
each game reseeds the agents from the schedule and deals from the game's
deal seed, so the result depends on the :class:`ScheduledGame` alone. An
agent that forfeits (:class:`~eights.agents.AgentForfeit`) loses the game
where it stands; any other error stops the tournament, naming the game.

Each game also says, per seat, how many decisions the agent was asked for,
how long it thought (the run's duration estimate reads that), and what it
counted against itself during the game (:meth:`~eights.agents.Agent.failure_counts`:
an external bot's fallback moves and restarts, say).
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Mapping
from typing import NamedTuple

from ..agents import Agent, AgentForfeit, make_agent
from ..config import ConfigError
from ..engines import make_game
from .schedule import ScheduledGame, Tournament

log = logging.getLogger(__name__)

#: separates the decisions of a game in the results store (no action text contains it)
ACTION_SEPARATOR = ";"


class TournamentError(RuntimeError):
    """A scheduled game could not be played; names the game so it can be replayed alone."""


class GameResult(NamedTuple):
    """What one game produced; with its :class:`ScheduledGame` it is a row of the store."""

    index: int
    winners: tuple[int, ...]
    ranks: tuple[int, ...]
    scores: tuple[int, ...]
    truncated: bool
    turns: int
    actions: str
    seconds: float
    #: the seat that forfeited (the game stopped there and it lost), else -1
    forfeit: int = -1
    #: per seat: decisions asked, seconds spent deciding, failures counted in this game
    decisions: tuple[int, ...] = ()
    think: tuple[float, ...] = ()
    failures: tuple[dict[str, int], ...] = ()


class TablePlayer:
    """Plays the games of one tournament; keeps one agent per (spec, place at the table)."""

    def __init__(self, tournament: Tournament):
        self.tournament = tournament
        self.engine = make_game(tournament.variant, seed=0, config=tournament.config())
        self._agents: dict[tuple[str, int], Agent] = {}

    def close(self) -> None:
        """Close every agent (external bots say bye and stop)."""
        for agent in self._agents.values():
            agent.close()
        self._agents.clear()

    def _agent(self, spec: str, copy: int) -> Agent:
        key = (spec, copy)
        if key not in self._agents:
            self._agents[key] = make_agent(spec, self.tournament.variant)
        return self._agents[key]

    def play(self, game: ScheduledGame) -> GameResult:
        start = time.perf_counter()
        agents = []
        for k, spec in enumerate(game.seats):
            agent = self._agent(spec, game.seats[:k].count(spec))
            agent.seed(game.agent_seeds[k])
            agents.append(agent)
        engine = self.engine
        forfeit = -1
        before = [agent.failure_counts() for agent in agents]
        decisions = [0] * len(agents)
        think = [0.0] * len(agents)
        clock = time.perf_counter
        try:
            engine.reset(seed=game.deal_seed)
            while not engine.game_over:
                seat = engine.current_player
                decisions[seat] += 1
                asked = clock()
                try:
                    action = agents[seat].act(engine.view(seat))
                except AgentForfeit as err:
                    think[seat] += clock() - asked
                    forfeit = seat
                    log.warning("game %d: seat %d (%s) forfeits: %s", game.index, seat,
                                game.seats[seat], err)
                    break
                think[seat] += clock() - asked
                engine.step(action)
        except ConfigError:
            raise
        except Exception as err:
            raise TournamentError(
                f"game {game.index} ({' vs '.join(game.seats)}, deal seed {game.deal_seed}) "
                f"failed: {type(err).__name__}: {err}") from err
        n = engine.num_players
        for k, agent in enumerate(agents):
            agent.game_over(engine.view(k), engine.winners)
        if forfeit >= 0:  # everyone else shares the win; the forfeiting seat is last
            winners = tuple(p for p in range(n) if p != forfeit)
            ranks = tuple(n - 1 if p == forfeit else 0 for p in range(n))
        else:
            winners, ranks = tuple(engine.winners), engine.ranks()
        return GameResult(
            index=game.index,
            winners=winners,
            ranks=ranks,
            scores=tuple(int(x) for x in engine.final_scores()),
            truncated=bool(engine.truncated),
            turns=engine.turn,
            actions=ACTION_SEPARATOR.join(engine.record().actions),
            seconds=time.perf_counter() - start,
            forfeit=forfeit,
            decisions=tuple(decisions),
            think=tuple(think),
            failures=tuple(_counted_since(agent, was)
                           for agent, was in zip(agents, before, strict=True)),
        )


def _counted_since(agent: Agent, before: Mapping[str, int]) -> dict[str, int]:
    """What ``agent`` counted against itself since its counts were ``before``, by kind."""
    grown = Counter(agent.failure_counts())
    grown.subtract(before)
    return {kind: n for kind, n in sorted(grown.items()) if n > 0}
