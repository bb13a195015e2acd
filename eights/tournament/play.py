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
from collections.abc import Generator, Mapping, Sequence
from typing import Any, NamedTuple

from threadpoolctl import threadpool_limits

from ..agents import IN_PROCESS_KINDS, Agent, AgentForfeit, make_agent, spec_kind
from ..agents.policy import PolicyAgent, act_together
from ..config import ConfigError
from ..engines import make_game
from .schedule import ScheduledGame, Tournament

log = logging.getLogger(__name__)

#: separates the decisions of a game in the results store (no action text contains it)
ACTION_SEPARATOR = ";"
#: games a :class:`TablePlayer` plays at once when policy agents can answer them together
LOCKSTEP_LANES = 16


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


def lockstep_lanes(tournament: Tournament, compiled: bool = False) -> int:
    """Games a worker plays at once: the compiled core's tables where its games play there
    (:mod:`.compiled`), :data:`LOCKSTEP_LANES` when a policy agent sits at the table and
    every agent is built in (an external bot per lane would be a program per lane), else
    1."""
    if compiled:
        from .compiled import COMPILED_LANES

        return COMPILED_LANES
    kinds = [spec_kind(spec) for spec in tournament.agents]
    if "policy" in kinds and all(k in IN_PROCESS_KINDS for k in kinds):
        return LOCKSTEP_LANES
    return 1


class TablePlayer:
    """Plays the games of one tournament; keeps one agent per (spec, place at the table, lane).

    :meth:`play` plays one game; :meth:`play_many` plays several in lockstep, each
    on its own engine and its own agents (a *lane*), so that the policy agents
    waiting on all of them answer in one forward pass per model
    (:func:`~eights.agents.policy.act_together`) instead of one per decision. Every
    lane's agents are reseeded per game as in :meth:`play`, so a game's result
    is the same either way (up to the last bits of a batched matrix product).

    ``compiled``: play on the variant's compiled core (:class:`.compiled.CompiledGames`,
    the same results; :func:`.compiled.plays_compiled` decides).
    """

    def __init__(self, tournament: Tournament, compiled: bool = False):
        self.tournament = tournament
        self.engine = make_game(tournament.variant, seed=0, config=tournament.config())
        self._engines = [self.engine]
        self._agents: dict[tuple[str, int, int], Agent] = {}
        self._compiled: Any = None
        if compiled:
            from .compiled import CompiledGames

            self._compiled = CompiledGames(tournament)
        self.compiled = compiled

    def close(self) -> None:
        """Close every agent (external bots say bye and stop)."""
        for agent in self._agents.values():
            agent.close()
        self._agents.clear()

    def _agent(self, spec: str, copy: int, lane: int = 0) -> Agent:
        key = (spec, copy, lane)
        if key not in self._agents:
            self._agents[key] = make_agent(spec, self.tournament.variant)
        return self._agents[key]

    def _engine(self, lane: int) -> Any:
        while len(self._engines) <= lane:
            self._engines.append(make_game(self.tournament.variant, seed=0,
                                           config=self.tournament.config()))
        return self._engines[lane]

    def lanes(self) -> int:
        """How many games :meth:`play_many` plays at once (:func:`lockstep_lanes`)."""
        return lockstep_lanes(self.tournament, self._compiled is not None)

    def play(self, game: ScheduledGame) -> GameResult:
        return self.play_many([game])[0]

    def play_many(self, games: Sequence[ScheduledGame]) -> list[GameResult]:
        """Play ``games`` in lockstep, :meth:`lanes` at a time; their results in the order
        given."""
        if self._compiled is not None:
            return self._compiled.play_many(games)
        lanes = self.lanes()
        results: list[GameResult] = []
        # one BLAS thread: a batch of a few views is too small to split, and two threads
        # per worker process fight over the cores (16 views took 7 ms on two threads, 0.6 ms
        # on one, on the loaded 2-core machine)
        with threadpool_limits(1, user_api="blas"):
            for start in range(0, len(games), lanes):
                results.extend(self._lockstep(games[start:start + lanes]))
        return results

    def _lockstep(self, games: Sequence[ScheduledGame]) -> list[GameResult]:
        """Each game on its own lane; at every round the policy agents' decisions of all
        lanes go through :func:`act_together`, every other agent answers alone. What an
        agent raises goes back into its game (:meth:`_game` names it or forfeits)."""
        results: list[GameResult | None] = [None] * len(games)
        running = {lane: self._game(game, lane) for lane, game in enumerate(games)}
        asks = {lane: next(play) for lane, play in running.items()}
        clock = time.perf_counter
        while asks:
            answers: dict[int, tuple[Any, float, BaseException | None]] = {}
            batched = [lane for lane, (agent, _) in asks.items()
                       if isinstance(agent, PolicyAgent)]
            if len(batched) > 1:
                started = clock()
                try:
                    actions = act_together([asks[lane] for lane in batched])
                except Exception:  # each lane's agent again alone, to name the one that failed
                    batched = []
                else:
                    share = (clock() - started) / len(batched)
                    answers.update((lane, (a, share, None))
                                   for lane, a in zip(batched, actions, strict=True))
            for lane, (agent, view) in asks.items():
                if lane not in answers:
                    started = clock()
                    try:
                        answers[lane] = (agent.act(view), clock() - started, None)
                    except Exception as err:  # raised into its game below
                        answers[lane] = (None, clock() - started, err)
            for lane, (action, seconds, err) in answers.items():
                play = running[lane]
                try:
                    asks[lane] = play.throw(err) if err is not None else play.send(
                        (action, seconds))
                except StopIteration as done:
                    results[lane] = done.value
                    del running[lane], asks[lane]
        return results  # type: ignore[return-value]

    def _game(self, game: ScheduledGame, lane: int
              ) -> Generator[tuple[Agent, Any], tuple[int, float], GameResult]:
        """One game on lane ``lane``: yields (agent, view) at each decision and is sent the
        action back with the seconds the agent took (or has the agent's error thrown in);
        returns its result."""
        start = time.perf_counter()
        agents = []
        for k, spec in enumerate(game.seats):
            agent = self._agent(spec, game.seats[:k].count(spec), lane)
            agent.seed(game.agent_seeds[k])
            agents.append(agent)
        engine = self._engine(lane)
        forfeit = -1
        before = [agent.failure_counts() for agent in agents]
        decisions = [0] * len(agents)
        think = [0.0] * len(agents)
        try:
            engine.reset(seed=game.deal_seed)
            while not engine.game_over:
                seat = engine.current_player
                decisions[seat] += 1
                try:
                    action, seconds = yield agents[seat], engine.view(seat)
                except AgentForfeit as err:
                    forfeit = seat
                    log.warning("game %d: seat %d (%s) forfeits: %s", game.index, seat,
                                game.seats[seat], err)
                    break
                think[seat] += seconds
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
