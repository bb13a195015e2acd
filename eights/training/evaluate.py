"""Win rate of one agent against a table of copies of another, on fixed deals.

The evaluated agent takes each seat in turn (game ``g`` puts it in seat
``g % n``) and every other seat holds the opponent; game ``g`` is dealt from
seed ``seed + g``, so two checkpoints evaluated with the same seed meet the
very same deals and their difference is skill, not luck. In an ``n``-player
game the rate to beat by chance is ``1/n``.
"""

from __future__ import annotations

import dataclasses

from ..agents import Agent, make_agent, play_game
from ..engines import make_game
from ..tournament.stats import wilson_interval


@dataclasses.dataclass
class Evaluation:
    opponent: str
    games: int
    wins: float
    truncated: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)


def evaluate(agent: Agent, opponent: str, variant: str, games: int, seed: int = 0,
             **options: object) -> Evaluation:
    """Play ``games`` games of ``agent`` against copies of ``opponent`` (a spec).

    A game won jointly by ``k`` seats counts ``1/k`` for each; a truncated
    game counts as not won.
    """
    engine = make_game(variant, seed=seed, **options)
    n = engine.num_players
    rival = make_agent(opponent, variant)
    wins, truncated = 0.0, 0
    for g in range(games):
        seat = g % n
        agent.seed(seed * 7919 + g)
        rival.seed(seed * 7919 + g + 1)
        engine.reset(seed=seed + g)
        play_game(engine, [agent if k == seat else rival for k in range(n)])
        if seat in engine.winners:
            wins += 1.0 / len(engine.winners)
        truncated += int(engine.truncated)
    return Evaluation(opponent, games, wins, truncated)


__all__ = ["Evaluation", "evaluate"]
