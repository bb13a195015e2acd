"""The one interface every agent kind shares, and the loop that seats agents at a game.

An agent maps what a seat may know (a :class:`~eights.engines.base.PlayerView`,
whose ``legal_actions`` lists the choices) to one legal action id. Random,
heuristic, search, trained-model and external-program agents all look the
same from outside, so tournaments and the protocol treat them alike.
"""

from __future__ import annotations

import collections
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence

from ..config import GameConfig
from ..engines.base import Engine, PlayerView


class AgentForfeit(RuntimeError):
    """An agent gives up the game instead of acting (an external bot that failed, say).

    ``play_game`` lets it propagate; tournaments catch it and score the game
    as lost by the seat that forfeited, so one broken bot never stops a run.
    """


class Agent(ABC):
    """Maps a :class:`PlayerView` to a legal action id.

    An agent that can fail without stopping the game (an external bot that
    crashes and is replaced by a random move, say) counts each failure in
    :attr:`failures`, keyed by a short kind. It costs a dict update per
    failure and nothing otherwise; a tournament reads :meth:`failure_counts`
    before and after each game and stores the difference per seat, so the
    standings can say how much of an agent's record is really its own play.
    """

    #: the spec string that makes this agent (``"random"``, ``"heuristic"``...)
    name: str = "agent"

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)
        #: failures since the agent was made, by kind (``crash``, ``timeout``, ...)
        self.failures: collections.Counter[str] = collections.Counter()

    def seed(self, seed: int | None) -> None:
        """Reseed the agent's own generator (tournaments do this per game)."""
        self.rng.seed(seed)

    @abstractmethod
    def act(self, view: PlayerView) -> int:
        """One of ``view.legal_actions``."""

    def check_table(self, config: GameConfig) -> None:
        """Refuse, before the first card, a table this agent cannot play.

        Raises :class:`~eights.config.ConfigError` naming what would work (a trained
        model made for another table size, say), so a game, tournament or served session
        fails at its start rather than when the agent first acts. Most agents play any
        table: nothing by default.
        """
        return None

    def game_over(self, view: PlayerView, winners: Sequence[int]) -> None:
        """Told the end of a game it played (external bots pass it on); nothing by default."""
        return None

    def failure_counts(self) -> Mapping[str, int]:
        """Everything counted against the agent since it was made, by kind; a fresh copy.

        By default that is :attr:`failures`; an agent that also counts what it
        did about its failures (fallback moves, restarts) adds those kinds.
        """
        return collections.Counter(getattr(self, "failures", ()))

    def close(self) -> None:
        """Release what the agent holds (a bot's process or connection); nothing by default."""
        return None

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


def play_game(engine: Engine, agents: Sequence[Agent]) -> Engine:
    """Play ``engine`` to its end, seat ``i`` played by ``agents[i]``; returns the engine."""
    if len(agents) != engine.num_players:
        raise ValueError(f"{len(agents)} agents for a {engine.num_players}-player game")
    while not engine.game_over:
        seat = engine.current_player
        action = agents[seat].act(engine.view(seat))
        engine.step(action)
    return engine
